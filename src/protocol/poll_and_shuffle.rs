//! Hypercube poll-and-shuffle (000 §3.1, Fig. 2; S-2), on the hypercube
//! and, through 000 §4's embedding, on meshes (§4.1), fat trees (§4.2) and
//! hypercubic networks (Thm 2).
//!
//! Every PE performs receiver-induced tree splitting (000 Fig. 1) in
//! phases of T_phase work units. Idle PEs send requests only after a
//! phase: after phase i, PE k asks its dimension-i partner k ⊕ 2^i, which
//! answers with a part split off its subproblem, or a reject. After L
//! phases (a *cycle*; L = log n on the hypercube) the subproblems — empty
//! ones included — are permuted uniformly at random (000 §3.2;
//! [`crate::sim::phased::permutation`]) and the phase counter restarts at
//! 0, so a subproblem meets fresh partners in every cycle (Lemma 2).
//!
//! L per topology: log n on the hypercube, butterfly, CCC and crossbar; on
//! an r-dimensional mesh the last ⌈r·log2 log2 n⌉ dimensions (the long
//! jumps) are dropped (000 §4.1, Thm 3); on a fat tree only the ⌈√log n⌉
//! lowest (000 §4.2, Thm 4).
//!
//! With the adaptive trigger (000 §5; S-7) the permutation is not made
//! after every L phases but when PE 0, from the notifications of idle PEs,
//! estimates that too many PEs are idle; without a trigger the dimension
//! counter wraps without permuting ([`crate::sim::phased::trigger`]).
//!
//! The schedule (phases, barriers, the permutation) is the phased
//! machine's ([`crate::sim::phased`]); this file holds the per-PE rules at
//! the seams a variant may change ([`PasRules`]).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::params::{Params, ParamsError};
use super::PeId;
use crate::base::Topology;

/// Poll-and-shuffle's parameters: flags of `lbcheck simulate` and keys of
/// the run specification, absent at their default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::Args, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasParams {
    /// Poll-and-shuffle: how a cycle's random permutation is drawn (000
    /// §3.2): exact (the default; uniform: random destinations, local
    /// shuffles, prefix sums) or pseudo (compositions of a fixed set of
    /// random permutations).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permutation: Option<Method>,
    /// Poll-and-shuffle: how PEs agree on phases: global (the default; a
    /// global clock's barriers, 000 §3.1) or local ("phase finished"
    /// messages between partners, 000 §6.3, Fig. 4).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sync: Option<SyncMode>,
    /// Poll-and-shuffle: when to permute (000 §5): cycle (the default;
    /// after every L phases, 000 §3.1) or adaptive (when PE 0 estimates
    /// from idle PEs' notifications, each sent with probability c/n, that
    /// more than εn/2 PEs are idle, at least log2 n phases after the last
    /// permutation); adaptive:c=5,alpha=2,delta=auto,eps=0.5 sets its
    /// constants (window ⌈α log2 n⌉ phases, the newest δ left out).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<Trigger>,
}

impl Params for PasParams {
    const OWNER: (&'static str, &'static str) = ("poll-and-shuffle", "000 §3.2, §5, §6.3");
}

impl PasParams {
    /// The permutation method (exact unless `--permutation pseudo`).
    pub fn permutation(&self) -> Method {
        self.permutation.unwrap_or_default()
    }

    /// The synchronisation (global unless `--sync local`).
    pub fn sync(&self) -> SyncMode {
        self.sync.unwrap_or_default()
    }

    /// The trigger (every cycle unless `--trigger adaptive`).
    pub fn trigger(&self) -> Trigger {
        self.trigger.unwrap_or_default()
    }

    /// Local synchronisation runs without a global clock, which the
    /// adaptive trigger needs (000 §5).
    pub fn validate(&self) -> Result<(), ParamsError> {
        if self.sync() == SyncMode::Local && self.trigger() != Trigger::Cycle {
            return Err(ParamsError::new("--trigger adaptive runs on the global clock (000 §5): drop --sync local"));
        }
        Ok(())
    }
}

crate::serde_as_text!(Method, SyncMode, Trigger);

/// How the subproblems move between cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shuffle {
    /// A uniform random permutation (000 §3.2).
    Permute,
    /// None: every cycle pairs the same subproblems (mutant `pas-no-shuffle`).
    Skip,
    /// k ↦ k ⊕ r for a random r: random, but it commutes with the
    /// dimension pairings, so every cycle pairs the same subproblems again
    /// (mutant `pas-xor-shuffle`, S-2).
    Xor,
    /// Random destinations without the prefix-sum step; a PE receiving two
    /// keeps one (mutant `shuffle-drops-work`).
    RandomDestinations,
}

/// The steps of poll-and-shuffle a variant may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PasRules {
    /// Poll along dimension i after phase i (else always dimension 0:
    /// mutant `pas-same-dimension`).
    pub fresh_dimensions: bool,
    /// How subproblems move between cycles.
    pub shuffle: Shuffle,
    /// Idle PEs wait for the barrier (else they ask the moment they run
    /// out, mid-phase: mutant `pas-mid-phase-request`).
    pub wait_for_barrier: bool,
    /// The exact permutation shuffles each PE's received items (else they
    /// keep their order: mutant `perm-no-local-shuffle`, S-6).
    pub local_shuffle: bool,
    /// The pseudo method's generators are uniform permutations (else XOR
    /// translations, a subgroup of order n: mutant `perm-generators-subgroup`, S-6).
    pub uniform_generators: bool,
    /// Local synchronisation: whose "phase finished" a PE waits for
    /// before the exchange (000 Fig. 4, S-5).
    pub wait: Wait,
    /// Adaptive trigger (000 §5): how often an idle PE notifies PE 0.
    pub notify: Notify,
    /// Adaptive trigger (000 §5, before Thm 5): never permute less than
    /// log2 n phases after the last permutation (else mutant `trigger-too-soon`).
    pub spaced_triggers: bool,
}

/// Local synchronisation's wait (000 §6.3, Fig. 4; S-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// For the dimension-i partner's "phase i finished" (Fig. 4).
    Partner,
    /// For nobody: the PE goes on at once (mutant `no-phase-wait`).
    Skip,
    /// For the dimension-(i+1) partner's, which never comes (mutant
    /// `wait-wrong-dimension`: a deadlock).
    NextDimension,
}

/// How often an idle PE notifies PE 0 under the adaptive trigger (000 §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notify {
    /// With probability c/n (c·√log2 n / n on a fat tree, 000 §5 fn. 1).
    Sampled,
    /// Always (mutant `notify-always`: PE 0 becomes a hot spot, Lemma 4).
    Always,
    /// Never (mutant `notify-never`: PE 0 sees no idleness, Lemma 5).
    Never,
}

impl PasRules {
    /// 000 §3.1.
    pub const PAPER: PasRules = PasRules {
        fresh_dimensions: true,
        shuffle: Shuffle::Permute,
        wait_for_barrier: true,
        local_shuffle: true,
        uniform_generators: true,
        wait: Wait::Partner,
        notify: Notify::Sampled,
        spaced_triggers: true,
    };

    /// The PE that PE `me` asks after phase `phase`: its partner along
    /// that dimension.
    pub fn partner(&self, me: PeId, phase: u32) -> PeId {
        me ^ (1 << if self.fresh_dimensions { phase } else { 0 })
    }
}

/// Phases per cycle L on `pes` = 2^D PEs of `topology` (000 §3.1, §4.1, §4.2).
pub fn phases_per_cycle(topology: Topology, pes: u32) -> u32 {
    let d = pes.trailing_zeros();
    let log_log = f64::from(d.max(1)).log2().ceil() as u32;
    match topology {
        Topology::Mesh { r } => d.saturating_sub(u32::from(r) * log_log).max(1.min(d)),
        Topology::FatTree => (f64::from(d).sqrt().ceil() as u32).min(d),
        _ => d,
    }
}

/// How a cycle's permutation is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// 000 §3.2's exact method.
    #[default]
    Exact,
    /// Compositions of a fixed set of random permutations.
    Pseudo,
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Method::Exact => "exact",
            Method::Pseudo => "pseudo",
        })
    }
}

impl std::str::FromStr for Method {
    type Err = crate::base::BadValue;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "exact" => Ok(Method::Exact),
            "pseudo" => Ok(Method::Pseudo),
            _ => Err(crate::base::BadValue::new("permutation", s, "exact or pseudo (000 §3.2)")),
        }
    }
}

/// How the PEs of poll-and-shuffle agree on phases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SyncMode {
    /// A global clock's barriers (000 §2.1, §3.1).
    #[default]
    Global,
    /// "Phase finished" messages between partners (000 §6.3, Fig. 4).
    Local,
}

impl std::fmt::Display for SyncMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SyncMode::Global => "global",
            SyncMode::Local => "local",
        })
    }
}

impl std::str::FromStr for SyncMode {
    type Err = crate::base::BadValue;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "global" => Ok(SyncMode::Global),
            "local" => Ok(SyncMode::Local),
            _ => Err(crate::base::BadValue::new("sync", s, "global (000 §3.1) or local (000 §6.3, Fig. 4)")),
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_per_cycle_follow_000() {
        assert_eq!(phases_per_cycle(Topology::Hypercube, 1024), 10);
        assert_eq!(phases_per_cycle(Topology::Mesh { r: 2 }, 1024), 2); // 10 − 2·⌈log2 10⌉
        assert_eq!(phases_per_cycle(Topology::Mesh { r: 2 }, 1 << 16), 8); // 16 − 2·4
        assert_eq!(phases_per_cycle(Topology::FatTree, 1024), 4); // ⌈√10⌉
        assert_eq!(phases_per_cycle(Topology::Hypercube, 1), 0);
        assert_eq!(PasRules::PAPER.partner(5, 1), 7);
    }

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
