//! Drivers that run the protocols for real (../shared/ARCHITECTURE.md
//! "One protocol, many drivers").
//!
//! [`threads`] runs the unchanged sans-IO [`crate::protocol::Pe`]s on OS
//! threads, one mailbox each; every synchronisation goes through the crate's
//! private `sync` shim, so that `RUSTFLAGS="--cfg loom"` swaps in loom's
//! types and `tests/loom_threads.rs` explores the same code's interleavings
//! (`scripts/loom.sh`). [`mutants`] holds the driver's own deliberate bugs.
//! [`RealRun`] is the glue the CLI's `lbcheck run`, the tests and the
//! benchmarks use: workload, detector, threads, and checking of the recorded
//! event stream against the sequential reference.

mod mailbox;
pub mod mutants;
mod record;
pub mod threads;

use crate::check::{CheckReport, Checker, Reference};
use crate::event::{Event, TraceHeader, TRACE_VERSION};
use crate::problem::dfs::Strategy;
use crate::problem::{sequential, Task, Workload};
use crate::protocol::energy::Energy;
use crate::protocol::four_counter::FourCounter;
use crate::protocol::random_polling::{self, RandomPolling};
use crate::protocol::{Balancer, Detector, Pe, PeId};
use crate::sim::scenario::DetectorKind;
use threads::{ThreadConfig, ThreadRun};

/// Everything that defines a threaded run.
#[derive(Clone, Debug, PartialEq)]
pub struct RealRun {
    /// What is computed.
    pub workload: Workload,
    /// DFS-stack split strategy.
    pub split: Strategy,
    /// Termination detector.
    pub detector: DetectorKind,
    /// Threads, seed, Δt, recording, driver mutant.
    pub threads: ThreadConfig,
    /// Random polling's parameters (queue trimming, protocol mutant).
    pub polling: random_polling::Config,
}

impl RealRun {
    /// The trace header of this run (`t_split` 0: real splits are not charged
    /// separately; times are nanoseconds, or sequence numbers under loom).
    pub fn header(&self) -> TraceHeader {
        TraceHeader {
            version: TRACE_VERSION,
            pes: self.threads.pes,
            workload: self.workload.to_string(),
            split: self.split.to_string(),
            balancer: "random-polling".into(),
            detector: self.detector.to_string(),
            t_split: 0,
            clock: crate::sync::CLOCK,
        }
    }

    /// The sequential reference run's fingerprint and work.
    pub fn reference(&self) -> Reference {
        let seq = sequential::run(self.workload.root(self.split));
        Reference { fp: seq.log.fp, t_seq: seq.work }
    }

    /// Runs the threads (recording if `threads.record`).
    pub fn execute(&self) -> ThreadRun {
        let (p, m) = (self.polling, self.polling.mutant);
        let rp = move || RandomPolling::<Task>::new(p);
        match self.detector {
            DetectorKind::Energy => self.go(|_| Pe::new(rp(), Energy::new(false, m))),
            DetectorKind::EnergyTree => self.go(|_| Pe::new(rp(), Energy::new(true, m))),
            DetectorKind::FourCounter => self.go(|_| Pe::new(rp(), FourCounter::new(m))),
        }
    }

    fn go<B, D>(&self, make: impl Fn(PeId) -> Pe<B, D>) -> ThreadRun
    where
        B: Balancer<Task = Task> + Send + 'static,
        D: Detector<Task> + Send + 'static,
    {
        threads::run(&self.threads, self.workload.root(self.split), make)
    }

    /// Checks a recorded stream against `reference` with every property.
    pub fn check(&self, events: &[Event], reference: Reference) -> CheckReport {
        let mut checker = Checker::new(&self.header(), reference);
        for (i, e) in events.iter().enumerate() {
            checker.observe(i + 2, e); // line 1 is the header
        }
        checker.finish()
    }

    /// Runs with recording on and checks the stream.
    pub fn run_checked(&self, reference: Reference) -> (ThreadRun, CheckReport) {
        let mut me = self.clone();
        me.threads.record = true;
        let run = me.execute();
        let check = me.check(run.events.as_deref().expect("recorded"), reference);
        (run, check)
    }

    /// The command line that runs this again (thread interleavings differ).
    pub fn replay(&self) -> String {
        let t = &self.threads;
        let mut cmd = format!(
            "lbcheck run --balancer random-polling --termination {} --workload '{}' --split {} --threads {} --seed {} --dt {}",
            self.detector, self.workload, self.split, t.pes, t.seed, t.dt
        );
        if let Some(q) = self.polling.queue_limit {
            cmd += &format!(" --queue-limit {q}");
        }
        if t.initial_split {
            cmd += " --initial-split";
        }
        if let Some(m) = self.polling.mutant {
            cmd += &format!(" --mutant {m}");
        }
        if let Some(m) = t.mutant {
            cmd += &format!(" --mutant {m}");
        }
        if t.record {
            cmd += " --check";
        }
        cmd
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    fn spec(workload: &str, detector: DetectorKind, pes: u32, seed: u64) -> RealRun {
        RealRun {
            workload: workload.parse().expect("workload"),
            split: Strategy::default(),
            detector,
            threads: ThreadConfig { pes, seed, dt: 4, record: true, ..Default::default() },
            polling: random_polling::Config::default(),
        }
    }

    /// Real threads, every detector, P = 1..4, with and without the initial
    /// split (energy shares): every property holds on the recorded stream.
    #[test]
    fn reference_runs_pass_every_property() {
        for detector in [DetectorKind::Energy, DetectorKind::EnergyTree, DetectorKind::FourCounter] {
            for (pes, initial_split) in (1..=4).flat_map(|p| [(p, false), (p, true)]) {
                let mut s = spec("synthetic:size=1732,atomic=1,split=uniform", detector, pes, u64::from(pes));
                s.threads.initial_split = initial_split;
                let (run, report) = s.run_checked(s.reference());
                assert!(report.all_pass(), "{:?}\n{}", report.failures(), s.replay());
                assert_eq!(run.total_units(), 1732);
            }
        }
    }

    /// The checker sees a protocol mutant in a threaded run too (retried
    /// until a split happens: PE 0 may finish before PE 1 even asks).
    #[test]
    fn split_loses_fails_work_conservation() {
        let mut s = spec("synthetic:size=4000000,atomic=1", DetectorKind::FourCounter, 2, 0);
        s.threads.dt = 1000;
        s.polling.mutant = Some(crate::mutants::Mutant::SplitLoses);
        let reference = s.reference();
        for _ in 0..50 {
            let (run, report) = s.run_checked(reference);
            if run.events.expect("recorded").iter().any(|e| matches!(e, Event::Split { .. })) {
                let failed: Vec<_> = report.failures().iter().map(|(n, _)| *n).collect();
                assert!(failed.contains(&"work_conserved"), "{failed:?}");
                return;
            }
        }
        panic!("no run split in 50 tries");
    }
}
