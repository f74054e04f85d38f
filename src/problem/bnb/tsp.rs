//! The travelling salesman problem by depth-first branch-and-bound
//! (003 §14.5, §14.11; S-12).
//!
//! 003 §14.5's tree: the root is the tour at city 0 alone; a node's
//! children extend the partial tour by one unvisited city (nearest first);
//! a node is pruned when its bound is no better than the best tour known
//! (003 §14.5's `Feasible`). The bound: the partial tour's cost plus, for
//! the last city and every unvisited one, its cheapest edge — the
//! remaining edges of the tour leave exactly those cities, one each. The
//! instance: `cities` points with integer coordinates uniform in
//! [0, 1000)², distances Euclidean rounded to integers (symmetric).

use std::sync::Arc;

use rand::Rng;

use super::child_id;
use crate::base::rng::{stream, Purpose};
use crate::problem::dfs::{DfsStack, Strategy, TreeRule};

/// The most cities accepted (a visited set is a `u32`).
pub const MAX_CITIES: u32 = 24;

/// An instance: its size and seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TspConfig {
    /// n: cities.
    pub cities: u32,
    /// Seed of the coordinates.
    pub seed: u64,
}

/// The expansion rule: the distance matrix and each city's cheapest edge.
#[derive(Clone, Debug)]
pub struct Tsp {
    n: usize,
    dist: Arc<[u64]>,
    cheapest: Arc<[u64]>,
}

/// A partial tour from city 0.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    visited: u32,
    last: u8,
    len: u8,
    cost: u64,
    id: u64,
}

impl TspConfig {
    /// The distance matrix, row-major.
    pub fn distances(&self) -> Vec<u64> {
        let mut rng = stream(self.seed, 0, Purpose::Instance);
        let pts: Vec<(f64, f64)> =
            (0..self.cities).map(|_| (rng.random_range(0..1000) as f64, rng.random_range(0..1000) as f64)).collect();
        let d = |a: (f64, f64), b: (f64, f64)| ((a.0 - b.0).hypot(a.1 - b.1)).round() as u64;
        pts.iter().flat_map(|&a| pts.iter().map(move |&b| d(a, b))).collect()
    }

    /// The root subproblem: city 0.
    pub fn root(&self, strategy: Strategy) -> DfsStack<Tsp> {
        let (n, dist) = (self.cities as usize, self.distances());
        let cheapest = (0..n).map(|u| (0..n).filter(|&v| v != u).map(|v| dist[u * n + v]).min().unwrap_or(0));
        let rule = Tsp { n, cheapest: cheapest.collect(), dist: dist.into() };
        let root = Node { visited: 1, last: 0, len: 1, cost: 0, id: self.seed ^ u64::from(self.cities) };
        DfsStack::new(rule, root, strategy)
    }
}

impl Tsp {
    fn d(&self, a: u8, b: usize) -> u64 {
        self.dist[a as usize * self.n + b]
    }

    fn complete(&self, n: &Node) -> bool {
        n.len as usize == self.n
    }
}

impl TreeRule for Tsp {
    type Node = Node;
    const PRUNES: bool = true;

    fn expand(&self, n: &Node, out: &mut Vec<Node>) -> u32 {
        let mut next: Vec<usize> = (0..self.n).filter(|&c| n.visited >> c & 1 == 0).collect();
        next.sort_by_key(|&c| std::cmp::Reverse((self.d(n.last, c), c)));
        out.extend(next.iter().map(|&c| Node {
            visited: n.visited | 1 << c,
            last: c as u8,
            len: n.len + 1,
            cost: n.cost + self.d(n.last, c),
            id: child_id(n.id, c as u64),
        }));
        next.len() as u32
    }

    fn id(&self, n: &Node) -> u64 {
        n.id
    }

    fn height(&self, n: &Node) -> u32 {
        u32::from(n.len) - 1
    }

    fn bound(&self, n: &Node) -> u64 {
        if self.complete(n) {
            return n.cost + self.d(n.last, 0);
        }
        let open = (0..self.n).filter(|&c| n.visited >> c & 1 == 0 || c == n.last as usize);
        n.cost + open.map(|c| self.cheapest[c]).sum::<u64>()
    }

    fn solution(&self, n: &Node) -> Option<u64> {
        self.complete(n).then(|| n.cost + self.d(n.last, 0))
    }
}

/// On the wire (MPI): every field of a node.
impl crate::problem::wire::WireNode for Node {
    const SIZE: usize = 22;
    fn put(&self, out: &mut Vec<u8>) {
        use crate::problem::wire::Put;
        out.put_u32(self.visited);
        out.put_u8(self.last);
        out.put_u8(self.len);
        out.put_u64(self.cost);
        out.put_u64(self.id);
    }
    fn get(r: &mut crate::problem::wire::Reader<'_>) -> Result<Self, crate::problem::wire::WireError> {
        Ok(Node { visited: r.u32()?, last: r.u8()?, len: r.u8()?, cost: r.u64()?, id: r.u64()? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::sequential;

    /// Every tour through city 0, by brute force over permutations.
    fn brute_force(cfg: TspConfig) -> u64 {
        let (n, d) = (cfg.cities as usize, cfg.distances());
        fn best(d: &[u64], n: usize, last: usize, left: &mut Vec<usize>, cost: u64) -> u64 {
            if left.is_empty() {
                return cost + d[last * n];
            }
            (0..left.len())
                .map(|i| {
                    let c = left.remove(i);
                    let b = best(d, n, c, left, cost + d[last * n + c]);
                    left.insert(i, c);
                    b
                })
                .min()
                .unwrap()
        }
        best(&d, n, 0, &mut (1..n).collect(), 0)
    }

    #[test]
    fn the_optimum_is_brute_forces() {
        for seed in 0..4 {
            let cfg = TspConfig { cities: 8, seed };
            let seq = sequential::run(cfg.root(Strategy::BottomHalf));
            assert_eq!(seq.log.goal, Some(brute_force(cfg)), "seed {seed}");
            assert!(seq.log.pruned_with.is_some());
        }
    }
}
