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
