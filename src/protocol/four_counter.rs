//! Four-counter termination detection (001 §2, after Mattern 1987) with
//! waves as asynchronous reductions over the binary tree rooted at PE 0.
//!
//! Each PE counts the work messages it sent (S_i) and received (R_i). PE 0
//! runs waves one after another: wave k goes down the tree, and each PE
//! sends up the sums of its subtree once all its children reported **and it
//! holds no work** (a busy PE defers its contribution until it goes idle).
//! Wave k yields totals S_k, R_k.
//!
//! **Condition.** PE 0 announces termination after wave k ≥ 2 iff
//! S_{k-1} = R_{k-1} = S_k = R_k.
//!
//! **Why it is safe.** Let t* be a moment between the end of wave k−1 and
//! the start of wave k. Counters are monotone and a message is received only
//! after it was sent, so R_{k-1} ≤ R(t*) ≤ S(t*) ≤ S_k; equality
//! R_{k-1} = S_k forces R(t*) = S(t*) (no work message in flight at t*) and
//! R(t*) = R_{k-1} (no PE received work between its wave-(k−1) reading,
//! taken while idle, and t*). A PE becomes busy only by receiving work, so
//! every PE is idle at t*, and none can become busy again: the computation
//! had terminated. (One wave is not enough: a PE read while idle may receive
//! work afterwards and pass part of it on; that is the mutant
//! `four-counter-one-wave`.) The same condition is model-checked in
//! `models/four_counter.pml` and proved in `proofs/FourCounter.v`.

use super::{tree_children, tree_parent, Command, Ctx, Detector, Msg, PeId};

/// A wave's totals: (Σ work messages sent, Σ received).
pub type Totals = (u64, u64);

/// The announcement condition at the seam where a variant may change it.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Whether PE 0 announces after a wave with `totals` (sent, received),
    /// `same_before` being how many waves just before it had the same totals.
    pub announce: fn(totals: Totals, same_before: u32) -> bool,
    /// Model time PE 0 waits between a wave and the next (0: none, the paper).
    pub pause: u64,
}

impl Rules {
    /// 001 §2: two consecutive waves with S_{k-1} = R_{k-1} = S_k = R_k.
    pub const PAPER: Rules = Rules { announce: |(s, r), same_before| s == r && same_before >= 1, pause: 0 };
}

impl Default for Rules {
    fn default() -> Self {
        Rules::PAPER
    }
}

/// One PE's four-counter state.
#[derive(Clone, Debug, Default)]
pub struct FourCounter {
    sent: u64,
    recv: u64,
    busy: bool,
    /// The wave this PE is taking part in, if its reading is still due.
    pending: Option<u64>,
    reports: u32,
    acc: (u64, u64),
    /// PE 0: totals of the previous wave, and how many waves in a row had them.
    prev: Option<(u64, u64)>,
    same: u32,
    rules: Rules,
    /// The next wave, while PE 0 pauses before it (the `pause` rule).
    paused: Option<u64>,
}

impl FourCounter {
    /// A PE's detector, following `rules`.
    pub fn new(rules: Rules) -> Self {
        FourCounter { rules, ..Default::default() }
    }

    /// Joins wave `k`: passes it down and reads when ready.
    fn join<T>(&mut self, ctx: &mut Ctx<T>, wave: u64) {
        self.pending = Some(wave);
        self.reports = 0;
        self.acc = (0, 0);
        for c in tree_children(ctx.me, ctx.pes) {
            ctx.send(c, Msg::WaveDown { wave });
        }
        self.try_report(ctx);
    }

    /// Sends this subtree's sums up once all children reported and the PE is idle.
    fn try_report<T>(&mut self, ctx: &mut Ctx<T>) {
        let Some(wave) = self.pending else { return };
        if self.busy || self.reports < tree_children(ctx.me, ctx.pes).count() as u32 {
            return;
        }
        self.pending = None;
        let (sent, recv) = (self.acc.0 + self.sent, self.acc.1 + self.recv);
        match tree_parent(ctx.me) {
            Some(parent) => ctx.send(parent, Msg::WaveUp { wave, sent, recv }),
            None => self.wave_done(ctx, wave, (sent, recv)),
        }
    }

    /// PE 0: a wave completed with `totals`; announce or start the next.
    fn wave_done<T>(&mut self, ctx: &mut Ctx<T>, wave: u64, totals: (u64, u64)) {
        ctx.out.push(Command::Wave { wave, sent: totals.0, recv: totals.1 });
        let same_before = if self.prev == Some(totals) { self.same } else { 0 };
        if (self.rules.announce)(totals, same_before) {
            ctx.out.push(Command::Announce);
            return;
        }
        let stalled =
            self.prev == Some(totals) && totals.0 != totals.1 && tree_children(ctx.me, ctx.pes).next().is_none();
        (self.prev, self.same) = (Some(totals), same_before + 1);
        if self.rules.pause > 0 {
            (self.paused, self.pending) = (Some(wave + 1), None);
            ctx.out.push(Command::Timer { after: self.rules.pause });
            return;
        }
        if stalled {
            // P = 1 with work in flight to itself: a wave would complete at
            // once with the same totals, forever; the next one waits until
            // this PE goes idle again (after the message arrived).
            (self.pending, self.reports, self.acc) = (Some(wave + 1), 0, (0, 0));
            return;
        }
        self.join(ctx, wave + 1);
    }
}

impl<T> Detector<T> for FourCounter {
    fn start(&mut self, ctx: &mut Ctx<T>, holds_work: bool, _share: Option<crate::base::Fraction>) {
        self.busy = holds_work;
        if ctx.me == 0 {
            self.join(ctx, 1);
        }
    }

    fn on_work_sent(&mut self, _ctx: &mut Ctx<T>, _parts: u32) -> Option<crate::base::Fraction> {
        self.sent += 1;
        None
    }

    fn on_work_received(&mut self, _ctx: &mut Ctx<T>, _from: PeId, _energy: Option<crate::base::Fraction>) {
        self.recv += 1;
        self.busy = true;
    }

    fn on_idle(&mut self, ctx: &mut Ctx<T>) {
        self.busy = false;
        self.try_report(ctx);
    }

    fn on_timer(&mut self, ctx: &mut Ctx<T>, _idle: bool) {
        if let Some(wave) = self.paused.take() {
            self.join(ctx, wave);
        }
    }

    fn on_message(&mut self, ctx: &mut Ctx<T>, _from: PeId, msg: Msg<T>, _idle: bool) {
        match msg {
            Msg::WaveDown { wave } => self.join(ctx, wave),
            Msg::WaveUp { wave, sent, recv } if self.pending == Some(wave) => {
                self.acc = (self.acc.0 + sent, self.acc.1 + recv);
                self.reports += 1;
                self.try_report(ctx);
            }
            _ => {}
        }
    }
}
