//! Invariants over any event stream (../shared/ARCHITECTURE.md "Checks").
//!
//! One [`Checker`] reads the [`Event`]s of a run, whether the simulator feeds
//! them online or `lbcheck check-trace` reads them from a saved trace of any
//! implementation. It never trusts the protocol: every verdict is computed
//! from the events alone, against a [`Reference`] from the sequential run.
//!
//! Each property lives in its own file, as a small state machine with
//! `observe(line, event)` and `finish() -> Verdict`. The names are the ones
//! the SPIN models (`models/`) and Coq proofs (`proofs/`) use:
//!
//! | property                | file                   | source              |
//! |-------------------------|------------------------|---------------------|
//! | `trace_well_formed`     | `wellformed.rs`        | the trace format    |
//! | `work_conserved`        | `work.rs`              | 002 eq. (1)         |
//! | `energy_conserved`      | `energy.rs`            | 003 §14.7.4         |
//! | `no_early_termination`  | `early_termination.rs` | 001 §2, 003 §14.7.4 |
//! | `termination_detected`  | `termination.rs`       | 001 §2, 003 §14.7.4 |
//! | `requests_answered`     | `requests.rs`          | 001 Fig. 1          |
//! | `service_latency`       | `service.rs`           | 001 Lemma 1.2       |
//! | `detection_delay_bound` | `delay.rs`             | 001 Lemma 6, 002 §3 |
//! | `detector_conformance`  | `detector.rs`          | 001 §2, 003 §14.7.4 |
//! | `atomic_conformance`    | `atomic.rs`            | 004 §2              |
//! | `critical_expanded`     | `critical.rs`          | 004 §6              |
//! | `optimum_found`         | `optimum.rs`           | 004 §6              |
//! | `lower_bound`           | `lower_bound.rs`       | 000 eq. (1), 001 §1.2 |
//! | `fig3_transfers`        | `fig3.rs`              | 000 §6.1, 002 Thm 1 |
//! | `round_robin`           | `round_robin.rs`       | 003 §14.7.3         |
//! | `prune_sound`           | `prune.rs`             | 002 §4.5, S-12      |
//! | `stop_delay`            | `stop.rs`              | 002 §4.5, S-12      |
//! | `bound_delay`           | `propagation.rs`       | 002 §4.5, S-12      |
//! | `hop_latency`           | `hops.rs`              | 000 §2.1, S-1       |
//! | `phase_discipline`      | `phase.rs`             | 000 §3.1, S-2       |
//! | `simd_matching`         | `simd.rs`              | 000 §1.1, S-24      |
//! | `same_phase_exchange`   | `exchange.rs`          | 000 §6.3 Fig. 4, S-5 |
//!
//! What several properties read is kept once, in the checker's shared
//! book (`book.rs`, fed each event before the properties, which read it):
//! who holds work and which work messages are in flight, for
//! `no_early_termination` and `detection_delay_bound`, and which PEs
//! terminated, for `termination_detected` and `requests_answered` (one
//! byte per PE for all four); and every message's `send`, which its `recv`
//! finds there (`messages.rs`: one window of ids in flight for
//! `trace_well_formed`'s matching and the latency rules of
//! `requests_answered`, `detection_delay_bound`, `stop_delay`,
//! `bound_delay` and `hop_latency`, where each kept its own map before). A property whose header says it does not
//! apply (`atomic_conformance` off the atomic machine, `round_robin` off
//! Pacheco's round robins, `hop_latency` without a topology,
//! `simd_matching` off `simd-phase`) is not built: no event could change
//! its verdict, which a fresh one gives at the end. Online, the checker
//! runs on its own thread where the machine has two cores ([`Online`],
//! `pipe.rs`: batches of events over a bounded channel, the same verdicts).
//!
//! A failure that an earlier failure explains (a malformed trace breaks
//! everything after it; an early announcement or lost work also breaks the
//! liveness and the bound) is still reported, marked with the property it
//! [`follows`](Verdict::follows), so the first cause stands out.
//!
//! Metrics of the run (T_par, efficiency, message counts, queue lengths met
//! by requests, idle times, …) are collected alongside, in `metrics.rs`.
//!
//! ```
//! use lbcheck::check::{Checker, Reference};
//! use lbcheck::event::{Event, TraceHeader, TRACE_VERSION};
//! use lbcheck::problem::Fingerprint;
//!
//! let header = TraceHeader {
//!     version: TRACE_VERSION, pes: 1, workload: "w".into(), split: "s".into(),
//!     balancer: "b".into(), detector: "d".into(), t_split: 1, ..TraceHeader::default()
//! };
//! let mut fp = Fingerprint::EMPTY;
//! fp.add_range(0, 10);
//! let mut checker = Checker::new(&header, Reference { fp, t_seq: 10, critical: None, pruning: None, pruned_critical: None });
//! let events = [
//!     Event::Busy { t: 0, pe: 0 },
//!     Event::Work { t: 10, pe: 0, units: 10, gen: 0, fp, cost: None, goal: None, pruned_with: None, critical: None },
//!     Event::Idle { t: 10, pe: 0 },
//!     Event::Announce { t: 10, pe: 0 },
//!     Event::Terminated { t: 10, pe: 0 },
//!     Event::End { t: 10 },
//! ];
//! for (i, e) in events.iter().enumerate() {
//!     checker.observe(i + 2, e); // line 1 is the header
//! }
//! let report = checker.finish();
//! assert!(report.all_pass(), "{:?}", report.failures());
//! assert_eq!(report.metrics.efficiency, Some(1.0));
//! ```

mod activity;
mod atomic;
mod book;
mod critical;
mod delay;
mod detector;
mod early_termination;
mod energy;
mod exchange;
mod fig3;
mod global_rr;
mod hops;
mod idset;
mod inflight;
mod lower_bound;
mod messages;
mod metrics;
mod optimum;
mod phase;
mod pipe;
mod propagation;
mod prune;
mod requests;
mod round_robin;
mod safra;
mod service;
mod simd;
mod stop;
mod termination;
#[cfg(test)]
pub(crate) mod testutil;
mod unread;
mod wellformed;
mod work;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::event::{Event, TraceHeader};
use crate::problem::costtree::Critical;
use crate::problem::Fingerprint;
use book::Book;

pub use metrics::{IdleStats, Metrics, QueueStats};
pub use pipe::{Online, Piped};

/// The names of all properties, as they appear in a [`CheckReport`].
pub const PROPERTIES: [&str; 22] = [
    wellformed::WellFormed::NAME,
    work::WorkConserved::NAME,
    energy::EnergyConserved::NAME,
    early_termination::NoEarlyTermination::NAME,
    termination::TerminationDetected::NAME,
    delay::DetectionDelayBound::NAME,
    requests::RequestsAnswered::NAME,
    service::ServiceLatency::NAME,
    detector::DetectorConformance::NAME,
    atomic::AtomicConformance::NAME,
    critical::CriticalExpanded::NAME,
    optimum::OptimumFound::NAME,
    lower_bound::LowerBound::NAME,
    fig3::Fig3Transfers::NAME,
    round_robin::RoundRobin::NAME,
    prune::PruneSound::NAME,
    stop::StopDelay::NAME,
    propagation::BoundDelay::NAME,
    hops::HopLatency::NAME,
    phase::PhaseDiscipline::NAME,
    simd::SimdMatching::NAME,
    exchange::SamePhaseExchange::NAME,
];

/// Which failures may be consequences of which: a failure of a property on
/// the right, at or after (by line) a failure of the property on the left,
/// [`follows`](Verdict::follows) it.
const CASCADES: [(&str, &[&str]); 5] = [
    (wellformed::WellFormed::NAME, &PROPERTIES),
    (
        early_termination::NoEarlyTermination::NAME,
        &[termination::TerminationDetected::NAME, lower_bound::LowerBound::NAME, delay::DetectionDelayBound::NAME],
    ),
    (work::WorkConserved::NAME, &[lower_bound::LowerBound::NAME, fig3::Fig3Transfers::NAME]),
    (requests::RequestsAnswered::NAME, &[service::ServiceLatency::NAME]),
    (prune::PruneSound::NAME, &[optimum::OptimumFound::NAME, critical::CriticalExpanded::NAME]),
];

/// What property `name` checks: its file's documentation, as text (`None`
/// for an unknown name). `lbcheck check-trace --explain NAME` prints it.
pub fn explain(name: &str) -> Option<String> {
    let source = match name {
        "trace_well_formed" => include_str!("wellformed.rs"),
        "work_conserved" => include_str!("work.rs"),
        "energy_conserved" => include_str!("energy.rs"),
        "no_early_termination" => include_str!("early_termination.rs"),
        "termination_detected" => include_str!("termination.rs"),
        "detection_delay_bound" => include_str!("delay.rs"),
        "requests_answered" => include_str!("requests.rs"),
        "service_latency" => include_str!("service.rs"),
        "detector_conformance" => include_str!("detector.rs"),
        "atomic_conformance" => include_str!("atomic.rs"),
        "critical_expanded" => include_str!("critical.rs"),
        "optimum_found" => include_str!("optimum.rs"),
        "lower_bound" => include_str!("lower_bound.rs"),
        "fig3_transfers" => include_str!("fig3.rs"),
        "round_robin" => include_str!("round_robin.rs"),
        "prune_sound" => include_str!("prune.rs"),
        "stop_delay" => include_str!("stop.rs"),
        "bound_delay" => include_str!("propagation.rs"),
        "hop_latency" => include_str!("hops.rs"),
        "phase_discipline" => include_str!("phase.rs"),
        "simd_matching" => include_str!("simd.rs"),
        "same_phase_exchange" => include_str!("exchange.rs"),
        _ => return None,
    };
    let doc = source.lines().map_while(|l| l.strip_prefix("//!")).map(|l| l.strip_prefix(' ').unwrap_or(l));
    Some(doc.collect::<Vec<_>>().join("\n").replace("[`", "`").replace("`]", "`") + "\n")
}

/// What the sequential run of the workload did (computed by the caller).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reference {
    /// Fingerprint of all the work of the sequential run.
    pub fp: Fingerprint,
    /// Work units of the sequential run (T_seq).
    pub t_seq: u64,
    /// A branch-and-bound workload's optimum and critical subtree (004 §6).
    pub critical: Option<Critical>,
    /// A pruning branch-and-bound workload (S-12): the sequential optimum.
    /// A parallel run examines other nodes than the sequential one, so
    /// `work_conserved` does not apply and `lower_bound` counts the run's
    /// own work.
    pub pruning: Option<u64>,
    /// A pruning workload: the fingerprint of its critical nodes, those
    /// whose bound beats the optimum, which every correct run expands
    /// (`critical_expanded`; the bounds are monotone along paths).
    pub pruned_critical: Option<Fingerprint>,
}

impl Reference {
    /// The optimum a branch-and-bound run must find, if the workload has one.
    pub fn optimum(&self) -> Option<u64> {
        self.critical.map(|c| c.optimum).or(self.pruning)
    }
}

/// The outcome of one property.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// True if the property holds.
    pub pass: bool,
    /// What was found (on failure: what is wrong and where).
    pub detail: String,
    /// 1-based trace line (or event index + 1 when online) of the first
    /// violation, when the violation has a place in the stream.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// For a failure: the property whose earlier failure likely caused this
    /// one (a consequence, not a second bug); `None` for a first cause.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follows: Option<&'static str>,
}

impl Verdict {
    /// A passing verdict.
    pub fn pass(detail: impl Into<String>) -> Verdict {
        Verdict { pass: true, detail: detail.into(), line: None, follows: None }
    }

    /// A failing verdict, at `line` if the violation has a place.
    pub fn fail(detail: impl Into<String>, line: Option<usize>) -> Verdict {
        Verdict { pass: false, detail: detail.into(), line, follows: None }
    }
}

/// One property: a state machine over the events.
trait Property {
    /// The property's name (shared with the SPIN models and Coq proofs).
    const NAME: &'static str;
    /// Feeds one event; `line` identifies it in messages; `book` holds
    /// the records several properties share, already fed this event.
    fn observe(&mut self, line: usize, event: &Event, book: &Book);
    /// Ends the stream; `m` holds what every property may share (T_par,
    /// the last work, the largest generation…), computed once; `book` the
    /// shared records as of the end.
    fn finish(self, m: &Metrics, book: &Book) -> Verdict;
}

/// Verdicts and metrics of one run.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// Verdict per property name (see [`PROPERTIES`]).
    pub properties: BTreeMap<&'static str, Verdict>,
    /// Measurements of the run.
    pub metrics: Metrics,
}

impl CheckReport {
    /// True if every property passed.
    pub fn all_pass(&self) -> bool {
        self.properties.values().all(|v| v.pass)
    }

    /// The properties that failed, by name.
    pub fn failures(&self) -> Vec<(&'static str, &Verdict)> {
        self.properties.iter().filter(|(_, v)| !v.pass).map(|(k, v)| (*k, v)).collect()
    }

    /// The failures in order: first causes before the failures that follow
    /// them, each group by line (those judged at the end of the stream last).
    pub fn failures_in_order(&self) -> Vec<(&'static str, &Verdict)> {
        let mut f = self.failures();
        f.sort_by_key(|(_, v)| (v.follows.is_some(), v.line.unwrap_or(usize::MAX)));
        f
    }

    /// Marks each failure that an earlier failure explains ([`CASCADES`]).
    fn mark_cascades(&mut self) {
        let at = |v: &Verdict| v.line.unwrap_or(usize::MAX);
        for (cause, effects) in CASCADES {
            let Some(start) = self.properties.get(cause).filter(|v| !v.pass && v.follows.is_none()).map(at) else {
                continue;
            };
            for (name, v) in self.properties.iter_mut() {
                if *name != cause && effects.contains(name) && !v.pass && v.follows.is_none() && at(v) >= start {
                    v.follows = Some(cause);
                }
            }
        }
    }
}

/// The invariant checker: feed it every event of a run, then [`finish`](Checker::finish).
///
/// A [`Event::Header`] may be fed as the first event (as
/// [`check_events`] does) or left out (the simulator passes the header to
/// [`Checker::new`] only); anywhere else it is a `trace_well_formed` failure.
pub struct Checker {
    well_formed: wellformed::WellFormed,
    work: work::WorkConserved,
    energy: energy::EnergyConserved,
    early: early_termination::NoEarlyTermination,
    detected: termination::TerminationDetected,
    delay: delay::DetectionDelayBound,
    requests: requests::RequestsAnswered,
    service: service::ServiceLatency,
    detector: detector::DetectorConformance,
    atomic: Option<atomic::AtomicConformance>,
    critical: critical::CriticalExpanded,
    optimum: optimum::OptimumFound,
    lower_bound: lower_bound::LowerBound,
    fig3: fig3::Fig3Transfers,
    round_robin: Option<round_robin::RoundRobin>,
    prune: prune::PruneSound,
    stop: stop::StopDelay,
    propagation: propagation::BoundDelay,
    hops: Option<hops::HopLatency>,
    phase: phase::PhaseDiscipline,
    simd: Option<simd::SimdMatching>,
    exchange: exchange::SamePhaseExchange,
    metrics: metrics::Collector,
    /// What several properties read, kept once ([`book`]).
    book: Book,
    /// The header, for the verdicts of the properties it says do not apply
    /// (`None` above: not built, since no event could change their verdict;
    /// at the end a fresh one gives it).
    header: TraceHeader,
}

/// The largest PE count a trace may declare, 2^20 (the simulator's
/// largest, [`crate::sim::MAX_PES`]): the checker keeps about 170 bytes of
/// state for every declared PE, whether it appears in the trace or not, so
/// 2^20 PEs take 175 MB (measured: peak RSS of `check-trace` on a
/// 47-line trace declaring 2^20 PEs, 179 MB against 8 MB at 2 PEs).
pub const MAX_PES: u32 = 1 << 20;

/// How many events ahead [`Checker::observe_batch`] prefetches: enough for
/// a memory access (≈ 100 ns) to arrive while the events before it are
/// checked (≈ 50–100 ns each), few enough to stay in the L1 cache.
const LOOKAHEAD: usize = 4;

/// Prefetches `v[pe]`, if there is one ([`Checker::prefetch`]).
#[inline]
fn ahead<T>(v: &[T], pe: u32) {
    if let Some(x) = v.get(pe as usize) {
        crate::sim::prefetch::prefetch(x);
    }
}

impl Checker {
    /// A checker for a run described by `header`, compared with `reference`.
    pub fn new(header: &TraceHeader, reference: Reference) -> Checker {
        let pes = header.pes;
        Checker {
            well_formed: wellformed::WellFormed::new(header),
            work: work::WorkConserved::new(reference),
            energy: energy::EnergyConserved::new(header),
            early: early_termination::NoEarlyTermination::new(),
            detected: termination::TerminationDetected::new(),
            delay: delay::DetectionDelayBound::new(header),
            requests: requests::RequestsAnswered::new(header),
            service: service::ServiceLatency::new(header),
            detector: detector::DetectorConformance::new(header),
            atomic: Some(atomic::AtomicConformance::new(header)).filter(|p| p.applies()),
            critical: critical::CriticalExpanded::new(reference, header),
            optimum: optimum::OptimumFound::new(reference, stop::first_solution(header)),
            lower_bound: lower_bound::LowerBound::new(header, reference.pruning.is_some()),
            fig3: fig3::Fig3Transfers::new(header),
            round_robin: Some(round_robin::RoundRobin::new(header)).filter(|p| p.applies()),
            prune: prune::PruneSound::default(),
            stop: stop::StopDelay::new(header),
            propagation: propagation::BoundDelay::new(header, reference.pruning.is_some()),
            hops: Some(hops::HopLatency::new(header)).filter(|p| p.applies()),
            phase: phase::PhaseDiscipline::new(header),
            simd: Some(simd::SimdMatching::new(header)).filter(|p| p.applies()),
            exchange: exchange::SamePhaseExchange::new(header),
            metrics: metrics::Collector::new(pes, reference.t_seq),
            book: Book::new(pes),
            header: header.clone(),
        }
    }

    /// Feed one event; `line` identifies it in error messages.
    pub fn observe(&mut self, line: usize, event: &Event) {
        // One arm per kind of event, each feeding every property: within
        // an arm the event's kind is known, so each property's own match
        // on it is resolved at compile time and the properties it does
        // not concern cost nothing (one branch on the kind per event, not
        // one per property: issue 30).
        match event {
            Event::Send { .. } => self.observe_each(line, event),
            Event::Recv { .. } => self.observe_each(line, event),
            Event::Work { .. } => self.observe_each(line, event),
            Event::Busy { .. } => self.observe_each(line, event),
            Event::Idle { .. } => self.observe_each(line, event),
            Event::Energy { .. } => self.observe_each(line, event),
            Event::Split { .. } => self.observe_each(line, event),
            _ => self.observe_each(line, event),
        }
    }

    /// Asks for the acting PE's records, feeds `event` to the book, then
    /// to every property.
    #[inline(always)]
    fn observe_each(&mut self, line: usize, event: &Event) {
        if let Some(pe) = energy::acting_pe(event) {
            self.prefetch(pe);
        }
        self.book.observe(line, event);
        let book = &self.book;
        self.well_formed.observe(line, event, book);
        self.work.observe(line, event, book);
        self.energy.observe(line, event, book);
        self.early.observe(line, event, book);
        self.detected.observe(line, event, book);
        self.delay.observe(line, event, book);
        self.requests.observe(line, event, book);
        self.service.observe(line, event, book);
        self.detector.observe(line, event, book);
        if let Some(p) = &mut self.atomic {
            p.observe(line, event, book);
        }
        self.critical.observe(line, event, book);
        self.optimum.observe(line, event, book);
        self.lower_bound.observe(line, event, book);
        self.fig3.observe(line, event, book);
        if let Some(p) = &mut self.round_robin {
            p.observe(line, event, book);
        }
        self.prune.observe(line, event, book);
        self.stop.observe(line, event, book);
        self.propagation.observe(line, event, book);
        if let Some(p) = &mut self.hops {
            p.observe(line, event, book);
        }
        self.phase.observe(line, event, book);
        if let Some(p) = &mut self.simd {
            p.observe(line, event, book);
        }
        self.exchange.observe(line, event, book);
        self.metrics.observe(event);
    }

    /// Feeds a batch of `(line, event)` in order, as [`Checker::observe`]
    /// does one by one, asking for the PE records of the event
    /// four places on (`LOOKAHEAD`) while checking this one: at large P they are
    /// cache misses, and asked for early they have arrived when needed
    /// (issue 30; the simulator does the same, [`crate::sim::agenda`]). The
    /// verdicts are those of one-by-one feeding: a prefetch changes no value.
    pub fn observe_batch(&mut self, batch: &[(usize, Event)]) {
        for (i, (line, event)) in batch.iter().enumerate() {
            if let Some(pe) = batch.get(i + LOOKAHEAD).and_then(|(_, e)| energy::acting_pe(e)) {
                self.prefetch(pe);
            }
            self.observe(*line, event);
        }
    }

    /// Asks for the records of PE `pe` in every per-PE array the
    /// properties keep, all at once: at large P each is a cache miss, and
    /// asked for together they arrive together instead of one after the
    /// other as each property reads its own (issue 30).
    fn prefetch(&self, pe: u32) {
        self.well_formed.prefetch(pe);
        self.requests.prefetch(pe);
        self.service.prefetch(pe);
        self.metrics.prefetch(pe);
        self.book.prefetch(pe);
        self.energy.prefetch(pe);
        self.detector.prefetch(pe);
    }

    /// Gives the reference of a checker built before it was known (with
    /// [`crate::harness::HeaderReference::online`]: `check-trace` runs the
    /// sequential reference after reading the trace, bounded by the work
    /// the trace did). Call before [`Checker::finish`]; the cost tree's
    /// optimum and whether the workload prunes must be those given to
    /// [`Checker::new`].
    pub fn set_reference(&mut self, reference: Reference) {
        self.work.set_reference(reference, false);
        self.critical.set_reference(reference);
        self.optimum.set_reference(reference);
        self.metrics.set_t_seq(reference.t_seq);
    }

    /// Says the sequential run was stopped after `partial.t_seq` units,
    /// more than the trace's work (`partial` holds that part's
    /// fingerprint): `work_conserved` fails, work was lost.
    pub fn reference_exceeds(&mut self, partial: Reference) {
        self.work.set_reference(partial, true);
        self.metrics.set_t_seq(partial.t_seq);
    }

    /// Ends the stream and returns the verdicts and metrics.
    pub fn finish(self) -> CheckReport {
        let metrics = self.metrics.finish();
        let mut properties = BTreeMap::new();
        let mut put = |name, verdict| properties.insert(name, verdict);
        put(wellformed::WellFormed::NAME, self.well_formed.finish(&metrics, &self.book));
        put(work::WorkConserved::NAME, self.work.finish(&metrics, &self.book));
        put(energy::EnergyConserved::NAME, self.energy.finish(&metrics, &self.book));
        put(early_termination::NoEarlyTermination::NAME, self.early.finish(&metrics, &self.book));
        put(termination::TerminationDetected::NAME, self.detected.finish(&metrics, &self.book));
        put(delay::DetectionDelayBound::NAME, self.delay.finish(&metrics, &self.book));
        put(requests::RequestsAnswered::NAME, self.requests.finish(&metrics, &self.book));
        put(service::ServiceLatency::NAME, self.service.finish(&metrics, &self.book));
        put(detector::DetectorConformance::NAME, self.detector.finish(&metrics, &self.book));
        let h = &self.header;
        let atomic = self.atomic.unwrap_or_else(|| atomic::AtomicConformance::new(h));
        put(atomic::AtomicConformance::NAME, atomic.finish(&metrics, &self.book));
        put(critical::CriticalExpanded::NAME, self.critical.finish(&metrics, &self.book));
        put(optimum::OptimumFound::NAME, self.optimum.finish(&metrics, &self.book));
        put(lower_bound::LowerBound::NAME, self.lower_bound.finish(&metrics, &self.book));
        put(fig3::Fig3Transfers::NAME, self.fig3.finish(&metrics, &self.book));
        let round_robin = self.round_robin.unwrap_or_else(|| round_robin::RoundRobin::new(h));
        put(round_robin::RoundRobin::NAME, round_robin.finish(&metrics, &self.book));
        put(prune::PruneSound::NAME, self.prune.finish(&metrics, &self.book));
        put(stop::StopDelay::NAME, self.stop.finish(&metrics, &self.book));
        put(propagation::BoundDelay::NAME, self.propagation.finish(&metrics, &self.book));
        put(hops::HopLatency::NAME, self.hops.unwrap_or_else(|| hops::HopLatency::new(h)).finish(&metrics, &self.book));
        put(phase::PhaseDiscipline::NAME, self.phase.finish(&metrics, &self.book));
        put(
            simd::SimdMatching::NAME,
            self.simd.unwrap_or_else(|| simd::SimdMatching::new(h)).finish(&metrics, &self.book),
        );
        put(exchange::SamePhaseExchange::NAME, self.exchange.finish(&metrics, &self.book));
        let mut report = CheckReport { properties, metrics };
        report.mark_cascades();
        report
    }
}

/// Why a trace could not be checked at all ([`check_events`]); a property
/// that fails is a [`Verdict`], not an error.
#[derive(Debug, thiserror::Error)]
pub enum CheckError<E = String> {
    /// The header declares more PEs than the checker supports ([`MAX_PES`]).
    #[error("line 1: header `pes` = {pes} exceeds the supported {MAX_PES} (the checker keeps about 170 bytes for every PE the header declares: 2^20 PEs take 175 MB)")]
    TooManyPes {
        /// The header's `pes`.
        pes: u32,
    },
    /// The sequential reference could not be computed from the header:
    /// the caller's error, as is.
    #[error("{0}")]
    Reference(E),
}

/// Convenience: checks a whole trace read by [`crate::event::read_trace`].
///
/// The first event must be the [`Event::Header`]; otherwise the report holds
/// only a `trace_well_formed` failure on line 1 (nothing else can be checked
/// without knowing the run). `reference_for` computes the sequential
/// reference from the header; its error is returned as is
/// ([`CheckError::Reference`]).
pub fn check_events<E>(
    events: &[(usize, Event)],
    reference_for: impl FnOnce(&TraceHeader) -> Result<Reference, E>,
) -> Result<CheckReport, CheckError<E>> {
    let Some((_, Event::Header(header))) = events.first() else {
        return Ok(headerless());
    };
    if header.pes > MAX_PES {
        return Err(CheckError::TooManyPes { pes: header.pes });
    }
    let mut checker = Checker::new(header, reference_for(header).map_err(CheckError::Reference)?);
    for (line, event) in events {
        checker.observe(*line, event);
    }
    Ok(checker.finish())
}

fn headerless() -> CheckReport {
    let why = "line 1: the first line of a trace must be the `header` event";
    let verdict = Verdict::fail(why, Some(1));
    let properties = BTreeMap::from([(wellformed::WellFormed::NAME, verdict)]);
    CheckReport { properties, metrics: Metrics::default() }
}

/// A violation found at `line`, from a check's error ("line N: why").
fn violation_at(line: usize, checked: Result<(), impl std::fmt::Display>) -> Option<(usize, String)> {
    checked.err().map(|why| (line, format!("line {line}: {why}")))
}

/// Lists at most a few items, then how many more there are.
fn list_some<T: std::fmt::Display>(items: &[T]) -> String {
    const SHOWN: usize = 8;
    let n = items.len();
    let mut out: Vec<String> = items.iter().take(SHOWN).map(|x| x.to_string()).collect();
    if n > SHOWN {
        out.push(format!("… ({} more)", n - SHOWN));
    }
    out.join(", ")
}

#[cfg(test)]
mod tests {
    use super::testutil::*;
    use super::*;

    #[test]
    fn correct_streams_pass_every_property() {
        for (pes, events) in [(1, single_pe()), (2, two_pes())] {
            let r = run(pes, events);
            assert!(r.all_pass(), "{:?}", r.failures());
            assert_eq!(r.properties.keys().copied().collect::<Vec<_>>(), {
                let mut names = PROPERTIES.to_vec();
                names.sort_unstable();
                names
            });
        }
    }

    #[test]
    fn online_without_header_event_passes_too() {
        let events = two_pes();
        let mut c = Checker::new(&header(2), reference_of(&events));
        events.iter().enumerate().for_each(|(i, e)| c.observe(i + 1, e));
        let r = c.finish();
        assert!(r.all_pass(), "{:?}", r.failures());
    }

    #[test]
    fn failures_name_the_failing_properties() {
        let mut events = single_pe();
        events.retain(|e| !matches!(e, Event::Idle { .. }));
        let r = run(1, events);
        let names: Vec<&str> = r.failures().iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["no_early_termination"]);
        assert!(!r.all_pass());
    }

    fn numbered(events: Vec<Event>) -> Vec<(usize, Event)> {
        events.into_iter().enumerate().map(|(i, e)| (i + 1, e)).collect()
    }

    #[test]
    fn check_events_reads_a_whole_trace() {
        let mut events = vec![Event::Header(Box::new(header(2)))];
        events.extend(two_pes());
        let want = reference_of(&events);
        let r = check_events(&numbered(events.clone()), |h| {
            assert_eq!(h.pes, 2);
            Ok::<_, String>(want)
        })
        .unwrap();
        assert!(r.all_pass(), "{:?}", r.failures());
        let err = check_events(&numbered(events.clone()), |_| Err("no such workload")).unwrap_err();
        assert!(matches!(err, CheckError::Reference("no such workload")), "{err:?}");
        assert_eq!(err.to_string(), "no such workload");
        let mut big = events;
        let Event::Header(h) = &mut big[0] else { unreachable!() };
        h.pes = MAX_PES + 1;
        let err = check_events(&numbered(big), |_| Err("unused")).unwrap_err();
        assert!(matches!(err, CheckError::TooManyPes { pes } if pes == MAX_PES + 1), "{err:?}");
        let says = format!("line 1: header `pes` = {} exceeds the supported {MAX_PES} (the checker keeps", MAX_PES + 1);
        assert!(err.to_string().starts_with(&says), "{err}");
    }

    #[test]
    fn check_events_without_header_fails_on_line_1() {
        let never = |_: &TraceHeader| -> Result<Reference, std::convert::Infallible> { unreachable!() };
        let r = check_events(&numbered(single_pe()), never).unwrap();
        let v = assert_fails("trace_well_formed", &r, Some(1));
        assert!(v.detail.contains("must be the `header`"), "{}", v.detail);
        assert!(!r.all_pass());
        assert!(!check_events(&[], never).unwrap().all_pass());
    }

    #[test]
    fn every_property_is_explained() {
        for name in PROPERTIES {
            let text = explain(name).unwrap_or_else(|| panic!("{name} has no explanation"));
            assert!(text.starts_with(&format!("`{name}`")), "{name}: {text}");
        }
        assert_eq!(explain("nope"), None);
    }

    #[test]
    fn failures_come_in_stream_order() {
        let mut events = two_pes();
        events.retain(|e| !matches!(e, Event::Idle { .. })); // announce while busy (a late line)
        events.insert(0, Event::Busy { t: 0, pe: 7 }); // no PE 7 (the first line)
        let r = run(2, events);
        let names: Vec<&str> = r.failures_in_order().iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["trace_well_formed", "no_early_termination"], "{:?}", r.failures());
    }

    /// A `recv` logged before its `send`: `trace_well_formed` is the first
    /// cause; the work message then looks in flight for ever, and the
    /// failures that causes follow it.
    #[test]
    fn failures_after_a_malformed_line_follow_it() {
        let mut events = two_pes();
        let send = position(&events, |e| matches!(e, Event::Send { id: 2, .. }));
        let recv = position(&events, |e| matches!(e, Event::Recv { id: 2, .. }));
        let s = events.remove(send);
        events.insert(recv, s);
        let r = run(2, events);
        let order: Vec<(&str, Option<&str>)> = r.failures_in_order().iter().map(|(n, v)| (*n, v.follows)).collect();
        assert_eq!(order[0], ("energy_conserved", None), "{:?}", r.failures()); // its step ends before the recv
        assert_eq!(order[1], ("trace_well_formed", None), "{:?}", r.failures());
        assert!(order[2..].iter().all(|(_, f)| *f == Some("trace_well_formed")), "{order:?}");
        assert!(order.contains(&("no_early_termination", Some("trace_well_formed"))), "{order:?}");
    }

    #[test]
    fn verdicts_serialize_without_a_missing_line() {
        let json = serde_json::to_string(&Verdict::pass("ok")).unwrap();
        assert_eq!(json, r#"{"pass":true,"detail":"ok"}"#);
        let json = serde_json::to_string(&Verdict::fail("bad", Some(3))).unwrap();
        assert_eq!(json, r#"{"pass":false,"detail":"bad","line":3}"#);
    }
}
