//! Arbitrary command lines (issue 33): a subcommand, then flags drawn from
//! its real flag set (clap's `Command` of the binary's own `cli` module)
//! with values from a pool of valid, edge and hostile ones, run in process.
//! Fails on a panic, on a run longer than libFuzzer's `-timeout`, and on
//! exit 0 or 1 when a flag got a value no flag accepts (then the parser
//! should have refused it). Subcommands that run for minutes by design
//! (`check`, `bounds`, `reproduce`), spawn a watchdog that outlives the
//! call (`run`) or need MPI (`mpi`) are left out.
#![no_main]

#[allow(dead_code, unused_imports)]
#[path = "../../src/cli/mod.rs"]
mod cli;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;

use arbitrary::{Result, Unstructured};
use clap::{Arg, ArgAction, CommandFactory};
use libfuzzer_sys::fuzz_target;

/// The subcommands fuzzed.
const SUBCOMMANDS: [&str; 9] =
    ["simulate", "tree", "check-trace", "compare", "explore", "scatter", "bitonic", "list", "mutants"];

/// Values no flag accepts: numbers out of every range, text for numbers.
const INVALID: [&str; 6] = ["18446744073709551616", "-1", "1e999", "NaN", "", "\u{7f}x"];

/// Valid and edge values for numbers and names.
const VALUES: [&str; 14] =
    ["0", "1", "2", "3", "4", "16", "100", "4294967295", "18446744073709551615", "1..3", "0.5", "1:2", "abc", "-"];

/// Small workloads (long ones would be hangs by design).
const WORKLOADS: [&str; 8] = [
    "synthetic:size=20",
    "synthetic:size=5,atomic=2,split=uniform",
    "uts:args=-t 0 -b 4",
    "loop:n=10",
    "kz:depth=4",
    "knapsack:items=4,seed=1",
    "tsp:cities=4",
    "golomb:marks=4",
];

/// Paths in the scratch directory (a small trace, the directory, a file
/// that does not exist, one to write), and nothing.
const PATHS: [&str; 5] = ["t.jsonl", "/dev/null", ".", "missing.jsonl", "out.jsonl"];

fuzz_target!(|bytes: &[u8]| {
    let dir = setup();
    let mut u = Unstructured::new(bytes);
    let Ok((argv, invalid)) = argv(&mut u, dir) else { return };
    let code = match cli::try_parse_from(&argv) {
        Err(_) => ExitCode::from(2),
        Ok(parsed) => cli::run(parsed).unwrap_or(ExitCode::from(2)),
    };
    if invalid && (code == ExitCode::SUCCESS || code == ExitCode::from(1)) {
        panic!("{argv:?}: exit 0 or 1 with a value no flag accepts");
    }
});

/// The scratch directory, with a small trace in it; standard output discarded.
fn setup() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("lbcheck-fuzz-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let trace = dir.join("t.jsonl").to_str().unwrap().to_string();
        let argv = ["lbcheck", "simulate", "--workload", "synthetic:size=20", "--pes", "2", "--trace", &trace];
        let parsed = cli::try_parse_from(argv).unwrap();
        let null = std::fs::OpenOptions::new().write(true).open("/dev/null").unwrap();
        // SAFETY: replaces file descriptor 1 by an open one, before any other thread writes.
        unsafe { libc::dup2(std::os::fd::AsRawFd::as_raw_fd(&null), 1) };
        cli::run(parsed).unwrap();
        dir
    })
}

/// A command line, and whether a flag got a value no flag accepts.
fn argv(u: &mut Unstructured, dir: &Path) -> Result<(Vec<String>, bool)> {
    let name = *u.choose(&SUBCOMMANDS)?;
    let command = cli::Cli::command();
    let sub = command.find_subcommand(name).expect("a subcommand");
    let args: Vec<&Arg> = sub.get_arguments().filter(|a| !matches!(a.get_id().as_str(), "help" | "version")).collect();
    let mut argv = vec!["lbcheck".to_string(), name.to_string()];
    let mut invalid = false;
    for _ in 0..u.int_in_range(0..=6u8)? {
        let arg = *u.choose(&args)?;
        if let Some(long) = arg.get_long() {
            argv.push(format!("--{long}"));
        }
        if takes_value(arg) {
            let (value, bad) = value(u, arg, dir)?;
            invalid |= bad;
            argv.push(value);
        }
    }
    Ok((argv, invalid))
}

fn takes_value(arg: &Arg) -> bool {
    matches!(arg.get_action(), ArgAction::Set | ArgAction::Append)
}

/// A value for `arg`: a path in `dir` for a path or pattern; else one of
/// its possible values, a workload, a number or name, or (true) a value no
/// flag accepts.
fn value(u: &mut Unstructured, arg: &Arg, dir: &Path) -> Result<(String, bool)> {
    let possible: Vec<String> = arg.get_possible_values().iter().map(|v| v.get_name().to_string()).collect();
    let names = arg.get_value_names().map(|n| n.join(" ")).unwrap_or_default();
    let id = arg.get_id().as_str();
    let free = ["trace", "out", "spec", "only", "against", "dir"].iter().any(|n| id.contains(n))
        || ["TRACE", "FILE", "DIR", "PATTERN", "FLAGS"].iter().any(|n| names.contains(n));
    if free {
        return Ok((dir.join(u.choose(&PATHS)?).to_str().unwrap().to_string(), false));
    }
    Ok(match u.int_in_range(0..=3u8)? {
        0 => (u.choose(&INVALID)?.to_string(), true),
        1 if !possible.is_empty() => (u.choose(&possible)?.clone(), false),
        2 => (u.choose(&WORKLOADS)?.to_string(), false),
        _ => (u.choose(&VALUES)?.to_string(), false),
    })
}
