//! `lbcheck mutants`: the catalogue of deliberately broken variants.

use std::process::ExitCode;

use clap::Args;
use lbcheck::mutants::CATALOGUE;
use serde_json::json;

#[derive(Args, Debug)]
pub struct MutantsArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(a: MutantsArgs) -> anyhow::Result<ExitCode> {
    if a.json {
        let list: Vec<_> = CATALOGUE
            .iter()
            .map(|e| json!({"name": e.name, "fails": e.fails, "detector": e.detector, "what": e.what}))
            .collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
    } else {
        let width = CATALOGUE.iter().map(|e| e.name.len()).max().unwrap_or(0);
        for e in CATALOGUE {
            println!("{:<width$}  fails {:<22} ({} detector) {}", e.name, e.fails, e.detector, e.what);
        }
    }
    Ok(ExitCode::SUCCESS)
}
