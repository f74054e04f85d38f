//! `stop_delay` (002 §4.5; S-12): in first-solution mode every PE stops
//! within O(T_rout log P) of the first solution.
//!
//! "The first PE to find a solution sends Stop" by a tree broadcast: the
//! stop travels at most 2·D hops (up the binary tree rooted at PE 0 and
//! down again, D = ⌊log2 P⌋), each within L, the largest latency of a
//! `stop` message in the trace (at least 1). So with t_f the end of the
//! first `work` event that found a solution (`goal`), every PE has heard of
//! the stop by t_f + 2·D·L, and after hearing of it (or finding the
//! solution itself) a PE finishes at most the slice in progress: a later
//! `work` event of it does 0 units. Checked: a PE that does work (units > 0)
//! ending after t_f + 2·D·L had heard of the stop by then, and no PE does
//! work in more than one slice after hearing of it.
//!
//! Applies in first-solution mode: the header's `run.bound` is
//! `first-solution`, or the trace carries `stop` messages; otherwise, or
//! when times are not model time, the verdict says "not applicable".

use crate::sim::prefetch::huge_vec;

use super::{Book, Metrics, Property, Verdict};
use crate::event::{Event, Kind, TraceHeader};

/// One PE's view of the stop.
#[derive(Clone, Copy, Default)]
struct Pe {
    /// When it heard of the stop (or found the solution).
    heard: Option<u64>,
    /// Slices with work it ended after hearing of it.
    slices_after: u32,
    /// Its last work (units > 0) after the first solution: line and time.
    last_work: Option<(usize, u64)>,
}

/// State of the `stop_delay` check.
pub(super) struct StopDelay {
    declared: bool,
    model_time: bool,
    depth: u64,
    pes: Vec<Pe>,
    /// The first solution: its time and line.
    found: Option<(u64, usize)>,
    max_latency: u64,
    stops: u64,
    /// A PE heard of a stop.
    heard_any: bool,
    violation: Option<(usize, String)>,
}

/// True if the header declares first-solution mode.
pub(super) fn first_solution(header: &TraceHeader) -> bool {
    header.run_record().and_then(|r| r.bound.clone()).as_deref() == Some("first-solution")
}

impl StopDelay {
    /// For the run of `header` (its PEs, clock and bound mode).
    pub(super) fn new(header: &TraceHeader) -> StopDelay {
        StopDelay {
            declared: first_solution(header),
            model_time: header.clock.is_work(),
            depth: u64::from(header.pes.max(1).ilog2()),
            pes: huge_vec(header.pes.min(super::MAX_PES) as usize, |_| Pe::default()),
            found: None,
            max_latency: 1,
            stops: 0,
            heard_any: false,
            violation: None,
        }
    }

    fn hear(&mut self, pe: u32, t: u64) {
        self.heard_any = true;
        if let Some(p) = self.pes.get_mut(pe as usize) {
            p.heard.get_or_insert(t);
        }
    }

    fn on_work(&mut self, line: usize, pe: u32, t: u64, units: u64, goal: Option<u64>) {
        let found = self.found.is_some();
        if !found && !self.heard_any && goal.is_none() {
            return; // nothing to note before a stop (issue 30: no per-PE access)
        }
        let Some(p) = self.pes.get_mut(pe as usize) else { return };
        if units > 0 && found {
            p.last_work = Some((line, t));
        }
        if units > 0 && p.heard.is_some_and(|h| h < t) {
            p.slices_after += 1;
            if p.slices_after > 1 && self.violation.is_none() {
                let why = format!("line {line}: PE {pe} worked a second slice after it heard of the stop");
                self.violation = Some((line, why));
            }
        }
        if goal.is_some() {
            p.heard.get_or_insert(t);
            self.found.get_or_insert((t, line));
        }
    }

    /// A PE that worked past the deadline without having heard of the stop
    /// by then: its last such work's line, the PE and the time.
    fn unstopped(&self, deadline: u64) -> Option<(usize, u32, u64)> {
        let late = |(pe, p): (usize, &Pe)| match p.last_work {
            Some((line, t)) if t > deadline && p.heard.is_none_or(|h| h > deadline) => Some((line, pe as u32, t)),
            _ => None,
        };
        self.pes.iter().enumerate().filter_map(late).min()
    }
}

impl Property for StopDelay {
    const NAME: &'static str = "stop_delay";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, book: &Book) {
        match *e {
            Event::Send { kind: Kind::Stop, .. } => self.stops += 1,
            Event::Recv { t, pe, kind: Kind::Stop, .. } => {
                if let Some(sent) = book.messages.landed().filter(|s| s.kind == Kind::Stop) {
                    self.max_latency = self.max_latency.max(t.saturating_sub(sent.t));
                }
                self.hear(pe, t);
            }
            Event::Work { t, pe, units, goal, .. } => self.on_work(line, pe, t, units, goal),
            _ => {}
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        if !self.declared && self.stops == 0 {
            return Verdict::pass("not applicable: not in first-solution mode (002 §4.5)");
        }
        if !self.model_time {
            return Verdict::pass("not applicable: times are not model time");
        }
        if let Some((line, why)) = self.violation {
            return Verdict::fail(why, Some(line));
        }
        let Some((found, at)) = self.found else {
            return Verdict::pass("first-solution mode: no solution found, nothing to stop");
        };
        let (d, l) = (self.depth, self.max_latency);
        let deadline = found.saturating_add(2 * d * l);
        match self.unstopped(deadline) {
            Some((line, pe, t)) => Verdict::fail(
                format!(
                    "line {line}: PE {pe} worked until t={t}, but had not heard of the stop by t={deadline}: the first solution (line {at}, t={found}) + 2·D·L = 2·{d}·{l}"
                ),
                Some(line),
            ),
            None => Verdict::pass(format!(
                "every PE heard of the stop within 2·D·L = 2·{d}·{l} of the first solution (t={found}) or had no work left; {} stop messages",
                self.stops
            )),
        }
    }
}
