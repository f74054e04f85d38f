//! The discrete-event simulator of 001's machine (see [`super`]).
//!
//! The machine's rules live once, in `machine.rs`; the simulator drives
//! them through its `Env`: pending items wait in an [`Agenda`] (those due at
//! one instant run in the order they were scheduled, by sequence number),
//! each message's latency is drawn from the run's latency stream
//! ([`Network`]), and the events go to the caller's sink. The exhaustive
//! explorer ([`crate::sim::explore`]) drives the same machine with every
//! latency and every order instead.

pub(in crate::sim) mod machine;

use machine::{Env, Item, Machine};

use super::agenda::Agenda;
use super::latency::Network;
use super::mail::Mail;
use super::prefetch::prefetch;
use super::SimConfig;
use crate::base::rng::{stream, Purpose};
use crate::event::{Event, Kind};
use crate::problem::Subproblem;
use crate::protocol::{Balancer, Detector, Pe, PeId};

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
    /// The next event was past the time cap ([`super::SimConfig::max_time`])
    /// with the computation not over.
    TimeCap,
    /// No PE held work and no work was in flight for longer than the
    /// detection horizon, and termination was still not announced.
    NotAnnounced {
        /// Time from which the computation was over.
        quiet_since: u64,
    },
    /// Termination was announced, but some PE had still not learnt of it
    /// (logged `terminated`) twice the detection horizon after the
    /// computation was over.
    NotTerminated {
        /// Time from which the computation was over.
        quiet_since: u64,
    },
    /// Model time would have passed [`END_OF_TIME`] (the run is too long
    /// for the simulator's clock).
    TimeOverflow,
    /// A threaded run's wall-clock deadline passed before termination spread.
    Deadline,
    /// A threaded run's computation was over (no PE held work, no work
    /// message was in flight) for [`crate::runtime::threads::STALL_GRACE`]
    /// of wall-clock time and some PE had still not learnt of termination:
    /// the driver stopped every PE (`runtime::stall`).
    Stalled,
    /// A protocol's or the driver's assertion failed (a broken peer tripped
    /// it): the run stopped there (`harness::caught`).
    Assertion,
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

/// How many events ahead the simulator prefetches a PE's state: enough for
/// main memory to answer while the events before it run, few enough that
/// the lines asked for do not queue behind each other (at P = 2^16, 4
/// gave 13.7 M events/CPU-s, 8 gave 13.3, 2 gave 12.5).
const PREFETCH_AHEAD: usize = 4;

/// The simulator's side of the machine ([`Env`]): its agenda, its
/// seeded latency draws, its sink.
struct Simulator<'s, T> {
    agenda: Agenda<Item<T>>,
    network: Network,
    sink: &'s mut dyn FnMut(Event),
}

impl<T> Env<T> for Simulator<'_, T> {
    #[inline]
    fn schedule(&mut self, at: u64, item: Item<T>) {
        self.agenda.push(at, item);
    }

    /// The latency drawn by the network's shape and schedule.
    #[inline]
    fn delay(&mut self, from: PeId, to: PeId, kind: Kind, leaves: u64) -> u64 {
        self.network.delay(from, to, kind, leaves)
    }

    #[inline]
    fn emit(&mut self, event: Event) {
        (self.sink)(event);
    }

    /// The network's transfer time of a message of length `len` (000 §6.1).
    fn delay_of_length(&mut self, from: PeId, to: PeId, kind: Kind, leaves: u64, len: u64) -> u64 {
        self.network.delay_of_length(from, to, kind, leaves, len)
    }
}

/// The machine as the simulator drives it.
type Sim<'s, T, B, D> = Machine<T, B, D, Simulator<'s, T>>;

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
    let network = Network::new(
        cfg.latency.unwrap_or((cfg.t_rout, cfg.t_rout)),
        cfg.shape,
        cfg.schedule,
        cfg.fifo_links,
        stream(cfg.seed, 0, Purpose::Latency),
    )
    .on(cfg.topology, cfg.pes)
    .routed(cfg.routing);
    let mut sim = Machine::new(cfg, make, Simulator { agenda: Agenda::default(), network, sink });
    sim.start_all(root);
    sim.event_loop()
}

impl<T, B, D> Sim<'_, T, B, D>
where
    T: Subproblem,
    B: Balancer<Task = T>,
    D: Detector<T>,
{
    /// The bounded discrete-event loop: the agenda's next item, until none
    /// is left or the run stops (step cap, overflow, detection horizon).
    fn event_loop(mut self) -> Outcome {
        let (mut steps, horizon) = (0, self.cfg.detect_horizon());
        while let Some(time) = self.env.agenda.peek_time() {
            if steps == self.cfg.max_steps {
                return Outcome { steps, end_time: self.now, stop: Stop::StepCap };
            }
            if let Some(stop) = self.halts_before(time, horizon) {
                return Outcome { steps, end_time: self.now, stop };
            }
            steps += 1;
            let (time, item) = self.env.agenda.pop().expect("peeked");
            self.prefetch_ahead();
            self.handle(time, item);
        }
        self.env.emit(Event::End { t: self.now });
        Outcome { steps, end_time: self.now, stop: Stop::Drained }
    }

    /// Prefetches the state of the PE the event [`PREFETCH_AHEAD`] steps
    /// on will touch, so that it is cached by then: its slot, its random
    /// stream if the event is one after which an idle PE asks for work
    /// (a reject, the end of a slice), and the slice that ends.
    fn prefetch_ahead(&self) {
        if let Some(item) = self.env.agenda.upcoming().nth(PREFETCH_AHEAD) {
            let pe = item.pe() as usize;
            prefetch(&self.slots[pe]);
            if matches!(item, Item::Deliver { mail: Mail::Reject, .. } | Item::SliceEnd { .. }) {
                prefetch(&self.rngs[pe]);
            }
            if matches!(item, Item::SliceEnd { .. }) {
                prefetch(&self.slices[pe]);
            }
        }
    }
}
