//! The bottom layer: value types and helpers that several layers share
//! (`event`, `protocol`, `check`, `sim`, `runtime`, `bounds` import them;
//! they import nothing of lbcheck's).
//!
//! - [`fraction`]: exact energy, [`Fraction`] (003 §14.7.4: never a float).
//! - [`rng`]: the one scheme that derives every random stream from a seed.
//! - [`hash`]: fixed, version-stable hash functions.
//! - [`registry`]: the vocabulary of the typed registry enums.
//! - [`parse`]: the error of the small flag-value parsers ([`BadValue`]).
//! - [`text`]: values that serialise as their command-line text.
//! - [`caught`]: a panic caught as its message and place (protocol assertions as verdicts).
//! - [`par`]: independent jobs on every core, results in the jobs' order.
//! - [`topology`]: the networks of 000 §2.1 and §4 ([`Topology`]) and hop counts.

pub mod caught;
pub mod fraction;
pub mod hash;
pub mod par;
pub mod parse;
pub mod registry;
pub mod rng;
pub mod text;
pub mod topology;

pub use fraction::{Fraction, ParseFractionError};
pub use parse::BadValue;
pub use registry::{Info, Registered, Status, UnknownName};
pub use topology::{Topology, TopologyError};

/// A PE's number, `0..P`.
pub type PeId = u32;
