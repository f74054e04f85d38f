//! A deactivated worker (002 §3, S-17, `--deactivate PE:FROM..TO`): in its
//! window the PE does no work and sends no requests, but answers every
//! request with its entire subproblem (a `work` message with no `split`) or
//! a reject; every property holds; bad windows exit 2.

use serde_json::Value;

use super::lbcheck;

const UTS: &str = "uts:args=-t 0 -b 40 -q 0.2 -m 4 -r 1";

/// The events of a checked run (every property must pass).
fn events(args: &[&str], name: &str) -> Vec<Value> {
    let trace = std::env::temp_dir().join(format!("lbcheck-deactivate-{name}-{}.jsonl", std::process::id()));
    let trace = trace.to_str().unwrap();
    let mut all = vec!["simulate", "--workload", UTS, "--pes", "16", "--trace", trace];
    all.extend(args);
    let (code, out, err) = lbcheck(&all);
    assert_eq!(code, 0, "{args:?}:\n{out}{err}");
    let text = std::fs::read_to_string(trace).unwrap();
    std::fs::remove_file(trace).unwrap();
    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn at(e: &Value) -> u64 {
    e["t"].as_u64().unwrap()
}

/// PE 0, deactivated from the start, works on none of the root: the first
/// request takes all of it, with no split.
#[test]
fn a_deactivated_root_holder_gives_everything_away() {
    for seed in ["1", "2", "3"] {
        let ev = events(&["--deactivate", "0:0..500", "--seed", seed], "root");
        let of_pe0 =
            |kind: &'static str| ev.iter().filter(move |e| e["ev"] == kind && (e["pe"] == 0 || e["from"] == 0));
        assert!(of_pe0("work").all(|e| at(e) > 500), "PE 0 worked in its window (seed {seed})");
        let gift = of_pe0("send").find(|e| e["kind"] == "work").expect("PE 0 gives its root away");
        assert!(at(gift) < 500, "the root is given on request, inside the window");
        assert!(of_pe0("split").all(|s| at(s) > at(gift)), "the whole root goes, unsplit (seed {seed})");
    }
}

/// A PE deactivated mid-run ends its slice there, then neither works nor
/// asks until its window ends; it still answers every request; when the
/// window ends it works or asks again (`Pe::on_wake` → `()` left it idle
/// for ever: every property still held, cargo-mutants).
#[test]
fn a_deactivated_pe_is_silent_but_answers() {
    let (pe, from, to) = (5, 40, 200);
    let ev = events(&["--deactivate", &format!("{pe}:{from}..{to}"), "--seed", "1"], "mid");
    let mine = |e: &&Value| e["pe"] == pe || e["from"] == pe;
    let window: Vec<&Value> = ev.iter().filter(mine).filter(|e| (from + 10..to).contains(&at(e))).collect();
    assert!(!window.iter().any(|e| e["ev"] == "work"), "PE {pe} worked in its window: {window:?}");
    assert!(!window.iter().any(|e| e["ev"] == "send" && e["kind"] == "request"), "PE {pe} asked in its window");
    let asked = ev.iter().filter(|e| e["ev"] == "recv" && e["pe"] == pe && e["kind"] == "request");
    assert!(asked.filter(|e| (from..to).contains(&at(e))).count() > 0, "no request reached PE {pe} in its window");
    let back = |e: &&Value| e["ev"] == "work" || (e["ev"] == "send" && e["kind"] == "request");
    let after: Vec<u64> = ev.iter().filter(mine).filter(back).map(at).filter(|&t| t >= to).collect();
    assert_eq!(after.first().copied(), Some(to), "PE {pe} neither worked nor asked when its window ended");
}

/// No slice of a deactivated PE runs into its window (it is cut short,
/// to one unit at least): a slice is worked when it starts, so a part
/// given away in the window mid-slice would carry what the slice found
/// later (an incumbent before its solution; `check --full` found one).
#[test]
fn a_slice_ends_where_the_window_begins() {
    let (pe, from, speed) = (0, 43, 3);
    for seed in ["1", "2", "3"] {
        let window = format!("{pe}:{from}..200");
        let ev = events(&["--deactivate", &window, "--slow", &format!("16:{speed}"), "--seed", seed], "cut");
        let slices: Vec<(u64, u64)> = ev
            .iter()
            .filter(|e| e["ev"] == "work" && e["pe"] == pe)
            .map(|e| (at(e) - e["units"].as_u64().unwrap() * speed, at(e)))
            .collect();
        assert!(slices.iter().any(|&(_, end)| end <= from), "PE {pe} worked before its window (seed {seed})");
        let across = slices.iter().find(|&&(start, end)| start < from && end > from + speed);
        assert!(across.is_none(), "PE {pe}'s slice {across:?} runs into its window from {from} (seed {seed})");
    }
}

#[test]
fn bad_deactivations_exit_2() {
    for (args, says) in [
        (vec!["simulate", "--workload", UTS, "--deactivate", "1:9..3"], "FROM < TO"),
        (vec!["simulate", "--workload", UTS, "--deactivate", "1:5..1000000000000001"], "TO <= 10^15"),
        (vec!["simulate", "--workload", UTS, "--deactivate", "one:1..3"], "PE:FROM..TO"),
        (vec!["simulate", "--workload", UTS, "--pes", "4", "--deactivate", "4:1..3"], "no PE 4 among 4"),
        (vec!["simulate", "--workload", UTS, "--balancer", "pacheco", "--deactivate", "1:1..3"], "random polling"),
        (vec!["simulate", "--workload", UTS, "--slots", "2", "--deactivate", "1:1..3"], "one slot"),
        (vec!["run", "--workload", UTS, "--deactivate", "1:1..3"], "model time"),
        (vec!["explore", "--workload", "synthetic:size=8", "--pes", "3", "--deactivate", "1:0..5"], "not explored"),
        (vec!["simulate", "--workload", UTS, "--mutant", "inactive-silent"], "--deactivate"),
    ] {
        let (code, out, err) = lbcheck(&args);
        assert_eq!(code, 2, "{args:?}:\n{out}{err}");
        assert!(err.contains(says), "{args:?} should say {says}:\n{err}");
    }
    let (code, out, err) = lbcheck(&["simulate", "--workload", UTS, "--deactivate", "1:5..1000000000000000"]);
    assert_eq!(code, 0, "TO = 10^15 is allowed:\n{out}{err}");
    assert!(
        out.contains("replay: lbcheck simulate --balancer random-polling --deactivate 1:5..1000000000000000 "),
        "{out}"
    );
}

/// A deactivated PE that wakes mid-slice (its units already taken, so it
/// looks empty) with initial pieces still to come (`--initial-split
/// random:K`) must not ask then: the reply met its next piece and random
/// polling's "received work while holding work" assertion ended the run
/// with a panic (exit 101). Found by the user-detector swarm (issue 29).
/// Now the reference passes and energy-early-return fails a property.
#[test]
fn waking_mid_slice_with_pieces_left_does_not_ask() {
    let spec = [
        "simulate",
        "--balancer",
        "random-polling",
        "--serve",
        "all",
        "--deactivate",
        "14:23..80",
        "--workload",
        "synthetic:size=4096,atomic=2,split=fig3:8:4,seed=949",
        "--pes",
        "32",
        "--seed",
        "14839726963256065318",
        "--dt",
        "10",
        "--t-rout",
        "30",
        "--t-split",
        "1",
        "--latency",
        "2..40",
        "--latency-shape",
        "bimodal:0.02",
        "--initial-split",
        "random:8",
    ];
    let (code, _, err) = lbcheck(&spec);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = lbcheck(&[&spec[..], &["--mutant", "energy-early-return"]].concat());
    assert_eq!(code, 1, "{out}{err}");
    assert!(!err.contains("panicked"), "{err}");
}
