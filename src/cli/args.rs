//! The arguments every checked run takes (`simulate`, `run`, `mpi` and
//! `explore` flatten them), resolved once into a validated [`RunSpec`]:
//! each protocol's parameters are its own flags ([`ProtocolArgs`]), and
//! `--spec FILE` gives a whole run as the JSON `--print-spec` writes.

use anyhow::Context;
use clap::Args;
use lbcheck::base::{Registered, UnknownName};
use lbcheck::harness::{Driver, RunSpec};
use lbcheck::mutants::{Catcher, Mutant, Site};
use lbcheck::problem::dfs::Strategy;
use lbcheck::protocol::initial::InitialSplit;
use lbcheck::protocol::{BalancerKind, BalancerSpec, BoundMode, DetectorKind, ProtocolArgs};

/// The flags given on the command line (not defaulted, not from the
/// environment), by clap id: a subcommand refuses those its run does not use.
#[derive(Clone, Debug, Default)]
pub struct Given(std::collections::BTreeSet<String>);

impl Given {
    /// The flags `m` got from the command line.
    pub fn of(m: &clap::ArgMatches) -> Given {
        let given = |id: &&clap::Id| m.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine);
        Given(m.ids().filter(given).map(|id| id.to_string()).collect())
    }

    /// True if the flag with clap id `id` was given.
    pub fn has(&self, id: &str) -> bool {
        self.0.contains(id)
    }
}

/// Parses a registry name (the error lists the valid names).
pub fn kind<K: Registered>(s: &str) -> Result<K, UnknownName> {
    K::lookup(s)
}

/// The flags of [`RunArgs`] that describe the run (which `--spec FILE` gives instead).
const RUN_FLAGS: [&str; 17] = [
    "balancer",
    "termination",
    "workload",
    "split",
    "seed",
    "dt",
    "bound",
    "initial_split",
    "mutant",
    "queue_limit",
    "serve",
    "slots",
    "deactivate",
    "victim",
    "permutation",
    "sync",
    "trigger",
];

/// Arguments of one checked run, whatever the driver.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Load balancer (`lbcheck list` shows every one, shipping or planned).
    #[arg(long, default_value_t = BalancerKind::RandomPolling, value_parser = kind::<BalancerKind>)]
    pub balancer: BalancerKind,
    /// Termination detector: energy, energy-tree, four-counter, safra (default:
    /// the command's, or with --mutant the first detector the mutant acts in).
    #[arg(long, value_parser = kind::<DetectorKind>)]
    pub termination: Option<DetectorKind>,
    /// The workload (see the forms below).
    #[arg(long, required_unless_present_any = ["spec"])]
    pub workload: Option<String>,
    /// DFS-stack split strategy: bottom-one, bottom-half, all-half, cutoff:<depth>.
    #[arg(long)]
    pub split: String,
    /// Seed of every random stream (default: $LBCHECK_SEED, else 0).
    #[arg(long, env = "LBCHECK_SEED", default_value_t = 0)]
    pub seed: u64,
    /// Δt: work units between polls, 1..=10^9.
    #[arg(long)]
    pub dt: u64,
    /// Every protocol's own parameters (refused for another protocol).
    #[command(flatten)]
    pub protocol: ProtocolArgs,
    /// Branch-and-bound workloads: how improved bounds travel (S-12):
    /// reduce-tree (002 §4.5, default), broadcast (003 §14.7.1) or none;
    /// first-solution (002 §4.5): the first solution found stops every PE.
    #[arg(long, value_parser = ["reduce-tree", "broadcast", "none", "first-solution"])]
    pub bound: Option<String>,
    /// Start with the root split locally on every PE: `bfs` (the default of
    /// the bare flag) into one part per PE breadth-first (002 §3), or
    /// `random:K` (1 ≤ K ≤ 64) into K·P pieces by a random split sequence
    /// of the seed, PE r keeping pieces r, r + P, … (000 §1.2).
    #[arg(long, value_name = "bfs|random:K", num_args = 0..=1, default_missing_value = "bfs",
          value_parser = |s: &str| s.parse::<InitialSplit>())]
    pub initial_split: Option<InitialSplit>,
    /// Run a deliberately broken variant (`lbcheck mutants`); a mutant that
    /// has no effect in this run is refused.
    #[arg(long, value_parser = kind::<Mutant>)]
    pub mutant: Option<Mutant>,
    /// The whole run as JSON (what --print-spec writes; `-` for standard
    /// input) instead of the flags that describe a run.
    #[arg(long, value_name = "FILE.json", conflicts_with_all = RUN_FLAGS)]
    pub spec: Option<String>,
    /// Print the run's specification as JSON and exit without running it
    /// (give it back with --spec FILE).
    #[arg(long)]
    pub print_spec: bool,
    /// Write the event stream as JSON Lines to FILE (`lbcheck check-trace FILE` checks it).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Sets a command's defaults of `--termination`, `--split` and `--dt`
/// (they differ between `simulate` and `run`): use as
/// `#[command(mut_arg(...))]` on the command's arguments.
pub fn default(value: &'static str) -> impl FnOnce(clap::Arg) -> clap::Arg {
    move |a| a.default_value(value).required(false)
}

impl RunArgs {
    /// The run these arguments describe on `driver` (`detector` when
    /// neither --termination nor the mutant names one), validated; or the
    /// run of `--spec FILE`, which must be on a driver of `kind`.
    pub fn spec(&self, driver: Driver, detector: DetectorKind) -> anyhow::Result<RunSpec> {
        if let Some(path) = &self.spec {
            return read_spec(path, driver);
        }
        let workload = self.workload.as_deref().unwrap_or_default();
        let spec = RunSpec {
            balancer: BalancerSpec::with(self.balancer, self.protocol)?,
            detector: self.detector(detector),
            workload: workload.parse()?,
            split: self.split.parse::<Strategy>().context("--split")?,
            driver,
            bound: self.bound.as_deref().map(str::parse::<BoundMode>).transpose().map_err(anyhow::Error::msg)?,
            mutant: self.mutant,
        };
        spec.validate()?;
        Ok(spec)
    }

    /// --termination, else the first detector the mutant acts in, else `default`.
    fn detector(&self, default: DetectorKind) -> DetectorKind {
        let of_mutant = match self.mutant.map(|m| m.entry().site) {
            Some(Site::Detectors(ds)) => ds.first().copied(),
            _ => None,
        };
        let default = if self.balancer.phased() { DetectorKind::Barrier } else { default };
        self.termination.or(of_mutant).unwrap_or(default)
    }

    /// Tells on stderr when `catcher` cannot catch the run's mutant.
    pub fn note_uncaught(&self, spec: &RunSpec, catcher: Catcher) {
        if let Some(note) = spec.mutant.and_then(|m| m.uncaught_by(catcher)) {
            eprintln!("{note}");
        }
    }
}

/// The run of a `--spec` file (`-`: standard input), validated; its driver
/// must be the command's (the kind of `driver`).
fn read_spec(path: &str, driver: Driver) -> anyhow::Result<RunSpec> {
    let text = match path {
        "-" => std::io::read_to_string(std::io::stdin()).context("reading the spec from standard input")?,
        _ => std::fs::read_to_string(path).with_context(|| format!("cannot read --spec {path}"))?,
    };
    let spec: RunSpec =
        serde_json::from_str(&text).with_context(|| format!("--spec {path} is not a run specification"))?;
    let same = std::mem::discriminant(&spec.driver) == std::mem::discriminant(&driver)
        || matches!((spec.driver, driver), (Driver::Atomic(_), Driver::Sim(_)) | (Driver::Sim(_), Driver::Atomic(_)));
    if !same {
        let command = spec.replay();
        anyhow::bail!(
            "--spec {path} is a run of another driver: run it with `{}`",
            command.split(" --").next().unwrap_or(&command)
        );
    }
    spec.validate().with_context(|| format!("--spec {path}"))?;
    Ok(spec)
}
