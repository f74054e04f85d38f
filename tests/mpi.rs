//! The MPI driver's done-when checks (issue 17; README "MPI"): `lbcheck
//! mpi` under `mpirun` on UTS T1, its trace checked by `check-trace`, a
//! mutant caught, a rank that dies or hangs ending the run within the
//! timeout. They need `mpirun` (Open MPI) on PATH and the binary built with
//! `--features mpi` (`cargo test --release --features mpi --test mpi`);
//! otherwise each says so on stderr and passes without running.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_lbcheck");

/// Says why a test did not run, past the test harness's capture.
fn skip(test: &str, why: &str) {
    let line = format!("SKIPPED mpi test `{test}`: {why}\n");
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// Why the MPI tests cannot run here, if they cannot.
fn unavailable() -> Option<String> {
    if !cfg!(feature = "mpi") {
        return Some("lbcheck was built without `--features mpi`".into());
    }
    match Command::new("mpirun").arg("--version").output() {
        Ok(out) if String::from_utf8_lossy(&out.stdout).contains("Open MPI") => None,
        Ok(_) => Some("`mpirun` is not Open MPI's (the tests pass it --oversubscribe)".into()),
        Err(_) => Some("`mpirun` is not on PATH (apt-get install libopenmpi-dev openmpi-bin)".into()),
    }
}

/// Runs `mpirun -np P lbcheck ARGS` with `env`, killed after `limit`;
/// returns its output and how long it took.
fn mpirun(p: u32, args: &[&str], env: &[(&str, &str)], limit: Duration) -> (Output, Duration) {
    let mut cmd = Command::new("mpirun");
    cmd.args(["--allow-run-as-root", "--oversubscribe", "-np", &p.to_string(), BIN]).args(args);
    cmd.envs(env.iter().copied()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().expect("mpirun starts");
    while child.try_wait().expect("mpirun is waited for").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("mpirun's output");
            panic!("mpirun ran longer than {limit:?}: {}", String::from_utf8_lossy(&out.stderr));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let elapsed = start.elapsed();
    (child.wait_with_output().expect("mpirun's output"), elapsed)
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("lbcheck-mpi-{}-{name}", std::process::id()))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn uts_t1_on_four_ranks_passes_and_its_one_trace_checks() {
    if let Some(why) = unavailable() {
        return skip("uts_t1_on_four_ranks_passes_and_its_one_trace_checks", &why);
    }
    let trace = temp("t1.jsonl");
    let t = trace.to_str().unwrap();
    let args = ["mpi", "--workload", "uts:T1", "--termination", "four-counter", "--trace", t, "--json"];
    let (out, _) = mpirun(4, &args, &[], Duration::from_secs(120));
    assert!(out.status.success(), "{}\n{}", text(&out.stdout), text(&out.stderr));
    let run: serde_json::Value = serde_json::from_slice(&out.stdout).expect("rank 0 prints one JSON report");
    assert_eq!(run["pes"], 4);
    assert_eq!(run["driver"], "mpi");
    let per_pe: Vec<u64> = serde_json::from_value(run["units_per_pe"].clone()).unwrap();
    assert_eq!((per_pe.len(), per_pe.iter().sum::<u64>()), (4, 4_130_071));
    let check = Command::new(BIN).args(["check-trace", t, "--json"]).output().unwrap();
    assert!(check.status.success(), "check-trace: {}\n{}", text(&check.stdout), text(&check.stderr));
    let report: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(report["metrics"]["work_done"], 4_130_071, "{report}");
    assert_eq!(report["t_seq"], 4_130_071);
    let header = std::fs::read_to_string(&trace).unwrap();
    let header: serde_json::Value = serde_json::from_str(header.lines().next().unwrap()).unwrap();
    assert_eq!((header["clock"].as_str(), header["run"]["driver"].as_str()), (Some("seq"), Some("mpi")));
    assert_eq!(header["pes"], 4);
    let _ = std::fs::remove_file(&trace);
}

#[test]
fn the_mutant_split_loses_fails_work_conserved() {
    if let Some(why) = unavailable() {
        return skip("the_mutant_split_loses_fails_work_conserved", &why);
    }
    let trace = temp("loses.jsonl");
    let t = trace.to_str().unwrap();
    let args =
        ["mpi", "--workload", "uts:T1", "--termination", "four-counter", "--mutant", "split-loses", "--trace", t];
    let (out, _) = mpirun(4, &args, &[], Duration::from_secs(120));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("FAILED work_conserved"), "{stderr}");
    assert!(stderr.contains("lbcheck mpi") && stderr.contains("--mutant split-loses"), "a replay command: {stderr}");
    let check = Command::new(BIN).args(["check-trace", t, "--json"]).output().unwrap();
    assert_eq!(check.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(report["properties"]["work_conserved"]["pass"], false, "{report}");
    let _ = std::fs::remove_file(&trace);
}

#[test]
fn a_rank_that_exits_mid_run_ends_the_run_with_an_error() {
    if let Some(why) = unavailable() {
        return skip("a_rank_that_exits_mid_run_ends_the_run_with_an_error", &why);
    }
    let args = ["mpi", "--workload", "uts:T1", "--termination", "four-counter", "--timeout", "10"];
    let (out, took) = mpirun(4, &args, &[("LBCHECK_MPI_FAULT", "2:40:exit")], Duration::from_secs(60));
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("rank 2: LBCHECK_MPI_FAULT: exiting"), "{stderr}");
    assert!(took < Duration::from_secs(10 + 15), "took {took:?}");
}

#[test]
fn a_rank_that_never_answers_ends_the_run_within_the_timeout() {
    if let Some(why) = unavailable() {
        return skip("a_rank_that_never_answers_ends_the_run_within_the_timeout", &why);
    }
    let args = ["mpi", "--workload", "uts:T1", "--termination", "four-counter", "--timeout", "3"];
    let (out, took) = mpirun(4, &args, &[("LBCHECK_MPI_FAULT", "2:40:hang")], Duration::from_secs(60));
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("no global termination within --timeout 3 s"), "{stderr}");
    assert!(stderr.contains("last event: {\"ev\":"), "the ranks' last events: {stderr}");
    assert!(took >= Duration::from_secs(3) && took < Duration::from_secs(3 + 15), "took {took:?}");
}

#[test]
fn without_the_feature_lbcheck_mpi_says_how_to_build_it() {
    if cfg!(feature = "mpi") {
        return skip("without_the_feature_lbcheck_mpi_says_how_to_build_it", "built with --features mpi");
    }
    let out = Command::new(BIN).args(["mpi", "--workload", "uts:T1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cargo build --release --features mpi"), "{}", text(&out.stderr));
}
