//! Synchronous random polling (001 §1.3, refs. [28, 29]; S-13).
//!
//! Time is cut into rounds of length T_round ≥ Δt + 2·T_rout + T_split
//! (on a topology T_rout is the latency across the diameter), so that a
//! request sent at a round's start is answered within the round. At the
//! start of each round every idle PE sends one request to a uniformly
//! random other PE. A busy PE collects the round's requests; at its first
//! poll once they have all arrived (strictly after T_gather = the longest
//! latency after the round's start: a request arriving at T_gather
//! exactly may be handled after a poll of the same instant, and would
//! miss its round) it serves *one* of them, chosen uniformly, by
//! splitting its subproblem, and rejects the others. An idle PE rejects
//! requests at once; a PE whose request was rejected asks again at the
//! next round's start. A PE that runs out of work rejects the requests it
//! still holds. Every request gets exactly one reply.
//!
//! Rounds need a global clock: the PE sets a timer for the next round's
//! start ([`Command::Timer`]), so this balancer runs on the simulators
//! (`lbcheck simulate`, `lbcheck explore`), not on real threads.
//!
//! The step a variant may change is [`SyncRules`]: the reference runs
//! [`SyncRules::PAPER`].

use rand::Rng;

use super::{Balancer, Command, Ctx, Msg, PeId};
use crate::problem::Subproblem;

/// The steps of synchronous random polling a variant may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncRules {
    /// A PE that received two or more requests in a round serves one of
    /// them (else it rejects them all: mutant `sync-serve-none-when-many`).
    pub serves_when_many: bool,
    /// An idle PE asks a uniformly random other PE (else PE (i + 1) mod P:
    /// mutant `sync-poll-neighbour`, the partner choice 001 §1 calls
    /// extremely inefficient).
    pub random_victim: bool,
}

impl SyncRules {
    /// 001 §1.3.
    pub const PAPER: SyncRules = SyncRules { serves_when_many: true, random_victim: true };
}

/// The round structure: its length and when, after its start, the
/// round's requests have all arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rounds {
    /// T_round.
    pub length: u64,
    /// T_gather: the longest latency of a request.
    pub gather: u64,
}

/// One PE's synchronous random polling state.
#[derive(Clone, Debug)]
pub struct SyncRandomPolling<T> {
    rules: SyncRules,
    rounds: Rounds,
    task: Option<T>,
    /// Requests waiting for the round's service point.
    queue: Vec<PeId>,
    /// The round start a timer is set for.
    alarm: Option<u64>,
}

impl<T: Subproblem> SyncRandomPolling<T> {
    /// A PE with no work yet, with rounds `rounds` (length ≥ 1).
    pub fn new(rules: SyncRules, rounds: Rounds) -> Self {
        let rounds = Rounds { length: rounds.length.max(1), ..rounds };
        SyncRandomPolling { rules, rounds, task: None, queue: Vec::new(), alarm: None }
    }

    /// Asks a uniformly random other PE if a round starts now, else sets
    /// a timer for the next round's start. Called only by an idle PE with
    /// no request out (at the start, on a reject, on running out, at the
    /// alarm a mid-round call set): one request out at most, without a
    /// flag to say so (`tests/sim/mutation.rs` watches it).
    fn ask(&mut self, ctx: &mut Ctx<T>) {
        if ctx.pes < 2 {
            return;
        }
        let length = self.rounds.length;
        if ctx.now % length != 0 {
            let next = (ctx.now / length + 1) * length;
            if self.alarm != Some(next) {
                self.alarm = Some(next);
                ctx.out.push(Command::Timer { after: next - ctx.now });
            }
            return;
        }
        let v = match self.rules.random_victim {
            true => ctx.rng.random_range(0..ctx.pes - 1),
            false => ctx.me % (ctx.pes - 1),
        };
        ctx.send(v + (v >= ctx.me) as PeId, Msg::Request);
    }

    /// The round's service point (the first poll past T_gather into the
    /// round, so within T_round = Δt + T_poll + 2·T_gather + T_split the
    /// reply has arrived): one request, chosen uniformly, gets a
    /// split-off part (or a reject if nothing splits off); the rest are
    /// rejected. Once a round without a flag to say so: every request of
    /// the round is in by T_gather and the next round's come after its start.
    fn serve_round(&mut self, ctx: &mut Ctx<T>) {
        if self.queue.is_empty() || ctx.now % self.rounds.length <= self.rounds.gather {
            return;
        }
        let many = self.queue.len() >= 2;
        let chosen = ctx.rng.random_range(0..self.queue.len());
        for (i, from) in std::mem::take(&mut self.queue).into_iter().enumerate() {
            let part = (i == chosen && (self.rules.serves_when_many || !many))
                .then(|| self.task.as_mut().and_then(|t| t.split()))
                .flatten();
            match part {
                Some(part) => {
                    ctx.out.push(Command::Split { gen: part.generation() });
                    ctx.send(from, Msg::Work { task: part, energy: None });
                }
                None => ctx.send(from, Msg::Reject),
            }
        }
    }
}

impl<T: Subproblem> Balancer for SyncRandomPolling<T> {
    type Task = T;

    fn start(&mut self, ctx: &mut Ctx<T>, part: Option<T>) {
        self.task = part.filter(|p| !p.is_empty());
        if self.task.is_none() {
            self.ask(ctx);
        }
    }

    fn on_message(&mut self, ctx: &mut Ctx<T>, from: PeId, msg: Msg<T>) {
        match msg {
            Msg::Request if self.has_work() => self.queue.push(from),
            Msg::Request => ctx.send(from, Msg::Reject),
            Msg::Reject => self.ask(ctx), // the next round's start
            Msg::Work { task, .. } => {
                assert!(self.task.is_none(), "PE {} received work while holding work", ctx.me);
                self.task = Some(task);
            }
            _ => {}
        }
    }

    fn on_poll(&mut self, ctx: &mut Ctx<T>) {
        self.serve_round(ctx);
    }

    fn on_exhausted(&mut self, ctx: &mut Ctx<T>) {
        self.task = None;
        for from in std::mem::take(&mut self.queue) {
            ctx.send(from, Msg::Reject);
        }
        self.ask(ctx);
    }

    /// A round starts: an idle PE with no request out asks.
    fn on_timer(&mut self, ctx: &mut Ctx<T>) {
        if self.alarm == Some(ctx.now) {
            self.alarm = None;
            if !self.has_work() {
                self.ask(ctx);
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::{stream, Purpose};
    use crate::problem::synthetic::{Policy, SynthConfig, SynthTask};

    const ROUNDS: Rounds = Rounds { length: 100, gather: 10 };

    /// PE 0 holding 64 units, requests from PEs 1-3 arrived by t = 10; a
    /// poll at `t`: the messages it sends.
    fn poll_at(t: u64, rules: SyncRules) -> Vec<Command<SynthTask>> {
        let root = SynthConfig { size: 64, atomic: 1, policy: Policy::Balanced, seed: 1 }.root();
        let mut pe = SyncRandomPolling::new(rules, ROUNDS);
        let (mut rng, mut out) = (stream(1, 0, Purpose::Protocol), Vec::new());
        let mut ctx = Ctx { now: 0, me: 0, pes: 4, rng: &mut rng, out: &mut out };
        pe.start(&mut ctx, Some(root));
        (1..4).for_each(|from| pe.on_message(&mut ctx, from, Msg::Request));
        ctx.now = t;
        pe.on_poll(&mut ctx);
        out
    }

    fn count(out: &[Command<SynthTask>], work: bool) -> usize {
        let is = |m: &Msg<SynthTask>| matches!(m, Msg::Work { .. }) == work;
        out.iter().filter(|c| matches!(c, Command::Send { msg, .. } if is(msg))).count()
    }

    /// 001 §1.3: at the service point one request gets work, the others rejects.
    #[test]
    fn a_round_serves_one_request_and_rejects_the_rest() {
        assert!(poll_at(5, SyncRules::PAPER).is_empty(), "before T_gather nothing is answered");
        assert!(poll_at(10, SyncRules::PAPER).is_empty(), "at T_gather a request may still be arriving");
        let out = poll_at(11, SyncRules::PAPER);
        assert_eq!((count(&out, true), count(&out, false)), (1, 2));
        let none = poll_at(11, SyncRules { serves_when_many: false, ..SyncRules::PAPER });
        assert_eq!((count(&none, true), count(&none, false)), (0, 3));
    }

    /// An idle PE asks only at a round's start: mid-round it sets a timer.
    #[test]
    fn an_idle_pe_asks_at_round_starts() {
        let mut pe: SyncRandomPolling<SynthTask> = SyncRandomPolling::new(SyncRules::PAPER, ROUNDS);
        let (mut rng, mut out) = (stream(1, 2, Purpose::Protocol), Vec::new());
        let mut ctx = Ctx { now: 130, me: 2, pes: 4, rng: &mut rng, out: &mut out };
        pe.start(&mut ctx, None);
        ctx.now = 200;
        pe.on_timer(&mut ctx);
        assert!(matches!(out[..], [Command::Timer { after: 70 }, Command::Send { msg: Msg::Request, .. }]), "{out:?}");
    }
}
