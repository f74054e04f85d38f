//! 001's machine, written once (001 §1.1): the PEs' state and the rules
//! by which one event changes it — a message delivered, a work slice
//! ended, a timer, a deactivated PE woken.
//!
//! Model choices: a work slice of `u` units takes `u × speed` time and is
//! followed by a poll, which costs T_poll; every message sent or received
//! costs its PE o (owed until its next slice when it arrives mid-slice;
//! under o > 0 a PE's handlers take its CPU one after another, and what
//! one sends leaves after the time its CPU owes, a slot's `free_at`; its
//! timers and wake-ups wait for its CPU),
//! and a PE's messages leave at least g apart (001 §1.1's full machine costs:
//! T_rout = L + o + g; all 0 by default); a split charges T_split to the splitter, whose next
//! slice starts T_split later, and the part sent arrives T_split + latency
//! after the poll; a busy PE queues requests until its next poll, while
//! detector messages are handled on arrival (they cost no time). A
//! deactivated worker (002 §3; [`Balancer::inactive_window`]) starts no
//! slice in its window: its work waits, *parked*, until the window ends
//! (or until it gives all of it away, when it goes idle at once).
//!
//! What the rules leave open is the [`Env`]'s, the machine's one choice
//! point: each message's latency (001 §1.1 leaves it to the adversary, up
//! to T_rout), the order in which the items due at one instant run, and
//! where the events go. The simulator ([`super`]) draws the latency from its
//! seeded stream and runs simultaneous items in the order they were
//! scheduled; the explorer ([`crate::sim::explore`]) takes every latency
//! and every order. Both drive this one machine through [`Machine::handle`].

use rand::seq::index::sample;
use rand_chacha::ChaCha8Rng;

use super::{Stop, END_OF_TIME};
use crate::base::rng::{stream, Purpose};
use crate::event::{Event, Kind};
use crate::problem::{Subproblem, WorkLog};
use crate::protocol::initial::assign;
use crate::protocol::{Balancer, Command, Ctx, Detector, Msg, Pe, PeId};
use crate::sim::mail::Mail;
use crate::sim::prefetch::huge_vec;
use crate::sim::SimConfig;

/// A pending item (a few words: a message's payload travels boxed, [`Mail`]).
#[derive(Clone, Debug)]
pub(in crate::sim) enum Item<T> {
    /// Message `id` from `from` reaches `to`.
    Deliver { to: PeId, from: PeId, id: u64, mail: Mail<T> },
    /// `pe`'s work slice ends.
    SliceEnd { pe: PeId },
    /// A timer `pe` set expires.
    Timer { pe: PeId },
    /// `pe`'s inactive window ends.
    Wake { pe: PeId },
}

impl<T> Item<T> {
    /// The PE the event happens at (the only PE whose state it changes).
    #[inline]
    pub(in crate::sim) fn pe(&self) -> PeId {
        match *self {
            Item::Deliver { to, .. } => to,
            Item::SliceEnd { pe } | Item::Timer { pe } | Item::Wake { pe } => pe,
        }
    }
}

/// What the machine's rules leave to its driver: where pending items wait
/// (and so the order of those due at one instant), each message's latency,
/// and where the events go. Calls are static (the machine is generic over
/// its `Env`): the simulator's hot loop dispatches nothing at run time.
pub(in crate::sim) trait Env<T> {
    /// `item` is due at `at`.
    fn schedule(&mut self, at: u64, item: Item<T>);
    /// The choice point of a message's latency: how long a message of
    /// `kind` from `from` to `to`, leaving at `leaves`, travels.
    fn delay(&mut self, from: PeId, to: PeId, kind: Kind, leaves: u64) -> u64;
    /// An event of the run.
    fn emit(&mut self, event: Event);
    /// [`Self::delay`] of a message of length `len` under `--routing`
    /// (000 §6.1); by default its length is ignored.
    fn delay_of_length(&mut self, from: PeId, to: PeId, kind: Kind, leaves: u64, _len: u64) -> u64 {
        self.delay(from, to, kind, leaves)
    }
}

/// A work slice in progress.
#[derive(Clone, Debug)]
pub(in crate::sim) struct Slice {
    units: u64,
    gen: u32,
    log: WorkLog,
}

/// A PE's state that (nearly) every event at it touches; its random
/// stream and running slice, touched by fewer events, live apart
/// ([`Machine::rngs`], [`Machine::slices`]) so that a slot spans few cache lines.
#[derive(Clone)]
pub(in crate::sim) struct Slot<B, D> {
    pub(in crate::sim) pe: Pe<B, D>,
    speed: u64,
    pub(in crate::sim) busy: bool,
    /// PE time owed for messages sent or received (o, 001 §1.1) or splits
    /// made during a slice, paid before the next slice.
    pub(in crate::sim) debt: u64,
    /// The earliest time this PE's next message may leave (the gap g).
    next_send: u64,
    /// Under LogP's overhead (o > 0), the time this PE's CPU is taken by
    /// its handlers until: it pays o per message received or sent and
    /// T_split per split one after another (001 §1.1), so what a handler
    /// sends leaves no earlier. A flooded PE's replies slow down with it.
    /// (With o = 0 a handler takes no time and what it splits is owed to
    /// the slice, 001's basic machine.)
    free_at: u64,
    /// Busy, but deactivated: no slice until it wakes.
    pub(in crate::sim) parked: bool,
}

/// The machine: every PE's state, the driver's truth about the
/// computation (work held, work in flight), and its [`Env`].
#[derive(Clone)]
pub(in crate::sim) struct Machine<T, B, D, E> {
    pub(in crate::sim) cfg: SimConfig,
    pub(in crate::sim) slots: Vec<Slot<B, D>>,
    /// Per PE, its protocol stream.
    pub(in crate::sim) rngs: Vec<ChaCha8Rng>,
    /// Per PE, the slice it is working on.
    pub(in crate::sim) slices: Vec<Option<Slice>>,
    out: Vec<Command<T>>,
    pub(in crate::sim) now: u64,
    next_id: u64,
    /// PEs holding work, and work messages in flight (the driver's truth).
    pub(in crate::sim) holding: u32,
    pub(in crate::sim) work_in_flight: u64,
    pub(in crate::sim) quiet_since: Option<u64>,
    pub(in crate::sim) announced: bool,
    /// PEs that learnt of termination (each logs `terminated` once).
    terminated: u32,
    overflow: bool,
    /// Per PE, its further initial pieces (000 §1.2's randomised
    /// initialisation), the next one last; empty if no PE has one.
    more: Vec<Vec<T>>,
    /// The driver's side: pending items, latencies, events.
    pub(in crate::sim) env: E,
}

/// A work message's `send` stating its length `len` under `--routing`
/// (`data: {"len": l}`), so that a checker can price its transfer.
fn with_length(mut event: Event, len: Option<u64>) -> Event {
    if let (Some(l), Event::Send { kind: Kind::Work, data, .. }) = (len, &mut event) {
        *data = Some(Box::new(serde_json::json!({ "len": l })));
    }
    event
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

impl<T, B, D, E> Machine<T, B, D, E>
where
    T: Subproblem,
    B: Balancer<Task = T>,
    D: Detector<T>,
    E: Env<T>,
{
    /// `cfg.pes` PEs built by `make`, none started, driven through `env`.
    pub(in crate::sim) fn new(cfg: &SimConfig, make: impl Fn(PeId) -> Pe<B, D>, env: E) -> Self {
        let speeds = speeds(cfg);
        let slots = huge_vec(cfg.pes as usize, |i| {
            let pe = make(i as PeId);
            Slot { pe, speed: speeds[i], busy: false, debt: 0, next_send: 0, free_at: 0, parked: false }
        });
        Machine {
            cfg: *cfg,
            slots,
            rngs: huge_vec(cfg.pes as usize, |i| stream(cfg.seed, i as PeId, Purpose::Protocol)),
            slices: huge_vec(cfg.pes as usize, |_| None),
            out: Vec::new(),
            now: 0,
            next_id: 0,
            holding: 0,
            work_in_flight: 0,
            quiet_since: None,
            announced: false,
            terminated: 0,
            overflow: false,
            more: Vec::new(),
            env,
        }
    }

    /// Time 0: `root` assigned as `cfg.initial_split` says, every PE started.
    pub(in crate::sim) fn start_all(&mut self, root: T) {
        let starts = assign(root, self.cfg.pes, self.cfg.initial_split, self.cfg.seed);
        for (i, start) in starts.into_iter().enumerate() {
            let delay = start.splits.saturating_mul(self.cfg.t_split);
            if !start.more.is_empty() {
                self.more.resize_with(self.cfg.pes as usize, Vec::new);
                self.more[i] = start.more.into_iter().rev().collect();
            }
            self.call(i as PeId, |pe, ctx| pe.start(ctx, start.part, start.share));
            if let Some((_, to)) = self.slots[i].pe.inactive_window() {
                self.env.schedule(to, Item::Wake { pe: i as PeId });
            }
            self.maybe_busy(i as PeId, delay, 0);
        }
    }

    /// The machine's one step: `item`, due at `time`, happens.
    #[inline]
    pub(in crate::sim) fn handle(&mut self, time: u64, item: Item<T>) {
        self.now = time;
        match item {
            Item::Deliver { to, from, id, mail } => self.deliver(to, from, id, mail),
            Item::SliceEnd { pe } => self.slice_end(pe),
            Item::Timer { pe } | Item::Wake { pe } if self.wait(pe) > 0 => {
                // A PE's own timer or wake-up waits for its CPU, so that what
                // it sends is stamped when the PE gets to it.
                let at = self.slots[pe as usize].free_at;
                self.env.schedule(at, item);
            }
            Item::Timer { pe } => {
                let cost = self.call(pe, |p, ctx| p.on_timer(ctx));
                self.maybe_busy(pe, cost, 0);
            }
            Item::Wake { pe } => self.wake(pe),
        }
        self.note_quiet();
    }

    /// Why the run stops before an item due at `time`, if it does: the
    /// clock overflowed, or the computation has been over for longer than
    /// `horizon` and termination is still not announced, or for longer
    /// than twice `horizon` and some PE has still not learnt of it (its
    /// PEs would otherwise poll each other for ever: a detector that
    /// announces but does not spread the news hung the run until the step
    /// cap, 2·10^9 steps).
    #[inline]
    pub(in crate::sim) fn halts_before(&self, time: u64, horizon: u64) -> Option<Stop> {
        if self.overflow {
            return Some(Stop::TimeOverflow);
        }
        let quiet_since = match self.quiet_since {
            None if self.cfg.max_time.is_some_and(|cap| time > cap) => return Some(Stop::TimeCap),
            None => return None,
            Some(q) => q,
        };
        let past = |h: u64| time > quiet_since.saturating_add(h);
        match self.announced {
            false => past(horizon).then_some(Stop::NotAnnounced { quiet_since }),
            true => (self.terminated < self.cfg.pes && past(horizon.saturating_mul(2)))
                .then_some(Stop::NotTerminated { quiet_since }),
        }
    }

    /// Records when the computation became over (no work held or in flight).
    pub(in crate::sim) fn note_quiet(&mut self) {
        let quiet = self.holding == 0 && self.work_in_flight == 0;
        match (quiet, self.quiet_since) {
            (true, None) => self.quiet_since = Some(self.now),
            (false, Some(_)) => self.quiet_since = None,
            _ => {}
        }
    }

    /// A PE whose subproblem ran out takes its next initial piece, if it
    /// has one (000 §1.2), and stays busy; returns the PE time charged.
    fn refill(&mut self, pe: PeId) -> u64 {
        if self.slots[pe as usize].pe.has_work() {
            return 0;
        }
        let wait = self.wait(pe);
        match self.more.get_mut(pe as usize).and_then(Vec::pop) {
            Some(next) => self.call(pe, |p, ctx| p.resume(ctx, next)) - wait,
            None => 0,
        }
    }

    /// Runs a handler of PE `me` and carries out its commands; returns the
    /// PE time it charged (T_split per split, o per message sent).
    fn call(&mut self, me: PeId, f: impl FnOnce(&mut Pe<B, D>, &mut Ctx<T>)) -> u64 {
        self.call_after(me, 0, f)
    }

    /// How long PE `pe`'s CPU is still taken by its earlier handlers.
    fn wait(&self, pe: PeId) -> u64 {
        self.slots[pe as usize].free_at.saturating_sub(self.now)
    }

    /// [`Self::call`] for a PE already busy for `start` (at least its
    /// [`Self::wait`]; its messages leave after that); returns that plus
    /// what the handler charged, and the PE's CPU is taken until then.
    fn call_after(&mut self, me: PeId, start: u64, f: impl FnOnce(&mut Pe<B, D>, &mut Ctx<T>)) -> u64 {
        let start = start.max(self.wait(me));
        let rng = &mut self.rngs[me as usize];
        let mut ctx = Ctx { now: self.now, me, pes: self.cfg.pes, rng, out: &mut self.out };
        f(&mut self.slots[me as usize].pe, &mut ctx);
        let mut out = std::mem::take(&mut self.out);
        // Commands are carried out where they lie: moving each (~190 bytes
        // with a subproblem inline) out of the buffer cost more than the rest.
        let cost = out.iter_mut().fold(start, |cost, cmd| cost + self.apply(me, cmd, cost));
        out.clear();
        self.out = out;
        if self.cfg.o > 0 {
            self.slots[me as usize].free_at = self.now.saturating_add(cost);
        }
        cost
    }

    /// Carries out one command; returns the PE time it adds.
    fn apply(&mut self, me: PeId, cmd: &mut Command<T>, cost: u64) -> u64 {
        if let Command::Send { to, msg } = cmd {
            self.send(me, *to, msg, cost);
            return self.cfg.o;
        }
        if let Command::Timer { after } = *cmd {
            let at = self.later(self.now, Some(after));
            self.env.schedule(at, Item::Timer { pe: me });
            return 0;
        }
        self.announced |= matches!(cmd, Command::Announce);
        self.terminated += u32::from(matches!(cmd, Command::Terminated));
        if let Some(e) = cmd.event(self.now, me) {
            self.env.emit(e);
        }
        match cmd {
            Command::Split { .. } => self.cfg.t_split,
            _ => 0,
        }
    }

    /// `from` sends `msg` to `to`, after `cost` of PE time; its latency is
    /// the [`Env`]'s choice.
    fn send(&mut self, from: PeId, to: PeId, msg: &mut Msg<T>, cost: u64) {
        self.next_id += 1;
        let id = self.next_id;
        let len = self.cfg.routing.map(|_| self.length(msg));
        self.env.emit(with_length(msg.send_event(self.now, from, to, id), len));
        self.work_in_flight += (msg.kind() == Kind::Work) as u64;
        let (slot, g) = (&mut self.slots[from as usize], self.cfg.g);
        let leaves = match g {
            0 => self.now.saturating_add(cost),
            _ => self.now.saturating_add(cost).max(slot.next_send),
        };
        slot.next_send = leaves.saturating_add(g);
        let delay = match len {
            None => self.env.delay(from, to, msg.kind(), leaves),
            Some(l) => self.env.delay_of_length(from, to, msg.kind(), leaves, l),
        };
        let at = self.later(self.now, (leaves - self.now).checked_add(delay));
        self.env.schedule(at, Item::Deliver { to, from, id, mail: Mail::take(msg) });
    }

    /// A message's length l under `--routing` (000 §6.1): a work
    /// message's subproblem in units of `--msg-len` bytes, any other 1.
    fn length(&self, msg: &Msg<T>) -> u64 {
        match msg {
            Msg::Work { task, .. } => self.cfg.length_of(task.wire_len()),
            _ => 1,
        }
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

    /// `mail` reaches `to`. It stays mail (a few words) until the handler
    /// takes it as a [`Msg`]: moving a whole `Msg` (~150 bytes) through
    /// the call cost more than the rest of a request's delivery.
    fn deliver(&mut self, to: PeId, from: PeId, id: u64, mail: Mail<T>) {
        let kind = mail.kind();
        self.work_in_flight -= (kind == Kind::Work) as u64;
        let queue = (kind == Kind::Request).then(|| self.slots[to as usize].pe.balancer.queued_requests());
        self.env.emit(mail.recv_event(self.now, to, from, id, queue));
        let wait = self.wait(to);
        let mut cost = self.call_after(to, wait + self.cfg.o, |pe, ctx| pe.on_message(ctx, from, mail.into()));
        if self.slots[to as usize].parked {
            cost += self.refill(to); // a deactivated PE gave its piece away
        }
        let slot = &mut self.slots[to as usize];
        if slot.parked && !slot.pe.has_work() {
            slot.parked = false; // a deactivated PE gave all its work away
            let debt = std::mem::take(&mut slot.debt);
            return self.go_idle(to, debt + cost - wait);
        }
        self.maybe_busy(to, cost, wait);
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
        if self.slots[pe as usize].busy {
            // A slice runs (its units already taken from the task): its end
            // polls, or finds the PE out of work and it asks then. Asking
            // now, mid-slice, let a reply meet the next initial piece.
            return;
        }
        let cost = self.call(pe, |p, ctx| p.on_wake(ctx));
        self.maybe_busy(pe, cost, 0);
    }

    /// Emits `busy` and starts working after `delay` if the PE just got
    /// work; a PE busy already owes `delay` less the `waited` part (time
    /// its earlier handlers, owed already, took) before its next slice.
    fn maybe_busy(&mut self, pe: PeId, delay: u64, waited: u64) {
        let slot = &mut self.slots[pe as usize];
        if slot.busy {
            slot.debt += delay - waited;
        } else if slot.pe.has_work() {
            slot.busy = true;
            self.holding += 1;
            self.env.emit(Event::Busy { t: self.now, pe });
            let at = self.later(self.now, Some(delay));
            self.start_slice(pe, at);
        }
    }

    /// Starts a slice of Δt units at `at`, or of fewer if that would run into
    /// the PE's inactive window (at least one unit): a deactivated PE gives
    /// its work away (002 §3), and a part given mid-slice would carry what
    /// the slice, worked at its start and reported at its end, found later
    /// (an incumbent before its solution, `prune_sound`).
    fn start_slice(&mut self, pe: PeId, at: u64) {
        let slot = &mut self.slots[pe as usize];
        let dt = match slot.pe.inactive_window() {
            Some((from, to)) if (from..to).contains(&at) => {
                slot.parked = true;
                return;
            }
            Some((from, _)) if from > at => self.cfg.dt.min((from - at) / slot.speed).max(1),
            _ => self.cfg.dt,
        };
        let task = slot.pe.task_to_work(pe);
        let mut log = WorkLog::default();
        let gen = task.generation();
        let units = task.work(dt, &mut log);
        let took = units.checked_mul(slot.speed);
        self.slices[pe as usize] = Some(Slice { units, gen, log });
        let end = self.later(at, took);
        self.env.schedule(end, Item::SliceEnd { pe });
    }

    fn slice_end(&mut self, pe: PeId) {
        let s = self.slices[pe as usize].take().expect("a slice was running");
        self.env.emit(Event::work(self.now, pe, s.units, s.gen, &s.log));
        let debt = std::mem::take(&mut self.slots[pe as usize].debt) + self.refill(pe);
        if self.slots[pe as usize].pe.has_work() {
            let owed = debt.max(self.wait(pe)) + self.cfg.t_poll;
            let cost = self.call_after(pe, owed, |p, ctx| p.on_poll(ctx));
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
        self.env.emit(Event::Idle { t: self.now, pe });
        let cost = self.call_after(pe, debt, |p, ctx| p.on_exhausted(ctx));
        self.maybe_busy(pe, cost, 0);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::base::Fraction;
    use crate::problem::{dfs::Strategy, Task, Workload};
    use crate::protocol::random_polling::{RandomPolling, Rules};
    use crate::sim::logp::run;

    /// A detector with a message of its own: PE 0 sends `{"n": 1}` to PE 1,
    /// which answers `{"n": n + 1}` with the `n` it received; PE 0
    /// announces on `{"n": 2}`.
    #[derive(Clone, Debug)]
    struct Echo;

    impl<T> Detector<T> for Echo {
        fn start(&mut self, ctx: &mut Ctx<T>, _: bool, _: Option<Fraction>) {
            if ctx.me == 0 {
                ctx.send(1, Msg::Control(Box::new(json!({"n": 1}))));
            }
        }
        fn on_work_sent(&mut self, _: &mut Ctx<T>, _: u32) -> Option<Fraction> {
            None
        }
        fn on_work_received(&mut self, _: &mut Ctx<T>, _: PeId, _: Option<Fraction>) {}
        fn on_idle(&mut self, _: &mut Ctx<T>) {}
        fn on_message(&mut self, ctx: &mut Ctx<T>, from: PeId, msg: Msg<T>, _: bool) {
            let Msg::Control(v) = msg else { panic!("Echo has only control messages") };
            let n = v["n"].as_u64().expect("a number");
            match ctx.me {
                0 if n == 2 => ctx.out.push(Command::Announce),
                _ => ctx.send(from, Msg::Control(Box::new(json!({"n": n + 1})))),
            }
        }
    }

    /// A control message's payload reaches the receiving detector (PE 1
    /// answers with what it read) and is the `data` of its `send` and `recv`.
    #[test]
    fn control_payloads_reach_the_detector_and_the_events() {
        let root = "synthetic:size=4".parse::<Workload>().unwrap().root(Strategy::default());
        let cfg = SimConfig { pes: 2, ..SimConfig::default() };
        let mut events = Vec::new();
        let make = |_| Pe::new(RandomPolling::<Task>::new(Rules::paper(), None), Echo);
        let outcome = run(&cfg, root, make, &mut |e| events.push(e));
        assert!(outcome.finished(), "{outcome:?}");
        let data = |n: u64| Some(Box::new(json!({"n": n})));
        let control: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::Send { from, to, kind: Kind::Control, data, .. } => Some(("send", *from, *to, data.clone())),
                Event::Recv { pe, from, kind: Kind::Control, data, .. } => Some(("recv", *from, *pe, data.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(
            control,
            [("send", 0, 1, data(1)), ("recv", 0, 1, data(1)), ("send", 1, 0, data(2)), ("recv", 1, 0, data(2))]
        );
        assert!(events.iter().any(|e| matches!(e, Event::Announce { pe: 0, .. })));
    }

    /// Every PE but 0 sends PE 0 `{"n": 1}` at the start; PE 0 answers
    /// each with `{"n": 2}`, and sends PE 1 `{"n": 3}` when its timer, set
    /// at the start, expires at `TICK`.
    #[derive(Clone, Debug)]
    struct Flood;

    const TICK: u64 = 9;

    impl<T> Detector<T> for Flood {
        fn start(&mut self, ctx: &mut Ctx<T>, _: bool, _: Option<Fraction>) {
            match ctx.me {
                0 => ctx.out.push(Command::Timer { after: TICK }),
                _ => ctx.send(0, Msg::Control(Box::new(json!({"n": 1})))),
            }
        }
        fn on_timer(&mut self, ctx: &mut Ctx<T>, _: bool) {
            ctx.send(1, Msg::Control(Box::new(json!({"n": 3}))));
        }
        fn on_work_sent(&mut self, _: &mut Ctx<T>, _: u32) -> Option<Fraction> {
            None
        }
        fn on_work_received(&mut self, _: &mut Ctx<T>, _: PeId, _: Option<Fraction>) {}
        fn on_idle(&mut self, _: &mut Ctx<T>) {}
        fn on_message(&mut self, ctx: &mut Ctx<T>, from: PeId, _: Msg<T>, _: bool) {
            if ctx.me == 0 {
                ctx.send(from, Msg::Control(Box::new(json!({"n": 2}))));
            }
        }
    }

    /// Under LogP a PE pays o per message received and per message sent,
    /// one after another (001 §1.1): eight requests reaching PE 0 (busy
    /// working) at once are answered at least 2·o apart (other PEs' work
    /// requests may come between), not all after o. (The
    /// replies used to leave together while the overhead piled up as debt
    /// for the next slice, so a flooded PE's late messages waited for it.)
    /// A timer that expires meanwhile waits for the CPU too.
    #[test]
    fn a_flooded_pe_answers_one_message_after_another() {
        let root = "synthetic:size=64".parse::<Workload>().unwrap().root(Strategy::default());
        let (o, t_rout) = (3, 5);
        let cfg = SimConfig { pes: 9, o, t_rout, max_time: Some(200), ..SimConfig::default() };
        let mut events = Vec::new();
        let make = |_| Pe::new(RandomPolling::<Task>::new(Rules::paper(), None), Flood);
        run(&cfg, root, make, &mut |e| events.push(e));
        let sent = |n: u64| {
            events.iter().filter_map(move |e| match e {
                Event::Send { t, from: 0, kind: Kind::Control, data, .. }
                    if *data == Some(Box::new(json!({"n": n}))) =>
                {
                    Some(*t)
                }
                _ => None,
            })
        };
        let replies: Vec<u64> = events
            .iter()
            .filter_map(|e| match e {
                Event::Recv { t, from: 0, kind: Kind::Control, data, .. }
                    if *data == Some(Box::new(json!({"n": 2}))) =>
                {
                    Some(*t)
                }
                _ => None,
            })
            .collect();
        let apart = replies.windows(2).all(|w| w[1] >= w[0] + 2 * o);
        assert!(replies.len() == 8 && apart, "replies received at {replies:?}");
        // The timer expired while PE 0 handled the eight: what it sends is
        // stamped once the PE got to it, after the eight (2·o each).
        let handled: Vec<u64> = sent(2).collect();
        let ticked: Vec<u64> = sent(3).collect();
        assert!(handled.iter().all(|&t| t < TICK), "the eight came before the timer: {handled:?}");
        assert!(ticked.len() == 1 && ticked[0] >= handled[0] + 8 * 2 * o, "timer's send at {ticked:?}");
    }
}
