//! `phase_discipline` (000 §3.1; S-2): on the phased machine idle PEs
//! poll only at barriers, each along the barrier's dimension. With a
//! `phase` event marking the barrier after phase i of a cycle:
//!
//! - every `request` is sent at the time of the latest barrier (none
//!   between barriers, none before the first);
//! - it goes from PE k to its dimension-i partner k ⊕ 2^i;
//! - no PE receives more than one request per barrier (the pairing is a
//!   matching).
//!
//! Applies to traces with `phase` events or whose balancer is
//! `poll-and-shuffle`; otherwise the verdict says "not applicable".

use std::collections::HashSet;

use super::{Metrics, Property, Verdict};
use crate::event::{Event, Kind, TraceHeader};
use crate::protocol::BalancerKind;

/// State of the `phase_discipline` check.
pub(super) struct PhaseDiscipline {
    /// The header names poll-and-shuffle.
    declared: bool,
    /// The latest barrier: (its number from 0, time, dimension).
    barrier: Option<(u64, u64, u32)>,
    /// PEs that received a request at the latest barrier.
    asked: HashSet<u32>,
    requests: u64,
    barriers: u64,
    violation: Option<(usize, String)>,
}

impl PhaseDiscipline {
    /// For the run of `header`.
    pub(super) fn new(header: &TraceHeader) -> PhaseDiscipline {
        let declared = header.balancer.parse() == Ok(BalancerKind::PollAndShuffle);
        PhaseDiscipline { declared, barrier: None, asked: HashSet::new(), requests: 0, barriers: 0, violation: None }
    }

    /// After the first violation: only the counts the verdict reports.
    fn count(&mut self, event: &Event) {
        match event {
            Event::Phase { .. } => self.barriers += 1,
            Event::Send { kind: Kind::Request, .. } => self.requests += 1,
            _ => {}
        }
    }

    /// The rule a request from `from` to `to` at `t` breaks, if any.
    fn check_send(&mut self, t: u64, from: u32, to: u32) -> Option<String> {
        self.requests += 1;
        let Some((_, at, dim)) = self.barrier else {
            return Some(format!("PE {from} asked PE {to} at t={t}, before the first barrier"));
        };
        if t != at {
            return Some(format!("PE {from} asked PE {to} at t={t}, between barriers (the last at t={at})"));
        }
        let partner = 1u32.checked_shl(dim).map(|bit| from ^ bit);
        (partner != Some(to)).then(|| {
            format!(
                "PE {from} asked PE {to} after phase {dim}; its dimension-{dim} partner is {}",
                partner.map_or("none".into(), |p| p.to_string())
            )
        })
    }
}

impl Property for PhaseDiscipline {
    const NAME: &'static str = "phase_discipline";

    fn observe(&mut self, line: usize, event: &Event) {
        if self.violation.is_some() {
            return self.count(event); // only the first violation is reported
        }
        let found = match *event {
            Event::Phase { t, phase, .. } => {
                let n = self.barrier.map_or(0, |(n, _, _)| n + 1);
                self.barrier = Some((n, t, phase));
                self.barriers += 1;
                self.asked.clear();
                None
            }
            Event::Send { t, from, to, kind: Kind::Request, .. } => self.check_send(t, from, to),
            Event::Recv { pe, from, kind: Kind::Request, .. } if self.barrier.is_some() => (!self.asked.insert(pe))
                .then(|| format!("PE {pe} received a second request at one barrier (from PE {from})")),
            _ => None,
        };
        if let (Some(why), None) = (found, &self.violation) {
            self.violation = Some((line, format!("line {line}: {why}")));
        }
    }

    fn finish(self, _: &Metrics) -> Verdict {
        if !self.declared && self.barriers == 0 {
            return Verdict::pass("not applicable: no barriers (`phase` events) and not poll-and-shuffle");
        }
        match self.violation {
            Some((line, why)) => Verdict::fail(why, Some(line)),
            None => Verdict::pass(format!(
                "{} requests, each at a barrier to its partner along the barrier's dimension, at most one per PE ({} barriers)",
                self.requests, self.barriers
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testutil;

    fn verdict(events: &[Event]) -> Verdict {
        let mut h = testutil::header(8);
        h.balancer = "poll-and-shuffle".into();
        let mut p = PhaseDiscipline::new(&h);
        events.iter().enumerate().for_each(|(i, e)| p.observe(i + 2, e));
        p.finish(&Metrics::default())
    }

    #[test]
    fn requests_at_the_barrier_to_the_partner_pass_and_others_fail() {
        let phase = Event::Phase { t: 10, cycle: 0, phase: 1 };
        let ok =
            [phase.clone(), testutil::send(10, 5, 7, 1, Kind::Request), testutil::recv(12, 7, 5, 1, Kind::Request)];
        assert!(verdict(&ok).pass, "{}", verdict(&ok).detail);
        let early = [phase.clone(), testutil::send(11, 5, 7, 1, Kind::Request)];
        assert!(verdict(&early).detail.contains("between barriers"));
        let wrong = [phase.clone(), testutil::send(10, 5, 4, 1, Kind::Request)];
        assert!(verdict(&wrong).detail.contains("partner is 7"));
        let twice = [phase, testutil::recv(12, 7, 5, 1, Kind::Request), testutil::recv(12, 7, 6, 2, Kind::Request)];
        assert!(!verdict(&twice).pass);
    }
}
