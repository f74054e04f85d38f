//! The runs the campaign page shows as timelines ([`super::gantt`]): one
//! small reference run per balancer, and the campaign's first failing run
//! (rerun from its [`RunSpec`], which a failed case keeps) beside the
//! reference run of the same configuration (the spec without its mutant).

use std::io;

use crate::base::Registered;
use crate::campaign::{Report, Verdict};
use crate::event::read_trace;
use crate::harness::{Driver, RunSpec};
use crate::protocol::{BalancerKind, DetectorKind};
use crate::sim::atomic::AtomicConfig;
use crate::sim::SimConfig;

use super::timeline::Timeline;

/// PEs of the reference runs the page shows.
pub const REFERENCE_PES: u32 = 8;

/// A run recorded for its timeline.
pub struct Recorded {
    /// The run.
    pub spec: RunSpec,
    /// Its timeline.
    pub timeline: Timeline,
    /// Its trace (JSON Lines).
    pub trace: Vec<u8>,
    /// The properties the run failed, first causes first.
    pub failed: Vec<String>,
}

impl Recorded {
    /// Runs `spec`, recording its trace.
    pub fn run(spec: &RunSpec) -> io::Result<Recorded> {
        let mut trace = Vec::new();
        let result = spec.run(Some(&mut trace))?;
        let events = read_trace(&trace[..]).map_err(io::Error::other)?;
        let timeline = Timeline::of(&events).map_err(io::Error::other)?;
        let failed = result.check.failures_in_order().iter().map(|(n, _)| n.to_string()).collect();
        Ok(Recorded { spec: spec.clone(), timeline, trace, failed })
    }
}

/// What the page shows: the first failure's pair, the references.
#[derive(Default)]
pub struct Shown {
    /// The first failing run and its configuration's reference run (if
    /// the failing run had a mutant; else only the failing run).
    pub failure: Option<(Recorded, Option<Recorded>)>,
    /// One reference run per balancer.
    pub references: Vec<Recorded>,
}

/// The runs `r`'s page shows (a run that cannot be recorded is left out).
pub fn shown(r: &Report) -> Shown {
    let references = BalancerKind::ALL.iter().filter_map(|&b| Recorded::run(&reference_spec(b, r.seed)).ok()).collect();
    Shown { failure: first_failure(r), references }
}

/// The first failed case with a run specification, rerun; a deterministic
/// driver's (simulator, atomic machine) before a threaded one's.
fn first_failure(r: &Report) -> Option<(Recorded, Option<Recorded>)> {
    let failed = || r.cases.iter().filter(|c| c.verdict == Verdict::Fail).filter_map(|c| c.spec.as_deref());
    let spec = failed().find(|s| !s.driver.real()).or_else(|| failed().next())?;
    let run = Recorded::run(spec).ok()?;
    let reference = spec.mutant.and_then(|_| Recorded::run(&RunSpec { mutant: None, ..spec.clone() }).ok());
    Some((run, reference))
}

/// A small run of `b` with a detector that fits it: four-counter (its
/// waves show) on 001's machine, the barrier on the phased machine, energy
/// on 004's atomic machine; [`REFERENCE_PES`] PEs.
pub fn reference_spec(b: BalancerKind, seed: u64) -> RunSpec {
    let sim = || Driver::Sim(SimConfig { pes: REFERENCE_PES, seed, ..SimConfig::default() });
    let (workload, detector, driver) = match b {
        BalancerKind::PriorityBnb | BalancerKind::RandomDestination => {
            let tree = if b == BalancerKind::PriorityBnb { "kz:depth=6" } else { "synthetic:size=256" };
            let atomic = AtomicConfig { pes: REFERENCE_PES, seed, ..AtomicConfig::default() };
            (tree, DetectorKind::Energy, Driver::Atomic(atomic))
        }
        _ if b.phased() => ("uts:default", DetectorKind::Barrier, sim()),
        _ => ("uts:default", DetectorKind::FourCounter, sim()),
    };
    RunSpec::new(workload.parse().expect("the reference runs' workloads parse"), b, detector, driver)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_balancer_has_a_reference_run_that_passes() {
        for &b in BalancerKind::ALL {
            let spec = reference_spec(b, 1);
            spec.validate().unwrap_or_else(|e| panic!("{b}: {e}"));
            let run = Recorded::run(&spec).unwrap();
            assert!(run.failed.is_empty(), "{b}: {:?}\n{}", run.failed, spec.replay());
            assert_eq!(run.timeline.lanes.len(), REFERENCE_PES as usize);
            assert!(run.timeline.lanes.iter().all(|l| !l.busy.is_empty()), "{b}: every PE worked");
        }
    }
}
