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
use super::suite::{measure, par_map, Phase, Sample, STEP_CAP_FACTOR};
use crate::base::rng::derive_seed;
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

/// One run of `cell`, calibration or test (`caps`: a test run's step cap
/// and time cap, [`crate::sim::SimConfig::max_time`]).
fn run(cell: &Cell, phase: Phase, index: u32, caps: (Option<u64>, Option<u64>), of: (u64, Option<Mutant>)) -> Sample {
    let (base, mutant) = of;
    let name = if phase == Phase::Calibrate { "calibrate" } else { "test" };
    let seed = derive_seed(base, &format!("sync-random-polling/{name}/{}", cell.label()), index);
    let mut spec = spec(cell, seed, mutant.filter(|_| phase == Phase::Test));
    if let Driver::Sim(c) = &mut spec.driver {
        c.max_steps = caps.0.unwrap_or(c.max_steps);
        c.max_time = caps.1;
    }
    measure(cell, phase, &spec, &spec.balancer, caps.0.is_some() || caps.1.is_some())
}

/// The model time past which a test run whose computation is not over has
/// R above `limit` (a mutant's: `t_par`'s limit (1 + MARGIN)·c) whatever it
/// does next: its T_par (when the last PE learns of termination) is later
/// still. A run stopped there ([`crate::sim::SimConfig::max_time`]: R = ∞)
/// is one of the runs `t_par` counts above its limit; a run whose
/// computation is over by then runs on to its detection, the same run as
/// uncapped. Only where every calibration run of a synthetic cell has the
/// same machine (T_seq, h, T_atomic: the workload's), which a test run
/// then shares (a UTS cell's h is each run's own).
fn time_cap(cell: &Cell, calibration: &[Sample], limit: Option<f64>) -> Option<u64> {
    let m = calibration.first()?.machine;
    if !cell.synthetic() || calibration.iter().any(|s| s.machine != m) {
        return None;
    }
    let rest = (m.t_atomic + m.h * round(&calibration[0])) as f64;
    let t = limit? * rest + (1.0 + m.eps()) * m.t_seq as f64 / f64::from(m.pes);
    (t.is_finite() && t < 1e18).then(|| t.ceil() as u64 + 1)
}

/// Every calibration run of `profile` (the reference) under base seed
/// `base`, then every test run (with `mutant`), each stopped at
/// [`STEP_CAP_FACTOR`] × its cell's most calibration steps (as in
/// [`super::suite::run_all`]) and, with a mutant, at its time cap (`time_cap`).
/// Calibration runs are kept for the process ([`super::memo`]: the
/// campaign's mutants cells reuse the reference's).
pub fn run_all(profile: Profile, max_pes: u32, base: u64, mutant: Option<Mutant>) -> Vec<Sample> {
    runs(profile, max_pes, base, mutant, mutant.is_some())
}

/// [`run_all`], the test runs also stopped at their [`time_cap`] if `caps`.
fn runs(profile: Profile, max_pes: u32, base: u64, mutant: Option<Mutant>, caps: bool) -> Vec<Sample> {
    let cells: Vec<Cell> = cells(profile).into_iter().filter(|c| c.pes <= max_pes).collect();
    let (cal, test) = profile.runs();
    let jobs = |n: u32| -> Vec<(usize, u32)> { (0..cells.len()).flat_map(|i| (0..n).map(move |k| (i, k))).collect() };
    let calibrate = |&(i, k): &(usize, u32)| {
        let key = format!("sync-random-polling/{:?}/{k}/{base}", cells[i]);
        super::memo::calibration(key, || run(&cells[i], Phase::Calibrate, k, (None, None), (base, None)))
    };
    let calibration = par_map(&jobs(cal), calibrate);
    let of_cell = |i: usize| &calibration[i * cal as usize..(i + 1) * cal as usize];
    let most = |i: usize| of_cell(i).iter().map(|s| s.steps).max();
    let limit = caps.then(|| (1.0 + claims::MARGIN) * calibration.iter().map(excess).fold(0.0, f64::max));
    let caps = |i: usize| (most(i).map(|m| m * STEP_CAP_FACTOR), time_cap(&cells[i], of_cell(i), limit));
    let tests = par_map(&jobs(test), |&(i, k)| run(&cells[i], Phase::Test, k, caps(i), (base, mutant)));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutants::CATALOGUE;

    /// The time caps change no verdict: `sync-poll-neighbour`'s `t_par`
    /// (the claim its bounds cell lists) gives the same verdict and the
    /// same count of runs above the limit with the caps as with whole runs
    /// (each still stopped at its step cap), on the quick profile's P ≤ 16,
    /// and some run was stopped by its time cap.
    #[test]
    fn time_caps_give_the_whole_runs_verdicts() {
        let m = CATALOGUE.iter().find(|e| e.info.name == "sync-poll-neighbour").expect("in the catalogue").mutant;
        let claims = |caps| evaluate(&runs(Profile::Quick, 16, 1, Some(m), caps)).1;
        let (capped, whole) = (claims(true), claims(false));
        let above = |c: &Claim| c.measured.split("; ").nth(1).map(str::to_string);
        let (c, w) = (&capped[0], &whole[0]);
        assert_eq!((c.name, c.verdict, above(c)), ("t_par", w.verdict, above(w)));
        assert!(c.failed(), "sync-poll-neighbour caught: {}", c.measured);
        assert!(c.measured.starts_with("max inf"), "a run stopped: {}", c.measured);
    }
}
