//! A detector's own messages, typed: any serialisable payload travels as a
//! [`Msg::Control`] (kind `control` in the trace, the payload its `data`,
//! docs/trace-format.md), so that a user's detector sends its own signals
//! (Dijkstra–Scholten's acknowledgements, EWD687a; Safra's token, EWD998)
//! without writing JSON by hand. Every driver carries control messages
//! unchanged: the simulators, the explorer, threads (by value) and MPI (as
//! JSON, [`super::wire`]).
//!
//! ```
//! use lbcheck::protocol::Msg;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Debug, PartialEq, Serialize, Deserialize)]
//! struct Ack { count: u32 }
//!
//! let msg: Msg<()> = Msg::control(&Ack { count: 2 });
//! assert_eq!(msg.data().unwrap().to_string(), r#"{"count":2}"#); // the trace's `data`
//! assert_eq!(msg.control_payload::<Ack>(), Ok(Ack { count: 2 }));
//! ```

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::Msg;
use crate::event::Kind;

/// Why a message's control payload could not be read as the type asked for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ControlError {
    /// The message is not a control message.
    #[error("a `{}` message is not a control message", .0.name())]
    NotControl(Kind),
    /// The payload is not of the type asked for (serde's message).
    #[error("control payload {data} is not the type asked for: {why}")]
    Payload {
        /// The payload, as JSON.
        data: String,
        /// serde's reason.
        why: String,
    },
}

impl<T> Msg<T> {
    /// A control message carrying `payload`, serialised to JSON: it shows
    /// in the trace as kind `control` with `payload` as `data`.
    ///
    /// # Panics
    ///
    /// If `payload`'s [`Serialize`] fails, which the derived impls never
    /// do but for a map whose keys are not strings: a bug in the
    /// detector, not a run's input.
    ///
    /// ```
    /// use lbcheck::event::Kind;
    /// use lbcheck::protocol::Msg;
    ///
    /// let ack: Msg<()> = Msg::control(&"ack");
    /// assert_eq!(ack.kind(), Kind::Control);
    /// ```
    pub fn control<P: Serialize + ?Sized>(payload: &P) -> Msg<T> {
        match serde_json::to_value(payload) {
            Ok(v) => Msg::Control(Box::new(v)),
            Err(e) => panic!("a control message's payload must serialise to JSON: {e}"),
        }
    }

    /// The payload of a control message, read as a `P`.
    ///
    /// ```
    /// use lbcheck::protocol::{ControlError, Msg};
    ///
    /// let token: Msg<()> = Msg::control(&(3_i64, true));
    /// assert_eq!(token.control_payload::<(i64, bool)>(), Ok((3, true)));
    /// assert!(matches!(token.control_payload::<String>(), Err(ControlError::Payload { .. })));
    /// assert!(matches!(Msg::<()>::Request.control_payload::<String>(), Err(ControlError::NotControl(_))));
    /// ```
    pub fn control_payload<P: DeserializeOwned>(&self) -> Result<P, ControlError> {
        let Msg::Control(v) = self else { return Err(ControlError::NotControl(self.kind())) };
        P::deserialize(&**v).map_err(|e| ControlError::Payload { data: v.to_string(), why: e.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Serialize};

    use super::*;
    use crate::event::Event;
    use crate::problem::dfs::Strategy;
    use crate::problem::wire::Reader;
    use crate::problem::{Task, Workload};

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    enum Signal {
        Ack,
        Token { q: i64, black: bool },
    }

    #[test]
    fn a_payload_round_trips_through_the_message() {
        for s in [Signal::Ack, Signal::Token { q: -3, black: true }] {
            let m: Msg<()> = Msg::control(&s);
            assert_eq!(m.control_payload::<Signal>(), Ok(s));
        }
    }

    #[test]
    fn the_payload_is_the_events_data() {
        let m: Msg<()> = Msg::control(&Signal::Token { q: 1, black: false });
        let json = serde_json::json!({"Token": {"q": 1, "black": false}});
        let Event::Send { kind, data, .. } = m.send_event(5, 0, 1, 7) else { panic!("a send") };
        assert_eq!((kind, data.as_deref()), (Kind::Control, Some(&json)));
        let Event::Recv { data, .. } = m.recv_event(9, 1, 0, 7, None) else { panic!("a recv") };
        assert_eq!(data.as_deref(), Some(&json));
    }

    #[test]
    fn the_payload_survives_the_wire() {
        let template: Task = "loop:n=4".parse::<Workload>().unwrap().root(Strategy::BottomHalf);
        let (m, mut bytes) = (Msg::<Task>::control(&Signal::Ack), Vec::new());
        m.encode(&mut bytes);
        let back = Msg::decode(&template, &mut Reader::new(&bytes)).expect("decodes");
        assert_eq!(back.control_payload::<Signal>(), Ok(Signal::Ack));
    }

    #[test]
    fn a_wrong_type_or_kind_is_an_error_naming_it() {
        let m: Msg<()> = Msg::control(&Signal::Ack);
        let err = m.control_payload::<u32>().unwrap_err().to_string();
        assert!(err.starts_with(r#"control payload "Ack" is not the type asked for"#), "{err}");
        let err = Msg::<()>::Reject.control_payload::<Signal>().unwrap_err().to_string();
        assert_eq!(err, "a `reject` message is not a control message");
    }

    #[test]
    #[should_panic(expected = "must serialise to JSON")]
    fn a_payload_that_is_not_json_is_a_bug() {
        let map: BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into();
        let _: Msg<()> = Msg::control(&map);
    }
}
