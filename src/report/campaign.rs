//! `lbcheck check` for the terminal (a summary table per layer, the
//! failures with their replay commands) and on disk (`report.json`,
//! `junit.xml`, `index.html`).

use std::io;
use std::path::Path;

use super::paper::{self, Setting};
use super::{columns, html, junit, runs};
use crate::bounds::listing::{suites_of, PAPERS};
use crate::campaign::bounds::SUITE_PROFILE;
use crate::campaign::{Report, Verdict};
use crate::reproduce::papers::SuiteRun;

/// One row per layer: cases, passed, failed, skipped, seconds; then a total.
pub fn summary(r: &Report) -> String {
    let mut rows: Vec<[String; 5]> = junit::layers(r)
        .into_iter()
        .map(|layer| {
            let cases: Vec<_> = r.cases.iter().filter(|c| c.layer == layer).collect();
            let n = |v| cases.iter().filter(|c| c.verdict == v).count().to_string();
            let secs: f64 = cases.iter().map(|c| c.secs).sum();
            [layer.to_string(), n(Verdict::Pass), n(Verdict::Fail), n(Verdict::Skip), format!("{secs:.1}")]
        })
        .collect();
    let n = |v| r.count(v).to_string();
    rows.push([
        "total".into(),
        n(Verdict::Pass),
        n(Verdict::Fail),
        n(Verdict::Skip),
        format!("{:.1} (wall)", r.seconds),
    ]);
    columns(["layer", "passed", "failed", "skipped", "seconds"], &rows)
}

/// The failed cases, each with what failed and its replay command.
pub fn failures(r: &Report) -> String {
    let mut out = String::new();
    for c in r.cases.iter().filter(|c| c.verdict == Verdict::Fail) {
        out += &format!("FAILED {}/{}: {}\n", c.layer, c.name, c.detail);
        if let Some(replay) = &c.replay {
            out += &format!("  replay with: {replay}\n");
        }
    }
    out
}

/// The first failing run's files beside the page: its trace and its Perfetto JSON.
pub const FAILURE_TRACE: &str = "first-failure.jsonl";
/// See [`FAILURE_TRACE`].
pub const FAILURE_PERFETTO: &str = "first-failure.perfetto.json";

/// Writes `report.json`, `junit.xml` and `index.html` into `dir` (created);
/// with a failed run, also its trace and Perfetto JSON (the page embeds its
/// timeline and links them); the page of each paper whose bound suites all
/// ran (`000.html` …, as `lbcheck reproduce PAPER` writes them), linked
/// from `index.html`, and each suite's claims (`bounds/SUITE.json`). The page's timelines rerun small runs
/// ([`runs::shown`]).
pub fn write(r: &Report, dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let json = serde_json::to_string_pretty(r).map_err(io::Error::other)?;
    std::fs::write(dir.join("report.json"), json)?;
    std::fs::write(dir.join("junit.xml"), junit::xml(r))?;
    let shown = runs::shown(r);
    let mut perfetto = None;
    if let Some((run, _)) = &shown.failure {
        std::fs::write(dir.join(FAILURE_TRACE), &run.trace)?;
        let doc = super::perfetto::document(&run.timeline);
        std::fs::write(dir.join(FAILURE_PERFETTO), serde_json::to_string(&doc).map_err(io::Error::other)?)?;
        perfetto = Some(FAILURE_PERFETTO);
    }
    let papers = paper_pages(r, dir)?;
    suite_documents(r, dir)?;
    std::fs::write(dir.join("index.html"), html::page(r, &shown, perfetto, &papers))
}

/// Writes each bound suite this process ran as `bounds/SUITE.json`, the
/// document `lbcheck bounds --balancer SUITE --json` prints
/// ([`SuiteRun::document`]): a CI keeps every claim's figures.
fn suite_documents(r: &Report, dir: &Path) -> io::Result<()> {
    if r.suites.is_empty() {
        return Ok(());
    }
    std::fs::create_dir_all(dir.join("bounds"))?;
    for run in &r.suites {
        let doc = serde_json::to_string_pretty(&run.document(SUITE_PROFILE, r.seed)).map_err(io::Error::other)?;
        std::fs::write(dir.join("bounds").join(format!("{}.json", run.suite)), doc)?;
    }
    Ok(())
}

/// A paper's page written beside the report: (paper, title, passed).
pub type PaperPage = (&'static str, &'static str, bool);

/// Writes the page of each paper whose suites all ran in this process.
fn paper_pages(r: &Report, dir: &Path) -> io::Result<Vec<PaperPage>> {
    let s = Setting { profile: SUITE_PROFILE, seed: r.seed };
    let mut out = vec![];
    for (p, title) in PAPERS {
        let mine: Vec<&SuiteRun> = r.suites.iter().filter(|x| suites_of(p).contains(&x.suite)).collect();
        if mine.is_empty() || mine.len() < suites_of(p).len() {
            continue;
        }
        let (page, pass) = paper::page(p, title, &mine, &s);
        std::fs::write(dir.join(format!("{p}.html")), page)?;
        out.push((p, title, pass));
    }
    Ok(out)
}
