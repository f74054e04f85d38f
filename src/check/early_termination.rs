//! `no_early_termination` (safety of termination detection, 001 §2 and
//! 003 §14.7.4): at every `announce` and every `terminated` event, no PE
//! holds work and no work message is in flight; and after the first
//! `announce` no PE does work, becomes busy or splits (a PE that logged
//! `idle` too early and worked on would otherwise pass).
//!
//! Who holds work and what is in flight is [`super::activity`]'s, kept
//! in the checker's shared [`Book`].

use super::{Book, Metrics, Property, Verdict};
use crate::event::Event;

/// State of the `no_early_termination` check.
pub(super) struct NoEarlyTermination {
    checked: u64,
    /// Line of the first `announce`.
    announced: Option<usize>,
    violation: Option<(usize, String)>,
}

impl NoEarlyTermination {
    /// A new check (the shared [`Book`] keeps who holds work).
    pub(super) fn new() -> NoEarlyTermination {
        NoEarlyTermination { checked: 0, announced: None, violation: None }
    }

    /// Checks the state at `line`, where `what` happened.
    fn check(&mut self, line: usize, what: String, book: &Book) {
        self.checked += 1;
        if self.violation.is_some() || book.is_over() {
            return;
        }
        let why = format!("line {line}: {what} while {}", book.describe_left());
        self.violation = Some((line, why));
    }

    /// PE `pe` did `what` at `line`: a violation after the announcement.
    fn active(&mut self, line: usize, pe: u32, what: &str, t: u64) {
        let Some(at) = self.announced.filter(|_| self.violation.is_none()) else { return };
        let why = format!("line {line}: PE {pe} {what} at t={t}, after termination was announced (line {at})");
        self.violation = Some((line, why));
    }
}

impl Property for NoEarlyTermination {
    const NAME: &'static str = "no_early_termination";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, book: &Book) {
        match *e {
            Event::Work { t, pe, .. } => self.active(line, pe, "did work", t),
            Event::Split { t, pe, .. } => self.active(line, pe, "split its subproblem", t),
            Event::Busy { t, pe } => self.active(line, pe, "became busy", t),
            _ => {}
        }
        match *e {
            Event::Announce { t, pe } => {
                self.check(line, format!("PE {pe} announced termination at t={t}"), book);
                self.announced = self.announced.or(Some(line));
            }
            Event::Terminated { t, pe } => self.check(line, format!("PE {pe} terminated at t={t}"), book),
            _ => {}
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        match self.violation {
            Some((line, why)) => Verdict::fail(why, Some(line)),
            None => Verdict::pass(format!(
                "no PE held work and no work message was in flight at any of {} announce/terminated events",
                self.checked
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;

    const NAME: &str = NoEarlyTermination::NAME;

    #[test]
    fn correct_streams_pass() {
        assert_passes(NAME, &run(1, single_pe()));
        assert_passes(NAME, &run(2, two_pes()));
    }

    #[test]
    fn announce_while_a_pe_is_busy_fails_on_its_line() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Busy { t: 5, .. }));
        events.insert(i + 1, Event::Announce { t: 5, pe: 0 });
        let v = assert_fails(NAME, &run(2, events), Some(line_of(i + 1)));
        assert_eq!(
            v.detail,
            format!("line {}: PE 0 announced termination at t=5 while 2 PEs hold work (PE 0, 1)", line_of(i + 1))
        );
    }

    /// A PE that logged `idle` too early and worked on after the
    /// announcement (its work is still counted, so work is conserved).
    #[test]
    fn work_after_the_announcement_fails() {
        let mut events = single_pe();
        let announce = position(&events, |e| matches!(e, Event::Announce { .. }));
        let w = events.remove(1); // the work, logged after idle and announce instead
        events.insert(announce, w);
        let at = position(&events, |e| matches!(e, Event::Work { .. }));
        let v = assert_fails(NAME, &run(1, events), Some(line_of(at)));
        assert!(v.detail.contains("PE 0 did work at t=10, after termination was announced"), "{}", v.detail);
    }

    #[test]
    fn announce_with_work_in_flight_fails() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Send { id: 2, .. }));
        events.insert(i + 1, Event::Idle { t: 3, pe: 0 });
        events.insert(i + 2, Event::Announce { t: 3, pe: 0 });
        let v = assert_fails(NAME, &run(2, events), Some(line_of(i + 2)));
        assert!(v.detail.ends_with("while work message 2 is in flight"), "{}", v.detail);
    }

    #[test]
    fn a_received_work_message_counts_before_busy() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Recv { id: 2, .. }));
        events.insert(i + 1, Event::Terminated { t: 5, pe: 1 });
        let v = assert_fails(NAME, &run(2, events), Some(line_of(i + 1)));
        assert!(v.detail.contains("PE 1 terminated at t=5 while 2 PEs hold work"), "{}", v.detail);
    }
}
