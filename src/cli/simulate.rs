//! `lbcheck simulate`: one run of a balancer and a detector in the simulator
//! of 001's machine, checked online; exit 1 if a property fails.

use std::process::ExitCode;

use anyhow::bail;
use clap::{ArgGroup, Args};
use lbcheck::campaign::swarm;
use lbcheck::harness::{Driver, RunSpec};
use lbcheck::mutants::Catcher;
use lbcheck::problem::spec;
use lbcheck::protocol::DetectorKind;
use lbcheck::report::{self, verdicts};
use lbcheck::sim::atomic::{Arbiter, AtomicConfig};
use lbcheck::sim::{
    parse_latency, parse_slow, MachineKind, Routing, Schedule, Shape, SimConfig, Stop, Topology, MAX_PES,
};

use super::args::{default, kind, Given, RunArgs};
use super::output;

#[derive(Args, Debug)]
#[command(after_help = format!("WORKLOAD forms:\n{}", spec::FORMS))]
#[command(mut_arg("split", default("bottom-half")))]
#[command(mut_arg("dt", default("10")))]
#[command(group(ArgGroup::new("machine_flags").multiple(true).conflicts_with("spec").args([
    "machine", "arbiter", "max_runs", "pes", "t_rout", "t_split", "o", "g", "t_poll", "latency", "latency_shape",
    "schedule", "fifo_links", "topology", "slow", "routing", "msg_len", "swarm", "max_steps", "max_time", "detect_horizon",
])))]
pub struct SimulateArgs {
    #[command(flatten)]
    run: RunArgs,
    /// The flags given on the command line (set by [`super::parse`]).
    #[arg(skip)]
    pub given: Given,
    /// Machine model: async (001 §1), atomic (004 §2), complete (004 §1,
    /// Karp-Zhang) or phased (000 §3; poll-and-shuffle runs on it whatever
    /// this says, with Δt as T_phase).
    #[arg(long, default_value_t = MachineKind::Async, value_parser = kind::<MachineKind>)]
    machine: MachineKind,
    /// Atomic machine: who wins a contended destination: fifo, lifo,
    /// fixed-priority, anti-critical, random, adversary (every choice, P <= 4:
    /// reports the worst T).
    #[arg(long, default_value_t = Arbiter::Fifo, value_parser = kind::<Arbiter>)]
    arbiter: Arbiter,
    /// Atomic machine, --arbiter adversary: cap on the choice sequences run.
    #[arg(long, default_value_t = AtomicConfig::default().max_runs)]
    max_runs: u64,
    /// Number of PEs, 1..=2^20 (each simulated PE costs about 1.4 kB).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=MAX_PES as i64))]
    pes: u32,
    /// T_rout: message latency in time units, 1..=10^9.
    #[arg(long, default_value_t = 10)]
    t_rout: u64,
    /// T_split: time a split costs the splitting PE, 0..=10^9.
    #[arg(long, default_value_t = 5)]
    t_split: u64,
    /// o: PE time each message sent or received costs (001 §1.1), 0..=10^9.
    #[arg(long, default_value_t = 0)]
    o: u64,
    /// g: the least gap between two messages a PE sends (001 §1.1), 0..=10^9.
    #[arg(long, default_value_t = 0)]
    g: u64,
    /// T_poll: PE time each poll costs (001 §3), 0..=10^9.
    #[arg(long, default_value_t = 0)]
    t_poll: u64,
    /// Random latency per message, uniform in a..b (inclusive, 1 <= a <= b <= 10^9); overrides --t-rout.
    #[arg(long, value_name = "a..b")]
    latency: Option<String>,
    /// How --latency draws: uniform, bimodal:P (a with probability 1-P, b
    /// with P; P a decimal with at most 3 decimals) or heavy (P[L > x] = a/x,
    /// truncated at b).
    #[arg(long, default_value = "uniform", requires = "latency", value_parser = |s: &str| s.parse::<Shape>())]
    latency_shape: Shape,
    /// An adversarial schedule of --latency's range: slow-control (detector
    /// messages take b, work a) or slow-work (the reverse); plain: none.
    #[arg(long, default_value = "plain", requires = "latency", value_parser = |s: &str| s.parse::<Schedule>())]
    schedule: Schedule,
    /// Keep every link FIFO: a message never overtakes an earlier one on its (from, to) link.
    #[arg(long)]
    fifo_links: bool,
    /// The network (000 §2.1, §4): crossbar, hypercube, mesh:R, fat-tree,
    /// butterfly or ccc (all but the crossbar need P a power of two); a
    /// message takes its latency once per hop.
    #[arg(long, default_value_t = Topology::Crossbar, value_parser = |s: &str| s.parse::<Topology>())]
    topology: Topology,
    /// COUNT:FACTOR: COUNT (<= P) random PEs take FACTOR (1..=10^6) time units per work unit.
    #[arg(long, value_name = "COUNT:FACTOR")]
    slow: Option<String>,
    /// 000 §6.1's links: packet (a message of length l over d hops takes
    /// T_rout·d·l) or cut-through (T_rout·(l + d)); a work message's l is
    /// its subproblem's wire bytes / --msg-len (rounded up), any other's 1.
    /// Default: none (T_rout·d whatever the length).
    #[arg(long, value_parser = |s: &str| s.parse::<Routing>())]
    routing: Option<Routing>,
    /// Under --routing, the bytes per unit of message length, 1..=2^20 (default 8).
    #[arg(long, value_name = "BYTES")]
    msg_len: Option<u64>,
    /// Swarm testing (001's machine): draw Δt, T_rout or a latency range,
    /// T_split, slow PEs and the initial split from --seed, as `lbcheck
    /// check`'s swarm does, overriding those flags (the replay command
    /// names the values drawn).
    #[arg(long, conflicts_with_all = SWARM_DRAWS)]
    swarm: bool,
    /// Cap on simulator steps, >= 1 (default: 2·10^9 on 001's and the
    /// phased machine, 10^8 on 004's).
    #[arg(long)]
    max_steps: Option<u64>,
    /// Cap on the computation's model time (001's machine): the first event
    /// past it while work is still held or in flight stops the run
    /// unfinished (T_par > the cap); a computation over by then runs on to
    /// its detection. The bound suites' test runs of a mutant stop there
    /// once their T_par can only be above the claim's limit.
    #[arg(long)]
    max_time: Option<u64>,
    /// Time the detector may take to announce after the computation is over,
    /// and half the time every PE may take to learn of it (0..=10^15; 0 =
    /// automatic: 1000·(Δt + T_split + latency + 1)·(⌈log2 P⌉ + 2)).
    #[arg(long, default_value_t = 0)]
    detect_horizon: u64,
}

/// What `--swarm` draws from the seed (so it does not take them).
const SWARM_DRAWS: [&str; 12] = [
    "dt",
    "t_rout",
    "t_split",
    "latency",
    "latency_shape",
    "schedule",
    "fifo_links",
    "slow",
    "o",
    "g",
    "t_poll",
    "initial_split",
];

/// Who takes a machine flag.
#[derive(Clone, Copy)]
enum Takers {
    /// 001's machine only.
    Async,
    /// 001's machine and 000's phased machine.
    Simulated,
    /// 004's machines (the complete network has no contention: its
    /// arbiter is fifo, [`AtomicConfig::validate`]).
    Atomic,
}

/// The machine flags of `simulate` (clap ids; `dt` and `initial_split`
/// are [`RunArgs`]') and who takes each: a machine refuses the others.
const MACHINE_FLAGS: [(&str, Takers); 20] = [
    ("dt", Takers::Simulated),
    ("t_rout", Takers::Simulated),
    ("t_split", Takers::Simulated),
    ("topology", Takers::Simulated),
    ("detect_horizon", Takers::Simulated),
    ("initial_split", Takers::Async),
    ("o", Takers::Async),
    ("g", Takers::Async),
    ("t_poll", Takers::Async),
    ("latency", Takers::Async),
    ("latency_shape", Takers::Async),
    ("schedule", Takers::Async),
    ("fifo_links", Takers::Async),
    ("slow", Takers::Async),
    ("routing", Takers::Async),
    ("msg_len", Takers::Async),
    ("max_time", Takers::Async),
    ("swarm", Takers::Async),
    ("arbiter", Takers::Atomic),
    ("max_runs", Takers::Atomic),
];

impl Takers {
    fn take(self, machine: MachineKind) -> bool {
        match self {
            Takers::Async => machine == MachineKind::Async,
            Takers::Simulated => matches!(machine, MachineKind::Async | MachineKind::Phased),
            Takers::Atomic => matches!(machine, MachineKind::Atomic | MachineKind::Complete),
        }
    }

    fn who(self) -> &'static str {
        match self {
            Takers::Async => "001's machine (--machine async)",
            Takers::Simulated => "001's machine and 000's phased machine (--machine async, phased)",
            Takers::Atomic => "004's atomic machine (--machine atomic)",
        }
    }
}

/// The machine that runs: 000's phased one for poll-and-shuffle.
fn machine(a: &SimulateArgs) -> MachineKind {
    match a.machine {
        MachineKind::Async if a.run.balancer.phased() => MachineKind::Phased,
        m => m,
    }
}

/// Refuses a machine flag the machine does not take, and --max-runs
/// without the adversary.
fn refuse_unused(a: &SimulateArgs) -> anyhow::Result<()> {
    let machine = machine(a);
    if let Some((id, takers)) = MACHINE_FLAGS.into_iter().find(|&(id, t)| a.given.has(id) && !t.take(machine)) {
        let flag = format!("--{}", id.replace('_', "-"));
        bail!("{flag} is a parameter of {}, not of {}", takers.who(), machine_name(machine));
    }
    if a.given.has("max_runs") && a.arbiter != Arbiter::Adversary {
        bail!("--max-runs caps the runs of --arbiter adversary, not of --arbiter {}", a.arbiter);
    }
    Ok(())
}

fn machine_name(machine: MachineKind) -> &'static str {
    match machine {
        MachineKind::Async => "001's machine (--machine async)",
        MachineKind::Phased => "000's phased machine (poll-and-shuffle's)",
        MachineKind::Atomic => "004's atomic machine (--machine atomic)",
        MachineKind::Complete => "the complete network (--machine complete)",
    }
}

pub fn run(a: SimulateArgs) -> anyhow::Result<ExitCode> {
    let spec = spec(&a)?;
    if a.run.print_spec {
        return output::print_spec(&spec);
    }
    a.run.note_uncaught(&spec, Catcher::Run);
    let result = output::checked_run(&spec, a.run.trace.as_deref())?;
    if let Some(n) = a.max_steps.filter(|_| result.outcome.stop == Stop::StepCap) {
        let t = result.outcome.end_time;
        bail!("stopped at --max-steps {n} (time {t}), before the end of the run: an unfinished run has no verdict (raise --max-steps)");
    }
    if let Some(cap) = a.max_time.filter(|_| result.outcome.stop == Stop::TimeCap) {
        bail!("stopped at --max-time {cap}, before the end of the run: an unfinished run has no verdict (raise --max-time)");
    }
    report::print(&report::run::json(&spec, &(&result).into()), a.run.json, report::run::human)?;
    if result.outcome.stop == Stop::TimeOverflow {
        bail!("{}", stop_note(&spec, &result.outcome).unwrap_or_default());
    }
    if let Some(note) = stop_note(&spec, &result.outcome) {
        eprintln!("{note}");
    }
    if let Some(x) = result.atomic.as_ref().and_then(|a| a.adversary.as_ref()).filter(|x| !x.complete) {
        eprintln!(
            "note: the adversary ran {} choice sequences (--max-runs) without exhausting them: worst T = {} is a lower bound on the true worst case",
            x.runs, x.worst
        );
    }
    Ok(verdicts::exit_code(&result.check, Some(&spec.replay())))
}

/// The run `simulate` arguments describe, validated.
pub fn spec(a: &SimulateArgs) -> anyhow::Result<RunSpec> {
    refuse_unused(a)?;
    a.run.spec(driver(a)?, DetectorKind::Energy)
}

/// The machine the arguments name, with its parameters.
fn driver(a: &SimulateArgs) -> anyhow::Result<Driver> {
    let complete = match a.machine {
        MachineKind::Phased if !a.run.balancer.phased() => {
            bail!(
                "--machine phased runs poll-and-shuffle and simd-phase (000 §3, §1.1): add --balancer poll-and-shuffle"
            )
        }
        MachineKind::Async if a.run.balancer.phased() && a.given.has("machine") => {
            bail!(
                "balancer `{}` runs on 000's phased machine (--machine phased, its default), not on 001's machine",
                a.run.balancer
            )
        }
        MachineKind::Async | MachineKind::Phased => return Ok(Driver::Sim(sim_config(a)?)),
        MachineKind::Atomic => false,
        MachineKind::Complete => true,
    };
    let max_steps = a.max_steps.unwrap_or(AtomicConfig::default().max_steps);
    let (pes, seed, arbiter, max_runs) = (a.pes, a.run.seed, a.arbiter, a.max_runs);
    Ok(Driver::Atomic(AtomicConfig { pes, seed, complete, arbiter, max_steps, max_runs }))
}

/// The run `simulate WORDS` (a command line without the program name)
/// describes, e.g. for `compare --against`.
pub fn spec_of_words(words: &[String]) -> anyhow::Result<RunSpec> {
    #[derive(clap::Parser)]
    struct Simulate {
        #[command(flatten)]
        args: SimulateArgs,
    }
    let argv = std::iter::once("simulate".to_string()).chain(words.iter().cloned());
    let matches = <Simulate as clap::CommandFactory>::command().try_get_matches_from(argv)?;
    let mut parsed = <Simulate as clap::FromArgMatches>::from_arg_matches(&matches)?;
    parsed.args.given = Given::of(&matches);
    spec(&parsed.args)
}

fn stop_note(spec: &RunSpec, outcome: &lbcheck::sim::Outcome) -> Option<String> {
    match &spec.driver {
        Driver::Sim(c) => verdicts::stop_note(outcome, c.max_steps, c.detect_horizon()),
        Driver::Atomic(c) => verdicts::stop_note(outcome, c.max_steps, c.detect_horizon()),
        Driver::Threads(_) | Driver::Mpi(_) => None,
    }
}

fn sim_config(a: &SimulateArgs) -> anyhow::Result<SimConfig> {
    if a.swarm {
        let drawn = swarm::machine_of_seed(a.run.seed);
        let (topology, max_steps) = (a.topology, a.max_steps.unwrap_or(drawn.max_steps));
        return Ok(SimConfig {
            pes: a.pes,
            max_steps,
            max_time: a.max_time,
            horizon: a.detect_horizon,
            topology,
            ..drawn
        });
    }
    Ok(SimConfig {
        pes: a.pes,
        seed: a.run.seed,
        dt: a.run.dt,
        t_rout: a.t_rout,
        t_split: a.t_split,
        o: a.o,
        g: a.g,
        t_poll: a.t_poll,
        latency: a.latency.as_deref().map(parse_latency).transpose().map_err(anyhow::Error::msg)?,
        shape: a.latency_shape,
        schedule: a.schedule,
        fifo_links: a.fifo_links,
        topology: a.topology,
        slow: a.slow.as_deref().map(parse_slow).transpose().map_err(anyhow::Error::msg)?,
        routing: a.routing,
        msg_len: a.msg_len,
        initial_split: a.run.initial_split.unwrap_or_default(),
        max_steps: a.max_steps.unwrap_or(SimConfig::default().max_steps),
        max_time: a.max_time,
        horizon: a.detect_horizon,
    })
}
