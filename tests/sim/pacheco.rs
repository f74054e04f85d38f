//! Pacheco's parallel tree search (003 §14.7): every property holds for
//! each victim selection and detector, the Scatter hands out exact 1/p
//! energy shares for any p, and global round robin costs four messages
//! per request.

use lbcheck::event::{Event, Kind};
use lbcheck::harness::{RunResult, RunSpec};
use lbcheck::protocol::pacheco::{PachecoParams, Victim};
use lbcheck::protocol::{BalancerSpec, DetectorKind};

use super::scenario;

fn pacheco(workload: &str, d: DetectorKind, pes: u32, seed: u64, victim: Victim) -> RunSpec {
    let s = scenario(workload, d, pes, seed);
    RunSpec { balancer: BalancerSpec::Pacheco(PachecoParams { victim: Some(victim) }), ..s }
}

/// The run's result and its events.
fn run(s: &RunSpec) -> (RunResult, Vec<Event>) {
    let mut buf = Vec::new();
    let r = s.run(Some(&mut buf)).expect("trace into memory");
    let events = buf.split(|&b| b == b'\n').filter(|l| !l.is_empty()).skip(1);
    (r, events.map(|l| serde_json::from_slice(l).expect("an event")).collect())
}

const VICTIMS: [Victim; 3] = [Victim::Random, Victim::LocalRr, Victim::GlobalRr];

/// The runs: UTS T1 on 64 PEs, each victim selection.
#[test]
fn every_victim_selection_passes_on_t1() {
    for v in VICTIMS {
        let (r, _) = run(&pacheco("uts:T1", DetectorKind::Energy, 64, 1, v));
        assert!(r.check.all_pass(), "{v}: {:?}", r.check.failures());
        assert_eq!(r.check.metrics.work_done, 4_130_071, "{v}");
    }
}

/// 003 §14.7.4 rule 3: after the Scatter each PE holds exactly 1/p, also
/// for p = 3, 5, 6, 7 (not dyadic), and energy is conserved to the end.
#[test]
fn the_scatter_gives_each_pe_one_pth_of_the_energy() {
    for pes in [3u32, 5, 6, 7] {
        for d in [DetectorKind::Energy, DetectorKind::EnergyTree] {
            let (r, events) = run(&pacheco("uts:default", d, pes, 2, Victim::Random));
            assert!(r.check.all_pass(), "P={pes} {d}: {:?}", r.check.failures());
            let scatter: Vec<String> = events
                .iter()
                .filter_map(|e| match e {
                    Event::Send { from: 0, kind: Kind::Work, energy: Some(x), .. } => Some(x.to_string()),
                    _ => None,
                })
                .take(pes as usize - 1)
                .collect();
            assert_eq!(scatter, vec![format!("1/{pes}"); pes as usize - 1], "P={pes} {d}");
        }
    }
}

/// Every detector that runs inside PEs (001 §2's four-counter waves,
/// 003 §14.7.4's energy and its tree variant, Safra's token) with every
/// victim selection.
#[test]
fn every_detector_and_victim_passes_on_small_machines() {
    let names: Vec<String> = DetectorKind::of_pes().map(|d| d.to_string()).collect();
    assert_eq!(names, ["energy", "energy-tree", "four-counter", "safra"], "the detectors inside PEs");
    for (pes, seed) in [(2, 1), (3, 2), (5, 3), (16, 4)] {
        for d in DetectorKind::of_pes() {
            for v in VICTIMS {
                let (r, _) = run(&pacheco("uts:default", d, pes, seed, v));
                assert!(r.check.all_pass(), "P={pes} {d} {v}: {:?}", r.check.failures());
                let rr = &r.check.properties["round_robin"].detail;
                assert_eq!(rr.starts_with("not applicable"), v == Victim::Random, "{v}: {rr}");
            }
        }
    }
}

/// 003 §14.7.3: global round robin asks PE 0 first — a `get_target` and a
/// `target` per request of the other PEs, four messages instead of two;
/// the other selections send none.
#[test]
fn global_round_robin_costs_four_messages_per_request() {
    for v in VICTIMS {
        let (r, events) = run(&pacheco("uts:default", DetectorKind::FourCounter, 8, 5, v));
        let m = &r.check.metrics.messages;
        let others = events.iter().filter(|e| matches!(e, Event::Send { from: 1.., kind: Kind::Request, .. })).count();
        match v {
            Victim::GlobalRr => {
                // Each request follows a target; a PE may still be asking
                // for one when PE 0 has terminated (it answers no more).
                assert_eq!(m["target"], others as u64);
                assert!((others as u64..others as u64 + 8).contains(&m["get_target"]), "{m:?}");
            }
            _ => assert_eq!((m["get_target"], m["target"]), (0, 0), "{v}"),
        }
        assert!(others > 0);
    }
}

/// A tree too small for p parts is searched by PE 0 alone; the others wait
/// in the Scatter until the termination message, and every property holds.
#[test]
fn a_tree_too_small_to_scatter_is_searched_by_pe_zero() {
    let (r, events) = run(&pacheco("synthetic:size=3,atomic=1", DetectorKind::Energy, 8, 1, Victim::Random));
    assert!(r.check.all_pass(), "{:?}", r.check.failures());
    assert!(!events.iter().any(|e| matches!(e, Event::Send { kind: Kind::Work, .. })));
}
