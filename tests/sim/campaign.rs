//! `lbcheck check`: the campaign passes on the references and writes its
//! report (JSON, JUnit, HTML that a real browser renders with its plots);
//! with a mutant it fails and JUnit names the failed property.

use super::lbcheck;

/// Every in-process layer, and the adequacy cells of the simulate and
/// bounds checkers (loom, SPIN and Coq run in their own steps of the test
/// command). Of the bounds layer's references, random polling's suite (the
/// report's figures) and Pacheco's: 004's suites and poll-and-shuffle's
/// pass in tests/bounds from the same code (`bounds::dispatch`), and the
/// `M/bounds` cells run each of them under its mutants here.
const ONLY: &str = "simulate/,threads/,bounds/suite,bounds/pacheco,/simulate,/bounds";

fn out_dir(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("lbcheck-check-{name}-{}", std::process::id()))
}

#[test]
fn the_campaign_passes_and_writes_its_report() {
    let dir = out_dir("ok");
    let (code, out, err) = lbcheck(&["check", "--only", ONLY, "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("layer") && out.contains("total"), "{out}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let cases = report["cases"].as_array().unwrap();
    for layer in ["simulate", "threads", "bounds", "mutants"] {
        assert!(cases.iter().any(|c| c["layer"] == layer && c["verdict"] == "pass"), "no passing {layer} case");
    }
    every_cell_catches_its_mutant(cases);
    let junit = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
    assert_eq!(junit.matches("<testcase ").count(), cases.len(), "one testcase per case");
    assert!(junit.contains("failures=\"0\""), "{}", &junit[..300]);
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(html.matches("<svg").count() >= 4 && html.contains("Mutant matrix"), "plots and the matrix");
    assert_renders_with_plots(&dir.join("index.html"));
    std::fs::remove_dir_all(dir).ok();
}

/// Every catalogue mutant that the simulate or bounds checker is listed
/// to catch has its cell in the report, caught: a cell fails unless its
/// checker fails the claim or property the catalogue lists (for bounds,
/// the same suite as `lbcheck bounds --quick --mutant M`; this is the test
/// that every bounds mutant fails its claim, tests/bounds runs a few from
/// the CLI).
fn every_cell_catches_its_mutant(cases: &[serde_json::Value]) {
    use lbcheck::mutants::{Catcher, CATALOGUE};
    for (catcher, column) in [(Catcher::Run, "simulate"), (Catcher::Bounds, "bounds")] {
        for e in CATALOGUE.iter().filter(|e| e.caught_by(catcher)) {
            let name = format!("{}/{column}", e.info.name);
            let case = cases.iter().find(|c| c["layer"] == "mutants" && c["name"] == name.as_str());
            let case = case.unwrap_or_else(|| panic!("no cell {name} in the report"));
            assert_eq!(case["verdict"], "pass", "{name} not caught: {case}");
        }
    }
}

/// Headless Chromium loads the page and its DOM holds the plots' points.
fn assert_renders_with_plots(page: &std::path::Path) {
    if std::env::var("LBCHECK_SKIP_BROWSER").is_ok_and(|v| v == "1") {
        eprintln!("LBCHECK_SKIP_BROWSER=1: the report is not opened in a browser");
        return;
    }
    let url = format!("file://{}", page.display());
    let args = ["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", &url];
    let out = std::process::Command::new("chromium").args(args).output().unwrap_or_else(|e| {
        panic!("chromium is needed to check the report renders ({e}): apt-get install -y chromium, or LBCHECK_SKIP_BROWSER=1")
    });
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains("lbcheck check: PASS"), "the browser did not load the page: {dom:.300}");
    assert!(dom.matches("<svg").count() >= 4 && dom.matches("<circle").count() >= 100, "the plots did not render");
}

/// One mutant per site (balancer, detector, bound formulas, event log, a bounds-only
/// mutant): the campaign fails and JUnit names the property or claim the
/// catalogue lists. (Every mutant, loom's included, fails `lbcheck check
/// --mutant M`; the threaded-driver mutants need the loom layer, which the
/// test command runs in its own step.)
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
        std::fs::remove_dir_all(dir).ok();
    }
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
