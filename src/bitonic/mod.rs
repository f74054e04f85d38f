//! Bitonic sort (003 §14.3–14.4, §14.10; COVERAGE.md S-25): the serial
//! sorting network and its hypercube version by merge-split, with the
//! properties every parallel run is checked against. Not load balancing,
//! but in the papers lbcheck is the reference for.
//!
//! - [`serial`]: for len = 2, 4, …, n, blocks of len alternately
//!   increasing and decreasing, each a bitonic merge (003 §14.3).
//! - [`hypercube`]: p = 2^d ranks of n/p keys; local sort, then for set = 2,
//!   4, …, p a merge-split with partner rank ^ eor for eor = set/2, …, 1, the
//!   direction given by rank & set (003 §14.4).
//! - [`check`]: sorted, n/p keys per rank, the multiset kept, only
//!   hypercube neighbours exchanging, d(d+1)/2 merge-split stages.
//!
//! The mutants `merge-split-swapped-decr`, `and-bit-half` and
//! `merge-drops-duplicates` are [`Rules`] seams of the hypercube version.

pub mod check;
pub mod hypercube;
pub mod serial;

/// A direction of a (sub)sort.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Increasing.
    Incr,
    /// Decreasing.
    Decr,
}

/// The steps of the hypercube version where a variant may change them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// `merge-split-swapped-decr`: the DECR routine keeps the wrong half.
    pub swapped_decr: bool,
    /// `and-bit-half`: the direction bit is set/2 instead of set.
    pub and_bit_half: bool,
    /// `merge-drops-duplicates`: the merge keeps one of equal keys.
    pub drops_duplicates: bool,
}

impl Rules {
    /// 003 §14.4 as written.
    pub const PAPER: Rules = Rules { swapped_decr: false, and_bit_half: false, drops_duplicates: false };
}

/// `n` keys drawn from the stream of `seed`, uniform in 0..max(n/2, 1)
/// (so duplicates are likely: a merge that drops them is caught).
pub fn keys(n: usize, seed: u64) -> Vec<u64> {
    use rand::Rng;
    let mut rng = crate::base::rng::stream(seed, 0, crate::base::rng::Purpose::Keys);
    (0..n).map(|_| rng.random_range(0..(n as u64 / 2).max(1))).collect()
}

/// The order of an input: the drawn keys as drawn, or already sorted, or
/// reversed (the two inputs a merge-split network meets at its extremes:
/// every exchange keeps its keys, or every one swaps them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// As drawn ([`keys`]).
    #[default]
    Random,
    /// Sorted increasing.
    Sorted,
    /// Sorted decreasing.
    Reversed,
}

impl std::fmt::Display for Order {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Order::Random => "random",
            Order::Sorted => "sorted",
            Order::Reversed => "reversed",
        })
    }
}

/// [`keys`]`(n, seed)` put in `order` (`lbcheck bitonic --order`).
pub fn input(n: usize, seed: u64, order: Order) -> Vec<u64> {
    let mut k = keys(n, seed);
    match order {
        Order::Random => {}
        Order::Sorted => k.sort_unstable(),
        Order::Reversed => k.sort_unstable_by(|a, b| b.cmp(a)),
    }
    k
}
