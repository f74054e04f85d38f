//! loom: every interleaving (up to `LOOM_MAX_PREEMPTIONS`) of the threaded
//! driver running the reference protocols on tiny workloads, checked by the
//! same checker as the simulator's runs; and every mutant reported.
//!
//! Run by `scripts/loom.sh` (which pins the preemption bound and reports the
//! time): `RUSTFLAGS="--cfg loom" cargo test --release --test loom_threads`.
//! loom has no random choice: a PE's victims come from its seeded stream, so
//! each test explores several seeds, one `loom::model` per seed. Set
//! `LBCHECK_LOOM_PROFILE=full` for the full profile (P = 3 for every mutant,
//! more seeds).
#![cfg(loom)]

use std::process::Command;

use lbcheck::mutants::Mutant;
use lbcheck::protocol::random_polling;
use lbcheck::runtime::mutants::ThreadMutant;
use lbcheck::runtime::threads::ThreadConfig;
use lbcheck::runtime::RealRun;
use lbcheck::sim::scenario::DetectorKind;

/// Two splits at most (size 3, atomic 1): the smallest workload where work moves twice.
const TINY: &str = "synthetic:size=3,atomic=1";

/// Enough units for a part to be split again after a slice.
const SMALL: &str = "synthetic:size=6,atomic=1";

fn full() -> bool {
    std::env::var("LBCHECK_LOOM_PROFILE").is_ok_and(|p| p == "full")
}

fn seeds() -> u64 {
    if full() {
        4
    } else {
        2
    }
}

struct Case {
    workload: &'static str,
    detector: DetectorKind,
    pes: u32,
    mutant: Option<Mutant>,
    thread_mutant: Option<ThreadMutant>,
}

impl Case {
    fn new(detector: DetectorKind, pes: u32) -> Case {
        Case { workload: TINY, detector, pes, mutant: None, thread_mutant: None }
    }

    fn spec(&self, seed: u64) -> RealRun {
        RealRun {
            workload: self.workload.parse().expect("workload"),
            split: Default::default(),
            detector: self.detector,
            threads: ThreadConfig { pes: self.pes, seed, dt: 1, record: true, mutant: self.thread_mutant },
            polling: random_polling::Config { queue_limit: None, mutant: self.mutant },
        }
    }
}

/// Explores every interleaving of one seed's run; panics (loom reports the
/// failing interleaving) if a property fails or the threads deadlock.
fn explore(spec: RealRun) {
    let reference = spec.reference();
    loom::model(move || {
        let (run, report) = spec.run_checked(reference);
        let failed: Vec<_> = report.failures().iter().map(|(n, v)| format!("{n}: {}", v.detail)).collect();
        assert!(failed.is_empty(), "property failed: {failed:?} (units per PE {:?})", run.units);
    });
}

const CHILD_SEED: &str = "LBCHECK_LOOM_CHILD_SEED";

/// Explores seed by seed, each in a child process (a loom deadlock aborts
/// the process while unwinding, so it cannot be caught in-process), and
/// returns the first failing seed with the child's output.
fn first_failure(test: &str, case: &Case) -> Option<(u64, String)> {
    if let Ok(seed) = std::env::var(CHILD_SEED) {
        explore(case.spec(seed.parse().expect("seed"))); // the child: fail by panicking
        return None;
    }
    let exe = std::env::current_exe().expect("test binary");
    (0..seeds()).find_map(|seed| {
        let out = Command::new(&exe)
            .args([test, "--exact", "--nocapture", "--test-threads", "1"])
            .env(CHILD_SEED, seed.to_string())
            .output()
            .expect("run the test binary");
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        (!out.status.success()).then_some((seed, text))
    })
}

fn passes(case: Case) {
    for seed in 0..seeds() {
        explore(case.spec(seed));
    }
}

/// Asserts that loom reports the mutant of `test`, with `expect` in its report.
fn caught(test: &str, case: Case, expect: &str) {
    let child = std::env::var(CHILD_SEED).is_ok();
    let found = first_failure(test, &case);
    if child {
        return;
    }
    let (seed, msg) = found.unwrap_or_else(|| panic!("no seed in 0..{} exhibits the bug", seeds()));
    let brief: String = msg.lines().filter(|l| l.contains(expect)).take(2).collect::<Vec<_>>().join("\n");
    assert!(!brief.is_empty(), "seed {seed}: expected `{expect}`, loom reported:\n{msg}");
    eprintln!("{test}: seed {seed}: {}", brief.chars().take(300).collect::<String>());
}

#[test]
fn reference_energy_p2() {
    passes(Case::new(DetectorKind::Energy, 2));
}

#[test]
fn reference_four_counter_p2() {
    passes(Case::new(DetectorKind::FourCounter, 2));
}

/// One split only: with three PEs (four threads) the interleavings grow fast.
const ONE_SPLIT: &str = "synthetic:size=2,atomic=1";

#[test]
fn reference_energy_p3() {
    passes(Case { workload: ONE_SPLIT, ..Case::new(DetectorKind::Energy, 3) });
}

#[test]
#[ignore = "full profile only (scripts/loom.sh --full): over 4 minutes even at one preemption"]
fn reference_four_counter_p3() {
    passes(Case { workload: ONE_SPLIT, ..Case::new(DetectorKind::FourCounter, 3) });
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

#[test]
#[ignore = "full profile only (scripts/loom.sh --full): needs P = 3, over 4 minutes at one preemption"]
fn four_counter_one_wave_is_caught() {
    // The bug needs work to move both ways after a PE's idle reading (001 §2):
    // PE 1 reads idle, gets a part from PE 0 and gives some back, so the
    // wave's sums balance while PE 1 still works; parts of 3 units allow it.
    let mutant = Some(Mutant::FourCounterOneWave);
    // That takes three PEs: with two, FIFO mailboxes deliver PE 1's reading
    // to PE 0 before any work PE 1 gives back, so the wave cannot balance.
    let case = Case { workload: SMALL, mutant, ..Case::new(DetectorKind::FourCounter, 3) };
    caught("four_counter_one_wave_is_caught", case, "no_early_termination");
}

#[test]
fn request_dropped_is_caught() {
    let case = Case { mutant: Some(Mutant::RequestDropped), ..Case::new(DetectorKind::FourCounter, mutant_pes()) };
    caught("request_dropped_is_caught", case, "requests_answered");
}

#[test]
fn lost_wakeup_is_caught() {
    let case =
        Case { thread_mutant: Some(ThreadMutant::LostWakeup), ..Case::new(DetectorKind::FourCounter, mutant_pes()) };
    caught("lost_wakeup_is_caught", case, "deadlock");
}

#[test]
fn sleep_flag_outside_lock_is_caught() {
    let case = Case {
        thread_mutant: Some(ThreadMutant::SleepFlagOutsideLock),
        ..Case::new(DetectorKind::Energy, mutant_pes())
    };
    caught("sleep_flag_outside_lock_is_caught", case, "deadlock");
}
