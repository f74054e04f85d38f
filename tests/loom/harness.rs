//! The loom suite's machinery (`tests/loom_threads.rs`): a [`Case`] (one
//! run specification on the threaded driver, explored seed by seed within
//! a preemption bound), [`passes`] (every interleaving passes every
//! property) and [`caught`] (loom reports a mutant, each seed in a child
//! process), and the time each test took ([`timed`]).

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lbcheck::harness::{Driver, RunSpec};
use lbcheck::mutants::Mutant;
use lbcheck::protocol::{BalancerKind, DetectorKind};
use lbcheck::runtime::threads::ThreadConfig;

/// Two splits at most (size 3, atomic 1): the smallest workload where work moves twice.
pub const TINY: &str = "synthetic:size=3,atomic=1";

/// One split only: with three PEs (four threads) the interleavings grow fast.
pub const ONE_SPLIT: &str = "synthetic:size=2,atomic=1";

/// Split among three PEs at the start (002 §3), uneven parts: the workload
/// where the one-wave bug shows (see `four_counter_one_wave_is_caught`).
pub const UNEVEN: &str = "synthetic:size=20,atomic=1,split=uniform";

/// True in the full profile (`LBCHECK_LOOM_PROFILE=full`, `scripts/loom.sh --full`).
pub fn full() -> bool {
    std::env::var("LBCHECK_LOOM_PROFILE").is_ok_and(|p| p == "full")
}

/// The profile's preemption bound B (`LOOM_MAX_PREEMPTIONS`, default 2).
pub fn profile_bound() -> usize {
    std::env::var("LOOM_MAX_PREEMPTIONS").ok().and_then(|b| b.parse().ok()).unwrap_or(2)
}

/// One run specification on the threaded driver, explored under loom.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub balancer: BalancerKind,
    pub workload: &'static str,
    pub detector: DetectorKind,
    pub pes: u32,
    pub initial_split: bool,
    /// Seeds `0..seeds`, one `loom::model` each.
    pub seeds: u64,
    /// Preemptions fewer than the profile's bound.
    pub fewer: usize,
    /// Stop after this many interleavings (loom's DFS order; None: all within the bound).
    pub cap: Option<usize>,
    /// A protocol or threaded-driver mutant.
    pub mutant: Option<Mutant>,
}

impl Case {
    /// `balancer` × `detector` on P PEs, [`TINY`], two seeds (full: four;
    /// `LBCHECK_LOOM_SEEDS` if set: the campaign's loom layer runs one),
    /// bound B − (P − 2).
    pub fn new(balancer: BalancerKind, detector: DetectorKind, pes: u32) -> Case {
        let seeds = std::env::var("LBCHECK_LOOM_SEEDS").ok().and_then(|s| s.parse().ok());
        let (seeds, fewer) = (seeds.unwrap_or(if full() { 4 } else { 2 }), pes.saturating_sub(2) as usize);
        let (initial_split, cap, mutant) = (false, None, None);
        Case { balancer, workload: TINY, detector, pes, initial_split, seeds, fewer, cap, mutant }
    }

    fn spec(&self, seed: u64) -> RunSpec {
        let driver = Driver::Threads(ThreadConfig {
            pes: self.pes,
            seed,
            dt: 1,
            initial_split: self.initial_split.into(),
            ..Default::default()
        });
        let spec = RunSpec::new(self.workload.parse().expect("workload"), self.balancer, self.detector, driver);
        RunSpec { mutant: self.mutant, ..spec }
    }

    /// The preemption bound this case is explored at.
    pub fn bound(&self) -> usize {
        profile_bound().saturating_sub(self.fewer)
    }

    /// "P = 2, bound 2, 2 seeds".
    pub fn describe(&self) -> String {
        let cap = self.cap.map_or(String::new(), |c| format!(", first {c} interleavings"));
        format!("P = {}, bound {}, {} seeds{cap}", self.pes, self.bound(), self.seeds)
    }
}

/// Explores every interleaving of one seed's run within the case's bound
/// (and cap); panics (loom reports the failing interleaving) if a property
/// fails or the threads deadlock.
fn explore(case: &Case, seed: u64) {
    let spec = case.spec(seed);
    spec.validate().unwrap_or_else(|e| panic!("{case:?}: {e}"));
    let mut model = loom::model::Builder::new();
    model.preemption_bound = Some(case.bound());
    model.max_permutations = case.cap;
    let replay = spec.replay();
    model.check(move || {
        let run = spec.run(None).expect("no trace");
        let failed: Vec<_> = run.check.failures().iter().map(|(n, v)| format!("{n}: {}", v.detail)).collect();
        assert!(failed.is_empty(), "property failed: {failed:?} (units per PE {:?}; {replay})", run.units);
    });
}

const CHILD_SEED: &str = "LBCHECK_LOOM_CHILD_SEED";

/// True in a child process that explores one seed for its parent.
fn is_child() -> bool {
    std::env::var(CHILD_SEED).is_ok()
}

/// Explores seed by seed, each in a child process (a loom deadlock aborts
/// the process while unwinding, so it cannot be caught in-process), and
/// returns the first seed that fails naming `expect`, with the child's output.
fn first_failure(test: &str, case: &Case, expect: &str) -> Option<(u64, String)> {
    if let Ok(seed) = std::env::var(CHILD_SEED) {
        explore(case, seed.parse().expect("seed")); // the child: fail by panicking
        return None;
    }
    (0..case.seeds).find_map(|seed| {
        let (success, text) = child(test, seed, expect);
        (!success && text.contains(expect)).then_some((seed, text))
    })
}

/// How long a child may take (quick: a seed explores in seconds).
fn child_limit() -> Duration {
    Duration::from_secs(if full() { 1800 } else { 120 })
}

/// How long a child that has printed loom's failure report may take to
/// exit. Such a child may hang instead of exiting (seen here: after a
/// deadlock report the harness blocks on std's panic-hook lock); it is
/// killed after this grace and judged by what it printed.
const REPORTED_GRACE: Duration = Duration::from_secs(2);

/// A pipe read to its end on a thread, into a text the caller can watch.
fn drain(mut r: impl Read + Send + 'static) -> (Arc<Mutex<String>>, std::thread::JoinHandle<()>) {
    let text = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&text);
    let handle = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n @ 1..) = r.read(&mut buf) {
            sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    (text, handle)
}

/// Runs `test` for `seed` in a child process: (exited successfully, its
/// output). A child is killed at [`child_limit`], or [`REPORTED_GRACE`]
/// after it printed loom's report (a line with `expect`, or a panic of the
/// model); a killed child did not succeed.
fn child(test: &str, seed: u64, expect: &str) -> (bool, String) {
    let exe = std::env::current_exe().expect("test binary");
    let mut c = Command::new(&exe)
        .args([test, "--exact", "--include-ignored", "--nocapture", "--test-threads", "1"])
        .env(CHILD_SEED, seed.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the test binary");
    let (out, out_thread) = drain(c.stdout.take().unwrap());
    let (err, err_thread) = drain(c.stderr.take().unwrap());
    let reported = || [&out, &err].iter().any(|t| t.lock().unwrap().contains(expect));
    let (start, mut seen) = (Instant::now(), None::<Instant>);
    let status = loop {
        if let Some(status) = c.try_wait().expect("wait for the child") {
            break Some(status);
        }
        seen = seen.or_else(|| reported().then(Instant::now));
        let stuck = seen.is_some_and(|t| t.elapsed() > REPORTED_GRACE);
        if stuck || start.elapsed() > child_limit() {
            let _ = (c.kill(), c.wait());
            let why = if stuck { "reported and then did not exit" } else { "took over the limit" };
            eprintln!("{test}: seed {seed}: the child {why} ({:?}) and was killed", start.elapsed());
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = (out_thread.join(), err_thread.join());
    let text = out.lock().unwrap().clone() + &err.lock().unwrap();
    (status.is_some_and(|s| s.success()), text)
}

/// Every interleaving of every seed of `case` passes every property.
pub fn passes(test: &str, case: Case) {
    timed(test, &case, "passed", || (0..case.seeds).for_each(|seed| explore(&case, seed)));
}

/// Asserts that loom reports the mutant of `test`, with `expect` in its report.
pub fn caught(test: &str, case: Case, expect: &str) {
    if is_child() {
        first_failure(test, &case, expect);
        return;
    }
    let what = timed(test, &case, "caught", || {
        let found = first_failure(test, &case, expect);
        let (seed, msg) = found.unwrap_or_else(|| panic!("no seed in 0..{} fails `{expect}`", case.seeds));
        let brief: String = msg.lines().filter(|l| l.contains(expect)).take(2).collect::<Vec<_>>().join("\n");
        assert!(!brief.is_empty(), "seed {seed}: expected `{expect}`, loom reported:\n{msg}");
        format!("seed {seed}: {}", brief.chars().take(300).collect::<String>())
    });
    eprintln!("{test}: {what}");
}

/// Runs `body` and, in the parent process, appends a line "seconds test:
/// what (case)" to the file `LBCHECK_LOOM_TIMES` names, if any
/// (`scripts/loom.sh` prints them, slowest first).
pub fn timed<T>(test: &str, case: &Case, what: &str, body: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = body();
    if let (false, Ok(path)) = (is_child(), std::env::var("LBCHECK_LOOM_TIMES")) {
        let mutant = case.mutant.map_or(String::new(), |m| format!(" `{m}`"));
        let line = format!("{:6.1} s  {test}: {what}{mutant} ({})\n", start.elapsed().as_secs_f64(), case.describe());
        let file = std::fs::OpenOptions::new().create(true).append(true).open(&path);
        file.and_then(|mut f| f.write_all(line.as_bytes())).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    out
}
