//! Karp–Zhang random cost trees (004 §1, §4.1, §6; S-11): the model of
//! best-first branch-and-bound the atomic model's Thm 2 is about.
//!
//! A complete binary tree of depth D (levels 0..=D; vertex ids are heap
//! indices, the root 1, the children of v are 2v and 2v + 1). Costs increase
//! along paths: cost(root) = 0, cost(child) = cost(parent) + 1 + (a hash of
//! (seed, child) mod 1024). The goal is a leaf (depth D) of minimum cost, the
//! optimum. A vertex is *critical* when its cost is below the optimum: every
//! branch-and-bound must expand the critical subtree (n vertices, depth h),
//! and 004 Thm 2 bounds the time by k(n/p + h) under a priority message
//! queue and the FIFO arbiter. The non-critical rest of the tree is what a
//! FIFO message queue (the `bnb-fifo-queue` mutant) wastes time on.
//!
//! `pruned`: a vertex of cost at or above the optimum is a leaf (its
//! children are never generated), as in a search that starts with the
//! optimum as its bound (004 §4.1: "non-critical vertices can, in principle,
//! be pruned"). The critical subtree, the optimum and h are those of the
//! full tree; the rest is the critical vertices' non-critical children
//! (at most n + 1), which still take the network. Thm 2 then reaches
//! critical subtrees of 10^4 vertices (depth 26) without 2^27 expansions.
//!
//! A subproblem is a stack of vertices; working one unit expands the top
//! vertex (its id enters the fingerprint; its children, if any, are pushed);
//! a split gives away the bottom half of the stack.

use super::{Fingerprint, Subproblem, WorkLog};
use crate::base::hash::mix64;

/// The largest depth accepted (2^(D+1) − 1 vertices).
pub const MAX_DEPTH: u32 = 26;

/// A cost tree: its depth and seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostTreeConfig {
    /// D: leaves are at depth D.
    pub depth: u32,
    /// Seed of the costs.
    pub seed: u64,
    /// `Some(optimum)`: vertices of cost >= the optimum are leaves
    /// ([`CostTreeConfig::pruned`]).
    pub cut: Option<u64>,
}

/// One vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vertex {
    /// Heap index (root 1).
    pub id: u64,
    /// Depth (root 0).
    pub depth: u32,
    /// Cost: increasing along every path.
    pub cost: u64,
}

/// What the sequential branch-and-bound knows of a tree (004 §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Critical {
    /// The optimum: the least leaf cost.
    pub optimum: u64,
    /// n: vertices of cost below the optimum.
    pub n: u64,
    /// h: depth of the critical subtree, in vertices.
    pub h: u64,
    /// Fingerprint of the critical vertices.
    pub fp: Fingerprint,
}

impl CostTreeConfig {
    /// The full tree of depth `depth`.
    pub fn new(depth: u32, seed: u64) -> CostTreeConfig {
        CostTreeConfig { depth, seed, cut: None }
    }

    /// The tree whose non-critical vertices are leaves: the critical
    /// subtree and its children only (see the module's doc).
    pub fn pruned(depth: u32, seed: u64) -> CostTreeConfig {
        let full = CostTreeConfig::new(depth, seed);
        CostTreeConfig { cut: Some(full.walk(u64::MAX, |_| {})), ..full }
    }

    /// The root subproblem.
    pub fn root(&self) -> CostTask {
        CostTask { stack: vec![Vertex { id: 1, depth: 0, cost: 0 }], cfg: *self, gen: 0 }
    }

    /// The children of `v` (none for a leaf).
    pub fn children(&self, v: Vertex) -> impl Iterator<Item = Vertex> + '_ {
        let inner = v.depth < self.depth && self.cut.is_none_or(|c| v.cost < c);
        let ids = if inner { 2 * v.id..2 * v.id + 2 } else { 0..0 };
        ids.map(move |id| Vertex { id, depth: v.depth + 1, cost: v.cost + 1 + mix64(self.seed ^ mix64(id)) % 1024 })
    }

    /// The optimum and the critical subtree, by two depth-first passes.
    pub fn critical(&self) -> Critical {
        let optimum = self.walk(u64::MAX, |_| {});
        let mut c = Critical { optimum, n: 0, h: 0, fp: Fingerprint::EMPTY };
        self.walk(optimum, |v| {
            c.n += 1;
            c.h = c.h.max(u64::from(v.depth) + 1);
            c.fp.add_item(v.id, 1);
        });
        c
    }

    /// Visits every vertex of cost below `below` (its subtree is below it
    /// only if it is); returns the least leaf cost seen.
    fn walk(&self, below: u64, mut visit: impl FnMut(Vertex)) -> u64 {
        let (mut stack, mut best) = (vec![Vertex { id: 1, depth: 0, cost: 0 }], u64::MAX);
        while let Some(v) = stack.pop() {
            if v.cost >= below || v.cost >= best && below == u64::MAX {
                continue;
            }
            visit(v);
            if v.depth == self.depth {
                best = best.min(v.cost);
            }
            stack.extend(self.children(v));
        }
        best
    }
}

/// A stack of vertices of one cost tree.
#[derive(Clone, Debug)]
pub struct CostTask {
    stack: Vec<Vertex>,
    cfg: CostTreeConfig,
    gen: u32,
}

impl Subproblem for CostTask {
    fn work(&mut self, budget: u64, log: &mut WorkLog) -> u64 {
        let mut done = 0;
        while done < budget {
            let Some(v) = self.stack.pop() else { break };
            log.fp.add_item(v.id, 1);
            log.max_depth = log.max_depth.max(v.depth);
            log.leaves += (v.depth == self.cfg.depth) as u64;
            self.stack.extend(self.cfg.children(v));
            done += 1;
        }
        done
    }

    fn split(&mut self) -> Option<CostTask> {
        if self.stack.len() < 2 {
            return None;
        }
        self.gen += 1;
        let rest = self.stack.split_off(self.stack.len() / 2);
        let bottom = std::mem::replace(&mut self.stack, rest);
        Some(CostTask { stack: bottom, cfg: self.cfg, gen: self.gen })
    }

    fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }

    fn generation(&self) -> u32 {
        self.gen
    }

    fn key(&self) -> u64 {
        self.cost().unwrap_or(0)
    }

    fn cost(&self) -> Option<u64> {
        self.stack.last().map(|v| v.cost)
    }
}

/// On the wire (MPI): the stack of vertices and the generation; the
/// configuration is the template's.
impl super::wire::Wire for CostTask {
    fn encode(&self, out: &mut Vec<u8>) {
        use super::wire::Put;
        out.put_count(self.stack.len());
        for v in &self.stack {
            out.put_u64(v.id);
            out.put_u32(v.depth);
            out.put_u64(v.cost);
        }
        out.put_u32(self.gen);
    }

    fn decode(template: &Self, r: &mut super::wire::Reader<'_>) -> Result<Self, super::wire::WireError> {
        let stack = r.seq(20, |r| Ok(Vertex { id: r.u64()?, depth: r.u32()?, cost: r.u64()? }))?;
        Ok(CostTask { stack, cfg: template.cfg, gen: r.u32()? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::sequential;

    /// Costs increase along paths; the critical subtree is the vertices
    /// below the optimum, found by brute force on a small tree.
    #[test]
    fn the_critical_subtree_is_what_brute_force_finds() {
        let cfg = CostTreeConfig::new(10, 3);
        let mut all = Vec::new();
        let mut stack = vec![Vertex { id: 1, depth: 0, cost: 0 }];
        while let Some(v) = stack.pop() {
            all.push(v);
            for c in cfg.children(v) {
                assert!(c.cost > v.cost);
                stack.push(c);
            }
        }
        assert_eq!(all.len(), (1 << 11) - 1);
        let optimum = all.iter().filter(|v| v.depth == 10).map(|v| v.cost).min().unwrap();
        let crit: Vec<&Vertex> = all.iter().filter(|v| v.cost < optimum).collect();
        let c = cfg.critical();
        assert_eq!((c.optimum, c.n), (optimum, crit.len() as u64));
        assert_eq!(c.h, crit.iter().map(|v| u64::from(v.depth) + 1).max().unwrap());
        let mut fp = Fingerprint::EMPTY;
        crit.iter().for_each(|v| fp.add_item(v.id, 1));
        assert_eq!(c.fp, fp);
        assert!(c.n > 10 && c.n * 4 < all.len() as u64, "a small critical part: {}", c.n);
        assert_eq!(sequential::run(cfg.root()).work, (1 << 11) - 1);
        let pruned = CostTreeConfig::pruned(10, 3);
        assert_eq!(pruned.critical(), c, "the same critical subtree and optimum");
        let kept = all.iter().filter(|v| v.cost < optimum || v.id == 1 || crit.iter().any(|p| p.id == v.id / 2));
        assert_eq!(sequential::run(pruned.root()).work, kept.count() as u64, "critical vertices and their children");
    }
}
