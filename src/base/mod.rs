//! The bottom layer: value types and helpers that several layers share
//! (`event`, `protocol`, `check`, `sim`, `runtime`, `bounds` import them;
//! they import nothing of lbcheck's).
//!
//! - [`fraction`]: exact energy, [`Fraction`] (003 §14.7.4: never a float).
//! - [`rng`]: the one scheme that derives every random stream from a seed.
//! - [`hash`]: fixed, version-stable hash functions.
//! - [`registry`]: the vocabulary of the typed registry enums.

pub mod fraction;
pub mod hash;
pub mod registry;
pub mod rng;

pub use fraction::Fraction;
pub use registry::{Info, Registered, Status, UnknownName};
