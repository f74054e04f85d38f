//! 004's bounds (S-9 … S-11): the suites `lbcheck bounds --balancer
//! random-destination` ([`search`], Thm 1) and `--balancer scatter`
//! ([`scatter`], Thm 3), each with Lemmas 6 and 7 as exact formula checks
//! ([`lemmas`]). Like the random-polling suite, a fitted constant is the
//! largest normalised value over calibration runs (always the reference);
//! test runs (other seeds; the mutant under test) are held to (1 + MARGIN)
//! times it, and each statistical test has α = FAMILY_ALPHA / (its suite's
//! number of statistical tests), Bonferroni.

pub mod lemmas;
pub mod scatter;
pub mod search;

use crate::bounds::claims::{Claim, FAMILY_ALPHA};
use crate::bounds::suite::Phase;

/// A run of a suite: calibration or test, what failed, how to replay it.
pub trait Calibrated {
    /// Calibration or test.
    fn phase(&self) -> Phase;
    /// Invariants of `check/` that failed.
    fn failures(&self) -> &[&'static str];
    /// The command that replays the run.
    fn replay(&self) -> &str;
}

/// α of each of `tests` statistical tests.
pub fn alpha(tests: usize) -> f64 {
    crate::bounds::stats::bonferroni(FAMILY_ALPHA, tests)
}

/// The largest calibration value (the fitted constant).
pub fn fitted(values: impl Iterator<Item = (Phase, f64)>) -> f64 {
    values.filter(|(p, _)| *p == Phase::Calibrate).map(|(_, v)| v).fold(0.0, f64::max)
}

/// An exact claim: `bad` of `n` runs broke it.
pub fn exact(name: &'static str, reference: &'static str, n: usize, bad: u64) -> Claim {
    Claim {
        name,
        reference,
        n: n as u64,
        measured: format!("{bad} runs break it"),
        bound: "0".into(),
        ci: "exact".into(),
        alpha: None,
        pass: bad == 0,
    }
}

/// Every property of `check/` on every test run; the first failing run's replay.
pub fn invariants<S: Calibrated>(samples: &[S]) -> Claim {
    let test: Vec<&S> = samples.iter().filter(|s| s.phase() == Phase::Test).collect();
    let bad: Vec<&&S> = test.iter().filter(|s| !s.failures().is_empty()).collect();
    let names: std::collections::BTreeSet<&str> = bad.iter().flat_map(|s| s.failures().iter().copied()).collect();
    let first = bad.first().map(|s| format!("; first: {}", s.replay())).unwrap_or_default();
    Claim {
        name: "invariants",
        reference: "check/: every property on every test run",
        n: test.len() as u64,
        measured: format!("{} runs failed {names:?}{first}", bad.len()),
        bound: "0".into(),
        ci: "exact".into(),
        alpha: None,
        pass: bad.is_empty(),
    }
}
