//! 004 Lemmas 6 and 7 as exact formula checks (S-11), like
//! [`crate::bounds::claims`]' `formula`: each bound must be ≥ the exact
//! tail of an instance that satisfies the lemma's hypothesis. The instance
//! is the two-point law X_i = (p − 1)·Bernoulli(1/(p − 1)): values in
//! [0, p − 1], conditional mean exactly 1, so Σ X_i ≥ αm exactly when
//! Binomial(m, 1/(p − 1)) ≥ αm/(p − 1).
//!
//! - Lemma 6: P[X ≥ αm] ≤ (1/2)^{αm/(p−1)} for α > 2e.
//! - Lemma 7: P\[Σ delays > βm\] < (1/2)^{(β−1)m/(p−1)} for β ≥ 2e + 1 (as
//!   stated; 004's proof drops the /(p − 1) in its last line, a misprint).
//!
//! A check on one law cannot prove a lemma; it catches a mistranscribed
//! bound, which is its purpose (the `lemma6-no-p` and `lemma7-no-p` mutants drop the /(p−1)).

use std::f64::consts::E;

use crate::bounds::claims::Claim;
use crate::bounds::stats::binomial_upper_tail;
use crate::mutants::Mutant;

/// A tail bound as a function of (m, p, α or β).
pub use crate::mutants::seams::Bound;

/// The grid: m, p, α (Lemma 6), β (Lemma 7).
pub const GRID: (&[u64], &[u64], &[f64], &[f64]) =
    (&[10, 100, 1000], &[2, 4, 16, 64], &[2.0 * E + 0.01, 6.0, 10.0], &[2.0 * E + 1.01, 7.0, 11.0]);

/// 004 Lemma 6's bound.
pub fn lemma6(m: u64, p: u64, alpha: f64) -> f64 {
    0.5f64.powf(alpha * m as f64 / (p - 1) as f64)
}

/// 004 Lemma 7's bound.
pub fn lemma7(m: u64, p: u64, beta: f64) -> f64 {
    0.5f64.powf((beta - 1.0) * m as f64 / (p - 1) as f64)
}

/// Lemma 6's bound as checked: the transcribed one, or the mutant's.
pub fn lemma6_as(mutant: Option<Mutant>) -> Bound {
    crate::mutants::seams::lemma6(mutant, lemma6)
}

/// Lemma 7's bound as checked: the transcribed one, or the mutant's.
pub fn lemma7_as(mutant: Option<Mutant>) -> Bound {
    crate::mutants::seams::lemma7(mutant, lemma7)
}

/// P[Binomial(m, 1/(p−1)) ≥ k].
fn tail(m: u64, p: u64, k: u64) -> f64 {
    binomial_upper_tail(m, 1.0 / (p - 1) as f64, k)
}

/// (violations, points) of Lemma 6's `bound` on the grid.
pub fn lemma6_violations(bound: Bound) -> (u64, u64) {
    count(GRID.2, |m, p, a| tail(m, p, (a * m as f64 / (p - 1) as f64).ceil() as u64) > bound(m, p, a) * (1.0 + 1e-9))
}

/// (violations, points) of Lemma 7's `bound` on the grid (strict: Σ > βm;
/// an impossible event, tail 0, holds even where the bound underflows to 0).
pub fn lemma7_violations(bound: Bound) -> (u64, u64) {
    count(GRID.3, |m, p, b| {
        let t = tail(m, p, (b * m as f64 / (p - 1) as f64).floor() as u64 + 1);
        t > 0.0 && t >= bound(m, p, b)
    })
}

fn count(params: &[f64], bad: impl Fn(u64, u64, f64) -> bool) -> (u64, u64) {
    let (ms, ps) = (GRID.0, GRID.1);
    let points = (ms.len() * ps.len() * params.len()) as u64;
    let violations = ms.iter().flat_map(|&m| ps.iter().flat_map(move |&p| params.iter().map(move |&x| (m, p, x))));
    (violations.filter(|&(m, p, x)| bad(m, p, x)).count() as u64, points)
}

/// The two exact claims `lemma6` and `lemma7`.
pub fn claims(mutant: Option<Mutant>) -> [Claim; 2] {
    let exact = |name, reference, (bad, n): (u64, u64)| {
        Claim::exact(name, reference, n, format!("{bad} violations"), "0", bad == 0)
    };
    [
        exact("lemma6", "004 Lemma 6: P[X ≥ αm] ≤ (1/2)^{αm/(p−1)} ≥ exact tail", lemma6_violations(lemma6_as(mutant))),
        exact(
            "lemma7",
            "004 Lemma 7: P[Σ > βm] < (1/2)^{(β−1)m/(p−1)} vs exact tail",
            lemma7_violations(lemma7_as(mutant)),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutants::Catcher;

    #[test]
    fn the_transcribed_lemmas_hold_on_the_grid() {
        assert_eq!(lemma6_violations(lemma6), (0, 36));
        assert_eq!(lemma7_violations(lemma7), (0, 36));
    }

    /// Power: dropping the /(p−1) fails the grid.
    #[test]
    fn lemma6_without_p_fails() {
        let shown = crate::mutants::CATALOGUE.iter().filter(|e| e.fails_under(Catcher::Bounds) == Some("lemma6"));
        let mutants: Vec<Mutant> = shown.map(|e| e.mutant).collect();
        assert_eq!(mutants.len(), 1);
        assert!(lemma6_violations(lemma6_as(Some(mutants[0]))).0 > 0);
        assert!(claims(Some(mutants[0]))[0].failed());
    }

    /// Power: dropping Lemma 7's /(p−1) fails the grid, and only `lemma7`.
    #[test]
    fn lemma7_without_p_fails() {
        let shown = crate::mutants::CATALOGUE.iter().filter(|e| e.fails_under(Catcher::Bounds) == Some("lemma7"));
        let mutants: Vec<Mutant> = shown.map(|e| e.mutant).collect();
        assert_eq!(mutants.len(), 1);
        assert!(lemma7_violations(lemma7_as(Some(mutants[0]))).0 > 0);
        let [six, seven] = claims(Some(mutants[0]));
        assert!(six.passed() && seven.failed());
    }
}
