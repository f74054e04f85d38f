//! Random permutations of the subproblems between cycles (000 §3.2; S-6).
//!
//! - **Exact** (uniform over all n! permutations): every PE k draws a
//!   destination uniformly and sends its subproblem there; every PE shuffles
//!   the items it received uniformly (Fisher–Yates); an exclusive prefix sum
//!   of the counts numbers the items (PE j's r-th item gets base_j + r); the
//!   item numbered x goes to PE x. Uniform: the destinations and local
//!   orders together pick each of the n! orders of the items equally often
//!   (the count vector and the orders are independent, and every order
//!   with a given count vector has the same probability).
//! - **Pseudo** (000 §3.2's "practice"): a set of g uniform permutations is
//!   fixed per run; each cycle composes s of them, drawn uniformly with
//!   replacement. Cheap, but only as good as the set generates S_n.
//!
//! A permutation is given as `dest[k]` = where PE k's subproblem goes.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::base::rng::{stream, Purpose};
pub use crate::protocol::poll_and_shuffle::Method;
use crate::protocol::poll_and_shuffle::{PasRules, Shuffle};

/// The PEs' random streams, lent one at a time.
pub trait Streams {
    /// How many PEs.
    fn count(&self) -> usize;
    /// `f` with PE `pe`'s stream.
    fn with<R>(&mut self, pe: usize, f: impl FnOnce(&mut ChaCha8Rng) -> R) -> R;
}

impl Streams for Vec<ChaCha8Rng> {
    fn count(&self) -> usize {
        self.len()
    }

    fn with<R>(&mut self, pe: usize, f: impl FnOnce(&mut ChaCha8Rng) -> R) -> R {
        f(&mut self[pe])
    }
}

/// The PEs' streams (`Purpose::Protocol` of the run's seed) kept as the
/// words each has drawn: 8 bytes a PE instead of a 300-byte generator
/// (at P = 2^20, 8 MiB instead of 330). A stream is rebuilt and sought to
/// its place when the shuffle needs it (ChaCha is seekable), which gives
/// the same numbers as a generator kept whole.
pub struct Seekable {
    seed: u64,
    drawn: Vec<u64>,
}

impl Seekable {
    /// `pes` streams of `seed`, none drawn from yet.
    pub fn new(seed: u64, pes: u32) -> Seekable {
        Seekable { seed, drawn: vec![0; pes as usize] }
    }
}

impl Streams for Seekable {
    fn count(&self) -> usize {
        self.drawn.len()
    }

    fn with<R>(&mut self, pe: usize, f: impl FnOnce(&mut ChaCha8Rng) -> R) -> R {
        let mut rng = stream(self.seed, pe as u32, Purpose::Protocol);
        rng.set_word_pos(u128::from(self.drawn[pe]));
        let r = f(&mut rng);
        self.drawn[pe] = u64::try_from(rng.get_word_pos()).expect("fewer than 2^64 words drawn");
        r
    }
}

/// Where each PE's subproblem goes after a cycle under `rules` (000
/// §3.2): the exact method with the PEs' streams `rngs`, or the pseudo
/// method over `gens` with the shared stream `shared`; or a mutant's move.
pub fn draw(
    rules: PasRules,
    method: Method,
    rngs: &mut impl Streams,
    gens: &[Vec<u32>],
    shared: &mut ChaCha8Rng,
) -> Vec<u32> {
    let n = rngs.count() as u32;
    match (rules.shuffle, method) {
        (Shuffle::Skip, _) => (0..n).collect(),
        (Shuffle::Xor, _) => {
            let r = shared.random_range(0..n);
            (0..n).map(|k| k ^ r).collect()
        }
        (Shuffle::RandomDestinations, _) => {
            (0..n as usize).map(|k| rngs.with(k, |rng| rng.random_range(0..n))).collect()
        }
        (Shuffle::Permute, Method::Exact) => exact(rngs, rules.local_shuffle),
        (Shuffle::Permute, Method::Pseudo) => pseudo(gens, shared),
    }
}

/// Generators of the pseudo-random method.
pub const GENERATORS: usize = 8;

/// The exact method with the PEs' streams `rngs` (one per PE): returns
/// `dest`. `local_shuffle = false` is mutant `perm-no-local-shuffle`
/// (items keep their arrival order, by source).
pub fn exact(rngs: &mut impl Streams, local_shuffle: bool) -> Vec<u32> {
    let n = rngs.count();
    let to: Vec<u32> = (0..n).map(|k| rngs.with(k, |rng| rng.random_range(0..n) as u32)).collect();
    // The bins by counting sort, each in order of source: `starts[j]..starts[j + 1]` of `items`.
    let mut starts = vec![0u32; n + 1];
    to.iter().for_each(|&j| starts[j as usize + 1] += 1);
    (0..n).for_each(|j| starts[j + 1] += starts[j]);
    let mut items = vec![0u32; n];
    let mut fill = starts.clone();
    for (k, &j) in to.iter().enumerate() {
        items[fill[j as usize] as usize] = k as u32;
        fill[j as usize] += 1;
    }
    let mut dest = vec![0; n];
    for j in 0..n {
        let bin = &mut items[starts[j] as usize..starts[j + 1] as usize];
        if local_shuffle && bin.len() > 1 {
            rngs.with(j, |rng| bin.shuffle(rng));
        }
        bin.iter().enumerate().for_each(|(r, &k)| dest[k as usize] = starts[j] + r as u32);
    }
    dest
}

/// The pseudo-random method's generators, drawn once per run from `rng`:
/// uniform permutations, or (`uniform = false`, mutant
/// `perm-generators-subgroup`) XOR translations k ↦ k ⊕ r, which generate
/// a subgroup of order at most n (n a power of two).
pub fn generators(n: usize, rng: &mut ChaCha8Rng, uniform: bool) -> Vec<Vec<u32>> {
    (0..GENERATORS)
        .map(|_| {
            let mut p: Vec<u32> = (0..n as u32).collect();
            match uniform {
                true => p.shuffle(rng),
                false => {
                    let r = rng.random_range(0..n as u32);
                    p.iter_mut().for_each(|k| *k ^= r);
                }
            }
            p
        })
        .collect()
}

/// A composition of 2 to 8 of `gens`, drawn uniformly with replacement.
pub fn pseudo(gens: &[Vec<u32>], rng: &mut ChaCha8Rng) -> Vec<u32> {
    let n = gens[0].len();
    let mut dest: Vec<u32> = (0..n as u32).collect();
    for _ in 0..rng.random_range(2..=8) {
        let g = &gens[rng.random_range(0..gens.len())];
        dest.iter_mut().for_each(|d| *d = g[*d as usize]);
    }
    dest
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::distribution::{ChiSquared, ContinuousCDF};

    /// The χ² p-value of the 24 permutations of 4 items over `draws` draws.
    fn uniformity(draws: u32, local_shuffle: bool) -> f64 {
        let mut counts = std::collections::BTreeMap::<Vec<u32>, u64>::new();
        let mut rngs: Vec<ChaCha8Rng> = (0..4).map(|k| stream(7, k, Purpose::Protocol)).collect();
        for _ in 0..draws {
            *counts.entry(exact(&mut rngs, local_shuffle)).or_default() += 1;
        }
        let e = f64::from(draws) / 24.0;
        let missing = 24 - counts.len();
        let x: f64 = counts.values().map(|&c| (c as f64 - e).powi(2) / e).sum::<f64>() + missing as f64 * e;
        ChiSquared::new(23.0).unwrap().sf(x)
    }

    /// S-6: the exact method is uniform on S_4 (χ², 10^5 draws, α = 1e-6,
    /// fixed seed); without the local shuffle it is not.
    #[test]
    fn the_exact_method_is_uniform_and_the_mutant_is_not() {
        assert!(uniformity(100_000, true) > 1e-6);
        assert!(uniformity(100_000, false) < 1e-6);
    }

    /// Streams kept as words drawn give the numbers generators kept whole
    /// give, round after round (the event stream depends on it).
    #[test]
    fn seekable_streams_are_the_kept_generators() {
        let mut kept: Vec<ChaCha8Rng> = (0..64).map(|k| stream(9, k, Purpose::Protocol)).collect();
        let mut seekable = Seekable::new(9, 64);
        for round in 0..20 {
            assert_eq!(exact(&mut kept, true), exact(&mut seekable, true), "round {round}");
        }
    }

    #[test]
    fn every_draw_is_a_permutation() {
        let mut rngs: Vec<ChaCha8Rng> = (0..16).map(|k| stream(1, k, Purpose::Protocol)).collect();
        let gens = generators(16, &mut rngs[0], true);
        for _ in 0..100 {
            for mut p in [exact(&mut rngs, true), pseudo(&gens, &mut rngs[1])] {
                p.sort_unstable();
                assert_eq!(p, (0..16).collect::<Vec<u32>>());
            }
        }
    }
}
