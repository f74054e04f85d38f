//! When poll-and-shuffle permutes (000 §5, Lemmas 4–5, Thm 5; S-7).
//!
//! - **Cycle** (000 §3.1): after every L phases, always.
//! - **Adaptive** (000 §5): whenever a PE becomes idle, or is idle when a
//!   phase starts, it sends `notify` to PE 0 with probability q = c/n
//!   (c·√log2 n / n on a fat tree, 000 §5 fn. 1; on a mesh c/n, the
//!   footnote's "higher probability" left unused), drawn from its own
//!   stream ([`Purpose::Notify`]). A notification takes T_rout per hop.
//!   PE 0 keeps the counts m of the last W = ⌈α·log2 n⌉ *complete* phases
//!   since the last permutation, a phase being complete once its
//!   notifications must have arrived: δ phases back, or (by default) when
//!   T_rout·d has passed since its barrier (000 §5: "only using
//!   notifications from phases sufficiently far back"). Over those k
//!   phases it estimates the idle fraction γ̂ = m/(q·n·k) (= m/(c·k)); at
//!   the end of a phase it triggers the permutation if at least log2 n
//!   phases have passed since the last one and γ̂ > ε/2 (Thm 5's policy).
//!   The trigger reaches every PE by a broadcast of T_rout·d; the
//!   permutation resets the window. Without a trigger the dimension
//!   counter wraps without permuting.
//!
//! Defaults: ε = 1/2, α = 2, c = 5 ≥ 3 ln 2/(ε²α) ≈ 4.16, Lemma 5's
//! condition for P[γ̂ < γ̄ − ε] ≤ 1/n; δ automatic.

use std::collections::VecDeque;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::super::SimConfig;
use crate::base::rng::{stream, Purpose};
use crate::base::topology::Hops;
use crate::event::{Event, Kind};
pub use crate::protocol::poll_and_shuffle::{Adaptive, Trigger};
use crate::protocol::poll_and_shuffle::{Notify, PasRules};

/// One phase since the last permutation, as PE 0 will know it.
struct Seen {
    /// Its barrier.
    barrier: u64,
    /// Notifications of it arrived so far.
    arrived: u64,
}

/// PE 0's monitor, and every PE's notification coins.
pub(super) struct Monitor {
    trigger: Trigger,
    rules: PasRules,
    /// q per trial (the mutants': 0 or 1).
    q: f64,
    /// q·n as PE 0 believes it (c, or c·√log2 n): γ̂ = m/(rate·k).
    rate: f64,
    /// log2 n, W.
    log_n: u64,
    window: u64,
    /// T_rout·d: a notification's or the broadcast's longest trip.
    trip: u64,
    coins: Vec<ChaCha8Rng>,
    /// The phase (from 0 since the start) the first of `seen` is.
    first: u64,
    seen: VecDeque<Seen>,
    /// Notifications in flight: (arrival, phase).
    flying: Vec<(u64, u64)>,
}

impl Monitor {
    /// The trigger of a run of `cfg` under `rules`.
    pub(super) fn new(trigger: Trigger, rules: PasRules, cfg: &SimConfig, hops: &Hops) -> Monitor {
        let adaptive = matches!(trigger, Trigger::Adaptive(_));
        let rate = match trigger {
            Trigger::Adaptive(a) => a.rate(cfg.topology, cfg.pes),
            Trigger::Cycle => 0.0,
        };
        let q = match rules.notify {
            Notify::Sampled => (rate / f64::from(cfg.pes)).min(1.0),
            Notify::Always if adaptive => 1.0,
            Notify::Always | Notify::Never => 0.0,
        };
        let window = match trigger {
            Trigger::Adaptive(a) => a.window(cfg.pes),
            Trigger::Cycle => 1,
        };
        let coins = match adaptive {
            true => (0..cfg.pes).map(|pe| stream(cfg.seed, pe, Purpose::Notify)).collect(),
            false => Vec::new(),
        };
        let log_n = u64::from(cfg.pes.trailing_zeros());
        let trip = cfg.t_rout * hops.diameter().max(1);
        Monitor {
            trigger,
            rules,
            q,
            rate,
            log_n,
            window,
            trip,
            coins,
            first: 0,
            seen: VecDeque::new(),
            flying: Vec::new(),
        }
    }

    /// True if the trigger is adaptive (PEs notify).
    pub(super) fn adaptive(&self) -> bool {
        matches!(self.trigger, Trigger::Adaptive(_))
    }

    /// The coin of PE `pe` for one trial: does it notify?
    pub(super) fn coin(&mut self, pe: u32) -> bool {
        match self.q {
            q if q <= 0.0 => false,
            q if q >= 1.0 => true,
            q => self.coins[pe as usize].random_bool(q),
        }
    }

    /// A notification of phase `phase` will reach PE 0 at `at`.
    pub(super) fn sent(&mut self, phase: u64, at: u64) {
        self.flying.push((at, phase));
    }

    /// The end of phase `phase` (from 0 since the start; its barrier at
    /// `barrier`, its exchange over at `now`), the `round`-th of the
    /// dimension round of L: when the permutation starts, if one is made.
    pub(super) fn end_of_phase(&mut self, phase: u64, barrier: u64, now: u64, round: u32, l: u32) -> Option<u64> {
        let Trigger::Adaptive(a) = self.trigger else {
            return (round + 1 == l).then_some(now);
        };
        self.seen.push_back(Seen { barrier, arrived: 0 });
        debug_assert_eq!(self.first + self.seen.len() as u64, phase + 1);
        self.arrivals(now);
        let since = self.seen.len() as u64;
        let spaced = since >= self.log_n || !self.rules.spaced_triggers;
        let (m, k) = self.window(&a, now);
        let trigger = spaced && k > 0 && m as f64 > a.eps() / 2.0 * self.rate * k as f64;
        if !trigger {
            return None;
        }
        self.first = phase + 1;
        self.seen.clear();
        Some(now + self.trip)
    }

    /// Moves the notifications arrived by `now` into their phases'
    /// counts (those of phases before the last permutation are dropped).
    fn arrivals(&mut self, now: u64) {
        let (first, seen) = (self.first, &mut self.seen);
        self.flying.retain(|&(at, phase)| {
            if at > now {
                return true;
            }
            if let Some(s) = phase.checked_sub(first).and_then(|i| seen.get_mut(i as usize)) {
                s.arrived += 1;
            }
            false
        });
    }

    /// (m, k): notifications over the last W complete phases, and their number.
    fn window(&self, a: &Adaptive, now: u64) -> (u64, u64) {
        let complete = match a.delta {
            Some(d) => self.seen.len().saturating_sub(d as usize),
            None => self.seen.iter().take_while(|s| s.barrier + self.trip <= now).count(),
        };
        let from = complete.saturating_sub(self.window as usize);
        let m = self.seen.range(from..complete).map(|s| s.arrived).sum();
        (m, (complete - from) as u64)
    }
}

impl<T: crate::problem::Subproblem> super::Machine<'_, T> {
    /// PE `pe` is idle in phase `step` at `t` (it became idle, or the phase
    /// started): under the adaptive trigger it notifies PE 0 if its coin
    /// says so (000 §5).
    pub(super) fn notify(&mut self, pe: u32, t: u64, step: u64) {
        if !self.monitor.adaptive() || !self.monitor.coin(pe) {
            return;
        }
        let (id, at) = (self.id(), t + self.latency(pe, 0));
        self.monitor.sent(step, at);
        let data = || Some(Box::new(serde_json::json!({ "phase": step })));
        let kind = Kind::Notify;
        self.batch.push(Event::Send { t, from: pe, to: 0, id, kind, energy: None, data: data() });
        self.batch.push(Event::Recv { t: at, pe: 0, from: pe, id, kind, queue: None, data: data() });
    }
}
