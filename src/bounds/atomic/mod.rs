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

use crate::base::Topology;
use crate::bounds::claims::{Claim, FAMILY_ALPHA};
use crate::bounds::plan::Profile;
use crate::bounds::suite::Phase;
use crate::bounds::Suite;
use crate::mutants::Mutant;
use search::Theorem;

/// What one of 004's suites found.
pub struct Outcome {
    /// Runs made.
    pub runs: usize,
    /// Its statistical tests (the Bonferroni divisor).
    pub tests: usize,
    /// The fitted constants (JSON: `k`, `k_by_arbiter`, …).
    pub constants: serde_json::Value,
    /// Lemmas 6–7 first, then the suite's claims.
    pub claims: Vec<Claim>,
}

/// Runs `suite` (one of 004's, Pacheco's global round robin, whose
/// claims are those of [`super::pacheco`] without Lemmas 6–7, or
/// poll-and-shuffle's on `topology`) on `profile` under base seed `base`,
/// test runs with `mutant`.
pub fn run(suite: Suite, profile: Profile, topology: Topology, base: u64, mutant: Option<Mutant>) -> Outcome {
    if suite == Suite::PollAndShuffle {
        let s = super::poll_and_shuffle::run_all(profile, topology, base, mutant);
        let a = match topology == Topology::Hypercube {
            true => super::poll_and_shuffle::adaptive::run_all(profile, base, mutant),
            false => Vec::new(), // Thm 5 on the hypercube (000 §5)
        };
        let (constants, claims) = super::poll_and_shuffle::evaluate(&s, &a, topology, base, mutant);
        let runs = s.len() + a.len() + a.iter().filter(|r| r.cycles.is_some()).count();
        return Outcome { runs, tests: super::poll_and_shuffle::STAT_TESTS, constants, claims };
    }
    if suite == Suite::Pacheco {
        let s = super::pacheco::run_all(profile, base, mutant);
        let (constants, claims) = super::pacheco::evaluate(&s);
        return Outcome { runs: s.len(), tests: super::pacheco::STAT_TESTS, constants, claims };
    }
    let (runs, tests, (constants, mut claims)) = match suite {
        Suite::Scatter => {
            let s = scatter::run_all(profile, base, mutant);
            (s.len(), scatter::STAT_TESTS, scatter::evaluate(&s, alpha(scatter::STAT_TESTS)))
        }
        _ => {
            let theorem = if suite == Suite::PriorityBnb { Theorem::Bnb } else { Theorem::Search };
            let s = search::run_all(theorem, profile, base, mutant);
            let tests = search::stat_tests(theorem);
            let (k, mut c) = search::evaluate(theorem, &s, alpha(tests));
            c.push(search::invariants(&s));
            (s.len(), tests, (k, c))
        }
    };
    claims.splice(0..0, lemmas::claims(mutant));
    Outcome { runs, tests, constants, claims }
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
    Claim::exact(name, reference, n as u64, format!("{bad} runs break it"), "0", bad == 0)
}
