//! `lbcheck explore` (issue 16): every mutant the catalogue lists under the
//! explorer is found on the issue's tiny instance, with a counterexample
//! trace that `check-trace` rejects; the references explore completely and
//! pass; bad input exits 2.

use lbcheck::mutants::{Catcher, Entry, Mutant, Site, CATALOGUE};
use lbcheck::protocol::BalancerKind;

use super::lbcheck;

/// A fresh directory for one test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lbcheck-explore-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The issue's instance: 8 atomic units on 3 PEs.
const INSTANCE: [&str; 4] = ["--pes", "3", "--workload", "synthetic:size=8,atomic=1"];

fn detector(e: &Entry) -> &'static str {
    match e.site {
        Site::Detectors(ds) => lbcheck::base::Registered::name(ds[0]),
        _ => "four-counter", // explore's default
    }
}

fn explore(extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["explore"];
    args.extend(INSTANCE);
    args.extend(extra);
    lbcheck(&args)
}

/// A mutant's instance: 004's mutants on the atomic machine (FIFO arbiter:
/// every tie), the others on the issue's.
fn instance(e: &Entry) -> Vec<&'static str> {
    let atomic = |b, w| vec!["--balancer", b, "--workload", w, "--arbiter", "fifo"];
    match e.site {
        Site::Balancer(BalancerKind::PriorityBnb) => atomic("priority-bnb", "kz:depth=4"),
        Site::AtomicMachine | Site::Balancer(BalancerKind::RandomDestination) => {
            atomic("random-destination", "synthetic:size=16")
        }
        Site::Balancer(BalancerKind::Pacheco) if e.mutant == Mutant::GrrNoIncrement => {
            [&["--balancer", "pacheco", "--victim", "global-rr"], &INSTANCE[2..]].concat()
        }
        Site::Balancer(BalancerKind::Pacheco) => [&["--balancer", "pacheco"], &INSTANCE[2..]].concat(),
        _ if e.mutant == Mutant::SlotOverwrite => [&["--slots", "2"], &INSTANCE[2..]].concat(),
        Site::BoundPropagation => vec!["--workload", "knapsack:items=4,seed=1"],
        _ => INSTANCE[2..].to_vec(),
    }
}

#[test]
fn every_explore_mutant_is_found_and_its_trace_rejected() {
    let dir = scratch("mutants");
    for e in CATALOGUE.iter().filter(|e| e.caught_by(Catcher::Explore)) {
        let (name, fails) = (e.info.name, e.fails_under(Catcher::Explore).unwrap());
        let trace = dir.join(format!("{name}.jsonl"));
        let trace = trace.to_str().unwrap();
        let mut args = vec!["explore", "--pes", "3", "--termination", detector(e), "--mutant", name, "--trace", trace];
        args.extend(instance(e));
        let (code, out, err) = lbcheck(&args);
        assert_eq!(code, 1, "explore missed {name}:\n{out}{err}");
        assert!(err.contains(&format!("FAILED {fails} ")), "{name} should fail {fails}:\n{err}");
        assert!(err.contains("replay with: lbcheck explore "), "{err}");
        let (code, out, _) = lbcheck(&["check-trace", trace]);
        assert_eq!(code, 1, "check-trace accepted the counterexample of {name}:\n{out}");
        assert!(out.contains("lbcheck explore"), "the trace names its replay:\n{out}");
    }
}

/// 004's balancers explore every arbitration of the atomic machine.
#[test]
fn the_atomic_references_explore_completely_and_pass() {
    for (b, w) in [("random-destination", "synthetic:size=16"), ("priority-bnb", "kz:depth=4")] {
        let (code, out, err) = lbcheck(&["explore", "--balancer", b, "--workload", w, "--pes", "3", "--json"]);
        assert_eq!(code, 0, "{b}:\n{out}{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!((v["complete"].as_bool(), v["machine"].as_str()), (Some(true), Some("atomic")), "{v}");
        assert!(v["states"].as_u64().unwrap() > 8, "more than one choice sequence per seed: {v}");
    }
}

#[test]
fn the_references_explore_completely_and_pass() {
    for d in ["energy", "energy-tree", "four-counter"] {
        let (code, out, err) = explore(&["--termination", d, "--json"]);
        assert_eq!(code, 0, "{d}:\n{out}{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["complete"], true, "{d}: {v}");
        assert!(v["states"].as_u64().unwrap() > 100 && v["finished_runs"].as_u64().unwrap() > 0, "{v}");
        assert!(v["transitions"].as_u64().unwrap() > v["states"].as_u64().unwrap(), "{v}");
    }
}

/// The issue's command, as written: exit 1, a trace, on the one-wave bug.
#[test]
fn the_issue_command_finds_the_one_wave_bug() {
    let dir = scratch("issue");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lbcheck"))
        .current_dir(&dir)
        .args(["explore", "--termination", "four-counter", "--pes", "3"])
        .args(["--workload", "synthetic:size=8,atomic=1", "--mutant", "four-counter-one-wave"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(dir.join("lbcheck-counterexample.jsonl").exists(), "the default trace file is written");
}

#[test]
fn bad_input_exits_2() {
    for (args, says) in [
        (vec!["--pes", "7"], "7 is not in 1..=6"),
        (vec!["--latency", "1..20"], "at most 8 latencies"),
        (vec!["--latency", "x"], "expected a..b"),
        (vec!["--initial-split"], "--initial-split"),
        (vec!["--balancer", "random-destination", "--machine", "async"], "atomic machine"),
        (vec!["--mutant", "two-receives"], "atomic machine"),
        (vec!["--mutant", "lost-wakeup"], "threaded driver"),
        (vec!["--seeds", "0"], "0 is not in 1..=1000000"),
    ] {
        let mut all = vec!["explore", "--workload", "synthetic:size=8,atomic=1"];
        all.extend(&args);
        let (code, _, err) = lbcheck(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?} should say {says:?}: {err}");
    }
}
