//! Validating your own termination detector in-process (`cargo run
//! --release --example own_detector`): implement the sans-IO [`Detector`]
//! trait (its own messages are control messages, `Msg::control`), hand a
//! constructor to `campaign::user::check_detector`, and lbcheck runs it
//! with every balancer it ships that runs in PEs, under its simulator and
//! on threads, against every property, and explores it exhaustively on
//! tiny instances (every latency and event order, `lbcheck explore`).
//!
//! The detector here is Dijkstra–Scholten's (EWD687a, in
//! `shared/dijkstra_scholten.rs`): every work message is acknowledged, and
//! a PE acknowledges the message that engaged it only once it is idle with
//! all its own acknowledged. The correct version passes; a broken one,
//! which acknowledges its engaging message while its own are still out, is
//! caught. Exit 0 iff both verdicts are the expected ones.
//!
//! [`Detector`]: lbcheck::protocol::Detector

use std::process::ExitCode;

use lbcheck::campaign::{user, Options, Profile, Report, Silent, Verdict};
use lbcheck::harness::UserDetector;

#[path = "shared/dijkstra_scholten.rs"]
#[allow(dead_code)] // `rooted_at_last` serves tests/sim/user.rs
mod dijkstra_scholten;
use dijkstra_scholten::{DijkstraScholten, Variant};

fn main() -> ExitCode {
    let o = Options { profile: Profile::Quick, seed: 1, ..Options::default() };
    let correct = UserDetector { name: "dijkstra-scholten".into(), make: |_| DijkstraScholten::new(Variant::Correct) };
    let broken = UserDetector {
        name: "dijkstra-scholten-acks-early".into(),
        make: |_| DijkstraScholten::new(Variant::AcksEarly),
    };
    let good = user::check_detector(&o, &correct, &Silent);
    let bad = user::check_detector(&o, &broken, &Silent);
    summarise(&correct.name, &good);
    summarise(&broken.name, &bad);
    let explore_caught = failed(&bad).any(|c| c.layer == "explore");
    match (good.passed(), bad.passed(), explore_caught) {
        (true, false, true) => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    }
}

/// The cases of `r` that failed.
fn failed(r: &Report) -> impl Iterator<Item = &lbcheck::campaign::Case> {
    r.cases.iter().filter(|c| c.verdict == Verdict::Fail)
}

/// Runs and failures per layer, and the first failure: which layer and
/// property caught it, in which case, and why.
fn summarise(name: &str, r: &Report) {
    println!("{name}: {} runs, {} failed ({:.1} s)", r.cases.len(), failed(r).count(), r.seconds);
    for layer in ["simulate", "threads", "explore"] {
        let ran = r.cases.iter().filter(|c| c.layer == layer).count();
        println!("  {layer}: {ran} runs, {} failed", failed(r).filter(|c| c.layer == layer).count());
    }
    let first = |layer: Option<&str>| failed(r).find(|c| layer.is_none_or(|l| c.layer == l));
    for c in [first(None), first(Some("explore"))].into_iter().flatten() {
        let property = c.failed.first().map_or("?", String::as_str);
        println!("  caught by {} ({property}) in {}: {}", c.layer, c.name, c.detail);
    }
}
