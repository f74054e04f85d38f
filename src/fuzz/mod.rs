//! Fuzzing a protocol: fuzzer bytes become one small simulated run, checked
//! against every property; the first violated property panics, with the
//! command that replays the run. This is what a cargo-fuzz target calls.
//!
//! ## Fuzzing your protocol
//!
//! A user's balancer (any [`Balancer`] over lbcheck's workloads, handed
//! over as a [`UserBalancer`], as for [`crate::campaign::user`]) gets a
//! cargo-fuzz target in a few lines. [`balancer`] draws from the bytes (with
//! [`arbitrary`]) the PE count (1–16), the workload (a synthetic adversary,
//! a UTS tree or a loop), the machine (network, latencies, slow PEs, LogP
//! costs), the event order (the simulator's [`crate::sim::Schedule`], FIFO
//! links or not), the split strategy, the initial distribution and the
//! termination detector it is composed with ([`scenario`]), runs it in the
//! deterministic simulator and checks every property (`lbcheck check-trace
//! --explain` lists them). A violation panics with the property, what was
//! wrong, and the `lbcheck simulate ...` command of the run, noting that the
//! user's balancer takes the place of its `--balancer`: libFuzzer saves the
//! input in `fuzz/artifacts/<target>/`, and `cargo fuzz run <target> <file>`
//! replays it.
//!
//! `fuzz/fuzz_targets/my_balancer.rs` of a crate made with `cargo fuzz init`
//! (with `lbcheck` among the fuzz crate's dependencies):
//!
//! ```
//! # use lbcheck::{harness::UserBalancer, mutants::seams};
//! # use lbcheck::protocol::random_polling::RandomPolling as MyBalancer;
//! # macro_rules! fuzz_target { (|$d:ident: &[u8]| $body:block) => { let $d: &[u8] = &[7; 64]; $body }; }
//! // #![no_main]
//! // use libfuzzer_sys::fuzz_target;
//! fuzz_target!(|data: &[u8]| {
//!     let mine = UserBalancer { name: "mine".into(), make: |_| MyBalancer::new(seams::polling(None), None) };
//!     lbcheck::fuzz::balancer(data, &mine);
//! });
//! ```
//!
//! then `RUSTC_BOOTSTRAP=1 cargo fuzz run my_balancer` (cargo-fuzz needs a
//! nightly compiler, or this variable on a stable one). lbcheck's own such
//! target, on the round-robin balancer of its examples, is
//! `fuzz/fuzz_targets/own_balancer.rs`; it finds the example's forgetful
//! variant in seconds (2.6–3.2 s in three runs on a loaded 2-core machine).
//!
//! A user's detector ([`UserDetector`]) is fuzzed the same way with
//! lbcheck's balancers ([`detector`]), and a user's balancer with a user's
//! detector with [`protocols`].

pub mod scenario;

use arbitrary::Unstructured;

use crate::harness::{Compose, ErasedBalancer, ErasedDetector, RunSpec, UserBalancer, UserDetector};
use crate::problem::Task;
use crate::protocol::{Balancer, Detector, PeId};

/// Fuzzer bytes → a checked simulated run of the user's `balancer` with one
/// of lbcheck's detectors ([`scenario::user`]); panics on the first
/// violated property with the replay command.
pub fn balancer<B, F>(data: &[u8], balancer: &UserBalancer<F>)
where
    B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    F: Fn(PeId) -> B,
{
    let make = |pe| ErasedBalancer::new((balancer.make)(pe));
    balancer_erased(data, &UserBalancer { name: balancer.name.clone(), make: &make });
}

/// A user's constructor behind `dyn`, for the erased entry points below:
/// compiled once, here, not per protocol type in a user's fuzz target
/// (as [`UserBalancer::erased`], without its `Sync`).
type Make<'a, T> = &'a dyn Fn(PeId) -> T;

/// [`balancer`] on the erased balancer.
fn balancer_erased(data: &[u8], balancer: &UserBalancer<Make<ErasedBalancer>>) {
    if let Ok(spec) = scenario::user(&mut Unstructured::new(data)) {
        check(&spec, balancer, &format!("the user's balancer `{}` in place of --balancer", balancer.name));
    }
}

/// Fuzzer bytes → a checked simulated run of the user's `detector` with one
/// of lbcheck's balancers ([`scenario::reference`]); panics on the first
/// violated property with the replay command.
pub fn detector<D, G>(data: &[u8], detector: &UserDetector<G>)
where
    D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    G: Fn(PeId) -> D,
{
    let make = |pe| ErasedDetector::new((detector.make)(pe));
    detector_erased(data, &UserDetector { name: detector.name.clone(), make: &make });
}

/// [`detector`] on the erased detector.
fn detector_erased(data: &[u8], detector: &UserDetector<Make<ErasedDetector>>) {
    if let Ok(spec) = scenario::reference(&mut Unstructured::new(data)) {
        check(&spec, detector, &format!("the user's detector `{}` in place of --termination", detector.name));
    }
}

/// Fuzzer bytes → a checked simulated run of the user's `balancer` with
/// the user's `detector` ([`scenario::user`]); panics on the first
/// violated property with the replay command.
pub fn protocols<B, F, D, G>(data: &[u8], balancer: &UserBalancer<F>, detector: &UserDetector<G>)
where
    B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    F: Fn(PeId) -> B,
    D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    G: Fn(PeId) -> D,
{
    let (make_b, make_d) =
        (|pe| ErasedBalancer::new((balancer.make)(pe)), |pe| ErasedDetector::new((detector.make)(pe)));
    let b = UserBalancer { name: balancer.name.clone(), make: &make_b as Make<_> };
    protocols_erased(data, &b, &UserDetector { name: detector.name.clone(), make: &make_d });
}

/// [`protocols`] on the erased protocols.
fn protocols_erased(
    data: &[u8],
    balancer: &UserBalancer<Make<ErasedBalancer>>,
    detector: &UserDetector<Make<ErasedDetector>>,
) {
    if let Ok(spec) = scenario::user(&mut Unstructured::new(data)) {
        let (b, d) = (&balancer.name, &detector.name);
        let instead = format!("the user's balancer `{b}` and detector `{d}` in place of --balancer and --termination");
        check(&spec, &(balancer, detector), &instead);
    }
}

/// Fuzzer bytes → a checked simulated run of one of lbcheck's references
/// ([`scenario::reference`]): the fuzz target `sim_run`.
pub fn references(data: &[u8]) {
    if let Ok(spec) = scenario::reference(&mut Unstructured::new(data)) {
        check(&spec, &spec.balancer, "");
    }
}

/// Fuzzer bytes as a trace: reading it, recovering the replay command from
/// its header and checking it must never panic; a trace is either rejected
/// with a message or checked (the fuzz target `trace_parser`; the PE count
/// is capped at 2^16 so that a header cannot ask for gigabytes).
pub fn trace(data: &[u8]) {
    use crate::check::{check_events, Reference};
    use crate::event::{read_trace, Event};
    use crate::problem::Fingerprint;
    let Ok(events) = read_trace(data) else { return };
    if let Some((_, Event::Header(h))) = events.first() {
        if let Ok(Some(spec)) = RunSpec::from_header(h) {
            let _ = (spec.validate(), spec.replay()); // the replay path of check-trace
        }
    }
    let _ = check_events(&events, |h| {
        if h.pes == 0 || h.pes > 1 << 16 {
            return Err("PE count out of range");
        }
        Ok(Reference { fp: Fingerprint::EMPTY, t_seq: 0, critical: None, pruning: None, pruned_critical: None })
    });
}

/// Runs `spec` with the PEs `pes` builds and panics on the first violated
/// property (or a run that did not finish), with the replay command and
/// `instead`: which of the user's protocols replace the spec's.
fn check(spec: &RunSpec, pes: &impl Compose, instead: &str) {
    let replay = match instead {
        "" => format!("replay with: {}", spec.replay()),
        _ => format!("replay with: {}  (with {instead})", spec.replay()),
    };
    if let Err(e) = spec.validate() {
        panic!("lbcheck::fuzz built an invalid run (a bug of lbcheck): {e}\n{replay}");
    }
    let report = spec.run_composed(pes, None, &mut |_| {}).expect("no I/O without a trace");
    let h = pes.header(spec);
    let who = format!("{} with {}", h.balancer, h.detector);
    let run = format!("{} on {} PEs", spec.workload, spec.driver.pes());
    let failures = report.check.failures_in_order();
    if let Some((property, verdict)) = failures.first() {
        let also: Vec<&str> = failures[1..].iter().map(|(p, _)| *p).collect();
        let also = if also.is_empty() { String::new() } else { format!("\n  also failed: {}", also.join(", ")) };
        panic!("{who} violates {property}: {}\n  run: {run}{also}\n{replay}", verdict.detail);
    }
    if !report.outcome.finished() {
        panic!("{who} did not finish ({:?})\n  run: {run}\n{replay}", report.outcome.stop);
    }
}
