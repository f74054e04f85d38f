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
//! ## Map of the code
//!
//! - [`problem`]: the tree-shaped computation model (002 §2, 001 §1.2):
//!   [`problem::Subproblem`], the order-independent [`problem::Fingerprint`],
//!   the workloads (synthetic with adversarial split policies, UTS trees as
//!   DFS stacks with the 002 §4.1 strategies, interval loops of 002 §4.2) and
//!   the sequential reference executor.
//! - [`bounds`]: the papers' bounds as functions (000 Lemma 1, eq. (1);
//!   001 Lemma 1.3, Lemma 3, Thm 1; 002 Thm 1) and the statistical tests
//!   of a balancer against them (`lbcheck bounds`).
//! - [`report`]: tables and JSON for the CLI.
//! - The `lbcheck` binary (`src/main.rs`, `src/cli/`): `lbcheck tree WORKLOAD`.
//!
//! Protocols (`protocol/`), drivers (`sim/`, `runtime/`), checkers (`check/`)
//! and bounds (`bounds/`) follow ../shared/ARCHITECTURE.md as they land.
//!
//! ## Debugging a failure
//!
//! - `PROPTEST_CASES=N` raises the number of property-test cases; failing
//!   cases are saved under `proptest-regressions/` and replayed first.
//! - `INSTA_UPDATE=always` rewrites snapshots after an intended output change
//!   (review them with `cargo insta review`).

#![deny(missing_docs)]

pub mod bounds;
pub mod check;
pub mod event;
pub mod mutants;
pub mod problem;
pub mod protocol;
pub mod report;
pub mod sim;
