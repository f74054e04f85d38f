//! 001 footnote 3 (issue 31, COVERAGE #35): "In the full LogP model even
//! Δt ∈ Ω(min(T_atomic/h, max(T_split + o, g))) suffices" for Thm 1's
//! bound. Random polling's suite runs 001's machine with o = g = 0; these
//! cells give the messages an overhead o and a gap g (001 §1.1; the
//! simulator charges o per message sent or received and spaces a PE's
//! sends g apart) and poll every Δt = max(T_split + o, g), the footnote's
//! Δt, below Thm 1's Δt ∈ Θ(T_rout + T_split). The claim:
//!
//! - `logp_t_par` (statistical, one of the suite's Bonferroni tests): R =
//!   (T_par − (1 + ε)·T_seq/P) / (T_atomic + h·(Δt + T_rout + T_split))
//!   with T_rout = L + o + g (001 §1.1's conservative message cost) is
//!   bounded: the constant fitted on the reference's calibration runs, the
//!   test runs held to (1 + MARGIN) times it as [`super::claims::quantile`].

use super::claims::{alpha, quantile, Claim};
use super::plan::{Cell, Profile, POLICIES, T_POLL};
use super::suite::{measure, par_map, Phase, Sample, STEP_CAP_FACTOR};
use crate::base::rng::derive_seed;
use crate::harness::Driver;
use crate::mutants::Mutant;

/// (L, o, g, T_split) of the cells' machine.
pub const LOGP: (u64, u64, u64, u64) = (10, 3, 5, 5);

/// The footnote's Δt: max(T_split + o, g).
pub const fn footnote_dt() -> u64 {
    let (_, o, g, t_split) = LOGP;
    if t_split + o > g {
        t_split + o
    } else {
        g
    }
}

/// The cells: two of the suite's workloads on its P values (the machine
/// tuple is (Δt, L, T_split); o and g are added by `run_one`).
pub fn cells(profile: Profile, max_pes: u32) -> Vec<Cell> {
    let (l, _, _, t_split) = LOGP;
    let machine = (footnote_dt(), l, t_split);
    let pes = profile.pes().into_iter().filter(|&p| p <= max_pes);
    pes.flat_map(|p| POLICIES[..2].iter().map(move |&w| Cell { workload: w, pes: p, machine, trim: None })).collect()
}

/// One run of `cell` under LogP's o and g.
fn run_one(cell: &Cell, phase: Phase, index: u32, cap: Option<u64>, base: u64, mutant: Option<Mutant>) -> Sample {
    let name = if phase == Phase::Calibrate { "calibrate" } else { "test" };
    let seed = derive_seed(base, &format!("random-polling/logp/{name}/{}", cell.label()), index);
    let mut spec = cell.spec(seed, mutant.filter(|_| phase == Phase::Test));
    if let Driver::Sim(c) = &mut spec.driver {
        (c.o, c.g) = (LOGP.1, LOGP.2);
        c.max_steps = cap.unwrap_or(c.max_steps);
    }
    measure(cell, phase, &spec, &spec.balancer, cap.is_some())
}

/// Every calibration run (the reference), then every test run (with `mutant`).
pub fn run_all(profile: Profile, max_pes: u32, base: u64, mutant: Option<Mutant>) -> Vec<Sample> {
    let cells = cells(profile, max_pes);
    let (cal, test) = profile.runs();
    let jobs = |n: u32| -> Vec<(usize, u32)> { (0..cells.len()).flat_map(|i| (0..n).map(move |k| (i, k))).collect() };
    let calibration = par_map(&jobs(cal), |&(i, k)| run_one(&cells[i], Phase::Calibrate, k, None, base, None));
    let most = |i: usize| calibration.iter().skip(i * cal as usize).take(cal as usize).map(|s| s.steps).max();
    let cap = |i: usize| most(i).map(|m| m * STEP_CAP_FACTOR);
    let tests = par_map(&jobs(test), |&(i, k)| run_one(&cells[i], Phase::Test, k, cap(i), base, mutant));
    calibration.into_iter().chain(tests).collect()
}

/// R of `s` with T_rout = L + o + g; +∞ if unfinished.
pub fn excess(s: &Sample) -> f64 {
    let (l, o, g, _) = LOGP;
    let m = &s.machine;
    let rest = (m.t_atomic + m.h * (m.dt + l + o + g + m.t_split)) as f64;
    let eps = T_POLL as f64 / m.dt as f64;
    s.t_par.map_or(f64::INFINITY, |t| (t as f64 - (1.0 + eps) * m.t_seq as f64 / f64::from(m.pes)) / rest)
}

/// `logp_t_par` on `samples`.
pub fn claim(samples: &[Sample]) -> Claim {
    let fit = samples.iter().filter(|s| s.phase == Phase::Calibrate).map(excess).fold(0.0, f64::max);
    let r: Vec<(u32, f64)> = samples.iter().filter(|s| s.phase == Phase::Test).map(|s| (s.pes, excess(s))).collect();
    let reference = "001 fn. 3: Δt = max(T_split + o, g) suffices under LogP (o = 3, g = 5): R bounded";
    quantile("logp_t_par", reference, &r, fit, alpha())
}

/// The LogP runs and their claim on P ≤ `max_pes` under base seed `base`.
pub fn run_claim(profile: Profile, max_pes: u32, base: u64, mutant: Option<Mutant>) -> Claim {
    claim(&run_all(profile, max_pes, base, mutant))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_footnotes_dt_is_below_thm1s() {
        assert_eq!(footnote_dt(), 8);
        let (l, o, g, t_split) = LOGP;
        assert!(o > 0 && g > 0 && footnote_dt() < l + o + g + t_split);
    }
}
