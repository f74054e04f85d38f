//! `lower_bound` (000 eq. (1); 001 §1.2): no run beats the two exact lower
//! bounds on the parallel time,
//!
//! - T_par ≥ T_seq / P, checked as T_par · P ≥ T_seq (integers), with T_seq
//!   the reference's work units (the workload's, or the header's `units`
//!   for a `custom` one): a run that lost work is no faster for it; and
//! - T_par ≥ max_gen · T_split: a subproblem of generation g needs g splits
//!   one after the other, each charged T_split (the header's `t_split`),
//!   max_gen being the largest `gen` of a `split` or `work` event.
//!
//! Under pruning (branch-and-bound, S-12) a parallel run may examine fewer
//! nodes than the sequential one (002 §5.2's superlinear speedup), so the
//! first bound reads T_par · P ≥ the units of work this run did.
//!
//! T_par is the last `terminated` time (the last event's time if there is
//! none). Both bounds assume one time unit per work unit, as the simulator
//! charges it. With `clock: step` (004's atomic model, where a node expands
//! at most one subproblem per step) they read T_par · P ≥ the number of
//! `work` events (expansions) and T_par ≥ max_gen (a subproblem of
//! generation g is g expansions, each in its own step, below the root: 004
//! §1's Ω(n/p + h)). For a trace whose `clock` is `ns` or `seq` (real
//! threads) the property reports itself not applicable, with the figures,
//! instead of comparing nanoseconds with node counts.

use super::{Book, Metrics, Property, Verdict};
use crate::event::{Clock, Event, TraceHeader};

/// State of the `lower_bound` check (judged at the end, from the metrics).
pub(super) struct LowerBound {
    pes: u32,
    t_split: u64,
    clock: Clock,
    expansions: u64,
    pruning: bool,
}

impl LowerBound {
    /// For the run of `header`; `pruning` for branch-and-bound (S-12).
    pub(super) fn new(header: &TraceHeader, pruning: bool) -> LowerBound {
        let (pes, t_split, clock) = (header.pes, header.t_split, header.clock);
        LowerBound { pes, t_split, clock, expansions: 0, pruning }
    }
}

fn relation(holds: bool) -> &'static str {
    if holds {
        "≥"
    } else {
        "<"
    }
}

impl Property for LowerBound {
    const NAME: &'static str = "lower_bound";

    #[inline(always)]
    fn observe(&mut self, _line: usize, e: &Event, _: &Book) {
        self.expansions += matches!(e, Event::Work { .. }) as u64;
    }

    fn finish(self, m: &Metrics, _: &Book) -> Verdict {
        let (t_par, from) = match m.t_par {
            Some(t) => (t, "last terminated"),
            None => (m.t_last, "last event: no terminated event"),
        };
        let (t_seq, what) = if self.pruning { (m.work_done, "work done") } else { (m.t_seq, "T_seq") };
        let (p, t_seq, g, s) = (self.pes, u128::from(t_seq), m.max_gen, self.t_split);
        if self.clock == Clock::Step {
            return self.steps(t_par, g, from);
        }
        if !self.clock.is_work() {
            let clock = self.clock;
            return Verdict::pass(format!(
                "not applicable: times are {clock}, the bounds need one time unit per work unit (T_par = {t_par} {clock}, T_seq = {t_seq} units, max_gen = {g})"
            ));
        }
        let work = u128::from(t_par) * u128::from(p);
        let splits = u128::from(g) * u128::from(s);
        let (work_ok, splits_ok) = (work >= t_seq, u128::from(t_par) >= splits);
        let detail = format!(
            "T_par·P = {t_par}·{p} = {work} {} {what} = {t_seq}; T_par = {t_par} {} max_gen·T_split = {g}·{s} = {splits} (T_par: {from})",
            relation(work_ok),
            relation(splits_ok)
        );
        match work_ok && splits_ok {
            true => Verdict::pass(detail),
            false => Verdict::fail(detail, None),
        }
    }
}

impl LowerBound {
    /// The step-clock form: T_par·P ≥ expansions, T_par ≥ max_gen.
    fn steps(&self, t_par: u64, g: u32, from: &str) -> Verdict {
        let (p, n) = (self.pes, self.expansions);
        let work = u128::from(t_par) * u128::from(p);
        let (work_ok, depth_ok) = (work >= u128::from(n), t_par >= u64::from(g));
        let detail = format!(
            "T_par·P = {t_par}·{p} = {work} {} expansions = {n}; T_par = {t_par} {} max_gen = {g} (steps; T_par: {from})",
            relation(work_ok),
            relation(depth_ok)
        );
        match work_ok && depth_ok {
            true => Verdict::pass(detail),
            false => Verdict::fail(detail, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;

    const NAME: &str = LowerBound::NAME;

    #[test]
    fn correct_streams_pass() {
        let r = run(1, single_pe());
        assert_passes(NAME, &r);
        assert_eq!(
            r.properties[NAME].detail,
            "T_par·P = 10·1 = 10 ≥ T_seq = 10; T_par = 10 ≥ max_gen·T_split = 0·1 = 0 (T_par: last terminated)"
        );
        assert_passes(NAME, &run(2, two_pes()));
    }

    #[test]
    fn t_par_below_t_seq_over_p_fails() {
        let mut events = single_pe();
        events.insert(1, work(5, 0, 0, 10, 30)); // 20 more units by t = 10 on one PE
        let v = assert_fails(NAME, &run(1, events), None);
        assert!(v.detail.starts_with("T_par·P = 10·1 = 10 < T_seq = 30;"), "{}", v.detail);
    }

    #[test]
    fn t_par_below_the_split_chain_fails() {
        let mut events = single_pe();
        events.insert(1, Event::Split { t: 1, pe: 0, gen: 11 });
        let v = assert_fails(NAME, &run(1, events), None);
        assert!(v.detail.contains("T_par = 10 < max_gen·T_split = 11·1 = 11"), "{}", v.detail);
    }

    /// Real-time traces: the bound is not applied (1 ns for 30 units is no violation).
    #[test]
    fn other_clocks_are_not_applicable() {
        let mut events = single_pe();
        events.insert(1, work(5, 0, 0, 10, 30));
        let h = TraceHeader { clock: Clock::Ns, ..header(1) };
        let r = run_with_header(&h, reference_of(&events), events);
        let detail = &r.properties[NAME].detail;
        assert!(r.properties[NAME].pass && detail.starts_with("not applicable: times are nanoseconds"), "{detail}");
        assert!(detail.contains("T_seq = 30 units"), "{detail}");
    }

    /// Steps (004's atomic model): one expansion per node per step.
    #[test]
    fn the_step_clock_counts_expansions() {
        let h = TraceHeader { clock: Clock::Step, ..header(1) };
        let events = single_pe();
        let r = run_with_header(&h, reference_of(&events), events.clone());
        assert_passes(NAME, &r);
        assert!(
            r.properties[NAME].detail.starts_with("T_par·P = 10·1 = 10 ≥ expansions = 1;"),
            "{:?}",
            r.properties[NAME]
        );
        let mut many = events;
        for t in 1..=11 {
            many.insert(1, work(t, 0, 0, 0, 0));
        }
        let r = run_with_header(&h, reference_of(&many), many);
        let v = assert_fails(NAME, &r, None);
        assert!(v.detail.contains("10 < expansions = 12"), "{}", v.detail);
    }

    #[test]
    fn without_terminated_the_last_event_counts() {
        let mut events = single_pe();
        events.retain(|e| !matches!(e, Event::Terminated { .. }));
        events.push(Event::End { t: 12 });
        events.remove(events.len() - 2);
        let r = run(1, events);
        assert!(r.properties[NAME].detail.contains("T_par·P = 12·1"), "{}", r.properties[NAME].detail);
    }
}
