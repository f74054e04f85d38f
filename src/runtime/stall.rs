//! The threaded driver's stall watch. A run whose computation is over — no
//! PE holds work, no work message is on its way — but whose end never
//! reaches every PE (a detector that never announces, or whose
//! announcement does not spread) would otherwise leave its idle PEs
//! blocked, or bouncing requests, forever. The simulator stops such a run
//! after its detection horizon ([`crate::sim::Stop::NotAnnounced`],
//! [`crate::sim::Stop::NotTerminated`]); on threads, after
//! [`STALL_GRACE`] of wall-clock time with the computation over, the driver
//! stops every PE and the run ends with [`crate::sim::Stop::Stalled`].
//!
//! [`Activity`] counts the PEs that are busy plus the work messages sent
//! and not yet handled. A PE adds what a batch adds (it turned busy, the
//! work messages it sends) before those messages leave, and takes off what
//! it removes (it went idle, a work message it handled) only after the
//! batch that handled it added its own: the count is never below the true
//! one, and zero is stable, since once nothing holds work nothing can
//! create it. Instrumentation, in std's atomics even in loom's copy (like
//! the trace sequence); loom's copy never watches (no clocks).

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long the computation must have been over, with some PE still
/// running, before the driver calls the run stalled: far beyond the few
/// milliseconds a detector's waves take on threads, even oversubscribed.
pub const STALL_GRACE: Duration = Duration::from_secs(10);

/// How often the watch looks at the count while threads run.
const LOOK: Duration = Duration::from_millis(20);

/// The count of the module docs, the threads that finished, and the stop.
#[derive(Default)]
pub(crate) struct Activity {
    active: AtomicI64,
    stopped: AtomicBool,
    /// A PE's thread panicked (its protocol asserted).
    panicked: AtomicBool,
    finished: Mutex<u32>,
    finish: Condvar,
}

impl Activity {
    /// Adds `delta` to the count (busy PEs plus work messages in flight).
    pub(crate) fn add(&self, delta: i64) {
        if delta != 0 {
            self.active.fetch_add(delta, Ordering::SeqCst);
        }
    }

    /// The watch stopped the run: every PE should stop.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }

    /// A PE's thread is done.
    pub(crate) fn finished(&self) {
        *self.finished.lock().expect("stall lock") += 1;
        self.finish.notify_one();
    }

    /// Waits until all `pes` threads finished (false) or the computation
    /// has been over for `grace` while some still ran (true: the stop is
    /// set and `wake` called, to wake the PEs blocked on their mailboxes).
    /// A thread that panicked stops the others the same way (false: the
    /// join then passes its panic on, instead of waiting for PEs that wait
    /// for it).
    pub(crate) fn watch(&self, pes: u32, grace: Duration, wake: impl Fn()) -> bool {
        let mut quiet_since: Option<Instant> = None;
        let mut finished = self.finished.lock().expect("stall lock");
        while *finished < pes {
            finished = self.finish.wait_timeout(finished, LOOK).expect("stall lock").0;
            let active = self.active.load(Ordering::SeqCst) > 0;
            if active {
                quiet_since = None;
            }
            let stalled = !active && quiet_since.get_or_insert_with(Instant::now).elapsed() >= grace;
            let panicked = self.panicked.load(Ordering::Acquire);
            if panicked || (stalled && *finished < pes) {
                self.stopped.store(true, Ordering::Release);
                drop(finished);
                wake();
                return !panicked;
            }
        }
        false
    }
}

/// Counts its PE's thread as finished when dropped, at the end of its loop
/// or while a panic unwinds it (then stopping the others).
pub(crate) struct Finishing<'a>(pub(crate) &'a Activity);

impl Drop for Finishing<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.panicked.store(true, Ordering::Release);
        }
        self.0.finished();
    }
}
