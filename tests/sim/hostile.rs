//! Hostile input (issue 33): every probe a careless or hostile user tried,
//! as one table — the command, where its standard output goes, the exit
//! code and a phrase of its message. Each runs under a budget of 5 s of
//! CPU (on Linux; of wall time elsewhere) and 120 s of wall time, for a
//! probe that blocks: a probe that takes longer is killed and fails the
//! test, as does a panic. CPU time, not wall time, so that a loaded
//! machine (parallel tests, a cargo-mutants job beside them) does not fail
//! a probe that was merely waiting for a core.
//!
//! `{dir}` in an argument is a scratch directory holding the traces of
//! [`traces`]: `t.jsonl`, a correct 24-line trace, and variants of it;
//! `{batch}` stands for 20 traces of one configuration on seeds 1..=20
//! (`{dir}/b1.jsonl`...), a batch `compare` takes.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where a probe's standard output goes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Out {
    /// Read by the test.
    Pipe,
    /// `/dev/full`: every write fails with ENOSPC.
    Full,
}

/// One probe: arguments, standard output, the exit code, a phrase of
/// standard error (of both if the exit code is 0 or 1), `{dir}` expanded.
struct Probe {
    args: &'static [&'static str],
    out: Out,
    code: i32,
    says: &'static str,
}

const fn p(args: &'static [&'static str], code: i32, says: &'static str) -> Probe {
    Probe { args, out: Out::Pipe, code, says }
}

const fn full(args: &'static [&'static str]) -> Probe {
    Probe { args, out: Out::Full, code: 2, says: "cannot write to standard output: No space left on device" }
}

/// The probes of issue 33's "Why", in its order.
const PROBES: &[Probe] = &[
    // A failed write to standard output: a message, exit 2, no panic.
    full(&["list"]),
    full(&["list", "--json"]),
    full(&["list", "--markdown"]),
    full(&["mutants"]),
    full(&["mutants", "--markdown"]),
    full(&["tree", "uts:T1"]),
    full(&["simulate", "--workload", "synthetic:size=20"]),
    full(&["simulate", "--workload", "synthetic:size=20", "--print-spec"]),
    full(&["scatter", "--pes", "4", "--messages", "4"]),
    full(&["check-trace", "{dir}/t.jsonl"]),
    full(&["check-trace", "--schema"]),
    full(&["check-trace", "--explain", "work_conserved"]),
    full(&["bitonic", "--pes", "4"]),
    full(&["explore", "--workload", "synthetic:size=4", "--pes", "2", "--trace", "{dir}/cx.jsonl"]),
    full(&["run", "--workload", "uts:T1"]),
    // Times and counts out of range, refused at parse time.
    p(&["run", "--workload", "uts:T1", "--timeout", MAX], 2, "--timeout"),
    p(&["bounds", "--max-pes", "4"], 2, "REFUSED t_par_trend: refused: trend needs P up to at least 32"),
    p(&["bounds", "--max-pes", "7"], 2, "REFUSED t_par_trend: refused: trend needs P up to at least 32"),
    // Energies with huge exponents: refused above 2^18, never wrapped round.
    p(
        &["check-trace", "{dir}/energy-u64.jsonl"],
        2,
        "line 2: `1/2^18446744073709551615` is not an exact energy (the power of two is above the limit 2^18)",
    ),
    p(&["check-trace", "{dir}/energy-u32.jsonl"], 2, "above the limit 2^18"),
    p(&["check-trace", "{dir}/energy-1e8.jsonl"], 2, "above the limit 2^18"),
    p(&["check-trace", "{dir}/energy-wrap.jsonl"], 2, "above the limit 2^18"),
    p(&["check-trace", "{dir}/energy-digits.jsonl"], 2, "more than 100000 digits"),
    p(&["check-trace", "{dir}/energy-limit.jsonl"], 1, "FAILED energy_conserved"),
    // Traces read a bounded line at a time.
    p(&["check-trace", "/dev/zero"], 2, "line 1: longer than 1048576 bytes, the limit of a line (--max-line-bytes"),
    p(&["check-trace", "{dir}/big-header.jsonl"], 2, "line 1: longer than 1048576 bytes"),
    p(&["check-trace", "{dir}/big-header.jsonl", "--max-line-bytes", "30000000"], 2, "bytes in all)"),
    p(&["check-trace", "{dir}/not-utf8.jsonl"], 2, "not a valid trace: line 6: invalid unicode"),
    // Found by the CLI fuzz target: --explain and --schema ignored a trace and flags.
    p(
        &["check-trace", "{dir}/t.jsonl", "--explain", "critical_expanded", "--expect-fingerprint", "x"],
        2,
        "the argument '--explain <PROPERTY>' cannot be used with one or more of the other specified arguments",
    ),
    p(&["check-trace", "--schema", "--json"], 2, "the argument '--schema' cannot be used with"),
    // Per-PE state: a header's `pes` at most 2^20, the reason stated.
    p(&["check-trace", "{dir}/pes-2-24.jsonl"], 2, "`pes` = 16777216 exceeds the supported 1048576 (the checker keeps"),
    p(&["check-trace", "{dir}/pes-2-20.jsonl"], 1, "1048574 PEs never terminated"),
    // The sequential reference of a header's workload, bounded.
    p(&["check-trace", "{dir}/uts-t1xl.jsonl"], 1, "work lost: the sequential run does more than the trace's 20 units"),
    p(&["check-trace", "{dir}/uts-t1xl.jsonl", "--expect-fingerprint", T_FP], 0, "work_conserved         PASS"),
    p(&["check-trace", "{dir}/golomb-11.jsonl"], 2, "`golomb:marks=11` does more than 20000000 units"),
    p(
        &["check-trace", "{dir}/tsp-24.jsonl"],
        2,
        "raise --max-reference-units, or give the reference with --expect-fingerprint",
    ),
    // Unbounded computations an input could trigger, bounded.
    p(&["simulate", "--workload", "synthetic:size=100", "--pes", "16777216"], 2, "16777216 is not in 1..=1048576"),
    p(&["simulate", "--workload", "uts:T1", "--deactivate", "1:0..18446744073709551615"], 2, "FROM < TO <= 10^15"),
    p(&["scatter", "--arbiter", "adversary", "--pes", "4", "--messages", "1000"], 2, "lower --max-runs or --messages"),
    p(&["scatter", "--arbiter", "adversary", "--pes", "4", "--messages", "1000", "--max-runs", "10"], 0, "adversary"),
    p(&["explore", "--workload", "uts:T1XL", "--pes", "2", "--max-seconds", "1"], 2, "explore takes tiny instances"),
    p(&["check", "--only", ""], 2, "an empty pattern would match every case"),
    p(&["check", "--only", ","], 2, "an empty pattern would match every case"),
    p(&["check", "--only", "coq,"], 2, "an empty pattern would match every case"),
    // Zero limits, and the limit reached named as given.
    p(&["explore", "--workload", "synthetic:size=4", "--pes", "2", "--max-states", "0"], 2, "0 is not in 1.."),
    p(&["explore", "--workload", "synthetic:size=4", "--pes", "2", "--max-depth", "0"], 2, "0 is not in 1.."),
    p(&["explore", "--workload", "synthetic:size=4", "--pes", "2", "--max-seconds", "0"], 2, "0 is not in 1..=86400"),
    p(
        &[
            "explore",
            "--workload",
            "synthetic:size=8",
            "--pes",
            "3",
            "--seeds",
            "1000000",
            "--max-states",
            "1000000000000",
            "--max-seconds",
            "2",
            "--trace",
            "{dir}/cx.jsonl",
        ],
        0,
        "INCOMPLETE (--max-seconds 2 reached)",
    ),
    p(
        &["explore", "--machine", "phased", "--workload", "synthetic:size=4", "--pes", "2"],
        2,
        "the phased machine (000 §3) is `lbcheck simulate`'s",
    ),
    p(
        &["simulate", "--workload", "uts:T1", "--max-steps", "1"],
        2,
        "stopped at --max-steps 1 (time 10), before the end of the run",
    ),
    // No flag silently ignored: a machine's flags on another machine.
    p(
        &["simulate", "--workload", "uts:T1", "--arbiter", "lifo"],
        2,
        "--arbiter is a parameter of 004's atomic machine (--machine atomic), not of 001's machine",
    ),
    p(&["simulate", "--workload", "uts:T1", "--permutation", "pseudo"], 2, "--permutation is poll-and-shuffle's"),
    p(&[ATOMIC, "--o", "1"], 2, "--o is a parameter of 001's machine (--machine async), not of 004's atomic machine"),
    p(&[ATOMIC, "--slow", "1:2"], 2, "--slow is a parameter of 001's machine"),
    p(&[ATOMIC, "--fifo-links"], 2, "--fifo-links is a parameter of 001's machine"),
    p(&[ATOMIC, "--latency", "1..3"], 2, "--latency is a parameter of 001's machine"),
    p(&[ATOMIC, "--initial-split"], 2, "--initial-split is a parameter of 001's machine"),
    p(&[ATOMIC, "--swarm"], 2, "--swarm is a parameter of 001's machine"),
    p(&[ATOMIC, "--t-rout", "3"], 2, "--t-rout is a parameter of 001's machine and 000's phased machine"),
    p(&[ATOMIC, "--dt", "3"], 2, "--dt is a parameter of 001's machine and 000's phased machine"),
    p(&[ATOMIC, "--max-runs", "3"], 2, "--max-runs caps the runs of --arbiter adversary, not of --arbiter fifo"),
    p(
        &["simulate", "--workload", "uts:T1", "--balancer", "poll-and-shuffle", "--queue-limit", "3"],
        2,
        "--queue-limit is random polling's",
    ),
    p(
        &["simulate", "--workload", "uts:T1", "--balancer", "poll-and-shuffle", "--o", "1"],
        2,
        "--o is a parameter of 001's machine (--machine async), not of 000's phased machine",
    ),
    p(
        &["simulate", "--workload", "uts:T1", "--latency-shape", "heavy"],
        2,
        "required arguments were not provided:\n  --latency",
    ),
    p(
        &["simulate", "--workload", "uts:T1", "--schedule", "slow-work"],
        2,
        "required arguments were not provided:\n  --latency",
    ),
    p(
        &["simulate", "--workload", "uts:T1", "--swarm", "--t-rout", "3"],
        2,
        "'--swarm' cannot be used with '--t-rout <T_ROUT>'",
    ),
    p(
        &["scatter", "--pes", "4", "--messages", "4", "--max-runs", "3"],
        2,
        "--max-runs caps the runs of --arbiter adversary, not of --arbiter fifo",
    ),
    p(
        &["explore", "--workload", "synthetic:size=4", "--pes", "2", "--arbiter", "lifo"],
        2,
        "--arbiter is the atomic machine's (004 §2)",
    ),
    p(&["reproduce", "knapsack", "--quick", "--items", "0"], 2, "0 is not in 1..=2000"),
    p(&["reproduce", "knapsack", "--quick", "--pes", "0"], 2, "0 is not in 1..=65536"),
    p(&["reproduce", "knapsack", "--quick", "--items", "50"], 2, "'--quick' cannot be used with '--items <ITEMS>'"),
    // A mutant that cannot act is refused.
    p(&["bitonic", "--pes", "1", "--mutant", "and-bit-half"], 2, "needs --pes 4 or more"),
    p(&["bitonic", "--pes", "2", "--mutant", "merge-split-swapped-decr"], 2, "needs --pes 4 or more"),
    p(&["bitonic", "--keys", "0", "--mutant", "merge-drops-duplicates"], 2, "needs --keys 2 or more"),
    p(&["bitonic", "--pes", "4", "--mutant", "and-bit-half"], 1, "FAILED sorted"),
    p(
        &["check", "--only", "explore/random-polling/energy", "--mutant", "and-bit-half", "--out", "{dir}/report"],
        2,
        "mutant `and-bit-half` acts in none of the",
    ),
    // References never fail their own checks: a workload without costs is refused.
    p(
        &["simulate", "--workload", "synthetic:size=100", "--balancer", "priority-bnb", "--machine", "atomic"],
        2,
        "it needs a tree with vertex costs",
    ),
    p(
        &["simulate", "--workload", "knapsack:items=10", "--balancer", "priority-bnb", "--machine", "atomic"],
        2,
        "it needs a tree with vertex costs",
    ),
    p(
        &["simulate", "--workload", "golomb:marks=5", "--balancer", "random-destination", "--machine", "atomic"],
        2,
        "004's atomic machine runs backtrack search, which examines every vertex (004 §4.1)",
    ),
    p(
        &["simulate", "--workload", "golomb:marks=5", "--balancer", "simd-phase"],
        2,
        "balancer `simd-phase` runs order-independent trees (000 §2.1), not branch-and-bound",
    ),
    p(
        &["simulate", "--workload", "uts:T1", "--balancer", "poll-and-shuffle", "--machine", "async"],
        2,
        "balancer `poll-and-shuffle` runs on 000's phased machine (--machine phased, its default)",
    ),
    p(
        &["simulate", "--workload", "kz:depth=6", "--balancer", "priority-bnb", "--machine", "atomic"],
        0,
        "atomic_conformance     PASS",
    ),
    // compare guards its statistics: one configuration, distinct runs, no
    // empty trace, an --against that is the traces' configuration.
    p(&["compare", BATCH], 0, "verdict: consistent with the reference"),
    p(&["compare", BATCH, "{dir}/p3.jsonl"], 2, "are runs of two configurations (pes: 2 vs 3"),
    p(&["compare", BATCH, "{dir}/b7.jsonl"], 2, "b7.jsonl and {dir}/b7.jsonl are the same trace"),
    p(
        &["compare", BATCH, "{dir}/b1-again.jsonl"],
        2,
        "are runs on the same seed 1: compare takes runs on distinct seeds",
    ),
    p(&["compare", BATCH, "/dev/null"], 2, "/dev/null has no header (an empty file, or not a trace)"),
    p(&["compare", BATCH, "{dir}/header-only.jsonl"], 2, "header-only.jsonl has a header and no events"),
    p(&["compare", BATCH, "{dir}/no-such.jsonl"], 2, "cannot open {dir}/no-such.jsonl"),
    p(
        &["compare", BATCH, "--against", "--workload uts:T1XL"],
        2,
        "--against differs from the traces' headers (driver.pes: 2 vs 4; workload:",
    ),
    p(&["compare", BATCH, "--against", "--workload synthetic:size=20 --pes 3"], 2, "--force compares anyway"),
    p(
        &["compare", BATCH, "--against", "--workload synthetic:size=20 --pes 3", "--force"],
        0,
        "note: --against differs from the traces' headers (driver.pes: 2 vs 3)",
    ),
    p(&["compare", BATCH, "--against", "--workload synthetic:size=20 --pes 2"], 0, "verdict: consistent"),
    p(&["compare", BATCH, "--force"], 2, "the following required arguments were not provided:\n  --against"),
    // Found by scripts/hostile.sh's CLI probes: a timeout past u64 seconds panicked (exit 101).
    p(&[IMPL, "--impl-timeout", "1e300"], 2, "--impl-timeout must be in 0 < SECS <= 86400 (a day)"),
    p(&[IMPL, "--impl-timeout", MAX], 2, "--impl-timeout must be in 0 < SECS <= 86400 (a day)"),
    p(&[IMPL, "--impl-timeout", "inf"], 2, "--impl-timeout must be in 0 < SECS <= 86400 (a day)"),
    p(&[IMPL, "--impl-timeout", "-1"], 2, "unexpected argument '-1' found"),
];

/// `check --impl true` for random polling + energy on synthetic workloads,
/// to which [`p`]'s first argument expands.
const IMPL: &str = "{impl}";

/// A run on 004's atomic machine, to which [`p`]'s first argument expands.
const ATOMIC: &str = "{atomic}";

/// 20 traces of one configuration (`{dir}/b1.jsonl`... on seeds 1..=20).
const BATCH: &str = "{batch}";

/// The fingerprint of `t.jsonl`'s work (`lbcheck tree synthetic:size=20`).
const T_FP: &str = "20-00000000000000be00000000000009a60000000000008d04";

const MAX: &str = "18446744073709551615";

/// A scratch directory with `t.jsonl` (a correct trace of 24 lines) and
/// its hostile variants.
fn traces() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lbcheck-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let t = dir.join("t.jsonl");
    let args = ["simulate", "--workload", "synthetic:size=20", "--pes", "2", "--trace", t.to_str().unwrap()];
    let (code, _, err) = super::lbcheck(&args);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&t).unwrap();
    assert_eq!(text.lines().count(), 24, "{text}");
    for (name, from, to) in variants() {
        std::fs::write(dir.join(name), text.replacen(from, &to, 2)).unwrap();
    }
    batch(&dir);
    let (head, tail) = text.split_at(text.match_indices('\n').nth(5).unwrap().0 - 1); // line 6 without its `}`
    std::fs::write(dir.join("not-utf8.jsonl"), [head.as_bytes(), b",\"x\":\"\xff\"", tail.as_bytes()].concat())
        .unwrap();
    dir
}

/// Writes [`BATCH`]'s traces and the variants `compare` refuses: `p3.jsonl`
/// (3 PEs), `b1-again.jsonl` (b1 with a `replay` field: another trace of the
/// same seed) and `header-only.jsonl`.
fn batch(dir: &Path) {
    let sim = |seed: u32, pes: &str, name: &str| {
        let (path, seed) = (dir.join(name), seed.to_string());
        let args = ["simulate", "--workload", "synthetic:size=20", "--pes", pes, "--seed", &seed, "--trace"];
        let (code, _, err) = super::lbcheck(&[&args[..], &[path.to_str().unwrap()]].concat());
        assert_eq!(code, 0, "{err}");
        std::fs::read_to_string(path).unwrap()
    };
    let b1 = sim(1, "2", "b1.jsonl");
    (2..=20).for_each(|seed| _ = sim(seed, "2", &format!("b{seed}.jsonl")));
    sim(21, "3", "p3.jsonl");
    let again = b1.replacen(r#""ev":"header","#, r#""ev":"header","replay":"again","#, 1);
    std::fs::write(dir.join("b1-again.jsonl"), again).unwrap();
    std::fs::write(dir.join("header-only.jsonl"), b1.lines().next().unwrap()).unwrap();
}

/// (file, a string of `t.jsonl`, what replaces it).
fn variants() -> Vec<(&'static str, &'static str, String)> {
    let workload = "synthetic:size=20,atomic=1,split=balanced,seed=0";
    let held = r#""held":"1""#;
    let energy = |e: &str| format!(r#""held":"{e}""#);
    vec![
        ("uts-t1xl.jsonl", workload, "uts:T1XL".into()),
        ("golomb-11.jsonl", workload, "golomb:marks=11".into()),
        ("tsp-24.jsonl", workload, "tsp:cities=24".into()),
        ("big-header.jsonl", workload, "x".repeat(10_000_000)),
        ("energy-u64.jsonl", held, energy("1/2^18446744073709551615")),
        ("energy-u32.jsonl", held, energy("1/2^4294967295")),
        ("energy-1e8.jsonl", held, energy("1/2^100000000")),
        ("energy-wrap.jsonl", held, energy("1/4/2^18446744073709551615")),
        ("energy-digits.jsonl", held, energy(&"1".repeat(100_001))),
        ("energy-limit.jsonl", held, energy("1/2^262144")),
        ("pes-2-24.jsonl", r#""pes":2,"#, r#""pes":16777216,"#.into()),
        ("pes-2-20.jsonl", r#""pes":2,"#, r#""pes":1048576,"#.into()),
    ]
}

/// Runs one probe with `dir` for `{dir}`: (exit code, stdout, stderr).
fn run(probe: &Probe, dir: &Path) -> (i32, String, String) {
    let atomic =
        ["simulate", "--workload", "synthetic:size=50", "--balancer", "random-destination", "--machine", "atomic"];
    let expand = |a: &&str| match *a {
        ATOMIC => atomic.iter().map(|s| s.to_string()).collect(),
        IMPL => ["check", "--impl", "true", "--balancer", "random-polling", "--termination", "energy"]
            .into_iter()
            .chain(["--impl-workload", "synthetic", "--out", "impl-report"])
            .map(String::from)
            .collect(),
        BATCH => (1..=20).map(|s| dir.join(format!("b{s}.jsonl")).to_str().unwrap().to_string()).collect(),
        a => vec![a.replace("{dir}", dir.to_str().unwrap())],
    };
    let args: Vec<String> = probe.args.iter().flat_map(expand).collect();
    let stdout = match probe.out {
        Out::Pipe => Stdio::piped(),
        Out::Full => std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap().into(),
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_lbcheck"))
        .args(&args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (out, err) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let start = Instant::now();
    let mut cpu = 0.0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        cpu = cpu_seconds(child.id(), start).unwrap_or(cpu);
        let wall = start.elapsed();
        if cpu > CPU_BUDGET || wall > WALL_BUDGET {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{args:?} took more than its budget: {cpu:.1} s of CPU, {:.1} s of wall time", wall.as_secs_f64());
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (status.code().unwrap_or(-1), out.join().unwrap(), err.join().unwrap())
}

/// A probe's budget of CPU seconds (of wall seconds where the CPU time of
/// a process is not read).
const CPU_BUDGET: f64 = 5.0;

/// A probe's budget of wall time: one that blocks (a deadlock, a read of
/// a pipe nobody writes) burns no CPU.
const WALL_BUDGET: Duration = Duration::from_secs(120);

/// The CPU seconds (user + system, all threads) process `pid` has used so
/// far, from `/proc/PID/stat`; `None` once it is gone.
#[cfg(target_os = "linux")]
fn cpu_seconds(pid: u32, _start: Instant) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's name in parentheses (which may hold spaces):
    // field 3, the state, … fields 14 and 15, utime and stime, in ticks.
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf reads a constant of the system; no memory is passed.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    Some(ticks as f64 / per_second.max(1) as f64)
}

/// Elsewhere: the wall time since `start`, so the CPU budget is a wall
/// budget.
#[cfg(not(target_os = "linux"))]
fn cpu_seconds(_pid: u32, start: Instant) -> Option<f64> {
    Some(start.elapsed().as_secs_f64())
}

/// Reads a child's stream on a thread (so a full pipe never blocks it).
fn drain(stream: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut s) = stream {
            let mut bytes = vec![];
            s.read_to_end(&mut bytes).unwrap();
            text = String::from_utf8_lossy(&bytes).into_owned();
        }
        text
    })
}

#[test]
fn every_hostile_probe_is_answered_within_5_s() {
    let dir = traces();
    let mut wrong = vec![];
    for probe in PROBES {
        let (code, out, err) = run(probe, &dir);
        let text = if code == 2 { &err } else { &format!("{out}{err}") };
        let says = probe.says.replace("{dir}", dir.to_str().unwrap());
        if code != probe.code || !text.contains(&says) || err.contains("panicked") {
            wrong.push(format!("{:?}: exit {code}, want {} and `{}`:\n{err}", probe.args, probe.code, probe.says));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(wrong.is_empty(), "{} of {} probes:\n{}", wrong.len(), PROBES.len(), wrong.join("\n"));
}

/// A user's detector whose own assertion fails on the first idle of the
/// PE it names.
#[derive(Clone, Debug)]
struct Asserting(u32);

impl lbcheck::protocol::Detector<lbcheck::problem::Task> for Asserting {
    fn start(&mut self, _: &mut Ctx<'_>, _: bool, _: Option<lbcheck::base::Fraction>) {}
    fn on_work_sent(&mut self, _: &mut Ctx<'_>, _: u32) -> Option<lbcheck::base::Fraction> {
        None
    }
    fn on_work_received(&mut self, _: &mut Ctx<'_>, _: u32, _: Option<lbcheck::base::Fraction>) {}
    fn on_idle(&mut self, ctx: &mut Ctx<'_>) {
        assert!(ctx.me != self.0, "my detector's invariant broke on PE {}", ctx.me);
    }
    fn on_message(&mut self, _: &mut Ctx<'_>, _: u32, _: lbcheck::protocol::Msg<lbcheck::problem::Task>, _: bool) {}
}

type Ctx<'a> = lbcheck::protocol::Ctx<'a, lbcheck::problem::Task>;

/// A protocol's assertion tripped during a checked run (here a user's
/// detector's; a reference balancer's tripped by a broken peer alike) is
/// the property `protocol_assertion`, its message and place given, the
/// failures of the cut-short run following from it — not a panic out of
/// `RunSpec::run`, which took the campaign (or `lbcheck simulate`, exit 101)
/// down with it before harness::caught (shown: with `caught` replaced by
/// `Ok(..)` in run_against this test panics with the detector's message).
#[test]
fn a_tripped_protocol_assertion_is_a_failed_property() {
    use lbcheck::harness::{Driver, RunSpec, UserDetector};
    use lbcheck::protocol::{BalancerKind, DetectorKind};
    let driver = Driver::Sim(lbcheck::sim::SimConfig { pes: 4, seed: 1, ..Default::default() });
    let workload = "synthetic:size=200".parse().unwrap();
    let spec = RunSpec::new(workload, BalancerKind::RandomPolling, DetectorKind::Energy, driver);
    let mine = UserDetector { name: "asserting".into(), make: |_| Asserting(1) };
    let result = spec.run_composed(&mine.erased(), None, &mut |_| {}).expect("no trace, no I/O error");
    let failures = result.check.failures_in_order();
    let (first, v) = failures.first().expect("a failure");
    assert_eq!(*first, "protocol_assertion", "{failures:?}");
    assert!(v.detail.contains("my detector's invariant broke on PE 1 at tests/sim/hostile.rs:"), "{}", v.detail);
    assert!(failures[1..].iter().all(|(_, v)| v.follows == Some("protocol_assertion")), "{failures:?}");
    assert_eq!(result.outcome.stop, lbcheck::sim::Stop::Assertion);
}

/// A user's detector that announces at the last PE once it is idle,
/// although the announcer is PE 0: the news goes down the tree from PE 3,
/// which has no children there, so PEs 0–2 never learn of it.
#[derive(Clone, Debug, Default)]
struct AnnouncesAlone {
    announced: bool,
}

impl lbcheck::protocol::Detector<lbcheck::problem::Task> for AnnouncesAlone {
    fn start(&mut self, _: &mut Ctx<'_>, _: bool, _: Option<lbcheck::base::Fraction>) {}
    fn on_work_sent(&mut self, _: &mut Ctx<'_>, _: u32) -> Option<lbcheck::base::Fraction> {
        None
    }
    fn on_work_received(&mut self, _: &mut Ctx<'_>, _: u32, _: Option<lbcheck::base::Fraction>) {}
    fn on_idle(&mut self, ctx: &mut Ctx<'_>) {
        if ctx.me + 1 == ctx.pes && !std::mem::replace(&mut self.announced, true) {
            ctx.out.push(lbcheck::protocol::Command::Announce);
        }
    }
    fn on_message(&mut self, _: &mut Ctx<'_>, _: u32, _: lbcheck::protocol::Msg<lbcheck::problem::Task>, _: bool) {}
}

/// A detector that announces but never spreads the news left the PEs that
/// did not learn of it polling each other until the step cap (2·10^9
/// steps: hours; cargo-mutants' broken reduction trees timed out on it).
/// Now the run stops twice the detection horizon after the computation is
/// over, failing (shown: without `Stop::NotTerminated` the run below
/// reaches its step cap of 10^7 instead).
#[test]
fn an_announcement_that_never_spreads_stops_the_run() {
    use lbcheck::harness::{Driver, RunSpec, UserDetector};
    use lbcheck::protocol::{BalancerKind, DetectorKind};
    let sim = lbcheck::sim::SimConfig { pes: 4, seed: 1, max_steps: 10_000_000, ..Default::default() };
    let workload = "synthetic:size=200".parse().unwrap();
    let spec = RunSpec::new(workload, BalancerKind::RandomPolling, DetectorKind::Energy, Driver::Sim(sim));
    let mine = UserDetector { name: "announces-alone".into(), make: |_| AnnouncesAlone::default() };
    let result = spec.run_composed(&mine.erased(), None, &mut |_| {}).expect("no trace, no I/O error");
    assert!(
        matches!(result.outcome.stop, lbcheck::sim::Stop::NotTerminated { .. }),
        "{:?} after {} steps",
        result.outcome.stop,
        result.outcome.steps
    );
    let failed: Vec<_> = result.check.failures().into_iter().map(|(name, _)| name).collect();
    assert!(failed.contains(&"termination_detected") && failed.contains(&"detector_conformance"), "{failed:?}");
}

/// The same detector on the threaded driver: PEs 0–2 never learn of the
/// end and would poll each other forever (no deadline is set). The stall
/// watch stops the run [`STALL_GRACE`] after the computation is over, and
/// the run fails. (Before the watch, cargo-mutants' safra `Token::of` →
/// `None`, a token never recognised, left `threads::reference_runs_pass_every_property`
/// running past its 60 s timeout; now that test fails in 10 s.)
///
/// [`STALL_GRACE`]: lbcheck::runtime::threads::STALL_GRACE
#[test]
fn a_threaded_run_whose_end_never_spreads_stops() {
    use lbcheck::harness::{Driver, RunSpec, UserDetector};
    use lbcheck::protocol::{BalancerKind, DetectorKind};
    use lbcheck::runtime::threads::ThreadConfig;
    let threads = ThreadConfig { pes: 4, seed: 1, ..Default::default() };
    let workload = "synthetic:size=200".parse().unwrap();
    let spec = RunSpec::new(workload, BalancerKind::RandomPolling, DetectorKind::Energy, Driver::Threads(threads));
    let mine = UserDetector { name: "announces-alone".into(), make: |_| AnnouncesAlone::default() };
    let started = std::time::Instant::now();
    let result = spec.run_composed(&mine.erased(), None, &mut |_| {}).expect("no trace, no I/O error");
    assert_eq!(result.outcome.stop, lbcheck::sim::Stop::Stalled, "after {:?}", started.elapsed());
    let failed: Vec<_> = result.check.failures().into_iter().map(|(name, _)| name).collect();
    assert!(failed.contains(&"termination_detected"), "{failed:?}");
}

/// A user's detector that never announces and keeps a token going round
/// the ring: the detector's messages never stop, so only a detection
/// horizon ends the run.
#[derive(Clone, Debug, Default)]
struct TokenForever;

impl lbcheck::protocol::Detector<lbcheck::problem::Task> for TokenForever {
    fn start(&mut self, ctx: &mut Ctx<'_>, _: bool, _: Option<lbcheck::base::Fraction>) {
        if ctx.me == 0 {
            ctx.send((ctx.me + 1) % ctx.pes, lbcheck::protocol::Msg::Control(Box::default()));
        }
    }
    fn on_work_sent(&mut self, _: &mut Ctx<'_>, _: u32) -> Option<lbcheck::base::Fraction> {
        None
    }
    fn on_work_received(&mut self, _: &mut Ctx<'_>, _: u32, _: Option<lbcheck::base::Fraction>) {}
    fn on_idle(&mut self, _: &mut Ctx<'_>) {}
    fn on_message(&mut self, ctx: &mut Ctx<'_>, _: u32, msg: lbcheck::protocol::Msg<lbcheck::problem::Task>, _: bool) {
        ctx.send((ctx.me + 1) % ctx.pes, msg);
    }
}

/// On 004's atomic machine such a detector ran to the step cap (10^8
/// steps; cargo-mutants' safra mutants that never announce timed out on
/// it in `combinations`): now the run stops at the detection horizon,
/// 4·P + 1000·(⌈log2 P⌉ + 2) steps after the computation is over, and fails.
#[test]
fn a_detector_that_never_announces_stops_at_the_atomic_horizon() {
    use lbcheck::harness::{Driver, RunSpec, UserDetector};
    use lbcheck::protocol::{BalancerKind, DetectorKind};
    let atomic = lbcheck::sim::atomic::AtomicConfig { pes: 4, seed: 1, ..Default::default() };
    let horizon = atomic.detect_horizon();
    assert_eq!(horizon, 16 + 1000 * 4);
    let workload = "synthetic:size=200".parse().unwrap();
    let spec = RunSpec::new(workload, BalancerKind::RandomDestination, DetectorKind::Energy, Driver::Atomic(atomic));
    let mine = UserDetector { name: "token-forever".into(), make: |_| TokenForever };
    let result = spec.run_composed(&mine.erased(), None, &mut |_| {}).expect("no trace, no I/O error");
    let lbcheck::sim::Stop::NotAnnounced { quiet_since } = result.outcome.stop else {
        panic!("{:?} after {} steps", result.outcome.stop, result.outcome.steps)
    };
    assert_eq!(result.outcome.end_time, quiet_since + horizon + 1);
    let failed: Vec<_> = result.check.failures().into_iter().map(|(name, _)| name).collect();
    assert!(failed.contains(&"termination_detected"), "{failed:?}");
}

/// A tripped assertion on the threaded driver: PE 0's thread
/// panics when it runs out of work (it starts with all of it, so this
/// happens on its thread, whatever the interleaving); the others, waiting for news that never comes, are stopped by
/// the stall watch at once (not after its grace) so that the panic reaches
/// the harness, which reports `protocol_assertion`. (Counting a panicked
/// thread as finished matters: without it the watch waited for it for ever.)
#[test]
fn a_tripped_assertion_on_threads_is_a_failed_property() {
    use lbcheck::harness::{Driver, RunSpec, UserDetector};
    use lbcheck::protocol::{BalancerKind, DetectorKind};
    use lbcheck::runtime::threads::ThreadConfig;
    let threads = ThreadConfig { pes: 4, seed: 1, ..Default::default() };
    let workload = "synthetic:size=2000".parse().unwrap();
    let spec = RunSpec::new(workload, BalancerKind::RandomPolling, DetectorKind::Energy, Driver::Threads(threads));
    let mine = UserDetector { name: "asserts-when-idle".into(), make: |_| Asserting(0) };
    let started = std::time::Instant::now();
    let result = spec.run_composed(&mine.erased(), None, &mut |_| {}).expect("no trace, no I/O error");
    assert!(started.elapsed() < lbcheck::runtime::threads::STALL_GRACE, "{:?}", started.elapsed());
    assert_eq!(result.outcome.stop, lbcheck::sim::Stop::Assertion);
    let failed: Vec<_> = result.check.failures().into_iter().map(|(name, _)| name).collect();
    assert!(failed.contains(&"protocol_assertion"), "{failed:?}");
}

/// A user's balancer whose `has_work` forgets that a subproblem runs empty
/// (`task.is_some()`): its PE would stay busy for ever doing nothing.
#[derive(Clone, Debug, Default)]
struct ForgetsEmpty {
    task: Option<lbcheck::problem::Task>,
}

impl lbcheck::protocol::Balancer for ForgetsEmpty {
    type Task = lbcheck::problem::Task;
    fn start(&mut self, _: &mut Ctx<'_>, part: Option<Self::Task>) {
        self.task = part;
    }
    fn on_message(&mut self, ctx: &mut Ctx<'_>, from: u32, msg: lbcheck::protocol::Msg<Self::Task>) {
        if let lbcheck::protocol::Msg::Request = msg {
            ctx.send(from, lbcheck::protocol::Msg::Reject);
        }
    }
    fn on_poll(&mut self, _: &mut Ctx<'_>) {}
    fn on_exhausted(&mut self, _: &mut Ctx<'_>) {
        self.task = None;
    }
    fn task_mut(&mut self) -> Option<&mut Self::Task> {
        self.task.as_mut()
    }
    fn has_work(&self) -> bool {
        self.task.is_some()
    }
    fn queued_requests(&self) -> u32 {
        0
    }
}

/// A balancer that says it has work while its subproblem is empty fails
/// `protocol_assertion` at once on every driver (`Pe::task_to_work`):
/// before, the atomic machine ran such a run to its step cap (10^8 steps,
/// 29 s on 4 PEs, O(P) times more on P) and the threaded driver for ever,
/// its stall watch seeing a busy PE (cargo-mutants' `Pe::has_work` → `true`
/// and `Pe::task_mut` → `None` timed out).
#[test]
fn a_balancer_whose_has_work_outlives_its_subproblem_fails_at_once() {
    use lbcheck::harness::{Driver, RunSpec, UserBalancer};
    use lbcheck::protocol::{BalancerKind, DetectorKind};
    let drivers = [
        Driver::Sim(lbcheck::sim::SimConfig { pes: 4, seed: 1, ..Default::default() }),
        Driver::Atomic(lbcheck::sim::atomic::AtomicConfig { pes: 4, seed: 1, ..Default::default() }),
        Driver::Threads(lbcheck::runtime::threads::ThreadConfig { pes: 4, seed: 1, ..Default::default() }),
    ];
    for driver in drivers {
        let name = format!("{driver:?}");
        let workload = "synthetic:size=200".parse().unwrap();
        let spec = RunSpec::new(workload, BalancerKind::RandomPolling, DetectorKind::Energy, driver);
        let mine = UserBalancer { name: "forgets-empty".into(), make: |_| ForgetsEmpty::default() };
        let started = std::time::Instant::now();
        let result = spec.run_composed(&mine.erased(), None, &mut |_| {}).expect("no trace, no I/O error");
        assert!(started.elapsed() < lbcheck::runtime::threads::STALL_GRACE, "{name}: {:?}", started.elapsed());
        assert_eq!(result.outcome.stop, lbcheck::sim::Stop::Assertion, "{name}");
        let failures = result.check.failures_in_order();
        let (first, v) = failures.first().expect("a failure");
        assert_eq!(*first, "protocol_assertion", "{name}: {failures:?}");
        assert!(
            v.detail.contains("PE 0 has work (`has_work`) but its subproblem (`task_mut`) is empty"),
            "{name}: {}",
            v.detail
        );
    }
}
