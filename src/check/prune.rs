//! `prune_sound` (S-12; 002 §4.5, 003 §14.7.1): a node is pruned only with
//! a bound some PE actually achieved earlier. Depth-first branch-and-bound
//! may cut a subtree when its lower bound is no better than the cost of a
//! solution found; a bound better than every solution found so far (a
//! guess, a corrupted message, a PE that starts with a wrong incumbent)
//! cuts subtrees that may hold the optimum.
//!
//! Checked from `work` events: `goal` is the best solution a slice found,
//! `pruned_with` the least incumbent a node was pruned with in that slice.
//! Each `pruned_with` must be at least the least `goal` of the events so
//! far (that event's own included: a slice may prune with what it just
//! found). All costs are minimised. Applies to traces whose `work` events
//! carry `pruned_with`; otherwise the verdict says "not applicable".

use super::{Book, Metrics, Property, Verdict};
use crate::event::Event;
use crate::problem::least;

/// State of the `prune_sound` check.
#[derive(Default)]
pub(super) struct PruneSound {
    best: Option<u64>,
    prunes: u64,
    first_bad: Option<(usize, u32, u64, Option<u64>)>,
}

impl Property for PruneSound {
    const NAME: &'static str = "prune_sound";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, _: &Book) {
        let Event::Work { pe, goal, pruned_with, .. } = e else { return };
        self.best = least(self.best, *goal);
        let Some(p) = *pruned_with else { return };
        self.prunes += 1;
        if self.first_bad.is_none() && self.best.is_none_or(|b| p < b) {
            self.first_bad = Some((line, *pe, p, self.best));
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        match (self.prunes, self.first_bad) {
            (0, _) => Verdict::pass("not applicable: no `work` event carries `pruned_with` (no pruning)"),
            (_, Some((line, pe, p, best))) => {
                let found =
                    best.map_or("no solution had been found".to_string(), |b| format!("the best found so far was {b}"));
                Verdict::fail(format!("line {line}: PE {pe} pruned with bound {p}, but {found}"), Some(line))
            }
            (n, None) => Verdict::pass(format!(
                "{n} work slices pruned, each with a bound no better than a solution found by then (best {})",
                self.best.map_or("none".into(), |b| b.to_string())
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;
    use crate::problem::Fingerprint;

    fn slice(t: u64, pe: u32, goal: Option<u64>, pruned_with: Option<u64>) -> Event {
        Event::Work { t, pe, units: 1, gen: 0, fp: Fingerprint::EMPTY, cost: None, goal, pruned_with, critical: None }
    }

    fn verdict(events: Vec<Event>) -> Verdict {
        let mut p = PruneSound::default();
        let book = Book::new(0);
        events.iter().enumerate().for_each(|(i, e)| p.observe(i + 1, e, &book));
        p.finish(&run(1, single_pe()).metrics, &book)
    }

    #[test]
    fn pruning_with_achieved_bounds_passes() {
        let v =
            verdict(vec![slice(1, 0, Some(9), Some(9)), slice(2, 1, None, Some(12)), slice(3, 0, Some(7), Some(7))]);
        assert!(v.pass, "{v:?}");
    }

    #[test]
    fn a_bound_better_than_any_solution_fails_where_it_is_used() {
        let v = verdict(vec![slice(1, 0, Some(9), None), slice(2, 1, None, Some(8)), slice(3, 0, Some(7), None)]);
        assert!(!v.pass && v.line == Some(2), "{v:?}");
        assert!(v.detail.contains("PE 1 pruned with bound 8, but the best found so far was 9"), "{}", v.detail);
        let v = verdict(vec![slice(1, 0, None, Some(3))]);
        assert!(!v.pass && v.detail.contains("no solution had been found"), "{v:?}");
    }

    #[test]
    fn traces_without_pruning_are_not_applicable() {
        let v = verdict(vec![slice(1, 0, Some(1), None)]);
        assert!(v.pass && v.detail.starts_with("not applicable"), "{v:?}");
    }
}
