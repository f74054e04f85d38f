//! Depth-first traversal stacks and their splitting strategies (002 §4.1,
//! after Rao and Kumar; Pacheco's variants from 003 §14.7 / §14.11).
//!
//! A subproblem is a DFS stack of untried nodes. Work pops a node, expands it
//! (pushing its children) and records it. Because children are pushed above
//! their parent's level, heights never decrease from bottom to top: the
//! bottom of the stack is the level nearest the root, and a *level* is a run
//! of equal heights. A stack with fewer than two nodes is atomic.

use std::fmt;

use super::{least, SpecError, Subproblem, WorkLog};

/// A rule that expands tree nodes (UTS is one; applications follow).
pub trait TreeRule: Clone + Send + fmt::Debug {
    /// A node of the tree.
    type Node: Copy + Send + fmt::Debug;
    /// Pushes the node's children onto `out` and returns how many.
    fn expand(&self, node: &Self::Node, out: &mut Vec<Self::Node>) -> u32;
    /// The node's identity for fingerprints.
    fn id(&self, node: &Self::Node) -> u64;
    /// The node's height (root 0).
    fn height(&self, node: &Self::Node) -> u32;

    /// Branch-and-bound rules prune (S-12): a node whose [`bound`] is no
    /// better than the incumbent is not expanded. Tree searches do not.
    ///
    /// [`bound`]: TreeRule::bound
    const PRUNES: bool = false;

    /// Branch-and-bound: a lower bound on the cost of every solution in the
    /// node's subtree (minimisation).
    fn bound(&self, _node: &Self::Node) -> u64 {
        0
    }

    /// Branch-and-bound: the node's cost as a solution, if it is one.
    fn solution(&self, _node: &Self::Node) -> Option<u64> {
        None
    }
}

/// Which untried nodes a split gives away (002 §4.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strategy {
    /// One node at the level nearest the root.
    BottomOne,
    /// Every other untried node of the level nearest the root (Rao–Kumar).
    #[default]
    BottomHalf,
    /// Every other untried node of all levels (Pacheco, 003 §14.11).
    AllHalf,
    /// Every other node among those above this cut-off height only (Pacheco).
    Cutoff(u32),
}

/// The strategy names the CLI's `--split` takes.
pub const STRATEGIES: &str = "bottom-one, bottom-half (default), all-half, cutoff:<depth>";

impl std::str::FromStr for Strategy {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Strategy, SpecError> {
        let bad = || SpecError::Strategy(s.to_string());
        Ok(match s {
            "bottom-one" => Strategy::BottomOne,
            "bottom-half" => Strategy::BottomHalf,
            "all-half" => Strategy::AllHalf,
            _ => Strategy::Cutoff(s.strip_prefix("cutoff:").ok_or_else(bad)?.parse().map_err(|_| bad())?),
        })
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::BottomOne => f.write_str("bottom-one"),
            Strategy::BottomHalf => f.write_str("bottom-half"),
            Strategy::AllHalf => f.write_str("all-half"),
            Strategy::Cutoff(d) => write!(f, "cutoff:{d}"),
        }
    }
}

/// A DFS stack subproblem over the tree of `rule`.
#[derive(Clone, Debug)]
pub struct DfsStack<R: TreeRule> {
    nodes: Vec<R::Node>,
    rule: R,
    strategy: Strategy,
    gen: u32,
    /// Branch-and-bound: the cost of the best solution known.
    best: Option<u64>,
    /// First-solution mode: the search stopped ([`Subproblem::discard`]).
    discarded: bool,
    /// `critical_expanded`: log the nodes expanded with a bound below this.
    critical_below: Option<u64>,
    /// Prune when bound + slack ≥ incumbent (0; the mutant's 1).
    slack: u64,
}

impl<R: TreeRule> DfsStack<R> {
    /// A stack holding only `root` (generation 0).
    pub fn new(rule: R, root: R::Node, strategy: Strategy) -> Self {
        DfsStack {
            nodes: vec![root],
            rule,
            strategy,
            gen: 0,
            best: None,
            discarded: false,
            critical_below: None,
            slack: 0,
        }
    }

    /// Branch-and-bound (S-12): true if `node` is pruned (its bound is no
    /// better than the incumbent); otherwise records it if it is a solution,
    /// and if watched and its bound beats the optimum, as critical.
    fn pruned(&mut self, node: &R::Node, log: &mut WorkLog) -> bool {
        let bound = (self.best.is_some() || self.critical_below.is_some()).then(|| self.rule.bound(node));
        if let (Some(best), Some(b)) = (self.best, bound) {
            if b.saturating_add(self.slack) >= best {
                log.pruned_with = least(log.pruned_with, Some(best));
                return true;
            }
        }
        if let (Some(o), Some(b)) = (self.critical_below, bound) {
            if b < o {
                log.critical.add_item(self.rule.id(node), 1);
            }
        }
        if let Some(c) = self.rule.solution(node) {
            self.best = least(self.best, Some(c));
            log.goal = least(log.goal, Some(c));
        }
        false
    }

    /// A part given away: `nodes`, with this stack's rule, strategy,
    /// generation and incumbent.
    fn part(&self, nodes: Vec<R::Node>) -> Self {
        DfsStack {
            nodes,
            rule: self.rule.clone(),
            strategy: self.strategy,
            gen: self.gen,
            best: self.best,
            discarded: false,
            critical_below: self.critical_below,
            slack: self.slack,
        }
    }

    /// The rule and the untried nodes (tests of the rules).
    #[cfg(test)]
    pub(crate) fn rule_and_nodes(&self) -> (&R, &[R::Node]) {
        (&self.rule, &self.nodes)
    }

    /// Untried nodes on the stack.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when no untried node is left.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The height of the bottom node (the untried node nearest the root),
    /// if any: 002 §4.1's bound on generations is in terms of it (S-22).
    pub fn bottom_height(&self) -> Option<u32> {
        self.nodes.first().map(|n| self.rule.height(n))
    }

    /// Whether the node at `i` (0 = bottom) goes to the other part.
    fn gives(&self, i: usize) -> bool {
        let n = self.nodes.len();
        let h = |i: usize| self.rule.height(&self.nodes[i]);
        match self.strategy {
            Strategy::BottomOne => i == 0,
            Strategy::BottomHalf if n > 1 && h(1) == h(0) => h(i) == h(0) && i % 2 == 0,
            Strategy::BottomHalf => i == 0,
            Strategy::AllHalf => (n - 1 - i) % 2 == 1,
            Strategy::Cutoff(d) => h(i) < d && i % 2 == 0,
        }
    }
}

impl<R: TreeRule> Subproblem for DfsStack<R> {
    fn work(&mut self, budget: u64, log: &mut WorkLog) -> u64 {
        if self.discarded {
            self.nodes.clear();
            return 0;
        }
        let mut done = 0;
        while done < budget {
            let Some(node) = self.nodes.pop() else { break };
            log.fp.add_item(self.rule.id(&node), 1);
            done += 1;
            if R::PRUNES && self.pruned(&node, log) {
                continue;
            }
            let children = self.rule.expand(&node, &mut self.nodes);
            log.leaves += (children == 0) as u64;
            log.max_depth = log.max_depth.max(self.rule.height(&node));
        }
        done
    }

    fn split(&mut self) -> Option<Self> {
        if self.nodes.len() < 2 || self.discarded {
            return None;
        }
        let given: Vec<bool> = (0..self.nodes.len()).map(|i| self.gives(i)).collect();
        if !given.contains(&true) {
            return None; // only possible below a cut-off
        }
        let mut flags = given.iter();
        let (away, keep): (Vec<_>, Vec<_>) = self.nodes.iter().partition(|_| *flags.next().expect("one flag a node"));
        self.nodes = keep;
        self.gen += 1;
        Some(self.part(away))
    }

    /// Gives away the top node alone (the deepest untried one).
    fn split_small(&mut self) -> Option<Self> {
        if self.nodes.len() < 2 || self.discarded {
            return None;
        }
        let top = self.nodes.pop().expect("two nodes");
        self.gen += 1;
        Some(self.part(vec![top]))
    }

    fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    fn generation(&self) -> u32 {
        self.gen
    }

    fn incumbent(&self) -> Option<u64> {
        self.best
    }

    fn lower_bound(&self) -> Option<u64> {
        self.nodes.iter().filter(|_| R::PRUNES).map(|n| self.rule.bound(n)).min()
    }

    fn improve(&mut self, v: u64) {
        if R::PRUNES {
            self.best = least(self.best, Some(v));
        }
    }

    fn discard(&mut self) {
        self.discarded = R::PRUNES;
    }

    fn watch_critical(&mut self, optimum: u64) {
        self.critical_below = Some(optimum).filter(|_| R::PRUNES);
    }

    fn loosen_pruning(&mut self, slack: u64) {
        self.slack = slack;
    }
}

/// On the wire (MPI): the untried nodes, generation, incumbent and flags;
/// the rule and the strategy are the template's.
impl<R: TreeRule> super::wire::Wire for DfsStack<R>
where
    R::Node: super::wire::WireNode,
{
    fn encode(&self, out: &mut Vec<u8>) {
        use super::wire::{Put, WireNode};
        out.put_count(self.nodes.len());
        self.nodes.iter().for_each(|n| n.put(out));
        out.put_u32(self.gen);
        out.put_opt_u64(self.best);
        out.put_bool(self.discarded);
        out.put_opt_u64(self.critical_below);
        out.put_u64(self.slack);
    }

    fn decode(template: &Self, r: &mut super::wire::Reader<'_>) -> Result<Self, super::wire::WireError> {
        use super::wire::WireNode;
        let nodes = r.seq(R::Node::SIZE, |r| R::Node::get(r))?;
        Ok(DfsStack {
            nodes,
            rule: template.rule.clone(),
            strategy: template.strategy,
            gen: r.u32()?,
            best: r.opt_u64()?,
            discarded: r.bool()?,
            critical_below: r.opt_u64()?,
            slack: r.u64()?,
        })
    }
}

crate::serde_as_text!(Strategy);
