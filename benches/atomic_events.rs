//! The atomic machine's throughput (004 §2; a benchmark, not a timed test):
//! random-destination search (004 §4.1) of a tree of 64 unit vertices per
//! node under the FIFO arbiter, at P = 2^10, 2^12, 2^14, 2^16, raw (the
//! machine alone, counting events) and checked (`lbcheck simulate`'s run:
//! the sequential reference, then every property of `check/` online).
//!
//! `cargo bench --bench atomic_events` (all sizes) or `-- 10 12` (chosen
//! log2 P); `-- raw 16` skips the checked run. Beside wall seconds it prints
//! the CPU seconds of the process (all its threads, the online checker's among them: `CLOCK_PROCESS_CPUTIME_ID`), events per CPU
//! second and the steps T (a machine visiting every node every step costs
//! O(P·T); the agenda, O(events)), and the load average before each size.

use std::time::Instant;

use lbcheck::base::rng::{stream, Purpose};
use lbcheck::event::Event;
use lbcheck::harness::{Driver, RunSpec};
use lbcheck::protocol::energy::{self, Energy};
use lbcheck::protocol::random_destination::{self, RandomDestination};
use lbcheck::protocol::{BalancerKind, DetectorKind, Pe};
use lbcheck::sim::atomic::network::{Chooser, Discipline, Rules};
use lbcheck::sim::atomic::{run, Arbiter, AtomicConfig};

mod common;
use common::{cpu_seconds, loadavg, peak_mib};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let raw_only = args.iter().any(|a| a == "raw");
    let sizes: Vec<u32> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![10, 12, 14, 16] } else { sizes };
    println!(
        "{:>5} {:>11} {:>6} {:>7} {:>7} {:>8} {:>9} {:>9} {:>8} {:>6}  load",
        "log2P", "events", "T", "raw s", "cpu s", "Mev/cpu", "checked s", "cpu s", "Mev/cpu", "HWM Mi"
    );
    for k in sizes {
        let load = loadavg();
        let spec = scenario(1 << k);
        let (events, t, raw, raw_cpu) = raw_run(&spec);
        let mev = |s: f64| events as f64 / s / 1e6;
        let mut line = format!("{k:>5} {events:>11} {t:>6} {raw:>7.2} {raw_cpu:>7.2} {:>8.2}", mev(raw_cpu));
        if !raw_only {
            let (cpu0, start) = (cpu_seconds(), Instant::now());
            let report = spec.run(None).expect("no trace");
            let (checked, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu0);
            assert!(report.check.all_pass(), "{:?}", report.check.failures());
            line += &format!(" {checked:>9.2} {cpu:>9.2} {:>8.2}", mev(cpu));
        } else {
            line += &format!(" {:>9} {:>9} {:>8}", "-", "-", "-");
        }
        println!("{line} {:>6}  {load}", peak_mib());
    }
}

/// 64 unit vertices per node, random destinations, FIFO arbiter, seed 1:
/// `lbcheck simulate --balancer random-destination --machine atomic --pes P
/// --seed 1 --workload synthetic:size=64P`.
fn scenario(pes: u32) -> RunSpec {
    let workload = format!("synthetic:size={}", pes as u64 * 64).parse().expect("workload");
    let cfg = AtomicConfig { pes, seed: 1, ..AtomicConfig::default() };
    RunSpec::new(workload, BalancerKind::RandomDestination, DetectorKind::Energy, Driver::Atomic(cfg))
}

/// The machine alone, counting events: (events, T, wall s, CPU s).
fn raw_run(s: &RunSpec) -> (u64, u64, f64, f64) {
    let Driver::Atomic(cfg) = &s.driver else { unreachable!("an atomic run") };
    let mut events = 0u64;
    let mut sink = |_: Event| events += 1;
    let (cpu0, start) = (cpu_seconds(), Instant::now());
    let rules = Rules::atomic(Arbiter::Fifo, Discipline::Fifo);
    let chooser = Chooser::Seeded(stream(cfg.seed, 0, Purpose::Arbiter));
    let out = run(
        cfg,
        rules,
        chooser,
        s.workload.root(s.split),
        |_| {
            Pe::new(
                RandomDestination::new(random_destination::Rules::paper()),
                Energy::new(false, energy::Rules::PAPER),
            )
        },
        &mut sink,
    );
    (events, out.t, start.elapsed().as_secs_f64(), cpu_seconds() - cpu0)
}
