//! `lbcheck reproduce PAPER`: the bound suites of `lbcheck bounds` whose
//! claims test a paper ([`crate::bounds::listing`]), run once each, their
//! claims and fitted constants kept for the paper's page
//! ([`crate::report::paper`]).

use std::time::Instant;

use crate::bounds::claims::{self, Claim};
use crate::bounds::plan::{power_max_pes, Profile};
use crate::bounds::{dispatch, suite, Suite};
use crate::mutants::Mutant;

/// One suite's run: its claims, constants and how it was run.
#[derive(Clone, Debug)]
pub struct SuiteRun {
    /// The suite.
    pub suite: Suite,
    /// Its claims, as `lbcheck bounds` prints them.
    pub claims: Vec<Claim>,
    /// The constants the O() hides, fitted on the calibration runs (JSON
    /// as in `lbcheck bounds --json`).
    pub constants: serde_json::Value,
    /// Runs made.
    pub runs: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The mutant its test runs had, if it acts in this suite.
    pub mutant: Option<Mutant>,
    /// The largest P of a random-polling run with a mutant (its power profile).
    pub max_pes: Option<u32>,
    /// `lbcheck bounds …` that reruns it.
    pub replay: String,
}

impl SuiteRun {
    /// The run as `lbcheck bounds --balancer SUITE --json` prints it (its
    /// keys `suite`, `profile`, `seed_base`, `mutant`, `max_pes`, `runs`,
    /// `constants`, `claims`, `seconds`, `replay`, `family_alpha`,
    /// `correction`): `lbcheck check --out DIR` writes it as
    /// `DIR/bounds/SUITE.json`.
    pub fn document(&self, profile: Profile, base: u64) -> serde_json::Value {
        serde_json::json!({"suite": self.suite.to_string(), "profile": format!("{profile:?}"), "seed_base": base,
            "mutant": self.mutant.map(|m| m.to_string()), "max_pes": self.max_pes, "runs": self.runs,
            "constants": self.constants, "claims": self.claims, "seconds": self.seconds, "replay": self.replay,
            "family_alpha": claims::FAMILY_ALPHA, "correction": "Bonferroni"})
    }
}

/// Runs `suite` on `profile` from seed base `base`; the test runs have
/// `mutant` if it acts in the suite (the reference otherwise). A mutant of
/// random polling runs on its power profile, as in `lbcheck check`.
pub fn run(suite: Suite, profile: Profile, base: u64, mutant: Option<Mutant>) -> SuiteRun {
    run_for(suite, profile, base, mutant, None)
}

/// Random polling's claims that run runs of their own, beside those
/// [`claims::evaluate`] reads off the suite's cells ([`suite::run_all`]).
pub const OWN_RUNS: [&str; 5] = ["lower_bound_atomic", "initial_split", "logp_t_par", "request_cost", "routing_time"];

/// [`run`], for the claim named `claim` alone if given (the adequacy
/// matrix's bounds cells, [`crate::campaign::adequacy`]): random polling's
/// suite then makes only the runs that claim reads. Its claims come in
/// groups, each computed from runs of its own on seeds of its own (the
/// cells' claims from [`suite::run_all`]; [`OWN_RUNS`]: granularity's two,
/// LogP's, the request cost's, routing's), so that claim's verdict and
/// figures are those of the whole suite's run. Other suites run whole.
pub fn run_for(suite: Suite, profile: Profile, base: u64, mutant: Option<Mutant>, claim: Option<&str>) -> SuiteRun {
    let mutant = mutant.filter(|m| suite.refuses(*m).is_none());
    let start = Instant::now();
    let max_pes = (suite == Suite::RandomPolling).then(|| mutant.map(power_max_pes)).flatten();
    let (runs, constants, claims) = match suite {
        Suite::RandomPolling => polling(profile, max_pes.unwrap_or(u32::MAX), base, mutant, claim),
        _ => {
            let d = dispatch::run(suite, profile, suite.default_topology(mutant), u32::MAX, base, mutant);
            (d.runs, d.constants, d.claims)
        }
    };
    let replay = replay(suite, profile, base, mutant, max_pes);
    SuiteRun { suite, claims, constants, runs, seconds: start.elapsed().as_secs_f64(), mutant, max_pes, replay }
}

/// Random polling's claims (those of the group `claim` is in, if given):
/// runs made, the fitted constants, the claims.
fn polling(
    profile: Profile,
    cap: u32,
    base: u64,
    mutant: Option<Mutant>,
    claim: Option<&str>,
) -> (usize, serde_json::Value, Vec<Claim>) {
    let wants = |group: &[&str]| claim.is_none_or(|c| group.contains(&c));
    let (mut runs, mut constants, mut claims) = (0, serde_json::Value::Null, vec![]);
    if claim.is_none_or(|c| !OWN_RUNS.contains(&c)) {
        let samples = suite::run_all(profile, cap, base, mutant);
        let (k, cells) = claims::evaluate(&samples, mutant);
        (runs, constants, claims) = (samples.len(), serde_json::to_value(k).unwrap_or_default(), cells);
    }
    if wants(&OWN_RUNS[..2]) {
        claims.extend(crate::bounds::granularity::claims(cap, base, mutant));
    }
    if wants(&OWN_RUNS[2..3]) {
        claims.push(crate::bounds::logp::run_claim(profile, cap, base, mutant));
    }
    if wants(&OWN_RUNS[3..4]) {
        claims.push(crate::bounds::request_cost::run_claim(profile, cap, base, mutant));
    }
    if wants(&OWN_RUNS[4..]) {
        claims.push(crate::bounds::routing::run_claim(cap, base, mutant));
    }
    (runs, constants, claims)
}

fn replay(suite: Suite, profile: Profile, base: u64, mutant: Option<Mutant>, max_pes: Option<u32>) -> String {
    let p = if profile == Profile::Full { "--full" } else { "--quick" };
    let net = match suite {
        Suite::PollAndShuffle => format!(" --topology {}", suite.default_topology(mutant)),
        _ => String::new(),
    };
    let m = mutant.map(|m| format!(" --mutant {m}")).unwrap_or_default();
    let cap = max_pes.map(|p| format!(" --max-pes {p}")).unwrap_or_default();
    format!("lbcheck bounds --balancer {suite}{net} {p} --seed-base {base}{m}{cap}")
}

/// What a suite runs (its configuration and sizes), for the pages.
pub fn configuration(suite: Suite, profile: Profile) -> &'static str {
    let full = profile == Profile::Full;
    match suite {
        Suite::RandomPolling if full => "asynchronous random polling with the energy detector on 001's simulated machine (crossbar); synthetic trees (balanced, uniform, alpha:0.3 splits) with T_seq/P = 2^10·T_atomic, P = 4 … 4096, and a UTS tree; 001 Thm 2's own cells: P/4 PEs 32× slow, queues trimmed at ⌈√P⌉ or not",
        Suite::RandomPolling => "asynchronous random polling with the energy detector on 001's simulated machine (crossbar); synthetic trees (balanced, uniform, alpha:0.3 splits) with T_seq/P = 2^10·T_atomic, P = 4 … 256; 001 Thm 2's own cells: P/4 PEs 32× slow, queues trimmed at ⌈√P⌉ or not",
        Suite::SyncRandomPolling if full => "synchronous random polling (001 §1.3) with the energy detector on 001's simulated machine (crossbar, rounds of Δt + T_poll + T_split + 2·T_rout): 001 Thm 1's cells of random polling's suite, P = 4 … 4096, and a UTS tree",
        Suite::SyncRandomPolling => "synchronous random polling (001 §1.3) with the energy detector on 001's simulated machine (crossbar, rounds of Δt + T_poll + T_split + 2·T_rout): 001 Thm 1's cells of random polling's suite (synthetic trees with T_seq/P = 2^10·T_atomic, three machines), P = 4 … 256",
        Suite::RandomDestination => "random-destination backtrack search on 004's atomic machine: balanced, skewed and peeled binary trees, every arbiter (fifo, lifo, random, fixed-priority, anti-critical)",
        Suite::PriorityBnb => "priority-queue branch-and-bound on 004's atomic machine, FIFO arbiter, runs with n > p² log2 p of the critical subtree",
        Suite::Scatter => "message scattering on 004's atomic machine: m messages per node to random destinations, every arbiter",
        Suite::Pacheco if full => "global round robin (003 §14.7.3) on 001's simulated machine: balanced and uniform synthetic trees, P = 4 … 256, two machines",
        Suite::Pacheco => "global round robin (003 §14.7.3) on 001's simulated machine: balanced and uniform synthetic trees, P = 4 … 64",
        Suite::PollAndShuffle => "poll-and-shuffle on 000's phased machine (hypercube; T_phase = Δt = 20, T_rout = 5, T_split = 2) and random polling on the same trees and network: balanced and uniform synthetic trees, n = 8 … 128 (full: 512); the adaptive trigger of §5",
    }
}
