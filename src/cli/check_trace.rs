//! `lbcheck check-trace FILE`: the invariant checker over a saved event
//! stream, from lbcheck or from any other implementation.

use std::fs::File;
use std::io::BufReader;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use lbcheck::check::{check_events, explain, Reference, PROPERTIES};
use lbcheck::event::{read_trace, Event, TraceHeader};
use lbcheck::harness::{reference_of_header, RunSpec};
use lbcheck::report::{self, verdicts};
use serde_json::json;

#[derive(Args, Debug)]
pub struct CheckTraceArgs {
    /// A trace in lbcheck's JSON Lines format, or `-` for standard input: docs/trace-format.md in the crate (`--schema` prints its JSON Schema, `--explain` each property).
    #[arg(required_unless_present_any = ["explain", "schema"])]
    file: Option<String>,
    /// Print the JSON Schema of a trace line (docs/trace.schema.json), and exit.
    #[arg(long)]
    schema: bool,
    /// Print what property PROPERTY checks, and exit.
    #[arg(long, value_name = "PROPERTY", value_parser = clap::builder::PossibleValuesParser::new(PROPERTIES))]
    explain: Option<String>,
    /// The expected fingerprint of all the work (UNITS-HEX48, as `lbcheck
    /// tree` prints it): the reference instead of the header's workload
    /// (needed for a `custom` workload without a `fingerprint` in its header).
    #[arg(long, value_name = "FINGERPRINT")]
    expect_fingerprint: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(a: CheckTraceArgs) -> anyhow::Result<ExitCode> {
    if let Some(name) = &a.explain {
        report::emit(&explain(name).unwrap_or_default())?;
        return Ok(ExitCode::SUCCESS);
    }
    if a.schema {
        report::emit(lbcheck::event::SCHEMA)?;
        return Ok(ExitCode::SUCCESS);
    }
    let path = a.file.as_deref().unwrap_or_default();
    let events = match path {
        "-" => read_trace(std::io::stdin().lock()),
        _ => read_trace(BufReader::new(File::open(path).with_context(|| format!("cannot open {path}"))?)),
    };
    let name = if path == "-" { "standard input" } else { path };
    let events = events.with_context(|| format!("{name} is not a valid trace"))?;
    let expected = a.expect_fingerprint.as_deref();
    let report = check_events(&events, |h| reference_of_header(h, expected)).map_err(anyhow::Error::msg)?;
    let replay = replay_of(events.first().map(|(_, e)| e));
    let out = json!({
        "trace": path, "events": events.len(), "properties": report.properties, "metrics": report.metrics,
        "t_par": report.metrics.t_par, "t_seq": report.metrics.t_seq, "replay": replay,
    });
    report::print(&out, a.json, report::run::human)?;
    Ok(verdicts::exit_code(&report, replay.as_deref()))
}

/// The reference of a trace: its header's fingerprint, or its workload's sequential run.
pub fn reference_of(h: &TraceHeader) -> Result<Reference, String> {
    reference_of_header(h, None)
}

/// The command that replays the run of an lbcheck trace (`None` for other
/// traces, and, with a note, for a `run` record that does not describe a run).
fn replay_of(first: Option<&Event>) -> Option<String> {
    let Some(Event::Header(h)) = first else { return None };
    if let Some(replay) = h.replay.clone().or_else(|| h.run.as_ref().and_then(|r| r.replay.clone())) {
        return Some(replay);
    }
    match RunSpec::from_header(h) {
        Ok(spec) => spec.map(|s| s.replay()),
        Err(why) => {
            eprintln!("note: no replay command: line 1: {why}");
            None
        }
    }
}
