//! The per-PE loop the real drivers share (../shared/ARCHITECTURE.md "One
//! protocol, many drivers"): a [`PeLoop`] owns one sans-IO [`Pe`], its
//! random stream, its command buffer, its work counters and a [`Link`], the
//! driver's side of the PE (how a message is sent and received, how a batch
//! of events is stamped and stored).
//!
//! Every handler call is one *batch* ([`PeLoop::call`]): the handler runs,
//! its commands are carried out (events recorded, messages held back), the
//! batch closes, and only then are its messages sent, so that each `send`
//! precedes its `recv` in the merged trace (`record`'s and `mpi`'s merge
//! rules). A work slice ([`PeLoop::slice`]) follows the call order of
//! [`crate::protocol`] and 003 §14.7's loop: Δt units of work, the PE's
//! next initial piece if it ran out (000 §1.2), the messages that arrived
//! meanwhile, then a poll (001 Fig. 1: serve one queued request) or, out of
//! work, the transition to idle.
//!
//! A driver is a `PeLoop` with its link: `threads` and `mpi::world` add
//! their own methods (the run loop, the end) to `PeLoop<_, _, _, TheirLink>`.

use rand_chacha::ChaCha8Rng;

use super::mailbox::Envelope;
use super::sync::let_others_run;
use crate::base::rng::{stream, Purpose};
use crate::event::{Event, Kind};
use crate::problem::{Subproblem, WorkLog};
use crate::protocol::initial::Start;
use crate::protocol::{Balancer, Command, Ctx, Detector, Msg, Pe, PeId};

/// What differs between the drivers around the shared loop. The two hooks
/// of a slice take the whole loop: receiving hands messages to the PE.
pub(crate) trait Link<T: Subproblem>: Sized {
    /// What a message carries from the batch that sent it (MPI: its
    /// Lamport stamp; threads: nothing).
    type Stamp: Copy;

    /// Records an event in the open batch (built only when recording).
    fn note(&mut self, event: impl FnOnce() -> Event);

    /// Closes the open batch (`at_start`: the PE's start, at t = 0) and
    /// returns the stamp its messages carry.
    fn close(&mut self, at_start: bool) -> Self::Stamp;

    /// Sends `env` to PE `to` (after the batch that sent it closed).
    fn send(&mut self, to: PeId, stamp: Self::Stamp, env: Envelope<T>);

    /// Right after a slice's work, before anything else (MPI: a test's fault).
    fn worked<B: Balancer<Task = T>, D: Detector<T>>(_lp: &mut PeLoop<T, B, D, Self>) {}

    /// Counts `delta` busy PEs and work messages in flight (the threaded
    /// driver's stall watch; `stall`'s docs say when it is called).
    fn activity(&mut self, _delta: i64) {}

    /// Handles the messages that arrived during a slice ([`PeLoop::deliver`])
    /// until none is left or the PE learnt of termination.
    fn receive<B: Balancer<Task = T>, D: Detector<T>>(lp: &mut PeLoop<T, B, D, Self>);
}

/// One PE of a real driver: the [`Pe`] and what its handlers need.
pub(crate) struct PeLoop<T, B, D, L> {
    pub(crate) me: PeId,
    pub(crate) pes: u32,
    pub(crate) pe: Pe<B, D>,
    rng: ChaCha8Rng,
    /// Δt: work units (nodes) per slice.
    dt: u64,
    /// The last `busy`/`idle` event recorded was `busy`.
    busy: bool,
    next_id: u64,
    /// Work units done.
    pub(crate) units: u64,
    out: Vec<Command<T>>,
    /// The open batch's messages, sent when it closes.
    outgoing: Vec<(PeId, Envelope<T>)>,
    /// Its further initial pieces (000 §1.2), the next one last.
    more: Vec<T>,
    /// The driver's side.
    pub(crate) link: L,
}

impl<T, B, D, L> PeLoop<T, B, D, L>
where
    T: Subproblem,
    B: Balancer<Task = T>,
    D: Detector<T>,
    L: Link<T>,
{
    /// PE `me` of `pes`, with its stream of `seed` and Δt = `dt`.
    pub(crate) fn new(me: PeId, pes: u32, seed: u64, dt: u64, pe: Pe<B, D>, link: L) -> Self {
        PeLoop {
            me,
            pes,
            pe,
            rng: stream(seed, me, Purpose::Protocol),
            dt,
            busy: false,
            next_id: 0,
            units: 0,
            out: Vec::new(),
            outgoing: Vec::new(),
            more: Vec::new(),
            link,
        }
    }

    /// Time 0: the PE starts with its part of the root (all of it at PE 0,
    /// or the 002 §3 / 000 §1.2 initial split), its first batch at t = 0.
    pub(crate) fn start(&mut self, start: Start<T>) {
        self.more = start.more.into_iter().rev().collect();
        let (part, share) = (start.part, start.share);
        self.batch(true, |pe, ctx| pe.start(ctx, part, share));
    }

    /// One work slice of Δt units, the messages that came meanwhile, then a
    /// poll or, out of work, the transition to idle.
    pub(crate) fn slice(&mut self) {
        self.work();
        L::worked(self);
        if !self.pe.has_work() {
            if let Some(next) = self.more.pop() {
                self.call(|pe, ctx| pe.resume(ctx, next)); // its next initial piece (000 §1.2)
            }
        }
        let_others_run(); // Δt units took time
        L::receive(self);
        if self.pe.terminated() {
            return;
        }
        if self.pe.has_work() {
            self.call(|pe, ctx| pe.on_poll(ctx));
        } else {
            self.busy = false;
            let me = self.me;
            self.link.note(|| Event::Idle { t: 0, pe: me });
            self.call(|pe, ctx| pe.on_exhausted(ctx));
            self.link.activity(-1);
        }
    }

    /// Δt units on the PE's subproblem, recorded as one `work` event.
    fn work(&mut self) {
        let task = self.pe.task_to_work(self.me);
        let gen = task.generation();
        let mut log = WorkLog::default();
        let units = task.work(self.dt, &mut log);
        self.units += units;
        let me = self.me;
        self.link.note(|| Event::work(0, me, units, gen, &log));
    }

    /// Records the `recv` of `env` and hands the message to the PE.
    pub(crate) fn deliver(&mut self, env: Envelope<T>) {
        let (me, from, id, msg) = (self.me, env.from, env.id, &env.msg);
        let balancer = &self.pe.balancer;
        self.link.note(|| {
            let queue = (msg.kind() == Kind::Request).then(|| balancer.queued_requests());
            msg.recv_event(0, me, from, id, queue)
        });
        let (rejected, work) = (matches!(env.msg, Msg::Reject), matches!(env.msg, Msg::Work { .. }));
        let msg = env.msg;
        self.call(|pe, ctx| pe.on_message(ctx, from, msg));
        if work {
            self.link.activity(-1); // after the batch that handled it counted what it made
        }
        if rejected && !self.pe.has_work() {
            let_others_run(); // before asking again
        }
    }

    /// Runs a handler as one batch (module docs).
    pub(crate) fn call(&mut self, f: impl FnOnce(&mut Pe<B, D>, &mut Ctx<T>)) {
        self.batch(false, f);
    }

    /// Runs a handler, carries out its commands, closes the batch, and only
    /// then sends the messages it sent (so each `send` precedes its `recv`).
    fn batch(&mut self, at_start: bool, f: impl FnOnce(&mut Pe<B, D>, &mut Ctx<T>)) {
        let mut ctx = Ctx { now: self.units, me: self.me, pes: self.pes, rng: &mut self.rng, out: &mut self.out };
        f(&mut self.pe, &mut ctx);
        let mut out = std::mem::take(&mut self.out);
        out.drain(..).for_each(|cmd| self.apply(cmd));
        self.out = out;
        let mut made = self.outgoing.iter().filter(|(_, env)| matches!(env.msg, Msg::Work { .. })).count() as i64;
        if !self.busy && self.pe.has_work() {
            self.busy = true;
            made += 1;
            let me = self.me;
            self.link.note(|| Event::Busy { t: 0, pe: me });
        }
        self.link.activity(made); // before its messages leave
        let stamp = self.link.close(at_start);
        let mut outgoing = std::mem::take(&mut self.outgoing);
        for (to, env) in outgoing.drain(..) {
            self.link.send(to, stamp, env);
        }
        self.outgoing = outgoing;
    }

    /// Carries out one command (times are stamped when the batch closes).
    fn apply(&mut self, cmd: Command<T>) {
        let me = self.me;
        match cmd {
            Command::Send { to, msg } => {
                self.next_id += 1;
                let id = self.next_id * u64::from(self.pes) + u64::from(me);
                self.link.note(|| msg.send_event(0, me, to, id));
                self.outgoing.push((to, Envelope { from: me, id, msg }));
            }
            // No model time on real drivers: mutants that pause are refused there.
            Command::Timer { .. } | Command::Scatter => {}
            cmd => self.link.note(|| cmd.event(0, me).expect("an event")),
        }
    }
}
