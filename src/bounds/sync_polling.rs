//! Synchronous random polling's bound (001 §1.3, refs. [28, 29]; S-13):
//! T_par ≤ (1 + ε)·T_seq/P + O(h·T_rout) w.h.p. The suite runs
//! [`crate::protocol::sync_polling`] on the cells of 001 Thm 1 in random
//! polling's suite ([`Profile::cells`], without Thm 2's) and checks its
//! claims the same way ([`super::claims`]: a constant fitted on
//! calibration runs of the reference, test runs on other seeds held to
//! (1 + MARGIN) times it, a trend test in log2 P):
//!
//! - `t_par` (statistical): R = (T_par − (1 + ε)·T_seq/P) / (T_atomic +
//!   h·T_round) bounded. T_round = Δt + T_poll + T_split + 2·T_rout is the
//!   round ([`crate::sim::SimConfig::sync_rounds`]); O(h·T_rout) is the
//!   paper's term with Δt and T_split in O(T_rout) (ref. 28's assumption);
//!   T_atomic is the last atomic piece's time, which no round can shorten.
//! - `t_par_trend` (statistical): R has no upward trend in log2 P.
//! - `lower_bound_eq1` (exact): 000 eq. (1) on every run.
//! - `invariants` (exact): every property of `check/` on every test run.
//!
//! As random polling's, the verdict is refused (exit 2) when a calibration
//! run breaks 000 §2.1's assumptions h ≥ log2 P, T_seq ≥ P·h
//! ([`super::assumptions`]); every cell of both profiles meets them.

use super::claims::{self, alpha_of, quantile, slope, Claim};
use super::plan::{Cell, Profile, T_POLL};
use super::range::Need;
use super::suite::{measure_seen, par_map, Phase, Sample, STEP_CAP_FACTOR};
use crate::base::rng::derive_seed;
use crate::event::Event;
use crate::harness::{Driver, RunSpec};
use crate::mutants::Mutant;
use crate::protocol::{BalancerKind, BalancerSpec, DetectorKind};

/// The suite's statistical tests (`t_par`, `t_par_trend`): Bonferroni divisor.
pub const STAT_TESTS: usize = 2;

/// The cells: 001 Thm 1's of random polling's suite.
pub fn cells(profile: Profile) -> Vec<Cell> {
    profile.cells().into_iter().filter(|c| c.trim.is_none()).collect()
}

/// The run of `cell` with seed `seed`: random polling's spec with the
/// synchronous balancer (and `mutant`'s bug, if it acts there).
pub fn spec(cell: &Cell, seed: u64, mutant: Option<Mutant>) -> RunSpec {
    let kind = BalancerKind::SyncRandomPolling;
    let mutant = mutant.filter(|m| m.not_applicable(kind, DetectorKind::Energy, false).is_none());
    let base = cell.spec(seed, None);
    RunSpec { balancer: BalancerSpec::of(kind), mutant, ..base }
}

/// One run of `cell`, calibration or test (`cap`: the step cap of a test
/// run), every event also shown to `also`.
fn run_seen(
    cell: &Cell,
    phase: Phase,
    index: u32,
    cap: Option<u64>,
    (base, mutant): (u64, Option<Mutant>),
    also: &mut dyn FnMut(&Event),
) -> Sample {
    let name = if phase == Phase::Calibrate { "calibrate" } else { "test" };
    let seed = derive_seed(base, &format!("sync-random-polling/{name}/{}", cell.label()), index);
    let mut spec = spec(cell, seed, mutant.filter(|_| phase == Phase::Test));
    if let (Driver::Sim(c), Some(cap)) = (&mut spec.driver, cap) {
        c.max_steps = cap;
    }
    measure_seen(cell, phase, &spec, &spec.balancer, cap.is_some(), also)
}

/// A test run stopped at [`STEP_CAP_FACTOR`] × `most` (its cell's most
/// calibration steps). With `limit` (a mutant's: `t_par`'s limit (1 +
/// MARGIN)·c) it first runs to `most` steps alone: stopped there with its
/// last event's time already putting R above `limit`, it is one of the
/// runs `t_par` counts above its limit whatever the rest would do (T_par
/// is at least that time, or the run stops unfinished: R = ∞), and is
/// kept as such; any other run is run again to the usual cap (a run that
/// finishes before `most` steps is the same run either way).
fn run_test(cell: &Cell, index: u32, most: Option<u64>, run: (u64, Option<Mutant>), limit: Option<f64>) -> Sample {
    let cap = most.map(|m| m * STEP_CAP_FACTOR);
    if let (Some(limit), Some(most)) = (limit, most) {
        let mut last = 0;
        let s = run_seen(cell, Phase::Test, index, Some(most), run, &mut |e| last = last.max(e.time()));
        if !s.capped || excess(&Sample { t_par: Some(last), ..s.clone() }) > limit {
            return s;
        }
    }
    run_seen(cell, Phase::Test, index, cap, run, &mut |_| {})
}

/// Every calibration run of `profile` (the reference) under base seed
/// `base`, then every test run (with `mutant`), each stopped at
/// [`STEP_CAP_FACTOR`] × its cell's most calibration steps (as in
/// [`super::suite::run_all`]). Calibration runs are kept for the process
/// ([`super::memo`]: the campaign's mutants cells reuse the reference's).
pub fn run_all(profile: Profile, max_pes: u32, base: u64, mutant: Option<Mutant>) -> Vec<Sample> {
    let cells: Vec<Cell> = cells(profile).into_iter().filter(|c| c.pes <= max_pes).collect();
    let (cal, test) = profile.runs();
    let jobs = |n: u32| -> Vec<(usize, u32)> { (0..cells.len()).flat_map(|i| (0..n).map(move |k| (i, k))).collect() };
    let calibrate = |&(i, k): &(usize, u32)| {
        let key = format!("sync-random-polling/{:?}/{k}/{base}", cells[i]);
        super::memo::calibration(key, || run_seen(&cells[i], Phase::Calibrate, k, None, (base, None), &mut |_| {}))
    };
    let calibration = par_map(&jobs(cal), calibrate);
    let most = |i: usize| calibration.iter().skip(i * cal as usize).take(cal as usize).map(|s| s.steps).max();
    let limit = mutant.map(|_| (1.0 + claims::MARGIN) * calibration.iter().map(excess).fold(0.0, f64::max));
    let tests = par_map(&jobs(test), |&(i, k)| run_test(&cells[i], k, most(i), (base, mutant), limit));
    calibration.into_iter().chain(tests).collect()
}

/// The P values of `profile`'s cells and what the claims need of them:
/// random polling's Thm 1 trend needs ([`super::plan::needs`]; the same
/// cells, the same finite-size rise at small P).
pub fn needs(profile: Profile) -> (Vec<u32>, Vec<Need>) {
    let pes: Vec<u32> = cells(profile).iter().map(|c| c.pes).collect();
    let why = "hold the slope per doubling of P (the cells of 001 Thm 1 in random polling's suite, whose own slope \
               over P = 4 … 16 is a finite-size rise)";
    (pes.clone(), vec![Need::distinct("t_par_trend", &pes, super::plan::TREND_POINTS, why)])
}

/// T_round of `s`'s machine on the crossbar: Δt + T_poll + T_split + 2·T_rout.
pub fn round(s: &Sample) -> u64 {
    s.machine.dt + T_POLL + s.machine.t_split + 2 * s.machine.t_rout
}

/// R = (T_par − (1 + ε)·T_seq/P) / (T_atomic + h·T_round); +∞ if unfinished.
pub fn excess(s: &Sample) -> f64 {
    let m = &s.machine;
    let rest = (m.t_atomic + m.h * round(s)) as f64;
    s.t_par.map_or(f64::INFINITY, |t| (t as f64 - (1.0 + m.eps()) * m.t_seq as f64 / f64::from(m.pes)) / rest)
}

/// The fitted constant (JSON `k`: max R over the calibration runs) and every claim.
pub fn evaluate(samples: &[Sample]) -> (serde_json::Value, Vec<Claim>) {
    let alpha = alpha_of(STAT_TESTS);
    let c = samples.iter().filter(|s| s.phase == Phase::Calibrate).map(excess).fold(0.0, f64::max);
    let test: Vec<&Sample> = samples.iter().filter(|s| s.phase == Phase::Test).collect();
    let r: Vec<(u32, f64)> = test.iter().map(|s| (s.pes, excess(s))).collect();
    let claims = vec![
        quantile("t_par", "001 §1.3 [28, 29]: R = (T_par − (1+ε)T_seq/P)/(T_atomic + h·T_round) bounded", &r, c, alpha),
        slope("t_par_trend", "001 §1.3 [28, 29]: R has no upward trend in log2 P", &r, c, alpha),
        claims::lower_claim(&test),
        claims::invariants(test.iter().map(|s| (&s.failures[..], s.replay.as_str()))),
    ];
    (serde_json::json!({ "k": c }), claims)
}
