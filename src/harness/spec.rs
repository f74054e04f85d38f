//! [`RunSpec`]: everything that defines a run, whatever the driver; its
//! validation, its trace header, and its reconstruction from a header.

use std::fmt::Display;
use std::str::FromStr;

use super::compose::Protocols;
use crate::event::{RunParams, TraceHeader, TRACE_VERSION};
use crate::mutants::{Mutant, Site};
use crate::problem::dfs::Strategy;
use crate::problem::Workload;
use crate::protocol::initial::InitialSplit;
use crate::protocol::pacheco::Victim;
use crate::protocol::random_polling::Deactivation;
use crate::protocol::{BalancerKind, BoundMode};
use crate::runtime::mpi::MpiConfig;
use crate::runtime::threads::ThreadConfig;
use crate::sim::atomic::{Arbiter, AtomicConfig};
use crate::sim::phased::trigger::Trigger;
use crate::sim::phased::SyncMode;
use crate::sim::{MachineKind, Schedule, Shape, SimConfig, Topology};

use super::driver::{Driver, DriverKind};

/// Everything that defines a run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSpec {
    /// What is computed.
    pub workload: Workload,
    /// DFS-stack split strategy.
    pub split: Strategy,
    /// Balancer, detector, their parameters, the mutant.
    pub protocols: Protocols,
    /// The driver and its parameters.
    pub driver: Driver,
}

impl RunSpec {
    /// The deliberate bug of the run, if any.
    pub fn mutant(&self) -> Option<Mutant> {
        self.protocols.mutant
    }

    /// Checks the driver's parameters and that the mutant acts in this run.
    pub fn validate(&self) -> Result<(), String> {
        self.driver.validate()?;
        let (balancer, atomic) = (self.protocols.balancer, matches!(self.driver, Driver::Atomic(_)));
        if balancer.atomic() != atomic {
            return Err(match atomic {
                true => format!("balancer `{balancer}` does not run on the atomic machine: use --balancer random-destination"),
                false => format!("balancer `{balancer}` runs on 004's atomic machine: use `lbcheck simulate --machine atomic` (or complete)"),
            });
        }
        if balancer.phased() || self.protocols.detector.phased() {
            self.phased_fits()?;
        }
        if balancer.needs_model_time() && self.driver.real() {
            return Err(format!("balancer `{balancer}` runs in rounds of model time (001 §1.3): use `lbcheck simulate` or `lbcheck explore`, not real threads or MPI"));
        }
        self.sync_fits()?;
        if self.protocols.trigger != Trigger::Cycle && balancer != BalancerKind::PollAndShuffle {
            return Err(format!("--trigger is poll-and-shuffle's (000 §5), not balancer `{balancer}`'s"));
        }
        if self.protocols.serve_all && balancer != BalancerKind::RandomPolling {
            return Err(format!("--serve all is random polling's (003 §14.7.2), not balancer `{balancer}`'s"));
        }
        if self.protocols.slots != 1 && balancer != BalancerKind::RandomPolling {
            return Err(format!("--slots 2 is random polling's (002 §3), not balancer `{balancer}`'s"));
        }
        if let Some(m @ (Mutant::SlotOverwrite | Mutant::SplitDeepestSlot)) = self.mutant() {
            if self.protocols.slots != 2 {
                return Err(format!("mutant `{m}` acts with two slots per PE: add --slots 2"));
            }
        }
        if let Some(d) = self.protocols.deactivate {
            self.deactivation_fits(d)?;
        }
        if self.protocols.victim != Victim::Random && balancer != BalancerKind::Pacheco {
            return Err(format!("--victim is Pacheco's search's (003 §14.7.3), not balancer `{balancer}`'s"));
        }
        if balancer == BalancerKind::Pacheco {
            self.pacheco_fits()?;
        }
        let Some(m) = self.mutant() else { return Ok(()) };
        if m.entry().site == Site::BoundPropagation && !self.workload.prunes() {
            return Err(format!("mutant `{m}` acts in branch-and-bound's bound propagation: use a pruning workload (knapsack, tsp, golomb, the last puzzle15 iteration); it would have no effect in this run"));
        }
        if m == Mutant::StopNotForwarded && self.protocols.bound != BoundMode::FirstSolution {
            return Err(format!("mutant `{m}` acts in first-solution mode: add --bound first-solution"));
        }
        if m == Mutant::InactiveSilent && self.protocols.deactivate.is_none() {
            return Err(format!("mutant `{m}` acts in a deactivated worker: add --deactivate PE:FROM..TO"));
        }
        if m == Mutant::HopsIgnored && !matches!(self.driver, Driver::Sim(c) if c.topology != Topology::Crossbar) {
            return Err(format!("mutant `{m}` acts in the network of a topology: add --topology hypercube (or mesh:R, fat-tree, butterfly, ccc)"));
        }
        if m == Mutant::BoundLost && self.protocols.bound != BoundMode::ReduceTree {
            return Err(format!("mutant `{m}` acts where bounds are passed on, in --bound reduce-tree"));
        }
        if m.adaptive_trigger() && self.protocols.trigger == Trigger::Cycle {
            return Err(format!("mutant `{m}` acts in poll-and-shuffle's adaptive trigger (000 §5): add --trigger adaptive; it would have no effect in this run"));
        }
        if m == Mutant::QueueLimitIgnored && self.protocols.queue_limit.is_none() {
            return Err(format!("mutant `{m}` ignores queue trimming: add --queue-limit N or sqrt"));
        }
        if m == Mutant::ServeOneDropRest && self.protocols.serve_all {
            return Err(format!("mutant `{m}` drops the requests a poll leaves queued; with --serve all none are left: it would have no effect in this run"));
        }
        if let (Site::AtomicMachine, Driver::Atomic(c)) = (m.entry().site, &self.driver) {
            if c.complete || (m == Mutant::ArbiterLifoAsFifo && c.arbiter != Arbiter::Fifo) {
                return Err(format!(
                    "mutant `{m}` acts only on --machine atomic --arbiter fifo; it would have no effect in this run"
                ));
            }
        }
        if m.entry().site == Site::ThreadedDriver && matches!(self.driver, Driver::Mpi(_)) {
            return Err(format!("mutant `{m}` is a bug of the threaded driver: use `lbcheck run` (loom catches it); it would have no effect in this run"));
        }
        let threaded = self.driver.real();
        match m.not_applicable(self.protocols.balancer, self.protocols.detector, threaded) {
            Some(why) => Err(format!("{why}; it would have no effect in this run")),
            None => Ok(()),
        }
    }

    /// A deactivated worker (002 §3): random polling with one slot, on the
    /// simulator (whose model time the window is in), an existing PE.
    fn deactivation_fits(&self, d: Deactivation) -> Result<(), String> {
        if self.protocols.balancer != BalancerKind::RandomPolling || self.protocols.slots != 1 {
            return Err("--deactivate is random polling's deactivated worker (002 §3), with one slot".into());
        }
        if !matches!(self.driver, Driver::Sim(_)) {
            return Err("--deactivate needs model time: use `lbcheck simulate` on the async machine".into());
        }
        if d.pe >= self.driver.pes() {
            return Err(format!("--deactivate {d}: there is no PE {} among {} PEs", d.pe, self.driver.pes()));
        }
        Ok(())
    }

    /// Poll-and-shuffle runs on the phased machine (000 §3): P a power of
    /// two, the barrier detector, fixed latencies, none of 001's extras.
    fn phased_fits(&self) -> Result<(), String> {
        let (balancer, detector) = (self.protocols.balancer, self.protocols.detector);
        if balancer.phased() != detector.phased() {
            return Err(match balancer.phased() {
                true => format!("balancer `{balancer}` detects termination at its barriers: use --termination barrier (its default)"),
                false => format!("--termination barrier is the phased machine's (000 §3): use --balancer poll-and-shuffle, not `{balancer}`"),
            });
        }
        let Driver::Sim(c) = &self.driver else {
            return Err(format!("balancer `{balancer}` runs on 000's phased machine: use `lbcheck simulate`"));
        };
        if !c.pes.is_power_of_two() {
            return Err(format!(
                "the phased machine numbers PEs as hypercube nodes (000 §3.1, §1.1): P must be a power of two for `{balancer}`, not {}",
                c.pes
            ));
        }
        let extras = c.latency.is_some() || c.slow.is_some() || c.o + c.g + c.t_poll > 0 || c.fifo_links;
        if extras || c.shape != Shape::Uniform || c.schedule != Schedule::Plain || self.driver.initial_split() {
            return Err("the phased machine (000 §2.1) takes --dt (T_phase), --t-rout, --t-split and --topology; not --latency, its shape or schedule, --fifo-links, --slow, --o, --g, --t-poll or --initial-split".into());
        }
        if self.workload.prunes() {
            return Err("poll-and-shuffle runs order-independent trees (000 §2.1), not branch-and-bound".into());
        }
        Ok(())
    }

    /// `--sync local` is poll-and-shuffle's (000 §6.3), and mutants
    /// `no-phase-wait` and `wait-wrong-dimension` act only there.
    fn sync_fits(&self) -> Result<(), String> {
        let (balancer, local) = (self.protocols.balancer, self.protocols.sync == SyncMode::Local);
        if local && balancer != BalancerKind::PollAndShuffle {
            return Err(format!("--sync local is poll-and-shuffle's (000 §6.3, Fig. 4), not balancer `{balancer}`'s"));
        }
        if local && self.protocols.trigger != Trigger::Cycle {
            return Err("--trigger adaptive runs on the global clock (000 §5): drop --sync local".into());
        }
        if let Some(m @ (Mutant::NoPhaseWait | Mutant::WaitWrongDimension)) = self.mutant() {
            if !local && balancer.phased() {
                return Err(format!("mutant `{m}` acts in local synchronisation: add --sync local"));
            }
        }
        Ok(())
    }

    /// Pacheco's search has its own start (Generate + Scatter) and answers
    /// every request at a service point.
    fn pacheco_fits(&self) -> Result<(), String> {
        if self.driver.initial_split() {
            return Err("Pacheco's search starts with Generate + Scatter (003 §14.7); --initial-split is random polling's (002 §3)".into());
        }
        if self.protocols.queue_limit.is_some() {
            return Err(
                "--queue-limit is random polling's (001 §4); Pacheco's Service_requests answers every request".into()
            );
        }
        if self.mutant() == Some(Mutant::GrrNoIncrement) && self.protocols.victim != Victim::GlobalRr {
            return Err("mutant `grr-no-increment` acts in global round robin: add --victim global-rr".into());
        }
        Ok(())
    }

    /// The trace header of this run: what ran, and how to replay it.
    pub fn header(&self) -> TraceHeader {
        let (t_split, clock) = match &self.driver {
            Driver::Sim(c) => (c.t_split, crate::event::Clock::Work),
            Driver::Atomic(_) => (0, crate::event::Clock::Step),
            Driver::Threads(_) => (0, crate::runtime::CLOCK),
            Driver::Mpi(_) => (0, crate::event::Clock::Seq), // sequence numbers of the Lamport order
        };
        TraceHeader {
            version: TRACE_VERSION,
            pes: self.driver.pes(),
            workload: self.workload.to_string(),
            split: self.split.to_string(),
            balancer: self.protocols.balancer.to_string(),
            detector: self.protocols.detector.to_string(),
            t_split,
            clock,
            run: Some(Box::new(self.run_params())),
            fingerprint: None,
            units: None,
            announcer: None,
        }
    }

    fn run_params(&self) -> RunParams {
        let p = &self.protocols;
        let common = RunParams {
            driver: self.driver.kind().to_string(),
            seed: self.driver.seed(),
            dt: self.driver.dt(),
            initial_split: self.driver.initial_split(),
            initial_random: self.driver.initial().random(),
            queue_limit: p.queue_limit,
            serve_all: p.serve_all,
            victim: (p.balancer == BalancerKind::Pacheco).then(|| p.victim.to_string()),
            slots: Some(p.slots).filter(|&s| s != 1),
            bound: self.workload.prunes().then(|| p.bound.to_string()),
            deactivate: p.deactivate.map(|d| d.to_string()),
            mutant: p.mutant.map(|m| m.to_string()),
            ..RunParams::default()
        };
        match &self.driver {
            Driver::Sim(c) => RunParams {
                machine: Some(if p.balancer.phased() { MachineKind::Phased } else { MachineKind::Async }.to_string()),
                permutation: p.balancer.phased().then(|| p.permutation.to_string()),
                sync: p.balancer.phased().then(|| p.sync.to_string()),
                trigger: (p.balancer.phased() && p.trigger != Trigger::Cycle).then(|| p.trigger.to_string()),
                t_rout: Some(c.t_rout),
                o: c.o,
                g: c.g,
                t_poll: c.t_poll,
                latency: c.latency.map(|(a, b)| [a, b]),
                shape: (c.shape != Shape::Uniform).then(|| c.shape.to_string()),
                schedule: (c.schedule != Schedule::Plain).then(|| c.schedule.to_string()),
                fifo_links: c.fifo_links,
                topology: (c.topology != Topology::Crossbar).then(|| c.topology.to_string()),
                slow: c.slow,
                max_steps: Some(c.max_steps),
                detect_horizon: Some(c.horizon),
                ..common
            },
            Driver::Atomic(c) => RunParams {
                machine: Some(if c.complete { MachineKind::Complete } else { MachineKind::Atomic }.to_string()),
                arbiter: (!c.complete).then(|| c.arbiter.to_string()),
                max_runs: (c.arbiter == Arbiter::Adversary && !c.complete).then_some(c.max_runs),
                max_steps: Some(c.max_steps),
                ..common
            },
            Driver::Threads(_) | Driver::Mpi(_) => common,
        }
    }

    /// The run a header written by lbcheck describes (`None` for a trace
    /// without the `run` record, e.g. from another implementation).
    pub fn from_header(h: &TraceHeader) -> Result<Option<RunSpec>, String> {
        let Some(r) = &h.run else { return Ok(None) };
        let mut protocols = Protocols::new(field("balancer", &h.balancer)?, field("detector", &h.detector)?);
        protocols.queue_limit = r.queue_limit;
        protocols.serve_all = r.serve_all;
        protocols.slots = r.slots.unwrap_or(1);
        protocols.bound = r.bound.as_deref().map(|b| field("run.bound", b)).transpose()?.unwrap_or_default();
        protocols.deactivate = r.deactivate.as_deref().map(|d| field("run.deactivate", d)).transpose()?;
        protocols.victim = r.victim.as_deref().map(|v| field("run.victim", v)).transpose()?.unwrap_or_default();
        protocols.mutant = r.mutant.as_deref().map(|m| field("run.mutant", m)).transpose()?;
        protocols.permutation =
            r.permutation.as_deref().map(|m| field("run.permutation", m)).transpose()?.unwrap_or_default();
        protocols.sync = r.sync.as_deref().map(|m| field("run.sync", m)).transpose()?.unwrap_or_default();
        protocols.trigger = r.trigger.as_deref().map(|t| field("run.trigger", t)).transpose()?.unwrap_or_default();
        let (workload, split, driver) = (field("workload", &h.workload)?, field("split", &h.split)?, driver_of(h, r)?);
        let protocols = protocols.on(&driver);
        Ok(Some(RunSpec { workload, split, protocols, driver }))
    }
}

/// Header field `what`, parsed (the error names the field).
fn field<T: FromStr>(what: &str, s: &str) -> Result<T, String>
where
    T::Err: Display,
{
    s.parse().map_err(|e| format!("header `{what}`: {e}"))
}

/// The driver a header's `run` record describes.
fn driver_of(h: &TraceHeader, r: &RunParams) -> Result<Driver, String> {
    let kind: DriverKind = field("run.driver", &r.driver)?;
    let (pes, seed, dt) = (h.pes, r.seed, r.dt);
    let initial_split = InitialSplit::of_header(r.initial_split, r.initial_random).map_err(|e| e.to_string())?;
    let machine: MachineKind = field("run.machine", r.machine.as_deref().unwrap_or("async"))?;
    Ok(match kind {
        DriverKind::Sim | DriverKind::Explorer if !matches!(machine, MachineKind::Async | MachineKind::Phased) => {
            let d = AtomicConfig::default();
            Driver::Atomic(AtomicConfig {
                pes,
                seed,
                complete: machine == MachineKind::Complete,
                arbiter: r.arbiter.as_deref().map(|a| field("run.arbiter", a)).transpose()?.unwrap_or(d.arbiter),
                max_steps: r.max_steps.unwrap_or(d.max_steps),
                max_runs: r.max_runs.unwrap_or(d.max_runs),
                ..d
            })
        }
        DriverKind::Sim | DriverKind::Explorer => {
            let d = SimConfig::default();
            Driver::Sim(SimConfig {
                pes,
                seed,
                dt,
                t_rout: r.t_rout.unwrap_or(d.t_rout),
                t_split: h.t_split,
                o: r.o,
                g: r.g,
                t_poll: r.t_poll,
                latency: r.latency.map(|[a, b]| (a, b)),
                shape: r.shape.as_deref().map(|x| field("run.shape", x)).transpose()?.unwrap_or_default(),
                schedule: r.schedule.as_deref().map(|x| field("run.schedule", x)).transpose()?.unwrap_or_default(),
                fifo_links: r.fifo_links,
                topology: r.topology.as_deref().map(|x| field("run.topology", x)).transpose()?.unwrap_or_default(),
                slow: r.slow,
                initial_split,
                max_steps: r.max_steps.unwrap_or(d.max_steps),
                horizon: r.detect_horizon.unwrap_or(0),
            })
        }
        DriverKind::Threads | DriverKind::Loom => {
            Driver::Threads(ThreadConfig { pes, seed, dt, initial_split, ..ThreadConfig::default() })
        }
        DriverKind::Mpi => Driver::Mpi(MpiConfig { pes, seed, dt, initial_split, ..MpiConfig::default() }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::DetectorKind;

    fn mpi_spec(balancer: BalancerKind, mutant: Option<Mutant>) -> RunSpec {
        RunSpec {
            workload: "uts:T1".parse().unwrap(),
            split: Strategy::AllHalf,
            protocols: Protocols::new(balancer, DetectorKind::FourCounter).with_mutant(mutant),
            driver: Driver::Mpi(MpiConfig { pes: 4, seed: 7, dt: 32, ..MpiConfig::default() }),
        }
    }

    /// An MPI run's header says `driver: mpi` and `clock: seq`, and turns
    /// back into the same run and its `mpirun` replay command.
    #[test]
    fn an_mpi_header_replays_as_mpirun() {
        let spec = mpi_spec(BalancerKind::RandomPolling, Some(Mutant::SplitLoses));
        spec.validate().unwrap();
        let h = spec.header();
        assert_eq!((h.clock, h.run.as_ref().unwrap().driver.as_str()), (crate::event::Clock::Seq, "mpi"));
        assert_eq!(RunSpec::from_header(&h).unwrap(), Some(spec.clone()));
        let replay = spec.replay();
        assert!(replay.starts_with("mpirun --oversubscribe -np 4 lbcheck mpi "), "{replay}");
        assert!(replay.contains("--seed 7 --dt 32") && replay.contains("--mutant split-loses"), "{replay}");
        assert!(!replay.contains("--timeout"), "the default timeout is not repeated: {replay}");
    }

    #[test]
    fn mpi_refuses_model_time_and_threaded_driver_bugs() {
        let sync = mpi_spec(BalancerKind::SyncRandomPolling, None).validate().unwrap_err();
        assert!(sync.contains("model time"), "{sync}");
        let wakeup = mpi_spec(BalancerKind::RandomPolling, Some(Mutant::LostWakeup)).validate().unwrap_err();
        assert!(wakeup.contains("threaded driver"), "{wakeup}");
        let pause = mpi_spec(BalancerKind::RandomPolling, Some(Mutant::WavePause)).validate().unwrap_err();
        assert!(pause.contains("model time"), "{pause}");
    }
}
