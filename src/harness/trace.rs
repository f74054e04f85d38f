//! Checking a saved trace as it is read (`lbcheck check-trace`, `lbcheck
//! compare`): one line at a time into the [`Checker`], so memory does not
//! grow with the trace's length, then the sequential reference of the
//! header's workload, bounded by the trace's length or a flag
//! ([`HeaderReference::budget`]).

use std::io::BufRead;

use super::reference::{reference_within, HeaderReference};
use crate::check::{CheckError, CheckReport, Checker, Reference, MAX_PES};
use crate::event::{Event, TraceError, TraceHeader, TraceReader};

/// Why a trace could not be checked at all (bad input; a property that
/// fails is a verdict in the report, not an error).
#[derive(Debug, thiserror::Error)]
pub enum TraceCheckError {
    /// A line could not be read or is not an event.
    #[error(transparent)]
    Read(#[from] TraceError),
    /// The header does not let the trace be checked (too many PEs).
    #[error(transparent)]
    Check(#[from] CheckError<String>),
    /// The header's reference cannot be had (a bad fingerprint, a
    /// `custom` workload without one, an unknown workload).
    #[error("{0}")]
    Reference(String),
    /// The sequential run of the header's workload is longer than allowed.
    #[error("the sequential reference of `{workload}` does more than {budget} units, the limit for this trace (the larger of --max-reference-units and {per_line} per line): raise --max-reference-units, or give the reference with --expect-fingerprint")]
    ReferenceTooLong {
        /// The header's workload.
        workload: String,
        /// The units allowed.
        budget: u64,
        /// [`super::UNITS_PER_LINE`].
        per_line: u64,
    },
}

/// A checked trace.
#[derive(Debug)]
pub struct TraceCheck {
    /// Verdicts and metrics.
    pub report: CheckReport,
    /// Its header (`None` if the first line is not one).
    pub header: Option<TraceHeader>,
    /// Lines read.
    pub lines: usize,
}

/// Checks the trace `reader` reads against `expected` (a fingerprint, else
/// the header's reference), computing at most `max_units` units of a
/// sequential reference (or [`super::UNITS_PER_LINE`] per line if more).
pub fn check_trace<R: BufRead>(
    mut reader: TraceReader<R>,
    expected: Option<&str>,
    max_units: u64,
) -> Result<TraceCheck, TraceCheckError> {
    let header = match reader.next().transpose()? {
        Some((_, Event::Header(h))) => *h,
        _ => {
            let none = |_: &TraceHeader| -> Result<Reference, String> { unreachable!("no header") };
            let report = crate::check::check_events(&[], none)?;
            let lines = reader.by_ref().try_fold(1, |n, e| e.map(|_| n + 1))?;
            return Ok(TraceCheck { report, header: None, lines });
        }
    };
    if header.pes > MAX_PES {
        return Err(CheckError::TooManyPes { pes: header.pes }.into());
    }
    let plan = HeaderReference::of(&header, expected).map_err(TraceCheckError::Reference)?;
    let mut checker = Checker::new(&header, plan.online());
    checker.observe(1, &Event::Header(Box::new(header.clone())));
    let mut units = 0u64;
    for event in reader.by_ref() {
        let (line, event) = event?;
        if let Event::Work { units: u, .. } = event {
            units = units.saturating_add(u);
        }
        checker.observe(line, &event);
    }
    let lines = reader.lines();
    if let HeaderReference::Sequential { workload, split } = &plan {
        let budget = HeaderReference::budget(lines as u64, max_units);
        match reference_within(workload, *split, budget) {
            Ok(reference) => checker.set_reference(reference),
            Err(done) if plan.shows_work_lost(budget, units) => {
                checker.reference_exceeds(Reference { t_seq: done, ..plan.online() })
            }
            Err(_) => {
                let (workload, per_line) = (workload.to_string(), super::UNITS_PER_LINE);
                return Err(TraceCheckError::ReferenceTooLong { workload, budget, per_line });
            }
        }
    }
    Ok(TraceCheck { report: checker.finish(), header: Some(header), lines })
}
