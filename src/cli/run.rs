//! `lbcheck run`: the protocols on real threads; with `--check` (or
//! `--trace`), the recorded event stream is checked against every property
//! (exit 1 if one fails).

use std::process::ExitCode;
use std::time::Duration;

use clap::{ArgGroup, Args};
use lbcheck::harness::{Driver, RunSpec};
use lbcheck::mutants::{Catcher, Site};
use lbcheck::problem::spec;
use lbcheck::protocol::DetectorKind;
use lbcheck::report::{self, verdicts};
use lbcheck::runtime::threads::{ThreadConfig, MAX_TIMEOUT_SECS};
use lbcheck::sim::Stop;

use super::args::{default, RunArgs};
use super::output;

#[derive(Args, Debug)]
#[command(after_help = format!("WORKLOAD forms:\n{}", spec::FORMS))]
#[command(mut_arg("dt", default("64")))]
#[command(mut_arg("split", |a| default("all-half")(a).help(SPLIT_HELP)))]
#[command(group(ArgGroup::new("machine_flags").multiple(true).conflicts_with("spec").args(["threads", "timeout"])))]
pub struct ThreadsArgs {
    #[command(flatten)]
    run: RunArgs,
    /// Number of threads (one PE each), 1..=1024.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Record the event stream and check every property (slower; also times the sequential reference).
    #[arg(long)]
    check: bool,
    /// Give up after this many seconds without global termination: print
    /// the replay command and exit 1 (a hang guard for CI; 0 = no limit;
    /// 60 s applies to a mutant of the threaded driver, which may deadlock;
    /// at most 86400, a day). Whatever the timeout, a run whose computation
    /// has been over for 10 s while some PE has not learnt of termination
    /// stops and exits 1 (the stall watch: a detector that never announces).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=MAX_TIMEOUT_SECS))]
    timeout: u64,
}

const SPLIT_HELP: &str = "DFS-stack split strategy: bottom-one, bottom-half, all-half, cutoff:<depth>. \
    all-half by default here: on 2 threads it matches rayon on T1L and is 1.35x faster than bottom-half \
    on the deep BIN tree T3L (`cargo bench --bench threads`)";

pub fn run(a: ThreadsArgs) -> anyhow::Result<ExitCode> {
    let spec = spec(&a)?;
    if a.run.print_spec {
        return output::print_spec(&spec);
    }
    let Driver::Threads(threads) = spec.driver else { unreachable!("a threaded run") };
    let secs = threads.deadline.map_or(0, |d| d.as_secs());
    watchdog(secs, spec.replay());
    if !(a.check || a.run.trace.is_some()) {
        return unchecked(&a, &spec, secs);
    }
    a.run.note_uncaught(&spec, Catcher::Run);
    let result = output::checked_run(&spec, a.run.trace.as_deref())?;
    report::print(&report::run::json(&spec, &(&result).into()), a.run.json, report::run::human)?;
    match result.outcome.stop {
        Stop::Deadline => eprintln!("no global termination within {secs} s (deadlock or livelock?)"),
        Stop::Stalled => eprintln!("{}", verdicts::stalled()),
        _ => {}
    }
    Ok(verdicts::exit_code(&result.check, Some(&spec.replay())))
}

/// A run without recording: the figures, and exit 1 if the deadline passed.
fn unchecked(a: &ThreadsArgs, spec: &RunSpec, secs: u64) -> anyhow::Result<ExitCode> {
    if let Some(m) = spec.mutant() {
        eprintln!("note: without --check nothing checks this run of mutant `{m}`");
    }
    let run = spec.run_unchecked().expect("a threaded run");
    report::print(&report::run::json(spec, &(&run).into()), a.run.json, report::run::human)?;
    match (run.timed_out, run.stalled) {
        (false, false) => return Ok(ExitCode::SUCCESS),
        (true, _) => {
            eprintln!("FAILED termination_detected: no global termination within {secs} s (deadlock or livelock?)")
        }
        (_, true) => eprintln!("FAILED termination_detected: {}", verdicts::stalled()),
    }
    eprintln!("replay with: {}", spec.replay());
    Ok(ExitCode::from(1))
}

/// The run the arguments describe, validated.
fn spec(a: &ThreadsArgs) -> anyhow::Result<RunSpec> {
    let secs = timeout(a);
    let (seed, dt, initial_split) = (a.run.seed, a.run.dt, a.run.initial_split.unwrap_or_default());
    let deadline = (secs > 0).then(|| Duration::from_secs(secs));
    let threads = ThreadConfig { pes: a.threads, seed, dt, initial_split, deadline, ..ThreadConfig::default() };
    a.run.spec(Driver::Threads(threads), DetectorKind::FourCounter)
}

/// `--timeout`, or 60 s for a mutant of the threaded driver (it may deadlock).
fn timeout(a: &ThreadsArgs) -> u64 {
    match (a.timeout, a.run.mutant) {
        (0, Some(m)) if m.entry().site == Site::ThreadedDriver => {
            eprintln!("note: mutant `{m}` may deadlock; giving up after 60 s (set --timeout to change)");
            60
        }
        (t, _) => t,
    }
}

/// A backstop behind the driver's deadline: exits the process with code 1
/// if the run takes 10 s longer than `secs` (a PE stuck outside its mailbox
/// cannot be stopped from outside), after naming the property that failed.
fn watchdog(secs: u64, replay: String) {
    if secs == 0 {
        return;
    }
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(secs + 10));
        eprintln!("FAILED termination_detected: no global termination within {secs} s (deadlock or livelock?)");
        eprintln!("replay with: {replay}");
        std::process::exit(1);
    });
}
