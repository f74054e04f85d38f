//! `lbcheck explore`: every run of a tiny instance on 001's machine —
//! every message latency of the range, every order of simultaneous events —
//! checked ([`lbcheck::sim::explore`]); exit 1 with the shortest
//! counterexample found, as a trace `check-trace` rejects.

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use lbcheck::harness::{reference_within, Driver, ExploreResult, RunSpec};
use lbcheck::mutants::Catcher;
use lbcheck::problem::spec;
use lbcheck::protocol::DetectorKind;
use lbcheck::report;
use lbcheck::sim::atomic::{Arbiter, AtomicConfig};
use lbcheck::sim::explore::search::Limits;
use lbcheck::sim::explore::{ExploreConfig, MAX_PES};
use lbcheck::sim::{parse_latency, MachineKind, SimConfig, Topology};
use serde_json::{json, Value};

use super::args::{default, kind, RunArgs};

/// Where the counterexample goes without --trace.
const DEFAULT_TRACE: &str = "lbcheck-counterexample.jsonl";
/// The largest workload explored, in work units of its sequential run.
const MAX_REFERENCE_UNITS: u64 = 1_000_000;

#[derive(Args, Debug)]
#[command(after_help = format!("WORKLOAD forms:\n{}\n\nExample: lbcheck explore --termination four-counter --pes 3 --workload synthetic:size=8,atomic=1 --mutant four-counter-one-wave", spec::FORMS))]
#[command(mut_arg("split", default("bottom-half")))]
#[command(mut_arg("dt", default("1")))]
pub struct ExploreArgs {
    #[command(flatten)]
    run: RunArgs,
    /// Machine: async (001 §1: every latency and event order) or atomic /
    /// complete (004: every choice the arbiter leaves open); default: the
    /// balancer's (atomic for random-destination and priority-bnb).
    #[arg(long, value_parser = kind::<MachineKind>)]
    machine: Option<MachineKind>,
    /// Atomic machine: the arbiter whose open choices are explored
    /// (adversary, the default: every arbitration; fifo: every tie).
    #[arg(long, value_parser = kind::<Arbiter>)]
    arbiter: Option<Arbiter>,
    /// Number of PEs, 1..=6 (each PE multiplies the states).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=MAX_PES as i64))]
    pes: u32,
    /// T_rout: the message latency, unless --latency.
    #[arg(long, default_value_t = 1)]
    t_rout: u64,
    /// Every latency in a..b (at most 8 values) for every message.
    #[arg(long, value_name = "a..b")]
    latency: Option<String>,
    /// T_split: time a split costs the splitting PE.
    #[arg(long, default_value_t = 0)]
    t_split: u64,
    /// The network (000 §2.1, §4): crossbar, hypercube, mesh:R, fat-tree,
    /// butterfly or ccc (P a power of two); a message takes its latency
    /// once per hop.
    #[arg(long, default_value_t = Topology::Crossbar, value_parser = |s: &str| s.parse::<Topology>())]
    topology: Topology,
    /// How long a run may stay unannounced after the computation is over
    /// (0: automatic, 10·(⌊log2 P⌋ + 1)·(Δt + T_split + latency + 1)).
    #[arg(long, default_value_t = 0)]
    detect_horizon: u64,
    /// Explore the PEs' random streams of this many seeds from --seed
    /// (each completely: the explorer takes every latency and order, not
    /// every random draw).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    seeds: u64,
    /// Stop after this many distinct states, >= 1 (all seeds together; on
    /// the atomic machine, choice sequences per seed).
    #[arg(long, default_value_t = Limits::default().max_states, value_parser = clap::value_parser!(u64).range(1..))]
    max_states: u64,
    /// Do not expand states deeper than this many steps, >= 1.
    #[arg(long, default_value_t = Limits::default().max_depth, value_parser = clap::value_parser!(u32).range(1..))]
    max_depth: u32,
    /// Stop after this many seconds, 1..=86400.
    #[arg(long, default_value_t = Limits::default().time.as_secs(), value_parser = clap::value_parser!(u64).range(1..=86_400))]
    max_seconds: u64,
}

pub fn run(a: ExploreArgs) -> anyhow::Result<ExitCode> {
    let (spec, cfg) = spec(&a)?;
    if a.run.print_spec {
        return super::output::print_spec(&spec);
    }
    a.run.note_uncaught(&spec, Catcher::Explore);
    let trace = a.run.trace.clone().unwrap_or_else(|| DEFAULT_TRACE.to_string());
    let result = explored(&spec, &a, &trace)?;
    let seed = spec.driver.seed();
    let replay = result.seed.map_or_else(|| replay(&spec, &a, seed, a.seeds), |s| replay(&spec, &a, s, 1));
    let out = json(&spec, &cfg, &result, &trace, &replay);
    report::print(&out, a.run.json, human)?;
    let Some(v) = &result.found.violation else { return Ok(ExitCode::SUCCESS) };
    eprintln!("FAILED {} (seed {}): {}", v.property, result.seed.unwrap_or_default(), v.detail);
    eprintln!("counterexample: {trace} (check it: lbcheck check-trace {trace})");
    eprintln!("replay with: {replay}");
    Ok(ExitCode::from(1))
}

/// The run and the exploration the arguments describe, validated.
fn spec(a: &ExploreArgs) -> anyhow::Result<(RunSpec, ExploreConfig)> {
    if a.run.initial_split.is_some() {
        anyhow::bail!("explore does not take --initial-split (PE 0 starts with the root)");
    }
    let spec = a.run.spec(driver(a)?, DetectorKind::FourCounter)?;
    if reference_within(&spec.workload, spec.split, MAX_REFERENCE_UNITS).is_err() {
        anyhow::bail!("explore takes tiny instances: the sequential run of `{}` does more than {MAX_REFERENCE_UNITS} units (each reachable state is visited)", spec.workload);
    }
    if spec.balancer.polling().is_some_and(|p| p.deactivate.is_some()) {
        anyhow::bail!("--deactivate is not explored (its window would be ignored): use `lbcheck simulate`");
    }
    if spec.driver.initial_split() {
        anyhow::bail!("explore does not take --initial-split (PE 0 starts with the root)");
    }
    let sim = match spec.driver {
        Driver::Sim(sim) => sim,
        Driver::Atomic(c) => {
            SimConfig { pes: c.pes, seed: c.seed, dt: 1, t_rout: 1, t_split: 0, ..SimConfig::default() }
        }
        Driver::Threads(_) | Driver::Mpi(_) => {
            anyhow::bail!("explore runs a simulated machine: the spec's driver is not `sim` or `atomic`")
        }
    };
    let cfg = ExploreConfig { sim, limits: limits(a) };
    cfg.validate().map_err(anyhow::Error::msg)?;
    Ok((spec, cfg))
}

/// The machine the flags name: 001's (every latency and order) or 004's.
fn driver(a: &ExploreArgs) -> anyhow::Result<Driver> {
    let sim = SimConfig {
        pes: a.pes,
        seed: a.run.seed,
        dt: a.run.dt,
        t_rout: a.t_rout,
        t_split: a.t_split,
        latency: a.latency.as_deref().map(parse_latency).transpose().map_err(anyhow::Error::msg)?,
        topology: a.topology,
        horizon: a.detect_horizon,
        ..SimConfig::default()
    };
    let machine = machine(a);
    if machine != MachineKind::Async && a.topology != Topology::Crossbar {
        anyhow::bail!("--topology is a network of 001's machine (--machine async); 004's machines have none");
    }
    Ok(match machine {
        MachineKind::Async if a.arbiter.is_some() => {
            anyhow::bail!("--arbiter is the atomic machine's (004 §2): add --machine atomic, or leave it out")
        }
        MachineKind::Async => Driver::Sim(sim),
        MachineKind::Phased => {
            anyhow::bail!("explore runs 001's machine (async) or 004's (atomic, complete); the phased machine (000 §3) is `lbcheck simulate`'s")
        }
        MachineKind::Atomic | MachineKind::Complete => Driver::Atomic(AtomicConfig {
            pes: a.pes,
            seed: a.run.seed,
            complete: machine == MachineKind::Complete,
            arbiter: a.arbiter.unwrap_or(Arbiter::Adversary),
            ..AtomicConfig::default()
        }),
    })
}

/// Explores, writing a counterexample (if any) to `trace`.
fn explored(spec: &RunSpec, a: &ExploreArgs, trace: &str) -> anyhow::Result<ExploreResult> {
    let (mut buf, limits) = (Vec::new(), limits(a));
    let result = spec.explore(limits, a.seeds, &|seed| replay(spec, a, seed, 1), Some(&mut buf))?;
    if result.found.violation.is_some() {
        std::fs::write(trace, buf).with_context(|| format!("cannot write the counterexample to {trace}"))?;
    }
    Ok(result)
}

/// --machine, else the balancer's.
fn machine(a: &ExploreArgs) -> MachineKind {
    a.machine.unwrap_or(if a.run.balancer.atomic() { MachineKind::Atomic } else { MachineKind::Async })
}

fn limits(a: &ExploreArgs) -> Limits {
    Limits { max_states: a.max_states, max_depth: a.max_depth, time: Duration::from_secs(a.max_seconds) }
}

/// The command that explores `seeds` seeds from `seed` again (the search
/// is deterministic: the same counterexample): the spec's flags with the
/// search's bounds.
fn replay(spec: &RunSpec, a: &ExploreArgs, seed: u64, seeds: u64) -> String {
    let mut from = spec.clone();
    from.driver.set_seed(seed);
    format!(
        "lbcheck explore{} --seeds {seeds} --max-states {} --max-depth {} --max-seconds {}",
        from.flags(),
        a.max_states,
        a.max_depth,
        a.max_seconds
    )
}

fn json(spec: &RunSpec, cfg: &ExploreConfig, r: &ExploreResult, trace: &str, replay: &str) -> Value {
    let f = &r.found;
    let counterexample =
        r.check.as_ref().map(|c| json!({ "trace": trace, "steps": f.path.len(), "properties": c.properties }));
    json!({
        "workload": spec.workload.to_string(), "balancer": spec.balancer.to_string(),
        "termination": spec.detector.to_string(), "mutant": spec.mutant().map(|m| m.to_string()),
        "machine": machine_name(spec), "pes": cfg.sim.pes, "horizon": cfg.horizon(), "t_seq": r.reference.t_seq, "seeds": r.seeds, "seed": r.seed,
        "states": f.states, "transitions": f.transitions, "finished_runs": f.ends, "depth": f.depth,
        "complete": f.complete, "stopped": f.stopped, "seconds": f.wall.as_secs_f64(),
        "violation": f.violation, "counterexample": counterexample, "replay": replay,
    })
}

/// The machine explored: `async`, `atomic` or `complete`.
fn machine_name(spec: &RunSpec) -> &'static str {
    match spec.driver {
        Driver::Atomic(c) if c.complete => "complete",
        Driver::Atomic(_) => "atomic",
        _ => "async",
    }
}

fn human(out: &Value) -> String {
    let mut s = String::new();
    let (states, transitions, ends, depth) =
        (&out["states"], &out["transitions"], &out["finished_runs"], &out["depth"]);
    let seconds = out["seconds"].as_f64().unwrap_or(0.0);
    let unit = if out["machine"] == "async" { "states" } else { "choice sequences" };
    let _ = writeln!(
        s,
        "explored {} on {} PEs ({} + {}{}), {} seeds: {states} {unit}, {transitions} transitions, {ends} finished runs, depth {depth}, {seconds:.2} s",
        out["workload"].as_str().unwrap_or_default(),
        out["pes"],
        out["balancer"].as_str().unwrap_or_default(),
        out["termination"].as_str().unwrap_or_default(),
        out["mutant"].as_str().map(|m| format!(", mutant {m}")).unwrap_or_default(),
        out["seeds"],
    );
    match (&out["violation"], out["complete"].as_bool()) {
        (Value::Object(v), _) => {
            let _ = writeln!(
                s,
                "violation: {} — {}",
                v["property"].as_str().unwrap_or_default(),
                v["detail"].as_str().unwrap_or_default()
            );
            let c = &out["counterexample"];
            let (steps, trace) = (&c["steps"], c["trace"].as_str().unwrap_or_default());
            let _ = writeln!(s, "counterexample: seed {}, {steps} steps, written to {trace}", out["seed"]);
            if let Some(props) = c["properties"].as_object() {
                for (name, v) in props.iter().filter(|(_, v)| v["pass"] == false) {
                    let _ = writeln!(s, "  check-trace FAILS {name}: {}", v["detail"].as_str().unwrap_or_default());
                }
            }
        }
        (_, Some(true)) => s += "complete: every reachable state of every seed visited, every property holds\n",
        _ => {
            let why = out["stopped"].as_str().unwrap_or_default();
            let _ = writeln!(s, "INCOMPLETE ({why}): no violation among the states visited");
        }
    }
    s
}
