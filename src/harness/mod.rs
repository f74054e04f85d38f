//! The harness: one checked run for every driver (../shared/ARCHITECTURE.md
//! "The harness and the registry").
//!
//! A [`RunSpec`] names everything a run is: workload, split strategy,
//! protocols (balancer, detector, parameters, mutant) and driver with its
//! parameters. [`RunSpec::run`] computes the sequential reference once,
//! writes the trace header (enough to replay the run, [`RunSpec::header`]),
//! feeds every event the driver emits to the checker and the trace, and
//! returns the verdicts and metrics ([`RunResult`]); [`RunSpec::replay`] is
//! the command that reproduces it, and [`RunSpec::from_header`] recovers the
//! spec from a trace header. Drivers ([`crate::sim`], [`crate::runtime`])
//! only turn protocol effects into events.
//!
//! [`DriverKind`] is this layer's registry; `report::listing::listing` gathers
//! every layer's registry for `lbcheck list`.
//!
//! ```
//! use lbcheck::harness::{Driver, Protocols, RunSpec};
//! use lbcheck::protocol::{BalancerKind, DetectorKind};
//! use lbcheck::sim::SimConfig;
//!
//! let spec = RunSpec {
//!     workload: "uts:default".parse().unwrap(),
//!     split: Default::default(),
//!     protocols: Protocols::new(BalancerKind::RandomPolling, DetectorKind::FourCounter),
//!     driver: Driver::Sim(SimConfig { pes: 8, seed: 1, ..SimConfig::default() }),
//! };
//! spec.validate().unwrap();
//! let result = spec.run(None).unwrap();
//! assert!(result.check.all_pass(), "{:?}\nreplay: {}", result.check.failures(), spec.replay());
//! assert_eq!(result.reference.t_seq, 1732);
//! ```

mod compose;
pub mod driver;
mod explore;
pub mod replay;
mod run;
mod session;
mod spec;

pub use compose::{Compose, Drive, Protocols, UserBalancer};
pub use driver::{Driver, DriverKind};
pub use explore::ExploreResult;
pub use run::{reference, reference_of_header, AtomicFacts, RunResult};
pub use spec::RunSpec;
