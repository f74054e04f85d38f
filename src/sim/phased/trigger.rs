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
use std::fmt;
use std::str::FromStr;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::super::{SimConfig, Topology};
use crate::base::rng::{stream, Purpose};
use crate::base::topology::Hops;
use crate::event::{Event, Kind};
use crate::protocol::poll_and_shuffle::{Notify, PasRules};

/// A `--trigger` that does not parse ([`Trigger`]'s `FromStr`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("trigger `{given}`: {why}; expected cycle, adaptive or adaptive:c=5,alpha=2,delta=auto,eps=0.5 (000 §5)")]
pub struct ParseTriggerError {
    /// The value given.
    pub given: String,
    /// What is wrong with it.
    pub why: TriggerProblem,
}

/// What is wrong with a `--trigger` value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TriggerProblem {
    /// Neither `cycle` nor `adaptive[:…]`.
    #[error("unknown mode `{0}`")]
    UnknownMode(String),
    /// A parameter not of the form KEY=VALUE.
    #[error("`{0}` is not KEY=VALUE")]
    NotKeyValue(String),
    /// A key other than c, alpha, delta, eps.
    #[error("`{0}`: expected c, alpha, delta or eps")]
    UnknownKey(String),
    /// c, alpha or delta not an integer in `min..=1000000`.
    #[error("`{key}={value}`: expected an integer {min}..=1000000")]
    NotInteger {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// The least value the key takes.
        min: u32,
    },
    /// ε not a decimal in (0, 1] of at most two decimals.
    #[error("`eps={0}`: expected 0 < ε ≤ 1, at most 2 decimals")]
    Eps(String),
}

/// When the permutation is made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Trigger {
    /// After every L phases (000 §3.1).
    #[default]
    Cycle,
    /// When PE 0 estimates that many PEs are idle (000 §5).
    Adaptive(Adaptive),
}

/// The adaptive trigger's constants (000 §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adaptive {
    /// c: an idle PE notifies with probability c/n.
    pub c: u32,
    /// α: the window is ⌈α·log2 n⌉ phases.
    pub alpha: u32,
    /// δ: the newest phases left out of the window (`None`: those whose
    /// notifications may still be in flight, T_rout·d after their barrier).
    pub delta: Option<u32>,
    /// ε in hundredths: permute when γ̂ > ε/2.
    pub eps_pct: u32,
}

impl Adaptive {
    /// 000 §5's defaults: c = 5, α = 2, δ automatic, ε = 1/2.
    pub const PAPER: Adaptive = Adaptive { c: 5, alpha: 2, delta: None, eps_pct: 50 };

    /// ε.
    pub fn eps(&self) -> f64 {
        f64::from(self.eps_pct) / 100.0
    }

    /// q·n on `pes` PEs of `topology`: c, or c·√log2 n on a fat tree.
    pub fn rate(&self, topology: Topology, pes: u32) -> f64 {
        let c = f64::from(self.c);
        match topology {
            Topology::FatTree => c * f64::from(pes.trailing_zeros()).sqrt(),
            _ => c,
        }
    }

    /// W = ⌈α·log2 n⌉ (at least 1).
    pub fn window(&self, pes: u32) -> u64 {
        (u64::from(self.alpha) * u64::from(pes.trailing_zeros())).max(1)
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), TriggerProblem> {
        let int = |min: u32| match value.parse::<u32>() {
            Ok(v) if v >= min && v <= 1_000_000 => Ok(v),
            _ => Err(TriggerProblem::NotInteger { key: key.into(), value: value.into(), min }),
        };
        match key {
            "c" => self.c = int(1)?,
            "alpha" => self.alpha = int(1)?,
            "delta" if value == "auto" => self.delta = None,
            "delta" => self.delta = Some(int(0)?),
            "eps" => self.eps_pct = hundredths(value).ok_or_else(|| TriggerProblem::Eps(value.into()))?,
            _ => return Err(TriggerProblem::UnknownKey(key.into())),
        }
        Ok(())
    }
}

/// "0.5" → 50: a decimal in (0, 1] with at most two decimals, in hundredths.
fn hundredths(s: &str) -> Option<u32> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if frac.len() > 2 || !(whole.chars().chain(frac.chars())).all(|c| c.is_ascii_digit()) || s.is_empty() {
        return None;
    }
    let w: u32 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let f: u32 = format!("{frac:0<2}").parse().ok()?;
    let v = w.checked_mul(100)?.checked_add(f)?;
    (1..=100).contains(&v).then_some(v)
}

impl fmt::Display for Trigger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Trigger::Cycle => f.write_str("cycle"),
            Trigger::Adaptive(a) if *a == Adaptive::PAPER => f.write_str("adaptive"),
            Trigger::Adaptive(a) => {
                let delta = a.delta.map_or("auto".into(), |d| d.to_string());
                let eps = format!("{}.{:02}", a.eps_pct / 100, a.eps_pct % 100);
                let eps = eps.trim_end_matches('0').trim_end_matches('.');
                write!(f, "adaptive:c={},alpha={},delta={delta},eps={eps}", a.c, a.alpha)
            }
        }
    }
}

impl FromStr for Trigger {
    type Err = ParseTriggerError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = |why| ParseTriggerError { given: s.into(), why };
        let (mode, params) = s.split_once(':').unwrap_or((s, ""));
        match mode {
            "cycle" if params.is_empty() && !s.contains(':') => Ok(Trigger::Cycle),
            "adaptive" => {
                let mut a = Adaptive::PAPER;
                for kv in params.split(',').filter(|_| s.contains(':')) {
                    let (k, v) = kv.split_once('=').ok_or_else(|| bad(TriggerProblem::NotKeyValue(kv.into())))?;
                    a.set(k, v).map_err(bad)?;
                }
                Ok(Trigger::Adaptive(a))
            }
            _ => Err(bad(TriggerProblem::UnknownMode(mode.into()))),
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triggers_parse_and_print_back() {
        assert_eq!("cycle".parse(), Ok(Trigger::Cycle));
        assert_eq!("adaptive".parse(), Ok(Trigger::Adaptive(Adaptive::PAPER)));
        let t: Trigger = "adaptive:c=8,eps=0.25,delta=2".parse().unwrap();
        assert_eq!(t, Trigger::Adaptive(Adaptive { c: 8, alpha: 2, delta: Some(2), eps_pct: 25 }));
        assert_eq!(t.to_string(), "adaptive:c=8,alpha=2,delta=2,eps=0.25");
        assert_eq!(t.to_string().parse(), Ok(t));
        assert_eq!("adaptive:c=5".parse::<Trigger>().unwrap().to_string(), "adaptive");
        for bad in [
            "",
            "often",
            "cycle:c=1",
            "adaptive:",
            "adaptive:c=0",
            "adaptive:eps=1.5",
            "adaptive:eps=0",
            "adaptive:x=1",
            "adaptive:c",
        ] {
            assert!(bad.parse::<Trigger>().is_err(), "{bad}");
        }
        let why = |s: &str| s.parse::<Trigger>().unwrap_err().why;
        assert_eq!(why("often"), TriggerProblem::UnknownMode("often".into()));
        assert_eq!(why("adaptive:c"), TriggerProblem::NotKeyValue("c".into()));
        assert_eq!(why("adaptive:x=1"), TriggerProblem::UnknownKey("x".into()));
        assert_eq!(why("adaptive:eps=0"), TriggerProblem::Eps("0".into()));
        let c0 = TriggerProblem::NotInteger { key: "c".into(), value: "0".into(), min: 1 };
        assert_eq!(why("adaptive:c=0"), c0);
        assert_eq!(
            "adaptive:c=0".parse::<Trigger>().unwrap_err().to_string(),
            "trigger `adaptive:c=0`: `c=0`: expected an integer 1..=1000000; expected cycle, adaptive or adaptive:c=5,alpha=2,delta=auto,eps=0.5 (000 §5)"
        );
        assert_eq!(hundredths("1"), Some(100));
        assert_eq!(hundredths(".5"), Some(50));
        assert_eq!(hundredths("0.125"), None);
    }

    #[test]
    fn paper_defaults_meet_lemma_5() {
        let a = Adaptive::PAPER;
        assert!(f64::from(a.c) >= 3.0 * 2f64.ln() / (a.eps().powi(2) * f64::from(a.alpha)));
        assert_eq!(a.window(1024), 20);
        assert!((a.rate(Topology::FatTree, 1024) - 5.0 * 10f64.sqrt()).abs() < 1e-12);
    }
}
