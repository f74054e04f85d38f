//! The permutation claims of poll-and-shuffle's suite (000 §3.2, eq. (4); S-6).

use std::collections::HashSet;

use rand_chacha::ChaCha8Rng;
use statrs::distribution::{ChiSquared, ContinuousCDF};

use crate::base::rng::{derive_seed, stream, Purpose};
use crate::bounds::claims::Claim;
use crate::mutants::{seams, Mutant};
use crate::sim::phased::permutation::{self, Method};

/// Permutations drawn for the χ² tests.
const DRAWS: u32 = 100_000;
/// Generator sets examined per n by `perm_generators`.
const SETS: u32 = 16;

/// The moves of `n` subproblems a cycle draws under `mutant`, `draws`
/// times: the permutations, and how many draws were not one (two
/// subproblems sent to one PE: mutant `shuffle-drops-work`).
fn permutations(n: u32, draws: u32, base: u64, mutant: Option<Mutant>) -> (Vec<Vec<u32>>, u64) {
    let rules = seams::poll_and_shuffle(mutant);
    let mut rngs: Vec<ChaCha8Rng> = (0..n).map(|k| stream(derive_seed(base, "eq4", n), k, Purpose::Protocol)).collect();
    let mut shared = stream(derive_seed(base, "eq4", n), 0, Purpose::Permutation);
    let all = (0..draws).map(|_| permutation::draw(rules, Method::Exact, &mut rngs, &[], &mut shared));
    let (perms, not): (Vec<_>, Vec<_>) = all.partition(|d| is_permutation(d));
    (perms, not.len() as u64)
}

fn is_permutation(dest: &[u32]) -> bool {
    let mut seen = vec![false; dest.len()];
    dest.iter().all(|&d| seen.get_mut(d as usize).is_some_and(|s| !std::mem::replace(s, true)))
}

/// The measurement, with the draws that were no permutation named.
fn with_bad(measured: String, bad: u64) -> String {
    match bad {
        0 => measured,
        _ => format!("{measured}; {bad} draws are no permutation"),
    }
}

/// Pearson's χ² p-value of `counts` against the uniform distribution.
fn chi_square_p(counts: &[u64]) -> f64 {
    let e = counts.iter().sum::<u64>() as f64 / counts.len() as f64;
    let x: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
    ChiSquared::new((counts.len() - 1) as f64).map_or(0.0, |d| d.sf(x))
}

/// 000 eq. (4): S = subproblem 0's dimension-i partner after a shuffle is
/// uniform over the other n − 1 (n = 16, each i; `alpha` split over the i).
pub fn eq4(base: u64, mutant: Option<Mutant>, alpha: f64) -> Claim {
    let (n, dims) = (16u32, 4u32);
    let mut counts = vec![vec![0u64; n as usize - 1]; dims as usize];
    let (perms, bad) = permutations(n, DRAWS, base, mutant);
    for dest in perms {
        let mut at = vec![0u32; n as usize];
        dest.iter().enumerate().for_each(|(k, &d)| at[d as usize] = k as u32);
        for i in 0..dims {
            let partner = at[(dest[0] ^ (1 << i)) as usize];
            counts[i as usize][partner as usize - 1] += 1;
        }
    }
    let each = alpha / f64::from(dims);
    let worst = counts.iter().map(|c| chi_square_p(c)).fold(1.0, f64::min);
    Claim {
        plot: None,
        name: "eq4_partners",
        reference: "000 eq. (4), Lemma 2: after a shuffle S's dimension-i partner is uniform over the others",
        n: u64::from(DRAWS),
        measured: with_bad(format!("min p = {worst:.2e} over i = 0..{dims} at n = {n}"), bad),
        bound: format!("p ≥ {each:.1e} each"),
        ci: format!("χ², {} degrees of freedom", n - 2),
        alpha: Some(alpha),
        verdict: (worst >= each && bad == 0).into(),
    }
}

/// S-6: the exact method draws each of the 24 permutations of 4 equally often.
pub fn uniform(base: u64, mutant: Option<Mutant>, alpha: f64) -> Claim {
    let mut counts = std::collections::BTreeMap::<Vec<u32>, u64>::new();
    let (perms, bad) = permutations(4, DRAWS, base, mutant);
    for dest in perms {
        *counts.entry(dest).or_default() += 1;
    }
    let mut cells: Vec<u64> = counts.values().copied().collect();
    cells.resize(24, 0);
    let p = chi_square_p(&cells);
    Claim {
        plot: None,
        name: "perm_uniform",
        reference: "000 §3.2, S-6: the exact permutation is uniform over S_n (n = 4)",
        n: u64::from(DRAWS),
        measured: with_bad(format!("p = {p:.2e} ({} of 24 permutations seen)", counts.len()), bad),
        bound: format!("p ≥ {alpha:.1e}"),
        ci: "χ², 23 degrees of freedom".into(),
        alpha: Some(alpha),
        verdict: (p >= alpha && bad == 0).into(),
    }
}

/// The size of the orbit of the ordered pair (0, 1) under the group that `gens` generate.
fn pair_orbit(gens: &[Vec<u32>]) -> usize {
    let mut seen = HashSet::from([(0u32, 1u32)]);
    let mut todo = vec![(0u32, 1u32)];
    while let Some((a, b)) = todo.pop() {
        for g in gens {
            let next = (g[a as usize], g[b as usize]);
            if seen.insert(next) {
                todo.push(next);
            }
        }
    }
    seen.len()
}

/// S-6's pseudo method (000 §3.2's practice): the fixed generators must
/// generate a 2-transitive group, or compositions can never make S's
/// partner uniform (eq. (4)): the orbit of an ordered pair must be all
/// n(n − 1) pairs. Exact, on `SETS` generator sets drawn as a run draws
/// them, at n = 16 and 64. Uniform generators fail only if all 8 lie in one
/// maximal non-2-transitive subgroup (index ≥ C(n, k) for the intransitive
/// ones, which dominate: probability ≈ 2·n^(−7)); XOR translations
/// (mutant `perm-generators-subgroup`) reach n pairs of the n(n − 1).
pub fn generators(base: u64, mutant: Option<Mutant>) -> Claim {
    let uniform = seams::poll_and_shuffle(mutant).uniform_generators;
    let mut short = Vec::new();
    for n in [16usize, 64] {
        for set in 0..SETS {
            let mut rng = stream(derive_seed(base, "generators", n as u32), set, Purpose::Permutation);
            let orbit = pair_orbit(&permutation::generators(n, &mut rng, uniform));
            if orbit < n * (n - 1) {
                short.push(format!("{orbit} of {} pairs at n = {n}", n * (n - 1)));
            }
        }
    }
    Claim::exact(
        "perm_generators",
        "000 §3.2, S-6: the pseudo method's generators act 2-transitively (orbit of a pair = all n(n−1) pairs)",
        u64::from(2 * SETS),
        match short.first() {
            None => "every set reaches every pair".into(),
            Some(e) => format!("{} sets fall short, e.g. {e}", short.len()),
        },
        "all n(n − 1) pairs, n = 16, 64",
        short.is_empty(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_orbits_of_known_groups() {
        let swap: Vec<u32> = vec![1, 0, 2, 3];
        let cycle: Vec<u32> = vec![1, 2, 3, 0];
        assert_eq!(pair_orbit(&[swap, cycle.clone()]), 12); // S_4
        assert_eq!(pair_orbit(&[cycle]), 4); // Z_4
    }
}
