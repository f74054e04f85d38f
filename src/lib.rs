//! # lbcheck
//!
//! A verification and property-test harness for dynamic load balancers of
//! tree-shaped computations and for distributed termination detection. It
//! ships minimal reference implementations of the balancers and detectors of
//! the papers in `../shared/papers` and the checkers that gate them and
//! anyone else's.
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
//! use lbcheck::problem::dfs::Strategy;
//! use lbcheck::protocol::random_polling;
//! use lbcheck::sim::scenario::{DetectorKind, Scenario};
//! use lbcheck::sim::SimConfig;
//!
//! let s = Scenario {
//!     workload: "uts:default".parse().unwrap(),
//!     split: Strategy::default(),
//!     detector: DetectorKind::FourCounter,
//!     sim: SimConfig { pes: 8, seed: 1, ..SimConfig::default() },
//!     polling: random_polling::Config::default(),
//! };
//! let report = s.run(None).unwrap();
//! assert!(report.check.all_pass(), "{:?}\nreplay: {}", report.check.failures(), s.replay());
//! assert_eq!(report.check.metrics.t_seq, 1732);
//! ```
//!
//! ## Map of the code
//!
//! - [`problem`]: the tree-shaped computation model (002 §2, 001 §1.2):
//!   [`problem::Subproblem`], the order-independent [`problem::Fingerprint`],
//!   the workloads (synthetic with adversarial split policies, UTS trees as
//!   DFS stacks with the 002 §4.1 strategies, interval loops of 002 §4.2) and
//!   the sequential reference executor.
//! - [`protocol`]: sans-IO per-PE state machines: the random-polling
//!   balancer, the energy (exact [`protocol::dyadic::Dyadic`]) and
//!   four-counter termination detectors, composed by [`protocol::Pe`].
//! - [`sim`]: the deterministic discrete-event simulator of 001's machine and
//!   [`sim::scenario::Scenario`], a complete checked run.
//! - [`event`]: the one event stream every driver emits; its JSON Lines form
//!   is the trace format other implementations write.
//! - [`check`]: the invariants over any event stream (`work_conserved`,
//!   `energy_conserved`, `no_early_termination`, `termination_detected`,
//!   `requests_answered`, `lower_bound`, `trace_well_formed`) and metrics.
//! - [`mutants`]: the catalogue of deliberately broken variants that show
//!   each checker can fail.
//! - [`bounds`]: the papers' bounds as functions (000 Lemma 1, eq. (1);
//!   001 Lemma 1.3, Lemma 3, Thm 1; 002 Thm 1) and the statistical tests
//!   of a balancer against them (`lbcheck bounds`).
//! - [`report`]: tables and JSON for the CLI.
//! - The `lbcheck` binary (`src/main.rs`, `src/cli/`): `tree`, `simulate`,
//!   `check-trace`, `mutants`.
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
pub mod bounds;
pub mod check;
pub mod event;
pub mod harness;
pub mod mutants;
pub mod problem;
pub mod protocol;
pub mod report;
pub mod runtime;
pub mod sim;
mod sync;
