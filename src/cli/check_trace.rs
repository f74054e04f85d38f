//! `lbcheck check-trace FILE`: the invariant checker over a saved event
//! stream, from the simulator or from any other implementation.

use std::fs::File;
use std::io::BufReader;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use lbcheck::check::{check_events, Reference};
use lbcheck::event::{read_trace, TraceHeader};
use lbcheck::problem::{sequential, Workload};
use serde_json::json;

use super::verdicts;

#[derive(Args, Debug)]
pub struct CheckTraceArgs {
    /// A trace in lbcheck's JSON Lines format (see `lbcheck::event`).
    file: String,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(a: CheckTraceArgs) -> anyhow::Result<ExitCode> {
    let file = File::open(&a.file).with_context(|| format!("cannot open {}", a.file))?;
    let events = read_trace(BufReader::new(file)).with_context(|| format!("{} is not a valid trace", a.file))?;
    let report = check_events(&events, reference).map_err(anyhow::Error::msg)?;
    let out = json!({
        "trace": a.file,
        "events": events.len(),
        "properties": report.properties,
        "metrics": report.metrics,
        "t_par": report.metrics.t_par,
        "t_seq": report.metrics.t_seq,
    });
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print!("{}", verdicts::human(&out));
    }
    Ok(verdicts::exit_code(&report, ""))
}

/// The sequential reference of the trace's workload.
fn reference(h: &TraceHeader) -> Result<Reference, String> {
    let w: Workload = h.workload.parse().map_err(|e| format!("header workload: {e}"))?;
    let split = h.split.parse().map_err(|e| format!("header split: {e}"))?;
    let run = sequential::run(w.root(split));
    Ok(Reference { fp: run.log.fp, t_seq: run.work })
}
