//! `bound_delay` (002 §4.5; S-12): an improved bound reaches every PE
//! within O(T_rout log P).
//!
//! 002 §4.5: "the bounds should first be sent along a reduction tree to
//! PE 0. Then suboptimal bounds can be thrown away early and we still
//! need only O(T_rout log P) time." A solution's cost c travels at most
//! 2·D hops (up the binary tree rooted at PE 0 and down again, D =
//! ⌊log2 P⌋; by broadcast, one), each within L, the largest latency of a
//! `bound` message in the trace (at least 1). So with t_f the end of the
//! first `work` event that found a solution of cost c (`goal`), every PE
//! knows a bound ≤ c by t_f + 2·D·L. A `work` event's `pruned_with` is the
//! least incumbent the slice pruned with, and the slice started after the
//! PE's previous `work` event ended. Checked: a slice that started more
//! than 2·D·L after a solution of cost c was found (its PE's previous
//! slice ended by then) prunes with no incumbent worse than c.
//!
//! Applies to branch-and-bound with pruning in model time whose bounds
//! travel (the header's `run.bound` is `reduce-tree` or `broadcast`, or
//! absent and the trace carries `bound` messages), on a machine where a
//! message costs no PE time (o = g = 0: otherwise a PE's sends queue
//! behind one another, and a hop takes more than L); otherwise the
//! verdict says "not applicable". A PE that never prunes shows nothing
//! here (its incumbent is not in the trace).

use super::{Book, Metrics, Property, Verdict};
use crate::event::{Event, Kind, TraceHeader};
use crate::sim::prefetch::huge_vec;

/// A slice that pruned with a stale incumbent: how long after the better
/// solution its PE's previous slice ended, and what.
#[derive(Clone, Copy)]
struct Stale {
    gap: u64,
    line: usize,
    pe: u32,
    pruned_with: u64,
    /// The better solution: its time, cost and line.
    found: (u64, u64, usize),
}

/// State of the `bound_delay` check.
pub(super) struct BoundDelay {
    /// Why it does not apply, if the header says so.
    off: Option<&'static str>,
    hops: u64,
    pes: u32,
    max_latency: u64,
    bounds: u64,
    /// The solutions that improved on all before them: (time, cost,
    /// line), costs decreasing.
    found: Vec<(u64, u64, usize)>,
    /// Per PE, the end of its last `work` event since the first solution.
    last_end: Vec<u64>,
    worst: Option<Stale>,
}

impl BoundDelay {
    /// For the run of `header`; `pruning`: the workload prunes.
    pub(super) fn new(header: &TraceHeader, pruning: bool) -> BoundDelay {
        let run = header.run_record().unwrap_or_default();
        let off = match run.bound.as_deref() {
            _ if !pruning => Some("not applicable: the workload does not prune (002 §4.5)"),
            _ if !header.clock.is_work() => Some("not applicable: times are not model time"),
            Some("none") | Some("first-solution") => Some("not applicable: bounds do not travel (run.bound)"),
            _ if run.o > 0 || run.g > 0 => Some("not applicable: o or g > 0 (a PE's sends queue behind one another)"),
            _ => None,
        };
        let depth = u64::from(header.pes.max(1).ilog2());
        BoundDelay {
            off,
            hops: if run.bound.as_deref() == Some("broadcast") { 1 } else { 2 * depth },
            pes: header.pes.min(super::MAX_PES),
            max_latency: 1,
            bounds: 0,
            found: Vec::new(),
            last_end: Vec::new(),
            worst: None,
        }
    }

    fn on_work(&mut self, line: usize, pe: u32, t: u64, pruned_with: Option<u64>, goal: Option<u64>) {
        if let (Some(w), Some(&prev)) = (pruned_with, self.last_end.get(pe as usize)) {
            // The first solution better than w (costs decrease along `found`).
            let first = self.found.partition_point(|&(_, c, _)| c >= w);
            if let Some(&found) = self.found.get(first).filter(|f| prev > f.0) {
                let gap = prev - found.0;
                if self.worst.is_none_or(|s| gap > s.gap) {
                    self.worst = Some(Stale { gap, line, pe, pruned_with: w, found });
                }
            }
        }
        if let Some(g) = goal.filter(|&g| self.found.last().is_none_or(|l| g < l.1)) {
            if self.found.is_empty() {
                self.last_end = huge_vec(self.pes as usize, |_| 0);
            }
            self.found.push((t, g, line));
        }
        if let Some(end) = self.last_end.get_mut(pe as usize) {
            *end = t;
        }
    }
}

impl Property for BoundDelay {
    const NAME: &'static str = "bound_delay";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, book: &Book) {
        if self.off.is_some() {
            return;
        }
        match *e {
            Event::Send { kind: Kind::Bound, .. } => self.bounds += 1,
            Event::Recv { t, kind: Kind::Bound, .. } => {
                if let Some(sent) = book.messages.landed().filter(|s| s.kind == Kind::Bound) {
                    self.max_latency = self.max_latency.max(t.saturating_sub(sent.t));
                }
            }
            Event::Work { t, pe, pruned_with, goal, .. } => self.on_work(line, pe, t, pruned_with, goal),
            _ => {}
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        if let Some(why) = self.off {
            return Verdict::pass(why);
        }
        if self.bounds == 0 {
            return Verdict::pass("not applicable: no bound messages (002 §4.5)");
        }
        let (hops, l) = (self.hops, self.max_latency);
        match self.worst.filter(|s| s.gap > hops * l) {
            Some(s) => Verdict::fail(
                format!(
                    "line {}: PE {} pruned with {} in a slice it started after t={}, {} after a solution of cost {} was found (line {}, t={}): a bound reaches every PE within {hops}·L = {hops}·{l} (002 §4.5)",
                    s.line,
                    s.pe,
                    s.pruned_with,
                    s.found.0 + s.gap,
                    s.gap,
                    s.found.1,
                    s.found.2,
                    s.found.0
                ),
                Some(s.line),
            ),
            None => Verdict::pass(format!(
                "every slice started more than {hops}·L = {hops}·{l} after a solution of cost c pruned with no incumbent above c; {} improving solutions, {} bound messages",
                self.found.len(),
                self.bounds
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{feed, header, recv, send};
    use super::*;

    /// A slice of PE `pe` ending at `t` that found `goal` or pruned with `pruned`.
    fn slice(t: u64, pe: u32, goal: Option<u64>, pruned: Option<u64>) -> Event {
        let fp = crate::problem::Fingerprint::EMPTY;
        Event::Work { t, pe, units: 1, gen: 0, fp, cost: None, goal, pruned_with: pruned, critical: None }
    }

    /// PE 3 of 4 (D = 2, L = 5: 2·D·L = 20) finds 10 at t = 10; PE 1
    /// ends a slice at `prev`, then prunes with 12 in the next.
    fn verdict(prev: u64, pruning: bool) -> Verdict {
        let h = header(4);
        let mut p = BoundDelay::new(&h, pruning);
        let mut book = Book::new(4);
        let events = [
            slice(10, 3, Some(10), None),
            send(10, 3, 1, 1, Kind::Bound),
            recv(15, 1, 3, 1, Kind::Bound),
            slice(prev, 1, None, None),
            slice(prev + 1, 1, None, Some(12)),
        ];
        events.iter().enumerate().for_each(|(i, e)| feed(&mut p, &mut book, i + 2, e));
        p.finish(&Metrics::default(), &book)
    }

    /// Within 2·D·L of the solution a stale incumbent is allowed; past it,
    /// the slice's line is named.
    #[test]
    fn a_stale_incumbent_past_2_d_l_fails() {
        assert!(verdict(30, true).pass, "{}", verdict(30, true).detail);
        let late = verdict(31, true);
        assert!(!late.pass && late.line == Some(6), "{}", late.detail);
        assert!(late.detail.contains("cost 10") && late.detail.contains("4·L = 4·5"), "{}", late.detail);
        assert!(verdict(31, false).detail.starts_with("not applicable"));
    }

    /// No bound message, or bounds declared not to travel: not applicable.
    #[test]
    fn without_travelling_bounds_it_does_not_apply() {
        let h = header(4);
        let book = Book::new(4);
        let mut p = BoundDelay::new(&h, true);
        p.observe(2, &slice(10, 3, Some(10), None), &book);
        p.observe(3, &slice(100, 1, None, None), &book);
        p.observe(4, &slice(101, 1, None, Some(12)), &book);
        let v = p.finish(&Metrics::default(), &book);
        assert!(v.pass && v.detail.contains("no bound messages"), "{}", v.detail);
    }
}
