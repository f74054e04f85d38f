//! The claims of `lbcheck bounds` as a table.

use std::process::ExitCode;

use serde_json::Value;

use crate::bounds::claims::{Claim, ClaimVerdict, FAMILY_ALPHA, STAT_TESTS};

/// One row per claim: name and source, sample size, measured value, bound,
/// confidence interval, α, verdict.
pub fn table(claims: &[Claim]) -> String {
    let head = ["claim", "N", "measured", "bound / fitted constant", "confidence interval", "α", "verdict"];
    let rows: Vec<[String; 7]> = claims
        .iter()
        .map(|c| {
            let alpha = c.alpha.map_or("exact".into(), |a| format!("{a:.1e}"));
            let verdict = c.verdict.label();
            let name = format!("{} ({})", c.name, c.reference);
            [name, c.n.to_string(), c.measured.clone(), c.bound.clone(), c.ci.clone(), alpha, verdict.into()]
        })
        .collect();
    super::columns(head, &rows) + &counts(claims)
}

/// "N passed, N failed, N not run" under the table: a claim not run is
/// counted apart, never as a pass.
fn counts(claims: &[Claim]) -> String {
    let n = |v: ClaimVerdict| claims.iter().filter(|c| c.verdict == v).count();
    let (pass, fail, not_run) = (n(ClaimVerdict::Pass), n(ClaimVerdict::Fail), n(ClaimVerdict::NotRun));
    let skipped = if not_run > 0 { format!(", {not_run} not run in this profile") } else { String::new() };
    format!("{} claims: {pass} passed, {fail} failed{skipped}\n", claims.len())
}

/// The claims table, the fitted constants, the run count and α, the replay command.
pub fn human(out: &Value, claims: &[Claim]) -> String {
    let k = &out["constants"];
    let num = |v: &Value| v.as_f64().map_or("-".into(), |x| format!("{x:.3}"));
    format!(
        "{}fitted constants (calibration runs of the reference): C = {} (001 Thm 1), c = {} (001 Lemma 3), messages/(P·h) = {} (002 Thm 1)\n{} runs in {:.1} s; family-wise α = {} (Bonferroni over {} tests)\nreplay: {}\n",
        table(claims),
        num(&k["c_t_par"]),
        num(&k["c_gen"]),
        num(&k["c_traffic"]),
        out["runs"],
        out["seconds"].as_f64().unwrap_or(0.0),
        FAMILY_ALPHA,
        STAT_TESTS,
        super::text(&out["replay"]),
    )
}

/// The claims table of one of 004's suites: fitted k (global, per arbiter),
/// runs, α, replay.
pub fn human_atomic(out: &Value, claims: &[Claim]) -> String {
    let k = &out["constants"];
    let per: Vec<String> = k["k_by_arbiter"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(a, v)| format!("{a} {:.3}", v.as_f64().unwrap_or(f64::NAN)))
        .collect();
    format!(
        "{}fitted k (calibration runs of the reference): {:.3}{}
{} runs in {:.1} s; family-wise α = {} (Bonferroni over {} tests)
replay: {}
",
        table(claims),
        k["k"].as_f64().unwrap_or(f64::NAN),
        if per.is_empty() { String::new() } else { format!("; per arbiter: {}", per.join(", ")) }
            + &k["k_adaptive"].as_f64().map_or(String::new(), |a| format!("; adaptive trigger (000 Thm 5): {a:.3}")),
        out["runs"],
        out["seconds"].as_f64().unwrap_or(0.0),
        out["family_alpha"],
        out["tests"],
        super::text(&out["replay"]),
    )
}

/// 0 if every claim passed; 1 if one that ran failed (after naming the
/// failed claims and the replay command on stderr); else 2 if one was
/// refused (`--max-pes` under what it needs: each named on stderr with
/// the K it needs, [`crate::bounds::range::mark_refused`]).
pub fn exit_code(claims: &[Claim], replay: &str) -> ExitCode {
    let failed: Vec<&Claim> = claims.iter().filter(|c| c.failed()).collect();
    for c in claims.iter().filter(|c| c.is_refused()) {
        eprintln!("REFUSED {}: {}", c.name, c.measured);
    }
    if failed.is_empty() {
        let refused = claims.iter().any(Claim::is_refused);
        return if refused { ExitCode::from(2) } else { ExitCode::SUCCESS };
    }
    for c in failed {
        eprintln!("FAILED {} ({}): {} vs {}", c.name, c.reference, c.measured, c.bound);
    }
    eprintln!("replay with: {replay}");
    ExitCode::from(1)
}
