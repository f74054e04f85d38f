//! Comparing a user's batch of runs (traces) with the reference's on the
//! same configuration (`lbcheck compare`): per quantity a two-sided
//! Mann–Whitney test at α (Bonferroni over the quantities), the medians,
//! their ratio and Cliff's delta, and a verdict in words.

use serde::Serialize;

use super::stats::bonferroni;
use super::twosample::{cliffs_delta, mann_whitney, median};
use crate::check::Metrics;

/// The fewest runs per side the normal approximation is trusted with.
pub const MIN_RUNS: usize = 20;

/// A quantity compared, and the words for "higher" and "lower".
struct Quantity {
    name: &'static str,
    value: fn(&Metrics) -> Option<f64>,
    /// (higher, lower).
    words: (&'static str, &'static str),
    /// Which direction is worse: `Some(true)` higher, `Some(false)` lower,
    /// `None` neither (reported only).
    worse_if_higher: Option<bool>,
}

const QUANTITIES: [Quantity; 4] = [
    Quantity { name: "efficiency", value: |m| m.efficiency, words: ("faster", "slower"), worse_if_higher: Some(false) },
    Quantity {
        name: "messages_per_pe",
        value: |m| (m.pes > 0).then(|| m.messages.values().sum::<u64>() as f64 / f64::from(m.pes)),
        words: ("more messages", "fewer messages"),
        worse_if_higher: Some(true),
    },
    Quantity {
        name: "detection_delay",
        value: |m| m.detection_delay.map(|d| d as f64),
        words: ("slower detection", "faster detection"),
        worse_if_higher: Some(true),
    },
    Quantity {
        name: "max_gen",
        value: |m| Some(f64::from(m.max_gen)),
        words: ("deeper splits", "shallower splits"),
        worse_if_higher: None,
    },
];

/// One quantity's comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// The quantity.
    pub quantity: &'static str,
    /// Runs with a value, user's and reference's.
    pub n: (usize, usize),
    /// Medians, user's and reference's.
    pub median: (f64, f64),
    /// User's median over the reference's.
    pub ratio: f64,
    /// Cliff's delta, user against reference (positive: the user's is higher).
    pub delta: f64,
    /// Two-sided p-value.
    pub p: f64,
    /// The test's α.
    pub alpha: f64,
    /// "consistent with the reference", or the direction ("slower", "more messages", …).
    pub verdict: String,
    /// True if significantly worse than the reference.
    pub worse: bool,
}

/// Every quantity of `user` against `reference`, at family-wise `alpha`.
pub fn compare(user: &[Metrics], reference: &[Metrics], alpha: f64) -> Vec<Comparison> {
    let each = bonferroni(alpha, QUANTITIES.len());
    QUANTITIES.iter().filter_map(|q| one(q, user, reference, each)).collect()
}

fn one(q: &Quantity, user: &[Metrics], reference: &[Metrics], alpha: f64) -> Option<Comparison> {
    let values = |ms: &[Metrics]| ms.iter().filter_map(|m| (q.value)(m)).filter(|v| v.is_finite()).collect::<Vec<_>>();
    let (xs, ys) = (values(user), values(reference));
    if xs.len() < MIN_RUNS || ys.len() < MIN_RUNS {
        return None;
    }
    let t = mann_whitney(&xs, &ys);
    let (mx, my) = (median(&xs), median(&ys));
    let higher = t.z > 0.0;
    let (verdict, worse) = match t.p < alpha {
        false => ("consistent with the reference".to_string(), false),
        true => (if higher { q.words.0 } else { q.words.1 }.to_string(), q.worse_if_higher == Some(higher)),
    };
    let ratio = if my != 0.0 { mx / my } else { f64::NAN };
    Some(Comparison {
        quantity: q.name,
        n: (xs.len(), ys.len()),
        median: (mx, my),
        ratio,
        delta: cliffs_delta(&xs, &ys),
        p: t.p,
        alpha,
        verdict,
        worse,
    })
}
