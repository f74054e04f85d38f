//! An observer of the event stream for 001 Lemma 3: the number of requests
//! sent, and of *red* requests, until every live subproblem (held by a PE
//! or in transit) has generation ≥ h. Generations come from `split` events
//! (both parts get the new generation; the `send` of kind work that follows
//! from the same PE carries the part given away) and travel with the work
//! message's id; a subproblem dies when its PE goes `idle`. A busy PE that
//! answers a request with a `reject` could not split its atomic
//! subproblem: 000 §2.1 counts that as a split too (the subproblem plus an
//! empty one, generation + 1), so its generation rises (S-23, COVERAGE.md
//! D2). Once every live subproblem has generation ≥ h this stays so.
//!
//! Red requests are 001 Lemma 4's colouring of request arrivals (`recv` of
//! kind request, in time order): P consecutive arrivals are red, then every
//! arrival within T_dead = Δt + T_split + 2·T_rout of the last red one is
//! skipped, and so on; Lemma 3 bounds the red ones.

use std::collections::BTreeMap;

use crate::event::{Event, Kind};

/// Counts requests until all live subproblems reach generation `h`.
pub struct GenDepth {
    h: u64,
    held: Vec<Option<u32>>,
    pending: Vec<Option<u32>>,
    in_flight: BTreeMap<u64, u32>,
    low: u64,
    requests: u64,
    red: Red,
    /// (requests, red requests, time) when every live subproblem reached h.
    done: Option<(u64, u64, u64)>,
}

/// 001 Lemma 4's colouring of request arrivals.
struct Red {
    pes: u64,
    t_dead: u64,
    /// Red arrivals so far, and those of the current run of P.
    count: u64,
    in_batch: u64,
    last: u64,
}

impl Red {
    fn arrival(&mut self, t: u64) {
        if self.in_batch == self.pes && t < self.last.saturating_add(self.t_dead) {
            return; // within T_dead of the last red one: skipped
        }
        if self.in_batch == self.pes {
            self.in_batch = 0;
        }
        (self.count, self.in_batch, self.last) = (self.count + 1, self.in_batch + 1, t);
    }
}

impl GenDepth {
    /// For `pes` PEs, PE 0 holding the root (generation 0), with
    /// T_dead = Δt + T_split + 2·T_rout for the colouring.
    pub fn new(pes: u32, h: u64, t_dead: u64) -> GenDepth {
        let mut held = vec![None; pes as usize];
        held[0] = Some(0);
        let low = (h > 0) as u64;
        GenDepth {
            h,
            held,
            pending: vec![None; pes as usize],
            in_flight: BTreeMap::new(),
            low,
            requests: 0,
            red: Red { pes: u64::from(pes), t_dead, count: 0, in_batch: 0, last: 0 },
            done: None,
        }
    }

    fn is_low(&self, g: u32) -> u64 {
        (u64::from(g) < self.h) as u64
    }

    /// Feeds one event.
    pub fn observe(&mut self, e: &Event) {
        match *e {
            Event::Split { pe, gen, .. } => {
                self.regenerate(pe, gen);
                self.pending[pe as usize] = Some(gen);
            }
            Event::Send { from, kind: Kind::Reject, .. } => {
                if let Some(g) = self.held[from as usize] {
                    self.regenerate(from, g + 1); // a refused split of an atomic subproblem
                }
            }
            Event::Recv { t, kind: Kind::Request, .. } => self.red.arrival(t),
            Event::Send { from, id, kind: Kind::Work, .. } => {
                if let Some(g) = self.pending[from as usize].take() {
                    self.in_flight.insert(id, g);
                    self.low += self.is_low(g);
                }
            }
            Event::Send { kind: Kind::Request, .. } => self.requests += 1,
            Event::Recv { pe, id, kind: Kind::Work, .. } => {
                if let Some(g) = self.in_flight.remove(&id) {
                    self.held[pe as usize] = Some(g);
                }
            }
            Event::Idle { pe, .. } => {
                if let Some(g) = self.held[pe as usize].take() {
                    self.low -= self.is_low(g);
                }
            }
            _ => {}
        }
        if self.low == 0 && self.done.is_none() {
            self.done = Some((self.requests, self.red.count, e.time()));
        }
    }

    /// PE `pe`'s subproblem now has generation `gen`.
    fn regenerate(&mut self, pe: u32, gen: u32) {
        if let Some(old) = self.held[pe as usize].replace(gen) {
            self.low = self.low - self.is_low(old) + self.is_low(gen);
        }
    }

    /// Requests sent until every live subproblem had generation ≥ h (`None`
    /// if that never happened before the stream ended).
    pub fn requests_until_h(&self) -> Option<u64> {
        self.done.map(|(all, ..)| all)
    }

    /// When every live subproblem had generation ≥ h (001 Lemma 6's
    /// starting point; `None` if that never happened).
    pub fn time_at_h(&self) -> Option<u64> {
        self.done.map(|(.., t)| t)
    }

    /// Red requests (001 Lemma 4) until every live subproblem had
    /// generation ≥ h; if that never happened, those of the whole stream
    /// (a lower bound on the true count: a run cut short is not held
    /// against the bound beyond what it showed).
    pub fn red_until_h(&self) -> u64 {
        self.done.map_or(self.red.count, |(_, red, _)| red)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_requests_until_both_parts_reach_h() {
        let mut g = GenDepth::new(2, 1, 10);
        let events = [
            Event::Send { t: 0, from: 1, to: 0, id: 1, kind: Kind::Request, energy: None, data: None },
            Event::Split { t: 5, pe: 0, gen: 1 },
            Event::Send { t: 5, from: 0, to: 1, id: 2, kind: Kind::Work, energy: None, data: None },
            Event::Send { t: 6, from: 1, to: 0, id: 3, kind: Kind::Request, energy: None, data: None },
        ];
        g.observe(&events[0]);
        assert_eq!(g.requests_until_h(), None);
        g.observe(&events[1]);
        assert_eq!(g.requests_until_h(), Some(1)); // root split: both parts have gen 1 = h
        assert_eq!(g.time_at_h(), Some(5));
        g.observe(&events[2]);
        g.observe(&events[3]);
        assert_eq!(g.requests_until_h(), Some(1));
    }

    #[test]
    fn a_low_subproblem_in_transit_counts_until_it_dies() {
        let mut g = GenDepth::new(2, 2, 10);
        g.observe(&Event::Split { t: 1, pe: 0, gen: 1 });
        g.observe(&Event::Send { t: 1, from: 0, to: 1, id: 7, kind: Kind::Work, energy: None, data: None });
        g.observe(&Event::Split { t: 2, pe: 0, gen: 2 }); // PE 0's part reaches h
        g.observe(&Event::Send { t: 3, from: 0, to: 1, id: 8, kind: Kind::Request, energy: None, data: None });
        assert_eq!(g.requests_until_h(), None); // gen-1 part still in flight
        g.observe(&Event::Recv { t: 4, pe: 1, from: 0, id: 7, kind: Kind::Work, queue: None, data: None });
        assert_eq!(g.time_at_h(), None);
        g.observe(&Event::Idle { t: 9, pe: 1 });
        assert_eq!(g.requests_until_h(), Some(1));
        assert_eq!(g.time_at_h(), Some(9)); // 001 Lemma 6's remaining time starts here
    }

    /// 000 §2.1: a busy PE that rejects could not split its atomic
    /// subproblem, which counts as a split (generation + 1).
    #[test]
    fn a_refused_split_raises_the_generation() {
        let mut g = GenDepth::new(2, 1, 10);
        g.observe(&Event::Send { t: 1, from: 1, to: 0, id: 1, kind: Kind::Request, energy: None, data: None });
        assert_eq!(g.requests_until_h(), None);
        g.observe(&Event::Send { t: 2, from: 0, to: 1, id: 2, kind: Kind::Reject, energy: None, data: None });
        assert_eq!(g.requests_until_h(), Some(1));
    }

    /// Lemma 4's colouring: P = 2 red, then arrivals within T_dead = 10 of
    /// the last red one are skipped, then the next two are red.
    #[test]
    fn red_requests_follow_lemma_4() {
        let mut g = GenDepth::new(2, 5, 10);
        let recv = |t, id| Event::Recv { t, pe: 0, from: 1, id, kind: Kind::Request, queue: Some(0), data: None };
        for (i, t) in [0, 1, 5, 10, 11, 12, 13, 21, 22].into_iter().enumerate() {
            g.observe(&recv(t, i as u64));
        }
        // red: 0, 1 | skipped: 5, 10 (< 1 + 10) | red: 11, 12 | skipped: 13, 21 | red: 22
        assert_eq!(g.red_until_h(), 5);
    }
}
