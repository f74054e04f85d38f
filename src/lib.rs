//! # lbcheck
//!
//! A verification and property-test harness for dynamic load balancers of
//! tree-shaped computations and for distributed termination detection. It
//! aims at a minimal reference implementation of every balancer and
//! detector of the papers in `../shared/papers`, and ships the checkers
//! that gate them and anyone else's. What ships today, and what is planned
//! with its issue, is the registry: `lbcheck list` prints it, and the
//! README's status table is its output. Today: asynchronous random polling
//! (001 Fig. 1) with energy (003 §14.7.4) and four-counter (001 §2)
//! termination detection, in a simulator of 001's machine and on threads.
//!
//! ```
//! use lbcheck::problem::{dfs::Strategy, sequential, Workload};
//!
//! let w: Workload = "uts:default".parse().unwrap();
//! let run = sequential::run(w.root(Strategy::default()));
//! assert_eq!((run.log.fp.units, run.log.max_depth, run.log.leaves), (1732, 6, 1050));
//! ```
//!
//! A checked simulation of asynchronous random polling (001 Fig. 1) with
//! four-counter termination detection (001 §2):
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
//! let result = spec.run(None).unwrap();
//! assert!(result.check.all_pass(), "{:?}\nreplay: {}", result.check.failures(), spec.replay());
//! assert_eq!(result.check.metrics.t_seq, 1732);
//! ```
//!
//! ## Map of the code
//!
//! Layers from the bottom up; each imports only layers below it.
//!
//! - [`base`]: exact energy ([`base::Fraction`]), the one RNG stream
//!   derivation, fixed hashes, and the registry's vocabulary
//!   ([`base::Registered`]).
//! - [`problem`]: the tree-shaped computation model (002 §2, 001 §1.2):
//!   [`problem::Subproblem`], the order-independent [`problem::Fingerprint`],
//!   the workloads (synthetic with adversarial split policies, UTS trees as
//!   DFS stacks with the 002 §4.1 strategies, interval loops of 002 §4.2) and
//!   the sequential reference executor.
//! - [`event`]: the one event stream every driver emits; its JSON Lines form
//!   is the trace format other implementations write.
//! - [`protocol`]: sans-IO per-PE state machines: the random polling
//!   balancer, the energy and four-counter termination detectors, composed
//!   by [`protocol::Pe`]; [`protocol::BalancerKind`] and
//!   [`protocol::DetectorKind`] are their registry.
//! - [`mutants`]: the one catalogue of deliberately broken variants that
//!   show each checker can fail, with where each acts and what catches it.
//! - [`check`]: the invariants over any event stream (`work_conserved`,
//!   `energy_conserved`, `no_early_termination`, `termination_detected`,
//!   `requests_answered`, `lower_bound`, `trace_well_formed`) and metrics.
//! - Drivers: [`sim`] (the deterministic discrete-event simulator of 001's
//!   machine) and [`runtime`] (OS threads; loom under `--cfg loom`).
//! - [`harness`]: one checked run for every driver ([`harness::RunSpec`]):
//!   the reference, the trace header that replays, the checker, the replay
//!   command; and the registry listing.
//! - [`bounds`]: the papers' bounds as functions (000 Lemma 1, eq. (1);
//!   001 Lemma 1.3, Lemma 3, Thm 1; 002 Thm 1), the statistical tests of a
//!   balancer against them (`lbcheck bounds`) and the two-sample comparison
//!   of a user's runs with the reference's (`lbcheck compare`).
//! - [`campaign`]: `lbcheck check`, every layer over every reference (or a
//!   user's balancer, [`campaign::user`]) with a report.
//! - [`report`]: tables, JSON, verdicts, JUnit XML and the HTML report.
//! - The `lbcheck` binary (`src/main.rs`, `src/cli/`): `check`, `tree`,
//!   `simulate`, `run`, `check-trace`, `compare`, `bounds`, `mutants`, `list`.
//!
//! ## Debugging a failure
//!
//! - `PROPTEST_CASES=N` raises the number of property-test cases; failing
//!   cases are saved under `proptest-regressions/` and replayed first.
//! - `INSTA_UPDATE=always` rewrites snapshots after an intended output change
//!   (review them with `cargo insta review`).
//! - `LBCHECK_SEED=N` is the default `--seed` of `lbcheck simulate`.
//! - Every failed check prints `replay with: lbcheck simulate ...`, the one
//!   command that reproduces the run event for event; add `--trace FILE` to
//!   get its event stream and `lbcheck check-trace FILE` to recheck it.
//! - Fuzz crashes are in `fuzz/artifacts/<target>/`; replay one with
//!   `RUSTC_BOOTSTRAP=1 cargo fuzz run <target> <file>`.

#![deny(missing_docs)]

pub mod base;
pub mod bitonic;
pub mod bounds;
pub mod campaign;
pub mod check;
pub mod event;
pub mod harness;
pub mod mutants;
pub mod problem;
pub mod protocol;
pub mod report;
pub mod reproduce;
pub mod runtime;
pub mod sim;
mod sync;
