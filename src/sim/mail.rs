//! A message as the simulator's agenda stores it while in flight: the
//! control messages (requests, rejects, waves, …; ~90 % of a random-polling
//! run's messages) inline in a few words, a message carrying a subproblem or
//! energy boxed, so that agenda entries stay small whatever the workload's
//! subproblem type is. Converting a [`Msg`] to [`Mail`] and back is the
//! identity.

use std::borrow::Cow;

use crate::base::Fraction;
use crate::event::{Event, Kind};
use crate::protocol::{Msg, PeId};

/// A [`Msg`] in flight.
#[derive(Clone, Debug)]
pub(super) enum Mail<T> {
    Request,
    Reject,
    WaveDown(u64),
    WaveUp(u64, u64, u64),
    GetTarget,
    Target(PeId),
    Bound(u64),
    Stop,
    Terminate,
    /// A detector's own message, its payload already boxed.
    Control(Box<serde_json::Value>),
    /// `Work` and `Energy`, which carry a subproblem or a fraction.
    Boxed(Box<Msg<T>>),
}

impl<T> Mail<T> {
    /// The energy the message carries ([`Msg::energy`]).
    pub(super) fn energy(&self) -> Option<Fraction> {
        match self {
            Mail::Boxed(msg) => msg.energy(),
            _ => None,
        }
    }

    /// The message, to read: the boxed one itself, or a control message
    /// rebuilt (a few words, no payload copied).
    pub(super) fn as_msg(&self) -> Cow<'_, Msg<T>>
    where
        T: Clone,
    {
        match self {
            Mail::Boxed(msg) => Cow::Borrowed(msg),
            light => Cow::Owned(Msg::from(light.clone())),
        }
    }
}

impl<T> Mail<T> {
    /// The message's kind ([`Msg::kind`]), read without rebuilding it.
    #[inline]
    pub(super) fn kind(&self) -> Kind {
        match self {
            Mail::Request => Kind::Request,
            Mail::Reject => Kind::Reject,
            Mail::WaveDown(_) => Kind::WaveDown,
            Mail::WaveUp(..) => Kind::WaveUp,
            Mail::GetTarget => Kind::GetTarget,
            Mail::Target(_) => Kind::Target,
            Mail::Bound(_) => Kind::Bound,
            Mail::Stop => Kind::Stop,
            Mail::Terminate => Kind::Terminate,
            Mail::Control(_) => Kind::Control,
            Mail::Boxed(msg) => msg.kind(),
        }
    }

    /// The message's `recv` event ([`Msg::recv_event`]), built from the
    /// mail: a light message is not rebuilt (a [`Msg`] is ~150 bytes).
    #[inline]
    pub(super) fn recv_event(&self, t: u64, pe: PeId, from: PeId, id: u64, queue: Option<u32>) -> Event {
        match self {
            Mail::Boxed(msg) => msg.recv_event(t, pe, from, id, queue),
            Mail::Control(v) => Event::Recv { t, pe, from, id, kind: Kind::Control, queue, data: Some(v.clone()) },
            light => Event::Recv { t, pe, from, id, kind: light.kind(), queue, data: None },
        }
    }

    /// A control message's mail, built from its few words; `None` for the
    /// messages with a payload (work, energy, a detector's own).
    #[inline]
    fn light(msg: &Msg<T>) -> Option<Mail<T>> {
        Some(match *msg {
            Msg::Request => Mail::Request,
            Msg::Reject => Mail::Reject,
            Msg::WaveDown { wave } => Mail::WaveDown(wave),
            Msg::WaveUp { wave, sent, recv } => Mail::WaveUp(wave, sent, recv),
            Msg::GetTarget => Mail::GetTarget,
            Msg::Target(pe) => Mail::Target(pe),
            Msg::Bound(v) => Mail::Bound(v),
            Msg::Stop => Mail::Stop,
            Msg::Terminate => Mail::Terminate,
            Msg::Work { .. } | Msg::Energy(_) | Msg::Control(_) => return None,
        })
    }

    /// `msg` as mail, taken from where it lies without moving a control
    /// message's whole [`Msg`] (a payload is moved into its box, leaving a
    /// `Request` behind).
    #[inline]
    pub(super) fn take(msg: &mut Msg<T>) -> Mail<T> {
        Mail::light(msg).unwrap_or_else(|| Mail::from(std::mem::replace(msg, Msg::Request)))
    }
}

impl<T> From<Msg<T>> for Mail<T> {
    #[inline]
    fn from(msg: Msg<T>) -> Mail<T> {
        if let Some(light) = Mail::light(&msg) {
            return light;
        }
        match msg {
            Msg::Control(v) => Mail::Control(v),
            heavy => Mail::Boxed(Box::new(heavy)),
        }
    }
}

impl<T> From<Mail<T>> for Msg<T> {
    #[inline]
    fn from(mail: Mail<T>) -> Msg<T> {
        match mail {
            Mail::Request => Msg::Request,
            Mail::Reject => Msg::Reject,
            Mail::WaveDown(wave) => Msg::WaveDown { wave },
            Mail::WaveUp(wave, sent, recv) => Msg::WaveUp { wave, sent, recv },
            Mail::GetTarget => Msg::GetTarget,
            Mail::Target(pe) => Msg::Target(pe),
            Mail::Bound(v) => Msg::Bound(v),
            Mail::Stop => Msg::Stop,
            Mail::Terminate => Msg::Terminate,
            Mail::Control(v) => Msg::Control(v),
            Mail::Boxed(msg) => *msg,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of message survives the round trip, and control
    /// messages take a few words.
    #[test]
    fn round_trip_is_the_identity() {
        let msgs: Vec<Msg<u8>> = vec![
            Msg::Request,
            Msg::Reject,
            Msg::Work { task: 7, energy: Some(Fraction::pow2_neg(3)) },
            Msg::Energy(Fraction::pow2_neg(5)),
            Msg::WaveDown { wave: 2 },
            Msg::WaveUp { wave: 3, sent: 4, recv: 5 },
            Msg::GetTarget,
            Msg::Target(9),
            Msg::Bound(11),
            Msg::Stop,
            Msg::Terminate,
            Msg::Control(Box::new(serde_json::json!({"q": -2, "black": true}))),
        ];
        for mut m in msgs {
            let want = format!("{m:?}");
            let mail = Mail::from(m.clone());
            assert_eq!(mail.kind(), m.kind());
            assert_eq!(mail.recv_event(1, 2, 3, 4, Some(5)), m.recv_event(1, 2, 3, 4, Some(5)));
            assert_eq!(format!("{:?}", Msg::from(Mail::from(m.clone()))), want);
            assert_eq!(format!("{:?}", Msg::from(Mail::take(&mut m))), want);
        }
        assert!(std::mem::size_of::<Mail<[u8; 256]>>() <= 32);
    }
}
