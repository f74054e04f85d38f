//! `lbcheck bounds`: statistical tests of a balancer against the papers'
//! bounds (lbcheck::bounds); exit 1 naming the failed claims.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use clap::Args;
use lbcheck::bounds::claims;
use lbcheck::bounds::plan::{Profile, BALANCER, CI_SEED_BASE};
use lbcheck::bounds::suite;
use lbcheck::mutants::{Catcher, Mutant, Site};
use lbcheck::protocol::{BalancerKind, DetectorKind};
use lbcheck::report;
use serde_json::json;

use super::args::kind;

#[derive(Args, Debug)]
pub struct BoundsArgs {
    /// Load balancer (the only one with bound claims so far).
    #[arg(long, default_value_t = BALANCER, value_parser = kind::<BalancerKind>)]
    balancer: BalancerKind,
    /// The quick profile (P = 2^2..2^8; the default).
    #[arg(long, conflicts_with = "full")]
    quick: bool,
    /// The full profile (P = 2^2..2^12, and a UTS tree).
    #[arg(long)]
    full: bool,
    /// Base of every run's seed (CI uses 1); fresh values rerun on fresh seeds.
    #[arg(long, default_value_t = CI_SEED_BASE)]
    seed_base: u64,
    /// Only the cells with P ≤ this, at least 4 (a reduced profile, same
    /// code; used to show the mutants failing quickly).
    #[arg(long, default_value_t = u32::MAX, value_parser = clap::value_parser!(u32).range(4..))]
    max_pes: u32,
    /// Test a deliberately broken variant (calibration still runs the reference).
    #[arg(long, value_parser = kind::<Mutant>)]
    mutant: Option<Mutant>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(a: BoundsArgs) -> anyhow::Result<ExitCode> {
    check_mutant(a.mutant)?;
    let profile = if a.full { Profile::Full } else { Profile::Quick };
    let start = Instant::now();
    let samples = suite::run_all(profile, a.max_pes, a.seed_base, a.mutant);
    let (k, claims) = claims::evaluate(&samples, a.mutant);
    let out = json!({"profile": format!("{profile:?}"), "seed_base": a.seed_base,
        "mutant": a.mutant.map(|m| m.to_string()), "runs": samples.len(), "constants": k, "claims": claims,
        "seconds": start.elapsed().as_secs_f64(), "replay": replay(&a, profile),
        "family_alpha": claims::FAMILY_ALPHA, "correction": "Bonferroni"});
    report::print(&out, a.json, |out| report::bounds::human(out, &claims));
    Ok(report::bounds::exit_code(&claims, &replay(&a, profile)))
}

/// Refuses a mutant that does not act in the suite's runs (random polling
/// with the energy detector on the simulator, and the bound formulas).
fn check_mutant(mutant: Option<Mutant>) -> anyhow::Result<()> {
    let Some(m) = mutant else { return Ok(()) };
    if let Some(why) =
        m.not_applicable(BALANCER, DetectorKind::Energy, false).filter(|_| m.entry().site != Site::Formulas)
    {
        bail!("{why}; the bounds suite runs {BALANCER} with --termination energy in the simulator");
    }
    if let Some(note) = m.uncaught_by(Catcher::Bounds) {
        eprintln!("{note}");
    }
    Ok(())
}

fn replay(a: &BoundsArgs, profile: Profile) -> String {
    let p = if profile == Profile::Full { "--full" } else { "--quick" };
    let mut m = a.mutant.map(|m| format!(" --mutant {m}")).unwrap_or_default();
    if a.max_pes != u32::MAX {
        m += &format!(" --max-pes {}", a.max_pes);
    }
    format!("lbcheck bounds --balancer {} {p} --seed-base {}{m}", a.balancer, a.seed_base)
}
