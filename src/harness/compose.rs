//! Composing a run's PEs from registry kinds: the one place where a
//! [`BalancerKind`] and a [`DetectorKind`] become a concrete [`Pe`] type,
//! with the mutant's broken rule at its seam ([`seams`]). Drivers are
//! generic over that type; they receive it through [`Drive`].

use super::driver::Driver;
use crate::mutants::{seams, Mutant};
use crate::problem::Task;
use crate::protocol::energy::Energy;
use crate::protocol::four_counter::FourCounter;
use crate::protocol::pacheco::{Pacheco, Victim};
use crate::protocol::random_destination::RandomDestination;
use crate::protocol::random_polling::{Deactivation, RandomPolling};
use crate::protocol::sync_polling::{Rounds, SyncRandomPolling};
use crate::sim::phased::permutation::Method;
use crate::sim::phased::trigger::Trigger;
use crate::sim::phased::SyncMode;

/// The window `inactive-silent` is shown with when none is given: PE 1
/// deactivated from the start for 10^5 time units.
pub const SILENT_WINDOW: Deactivation = Deactivation { pe: 1, from: 0, to: 100_000 };
use crate::base::Topology;
use crate::protocol::{Balancer, BalancerKind, BoundMode, Detector, DetectorKind, Pe, PeId, Propagation};

/// The protocols every PE of a run runs, with their parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Protocols {
    /// The load balancer.
    pub balancer: BalancerKind,
    /// The termination detector.
    pub detector: DetectorKind,
    /// Random polling: reject requests that find this many queued (001 §4).
    pub queue_limit: Option<u32>,
    /// Random polling: answer every queued request at a poll (003 §14.7.2), not one.
    pub serve_all: bool,
    /// Pacheco's search: whom an idle PE asks (003 §14.7.3).
    pub victim: Victim,
    /// Random polling: subproblem slots per PE, 1 or 2 (002 §3).
    pub slots: u8,
    /// Branch-and-bound: how improved bounds travel (S-12).
    pub bound: BoundMode,
    /// Random polling: a deactivated worker (002 §3; S-17).
    pub deactivate: Option<Deactivation>,
    /// The network whose neighbours neighbourhood polling asks (the
    /// simulator's topology, set by [`Protocols::on`]).
    pub topology: Topology,
    /// Synchronous random polling's rounds (from the simulator's machine,
    /// set by [`Protocols::on`]).
    pub rounds: Rounds,
    /// Poll-and-shuffle: how a cycle's permutation is drawn (000 §3.2).
    pub permutation: Method,
    /// Poll-and-shuffle: a global clock or local synchronisation (000 §6.3).
    pub sync: SyncMode,
    /// Poll-and-shuffle: when to permute (000 §3.1, or §5's adaptive trigger).
    pub trigger: Trigger,
    /// The deliberate bug the protocols run with, if any.
    pub mutant: Option<Mutant>,
}

impl Protocols {
    /// The reference protocols `balancer` + `detector`, no parameters, no mutant.
    pub fn new(balancer: BalancerKind, detector: DetectorKind) -> Protocols {
        Protocols {
            balancer,
            detector,
            queue_limit: None,
            serve_all: false,
            victim: Victim::Random,
            slots: 1,
            bound: BoundMode::default(),
            deactivate: None,
            topology: Topology::Crossbar,
            rounds: Rounds { length: 1, gather: 0 },
            permutation: Method::Exact,
            sync: SyncMode::Global,
            trigger: Trigger::Cycle,
            mutant: None,
        }
    }

    /// These protocols on `driver`'s machine: its topology, and the rounds
    /// it allows synchronous random polling (001 §1.3).
    pub fn on(self, driver: &Driver) -> Protocols {
        let rounds = match driver {
            Driver::Sim(c) => c.sync_rounds(),
            _ => self.rounds,
        };
        Protocols { topology: driver.topology(), rounds, ..self }
    }

    /// These protocols with `mutant`, and what it needs to act
    /// (`grr-no-increment`: global round robin; `slot-overwrite`: two slots;
    /// `no-phase-wait`, `wait-wrong-dimension`: local synchronisation).
    pub fn with_mutant(self, mutant: Option<Mutant>) -> Protocols {
        let victim = if mutant == Some(Mutant::GrrNoIncrement) { Victim::GlobalRr } else { self.victim };
        let two = matches!(mutant, Some(Mutant::SlotOverwrite | Mutant::SplitDeepestSlot));
        let slots = if two { 2 } else { self.slots };
        let bound = if mutant == Some(Mutant::StopNotForwarded) { BoundMode::FirstSolution } else { self.bound };
        let deactivate = match mutant {
            Some(Mutant::InactiveSilent) => self.deactivate.or(Some(SILENT_WINDOW)),
            _ => self.deactivate,
        };
        let queue_limit = match mutant {
            Some(Mutant::QueueLimitIgnored) => self.queue_limit.or(Some(1)),
            _ => self.queue_limit,
        };
        let local = matches!(mutant, Some(Mutant::NoPhaseWait | Mutant::WaitWrongDimension));
        let sync = if local { SyncMode::Local } else { self.sync };
        Protocols { mutant, victim, slots, bound, deactivate, queue_limit, sync, ..self }
    }

    /// Hands `driver` the constructor of this run's PEs.
    pub fn drive<V: Drive>(&self, driver: V) -> V::Output {
        match self.balancer {
            BalancerKind::RandomPolling | BalancerKind::NeighbourPolling => {
                let (rules, limit, all, slots) =
                    (seams::polling(self.mutant), self.queue_limit, self.serve_all, self.slots);
                // Mutant `poll-network-neighbour` turns random polling into neighbourhood polling.
                let near = self.balancer == BalancerKind::NeighbourPolling
                    || self.mutant == Some(Mutant::PollNetworkNeighbour);
                let off = self.deactivate;
                let topology = self.topology;
                self.with_balancer(driver, move |i| {
                    let window = off.filter(|d| d.pe == i).map(|d| (d.from, d.to));
                    let pe = RandomPolling::<Task>::new(rules, limit).serving_all(all).with_slots(slots);
                    let pe = pe.with_inactive(window);
                    if near {
                        pe.polling_neighbours(topology)
                    } else {
                        pe
                    }
                })
            }
            BalancerKind::SyncRandomPolling => {
                let (rules, rounds) = (seams::sync_polling(self.mutant), self.rounds);
                self.with_balancer(driver, move |_| SyncRandomPolling::<Task>::new(rules, rounds))
            }
            BalancerKind::Pacheco => {
                let (rules, victim) = (seams::pacheco(self.mutant), self.victim);
                self.with_balancer(driver, move |_| Pacheco::<Task>::new(rules, victim))
            }
            BalancerKind::RandomDestination | BalancerKind::PriorityBnb => {
                let rules = seams::destinations(self.mutant);
                self.with_balancer(driver, move |_| RandomDestination::<Task>::new(rules))
            }
            BalancerKind::PollAndShuffle | BalancerKind::SimdPhase => {
                unreachable!("validated: the phased machine's balancers run there")
            }
        }
    }

    /// Hands `driver` the constructor of PEs that run `balancer` (PE number
    /// → balancer state: a user's balancer, say) with this run's detector.
    pub fn with_balancer<V, B>(&self, driver: V, balancer: impl Fn(PeId) -> B) -> V::Output
    where
        V: Drive,
        B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    {
        let (energy, waves) = (seams::energy(self.mutant), seams::four_counter(self.mutant));
        let bound = Propagation::new(self.bound, seams::bounds(self.mutant));
        match self.detector {
            DetectorKind::Energy => {
                driver.drive(|i| Pe::new(balancer(i), Energy::new(false, energy)).with_bounds(bound.clone()))
            }
            DetectorKind::EnergyTree => {
                driver.drive(|i| Pe::new(balancer(i), Energy::new(true, energy)).with_bounds(bound.clone()))
            }
            DetectorKind::FourCounter => {
                driver.drive(|i| Pe::new(balancer(i), FourCounter::new(waves)).with_bounds(bound.clone()))
            }
            DetectorKind::Barrier => unreachable!("validated: the barrier detector is the phased machine's"),
        }
    }
}

/// What builds a run's PEs: the registry's [`Protocols`], or a user's
/// balancer with a registry detector ([`UserBalancer`]).
pub trait Compose {
    /// The balancer's name (in the trace header).
    fn balancer_name(&self) -> String;
    /// Hands `driver` the constructor of the run's PEs.
    fn compose<V: Drive>(&self, protocols: &Protocols, driver: V) -> V::Output;
}

impl Compose for BalancerKind {
    fn balancer_name(&self) -> String {
        self.to_string()
    }

    fn compose<V: Drive>(&self, protocols: &Protocols, driver: V) -> V::Output {
        Protocols { balancer: *self, ..*protocols }.drive(driver)
    }
}

/// A user's balancer under test (any [`Balancer`] over lbcheck's
/// workloads), run with the detectors and drivers of the references.
pub struct UserBalancer<F> {
    /// Its name, for headers and reports.
    pub name: String,
    /// PE number → the PE's initial balancer state.
    pub make: F,
}

impl<B, F> Compose for UserBalancer<F>
where
    B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    F: Fn(PeId) -> B,
{
    fn balancer_name(&self) -> String {
        self.name.clone()
    }

    fn compose<V: Drive>(&self, protocols: &Protocols, driver: V) -> V::Output {
        protocols.with_balancer(driver, &self.make)
    }
}

/// A driver, called back with the constructor of the run's PEs.
pub trait Drive {
    /// What the driver returns.
    type Output;
    /// Runs PEs built by `make` (PE number → PE).
    fn drive<B, D>(self, make: impl Fn(PeId) -> Pe<B, D>) -> Self::Output
    where
        B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
        D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static;
}
