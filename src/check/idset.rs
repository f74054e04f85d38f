//! A set of message ids stored as disjoint intervals, so that the ids of all
//! messages ever delivered cost memory in proportion to the gaps between
//! them, not to their number: a driver numbering messages 1, 2, 3, … leaves
//! about one gap per message in flight.

use std::collections::BTreeMap;

/// A set of `u64`s as disjoint, non-adjacent inclusive intervals.
#[derive(Clone, Debug, Default)]
pub(super) struct IdSet {
    /// Interval start → inclusive end.
    runs: BTreeMap<u64, u64>,
}

impl IdSet {
    /// The interval holding `x`, if any, as (start, end).
    fn run_of(&self, x: u64) -> Option<(u64, u64)> {
        let (&s, &e) = self.runs.range(..=x).next_back()?;
        (e >= x).then_some((s, e))
    }

    /// True if `x` is in the set.
    pub(super) fn contains(&self, x: u64) -> bool {
        self.run_of(x).is_some()
    }

    /// Adds `x`; false if it was there already.
    pub(super) fn insert(&mut self, x: u64) -> bool {
        if self.contains(x) {
            return false;
        }
        let below = x.checked_sub(1).and_then(|p| self.run_of(p)).map(|(s, _)| s);
        let above = x.checked_add(1).and_then(|n| self.runs.remove(&n));
        let start = below.unwrap_or(x);
        self.runs.insert(start, above.unwrap_or(x));
        true
    }

    /// Number of intervals (for tests).
    #[cfg(test)]
    fn runs(&self) -> usize {
        self.runs.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_ids_collapse_to_one_run() {
        let mut s = IdSet::default();
        for x in [3, 1, 2, 5, 4, 0] {
            assert!(s.insert(x));
        }
        assert_eq!(s.runs(), 1);
        assert!(!s.insert(4));
        assert!(s.contains(0) && s.contains(5) && !s.contains(6));
    }

    #[test]
    fn gaps_are_kept_apart() {
        let mut s = IdSet::default();
        for x in [10, 12, u64::MAX, 0] {
            assert!(s.insert(x));
        }
        assert_eq!(s.runs(), 4);
        assert!(!s.contains(11) && s.contains(12) && s.contains(u64::MAX));
        assert!(s.insert(11));
        assert_eq!(s.runs(), 3);
        assert!((10..=12).all(|x| s.contains(x)) && !s.contains(9) && !s.contains(13));
    }
}
