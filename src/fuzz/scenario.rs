//! Fuzzer bytes → one small simulated run ([`RunSpec`]): the PE count, the
//! workload, the machine (latencies, slow PEs, network, LogP costs), the
//! event order (the agenda's [`Schedule`], FIFO links or not), the split
//! strategy, the initial distribution and the detector, each drawn from the
//! bytes with [`arbitrary`]. The one generator of the fuzz targets
//! `sim_run` (references) and `own_balancer` (a user's balancer).

use arbitrary::{Error, Result, Unstructured};

use crate::harness::{Driver, RunSpec};
use crate::problem::dfs::Strategy;
use crate::problem::Workload;
use crate::protocol::initial::InitialSplit;
use crate::protocol::random_polling::QueueLimit;
use crate::protocol::{BalancerKind, DetectorKind};
use crate::sim::{Schedule, Shape, SimConfig, Topology};

/// A run of one of the references the simulator's asynchronous machine
/// runs (random polling, possibly with a queue limit; neighbourhood
/// polling; synchronous random polling).
pub fn reference(u: &mut Unstructured) -> Result<RunSpec> {
    let kinds = [BalancerKind::RandomPolling, BalancerKind::NeighbourPolling, BalancerKind::SyncRandomPolling];
    let balancer = *u.choose(&kinds)?;
    let mut spec = run(u, balancer)?;
    if balancer == BalancerKind::RandomPolling && u.arbitrary()? {
        let limit = QueueLimit::Fixed(u.int_in_range(1..=4u32)?);
        spec.balancer.polling_mut().expect("random polling").queue_limit = Some(limit);
    }
    Ok(spec)
}

/// A run for a user's balancer: its `balancer` field is a placeholder
/// (random polling) that the user's balancer replaces
/// ([`crate::harness::UserBalancer`]).
pub fn user(u: &mut Unstructured) -> Result<RunSpec> {
    run(u, BalancerKind::RandomPolling)
}

/// A run of `balancer` on a drawn workload, machine and detector. The
/// draws that shape a run most come first and the 64-bit seeds last, so
/// that libFuzzer's first, short inputs already give varied runs (missing
/// bytes read as zeros: the smallest choice).
fn run(u: &mut Unstructured, balancer: BalancerKind) -> Result<RunSpec> {
    let (pes, topology) = pes_on_network(u)?;
    let text = workload(u)?;
    let split = *u.choose(&[Strategy::BottomOne, Strategy::BottomHalf, Strategy::AllHalf, Strategy::Cutoff(2)])?;
    let detectors: Vec<DetectorKind> = DetectorKind::of_pes().collect();
    let detector = *u.choose(&detectors)?;
    let sim = machine(u, pes, topology)?;
    let workload: Workload = text(u.arbitrary()?).parse().or(Err(Error::IncorrectFormat))?;
    let sim = SimConfig { seed: u.arbitrary()?, ..sim };
    // While one PE works an atomic item of T_atomic units, the others keep
    // polling each other once per latency: budget for that (a heavy loop's
    // 2^20-unit iteration at latency 1 needs millions of steps).
    let t_atomic = workload.atomic_and_h().map_or(1, |(a, _)| a);
    let sim = SimConfig { max_steps: 5_000_000 + sim.polling_steps(t_atomic), ..sim };
    Ok(RunSpec { split, ..RunSpec::new(workload, balancer, detector, Driver::Sim(sim)) })
}

/// 1–16 PEs on a network (a power of two but on the crossbar).
fn pes_on_network(u: &mut Unstructured) -> Result<(u32, Topology)> {
    let pes = u.int_in_range(1..=16u32)?;
    let topology = *u.choose(&[
        Topology::Crossbar,
        Topology::Hypercube,
        Topology::Mesh { r: 2 },
        Topology::FatTree,
        Topology::Butterfly,
        Topology::Ccc,
    ])?;
    Ok((if topology == Topology::Crossbar { pes } else { pes.next_power_of_two() }, topology))
}

/// A small workload (a synthetic adversary, a UTS tree or a loop), as its
/// text given its seed.
fn workload(u: &mut Unstructured) -> Result<Box<dyn Fn(u64) -> String>> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => {
            let size = u.int_in_range(1..=3000u64)?;
            let atomic = u.int_in_range(1..=size.min(40))?;
            let policy = *u.choose(&["uniform", "peel", "balanced", "alpha:0.3", "fig3:4:2"])?;
            Box::new(move |seed| format!("synthetic:size={size},atomic={atomic},split={policy},seed={seed}"))
        }
        1 => {
            let (a, d) = (u.int_in_range(0..=3u8)?, u.int_in_range(2..=5u8)?);
            Box::new(move |seed| format!("uts:args=-t 1 -a {a} -d {d} -b 3 -r {}", seed as i32))
        }
        2 => {
            let b = u.int_in_range(1..=40u8)?;
            Box::new(move |seed| format!("uts:args=-t 0 -b {b} -q 0.2 -m 4 -r {}", seed as i32))
        }
        _ => {
            let n = u.int_in_range(1..=500u64)?;
            Box::new(move |seed| format!("loop:n={n},cost=heavy,seed={seed}"))
        }
    })
}

/// The simulated machine of `pes` PEs on `topology`: costs, latencies and
/// the event order; `seed` and `max_steps` are left for the caller.
fn machine(u: &mut Unstructured, pes: u32, topology: Topology) -> Result<SimConfig> {
    let a = u.int_in_range(1..=20u64)?;
    Ok(SimConfig {
        pes,
        seed: 0,
        dt: u.int_in_range(1..=30u64)?,
        t_rout: u.int_in_range(1..=20u64)?,
        t_split: u.int_in_range(0..=20u64)?,
        latency: if u.arbitrary()? { Some((a, a + u.int_in_range(0..=30u64)?)) } else { None },
        slow: if u.arbitrary()? { Some((u.int_in_range(1..=4u32.min(pes))?, u.int_in_range(1..=8u64)?)) } else { None },
        initial_split: initial_split(u)?,
        max_steps: 0,
        max_time: None,
        horizon: 0,
        shape: shape(u)?,
        schedule: *u.choose(&[Schedule::Plain, Schedule::SlowControl, Schedule::SlowWork])?,
        fifo_links: u.arbitrary()?,
        topology,
        o: u.int_in_range(0..=5u64)?,
        g: u.int_in_range(0..=5u64)?,
        t_poll: u.int_in_range(0..=5u64)?,
        routing: None, // not drawn: the corpora's draws stay as they were
        msg_len: None,
    })
}

fn initial_split(u: &mut Unstructured) -> Result<InitialSplit> {
    Ok(match u.int_in_range(0..=2u8)? {
        0 => InitialSplit::Root,
        1 => InitialSplit::Bfs,
        _ => InitialSplit::Random(u.int_in_range(1..=8u32)?),
    })
}

fn shape(u: &mut Unstructured) -> Result<Shape> {
    Ok(match u.int_in_range(0..=2u8)? {
        0 => Shape::Uniform,
        1 => Shape::Bimodal { permille: u.int_in_range(0..=1000u16)? },
        _ => Shape::Heavy,
    })
}
