//! `termination_detected` (liveness of termination detection, 001 §2 and
//! 003 §14.7.4): the run announced termination, ended (`end`), and every PE
//! learnt of it (`terminated`). Reports the detection delay — announce time
//! minus the time of the last `work` event — and T_par, the last
//! `terminated` time (both from the run's [`Metrics`]). A negative delay
//! (work after the announcement) fails: termination was announced before
//! the computation was over, so what was detected was not termination.

use super::{list_some, Book, Metrics, Property, Verdict};
use crate::event::Event;

const TRUNCATED: &str = "the trace has no `end` event: it is truncated or the run did not finish";

/// State of the `termination_detected` check.
pub(super) struct TerminationDetected {
    /// Line and time of the first announcement.
    announce: Option<(usize, u64)>,
    end: bool,
}

impl TerminationDetected {
    /// A new check (which PEs terminated is the shared [`Book`]'s).
    pub(super) fn new() -> TerminationDetected {
        TerminationDetected { announce: None, end: false }
    }

    fn summary(line: usize, t: u64, m: &Metrics) -> String {
        let delay = match m.t_last_work {
            Some(w) => format!("detection delay {} (after the last work at t={w})", i128::from(t) - i128::from(w)),
            None => format!("detection delay {t} (no work event)"),
        };
        let t_par = m.t_par.map_or("none".to_string(), |t| t.to_string());
        format!("announced at t={t} (line {line}); {delay}; T_par = {t_par}")
    }
}

impl Property for TerminationDetected {
    const NAME: &'static str = "termination_detected";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, _: &Book) {
        match *e {
            Event::Announce { t, .. } if self.announce.is_none() => self.announce = Some((line, t)),
            Event::End { .. } => self.end = true,
            _ => {}
        }
    }

    fn finish(self, m: &Metrics, book: &Book) -> Verdict {
        let Some((line, t)) = self.announce else {
            let why = match self.end {
                true => "never announced: the run ended without announcing termination".to_string(),
                false => format!("never announced; {TRUNCATED}"),
            };
            return Verdict::fail(why, None);
        };
        let summary = Self::summary(line, t, m);
        if m.t_last_work.is_some_and(|w| w > t) {
            return Verdict::fail(format!("{summary}: work went on after the announcement"), None);
        }
        if !self.end {
            return Verdict::fail(format!("{summary}; but {TRUNCATED}"), None);
        }
        let missing = book.activity.not_terminated();
        if !missing.is_empty() {
            let who = match missing.len() {
                1 => format!("PE {} never terminated", missing[0]),
                n => format!("{n} PEs never terminated (PE {})", list_some(&missing)),
            };
            return Verdict::fail(format!("{summary}; but {who}"), None);
        }
        Verdict::pass(summary)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;

    const NAME: &str = TerminationDetected::NAME;

    #[test]
    fn correct_streams_pass_with_delay_and_t_par() {
        let r = run(1, single_pe());
        assert_passes(NAME, &r);
        assert_eq!(
            r.properties[NAME].detail,
            "announced at t=10 (line 5); detection delay 0 (after the last work at t=10); T_par = 10"
        );
        let r = run(2, two_pes());
        assert_passes(NAME, &r);
        assert!(r.properties[NAME].detail.contains("detection delay 2 (after the last work at t=15); T_par = 19"));
    }

    /// Work after the announcement: a negative detection delay fails (and
    /// follows `no_early_termination`, which saw the work go on).
    #[test]
    fn a_negative_detection_delay_fails() {
        let mut events = two_pes();
        events.retain(|e| !matches!(e, Event::Announce { .. }));
        let idle = position(&events, |e| matches!(e, Event::Idle { t: 10, .. }));
        events.insert(idle + 1, Event::Announce { t: 10, pe: 0 }); // while PE 1 works on
        let r = run(2, events);
        let v = assert_fails(NAME, &r, None);
        assert!(v.detail.contains("detection delay -5 (after the last work at t=15)"), "{}", v.detail);
        assert!(v.detail.ends_with("work went on after the announcement"), "{}", v.detail);
        assert_eq!(v.follows, Some("no_early_termination"));
        assert_eq!(r.failures_in_order()[0].0, "no_early_termination");
    }

    #[test]
    fn no_announce_fails() {
        let mut events = single_pe();
        events.retain(|e| !matches!(e, Event::Announce { .. }));
        let v = assert_fails(NAME, &run(1, events.clone()), None);
        assert_eq!(v.detail, "never announced: the run ended without announcing termination");
        events.pop();
        let v = assert_fails(NAME, &run(1, events), None);
        assert!(v.detail.contains("truncated"), "{}", v.detail);
    }

    #[test]
    fn no_end_or_a_pe_not_terminated_fails() {
        let mut events = two_pes();
        events.pop();
        let v = assert_fails(NAME, &run(2, events.clone()), None);
        assert!(v.detail.ends_with(TRUNCATED), "{}", v.detail);
        events.pop();
        events.push(Event::End { t: 19 });
        let v = assert_fails(NAME, &run(2, events), None);
        assert!(v.detail.ends_with("but PE 1 never terminated"), "{}", v.detail);
    }
}
