//! Estimated wall-clock seconds of the campaign's units, for splitting a
//! campaign over MPI ranks ([`super::shard`]). Measured on the quick
//! profile on 2 cores; only their ratios matter, and a wrong estimate
//! costs balance, never a verdict.

use crate::bounds::plan::power_max_pes;
use crate::bounds::Suite;
use crate::harness::{Driver, RunSpec};
use crate::mutants::{Catcher, Mutant};

/// The suites after random polling's, in the campaign's order.
pub const OTHER_SUITES: [Suite; 6] = [
    Suite::RandomDestination,
    Suite::PriorityBnb,
    Suite::Scatter,
    Suite::Pacheco,
    Suite::PollAndShuffle,
    Suite::SyncRandomPolling,
];

/// One checked run: a simulated one takes a few milliseconds, more with P.
pub fn run(spec: &RunSpec) -> f64 {
    match spec.driver {
        Driver::Threads(_) => 0.03,
        _ => 0.009 + 0.0002 * f64::from(spec.driver.pes()),
    }
}

/// One exhaustive exploration of a tiny instance.
pub const EXPLORE: f64 = 0.1;

/// One bounds suite, with a mutant under test or not.
pub fn suite(suite: Suite, mutant: Option<Mutant>) -> f64 {
    match (suite, mutant) {
        (Suite::RandomPolling, None) => 37.0,
        (Suite::RandomPolling, Some(m)) => 4.0 * f64::from(power_max_pes(m)) / 32.0,
        (Suite::RandomDestination, None) => 26.0,
        (Suite::RandomDestination, Some(_)) => 35.0,
        (Suite::PriorityBnb, _) => 25.0,
        (Suite::Scatter, None) => 1.1,
        (Suite::Scatter, Some(_)) => 11.0,
        (Suite::Pacheco | Suite::PollAndShuffle, _) => 0.5,
        (Suite::SyncRandomPolling, _) => 20.0,
    }
}

/// One cell of the adequacy matrix: does `c` catch `m`?
pub fn cell(m: Mutant, c: Catcher) -> f64 {
    match c {
        Catcher::Run => 0.3,
        Catcher::Compare => 2.0,
        Catcher::Explore => EXPLORE,
        Catcher::Bitonic => 0.01,
        Catcher::Loom => LOOM,
        Catcher::Bounds => {
            let polling = Suite::RandomPolling.refuses(m).is_none().then(|| suite(Suite::RandomPolling, Some(m)));
            let atomic = OTHER_SUITES.iter().filter(|s| s.refuses(m).is_none());
            polling.unwrap_or(0.0) + atomic.map(|&s| suite(s, Some(m))).sum::<f64>()
        }
    }
}

/// One adequacy cell of the loom suite: its tests of one mutant, in-process.
pub const LOOM: f64 = 1.0;

/// The `loom` layer: the suite's 24 references, one seed each, in-process.
pub const LOOM_LAYER: f64 = 30.0;

/// One external script: `models/check.sh` (SPIN) or `proofs/check.sh` (Coq).
pub fn script(layer: &str) -> f64 {
    if layer == "spin" {
        150.0
    } else {
        35.0
    }
}
