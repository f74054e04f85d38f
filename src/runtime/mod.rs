//! Drivers that run the protocols for real (../shared/ARCHITECTURE.md
//! "One protocol, many drivers").
//!
//! [`threads`] runs the unchanged sans-IO [`crate::protocol::Pe`]s on OS
//! threads, one mailbox each; every synchronisation goes through its
//! private `sync` seam, so that [`crate::loom`] compiles the same source a
//! second time with loom's types and loom explores the same code's
//! interleavings inside the ordinary build (`tests/loom_threads.rs`,
//! `scripts/loom.sh`, the campaign's `loom` layer). The driver's own deliberate bugs are in the one
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

pub mod config;
pub mod mailbox;
pub mod mpi;
mod pe_loop;
mod record;
mod stall;
mod sync;
pub mod threads;

/// What the recorded event times are: nanoseconds since the start (the
/// loom copy's: global sequence numbers, [`crate::loom::CLOCK`]).
pub const CLOCK: crate::event::Clock = sync::CLOCK;
