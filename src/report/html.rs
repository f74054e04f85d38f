//! The campaign as one self-contained HTML page: verdict, per-layer
//! summary, failures with replay commands, the mutant matrix, and inline
//! SVG plots (no script, no external file).

use super::junit::{escape, layers};
use super::plots::{scatter, Line, Series};
use crate::campaign::figures::Figures;
use crate::campaign::{Case, Point, Report, Verdict};

/// The page.
pub fn page(r: &Report) -> String {
    let verdict = if r.passed() { "PASS" } else { "FAIL" };
    let mut body = format!(
        "<h1>lbcheck check: {verdict}</h1>\n<p>{} cases: {} passed, {} failed, {} skipped in {:.1} s. Rerun: <code>{}</code></p>\n",
        r.cases.len(),
        r.count(Verdict::Pass),
        r.count(Verdict::Fail),
        r.count(Verdict::Skip),
        r.seconds,
        escape(&r.replay)
    );
    body += &layer_table(r);
    body += &failures(r);
    body += &super::matrix::section(r);
    body += &plots(r);
    body += &all_cases(r);
    format!("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>lbcheck check: {verdict}</title>\n<style>{STYLE}</style></head>\n<body>\n{body}</body></html>\n")
}

const STYLE: &str = "body{font-family:sans-serif;max-width:72em;margin:2em auto;padding:0 1em}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}\
.pass{background:#e6f4e6}.fail{background:#fbe3e3}.skip{background:#f2f2f2}code{font-size:90%}\
figure{display:inline-block;margin:.5em}";

fn class(v: Verdict) -> &'static str {
    match v {
        Verdict::Pass => "pass",
        Verdict::Fail => "fail",
        Verdict::Skip => "skip",
    }
}

fn layer_table(r: &Report) -> String {
    let mut out = String::from("<h2>Layers</h2>\n<table><tr><th>layer</th><th>passed</th><th>failed</th><th>skipped</th><th>seconds</th></tr>\n");
    for layer in layers(r) {
        let cases: Vec<&Case> = r.cases.iter().filter(|c| c.layer == layer).collect();
        let n = |v| cases.iter().filter(|c| c.verdict == v).count();
        let secs: f64 = cases.iter().map(|c| c.secs).sum();
        let cls = if n(Verdict::Fail) > 0 { "fail" } else { "pass" };
        out += &format!(
            "<tr class=\"{cls}\"><td>{layer}</td><td>{}</td><td>{}</td><td>{}</td><td>{secs:.1}</td></tr>\n",
            n(Verdict::Pass),
            n(Verdict::Fail),
            n(Verdict::Skip)
        );
    }
    out + "</table>\n"
}

fn failures(r: &Report) -> String {
    let failed: Vec<&Case> = r.cases.iter().filter(|c| c.verdict == Verdict::Fail).collect();
    if failed.is_empty() {
        return String::new();
    }
    let mut out = String::from("<h2>Failures</h2>\n<ul>\n");
    for c in failed {
        let replay =
            c.replay.as_deref().map(|r| format!("<br>replay with: <code>{}</code>", escape(r))).unwrap_or_default();
        out += &format!("<li><b>{}/{}</b>: {}{replay}</li>\n", c.layer, escape(&c.name), escape(&c.detail));
    }
    out + "</ul>\n"
}

fn plots(r: &Report) -> String {
    let (slow, msgs) = (swarm_series(r, |p| p.slowdown), swarm_series(r, |p| p.messages_per_pe));
    let mut figs = vec![
        scatter(
            "Simulated runs: T_par / (T_seq / P)",
            "slowdown",
            &as_series(&slow),
            &[Line { label: "perfect balance", y: 1.0 }],
        ),
        scatter("Simulated runs: messages per PE", "messages / P", &as_series(&msgs), &[]),
    ];
    if let Some(b) = &r.bounds {
        figs.extend(bounds_plots(b));
    }
    let figs: Vec<String> =
        figs.into_iter().filter(|f| !f.is_empty()).map(|f| format!("<figure>{f}</figure>")).collect();
    match figs.is_empty() {
        true => String::new(),
        false => format!("<h2>Plots</h2>\n{}\n", figs.join("\n")),
    }
}

fn as_series(groups: &[(String, Vec<(u32, f64)>)]) -> Vec<Series<'_>> {
    groups.iter().map(|(k, v)| Series { label: k, points: v.clone() }).collect()
}

/// The simulated runs' points (P, f(point)), one series per balancer/detector
/// pair and one for the regression corpus.
fn swarm_series(r: &Report, f: fn(&Point) -> f64) -> Vec<(String, Vec<(u32, f64)>)> {
    let mut groups: Vec<(String, Vec<(u32, f64)>)> = Vec::new();
    for c in r.cases.iter().filter(|c| c.layer == "simulate") {
        let Some(p) = c.point else { continue };
        let key = match c.name.starts_with("regression/") {
            true => "regression corpus".to_string(),
            false => c.name.rsplit_once('/').map_or(c.name.clone(), |(k, _)| k.to_string()),
        };
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push((p.pes, f(&p))),
            None => groups.push((key, vec![(p.pes, f(&p))])),
        }
    }
    groups
}

/// 001 Thm 1's R and 002 Thm 1's messages/(P·h) against P, with the fitted constants.
fn bounds_plots(b: &Figures) -> [String; 2] {
    let fitted = |c: f64| {
        [Line { label: "fitted constant", y: c }, Line { label: "(1+margin)·constant", y: (1.0 + b.margin) * c }]
    };
    [
        scatter(
            "001 Thm 1: R against P",
            "R",
            &[Series { label: "test runs", points: b.r.clone() }],
            &fitted(b.c_t_par),
        ),
        scatter(
            "002 Thm 1: messages / (P·h) against P",
            "messages / (P·h)",
            &[Series { label: "test runs", points: b.traffic.clone() }],
            &fitted(b.c_traffic),
        ),
    ]
}

fn all_cases(r: &Report) -> String {
    let mut out = String::from("<h2>All cases</h2>\n<details><summary>show</summary>\n<table><tr><th>layer</th><th>case</th><th>verdict</th><th>detail</th></tr>\n");
    for c in &r.cases {
        out += &format!(
            "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            class(c.verdict),
            c.layer,
            escape(&c.name),
            class(c.verdict),
            escape(&c.detail)
        );
    }
    out + "</table></details>\n"
}
