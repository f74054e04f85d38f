//! The threaded driver's synchronisation seam (../shared/STYLE.md item 4):
//! std's types here; [`crate::loom`] compiles the same driver source a
//! second time against its own `sync` with the same names bound to loom's
//! types, so that loom explores the interleavings of exactly the code that
//! runs in production (after crossbeam-utils `src/lib.rs` and tokio's
//! `src/loom/`). Nothing else in the driver names `std::sync` or `loom::`.

pub(crate) use std::{
    sync::atomic::{AtomicBool, AtomicUsize, Ordering},
    sync::{Arc, Condvar, Mutex, MutexGuard},
    thread,
};

/// The trace recorder's sequence counter (a std atomic in both copies: it
/// is instrumentation, not part of the protocol under test).
pub(crate) use std::sync::atomic::AtomicU64 as TraceSeq;

/// A run's `--timeout` applies (not under loom, which has no clocks).
pub(crate) const DEADLINES: bool = true;

/// Waits on `cv` until notified or, with a deadline, until it passes:
/// `None` once the deadline has passed.
pub(crate) fn wait_until<'a, T>(
    cv: &Condvar,
    guard: MutexGuard<'a, T>,
    deadline: Option<std::time::Instant>,
) -> Option<MutexGuard<'a, T>> {
    let Some(deadline) = deadline else { return Some(cv.wait(guard).expect("lock")) };
    let left = deadline.checked_duration_since(std::time::Instant::now())?;
    Some(cv.wait_timeout(guard, left).expect("lock").0)
}

/// An idle PE checks `ready` up to 2^12 times before it blocks. Spinning
/// briefly saves the futex round trip when the reply is microseconds away.
#[inline]
pub(crate) fn spin_until(ready: impl Fn() -> bool) {
    for _ in 0..1 << 12 {
        if ready() {
            return;
        }
        std::hint::spin_loop();
    }
}

/// A point where a PE lets the others run: under loom `yield_now`, with OS
/// threads nothing (the scheduler is fair and preempts). Two callers:
///
/// - an idle PE whose request was rejected, before it asks again: loom then
///   runs the other threads first, which excludes only the unfair schedules
///   where idle PEs bounce requests and rejects forever while a PE with work
///   never runs (random polling's idle PEs keep asking, 001 Fig. 1);
/// - a busy PE after each work slice: Δt units of work take time, during
///   which the other PEs run, so loom interleaves PEs at slice boundaries
///   without spending the preemption bound (kept for switches inside the
///   driver's synchronisation).
#[inline]
pub(crate) fn let_others_run() {}

/// Event time stamps: nanoseconds since `start` (the loom copy: the
/// event's global sequence number).
pub(crate) fn stamp(start: std::time::Instant, _seq: u64) -> u64 {
    start.elapsed().as_nanos() as u64
}

/// What [`stamp`] measures.
pub(crate) const CLOCK: crate::event::Clock = crate::event::Clock::Ns;
