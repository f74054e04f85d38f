//! # lbcheck
//!
//! A verification and property-test harness for dynamic load balancers of
//! tree-shaped computations and for distributed termination detection: a
//! minimal, exact reference implementation of every balancer and detector
//! of the five papers in `../shared/papers` (000–004), and the checkers
//! that gate them and anyone else's.
//!
//! **The user's guide is `docs/guide.md` in the repository** (rustdoc
//! cannot link outside the crate): the main job, your own protocol under
//! lbcheck in three paths (each ending in a CI job), the drivers,
//! debugging a failure. Beside it in `docs/`: `cli.md` (the CLI
//! reference), `trace-format.md` (the trace format, the contract with
//! implementations in any language), `claims.md` (the papers' claims and
//! the figures measured against them), `architecture.md` (for
//! contributors) and `mutants.md` (the mutant catalogue). `README.md` has
//! the two commands to start with: `cargo run --release -- check` and
//! `bash scripts/test.sh`.
//!
//! ## The layers of checking
//!
//! `lbcheck check` ([`campaign`]) runs every layer over every reference and
//! writes one report (HTML with SVG plots, JSON, JUnit; [`report`]):
//!
//! - **simulate** ([`campaign::swarm`]): a swarm of simulated runs per
//!   balancer × detector, each drawing its machine from its seed; every
//!   invariant of [`check`] on every run;
//! - **threads**: checked runs on OS threads ([`runtime`]);
//! - **bounds** ([`bounds`]): the papers' bounds as statistical tests at a
//!   stated α, one case per claim;
//! - **explore** ([`sim::explore`]): every latency and event order of a tiny
//!   instance, exhaustively;
//! - **mutants** ([`mutants`], [`campaign::adequacy`]): every deliberately
//!   broken variant against every checker said to catch it;
//! - **loom**, **spin**, **coq** ([`campaign::external`]): the threaded
//!   driver under loom, the SPIN models and the Coq proofs of the detectors.
//!
//! ## Your protocol under lbcheck: three paths
//!
//! - **A Rust protocol, in-process.** Implement the sans-IO
//!   [`protocol::Balancer`] or [`protocol::Detector`] (handlers get a
//!   [`protocol::Ctx`] and push [`protocol::Command`]s; messages are
//!   [`protocol::Msg`]s), wrap its constructor in a
//!   [`harness::UserBalancer`] or [`harness::UserDetector`], and gate it
//!   with the five-line `#[test]` of [`testing`] ([`testing::assert_balancer`];
//!   [`testing::Check`] writes the report directory) or call
//!   [`campaign::user`] directly; the simulate, threads and explore layers
//!   run it with every shipping counterpart. A fuzz target for your
//!   protocol is a few lines over `lbcheck::fuzz`
//!   (`fuzz/fuzz_targets/own_balancer.rs`). Examples:
//!   `examples/own_balancer.rs`, `examples/own_detector.rs`.
//! - **An external program, in any language.** Write the trace format
//!   (`docs/trace-format.md`, [`event`]) and let `lbcheck check --impl
//!   CMD` ([`campaign::external_impl`]) run it over a swarm of
//!   configurations, check every trace and compare it with the reference.
//! - **Saved traces.** `lbcheck check-trace` ([`harness::check_trace`])
//!   checks a trace against every property; `lbcheck compare`
//!   ([`bounds::compare`]) tests 20 of them against the reference's runs.
//!
//! The five-line test (the reference random polling stands in for yours):
//!
//! ```
//! use lbcheck::harness::UserBalancer;
//! use lbcheck::{mutants::seams, protocol::random_polling::RandomPolling};
//!
//! #[test]
//! fn mine_passes_lbcheck() {
//!     let mine = UserBalancer { name: "mine".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
//!     lbcheck::testing::assert_balancer(&mine);
//! }
//! # let mine = UserBalancer { name: "mine".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
//! # lbcheck::testing::Check::balancer(&mine).layers(&["explore"]).assert();
//! ```
//!
//! ## What ships
//!
//! The registry says what ships and what is planned: `lbcheck list` prints
//! it, and the README's status table is its output. Today:
//!
//! - 8 balancers ([`protocol::BalancerKind`]): asynchronous random polling
//!   (001 Fig. 1; 002 §3's two slots and deactivated worker, 003 §14.7.2's
//!   serve-all), random-destination search and priority-queue
//!   branch-and-bound (004 §4–§6), Pacheco's parallel tree search (003
//!   §14.7), synchronous random polling (001 §1.3), poll-and-shuffle (000
//!   §3–§6), neighbourhood polling and SIMD phases (000 §1.1);
//! - 5 termination detectors ([`protocol::DetectorKind`]): energy with exact
//!   fractions, returned directly or along the spanning tree (003 §14.7.4),
//!   four-counter waves (001 §2), Safra's token ring (EWD998, beyond the
//!   papers), and the phased machine's barriers (000);
//! - 4 machine models: 001's asynchronous machine (on a crossbar or 000's
//!   networks: hypercube, mesh, fat tree, butterfly, cube-connected
//!   cycles), 004's atomic machine with six arbiters, Karp–Zhang's complete
//!   network, and 000's phased machine;
//! - 5 drivers: the deterministic simulator, OS threads, loom, the
//!   exhaustive explorer, and MPI (feature `mpi`);
//! - 8 workload families: synthetic adversaries, UTS trees, loops,
//!   Karp–Zhang cost trees, and knapsack, TSP, Golomb and 15-puzzle
//!   branch-and-bound;
//! - 22 invariants checked on every run and on any trace, 6 bound suites of
//!   statistical tests, 64 mutants that show each checker failing, bitonic
//!   sort on a hypercube, and SPIN models and Coq proofs of the detectors
//!   (outside the crate, in `models/` and `proofs/`);
//! - the campaign `lbcheck check` ([`campaign`]), which runs every layer
//!   over every reference (or over a user's balancer or detector,
//!   [`campaign::user`], [`testing`]) and writes an HTML, JSON and JUnit report.
//!
//! The sequential reference of a workload:
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
//! use lbcheck::harness::{Driver, RunSpec};
//! use lbcheck::protocol::{BalancerKind, DetectorKind};
//! use lbcheck::sim::SimConfig;
//!
//! let driver = Driver::Sim(SimConfig { pes: 8, seed: 1, ..SimConfig::default() });
//! let workload = "uts:default".parse().unwrap();
//! let spec = RunSpec::new(workload, BalancerKind::RandomPolling, DetectorKind::FourCounter, driver);
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
//!   derivation, fixed hashes, network topologies, and the registry's
//!   vocabulary ([`base::Registered`]).
//! - [`problem`]: the tree-shaped computation model (002 §2, 001 §1.2):
//!   [`problem::Subproblem`], the order-independent [`problem::Fingerprint`],
//!   the workloads (synthetic with adversarial split policies, UTS trees as
//!   DFS stacks with the 002 §4.1 strategies, interval loops of 002 §4.2,
//!   branch-and-bound applications) and the sequential reference executor.
//! - [`event`]: the one event stream every driver emits; its JSON Lines form
//!   is the trace format other implementations write.
//! - [`protocol`]: sans-IO per-PE state machines, each reading as its
//!   paper's pseudocode: the balancers and termination detectors above and
//!   bound propagation for branch-and-bound, composed by [`protocol::Pe`];
//!   [`protocol::BalancerKind`] and [`protocol::DetectorKind`] are their
//!   registry.
//! - [`mutants`]: the one catalogue of deliberately broken variants, with
//!   where each acts and what catches it; each protocol mutant is a broken
//!   rule at one seam of a reference.
//! - [`check`]: the invariants over any event stream, online or from a
//!   saved trace (`work_conserved`, `energy_conserved`,
//!   `no_early_termination`, `termination_detected`, `requests_answered`,
//!   …; `lbcheck check-trace --help` lists them, `--explain` says what
//!   each checks) and metrics.
//! - Drivers: [`sim`] (the deterministic discrete-event simulator of 001's
//!   machine; [`sim::phased`], 000's phased machine; [`sim::atomic`], 004's
//!   atomic machine; [`sim::explore`], the exhaustive explorer) and
//!   [`runtime`] (OS threads, MPI) and [`loom`] (the threaded driver's
//!   source compiled against loom's types, explored by loom's model checker).
//! - [`harness`]: one checked run for every driver, described by one
//!   serde type ([`harness::RunSpec`]: the balancer with its own parameters,
//!   [`protocol::BalancerSpec`], the detector, the workload, the driver
//!   with its machine's, the mutant): the CLI parses into it, `--print-spec`
//!   and `--spec FILE` write and read it, the trace header carries it, the
//!   replay command is derived from it; the reference, the checker.
//! - [`bounds`]: the papers' bounds as functions and the statistical tests
//!   of a balancer against them (`lbcheck bounds`), and the two-sample
//!   comparison of a user's runs with the reference's (`lbcheck compare`).
//! - [`bitonic`]: bitonic sort on a hypercube (003 §14.3–14.4) and its
//!   properties; [`reproduce`]: the papers' experiments re-run and checked.
//! - [`campaign`]: `lbcheck check`, every layer over every reference (or a
//!   user's balancer or detector, [`campaign::user`]; or a user's program,
//!   [`campaign::external_impl`]) with a report.
//! - [`testing`]: a user's protocol in a `#[test]`: `assert_balancer`,
//!   `assert_detector`, `assert_protocols` and the [`testing::Check`] builder.
//! - [`fuzz`]: fuzzer bytes → one checked simulated run of a reference or
//!   of a user's balancer or detector, for cargo-fuzz targets (`fuzz/`).
//! - [`report`]: tables, JSON, verdicts, JUnit XML, the HTML report with
//!   SVG plots, and the registry listing.
//! - The `lbcheck` binary (`src/main.rs`, `src/cli/`): `check`, `tree`,
//!   `simulate`, `run`, `mpi`, `explore`, `check-trace`, `compare`,
//!   `bounds`, `reproduce`, `scatter`, `bitonic`, `mutants`, `list`.
//!
//! ## Debugging a failure
//!
//! More in `docs/guide.md`, "Debugging a failure".
//!
//! - `PROPTEST_CASES=N` raises the number of property-test cases; failing
//!   cases are saved under `proptest-regressions/` and replayed first.
//! - `INSTA_UPDATE=always` rewrites snapshots after an intended output change
//!   (review them with `cargo insta review`).
//! - `LBCHECK_SEED=N` is the default `--seed` of `lbcheck simulate`, `run`,
//!   `explore`, `check` and the other seeded commands.
//! - Every failed check prints `replay with: lbcheck ...`, the one command
//!   that reproduces the run event for event; add `--trace FILE` to get its
//!   event stream and `lbcheck check-trace FILE` to recheck it.
//! - Fuzz crashes are in `fuzz/artifacts/<target>/`; replay one with
//!   `RUSTC_BOOTSTRAP=1 cargo fuzz run <target> <file>`.

#![deny(missing_docs)]

pub mod base;
pub mod bitonic;
pub mod bounds;
pub mod campaign;
pub mod check;
pub mod event;
pub mod fuzz;
pub mod harness;
pub mod loom;
pub mod mutants;
pub mod problem;
pub mod protocol;
pub mod report;
pub mod reproduce;
pub mod runtime;
pub mod sim;
pub mod testing;
