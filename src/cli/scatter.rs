//! `lbcheck scatter`: message scattering on 004's atomic machine (004 §3).
//! One instance (p nodes, m messages each) runs under an arbiter, or under
//! every arbitration (the exhaustive adversary); its completion time T is
//! checked against 004 §3's exact facts, optionally with the off-line König
//! schedule's T (004-7); exit 1 if a fact fails.

use std::fmt::Write;
use std::process::ExitCode;

use anyhow::bail;
use clap::Args;
use lbcheck::base::rng::{stream, Purpose};
use lbcheck::report;
use lbcheck::sim::atomic::adversary::Exploration;
use lbcheck::sim::atomic::network::Chooser;
use lbcheck::sim::atomic::scatter::{self, Dest, Fact, Instance};
use lbcheck::sim::atomic::{Arbiter, AtomicConfig, ADVERSARY_MAX_PES};
use serde_json::{json, Value};

use super::args::kind;

/// The most messages (P·M) an instance may have: larger ones are refused.
const MAX_TOTAL: u64 = 100_000_000;
/// The most message deliveries the adversary may run (--max-runs runs of
/// P·M each), 5·10^7: about 5 s.
const MAX_ADVERSARY_DELIVERIES: u64 = 50_000_000;

#[derive(Args, Debug)]
pub struct ScatterArgs {
    /// Number of nodes p, 1..=2^20.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
    pes: u32,
    /// Messages per node m, 0..=10^6 (and P·M <= 10^8).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    messages: u64,
    /// Destinations: random (independent, uniform), all-to-0 (every message
    /// to node 0: exactly m·p steps with self-messages through the network,
    /// the default, and m·(p−1) with --self-local), hotspot (node 0 or 1).
    #[arg(long, default_value_t = Dest::Random, value_parser = kind::<Dest>)]
    dest: Dest,
    /// Who wins a contended destination: fifo, lifo, fixed-priority,
    /// anti-critical, random, adversary (every choice, P <= 4: reports the
    /// worst and best T).
    #[arg(long, default_value_t = Arbiter::Fifo, value_parser = kind::<Arbiter>)]
    arbiter: Arbiter,
    /// Seed of the destinations and of the arbiter's ties (default: $LBCHECK_SEED, else 0).
    #[arg(long, env = "LBCHECK_SEED", default_value_t = 0)]
    seed: u64,
    /// Self-messages are delivered locally, bypassing the network (all-to-0
    /// then takes exactly m·(p−1) steps instead of m·p).
    #[arg(long)]
    self_local: bool,
    /// Also compute the off-line König schedule's T (004-7: exactly max(r, m)).
    #[arg(long)]
    offline: bool,
    /// --arbiter adversary: cap on the choice sequences run (>= 1; default 10^6).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_runs: Option<u64>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(a: ScatterArgs) -> anyhow::Result<ExitCode> {
    validate(&a)?;
    let inst = Instance::new(a.pes, a.messages as usize, a.dest, a.seed, a.self_local);
    let (t, adversary, mut facts) = measure(&a, &inst);
    let offline_t = a.offline.then(|| inst.offline());
    facts.extend(offline_t.map(|o| scatter::offline_fact(&inst, o)));
    let out = json(&a, &inst, t, offline_t, adversary.as_ref(), &facts);
    report::print(&out, a.json, human)?;
    if let Some(x) = adversary.filter(|x| !x.complete) {
        eprintln!(
            "note: the adversary ran {} choice sequences (--max-runs) without exhausting them: worst T = {} is only a lower bound on the true worst case",
            x.runs, x.worst
        );
    }
    Ok(exit_code(&facts, &replay(&a)))
}

/// --max-runs, else the adversary's default cap.
fn max_runs(a: &ScatterArgs) -> u64 {
    a.max_runs.unwrap_or(AtomicConfig::default().max_runs)
}

/// Refuses what the run cannot do whole (each message names its flag).
fn validate(a: &ScatterArgs) -> anyhow::Result<()> {
    if a.arbiter == Arbiter::Adversary && a.pes > ADVERSARY_MAX_PES {
        bail!(
            "--arbiter adversary explores every choice: --pes = {} is out of range, valid 1..={ADVERSARY_MAX_PES}",
            a.pes
        );
    }
    let total = u64::from(a.pes) * a.messages;
    if total > MAX_TOTAL {
        bail!("--pes × --messages = {} × {} = {total} messages: at most 10^8 are accepted", a.pes, a.messages);
    }
    if a.max_runs.is_some() && a.arbiter != Arbiter::Adversary {
        bail!("--max-runs caps the runs of --arbiter adversary, not of --arbiter {}", a.arbiter);
    }
    let deliveries = total.saturating_mul(max_runs(a));
    if a.arbiter == Arbiter::Adversary && deliveries > MAX_ADVERSARY_DELIVERIES {
        bail!(
            "--arbiter adversary may run --max-runs = {} choice sequences of --pes × --messages = {total} messages each, {deliveries} deliveries: at most {MAX_ADVERSARY_DELIVERIES} are accepted (lower --max-runs or --messages)",
            max_runs(a)
        );
    }
    Ok(())
}

/// T (under the adversary: the worst T found), the exploration, and the
/// facts of 004 §3 (under the adversary: of every run explored).
fn measure(a: &ScatterArgs, inst: &Instance) -> (u64, Option<Exploration>, Vec<Fact>) {
    if a.arbiter != Arbiter::Adversary {
        let chooser = Chooser::Seeded(stream(a.seed, 0, Purpose::Arbiter));
        let (t, _) = inst.run(scatter::rules(a.arbiter), chooser);
        return (t, None, scatter::facts(inst, t, a.dest));
    }
    let x = inst.adversary(scatter::rules(Arbiter::Adversary), max_runs(a));
    let facts = every_run(scatter::facts(inst, x.worst, a.dest), scatter::facts(inst, x.best, a.dest));
    (x.worst, Some(x), facts)
}

/// The facts of every run explored, from those of the worst and the best
/// run: each is a bound on T or T's exact value, so it holds for every run
/// if it holds for both.
fn every_run(worst: Vec<Fact>, best: Vec<Fact>) -> Vec<Fact> {
    let both = |(w, b): (Fact, Fact)| {
        let detail = format!("worst run: {}; best run: {}", w.detail, b.detail);
        Fact { pass: w.pass && b.pass, detail, ..w }
    };
    worst.into_iter().zip(best).map(both).collect()
}

/// The run's JSON (the keys are a contract).
fn json(
    a: &ScatterArgs,
    inst: &Instance,
    t: u64,
    offline_t: Option<u64>,
    adversary: Option<&Exploration>,
    facts: &[Fact],
) -> Value {
    let (m, r) = (inst.m(), inst.r());
    let facts: serde_json::Map<String, Value> =
        facts.iter().map(|f| (f.name.to_string(), json!({"pass": f.pass, "detail": f.detail}))).collect();
    json!({
        "pes": a.pes, "messages": a.messages, "dest": a.dest.to_string(), "arbiter": a.arbiter.to_string(),
        "seed": a.seed, "self_local": a.self_local, "T": t, "m": m, "r": r,
        "T_over_m": (m > 0).then(|| t as f64 / m as f64), "lower": inst.lower(), "offline_T": offline_t,
        "adversary": adversary, "facts": facts, "replay": replay(a),
    })
}

/// The human form: the figures, the adversary's, one row per fact, the replay.
fn human(out: &Value) -> String {
    const KEYS: [&str; 12] =
        ["pes", "messages", "dest", "arbiter", "seed", "self_local", "T", "m", "r", "T_over_m", "lower", "offline_T"];
    let mut rows = report::rows(out, &KEYS);
    if let Some((_, v)) = rows.iter_mut().find(|(k, _)| *k == "T_over_m") {
        *v = format!("{:.3}", out["T_over_m"].as_f64().unwrap_or(0.0));
    }
    if let Some(x) = out.get("adversary").filter(|x| x.is_object()) {
        let (runs, complete, worst, best) = (&x["runs"], &x["complete"], &x["worst"], &x["best"]);
        rows.push((
            "adversary",
            format!("worst T={worst} best T={best} over {runs} choice sequences (complete: {complete})"),
        ));
    }
    for (name, f) in out["facts"].as_object().into_iter().flatten() {
        let verdict = if f["pass"] == true { "PASS" } else { "FAIL" };
        rows.push((name, format!("{verdict}  {}", report::text(&f["detail"]))));
    }
    report::table(&rows) + &format!("replay: {}\n", report::text(&out["replay"]))
}

/// 0 if every fact holds, else 1 (after naming the failures and the replay
/// command on stderr).
fn exit_code(facts: &[Fact], replay: &str) -> ExitCode {
    let failed: Vec<&Fact> = facts.iter().filter(|f| !f.pass).collect();
    if failed.is_empty() {
        return ExitCode::SUCCESS;
    }
    for f in failed {
        eprintln!("FAILED {}: {}", f.name, f.detail);
    }
    eprintln!("replay with: {replay}");
    ExitCode::from(1)
}

/// The command line that reproduces the run.
fn replay(a: &ScatterArgs) -> String {
    let mut cmd = format!(
        "lbcheck scatter --pes {} --messages {} --dest {} --arbiter {} --seed {}",
        a.pes, a.messages, a.dest, a.arbiter, a.seed
    );
    for (on, flag) in [(a.self_local, " --self-local"), (a.offline, " --offline")] {
        cmd += if on { flag } else { "" };
    }
    if let Some(runs) = a.max_runs {
        let _ = write!(cmd, " --max-runs {runs}");
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(pass: bool) -> Fact {
        Fact { name: "t_at_least_m", pass, detail: String::new() }
    }

    /// A fact holds for every explored run only if it holds for the worst and the best.
    #[test]
    fn every_run_fails_if_either_run_fails() {
        for (w, b) in [(true, true), (true, false), (false, true), (false, false)] {
            let merged = every_run(vec![fact(w)], vec![fact(b)]);
            assert_eq!((merged.len(), merged[0].pass), (1, w && b));
        }
    }
}
