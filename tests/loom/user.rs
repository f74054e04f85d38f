//! The loom layer on a user's balancer (`campaign::user_loom`): local
//! round robin, the user's balancer of the examples, run by
//! `campaign::user::check_balancer` (in-process, on `lbcheck::loom`'s copy
//! of the threaded driver). The correct
//! version passes every interleaving with every detector; the version that
//! forgets the requests queued when its work runs out is caught.

use lbcheck::campaign::{user, Options, Profile, Report, Silent, Verdict};
use lbcheck::harness::UserBalancer;

#[path = "../../examples/shared/round_robin.rs"]
mod round_robin;
use round_robin::{RoundRobin, Variant};

/// `check_balancer`'s loom layer alone on `variant`.
fn loom_layer(variant: Variant) -> Report {
    let o = Options { profile: Profile::Quick, seed: 1, only: vec!["loom/".into()], ..Options::default() };
    let mine = UserBalancer { name: format!("round-robin-{variant:?}"), make: move |me| RoundRobin::new(me, variant) };
    user::check_balancer(&o, &mine, &Silent)
}

#[test]
fn user_balancer_passes_under_loom() {
    let report = loom_layer(Variant::Correct);
    let loom: Vec<_> = report.cases.iter().filter(|c| c.layer == "loom").collect();
    assert_eq!(loom.len(), 8, "two cases per detector: {:?}", report.cases);
    assert!(loom.iter().all(|c| c.verdict == Verdict::Pass), "{loom:?}");
}

#[test]
fn user_balancer_forgets_queue_is_caught() {
    let report = loom_layer(Variant::ForgetsQueue);
    let failed: Vec<_> = report.cases.iter().filter(|c| c.verdict == Verdict::Fail).collect();
    assert!(!failed.is_empty(), "{:?}", report.cases);
    assert!(failed.iter().all(|c| c.layer == "loom" && c.failed == ["requests_answered"]), "{failed:?}");
    eprintln!("{}: {}", failed[0].name, failed[0].detail);
}
