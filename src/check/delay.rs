//! `detection_delay_bound` (001 Lemma 6, 002 §3, 003 §14.7.4): once the
//! computation is over, the detector announces within a few message
//! latencies — not merely eventually.
//!
//! The computation is over at the last moment no PE holds work and no work
//! message is in flight ([`super::activity`], as in `no_early_termination`). With L the largest
//! latency of a detector message in the trace (`recv` time − `send` time of
//! kinds `energy`, `wave_down`, `wave_up`, `control`; at least 1) — only
//! detector messages travel between the end of the computation and the
//! announcement; a work message's latency includes the T_split its sender
//! paid, which would loosen the bound by T_split/T_rout — and
//! D = ⌊log2 P⌋ the depth of the binary tree rooted at PE 0, the
//! announcement must come at most
//! - `energy`: L after it (the last energy returned travels straight to PE 0);
//! - `energy-tree`: D·L (it climbs the tree, idle PEs forwarding at once);
//! - `four-counter`: 6·D·L (the wave in progress, one that may have read a
//!   PE before the end, and the confirming wave, each down and up the tree);
//! - `safra` (EWD998): 3·P·L (the round in progress, P hops at most; one
//!   that a PE the token passed before the end, black since, taints; and
//!   the round that finds every PE white);
//! - `barrier` (the phased machine, 000 §3.1): T_phase, the next barrier;
//!   with local synchronisation (header `run.sync: local`, 000 §6.3 Fig. 4)
//!   2·L_c·L, L_c the phases per cycle and L the largest latency of an
//!   exchange message (`request`, `reject`, `sync`): each phase left in the
//!   cycle costs idle partners a "phase finished" message and a reject,
//!   and the announcement comes at the permutation's global step.
//!
//! Detector messages cost no processor time in the simulator, so these are
//! exact there. Not applicable to traces whose `clock` is not `work`, or to
//! a detector lbcheck does not know. An announcement while work remains
//! fails here too (it follows `no_early_termination`).

use super::{Book, Metrics, Property, Verdict};
use crate::base::Topology;
use crate::event::{Clock, Event, Kind, TraceHeader};
use crate::protocol::poll_and_shuffle::phases_per_cycle;
use crate::protocol::DetectorKind;

/// Why `detection_delay_bound` does not apply to a trace.
#[derive(Debug, thiserror::Error)]
enum NotApplicable {
    /// Times are not model time.
    #[error("times are {0}, the bound is in model time")]
    Clock(Clock),
    /// A detector lbcheck does not know (the header's name).
    #[error("detector `{0}` is not one lbcheck knows")]
    Detector(String),
}

/// State of the `detection_delay_bound` check.
pub(super) struct DetectionDelayBound {
    /// The detector and tree depth D, or why the bound does not apply.
    applies: Result<(DetectorKind, u64), NotApplicable>,
    max_latency: u64,
    /// When the computation was last seen over (`None` while it is not).
    over_since: Option<u64>,
    /// The first announcement: its time and when the computation was over then.
    announced: Option<(u64, Option<u64>)>,
    /// T_phase (the run's Δt), for the barrier detector.
    t_phase: u64,
    /// Local synchronisation: the phases per cycle L_c.
    cycle_phases: Option<u64>,
    /// P, for the token ring.
    pes: u64,
}

impl DetectionDelayBound {
    /// For the run of `header` (its detector, clock and PEs).
    pub(super) fn new(header: &TraceHeader) -> DetectionDelayBound {
        let depth = u64::from(header.pes.max(1).ilog2());
        let applies = match header.detector.parse::<DetectorKind>() {
            _ if !header.clock.is_work() => Err(NotApplicable::Clock(header.clock)),
            Ok(d) => Ok((d, depth)),
            Err(_) => Err(NotApplicable::Detector(header.detector.clone())),
        };
        DetectionDelayBound {
            applies,
            max_latency: 0,
            t_phase: header.run_record().map_or(1, |r| r.dt),
            cycle_phases: cycle_phases(header),
            pes: u64::from(header.pes),
            over_since: Some(0),
            announced: None,
        }
    }

    /// True if messages of `kind` give L: the detector's, and with local
    /// synchronisation the polling's (which carry its phases).
    fn timed(&self, kind: Kind) -> bool {
        match kind {
            Kind::Energy | Kind::WaveDown | Kind::WaveUp | Kind::Control => true,
            Kind::Request | Kind::Reject | Kind::Sync => self.cycle_phases.is_some(),
            _ => false,
        }
    }

    /// Notes when the computation becomes over (or busy again) at `t`.
    fn update(&mut self, t: u64, book: &Book) {
        let over = book.is_over();
        self.over_since = match (over, self.over_since) {
            (true, Some(since)) => Some(since),
            (true, None) => Some(t),
            (false, _) => None,
        };
    }
}

/// L_c, the phases per cycle, if the run is poll-and-shuffle with local
/// synchronisation (000 §6.3).
fn cycle_phases(header: &TraceHeader) -> Option<u64> {
    let run = header.run_record().filter(|r| r.sync.as_deref() == Some("local"))?;
    let topology = run.topology.as_deref().map_or(Ok(Topology::Crossbar), str::parse).ok()?;
    Some(u64::from(phases_per_cycle(topology, header.pes).max(1)))
}

/// The papers' bound on the detection delay, in units of L.
fn bound(detector: DetectorKind, depth: u64, pes: u64) -> (u64, &'static str) {
    match detector {
        DetectorKind::Energy => (1, "L"),
        DetectorKind::EnergyTree => (depth, "D·L"),
        DetectorKind::FourCounter => (6 * depth, "6·D·L"),
        DetectorKind::Safra => (3 * pes, "3·P·L"),
        DetectorKind::Barrier => (1, "T_phase (the next barrier, 000 §3.1)"),
    }
}

impl Property for DetectionDelayBound {
    const NAME: &'static str = "detection_delay_bound";

    #[inline(always)]
    fn observe(&mut self, _line: usize, e: &Event, book: &Book) {
        match *e {
            Event::Recv { t, .. } => {
                if let Some(sent) = book.messages.landed().filter(|s| self.timed(s.kind)) {
                    self.max_latency = self.max_latency.max(t.saturating_sub(sent.t));
                }
            }
            Event::Announce { t, .. } if self.announced.is_none() => self.announced = Some((t, self.over_since)),
            _ => {}
        }
        self.update(e.time(), book);
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        let (detector, depth) = match self.applies {
            Ok(a) => a,
            Err(why) => return Verdict::pass(format!("not applicable: {why}")),
        };
        let Some((t, over)) = self.announced else {
            return Verdict::pass("not applicable: no announcement (see termination_detected)");
        };
        let Some(over) = over else {
            return Verdict::fail(format!("announced at t={t} while work remained (see no_early_termination)"), None);
        };
        let (mut factor, mut name) = bound(detector, depth, self.pes);
        let (l, delay) = (self.max_latency.max(1), t - over);
        let limit = match (detector, self.cycle_phases) {
            (DetectorKind::Barrier, Some(phases)) => {
                (factor, name) = (2 * phases, "2·L_c·L (the phases left in the cycle, 000 §6.3)");
                factor.saturating_mul(l)
            }
            (DetectorKind::Barrier, None) => self.t_phase,
            _ => factor.saturating_mul(l),
        };
        let detail = format!(
            "announced {delay} after the computation was over (t={over}); {detector} allows {name} = {limit} (L = {l}, D = {depth})"
        );
        match delay <= limit {
            true => Verdict::pass(detail),
            false => Verdict::fail(detail, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;

    const NAME: &str = DetectionDelayBound::NAME;

    fn with(detector: &str, events: Vec<Event>) -> crate::check::CheckReport {
        let h = TraceHeader { detector: detector.into(), ..header(2) };
        run_with_header(&h, reference_of(&events), events)
    }

    /// `two_pes` with PE 0 announcing `wait` after the last energy came back.
    fn announce_late(wait: u64) -> Vec<Event> {
        let at = position(&two_pes(), |e| matches!(e, Event::Announce { .. }));
        two_pes()
            .into_iter()
            .enumerate()
            .map(|(i, mut e)| {
                if let (true, Some(t)) = (i >= at, e.time_mut()) {
                    *t += wait;
                }
                e
            })
            .collect()
    }

    #[test]
    fn prompt_announcements_pass_for_every_known_detector() {
        let r = with("energy", two_pes());
        assert_passes(NAME, &r);
        assert_eq!(
            r.properties[NAME].detail,
            "announced 2 after the computation was over (t=15); energy allows L = 2 (L = 2, D = 1)"
        );
        assert_passes(NAME, &with("energy-tree", two_pes()));
        assert_passes(NAME, &with("four-counter", announce_late(10))); // 12 ≤ 6·D·L = 12
        assert_passes(NAME, &with("safra", announce_late(10))); // 12 ≤ 3·P·L = 12
        let r = with("dijkstra-scholten", announce_late(100));
        assert_eq!(r.properties[NAME].detail, "not applicable: detector `dijkstra-scholten` is not one lbcheck knows");
    }

    /// A `recv` of kind `work` for a message sent as a request (malformed:
    /// `trace_well_formed` reports it) does not upset the state.
    #[test]
    fn a_mismatched_recv_kind_does_not_panic() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Recv { id: 1, .. }));
        events[i] = recv(2, 0, 1, 1, Kind::Work);
        let r = with("energy", events);
        assert!(!r.properties["trace_well_formed"].pass);
    }

    #[test]
    fn a_late_announcement_fails() {
        let v = assert_fails(NAME, &with("energy", announce_late(1)), None);
        assert!(
            v.detail.starts_with("announced 3 after the computation was over (t=15); energy allows L = 2"),
            "{}",
            v.detail
        );
        assert_fails(NAME, &with("four-counter", announce_late(11)), None);
        assert_fails(NAME, &with("safra", announce_late(11)), None);
    }

    #[test]
    fn an_announcement_while_work_remains_fails_as_a_consequence() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Announce { .. }));
        events.remove(i);
        let busy = position(&events, |e| matches!(e, Event::Busy { t: 5, .. }));
        events.insert(busy + 1, Event::Announce { t: 5, pe: 0 });
        let r = with("energy", events);
        let v = assert_fails(NAME, &r, None);
        assert_eq!(v.follows, Some("no_early_termination"), "{}", v.detail);
    }
}
