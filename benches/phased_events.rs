//! The phased machine's throughput (a benchmark, not a timed test; issue
//! 12): poll-and-shuffle (000 §3) on the hypercube, simulated events per
//! second at P = 2^10, 2^14, 2^16, 2^20 with T_seq = 64 units per PE
//! (T_phase = 8, T_rout = 1, T_split = 2), raw and with the online checker,
//! and the peak memory (VmHWM) after each size.
//!
//! `cargo bench --bench phased_events` (all sizes) or `-- 10 14` (chosen log2 P).

use std::time::Instant;

use lbcheck::event::Event;
use lbcheck::harness::{Driver, RunSpec};
use lbcheck::protocol::poll_and_shuffle::PasRules;
use lbcheck::protocol::{BalancerKind, DetectorKind};
use lbcheck::sim::phased::permutation::Method;
use lbcheck::sim::phased::trigger::Trigger;
use lbcheck::sim::phased::SyncMode;
use lbcheck::sim::{phased, SimConfig, Topology};

fn main() {
    let args: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if args.is_empty() { vec![10, 14, 16, 20] } else { args };
    println!(
        "{:>6} {:>12} {:>8} {:>8} {:>12} {:>10} {:>12} {:>10}",
        "log2P", "events", "phases", "sim s", "Mev/s", "checked s", "Mev/s chk", "VmHWM MiB"
    );
    for k in sizes {
        let scenario = scenario(1 << k);
        let (events, phases, raw) = raw_run(&scenario);
        let start = Instant::now();
        let report = scenario.run(None).expect("no trace");
        let checked = start.elapsed().as_secs_f64();
        assert!(report.check.all_pass(), "{:?}", report.check.failures());
        let mev = |s: f64| events as f64 / s / 1e6;
        println!(
            "{k:>6} {events:>12} {phases:>8} {raw:>8.2} {:>12.2} {checked:>10.2} {:>12.2} {:>10}",
            mev(raw),
            mev(checked),
            peak_mib()
        );
    }
}

/// T_seq = 64 units per PE, split in halves, on the hypercube.
fn scenario(pes: u32) -> RunSpec {
    let workload = format!("synthetic:size={},atomic=1,split=balanced", pes as u64 * 64).parse().expect("workload");
    let sim =
        SimConfig { pes, seed: 1, dt: 8, t_rout: 1, t_split: 2, topology: Topology::Hypercube, ..SimConfig::default() };
    RunSpec::new(workload, BalancerKind::PollAndShuffle, DetectorKind::Barrier, Driver::Sim(sim))
}

/// The phased machine alone, counting events: (events, phases, seconds).
fn raw_run(s: &RunSpec) -> (u64, u64, f64) {
    let Driver::Sim(cfg) = &s.driver else { unreachable!("a simulated run") };
    let mut events = 0u64;
    let mut sink = |_: Event| events += 1;
    let start = Instant::now();
    let how = (Method::Exact, Trigger::Cycle);
    let out = phased::run(cfg, PasRules::PAPER, how, SyncMode::Global, s.workload.root(s.split), &mut sink);
    (events, out.steps, start.elapsed().as_secs_f64())
}

fn peak_mib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb =
        status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.split_whitespace().next()?.parse().ok());
    kb.unwrap_or(0) / 1024
}
