//! Validating your own balancer in-process (`cargo run --release --example
//! own_balancer`): implement the sans-IO [`Balancer`] trait, hand a
//! constructor to `campaign::user::check_balancer`, and lbcheck runs it
//! under its simulator and on threads, with every termination detector it
//! ships, against every property, explores it exhaustively on a tiny
//! instance (every latency and event order, `lbcheck explore`), and holds
//! it to the papers' bounds (the `bounds` layer: T_par, generation depth,
//! traffic and queues, each against the constant fitted on random
//! polling's runs of the same configurations).
//!
//! The balancer here is local round robin (003 §14.7.3, in
//! `shared/round_robin.rs`): an idle PE asks PE me+1, me+2, … in turn
//! instead of a random PE. Three versions, three verdicts: the correct one
//! passes every layer; a subtly broken one, which forgets to reject the
//! requests still queued when its work runs out, fails an invariant; a lazy
//! one, correct but always asking the same PE, passes every invariant and
//! fails the bounds. Exit 0 iff all three verdicts are the expected ones.
//!
//! [`Balancer`]: lbcheck::protocol::Balancer

use std::process::ExitCode;

use lbcheck::campaign::{user, Options, Profile, Report, Silent, Verdict};
use lbcheck::harness::UserBalancer;

#[path = "shared/round_robin.rs"]
mod round_robin;
use round_robin::{RoundRobin, Variant};

/// How a report came out: passed, or the first failing case's layer and
/// what it failed (with the fitted constants of a bounds claim).
fn verdict(r: &Report) -> (bool, Option<&'static str>) {
    let Some(c) = r.cases.iter().find(|c| c.verdict == Verdict::Fail) else {
        println!("  passes: {} cases, every layer", r.cases.len());
        return (true, None);
    };
    let failed = r.count(Verdict::Fail);
    println!(
        "  fails: {failed} of {} cases; first, layer `{}`, {}: {}",
        r.cases.len(),
        c.layer,
        c.name,
        c.failed.join(", ")
    );
    match c.fit {
        Some(f) => println!(
            "  fitted constant: mine {:.3} beside the reference's {:.3} (limit {:.3})",
            f.user, f.reference, f.limit
        ),
        None => println!("  {}", c.detail.lines().next().unwrap_or_default()),
    }
    let invariants = r.cases.iter().filter(|c| c.layer != "bounds" && c.verdict == Verdict::Fail).count();
    println!("  invariant cases failed: {invariants}");
    (false, Some(if invariants > 0 { "invariant" } else { c.layer }))
}

fn main() -> ExitCode {
    let o = Options { profile: Profile::Quick, seed: 1, ..Options::default() };
    let variants = [
        ("round-robin", Variant::Correct, (true, None)),
        ("round-robin-forgets-queue", Variant::ForgetsQueue, (false, Some("invariant"))),
        ("round-robin-lazy", Variant::Lazy, (false, Some("bounds"))),
    ];
    let mut expected = true;
    for (name, variant, want) in variants {
        let mine = UserBalancer { name: name.into(), make: move |me| RoundRobin::new(me, variant) };
        let report = user::check_balancer(&o, &mine, &Silent);
        println!("{name}:");
        let got = verdict(&report);
        let ok = got == want;
        println!("  verdict {}", if ok { "as expected" } else { "NOT as expected" });
        expected &= ok;
    }
    if expected {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
