//! Composing a run's PEs from its specification: the one place where a
//! [`BalancerSpec`] and a [`DetectorKind`] become a concrete [`Pe`] type,
//! with the mutant's broken rule at its seam ([`seams`]). Drivers are
//! generic over that type; they receive it through [`Drive`]. Adding a
//! protocol is one file in `protocol/`, its registry arm, and one arm here.

use super::driver::Driver;
use super::spec::RunSpec;
use crate::mutants::seams;
use crate::problem::Task;
use crate::protocol::energy::Energy;
use crate::protocol::four_counter::FourCounter;
use crate::protocol::pacheco::Pacheco;
use crate::protocol::random_destination::RandomDestination;
use crate::protocol::random_polling::{RandomPolling, RandomPollingParams};
use crate::protocol::safra::Safra;
use crate::protocol::sync_polling::{Rounds, SyncRandomPolling};
use crate::protocol::{Balancer, BalancerKind, BalancerSpec, Detector, DetectorKind, Pe, PeId, Propagation};

impl RunSpec {
    /// Hands `driver` the constructor of this run's PEs (the registry's
    /// balancer with its parameters).
    pub fn drive<V: Drive>(&self, driver: V) -> V::Output {
        match self.balancer {
            BalancerSpec::RandomPolling(p) | BalancerSpec::NeighbourPolling(p) => self.drive_polling(p, driver),
            BalancerSpec::SyncRandomPolling(_) => {
                let (rules, rounds) = (seams::sync_polling(self.mutant), self.rounds());
                self.with_balancer(driver, move |_| SyncRandomPolling::<Task>::new(rules, rounds))
            }
            BalancerSpec::Pacheco(p) => {
                let (rules, victim) = (seams::pacheco(self.mutant), p.victim());
                self.with_balancer(driver, move |_| Pacheco::<Task>::new(rules, victim))
            }
            BalancerSpec::RandomDestination(_) | BalancerSpec::PriorityBnb(_) => {
                let rules = seams::destinations(self.mutant);
                self.with_balancer(driver, move |_| RandomDestination::<Task>::new(rules))
            }
            BalancerSpec::PollAndShuffle(_) | BalancerSpec::SimdPhase(_) => {
                unreachable!("validated: the phased machine's balancers run there")
            }
        }
    }

    /// Random polling's PEs (neighbourhood polling's: asking network
    /// neighbours of the run's topology, 000 §1.1).
    fn drive_polling<V: Drive>(&self, p: RandomPollingParams, driver: V) -> V::Output {
        let rules = seams::polling(self.mutant);
        let near = self.balancer.kind() == BalancerKind::NeighbourPolling || seams::polls_neighbours(self.mutant);
        let (limit, all, slots, off) = (p.queue_limit(self.driver.pes()), p.serves_all(), p.slots(), p.deactivate);
        let topology = self.driver.topology();
        self.with_balancer(driver, move |i| {
            let window = off.filter(|d| d.pe == i).map(|d| (d.from, d.to));
            let pe = RandomPolling::<Task>::new(rules, limit).serving_all(all).with_slots(slots);
            let pe = pe.with_inactive(window);
            match near {
                true => pe.polling_neighbours(topology),
                false => pe,
            }
        })
    }

    /// The rounds the run's machine allows synchronous random polling (001 §1.3).
    fn rounds(&self) -> Rounds {
        match &self.driver {
            Driver::Sim(c) => c.sync_rounds(),
            _ => Rounds { length: 1, gather: 0 },
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
        let bound = Propagation::new(self.bound_mode(), seams::bounds(self.mutant));
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
            DetectorKind::Safra => {
                let rules = seams::safra(self.mutant);
                driver.drive(|i| Pe::new(balancer(i), Safra::new(rules)).with_bounds(bound.clone()))
            }
            DetectorKind::Barrier => unreachable!("validated: the barrier detector is the phased machine's"),
        }
    }
}

/// What builds a run's PEs: the registry's balancer of the spec, or a
/// user's balancer with a registry detector ([`UserBalancer`]).
pub trait Compose {
    /// The balancer's name (in the trace header).
    fn balancer_name(&self) -> String;
    /// Hands `driver` the constructor of the PEs of the run `spec`.
    fn compose<V: Drive>(&self, spec: &RunSpec, driver: V) -> V::Output;
}

impl Compose for BalancerSpec {
    fn balancer_name(&self) -> String {
        self.to_string()
    }

    fn compose<V: Drive>(&self, spec: &RunSpec, driver: V) -> V::Output {
        RunSpec { balancer: *self, ..spec.clone() }.drive(driver)
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

    fn compose<V: Drive>(&self, spec: &RunSpec, driver: V) -> V::Output {
        spec.with_balancer(driver, &self.make)
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
