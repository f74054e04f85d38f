//! Reading an event's `data` as far as a property reads it: the members
//! [`READ`] names, each a number or a boolean; every other member, and any
//! nesting, is skipped as it is parsed. A `data` of a megabyte thus costs
//! no memory beyond its line, where a generic JSON value cost thirty times
//! its size. Every reader of `data` gets what it got from the whole value:
//! they look up these members and want a number or a boolean.

use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::Data;

/// The members of `data` a property reads: `ready` and `key` (the atomic
/// machine's receive step and priority key, `atomic_conformance`), `q` and
/// `black` (Safra's token, `detector_conformance`), `phase` (the adaptive
/// trigger's notification).
pub const READ: [&str; 5] = ["ready", "key", "q", "black", "phase"];

/// `#[serde(deserialize_with)]` for a `data` field.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Data, D::Error> {
    Ok(Some(Box::new(d.deserialize_any(Kept { top: true })?)))
}

/// A value kept as far as it is read: at the top, an object's members of
/// [`READ`]; below, numbers and booleans (anything else is null).
struct Kept {
    top: bool,
}

impl<'de> Visitor<'de> for Kept {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, _: &str) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Value::Null)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut kept = Map::new();
        while let Some(key) = map.next_key::<Key>()? {
            match key.0.filter(|_| self.top) {
                Some(name) => _ = kept.insert(name.into(), map.next_value_seed(Kept { top: false })?),
                None => _ = map.next_value::<IgnoredAny>()?,
            }
        }
        Ok(if self.top { Value::Object(kept) } else { Value::Null })
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for Kept {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// A member's name: one of [`READ`], or `None` (not kept).
struct Key(Option<&'static str>);

impl<'de> serde::Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        struct Name;
        impl Visitor<'_> for Name {
            type Value = Key;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a member name")
            }
            fn visit_str<E>(self, v: &str) -> Result<Key, E> {
                Ok(Key(READ.iter().copied().find(|&k| k == v)))
            }
        }
        d.deserialize_str(Name)
    }
}

#[cfg(test)]
mod tests {
    use crate::event::Event;

    fn data_of(line: &str) -> Option<serde_json::Value> {
        match serde_json::from_str::<Event>(line).unwrap() {
            Event::Send { data, .. } => data.map(|d| *d),
            e => panic!("{e:?}"),
        }
    }

    /// The members a property reads are kept; the rest, and nesting, not.
    #[test]
    fn only_the_members_read_are_kept() {
        let send =
            |data: &str| format!(r#"{{"ev":"send","t":1,"from":0,"to":1,"id":1,"kind":"control","data":{data}}}"#);
        let big = format!(r#"{{"q":-3,"black":true,"log":["{}"],"key":{{"deep":[1,2]}}}}"#, "x".repeat(100_000));
        assert_eq!(data_of(&send(&big)), Some(serde_json::json!({"q": -3, "black": true, "key": null})));
        assert_eq!(data_of(&send(r#"{"ready":7,"phase":2.5}"#)), Some(serde_json::json!({"ready": 7, "phase": 2.5})));
        assert_eq!(data_of(&send(r#"[1,{"q":1}]"#)), Some(serde_json::Value::Null));
        assert_eq!(data_of(&send(r#""text""#)), Some(serde_json::Value::Null));
        assert_eq!(data_of(&send("null")), Some(serde_json::Value::Null));
        assert_eq!(data_of(r#"{"ev":"send","t":1,"from":0,"to":1,"id":1,"kind":"control"}"#), None);
    }
}
