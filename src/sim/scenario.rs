//! A complete simulated run: workload, balancer, detector, machine and
//! mutant, checked online against the sequential reference. This is what the
//! CLI's `simulate`, the tests and the fuzz targets all run.

use std::fmt;
use std::io::Write;
use std::str::FromStr;

use super::{run, Outcome, SimConfig};
use crate::check::{CheckReport, Checker, Reference};
use crate::event::{write_event, Clock, Event, TraceHeader, TRACE_VERSION};
use crate::mutants::Mutant;
use crate::problem::dfs::Strategy;
use crate::problem::{sequential, Task, Workload};
use crate::protocol::energy::Energy;
use crate::protocol::four_counter::FourCounter;
use crate::protocol::random_polling::{self, RandomPolling};
use crate::protocol::{Balancer, Detector, Pe, PeId};

/// Termination detectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DetectorKind {
    /// Energy returned directly to PE 0 (003 §14.7.4).
    Energy,
    /// Energy returned along the spanning tree (003 §14.7.4).
    EnergyTree,
    /// Four-counter waves over a reduction tree (001 §2).
    FourCounter,
}

/// Detector names.
pub const DETECTORS: &str = "energy, energy-tree, four-counter";

impl FromStr for DetectorKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "energy" => Ok(DetectorKind::Energy),
            "energy-tree" => Ok(DetectorKind::EnergyTree),
            "four-counter" => Ok(DetectorKind::FourCounter),
            _ => Err(format!("unknown termination detector `{s}`; valid: {DETECTORS}")),
        }
    }
}

impl fmt::Display for DetectorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DetectorKind::Energy => "energy",
            DetectorKind::EnergyTree => "energy-tree",
            DetectorKind::FourCounter => "four-counter",
        })
    }
}

/// Everything that defines a simulated run.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// What is computed.
    pub workload: Workload,
    /// DFS-stack split strategy.
    pub split: Strategy,
    /// Termination detector.
    pub detector: DetectorKind,
    /// Machine and run parameters.
    pub sim: SimConfig,
    /// Random polling's parameters (queue trimming, mutant).
    pub polling: random_polling::Config,
}

/// The result of a checked run.
#[derive(Debug)]
pub struct RunReport {
    /// How the simulation ended.
    pub outcome: Outcome,
    /// Verdicts and metrics.
    pub check: CheckReport,
}

impl Scenario {
    /// The trace header of this run.
    pub fn header(&self) -> TraceHeader {
        TraceHeader {
            version: TRACE_VERSION,
            pes: self.sim.pes,
            workload: self.workload.to_string(),
            split: self.split.to_string(),
            balancer: "random-polling".into(),
            detector: self.detector.to_string(),
            t_split: self.sim.t_split,
            clock: Clock::Work,
        }
    }

    /// Runs the scenario, checking every event online and writing the trace
    /// to `trace` if given.
    pub fn run(&self, trace: Option<&mut dyn Write>) -> std::io::Result<RunReport> {
        self.run_observed(trace, &mut |_| {})
    }

    /// [`Scenario::run`], also showing every event to `observe` (after the
    /// checker has seen it).
    pub fn run_observed(
        &self,
        mut trace: Option<&mut dyn Write>,
        observe: &mut dyn FnMut(&Event),
    ) -> std::io::Result<RunReport> {
        let header = self.header();
        let seq = sequential::run(self.workload.root(self.split));
        let mut checker = Checker::new(&header, Reference { fp: seq.log.fp, t_seq: seq.work });
        let mut line = 1;
        let mut io_err = None;
        if let Some(w) = trace.as_deref_mut() {
            write_event(w, &Event::Header(header))?;
        }
        let mut sink = |e: Event| {
            line += 1;
            checker.observe(line, &e);
            observe(&e);
            if let (Some(w), None) = (trace.as_deref_mut(), &io_err) {
                io_err = write_event(w, &e).err();
            }
        };
        let outcome = self.dispatch(&mut sink);
        if let Some(e) = io_err {
            return Err(e);
        }
        Ok(RunReport { outcome, check: checker.finish() })
    }

    fn dispatch(&self, sink: &mut dyn FnMut(Event)) -> Outcome {
        let (p, m) = (self.polling, self.polling.mutant);
        let rp = move || RandomPolling::<Task>::new(p);
        match self.detector {
            DetectorKind::Energy => self.go(|_| Pe::new(rp(), Energy::new(false, m)), sink),
            DetectorKind::EnergyTree => self.go(|_| Pe::new(rp(), Energy::new(true, m)), sink),
            DetectorKind::FourCounter => self.go(|_| Pe::new(rp(), FourCounter::new(m)), sink),
        }
    }

    fn go<B, D>(&self, make: impl Fn(PeId) -> Pe<B, D>, sink: &mut dyn FnMut(Event)) -> Outcome
    where
        B: Balancer<Task = Task>,
        D: Detector<Task>,
    {
        run(&self.sim, self.workload.root(self.split), make, sink)
    }

    /// The mutant being run, if any.
    pub fn mutant(&self) -> Option<Mutant> {
        self.polling.mutant
    }

    /// The command line that reproduces this run exactly.
    pub fn replay(&self) -> String {
        let s = &self.sim;
        let mut cmd = format!(
            "lbcheck simulate --balancer random-polling --termination {} --workload '{}' --split {} --pes {} --seed {} --dt {} --t-rout {} --t-split {}",
            self.detector, self.workload, self.split, s.pes, s.seed, s.dt, s.t_rout, s.t_split
        );
        if let Some((a, b)) = s.latency {
            cmd += &format!(" --latency {a}..{b}");
        }
        if let Some((n, f)) = s.slow {
            cmd += &format!(" --slow {n}:{f}");
        }
        if s.initial_split {
            cmd += " --initial-split";
        }
        if let Some(q) = self.polling.queue_limit {
            cmd += &format!(" --queue-limit {q}");
        }
        if let Some(m) = self.polling.mutant {
            cmd += &format!(" --mutant {m}");
        }
        if s.max_steps != SimConfig::default().max_steps {
            cmd += &format!(" --max-steps {}", s.max_steps);
        }
        if s.horizon != 0 {
            cmd += &format!(" --detect-horizon {}", s.horizon);
        }
        cmd
    }
}
