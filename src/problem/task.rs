//! [`Task`]: any workload's subproblem behind one type, so drivers need no
//! generics to run whatever the user names.

use super::bnb::{golomb::Golomb, knapsack::Knapsack, puzzle15::Puzzle15, tsp::Tsp};
use super::costtree::CostTask;
use super::dfs::DfsStack;
use super::loops::LoopTask;
use super::synthetic::SynthTask;
use super::uts::UtsStack;
use super::{Subproblem, WorkLog};

/// A subproblem of any built-in workload.
#[derive(Clone, Debug)]
pub enum Task {
    /// A synthetic interval with an adversarial split policy.
    Synthetic(SynthTask),
    /// A DFS stack of UTS nodes.
    Uts(UtsStack),
    /// An interval of loop iterations.
    Loop(LoopTask),
    /// A stack of vertices of a Karp–Zhang cost tree.
    Cost(CostTask),
    /// A branch-and-bound stack of 0-1 knapsack decisions.
    Knapsack(DfsStack<Knapsack>),
    /// A branch-and-bound stack of partial Golomb rulers.
    Golomb(DfsStack<Golomb>),
    /// A branch-and-bound stack of partial tours.
    Tsp(DfsStack<Tsp>),
    /// An IDA* iteration's stack of 15-puzzle boards.
    Puzzle15(DfsStack<Puzzle15>),
}

macro_rules! each {
    ($self:expr, $t:ident => $e:expr) => {
        match $self {
            Task::Synthetic($t) => $e,
            Task::Uts($t) => $e,
            Task::Loop($t) => $e,
            Task::Cost($t) => $e,
            Task::Knapsack($t) => $e,
            Task::Golomb($t) => $e,
            Task::Tsp($t) => $e,
            Task::Puzzle15($t) => $e,
        }
    };
}

impl Subproblem for Task {
    #[inline]
    fn work(&mut self, budget: u64, log: &mut WorkLog) -> u64 {
        each!(self, t => t.work(budget, log))
    }

    fn split(&mut self) -> Option<Task> {
        match self {
            Task::Synthetic(t) => t.split().map(Task::Synthetic),
            Task::Uts(t) => t.split().map(Task::Uts),
            Task::Loop(t) => t.split().map(Task::Loop),
            Task::Cost(t) => t.split().map(Task::Cost),
            Task::Knapsack(t) => t.split().map(Task::Knapsack),
            Task::Golomb(t) => t.split().map(Task::Golomb),
            Task::Tsp(t) => t.split().map(Task::Tsp),
            Task::Puzzle15(t) => t.split().map(Task::Puzzle15),
        }
    }

    /// The bytes of [`super::wire`]'s encoding (a DFS stack's nodes, an
    /// interval's bounds, …).
    fn wire_len(&self) -> u64 {
        use super::wire::Wire;
        let mut bytes = Vec::new();
        self.encode(&mut bytes);
        bytes.len() as u64
    }

    fn split_small(&mut self) -> Option<Task> {
        match self {
            Task::Synthetic(t) => t.split_small().map(Task::Synthetic),
            Task::Uts(t) => t.split_small().map(Task::Uts),
            Task::Loop(t) => t.split_small().map(Task::Loop),
            Task::Cost(t) => t.split_small().map(Task::Cost),
            Task::Knapsack(t) => t.split_small().map(Task::Knapsack),
            Task::Golomb(t) => t.split_small().map(Task::Golomb),
            Task::Tsp(t) => t.split_small().map(Task::Tsp),
            Task::Puzzle15(t) => t.split_small().map(Task::Puzzle15),
        }
    }

    fn is_empty(&self) -> bool {
        each!(self, t => t.is_empty())
    }

    fn generation(&self) -> u32 {
        each!(self, t => t.generation())
    }

    fn key(&self) -> u64 {
        each!(self, t => t.key())
    }

    fn cost(&self) -> Option<u64> {
        each!(self, t => t.cost())
    }

    fn incumbent(&self) -> Option<u64> {
        each!(self, t => t.incumbent())
    }

    fn lower_bound(&self) -> Option<u64> {
        each!(self, t => t.lower_bound())
    }

    fn improve(&mut self, v: u64) {
        each!(self, t => t.improve(v))
    }

    fn discard(&mut self) {
        each!(self, t => t.discard())
    }

    fn watch_critical(&mut self, optimum: u64) {
        each!(self, t => t.watch_critical(optimum))
    }

    fn loosen_pruning(&mut self, slack: u64) {
        each!(self, t => t.loosen_pruning(slack))
    }
}
