//! `lbcheck check` for the terminal (a summary table per layer, the
//! failures with their replay commands) and on disk (`report.json`,
//! `junit.xml`, `index.html`).

use std::io;
use std::path::Path;

use super::{columns, html, junit, runs};
use crate::campaign::{Report, Verdict};

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
/// timeline and links them). The page's timelines rerun small runs
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
    std::fs::write(dir.join("index.html"), html::page(r, &shown, perfetto))
}
