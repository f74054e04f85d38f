//! Branch-and-bound and search applications in the asynchronous model
//! (S-12; 002 §4.5, §5; 003 §14.5, §14.7.1, §14.11).
//!
//! Each application is a [`TreeRule`](super::dfs::TreeRule) that prunes: a
//! depth-first branch-and-bound stack ([`DfsStack`](super::dfs::DfsStack))
//! keeps an *incumbent*, the cost of the best solution it knows, and does
//! not expand a node whose lower bound is no better. Every cost is
//! minimised (knapsack minimises the profit left out, reported as the profit
//! kept). A node examined counts one work unit, pruned or not, so T_seq is
//! the nodes the sequential branch-and-bound examines; a parallel run
//! examines a different set (more when bounds travel late, fewer when a good
//! solution is found early: 002 §5.2's superlinear speedup), which is why
//! `work_conserved` gives way to `optimum_found` and `prune_sound`.
//!
//! The incumbent travels with the subproblem (a part given away keeps its
//! giver's incumbent) and between PEs by the bound propagation of
//! [`crate::protocol::bound`].

pub mod golomb;
pub mod knapsack;
pub mod puzzle15;
pub mod tsp;

use crate::base::hash::mix64;

/// The identity of child `choice` of the node `parent` (fingerprints).
pub(crate) fn child_id(parent: u64, choice: u64) -> u64 {
    mix64(parent ^ mix64(choice.wrapping_add(0x5bd1_e995)))
}

#[cfg(test)]
mod tests {
    use super::golomb::GolombConfig;
    use super::knapsack::KnapsackConfig;
    use super::puzzle15::Puzzle15Config;
    use super::tsp::TspConfig;
    use crate::problem::dfs::{DfsStack, Strategy, TreeRule};

    /// Bound(child) ≥ bound(parent) over the first `max` nodes of the tree:
    /// the precondition of `critical_expanded` (a node whose bound beats
    /// the optimum has only such ancestors).
    fn monotone<R: TreeRule>(stack: DfsStack<R>, max: usize) {
        let (rule, roots) = stack.rule_and_nodes();
        let (mut todo, mut kids) = (roots.to_vec(), vec![]);
        for _ in 0..max {
            let Some(n) = todo.pop() else { return };
            rule.expand(&n, &mut kids);
            for c in &kids {
                assert!(rule.bound(c) >= rule.bound(&n), "{n:?} → {c:?}");
            }
            todo.append(&mut kids);
        }
    }

    #[test]
    fn every_bound_is_monotone_along_paths() {
        for seed in 0..4 {
            monotone(KnapsackConfig { items: 30, seed }.root(Strategy::BottomHalf), 20_000);
            monotone(TspConfig { cities: 9, seed }.root(Strategy::BottomHalf), 20_000);
            monotone(Puzzle15Config::new(30, seed, None).unwrap().root(Strategy::BottomHalf), 20_000);
        }
        monotone(GolombConfig { marks: 7 }.root(Strategy::BottomHalf), 50_000);
    }
}
