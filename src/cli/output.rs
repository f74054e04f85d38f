//! Running a checked run with its trace file.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

use anyhow::Context;
use lbcheck::harness::{RunResult, RunSpec};

/// Runs `spec` checked, writing the trace to `path` if given.
pub fn checked_run(spec: &RunSpec, path: Option<&str>) -> anyhow::Result<RunResult> {
    let Some(path) = path else { return Ok(spec.run(None)?) };
    let file = File::create(path).with_context(|| format!("cannot create {path}"))?;
    let mut w = BufWriter::new(file);
    spec.run(Some(&mut w as &mut dyn Write)).with_context(|| format!("writing the trace to {path}"))
}

/// `--print-spec`: the run's specification as JSON on standard output.
pub fn print_spec(spec: &RunSpec) -> anyhow::Result<ExitCode> {
    lbcheck::report::emit(&(serde_json::to_string_pretty(spec)? + "\n"))?;
    Ok(ExitCode::SUCCESS)
}
