//! Thread-level mutants: bugs of the threaded driver itself, which only a
//! checker of thread interleavings (loom) can catch. They live apart from the
//! protocol catalogue ([`crate::mutants`]) because the simulator has no
//! threads to break; `lbcheck mutants` lists both.

use std::fmt;
use std::str::FromStr;

/// A deliberate bug of the threaded driver (`tests/loom_threads.rs` expects
/// loom to report each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThreadMutant {
    /// The mailbox checks "empty" under its lock, releases the lock and then
    /// blocks on the condition variable without re-checking: a message (and
    /// its notification) arriving in between is missed.
    LostWakeup,
    /// A sender reads the receiver's "sleeping" flag before taking the
    /// mailbox lock, so it may skip the notification of a receiver that went
    /// to sleep meanwhile.
    SleepFlagOutsideLock,
}

/// One entry of the thread-level catalogue.
pub struct ThreadEntry {
    /// The mutant.
    pub mutant: ThreadMutant,
    /// Its name.
    pub name: &'static str,
    /// What loom reports.
    pub fails: &'static str,
    /// What is broken.
    pub what: &'static str,
}

/// Every thread-level mutant.
pub const THREAD_CATALOGUE: &[ThreadEntry] = &[
    ThreadEntry {
        mutant: ThreadMutant::LostWakeup,
        name: "lost-wakeup",
        fails: "deadlock",
        what: "the idle PE checks its mailbox is empty, drops the lock, then waits: a notification in between is lost",
    },
    ThreadEntry {
        mutant: ThreadMutant::SleepFlagOutsideLock,
        name: "sleep-flag-outside-lock",
        fails: "deadlock",
        what: "a sender reads the receiver's `sleeping` flag outside the mailbox lock and skips a needed notification",
    },
];

impl ThreadMutant {
    /// The mutant's catalogue entry.
    pub fn entry(self) -> &'static ThreadEntry {
        THREAD_CATALOGUE.iter().find(|e| e.mutant == self).expect("every thread mutant is catalogued")
    }
}

impl fmt::Display for ThreadMutant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.entry().name)
    }
}

impl FromStr for ThreadMutant {
    type Err = String;
    fn from_str(s: &str) -> Result<ThreadMutant, String> {
        THREAD_CATALOGUE.iter().find(|e| e.name == s).map(|e| e.mutant).ok_or_else(|| {
            let names: Vec<_> = THREAD_CATALOGUE.iter().map(|e| e.name).collect();
            format!("unknown thread mutant `{s}`; valid: {}", names.join(", "))
        })
    }
}
