//! `phase_discipline` (000 §3.1; S-2): on the phased machine idle PEs
//! poll only at barriers, each along the barrier's dimension. With a
//! `phase` event marking the barrier after phase i of a cycle (a global
//! one, or with `pe` a PE's own local barrier, 000 §6.3 Fig. 4):
//!
//! - every `request` is sent at the time of its sender's latest barrier
//!   (none between barriers, none before the first);
//! - it goes from PE k to its dimension-i partner k ⊕ 2^i;
//! - no PE receives more than one request of one (cycle, phase) (the
//!   pairing is a matching; a request's phase is its sender's at sending).
//!
//! Applies to traces with `phase` events or whose balancer is
//! `poll-and-shuffle`, but not to `simd-phase`'s (see `simd_matching`);
//! otherwise the verdict says "not applicable".

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{Book, Metrics, Property, Verdict};
use crate::event::{Event, Kind, TraceHeader};
use crate::protocol::BalancerKind;

/// A barrier a PE passed: its time, cycle and phase (the dimension polled next).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Barrier {
    /// Order among the barriers of the trace.
    seq: u64,
    /// Time.
    pub t: u64,
    /// Cycle, from 0.
    pub cycle: u64,
    /// Phase within the cycle, from 0.
    pub phase: u32,
    /// The round of phases this barrier belongs to, from 0: a new one
    /// whenever the phase number does not grow (a new cycle, or the
    /// adaptive trigger's wrap without a permutation, 000 §5), so that
    /// (round, phase) names one barrier where (cycle, phase) may not.
    pub round: u64,
}

impl Barrier {
    /// (round, phase): the cycle and phase, unique under the adaptive trigger too.
    pub fn at(&self) -> (u64, u32) {
        (self.round, self.phase)
    }
}

/// Where each PE is in the phased schedule: the latest barrier it passed,
/// a global `phase` event or its own local one.
#[derive(Default)]
pub(super) struct PhaseClock {
    global: Option<Barrier>,
    local: HashMap<u32, Barrier>,
    /// Barriers seen.
    pub count: u64,
    /// The highest round seen ([`Barrier::round`]).
    pub cycle: u64,
}

impl PhaseClock {
    /// Notes `e` if it is a barrier; true if it was.
    #[inline(always)]
    pub fn observe(&mut self, e: &Event) -> bool {
        let Event::Phase { t, cycle, phase, pe } = *e else { return false };
        self.count += 1;
        let before = match pe {
            Some(pe) => self.local.get(&pe).copied(),
            None => self.global,
        };
        let round = before.map_or(0, |b| if phase > b.phase && cycle == b.cycle { b.round } else { b.round + 1 });
        self.cycle = self.cycle.max(round);
        let b = Barrier { seq: self.count, t, cycle, phase, round };
        match pe {
            Some(pe) => _ = self.local.insert(pe, b),
            None => self.global = Some(b),
        }
        true
    }

    /// The latest barrier `pe` passed.
    pub fn of(&self, pe: u32) -> Option<Barrier> {
        match (self.global, self.local.get(&pe).copied()) {
            (Some(g), Some(l)) => Some(if g.seq > l.seq { g } else { l }),
            (g, l) => g.or(l),
        }
    }
}

/// PE `from`'s dimension-`dim` partner, if the dimension fits in a PE id.
pub(super) fn partner(from: u32, dim: u32) -> Option<u32> {
    1u32.checked_shl(dim).map(|bit| from ^ bit)
}

/// State of the `phase_discipline` check.
pub(super) struct PhaseDiscipline {
    /// The header names another phased balancer (SIMD phases: no dimensions).
    other: bool,
    /// The header names poll-and-shuffle.
    declared: bool,
    clock: PhaseClock,
    /// Requests in flight: id → the (cycle, phase) their sender was in.
    sent: HashMap<u64, (u64, u32)>,
    /// (receiver, cycle, phase) of the requests received.
    asked: HashSet<(u32, u64, u32)>,
    requests: u64,
    violation: Option<(usize, String)>,
}

impl PhaseDiscipline {
    /// For the run of `header`.
    pub(super) fn new(header: &TraceHeader) -> PhaseDiscipline {
        let declared = header.balancer.parse() == Ok(BalancerKind::PollAndShuffle);
        let other = header.balancer.parse() == Ok(BalancerKind::SimdPhase);
        PhaseDiscipline {
            other,
            declared,
            clock: PhaseClock::default(),
            sent: HashMap::default(),
            asked: HashSet::default(),
            requests: 0,
            violation: None,
        }
    }

    /// The rule a request `id` from `from` to `to` at `t` breaks, if any.
    fn check_send(&mut self, t: u64, from: u32, to: u32, id: u64) -> Option<String> {
        self.requests += 1;
        let Some(b) = self.clock.of(from) else {
            return Some(format!("PE {from} asked PE {to} at t={t}, before its first barrier"));
        };
        self.sent.insert(id, b.at());
        if t != b.t {
            return Some(format!("PE {from} asked PE {to} at t={t}, between barriers (its last at t={})", b.t));
        }
        let (dim, p) = (b.phase, partner(from, b.phase));
        (p != Some(to)).then(|| {
            format!(
                "PE {from} asked PE {to} after phase {dim}; its dimension-{dim} partner is {}",
                p.map_or("none".into(), |p| p.to_string())
            )
        })
    }

    /// The rule receiving request `id` at `pe` breaks, if any.
    fn check_recv(&mut self, pe: u32, from: u32, id: u64) -> Option<String> {
        let (cycle, phase) = self.sent.remove(&id).or_else(|| self.clock.of(pe).map(|b| b.at()))?;
        (!self.asked.insert((pe, cycle, phase)))
            .then(|| format!("PE {pe} received a second request of cycle {cycle}, phase {phase} (from PE {from})"))
    }

    /// Forgets the requests of cycles two behind the latest.
    fn prune(&mut self) {
        let latest = self.clock.cycle;
        self.asked.retain(|&(_, c, _)| c + 1 >= latest);
    }
}

impl Property for PhaseDiscipline {
    const NAME: &'static str = "phase_discipline";

    #[inline(always)]
    fn observe(&mut self, line: usize, event: &Event, _: &Book) {
        let cycle = self.clock.cycle;
        if self.clock.observe(event) {
            if self.clock.cycle > cycle {
                self.prune();
            }
            return;
        }
        if self.violation.is_some() {
            // Only the first violation is reported (and a run that is not
            // phased would format one for every request).
            self.requests += u64::from(matches!(event, Event::Send { kind: Kind::Request, .. }));
            return;
        }
        let found = match *event {
            Event::Send { t, from, to, id, kind: Kind::Request, .. } => self.check_send(t, from, to, id),
            Event::Recv { pe, from, id, kind: Kind::Request, .. } => self.check_recv(pe, from, id),
            _ => None,
        };
        if let (Some(why), None) = (found, &self.violation) {
            self.violation = Some((line, format!("line {line}: {why}")));
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        if self.other {
            return Verdict::pass("not applicable: SIMD phases poll no dimension (`simd_matching` checks them)");
        }
        if !self.declared && self.clock.count == 0 {
            return Verdict::pass("not applicable: no barriers (`phase` events) and not poll-and-shuffle");
        }
        match self.violation {
            Some((line, why)) => Verdict::fail(why, Some(line)),
            None => Verdict::pass(format!(
                "{} requests, each at its sender's barrier to its partner along the barrier's dimension, at most one per PE and phase ({} barriers)",
                self.requests, self.clock.count
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
        let book = Book::new(0);
        events.iter().enumerate().for_each(|(i, e)| p.observe(i + 2, e, &book));
        p.finish(&Metrics::default(), &book)
    }

    #[test]
    fn requests_at_the_barrier_to_the_partner_pass_and_others_fail() {
        let phase = Event::Phase { t: 10, cycle: 0, phase: 1, pe: None };
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

    #[test]
    fn local_barriers_are_each_pe_s_own() {
        let at = |t, pe, phase| Event::Phase { t, cycle: 0, phase, pe: Some(pe) };
        let (send, recv) = (testutil::send, testutil::recv);
        let ok = [
            at(10, 5, 1),
            send(10, 5, 7, 1, Kind::Request),
            at(14, 3, 2),
            send(14, 3, 7, 2, Kind::Request),
            recv(20, 7, 5, 1, Kind::Request),
            recv(24, 7, 3, 2, Kind::Request),
        ];
        assert!(verdict(&ok).pass, "{}", verdict(&ok).detail);
        let late = [at(10, 5, 1), send(12, 5, 7, 1, Kind::Request)];
        assert!(verdict(&late).detail.contains("between barriers"), "{}", verdict(&late).detail);
        let unknown = [at(10, 5, 1), send(10, 3, 7, 1, Kind::Request)];
        assert!(verdict(&unknown).detail.contains("before its first barrier"), "{}", verdict(&unknown).detail);
        let twice = [
            at(10, 5, 1),
            send(10, 5, 7, 1, Kind::Request),
            send(10, 5, 7, 2, Kind::Request),
            recv(20, 7, 5, 1, Kind::Request),
            recv(20, 7, 5, 2, Kind::Request),
        ];
        assert!(verdict(&twice).detail.contains("second request of cycle 0, phase 1"), "{}", verdict(&twice).detail);
    }
}
