//! The bounds claims that apply to what an external group's traces show
//! (issue 28, layer 2), each held to the constant the reference's runs on
//! the same configuration fit, as `lbcheck bounds` holds its test runs to
//! its calibration runs ([`crate::bounds::claims::quantile`]: at most a
//! fraction Q0 of the runs above (1 + MARGIN) × the constant, at level α):
//!
//! - `t_par`: 001 Thm 1 / 002 Thm 1, R = (T_par − (1 + ε)·T_seq/P) /
//!   (T_atomic + h·(Δt + T_rout + T_split)) bounded;
//! - `traffic`: 002 Thm 1, balancer messages (request, reject, work) /
//!   (P·h) bounded.
//!
//! h is the workload's splitting depth where it guarantees one (synthetic,
//! loop), else the largest generation the run logged (as `lbcheck bounds`
//! does for UTS). The two claims share the group's α (Bonferroni).

use crate::bounds::claims::{quantile, Claim, ClaimVerdict};
use crate::bounds::papers::Machine;
use crate::bounds::plan::T_POLL;
use crate::check::Metrics;
use crate::harness::Driver;

use super::configs::Group;

/// The claims on `user`'s runs against constants fitted on `reference`'s,
/// at family-wise `alpha`.
pub fn claims(group: &Group, user: &[Metrics], reference: &[Metrics], alpha: f64) -> Vec<Claim> {
    let each = alpha / 2.0;
    let of = |ms: &[Metrics], f: fn(&Machine, &Metrics) -> Option<f64>| -> Vec<(u32, f64)> {
        ms.iter().filter_map(|m| machine(group, m).and_then(|k| f(&k, m).map(|x| (k.pes, x)))).collect()
    };
    let constant = |xs: Vec<(u32, f64)>| xs.into_iter().map(|(_, x)| x).fold(0.0, f64::max);
    let (r, traffic) = (of(user, r_of), of(user, traffic_of));
    vec![
        quantile("t_par", "001 Thm 1 / 002 Thm 1: R bounded", &r, constant(of(reference, r_of)), each),
        quantile("traffic", "002 Thm 1: messages/(P·h) bounded", &traffic, constant(of(reference, traffic_of)), each),
    ]
}

/// 001 Thm 1's parameters of one run of the group (`None` off 001's machine).
fn machine(group: &Group, m: &Metrics) -> Option<Machine> {
    let Driver::Sim(c) = &group.spec.driver else { return None };
    let logged = (1, u64::from(m.max_gen).max(1));
    let (t_atomic, h) = group.spec.workload.atomic_and_h().unwrap_or(logged);
    let (t_seq, h) = (m.t_seq, h.max(1));
    Some(Machine { pes: c.pes, t_seq, t_atomic, h, dt: c.dt, t_rout: c.t_rout, t_split: c.t_split, t_poll: T_POLL })
}

fn r_of(k: &Machine, m: &Metrics) -> Option<f64> {
    m.t_par.map(|t| k.excess(t))
}

fn traffic_of(k: &Machine, m: &Metrics) -> Option<f64> {
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
