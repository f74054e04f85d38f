//! SIMD phase load balancing (000 §1.1, 000-7; S-24; after Powley,
//! Ferguson and Korf \[21\] and Karypis and Kumar \[10\]): all PEs work in
//! global phases of T_phase units; at a barrier where a triggering
//! condition holds (here: at least half of the PEs idle) a load-balancing
//! phase matches communication partners "by enumerating the busy and idle
//! PEs respectively" with prefix sums: the i-th idle PE (in PE order) asks
//! the i-th busy PE, which splits its subproblem and sends a part (or
//! rejects, if it cannot split). No permutation, no dimensions.
//!
//! The schedule (phases, barriers, the prefix sums' cost) is the phased
//! machine's ([`crate::sim::phased::simd`]); this file holds the rules a
//! variant may change ([`SimdRules`]).

use super::PeId;

/// The steps of SIMD phase balancing a variant may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimdRules {
    /// Match the i-th idle PE with the i-th busy PE (else every idle PE
    /// asks the first busy PE: mutant `simd-match-first-busy`).
    pub prefix_matching: bool,
}

impl SimdRules {
    /// 000 §1.1.
    pub const PAPER: SimdRules = SimdRules { prefix_matching: true };

    /// The triggering condition at a barrier with `idle` of `pes` PEs idle
    /// and some PE busy: at least half idle (a static trigger, \[21\]).
    pub fn triggered(idle: usize, pes: usize) -> bool {
        idle > 0 && 2 * idle >= pes
    }

    /// The (asker, asked) pairs of a load-balancing phase: `idle` and
    /// `busy` are the idle and busy PEs in increasing order.
    pub fn matching(&self, idle: &[PeId], busy: &[PeId]) -> Vec<(PeId, PeId)> {
        match self.prefix_matching {
            true => idle.iter().copied().zip(busy.iter().copied()).collect(),
            false => idle.iter().take(busy.len()).map(|&k| (k, busy[0])).collect(),
        }
    }
}

/// The prefix sums' message steps: an up- and a down-sweep of a binary
/// tree over `pes` PEs, 2·⌈log2 P⌉.
pub fn prefix_steps(pes: u32) -> u64 {
    2 * u64::from(pes.next_power_of_two().trailing_zeros())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ith_idle_asks_the_ith_busy() {
        let (idle, busy) = ([0, 2, 5], [1, 3]);
        assert_eq!(SimdRules::PAPER.matching(&idle, &busy), vec![(0, 1), (2, 3)]);
        let first = SimdRules { prefix_matching: false };
        assert_eq!(first.matching(&idle, &busy), vec![(0, 1), (2, 1)]);
        assert!(SimdRules::triggered(4, 8) && !SimdRules::triggered(3, 8) && !SimdRules::triggered(0, 1));
        assert_eq!(prefix_steps(1024), 20);
        assert_eq!(prefix_steps(1), 0);
    }
}
