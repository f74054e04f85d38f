//! The one checked run: the reference computed once, the header written,
//! every event a driver emits checked (and written to the trace), the
//! verdicts and metrics returned. Drivers only turn effects into events.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use super::compose::{Compose, Drive};
use super::driver::Driver;
use super::reference::reference;
use super::session::Session;
use super::spec::RunSpec;
use crate::base::caught::{caught, PROTOCOL_ASSERTION};
use crate::base::rng::{stream, Purpose};
use crate::check::{CheckReport, Reference};
use crate::event::Event;
use crate::mutants::log::Garble;
use crate::mutants::seams;
use crate::problem::{Fingerprint, Subproblem, Task};
use crate::protocol::erased::{ErasedBalancer, ErasedDetector};
use crate::protocol::random_destination;
use crate::protocol::{Balancer, BalancerKind, Detector, Pe, PeId};
use crate::runtime::mpi::{MpiConfig, MpiRun};
use crate::runtime::threads::{self, ThreadConfig, ThreadRun};
use crate::sim::atomic::adversary::{self, Exploration};
use crate::sim::atomic::network::{Chooser, Discipline, Rules, Script};
use crate::sim::atomic::{self, Arbiter, AtomicConfig, AtomicOutcome};
use crate::sim::{self, phased, Outcome, SimConfig, Stop};
use serde::Serialize;

/// What a checked run found.
#[derive(Debug)]
pub struct RunResult {
    /// Verdicts and metrics.
    pub check: CheckReport,
    /// How the driver stopped (a threaded run always drains).
    pub outcome: Outcome,
    /// The sequential reference the run was checked against.
    pub reference: Reference,
    /// Wall-clock time of the sequential reference run.
    pub reference_wall: Duration,
    /// Wall-clock time of the run.
    pub wall: Duration,
    /// Work units done by each PE (threaded runs).
    pub units: Option<Vec<u64>>,
    /// The atomic machine's figures (runs on `--machine atomic|complete`).
    pub atomic: Option<AtomicFacts>,
}

/// What a run on 004's atomic machine measured.
#[derive(Clone, Debug, Serialize)]
pub struct AtomicFacts {
    /// T: the last step a subproblem was expanded (004 §4.1); for a
    /// branch-and-bound workload, the last step a critical vertex was (004 §6).
    #[serde(rename = "T")]
    pub t: u64,
    /// Expansions done.
    pub expansions: u64,
    /// n: vertices of the workload's tree ([`crate::protocol::random_destination::shape`]),
    /// or of its critical subtree.
    pub n: u64,
    /// h: its depth in vertices.
    pub h: u64,
    /// max(⌈n/p⌉, h): no run is faster (004 §1, 004-11).
    pub lower: u64,
    /// T / (n/p + h): the ratio 004 Thm 1 bounds by a constant k w.h.p.
    pub ratio: f64,
    /// Of the n vertices, how many were expanded (a run stopped at its
    /// step cap with fewer has T past the cap: [`crate::bounds::atomic::search`]).
    #[serde(skip)]
    pub expanded_of_n: u64,
    /// The exhaustive adversary's exploration (`--arbiter adversary`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adversary: Option<Exploration>,
}

impl AtomicFacts {
    fn new(
        pes: u32,
        out: &AtomicOutcome,
        (n, h, optimum): (u64, u64, Option<u64>),
        adversary: Option<Exploration>,
    ) -> AtomicFacts {
        let p = u64::from(pes);
        let lower = n.div_ceil(p).max(h);
        let t = match optimum {
            Some(opt) => out.costs.iter().filter(|&&(_, c)| c < opt).map(|&(t, _)| t).max().unwrap_or(0),
            None => out.t,
        };
        let ratio = t as f64 / (n as f64 / p as f64 + h as f64).max(1.0);
        let expanded_of_n = match optimum {
            Some(opt) => out.costs.iter().filter(|&&(_, c)| c < opt).count() as u64,
            None => out.expansions,
        };
        AtomicFacts { t, expansions: out.expansions, n, h, lower, ratio, expanded_of_n, adversary }
    }
}

impl RunSpec {
    /// Runs and checks every event, writing the trace to `trace` if given.
    pub fn run(&self, trace: Option<&mut dyn Write>) -> io::Result<RunResult> {
        self.run_observed(trace, &mut |_| {})
    }

    /// [`RunSpec::run`], also showing every event to `observe` (before the
    /// checker takes it).
    pub fn run_observed(
        &self,
        trace: Option<&mut dyn Write>,
        observe: &mut dyn FnMut(&Event),
    ) -> io::Result<RunResult> {
        self.run_composed(&self.balancer, trace, observe)
    }

    /// [`RunSpec::run_observed`] with the PEs built by `pes` (a user's
    /// balancer, say) in place of the spec's balancer.
    pub fn run_composed(
        &self,
        pes: &impl Compose,
        trace: Option<&mut dyn Write>,
        observe: &mut dyn FnMut(&Event),
    ) -> io::Result<RunResult> {
        let started = Instant::now();
        let reference = reference(&self.workload, self.split);
        self.run_against(pes, (reference, started.elapsed()), trace, observe)
    }

    /// Runs and checks against `reference` (computed by the caller, in
    /// the time given), e.g. one reference for runs on several machines.
    pub fn run_against(
        &self,
        pes: &impl Compose,
        (reference, reference_wall): (Reference, Duration),
        trace: Option<&mut dyn Write>,
        observe: &mut dyn FnMut(&Event),
    ) -> io::Result<RunResult> {
        let header = pes.header(self);
        let mut session = Session::new(&header, reference, trace)?;
        let mut garble = self.mutant().and_then(Garble::new);
        let mut checked = |e: Event| {
            observe(&e);
            session.event(e);
        };
        let mut sink = |e: Event| match &mut garble {
            Some(g) => g.push(e, &mut checked),
            None => checked(e),
        };
        let started = Instant::now();
        // Not under loom: its deadlock and assertion reports are panics
        // that must unwind through its model (catching one inside an
        // execution breaks the model), and loom reports them itself.
        let loom = matches!(&self.driver, Driver::Threads(c) if c.loom);
        let driven = match loom {
            true => Ok(self.drive_checked(pes, &reference, &mut sink)),
            false => caught(|| self.drive_checked(pes, &reference, &mut sink)),
        };
        let (driven, assertion) = match driven {
            Ok(driven) => (driven?, None),
            Err(why) => (Driven::cut_short(), Some((session.line() + 1, why))),
        };
        let wall = driven.wall.unwrap_or_else(|| started.elapsed());
        let mut check = session.finish()?;
        if let Some((line, why)) = assertion {
            assertion_failed(&mut check, line, why);
        }
        let Driven { outcome, units, atomic, .. } = driven;
        Ok(RunResult { check, outcome, reference, reference_wall, wall, units, atomic })
    }

    /// Runs the driver, every event to `sink`.
    fn drive_checked(
        &self,
        pes: &impl Compose,
        reference: &Reference,
        sink: &mut dyn FnMut(Event),
    ) -> io::Result<Driven> {
        let (mut units, mut atomic, mut wall) = (None, None, None);
        let outcome = match &self.driver {
            Driver::Sim(cfg) if self.balancer.kind() == BalancerKind::SimdPhase => {
                phased::simd::run(cfg, seams::simd_phase(self.mutant()), self.root(reference), sink)
            }
            Driver::Sim(cfg) if self.balancer.kind().phased() => {
                let (rules, p) =
                    (seams::poll_and_shuffle(self.mutant()), self.balancer.pas().copied().unwrap_or_default());
                let root = self.root(reference);
                phased::run(cfg, rules, (p.permutation(), p.trigger()), p.sync(), root, sink)
            }
            Driver::Sim(cfg) => self.simulate(pes, &seams::work_loop(self.mutant(), cfg), self.root(reference), sink),
            Driver::Atomic(cfg) => {
                let (out, explored) = self.atomic(pes, cfg, sink);
                atomic = Some(AtomicFacts::new(cfg.pes, &out, self.shape(reference), explored));
                out.outcome
            }
            Driver::Threads(cfg) => {
                let run = self.threads(pes, cfg, self.root(reference), true);
                units = Some(run.units);
                let outcome = replay_events(run.events.unwrap_or_default(), sink);
                let stop = match (run.timed_out, run.stalled) {
                    (true, _) => Stop::Deadline,
                    (_, true) => Stop::Stalled,
                    _ => outcome.stop,
                };
                Outcome { stop, ..outcome }
            }
            Driver::Mpi(cfg) => {
                let run = self.mpi(pes, cfg, self.root(reference), true)?;
                (units, wall) = (Some(run.units), Some(run.elapsed)); // the parallel run, not the gathering
                replay_events(run.events.unwrap_or_default(), sink)
            }
        };
        Ok(Driven { outcome, units, atomic, wall })
    }

    /// A threaded run without recording or checking (benchmarks; `lbcheck
    /// run` without `--check`). `None` for the simulator, which always checks.
    pub fn run_unchecked(&self) -> Option<ThreadRun> {
        match &self.driver {
            Driver::Threads(cfg) => Some(self.threads(&self.balancer, cfg, self.workload.root(self.split), false)),
            Driver::Sim(_) | Driver::Atomic(_) | Driver::Mpi(_) => None,
        }
    }

    /// This rank's part of an MPI run (`lbcheck mpi` under mpirun): on
    /// ranks other than 0, which only run their PE and send rank 0 their
    /// events (rank 0 calls [`RunSpec::run`], which gathers and checks
    /// them), and on every rank of an unchecked run (`record` false).
    /// Collective: every rank calls one or the other.
    pub fn run_mpi_rank(&self, record: bool) -> io::Result<MpiRun> {
        let Driver::Mpi(cfg) = &self.driver else {
            return Err(io::Error::other("run_mpi_rank needs the MPI driver"));
        };
        // Only a pruning workload's root needs the reference (its optimum,
        // for `critical_expanded`): a small branch-and-bound instance.
        let root = match self.workload.prunes() {
            true => self.root(&reference(&self.workload, self.split)),
            false => self.root(&Reference {
                fp: Fingerprint::EMPTY,
                t_seq: 0,
                critical: None,
                pruning: None,
                pruned_critical: None,
            }),
        };
        self.mpi(&self.balancer, cfg, root, record)
    }

    #[cfg(feature = "mpi")]
    fn mpi(&self, pes: &impl Compose, cfg: &MpiConfig, root: Task, record: bool) -> io::Result<MpiRun> {
        pes.compose(self, MpiDrive { cfg, root, record }).map_err(io::Error::other)
    }

    #[cfg(not(feature = "mpi"))]
    fn mpi(&self, _: &impl Compose, _: &MpiConfig, _: Task, _: bool) -> io::Result<MpiRun> {
        Err(io::Error::other(crate::runtime::mpi::NOT_BUILT))
    }

    /// The run's root subproblem; for a pruning workload watched for
    /// `critical_expanded` (its nodes with a bound below the optimum
    /// logged), and pruning as the mutant says.
    pub(super) fn root(&self, reference: &Reference) -> Task {
        let mut root = self.workload.root(self.split);
        if let Some(o) = reference.pruning {
            root.watch_critical(o);
        }
        if let Some(slack) = seams::prune_slack(self.mutant()) {
            root.loosen_pruning(slack);
        }
        root
    }

    fn simulate(&self, pes: &impl Compose, cfg: &SimConfig, root: Task, sink: &mut dyn FnMut(Event)) -> Outcome {
        pes.compose(self, SimDrive { cfg, root, sink }) // the declared machine, whatever the mutant runs
    }

    /// (n, h, optimum) of the run's tree: the critical subtree of a
    /// branch-and-bound workload, else the whole vertex tree.
    pub(crate) fn shape(&self, reference: &Reference) -> (u64, u64, Option<u64>) {
        match reference.critical {
            Some(c) => (c.n, c.h, Some(c.optimum)),
            None => {
                let (n, h) = random_destination::shape(self.workload.root(self.split));
                (n, h, None)
            }
        }
    }

    fn atomic(
        &self,
        pes: &impl Compose,
        cfg: &AtomicConfig,
        sink: &mut dyn FnMut(Event),
    ) -> (AtomicOutcome, Option<Exploration>) {
        let (rules, root) = (self.atomic_rules(cfg), self.workload.root(self.split));
        pes.compose(self, AtomicDrive { cfg, rules, root, sink })
    }

    /// The network rules of a run on the atomic machine (or the complete
    /// network): the arbiter, the queue discipline its balancer needs, and
    /// the mutant's broken rule.
    pub(super) fn atomic_rules(&self, cfg: &AtomicConfig) -> Rules {
        let by_cost = self.balancer.kind() == BalancerKind::PriorityBnb && seams::queues_by_cost(self.mutant());
        let discipline = if by_cost { Discipline::Priority } else { Discipline::Fifo };
        let rules = match cfg.complete {
            true => Rules::complete(discipline),
            false => Rules::atomic(cfg.arbiter, discipline),
        };
        seams::network(self.mutant(), rules)
    }

    fn threads(&self, pes: &impl Compose, cfg: &ThreadConfig, root: Task, record: bool) -> ThreadRun {
        let cfg = ThreadConfig { record, mutant: self.mutant(), ..*cfg };
        pes.compose(self, ThreadsDrive { cfg, root })
    }
}

/// What a driver's run gave besides its events.
struct Driven {
    outcome: Outcome,
    units: Option<Vec<u64>>,
    atomic: Option<AtomicFacts>,
    /// The run's own wall-clock time, when it is not the driver's (MPI).
    wall: Option<Duration>,
}

impl Driven {
    /// A run a protocol assertion stopped ([`Stop::Assertion`]).
    fn cut_short() -> Driven {
        let outcome = Outcome { steps: 0, end_time: 0, stop: Stop::Assertion };
        Driven { outcome, units: None, atomic: None, wall: None }
    }
}

/// Adds [`PROTOCOL_ASSERTION`]'s failure, at `line` (the event the run
/// would have emitted next), to `check`: the failures judged at or after
/// it follow from it (the run was cut short), those before are their own.
fn assertion_failed(check: &mut CheckReport, line: usize, why: String) {
    for v in check.properties.values_mut().filter(|v| !v.pass && v.line.is_none_or(|l| l >= line)) {
        v.follows = Some(PROTOCOL_ASSERTION);
    }
    let detail = format!("a protocol assertion failed (the run stopped there): {why}");
    check.properties.insert(PROTOCOL_ASSERTION, crate::check::Verdict::fail(detail, Some(line)));
}

/// Feeds a recorded stream to `sink`.
fn replay_events(events: Vec<Event>, sink: &mut dyn FnMut(Event)) -> Outcome {
    let (steps, end_time) = (events.len() as u64, events.last().map_or(0, Event::time));
    events.into_iter().for_each(sink);
    Outcome { steps, end_time, stop: Stop::Drained }
}

struct SimDrive<'a> {
    cfg: &'a SimConfig,
    root: Task,
    sink: &'a mut dyn FnMut(Event),
}

impl Drive for SimDrive<'_> {
    type Output = Outcome;
    fn drive<B, D>(self, make: impl Fn(PeId) -> Pe<B, D>) -> Outcome
    where
        B: Balancer<Task = Task> + Send + 'static,
        D: Detector<Task> + Send + 'static,
    {
        sim::run(self.cfg, self.root, make, self.sink)
    }
}

struct AtomicDrive<'a> {
    cfg: &'a AtomicConfig,
    rules: Rules,
    root: Task,
    sink: &'a mut dyn FnMut(Event),
}

impl Drive for AtomicDrive<'_> {
    type Output = (AtomicOutcome, Option<Exploration>);
    /// One run; under the adversary, every choice sequence first (without
    /// events), then the worst one again, checked.
    fn drive<B, D>(self, make: impl Fn(PeId) -> Pe<B, D>) -> Self::Output
    where
        B: Balancer<Task = Task> + Send + 'static,
        D: Detector<Task> + Send + 'static,
    {
        let (cfg, rules) = (self.cfg, self.rules);
        if cfg.arbiter != Arbiter::Adversary || cfg.complete {
            let chooser = Chooser::Seeded(stream(cfg.seed, 0, Purpose::Arbiter));
            return (atomic::run(cfg, rules, chooser, self.root, make, self.sink), None);
        }
        let found = adversary::explore(cfg.max_runs, |chooser| {
            let out = atomic::run(cfg, rules, chooser, self.root.clone(), &make, &mut |_| {});
            (out.t, out.chooser)
        });
        let worst = Chooser::Script(Script { prefix: found.worst_script.clone(), taken: Vec::new() });
        (atomic::run(cfg, rules, worst, self.root, make, self.sink), Some(found))
    }
}

#[cfg(feature = "mpi")]
struct MpiDrive<'a> {
    cfg: &'a MpiConfig,
    root: Task,
    record: bool,
}

#[cfg(feature = "mpi")]
impl Drive for MpiDrive<'_> {
    type Output = Result<MpiRun, String>;
    fn drive<B, D>(self, make: impl Fn(PeId) -> Pe<B, D>) -> Self::Output
    where
        B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
        D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    {
        // Behind `dyn`: the driver compiled once, not per pair of protocols.
        let make: &dyn Fn(PeId) -> Pe<ErasedBalancer, ErasedDetector> = &|pe| make(pe).erased();
        crate::runtime::mpi::world::run(self.cfg, self.root, self.record, make)
    }
}

struct ThreadsDrive {
    cfg: ThreadConfig,
    root: Task,
}

impl Drive for ThreadsDrive {
    type Output = ThreadRun;
    fn drive<B, D>(self, make: impl Fn(PeId) -> Pe<B, D>) -> ThreadRun
    where
        B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
        D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    {
        self.erased(&|pe| make(pe).erased())
    }
}

impl ThreadsDrive {
    /// The drivers compiled once, not per pair of protocols.
    fn erased(self, make: &dyn Fn(PeId) -> Pe<ErasedBalancer, ErasedDetector>) -> ThreadRun {
        match self.cfg.loom {
            true => crate::loom::threads::run(&self.cfg, self.root, make),
            false => threads::run(&self.cfg, self.root, make),
        }
    }
}
