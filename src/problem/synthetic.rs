//! Synthetic tree-shaped computations with exact sizes and adversarial split
//! policies (002 §2 model; the α-splitting model; 000 Fig. 3 / §6.1).
//!
//! A subproblem is the interval `lo..hi` of the root's work units (size
//! `hi - lo`) plus its generation; work consumes units from `lo`. A subproblem
//! of size ≤ T_atomic is atomic. The split policy is the adversary: it decides
//! how many units the split gives away. Every policy has a non-decreasing
//! `max_part(s)` (the largest part a split of size `s` can leave), so the
//! splitting depth `h` is the number of iterations of `max_part` from T_seq
//! until the size is ≤ T_atomic: after `h` splits no subproblem is larger.

use serde::Serialize;

use super::{Subproblem, WorkLog};
use crate::base::hash::mix64;

/// How a split divides a subproblem of size `s > T_atomic` (the adversary).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Policy {
    /// Gives away a pseudo-random `k` in `[max(1, s/4), s - max(1, s/4)]`,
    /// drawn from (seed, interval, generation).
    Uniform,
    /// Gives away `floor(s·num/den)` (clamped to `1..s`): the α-splitting model.
    Alpha {
        /// Numerator of α.
        num: u64,
        /// Denominator of α.
        den: u64,
    },
    /// Gives away one unit: maximally unbalanced, h = T_seq − T_atomic.
    Peel,
    /// Gives away `floor(s/2)`.
    Balanced,
    /// 000 Fig. 3 / §6.1: a balanced top splits the root into `branches`
    /// parts; each then peels `spine` negligible atomic pieces (T_atomic units
    /// each, given away) before its rest, a large triangle, splits balanced.
    Fig3 {
        /// Number of large triangles (n/2 for n PEs), a power of two.
        branches: u32,
        /// Number of negligible pieces peeled off each branch.
        spine: u32,
    },
}

/// Where a 000 Fig. 3 subproblem stands in the splitting tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// In the balanced top, with this many branches still to separate.
    Top(u32),
    /// On a spine, with this many pieces left to peel.
    Spine(u32),
    /// In a large triangle (and the phase of every non-Fig. 3 policy).
    Large,
}

/// The fixed parameters shared by every subproblem of one synthetic root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SynthConfig {
    /// T_seq: the root's size in work units.
    pub size: u64,
    /// T_atomic: subproblems of at most this size are not split.
    pub atomic: u64,
    /// The adversary's split policy.
    pub policy: Policy,
    /// Seed of the adversary's choices (only `Uniform` draws).
    pub seed: u64,
}

/// One synthetic subproblem: the units `lo..hi` of the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SynthTask {
    lo: u64,
    hi: u64,
    gen: u32,
    phase: Phase,
    cfg: SynthConfig,
}

impl SynthConfig {
    /// The root subproblem (generation 0).
    pub fn root(&self) -> SynthTask {
        let phase = match self.policy {
            Policy::Fig3 { branches, spine } => initial_phase(branches, spine),
            _ => Phase::Large,
        };
        SynthTask { lo: 0, hi: self.size, gen: 0, phase, cfg: *self }
    }

    /// The splitting depth h this workload guarantees: every subproblem of
    /// generation ≥ h has size ≤ T_atomic (001 §1.2).
    pub fn h(&self) -> u64 {
        match self.policy {
            Policy::Peel => self.size.saturating_sub(self.atomic),
            Policy::Fig3 { branches, spine } => self.fig3_h(branches, spine),
            _ => iterations_to_atomic(self.size, self.atomic, |s| self.max_part(s, Phase::Large)),
        }
    }

    /// 000 Fig. 3 (S-21): (branches · spine, L_min) — the peels every
    /// branch needs before its large triangle can be shared, and the size
    /// of the smallest large triangle; `None` for other policies.
    pub fn fig3_transfers(&self) -> Option<(u64, u64)> {
        let Policy::Fig3 { branches, spine } = self.policy else { return None };
        let mut smallest = self.size;
        for _ in 0..branches.trailing_zeros() {
            let k = self.give(smallest, Phase::Top(2), 0);
            smallest = k.min(smallest - k);
        }
        for _ in 0..spine {
            if smallest <= self.atomic {
                break;
            }
            smallest -= self.give(smallest, Phase::Spine(1), 0);
        }
        Some((u64::from(branches) * u64::from(spine), smallest))
    }

    fn fig3_h(&self, branches: u32, spine: u32) -> u64 {
        let top = branches.trailing_zeros() as u64;
        let mut s = self.size;
        for _ in 0..top {
            s = s.div_ceil(2);
        }
        let mut h = top;
        for _ in 0..spine {
            if s <= self.atomic {
                return h;
            }
            s -= self.atomic.min(s - 1);
            h += 1;
        }
        h + iterations_to_atomic(s, self.atomic, |s| s.div_ceil(2))
    }

    /// Units a split of a size-`s` subproblem in `phase` gives away.
    fn give(&self, s: u64, phase: Phase, draw: u64) -> u64 {
        let k = match (self.policy, phase) {
            (Policy::Fig3 { .. }, Phase::Spine(_)) => self.atomic,
            (Policy::Uniform, _) => {
                let q = (s / 4).max(1);
                q + draw % (s - 2 * q + 1)
            }
            (Policy::Alpha { num, den }, _) => ((s as u128 * num as u128) / den as u128) as u64,
            (Policy::Peel, _) => 1,
            _ => s / 2,
        };
        k.clamp(1, s - 1)
    }

    /// The largest part a split of size `s` can leave (non-decreasing in `s`).
    fn max_part(&self, s: u64, phase: Phase) -> u64 {
        match self.policy {
            Policy::Uniform => s - (s / 4).max(1),
            _ => {
                let k = self.give(s, phase, 0);
                k.max(s - k)
            }
        }
    }
}

fn initial_phase(branches: u32, spine: u32) -> Phase {
    match (branches, spine) {
        (b, _) if b > 1 => Phase::Top(b),
        (_, 0) => Phase::Large,
        (_, l) => Phase::Spine(l),
    }
}

fn iterations_to_atomic(mut s: u64, atomic: u64, f: impl Fn(u64) -> u64) -> u64 {
    let mut h = 0;
    while s > atomic {
        s = f(s);
        h += 1;
    }
    h
}

impl SynthTask {
    /// Remaining size in work units.
    pub fn size(&self) -> u64 {
        self.hi - self.lo
    }

    fn draw(&self) -> u64 {
        mix64(self.cfg.seed ^ mix64(self.lo ^ mix64(self.hi ^ mix64(self.gen as u64))))
    }

    /// Phases of the (kept, given) parts after a split.
    fn child_phases(&self) -> (Phase, Phase) {
        match self.phase {
            Phase::Top(b) => {
                let Policy::Fig3 { spine, .. } = self.cfg.policy else { unreachable!("Top phase outside Fig3") };
                let p = initial_phase(b / 2, spine);
                (p, p)
            }
            Phase::Spine(l) if l > 1 => (Phase::Spine(l - 1), Phase::Large),
            _ => (Phase::Large, Phase::Large),
        }
    }
}

impl Subproblem for SynthTask {
    fn work(&mut self, budget: u64, log: &mut WorkLog) -> u64 {
        let done = budget.min(self.size());
        log.fp.add_range(self.lo, self.lo + done);
        self.lo += done;
        done
    }

    fn split(&mut self) -> Option<SynthTask> {
        let s = self.size();
        if s <= self.cfg.atomic || s < 2 {
            return None;
        }
        let k = self.cfg.give(s, self.phase, self.draw());
        let (keep, given) = self.child_phases();
        self.gen += 1;
        let other = SynthTask { lo: self.hi - k, hi: self.hi, gen: self.gen, phase: given, cfg: self.cfg };
        self.hi -= k;
        self.phase = keep;
        Some(other)
    }

    fn split_small(&mut self) -> Option<SynthTask> {
        if self.size() <= self.cfg.atomic || self.size() < 2 {
            return None;
        }
        self.gen += 1;
        self.hi -= 1;
        Some(SynthTask { lo: self.hi, hi: self.hi + 1, gen: self.gen, phase: Phase::Large, cfg: self.cfg })
    }

    fn is_empty(&self) -> bool {
        self.lo == self.hi
    }

    fn generation(&self) -> u32 {
        self.gen
    }
}

/// On the wire (MPI): the interval, generation and phase; the
/// configuration is the template's.
impl super::wire::Wire for SynthTask {
    fn encode(&self, out: &mut Vec<u8>) {
        use super::wire::Put;
        out.put_u64(self.lo);
        out.put_u64(self.hi);
        out.put_u32(self.gen);
        let (tag, n) = match self.phase {
            Phase::Top(n) => (0, n),
            Phase::Spine(n) => (1, n),
            Phase::Large => (2, 0),
        };
        out.put_u8(tag);
        out.put_u32(n);
    }

    fn decode(template: &Self, r: &mut super::wire::Reader<'_>) -> Result<Self, super::wire::WireError> {
        let (lo, hi, gen) = (r.u64()?, r.u64()?, r.u32()?);
        let phase = match (r.u8()?, r.u32()?) {
            (0, n) => Phase::Top(n),
            (1, n) => Phase::Spine(n),
            (2, _) => Phase::Large,
            (t, _) => return Err(super::wire::WireError(format!("synthetic phase tag {t}"))),
        };
        if lo > hi {
            return Err(super::wire::WireError(format!("interval {lo}..{hi}")));
        }
        Ok(SynthTask { lo, hi, gen, phase, cfg: template.cfg })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(size: u64, atomic: u64, policy: Policy) -> SynthConfig {
        SynthConfig { size, atomic, policy, seed: 7 }
    }

    #[test]
    fn balanced_h_is_ceil_log2() {
        assert_eq!(cfg(1024, 1, Policy::Balanced).h(), 10);
        assert_eq!(cfg(1025, 1, Policy::Balanced).h(), 11);
        assert_eq!(cfg(1000, 8, Policy::Balanced).h(), 7); // 1000→500→250→125→63→32→16→8
        assert_eq!(cfg(5, 5, Policy::Balanced).h(), 0);
    }

    #[test]
    fn peel_gives_one_unit() {
        let mut t = cfg(10, 1, Policy::Peel).root();
        let o = t.split().unwrap();
        assert_eq!((t.size(), o.size(), t.generation(), o.generation()), (9, 1, 1, 1));
        assert_eq!(cfg(10, 1, Policy::Peel).h(), 9);
    }

    #[test]
    fn split_small_gives_one_unit() {
        let mut t = cfg(10, 2, Policy::Balanced).root();
        let o = t.split_small().unwrap();
        assert_eq!((t.size(), o.size(), t.generation(), o.generation()), (9, 1, 1, 1));
        assert!(cfg(2, 2, Policy::Balanced).root().split_small().is_none());
    }

    #[test]
    fn fig3_gives_negligible_pieces_on_the_spine() {
        let c = cfg(1 << 12, 4, Policy::Fig3 { branches: 2, spine: 3 });
        let mut t = c.root();
        let half = t.split().unwrap();
        assert_eq!(half.size(), 1 << 11);
        let piece = t.split().unwrap();
        assert_eq!(piece.size(), 4);
        assert_eq!(c.h(), 1 + 3 + 9); // top, spine, then 2036 halves to ≤ 4 in 9 steps
    }
}
