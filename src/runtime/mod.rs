//! Drivers that run the protocols for real (../shared/ARCHITECTURE.md
//! "One protocol, many drivers").
//!
//! [`threads`] runs the unchanged sans-IO [`crate::protocol::Pe`]s on OS
//! threads, one mailbox each; every synchronisation goes through the crate's
//! private `sync` shim, so that `RUSTFLAGS="--cfg loom"` swaps in loom's
//! types and `tests/loom_threads.rs` explores the same code's interleavings
//! (`scripts/loom.sh`). The driver's own deliberate bugs are in the one
//! catalogue, [`crate::mutants`] (`lost-wakeup`, `sleep-flag-outside-lock`).
//! A checked threaded run is [`crate::harness::RunSpec`] with
//! [`crate::harness::Driver::Threads`].
//!
//! [`mpi`] runs the same PEs one per MPI rank (feature `mpi`; `lbcheck mpi`
//! under `mpirun`), recording each rank's events with a Lamport clock and
//! merging them at rank 0 into one trace.
//!
//! Both run one PE loop, `pe_loop`: the handler calls, the work slices and
//! the batches of recorded events are written once; each driver supplies
//! only its delivery, its clock and its end.

pub mod mailbox;
pub mod mpi;
mod pe_loop;
mod record;
pub mod threads;

/// What the recorded event times are: nanoseconds since the start, or under
/// loom (no clocks) global sequence numbers.
pub const CLOCK: crate::event::Clock = crate::sync::CLOCK;
