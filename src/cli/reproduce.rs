//! `lbcheck reproduce EXPERIMENT`: a paper's experiment re-run under the
//! references and the checker, beside the paper's figure (`knapsack`); or
//! a paper's claims as a page (`000` … `004`, `all`; [`super::paper`]).

use std::fmt::Write;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use lbcheck::mutants::Mutant;
use lbcheck::problem::bnb::knapsack::MAX_ITEMS;
use lbcheck::report;
use lbcheck::reproduce::knapsack::{Experiment, Reproduction, PAPER};
use lbcheck::reproduce::verdict::Verdict;

#[derive(Args, Debug)]
pub struct ReproduceArgs {
    #[command(subcommand)]
    what: What,
}

#[derive(Subcommand, Debug)]
enum What {
    /// 002 §5.2 / Fig. 1: average speedup of random polling on 0-1 knapsack
    /// branch-and-bound (paper: 1410 on 1024 PEs, m = 2000, 256 instances),
    /// asserted: exit 1 if the mean speedup on 1024 PEs is farther from 1410
    /// than t_{n−1, 0.995}·s·√(1/n + 1/256) (s: the instances' spread).
    /// Default m = 900; --full is 002's m = 2000.
    Knapsack(KnapsackArgs),
    /// 000's claims (Sanders 1995: eq. (1), Lemma 1, poll-and-shuffle §3-5) as a page.
    #[command(name = "000")]
    P000(PaperArgs),
    /// 001's claims (asynchronous random polling: Fig. 1, Lemmas 1.3, 3, Thms 1-2) as a page.
    #[command(name = "001")]
    P001(PaperArgs),
    /// 002's claims (Thm 1: T_par and O(P·h) messages) as a page.
    #[command(name = "002")]
    P002(PaperArgs),
    /// 003's claims (§14.7.3 global round robin) as a page.
    #[command(name = "003")]
    P003(PaperArgs),
    /// 004's claims (atomic model: Thms 1-3, Lemmas 6-7) as a page.
    #[command(name = "004")]
    P004(PaperArgs),
    /// Every paper's page, and an index.
    All(PaperArgs),
}

use super::args::kind;
pub use super::paper::PaperArgs;

#[derive(Args, Debug)]
pub struct KnapsackArgs {
    /// Items per instance, 1..=2000 (002: 2000; the default is the largest
    /// tried whose full run fits in 10 minutes on 2 cores: 260 s at m = 900,
    /// every run checked; m = 1000 had not finished after 9 minutes).
    #[arg(long, default_value_t = 900, value_parser = clap::value_parser!(u32).range(1..=MAX_ITEMS as i64))]
    items: u32,
    /// Instances, 1..=4096 (002: 256).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=4096))]
    instances: u32,
    /// Machine sizes P, comma-separated, each 1..=65536.
    #[arg(long, value_delimiter = ',', default_value = "16,64,256,1024", value_parser = clap::value_parser!(u32).range(1..=65536))]
    pes: Vec<u32>,
    /// A quick profile: 100 items, 32 instances, P = 16, 64, 256 (CI);
    /// it sets those, so it takes none of --items, --instances, --pes.
    #[arg(long, conflicts_with_all = ["items", "instances", "pes"])]
    quick: bool,
    /// 002 §5.2's own size: m = 2000 items, 256 instances, P = 1024 (its
    /// instances reach 10^9 nodes: 32 of them took 884 s on 2 loaded cores;
    /// the whole run is hours); it takes none of --items, --instances,
    /// --pes, --quick.
    #[arg(long, conflicts_with_all = ["items", "instances", "pes", "quick"])]
    full: bool,
    /// Seed of the instances (default: $LBCHECK_SEED, else 0).
    #[arg(long, env = "LBCHECK_SEED", default_value_t = 0)]
    seed: u64,
    /// DFS-stack split strategy (002 §5.2 splits all levels at once).
    #[arg(long, default_value = "all-half")]
    split: String,
    /// Bound propagation: reduce-tree (002 §4.5), broadcast, none.
    #[arg(long, default_value = "reduce-tree", value_parser = ["reduce-tree", "broadcast", "none"])]
    bound: String,
    /// Run every instance with this mutant (`lbcheck mutants`), e.g.
    /// `poll-lazy`: the verdict should fail.
    #[arg(long, value_parser = kind::<Mutant>)]
    mutant: Option<Mutant>,
    /// Print JSON (every run, with its replay command, and `verdict`:
    /// measured, paper, tolerance, verdict) instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(a: ReproduceArgs) -> anyhow::Result<ExitCode> {
    let (papers, p): (&[&str], PaperArgs) = match a.what {
        What::Knapsack(k) => return knapsack(k),
        What::P000(p) => (&["000"], p),
        What::P001(p) => (&["001"], p),
        What::P002(p) => (&["002"], p),
        What::P003(p) => (&["003"], p),
        What::P004(p) => (&["004"], p),
        What::All(p) => (&["000", "001", "002", "003", "004"], p),
    };
    super::paper::run(papers, &p)
}

fn knapsack(k: KnapsackArgs) -> anyhow::Result<ExitCode> {
    let experiment = experiment(&k)?;
    let r = experiment.run()?;
    report::print(&serde_json::to_value(&r)?, k.json, |_| human(&r))?;
    for run in r.runs.iter().filter(|r| !r.checked) {
        eprintln!("FAILED {} on {} PEs: {}\nreplay with: {}", run.workload, run.pes, run.failed.join(", "), run.replay);
    }
    let failed = r.verdict.as_ref().filter(|v| v.verdict == "fail");
    if let Some(v) = failed {
        eprintln!("FAILED 002 §5.2: {}", verdict_line(v));
    }
    Ok(if r.all_checked && failed.is_none() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The verdict in one line: measured, paper, tolerance and how it is derived.
fn verdict_line(v: &Verdict) -> String {
    format!(
        "mean S on {} PEs = {:.1} (s = {:.1}, n = {}, m = {}) vs paper {} ± {:.1} (two-sided α = {}, t·s·√(1/n + 1/256) + margin {}): {}",
        v.pes,
        v.measured,
        v.spread,
        v.instances,
        v.items,
        v.paper,
        v.tolerance,
        v.alpha,
        v.margin,
        v.verdict.to_uppercase()
    )
}

fn experiment(k: &KnapsackArgs) -> anyhow::Result<Experiment> {
    let (p, m, n, _) = PAPER;
    let (items, instances, pes) = match (k.quick, k.full) {
        (true, _) => (100, 32, vec![16, 64, 256]),
        (_, true) => (m, n, vec![p]),
        _ => (k.items, k.instances, k.pes.clone()),
    };
    let (split, bound) = (k.split.parse()?, k.bound.parse().map_err(anyhow::Error::msg)?);
    let e = Experiment { items, instances, pes, seed: k.seed, split, bound, mutant: k.mutant };
    e.validate()?;
    Ok(e)
}

/// One row per P, then the paper's figure.
fn human(r: &Reproduction) -> String {
    let e = &r.experiment;
    let mut out = format!(
        "002 §5.2 knapsack: {} instances of m = {} items, split {}, bounds {}, random polling + energy on 001's machine\n",
        e.instances, e.items, e.split, e.bound
    );
    let _ = writeln!(
        out,
        "{:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>12}",
        "P", "mean S", "S/P", "geomean", "median", "min", "max", "S > P"
    );
    for w in &r.rows {
        let _ = writeln!(
            out,
            "{:>6} {:>9.1} {:>9.2} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>8}/{:<3}",
            w.pes,
            w.mean_speedup,
            w.mean_efficiency,
            w.geomean_speedup,
            w.median_speedup,
            w.min_speedup,
            w.max_speedup,
            w.superlinear,
            w.instances
        );
    }
    let (p, m, n, s) = PAPER;
    let _ = writeln!(
        out,
        "paper (002 Fig. 1): P = {p}, m = {m}, {n} instances: mean S = {s} (S/P = {:.2})",
        s / f64::from(p)
    );
    let _ = match &r.verdict {
        Some(v) => writeln!(out, "verdict (002 §5.2): {}", verdict_line(v)),
        None => writeln!(out, "verdict (002 §5.2): none: the paper's figure is for P = {p}; add {p} to --pes (and run ≥ 2 instances) to assert it"),
    };
    let failed = r.runs.iter().filter(|r| !r.checked).count();
    let _ = writeln!(
        out,
        "checked: {} of {} runs passed every property; {:.1} s",
        r.runs.len() - failed,
        r.runs.len(),
        r.wall_secs
    );
    out
}
