//! 004's atomic message-passing model (Liu, Aiello, Bhatt, 004 §2).
//!
//! Synchronous steps t = 1, 2, …; per node a message queue, a send buffer
//! and a receive buffer of one message each. A step is a send phase, a
//! transmission phase ([`network`]: per destination an [`Arbiter`] picks
//! one ready message) and a computation phase (each node receives at most
//! one message, computes, enqueues what it generated). A processor is thus
//! charged for every message it receives, one per step, which is where a
//! balancer's hot spots show. [`machine`] runs the sans-IO protocols of
//! [`crate::protocol`] on it: balancer messages (work, requests, rejects)
//! take the data network above; a detector's messages take a separate
//! control network (the CM-5's, 004 §2) that delivers every message at the
//! next step, so detection does not perturb the model's T. [`scatter`] is
//! 004 §3's message scattering on the same network, [`offline`] its
//! off-line schedule, [`adversary`] the exhaustive worst-case arbiter.

pub mod adversary;
pub mod machine;
pub mod network;
pub mod offline;
pub mod scatter;

use serde::{Deserialize, Serialize};

use super::ConfigError;
use crate::base::registry::Info;
use crate::registry;

pub use machine::{run, AtomicOutcome};

registry! {
    /// Who wins a destination that several ready messages target (004 §2).
    /// 004's theorems hold under the worst-case arbiter; the heuristics
    /// approximate it, `adversary` is it, exhaustively, on tiny instances.
    pub enum Arbiter: "arbiter" {
        /// Earliest ready first (004 §2), ties by the run's stream.
        Fifo => Info::ships("fifo", "004 §2", "the message ready earliest wins; ties by the seeded stream"),
        /// Latest ready first: a worst-case heuristic.
        Lifo => Info::ships("lifo", "004 §2", "worst-case heuristic: the message ready latest wins"),
        /// Lowest source first: a worst-case heuristic.
        FixedPriority => Info::ships("fixed-priority", "004 §2", "worst-case heuristic: the lowest source node wins"),
        /// The least urgent message first: a worst-case heuristic.
        AntiCritical => Info::ships(
            "anti-critical",
            "004 §2, §6",
            "worst-case heuristic: the least urgent message wins (highest cost, else deepest generation)",
        ),
        /// A uniformly random contender.
        Random => Info::ships("random", "004 §2", "a uniformly random contender wins"),
        /// Every choice, exhaustively.
        Adversary => Info::ships(
            "adversary",
            "004 §2",
            "the worst case: every arbitration choice explored (tiny instances, P ≤ 4); reports the worst T",
        ),
    }
}

/// The largest P the exhaustive adversary accepts.
pub const ADVERSARY_MAX_PES: u32 = 4;

/// Parameters of a run on the atomic machine; serialised (in the run
/// specification) under the names of `lbcheck simulate`'s flags, the
/// optional ones absent at their defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AtomicConfig {
    /// The atomic model, or the complete network of Karp and Zhang
    /// (`--machine atomic|complete`).
    #[serde(rename = "machine", with = "machine_name")]
    pub complete: bool,
    /// Number of nodes, P ≥ 1.
    pub pes: u32,
    /// The run's seed.
    pub seed: u64,
    /// The arbiter (ignored by the complete network, which has no contention).
    #[serde(default)]
    pub arbiter: Arbiter,
    /// Cap on steps; reaching it ends the run unfinished.
    #[serde(default = "default_max_steps", skip_serializing_if = "is_default_max_steps")]
    pub max_steps: u64,
    /// The exhaustive adversary's cap on the runs it explores.
    #[serde(default = "default_max_runs", skip_serializing_if = "is_default_max_runs")]
    pub max_runs: u64,
}

/// The atomic machine's default step cap, 10^8.
pub const DEFAULT_MAX_STEPS: u64 = 100_000_000;
/// The exhaustive adversary's default cap on choice sequences, 10^6.
pub const DEFAULT_MAX_RUNS: u64 = 1_000_000;

fn default_max_steps() -> u64 {
    DEFAULT_MAX_STEPS
}

fn is_default_max_steps(steps: &u64) -> bool {
    *steps == DEFAULT_MAX_STEPS
}

fn default_max_runs() -> u64 {
    DEFAULT_MAX_RUNS
}

fn is_default_max_runs(runs: &u64) -> bool {
    *runs == DEFAULT_MAX_RUNS
}

impl Default for Arbiter {
    fn default() -> Arbiter {
        Arbiter::Fifo
    }
}

/// `complete` as the machine's name, `atomic` or `complete`.
mod machine_name {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(complete: &bool, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(if *complete { "complete" } else { "atomic" })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        match String::deserialize(d)?.as_str() {
            "atomic" => Ok(false),
            "complete" => Ok(true),
            other => {
                Err(serde::de::Error::custom(format!("machine `{other}`: expected atomic or complete (004 §1-§2)")))
            }
        }
    }
}

impl Default for AtomicConfig {
    fn default() -> Self {
        AtomicConfig {
            pes: 4,
            seed: 0,
            complete: false,
            arbiter: Arbiter::Fifo,
            max_steps: DEFAULT_MAX_STEPS,
            max_runs: DEFAULT_MAX_RUNS,
        }
    }
}

impl AtomicConfig {
    /// The detection horizon in steps, 4·P + 1000·(⌈log2 P⌉ + 2): a run in
    /// which no node has held work and no work message has been in flight
    /// for longer stops, [`crate::sim::Stop::NotAnnounced`] (or
    /// [`crate::sim::Stop::NotTerminated`] if termination was announced),
    /// instead of running a detector's messages to the step cap (the
    /// references detect within a few rounds of O(P) steps: Safra's token
    /// ring is the longest). The asynchronous machine's counterpart is
    /// [`crate::sim::SimConfig::detect_horizon`]. A detector's timer longer
    /// than this on an idle machine is cut short.
    pub fn detect_horizon(&self) -> u64 {
        let log_p = u64::from(u32::BITS - (self.pes.max(1) - 1).leading_zeros());
        4 * u64::from(self.pes) + 1000 * (log_p + 2)
    }

    /// Checks every parameter (each message names the flag and its range).
    pub fn validate(&self) -> Result<(), ConfigError> {
        ConfigError::check("--pes", self.pes.into(), 1, super::MAX_PES.into())?;
        if self.arbiter == Arbiter::Adversary && self.pes > ADVERSARY_MAX_PES {
            return Err(ConfigError::Driver(format!(
                "--arbiter adversary explores every choice: --pes = {} is out of range, valid 1..={ADVERSARY_MAX_PES}",
                self.pes
            )));
        }
        if self.complete && self.arbiter != Arbiter::Fifo {
            let why = "--machine complete has no contention: --arbiter applies only to --machine atomic";
            return Err(ConfigError::Driver(why.into()));
        }
        if self.max_steps == 0 || self.max_runs == 0 {
            return Err(ConfigError::Driver("--max-steps and --max-runs must be >= 1".into()));
        }
        Ok(())
    }
}
