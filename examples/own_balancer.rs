//! Validating your own balancer in-process (`cargo run --release --example
//! own_balancer`): implement the sans-IO [`Balancer`] trait, hand a
//! constructor to `campaign::user::check_balancer`, and lbcheck runs it
//! under its simulator and on threads, with every termination detector it
//! ships, against every property, and explores it exhaustively on a tiny
//! instance (every latency and event order, `lbcheck explore`).
//!
//! The balancer here is local round robin (003 §14.7.3, in
//! `shared/round_robin.rs`): an idle PE asks PE me+1, me+2, … in turn
//! instead of a random PE. The correct version
//! passes; a subtly broken one, which forgets to reject the requests still
//! queued when its work runs out, is caught. Exit 0 iff both verdicts are
//! the expected ones.

use std::process::ExitCode;

use lbcheck::campaign::{user, Options, Profile, Silent, Verdict};
use lbcheck::harness::UserBalancer;

#[path = "shared/round_robin.rs"]
mod round_robin;
use round_robin::{RoundRobin, Variant};

fn main() -> ExitCode {
    let o = Options { profile: Profile::Quick, seed: 1, ..Options::default() };
    let correct = UserBalancer { name: "round-robin".into(), make: |me| RoundRobin::new(me, Variant::Correct) };
    let broken = UserBalancer {
        name: "round-robin-forgets-queue".into(),
        make: |me| RoundRobin::new(me, Variant::ForgetsQueue),
    };
    let good = user::check_balancer(&o, &correct, &Silent);
    let bad = user::check_balancer(&o, &broken, &Silent);
    for (name, r) in [("round-robin", &good), ("round-robin-forgets-queue", &bad)] {
        let failed = r.cases.iter().filter(|c| c.verdict == Verdict::Fail).count();
        println!("{name}: {} runs, {failed} failed", r.cases.len());
        if let Some(c) = r.cases.iter().find(|c| c.verdict == Verdict::Fail) {
            println!("  first failure {}: {}", c.name, c.detail);
        }
        let explored = r.cases.iter().filter(|c| c.layer == "explore");
        let failed: Vec<_> = explored.clone().filter(|c| c.verdict == Verdict::Fail).map(|c| &c.detail).collect();
        println!("  explore: {} detectors, {} failed {:?}", explored.count(), failed.len(), failed.first());
    }
    match (good.passed(), bad.passed()) {
        (true, false) => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    }
}
