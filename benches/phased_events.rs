//! The phased machine's throughput (a benchmark, not a timed test; issue
//! 12): poll-and-shuffle (000 §3) on the hypercube, simulated events per
//! second at P = 2^10, 2^14, 2^16, 2^20 with T_seq = 64 units per PE
//! (T_phase = 8, T_rout = 1, T_split = 2), raw and with the online checker,
//! and the peak memory (VmHWM) after the raw run and after the checked one.
//! Beside wall-clock seconds, the CPU seconds of the process
//! (all its threads: `CLOCK_PROCESS_CPUTIME_ID`): the figure that is fair on a shared machine.
//!
//! `cargo bench --bench phased_events` (all sizes) or `-- 10 14` (chosen
//! log2 P); `-- raw 20` skips the checked run (profiling the machine alone).

use std::time::Instant;

use lbcheck::event::Event;
use lbcheck::harness::{Driver, RunSpec};
use lbcheck::protocol::poll_and_shuffle::PasRules;
use lbcheck::protocol::{BalancerKind, DetectorKind};
use lbcheck::sim::phased::permutation::Method;
use lbcheck::sim::phased::trigger::Trigger;
use lbcheck::sim::phased::SyncMode;
use lbcheck::sim::{phased, SimConfig, Topology};

mod common;
use common::{cpu_seconds, peak_mib};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let raw_only = args.iter().any(|a| a == "raw");
    let sizes: Vec<u32> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![10, 14, 16, 20] } else { sizes };
    println!(
        "{:>5} {:>11} {:>6} {:>7} {:>7} {:>8} {:>6} {:>9} {:>9} {:>9} {:>6}",
        "log2P", "events", "phases", "raw s", "cpu s", "Mev/cpu", "HWM Mi", "checked s", "cpu s", "Mev/cpu", "HWM Mi"
    );
    for k in sizes {
        let scenario = scenario(1 << k);
        let (events, phases, raw, raw_cpu) = raw_run(&scenario);
        let mev = |s: f64| events as f64 / s / 1e6;
        let mut line = format!(
            "{k:>5} {events:>11} {phases:>6} {raw:>7.2} {raw_cpu:>7.2} {:>8.2} {:>6}",
            mev(raw_cpu),
            peak_mib()
        );
        if !raw_only {
            let (cpu0, start) = (cpu_seconds(), Instant::now());
            let report = scenario.run(None).expect("no trace");
            let (checked, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu0);
            assert!(report.check.all_pass(), "{:?}", report.check.failures());
            line += &format!(" {checked:>9.2} {cpu:>9.2} {:>9.2} {:>6}", mev(cpu), peak_mib());
        }
        println!("{line}");
    }
}

/// T_seq = 64 units per PE, split in halves, on the hypercube.
fn scenario(pes: u32) -> RunSpec {
    let workload = format!("synthetic:size={},atomic=1,split=balanced", pes as u64 * 64).parse().expect("workload");
    let sim =
        SimConfig { pes, seed: 1, dt: 8, t_rout: 1, t_split: 2, topology: Topology::Hypercube, ..SimConfig::default() };
    RunSpec::new(workload, BalancerKind::PollAndShuffle, DetectorKind::Barrier, Driver::Sim(sim))
}

/// The phased machine alone, counting events: (events, phases, wall seconds, CPU seconds).
fn raw_run(s: &RunSpec) -> (u64, u64, f64, f64) {
    let Driver::Sim(cfg) = &s.driver else { unreachable!("a simulated run") };
    let mut events = 0u64;
    let mut sink = |_: Event| events += 1;
    let (cpu0, start) = (cpu_seconds(), Instant::now());
    let how = (Method::Exact, Trigger::Cycle);
    let out = phased::run(cfg, PasRules::PAPER, how, SyncMode::Global, s.workload.root(s.split), &mut sink);
    (events, out.steps, start.elapsed().as_secs_f64(), cpu_seconds() - cpu0)
}
