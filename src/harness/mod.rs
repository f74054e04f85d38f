//! The harness: one checked run for every driver (../shared/ARCHITECTURE.md
//! "The harness and the registry").
//!
//! A [`RunSpec`] names everything a run is, as one serde type: the
//! balancer with its own parameters, the detector, the workload and split
//! strategy, the driver with its machine's parameters, the bounds and the
//! mutant. [`RunSpec::run`] computes the sequential reference once, writes
//! the trace header (the spec itself under `spec`, [`RunSpec::header`]),
//! feeds every event the driver emits to the checker and the trace, and
//! returns the verdicts and metrics ([`RunResult`]); [`RunSpec::replay`] is
//! the command that reproduces it (derived from the spec's JSON), and
//! [`RunSpec::from_header`] reads the spec back. A mutant's declaration says
//! what it needs of a run ([`RunSpec::with_mutant`] provides it). Drivers
//! ([`crate::sim`], [`crate::runtime`]) only turn protocol effects into events.
//!
//! [`DriverKind`] is this layer's registry; `report::listing::listing` gathers
//! every layer's registry for `lbcheck list`.
//!
//! ```
//! use lbcheck::harness::{Driver, RunSpec};
//! use lbcheck::protocol::{BalancerKind, DetectorKind};
//! use lbcheck::sim::SimConfig;
//!
//! let driver = Driver::Sim(SimConfig { pes: 8, seed: 1, ..SimConfig::default() });
//! let spec = RunSpec::new("uts:default".parse().unwrap(), BalancerKind::RandomPolling, DetectorKind::FourCounter, driver);
//! spec.validate().unwrap();
//! let json = serde_json::to_string(&spec).unwrap(); // what `lbcheck simulate --print-spec` prints
//! assert_eq!(serde_json::from_str::<RunSpec>(&json).unwrap(), spec);
//! let result = spec.run(None).unwrap();
//! assert!(result.check.all_pass(), "{:?}\nreplay: {}", result.check.failures(), spec.replay());
//! assert_eq!(result.reference.t_seq, 1732);
//! ```

mod compose;
pub mod driver;
mod explore;
mod header;
mod needs;
mod reference;
pub mod replay;
mod run;
mod session;
mod spec;
mod trace;

pub use crate::protocol::erased::{ErasedBalancer, ErasedDetector};
pub use compose::{Compose, Drive, DynMake, UserBalancer, UserDetector};
pub use driver::{Driver, DriverKind};
pub use explore::ExploreResult;
pub use header::HeaderError;
pub use needs::SILENT_WINDOW;
pub use reference::{reference, reference_of_header, reference_within, HeaderReference, UNITS_PER_LINE};
pub use run::{AtomicFacts, RunResult};
pub use spec::{RunSpec, SpecError};
pub use trace::{check_trace, TraceCheck, TraceCheckError};
