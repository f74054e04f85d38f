//! `lbcheck timeline TRACE`: a run's trace as an SVG Gantt chart (one lane
//! per PE; bands above 64 PEs) and as Chrome trace-event JSON for Perfetto
//! and chrome://tracing (lbcheck::report::{gantt, perfetto}).

use std::fs::File;
use std::io::{BufReader, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use lbcheck::event::read_trace;
use lbcheck::report::timeline::Timeline;
use lbcheck::report::{gantt, perfetto};

#[derive(Args, Debug)]
#[command(
    after_help = "Perfetto: open ui.perfetto.dev and drop the --perfetto file on it (or chrome://tracing, Load). \
    The mapping of events to trace events is in docs/guide.md, \"A run's timeline\"."
)]
pub struct TimelineArgs {
    /// A trace in lbcheck's JSON Lines format (docs/trace-format.md), or `-` for standard input.
    trace: String,
    /// Where to write the SVG Gantt chart (`-`: standard output). Default: the
    /// trace's path with `.svg` for its extension, unless only --perfetto is given.
    #[arg(long, value_name = "FILE.svg")]
    out: Option<String>,
    /// Write the Chrome trace-event JSON (Perfetto, chrome://tracing) to FILE.
    #[arg(long, value_name = "FILE.json")]
    perfetto: Option<String>,
}

pub fn run(a: TimelineArgs) -> anyhow::Result<ExitCode> {
    let timeline = read(&a.trace)?;
    let svg_path = a.out.clone().or_else(|| a.perfetto.is_none().then(|| default_svg(&a.trace)));
    let mut wrote = Vec::new();
    if let Some(path) = &svg_path {
        write(path, gantt::svg(&timeline).as_bytes())?;
        wrote.push(format!("{path} (SVG)"));
    }
    if let Some(path) = &a.perfetto {
        let json = serde_json::to_string(&perfetto::document(&timeline))?;
        write(path, json.as_bytes())?;
        wrote.push(format!("{path} (Perfetto JSON)"));
    }
    let summary = summary(&timeline, &wrote);
    match [svg_path.as_deref(), a.perfetto.as_deref()].contains(&Some("-")) {
        true => eprintln!("{summary}"),
        false => println!("{summary}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// The trace at `path` (`-`: standard input) as a timeline.
fn read(path: &str) -> anyhow::Result<Timeline> {
    let events = match path {
        "-" => read_trace(std::io::stdin().lock()),
        _ => read_trace(BufReader::new(File::open(path).with_context(|| format!("cannot open {path}"))?)),
    };
    let name = if path == "-" { "standard input" } else { path };
    let events = events.with_context(|| format!("{name} is not a valid trace"))?;
    Timeline::of(&events).with_context(|| format!("{name} cannot be drawn"))
}

/// `t.jsonl` → `t.svg`; standard input → standard output.
fn default_svg(trace: &str) -> String {
    match trace {
        "-" => "-".into(),
        _ => Path::new(trace).with_extension("svg").to_string_lossy().into_owned(),
    }
}

fn write(path: &str, bytes: &[u8]) -> anyhow::Result<()> {
    match path {
        "-" => std::io::stdout().lock().write_all(bytes).context("writing to standard output"),
        _ => std::fs::write(path, bytes).with_context(|| format!("cannot write {path}")),
    }
}

fn summary(t: &Timeline, wrote: &[String]) -> String {
    let busy: usize = t.lanes.iter().map(|l| l.busy.len()).sum();
    let announced = t.announced().map_or("never announced".to_string(), |at| format!("announced at t={at}"));
    format!(
        "{}: {} PEs, {busy} busy spans, {} work messages, {announced}, end t={} ({})\nwrote {}",
        t.title(),
        t.lanes.len(),
        t.work_messages().count(),
        t.end,
        t.header.clock,
        wrote.join(", ")
    )
}
