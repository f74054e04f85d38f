//! The arguments every checked run takes (`simulate` and `run` flatten
//! them), resolved once into a validated [`RunSpec`].

use anyhow::{bail, Context};
use clap::Args;
use lbcheck::base::{Registered, UnknownName};
use lbcheck::harness::{Driver, Protocols, RunSpec};
use lbcheck::mutants::{Catcher, Mutant, Site};
use lbcheck::problem::{dfs::Strategy, Workload};
use lbcheck::protocol::initial::InitialSplit;
use lbcheck::protocol::pacheco::VICTIMS;
use lbcheck::protocol::random_polling::Deactivation;
use lbcheck::protocol::{BalancerKind, DetectorKind};
use lbcheck::sim::phased::permutation::Method;
use lbcheck::sim::phased::trigger::Trigger;
use lbcheck::sim::phased::SyncMode;

/// Parses a registry name (the error lists the valid names).
pub fn kind<K: Registered>(s: &str) -> Result<K, UnknownName> {
    K::lookup(s)
}

/// Arguments of one checked run, whatever the driver.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Load balancer (`lbcheck list` shows every one, shipping or planned).
    #[arg(long, default_value_t = BalancerKind::RandomPolling, value_parser = kind::<BalancerKind>)]
    pub balancer: BalancerKind,
    /// Termination detector: energy, energy-tree, four-counter (default:
    /// the command's, or with --mutant the first detector the mutant acts in).
    #[arg(long, value_parser = kind::<DetectorKind>)]
    pub termination: Option<DetectorKind>,
    /// The workload (see the forms below).
    #[arg(long)]
    pub workload: String,
    /// DFS-stack split strategy: bottom-one, bottom-half, all-half, cutoff:<depth>.
    #[arg(long)]
    pub split: String,
    /// Seed of every random stream (default: $LBCHECK_SEED, else 0).
    #[arg(long, env = "LBCHECK_SEED", default_value_t = 0)]
    pub seed: u64,
    /// Δt: work units between polls, 1..=10^9.
    #[arg(long)]
    pub dt: u64,
    /// Reject requests that find this many queued: a number, or `sqrt` for
    /// ⌈√P⌉ (001 §4, Thm 2's queue trimming).
    #[arg(long, value_parser = parse_queue_limit)]
    pub queue_limit: Option<QueueLimit>,
    /// Random polling: answer one queued request at each poll (001 Fig. 1)
    /// or all of them (003 §14.7.2's Service_requests).
    #[arg(long, default_value = "one", value_parser = ["one", "all"])]
    pub serve: String,
    /// Pacheco's search: whom an idle PE asks (003 §14.7.3's New_request):
    /// a random rank, local round robin, or global round robin via PE 0.
    #[arg(long, default_value = "random", value_parser = VICTIMS)]
    pub victim: String,
    /// Poll-and-shuffle: how a cycle's random permutation is drawn (000
    /// §3.2): exact (uniform: random destinations, local shuffles, prefix
    /// sums) or pseudo (compositions of a fixed set of random permutations).
    #[arg(long, default_value = "exact", value_parser = |s: &str| s.parse::<Method>())]
    pub permutation: Method,
    /// Poll-and-shuffle: how PEs agree on phases: global (a global clock's
    /// barriers, 000 §3.1) or local ("phase finished" messages between
    /// partners, 000 §6.3, Fig. 4).
    #[arg(long, default_value = "global", value_parser = |s: &str| s.parse::<SyncMode>())]
    pub sync: SyncMode,
    /// Poll-and-shuffle: when to permute (000 §5): cycle (after every L
    /// phases, 000 §3.1) or adaptive (when PE 0 estimates from idle PEs'
    /// notifications, each sent with probability c/n, that more than εn/2
    /// PEs are idle, at least log2 n phases after the last permutation);
    /// adaptive:c=5,alpha=2,delta=auto,eps=0.5 sets its constants (window
    /// ⌈α log2 n⌉ phases, the newest δ left out).
    #[arg(long, default_value = "cycle", value_parser = |s: &str| s.parse::<Trigger>())]
    pub trigger: Trigger,
    /// Random polling: subproblems per PE (002 §3: with 2 a PE asks for
    /// work when one slot empties and works on the other meanwhile).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub slots: u8,
    /// Branch-and-bound workloads: how improved bounds travel (S-12):
    /// reduce-tree (002 §4.5, default), broadcast (003 §14.7.1) or none;
    /// first-solution (002 §4.5): the first solution found stops every PE.
    #[arg(long, value_parser = ["reduce-tree", "broadcast", "none", "first-solution"])]
    pub bound: Option<String>,
    /// Random polling: a deactivated worker (002 §3), PE:FROM..TO in model
    /// time: it does no work and sends no requests then, but answers each
    /// request with its entire subproblem (or a reject). Simulator only.
    #[arg(long, value_parser = |s: &str| s.parse::<Deactivation>())]
    pub deactivate: Option<Deactivation>,
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
    /// Write the event stream as JSON Lines to FILE (`lbcheck check-trace FILE` checks it).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `--queue-limit`: a number of requests, or ⌈√P⌉.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueLimit {
    /// This many.
    Fixed(u32),
    /// ⌈√P⌉ (001 §4).
    Sqrt,
}

impl QueueLimit {
    /// The limit on `pes` PEs.
    pub fn of(self, pes: u32) -> u32 {
        match self {
            QueueLimit::Fixed(n) => n,
            QueueLimit::Sqrt => (1..=pes).find(|k| k * k >= pes).unwrap_or(1),
        }
    }
}

impl std::fmt::Display for QueueLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueueLimit::Fixed(n) => write!(f, "{n}"),
            QueueLimit::Sqrt => f.write_str("sqrt"),
        }
    }
}

fn parse_queue_limit(s: &str) -> Result<QueueLimit, String> {
    match s {
        "sqrt" => Ok(QueueLimit::Sqrt),
        _ => s
            .parse()
            .map(QueueLimit::Fixed)
            .map_err(|_| format!("`{s}`: expected a number of requests or `sqrt` (⌈√P⌉)")),
    }
}

/// Sets a command's defaults of `--termination`, `--split` and `--dt`
/// (they differ between `simulate` and `run`): use as
/// `#[command(mut_arg(...))]` on the command's arguments.
pub fn default(value: &'static str) -> impl FnOnce(clap::Arg) -> clap::Arg {
    move |a| a.default_value(value).required(false)
}

impl RunArgs {
    /// The run these arguments describe on `driver` (`detector` when
    /// neither --termination nor the mutant names one), validated.
    pub fn spec(&self, driver: Driver, detector: DetectorKind) -> anyhow::Result<RunSpec> {
        let workload: Workload = self.workload.parse()?;
        let split: Strategy = self.split.parse().context("--split")?;
        let protocols = Protocols {
            balancer: self.balancer,
            detector: self.detector(detector),
            queue_limit: self.queue_limit.map(|q| q.of(driver.pes())),
            serve_all: self.serve == "all",
            victim: self.victim.parse().map_err(anyhow::Error::msg)?,
            slots: self.slots,
            bound: self.bound.as_deref().unwrap_or("reduce-tree").parse().map_err(anyhow::Error::msg)?,
            deactivate: self.deactivate,
            mutant: self.mutant,
            permutation: self.permutation,
            sync: self.sync,
            trigger: self.trigger,
            ..Protocols::new(self.balancer, self.detector(detector))
        }
        .on(&driver);
        if self.bound.is_some() && !workload.prunes() {
            bail!("--bound is for branch-and-bound workloads that prune (knapsack, tsp, golomb, the last puzzle15 iteration), not `{workload}`");
        }
        let spec = RunSpec { workload, split, protocols, driver };
        if let Err(why) = spec.validate() {
            bail!(why);
        }
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

    /// Tells on stderr when `catcher` cannot catch the chosen mutant.
    pub fn note_uncaught(&self, catcher: Catcher) {
        if let Some(note) = self.mutant.and_then(|m| m.uncaught_by(catcher)) {
            eprintln!("{note}");
        }
    }
}
