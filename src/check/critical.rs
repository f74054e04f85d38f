//! `critical_expanded` (004 §6, S-11): every critical vertex of a
//! branch-and-bound workload, one of cost below the optimum, is expanded,
//! exactly once. No branch-and-bound can skip one: it might lead to a
//! better goal.
//!
//! Checked from the `work` events that carry a `cost` (one vertex each):
//! the fingerprint of those of cost below the reference's optimum must
//! equal the fingerprint of the reference's critical subtree (a vertex
//! missing, or expanded twice, changes it). Applies to workloads with an
//! optimum (`kz:…`) whose trace's `work` events carry `cost`.
//!
//! Depth-first branch-and-bound with pruning (S-12): the critical nodes are
//! those whose bound is below the sequential optimum (every bound of the
//! workloads lbcheck ships is monotone along paths, so their ancestors are
//! critical too). A node is pruned only when its bound reaches a solution
//! found, which is never below the optimum, so every correct run expands
//! each of them exactly once. Checked from the `critical` fingerprints of
//! the `work` events (lbcheck's runs log them): their sum must be the
//! fingerprint of the sequential branch-and-bound started with the
//! optimum as its incumbent, which expands exactly the critical nodes.
//! Applies to traces made by lbcheck (the header's `run` record), not in
//! first-solution mode (the stop cuts them legitimately).
//!
//! Otherwise the verdict says "not applicable".

use super::{Book, Metrics, Property, Reference, Verdict};
use crate::event::{Event, TraceHeader};
use crate::problem::Fingerprint;

/// State of the `critical_expanded` check.
pub(super) struct CriticalExpanded {
    expected: Reference,
    fp: Fingerprint,
    with_cost: u64,
    without_cost: Option<usize>,
    /// Pruning: the critical nodes' fingerprint and the sum so far, or why
    /// it does not apply.
    pruned: Result<(Fingerprint, Fingerprint), &'static str>,
}

impl CriticalExpanded {
    /// Against the reference's critical subtree or nodes, if it has them,
    /// for the run of `header`.
    pub(super) fn new(expected: Reference, header: &TraceHeader) -> CriticalExpanded {
        let pruned = match expected.pruned_critical {
            None => Err("the workload has no optimum (not branch-and-bound)"),
            Some(_) if header.run_record().is_none() => {
                Err("the trace was not made by lbcheck: no `critical` fingerprints")
            }
            Some(_) if super::stop::first_solution(header) => {
                Err("first-solution mode stops the search before every critical node (002 §4.5)")
            }
            Some(c) => Ok((c, Fingerprint::EMPTY)),
        };
        CriticalExpanded { expected, fp: Fingerprint::EMPTY, with_cost: 0, without_cost: None, pruned }
    }

    /// The reference, known only now: its optimum's critical nodes.
    pub(super) fn set_reference(&mut self, expected: Reference) {
        if let (Ok((want, _)), Some(c)) = (&mut self.pruned, expected.pruned_critical) {
            *want = c;
        }
        self.expected = expected;
    }

    /// The verdict on a pruning run.
    fn pruned_verdict(&self) -> Verdict {
        let (expected, got) = match self.pruned {
            Err(why) => return Verdict::pass(format!("not applicable: {why}")),
            Ok(pair) => pair,
        };
        let o = self.expected.pruning.unwrap_or_default();
        match got == expected {
            true => Verdict::pass(format!("all {} critical nodes (bound < optimum {o}) expanded once", expected.units)),
            false => Verdict::fail(
                format!(
                    "{} nodes with a bound below the optimum {o} expanded (fingerprint {got}); a correct run expands exactly {} ({expected}): one was pruned, lost or expanded twice",
                    got.units, expected.units
                ),
                None,
            ),
        }
    }
}

impl Property for CriticalExpanded {
    const NAME: &'static str = "critical_expanded";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, _: &Book) {
        if let (Ok((_, sum)), Event::Work { critical: Some(c), .. }) = (&mut self.pruned, e) {
            *sum += **c;
        }
        let (Some(c), Event::Work { fp, cost, .. }) = (self.expected.critical, e) else { return };
        match cost {
            Some(cost) => {
                self.with_cost += 1;
                if *cost < c.optimum {
                    self.fp += *fp;
                }
            }
            None => self.without_cost = self.without_cost.or(Some(line)),
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        let Some(c) = self.expected.critical else {
            return self.pruned_verdict();
        };
        match (self.with_cost, self.without_cost) {
            (0, _) => return Verdict::pass("not applicable: no `work` event carries a vertex `cost`"),
            (_, Some(line)) => {
                return Verdict::fail(
                    format!("line {line}: a `work` event without `cost` among ones with it"),
                    Some(line),
                )
            }
            _ => {}
        }
        let detail = format!(
            "{} critical vertices (cost < optimum {}) expanded; expected {} ({}), got {}",
            self.fp.units, c.optimum, c.n, c.fp, self.fp
        );
        match self.fp == c.fp {
            true => {
                Verdict::pass(format!("all {} critical vertices (cost < optimum {}) expanded once", c.n, c.optimum))
            }
            false => Verdict::fail(detail, None),
        }
    }
}
