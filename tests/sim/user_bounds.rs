//! The `bounds` layer of a user's balancer (`campaign::user::bounds_balancer`,
//! issue 29): random polling handed in as a user's balancer meets its own
//! constants on fresh seeds (the stated α is honest), and the lazy local
//! round robin of `examples/shared/round_robin.rs` (correct, but every idle
//! PE asks PE 0) fails the claims on T_par, generation depth and traffic
//! and the comparison with random polling, with its fitted constants
//! beside the reference's in the report's JSON.

use lbcheck::campaign::{user, Case, Options, Profile, Silent, Verdict};
use lbcheck::harness::UserBalancer;
use lbcheck::mutants::{seams, Mutant};
use lbcheck::protocol::random_polling::RandomPolling;
use lbcheck::protocol::BalancerKind;

use crate::round_robin::{RoundRobin, Variant};

fn options(seed: u64) -> Options {
    Options { profile: Profile::Quick, seed, ..Options::default() }
}

fn compared() -> user::BoundsOptions {
    user::BoundsOptions { no_slower_than: Some(BalancerKind::RandomPolling), ..Default::default() }
}

#[test]
fn the_reference_as_a_users_balancer_meets_its_own_constants() {
    let mine = UserBalancer { name: "polling".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
    for seed in [1, 2, 3] {
        let cases = user::bounds_balancer(&options(seed), &mine, &compared(), &Silent);
        let names: Vec<&str> = cases.iter().map(|c| c.name.rsplit('/').next().unwrap()).collect();
        assert_eq!(names, user::bounds::CLAIMS, "seed {seed}");
        for c in &cases {
            assert_eq!(c.verdict, Verdict::Pass, "seed {seed}: {}", c.detail);
            assert!(c.layer == "bounds" && c.fit.is_some() && c.detail.contains("α = "), "{c:?}");
        }
    }
}

#[test]
fn a_lazy_balancer_fails_the_bounds_with_both_constants_in_the_json() {
    let lazy = UserBalancer { name: "lazy".into(), make: |me| RoundRobin::new(me, Variant::Lazy) };
    let cases = user::bounds_balancer(&options(1), &lazy, &compared(), &Silent);
    let failed: Vec<&str> =
        cases.iter().filter(|c| c.verdict == Verdict::Fail).flat_map(|c| c.failed.iter()).map(String::as_str).collect();
    for claim in ["t_par", "gen_depth", "traffic", "no_slower_than"] {
        assert!(failed.contains(&claim), "{claim} not failed: {failed:?}");
    }
    let t_par = cases.iter().find(|c| c.name == "user/lazy/t_par").expect("the t_par case");
    let json = serde_json::to_value(t_par).unwrap();
    let (mine, theirs) = (json["fit"]["user"].as_f64().unwrap(), json["fit"]["reference"].as_f64().unwrap());
    assert!(mine > 5.0 * theirs && theirs > 0.0, "{json}");
    let back: Case = serde_json::from_value(json.clone()).expect("a case read back (a rank's part over MPI)");
    assert_eq!(back.fit, t_par.fit);
    assert!(t_par.detail.contains(&format!("mine {mine:.3} beside the reference's {theirs:.3}")), "{}", t_par.detail);
    // Deterministic from the seed.
    let again = user::bounds_balancer(&options(1), &lazy, &compared(), &Silent);
    assert_eq!(
        cases.iter().map(|c| &c.detail).collect::<Vec<_>>(),
        again.iter().map(|c| &c.detail).collect::<Vec<_>>()
    );
}

/// 001 Lemma 6 on a user's balancer: random polling that gives away only
/// the smallest piece (the catalogue's `split-tiny`, handed in as a user's
/// balancer) leaves subproblems that take long to finish once every
/// generation is h and fails `remaining_time` (the lazy round robin above
/// does not: slow to spread work, it ends as fast as the reference after).
#[test]
fn tiny_splits_fail_the_remaining_time_of_lemma_6() {
    let tiny = UserBalancer {
        name: "tiny".into(),
        make: |_| RandomPolling::new(seams::polling(Some(Mutant::SplitTiny)), None),
    };
    let o = Options { only: vec!["bounds/user/tiny/remaining_time".into()], ..options(1) };
    let cases = user::bounds_balancer(&o, &tiny, &user::BoundsOptions::default(), &Silent);
    assert_eq!(cases.len(), 1, "{cases:?}");
    assert_eq!(cases[0].verdict, Verdict::Fail, "{}", cases[0].detail);
}

/// `--only` selects claims; a reference off 001's machine is refused
/// case by case with the reason.
#[test]
fn only_selects_claims_and_a_reference_that_cannot_run_is_refused() {
    let mine = UserBalancer { name: "polling".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
    let o = Options { only: vec!["bounds/user/polling/queue".into()], ..options(1) };
    let cases = user::bounds_balancer(&o, &mine, &user::BoundsOptions::default(), &Silent);
    assert_eq!(cases.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["user/polling/queue"]);
    let o = Options { only: vec!["/#1".into()], ..options(1) };
    assert!(user::bounds_balancer(&o, &mine, &user::BoundsOptions::default(), &Silent).is_empty());
    let phased = user::BoundsOptions { reference: BalancerKind::PollAndShuffle, ..Default::default() };
    let cases = user::bounds_balancer(&options(1), &mine, &phased, &Silent);
    assert!(cases.iter().all(|c| c.verdict == Verdict::Skip && c.detail.contains("poll-and-shuffle")), "{cases:?}");
}
