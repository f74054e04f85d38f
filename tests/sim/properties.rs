//! Every property holds for the reference protocols on random scenarios.

use lbcheck::harness::{Driver, RunSpec};
use lbcheck::problem::dfs::Strategy as Split;
use lbcheck::protocol::initial::InitialSplit;
use lbcheck::protocol::random_polling::{QueueLimit, RandomPollingParams};
use lbcheck::protocol::BalancerSpec;
use lbcheck::sim::{Schedule, Shape, SimConfig, Topology};
use proptest::prelude::*;

use super::{assert_all_pass, scenario, DETECTORS};

const WORKLOADS: &[&str] = &[
    "synthetic:size=1,atomic=1",
    "synthetic:size=500,atomic=1,split=uniform,seed=4",
    "synthetic:size=2000,atomic=8,split=peel",
    "synthetic:size=4096,atomic=2,split=fig3:8:4",
    "synthetic:size=3000,atomic=5,split=alpha:0.1",
    "uts:default",
    "uts:args=-t 0 -b 20 -q 0.2 -m 4 -r 3",
    "uts:args=-t 3 -d 1 -b 1",
    "loop:n=300,cost=heavy,seed=9",
];

/// The networks drawn (000 §2.1, §4; all but the crossbar round P up to a power of two).
const TOPOLOGIES: [Topology; 6] = [
    Topology::Crossbar,
    Topology::Crossbar,
    Topology::Hypercube,
    Topology::Mesh { r: 2 },
    Topology::FatTree,
    Topology::Butterfly,
];

fn arb_scenario() -> impl Strategy<Value = RunSpec> {
    (
        (0..WORKLOADS.len(), 0..3usize, 1..=64u32, any::<u64>(), 0..4usize),
        (1..40u64, 1..30u64, 0..30u64, proptest::option::of((1..20u64, 0..40u64))),
        (
            prop_oneof![Just(InitialSplit::Root), Just(InitialSplit::Bfs), (1..=8u32).prop_map(InitialSplit::Random)],
            proptest::option::of(1..4u32),
            proptest::option::of((1..8u32, 1..6u64)),
        ),
        (0..3usize, 0..3usize, any::<bool>(), 0..3u64, 0..3u64, 0..3u64, 0..TOPOLOGIES.len()),
    )
        .prop_map(
            |((w, d, pes, seed, split), (dt, t_rout, t_split, lat), (initial_split, queue_limit, slow), net)| {
                let topology = TOPOLOGIES[net.6];
                let pes = if topology == Topology::Crossbar { pes } else { pes.next_power_of_two() };
                let queue_limit = queue_limit.map(QueueLimit::Fixed);
                let balancer = BalancerSpec::RandomPolling(RandomPollingParams { queue_limit, ..Default::default() });
                let workload: lbcheck::problem::Workload = WORKLOADS[w].parse().unwrap();
                let t_atomic = workload.atomic_and_h().map_or(1, |(a, _)| a);
                let sim = SimConfig {
                    pes,
                    seed,
                    dt,
                    t_rout,
                    t_split,
                    latency: lat.map(|(a, w)| (a, a + w)),
                    slow: slow.map(|(n, f)| (n.min(pes), f)),
                    initial_split,
                    max_steps: 20_000_000,
                    max_time: None,
                    horizon: 0,
                    shape: [Shape::Uniform, Shape::Bimodal { permille: 100 }, Shape::Heavy][net.0],
                    schedule: [Schedule::Plain, Schedule::SlowControl, Schedule::SlowWork][net.1],
                    fifo_links: net.2,
                    o: net.3,
                    g: net.4,
                    t_poll: net.5,
                    topology,
                    routing: None,
                    msg_len: None,
                };
                let sim = SimConfig { max_steps: sim.max_steps + sim.polling_steps(t_atomic), ..sim };
                let split = [Split::BottomOne, Split::BottomHalf, Split::AllHalf, Split::Cutoff(3)][split];
                RunSpec { split, ..RunSpec::new(workload, balancer, DETECTORS[d], Driver::Sim(sim)) }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// work_conserved, energy_conserved, no_early_termination,
    /// termination_detected, requests_answered, lower_bound, trace_well_formed.
    #[test]
    fn every_property_holds(s in arb_scenario()) {
        assert_all_pass(&s);
    }
}

#[test]
fn single_pe_and_atomic_root() {
    for d in DETECTORS {
        assert_all_pass(&scenario("synthetic:size=1,atomic=1", d, 1, 0));
        assert_all_pass(&scenario("uts:default", d, 1, 0));
        assert_all_pass(&scenario("synthetic:size=7,atomic=7", d, 5, 3));
    }
}

/// The acceptance run: T1 on 1024 PEs with every detector.
#[test]
fn uts_t1_on_1024_pes() {
    for d in DETECTORS {
        let r = assert_all_pass(&scenario("uts:T1", d, 1024, 1));
        assert_eq!(r.check.metrics.t_seq, 4130071, "{d}");
    }
}

#[test]
fn synthetic_on_65536_pes_completes() {
    let s = scenario("synthetic:size=4194304,atomic=1,split=uniform", DETECTORS[0], 1 << 16, 2);
    let r = assert_all_pass(&s);
    assert_eq!(r.check.metrics.t_seq, 4194304);
}
