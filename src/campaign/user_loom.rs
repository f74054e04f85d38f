//! The `loom` layer on a user's protocol ([`super::user`]): the user's
//! balancer on the threaded driver under loom, with every shipping
//! detector that runs in PEs, on a tiny workload (two splits), checked
//! against every property in every interleaving loom explores — the layer
//! `tests/loom_threads.rs` runs on the references. Two runs per detector
//! ([`RUNS`]): P = 2 within 2 preemptions (`LOOM_MAX_PREEMPTIONS` if set),
//! and P = 3 at bound 0, every interleaving of whole work slices and
//! message deliveries (at P = 3 one preemption more takes minutes with
//! four-counter's waves).
//!
//! loom explores [`crate::loom`]'s copy of the threaded driver inside the
//! ordinary build, so the layer runs wherever `check_balancer` does (no
//! special build). A property that fails in some interleaving fails
//! the case, naming the property; a deadlock (every PE waiting for ever)
//! makes loom abort the process with its report, as in lbcheck's own suite.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::{Case, Options, Profile, Verdict};
use crate::harness::{Compose, Driver, RunSpec};
use crate::protocol::{BalancerKind, DetectorKind, PeId};
use crate::runtime::threads::ThreadConfig;

/// The runs for `combos` (label, the placeholder balancer and detector
/// the user's protocol stands in for) that the threaded driver takes:
/// each of [`RUNS`] per profile seed, with its bound.
fn runs(o: &Options, combos: &[(String, BalancerKind, DetectorKind)]) -> Vec<(String, RunSpec, usize)> {
    let seeds = o.seed..o.seed + if o.profile == Profile::Full { 3 } else { 1 };
    let env = std::env::var("LOOM_MAX_PREEMPTIONS").ok().and_then(|b| b.parse().ok());
    let each = combos.iter().flat_map(|c| RUNS.map(|r| (c, r))).flat_map(|c| seeds.clone().map(move |s| (c, s)));
    let specs = each.map(|(((label, b, d), (pes, bound)), seed)| {
        let cfg = ThreadConfig { pes, seed, dt: 1, loom: true, ..ThreadConfig::default() };
        let spec = RunSpec::new(WORKLOAD.parse().expect("workload"), *b, *d, Driver::Threads(cfg));
        let bound = if pes == 2 { env.unwrap_or(bound) } else { bound };
        (format!("{label}/P={pes}/seed={seed}"), spec, bound)
    });
    specs.filter(|(name, spec, _)| o.selects("loom", name) && spec.validate().is_ok()).collect()
}

/// A case per run of `runs`, explored by loom.
pub fn layer<C>(o: &Options, combos: &[(String, BalancerKind, DetectorKind)], pes: C) -> Vec<Case>
where
    C: Compose + Send + Sync + 'static,
{
    let pes = Arc::new(pes);
    runs(o, combos).into_iter().map(|(n, spec, b)| case(n, spec, b, &pes)).collect()
}

/// One run explored by loom: passes if every interleaving passes every property.
fn case<C: Compose + Send + Sync + 'static>(name: String, spec: RunSpec, bound: usize, pes: &Arc<C>) -> Case {
    let start = Instant::now();
    let pes_n = spec.driver.pes();
    let (verdict, detail, failed) = match explore(&spec, bound, pes) {
        Ok(()) => {
            let all = format!("every interleaving within {bound} preemptions passed (P = {pes_n}, {WORKLOAD})");
            (Verdict::Pass, all, vec![])
        }
        Err((property, why)) => (Verdict::Fail, format!("an interleaving fails: {why}"), vec![property]),
    };
    Case {
        layer: "loom",
        verdict,
        failed,
        replay: Some(format!("{HOW}: {}, bound {bound}", spec.replay())),
        secs: start.elapsed().as_secs_f64(),
        ..Case::skip("loom", name, detail)
    }
}

/// Explores `spec` with the user's `pes`: the first failure (its first
/// property, and every failed property with its detail).
fn explore<C: Compose + Send + Sync + 'static>(
    spec: &RunSpec,
    bound: usize,
    pes: &Arc<C>,
) -> Result<(), (String, String)> {
    let first = Arc::new(Mutex::new(None::<(String, String)>));
    let (seen, pes, run) = (first.clone(), pes.clone(), spec.clone());
    let explored = catch_unwind(AssertUnwindSafe(|| {
        crate::loom::model(bound, None, move || {
            let result = run.run_composed(&*pes, None, &mut |_| {}).expect("no trace");
            let failed = result.check.failures_in_order();
            if let Some((property, _)) = failed.first() {
                let all: Vec<_> = failed.iter().map(|(n, v)| format!("{n}: {}", v.detail)).collect();
                seen.lock().expect("the first failure").get_or_insert((property.to_string(), all.join("; ")));
                panic!("property failed under loom: {all:?}");
            }
        })
    }));
    let failure = first.lock().expect("the first failure").take();
    match (explored, failure) {
        (Ok(()), _) => Ok(()),
        (Err(_), Some(f)) => Err(f),
        (Err(p), None) => Err(("loom".into(), format!("loom stopped: {}", panic_text(p.as_ref())))),
    }
}

/// A panic's message, if it is text.
fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    let text = p.downcast_ref::<String>().map(String::as_str).or_else(|| p.downcast_ref::<&str>().copied());
    text.unwrap_or("a panic").to_string()
}

/// The runs per detector: (P, preemption bound).
pub const RUNS: [(u32, usize); 2] = [(2, 2), (3, 0)];

/// The workload: two splits at most, so work moves twice.
pub const WORKLOAD: &str = "synthetic:size=3,atomic=1";

/// How to replay a case: the user's test that calls `check_balancer` (or
/// `check_detector`, `check_protocols`), with the layer selected.
pub const HOW: &str = "the user's check with --only loom/ (campaign::Options::only)";

/// A user's constructor frozen into one state per PE of a loom run
/// (loom's model outlives no borrow: it wants `'static`).
pub fn frozen<B: Clone + Send + 'static>(make: &impl Fn(PeId) -> B) -> impl Fn(PeId) -> B + Send + Sync + 'static {
    let most = RUNS.iter().map(|r| r.0).max().unwrap_or(2);
    let pes = Mutex::new((0..most).map(make).collect::<Vec<_>>());
    move |i| pes.lock().expect("the PEs' initial states")[i as usize].clone()
}
