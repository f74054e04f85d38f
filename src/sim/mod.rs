//! Drivers that simulate machines deterministically.
//!
//! [`logp`] is the machine of 001 §1: P PEs connected by a network with
//! message latency T_rout (or a random latency in [a, b], which may reorder
//! messages between a pair), T_split charged to the splitting PE, polling
//! every Δt work units while busy, and optional slow PEs. It is a bounded
//! discrete-event loop over integer model time: events are ordered by
//! (time, sequence number), all randomness comes from [`rng`] streams, and
//! the same configuration and seed give the same event stream, byte for byte.

pub mod agenda;
pub mod logp;
pub mod rng;
pub mod scenario;

pub use logp::{run, Outcome, Stop};

/// Parameters of a simulated machine and run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// Random latency drawn uniformly from `a..=b` per message.
    pub latency: Option<(u64, u64)>,
    /// `(count, factor)`: `count` PEs, chosen at random, take `factor` time
    /// units per work unit (the others take 1).
    pub slow: Option<(u32, u64)>,
    /// The initial broadcast of 002 §3 instead of PE 0 holding the root.
    pub initial_split: bool,
    /// Cap on simulator steps; reaching it ends the run unfinished.
    pub max_steps: u64,
    /// How long after the computation is over (no work held or in flight)
    /// the detector may take to announce before the run is stopped as a
    /// `termination_detected` failure; 0 = automatic ([`SimConfig::detect_horizon`]).
    pub horizon: u64,
}

impl SimConfig {
    /// Checks the parameters: P ≥ 1, Δt ≥ 1, and every latency ≥ 1 (with
    /// zero latency idle PEs could exchange requests forever at one instant).
    pub fn validate(&self) -> Result<(), String> {
        let min_latency = self.latency.map_or(self.t_rout, |(a, _)| a);
        match () {
            _ if self.pes == 0 => Err("need at least one PE".into()),
            _ if self.dt == 0 => Err("Δt (--dt) must be at least 1".into()),
            _ if min_latency == 0 => Err("message latency (--t-rout, --latency a..b) must be at least 1".into()),
            _ if self.latency.is_some_and(|(a, b)| a > b) => Err("--latency a..b needs a <= b".into()),
            _ if self.slow.is_some_and(|(_, f)| f == 0) => Err("--slow COUNT:FACTOR needs FACTOR >= 1".into()),
            _ => Ok(()),
        }
    }

    /// The detection horizon in time units: `horizon`, or automatically
    /// 1000 × (Δt + T_split + the largest latency + 1) × (⌈log2 P⌉ + 2),
    /// far above the O(T_rout log P) delay of 001 Lemma 6.
    pub fn detect_horizon(&self) -> u64 {
        if self.horizon > 0 {
            return self.horizon;
        }
        let latency = self.latency.map_or(self.t_rout, |(_, b)| b);
        let log_p = 64 - (self.pes.max(1) - 1).leading_zeros() as u64;
        1000 * (self.dt + self.t_split + latency + 1) * (log_p + 2)
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
            latency: None,
            slow: None,
            initial_split: false,
            max_steps: 2_000_000_000,
            horizon: 0,
        }
    }
}
