//! The formula check: over a grid of (n, p, ε, α), each Chernoff bound of
//! 000 Lemma 1 is ≥ the exact binomial tail (catches transcription errors).

use crate::bounds::papers::{chernoff_lower, chernoff_upper};
use crate::bounds::stats::{binomial_lower_tail, binomial_upper_tail};
use crate::mutants::{seams, Mutant};

pub use crate::mutants::seams::Tail;

/// The lower and upper tails of 000 Lemma 1 as checked: the transcribed
/// ones, or the ones a formula mutant breaks.
pub fn tails(mutant: Option<Mutant>) -> (Tail, Tail) {
    seams::chernoff(mutant, (chernoff_lower, chernoff_upper))
}

/// The grid: n, p, ε (eq. (2)) and α (eq. (3)).
pub const GRID: (&[u64], &[f64], &[f64], &[f64]) =
    (&[10, 100, 1000, 10_000], &[0.01, 0.1, 0.3, 0.5, 0.9], &[0.1, 0.3, 0.5, 0.9], &[1.1, 1.5, 2.0, 4.0]);

/// (violations, grid points) of `lower(n, p, ε)` ≥ P[X ≤ (1−ε)np] and
/// `upper(n, p, α)` ≥ P[X ≥ αnp] (α·p ≤ 1 only; above, the tail is 0).
pub fn formula_violations(lower: Tail, upper: Tail) -> (u64, u64) {
    let (ns, ps, epss, alphas) = GRID;
    let (mut bad, mut points) = (0, 0);
    for &n in ns {
        for &p in ps {
            for &eps in epss {
                let k = ((1.0 - eps) * n as f64 * p).floor() as u64;
                points += 1;
                bad += (binomial_lower_tail(n, p, k) > lower(n, p, eps) * (1.0 + 1e-9)) as u64;
            }
            for &a in alphas.iter().filter(|&&a| a * p <= 1.0) {
                let k = (a * n as f64 * p).ceil() as u64;
                points += 1;
                bad += (binomial_upper_tail(n, p, k) > upper(n, p, a) * (1.0 + 1e-9)) as u64;
            }
        }
    }
    (bad, points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutants::Catcher;

    #[test]
    fn the_transcribed_bounds_pass() {
        let (bad, n) = formula_violations(chernoff_lower, chernoff_upper);
        assert_eq!(bad, 0);
        assert!(n > 100);
    }

    /// Power: the formula mutants (typical transcription errors) fail the grid.
    #[test]
    fn mistranscribed_bounds_fail() {
        let formula = crate::mutants::CATALOGUE.iter().filter(|e| e.fails_under(Catcher::Bounds) == Some("formula"));
        let mutants: Vec<Mutant> = formula.map(|e| e.mutant).collect();
        assert_eq!(mutants.len(), 2);
        for m in mutants {
            let (lower, upper) = tails(Some(m));
            assert!(formula_violations(lower, upper).0 > 0, "{m}");
        }
    }
}
