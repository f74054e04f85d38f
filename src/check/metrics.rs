//! Measurements of a run, from its events and the reference's T_seq: T_par, efficiency,
//! message counts, the work per generation, the queue lengths met by
//! arriving requests (001 Lemma 1.3: expected ≤ 1) and the PEs' idle times.

use crate::sim::prefetch::huge_vec;
use std::collections::BTreeMap;

use serde::Serialize;

use crate::event::{Event, Kind};

/// Measurements of one run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Metrics {
    /// Number of PEs (the header's `pes`).
    pub pes: u32,
    /// Events seen (the header not counted).
    pub events: u64,
    /// T_seq: the work units of the sequential run (the reference's, not
    /// the trace's: a run that lost work is compared with all of it).
    pub t_seq: u64,
    /// Σ units of the `work` events (equal to `t_seq` when work is conserved).
    pub work_done: u64,
    /// T_par: the last `terminated` time; `None` if no PE terminated.
    pub t_par: Option<u64>,
    /// Time of the last `work` event.
    pub t_last_work: Option<u64>,
    /// Time of the last event (the header not counted).
    pub t_last: u64,
    /// Time of the first `announce` event.
    pub t_announce: Option<u64>,
    /// `t_announce` − `t_last_work` (`t_announce` if there was no work).
    pub detection_delay: Option<i64>,
    /// T_seq / (P · T_par); `None` without a positive T_par.
    pub efficiency: Option<f64>,
    /// Messages sent, by kind name ([`Kind::name`]); every kind is listed.
    pub messages: BTreeMap<&'static str, u64>,
    /// Largest `gen` of a `split` or `work` event.
    pub max_gen: u32,
    /// Σ units of the `work` events, by the generation of the subproblem worked.
    pub gen_histogram: BTreeMap<u32, u64>,
    /// Queue lengths found by arriving requests.
    pub queue: QueueStats,
    /// Time the PEs spent idle.
    pub idle_time: IdleStats,
    /// Number of `wave` events (four-counter waves completed).
    pub waves: u64,
    /// Number of `split` events.
    pub splits: u64,
    /// Branch-and-bound: the least `goal` of the `work` events (the best
    /// solution found; costs are minimised).
    pub best_goal: Option<u64>,
}

/// The queue lengths met by arriving requests (`recv` of kind `request`
/// with a `queue`); 001 Lemma 1.3 bounds their mean by 1.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct QueueStats {
    /// Requests that reported a queue length.
    pub count: u64,
    /// Mean queue length found; `None` if `count` is 0.
    pub mean: Option<f64>,
    /// Largest queue length found; `None` if `count` is 0.
    pub max: Option<u32>,
}

/// Idle time per PE, summarised over the PEs. A PE is idle from time 0 to
/// its first `busy`, from each `idle` to the next `busy`, and from its last
/// `idle` to its `terminated` time (or, if it never terminated, T_par or
/// the last event's time).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct IdleStats {
    /// Σ idle time over all PEs.
    pub total: u64,
    /// `total` / P; `None` if P is 0.
    pub mean: Option<f64>,
    /// The largest idle time of one PE.
    pub max: u64,
}

/// One PE's idle time so far.
#[derive(Clone, Copy)]
struct PeIdle {
    /// Start of the current idle period, if idle.
    since: Option<u64>,
    total: u64,
    terminated: bool,
}

impl PeIdle {
    fn stop(&mut self, t: u64) {
        if let Some(s) = self.since.take() {
            self.total = self.total.saturating_add(t.saturating_sub(s));
        }
    }
}

/// Collects [`Metrics`] event by event.
pub(super) struct Collector {
    m: Metrics,
    queue_sum: u64,
    idle: Vec<PeIdle>,
    t_last: u64,
    /// Messages sent, per kind (by `Kind as usize`; into `messages` at the end).
    sent: [u64; Kind::ALL.len()],
}

impl Collector {
    /// Prefetches PE `pe`'s idle record ([`super::Checker::prefetch`]).
    pub(super) fn prefetch(&self, pe: u32) {
        super::ahead(&self.idle, pe);
    }

    /// For `pes` PEs, all idle at time 0, running a workload of `t_seq` units.
    pub(super) fn new(pes: u32, t_seq: u64) -> Collector {
        let messages = Kind::ALL.iter().map(|k| (k.name(), 0)).collect();
        let m = Metrics { pes, t_seq, messages, ..Metrics::default() };
        let idle = huge_vec(pes as usize, |_| PeIdle { since: Some(0), total: 0, terminated: false });
        Collector { m, queue_sum: 0, idle, t_last: 0, sent: [0; Kind::ALL.len()] }
    }

    /// T_seq, known only now.
    pub(super) fn set_t_seq(&mut self, t_seq: u64) {
        self.m.t_seq = t_seq;
    }

    /// Feeds one event.
    #[inline(always)]
    pub(super) fn observe(&mut self, e: &Event) {
        if let Event::Header(_) = e {
            return;
        }
        let m = &mut self.m;
        m.events += 1;
        self.t_last = self.t_last.max(e.time());
        match *e {
            Event::Work { t, units, gen, goal, .. } => {
                m.best_goal = crate::problem::least(m.best_goal, goal);
                self.on_work(t, units, gen);
            }
            Event::Split { gen, .. } => {
                m.splits += 1;
                m.max_gen = m.max_gen.max(gen);
            }
            Event::Send { kind, .. } => self.sent[kind as usize] += 1,
            Event::Recv { kind: Kind::Request, queue: Some(q), .. } => self.on_queue(q),
            Event::Busy { t, pe } => self.pe(pe, |p| p.stop(t)),
            Event::Idle { t, pe } => self.pe(pe, |p| p.since = p.since.or(Some(t))),
            Event::Terminated { t, pe } => self.on_terminated(t, pe),
            Event::Announce { t, .. } => m.t_announce = m.t_announce.or(Some(t)),
            Event::Wave { .. } => m.waves += 1,
            _ => {}
        }
    }

    fn on_work(&mut self, t: u64, units: u64, gen: u32) {
        let m = &mut self.m;
        m.work_done = m.work_done.saturating_add(units);
        m.t_last_work = m.t_last_work.max(Some(t));
        m.max_gen = m.max_gen.max(gen);
        *m.gen_histogram.entry(gen).or_default() += units;
    }

    fn on_queue(&mut self, q: u32) {
        let s = &mut self.m.queue;
        s.count += 1;
        s.max = s.max.max(Some(q));
        self.queue_sum += u64::from(q);
    }

    fn on_terminated(&mut self, t: u64, pe: u32) {
        self.m.t_par = self.m.t_par.max(Some(t));
        self.pe(pe, |p| {
            p.stop(t);
            p.terminated = true;
        });
    }

    /// Applies `f` to PE `pe`'s idle record, unless it terminated (or does not exist).
    fn pe(&mut self, pe: u32, f: impl FnOnce(&mut PeIdle)) {
        if let Some(p) = self.idle.get_mut(pe as usize).filter(|p| !p.terminated) {
            f(p);
        }
    }

    /// The metrics of the whole stream.
    pub(super) fn finish(mut self) -> Metrics {
        self.m.t_last = self.t_last;
        for k in Kind::ALL {
            *self.m.messages.entry(k.name()).or_default() += self.sent[k as usize];
        }
        let end = self.m.t_par.unwrap_or(self.t_last);
        self.idle.iter_mut().filter(|p| !p.terminated).for_each(|p| p.stop(end));
        let m = &mut self.m;
        let total = self.idle.iter().fold(0u64, |a, p| a.saturating_add(p.total));
        let max = self.idle.iter().map(|p| p.total).max().unwrap_or(0);
        m.idle_time = IdleStats { total, mean: ratio(total as f64, f64::from(m.pes)), max };
        m.queue.mean = ratio(self.queue_sum as f64, m.queue.count as f64);
        m.efficiency = m.t_par.and_then(|t| ratio(m.t_seq as f64, f64::from(m.pes) * t as f64));
        m.detection_delay = m.t_announce.map(|a| delay(a, m.t_last_work.unwrap_or(0)));
        self.m
    }
}

/// `a / b`, or `None` if `b` is 0.
fn ratio(a: f64, b: f64) -> Option<f64> {
    (b > 0.0).then(|| a / b)
}

/// `a − b` as a signed number (saturating).
fn delay(a: u64, b: u64) -> i64 {
    let d = i128::from(a) - i128::from(b);
    d.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;

    #[test]
    fn single_pe_is_fully_efficient() {
        let m = run(1, single_pe()).metrics;
        assert_eq!((m.pes, m.events, m.t_seq, m.t_par, m.t_last_work), (1, 6, 10, Some(10), Some(10)));
        assert_eq!((m.efficiency, m.detection_delay, m.max_gen, m.splits, m.waves), (Some(1.0), Some(0), 0, 0, 0));
        assert_eq!(m.idle_time, IdleStats { total: 0, mean: Some(0.0), max: 0 });
        assert_eq!(m.queue, QueueStats::default());
        assert_eq!(m.messages.values().sum::<u64>(), 0);
        assert_eq!(m.messages.len(), Kind::ALL.len());
    }

    #[test]
    fn two_pes_metrics_are_exact() {
        let m = run(2, two_pes()).metrics;
        assert_eq!((m.t_seq, m.t_par, m.t_last_work, m.t_announce), (20, Some(19), Some(15), Some(17)));
        assert_eq!((m.efficiency, m.detection_delay), (Some(20.0 / 38.0), Some(2)));
        assert_eq!((m.max_gen, m.splits), (1, 1));
        assert_eq!(m.gen_histogram, BTreeMap::from([(0, 2), (1, 18)]));
        let sent: Vec<u64> = Kind::ALL.iter().map(|k| m.messages[k.name()]).collect();
        assert_eq!(sent, [2, 1, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(m.queue, QueueStats { count: 2, mean: Some(0.0), max: Some(0) });
        // PE 0: idle 10..17; PE 1: idle 0..5 and 15..19.
        assert_eq!(m.idle_time, IdleStats { total: 16, mean: Some(8.0), max: 9 });
    }

    /// T_seq is the reference's: a run that lost work is measured against
    /// all of it, and the work it did is reported beside.
    #[test]
    fn t_seq_is_the_references_and_work_done_the_traces() {
        let reference = reference_of(&two_pes());
        let mut events = two_pes();
        events.retain(|e| !matches!(e, Event::Work { t: 15, .. }));
        let m = run_ref(2, reference, events).metrics;
        assert_eq!((m.t_seq, m.work_done), (20, 10));
        assert_eq!(m.efficiency, Some(20.0 / 38.0));
    }

    #[test]
    fn a_pe_that_never_terminates_is_idle_until_t_par() {
        let mut events = two_pes();
        events.retain(|e| !matches!(e, Event::Terminated { pe: 0, .. }));
        let m = run(2, events).metrics;
        assert_eq!(m.idle_time.total, 9 + 9); // PE 0: idle 10..19
    }
}
