//! `lbcheck compare TRACES...`: a user's batch of traces against the
//! reference on the same configuration, quantity by quantity
//! (lbcheck::bounds::compare); exit 1 if the user's runs are significantly
//! worse (slower, more messages, slower detection).

use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::Args;
use lbcheck::base::rng::derive_seed;
use lbcheck::bounds::compare::{compare, Comparison, MIN_RUNS};
use lbcheck::check::Metrics;
use lbcheck::event::{Event, TraceReader};
use lbcheck::harness::replay::words;
use lbcheck::harness::{check_trace, RunSpec, TraceCheckError};
use lbcheck::report;
use serde_json::json;

use super::check_trace::MAX_REFERENCE_UNITS;

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The user's traces of one configuration (at least 20, different seeds).
    #[arg(required = true, value_name = "TRACE")]
    traces: Vec<String>,
    /// The reference configuration as `simulate` flags, e.g.
    /// "--workload uts:default --pes 16 --termination energy" (default: the
    /// configuration in the first trace's header, without its mutant).
    #[arg(long, value_name = "SIMULATE FLAGS", allow_hyphen_values = true)]
    against: Option<String>,
    /// Family-wise false-alarm probability (Bonferroni over the quantities).
    #[arg(long, default_value_t = 0.01)]
    alpha: f64,
    /// Base seed of the reference runs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(a: CompareArgs) -> anyhow::Result<ExitCode> {
    if a.traces.len() < MIN_RUNS || !(a.alpha > 0.0 && a.alpha < 1.0) {
        bail!("need at least {MIN_RUNS} traces (got {}) and 0 < --alpha < 1 (got {})", a.traces.len(), a.alpha);
    }
    let user: Vec<Metrics> = a.traces.iter().map(|t| metrics_of(t)).collect::<anyhow::Result<_>>()?;
    let base = against(&a)?;
    let reference: Vec<Metrics> =
        (0..user.len() as u32).map(|i| reference_run(&base, a.seed, i)).collect::<anyhow::Result<_>>()?;
    let rows = compare(&user, &reference, a.alpha);
    let worse: Vec<&Comparison> = rows.iter().filter(|c| c.worse).collect();
    let verdict = match worse.is_empty() {
        true => "consistent with the reference (or better)".to_string(),
        false => {
            worse.iter().map(|c| format!("{} ({}: {})", c.verdict, c.quantity, ratio(c))).collect::<Vec<_>>().join(", ")
        }
    };
    let described = format!("{} (on {} seeds derived from --seed {})", base.replay(), reference.len(), a.seed);
    let out = json!({"traces": a.traces.len(), "reference": described, "alpha": a.alpha, "quantities": rows, "verdict": verdict});
    report::print(&out, a.json, |_| report::compare::table(&rows, &verdict, &described))?;
    Ok(if worse.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The ratio of medians in words.
fn ratio(c: &Comparison) -> String {
    match c.ratio.is_finite() {
        true => format!("{:.3}x the reference's median", c.ratio),
        false => format!("median {} against {}", c.median.0, c.median.1),
    }
}

/// The metrics of one trace (bad traces are bad input).
fn metrics_of(path: &str) -> anyhow::Result<Metrics> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {path}"))?;
    let reader = TraceReader::new(std::io::BufReader::new(file));
    let report = match check_trace(reader, None, MAX_REFERENCE_UNITS) {
        Ok(checked) => checked.report,
        Err(TraceCheckError::Read(e)) => return Err(e).with_context(|| format!("{path} is not a valid trace")),
        Err(e) => return Err(e).with_context(|| path.to_string()),
    };
    if !report.all_pass() {
        let failed: Vec<&str> = report.failures().iter().map(|(n, _)| *n).collect();
        eprintln!("note: {path} fails {} (lbcheck check-trace {path})", failed.join(", "));
    }
    Ok(report.metrics)
}

/// The reference configuration: `--against`, else the first trace's header.
fn against(a: &CompareArgs) -> anyhow::Result<RunSpec> {
    if let Some(flags) = &a.against {
        return super::simulate::spec_of_words(&words(flags)).context("--against");
    }
    let file = std::fs::File::open(&a.traces[0]).with_context(|| format!("cannot open {}", a.traces[0]))?;
    let first = TraceReader::new(std::io::BufReader::new(file)).next().transpose()?;
    let Some((_, Event::Header(h))) = first else { bail!("{}: no header", a.traces[0]) };
    let spec = RunSpec::from_header(&h)?;
    let spec = spec.with_context(|| format!("{} has no `spec`: give the reference with --against", a.traces[0]))?;
    Ok(RunSpec { mutant: None, ..spec })
}

/// Reference run `i`, on its own derived seed.
fn reference_run(base: &RunSpec, seed: u64, i: u32) -> anyhow::Result<Metrics> {
    let mut spec = base.clone();
    let s = derive_seed(seed, "compare", i);
    spec.driver.set_seed(s);
    Ok(spec.run(None)?.check.metrics)
}
