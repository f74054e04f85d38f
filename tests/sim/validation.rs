//! Bad input exits 2 with a message naming the valid range, quickly, and
//! never panics: the inputs that once panicked on wrapped model time, hung,
//! or passed with vacuous verdicts.

use std::time::{Duration, Instant};

use super::lbcheck;

const MAX: &str = "18446744073709551615";

/// (arguments after `simulate --workload uts:default`, what the message names).
const SIMULATE: &[(&[&str], &str)] = &[
    (&["--latency", "18446744073709551615..18446744073709551615"], "valid 1..=1000000000"),
    (&["--latency", "1..18446744073709551615"], "valid 1..=1000000000"),
    (&["--latency", "9..3"], "valid 9..=1000000000"),
    (&["--latency", "0..5"], "valid 1..=1000000000"),
    (&["--latency", "x"], "1 <= a <= b <= 10^9"),
    (&["--t-rout", MAX], "valid 1..=1000000000"),
    (&["--t-rout", "0"], "valid 1..=1000000000"),
    (&["--slow", "1:18446744073709551615"], "FACTOR in 1..=1000000"),
    (&["--slow", "2:0"], "FACTOR in 1..=1000000"),
    (&["--slow", "9:2", "--pes", "4"], "COUNT in 0..=4"),
    (&["--termination", "four-counter", "--t-split", "9223372036854775807"], "valid 0..=1000000000"),
    (&["--t-split", MAX], "valid 0..=1000000000"),
    (&["--dt", "0"], "valid 1..=1000000000"),
    (&["--max-steps", "0"], "valid 1..="),
    (&["--detect-horizon", MAX], "valid 0..=1000000000000000"),
    (&["--pes", "0"], "1..=1048576"),
    (&["--trace", "/nonexistent/dir/t.jsonl"], "cannot create"),
];

/// Whole command lines.
const OTHERS: &[(&[&str], &str)] = &[
    (&["simulate", "--workload", "uts:T9"], "unknown workload"),
    (&["simulate", "--workload", "synthetic:size=18446744073709551615", "--pes", "4"], "size <= 1000000000"),
    (&["simulate", "--workload", "synthetic:size=10,atomic=18446744073709551615"], "atomic <= size"),
    (&["simulate", "--workload", "synthetic:size=1000000000000", "--pes", "4"], "size <= 1000000000"),
    (&["tree", "synthetic:size=18446744073709551615"], "size <= 1000000000"),
    (&["tree", "loop:n=1000000001"], "n <= 1000000000"),
    (&["bounds", "--quick", "--max-pes", "0"], "use --max-pes 32 or more"),
    (&["run", "--workload", "uts:default", "--dt", "0"], "valid 1..=1000000000"),
    (&["run", "--workload", "uts:default", "--threads", "0"], "1..=1024"),
];

fn assert_bad(args: &[&str], says: &str) {
    let start = Instant::now();
    let (code, _, err) = lbcheck(args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(err.contains(says), "{args:?} should name `{says}`: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(start.elapsed() < Duration::from_secs(5), "{args:?} took {:?}", start.elapsed());
}

#[test]
fn bad_simulate_arguments_exit_2_naming_the_range() {
    for (extra, says) in SIMULATE {
        assert_bad(&[&["simulate", "--workload", "uts:default"][..], extra].concat(), says);
    }
}

#[test]
fn bad_workloads_and_profiles_exit_2_naming_the_range() {
    for (args, says) in OTHERS {
        assert_bad(args, says);
    }
}

/// The largest accepted parameters run (model time does not wrap).
#[test]
fn the_largest_accepted_parameters_run() {
    let max = "1000000000";
    let args = ["simulate", "--workload", "synthetic:size=64,atomic=1", "--pes", "4", "--t-rout", max];
    let (code, _, err) = lbcheck(&[&args[..], &["--t-split", max, "--dt", max, "--slow", "4:1000000"]].concat());
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = lbcheck(&[&args[..3], &["--latency", "1000000000..1000000000"]].concat());
    assert_eq!(code, 0, "{err}");
}

/// A run whose model time would pass the simulator's clock stops with exit
/// 2 and says so (checked arithmetic: it once wrapped and panicked or hung).
#[test]
fn model_time_past_the_clock_exits_2() {
    let w = "loop:n=20000000,cost=const:1048576";
    let args = ["simulate", "--workload", w, "--pes", "1", "--slow", "1:1000000", "--dt", "1"];
    let (code, _, err) = lbcheck(&args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("model time would pass 2^63"), "{err}");
}
