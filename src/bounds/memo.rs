//! The bounds suites' calibration runs, kept for the life of the process.
//!
//! A calibration run never carries a mutant (only test runs do), so every
//! run of a suite with a mutant repeats the reference's calibration runs,
//! seed for seed: `lbcheck check` runs each suite once on the reference
//! and again for each mutant of its adequacy matrix (001 and 004's
//! suites). A run is deterministic given its key (the suite, its cell or
//! configuration, the phase, the run's index and the base seed), so the
//! kept sample is the one a new run would give, and no verdict changes.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, OnceLock};

type Store = Mutex<HashMap<String, Box<dyn Any + Send>>>;

static STORE: OnceLock<Store> = OnceLock::new();

/// The sample of the calibration run named `key`: `run()`'s, or a copy of
/// what it gave earlier in this process.
pub fn calibration<S: Clone + Send + 'static>(key: String, run: impl FnOnce() -> S) -> S {
    let key = format!("{}/{key}", std::any::type_name::<S>());
    if let Some(s) = lock().get(&key).and_then(|b| b.downcast_ref::<S>()) {
        return s.clone();
    }
    let s = run();
    lock().insert(key, Box::new(s.clone()));
    s
}

fn lock() -> MutexGuard<'static, HashMap<String, Box<dyn Any + Send>>> {
    STORE.get_or_init(Store::default).lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_kept_sample_is_returned_without_running_again() {
        let key = || "memo-test/1".to_string();
        assert_eq!(super::calibration(key(), || 7u64), 7);
        assert_eq!(super::calibration(key(), || -> u64 { panic!("ran twice") }), 7);
        assert_eq!(super::calibration(key(), || 8u32), 8, "a different type is a different sample");
    }
}
