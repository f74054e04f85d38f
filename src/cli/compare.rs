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
use lbcheck::event::TraceHeader;
use lbcheck::harness::replay::words;
use lbcheck::harness::RunSpec;
use lbcheck::report;
use serde_json::json;

use super::batch;

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
    /// Compare even if --against differs from the traces' headers (the
    /// differences are printed).
    #[arg(long, requires = "against")]
    force: bool,
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
    let traces = batch::read(&a.traces)?;
    let user: Vec<Metrics> = traces.iter().map(|t| t.metrics.clone()).collect();
    let base = against(&a, &traces[0].header)?;
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

/// The reference configuration: `--against` (which must be the traces'
/// configuration, unless --force), else the first trace's header.
fn against(a: &CompareArgs, first: &TraceHeader) -> anyhow::Result<RunSpec> {
    let traces = batch::spec_of(first)?;
    let Some(flags) = &a.against else {
        let path = &a.traces[0];
        return traces.with_context(|| format!("{path} has no `spec`: give the reference with --against"));
    };
    let spec = super::simulate::spec_of_words(&words(flags)).context("--against")?;
    let differ = match &traces {
        Some(t) => batch::spec_differences(t, &spec),
        None => header_differences(first, &spec.header()),
    };
    match (differ.is_empty(), a.force) {
        (true, _) => {}
        (false, false) => {
            bail!("--against differs from the traces' headers ({}): --force compares anyway", differ.join("; "))
        }
        (false, true) => eprintln!("note: --against differs from the traces' headers ({})", differ.join("; ")),
    }
    Ok(spec)
}

/// How a foreign trace's header differs from a run's, in the fields both have.
fn header_differences(h: &TraceHeader, run: &TraceHeader) -> Vec<String> {
    let fields = [
        ("pes", h.pes.to_string(), run.pes.to_string()),
        ("workload", h.workload.clone(), run.workload.clone()),
        ("split", h.split.clone(), run.split.clone()),
        ("balancer", h.balancer.clone(), run.balancer.clone()),
        ("detector", h.detector.clone(), run.detector.clone()),
    ];
    fields.into_iter().filter(|(_, x, y)| x != y).map(|(k, x, y)| format!("{k}: {x} vs {y}")).collect()
}

/// Reference run `i`, on its own derived seed.
fn reference_run(base: &RunSpec, seed: u64, i: u32) -> anyhow::Result<Metrics> {
    let mut spec = base.clone();
    let s = derive_seed(seed, "compare", i);
    spec.driver.set_seed(s);
    Ok(spec.run(None)?.check.metrics)
}
