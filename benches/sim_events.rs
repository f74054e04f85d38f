//! Simulator throughput (a benchmark, not a timed test): simulated events per
//! second on a synthetic workload at P = 2^10, 2^14, 2^16, 2^20, with and
//! without the online checker, and the peak memory (VmHWM) after each size.
//!
//! `cargo bench --bench sim_events` (all sizes) or `-- 10 14` (chosen log2 P);
//! `-- raw 20` skips the checked run (profiling the simulator alone);
//! `-- checker 14` times the checker alone, inline on this thread, on
//! the run's events in batches as the piped checker gets them
//! ([`Checker::observe_batch`]; the best of five runs, in nanoseconds per
//! event: the figure the overhead target is about, without the piping to
//! the checker's thread). Beside
//! wall-clock seconds it prints the CPU seconds of the process
//! (all its threads, the online checker's among them: `CLOCK_PROCESS_CPUTIME_ID`) and events per CPU second (the per-core figure,
//! fair on a shared machine), and the load average before each size; then
//! issue 30's targets.

use std::time::Instant;

use lbcheck::check::Checker;
use lbcheck::event::Event;
use lbcheck::harness::{reference, Driver, RunSpec};
use lbcheck::protocol::energy::{self, Energy};
use lbcheck::protocol::random_polling::{self, RandomPolling};
use lbcheck::protocol::{BalancerKind, DetectorKind, Pe};
use lbcheck::sim::{run, SimConfig};

mod common;
use common::{cpu_seconds, loadavg, peak_mib, thread_cpu_seconds};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let raw_only = args.iter().any(|a| a == "raw");
    let sizes: Vec<u32> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![10, 14, 16, 20] } else { sizes };
    if args.iter().any(|a| a == "checker") {
        return sizes.into_iter().for_each(checker_alone);
    }
    println!(
        "{:>5} {:>11} {:>7} {:>7} {:>8} {:>9} {:>9} {:>9} {:>9} {:>6}  load",
        "log2P", "events", "raw s", "cpu s", "Mev/cpu", "checked s", "cpu s", "Mev/cpu", "overhead", "HWM Mi"
    );
    for k in sizes {
        let load = loadavg();
        let scenario = scenario(1 << k);
        let (events, raw, raw_cpu) = raw_run(&scenario);
        let mev = |s: f64| events as f64 / s / 1e6;
        let mut line = format!("{k:>5} {events:>11} {raw:>7.2} {raw_cpu:>7.2} {:>8.2}", mev(raw_cpu));
        if !raw_only {
            let (cpu0, start) = (cpu_seconds(), Instant::now());
            let report = scenario.run(None).expect("no trace");
            let (checked, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu0);
            assert!(report.check.all_pass(), "{:?}", report.check.failures());
            let over = 100.0 * (cpu / raw_cpu - 1.0);
            line += &format!(" {checked:>9.2} {cpu:>9.2} {:>9.2} {over:>8.0}%", mev(cpu));
        } else {
            line += &format!(" {:>9} {:>9} {:>9} {:>9}", "-", "-", "-", "-");
        }
        println!("{line} {:>6}  {load}", peak_mib());
    }
    println!("{TARGETS}");
}

/// Issue 30's targets, printed beside the figures.
const TARGETS: &str = "targets (issue 30): raw >= 20 Mev/cpu at log2P 10..16; overhead <= 50 %; \
log2P 20: raw <= 30 s, checked <= 45 s wall and <= 2048 MiB";

/// T_seq = 64 units per PE, split in halves, Δt = 8.
fn scenario(pes: u32) -> RunSpec {
    let workload = format!("synthetic:size={},atomic=1,split=balanced", pes as u64 * 64).parse().expect("workload");
    let sim = SimConfig { pes, seed: 1, dt: 8, t_rout: 4, t_split: 2, ..SimConfig::default() };
    RunSpec::new(workload, BalancerKind::RandomPolling, DetectorKind::Energy, Driver::Sim(sim))
}

/// The checker alone over the events of the run at P = 2^`k`: the run
/// hands its events in batches of 4,096 (as to the online checker's
/// thread), and only the checker's work on each batch is timed (this
/// thread's CPU clock), the best of five runs: nanoseconds per event.
fn checker_alone(k: u32) {
    let s = scenario(1 << k);
    let (header, r) = (s.header(), reference(&s.workload, s.split));
    let pass = || {
        let (mut checker, mut batch, mut cpu, mut events) = (Checker::new(&header, r), Vec::new(), 0.0, 0u64);
        let mut check = |batch: &mut Vec<(usize, Event)>| {
            let cpu0 = thread_cpu_seconds();
            checker.observe_batch(batch);
            batch.clear();
            cpu += thread_cpu_seconds() - cpu0;
        };
        let mut sink = |e: Event| {
            events += 1;
            batch.push((events as usize + 1, e));
            if batch.len() == 4096 {
                check(&mut batch);
            }
        };
        simulate(&s, &mut sink);
        check(&mut batch);
        assert!(checker.finish().all_pass());
        (cpu, events)
    };
    let (best, events) = (0..5).map(|_| pass()).fold((f64::INFINITY, 0), |a, b| if b.0 < a.0 { b } else { a });
    let ns = best * 1e9 / events as f64;
    println!("log2P {k:>2}: {events} events, checker alone {best:.3} CPU s, {ns:.1} ns/event");
}

/// The simulator alone, counting events: (events, wall seconds, CPU seconds).
fn raw_run(s: &RunSpec) -> (u64, f64, f64) {
    let mut events = 0u64;
    let (cpu0, start) = (cpu_seconds(), Instant::now());
    simulate(s, &mut |_| events += 1);
    (events, start.elapsed().as_secs_f64(), cpu_seconds() - cpu0)
}

/// The simulator alone on `s` (random polling with energy, the paper's
/// rules), every event to `sink`.
fn simulate(s: &RunSpec, sink: &mut impl FnMut(Event)) {
    let Driver::Sim(cfg) = &s.driver else { unreachable!("a simulated run") };
    let (rules, energy) = (random_polling::Rules::paper(), energy::Rules::PAPER);
    let pe = |_| Pe::new(RandomPolling::new(rules, None), Energy::new(false, energy));
    run(cfg, s.workload.root(s.split), pe, sink);
}
