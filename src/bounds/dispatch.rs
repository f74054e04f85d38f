//! Every suite of `lbcheck bounds` but random polling's, run and evaluated
//! by name ([`Suite`]): 004's (random-destination search and priority
//! branch-and-bound, Thms 1-2; message scattering, Thm 3; each with Lemmas
//! 6-7), Pacheco's global round robin, and poll-and-shuffle's on a network.

use super::plan::Profile;
use super::range::{self, Need};
use super::{atomic, claims, pacheco, poll_and_shuffle, sync_polling, Suite};
use crate::base::Topology;
use crate::bounds::claims::Claim;
use crate::mutants::Mutant;
use atomic::search::Theorem;

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
    /// Why no verdict may be given (synchronous random polling's
    /// calibration runs breaking 000 §2.1's assumptions,
    /// [`super::assumptions::refuse`], as random polling's): `lbcheck
    /// bounds` exits 2 with it instead of printing the claims.
    pub refused: Option<String>,
}

/// The P values (p, n) of `suite`'s cells on `profile` and `topology`,
/// and what its claims need of them ([`range`]).
pub fn needs(suite: Suite, profile: Profile, topology: Topology) -> (Vec<u32>, Vec<Need>) {
    match suite {
        Suite::RandomPolling => (profile.pes(), super::plan::needs(profile)),
        Suite::SyncRandomPolling => sync_polling::needs(profile),
        Suite::PollAndShuffle => poll_and_shuffle::needs(profile, topology),
        Suite::Pacheco => pacheco::needs(profile),
        Suite::Scatter => atomic::scatter::needs(profile),
        Suite::PriorityBnb => atomic::search::needs(Theorem::Bnb, profile),
        Suite::RandomDestination => atomic::search::needs(Theorem::Search, profile),
    }
}

/// Why `--max-pes max_pes` cannot run every claim of `suite` with its α
/// (`None`: it can); the message names the smallest `--max-pes` that can.
pub fn refuse(suite: Suite, profile: Profile, topology: Topology, max_pes: u32) -> Option<String> {
    let (pes, needs) = needs(suite, profile, topology);
    range::refuse(&needs, &pes, max_pes)
}

/// Why `--max-pes max_pes` runs no claim of `suite` (no cell kept;
/// `None`: some run): [`refuse`]'s message.
pub fn refuse_all(suite: Suite, profile: Profile, topology: Topology, max_pes: u32) -> Option<String> {
    let (pes, needs) = needs(suite, profile, topology);
    range::refuse_all(&needs, &pes, max_pes)
}

/// Marks the claims of `suite` that `max_pes` cannot run with their α as
/// refused ([`range::mark_refused`]); returns the refusals.
pub fn mark_refused(
    claims: &mut [Claim],
    suite: Suite,
    profile: Profile,
    topology: Topology,
    max_pes: u32,
) -> Vec<String> {
    let (pes, needs) = needs(suite, profile, topology);
    range::mark_refused(claims, &needs, &pes, max_pes)
}

/// Runs `suite` (one of 004's, Pacheco's global round robin, whose
/// claims are those of [`super::pacheco`] without Lemmas 6–7, or
/// poll-and-shuffle's on `topology`) on `profile`'s cells with P ≤
/// `max_pes` under base seed `base`, test runs with `mutant`.
pub fn run(
    suite: Suite,
    profile: Profile,
    topology: Topology,
    max_pes: u32,
    base: u64,
    mutant: Option<Mutant>,
) -> Outcome {
    if suite == Suite::PollAndShuffle {
        let s = poll_and_shuffle::run_all(profile, topology, max_pes, base, mutant);
        let a = match topology == Topology::Hypercube {
            true => poll_and_shuffle::adaptive::run_all(profile, max_pes, base, mutant),
            false => Vec::new(), // Thm 5 on the hypercube (000 §5)
        };
        let (constants, claims) = poll_and_shuffle::evaluate(&s, &a, topology, base, mutant);
        let runs = s.len() + a.len() + a.iter().filter(|r| r.cycles.is_some()).count();
        return Outcome { runs, tests: poll_and_shuffle::STAT_TESTS, constants, claims, refused: None };
    }
    if suite == Suite::SyncRandomPolling {
        return sync(&sync_polling::run_all(profile, max_pes, base, mutant));
    }
    if suite == Suite::Pacheco {
        let s = pacheco::run_all(profile, max_pes, base, mutant);
        let (constants, claims) = pacheco::evaluate(&s);
        return Outcome { runs: s.len(), tests: pacheco::STAT_TESTS, constants, claims, refused: None };
    }
    let (runs, tests, (constants, mut claims)) = match suite {
        Suite::Scatter => {
            let s = atomic::scatter::run_all(profile, max_pes, base, mutant);
            (
                s.len(),
                atomic::scatter::STAT_TESTS,
                atomic::scatter::evaluate(&s, claims::alpha_of(atomic::scatter::STAT_TESTS)),
            )
        }
        _ => {
            let theorem = if suite == Suite::PriorityBnb { Theorem::Bnb } else { Theorem::Search };
            let s = atomic::search::run_all(theorem, profile, max_pes, base, mutant);
            let tests = atomic::search::stat_tests(theorem);
            let (k, mut c) = atomic::search::evaluate(theorem, &s, claims::alpha_of(tests));
            c.push(atomic::search::invariants(&s));
            (s.len(), tests, (k, c))
        }
    };
    claims.splice(0..0, atomic::lemmas::claims(mutant));
    Outcome { runs, tests, constants, claims, refused: None }
}

/// Synchronous random polling's claims on `samples`, refused (as random
/// polling's, `lbcheck bounds` exits 2) when a calibration run breaks 000
/// §2.1's assumptions h ≥ log2 P, T_seq ≥ P·h ([`super::assumptions`]):
/// 001 §1.3's bound is stated under them.
fn sync(samples: &[super::suite::Sample]) -> Outcome {
    let (constants, claims) = sync_polling::evaluate(samples);
    let refused = super::assumptions::refuse(samples);
    Outcome { runs: samples.len(), tests: sync_polling::STAT_TESTS, constants, claims, refused }
}

/// The claims of `suite` that check transcribed bound formulas and need no
/// run (random polling's `formula`; 004's Lemmas 6–7; none in Pacheco's or
/// poll-and-shuffle's), with `mutant`'s formulas. A formula mutant
/// (`Site::Formulas`) changes nothing else, so these are exactly the claims
/// of the suite's full run that it can fail.
pub fn formula_claims(suite: Suite, mutant: Option<Mutant>) -> Vec<Claim> {
    match suite {
        Suite::RandomPolling => vec![claims::formula_claim(mutant)],
        Suite::RandomDestination | Suite::Scatter | Suite::PriorityBnb => atomic::lemmas::claims(mutant).to_vec(),
        Suite::Pacheco | Suite::PollAndShuffle | Suite::SyncRandomPolling => vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::Registered;

    /// Every suite accepts the smallest K its claims need and refuses one
    /// less with a message naming that K (issue 31).
    #[test]
    fn each_suite_refuses_just_below_its_smallest_k() {
        for &suite in Suite::ALL {
            for profile in [Profile::Quick, Profile::Full] {
                let topology = suite.default_topology(None);
                let k = range::smallest(&needs(suite, profile, topology).1);
                assert!(k > 1 && k < u32::MAX, "{suite} {profile:?}: {k}");
                assert_eq!(refuse(suite, profile, topology, k), None, "{suite} {profile:?}");
                let why = refuse(suite, profile, topology, k - 1).expect("refused");
                assert!(why.contains(&format!("(use --max-pes {k} or more)")), "{suite}: {why}");
            }
        }
    }

    /// Issue 31 item 2: synchronous random polling's verdict is refused
    /// when a calibration run breaks 000 §2.1's assumptions (a doctored
    /// h = 1 at P = 4, then T_seq = 1), and given on the reference's runs.
    #[test]
    fn sync_polling_refuses_runs_outside_000s_assumptions() {
        let mut s = sync_polling::run_all(Profile::Quick, 4, 1, None);
        assert!(!s.is_empty() && sync(&s).refused.is_none());
        let first = s.iter().position(|s| s.phase == crate::bounds::suite::Phase::Calibrate).expect("calibrated");
        let h = s[first].machine.h;
        s[first].machine.h = 1;
        let why = sync(&s).refused.expect("h < log2 P refused");
        assert!(why.contains("h ∈ Ω(log P): h = 1 < 1·log2 P = 2.0 at P = 4") && why.contains("(first: "), "{why}");
        (s[first].machine.h, s[first].machine.t_seq) = (h, 1);
        assert!(sync(&s).refused.expect("T_seq < P·h refused").contains("T_seq ∈ Ω(P): T_seq = 1 <"));
    }
}
