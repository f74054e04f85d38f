//! `lbcheck list`: everything in the registry — balancers, detectors,
//! machine models, drivers, workload families, mutants — with the paper
//! section each implements and whether it ships.

use std::process::ExitCode;

use clap::Args;
use lbcheck::report;
use lbcheck::report::listing::listing;

#[derive(Args, Debug)]
pub struct ListArgs {
    /// Print one JSON object (keys balancers, detectors, machines, drivers, workloads, mutants).
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// Print the Markdown tables of the README's status section (every family but the mutants: `lbcheck mutants --markdown`).
    #[arg(long)]
    markdown: bool,
}

pub fn run(a: ListArgs) -> anyhow::Result<ExitCode> {
    let l = listing();
    match (a.json, a.markdown) {
        (_, true) => report::emit(&report::listing::markdown(&l))?,
        (json, false) => report::print(&serde_json::to_value(&l)?, json, |_| report::listing::table(&l))?,
    }
    Ok(ExitCode::SUCCESS)
}
