//! The one checked run: the reference computed once, the header written,
//! every event a driver emits checked (and written to the trace), the
//! verdicts and metrics returned. Drivers only turn effects into events.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use super::compose::{Compose, Drive};
use super::driver::Driver;
use super::session::Session;
use super::spec::RunSpec;
use crate::check::{CheckReport, Reference};
use crate::event::{Event, TraceHeader};
use crate::mutants::log::Garble;
use crate::problem::dfs::Strategy;
use crate::problem::{sequential, Fingerprint, Task, Workload, WorkloadFamily};
use crate::protocol::{Balancer, Detector, Pe, PeId};
use crate::runtime::threads::{self, ThreadConfig, ThreadRun};
use crate::sim::{self, Outcome, SimConfig, Stop};

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
}

/// The sequential reference run of `workload`: its fingerprint and T_seq,
/// which every parallel run must reproduce (002 eq. (1)).
pub fn reference(workload: &Workload, split: Strategy) -> Reference {
    let seq = sequential::run(workload.root(split));
    Reference { fp: seq.log.fp, t_seq: seq.work }
}

/// The reference a trace is checked against: the expected fingerprint
/// given for it (`expected`, from the command line, else the header's
/// `fingerprint`, with `units` if given agreeing), else the sequential run
/// of the header's workload. A `custom` workload needs the fingerprint.
pub fn reference_of_header(h: &TraceHeader, expected: Option<&str>) -> Result<Reference, String> {
    if let Some(fp) = expected.or(h.fingerprint.as_deref()) {
        let fp = Fingerprint::parse(fp)
            .ok_or_else(|| format!("fingerprint `{fp}` is not UNITS-HEX48 (the form of `lbcheck tree`)"))?;
        if h.units.is_some_and(|u| u != fp.units) && expected.is_none() {
            return Err(format!(
                "header `units` = {} disagrees with its `fingerprint` ({} units)",
                h.units.unwrap_or(0),
                fp.units
            ));
        }
        return Ok(Reference { fp, t_seq: fp.units });
    }
    if h.workload == "custom" || h.workload.starts_with("custom:") {
        return Err(
            "a `custom` workload needs the expected `fingerprint` in the header (or --expect-fingerprint)".into()
        );
    }
    let w: Workload = h.workload.parse().map_err(|e| format!("header workload: {e}"))?;
    let split = match w.family() {
        WorkloadFamily::Uts => h.split.parse().map_err(|e| format!("header split: {e}"))?,
        _ => Strategy::default(), // only DFS stacks split by strategy
    };
    if let Workload::Uts { sample: Some(s), .. } = w {
        if s.nodes > 100_000_000 {
            eprintln!("note: computing the sequential reference of uts:{} ({} nodes) first", s.name, s.nodes);
        }
    }
    Ok(reference(&w, split))
}

impl RunSpec {
    /// Runs and checks every event, writing the trace to `trace` if given.
    pub fn run(&self, trace: Option<&mut dyn Write>) -> io::Result<RunResult> {
        self.run_observed(trace, &mut |_| {})
    }

    /// [`RunSpec::run`], also showing every event to `observe` after the checker.
    pub fn run_observed(
        &self,
        trace: Option<&mut dyn Write>,
        observe: &mut dyn FnMut(&Event),
    ) -> io::Result<RunResult> {
        self.run_composed(&self.protocols.balancer, trace, observe)
    }

    /// [`RunSpec::run_observed`] with the PEs built by `pes` (a user's
    /// balancer, say) in place of `protocols.balancer`.
    pub fn run_composed(
        &self,
        pes: &impl Compose,
        trace: Option<&mut dyn Write>,
        observe: &mut dyn FnMut(&Event),
    ) -> io::Result<RunResult> {
        let started = Instant::now();
        let reference = reference(&self.workload, self.split);
        let reference_wall = started.elapsed();
        let header = TraceHeader { balancer: pes.balancer_name(), ..self.header() };
        let mut session = Session::new(&header, reference, trace)?;
        let mut garble = self.mutant().and_then(Garble::new);
        let mut checked = |e: &Event| {
            session.event(e);
            observe(e);
        };
        let mut sink = |e: &Event| match &mut garble {
            Some(g) => g.push(e, &mut checked),
            None => checked(e),
        };
        let started = Instant::now();
        let (outcome, units) = match &self.driver {
            Driver::Sim(cfg) => (self.simulate(pes, cfg, &mut sink), None),
            Driver::Threads(cfg) => {
                let run = self.threads(pes, cfg, true);
                let mut outcome = replay_events(run.events.as_deref().unwrap_or_default(), &mut sink);
                if run.timed_out {
                    outcome.stop = Stop::Deadline;
                }
                (outcome, Some(run.units))
            }
        };
        let wall = started.elapsed();
        let check = session.finish()?;
        Ok(RunResult { check, outcome, reference, reference_wall, wall, units })
    }

    /// A threaded run without recording or checking (benchmarks; `lbcheck
    /// run` without `--check`). `None` for the simulator, which always checks.
    pub fn run_unchecked(&self) -> Option<ThreadRun> {
        match &self.driver {
            Driver::Threads(cfg) => Some(self.threads(&self.protocols.balancer, cfg, false)),
            Driver::Sim(_) => None,
        }
    }

    fn simulate(&self, pes: &impl Compose, cfg: &SimConfig, sink: &mut dyn FnMut(&Event)) -> Outcome {
        let mut by_value = |e: Event| sink(&e);
        let root = self.workload.root(self.split);
        pes.compose(&self.protocols, SimDrive { cfg, root, sink: &mut by_value })
    }

    fn threads(&self, pes: &impl Compose, cfg: &ThreadConfig, record: bool) -> ThreadRun {
        let cfg = ThreadConfig { record, mutant: self.mutant(), ..*cfg };
        pes.compose(&self.protocols, ThreadsDrive { cfg, root: self.workload.root(self.split) })
    }
}

/// Feeds a recorded stream to `sink`.
fn replay_events(events: &[Event], sink: &mut dyn FnMut(&Event)) -> Outcome {
    events.iter().for_each(&mut *sink);
    let end_time = events.last().map_or(0, Event::time);
    Outcome { steps: events.len() as u64, end_time, stop: Stop::Drained }
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

struct ThreadsDrive {
    cfg: ThreadConfig,
    root: Task,
}

impl Drive for ThreadsDrive {
    type Output = ThreadRun;
    fn drive<B, D>(self, make: impl Fn(PeId) -> Pe<B, D>) -> ThreadRun
    where
        B: Balancer<Task = Task> + Send + 'static,
        D: Detector<Task> + Send + 'static,
    {
        threads::run(&self.cfg, self.root, make)
    }
}
