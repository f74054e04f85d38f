//! Drivers that simulate machines deterministically.
//!
//! [`logp`] is the machine of 001 §1: P PEs connected by a network with
//! message latency T_rout (or a random latency in [a, b] — uniform, bimodal
//! or heavy-tailed, [`latency`] — which may reorder messages between a pair
//! unless links are FIFO; an adversarial schedule may slow one class; with
//! `--routing`, 000 §6.1's message lengths and packet or cut-through
//! routing, [`Routing`]), T_split charged to the splitting PE, polling
//! every Δt work units while busy, and optional slow PEs. It is a bounded
//! discrete-event loop over integer model time: events are ordered by
//! (time, sequence number), all randomness comes from [`crate::base::rng`] streams, and
//! the same configuration and seed give the same event stream, byte for byte.
//!
//! [`atomic`] is 004's atomic message-passing model: synchronous steps, one
//! send and one receive buffer per node, arbiters.
//!
//! [`MachineKind`] is this layer's registry: the machine models of the papers.

pub mod agenda;
pub mod atomic;
pub mod explore;
pub mod latency;
pub mod logp;
mod mail;
pub mod phased;
pub(crate) mod prefetch;
pub mod script;

pub use crate::base::topology::{self, Topology};
pub use latency::{Routing, Schedule, Shape};
pub use logp::{run, Outcome, Stop};

use serde::{Deserialize, Serialize};

use crate::base::registry::Info;
use crate::base::text::is_default;
use crate::base::{BadValue, TopologyError};
use crate::protocol::initial::{InitialSplit, InitialSplitError};
use crate::protocol::sync_polling::Rounds;
use crate::registry;

registry! {
    /// The machine models a simulator implements.
    pub enum MachineKind: "machine" {
        /// 001 §1.1's asynchronous machine ([`logp`]).
        Async => Info::ships(
            "async",
            "001 §1.1-§1.2",
            "asynchronous PEs on a crossbar: latency T_rout (or random a..b), T_split, Δt polling, slow PEs",
        ),
        /// 004 §2's atomic message-passing model ([`atomic`]).
        Atomic => Info::ships(
            "atomic",
            "004 §2",
            "synchronous steps, one send and one receive buffer per node, arbiters (fifo … adversary)",
        ),
        /// 004 §1's comparison: Karp and Zhang's complete network ([`atomic`]).
        Complete => Info::ships(
            "complete",
            "004 §1 (Karp-Zhang)",
            "synchronous steps, unbounded buffers: every message sent arrives at the next step",
        ),
        /// 000 §2.1 and §3's phased machine ([`phased`]).
        Phased => Info::ships(
            "phased",
            "000 §2.1, §3",
            "global phases of T_phase (= Δt) work with barriers, on any --topology; poll-and-shuffle runs on it",
        ),
    }
}

/// The largest accepted time parameter (Δt, T_rout, latency bounds,
/// T_split), 10^9: with it the detection horizon and every per-event time
/// step fit in 64 bits.
pub const MAX_TIME_PARAM: u64 = 1_000_000_000;
/// The largest accepted slow-PE factor (time units per work unit), 10^6.
pub const MAX_SLOW_FACTOR: u64 = 1_000_000;
/// The largest accepted explicit detection horizon, 10^15.
pub const MAX_HORIZON: u64 = 1_000_000_000_000_000;
/// The largest number of simulated PEs, 2^20: each costs about 1.4 kB of
/// state (simulator and checker) and its share of every broadcast, so
/// 2^20 PEs take 1.5 GB (2^24 took 23 GB and minutes before the first event).
pub const MAX_PES: u32 = 1 << 20;

/// A machine or run configuration a driver cannot take
/// ([`SimConfig::validate`], [`atomic::AtomicConfig::validate`],
/// [`explore::ExploreConfig::validate`], and the runtimes' `validate`).
/// Every message names the flag.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A parameter outside its range.
    #[error("{flag} = {value} is out of range: valid {valid}")]
    OutOfRange {
        /// The flag (`--pes`, `--latency a`, …).
        flag: &'static str,
        /// The value given.
        value: u64,
        /// The valid range (`1..=1000000000`).
        valid: String,
    },
    /// `--slow COUNT:FACTOR` with more slow PEs than P, or a factor outside
    /// 1..=[`MAX_SLOW_FACTOR`].
    #[error("--slow {count}:{factor} is out of range: valid COUNT in 0..={pes} (P), FACTOR in 1..={MAX_SLOW_FACTOR}")]
    Slow {
        /// COUNT.
        count: u32,
        /// FACTOR.
        factor: u64,
        /// P.
        pes: u32,
    },
    /// P does not fit the topology.
    #[error(transparent)]
    Topology(#[from] TopologyError),
    /// The initial split does not fit the run.
    #[error(transparent)]
    InitialSplit(#[from] InitialSplitError),
    /// A limit or a combination of flags particular to one driver (the
    /// explorer's tiny instances, the atomic model's arbiters, MPI's ranks
    /// and timeout); the messages are free-form and name the flags.
    #[error("{0}")]
    Driver(String),
}

impl ConfigError {
    /// `flag = value` is outside `lo..=hi`.
    pub fn range(flag: &'static str, value: u64, lo: u64, hi: u64) -> ConfigError {
        ConfigError::OutOfRange { flag, value, valid: format!("{lo}..={hi}") }
    }

    /// Checks that `lo <= value <= hi`.
    pub fn check(flag: &'static str, value: u64, lo: u64, hi: u64) -> Result<(), ConfigError> {
        match (lo..=hi).contains(&value) {
            true => Ok(()),
            false => Err(ConfigError::range(flag, value, lo, hi)),
        }
    }
}

/// Parameters of a simulated machine and run; serialised (in the run
/// specification) under the names of `lbcheck simulate`'s flags, each
/// optional one absent at its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimConfig {
    /// Number of PEs, P ≥ 1.
    pub pes: u32,
    /// The run's seed; every random stream derives from it.
    pub seed: u64,
    /// Δt: work units between polls.
    pub dt: u64,
    /// T_rout: message latency (unless `latency` is set), ≥ 1.
    pub t_rout: u64,
    /// T_split: time a split costs the splitting PE.
    pub t_split: u64,
    /// o: PE time each message sent or received costs (001 §1.1).
    #[serde(default, skip_serializing_if = "is_default")]
    pub o: u64,
    /// g: the gap between two messages a PE sends (001 §1.1).
    #[serde(default, skip_serializing_if = "is_default")]
    pub g: u64,
    /// T_poll: PE time each poll costs (001 §3: Δt > T_poll/(εα)).
    #[serde(default, skip_serializing_if = "is_default")]
    pub t_poll: u64,
    /// Random latency drawn from `a..=b` per message (by `shape`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "latency_text")]
    pub latency: Option<(u64, u64)>,
    /// How a latency is drawn from `latency` (uniform, bimodal, heavy-tailed).
    #[serde(default, rename = "latency_shape", skip_serializing_if = "is_default")]
    pub shape: Shape,
    /// An adversarial schedule slowing detector or work messages.
    #[serde(default, skip_serializing_if = "is_default")]
    pub schedule: Schedule,
    /// Messages on one link (from, to) arrive in the order they were sent.
    #[serde(default, skip_serializing_if = "is_default")]
    pub fifo_links: bool,
    /// The network (000 §2.1, §4): a message takes its latency × hops.
    #[serde(default, skip_serializing_if = "is_default")]
    pub topology: Topology,
    /// 000 §6.1's link model (`--routing`): a message of length l over d
    /// hops takes T_rout·d·l (packet) or T_rout·(l + d) (cut-through);
    /// `None`: T_rout·d whatever its length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routing: Option<Routing>,
    /// Under `routing`, the bytes per unit of length (`--msg-len`, default
    /// [`MSG_LEN`]): a work message's l is ⌈its subproblem's wire bytes /
    /// msg_len⌉, every other message's 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub msg_len: Option<u64>,
    /// `(count, factor)`: `count` PEs, chosen at random, take `factor` time
    /// units per work unit (the others take 1).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "slow_text")]
    pub slow: Option<(u32, u64)>,
    /// The initial broadcast of 002 §3 (or 000 §1.2's randomised
    /// initialisation) instead of PE 0 holding the root.
    #[serde(default, skip_serializing_if = "is_default")]
    pub initial_split: InitialSplit,
    /// Cap on simulator steps; reaching it ends the run unfinished.
    #[serde(default = "default_max_steps", skip_serializing_if = "is_default_max_steps")]
    pub max_steps: u64,
    /// Cap on the computation's model time (001's machine): the first event
    /// past it while work is still held or in flight ends the run unfinished
    /// ([`Stop::TimeCap`]), so T_par > the cap; a computation over by then
    /// runs on to its detection. The events up to the stop are those of the
    /// uncapped run. A bound suite's test run stops once its T_par can only
    /// be above the claim's limit (`bounds::sync_polling`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_time: Option<u64>,
    /// How long after the computation is over (no work held or in flight)
    /// the detector may take to announce before the run is stopped as a
    /// `termination_detected` failure (and twice that for every PE to
    /// learn of the announcement, [`Stop::NotTerminated`]); 0 = automatic
    /// ([`SimConfig::detect_horizon`]).
    #[serde(default, rename = "detect_horizon", skip_serializing_if = "is_default")]
    pub horizon: u64,
}

/// Bytes per unit of message length under `--routing`, by default (a word).
pub const MSG_LEN: u64 = 8;
/// The largest `--msg-len`, 2^20 bytes.
pub const MAX_MSG_LEN: u64 = 1 << 20;

/// The default step cap of 001's machine, 2·10^9.
pub const DEFAULT_MAX_STEPS: u64 = 2_000_000_000;

fn default_max_steps() -> u64 {
    DEFAULT_MAX_STEPS
}

fn is_default_max_steps(steps: &u64) -> bool {
    *steps == DEFAULT_MAX_STEPS
}

crate::text_pair!(latency_text, u64, u64, "..", super::parse_latency);
crate::text_pair!(slow_text, u32, u64, ":", super::parse_slow);

/// `--latency a..b`: two integers (their range is [`SimConfig::validate`]'s).
pub fn parse_latency(s: &str) -> Result<(u64, u64), BadValue> {
    let bad = || BadValue::new("--latency", s, "a..b with integers 1 <= a <= b <= 10^9");
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    Ok((a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?))
}

/// `--slow COUNT:FACTOR`: two integers (their range is [`SimConfig::validate`]'s).
pub fn parse_slow(s: &str) -> Result<(u32, u64), BadValue> {
    let bad = || BadValue::new("--slow", s, "COUNT:FACTOR with integers 0 <= COUNT <= P, 1 <= FACTOR <= 10^6");
    let (n, f) = s.split_once(':').ok_or_else(bad)?;
    Ok((n.parse().map_err(|_| bad())?, f.parse().map_err(|_| bad())?))
}

impl SimConfig {
    /// Checks every parameter against its range (each message names the
    /// flag and the range): 1 ≤ P ≤ 2^20 ([`MAX_PES`]); 1 ≤ Δt, T_rout, a ≤ b ≤ 10^9
    /// (with zero latency idle PEs could exchange requests forever at one
    /// instant); 0 ≤ T_split ≤ 10^9; 0 ≤ COUNT ≤ P and 1 ≤ FACTOR ≤ 10^6
    /// for slow PEs; max_steps ≥ 1; horizon ≤ 10^15.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let time = |flag, v, min| ConfigError::check(flag, v, min, MAX_TIME_PARAM);
        ConfigError::check("--pes", self.pes.into(), 1, MAX_PES.into())?;
        time("--dt", self.dt, 1)?;
        time("--t-rout", self.t_rout, 1)?;
        time("--t-split", self.t_split, 0)?;
        time("--o", self.o, 0)?;
        time("--g", self.g, 0)?;
        time("--t-poll", self.t_poll, 0)?;
        if let Some((a, b)) = self.latency {
            time("--latency a", a, 1)?;
            time("--latency b", b, a.max(1))?;
        }
        if let Some((count, factor)) = self.slow {
            if count > self.pes || !(1..=MAX_SLOW_FACTOR).contains(&factor) {
                return Err(ConfigError::Slow { count, factor, pes: self.pes });
            }
        }
        self.topology.fits(self.pes)?;
        self.validate_routing()?;
        self.initial_split.validate(self.pes)?;
        if self.max_steps == 0 {
            return Err(ConfigError::OutOfRange { flag: "--max-steps", value: 0, valid: "1..=2^64-1".into() });
        }
        if self.horizon > MAX_HORIZON {
            let valid = format!("0..={MAX_HORIZON} (0: automatic)");
            return Err(ConfigError::OutOfRange { flag: "--detect-horizon", value: self.horizon, valid });
        }
        Ok(())
    }

    /// Simulator steps that idle PEs may take polling each other while one
    /// PE works an atomic item of `t_atomic` units (on a slow PE if any):
    /// 4 · P · T_atomic · slowest factor / shortest latency. Add it to a step
    /// cap meant for the balancing itself (a heavy loop's 2^20-unit
    /// iteration at latency 1 on 16 PEs takes tens of millions of steps).
    pub fn polling_steps(&self, t_atomic: u64) -> u64 {
        let min_latency = self.latency.map_or(self.t_rout, |(a, _)| a).max(1);
        let slowest = self.slow.map_or(1, |(_, f)| f);
        (4 * u64::from(self.pes)).saturating_mul(t_atomic).saturating_mul(slowest) / min_latency
    }

    /// The detection horizon in time units: `horizon`, or automatically
    /// 1000 × (Δt + T_split + the largest latency × the diameter + 1) ×
    /// (⌈log2 P⌉ + 2), far above the O(T_rout log P) delay of 001 Lemma 6.
    /// Computed with saturating arithmetic (a long line of a mesh at the
    /// largest latencies may reach 2^64 − 1: no horizon).
    pub fn detect_horizon(&self) -> u64 {
        if self.horizon > 0 {
            return self.horizon;
        }
        let latency = self.latency.map_or(self.t_rout, |(_, b)| b).saturating_mul(self.diameter());
        let log_p = u64::from(u32::BITS - (self.pes.max(1) - 1).leading_zeros());
        let per_level = self.dt.saturating_add(self.t_split).saturating_add(latency).saturating_add(1);
        per_level.saturating_mul(1000).saturating_mul(log_p + 2)
    }
}

impl SimConfig {
    /// `--msg-len` in 1..=[`MAX_MSG_LEN`], and only with `--routing`.
    fn validate_routing(&self) -> Result<(), ConfigError> {
        let Some(len) = self.msg_len else { return Ok(()) };
        ConfigError::check("--msg-len", len, 1, MAX_MSG_LEN)?;
        match self.routing {
            Some(_) => Ok(()),
            None => Err(ConfigError::Driver("--msg-len needs --routing packet or cut-through".into())),
        }
    }

    /// The length in units of a message carrying `bytes` of subproblem.
    pub fn length_of(&self, bytes: u64) -> u64 {
        bytes.div_ceil(self.msg_len.unwrap_or(MSG_LEN)).max(1)
    }

    /// The rounds of synchronous random polling on this machine (001 §1.3,
    /// S-13): T_gather = the longest latency × the diameter + 2o (a
    /// request sent at a round's start has arrived), T_round = Δt + T_poll
    /// + 2·T_gather + T_split (the reply arrives within the round).
    pub fn sync_rounds(&self) -> Rounds {
        let latency = self.latency.map_or(self.t_rout, |(_, b)| b);
        let gather = latency.saturating_mul(self.diameter()).saturating_add(2 * self.o);
        let length = self.dt + self.t_poll + self.t_split + 2 * gather;
        Rounds { length, gather }
    }

    /// The network's diameter d in hops (1 on the crossbar).
    pub fn diameter(&self) -> u64 {
        match self.topology {
            Topology::Crossbar => 1,
            t => t.distances(self.pes).diameter().max(1),
        }
    }
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            pes: 4,
            seed: 0,
            dt: 10,
            t_rout: 10,
            t_split: 5,
            o: 0,
            g: 0,
            t_poll: 0,
            latency: None,
            shape: Shape::Uniform,
            schedule: Schedule::Plain,
            fifo_links: false,
            topology: Topology::Crossbar,
            slow: None,
            routing: None,
            msg_len: None,
            initial_split: InitialSplit::Root,
            max_steps: DEFAULT_MAX_STEPS,
            max_time: None,
            horizon: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The automatic horizon is the documented formula (⌈log2 P⌉ of the PE
    /// count, not of a 64-bit word).
    #[test]
    fn detect_horizon_is_the_documented_formula() {
        let c = |pes| SimConfig { pes, ..SimConfig::default() }; // Δt 10, T_split 5, T_rout 10
        assert_eq!(c(1).detect_horizon(), 1000 * 26 * 2);
        assert_eq!(c(16).detect_horizon(), 1000 * 26 * (4 + 2));
        assert_eq!(c(17).detect_horizon(), 1000 * 26 * (5 + 2));
        let latency = SimConfig { latency: Some((1, 40)), horizon: 0, ..c(2) };
        assert_eq!(latency.detect_horizon(), 1000 * 56 * 3);
        assert_eq!(SimConfig { horizon: 7, ..c(2) }.detect_horizon(), 7);
    }

    #[test]
    fn validate_names_the_flag_and_its_range() {
        let bad = SimConfig { t_split: MAX_TIME_PARAM + 1, ..SimConfig::default() };
        let err = bad.validate().unwrap_err();
        assert_eq!(err, ConfigError::range("--t-split", MAX_TIME_PARAM + 1, 0, MAX_TIME_PARAM));
        assert_eq!(err.to_string(), "--t-split = 1000000001 is out of range: valid 0..=1000000000");
        let slow = SimConfig { slow: Some((5, 2)), ..SimConfig::default() };
        assert_eq!(slow.validate(), Err(ConfigError::Slow { count: 5, factor: 2, pes: 4 }));
        assert!(slow.validate().unwrap_err().to_string().contains("COUNT in 0..=4"));
        let cube = SimConfig { topology: Topology::Hypercube, pes: 6, ..SimConfig::default() };
        let not_pow2 = TopologyError::NotPowerOfTwo { topology: Topology::Hypercube, pes: 6 };
        assert_eq!(cube.validate(), Err(ConfigError::Topology(not_pow2)));
        let pieces = SimConfig { initial_split: InitialSplit::Random(64), pes: 1 << 20, ..SimConfig::default() };
        let too_many = InitialSplitError::TooManyPieces { k: 64, pes: 1 << 20 };
        assert_eq!(pieces.validate(), Err(ConfigError::InitialSplit(too_many)));
        assert!(SimConfig::default().validate().is_ok());
    }
}
