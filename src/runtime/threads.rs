//! The threaded driver: the unchanged sans-IO [`Pe`] (balancer + detector)
//! on P OS threads (../shared/ARCHITECTURE.md "One protocol, many drivers").
//!
//! The driver starts every PE ([`Pe::start`], with the root at PE 0 or the
//! 002 §3 initial split) at t = 0, before any thread runs. Then each PE
//! thread follows the call order of [`crate::protocol`]: it works Δt units
//! (nodes) on its subproblem (a loom yield point), handles every message that arrived
//! meanwhile ([`Pe::on_message`]; a busy PE polls its mailbox's length hint
//! without locking), then polls ([`Pe::on_poll`], 001 Fig. 1: serve one
//! queued request) or, with its subproblem empty, goes idle
//! ([`Pe::on_exhausted`]) and blocks on its mailbox until a message comes.
//! A thread stops once its PE learnt of termination (the announcement spread
//! down the reduction tree); messages still queued for it are dropped.
//! Victims come from the PE's own seeded stream, so all nondeterminism is in
//! the thread interleaving — which is what loom explores.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::mailbox::{Envelope, Mailbox};
use super::record::{merge, Recorder};
use crate::base::rng::{stream, Purpose};
use crate::event::{Event, Kind};
use crate::mutants::Mutant;
use crate::problem::{Subproblem, WorkLog};
use crate::protocol::initial::{assign, InitialSplit, Start};
use crate::protocol::{Balancer, Command, Ctx, Detector, Msg, Pe, PeId};
use crate::sim::ConfigError;
use crate::sync::{let_others_run, thread, Arc, TraceSeq};

/// Parameters of a threaded run; serialised (in the run specification)
/// under the names of `lbcheck run`'s flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThreadConfig {
    /// Number of PEs, one thread each (P ≥ 1; `--threads`).
    #[serde(rename = "threads")]
    pub pes: u32,
    /// Seed of the PEs' random streams (victim choice).
    pub seed: u64,
    /// Δt: work units (nodes) between polls, ≥ 1.
    pub dt: u64,
    /// Record the event stream (off for benchmarks; the harness sets it).
    #[serde(skip)]
    pub record: bool,
    /// A deliberate bug of the driver, if any (other mutants are ignored
    /// here: they act in the protocols; the harness sets it).
    #[serde(skip)]
    pub mutant: Option<Mutant>,
    /// Start with the root split locally into P parts (002 §3), or into
    /// K·P random pieces (000 §1.2), instead of giving it all to PE 0.
    #[serde(default, skip_serializing_if = "crate::base::text::is_default")]
    pub initial_split: InitialSplit,
    /// Stop every PE this long after the start if termination has not
    /// spread by then (the run is then incomplete: no `end` event). Not
    /// under loom, which has no clocks. `--timeout`, in whole seconds.
    #[serde(
        default,
        rename = "timeout",
        skip_serializing_if = "Option::is_none",
        with = "crate::base::text::seconds::optional"
    )]
    pub deadline: Option<Duration>,
}

/// The most threads a run may start.
pub const MAX_THREADS: u32 = 1024;
/// The largest Δt, 10^9 nodes.
pub const MAX_DT: u64 = 1_000_000_000;

impl ThreadConfig {
    /// Checks the parameters: 1 ≤ P ≤ [`MAX_THREADS`], 1 ≤ Δt ≤ [`MAX_DT`].
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=MAX_THREADS).contains(&self.pes) {
            return Err(ConfigError::range("--threads", self.pes.into(), 1, MAX_THREADS.into()));
        }
        if !(1..=MAX_DT).contains(&self.dt) {
            return Err(ConfigError::range("--dt", self.dt, 1, MAX_DT));
        }
        Ok(self.initial_split.validate(self.pes)?)
    }
}

impl Default for ThreadConfig {
    fn default() -> Self {
        ThreadConfig {
            pes: 2,
            seed: 0,
            dt: 64,
            record: false,
            mutant: None,
            initial_split: InitialSplit::Root,
            deadline: None,
        }
    }
}

/// What a threaded run did.
#[derive(Debug)]
pub struct ThreadRun {
    /// Wall-clock time from before the threads start until all joined.
    pub elapsed: Duration,
    /// Work units done by each PE.
    pub units: Vec<u64>,
    /// The merged event stream (ending with `end` unless timed out), when recorded.
    pub events: Option<Vec<Event>>,
    /// The deadline passed before every PE learnt of termination.
    pub timed_out: bool,
}

impl ThreadRun {
    /// Work units done by all PEs.
    pub fn total_units(&self) -> u64 {
        self.units.iter().sum()
    }
}

struct Shared<T> {
    boxes: Vec<Mailbox<T>>,
    seq: TraceSeq,
    start: Instant,
    deadline: Option<Instant>,
    pes: u32,
}

struct Done {
    units: u64,
    batches: Option<Vec<(u64, Vec<Event>)>>,
    timed_out: bool,
}

/// Runs `root` (given to PE 0, or split among the PEs with
/// `cfg.initial_split`) on `cfg.pes` threads with PEs built by `make`.
pub fn run<T, B, D>(cfg: &ThreadConfig, root: T, make: impl Fn(PeId) -> Pe<B, D>) -> ThreadRun
where
    T: Subproblem + 'static,
    B: Balancer<Task = T> + Send + 'static,
    D: Detector<T> + Send + 'static,
{
    assert!(cfg.pes >= 1 && cfg.dt >= 1, "need P >= 1 and Δt >= 1, got {cfg:?}");
    let start = Instant::now();
    let boxes = (0..cfg.pes).map(|_| Mailbox::new(cfg.mutant)).collect();
    let deadline = cfg.deadline.filter(|_| !cfg!(loom)).map(|d| start + d);
    let shared = Arc::new(Shared { boxes, seq: TraceSeq::new(0), start, deadline, pes: cfg.pes });
    let workers: Vec<_> = (0..cfg.pes)
        .zip(assign(root, cfg.pes, cfg.initial_split, cfg.seed))
        .map(|(me, start)| Worker::new(me, make(me), cfg, shared.clone()).started(start))
        .collect();
    let handles: Vec<_> = workers.into_iter().map(|worker| thread::spawn(move || worker.run())).collect();
    let done: Vec<Done> =
        handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect();
    let elapsed = start.elapsed();
    let units = done.iter().map(|d| d.units).collect();
    let timed_out = done.iter().any(|d| d.timed_out);
    let events = cfg.record.then(|| merge(done.into_iter().filter_map(|d| d.batches).collect(), !timed_out));
    ThreadRun { elapsed, units, events, timed_out }
}

struct Worker<T, B, D> {
    me: PeId,
    pe: Pe<B, D>,
    rng: ChaCha8Rng,
    shared: Arc<Shared<T>>,
    dt: u64,
    busy: bool,
    /// Stamp batches with t = 0 (while starting).
    at_zero: bool,
    next_id: u64,
    units: u64,
    rec: Option<Recorder>,
    out: Vec<Command<T>>,
    inbox: VecDeque<Envelope<T>>,
    outgoing: Vec<(PeId, Envelope<T>)>,
    /// Its further initial pieces (000 §1.2), the next one last.
    more: Vec<T>,
}

impl<T, B, D> Worker<T, B, D>
where
    T: Subproblem,
    B: Balancer<Task = T>,
    D: Detector<T>,
{
    fn new(me: PeId, pe: Pe<B, D>, cfg: &ThreadConfig, shared: Arc<Shared<T>>) -> Self {
        Worker {
            me,
            pe,
            rng: stream(cfg.seed, me, Purpose::Protocol),
            shared,
            dt: cfg.dt,
            busy: false,
            at_zero: false,
            next_id: 0,
            units: 0,
            rec: cfg.record.then(Recorder::default),
            out: Vec::new(),
            inbox: VecDeque::new(),
            outgoing: Vec::new(),
            more: Vec::new(),
        }
    }

    /// Time 0: the PE starts. The driver starts every PE, in PE order, before
    /// any thread runs, so the trace opens with all starts at t = 0 (the
    /// initial split's energy shares are all held from the first time step).
    fn started(mut self, start: Start<T>) -> Self {
        self.at_zero = true;
        self.more = start.more.into_iter().rev().collect();
        let (part, share) = (start.part, start.share);
        self.call(|pe, ctx| pe.start(ctx, part, share));
        self.at_zero = false;
        self
    }

    fn run(mut self) -> Done {
        let deadline = self.shared.deadline;
        let mut timed_out = false;
        while !self.pe.terminated() && !timed_out {
            if self.pe.has_work() {
                self.slice();
                timed_out = deadline.is_some_and(|d| Instant::now() >= d);
            } else {
                match self.shared.boxes[self.me as usize].pop_blocking(deadline) {
                    Some(env) => self.deliver(env),
                    None => timed_out = true,
                }
            }
        }
        self.flush();
        Done { units: self.units, batches: self.rec.map(Recorder::into_batches), timed_out }
    }

    /// One work slice of Δt units, the messages that came meanwhile, then a
    /// poll or, out of work, the transition to idle.
    fn slice(&mut self) {
        let task = self.pe.task_mut().expect("a PE with work has a task");
        let gen = task.generation();
        let mut log = WorkLog::default();
        let units = task.work(self.dt, &mut log);
        self.units += units;
        let me = self.me;
        self.note(|| Event::work(0, me, units, gen, &log));
        if !self.pe.has_work() {
            if let Some(next) = self.more.pop() {
                self.call(|pe, ctx| pe.resume(ctx, next)); // its next initial piece (000 §1.2)
            }
        }
        let_others_run(); // Δt units took time
        self.shared.boxes[me as usize].drain_into(&mut self.inbox);
        while let Some(env) = self.inbox.pop_front() {
            self.deliver(env);
            if self.pe.terminated() {
                self.inbox.clear();
                return;
            }
        }
        if self.pe.has_work() {
            self.call(|pe, ctx| pe.on_poll(ctx));
        } else {
            self.busy = false;
            self.note(|| Event::Idle { t: 0, pe: me });
            self.call(|pe, ctx| pe.on_exhausted(ctx));
        }
    }

    fn deliver(&mut self, env: Envelope<T>) {
        if let Some(rec) = &mut self.rec {
            let kind = env.msg.kind();
            let queue = (kind == Kind::Request).then(|| self.pe.balancer.queued_requests());
            rec.push(Event::Recv { t: 0, pe: self.me, from: env.from, id: env.id, kind, queue, data: None });
        }
        let (from, msg) = (env.from, env.msg);
        let rejected = matches!(msg, Msg::Reject);
        self.call(|pe, ctx| pe.on_message(ctx, from, msg));
        if rejected && !self.pe.has_work() {
            let_others_run(); // before asking again
        }
    }

    /// Runs a handler, carries out its commands, records the batch, and only
    /// then pushes the messages it sent (so each `send` precedes its `recv`).
    fn call(&mut self, f: impl FnOnce(&mut Pe<B, D>, &mut Ctx<T>)) {
        let mut ctx =
            Ctx { now: self.units, me: self.me, pes: self.shared.pes, rng: &mut self.rng, out: &mut self.out };
        f(&mut self.pe, &mut ctx);
        let mut out = std::mem::take(&mut self.out);
        out.drain(..).for_each(|cmd| self.apply(cmd));
        self.out = out;
        if !self.busy && self.pe.has_work() {
            self.busy = true;
            let me = self.me;
            self.note(|| Event::Busy { t: 0, pe: me });
        }
        self.flush();
        let mut outgoing = std::mem::take(&mut self.outgoing);
        for (to, env) in outgoing.drain(..) {
            self.shared.boxes[to as usize].push(env);
        }
        self.outgoing = outgoing;
    }

    /// Carries out one command (times are stamped when the batch closes).
    fn apply(&mut self, cmd: Command<T>) {
        match cmd {
            Command::Send { to, msg } => self.send(to, msg),
            Command::Timer { .. } => {} // no model time on threads: mutants that pause are refused here
            Command::Scatter => {}
            cmd => {
                let me = self.me;
                self.note(|| cmd.event(0, me).expect("an event"));
            }
        }
    }

    fn send(&mut self, to: PeId, msg: Msg<T>) {
        self.next_id += 1;
        let id = self.next_id * u64::from(self.shared.pes) + u64::from(self.me);
        let me = self.me;
        self.note(|| msg.send_event(0, me, to, id));
        self.outgoing.push((to, Envelope { from: self.me, id, msg }));
    }

    /// Records an event (built only when recording).
    fn note(&mut self, event: impl FnOnce() -> Event) {
        if let Some(rec) = &mut self.rec {
            rec.push(event());
        }
    }

    fn flush(&mut self) {
        if let Some(rec) = &mut self.rec {
            rec.flush(&self.shared.seq, self.shared.start, self.at_zero);
        }
    }
}
