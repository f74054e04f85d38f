//! Two-sample statistics for comparing a user's runs with the reference's
//! (`lbcheck compare`): the Mann–Whitney U test (no distributional
//! assumption; normal approximation with tie correction, valid for samples
//! of 20 or more), Cliff's delta as the effect size, and medians.

use statrs::distribution::{ContinuousCDF, Normal};

/// The outcome of a two-sided Mann–Whitney U test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MannWhitney {
    /// U of the first sample: the pairs (x, y) with x > y, ties counting ½.
    pub u: f64,
    /// The standardised U (positive: the first sample tends to be larger).
    pub z: f64,
    /// Two-sided p-value of "both samples come from one distribution".
    pub p: f64,
}

/// Mann–Whitney U test of `xs` against `ys` (both non-empty).
pub fn mann_whitney(xs: &[f64], ys: &[f64]) -> MannWhitney {
    let (n, m) = (xs.len() as f64, ys.len() as f64);
    let mut all: Vec<(f64, bool)> = xs.iter().map(|&x| (x, true)).chain(ys.iter().map(|&y| (y, false))).collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut rank_sum, mut ties, mut i) = (0.0, 0.0, 0);
    while i < all.len() {
        let j = (i..all.len()).find(|&j| all[j].0 != all[i].0).unwrap_or(all.len());
        let (t, mid_rank) = ((j - i) as f64, (i + j + 1) as f64 / 2.0); // ranks i+1..=j
        rank_sum += mid_rank * all[i..j].iter().filter(|(_, first)| *first).count() as f64;
        ties += t * t * t - t;
        i = j;
    }
    let u = rank_sum - n * (n + 1.0) / 2.0;
    let total = n + m;
    let var = n * m / 12.0 * ((total + 1.0) - ties / (total * (total - 1.0)));
    let z = if var > 0.0 { (u - n * m / 2.0) / var.sqrt() } else { 0.0 };
    let p = 2.0 * Normal::standard().cdf(-z.abs());
    MannWhitney { u, z, p: p.min(1.0) }
}

/// Cliff's delta: P(x > y) − P(x < y) over all pairs, in [−1, 1].
pub fn cliffs_delta(xs: &[f64], ys: &[f64]) -> f64 {
    let pairs = (xs.len() * ys.len()).max(1) as f64;
    let sign: f64 = xs.iter().flat_map(|x| ys.iter().map(move |y| x.total_cmp(y) as i32 as f64)).sum();
    sign / pairs
}

/// The median (`NaN` for an empty sample).
pub fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By hand: xs = {1, 2, 3}, ys = {4, 5, 6}: U = 0; with no ties
    /// var = 3·3·7/12 = 5.25, z = −4.5/√5.25 = −1.963961, p = 0.049535.
    #[test]
    fn mann_whitney_by_hand() {
        let t = mann_whitney(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]);
        assert_eq!(t.u, 0.0);
        assert!((t.z + 1.963_961).abs() < 1e-6 && (t.p - 0.049_535).abs() < 1e-5, "{t:?}");
        // Ties: {1, 2, 2} vs {2, 3}: pairs x > y: 0; ties x = y: 2 → U = 1.
        assert_eq!(mann_whitney(&[1.0, 2.0, 2.0], &[2.0, 3.0]).u, 1.0);
        // One distribution: p = 1.
        let same = mann_whitney(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]);
        assert!((same.p - 1.0).abs() < 1e-12 && same.z == 0.0);
    }

    #[test]
    fn cliffs_delta_and_median_by_hand() {
        assert_eq!(cliffs_delta(&[4.0, 5.0], &[1.0, 2.0]), 1.0);
        assert_eq!(cliffs_delta(&[1.0, 3.0], &[2.0, 2.0]), 0.0);
        assert_eq!((median(&[3.0, 1.0, 2.0]), median(&[4.0, 1.0, 2.0, 3.0])), (2.0, 2.5));
    }
}
