//! Which PEs hold work and which work messages are in flight, as the
//! termination properties see it: a PE holds work from a `busy` event — or
//! from the `recv` of a `work` message, which may come just before the
//! `busy` — until its next `idle`; a work message is in flight from its
//! `send` until the `recv` of its id. The computation is over when neither
//! is left. Which PEs logged `terminated` is kept in the same per-PE
//! record (for `termination_detected` and `requests_answered`): one byte per
//! PE that every event about the PE touches once.

use rustc_hash::FxHashSet as HashSet;

use super::list_some;
use crate::event::{Event, Kind};

/// The PE holds work (between `busy` and `idle`, or a work `recv` and `idle`).
const HOLDS: u8 = 1;
/// The PE logged `terminated`.
const TERMINATED: u8 = 2;

/// PEs holding work, work messages in flight, PEs terminated.
pub(super) struct Activity {
    /// Per PE: [`HOLDS`], [`TERMINATED`].
    pes: Vec<u8>,
    holding: usize,
    in_flight: HashSet<u64>,
}

impl Activity {
    /// Prefetches PE `pe`'s record ([`super::Checker::prefetch`]).
    pub(super) fn prefetch(&self, pe: u32) {
        super::ahead(&self.pes, pe);
    }

    /// For `pes` PEs, all without work (events about other PEs are ignored).
    pub(super) fn new(pes: u32) -> Activity {
        let pes = vec![0; pes.min(super::MAX_PES) as usize];
        Activity { pes, holding: 0, in_flight: HashSet::default() }
    }

    /// Feeds one event.
    pub(super) fn observe(&mut self, e: &Event) {
        match *e {
            Event::Busy { pe, .. } => self.set_holds(pe, true),
            Event::Idle { pe, .. } => self.set_holds(pe, false),
            Event::Send { id, kind: Kind::Work, .. } => {
                self.in_flight.insert(id);
            }
            Event::Recv { pe, id, kind: Kind::Work, .. } => {
                self.in_flight.remove(&id);
                self.set_holds(pe, true);
            }
            Event::Terminated { pe, .. } => self.set_terminated(pe),
            _ => {}
        }
    }

    fn set_holds(&mut self, pe: u32, holds: bool) {
        let Some(f) = self.pes.get_mut(pe as usize) else { return };
        match (*f & HOLDS != 0, holds) {
            (false, true) => self.holding += 1,
            (true, false) => self.holding -= 1,
            _ => {}
        }
        *f = (*f & !HOLDS) | if holds { HOLDS } else { 0 };
    }

    fn set_terminated(&mut self, pe: u32) {
        if let Some(f) = self.pes.get_mut(pe as usize).filter(|f| **f & TERMINATED == 0) {
            *f |= TERMINATED;
        }
    }

    /// True if PE `pe` (of the header's) has logged `terminated`.
    pub(super) fn has_terminated(&self, pe: u32) -> bool {
        self.pes.get(pe as usize).is_some_and(|f| f & TERMINATED != 0)
    }

    /// The PEs (of the header's) that have not logged `terminated`, ascending.
    pub(super) fn not_terminated(&self) -> Vec<usize> {
        (0..self.pes.len()).filter(|&pe| self.pes[pe] & TERMINATED == 0).collect()
    }

    /// True when no PE holds work and no work message is in flight.
    pub(super) fn is_over(&self) -> bool {
        self.holding == 0 && self.in_flight.is_empty()
    }

    /// What is left: "2 PEs hold work (PE 0, 1) and work message 4 is in flight".
    pub(super) fn describe(&self) -> String {
        let pes: Vec<usize> = (0..self.pes.len()).filter(|&pe| self.pes[pe] & HOLDS != 0).collect();
        let mut ids: Vec<u64> = self.in_flight.iter().copied().collect();
        ids.sort_unstable();
        let mut parts = Vec::new();
        match pes.len() {
            0 => {}
            1 => parts.push(format!("PE {} holds work", pes[0])),
            n => parts.push(format!("{n} PEs hold work (PE {})", list_some(&pes))),
        }
        match ids.len() {
            0 => {}
            1 => parts.push(format!("work message {} is in flight", ids[0])),
            n => parts.push(format!("{n} work messages are in flight (ids {})", list_some(&ids))),
        }
        parts.join(" and ")
    }
}
