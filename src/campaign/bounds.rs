//! The `bounds` layer: the statistical suite of `lbcheck bounds` (quick or
//! full profile), one case per claim, and its figures for the report.

use std::time::Instant;

use super::cost::ATOMIC_SUITES;
use super::figures::Figures;
use super::shard::Shard;
use super::{cost, Case, Options, Profile, Progress, Verdict};
use crate::bounds::claims::{self, Claim, MARGIN};
use crate::bounds::dispatch;
use crate::bounds::plan::{self, power_max_pes};
use crate::bounds::suite::{self, Phase, Sample};
use crate::bounds::Suite;
use crate::mutants::Mutant;

/// Runs every suite that `o`'s mutant (if any) acts in: random polling's
/// (reduced to the mutant's power profile with a mutant), then 004's; each
/// suite one unit of `shard`.
pub fn run(o: &Options, shard: &Shard, progress: &dyn Progress) -> (Vec<Case>, Option<Figures>) {
    let (mut cases, mut figures) = (vec![], None);
    if o.selects("bounds", "suite") {
        let cost =
            if o.mutant.and_then(inapplicable).is_some() { 0.0 } else { cost::suite(Suite::RandomPolling, o.mutant) };
        cases = shard.unit("bounds", cost, || {
            let (cases, f) = polling(o, progress);
            shard.keep_figures(&f);
            figures = f;
            cases
        });
    }
    let runs =
        |suite: &Suite| o.selects("bounds", &suite.to_string()) && o.mutant.is_none_or(|m| suite.refuses(m).is_none());
    for suite in ATOMIC_SUITES.into_iter().filter(runs) {
        cases.extend(shard.unit("bounds", cost::suite(suite, o.mutant), || atomic(o, suite, progress)));
    }
    (cases, figures)
}

/// One of 004's suites or Pacheco's: one case per claim, named `SUITE/CLAIM`.
fn atomic(o: &Options, suite: Suite, progress: &dyn Progress) -> Vec<Case> {
    let profile =
        if o.profile == Profile::Full && o.mutant.is_none() { plan::Profile::Full } else { plan::Profile::Quick };
    let start = Instant::now();
    let topology = suite.default_topology(o.mutant);
    let claims = dispatch::run(suite, profile, topology, o.seed, o.mutant).claims;
    let secs = start.elapsed().as_secs_f64() / claims.len().max(1) as f64;
    let p = if profile == plan::Profile::Full { "--full" } else { "--quick" };
    let mutant = o.mutant.map(|m| format!(" --mutant {m}")).unwrap_or_default();
    let net = if suite == Suite::PollAndShuffle { format!(" --topology {topology}") } else { String::new() };
    let replay = format!("lbcheck bounds --balancer {suite}{net} {p} --seed-base {}{mutant}", o.seed);
    progress.start("bounds", claims.len());
    let cases: Vec<Case> =
        claims.iter().map(|c| Case { name: format!("{suite}/{}", c.name), ..case(c, secs, &replay) }).collect();
    cases.iter().for_each(|c| progress.done("bounds", c));
    cases
}

/// Random polling's suite (`lbcheck bounds --balancer random-polling`).
fn polling(o: &Options, progress: &dyn Progress) -> (Vec<Case>, Option<Figures>) {
    if let Some(why) = o.mutant.and_then(inapplicable) {
        let case = Case::skip("bounds", "suite".into(), why);
        progress.start("bounds", 1);
        progress.done("bounds", &case);
        return (vec![case], None);
    }
    let (profile, max_pes) = match (o.profile, o.mutant) {
        (_, Some(m)) => (plan::Profile::Quick, power_max_pes(m)),
        (Profile::Quick, None) => (plan::Profile::Quick, u32::MAX),
        (Profile::Full, None) => (plan::Profile::Full, u32::MAX),
    };
    let start = Instant::now();
    let samples = suite::run_all(profile, max_pes, o.seed, o.mutant);
    let (k, claims) = claims::evaluate(&samples, o.mutant);
    let secs = start.elapsed().as_secs_f64() / claims.len().max(1) as f64;
    let replay = replay(o, profile, max_pes);
    progress.start("bounds", claims.len());
    let cases: Vec<Case> = claims.iter().map(|c| case(c, secs, &replay)).collect();
    cases.iter().for_each(|c| progress.done("bounds", c));
    let test = |f: fn(&Sample) -> f64| {
        samples.iter().filter(|s| s.phase == Phase::Test && s.trim.is_none()).map(|s| (s.pes, f(s))).collect()
    };
    let figures = Figures {
        r: test(|s| s.r),
        traffic: test(|s| s.traffic),
        c_t_par: k.c_t_par,
        c_traffic: k.c_traffic,
        margin: MARGIN,
    };
    (cases, Some(figures))
}

/// Why random polling's suite cannot run `m`.
fn inapplicable(m: Mutant) -> Option<String> {
    Suite::RandomPolling.refuses(m)
}

fn case(c: &Claim, secs: f64, replay: &str) -> Case {
    let alpha = c.alpha.map_or("exact".into(), |a| format!("α = {a:.1e}"));
    let detail = format!("{} ({}): {} vs {}; {}; {alpha}", c.name, c.reference, c.measured, c.bound, c.ci);
    let (verdict, failed) = match c.pass {
        true => (Verdict::Pass, vec![]),
        false => (Verdict::Fail, vec![c.name.to_string()]),
    };
    Case {
        layer: "bounds",
        name: c.name.into(),
        verdict,
        detail,
        failed,
        replay: Some(replay.into()),
        secs,
        point: None,
        spec: None,
    }
}

fn replay(o: &Options, profile: plan::Profile, max_pes: u32) -> String {
    let p = if profile == plan::Profile::Full { "--full" } else { "--quick" };
    let mut cmd = format!("lbcheck bounds {p} --seed-base {}", o.seed);
    if let Some(m) = o.mutant {
        cmd += &format!(" --mutant {m} --max-pes {max_pes}");
    }
    cmd
}
