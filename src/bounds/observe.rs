//! An observer of the event stream for 001 Lemma 3: the number of requests
//! sent until every live subproblem (held by a PE or in transit) has
//! generation ≥ h. Generations come from `split` events (both parts get the
//! new generation; the `send` of kind work that follows from the same PE
//! carries the part given away) and travel with the work message's id; a
//! subproblem dies when its PE goes `idle`. Once every live subproblem has
//! generation ≥ h this stays so (splits only raise generations).

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
    done: Option<u64>,
}

impl GenDepth {
    /// For `pes` PEs, PE 0 holding the root (generation 0).
    pub fn new(pes: u32, h: u64) -> GenDepth {
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
                if let Some(old) = self.held[pe as usize].replace(gen) {
                    self.low = self.low - self.is_low(old) + self.is_low(gen);
                }
                self.pending[pe as usize] = Some(gen);
            }
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
            self.done = Some(self.requests);
        }
    }

    /// Requests sent until every live subproblem had generation ≥ h (`None`
    /// if that never happened before the stream ended).
    pub fn requests_until_h(&self) -> Option<u64> {
        self.done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_requests_until_both_parts_reach_h() {
        let mut g = GenDepth::new(2, 1);
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
        g.observe(&events[2]);
        g.observe(&events[3]);
        assert_eq!(g.requests_until_h(), Some(1));
    }

    #[test]
    fn a_low_subproblem_in_transit_counts_until_it_dies() {
        let mut g = GenDepth::new(2, 2);
        g.observe(&Event::Split { t: 1, pe: 0, gen: 1 });
        g.observe(&Event::Send { t: 1, from: 0, to: 1, id: 7, kind: Kind::Work, energy: None, data: None });
        g.observe(&Event::Split { t: 2, pe: 0, gen: 2 }); // PE 0's part reaches h
        g.observe(&Event::Send { t: 3, from: 0, to: 1, id: 8, kind: Kind::Request, energy: None, data: None });
        assert_eq!(g.requests_until_h(), None); // gen-1 part still in flight
        g.observe(&Event::Recv { t: 4, pe: 1, from: 0, id: 7, kind: Kind::Work, queue: None, data: None });
        g.observe(&Event::Idle { t: 9, pe: 1 });
        assert_eq!(g.requests_until_h(), Some(1));
    }
}
