//! What several properties read, kept once for all of them (issue 30):
//! who holds work and which PEs terminated ([`super::activity`]), which
//! `no_early_termination`, `detection_delay_bound`, `termination_detected`
//! and `requests_answered` judge by; and every message's `send`, matched
//! to its `recv` ([`super::messages`]), for `trace_well_formed`, the
//! latency rules and whether work messages are in flight. The
//! [`super::Checker`] feeds the book each event before the properties,
//! which get it read-only ([`super::Property::observe`]); each property's
//! own logic stays in its file.

use super::activity::Activity;
use super::list_some;
use super::messages::Messages;
use crate::event::Event;

/// The shared records of a run's events.
pub(super) struct Book {
    /// PEs holding work, PEs terminated.
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
    #[inline(always)]
    pub(super) fn observe(&mut self, line: usize, e: &Event) {
        self.activity.observe(e);
        self.messages.observe(line, e);
    }

    /// True when no PE holds work and no work message is in flight.
    pub(super) fn is_over(&self) -> bool {
        !self.activity.anyone_holds() && !self.messages.work_in_flight()
    }

    /// What is left: "2 PEs hold work (PE 0, 1) and work message 4 is in flight".
    pub(super) fn describe_left(&self) -> String {
        let (pes, ids) = (self.activity.holders(), self.messages.work_ids());
        let mut parts = Vec::new();
        match pes.len() {
            0 => {}
            1 => parts.push(format!("PE {} holds work", pes[0])),
            n => parts.push(format!("{n} PEs hold work (PE {})", list_some(&pes))),
        }
        match ids.len() {
            0 => {}
            1 => parts.push(format!("work message {} is in flight", ids[0])),
            n => parts.push(format!("{n} work messages are in flight (ids {})", list_some(&ids))),
        }
        parts.join(" and ")
    }

    /// Prefetches PE `pe`'s records ([`super::Checker::prefetch`]).
    pub(super) fn prefetch(&self, pe: u32) {
        self.activity.prefetch(pe);
    }
}
