//! `lbcheck mutants`: the catalogue of deliberately broken variants (the
//! `mutants` part of `lbcheck list`).

use std::process::ExitCode;

use clap::Args;
use lbcheck::report;
use lbcheck::report::listing::listing;

#[derive(Args, Debug)]
pub struct MutantsArgs {
    /// Print JSON instead of a table.
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// Print the Markdown table of docs/mutants.md.
    #[arg(long)]
    markdown: bool,
}

pub fn run(a: MutantsArgs) -> anyhow::Result<ExitCode> {
    let mutants = listing().mutants;
    if a.markdown {
        report::emit(&report::listing::mutants_markdown(&mutants))?;
        return Ok(ExitCode::SUCCESS);
    }
    report::print(&serde_json::to_value(&mutants)?, a.json, |_| report::listing::mutants_table(&mutants))?;
    Ok(ExitCode::SUCCESS)
}
