//! The drivers registry and a run's driver configuration.

use serde::{Deserialize, Serialize};

use crate::base::registry::Info;
use crate::protocol::initial::InitialSplit;
use crate::registry;
use crate::runtime::mpi::MpiConfig;
use crate::runtime::threads::ThreadConfig;
use crate::sim::atomic::AtomicConfig;
use crate::sim::SimConfig;

registry! {
    /// The drivers: what turns protocol effects into events.
    pub enum DriverKind: "driver" {
        /// The deterministic discrete-event simulator ([`crate::sim`]).
        Sim => Info::ships(
            "sim",
            "001 §1.1",
            "deterministic discrete-event simulator of a machine model (`lbcheck simulate`)",
        ),
        /// OS threads, one per PE ([`crate::runtime::threads`]).
        Threads => Info::ships(
            "threads",
            "ARCHITECTURE.md",
            "the same PEs on OS threads, one mailbox each (`lbcheck run`)",
        ),
        /// The threaded driver under loom (`tests/loom_threads.rs`).
        Loom => Info::ships(
            "loom",
            "ARCHITECTURE.md",
            "the threaded driver under loom's exhaustive interleavings (`scripts/loom.sh`)",
        ),
        /// The exhaustive explorer of 001's machine ([`crate::sim::explore`]).
        Explorer => Info::ships(
            "explorer",
            "001 §1.1",
            "every message latency and every order of simultaneous events of a tiny instance (`lbcheck explore`)",
        ),
        /// One PE per MPI rank ([`crate::runtime::mpi`], feature `mpi`).
        Mpi => Info::ships(
            "mpi",
            "003 §14.7",
            "the references over MPI, one PE per rank, one merged trace (`mpirun lbcheck mpi`, feature `mpi`)",
        ),
    }
    planned: []
}

/// A run's driver and its parameters; serialised as `{"name": "sim" |
/// "atomic" | "threads" | "mpi", <its parameters>}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "kebab-case")]
pub enum Driver {
    /// The simulator of 001's machine.
    Sim(SimConfig),
    /// The simulator of 004's atomic machine (or Karp and Zhang's complete network).
    Atomic(AtomicConfig),
    /// OS threads (loom's in [`crate::loom`]'s copy when the config's
    /// `loom` is set); the harness sets
    /// the config's `record` and `mutant` from the run.
    Threads(ThreadConfig),
    /// MPI ranks, one PE each (`lbcheck mpi` under mpirun, feature `mpi`).
    Mpi(MpiConfig),
}

impl Driver {
    /// The network of the machine (the crossbar but for 001's machine on a topology).
    pub fn topology(&self) -> crate::base::Topology {
        match self {
            Driver::Sim(c) => c.topology,
            Driver::Atomic(_) | Driver::Threads(_) | Driver::Mpi(_) => crate::base::Topology::Crossbar,
        }
    }

    /// The registry kind of this driver (threads in loom's copy are loom).
    pub fn kind(&self) -> DriverKind {
        match self {
            Driver::Sim(_) | Driver::Atomic(_) => DriverKind::Sim,
            Driver::Threads(c) if c.loom => DriverKind::Loom,
            Driver::Threads(_) => DriverKind::Threads,
            Driver::Mpi(_) => DriverKind::Mpi,
        }
    }

    /// Number of PEs.
    pub fn pes(&self) -> u32 {
        match self {
            Driver::Sim(c) => c.pes,
            Driver::Atomic(c) => c.pes,
            Driver::Threads(c) => c.pes,
            Driver::Mpi(c) => c.pes,
        }
    }

    /// The seed of every random stream.
    pub fn seed(&self) -> u64 {
        match self {
            Driver::Sim(c) => c.seed,
            Driver::Atomic(c) => c.seed,
            Driver::Threads(c) => c.seed,
            Driver::Mpi(c) => c.seed,
        }
    }

    /// Sets the seed of every random stream.
    pub fn set_seed(&mut self, seed: u64) {
        match self {
            Driver::Sim(c) => c.seed = seed,
            Driver::Atomic(c) => c.seed = seed,
            Driver::Threads(c) => c.seed = seed,
            Driver::Mpi(c) => c.seed = seed,
        }
    }

    /// True for the drivers of real processes or threads, which have no
    /// model time (threads, MPI).
    pub fn real(&self) -> bool {
        matches!(self, Driver::Threads(_) | Driver::Mpi(_))
    }

    /// True if the run starts with a local split of the root (002 §3's,
    /// or 000 §1.2's randomised one).
    pub fn initial_split(&self) -> bool {
        self.initial().is_split()
    }

    /// How the run starts: PE 0 with the root, or a local split.
    pub fn initial(&self) -> InitialSplit {
        match self {
            Driver::Sim(c) => c.initial_split,
            Driver::Atomic(_) => InitialSplit::Root,
            Driver::Threads(c) => c.initial_split,
            Driver::Mpi(c) => c.initial_split,
        }
    }

    /// Δt: work units between polls (one step's expansion on the atomic machine).
    pub fn dt(&self) -> u64 {
        match self {
            Driver::Sim(c) => c.dt,
            Driver::Atomic(_) => 1,
            Driver::Threads(c) => c.dt,
            Driver::Mpi(c) => c.dt,
        }
    }

    /// Checks the driver's parameters (each message names the flag and its range).
    pub fn validate(&self) -> Result<(), crate::sim::ConfigError> {
        match self {
            Driver::Sim(c) => c.validate(),
            Driver::Atomic(c) => c.validate(),
            Driver::Threads(c) => c.validate(),
            Driver::Mpi(c) => c.validate(),
        }
    }
}
