//! 002 §5.2, Figure 1: "the average speedup over the 256 instances
//! generated was 1410 on 1024 processors" — depth-first branch-and-bound
//! of strongly correlated 0-1 knapsack instances (m = 2000 items, w_i in
//! [0.01, 1.01], p_i in [w_i + 0.1, w_i + 0.125], M = Σw_i/2), balanced by
//! random polling splitting "on all levels of the tree at once", on a
//! Parsytec GCel.
//!
//! Here: `instances` instances of `items` items from 002's generator
//! ([`crate::problem::bnb::knapsack`]), each run sequentially (T_seq: nodes
//! the sequential branch-and-bound examines, one time unit each) and on
//! every machine size P of 001's simulated machine (T_par in the same
//! unit), checked by every property; speedup S = T_seq / T_par. The
//! average over instances is the paper's figure (an arithmetic mean,
//! which the heavy tail of T_seq dominates); the geometric mean and the
//! share of superlinear instances (S > P) say how typical it is.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::base::rng::derive_seed;
use crate::campaign::parallel;
use crate::harness::{reference, Driver, RunSpec, SpecError};
use crate::mutants::Mutant;
use crate::problem::bnb::knapsack::KnapsackConfig;
use crate::problem::dfs::Strategy;
use crate::problem::Workload;
use crate::protocol::{BalancerKind, BoundMode, DetectorKind};
use crate::sim::SimConfig;

use super::verdict::{self, Verdict};

/// 002 §5.2's figure: P, m, instances, average speedup.
pub const PAPER: (u32, u32, u32, f64) = (1024, 2000, 256, 1410.0);

/// What to run.
#[derive(Clone, Debug, Serialize)]
pub struct Experiment {
    /// Items per instance (002: 2000).
    pub items: u32,
    /// Instances (002: 256).
    pub instances: u32,
    /// Machine sizes.
    pub pes: Vec<u32>,
    /// Seed of the instances' seeds.
    pub seed: u64,
    /// Split strategy (002: all levels at once).
    pub split: Strategy,
    /// Bound propagation (002 §4.5: the reduction tree).
    pub bound: BoundMode,
    /// The deliberate bug every run has, if any (the reference: none).
    pub mutant: Option<Mutant>,
}

/// One instance on one machine size.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    /// The instance's workload name.
    pub workload: String,
    /// P.
    pub pes: u32,
    /// Nodes the sequential branch-and-bound examined.
    pub t_seq: u64,
    /// Parallel time (the last PE terminated), in node units.
    pub t_par: u64,
    /// Nodes the parallel run examined.
    pub nodes: u64,
    /// T_seq / T_par.
    pub speedup: f64,
    /// Every property held (optimum found, pruning sound, …).
    pub checked: bool,
    /// The failed properties, if any.
    pub failed: Vec<String>,
    /// The command that replays the run.
    pub replay: String,
}

/// The figures for one machine size.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// P.
    pub pes: u32,
    /// Instances.
    pub instances: usize,
    /// Arithmetic mean of S (the paper's "average speedup").
    pub mean_speedup: f64,
    /// Geometric mean of S.
    pub geomean_speedup: f64,
    /// Median S.
    pub median_speedup: f64,
    /// Least and largest S.
    pub min_speedup: f64,
    /// Largest S.
    pub max_speedup: f64,
    /// Instances with S > P.
    pub superlinear: usize,
    /// mean S / P.
    pub mean_efficiency: f64,
    /// Σ T_seq / Σ T_par: the speedup of the whole batch.
    pub batch_speedup: f64,
}

/// The outcome.
#[derive(Clone, Debug, Serialize)]
pub struct Reproduction {
    /// What ran.
    pub experiment: Experiment,
    /// One row per P.
    pub rows: Vec<Row>,
    /// Every run.
    pub runs: Vec<Run>,
    /// Every run passed every property.
    pub all_checked: bool,
    /// The mean speedup on 1024 PEs against 002's 1410 ([`verdict`]);
    /// None when P = 1024 did not run or fewer than two instances did.
    pub verdict: Option<Verdict>,
    /// Wall-clock seconds.
    pub wall_secs: f64,
}

impl Experiment {
    /// Instance `i`'s workload.
    fn instance(&self, i: u32) -> Workload {
        Workload::Knapsack(KnapsackConfig { items: self.items, seed: derive_seed(self.seed, "reproduce knapsack", i) })
    }

    /// The run of `workload` on `pes` PEs: 002's random polling, energy
    /// termination, 001's machine with its default parameters.
    fn spec(&self, workload: Workload, pes: u32) -> RunSpec {
        let driver = Driver::Sim(SimConfig { pes, seed: 1, ..SimConfig::default() });
        let spec = RunSpec::new(workload, BalancerKind::RandomPolling, DetectorKind::Energy, driver);
        RunSpec { split: self.split, bound: Some(self.bound), mutant: self.mutant, ..spec }
    }

    /// Every run's specification can run (the mutant acts in it, …).
    pub fn validate(&self) -> Result<(), SpecError> {
        self.pes.iter().try_for_each(|&p| self.spec(self.instance(0), p).validate())
    }

    /// Runs it all, two instances at a time.
    pub fn run(&self) -> std::io::Result<Reproduction> {
        let started = Instant::now();
        let instances: Vec<u32> = (0..self.instances).collect();
        let runs: Vec<Run> =
            parallel(&instances, |&i| self.one_instance(i)).into_iter().collect::<Result<Vec<_>, _>>()?.concat();
        let rows = self.pes.iter().map(|&p| row(p, &runs)).collect();
        let all_checked = runs.iter().all(|r| r.checked);
        let verdict = self.verdict(&runs);
        Ok(Reproduction {
            experiment: self.clone(),
            rows,
            runs,
            all_checked,
            verdict,
            wall_secs: started.elapsed().as_secs_f64(),
        })
    }

    /// The verdict on the runs on 002's P = 1024 ([`verdict::judge`]).
    fn verdict(&self, runs: &[Run]) -> Option<Verdict> {
        let (p, _, _, paper) = PAPER;
        let s: Vec<f64> = runs.iter().filter(|r| r.pes == p).map(|r| r.speedup).collect();
        verdict::judge(&s, p, self.items, paper)
    }

    /// One instance: its sequential reference, then every P against it.
    fn one_instance(&self, i: u32) -> std::io::Result<Vec<Run>> {
        let workload = self.instance(i);
        let started = Instant::now();
        let reference = reference(&workload, self.split);
        let wall = started.elapsed();
        self.pes.iter().map(|&p| self.one_run(workload, p, (reference, wall))).collect()
    }

    fn one_run(
        &self,
        workload: Workload,
        pes: u32,
        reference: (crate::check::Reference, Duration),
    ) -> std::io::Result<Run> {
        let spec = self.spec(workload, pes);
        let r = spec.run_against(&spec.balancer, reference, None, &mut |_| {})?;
        let m = &r.check.metrics;
        let t_par = m.t_par.unwrap_or(m.t_last).max(1);
        let failed: Vec<String> =
            r.check.properties.iter().filter(|(_, v)| !v.pass).map(|(k, _)| k.to_string()).collect();
        Ok(Run {
            workload: workload.to_string(),
            pes,
            t_seq: m.t_seq,
            t_par,
            nodes: m.work_done,
            speedup: m.t_seq as f64 / t_par as f64,
            checked: failed.is_empty(),
            failed,
            replay: spec.replay(),
        })
    }
}

/// The figures of the runs on `pes` PEs.
fn row(pes: u32, runs: &[Run]) -> Row {
    let mine: Vec<&Run> = runs.iter().filter(|r| r.pes == pes).collect();
    let mut s: Vec<f64> = mine.iter().map(|r| r.speedup).collect();
    s.sort_by(f64::total_cmp);
    let n = s.len().max(1) as f64;
    let mean = s.iter().sum::<f64>() / n;
    let (seq, par) = mine.iter().fold((0u64, 0u64), |(a, b), r| (a + r.t_seq, b + r.t_par));
    Row {
        pes,
        instances: mine.len(),
        mean_speedup: mean,
        geomean_speedup: (s.iter().map(|x| x.ln()).sum::<f64>() / n).exp(),
        median_speedup: s.get(s.len() / 2).copied().unwrap_or(0.0),
        min_speedup: s.first().copied().unwrap_or(0.0),
        max_speedup: s.last().copied().unwrap_or(0.0),
        superlinear: s.iter().filter(|&&x| x > f64::from(pes)).count(),
        mean_efficiency: mean / f64::from(pes),
        batch_speedup: seq as f64 / par.max(1) as f64,
    }
}
