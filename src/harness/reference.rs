//! The sequential reference a run or a trace is checked against (002 eq.
//! (1): every parallel run must reproduce its fingerprint and T_seq), and
//! its bounded form for traces: a header names a workload, and computing
//! its sequential run is the one cost `check-trace` does not read from the
//! trace, so it is bounded by the trace's length or a flag
//! ([`HeaderReference::budget`]).

use crate::check::Reference;
use crate::event::TraceHeader;
use crate::problem::dfs::Strategy;
use crate::problem::{sequential, Fingerprint, Subproblem, Workload, WorkloadFamily};

/// The sequential reference run of `workload`: its fingerprint and T_seq,
/// which every parallel run must reproduce (002 eq. (1)).
pub fn reference(workload: &Workload, split: Strategy) -> Reference {
    reference_within(workload, split, u64::MAX).unwrap_or_else(|_| unreachable!("no budget"))
}

/// [`reference()`], giving up once the sequential run has done more than
/// `budget` units: `Err` with the units it did.
pub fn reference_within(workload: &Workload, split: Strategy, budget: u64) -> Result<Reference, u64> {
    let seq = sequential::run_within(workload.root(split), budget).map_err(|partial| partial.work)?;
    let pruning = workload.prunes().then_some(seq.log.goal).flatten();
    let pruned_critical = pruning.map(|o| critical_nodes(workload, split, o));
    Ok(Reference { fp: seq.log.fp, t_seq: seq.work, critical: workload.critical(), pruning, pruned_critical })
}

/// The fingerprint of the nodes of a pruning workload whose bound is below
/// its optimum `o`: the sequential branch-and-bound started with `o` as
/// its incumbent expands exactly those (S-12, `critical_expanded`), fewer
/// than the run that found `o`.
fn critical_nodes(workload: &Workload, split: Strategy, o: u64) -> Fingerprint {
    let mut root = workload.root(split);
    root.improve(o);
    root.watch_critical(o);
    sequential::run(root).log.critical
}

/// The reference of a trace, from its header.
#[derive(Clone, Debug)]
pub enum HeaderReference {
    /// The expected fingerprint given for it (on the command line, else
    /// the header's `fingerprint`).
    Given(Reference),
    /// The sequential run of the header's workload, still to be computed.
    Sequential {
        /// The workload.
        workload: Workload,
        /// Its split strategy (for DFS stacks).
        split: Strategy,
    },
}

/// Work units of the sequential reference allowed per line of the trace
/// (besides `--max-reference-units`).
pub const UNITS_PER_LINE: u64 = 1000;

impl HeaderReference {
    /// The reference of the trace of `h`: the expected fingerprint given for
    /// it (`expected`, from the command line, else the header's
    /// `fingerprint`, with `units` if given agreeing), else the sequential
    /// run of the header's workload. A `custom` workload needs the fingerprint.
    pub fn of(h: &TraceHeader, expected: Option<&str>) -> Result<HeaderReference, String> {
        if let Some(fp) = expected.or(h.fingerprint.as_deref()) {
            return given(h, fp, expected.is_some()).map(HeaderReference::Given);
        }
        if h.workload == "custom" || h.workload.starts_with("custom:") {
            return Err(
                "a `custom` workload needs the expected `fingerprint` in the header (or --expect-fingerprint)".into()
            );
        }
        let workload: Workload = h.workload.parse().map_err(|e| format!("header workload: {e}"))?;
        let split = match workload.family() {
            WorkloadFamily::Uts => h.split.parse().map_err(|e| format!("header split: {e}"))?,
            _ => Strategy::default(), // only DFS stacks split by strategy
        };
        Ok(HeaderReference::Sequential { workload, split })
    }

    /// What a checker needs of the reference while it reads the trace:
    /// all of it if given; of a sequential run still to come, a
    /// cost tree's optimum and whether the workload prunes (with
    /// placeholders that [`crate::check::Checker::set_reference`] replaces).
    pub fn online(&self) -> Reference {
        match self {
            HeaderReference::Given(r) => *r,
            HeaderReference::Sequential { workload, .. } => Reference {
                fp: Fingerprint::EMPTY,
                t_seq: u64::MAX,
                critical: workload.critical(),
                pruning: workload.prunes().then_some(0),
                pruned_critical: workload.prunes().then_some(Fingerprint::EMPTY),
            },
        }
    }

    /// The units the sequential run may take for a trace of `lines`
    /// lines: the larger of `max_units` and [`UNITS_PER_LINE`] per line, so
    /// that the checker's work stays proportional to the trace's length.
    pub fn budget(lines: u64, max_units: u64) -> u64 {
        max_units.max(lines.saturating_mul(UNITS_PER_LINE))
    }

    /// True if a sequential run of more than `budget` units shows that a
    /// trace whose work sums to `units` lost work: when it has more units
    /// than the trace and the workload does not prune (a pruning run may
    /// examine fewer nodes than the sequential one, S-12).
    pub fn shows_work_lost(&self, budget: u64, units: u64) -> bool {
        matches!(self, HeaderReference::Sequential { workload, .. } if !workload.prunes() && budget >= units)
    }
}

/// The reference of an expected fingerprint `fp`.
fn given(h: &TraceHeader, fp: &str, from_flag: bool) -> Result<Reference, String> {
    let fp = Fingerprint::parse(fp)
        .ok_or_else(|| format!("fingerprint `{fp}` is not UNITS-HEX48 (the form of `lbcheck tree`)"))?;
    if h.units.is_some_and(|u| u != fp.units) && !from_flag {
        return Err(format!(
            "header `units` = {} disagrees with its `fingerprint` ({} units)",
            h.units.unwrap_or(0),
            fp.units
        ));
    }
    Ok(Reference { fp, t_seq: fp.units, critical: None, pruning: None, pruned_critical: None })
}

/// The reference of a trace whose header is `h`, computed in full (see
/// [`HeaderReference::of`]; `check-trace` bounds it instead).
pub fn reference_of_header(h: &TraceHeader, expected: Option<&str>) -> Result<Reference, String> {
    match HeaderReference::of(h, expected)? {
        HeaderReference::Given(r) => Ok(r),
        HeaderReference::Sequential { workload, split } => Ok(reference(&workload, split)),
    }
}
