//! Verdicts for the terminal: failed properties named on stderr with the
//! replay command, a note when a simulation stopped early, and the exit code.

use std::process::ExitCode;

use crate::base::caught::PROTOCOL_ASSERTION;
use crate::check::CheckReport;
use crate::sim::{Outcome, Stop};

/// 0 if every property passed, else 1 (after naming the failures on
/// stderr, first causes first, each consequence with what it follows, and
/// the replay command, if any).
pub fn exit_code(check: &CheckReport, replay: Option<&str>) -> ExitCode {
    let failures = check.failures_in_order();
    if failures.is_empty() {
        return ExitCode::SUCCESS;
    }
    for (name, v) in failures {
        let placed = v.line.filter(|_| !v.detail.starts_with("line ")); // most details name their line
        let mut notes: Vec<String> = placed.map(|l| format!("line {l}")).into_iter().collect();
        notes.extend(v.follows.map(|cause| format!("follows from {cause}")));
        let notes = if notes.is_empty() { String::new() } else { format!(" ({})", notes.join(", ")) };
        eprintln!("FAILED {name}{notes}: {}", v.detail);
    }
    if let Some(replay) = replay {
        eprintln!("replay with: {replay}");
    }
    ExitCode::from(1)
}

/// Why a threaded run stopped with [`Stop::Stalled`], for stderr.
pub fn stalled() -> String {
    let grace = crate::runtime::threads::STALL_GRACE.as_secs();
    format!("stopped: no PE held work and no work message was in flight for {grace} s, and not every PE had learnt of termination: the detector never announced, or its announcement did not spread")
}

/// Why a simulation stopped before draining, for stderr (`None` if it drained).
pub fn stop_note(outcome: &Outcome, max_steps: u64, horizon: u64) -> Option<String> {
    let end = outcome.end_time;
    match outcome.stop {
        Stop::Drained => None,
        Stop::StepCap => Some(format!("step cap {max_steps} reached at time {end}: the run did not finish")),
        Stop::TimeCap => Some(format!("time cap reached at time {end}: the run did not finish")),
        Stop::NotAnnounced { quiet_since } => Some(format!(
            "stopped at time {end}: the computation was over at time {quiet_since} but termination was not announced within the detection horizon of {horizon} time units"
        )),
        Stop::NotTerminated { quiet_since } => Some(format!(
            "stopped at time {end}: the computation was over at time {quiet_since} and termination was announced, but not every PE had learnt of it (logged `terminated`) within twice the detection horizon of {horizon} time units"
        )),
        Stop::Assertion => Some(format!("stopped by a protocol assertion ({PROTOCOL_ASSERTION})")),
        Stop::Deadline => Some(format!("stopped after the deadline at time {end}: termination had not spread to every PE")),
        Stop::Stalled => Some(stalled()),
        Stop::TimeOverflow => Some(format!(
            "stopped at time {end}: model time would pass 2^63, the end of the simulator's clock (a slow PE's slice or a latency is too long for this workload)"
        )),
    }
}
