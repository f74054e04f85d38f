//! A user's balancer or detector behind `dyn` ([`ErasedBalancer`],
//! [`ErasedDetector`]): one type for every user protocol, so that the
//! campaign's code that runs one (every driver, the checker, the explorer,
//! the bounds and loom layers) is compiled once, in this crate, instead of
//! once per protocol type in every crate that checks one (a release build
//! shares no generic code between crates). Issue 30: the test command's
//! build.
//!
//! Each forwards every method of its trait, the defaulted ones included,
//! so that a protocol behaves as itself; `Debug` prints the protocol's own.

use std::fmt;

use crate::base::Fraction;
use crate::problem::Task;
use crate::protocol::{Balancer, Ctx, Detector, Msg, PeId};

/// A balancer that can be cloned behind `dyn`.
trait DynBalancer: Balancer<Task = Task> + fmt::Debug + Send {
    fn clone_box(&self) -> Box<dyn DynBalancer>;
}

impl<B: Balancer<Task = Task> + Clone + fmt::Debug + Send + 'static> DynBalancer for B {
    fn clone_box(&self) -> Box<dyn DynBalancer> {
        Box::new(self.clone())
    }
}

/// A user's balancer behind `dyn` ([`crate::harness::UserBalancer::erased`]).
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

/// A user's detector behind `dyn` ([`crate::harness::UserDetector::erased`]).
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
