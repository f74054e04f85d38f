//! `lbcheck check-trace FILE`: the invariant checker over a saved event
//! stream, from lbcheck or from any other implementation.

use std::fs::File;
use std::io::BufReader;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use lbcheck::check::{check_events, Reference};
use lbcheck::event::{read_trace, Event, TraceHeader};
use lbcheck::harness::{reference, RunSpec};
use lbcheck::report::{self, verdicts};
use serde_json::json;

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
    let report = check_events(&events, reference_of).map_err(anyhow::Error::msg)?;
    let replay = replay_of(events.first().map(|(_, e)| e))?;
    let out = json!({
        "trace": a.file, "events": events.len(), "properties": report.properties, "metrics": report.metrics,
        "t_par": report.metrics.t_par, "t_seq": report.metrics.t_seq, "replay": replay,
    });
    report::print(&out, a.json, report::run::human);
    Ok(verdicts::exit_code(&report, replay.as_deref()))
}

/// The sequential reference of the trace's workload.
pub fn reference_of(h: &TraceHeader) -> Result<Reference, String> {
    let w = h.workload.parse().map_err(|e| format!("header workload: {e}"))?;
    let split = h.split.parse().map_err(|e| format!("header split: {e}"))?;
    Ok(reference(&w, split))
}

/// The command that replays the run of an lbcheck trace (`None` for other traces).
fn replay_of(first: Option<&Event>) -> anyhow::Result<Option<String>> {
    let Some(Event::Header(h)) = first else { return Ok(None) };
    let spec = RunSpec::from_header(h).map_err(anyhow::Error::msg).context("line 1")?;
    Ok(spec.map(|s| s.replay()))
}
