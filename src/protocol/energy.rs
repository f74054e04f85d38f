//! Energy-based termination detection (003 §14.7.4), with exact energy
//! ([`Fraction`]) and the spanning-tree variant.
//!
//! PE 0 starts with energy 1 (with the initial broadcast, each PE starts with
//! its part's share). A PE that sends work keeps half its energy and sends
//! half with the work (rule 4); the initial Scatter of 003 §14.7 divides PE
//! 0's energy into p equal parts (rule 3: 1/p each, exact for any p); a PE that runs out of work returns all its energy to
//! PE 0 (`energy`) or to its parent in the reduction tree (`energy-tree`: a
//! busy parent adds it to its own, an idle one forwards it). PE 0, idle and
//! holding exactly 1, announces termination. Safe because energy is
//! conserved and every PE holding work, like every work message, holds
//! positive energy: PE 0 holding 1 leaves none for work anywhere.
//!
//! PE 0 tallies returns by exact addition; since each return is a sum of
//! powers of two, the tally stays a short big integer even when generations
//! (exponents) reach the thousands.
//!
//! The share a server gives with work is the seam [`Rules::share`]: the
//! reference runs [`Rules::PAPER`], a mutant ([`crate::mutants`]) a broken share.

use super::{tree_parent, Command, Ctx, Detector, Msg, PeId};
use crate::base::Fraction;

/// How a server splits its energy `held` when it sends work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Share {
    /// The energy it keeps (`None`: unchanged).
    pub keep: Option<Fraction>,
    /// The energy attached to the work message.
    pub attach: Fraction,
    /// Energy returned to PE 0 before the work is sent.
    pub returned: Option<Fraction>,
}

/// The energy rule at the seam where a variant may change it.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// The share of a server's energy `held` (PE `me`) sent with work
    /// that divides it into `parts` equal parts: 2 for a split (rule 4),
    /// the parts still to hand out plus the one kept for a Scatter (rule 3).
    pub share: fn(&Fraction, u32, PeId) -> Share,
    /// Model time a PE that went idle waits before it gives its energy
    /// back (0: at once, the paper).
    pub idle_hold: u64,
}

impl Rules {
    /// 003 §14.7.4 rules 3 and 4: send one of `parts` equal parts with the
    /// work, keep the rest (half of it for a split).
    pub const PAPER: Rules = Rules { share: |held, parts, _| one_part(held, parts), idle_hold: 0 };
}

/// Rules 3 and 4: `held / parts` attached, the rest kept.
pub fn one_part(held: &Fraction, parts: u32) -> Share {
    let attach = held.div(parts);
    let keep = if parts == 2 { attach.clone() } else { held - &attach };
    Share { keep: Some(keep), attach, returned: None }
}

/// One PE's energy detector state.
#[derive(Clone, Debug)]
pub struct Energy {
    held: Fraction,
    tree: bool,
    busy: bool,
    rules: Rules,
}

impl Energy {
    /// Direct return to PE 0 (`tree = false`) or along the tree, following `rules`.
    pub fn new(tree: bool, rules: Rules) -> Self {
        Energy { held: Fraction::zero(), tree, busy: false, rules }
    }

    fn set<T>(&mut self, ctx: &mut Ctx<T>, held: Fraction) {
        self.held = held;
        ctx.out.push(Command::Energy(self.held.clone()));
    }

    /// Adds `e` to the holding in place (a big holding is not copied but
    /// for its event).
    fn add<T>(&mut self, ctx: &mut Ctx<T>, e: &Fraction) {
        self.held += e;
        ctx.out.push(Command::Energy(self.held.clone()));
    }

    /// Where returned energy goes from this PE.
    fn sink(&self, me: PeId) -> PeId {
        if self.tree {
            tree_parent(me).unwrap_or(0)
        } else {
            0
        }
    }

    /// Gives all energy held towards PE 0 (PE 0 keeps it).
    fn give_back<T>(&mut self, ctx: &mut Ctx<T>) {
        if ctx.me == 0 || self.held.is_zero() {
            return;
        }
        let e = std::mem::replace(&mut self.held, Fraction::zero());
        ctx.send(self.sink(ctx.me), Msg::Energy(e));
        ctx.out.push(Command::Energy(Fraction::zero()));
    }

    fn maybe_announce<T>(&self, ctx: &mut Ctx<T>) {
        if ctx.me == 0 && !self.busy && self.held.is_one() {
            ctx.out.push(Command::Announce);
        }
    }
}

impl<T> Detector<T> for Energy {
    fn start(&mut self, ctx: &mut Ctx<T>, holds_work: bool, share: Option<Fraction>) {
        self.busy = holds_work;
        let initial = share.unwrap_or_else(|| if ctx.me == 0 { Fraction::one() } else { Fraction::zero() });
        if !initial.is_zero() {
            self.set(ctx, initial);
        }
        if !holds_work {
            self.give_back(ctx);
            self.maybe_announce(ctx);
        }
    }

    fn on_work_sent(&mut self, ctx: &mut Ctx<T>, parts: u32) -> Option<Fraction> {
        let share = (self.rules.share)(&self.held, parts, ctx.me);
        if let Some(keep) = share.keep {
            self.set(ctx, keep);
        }
        if let Some(e) = share.returned {
            ctx.send(0, Msg::Energy(e));
        }
        Some(share.attach)
    }

    fn on_work_received(&mut self, ctx: &mut Ctx<T>, _from: PeId, energy: Option<Fraction>) {
        self.busy = true;
        self.add(ctx, &energy.unwrap_or_else(Fraction::zero));
    }

    fn on_idle(&mut self, ctx: &mut Ctx<T>) {
        self.busy = false;
        if self.rules.idle_hold > 0 && ctx.me != 0 {
            ctx.out.push(Command::Timer { after: self.rules.idle_hold });
            return;
        }
        self.give_back(ctx);
        self.maybe_announce(ctx);
    }

    fn on_timer(&mut self, ctx: &mut Ctx<T>, idle: bool) {
        if idle {
            self.give_back(ctx);
        }
    }

    fn on_message(&mut self, ctx: &mut Ctx<T>, _from: PeId, msg: Msg<T>, idle: bool) {
        let Msg::Energy(e) = msg else { return };
        if ctx.me != 0 && idle {
            ctx.send(self.sink(ctx.me), Msg::Energy(e)); // forward up the tree
            return;
        }
        self.add(ctx, &e);
        self.maybe_announce(ctx);
    }
}
