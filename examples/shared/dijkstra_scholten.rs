//! Dijkstra–Scholten termination detection (E. W. Dijkstra and C. S.
//! Scholten, "Termination detection for diffusing computations", EWD687a,
//! Inf. Proc. Letters 11 (1980)), the "user's detector" of the example
//! `own_detector.rs`: a detector lbcheck does not ship, written against the
//! sans-IO [`Detector`] trait, whose acknowledgements are its own control
//! messages ([`Msg::control`]). Included with `#[path]`.
//!
//! For load balancing the basic messages are the work messages. The rules:
//! - every work message is acknowledged (a control message `"ack"` back to
//!   its sender); a PE counts its *deficit*, the work messages it sent that
//!   are not yet acknowledged;
//! - a PE that is not engaged becomes engaged by the work message that
//!   reaches it then (its *engaging* message, from its *parent*); a work
//!   message reaching an engaged PE is acknowledged at once;
//! - an engaged PE acknowledges its engaging message only when it is idle
//!   and its deficit is 0, and is then no longer engaged;
//! - the root of the computation, PE 0, is engaged throughout and
//!   announces termination when it is idle with a deficit of 0.
//!
//! The engaged PEs form a tree rooted at PE 0 (each PE's parent engaged
//! it), and a PE leaves the tree only as a leaf that holds no work: when
//! PE 0 is idle with no child, no PE holds work and no work is in flight.
//! A run that starts with the root split among the PEs (`initial_split`)
//! is a computation that PE 0 started by engaging every other PE: PE 0
//! starts with a deficit of P − 1, every other PE engaged by it.
//!
//! The root may be the last PE instead ([`DijkstraScholten::rooted_at_last`]):
//! it then engages every other PE, PE 0 with the workload's root among
//! them, and is the announcer it declares ([`Detector::announcer`]).
//!
//! The broken variant ([`Variant::AcksEarly`]) acknowledges its engaging
//! message as soon as it is idle, with work messages of its own still
//! unacknowledged: its children leave the tree, and PE 0 may announce
//! while they still work.

use lbcheck::base::Fraction;
use lbcheck::protocol::{Command, Ctx, Detector, Msg, PeId};

/// Which version of the detector a PE runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// EWD687a's rules.
    Correct,
    /// The deliberate bug: an idle PE acknowledges its engaging message
    /// while it still has unacknowledged work messages out.
    AcksEarly,
}

/// The detector's one signal, as a control message's payload (`"ack"`).
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Signal {
    /// Acknowledges one work message.
    Ack,
}

/// One PE's Dijkstra–Scholten state.
#[derive(Clone, Debug)]
pub struct DijkstraScholten {
    /// Work messages sent and not yet acknowledged.
    deficit: u64,
    /// The sender of the engaging message, while engaged (PE 0 has none).
    parent: Option<PeId>,
    /// The PE holds work.
    busy: bool,
    variant: Variant,
    /// The root is PE P − 1, not PE 0.
    last: bool,
}

impl DijkstraScholten {
    /// A PE's initial state.
    pub fn new(variant: Variant) -> Self {
        DijkstraScholten { deficit: 0, parent: None, busy: false, variant, last: false }
    }

    /// This detector with PE P − 1 as the root and announcer.
    pub fn rooted_at_last(self) -> Self {
        DijkstraScholten { last: true, ..self }
    }

    fn root(&self, pes: u32) -> PeId {
        if self.last {
            pes - 1
        } else {
            0
        }
    }

    fn engaged<T>(&self, ctx: &Ctx<T>) -> bool {
        ctx.me == self.root(ctx.pes) || self.parent.is_some()
    }

    /// An idle PE with no deficit leaves the tree: the root announces,
    /// another PE acknowledges its engaging message.
    fn leave_if_done<T>(&mut self, ctx: &mut Ctx<T>) {
        let root = ctx.me == self.root(ctx.pes);
        let early = self.variant == Variant::AcksEarly && !root;
        if self.busy || !(self.deficit == 0 || early) {
            return;
        }
        if root {
            ctx.out.push(Command::Announce);
        } else if let Some(parent) = self.parent.take() {
            ctx.send(parent, Msg::control(&Signal::Ack));
        }
    }
}

impl<T> Detector<T> for DijkstraScholten {
    fn start(&mut self, ctx: &mut Ctx<T>, holds_work: bool, _share: Option<Fraction>) {
        self.busy = holds_work;
        let root = self.root(ctx.pes);
        match ctx.me == root {
            true => self.deficit += u64::from(ctx.pes - 1), // after any work sent at the start
            false => self.parent = Some(root),
        }
        self.leave_if_done(ctx);
    }

    fn on_work_sent(&mut self, _ctx: &mut Ctx<T>, _parts: u32) -> Option<Fraction> {
        self.deficit += 1;
        None
    }

    fn on_work_received(&mut self, ctx: &mut Ctx<T>, from: PeId, _energy: Option<Fraction>) {
        self.busy = true;
        match self.engaged(ctx) {
            true => ctx.send(from, Msg::control(&Signal::Ack)),
            false => self.parent = Some(from),
        }
    }

    fn on_idle(&mut self, ctx: &mut Ctx<T>) {
        self.busy = false;
        self.leave_if_done(ctx);
    }

    /// `busy` is kept from `on_idle`, not from `_idle`: the balancer's
    /// subproblem may be empty while the driver still works its last slice.
    fn on_message(&mut self, ctx: &mut Ctx<T>, _from: PeId, msg: Msg<T>, _idle: bool) {
        if let Ok(Signal::Ack) = msg.control_payload() {
            self.deficit = self.deficit.saturating_sub(1);
        }
        self.leave_if_done(ctx);
    }

    fn announcer(&self, pes: u32) -> PeId {
        self.root(pes)
    }
}
