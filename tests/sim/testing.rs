//! `lbcheck::testing`: the five-line `#[test]` of the guide on the
//! examples' round robin (examples/shared/round_robin.rs) passes and writes
//! a report directory that a real browser renders with its plots; on the
//! round robin that forgets its queue, `assert_balancer` panics with the
//! failed property and the replay command.

use std::panic::{catch_unwind, AssertUnwindSafe};

use lbcheck::harness::UserBalancer;
use lbcheck::testing::{self, Check};

use crate::round_robin::{RoundRobin, Variant};

use super::campaign::assert_renders_with_plots;

fn report_dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("lbcheck-testing-{}", std::process::id()))
}

/// The guide's five lines (with the report directory), then the page.
#[test]
fn the_five_line_test_passes_and_its_report_renders() {
    let dir = report_dir();
    let mine = UserBalancer { name: "round-robin".into(), make: |me| RoundRobin::new(me, Variant::Correct) };
    let report = Check::balancer(&mine).report_dir(&dir).assert();

    for layer in testing::USER_LAYERS {
        assert!(report.cases.iter().any(|c| c.layer == layer), "no {layer} case");
    }
    let junit = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
    assert_eq!(junit.matches("<testcase ").count(), report.cases.len(), "one testcase per case");
    assert!(junit.contains("user/round-robin/"), "{junit:.300}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["cases"].as_array().map(Vec::len), Some(report.cases.len()));
    assert_renders_with_plots(&dir.join("index.html"), "lbcheck check: ", (2, 100));
    std::fs::remove_dir_all(dir).ok();
}

/// The builder's P range and layers hold; the forgetful round robin makes
/// `assert_balancer` panic with the cause, the property and the replay.
#[test]
fn assert_balancer_panics_on_the_forgetful_round_robin_with_its_replay() {
    let mine = UserBalancer { name: "rr-forgets".into(), make: |me| RoundRobin::new(me, Variant::ForgetsQueue) };
    let panic = catch_unwind(AssertUnwindSafe(|| testing::assert_balancer(&mine))).expect_err("it must panic");
    let message = panic.downcast_ref::<String>().expect("a formatted message");
    for part in
        ["balancer `rr-forgets` failed ", "failed property: requests_answered", "cause: ", "replay with: lbcheck "]
    {
        assert!(message.contains(part), "`{part}` in {message}");
    }
    let report = Check::balancer(&mine).layers(&["simulate"]).pes(2..=5).seed(7).run();
    assert!(!report.passed() && report.cases.iter().all(|c| c.layer == "simulate"));
    let pes = report.cases.iter().filter_map(|c| c.point.map(|p| p.pes));
    assert!(pes.clone().all(|p| (2..=5).contains(&p)) && pes.count() == report.cases.len());
}

/// A user's detector: the energy detector's mutant `energy-early-return`
/// wrapped as a user's makes `Check::detector(..).assert()` panic with
/// its property and replay; the correct one passes the same cases.
#[test]
fn check_detector_asserts_on_a_users_detector() {
    use lbcheck::harness::UserDetector;
    use lbcheck::mutants::{seams, Mutant};
    use lbcheck::protocol::energy::Energy;
    let only = ["/#0", "explore/"];
    let good = UserDetector { name: "my-energy".into(), make: |_| Energy::new(false, seams::energy(None)) };
    Check::detector(&good).only(&only).assert();
    let rules = seams::energy(Some(Mutant::EnergyEarlyReturn));
    let bad = UserDetector { name: "my-energy-early".into(), make: move |_| Energy::new(false, rules) };
    let panic = catch_unwind(AssertUnwindSafe(|| Check::detector(&bad).only(&only).assert())).expect_err("a panic");
    let message = panic.downcast_ref::<String>().expect("a formatted message");
    assert!(message.contains("detector `my-energy-early` failed ") && message.contains("replay with: "), "{message}");
}

/// `lbcheck check --pes LO-HI`: the swarm's machines within the range; a
/// range that is not 1 <= LO <= HI is bad input.
#[test]
fn check_pes_keeps_the_swarm_within_the_range() {
    let dir = report_dir().with_extension("pes");
    let args = ["check", "--pes", "3-5", "--only", "simulate/random-polling/energy/#1", "--out", dir.to_str().unwrap()];
    let (code, out, err) = super::lbcheck(&args);
    assert_eq!(code, 0, "{out}{err}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let pes: Vec<u64> = json["cases"].as_array().unwrap().iter().filter_map(|c| c["point"]["pes"].as_u64()).collect();
    assert!(pes.len() > 10 && pes.iter().all(|p| (3..=5).contains(p)), "{pes:?}");
    assert!(json["replay"].as_str().unwrap().ends_with("--pes 3-5"), "{}", json["replay"]);
    for bad in ["0-3", "5-3", "x"] {
        let (code, _, err) = super::lbcheck(&["check", "--pes", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains(bad) && (err.contains("LO <= HI") || err.contains("LO-HI")), "{err}");
    }
    std::fs::remove_dir_all(dir).ok();
}

/// The builder's `no_slower_than` reaches the `bounds` layer: the lazy
/// round robin (every idle PE asks PE 0) fails it beside its fitted
/// constants; without it, no `no_slower_than` case runs.
#[test]
fn no_slower_than_fails_the_lazy_round_robin() {
    use lbcheck::campaign::Verdict;
    use lbcheck::protocol::BalancerKind;
    let mine = UserBalancer { name: "rr-lazy".into(), make: |me| RoundRobin::new(me, Variant::Lazy) };
    let plain = Check::balancer(&mine).layers(&["bounds"]).run();
    assert!(plain.cases.iter().all(|c| c.layer == "bounds" && !c.name.ends_with("no_slower_than")));
    let report = Check::balancer(&mine).layers(&["bounds"]).no_slower_than(BalancerKind::RandomPolling).run();
    let slower = report.cases.iter().find(|c| c.name.ends_with("no_slower_than")).expect("a no_slower_than case");
    assert_eq!(slower.verdict, Verdict::Fail, "{}", slower.detail);
}
