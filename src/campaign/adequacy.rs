//! The `mutants` layer, the adequacy matrix: every mutant of the catalogue
//! against every checker the catalogue says catches it. A case passes when
//! the checker catches the mutant (fails the property or claim listed).

use std::time::Instant;

use super::shard::Shard;
use super::{bounds, cost, demos, explore, external, swarm, Case, Options, Progress, Verdict};
use crate::base::rng::derive_seed;
use crate::bounds::compare::{compare, MIN_RUNS};
use crate::bounds::{dispatch, Suite};
use crate::check::Metrics;
use crate::harness::RunSpec;
use crate::loom::caught_name;
use crate::mutants::{Catcher, Mutant, Site, CATALOGUE};
use crate::protocol::{BalancerKind, DetectorKind};
use crate::reproduce::papers;

/// The matrix. When the campaign checks one mutant as the implementation
/// under test, only a correct-but-wasteful one's comparison with the
/// reference (which its runs, passing every property, cannot show).
pub fn run(o: &Options, shard: &Shard, progress: &dyn Progress) -> Vec<Case> {
    if let Some(m) = o.mutant {
        if !m.entry().caught_by(Catcher::Compare) || !o.selects("mutants", &format!("{m}/compare")) {
            return vec![];
        }
        return shard.unit("mutants", cost::cell(m, Catcher::Compare), || under_test(o, m, progress));
    }
    let cells: Vec<(Mutant, Catcher)> = CATALOGUE
        .iter()
        .flat_map(|e| e.caught_by.iter().map(move |&(c, _)| (e.mutant, c)))
        .filter(|(m, c)| o.selects("mutants", &format!("{m}/{}", c.name())))
        .collect();
    let units: Vec<_> = cells.into_iter().map(|(m, c)| (shard.take(cost::cell(m, c)), m, c)).collect();
    let mine: Vec<(Mutant, Catcher)> = units.iter().filter(|(u, ..)| u.mine).map(|&(_, m, c)| (m, c)).collect();
    progress.start("mutants", mine.len());
    let run = |&(m, c): &(Mutant, Catcher)| {
        let case = cell(o, m, c);
        progress.done("mutants", &case);
        case
    };
    let mut ran = crate::base::par::by_cost(&mine, |&(m, c)| cost::cell(m, c), run).into_iter();
    let cases = units
        .into_iter()
        .flat_map(|(unit, ..)| shard.put(unit, "mutants", unit.mine.then(|| ran.next().into_iter().collect())));
    cases.collect()
}

/// `lbcheck check --mutant M` for a mutant caught by comparison: fails if
/// its runs are worse than the reference's.
fn under_test(o: &Options, m: Mutant, progress: &dyn Progress) -> Vec<Case> {
    progress.start("mutants", 1);
    let caught = cell(o, m, Catcher::Compare);
    let verdict = if caught.verdict == Verdict::Pass { Verdict::Fail } else { Verdict::Pass };
    let failed = match verdict {
        Verdict::Fail => vec![m.entry().fails_under(Catcher::Compare).unwrap_or_default().to_string()],
        _ => vec![],
    };
    let case = Case { verdict, failed, ..caught };
    progress.done("mutants", &case);
    vec![case]
}

/// One cell: does checker `c` catch mutant `m`?
fn cell(o: &Options, m: Mutant, c: Catcher) -> Case {
    let name = format!("{m}/{}", c.name());
    let start = Instant::now();
    let (caught, detail, replay) = match c {
        Catcher::Run => by_runs(m),
        Catcher::Bounds => by_bounds(o, m),
        Catcher::Loom => {
            let (caught, detail) = external::loom(&caught_name(m));
            (caught, detail, Some(format!("cargo test --release --test loom_threads {}", caught_name(m))))
        }
        Catcher::Explore => by_explore(m),
        Catcher::Bitonic => by_bitonic(m),
        Catcher::Compare => by_compare(m),
    };
    let verdict = if caught { Verdict::Pass } else { Verdict::Fail };
    let failed = if caught { vec![] } else { vec![format!("{m} missed")] };
    Case { verdict, detail, failed, replay, secs: start.elapsed().as_secs_f64(), ..Case::skip("mutants", name, "") }
}

/// Caught if every demonstration run fails the listed property.
fn by_runs(m: Mutant) -> (bool, String, Option<String>) {
    let fails = m.entry().fails_under(Catcher::Run).unwrap_or_default();
    let runs: Vec<(bool, String)> = demos::of(m)
        .iter()
        .map(|spec| {
            let case = swarm::run_case("mutants", String::new(), spec);
            (case.failed.iter().any(|f| f == fails), spec.replay())
        })
        .collect();
    let caught = runs.iter().filter(|(c, _)| *c).count();
    let missed = runs.iter().find(|(c, _)| !c).map(|(_, r)| r.clone());
    let detail = format!("`{fails}` failed on {caught} of {} runs", runs.len());
    (caught == runs.len(), detail, missed.or_else(|| runs.first().map(|(_, r)| r.clone())))
}

/// Caught if exploring the mutant's tiny instance ([`explore::instance`],
/// with the first detector it acts in, else four-counter, `lbcheck
/// explore`'s default) finds a violation of the listed property.
fn by_explore(m: Mutant) -> (bool, String, Option<String>) {
    let fails = m.entry().fails_under(Catcher::Explore).unwrap_or_default();
    let detector = match m.entry().site {
        Site::Detectors(ds) => ds[0],
        _ => DetectorKind::FourCounter,
    };
    let balancer = match m.entry().site {
        Site::Balancer(b) => b,
        Site::AtomicMachine => BalancerKind::RandomDestination,
        _ => BalancerKind::RandomPolling,
    };
    let case = explore::case(String::new(), &explore::instance(balancer, detector, Some(m)), 8);
    (case.failed.iter().any(|f| f == fails), case.detail, case.replay)
}

/// Caught if 20 runs of the mutant's first demonstration configuration,
/// each passing every property, are significantly worse in the listed
/// quantity than 20 reference runs (`lbcheck compare`, α = 0.01; seeds
/// derived from 1).
fn by_compare(m: Mutant) -> (bool, String, Option<String>) {
    let fails = m.entry().fails_under(Catcher::Compare).unwrap_or_default();
    let base = demos::of(m).swap_remove(0);
    let batch = |mutant: Option<Mutant>, label: &str| -> Vec<(bool, Metrics)> {
        (0..MIN_RUNS as u32)
            .filter_map(|i| {
                let mut spec = RunSpec { mutant, ..base.clone() };
                spec.driver.set_seed(derive_seed(1, label, i));
                spec.run(None).ok().map(|r| (r.check.all_pass(), r.check.metrics))
            })
            .collect()
    };
    let (user, reference) = (batch(Some(m), "compare mutant"), batch(None, "compare"));
    let passing = user.iter().filter(|(pass, _)| *pass).count();
    let metrics = |b: Vec<(bool, Metrics)>| b.into_iter().map(|(_, m)| m).collect::<Vec<_>>();
    let rows = compare(&metrics(user), &metrics(reference), 0.01);
    let row = rows.iter().find(|c| c.quantity == fails);
    let worse = row.is_some_and(|c| c.worse);
    let detail = row.map_or(format!("no quantity `{fails}`"), |c| {
        format!(
            "{}: median {:.4} vs {:.4} ({}); {passing} of {MIN_RUNS} mutant runs pass every property",
            c.quantity, c.median.0, c.median.1, c.verdict
        )
    });
    (worse && passing == MIN_RUNS, detail, Some(base.replay()))
}

/// Caught if a parallel bitonic sort of 64 keys (with duplicates) on 8
/// ranks fails the listed property (`lbcheck bitonic --pes 8 --keys 64`).
fn by_bitonic(m: Mutant) -> (bool, String, Option<String>) {
    let fails = m.entry().fails_under(Catcher::Bitonic).unwrap_or_default();
    let run = crate::bitonic::hypercube::sort(&crate::bitonic::keys(64, 1), 8, crate::mutants::seams::bitonic(Some(m)));
    let failed: Vec<_> = crate::bitonic::check::properties(&run).into_iter().filter(|v| !v.pass).collect();
    let detail = failed.iter().map(|v| format!("{}: {}", v.name, v.detail)).collect::<Vec<_>>().join("; ");
    (
        failed.iter().any(|v| v.name == fails),
        detail,
        Some(format!("lbcheck bitonic --pes 8 --keys 64 --seed 1 --mutant {m}")),
    )
}

/// Caught if the bounds suite (the mutant's power profile) fails the listed claim.
/// A formula mutant acts in no run: [`by_formulas`]. Only the suite that
/// decides the cell runs ([`cost::deciding_suite`]: the first, in the
/// campaign's order, that acts on `m` and checks the claim; the verdict is
/// that suite's case, so the others' runs could not change it).
fn by_bounds(o: &Options, m: Mutant) -> (bool, String, Option<String>) {
    let fails = m.entry().fails_under(Catcher::Bounds).unwrap_or_default();
    if m.entry().site == Site::Formulas {
        return by_formulas(o, m, fails);
    }
    let Some(suite) = cost::deciding_suite(m) else { return (false, format!("no suite checks `{fails}`"), None) };
    if suite == Suite::RandomPolling {
        return by_polling_claim(o, m, fails);
    }
    let only = format!("bounds/{suite}");
    let under_test = Options { mutant: Some(m), only: vec![only], ..o.clone() };
    let (cases, ..) = bounds::run(&under_test, &Shard::whole(), &super::Silent);
    let case = cases.iter().find(|c| c.name == fails || c.name.ends_with(&format!("/{fails}")));
    let caught = case.is_some_and(|c| c.verdict == Verdict::Fail);
    let detail = case.map_or(format!("no claim `{fails}`"), |c| c.detail.clone());
    (caught, detail, case.and_then(|c| c.replay.clone()))
}

/// [`by_bounds`] in random polling's suite: only the runs its claim reads
/// ([`papers::run_for`]: the claim's verdict and figures are the whole
/// suite's), on the mutant's power profile.
fn by_polling_claim(o: &Options, m: Mutant, fails: &str) -> (bool, String, Option<String>) {
    let run = papers::run_for(Suite::RandomPolling, crate::bounds::plan::Profile::Quick, o.seed, Some(m), Some(fails));
    let Some(claim) = run.claims.iter().find(|c| c.name == fails) else {
        return (false, format!("no claim `{fails}`"), None);
    };
    let case = bounds::case(claim, run.seconds, &run.replay);
    (case.verdict == Verdict::Fail, case.detail, case.replay)
}

/// [`by_bounds`] for a formula mutant (`Site::Formulas`): it changes only
/// the transcribed bounds, never a run, so the suites' runs are the
/// reference's and only their formula claims
/// ([`crate::bounds::dispatch::formula_claims`]) can fail; those are
/// evaluated alone, without the runs (the same verdict in milliseconds).
fn by_formulas(o: &Options, m: Mutant, fails: &str) -> (bool, String, Option<String>) {
    let polling = std::iter::once(Suite::RandomPolling);
    let suites = polling.chain(super::cost::OTHER_SUITES).filter(|s| s.refuses(m).is_none());
    let found = suites.flat_map(|s| dispatch::formula_claims(s, Some(m)).into_iter().map(move |c| (s, c)));
    let hit = found.into_iter().find(|(_, c)| c.name == fails);
    let Some((suite, claim)) = hit else { return (false, format!("no claim `{fails}`"), None) };
    let detail = format!(
        "{suite}/{}: {} vs {} (the formula alone: {m} acts in no run)",
        claim.name, claim.measured, claim.bound
    );
    let replay = format!("lbcheck bounds --balancer {suite} --quick --seed-base {} --mutant {m}", o.seed);
    (claim.failed(), detail, Some(replay))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every formula mutant's bounds cell is decided by the formula claims
    /// alone, and catches it; the same claims pass on the reference.
    #[test]
    fn formula_mutants_are_caught_by_their_formula_claims_alone() {
        let formula = CATALOGUE.iter().filter(|e| e.site == Site::Formulas);
        let mutants: Vec<Mutant> = formula.map(|e| e.mutant).collect();
        assert!(mutants.len() >= 3, "{mutants:?}");
        for m in mutants {
            let (caught, detail, replay) = by_bounds(&Options::default(), m);
            assert!(caught, "{m}: {detail}");
            assert!(replay.is_some_and(|r| r.contains(&format!("--mutant {m}"))), "{m}");
        }
        let suites = std::iter::once(Suite::RandomPolling).chain(super::super::cost::OTHER_SUITES);
        assert!(suites.flat_map(|s| dispatch::formula_claims(s, None)).all(|c| c.passed()));
    }
}
