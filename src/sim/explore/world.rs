//! One state of 001's machine as the explorer sees it: every PE (its
//! protocol state, random stream, slice), every pending item (message,
//! slice end, timer) with its time, and the ghost state the exact
//! predicates read. The rules are the simulator's ([`crate::sim::logp`]:
//! a slice of Δt units, then a poll; T_split charged to the splitter;
//! requests queued until the next poll; detector messages handled on
//! arrival), with two choices left open: each message's latency (every
//! value of the latency range) and the order of the items due at one
//! instant (every order). With a fixed latency, every path is a run the
//! simulator can make.

use std::fmt::{self, Write as _};
use std::hash::{DefaultHasher, Hasher};

use rand_chacha::ChaCha8Rng;

use super::ghost::Ghost;
use super::search::{Action, Model, Violation};
use super::Params;
use crate::base::rng::{stream, Purpose};
use crate::event::{Event, Kind};
use crate::problem::{Subproblem, WorkLog};
use crate::protocol::initial::{assign, InitialSplit};
use crate::protocol::{Balancer, Command, Ctx, Detector, Msg, Pe, PeId};
use crate::sim::script::Script;

/// A pending item.
#[derive(Clone, Debug)]
enum Item<T> {
    Deliver { to: PeId, from: PeId, id: u64, msg: Msg<T> },
    SliceEnd { pe: PeId },
    Timer { pe: PeId },
}

impl<T: fmt::Debug> Item<T> {
    fn pe(&self) -> PeId {
        match *self {
            Item::Deliver { to, .. } => to,
            Item::SliceEnd { pe } | Item::Timer { pe } => pe,
        }
    }

    /// The item's identity without its message number (two paths that
    /// sent the same message in another order hold the same item).
    fn key(&self, at: u64) -> u64 {
        let d = match self {
            Item::Deliver { to, from, msg, .. } => digest_of(&(at, 0u8, to, from, msg)),
            Item::SliceEnd { pe } => digest_of(&(at, 1u8, pe)),
            Item::Timer { pe } => digest_of(&(at, 2u8, pe)),
        };
        d as u64
    }
}

/// A pending item, due at `at`, with its key (computed once).
#[derive(Clone, Debug)]
struct Pending<T> {
    at: u64,
    key: u64,
    item: Item<T>,
}

impl<T: fmt::Debug> Pending<T> {
    fn new(at: u64, item: Item<T>) -> Self {
        Pending { at, key: item.key(at), item }
    }
}

#[derive(Clone, Debug)]
struct Slice {
    units: u64,
    gen: u32,
    log: WorkLog,
}

#[derive(Clone)]
struct Node<B, D> {
    pe: Pe<B, D>,
    rng: ChaCha8Rng,
    busy: bool,
    slice: Option<Slice>,
    /// The digest of the fields above, kept current by [`World::touch`].
    digest: u128,
}

impl<B: fmt::Debug, D: fmt::Debug> Node<B, D> {
    fn fresh_digest(&self) -> u128 {
        let (pe, rng) = (&self.pe, (self.rng.get_word_pos(), self.rng.get_stream()));
        digest_of(&(&pe.balancer, &pe.detector, pe.terminated(), self.busy, &self.slice, rng))
    }
}

/// The machine's state.
#[derive(Clone)]
pub struct World<T, B, D> {
    params: Params,
    now: u64,
    nodes: Vec<Node<B, D>>,
    pending: Vec<Pending<T>>,
    next_id: u64,
    /// PEs holding work, and work messages in flight.
    holding: u32,
    work_in_flight: u64,
    quiet_since: Option<u64>,
    announced: bool,
    ghost: Ghost,
}

/// Where a transition's open choices come from and its events go.
struct Io<'a> {
    script: &'a mut Script,
    events: Option<&'a mut Vec<Event>>,
}

impl Io<'_> {
    fn emit(&mut self, e: Event) {
        if let Some(events) = self.events.as_deref_mut() {
            events.push(e);
        }
    }
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
        let pes = params.sim.pes;
        let nodes = (0..pes)
            .map(|i| {
                let rng = stream(params.sim.seed, i, Purpose::Protocol);
                Node { pe: make(i), rng, busy: false, slice: None, digest: 0 }
            })
            .collect();
        let mut w = World {
            ghost: Ghost::new(pes),
            params,
            now: 0,
            nodes,
            pending: Vec::new(),
            next_id: 0,
            holding: 0,
            work_in_flight: 0,
            quiet_since: None,
            announced: false,
        };
        let mut io = Io { script, events };
        for (i, start) in assign(root, pes, InitialSplit::Root, 0).into_iter().enumerate() {
            let cost = w.call(i as PeId, &mut io, |pe, ctx| pe.start(ctx, start.part, start.share));
            w.maybe_busy(i as PeId, cost, &mut io);
            w.touch(i as PeId);
        }
        w.note_quiet();
        w
    }

    /// Recomputes PE `pe`'s digest after a transition changed it.
    fn touch(&mut self, pe: PeId) {
        let node = &mut self.nodes[pe as usize];
        node.digest = node.fresh_digest();
    }

    /// [`Model::apply`], with the events of the transition.
    pub fn step(&self, i: usize, script: &mut Script, events: Option<&mut Vec<Event>>) -> Self {
        let key = self.actions()[i].key;
        let mut w = self.clone();
        let at = w.due().expect("an action is due");
        let index = w.pending.iter().position(|p| p.at == at && p.key == key).expect("action is pending");
        let Pending { at, item, .. } = w.pending.swap_remove(index);
        let pe = item.pe();
        w.now = at;
        let mut io = Io { script, events };
        match item {
            Item::Deliver { to, from, id, msg } => w.deliver(to, from, id, msg, &mut io),
            Item::SliceEnd { pe } => w.slice_end(pe, &mut io),
            Item::Timer { pe } => {
                let cost = w.call(pe, &mut io, |p, ctx| p.on_timer(ctx));
                w.maybe_busy(pe, cost, &mut io);
            }
        }
        w.touch(pe);
        w.note_quiet();
        w
    }

    /// The time of the last item processed.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// True once nothing is pending (the run drained).
    pub fn drained(&self) -> bool {
        self.pending.is_empty()
    }

    /// The time of the next items, unless the run is over: drained, or
    /// the computation over for longer than the horizon, unannounced.
    fn due(&self) -> Option<u64> {
        let at = self.pending.iter().map(|p| p.at).min()?;
        let stopped = self.quiet_since.filter(|q| !self.announced && at > q.saturating_add(self.params.horizon));
        stopped.is_none().then_some(at)
    }

    fn note_quiet(&mut self) {
        let quiet = self.holding == 0 && self.work_in_flight == 0;
        match (quiet, self.quiet_since) {
            (true, None) => self.quiet_since = Some(self.now),
            (false, Some(_)) => self.quiet_since = None,
            _ => {}
        }
    }

    /// Runs a handler of PE `me` and carries out its commands; returns the
    /// split time it charged.
    fn call(&mut self, me: PeId, io: &mut Io, f: impl FnOnce(&mut Pe<B, D>, &mut Ctx<T>)) -> u64 {
        let mut out = Vec::new();
        let node = &mut self.nodes[me as usize];
        let mut ctx = Ctx { now: self.now, me, pes: self.params.sim.pes, rng: &mut node.rng, out: &mut out };
        f(&mut node.pe, &mut ctx);
        out.into_iter().fold(0, |cost, cmd| cost + self.apply_command(me, cmd, cost, io))
    }

    fn apply_command(&mut self, me: PeId, cmd: Command<T>, cost: u64, io: &mut Io) -> u64 {
        match cmd {
            Command::Send { to, msg } => {
                self.send(me, to, msg, cost, io);
                return 0;
            }
            Command::Timer { after } => {
                self.pending.push(Pending::new(self.now.saturating_add(after), Item::Timer { pe: me }));
                return 0;
            }
            Command::Energy(ref held) => self.ghost.held(me, held.clone()),
            Command::Announce => self.announced = true,
            _ => {}
        }
        if let Some(e) = cmd.event(self.now, me) {
            io.emit(e);
        }
        match cmd {
            Command::Split { .. } => self.params.sim.t_split,
            _ => 0,
        }
    }

    fn send(&mut self, from: PeId, to: PeId, msg: Msg<T>, cost: u64, io: &mut Io) {
        self.next_id += 1;
        io.emit(msg.send_event(self.now, from, to, self.next_id));
        self.work_in_flight += u64::from(msg.kind() == Kind::Work);
        self.ghost.sent(from, to, &msg);
        let (a, b) = self.params.latency();
        let latency = (a + io.script.choose((b - a + 1) as usize) as u64) * self.params.hops.hops(from, to).max(1);
        let at = self.now.saturating_add(cost).saturating_add(latency);
        self.pending.push(Pending::new(at, Item::Deliver { to, from, id: self.next_id, msg }));
    }

    fn deliver(&mut self, to: PeId, from: PeId, id: u64, msg: Msg<T>, io: &mut Io) {
        let kind = msg.kind();
        self.work_in_flight -= u64::from(kind == Kind::Work);
        self.ghost.received(to, from, &msg);
        let queue = (kind == Kind::Request).then(|| self.nodes[to as usize].pe.balancer.queued_requests());
        io.emit(msg.recv_event(self.now, to, from, id, queue));
        let cost = self.call(to, io, |pe, ctx| pe.on_message(ctx, from, msg));
        self.maybe_busy(to, cost, io);
    }

    /// Emits `busy` and starts a slice if the PE just got work.
    fn maybe_busy(&mut self, pe: PeId, delay: u64, io: &mut Io) {
        let node = &mut self.nodes[pe as usize];
        if !node.busy && node.pe.has_work() {
            node.busy = true;
            self.holding += 1;
            io.emit(Event::Busy { t: self.now, pe });
            self.start_slice(pe, self.now.saturating_add(delay));
        }
    }

    fn start_slice(&mut self, pe: PeId, at: u64) {
        let node = &mut self.nodes[pe as usize];
        let task = node.pe.task_mut().expect("a busy PE has a task");
        let (mut log, gen) = (WorkLog::default(), task.generation());
        let units = task.work(self.params.sim.dt, &mut log);
        node.slice = Some(Slice { units, gen, log });
        self.pending.push(Pending::new(at.saturating_add(units), Item::SliceEnd { pe }));
    }

    fn slice_end(&mut self, pe: PeId, io: &mut Io) {
        let s = self.nodes[pe as usize].slice.take().expect("a slice was running");
        self.ghost.worked(&s.log);
        io.emit(Event::work(self.now, pe, s.units, s.gen, &s.log));
        if self.nodes[pe as usize].pe.has_work() {
            let cost = self.call(pe, io, |p, ctx| p.on_poll(ctx));
            self.start_slice(pe, self.now.saturating_add(cost));
        } else {
            self.nodes[pe as usize].busy = false;
            self.holding -= 1;
            io.emit(Event::Idle { t: self.now, pe });
            let cost = self.call(pe, io, |p, ctx| p.on_exhausted(ctx));
            self.maybe_busy(pe, cost, io);
        }
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
        let mut due: Vec<Action> =
            self.pending.iter().filter(|p| p.at == at).map(|p| Action { key: p.key, pe: p.item.pe() }).collect();
        due.sort_by_key(|a| (a.pe, a.key));
        due.dedup();
        due
    }

    fn apply(&self, i: usize, script: &mut Script) -> Self {
        self.step(i, script, None)
    }

    fn digest(&self) -> u128 {
        let mut items: Vec<u64> = self.pending.iter().map(|p| p.key).collect();
        items.sort_unstable();
        let nodes: Vec<u128> = self.nodes.iter().map(|n| n.digest).collect();
        let (now, quiet) = (self.now, self.quiet_since);
        digest_of(&(now, self.holding, self.work_in_flight, quiet, self.announced, &self.ghost, items, nodes))
    }

    fn violation(&self) -> Option<Violation> {
        if self.announced && (self.holding > 0 || self.work_in_flight > 0) {
            let (h, w) = (self.holding, self.work_in_flight);
            let detail =
                format!("announced at t = {} while {h} PEs hold work and {w} work messages are in flight", self.now);
            return Some(Violation { property: "no_early_termination".into(), detail });
        }
        self.ghost.energy_violation(
            self.now,
            self.pending.iter().filter_map(|p| match &p.item {
                Item::Deliver { msg, .. } => msg.energy(),
                _ => None,
            }),
        )
    }

    fn end_violation(&self) -> Option<Violation> {
        let fail = |property: &str, detail: String| Some(Violation { property: property.into(), detail });
        if !self.announced {
            let since = self.quiet_since.unwrap_or(self.now);
            let h = self.params.horizon;
            return fail(
                "termination_detected",
                format!("the computation was over at t = {since}; no announcement within {h} (the explorer's horizon)"),
            );
        }
        if let Some(pe) = self.nodes.iter().position(|n| !n.pe.terminated()) {
            return fail("termination_detected", format!("PE {pe} never learnt of the termination"));
        }
        self.ghost.end_violation(self.params.reference.as_ref())
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
        let control = |q: i64| Item::<u8>::Deliver {
            to: 1,
            from: 0,
            id: 3,
            msg: Msg::Control(Box::new(serde_json::json!({"q": q, "black": false}))),
        };
        assert_eq!(control(1).key(5), control(1).key(5));
        assert_ne!(control(1).key(5), control(2).key(5));
    }
}
