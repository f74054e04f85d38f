//! Arbitrary bytes → a small simulated run (PEs, workload, latencies, split
//! choices, detector); every property must hold for the reference protocols.
#![no_main]

use arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use lbcheck::harness::{Driver, RunSpec};
use lbcheck::protocol::random_polling::QueueLimit;
use lbcheck::problem::dfs::Strategy;
use lbcheck::protocol::initial::InitialSplit;
use lbcheck::protocol::{BalancerKind, DetectorKind};
use lbcheck::sim::{Schedule, Shape, SimConfig, Topology};

fn scenario(u: &mut Unstructured) -> Result<RunSpec> {
    let size = u.int_in_range(1..=3000u64)?;
    let atomic = u.int_in_range(1..=size.min(40))?;
    let policy = *u.choose(&["uniform", "peel", "balanced", "alpha:0.3", "fig3:4:2"])?;
    let seed: u64 = u.arbitrary()?;
    let workloads = [
        format!("synthetic:size={size},atomic={atomic},split={policy},seed={seed}"),
        format!("uts:args=-t 1 -a {} -d {} -b 3 -r {}", u.int_in_range(0..=3u8)?, u.int_in_range(2..=5u8)?, seed as i32),
        format!("uts:args=-t 0 -b {} -q 0.2 -m 4 -r {}", u.int_in_range(1..=40u8)?, seed as i32),
        format!("loop:n={},cost=heavy,seed={seed}", u.int_in_range(1..=500u64)?),
    ];
    let workload: lbcheck::problem::Workload = u.choose(&workloads)?.parse().or(Err(arbitrary::Error::IncorrectFormat))?;
    let split = *u.choose(&[Strategy::BottomOne, Strategy::BottomHalf, Strategy::AllHalf, Strategy::Cutoff(2)])?;
    let detector = *u.choose(&[DetectorKind::Energy, DetectorKind::EnergyTree, DetectorKind::FourCounter])?;
    let a = u.int_in_range(1..=20u64)?;
    let topology = *u.choose(&[
        Topology::Crossbar,
        Topology::Hypercube,
        Topology::Mesh { r: 2 },
        Topology::FatTree,
        Topology::Butterfly,
        Topology::Ccc,
    ])?;
    let pes = u.int_in_range(1..=16u32)?;
    let pes = if topology == Topology::Crossbar { pes } else { pes.next_power_of_two() };
    let sim = SimConfig {
        pes,
        seed: u.arbitrary()?,
        dt: u.int_in_range(1..=30u64)?,
        t_rout: u.int_in_range(1..=20u64)?,
        t_split: u.int_in_range(0..=20u64)?,
        latency: if u.arbitrary()? { Some((a, a + u.int_in_range(0..=30u64)?)) } else { None },
        slow: if u.arbitrary()? { Some((u.int_in_range(1..=4u32.min(pes))?, u.int_in_range(1..=8u64)?)) } else { None },
        initial_split: match u.int_in_range(0..=2u8)? {
            0 => InitialSplit::Root,
            1 => InitialSplit::Bfs,
            _ => InitialSplit::Random(u.int_in_range(1..=8u32)?),
        },
        max_steps: 0, // set below from the workload's largest atomic item
        horizon: 0,
        shape: match u.int_in_range(0..=2u8)? {
            0 => Shape::Uniform,
            1 => Shape::Bimodal { permille: u.int_in_range(0..=1000u16)? },
            _ => Shape::Heavy,
        },
        schedule: *u.choose(&[Schedule::Plain, Schedule::SlowControl, Schedule::SlowWork])?,
        fifo_links: u.arbitrary()?,
        topology,
        o: u.int_in_range(0..=5u64)?,
        g: u.int_in_range(0..=5u64)?,
        t_poll: u.int_in_range(0..=5u64)?,
    };
    // While one PE works an atomic item of T_atomic units, the others keep
    // polling each other once per latency: budget for that (a heavy loop's
    // 2^20-unit iteration at latency 1 needs millions of steps).
    let t_atomic = workload.atomic_and_h().map_or(1, |(a, _)| a);
    let sim = SimConfig { max_steps: 5_000_000 + sim.polling_steps(t_atomic), ..sim };
    let balancer =
        *u.choose(&[BalancerKind::RandomPolling, BalancerKind::NeighbourPolling, BalancerKind::SyncRandomPolling])?;
    let mut spec = RunSpec { split, ..RunSpec::new(workload, balancer, detector, Driver::Sim(sim)) };
    if balancer == BalancerKind::RandomPolling && u.arbitrary()? {
        let limit = QueueLimit::Fixed(u.int_in_range(1..=4u32)?);
        spec.balancer.polling_mut().expect("random polling").queue_limit = Some(limit);
    }
    Ok(spec)
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = scenario(&mut Unstructured::new(data)) else { return };
    s.validate().expect("the target builds valid runs");
    let report = s.run(None).expect("no I/O without a trace");
    assert!(report.outcome.finished(), "{:?}; replay: {}", report.outcome.stop, s.replay());
    let failures = report.check.failures();
    assert!(failures.is_empty(), "{failures:?}\nreplay: {}", s.replay());
});
