//! `lbcheck check --impl` (issue 28) on the demonstration outside Rust,
//! `examples/external/randpoll.py` (random polling with energy
//! termination, Python standard library): the correct program passes, each
//! planted bug fails with the property it breaks, the slower variant is
//! called "slower" by `compare`, a hanging program times out, a failing one
//! is named by its exit status; bad input exits 2. The Python tests need
//! `python3` on PATH; without it each says so on stderr and passes without
//! running.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_lbcheck");

/// The Done-when command line, with `extra` appended to the program's.
fn randpoll(extra: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/external/randpoll.py");
    format!(
        "python3 {} --pes {{pes}} --seed {{seed}} --workload {{workload}} --dt {{dt}} --t-split {{t_split}} --latency {{latency}} --trace {{trace}}{extra}",
        script.display()
    )
}

/// True if python3 runs; else says why the test is skipped.
fn python(test: &str) -> bool {
    let ok = Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        let line = format!("SKIPPED check --impl test `{test}`: python3 is not on PATH (apt-get install python3)\n");
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
    }
    ok
}

/// A fresh report directory.
fn out(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lbcheck-impl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `lbcheck check --impl CMD --out DIR ARGS…`: (exit code, stderr, junit.xml).
fn check(cmd: &str, dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["check", "--impl", cmd, "--out", dir.to_str().unwrap()];
    all.extend(["--balancer", "random-polling", "--termination", "energy"]);
    all.extend(args);
    let o = Command::new(BIN).args(&all).output().expect("run lbcheck");
    let junit = std::fs::read_to_string(dir.join("junit.xml")).unwrap_or_default();
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stderr).into_owned(), junit)
}

const BOTH: [&str; 4] = ["--impl-workload", "uts", "--impl-workload", "synthetic"];

#[test]
fn the_correct_program_passes_with_the_report_written() {
    if !python("the_correct_program_passes") {
        return;
    }
    let dir = out("correct");
    let (code, err, junit) = check(&randpoll(""), &dir, &BOTH);
    assert_eq!(code, 0, "{err}");
    for file in ["report.json", "junit.xml", "index.html"] {
        assert!(dir.join(file).exists(), "{file} missing");
    }
    assert!(junit.contains("testsuite name=\"impl\" tests=\"40\" failures=\"0\""), "{junit}");
    assert!(junit.contains("testsuite name=\"compare\" tests=\"2\" failures=\"0\" skipped=\"0\""), "{junit}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Each planted bug fails every run with the property it breaks.
#[test]
fn each_bug_fails_with_the_property_it_breaks() {
    if !python("each_bug_fails") {
        return;
    }
    for (bug, property) in
        [("lose-work", "work_conserved"), ("dup-work", "work_conserved"), ("ignore-requests", "requests_answered")]
    {
        let dir = out(bug);
        let (code, err, junit) =
            check(&randpoll(&format!(" --bug {bug}")), &dir, &[&BOTH[..], &["--impl-runs", "4"]].concat());
        assert_eq!(code, 1, "{bug}: {err}");
        assert_eq!(junit.matches(&format!("failure message=\"{property}\"")).count(), 4, "{bug}: {junit}");
        assert!(err.contains("replay with: ") && err.contains(&format!("--bug {bug}")), "{err}");
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// docs/trace-format.md's synthetic tree, as randpoll.py builds it, is the
/// reference's: `compare` reads "consistent" on every synthetic group (a
/// program that halves every part, ignoring `split=` and `atomic=`, read
/// "faster" on both), and the bounds claims that apply hold, each with its α.
#[test]
fn the_documented_synthetic_tree_reads_consistent() {
    if !python("the_documented_synthetic_tree") {
        return;
    }
    let dir = out("synthetic");
    let (code, err, _) =
        check(&randpoll(""), &dir, &["--impl-workload", "synthetic", "--no-slower-than", "random-polling"]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap();
    let compares: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["layer"] == "compare")
        .map(|c| c["detail"].as_str().unwrap())
        .collect();
    let (compares, not_slower): (Vec<&str>, Vec<&str>) =
        compares.into_iter().partition(|d| !d.starts_with("not slower"));
    assert!(
        not_slower.len() == 2 && not_slower.iter().all(|d| d.contains("than `random-polling` — synthetic:")),
        "{not_slower:?}"
    );
    assert_eq!(compares.len(), 2, "{compares:?}");
    assert!(compares.iter().all(|d| d.starts_with("consistent — synthetic:")), "{compares:?}");
    for claim in [
        "t_par (001 Thm 1 / 002 Thm 1: R bounded) holds",
        "remaining_time (001 Lemma 6: time after gen ≥ h, / (T_atomic + h(Δt + T_split + T_rout)), bounded) holds",
        "traffic (002 Thm 1: messages/(P·h) bounded) holds",
    ] {
        assert!(compares.iter().all(|d| d.contains(claim) && d.contains("α = 0.0033")), "{claim}: {compares:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_slower_program_is_called_slower_by_compare() {
    if !python("a_slower_program") {
        return;
    }
    let dir = out("slow");
    let (code, err, junit) =
        check(&randpoll(" --bug slow"), &dir, &["--impl-workload", "uts:default", "--impl-runs", "20"]);
    assert_eq!(code, 1, "{err}");
    assert!(junit.contains("testsuite name=\"impl\" tests=\"20\" failures=\"0\""), "{junit}");
    assert!(junit.contains("failure message=\"slower, bound t_par\""), "{junit}");
    assert!(err.contains("FAILED compare/g1/uts:default: slower — uts:default"), "{err}");
    let (code, err, _) = check(
        &randpoll(" --bug slow"),
        &dir,
        &["--impl-workload", "uts:default", "--impl-runs", "20", "--allow-slower"],
    );
    assert_eq!(code, 0, "{err}");
    // --no-slower-than is not waived by --allow-slower: exit 1, its case named.
    let args =
        ["--impl-workload", "uts:default", "--impl-runs", "20", "--allow-slower", "--no-slower-than", "random-polling"];
    let (code, err, junit) = check(&randpoll(" --bug slow"), &dir, &args);
    assert_eq!(code, 1, "{err}");
    assert!(junit.contains("failure message=\"no_slower_than\""), "{junit}");
    assert!(
        err.contains("FAILED compare/g1/uts:default/no-slower-than/random-polling: slower than `random-polling`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A hang is killed at the timeout; lbcheck neither hangs nor crashes.
#[test]
fn a_hanging_program_times_out_cleanly() {
    if !python("a_hanging_program") {
        return;
    }
    let dir = out("hang");
    let start = Instant::now();
    let args = ["--impl-workload", "uts:default", "--impl-timeout", "2", "--impl-runs", "2"];
    let (code, err, junit) = check(&randpoll(" --bug hang"), &dir, &args);
    assert_eq!(code, 1, "{err}");
    assert!(start.elapsed() < Duration::from_secs(60), "{:?}", start.elapsed());
    assert_eq!(junit.matches("failure message=\"timeout\"").count(), 2, "{junit}");
    assert!(err.contains("timeout: the program was still running after 2 s"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn sleep_and_false_fail_with_timeout_and_exit_status() {
    let dir = out("sleep");
    let start = Instant::now();
    let args = ["--impl-workload", "uts:default", "--impl-timeout", "5", "--impl-runs", "2"];
    let (code, err, _) = check("sleep 1000", &dir, &args);
    assert_eq!(code, 1, "{err}");
    assert!(start.elapsed() < Duration::from_secs(60), "{:?}", start.elapsed());
    assert!(err.contains("timeout"), "{err}");
    let (code, err, junit) = check("false", &out("false"), &args);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the program exited with status 1"), "{err}");
    assert!(junit.contains("failure message=\"exit_status\""), "{junit}");
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(out("false"));
}

/// Bad input exits 2 with a message naming what is wrong.
#[test]
fn bad_input_exits_2() {
    let dir = out("bad");
    let cases: [(&str, &[&str], &str); 5] = [
        ("prog {pe}", &["--impl-workload", "uts"], "unknown placeholder `{pe}`"),
        ("prog {pes} {seed}", &["--impl-workload", "uts"], "passes {pes}, {seed} but not {dt}"),
        ("prog", &["--impl-workload", "utz"], "`utz` is neither a workload family"),
        (
            "prog",
            &["--impl-workload", "uts", "--no-slower-than", "nosuch"],
            "unknown balancer `nosuch`; valid: random-polling",
        ),
        (
            "prog",
            &["--impl-workload", "uts", "--no-slower-than", "poll-and-shuffle"],
            "--no-slower-than poll-and-shuffle: g1",
        ),
    ];
    for (cmd, args, want) in cases {
        let (code, err, _) = check(cmd, &dir, args);
        assert_eq!(code, 2, "{cmd}: {err}");
        assert!(err.contains(want), "{cmd}: {err}");
    }
    let o = Command::new(BIN).args(["check", "--impl", "prog", "--impl-workload", "uts"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--impl needs --balancer KIND and --termination KIND"));
    let _ = std::fs::remove_dir_all(dir);
}

/// docs/trace-format.md's text.
fn trace_format() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/trace-format.md")).unwrap()
}

/// The doc's property table lists exactly the properties `check-trace
/// --explain` accepts, in its order.
#[test]
fn the_docs_property_table_equals_explains_list() {
    let o = Command::new(BIN).args(["check-trace", "--explain", "?"]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let list = err.split("[possible values: ").nth(1).and_then(|s| s.split(']').next()).expect("the list");
    let explain: Vec<&str> = list.split(", ").collect();
    let doc = trace_format();
    let table = doc.split("## Properties").nth(1).unwrap().split("**First causes.**").next().unwrap();
    let rows: Vec<&str> =
        table.lines().filter_map(|l| l.strip_prefix("| `")).filter_map(|l| l.split('`').next()).collect();
    assert_eq!(rows, explain);
}

/// The worked example in the doc passes `lbcheck check-trace`.
#[test]
fn the_docs_worked_example_passes_check_trace() {
    let doc = trace_format();
    let block =
        doc.split("<!-- worked example: begin -->").nth(1).unwrap().split("<!-- worked example: end -->").next();
    let lines: Vec<&str> = block.unwrap().lines().filter(|l| l.starts_with('{')).collect();
    assert_eq!(lines.len(), 32);
    let path = std::env::temp_dir().join(format!("lbcheck-worked-example-{}.jsonl", std::process::id()));
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let o = Command::new(BIN).args(["check-trace", path.to_str().unwrap()]).output().unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(!out.contains("FAIL"), "{out}");
    std::fs::remove_file(path).unwrap();
}

/// A foreign trace (`run.driver: "external"`, no `spec`) that fails a
/// property names no replay command (the reference's would be bogus), and
/// its `x-` fields are ignored.
#[test]
fn a_failing_external_trace_names_no_replay_command() {
    let doc = trace_format();
    let block =
        doc.split("<!-- worked example: begin -->").nth(1).unwrap().split("<!-- worked example: end -->").next();
    let mut lines: Vec<String> = block.unwrap().lines().filter(|l| l.starts_with('{')).map(String::from).collect();
    lines[0] = lines[0].replace("\"seed\": 1,", "\"seed\": 1, \"x-commit\": \"abc\",");
    lines[1] = lines[1].replace('}', ", \"x-host\": \"n1\"}");
    lines.remove(12); // PE 0's second slice: work is lost
    let path = std::env::temp_dir().join(format!("lbcheck-external-fails-{}.jsonl", std::process::id()));
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let o = Command::new(BIN).args(["check-trace", path.to_str().unwrap()]).output().unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(out.contains("work_conserved         FAIL"), "{out}");
    assert!(err.contains("note: no replay command") && !format!("{out}{err}").contains("simulate"), "{out}{err}");
    std::fs::remove_file(path).unwrap();
}

/// lbcheck's own simulator as the program, handed the run as `{spec}`:
/// every run passes and `compare` finds it consistent with itself.
#[test]
fn the_reference_itself_through_spec_is_consistent() {
    let dir = out("itself");
    let cmd = format!("env -u LBCHECK_SEED {BIN} simulate --spec {{spec}} --trace {{trace}}");
    let (code, err, junit) = check(&cmd, &dir, &["--impl-workload", "uts:default", "--impl-runs", "20"]);
    assert_eq!(code, 0, "{err}");
    assert!(junit.contains("testsuite name=\"compare\" tests=\"1\" failures=\"0\" skipped=\"0\""), "{junit}");
    let report = std::fs::read_to_string(dir.join("report.json")).unwrap();
    assert!(report.contains("\"detail\": \"consistent — uts:default"), "{report}");
    let _ = std::fs::remove_dir_all(dir);
}
