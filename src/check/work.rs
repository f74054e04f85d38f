//! `work_conserved` (002 eq. (1), T(I) = T(I1) + T(I2)): the work of all
//! `work` events together is exactly the sequential run's: Σ units = T_seq
//! and Σ fingerprints = the sequential fingerprint. Fewer units means work
//! was lost, more means work was done twice; equal units with a different
//! fingerprint means both happened.

use super::{Book, Metrics, Property, Reference, Verdict};
use crate::event::Event;
use crate::problem::Fingerprint;

/// State of the `work_conserved` check.
pub(super) struct WorkConserved {
    expected: Reference,
    units: u64,
    fp: Fingerprint,
    /// The `work` event that took Σ units past T_seq, if any.
    over_line: Option<usize>,
    /// The sequential run was stopped after `expected.t_seq` units, more
    /// than the trace's ([`super::Checker::reference_exceeds`]).
    stopped: bool,
}

impl WorkConserved {
    /// Compares with `expected`.
    pub(super) fn new(expected: Reference) -> WorkConserved {
        WorkConserved { expected, units: 0, fp: Fingerprint::EMPTY, over_line: None, stopped: false }
    }

    /// The reference, known only now (`stopped`: a sequential run stopped
    /// after more units than the trace's).
    pub(super) fn set_reference(&mut self, expected: Reference, stopped: bool) {
        (self.expected, self.stopped) = (expected, stopped);
    }

    fn what_went_wrong(&self) -> String {
        let t_seq = self.expected.t_seq;
        if self.units < t_seq {
            format!("work lost ({} units missing)", t_seq - self.units)
        } else if self.units > t_seq {
            format!("work duplicated ({} units too many)", self.units - t_seq)
        } else {
            "same number of units but other items: some work lost and other work duplicated".to_string()
        }
    }
}

impl Property for WorkConserved {
    const NAME: &'static str = "work_conserved";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, _: &Book) {
        let Event::Work { units, fp, .. } = e else { return };
        self.units = self.units.saturating_add(*units);
        self.fp += *fp;
        if self.over_line.is_none() && self.units > self.expected.t_seq && self.expected.pruning.is_none() {
            self.over_line = Some(line);
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        let (units, fp) = (self.units, self.fp);
        if let Some(opt) = self.expected.pruning {
            return Verdict::pass(format!(
                "not applicable: branch-and-bound prunes by the bounds it learns when it learns them (S-12); {units} nodes examined, {} sequentially (optimum {opt}: see optimum_found, prune_sound)",
                self.expected.t_seq
            ));
        }
        let Reference { fp: want_fp, t_seq, .. } = self.expected;
        if self.stopped {
            let lost =
                format!("work lost: the sequential run does more than the trace's {units} units (fingerprint {fp})");
            return Verdict::fail(format!("{lost}; it was stopped after {t_seq}"), None);
        }
        if units == t_seq && fp == want_fp {
            return Verdict::pass(format!("{units} units, fingerprint {fp}, as in the sequential run"));
        }
        let detail = format!(
            "{}: expected {t_seq} units (fingerprint {want_fp}), got {units} units (fingerprint {fp})",
            self.what_went_wrong()
        );
        Verdict::fail(detail, self.over_line)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;

    const NAME: &str = WorkConserved::NAME;

    #[test]
    fn correct_streams_pass() {
        assert_passes(NAME, &run(1, single_pe()));
        assert_passes(NAME, &run(2, two_pes()));
    }

    #[test]
    fn lost_work_fails_at_the_end() {
        let reference = reference_of(&two_pes());
        let mut events = two_pes();
        events.retain(|e| !matches!(e, Event::Work { t: 15, .. }));
        let v = assert_fails(NAME, &run_ref(2, reference, events), None);
        assert!(v.detail.starts_with("work lost (10 units missing)"), "{}", v.detail);
    }

    #[test]
    fn duplicated_work_fails_where_it_exceeds_t_seq() {
        let reference = reference_of(&two_pes());
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Work { t: 2, .. }));
        events.insert(i + 1, events[i].clone());
        let last_work = position(&events, |e| matches!(e, Event::Work { t: 15, .. }));
        let v = assert_fails(NAME, &run_ref(2, reference, events), Some(line_of(last_work)));
        assert!(v.detail.starts_with("work duplicated (2 units too many)"), "{}", v.detail);
    }

    #[test]
    fn swapped_items_fail() {
        let reference = reference_of(&two_pes());
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Work { t: 2, .. }));
        events[i] = work(2, 0, 0, 2, 4); // items 2, 3 twice, 0, 1 never
        let v = assert_fails(NAME, &run_ref(2, reference, events), None);
        assert!(v.detail.contains("some work lost and other work duplicated"), "{}", v.detail);
    }
}
