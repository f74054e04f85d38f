//! The initial broadcast of 002 §3: every PE receives the root and splits it
//! locally into (up to) P parts, keeping its own. Splitting is breadth-first
//! and deterministic, so every PE computes the same partition; each part's
//! energy (003 §14.7.4 rule 3) is halved along its splits, which keeps it
//! dyadic and exact for any P. A root that cannot be split into P parts (a
//! UTS root is one node) leaves the remaining PEs without work.

use std::collections::VecDeque;

use crate::base::Fraction;
use crate::problem::Subproblem;

/// The parts of `root` for PEs `0..`, with their energy shares (at most `pes`).
pub fn local_parts<T: Subproblem>(root: T, pes: u32) -> Vec<(T, Fraction)> {
    let mut open = VecDeque::from([(root, Fraction::one())]);
    let mut atomic = Vec::new();
    while open.len() + atomic.len() < pes as usize {
        let Some((mut t, e)) = open.pop_front() else { break };
        match t.split() {
            Some(other) => {
                let half = e.half();
                open.push_back((t, half.clone()));
                open.push_back((other, half));
            }
            None => atomic.push((t, e)),
        }
    }
    atomic.extend(open);
    atomic
}

/// `root` split breadth-first into at most `pes` parts (003 §14.7's
/// Generate, energy aside).
pub fn parts<T: Subproblem>(root: T, pes: u32) -> Vec<T> {
    local_parts(root, pes).into_iter().map(|(t, _)| t).collect()
}

/// Every PE's start: its part (if any) and, with the initial split, the
/// part's energy share (zero for a PE left without a part). Without the
/// split PE 0 gets the root and no PE a share (energy starts at PE 0).
pub fn assign<T: Subproblem>(root: T, pes: u32, split: bool) -> Vec<(Option<T>, Option<Fraction>)> {
    let n = pes as usize;
    let mut out: Vec<(Option<T>, Option<Fraction>)> = Vec::with_capacity(n);
    if split {
        out.extend(local_parts(root, pes).into_iter().map(|(t, e)| (Some(t), Some(e))));
        out.resize_with(n, || (None, Some(Fraction::zero())));
    } else {
        out.push((Some(root), None));
        out.resize_with(n, || (None, None));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{dfs::Strategy, Workload};

    #[test]
    fn parts_cover_the_root_and_energy_sums_to_one() {
        let w: Workload = "synthetic:size=1000,atomic=1,split=uniform,seed=1".parse().unwrap();
        let parts = local_parts(w.root(Strategy::default()), 7);
        assert_eq!(parts.len(), 7);
        let energy = parts.iter().fold(Fraction::zero(), |a, (_, e)| &a + e);
        assert!(energy.is_one());
        let total: u64 = parts.into_iter().map(|(t, _)| crate::problem::sequential::run(t).work).sum();
        assert_eq!(total, 1000);
    }

    #[test]
    fn assign_gives_every_pe_a_start() {
        let w: Workload = "synthetic:size=3,atomic=1".parse().unwrap();
        for pes in [1, 2, 5] {
            let split = assign(w.root(Strategy::default()), pes, true);
            assert_eq!(split.len(), pes as usize);
            let energy = split.iter().fold(Fraction::zero(), |a, (_, e)| &a + e.as_ref().expect("a share"));
            assert!(energy.is_one(), "P={pes}");
            let holders = split.iter().filter(|(t, _)| t.is_some()).count();
            assert_eq!(holders, pes.min(3) as usize, "size 3 splits into at most 3 parts");
            let root_only = assign(w.root(Strategy::default()), pes, false);
            assert!(root_only[0].0.is_some() && root_only.iter().all(|(_, e)| e.is_none()));
            assert!(root_only[1..].iter().all(|(t, _)| t.is_none()));
        }
    }
}
