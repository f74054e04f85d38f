//! Estimated wall-clock seconds of the campaign's units, for splitting a
//! campaign over MPI ranks ([`super::shard`]). Measured on the quick
//! profile on 2 cores; only their ratios matter, and a wrong estimate
//! costs balance, never a verdict.

use crate::bounds::plan::power_max_pes;
use crate::bounds::Suite;
use crate::harness::{Driver, RunSpec};
use crate::mutants::{Catcher, Mutant};
use crate::reproduce::papers::OWN_RUNS;

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

/// One bitonic sort of `keys` keys on `pes` ranks: d(d+1)/2 merge-split
/// stages over all the keys, about 10 ns a key a stage.
pub fn bitonic(pes: u32, keys: u32) -> f64 {
    let d = f64::from(pes.trailing_zeros());
    1e-5 + 1e-8 * f64::from(keys) * (1.0 + d * (d + 1.0) / 2.0)
}

/// One exhaustive exploration of a tiny instance.
pub const EXPLORE: f64 = 0.1;

/// One bounds suite, with a mutant under test or not.
pub fn suite(suite: Suite, mutant: Option<Mutant>) -> f64 {
    match (suite, mutant) {
        (Suite::RandomPolling, None) => 37.0,
        (Suite::RandomPolling, Some(m)) => 4.0 * f64::from(power_max_pes(m)) / 32.0,
        (Suite::RandomDestination, None) => 26.0,
        // A mutant's test runs stop once R is above the limit (`search::step_cap`).
        (Suite::RandomDestination, Some(_)) => 16.0,
        (Suite::PriorityBnb, None) => 25.0,
        (Suite::PriorityBnb, Some(_)) => 10.0,
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
        Catcher::Bounds => match deciding_suite(m) {
            // Only its claim's own runs (`papers::run_for`): a fraction of a second.
            Some(Suite::RandomPolling) if m.entry().fails_under(c).is_some_and(|f| OWN_RUNS.contains(&f)) => 0.1,
            s => s.map_or(0.0, |s| suite(s, Some(m))),
        },
    }
}

/// The suite whose case decides `m`'s bounds cell: the first, in the
/// campaign's order (random polling's, then [`OTHER_SUITES`]), that acts
/// on `m` and checks the claim the catalogue lists for it
/// ([`crate::bounds::listing::LISTED`]); `None` for a formula mutant,
/// which acts in no suite's runs.
pub fn deciding_suite(m: Mutant) -> Option<Suite> {
    let fails = m.entry().fails_under(Catcher::Bounds)?;
    if m.entry().site == crate::mutants::Site::Formulas {
        return None;
    }
    let checks = |s: &Suite| crate::bounds::listing::LISTED.iter().any(|l| l.suite == *s && l.name == fails);
    std::iter::once(Suite::RandomPolling).chain(OTHER_SUITES).find(|s| s.refuses(m).is_none() && checks(s))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutants::{Site, CATALOGUE};

    /// Every bounds cell but a formula mutant's is decided by one suite
    /// that acts on the mutant and checks its claim, the first in the
    /// campaign's order: sync-poll-neighbour's `t_par` is synchronous
    /// random polling's (random polling also checks a `t_par` but refuses
    /// the mutant), poll-every-unit's `thm1_eps` random polling's (the
    /// synchronous suite also acts on it, checking no `thm1_eps`).
    #[test]
    fn each_bounds_cell_runs_the_one_suite_that_decides_it() {
        for e in CATALOGUE.iter().filter(|e| e.caught_by(Catcher::Bounds)) {
            let s = deciding_suite(e.mutant);
            assert_eq!(s.is_none(), e.site == Site::Formulas, "{}: {s:?}", e.mutant);
            assert!(s.is_none_or(|s| s.refuses(e.mutant).is_none()), "{}", e.mutant);
        }
        let of = |m: &str| deciding_suite(m.parse().unwrap());
        assert_eq!(of("sync-poll-neighbour"), Some(Suite::SyncRandomPolling));
        assert_eq!(of("poll-every-unit"), Some(Suite::RandomPolling));
        assert_eq!(of("dest-hotspot"), Some(Suite::RandomDestination));
    }
}
