//! Statistics for the bound tests (../shared/STATISTICS.md): exact
//! Clopper–Pearson bounds, exact binomial tails, the comparison of an
//! empirical tail with a bound, a t-based upper confidence bound of a mean
//! and the least-squares trend test. Every function takes its α; the suite
//! splits its family-wise α over its tests by Bonferroni ([`bonferroni`]).

use statrs::distribution::{Beta, Binomial, ContinuousCDF, DiscreteCDF, StudentsT};

/// Bonferroni: the α of each of `tests` tests so that the family-wise
/// false-alarm probability is at most `family`.
pub fn bonferroni(family: f64, tests: usize) -> f64 {
    family / tests.max(1) as f64
}

/// The exact one-sided Clopper–Pearson upper bound on p after `k` successes
/// in `n` trials: P(p > bound) ≤ α. (Beta(k+1, n−k) quantile 1 − α.)
pub fn clopper_pearson_upper(k: u64, n: u64, alpha: f64) -> f64 {
    assert!(k <= n && n > 0, "need 0 ≤ k ≤ n, n > 0");
    if k == n {
        return 1.0;
    }
    Beta::new((k + 1) as f64, (n - k) as f64).expect("valid beta").inverse_cdf(1.0 - alpha)
}

/// The exact one-sided Clopper–Pearson lower bound on p after `k` successes
/// in `n` trials: P(p < bound) ≤ α. (Beta(k, n−k+1) quantile α.)
pub fn clopper_pearson_lower(k: u64, n: u64, alpha: f64) -> f64 {
    assert!(k <= n && n > 0, "need 0 ≤ k ≤ n, n > 0");
    if k == 0 {
        return 0.0;
    }
    Beta::new(k as f64, (n - k + 1) as f64).expect("valid beta").inverse_cdf(alpha)
}

/// Exact P[X ≤ k] for X ~ Binomial(n, p).
pub fn binomial_lower_tail(n: u64, p: f64, k: u64) -> f64 {
    Binomial::new(p, n).expect("valid binomial").cdf(k)
}

/// Exact P[X ≥ k] for X ~ Binomial(n, p).
pub fn binomial_upper_tail(n: u64, p: f64, k: u64) -> f64 {
    match k {
        0 => 1.0,
        _ => Binomial::new(p, n).expect("valid binomial").sf(k - 1),
    }
}

/// An empirical tail set against a bound: `k` of `n` runs had the event
/// whose probability the bound claims to be at most `bound`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TailTest {
    /// Runs with the event.
    pub k: u64,
    /// Runs.
    pub n: u64,
    /// The claimed bound on the event's probability.
    pub bound: f64,
    /// The Clopper–Pearson lower confidence bound on the event's probability.
    pub lower: f64,
    /// The Clopper–Pearson upper confidence bound.
    pub upper: f64,
    /// False-alarm probability.
    pub alpha: f64,
}

impl TailTest {
    /// Compares `k` events in `n` runs with `bound` at level `alpha`.
    pub fn new(k: u64, n: u64, bound: f64, alpha: f64) -> TailTest {
        let (lower, upper) = (clopper_pearson_lower(k, n, alpha), clopper_pearson_upper(k, n, alpha));
        TailTest { k, n, bound, lower, upper, alpha }
    }

    /// Fails only if the event is more frequent than the bound with
    /// confidence 1 − α (lower bound above the bound): if the bound holds,
    /// the test fails with probability at most α.
    pub fn holds(&self) -> bool {
        self.lower <= self.bound
    }
}

/// The smallest number of runs with which a [`TailTest`] of `bound` at `alpha`
/// can fail at all (all runs having the event): ⌈ln α / ln bound⌉.
pub fn min_runs(alpha: f64, bound: f64) -> u64 {
    (alpha.ln() / bound.ln()).ceil().max(1.0) as u64
}

/// Mean, sample standard deviation and the one-sided t-based upper
/// confidence bound at level `alpha` of the mean of `ys` (independent runs).
pub fn mean_upper(ys: &[f64], alpha: f64) -> (f64, f64, f64) {
    let n = ys.len() as f64;
    assert!(ys.len() >= 2, "need two samples");
    let mean = ys.iter().sum::<f64>() / n;
    let sd = (ys.iter().map(|y| (y - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    (mean, sd, mean + t_quantile(n - 1.0, alpha) * sd / n.sqrt())
}

/// The quantile 1 − α of Student's t with `df` degrees of freedom.
pub fn t_quantile(df: f64, alpha: f64) -> f64 {
    StudentsT::new(0.0, 1.0, df).expect("valid t").inverse_cdf(1.0 - alpha)
}

/// A least-squares line y = a + b·x with the one-sided t-based upper
/// confidence bound on the slope b.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trend {
    /// Slope b.
    pub slope: f64,
    /// Intercept a.
    pub intercept: f64,
    /// Standard error of the slope.
    pub se: f64,
    /// b + t_(n−2, 1−α)·se: the slope is below this with confidence 1 − α.
    pub upper: f64,
    /// b − t_(n−2, 1−α)·se: the slope is above this with confidence 1 − α.
    pub lower: f64,
    /// Points.
    pub n: usize,
}

/// Fits y on x by least squares (needs ≥ 3 points and two distinct x).
pub fn trend(xs: &[f64], ys: &[f64], alpha: f64) -> Trend {
    assert!(xs.len() == ys.len() && xs.len() >= 3, "need ≥ 3 paired points");
    let n = xs.len() as f64;
    let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    let sxx: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
    assert!(sxx > 0.0, "need two distinct x");
    let sxy: f64 = xs.iter().zip(ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let sse: f64 = xs.iter().zip(ys).map(|(x, y)| (y - intercept - slope * x).powi(2)).sum();
    let se = (sse / (n - 2.0) / sxx).sqrt();
    let t = t_quantile(n - 2.0, alpha) * se;
    Trend { slope, intercept, se, upper: slope + t, lower: slope - t, n: xs.len() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1e-12)
    }

    #[test]
    fn clopper_pearson_by_hand() {
        // k = 0: the upper bound is 1 − α^(1/n).
        assert!(close(clopper_pearson_upper(0, 100, 1e-6), 0.129_036_410_043_919_4, 1e-6));
        assert!(close(clopper_pearson_upper(0, 20, 0.05), 0.139_108_340_668_265_2, 1e-6));
        // k = n: the lower bound is α^(1/n).
        assert!(close(clopper_pearson_lower(10, 10, 0.01), 0.01f64.powf(0.1), 1e-6));
        assert_eq!((clopper_pearson_lower(0, 5, 0.1), clopper_pearson_upper(5, 5, 0.1)), (0.0, 1.0));
        let (lo, hi) = (clopper_pearson_lower(30, 100, 1e-6), clopper_pearson_upper(30, 100, 1e-6));
        // duality with the exact tails: P[X ≥ 30 | lo] = α = P[X ≤ 30 | hi]
        assert!(close(binomial_upper_tail(100, lo, 30), 1e-6, 1e-4), "{lo}");
        assert!(close(binomial_lower_tail(100, hi, 30), 1e-6, 1e-4), "{hi}");
    }

    #[test]
    fn binomial_tails_by_hand() {
        // n = 4, p = 1/2: P[X ≤ 1] = 5/16, P[X ≥ 3] = 5/16, P[X ≥ 0] = 1.
        assert!(close(binomial_lower_tail(4, 0.5, 1), 5.0 / 16.0, 1e-9));
        assert!(close(binomial_upper_tail(4, 0.5, 3), 5.0 / 16.0, 1e-9));
        assert_eq!(binomial_upper_tail(4, 0.5, 0), 1.0);
    }

    #[test]
    fn tail_test_fails_only_on_strong_evidence() {
        assert!(TailTest::new(0, 50, 1e-9, 1e-6).holds());
        assert!(TailTest::new(2, 50, 0.05, 1e-6).holds());
        assert!(!TailTest::new(40, 50, 0.05, 1e-6).holds());
        assert_eq!(min_runs(1e-6, 0.05), 5); // 0.05^5 = 3.1e-7 ≤ 1e-6
        assert!(!TailTest::new(5, 5, 0.05, 1e-6).holds() && TailTest::new(4, 4, 0.05, 1e-6).holds());
    }

    #[test]
    fn mean_upper_and_t_by_hand() {
        // t_(∞, 0.975) → 1.96; t_(1, 0.95) = 6.3138.
        assert!(close(t_quantile(1.0, 0.05), 6.313_751_514_675_04, 1e-6));
        let (m, sd, up) = mean_upper(&[1.0, 2.0, 3.0], 0.05);
        assert_eq!((m, sd), (2.0, 1.0));
        assert!(close(up, 2.0 + 2.919_985_580_353_72 / 3f64.sqrt(), 1e-6));
    }

    #[test]
    fn trend_by_hand() {
        let t = trend(&[0.0, 1.0, 2.0, 3.0], &[1.0, 3.0, 5.0, 7.0], 0.05);
        assert_eq!((t.slope, t.intercept, t.se), (2.0, 1.0, 0.0));
        let t = trend(&[0.0, 1.0, 2.0], &[0.0, 1.0, 0.0], 0.05);
        // slope 0, sse = 2/3, sxx = 2: se = sqrt(2/3 / 1 / 2) = 0.57735
        assert!(close(t.se, 0.577_350_269_189_625_8, 1e-9) && t.slope == 0.0);
        assert!(close(t.upper, 6.313_751_514_675_04 * t.se, 1e-6) && close(t.lower, -t.upper, 1e-9));
    }
}
