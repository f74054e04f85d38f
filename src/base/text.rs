//! Values that serialise as their command-line text: a type with `Display`
//! and `FromStr` (where `from_str(x.to_string()) == x`) is written to JSON as
//! the string a user types after its flag, and read back through `FromStr`
//! with its error message. The run specification ([`crate::harness::RunSpec`])
//! is made of such values, so its JSON, its trace header and its replay
//! command say every parameter the same way.

/// Implements `Serialize` (as `to_string()`) and `Deserialize` (by
/// `FromStr`) for each type given.
#[macro_export]
#[doc(hidden)]
macro_rules! serde_as_text {
    ($($t:ty),+ $(,)?) => {$(
        impl ::serde::Serialize for $t {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> ::std::result::Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $t {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> ::std::result::Result<Self, D::Error> {
                let text = <::std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(d)?;
                text.parse().map_err(::serde::de::Error::custom)
            }
        }
    )+};
}

/// True for a type's default value (`skip_serializing_if`: a key absent
/// from the JSON is the default).
pub fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// `text` cut after `max` characters, saying how long it was: for
/// messages that quote their input, which may be a whole line of a trace.
pub fn clip(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}… ({} bytes in all)", &text[..i], text.len()).into(),
        None => text.into(),
    }
}

/// `Option<(A, B)>` as the text `A{SEP}B` (e.g. `--latency 1..40`, `--slow
/// 2:10`), declared as a module for `#[serde(with = ...)]`.
#[macro_export]
#[doc(hidden)]
macro_rules! text_pair {
    ($name:ident, $a:ty, $b:ty, $sep:literal, $parse:path) => {
        /// `Option<(A, B)>` as its command-line text.
        pub mod $name {
            use ::serde::{Deserialize, Deserializer, Serializer};

            /// As `A{SEP}B`.
            pub fn serialize<S: Serializer>(v: &Option<($a, $b)>, s: S) -> Result<S::Ok, S::Error> {
                match v {
                    Some((a, b)) => s.collect_str(&format_args!(concat!("{}", $sep, "{}"), a, b)),
                    None => s.serialize_none(),
                }
            }

            /// By the flag's parser.
            pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<($a, $b)>, D::Error> {
                let text: Option<String> = Option::deserialize(d)?;
                text.map(|t| $parse(&t)).transpose().map_err(::serde::de::Error::custom)
            }
        }
    };
}

/// A `Duration` as whole seconds (`--timeout N`), for `#[serde(with = ...)]`.
pub mod seconds {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    /// As a number of seconds.
    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(d.as_secs())
    }

    /// From a number of seconds.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_secs)
    }

    /// `Option<Duration>` as whole seconds, at least 1 (`None`: absent).
    pub mod optional {
        use std::time::Duration;

        use serde::{Deserialize, Deserializer, Serializer};

        /// As a number of seconds (at least 1), or none.
        pub fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
            match d {
                Some(d) => s.serialize_u64(d.as_secs().max(1)),
                None => s.serialize_none(),
            }
        }

        /// From a number of seconds, or none.
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
            Option::<u64>::deserialize(d).map(|s| s.map(Duration::from_secs))
        }
    }
}
