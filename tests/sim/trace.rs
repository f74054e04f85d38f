//! Determinism, the trace format, `check-trace`, and a JSON snapshot.

use lbcheck::harness::RunSpec;

use super::{lbcheck, scenario, sim};

fn trace_bytes(s: &RunSpec) -> Vec<u8> {
    let mut buf = Vec::new();
    s.run(Some(&mut buf)).expect("trace into memory");
    buf
}

#[test]
fn same_seed_same_event_stream() {
    for d in super::DETECTORS {
        let mut s = scenario("uts:args=-t 0 -b 30 -q 0.2 -m 4 -r 11", d, 13, 77);
        sim(&mut s).latency = Some((1, 40));
        let (a, b) = (trace_bytes(&s), trace_bytes(&s));
        assert!(a.len() > 1000);
        assert_eq!(a, b, "two runs of the same seed differ ({d})");
        sim(&mut s).seed += 1;
        assert_ne!(a, trace_bytes(&s), "another seed should give another stream");
    }
}

fn write_trace(name: &str, extra: &[&str]) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("lbcheck-{name}-{}.jsonl", std::process::id()));
    let mut args = vec!["simulate", "--workload", "uts:default", "--pes", "8", "--seed", "5", "--trace"];
    let p = path.to_str().unwrap().to_string();
    args.push(&p);
    args.extend_from_slice(extra);
    let (code, _, err) = lbcheck(&args);
    assert_eq!(code, 0, "{err}");
    path
}

#[test]
fn check_trace_accepts_the_simulators_trace() {
    for t in ["energy", "energy-tree", "four-counter"] {
        let path = write_trace(t, &["--termination", t]);
        let (code, out, err) = lbcheck(&["check-trace", path.to_str().unwrap()]);
        assert_eq!(code, 0, "{out}{err}");
        std::fs::remove_file(path).ok();
    }
}

#[test]
fn check_trace_rejects_a_lost_work_message() {
    let path = write_trace("lost", &["--termination", "four-counter"]);
    let text = std::fs::read_to_string(&path).unwrap();
    let lost = text.lines().position(|l| l.contains("\"ev\":\"recv\"") && l.contains("\"kind\":\"work\"")).unwrap();
    let edited: Vec<&str> = text.lines().enumerate().filter(|(i, _)| *i != lost).map(|(_, l)| l).collect();
    std::fs::write(&path, edited.join("\n") + "\n").unwrap();
    let (code, _, err) = lbcheck(&["check-trace", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no_early_termination") && err.contains("line"), "{err}");
    std::fs::remove_file(path).ok();
}

/// Work lost without a trace of it: the report keeps the workload's T_seq
/// (not the work found in the trace) and blames `work_conserved` alone.
#[test]
fn a_lost_work_event_fails_work_conserved_alone() {
    let path = write_trace("lost-work", &["--termination", "energy"]);
    let text = std::fs::read_to_string(&path).unwrap();
    let lost = text.lines().position(|l| l.contains("\"ev\":\"work\"")).unwrap();
    let edited: Vec<&str> = text.lines().enumerate().filter(|(i, _)| *i != lost).map(|(_, l)| l).collect();
    std::fs::write(&path, edited.join("\n") + "\n").unwrap();
    let (code, out, err) = lbcheck(&["check-trace", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let (_, tree, _) = lbcheck(&["tree", "uts:default", "--json"]);
    let fp = serde_json::from_str::<serde_json::Value>(&tree).unwrap()["fingerprint"].as_str().unwrap().to_string();
    let units = serde_json::Value::from(fp.split('-').next().unwrap().parse::<u64>().unwrap());
    assert_eq!(v["t_seq"], units, "{out}");
    assert!(v["metrics"]["work_done"].as_u64() < units.as_u64(), "{out}");
    let props = v["properties"].as_object().unwrap();
    let causes: Vec<&String> =
        props.iter().filter(|(_, p)| p["pass"] == false && p["follows"].is_null()).map(|(n, _)| n).collect();
    assert_eq!(causes, ["work_conserved"], "{out}");
    std::fs::remove_file(path).ok();
}

/// `-` reads the trace from standard input (a foreign program can pipe it).
#[test]
fn check_trace_reads_standard_input() {
    use std::io::Write;
    let path = write_trace("stdin", &[]);
    let run = |bytes: &[u8]| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_lbcheck"))
            .args(["check-trace", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(bytes).unwrap();
        let out = child.wait_with_output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    assert_eq!(run(&std::fs::read(&path).unwrap()).0, Some(0));
    let (code, err) = run(b"{\"ev\":\"end\"}\n");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("standard input is not a valid trace: line 1: missing field `t`"), "{err}");
    std::fs::remove_file(path).ok();
}

#[test]
fn check_trace_bad_input_exits_2() {
    let path = std::env::temp_dir().join(format!("lbcheck-garbage-{}.jsonl", std::process::id()));
    std::fs::write(&path, "{\"ev\":\"end\",\"t\":1}\nnot json\n").unwrap();
    let (code, _, err) = lbcheck(&["check-trace", path.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 2"), "{err}");
    let huge = "{\"ev\":\"header\",\"version\":1,\"pes\":4000000000,\"workload\":\"uts:default\",\"split\":\"bottom-half\",\"balancer\":\"b\",\"detector\":\"energy\",\"t_split\":1}\n";
    std::fs::write(&path, huge).unwrap();
    let (code, _, err) = lbcheck(&["check-trace", path.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("exceeds"), "{err}");
    let (code, _, err) = lbcheck(&["check-trace", "/nonexistent/trace.jsonl"]);
    assert_eq!(code, 2, "{err}");
    std::fs::remove_file(path).ok();
}

#[test]
fn small_run_json_snapshot() {
    let (code, out, err) = lbcheck(&[
        "simulate",
        "--workload",
        "uts:default",
        "--termination",
        "four-counter",
        "--pes",
        "4",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for wall_clock in ["wall_secs", "reference_wall_secs", "nodes_per_sec"] {
        assert!(v[wall_clock].as_f64().is_some_and(|x| x > 0.0), "{wall_clock}: {out}");
        v[wall_clock] = "(wall clock)".into();
    }
    insta::assert_json_snapshot!(v);
}

#[test]
fn explain_prints_what_a_property_checks() {
    let (code, out, err) = lbcheck(&["check-trace", "--explain", "no_early_termination"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("`no_early_termination`") && out.contains("after the first"), "{out}");
    let (code, _, err) = lbcheck(&["check-trace", "--explain", "nope"]);
    assert_eq!(code, 2, "{err}");
}

/// A workload lbcheck cannot run (`custom`) is checked against the
/// fingerprint its header (or `--expect-fingerprint`) gives: the right one
/// passes, a wrong one fails `work_conserved`, none is bad input.
#[test]
fn a_custom_workload_is_checked_against_its_fingerprint() {
    let path = write_trace("custom", &[]);
    let fp = |w: &str| {
        let (_, out, _) = lbcheck(&["tree", w, "--json"]);
        serde_json::from_str::<serde_json::Value>(&out).unwrap()["fingerprint"].as_str().unwrap().to_string()
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    let custom = |extra: &str| {
        let mut h: serde_json::Value = serde_json::from_str(header).unwrap();
        h.as_object_mut().unwrap().remove("run");
        h["workload"] = "custom".into();
        let h = h.to_string();
        let h = if extra.is_empty() { h } else { format!("{},{extra}}}", &h[..h.len() - 1]) };
        std::fs::write(&path, format!("{h}\n{rest}")).unwrap();
        lbcheck(&["check-trace", path.to_str().unwrap()])
    };
    let (code, out, err) = custom(&format!("\"fingerprint\":\"{}\"", fp("uts:default")));
    assert_eq!(code, 0, "{out}{err}");
    let (code, _, err) = custom(&format!("\"fingerprint\":\"{}\"", fp("uts:args=-t 0 -b 40 -q 0.2 -m 4 -r 1")));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("FAILED work_conserved"), "{err}");
    let (code, _, err) = custom("");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("needs the expected `fingerprint`"), "{err}");
    let (code, _, err) = lbcheck(&["check-trace", path.to_str().unwrap(), "--expect-fingerprint", &fp("uts:default")]);
    assert_eq!(code, 0, "{err}");
    std::fs::remove_file(path).ok();
}

/// A hand-written trace of a synthetic workload: `split` is free text for
/// it; an unknown header field is an error naming the field, as in events.
#[test]
fn hand_written_traces_follow_the_documented_rules() {
    let (_, out, _) = lbcheck(&["tree", "synthetic:size=10", "--json"]);
    let fp = serde_json::from_str::<serde_json::Value>(&out).unwrap()["fingerprint"].as_str().unwrap().to_string();
    let header = r#"{"ev":"header","version":1,"pes":1,"workload":"synthetic:size=10","split":"n/a","balancer":"mine","detector":"mine","t_split":1"#;
    let events = format!(
        "{{\"ev\":\"busy\",\"t\":0,\"pe\":0}}\n{{\"ev\":\"work\",\"t\":10,\"pe\":0,\"units\":10,\"gen\":0,\"fp\":\"{fp}\"}}\n\
         {{\"ev\":\"idle\",\"t\":10,\"pe\":0}}\n{{\"ev\":\"announce\",\"t\":10,\"pe\":0}}\n\
         {{\"ev\":\"terminated\",\"t\":10,\"pe\":0}}\n{{\"ev\":\"end\",\"t\":10}}\n"
    );
    let path = std::env::temp_dir().join(format!("lbcheck-hand-{}.jsonl", std::process::id()));
    std::fs::write(&path, format!("{header}}}\n{events}")).unwrap();
    let (code, out, err) = lbcheck(&["check-trace", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    std::fs::write(&path, format!("{header},\"colour\":\"red\"}}\n{events}")).unwrap();
    let (code, _, err) = lbcheck(&["check-trace", path.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 1: unknown field `colour`"), "{err}");
    std::fs::remove_file(path).ok();
}
