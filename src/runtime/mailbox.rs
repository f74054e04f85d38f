//! One PE's mailbox: a locked queue, a condition variable an idle PE blocks
//! on, a length hint that a busy PE polls without locking, and a `sleeping`
//! flag so that senders notify only a PE that is (about to be) blocked.
//!
//! Protocol: the receiver sets `sleeping` and waits *under the lock*, after
//! finding the queue empty; a sender pushes and reads `sleeping` *under the
//! same lock*, and notifies if it was set. The lock orders the two, so a
//! notification is never lost. [`Rules`] can break exactly this, in two
//! places: the threaded driver's deliberate bugs, chosen in
//! [`crate::mutants::seams::mailbox`].

use std::collections::VecDeque;

use super::sync::{spin_until, wait_until, AtomicBool, AtomicUsize, Condvar, Mutex, Ordering};
use crate::protocol::{Msg, PeId};

pub use crate::runtime::config::Rules;

/// A message with its sender and trace id.
pub(crate) struct Envelope<T> {
    pub(crate) from: PeId,
    pub(crate) id: u64,
    pub(crate) msg: Msg<T>,
}

/// One PE's mailbox (cache-line aligned so PEs do not share lines).
#[repr(align(128))]
pub(crate) struct Mailbox<T> {
    queue: Mutex<VecDeque<Envelope<T>>>,
    ready: Condvar,
    /// Queue length as last published under the lock (a hint).
    len: AtomicUsize,
    /// The receiver is blocked, or about to block, on `ready`.
    sleeping: AtomicBool,
    rules: Rules,
}

impl<T> Mailbox<T> {
    /// An empty mailbox following `rules`.
    pub(crate) fn new(rules: Rules) -> Self {
        Mailbox {
            queue: Mutex::new(VecDeque::new()),
            ready: Condvar::new(),
            len: AtomicUsize::new(0),
            sleeping: AtomicBool::new(false),
            rules,
        }
    }

    /// Delivers `env`, waking the receiver if it sleeps.
    pub(crate) fn push(&self, env: Envelope<T>) {
        let bug = !self.rules.sender_reads_flag_under_lock;
        let early = bug && self.sleeping.load(Ordering::Relaxed); // outside the lock: the bug
        let mut q = self.queue.lock().expect("mailbox lock");
        q.push_back(env);
        self.len.store(q.len(), Ordering::Release);
        let wake = if bug { early } else { self.sleeping.load(Ordering::Relaxed) };
        drop(q);
        if wake {
            self.ready.notify_one();
        }
    }

    /// Moves every queued message into `out` without blocking (a busy PE's
    /// poll); returns at once, without locking, when the hint says empty.
    pub(crate) fn drain_into(&self, out: &mut VecDeque<Envelope<T>>) {
        if self.len.load(Ordering::Acquire) == 0 {
            return;
        }
        let mut q = self.queue.lock().expect("mailbox lock");
        out.append(&mut q);
        self.len.store(0, Ordering::Relaxed);
    }

    /// The next message, blocking (after a short spin) while there is none;
    /// `None` once `deadline` (if any) has passed or `stopped` says so (it
    /// is asked under the lock, so a [`Mailbox::wake`] after it turned true
    /// is never missed).
    pub(crate) fn pop_blocking(
        &self,
        deadline: Option<std::time::Instant>,
        stopped: impl Fn() -> bool,
    ) -> Option<Envelope<T>> {
        spin_until(|| self.len.load(Ordering::Acquire) > 0);
        let mut q = self.queue.lock().expect("mailbox lock");
        loop {
            if stopped() {
                return None;
            }
            if let Some(env) = q.pop_front() {
                self.len.store(q.len(), Ordering::Relaxed);
                return Some(env);
            }
            self.sleeping.store(true, Ordering::Relaxed);
            if !self.rules.receiver_waits_under_lock {
                drop(q); // checked "empty", then parks without holding the lock
                q = self.queue.lock().expect("mailbox lock");
            }
            let woken = wait_until(&self.ready, q, deadline);
            self.sleeping.store(false, Ordering::Relaxed);
            q = woken?;
        }
    }

    /// Wakes the receiver, blocked or not (the stall watch's stop).
    pub(crate) fn wake(&self) {
        let _q = self.queue.lock().expect("mailbox lock");
        self.ready.notify_all();
    }
}
