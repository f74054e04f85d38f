//! `simd_matching` (000 §1.1, 000-7; S-24): in SIMD phase load balancing
//! a load-balancing phase enumerates the idle and the busy PEs by prefix
//! sums and the i-th idle PE asks the i-th busy one. Exact: at every
//! barrier (a `phase` event) with at least half of the PEs idle and one
//! busy, the requests until the next barrier are exactly the pairs (i-th
//! idle, i-th busy), min(#idle, #busy) of them, PEs in increasing order;
//! at other barriers there are none. Idle and busy are read from the
//! `busy` and `idle` events before the barrier.
//!
//! Applies to traces whose balancer is `simd-phase`.

use super::{Book, Metrics, Property, Verdict};
use crate::event::{Event, Kind, TraceHeader};
use crate::protocol::simd_phase::SimdRules;
use crate::protocol::{BalancerKind, PeId};

/// State of the `simd_matching` check.
pub(super) struct SimdMatching {
    declared: bool,
    busy: Vec<bool>,
    /// The open barrier: its line and the pairs it must show.
    open: Option<(usize, Vec<(PeId, PeId)>)>,
    /// The requests since the open barrier.
    seen: Vec<(PeId, PeId)>,
    phases: u64,
    requests: u64,
    violation: Option<(usize, String)>,
}

impl SimdMatching {
    /// False when the header says the check does not apply (then the
    /// [`super::Checker`] does not keep it: its events change nothing).
    pub(super) fn applies(&self) -> bool {
        self.declared
    }

    /// For the run of `header`.
    pub(super) fn new(header: &TraceHeader) -> SimdMatching {
        SimdMatching {
            declared: header.balancer.parse() == Ok(BalancerKind::SimdPhase),
            busy: vec![false; header.pes as usize],
            open: None,
            seen: Vec::new(),
            phases: 0,
            requests: 0,
            violation: None,
        }
    }

    /// Ends the open barrier; a barrier at `line` opens (if any).
    fn close(&mut self, line: Option<usize>) {
        if let Some((at, want)) = self.open.take() {
            if want != self.seen && self.violation.is_none() {
                let why = format!(
                    "line {at}: the barrier's requests were {:?}, not the prefix-sum matching {:?}",
                    first(&self.seen),
                    first(&want)
                );
                self.violation = Some((at, why));
            }
            self.phases += u64::from(!want.is_empty());
        }
        self.seen.clear();
        let Some(line) = line else { return };
        let (idle, busy): (Vec<PeId>, Vec<PeId>) = (0..self.busy.len() as PeId).partition(|&k| !self.busy[k as usize]);
        let want = match SimdRules::triggered(idle.len(), self.busy.len()) && !busy.is_empty() {
            true => SimdRules::PAPER.matching(&idle, &busy),
            false => Vec::new(),
        };
        self.open = Some((line, want));
    }
}

/// The first few pairs, for a message.
fn first(pairs: &[(PeId, PeId)]) -> &[(PeId, PeId)] {
    &pairs[..pairs.len().min(4)]
}

impl Property for SimdMatching {
    const NAME: &'static str = "simd_matching";

    #[inline(always)]
    fn observe(&mut self, line: usize, event: &Event, _: &Book) {
        if !self.declared {
            return;
        }
        match *event {
            Event::Busy { pe, .. } | Event::Idle { pe, .. } => {
                if let Some(b) = self.busy.get_mut(pe as usize) {
                    *b = matches!(event, Event::Busy { .. });
                }
            }
            Event::Phase { .. } => self.close(Some(line)),
            Event::Send { from, to, kind: Kind::Request, .. } => {
                self.requests += 1;
                self.seen.push((from, to));
            }
            Event::End { .. } => self.close(None),
            _ => {}
        }
    }

    fn finish(mut self, _: &Metrics, _: &Book) -> Verdict {
        if !self.declared {
            return Verdict::pass("not applicable: balancer is not `simd-phase`");
        }
        self.close(None);
        match self.violation {
            Some((line, why)) => Verdict::fail(why, Some(line)),
            None => Verdict::pass(format!(
                "{} requests in {} load-balancing phases, each the i-th idle PE asking the i-th busy one",
                self.requests, self.phases
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testutil;

    fn verdict(events: &[Event]) -> Verdict {
        let mut h = testutil::header(4);
        h.balancer = "simd-phase".into();
        let mut p = SimdMatching::new(&h);
        let book = Book::new(0);
        events.iter().enumerate().for_each(|(i, e)| p.observe(i + 2, e, &book));
        p.finish(&Metrics::default(), &book)
    }

    #[test]
    fn the_prefix_sum_matching_passes_and_others_fail() {
        let start = [
            Event::Busy { t: 0, pe: 1 },
            Event::Busy { t: 0, pe: 2 },
            Event::Phase { t: 10, cycle: 0, phase: 0, pe: None },
        ];
        let ask = |from, to| testutil::send(20, from, to, u64::from(from), Kind::Request);
        let ok: Vec<Event> = start.iter().cloned().chain([ask(0, 1), ask(3, 2)]).collect();
        assert!(verdict(&ok).pass, "{}", verdict(&ok).detail);
        let hot: Vec<Event> = start.iter().cloned().chain([ask(0, 1), ask(3, 1)]).collect();
        assert!(verdict(&hot).detail.contains("not the prefix-sum matching"), "{}", verdict(&hot).detail);
        let none: Vec<Event> = start.to_vec();
        assert!(!verdict(&none).pass);
        let untriggered = [Event::Busy { t: 0, pe: 0 }, Event::Busy { t: 0, pe: 1 }, Event::Busy { t: 0, pe: 2 }];
        let extra: Vec<Event> = untriggered
            .iter()
            .cloned()
            .chain([Event::Phase { t: 10, cycle: 0, phase: 0, pe: None }, ask(3, 0)])
            .collect();
        assert!(!verdict(&extra).pass);
    }
}
