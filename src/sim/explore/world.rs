//! One state of 001's machine as the explorer sees it: the simulator's
//! machine itself (`sim/logp/machine.rs`, the one implementation of its
//! rules), driven through an `Env` that keeps every pending item
//! (message, slice end, timer, wake) with its time, leaves the two choices
//! open — each message's latency (every value of the latency range, from a
//! [`Script`]) and the order of the items due at one instant (every order,
//! chosen by the search as an [`Action`]) — and feeds the events to the
//! ghost state the exact predicates read. With a fixed latency, every path
//! is a run the simulator can make.

use std::fmt::{self, Write as _};
use std::hash::{DefaultHasher, Hasher};
use std::rc::Rc;

use super::ghost::Ghost;
use super::search::{Action, Model, Violation};
use super::Params;
use crate::event::{Event, Kind};
use crate::problem::Subproblem;
use crate::protocol::{Balancer, Detector, Pe, PeId};
use crate::sim::logp::machine::{Env, Item, Machine};
use crate::sim::script::Script;

/// A pending item, due at `at`, with its key: its identity without its
/// message number (two paths that sent the same message in another order
/// hold the same item; the message as the protocol renders it, not as the
/// simulator stores it in flight), computed once.
#[derive(Clone, Debug)]
struct Pending<T> {
    at: u64,
    key: u64,
    item: Item<T>,
}

impl<T: Clone + fmt::Debug> Pending<T> {
    fn new(at: u64, item: Item<T>) -> Self {
        let key = match &item {
            Item::Deliver { to, from, mail, .. } => digest_of(&(at, 0u8, to, from, mail.as_msg())),
            Item::SliceEnd { pe } => digest_of(&(at, 1u8, pe)),
            Item::Timer { pe } => digest_of(&(at, 2u8, pe)),
            Item::Wake { pe } => digest_of(&(at, 3u8, pe)),
        };
        Pending { at, key: key as u64, item }
    }
}

/// The explorer's side of the machine: every pending item, the ghost fed
/// by the events, and, during a transition, the script its latencies come
/// from and the buffer its events go to.
#[derive(Clone)]
struct Explorer<T> {
    /// Shared by every state of one exploration.
    params: Rc<Params>,
    pending: Vec<Pending<T>>,
    ghost: Ghost,
    script: Script,
    events: Option<Vec<Event>>,
}

impl<T: Clone + fmt::Debug> Env<T> for Explorer<T> {
    fn schedule(&mut self, at: u64, item: Item<T>) {
        self.pending.push(Pending::new(at, item));
    }

    /// Every latency of the range: the script's choice, × the hops.
    fn delay(&mut self, from: PeId, to: PeId, _: Kind, _: u64) -> u64 {
        let (a, b) = self.params.latency();
        let latency = a + self.script.choose((b - a + 1) as usize) as u64;
        latency.saturating_mul(self.params.hops.hops(from, to).max(1))
    }

    fn emit(&mut self, event: Event) {
        self.ghost.observe(&event);
        if let Some(events) = self.events.as_mut() {
            events.push(event);
        }
    }
}

/// The machine's state, with each PE's digest kept current (`touch`).
#[derive(Clone)]
pub struct World<T, B, D> {
    machine: Machine<T, B, D, Explorer<T>>,
    digests: Vec<u128>,
}

impl<T, B, D> World<T, B, D>
where
    T: Subproblem,
    B: Balancer<Task = T> + Clone + fmt::Debug,
    D: Detector<T> + Clone + fmt::Debug,
{
    /// Time 0: every PE started, the latencies of their first messages
    /// taken from `script`, the events to `events`.
    pub fn start(
        params: Params,
        root: T,
        make: impl Fn(PeId) -> Pe<B, D>,
        script: &mut Script,
        events: Option<&mut Vec<Event>>,
    ) -> Self {
        let (sim, ghost, params) = (params.sim, Ghost::new(params.sim.pes), Rc::new(params));
        let env = Explorer { params, pending: Vec::new(), ghost, script: Script::default(), events: None };
        let mut w = World { machine: Machine::new(&sim, make, env), digests: vec![0; sim.pes as usize] };
        w.with_io(script, events, |m| {
            m.start_all(root);
            m.note_quiet();
        });
        (0..sim.pes).for_each(|pe| w.touch(pe));
        w
    }

    /// [`Model::apply`], with the events of the transition.
    pub fn step(&self, i: usize, script: &mut Script, events: Option<&mut Vec<Event>>) -> Self {
        let key = self.actions()[i].key;
        let mut w = self.clone();
        let at = w.due().expect("an action is due");
        let pending = &mut w.machine.env.pending;
        let index = pending.iter().position(|p| p.at == at && p.key == key).expect("action is pending");
        let Pending { at, item, .. } = pending.swap_remove(index);
        let pe = item.pe();
        w.with_io(script, events, |m| m.handle(at, item));
        w.touch(pe);
        w
    }

    /// Runs `f` on the machine with its latencies from `script` and its
    /// events, if `events`, appended there.
    fn with_io(
        &mut self,
        script: &mut Script,
        mut events: Option<&mut Vec<Event>>,
        f: impl FnOnce(&mut Machine<T, B, D, Explorer<T>>),
    ) {
        std::mem::swap(&mut self.machine.env.script, script);
        self.machine.env.events = events.as_deref_mut().map(std::mem::take);
        f(&mut self.machine);
        std::mem::swap(&mut self.machine.env.script, script);
        if let (Some(out), Some(taken)) = (events, self.machine.env.events.take()) {
            *out = taken;
        }
    }

    /// Recomputes PE `pe`'s digest after a transition changed it (an item
    /// changes the state of its own PE only).
    fn touch(&mut self, pe: PeId) {
        let (m, i) = (&self.machine, pe as usize);
        let (slot, rng) = (&m.slots[i], (m.rngs[i].get_word_pos(), m.rngs[i].get_stream()));
        let p = &slot.pe;
        let state = (&p.balancer, &p.detector, p.terminated(), slot.busy, &m.slices[i], rng, slot.debt, slot.parked);
        self.digests[i] = digest_of(&state);
    }

    /// The time of the last item processed.
    pub fn now(&self) -> u64 {
        self.machine.now
    }

    /// True once nothing is pending (the run drained).
    pub fn drained(&self) -> bool {
        self.machine.env.pending.is_empty()
    }

    /// The time of the next items, unless the run is over: drained, or
    /// stopped as the simulator would stop it (the computation over for
    /// longer than the explorer's horizon, unannounced).
    fn due(&self) -> Option<u64> {
        let at = self.machine.env.pending.iter().map(|p| p.at).min()?;
        self.machine.halts_before(at, self.machine.env.params.horizon).is_none().then_some(at)
    }
}

impl<T, B, D> Model for World<T, B, D>
where
    T: Subproblem,
    B: Balancer<Task = T> + Clone + fmt::Debug,
    D: Detector<T> + Clone + fmt::Debug,
{
    fn actions(&self) -> Vec<Action> {
        let Some(at) = self.due() else { return Vec::new() };
        let pending = self.machine.env.pending.iter().filter(|p| p.at == at);
        let mut due: Vec<Action> = pending.map(|p| Action { key: p.key, pe: p.item.pe() }).collect();
        due.sort_by_key(|a| (a.pe, a.key));
        due.dedup();
        due
    }

    fn apply(&self, i: usize, script: &mut Script) -> Self {
        self.step(i, script, None)
    }

    fn digest(&self) -> u128 {
        let m = &self.machine;
        let mut items: Vec<u64> = m.env.pending.iter().map(|p| p.key).collect();
        items.sort_unstable();
        let (now, quiet, ghost) = (m.now, m.quiet_since, &m.env.ghost);
        digest_of(&(now, m.holding, m.work_in_flight, quiet, m.announced, ghost, items, &self.digests))
    }

    fn violation(&self) -> Option<Violation> {
        let m = &self.machine;
        if m.announced && (m.holding > 0 || m.work_in_flight > 0) {
            let (h, w) = (m.holding, m.work_in_flight);
            let detail =
                format!("announced at t = {} while {h} PEs hold work and {w} work messages are in flight", m.now);
            return Some(Violation { property: "no_early_termination".into(), detail });
        }
        let in_flight = m.env.pending.iter().filter_map(|p| match &p.item {
            Item::Deliver { mail, .. } => mail.energy(),
            _ => None,
        });
        m.env.ghost.energy_violation(m.now, in_flight)
    }

    fn end_violation(&self) -> Option<Violation> {
        let (m, params) = (&self.machine, &self.machine.env.params);
        let fail = |property: &str, detail: String| Some(Violation { property: property.into(), detail });
        if !m.announced {
            let (since, h) = (m.quiet_since.unwrap_or(m.now), params.horizon);
            return fail(
                "termination_detected",
                format!("the computation was over at t = {since}; no announcement within {h} (the explorer's horizon)"),
            );
        }
        if let Some(pe) = m.slots.iter().position(|s| !s.pe.terminated()) {
            return fail("termination_detected", format!("PE {pe} never learnt of the termination"));
        }
        m.env.ghost.end_violation(params.reference.as_ref())
    }
}

/// A 128-bit digest of the `Debug` rendering of `v` (the protocols'
/// state types render every field): two SipHash passes with different
/// keys over one rendering, reusing a per-thread buffer.
fn digest_of(v: &impl fmt::Debug) -> u128 {
    thread_local! {
        static BUF: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    BUF.with_borrow_mut(|buf| {
        buf.clear();
        let _ = write!(buf, "{v:?}");
        let (mut a, mut b) = (DefaultHasher::new(), DefaultHasher::new());
        b.write_u64(0x9E37_79B9_7F4A_7C15);
        a.write(buf.as_bytes());
        b.write(buf.as_bytes());
        (u128::from(a.finish()) << 64) | u128::from(b.finish())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A control message's payload is part of its item's key: two paths
    /// that sent different tokens hold different states.
    #[test]
    fn control_payloads_are_part_of_the_key() {
        let control = |q: i64| {
            let msg = crate::protocol::Msg::<u8>::Control(Box::new(serde_json::json!({"q": q, "black": false})));
            Pending::new(5, Item::Deliver { to: 1, from: 0, id: 3, mail: msg.into() }).key
        };
        assert_eq!(control(1), control(1));
        assert_ne!(control(1), control(2));
    }
}
