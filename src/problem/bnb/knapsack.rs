//! 0-1 knapsack by depth-first branch-and-bound (002 §5.2; S-12).
//!
//! 002 §5.2's generator: m items, weights w_i uniform in [0.01, 1.01],
//! profits p_i uniform in [w_i + 0.1, w_i + 0.125], capacity M = Σw_i / 2,
//! here in integers scaled by 10^4 (exact arithmetic). These strongly
//! correlated instances have "very deep irregular search trees"; 002 ran
//! m = 2000 on 1024 PEs, the most accepted here (the sequential reference
//! must finish: its node count is heavy-tailed, from 10^5 to over 10^9 at
//! m = 2000, 0.1 µs a node).
//!
//! Items are sorted by profit density; a node has decided items `0..i`.
//! Its children: take item i (if it fits; explored first), leave it. The
//! bound is Dantzig's fractional relaxation (fill the rest by density,
//! the last item cut), the sequential branch-and-bound of \[MT90\] that 002
//! parallelises. Cost = total profit − profit taken, minimised.

use std::sync::Arc;

use rand::Rng;

use super::child_id;
use crate::base::rng::{stream, Purpose};
use crate::problem::dfs::{DfsStack, Strategy, TreeRule};

/// The largest number of items accepted.
pub const MAX_ITEMS: u32 = 2000;

/// Scale of weights and profits (10^4: four decimals, as 002's ranges have).
const SCALE: f64 = 10_000.0;

/// A knapsack instance: its size and seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnapsackConfig {
    /// m: items.
    pub items: u32,
    /// Seed of the generator.
    pub seed: u64,
}

/// One item, scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item {
    /// w_i · 10^4.
    pub weight: u64,
    /// p_i · 10^4.
    pub profit: u64,
}

/// The expansion rule of one instance: items by decreasing density.
#[derive(Clone, Debug)]
pub struct Knapsack {
    items: Arc<[Item]>,
    capacity: u64,
    total: u64,
    root: u64,
}

/// A node: items `0..index` decided.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    index: u32,
    weight: u64,
    profit: u64,
    id: u64,
}

impl KnapsackConfig {
    /// The instance's items, as 002 §5.2 draws them, in drawing order.
    pub fn items(&self) -> Vec<Item> {
        let mut rng = stream(self.seed, 0, Purpose::Instance);
        (0..self.items)
            .map(|_| {
                let w: f64 = rng.random_range(0.01..=1.01);
                let p: f64 = rng.random_range(w + 0.1..=w + 0.125);
                Item { weight: (w * SCALE).round() as u64, profit: (p * SCALE).round() as u64 }
            })
            .collect()
    }

    /// Σ p_i: a cost c is the profit `total_profit − c`.
    pub fn total_profit(&self) -> u64 {
        self.items().iter().map(|i| i.profit).sum()
    }

    /// The expansion rule: items sorted by density, capacity Σw/2.
    pub fn rule(&self) -> Knapsack {
        let mut items = self.items();
        let capacity = items.iter().map(|i| i.weight).sum::<u64>() / 2;
        let total = items.iter().map(|i| i.profit).sum();
        items.sort_by(|a, b| (b.profit * a.weight).cmp(&(a.profit * b.weight)));
        Knapsack { items: items.into(), capacity, total, root: self.seed }
    }

    /// The root subproblem.
    pub fn root(&self, strategy: Strategy) -> DfsStack<Knapsack> {
        let rule = self.rule();
        let root = Node { index: 0, weight: 0, profit: 0, id: rule.root };
        DfsStack::new(rule, root, strategy)
    }
}

impl Knapsack {
    /// Dantzig's bound: the most profit the rest can add, fractionally.
    fn fill(&self, n: &Node) -> u64 {
        let (mut room, mut add) = (self.capacity - n.weight, 0);
        for it in &self.items[n.index as usize..] {
            if it.weight > room {
                return add + it.profit * room / it.weight;
            }
            room -= it.weight;
            add += it.profit;
        }
        add
    }
}

impl TreeRule for Knapsack {
    type Node = Node;
    const PRUNES: bool = true;

    fn expand(&self, n: &Node, out: &mut Vec<Node>) -> u32 {
        let Some(it) = self.items.get(n.index as usize) else { return 0 };
        let index = n.index + 1;
        out.push(Node { index, id: child_id(n.id, 0), ..*n });
        if n.weight + it.weight > self.capacity {
            return 1;
        }
        let (weight, profit) = (n.weight + it.weight, n.profit + it.profit);
        out.push(Node { index, weight, profit, id: child_id(n.id, 1) });
        2
    }

    fn id(&self, n: &Node) -> u64 {
        n.id
    }

    fn height(&self, n: &Node) -> u32 {
        n.index
    }

    fn bound(&self, n: &Node) -> u64 {
        self.total - n.profit - self.fill(n)
    }

    fn solution(&self, n: &Node) -> Option<u64> {
        (n.index as usize == self.items.len()).then(|| self.total - n.profit)
    }
}

/// On the wire (MPI): every field of a node.
impl crate::problem::wire::WireNode for Node {
    const SIZE: usize = 28;
    fn put(&self, out: &mut Vec<u8>) {
        use crate::problem::wire::Put;
        out.put_u32(self.index);
        out.put_u64(self.weight);
        out.put_u64(self.profit);
        out.put_u64(self.id);
    }
    fn get(r: &mut crate::problem::wire::Reader<'_>) -> Result<Self, crate::problem::wire::WireError> {
        Ok(Node { index: r.u32()?, weight: r.u64()?, profit: r.u64()?, id: r.u64()? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{sequential, Subproblem};

    /// The best profit of every subset, by brute force.
    fn brute_force(cfg: KnapsackConfig) -> u64 {
        let items = cfg.items();
        let cap = items.iter().map(|i| i.weight).sum::<u64>() / 2;
        (0u32..1 << items.len())
            .filter_map(|set| {
                let pick = |f: fn(&Item) -> u64| {
                    items.iter().enumerate().filter(|(i, _)| set >> i & 1 == 1).map(|(_, it)| f(it)).sum::<u64>()
                };
                (pick(|i| i.weight) <= cap).then(|| pick(|i| i.profit))
            })
            .max()
            .unwrap()
    }

    /// 002 §5.2's ranges, and the branch-and-bound's optimum is brute force's.
    #[test]
    fn the_optimum_is_brute_forces() {
        for seed in 0..6 {
            let cfg = KnapsackConfig { items: 14, seed };
            for it in cfg.items() {
                assert!((100..=10_100).contains(&it.weight), "{it:?}");
                assert!((it.weight + 1000..=it.weight + 1250).contains(&it.profit), "{it:?}");
            }
            let seq = sequential::run(cfg.root(Strategy::BottomHalf));
            let total = cfg.total_profit();
            assert_eq!(total - seq.log.goal.unwrap(), brute_force(cfg), "seed {seed}");
            assert!(seq.log.pruned_with.is_some(), "the bound prunes");
            assert!(seq.work < 2 << 14, "fewer nodes than the full tree: {}", seq.work);
        }
    }

    /// A split keeps the incumbent; improving never makes it worse.
    #[test]
    fn parts_keep_the_incumbent() {
        let mut t = KnapsackConfig { items: 20, seed: 1 }.root(Strategy::BottomHalf);
        t.work(200, &mut Default::default());
        let best = t.incumbent().expect("a leaf within 200 nodes of a dive");
        let part = t.split().expect("a stack to split");
        assert_eq!(part.incumbent(), Some(best));
        t.improve(best + 5);
        assert_eq!(t.incumbent(), Some(best));
        t.improve(best - 1);
        assert_eq!(t.incumbent(), Some(best - 1));
    }
}
