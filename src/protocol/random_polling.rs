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
//!
//! Two subproblems per PE (002 §3, third bullet; S-16, `--slots 2`): a PE
//! works on its nonempty slot of largest generation; when a slot empties
//! while the other holds work, or work arrives into one slot while the
//! other is empty, it asks (if no request is outstanding) and goes on
//! working meanwhile — a reject is not retried until the next such moment;
//! a reply fills the empty slot; a request is served
//! from the nonempty slot of smallest generation (the largest parts). It is
//! idle only with both slots empty. Latency is hidden behind work.
//!
//! A deactivated worker (002 §3, last paragraph; S-17, `--deactivate
//! PE:FROM..TO`): from FROM until TO the PE does no work and sends no
//! requests ("a guest job on an interactively used workstation"), but it
//! "still answers load requests", and "sends its entire subproblem when it
//! gets a request" (no split; a reject if it holds nothing). The driver
//! holds its work meanwhile ([`Balancer::inactive_window`]) and wakes it at
//! TO ([`Balancer::on_wake`]), when it asks for work if it has none.
//!
//! Neighbourhood polling (000 §1.1, \[25\]; `--balancer neighbour-polling`)
//! is the same PE asking a uniformly random *network neighbour* of the
//! run's topology (the PEs at the least hop distance) instead of any PE:
//! busy clusters form and work spreads only a hop at a time.
//!
//! The steps a variant may change are [`Rules`]: the reference runs
//! [`Rules::paper`]; a mutant ([`crate::mutants`]) swaps one rule for a
//! broken one, so this file reads as the paper's pseudocode.

use std::collections::VecDeque;

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

pub use super::deactivation::Deactivation;
use super::params::{Params, ParamsError};
use super::{Balancer, Command, Ctx, Msg, PeId};
use crate::base::topology::Topology;
use crate::base::BadValue;
use crate::problem::Subproblem;

/// Random polling's parameters (and neighbourhood polling's, the same PE):
/// each is a flag of the commands that run it and a key of the run
/// specification, absent at its default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::Args, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomPollingParams {
    /// Random polling: reject requests that find this many queued, a
    /// number or `sqrt` for ⌈√P⌉ (001 §4, Thm 2's queue trimming).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_limit: Option<QueueLimit>,
    /// Random polling: answer one queued request at each poll (001 Fig. 1,
    /// the default) or all of them (003 §14.7.2's Service_requests).
    #[arg(long, value_enum)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serve: Option<Serve>,
    /// Random polling: subproblems per PE, 1 (the default) or 2 (002 §3:
    /// a PE asks for work when one slot empties and works on the other meanwhile).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots: Option<u8>,
    /// Random polling: a deactivated worker (002 §3), PE:FROM..TO in model
    /// time: it does no work and sends no requests then, but answers each
    /// request with its entire subproblem (or a reject). Simulator only.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deactivate: Option<Deactivation>,
}

impl Params for RandomPollingParams {
    const OWNER: (&'static str, &'static str) = ("random polling", "001 Fig. 1, §4; 002 §3; 003 §14.7.2");
}

impl RandomPollingParams {
    /// True with `--serve all`.
    pub fn serves_all(&self) -> bool {
        self.serve == Some(Serve::All)
    }

    /// Subproblem slots per PE (1 unless `--slots 2`).
    pub fn slots(&self) -> u8 {
        self.slots.unwrap_or(1)
    }

    /// The queue limit on `pes` PEs, if trimming.
    pub fn queue_limit(&self, pes: u32) -> Option<u32> {
        self.queue_limit.map(|q| q.of(pes))
    }

    /// Checks the parameters against the run: one or two slots; a
    /// deactivated worker (002 §3) with one slot, in model time (`model_time`:
    /// the simulator of 001's machine), on a PE among the `pes`.
    pub fn validate(&self, pes: u32, model_time: bool) -> Result<(), ParamsError> {
        if !(1..=2).contains(&self.slots()) {
            return Err(ParamsError::new(format!("--slots {}: valid 1 or 2 (002 §3)", self.slots())));
        }
        let Some(d) = self.deactivate else { return Ok(()) };
        if self.slots() != 1 {
            return Err(ParamsError::new(
                "--deactivate is random polling's deactivated worker (002 §3), with one slot",
            ));
        }
        if !model_time {
            return Err(ParamsError::new("--deactivate needs model time: use `lbcheck simulate` on the async machine"));
        }
        if d.pe >= pes {
            return Err(ParamsError::new(format!("--deactivate {d}: there is no PE {} among {pes} PEs", d.pe)));
        }
        Ok(())
    }
}

/// `--serve`: how many queued requests a poll answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Serve {
    /// One (001 Fig. 1).
    One,
    /// All of them (003 §14.7.2's Service_requests).
    All,
}

/// `--queue-limit`: a number of requests, or ⌈√P⌉ (001 §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueLimit {
    /// This many.
    Fixed(u32),
    /// ⌈√P⌉ (001 §4).
    Sqrt,
}

impl QueueLimit {
    /// The limit on `pes` PEs.
    pub fn of(self, pes: u32) -> u32 {
        match self {
            QueueLimit::Fixed(n) => n,
            QueueLimit::Sqrt => (1..=pes).find(|&k| u64::from(k) * u64::from(k) >= u64::from(pes)).unwrap_or(1),
        }
    }
}

impl std::fmt::Display for QueueLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueueLimit::Fixed(n) => write!(f, "{n}"),
            QueueLimit::Sqrt => f.write_str("sqrt"),
        }
    }
}

impl std::str::FromStr for QueueLimit {
    type Err = BadValue;

    fn from_str(s: &str) -> Result<Self, BadValue> {
        match s {
            "sqrt" => Ok(QueueLimit::Sqrt),
            _ => s
                .parse()
                .map(QueueLimit::Fixed)
                .map_err(|_| BadValue::new("--queue-limit", s, "a number of requests or `sqrt` (⌈√P⌉)")),
        }
    }
}

crate::serde_as_text!(QueueLimit);

/// What a server gives for a request.
#[derive(Debug)]
pub enum Gift<T> {
    /// A part split off, sent to the requester.
    Send(T),
    /// A part split off and sent to nobody (the requester gets a reject).
    Lose(T),
    /// A part sent to the requester after a second split (of a copy, to
    /// look at its part, thrown away): the server pays T_split twice.
    Probed(T),
    /// Nothing could be split off: a reject.
    Nothing,
}

/// The steps of 001 Fig. 1 at the seams where a variant may change them.
pub struct Rules<T> {
    /// The PE an idle PE asks, given (me, P, its stream).
    pub victim: fn(PeId, u32, &mut ChaCha8Rng) -> PeId,
    /// Whether a PE queues an arriving request, given (me, it holds work).
    pub queues: fn(PeId, bool) -> bool,
    /// What a server gives away from its subproblem.
    pub give: fn(&mut T) -> Gift<T>,
    /// A request that is not queued is rejected (else dropped).
    pub reject_refused: bool,
    /// Whether poll number n (from 1) serves a request.
    pub serves_at: fn(u64) -> bool,
    /// After a poll serves one request, the others stay queued (else they vanish).
    pub keep_rest: bool,
    /// Two slots: a reply fills the empty slot (else the first slot,
    /// overwriting what it holds).
    pub fills_empty_slot: bool,
    /// A deactivated PE answers requests (else they vanish).
    pub inactive_answers: bool,
    /// Two slots: a request is served from the slot of smallest
    /// generation, the largest part (else from the largest generation).
    pub splits_oldest_slot: bool,
    /// Queue trimming (001 §4): a request finding `queue_limit` queued is
    /// rejected on arrival (else it is queued all the same).
    pub trims: bool,
}

impl<T> Clone for Rules<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Rules<T> {}

impl<T: Subproblem> Rules<T> {
    /// 001 Fig. 1: ask a uniformly random other PE; queue requests while
    /// holding work, reject the others; at every poll split and send one part.
    pub fn paper() -> Rules<T> {
        Rules {
            victim: |me, pes, rng| {
                let v = rng.random_range(0..pes - 1);
                v + (v >= me) as PeId
            },
            queues: |_, has_work| has_work,
            give: |task| task.split().map_or(Gift::Nothing, Gift::Send),
            reject_refused: true,
            serves_at: |_| true,
            keep_rest: true,
            fills_empty_slot: true,
            inactive_answers: true,
            splits_oldest_slot: true,
            trims: true,
        }
    }
}

impl<T> std::fmt::Debug for Rules<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (reject, keep) = (self.reject_refused, self.keep_rest);
        f.debug_struct("Rules").field("reject_refused", &reject).field("keep_rest", &keep).finish_non_exhaustive()
    }
}

/// One PE's random polling state.
#[derive(Clone, Debug)]
pub struct RandomPolling<T> {
    rules: Rules<T>,
    /// Reject requests arriving at a queue of this length (001 §4).
    queue_limit: Option<u32>,
    task: Option<T>,
    queue: VecDeque<PeId>,
    /// Polls so far.
    polls: u64,
    /// Answer every queued request at a poll (003 §14.7.2's
    /// Service_requests), not one (001 Fig. 1).
    serve_all: bool,
    /// The second slot (002 §3), when the PE has two (boxed: most runs have
    /// one, and a PE's state stays small, which the simulator's cache likes).
    second: Option<Box<Option<T>>>,
    /// A request of this PE awaits its reply (two slots).
    outstanding: bool,
    /// Two slots: how many held work after the last handler.
    filled: usize,
    /// Deactivated in model time [from, to) (002 §3).
    inactive: Option<(u64, u64)>,
    /// Neighbourhood polling (000 §1.1): ask a uniformly random network
    /// neighbour of this topology, not any PE.
    near: Option<Topology>,
    /// The neighbours, once known (the PE count comes with the first ask).
    neighbours: Vec<PeId>,
}

impl<T: Subproblem> RandomPolling<T> {
    /// A PE with no work yet, following `rules`, with optional queue trimming.
    pub fn new(rules: Rules<T>, queue_limit: Option<u32>) -> Self {
        let queue = VecDeque::new();
        RandomPolling {
            rules,
            queue_limit,
            task: None,
            queue,
            polls: 0,
            serve_all: false,
            second: None,
            outstanding: false,
            filled: 0,
            inactive: None,
            near: None,
            neighbours: Vec::new(),
        }
    }

    /// The same PE asking only its network neighbours on `topology`
    /// (000 §1.1's neighbourhood polling; `--balancer neighbour-polling`).
    pub fn polling_neighbours(self, topology: Topology) -> Self {
        RandomPolling { near: Some(topology), ..self }
    }

    /// The PE an idle PE asks: a uniformly random network neighbour, or
    /// the victim rule's choice (001 Fig. 1: a uniformly random PE).
    fn victim(&mut self, ctx: &mut Ctx<T>) -> PeId {
        let Some(topology) = self.near else { return (self.rules.victim)(ctx.me, ctx.pes, ctx.rng) };
        if self.neighbours.is_empty() {
            self.neighbours = topology.neighbours(ctx.me, ctx.pes);
        }
        self.neighbours[ctx.rng.random_range(0..self.neighbours.len())]
    }

    /// The same PE, deactivated during `window` (002 §3; S-17).
    pub fn with_inactive(self, window: Option<(u64, u64)>) -> Self {
        RandomPolling { inactive: window, ..self }
    }

    fn is_inactive(&self, now: u64) -> bool {
        self.inactive.is_some_and(|(from, to)| (from..to).contains(&now))
    }

    /// A deactivated PE's answer: its entire subproblem, or a reject.
    fn answer_inactive(&mut self, ctx: &mut Ctx<T>, from: PeId) {
        if !self.rules.inactive_answers {
            return;
        }
        match self.task.take().filter(|t| !t.is_empty()) {
            Some(task) => ctx.send(from, Msg::Work { task, energy: None }),
            None => ctx.send(from, Msg::Reject),
        }
    }

    /// The same PE with two subproblem slots (002 §3; `--slots 2`) or one.
    pub fn with_slots(self, slots: u8) -> Self {
        RandomPolling { second: (slots == 2).then(|| Box::new(None)), ..self }
    }

    /// The slots holding work, first then second.
    fn slots(&mut self) -> impl Iterator<Item = &mut T> {
        let second = self.second.as_deref_mut().and_then(Option::as_mut);
        self.task.as_mut().into_iter().chain(second).filter(|t| !t.is_empty())
    }

    /// What a server gives: a part of the nonempty slot of smallest
    /// generation, else (it cannot be split) of the other.
    fn give(&mut self) -> Gift<T> {
        let (give, oldest) = (self.rules.give, self.rules.splits_oldest_slot);
        let mut slots: Vec<&mut T> = self.slots().collect();
        slots.sort_by_key(|t| t.generation());
        if !oldest {
            slots.reverse();
        }
        slots.into_iter().map(give).find(|g| !matches!(g, Gift::Nothing)).unwrap_or(Gift::Nothing)
    }

    /// True if the PE has two slots and one just emptied while the other
    /// holds work (updates the count of filled slots).
    fn slot_emptied(&mut self) -> bool {
        let (before, now) = (self.filled, self.slots().count());
        self.filled = now;
        self.second.is_some() && now == 1 && before == 2
    }

    /// A reply with work: into the empty slot (one slot: the only one).
    fn receive(&mut self, me: PeId, task: T) {
        match &mut self.second {
            Some(second) if holds(&self.task) && self.rules.fills_empty_slot => {
                assert!(!holds(second), "PE {me} received work while holding two subproblems");
                **second = Some(task);
                self.filled = 2;
            }
            _ => {
                assert!(self.second.is_some() || self.task.is_none(), "PE {me} received work while holding work");
                let mut task = task;
                if let Some(v) = self.task.as_ref().and_then(|t| t.incumbent()) {
                    task.improve(v); // what the emptied slot found is not forgotten
                }
                self.task = Some(task);
                self.filled = self.slots().count();
            }
        }
    }

    /// The same PE answering every queued request at each poll (003
    /// §14.7.2's Service_requests: `--serve all`), or one (001 Fig. 1).
    pub fn serving_all(self, serve_all: bool) -> Self {
        RandomPolling { serve_all, ..self }
    }

    /// Sends a request to the victim (none if P = 1).
    fn ask(&mut self, ctx: &mut Ctx<T>) {
        if ctx.pes < 2 || self.is_inactive(ctx.now) {
            return; // a deactivated PE asks when it wakes
        }
        let victim = self.victim(ctx);
        self.outstanding = true;
        ctx.send(victim, Msg::Request);
    }

    /// Answers `to`: a split-off part, or a reject if none can be split off.
    fn serve(&mut self, ctx: &mut Ctx<T>, to: PeId) {
        match self.give() {
            Gift::Send(part) => {
                ctx.out.push(Command::Split { gen: part.generation() });
                ctx.send(to, Msg::Work { task: part, energy: None });
            }
            Gift::Lose(part) => {
                ctx.out.push(Command::Split { gen: part.generation() });
                ctx.send(to, Msg::Reject);
            }
            Gift::Probed(part) => {
                ctx.out.push(Command::Split { gen: part.generation() });
                ctx.out.push(Command::Split { gen: part.generation() });
                ctx.send(to, Msg::Work { task: part, energy: None });
            }
            Gift::Nothing => ctx.send(to, Msg::Reject),
        }
    }

    fn on_request(&mut self, ctx: &mut Ctx<T>, from: PeId) {
        if self.is_inactive(ctx.now) {
            return self.answer_inactive(ctx, from);
        }
        let full = self.rules.trims && self.queue_limit.is_some_and(|l| self.queue.len() >= l as usize);
        if (self.rules.queues)(ctx.me, self.has_work()) && !full {
            self.queue.push_back(from);
        } else if self.rules.reject_refused {
            ctx.send(from, Msg::Reject);
        }
    }
}

/// True if the slot holds work.
fn holds<T: Subproblem>(slot: &Option<T>) -> bool {
    slot.as_ref().is_some_and(|t| !t.is_empty())
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
            Msg::Reject => {
                self.outstanding = false;
                if !self.has_work() {
                    self.ask(ctx);
                }
            }
            Msg::Work { task, .. } => {
                self.outstanding = false;
                self.receive(ctx.me, task);
                if self.second.is_some() && self.filled == 1 {
                    self.ask(ctx); // keep two subproblems (002 §3)
                }
            }
            _ => {}
        }
    }

    fn on_poll(&mut self, ctx: &mut Ctx<T>) {
        self.polls += 1;
        if !(self.rules.serves_at)(self.polls) {
            return;
        }
        let serve = if self.serve_all { self.queue.len() } else { 1 };
        for _ in 0..serve.min(self.queue.len()) {
            let from = self.queue.pop_front().expect("a queued request");
            self.serve(ctx, from);
        }
        if !self.rules.keep_rest {
            self.queue.clear();
        }
        if self.slot_emptied() && !self.outstanding {
            self.ask(ctx);
        }
    }

    fn on_exhausted(&mut self, ctx: &mut Ctx<T>) {
        self.task = None;
        if let Some(second) = &mut self.second {
            **second = None;
        }
        self.filled = 0;
        for from in std::mem::take(&mut self.queue) {
            ctx.send(from, Msg::Reject);
        }
        if !self.outstanding {
            self.ask(ctx);
        }
    }

    fn task_mut(&mut self) -> Option<&mut T> {
        match self.second {
            None => self.task.as_mut(),
            Some(_) => self.slots().max_by_key(|t| t.generation()),
        }
    }

    /// The next initial piece goes into the first slot (both are empty).
    fn resume(&mut self, _ctx: &mut Ctx<T>, next: T) {
        let mut next = next;
        if let Some(v) = self.incumbent() {
            next.improve(v); // what the emptied slots found is not forgotten
        }
        self.task = Some(next);
        self.filled = self.slots().count();
    }

    fn improve(&mut self, v: u64) {
        self.slots().for_each(|t| t.improve(v));
    }

    fn discard(&mut self) {
        self.slots().for_each(|t| t.discard());
    }

    /// The best of both slots, emptied ones included.
    fn incumbent(&mut self) -> Option<u64> {
        let second = self.second.as_deref().into_iter().flatten();
        self.task.iter().chain(second).filter_map(|t| t.incumbent()).min()
    }

    fn inactive_window(&self) -> Option<(u64, u64)> {
        self.inactive
    }

    fn on_wake(&mut self, ctx: &mut Ctx<T>) {
        if !self.has_work() && !self.outstanding {
            self.ask(ctx);
        }
    }

    fn has_work(&self) -> bool {
        holds(&self.task) || self.second.as_deref().is_some_and(holds)
    }

    fn queued_requests(&self) -> u32 {
        self.queue.len() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::{stream, Purpose};
    use crate::problem::synthetic::{Policy, SynthConfig, SynthTask};

    /// PE 0 holding 64 units with `queued` requests from PEs 1, 2, 3, then
    /// one poll: the messages it sends.
    fn poll_with_queue(serve_all: bool) -> Vec<Command<SynthTask>> {
        let root = SynthConfig { size: 64, atomic: 1, policy: Policy::Balanced, seed: 1 }.root();
        let mut pe = RandomPolling::new(Rules::paper(), None).serving_all(serve_all);
        let (mut rng, mut out) = (stream(1, 0, Purpose::Protocol), Vec::new());
        let mut ctx = Ctx { now: 0, me: 0, pes: 4, rng: &mut rng, out: &mut out };
        pe.start(&mut ctx, Some(root));
        (1..4).for_each(|from| pe.on_message(&mut ctx, from, Msg::Request));
        pe.on_poll(&mut ctx);
        out
    }

    /// 001 Fig. 1 answers one request per poll; 003 §14.7.2's
    /// Service_requests (`--serve all`) answers all of them.
    #[test]
    fn serve_all_answers_every_queued_request_at_a_poll() {
        let replies = |out: &[Command<SynthTask>]| {
            out.iter().filter(|c| matches!(c, Command::Send { msg: Msg::Work { .. } | Msg::Reject, .. })).count()
        };
        assert_eq!(replies(&poll_with_queue(false)), 1);
        assert_eq!(replies(&poll_with_queue(true)), 3);
    }
}
