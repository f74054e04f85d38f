//! Sequential UTS node generation, nodes/s (a benchmark, not a timed test).
//!
//! `cargo bench --bench uts_seq` runs T1, T3 and T1L; `-- T1` picks one.
//! Each tree runs three times; the best time is reported.

use std::time::Instant;

use lbcheck::problem::dfs::Strategy;
use lbcheck::problem::uts::samples;
use lbcheck::problem::{sequential, Workload};

fn main() {
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    println!("{:<6} {:>12} {:>9} {:>14}", "tree", "nodes", "best s", "M nodes/s");
    for name in ["T1", "T3", "T1L"] {
        if !filter.is_empty() && !filter.iter().any(|f| f == name) {
            continue;
        }
        let w: Workload = format!("uts:{name}").parse().expect("named sample");
        let best = (0..3).map(|_| time_one(&w)).fold(f64::INFINITY, f64::min);
        let nodes = samples::by_name(name).expect("sample").nodes;
        println!("{name:<6} {nodes:>12} {best:>9.3} {:>14.2}", nodes as f64 / best / 1e6);
    }
}

fn time_one(w: &Workload) -> f64 {
    let start = Instant::now();
    let run = sequential::run(w.root(Strategy::default()));
    let secs = start.elapsed().as_secs_f64();
    assert!(run.work > 0);
    secs
}
