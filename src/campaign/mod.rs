//! `lbcheck check`: one campaign that runs every layer of checking over
//! every registered reference (../shared/ARCHITECTURE.md "Checks").
//!
//! Layers, each a list of [`Case`]s (a JUnit testcase each):
//! - `simulate` ([`swarm`]): a swarm of simulated runs per balancer ×
//!   detector, each with a machine drawn from its seed (P, Δt, T_split,
//!   fixed or random latency, slow PEs, initial split, queue limit) on small
//!   workloads of every family; every property checked.
//! - `threads` ([`swarm`]): checked runs on OS threads.
//! - `bounds` ([`bounds`]): the statistical suite of `lbcheck bounds`, one
//!   case per claim.
//! - `explore` ([`explore`]): every balancer × detector explored
//!   exhaustively on a tiny instance (every latency and event order).
//! - `bitonic` ([`bitonic`]): parallel bitonic sorts on simulated
//!   hypercubes, each output checked against a sequential sort (003 §14.4).
//! - `mutants` ([`adequacy`]): every mutant against every checker the
//!   catalogue says catches it (the adequacy matrix).
//! - `loom`, `spin`, `coq` ([`external`]): the loom suite, the models and
//!   the proofs, when the tools and the repository's files are there.
//!
//! [`user::check_balancer`] runs the swarm, threads and explore layers on
//! a user's own balancer, in-process, [`user::check_detector`] on a user's
//! own detector, [`user::check_protocols`] on both ([`user_loom`]: the loom
//! layer on a user's balancer, in-process); [`external_impl`] (`check --impl CMD`) runs
//! a user's program, in any language, and checks its traces.
//!
//! With a mutant ([`Options::mutant`]) the campaign checks the mutant as
//! the implementation under test: every layer where it acts runs it, and
//! the campaign must fail.

pub mod adequacy;
pub mod bitonic;
pub mod bounds;
pub mod cost;
pub mod demos;
pub mod explore;
pub mod external;
pub mod external_impl;
pub mod figures;
pub mod shard;
pub mod swarm;
pub mod user;
pub mod user_loom;

use std::ops::RangeInclusive;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::mutants::Mutant;
use shard::Shard;

/// How much to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// The CI profile: a few minutes at most on 2 cores.
    Quick,
    /// Ten times the swarm, larger P and workloads; the bounds suites stay
    /// quick ([`bounds::SUITE_PROFILE`]).
    Full,
}

/// What to run.
///
/// ```
/// use lbcheck::campaign::{Options, Profile};
///
/// // `lbcheck check --full --seed 7 --only simulate/ --pes 2-8`
/// let o = Options { profile: Profile::Full, seed: 7, only: vec!["simulate/".into()], pes: Some(2..=8), ..Options::default() };
/// assert!(o.selects("simulate", "random-polling/energy/#3") && !o.selects("threads", "random-polling/energy/P=2"));
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    /// Quick or full.
    pub profile: Profile,
    /// Base seed of every run.
    pub seed: u64,
    /// Only cases whose `layer/name` contains one of these (all if empty).
    pub only: Vec<String>,
    /// Check this mutant as the implementation under test.
    pub mutant: Option<Mutant>,
    /// Only machines with P in this range (`simulate` and `threads`; all
    /// of the profile's if `None`): the swarm draws P from the profile's
    /// values in the range, or uniformly from the range if it holds none
    /// of them (000's phased machine rounds P up to a power of two).
    pub pes: Option<RangeInclusive<u32>>,
}

impl Default for Options {
    /// The quick profile, seed 1 (CI's), every case, no mutant, every P.
    fn default() -> Self {
        Options { profile: Profile::Quick, seed: 1, only: vec![], mutant: None, pes: None }
    }
}

impl Options {
    /// True if a case of `layer` named `name` is selected by `only`.
    pub fn selects(&self, layer: &str, name: &str) -> bool {
        let full = format!("{layer}/{name}");
        self.only.is_empty() || self.only.iter().any(|p| full.contains(p.as_str()))
    }
}

/// The layers, in the campaign's order.
pub const LAYERS: [&str; 9] = ["simulate", "threads", "bounds", "explore", "bitonic", "mutants", "loom", "spin", "coq"];

/// A case's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every check passed.
    Pass,
    /// A check failed.
    Fail,
    /// Not run (a tool is missing, or it cannot apply), with the reason in `detail`.
    Skip,
}

/// Figures of a run, for the report's plots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// P.
    pub pes: u32,
    /// T_par / (T_seq / P): 1 is perfect balance.
    #[serde(deserialize_with = "figures::f64_or_nan")]
    pub slowdown: f64,
    /// Messages per PE.
    #[serde(deserialize_with = "figures::f64_or_nan")]
    pub messages_per_pe: f64,
    /// T_seq / (P · T_par).
    #[serde(deserialize_with = "figures::f64_or_nan")]
    pub efficiency: f64,
}

/// One checked item: a JUnit testcase.
/// (`Deserialize` is [`shard`]'s, for the cases ranks send rank 0.)
#[derive(Clone, Debug, Serialize)]
pub struct Case {
    /// The layer (one of [`LAYERS`]; `impl` or `compare` under
    /// [`external_impl`], `check --impl`).
    pub layer: &'static str,
    /// Unique within the layer.
    pub name: String,
    /// The verdict.
    pub verdict: Verdict,
    /// What was found; on failure, what failed and why.
    pub detail: String,
    /// The properties or claims that failed.
    pub failed: Vec<String>,
    /// The command that reproduces the case.
    pub replay: Option<String>,
    /// Wall-clock seconds.
    pub secs: f64,
    /// Figures for the plots, for runs.
    pub point: Option<Point>,
    /// A failed run's specification: the report reruns it to draw its
    /// timeline. `None` for other cases, and for a user's balancer, which
    /// the spec does not describe. Not in `report.json` (its `replay` says
    /// the same); a rank sends it to rank 0 beside the case ([`shard::Part`]).
    #[serde(skip)]
    pub spec: Option<Box<crate::harness::RunSpec>>,
    /// A bounds claim on a user's balancer ([`user::bounds_balancer`],
    /// `check --impl`'s comparison): the user's fitted constant beside the
    /// reference's. Not written when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fit: Option<Fit>,
}

/// A constant fitted on a user's runs beside the one fitted on the
/// reference's runs of the same configurations (a claim of the `bounds`
/// layer of a user's balancer, [`user::bounds_balancer`]); `null` in JSON
/// for a run that never finished (∞).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    /// Fitted on the user's runs.
    #[serde(deserialize_with = "figures::f64_or_nan")]
    pub user: f64,
    /// Fitted on the reference's runs.
    #[serde(deserialize_with = "figures::f64_or_nan")]
    pub reference: f64,
    /// What the user's runs are held to (e.g. (1 + margin) × the reference's).
    #[serde(deserialize_with = "figures::f64_or_nan")]
    pub limit: f64,
}

impl Case {
    /// A skipped case.
    pub fn skip(layer: &'static str, name: String, why: impl Into<String>) -> Case {
        let detail = why.into();
        Case {
            layer,
            name,
            verdict: Verdict::Skip,
            detail,
            failed: vec![],
            replay: None,
            secs: 0.0,
            point: None,
            spec: None,
            fit: None,
        }
    }
}

/// What a campaign found.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Quick or full.
    pub profile: Profile,
    /// The base seed.
    pub seed: u64,
    /// The mutant under test, if any.
    pub mutant: Option<String>,
    /// The command that reruns the campaign.
    pub replay: String,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Every case, layer by layer.
    pub cases: Vec<Case>,
    /// The bounds suite's figures (for the plots).
    pub bounds: Option<figures::Figures>,
    /// The bound suites this process ran, with their claims' plot data
    /// and fitted constants: the report's pages of the papers' claims
    /// ([`crate::report::paper`]). Not in `report.json`; over MPI, rank 0's own.
    #[serde(skip)]
    pub suites: Vec<crate::reproduce::papers::SuiteRun>,
}

impl Report {
    /// Cases with verdict `v`.
    pub fn count(&self, v: Verdict) -> usize {
        self.cases.iter().filter(|c| c.verdict == v).count()
    }

    /// True if no case failed.
    pub fn passed(&self) -> bool {
        self.count(Verdict::Fail) == 0
    }

    /// A quick-profile report of `cases` alone, seed 1 (for unit tests).
    #[cfg(test)]
    pub(crate) fn of(cases: Vec<Case>) -> Report {
        let (replay, bounds, suites) = (String::new(), None, vec![]);
        Report { profile: Profile::Quick, seed: 1, mutant: None, replay, seconds: 0.0, cases, bounds, suites }
    }
}

/// Runs the campaign, telling `progress` as cases finish.
pub fn run(o: &Options, progress: &dyn Progress) -> Report {
    run_share(o, &Shard::whole(), progress)
}

/// Rank `rank`'s share of the campaign split over `ranks` processes
/// ([`shard`]): the units it runs, decided by a dry pass over the campaign.
pub fn share(o: &Options, rank: u32, ranks: u32) -> Shard {
    let dry = Shard::dry();
    run_share(o, &dry, &Silent);
    Shard::of(rank, ranks, &dry)
}

/// Runs `shard`'s units of the campaign: the report with a placeholder for
/// each unit another process runs ([`shard::assemble`] fills them in).
pub fn run_share(o: &Options, shard: &Shard, progress: &dyn Progress) -> Report {
    let start = Instant::now();
    let scripts = external::start(o, shard); // SPIN and Coq run beside the in-process layers
    let mut cases = swarm::simulate(o, shard, progress);
    cases.extend(swarm::threads(o, shard, progress));
    let (bound_cases, figures, suites) = bounds::run(o, shard, progress);
    cases.extend(bound_cases);
    cases.extend(explore::run(o, shard, progress));
    cases.extend(bitonic::run(o, shard, progress));
    cases.extend(adequacy::run(o, shard, progress));
    cases.extend(external::loom_layer(o, shard, progress));
    cases.extend(external::finish(scripts, shard, progress));
    if o.mutant.is_some() && shard.is_whole() {
        swarm::cut_after_failure(&mut cases); // over MPI ranks, rank 0's after the merge (shard::assemble)
    }
    Report {
        profile: o.profile,
        seed: o.seed,
        mutant: o.mutant.map(|m| m.to_string()),
        replay: replay(o),
        seconds: start.elapsed().as_secs_f64(),
        cases,
        bounds: figures,
        suites,
    }
}

/// The command that reruns the campaign.
pub fn replay(o: &Options) -> String {
    let profile = if o.profile == Profile::Full { " --full" } else { "" };
    let mut cmd = format!("lbcheck check{profile} --seed {}", o.seed);
    if !o.only.is_empty() {
        cmd += &format!(" --only {}", o.only.join(","));
    }
    if let Some(m) = o.mutant {
        cmd += &format!(" --mutant {m}");
    }
    if let Some(p) = &o.pes {
        cmd += &format!(" --pes {}-{}", p.start(), p.end());
    }
    cmd
}

/// Told about a campaign's progress (the CLI draws a bar or prints lines).
pub trait Progress: Sync {
    /// `layer` starts with `total` cases.
    fn start(&self, layer: &str, total: usize);
    /// One case of `layer` finished.
    fn done(&self, layer: &str, case: &Case);
}

/// A [`Progress`] that says nothing.
pub struct Silent;

impl Progress for Silent {
    fn start(&self, _: &str, _: usize) {}
    fn done(&self, _: &str, _: &Case) {}
}

/// Runs `jobs` on every core ([`crate::base::par::map`]); results come
/// back in job order, whatever the core count.
pub(crate) fn parallel<J: Sync, R: Send>(jobs: &[J], f: impl Fn(&J) -> R + Sync) -> Vec<R> {
    crate::base::par::map(jobs, f)
}

/// [`parallel`], stopping at the first job that `fails`: a job is not run
/// (`None`) once a job before it in `jobs`' order has failed. The results
/// are every job's up to the first failing one in order, `None` after it,
/// whatever the core count or timing: that job and every one before it
/// always run (a job is skipped only behind a failure earlier in order).
pub(crate) fn parallel_until<J: Sync, R: Send>(
    jobs: &[J],
    f: impl Fn(&J) -> R + Sync,
    fails: impl Fn(&R) -> bool + Sync,
) -> Vec<Option<R>> {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    let first = AtomicUsize::new(usize::MAX);
    let indexed: Vec<(usize, &J)> = jobs.iter().enumerate().collect();
    let ran = parallel(&indexed, |&(i, job)| {
        (i < first.load(Relaxed)).then(|| f(job)).inspect(|r| {
            if fails(r) {
                first.fetch_min(i, Relaxed);
            }
        })
    });
    let cut = ran.iter().position(|r| r.as_ref().is_some_and(&fails)).unwrap_or(jobs.len());
    ran.into_iter().enumerate().map(|(i, r)| r.filter(|_| i <= cut)).collect()
}

#[cfg(test)]
mod tests {
    /// The results stop at the first failing job in order, even when a
    /// later job fails first in time (job 10 is slow, job 40 fast): jobs
    /// 11 to 40 may have run on another core, and are dropped all the same.
    #[test]
    fn parallel_until_stops_at_the_first_failure_in_order() {
        let jobs: Vec<u32> = (0..64).collect();
        let slow = |&i: &u32| {
            if i == 10 {
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
            i
        };
        let ran = super::parallel_until(&jobs, slow, |&r| r == 10 || r == 40);
        let got: Vec<u32> = ran.iter().flatten().copied().collect();
        assert_eq!(got, (0..=10).collect::<Vec<_>>());
        assert_eq!(ran.len(), 64);
    }
}
