//! Poll-and-shuffle with local synchronisation (000 §6.3, Fig. 4; S-5):
//! all of UTS T1 on 1024 PEs on every network with every property
//! passing; small runs on every topology and seed pass too and read as
//! local barriers; the same seed gives the same trace, which names its
//! sync mode and replays; `no-phase-wait` fails `same_phase_exchange`;
//! `--sync` where it makes no sense exits 2.

use super::{lbcheck, passing};

/// The issue's check with `--sync local`.
#[test]
fn local_sync_does_all_of_t1_on_every_network() {
    let t1 = ["--workload", "uts:T1", "--pes", "1024", "--seed", "1", "--sync", "local"];
    for t in ["hypercube", "mesh:2", "fat-tree", "butterfly"] {
        let json = passing(&[&t1[..], &["--balancer", "poll-and-shuffle", "--topology", t]].concat());
        assert_eq!(json["nodes"], 4130071, "{t}");
        let pairs = json["properties"]["same_phase_exchange"]["detail"].as_str().unwrap().to_string();
        assert!(!pairs.starts_with("not applicable") && !pairs.starts_with("0 "), "{t}: {pairs}");
        assert!(json["messages"]["sync"].as_u64().unwrap() > 0, "{t}: busy PEs send `sync`");
    }
}

/// Small runs: every topology, several seeds, both permutation methods,
/// T_rout and T_phase apart; every property passes under either sync mode.
#[test]
fn small_runs_pass_every_property_under_both_sync_modes() {
    let w = "synthetic:size=20000,split=uniform";
    for (t, pes) in [("hypercube", "16"), ("crossbar", "8"), ("mesh:2", "64"), ("fat-tree", "16"), ("butterfly", "32")]
    {
        for seed in ["1", "2", "3"] {
            for (sync, perm, dt) in [("local", "exact", "10"), ("local", "pseudo", "3"), ("global", "exact", "10")] {
                let args = ["--balancer", "poll-and-shuffle", "--topology", t, "--workload", w, "--pes", pes];
                let more = ["--seed", seed, "--sync", sync, "--permutation", perm, "--dt", dt];
                let json = passing(&[&args[..], &more[..]].concat());
                assert_eq!(json["nodes"], 20000, "{t} {seed} {sync}");
            }
        }
    }
    passing(&["--balancer", "poll-and-shuffle", "--workload", "uts:default", "--pes", "1", "--sync", "local"]);
}

/// The same seed gives the same trace, with per-PE barriers; the header
/// records `sync: local` and `check-trace` replays it with `--sync local`.
#[test]
fn local_sync_traces_replay() {
    let dir = std::env::temp_dir();
    let trace = |n: u32| dir.join(format!("lbcheck-local-{n}-{}.jsonl", std::process::id()));
    let (a, b) = (trace(1), trace(2));
    for t in [&a, &b] {
        let args = ["simulate", "--balancer", "poll-and-shuffle", "--workload", "uts:default", "--pes", "16"];
        let (code, _, err) = lbcheck(&[&args[..], &["--sync", "local", "--trace", t.to_str().unwrap()]].concat());
        assert_eq!(code, 0, "{err}");
    }
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap(), "same seed, same trace");
    assert!(text.lines().next().unwrap().contains(r#""sync":"local""#), "the header names the sync mode");
    assert!(text.contains(r#""ev":"phase","t":0,"cycle":0,"phase":0,"pe":1"#), "PE 1 (idle) ends phase 0 at once");
    assert!(text.contains(r#""kind":"sync""#), "busy PEs send `sync`");
    let (code, out, err) = lbcheck(&["check-trace", a.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("--sync local"), "the replay names the sync mode:\n{out}");
    for t in [a, b] {
        std::fs::remove_file(t).unwrap();
    }
}

/// Without the wait a late request is answered in a later phase, on every
/// network (`tests/sim/mutants.rs` shows it on the hypercube's seeds). A
/// cycle needs two phases or more for that: the 2-D mesh has L = 1 at 64
/// PEs, 2 at 256 (000 §4.1).
#[test]
fn no_phase_wait_crosses_phases() {
    let w = "synthetic:size=100000,split=uniform";
    for (t, pes) in [("mesh:2", "256"), ("fat-tree", "64"), ("butterfly", "64")] {
        let args = ["simulate", "--balancer", "poll-and-shuffle", "--topology", t, "--workload", w, "--pes", pes];
        let (code, _, err) = lbcheck(&[&args[..], &["--sync", "local", "--mutant", "no-phase-wait"]].concat());
        assert_eq!(code, 1, "{t}: {err}");
        assert!(err.contains("FAILED same_phase_exchange"), "{t}: {err}");
        let replay = err.lines().find(|l| l.starts_with("replay with:")).unwrap_or_default();
        assert!(
            replay.contains("--sync local") && replay.contains("--mutant no-phase-wait"),
            "the replay keeps the sync mode: {err}"
        );
    }
}

#[test]
fn sync_where_it_makes_no_sense_exits_2() {
    let pas = ["simulate", "--balancer", "poll-and-shuffle", "--workload", "uts:default", "--pes", "16"];
    let cases: [(Vec<&str>, &str); 3] = [
        ([&pas[..], &["--sync", "sometimes"]].concat(), "expected global"),
        ([&pas[..], &["--mutant", "no-phase-wait"]].concat(), "add --sync local"),
        (vec!["simulate", "--workload", "uts:default", "--sync", "local"], "poll-and-shuffle's"),
    ];
    for (args, says) in cases {
        let (code, _, err) = lbcheck(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?} should say `{says}`: {err}");
    }
}
