//! The `lbcheck tree` command: snapshots of its output and exit code 2 with a
//! clear message for every kind of bad input.

use std::process::Command;

fn lbcheck(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lbcheck")).args(args).output().expect("run lbcheck");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("utf-8 output");
    (out.status.code().expect("exit code"), text(out.stdout), text(out.stderr))
}

#[test]
fn tree_default_human() {
    let (code, out, _) = lbcheck(&["tree", "uts:default"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!(out);
}

#[test]
fn tree_default_json() {
    let (code, out, _) = lbcheck(&["tree", "uts:default", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    insta::assert_json_snapshot!(v);
}

#[test]
fn synthetic_reports_work_equal_to_size_and_h() {
    let (code, out, _) = lbcheck(&["tree", "synthetic:size=100000,atomic=7,split=alpha:0.25,seed=2", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["work"], 100000);
    assert!(v["max_split_gen"].as_u64().unwrap() <= v["h"].as_u64().unwrap());
    assert_eq!(v["t_atomic"], 7);
}

#[test]
fn bad_input_exits_2_with_the_valid_forms() {
    let cases: &[(&[&str], &str)] = &[
        (&["tree", "uts:args=-t 9"], "-t 9"),
        (&["tree", "uts:args=-q 2"], "-q 2"),
        (&["tree", "uts:args=-b"], "no value"),
        (&["tree", "uts:args=-z 3"], "unknown flag"),
        (&["tree", "uts:T7"], "valid forms"),
        (&["tree", "synthetic:size=0"], "1 <= atomic <= size"),
        (&["tree", "synthetic:size=10,atomic=11"], "1 <= atomic <= size"),
        (&["tree", "synthetic:size=10,split=zigzag"], "unknown split policy"),
        (&["tree", "synthetic:size=10,split=alpha:1.5"], "alpha"),
        (&["tree", "synthetic:size=10,split=fig3:3"], "power-of-two"),
        (&["tree", "synthetic:size=ten"], "not a valid number"),
        (&["tree", "synthetic:size=10,size=11"], "twice"),
        (&["tree", "loop:n=0"], "n="),
        (&["tree", "loop:n=5,cost=wild"], "cost profile"),
        (&["tree", "nonsense"], "valid forms"),
        (&["tree", "uts:default", "--split", "sideways"], "split strategy"),
        (&["tree"], "Usage"),
        (&["frobnicate"], "Usage"),
    ];
    for (args, needle) in cases {
        let (code, _, err) = lbcheck(args);
        assert_eq!(code, 2, "{args:?} should exit 2; stderr: {err}");
        assert!(err.contains(needle), "{args:?}: stderr lacks `{needle}`:\n{err}");
        assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    }
}
