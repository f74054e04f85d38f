//! `critical_expanded` (004 §6, S-11): every critical vertex of a
//! branch-and-bound workload, one of cost below the optimum, is expanded,
//! exactly once. No branch-and-bound can skip one: it might lead to a
//! better goal.
//!
//! Checked from the `work` events that carry a `cost` (one vertex each):
//! the fingerprint of those of cost below the reference's optimum must
//! equal the fingerprint of the reference's critical subtree (a vertex
//! missing, or expanded twice, changes it). Applies to workloads with an
//! optimum (`kz:…`) whose trace's `work` events carry `cost`; otherwise the
//! verdict says "not applicable".

use super::{Metrics, Property, Reference, Verdict};
use crate::event::Event;
use crate::problem::Fingerprint;

/// State of the `critical_expanded` check.
pub(super) struct CriticalExpanded {
    expected: Reference,
    fp: Fingerprint,
    with_cost: u64,
    without_cost: Option<usize>,
}

impl CriticalExpanded {
    /// Against the reference's critical subtree, if it has one.
    pub(super) fn new(expected: Reference) -> CriticalExpanded {
        CriticalExpanded { expected, fp: Fingerprint::EMPTY, with_cost: 0, without_cost: None }
    }
}

impl Property for CriticalExpanded {
    const NAME: &'static str = "critical_expanded";

    fn observe(&mut self, line: usize, e: &Event) {
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

    fn finish(self, _: &Metrics) -> Verdict {
        let Some(c) = self.expected.critical else {
            return Verdict::pass("not applicable: the workload has no optimum (not branch-and-bound)");
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
