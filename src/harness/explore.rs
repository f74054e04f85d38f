//! The explorer's checked side: the run's PEs composed as for any driver,
//! every finished run checked by the whole checker (through the log
//! mutants' rewriting, as every driver's stream is), and the counterexample
//! written as a trace with its header, whose `run.replay` is the command
//! that explores again.

use std::io::{self, Write};
use std::time::Instant;

use super::compose::{Compose, Drive};
use super::driver::Driver;
use super::reference::reference;
use super::session::Session;
use super::spec::RunSpec;
use crate::check::{CheckReport, Checker, Reference};
use crate::event::{Event, TraceHeader};
use crate::mutants::log::Garble;
use crate::mutants::Mutant;
use crate::problem::Task;
use crate::protocol::erased::{ErasedBalancer, ErasedDetector};
use crate::protocol::{Balancer, Detector, Pe, PeId};
use crate::sim::atomic::network::{Chooser, Rules};
use crate::sim::atomic::{self, AtomicConfig};
use crate::sim::explore::search::{Found, Limits, Step, Violation};
use crate::sim::explore::{self, ExploreConfig};
use crate::sim::script::Script;
use crate::sim::SimConfig;

/// What an exploration found, checked.
#[derive(Debug)]
pub struct ExploreResult {
    /// The search's figures, summed over the seeds, and the shortest violation.
    pub found: Found,
    /// Seeds explored.
    pub seeds: u64,
    /// The seed of the violation, if any.
    pub seed: Option<u64>,
    /// The whole checker's verdicts on the counterexample, if there is one.
    pub check: Option<CheckReport>,
    /// The sequential reference.
    pub reference: Reference,
}

impl RunSpec {
    /// Explores every run of this spec's instance (its driver must be the
    /// simulator's machine) for `seeds` seeds of the PEs' random streams
    /// from the spec's (each seed completely, within `limits` in all),
    /// writing the shortest counterexample, if any, to `trace`; `replay`
    /// gives the command that explores a seed again.
    pub fn explore(
        &self,
        limits: Limits,
        seeds: u64,
        replay: &dyn Fn(u64) -> String,
        trace: Option<&mut dyn Write>,
    ) -> io::Result<ExploreResult> {
        self.explore_composed(&self.balancer, limits, seeds, replay, trace)
    }

    /// [`RunSpec::explore`] with the PEs built by `pes` (a user's balancer,
    /// say) in place of the spec's balancer.
    pub fn explore_composed(
        &self,
        pes: &impl Compose,
        limits: Limits,
        seeds: u64,
        replay: &dyn Fn(u64) -> String,
        trace: Option<&mut dyn Write>,
    ) -> io::Result<ExploreResult> {
        let reference = reference(&self.workload, self.split);
        let began = Instant::now();
        let mut best: Option<(u64, explore::Explored)> = None;
        let mut total = None;
        for seed in (self.driver.seed()..).take(seeds as usize) {
            let left = Limits { time: limits.time.saturating_sub(began.elapsed()), ..limits };
            let explored = self.explore_one(pes, seed, left, reference, &replay(seed));
            total = Some(add(total, &explored.found));
            let shorter = |b: &explore::Explored| explored.found.path.len() < b.found.path.len();
            if explored.found.violation.is_some() && best.as_ref().is_none_or(|(_, b)| shorter(b)) {
                best = Some((seed, explored));
            }
            if total.as_ref().is_some_and(|t: &Found| t.stopped.is_some()) {
                break;
            }
        }
        let mut found = total.expect("at least one seed");
        found.wall = began.elapsed();
        if found.stopped.as_ref().is_some_and(|s| s.starts_with("--max-seconds")) {
            found.stopped = Some(format!("--max-seconds {} reached", limits.time.as_secs()));
            // not the last seed's share
        }
        let (seed, check) = match best {
            Some((seed, explored)) => {
                (found.violation, found.path) = (explored.found.violation, explored.found.path);
                let header = self.explore_header(pes, seed, &replay(seed));
                let events = explored.trace.expect("a violation has a trace");
                (Some(seed), Some(checked(&header, reference, events, trace)?))
            }
            None => (None, None),
        };
        Ok(ExploreResult { found, seeds, seed, check, reference })
    }

    /// One seed's exploration: 001's machine, or 004's (every choice its
    /// arbiter leaves open).
    fn explore_one(
        &self,
        pes: &impl Compose,
        seed: u64,
        limits: Limits,
        reference: Reference,
        replay: &str,
    ) -> explore::Explored {
        let header = self.explore_header(pes, seed, replay);
        let (root, mutant) = (self.root(&reference), self.mutant());
        let check = Check { header: &header, reference, mutant };
        match self.driver {
            Driver::Sim(sim) => {
                let cfg = ExploreConfig { sim: SimConfig { seed, ..sim }, limits };
                pes.compose(self, ExploreDrive { cfg, root, check })
            }
            Driver::Atomic(c) => {
                let cfg = AtomicConfig { seed, max_runs: limits.max_states, ..c };
                let rules = self.atomic_rules(&cfg);
                pes.compose(self, AtomicExploreDrive { cfg, rules, root, check })
            }
            Driver::Threads(_) | Driver::Mpi(_) => panic!("explore runs on a simulated machine"),
        }
    }

    /// The header of an explored run: the run of `seed` (with the names
    /// of a user's protocol `pes` has), and the command that explores it again.
    fn explore_header(&self, pes: &impl Compose, seed: u64, replay: &str) -> TraceHeader {
        let mut run = self.clone();
        run.driver.set_seed(seed);
        TraceHeader { replay: Some(replay.to_string()), ..pes.header(&run) }
    }
}

/// Figures of two explorations added (the first stop kept).
fn add(total: Option<Found>, f: &Found) -> Found {
    let Some(mut t) = total else { return Found { violation: None, path: Vec::new(), ..f.clone() } };
    t.states += f.states;
    t.transitions += f.transitions;
    t.ends += f.ends;
    t.depth = t.depth.max(f.depth);
    t.complete &= f.complete;
    t.stopped = t.stopped.or_else(|| f.stopped.clone());
    t
}

/// The whole checker over `events` (the log mutant's rewriting, if any,
/// already applied), written to `trace` after `header`.
fn checked(
    header: &TraceHeader,
    reference: Reference,
    events: Vec<Event>,
    trace: Option<&mut dyn Write>,
) -> io::Result<CheckReport> {
    let mut session = Session::new(header, reference, trace)?;
    events.into_iter().for_each(|e| session.event(e));
    session.finish()
}

/// `events` as the checker sees them: rewritten by a log mutant, if any.
fn logged(mutant: Option<Mutant>, events: &[Event]) -> Vec<Event> {
    let Some(mut garble) = mutant.and_then(Garble::new) else { return events.to_vec() };
    let mut out = Vec::with_capacity(events.len());
    events.iter().for_each(|e| garble.push(e.clone(), &mut |x| out.push(x)));
    out
}

/// The first property the whole checker finds failing on `events`.
fn first_failure(header: &TraceHeader, reference: Reference, events: &[Event]) -> Option<Violation> {
    let mut checker = Checker::new(header, reference);
    events.iter().enumerate().for_each(|(i, e)| checker.observe(i + 2, e));
    let report = checker.finish();
    let mut failures = report.failures_in_order();
    failures.sort_by_key(|(name, _)| *name != "trace_well_formed"); // a malformed stream first: it explains the rest
    let (name, verdict) = failures.into_iter().next()?;
    Some(Violation { property: name.to_string(), detail: verdict.detail.clone() })
}

/// The whole checker, for the finished runs of one exploration.
#[derive(Clone, Copy)]
struct Check<'a> {
    header: &'a TraceHeader,
    reference: Reference,
    mutant: Option<Mutant>,
}

impl Check<'_> {
    /// The first property failing on `events` (as logged).
    fn failure(&self, events: &[Event]) -> Option<Violation> {
        first_failure(self.header, self.reference, &logged(self.mutant, events))
    }
}

struct ExploreDrive<'a> {
    cfg: ExploreConfig,
    root: Task,
    check: Check<'a>,
}

impl Drive for ExploreDrive<'_> {
    type Output = explore::Explored;
    fn drive<B, D>(self, make: impl Fn(PeId) -> Pe<B, D>) -> Self::Output
    where
        B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
        D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    {
        self.erased(&|pe| make(pe).erased())
    }
}

impl ExploreDrive<'_> {
    /// The explorer compiled once, not per pair of protocols.
    fn erased(self, make: &dyn Fn(PeId) -> Pe<ErasedBalancer, ErasedDetector>) -> explore::Explored {
        let check = self.check;
        let mut explored = explore::explore(
            &self.cfg,
            check.reference.pruning.is_none().then_some(check.reference.fp),
            self.root,
            make,
            |e| check.failure(e),
        );
        explored.trace = explored.trace.map(|events| logged(check.mutant, &events));
        explored
    }
}

/// 004's machine: every choice sequence its arbiter leaves open (all
/// arbitrations under `adversary`, the ties under `fifo`), stateless
/// ([`Script`]), each run checked whole; up to `max_runs` runs.
struct AtomicExploreDrive<'a> {
    cfg: AtomicConfig,
    rules: Rules,
    root: Task,
    check: Check<'a>,
}

impl Drive for AtomicExploreDrive<'_> {
    type Output = explore::Explored;
    fn drive<B, D>(self, make: impl Fn(PeId) -> Pe<B, D>) -> Self::Output
    where
        B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
        D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    {
        self.erased(&|pe| make(pe).erased())
    }
}

impl AtomicExploreDrive<'_> {
    /// The explorer compiled once, not per pair of protocols.
    fn erased(self, make: &dyn Fn(PeId) -> Pe<ErasedBalancer, ErasedDetector>) -> explore::Explored {
        let began = Instant::now();
        let mut found = Found::default();
        let mut prefix = Some(Vec::new());
        while let Some(p) = prefix.take() {
            if found.states == self.cfg.max_runs {
                found.stopped = Some(format!("--max-states {} reached (choice sequences)", self.cfg.max_runs));
                break;
            }
            let mut events = Vec::new();
            let chooser = Chooser::Script(Script::new(p));
            let out = atomic::run(&self.cfg, self.rules, chooser, self.root.clone(), make, &mut |e| events.push(e));
            let Chooser::Script(script) = out.chooser else { unreachable!("a script stays a script") };
            (found.states, found.ends) = (found.states + 1, found.ends + 1);
            found.transitions += out.outcome.steps;
            found.depth = found.depth.max(out.outcome.steps.min(u64::from(u32::MAX)) as u32);
            if let Some(v) = self.check.failure(&events) {
                found.violation = Some(v);
                found.path = vec![Step { action: None, choices: script.choices() }];
                found.wall = began.elapsed();
                return explore::Explored { found, trace: Some(logged(self.check.mutant, &events)) };
            }
            prefix = script.next();
        }
        found.complete = found.stopped.is_none();
        found.wall = began.elapsed();
        explore::Explored { found, trace: None }
    }
}
