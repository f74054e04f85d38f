//! The one place that names the synchronisation primitives
//! (../shared/STYLE.md item 4): std's types normally, loom's under
//! `--cfg loom`, so that loom explores the interleavings of exactly the code
//! that runs in production (after crossbeam-utils `src/lib.rs` and tokio's
//! `src/loom/`). Nothing else in the crate names `std::sync` or `loom::`.

#[cfg(loom)]
pub(crate) use loom::{
    sync::atomic::{AtomicBool, AtomicUsize, Ordering},
    sync::{Arc, Condvar, Mutex, MutexGuard},
    thread,
};

#[cfg(not(loom))]
pub(crate) use std::{
    sync::atomic::{AtomicBool, AtomicUsize, Ordering},
    sync::{Arc, Condvar, Mutex, MutexGuard},
    thread,
};

/// Waits on `cv` until notified or, with a deadline, until it passes:
/// `None` once the deadline has passed.
#[cfg(not(loom))]
pub(crate) fn wait_until<'a, T>(
    cv: &Condvar,
    guard: MutexGuard<'a, T>,
    deadline: Option<std::time::Instant>,
) -> Option<MutexGuard<'a, T>> {
    let Some(deadline) = deadline else { return Some(cv.wait(guard).expect("lock")) };
    let left = deadline.checked_duration_since(std::time::Instant::now())?;
    Some(cv.wait_timeout(guard, left).expect("lock").0)
}

/// Under loom there are no clocks: no deadline.
#[cfg(loom)]
pub(crate) fn wait_until<'a, T>(
    cv: &Condvar,
    guard: MutexGuard<'a, T>,
    _deadline: Option<std::time::Instant>,
) -> Option<MutexGuard<'a, T>> {
    Some(cv.wait(guard).expect("lock"))
}

/// The trace recorder's sequence counter: std's atomic even under loom, on
/// purpose: it is instrumentation, not part of the protocol under test, and
/// loom runs one thread at a time, so std's atomic sees the execution order
/// while loom needs no scheduling point (and no branch) for it.
pub(crate) use std::sync::atomic::AtomicU64 as TraceSeq;

/// An idle PE checks `ready` up to 2^12 times before it blocks. Spinning
/// briefly saves the futex round trip when the reply is microseconds away.
#[cfg(not(loom))]
#[inline]
pub(crate) fn spin_until(ready: impl Fn() -> bool) {
    for _ in 0..1 << 12 {
        if ready() {
            return;
        }
        std::hint::spin_loop();
    }
}

/// No spinning under loom: a spin loop would only multiply the interleavings.
#[cfg(loom)]
pub(crate) fn spin_until(_ready: impl Fn() -> bool) {}

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
#[cfg(loom)]
pub(crate) fn let_others_run() {
    loom::thread::yield_now();
}

/// Nothing with OS threads.
#[cfg(not(loom))]
#[inline]
pub(crate) fn let_others_run() {}

/// Event time stamps: nanoseconds since `start`, or under loom (where clocks
/// are not modelled and would make runs irreproducible) the event's global
/// sequence number.
#[cfg(not(loom))]
pub(crate) fn stamp(start: std::time::Instant, _seq: u64) -> u64 {
    start.elapsed().as_nanos() as u64
}

/// What [`stamp`] measures.
#[cfg(not(loom))]
pub(crate) const CLOCK: crate::event::Clock = crate::event::Clock::Ns;
/// Under loom: sequence numbers.
#[cfg(loom)]
pub(crate) const CLOCK: crate::event::Clock = crate::event::Clock::Seq;

/// Under loom: the sequence number.
#[cfg(loom)]
pub(crate) fn stamp(_start: std::time::Instant, seq: u64) -> u64 {
    seq
}

/// Explores every interleaving of `f` within `bound` preemptions, loom's
/// model checker (the loom layer on a user's protocol, `campaign::user_loom`).
#[cfg(loom)]
pub(crate) fn model(bound: usize, f: impl Fn() + Sync + Send + 'static) {
    let mut model = loom::model::Builder::new();
    model.preemption_bound = Some(bound);
    model.check(f);
}
