//! The MPI driver's done-when checks (issue 17; docs/guide.md "MPI"): `lbcheck
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
/// returns its output and how long it took. Its pipes are drained as it
/// runs (a full pipe would stall it).
fn mpirun(p: u32, args: &[&str], env: &[(&str, &str)], limit: Duration) -> (Output, Duration) {
    let mut cmd = Command::new("mpirun");
    cmd.args(["--allow-run-as-root", "--oversubscribe", "-np", &p.to_string(), BIN]).args(args);
    cmd.envs(env.iter().copied()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().expect("mpirun starts");
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("a stdout pipe")));
    let stderr = drain(Box::new(child.stderr.take().expect("a stderr pipe")));
    let status = loop {
        if let Some(status) = child.try_wait().expect("mpirun is waited for") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mpirun ran longer than {limit:?}: {}", text(&stderr.join().unwrap_or_default()));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let elapsed = start.elapsed();
    let (stdout, stderr) = (stdout.join().expect("stdout"), stderr.join().expect("stderr"));
    (Output { status, stdout, stderr }, elapsed)
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
    assert_eq!((header["clock"].as_str(), header["spec"]["driver"]["name"].as_str()), (Some("seq"), Some("mpi")));
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

/// A few cases of every kind of unit (runs, threaded runs, two bounds
/// suites, explorations, adequacy cells), seconds in all.
const SMALL: &str = "simulate/random-polling/energy/#1,threads/random-polling/energy/,bounds/pacheco,bounds/scatter,\
    explore/random-polling,mutants/split-loses,mutants/pas-";

/// (layer/name, verdict, failed) of every case of a report.json, in order.
fn verdicts(dir: &std::path::Path) -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(dir.join("report.json")).expect("a report.json");
    let report: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let cases = report["cases"].as_array().expect("cases").iter();
    cases
        .map(|c| (format!("{}/{}", c["layer"], c["name"]), c["verdict"].to_string(), c["failed"].to_string()))
        .collect()
}

/// `lbcheck check ARGS --out DIR` in one process: its exit code.
fn check_alone(args: &[&str], out: &std::path::Path) -> Option<i32> {
    let out = Command::new(BIN).arg("check").args(args).arg("--out").arg(out).output().expect("lbcheck runs");
    out.status.code()
}

/// The campaign under `mpirun -np 2 ... check --mpi` and in one process:
/// the same exit code and the same verdicts, case by case, in the same order.
fn same_verdicts_over_two_ranks(test: &str, args: &[&str], code: i32) {
    let (alone, over) = (temp(&format!("{test}-alone")), temp(&format!("{test}-mpi")));
    assert_eq!(check_alone(args, &alone), Some(code));
    let mut mpi_args = vec!["check", "--mpi", "--out", over.to_str().unwrap()];
    mpi_args.extend(args);
    let (out, _) = mpirun(2, &mpi_args, &[], Duration::from_secs(60));
    assert_eq!(out.status.code(), Some(code), "{}\n{}", text(&out.stdout), text(&out.stderr));
    let (a, b) = (verdicts(&alone), verdicts(&over));
    assert!(a.len() > 100, "{} cases", a.len());
    let simulated = a.iter().filter(|(name, ..)| name.starts_with("\"simulate\"/")).count();
    let shown =
        text(&out.stderr).lines().find_map(|l| l.strip_prefix("simulate: ")?.strip_suffix(" cases")?.parse().ok());
    let share: usize = shown.expect("rank 0's progress");
    assert!(0 < share && share < simulated, "rank 0 ran {share} of {simulated} runs: rank 1 ran the rest");
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x, y, "the first case that differs");
    }
    assert_eq!(a.len(), b.len());
    let _ = (std::fs::remove_dir_all(alone), std::fs::remove_dir_all(over));
}

#[test]
fn check_over_two_ranks_gives_the_single_process_verdicts() {
    if let Some(why) = unavailable() {
        return skip("check_over_two_ranks_gives_the_single_process_verdicts", &why);
    }
    same_verdicts_over_two_ranks("check", &["--quick", "--only", SMALL], 0);
}

#[test]
fn a_failing_campaign_over_two_ranks_fails_the_same_cases_and_exits_1() {
    if let Some(why) = unavailable() {
        return skip("a_failing_campaign_over_two_ranks_fails_the_same_cases_and_exits_1", &why);
    }
    let args = ["--quick", "--mutant", "split-loses", "--only", "simulate/random-polling/energy/#1,explore/random"];
    same_verdicts_over_two_ranks("failing", &args, 1);
}

#[test]
fn check_mpi_without_mpirun_is_the_whole_campaign_in_one_rank() {
    if let Some(why) = unavailable() {
        return skip("check_mpi_without_mpirun_is_the_whole_campaign_in_one_rank", &why);
    }
    let (alone, single) = (temp("single-alone"), temp("single-mpi"));
    let args = ["--quick", "--only", "simulate/random-polling/energy/#1,bounds/pacheco"];
    assert_eq!(check_alone(&args, &alone), Some(0));
    let out = Command::new(BIN).args(["check", "--mpi", "--out", single.to_str().unwrap()]).args(args).output();
    let out = out.expect("lbcheck runs");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(verdicts(&alone), verdicts(&single));
    let _ = (std::fs::remove_dir_all(alone), std::fs::remove_dir_all(single));
}

#[test]
fn check_mpi_with_no_matching_case_exits_2_on_every_rank() {
    if let Some(why) = unavailable() {
        return skip("check_mpi_with_no_matching_case_exits_2_on_every_rank", &why);
    }
    let out = temp("none");
    let args = ["check", "--mpi", "--only", "no-such-case", "--out", out.to_str().unwrap()];
    let (run, _) = mpirun(2, &args, &[], Duration::from_secs(60));
    let stderr = text(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.matches("no case matches --only no-such-case").count(), 1, "rank 0 says why, once: {stderr}");
    assert!(!out.exists(), "no report");
}

#[test]
fn without_the_feature_check_mpi_says_how_to_build_it() {
    if cfg!(feature = "mpi") {
        return skip("without_the_feature_check_mpi_says_how_to_build_it", "built with --features mpi");
    }
    let out = Command::new(BIN).args(["check", "--mpi", "--only", "simulate/random-polling/energy/#1"]).output();
    let out = out.unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cargo build --release --features mpi"), "{}", text(&out.stderr));
}
