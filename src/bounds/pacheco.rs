//! Pacheco's global round robin (003 §14.7.3; COVERAGE S-14): the suite
//! `lbcheck bounds --balancer pacheco`.
//!
//! - `v_p` (exact): V(P), the requests until every PE has been asked. PE 0
//!   holds one target counter c (from 0); a request of PE r gets c, or
//!   c + 1 if c = r (a PE never asks itself: the requester-skip rule of
//!   `src/protocol/pacheco.rs`), and c moves past the target. So the
//!   counter's first pass over the P ranks takes exactly P − s requests,
//!   where s is the number of ranks passed over because their turn came
//!   while they were the requester: every other rank receives exactly one
//!   request in it. The claim reads the assignments in PE 0's order from
//!   the events (each `target` message 0 → r is filled by r's next
//!   `request`; PE 0's own requests count at their `send`), marks each
//!   target and each rank passed over (requester r = c, target c + 1), and
//!   asks, on every test run with at least P assignments, for V(P) + s = P
//!   exactly (V(P) = P when no requester met its own turn). Random victim
//!   selection's V(P) is the coupon collector's ≈ P·H_P (the
//!   random-polling suite's `victims_uniform`).
//! - `t_par`, `t_par_trend`: 003 §14.7.3's T_par ∈ O(T_seq/P + h·T_count)
//!   with T_count = 4·T_rout (`get_target`, `target`, `request`, reply:
//!   "4t_s instead of 2t_s"), as R = (T_par − T_seq/P − (P − 1)·T_split) /
//!   (T_atomic + h·(4·T_rout + Δt + T_split)): bounded by the constant
//!   fitted on calibration runs (the reference, its own seeds) at (1 +
//!   MARGIN) on test runs (other seeds), and no upward trend in log2 P.
//!   (P − 1)·T_split is Generate + Scatter's start (003 §14.7): PE 0 splits
//!   p − 1 parts off one after the other before the last PE has work, a
//!   known additive term like T_seq/P, which the O(T_seq/P + h·T_count) of
//!   S-14 leaves out; left in the numerator it grows linearly in P and R
//!   rises with P (slope +0.14 per doubling at P = 4 … 64).
//! - `invariants` (exact): every property of `check/` on every test run
//!   (`round_robin` among them).
//!
//! α = FAMILY_ALPHA / [`STAT_TESTS`] each (Bonferroni); `v_p` and
//! `invariants` are exact.

use super::claims::{self, quantile, slope, Claim};
use super::claims::{alpha_of, fitted};
use super::plan::Profile;
use super::range::{self, Need};
use super::suite::{par_map, Phase, STEP_CAP_FACTOR};
use crate::base::rng::derive_seed;
use crate::event::{Event, Kind};
use crate::harness::{Driver, RunSpec};
use crate::mutants::Mutant;
use crate::protocol::pacheco::PachecoParams;
use crate::protocol::pacheco::Victim;
use crate::protocol::{BalancerSpec, DetectorKind};
use crate::sim::SimConfig;

/// The statistical tests of the suite (Bonferroni).
pub const STAT_TESTS: usize = 2;
/// T_atomic of the synthetic workloads.
const ATOMIC: u64 = 4;
/// Each PE's share of a synthetic workload: 2^SHARE_LOG · T_atomic units.
const SHARE_LOG: u32 = 9;

/// One cell: split policy, P, (Δt, T_rout, T_split).
#[derive(Clone, Debug)]
struct Cell {
    policy: &'static str,
    pes: u32,
    machine: (u64, u64, u64),
}

impl Cell {
    fn label(&self) -> String {
        let (dt, r, s) = self.machine;
        format!("pacheco/global-rr/{}/P={}/dt={dt},rout={r},split={s}", self.policy, self.pes)
    }
}

/// The cells of a profile and the calibration and test runs per cell.
fn plan(profile: Profile) -> (Vec<Cell>, u32, u32) {
    let (pes, machines): (&[u32], &[(u64, u64, u64)]) = match profile {
        Profile::Quick => (&[4, 8, 16, 32, 64], &[(10, 10, 5)]),
        Profile::Full => (&[4, 8, 16, 32, 64, 128, 256], &[(10, 10, 5), (5, 20, 10)]),
    };
    let mut cells = Vec::new();
    for policy in ["balanced", "uniform"] {
        for &p in pes {
            cells.extend(machines.iter().map(|&machine| Cell { policy, pes: p, machine }));
        }
    }
    (cells, 8, 8)
}

/// What one run measured.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Calibration or test.
    pub phase: Phase,
    /// P.
    pub pes: u32,
    /// R = (T_par − T_seq/P) / (T_atomic + h·(4·T_rout + Δt + T_split)); +∞ if unfinished.
    pub r: f64,
    /// Global round robin's assignments (requests) PE 0 made, in its order.
    pub assignments: u64,
    /// V(P): assignments until every rank was asked or passed over as its
    /// own requester (`None`: never, in the run).
    pub v_p: Option<u64>,
    /// Ranks passed over within V(P) (their turn came while they asked).
    pub skipped: u64,
    /// Simulator steps the run took.
    pub steps: u64,
    /// Invariants that failed.
    pub failures: Vec<&'static str>,
    /// The command that replays the run.
    pub replay: String,
}

/// V(P) from the stream: global round robin's assignments in PE 0's order.
#[derive(Default)]
struct Coverage {
    /// (requester, target once known).
    order: Vec<(u32, Option<u32>)>,
    /// Per requester, its assignments awaiting its request.
    waiting: Vec<std::collections::VecDeque<usize>>,
}

impl Coverage {
    fn new(pes: u32) -> Coverage {
        Coverage { order: Vec::new(), waiting: vec![Default::default(); pes as usize] }
    }

    fn observe(&mut self, e: &Event) {
        match *e {
            Event::Send { from: 0, to, kind: Kind::Target, .. } => {
                self.waiting[to as usize].push_back(self.order.len());
                self.order.push((to, None));
            }
            Event::Send { from: 0, to, kind: Kind::Request, .. } => self.order.push((0, Some(to))),
            Event::Send { from, to, kind: Kind::Request, .. } => {
                if let Some(i) = self.waiting.get_mut(from as usize).and_then(|w| w.pop_front()) {
                    self.order[i].1 = Some(to);
                }
            }
            _ => {}
        }
    }

    /// (assignments with a known target, V(P), ranks passed over in the
    /// first pass). The first pass of PE 0's counter c: each assignment
    /// (r, t) must have t = c, or t = c + 1 with r = c (c passed over: its
    /// own turn while it asked); the pass ends when c reaches P, and a
    /// requester r = P − 1 at its own turn is passed over by a target that
    /// wraps to 0 (that request opens the next pass). V(P) is `None` if an
    /// assignment breaks the rule or the pass does not end in the run.
    fn v_p(&self, pes: u32) -> (u64, Option<u64>, u64) {
        let known: Vec<(u32, u32)> = self.order.iter().map_while(|&(r, t)| t.map(|t| (r, t))).collect();
        let (mut c, mut v, mut skipped) = (0, 0, 0);
        for &(r, t) in &known {
            if t == c {
                v += 1;
            } else if r == c && t == (c + 1) % pes {
                skipped += 1;
                if t == 0 {
                    return (known.len() as u64, Some(v), skipped); // c = P − 1 passed over
                }
                v += 1;
            } else {
                return (known.len() as u64, None, skipped);
            }
            c = t + 1;
            if c == pes {
                return (known.len() as u64, Some(v), skipped);
            }
        }
        (known.len() as u64, None, skipped)
    }
}

struct Job<'a> {
    cell: &'a Cell,
    phase: Phase,
    index: u32,
    cap: Option<u64>,
}

/// The P values of `profile`'s cells, and what its claims need of them
/// (`--max-pes`, [`range`]): `t_par_trend` two values of P.
pub fn needs(profile: Profile) -> (Vec<u32>, Vec<Need>) {
    let pes: Vec<u32> = plan(profile).0.iter().map(|c| c.pes).collect();
    let trend = Need::distinct("t_par_trend", &pes, range::SLOPE_POINTS, "fits a slope in log2 P");
    (pes, vec![trend])
}

/// Every calibration run (the reference), then every test run (with
/// `mutant`), each stopped at [`STEP_CAP_FACTOR`] × its cell's most
/// calibration steps.
pub fn run_all(profile: Profile, max_pes: u32, base: u64, mutant: Option<Mutant>) -> Vec<Sample> {
    let (mut cells, cal, test) = plan(profile);
    cells.retain(|c| c.pes <= max_pes);
    let jobs = |phase, n, cap: &dyn Fn(usize) -> Option<u64>| -> Vec<Job> {
        let each = |(i, cell)| (0..n).map(move |index| Job { cell, phase, index, cap: cap(i) });
        cells.iter().enumerate().flat_map(each).collect()
    };
    let calibration = par_map(&jobs(Phase::Calibrate, cal, &|_| None), |j| run_one(j, base, None));
    let most = |i: usize| calibration.iter().skip(i * cal as usize).take(cal as usize).map(|s| s.steps).max();
    let tests =
        par_map(&jobs(Phase::Test, test, &|i| most(i).map(|m| m * STEP_CAP_FACTOR)), |j| run_one(j, base, mutant));
    calibration.into_iter().chain(tests).collect()
}

fn run_one(job: &Job, base: u64, mutant: Option<Mutant>) -> Sample {
    let phase = if job.phase == Phase::Calibrate { "calibrate" } else { "test" };
    let seed = derive_seed(base, &format!("{phase}/{}", job.cell.label()), job.index);
    let pes = job.cell.pes;
    let (dt, t_rout, t_split) = job.cell.machine;
    let size = u64::from(pes) * (ATOMIC << SHARE_LOG);
    let workload = format!("synthetic:size={size},atomic={ATOMIC},split={},seed={}", job.cell.policy, seed % 1_000_000);
    let max_steps = job.cap.unwrap_or(50_000_000);
    let sim = SimConfig { pes, seed, dt, t_rout, t_split, max_steps, ..SimConfig::default() };
    let workload = workload.parse().expect("the plan's workloads parse");
    let balancer = BalancerSpec::Pacheco(PachecoParams { victim: Some(Victim::GlobalRr) });
    let spec = RunSpec::new(workload, balancer, DetectorKind::Energy, Driver::Sim(sim));
    let spec = spec.with_mutant(mutant.filter(|_| job.phase == Phase::Test));
    let (t_atomic, h) = spec.workload.atomic_and_h().unwrap_or((0, 0));
    let mut coverage = Coverage::new(pes);
    let report = spec.run_observed(None, &mut |e| coverage.observe(e)).expect("no trace to write");
    let m = &report.check.metrics;
    let t_par = m.t_par.filter(|_| report.outcome.finished());
    let t_seq = report.reference.t_seq as f64;
    let scatter = (u64::from(pes - 1) * t_split) as f64; // Generate + Scatter: PE 0's p − 1 splits
    let rest = (t_atomic + h * (4 * t_rout + dt + t_split)) as f64;
    let (assignments, v_p, skipped) = coverage.v_p(pes);
    let capped = report.outcome.stop == crate::sim::Stop::StepCap && job.cap.is_some();
    Sample {
        phase: job.phase,
        pes,
        r: t_par.map_or(f64::INFINITY, |t| (t as f64 - t_seq / f64::from(pes) - scatter) / rest),
        assignments,
        v_p,
        skipped,
        steps: report.outcome.steps,
        failures: match capped {
            true => Vec::new(),
            false => report.check.failures().into_iter().map(|(name, _)| name).collect(),
        },
        replay: spec.replay(),
    }
}

/// The fitted constant and the claims (α each: FAMILY_ALPHA / [`STAT_TESTS`]).
pub fn evaluate(samples: &[Sample]) -> (serde_json::Value, Vec<Claim>) {
    let k = fitted(samples.iter().map(|s| (s.phase, s.r)));
    let test: Vec<&Sample> = samples.iter().filter(|s| s.phase == Phase::Test).collect();
    let r: Vec<(u32, f64)> = test.iter().map(|s| (s.pes, s.r)).collect();
    let reference =
        "003 §14.7.3 (global round robin): R = (T_par − T_seq/P − (P−1)T_split)/(T_atomic + h(4T_rout + Δt + T_split)) bounded";
    let trend = "003 §14.7.3 (global round robin): R has no upward trend in log2 P";
    let claims = vec![
        v_p_claim(&test),
        quantile("t_par", reference, &r, k, alpha_of(STAT_TESTS)),
        slope("t_par_trend", trend, &r, k, alpha_of(STAT_TESTS)),
        claims::invariants(test.iter().map(|s| (&s.failures[..], s.replay.as_str()))),
    ];
    let (vs, eligible) = v_stats(&test);
    (serde_json::json!({ "k": k, "v_p_over_p_mean": vs, "v_p_runs": eligible }), claims)
}

/// Mean V(P)/P over the runs with at least P assignments, and their number.
fn v_stats(test: &[&Sample]) -> (f64, usize) {
    let xs: Vec<f64> = test
        .iter()
        .filter(|s| s.assignments >= u64::from(s.pes))
        .map(|s| s.v_p.map_or(f64::INFINITY, |v| v as f64 / f64::from(s.pes)))
        .collect();
    (xs.iter().sum::<f64>() / xs.len().max(1) as f64, xs.len())
}

/// V(P) + s = P exactly on every test run with at least P assignments.
fn v_p_claim(test: &[&Sample]) -> Claim {
    let eligible: Vec<&&Sample> = test.iter().filter(|s| s.assignments >= u64::from(s.pes)).collect();
    let exact = |s: &&&Sample| s.v_p.is_some_and(|v| v + s.skipped == u64::from(s.pes));
    let bad = eligible.iter().filter(|s| !exact(s)).count();
    let never = eligible.iter().filter(|s| s.v_p.is_none()).count();
    let skips = eligible.iter().map(|s| s.skipped).max().unwrap_or(0);
    let (mean, _) = v_stats(test);
    let measured = format!(
        "{bad} of {} runs break it ({never} never asked every PE); mean V(P)/P {mean:.3}; max s {skips}",
        eligible.len()
    );
    let reference = "003 §14.7.3, S-14: V(P) = P − s requests until every PE is asked (s: passed over as requester)";
    Claim::exact("v_p", reference, eligible.len() as u64, measured, "V(P) + s = P", bad == 0 && !eligible.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(to: u32) -> Event {
        Event::Send { t: 0, from: 0, to, id: 0, kind: Kind::Target, energy: None, data: None }
    }

    fn request(from: u32, to: u32) -> Event {
        Event::Send { t: 0, from, to, id: 0, kind: Kind::Request, energy: None, data: None }
    }

    /// P = 4: PE 1 asks (target 0), PE 2 asks (1), PE 2 again: its own
    /// turn, passed over (3) — V = 3, s = 1.
    #[test]
    fn counts_the_first_pass_with_the_requester_skipped() {
        let mut c = Coverage::new(4);
        for e in [target(1), request(1, 0), target(2), request(2, 1), target(2), request(2, 3)] {
            c.observe(&e);
        }
        assert_eq!(c.v_p(4), (3, Some(3), 1));
        // PE 3 at its own turn: passed over by a target that wraps to 0.
        let mut c = Coverage::new(4);
        let events =
            [target(1), request(1, 0), target(2), request(2, 1), target(1), request(1, 2), target(3), request(3, 0)];
        events.iter().for_each(|e| c.observe(e));
        assert_eq!(c.v_p(4), (4, Some(3), 1));
    }

    /// The `grr-no-increment` pattern: every target is PE 0 (PE 0 gets PE 1).
    #[test]
    fn a_fixed_target_never_covers() {
        let mut c = Coverage::new(4);
        for r in [1, 2, 3, 1, 2, 3] {
            c.observe(&target(r));
            c.observe(&request(r, 0));
        }
        c.observe(&request(0, 1));
        assert_eq!(c.v_p(4), (7, None, 0));
    }
}
