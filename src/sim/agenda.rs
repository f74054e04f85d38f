//! The simulator's pending events, ordered by (time, sequence number).
//!
//! A calendar queue: events within `WINDOW` time units of the current time
//! sit in a ring of FIFO buckets (one per time value), farther ones in a
//! binary heap until the window reaches them. Payloads live in a slab, so
//! only small keys move. Within one time value, events come out in the order
//! they were pushed: far events migrate into a bucket as soon as the window
//! reaches their time, before any event of that time can be pushed directly.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Number of time values the ring covers (a power of two).
const WINDOW: u64 = 1 << 12;

/// Pending events with payloads of type `I`.
pub struct Agenda<I> {
    ring: Vec<VecDeque<u32>>,
    base: u64,
    in_ring: usize,
    far: BinaryHeap<Reverse<(u64, u64, u32)>>,
    items: Vec<Option<I>>,
    free: Vec<u32>,
    seq: u64,
}

impl<I> Default for Agenda<I> {
    fn default() -> Self {
        Agenda {
            ring: (0..WINDOW).map(|_| VecDeque::new()).collect(),
            base: 0,
            in_ring: 0,
            far: BinaryHeap::new(),
            items: Vec::new(),
            free: Vec::new(),
            seq: 0,
        }
    }
}

impl<I> Agenda<I> {
    /// Schedules `item` at `time` (not earlier than the last time popped).
    pub fn push(&mut self, time: u64, item: I) {
        assert!(time >= self.base, "event scheduled in the past ({time} < {})", self.base);
        let slot = self.alloc(item);
        self.seq += 1;
        if time < self.base + WINDOW {
            self.ring[(time % WINDOW) as usize].push_back(slot);
            self.in_ring += 1;
        } else {
            self.far.push(Reverse((time, self.seq, slot)));
        }
    }

    /// Time of the next event, if any.
    pub fn peek_time(&mut self) -> Option<u64> {
        if self.in_ring == 0 {
            let Reverse((t, _, _)) = *self.far.peek()?;
            self.base = t;
            self.migrate();
        }
        while self.ring[(self.base % WINDOW) as usize].is_empty() {
            self.base += 1;
            self.migrate();
        }
        Some(self.base)
    }

    /// Removes and returns the next event.
    pub fn pop(&mut self) -> Option<(u64, I)> {
        let time = self.peek_time()?;
        let slot = self.ring[(time % WINDOW) as usize].pop_front().expect("peeked bucket");
        self.in_ring -= 1;
        self.free.push(slot);
        Some((time, self.items[slot as usize].take().expect("a pending item")))
    }

    /// Moves far events that the window now covers into the ring.
    fn migrate(&mut self) {
        while let Some(&Reverse((t, _, slot))) = self.far.peek() {
            if t >= self.base + WINDOW {
                break;
            }
            self.far.pop();
            self.ring[(t % WINDOW) as usize].push_back(slot);
            self.in_ring += 1;
        }
    }

    fn alloc(&mut self, item: I) -> u32 {
        match self.free.pop() {
            Some(i) => {
                self.items[i as usize] = Some(item);
                i
            }
            None => {
                self.items.push(Some(item));
                (self.items.len() - 1) as u32
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Same order as a binary heap over (time, push order), for any mix of
        /// near and far delays and interleaved pops.
        #[test]
        fn pops_in_time_then_push_order(ops in proptest::collection::vec((0..3u8, 0..3 * WINDOW), 1..400)) {
            let (mut agenda, mut reference) = (Agenda::default(), BinaryHeap::new());
            let (mut now, mut seq) = (0u64, 0u64);
            for (op, delay) in ops {
                if op == 0 {
                    let got = agenda.pop();
                    let want = reference.pop().map(|Reverse((t, _, id))| (t, id));
                    prop_assert_eq!(got, want);
                    if let Some((t, _)) = got { now = t; }
                } else {
                    let delay = if op == 1 { delay % 8 } else { delay };
                    seq += 1;
                    agenda.push(now + delay, seq);
                    reference.push(Reverse((now + delay, seq, seq)));
                }
            }
            while let Some(want) = reference.pop() {
                let Reverse((t, _, id)) = want;
                prop_assert_eq!(agenda.pop(), Some((t, id)));
            }
            prop_assert_eq!(agenda.pop(), None);
        }
    }
}
