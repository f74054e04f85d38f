//! The phased machine's events of one stretch of time (a phase, an
//! exchange, a shuffle), emitted sorted by (time, order made).
//!
//! At P = 2^20 a phase's exchange makes ~5·10^6 events, so they wait in
//! a lean form: a message, a split, a busy, idle or phase event in 48
//! bytes ([`Lean`]), any other (`work`, a notification carrying data) as
//! the [`Event`] itself, kept aside. The buffers keep their capacity from
//! phase to phase. The stream is the one a stable sort of the events by
//! (time, order made) gives.

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
    order: Vec<(u64, u32, u32)>,
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
        order.clear();
        order.extend(self.slots.iter().enumerate().map(|(i, p)| (p.t, p.made, i as u32)));
        order.sort_unstable();
        for &(t, _, i) in &order {
            let p = self.slots[i as usize];
            if t <= until {
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
}
