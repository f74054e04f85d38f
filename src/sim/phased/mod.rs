//! The phased machine of 000 §2.1 and §3 (S-2): a global clock cuts time
//! into phases of T_phase work units (the run's Δt); at each phase's end a
//! barrier, after which idle PEs poll their partner along the phase's
//! hypercube dimension ([`crate::protocol::poll_and_shuffle`]); after L
//! phases a random permutation of the subproblems (000 §3.2,
//! [`permutation`]). Messages take T_rout per hop of the topology (000
//! §2.1); a split costs T_split. All PEs start the next phase together,
//! when the slowest exchange of the barrier is over: c_poll = 2·T_rout·hops
//! + T_split for the phase's dimension, T_perm = T_rout × the most hops a
//! shuffled subproblem travels.
//!
//! Termination is the barrier's (detector `barrier`): a barrier is a
//! global reduction, so at the first barrier after which no PE holds work
//! (nothing is ever in flight at a barrier) PE 0 announces and every PE
//! stops.
//!
//! With [`SyncMode::Local`] the phases are not a global clock's but
//! synchronised between partners by messages (000 §6.3, Fig. 4; [`local`]).
//!
//! When to permute is the trigger's ([`trigger`]): after every L phases
//! (000 §3.1), or when PE 0 estimates from idle PEs' notifications that
//! many PEs are idle (000 §5; `notify` messages).
//!
//! Events are emitted in time order, ties by PE; the same seed gives the
//! same stream. Every moved subproblem is a `work` message (a reply, or a
//! shuffle transfer with no request), and each barrier is a `phase` event,
//! which property `phase_discipline` reads.

mod batch;
pub mod local;
pub mod permutation;
pub mod simd;
pub mod trigger;

use rand_chacha::ChaCha8Rng;

use super::logp::{Outcome, Stop};
use super::SimConfig;
use crate::base::rng::{stream, Purpose};
use crate::base::topology::Hops;
use crate::event::{Event, Kind};
use crate::problem::{Subproblem, WorkLog};
use crate::protocol::poll_and_shuffle::{phases_per_cycle, PasRules, Shuffle};
use crate::protocol::PeId;
use batch::Batch;
pub use local::SyncMode;
use permutation::Method;
use trigger::{Monitor, Trigger};

/// The run of the phased machine.
struct Machine<'s, T> {
    cfg: SimConfig,
    rules: PasRules,
    method: Method,
    hops: Hops,
    /// Each PE's subproblem (struct of arrays: the phases read only these).
    tasks: Vec<Option<T>>,
    /// Each PE's stream, read by the exact permutation.
    rngs: permutation::Seekable,
    /// The askers of an exchange (a buffer kept between phases).
    askers: Vec<PeId>,
    now: u64,
    next_id: u64,
    batch: Batch,
    sink: &'s mut dyn FnMut(Event),
    /// The pseudo method's generators.
    generators: Vec<Vec<u32>>,
    shuffle_rng: ChaCha8Rng,
    /// When to permute (000 §3.1, §5).
    monitor: Monitor,
}

/// Runs poll-and-shuffle on `cfg.pes` PEs from `root` on PE 0, feeding
/// every event to `sink`; `cfg.dt` is T_phase, `cfg.max_steps` caps phases;
/// `sync` says whether a global clock or the partners synchronise.
pub fn run<T: Subproblem>(
    cfg: &SimConfig,
    rules: PasRules,
    (method, trigger): (Method, Trigger),
    sync: SyncMode,
    root: T,
    sink: &mut dyn FnMut(Event),
) -> Outcome {
    let m = Machine::new(cfg, rules, (method, trigger), root, sink);
    match sync {
        SyncMode::Global => m.cycles(),
        SyncMode::Local => m.local_cycles(),
    }
}

impl<'s, T: Subproblem> Machine<'s, T> {
    /// The machine at time 0 with `root` on PE 0.
    fn new(
        cfg: &SimConfig,
        rules: PasRules,
        (method, trigger): (Method, Trigger),
        root: T,
        sink: &'s mut dyn FnMut(Event),
    ) -> Self {
        let mut shuffle_rng = stream(cfg.seed, 0, Purpose::Permutation);
        let generators = match method {
            Method::Pseudo => permutation::generators(cfg.pes as usize, &mut shuffle_rng, rules.uniform_generators),
            Method::Exact => Vec::new(),
        };
        let rngs = permutation::Seekable::new(cfg.seed, cfg.pes);
        let hops = cfg.topology.distances(cfg.pes);
        let monitor = Monitor::new(trigger, rules, cfg, &hops);
        let mut m = Machine {
            cfg: *cfg,
            rules,
            method,
            hops,
            tasks: (0..cfg.pes).map(|_| None).collect(),
            rngs,
            askers: Vec::new(),
            now: 0,
            next_id: 0,
            batch: Batch::default(),
            sink,
            generators,
            shuffle_rng,
            monitor,
        };
        m.tasks[0] = Some(root).filter(|r| !r.is_empty());
        if m.busy(0) {
            (m.sink)(Event::Busy { t: 0, pe: 0 });
        }
        m
    }
}

impl<T: Subproblem> Machine<'_, T> {
    /// PE `pe` holds a nonempty subproblem.
    fn busy(&self, pe: usize) -> bool {
        self.tasks[pe].as_ref().is_some_and(|t| !t.is_empty())
    }

    /// Some PE holds work.
    fn any_busy(&self) -> bool {
        self.tasks.iter().any(|t| t.as_ref().is_some_and(|t| !t.is_empty()))
    }

    fn cycles(mut self) -> Outcome {
        let phases = phases_per_cycle(self.cfg.topology, self.cfg.pes).max(1);
        let (mut steps, mut cycle, mut round) = (0, 0, 0);
        loop {
            if steps == self.cfg.max_steps {
                return Outcome { steps, end_time: self.now, stop: Stop::StepCap };
            }
            steps += 1;
            self.work_phase(cycle, round, steps - 1);
            let barrier = self.now;
            if !self.any_busy() {
                return self.terminate(steps);
            }
            if self.cfg.pes > 1 {
                self.exchange(round);
            }
            let permute = self.monitor.end_of_phase(steps - 1, barrier, self.now, round, phases);
            round += 1;
            if let Some(at) = permute {
                if self.cfg.pes > 1 {
                    self.now = at;
                    self.shuffle();
                }
                (cycle, round) = (cycle + 1, 0);
            } else if round == phases {
                round = 0; // the adaptive trigger's wrap without a permutation
            }
        }
    }

    /// Every busy PE works T_phase units (or until its subproblem runs
    /// out); `now` moves to the barrier, which waits for an item a PE
    /// could not cut (a loop's iteration may take longer than T_phase).
    fn work_phase(&mut self, cycle: u64, phase: u32, step: u64) {
        let (start, t_phase) = (self.now, self.cfg.dt);
        let mut barrier = start + t_phase;
        for pe in 0..self.cfg.pes {
            let slot = &mut self.tasks[pe as usize];
            let Some(task) = slot.as_mut().filter(|t| !t.is_empty()) else {
                self.notify(pe, start, step);
                continue;
            };
            let (mut log, gen) = (WorkLog::default(), task.generation());
            let units = task.work(t_phase, &mut log);
            barrier = barrier.max(start + units);
            self.batch.push(Event::work(start + units, pe, units, gen, &log));
            if task.is_empty() {
                *slot = None;
                self.batch.push(Event::Idle { t: start + units, pe });
                self.notify(pe, start + units, step);
                if !self.rules.wait_for_barrier {
                    self.ask_now(pe, start + units, phase);
                }
            }
        }
        self.now = barrier;
        self.batch.push(Event::Phase { t: self.now, cycle, phase, pe: None });
        self.batch.emit_until(self.now, &mut *self.sink);
    }

    /// Mutant `pas-mid-phase-request`: the PE asks the moment it runs out;
    /// a busy partner answers at once (records only: the part joins at the barrier's exchange).
    fn ask_now(&mut self, pe: PeId, t: u64, phase: u32) {
        let to = self.rules.partner(pe, phase);
        let id = self.id();
        self.batch.push(Event::Send { t, from: pe, to, id, kind: Kind::Request, energy: None, data: None });
        let at = t + self.latency(pe, to);
        self.batch.push(Event::Recv { t: at, pe: to, from: pe, id, kind: Kind::Request, queue: Some(0), data: None });
        let id = self.id();
        self.batch.push(Event::Send { t: at, from: to, to: pe, id, kind: Kind::Reject, energy: None, data: None });
        let back = at + self.latency(to, pe);
        self.batch.push(Event::Recv { t: back, pe, from: to, id, kind: Kind::Reject, queue: None, data: None });
    }

    /// The barrier's exchange: every idle PE asks its partner along the
    /// phase's dimension, which answers with a split-off part or a reject.
    fn exchange(&mut self, phase: u32) {
        let barrier = self.now;
        let mut askers = std::mem::take(&mut self.askers);
        askers.clear();
        askers.extend((0..self.cfg.pes).filter(|&k| !self.busy(k as usize)));
        let mut end = barrier;
        for &k in &askers {
            let p = self.rules.partner(k, phase);
            end = end.max(self.request(k, p, barrier));
        }
        self.askers = askers;
        self.now = end.max(self.batch.last().unwrap_or(end));
        self.batch.emit_until(self.now, &mut *self.sink);
    }

    /// PE `k` asks `p` at `t`; returns when the reply arrives.
    fn request(&mut self, k: PeId, p: PeId, t: u64) -> u64 {
        let id = self.id();
        self.batch.push(Event::Send { t, from: k, to: p, id, kind: Kind::Request, energy: None, data: None });
        let at = t + self.latency(k, p);
        self.batch.push(Event::Recv { t: at, pe: p, from: k, id, kind: Kind::Request, queue: Some(0), data: None });
        let part = self.tasks[p as usize].as_mut().filter(|t| !t.is_empty()).and_then(|t| t.split());
        let id = self.id();
        let (kind, leaves) = match &part {
            Some(part) => {
                self.batch.push(Event::Split { t: at, pe: p, gen: part.generation() });
                (Kind::Work, at + self.cfg.t_split)
            }
            None => (Kind::Reject, at),
        };
        self.batch.push(Event::Send { t: leaves, from: p, to: k, id, kind, energy: None, data: None });
        let back = leaves + self.latency(p, k);
        self.batch.push(Event::Recv { t: back, pe: k, from: p, id, kind, queue: None, data: None });
        if let Some(part) = part {
            self.tasks[k as usize] = Some(part);
            self.batch.push(Event::Busy { t: back, pe: k });
        }
        back
    }

    /// The permutation after a cycle: every nonempty subproblem moves to
    /// its PE's image (a `work` message unless it stays).
    fn shuffle(&mut self) {
        let n = self.cfg.pes as usize;
        if self.rules.shuffle == Shuffle::Skip {
            return;
        }
        let dest = permutation::draw(self.rules, self.method, &mut self.rngs, &self.generators, &mut self.shuffle_rng);
        let start = self.now;
        let mut end = start;
        let mut moved: Vec<Option<T>> = (0..n).map(|_| None).collect();
        for k in 0..n {
            let to = dest[k];
            if to as usize == k || !self.busy(k) {
                continue;
            }
            let task = self.tasks[k].take().expect("busy");
            let id = self.id();
            self.batch.push(Event::Send {
                t: start,
                from: k as PeId,
                to,
                id,
                kind: Kind::Work,
                energy: None,
                data: None,
            });
            self.batch.push(Event::Idle { t: start, pe: k as PeId });
            let at = start + self.latency(k as PeId, to);
            self.batch.push(Event::Recv {
                t: at,
                pe: to,
                from: k as PeId,
                id,
                kind: Kind::Work,
                queue: None,
                data: None,
            });
            end = end.max(at);
            moved[to as usize] = Some(task); // a second arrival replaces the first (only without a permutation)
        }
        for (to, task) in moved.into_iter().enumerate() {
            let Some(task) = task else { continue };
            if self.busy(to) {
                continue; // mutant shuffle-drops-work: the PE keeps its own
            }
            self.tasks[to] = Some(task);
            self.batch.push(Event::Busy { t: end, pe: to as PeId });
        }
        self.now = end;
        self.batch.emit_until(end, &mut *self.sink);
    }

    /// PE 0 announces at the barrier; every PE stops. Idle notifications
    /// still in flight reach PE 0 after that, unread.
    fn terminate(mut self, steps: u64) -> Outcome {
        let t = self.now.max(self.batch.last_but_notify().unwrap_or(0));
        self.batch.emit_until(t, &mut *self.sink);
        (self.sink)(Event::Announce { t, pe: 0 });
        for pe in 0..self.cfg.pes {
            (self.sink)(Event::Terminated { t, pe });
        }
        let end = self.batch.last().unwrap_or(t).max(t);
        self.batch.emit_until(end, &mut *self.sink);
        (self.sink)(Event::End { t: end });
        Outcome { steps, end_time: t, stop: Stop::Drained }
    }

    fn latency(&self, from: PeId, to: PeId) -> u64 {
        self.cfg.t_rout * self.hops.hops(from, to).max(1)
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }
}
