//! A mutant's needs ([`Need`], part of its catalogue declaration) read
//! against a run: whether the run has one, and the run set up so that it
//! does ([`RunSpec::with_mutant`]). No mutant is named here.

use super::driver::Driver;
use super::spec::RunSpec;
use crate::base::Topology;
use crate::mutants::{Mutant, Need};
use crate::protocol::pacheco::Victim;
use crate::protocol::poll_and_shuffle::{Adaptive, SyncMode, Trigger};
use crate::protocol::random_polling::{Deactivation, QueueLimit, Serve};
use crate::protocol::BoundMode;
use crate::sim::Routing;

/// The window a mutant needing a deactivated worker gets when the run has
/// none: PE 1 deactivated from the start for 10^5 time units.
pub const SILENT_WINDOW: Deactivation = Deactivation { pe: 1, from: 0, to: 100_000 };

impl RunSpec {
    /// True if this run has `need`.
    pub fn holds(&self, need: Need) -> bool {
        let polling = self.balancer.polling();
        let pas = self.balancer.pas();
        match need {
            Need::TwoSlots => polling.is_some_and(|p| p.slots() == 2),
            Need::Deactivated => polling.is_some_and(|p| p.deactivate.is_some()),
            Need::QueueLimit => polling.is_some_and(|p| p.queue_limit.is_some()),
            Need::ServeOne => polling.is_some_and(|p| !p.serves_all()),
            Need::GlobalRoundRobin => self.balancer.pacheco().is_some_and(|p| p.victim() == Victim::GlobalRr),
            Need::LocalSync => pas.is_some_and(|p| p.sync() == SyncMode::Local),
            Need::AdaptiveTrigger => pas.is_some_and(|p| p.trigger() != Trigger::Cycle),
            Need::FirstSolution => self.bound_mode() == BoundMode::FirstSolution,
            Need::ReduceTree => self.bound_mode() == BoundMode::ReduceTree,
            Need::Network => self.driver.topology() != Topology::Crossbar,
            Need::PacketRouting => matches!(self.driver, Driver::Sim(c) if c.routing == Some(Routing::Packet)),
            Need::FifoArbiter => {
                matches!(self.driver, Driver::Atomic(c) if !c.complete && c.arbiter == Default::default())
            }
            Need::ModelTime => !self.driver.real(),
        }
    }

    /// This run with `mutant`, set up for what it needs (two slots, global
    /// round robin, a deactivated worker, …) where the run can have it.
    pub fn with_mutant(mut self, mutant: Option<Mutant>) -> RunSpec {
        self.mutant = mutant;
        for &need in mutant.map_or(&[][..], |m| m.entry().needs) {
            self.provide(need);
        }
        self
    }

    /// Sets the run up to have `need`, if it can have it.
    fn provide(&mut self, need: Need) {
        if let Some(p) = self.balancer.polling_mut() {
            match need {
                Need::TwoSlots => p.slots = Some(2),
                Need::Deactivated => p.deactivate = p.deactivate.or(Some(SILENT_WINDOW)),
                Need::QueueLimit => p.queue_limit = p.queue_limit.or(Some(QueueLimit::Fixed(1))),
                Need::ServeOne => p.serve = p.serve.filter(|&s| s == Serve::One),
                _ => {}
            }
        }
        if let (Need::GlobalRoundRobin, Some(p)) = (need, self.balancer.pacheco_mut()) {
            p.victim = Some(Victim::GlobalRr);
        }
        if let Some(p) = self.balancer.pas_mut() {
            match need {
                Need::LocalSync => p.sync = Some(SyncMode::Local),
                Need::AdaptiveTrigger if p.trigger() == Trigger::Cycle => {
                    p.trigger = Some(Trigger::Adaptive(Adaptive::PAPER))
                }
                _ => {}
            }
        }
        self.provide_elsewhere(need);
    }

    /// The needs of the bounds and the machine.
    fn provide_elsewhere(&mut self, need: Need) {
        match (need, &mut self.driver) {
            (Need::FirstSolution, _) => self.bound = Some(BoundMode::FirstSolution),
            (Need::ReduceTree, _) => self.bound = self.bound.filter(|&b| b == BoundMode::ReduceTree),
            (Need::Network, Driver::Sim(c)) if c.topology == Topology::Crossbar && c.pes.is_power_of_two() => {
                c.topology = Topology::Hypercube;
            }
            (Need::PacketRouting, Driver::Sim(c)) if c.routing.is_none() => c.routing = Some(Routing::Packet),
            (Need::FifoArbiter, Driver::Atomic(c)) => c.arbiter = Default::default(),
            _ => {}
        }
    }
}
