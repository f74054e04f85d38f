//! The threaded driver explored by loom, inside the ordinary build: the
//! source files of [`crate::runtime`]'s threaded driver (its mailbox, PE
//! loop, recorder and threads) compiled a second time with this module's
//! `sync` seam, loom's threads, locks, condition variables and atomics
//! (no spinning, no deadlines, sequence numbers for times), so that loom
//! explores the interleavings of exactly the code that runs in production
//! with no special build. The harness runs this copy for a threaded
//! run whose [`ThreadConfig::loom`](crate::runtime::threads::ThreadConfig)
//! is set, inside [`model`]; [`tests`] are the loom suite's cases
//! (`tests/loom_threads.rs`, the campaign's `loom` layer and adequacy cells).

#![allow(dead_code)] // the loom copy uses only part of the driver's API (no deadline, no MPI)

mod case;
mod isolate;
mod pairs;
mod sync;

#[path = "../runtime/mailbox.rs"]
mod mailbox;
#[path = "../runtime/pe_loop.rs"]
mod pe_loop;
#[path = "../runtime/record.rs"]
mod record;
#[path = "../runtime/stall.rs"]
mod stall;
#[path = "../runtime/threads.rs"]
#[allow(unused_imports)] // its re-exports of the shared configuration
pub(crate) mod threads;

pub use case::{panic_text, Case, Profile, ONE_SPLIT, TINY, UNEVEN};
pub use pairs::{caught_name, test, tests, Pair, Test, P3, PAIRS};
/// What the loom copy's recorded event times are: global sequence numbers.
pub const CLOCK: crate::event::Clock = sync::CLOCK;

/// Explores every interleaving of `f` within `bound` preemptions (and the
/// first `cap` if given, in loom's order): loom's model checker.
pub fn model(bound: usize, cap: Option<usize>, f: impl Fn() + Sync + Send + 'static) {
    let mut model = ::loom::model::Builder::new();
    model.preemption_bound = Some(bound);
    model.max_permutations = cap;
    model.check(f);
}
