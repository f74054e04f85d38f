//! The fuzz targets' bodies in the release test build, so that the test
//! command needs no fuzz build (issue 30): each body (`lbcheck::fuzz::*`;
//! `fuzz/fuzz_targets/*.rs` only wrap them) runs on every input saved under
//! `fuzz/regressions/<target>/` (checked in) and `fuzz/artifacts/<target>/`
//! (local crashes), then on ChaCha-seeded random bytes, and for the trace
//! reader on byte-level mutations of a real trace. Coverage guidance, the
//! sanitizer and `cli_args` (the binary's CLI module) stay with
//! `scripts/fuzz.sh`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use arbitrary::Unstructured;
use lbcheck::harness::UserBalancer;
use lbcheck::mutants::Mutant;
use lbcheck::protocol::DetectorKind;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::round_robin::{RoundRobin, Variant};

/// Random inputs per target: a run takes ~2 ms, the six tests 2.6 s wall
/// in all on a loaded 2-core machine; of the 600, 197 catch
/// request-dropped and 132 split-loses.
const RANDOM: usize = 600;

/// The saved inputs of `target`: regressions, then local artifacts.
fn saved(target: &str) -> Vec<(String, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut files: Vec<PathBuf> = ["regressions", "artifacts"]
        .iter()
        .filter_map(|dir| std::fs::read_dir(root.join(dir).join(target)).ok())
        .flat_map(|entries| entries.filter_map(|e| Some(e.ok()?.path())))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files.into_iter().map(|p| (p.display().to_string(), std::fs::read(&p).expect("readable"))).collect()
}

/// `RANDOM` byte strings of 0–255 bytes from the seed `seed`.
fn random(seed: u64) -> Vec<(String, Vec<u8>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..RANDOM)
        .map(|i| {
            let mut bytes = vec![0; rng.random_range(0..256)];
            rng.fill_bytes(&mut bytes);
            (format!("random input {i} of seed {seed}"), bytes)
        })
        .collect()
}

/// The inputs on which `body` panics, each with its message.
fn panics(inputs: &[(String, Vec<u8>)], body: impl Fn(&[u8])) -> Vec<(String, String)> {
    inputs
        .iter()
        .filter_map(|(name, bytes)| {
            let caught = catch_unwind(AssertUnwindSafe(|| body(bytes))).err()?;
            let text = caught.downcast_ref::<String>().cloned();
            let text = text.or_else(|| caught.downcast_ref::<&str>().map(|s| s.to_string()));
            Some((format!("{name} ({} bytes: {bytes:02x?})", bytes.len()), text.unwrap_or_default()))
        })
        .collect()
}

/// Fails with the first panicking input (saved to `fuzz/regressions/` it
/// becomes a regression test).
fn none_panics(target: &str, inputs: &[(String, Vec<u8>)], body: impl Fn(&[u8])) {
    if let Some((input, message)) = panics(inputs, body).into_iter().next() {
        panic!(
            "fuzz target {target}'s body panics on {input}:\n{message}\n(save the bytes in fuzz/regressions/{target}/)"
        );
    }
}

fn own_balancer(variant: Variant) -> impl Fn(&[u8]) {
    move |data| {
        let mine = UserBalancer { name: format!("round-robin ({variant:?})"), make: |me| RoundRobin::new(me, variant) };
        lbcheck::fuzz::balancer(data, &mine)
    }
}

#[test]
fn sim_run_body_on_saved_and_random_inputs() {
    let inputs = [saved("sim_run"), random(30)].concat();
    none_panics("sim_run", &inputs, lbcheck::fuzz::references);
}

/// The same inputs catch a mutant of random polling (the first violated
/// property of a mutated reference run), as libFuzzer does when the
/// mutant is compiled in.
#[test]
fn sim_run_inputs_catch_a_mutant() {
    for mutant in [Mutant::RequestDropped, Mutant::SplitLoses] {
        let caught = random(30).iter().filter(|(_, data)| fails_with(data, mutant)).count();
        eprintln!("{mutant:?}: {caught} of {RANDOM} random inputs catch it");
        assert!(caught > 0, "no random input catches {mutant:?}");
    }
}

/// Whether the reference run `data` describes, with `mutant`, violates a property.
fn fails_with(data: &[u8], mutant: Mutant) -> bool {
    let Ok(mut spec) = lbcheck::fuzz::scenario::reference(&mut Unstructured::new(data)) else { return false };
    spec.mutant = Some(mutant);
    if spec.validate().is_err() {
        return false;
    }
    let result = spec.run(None).expect("no I/O without a trace");
    !result.check.failures_in_order().is_empty()
}

#[test]
fn own_balancer_body_on_saved_and_random_inputs() {
    let inputs = [saved("own_balancer"), random(31)].concat();
    none_panics("own_balancer", &inputs, own_balancer(Variant::Correct));
}

/// The same inputs catch the forgetful variant (what the 30 s libFuzzer run
/// of `own_balancer` with `LBCHECK_FUZZ_VARIANT=forgets-queue` finds).
#[test]
fn own_balancer_inputs_catch_the_forgetful_variant() {
    let found = panics(&random(31), own_balancer(Variant::ForgetsQueue));
    assert!(!found.is_empty(), "no random input finds the forgetful round robin");
    assert!(found[0].1.contains("violates requests_answered"), "{}", found[0].1);
}

/// A real trace, then mutations of it: one to eight bytes overwritten, a
/// cut, or a line repeated (random bytes alone rarely make JSON lines).
fn trace_mutants(seed: u64) -> Vec<(String, Vec<u8>)> {
    let mut spec = super::scenario("uts:args=-t 0 -b 6 -q 0.2 -m 4 -r 3", DetectorKind::FourCounter, 4, 9);
    super::sim(&mut spec).latency = Some((1, 20));
    let mut trace = Vec::new();
    spec.run(Some(&mut trace)).expect("trace into memory");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = vec![("the unmutated trace".to_string(), trace.clone())];
    for i in 0..RANDOM {
        let mut t = trace.clone();
        match rng.random_range(0..3) {
            0 => (0..rng.random_range(1..=8)).for_each(|_| {
                let at = rng.random_range(0..t.len());
                let pool = b"{}[]\",:0-9e.\n x";
                t[at] = pool[rng.random_range(0..pool.len())];
            }),
            1 => t.truncate(rng.random_range(0..t.len())),
            _ => {
                let lines: Vec<&[u8]> = trace.split_inclusive(|&b| b == b'\n').collect();
                let at = rng.random_range(0..lines.len());
                t = [&lines[..=at], &lines[at..]].concat().concat();
            }
        }
        out.push((format!("trace mutant {i} of seed {seed}"), t));
    }
    out
}

#[test]
fn trace_parser_body_on_saved_random_and_mutated_traces() {
    let inputs = [saved("trace_parser"), random(32), trace_mutants(33)].concat();
    none_panics("trace_parser", &inputs, lbcheck::fuzz::trace);
}

/// The mutated traces reach both the reader's refusals and the checker.
#[test]
fn trace_mutants_are_both_refused_and_read() {
    let read = trace_mutants(33).iter().filter(|(_, t)| lbcheck::event::read_trace(&t[..]).is_ok()).count();
    eprintln!("{read} of {} trace mutants read", RANDOM + 1);
    assert!(read > 1 && read < RANDOM, "{read} of {} trace mutants read", RANDOM + 1);
}
