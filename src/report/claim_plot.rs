//! The plot of one claim on its paper's page ([`super::paper`]): the test
//! runs against the fitted constant, the test's limit and the claim's
//! confidence band (the interval its test computed, [`Band`]); for an
//! exact claim each run's value over its bound against 1, or a sentence
//! saying why nothing is drawn.

use super::plots::{Chart, Line, Series, Shade, P_AXIS};
use super::svg::{colour, escape};
use crate::bounds::claims::{Band, Claim, Plot, MARGIN, Q0, SLOPE_TOL};

/// The figure of claim `c` titled with `at` (its § or equation).
pub fn figure(at: &str, c: &Claim) -> String {
    match &c.plot {
        Some(p) if p.exact.is_some() => exact(at, c, p),
        Some(p) => fitted(at, c, p),
        None => format!("<p class=\"noplot\"><b>No plot</b>: {}</p>\n", why_not(c)),
    }
}

fn x_label(c: &Claim) -> &'static str {
    if c.name.ends_with("_trend_h") {
        "h (tree height, log2 scale)"
    } else {
        P_AXIS
    }
}

fn chart(at: &str, c: &Claim, p: &Plot, lines: &[Line], shades: &[Shade], y_label: &str) -> String {
    let title = format!("{} ({at})", c.name);
    let series = vec![(Series { label: "test runs", points: p.points.clone() }, colour(0))];
    Chart { title: &title, x_label: x_label(c), y_label, series, lines, shades, size: (640.0, 340.0) }.svg()
}

fn unfinished(p: &Plot) -> String {
    match p.points.iter().filter(|(_, y)| !y.is_finite()).count() {
        0 => String::new(),
        n => format!(" Unfinished test runs (value ∞, not drawn): {n}."),
    }
}

/// Test runs against the fitted constant, the limit and the band.
fn fitted(at: &str, c: &Claim, p: &Plot) -> String {
    let fit = format!("fitted constant {:.3}", p.fitted);
    let limit = format!("test limit (1 + {MARGIN})·fit = {:.3}", p.limit);
    let lines = [Line { label: &fit, y: p.fitted }, Line { label: &limit, y: p.limit }];
    let alpha = c.alpha.unwrap_or(0.0);
    let (label, shades, band) = match &p.band {
        Some(b) => {
            let (label, edges, what) = band(b, p, alpha);
            (label, vec![Shade { label: "", edges }], what)
        }
        None => (String::new(), vec![], "No band: the test has unfinished runs.".into()),
    };
    let shades: Vec<Shade> = shades.into_iter().map(|s| Shade { label: &label, ..s }).collect();
    let axis = if x_label(c) == P_AXIS { "P" } else { "h" };
    format!(
        "<figure class=\"plot\">\n{}<figcaption>Each dot is a test run's normalised value ({}); the lower line is the constant the O() hides, fitted on the calibration runs, the upper one the limit the test holds the runs to. {band} A reader should see the runs under the upper line with no upward drift as {axis} grows; a failing balancer shows runs above it (▲ on the top edge) or a cloud that climbs with the axis. Confidence: {}.{}</figcaption></figure>\n",
        chart(at, c, p, &lines, &shades, "normalised value (ratio)"),
        escape(c.reference),
        escape(&c.ci),
        unfinished(p)
    )
}

/// The band's legend label, edges and caption sentence.
fn band(b: &Band, p: &Plot, alpha: f64) -> (String, Vec<(f64, f64, f64)>, String) {
    let xs = p.points.iter().map(|q| f64::from(q.0.max(1)));
    let (lo, hi) = xs.fold((f64::MAX, 0.0f64), |(a, b), x| (a.min(x), b.max(x)));
    match *b {
        Band::Exceed { rate: (l, u), values: (vl, vh) } => (
            format!("exceed-rate interval [{l:.3}, {u:.3}]"),
            vec![(lo / 1.4, vl, vh), (hi * 1.4, vl, vh)],
            format!("Shaded: the claim's confidence band, the values the test runs exceed at a rate inside the Clopper–Pearson interval [{l:.3}, {u:.3}] on the rate of runs above the limit (each end at confidence 1 − α, α = {alpha:.1e}; two-sided 1 − 2α); the claim fails when the interval's lower end passes the rate the bound allows (Q0 = {Q0}; 1/P for 001 Thm 2)."),
        ),
        Band::Trend { centre: (mx, my), slope, lower } => {
            let at = |x: f64, s: f64| p.fitted * (my + s * (x.log2() - mx));
            let edges = (0..=12)
                .map(|i| lo * (hi / lo).powf(f64::from(i) / 12.0))
                .map(|x| (x, at(x, slope).min(at(x, lower)), at(x, slope).max(at(x, lower))))
                .collect();
            (
                format!("trend, slope ≥ {lower:+.3} (1 − α)"),
                edges,
                format!("Shaded: the claim's confidence band, between the least-squares trend ({slope:+.4} per doubling, of value/fit) and the trend with the slope's lower confidence bound {lower:+.4} (confidence 1 − α, α = {alpha:.1e}), both through the runs' centre; the claim fails when that bound passes {SLOPE_TOL} per doubling (evidence of a rise steeper than the tolerance)."),
            )
        }
    }
}

/// An exact claim's runs over their bound, against 1.
fn exact(at: &str, c: &Claim, p: &Plot) -> String {
    let what = p.exact.unwrap_or("value/bound");
    let label = format!("exact bound: {what}");
    let lines = [Line { label: &label, y: 1.0 }];
    let side = if what.contains('≥') { "on or above" } else { "on or below" };
    format!(
        "<figure class=\"plot\">\n{}<figcaption>Each dot is a test run's measured value over its exact bound ({}); the line is the bound, 1. A reader should see every run {side} the line: the check is exact (no α), so a single run on the wrong side fails it.{}</figcaption></figure>\n",
        chart(at, c, p, &lines, &[], "value / bound (ratio)"),
        escape(what),
        unfinished(p)
    )
}

/// Why an exact or pooled claim has no plot.
fn why_not(c: &Claim) -> &'static str {
    match c.name {
        "formula" | "lemma6" | "lemma7" => "checked on a grid of parameters against exact binomial tails, not on runs; there is no per-run quantity, the measurement is the count of grid points where the bound is violated.",
        "invariants" => "each run passes or fails the properties of check/; there is no per-run quantity to draw against a bound.",
        "victims_uniform" => "a χ² test on the requests' offsets pooled per P; its p-values are in the table.",
        "lemma3" | "queue" => "a test of a rate or a mean over all test runs against the paper's bound; the interval is in the table.",
        "v_p" => "V(P) + s = P holds exactly or not on each run; the count of runs that break it is the measurement.",
        _ => "the check counts the runs (or cases) that break an exact fact; the suite keeps no per-run quantity to draw against the bound.",
    }
}
