//! `lbcheck::fuzz` on a user's balancer (the round robin of
//! `examples/shared/round_robin.rs`), on fixed pseudo-random bytes: the
//! forgetful variant is found, with the replay command, and the correct one
//! never panics on the same inputs (what the fuzz target `own_balancer`
//! does with libFuzzer's bytes).

use std::panic::{catch_unwind, AssertUnwindSafe};

use lbcheck::harness::UserBalancer;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "../../examples/shared/round_robin.rs"]
mod round_robin;
use round_robin::{RoundRobin, Variant};

/// The fixed inputs: `N` strings of 64 pseudo-random bytes (a run takes ~40).
const N: usize = 100;

fn inputs() -> Vec<Vec<u8>> {
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    (0..N)
        .map(|_| {
            let mut bytes = vec![0; 64];
            rng.fill_bytes(&mut bytes);
            bytes
        })
        .collect()
}

fn mine(variant: Variant) -> UserBalancer<impl Fn(u32) -> RoundRobin> {
    UserBalancer { name: format!("round-robin ({variant:?})"), make: move |me| RoundRobin::new(me, variant) }
}

/// The panic message of fuzzing `data`, if it panics.
fn panic_of(data: &[u8], variant: Variant) -> Option<String> {
    let caught = catch_unwind(AssertUnwindSafe(|| lbcheck::fuzz::balancer(data, &mine(variant)))).err()?;
    Some(caught.downcast_ref::<String>().cloned().unwrap_or_else(|| "a panic without a message".into()))
}

#[test]
fn fuzz_finds_the_forgetful_round_robin_with_its_replay() {
    let inputs = inputs();
    let found = inputs.iter().enumerate().find_map(|(i, d)| Some((i, panic_of(d, Variant::ForgetsQueue)?)));
    let (i, message) = found.unwrap_or_else(|| panic!("none of {N} inputs finds the forgetful variant"));
    eprintln!("input {i} finds it: {message}");
    assert!(message.contains("round-robin (ForgetsQueue) violates"), "{message}");
    assert!(message.contains("replay with: lbcheck simulate "), "{message}");
    assert!(message.contains("with the user's balancer `round-robin (ForgetsQueue)` in place of --balancer"));
    assert_eq!(panic_of(&inputs[i], Variant::ForgetsQueue), Some(message), "the same bytes, the same run");
}

#[test]
fn fuzz_passes_the_correct_round_robin() {
    for (i, data) in inputs().iter().enumerate() {
        assert_eq!(panic_of(data, Variant::Correct), None, "input {i}");
    }
}
