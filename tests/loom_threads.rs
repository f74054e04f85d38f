//! loom: every interleaving (up to a preemption bound) of the threaded
//! driver running the reference protocols on tiny workloads, checked by the
//! same checker as the simulator's runs; and every mutant reported.
//!
//! Run by `scripts/loom.sh` (which pins the bound and reports the time):
//! `RUSTFLAGS="--cfg loom" cargo test --release --test loom_threads`.
//! loom has no random choice: a PE's victims come from its seeded stream, so
//! each test explores several seeds, one `loom::model` per seed. A busy PE
//! yields after each work slice under loom (`sync::let_others_run`), so PEs
//! interleave at slice boundaries for free and the preemption bound counts
//! only switches inside the driver's synchronisation.
//!
//! **Bounds.** The profile's bound B is `LOOM_MAX_PREEMPTIONS` (quick 2,
//! full 3). P = 3 cases run with fewer preemptions: each one more multiplies
//! the interleavings by about a hundred (measured: energy P = 3 took 1.5 s at
//! bound 1 and 185 s at 2; four-counter P = 3 passed 2.2 million
//! interleavings in 300 s at bound 1 without finishing — idle PEs keep
//! exchanging requests and rejects, and waves keep running, while the others
//! work). Set `LBCHECK_LOOM_PROFILE=full` for the full profile (P = 3 for
//! every mutant, more seeds, B = 3): `scripts/loom.sh --full`, 400 s on two
//! cores. A child that has printed loom's report is killed 2 s later if it
//! has not exited (it may hang on the panic hook's lock), not at the limit.
#![cfg(loom)]

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lbcheck::harness::{Driver, RunSpec};
use lbcheck::mutants::Mutant;
use lbcheck::protocol::{BalancerKind, DetectorKind};
use lbcheck::runtime::threads::ThreadConfig;

/// Two splits at most (size 3, atomic 1): the smallest workload where work moves twice.
const TINY: &str = "synthetic:size=3,atomic=1";

/// One split only: with three PEs (four threads) the interleavings grow fast.
const ONE_SPLIT: &str = "synthetic:size=2,atomic=1";

/// Split among three PEs at the start (002 §3), uneven parts: the workload
/// where the one-wave bug shows (see `four_counter_one_wave_is_caught`).
const UNEVEN: &str = "synthetic:size=20,atomic=1,split=uniform";

fn full() -> bool {
    std::env::var("LBCHECK_LOOM_PROFILE").is_ok_and(|p| p == "full")
}

/// The profile's preemption bound B (`LOOM_MAX_PREEMPTIONS`, default 2).
fn profile_bound() -> usize {
    std::env::var("LOOM_MAX_PREEMPTIONS").ok().and_then(|b| b.parse().ok()).unwrap_or(2)
}

struct Case {
    balancer: BalancerKind,
    workload: &'static str,
    detector: DetectorKind,
    pes: u32,
    initial_split: bool,
    /// Seeds `0..seeds`, one `loom::model` each.
    seeds: u64,
    /// Preemptions fewer than the profile's bound.
    fewer: usize,
    /// Stop after this many interleavings (loom's DFS order; None: all within the bound).
    cap: Option<usize>,
    /// A protocol or threaded-driver mutant.
    mutant: Option<Mutant>,
}

impl Case {
    fn new(detector: DetectorKind, pes: u32) -> Case {
        let (seeds, fewer) = (if full() { 4 } else { 2 }, pes.saturating_sub(2) as usize);
        let (initial_split, cap, mutant) = (false, None, None);
        let balancer = BalancerKind::RandomPolling;
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

    fn bound(&self) -> usize {
        profile_bound().saturating_sub(self.fewer)
    }
}

/// Explores every interleaving of one seed's run within the case's bound
/// (and cap); panics (loom reports the failing interleaving) if a property
/// fails or the threads deadlock.
fn explore(case: &Case, seed: u64) {
    let spec = case.spec(seed);
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

fn passes(case: Case) {
    for seed in 0..case.seeds {
        explore(&case, seed);
    }
}

/// Asserts that loom reports the mutant of `test`, with `expect` in its report.
fn caught(test: &str, case: Case, expect: &str) {
    let child = std::env::var(CHILD_SEED).is_ok();
    let found = first_failure(test, &case, expect);
    if child {
        return;
    }
    let (seed, msg) = found.unwrap_or_else(|| panic!("no seed in 0..{} fails `{expect}`", case.seeds));
    let brief: String = msg.lines().filter(|l| l.contains(expect)).take(2).collect::<Vec<_>>().join("\n");
    assert!(!brief.is_empty(), "seed {seed}: expected `{expect}`, loom reported:\n{msg}");
    eprintln!("{test}: seed {seed} (bound {}): {}", case.bound(), brief.chars().take(300).collect::<String>());
}

#[test]
fn reference_energy_p2() {
    passes(Case::new(DetectorKind::Energy, 2));
}

#[test]
fn reference_four_counter_p2() {
    passes(Case::new(DetectorKind::FourCounter, 2));
}

#[test]
fn reference_safra_p2() {
    passes(Case::new(DetectorKind::Safra, 2));
}

/// Energy at P = 3, bound B − 1 (quick: 1, 1.5 s; full: 2, about 90 s per
/// seed — so two seeds in both profiles: more seeds at bound 2 ran for over
/// 50 minutes without finishing).
#[test]
fn reference_energy_p3() {
    passes(Case { workload: ONE_SPLIT, seeds: 2, ..Case::new(DetectorKind::Energy, 3) });
}

/// Four-counter at P = 3 on the workload where the one-wave mutant fails:
/// bound B − 2 (quick: 0, every slice-level interleaving; full: 1, the first
/// `LBCHECK_LOOM_CAP` interleavings in loom's order per seed, default 2·10^5
/// — exhaustive is out of reach: 10^6 per seed ran for over 20 minutes).
#[test]
fn reference_four_counter_p3() {
    let cap = full().then(|| std::env::var("LBCHECK_LOOM_CAP").ok().and_then(|c| c.parse().ok()).unwrap_or(200_000));
    let case = Case { workload: UNEVEN, initial_split: true, fewer: 2, cap, ..Case::new(DetectorKind::FourCounter, 3) };
    passes(case);
}

fn mutant_pes() -> u32 {
    if full() {
        3
    } else {
        2
    }
}

#[test]
fn energy_early_return_is_caught() {
    let case = Case { mutant: Some(Mutant::EnergyEarlyReturn), ..Case::new(DetectorKind::Energy, mutant_pes()) };
    caught("energy_early_return_is_caught", case, "no_early_termination");
}

/// The bug needs a PE read idle to receive work and pass part of it on
/// (001 §2), which takes three PEs: with two, FIFO mailboxes deliver a PE's
/// reading before any work it gives back. With the 002 §3 initial split
/// into uneven parts, PE 2 reads idle, gets work from PE 1 (counted) and
/// gives part to PE 0 (received before PE 0's reading), so one wave balances
/// while PE 2 still works. Seeds 0..16 at bound 0 (a seed without the bug is
/// explored in under a second; seed 11 has it in loom's first
/// interleaving); at higher bounds a seed without it takes hours. (Every
/// run also fails `detector_conformance`, which sees the announcement after
/// one wave; this test looks for the first seed whose outcome is wrong.)
#[test]
fn four_counter_one_wave_is_caught() {
    let base = Case::new(DetectorKind::FourCounter, 3);
    let (workload, initial_split, seeds, fewer) = (UNEVEN, true, 16, profile_bound());
    let case = Case { workload, initial_split, seeds, fewer, mutant: Some(Mutant::FourCounterOneWave), ..base };
    caught("four_counter_one_wave_is_caught", case, "no_early_termination");
}

#[test]
fn request_dropped_is_caught() {
    let case = Case { mutant: Some(Mutant::RequestDropped), ..Case::new(DetectorKind::FourCounter, mutant_pes()) };
    caught("request_dropped_is_caught", case, "requests_answered");
}

#[test]
fn lost_wakeup_is_caught() {
    let case = Case { mutant: Some(Mutant::LostWakeup), ..Case::new(DetectorKind::FourCounter, mutant_pes()) };
    caught("lost_wakeup_is_caught", case, "deadlock");
}

#[test]
fn sleep_flag_outside_lock_is_caught() {
    let case = Case { mutant: Some(Mutant::SleepFlagOutsideLock), ..Case::new(DetectorKind::Energy, mutant_pes()) };
    caught("sleep_flag_outside_lock_is_caught", case, "deadlock");
}

/// Pacheco's search without Send_all_rejects (003 §14.7.3) at P = 3: after
/// the Scatter, idle PEs keep each other's requests queued while waiting
/// for work themselves, and never answer them.
#[test]
fn no_send_all_rejects_is_caught() {
    let base = Case::new(DetectorKind::Energy, 3);
    let case = Case { balancer: BalancerKind::Pacheco, mutant: Some(Mutant::NoSendAllRejects), ..base };
    caught("no_send_all_rejects_is_caught", case, "requests_answered");
}
