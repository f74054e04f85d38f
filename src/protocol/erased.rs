//! A user's balancer or detector behind `dyn` ([`ErasedBalancer`],
//! [`ErasedDetector`]): one type for every user protocol, so that the
//! campaign's code that runs one (every driver, the checker, the explorer,
//! the bounds and loom layers) is compiled once, in this crate, instead of
//! once per protocol type in every crate that checks one (a release build
//! shares no generic code between crates); and the drivers whose speed is
//! not the point (threads, MPI, the explorers) run every pair of the
//! registry's protocols as one pair of types ([`Pe::erased`]). Issue 30:
//! the test command's build.
//!
//! Each forwards every method of its trait, the defaulted ones included,
//! so that a protocol behaves as itself; `Debug` prints the protocol's own.

use std::fmt;

use super::{Balancer, Ctx, Detector, Msg, Pe, PeId};
use crate::base::Fraction;
use crate::problem::Task;

impl<B, D> Pe<B, D>
where
    B: Balancer<Task = Task> + Clone + fmt::Debug + Send + 'static,
    D: Detector<Task> + Clone + fmt::Debug + Send + 'static,
{
    /// This PE with its balancer and detector behind `dyn`.
    pub fn erased(self) -> Pe<ErasedBalancer, ErasedDetector> {
        let Pe { balancer, detector, bounds, terminated } = self;
        Pe { balancer: ErasedBalancer::new(balancer), detector: ErasedDetector::new(detector), bounds, terminated }
    }
}

/// A balancer that can be cloned behind `dyn`.
trait DynBalancer: Balancer<Task = Task> + fmt::Debug + Send {
    fn clone_box(&self) -> Box<dyn DynBalancer>;
}

impl<B: Balancer<Task = Task> + Clone + fmt::Debug + Send + 'static> DynBalancer for B {
    fn clone_box(&self) -> Box<dyn DynBalancer> {
        Box::new(self.clone())
    }
}

/// A balancer behind `dyn` ([`crate::harness::UserBalancer::erased`], [`Pe::erased`]).
pub struct ErasedBalancer(Box<dyn DynBalancer>);

impl ErasedBalancer {
    /// `b` behind `dyn`.
    pub fn new<B: Balancer<Task = Task> + Clone + fmt::Debug + Send + 'static>(b: B) -> Self {
        ErasedBalancer(Box::new(b))
    }
}

impl Clone for ErasedBalancer {
    fn clone(&self) -> Self {
        ErasedBalancer(self.0.clone_box())
    }
}

impl fmt::Debug for ErasedBalancer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Balancer for ErasedBalancer {
    type Task = Task;
    fn start(&mut self, ctx: &mut Ctx<Task>, part: Option<Task>) {
        self.0.start(ctx, part)
    }
    fn on_message(&mut self, ctx: &mut Ctx<Task>, from: PeId, msg: Msg<Task>) {
        self.0.on_message(ctx, from, msg)
    }
    fn on_poll(&mut self, ctx: &mut Ctx<Task>) {
        self.0.on_poll(ctx)
    }
    fn on_exhausted(&mut self, ctx: &mut Ctx<Task>) {
        self.0.on_exhausted(ctx)
    }
    fn task_mut(&mut self) -> Option<&mut Task> {
        self.0.task_mut()
    }
    fn improve(&mut self, v: u64) {
        self.0.improve(v)
    }
    fn incumbent(&mut self) -> Option<u64> {
        self.0.incumbent()
    }
    fn discard(&mut self) {
        self.0.discard()
    }
    fn inactive_window(&self) -> Option<(u64, u64)> {
        self.0.inactive_window()
    }
    fn on_wake(&mut self, ctx: &mut Ctx<Task>) {
        self.0.on_wake(ctx)
    }
    fn on_timer(&mut self, ctx: &mut Ctx<Task>) {
        self.0.on_timer(ctx)
    }
    fn resume(&mut self, ctx: &mut Ctx<Task>, next: Task) {
        self.0.resume(ctx, next)
    }
    fn has_work(&self) -> bool {
        self.0.has_work()
    }
    fn queued_requests(&self) -> u32 {
        self.0.queued_requests()
    }
}

/// A detector that can be cloned behind `dyn`.
trait DynDetector: Detector<Task> + fmt::Debug + Send {
    fn clone_box(&self) -> Box<dyn DynDetector>;
}

impl<D: Detector<Task> + Clone + fmt::Debug + Send + 'static> DynDetector for D {
    fn clone_box(&self) -> Box<dyn DynDetector> {
        Box::new(self.clone())
    }
}

/// A detector behind `dyn` ([`crate::harness::UserDetector::erased`], [`Pe::erased`]).
pub struct ErasedDetector(Box<dyn DynDetector>);

impl ErasedDetector {
    /// `d` behind `dyn`.
    pub fn new<D: Detector<Task> + Clone + fmt::Debug + Send + 'static>(d: D) -> Self {
        ErasedDetector(Box::new(d))
    }
}

impl Clone for ErasedDetector {
    fn clone(&self) -> Self {
        ErasedDetector(self.0.clone_box())
    }
}

impl fmt::Debug for ErasedDetector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Detector<Task> for ErasedDetector {
    fn start(&mut self, ctx: &mut Ctx<Task>, holds_work: bool, share: Option<Fraction>) {
        self.0.start(ctx, holds_work, share)
    }
    fn on_work_sent(&mut self, ctx: &mut Ctx<Task>, parts: u32) -> Option<Fraction> {
        self.0.on_work_sent(ctx, parts)
    }
    fn on_work_received(&mut self, ctx: &mut Ctx<Task>, from: PeId, energy: Option<Fraction>) {
        self.0.on_work_received(ctx, from, energy)
    }
    fn on_idle(&mut self, ctx: &mut Ctx<Task>) {
        self.0.on_idle(ctx)
    }
    fn on_message(&mut self, ctx: &mut Ctx<Task>, from: PeId, msg: Msg<Task>, idle: bool) {
        self.0.on_message(ctx, from, msg, idle)
    }
    fn on_timer(&mut self, ctx: &mut Ctx<Task>, idle: bool) {
        self.0.on_timer(ctx, idle)
    }
    fn announcer(&self, pes: u32) -> PeId {
        self.0.announcer(pes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::{stream, Purpose};
    use crate::problem::synthetic::{Policy, SynthConfig};

    /// A protocol that logs every method called on it (its `Debug`
    /// prints the log) and answers the queries with values no default gives.
    #[derive(Clone, Debug, Default)]
    struct Log(Vec<&'static str>);

    impl Balancer for Log {
        type Task = Task;
        fn start(&mut self, _: &mut Ctx<Task>, _: Option<Task>) {
            self.0.push("start")
        }
        fn on_message(&mut self, _: &mut Ctx<Task>, _: PeId, _: Msg<Task>) {
            self.0.push("on_message")
        }
        fn on_poll(&mut self, _: &mut Ctx<Task>) {
            self.0.push("on_poll")
        }
        fn on_exhausted(&mut self, _: &mut Ctx<Task>) {
            self.0.push("on_exhausted")
        }
        fn task_mut(&mut self) -> Option<&mut Task> {
            self.0.push("task_mut");
            None
        }
        fn improve(&mut self, _: u64) {
            self.0.push("improve")
        }
        fn incumbent(&mut self) -> Option<u64> {
            Some(7)
        }
        fn discard(&mut self) {
            self.0.push("discard")
        }
        fn inactive_window(&self) -> Option<(u64, u64)> {
            Some((1, 2))
        }
        fn on_wake(&mut self, _: &mut Ctx<Task>) {
            self.0.push("on_wake")
        }
        fn on_timer(&mut self, _: &mut Ctx<Task>) {
            self.0.push("on_timer")
        }
        fn resume(&mut self, _: &mut Ctx<Task>, _: Task) {
            self.0.push("resume")
        }
        fn has_work(&self) -> bool {
            true
        }
        fn queued_requests(&self) -> u32 {
            3
        }
    }

    impl Detector<Task> for Log {
        fn start(&mut self, _: &mut Ctx<Task>, _: bool, _: Option<Fraction>) {
            self.0.push("d.start")
        }
        fn on_work_sent(&mut self, _: &mut Ctx<Task>, _: u32) -> Option<Fraction> {
            Some(Fraction::one())
        }
        fn on_work_received(&mut self, _: &mut Ctx<Task>, _: PeId, _: Option<Fraction>) {
            self.0.push("d.on_work_received")
        }
        fn on_idle(&mut self, _: &mut Ctx<Task>) {
            self.0.push("d.on_idle")
        }
        fn on_message(&mut self, _: &mut Ctx<Task>, _: PeId, _: Msg<Task>, _: bool) {
            self.0.push("d.on_message")
        }
        fn on_timer(&mut self, _: &mut Ctx<Task>, _: bool) {
            self.0.push("d.on_timer")
        }
        fn announcer(&self, pes: u32) -> PeId {
            pes - 1
        }
    }

    fn task() -> Task {
        Task::Synthetic(SynthConfig { size: 8, atomic: 1, policy: Policy::Balanced, seed: 1 }.root())
    }

    /// Every method, the defaulted ones included, reaches the protocol
    /// behind `dyn`; a clone is the protocol's clone; `Debug` is its own.
    #[test]
    fn an_erased_balancer_forwards_every_method() {
        let (mut rng, mut out) = (stream(1, 1, Purpose::Protocol), Vec::new());
        let ctx = &mut Ctx { now: 0, me: 1, pes: 4, rng: &mut rng, out: &mut out };
        let mut b = ErasedBalancer::new(Log::default());
        b.start(ctx, None);
        b.on_message(ctx, 0, Msg::Reject);
        b.on_poll(ctx);
        b.on_exhausted(ctx);
        assert!(b.task_mut().is_none());
        b.improve(1);
        b.discard();
        b.on_wake(ctx);
        b.on_timer(ctx);
        b.resume(ctx, task());
        let c = b.clone();
        b.on_poll(ctx);
        let all = "[\"start\", \"on_message\", \"on_poll\", \"on_exhausted\", \"task_mut\", \"improve\", \"discard\", \"on_wake\", \"on_timer\", \"resume\"";
        assert_eq!(format!("{c:?}"), format!("Log({all}])"));
        assert_eq!(format!("{b:?}"), format!("Log({all}, \"on_poll\"])"));
        let answers = (b.incumbent(), b.inactive_window(), b.has_work(), b.queued_requests());
        assert_eq!(answers, (Some(7), Some((1, 2)), true, 3));
    }

    /// The same for a detector.
    #[test]
    fn an_erased_detector_forwards_every_method() {
        let (mut rng, mut out) = (stream(1, 1, Purpose::Protocol), Vec::new());
        let ctx = &mut Ctx { now: 0, me: 1, pes: 4, rng: &mut rng, out: &mut out };
        let mut d = ErasedDetector::new(Log::default());
        d.start(ctx, true, None);
        assert_eq!(d.on_work_sent(ctx, 2), Some(Fraction::one()));
        d.on_work_received(ctx, 0, None);
        d.on_idle(ctx);
        d.on_message(ctx, 0, Msg::Reject, true);
        let c = d.clone();
        d.on_timer(ctx, true);
        let all = "[\"d.start\", \"d.on_work_received\", \"d.on_idle\", \"d.on_message\"";
        assert_eq!(format!("{c:?}"), format!("Log({all}])"));
        assert_eq!(format!("{d:?}"), format!("Log({all}, \"d.on_timer\"])"));
        assert_eq!(d.announcer(8), 7);
    }
}
