//! The `explore` layer: every balancer × detector explored exhaustively on
//! a tiny instance (`lbcheck explore`, issue 16): every latency and event
//! order on 001's machine, every arbitration tie on 004's. A case fails when
//! the explorer finds a violation, so with a mutant under test the layer
//! must fail wherever the mutant acts.

use std::time::Instant;

use super::shard::Shard;
use super::{cost, Case, Options, Profile, Progress, Verdict};
use crate::base::Registered;
use crate::harness::{Compose, Driver, RunSpec};
use crate::mutants::{Mutant, Site};
use crate::protocol::{BalancerKind, DetectorKind};
use crate::sim::atomic::{Arbiter, AtomicConfig};
use crate::sim::explore::search::Limits;
use crate::sim::SimConfig;

/// Seeds explored per pair (`lbcheck explore`'s default in the quick profile).
pub fn seeds(p: Profile) -> u64 {
    match p {
        Profile::Quick => 8,
        Profile::Full => 64,
    }
}

/// The layer, one unit of `shard` per pair.
pub fn run(o: &Options, shard: &Shard, progress: &dyn Progress) -> Vec<Case> {
    let on_pes = BalancerKind::ALL.iter().filter(|b| !b.phased()); // the phased machine has no open choice but the seed
    let pairs = on_pes.flat_map(|&b| DetectorKind::of_pes().map(move |d| (b, d)));
    let named: Vec<_> =
        pairs.map(|(b, d)| (format!("{b}/{d}"), b, d)).filter(|(n, ..)| o.selects("explore", n)).collect();
    let units: Vec<_> = named.into_iter().map(|n| (shard.take(cost::EXPLORE), n)).collect();
    progress.start("explore", units.iter().filter(|(u, _)| u.mine).count());
    let cases = units.into_iter().flat_map(|(unit, (name, b, d))| {
        let run = || {
            let case = match o.mutant.and_then(|m| m.not_applicable(b, d, false)) {
                Some(why) => Case::skip("explore", name, why),
                None => case(name, &instance(b, d, o.mutant), seeds(o.profile)),
            };
            progress.done("explore", &case);
            vec![case]
        };
        shard.put(unit, "explore", unit.mine.then(run))
    });
    cases.collect()
}

/// One exploration as a case.
pub fn case(name: String, instance: &(RunSpec, String), seeds: u64) -> Case {
    case_composed(name, instance, seeds, &instance.0.balancer)
}

/// [`case`] with the PEs built by `pes` (a user's balancer) in place of the spec's.
pub fn case_composed(name: String, (spec, replay): &(RunSpec, String), seeds: u64, pes: &impl Compose) -> Case {
    let start = Instant::now();
    let base = Case { replay: Some(replay.clone()), ..Case::skip("explore", name, "") };
    let r = match spec.explore_composed(pes, Limits::default(), seeds, &|_| replay.clone(), None) {
        Ok(r) => r,
        Err(e) => return Case { verdict: Verdict::Fail, detail: format!("I/O error: {e}"), ..base },
    };
    let f = &r.found;
    let figures = format!("{} seeds, {} states, {} finished runs, complete: {}", seeds, f.states, f.ends, f.complete);
    let (verdict, detail, failed) = match &f.violation {
        Some(v) => (Verdict::Fail, format!("{}: {} ({figures})", v.property, v.detail), vec![v.property.clone()]),
        None if !f.complete => {
            (Verdict::Fail, format!("incomplete: {} ({figures})", f.stopped.clone().unwrap_or_default()), vec![])
        }
        None => (Verdict::Pass, format!("every property holds in every run: {figures}"), vec![]),
    };
    Case { verdict, detail, failed, secs: start.elapsed().as_secs_f64(), ..base }
}

/// The tiny instance `balancer` + `detector` (with `mutant`) is explored
/// on, and the command that explores it: 8 atomic units on 3 PEs with
/// Δt = T_rout = 1 and T_split = 0 (the issue's); 004's balancers on the
/// atomic machine with the FIFO arbiter (every tie), random destinations on
/// 16 units, branch-and-bound on a depth-4 cost tree; a mutant of bound
/// propagation on a 4-item knapsack (S-12).
pub fn instance(balancer: BalancerKind, detector: DetectorKind, mutant: Option<Mutant>) -> (RunSpec, String) {
    let workload = match balancer {
        _ if mutant.is_some_and(|m| m.entry().site == Site::BoundPropagation) => "knapsack:items=4,seed=1",
        BalancerKind::RandomPolling
        | BalancerKind::Pacheco
        | BalancerKind::NeighbourPolling
        | BalancerKind::SyncRandomPolling => "synthetic:size=8,atomic=1",
        BalancerKind::RandomDestination => "synthetic:size=16",
        BalancerKind::PollAndShuffle | BalancerKind::SimdPhase => {
            unreachable!("the phased machine is not explored (no open choice but the seed)")
        }
        BalancerKind::PriorityBnb => "kz:depth=4",
    };
    let driver = match balancer.atomic() {
        true => Driver::Atomic(AtomicConfig { pes: 3, arbiter: Arbiter::Fifo, ..AtomicConfig::default() }),
        false => Driver::Sim(SimConfig { pes: 3, seed: 0, dt: 1, t_rout: 1, t_split: 0, ..SimConfig::default() }),
    };
    let workload = workload.parse().expect("a valid workload");
    let spec = RunSpec::new(workload, balancer, detector, driver).with_mutant(mutant);
    let replay = format!("lbcheck explore{}", spec.flags());
    (spec, replay)
}
