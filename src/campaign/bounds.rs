//! The `bounds` layer: the statistical suite of `lbcheck bounds` (quick or
//! full profile), one case per claim, and its figures for the report.

use super::cost::OTHER_SUITES;
use super::figures::Figures;
use super::shard::Shard;
use super::{cost, Case, Options, Progress, Verdict};
use crate::bounds::claims::{Claim, ClaimVerdict, MARGIN};
use crate::bounds::plan::{self, power_max_pes};
use crate::bounds::Suite;
use crate::mutants::Mutant;
use crate::reproduce::papers::{self, SuiteRun};

/// What the layer found: its cases, random polling's figures, and the
/// suites' runs (claims with their plot data, fitted constants) for the
/// papers' pages ([`crate::report::paper`]).
pub type Found = (Vec<Case>, Option<Figures>, Vec<SuiteRun>);

/// Runs every suite that `o`'s mutant (if any) acts in: random polling's
/// (reduced to the mutant's power profile with a mutant), then 004's; each
/// suite one unit of `shard` ([`papers::run`], as `lbcheck reproduce`).
pub fn run(o: &Options, shard: &Shard, progress: &dyn Progress) -> Found {
    let (mut cases, mut figures, mut suites) = (vec![], None, vec![]);
    if o.selects("bounds", "suite") {
        let cost =
            if o.mutant.and_then(inapplicable).is_some() { 0.0 } else { cost::suite(Suite::RandomPolling, o.mutant) };
        cases = shard.unit("bounds", cost, || {
            let (cases, f, run) = polling(o, progress);
            shard.keep_figures(&f);
            figures = f;
            suites.extend(run);
            cases
        });
    }
    let runs =
        |suite: &Suite| o.selects("bounds", &suite.to_string()) && o.mutant.is_none_or(|m| suite.refuses(m).is_none());
    for suite in OTHER_SUITES.into_iter().filter(runs) {
        cases.extend(shard.unit("bounds", cost::suite(suite, o.mutant), || {
            let (cases, run) = atomic(o, suite, progress);
            suites.push(run);
            cases
        }));
    }
    (cases, figures, suites)
}

/// The suites' profile in every campaign, `check --full`'s too: their
/// full profiles take about 2,450 CPU s together (docs/architecture.md
/// "Full profiles"), more than `check --full`'s 15 minutes on 2 cores
/// (issue 30), so a nightly job runs each suite's full profile as its own
/// command, `lbcheck bounds --balancer S --full` (`scripts/nightly.sh`).
pub const SUITE_PROFILE: plan::Profile = plan::Profile::Quick;

/// One of the other suites (004's, Pacheco's, poll-and-shuffle's, synchronous
/// random polling's): one case per claim, named `SUITE/CLAIM`.
fn atomic(o: &Options, suite: Suite, progress: &dyn Progress) -> (Vec<Case>, SuiteRun) {
    let run = papers::run(suite, SUITE_PROFILE, o.seed, o.mutant);
    let secs = run.seconds / run.claims.len().max(1) as f64;
    let mutant = o.mutant.map(|m| format!(" --mutant {m}")).unwrap_or_default();
    let topology = suite.default_topology(o.mutant);
    let net = if suite == Suite::PollAndShuffle { format!(" --topology {topology}") } else { String::new() };
    let replay = format!("lbcheck bounds --balancer {suite}{net} --quick --seed-base {}{mutant}", o.seed);
    progress.start("bounds", run.claims.len());
    let cases: Vec<Case> =
        run.claims.iter().map(|c| Case { name: format!("{suite}/{}", c.name), ..case(c, secs, &replay) }).collect();
    cases.iter().for_each(|c| progress.done("bounds", c));
    (cases, run)
}

/// Random polling's suite (`lbcheck bounds --balancer random-polling`).
fn polling(o: &Options, progress: &dyn Progress) -> (Vec<Case>, Option<Figures>, Option<SuiteRun>) {
    if let Some(why) = o.mutant.and_then(inapplicable) {
        let case = Case::skip("bounds", "suite".into(), why);
        progress.start("bounds", 1);
        progress.done("bounds", &case);
        return (vec![case], None, None);
    }
    let run = papers::run(Suite::RandomPolling, SUITE_PROFILE, o.seed, o.mutant);
    let secs = run.seconds / run.claims.len().max(1) as f64;
    let replay = replay(o, o.mutant.map_or(u32::MAX, power_max_pes));
    progress.start("bounds", run.claims.len());
    let cases: Vec<Case> = run.claims.iter().map(|c| case(c, secs, &replay)).collect();
    cases.iter().for_each(|c| progress.done("bounds", c));
    let plot = |name: &str| run.claims.iter().find(|c| c.name == name).and_then(|c| c.plot.clone());
    let figures = match (plot("t_par"), plot("traffic")) {
        (Some(r), Some(t)) => {
            Some(Figures { r: r.points, traffic: t.points, c_t_par: r.fitted, c_traffic: t.fitted, margin: MARGIN })
        }
        _ => None,
    };
    (cases, figures, Some(run))
}

/// Why random polling's suite cannot run `m`.
fn inapplicable(m: Mutant) -> Option<String> {
    Suite::RandomPolling.refuses(m)
}

/// The case of claim `c` (its detail, verdict and replay).
pub(crate) fn case(c: &Claim, secs: f64, replay: &str) -> Case {
    let alpha = c.alpha.map_or("exact".into(), |a| format!("α = {a:.1e}"));
    let detail = format!("{} ({}): {} vs {}; {}; {alpha}", c.name, c.reference, c.measured, c.bound, c.ci);
    let (verdict, failed) = verdict_of(c);
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
        fit: None,
    }
}

/// A claim's verdict as a case's, and what failed: a claim not run is a
/// skipped case (JUnit `<skipped/>`), never a pass.
pub(crate) fn verdict_of(c: &Claim) -> (Verdict, Vec<String>) {
    match c.verdict {
        ClaimVerdict::Pass => (Verdict::Pass, vec![]),
        ClaimVerdict::Fail => (Verdict::Fail, vec![c.name.to_string()]),
        ClaimVerdict::NotRun | ClaimVerdict::Refused => (Verdict::Skip, vec![]),
    }
}

fn replay(o: &Options, max_pes: u32) -> String {
    let mut cmd = format!("lbcheck bounds --quick --seed-base {}", o.seed);
    if let Some(m) = o.mutant {
        cmd += &format!(" --mutant {m} --max-pes {max_pes}");
    }
    cmd
}
