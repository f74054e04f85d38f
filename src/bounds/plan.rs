//! What the bound tests run: the quick and full profiles, their cells
//! (workload × P × machine) and the scenario of one run.

use crate::harness::{Driver, RunSpec};
use crate::mutants::Mutant;
use crate::problem::Workload;
use crate::protocol::random_polling::{QueueLimit, RandomPollingParams};
use crate::protocol::{BalancerKind, BalancerSpec, DetectorKind};
use crate::sim::SimConfig;

use super::range::Need;

/// The base seed CI uses; `--seed-base N` reruns every test on fresh seeds.
pub const CI_SEED_BASE: u64 = 1;

/// The reduced profile a mutant is shown failing on: P ≤ 32, or what its
/// declaration says (`poll-hotspot`'s single queue grows with P: it needs
/// P up to 128 to break 001 Lemma 1.3; `--max-pes`).
pub fn power_max_pes(mutant: Mutant) -> u32 {
    mutant.entry().bounds_max_pes
}

/// The distinct P values a trend claim of random polling's suite needs
/// (issue 31). Its trend claims (`t_par_trend`, `gen_depth_trend`,
/// `traffic_trend`) hold the slope per doubling of P to
/// [`super::claims::SLOPE_TOL`], and their α is a false-alarm rate only
/// where the reference's own slope is under it: 001 Thm 1 and 002 Thm 1
/// are asymptotic, and over small P the reference's R, requests/(P·h) and
/// messages/(P·h) still rise (a run's start, the ⌈log P⌉ rounds before
/// every PE is busy, weighs more there). Measured on seed bases 1–10
/// (docs/claims.md, "Trend claims and `--max-pes`"): slope 0.18–0.24 per
/// doubling over P = 4 … 8, 0.10–0.15 over 4 … 16 (at the tolerance),
/// 0.08–0.11 over 4 … 32, 0.05–0.06 over the whole quick profile: four
/// values of P (4 … 32 on either profile).
pub const TREND_POINTS: usize = 4;

/// What random polling's claims need of `--max-pes` on `profile` (see
/// [`super::range`]): the trend claims [`TREND_POINTS`] values of P of
/// Thm 1's cells; `queue_trim` one untrimmed Thm 2 cell with P > 4 (at
/// P = 4 no queue can pass ⌈√4⌉ = 2 untrimmed and it tests nothing).
pub fn needs(profile: Profile) -> Vec<Need> {
    let (thm1, thm2): (Vec<Cell>, Vec<Cell>) = profile.cells().into_iter().partition(|c| c.trim.is_none());
    let thm1: Vec<u32> = thm1.iter().map(|c| c.pes).collect();
    let longer: Vec<u32> = thm2.iter().filter(|c| c.trim == Some(false) && c.pes > 4).map(|c| c.pes).collect();
    let why = format!(
        "hold the slope per doubling of P to {}, and over P = 4 … 16 the reference's own slope is still \
         0.10–0.15 (a finite-size rise; 001 Thm 1 and 002 Thm 1 are asymptotic), so a correct balancer could fail them",
        super::claims::SLOPE_TOL
    );
    vec![
        Need::distinct(
            "t_par_trend, gen_depth_trend, remaining_time_trend and traffic_trend",
            &thm1,
            TREND_POINTS,
            &why,
        ),
        Need::cells(
            "queue_trim",
            &longer,
            1,
            "tests nothing without a Thm 2 cell where an untrimmed queue can pass ⌈√P⌉ (P > 4)",
        ),
        Need::cells(
            "lower_bound_atomic",
            super::granularity::ATOMIC_PES,
            1,
            "needs runs on its heavy-tailed loops, where the T_atomic term binds",
        ),
        Need::cells(
            "routing_time",
            &super::routing::NETWORKS.map(|n| n.1),
            1,
            "needs one of its networks (a mesh or hypercube of 16 PEs), or it checks no message",
        ),
    ]
}

/// The balancer the suite tests (the only one with bound claims so far).
pub const BALANCER: BalancerKind = BalancerKind::RandomPolling;

/// The quick (CI) or the full profile; both run the same code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// P = 2^2..2^8, synthetic workloads: well under a minute on 2 cores.
    Quick,
    /// P = 2^2..2^12, synthetic workloads and a UTS tree.
    Full,
}

/// T_atomic of the synthetic workloads.
pub const ATOMIC: u64 = 4;
/// Each PE's share of a synthetic workload is 2^SHARE_LOG · T_atomic units,
/// so T_seq/P stays a few times the lower-order term as P grows.
pub const SHARE_LOG: u32 = 10;
/// The split policies of the synthetic workloads (their h is exact).
pub const POLICIES: &[&str] = &["balanced", "uniform", "alpha:0.3"];
/// The UTS tree of the full profile (h measured: the run's largest generation).
pub const UTS: &str = "uts:args=-t 1 -a 3 -d 9 -b 4 -r 19";
/// T_poll of every cell (001 §3): ε = T_poll/Δt is 0.1, 0.2 or 0.05 on [`MACHINES`].
pub const T_POLL: u64 = 1;
/// (Δt, T_rout, T_split) combinations.
pub const MACHINES: &[(u64, u64, u64)] = &[(10, 10, 5), (5, 20, 10), (20, 5, 2)];

/// 001 Thm 2's cells (S-18): P values of the quick profile (the full one
/// adds 1024), on the balanced workload (h = log2 of the size over
/// T_atomic, ≈ log P), machine [`MACHINES`]\[0\], with P/4 slow PEs
/// ([`THM2_SLOW`]) whose long slices make long queues.
pub const THM2_PES: &[u32] = &[4, 16, 64, 256];
/// The slow PEs' factor (time units per work unit) in Thm 2's cells.
pub const THM2_SLOW: u64 = 32;

/// One combination of workload, P and machine; runs repeat it with fresh seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Split policy name, or the UTS workload.
    pub workload: &'static str,
    /// P.
    pub pes: u32,
    /// (Δt, T_rout, T_split).
    pub machine: (u64, u64, u64),
    /// 001 Thm 2's cells (S-18): `Some(trimmed)`, with P/4 slow PEs and
    /// queues trimmed at ⌈√P⌉ (001 §4) or not; `None`: Thm 1's cells.
    pub trim: Option<bool>,
}

/// ⌈√P⌉, 001 §4's queue limit (`--queue-limit sqrt`).
pub fn ceil_sqrt(pes: u32) -> u32 {
    (1..=pes).find(|k| k * k >= pes).unwrap_or(1)
}

impl Profile {
    /// The P values (powers of two).
    pub fn pes(self) -> Vec<u32> {
        let top = if self == Profile::Quick { 8 } else { 12 };
        (2..=top).map(|k| 1 << k).collect()
    }

    /// Calibration runs per cell (reference only) and test runs per cell.
    pub fn runs(self) -> (u32, u32) {
        match self {
            Profile::Quick => (8, 8),
            Profile::Full => (8, 8),
        }
    }

    /// Every cell.
    pub fn cells(self) -> Vec<Cell> {
        let mut workloads = POLICIES.to_vec();
        if self == Profile::Full {
            workloads.push(UTS);
        }
        let mut cells = Vec::new();
        for &workload in &workloads {
            for pes in self.pes() {
                cells.extend(MACHINES.iter().map(|&machine| Cell { workload, pes, machine, trim: None }));
            }
        }
        let mut thm2 = THM2_PES.to_vec();
        if self == Profile::Full {
            thm2.push(1024);
        }
        for pes in thm2 {
            let cell = |trim| Cell { workload: "balanced", pes, machine: MACHINES[0], trim: Some(trim) };
            cells.extend([cell(true), cell(false)]);
        }
        cells
    }
}

impl Cell {
    /// A name unique to the cell (part of each run's seed derivation).
    pub fn label(&self) -> String {
        let (dt, r, s) = self.machine;
        let thm2 = match (self.trim, self.slow()) {
            (Some(trim), Some((n, f))) => format!("/thm2/slow={n}:{f}/trim={trim}"),
            _ => String::new(),
        };
        format!("{}/P={}/dt={dt},rout={r},split={s}{thm2}", self.workload, self.pes)
    }

    /// Thm 2's slow PEs: P/4 (at least one) of factor [`THM2_SLOW`].
    pub fn slow(&self) -> Option<(u32, u64)> {
        self.trim.map(|_| ((self.pes / 4).max(1), THM2_SLOW))
    }

    /// True for synthetic workloads (exact h and T_atomic).
    pub fn synthetic(&self) -> bool {
        !self.workload.starts_with("uts:")
    }

    /// The workload of a run with seed `seed`.
    pub fn workload(&self, seed: u64) -> Workload {
        let name = match self.synthetic() {
            true => {
                let size = u64::from(self.pes) * (ATOMIC << SHARE_LOG);
                format!("synthetic:size={size},atomic={ATOMIC},split={},seed={}", self.workload, seed % 1_000_000)
            }
            false => self.workload.to_string(),
        };
        name.parse().expect("the plan's workloads parse")
    }

    /// The run with seed `seed` (with `mutant`'s protocol bug, if it has one).
    pub fn spec(&self, seed: u64, mutant: Option<Mutant>) -> RunSpec {
        let (dt, t_rout, t_split) = self.machine;
        let sim = SimConfig {
            slow: self.slow(),
            pes: self.pes,
            seed,
            dt,
            t_rout,
            t_split,
            t_poll: T_POLL,
            max_steps: 50_000_000,
            ..SimConfig::default()
        };
        let queue_limit = (self.trim == Some(true)).then(|| QueueLimit::Fixed(ceil_sqrt(self.pes)));
        let balancer = BalancerSpec::RandomPolling(RandomPollingParams { queue_limit, ..Default::default() });
        let mutant = mutant.filter(|m| m.not_applicable(BALANCER, DetectorKind::Energy, false).is_none());
        let spec =
            RunSpec { mutant, ..RunSpec::new(self.workload(seed), balancer, DetectorKind::Energy, Driver::Sim(sim)) };
        match spec.validate() {
            Ok(()) => spec,
            Err(_) => RunSpec { mutant: None, ..spec }, // e.g. queue-limit-ignored where there is no limit
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutants::{Catcher, CATALOGUE};

    fn refuse_max_pes(profile: Profile, max_pes: u32) -> Option<String> {
        crate::bounds::range::refuse(&needs(profile), &profile.pes(), max_pes)
    }

    /// The reduced profiles the mutants are shown failing on run every claim.
    #[test]
    fn every_power_profile_is_accepted_and_small_ones_refused() {
        for e in CATALOGUE.iter().filter(|e| e.caught_by(Catcher::Bounds)) {
            assert_eq!(refuse_max_pes(Profile::Quick, power_max_pes(e.mutant)), None, "{}", e.info.name);
        }
        assert_eq!(refuse_max_pes(Profile::Quick, 32), None);
        let why = refuse_max_pes(Profile::Quick, 31).expect("P ≤ 16 refused");
        assert!(why.starts_with("trend needs P up to at least 32") && why.contains("gives P = 4 … 16"), "{why}");
        assert!(refuse_max_pes(Profile::Full, 3).is_some_and(|w| w.contains("no P at all")));
    }
}
