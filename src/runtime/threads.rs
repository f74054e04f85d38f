//! The threaded driver: the unchanged sans-IO [`Pe`] (balancer + detector)
//! on P OS threads (../shared/ARCHITECTURE.md "One protocol, many drivers").
//!
//! The driver starts every PE ([`Pe::start`], with the root at PE 0 or the
//! 002 §3 initial split) at t = 0, before any thread runs. Then each PE
//! thread runs the loop it shares with the MPI driver (`pe_loop`), which
//! follows the call order of [`crate::protocol`]: it works Δt units (nodes)
//! on its subproblem (a loom yield point), handles every message that
//! arrived meanwhile ([`Pe::on_message`]; a busy PE polls its mailbox's
//! length hint without locking), then polls ([`Pe::on_poll`], 001 Fig. 1:
//! serve one queued request) or, with its subproblem empty, goes idle
//! ([`Pe::on_exhausted`]) and blocks on its mailbox until a message comes.
//! What is this driver's own: the mailboxes, the recorder's global
//! sequence, the deadline and the spreading of the end to the threads.
//! A thread stops once its PE learnt of termination (the announcement spread
//! down the reduction tree); messages still queued for it are dropped.
//! Victims come from the PE's own seeded stream, so all nondeterminism is in
//! the thread interleaving — which is what loom explores.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::mailbox::{Envelope, Mailbox};
use super::pe_loop::{Link, PeLoop};
use super::record::{merge, Recorder};
use crate::event::Event;
use crate::mutants::{seams, Mutant};
use crate::problem::Subproblem;
use crate::protocol::initial::{assign, InitialSplit};
use crate::protocol::{Balancer, Detector, Pe, PeId};
use crate::sim::ConfigError;
use crate::sync::{thread, Arc, TraceSeq};
use serde::{Deserialize, Serialize};

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
/// The longest `--timeout`, a day (in seconds): the deadline is an
/// `Instant` after the start, which a larger one would overflow.
pub const MAX_TIMEOUT_SECS: u64 = 86_400;

impl ThreadConfig {
    /// Checks the parameters: 1 ≤ P ≤ [`MAX_THREADS`], 1 ≤ Δt ≤ [`MAX_DT`],
    /// the deadline at most [`MAX_TIMEOUT_SECS`].
    pub fn validate(&self) -> Result<(), ConfigError> {
        let secs = self.deadline.map_or(0, |d| d.as_secs());
        ConfigError::check("--timeout", secs, 0, MAX_TIMEOUT_SECS)?;
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
    let boxes = (0..cfg.pes).map(|_| Mailbox::new(seams::mailbox(cfg.mutant))).collect();
    let deadline = cfg.deadline.filter(|_| !cfg!(loom)).map(|d| start + d);
    let shared = Arc::new(Shared { boxes, seq: TraceSeq::new(0), start, deadline });
    let workers: Vec<_> = (0..cfg.pes)
        .zip(assign(root, cfg.pes, cfg.initial_split, cfg.seed))
        .map(|(me, start)| {
            let mut worker =
                Worker::new(me, cfg.pes, cfg.seed, cfg.dt, make(me), Threaded::new(me, cfg, shared.clone()));
            worker.start(start);
            worker
        })
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

/// A PE's thread: the shared loop over its mailbox.
type Worker<T, B, D> = PeLoop<T, B, D, Threaded<T>>;

/// The threaded side of a PE: the mailboxes and its recorder.
struct Threaded<T> {
    me: PeId,
    shared: Arc<Shared<T>>,
    rec: Option<Recorder>,
    inbox: VecDeque<Envelope<T>>,
}

impl<T> Threaded<T> {
    fn new(me: PeId, cfg: &ThreadConfig, shared: Arc<Shared<T>>) -> Self {
        Threaded { me, shared, rec: cfg.record.then(Recorder::default), inbox: VecDeque::new() }
    }

    fn mailbox(&self) -> &Mailbox<T> {
        &self.shared.boxes[self.me as usize]
    }
}

impl<T: Subproblem> Link<T> for Threaded<T> {
    type Stamp = ();

    fn note(&mut self, event: impl FnOnce() -> Event) {
        if let Some(rec) = &mut self.rec {
            rec.push(event());
        }
    }

    /// The driver starts every PE, in PE order, before any thread runs, so
    /// the trace opens with all starts at t = 0 (the initial split's energy
    /// shares are all held from the first time step).
    fn close(&mut self, at_start: bool) {
        if let Some(rec) = &mut self.rec {
            rec.flush(&self.shared.seq, self.shared.start, at_start);
        }
    }

    fn send(&mut self, to: PeId, _: (), env: Envelope<T>) {
        self.shared.boxes[to as usize].push(env);
    }

    /// Every message queued by now (a busy PE's poll: no lock if none).
    fn receive<B: Balancer<Task = T>, D: Detector<T>>(lp: &mut Worker<T, B, D>) {
        let link = &mut lp.link;
        link.shared.boxes[link.me as usize].drain_into(&mut link.inbox);
        while let Some(env) = lp.link.inbox.pop_front() {
            lp.deliver(env);
            if lp.pe.terminated() {
                lp.link.inbox.clear();
                return;
            }
        }
    }
}

impl<T, B, D> Worker<T, B, D>
where
    T: Subproblem,
    B: Balancer<Task = T>,
    D: Detector<T>,
{
    /// The thread: slices while it has work, blocks on its mailbox while
    /// idle, until termination reached it or the deadline passed.
    fn run(mut self) -> Done {
        let deadline = self.link.shared.deadline;
        let mut timed_out = false;
        while !self.pe.terminated() && !timed_out {
            if self.pe.has_work() {
                self.slice();
                timed_out = deadline.is_some_and(|d| Instant::now() >= d);
            } else {
                match self.link.mailbox().pop_blocking(deadline) {
                    Some(env) => self.deliver(env),
                    None => timed_out = true,
                }
            }
        }
        self.link.close(false);
        Done { units: self.units, batches: self.link.rec.map(Recorder::into_batches), timed_out }
    }
}
