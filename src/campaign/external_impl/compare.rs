//! The `compare` layer of an external implementation: per group, the
//! program's runs whose traces pass every property against as many runs
//! of the declared reference on the same configuration (seeds of their
//! own), quantity by quantity ([`crate::bounds::compare`]: Mann–Whitney at
//! family-wise α, Bonferroni over the quantities). The verdict is the
//! efficiency's — T_seq / (P · T_par), so with P and T_seq fixed by the
//! group it is T_par's too: "consistent", "slower" or "faster". A slower
//! implementation fails the gate unless allowed; the secondary quantities
//! (messages per PE, detection delay, generation depth) are reported and
//! fail only when asked. The bounds claims that apply to the traces
//! ([`super::bounds`]: T_par, 001 Lemma 6's remaining time and messages
//! per P·h against the constants the reference's runs fit) are reported
//! with their α; a failed T_par or remaining-time claim fails like
//! "slower", a failed messages claim only when asked.

use std::time::Instant;

use super::bounds::{self, Run};
use super::configs::Group;
use super::each;
use crate::base::rng::derive_seed;
use crate::bounds::compare::{compare, Comparison, MIN_RUNS};
use crate::bounds::twosample::median;
use crate::campaign::{Case, Verdict};
use crate::check::Metrics;
use crate::protocol::{BalancerKind, BalancerSpec};

/// How to compare.
#[derive(Clone, Copy, Debug)]
pub struct CompareOptions {
    /// Family-wise false-alarm probability.
    pub alpha: f64,
    /// A slower implementation passes (its verdict still says "slower").
    pub allow_slower: bool,
    /// Any quantity significantly worse fails, not only efficiency.
    pub strict: bool,
    /// Base seed of the reference's runs.
    pub seed: u64,
    /// Threads for the reference's runs.
    pub jobs: usize,
    /// Also fail a group significantly slower than this balancer's runs
    /// (`--no-slower-than`, `no_slower.rs`).
    pub no_slower_than: Option<BalancerKind>,
}

/// The `compare` case of `group`, from the metrics of its clean runs
/// (`runs` in all).
pub fn case(group: &Group, user: &[Run], runs: usize, o: &CompareOptions) -> Case {
    let name = format!("{}/{}", group.label, group.spec.workload);
    if user.len() < MIN_RUNS {
        let why = format!(
            "not compared: {} of {runs} runs passed every property; compare needs at least {MIN_RUNS} per group ({})",
            user.len(),
            group.describe()
        );
        return Case::skip("compare", name, why);
    }
    let start = Instant::now();
    let reference = reference_runs(group, None, user.len(), o);
    let rows = compare(&metrics(user), &metrics(&reference), o.alpha);
    let (verdict, mut failed) = judge(&rows, o);
    let claims = bounds::claims(group, user, &reference, o.alpha);
    failed.extend(claims.iter().filter(|c| c.failed() && gates(c.name, o)).map(|c| format!("bound {}", c.name)));
    let detail = format!(
        "{verdict} — {}; {}; {}",
        group.describe(),
        explain(&rows, &metrics(user), &metrics(&reference), group, o),
        bounds::describe(&claims)
    );
    Case {
        layer: "compare",
        name,
        verdict: if failed.is_empty() { Verdict::Pass } else { Verdict::Fail },
        detail,
        failed,
        replay: Some(group.spec.replay()),
        secs: start.elapsed().as_secs_f64(),
        point: None,
        spec: None,
        fit: None,
    }
}

/// The runs' metrics.
pub(super) fn metrics(runs: &[Run]) -> Vec<Metrics> {
    runs.iter().map(|r| r.metrics.clone()).collect()
}

/// Whether a failed bounds claim fails the case: T_par's and the remaining
/// time's unless slower is allowed, the messages' only with `strict` (a
/// secondary quantity).
fn gates(claim: &str, o: &CompareOptions) -> bool {
    match claim {
        "t_par" | "remaining_time" => !o.allow_slower,
        _ => o.strict,
    }
}

/// `n` runs of the reference (the declared one, or `kind`) on the group's
/// configuration, each on a seed of its own.
pub(super) fn reference_runs(group: &Group, kind: Option<BalancerKind>, n: usize, o: &CompareOptions) -> Vec<Run> {
    let label = match kind {
        None => format!("impl-compare/{}", group.label),
        Some(k) => format!("impl-compare/{}/{k}", group.label),
    };
    each(n, o.jobs, |i| {
        let mut spec = group.spec.clone();
        if let Some(k) = kind {
            spec.balancer = BalancerSpec::of(k);
        }
        spec.driver.set_seed(derive_seed(o.seed, &label, i as u32));
        bounds::measure(&spec)
    })
}

/// The verdict in a word and what fails: "slower" (unless allowed), and
/// with `strict` every other quantity that is worse.
fn judge(rows: &[Comparison], o: &CompareOptions) -> (String, Vec<String>) {
    let efficiency = rows.iter().find(|r| r.quantity == "efficiency");
    let verdict = match efficiency.map(|r| r.verdict.as_str()) {
        Some("slower") => "slower",
        Some("faster") => "faster",
        Some(_) => "consistent",
        None => "not compared (no efficiency: no PE terminated)",
    };
    let mut failed = Vec::new();
    if verdict == "slower" && !o.allow_slower {
        failed.push("slower".to_string());
    }
    if o.strict {
        failed.extend(rows.iter().filter(|r| r.worse && r.quantity != "efficiency").map(|r| r.verdict.clone()));
    }
    let verdict = match (verdict, o.allow_slower) {
        ("slower", true) => "slower (allowed by --allow-slower)".to_string(),
        (v, _) => v.to_string(),
    };
    (verdict, failed)
}

/// The figures behind the verdict, and the secondary quantities.
fn explain(rows: &[Comparison], user: &[Metrics], reference: &[Metrics], group: &Group, o: &CompareOptions) -> String {
    let t_par = |ms: &[Metrics]| median(&ms.iter().filter_map(|m| m.t_par.map(|t| t as f64)).collect::<Vec<_>>());
    let each_alpha = rows.first().map_or(o.alpha, |r| r.alpha);
    let mut parts = vec![format!("T_par median {} against the reference's {}", t_par(user), t_par(reference))];
    parts.extend(rows.iter().map(|r| {
        format!("{} {}: median {:.4} against {:.4} (p = {:.3})", r.quantity, r.verdict, r.median.0, r.median.1, r.p)
    }));
    parts.push(format!(
        "Mann–Whitney, α = {} family-wise ({each_alpha:.4} per quantity), {} runs a side; the reference: `{}` on seeds derived from --seed {}",
        o.alpha,
        user.len(),
        group.spec.replay(),
        o.seed
    ));
    parts.join("; ")
}
