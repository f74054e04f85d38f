//! Composing a run's PEs from its specification: the one place where a
//! [`BalancerSpec`] and a [`DetectorKind`] become a concrete [`Pe`] type,
//! with the mutant's broken rule at its seam ([`seams`]). Drivers are
//! generic over that type; they receive it through [`Drive`]. Adding a
//! protocol is one file in `protocol/`, its registry arm, and one arm here.
//!
//! Either side may be a user's instead ([`UserBalancer`], [`UserDetector`]):
//! the balancer's arms hand their constructor to whichever detector side
//! the run has, so a user's detector runs with every registry balancer
//! that runs in PEs, and a user's balancer with every registry detector.

use super::driver::Driver;
use super::spec::RunSpec;
use crate::event::TraceHeader;
use crate::mutants::seams;
use crate::problem::Task;
use crate::protocol::energy::Energy;
use crate::protocol::erased::{ErasedBalancer, ErasedDetector};
use crate::protocol::four_counter::FourCounter;
use crate::protocol::pacheco::Pacheco;
use crate::protocol::random_destination::RandomDestination;
use crate::protocol::random_polling::{RandomPolling, RandomPollingParams};
use crate::protocol::safra::Safra;
use crate::protocol::sync_polling::{Rounds, SyncRandomPolling};
use crate::protocol::{Balancer, BalancerKind, BalancerSpec, Detector, DetectorKind, Pe, PeId, Propagation};

impl RunSpec {
    /// Hands `driver` the constructor of this run's PEs (the registry's
    /// balancer with its parameters, and the spec's detector).
    pub fn drive<V: Drive>(&self, driver: V) -> V::Output {
        self.drive_with(&SpecDetector, driver)
    }

    /// [`RunSpec::drive`] with the detectors `detectors` gives.
    fn drive_with<V: Drive>(&self, detectors: &impl DetectorSide, driver: V) -> V::Output {
        match self.balancer {
            BalancerSpec::RandomPolling(p) | BalancerSpec::NeighbourPolling(p) => {
                self.drive_polling(p, detectors, driver)
            }
            BalancerSpec::SyncRandomPolling(_) => {
                let (rules, rounds) = (seams::sync_polling(self.mutant), self.rounds());
                detectors.with(self, driver, move |_| SyncRandomPolling::<Task>::new(rules, rounds))
            }
            BalancerSpec::Pacheco(p) => {
                let (rules, victim) = (seams::pacheco(self.mutant), p.victim());
                detectors.with(self, driver, move |_| Pacheco::<Task>::new(rules, victim))
            }
            BalancerSpec::RandomDestination(_) | BalancerSpec::PriorityBnb(_) => {
                let rules = seams::destinations(self.mutant);
                detectors.with(self, driver, move |_| RandomDestination::<Task>::new(rules))
            }
            BalancerSpec::PollAndShuffle(_) | BalancerSpec::SimdPhase(_) => {
                unreachable!("validated: the phased machine's balancers run there")
            }
        }
    }

    /// Random polling's PEs (neighbourhood polling's: asking network
    /// neighbours of the run's topology, 000 §1.1).
    fn drive_polling<V: Drive>(&self, p: RandomPollingParams, detectors: &impl DetectorSide, driver: V) -> V::Output {
        let rules = seams::polling(self.mutant);
        let near = self.balancer.kind() == BalancerKind::NeighbourPolling || seams::polls_neighbours(self.mutant);
        let (limit, all, slots, off) = (p.queue_limit(self.driver.pes()), p.serves_all(), p.slots(), p.deactivate);
        let topology = self.driver.topology();
        detectors.with(self, driver, move |i| {
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
        SpecDetector.with(self, driver, balancer)
    }

    /// Hands `driver` the constructor of PEs composed of `balancer` and
    /// `detector` (PE number → state), with the run's bound propagation.
    fn with_protocols<V, B, D>(
        &self,
        driver: V,
        balancer: impl Fn(PeId) -> B,
        detector: impl Fn(PeId) -> D,
    ) -> V::Output
    where
        V: Drive,
        B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
        D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    {
        let bound = Propagation::new(self.bound_mode(), seams::bounds(self.mutant));
        let make = move |i| Pe::new(balancer(i), detector(i)).with_bounds(bound.clone());
        #[cfg(not(test))]
        return driver.drive(make);
        // The unit tests' build compiles the whole crate a second time: there
        // every pair runs behind `dyn`, so that each driver is compiled once,
        // not once per pair of protocols (issue 30: the test command's build).
        // The library keeps the simulators' static pairs (their speed), which
        // tests/ and the main job run.
        #[cfg(test)]
        {
            let erased: &dyn Fn(PeId) -> Pe<ErasedBalancer, ErasedDetector> = &|i| make(i).erased();
            driver.drive(erased)
        }
    }
}

/// Where a run's detectors come from: the registry's (the spec's, with
/// the mutant's seams) or a user's. Called back by the balancer's arm.
trait DetectorSide {
    /// Hands `driver` the constructor of PEs that run `balancer` with
    /// these detectors.
    fn with<V, B>(&self, spec: &RunSpec, driver: V, balancer: impl Fn(PeId) -> B) -> V::Output
    where
        V: Drive,
        B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static;
}

/// The spec's detector, from the registry.
struct SpecDetector;

impl DetectorSide for SpecDetector {
    fn with<V, B>(&self, spec: &RunSpec, driver: V, balancer: impl Fn(PeId) -> B) -> V::Output
    where
        V: Drive,
        B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    {
        let (energy, waves) = (seams::energy(spec.mutant), seams::four_counter(spec.mutant));
        match spec.detector {
            DetectorKind::Energy => spec.with_protocols(driver, balancer, |_| Energy::new(false, energy)),
            DetectorKind::EnergyTree => spec.with_protocols(driver, balancer, |_| Energy::new(true, energy)),
            DetectorKind::FourCounter => spec.with_protocols(driver, balancer, |_| FourCounter::new(waves)),
            DetectorKind::Safra => {
                let rules = seams::safra(spec.mutant);
                spec.with_protocols(driver, balancer, |_| Safra::new(rules))
            }
            DetectorKind::Barrier => unreachable!("validated: the barrier detector is the phased machine's"),
        }
    }
}

impl<D, G> DetectorSide for UserDetector<G>
where
    D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    G: Fn(PeId) -> D,
{
    fn with<V, B>(&self, spec: &RunSpec, driver: V, balancer: impl Fn(PeId) -> B) -> V::Output
    where
        V: Drive,
        B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    {
        spec.with_protocols(driver, balancer, &self.make as &dyn Fn(PeId) -> D)
    }
}

/// What builds a run's PEs: the registry's balancer and detector of the
/// spec, or a user's balancer ([`UserBalancer`]), detector
/// ([`UserDetector`]) or both (a pair of them) in their place.
pub trait Compose {
    /// The run's trace header: the spec's, with the user's protocol's
    /// name in place of the spec's (and a user's detector's announcer).
    fn header(&self, spec: &RunSpec) -> TraceHeader {
        spec.header()
    }
    /// Hands `driver` the constructor of the PEs of the run `spec`.
    fn compose<V: Drive>(&self, spec: &RunSpec, driver: V) -> V::Output;
}

impl Compose for BalancerSpec {
    fn compose<V: Drive>(&self, spec: &RunSpec, driver: V) -> V::Output {
        RunSpec { balancer: *self, ..spec.clone() }.drive(driver)
    }
}

/// A user's balancer under test (any [`Balancer`] over lbcheck's
/// workloads), run with the detectors and drivers of the references.
///
/// ```
/// use lbcheck::harness::{Driver, RunSpec, UserBalancer};
/// use lbcheck::mutants::seams;
/// use lbcheck::protocol::random_polling::RandomPolling;
/// use lbcheck::protocol::{BalancerKind, DetectorKind};
/// use lbcheck::sim::SimConfig;
///
/// // Here the "user's" balancer is the reference itself.
/// let mine = UserBalancer { name: "mine".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
/// let driver = Driver::Sim(SimConfig { pes: 4, seed: 1, ..SimConfig::default() });
/// let spec = RunSpec::new("uts:default".parse().unwrap(), BalancerKind::RandomPolling, DetectorKind::Safra, driver);
/// let result = spec.run_composed(&mine, None, &mut |_| {}).unwrap();
/// assert!(result.check.all_pass());
/// ```
pub struct UserBalancer<F> {
    /// Its name, for headers and reports.
    pub name: String,
    /// PE number → the PE's initial balancer state.
    pub make: F,
}

/// A user's constructor (PE number → state) behind `dyn`: what
/// [`UserBalancer::erased`] and [`UserDetector::erased`] give, with `T`
/// an [`ErasedBalancer`] or [`ErasedDetector`].
pub type DynMake<'a, T> = Box<dyn Fn(PeId) -> T + Sync + 'a>;

impl<F> UserBalancer<F> {
    /// This balancer behind `dyn`: its constructor boxed, its states
    /// [`ErasedBalancer`]s. Every protocol type and every closure is a type
    /// of its own, so lbcheck's generic campaign code, fed them, would be
    /// compiled again for each in a user's crate (a release build shares no
    /// generic code between crates); fed this, it is compiled once, in
    /// lbcheck. The campaign's entry points ([`crate::campaign::user`],
    /// [`crate::testing`]) erase what they are given.
    pub fn erased<B>(&self) -> UserBalancer<DynMake<'_, ErasedBalancer>>
    where
        B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
        F: Fn(PeId) -> B + Sync,
    {
        UserBalancer { name: self.name.clone(), make: Box::new(|pe| ErasedBalancer::new((self.make)(pe))) }
    }
}

impl<B, F> Compose for UserBalancer<F>
where
    B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    F: Fn(PeId) -> B,
{
    fn header(&self, spec: &RunSpec) -> TraceHeader {
        TraceHeader { balancer: self.name.clone(), ..spec.header() }
    }

    fn compose<V: Drive>(&self, spec: &RunSpec, driver: V) -> V::Output {
        // Behind `dyn`: the drivers compiled once per balancer type, not per closure.
        spec.with_balancer(driver, &self.make as &dyn Fn(PeId) -> B)
    }
}

/// A user's termination detector under test (any [`Detector`] over
/// lbcheck's workloads), run with the balancers and drivers of the
/// references: every registry balancer that runs in PEs (not the phased
/// machine's, whose barriers detect termination), and a user's balancer
/// (the pair `(&UserBalancer, &UserDetector)` composes both). The trace
/// names it as the `detector`, with the announcer it declares
/// ([`Detector::announcer`]) as the header's `announcer`; its own
/// messages are control messages ([`crate::protocol::Msg::control`]).
///
/// ```
/// use lbcheck::harness::{Driver, RunSpec, UserDetector};
/// use lbcheck::mutants::seams;
/// use lbcheck::protocol::four_counter::FourCounter;
/// use lbcheck::protocol::{BalancerKind, DetectorKind};
/// use lbcheck::sim::SimConfig;
///
/// // Here the "user's" detector is the reference four-counter itself.
/// let mine = UserDetector { name: "mine".into(), make: |_| FourCounter::new(seams::four_counter(None)) };
/// let driver = Driver::Sim(SimConfig { pes: 4, seed: 1, ..SimConfig::default() });
/// // The spec's detector is a placeholder: the user's runs in its place.
/// let spec = RunSpec::new("uts:default".parse().unwrap(), BalancerKind::Pacheco, DetectorKind::Energy, driver);
/// let result = spec.run_composed(&mine, None, &mut |_| {}).unwrap();
/// assert!(result.check.all_pass(), "{:?}", result.check.failures());
/// ```
pub struct UserDetector<G> {
    /// Its name, for headers and reports (the trace's `detector`).
    pub name: String,
    /// PE number → the PE's initial detector state.
    pub make: G,
}

impl<G> UserDetector<G> {
    /// This detector behind `dyn` (as [`UserBalancer::erased`]).
    pub fn erased<D>(&self) -> UserDetector<DynMake<'_, ErasedDetector>>
    where
        D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
        G: Fn(PeId) -> D + Sync,
    {
        UserDetector { name: self.name.clone(), make: Box::new(|pe| ErasedDetector::new((self.make)(pe))) }
    }
}

impl<D, G> UserDetector<G>
where
    D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    G: Fn(PeId) -> D,
{
    /// `header` naming this detector and its announcer (PE 0 unwritten).
    fn named(&self, header: TraceHeader) -> TraceHeader {
        let announcer = (self.make)(0).announcer(header.pes);
        TraceHeader { detector: self.name.clone(), announcer: (announcer != 0).then_some(announcer), ..header }
    }
}

impl<D, G> Compose for UserDetector<G>
where
    D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    G: Fn(PeId) -> D,
{
    fn header(&self, spec: &RunSpec) -> TraceHeader {
        self.named(spec.header())
    }

    fn compose<V: Drive>(&self, spec: &RunSpec, driver: V) -> V::Output {
        let erased = UserDetector { name: String::new(), make: &self.make as &dyn Fn(PeId) -> D };
        spec.drive_with(&erased, driver)
    }
}

/// A user's balancer with a user's detector.
impl<B, F, D, G> Compose for (&UserBalancer<F>, &UserDetector<G>)
where
    B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    F: Fn(PeId) -> B,
    D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    G: Fn(PeId) -> D,
{
    fn header(&self, spec: &RunSpec) -> TraceHeader {
        self.1.named(self.0.header(spec))
    }

    fn compose<V: Drive>(&self, spec: &RunSpec, driver: V) -> V::Output {
        let erased = UserDetector { name: String::new(), make: &self.1.make as &dyn Fn(PeId) -> D };
        erased.with(spec, driver, &self.0.make as &dyn Fn(PeId) -> B)
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
