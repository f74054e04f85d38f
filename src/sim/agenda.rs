//! The simulator's pending events, ordered by (time, sequence number).
//!
//! A calendar queue: events within `WINDOW` time units of the current time
//! sit in a ring of FIFO buckets (one per time value), farther ones in a
//! binary heap until the window reaches them. Items are stored in their
//! bucket itself, so popping reads a bucket front to back (cache-friendly:
//! the hardware prefetcher follows it) and the next events can be looked at
//! ([`Agenda::upcoming`]) to prefetch what they will touch. Within one time
//! value, events come out in the order they were pushed: far events migrate
//! into a bucket as soon as the window reaches their time, before any event
//! of that time can be pushed directly.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, VecDeque};

/// Number of time values the ring covers (a power of two).
const WINDOW: u64 = 1 << 12;
/// Emptied bucket buffers kept for reuse (only a few buckets, those of the
/// next latency's worth of time values, are ever full at once).
const SPARE: usize = 64;

/// A far event: ordered by (time, sequence number) only.
struct Far<I> {
    time: u64,
    seq: u64,
    item: I,
}

impl<I> PartialEq for Far<I> {
    fn eq(&self, o: &Self) -> bool {
        (self.time, self.seq) == (o.time, o.seq)
    }
}

impl<I> Eq for Far<I> {}

impl<I> PartialOrd for Far<I> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl<I> Ord for Far<I> {
    fn cmp(&self, o: &Self) -> Ordering {
        (self.time, self.seq).cmp(&(o.time, o.seq))
    }
}

/// Pending events with payloads of type `I`.
pub struct Agenda<I> {
    ring: Vec<VecDeque<I>>,
    base: u64,
    in_ring: usize,
    far: BinaryHeap<Reverse<Far<I>>>,
    seq: u64,
    /// Buffers of emptied buckets: a bucket takes one when it fills again,
    /// so the ring's memory is that of the buckets in use, not of every
    /// bucket's peak.
    spare: Vec<VecDeque<I>>,
}

impl<I> Default for Agenda<I> {
    fn default() -> Self {
        Agenda {
            ring: (0..WINDOW).map(|_| VecDeque::new()).collect(),
            base: 0,
            in_ring: 0,
            far: BinaryHeap::new(),
            seq: 0,
            spare: Vec::new(),
        }
    }
}

impl<I> Agenda<I> {
    /// Schedules `item` at `time` (not earlier than the last time popped).
    pub fn push(&mut self, time: u64, item: I) {
        assert!(time >= self.base, "event scheduled in the past ({time} < {})", self.base);
        self.seq += 1;
        if time < self.base + WINDOW {
            self.bucket(time).push_back(item);
            self.in_ring += 1;
        } else {
            self.far.push(Reverse(Far { time, seq: self.seq, item }));
        }
    }

    /// Time of the next event, if any.
    pub fn peek_time(&mut self) -> Option<u64> {
        if self.in_ring == 0 {
            self.base = self.far.peek()?.0.time;
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
        let bucket = &mut self.ring[(time % WINDOW) as usize];
        let item = bucket.pop_front().expect("peeked bucket");
        if bucket.is_empty() && self.spare.len() < SPARE {
            self.spare.push(std::mem::take(bucket));
        }
        self.in_ring -= 1;
        Some((time, item))
    }

    /// The events after the next one at the same time, in order (after
    /// [`Agenda::peek_time`] or [`Agenda::pop`]; a hint for prefetching).
    pub fn upcoming(&self) -> impl Iterator<Item = &I> {
        self.ring[(self.base % WINDOW) as usize].iter()
    }

    /// Moves far events that the window now covers into the ring.
    fn migrate(&mut self) {
        while self.far.peek().is_some_and(|f| f.0.time < self.base + WINDOW) {
            let Reverse(Far { time, item, .. }) = self.far.pop().expect("peeked");
            self.bucket(time).push_back(item);
            self.in_ring += 1;
        }
    }

    /// The bucket of `time` (within the window), given a spare buffer if it
    /// has none.
    fn bucket(&mut self, time: u64) -> &mut VecDeque<I> {
        let bucket = &mut self.ring[(time % WINDOW) as usize];
        if bucket.capacity() == 0 {
            if let Some(buf) = self.spare.pop() {
                *bucket = buf;
            }
        }
        bucket
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
