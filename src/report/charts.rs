//! The campaign page's plots, each a `<figure class="plot">` with a
//! caption that says what a reader should see and what a failure would
//! look like: the swarm's runs as small multiples (one panel per
//! balancer, one colour per detector, log scales), and the bounds suite's
//! normalised quantities against their fitted constants.

use super::plots::{Chart, Line, Series, P_AXIS};
use super::svg::colour;
use crate::base::Registered;
use crate::campaign::figures::Figures;
use crate::campaign::{Point, Report};
use crate::protocol::DetectorKind;

/// A figure: one or more panels (SVG documents) and their caption.
pub struct Figure {
    /// The panels.
    pub panels: Vec<String>,
    /// One sentence: what to see, what a failure looks like.
    pub caption: String,
}

impl Figure {
    /// The figure as HTML (empty if it has no panel).
    pub fn html(&self) -> String {
        if self.panels.is_empty() {
            return String::new();
        }
        let class = if self.panels.len() > 1 { "plot multiples" } else { "plot" };
        format!(
            "<figure class=\"{class}\">\n{}<figcaption>{}</figcaption></figure>\n",
            self.panels.concat(),
            self.caption
        )
    }
}

/// Every figure of the page, in order.
pub fn figures(r: &Report) -> Vec<Figure> {
    let mut out = vec![
        swarm(r, |p| p.slowdown, "T_par·P / T_seq (ratio)", &[Line { label: "perfect balance", y: 1.0 }], SLOWDOWN),
        swarm(r, |p| p.messages_per_pe, "messages / P (count)", &[], MESSAGES),
    ];
    if let Some(b) = &r.bounds {
        out.extend(bounds(b));
    }
    out.retain(|f| !f.panels.is_empty());
    out
}

const SLOWDOWN: &str = "<b>Slowdown of every simulated run</b>: T_par·P / T_seq against P, one panel per balancer and \
    one colour per detector, both axes logarithmic. The swarm's workloads are small (hundreds to thousands of work \
    units), so the slowdown grows with P as the work per PE shrinks: a reader should see each balancer's runs rise \
    together in a band, near the dashed line (1, perfect balance) only at small P; a balancer that loses its way \
    shows as runs far above its panel's band at the same P, or as ▲ on the top edge (value on hover). A run that \
    broke a property is listed under Failures, whatever its slowdown.";

const MESSAGES: &str = "<b>Messages per PE of every simulated run</b> (requests, replies and detector messages) \
    against P, one panel per balancer, log scales; ▼ on the bottom edge are runs with none (P = 1). The workloads \
    differ, so each P has a band of runs; a reader should see the bands move smoothly with P (002 Thm 1 bounds a \
    run's messages by O(P·h)); a polling storm or a hot spot shows as runs far above their band, or as ▲ on the \
    top edge.";

/// A panel's series: (label, points).
type Groups = Vec<(String, Vec<(u32, f64)>)>;

/// The simulate layer's runs as one panel per balancer (and one for the
/// regression corpus), one series per detector.
fn swarm(r: &Report, f: fn(&Point) -> f64, y_label: &str, lines: &[Line], caption: &str) -> Figure {
    let mut panels: Vec<(String, Groups)> = Vec::new();
    for c in r.cases.iter().filter(|c| c.layer == "simulate") {
        let Some(p) = c.point else { continue };
        let mut parts = c.name.split('/');
        let (panel, series) = match (parts.next(), parts.next()) {
            (Some("regression"), _) => ("regression corpus".to_string(), "runs".to_string()),
            (Some(b), Some(d)) => (b.to_string(), d.to_string()),
            _ => continue,
        };
        let at = panels.iter().position(|(k, _)| *k == panel).unwrap_or_else(|| {
            panels.push((panel, vec![]));
            panels.len() - 1
        });
        let groups = &mut panels[at].1;
        match groups.iter_mut().find(|(k, _)| *k == series) {
            Some((_, v)) => v.push((p.pes, f(&p))),
            None => groups.push((series, vec![(p.pes, f(&p))])),
        }
    }
    let svgs = panels.iter().map(|(title, groups)| panel(title, y_label, groups, lines)).filter(|s| !s.is_empty());
    Figure { panels: svgs.collect(), caption: caption.to_string() }
}

/// One panel, 360 × 250, a detector's colour the same in every panel.
fn panel(title: &str, y_label: &str, groups: &Groups, lines: &[Line]) -> String {
    let colour_of = |d: &str| {
        let i = DetectorKind::ALL.iter().position(|k| k.to_string() == d);
        colour(i.unwrap_or(DetectorKind::ALL.len()))
    };
    let series = groups.iter().map(|(d, points)| (Series { label: d, points: points.clone() }, colour_of(d))).collect();
    Chart { title, x_label: P_AXIS, y_label, series, lines, shades: &[], size: (360.0, 250.0) }.svg()
}

/// 001 Thm 1's R and 002 Thm 1's messages/(P·h) against P, with the fitted constants.
fn bounds(b: &Figures) -> [Figure; 2] {
    let fitted = |c: f64| {
        [
            Line { label: "fitted constant C", y: c },
            Line { label: "(1 + margin)·C: the test's limit", y: (1.0 + b.margin) * c },
        ]
    };
    let chart = |title, y_label, points: &[(u32, f64)], c: f64| {
        let series = vec![(Series { label: "test runs", points: points.to_vec() }, colour(0))];
        Chart { title, x_label: P_AXIS, y_label, series, lines: &fitted(c), shades: &[], size: (620.0, 320.0) }.svg()
    };
    [
        Figure {
            panels: vec![chart("001 Thm 1: R against P", "R (ratio)", &b.r, b.c_t_par)],
            caption: "<b>001 Thm 1, normalised</b>: R = (T_par − T_seq/P) / (T_atomic + h(Δt + T_rout + T_split)) \
                of each test run of the bounds suite. The theorem says R stays below a constant, so a reader \
                should see every point under the dotted limit line and no upward trend in P; a point above it \
                fails the claim (the bounds layer lists it), a trend upwards means the bound's form is wrong."
                .into(),
        },
        Figure {
            panels: vec![chart(
                "002 Thm 1: messages / (P·h) against P",
                "messages / (P·h) (ratio)",
                &b.traffic,
                b.c_traffic,
            )],
            caption: "<b>002 Thm 1, normalised</b>: the balancer's messages / (P·h) of each test run. O(P·h) \
                messages means the points stay under the dotted limit at every P; a balancer that splits off \
                too little (the mutant <code>split-tiny</code>) climbs above it as P grows."
                .into(),
        },
    ]
}
