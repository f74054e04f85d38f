//! Asynchronous random polling (001 Fig. 1, 001 §2; 002 Thm 1).
//!
//! PE 0 starts with the root, the others idle (or, with the initial
//! broadcast of 002 §3, every PE starts with its own local part). A busy PE
//! works Δt units between polls (the driver's slices); at each poll it serves
//! one queued request by splitting its subproblem and sending one part, or
//! rejects it if the subproblem cannot be split. An idle PE sends one request
//! to a uniformly random other PE and waits; requests reaching it meanwhile
//! are rejected at once; on a reject it asks again. When its subproblem runs
//! out, a PE rejects the requests still queued (every request gets exactly
//! one reply) and starts asking. Optional queue trimming (001 §4): a request
//! that finds `queue_limit` requests queued is rejected on arrival.

use std::collections::VecDeque;

use rand::Rng;

use super::{Balancer, Command, Ctx, Msg, PeId};
use crate::mutants::Mutant;
use crate::problem::Subproblem;

/// Parameters of random polling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Config {
    /// Reject requests arriving at a queue of this length (001 §4).
    pub queue_limit: Option<u32>,
    /// The deliberate bug to run, if any.
    pub mutant: Option<Mutant>,
}

/// One PE's random polling state.
#[derive(Clone, Debug)]
pub struct RandomPolling<T> {
    cfg: Config,
    task: Option<T>,
    queue: VecDeque<PeId>,
    /// Polls so far (the `poll-lazy` mutant serves every 64th).
    polls: u64,
}

/// The `poll-lazy` mutant serves requests only at every this many polls.
pub const LAZY_FACTOR: u64 = 64;

impl<T: Subproblem> RandomPolling<T> {
    /// A PE with no work yet.
    pub fn new(cfg: Config) -> Self {
        RandomPolling { cfg, task: None, queue: VecDeque::new(), polls: 0 }
    }

    /// Sends a request to a uniformly random other PE (none if P = 1).
    fn ask(&self, ctx: &mut Ctx<T>) {
        if ctx.pes < 2 {
            return;
        }
        let victim = match self.cfg.mutant {
            Some(Mutant::PollNeighbour) => (ctx.me + 1) % ctx.pes,
            Some(Mutant::PollHotspot) => (ctx.me == 0) as PeId,
            _ => {
                let v = ctx.rng.random_range(0..ctx.pes - 1);
                v + (v >= ctx.me) as PeId
            }
        };
        ctx.send(victim, Msg::Request);
    }

    /// Answers `to`: a split-off part, or a reject if none can be split off.
    fn serve(&mut self, ctx: &mut Ctx<T>, to: PeId) {
        let task = self.task.as_mut().expect("serve only with work");
        let part = match self.cfg.mutant {
            Some(Mutant::SplitDuplicates) => task.clone().split(), // the whole is kept
            Some(Mutant::SplitTiny) => task.split_small(),
            _ => task.split(),
        };
        match part {
            Some(part) if self.cfg.mutant == Some(Mutant::SplitLoses) => {
                ctx.out.push(Command::Split { gen: part.generation() });
                drop(part); // sent to nobody
                ctx.send(to, Msg::Reject);
            }
            Some(part) => {
                ctx.out.push(Command::Split { gen: part.generation() });
                ctx.send(to, Msg::Work { task: part, energy: None });
            }
            None => ctx.send(to, Msg::Reject),
        }
    }

    fn on_request(&mut self, ctx: &mut Ctx<T>, from: PeId) {
        let full = self.cfg.queue_limit.is_some_and(|l| self.queue.len() >= l as usize);
        let hoard = self.cfg.mutant == Some(Mutant::PollHotspot) && ctx.me == 0; // queues even when idle
        match ((self.has_work() || hoard) && !full, self.cfg.mutant) {
            (true, _) => self.queue.push_back(from),
            (false, Some(Mutant::RequestDropped)) => {} // dropped instead of rejected
            (false, _) => ctx.send(from, Msg::Reject),
        }
    }
}

impl<T: Subproblem> Balancer for RandomPolling<T> {
    type Task = T;

    fn start(&mut self, ctx: &mut Ctx<T>, part: Option<T>) {
        self.task = part.filter(|p| !p.is_empty());
        if self.task.is_none() {
            self.ask(ctx);
        }
    }

    fn on_message(&mut self, ctx: &mut Ctx<T>, from: PeId, msg: Msg<T>) {
        match msg {
            Msg::Request => self.on_request(ctx, from),
            Msg::Reject if !self.has_work() => self.ask(ctx),
            Msg::Work { task, .. } => {
                assert!(self.task.is_none(), "PE {} received work while holding work", ctx.me);
                self.task = Some(task);
            }
            _ => {}
        }
    }

    fn on_poll(&mut self, ctx: &mut Ctx<T>) {
        self.polls += 1;
        if self.cfg.mutant == Some(Mutant::PollLazy) && self.polls % LAZY_FACTOR != 0 {
            return;
        }
        if let Some(from) = self.queue.pop_front() {
            self.serve(ctx, from);
        }
        if self.cfg.mutant == Some(Mutant::ServeOneDropRest) {
            self.queue.clear(); // the other requests vanish
        }
    }

    fn on_exhausted(&mut self, ctx: &mut Ctx<T>) {
        self.task = None;
        for from in std::mem::take(&mut self.queue) {
            ctx.send(from, Msg::Reject);
        }
        self.ask(ctx);
    }

    fn task_mut(&mut self) -> Option<&mut T> {
        self.task.as_mut()
    }

    fn has_work(&self) -> bool {
        self.task.as_ref().is_some_and(|t| !t.is_empty())
    }

    fn queued_requests(&self) -> u32 {
        self.queue.len() as u32
    }
}
