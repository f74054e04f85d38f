//! The part of `requests_answered` that reads requests left unreceived
//! (001 Fig. 1: a request is answered; 001 §1.1: a message arrives within
//! T_rout). A request that is never received, or received only long after
//! it was sent, is never answered in time — and when its target works on
//! meanwhile, the requester idles for nothing.
//!
//! The rule: a request sent at s to PE j is received before j starts a
//! work slice (a `work` event's t − units) at or after s + 2·L + Δt, with
//! L the largest latency (`recv` − `send`) of the trace's other messages,
//! or the declared latency (`run.latency`'s upper end, else `run.t_rout`)
//! if larger, at least 1; and Δt the declared one (1 if none). The slack
//! allows a program that logs a request's `recv` when it reads it at its
//! next poll rather than on arrival. A request still in flight at the end
//! whose target did no work after that tolerance passes (the run may end
//! with messages unreceived). Only for `clock: work`.

use super::messages::Sent;
use super::Book;
use crate::event::{Clock, Event, Kind, TraceHeader};
use crate::sim::prefetch::huge_vec;

/// The worst request seen: how long after its sending its target started
/// a slice with it unreceived, and the request.
type Worst = Option<(u64, Sent, bool)>;

/// State of the unreceived-requests rule.
pub(super) struct Unread {
    applies: bool,
    declared: u64,
    dt: u64,
    latency: u64,
    last_start: Vec<Option<u64>>,
    worst: Worst,
}

impl Unread {
    /// For the run of `header`.
    pub(super) fn new(header: &TraceHeader) -> Unread {
        let run = header.run_record();
        let declared = run.as_ref().and_then(|r| r.latency.map(|l| l[1]).or(r.t_rout)).unwrap_or(0);
        let dt = run.as_ref().map_or(1, |r| r.dt.max(1));
        let pes = header.pes.min(super::MAX_PES) as usize;
        Unread {
            applies: header.clock == Clock::Work,
            declared,
            dt,
            latency: 0,
            last_start: huge_vec(pes, |_| None),
            worst: None,
        }
    }

    /// Prefetches PE `pe`'s last slice start ([`super::Checker::prefetch`]).
    pub(super) fn prefetch(&self, pe: u32) {
        super::ahead(&self.last_start, pe);
    }

    /// Reads one event; the messages in flight are the book's (a `recv`
    /// is judged by its `send`'s kind: the two differ only in a malformed
    /// trace, which `trace_well_formed` reports).
    #[inline(always)]
    pub(super) fn observe(&mut self, e: &Event, book: &Book) {
        if !self.applies {
            return;
        }
        match *e {
            Event::Recv { t, .. } => match book.messages.landed() {
                Some(f) if f.kind == Kind::Request => self.weigh(f, false),
                Some(f) => self.latency = self.latency.max(t.saturating_sub(f.t)),
                None => {}
            },
            Event::Work { t, pe, units, .. } => {
                if let Some(s) = self.last_start.get_mut(pe as usize) {
                    *s = Some(t.saturating_sub(units));
                }
            }
            _ => {}
        }
    }

    /// Notes how long after `f` was sent its target started a slice without it.
    fn weigh(&mut self, f: Sent, never: bool) {
        let Some(Some(start)) = self.last_start.get(f.to as usize).copied() else { return };
        let gap = start.saturating_sub(f.t);
        if start >= f.t && self.worst.is_none_or(|(g, _, _)| gap > g) {
            self.worst = Some((gap, f, never));
        }
    }

    /// The tolerance 2·L + Δt.
    fn tolerance(&self) -> (u64, u64) {
        let l = self.latency.max(self.declared).max(1);
        (l, 2 * l + self.dt)
    }

    /// The violation, if a request stayed unreceived too long: (line, why).
    pub(super) fn finish(&mut self, book: &Book) -> Option<(usize, String)> {
        if !self.applies {
            return None;
        }
        let mut left: Vec<Sent> = book.messages.in_flight().filter(|f| f.kind == Kind::Request).collect();
        left.sort_unstable_by_key(|f| f.line);
        for f in left {
            self.weigh(f, true);
        }
        let (l, tol) = self.tolerance();
        let (gap, f, never) = self.worst.filter(|(gap, _, _)| *gap >= tol)?;
        let how = if never { "was never received" } else { "was not received" };
        let why = format!(
            "line {}: PE {}'s request to PE {} (sent at t = {}) {how} while PE {} started a work slice {gap} time units later (tolerance 2·L + Δt = {tol}, L = {l} the largest latency of the trace's other messages or the declared one, Δt = {})",
            f.line, f.from, f.to, f.t, f.to, self.dt
        );
        Some((f.line, why))
    }
}
