//! Two subproblems per PE (002 §3, S-16): every property holds, and with
//! T_rout ≫ Δt the idle time is lower than with one slot (latency hidden
//! behind work), by a one-sided sign test over paired seeds at α = 0.01.

use lbcheck::bounds::stats::binomial_upper_tail;
use lbcheck::harness::RunSpec;
use lbcheck::protocol::DetectorKind;

use super::{scenario, sim};

/// The error rate of the comparison.
const ALPHA: f64 = 0.01;

fn slots(workload: &str, d: DetectorKind, pes: u32, seed: u64, slots: u8) -> RunSpec {
    let mut s = scenario(workload, d, pes, seed);
    s.balancer.polling_mut().expect("random polling").slots = Some(slots);
    s
}

#[test]
fn two_slots_pass_every_property() {
    for d in DetectorKind::of_pes() {
        for (pes, seed) in [(2, 1), (3, 2), (16, 3), (64, 4)] {
            let r = slots("uts:default", d, pes, seed, 2).run(None).unwrap();
            assert!(r.check.all_pass(), "P={pes} {d}: {:?}", r.check.failures());
        }
    }
}

/// The smallest number of wins of n paired seeds that a one-sided sign
/// test at `ALPHA` accepts (P[X ≥ k] ≤ α for X ~ Bin(n, 1/2)).
fn wins_needed(n: u64) -> u64 {
    (0..=n + 1).find(|&k| binomial_upper_tail(n, 0.5, k) <= ALPHA).expect("k = n + 1 always qualifies")
}

/// True if `b` idles less than `a` on significantly many seeds.
fn lower_idle(a: &[u64], b: &[u64]) -> bool {
    let wins = a.iter().zip(b).filter(|(a, b)| b < a).count() as u64;
    wins >= wins_needed(a.len() as u64)
}

#[test]
fn two_slots_idle_less_when_latency_dominates() {
    let idle = |n: u8, seed: u64| {
        let mut s = slots("uts:T1", DetectorKind::Energy, 64, 1000 + seed, n);
        sim(&mut s).t_rout = 100; // T_rout = 10 Δt
        s.run(None).unwrap().check.metrics.idle_time.total
    };
    let n = 10;
    assert_eq!(wins_needed(n), 10, "2^-10 < α < 11·2^-10");
    let one: Vec<u64> = (0..n).map(|s| idle(1, s)).collect();
    let two: Vec<u64> = (0..n).map(|s| idle(2, s)).collect();
    assert!(lower_idle(&one, &two), "one slot: {one:?}\ntwo slots: {two:?}");
    // The comparison can fail: one slot is not "lower" than itself.
    assert!(!lower_idle(&one, &one));
}
