//! `lbcheck check`: the campaign passes on the references and writes its
//! report (JSON, JUnit, HTML that a real browser renders with its plots);
//! with a mutant it fails and JUnit names the failed property.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use lbcheck::mutants::{Catcher, CATALOGUE};

use super::lbcheck;

/// Every in-process layer, and every adequacy cell but loom's (loom runs in
/// `tests/loom_threads.rs`, SPIN and Coq in their own steps of the test
/// command).
const ONLY: &str = "simulate/,threads/,bounds/,bitonic/,/simulate,/bounds,/explore,/bitonic,/compare";

fn out_dir(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("lbcheck-check-{name}-{}", std::process::id()))
}

/// `lbcheck check --only ONLY --out DIR` on the references, run once for
/// every test that reads its report, its papers' pages or its suites'
/// JSON (`DIR/bounds/SUITE.json`): each reference suite runs once in the
/// test command. (exit code, stdout, stderr, DIR), DIR under cargo's
/// target/tmp.
pub(crate) fn reference_campaign() -> &'static (i32, String, String, PathBuf) {
    static RUN: OnceLock<(i32, String, String, PathBuf)> = OnceLock::new();
    RUN.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("campaign-reference-{}", std::process::id()));
        let (code, out, err) = lbcheck(&["check", "--only", ONLY, "--out", dir.to_str().unwrap()]);
        (code, out, err, dir)
    })
}

/// The reference campaign's directory, once it passed.
pub(crate) fn reference_dir() -> &'static Path {
    let (code, out, err, dir) = reference_campaign();
    assert_eq!(*code, 0, "{out}{err}");
    dir
}

#[test]
fn the_campaign_passes_and_writes_its_report() {
    let (_, out, _, _) = reference_campaign();
    let dir = reference_dir();
    assert!(out.contains("layer") && out.contains("total"), "{out}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let cases = report["cases"].as_array().unwrap();
    for layer in ["simulate", "threads", "bounds", "bitonic", "mutants"] {
        assert!(cases.iter().any(|c| c["layer"] == layer && c["verdict"] == "pass"), "no passing {layer} case");
    }
    // The claims the quick profile does not reach: skipped, saying so, never passed.
    let not_run: Vec<&str> = cases
        .iter()
        .filter(|c| {
            c["layer"] == "bounds" && c["verdict"] == "skip" && c["detail"].as_str().unwrap().contains("not run: ")
        })
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(not_run, ["priority-bnb/thm2_large", "poll-and-shuffle/regime_t_par", "poll-and-shuffle/regime_trend"]);
    let junit = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
    assert_eq!(junit.matches("<testcase ").count(), cases.len(), "one testcase per case");
    assert!(junit.contains("failures=\"0\""), "{}", &junit[..300]);
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(html.matches("<svg").count() >= 4 && html.contains("Mutant matrix"), "plots and the matrix");
    assert_every_mutant_row_caught(&html);
    for p in ["000", "001", "002", "003", "004"] {
        assert!(html.contains(&format!("<a href=\"{p}.html\">{p}: ")), "index.html links {p}'s page");
        let page = std::fs::read_to_string(dir.join(format!("{p}.html"))).unwrap();
        assert!(page.contains("<span class=\"pass\">PASS</span></h1>"), "{p}: {page:.400}");
    }
    assert_renders_with_plots(&dir.join("index.html"), "lbcheck check: ", (4, 100));
    for p in ["001", "003"] {
        assert_renders_with_plots(&dir.join(format!("{p}.html")), &format!("{p}: PASS"), (2, 100));
    }
}

/// Every catalogue mutant has its row in the page's matrix, with every
/// listed cell but loom's caught; only those loom alone catches have no row
/// (the loom cells are not run here; `report::matrix`'s tests draw a row
/// for every catalogue cell). A bounds cell is caught only if its suite
/// (the same as `lbcheck bounds --quick --mutant M`) fails the listed
/// claim: this is the test that every bounds mutant fails its claim
/// (tests/bounds runs a few from the CLI).
fn assert_every_mutant_row_caught(html: &str) {
    for e in CATALOGUE {
        let start = html.find(&format!("<tr data-mutant=\"{}\">", e.mutant));
        if e.caught_by.iter().all(|(c, _)| *c == Catcher::Loom) {
            assert!(start.is_none(), "{}: the loom cells did not run", e.mutant);
            continue;
        }
        let row = &html[start.unwrap_or_else(|| panic!("no matrix row for {}", e.mutant))..];
        let row = &row[..row.find("</tr>").unwrap()];
        let caught = row.matches(">caught (").count();
        let listed = e.caught_by.iter().filter(|(c, _)| *c != Catcher::Loom).count();
        assert_eq!(caught, listed, "{}: every cell caught: {row}", e.mutant);
    }
}

/// The script the page is probed with: for every SVG, whether it sits in
/// a `figure.plot` with a caption of a sentence or more, whether it has a
/// legend, and every mark of its data (`.data`) whose box meets the
/// legend's; the counts go into `<pre id="probe">`.
const PROBE: &str = r#"<script>
let svgs = 0, uncaptioned = 0, legends = 0, marks = 0; const over = [];
for (const svg of document.querySelectorAll('svg')) {
  svgs++;
  const cap = svg.closest('figure.plot')?.querySelector('figcaption');
  if (!cap || cap.textContent.trim().length < 80) uncaptioned++;
  const legend = svg.querySelector('.legend');
  if (!legend) continue;
  legends++;
  const l = legend.getBoundingClientRect();
  for (const m of svg.querySelectorAll('.data circle, .data path, .data rect, .data line, .data polygon')) {
    marks++;
    const r = m.getBoundingClientRect();
    if (r.right > l.left && r.left < l.right && r.bottom > l.top && r.top < l.bottom) over.push(m.outerHTML.slice(0, 120));
  }
}
const pre = document.createElement('pre');
pre.id = 'probe';
pre.textContent = `svgs=${svgs} uncaptioned=${uncaptioned} legends=${legends} marks=${marks} overlaps=${over.length} ${over.slice(0, 3).join(' ')}`;
document.body.appendChild(pre);
</script>"#;

/// Headless Chromium, 1400 pixels wide, loads the page (its DOM then holds
/// `loaded`): at least `svgs` plots with `marks` data marks in all render,
/// every plot has a caption and a legend, and no legend covers a data
/// mark (point, line or band; the boxes of the laid-out DOM compared by
/// [`PROBE`]).
pub(crate) fn assert_renders_with_plots(page: &std::path::Path, loaded: &str, (svgs, marks): (usize, usize)) {
    if std::env::var("LBCHECK_SKIP_BROWSER").is_ok_and(|v| v == "1") {
        eprintln!("LBCHECK_SKIP_BROWSER=1: the report is not opened in a browser");
        return;
    }
    let html = std::fs::read_to_string(page).unwrap();
    let probe = page.with_file_name("probe.html");
    std::fs::write(&probe, html.replace("</body>", &format!("{PROBE}</body>"))).unwrap();
    let url = format!("file://{}", probe.display());
    let args = ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000", "--dump-dom", &url];
    let out = std::process::Command::new("chromium").args(args).output().unwrap_or_else(|e| {
        panic!("chromium is needed to check the report renders ({e}): apt-get install -y chromium, or LBCHECK_SKIP_BROWSER=1")
    });
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains(loaded), "the browser did not load the page: {dom:.300}");
    let at = dom.find("<pre id=\"probe\">").unwrap_or_else(|| panic!("the probe did not run: {dom:.300}")) + 16;
    let line = &dom[at..at + dom[at..].find("</pre>").unwrap()];
    let count = |key: &str| -> usize {
        let v = line.split_whitespace().find_map(|w| w.strip_prefix(&format!("{key}=")));
        v.and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{key} in {line}"))
    };
    assert!(count("svgs") >= svgs && count("marks") >= marks, "the plots did not render: {line}");
    assert_eq!(count("uncaptioned"), 0, "every plot has a caption: {line}");
    assert_eq!(count("legends"), count("svgs"), "every plot has a legend: {line}");
    assert_eq!(count("overlaps"), 0, "no legend over a data point: {line}");
    std::fs::remove_file(probe).ok();
}

/// One mutant per site (balancer, detector, bound formulas, event log, a bounds-only
/// mutant): the campaign fails and JUnit names the property or claim the
/// catalogue lists. (Every mutant, loom's included, fails `lbcheck check
/// --mutant M`; the threaded-driver mutants need the loom layer, which
/// `tests/loom_threads.rs` covers.)
#[test]
fn a_mutant_fails_the_campaign_and_junit_names_its_property() {
    for m in ["split-loses", "four-counter-one-wave", "poll-lazy", "formula-sign-slip", "log-idle-early"] {
        let dir = out_dir(m);
        let args = ["check", "--only", "simulate/,threads/,bounds/", "--mutant", m, "--out", dir.to_str().unwrap()];
        let (code, out, err) = lbcheck(&args);
        assert_eq!(code, 1, "{m}: {out}{err}");
        assert!(err.contains("FAILED ") && err.contains("replay with: lbcheck "), "{m}: {err}");
        let junit = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
        let listed = m.parse::<lbcheck::mutants::Mutant>().unwrap().entry().caught_by;
        let named = listed.iter().any(|(_, fails)| junit.contains(&format!("<failure message=\"{fails}")));
        assert!(named, "{m} should fail one of {listed:?}: {junit:.600}");
        if m == "split-loses" {
            assert_embeds_the_failing_runs_timeline(&dir);
        }
        std::fs::remove_dir_all(dir).ok();
    }
}

/// The page of a failed campaign embeds the first failing run's timeline
/// (it fails a property again when rerun) beside its reference run, links
/// the Perfetto file written beside it, and the front names the failure.
fn assert_embeds_the_failing_runs_timeline(dir: &std::path::Path) {
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let figure = |id: &str| {
        let at = html.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no figure {id}"));
        let fig = &html[at..];
        fig[..fig.find("</figure>").unwrap()].to_string()
    };
    let failing = figure("timeline-failure");
    assert!(failing.contains("<svg") && failing.contains("<g class=\"lane\""), "a Gantt chart: {failing:.300}");
    assert!(failing.contains("it fails ") && failing.contains("--mutant split-loses"), "{failing:.2000}");
    let reference = figure("timeline-failure-reference");
    assert!(reference.contains("<svg") && !reference.contains("--mutant"), "{reference:.2000}");
    assert!(html.contains("First failure: ") && html.contains("href=\"#timeline-failure\""), "the front links it");
    assert!(html.contains("href=\"first-failure.perfetto.json\""), "the Perfetto file linked");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("first-failure.perfetto.json")).unwrap()).unwrap();
    assert!(doc["traceEvents"].as_array().is_some_and(|e| !e.is_empty()), "{doc:.300}");
    assert!(dir.join("first-failure.jsonl").is_file());
}

/// `lbcheck check --mutant M` exits 1 for one mutant of every site (a
/// balancer, a detector family, the threaded driver, the bound formulas,
/// the event log, 004's atomic machine, message scattering, 001's work
/// loop and network, bound propagation, bitonic sort, …): for each site the
/// mutant its cheapest catcher decides, with `--only` that catcher's layer
/// (a demonstration run of the simulate layer, the explore, bitonic or
/// loom layer, the compare cell, the bounds layer); each says its seconds.
/// `scripts/mutant-times.sh` runs every mutant on the whole quick campaign.
#[test]
fn one_mutant_per_site_fails_check() {
    let rank = |c: Catcher| {
        [Catcher::Bitonic, Catcher::Run, Catcher::Explore, Catcher::Compare, Catcher::Loom, Catcher::Bounds]
            .iter()
            .position(|&k| k == c)
            .unwrap()
    };
    let best = |e: &lbcheck::mutants::Entry| e.caught_by.iter().map(|&(c, _)| c).min_by_key(|&c| rank(c)).unwrap();
    let mut sites: Vec<(String, &lbcheck::mutants::Entry)> = vec![];
    for e in CATALOGUE.iter() {
        let site = format!("{:?}", e.site);
        match sites.iter_mut().find(|(s, _)| *s == site) {
            Some(chosen) if rank(best(e)) < rank(best(chosen.1)) => chosen.1 = e,
            Some(_) => {}
            None => sites.push((site, e)),
        }
    }
    assert!(sites.len() >= 20 && sites.iter().any(|(s, _)| s == "Bitonic"), "{sites:?}");
    let run = |(site, e): &(String, &lbcheck::mutants::Entry)| {
        let m = e.mutant.to_string();
        let only = match best(e) {
            Catcher::Bitonic => "bitonic/".to_string(),
            Catcher::Run => format!("simulate/regression/{m}/"),
            Catcher::Explore => "explore/".into(),
            Catcher::Compare => format!("mutants/{m}/compare"),
            Catcher::Loom => "loom/".into(),
            Catcher::Bounds => "bounds/".into(),
        };
        let dir = out_dir(&format!("site-{m}"));
        let start = std::time::Instant::now();
        let (code, out, err) = lbcheck(&["check", "--mutant", &m, "--only", &only, "--out", dir.to_str().unwrap()]);
        std::fs::remove_dir_all(dir).ok();
        eprintln!("{site}: {m} --only {only}: exit {code} in {:.1} s", start.elapsed().as_secs_f64());
        (code == 1).then_some(()).ok_or(format!("{site}: {m} --only {only}: exit {code}\n{out}{err}"))
    };
    let missed: Vec<String> = lbcheck::base::par::map(&sites, run).into_iter().filter_map(Result::err).collect();
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

#[test]
fn check_bad_input_exits_2() {
    let (code, _, err) = lbcheck(&["check", "--mutant", "gremlin"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("valid: energy-not-split"), "{err}");
    let (code, _, err) = lbcheck(&["check", "--only", "nothing-matches"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no case matches --only nothing-matches"), "{err}");
    let one = "simulate/random-polling/energy/#0";
    let (code, _, err) = lbcheck(&["check", "--only", one, "--out", "/dev/null/report"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("writing the report to /dev/null/report"), "{err}");
}
