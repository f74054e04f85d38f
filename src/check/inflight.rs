//! The messages of a trace by id: those in flight (with what a check keeps
//! of each) and those delivered, without a hash-map operation per message
//! when ids come roughly in order, as every lbcheck driver numbers them.
//!
//! Ids from the oldest message still in flight on sit in a window, a
//! double-ended array indexed by `id - base`; the window's front moves on as
//! its messages are delivered, handing delivered ids to an [`IdSet`] in
//! increasing order (which keeps a run of consecutive ids as one interval).
//! Ids below the window (a message in flight for very long, or a trace of
//! another implementation numbering at random) go to a hash map instead, so
//! any ids are handled, just more slowly; the window never spans more than
//! `cap` ids.

use std::collections::VecDeque;

use rustc_hash::FxHashMap as HashMap;

use super::idset::IdSet;

/// What the window knows of one id: in flight with a value, delivered.
#[derive(Clone, Copy)]
struct Entry<V> {
    flight: Option<V>,
    delivered: bool,
}

impl<V> Entry<V> {
    const FREE: Entry<V> = Entry { flight: None, delivered: false };
}

/// Messages in flight (each with a `V`) and delivered, by id.
pub(super) struct InFlight<V> {
    base: u64,
    window: VecDeque<Entry<V>>,
    cap: u64,
    /// In-flight messages with ids below `base`.
    below: HashMap<u64, V>,
    /// Delivered ids handed on from the window (or out of its reach).
    delivered: IdSet,
}

impl<V: Copy> InFlight<V> {
    /// A book whose window spans at most `cap` ≥ 1 ids.
    pub(super) fn new(cap: u64) -> InFlight<V> {
        InFlight {
            base: 0,
            window: VecDeque::new(),
            cap: cap.max(1),
            below: HashMap::default(),
            delivered: IdSet::default(),
        }
    }

    /// A book for a trace of `pes` PEs. Its window may span 16 ids per PE
    /// (the ids sent while the oldest message in flight travels: a few per
    /// PE when latencies are short; P = 2^20 needs about 4), at least 2^16,
    /// at most 2^24. It only takes the memory the ids in flight span.
    pub(super) fn for_pes(pes: u32) -> InFlight<V> {
        InFlight::new((16 * u64::from(pes)).clamp(1 << 16, 1 << 24))
    }

    /// The values of the messages in flight, in no particular order.
    pub(super) fn values(&self) -> impl Iterator<Item = V> + '_ {
        self.below.values().copied().chain(self.window.iter().filter_map(|e| e.flight))
    }

    /// The messages in flight with their ids, in no particular order.
    pub(super) fn entries(&self) -> impl Iterator<Item = (u64, V)> + '_ {
        let window = self.window.iter().enumerate().filter_map(|(i, e)| Some((self.base + i as u64, e.flight?)));
        self.below.iter().map(|(&id, &v)| (id, v)).chain(window)
    }

    /// True if `id` was delivered ([`InFlight::land`]).
    pub(super) fn delivered(&self, id: u64) -> bool {
        self.slot(id).is_some_and(|s| self.window[s].delivered) || self.delivered.contains(id)
    }

    /// Records `id` in flight with `v`; returns what it replaced, if `id`
    /// was in flight already.
    pub(super) fn insert(&mut self, id: u64, v: V) -> Option<V> {
        if id < self.base {
            return self.below.insert(id, v);
        }
        let slot = self.reach(id);
        self.window[slot].flight.replace(v)
    }

    /// Takes `id`'s message out of flight, marking the id delivered if
    /// `ok` says so (one window operation for both); `None` if it was not
    /// in flight.
    pub(super) fn land(&mut self, id: u64, ok: impl FnOnce(&V) -> bool) -> Option<V> {
        if id < self.base {
            let v = self.below.remove(&id)?;
            if ok(&v) {
                self.delivered.insert(id);
            }
            return Some(v);
        }
        let slot = self.slot(id)?;
        let entry = &mut self.window[slot];
        let v = entry.flight.take()?;
        entry.delivered |= ok(&v);
        self.advance();
        Some(v)
    }

    /// Messages in flight.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.values().count()
    }

    /// `id`'s place in the window, if the window spans it.
    fn slot(&self, id: u64) -> Option<usize> {
        let offset = id.checked_sub(self.base)?;
        usize::try_from(offset).ok().filter(|&s| s < self.window.len())
    }

    /// `id`'s place (`id` ≥ base), the window grown to span it and, if
    /// it would span more than `cap` ids, its front moved on.
    fn reach(&mut self, id: u64) -> usize {
        let end = self.base + self.window.len() as u64;
        if id >= end && id - end >= self.cap {
            self.flush(); // a jump: start the window afresh at `id`
            self.base = id;
        }
        while id - self.base >= self.cap {
            self.pop_front();
        }
        let offset = (id - self.base) as usize;
        match offset.cmp(&self.window.len()) {
            std::cmp::Ordering::Less => {}
            // The next id, as nearly always: one push, not a resize (issue 30).
            std::cmp::Ordering::Equal => self.window.push_back(Entry::FREE),
            std::cmp::Ordering::Greater => self.window.resize(offset + 1, Entry::FREE),
        }
        offset
    }

    /// Moves the front on past ids not in flight.
    fn advance(&mut self) {
        while self.window.front().is_some_and(|e| e.flight.is_none()) {
            self.pop_front();
        }
    }

    /// Hands the front id on (to `delivered` or `below`) and moves on.
    fn pop_front(&mut self) {
        if let Some(e) = self.window.pop_front() {
            if e.delivered {
                self.delivered.insert(self.base);
            }
            if let Some(v) = e.flight {
                self.below.insert(self.base, v);
            }
        }
        self.base += 1;
    }

    /// Hands every id of the window on.
    fn flush(&mut self) {
        while !self.window.is_empty() {
            self.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{HashMap as Map, HashSet};

    /// The window spans the ids from the oldest in flight on, not every id
    /// sent (the memory `for_pes` promises): delivering its front moves it
    /// on. Mutation testing found nothing else would tell (issue 31).
    #[test]
    fn the_window_spans_only_the_ids_in_flight() {
        let mut book = InFlight::new(1 << 16);
        for id in 0..100 {
            book.insert(id, ());
        }
        for id in (0..90).rev() {
            assert_eq!(book.land(id, |_| true), Some(()));
        }
        assert_eq!((book.base, book.window.len()), (90, 10));
        for id in 90..100 {
            book.land(id, |_| true);
        }
        assert_eq!((book.base, book.window.len()), (100, 0));
        assert!((0..100).all(|id| book.delivered(id)));
    }

    proptest! {
        /// The same answers as a hash map and a hash set, for ids near each
        /// other, far apart and repeated, with a small window (ids landed as
        /// delivered, or not: a `recv` that does not match its `send`).
        #[test]
        fn agrees_with_a_map_and_a_set(ops in proptest::collection::vec((0..4u8, 0..40u64, any::<bool>()), 1..300)) {
            let mut book = InFlight::new(8);
            let (mut map, mut set) = (Map::new(), HashSet::new());
            for (i, (op, id, far)) in ops.into_iter().enumerate() {
                let id = if far { id * 1_000_003 } else { id };
                match op {
                    0 | 1 => prop_assert_eq!(book.insert(id, i), map.insert(id, i)),
                    _ => {
                        let ok = op == 2;
                        let landed = map.remove(&id);
                        if landed.is_some() && ok {
                            set.insert(id);
                        }
                        prop_assert_eq!(book.land(id, |_| ok), landed);
                    }
                }
                prop_assert_eq!(book.len(), map.len());
                let (mut have, mut want): (Vec<_>, Vec<_>) = (book.values().collect(), map.values().copied().collect());
                have.sort_unstable();
                want.sort_unstable();
                prop_assert_eq!(have, want);
                let (mut have, mut want): (Vec<_>, Vec<_>) = (book.entries().collect(), map.iter().map(|(&k, &v)| (k, v)).collect());
                have.sort_unstable();
                want.sort_unstable();
                prop_assert_eq!(have, want);
                prop_assert_eq!(book.delivered(id), set.contains(&id));
            }
            for id in 0..50 {
                prop_assert_eq!(book.delivered(id), set.contains(&id));
            }
        }
    }
}
