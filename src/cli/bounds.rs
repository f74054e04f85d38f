//! `lbcheck bounds`: statistical tests of a balancer against the papers'
//! bounds (lbcheck::bounds); exit 1 naming the failed claims.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use clap::Args;
use lbcheck::base::Registered;
use lbcheck::bounds::dispatch;
use lbcheck::bounds::plan::{Profile, CI_SEED_BASE};
use lbcheck::bounds::{assumptions, claims, granularity, listing, logp, request_cost, routing, suite, Suite};
use lbcheck::mutants::{Catcher, Mutant};
use lbcheck::report;
use lbcheck::sim::Topology;
use serde_json::json;

use super::args::kind;

#[derive(Args, Debug)]
pub struct BoundsArgs {
    /// The suite: random-polling (001/002), sync-random-polling (001 §1.3),
    /// random-destination (004 Thm 1),
    /// priority-bnb (004 Thm 2), scatter (004 Thm 3) or pacheco (003
    /// §14.7.3's global round robin), named by the balancer or model it tests.
    /// Default: random-polling, or with --mutant the suite the mutant acts in.
    #[arg(long, value_parser = kind::<Suite>)]
    balancer: Option<Suite>,
    /// The quick profile (P = 2^2..2^8; the default).
    #[arg(long, conflicts_with = "full")]
    quick: bool,
    /// The full profile (P = 2^2..2^12, and a UTS tree).
    #[arg(long)]
    full: bool,
    /// Base of every run's seed (CI uses 1); fresh values rerun on fresh seeds.
    #[arg(long, default_value_t = CI_SEED_BASE)]
    seed_base: u64,
    /// Only the cells with P ≤ this (p or n in 004's and 000's suites; a
    /// reduced profile, same code; every suite). A claim whose need this
    /// does not meet (a trend two or more values of P; random polling's
    /// trends P up to 32, where the reference's own slope is no longer a
    /// finite-size rise) is REFUSED ("trend needs P up to at least K",
    /// naming K) and the others run: exit 1 if one that ran failed, else
    /// 2 if one was refused. Under every cell: refused before any run.
    #[arg(long, default_value_t = u32::MAX, hide_default_value = true)]
    max_pes: u32,
    /// The network of poll-and-shuffle's suite (000 §2.1, §4): hypercube
    /// (its default), mesh:R, fat-tree, butterfly, ccc or crossbar; random
    /// polling's comparison runs use it too. Only with --balancer poll-and-shuffle.
    #[arg(long, value_name = "T")]
    topology: Option<Topology>,
    /// Test a deliberately broken variant (calibration still runs the reference).
    #[arg(long, value_parser = kind::<Mutant>)]
    mutant: Option<Mutant>,
    /// List every claim of every suite (suite, claim, papers, § or
    /// equation, exact or its α, the mutants that fail it), then the
    /// papers' claims no suite tests (where they are tested, or why not),
    /// and exit; runs nothing. With --json each row has paper, kind,
    /// alpha, status, coverage (COVERAGE.md §5's numbers), mutants and
    /// untestable (why no mutant is shown failing it).
    #[arg(long)]
    list: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(mut a: BoundsArgs) -> anyhow::Result<ExitCode> {
    if a.list {
        return list(a.json);
    }
    let suite = a.balancer.unwrap_or_else(|| default_suite(a.mutant));
    a.balancer = Some(suite);
    check_mutant(suite, a.mutant)?;
    check_topology(suite, &a)?;
    let profile = if a.full { Profile::Full } else { Profile::Quick };
    let topology = a.topology.unwrap_or_else(|| suite.default_topology(a.mutant));
    if let Some(why) = dispatch::refuse_all(suite, profile, topology, a.max_pes) {
        bail!("{why}");
    }
    if suite != Suite::RandomPolling {
        return atomic(&a, profile);
    }
    let start = Instant::now();
    let samples = suite::run_all(profile, a.max_pes, a.seed_base, a.mutant);
    if let Some(why) = assumptions::refuse(&samples) {
        bail!("{why}");
    }
    let (k, mut claims) = claims::evaluate(&samples, a.mutant);
    claims.extend(granularity::claims(a.max_pes, a.seed_base, a.mutant));
    claims.push(logp::run_claim(profile, a.max_pes, a.seed_base, a.mutant));
    claims.push(request_cost::run_claim(profile, a.max_pes, a.seed_base, a.mutant));
    claims.push(routing::run_claim(a.max_pes, a.seed_base, a.mutant));
    let refused = dispatch::mark_refused(&mut claims, suite, profile, topology, a.max_pes);
    let out = json!({"refused": refused,"profile": format!("{profile:?}"), "seed_base": a.seed_base,
        "mutant": a.mutant.map(|m| m.to_string()), "runs": samples.len(), "constants": k, "claims": claims,
        "seconds": start.elapsed().as_secs_f64(), "replay": replay(&a, profile),
        "family_alpha": claims::FAMILY_ALPHA, "correction": "Bonferroni"});
    report::print(&out, a.json, |out| report::bounds::human(out, &claims))?;
    Ok(report::bounds::exit_code(&claims, &replay(&a, profile)))
}

/// `--list`: every claim, with its papers (`lbcheck reproduce PAPER` shows
/// them), kind, α and mutants; then the papers' claims no suite tests.
fn list(json: bool) -> anyhow::Result<ExitCode> {
    let out = serde_json::to_value(listing::entries())?;
    let head = ["suite (or status)", "claim", "papers", "§ / equation", "kind", "failed by (mutants) or (why none)"];
    report::print(&out, json, |_| report::columns(head, &listing::rows()))?;
    Ok(ExitCode::SUCCESS)
}

/// One of 004's suites ([`lbcheck::bounds::atomic`]).
fn atomic(a: &BoundsArgs, profile: Profile) -> anyhow::Result<ExitCode> {
    let (start, mutant, base) = (Instant::now(), a.mutant, a.seed_base);
    let suite = a.balancer.unwrap_or(Suite::RandomPolling);
    let topology = a.topology.unwrap_or_else(|| suite.default_topology(mutant));
    let dispatch::Outcome { runs, tests, constants: k, mut claims, refused } =
        dispatch::run(suite, profile, topology, a.max_pes, base, mutant);
    if let Some(why) = refused {
        bail!("{why}");
    }
    let refused = dispatch::mark_refused(&mut claims, suite, profile, topology, a.max_pes);
    let replay = replay(a, profile);
    let out = json!({"suite": suite.to_string(), "profile": format!("{profile:?}"), "seed_base": base,
        "mutant": mutant.map(|m| m.to_string()), "runs": runs, "constants": k, "claims": claims,
        "seconds": start.elapsed().as_secs_f64(), "replay": replay, "family_alpha": claims::FAMILY_ALPHA,
        "tests": tests, "correction": "Bonferroni", "refused": refused});
    report::print(&out, a.json, |out| report::bounds::human_atomic(out, &claims))?;
    Ok(report::bounds::exit_code(&claims, &replay))
}

/// The suite `mutant` acts in (random polling's if none, or without a mutant).
fn default_suite(mutant: Option<Mutant>) -> Suite {
    let acts = |s: &&Suite| mutant.is_some_and(|m| s.refuses(m).is_none());
    Suite::ALL.iter().find(acts).copied().unwrap_or(Suite::RandomPolling)
}

/// Refuses a mutant that does not act in the suite's runs.
fn check_mutant(suite: Suite, mutant: Option<Mutant>) -> anyhow::Result<()> {
    let Some(m) = mutant else { return Ok(()) };
    if let Some(why) = suite.refuses(m) {
        bail!("{why} (`lbcheck mutants` says where each acts)");
    }
    if let Some(note) = m.uncaught_by(Catcher::Bounds) {
        eprintln!("{note}");
    }
    Ok(())
}

/// `--topology` names poll-and-shuffle's network.
fn check_topology(suite: Suite, a: &BoundsArgs) -> anyhow::Result<()> {
    if a.topology.is_some() && suite != Suite::PollAndShuffle {
        bail!(
            "--topology applies only to --balancer poll-and-shuffle (its suite also runs random polling on that network: claims rp_t_par, rp_t_par_trend, rp_vs_pas)"
        );
    }
    Ok(())
}

fn replay(a: &BoundsArgs, profile: Profile) -> String {
    let p = if profile == Profile::Full { "--full" } else { "--quick" };
    let mut m = a.mutant.map(|m| format!(" --mutant {m}")).unwrap_or_default();
    if a.max_pes != u32::MAX {
        m += &format!(" --max-pes {}", a.max_pes);
    }
    let suite = a.balancer.unwrap_or(Suite::RandomPolling);
    if suite == Suite::PollAndShuffle {
        m = format!(" --topology {}{m}", a.topology.unwrap_or_else(|| suite.default_topology(a.mutant)));
    }
    format!("lbcheck bounds --balancer {suite} {p} --seed-base {}{m}", a.seed_base)
}
