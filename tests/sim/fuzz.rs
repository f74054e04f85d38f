//! `lbcheck::fuzz` on a user's balancer (the round robin of
//! `examples/shared/round_robin.rs`), alone and with a user's detector
//! (Dijkstra–Scholten, `examples/shared/dijkstra_scholten.rs`), on fixed
//! pseudo-random bytes: the forgetful variant is found, with the replay
//! command, and the correct one never panics on the same inputs (what the
//! fuzz target `own_balancer` does with libFuzzer's bytes).

use std::panic::{catch_unwind, AssertUnwindSafe};

use lbcheck::harness::{UserBalancer, UserDetector};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::round_robin::{RoundRobin, Variant};

use crate::dijkstra_scholten::{DijkstraScholten, Variant::Correct};

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

/// The panic message of `fuzz`, if it panics.
fn panic_of(fuzz: impl FnOnce()) -> Option<String> {
    let caught = catch_unwind(AssertUnwindSafe(fuzz)).err()?;
    Some(caught.downcast_ref::<String>().cloned().unwrap_or_else(|| "a panic without a message".into()))
}

/// The user's balancer alone (with lbcheck's detectors) on `data`.
fn alone(data: &[u8], variant: Variant) -> Option<String> {
    panic_of(|| lbcheck::fuzz::balancer(data, &mine(variant)))
}

/// The user's balancer with the user's (correct) detector on `data`.
fn with_ds(data: &[u8], variant: Variant) -> Option<String> {
    let ds = UserDetector { name: "dijkstra-scholten".into(), make: |_| DijkstraScholten::new(Correct) };
    panic_of(|| lbcheck::fuzz::protocols(data, &mine(variant), &ds))
}

/// The first input on which `fuzz` panics, and its message.
fn first_panic(inputs: &[Vec<u8>], fuzz: impl Fn(&[u8]) -> Option<String>) -> (usize, String) {
    let found = inputs.iter().enumerate().find_map(|(i, d)| Some((i, fuzz(d)?)));
    found.unwrap_or_else(|| panic!("none of {N} inputs finds the forgetful variant"))
}

#[test]
fn fuzz_finds_the_forgetful_round_robin_with_its_replay() {
    let inputs = inputs();
    let (i, message) = first_panic(&inputs, |d| alone(d, Variant::ForgetsQueue));
    eprintln!("input {i} finds it: {message}");
    assert!(message.contains("round-robin (ForgetsQueue) with "), "{message}");
    assert!(message.contains(" violates requests_answered: "), "{message}");
    assert!(message.contains("replay with: lbcheck simulate "), "{message}");
    assert!(message.contains("with the user's balancer `round-robin (ForgetsQueue)` in place of --balancer"));
    assert_eq!(alone(&inputs[i], Variant::ForgetsQueue), Some(message), "the same bytes, the same run");
}

#[test]
fn fuzz_passes_the_correct_round_robin() {
    for (i, data) in inputs().iter().enumerate() {
        assert_eq!(alone(data, Variant::Correct), None, "input {i}");
    }
}

#[test]
fn fuzz_finds_the_forgetful_round_robin_with_a_users_detector() {
    let (i, message) = first_panic(&inputs(), |d| with_ds(d, Variant::ForgetsQueue));
    eprintln!("input {i} finds it: {message}");
    assert!(message.contains("round-robin (ForgetsQueue) with dijkstra-scholten violates "), "{message}");
    assert!(message.contains("balancer `round-robin (ForgetsQueue)` and detector `dijkstra-scholten` in place of"));
}

#[test]
fn fuzz_passes_the_correct_round_robin_with_a_users_detector() {
    for (i, data) in inputs().iter().enumerate() {
        assert_eq!(with_ds(data, Variant::Correct), None, "input {i}");
    }
}
