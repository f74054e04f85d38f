//! A set of message ids stored as disjoint intervals, so that the ids of all
//! messages ever delivered cost memory in proportion to the gaps between
//! them, not to their number: a driver numbering messages 1, 2, 3, … leaves
//! about one gap per message in flight.

use std::collections::BTreeMap;

/// A set of `u64`s as disjoint, non-adjacent inclusive intervals.
#[derive(Clone, Debug, Default)]
pub(super) struct IdSet {
    /// Interval start → inclusive end, for the intervals below `top`.
    runs: BTreeMap<u64, u64>,
    /// The highest interval, kept apart: ids mostly arrive in increasing
    /// order and extend it, one comparison instead of three tree
    /// operations (issue 30). Every interval of `runs` ends below its
    /// start − 1.
    top: Option<(u64, u64)>,
}

impl IdSet {
    /// The interval of `runs` holding `x`, if any, as (start, end).
    fn run_of(&self, x: u64) -> Option<(u64, u64)> {
        let (&s, &e) = self.runs.range(..=x).next_back()?;
        (e >= x).then_some((s, e))
    }

    /// True if `x` is in the set. An id above the top interval (a new
    /// message's, as nearly always) is answered without the tree.
    pub(super) fn contains(&self, x: u64) -> bool {
        match self.top {
            Some((s, e)) => (s..=e).contains(&x) || (x < s && self.run_of(x).is_some()),
            None => false,
        }
    }

    /// Adds `x`; false if it was there already.
    pub(super) fn insert(&mut self, x: u64) -> bool {
        if self.contains(x) {
            return false;
        }
        let Some((start, end)) = self.top else {
            self.top = Some((x, x));
            return true;
        };
        if x > end {
            if x - end > 1 {
                self.runs.insert(start, end);
                self.top = Some((x, x));
            } else {
                self.top = Some((start, x));
            }
            return true;
        }
        // Below the top interval (x < start, so x + 1 does not overflow).
        let below = x.checked_sub(1).and_then(|p| self.run_of(p)).map(|(s, _)| s);
        if x + 1 == start {
            if let Some(b) = below {
                self.runs.remove(&b);
            }
            self.top = Some((below.unwrap_or(x), end));
        } else {
            let above = self.runs.remove(&(x + 1));
            self.runs.insert(below.unwrap_or(x), above.unwrap_or(x));
        }
        true
    }

    /// Number of intervals (for tests).
    #[cfg(test)]
    fn runs(&self) -> usize {
        self.runs.len() + usize::from(self.top.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    proptest! {
        /// The same answers as a set, and as few intervals as the set's
        /// runs of consecutive ids, whatever the order of the ids.
        #[test]
        fn agrees_with_a_set(ids in proptest::collection::vec(0..60u64, 1..200), tail in any::<bool>()) {
            let (mut s, mut want) = (IdSet::default(), BTreeSet::new());
            for x in ids.into_iter().map(|x| if tail { u64::MAX - x } else { x }) {
                prop_assert_eq!(s.insert(x), want.insert(x));
                let gaps = want.iter().zip(want.iter().skip(1)).filter(|(a, b)| **b - **a > 1).count();
                prop_assert_eq!(s.runs(), gaps + 1);
            }
            for x in 0..70u64 {
                for x in [x, u64::MAX - x] {
                    prop_assert_eq!(s.contains(x), want.contains(&x));
                }
            }
        }
    }

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
