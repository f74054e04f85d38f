//! 000's phased machine and poll-and-shuffle (000 §3-§4, S-2), and
//! synchronous random polling (001 §1.3, S-13): every property and all of
//! UTS T1's work on 1024 PEs on every topology; `phase_discipline` reads
//! the barriers; the runs replay from their traces; bad combinations exit 2.

use super::{lbcheck, passing};

/// The issue's first check: poll-and-shuffle on UTS T1, 1024 PEs, on the
/// hypercube, the 2-D mesh, the fat tree and the butterfly, with both
/// permutation methods on the hypercube; synchronous random polling too.
#[test]
fn poll_and_shuffle_does_all_of_t1_on_every_network() {
    let t1 = ["--workload", "uts:T1", "--pes", "1024", "--seed", "1"];
    for t in ["hypercube", "mesh:2", "fat-tree", "butterfly"] {
        let json = passing(&[&t1[..], &["--balancer", "poll-and-shuffle", "--topology", t]].concat());
        assert_eq!(json["nodes"], 4130071, "{t}");
        let phases = &json["properties"]["phase_discipline"]["detail"];
        assert!(!phases.as_str().unwrap().starts_with("not applicable"), "{t}: {phases}");
    }
    passing(
        &[&t1[..], &["--balancer", "poll-and-shuffle", "--topology", "hypercube", "--permutation", "pseudo"]].concat(),
    );
    for t in ["crossbar", "mesh:2"] {
        let json = passing(&[&t1[..], &["--balancer", "sync-random-polling", "--topology", t]].concat());
        assert_eq!(json["nodes"], 4130071, "{t}");
    }
}

/// A saved poll-and-shuffle trace names its machine and permutation, and
/// `check-trace` replays and passes it; the same seed gives the same trace.
#[test]
fn poll_and_shuffle_traces_replay() {
    let dir = std::env::temp_dir();
    let trace =
        |n: u32| dir.join(format!("lbcheck-pas-{n}-{}.jsonl", std::process::id())).to_string_lossy().into_owned();
    let (a, b) = (trace(1), trace(2));
    for t in [&a, &b] {
        let args = ["simulate", "--balancer", "poll-and-shuffle", "--workload", "uts:default", "--pes", "16"];
        let (code, _, err) = lbcheck(&[&args[..], &["--permutation", "pseudo", "--trace", t]].concat());
        assert_eq!(code, 0, "{err}");
    }
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap(), "same seed, same trace");
    let header = text.lines().next().unwrap();
    assert!(
        header.contains(r#""balancer":{"name":"poll-and-shuffle","permutation":"pseudo"}"#),
        "the header's spec: {header}"
    );
    let (code, out, err) = lbcheck(&["check-trace", &a]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("--permutation pseudo"), "the replay names the permutation method:\n{out}");
    for t in [a, b] {
        std::fs::remove_file(t).unwrap();
    }
}

#[test]
fn phased_combinations_that_make_no_sense_exit_2() {
    let pas = ["simulate", "--balancer", "poll-and-shuffle", "--workload", "uts:default"];
    let cases: [(Vec<&str>, &str); 6] = [
        ([&pas[..], &["--pes", "12"]].concat(), "power of two"),
        ([&pas[..], &["--termination", "energy"]].concat(), "--termination barrier"),
        (vec!["simulate", "--workload", "uts:default", "--termination", "barrier"], "phased machine"),
        ([&pas[..], &["--slow", "1:2"]].concat(), "--slow"),
        (vec!["run", "--balancer", "poll-and-shuffle", "--workload", "uts:default"], "phased machine"),
        (vec!["run", "--balancer", "sync-random-polling", "--workload", "uts:default"], "model time"),
    ];
    for (args, says) in cases {
        let (code, _, err) = lbcheck(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?} should say `{says}`: {err}");
    }
}

/// SIMD phases (000 §1.1, 000-7): all of UTS T1 on 1024 PEs on two
/// networks, `simd_matching` checked (and `phase_discipline` not
/// applicable); the trace replays through `check-trace`; the mutant
/// `simd-match-first-busy` fails `simd_matching`.
#[test]
fn simd_phases_do_all_of_t1_and_match_by_prefix_sums() {
    let t1 = ["--workload", "uts:T1", "--pes", "1024", "--seed", "1", "--dt", "100"];
    for t in ["hypercube", "mesh:2"] {
        let json = passing(&[&t1[..], &["--balancer", "simd-phase", "--topology", t]].concat());
        assert_eq!(json["nodes"], 4130071, "{t}");
        let matching = json["properties"]["simd_matching"]["detail"].as_str().unwrap();
        assert!(matching.contains("load-balancing phases"), "{t}: {matching}");
        let phases = json["properties"]["phase_discipline"]["detail"].as_str().unwrap();
        assert!(phases.starts_with("not applicable"), "{phases}");
    }
    let trace = std::env::temp_dir().join(format!("lbcheck-simd-{}.jsonl", std::process::id()));
    let trace = trace.to_string_lossy().into_owned();
    let small = ["simulate", "--balancer", "simd-phase", "--workload", "uts:default", "--pes", "16"];
    let (code, _, err) = lbcheck(&[&small[..], &["--trace", &trace]].concat());
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = lbcheck(&["check-trace", &trace]);
    assert_eq!(code, 0, "{out}{err}");
    std::fs::remove_file(trace).unwrap();
    let (code, out, _) = lbcheck(&[&small[..], &["--mutant", "simd-match-first-busy", "--json"]].concat());
    assert_eq!(code, 1, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["properties"]["simd_matching"]["pass"], false, "{out}");
}
