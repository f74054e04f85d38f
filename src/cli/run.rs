//! `lbcheck run`: the protocols on real threads (`runtime::threads`); with
//! `--check`, the recorded event stream is checked against every property
//! (exit 1 if one fails).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::Args;
use lbcheck::event::{write_event, Event};
use lbcheck::mutants::{Mutant, CATALOGUE};
use lbcheck::problem::{sequential, spec, Workload};
use lbcheck::protocol::random_polling;
use lbcheck::runtime::mutants::{ThreadMutant, THREAD_CATALOGUE};
use lbcheck::runtime::threads::{ThreadConfig, ThreadRun};
use lbcheck::runtime::RealRun;
use lbcheck::sim::scenario::DetectorKind;
use serde_json::json;

use super::verdicts;

#[derive(Args, Debug)]
#[command(after_help = format!("WORKLOAD forms:\n{}", spec::FORMS))]
pub struct RunArgs {
    /// Load balancer (only random-polling so far).
    #[arg(long, default_value = "random-polling")]
    balancer: String,
    /// Termination detector: energy, energy-tree, four-counter.
    #[arg(long, default_value = "four-counter")]
    termination: String,
    /// The workload (see the forms below).
    #[arg(long)]
    workload: String,
    /// DFS-stack split strategy: bottom-one, bottom-half, all-half, cutoff:<depth>.
    /// all-half by default here: on 2 threads it matches rayon on T1L and is
    /// 1.35x faster than bottom-half on the deep BIN tree T3L (`cargo bench --bench threads`).
    #[arg(long, default_value = "all-half")]
    split: String,
    /// Number of threads (one PE each).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Seed of the PEs' random streams (default: $LBCHECK_SEED, else 0).
    #[arg(long, env = "LBCHECK_SEED", default_value_t = 0)]
    seed: u64,
    /// Δt: work units (nodes) between polls.
    #[arg(long, default_value_t = ThreadConfig::default().dt, value_parser = clap::value_parser!(u64).range(1..))]
    dt: u64,
    /// Reject requests that find this many queued (001 §4).
    #[arg(long)]
    queue_limit: Option<u32>,
    /// Start with the root split locally into one part per thread (002 §3).
    #[arg(long)]
    initial_split: bool,
    /// Run a deliberately broken variant: a protocol or a thread mutant (see
    /// `lbcheck mutants`). A thread mutant may deadlock: without --timeout, 60 s applies.
    #[arg(long)]
    mutant: Option<String>,
    /// Record the event stream and check every property (slower; also times the sequential reference).
    #[arg(long)]
    check: bool,
    /// Give up after this many seconds without global termination: print
    /// the replay command and exit 1 (a hang guard for CI; 0 = no limit).
    #[arg(long, default_value_t = 0)]
    timeout: u64,
    /// Record the event stream and write it as JSON Lines to FILE (times in
    /// nanoseconds; `lbcheck check-trace FILE` checks it).
    #[arg(long, value_name = "FILE")]
    trace: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Exits the process with code 1 if the run takes longer than `secs`: a
/// deadlocked PE thread cannot be stopped from outside, so the watchdog ends
/// the whole process after naming the property that failed.
fn watchdog(secs: u64, replay: String) {
    if secs == 0 {
        return;
    }
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(secs));
        eprintln!("FAILED termination_detected: no global termination within {secs} s (deadlock or livelock?)");
        eprintln!("replay with: {replay}");
        std::process::exit(1);
    });
}

pub fn run(a: RunArgs) -> anyhow::Result<ExitCode> {
    let spec = spec_of(&a)?;
    let timeout = match (a.timeout, spec.threads.mutant) {
        (0, Some(m)) => {
            eprintln!("note: thread mutant `{m}` may deadlock; giving up after 60 s (set --timeout to change)");
            60
        }
        (t, _) => t,
    };
    watchdog(timeout, spec.replay());
    let file = a.trace.as_ref().map(|p| File::create(p).with_context(|| format!("cannot create {p}"))).transpose()?;
    let (run, check, t_seq_secs) = if a.check {
        let start = Instant::now();
        let seq = sequential::run(spec.workload.root(spec.split));
        let t_seq_secs = start.elapsed().as_secs_f64();
        let (run, check) = spec.run_checked(lbcheck::check::Reference { fp: seq.log.fp, t_seq: seq.work });
        (run, Some(check), Some(t_seq_secs))
    } else {
        (spec.execute(), None, None)
    };
    if let (Some(path), Some(file)) = (&a.trace, file) {
        write_trace(file, &spec, &run).with_context(|| format!("writing the trace to {path}"))?;
    }
    let out = to_json(&spec, &run, check.as_ref(), t_seq_secs);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print!("{}", verdicts::human(&out));
    }
    Ok(match &check {
        Some(c) => verdicts::exit_code(c, &spec.replay()),
        None => ExitCode::SUCCESS,
    })
}

fn write_trace(file: File, spec: &RealRun, run: &ThreadRun) -> anyhow::Result<()> {
    let mut w = BufWriter::new(file);
    write_event(&mut w, &Event::Header(spec.header()))?;
    for e in run.events.as_deref().unwrap_or_default() {
        write_event(&mut w, e)?;
    }
    Ok(w.flush()?)
}

fn spec_of(a: &RunArgs) -> anyhow::Result<RealRun> {
    if a.balancer != "random-polling" {
        bail!("unknown balancer `{}`; valid: random-polling", a.balancer);
    }
    let workload: Workload = a.workload.parse()?;
    let detector: DetectorKind = a.termination.parse().map_err(anyhow::Error::msg)?;
    let (mutant, thread_mutant) = parse_mutant(a.mutant.as_deref())?;
    let threads = ThreadConfig {
        pes: a.threads,
        seed: a.seed,
        dt: a.dt,
        record: a.check || a.trace.is_some(),
        mutant: thread_mutant,
        initial_split: a.initial_split,
    };
    let polling = random_polling::Config { queue_limit: a.queue_limit, mutant };
    Ok(RealRun { workload, split: a.split.parse().context("--split")?, detector, threads, polling })
}

/// A protocol mutant or a thread mutant, by name.
fn parse_mutant(name: Option<&str>) -> anyhow::Result<(Option<Mutant>, Option<ThreadMutant>)> {
    let Some(name) = name else { return Ok((None, None)) };
    match (name.parse::<Mutant>(), name.parse::<ThreadMutant>()) {
        (Ok(m), _) => Ok((Some(m), None)),
        (_, Ok(m)) => Ok((None, Some(m))),
        _ => {
            let protocol: Vec<_> = CATALOGUE.iter().map(|e| e.name).collect();
            let threads: Vec<_> = THREAD_CATALOGUE.iter().map(|e| e.name).collect();
            bail!(
                "unknown mutant `{name}`; protocol mutants: {}; thread mutants: {}",
                protocol.join(", "),
                threads.join(", ")
            )
        }
    }
}

/// The keys of `simulate`'s JSON, with times in seconds, plus `nodes_per_sec`.
fn to_json(
    s: &RealRun,
    r: &ThreadRun,
    check: Option<&lbcheck::check::CheckReport>,
    t_seq: Option<f64>,
) -> serde_json::Value {
    let t_par = r.elapsed.as_secs_f64();
    let nodes = r.total_units();
    let m = check.map(|c| &c.metrics);
    json!({
        "t_par": t_par,
        "t_last_work": m.and_then(|m| m.t_last_work).map(|t| t as f64 * 1e-9),
        "t_seq": t_seq,
        "efficiency": t_seq.map(|t| t / (f64::from(s.threads.pes) * t_par)),
        "pes": s.threads.pes,
        "messages": m.map(|m| &m.messages),
        "max_gen": m.map(|m| m.max_gen),
        "properties": check.map(|c| &c.properties),
        "replay": s.replay(),
        "metrics": m,
        "steps": m.map(|m| m.events),
        "finished": true,
        "workload": s.workload.to_string(),
        "termination": s.detector.to_string(),
        "mutant": s.polling.mutant.map(|m| m.to_string()).or(s.threads.mutant.map(|m| m.to_string())),
        "nodes": nodes,
        "nodes_per_sec": nodes as f64 / t_par,
        "units_per_pe": r.units,
    })
}
