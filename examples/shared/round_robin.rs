//! Local round robin (003 §14.7.3), the "user's balancer" of the examples
//! (`own_balancer.rs`) and of the fuzz target `fuzz/fuzz_targets/own_balancer.rs`:
//! an idle PE asks PE me+1, me+2, … in turn instead of a random PE. Included
//! with `#[path]` (a directory without `main.rs` is not an example itself).

use std::collections::VecDeque;

use lbcheck::problem::{Subproblem, Task};
use lbcheck::protocol::{Balancer, Command, Ctx, Msg, PeId};

/// Local round robin: one PE's state.
#[derive(Clone, Debug)]
pub struct RoundRobin {
    task: Option<Task>,
    queue: VecDeque<PeId>,
    /// The next PE to ask.
    next: PeId,
    variant: Variant,
}

/// Which version of the balancer a PE runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The correct balancer.
    Correct,
    /// The deliberate bug: on running out of work, queued requests stay unanswered.
    ForgetsQueue,
    /// Correct but slow: an idle PE always asks the same PE (PE 0; PE 0
    /// asks PE 1), so work spreads only from PE 0's halvings; every
    /// property holds, the papers' bounds do not.
    Lazy,
}

impl RoundRobin {
    /// PE `me`'s initial state.
    pub fn new(me: PeId, variant: Variant) -> Self {
        RoundRobin { task: None, queue: VecDeque::new(), next: me, variant }
    }

    fn ask(&mut self, ctx: &mut Ctx<Task>) {
        if ctx.pes < 2 {
            return;
        }
        if self.variant == Variant::Lazy {
            ctx.send(PeId::from(ctx.me == 0), Msg::Request);
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
        if self.variant != Variant::ForgetsQueue {
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
