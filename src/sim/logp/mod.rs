//! The discrete-event simulator of 001's machine (see [`super`]).
//!
//! Model choices: a work slice of `u` units takes `u × speed` time and is
//! followed by a poll, which costs T_poll; every message sent or received
//! costs its PE o (owed until its next slice when it arrives mid-slice), and
//! a PE's messages leave at least g apart (001 §1.1's full machine costs:
//! T_rout = L + o + g; all 0 by default); a split charges T_split to the splitter, whose next
//! slice starts T_split later, and the part sent arrives T_split + latency
//! after the poll; a busy PE queues requests until its next poll, while
//! detector messages are handled on arrival (they cost no time). A
//! deactivated worker (002 §3; [`Balancer::inactive_window`]) starts no
//! slice in its window: its work waits, *parked*, until the window ends
//! (or until it gives all of it away, when it goes idle at once).

use rand::seq::index::sample;
use rand_chacha::ChaCha8Rng;

use super::agenda::Agenda;
use super::latency::Network;
use super::mail::Mail;
use super::prefetch::prefetch;
use super::SimConfig;
use crate::base::rng::{stream, Purpose};
use crate::event::{Event, Kind};
use crate::problem::{Subproblem, WorkLog};
use crate::protocol::initial::assign;
use crate::protocol::{Balancer, Command, Ctx, Detector, Msg, Pe, PeId};

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Simulator steps (queue events) processed.
    pub steps: u64,
    /// Time of the last event.
    pub end_time: u64,
    /// Why the run stopped.
    pub stop: Stop,
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// No event was left (the trace ends with `end`).
    Drained,
    /// The step cap was reached.
    StepCap,
    /// No PE held work and no work was in flight for longer than the
    /// detection horizon, and termination was still not announced.
    NotAnnounced {
        /// Time from which the computation was over.
        quiet_since: u64,
    },
    /// Model time would have passed [`END_OF_TIME`] (the run is too long
    /// for the simulator's clock).
    TimeOverflow,
    /// A threaded run's wall-clock deadline passed before termination spread.
    Deadline,
}

impl Outcome {
    /// True if the run finished normally (`Stop::Drained`).
    pub fn finished(&self) -> bool {
        self.stop == Stop::Drained
    }
}

/// The last model time, 2^63: a run that would go past it stops with
/// [`Stop::TimeOverflow`] (the agenda keeps headroom above its times).
pub const END_OF_TIME: u64 = 1 << 63;

/// An agenda entry (a few words: a message's payload travels boxed, [`Mail`]).
enum Item<T> {
    Deliver { to: PeId, from: PeId, id: u64, mail: Mail<T> },
    SliceEnd { pe: PeId },
    Timer { pe: PeId },
    Wake { pe: PeId },
}

impl<T> Item<T> {
    /// The PE the event happens at.
    fn pe(&self) -> PeId {
        match *self {
            Item::Deliver { to, .. } => to,
            Item::SliceEnd { pe } | Item::Timer { pe } | Item::Wake { pe } => pe,
        }
    }
}

/// How many events ahead the simulator prefetches a PE's state: enough for
/// main memory to answer while the events before it run.
const PREFETCH_AHEAD: usize = 8;

struct Slice {
    units: u64,
    gen: u32,
    log: WorkLog,
}

/// A PE's state that (nearly) every event at it touches; its random
/// stream and running slice, touched by fewer events, live apart
/// ([`Sim::rngs`], [`Sim::slices`]) so that a slot spans few cache lines.
struct Slot<B, D> {
    pe: Pe<B, D>,
    speed: u64,
    busy: bool,
    /// PE time owed for messages sent or received during a slice (o, 001
    /// §1.1), paid before the next slice.
    debt: u64,
    /// The earliest time this PE's next message may leave (the gap g).
    next_send: u64,
    /// Busy, but deactivated: no slice until it wakes.
    parked: bool,
}

struct Sim<'s, T, B, D> {
    cfg: SimConfig,
    slots: Vec<Slot<B, D>>,
    /// Per PE, its protocol stream.
    rngs: Vec<ChaCha8Rng>,
    /// Per PE, the slice it is working on.
    slices: Vec<Option<Slice>>,
    agenda: Agenda<Item<T>>,
    out: Vec<Command<T>>,
    network: Network,
    now: u64,
    next_id: u64,
    /// PEs holding work, and work messages in flight (the driver's truth).
    holding: u32,
    work_in_flight: u64,
    quiet_since: Option<u64>,
    announced: bool,
    overflow: bool,
    sink: &'s mut dyn FnMut(Event),
    /// Per PE, its further initial pieces (000 §1.2's randomised
    /// initialisation), the next one last.
    more: Vec<Vec<T>>,
}

/// Runs `root` on `cfg.pes` PEs built by `make`, feeding every event to `sink`.
pub fn run<T, B, D>(cfg: &SimConfig, root: T, make: impl Fn(PeId) -> Pe<B, D>, sink: &mut dyn FnMut(Event)) -> Outcome
where
    T: Subproblem,
    B: Balancer<Task = T>,
    D: Detector<T>,
{
    if let Err(why) = cfg.validate() {
        panic!("invalid simulator configuration: {why}");
    }
    let speeds = speeds(cfg);
    let slots = (0..cfg.pes)
        .map(|i| Slot { pe: make(i), speed: speeds[i as usize], busy: false, debt: 0, next_send: 0, parked: false })
        .collect();
    let mut sim = Sim {
        cfg: *cfg,
        slots,
        rngs: (0..cfg.pes).map(|i| stream(cfg.seed, i, Purpose::Protocol)).collect(),
        slices: (0..cfg.pes).map(|_| None).collect(),
        agenda: Agenda::default(),
        out: Vec::new(),
        network: Network::new(
            cfg.latency.unwrap_or((cfg.t_rout, cfg.t_rout)),
            cfg.shape,
            cfg.schedule,
            cfg.fifo_links,
            stream(cfg.seed, 0, Purpose::Latency),
        )
        .on(cfg.topology, cfg.pes),
        now: 0,
        next_id: 0,
        holding: 0,
        work_in_flight: 0,
        quiet_since: None,
        announced: false,
        overflow: false,
        sink,
        more: Vec::new(),
    };
    sim.start_all(root);
    sim.event_loop()
}

/// Time per work unit of each PE.
fn speeds(cfg: &SimConfig) -> Vec<u64> {
    let mut speeds = vec![1; cfg.pes as usize];
    if let Some((count, factor)) = cfg.slow {
        let mut rng = stream(cfg.seed, 0, Purpose::Speeds);
        for i in sample(&mut rng, cfg.pes as usize, count.min(cfg.pes) as usize) {
            speeds[i] = factor;
        }
    }
    speeds
}

impl<T, B, D> Sim<'_, T, B, D>
where
    T: Subproblem,
    B: Balancer<Task = T>,
    D: Detector<T>,
{
    fn start_all(&mut self, root: T) {
        let starts = assign(root, self.cfg.pes, self.cfg.initial_split, self.cfg.seed);
        for (i, start) in starts.into_iter().enumerate() {
            let delay = start.splits.saturating_mul(self.cfg.t_split);
            self.more.push(start.more.into_iter().rev().collect());
            self.call(i as PeId, |pe, ctx| pe.start(ctx, start.part, start.share));
            if let Some((_, to)) = self.slots[i].pe.inactive_window() {
                self.agenda.push(to, Item::Wake { pe: i as PeId });
            }
            self.maybe_busy(i as PeId, delay);
        }
    }

    /// A PE whose subproblem ran out takes its next initial piece, if it
    /// has one (000 §1.2), and stays busy; returns the PE time charged.
    fn refill(&mut self, pe: PeId) -> u64 {
        if self.slots[pe as usize].pe.has_work() {
            return 0;
        }
        match self.more[pe as usize].pop() {
            Some(next) => self.call(pe, |p, ctx| p.resume(ctx, next)),
            None => 0,
        }
    }

    fn event_loop(mut self) -> Outcome {
        let (mut steps, horizon) = (0, self.cfg.detect_horizon());
        while let Some(time) = self.agenda.peek_time() {
            if steps == self.cfg.max_steps {
                return Outcome { steps, end_time: self.now, stop: Stop::StepCap };
            }
            if self.overflow {
                return Outcome { steps, end_time: self.now, stop: Stop::TimeOverflow };
            }
            if let Some(quiet_since) = self.quiet_since.filter(|q| !self.announced && time > q.saturating_add(horizon))
            {
                return Outcome { steps, end_time: self.now, stop: Stop::NotAnnounced { quiet_since } };
            }
            steps += 1;
            let (time, item) = self.agenda.pop().expect("peeked");
            self.prefetch_ahead();
            self.now = time;
            match item {
                Item::Deliver { to, from, id, mail } => self.deliver(to, from, id, mail.into()),
                Item::SliceEnd { pe } => self.slice_end(pe),
                Item::Timer { pe } => {
                    let cost = self.call(pe, |p, ctx| p.on_timer(ctx));
                    self.maybe_busy(pe, cost);
                }
                Item::Wake { pe } => self.wake(pe),
            }
            self.note_quiet();
        }
        (self.sink)(Event::End { t: self.now });
        Outcome { steps, end_time: self.now, stop: Stop::Drained }
    }

    /// Prefetches the state of the PE the event [`PREFETCH_AHEAD`] steps
    /// on will touch, so that it is cached by then: its slot, and its random
    /// stream if the event is one after which an idle PE asks for work
    /// (a reject, the end of a slice).
    fn prefetch_ahead(&self) {
        if let Some(item) = self.agenda.upcoming().nth(PREFETCH_AHEAD) {
            let pe = item.pe() as usize;
            prefetch(&self.slots[pe]);
            if matches!(item, Item::Deliver { mail: Mail::Reject, .. } | Item::SliceEnd { .. }) {
                prefetch(&self.rngs[pe]);
            }
        }
    }

    /// Records when the computation became over (no work held or in flight).
    fn note_quiet(&mut self) {
        let quiet = self.holding == 0 && self.work_in_flight == 0;
        match (quiet, self.quiet_since) {
            (true, None) => self.quiet_since = Some(self.now),
            (false, Some(_)) => self.quiet_since = None,
            _ => {}
        }
    }

    /// Runs a handler of PE `me` and carries out its commands; returns the
    /// PE time it charged (T_split per split, o per message sent).
    fn call(&mut self, me: PeId, f: impl FnOnce(&mut Pe<B, D>, &mut Ctx<T>)) -> u64 {
        self.call_after(me, 0, f)
    }

    /// [`Self::call`] for a PE already busy for `start` (its messages leave
    /// after that); returns `start` plus what the handler charged.
    fn call_after(&mut self, me: PeId, start: u64, f: impl FnOnce(&mut Pe<B, D>, &mut Ctx<T>)) -> u64 {
        let rng = &mut self.rngs[me as usize];
        let mut ctx = Ctx { now: self.now, me, pes: self.cfg.pes, rng, out: &mut self.out };
        f(&mut self.slots[me as usize].pe, &mut ctx);
        let mut out = std::mem::take(&mut self.out);
        let cost = out.drain(..).fold(start, |cost, cmd| cost + self.apply(me, cmd, cost));
        self.out = out;
        cost
    }

    /// Carries out one command; returns the PE time it adds.
    fn apply(&mut self, me: PeId, cmd: Command<T>, cost: u64) -> u64 {
        if let Command::Send { to, msg } = cmd {
            self.send(me, to, msg, cost);
            return self.cfg.o;
        }
        if let Command::Timer { after } = cmd {
            let at = self.later(self.now, Some(after));
            self.agenda.push(at, Item::Timer { pe: me });
            return 0;
        }
        self.announced |= matches!(cmd, Command::Announce);
        if let Some(e) = cmd.event(self.now, me) {
            (self.sink)(e);
        }
        match cmd {
            Command::Split { .. } => self.cfg.t_split,
            _ => 0,
        }
    }

    fn send(&mut self, from: PeId, to: PeId, msg: Msg<T>, cost: u64) {
        self.next_id += 1;
        let id = self.next_id;
        (self.sink)(msg.send_event(self.now, from, to, id));
        self.work_in_flight += (msg.kind() == Kind::Work) as u64;
        let (slot, g) = (&mut self.slots[from as usize], self.cfg.g);
        let leaves = match g {
            0 => self.now.saturating_add(cost),
            _ => self.now.saturating_add(cost).max(slot.next_send),
        };
        slot.next_send = leaves.saturating_add(g);
        let delay = self.network.delay(from, to, msg.kind(), leaves);
        let at = self.later(self.now, (leaves - self.now).checked_add(delay));
        self.agenda.push(at, Item::Deliver { to, from, id, mail: msg.into() });
    }

    /// `base + delay`; if that passes [`END_OF_TIME`] (or `delay` is
    /// `None`, an overflow already), [`END_OF_TIME`], and the run stops.
    fn later(&mut self, base: u64, delay: Option<u64>) -> u64 {
        match delay.and_then(|d| base.checked_add(d)).filter(|&t| t <= END_OF_TIME) {
            Some(t) => t,
            None => {
                self.overflow = true;
                END_OF_TIME
            }
        }
    }

    fn deliver(&mut self, to: PeId, from: PeId, id: u64, msg: Msg<T>) {
        let kind = msg.kind();
        self.work_in_flight -= (kind == Kind::Work) as u64;
        let queue = (kind == Kind::Request).then(|| self.slots[to as usize].pe.balancer.queued_requests());
        (self.sink)(Event::Recv { t: self.now, pe: to, from, id, kind, queue, data: None });
        let mut cost = self.call_after(to, self.cfg.o, |pe, ctx| pe.on_message(ctx, from, msg));
        if self.slots[to as usize].parked {
            cost += self.refill(to); // a deactivated PE gave its piece away
        }
        let slot = &mut self.slots[to as usize];
        if slot.parked && !slot.pe.has_work() {
            slot.parked = false; // a deactivated PE gave all its work away
            let debt = std::mem::take(&mut slot.debt);
            return self.go_idle(to, debt + cost);
        }
        self.maybe_busy(to, cost);
    }

    /// The end of a deactivated PE's window: its parked work resumes (or
    /// it goes idle), and it may ask for work.
    fn wake(&mut self, pe: PeId) {
        let refilled = if self.slots[pe as usize].parked { self.refill(pe) } else { 0 };
        let slot = &mut self.slots[pe as usize];
        slot.debt += refilled;
        if std::mem::take(&mut slot.parked) {
            let debt = std::mem::take(&mut slot.debt);
            match slot.pe.has_work() {
                true => {
                    let at = self.later(self.now, Some(debt));
                    self.start_slice(pe, at);
                }
                false => self.go_idle(pe, debt),
            }
        }
        let cost = self.call(pe, |p, ctx| p.on_wake(ctx));
        self.maybe_busy(pe, cost);
    }

    /// Emits `busy` and starts working if the PE just got work; a PE busy
    /// already owes `delay` before its next slice.
    fn maybe_busy(&mut self, pe: PeId, delay: u64) {
        let slot = &mut self.slots[pe as usize];
        if slot.busy {
            slot.debt += delay;
        } else if slot.pe.has_work() {
            slot.busy = true;
            self.holding += 1;
            (self.sink)(Event::Busy { t: self.now, pe });
            let at = self.later(self.now, Some(delay));
            self.start_slice(pe, at);
        }
    }

    fn start_slice(&mut self, pe: PeId, at: u64) {
        let (dt, slot) = (self.cfg.dt, &mut self.slots[pe as usize]);
        if slot.pe.inactive_window().is_some_and(|(from, to)| (from..to).contains(&at)) {
            slot.parked = true;
            return;
        }
        let task = slot.pe.task_mut().expect("a busy PE has a task");
        let mut log = WorkLog::default();
        let gen = task.generation();
        let units = task.work(dt, &mut log);
        let took = units.checked_mul(slot.speed);
        self.slices[pe as usize] = Some(Slice { units, gen, log });
        let end = self.later(at, took);
        self.agenda.push(end, Item::SliceEnd { pe });
    }

    fn slice_end(&mut self, pe: PeId) {
        let s = self.slices[pe as usize].take().expect("a slice was running");
        (self.sink)(Event::work(self.now, pe, s.units, s.gen, &s.log));
        let debt = std::mem::take(&mut self.slots[pe as usize].debt) + self.refill(pe);
        if self.slots[pe as usize].pe.has_work() {
            let cost = self.call_after(pe, debt + self.cfg.t_poll, |p, ctx| p.on_poll(ctx));
            let at = self.later(self.now, Some(cost));
            self.start_slice(pe, at);
        } else {
            self.go_idle(pe, debt);
        }
    }

    /// A busy PE ran out of work: `idle`, and its balancer is told (after
    /// `debt` of PE time).
    fn go_idle(&mut self, pe: PeId, debt: u64) {
        self.slots[pe as usize].busy = false;
        self.holding -= 1;
        (self.sink)(Event::Idle { t: self.now, pe });
        let cost = self.call_after(pe, debt, |p, ctx| p.on_exhausted(ctx));
        self.maybe_busy(pe, cost);
    }
}
