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
use std::hash::{DefaultHasher, Hash, Hasher};

use rand_chacha::ChaCha8Rng;

use super::ghost::Ghost;
use super::search::{Action, Model, Violation};
use super::Params;
use crate::base::rng::{stream, Purpose};
use crate::event::{Event, Kind};
use crate::problem::{Subproblem, WorkLog};
use crate::protocol::initial::assign;
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
        let mut h = DefaultHasher::new();
        at.hash(&mut h);
        match self {
            Item::Deliver { to, from, msg, .. } => debug_hash(&mut h, &(0u8, to, from, msg)),
            Item::SliceEnd { pe } => (1u8, pe).hash(&mut h),
            Item::Timer { pe } => (2u8, pe).hash(&mut h),
        }
        h.finish()
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
}

/// The machine's state.
#[derive(Clone)]
pub struct World<T, B, D> {
    params: Params,
    now: u64,
    nodes: Vec<Node<B, D>>,
    pending: Vec<(u64, Item<T>)>,
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
            .map(|i| Node { pe: make(i), rng: stream(params.sim.seed, i, Purpose::Protocol), busy: false, slice: None })
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
        for (i, (task, share)) in assign(root, pes, false).into_iter().enumerate() {
            let cost = w.call(i as PeId, &mut io, |pe, ctx| pe.start(ctx, task, share));
            w.maybe_busy(i as PeId, cost, &mut io);
        }
        w.note_quiet();
        w
    }

    /// [`Model::apply`], with the events of the transition.
    pub fn step(&self, i: usize, script: &mut Script, events: Option<&mut Vec<Event>>) -> Self {
        let key = self.actions()[i].key;
        let mut w = self.clone();
        let at = w.due().expect("an action is due");
        let index = w.pending.iter().position(|(t, item)| *t == at && item.key(at) == key).expect("action is pending");
        let (at, item) = w.pending.swap_remove(index);
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
        let at = self.pending.iter().map(|&(t, _)| t).min()?;
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
                self.pending.push((self.now.saturating_add(after), Item::Timer { pe: me }));
                return 0;
            }
            Command::Energy(ref held) => self.ghost.held(me, held.clone()),
            Command::Announce => self.announced = true,
            _ => {}
        }
        io.emit(cmd.event(self.now, me).expect("not a send"));
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
        let latency = a + io.script.choose((b - a + 1) as usize) as u64;
        let at = self.now.saturating_add(cost).saturating_add(latency);
        self.pending.push((at, Item::Deliver { to, from, id: self.next_id, msg }));
    }

    fn deliver(&mut self, to: PeId, from: PeId, id: u64, msg: Msg<T>, io: &mut Io) {
        let kind = msg.kind();
        self.work_in_flight -= u64::from(kind == Kind::Work);
        self.ghost.received(to, from, &msg);
        let queue = (kind == Kind::Request).then(|| self.nodes[to as usize].pe.balancer.queued_requests());
        io.emit(Event::Recv { t: self.now, pe: to, from, id, kind, queue, data: None });
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
        self.pending.push((at.saturating_add(units), Item::SliceEnd { pe }));
    }

    fn slice_end(&mut self, pe: PeId, io: &mut Io) {
        let s = self.nodes[pe as usize].slice.take().expect("a slice was running");
        self.ghost.worked(&s.log);
        io.emit(Event::Work { t: self.now, pe, units: s.units, gen: s.gen, fp: s.log.fp, cost: None, goal: None });
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
        let mut due: Vec<Action> = self
            .pending
            .iter()
            .filter(|&&(t, _)| t == at)
            .map(|(_, item)| Action { key: item.key(at), pe: item.pe() })
            .collect();
        due.sort_by_key(|a| (a.pe, a.key));
        due.dedup();
        due
    }

    fn apply(&self, i: usize, script: &mut Script) -> Self {
        self.step(i, script, None)
    }

    fn digest(&self) -> u128 {
        let (mut a, mut b) = (DefaultHasher::new(), DefaultHasher::new());
        b.write_u8(0xA5);
        let mut items: Vec<u64> = self.pending.iter().map(|(at, item)| item.key(*at)).collect();
        items.sort_unstable();
        for h in [&mut a, &mut b] {
            (self.now, self.holding, self.work_in_flight, self.quiet_since, self.announced).hash(h);
            self.ghost.hash(h);
            items.hash(h);
            for n in &self.nodes {
                debug_hash(h, &(&n.pe.balancer, &n.pe.detector, n.pe.terminated(), n.busy, &n.slice));
                (n.rng.get_word_pos(), n.rng.get_stream()).hash(h);
            }
        }
        (u128::from(a.finish()) << 64) | u128::from(b.finish())
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
            self.pending.iter().filter_map(|(_, item)| match item {
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
        self.ghost.end_violation(&self.params.reference)
    }
}

/// Feeds the `Debug` rendering of `v` to `h` (the protocols' state types
/// all render every field; no string is built).
fn debug_hash(h: &mut impl Hasher, v: &impl fmt::Debug) {
    struct Feed<'a, H>(&'a mut H);
    impl<H: Hasher> fmt::Write for Feed<'_, H> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0.write(s.as_bytes());
            Ok(())
        }
    }
    let _ = write!(Feed(h), "{v:?}");
}
