//! The bounds claims that apply to what an external group's traces show
//! (issue 28, layer 2), each held to the constant the reference's runs on
//! the same configuration fit, as `lbcheck bounds` holds its test runs to
//! its calibration runs ([`crate::bounds::claims::quantile`]: at most a
//! fraction Q0 of the runs above (1 + MARGIN) × the constant, at level α):
//!
//! - `t_par`: 001 Thm 1 / 002 Thm 1, R = (T_par − (1 + ε)·T_seq/P) /
//!   (T_atomic + h·(Δt + T_rout + T_split)) bounded;
//! - `remaining_time`: 001 Lemma 6, (T_par − the time every live
//!   subproblem reached generation h) / (T_atomic + h·(Δt + T_split +
//!   T_rout)) bounded (∞ for a run where that never happened), on
//!   workloads that guarantee an h;
//! - `traffic`: 002 Thm 1, balancer messages (request, reject, work) /
//!   (P·h) bounded.
//!
//! h is the workload's splitting depth where it guarantees one (synthetic,
//! loop), else the largest generation the run logged (as `lbcheck bounds`
//! does for UTS; `remaining_time` is then not run). The three claims share
//! the group's α (Bonferroni).

use crate::bounds::claims::{quantile, Claim, ClaimVerdict, REMAINING};
use crate::bounds::observe::GenDepth;
use crate::bounds::papers::Machine;
use crate::bounds::plan::T_POLL;
use crate::check::Metrics;
use crate::event::Event;
use crate::harness::{Driver, RunSpec};

use super::configs::Group;

/// One run as the claims see it.
#[derive(Clone, Debug)]
pub struct Run {
    /// Its metrics.
    pub metrics: Metrics,
    /// When every live subproblem had reached generation h (001 Lemma 6's
    /// starting point; `None` if it never did, or the workload gives no h).
    pub at_h: Option<u64>,
}

/// The observer of when every live subproblem of a run of `spec` reaches
/// generation h ([`GenDepth`], as `lbcheck bounds` uses it), if its
/// workload guarantees an h.
pub fn depth(spec: &RunSpec) -> Option<GenDepth> {
    let Driver::Sim(c) = &spec.driver else { return None };
    let (_, h) = spec.workload.atomic_and_h()?;
    Some(GenDepth::new(c.pes, h, c.dt + c.t_split + 2 * c.t_rout))
}

/// One run of `spec` in-process (a reference's), measured as the claims
/// see it.
pub fn measure(spec: &RunSpec) -> Run {
    let mut depth = depth(spec);
    let report = spec.run_observed(None, &mut |e| depth.iter_mut().for_each(|d| d.observe(e)));
    let metrics = report.expect("a run without a trace does no I/O").check.metrics;
    Run { metrics, at_h: depth.and_then(|d| d.time_at_h()) }
}

/// [`Run::at_h`] of a checked trace of `spec` (the header first).
pub fn at_h(spec: &RunSpec, events: &[(usize, Event)]) -> Option<u64> {
    let mut d = depth(spec)?;
    events.iter().for_each(|(_, e)| d.observe(e));
    d.time_at_h()
}

/// The claims on `user`'s runs against constants fitted on `reference`'s,
/// at family-wise `alpha`.
pub fn claims(group: &Group, user: &[Run], reference: &[Run], alpha: f64) -> Vec<Claim> {
    let each = alpha / 3.0;
    let of = |rs: &[Run], f: fn(&Machine, &Run) -> Option<f64>| -> Vec<(u32, f64)> {
        rs.iter().filter_map(|r| machine(group, &r.metrics).and_then(|k| f(&k, r).map(|x| (k.pes, x)))).collect()
    };
    let constant = |xs: Vec<(u32, f64)>| xs.into_iter().map(|(_, x)| x).fold(0.0, f64::max);
    let claim =
        |name, reference_text, f| quantile(name, reference_text, &of(user, f), constant(of(reference, f)), each);
    let mut claims = vec![claim("t_par", "001 Thm 1 / 002 Thm 1: R bounded", r_of)];
    if group.spec.workload.atomic_and_h().is_some() {
        claims.push(claim("remaining_time", REMAINING, remaining_of));
    }
    claims.push(claim("traffic", "002 Thm 1: messages/(P·h) bounded", traffic_of));
    claims
}

/// 001 Thm 1's parameters of one run of the group (`None` off 001's machine).
fn machine(group: &Group, m: &Metrics) -> Option<Machine> {
    let Driver::Sim(c) = &group.spec.driver else { return None };
    let logged = (1, u64::from(m.max_gen).max(1));
    let (t_atomic, h) = group.spec.workload.atomic_and_h().unwrap_or(logged);
    let (t_seq, h) = (m.t_seq, h.max(1));
    Some(Machine { pes: c.pes, t_seq, t_atomic, h, dt: c.dt, t_rout: c.t_rout, t_split: c.t_split, t_poll: T_POLL })
}

fn r_of(k: &Machine, r: &Run) -> Option<f64> {
    r.metrics.t_par.map(|t| k.excess(t))
}

/// 001 Lemma 6's remaining time over its lower-order term, ∞ when the run
/// never had every subproblem at generation h.
fn remaining_of(k: &Machine, r: &Run) -> Option<f64> {
    let t = r.metrics.t_par?;
    Some(r.at_h.map_or(f64::INFINITY, |h| t.saturating_sub(h) as f64 / k.rest()))
}

fn traffic_of(k: &Machine, r: &Run) -> Option<f64> {
    let m = &r.metrics;
    let sent = ["request", "reject", "work"].iter().map(|q| m.messages.get(q).copied().unwrap_or(0)).sum::<u64>();
    Some(sent as f64 / (f64::from(k.pes) * k.h as f64))
}

/// The claims in a sentence for the compare case.
pub fn describe(claims: &[Claim]) -> String {
    let one = |c: &Claim| {
        let verdict = match c.verdict {
            ClaimVerdict::Pass => "holds",
            ClaimVerdict::Fail => "FAILS",
            ClaimVerdict::NotRun => "not run",
            ClaimVerdict::Refused => "refused",
        };
        let alpha = c.alpha.map_or(String::new(), |a| format!(", α = {a}"));
        format!("{} ({}) {verdict}: {} on {} runs; {}{alpha}", c.name, c.reference, c.measured, c.n, c.bound)
    };
    format!("bounds: {}", claims.iter().map(one).collect::<Vec<_>>().join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::derive_seed;
    use crate::mutants::Mutant;
    use crate::protocol::{BalancerKind, DetectorKind};
    use crate::sim::SimConfig;

    fn group() -> Group {
        let workload = "synthetic:size=4096,atomic=4,split=balanced".parse().unwrap();
        let sim = SimConfig { pes: 8, ..SimConfig::default() };
        let spec = RunSpec::new(workload, BalancerKind::RandomPolling, DetectorKind::Energy, Driver::Sim(sim));
        Group { label: "g1".into(), spec, seeds: vec![] }
    }

    /// 20 runs of the group's configuration, as `check --impl` sees them.
    fn runs(g: &Group, mutant: Option<Mutant>, label: &str) -> Vec<Run> {
        let one = |i| {
            let mut spec = RunSpec { mutant, ..g.spec.clone() };
            spec.driver.set_seed(derive_seed(1, label, i));
            measure(&spec)
        };
        (0..20).map(one).collect()
    }

    /// An implementation whose PEs hold their energy a while after going
    /// idle ends late after generation h, and only there: it fails
    /// `remaining_time` alone; fresh runs of the reference pass all three.
    #[test]
    fn a_late_end_fails_the_remaining_time_alone() {
        let g = group();
        let reference = runs(&g, None, "reference");
        let verdicts = |user: &[Run]| -> Vec<(&str, bool)> {
            claims(&g, user, &reference, 0.01).iter().map(|c| (c.name, c.failed())).collect()
        };
        let passed = [("t_par", false), ("remaining_time", false), ("traffic", false)];
        assert_eq!(verdicts(&runs(&g, None, "mine")), passed);
        let late = runs(&g, Some(Mutant::EnergyIdleHold), "mine");
        assert_eq!(verdicts(&late), [("t_par", false), ("remaining_time", true), ("traffic", false)]);
    }

    /// Without an h (UTS) the remaining time is not claimed.
    #[test]
    fn no_remaining_time_without_an_h() {
        let mut g = group();
        g.spec.workload = "uts:default".parse().unwrap();
        assert!(depth(&g.spec).is_none());
        let names: Vec<&str> = claims(&g, &[], &[], 0.01).iter().map(|c| c.name).collect();
        assert_eq!(names, ["t_par", "traffic"]);
    }
}
