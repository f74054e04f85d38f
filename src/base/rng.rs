//! The one scheme for randomness: every random stream is a ChaCha8 stream
//! (version-stable: same seed ⇒ same numbers on every platform) keyed by a
//! seed and numbered by (index, purpose). A run's streams are keyed by the
//! run's seed and numbered by (PE, purpose); the seeds of the many runs of a
//! statistical test are themselves drawn from such a stream
//! ([`derive_seed`]), keyed by the base seed and the test's label.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::hash::fnv1a;

/// What a stream is used for (part of its identity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A PE's protocol decisions (e.g. random polling's victims).
    Protocol = 1,
    /// Message latencies drawn by the simulator.
    Latency = 2,
    /// The choice of slow PEs.
    Speeds = 3,
    /// The seeds of a statistical test's runs ([`derive_seed`]).
    RunSeeds = 4,
    /// The atomic machine's arbitration ties and random choices (004 §2).
    Arbiter = 5,
    /// The destinations of a message-scattering instance (004 §3).
    Destinations = 6,
    /// The machine of a `simulate --swarm` run.
    Swarm = 7,
    /// The keys of a bitonic sort (`lbcheck bitonic`).
    Keys = 8,
    /// A branch-and-bound instance (knapsack items, TSP cities).
    Instance = 9,
    /// 000 §1.2's randomised initialisation: one split sequence of the
    /// run's seed, the same on every PE (index 0).
    InitialSplit = 10,
    /// The pseudo-random permutations of poll-and-shuffle (000 §3.2; index 0).
    Permutation = 11,
    /// A PE's idle notifications to PE 0 under poll-and-shuffle's adaptive
    /// trigger (000 §5): its own coin per trial, apart from its permutation draws.
    Notify = 12,
}

/// The stream for (`seed`, `index`, `purpose`); `index` is a PE number or a
/// run number.
pub fn stream(seed: u64, index: u32, purpose: Purpose) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream((u64::from(index) << 8) | purpose as u64);
    rng
}

/// The seed of run `index` of the test labelled `label` under base seed
/// `base`: runs are independent, a fixed base reproduces them (CI), and a
/// fresh base reruns the test on fresh seeds.
pub fn derive_seed(base: u64, label: &str, index: u32) -> u64 {
    stream(base ^ fnv1a(label), index, Purpose::RunSeeds).next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn streams_differ_by_seed_index_and_purpose() {
        let first = |seed, index, purpose| stream(seed, index, purpose).random::<u64>();
        let a = first(1, 0, Purpose::Protocol);
        assert_eq!(a, first(1, 0, Purpose::Protocol));
        for b in [first(2, 0, Purpose::Protocol), first(1, 1, Purpose::Protocol), first(1, 0, Purpose::Latency)] {
            assert_ne!(a, b);
        }
    }

    #[test]
    fn derived_seeds_differ_by_base_label_and_index() {
        let a = derive_seed(1, "calibrate", 0);
        assert_eq!(a, derive_seed(1, "calibrate", 0));
        for b in [derive_seed(2, "calibrate", 0), derive_seed(1, "test", 0), derive_seed(1, "calibrate", 1)] {
            assert_ne!(a, b);
        }
    }
}
