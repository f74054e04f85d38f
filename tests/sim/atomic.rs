//! 004's atomic machine from the command line: random-destination search
//! passes every property under every arbiter and obeys T ≥ max(⌈n/p⌉, h);
//! its trace checks again from the file; the adversary's worst case is no
//! better than FIFO's; the complete network is no slower than the atomic
//! machine; bad combinations exit 2.

use lbcheck::base::Registered;
use lbcheck::sim::atomic::Arbiter;
use serde_json::Value;

use super::lbcheck;

/// `simulate --json` with `extra`, random destinations unless `extra` names a balancer.
fn run(extra: &[&str]) -> Value {
    let balancer: &[&str] = if extra.contains(&"--balancer") { &[] } else { &["--balancer", "random-destination"] };
    let (code, out, err) = lbcheck(&[&["simulate", "--json"][..], balancer, extra].concat());
    assert_eq!(code, 0, "{extra:?}: {out}{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn all_pass(v: &Value) -> bool {
    v["properties"].as_object().unwrap().values().all(|p| p["pass"] == true)
}

/// The run, for every arbiter heuristic.
#[test]
fn every_arbiter_passes_and_respects_the_lower_bound() {
    let w = ["--workload", "synthetic:size=65536,split=balanced", "--seed", "1", "--machine", "atomic", "--pes", "64"];
    for a in Arbiter::ALL.iter().filter(|a| **a != Arbiter::Adversary) {
        let v = run(&[&w[..], &["--arbiter", a.name()]].concat());
        assert!(all_pass(&v), "{a}: {v}");
        let x = &v["atomic"];
        let (t, lower) = (x["T"].as_u64().unwrap(), x["lower"].as_u64().unwrap());
        assert_eq!((x["n"].as_u64(), x["h"].as_u64(), lower), (Some(65536), Some(17), 1024), "{a}: {x}");
        assert!(t >= lower && t < 10 * lower, "{a}: T = {t}");
        assert_eq!(v["clock"], "step");
        assert!(v["properties"]["atomic_conformance"]["detail"].as_str().unwrap().starts_with("65535 data-network"));
    }
}

/// The trace written is checked again by `check-trace` (the `ready` steps
/// travel in `data`), with the same verdicts.
#[test]
fn the_trace_checks_again_from_the_file() {
    let path = std::env::temp_dir().join(format!("lbcheck-atomic-{}.jsonl", std::process::id()));
    let p = path.to_str().unwrap();
    let w = ["--workload", "synthetic:size=512", "--machine", "atomic", "--termination", "four-counter"];
    let v = run(&[&w[..], &["--trace", p]].concat());
    assert!(all_pass(&v));
    let (code, out, err) = lbcheck(&["check-trace", p, "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let again: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(again["properties"]["atomic_conformance"], v["properties"]["atomic_conformance"]);
    let _ = std::fs::remove_file(&path);
}

/// The adversary explores every choice of a tiny instance: its worst T is
/// at least FIFO's, and its best at most.
#[test]
fn the_adversary_brackets_fifo() {
    let w = ["--workload", "synthetic:size=16", "--machine", "atomic", "--pes", "3", "--seed", "2"];
    let fifo = run(&[&w[..], &["--arbiter", "fifo"]].concat());
    let adv = run(&[&w[..], &["--arbiter", "adversary"]].concat());
    let (t, x) = (fifo["atomic"]["T"].as_u64().unwrap(), &adv["atomic"]["adversary"]);
    assert_eq!(x["complete"], true, "{x}");
    assert!(x["worst"].as_u64().unwrap() >= t && x["best"].as_u64().unwrap() <= t, "fifo {t}, {x}");
    assert_eq!(adv["atomic"]["T"], x["worst"], "the checked run is the worst one");
    assert!(all_pass(&adv), "{adv}");
}

/// Karp and Zhang's complete network (unbounded buffers) is never slower.
#[test]
fn the_complete_network_is_no_slower() {
    for seed in ["1", "2"] {
        let w = ["--workload", "synthetic:size=8192,split=balanced", "--seed", seed, "--pes", "64"];
        let atomic = run(&[&w[..], &["--machine", "atomic"]].concat());
        let complete = run(&[&w[..], &["--machine", "complete"]].concat());
        assert!(all_pass(&complete), "{complete}");
        assert!(complete["atomic"]["T"].as_u64() <= atomic["atomic"]["T"].as_u64(), "seed {seed}");
    }
}

#[test]
fn bad_combinations_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["--machine", "atomic", "--arbiter", "adversary", "--pes", "5"], "valid 1..=4"),
        (&["--machine", "async", "--balancer", "random-destination"], "--machine atomic"),
        (&["--machine", "atomic", "--balancer", "random-polling"], "does not run on the atomic machine"),
        (&["--machine", "complete", "--balancer", "random-destination", "--arbiter", "lifo"], "--arbiter applies only"),
        (&["--machine", "atomic", "--arbiter", "nope"], "valid: fifo, lifo"),
        (
            &[
                "--machine",
                "atomic",
                "--balancer",
                "random-destination",
                "--arbiter",
                "lifo",
                "--mutant",
                "arbiter-lifo-as-fifo",
            ],
            "--arbiter fifo",
        ),
    ];
    for (extra, says) in cases {
        let (code, _, err) = lbcheck(&[&["simulate", "--workload", "synthetic:size=64"][..], extra].concat());
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(err.contains(says), "{extra:?}: {err}");
    }
}

/// Priority-queue branch-and-bound on a cost tree: every property passes,
/// `critical_expanded` and `optimum_found` apply, T and n are the critical
/// subtree's; `check-trace` finds the same from the file.
#[test]
fn priority_bnb_expands_the_critical_subtree_and_finds_the_optimum() {
    let path = std::env::temp_dir().join(format!("lbcheck-bnb-{}.jsonl", std::process::id()));
    let p = path.to_str().unwrap();
    let v = run(&[
        "--machine",
        "atomic",
        "--balancer",
        "priority-bnb",
        "--workload",
        "kz:depth=12,seed=4",
        "--pes",
        "4",
        "--trace",
        p,
    ]);
    assert!(all_pass(&v), "{v}");
    let detail = |v: &Value, k: &str| v["properties"][k]["detail"].as_str().unwrap().to_string();
    assert!(detail(&v, "critical_expanded").starts_with("all "), "{v}");
    assert!(detail(&v, "optimum_found").contains("= the optimum"), "{v}");
    let (t, lower, n) = (
        v["atomic"]["T"].as_u64().unwrap(),
        v["atomic"]["lower"].as_u64().unwrap(),
        v["atomic"]["n"].as_u64().unwrap(),
    );
    assert!(t >= lower && n < 4095, "{v}");
    let (code, out, err) = lbcheck(&["check-trace", p, "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let again: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(detail(&again, "critical_expanded"), detail(&v, "critical_expanded"));
    let _ = std::fs::remove_file(&path);
}
