//! Interval loop scheduling as a tree-shaped computation (002 §4.2).
//!
//! A subproblem is the interval `lo..hi` of loop iterations not yet done;
//! splitting gives away the upper half of the remaining interval, and one
//! iteration is atomic (it is never cut). Iterations cost irregular amounts
//! of work given by a [`CostProfile`], drawn per index from the seed.

use serde::Serialize;

use super::{Subproblem, WorkLog};
use crate::base::hash::mix64;

/// Per-iteration cost profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum CostProfile {
    /// Every iteration costs this many units.
    Constant(u64),
    /// Pareto-like heavy tail: cost 2^k with P(k ≥ j) = 2^−j, k ≤ 20.
    Heavy,
    /// Iteration `i` costs `i + 1` (a triangular loop nest).
    Triangle,
}

/// The cost profile names `loop:...,cost=` takes.
pub const PROFILES: &str = "const (1 unit), const:<units>, heavy, triangle";

/// The fixed parameters of one loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LoopConfig {
    /// Number of iterations.
    pub n: u64,
    /// Cost of each iteration.
    pub profile: CostProfile,
    /// Seed of the heavy-tailed costs.
    pub seed: u64,
}

impl LoopConfig {
    /// Work units of iteration `i`.
    #[inline]
    pub fn cost(&self, i: u64) -> u64 {
        match self.profile {
            CostProfile::Constant(c) => c,
            CostProfile::Heavy => 1 << mix64(self.seed ^ mix64(i)).trailing_zeros().min(20),
            CostProfile::Triangle => i + 1,
        }
    }

    /// The whole loop as one subproblem.
    pub fn root(&self) -> LoopTask {
        LoopTask { lo: 0, hi: self.n, gen: 0, cfg: *self }
    }

    /// T_atomic: the cost of the most expensive iteration.
    pub fn t_atomic(&self) -> u64 {
        match self.profile {
            CostProfile::Triangle => self.n,
            _ => (0..self.n).map(|i| self.cost(i)).max().unwrap_or(0),
        }
    }

    /// h: halving `n` iterations reaches single iterations after ⌈log2 n⌉ splits.
    pub fn h(&self) -> u64 {
        self.n.max(1).next_power_of_two().trailing_zeros() as u64
    }
}

/// One loop subproblem: the iterations `lo..hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopTask {
    lo: u64,
    hi: u64,
    gen: u32,
    cfg: LoopConfig,
}

impl Subproblem for LoopTask {
    fn work(&mut self, budget: u64, log: &mut WorkLog) -> u64 {
        let mut done = 0;
        while done < budget && self.lo < self.hi {
            let c = self.cfg.cost(self.lo);
            log.fp.add_item(self.lo, c);
            done += c;
            self.lo += 1;
        }
        done
    }

    fn split(&mut self) -> Option<LoopTask> {
        if self.hi - self.lo < 2 {
            return None;
        }
        let mid = self.lo + (self.hi - self.lo) / 2;
        self.gen += 1;
        let other = LoopTask { lo: mid, hi: self.hi, gen: self.gen, cfg: self.cfg };
        self.hi = mid;
        Some(other)
    }

    fn split_small(&mut self) -> Option<LoopTask> {
        if self.hi - self.lo < 2 {
            return None;
        }
        self.gen += 1;
        self.hi -= 1;
        Some(LoopTask { lo: self.hi, hi: self.hi + 1, gen: self.gen, cfg: self.cfg })
    }

    fn is_empty(&self) -> bool {
        self.lo == self.hi
    }

    fn generation(&self) -> u32 {
        self.gen
    }
}

/// On the wire (MPI): the interval and generation; the configuration is
/// the template's.
impl super::wire::Wire for LoopTask {
    fn encode(&self, out: &mut Vec<u8>) {
        use super::wire::Put;
        out.put_u64(self.lo);
        out.put_u64(self.hi);
        out.put_u32(self.gen);
    }

    fn decode(template: &Self, r: &mut super::wire::Reader<'_>) -> Result<Self, super::wire::WireError> {
        let (lo, hi, gen) = (r.u64()?, r.u64()?, r.u32()?);
        if lo > hi {
            return Err(super::wire::WireError(format!("interval {lo}..{hi}")));
        }
        Ok(LoopTask { lo, hi, gen, cfg: template.cfg })
    }
}
