//! One case of the loom suite: a run specification on the threaded
//! driver's loom copy, explored seed by seed within a preemption bound
//! ([`Case::explore`]), and the profile that sets its bound and seeds.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use crate::harness::{Driver, RunSpec};
use crate::mutants::Mutant;
use crate::protocol::{BalancerKind, DetectorKind};
use crate::runtime::threads::ThreadConfig;

/// Two splits at most (size 3, atomic 1): the smallest workload where work moves twice.
pub const TINY: &str = "synthetic:size=3,atomic=1";

/// One split only: with three PEs (four threads) the interleavings grow fast.
pub const ONE_SPLIT: &str = "synthetic:size=2,atomic=1";

/// Split among three PEs at the start (002 §3), uneven parts: the workload
/// where the one-wave bug shows (`four_counter_one_wave_is_caught`).
pub const UNEVEN: &str = "synthetic:size=20,atomic=1,split=uniform";

/// The suite's profile: its preemption bound B and seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// B: quick 2, full 3 (`LOOM_MAX_PREEMPTIONS`).
    pub bound: usize,
    /// The full profile (`LBCHECK_LOOM_PROFILE=full`): more seeds, P = 3
    /// for the threaded driver's mutants, a cap on the P = 3 waves.
    pub full: bool,
    /// Seeds per reference instead of the profile's (`LBCHECK_LOOM_SEEDS`;
    /// the campaign's loom layer runs one).
    pub seeds: Option<u64>,
    /// The full profile's cap on interleavings per seed where exhaustive
    /// is out of reach (`LBCHECK_LOOM_CAP`, default 2·10^5).
    pub cap: usize,
}

impl Profile {
    /// The quick profile: B = 2.
    pub const QUICK: Profile = Profile { bound: 2, full: false, seeds: None, cap: 200_000 };

    /// The profile the environment selects (`scripts/loom.sh`), quick by default.
    pub fn from_env() -> Profile {
        let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
        let full = std::env::var("LBCHECK_LOOM_PROFILE").is_ok_and(|p| p == "full");
        let bound = var("LOOM_MAX_PREEMPTIONS").unwrap_or(if full { 3 } else { 2 });
        let cap = var("LBCHECK_LOOM_CAP").unwrap_or(Profile::QUICK.cap);
        Profile { bound, full, seeds: var("LBCHECK_LOOM_SEEDS").map(|s: usize| s as u64), cap }
    }
}

/// One run specification on the threaded driver, explored under loom.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    /// The balancer.
    pub balancer: BalancerKind,
    /// The workload ([`TINY`], [`ONE_SPLIT`] or [`UNEVEN`]).
    pub workload: &'static str,
    /// The detector.
    pub detector: DetectorKind,
    /// P, one loom thread each.
    pub pes: u32,
    /// Split the root among the PEs at the start (002 §3).
    pub initial_split: bool,
    /// Seeds `0..seeds`, one `loom::model` each.
    pub seeds: u64,
    /// Preemptions fewer than the profile's bound.
    pub fewer: usize,
    /// Stop after this many interleavings (loom's DFS order; None: all within the bound).
    pub cap: Option<usize>,
    /// A protocol or threaded-driver mutant.
    pub mutant: Option<Mutant>,
    /// The profile's bound B.
    pub profile_bound: usize,
}

impl Case {
    /// `balancer` × `detector` on P PEs, [`TINY`], two seeds (full: four;
    /// or the profile's), bound B − (P − 2).
    pub fn new(balancer: BalancerKind, detector: DetectorKind, pes: u32, p: &Profile) -> Case {
        let seeds = p.seeds.unwrap_or(if p.full { 4 } else { 2 });
        let (fewer, profile_bound) = (pes.saturating_sub(2) as usize, p.bound);
        let (initial_split, cap, mutant) = (false, None, None);
        Case { balancer, workload: TINY, detector, pes, initial_split, seeds, fewer, cap, mutant, profile_bound }
    }

    /// The run of `seed`, on the loom copy of the threaded driver.
    pub fn spec(&self, seed: u64) -> RunSpec {
        let initial_split = self.initial_split.into();
        let cfg = ThreadConfig { pes: self.pes, seed, dt: 1, initial_split, loom: true, ..Default::default() };
        let spec =
            RunSpec::new(self.workload.parse().expect("workload"), self.balancer, self.detector, Driver::Threads(cfg));
        RunSpec { mutant: self.mutant, ..spec }
    }

    /// The preemption bound this case is explored at.
    pub fn bound(&self) -> usize {
        self.profile_bound.saturating_sub(self.fewer)
    }

    /// "P = 2, bound 2, 2 seeds".
    pub fn describe(&self) -> String {
        let cap = self.cap.map_or(String::new(), |c| format!(", first {c} interleavings"));
        format!("P = {}, bound {}, {} seeds{cap}", self.pes, self.bound(), self.seeds)
    }

    /// Explores every interleaving of `seed`'s run within the bound (and
    /// cap): `Err` with loom's report (the panic's message: the failed
    /// properties, or loom's "deadlock") if an interleaving fails.
    pub fn explore(&self, seed: u64) -> Result<(), String> {
        let spec = self.spec(seed);
        spec.validate().map_err(|e| format!("{self:?}: {e}"))?;
        let replay = spec.replay();
        let explored = catch_unwind(AssertUnwindSafe(|| {
            super::model(self.bound(), self.cap, move || {
                let run = spec.run(None).expect("no trace");
                let failed: Vec<_> = run.check.failures().iter().map(|(n, v)| format!("{n}: {}", v.detail)).collect();
                assert!(failed.is_empty(), "property failed: {failed:?} (units per PE {:?}; {replay})", run.units);
            })
        }));
        explored.map_err(|p| panic_text(p.as_ref()))
    }

    /// The first seed whose exploration fails naming `expect`, with loom's
    /// report; each seed explored in a child process (`isolate`),
    /// killed after `limit`.
    pub fn first_failure(&self, expect: &str, limit: Duration) -> Option<(u64, String)> {
        let failed = |seed| super::isolate::in_child(limit, || self.explore(seed)).err();
        (0..self.seeds).find_map(|seed| failed(seed).filter(|m| m.contains(expect)).map(|m| (seed, m)))
    }
}

/// A panic's message, if it is text.
pub fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    let text = p.downcast_ref::<String>().map(String::as_str).or_else(|| p.downcast_ref::<&str>().copied());
    text.unwrap_or("a panic").to_string()
}
