//! The JSON of a run, for `simulate` and `run` alike: the same key means the
//! same thing in the same unit, and `units` names the unit of every timed
//! key (model time in the simulator, nanoseconds on threads).

use std::time::Duration;

use serde_json::{json, Value};

use super::{rows, table, text};
use crate::check::{CheckReport, Reference};
use crate::harness::{AtomicFacts, RunResult, RunSpec};
use crate::runtime::threads::ThreadRun;
use crate::sim::Outcome;

/// What a run measured, checked or not.
pub struct Facts<'a> {
    /// Verdicts and metrics (`None`: the run was not checked).
    pub check: Option<&'a CheckReport>,
    /// How the driver stopped (`None`: not recorded).
    pub outcome: Option<Outcome>,
    /// The run ended by termination, not by a cap, a deadline or a stall.
    pub finished: bool,
    /// Wall-clock time of the run.
    pub wall: Duration,
    /// Wall-clock time of the sequential reference, when computed.
    pub reference_wall: Option<Duration>,
    /// Work units per PE, when the driver counts them.
    pub units: Option<&'a [u64]>,
    /// The atomic machine's figures (T, n, h, max(⌈n/p⌉, h)).
    pub atomic: Option<&'a AtomicFacts>,
    /// The sequential reference, when computed.
    pub reference: Option<&'a Reference>,
}

impl<'a> From<&'a RunResult> for Facts<'a> {
    fn from(r: &'a RunResult) -> Self {
        let (wall, reference_wall, units) = (r.wall, Some(r.reference_wall), r.units.as_deref());
        let atomic = r.atomic.as_ref();
        let reference = Some(&r.reference);
        let (outcome, finished) = (Some(r.outcome), r.outcome.finished());
        Facts { check: Some(&r.check), outcome, finished, wall, reference_wall, units, atomic, reference }
    }
}

impl<'a> From<&'a ThreadRun> for Facts<'a> {
    fn from(r: &'a ThreadRun) -> Self {
        let (units, wall) = (Some(&r.units[..]), r.elapsed);
        let finished = !(r.timed_out || r.stalled);
        Facts { check: None, outcome: None, finished, wall, reference_wall: None, units, atomic: None, reference: None }
    }
}

/// The run's JSON. Times `t_par`, `t_last_work` are in the run's `clock`;
/// `t_seq` is in work units; `*_secs` in wall-clock seconds (`units` says so).
pub fn json(spec: &RunSpec, facts: &Facts) -> Value {
    let m = facts.check.map(|c| &c.metrics);
    let whole = |m: &crate::check::Metrics| if spec.workload.prunes() { m.work_done } else { m.t_seq };
    let done = facts.units.map_or(m.map_or(0, whole), |u| u.iter().sum());
    let t_seq = if spec.workload.prunes() { m.map_or(0, |m| m.t_seq) } else { done };
    let wall = facts.wall.as_secs_f64();
    let header = spec.header();
    let mut out = json!({
        "workload": header.workload, "split": header.split, "balancer": header.balancer,
        "termination": header.detector, "driver": spec.driver.kind().to_string(),
        "mutant": spec.mutant().map(|m| m.to_string()), "pes": header.pes, "seed": spec.driver.seed(),
        "clock": header.clock, "t_par": m.and_then(|m| m.t_par), "t_last_work": m.and_then(|m| m.t_last_work),
        "t_seq": t_seq, "efficiency": efficiency(spec, facts), "messages": m.map(|m| &m.messages),
        "max_gen": m.map(|m| m.max_gen), "properties": facts.check.map(|c| &c.properties),
        "replay": spec.replay(), "metrics": m, "steps": facts.outcome.map(|o| o.steps),
        "finished": facts.finished, "nodes": done,
        "wall_secs": wall, "reference_wall_secs": facts.reference_wall.map(|d| d.as_secs_f64()),
        "nodes_per_sec": done as f64 / wall.max(1e-9), "units_per_pe": facts.units,
    });
    out["units"] = units(&header.clock.to_string());
    if let Some(a) = facts.atomic {
        out["atomic"] = json!(a);
    }
    if spec.workload.prunes() {
        optimum(&mut out, spec, facts);
    }
    out
}

/// A pruning branch-and-bound run (S-12): the best solution it found and
/// the sequential one, in the problem's own terms (knapsack: profit taken).
fn optimum(out: &mut Value, spec: &RunSpec, facts: &Facts) {
    let natural = |c: Option<u64>| c.map(|c| spec.workload.natural(c));
    out["optimum"] = json!(natural(facts.check.and_then(|c| c.metrics.best_goal)));
    out["sequential_optimum"] = json!(natural(facts.reference.and_then(|r| r.optimum())));
    out["objective"] = json!(if spec.workload.maximises() { "max" } else { "min" });
}

/// The unit of every timed key.
fn units(clock: &str) -> Value {
    json!({
        "t_par": clock, "t_last_work": clock, "t_seq": "work units", "nodes": "work units",
        "wall_secs": "seconds", "reference_wall_secs": "seconds", "nodes_per_sec": "work units per second",
    })
}

/// Sequential time / (P · parallel time), both in one unit: model time in
/// the simulator, wall-clock time on threads.
fn efficiency(spec: &RunSpec, facts: &Facts) -> Option<f64> {
    match spec.header().clock {
        crate::event::Clock::Work => facts.check.and_then(|c| c.metrics.efficiency),
        crate::event::Clock::Step => {
            facts.atomic.map(|a| a.n as f64 / (f64::from(spec.driver.pes()) * a.t.max(1) as f64))
        }
        _ => facts.reference_wall.map(|r| r.as_secs_f64() / (f64::from(spec.driver.pes()) * facts.wall.as_secs_f64())),
    }
}

/// The human form of a run's (or a trace's) JSON: headline numbers, then
/// one row per property, then the replay command.
pub fn human(out: &Value) -> String {
    const HEADLINE: [&str; 17] = [
        "trace",
        "events",
        "workload",
        "optimum",
        "sequential_optimum",
        "balancer",
        "termination",
        "driver",
        "mutant",
        "pes",
        "t_par",
        "t_last_work",
        "t_seq",
        "efficiency",
        "nodes_per_sec",
        "units_per_pe",
        "max_gen",
    ];
    let mut rows = rows(out, &HEADLINE);
    if let Some(a) = out.get("atomic").filter(|a| a.is_object()) {
        let (t, lower, n, h, ratio) = (&a["T"], &a["lower"], &a["n"], &a["h"], &a["ratio"]);
        let ratio = ratio.as_f64().unwrap_or(0.0);
        rows.push(("atomic", format!("T={t} max(⌈n/p⌉,h)={lower} n={n} h={h} T/(n/p+h)={ratio:.3}")));
        if let Some(x) = a.get("adversary").filter(|x| x.is_object()) {
            let (runs, complete, worst, best) = (&x["runs"], &x["complete"], &x["worst"], &x["best"]);
            rows.push((
                "adversary",
                format!("worst T={worst} best T={best} over {runs} choice sequences (complete: {complete})"),
            ));
        }
    }
    if let Some(msgs) = out["messages"].as_object() {
        let list: Vec<String> = msgs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        rows.push(("messages", list.join(" ")));
    }
    for (name, v) in out["properties"].as_object().into_iter().flatten() {
        let verdict = match (v["pass"].as_bool(), v["follows"].as_str()) {
            (Some(true), _) => "PASS".to_string(),
            (_, Some(cause)) => format!("FAIL (follows from {cause})"),
            _ => "FAIL".to_string(),
        };
        rows.push((name, format!("{verdict}  {}", text(&v["detail"]))));
    }
    let mut text = table(&rows);
    if let Some(r) = out.get("replay").and_then(Value::as_str) {
        text += &format!("replay: {r}\n");
    }
    text
}
