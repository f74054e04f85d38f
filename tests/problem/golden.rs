//! Exact golden values: the published UTS sample trees (../shared/uts.md).

use lbcheck::problem::dfs::Strategy;
use lbcheck::problem::uts::samples::{self, SAMPLES};
use lbcheck::problem::{sequential, Workload};

fn check_sample(name: &str) {
    let s = samples::by_name(name).unwrap();
    let w: Workload = format!("uts:{name}").parse().unwrap();
    let run = sequential::run(w.root(Strategy::default()));
    let got = (run.log.fp.units, run.log.max_depth, run.log.leaves);
    assert_eq!(got, (s.nodes, s.depth, s.leaves), "uts:{name} ({})", s.args);
    assert_eq!(run.work, s.nodes);
}

#[test]
fn uts_default_tree() {
    check_sample("default");
}

/// The 4-million-node samples; run in release mode by the README's test command.
#[test]
fn uts_four_million_node_samples() {
    for s in SAMPLES.iter().filter(|s| s.nodes > 1_000_000 && s.nodes < 10_000_000) {
        check_sample(s.name);
    }
}

/// The published numbers do not depend on how the stack would be split.
#[test]
fn every_strategy_sees_the_same_tree() {
    let w: Workload = "uts:default".parse().unwrap();
    let base = sequential::run(w.root(Strategy::default()));
    for s in [Strategy::BottomOne, Strategy::AllHalf, Strategy::Cutoff(3)] {
        assert_eq!(sequential::run(w.root(s)), base, "{s}");
    }
}
