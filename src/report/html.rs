//! The campaign as one self-contained HTML page (no script, no external
//! file): the front ([`super::front`]: verdict, what was checked, the
//! first failure), the layers, the failures with replay commands, the
//! runs' timelines ([`super::gantt`]), the mutant matrix
//! ([`super::matrix`]), the plots ([`super::charts`]) and every case.
//! Every SVG sits in a `<figure class="plot">` with a caption.

use std::fmt::Write;

use super::campaign::PaperPage;
use super::charts::{self, Figure};
use super::front::{self, FailureLinks};
use super::gantt;
use super::junit::layers;
use super::matrix;
use super::runs::{Recorded, Shown};
use super::svg::escape;
use crate::campaign::{Case, Report, Verdict};

/// The most failures listed one by one (all are under "All cases").
const LISTED_FAILURES: usize = 100;

/// The page, with the runs `shown`, the first failure's Perfetto file (a
/// path beside the page) and the papers' pages written beside it.
pub fn page(r: &Report, shown: &Shown, perfetto: Option<&str>, papers: &[PaperPage]) -> String {
    let verdict = if r.passed() { "PASS" } else { "FAIL" };
    let links = shown.failure.as_ref().map(|(run, _)| FailureLinks { case: failing_case(r, run), perfetto });
    let mut body = front::section(r, links);
    body += &layer_table(r);
    body += &failures(r);
    body += &papers_section(papers);
    body += &timelines(shown);
    body += &matrix::section(r);
    body += &plots(r);
    body += &all_cases(r);
    format!("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>lbcheck check: {verdict}</title>\n<style>{STYLE}</style></head>\n<body>\n{body}</body></html>\n")
}

const STYLE: &str = "body{font-family:sans-serif;max-width:76em;margin:1em auto;padding:0 1em}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}\
.pass{background:#e6f4e6}.fail{background:#fbe3e3}.skip{background:#f2f2f2}code{font-size:90%}\
header.front{border:2px solid #888;padding:.2em 1em;margin-bottom:1em}header.front.pass{border-color:#3a3}\
header.front.fail{border-color:#c33}header h1{margin:.3em 0}.first-failure{background:#fbe3e3;padding:.1em .8em}\
.checked span{padding:0 .4em;margin-right:.3em}table.pairs{font-size:85%;margin:.4em 0}\
figure{margin:1em 0}figure.multiples{display:flex;flex-wrap:wrap;gap:.5em}\
figcaption{flex-basis:100%;max-width:62em;font-size:90%;color:#333}";

/// The name of the case whose run `run` reran (the first failed case with its spec).
fn failing_case<'r>(r: &'r Report, run: &Recorded) -> &'r str {
    let same = |c: &&Case| c.verdict == Verdict::Fail && c.spec.as_deref() == Some(&run.spec);
    r.cases.iter().find(same).map_or("", |c| c.name.as_str())
}

fn layer_table(r: &Report) -> String {
    let mut out = String::from("<h2 id=\"layers\">Layers</h2>\n<table><tr><th>layer</th><th>passed</th><th>failed</th><th>skipped</th><th>seconds</th></tr>\n");
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

/// The first [`LISTED_FAILURES`] failures with their replay commands.
fn failures(r: &Report) -> String {
    let failed: Vec<&Case> = r.cases.iter().filter(|c| c.verdict == Verdict::Fail).collect();
    if failed.is_empty() {
        return String::new();
    }
    let mut out = String::from("<h2 id=\"failures\">Failures</h2>\n<ul>\n");
    for c in failed.iter().take(LISTED_FAILURES) {
        let replay =
            c.replay.as_deref().map(|r| format!("<br>replay with: <code>{}</code>", escape(r))).unwrap_or_default();
        out += &format!("<li><b>{}/{}</b>: {}{replay}</li>\n", c.layer, escape(&c.name), escape(&c.detail));
    }
    if failed.len() > LISTED_FAILURES {
        let _ = writeln!(
            out,
            "<li>… and {} more (under <a href=\"#all-cases\">All cases</a>)</li>",
            failed.len() - LISTED_FAILURES
        );
    }
    out + "</ul>\n"
}

/// Links to the papers' pages (`lbcheck reproduce PAPER`'s).
fn papers_section(papers: &[PaperPage]) -> String {
    if papers.is_empty() {
        return String::new();
    }
    let mut out = String::from("<h2 id=\"papers\">The papers' claims</h2>\n<p>A page per paper: each claim the bounds layer checks, in the paper's order, with its plot, verdict, α and the mutants that fail it, and the constants the O() hides.</p>\n<ul>\n");
    for (p, title, pass) in papers {
        let (cls, v) = if *pass { ("pass", "PASS") } else { ("fail", "FAIL") };
        let _ =
            writeln!(out, "<li><a href=\"{p}.html\">{p}: {}</a> <span class=\"{cls}\">{v}</span></li>", escape(title));
    }
    out + "</ul>\n"
}

const TIMELINE: &str = "One lane per PE: dark while it holds work, light grey while idle, blank after it learnt \
    of termination (a black tick); orange arrows are work messages from sender to receiver, dashed green lines \
    the detector's completed waves (or the phased machine's barriers), the red line the announcement. A reader \
    should see the lanes fill soon after the start, short idle gaps, and the announcement just after the last \
    lane goes idle; an announcement while a lane is still dark, a lane dark to the end, or work arriving after \
    the red line is a failure.";

/// The first failing run beside its reference run, then one reference run per balancer.
fn timelines(shown: &Shown) -> String {
    let mut out = String::from("<h2 id=\"timelines\">Timelines</h2>\n");
    if let Some((run, reference)) = &shown.failure {
        let failed = if run.failed.is_empty() {
            "passes every property this time (a threaded run's interleaving differs)".to_string()
        } else {
            format!("fails {}", run.failed.join(", "))
        };
        let head = format!("<b>The first failing run</b>, rerun from its specification: it {failed}. ");
        out += &timeline_figure(run, "timeline-failure", &head);
        if let Some(reference) = reference {
            let head = "<b>Its reference run</b>: the same configuration without the mutant. ";
            out += &timeline_figure(reference, "timeline-failure-reference", head);
        }
    }
    out += "<p>One small reference run per balancer (P = 8, the campaign's seed):</p>\n";
    for run in &shown.references {
        out += &timeline_figure(run, &format!("timeline-{}", run.spec.balancer.kind()), "");
    }
    out
}

fn timeline_figure(run: &Recorded, id: &str, head: &str) -> String {
    let replay = escape(&run.spec.replay());
    let caption = format!("{head}{TIMELINE} Replay: <code>{replay}</code>");
    format!(
        "<figure class=\"plot timeline\" id=\"{id}\">\n{}<figcaption>{caption}</figcaption></figure>\n",
        gantt::svg(&run.timeline)
    )
}

fn plots(r: &Report) -> String {
    let figs: Vec<Figure> = charts::figures(r);
    match figs.is_empty() {
        true => String::new(),
        false => format!("<h2 id=\"plots\">Plots</h2>\n{}", figs.iter().map(Figure::html).collect::<String>()),
    }
}

fn all_cases(r: &Report) -> String {
    let mut out = String::from("<h2 id=\"all-cases\">All cases</h2>\n<details><summary>show</summary>\n<table><tr><th>layer</th><th>case</th><th>verdict</th><th>detail</th></tr>\n");
    for c in &r.cases {
        let v = match c.verdict {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Skip => "skip",
        };
        out += &format!(
            "<tr class=\"{v}\"><td>{}</td><td>{}</td><td>{v}</td><td>{}</td></tr>\n",
            c.layer,
            escape(&c.name),
            escape(&c.detail)
        );
    }
    out + "</table></details>\n"
}
