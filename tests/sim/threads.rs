//! Checked runs on real threads through the harness: the reference passes
//! every property, and the checker sees a protocol mutant there too.

use lbcheck::event::Event;
use lbcheck::harness::{Driver, RunSpec};
use lbcheck::mutants::Mutant;
use lbcheck::protocol::initial::InitialSplit;
use lbcheck::protocol::{BalancerKind, DetectorKind};
use lbcheck::runtime::threads::ThreadConfig;

use super::DETECTORS;

fn spec(workload: &str, detector: DetectorKind, pes: u32, seed: u64) -> RunSpec {
    let driver = Driver::Threads(ThreadConfig { pes, seed, dt: 4, ..Default::default() });
    RunSpec::new(workload.parse().expect("workload"), BalancerKind::RandomPolling, detector, driver)
}

/// Real threads, every detector, P = 1..4, without the initial split,
/// with 002 §3's and with 000 §1.2's randomised one (energy shares, K = 3
/// pieces per PE worked in turn): every property holds on the recorded stream.
#[test]
fn reference_runs_pass_every_property() {
    for detector in DETECTORS {
        let modes = [InitialSplit::Root, InitialSplit::Bfs, InitialSplit::Random(3)];
        for (pes, initial_split) in (1..=4).flat_map(|p| modes.map(|m| (p, m))) {
            let mut s = spec("synthetic:size=1732,atomic=1,split=uniform", detector, pes, u64::from(pes));
            if let Driver::Threads(c) = &mut s.driver {
                c.initial_split = initial_split;
            }
            let r = s.run(None).expect("no trace");
            assert!(r.check.all_pass(), "{:?}\n{}", r.check.failures(), s.replay());
            assert_eq!(r.units.expect("threads count units").iter().sum::<u64>(), 1732);
        }
    }
}

/// Retried until a split happens: PE 0 may finish before PE 1 even asks.
#[test]
fn split_loses_fails_work_conservation() {
    let mut s = spec("synthetic:size=4000000,atomic=1", DetectorKind::FourCounter, 2, 0);
    if let Driver::Threads(c) = &mut s.driver {
        c.dt = 1000;
    }
    s.mutant = Some(Mutant::SplitLoses);
    for _ in 0..50 {
        let mut split = false;
        let r = s.run_observed(None, &mut |e| split |= matches!(e, Event::Split { .. })).expect("no trace");
        if split {
            let failed: Vec<_> = r.check.failures().iter().map(|(n, _)| *n).collect();
            assert!(failed.contains(&"work_conserved"), "{failed:?}");
            return;
        }
    }
    panic!("no run split in 50 tries");
}
