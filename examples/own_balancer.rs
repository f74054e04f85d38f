//! Validating your own balancer in-process (`cargo run --release --example
//! own_balancer`): implement the sans-IO [`Balancer`] trait, hand a
//! constructor to `campaign::user::check_balancer`, and lbcheck runs it
//! under its simulator and on threads, with every termination detector it
//! ships, against every property, and explores it exhaustively on a tiny
//! instance (every latency and event order, `lbcheck explore`).
//!
//! The balancer here is local round robin (003 §14.7.3): an idle PE asks
//! PE me+1, me+2, … in turn instead of a random PE. The correct version
//! passes; a subtly broken one, which forgets to reject the requests still
//! queued when its work runs out, is caught. Exit 0 iff both verdicts are
//! the expected ones.

use std::collections::VecDeque;
use std::process::ExitCode;

use lbcheck::campaign::{user, Options, Profile, Silent, Verdict};
use lbcheck::harness::UserBalancer;
use lbcheck::problem::{Subproblem, Task};
use lbcheck::protocol::{Balancer, Command, Ctx, Msg, PeId};

/// Local round robin: one PE's state.
#[derive(Clone, Debug)]
struct RoundRobin {
    task: Option<Task>,
    queue: VecDeque<PeId>,
    /// The next PE to ask.
    next: PeId,
    /// The deliberate bug: on running out of work, queued requests stay unanswered.
    forget_queue: bool,
}

impl RoundRobin {
    fn new(me: PeId, forget_queue: bool) -> Self {
        RoundRobin { task: None, queue: VecDeque::new(), next: me, forget_queue }
    }

    fn ask(&mut self, ctx: &mut Ctx<Task>) {
        if ctx.pes < 2 {
            return;
        }
        self.next = (self.next + 1) % ctx.pes;
        if self.next == ctx.me {
            self.next = (self.next + 1) % ctx.pes;
        }
        ctx.send(self.next, Msg::Request);
    }
}

impl Balancer for RoundRobin {
    type Task = Task;

    fn start(&mut self, ctx: &mut Ctx<Task>, part: Option<Task>) {
        self.task = part.filter(|p| !p.is_empty());
        if self.task.is_none() {
            self.ask(ctx);
        }
    }

    fn on_message(&mut self, ctx: &mut Ctx<Task>, from: PeId, msg: Msg<Task>) {
        match msg {
            Msg::Request if self.has_work() => self.queue.push_back(from),
            Msg::Request => ctx.send(from, Msg::Reject),
            Msg::Reject if !self.has_work() => self.ask(ctx),
            Msg::Work { task, .. } => self.task = Some(task),
            _ => {}
        }
    }

    fn on_poll(&mut self, ctx: &mut Ctx<Task>) {
        let Some(from) = self.queue.pop_front() else { return };
        match self.task.as_mut().and_then(Subproblem::split) {
            Some(part) => {
                ctx.out.push(Command::Split { gen: part.generation() });
                ctx.send(from, Msg::Work { task: part, energy: None });
            }
            None => ctx.send(from, Msg::Reject),
        }
    }

    fn on_exhausted(&mut self, ctx: &mut Ctx<Task>) {
        self.task = None;
        let queued = std::mem::take(&mut self.queue);
        if !self.forget_queue {
            queued.into_iter().for_each(|from| ctx.send(from, Msg::Reject));
        }
        self.ask(ctx);
    }

    fn task_mut(&mut self) -> Option<&mut Task> {
        self.task.as_mut()
    }

    fn has_work(&self) -> bool {
        self.task.as_ref().is_some_and(|t| !t.is_empty())
    }

    fn queued_requests(&self) -> u32 {
        self.queue.len() as u32
    }
}

fn main() -> ExitCode {
    let o = Options { profile: Profile::Quick, seed: 1, only: vec![], mutant: None };
    let correct = UserBalancer { name: "round-robin".into(), make: |me| RoundRobin::new(me, false) };
    let broken = UserBalancer { name: "round-robin-forgets-queue".into(), make: |me| RoundRobin::new(me, true) };
    let good = user::check_balancer(&o, &correct, &Silent);
    let bad = user::check_balancer(&o, &broken, &Silent);
    for (name, r) in [("round-robin", &good), ("round-robin-forgets-queue", &bad)] {
        let failed = r.cases.iter().filter(|c| c.verdict == Verdict::Fail).count();
        println!("{name}: {} runs, {failed} failed", r.cases.len());
        if let Some(c) = r.cases.iter().find(|c| c.verdict == Verdict::Fail) {
            println!("  first failure {}: {}", c.name, c.detail);
        }
        let explored = r.cases.iter().filter(|c| c.layer == "explore");
        let failed: Vec<_> = explored.clone().filter(|c| c.verdict == Verdict::Fail).map(|c| &c.detail).collect();
        println!("  explore: {} detectors, {} failed {:?}", explored.count(), failed.len(), failed.first());
    }
    match (good.passed(), bad.passed()) {
        (true, false) => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    }
}
