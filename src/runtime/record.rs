//! Optional event recording for the threaded driver, so that its runs feed
//! the same checker ([`crate::check`]) as the simulator's.
//!
//! **Order.** Every handler call of a PE is recorded as one *batch* (a
//! `recv`, the events of the commands it produced, `busy`/`idle`), which
//! reserves a contiguous range of a global sequence counter with one
//! `fetch_add` *after* the handler ran and *before* its messages are pushed
//! into mailboxes. The merged stream is sorted by sequence number. It is a
//! linearisation of the run: a PE's batches keep their program order, and a
//! message's `recv` batch reserves after the mailbox pop, which happens after
//! the push, which happens after the `send` batch reserved — and reservations
//! of one atomic that are ordered by happens-before are ordered in its
//! modification order, even with `Relaxed` — so every `recv` follows its
//! `send`. A batch is one protocol step, so at every batch boundary the
//! recorded state is consistent (energy held plus in flight, holders of work).
//!
//! **Time.** Events of a batch share one stamp (nanoseconds since the start;
//! under loom the sequence number). After sorting, stamps are clamped to be
//! non-decreasing (a thread can be preempted between its reservation and its
//! clock read), which at worst merges adjacent batches into one time step.

use std::time::Instant;

use super::sync::{stamp, Ordering, TraceSeq};
use crate::event::Event;

/// One PE's recorded batches: `(first sequence number, events)`.
#[derive(Default)]
pub(crate) struct Recorder {
    batches: Vec<(u64, Vec<Event>)>,
    open: Vec<Event>,
}

impl Recorder {
    /// Adds an event to the open batch (its `t` is set when the batch closes).
    pub(crate) fn push(&mut self, e: Event) {
        self.open.push(e);
    }

    /// Closes the open batch: reserves its sequence numbers and stamps it
    /// (with 0 if `at_zero`, for the PEs' starts).
    pub(crate) fn flush(&mut self, seq: &TraceSeq, start: Instant, at_zero: bool) {
        if self.open.is_empty() {
            return;
        }
        let n = self.open.len() as u64;
        let first = seq.fetch_add(n, Ordering::Relaxed);
        let t = if at_zero { 0 } else { stamp(start, first) };
        let mut batch = std::mem::take(&mut self.open);
        batch.iter_mut().filter_map(Event::time_mut).for_each(|time| *time = t);
        self.batches.push((first, batch));
    }

    /// The recorded batches.
    pub(crate) fn into_batches(self) -> Vec<(u64, Vec<Event>)> {
        debug_assert!(self.open.is_empty(), "a batch was left open");
        self.batches
    }
}

/// Merges the PEs' batches into one stream in sequence order, with
/// non-decreasing times, ending with `end` if the run is `complete`.
pub(crate) fn merge(per_pe: Vec<Vec<(u64, Vec<Event>)>>, complete: bool) -> Vec<Event> {
    let mut all: Vec<(u64, Vec<Event>)> = per_pe.into_iter().flatten().collect();
    all.sort_unstable_by_key(|(seq, _)| *seq);
    let mut last = 0;
    let mut out = Vec::with_capacity(all.iter().map(|(_, b)| b.len()).sum::<usize>() + 1);
    for mut e in all.into_iter().flat_map(|(_, b)| b) {
        last = last.max(e.time());
        if let Some(t) = e.time_mut() {
            *t = last;
        }
        out.push(e);
    }
    if complete {
        out.push(Event::End { t: last });
    }
    out
}
