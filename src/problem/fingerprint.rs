//! Order-independent, mergeable summary of the work done (issue "Foundation" item 3).
//!
//! A [`Fingerprint`] is a count of work units plus the wrapping power sums
//! Σx, Σx², Σx³ (mod 2^64) over the identities `x` of the items worked on
//! (UTS node hashes, synthetic unit indices, loop iteration indices). Addition
//! is commutative and associative, so any split-up run of a root merges to the
//! sequential run's fingerprint exactly when the same multiset of items was
//! worked: a lost or duplicated item changes the count, and a swap of items that
//! keeps the count also has to keep three power sums, which for fewer than four
//! swapped items forces the same multiset (Prouhet–Tarry–Escott).

use std::fmt;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

/// Order-independent summary of a multiset of work items.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fingerprint {
    /// Work units (for tree workloads: nodes).
    pub units: u64,
    /// Σ x over item identities, wrapping.
    pub s1: u64,
    /// Σ x², wrapping.
    pub s2: u64,
    /// Σ x³, wrapping.
    pub s3: u64,
}

impl Fingerprint {
    /// The empty fingerprint (no work).
    pub const EMPTY: Fingerprint = Fingerprint { units: 0, s1: 0, s2: 0, s3: 0 };

    /// Records one item with identity `x` that cost `units` work units.
    #[inline]
    pub fn add_item(&mut self, x: u64, units: u64) {
        let x2 = x.wrapping_mul(x);
        self.units += units;
        self.s1 = self.s1.wrapping_add(x);
        self.s2 = self.s2.wrapping_add(x2);
        self.s3 = self.s3.wrapping_add(x2.wrapping_mul(x));
    }

    /// Records the unit-cost items `lo..hi` in O(1) (closed-form power sums).
    pub fn add_range(&mut self, lo: u64, hi: u64) {
        debug_assert!(lo <= hi);
        let (a, b) = (power_sums(lo), power_sums(hi));
        self.units += hi - lo;
        self.s1 = self.s1.wrapping_add(b.0.wrapping_sub(a.0));
        self.s2 = self.s2.wrapping_add(b.1.wrapping_sub(a.1));
        self.s3 = self.s3.wrapping_add(b.2.wrapping_sub(a.2));
    }

    /// Parses the form printed by `Display` (`units-s1s2s3` in hex).
    pub fn parse(s: &str) -> Option<Fingerprint> {
        let (units, sums) = s.split_once('-')?;
        if sums.len() != 48 || !sums.is_ascii() {
            return None;
        }
        let word = |i: usize| u64::from_str_radix(&sums[16 * i..16 * (i + 1)], 16).ok();
        Some(Fingerprint { units: units.parse().ok()?, s1: word(0)?, s2: word(1)?, s3: word(2)? })
    }
}

/// (Σ i, Σ i², Σ i³) over `0..n`, each mod 2^64.
fn power_sums(n: u64) -> (u64, u64, u64) {
    let n = n as u128;
    if n == 0 {
        return (0, 0, 0);
    }
    let tri = n * (n - 1) / 2; // exact: n(n-1) < 2^128
    let s1 = tri as u64;
    // Σ i² = (n-1)·n·(2n-1)/6: divide the factors by 2 and 3 before multiplying.
    let mut f = [n - 1, n, 2 * n - 1];
    divide_one(&mut f, 2);
    divide_one(&mut f, 3);
    let s2 = (f[0] as u64).wrapping_mul(f[1] as u64).wrapping_mul(f[2] as u64);
    (s1, s2, s1.wrapping_mul(s1))
}

fn divide_one(factors: &mut [u128; 3], d: u128) {
    let f = factors.iter_mut().find(|f| **f % d == 0).expect("one of three consecutive-ish factors divides");
    *f /= d;
}

impl AddAssign for Fingerprint {
    fn add_assign(&mut self, o: Fingerprint) {
        self.units += o.units;
        self.s1 = self.s1.wrapping_add(o.s1);
        self.s2 = self.s2.wrapping_add(o.s2);
        self.s3 = self.s3.wrapping_add(o.s3);
    }
}

impl Add for Fingerprint {
    type Output = Fingerprint;
    fn add(mut self, o: Fingerprint) -> Fingerprint {
        self += o;
        self
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{:016x}{:016x}{:016x}", self.units, self.s1, self.s2, self.s3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_equals_items() {
        for (lo, hi) in [(0, 0), (0, 1), (3, 17), (1000, 1003), (u64::MAX - 5, u64::MAX)] {
            let mut by_range = Fingerprint::EMPTY;
            by_range.add_range(lo, hi);
            let mut by_item = Fingerprint::EMPTY;
            (lo..hi).for_each(|x| by_item.add_item(x, 1));
            assert_eq!(by_range, by_item, "{lo}..{hi}");
        }
    }

    #[test]
    fn lost_or_duplicated_item_changes_it() {
        let mut whole = Fingerprint::EMPTY;
        whole.add_range(0, 100);
        let mut swapped = Fingerprint::EMPTY;
        swapped.add_range(0, 99);
        swapped.add_item(98, 1); // 99 lost, 98 done twice
        assert_ne!(whole, swapped);
    }

    #[test]
    fn display_parses_back() {
        let mut f = Fingerprint::EMPTY;
        f.add_range(5, 77);
        assert_eq!(Fingerprint::parse(&f.to_string()), Some(f));
        assert_eq!(Fingerprint::parse("12-zz"), None);
    }
}
