//! The error of the small flag-value parsers whose values have a fixed
//! form (`--schedule`, `--sync`, `--permutation`, `--latency-shape`,
//! `--deactivate`): the value, what it names, and the forms it may take.
//! A name that is not one of a registry's entries is an
//! [`UnknownName`](super::UnknownName) instead.

/// A flag value in none of the forms its flag takes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} `{given}`: expected {expected}")]
pub struct BadValue {
    /// What the value names (`schedule`, `--deactivate`, …).
    pub what: &'static str,
    /// The value given.
    pub given: String,
    /// The forms it may take.
    pub expected: &'static str,
}

impl BadValue {
    /// `given` is not a `what`, which is one of `expected`.
    pub fn new(what: &'static str, given: &str, expected: &'static str) -> BadValue {
        BadValue { what, given: given.to_string(), expected }
    }
}
