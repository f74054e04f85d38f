//! The log mutants: an implementation whose protocol is right but whose
//! event log is wrong, made by rewriting the stream between a driver and
//! the checker (so the trace file shows the same bug). Each rewrites the
//! first place it can and holds back at most one event.

use super::Mutant;
use crate::event::{Event, Kind};

/// Rewrites one event stream for a log mutant.
pub struct Garble {
    mutant: Mutant,
    held: Option<Event>,
    done: bool,
}

impl Garble {
    /// For `mutant`, if it is a log mutant.
    pub fn new(mutant: Mutant) -> Option<Garble> {
        matches!(mutant, Mutant::LogIdleEarly | Mutant::LogRecvBeforeSend).then_some(Garble {
            mutant,
            held: None,
            done: false,
        })
    }

    /// Takes the next event of the true stream; passes the garbled
    /// stream's events to `out`.
    pub fn push(&mut self, e: Event, out: &mut dyn FnMut(Event)) {
        if self.done {
            return out(e);
        }
        match self.mutant {
            Mutant::LogIdleEarly => self.idle_early(e, out),
            _ => self.recv_first(e, out),
        }
    }

    /// Holds each `work`; when the same PE's `idle` comes next, logs it first.
    fn idle_early(&mut self, e: Event, out: &mut dyn FnMut(Event)) {
        match (self.held.take(), e) {
            (Some(w @ Event::Work { pe, .. }), e @ Event::Idle { pe: p, .. }) if pe == p => {
                out(e);
                out(w);
                self.done = true;
            }
            (held, e @ Event::Work { .. }) => {
                held.into_iter().for_each(&mut *out);
                self.held = Some(e);
            }
            (held, e) => {
                held.into_iter().for_each(&mut *out);
                out(e);
            }
        }
    }

    /// Holds the first work message's `send` until its `recv`, then logs both, the `recv` first.
    fn recv_first(&mut self, e: Event, out: &mut dyn FnMut(Event)) {
        match (&self.held, &e) {
            (None, Event::Send { kind: Kind::Work, .. }) => self.held = Some(e),
            (Some(Event::Send { id, .. }), Event::Recv { id: r, .. }) if id == r => {
                out(e);
                self.held.take().into_iter().for_each(&mut *out);
                self.done = true;
            }
            (_, Event::End { .. }) => {
                self.held.take().into_iter().for_each(&mut *out);
                out(e);
            }
            _ => out(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testutil::two_pes;

    fn garbled(m: Mutant, events: &[Event]) -> Vec<Event> {
        let mut g = Garble::new(m).unwrap();
        let mut out = Vec::new();
        events.iter().for_each(|e| g.push(e.clone(), &mut |x| out.push(x)));
        out
    }

    /// Each moves one event of the stream past others, losing nothing.
    #[test]
    fn each_log_mutant_reorders_and_keeps_every_event() {
        let events = two_pes();
        let sorted = |v: &[Event]| {
            let mut s: Vec<String> = v.iter().map(|e| format!("{e:?}")).collect();
            s.sort();
            s
        };
        for (m, before, after) in [
            (Mutant::LogIdleEarly, "Work { t: 10, pe: 0", "Idle { t: 10, pe: 0 }"),
            (Mutant::LogRecvBeforeSend, "Send { t: 3, from: 0, to: 1, id: 2", "Recv { t: 5, pe: 1, from: 0, id: 2"),
        ] {
            let out = garbled(m, &events);
            assert_eq!(sorted(&out), sorted(&events), "{m}");
            let at = |v: &[Event], what: &str| v.iter().position(|e| format!("{e:?}").starts_with(what)).unwrap();
            assert!(at(&events, before) < at(&events, after), "{m}: the true order");
            assert!(at(&out, before) > at(&out, after), "{m}: the garbled order");
        }
        assert!(Garble::new(Mutant::SplitLoses).is_none());
    }
}
