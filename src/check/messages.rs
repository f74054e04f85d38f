//! The messages of a run, kept once for every property that matches a
//! `recv` to its `send` (issue 30): which are in flight, with the line,
//! time, endpoints and kind of their `send`, and which ids were delivered.
//! The [`super::Checker`] feeds it each event before the properties, which
//! read what it found ([`Messages::now`]): the `send` a `recv` lands, or
//! that a `send` reuses an id. `trace_well_formed` judges those findings;
//! the latency rules (`requests_answered`'s unread requests,
//! `detection_delay_bound`, `stop_delay`, `bound_delay`, `hop_latency`)
//! read the send time of what lands; the termination properties, whether
//! work messages are in flight.

use super::inflight::InFlight;
use crate::event::{Event, Kind};

/// A message's `send`, as the properties read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Sent {
    /// The trace line (or event number) of the `send`.
    pub line: usize,
    /// Its time.
    pub t: u64,
    /// Sender.
    pub from: u32,
    /// Receiver.
    pub to: u32,
    /// Kind.
    pub kind: Kind,
}

/// What the current event did to the messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Now {
    /// Not a `send` or `recv`.
    Other,
    /// A `send` of a new id.
    Sent,
    /// A `send` reusing the id of a message still in flight, whose `send`
    /// this is (the new one replaces it).
    Resent(Sent),
    /// A `send` reusing the id of a message already delivered (not kept).
    ResentDelivered,
    /// A `recv` of a message in flight, sent as this (now out of flight;
    /// delivered if the endpoints and kind match).
    Landed(Sent),
    /// A `recv` of a message delivered already.
    Twice,
    /// A `recv` of an id never sent.
    Never,
}

/// 1 for a work message, else 0 (the count of work messages in flight).
fn is_work(s: &Sent) -> usize {
    usize::from(s.kind == Kind::Work)
}

/// Messages in flight and delivered, by id.
pub(super) struct Messages {
    flight: InFlight<Sent>,
    /// Work messages in flight (by their `send`'s kind).
    work: usize,
    /// What the last event fed did.
    pub now: Now,
}

impl Messages {
    /// For a run of `pes` PEs (the window of ids in flight grows with P).
    pub(super) fn new(pes: u32) -> Messages {
        Messages { flight: InFlight::for_pes(pes), work: 0, now: Now::Other }
    }

    /// Feeds one event (`line` its trace line).
    #[inline(always)]
    pub(super) fn observe(&mut self, line: usize, e: &Event) {
        self.now = match *e {
            Event::Send { t, from, to, id, kind, .. } => self.send(id, Sent { line, t, from, to, kind }),
            Event::Recv { pe, from, id, kind, .. } => self.recv(pe, from, id, kind),
            _ => Now::Other,
        };
    }

    fn send(&mut self, id: u64, sent: Sent) -> Now {
        if self.flight.delivered(id) {
            return Now::ResentDelivered;
        }
        self.work += is_work(&sent);
        match self.flight.insert(id, sent) {
            Some(first) => {
                self.work -= is_work(&first);
                Now::Resent(first)
            }
            None => Now::Sent,
        }
    }

    fn recv(&mut self, pe: u32, from: u32, id: u64, kind: Kind) -> Now {
        match self.flight.land(id, |s| (s.from, s.to, s.kind) == (from, pe, kind)) {
            Some(sent) => {
                self.work -= is_work(&sent);
                Now::Landed(sent)
            }
            None if self.flight.delivered(id) => Now::Twice,
            None => Now::Never,
        }
    }

    /// The `send` of the message the current `recv` landed, if any.
    pub(super) fn landed(&self) -> Option<Sent> {
        match self.now {
            Now::Landed(s) => Some(s),
            _ => None,
        }
    }

    /// True if a work message is in flight.
    pub(super) fn work_in_flight(&self) -> bool {
        self.work > 0
    }

    /// The ids of the work messages in flight, ascending.
    pub(super) fn work_ids(&self) -> Vec<u64> {
        let mut ids: Vec<u64> = self.flight.entries().filter(|(_, s)| s.kind == Kind::Work).map(|(id, _)| id).collect();
        ids.sort_unstable();
        ids
    }

    /// The messages still in flight (in no particular order).
    pub(super) fn in_flight(&self) -> impl Iterator<Item = Sent> + '_ {
        self.flight.values()
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{recv, send};
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    proptest! {
        /// Against a map of the messages in flight, whatever the trace
        /// (ids reused, received twice or never sent, endpoints and kinds
        /// that do not match): what each event did, and the work messages
        /// in flight.
        #[test]
        fn agrees_with_a_map(ops in proptest::collection::vec((any::<bool>(), 0..12u64, 0..2u32, 0..2u8), 1..200)) {
            let (mut m, mut flight, mut delivered) = (Messages::new(2), HashMap::new(), Vec::new());
            for (line, (is_send, id, pe, k)) in ops.into_iter().enumerate() {
                let kind = [Kind::Work, Kind::Request][k as usize];
                let e = if is_send { send(line as u64, pe, 1 - pe, id, kind) } else { recv(line as u64, pe, 1 - pe, id, kind) };
                m.observe(line, &e);
                let want = if is_send {
                    let sent = Sent { line, t: line as u64, from: pe, to: 1 - pe, kind };
                    match delivered.contains(&id) {
                        true => Now::ResentDelivered,
                        false => flight.insert(id, sent).map_or(Now::Sent, Now::Resent),
                    }
                } else {
                    match flight.remove(&id) {
                        Some(s) => {
                            if (s.from, s.to, s.kind) == (1 - pe, pe, kind) {
                                delivered.push(id);
                            }
                            Now::Landed(s)
                        }
                        None if delivered.contains(&id) => Now::Twice,
                        None => Now::Never,
                    }
                };
                prop_assert_eq!(m.now, want);
                let mut work: Vec<u64> = flight.iter().filter(|(_, s)| s.kind == Kind::Work).map(|(&id, _)| id).collect();
                work.sort_unstable();
                prop_assert_eq!(m.work_in_flight(), !work.is_empty());
                prop_assert_eq!(m.work, work.len());
                prop_assert_eq!(m.work_ids(), work);
            }
        }
    }
}
