//! Checking the trace one run of the user's program wrote: it must exist
//! and parse, its header must name the run lbcheck asked for (the declared
//! balancer and detector, P, the workload), and every property is checked
//! against the sequential reference of the run's workload — lbcheck's,
//! not one the header claims.
//!
//! The header is the program's own. When it carries neither `run` nor
//! `spec`, the run's specification (what the program was handed) is
//! supplied as its `spec`, so that the checks that read machine
//! parameters (Δt for `detection_delay_bound`, …) read the run's.

use std::path::Path;

use crate::check::{check_events, CheckError, CheckReport, Metrics, Reference};
use crate::event::{read_trace, Event, TraceHeader};
use crate::harness::RunSpec;
use crate::problem::Workload;

/// The pseudo-property of a header that does not describe the run.
pub const MATCHES_RUN: &str = "trace_matches_run";

/// What the trace of one run showed.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    /// What failed: property names, or `trace_missing`, `trace_malformed`,
    /// [`MATCHES_RUN`].
    pub failed: Vec<String>,
    /// Why, one sentence each.
    pub reasons: Vec<String>,
    /// The run's metrics, when the trace could be checked.
    pub metrics: Option<Metrics>,
    /// When every live subproblem had reached generation h, if it did and
    /// the trace passed every property (`bounds::at_h`).
    pub at_h: Option<u64>,
}

impl Checked {
    fn fail(name: &str, why: String) -> Checked {
        Checked { failed: vec![name.into()], reasons: vec![why], ..Checked::default() }
    }

    /// True if the trace was checked and nothing failed.
    pub fn clean(&self) -> bool {
        self.failed.is_empty() && self.metrics.is_some()
    }
}

/// Checks the trace at `path` of the run `spec` against `reference`.
pub fn check(path: &Path, spec: &RunSpec, reference: &Reference) -> Checked {
    match std::fs::metadata(path) {
        Err(_) => return Checked::fail("trace_missing", format!("no trace at {}", path.display())),
        Ok(m) if m.len() == 0 => {
            return Checked::fail("trace_missing", format!("the trace {} is empty", path.display()))
        }
        Ok(_) => {}
    }
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return Checked::fail("trace_missing", format!("cannot open the trace {}: {e}", path.display())),
    };
    let mut events = match read_trace(std::io::BufReader::new(file)) {
        Ok(events) => events,
        Err(e) => return Checked::fail("trace_malformed", format!("malformed trace {}: {e}", path.display())),
    };
    let mut out = Checked::default();
    if let Some((_, Event::Header(h))) = events.first_mut() {
        out.reasons.extend(mismatches(h, spec));
        if !out.reasons.is_empty() {
            out.failed.push(MATCHES_RUN.into());
        }
        if h.run.is_none() && h.spec.is_none() {
            h.spec = Some(Box::new(serde_json::to_value(spec).expect("a run specification is JSON")));
        }
    }
    match check_events(&events, |_| Ok::<_, String>(*reference)) {
        Ok(report) => {
            out.add(&report);
            if out.failed.is_empty() {
                out.at_h = super::bounds::at_h(spec, &events);
            }
        }
        Err(CheckError::TooManyPes { pes }) => {
            return Checked::fail("trace_malformed", format!("header `pes` = {pes} is too large"))
        }
        Err(CheckError::Reference(e)) => unreachable!("the reference is given: {e}"),
    }
    out
}

impl Checked {
    /// The report's failures, first causes first.
    fn add(&mut self, report: &CheckReport) {
        for (name, v) in report.failures_in_order() {
            let follows = v.follows.map(|c| format!(" (follows from {c})")).unwrap_or_default();
            self.failed.push(name.to_string());
            self.reasons.push(format!("{name}{follows}: {}", v.detail));
        }
        self.metrics = Some(report.metrics.clone());
    }
}

/// How the header differs from the run (`[]`: it names the run).
fn mismatches(h: &TraceHeader, spec: &RunSpec) -> Vec<String> {
    let mut out = Vec::new();
    let mut differ = |field: &str, said: String, want: String| {
        if said != want {
            out.push(format!("{MATCHES_RUN}: the header says {field} `{said}`, the run is `{want}`"));
        }
    };
    differ("pes", h.pes.to_string(), spec.driver.pes().to_string());
    let own = spec.header();
    differ("balancer", h.balancer.clone(), own.balancer);
    differ("detector", h.detector.clone(), own.detector);
    let custom = h.workload == "custom" || h.workload.starts_with("custom:");
    if !custom {
        let canonical = h.workload.parse::<Workload>().map_or_else(|_| h.workload.clone(), |w| w.to_string());
        differ("workload", canonical, spec.workload.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Driver;
    use crate::protocol::{BalancerKind, DetectorKind};
    use crate::sim::SimConfig;

    fn spec() -> RunSpec {
        let sim = SimConfig { pes: 3, seed: 2, dt: 4, t_split: 1, latency: Some((1, 3)), ..SimConfig::default() };
        let w = "synthetic:size=40,split=balanced".parse().unwrap();
        RunSpec::new(w, BalancerKind::RandomPolling, DetectorKind::Energy, Driver::Sim(sim))
    }

    fn write(name: &str, text: &str) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!("lbcheck-impl-trace-{}-{name}", std::process::id()));
        std::fs::write(&p, text).unwrap();
        p
    }

    /// lbcheck's own trace of the run, with and without its `spec`.
    #[test]
    fn the_runs_own_trace_passes_with_or_without_its_spec() {
        let s = spec();
        let path = std::env::temp_dir().join(format!("lbcheck-impl-trace-{}-own", std::process::id()));
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        let result = s.run(Some(&mut file)).unwrap();
        drop(file);
        let reference = result.reference;
        let c = check(&path, &s, &reference);
        assert!(c.clean(), "{:?}", c.reasons);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let mut h: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
        h.as_object_mut().unwrap().remove("spec");
        lines[0] = h.to_string();
        let bare = write("bare", &(lines.join("\n") + "\n"));
        let c = check(&bare, &s, &reference);
        assert!(c.clean(), "{:?}", c.reasons);
        h["pes"] = 4.into();
        h["workload"] = "synthetic:size=41".into();
        lines[0] = h.to_string();
        let other = write("other", &(lines.join("\n") + "\n"));
        let c = check(&other, &s, &reference);
        assert_eq!(c.failed[0], MATCHES_RUN, "{:?}", c.reasons);
        assert!(c.reasons[0].contains("says pes `4`, the run is `3`"), "{:?}", c.reasons);
        assert!(c.reasons[1].contains("synthetic:size=41,atomic=1"), "{:?}", c.reasons);
        for p in [path, bare, other] {
            std::fs::remove_file(p).unwrap();
        }
    }

    #[test]
    fn missing_empty_and_malformed_traces() {
        let r = crate::harness::reference(&spec().workload, spec().split);
        let none = check(Path::new("/no/such/trace"), &spec(), &r);
        assert_eq!(none.failed, ["trace_missing"]);
        let empty = write("empty", "");
        assert!(check(&empty, &spec(), &r).reasons[0].contains("is empty"));
        let bad = write("bad", "{\"ev\":\"header\"}\nnot json\n");
        let c = check(&bad, &spec(), &r);
        assert_eq!(c.failed, ["trace_malformed"]);
        assert!(c.reasons[0].contains("line 1"), "{:?}", c.reasons);
        for p in [empty, bad] {
            std::fs::remove_file(p).unwrap();
        }
    }
}
