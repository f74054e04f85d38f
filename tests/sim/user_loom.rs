//! The loom layer on a user's balancer outside a `--cfg loom` build: one
//! skipped case saying how to run it (`campaign::user_loom`; the layer
//! itself runs in `tests/loom/user.rs`).

use lbcheck::campaign::{user, Options, Profile, Silent, Verdict};
use lbcheck::harness::UserBalancer;
use lbcheck::mutants::seams;
use lbcheck::protocol::random_polling::RandomPolling;

#[test]
fn without_cfg_loom_the_users_loom_layer_is_skipped_saying_how() {
    let o = Options { profile: Profile::Quick, seed: 1, only: vec!["loom/".into()], ..Options::default() };
    let mine = UserBalancer { name: "mine".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
    let report = user::check_balancer(&o, &mine, &Silent);
    assert_eq!(report.cases.len(), 1, "{:?}", report.cases);
    let case = &report.cases[0];
    assert_eq!((case.layer, case.name.as_str(), case.verdict), ("loom", "user/mine", Verdict::Skip));
    assert!(case.detail.contains("RUSTFLAGS=\"--cfg loom\" cargo test --release"), "{}", case.detail);
    assert!(report.passed());
}
