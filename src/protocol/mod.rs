//! Sans-IO protocols: per-PE state machines for load balancers and
//! termination detectors (../shared/ARCHITECTURE.md "One protocol, many
//! drivers").
//!
//! A protocol never reads a clock, spawns a thread or creates an RNG. A driver
//! (the simulator, threads, loom, MPI) owns time, delivery and randomness and
//! calls a [`Pe`]'s handlers in this order:
//!
//! 1. [`Pe::start`] once, at time 0, with the PE's initial part (if any);
//! 2. then, in any order the driver's model allows: [`Pe::on_message`] when a
//!    message reaches the PE; [`Pe::on_poll`] after each work slice (Δt
//!    units, done by the driver on [`Pe::task_mut`]) while the PE still holds
//!    work; [`Pe::on_exhausted`] once the PE's subproblem is empty.
//!
//! Every handler gets a [`Ctx`]: the time `now`, the PE's own random stream
//! and an output buffer of [`Command`]s (effects as data) that the driver
//! carries out: sending messages, charging a split, reporting energy held,
//! waves, the announcement of termination.
//!
//! A [`Pe`] composes one [`Balancer`] with one [`Detector`]: the detector sees
//! every work message sent and received and every transition to idle, may
//! attach energy to work messages, and exchanges its own messages; the `Pe`
//! also spreads the announcement down the reduction tree and, for
//! branch-and-bound workloads, the bounds its work finds, or in first-solution
//! mode the stop ([`bound`]).

pub mod bound;
pub mod control;
pub mod deactivation;
pub mod energy;
pub mod erased;
pub mod four_counter;
pub mod initial;
pub mod kinds;
pub mod pacheco;
pub mod params;
pub mod poll_and_shuffle;
pub mod random_destination;
pub mod random_polling;
pub mod safra;
pub mod simd_phase;
pub mod spec;
pub mod sync_polling;
pub mod wire;

use rand_chacha::ChaCha8Rng;

use crate::base::Fraction;
use crate::event::{Data, Event, Kind};
use crate::problem::Subproblem;

pub use bound::{BoundMode, Propagation};
pub use control::ControlError;
pub use kinds::{BalancerKind, DetectorKind};
pub use spec::{BalancerSpec, Params, ParamsError, ProtocolArgs};

pub use crate::base::PeId;

/// A message between PEs, carrying subproblems of type `T`.
///
/// A balancer sends `Request`, `Reject` and `Work`; a user's detector
/// sends its own messages as [`Msg::Control`] ([`Msg::control`]).
///
/// ```
/// use lbcheck::event::Kind;
/// use lbcheck::protocol::Msg;
///
/// let work: Msg<u32> = Msg::Work { task: 7, energy: None };
/// assert_eq!((work.kind(), Msg::<u32>::Request.kind()), (Kind::Work, Kind::Request));
/// let ack: Msg<u32> = Msg::control(&("ack", 3));
/// assert_eq!(ack.control_payload::<(String, u32)>().unwrap(), ("ack".to_string(), 3));
/// ```
#[derive(Clone, Debug)]
pub enum Msg<T> {
    /// A request for work.
    Request,
    /// The empty reply to a request.
    Reject,
    /// A nonempty subproblem, with the energy the detector attached.
    Work {
        /// The subproblem.
        task: T,
        /// Energy sent along (energy detector), if any.
        energy: Option<Fraction>,
    },
    /// Energy returned towards PE 0.
    Energy(Fraction),
    /// A four-counter wave travelling down the reduction tree.
    WaveDown {
        /// Wave number.
        wave: u64,
    },
    /// A subtree's partial sums travelling up.
    WaveUp {
        /// Wave number.
        wave: u64,
        /// Σ work messages sent in the subtree.
        sent: u64,
        /// Σ work messages received in the subtree.
        recv: u64,
    },
    /// Global round robin (003 §14.7.3): an idle PE asks PE 0 for the PE
    /// to request work from.
    GetTarget,
    /// PE 0's answer to [`Msg::GetTarget`]: the PE to request work from.
    Target(PeId),
    /// Branch-and-bound: the cost of a solution some PE found ([`bound`]).
    Bound(u64),
    /// First-solution mode: a solution was found; stop ([`bound`]).
    Stop,
    /// Global termination.
    Terminate,
    /// A detector's own message (one beyond the kinds above, such as
    /// Safra's token in EWD998): free-form JSON, carried as the `data` of
    /// its `send` and `recv` events (kind `control`, docs/trace-format.md).
    /// Boxed, so that messages stay small.
    Control(Box<serde_json::Value>),
}

impl<T> Msg<T> {
    /// The message's kind in the event stream.
    pub fn kind(&self) -> Kind {
        match self {
            Msg::Request => Kind::Request,
            Msg::Reject => Kind::Reject,
            Msg::Work { .. } => Kind::Work,
            Msg::Energy(_) => Kind::Energy,
            Msg::WaveDown { .. } => Kind::WaveDown,
            Msg::WaveUp { .. } => Kind::WaveUp,
            Msg::GetTarget => Kind::GetTarget,
            Msg::Target(_) => Kind::Target,
            Msg::Bound(_) => Kind::Bound,
            Msg::Stop => Kind::Stop,
            Msg::Terminate => Kind::Terminate,
            Msg::Control(_) => Kind::Control,
        }
    }

    /// The message's content in the event stream (`data`): a control
    /// message's payload.
    pub fn data(&self) -> Data {
        match self {
            Msg::Control(v) => Some(v.clone()),
            _ => None,
        }
    }

    /// The energy the message carries (a work message's attachment, or
    /// returned energy).
    pub fn energy(&self) -> Option<Fraction> {
        match self {
            Msg::Work { energy, .. } => energy.clone(),
            Msg::Energy(e) => Some(e.clone()),
            _ => None,
        }
    }

    /// The `send` event of this message, numbered `id`, from `from` to `to` at `t`.
    pub fn send_event(&self, t: u64, from: PeId, to: PeId, id: u64) -> Event {
        Event::Send { t, from, to, id, kind: self.kind(), energy: self.energy(), data: self.data() }
    }

    /// The `recv` event of this message `id` from `from`, received by `pe`
    /// at `t`, which found `queue` requests queued (requests only).
    pub fn recv_event(&self, t: u64, pe: PeId, from: PeId, id: u64, queue: Option<u32>) -> Event {
        Event::Recv { t, pe, from, id, kind: self.kind(), queue, data: self.data() }
    }
}

/// An effect a handler asks its driver to carry out: a handler pushes
/// them on [`Ctx::out`] ([`Ctx::send`] pushes a `Send`), and the driver
/// carries them out in order and records their events.
///
/// ```
/// use lbcheck::event::Event;
/// use lbcheck::protocol::Command;
///
/// let split: Command<()> = Command::Split { gen: 3 };
/// assert!(matches!(split.event(10, 1), Some(Event::Split { t: 10, pe: 1, gen: 3 })));
/// ```
#[derive(Clone, Debug)]
pub enum Command<T> {
    /// Send `msg` to `to`.
    Send {
        /// Receiver.
        to: PeId,
        /// The message.
        msg: Msg<T>,
    },
    /// The PE split its subproblem (the driver charges T_split); both parts
    /// now have generation `gen`.
    Split {
        /// Generation of both parts.
        gen: u32,
    },
    /// The PE's energy changed to this value.
    Energy(Fraction),
    /// PE 0 completed a wave with these totals.
    Wave {
        /// Wave number.
        wave: u64,
        /// Σ work messages sent.
        sent: u64,
        /// Σ work messages received.
        recv: u64,
    },
    /// PE 0 announces global termination.
    Announce,
    /// The PE learnt of termination and stops.
    Terminated,
    /// The work messages that follow in this batch are the initial
    /// distribution (003 §14.7's Scatter): with the one part the PE keeps
    /// they divide its energy into equal parts (003 §14.7.4 rule 3), not
    /// halves. No event: the work messages are the record.
    Scatter,
    /// Call the PE's [`Pe::on_timer`] after `after` units of model time
    /// (the simulators; real threads do not fire timers, and no reference
    /// protocol sets one: only mutants that pause do).
    Timer {
        /// Delay, in the driver's time units.
        after: u64,
    },
}

impl<T> Command<T> {
    /// The event recording this command, carried out by PE `pe` at `t`;
    /// `None` for [`Command::Send`], whose event needs the driver's message
    /// id ([`Msg::send_event`]), and for [`Command::Timer`], which has none.
    pub fn event(&self, t: u64, pe: PeId) -> Option<Event> {
        Some(match *self {
            Command::Send { .. } | Command::Timer { .. } | Command::Scatter => return None,
            Command::Split { gen } => Event::Split { t, pe, gen },
            Command::Energy(ref held) => Event::Energy { t, pe, held: held.clone() },
            Command::Wave { wave, sent, recv } => Event::Wave { t, wave, sent, recv, data: None },
            Command::Announce => Event::Announce { t, pe },
            Command::Terminated => Event::Terminated { t, pe },
        })
    }
}

/// What a handler may use: the time, its identity, its random stream and the
/// output buffer. Drivers build it; a unit test of a protocol can too:
///
/// ```
/// use lbcheck::protocol::{Command, Ctx, Msg};
/// use rand::SeedableRng;
///
/// let (mut rng, mut out) = (rand_chacha::ChaCha8Rng::seed_from_u64(1), Vec::new());
/// let mut ctx: Ctx<u32> = Ctx { now: 0, me: 1, pes: 4, rng: &mut rng, out: &mut out };
/// ctx.send(0, Msg::Request);
/// assert!(matches!(out[..], [Command::Send { to: 0, msg: Msg::Request }]));
/// ```
pub struct Ctx<'a, T> {
    /// Current time (driver units).
    pub now: u64,
    /// This PE.
    pub me: PeId,
    /// Number of PEs.
    pub pes: u32,
    /// This PE's own random stream, derived from (seed, PE, purpose).
    pub rng: &'a mut ChaCha8Rng,
    /// Effects, in order.
    pub out: &'a mut Vec<Command<T>>,
}

impl<T> Ctx<'_, T> {
    /// Queues a message.
    pub fn send(&mut self, to: PeId, msg: Msg<T>) {
        self.out.push(Command::Send { to, msg });
    }
}

/// Parent of `pe` in the binary reduction tree rooted at PE 0.
pub fn tree_parent(pe: PeId) -> Option<PeId> {
    (pe > 0).then(|| (pe - 1) / 2)
}

/// Children of `pe` in the binary reduction tree of `pes` PEs.
pub fn tree_children(pe: PeId, pes: u32) -> impl Iterator<Item = PeId> {
    [2 * pe as u64 + 1, 2 * pe as u64 + 2].into_iter().filter(move |&c| c < pes as u64).map(|c| c as PeId)
}

/// Children of `pe` in the binary tree of `pes` PEs rooted at `root`
/// (PE numbers shifted by `root`): where the announcement travels from a
/// detector's announcer ([`Detector::announcer`]).
pub fn tree_children_from(root: PeId, pe: PeId, pes: u32) -> impl Iterator<Item = PeId> {
    let shift = move |p: PeId, by: u32| ((u64::from(p) + u64::from(by)) % u64::from(pes.max(1))) as PeId;
    tree_children(shift(pe, pes - root % pes.max(1)), pes).map(move |c| shift(c, root))
}

/// A load balancer: the per-PE state machine that moves work (e.g. 001 Fig. 1).
///
/// A user's balancer implements it over lbcheck's [`Task`](crate::problem::Task)
/// and runs wherever the references do ([`crate::harness::UserBalancer`],
/// [`crate::testing`]). This one keeps its work (it rejects every request
/// and never asks): correct, if slow; `examples/shared/round_robin.rs`
/// is one that shares.
///
/// ```
/// use lbcheck::harness::UserBalancer;
/// use lbcheck::problem::{Subproblem, Task};
/// use lbcheck::protocol::{Balancer, Ctx, Msg, PeId};
///
/// #[derive(Clone, Debug, Default)]
/// struct Hoard { task: Option<Task> }
///
/// impl Balancer for Hoard {
///     type Task = Task;
///     fn start(&mut self, _: &mut Ctx<Task>, part: Option<Task>) { self.task = part; }
///     fn on_message(&mut self, ctx: &mut Ctx<Task>, from: PeId, msg: Msg<Task>) {
///         if let Msg::Request = msg { ctx.send(from, Msg::Reject) }
///     }
///     fn on_poll(&mut self, _: &mut Ctx<Task>) {}
///     fn on_exhausted(&mut self, _: &mut Ctx<Task>) { self.task = None; }
///     fn task_mut(&mut self) -> Option<&mut Task> { self.task.as_mut() }
///     fn has_work(&self) -> bool { self.task.as_ref().is_some_and(|t| !t.is_empty()) }
///     fn queued_requests(&self) -> u32 { 0 }
/// }
///
/// let mine = UserBalancer { name: "hoard".into(), make: |_| Hoard::default() };
/// lbcheck::testing::Check::balancer(&mine).layers(&["explore"]).assert();
/// ```
pub trait Balancer {
    /// The subproblems it moves.
    type Task: Subproblem;
    /// Time 0: the PE starts with `part` (PE 0's root, or a local part).
    fn start(&mut self, ctx: &mut Ctx<Self::Task>, part: Option<Self::Task>);
    /// A balancer message (`Request`, `Reject`, `Work`) reached the PE.
    fn on_message(&mut self, ctx: &mut Ctx<Self::Task>, from: PeId, msg: Msg<Self::Task>);
    /// A work slice ended and the PE still holds work.
    fn on_poll(&mut self, ctx: &mut Ctx<Self::Task>);
    /// The PE's subproblem became empty.
    fn on_exhausted(&mut self, ctx: &mut Ctx<Self::Task>);
    /// The subproblem the driver works on, if any.
    fn task_mut(&mut self) -> Option<&mut Self::Task>;
    /// Branch-and-bound: a solution of cost `v` is known; every subproblem
    /// the PE holds learns it ([`Subproblem::improve`]). By default the one
    /// [`task_mut`](Balancer::task_mut) gives.
    fn improve(&mut self, v: u64) {
        if let Some(t) = self.task_mut() {
            t.improve(v);
        }
    }
    /// Branch-and-bound: the best cost any subproblem the PE holds (or
    /// just worked to exhaustion) knows. By default the one
    /// [`task_mut`](Balancer::task_mut) gives.
    fn incumbent(&mut self) -> Option<u64> {
        self.task_mut().and_then(|t| t.incumbent())
    }
    /// First-solution mode: the search stopped; every subproblem the PE
    /// holds is dropped ([`Subproblem::discard`]). By default the one
    /// [`task_mut`](Balancer::task_mut) gives.
    fn discard(&mut self) {
        if let Some(t) = self.task_mut() {
            t.discard();
        }
    }
    /// A deactivated worker (002 §3; S-17): the model-time window
    /// [from, to) in which the driver does not work on its subproblem.
    fn inactive_window(&self) -> Option<(u64, u64)> {
        None
    }
    /// The end of the [`inactive_window`](Balancer::inactive_window): the
    /// driver calls this at `to`.
    fn on_wake(&mut self, _ctx: &mut Ctx<Self::Task>) {}
    /// A timer the PE set ([`Command::Timer`]) expired (the balancer's or
    /// the detector's: each checks its own). Synchronous random polling
    /// starts its rounds so (001 §1.3).
    fn on_timer(&mut self, _ctx: &mut Ctx<Self::Task>) {}
    /// 000 §1.2's randomised initialisation (`--initial-split random:K`):
    /// the PE's subproblem ran out while it holds more of its initial
    /// pieces; the driver calls this (instead of going idle) with the next,
    /// which the PE works on as if its subproblem had gone on. By default
    /// it is put in place of the emptied subproblem [`task_mut`](Balancer::task_mut)
    /// gives, or given as at [`start`](Balancer::start) if there is none.
    fn resume(&mut self, ctx: &mut Ctx<Self::Task>, next: Self::Task) {
        match self.task_mut() {
            Some(t) => *t = next,
            None => self.start(ctx, Some(next)),
        }
    }
    /// True while the PE holds a nonempty subproblem, which
    /// [`task_mut`](Balancer::task_mut) then gives (a driver asserts it:
    /// [`Pe::task_to_work`]).
    fn has_work(&self) -> bool;
    /// Requests queued at this PE (what an arriving request finds).
    fn queued_requests(&self) -> u32;
}

/// A termination detector: observes work moving and PEs going idle.
///
/// A user's detector implements it over lbcheck's [`Task`](crate::problem::Task)
/// (its own messages are [`Msg::Control`]) and runs with the references'
/// balancers ([`crate::harness::UserDetector`], [`crate::testing`]);
/// `examples/own_detector.rs` is Dijkstra–Scholten (EWD687a). Here the
/// reference four-counter detector stands in for a user's:
///
/// ```
/// use lbcheck::harness::UserDetector;
/// use lbcheck::{mutants::seams, protocol::four_counter::FourCounter};
///
/// let mine = UserDetector { name: "waves".into(), make: |_| FourCounter::new(seams::four_counter(None)) };
/// lbcheck::testing::Check::detector(&mine).layers(&["explore"]).assert();
/// ```
pub trait Detector<T> {
    /// Time 0, with the energy share of the PE's initial part, if any.
    fn start(&mut self, ctx: &mut Ctx<T>, holds_work: bool, share: Option<Fraction>);
    /// The PE is about to send a work message that takes one of `parts`
    /// equal parts of what it holds (2 for a split; more for a Scatter,
    /// [`Command::Scatter`]): returns what to attach.
    fn on_work_sent(&mut self, ctx: &mut Ctx<T>, parts: u32) -> Option<Fraction>;
    /// The PE received a work message from `from` carrying `energy`
    /// (the sender is what Dijkstra–Scholten acknowledges, EWD687a).
    fn on_work_received(&mut self, ctx: &mut Ctx<T>, from: PeId, energy: Option<Fraction>);
    /// The PE ran out of work.
    fn on_idle(&mut self, ctx: &mut Ctx<T>);
    /// A detector message (`Energy`, `WaveDown`, `WaveUp`, `Control`) reached
    /// the PE. `idle`: its balancer holds no subproblem, which may be so
    /// while the driver still works the last slice it took (the PE is idle
    /// only once [`Detector::on_idle`] is called).
    fn on_message(&mut self, ctx: &mut Ctx<T>, from: PeId, msg: Msg<T>, idle: bool);
    /// A timer the detector set ([`Command::Timer`]) expired.
    fn on_timer(&mut self, _ctx: &mut Ctx<T>, _idle: bool) {}
    /// The one PE of `pes` that may announce termination
    /// ([`Command::Announce`]); by default PE 0, every shipping detector's.
    /// The harness writes it to the trace header's `announcer`, the checker
    /// fails an announcement by any other PE (`detector_conformance`), and
    /// the `terminate` broadcast runs down the binary tree rooted there.
    ///
    /// ```
    /// use lbcheck::base::Fraction;
    /// use lbcheck::protocol::{Ctx, Detector, Msg, PeId};
    ///
    /// /// A detector whose last PE would announce (it never does).
    /// struct Last;
    /// impl<T> Detector<T> for Last {
    ///     fn start(&mut self, _: &mut Ctx<T>, _: bool, _: Option<Fraction>) {}
    ///     fn on_work_sent(&mut self, _: &mut Ctx<T>, _: u32) -> Option<Fraction> { None }
    ///     fn on_work_received(&mut self, _: &mut Ctx<T>, _: PeId, _: Option<Fraction>) {}
    ///     fn on_idle(&mut self, _: &mut Ctx<T>) {}
    ///     fn on_message(&mut self, _: &mut Ctx<T>, _: PeId, _: Msg<T>, _: bool) {}
    ///     fn announcer(&self, pes: u32) -> PeId { pes - 1 }
    /// }
    /// assert_eq!(Detector::<()>::announcer(&Last, 4), 3);
    /// ```
    fn announcer(&self, _pes: u32) -> PeId {
        0
    }
}

/// One PE: a balancer and a detector composed, plus the announcement and
/// the bound propagation.
#[derive(Clone, Debug)]
pub struct Pe<B, D> {
    /// The load balancer.
    pub balancer: B,
    /// The termination detector.
    pub detector: D,
    /// Branch-and-bound: how improved bounds travel.
    pub bounds: Propagation,
    terminated: bool,
}

impl<B, D> Pe<B, D> {
    /// Composes a balancer and a detector (bounds by the default,
    /// [`BoundMode::ReduceTree`], under the papers' rules).
    pub fn new(balancer: B, detector: D) -> Self {
        Pe { balancer, detector, bounds: Propagation::default(), terminated: false }
    }

    /// This PE with bounds propagated as `bounds` says.
    pub fn with_bounds(self, bounds: Propagation) -> Self {
        Pe { bounds, ..self }
    }

    /// True once the PE learnt of termination.
    pub fn terminated(&self) -> bool {
        self.terminated
    }
}

impl<T: Subproblem, B: Balancer<Task = T>, D: Detector<T>> Pe<B, D> {
    /// Time 0. `share` is the energy of an initial local part.
    pub fn start(&mut self, ctx: &mut Ctx<T>, mut part: Option<T>, share: Option<Fraction>) {
        let holds = part.as_ref().is_some_and(|p| !p.is_empty());
        if let Some(p) = part.as_mut() {
            if let Some(v) = self.bounds.start(ctx.me, p.lower_bound()) {
                p.improve(v);
            }
        }
        let mark = ctx.out.len();
        self.balancer.start(ctx, part);
        self.attach_energy(ctx, mark);
        self.detector.start(ctx, holds, share);
        self.after(ctx);
    }

    /// A message reached the PE.
    pub fn on_message(&mut self, ctx: &mut Ctx<T>, from: PeId, msg: Msg<T>) {
        match msg {
            Msg::Terminate => return self.terminate(ctx),
            Msg::Request | Msg::Reject | Msg::Work { .. } if self.terminated => {
                if let Msg::Request = msg {
                    ctx.send(from, Msg::Reject); // still answer: every request gets a reply
                }
            }
            Msg::Work { task, energy } => {
                self.detector.on_work_received(ctx, from, energy);
                self.bounds.arrived(task.incumbent());
                self.with_balancer(ctx, |b, ctx| b.on_message(ctx, from, Msg::Work { task, energy: None }));
                self.share_best();
            }
            // Rebuilt, not moved: a `Msg` is ~150 bytes whatever its kind.
            Msg::Request => self.with_balancer(ctx, |b, ctx| b.on_message(ctx, from, Msg::Request)),
            Msg::Reject => self.with_balancer(ctx, |b, ctx| b.on_message(ctx, from, Msg::Reject)),
            _ if self.terminated => {}
            Msg::Bound(v) => {
                if self.bounds.on_bound(ctx, from, v) {
                    self.balancer.improve(v);
                }
            }
            Msg::Stop => {
                if self.bounds.on_stop(ctx, from) {
                    self.balancer.discard();
                }
            }
            Msg::GetTarget | Msg::Target(_) => self.with_balancer(ctx, |b, ctx| b.on_message(ctx, from, msg)),
            _ => {
                let idle = !self.balancer.has_work();
                self.detector.on_message(ctx, from, msg, idle);
            }
        }
        self.after(ctx);
    }

    /// A work slice ended while the PE still holds work. A balancer that
    /// gave all its work away at the poll (random destinations, 004 §4.1)
    /// is idle: the detector is told.
    pub fn on_poll(&mut self, ctx: &mut Ctx<T>) {
        self.after_work(ctx);
        self.with_balancer(ctx, |b, ctx| b.on_poll(ctx));
        if !self.balancer.has_work() && !self.terminated {
            self.detector.on_idle(ctx);
        }
        self.after(ctx);
    }

    /// The PE's subproblem became empty.
    pub fn on_exhausted(&mut self, ctx: &mut Ctx<T>) {
        self.after_work(ctx);
        self.with_balancer(ctx, |b, ctx| b.on_exhausted(ctx));
        if !self.balancer.has_work() && !self.terminated {
            self.detector.on_idle(ctx);
        }
        self.after(ctx);
    }

    /// 000 §1.2's randomised initialisation: the PE's subproblem ran out
    /// and it works on `next`, its next initial piece, which learns the
    /// best bound the PE knows (and is dropped if the search stopped). It
    /// stays busy: nothing is sent, the detector is not told.
    pub fn resume(&mut self, ctx: &mut Ctx<T>, next: T) {
        self.with_balancer(ctx, |b, ctx| b.resume(ctx, next));
        self.share_best();
        self.after(ctx);
    }

    /// A timer expired (the detector's or the balancer's).
    pub fn on_timer(&mut self, ctx: &mut Ctx<T>) {
        if !self.terminated {
            let idle = !self.balancer.has_work();
            self.detector.on_timer(ctx, idle);
            self.with_balancer(ctx, |b, ctx| b.on_timer(ctx));
        }
        self.after(ctx);
    }

    /// The end of the balancer's inactive window (002 §3): it may ask
    /// for work again.
    pub fn on_wake(&mut self, ctx: &mut Ctx<T>) {
        if !self.terminated {
            self.with_balancer(ctx, |b, ctx| b.on_wake(ctx));
        }
        self.after(ctx);
    }

    /// The balancer's inactive window, if it has one (002 §3; S-17).
    pub fn inactive_window(&self) -> Option<(u64, u64)> {
        self.balancer.inactive_window()
    }

    /// The subproblem to work on.
    pub fn task_mut(&mut self) -> Option<&mut T> {
        self.balancer.task_mut()
    }

    /// The subproblem PE `me` works on next, which has work: a balancer
    /// whose `has_work` is true must give a nonempty subproblem by
    /// `task_mut`. One that does not would keep its PE busy for ever
    /// doing nothing, a run that never ends (the atomic machine ran to its
    /// step cap, the threaded driver for ever), so the drivers take it
    /// here and such a run ends in `protocol_assertion` (`harness::caught`).
    pub fn task_to_work(&mut self, me: PeId) -> &mut T {
        let Some(task) = self.balancer.task_mut() else {
            panic!("PE {me} has work (`has_work`) but no subproblem (`task_mut` gives none)");
        };
        assert!(!task.is_empty(), "PE {me} has work (`has_work`) but its subproblem (`task_mut`) is empty");
        task
    }

    /// True while the PE holds work.
    pub fn has_work(&self) -> bool {
        self.balancer.has_work()
    }

    /// Branch-and-bound: a solution the last work slice found is spread
    /// (before the balancer acts: an exhausted subproblem may be dropped).
    fn after_work(&mut self, ctx: &mut Ctx<T>) {
        let found = self.balancer.incumbent();
        self.bounds.found(ctx, found);
        self.share_best();
    }

    /// Every subproblem the PE holds learns the best cost it knows (and is
    /// dropped once first-solution mode stopped the search).
    fn share_best(&mut self) {
        if let Some(v) = self.bounds.best() {
            self.balancer.improve(v);
        }
        if self.bounds.stopped() {
            self.balancer.discard();
        }
    }

    fn with_balancer(&mut self, ctx: &mut Ctx<T>, f: impl FnOnce(&mut B, &mut Ctx<T>)) {
        let mark = ctx.out.len();
        f(&mut self.balancer, ctx);
        self.attach_energy(ctx, mark);
    }

    /// Lets the detector see (and attach energy to) every work message the
    /// balancer just sent: each takes half, or after a [`Command::Scatter`]
    /// one of the equal parts still to hand out.
    fn attach_energy(&mut self, ctx: &mut Ctx<T>, mark: usize) {
        let is_work = |c: &Command<T>| matches!(c, Command::Send { msg: Msg::Work { .. }, .. });
        let mut scatter: Option<u32> = None;
        for i in mark..ctx.out.len() {
            if let Command::Scatter = ctx.out[i] {
                scatter = Some(ctx.out[i..].iter().filter(|c| is_work(c)).count() as u32 + 1);
            }
            if is_work(&ctx.out[i]) {
                let parts = scatter.unwrap_or(2);
                scatter = scatter.map(|p| p - 1);
                let attach = self.detector.on_work_sent(ctx, parts);
                if let Command::Send { msg: Msg::Work { energy, .. }, .. } = &mut ctx.out[i] {
                    *energy = attach;
                }
            }
        }
    }

    /// Turns an `Announce` into the broadcast down the tree.
    fn after(&mut self, ctx: &mut Ctx<T>) {
        if !self.terminated && ctx.out.iter().any(|c| matches!(c, Command::Announce)) {
            self.terminate(ctx);
        }
    }

    fn terminate(&mut self, ctx: &mut Ctx<T>) {
        if self.terminated {
            return;
        }
        self.terminated = true;
        let root = self.detector.announcer(ctx.pes);
        for c in tree_children_from(root, ctx.me, ctx.pes) {
            ctx.send(c, Msg::Terminate);
        }
        ctx.out.push(Command::Terminated);
    }
}

#[cfg(test)]
mod pe_tests;

#[cfg(test)]
mod tests {
    use super::*;

    /// From any root, the announcement reaches every PE exactly once, and
    /// from PE 0 it runs down the reduction tree as before.
    #[test]
    fn the_tree_from_any_root_spans_every_pe_once() {
        for pes in 1..=9 {
            for root in 0..pes {
                let (mut seen, mut todo) = (vec![false; pes as usize], vec![root]);
                while let Some(pe) = todo.pop() {
                    assert!(!std::mem::replace(&mut seen[pe as usize], true), "P={pes} root {root}: PE {pe} twice");
                    todo.extend(tree_children_from(root, pe, pes));
                }
                assert!(seen.iter().all(|&s| s), "P={pes} root {root}");
            }
            for pe in 0..pes {
                assert!(tree_children_from(0, pe, pes).eq(tree_children(pe, pes)));
            }
        }
    }
}
