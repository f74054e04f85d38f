//! `optimum_found` (004 §6, S-11): the best goal a branch-and-bound run
//! expanded is the optimum of the sequential reference.
//!
//! Checked from the `goal` of `work` events (the cost of a goal vertex
//! expanded, or with pruning the best solution a work slice found): their
//! least value must equal the reference's optimum. Applies to the pruning
//! branch-and-bound workloads (`knapsack`, `tsp`, `golomb`; S-12: all costs
//! minimised, knapsack's being the profit left out) and to cost trees
//! (`kz:…`) whose trace carries `cost` on its `work` events; otherwise the
//! verdict says "not applicable". In first-solution mode (002 §4.5; the
//! header's `run.bound`) the search stops at the first solution, which need
//! not be optimal: it must exist and be no better than the optimum (an IDA*
//! iteration's first solution is the optimum: its tests say so).

use super::{Book, Metrics, Property, Reference, Verdict};
use crate::event::Event;

/// State of the `optimum_found` check.
pub(super) struct OptimumFound {
    expected: Reference,
    best: Option<(u64, usize)>,
    costs: bool,
    first_solution: bool,
}

impl OptimumFound {
    /// Against the reference's optimum, if it has one (in first-solution
    /// mode if `first_solution`).
    pub(super) fn new(expected: Reference, first_solution: bool) -> OptimumFound {
        OptimumFound { expected, best: None, costs: false, first_solution }
    }

    /// The reference, known only now.
    pub(super) fn set_reference(&mut self, expected: Reference) {
        self.expected = expected;
    }
}

impl Property for OptimumFound {
    const NAME: &'static str = "optimum_found";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, _: &Book) {
        let Event::Work { cost, goal, .. } = e else { return };
        self.costs |= cost.is_some();
        if let Some(g) = *goal {
            if self.best.is_none_or(|(b, _)| g < b) {
                self.best = Some((g, line));
            }
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        let Some(optimum) = self.expected.optimum() else {
            return Verdict::pass("not applicable: the workload has no optimum (not branch-and-bound)");
        };
        if !self.costs && self.expected.pruning.is_none() {
            return Verdict::pass("not applicable: no `work` event carries a vertex `cost`");
        }
        match self.best {
            Some((b, _)) if b == optimum => Verdict::pass(format!("best goal expanded {b} = the optimum")),
            Some((b, _)) if b > optimum && self.first_solution => Verdict::pass(format!(
                "first-solution mode (002 §4.5): a solution of cost {b} found and the search stopped (the optimum is {optimum})"
            )),
            Some((b, line)) if b < optimum => Verdict::fail(
                format!(
                    "line {line}: a goal of cost {b}, below the optimum {optimum}: not a solution of this instance"
                ),
                Some(line),
            ),
            Some((b, _)) => Verdict::fail(format!("best goal expanded {b}, but the optimum is {optimum}"), None),
            None => Verdict::fail(format!("no goal expanded; the optimum is {optimum}"), None),
        }
    }
}
