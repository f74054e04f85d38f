//! Which PEs hold work, as the termination properties see it: a PE holds
//! work from a `busy` event — or from the `recv` of a `work` message,
//! which may come just before the `busy` — until its next `idle`. With the
//! work messages in flight (from `send` to the `recv` of the id, kept by
//! the book's [`super::messages`]), the computation is over when neither
//! is left ([`super::Book::is_over`]). Which PEs logged `terminated` is kept in the same per-PE
//! record (for `termination_detected` and `requests_answered`): one byte per
//! PE that every event about the PE touches once.

use crate::event::{Event, Kind};

/// The PE holds work (between `busy` and `idle`, or a work `recv` and `idle`).
const HOLDS: u8 = 1;
/// The PE logged `terminated`.
const TERMINATED: u8 = 2;

/// PEs holding work, PEs terminated.
pub(super) struct Activity {
    /// Per PE: [`HOLDS`], [`TERMINATED`].
    pes: Vec<u8>,
    holding: usize,
}

impl Activity {
    /// Prefetches PE `pe`'s record ([`super::Checker::prefetch`]).
    pub(super) fn prefetch(&self, pe: u32) {
        super::ahead(&self.pes, pe);
    }

    /// For `pes` PEs, all without work (events about other PEs are ignored).
    pub(super) fn new(pes: u32) -> Activity {
        let pes = vec![0; pes.min(super::MAX_PES) as usize];
        Activity { pes, holding: 0 }
    }

    /// Feeds one event.
    #[inline(always)]
    pub(super) fn observe(&mut self, e: &Event) {
        match *e {
            Event::Busy { pe, .. } => self.set_holds(pe, true),
            Event::Idle { pe, .. } => self.set_holds(pe, false),
            Event::Recv { pe, kind: Kind::Work, .. } => self.set_holds(pe, true),
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

    /// True when some PE holds work.
    pub(super) fn anyone_holds(&self) -> bool {
        self.holding > 0
    }

    /// The PEs (of the header's) holding work, ascending.
    pub(super) fn holders(&self) -> Vec<usize> {
        (0..self.pes.len()).filter(|&pe| self.pes[pe] & HOLDS != 0).collect()
    }
}
