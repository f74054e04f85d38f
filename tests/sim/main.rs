//! Tests of the simulator, the reference protocols and the checker: every
//! property on random scenarios, determinism, the mutants, traces.

mod mutants;
mod properties;
mod run_cli;
mod trace;

use lbcheck::problem::dfs::Strategy;
use lbcheck::protocol::random_polling;
use lbcheck::sim::scenario::{DetectorKind, RunReport, Scenario};
use lbcheck::sim::SimConfig;

/// A scenario with the default machine and no mutant.
pub fn scenario(workload: &str, detector: DetectorKind, pes: u32, seed: u64) -> Scenario {
    Scenario {
        workload: workload.parse().expect("workload"),
        split: Strategy::default(),
        detector,
        sim: SimConfig { pes, seed, ..SimConfig::default() },
        polling: random_polling::Config::default(),
    }
}

/// Runs and asserts every property passed, printing the replay command if not.
pub fn assert_all_pass(s: &Scenario) -> RunReport {
    let r = s.run(None).expect("no trace");
    assert!(r.outcome.finished(), "{:?}; replay: {}", r.outcome.stop, s.replay());
    let failures = r.check.failures();
    assert!(failures.is_empty(), "{failures:#?}\nreplay: {}", s.replay());
    r
}

/// Runs the `lbcheck` binary: (exit code, stdout, stderr).
pub fn lbcheck(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lbcheck")).args(args).output().expect("run lbcheck");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("utf-8 output");
    (out.status.code().expect("exit code"), text(out.stdout), text(out.stderr))
}

pub const DETECTORS: [DetectorKind; 3] = [DetectorKind::Energy, DetectorKind::EnergyTree, DetectorKind::FourCounter];
