//! `lbcheck check-trace FILE`: the invariant checker over a saved event
//! stream, from lbcheck or from any other implementation.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use lbcheck::check::{explain, PROPERTIES};
use lbcheck::event::{TraceHeader, TraceReader, MAX_LINE_BYTES};
use lbcheck::harness::{check_trace, RunSpec, TraceCheck, TraceCheckError};
use lbcheck::report::{self, verdicts};
use serde_json::json;

/// The default of `--max-reference-units`: about 2 s of the slowest
/// workload's sequential run.
pub const MAX_REFERENCE_UNITS: u64 = 20_000_000;

#[derive(Args, Debug)]
pub struct CheckTraceArgs {
    /// A trace in lbcheck's JSON Lines format, or `-` for standard input: docs/trace-format.md in the crate (`--schema` prints its JSON Schema, `--explain` each property).
    #[arg(required_unless_present_any = ["explain", "schema"])]
    file: Option<String>,
    /// Print the JSON Schema of a trace line (docs/trace.schema.json), and
    /// exit (alone: no trace, no other flag).
    #[arg(long, exclusive = true)]
    schema: bool,
    /// Print what property PROPERTY checks, and exit (alone).
    #[arg(long, exclusive = true, value_name = "PROPERTY", value_parser = clap::builder::PossibleValuesParser::new(PROPERTIES))]
    explain: Option<String>,
    /// The expected fingerprint of all the work (UNITS-HEX48, as `lbcheck
    /// tree` prints it): the reference instead of the header's workload
    /// (needed for a `custom` workload without a `fingerprint` in its header).
    #[arg(long, value_name = "FINGERPRINT")]
    expect_fingerprint: Option<String>,
    /// The most work units of the header's workload's sequential run to
    /// compute as the reference, or 1000 per line of the trace if more (a
    /// longer run than the trace's own work already shows work was lost,
    /// unless the workload prunes).
    #[arg(long, value_name = "UNITS", default_value_t = MAX_REFERENCE_UNITS)]
    max_reference_units: u64,
    /// The longest line read, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = MAX_LINE_BYTES)]
    max_line_bytes: usize,
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
    let input: Box<dyn BufRead> = match path {
        "-" => Box::new(std::io::stdin().lock()),
        _ => Box::new(BufReader::new(File::open(path).with_context(|| format!("cannot open {path}"))?)),
    };
    let name = if path == "-" { "standard input" } else { path };
    let checked = checked(input, &a).map_err(|e| with_name(e, name))?;
    let (report, replay) = (&checked.report, replay_of(checked.header.as_ref()));
    let out = json!({
        "trace": path, "events": checked.lines, "properties": report.properties, "metrics": report.metrics,
        "t_par": report.metrics.t_par, "t_seq": report.metrics.t_seq, "replay": replay,
    });
    report::print(&out, a.json, report::run::human)?;
    Ok(verdicts::exit_code(report, replay.as_deref()))
}

/// The trace `input` holds, checked as the arguments say.
fn checked(input: impl BufRead, a: &CheckTraceArgs) -> Result<TraceCheck, TraceCheckError> {
    let reader = TraceReader::new(input).max_line_bytes(a.max_line_bytes);
    check_trace(reader, a.expect_fingerprint.as_deref(), a.max_reference_units)
}

/// A trace's error, naming the trace.
fn with_name(e: TraceCheckError, name: &str) -> anyhow::Error {
    match e {
        TraceCheckError::Read(e) => anyhow::Error::new(e).context(format!("{name} is not a valid trace")),
        e => anyhow::Error::new(e).context(name.to_string()),
    }
}

/// The command that replays the run of an lbcheck trace (`None` for other
/// traces, and, with a note, for a `run` record that does not describe a run).
fn replay_of(header: Option<&TraceHeader>) -> Option<String> {
    let h = header?;
    if let Some(replay) = h.replay.clone().or_else(|| h.run.as_ref().and_then(|r| r.replay.clone())) {
        return Some(replay);
    }
    match RunSpec::from_header(h) {
        Ok(spec) => spec.map(|s| s.replay()),
        Err(why) => {
            eprintln!("note: no replay command: line 1: {}", lbcheck::base::text::clip(&why.to_string(), 2000));
            None
        }
    }
}
