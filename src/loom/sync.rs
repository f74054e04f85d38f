//! The loom copy's synchronisation seam (../shared/STYLE.md item 4): the
//! same names as the threaded driver's `runtime::sync`, bound to loom's
//! types, so that [`super`] compiles the threaded driver's source a second
//! time for loom's model checker (after crossbeam-utils `src/lib.rs` and
//! tokio's `src/loom/`). The only place the runtime names `loom::`.

pub(crate) use ::loom::{
    sync::atomic::{AtomicBool, AtomicUsize, Ordering},
    sync::{Arc, Condvar, Mutex, MutexGuard},
    thread,
};

/// The trace recorder's sequence counter: std's atomic even under loom, on
/// purpose: it is instrumentation, not part of the protocol under test, and
/// loom runs one thread at a time, so std's atomic sees the execution order
/// while loom needs no scheduling point (and no branch) for it.
pub(crate) use std::sync::atomic::AtomicU64 as TraceSeq;

/// Under loom there are no clocks: no deadlines.
pub(crate) const DEADLINES: bool = false;

/// Under loom there are no clocks: waits until notified.
pub(crate) fn wait_until<'a, T>(
    cv: &Condvar,
    guard: MutexGuard<'a, T>,
    _deadline: Option<std::time::Instant>,
) -> Option<MutexGuard<'a, T>> {
    Some(cv.wait(guard).expect("lock"))
}

/// No spinning under loom: a spin loop would only multiply the interleavings.
pub(crate) fn spin_until(_ready: impl Fn() -> bool) {}

/// `loom::thread::yield_now`: loom runs the other threads first (see
/// `runtime::sync::let_others_run` for the two callers and why).
pub(crate) fn let_others_run() {
    ::loom::thread::yield_now();
}

/// Event times under loom (where clocks are not modelled and would make
/// runs irreproducible): the event's global sequence number.
pub(crate) fn stamp(_start: std::time::Instant, seq: u64) -> u64 {
    seq
}

/// What [`stamp`] measures: sequence numbers.
pub(crate) const CLOCK: crate::event::Clock = crate::event::Clock::Seq;
