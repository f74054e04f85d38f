//! The loom layer on a user's balancer runs in the ordinary build
//! (`campaign::user_loom`, on `lbcheck::loom`'s copy of the threaded
//! driver): one run here; every detector and the broken variant in
//! `tests/loom/user.rs`.

use lbcheck::campaign::{user, Options, Profile, Silent, Verdict};
use lbcheck::harness::UserBalancer;
use lbcheck::mutants::seams;
use lbcheck::protocol::random_polling::RandomPolling;

#[test]
fn the_users_loom_layer_runs_in_the_ordinary_build() {
    let only = vec!["loom/user/mine/energy/P=2".into()];
    let o = Options { profile: Profile::Quick, seed: 1, only, ..Options::default() };
    let mine = UserBalancer { name: "mine".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
    let report = user::check_balancer(&o, &mine, &Silent);
    assert_eq!(report.cases.len(), 1, "{:?}", report.cases);
    let case = &report.cases[0];
    assert_eq!((case.layer, case.verdict), ("loom", Verdict::Pass), "{case:?}");
    assert!(case.detail.contains("every interleaving within 2 preemptions passed"), "{}", case.detail);
}
