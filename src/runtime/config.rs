//! What the threaded driver's two compilations share (`runtime::threads`
//! with OS threads, `crate::loom`'s copy under loom): its parameters, its
//! result and its mailbox's rules, defined once so that both copies take
//! and return the same types.

use std::time::Duration;

use crate::event::Event;
use crate::mutants::Mutant;
use crate::protocol::initial::InitialSplit;
use crate::sim::ConfigError;
use serde::{Deserialize, Serialize};

/// Parameters of a threaded run; serialised (in the run specification)
/// under the names of `lbcheck run`'s flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThreadConfig {
    /// Number of PEs, one thread each (P ≥ 1; `--threads`).
    #[serde(rename = "threads")]
    pub pes: u32,
    /// Seed of the PEs' random streams (victim choice).
    pub seed: u64,
    /// Δt: work units (nodes) between polls, ≥ 1.
    pub dt: u64,
    /// Record the event stream (off for benchmarks; the harness sets it).
    #[serde(skip)]
    pub record: bool,
    /// A deliberate bug of the driver, if any (other mutants are ignored
    /// here: they act in the protocols; the harness sets it).
    #[serde(skip)]
    pub mutant: Option<Mutant>,
    /// Run the driver's loom copy ([`crate::loom`]; only inside
    /// [`crate::loom::model`], whose threads it spawns): the loom suite and
    /// the campaign's `loom` layer set it.
    #[serde(skip)]
    pub loom: bool,
    /// Start with the root split locally into P parts (002 §3), or into
    /// K·P random pieces (000 §1.2), instead of giving it all to PE 0.
    #[serde(default, skip_serializing_if = "crate::base::text::is_default")]
    pub initial_split: InitialSplit,
    /// Stop every PE this long after the start if termination has not
    /// spread by then (the run is then incomplete: no `end` event). Not
    /// under loom, which has no clocks. `--timeout`, in whole seconds.
    #[serde(
        default,
        rename = "timeout",
        skip_serializing_if = "Option::is_none",
        with = "crate::base::text::seconds::optional"
    )]
    pub deadline: Option<Duration>,
}

/// The most threads a run may start.
pub const MAX_THREADS: u32 = 1024;
/// The largest Δt, 10^9 nodes.
pub const MAX_DT: u64 = 1_000_000_000;
/// The longest `--timeout`, a day (in seconds): the deadline is an
/// `Instant` after the start, which a larger one would overflow.
pub const MAX_TIMEOUT_SECS: u64 = 86_400;

impl ThreadConfig {
    /// Checks the parameters: 1 ≤ P ≤ [`MAX_THREADS`], 1 ≤ Δt ≤ [`MAX_DT`],
    /// the deadline at most [`MAX_TIMEOUT_SECS`].
    pub fn validate(&self) -> Result<(), ConfigError> {
        let secs = self.deadline.map_or(0, |d| d.as_secs());
        ConfigError::check("--timeout", secs, 0, MAX_TIMEOUT_SECS)?;
        if !(1..=MAX_THREADS).contains(&self.pes) {
            return Err(ConfigError::range("--threads", self.pes.into(), 1, MAX_THREADS.into()));
        }
        if !(1..=MAX_DT).contains(&self.dt) {
            return Err(ConfigError::range("--dt", self.dt, 1, MAX_DT));
        }
        Ok(self.initial_split.validate(self.pes)?)
    }
}

impl Default for ThreadConfig {
    fn default() -> Self {
        ThreadConfig {
            pes: 2,
            seed: 0,
            dt: 64,
            record: false,
            mutant: None,
            loom: false,
            initial_split: InitialSplit::Root,
            deadline: None,
        }
    }
}

/// What a threaded run did.
#[derive(Debug)]
pub struct ThreadRun {
    /// Wall-clock time from before the threads start until all joined.
    pub elapsed: Duration,
    /// Work units done by each PE.
    pub units: Vec<u64>,
    /// The merged event stream (ending with `end` unless timed out), when recorded.
    pub events: Option<Vec<Event>>,
    /// The deadline passed before every PE learnt of termination.
    pub timed_out: bool,
    /// The computation was over for [`crate::runtime::threads::STALL_GRACE`]
    /// and some PE had still not learnt of termination: the driver stopped
    /// every PE (a detector that never announced, or whose news did not spread).
    pub stalled: bool,
}

impl ThreadRun {
    /// Work units done by all PEs.
    pub fn total_units(&self) -> u64 {
        self.units.iter().sum()
    }
}

/// Where the mailbox's synchronisation may deviate from its protocol
/// (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// A sender reads `sleeping` under the queue's lock (false: before
    /// taking it, so it may miss a receiver that just went to sleep).
    pub sender_reads_flag_under_lock: bool,
    /// The receiver holds the lock from finding the queue empty until it
    /// waits (false: drops and retakes it in between, so a push may slip
    /// into the gap and its notification find nobody waiting).
    pub receiver_waits_under_lock: bool,
}

impl Rules {
    /// The protocol of the module docs.
    pub const PAPER: Rules = Rules { sender_reads_flag_under_lock: true, receiver_waits_under_lock: true };
}
