//! Safra's token-ring detector (EWD998, `--termination safra`; issue 27
//! item 6) from the command line: the reference passes every property on
//! UTS T1 with 64 PEs, with the balancers and machines it composes with
//! and on real threads; its mutant `safra-no-blacken` fails
//! `detector_conformance` under `simulate` (every seed) and `explore`; the
//! reference explores completely; `lbcheck list` lists both.

use super::{lbcheck, passing};

/// The issue's run, as flags after `simulate`.
const T1: [&str; 8] = ["--termination", "safra", "--workload", "uts:T1", "--pes", "64", "--seed", "1"];

/// A fresh directory for one test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lbcheck-safra-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `detector_conformance`'s verdict in `json` checked Safra's rules.
fn checked_as_safra(json: &serde_json::Value) {
    let detail = json["properties"]["detector_conformance"]["detail"].as_str().unwrap();
    assert!(detail.contains("Safra rounds") && detail.contains("justified by a white token"), "{detail}");
}

#[test]
fn the_issue_command_passes_every_property() {
    let (code, out, err) = lbcheck(&[&["simulate"][..], &T1].concat());
    assert_eq!(code, 0, "{out}{err}");
    let json = passing(&T1);
    assert_eq!((json["termination"].as_str(), json["t_seq"].as_u64()), (Some("safra"), Some(4130071)));
    assert!(json["messages"]["control"].as_u64().unwrap() >= 64, "at least one round of 64 hops: {json}");
    checked_as_safra(&json);
    let delay = json["properties"]["detection_delay_bound"]["detail"].as_str().unwrap();
    assert!(delay.contains("safra allows 3·P·L = 1920 (L = 10"), "{delay}");
}

#[test]
fn it_composes_with_every_balancer_of_001s_machine_and_latency() {
    let cases: &[&[&str]] = &[
        &["--balancer", "pacheco"],
        &["--balancer", "pacheco", "--victim", "global-rr"],
        &["--balancer", "neighbour-polling", "--topology", "mesh:2"],
        &["--balancer", "neighbour-polling", "--topology", "hypercube"],
        &["--balancer", "sync-random-polling"],
        &["--slots", "2", "--serve", "all"],
        &["--initial-split", "random:4"],
        &["--latency", "1..40"],
        &["--latency", "1..40", "--schedule", "slow-control"],
        &["--latency", "2..30", "--schedule", "slow-work", "--fifo-links"],
        &["--o", "3", "--g", "2", "--t-poll", "1"],
        &["--slow", "8:4"],
    ];
    for extra in cases {
        checked_as_safra(&passing(&[&T1[..], extra].concat()));
    }
}

/// P = 1 (the token goes from PE 0 to itself) up to a few PEs, the atomic
/// machine's balancers, and a branch-and-bound workload.
#[test]
fn it_runs_on_one_pe_few_pes_and_the_atomic_machine() {
    for pes in ["1", "2", "3", "5"] {
        for workload in ["synthetic:size=1,atomic=1", "uts:default", "synthetic:size=200,atomic=1"] {
            passing(&["--termination", "safra", "--workload", workload, "--pes", pes, "--seed", "2"]);
        }
    }
    let atomic = ["--machine", "atomic", "--termination", "safra", "--pes", "16", "--seed", "1"];
    passing(&[&atomic[..], &["--balancer", "random-destination", "--workload", "synthetic:size=4096"]].concat());
    passing(&[&atomic[..], &["--balancer", "priority-bnb", "--workload", "kz:depth=10"]].concat());
    passing(&["--termination", "safra", "--workload", "knapsack:items=40,seed=1", "--pes", "16"]);
}

/// Its trace round-trips: `check-trace` passes it, and each token's
/// `send` and `recv` carry `{"q", "black"}`.
#[test]
fn its_trace_carries_the_token_and_passes_check_trace() {
    let trace = scratch("trace").join("t.jsonl");
    let t = trace.to_str().unwrap();
    let (code, _, err) = lbcheck(&["simulate", "--termination", "safra", "--workload", "uts:default", "--trace", t]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = lbcheck(&["check-trace", t]);
    assert_eq!(code, 0, "{out}");
    let text = std::fs::read_to_string(&trace).unwrap();
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let tokens: Vec<_> = lines.iter().filter(|e| e["kind"] == "control").collect();
    assert!(tokens.len() >= 2, "{}", tokens.len());
    for e in tokens {
        assert!(e["data"]["q"].is_i64() && e["data"]["black"].is_boolean(), "{e}");
    }
    std::fs::remove_dir_all(trace.parent().unwrap()).ok();
}

/// EWD998 rule 3 broken: a PE that received work passes a white token, on
/// every seed of a few configurations.
#[test]
fn the_mutant_fails_detector_conformance_under_simulate() {
    let configs: &[&[&str]] = &[
        &T1[2..6],
        &["--workload", "uts:default", "--pes", "3"],
        &["--workload", "synthetic:size=1000,atomic=1", "--pes", "3"],
    ];
    for config in configs {
        for seed in 1..=5 {
            let seed = seed.to_string();
            let args =
                [&["simulate", "--termination", "safra", "--mutant", "safra-no-blacken", "--seed", &seed][..], config];
            let (code, _, err) = lbcheck(&args.concat());
            assert_eq!(code, 1, "{config:?} seed {seed} passed:\n{err}");
            assert!(
                err.contains("FAILED detector_conformance: ")
                    && err.contains("passed the token white, but it received work since it last passed it"),
                "{err}"
            );
            assert!(
                err.contains("replay with: lbcheck simulate ") && err.contains("--mutant safra-no-blacken"),
                "{err}"
            );
        }
    }
}

/// The issue's explore command finds the mutant, and its counterexample is
/// rejected by `check-trace`; the reference explores completely.
#[test]
fn explore_finds_the_mutant_and_passes_the_reference() {
    let dir = scratch("explore");
    let trace = dir.join("ce.jsonl");
    let t = trace.to_str().unwrap();
    let issue = ["explore", "--termination", "safra", "--pes", "3", "--workload", "synthetic:size=8,atomic=1"];
    let (code, out, err) = lbcheck(&[&issue[..], &["--mutant", "safra-no-blacken", "--trace", t]].concat());
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("FAILED detector_conformance "), "{err}");
    let (code, out, _) = lbcheck(&["check-trace", t]);
    assert_eq!(code, 1, "{out}");
    for pes in ["1", "3", "4"] {
        let mut args = issue.to_vec();
        args[4] = pes;
        let (code, out, err) = lbcheck(&[&args[..], &["--json", "--trace", t]].concat());
        assert_eq!(code, 0, "P = {pes}:\n{out}{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["complete"], true, "P = {pes}: {v}");
        assert!(v["finished_runs"].as_u64().unwrap() > 0, "{v}");
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Real threads: the reference passes every property, the mutant fails
/// `detector_conformance`.
#[test]
fn threads_run_it_and_catch_the_mutant() {
    let run =
        ["run", "--termination", "safra", "--workload", "uts:T1", "--threads", "4", "--check", "--timeout", "120"];
    for seed in ["1", "2"] {
        let (code, out, err) = lbcheck(&[&run[..], &["--seed", seed]].concat());
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("Safra rounds"), "{out}");
        let (code, out, err) = lbcheck(&[&run[..], &["--seed", seed, "--mutant", "safra-no-blacken"]].concat());
        assert_eq!(code, 1, "{out}{err}");
        assert!(err.contains("FAILED detector_conformance: "), "{err}");
    }
}

#[test]
fn list_names_the_detector_and_its_mutant() {
    let (code, out, err) = lbcheck(&["list", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let named = |family: &str, name: &str| v[family].as_array().unwrap().iter().find(|e| e["name"] == name).cloned();
    let safra = named("detectors", "safra").expect("safra is listed");
    assert_eq!(
        (safra["paper"].as_str(), safra["status"].as_str()),
        (Some("EWD998 (Safra; beyond the five papers)"), Some("ships"))
    );
    let mutant = named("mutants", "safra-no-blacken").expect("its mutant is listed");
    assert_eq!(mutant["checker"], "simulate+loom+explore", "{mutant}");
}
