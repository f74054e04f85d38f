//! Bound propagation for depth-first branch-and-bound (S-12): how a PE's
//! improved incumbent reaches the others.
//!
//! - `reduce-tree` (002 §4.5): "the bounds should first be sent along a
//!   reduction tree to PE 0. Then suboptimal bounds can be thrown away early
//!   and we still need only O(T_rout log P) time." A PE that improves its
//!   best (by its own work, or by a `bound` from a child) sends it to its
//!   parent; PE 0 sends every new global best down the tree, and a PE
//!   passes a bound from its parent on to its children. A PE sends each
//!   way only a bound below all it sent that way before, so suboptimal
//!   bounds are thrown away early. (Until 2026-11-26 a PE passed a bound
//!   on only when it improved its own best: a best that had come up
//!   through a PE, or with a subproblem, then never reached the subtrees
//!   below it — found by `bound_delay`.)
//! - `broadcast` (003 §14.7.1, `Best_solution`): the PE that finds a better
//!   solution sends it to all P − 1 others (P − 1 messages per improvement;
//!   002 §4.5 warns of the contention when many are found at once).
//! - `none`: each PE prunes with what it found itself, and with the
//!   incumbent a subproblem brings along when it arrives.
//! - `first-solution` (002 §4.5): "the first PE to find a solution sends
//!   Stop": a tree broadcast (to the tree parent and children, each PE
//!   passing it on to its other tree neighbours the first time it hears
//!   it); a stopped PE drops what it holds and what reaches it later. All
//!   PEs stop within O(T_rout log P) (`stop_delay`).
//!
//! An incumbent also travels with every subproblem given away (the part
//! keeps its giver's best); a PE takes it in without passing it on (its
//! giver already did). Bounds are not work: detectors do not count them.

use std::fmt;
use std::str::FromStr;

use super::{tree_children, tree_parent, Ctx, Msg, PeId};
use crate::base::UnknownName;

/// How improved bounds travel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BoundMode {
    /// Up the reduction tree to PE 0, then down (002 §4.5).
    #[default]
    ReduceTree,
    /// From the finder to every other PE (003 §14.7.1).
    Broadcast,
    /// Not at all: local bounds only.
    None,
    /// The first solution stops every PE (002 §4.5).
    FirstSolution,
}

/// The names `--bound` takes.
pub const BOUND_MODES: &str = "reduce-tree (default), broadcast, none, first-solution";

impl FromStr for BoundMode {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<BoundMode, UnknownName> {
        match s {
            "reduce-tree" => Ok(BoundMode::ReduceTree),
            "broadcast" => Ok(BoundMode::Broadcast),
            "none" => Ok(BoundMode::None),
            "first-solution" => Ok(BoundMode::FirstSolution),
            _ => {
                let valid = BOUND_MODES.split(", ").collect();
                Err(UnknownName { kind: "bound propagation", given: s.into(), valid, planned: None })
            }
        }
    }
}

impl fmt::Display for BoundMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BoundMode::ReduceTree => "reduce-tree",
            BoundMode::Broadcast => "broadcast",
            BoundMode::None => "none",
            BoundMode::FirstSolution => "first-solution",
        })
    }
}

/// The rules of the propagation (the mutants break one: `crate::mutants`);
/// the default is the papers'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// PE 0 starts with its subproblem's lower bound as its incumbent,
    /// a value no PE achieved (never, in the papers).
    pub takes_relaxation: bool,
    /// First-solution mode: a PE that hears of the stop passes it on to
    /// its tree children (always, in the papers).
    pub forwards_stop: bool,
    /// A PE passes on a bound from another PE that improves its own best
    /// (always, in the papers).
    pub forwards_bounds: bool,
}

impl Rules {
    /// The papers' rules.
    pub const PAPER: Rules = Rules { takes_relaxation: false, forwards_stop: true, forwards_bounds: true };
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::PAPER
    }
}

/// One PE's side of the propagation: the best cost it knows.
#[derive(Clone, Debug, Default)]
pub struct Propagation {
    mode: BoundMode,
    rules: Rules,
    best: Option<u64>,
    /// Reduce-tree: the least bounds this PE sent up to its parent and
    /// down to its children.
    up: Option<u64>,
    down: Option<u64>,
    stopped: bool,
}

impl Propagation {
    /// Propagation by `mode` under `rules`, nothing known yet.
    pub fn new(mode: BoundMode, rules: Rules) -> Propagation {
        Propagation { mode, rules, best: None, up: None, down: None, stopped: false }
    }

    /// Time 0: PE `me` starts with `part` (whose least node bound is
    /// `lower`). Returns the incumbent the part must start with: none in
    /// the papers.
    pub fn start(&mut self, me: PeId, lower: Option<u64>) -> Option<u64> {
        if self.rules.takes_relaxation && me == 0 {
            self.improves(lower);
            return self.best;
        }
        None
    }

    /// The best cost this PE knows.
    pub fn best(&self) -> Option<u64> {
        self.best
    }

    /// Takes in `v` if it is better; true if it was.
    fn improves(&mut self, v: Option<u64>) -> bool {
        match v {
            Some(v) if self.best.is_none_or(|b| v < b) => {
                self.best = Some(v);
                true
            }
            _ => false,
        }
    }

    /// True once first-solution mode stopped this PE.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The PE's own work found a solution of cost `v` (if any): spread it
    /// (first-solution mode: stop, and tell the others).
    pub fn found<T>(&mut self, ctx: &mut Ctx<T>, v: Option<u64>) {
        if self.improves(v) {
            self.spread(ctx, None);
        }
        if self.mode == BoundMode::FirstSolution && v.is_some() && !self.stopped {
            self.stop(ctx, None);
        }
    }

    /// A `stop` message from `from`: true if it stopped this PE (the first
    /// time it heard of one).
    pub fn on_stop<T>(&mut self, ctx: &mut Ctx<T>, from: PeId) -> bool {
        let first = !self.stopped;
        if first {
            self.stop(ctx, Some(from));
        }
        first
    }

    /// Stops, and passes the stop on to the tree neighbours but `from`
    /// (`None`: this PE found the solution).
    fn stop<T>(&mut self, ctx: &mut Ctx<T>, from: Option<PeId>) {
        self.stopped = true;
        let me = ctx.me;
        let children = tree_children(me, ctx.pes).filter(|_| from.is_none() || self.rules.forwards_stop);
        let neighbours: Vec<PeId> = tree_parent(me).into_iter().chain(children).filter(|&p| Some(p) != from).collect();
        neighbours.into_iter().for_each(|p| ctx.send(p, Msg::Stop));
    }

    /// A subproblem arrived knowing `v`: taken in, not passed on.
    pub fn arrived(&mut self, v: Option<u64>) {
        self.improves(v);
    }

    /// A `bound` message from `from`: true if it improved this PE's best
    /// (which is then passed on as the mode says). Reduce-tree: the PE's
    /// best goes on (up, or down if it came from the parent or this is PE
    /// 0) unless one as good went that way before, whether or not the
    /// message improved it: the best may have come with a subproblem (not
    /// passed on) or up through this PE (sent only up).
    pub fn on_bound<T>(&mut self, ctx: &mut Ctx<T>, from: PeId, v: u64) -> bool {
        let better = self.improves(Some(v));
        if (better || self.mode == BoundMode::ReduceTree) && self.rules.forwards_bounds {
            self.spread(ctx, Some(from));
        }
        better
    }

    /// Sends the new best on, as the mode says; `from` is where it came
    /// from (`None`: the PE's own solution).
    fn spread<T>(&mut self, ctx: &mut Ctx<T>, from: Option<PeId>) {
        let (v, me) = (self.best.expect("a best to spread"), ctx.me);
        match self.mode {
            BoundMode::None | BoundMode::FirstSolution => {}
            BoundMode::Broadcast if from.is_none() => {
                (0..ctx.pes).filter(|&p| p != me).for_each(|p| ctx.send(p, Msg::Bound(v)));
            }
            BoundMode::Broadcast => {}
            BoundMode::ReduceTree => match tree_parent(me) {
                Some(parent) if from != Some(parent) => {
                    if first_below(&mut self.up, v) {
                        ctx.send(parent, Msg::Bound(v));
                    }
                }
                _ => {
                    if first_below(&mut self.down, v) {
                        tree_children(me, ctx.pes).for_each(|c| ctx.send(c, Msg::Bound(v)));
                    }
                }
            },
        }
    }
}

/// True (and `sent` becomes `v`) if `v` is below every bound sent so far.
fn first_below(sent: &mut Option<u64>, v: u64) -> bool {
    let below = sent.is_none_or(|s| v < s);
    if below {
        *sent = Some(v);
    }
    below
}

crate::serde_as_text!(BoundMode);
