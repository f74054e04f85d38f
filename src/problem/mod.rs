//! What is balanced: the tree-shaped computation model and its workloads.
//!
//! The model is 002 §2 / 001 §1.2: a *subproblem* `I` can be worked on
//! sequentially (`work(I, Δt)`), split into two subproblems whose sizes add up
//! (T(I) = T(I1) + T(I2), 002 eq. (1)), and carries a *generation*: the root
//! has generation 0 and both parts of a split have their parent's generation
//! plus one. A subproblem that cannot be split (atomic, or empty) yields
//! nothing. The splitting depth `h` of a workload is such that every
//! subproblem of generation ≥ h has size ≤ T_atomic (001 §1.2).
//!
//! Workloads: [`synthetic`] (adversarial split policies with known h),
//! [`uts`] (Unbalanced Tree Search trees, ../shared/uts.md) balanced as
//! [`dfs`] stacks with the splitting strategies of 002 §4.1, and
//! [`loops`] (interval loop scheduling, 002 §4.2). [`spec`] parses the
//! workload names the CLI takes into a [`Task`]; [`sequential`] runs a task to
//! exhaustion as the reference every parallel run is compared with.

pub mod bnb;
pub mod costtree;
pub mod dfs;
pub mod fingerprint;
pub mod loops;
pub mod sequential;
pub mod spec;
pub mod synthetic;
pub mod task;
pub mod uts;
pub mod wire;

pub use fingerprint::Fingerprint;
pub use spec::{ParamsError, SpecError, Workload, WorkloadFamily};
pub use task::Task;

/// One subproblem of a tree-shaped computation (002 eq. (1), 001 §1.2).
///
/// Call order: any interleaving of [`work`](Subproblem::work) and
/// [`split`](Subproblem::split) until [`is_empty`](Subproblem::is_empty).
/// The work done is recorded in a [`WorkLog`], so that the parts of a split
/// merge to the parent's record.
pub trait Subproblem: Clone + Send + std::fmt::Debug {
    /// Works on the subproblem for about `budget` units and returns the
    /// units done: `min(budget, T(I))` for unit-cost items, possibly more for
    /// items that cost several units (a loop iteration is never cut).
    fn work(&mut self, budget: u64, log: &mut WorkLog) -> u64;

    /// Splits off a part and returns it; `self` keeps the other part. Both
    /// parts get generation `generation() + 1`. Atomic or empty subproblems
    /// yield `None` and are unchanged.
    fn split(&mut self) -> Option<Self>;

    /// Splits off the smallest part the subproblem allows (a single atomic
    /// unit: one work unit, one loop iteration, one stack node) and returns
    /// it; `self` keeps the rest. The generation rules are those of
    /// [`split`](Subproblem::split). This is the deliberately useless split of
    /// the `split-tiny` mutant (it makes no progress in h); the default is
    /// [`split`](Subproblem::split).
    fn split_small(&mut self) -> Option<Self> {
        self.split()
    }

    /// True when no work is left (T(I) = 0).
    fn is_empty(&self) -> bool;

    /// Number of splits on the path from the root to this subproblem.
    fn generation(&self) -> u32;

    /// Its length on the wire in bytes: 002 §4.4's packed subproblem, the
    /// l of 000 §6.1's messages under `--routing`. A word unless the
    /// workload encodes itself ([`wire`]).
    fn wire_len(&self) -> u64 {
        8
    }

    /// Urgency, lower first, for a priority message queue (004 §4.1): a
    /// branch-and-bound vertex's cost; by default the generation.
    fn key(&self) -> u64 {
        u64::from(self.generation())
    }

    /// The cost of the vertex worked next, for branch-and-bound workloads
    /// (004 §6); `None` for the others.
    fn cost(&self) -> Option<u64> {
        None
    }

    /// Branch-and-bound with pruning (S-12): the incumbent, the cost of the
    /// best solution this subproblem knows of (`None` before one is known,
    /// and for workloads that do not prune).
    fn incumbent(&self) -> Option<u64> {
        None
    }

    /// Branch-and-bound with pruning: a lower bound on the cost of every
    /// solution in this subproblem (the least bound of its nodes).
    fn lower_bound(&self) -> Option<u64> {
        None
    }

    /// Branch-and-bound with pruning: learn of a solution of cost `v`
    /// (found elsewhere); the incumbent becomes the better of the two.
    fn improve(&mut self, _v: u64) {}

    /// Branch-and-bound in first-solution mode (002 §4.5): the search is
    /// over; the next [`work`](Subproblem::work) drops every node without
    /// working it (0 units), and nothing is split off before. Workloads
    /// that do not prune never stop (the CLI refuses the mode for them).
    fn discard(&mut self) {}

    /// Branch-and-bound, instrumentation for `critical_expanded` (S-12):
    /// from now on, log the nodes expanded whose bound is below `optimum`
    /// in [`WorkLog::critical`] (parts split off inherit it).
    fn watch_critical(&mut self, _optimum: u64) {}

    /// Branch-and-bound: prune `slack` sooner (bound + slack ≥ incumbent).
    /// Only the mutant `prune-off-by-one` calls it.
    fn loosen_pruning(&mut self, _slack: u64) {}
}

/// What a run of [`Subproblem::work`] did: the fingerprint of the items worked
/// and, for tree workloads, leaves and the largest node height seen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkLog {
    /// Order-independent summary of every item worked.
    pub fp: Fingerprint,
    /// Tree nodes with no children (0 for non-tree workloads).
    pub leaves: u64,
    /// Largest node height (root 0) seen (0 for non-tree workloads).
    pub max_depth: u32,
    /// Branch-and-bound: the cost of the best solution found (S-12).
    pub goal: Option<u64>,
    /// Branch-and-bound: the least incumbent a node was pruned with (S-12).
    pub pruned_with: Option<u64>,
    /// Branch-and-bound, when watched ([`Subproblem::watch_critical`]):
    /// the fingerprint of the nodes expanded whose bound beats the optimum.
    pub critical: Fingerprint,
}

impl WorkLog {
    /// Merges another log into this one.
    pub fn merge(&mut self, o: &WorkLog) {
        self.fp += o.fp;
        self.leaves += o.leaves;
        self.max_depth = self.max_depth.max(o.max_depth);
        self.goal = least(self.goal, o.goal);
        self.pruned_with = least(self.pruned_with, o.pruned_with);
        self.critical += o.critical;
    }
}

/// The lesser of two optional values (`None` is no value).
pub fn least(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        _ => a.or(b),
    }
}
