//! `lbcheck run` (real threads) from the command line: a checked run passes,
//! and the `--timeout` hang guard fails a run that does not finish in time.

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
