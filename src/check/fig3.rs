//! `fig3_transfers` (000 §6.1, the optimality part of 002 Thm 1; S-21): on
//! 000 Fig. 3's workload, finishing fast needs Ω(n·h) load transfers.
//!
//! `synthetic:…,split=fig3:N:S` splits the root into B = N/2 branches, each of
//! which must be peeled S times (S negligible atomic pieces given away)
//! before the rest of it, a large triangle of at least L_min units, can be
//! shared: until then the branch is one subproblem, and whoever holds it
//! works its triangle alone. So a run whose last `work` ends before L_min
//! (speed ≥ 1: a PE does at most one unit per time unit) peeled every
//! branch: it has at least B·S `split` events. Exact, for any P, on traces
//! whose `clock` is `work`; not applicable to other workloads, other clocks
//! or runs with the initial split of 002 §3 (its local splits emit no
//! event). The verdict also reports the work messages per P·h, the traffic
//! 002 Thm 1 bounds by O(P·h) and this workload needs from below.

use super::{Book, Metrics, Property, Verdict};
use crate::event::{Clock, Event, TraceHeader};
use crate::problem::Workload;

/// Why `fig3_transfers` does not apply to a trace.
#[derive(Debug, thiserror::Error)]
enum NotApplicable {
    /// Another workload.
    #[error("the workload is not 000 Fig. 3's (`synthetic:…,split=fig3:N:S`)")]
    Workload,
    /// Times are not model time.
    #[error("times are {0}, the bound is in model time")]
    Clock(Clock),
    /// The initial split of 002 §3.
    #[error("the initial split's local splits emit no `split` event")]
    InitialSplit,
}

/// State of the `fig3_transfers` check.
pub(super) struct Fig3Transfers {
    /// (B·S splits needed, L_min, h), or why the check does not apply.
    applies: Result<(u64, u64, u64), NotApplicable>,
    splits: u64,
}

impl Fig3Transfers {
    /// For the run of `header` (its workload, clock and initial split).
    pub(super) fn new(header: &TraceHeader) -> Fig3Transfers {
        let fig3 = match header.workload.parse::<Workload>() {
            Ok(Workload::Synthetic(c)) => c.fig3_transfers().map(|(need, l_min)| (need, l_min, c.h())),
            _ => None,
        };
        let applies = match fig3 {
            None => Err(NotApplicable::Workload),
            Some(_) if !header.clock.is_work() => Err(NotApplicable::Clock(header.clock)),
            Some(_) if header.run_record().is_some_and(|r| r.initial_split) => Err(NotApplicable::InitialSplit),
            Some(f) => Ok(f),
        };
        Fig3Transfers { applies, splits: 0 }
    }
}

impl Property for Fig3Transfers {
    const NAME: &'static str = "fig3_transfers";

    #[inline(always)]
    fn observe(&mut self, _line: usize, e: &Event, _: &Book) {
        self.splits += u64::from(matches!(e, Event::Split { .. }));
    }

    fn finish(self, m: &Metrics, _: &Book) -> Verdict {
        let (need, l_min, h) = match self.applies {
            Ok(a) => a,
            Err(why) => return Verdict::pass(format!("not applicable: {why}")),
        };
        let Some(last) = m.t_last_work else { return Verdict::pass("not applicable: no work was done") };
        let work = m.messages.get("work").copied().unwrap_or(0);
        let traffic = work as f64 / (f64::from(m.pes.max(1)) * h.max(1) as f64);
        let splits = self.splits;
        let figures = format!("{splits} splits, {work} work messages = {traffic:.3}·P·h (h = {h})");
        match (last < l_min, splits >= need) {
            (false, _) => Verdict::pass(format!("the last work ended at {last} ≥ L_min = {l_min}: no transfers needed; {figures}")),
            (true, true) => Verdict::pass(format!("the last work ended at {last} < L_min = {l_min}, with ≥ B·S = {need} splits: {figures}")),
            (true, false) => Verdict::fail(
                format!("the last work ended at {last} < L_min = {l_min}, but every branch needs its S peels first: {splits} splits < B·S = {need}"),
                None,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;
    use crate::problem::{Fingerprint, WorkLog};

    const WORKLOAD: &str = "synthetic:size=64,atomic=2,split=fig3:4:3"; // n = 4 PEs: B = 2 branches

    /// Two PEs each work half of the tree in 32 time units; L_min is 26
    /// (two branches of 32, each peeling 3 pieces of 2), so a trace that
    /// ends at 32 needs no transfers, and one that claims to end at 20 with
    /// fewer than 6 splits is impossible.
    fn two_halves(end: u64, splits: u64) -> Vec<Event> {
        let half = |lo, hi| {
            let mut fp = Fingerprint::EMPTY;
            fp.add_range(lo, hi);
            WorkLog { fp, ..WorkLog::default() }.fp
        };
        let mut events = vec![Event::Busy { t: 0, pe: 0 }, Event::Busy { t: 0, pe: 1 }];
        events.extend((0..splits).map(|i| Event::Split { t: 0, pe: 0, gen: i as u32 + 1 }));
        events.extend([
            Event::work(end, 0, 32, 1, &WorkLog { fp: half(0, 32), ..WorkLog::default() }),
            Event::work(end, 1, 32, 1, &WorkLog { fp: half(32, 64), ..WorkLog::default() }),
            Event::Idle { t: end, pe: 0 },
            Event::Idle { t: end, pe: 1 },
            Event::End { t: end },
        ]);
        events
    }

    fn verdict(events: Vec<Event>) -> crate::check::CheckReport {
        let h = TraceHeader { workload: WORKLOAD.into(), ..header(2) };
        run_with_header(&h, reference_of(&events), events)
    }

    #[test]
    fn l_min_and_the_splits_needed_follow_the_workload() {
        let Ok(Workload::Synthetic(c)) = WORKLOAD.parse::<Workload>() else { panic!("a synthetic workload") };
        assert_eq!(c.fig3_transfers(), Some((6, 26)));
    }

    #[test]
    fn a_run_slower_than_l_min_or_with_the_peels_passes() {
        let r = verdict(two_halves(32, 0));
        assert!(r.properties[Fig3Transfers::NAME].detail.contains("32 ≥ L_min = 26"), "{:?}", r.properties);
        assert_passes(Fig3Transfers::NAME, &r);
        assert_passes(Fig3Transfers::NAME, &verdict(two_halves(20, 6)));
    }

    #[test]
    fn finishing_before_l_min_without_the_peels_fails() {
        let v = assert_fails(Fig3Transfers::NAME, &verdict(two_halves(20, 5)), None);
        assert!(v.detail.contains("5 splits < B·S = 6"), "{}", v.detail);
    }

    #[test]
    fn other_workloads_are_not_applicable() {
        let r = run_with_header(&header(2), reference_of(&two_halves(20, 0)), two_halves(20, 0));
        assert!(r.properties[Fig3Transfers::NAME].detail.starts_with("not applicable"));
    }
}
