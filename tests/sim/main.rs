//! Tests of the simulator, the reference protocols and the checker: every
//! property on random scenarios, determinism, the mutants, traces.

/// The allocator of the `lbcheck` binary (src/main.rs), for the runs these
/// tests make in-process.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod adaptive;
mod atomic;
mod bitonic;
mod bnb;
mod bounds_reference;
mod campaign;
mod combinations;
mod compare;
mod deactivate;
mod explore;
#[cfg(not(feature = "mutants-quick"))]
mod fuzz;
#[cfg(not(feature = "mutants-quick"))]
mod fuzz_bodies;
mod guide;
#[cfg(not(feature = "mutants-quick"))]
mod hostile;
mod initial_random;
mod local_sync;
mod mutants;
mod mutation;
mod pacheco;
mod phased;
mod properties;
mod registry;
mod reproduce;
mod routing;
mod run_cli;
mod safra;
mod scatter;
mod spec;
#[cfg(not(feature = "mutants-quick"))]
mod testing;
mod threads;
mod timeline;
mod topology;
mod trace;
mod two_slots;
#[cfg(not(feature = "mutants-quick"))]
mod user;
#[cfg(not(feature = "mutants-quick"))]
mod user_bounds;
#[cfg(not(feature = "mutants-quick"))]
mod user_loom;
mod validation;
mod wire;

// The examples' user protocols, once: each inclusion would be a type of
// its own, and lbcheck's generic campaign compiled again for it.
#[cfg(not(feature = "mutants-quick"))]
#[path = "../../examples/shared/dijkstra_scholten.rs"]
mod dijkstra_scholten;
#[cfg(not(feature = "mutants-quick"))]
#[path = "../../examples/shared/round_robin.rs"]
mod round_robin;

// The modules marked `not(feature = "mutants-quick")` run a user's own
// protocols (and the fuzz targets' bodies): they instantiate lbcheck's
// campaign for the test crate's protocol types, most of this binary's
// compile time. cargo-mutants' quick profile (.cargo/mutants.toml) runs
// none of them and builds without them.

use lbcheck::harness::{Driver, RunResult, RunSpec};
use lbcheck::protocol::{BalancerKind, DetectorKind};
use lbcheck::sim::SimConfig;

/// A simulated run of random polling with the default machine and no mutant.
pub fn scenario(workload: &str, detector: DetectorKind, pes: u32, seed: u64) -> RunSpec {
    let driver = Driver::Sim(SimConfig { pes, seed, ..SimConfig::default() });
    RunSpec::new(workload.parse().expect("workload"), BalancerKind::RandomPolling, detector, driver)
}

/// The simulator configuration of a simulated run.
pub fn sim(s: &mut RunSpec) -> &mut SimConfig {
    match &mut s.driver {
        Driver::Sim(c) => c,
        _ => panic!("not a run on 001's simulated machine"),
    }
}

/// Runs and asserts every property passed, printing the replay command if not.
pub fn assert_all_pass(s: &RunSpec) -> RunResult {
    s.validate().expect("a valid run");
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

pub const DETECTORS: [DetectorKind; 4] =
    [DetectorKind::Energy, DetectorKind::EnergyTree, DetectorKind::FourCounter, DetectorKind::Safra];

/// The JSON of `lbcheck simulate --json ARGS`, which must exit 0 with every property passing.
pub fn passing(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["simulate", "--json"];
    all.extend(args);
    let (code, out, err) = lbcheck(&all);
    assert_eq!(code, 0, "{args:?}:\n{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let props = json["properties"].as_object().unwrap();
    assert!(props.values().all(|v| v["pass"] == true), "{args:?}: {props:?}");
    json
}
