//! What several properties read, kept once for all of them (issue 30):
//! who holds work, which work messages are in flight and which PEs
//! terminated ([`super::activity`]), which `no_early_termination`,
//! `detection_delay_bound`, `termination_detected` and `requests_answered`
//! judge by; and every message's `send`, matched to its `recv`
//! ([`super::messages`]), for `trace_well_formed` and the latency rules. The [`super::Checker`] feeds the
//! book each event before the properties, which get it read-only
//! ([`super::Property::observe`]); each property's own logic stays in its
//! file.

use super::activity::Activity;
use super::messages::Messages;
use crate::event::Event;

/// The shared records of a run's events.
pub(super) struct Book {
    /// PEs holding work, work messages in flight, PEs terminated.
    pub activity: Activity,
    /// Messages in flight and delivered, and what the current event did
    /// to them.
    pub messages: Messages,
}

impl Book {
    /// For `pes` PEs.
    pub(super) fn new(pes: u32) -> Book {
        Book { activity: Activity::new(pes), messages: Messages::new(pes) }
    }

    /// Feeds one event (before the properties see it).
    pub(super) fn observe(&mut self, line: usize, e: &Event) {
        self.activity.observe(e);
        self.messages.observe(line, e);
    }

    /// Prefetches PE `pe`'s records ([`super::Checker::prefetch`]).
    pub(super) fn prefetch(&self, pe: u32) {
        self.activity.prefetch(pe);
    }
}
