//! The campaign as one self-contained HTML page: verdict, per-layer
//! summary, failures with replay commands, the mutant matrix, and inline
//! SVG plots (no script, no external file), each in a `<figure
//! class="plot">` with its caption ([`super::charts`]).

use super::charts::{self, Figure};
use super::junit::{escape, layers};
use crate::campaign::{Case, Report, Verdict};

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
figure{margin:1em 0}figure.multiples{display:flex;flex-wrap:wrap;gap:.5em}\
figcaption{flex-basis:100%;max-width:62em;font-size:90%;color:#333}";

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
    let figs: Vec<Figure> = charts::figures(r);
    match figs.is_empty() {
        true => String::new(),
        false => format!("<h2 id=\"plots\">Plots</h2>\n{}", figs.iter().map(Figure::html).collect::<String>()),
    }
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
