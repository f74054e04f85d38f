//! Composing a run's PEs from registry kinds: the one place where a
//! [`BalancerKind`] and a [`DetectorKind`] become a concrete [`Pe`] type,
//! with the mutant's broken rule at its seam ([`seams`]). Drivers are
//! generic over that type; they receive it through [`Drive`].

use crate::mutants::{seams, Mutant};
use crate::problem::Task;
use crate::protocol::energy::Energy;
use crate::protocol::four_counter::FourCounter;
use crate::protocol::random_polling::RandomPolling;
use crate::protocol::{Balancer, BalancerKind, Detector, DetectorKind, Pe, PeId};

/// The protocols every PE of a run runs, with their parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Protocols {
    /// The load balancer.
    pub balancer: BalancerKind,
    /// The termination detector.
    pub detector: DetectorKind,
    /// Random polling: reject requests that find this many queued (001 §4).
    pub queue_limit: Option<u32>,
    /// The deliberate bug the protocols run with, if any.
    pub mutant: Option<Mutant>,
}

impl Protocols {
    /// The reference protocols `balancer` + `detector`, no parameters, no mutant.
    pub fn new(balancer: BalancerKind, detector: DetectorKind) -> Protocols {
        Protocols { balancer, detector, queue_limit: None, mutant: None }
    }

    /// Hands `driver` the constructor of this run's PEs.
    pub fn drive<V: Drive>(&self, driver: V) -> V::Output {
        match self.balancer {
            BalancerKind::RandomPolling => {
                let (rules, limit) = (seams::polling(self.mutant), self.queue_limit);
                self.with_detector(driver, move || RandomPolling::<Task>::new(rules, limit))
            }
        }
    }

    fn with_detector<V, B>(&self, driver: V, balancer: impl Fn() -> B) -> V::Output
    where
        V: Drive,
        B: Balancer<Task = Task> + Send + 'static,
    {
        let (energy, waves) = (seams::energy(self.mutant), seams::four_counter(self.mutant));
        match self.detector {
            DetectorKind::Energy => driver.drive(|_| Pe::new(balancer(), Energy::new(false, energy))),
            DetectorKind::EnergyTree => driver.drive(|_| Pe::new(balancer(), Energy::new(true, energy))),
            DetectorKind::FourCounter => driver.drive(|_| Pe::new(balancer(), FourCounter::new(waves))),
        }
    }
}

/// A driver, called back with the constructor of the run's PEs.
pub trait Drive {
    /// What the driver returns.
    type Output;
    /// Runs PEs built by `make` (PE number → PE).
    fn drive<B, D>(self, make: impl Fn(PeId) -> Pe<B, D>) -> Self::Output
    where
        B: Balancer<Task = Task> + Send + 'static,
        D: Detector<Task> + Send + 'static;
}
