//! The phased machine's events of one stretch of time (a phase, an
//! exchange, a shuffle), emitted sorted by (time, order made).
//!
//! At P = 2^20 a phase's exchange makes ~5·10^6 events, so they wait in
//! a lean form: a message, a split, a busy, idle or phase event in 48
//! bytes ([`Lean`]), any other (`work`, a notification carrying data) as
//! the [`Event`] itself, kept aside. The buffers keep their capacity from
//! phase to phase. The stream is the one a sort of the events by (time,
//! order made, position) gives; events made in this stretch are placed by
//! a counting sort on time (their times span a few latencies), then merged
//! with the events carried from the last stretch, which wait in that order
//! already ([`Batch::sort`]).

use crate::event::{Event, Kind};

/// An event without a payload, or the place of one kept whole.
#[derive(Clone, Copy)]
enum Lean {
    Send {
        from: u32,
        to: u32,
        id: u64,
        kind: Kind,
    },
    Recv {
        pe: u32,
        from: u32,
        id: u64,
        kind: Kind,
        queue: Option<u32>,
    },
    Split {
        pe: u32,
        gen: u32,
    },
    Busy(u32),
    Idle(u32),
    Phase {
        cycle: u64,
        phase: u32,
        pe: Option<u32>,
    },
    /// The index in `Batch::full`.
    Full(u32),
}

/// An event waiting: its time, its order made, the event.
#[derive(Clone, Copy)]
struct Pending {
    t: u64,
    made: u32,
    lean: Lean,
}

/// Events waiting to be emitted.
#[derive(Default)]
pub(super) struct Batch {
    slots: Vec<Pending>,
    full: Vec<Option<Event>>,
    later: Vec<Pending>,
    later_full: Vec<Option<Event>>,
    /// How many events at the front of `slots` were carried from the last
    /// call (they are in (time, order made) order).
    carried: usize,
    /// Positions in `slots`, in the order to emit.
    order: Vec<u32>,
    /// The counting sort's buckets and its output (buffers kept).
    counts: Vec<u32>,
    by_time: Vec<u32>,
    /// The comparison sort's keys, when times spread too far for buckets.
    keys: Vec<(u64, u32, u32)>,
}

impl Batch {
    pub(super) fn push(&mut self, e: Event) {
        let (t, made) = (e.time(), u32::try_from(self.slots.len()).expect("fewer than 2^32 events waiting"));
        let lean = match e {
            Event::Send { from, to, id, kind, energy: None, data: None, .. } => Lean::Send { from, to, id, kind },
            Event::Recv { pe, from, id, kind, queue, data: None, .. } => Lean::Recv { pe, from, id, kind, queue },
            Event::Split { pe, gen, .. } => Lean::Split { pe, gen },
            Event::Busy { pe, .. } => Lean::Busy(pe),
            Event::Idle { pe, .. } => Lean::Idle(pe),
            Event::Phase { cycle, phase, pe, .. } => Lean::Phase { cycle, phase, pe },
            e => {
                self.full.push(Some(e));
                Lean::Full((self.full.len() - 1) as u32)
            }
        };
        self.slots.push(Pending { t, made, lean });
    }

    /// Emits the events up to time `until`, in order; later ones wait.
    /// Sorts small keys (time, order made, position), not the events:
    /// the same order as a stable sort by (time, order made).
    pub(super) fn emit_until(&mut self, until: u64, sink: &mut dyn FnMut(Event)) {
        let mut order = std::mem::take(&mut self.order);
        self.sort(&mut order);
        for &i in &order {
            let p = self.slots[i as usize];
            if p.t <= until {
                sink(self.event(p));
                continue;
            }
            let lean = match p.lean {
                Lean::Full(k) => {
                    self.later_full.push(self.full[k as usize].take());
                    Lean::Full((self.later_full.len() - 1) as u32)
                }
                lean => lean,
            };
            self.later.push(Pending { lean, ..p });
        }
        self.order = order;
        self.slots.clear();
        self.full.clear();
        std::mem::swap(&mut self.slots, &mut self.later);
        std::mem::swap(&mut self.full, &mut self.later_full);
        self.carried = self.slots.len();
    }

    /// The positions of the waiting events in (time, order made, position)
    /// order. An event made since the last call has its position as its
    /// order made, so a stable counting sort on time orders those; the
    /// carried ones, sorted already, are merged in (first on a tie: their
    /// positions are the smaller).
    fn sort(&mut self, order: &mut Vec<u32>) {
        order.clear();
        let new = &self.slots[self.carried..];
        let (lo, hi) = new.iter().fold((u64::MAX, 0), |(lo, hi), p| (lo.min(p.t), hi.max(p.t)));
        if new.is_empty() || hi - lo > 4 * new.len() as u64 + 64 {
            return self.sort_by_comparison(order);
        }
        self.counting_sort(lo, (hi - lo) as usize + 1);
        let (slots, by_time, carried) = (&self.slots, &self.by_time, self.carried);
        let key = |i: usize| (slots[i].t, slots[i].made);
        let (mut c, mut n) = (0, 0);
        while c < carried || n < by_time.len() {
            if n == by_time.len() || (c < carried && key(c) <= key(by_time[n] as usize)) {
                order.push(c as u32);
                c += 1;
            } else {
                order.push(by_time[n]);
                n += 1;
            }
        }
    }

    /// `by_time`: the positions of the events made since the last call,
    /// stably sorted by time (`span` values from `lo`).
    fn counting_sort(&mut self, lo: u64, span: usize) {
        let (counts, new) = (&mut self.counts, &self.slots[self.carried..]);
        counts.clear();
        counts.resize(span + 1, 0);
        for p in new {
            counts[(p.t - lo) as usize + 1] += 1;
        }
        for b in 1..counts.len() {
            counts[b] += counts[b - 1];
        }
        self.by_time.clear();
        self.by_time.resize(new.len(), 0);
        for (j, p) in new.iter().enumerate() {
            let b = &mut counts[(p.t - lo) as usize];
            self.by_time[*b as usize] = (self.carried + j) as u32;
            *b += 1;
        }
    }

    /// [`Batch::sort`] by comparing keys (times spread too far for buckets).
    fn sort_by_comparison(&mut self, order: &mut Vec<u32>) {
        self.keys.clear();
        self.keys.extend(self.slots.iter().enumerate().map(|(i, p)| (p.t, p.made, i as u32)));
        self.keys.sort_unstable();
        order.extend(self.keys.iter().map(|&(_, _, i)| i));
    }

    /// The event `p` stands for (a kept one is taken: each is emitted once).
    fn event(&mut self, p: Pending) -> Event {
        let t = p.t;
        match p.lean {
            Lean::Send { from, to, id, kind } => Event::Send { t, from, to, id, kind, energy: None, data: None },
            Lean::Recv { pe, from, id, kind, queue } => Event::Recv { t, pe, from, id, kind, queue, data: None },
            Lean::Split { pe, gen } => Event::Split { t, pe, gen },
            Lean::Busy(pe) => Event::Busy { t, pe },
            Lean::Idle(pe) => Event::Idle { t, pe },
            Lean::Phase { cycle, phase, pe } => Event::Phase { t, cycle, phase, pe },
            Lean::Full(k) => self.full[k as usize].take().expect("each kept event once"),
        }
    }

    /// The latest time of the events waiting.
    pub(super) fn last(&self) -> Option<u64> {
        self.slots.iter().map(|p| p.t).max()
    }

    /// The latest time of the events waiting but idle notifications (000 §5).
    pub(super) fn last_but_notify(&self) -> Option<u64> {
        let notify = |p: &&Pending| match p.lean {
            Lean::Full(k) => matches!(self.full[k as usize], Some(Event::Recv { kind: Kind::Notify, .. })),
            Lean::Recv { kind, .. } => kind == Kind::Notify,
            _ => false,
        };
        self.slots.iter().filter(|p| !notify(p)).map(|p| p.t).max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Events come out by (time, order made), whatever their form, and
    /// later ones wait for the next call with their order kept.
    #[test]
    fn emits_by_time_then_order_made() {
        let mut b = Batch::default();
        let send = |t, id| Event::Send { t, from: 1, to: 2, id, kind: Kind::Request, energy: None, data: None };
        let data = Some(Box::new(serde_json::json!({ "phase": 0 })));
        let notify = Event::Recv { t: 3, pe: 0, from: 5, id: 9, kind: Kind::Notify, queue: None, data };
        for e in [send(5, 1), notify.clone(), Event::Busy { t: 3, pe: 4 }, send(9, 2), Event::Idle { t: 1, pe: 7 }] {
            b.push(e);
        }
        assert_eq!((b.last(), b.last_but_notify()), (Some(9), Some(9)));
        let mut out = Vec::new();
        b.emit_until(5, &mut |e| out.push(e));
        let want = [Event::Idle { t: 1, pe: 7 }, notify, Event::Busy { t: 3, pe: 4 }, send(5, 1)];
        assert_eq!(out, want);
        b.emit_until(9, &mut |e| out.push(e));
        assert_eq!(out.last(), Some(&send(9, 2)));
        assert_eq!(b.last(), None);
    }

    /// The counting sort and its merge give the order of a sort by (time,
    /// order made, position) over every event waiting — carried ones whose
    /// order made ties a new one's first — for near times (buckets) and far
    /// ones (the comparison sort).
    #[test]
    fn counting_sort_keeps_the_reference_order() {
        let (mut b, mut reference) = (Batch::default(), Vec::<(u64, u32, u64)>::new());
        let mut x = 7u64;
        let mut out = Vec::new();
        for round in 0..60u64 {
            let base = round * 10;
            for _ in 0..(x % 23) {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let t = base + (x >> 33) % if round % 7 == 3 { 100_000 } else { 12 };
                reference.push((t, reference.len() as u32, x));
                b.push(Event::Split { t, pe: 0, gen: (x >> 40) as u32 });
            }
            let until = base + 5;
            reference.sort_by_key(|&(t, made, _)| (t, made));
            let (now, later): (Vec<_>, Vec<_>) = reference.into_iter().partition(|r| r.0 <= until);
            let want: Vec<Event> =
                now.iter().map(|&(t, _, x)| Event::Split { t, pe: 0, gen: (x >> 40) as u32 }).collect();
            out.clear();
            b.emit_until(until, &mut |e| out.push(e));
            assert_eq!(out, want, "round {round}");
            reference = later;
        }
    }
}
