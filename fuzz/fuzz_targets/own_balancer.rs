//! A user's balancer under cargo-fuzz: the round-robin balancer of
//! `examples/shared/round_robin.rs`, run by `lbcheck::fuzz::balancer` on
//! the small simulated run the bytes describe (PEs, workload, latencies,
//! event order, split choices, detector); the first violated property
//! panics with the replay command. This file is the whole of what a user
//! writes for their own balancer (`make` builds PE `me`'s state).
//!
//! `LBCHECK_FUZZ_VARIANT` picks the variant, read once: unset or `correct`
//! (what `scripts/fuzz.sh` runs: no crash expected), or `forgets-queue`
//! (the deliberate bug; found in seconds):
//!
//!   RUSTC_BOOTSTRAP=1 LBCHECK_FUZZ_VARIANT=forgets-queue cargo fuzz run own_balancer
#![no_main]

use std::sync::LazyLock;

use lbcheck::harness::UserBalancer;
use libfuzzer_sys::fuzz_target;

#[path = "../../examples/shared/round_robin.rs"]
mod round_robin;
use round_robin::{RoundRobin, Variant};

static VARIANT: LazyLock<Variant> = LazyLock::new(|| match std::env::var("LBCHECK_FUZZ_VARIANT").as_deref() {
    Err(_) | Ok("correct") => Variant::Correct,
    Ok("forgets-queue") => Variant::ForgetsQueue,
    Ok(other) => {
        eprintln!("LBCHECK_FUZZ_VARIANT={other}: expected `correct` or `forgets-queue`");
        std::process::exit(2)
    }
});

fuzz_target!(|data: &[u8]| {
    let variant = *VARIANT;
    let mine = UserBalancer { name: format!("round-robin ({variant:?})"), make: |me| RoundRobin::new(me, variant) };
    lbcheck::fuzz::balancer(data, &mine);
});
