//! Hypercube poll-and-shuffle (000 §3; S-2, S-6): the suite `lbcheck
//! bounds --balancer poll-and-shuffle`.
//!
//! - `perm_uniform` (χ², S-6): the permutation of 4 subproblems is uniform
//!   over the 24 of S_4 (10^5 draws of the run's own method).
//! - `eq4_partners` (χ², 000 eq. (4)): after a cycle's permutation the
//!   subproblem that becomes S's dimension-i partner is uniform over the
//!   n − 1 others, for n = 16 and each i; a shuffle that commutes with the
//!   pairings (none, or k ↦ k ⊕ r) pairs S with the same subproblem every
//!   time. This is what Lemma 2's probability γ/2 rests on.
//! - `t_par`, `t_par_trend` (000 Thm 1): R = (T_par − T_seq/n) /
//!   (T_atomic + h·(T_phase + c_poll + T_perm/L)) with c_poll = 2·T_rout +
//!   T_split and T_perm = T_rout·log2 n, bounded by the constant fitted on
//!   calibration runs at (1 + MARGIN) on test runs, and no upward trend in
//!   log2 n (the Õ(h) of Thm 1 is free of log n).
//! - the adaptive trigger's claims (000 §5, Lemmas 4–5, Thm 5;
//!   [`super::adaptive`]): `notify_tail`, `idle_estimate`,
//!   `adaptive_t_par`, `adaptive_t_par_trend`, `shuffles_le_cycles`.
//! - `invariants` (exact): every property of `check/` on every test run
//!   (the adaptive ones and their cycle-trigger twins too).
//!
//! α = FAMILY_ALPHA / [`STAT_TESTS`] each (Bonferroni; `eq4_partners`
//! splits its α over its dimensions).

use rand_chacha::ChaCha8Rng;
use statrs::distribution::{ChiSquared, ContinuousCDF};

use super::atomic::{alpha, fitted};
use super::claims::{self, quantile, slope, Claim};
use super::plan::Profile;
use super::suite::{par_map, Phase, STEP_CAP_FACTOR};
use crate::base::rng::{derive_seed, stream, Purpose};
use crate::harness::{Driver, Protocols, RunResult, RunSpec};
use crate::mutants::{seams, Mutant};
use crate::problem::dfs::Strategy;
use crate::protocol::{BalancerKind, DetectorKind};
use crate::sim::phased::permutation::{self, Method};
use crate::sim::{SimConfig, Topology};

/// The statistical tests of the suite (Bonferroni): 4 here, and the
/// adaptive trigger's ([`super::adaptive`]).
pub const STAT_TESTS: usize = 4 + super::adaptive::STAT_TESTS;
/// T_atomic of the synthetic workloads.
const ATOMIC: u64 = 4;
/// Each PE's share: 2^SHARE_LOG · T_atomic units.
const SHARE_LOG: u32 = 9;
/// (T_phase, T_rout, T_split).
const MACHINE: (u64, u64, u64) = (20, 2, 2);
/// Permutations drawn for the χ² tests.
const DRAWS: u32 = 100_000;

/// What one run measured.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Calibration or test.
    pub phase: Phase,
    /// n.
    pub pes: u32,
    /// R of Thm 1; +∞ if unfinished.
    pub r: f64,
    /// Simulator steps (phases) the run took.
    pub steps: u64,
    /// Invariants that failed.
    pub failures: Vec<&'static str>,
    /// The command that replays the run.
    pub replay: String,
}

/// Calibration runs (the reference), then test runs (with `mutant`), on
/// the hypercube, P = 4 … 64 (quick) or … 256 (full), balanced and uniform trees.
pub fn run_all(profile: Profile, base: u64, mutant: Option<Mutant>) -> Vec<Sample> {
    let top = if profile == Profile::Quick { 6 } else { 8 };
    let cells: Vec<(&str, u32)> =
        ["balanced", "uniform"].into_iter().flat_map(|p| (2..=top).map(move |k| (p, 1u32 << k))).collect();
    let jobs = |phase, cap: &dyn Fn(usize) -> Option<u64>| -> Vec<(usize, Phase, u32, Option<u64>)> {
        (0..cells.len()).flat_map(|c| (0..8).map(move |i| (c, phase, i, cap(c)))).collect()
    };
    let calibration =
        par_map(&jobs(Phase::Calibrate, &|_| None), |&(c, ph, i, cap)| run_one(cells[c], ph, i, cap, base, None));
    let most = |c: usize| calibration.iter().skip(c * 8).take(8).map(|s| s.steps).max().map(|m| m * STEP_CAP_FACTOR);
    let tests = par_map(&jobs(Phase::Test, &most), |&(c, ph, i, cap)| run_one(cells[c], ph, i, cap, base, mutant));
    calibration.into_iter().chain(tests).collect()
}

fn run_one(cell: (&str, u32), phase: Phase, index: u32, cap: Option<u64>, base: u64, mutant: Option<Mutant>) -> Sample {
    let (policy, pes) = cell;
    let label =
        format!("{}/poll-and-shuffle/{policy}/P={pes}", if phase == Phase::Calibrate { "calibrate" } else { "test" });
    let protocols = Protocols::new(BalancerKind::PollAndShuffle, DetectorKind::Barrier)
        .with_mutant(mutant.filter(|_| phase == Phase::Test));
    let spec = spec(policy, pes, derive_seed(base, &label, index), cap, protocols);
    let report = spec.run(None).expect("no trace to write");
    let capped = report.outcome.stop == crate::sim::Stop::StepCap && cap.is_some();
    Sample {
        phase,
        pes,
        r: r_of(&spec, &report),
        steps: report.outcome.steps,
        failures: if capped { Vec::new() } else { report.check.failures().into_iter().map(|(n, _)| n).collect() },
        replay: spec.replay(),
    }
}

/// The run of `protocols` on `pes` PEs of the hypercube, a synthetic tree
/// split by `policy`, seed `seed`, capped at `cap` phases.
pub(super) fn spec(policy: &str, pes: u32, seed: u64, cap: Option<u64>, protocols: Protocols) -> RunSpec {
    let (dt, t_rout, t_split) = MACHINE;
    let size = u64::from(pes) * (ATOMIC << SHARE_LOG);
    let workload = format!("synthetic:size={size},atomic={ATOMIC},split={policy},seed={}", seed % 1_000_000);
    let max_steps = cap.unwrap_or(1_000_000);
    let sim =
        SimConfig { pes, seed, dt, t_rout, t_split, max_steps, topology: Topology::Hypercube, ..SimConfig::default() };
    RunSpec {
        workload: workload.parse().expect("valid"),
        split: Strategy::default(),
        protocols,
        driver: Driver::Sim(sim),
    }
}

/// Thm 1's R of a run of [`spec`]; +∞ if unfinished.
pub(super) fn r_of(spec: &RunSpec, report: &RunResult) -> f64 {
    let (dt, t_rout, t_split) = MACHINE;
    let (t_atomic, h) = spec.workload.atomic_and_h().unwrap_or((0, 0));
    let t_par = report.check.metrics.t_par.filter(|_| report.outcome.finished());
    // T_perm/L = T_rout·log2 n / log2 n on the hypercube: one T_rout per phase.
    let rest = t_atomic as f64 + h as f64 * (dt + 2 * t_rout + t_split + t_rout) as f64;
    let (t_seq, pes) = (report.reference.t_seq as f64, f64::from(spec.driver.pes()));
    t_par.map_or(f64::INFINITY, |t| (t as f64 - t_seq / pes) / rest)
}

/// The permutations of `n` subproblems a cycle draws under `mutant`, `draws` times.
fn permutations(n: u32, draws: u32, base: u64, mutant: Option<Mutant>) -> impl Iterator<Item = Vec<u32>> {
    let rules = seams::poll_and_shuffle(mutant);
    let mut rngs: Vec<ChaCha8Rng> = (0..n).map(|k| stream(derive_seed(base, "eq4", n), k, Purpose::Protocol)).collect();
    let mut shared = stream(derive_seed(base, "eq4", n), 0, Purpose::Permutation);
    (0..draws).map(move |_| permutation::draw(rules, Method::Exact, &mut rngs, &[], &mut shared))
}

/// Pearson's χ² p-value of `counts` against the uniform distribution.
fn chi_square_p(counts: &[u64]) -> f64 {
    let e = counts.iter().sum::<u64>() as f64 / counts.len() as f64;
    let x: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
    ChiSquared::new((counts.len() - 1) as f64).map_or(0.0, |d| d.sf(x))
}

/// 000 eq. (4): S = subproblem 0's dimension-i partner after a shuffle is
/// uniform over the other n − 1 (n = 16, each i; α split over the i).
fn eq4_claim(base: u64, mutant: Option<Mutant>) -> Claim {
    let (n, dims) = (16u32, 4u32);
    let mut counts = vec![vec![0u64; n as usize - 1]; dims as usize];
    for dest in permutations(n, DRAWS, base, mutant) {
        let mut at = vec![0u32; n as usize];
        dest.iter().enumerate().for_each(|(k, &d)| at[d as usize] = k as u32);
        for i in 0..dims {
            let partner = at[(dest[0] ^ (1 << i)) as usize];
            counts[i as usize][partner as usize - 1] += 1;
        }
    }
    let each = alpha(STAT_TESTS) / f64::from(dims);
    let worst = counts.iter().map(|c| chi_square_p(c)).fold(1.0, f64::min);
    Claim {
        name: "eq4_partners",
        reference: "000 eq. (4), Lemma 2: after a shuffle S's dimension-i partner is uniform over the others",
        n: u64::from(DRAWS),
        measured: format!("min p = {worst:.2e} over i = 0..{dims} at n = {n}"),
        bound: format!("p ≥ {each:.1e} each"),
        ci: format!("χ², {} degrees of freedom", n - 2),
        alpha: Some(alpha(STAT_TESTS)),
        pass: worst >= each,
    }
}

/// S-6: the exact method draws each of the 24 permutations of 4 equally often.
fn uniform_claim(base: u64, mutant: Option<Mutant>) -> Claim {
    let mut counts = std::collections::BTreeMap::<Vec<u32>, u64>::new();
    for dest in permutations(4, DRAWS, base, mutant) {
        *counts.entry(dest).or_default() += 1;
    }
    let mut cells: Vec<u64> = counts.values().copied().collect();
    cells.resize(24, 0);
    let p = chi_square_p(&cells);
    Claim {
        name: "perm_uniform",
        reference: "000 §3.2, S-6: the exact permutation is uniform over S_n (n = 4)",
        n: u64::from(DRAWS),
        measured: format!("p = {p:.2e} ({} of 24 permutations seen)", counts.len()),
        bound: format!("p ≥ {:.1e}", alpha(STAT_TESTS)),
        ci: "χ², 23 degrees of freedom".into(),
        alpha: Some(alpha(STAT_TESTS)),
        pass: p >= alpha(STAT_TESTS),
    }
}

/// The fitted constants and the claims, the adaptive trigger's (on `adaptive`) among them.
pub fn evaluate(
    samples: &[Sample],
    adaptive: &[super::adaptive::Run],
    base: u64,
    mutant: Option<Mutant>,
) -> (serde_json::Value, Vec<Claim>) {
    let k = fitted(samples.iter().map(|s| (s.phase, s.r)));
    let test: Vec<&Sample> = samples.iter().filter(|s| s.phase == Phase::Test).collect();
    let r: Vec<(u32, f64)> = test.iter().map(|s| (s.pes, s.r)).collect();
    let reference = "000 Thm 1: R = (T_par − T_seq/n)/(T_atomic + h(T_phase + c_poll + T_perm/L)) bounded";
    let (k_adaptive, adaptive_claims) = super::adaptive::evaluate(adaptive, alpha(STAT_TESTS));
    let adaptive_tests = adaptive.iter().filter(|r| r.phase == Phase::Test);
    let mut claims = vec![
        uniform_claim(base, mutant),
        eq4_claim(base, mutant),
        quantile("t_par", reference, &r, k, alpha(STAT_TESTS)),
        slope(
            "t_par_trend",
            "000 Thm 1: R has no upward trend in log2 n (Õ(h), not Õ(h log n))",
            &r,
            k,
            alpha(STAT_TESTS),
        ),
    ];
    claims.extend(adaptive_claims);
    let every = test.iter().map(|s| (&s.failures[..], s.replay.as_str()));
    claims.push(claims::invariants(every.chain(adaptive_tests.map(|r| (&r.failures[..], r.replay.as_str())))));
    (serde_json::json!({ "k": k, "k_adaptive": k_adaptive }), claims)
}
