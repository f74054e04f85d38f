//! `same_phase_exchange` (000 §6.3, Fig. 4; S-5): "requests are always
//! exchanged between PEs in the same phase". Each PE's phase is its latest
//! barrier (a global `phase` event, or with `pe` its own local one); a
//! request/reply pair is a `request` k→j and the `reject` or `work` j→k
//! that answers it (the oldest unanswered, as in `requests_answered`).
//! For every pair, with (c, i) the phase k was in when it sent the request:
//!
//! - j is k's dimension-i partner k ⊕ 2^i;
//! - j sends the reply while in (c, i) itself;
//! - k receives the reply while still in (c, i).
//!
//! With a global clock this holds when the exchange ends before the next
//! barrier; with local synchronisation it needs each PE to wait for its
//! partner's "phase finished" (mutant `no-phase-wait` answers a late
//! request in a later phase). `work` messages that answer no request (the
//! permutation's) are not pairs. Applies to traces with `phase` events or
//! whose balancer is `poll-and-shuffle`, but not to `simd-phase`'s;
//! otherwise "not applicable".

use std::collections::VecDeque;

use rustc_hash::FxHashMap as HashMap;

use super::phase::{partner, PhaseClock};
use super::{Book, Metrics, Property, Verdict};
use crate::event::{Event, Kind, TraceHeader};
use crate::protocol::BalancerKind;

/// (cycle, phase).
type At = (u64, u32);

/// State of the `same_phase_exchange` check.
pub(super) struct SamePhaseExchange {
    /// The header names poll-and-shuffle.
    declared: bool,
    /// The header names SIMD phases (no dimensions: not applicable).
    simd: bool,
    clock: PhaseClock,
    /// Requests in flight: id → the phase their sender was in.
    requests: HashMap<u64, At>,
    /// (replier j, requester k) → phases of k's received, unanswered requests.
    pending: HashMap<(u32, u32), VecDeque<At>>,
    /// Replies in flight: id → the phase of the request they answer.
    replies: HashMap<u64, At>,
    pairs: u64,
    violation: Option<(usize, String)>,
}

impl SamePhaseExchange {
    /// For the run of `header`.
    pub(super) fn new(header: &TraceHeader) -> SamePhaseExchange {
        SamePhaseExchange {
            declared: header.balancer.parse() == Ok(BalancerKind::PollAndShuffle),
            simd: header.balancer.parse() == Ok(BalancerKind::SimdPhase),
            clock: PhaseClock::default(),
            requests: HashMap::default(),
            pending: HashMap::default(),
            replies: HashMap::default(),
            pairs: 0,
            violation: None,
        }
    }

    /// `k` sends request `id` to `j`: the two must be partners in k's phase.
    fn request(&mut self, k: u32, j: u32, id: u64) -> Option<String> {
        let Some(b) = self.clock.of(k) else {
            return Some(format!("PE {k} asked PE {j} before its first barrier"));
        };
        self.requests.insert(id, b.at());
        (partner(k, b.phase) != Some(j)).then(|| {
            format!(
                "PE {k} asked PE {j} in cycle {}, phase {}: not its dimension-{} partner",
                b.cycle, b.phase, b.phase
            )
        })
    }

    /// `j` replies `id` to `k`: if it answers a request, `j` must be in its phase.
    fn reply(&mut self, j: u32, k: u32, id: u64) -> Option<String> {
        let queue = self.pending.get_mut(&(j, k))?;
        let asked = queue.pop_front()?;
        if queue.is_empty() {
            self.pending.remove(&(j, k));
        }
        self.pairs += 1;
        self.replies.insert(id, asked);
        let now = self.clock.of(j).map(|b| b.at());
        (now != Some(asked))
            .then(|| format!("PE {j} answered PE {k}'s request of {} while in {}", show(Some(asked)), show(now)))
    }

    /// `k` receives reply `id` from `j`: `k` must still be in the request's phase.
    fn replied(&mut self, k: u32, j: u32, id: u64) -> Option<String> {
        let asked = self.replies.remove(&id)?;
        let now = self.clock.of(k).map(|b| b.at());
        (now != Some(asked)).then(|| {
            format!("PE {k} received PE {j}'s answer to its request of {} while in {}", show(Some(asked)), show(now))
        })
    }
}

fn show(at: Option<At>) -> String {
    at.map_or("no phase yet".into(), |(c, i)| format!("cycle {c}, phase {i}"))
}

impl Property for SamePhaseExchange {
    const NAME: &'static str = "same_phase_exchange";

    #[inline(always)]
    fn observe(&mut self, line: usize, event: &Event, _: &Book) {
        // After the first violation (in a run that is not phased: its first
        // request) nothing more is checked: only the first is reported.
        if self.simd || self.clock.observe(event) || self.violation.is_some() {
            return;
        }
        let found = match *event {
            Event::Send { from, to, id, kind: Kind::Request, .. } => self.request(from, to, id),
            Event::Recv { pe, from, id, kind: Kind::Request, .. } => {
                if let Some(at) = self.requests.remove(&id) {
                    self.pending.entry((pe, from)).or_default().push_back(at);
                }
                None
            }
            Event::Send { from, to, id, kind: Kind::Reject | Kind::Work, .. } => self.reply(from, to, id),
            Event::Recv { pe, from, id, kind: Kind::Reject | Kind::Work, .. } => self.replied(pe, from, id),
            _ => None,
        };
        if let (Some(why), None) = (found, &self.violation) {
            self.violation = Some((line, format!("line {line}: {why}")));
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        if self.simd {
            return Verdict::pass("not applicable: SIMD phases have no dimensions (`simd_matching` checks them)");
        }
        if !self.declared && self.clock.count == 0 {
            return Verdict::pass("not applicable: no barriers (`phase` events) and not poll-and-shuffle");
        }
        match self.violation {
            Some((line, why)) => Verdict::fail(why, Some(line)),
            None => Verdict::pass(format!(
                "{} request/reply pairs, each between dimension-i partners both in the request's (cycle, i) ({} barriers)",
                self.pairs, self.clock.count
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testutil::{self, recv, send};

    fn verdict(events: &[Event]) -> Verdict {
        let mut h = testutil::header(8);
        h.balancer = "poll-and-shuffle".into();
        let mut p = SamePhaseExchange::new(&h);
        let book = Book::new(0);
        events.iter().enumerate().for_each(|(i, e)| p.observe(i + 2, e, &book));
        p.finish(&Metrics::default(), &book)
    }

    fn at(t: u64, pe: u32, phase: u32) -> Event {
        Event::Phase { t, cycle: 0, phase, pe: Some(pe) }
    }

    /// PE 5 asks 7 after phase 1; 7 answers at its own barrier of phase 1.
    fn exchange(answer_phase: u32, asker_moves_on: bool) -> Vec<Event> {
        let mut events = vec![at(10, 5, 1), send(10, 5, 7, 1, Kind::Request), recv(20, 7, 5, 1, Kind::Request)];
        events.push(at(25, 7, answer_phase));
        events.push(send(25, 7, 5, 2, Kind::Work));
        if asker_moves_on {
            events.push(at(30, 5, 2));
        }
        events.push(recv(35, 5, 7, 2, Kind::Work));
        events
    }

    #[test]
    fn a_pair_within_one_phase_passes_and_crossing_pairs_fail() {
        assert!(verdict(&exchange(1, false)).pass, "{}", verdict(&exchange(1, false)).detail);
        let late = verdict(&exchange(2, false));
        assert!(late.detail.contains("PE 7 answered PE 5's request of cycle 0, phase 1 while in cycle 0, phase 2"));
        let moved = verdict(&exchange(1, true));
        assert!(moved.detail.contains("PE 5 received PE 7's answer"), "{}", moved.detail);
        let wrong = [at(10, 5, 1), send(10, 5, 4, 1, Kind::Request)];
        assert!(verdict(&wrong).detail.contains("not its dimension-1 partner"));
    }

    #[test]
    fn global_barriers_put_every_pe_in_the_phase() {
        let g = |t, phase| Event::Phase { t, cycle: 0, phase, pe: None };
        let ok = [
            g(10, 1),
            send(10, 5, 7, 1, Kind::Request),
            recv(20, 7, 5, 1, Kind::Request),
            send(25, 7, 5, 2, Kind::Reject),
            recv(35, 5, 7, 2, Kind::Reject),
            g(40, 2),
        ];
        assert!(verdict(&ok).pass, "{}", verdict(&ok).detail);
        let shuffle = [g(10, 1), send(12, 3, 4, 1, Kind::Work), recv(20, 4, 3, 1, Kind::Work)];
        assert!(verdict(&shuffle).pass, "a work message answering no request is not a pair");
        let mut h = testutil::header(8);
        h.balancer = "random-polling".into();
        let p = SamePhaseExchange::new(&h);
        assert!(p.finish(&Metrics::default(), &Book::new(0)).detail.starts_with("not applicable"));
    }
}
