//! Scatter plots against P for the campaign report, as SVG ([`super::svg`]):
//! P on a log2 axis, the quantity on a log10 axis when it spans orders of
//! magnitude, reference lines for fitted constants, the legend in its own
//! column beside the plotting area (never over the data), and outliers
//! drawn as ▲ (▼) on the axis' edge with their value in a tooltip instead
//! of stretching the axis.

use std::fmt::Write;

use super::svg::{self, colour, num, Axis, Scale};

/// One series of points (x = P, y = the quantity).
pub struct Series<'a> {
    /// Legend label.
    pub label: &'a str,
    /// The points.
    pub points: Vec<(u32, f64)>,
}

/// A horizontal line at `y` with a legend label.
pub struct Line<'a> {
    /// Legend label.
    pub label: &'a str,
    /// Height.
    pub y: f64,
}

/// A shaded band with a legend label: (x, lower edge, upper edge) at
/// increasing x, in the values' units (e.g. a claim's confidence band).
pub struct Shade<'a> {
    /// Legend label.
    pub label: &'a str,
    /// The edges.
    pub edges: Vec<(f64, f64, f64)>,
}

/// A scatter plot against P.
pub struct Chart<'a> {
    /// The title, above the plotting area.
    pub title: &'a str,
    /// The x axis' label, with its unit (log2 scale).
    pub x_label: &'a str,
    /// The y axis' label, with its unit.
    pub y_label: &'a str,
    /// The series, each with its colour.
    pub series: Vec<(Series<'a>, &'static str)>,
    /// Reference lines.
    pub lines: &'a [Line<'a>],
    /// Shaded bands, under the points.
    pub shades: &'a [Shade<'a>],
    /// Width and height in pixels, the legend's column included.
    pub size: (f64, f64),
}

/// A scatter plot of `series` against log2 P with `lines` (colours in
/// order), 640 × 360: an empty string if there is nothing to draw.
pub fn scatter(title: &str, y_label: &str, series: Vec<Series>, lines: &[Line]) -> String {
    let series = series.into_iter().enumerate().map(|(i, s)| (s, colour(i))).collect();
    Chart { title, x_label: P_AXIS, y_label, series, lines, shades: &[], size: (640.0, 360.0) }.svg()
}

/// The x axis of a plot against P.
pub const P_AXIS: &str = "P (PEs, log2 scale)";

/// The plotting area: left, top, right, bottom in pixels.
#[derive(Clone, Copy)]
struct Area {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

impl Area {
    fn x(&self, a: &Axis, v: f64) -> f64 {
        self.left + a.frac(v) * (self.right - self.left)
    }

    fn y(&self, a: &Axis, v: f64) -> f64 {
        self.bottom - a.frac(v) * (self.bottom - self.top)
    }
}

/// Values beyond these are drawn as outliers on the axis' edge.
struct Fences {
    lo: f64,
    hi: f64,
}

impl Chart<'_> {
    /// The SVG document (empty if no point is finite).
    pub fn svg(&self) -> String {
        let ys: Vec<f64> = self.points().map(|(_, y)| y).filter(|y| y.is_finite()).collect();
        if ys.is_empty() {
            return String::new();
        }
        let (y_axis, fences) = self.y_axis(&ys);
        let x_axis = self.x_axis();
        let legend_w = self.legend_width();
        let (w, h) = self.size;
        let area = Area { left: 58.0, top: 36.0, right: w - legend_w - 14.0, bottom: h - 42.0 };
        let mut out = svg::open(w, h, "chart");
        svg::text(&mut out, (area.left, 15.0), "start", " font-weight=\"bold\" font-size=\"13\"", self.title);
        frame(&mut out, area, &x_axis, &y_axis);
        let outside = self.data(&mut out, area, (&x_axis, &y_axis), &fences);
        if outside > 0 {
            let note = format!("{outside} value(s) beyond the axis: ▲ above, ▼ below (hover for each)");
            svg::text(&mut out, (area.left, 29.0), "start", " font-size=\"10\" fill=\"#555\"", &note);
        }
        self.legend(&mut out, (area.right + 14.0, area.top));
        out + "</svg>\n"
    }

    fn points(&self) -> impl Iterator<Item = (u32, f64)> + '_ {
        self.series.iter().flat_map(|(s, _)| s.points.iter().copied())
    }

    fn x_axis(&self) -> Axis {
        let ps = self.points().map(|(p, _)| f64::from(p.max(1)));
        let (lo, hi) = ps.fold((f64::MAX, 1.0f64), |(lo, hi), p| (lo.min(p), hi.max(p)));
        Axis::new(lo / 1.4, hi * 1.4, Scale::Log2, self.x_label)
    }

    /// A log10 axis if nine in ten values are positive and those span more
    /// than a factor 30 (the others then fall below it), else linear from
    /// 0; fences 3 interquartile ranges beyond the quartiles (of the
    /// logarithms on a log axis).
    fn y_axis(&self, ys: &[f64]) -> (Axis, Fences) {
        let edges = self.shades.iter().flat_map(|s| s.edges.iter().flat_map(|e| [e.1, e.2]));
        let refs = self.lines.iter().map(|l| l.y).chain(edges).filter(|y| y.is_finite());
        let log = wants_log(ys, refs.clone());
        let f = |y: f64| if log { y.log10() } else { y };
        let mut sorted: Vec<f64> = ys.iter().map(|&y| f(y)).filter(|v| v.is_finite()).collect();
        sorted.sort_by(f64::total_cmp);
        let q = |p: f64| sorted[((sorted.len() - 1) as f64 * p).round() as usize];
        let spread = (q(0.75) - q(0.25)).max(if log { 0.5 } else { q(0.75).abs() * 0.5 });
        let (lo_f, hi_f) = (q(0.25) - 3.0 * spread, q(0.75) + 3.0 * spread);
        let inv = |v: f64| if log { 10f64.powf(v) } else { v };
        let fences = Fences { lo: inv(lo_f), hi: inv(hi_f) };
        let kept = ys.iter().copied().filter(|&y| y >= fences.lo && y <= fences.hi).chain(refs);
        let (lo, hi) = kept.filter(|&y| !log || y > 0.0).fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
        let label = format!("{}{}", self.y_label, if log { ", log scale" } else { "" });
        let axis = match log {
            true => Axis::new(lo / 1.3, hi * 1.3, Scale::Log10, label),
            false => Axis::new(lo.min(0.0), hi * 1.08 + f64::EPSILON, Scale::Linear, label),
        };
        (axis, fences)
    }

    /// The points, outliers and lines in `<g class="data">`: the number of outliers.
    fn data(&self, out: &mut String, area: Area, (xa, ya): (&Axis, &Axis), fences: &Fences) -> usize {
        out.push_str("<g class=\"data\">\n");
        for s in self.shades {
            shade(out, area, (xa, ya), s);
        }
        let mut outside = 0;
        for (s, c) in &self.series {
            for (i, &(p, y)) in s.points.iter().enumerate().filter(|(_, (_, y))| y.is_finite()) {
                let x = area.x(xa, f64::from(p.max(1))) + jitter(i);
                let beyond = y > fences.hi || y < fences.lo || !ya.shows(y);
                match beyond {
                    true => outside += outlier(out, x, area, y >= fences.hi, c, s.label, (p, y)),
                    false => {
                        let _ = writeln!(
                            out,
                            "<circle class=\"pt\" cx=\"{}\" cy=\"{}\" r=\"2.5\" fill=\"{c}\" fill-opacity=\"0.55\"/>",
                            num(x),
                            num(area.y(ya, y))
                        );
                    }
                }
            }
        }
        for (i, l) in self.lines.iter().enumerate().filter(|(_, l)| ya.shows(l.y)) {
            let y = num(area.y(ya, l.y));
            let _ = writeln!(
                out,
                "<line class=\"ref\" x1=\"{}\" x2=\"{}\" y1=\"{y}\" y2=\"{y}\" stroke=\"{}\" stroke-width=\"1.5\" stroke-dasharray=\"{}\"/>",
                num(area.left),
                num(area.right),
                line_colour(i),
                line_dash(i)
            );
        }
        out.push_str("</g>\n");
        outside
    }

    fn legend_width(&self) -> f64 {
        let labels = self.series.iter().map(|(s, _)| s.label).chain(self.lines.iter().map(|l| l.label));
        let labels = labels.chain(self.shades.iter().map(|s| s.label));
        let longest = labels.map(|l| l.chars().count()).max().unwrap_or(0);
        (longest as f64 * 6.3 + 26.0).clamp(70.0, 220.0)
    }

    /// The legend in its own column at `(x, y)`, right of the plotting area.
    fn legend(&self, out: &mut String, (x, y): (f64, f64)) {
        let _ = writeln!(out, "<g class=\"legend\" transform=\"translate({},{})\">", num(x), num(y));
        let mut row = 0.0;
        for (s, c) in &self.series {
            let _ = writeln!(out, "<circle cx=\"5\" cy=\"{}\" r=\"4\" fill=\"{c}\"/>", num(row + 6.0));
            svg::text(out, (14.0, row + 10.0), "start", "", s.label);
            row += 16.0;
        }
        for (i, l) in self.lines.iter().enumerate() {
            let (c, d) = (line_colour(i), line_dash(i));
            let y = num(row + 6.0);
            let _ = writeln!(out, "<line x1=\"0\" x2=\"11\" y1=\"{y}\" y2=\"{y}\" stroke=\"{c}\" stroke-width=\"1.5\" stroke-dasharray=\"{d}\"/>");
            svg::text(out, (14.0, row + 10.0), "start", "", l.label);
            row += 16.0;
        }
        for s in self.shades {
            let _ = writeln!(
                out,
                "<rect x=\"0\" y=\"{}\" width=\"11\" height=\"9\" fill=\"{SHADE}\" fill-opacity=\"0.3\"/>",
                num(row + 2.0)
            );
            svg::text(out, (14.0, row + 10.0), "start", "", s.label);
            row += 16.0;
        }
        out.push_str("</g>\n");
    }
}

const SHADE: &str = "#E69F00";

/// `s` as a polygon (class `band`) clipped to the plotting area.
fn shade(out: &mut String, area: Area, (xa, ya): (&Axis, &Axis), s: &Shade) {
    let at = |x: f64, y: f64| {
        let fx = if xa.shows(x) { xa.frac(x).clamp(0.0, 1.0) } else { 0.0 };
        let fy = if ya.shows(y) { ya.frac(y).clamp(0.0, 1.0) } else { 0.0 };
        let px = area.left + fx * (area.right - area.left);
        format!("{},{}", num(px), num(area.bottom - fy * (area.bottom - area.top)))
    };
    let upper = s.edges.iter().map(|e| at(e.0, e.2));
    let lower = s.edges.iter().rev().map(|e| at(e.0, e.1));
    let points: Vec<String> = upper.chain(lower).collect();
    let _ = writeln!(
        out,
        "<polygon class=\"band\" points=\"{}\" fill=\"{SHADE}\" fill-opacity=\"0.3\" stroke=\"none\"/>",
        points.join(" ")
    );
}

/// True if at least nine in ten of `ys` are positive and the positive
/// values (with `refs`) span more than a factor 30.
fn wants_log(ys: &[f64], refs: impl Iterator<Item = f64>) -> bool {
    let positive: Vec<f64> = ys.iter().copied().filter(|&y| y > 0.0).collect();
    let (min, max) = positive
        .iter()
        .copied()
        .chain(refs.filter(|&y| y > 0.0))
        .fold((f64::MAX, 0.0f64), |(a, b), y| (a.min(y), b.max(y)));
    positive.len() * 10 >= ys.len() * 9 && max / min > 30.0
}

/// A few pixels left or right, fixed per point: points at one P stay apart.
fn jitter(i: usize) -> f64 {
    ((i * 7919) % 11) as f64 * 0.9 - 4.5
}

fn line_colour(i: usize) -> &'static str {
    ["#C00000", "#000000", "#666666"][i % 3]
}

fn line_dash(i: usize) -> &'static str {
    ["6 3", "2 2", "8 2 2 2"][i % 3]
}

/// ▲ on the top edge (`high`) or ▼ on the bottom one, with the value as a tooltip: 1.
fn outlier(out: &mut String, x: f64, area: Area, high: bool, c: &str, label: &str, (p, y): (u32, f64)) -> usize {
    let d = match high {
        true => format!("M{},{}l-4,7h8z", num(x), num(area.top + 1.0)),
        false => format!("M{},{}l-4,-7h8z", num(x), num(area.bottom - 1.0)),
    };
    let title = svg::escape(&format!("{label}: P = {p}, {}", svg::label(y)));
    let _ = writeln!(out, "<path class=\"pt outlier\" d=\"{d}\" fill=\"{c}\"><title>{title}</title></path>");
    1
}

/// The frame, the grid, the ticks and both axes' labels.
fn frame(out: &mut String, a: Area, xa: &Axis, ya: &Axis) {
    let (l, t, r, b) = (num(a.left), num(a.top), num(a.right), num(a.bottom));
    out.push_str("<g class=\"axes\" stroke=\"#ddd\">\n");
    for (v, _) in xa.ticks() {
        let x = num(a.x(xa, v));
        let _ = writeln!(out, "<line x1=\"{x}\" x2=\"{x}\" y1=\"{t}\" y2=\"{b}\"/>");
    }
    for (v, _) in ya.ticks() {
        let y = num(a.y(ya, v));
        let _ = writeln!(out, "<line x1=\"{l}\" x2=\"{r}\" y1=\"{y}\" y2=\"{y}\"/>");
    }
    let _ = writeln!(
        out,
        "<rect x=\"{l}\" y=\"{t}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#888\"/>",
        num(a.right - a.left),
        num(a.bottom - a.top)
    );
    out.push_str("</g>\n");
    for (v, s) in xa.ticks() {
        svg::text(out, (a.x(xa, v), a.bottom + 14.0), "middle", "", &s);
    }
    for (v, s) in ya.ticks() {
        svg::text(out, (a.left - 5.0, a.y(ya, v) + 4.0), "end", "", &s);
    }
    svg::text(out, ((a.left + a.right) / 2.0, a.bottom + 32.0), "middle", "", &xa.label);
    let (cx, cy) = (14.0, (a.top + a.bottom) / 2.0);
    let rotate = format!(" transform=\"rotate(-90 {} {})\"", num(cx), num(cy));
    svg::text(out, (cx, cy), "middle", &rotate, &ya.label);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attr(tag: &str, name: &str) -> f64 {
        let at = tag.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
        tag[at..].split('"').next().unwrap().parse().unwrap()
    }

    #[test]
    fn draws_points_and_lines_as_svg() {
        let series = vec![Series { label: "energy", points: vec![(1, 1.0), (16, 1.5), (64, 2.0)] }];
        let svg = scatter("T", "y", series, &[Line { label: "C", y: 2.5 }]);
        assert!(svg.starts_with("<svg") && svg.matches("class=\"pt\"").count() == 3 && svg.contains("energy"), "{svg}");
        assert_eq!(scatter("T", "y", vec![], &[]), "");
    }

    /// A shaded band: a polygon in the data, clipped to the plotting area
    /// (an edge far beyond the axes lands on its border), its swatch in
    /// the legend's column.
    #[test]
    fn bands_are_polygons_inside_the_area() {
        let series = vec![(Series { label: "runs", points: vec![(4, 1.0), (64, 2.0)] }, colour(0))];
        let shades = [Shade { label: "band", edges: vec![(1.0, 0.5, 1.5), (1e9, 0.5, 1e9)] }];
        let chart = Chart {
            title: "T",
            x_label: P_AXIS,
            y_label: "y",
            series,
            lines: &[],
            shades: &shades,
            size: (640.0, 340.0),
        };
        let svg = chart.svg();
        let pattern = "<polygon class=\"band\" points=\"";
        let at = svg.find(pattern).expect("a band") + pattern.len();
        let points = svg[at..].split('"').next().unwrap();
        for xy in points.split(' ') {
            let (x, y) = xy.split_once(',').unwrap();
            let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
            assert!((58.0..=640.0 - 70.0).contains(&x) && (36.0..=340.0 - 42.0).contains(&y), "{xy} outside: {svg}");
        }
        assert!(svg.contains("<rect x=\"0\"") && svg.contains(">band</text>"), "its swatch in the legend: {svg}");
    }

    /// Values over four decades: a log axis; one far beyond the rest: an
    /// outlier on the top edge; the legend's column right of every point.
    #[test]
    fn spans_take_a_log_axis_and_outliers_stay_on_the_edge() {
        let mut points: Vec<(u32, f64)> = (0..40).map(|i| (1 << (i % 7), 1.0 + f64::from(i % 5))).collect();
        points.extend([(8, 0.9), (16, 60.0), (4, 1e7), (1, 0.0)]);
        let svg = scatter("slowdown", "T_par·P / T_seq (ratio)", vec![Series { label: "s", points }], &[]);
        assert!(svg.contains("log scale") && svg.contains("class=\"pt outlier\""), "{svg}");
        assert_eq!(svg.matches("outlier\"").count(), 2, "10^7 beyond the fence, 0 below the log axis: {svg}");
        assert_eq!(svg.matches("l-4,-7h8z").count(), 1, "0 as ▼ on the bottom edge");
        let pattern = "class=\"legend\" transform=\"translate(";
        let at = svg.find(pattern).unwrap() + pattern.len();
        let legend_x: f64 = svg[at..].split(',').next().unwrap().parse().unwrap();
        for tag in svg.split("<circle class=\"pt\"").skip(1) {
            assert!(attr(tag, "cx") + 2.5 < legend_x, "a point under the legend: {tag}");
        }
    }
}
