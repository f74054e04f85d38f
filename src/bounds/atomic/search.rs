//! 004 Thm 1 (S-10): random-destination backtrack search finishes in
//! k(n/p + h) steps w.h.p. under the worst-case arbiter. Tested on the
//! atomic machine under every arbiter heuristic, on trees of different
//! depth (balanced, skewed α = 0.1, peel: h ≈ n/2), as R = T/(n/p + h):
//! bounded by the constant k fitted on calibration runs, with no upward
//! trend in log2 p nor in log2 h. Exact on every run: T ≥ max(⌈n/p⌉, h).

use std::collections::BTreeMap;

use super::{exact, fitted, Calibrated};
use crate::base::rng::derive_seed;
use crate::bounds::claims::{quantile, slope, Claim};
use crate::bounds::plan::Profile;
use crate::bounds::suite::par_map;
use crate::bounds::suite::Phase;
use crate::harness::{Driver, Protocols, RunSpec};
use crate::mutants::Mutant;
use crate::protocol::{BalancerKind, DetectorKind};
use crate::sim::atomic::{Arbiter, AtomicConfig};

/// The arbiter heuristics every claim runs under.
pub const ARBITERS: [Arbiter; 5] =
    [Arbiter::Fifo, Arbiter::Lifo, Arbiter::FixedPriority, Arbiter::AntiCritical, Arbiter::Random];
/// The statistical tests of the suite (Bonferroni).
pub const STAT_TESTS: usize = 3;

/// What one run measured.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Calibration or test.
    pub phase: Phase,
    /// The arbiter.
    pub arbiter: Arbiter,
    /// p.
    pub pes: u32,
    /// h of the tree.
    pub h: u64,
    /// R = T/(n/p + h).
    pub r: f64,
    /// T ≥ max(⌈n/p⌉, h).
    pub lower_ok: bool,
    /// Invariants that failed.
    pub failures: Vec<&'static str>,
    /// The command that replays the run.
    pub replay: String,
}

impl Calibrated for Sample {
    fn phase(&self) -> Phase {
        self.phase
    }
    fn failures(&self) -> &[&'static str] {
        &self.failures
    }
    fn replay(&self) -> &str {
        &self.replay
    }
}

/// (p values, trees, calibration runs, test runs) of a profile.
fn plan(profile: Profile) -> (&'static [u32], &'static [&'static str], u32, u32) {
    match profile {
        Profile::Quick => (
            &[4, 16, 64, 256],
            &[
                "synthetic:size=8192,split=balanced",
                "synthetic:size=8192,split=alpha:0.1",
                "synthetic:size=1024,split=peel",
            ],
            4,
            8,
        ),
        Profile::Full => (
            &[4, 16, 64, 256, 1024],
            &[
                "synthetic:size=65536,split=balanced",
                "synthetic:size=65536,split=alpha:0.1",
                "synthetic:size=4096,split=peel",
                "uts:args=-t 0 -b 2000 -q 0.499 -m 2 -r 7",
            ],
            8,
            16,
        ),
    }
}

struct Job {
    phase: Phase,
    arbiter: Arbiter,
    pes: u32,
    tree: &'static str,
    index: u32,
}

/// Every run of `profile` (test runs with `mutant`).
pub fn run_all(profile: Profile, base: u64, mutant: Option<Mutant>) -> Vec<Sample> {
    let (pes, trees, cal, test) = plan(profile);
    let mut jobs = Vec::new();
    for (&arbiter, &p, &tree) in
        ARBITERS.iter().flat_map(|a| pes.iter().flat_map(move |p| trees.iter().map(move |t| (a, p, t))))
    {
        let each = |phase, n| (0..n).map(move |index| Job { phase, arbiter, pes: p, tree, index });
        jobs.extend(each(Phase::Calibrate, cal).chain(each(Phase::Test, test)));
    }
    par_map(&jobs, |j| run_one(j, base, mutant))
}

fn run_one(job: &Job, base: u64, mutant: Option<Mutant>) -> Sample {
    let label = format!("random-destination/{:?}/{}/{}/{}", job.phase, job.arbiter, job.pes, job.tree);
    let seed = derive_seed(base, &label, job.index);
    let mut protocols = Protocols::new(BalancerKind::RandomDestination, DetectorKind::Energy);
    protocols.mutant = mutant.filter(|_| job.phase == Phase::Test);
    let driver = Driver::Atomic(AtomicConfig { pes: job.pes, seed, arbiter: job.arbiter, ..AtomicConfig::default() });
    let workload = job.tree.parse().expect("a valid workload");
    let spec = RunSpec { workload, split: Default::default(), protocols, driver };
    let result = spec.run(None).expect("no trace to write");
    let a = result.atomic.expect("an atomic run");
    let finished = result.outcome.finished();
    Sample {
        phase: job.phase,
        arbiter: job.arbiter,
        pes: job.pes,
        h: a.h,
        r: if finished { a.ratio } else { f64::INFINITY },
        lower_ok: a.t >= a.lower,
        failures: result.check.failures().into_iter().map(|(name, _)| name).collect(),
        replay: spec.replay(),
    }
}

/// The fitted k (global and per arbiter) and the claims.
pub fn evaluate(samples: &[Sample], alpha: f64) -> (serde_json::Value, Vec<Claim>) {
    let k = fitted(samples.iter().map(|s| (s.phase, s.r)));
    let by_arbiter: BTreeMap<String, f64> = ARBITERS
        .iter()
        .map(|a| (a.to_string(), fitted(samples.iter().filter(|s| s.arbiter == *a).map(|s| (s.phase, s.r)))))
        .collect();
    let test: Vec<&Sample> = samples.iter().filter(|s| s.phase == Phase::Test).collect();
    let by_p: Vec<(u32, f64)> = test.iter().map(|s| (s.pes, s.r)).collect();
    let by_h: Vec<(u32, f64)> = test.iter().map(|s| (s.h as u32, s.r)).collect();
    let below = test.iter().filter(|s| !s.lower_ok).count() as u64;
    let claims = vec![
        exact("lower_bound_004", "004 §1: T ≥ max(⌈n/p⌉, h) on every run", test.len(), below),
        quantile("thm1", "004 Thm 1: R = T/(n/p + h) bounded (every arbiter)", &by_p, k, alpha),
        slope("thm1_trend_p", "004 Thm 1: R has no upward trend in log2 p", &by_p, k, alpha),
        slope("thm1_trend_h", "004 Thm 1: R has no upward trend in log2 h", &by_h, k, alpha),
    ];
    (serde_json::json!({ "k": k, "k_by_arbiter": by_arbiter }), claims)
}
