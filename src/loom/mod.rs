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

/// Held by [`model`] while loom explores: one model at a time per process.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Set in a forked child ([`isolate`]), which runs one model on its one
/// thread: it takes no lock (its copy of [`ONE_AT_A_TIME`] may be held by a
/// thread of the parent's that the child does not have).
static FORKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Explores every interleaving of `f` within `bound` preemptions (and the
/// first `cap` if given, in loom's order): loom's model checker.
///
/// One model at a time in a process (a static lock): loom maps a stack
/// for each of its threads in every interleaving and unmaps it after
/// (`generator::Stack`), and two models at once on two cores contend on the
/// process's memory-map lock and interrupt each other's core at every unmap
/// (TLB shootdowns): `tests/loom_threads.rs`' 43 tests on 2 test threads
/// took 63 CPU s (32 of them in the kernel) against 37 on one thread, in
/// the same 38 s wall (issue 30). The other core stays free for a test
/// or a campaign case that is not a model.
pub fn model(bound: usize, cap: Option<usize>, f: impl Fn() + Sync + Send + 'static) {
    let forked = FORKED.load(std::sync::atomic::Ordering::Relaxed);
    let _one = (!forked).then(|| ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    let mut model = ::loom::model::Builder::new();
    model.preemption_bound = Some(bound);
    model.max_permutations = cap;
    model.check(f);
}
