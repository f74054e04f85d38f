//! `lbcheck simulate`: one run of a balancer and a detector in the simulator
//! of 001's machine, checked online; exit 1 if a property fails.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::Args;
use lbcheck::mutants::Mutant;
use lbcheck::problem::{spec, Workload};
use lbcheck::protocol::random_polling;
use lbcheck::sim::scenario::{DetectorKind, RunReport, Scenario};
use lbcheck::sim::{SimConfig, Stop};
use serde_json::json;

use super::verdicts;

#[derive(Args, Debug)]
#[command(after_help = format!("WORKLOAD forms:\n{}", spec::FORMS))]
pub struct SimulateArgs {
    /// Load balancer (only random-polling so far).
    #[arg(long, default_value = "random-polling")]
    balancer: String,
    /// Termination detector: energy, energy-tree, four-counter.
    #[arg(long, default_value = "energy")]
    termination: String,
    /// The workload (see the forms below).
    #[arg(long)]
    workload: String,
    /// DFS-stack split strategy: bottom-one, bottom-half, all-half, cutoff:<depth>.
    #[arg(long, default_value = "bottom-half")]
    split: String,
    /// Number of PEs.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=1 << 24))]
    pes: u32,
    /// Seed of every random stream (default: $LBCHECK_SEED, else 0).
    #[arg(long, env = "LBCHECK_SEED", default_value_t = 0)]
    seed: u64,
    /// Δt: work units between polls.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    dt: u64,
    /// T_rout: message latency in time units.
    #[arg(long, default_value_t = 10)]
    t_rout: u64,
    /// T_split: time a split costs the splitting PE.
    #[arg(long, default_value_t = 5)]
    t_split: u64,
    /// Random latency per message, uniform in a..b (inclusive); overrides --t-rout.
    #[arg(long, value_name = "a..b")]
    latency: Option<String>,
    /// COUNT:FACTOR: COUNT random PEs take FACTOR time units per work unit.
    #[arg(long, value_name = "COUNT:FACTOR")]
    slow: Option<String>,
    /// Start with the root split locally into P parts (002 §3).
    #[arg(long)]
    initial_split: bool,
    /// Reject requests that find this many queued (001 §4).
    #[arg(long)]
    queue_limit: Option<u32>,
    /// Run a deliberately broken variant (see `lbcheck mutants`).
    #[arg(long)]
    mutant: Option<String>,
    /// Cap on simulator steps.
    #[arg(long, default_value_t = SimConfig::default().max_steps)]
    max_steps: u64,
    /// Time the detector may take to announce after the computation is over
    /// (0 = automatic: 1000·(Δt + T_split + latency + 1)·(⌈log2 P⌉ + 2)).
    #[arg(long, default_value_t = 0)]
    detect_horizon: u64,
    /// Write the event stream as JSON Lines to FILE.
    #[arg(long, value_name = "FILE")]
    trace: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(a: SimulateArgs) -> anyhow::Result<ExitCode> {
    let scenario = scenario(&a)?;
    let mut file = match &a.trace {
        Some(path) => Some(BufWriter::new(File::create(path).with_context(|| format!("cannot create {path}"))?)),
        None => None,
    };
    let report = scenario.run(file.as_mut().map(|f| f as &mut dyn Write)).context("writing the trace")?;
    if let Some(f) = file.as_mut() {
        f.flush().context("writing the trace")?;
    }
    let out = to_json(&scenario, &report);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print!("{}", verdicts::human(&out));
    }
    match report.outcome.stop {
        Stop::Drained => {}
        Stop::StepCap => eprintln!("step cap {} reached at time {}: the run did not finish", a.max_steps, report.outcome.end_time),
        Stop::NotAnnounced { quiet_since } => eprintln!(
            "stopped at time {}: the computation was over at time {quiet_since} but termination was not announced within the detection horizon of {} time units",
            report.outcome.end_time,
            scenario.sim.detect_horizon()
        ),
    }
    Ok(verdicts::exit_code(&report.check, &scenario.replay()))
}

fn scenario(a: &SimulateArgs) -> anyhow::Result<Scenario> {
    if a.balancer != "random-polling" {
        bail!("unknown balancer `{}`; valid: random-polling", a.balancer);
    }
    let workload: Workload = a.workload.parse()?;
    let detector: DetectorKind = a.termination.parse().map_err(anyhow::Error::msg)?;
    let mutant: Option<Mutant> = a.mutant.as_deref().map(str::parse).transpose().map_err(anyhow::Error::msg)?;
    let sim = SimConfig {
        pes: a.pes,
        seed: a.seed,
        dt: a.dt,
        t_rout: a.t_rout,
        t_split: a.t_split,
        latency: a.latency.as_deref().map(parse_range).transpose()?,
        slow: a.slow.as_deref().map(parse_slow).transpose()?,
        initial_split: a.initial_split,
        max_steps: a.max_steps,
        horizon: a.detect_horizon,
    };
    sim.validate().map_err(anyhow::Error::msg)?;
    let polling = random_polling::Config { queue_limit: a.queue_limit, mutant };
    Ok(Scenario { workload, split: a.split.parse()?, detector, sim, polling })
}

fn parse_range(s: &str) -> anyhow::Result<(u64, u64)> {
    let bad = || anyhow::anyhow!("--latency `{s}`: expected a..b with integers 1 <= a <= b");
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    Ok((a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?))
}

fn parse_slow(s: &str) -> anyhow::Result<(u32, u64)> {
    let bad = || anyhow::anyhow!("--slow `{s}`: expected COUNT:FACTOR with integers, FACTOR >= 1");
    let (n, f) = s.split_once(':').ok_or_else(bad)?;
    Ok((n.parse().map_err(|_| bad())?, f.parse().map_err(|_| bad())?))
}

fn to_json(s: &Scenario, r: &RunReport) -> serde_json::Value {
    let m = &r.check.metrics;
    json!({
        "t_par": m.t_par,
        "t_last_work": m.t_last_work,
        "t_seq": m.t_seq,
        "efficiency": m.efficiency,
        "pes": s.sim.pes,
        "messages": m.messages,
        "max_gen": m.max_gen,
        "properties": r.check.properties,
        "replay": s.replay(),
        "metrics": m,
        "steps": r.outcome.steps,
        "finished": r.outcome.finished(),
        "workload": s.workload.to_string(),
        "termination": s.detector.to_string(),
        "mutant": s.mutant().map(|m| m.to_string()),
    })
}
