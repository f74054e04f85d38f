//! The serial bitonic sorting network (003 §14.3; S-25).

use super::Dir;

/// Compare-exchanges `a[i]`, `a[i + dist]` towards `dir` for every i of
/// each block of 2·dist: one level of a bitonic merge.
fn level(a: &mut [u64], dist: usize, dir: Dir) {
    for block in a.chunks_mut(2 * dist) {
        for i in 0..dist.min(block.len().saturating_sub(dist)) {
            let out_of_order = match dir {
                Dir::Incr => block[i] > block[i + dist],
                Dir::Decr => block[i] < block[i + dist],
            };
            if out_of_order {
                block.swap(i, i + dist);
            }
        }
    }
}

/// Bitonic merge of `a` (a bitonic sequence, length a power of two)
/// towards `dir`: 003's `sort(dir, len, B)`. Returns the array after each
/// level (half = len/2, len/4, …, 1), as 003 Table 14.1 shows them.
pub fn merge(a: &mut [u64], dir: Dir) -> Vec<Vec<u64>> {
    let mut levels = Vec::new();
    let mut dist = a.len() / 2;
    while dist >= 1 {
        level(a, dist, dir);
        levels.push(a.to_vec());
        dist /= 2;
    }
    levels
}

/// Sorts `a` (length a power of two) increasing with the bitonic network:
/// for len = 2, 4, …, n, blocks of len merged INCR, DECR, INCR, … (the
/// last block of the last len, the whole array, INCR).
pub fn sort(a: &mut [u64]) {
    assert!(a.len().is_power_of_two() || a.is_empty(), "the network sorts 2^k keys");
    let mut len = 2;
    while len <= a.len() {
        for (k, block) in a.chunks_mut(len).enumerate() {
            merge(block, if k % 2 == 0 { Dir::Incr } else { Dir::Decr });
        }
        len *= 2;
    }
}

/// The 0-1 principle (Knuth 5.3.4): a comparator network sorts every input
/// iff it sorts every 0-1 input. Runs `network` on all 2^n 0-1 inputs of
/// length n (n ≤ 20); returns the first input it leaves unsorted.
pub fn zero_one_counterexample(n: usize, network: impl Fn(&mut [u64])) -> Option<Vec<u64>> {
    (0u32..1 << n).map(|bits| (0..n).map(|i| u64::from(bits >> i & 1)).collect::<Vec<_>>()).find(|input| {
        let mut a = input.clone();
        network(&mut a);
        !a.windows(2).all(|w| w[0] <= w[1])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 003 Table 14.1 and S-25's small examples, level by level.
    #[test]
    fn table_14_1_and_the_small_examples() {
        let mut a = [1, 5, 6, 9, 8, 7, 3, 0];
        assert_eq!(
            merge(&mut a, Dir::Incr),
            [vec![1, 5, 3, 0, 8, 7, 6, 9], vec![1, 0, 3, 5, 6, 7, 8, 9], vec![0, 1, 3, 5, 6, 7, 8, 9]]
        );
        assert_eq!(merge(&mut [3, 5, 6, 2], Dir::Incr), [vec![3, 2, 6, 5], vec![2, 3, 5, 6]]);
        assert_eq!(merge(&mut [1, 9, 8, 0], Dir::Decr), [vec![8, 9, 1, 0], vec![9, 8, 1, 0]]);
    }

    #[test]
    fn the_network_sorts_every_0_1_input_up_to_16() {
        for k in 0..=4 {
            assert_eq!(zero_one_counterexample(1 << k, sort), None, "n = {}", 1 << k);
        }
        let mut a: Vec<u64> = (0..64).map(|i| (i * 37 + 11) % 64).collect();
        sort(&mut a);
        assert_eq!(a, (0..64).collect::<Vec<_>>());
    }

    /// The check can fail: a network missing its last level does not sort.
    #[test]
    fn a_truncated_network_fails_the_0_1_check() {
        let broken = |a: &mut [u64]| {
            let n = a.len();
            for (k, block) in a.chunks_mut(n / 2).enumerate() {
                merge(block, if k % 2 == 0 { Dir::Incr } else { Dir::Decr });
            }
        };
        assert!(zero_one_counterexample(8, broken).is_some());
    }
}
