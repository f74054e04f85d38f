//! `lbcheck run` (real threads) from the command line: a checked run passes,
//! a mutant's fails, bad mutant names exit 2, a recorded trace checks, and
//! the `--timeout` hang guard fails a run that does not finish in time.

use super::lbcheck;

#[test]
fn checked_threaded_run_passes() {
    let (code, out, err) = lbcheck(&["run", "--workload", "uts:default", "--threads", "2", "--check", "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["properties"].as_object().unwrap().values().all(|p| p["pass"] == true), "{out}");
}

#[test]
fn timeout_fails_a_run_that_does_not_finish_in_time() {
    let (code, _, err) = lbcheck(&["run", "--workload", "uts:T1XL", "--threads", "2", "--timeout", "1"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("FAILED termination_detected") && err.contains("replay with:"), "{err}");
}

#[test]
fn a_protocol_mutant_fails_the_check() {
    // Retried while no split happened (PE 0 may finish before PE 1 asks).
    for seed in 0..5 {
        let seed = seed.to_string();
        let args = ["run", "--workload", "uts:T1", "--mutant", "split-loses", "--check", "--json", "--seed", &seed];
        let (code, out, err) = lbcheck(&args);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}"));
        assert_eq!(v["mutant"], "split-loses", "{out}");
        if v["max_gen"] == 0 {
            continue;
        }
        assert_eq!(code, 1, "{out}{err}");
        assert_eq!(v["properties"]["work_conserved"]["pass"], false, "{out}");
        assert!(err.contains("replay with:") && err.contains("--mutant split-loses"), "{err}");
        return;
    }
    panic!("no run split in 5 tries");
}

#[test]
fn unknown_mutants_list_both_catalogues() {
    let (code, _, err) = lbcheck(&["run", "--workload", "uts:T1", "--mutant", "nope"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("four-counter-one-wave") && err.contains("lost-wakeup"), "{err}");
}

/// A real run's trace says its clock is nanoseconds, and `check-trace`
/// passes it, with `lower_bound` not applicable (it needs model time).
#[test]
fn a_recorded_trace_checks_with_its_clock() {
    let path = std::env::temp_dir().join(format!("lbcheck-run-trace-{}.jsonl", std::process::id()));
    let path = path.to_str().unwrap();
    let run = ["run", "--workload", "uts:default", "--threads", "3", "--initial-split", "--termination", "energy"];
    let (code, out, err) = lbcheck(&[&run[..], &["--trace", path]].concat());
    assert_eq!(code, 0, "{out}{err}");
    let header = std::fs::read_to_string(path).unwrap().lines().next().unwrap().to_string();
    assert!(header.contains(r#""clock":"ns""#), "{header}");
    let (code, out, err) = lbcheck(&["check-trace", path, "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let lower = v["properties"]["lower_bound"]["detail"].as_str().unwrap();
    assert!(lower.starts_with("not applicable: times are nanoseconds"), "{lower}");
    std::fs::remove_file(path).unwrap();
}

/// `--serve all` (003 §14.7.2) passes every property, and its trace's
/// header replays it.
#[test]
fn serve_all_passes_and_replays_from_its_trace() {
    let path = std::env::temp_dir().join(format!("lbcheck-serve-all-{}.jsonl", std::process::id()));
    let path = path.to_str().unwrap();
    let (code, out, err) =
        lbcheck(&["simulate", "--workload", "uts:default", "--pes", "16", "--serve", "all", "--trace", path]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, _) = lbcheck(&["check-trace", path]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("--serve all"), "the replay names --serve all:\n{out}");
    let (code, _, err) = lbcheck(&[
        "simulate",
        "--workload",
        "uts:default",
        "--serve",
        "all",
        "--balancer",
        "random-destination",
        "--machine",
        "atomic",
    ]);
    assert_eq!(code, 2, "{err}");
}

/// `--queue-limit sqrt` (001 §4): ⌈√P⌉, so on 64 PEs no request meets
/// more than 8 queued, even when every PE asks PE 0 (`poll-hotspot`,
/// whose queue reaches 62 without the limit).
#[test]
fn queue_limit_sqrt_caps_the_queue_at_root_p() {
    let max_queue = |extra: &[&str]| {
        let mut args =
            vec!["simulate", "--workload", "uts:default", "--pes", "64", "--mutant", "poll-hotspot", "--json"];
        args.extend(extra);
        let (_, out, _) = lbcheck(&args);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        (v["metrics"]["queue"]["max"].as_u64().unwrap(), v["replay"].as_str().unwrap().to_string())
    };
    let (capped, replay) = max_queue(&["--queue-limit", "sqrt"]);
    assert!(capped <= 8 && replay.contains("--queue-limit sqrt"), "{capped}: {replay}");
    assert!(max_queue(&[]).0 > 8, "without the limit the hot spot's queue grows past ⌈√P⌉");
    assert_eq!(lbcheck(&["simulate", "--workload", "uts:default", "--queue-limit", "root"]).0, 2);
}
