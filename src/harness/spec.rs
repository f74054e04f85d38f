//! [`RunSpec`]: everything that defines a run, whatever the driver, as one
//! serde type (../shared/ARCHITECTURE.md "The run specification"): the
//! CLI parses into it, `--print-spec`/`--spec FILE` write and read it, the
//! trace header carries it ([`super::header`]), the replay command is
//! derived from it ([`super::replay`]); and its validation.

use serde::{Deserialize, Serialize};

use super::driver::Driver;
use crate::mutants::{Mutant, Need, Site};
use crate::problem::dfs::Strategy;
use crate::problem::{Workload, WorkloadFamily};
use crate::protocol::{BalancerKind, BalancerSpec, BoundMode, DetectorKind, ParamsError};
use crate::sim::{ConfigError, Schedule, Shape, SimConfig};

/// Everything that defines a run. Its JSON (`lbcheck simulate
/// --print-spec`) names every parameter as its flag does, each optional
/// one absent at its default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    /// The load balancer with its parameters.
    pub balancer: BalancerSpec,
    /// The termination detector (`--termination`).
    #[serde(rename = "termination")]
    pub detector: DetectorKind,
    /// What is computed.
    pub workload: Workload,
    /// DFS-stack split strategy.
    pub split: Strategy,
    /// The driver and its machine's parameters.
    pub driver: Driver,
    /// Branch-and-bound workloads: how improved bounds travel (S-12;
    /// absent: along the reduction tree).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<BoundMode>,
    /// The deliberate bug the protocols (or the driver) run with, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutant: Option<Mutant>,
}

/// Why a run specification cannot run as given; the message names the
/// flag and says what would fit.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpecError {
    /// A driver parameter out of its range.
    #[error(transparent)]
    Driver(#[from] ConfigError),
    /// A protocol parameter that does not fit the run (e.g. another protocol's flag).
    #[error(transparent)]
    Params(#[from] ParamsError),
    /// The balancer, the detector and the machine do not go together.
    #[error("{0}")]
    Machine(String),
    /// `--bound` on a workload without bound propagation.
    #[error("--bound is for branch-and-bound workloads that prune (knapsack, tsp, golomb, the last puzzle15 iteration), not `{0}`")]
    BoundWithoutPruning(String),
    /// The mutant acts nowhere in this run.
    #[error("{why}; it would have no effect in this run")]
    MutantInert {
        /// The mutant.
        mutant: Mutant,
        /// Where it acts instead.
        why: String,
    },
    /// The mutant needs something of the run that it lacks.
    #[error("mutant `{mutant}` {}", need.advice())]
    MutantNeeds {
        /// The mutant.
        mutant: Mutant,
        /// What it needs.
        need: Need,
    },
}

impl RunSpec {
    /// `balancer` + `detector` on `workload` and `driver`: the default
    /// split, bounds and parameters, no mutant.
    pub fn new(workload: Workload, balancer: impl Into<BalancerSpec>, detector: DetectorKind, driver: Driver) -> Self {
        let (balancer, split) = (balancer.into(), Strategy::default());
        RunSpec { balancer, detector, workload, split, driver, bound: None, mutant: None }
    }

    /// The deliberate bug of the run, if any.
    pub fn mutant(&self) -> Option<Mutant> {
        self.mutant
    }

    /// How bounds travel (the reduction tree unless `--bound` says otherwise).
    pub fn bound_mode(&self) -> BoundMode {
        self.bound.unwrap_or_default()
    }

    /// Checks the driver's parameters, that balancer, detector and machine
    /// go together, the protocol's parameters, and that the mutant acts.
    pub fn validate(&self) -> Result<(), SpecError> {
        self.driver.validate()?;
        self.machine_fits()?;
        self.balancer.validate(self.driver.pes(), matches!(self.driver, Driver::Sim(_)))?;
        if self.bound.is_some() && !self.workload.prunes() {
            return Err(SpecError::BoundWithoutPruning(self.workload.to_string()));
        }
        match self.mutant {
            Some(m) => self.mutant_acts(m),
            None => Ok(()),
        }
    }

    /// The balancer runs on the driver's machine, with the detector it needs.
    fn machine_fits(&self) -> Result<(), SpecError> {
        let (balancer, atomic) = (self.balancer.kind(), matches!(self.driver, Driver::Atomic(_)));
        if balancer.atomic() != atomic {
            return Err(SpecError::Machine(match atomic {
                true => format!("balancer `{balancer}` does not run on the atomic machine: use --balancer random-destination"),
                false => format!("balancer `{balancer}` runs on 004's atomic machine: use `lbcheck simulate --machine atomic` (or complete)"),
            }));
        }
        if balancer.phased() || self.detector.phased() {
            self.phased_fits()?;
        }
        if balancer.needs_model_time() && self.driver.real() {
            return Err(SpecError::Machine(format!("balancer `{balancer}` runs in rounds of model time (001 §1.3): use `lbcheck simulate` or `lbcheck explore`, not real threads or MPI")));
        }
        if balancer == BalancerKind::PriorityBnb && self.workload.family() != WorkloadFamily::Kz {
            let w = &self.workload;
            return Err(SpecError::Machine(format!("balancer `priority-bnb` expands vertices best cost first (004 §6): it needs a tree with vertex costs, `kz:depth=D,seed=S`, not `{w}`")));
        }
        if atomic && self.workload.prunes() {
            let w = &self.workload;
            return Err(SpecError::Machine(format!("004's atomic machine runs backtrack search, which examines every vertex (004 §4.1), and best-first search of cost trees (kz, 004 §6), with no bound propagation: `{w}` is depth-first branch-and-bound, run it on 001's machine (--machine async)")));
        }
        if balancer == BalancerKind::Pacheco && self.driver.initial_split() {
            return Err(SpecError::Machine("Pacheco's search starts with Generate + Scatter (003 §14.7); --initial-split is random polling's (002 §3)".into()));
        }
        Ok(())
    }

    /// The phased machine's balancers (000 §3): P a power of two, the
    /// barrier detector, fixed latencies, none of 001's extras.
    fn phased_fits(&self) -> Result<(), SpecError> {
        let (balancer, detector) = (self.balancer.kind(), self.detector);
        if balancer.phased() != detector.phased() {
            return Err(SpecError::Machine(match balancer.phased() {
                true => format!("balancer `{balancer}` detects termination at its barriers: use --termination barrier (its default)"),
                false => format!("--termination barrier is the phased machine's (000 §3): use --balancer poll-and-shuffle, not `{balancer}`"),
            }));
        }
        let Driver::Sim(c) = &self.driver else {
            return Err(SpecError::Machine(format!(
                "balancer `{balancer}` runs on 000's phased machine: use `lbcheck simulate`"
            )));
        };
        if self.workload.prunes() {
            return Err(SpecError::Machine(format!(
                "balancer `{balancer}` runs order-independent trees (000 §2.1), not branch-and-bound"
            )));
        }
        phased_machine(balancer, c)
    }

    /// The mutant acts in this run: at its site, with everything it needs.
    fn mutant_acts(&self, m: Mutant) -> Result<(), SpecError> {
        let inert = |why: String| SpecError::MutantInert { mutant: m, why };
        if let Some(why) = m.not_applicable(self.balancer.kind(), self.detector, self.driver.real()) {
            return Err(inert(why));
        }
        if let Some(why) = self.site_missing(m) {
            return Err(inert(why));
        }
        match m.entry().needs.iter().find(|&&need| !self.holds(need)) {
            Some(&need) => Err(SpecError::MutantNeeds { mutant: m, need }),
            None => Ok(()),
        }
    }

    /// What of the mutant's site this run lacks, if anything.
    fn site_missing(&self, m: Mutant) -> Option<String> {
        match (m.entry().site, &self.driver) {
            (Site::BoundPropagation, _) if !self.workload.prunes() => Some(format!("mutant `{m}` acts in branch-and-bound's bound propagation: use a pruning workload (knapsack, tsp, golomb, the last puzzle15 iteration)")),
            (Site::AtomicMachine, Driver::Atomic(c)) if c.complete => Some(format!("mutant `{m}` acts only on --machine atomic --arbiter fifo")),
            (Site::ThreadedDriver, Driver::Mpi(_)) => Some(format!("mutant `{m}` is a bug of the threaded driver: use `lbcheck run` (loom catches it)")),
            _ => None,
        }
    }
}

/// 000's phased machine (§2.1, §3.1): P a power of two, fixed latencies,
/// none of 001's extras.
fn phased_machine(balancer: BalancerKind, c: &SimConfig) -> Result<(), SpecError> {
    if !c.pes.is_power_of_two() {
        let p = c.pes;
        return Err(SpecError::Machine(format!("the phased machine numbers PEs as hypercube nodes (000 §3.1, §1.1): P must be a power of two for `{balancer}`, not {p}")));
    }
    let extras = c.latency.is_some() || c.slow.is_some() || c.o + c.g + c.t_poll > 0 || c.fifo_links;
    let links = c.routing.is_some() || c.msg_len.is_some() || c.max_time.is_some();
    if extras || links || c.shape != Shape::Uniform || c.schedule != Schedule::Plain || c.initial_split.is_split() {
        return Err(SpecError::Machine("the phased machine (000 §2.1) takes --dt (T_phase), --t-rout, --t-split and --topology; not --latency, its shape or schedule, --fifo-links, --slow, --o, --g, --t-poll, --initial-split, --routing, --msg-len or a time cap".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::mpi::MpiConfig;

    fn mpi_spec(balancer: BalancerKind, mutant: &str) -> RunSpec {
        let driver = Driver::Mpi(MpiConfig { pes: 4, seed: 7, dt: 32, ..MpiConfig::default() });
        let spec = RunSpec::new("uts:T1".parse().unwrap(), balancer, DetectorKind::FourCounter, driver);
        RunSpec { split: Strategy::AllHalf, ..spec }.with_mutant(Some(mutant.parse().unwrap()))
    }

    /// An MPI run's header says `clock: seq`, carries the MPI driver, and
    /// turns back into the same run and its `mpirun` replay command.
    #[test]
    fn an_mpi_header_replays_as_mpirun() {
        let spec = mpi_spec(BalancerKind::RandomPolling, "split-loses");
        spec.validate().unwrap();
        let h = spec.header();
        assert_eq!((h.clock, &h.spec.as_ref().unwrap()["driver"]["name"]), (crate::event::Clock::Seq, &"mpi".into()));
        assert_eq!(RunSpec::from_header(&h).unwrap(), Some(spec.clone()));
        let replay = spec.replay();
        assert!(replay.starts_with("mpirun --oversubscribe -np 4 lbcheck mpi "), "{replay}");
        assert!(replay.contains("--seed 7 --dt 32") && replay.contains("--mutant split-loses"), "{replay}");
        assert!(!replay.contains("--timeout") && !replay.contains("--pes"), "{replay}");
    }

    #[test]
    fn mpi_refuses_model_time_and_threaded_driver_bugs() {
        let sync = RunSpec { mutant: None, ..mpi_spec(BalancerKind::SyncRandomPolling, "split-loses") };
        assert!(sync.validate().unwrap_err().to_string().contains("model time"));
        let wakeup = mpi_spec(BalancerKind::RandomPolling, "lost-wakeup").validate().unwrap_err();
        assert!(
            matches!(wakeup, SpecError::MutantInert { .. }) && wakeup.to_string().contains("threaded driver"),
            "{wakeup}"
        );
        let pause = mpi_spec(BalancerKind::RandomPolling, "wave-pause").validate().unwrap_err();
        assert!(pause.to_string().contains("model time"), "{pause}");
    }

    /// A mutant's need is refused with the declaration's advice, and
    /// provided by `with_mutant`.
    #[test]
    fn needs_are_refused_then_provided() {
        let driver = Driver::Sim(SimConfig { pes: 8, ..SimConfig::default() });
        let base = RunSpec::new("uts:T1".parse().unwrap(), BalancerKind::RandomPolling, DetectorKind::Energy, driver);
        let slots: Mutant = "slot-overwrite".parse().unwrap();
        let refused = RunSpec { mutant: Some(slots), ..base.clone() }.validate().unwrap_err();
        assert_eq!(refused, SpecError::MutantNeeds { mutant: slots, need: Need::TwoSlots });
        assert!(refused.to_string().ends_with("add --slots 2"), "{refused}");
        let provided = base.with_mutant(Some(slots));
        assert_eq!(provided.balancer.polling().unwrap().slots, Some(2));
        provided.validate().unwrap();
    }
}
