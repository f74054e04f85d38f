//! Random-destination backtrack search (004 §1, §4.1, §5; Thm 1).
//!
//! Node 0 starts with the root. A node expands the vertex it received (one
//! step: the driver's slice of one unit) and sends every child to an
//! independent, uniformly random node, itself included (a child destined to
//! the expanding node still goes through its send buffer, keeping the model
//! uniform, 004 §4.1). There are no requests: work moves only forward.
//!
//! A vertex is a subproblem: expanding it does one unit of work, and its
//! children are what is left, split into at most two parts
//! ([`children`]). The vertices of a workload thus form a binary tree of n
//! vertices (one per work unit of a unit-cost workload) and depth h; 004
//! Thm 1 bounds the search time by k(n/p + h) w.h.p. under the worst-case
//! arbiter, and every run obeys T ≥ max(⌈n/p⌉, h) ([`shape`]).
//!
//! Priority-queue branch-and-bound (004 §6, Thm 2) is the same node over
//! message queues ordered by cost (the driver's queue discipline) on a
//! Karp–Zhang cost tree; 004's analysis lets a node expand non-critical
//! vertices, so the reference prunes nothing.
//!
//! The steps a variant may change are [`Rules`] (the destination, the
//! children, pruning); the reference runs [`Rules::paper`].

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::{Balancer, Command, Ctx, Msg, PeId};
use crate::problem::{Subproblem, WorkLog};

/// The steps of 004 §4.1 where a variant may change them.
pub struct Rules<T> {
    /// The node a child goes to, given (me, P, my stream).
    pub destination: fn(PeId, u32, &mut ChaCha8Rng) -> PeId,
    /// A vertex's children, once it has been expanded.
    pub children: fn(T) -> Vec<T>,
    /// Whether the children of an expanded vertex are discarded, given the
    /// node's bound so far (which the rule may set) and the vertex.
    pub prune: fn(&mut Option<u64>, &T) -> bool,
}

impl<T> Clone for Rules<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Rules<T> {}

impl<T: Subproblem> Rules<T> {
    /// 004 §4.1: every child to an independent uniformly random node.
    pub fn paper() -> Rules<T> {
        Rules { destination: |_, pes, rng| rng.random_range(0..pes), children: children::<T>, prune: |_, _| false }
    }
}

impl<T> std::fmt::Debug for Rules<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Rules")
    }
}

/// The children of an expanded vertex: what is left of it, split into two
/// parts if it splits, else one (none when it is empty).
pub fn children<T: Subproblem>(mut rest: T) -> Vec<T> {
    match (rest.is_empty(), rest.split()) {
        (true, _) => Vec::new(),
        (false, Some(part)) => vec![rest, part],
        (false, None) => vec![rest],
    }
}

/// The vertex tree of `root` under [`children`]: (n vertices, depth h
/// counted in vertices on the longest root-to-leaf path).
pub fn shape<T: Subproblem>(root: T) -> (u64, u64) {
    let (mut n, mut h) = (0u64, 0u64);
    let mut stack = vec![(root, 1u64)];
    let mut log = WorkLog::default();
    while let Some((mut v, depth)) = stack.pop() {
        if v.is_empty() {
            continue;
        }
        v.work(1, &mut log);
        (n, h) = (n + 1, h.max(depth));
        stack.extend(children(v).into_iter().map(|c| (c, depth + 1)));
    }
    (n, h)
}

/// One node's state: the vertices it holds (at most one on the atomic
/// machine, any number on the complete network).
#[derive(Clone, Debug)]
pub struct RandomDestination<T> {
    rules: Rules<T>,
    pool: Vec<T>,
    bound: Option<u64>,
}

impl<T: Subproblem> RandomDestination<T> {
    /// A node running `rules`.
    pub fn new(rules: Rules<T>) -> Self {
        RandomDestination { rules, pool: Vec::new(), bound: None }
    }
}

impl<T: Subproblem> Balancer for RandomDestination<T> {
    type Task = T;

    fn start(&mut self, _: &mut Ctx<T>, part: Option<T>) {
        self.pool.extend(part.filter(|p| !p.is_empty()));
    }

    fn on_message(&mut self, ctx: &mut Ctx<T>, from: PeId, msg: Msg<T>) {
        match msg {
            Msg::Work { task, .. } => self.pool.push(task),
            Msg::Request => ctx.send(from, Msg::Reject),
            _ => {}
        }
    }

    /// The vertex on top was expanded: its children go to random nodes.
    fn on_poll(&mut self, ctx: &mut Ctx<T>) {
        let Some(v) = self.pool.pop() else { return };
        if (self.rules.prune)(&mut self.bound, &v) {
            return;
        }
        let kids = (self.rules.children)(v);
        if kids.len() == 2 {
            ctx.out.push(Command::Split { gen: kids[0].generation() });
        }
        for task in kids {
            let to = (self.rules.destination)(ctx.me, ctx.pes, ctx.rng);
            ctx.send(to, Msg::Work { task, energy: None });
        }
    }

    fn on_exhausted(&mut self, _: &mut Ctx<T>) {
        self.pool.retain(|t| !t.is_empty());
    }

    fn task_mut(&mut self) -> Option<&mut T> {
        self.pool.last_mut()
    }

    /// True if a vertex is held: an expanded one on top counts only if
    /// something is left of it.
    fn has_work(&self) -> bool {
        match self.pool.last() {
            Some(top) if top.is_empty() => self.pool.len() > 1,
            Some(_) => true,
            None => false,
        }
    }

    fn queued_requests(&self) -> u32 {
        0
    }
}
