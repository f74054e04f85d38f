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
use std::time::Instant;

use super::mailbox::{Envelope, Mailbox};
use super::pe_loop::{Link, PeLoop};
use super::record::{merge, Recorder};
pub use super::stall::STALL_GRACE;
use super::stall::{Activity, Finishing};
use crate::event::Event;
use crate::mutants::seams;
use crate::problem::Subproblem;
use crate::protocol::initial::assign;
use crate::protocol::{Balancer, Detector, Pe, PeId};
pub use crate::runtime::config::{ThreadConfig, ThreadRun, MAX_DT, MAX_THREADS, MAX_TIMEOUT_SECS};

use super::sync::{thread, Arc, TraceSeq, DEADLINES};

struct Shared<T> {
    boxes: Vec<Mailbox<T>>,
    seq: TraceSeq,
    start: Instant,
    deadline: Option<Instant>,
    activity: Activity,
}

struct Done {
    units: u64,
    batches: Option<Vec<(u64, Vec<Event>)>>,
    /// Stopped by the deadline or the stall watch, not by termination.
    cut: bool,
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
    let deadline = cfg.deadline.filter(|_| DEADLINES).map(|d| start + d);
    let shared = Arc::new(Shared { boxes, seq: TraceSeq::new(0), start, deadline, activity: Activity::default() });
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
    let stalled =
        DEADLINES && shared.activity.watch(cfg.pes, STALL_GRACE, || shared.boxes.iter().for_each(Mailbox::wake));
    let done: Vec<Done> =
        handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect();
    let elapsed = start.elapsed();
    let units = done.iter().map(|d| d.units).collect();
    let timed_out = !stalled && done.iter().any(|d| d.cut);
    let events =
        cfg.record.then(|| merge(done.into_iter().filter_map(|d| d.batches).collect(), !(timed_out || stalled)));
    ThreadRun { elapsed, units, events, timed_out, stalled }
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

    fn activity(&mut self, delta: i64) {
        self.shared.activity.add(delta);
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
    /// idle, until termination reached it, the deadline passed or the
    /// stall watch stopped the run.
    fn run(mut self) -> Done {
        let shared = self.link.shared.clone();
        let (deadline, activity) = (shared.deadline, &shared.activity);
        let _finishing = DEADLINES.then(|| Finishing(activity));
        let mut cut = false;
        while !self.pe.terminated() && !cut {
            if self.pe.has_work() {
                self.slice();
                cut = deadline.is_some_and(|d| Instant::now() >= d);
            } else {
                match self.link.mailbox().pop_blocking(deadline, || activity.stopped()) {
                    Some(env) => self.deliver(env),
                    None => cut = true,
                }
            }
        }
        self.link.close(false);
        Done { units: self.units, batches: self.link.rec.map(Recorder::into_batches), cut }
    }
}
