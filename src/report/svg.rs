//! The little SVG the report's figures need, written by hand so that every
//! mark carries a class a test can find in the browser's DOM: `data` holds
//! what was measured, `legend` says what the marks mean (and is kept out of
//! the data's area), `outlier` marks values beyond the axis.
//!
//! [`Axis`] maps values to pixels on a linear, log10 or log2 scale and
//! chooses its ticks; [`num`] writes coordinates compactly.

use std::fmt::Write;

pub use super::junit::escape;

/// How an axis maps values to positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Equal steps for equal differences.
    Linear,
    /// Equal steps for equal ratios, ticks at powers of ten (values > 0).
    Log10,
    /// Equal steps for doublings, ticks at powers of two (values > 0).
    Log2,
}

/// An axis: a value range, its scale and its label (with the unit).
#[derive(Clone, Debug)]
pub struct Axis {
    /// The smallest value shown.
    pub lo: f64,
    /// The largest value shown.
    pub hi: f64,
    /// How values map to positions.
    pub scale: Scale,
    /// What the axis shows and in which unit, e.g. "time (work units)".
    pub label: String,
}

impl Axis {
    /// The axis over `lo..=hi` (widened when empty; made positive on a log scale).
    pub fn new(lo: f64, hi: f64, scale: Scale, label: impl Into<String>) -> Axis {
        let (mut lo, mut hi) = (lo.min(hi), hi.max(lo));
        if scale != Scale::Linear {
            lo = lo.max(f64::MIN_POSITIVE);
            hi = hi.max(lo);
        }
        if hi <= lo {
            (lo, hi) = match scale {
                Scale::Linear => (lo - 0.5, hi + 0.5),
                Scale::Log10 | Scale::Log2 => (lo / 2.0, hi * 2.0),
            };
        }
        Axis { lo, hi, scale, label: label.into() }
    }

    fn f(&self, v: f64) -> f64 {
        match self.scale {
            Scale::Linear => v,
            Scale::Log10 => v.log10(),
            Scale::Log2 => v.log2(),
        }
    }

    /// Where `v` falls, 0 at `lo` and 1 at `hi` (outside 0..=1 beyond them).
    pub fn frac(&self, v: f64) -> f64 {
        (self.f(v) - self.f(self.lo)) / (self.f(self.hi) - self.f(self.lo))
    }

    /// True if `v` can be drawn on this axis (finite, and positive on a log scale).
    pub fn shows(&self, v: f64) -> bool {
        v.is_finite() && (self.scale == Scale::Linear || v > 0.0)
    }

    /// The ticks: (value, label), inside the range.
    pub fn ticks(&self) -> Vec<(f64, String)> {
        let inside = |v: &f64| *v >= self.lo * (1.0 - 1e-9) && *v <= self.hi * (1.0 + 1e-9);
        let values: Vec<f64> = match self.scale {
            Scale::Linear => linear_ticks(self.lo, self.hi),
            Scale::Log2 => {
                (self.lo.log2().ceil() as i32..=self.hi.log2().floor() as i32).map(|k| 2f64.powi(k)).collect()
            }
            Scale::Log10 => log10_ticks(self.lo, self.hi),
        };
        values.into_iter().filter(inside).map(|v| (v, label(v))).collect()
    }
}

/// Five to ten ticks at 1, 2 or 5 times a power of ten.
fn linear_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let raw = (hi - lo) / 7.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    (first..).map(|i| i as f64 * step).take_while(|v| *v <= hi + step * 1e-9).collect()
}

/// Powers of ten; with 1, 2 and 5 times them when fewer than three decades show.
fn log10_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let mults: &[f64] = if b - a < 3 { &[1.0, 2.0, 5.0] } else { &[1.0] };
    (a..=b).flat_map(|k| mults.iter().map(move |m| m * 10f64.powi(k))).collect()
}

/// A tick label: `0.05`, `2`, `150`, `20k`, `3M`.
pub fn label(v: f64) -> String {
    let a = v.abs();
    match a {
        _ if a >= 1e6 => format!("{}M", trim(v / 1e6)),
        _ if a >= 1e4 => format!("{}k", trim(v / 1e3)),
        _ => trim(v),
    }
}

/// `v` with at most three significant decimals and no trailing zeros.
fn trim(v: f64) -> String {
    let s = if v.abs() >= 100.0 { format!("{v:.0}") } else { format!("{v:.3}") };
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    if s == "-0" {
        "0".into()
    } else {
        s
    }
}

/// A coordinate with one decimal (none if whole): SVG text stays short.
pub fn num(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// An SVG document's opening tag of `w` × `h` pixels with `class`.
pub fn open(w: f64, h: f64, class: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"{class}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"11\">\n",
        w = num(w),
        h = num(h)
    )
}

/// A `<text>` at (x, y) with `anchor` (start, middle, end) and extra attributes.
pub fn text(out: &mut String, (x, y): (f64, f64), anchor: &str, attrs: &str, s: &str) {
    let _ =
        writeln!(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\"{attrs}>{}</text>", num(x), num(y), escape(s));
}

/// A series colour (a colour-blind-safe palette, Okabe-Ito), by index.
pub fn colour(i: usize) -> &'static str {
    const PALETTE: [&str; 8] = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#F0E442"];
    PALETTE[i % PALETTE.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_axes_tick_at_powers() {
        let p = Axis::new(2.0, 64.0, Scale::Log2, "P");
        assert_eq!(p.ticks().iter().map(|t| t.1.as_str()).collect::<Vec<_>>(), ["2", "4", "8", "16", "32", "64"]);
        let y = Axis::new(0.8, 20_000.0, Scale::Log10, "slowdown");
        assert_eq!(y.ticks().iter().map(|t| t.1.as_str()).collect::<Vec<_>>(), ["1", "10", "100", "1000", "10k"]);
        assert!((y.frac(0.8) - 0.0).abs() < 1e-12 && (y.frac(20_000.0) - 1.0).abs() < 1e-12);
        let narrow = Axis::new(0.9, 3.0, Scale::Log10, "");
        assert_eq!(narrow.ticks().iter().map(|t| t.1.as_str()).collect::<Vec<_>>(), ["1", "2"]);
    }

    #[test]
    fn linear_axes_tick_at_round_steps() {
        let t = Axis::new(0.0, 65_709.0, Scale::Linear, "t");
        assert_eq!(
            t.ticks().iter().map(|t| t.1.as_str()).collect::<Vec<_>>(),
            ["0", "10k", "20k", "30k", "40k", "50k", "60k"]
        );
        assert_eq!(
            Axis::new(0.0, 0.0, Scale::Linear, "").ticks().len(),
            5,
            "an empty range is widened: -0.4..0.4 by 0.2"
        );
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!((num(3.0), num(2.25), num(-0.04)), ("3".into(), "2.3".into(), "0".into()));
        assert_eq!((label(0.05), label(1500.0), label(2.5e6)), ("0.05".into(), "1500".into(), "2.5M".into()));
    }
}
