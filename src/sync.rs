//! The one place that names the synchronisation primitives
//! (../shared/STYLE.md item 4): std's types normally, loom's under
//! `--cfg loom`, so that loom explores the interleavings of exactly the code
//! that runs in production (after crossbeam-utils `src/lib.rs` and tokio's
//! `src/loom/`). Nothing else in the crate names `std::sync` or `loom::`.

#[cfg(loom)]
pub(crate) use loom::{
    sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering},
    sync::{Arc, Condvar, Mutex},
    thread,
};

#[cfg(not(loom))]
pub(crate) use std::{
    sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering},
    sync::{Arc, Condvar, Mutex},
    thread,
};

/// How many times an idle PE checks its mailbox before it blocks. Spinning
/// briefly saves the futex round trip when the reply is microseconds away;
/// under loom a spin loop would only multiply the interleavings, so none.
#[cfg(not(loom))]
pub(crate) const SPIN_LIMIT: u32 = 1 << 12;
/// No spinning under loom.
#[cfg(loom)]
pub(crate) const SPIN_LIMIT: u32 = 0;

/// A hint that the caller is spinning (a no-op under loom, where it is never reached).
#[inline]
pub(crate) fn spin_hint() {
    std::hint::spin_loop();
}

/// Called by an idle PE whose request was rejected, before it asks again.
/// Under loom this is `yield_now`: the model checker then runs the other
/// threads before this one again, which excludes only the unfair schedules
/// where idle PEs bounce requests and rejects forever while a PE with work
/// never runs (random polling's idle PEs keep asking, 001 Fig. 1). With OS
/// threads the scheduler is fair and the PE asks again at once.
#[cfg(loom)]
pub(crate) fn backoff() {
    loom::thread::yield_now();
}

/// Nothing with OS threads.
#[cfg(not(loom))]
#[inline]
pub(crate) fn backoff() {}

/// Event time stamps: nanoseconds since `start`, or under loom (where clocks
/// are not modelled and would make runs irreproducible) the event's global
/// sequence number.
#[cfg(not(loom))]
pub(crate) fn stamp(start: std::time::Instant, _seq: u64) -> u64 {
    start.elapsed().as_nanos() as u64
}

/// Under loom: the sequence number.
#[cfg(loom)]
pub(crate) fn stamp(_start: std::time::Instant, seq: u64) -> u64 {
    seq
}
