//! `lbcheck bounds`: statistical tests of a balancer against the papers'
//! bounds (lbcheck::bounds); exit 1 naming the failed claims.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use clap::Args;
use lbcheck::bounds::claims::{self, Claim};
use lbcheck::bounds::plan::Profile;
use lbcheck::bounds::seeds::CI_SEED_BASE;
use lbcheck::bounds::suite;
use lbcheck::mutants::Mutant;
use serde_json::json;

#[derive(Args, Debug)]
pub struct BoundsArgs {
    /// Load balancer (only random-polling so far).
    #[arg(long, default_value = "random-polling")]
    balancer: String,
    /// The quick profile (P = 2^2..2^8; the default).
    #[arg(long, conflicts_with = "full")]
    quick: bool,
    /// The full profile (P = 2^2..2^12, and a UTS tree).
    #[arg(long)]
    full: bool,
    /// Base of every run's seed (CI uses 1); fresh values rerun on fresh seeds.
    #[arg(long, default_value_t = CI_SEED_BASE)]
    seed_base: u64,
    /// Only the cells with P ≤ this (a reduced profile, same code; used to
    /// show the mutants failing quickly).
    #[arg(long, default_value_t = u32::MAX)]
    max_pes: u32,
    /// Test a deliberately broken variant (calibration still runs the reference).
    #[arg(long)]
    mutant: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(a: BoundsArgs) -> anyhow::Result<ExitCode> {
    if a.balancer != "random-polling" {
        bail!("unknown balancer `{}`; valid: random-polling", a.balancer);
    }
    let mutant: Option<Mutant> = a.mutant.as_deref().map(str::parse).transpose().map_err(anyhow::Error::msg)?;
    let profile = if a.full { Profile::Full } else { Profile::Quick };
    let start = Instant::now();
    let samples = suite::run_all(profile, a.max_pes, a.seed_base, mutant);
    let (k, claims) = claims::evaluate(&samples);
    let replay = replay(&a, profile);
    let secs = start.elapsed().as_secs_f64();
    if a.json {
        let out = json!({"profile": format!("{profile:?}"), "seed_base": a.seed_base, "mutant": a.mutant,
            "runs": samples.len(), "constants": k, "claims": claims, "seconds": secs, "replay": replay,
            "family_alpha": claims::FAMILY_ALPHA, "correction": "Bonferroni"});
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print!("{}", table(&claims));
        println!("fitted constants (calibration runs of the reference): C = {:.3} (001 Thm 1), c = {:.3} (001 Lemma 3), messages/(P·h) = {:.3} (002 Thm 1)", k.c_t_par, k.c_gen, k.c_traffic);
        println!(
            "{} runs in {secs:.1} s; family-wise α = {} (Bonferroni over {} tests)",
            samples.len(),
            claims::FAMILY_ALPHA,
            claims::STAT_TESTS
        );
        println!("replay: {replay}");
    }
    let failed: Vec<&str> = claims.iter().filter(|c| !c.pass).map(|c| c.name).collect();
    if failed.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    for c in claims.iter().filter(|c| !c.pass) {
        eprintln!("FAILED {} ({}): {} vs {}", c.name, c.reference, c.measured, c.bound);
    }
    eprintln!("replay with: {replay}");
    Ok(ExitCode::from(1))
}

fn replay(a: &BoundsArgs, profile: Profile) -> String {
    let p = if profile == Profile::Full { "--full" } else { "--quick" };
    let mut m = a.mutant.as_ref().map(|m| format!(" --mutant {m}")).unwrap_or_default();
    if a.max_pes != u32::MAX {
        m += &format!(" --max-pes {}", a.max_pes);
    }
    format!("lbcheck bounds --balancer {} {p} --seed-base {}{m}", a.balancer, a.seed_base)
}

fn table(claims: &[Claim]) -> String {
    let head = ["claim", "N", "measured", "bound / fitted constant", "confidence interval", "α", "verdict"];
    let rows: Vec<[String; 7]> = claims
        .iter()
        .map(|c| {
            let alpha = c.alpha.map_or("exact".into(), |a| format!("{a:.1e}"));
            let v = if c.pass { "PASS" } else { "FAIL" };
            [
                format!("{} ({})", c.name, c.reference),
                c.n.to_string(),
                c.measured.clone(),
                c.bound.clone(),
                c.ci.clone(),
                alpha,
                v.into(),
            ]
        })
        .collect();
    let mut w = head.map(|h| h.chars().count());
    for r in &rows {
        for (i, s) in r.iter().enumerate() {
            w[i] = w[i].max(s.chars().count());
        }
    }
    let line = |cells: Vec<&str>| -> String {
        let padded: Vec<String> =
            cells.iter().enumerate().map(|(i, s)| format!("{s}{}", " ".repeat(w[i] - s.chars().count()))).collect();
        padded.join("  ").trim_end().to_string() + "\n"
    };
    let mut out = line(head.to_vec());
    for r in &rows {
        out += &line(r.iter().map(String::as_str).collect());
    }
    out
}
