//! `lbcheck tree WORKLOAD`: the sequential reference run of one workload.

use std::process::ExitCode;

use clap::Args;
use lbcheck::problem::bnb::puzzle15;
use lbcheck::problem::dfs::Strategy;
use lbcheck::problem::{sequential, spec, Workload};
use lbcheck::report;
use serde_json::json;

/// Pieces beyond which `max_split_gen` is not computed (reported as skipped).
const MAX_PIECES: u64 = 1 << 24;

#[derive(Args, Debug)]
#[command(after_help = format!("WORKLOAD forms:\n{}", spec::FORMS))]
pub struct TreeArgs {
    /// The workload to run (see the forms below).
    workload: String,
    /// DFS-stack split strategy: bottom-one, bottom-half, all-half, cutoff:<depth>.
    #[arg(long, default_value = "bottom-half")]
    split: String,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(a: TreeArgs) -> anyhow::Result<ExitCode> {
    let workload: Workload = a.workload.parse()?;
    let strategy: Strategy = a.split.parse()?;
    report::print(&stats(&workload, strategy), a.json, human)?;
    Ok(ExitCode::SUCCESS)
}

/// The exact statistics of the sequential run (tree shape for UTS and cost
/// trees; T_atomic, h and the deepest split generation for synthetic
/// workloads; the optimum and the critical subtree of a cost tree; the
/// optimum of a branch-and-bound application, in its own terms, and the
/// nodes its depth-first branch-and-bound examines as `work`; an IDA*
/// workload's cost limit and nodes per iteration, the last up to its first
/// solution).
fn stats(workload: &Workload, strategy: Strategy) -> serde_json::Value {
    let run = sequential::run(workload.root(strategy));
    let is_tree = matches!(workload, Workload::Uts { .. } | Workload::CostTree(_));
    let critical = workload.critical();
    let atomic_h = workload.atomic_and_h();
    let max_split_gen = match workload {
        Workload::Synthetic(_) => sequential::max_split_generation(workload.root(strategy), MAX_PIECES),
        _ => None,
    };
    let tree_stat = |v: u64| is_tree.then_some(v);
    let ida = match workload {
        Workload::Puzzle15(c) => Some(puzzle15::iterations(&c.board())),
        _ => None,
    };
    json!({
        "workload": workload.to_string(),
        "split": strategy.to_string(),
        "nodes": tree_stat(run.log.fp.units),
        "depth": tree_stat(run.log.max_depth as u64),
        "leaves": tree_stat(run.log.leaves),
        "work": run.work,
        "fingerprint": run.log.fp.to_string(),
        "t_atomic": atomic_h.map(|(a, _)| a),
        "h": atomic_h.map(|(_, h)| h),
        "max_split_gen": max_split_gen,
        "optimum": critical.map(|c| c.optimum).or(workload.prunes().then(|| run.log.goal.map(|g| workload.natural(g))).flatten()),
        "objective": workload.prunes().then(|| if workload.maximises() { "max" } else { "min" }),
        "critical_n": critical.map(|c| c.n),
        "critical_h": critical.map(|c| c.h),
        "iteration_limits": ida.as_ref().map(|its| its.iter().map(|i| i.limit).collect::<Vec<_>>()),
        "iteration_nodes": ida.as_ref().map(|its| its.iter().map(|i| i.nodes).collect::<Vec<_>>()),
    })
}

fn human(out: &serde_json::Value) -> String {
    let keys = [
        "workload",
        "split",
        "nodes",
        "depth",
        "leaves",
        "work",
        "fingerprint",
        "t_atomic",
        "h",
        "max_split_gen",
        "optimum",
        "objective",
        "critical_n",
        "critical_h",
        "iteration_limits",
        "iteration_nodes",
    ];
    report::table(&report::rows(out, &keys))
}
