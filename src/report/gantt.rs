//! A [`Timeline`] as an SVG Gantt chart: one lane per PE (busy dark, idle
//! light grey, nothing after it terminated), work messages as arrows from
//! the sender's lane to the receiver's, the detector's completed waves as
//! dashed green lines, the phased machine's barriers as ticks above the
//! lanes and the announcement as a red line. Above 64 PEs, lanes become
//! utilisation bands: each band is a group of PEs shaded by the fraction
//! of them busy, and messages are left out. The legend is a row above the
//! lanes, never over them.

use std::fmt::Write;

use super::svg::{self, num, Axis, Scale};
use super::timeline::{Lane, Mark, Timeline};

/// More PEs than this are drawn as utilisation bands.
pub const MAX_LANES: usize = 64;
/// Arrows drawn at most (the first ones; the chart says how many it left out).
pub const MAX_ARROWS: usize = 1500;
/// Waves and barriers drawn at most.
const MAX_MARKS: usize = 400;
/// Time columns of a utilisation band.
const BINS: usize = 400;

const WIDTH: f64 = 1000.0;
const BUSY: &str = "#1f5fa8";
const IDLE: &str = "#e4e4e4";
const ARROW: &str = "#e08a00";
const WAVE: &str = "#119944";
const ANNOUNCE: &str = "#d00000";

/// Where things go: the lanes' area and each row's height.
struct Frame {
    left: f64,
    right: f64,
    top: f64,
    row: f64,
    rows: usize,
    time: Axis,
}

impl Frame {
    fn new(t: &Timeline, rows: usize) -> Frame {
        let row = (480.0 / rows.max(1) as f64).clamp(4.0, 18.0);
        let time = Axis::new(0.0, t.end.max(1) as f64, Scale::Linear, format!("time ({})", t.header.clock));
        Frame { left: 64.0, right: WIDTH - 16.0, top: 62.0, row, rows, time }
    }

    fn x(&self, t: u64) -> f64 {
        self.left + self.time.frac(t as f64) * (self.right - self.left)
    }

    fn y(&self, row: usize) -> f64 {
        self.top + row as f64 * self.row
    }

    fn bottom(&self) -> f64 {
        self.y(self.rows)
    }
}

/// The chart as an SVG document.
pub fn svg(t: &Timeline) -> String {
    let banded = t.lanes.len() > MAX_LANES;
    let per_band = t.lanes.len().div_ceil(MAX_LANES);
    let rows = if banded { t.lanes.len().div_ceil(per_band) } else { t.lanes.len() };
    let f = Frame::new(t, rows);
    let mut out = svg::open(WIDTH, f.bottom() + 40.0, "timeline");
    out += "<defs><marker id=\"lbcheck-arrow\" viewBox=\"0 0 6 6\" refX=\"6\" refY=\"3\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0L6,3L0,6z\" fill=\"#e08a00\"/></marker></defs>\n";
    svg::text(&mut out, (f.left, 15.0), "start", " font-weight=\"bold\" font-size=\"13\"", &t.title());
    legend(&mut out, &f, banded);
    out += "<g class=\"data\">\n";
    match banded {
        true => bands(&mut out, t, &f, per_band),
        false => lanes(&mut out, t, &f),
    }
    let note = if banded {
        format!("{} PEs in bands of {per_band}: messages not drawn", t.lanes.len())
    } else {
        arrows(&mut out, t, &f)
    };
    marks(&mut out, t, &f);
    out += "</g>\n";
    axis(&mut out, &f, &note);
    out + "</svg>\n"
}

/// The legend row above the lanes.
fn legend(out: &mut String, f: &Frame, banded: bool) {
    let _ = writeln!(out, "<g class=\"legend\" transform=\"translate({},24)\">", num(f.left));
    let busy = if banded { "busy (shade: share of the band's PEs)" } else { "busy" };
    let items: [(&str, String); 6] = [
        (busy, format!("<rect width=\"14\" height=\"9\" fill=\"{BUSY}\"/>")),
        ("idle", format!("<rect width=\"14\" height=\"9\" fill=\"{IDLE}\"/>")),
        (
            "work message",
            format!(
                "<line x1=\"0\" y1=\"5\" x2=\"14\" y2=\"5\" stroke=\"{ARROW}\" marker-end=\"url(#lbcheck-arrow)\"/>"
            ),
        ),
        (
            "wave / barrier",
            format!("<line x1=\"7\" y1=\"0\" x2=\"7\" y2=\"10\" stroke=\"{WAVE}\" stroke-dasharray=\"2 2\"/>"),
        ),
        (
            "announcement",
            format!("<line x1=\"7\" y1=\"0\" x2=\"7\" y2=\"10\" stroke=\"{ANNOUNCE}\" stroke-width=\"2\"/>"),
        ),
        ("terminated", "<line x1=\"7\" y1=\"0\" x2=\"7\" y2=\"10\" stroke=\"#000\"/>".to_string()),
    ];
    let mut x = 0.0;
    for (label, swatch) in items.iter().filter(|(l, _)| !banded || *l != "work message") {
        let _ = writeln!(out, "<g transform=\"translate({},0)\">{swatch}", num(x));
        svg::text(out, (18.0, 9.0), "start", "", label);
        out.push_str("</g>\n");
        x += 30.0 + label.chars().count() as f64 * 6.2;
    }
    out.push_str("</g>\n");
}

/// One `<g class="lane">` per PE: its idle background, its busy spans, its termination tick.
fn lanes(out: &mut String, t: &Timeline, f: &Frame) {
    let every = label_every(f.row);
    for (pe, lane) in t.lanes.iter().enumerate() {
        let _ = writeln!(out, "<g class=\"lane\" data-pe=\"{pe}\">");
        let y = f.y(pe);
        let stop = lane.terminated.unwrap_or(t.end);
        rect(out, f.x(0), f.x(stop), y, f.row, IDLE, "");
        for (a, b) in merged(lane, f) {
            rect(out, a, b, y, f.row, BUSY, "");
        }
        if let Some(term) = lane.terminated {
            let x = num(f.x(term));
            let _ = writeln!(
                out,
                "<line x1=\"{x}\" x2=\"{x}\" y1=\"{}\" y2=\"{}\" stroke=\"#000\"/>",
                num(y),
                num(y + f.row - 1.0)
            );
        }
        out.push_str("</g>\n");
        if pe % every == 0 {
            svg::text(out, (f.left - 5.0, y + f.row / 2.0 + 4.0), "end", "", &format!("PE {pe}"));
        }
    }
}

/// Every `every`-th lane is labelled, so labels do not overlap.
fn label_every(row: f64) -> usize {
    (11.0 / row).ceil().max(1.0) as usize
}

/// A lane's busy spans in pixels, spans closer than half a pixel merged.
fn merged(lane: &Lane, f: &Frame) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    for s in &lane.busy {
        let (a, b) = (f.x(s.from), f.x(s.to));
        match out.last_mut() {
            Some(last) if a - last.1 < 0.5 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// A rectangle from x `a` to `b` (at least half a pixel wide) in a row at `y`.
fn rect(out: &mut String, a: f64, b: f64, y: f64, h: f64, fill: &str, extra: &str) {
    let w = (b - a).max(0.5);
    let h = (h - 1.0).max(1.0);
    let _ = writeln!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"{extra}/>",
        num(a),
        num(y),
        num(w),
        num(h)
    );
}

/// Utilisation bands of `per_band` PEs: the share of the band's PEs busy
/// in each of [`BINS`] time columns, quantised to eighths.
fn bands(out: &mut String, t: &Timeline, f: &Frame, per_band: usize) {
    let width = (t.end.max(1) as f64) / BINS as f64;
    for (band, pes) in t.lanes.chunks(per_band).enumerate() {
        let first = band * per_band;
        let _ = writeln!(out, "<g class=\"band\" data-pes=\"{first}-{}\">", first + pes.len() - 1);
        let y = f.y(band);
        rect(out, f.left, f.right, y, f.row, IDLE, "");
        let levels = utilisation(pes, width).into_iter().map(|u| (u * 8.0).round() / 8.0);
        for (from, to, level) in runs(levels).into_iter().filter(|r| r.2 > 0.0) {
            let (a, b) = (f.x((from as f64 * width) as u64), f.x((to as f64 * width) as u64));
            rect(out, a, b, y, f.row, BUSY, &format!(" fill-opacity=\"{level}\""));
        }
        out.push_str("</g>\n");
        if band % label_every(f.row) == 0 {
            svg::text(out, (f.left - 5.0, y + f.row / 2.0 + 4.0), "end", "", &format!("PE {first}+"));
        }
    }
}

/// The share of `pes` busy in each time column of `width`.
fn utilisation(pes: &[Lane], width: f64) -> Vec<f64> {
    let mut busy = vec![0.0; BINS];
    for s in pes.iter().flat_map(|l| &l.busy) {
        let (a, b) = (s.from as f64 / width, s.to as f64 / width);
        for (bin, share) in busy.iter_mut().enumerate().take((b.ceil() as usize).min(BINS)).skip(a.floor() as usize) {
            *share += (b.min(bin as f64 + 1.0) - a.max(bin as f64)).max(0.0);
        }
    }
    busy.into_iter().map(|x| x / pes.len() as f64).collect()
}

/// Runs of equal values: (first column, column after the last, value).
fn runs(values: impl Iterator<Item = f64>) -> Vec<(usize, usize, f64)> {
    let mut out: Vec<(usize, usize, f64)> = Vec::new();
    for (i, v) in values.enumerate() {
        match out.last_mut() {
            Some(r) if r.2 == v => r.1 = i + 1,
            _ => out.push((i, i + 1, v)),
        }
    }
    out
}

/// Work messages as arrows (the first [`MAX_ARROWS`]): a note if some were left out.
fn arrows(out: &mut String, t: &Timeline, f: &Frame) -> String {
    let all: Vec<_> = t.work_messages().collect();
    let (width, opacity) = match all.len() {
        0..=100 => (1.0, 0.9),
        101..=500 => (0.6, 0.7),
        _ => (0.4, 0.5),
    };
    let _ = writeln!(
        out,
        "<g class=\"messages\" stroke=\"{ARROW}\" stroke-width=\"{width}\" stroke-opacity=\"{opacity}\">"
    );
    for (m, sent, received) in all.iter().take(MAX_ARROWS) {
        let mid = |pe: u32| num(f.y(pe as usize) + f.row / 2.0);
        let _ = writeln!(
            out,
            "<line class=\"msg\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" marker-end=\"url(#lbcheck-arrow)\"/>",
            num(f.x(*sent)),
            mid(m.from),
            num(f.x(*received)),
            mid(m.to)
        );
    }
    out.push_str("</g>\n");
    match all.len() > MAX_ARROWS {
        true => format!("the first {MAX_ARROWS} of {} work messages drawn", all.len()),
        false => format!("{} work messages", all.len()),
    }
}

/// Waves and global barriers (the first [`MAX_MARKS`]), the announcement;
/// labels above the lanes where they do not overlap.
fn marks(out: &mut String, t: &Timeline, f: &Frame) {
    let (top, bottom) = (num(f.top - 6.0), num(f.bottom()));
    let mut taken: Vec<(f64, f64)> = Vec::new();
    if let Some(at) = t.announced() {
        let x = f.x(at);
        let _ = writeln!(out, "<line class=\"announce\" x1=\"{0}\" x2=\"{0}\" y1=\"{top}\" y2=\"{bottom}\" stroke=\"{ANNOUNCE}\" stroke-width=\"2\"/>", num(x));
        let label = format!("announced t={at}");
        let w = label.len() as f64 * 5.2;
        let (anchor, from) = if x > f.right - w { ("end", x - 3.0 - w) } else { ("start", x + 3.0) };
        let at_x = if anchor == "end" { x - 3.0 } else { x + 3.0 };
        svg::text(out, (at_x, f.top - 8.0), anchor, &format!(" fill=\"{ANNOUNCE}\" font-size=\"9\""), &label);
        taken.push((from - 4.0, from + w + 4.0));
    }
    for m in t.marks.iter().filter(|m| !matches!(m, Mark::Announce { .. })).take(MAX_MARKS) {
        let (x, label) = match *m {
            Mark::Wave { t, wave, .. } => (f.x(t), format!("w{wave}")),
            Mark::Phase { t, pe: None, .. } => (f.x(t), String::new()),
            _ => continue,
        };
        let _ = writeln!(out, "<line class=\"wave\" x1=\"{0}\" x2=\"{0}\" y1=\"{top}\" y2=\"{bottom}\" stroke=\"{WAVE}\" stroke-opacity=\"0.6\" stroke-dasharray=\"2 2\"/>", num(x));
        let span = (x - 10.0, x + 10.0);
        if !label.is_empty() && taken.iter().all(|&(a, b)| span.1 < a || span.0 > b) {
            svg::text(out, (x, f.top - 8.0), "middle", &format!(" fill=\"{WAVE}\" font-size=\"9\""), &label);
            taken.push(span);
        }
    }
}

/// The time axis under the lanes, with `note` at its right end.
fn axis(out: &mut String, f: &Frame, note: &str) {
    let b = f.bottom();
    let (y, l, r) = (num(b), num(f.left), num(f.right));
    let _ = writeln!(out, "<line x1=\"{l}\" x2=\"{r}\" y1=\"{y}\" y2=\"{y}\" stroke=\"#888\"/>");
    for (v, s) in f.time.ticks() {
        let x = f.left + f.time.frac(v) * (f.right - f.left);
        let _ = writeln!(
            out,
            "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#888\"/>",
            num(x),
            num(b),
            num(b + 4.0)
        );
        svg::text(out, (x, b + 15.0), "middle", "", &s);
    }
    svg::text(out, ((f.left + f.right) / 2.0, b + 32.0), "middle", "", &f.time.label);
    svg::text(out, (f.right, b + 32.0), "end", " font-size=\"10\" fill=\"#555\"", note);
}

#[cfg(test)]
mod tests {
    use super::super::timeline::tests::{timeline, TRACE};
    use super::*;

    #[test]
    fn one_lane_per_pe_with_its_spans_arrows_and_marks() {
        let svg = svg(&timeline(TRACE).unwrap());
        assert_eq!(svg.matches("<g class=\"lane\"").count(), 2, "{svg}");
        assert_eq!(svg.matches("class=\"msg\"").count(), 1, "one work message");
        assert_eq!(svg.matches("class=\"wave\"").count(), 1);
        assert!(svg.contains("announced t=50") && svg.contains("time (work units)"), "{svg}");
        let legend = svg.find("class=\"legend\"").unwrap();
        assert!(legend < svg.find("class=\"data\"").unwrap(), "the legend comes first, in its row above the lanes");
    }

    #[test]
    fn many_pes_become_bands() {
        let mut trace = TRACE.replace("\"pes\":2", "\"pes\":200");
        trace = trace.replace("{\"ev\":\"end\"", "{\"ev\":\"busy\",\"t\":60,\"pe\":199}\n{\"ev\":\"end\"");
        let svg = svg(&timeline(&trace).unwrap());
        assert_eq!(svg.matches("<g class=\"band\"").count(), 50, "200 PEs in bands of 4");
        assert!(!svg.contains("class=\"msg\"") && svg.contains("messages not drawn"), "{svg:.2000}");
    }

    #[test]
    fn utilisation_is_the_busy_share_per_column() {
        let width = 1.0;
        let lane =
            |from, to| Lane { busy: vec![super::super::timeline::Span { from, to, units: 0 }], ..Lane::default() };
        let u = utilisation(&[lane(0, 2), lane(1, 2)], width);
        assert_eq!(&u[..3], [0.5, 1.0, 0.0]);
        assert_eq!(runs([0.5, 0.5, 1.0].into_iter()), [(0, 2, 0.5), (2, 3, 1.0)]);
    }
}
