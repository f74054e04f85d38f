//! `lbcheck mutants`: the catalogue of deliberately broken variants.

use std::process::ExitCode;

use clap::Args;
use lbcheck::mutants::{Checker, CATALOGUE};
use lbcheck::runtime::mutants::THREAD_CATALOGUE;
use serde_json::{json, Value};

#[derive(Args, Debug)]
pub struct MutantsArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Every mutant: protocol mutants (caught by `simulate` or `bounds`) and
/// thread-level mutants of the threaded driver (caught by loom).
fn entries() -> Vec<Value> {
    let protocol = CATALOGUE.iter().map(|e| {
        let checker = match (e.checker(), e.loom) {
            (Checker::Invariant, false) => "simulate",
            (Checker::Invariant, true) => "simulate+loom",
            (Checker::Bounds, _) => "bounds",
        };
        json!({"name": e.name, "fails": e.fails, "checker": checker, "detector": e.detector, "what": e.what})
    });
    let threads = THREAD_CATALOGUE
        .iter()
        .map(|e| json!({"name": e.name, "fails": e.fails, "checker": "loom", "detector": "any", "what": e.what}));
    protocol.chain(threads).collect()
}

pub fn run(a: MutantsArgs) -> anyhow::Result<ExitCode> {
    let list = entries();
    if a.json {
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(ExitCode::SUCCESS);
    }
    let field = |e: &Value, k: &str| e[k].as_str().unwrap_or_default().to_string();
    let width = list.iter().map(|e| field(e, "name").len()).max().unwrap_or(0);
    for e in &list {
        let (name, fails, checker) = (field(e, "name"), field(e, "fails"), field(e, "checker"));
        println!("{name:<width$}  {checker:<13} fails {fails:<22} {}", field(e, "what"));
    }
    Ok(ExitCode::SUCCESS)
}
