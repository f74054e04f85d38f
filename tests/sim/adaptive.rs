//! Poll-and-shuffle's adaptive trigger (000 §5, S-7; `--trigger adaptive`):
//! all of UTS T1 on 1024 PEs on every network with every property; small
//! runs pass every property; idle PEs' `notify` messages are in the trace,
//! the header records the trigger and the same seed gives the same trace;
//! bad `--trigger` values and its mutants without it exit 2.

use super::{lbcheck, passing};

/// The issue's check with `--trigger adaptive`: every property, all
/// 4130071 nodes, notifications sent, on the hypercube, the 2-D mesh, the
/// fat tree and the butterfly.
#[test]
fn adaptive_trigger_does_all_of_t1_on_every_network() {
    let t1 = ["--workload", "uts:T1", "--pes", "1024", "--seed", "1", "--trigger", "adaptive"];
    for t in ["hypercube", "mesh:2", "fat-tree", "butterfly"] {
        let json = passing(&[&t1[..], &["--balancer", "poll-and-shuffle", "--topology", t]].concat());
        assert_eq!(json["nodes"], 4130071, "{t}");
        assert!(json["messages"]["notify"].as_u64().unwrap() > 0, "{t}: {}", json["messages"]);
        let phases = &json["properties"]["phase_discipline"]["detail"];
        assert!(!phases.as_str().unwrap().starts_with("not applicable"), "{t}: {phases}");
    }
}

/// Small machines, several seeds, networks and constants (a δ of 0 uses
/// notifications that may still be in flight; c = 64 notifies often):
/// every property holds.
#[test]
fn adaptive_runs_pass_every_property() {
    let triggers = ["adaptive", "adaptive:c=64,alpha=1,delta=0,eps=0.1", "adaptive:c=2,alpha=3,delta=2,eps=1"];
    for (i, trigger) in triggers.into_iter().enumerate() {
        for (pes, t) in [("4", "hypercube"), ("16", "fat-tree"), ("64", "mesh:2"), ("32", "crossbar")] {
            let seed = (i + 1).to_string();
            let args = ["--balancer", "poll-and-shuffle", "--workload", "uts:default", "--pes", pes, "--seed", &seed];
            passing(&[&args[..], &["--topology", t, "--trigger", trigger]].concat());
        }
    }
}

/// A saved adaptive run names its trigger in the header, has `notify`
/// messages to PE 0 tagged with their phase, replays from `check-trace`
/// with `--trigger`, and the same seed gives the same trace.
#[test]
fn adaptive_traces_record_the_trigger_and_replay() {
    let dir = std::env::temp_dir();
    let trace =
        |n: u32| dir.join(format!("lbcheck-adaptive-{n}-{}.jsonl", std::process::id())).to_string_lossy().into_owned();
    let (a, b) = (trace(1), trace(2));
    let trigger = "adaptive:c=16,alpha=2,delta=auto,eps=0.5";
    for t in [&a, &b] {
        let args = ["simulate", "--balancer", "poll-and-shuffle", "--workload", "uts:default", "--pes", "64"];
        let (code, _, err) = lbcheck(&[&args[..], &["--trigger", trigger, "--seed", "3", "--trace", t]].concat());
        assert_eq!(code, 0, "{err}");
    }
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap(), "same seed, same trace");
    assert!(
        text.lines().next().unwrap().contains(&format!(r#""trigger":"{trigger}""#)),
        "the header names the trigger"
    );
    let notify = text.lines().find(|l| l.contains(r#""ev":"send""#) && l.contains(r#""kind":"notify""#)).unwrap();
    assert!(notify.contains(r#""to":0"#) && notify.contains(r#""data":{"phase":"#), "{notify}");
    let (code, out, err) = lbcheck(&["check-trace", &a]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("--trigger {trigger}")), "the replay names the trigger:\n{out}");
    for t in [a, b] {
        std::fs::remove_file(t).unwrap();
    }
}

/// The cycle trigger (the default) sends no notifications.
#[test]
fn the_cycle_trigger_sends_no_notifications() {
    let json = passing(&["--balancer", "poll-and-shuffle", "--workload", "uts:default", "--pes", "64"]);
    assert_eq!(json["messages"]["notify"], 0);
}

#[test]
fn bad_triggers_exit_2() {
    let pas = ["simulate", "--balancer", "poll-and-shuffle", "--workload", "uts:default", "--pes", "16"];
    let cases: [(Vec<&str>, &str); 8] = [
        ([&pas[..], &["--trigger", "sometimes"]].concat(), "expected cycle, adaptive"),
        ([&pas[..], &["--trigger", "adaptive:c=0"]].concat(), "c=0"),
        ([&pas[..], &["--trigger", "adaptive:eps=2"]].concat(), "eps=2"),
        ([&pas[..], &["--trigger", "adaptive:gamma=1"]].concat(), "`gamma`"),
        ([&pas[..], &["--trigger", "adaptive:c"]].concat(), "KEY=VALUE"),
        ([&pas[..], &["--trigger", "cycle:c=1"]].concat(), "unknown mode"),
        (vec!["simulate", "--workload", "uts:default", "--trigger", "adaptive"], "poll-and-shuffle's"),
        ([&pas[..], &["--mutant", "notify-always"]].concat(), "add --trigger adaptive"),
    ];
    for (args, says) in cases {
        let (code, _, err) = lbcheck(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?} should say `{says}`: {err}");
    }
}
