//! Validating a user's protocol in-process: the `simulate` swarm, the
//! `threads` layer and the `explore` layer of the campaign with the user's
//! [`Balancer`] or [`Detector`] (or both) in place of the references', on
//! the same machines and workloads, against the same properties.
//! [`check_balancer`] composes a user's balancer with every shipping
//! detector, [`check_detector`] a user's detector with every shipping
//! balancer that runs in PEs, [`check_protocols`] the two of a user's
//! together.
//! The `bounds` layer ([`bounds_balancer`]) holds a user's balancer to
//! the papers' claims on T_par, generation depth, traffic and queues, each
//! against the constant fitted on random polling's runs of the same
//! configurations; the `loom` layer ([`super::user_loom`]) runs a user's
//! balancer under loom, in-process.
//!
//! ```
//! use lbcheck::campaign::{user, Options, Profile, Silent};
//! use lbcheck::harness::UserBalancer;
//! use lbcheck::mutants::seams;
//! use lbcheck::protocol::random_polling::RandomPolling;
//!
//! // Here the "user's" balancer is the reference itself.
//! let mine = UserBalancer { name: "mine".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
//! let o = Options { profile: Profile::Quick, seed: 1, only: vec!["/#1".into()], ..Options::default() };
//! let report = user::check_balancer(&o, &mine, &Silent);
//! assert!(report.passed() && !report.cases.is_empty());
//! ```

use std::time::Instant;

pub mod bounds;
pub use bounds::{bounds_balancer, BoundsOptions};

use super::explore;
use super::swarm::{checked, swarm_specs, thread_specs, Runner};
use super::{replay, user_loom, Case, Options, Progress, Report, Verdict};
use crate::base::Registered;
use crate::harness::{Compose, DynMake, ErasedBalancer, ErasedDetector, UserBalancer, UserDetector};
use crate::problem::Task;
use crate::protocol::{Balancer, BalancerKind, Detector, DetectorKind, PeId};

/// The placeholder kinds of the runs a user's protocol builds the PEs of
/// (the spec still names a registry protocol; the runner builds the user's).
const BALANCER: BalancerKind = BalancerKind::RandomPolling;
const DETECTOR: DetectorKind = DetectorKind::Energy;

/// Runs the `simulate`, `threads` and `explore` layers on `balancer` with
/// every shipping detector (the report's cases named
/// `user/NAME/DETECTOR/...`), then the `bounds` layer with
/// [`BoundsOptions::default`] (`user/NAME/CLAIM`; [`bounds_balancer`]
/// runs it with other options).
///
/// ```
/// use lbcheck::campaign::{user, Options, Silent, Verdict};
/// use lbcheck::harness::UserBalancer;
/// use lbcheck::mutants::{seams, Mutant};
/// use lbcheck::protocol::random_polling::RandomPolling;
///
/// // A "user's" balancer that drops the requests it should reject.
/// let seam = seams::polling(Some(Mutant::RequestDropped));
/// let broken = UserBalancer { name: "drops".into(), make: move |_| RandomPolling::new(seam.clone(), None) };
/// let o = Options { only: vec!["explore/".into()], ..Options::default() };
/// let report = user::check_balancer(&o, &broken, &Silent);
/// let failed = report.cases.iter().find(|c| c.verdict == Verdict::Fail).expect("caught");
/// assert_eq!(failed.failed, ["requests_answered"]);
/// ```
pub fn check_balancer<B, F>(o: &Options, balancer: &UserBalancer<F>, progress: &dyn Progress) -> Report
where
    B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    F: Fn(PeId) -> B + Sync,
{
    check_balancer_with(o, balancer, &BoundsOptions::default(), progress)
}

/// [`check_balancer`] with the `bounds` layer's options `bounds` (a named
/// reference, `no_slower_than`, α).
pub fn check_balancer_with<B, F>(
    o: &Options,
    balancer: &UserBalancer<F>,
    bounds: &BoundsOptions,
    progress: &dyn Progress,
) -> Report
where
    B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    F: Fn(PeId) -> B + Sync,
{
    balancer_campaign(o, &balancer.erased(), bounds, progress)
}

/// [`check_balancer_with`] on the erased balancer (compiled once, here:
/// [`UserBalancer::erased`]).
fn balancer_campaign(
    o: &Options,
    balancer: &UserBalancer<DynMake<ErasedBalancer>>,
    bounds: &BoundsOptions,
    progress: &dyn Progress,
) -> Report {
    let start = Instant::now();
    let combos = DetectorKind::of_pes().map(|d| (format!("user/{}/{d}", balancer.name), BALANCER, d)).collect();
    let instead = format!("the user's balancer `{}` in place of --balancer", balancer.name);
    let plan = Plan { pes: balancer, combos, instead, detector: None };
    let mut report = check_composed(o, &plan, progress);
    let frozen = UserBalancer { name: balancer.name.clone(), make: user_loom::frozen(&balancer.make) };
    let mut loom = user_loom::layer(o, &plan.combos, frozen); // check_detector: the same with a UserDetector
    loom.iter_mut().for_each(|c| plan.note(c));
    report.cases.extend(loom);
    report.cases.extend(bounds::user_bounds(o, balancer, bounds, progress));
    report.seconds = start.elapsed().as_secs_f64();
    report
}

/// Runs the `simulate`, `threads` and `explore` layers (P ≤ 4 for the
/// last two) on `detector` with every shipping balancer that runs in PEs
/// (on threads, those that need no model time and are not the atomic
/// machine's); the report's cases are named `user/NAME/BALANCER/...`.
///
/// ```
/// use lbcheck::campaign::{user, Options, Profile, Silent};
/// use lbcheck::harness::UserDetector;
/// use lbcheck::mutants::seams;
/// use lbcheck::protocol::safra::Safra;
///
/// // Here the "user's" detector is Safra's (EWD998) as lbcheck ships it.
/// let mine = UserDetector { name: "my-safra".into(), make: |_| Safra::new(seams::safra(None)) };
/// let o = Options { profile: Profile::Quick, seed: 1, only: vec!["/pacheco/#1".into()], ..Options::default() };
/// let report = user::check_detector(&o, &mine, &Silent);
/// assert!(report.passed(), "{:?}", report.cases);
/// assert_eq!(report.cases[0].name, "user/my-safra/pacheco/#1");
/// ```
pub fn check_detector<D, G>(o: &Options, detector: &UserDetector<G>, progress: &dyn Progress) -> Report
where
    D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    G: Fn(PeId) -> D + Sync,
{
    detector_campaign(o, &detector.erased(), progress)
}

/// [`check_detector`] on the erased detector ([`UserDetector::erased`]).
fn detector_campaign(o: &Options, detector: &UserDetector<DynMake<ErasedDetector>>, progress: &dyn Progress) -> Report {
    let in_pes = BalancerKind::ALL.iter().filter(|b| !b.phased());
    let combos = in_pes.map(|&b| (format!("user/{}/{b}", detector.name), b, DETECTOR)).collect();
    let instead = format!("the user's detector `{}` in place of --detector", detector.name);
    check_composed(o, &Plan { pes: detector, combos, instead, detector: Some(&detector.name) }, progress)
}

/// Runs the `simulate`, `threads` and `explore` layers on a user's
/// `balancer` composed with a user's `detector`; the report's cases are
/// named `user/BALANCER/DETECTOR/...`.
///
/// ```
/// use lbcheck::campaign::{user, Options, Profile, Silent};
/// use lbcheck::harness::{UserBalancer, UserDetector};
/// use lbcheck::mutants::seams;
/// use lbcheck::protocol::four_counter::FourCounter;
/// use lbcheck::protocol::random_polling::RandomPolling;
///
/// let balancer = UserBalancer { name: "mine".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
/// let detector = UserDetector { name: "waves".into(), make: |_| FourCounter::new(seams::four_counter(None)) };
/// let o = Options { profile: Profile::Quick, seed: 1, only: vec!["/#2".into()], ..Options::default() };
/// let report = user::check_protocols(&o, &balancer, &detector, &Silent);
/// assert!(report.passed() && report.cases[0].name == "user/mine/waves/#2");
/// ```
pub fn check_protocols<B, F, D, G>(
    o: &Options,
    balancer: &UserBalancer<F>,
    detector: &UserDetector<G>,
    progress: &dyn Progress,
) -> Report
where
    B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    F: Fn(PeId) -> B + Sync,
    D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    G: Fn(PeId) -> D + Sync,
{
    protocols_campaign(o, &balancer.erased(), &detector.erased(), progress)
}

/// [`check_protocols`] on the erased protocols ([`UserBalancer::erased`]).
fn protocols_campaign(
    o: &Options,
    balancer: &UserBalancer<DynMake<ErasedBalancer>>,
    detector: &UserDetector<DynMake<ErasedDetector>>,
    progress: &dyn Progress,
) -> Report {
    let combos = vec![(format!("user/{}/{}", balancer.name, detector.name), BALANCER, DETECTOR)];
    let instead = format!(
        "the user's balancer `{}` and detector `{}` in place of --balancer and --detector",
        balancer.name, detector.name
    );
    check_composed(o, &Plan { pes: &(balancer, detector), combos, instead, detector: Some(&detector.name) }, progress)
}

/// What a user's check runs: the user's protocol `pes` in the runs of
/// registry pairs (label, balancer, detector) it stands in for.
struct Plan<'a, C> {
    pes: &'a C,
    combos: Vec<(String, BalancerKind, DetectorKind)>,
    /// What the user's protocol stands in for (the replay commands' note).
    instead: String,
    /// The user's detector, whose name the cases give for the placeholder's.
    detector: Option<&'a str>,
}

/// The three layers on `plan`'s runs.
fn check_composed<C: Compose + Sync>(o: &Options, plan: &Plan<C>, progress: &dyn Progress) -> Report {
    let start = Instant::now();
    let on_threads = |b: &BalancerKind| !b.atomic() && !b.needs_model_time();
    let combos = plan.combos.iter();
    let sim: Vec<_> = combos.clone().flat_map(|(l, b, d)| swarm_specs(o, l, *b, *d)).collect();
    let threads = combos.clone().filter(|c| on_threads(&c.1)).flat_map(|(l, b, d)| thread_specs(o, l, *b, *d));
    let threads: Vec<_> = threads.collect();
    let runner: &Runner = &|spec| unpanicked(|| spec.run_composed(plan.pes, None, &mut |_| {}));
    let select = |layer: &str, jobs: Vec<(String, _)>| -> Vec<_> {
        jobs.into_iter().filter(|(n, _)| o.selects(layer, n)).collect()
    };
    let mut cases = checked("simulate", select("simulate", sim), progress, vec![], runner);
    cases.extend(checked("threads", select("threads", threads), progress, vec![], runner));
    cases.extend(explored(o, plan, progress));
    cases.iter_mut().for_each(|c| plan.note(c));
    Report {
        profile: o.profile,
        seed: o.seed,
        mutant: None,
        replay: replay(o),
        seconds: start.elapsed().as_secs_f64(),
        cases,
        bounds: None,
        suites: vec![],
    }
}

/// The `explore` layer on `plan`'s tiny instances (P = 3).
fn explored<C: Compose>(o: &Options, plan: &Plan<C>, progress: &dyn Progress) -> Vec<Case> {
    let combos: Vec<_> = plan.combos.iter().filter(|(l, ..)| o.selects("explore", l)).collect();
    progress.start("explore", combos.len());
    let cases = combos.into_iter().map(|(label, b, d)| {
        let instance = explore::instance(*b, *d, None);
        let explored = || Ok(explore::case_composed(label.clone(), &instance, explore::seeds(o.profile), plan.pes));
        let case = unpanicked(explored).unwrap_or_else(|e| Case {
            verdict: Verdict::Fail,
            detail: format!("the exploration failed: {e}"),
            replay: Some(instance.1.clone()),
            ..Case::skip("explore", label.clone(), "")
        });
        progress.done("explore", &case);
        case
    });
    cases.collect()
}

impl<C> Plan<'_, C> {
    /// A case of the user's protocol: no spec (it names a reference
    /// protocol, not the user's), the replay noted, the user's detector
    /// named where the case's detail names the placeholder's.
    fn note(&self, c: &mut Case) {
        c.spec = None;
        c.replay = c.replay.take().map(|r| format!("{r}  (with {})", self.instead));
        if let Some(name) = self.detector {
            c.detail = c.detail.replacen(&format!(" PEs, {DETECTOR}"), &format!(" PEs, {name}"), 1);
        }
    }
}

/// `run`'s result, or its panic as an error: a user's protocol that
/// panics (or makes a reference balancer's assertion fail, as a detector
/// that announces early may) fails its case instead of the whole check.
/// (A run catches its own protocol assertions, `harness::caught`; this
/// catches the rest, e.g. of an exploration.)
fn unpanicked<R>(run: impl FnOnce() -> std::io::Result<R>) -> std::io::Result<R> {
    crate::base::caught::caught(run).unwrap_or_else(|why| Err(std::io::Error::other(format!("it panicked: {why}"))))
}
