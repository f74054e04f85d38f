//! `check --impl CMD --no-slower-than REFERENCE` (issue 29): per group, the
//! program's runs whose traces pass every property against as many runs of
//! the named reference — any balancer that runs on 001's asynchronous
//! machine, not only the one the program declares — on the same
//! configuration (seeds of their own). The efficiency T_seq / (P · T_par),
//! so with P and T_seq fixed by the group T_par, is tested by Mann–Whitney
//! ([`crate::bounds::compare`], the group's α split over its quantities as
//! `compare` does); significantly lower fails the case, whatever
//! `--allow-slower` says.

use std::time::Instant;

use super::bounds::Run;
use super::compare::{metrics, reference_runs, CompareOptions};
use super::configs::{ConfigError, Group};
use crate::base::Registered;
use crate::bounds::compare::{compare, MIN_RUNS};
use crate::bounds::twosample::median;
use crate::campaign::{Case, Fit, Verdict};
use crate::check::Metrics;
use crate::harness::RunSpec;
use crate::protocol::{BalancerKind, BalancerSpec};

/// Whether `kind` runs on `group`'s configuration (with the declared
/// detector); if not, which balancers do (bad input: exit 2).
pub fn fits(group: &Group, kind: BalancerKind) -> Result<(), ConfigError> {
    let with = |k: BalancerKind| RunSpec { balancer: BalancerSpec::of(k), ..group.spec.clone() }.validate();
    with(kind).map_err(|e| {
        let fit: Vec<&str> = BalancerKind::ALL.iter().filter(|&&k| with(k).is_ok()).map(|k| k.name()).collect();
        ConfigError::Machine(format!(
            "--no-slower-than {kind}: {} ({}): {e}; balancers that run there: {}",
            group.label,
            group.describe(),
            fit.join(", ")
        ))
    })
}

/// The case of `group`'s clean runs `user` against `kind`'s.
pub fn case(group: &Group, user: &[Run], kind: BalancerKind, o: &CompareOptions) -> Case {
    let name = format!("{}/{}/no-slower-than/{kind}", group.label, group.spec.workload);
    if user.len() < MIN_RUNS {
        let why = format!("not compared with `{kind}`: {} clean runs, at least {MIN_RUNS} needed", user.len());
        return Case::skip("compare", name, why);
    }
    let start = Instant::now();
    let (user, theirs) = (metrics(user), metrics(&reference_runs(group, Some(kind), user.len(), o)));
    let rows = compare(&user, &theirs, o.alpha);
    let row = rows.iter().find(|r| r.quantity == "efficiency");
    let slower = row.is_some_and(|r| r.worse && r.verdict == "slower");
    let t_par = |ms: &[Metrics]| median(&ms.iter().filter_map(|m| m.t_par.map(|t| t as f64)).collect::<Vec<_>>());
    let fit = Fit { user: t_par(&user), reference: t_par(&theirs), limit: f64::NAN };
    let test = row.map_or("no efficiency to compare (no PE terminated)".into(), |r| {
        format!(
            "efficiency median {:.4} against {:.4}: {} (Mann–Whitney p = {:.2e}, α = {:.4}, Cliff's δ = {:+.2})",
            r.median.0, r.median.1, r.verdict, r.p, r.alpha, r.delta
        )
    });
    let verdict = if slower { "slower" } else { "not slower" };
    let detail = format!(
        "{verdict} than `{kind}` — {}; T_par median: mine {} beside `{kind}`'s {}; {test}; {} runs a side",
        group.describe(),
        fit.user,
        fit.reference,
        user.len()
    );
    Case {
        verdict: if slower { Verdict::Fail } else { Verdict::Pass },
        detail,
        failed: if slower { vec!["no_slower_than".into()] } else { vec![] },
        replay: Some(group.spec.replay()),
        secs: start.elapsed().as_secs_f64(),
        fit: Some(fit),
        ..Case::skip("compare", name, "")
    }
}
