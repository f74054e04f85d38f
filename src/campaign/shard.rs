//! A campaign split over processes (`mpirun -np N lbcheck check --mpi`,
//! issue 17 part 3): every process builds the same list of *units* (one
//! simulated or threaded run, one exploration, one bounds suite, one cell
//! of the adequacy matrix, one external tool), runs the units it owns and
//! hands their cases to rank 0, which puts them back in the campaign's
//! order.
//!
//! **The assignment** is decided twice, identically, by every process: a
//! dry pass over the campaign ([`Shard::dry`]) lists the units and their
//! estimated costs ([`super::cost`]) without running any; then the longest
//! processing time rule (Graham's LPT: units by decreasing cost, each to
//! the least loaded rank, ties to the lower rank and the earlier unit)
//! gives each unit an owner. Units of one *group* (those that share a
//! build or a cache; none does today) count as one unit and go to one rank. Both passes see the units in the same order
//! because the order depends only on the options (profile, seed, `--only`,
//! mutant), so no message is needed to agree on it.
//!
//! **The merge.** Where another rank owns a unit, a process puts one
//! placeholder case in its place ([`Case`] named `PLACEHOLDER` + the unit's
//! number); rank 0's report, with its placeholders replaced by the cases
//! the owners sent ([`Part`]), is the single-process report: the same
//! cases in the same order (only wall-clock seconds differ).

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::{Deserialize, Deserializer, Serialize};

use super::figures::{f64_or_nan, Figures};
use super::{Case, Report, Verdict, LAYERS};
use crate::harness::RunSpec;

/// The name prefix of a placeholder case (never a real case's: a NUL).
const PLACEHOLDER: &str = "\u{0}unit ";

/// Which units this process runs.
#[derive(Debug)]
enum Plan {
    /// Every unit (a single process).
    Whole,
    /// None: list the units' costs (the dry pass).
    Dry,
    /// Unit `i` is run by rank `owners[i]`.
    Owners(Vec<u32>),
}

/// This process's share of a campaign.
#[derive(Debug)]
pub struct Shard {
    rank: u32,
    plan: Plan,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// The number of the next unit.
    next: u32,
    /// Each unit's estimated cost and group, in order (the dry pass).
    costs: Vec<(f64, Option<&'static str>)>,
    /// The cases of the units this rank ran, for rank 0.
    kept: BTreeMap<u32, Vec<Case>>,
    /// The bounds suite's figures, if this rank ran it.
    figures: Option<Figures>,
}

/// A unit: its number and whether this process runs it.
#[derive(Clone, Copy, Debug)]
pub struct Unit {
    /// Its number in the campaign's order.
    pub id: u32,
    /// True if this process runs it.
    pub mine: bool,
}

/// What a rank hands rank 0: the cases of the units it ran.
#[derive(Debug, Serialize, Deserialize)]
pub struct Part {
    /// The rank.
    pub rank: u32,
    /// (unit, its cases) of every unit the rank ran.
    pub units: Vec<(u32, Vec<Case>)>,
    /// The bounds suite's figures, if the rank ran it.
    pub figures: Option<Figures>,
    /// (unit, index of the case in it, its spec) of each case with a run
    /// specification (not part of a case's JSON).
    #[serde(default)]
    pub specs: Vec<(u32, usize, RunSpec)>,
}

impl Shard {
    /// The whole campaign in this process.
    pub fn whole() -> Shard {
        Shard { rank: 0, plan: Plan::Whole, state: Mutex::default() }
    }

    /// True for the whole campaign in this process (no other ranks).
    pub fn is_whole(&self) -> bool {
        matches!(self.plan, Plan::Whole)
    }

    /// The dry pass: runs nothing, lists the units' costs.
    pub fn dry() -> Shard {
        Shard { rank: 0, plan: Plan::Dry, state: Mutex::default() }
    }

    /// Rank `rank`'s share, over `ranks` ranks, of the campaign whose
    /// units `dry` listed.
    pub fn of(rank: u32, ranks: u32, dry: &Shard) -> Shard {
        Shard { rank, plan: Plan::Owners(owners(&dry.lock().costs, ranks)), state: Mutex::default() }
    }

    /// The next unit, of estimated `cost` seconds. Called in the same order
    /// on every process, never from inside a unit.
    pub fn take(&self, cost: f64) -> Unit {
        self.take_in(None, cost)
    }

    /// [`Shard::take`] for a unit of `group` (all of a group's units go to one rank).
    pub fn take_in(&self, group: Option<&'static str>, cost: f64) -> Unit {
        let mut s = self.lock();
        let id = s.next;
        s.next += 1;
        s.costs.push((cost, group));
        let mine = match &self.plan {
            Plan::Whole => true,
            Plan::Dry => false,
            Plan::Owners(owners) => owners.get(id as usize) == Some(&self.rank),
        };
        Unit { id, mine }
    }

    /// The unit's cases as this process reports them: `cases` (kept for
    /// rank 0 on another rank) if it ran the unit, else a placeholder.
    pub fn put(&self, unit: Unit, layer: &'static str, cases: Option<Vec<Case>>) -> Vec<Case> {
        match cases {
            Some(cases) if unit.mine => {
                if self.rank != 0 {
                    self.lock().kept.insert(unit.id, cases.clone());
                }
                cases
            }
            _ => vec![placeholder(layer, unit.id)],
        }
    }

    /// Runs the next unit (cost `cost`, of `group` if any) with `f` if it is this process's.
    pub fn unit_in(
        &self,
        group: Option<&'static str>,
        layer: &'static str,
        cost: f64,
        f: impl FnOnce() -> Vec<Case>,
    ) -> Vec<Case> {
        let unit = self.take_in(group, cost);
        let cases = unit.mine.then(f);
        self.put(unit, layer, cases)
    }

    /// [`Shard::unit_in`] of no group.
    pub fn unit(&self, layer: &'static str, cost: f64, f: impl FnOnce() -> Vec<Case>) -> Vec<Case> {
        self.unit_in(None, layer, cost, f)
    }

    /// Keeps the bounds suite's figures for rank 0.
    pub fn keep_figures(&self, figures: &Option<Figures>) {
        if self.rank != 0 {
            self.lock().figures.clone_from(figures);
        }
    }

    /// What this rank hands rank 0.
    pub fn part(&self) -> Part {
        let mut s = self.lock();
        let units: Vec<(u32, Vec<Case>)> = std::mem::take(&mut s.kept).into_iter().collect();
        let with_spec = units.iter().flat_map(|(u, cases)| cases.iter().enumerate().map(move |(i, c)| (*u, i, c)));
        let specs = with_spec.filter_map(|(u, i, c)| Some((u, i, (**c.spec.as_ref()?).clone()))).collect();
        Part { rank: self.rank, units, figures: s.figures.take(), specs }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The owner of each unit: LPT over `ranks` ranks, each group one job.
fn owners(units: &[(f64, Option<&'static str>)], ranks: u32) -> Vec<u32> {
    let mut jobs: Vec<(f64, Vec<usize>)> = Vec::new();
    let mut groups: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, &(cost, group)) in units.iter().enumerate() {
        match group.and_then(|g| groups.get(g)) {
            Some(&j) => {
                jobs[j].0 += cost;
                jobs[j].1.push(i);
            }
            None => {
                group.map(|g| groups.insert(g, jobs.len()));
                jobs.push((cost, vec![i]));
            }
        }
    }
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by(|&a, &b| jobs[b].0.total_cmp(&jobs[a].0).then(a.cmp(&b)));
    let mut loads = vec![0.0f64; ranks.max(1) as usize];
    let mut owners = vec![0; units.len()];
    for j in order {
        let least = (0..loads.len()).min_by(|&a, &b| loads[a].total_cmp(&loads[b]).then(a.cmp(&b))).unwrap_or(0);
        loads[least] += jobs[j].0;
        jobs[j].1.iter().for_each(|&i| owners[i] = least as u32);
    }
    owners
}

fn placeholder(layer: &'static str, id: u32) -> Case {
    Case::skip(layer, format!("{PLACEHOLDER}{id}"), "run by another rank")
}

/// The unit a placeholder stands for.
fn placeholder_of(c: &Case) -> Option<u32> {
    c.name.strip_prefix(PLACEHOLDER).filter(|_| c.verdict == Verdict::Skip)?.parse().ok()
}

/// Rank 0's report with every placeholder replaced by the cases of `parts`
/// (the other ranks'); an error names a unit no rank reported.
pub fn assemble(mut report: Report, parts: Vec<Part>) -> Result<Report, String> {
    let mut units: BTreeMap<u32, Vec<Case>> = BTreeMap::new();
    for part in parts {
        if report.bounds.is_none() {
            report.bounds = part.figures;
        }
        units.extend(part.units);
        for (unit, i, spec) in part.specs {
            if let Some(c) = units.get_mut(&unit).and_then(|cases| cases.get_mut(i)) {
                c.spec = Some(Box::new(spec));
            }
        }
    }
    let mut cases = Vec::with_capacity(report.cases.len());
    for c in std::mem::take(&mut report.cases) {
        match placeholder_of(&c) {
            None => cases.push(c),
            Some(id) => cases.extend(units.remove(&id).ok_or_else(|| format!("no rank reported unit {id}"))?),
        }
    }
    if report.mutant.is_some() {
        super::swarm::cut_after_failure(&mut cases);
    }
    report.cases = cases;
    Ok(report)
}

/// A [`Case`] as read back (its layer a `String`, one of [`LAYERS`]).
#[derive(Deserialize)]
struct CaseWire {
    layer: String,
    name: String,
    verdict: Verdict,
    detail: String,
    failed: Vec<String>,
    replay: Option<String>,
    #[serde(deserialize_with = "f64_or_nan")]
    secs: f64,
    point: Option<super::Point>,
    #[serde(default)]
    fit: Option<super::Fit>,
}

impl<'de> Deserialize<'de> for Case {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Case, D::Error> {
        let CaseWire { layer, name, verdict, detail, failed, replay, secs, point, fit } = CaseWire::deserialize(d)?;
        let Some(&layer) = LAYERS.iter().find(|l| **l == layer) else {
            return Err(serde::de::Error::custom(format!("no layer `{layer}`")));
        };
        Ok(Case { layer, name, verdict, detail, failed, replay, secs, point, spec: None, fit })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lpt_gives_the_big_units_to_different_ranks_and_balances_the_rest() {
        let alone = |costs: &[f64]| costs.iter().map(|&c| (c, None)).collect::<Vec<_>>();
        assert_eq!(owners(&alone(&[1.0, 10.0, 1.0, 9.0, 1.0, 1.0]), 2), vec![1, 0, 0, 1, 1, 0]);
        assert_eq!(owners(&alone(&[1.0; 3]), 1), vec![0, 0, 0]);
        let g = Some("loom");
        assert_eq!(owners(&[(5.0, g), (6.0, None), (5.0, None), (5.0, g)], 2), vec![0, 1, 1, 0], "loom's 10 together");
    }

    #[test]
    fn every_rank_runs_only_its_units_and_rank_0_reassembles_the_order() {
        let run = |s: &Shard| -> Vec<Case> {
            (0..5)
                .flat_map(|i| s.unit("simulate", f64::from(i), || vec![Case::skip("simulate", i.to_string(), "")]))
                .collect()
        };
        let dry = Shard::dry();
        assert!(run(&dry).iter().all(|c| placeholder_of(c).is_some()));
        let (r0, r1) = (Shard::of(0, 2, &dry), Shard::of(1, 2, &dry));
        let (c0, c1) = (run(&r0), run(&r1));
        assert!(c0.iter().chain(&c1).filter(|c| placeholder_of(c).is_none()).count() == 5);
        let merged = assemble(Report::of(c0.clone()), vec![r1.part()]).expect("every unit");
        let names: Vec<_> = merged.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["0", "1", "2", "3", "4"]);
        assert!(assemble(Report::of(c0), vec![]).is_err(), "rank 1's units are missing");
    }

    #[test]
    fn a_part_reads_back_exactly_through_json() {
        let point =
            Some(super::super::Point { pes: 3, slowdown: 0.1 + 0.2, messages_per_pe: f64::NAN, efficiency: 1e-300 });
        let case =
            Case { point, secs: 1.0 / 3.0, replay: Some("r".into()), ..Case::skip("mutants", "m/x".into(), "d") };
        let part = Part { rank: 1, units: vec![(7, vec![case])], figures: None, specs: vec![] };
        let back: Part = serde_json::from_str(&serde_json::to_string(&part).unwrap()).expect("a part");
        let c = &back.units[0].1[0];
        assert_eq!((back.rank, back.units[0].0, c.layer, c.name.as_str(), c.secs), (1, 7, "mutants", "m/x", 1.0 / 3.0));
        let p = c.point.expect("a point");
        assert_eq!((p.slowdown, p.efficiency), (0.1 + 0.2, 1e-300));
        assert!(p.messages_per_pe.is_nan());
        let bad = serde_json::to_string(&part).unwrap().replace("mutants", "nope");
        assert!(serde_json::from_str::<Part>(&bad).is_err(), "an unknown layer");
    }

    /// A failed run's spec stays out of the case's JSON (`report.json`)
    /// but reaches rank 0 with it.
    #[test]
    fn a_failed_runs_spec_travels_beside_its_case() {
        let spec = super::super::demos::of("split-loses".parse().unwrap()).remove(0);
        let case = Case {
            verdict: Verdict::Fail,
            spec: Some(Box::new(spec.clone())),
            ..Case::skip("simulate", "x".into(), "d")
        };
        assert!(!serde_json::to_string(&case).unwrap().contains("spec"));
        let run =
            |s: &Shard| -> Vec<Case> { (0..2).flat_map(|_| s.unit("simulate", 1.0, || vec![case.clone()])).collect() };
        let dry = Shard::dry();
        run(&dry);
        let (r0, r1) = (Shard::of(0, 2, &dry), Shard::of(1, 2, &dry));
        let (c0, _) = (run(&r0), run(&r1));
        let part: Part = serde_json::from_str(&serde_json::to_string(&r1.part()).unwrap()).expect("a part");
        assert_eq!(part.specs.len(), 1, "rank 1 ran one of the two units");
        let report = Report::of(c0);
        let merged = assemble(report, vec![part]).expect("every unit");
        assert!(merged.cases.iter().all(|c| c.spec.as_deref() == Some(&spec)), "both ranks' cases keep their spec");
    }
}
