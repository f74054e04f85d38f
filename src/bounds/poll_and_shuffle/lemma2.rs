//! 000 Lemma 2 (S-2): in a phase i < log n − log2(2/γ) with at least γn
//! idle PEs at its barrier, each nonempty subproblem receives a request
//! with probability at least γ/2. In the phased machine no work arrives
//! during a phase, so "≥ γn idle at some point of the phase" is "≥ γn idle
//! at its barrier", and every idle PE asks its partner there.
//!
//! Events of one subproblem within a run are dependent, so each run
//! contributes one Bernoulli trial: a uniformly random qualifying barrier,
//! and in it a uniformly random nonempty subproblem (S-2's "pool one
//! (random S, random qualifying phase) per run").

use crate::event::{Event, Kind};
use crate::protocol::PeId;

/// γ of the claim (S-2 allows 1/4 or 1/2).
pub const GAMMA: f64 = 0.5;

/// The barriers of one run, as seen in its event stream.
pub struct Barriers {
    pes: u32,
    /// The open barrier: (time, phase number).
    open: Option<(u64, u32)>,
    askers: Vec<bool>,
    asked: Vec<bool>,
    /// Per qualifying barrier: (nonempty subproblems asked, nonempty subproblems).
    qualifying: Vec<(u32, u32)>,
}

impl Barriers {
    /// No barrier seen yet, on `pes` PEs.
    pub fn new(pes: u32) -> Self {
        let n = pes as usize;
        Barriers { pes, open: None, askers: vec![false; n], asked: vec![false; n], qualifying: Vec::new() }
    }

    /// Takes one event of the stream (time order).
    pub fn observe(&mut self, e: &Event) {
        match *e {
            Event::Phase { t, phase, pe: None, .. } => {
                self.close();
                self.open = Some((t, phase));
            }
            Event::Send { t, from, to, kind: Kind::Request, .. } if self.open.is_some_and(|(b, _)| b == t) => {
                self.mark(from, to);
            }
            Event::End { .. } => self.close(),
            _ => {}
        }
    }

    fn mark(&mut self, from: PeId, to: PeId) {
        if let (Some(a), Some(b)) = (self.askers.get_mut(from as usize), self.asked.get_mut(to as usize)) {
            (*a, *b) = (true, true);
        }
    }

    /// Ends the open barrier: kept if it qualifies (phase i < D − log2(2/γ), ≥ γn idle).
    fn close(&mut self) {
        let Some((_, phase)) = self.open.take() else { return };
        let d = self.pes.trailing_zeros();
        let idle = self.askers.iter().filter(|&&a| a).count() as u32;
        let nonempty = self.pes - idle;
        let hit = self.asked.iter().zip(&self.askers).filter(|(&b, &a)| b && !a).count() as u32;
        let early = f64::from(phase) < f64::from(d) - (2.0 / GAMMA).log2();
        if early && f64::from(idle) >= GAMMA * f64::from(self.pes) && nonempty > 0 {
            self.qualifying.push((hit, nonempty));
        }
        self.askers.iter_mut().chain(self.asked.iter_mut()).for_each(|x| *x = false);
    }

    /// The qualifying barriers seen (000 Lemma 3's phases: number i < D −
    /// log2(2/γ), ≥ γn idle), over the whole run.
    pub fn qualifying(&self) -> usize {
        self.qualifying.len()
    }

    /// The run's trial: `below(n)` draws uniformly from 0..n; `None` if no
    /// barrier qualified.
    pub fn pick(&self, mut below: impl FnMut(u32) -> u32) -> Option<bool> {
        let count = u32::try_from(self.qualifying.len()).ok().filter(|&c| c > 0)?;
        let (hit, nonempty) = self.qualifying[below(count) as usize];
        Some(below(nonempty) < hit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(t: u64, from: PeId, to: PeId) -> Event {
        Event::Send { t, from, to, id: 0, kind: Kind::Request, energy: None, data: None }
    }

    /// n = 16 (D = 4): phase 1 < 4 − 2 qualifies; 12 idle PEs ask, 3 of
    /// the 4 nonempty subproblems are asked; phase 2 does not qualify.
    #[test]
    fn a_qualifying_barrier_counts_asked_subproblems() {
        let mut b = Barriers::new(16);
        b.observe(&Event::Phase { t: 10, cycle: 0, phase: 1, pe: None });
        for k in 4..16 {
            b.observe(&request(10, k, if k < 7 { k - 4 } else { k ^ 2 }));
        }
        b.observe(&request(11, 3, 0)); // not at the barrier
        b.observe(&Event::Phase { t: 20, cycle: 0, phase: 2, pe: None });
        (4..16).for_each(|k| b.observe(&request(20, k, k ^ 4)));
        b.observe(&Event::End { t: 30 });
        assert_eq!((b.qualifying(), &b.qualifying), (1, &vec![(3, 4)]));
        assert_eq!(b.pick(|n| n - 1), Some(false)); // S = the 4th: not asked
        assert_eq!(b.pick(|_| 0), Some(true));
    }
}
