//! Validating a user's balancer in-process: the `simulate` swarm, the
//! `threads` layer, the `explore` layer and, built with `--cfg loom`, the
//! `loom` layer ([`super::user_loom`]) of the campaign with the user's
//! [`Balancer`] in place of the references', composed with every shipping
//! detector, on the same machines and workloads, against the same properties.
//!
//! ```
//! use lbcheck::campaign::{user, Options, Profile, Silent};
//! use lbcheck::harness::UserBalancer;
//! use lbcheck::mutants::seams;
//! use lbcheck::protocol::random_polling::RandomPolling;
//!
//! // Here the "user's" balancer is the reference itself.
//! let mine = UserBalancer { name: "mine".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
//! let o = Options { profile: Profile::Quick, seed: 1, only: vec!["/#1".into()], mutant: None };
//! let report = user::check_balancer(&o, &mine, &Silent);
//! assert!(report.passed() && !report.cases.is_empty());
//! ```

use std::time::Instant;

use super::explore;
use super::swarm::{checked, swarm_specs, thread_specs, Runner};
use super::{replay, user_loom, Options, Progress, Report};
use crate::harness::UserBalancer;
use crate::problem::Task;
use crate::protocol::{Balancer, BalancerKind, DetectorKind, PeId};

/// Runs the `simulate` and `threads` layers on `balancer`; the report's
/// cases are named `user/NAME/DETECTOR/...`.
pub fn check_balancer<B, F>(o: &Options, balancer: &UserBalancer<F>, progress: &dyn Progress) -> Report
where
    B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    F: Fn(PeId) -> B + Sync,
{
    let start = Instant::now();
    // The runs' own balancer kind is a placeholder: the runner builds the user's.
    let placeholder = BalancerKind::RandomPolling;
    let label = |d: DetectorKind| format!("user/{}/{d}", balancer.name);
    let sim: Vec<_> = DetectorKind::of_pes().flat_map(|d| swarm_specs(o, &label(d), placeholder, d)).collect();
    let threads: Vec<_> = DetectorKind::of_pes().flat_map(|d| thread_specs(o, &label(d), placeholder, d)).collect();
    let threads = if cfg!(loom) { vec![] } else { threads }; // loom's threads run only in its model: user_loom
    let runner: &Runner = &|spec| spec.run_composed(balancer, None, &mut |_| {});
    let select = |layer: &str, jobs: Vec<(String, _)>| -> Vec<_> {
        jobs.into_iter().filter(|(n, _)| o.selects(layer, n)).collect()
    };
    let mut cases = checked("simulate", select("simulate", sim), progress, vec![], runner);
    cases.extend(checked("threads", select("threads", threads), progress, vec![], runner));
    for d in DetectorKind::of_pes().filter(|&d| o.selects("explore", &label(d))) {
        let instance = explore::instance(placeholder, d, None);
        cases.push(explore::case_composed(label(d), &instance, explore::seeds(o.profile), balancer));
    }
    let combos: Vec<_> = DetectorKind::of_pes().map(|d| (label(d), placeholder, d)).collect();
    let frozen = UserBalancer { name: balancer.name.clone(), make: user_loom::frozen(&balancer.make) };
    cases.extend(user_loom::layer(o, &combos, frozen)); // check_detector: the same with a UserDetector
    for c in &mut cases {
        c.spec = None; // the spec names a reference balancer, not the user's
        c.replay = c
            .replay
            .take()
            .map(|r| format!("{r}  (with the user's balancer `{}` in place of --balancer)", balancer.name));
    }
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
