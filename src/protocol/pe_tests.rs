//! [`Pe`], the driver's side of a protocol, with a stack balancer and a
//! detector that records what it is told: when the detector hears of
//! idleness, and that a PE which learnt of termination is inert.

use super::*;
use crate::base::rng::{stream, Purpose};
use crate::problem::synthetic::{Policy, SynthConfig, SynthTask};

/// A balancer with a stack of subproblems (a DFS stack): when the top runs
/// out it works on the next; it never shares.
#[derive(Default)]
struct Stack(Vec<SynthTask>);

impl Balancer for Stack {
    type Task = SynthTask;
    fn start(&mut self, _: &mut Ctx<SynthTask>, part: Option<SynthTask>) {
        self.0.extend(part);
    }
    fn on_message(&mut self, ctx: &mut Ctx<SynthTask>, from: PeId, msg: Msg<SynthTask>) {
        if let Msg::Request = msg {
            ctx.send(from, Msg::Reject);
        }
    }
    fn on_poll(&mut self, _: &mut Ctx<SynthTask>) {}
    fn on_exhausted(&mut self, _: &mut Ctx<SynthTask>) {
        self.0.pop();
    }
    fn task_mut(&mut self) -> Option<&mut SynthTask> {
        self.0.last_mut()
    }
    fn has_work(&self) -> bool {
        !self.0.is_empty()
    }
    fn queued_requests(&self) -> u32 {
        0
    }
}

/// A detector that counts what it is told.
#[derive(Default)]
struct Told {
    idle: u32,
    messages: u32,
    timers: u32,
}

impl Detector<SynthTask> for Told {
    fn start(&mut self, _: &mut Ctx<SynthTask>, _: bool, _: Option<Fraction>) {}
    fn on_work_sent(&mut self, _: &mut Ctx<SynthTask>, _: u32) -> Option<Fraction> {
        None
    }
    fn on_work_received(&mut self, _: &mut Ctx<SynthTask>, _: PeId, _: Option<Fraction>) {}
    fn on_idle(&mut self, _: &mut Ctx<SynthTask>) {
        self.idle += 1;
    }
    fn on_message(&mut self, _: &mut Ctx<SynthTask>, _: PeId, _: Msg<SynthTask>, _: bool) {
        self.messages += 1;
    }
    fn on_timer(&mut self, _: &mut Ctx<SynthTask>, _: bool) {
        self.timers += 1;
    }
}

fn task() -> SynthTask {
    SynthConfig { size: 8, atomic: 1, policy: Policy::Balanced, seed: 1 }.root()
}

/// PE 1 of 4 holding `parts` subproblems; `f` is called with it and a
/// context whose output starts empty.
fn with_pe(parts: usize, f: impl FnOnce(&mut Pe<Stack, Told>, &mut Ctx<SynthTask>)) {
    let (mut rng, mut out) = (stream(1, 1, Purpose::Protocol), Vec::new());
    let mut ctx = Ctx { now: 0, me: 1, pes: 4, rng: &mut rng, out: &mut out };
    let mut pe = Pe::new(Stack::default(), Told::default());
    pe.start(&mut ctx, None, None);
    pe.balancer.0 = (0..parts).map(|_| task()).collect();
    f(&mut pe, &mut ctx);
}

/// A subproblem that ran out while the balancer holds another (its stack's
/// next) leaves the PE busy: the detector is told it is idle only when the
/// last one runs out (a PE reported idle while it works lets a wave count
/// it finished, 001 §2).
#[test]
fn the_detector_hears_of_idleness_only_when_the_last_subproblem_ran_out() {
    with_pe(2, |pe, ctx| {
        pe.on_exhausted(ctx);
        assert_eq!(pe.detector.idle, 0, "the stack's next subproblem is left");
        pe.on_exhausted(ctx);
        assert_eq!(pe.detector.idle, 1);
    });
}

/// A PE that learnt of termination is inert: it still rejects a request
/// (every request gets a reply), and nothing else it receives reaches its
/// balancer or detector, or makes it send.
#[test]
fn a_terminated_pe_only_rejects_requests() {
    with_pe(0, |pe, ctx| {
        pe.on_message(ctx, 0, Msg::Terminate);
        assert!(pe.terminated());
        ctx.out.clear();
        let late = [Msg::Bound(3), Msg::Stop, Msg::GetTarget, Msg::Target(2), Msg::WaveDown { wave: 1 }, Msg::Reject];
        for msg in late {
            pe.on_message(ctx, 0, msg);
        }
        pe.on_timer(ctx);
        pe.on_exhausted(ctx);
        assert!(ctx.out.is_empty(), "{} commands after termination", ctx.out.len());
        assert_eq!((pe.detector.messages, pe.detector.timers, pe.detector.idle), (0, 0, 0));
        pe.on_message(ctx, 2, Msg::Request);
        assert!(matches!(ctx.out[..], [Command::Send { to: 2, msg: Msg::Reject }]));
    });
}
