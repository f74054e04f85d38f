//! Every command in docs/guide.md is run by a test or by the test command.
//!
//! A command is a line of a ```sh or ```console block (a `\` continues it,
//! a ` # ` starts a comment, a leading `$ ` is dropped) or the value of a
//! `run:` key in a ```yaml block (a CI job); `…/target/release/lbcheck`
//! reads `lbcheck`. [`COVERAGE`] says, for each, who runs it: this test
//! itself ([`By::Here`], with the real binary, in document order from a
//! scratch directory), a script of the test command ([`By::Script`]) or a
//! named test ([`By::Test`], with a note when it runs the command with
//! fewer cases). A command the guide gains without an entry fails the
//! test, and so does an entry the guide lost.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Who runs a command of the guide.
#[derive(Debug)]
enum By {
    /// This test, expecting this exit code.
    Here(i32),
    /// The test command: the line of `scripts/test.sh` (or of a script it
    /// runs, named first) that runs it.
    Script(&'static str, &'static str),
    /// A test of the test command (`file`, `fn`), and how its run differs.
    Test(&'static str, &'static str, &'static str),
}
use By::{Here, Script, Test};

const CAMPAIGN: &str = "tests/sim/campaign.rs";
const MPI: &str = "tests/mpi.rs";
const TEST_SH: &str = "scripts/test.sh";

/// Every command of the guide and who runs it.
#[rustfmt::skip]
const COVERAGE: &[(&str, By)] = &[
    ("lbcheck check", Test(CAMPAIGN, "the_campaign_passes_and_writes_its_report", "every in-process layer (--only: not loom, SPIN, Coq, which the test command runs in its own steps)")),
    ("lbcheck check --only simulate/,bounds/", Test(CAMPAIGN, "a_mutant_fails_the_campaign_and_junit_names_its_property", "--only simulate/,threads/,bounds/")),
    ("lbcheck check --mutant split-loses", Test(CAMPAIGN, "a_mutant_fails_the_campaign_and_junit_names_its_property", "with --only simulate/,threads/,bounds/")),
    ("mpirun -np 2 lbcheck check --mpi", Test(MPI, "check_over_two_ranks_gives_the_single_process_verdicts", "--quick --only (every kind of unit)")),
    // A: a Rust protocol, in-process.
    ("cargo test --release --test sim testing::", Test("tests/sim/testing.rs", "the_five_line_test_passes_and_its_report_renders", "")),
    ("cargo run --release --example own_balancer", Script(TEST_SH, "run_side own_balancer target/release/examples/own_balancer")),
    ("cargo run --release --example own_detector", Script(TEST_SH, "run_side own_detector target/release/examples/own_detector")),
    ("bash scripts/fuzz.sh 30", Script(TEST_SH, "bash scripts/fuzz.sh \"${LBCHECK_FUZZ_SECONDS:-30}\"")),
    ("cargo test --release", Script(TEST_SH, "cargo test --release \"${features[@]}\"")),
    // B: an external program.
    ("lbcheck check --impl 'python3 examples/external/randpoll.py --pes {pes} --seed {seed} --workload {workload} --dt {dt} --t-split {t_split} --latency {latency} --trace {trace}' --balancer random-polling --termination energy --impl-workload uts --out impl-report",
        Test("tests/check_impl.rs", "the_correct_program_passes_with_the_report_written", "with --impl-workload synthetic too")),
    ("cargo build --release --manifest-path lbcheck/Cargo.toml", Script(TEST_SH, "cargo build --release -q \"${features[@]}\" --examples")),
    // C: saved traces.
    ("echo \"$PWD/lbcheck/target/release\" >> \"$GITHUB_PATH\"", Here(0)),
    ("lbcheck simulate --termination energy --workload uts:default --pes 8 --trace run.jsonl --json", Here(0)),
    ("lbcheck check-trace run.jsonl", Here(0)),
    ("lbcheck check-trace --explain requests_answered", Here(0)),
    ("for s in $(seq 1 20); do lbcheck simulate --workload uts:default --pes 16 --seed $s --trace t$s.jsonl; done", Here(0)),
    ("lbcheck compare t*.jsonl", Here(0)),
    ("for t in t*.jsonl; do lbcheck check-trace \"$t\" || exit 1; done", Here(0)),
    // Workloads, simulating and checking.
    ("lbcheck simulate --balancer random-polling --termination four-counter --workload uts:T1 --pes 1024 --seed 1", Here(0)),
    ("lbcheck mutants", Here(0)),
    ("lbcheck list --json", Here(0)),
    ("lbcheck simulate --workload uts:default --pes 16 --mutant split-loses", Here(1)),
    ("lbcheck simulate --balancer pacheco --workload knapsack:items=40,seed=1 --pes 16 --bound reduce-tree --json", Here(0)),
    ("lbcheck simulate --workload golomb:marks=8 --pes 16", Here(0)),
    ("lbcheck tree puzzle15:moves=40,seed=1", Here(0)),
    ("lbcheck simulate --balancer pacheco --workload puzzle15:moves=40,seed=1 --pes 16 --bound first-solution", Here(0)),
    ("lbcheck reproduce knapsack --quick", Test("tests/sim/reproduce.rs", "the_quick_knapsack_reproduction_checks_every_run", "with --json")),
    // Exploration, 004's machine, bitonic sort.
    ("lbcheck explore --termination four-counter --pes 3 --workload synthetic:size=8,atomic=1 --mutant four-counter-one-wave", Here(1)),
    ("lbcheck explore --termination four-counter --pes 3 --workload synthetic:size=8,atomic=1", Here(0)),
    ("lbcheck simulate --machine atomic --arbiter fifo --balancer random-destination --workload synthetic:size=65536,split=balanced --pes 64 --seed 1", Here(0)),
    ("lbcheck simulate --machine atomic --arbiter adversary --balancer random-destination --workload synthetic:size=16 --pes 3", Here(0)),
    ("lbcheck simulate --machine complete --balancer random-destination --workload uts:default --pes 64", Here(0)),
    ("lbcheck simulate --machine atomic --balancer priority-bnb --workload kz:depth=14 --pes 8", Here(0)),
    ("lbcheck scatter --pes 8 --messages 5 --dest all-to-0 --arbiter fifo", Here(0)),
    ("lbcheck scatter --pes 16 --messages 8 --dest random --offline --seed 3", Here(0)),
    ("lbcheck bitonic --pes 8 --keys 64 --exhaustive", Here(0)),
    ("lbcheck bitonic --pes 8 --keys 64 --mutant and-bit-half", Here(1)),
    // Threads, loom, MPI.
    ("lbcheck run --balancer random-polling --termination four-counter --workload uts:T1 --threads 2 --check", Here(0)),
    ("lbcheck run --workload uts:T1 --threads 2 --json", Here(0)),
    ("lbcheck run --workload uts:T1 --threads 3 --initial-split --trace run.jsonl && lbcheck check-trace run.jsonl", Here(0)),
    ("lbcheck run --workload uts:T1 --mutant split-loses --check", Here(1)),
    ("cargo test --release --test loom_threads", Script(TEST_SH, "cargo test --release \"${features[@]}\"")),
    ("cargo build --release --features mpi", Script(TEST_SH, "cargo build --release -q \"${features[@]}\" --examples")),
    ("mpirun -np 4 lbcheck mpi --workload uts:T1 --termination four-counter --trace t.jsonl", Test(MPI, "uts_t1_on_four_ranks_passes_and_its_one_trace_checks", "")),
    ("lbcheck check-trace t.jsonl", Test(MPI, "uts_t1_on_four_ranks_passes_and_its_one_trace_checks", "")),
    ("mpirun -np 4 lbcheck mpi --workload uts:T1 --mutant split-loses", Test(MPI, "the_mutant_split_loses_fails_work_conserved", "with --termination four-counter --trace")),
    ("mpirun --allow-run-as-root --oversubscribe -np 2 lbcheck check --mpi --quick --out mpi-report", Test(MPI, "check_over_two_ranks_gives_the_single_process_verdicts", "with --only (every kind of unit)")),
    ("lbcheck check --quick --out lbcheck-report", Test(MPI, "check_over_two_ranks_gives_the_single_process_verdicts", "with --only (every kind of unit)")),
    ("bash scripts/same-verdicts.sh lbcheck-report/report.json mpi-report/report.json", Test(MPI, "check_over_two_ranks_gives_the_single_process_verdicts", "the same comparison of report.json's verdicts, in Rust")),
];

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The commands of a guide, in order (see the module docs).
fn commands(guide: &str) -> Vec<String> {
    let (mut lang, mut out, mut pending) = (None::<String>, vec![], String::new());
    for line in guide.lines() {
        if let Some(fence) = line.trim_start().strip_prefix("```") {
            lang = if lang.is_some() { None } else { Some(fence.trim().to_string()) };
            continue;
        }
        let command = match lang.as_deref() {
            Some("sh" | "console") => shell_line(line, &mut pending),
            Some("yaml") => line.trim_start().trim_start_matches("- ").strip_prefix("run:").map(uncomment),
            _ => None,
        };
        out.extend(command.map(|c| normalise(&c)).filter(|c| !c.is_empty()));
    }
    out
}

/// A shell line: the command it ends (`None` for a comment, or a line
/// continued by `\`, kept in `pending`).
fn shell_line(line: &str, pending: &mut String) -> Option<String> {
    let line = line.trim();
    let line = line.strip_prefix("$ ").unwrap_or(line);
    if line.starts_with('#') {
        return None;
    }
    let line = uncomment(line);
    if let Some(head) = line.strip_suffix('\\') {
        pending.push_str(head);
        pending.push(' ');
        return None;
    }
    Some(std::mem::take(pending) + &line)
}

/// `line` without its ` # comment`.
fn uncomment(line: &str) -> String {
    line.find(" #").map_or(line, |at| &line[..at]).trim().to_string()
}

/// Blanks squeezed, `…/target/release/lbcheck` read as `lbcheck`.
fn normalise(command: &str) -> String {
    let words = command.split_whitespace();
    let words = words.map(|w| if w.ends_with("target/release/lbcheck") { "lbcheck" } else { w });
    words.collect::<Vec<_>>().join(" ")
}

/// The commands of `guide` that [`COVERAGE`] does not list.
fn uncovered(guide: &str) -> Vec<String> {
    commands(guide).into_iter().filter(|c| !COVERAGE.iter().any(|(k, _)| k == c)).collect()
}

/// What an entry names is there: the script runs the line (and the test
/// command runs the script), the test exists and is not ignored.
fn assert_exists(command: &str, by: &By) {
    let read = |f: &str| std::fs::read_to_string(root().join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    match *by {
        Here(_) => {}
        Script(file, line) => {
            assert!(read(file).lines().any(|l| l.contains(line)), "`{command}`: {file} has no line `{line}`");
            let runs = file == TEST_SH || read(TEST_SH).contains(&format!("bash {file}"));
            assert!(runs, "`{command}`: the test command does not run {file}");
        }
        Test(file, name, how) => {
            let text = read(file);
            let at = text
                .find(&format!("fn {name}("))
                .unwrap_or_else(|| panic!("`{command}`: no test {file}::{name} ({how})"));
            let before = &text[..at];
            let attrs = &before[before.rfind("\n\n").unwrap_or(0)..];
            assert!(attrs.contains("#[test]") && !attrs.contains("#[ignore"), "`{command}`: {file}::{name} is no test");
        }
    }
}

/// Runs the guide's [`By::Here`] commands in order from a scratch
/// directory (which links the repository's `examples`, `scripts` and
/// `docs`) with `lbcheck` on PATH (and `GITHUB_PATH`, which a CI job
/// appends to, a file there): each exits with its code within 60 s.
fn run_here(commands: &[String]) {
    let dir = std::env::temp_dir().join(format!("lbcheck-guide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for d in ["examples", "scripts", "docs"] {
        std::os::unix::fs::symlink(root().join(d), dir.join(d)).ok();
    }
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_lbcheck"));
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    for c in commands {
        let Some((_, Here(code))) = COVERAGE.iter().find(|(k, _)| k == c) else { continue };
        let mut cmd = Command::new("timeout");
        cmd.args(["60", "bash", "-c", c]).current_dir(&dir).env("PATH", &path);
        let out = cmd.env("GITHUB_PATH", dir.join("github-path")).output().expect("bash and timeout run");
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(
            out.status.code(),
            Some(*code),
            "`{c}` from docs/guide.md: {}",
            &text[text.char_indices().rev().nth(600).map_or(0, |(i, _)| i)..]
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn every_command_of_the_guide_is_run_by_a_test_or_the_test_command() {
    let guide = std::fs::read_to_string(root().join("docs/guide.md")).unwrap();
    let commands = commands(&guide);
    assert_eq!(
        uncovered(&guide),
        Vec::<String>::new(),
        "commands of docs/guide.md that nothing runs: add each to COVERAGE in tests/sim/guide.rs"
    );
    let stale: Vec<_> = COVERAGE.iter().filter(|(k, _)| !commands.iter().any(|c| c == k)).map(|(k, _)| k).collect();
    assert!(stale.is_empty(), "COVERAGE lists commands docs/guide.md no longer has: {stale:?}");
    COVERAGE.iter().for_each(|(c, by)| assert_exists(c, by));
    run_here(&commands);
}

/// The extraction, and a command added to the guide without an entry.
#[test]
fn a_new_command_in_the_guide_without_coverage_fails() {
    let guide = "```sh\nlbcheck mutants   # a comment\n$ lbcheck simulate \\\n  --pes 3\n# a comment line\n```\n\
        ```yaml\n      - run: cargo test --release\n      - uses: x\n```\n```text\nlbcheck ignored\n```\n";
    assert_eq!(commands(guide), ["lbcheck mutants", "lbcheck simulate --pes 3", "cargo test --release"]);
    assert_eq!(uncovered(guide), ["lbcheck simulate --pes 3"]);
    let real = std::fs::read_to_string(root().join("docs/guide.md")).unwrap();
    let grown = format!("{real}\n```sh\ntarget/release/lbcheck gremlin --now\n```\n");
    assert_eq!(uncovered(&grown), ["lbcheck gremlin --now"]);
}
