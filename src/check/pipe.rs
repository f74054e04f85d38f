//! The checker on its own thread (issue 30): the run hands it the events
//! in batches of [`BATCH`] over a bounded channel ([`DEPTH`] batches
//! ahead at most), so a checked run takes about max(simulator, checker) of
//! wall time on two cores instead of their sum. The checker sees the same
//! events in the same order with the same line numbers, so its verdicts
//! (first violation, its line, the replay command built from them) are
//! those of a [`Checker`] fed inline; `pipe::tests` compares both.
//!
//! [`Online::new`] pipes only where it pays: when the machine has two
//! cores or more (`std::thread::available_parallelism`),
//! `LBCHECK_CHECKER` is not `inline`, and the run is long: the checker
//! starts inline and moves to its thread after [`PIPE_AFTER`] events, so a
//! short run (loom's and the explorer's runs, most of a campaign's) costs
//! no thread (a spawn, its stack, and a wake-up per batch: loom's quick
//! profile spawned 119,327 checker threads, a third of its time in the
//! kernel).

use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::OnceLock;
use std::thread::{self, JoinHandle};

use super::{CheckReport, Checker};
use crate::event::Event;

/// Events per batch: enough to amortise a channel hand-over (about a
/// microsecond) over a few thousand events.
pub const BATCH: usize = 4096;
/// Batches in the channel at most: the run waits when the checker is
/// this far behind, so memory stays bounded.
pub const DEPTH: usize = 4;
/// Events a checker of [`Online::new`] sees inline before it moves to its
/// own thread (a few milliseconds of checking: runs shorter than this pay
/// no thread).
pub const PIPE_AFTER: usize = 4 * BATCH;

/// A batch of numbered events.
type Batch = Vec<(usize, Event)>;

/// A checker fed online, inline or on its own thread.
pub enum Online {
    /// On the caller's thread; moved to a thread of its own once it has
    /// seen the given number of events, if one is given.
    Inline(Box<Checker>, Option<usize>),
    /// On a thread of its own.
    Piped(Piped),
    /// Only while the checker moves to its thread.
    Moving,
}

impl Online {
    /// `checker`, inline, moved to its own thread after `PIPE_AFTER` (16,384)
    /// events if the machine has two cores or more and
    /// `LBCHECK_CHECKER=inline` is not set.
    pub fn new(checker: Checker) -> Online {
        Online::Inline(Box::new(checker), pipe_pays().then_some(PIPE_AFTER))
    }

    /// `checker`, on its own thread from the first event if `piped`, else
    /// inline throughout.
    pub fn with(checker: Checker, piped: bool) -> Online {
        match piped {
            true => Online::Piped(Piped::spawn(checker)),
            false => Online::Inline(Box::new(checker), None),
        }
    }

    /// Feeds one event; `line` identifies it in messages. The event is
    /// taken by value: the checker's thread gets it without a copy.
    pub fn observe(&mut self, line: usize, event: Event) {
        match self {
            Online::Inline(c, after) => {
                c.observe(line, &event);
                *after = after.map(|n| n - 1);
                if *after == Some(0) {
                    self.move_to_thread();
                }
            }
            Online::Piped(p) => p.observe(line, event),
            Online::Moving => unreachable!("the checker is moving to its thread"),
        }
    }

    /// The inline checker, with what it has seen, continues on its thread.
    fn move_to_thread(&mut self) {
        if let Online::Inline(c, _) = std::mem::replace(self, Online::Moving) {
            *self = Online::Piped(Piped::spawn(*c));
        }
    }

    /// Ends the stream and returns the verdicts and metrics.
    pub fn finish(self) -> CheckReport {
        match self {
            Online::Inline(c, _) => c.finish(),
            Online::Piped(p) => p.finish(),
            Online::Moving => unreachable!("the checker is moving to its thread"),
        }
    }
}

/// Whether piping pays here (decided once per process).
fn pipe_pays() -> bool {
    static PAYS: OnceLock<bool> = OnceLock::new();
    *PAYS.get_or_init(|| {
        let cores = thread::available_parallelism().map_or(1, |n| n.get());
        cores >= 2 && std::env::var("LBCHECK_CHECKER").map_or(true, |v| v != "inline")
    })
}

/// A [`Checker`] on its own thread, fed batches of events.
pub struct Piped {
    batch: Batch,
    to_checker: Option<SyncSender<Batch>>,
    /// Emptied batches coming back, to reuse their memory.
    spare: Receiver<Batch>,
    worker: Option<JoinHandle<CheckReport>>,
}

impl Piped {
    /// Starts `checker` on a thread of its own.
    pub fn spawn(checker: Checker) -> Piped {
        let (to_checker, from_run) = sync_channel::<Batch>(DEPTH);
        let (give_back, spare) = sync_channel::<Batch>(DEPTH + 2);
        let worker = thread::Builder::new()
            .name("lbcheck-checker".into())
            .spawn(move || check_batches(checker, from_run, give_back))
            .expect("spawning the checker's thread");
        Piped { batch: Vec::with_capacity(BATCH), to_checker: Some(to_checker), spare, worker: Some(worker) }
    }

    /// Queues one event; a full batch goes to the checker (waiting while
    /// `DEPTH` batches are ahead of it).
    pub fn observe(&mut self, line: usize, event: Event) {
        self.batch.push((line, event));
        if self.batch.len() == BATCH {
            self.send();
        }
    }

    fn send(&mut self) {
        let next = self.spare.try_recv().unwrap_or_else(|_| Vec::with_capacity(BATCH));
        let full = std::mem::replace(&mut self.batch, next);
        if let Some(tx) = &self.to_checker {
            // An error means the checker's thread panicked: `finish` says so.
            let _ = tx.send(full);
        }
    }

    /// Sends the last events, waits for the checker and returns its report
    /// (a panic of the checker's thread is resumed here).
    pub fn finish(mut self) -> CheckReport {
        if !self.batch.is_empty() {
            self.send();
        }
        drop(self.to_checker.take());
        let worker = self.worker.take().expect("finished once");
        worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }
}

/// The checker's thread: every batch in order, then the verdicts.
fn check_batches(mut checker: Checker, batches: Receiver<Batch>, give_back: SyncSender<Batch>) -> CheckReport {
    for mut batch in batches {
        checker.observe_batch(&batch);
        batch.clear();
        let _ = give_back.try_send(batch); // kept only if the run wants it
    }
    checker.finish()
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;
    use crate::check::Checker;

    fn both(pes: u32, events: &[Event]) -> (String, String) {
        let run = |piped| {
            let mut c = Online::with(Checker::new(&header(pes), reference_of(events)), piped);
            events.iter().enumerate().for_each(|(i, e)| c.observe(i + 2, e.clone()));
            serde_json::to_string(&c.finish()).unwrap()
        };
        (run(false), run(true))
    }

    /// Passing and failing streams, short and longer than a batch: the
    /// same report (verdicts, lines, metrics) inline and piped.
    #[test]
    fn piped_verdicts_are_the_inline_ones() {
        let mut broken = two_pes();
        broken.retain(|e| !matches!(e, Event::Idle { .. }));
        let mut long = Vec::new();
        while long.len() < 3 * BATCH {
            long.extend(two_pes().into_iter().filter(|e| !matches!(e, Event::End { .. })));
        }
        for (pes, events) in [(1, single_pe()), (2, two_pes()), (2, broken), (2, long)] {
            let (inline, piped) = both(pes, &events);
            assert_eq!(inline, piped);
        }
    }

    /// A checker moved to its thread mid-stream (as [`Online::new`] moves
    /// one after [`PIPE_AFTER`] events), at the first event, at a batch's
    /// end or in the middle of one: the inline report; a stream shorter
    /// than the threshold never leaves the caller's thread.
    #[test]
    fn a_checker_moved_mid_stream_gives_the_inline_report() {
        let mut long = Vec::new();
        while long.len() < 3 * BATCH {
            long.extend(two_pes().into_iter().filter(|e| !matches!(e, Event::End { .. })));
        }
        let mut broken = long.clone();
        broken.retain(|e| !matches!(e, Event::Idle { .. }));
        for events in [long, broken] {
            let run = |after: Option<usize>| {
                let mut c = Online::Inline(Box::new(Checker::new(&header(2), reference_of(&events))), after);
                events.iter().enumerate().for_each(|(i, e)| c.observe(i + 2, e.clone()));
                let moved = matches!(c, Online::Piped(_));
                (serde_json::to_string(&c.finish()).unwrap(), moved)
            };
            let (inline, _) = run(None);
            for after in [1, BATCH, BATCH + 7] {
                assert_eq!(run(Some(after)), (inline.clone(), true), "moved after {after} events");
            }
            assert_eq!(run(Some(events.len() + 1)), (inline, false));
        }
    }

    /// A simulated run's events (more than a batch), whole and with one
    /// `idle` dropped (an early announcement): the same report both ways.
    #[test]
    fn piped_verdicts_of_a_simulated_run() {
        use crate::harness::{reference, Driver, RunSpec};
        use crate::protocol::{BalancerKind, DetectorKind};
        let driver = Driver::Sim(crate::sim::SimConfig { pes: 64, seed: 3, ..Default::default() });
        let w = "uts:default".parse().unwrap();
        let spec = RunSpec::new(w, BalancerKind::RandomPolling, DetectorKind::Energy, driver);
        let mut events = Vec::new();
        spec.run_observed(None, &mut |e| events.push(e.clone())).unwrap();
        assert!(events.len() > BATCH, "{}", events.len()); // more than one batch
        let (header, r) = (spec.header(), reference(&spec.workload, spec.split));
        let report = |events: &[Event], piped| {
            let mut c = Online::with(Checker::new(&header, r), piped);
            events.iter().enumerate().for_each(|(i, e)| c.observe(i + 2, e.clone()));
            c.finish()
        };
        let json = |r: &CheckReport| serde_json::to_string(r).unwrap();
        let idle = events.iter().rposition(|e| matches!(e, Event::Idle { .. })).unwrap();
        let mut broken = events.clone();
        broken.remove(idle);
        for (events, pass) in [(events, true), (broken, false)] {
            let (inline, piped) = (report(&events, false), report(&events, true));
            assert_eq!(json(&inline), json(&piped));
            assert_eq!(piped.all_pass(), pass, "{:?}", piped.failures());
        }
    }
}
