//! The threaded driver against the sequential reference and a rayon
//! baseline, on UTS trees (a benchmark, not a timed test; issue 5).
//!
//! `cargo bench --bench threads` runs T1L and T3L (the BIN tree
//! `-t 0 -b 2000 -q 0.200014 -m 5 -r 7`, 111M nodes); `-- T1 T3` picks the
//! quick 4M-node trees instead. For each tree: the sequential reference
//! (`sequential::run`, with fingerprints like every driver), then
//! `runtime::threads` (random polling + four-counter, Δt = 64, no recording;
//! with the bottom-half and the all-half DFS split strategies) and the rayon baseline on 1 and 2 threads: seconds, M nodes/s, speedup
//! over the sequential run, efficiency, and our time over rayon's. The
//! load average is printed next to each tree: the machine may be shared.
//! `LBCHECK_BENCH_REPS=N` keeps the best of N runs (default 1).

use std::time::Instant;

use lbcheck::harness::{Driver, RunSpec};
use lbcheck::problem::dfs::{Strategy, TreeRule};
use lbcheck::problem::uts::{UtsNode, UtsRule};
use lbcheck::problem::{sequential, Workload};
use lbcheck::protocol::{BalancerKind, DetectorKind};
use lbcheck::runtime::threads::ThreadConfig;

/// Nodes walked sequentially between offers of half the stack to rayon.
const RAYON_CHUNK: u32 = 1024;

fn main() {
    let mut trees: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    if trees.is_empty() {
        trees = vec!["T1L".into(), "T3L".into()];
    }
    let reps: usize = std::env::var("LBCHECK_BENCH_REPS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
    println!(
        "{:<5} {:<16} {:>3} {:>8} {:>10} {:>8} {:>6} {:>9}  load",
        "tree", "runner", "P", "s", "Mnodes/s", "speedup", "eff", "÷rayon"
    );
    for name in &trees {
        bench_tree(name, reps);
    }
}

fn best(reps: usize, mut f: impl FnMut() -> (f64, u64)) -> (f64, u64) {
    (0..reps.max(1)).map(|_| f()).fold((f64::INFINITY, 0), |b, r| if r.0 < b.0 { r } else { b })
}

fn bench_tree(name: &str, reps: usize) {
    let w: Workload = format!("uts:{name}").parse().expect("a UTS sample name");
    let Workload::Uts { params, .. } = w else { unreachable!() };
    let (t_seq, nodes) = best(reps, || {
        let start = Instant::now();
        let run = sequential::run(w.root(Strategy::default()));
        (start.elapsed().as_secs_f64(), run.work)
    });
    row(name, "sequential", 1, t_seq, nodes, t_seq, None);
    for p in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(p as usize).build().expect("rayon pool");
        let (t_rayon, n_rayon) = best(reps, || {
            let start = Instant::now();
            let n = pool.install(|| rayon_count(&UtsRule::new(params), vec![UtsNode::root(params.root_seed)]));
            (start.elapsed().as_secs_f64(), n)
        });
        assert_eq!(n_rayon, nodes, "rayon baseline node count");
        row(name, "rayon", p, t_rayon, nodes, t_seq, None);
        for split in [Strategy::BottomHalf, Strategy::AllHalf] {
            let driver = Driver::Threads(ThreadConfig { pes: p, ..ThreadConfig::default() });
            let spec =
                RunSpec { split, ..RunSpec::new(w, BalancerKind::RandomPolling, DetectorKind::FourCounter, driver) };
            let (t_ours, n_ours) = best(reps, || {
                let run = spec.run_unchecked().expect("a threaded run");
                (run.elapsed.as_secs_f64(), run.total_units())
            });
            assert_eq!(n_ours, nodes, "threads node count");
            row(name, &format!("thr {split}"), p, t_ours, nodes, t_seq, Some(t_ours / t_rayon));
        }
    }
}

fn row(tree: &str, runner: &str, p: u32, secs: f64, nodes: u64, t_seq: f64, vs_rayon: Option<f64>) {
    let speedup = t_seq / secs;
    let ratio = vs_rayon.map_or(String::new(), |r| format!("{r:.3}"));
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load: String = load.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    println!(
        "{tree:<5} {runner:<16} {p:>3} {secs:>8.3} {:>10.2} {speedup:>8.3} {:>6.3} {ratio:>9}  {load}",
        nodes as f64 / secs / 1e6,
        speedup / f64::from(p)
    );
}

/// The rayon baseline: a DFS stack walked `RAYON_CHUNK` nodes at a time;
/// between chunks, the bottom half of the stack (nearest the root) is
/// offered to rayon with `join`, which another thread steals if idle.
fn rayon_count(rule: &UtsRule, mut stack: Vec<UtsNode>) -> u64 {
    let mut count = 0u64;
    loop {
        for _ in 0..RAYON_CHUNK {
            let Some(node) = stack.pop() else { return count };
            rule.expand(&node, &mut stack);
            count += 1;
        }
        if stack.len() >= 2 {
            let rest = stack.split_off(stack.len() / 2);
            let (a, b) = rayon::join(|| rayon_count(rule, stack), || rayon_count(rule, rest));
            return count + a + b;
        }
    }
}
