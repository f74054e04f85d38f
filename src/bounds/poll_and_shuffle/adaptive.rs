//! Poll-and-shuffle with the adaptive trigger (000 §5, Lemmas 4–5, Thm 5;
//! S-7): the runs and claims `lbcheck bounds --balancer poll-and-shuffle`
//! adds to those of [`super`] on the hypercube.
//!
//! Runs: the hypercube, P = 4 … 256 (quick) or … 1024 (full), balanced and
//! uniform synthetic trees, 8 seeds per cell, with `--trigger adaptive`
//! (000 §5's defaults: c = 5, α = 2, ε = 1/2, δ automatic): calibration
//! runs of the reference, test runs (the mutant under test), and beside
//! each test run the cycle trigger on the same seed.
//!
//! What a run shows: at each barrier the idle PEs — exactly the PEs that
//! drew a notification coin in that phase (idle at its start, or became
//! idle in it; no PE gets work between a phase's start and its barrier) —
//! and the `notify` messages sent in each phase (their `data.phase`).
//!
//! - `notify_tail` (000 Lemma 4, explicit): in a window of log2 n
//!   consecutive phases the notifications X are at most Bin(n·log2 n, c/n),
//!   so with a = max(e², ln 2/c), β = 2: P[X ≥ a·c·β·log2 n] ≤ n^(−β).
//!   Disjoint windows of every test run with n > a·c·β (smaller n cannot
//!   reach the threshold: n·log2 n coins at most); Clopper–Pearson on the
//!   frequency against the mean of n^(−2).
//! - `idle_estimate` (000 Lemma 5, explicit): over a window of
//!   W = α·log2 n phases with true idle fraction γ̄ (coins / (n·W)) the
//!   estimate γ̂ = X/(c·W) has P[γ̂ < γ̄ − ε] ≤ 1/n, as c ≥ 3 ln 2/(ε²α).
//!   Disjoint windows with γ̄ > ε (elsewhere the event is impossible);
//!   Clopper–Pearson against the mean of 1/n.
//! - `adaptive_t_par`, `adaptive_t_par_trend` (000 Thm 5, shape): Thm 1's
//!   R on the adaptive runs, bounded by the constant fitted on their
//!   calibration runs and free of log2 n.
//! - `shuffles_le_cycles` (Thm 5, S-7): the adaptive trigger permutes no
//!   more often than the cycle trigger. Exactly: in every prefix of every
//!   run no more permutations than the cycles of as many phases, i.e. ≥
//!   log2 n (= L on the hypercube) phases between two (000 §5: "never
//!   initiating random permutations after less than log n phases").
//!   Statistically, against the cycle trigger on the same seeds (its runs
//!   may be shorter): a sign test, among pairs that differ the adaptive
//!   run has more permutations with probability ≤ 1/2 (Clopper–Pearson
//!   against 1/2).
//!
//! Windows of one run are dependent through the trigger; each coin,
//! though, is fresh (the PE's own stream), so given everything before a
//! window, Lemmas 4 and 5 bound its event's probability, and the count of
//! windows with the event is stochastically at most binomial (and, with
//! the bounds differing by n, at most the binomial of their mean in the
//! upper tail, Hoeffding 1956) — what the Clopper–Pearson test assumes.

use std::collections::BTreeSet;

use crate::base::rng::derive_seed;
use crate::bounds::claims::fitted;
use crate::bounds::claims::{quantile, slope, Claim};
use crate::bounds::plan::Profile;
use crate::bounds::range;
use crate::bounds::stats::TailTest;
use crate::bounds::suite::{par_map, Phase, STEP_CAP_FACTOR};
use crate::event::{Event, Kind};
use crate::harness::{Driver, RunResult, RunSpec};
use crate::mutants::{Mutant, Need};
use crate::protocol::poll_and_shuffle::{Adaptive, PasParams, Trigger};
use crate::protocol::{BalancerSpec, DetectorKind};
use crate::sim::{SimConfig, Topology};

/// T_atomic of the synthetic workloads.
const ATOMIC: u64 = 4;
/// Each PE's share: 2^SHARE_LOG · T_atomic units.
const SHARE_LOG: u32 = 9;
/// (T_phase, T_rout, T_split) of these runs (calibrated with them; the
/// other runs of the suite use [`super::runs::MACHINE`]).
const MACHINE: (u64, u64, u64) = (20, 2, 2);

/// The run of poll-and-shuffle with `trigger` on `pes` PEs of the
/// hypercube, a synthetic tree split by `policy`, seed `seed`, capped at `cap` phases.
fn spec(policy: &str, pes: u32, seed: u64, cap: Option<u64>, trigger: Trigger) -> RunSpec {
    let (dt, t_rout, t_split) = MACHINE;
    let size = u64::from(pes) * (ATOMIC << SHARE_LOG);
    let workload = format!("synthetic:size={size},atomic={ATOMIC},split={policy},seed={}", seed % 1_000_000);
    let max_steps = cap.unwrap_or(1_000_000);
    let sim =
        SimConfig { pes, seed, dt, t_rout, t_split, max_steps, topology: Topology::Hypercube, ..SimConfig::default() };
    let balancer = BalancerSpec::PollAndShuffle(PasParams { trigger: Some(trigger), ..PasParams::default() });
    RunSpec::new(workload.parse().expect("valid"), balancer, DetectorKind::Barrier, Driver::Sim(sim))
}

/// Thm 1's R of a run of [`spec`] (one T_rout per phase for T_perm/L on
/// the hypercube); +∞ if unfinished.
fn r_of(spec: &RunSpec, report: &RunResult) -> f64 {
    let (dt, t_rout, t_split) = MACHINE;
    let (t_atomic, h) = spec.workload.atomic_and_h().unwrap_or((0, 0));
    let t_par = report.check.metrics.t_par.filter(|_| report.outcome.finished());
    let rest = t_atomic as f64 + h as f64 * (dt + 2 * t_rout + t_split + t_rout) as f64;
    let (t_seq, pes) = (report.reference.t_seq as f64, f64::from(spec.driver.pes()));
    t_par.map_or(f64::INFINITY, |t| (t as f64 - t_seq / pes) / rest)
}

/// The statistical tests this file adds to the suite.
pub const STAT_TESTS: usize = 5;
/// Lemma 4's β.
const BETA: f64 = 2.0;
/// Seeds per cell.
const SEEDS: u32 = 8;

/// What one adaptive run (and, for a test run, its cycle-trigger twin) measured.
#[derive(Clone, Debug)]
pub struct Run {
    /// Calibration or test.
    pub phase: Phase,
    /// n.
    pub pes: u32,
    /// Thm 1's R; +∞ if unfinished.
    pub r: f64,
    /// Phases.
    pub steps: u64,
    /// Permutations made.
    pub shuffles: u64,
    /// Test runs: the permutations of the cycle trigger on the same seed.
    pub cycles: Option<u64>,
    /// The fewest phases between two permutations (the first counted
    /// from the start), if any was made.
    pub min_gap: Option<u64>,
    /// Idle PEs at each barrier (the phase's notification coins).
    pub idle: Vec<u64>,
    /// Notifications sent in each phase.
    pub notes: Vec<u64>,
    /// Properties that failed (either run).
    pub failures: Vec<&'static str>,
    /// The command that replays the adaptive run.
    pub replay: String,
}

/// The cells: balanced and uniform trees, n = 4 … 256 (quick) or … 1024 (full).
pub fn cells(profile: Profile) -> Vec<(&'static str, u32)> {
    let top = if profile == Profile::Quick { 8 } else { 10 };
    ["balanced", "uniform"].into_iter().flat_map(|p| (2..=top).map(move |k| (p, 1u32 << k))).collect()
}

/// Lemma 4 holds for n > a·c·β (`notify_tail`'s runs).
pub fn notify_min_pes() -> f64 {
    let c = f64::from(Adaptive::PAPER.c);
    std::f64::consts::E.powi(2).max(2f64.ln() / c) * c * BETA
}

/// What the claims need of `--max-pes` ([`crate::bounds::range`]): the
/// trend two values of n; `notify_tail` a cell with n > a·c·β.
pub fn needs(profile: Profile) -> Vec<range::Need> {
    let pes: Vec<u32> = cells(profile).iter().map(|c| c.1).collect();
    let lemma4: Vec<u32> = pes.iter().copied().filter(|&p| f64::from(p) > notify_min_pes()).collect();
    let why = format!("tests Lemma 4 only where n > a·c·β = {:.1}", notify_min_pes());
    vec![
        range::Need::distinct("adaptive_t_par_trend", &pes, range::SLOPE_POINTS, "fits a slope in log2 n"),
        range::Need::cells("notify_tail", &lemma4, 1, &why),
    ]
}

/// Calibration runs (the reference), then test runs with `mutant`, of
/// the cells with n ≤ `max_pes`.
pub fn run_all(profile: Profile, max_pes: u32, base: u64, mutant: Option<Mutant>) -> Vec<Run> {
    let mut cells = cells(profile);
    cells.retain(|c| c.1 <= max_pes);
    let jobs = |phase, cap: &dyn Fn(usize) -> Option<u64>| -> Vec<(usize, Phase, u32, Option<u64>)> {
        (0..cells.len()).flat_map(|c| (0..SEEDS).map(move |i| (c, phase, i, cap(c)))).collect()
    };
    let cal = par_map(&jobs(Phase::Calibrate, &|_| None), |&(c, ph, i, _)| run_one(cells[c], ph, i, None, base, None));
    let most = |c: usize| {
        let steps = cal.iter().skip(c * SEEDS as usize).take(SEEDS as usize).map(|s| s.steps).max();
        steps.map(|m| m * STEP_CAP_FACTOR)
    };
    let tests = par_map(&jobs(Phase::Test, &most), |&(c, ph, i, cap)| run_one(cells[c], ph, i, cap, base, mutant));
    cal.into_iter().chain(tests).collect()
}

fn run_one(cell: (&str, u32), phase: Phase, index: u32, cap: Option<u64>, base: u64, mutant: Option<Mutant>) -> Run {
    let (policy, pes) = cell;
    let which = if phase == Phase::Calibrate { "calibrate" } else { "test" };
    let seed = derive_seed(base, &format!("{which}/poll-and-shuffle/adaptive/{policy}/P={pes}"), index);
    let mutant = mutant.filter(|_| phase == Phase::Test);
    let adaptive = spec(policy, pes, seed, cap, Trigger::Adaptive(Adaptive::PAPER)).with_mutant(mutant);
    let mut seen = Seen::default();
    let report = adaptive.run_observed(None, &mut |e| seen.observe(e, pes)).expect("no trace to write");
    let capped = |r: &crate::harness::RunResult| r.outcome.stop == crate::sim::Stop::StepCap && cap.is_some();
    let mut failures: Vec<&'static str> = match capped(&report) {
        true => Vec::new(),
        false => report.check.failures().into_iter().map(|(n, _)| n).collect(),
    };
    let cycles = (phase == Phase::Test).then(|| {
        let cycle = mutant.filter(|m| !m.entry().has_need(Need::AdaptiveTrigger));
        let twin = spec(policy, pes, seed, cap, Trigger::Cycle).with_mutant(cycle);
        let mut shuffles = Seen::default();
        let r = twin.run_observed(None, &mut |e| shuffles.observe(e, pes)).expect("no trace to write");
        failures.extend(r.check.failures().into_iter().map(|(n, _)| n).filter(|_| !capped(&r)));
        shuffles.cycle
    });
    Run {
        phase,
        pes,
        r: r_of(&adaptive, &report),
        steps: report.outcome.steps,
        shuffles: seen.cycle,
        cycles,
        min_gap: seen.min_gap,
        idle: seen.idle,
        notes: seen.notes,
        failures,
        replay: adaptive.replay(),
    }
}

/// What the observer keeps of a run's events.
#[derive(Default)]
struct Seen {
    busy: BTreeSet<u32>,
    idle: Vec<u64>,
    notes: Vec<u64>,
    /// The last barrier's cycle: the permutations made before it.
    cycle: u64,
    /// Phases before the last permutation, and the fewest between two.
    last_permutation: u64,
    min_gap: Option<u64>,
}

impl Seen {
    fn observe(&mut self, e: &Event, pes: u32) {
        match e {
            Event::Busy { pe, .. } => {
                self.busy.insert(*pe);
            }
            Event::Idle { pe, .. } => {
                self.busy.remove(pe);
            }
            Event::Phase { cycle, .. } => {
                let before = self.idle.len() as u64;
                if *cycle > self.cycle {
                    let gap = before - self.last_permutation;
                    (self.min_gap, self.last_permutation) = (Some(self.min_gap.map_or(gap, |g| g.min(gap))), before);
                }
                self.idle.push(u64::from(pes) - self.busy.len() as u64);
                self.cycle = *cycle;
            }
            Event::Send { kind: Kind::Notify, data: Some(d), .. } => {
                let j = d["phase"].as_u64().expect("notify data names its phase") as usize;
                if self.notes.len() <= j {
                    self.notes.resize(j + 1, 0);
                }
                self.notes[j] += 1;
            }
            _ => {}
        }
    }
}

/// Sums of `xs` over disjoint windows of `w` phases from phase 0 (complete ones only).
fn windows(xs: &[u64], len: usize, w: usize) -> Vec<u64> {
    (0..len / w.max(1)).map(|i| (i * w..(i + 1) * w).map(|j| xs.get(j).copied().unwrap_or(0)).sum()).collect()
}

/// 000 Lemma 4 on the test runs.
fn notify_tail(test: &[&Run], alpha: f64) -> Claim {
    let c = f64::from(Adaptive::PAPER.c);
    let a = std::f64::consts::E.powi(2).max(2f64.ln() / c);
    let (mut k, mut n, mut bound, mut worst) = (0u64, 0u64, 0.0, 0.0f64);
    for r in test.iter().filter(|r| f64::from(r.pes) > notify_min_pes()) {
        let log_n = f64::from(r.pes.trailing_zeros());
        let limit = a * c * BETA * log_n;
        for x in windows(&r.notes, r.idle.len(), log_n as usize) {
            (k, n) = (k + u64::from(x as f64 >= limit), n + 1);
            bound += f64::from(r.pes).powf(-BETA);
            worst = worst.max(x as f64 / (c * log_n));
        }
    }
    let mean = bound / n.max(1) as f64;
    let t = TailTest::new(k, n.max(1), mean, alpha);
    Claim {
        plot: None,
        name: "notify_tail",
        reference: "000 Lemma 4: P[notifications in log2 n phases ≥ a·c·β·log2 n] ≤ n^(−β), β = 2",
        n,
        measured: format!("{k} windows over; max X/(c·log2 n) {worst:.2} (threshold a·β = {:.1})", a * BETA),
        bound: format!("≤ {mean:.1e} (mean of n^(−2), n > a·c·β = {:.0})", a * c * BETA),
        ci: format!("rate [{:.2e}, {:.2e}]", t.lower, t.upper),
        alpha: Some(alpha),
        verdict: (n > 0 && t.holds()).into(),
    }
}

/// 000 Lemma 5 on the test runs.
fn idle_estimate(test: &[&Run], alpha: f64) -> Claim {
    let p = Adaptive::PAPER;
    let (c, eps) = (f64::from(p.c), p.eps());
    let (mut k, mut n, mut bound, mut worst) = (0u64, 0u64, 0.0, f64::INFINITY);
    for r in test {
        let w = p.window(r.pes) as usize;
        let coins = windows(&r.idle, r.idle.len(), w);
        let notes = windows(&r.notes, r.idle.len(), w);
        for (&trials, &x) in coins.iter().zip(&notes) {
            let true_gamma = trials as f64 / (f64::from(r.pes) * w as f64);
            if true_gamma <= eps {
                continue;
            }
            let estimate = x as f64 / (c * w as f64);
            (k, n) = (k + u64::from(estimate < true_gamma - eps), n + 1);
            bound += 1.0 / f64::from(r.pes);
            worst = worst.min(estimate - true_gamma);
        }
    }
    let mean = bound / n.max(1) as f64;
    let t = TailTest::new(k, n.max(1), mean, alpha);
    Claim {
        plot: None,
        name: "idle_estimate",
        reference: "000 Lemma 5: P[γ̂ < γ̄ − ε] ≤ 1/n over α·log2 n phases (c = 5 ≥ 3 ln 2/(ε²α), ε = 1/2, α = 2)",
        n,
        measured: format!("{k} windows under; min γ̂ − γ̄ {worst:.3} (windows with γ̄ > ε)"),
        bound: format!("≤ {mean:.1e} (mean of 1/n)"),
        ci: format!("rate [{:.2e}, {:.2e}]", t.lower, t.upper),
        alpha: Some(alpha),
        verdict: (n > 0 && t.holds()).into(),
    }
}

/// Thm 5 / S-7: permutations of the adaptive trigger ≤ those of the cycle
/// trigger: exactly, in every prefix of every run, no more than the cycles
/// of as many phases (gaps ≥ log2 n = L on the hypercube); and against the
/// cycle trigger's runs on the same seeds (sign test).
fn shuffles_le_cycles(test: &[&Run], alpha: f64) -> Claim {
    let close = |r: &&&Run| r.min_gap.is_some_and(|g| g < u64::from(r.pes.trailing_zeros()));
    let (bad, closest) = (test.iter().filter(close).count(), test.iter().filter_map(|r| r.min_gap).min());
    let pairs: Vec<(u64, u64)> = test.iter().filter_map(|r| r.cycles.map(|c| (r.shuffles, c))).collect();
    let more = pairs.iter().filter(|(s, c)| s > c).count() as u64;
    let differ = pairs.iter().filter(|(s, c)| s != c).count() as u64;
    let (s, c) = pairs.iter().fold((0, 0), |(a, b), (s, c)| (a + s, b + c));
    let t = TailTest::new(more, differ.max(1), 0.5, alpha);
    Claim { plot: None,
        name: "shuffles_le_cycles",
        reference: "000 Thm 5, S-7: the adaptive trigger permutes no more often than every cycle",
        n: pairs.len() as u64,
        measured: format!(
            "{bad} runs permute < log2 n phases apart (closest {}); {more} of {differ} differing pairs more; {s} permutations against {c}",
            closest.map_or("-".into(), |g| g.to_string())
        ),
        bound: "gaps ≥ log2 n (exact); P[more | differ] ≤ 1/2 (sign test)".into(),
        ci: format!("rate [{:.3}, {:.3}]", t.lower, t.upper),
        alpha: Some(alpha),
        verdict: (!pairs.is_empty() && t.holds() && bad == 0).into(),
    }
}

/// The fitted constant of Thm 5's R and the claims, each test at `alpha`.
pub fn evaluate(runs: &[Run], alpha: f64) -> (f64, Vec<Claim>) {
    let k = fitted(runs.iter().map(|r| (r.phase, r.r)));
    let test: Vec<&Run> = runs.iter().filter(|r| r.phase == Phase::Test).collect();
    let r: Vec<(u32, f64)> = test.iter().map(|s| (s.pes, s.r)).collect();
    let reference = "000 Thm 5: R of the adaptive trigger bounded (as Thm 1's)";
    let claims = vec![
        notify_tail(&test, alpha),
        idle_estimate(&test, alpha),
        quantile("adaptive_t_par", reference, &r, k, alpha),
        slope("adaptive_t_par_trend", "000 Thm 5: R of the adaptive trigger free of log2 n (Õ(h))", &r, k, alpha),
        shuffles_le_cycles(&test, alpha),
    ];
    (k, claims)
}
