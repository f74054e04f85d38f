//! The runs a mutant caught by a single checked run is shown on: the
//! `mutants` layer runs them with the mutant, the `simulate` layer's
//! regression corpus with the implementation under test.

use crate::harness::{Driver, RunSpec};
use crate::mutants::{Mutant, Site};
use crate::protocol::{BalancerKind, DetectorKind};
use crate::sim::atomic::AtomicConfig;
use crate::sim::SimConfig;

/// The runs a mutant caught by a single run is shown on (its declaration's
/// [`Demo`](crate::mutants::Demo), as in `tests/sim/mutants.rs`), set up
/// for what it needs.
pub fn of(m: Mutant) -> Vec<RunSpec> {
    let e = m.entry();
    let detector = match e.site {
        Site::Detectors(ds) => ds[0],
        Site::Balancer(b) if b.phased() => DetectorKind::Barrier,
        _ => DetectorKind::Energy,
    };
    match e.site {
        Site::AtomicMachine => return atomic_demos(m, BalancerKind::RandomDestination),
        Site::Balancer(b) if b.atomic() => return atomic_demos(m, b),
        _ => {}
    }
    let demo = e.demo;
    let balancer = match (demo.balancer, e.site) {
        (Some(b), _) | (None, Site::Balancer(b)) => b,
        _ => BalancerKind::RandomPolling,
    };
    let run = |&seed: &u64| {
        let sim = SimConfig { pes: demo.pes, seed, t_split: demo.t_split, ..SimConfig::default() };
        let workload = demo.workload.parse().expect("a valid workload");
        RunSpec::new(workload, balancer, detector, Driver::Sim(sim)).with_mutant(Some(m))
    };
    demo.seeds.iter().map(run).collect()
}

/// The runs showing a mutant of 004's atomic model: `balancer` on the
/// atomic machine, FIFO arbiter (branch-and-bound on a cost tree).
fn atomic_demos(m: Mutant, balancer: BalancerKind) -> Vec<RunSpec> {
    let tree = if balancer == BalancerKind::PriorityBnb { "kz:depth=10" } else { "synthetic:size=4096" };
    let run = |seed| {
        let driver = Driver::Atomic(AtomicConfig { pes: 16, seed, ..AtomicConfig::default() });
        let workload = tree.parse().expect("a valid workload");
        RunSpec { mutant: Some(m), ..RunSpec::new(workload, balancer, DetectorKind::Energy, driver) }
    };
    [1, 2, 3].into_iter().map(run).collect()
}
