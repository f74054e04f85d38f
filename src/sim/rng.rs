//! Random streams derived from (run seed, PE, purpose) with a version-stable
//! generator (ChaCha8): same seed ⇒ same streams, on every platform.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// What a stream is used for (part of its identity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A PE's protocol decisions (e.g. random polling's victims).
    Protocol = 1,
    /// Message latencies drawn by the simulator.
    Latency = 2,
    /// The choice of slow PEs.
    Speeds = 3,
}

/// The stream for (`seed`, `pe`, `purpose`).
pub fn stream(seed: u64, pe: u32, purpose: Purpose) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(((pe as u64) << 8) | purpose as u64);
    rng
}
