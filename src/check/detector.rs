//! `detector_conformance` (001 §2, 003 §14.7.4): the termination detector
//! keeps its own rules, as far as the trace shows them.
//!
//! For every detector, known to lbcheck or not:
//! - only the header's `announcer` (default PE 0) logs `announce`, once;
//! - a `terminate` message is sent only by a PE that learnt of termination:
//!   the announcer after its `announce`, another PE after receiving a
//!   `terminate`.
//!
//! For the detectors lbcheck ships, named by the header's `detector`:
//! - a PE logs `terminated` only once it learnt of termination as above;
//! - `four-counter` (001 §2, after Mattern): waves are numbered 1, 2, 3, …
//!   in order; a wave's totals are at least the work messages sent
//!   (received) before the previous wave completed and at most those sent
//!   (received) so far, since each PE reads its counters during the wave;
//!   and the announcer announces only after a wave k ≥ 2 with
//!   S_{k−1} = R_{k−1} = S_k = R_k and no wave since — and then at once:
//!   a wave after two such waves fails (the rule is "iff");
//! - `energy`, `energy-tree` (003 §14.7.4): the announcer holds all the
//!   energy, exactly 1, when it announces (it starts with 1; its `energy`
//!   events set its holding);
//! - `safra` (EWD998, [`crate::protocol::safra`], whose rules are numbered
//!   here): every `control` message is the token, its `data`
//!   `{"q": integer, "black": bool}`. Per PE the check keeps c_i, the work
//!   messages it sent minus those it received (rule 0), and whether it
//!   received work since it last passed the token on (the announcer: since
//!   it last started a round; rule 3). Every token send goes round the ring,
//!   PE i to PE i − 1 (PE 0 to PE P − 1), from a PE that holds the token
//!   (received it since it last passed it on; the announcer, which is
//!   Safra's PE 0, holds one to start the first round). The announcer
//!   starts a round with a white token and q = 0 (rules 1, 6), and only if
//!   the token came back inconclusive (rule 5: it announces otherwise);
//!   another PE passes q_out = q_in + c_i, black iff the token came in black
//!   or the PE received work since it last passed it (rules 2, 4, 7). The
//!   announcer announces only holding the returned token, white, with
//!   q + c_0 = 0, having received no work since its round started (rule 5).
//!   Whether a PE holds work when it passes the token (rule 2's "passive")
//!   is left to `no_early_termination`.
//!
//! For any other `detector` (free text, such as `dijkstra-scholten`) only
//! the first two rules apply, and the verdict says so; `control` messages
//! and `data` are not checked.

use super::safra::Ring;
use super::{violation_at, Book, Metrics, Property, Verdict};
use crate::base::Fraction;
use crate::event::{Event, Kind, TraceHeader};
use crate::protocol::DetectorKind;

/// A wave as the announcer completed it: its number, totals, and the work
/// messages sent / received in the stream by then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Wave {
    number: u64,
    totals: (u64, u64),
    counted: (u64, u64),
}

/// How a detector breaks its rules (the `detector_conformance` failures).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
enum Breach {
    /// A PE other than the announcer announced.
    #[error("PE {pe} announced termination, but the announcer is PE {announcer}")]
    NotAnnouncer { pe: u32, announcer: u32 },
    /// The announcer announced twice (first on that line).
    #[error("PE {pe} announced termination again (first on line {first})")]
    AnnouncedAgain { pe: u32, first: usize },
    /// A `terminate` sent by a PE that had not learnt of termination.
    #[error("PE {0} sent `terminate` before it learnt of termination (by announcing or receiving `terminate`)")]
    EarlyTerminate(u32),
    /// `terminated` logged by a PE that had not learnt of termination.
    #[error("PE {0} logged `terminated` before it learnt of termination")]
    EarlyTerminated(u32),
    /// Energy: the announcer announced without holding all the energy.
    #[error("PE {pe} announced termination holding energy {held}, not all of it (1)")]
    EnergyHeld { pe: u32, held: Fraction },
    /// Four-counter: a wave out of order.
    #[error("wave {number} completed, but the next wave is {expected}")]
    WaveNumber { number: u64, expected: u64 },
    /// Four-counter: a wave after two quiet ones (waves `last − 1` and
    /// `last` had S = R = `total`), when it should have announced.
    #[error(
        "wave {number} completed, but waves {} and {last} already had S = R = {total} twice: four-counter announces then (001 §2)",
        .last.saturating_sub(1)
    )]
    WaveAfterQuiet { number: u64, last: u64, total: u64 },
    /// Four-counter: wave totals outside what the counters allow (`floor`
    /// and `counted`: the work messages (sent, received) before the
    /// previous wave completed and so far).
    #[error(
        "wave {number} reports {} work messages sent and {} received; the counters it read allow {}..={} sent and {}..={} received",
        .totals.0, .totals.1, .floor.0, .counted.0, .floor.1, .counted.1
    )]
    WaveTotals { number: u64, totals: (u64, u64), floor: (u64, u64), counted: (u64, u64) },
    /// Safra (EWD998): the token broke one of its rules (the message names it).
    #[error("{0}")]
    Safra(String),
    /// Four-counter: an announcement after fewer than two waves.
    #[error("termination announced after {0} wave(s); four-counter needs two consecutive waves with equal totals")]
    TooFewWaves(usize),
    /// Four-counter: an announcement after two waves whose totals are not
    /// all equal: waves `prev` and `last` reported (sent, received) = (`s1`, `r1`), (`s2`, `r2`).
    #[error(
        "termination announced after wave {prev} (sent {s1}, received {r1}) and wave {last} (sent {s2}, received {r2}); four-counter needs all four equal"
    )]
    UnequalWaves { prev: u64, s1: u64, r1: u64, last: u64, s2: u64, r2: u64 },
}

/// What the header's detector lets the check verify beyond the common rules.
enum Rules {
    /// Mattern's four counters: the waves so far.
    FourCounter { last: Option<Wave>, prev: Option<Wave> },
    /// Energy: the announcer's holding.
    Energy { held: Fraction },
    /// Safra's token ring.
    Safra(Ring),
    /// lbcheck does not know the detector (the header's name).
    Unknown(String),
}

/// State of the `detector_conformance` check.
pub(super) struct DetectorConformance {
    announcer: u32,
    rules: Rules,
    /// Per PE: it learnt of termination (announced or received `terminate`).
    knows: Vec<bool>,
    announced: Option<usize>,
    /// Work messages sent and received so far.
    work: (u64, u64),
    violation: Option<(usize, String)>,
}

impl DetectorConformance {
    /// For the run of `header` (its announcer and detector).
    pub(super) fn new(header: &TraceHeader) -> DetectorConformance {
        let rules = match header.detector.parse() {
            Ok(DetectorKind::FourCounter) => Rules::FourCounter { last: None, prev: None },
            Ok(DetectorKind::Energy | DetectorKind::EnergyTree) => Rules::Energy { held: Fraction::one() },
            Ok(DetectorKind::Safra) => Rules::Safra(Ring::new(header.pes, header.announcer())),
            Ok(DetectorKind::Barrier) => Rules::Unknown(header.detector.clone()),
            Err(_) => Rules::Unknown(header.detector.clone()),
        };
        DetectorConformance {
            announcer: header.announcer(),
            rules,
            knows: vec![false; header.pes.min(super::MAX_PES) as usize],
            announced: None,
            work: (0, 0),
            violation: None,
        }
    }

    fn knows(&self, pe: u32) -> bool {
        self.knows.get(pe as usize).copied().unwrap_or(false)
    }

    fn learn(&mut self, pe: u32) {
        if let Some(k) = self.knows.get_mut(pe as usize) {
            *k = true;
        }
    }

    #[inline(always)]
    fn check(&mut self, line: usize, e: &Event) -> Result<(), Breach> {
        match *e {
            Event::Announce { pe, .. } => self.on_announce(line, pe),
            Event::Send { from, kind: Kind::Terminate, .. } if !self.knows(from) => Err(Breach::EarlyTerminate(from)),
            Event::Recv { pe, kind: Kind::Terminate, .. } => {
                self.learn(pe);
                Ok(())
            }
            Event::Terminated { pe, .. } if !self.knows(pe) && !matches!(self.rules, Rules::Unknown(_)) => {
                Err(Breach::EarlyTerminated(pe))
            }
            Event::Send { from, kind: Kind::Work, .. } => {
                self.work.0 += 1;
                if let Some(r) = self.ring() {
                    r.work(from, 1);
                }
                Ok(())
            }
            Event::Recv { pe, kind: Kind::Work, .. } => {
                self.work.1 += 1;
                if let Some(r) = self.ring() {
                    r.work(pe, -1);
                }
                Ok(())
            }
            Event::Send { from, to, id, kind: Kind::Control, ref data, .. } => {
                self.ring().map_or(Ok(()), |r| r.token_sent(from, to, id, data)).map_err(Breach::Safra)
            }
            Event::Recv { pe, id, kind: Kind::Control, .. } => {
                if let Some(r) = self.ring() {
                    r.token_received(pe, id);
                }
                Ok(())
            }
            Event::Wave { wave, sent, recv, .. } => self.on_wave(wave, (sent, recv)),
            Event::Energy { pe, ref held, .. } => {
                if let (Rules::Energy { held: h }, true) = (&mut self.rules, pe == self.announcer) {
                    *h = held.clone();
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn ring(&mut self) -> Option<&mut Ring> {
        match &mut self.rules {
            Rules::Safra(ring) => Some(ring),
            _ => None,
        }
    }

    fn on_announce(&mut self, line: usize, pe: u32) -> Result<(), Breach> {
        if pe != self.announcer {
            return Err(Breach::NotAnnouncer { pe, announcer: self.announcer });
        }
        if let Some(first) = self.announced {
            return Err(Breach::AnnouncedAgain { pe, first });
        }
        self.announced = Some(line);
        self.learn(pe);
        match &self.rules {
            Rules::FourCounter { last, prev } => four_counter_may_announce(*prev, *last),
            Rules::Energy { held } if !held.is_one() => Err(Breach::EnergyHeld { pe, held: held.clone() }),
            Rules::Safra(ring) => ring.may_announce().map_err(Breach::Safra),
            _ => Ok(()),
        }
    }

    fn on_wave(&mut self, number: u64, totals: (u64, u64)) -> Result<(), Breach> {
        let Rules::FourCounter { last, prev } = &mut self.rules else { return Ok(()) };
        let expected = last.map_or(1, |w| w.number + 1);
        if number != expected {
            return Err(Breach::WaveNumber { number, expected });
        }
        if four_counter_may_announce(*prev, *last).is_ok() {
            let (last, total) = last.map(|w| (w.number, w.totals.0)).unwrap_or_default();
            return Err(Breach::WaveAfterQuiet { number, last, total });
        }
        let floor = last.map_or((0, 0), |w| w.counted);
        let (s, r) = totals;
        if s < floor.0 || r < floor.1 || s > self.work.0 || r > self.work.1 {
            return Err(Breach::WaveTotals { number, totals, floor, counted: self.work });
        }
        *prev = *last;
        *last = Some(Wave { number, totals, counted: self.work });
        Ok(())
    }
}

/// 001 §2: announce only after waves k−1, k with S_{k−1} = R_{k−1} = S_k = R_k.
fn four_counter_may_announce(prev: Option<Wave>, last: Option<Wave>) -> Result<(), Breach> {
    let (Some(p), Some(l)) = (prev, last) else {
        return Err(Breach::TooFewWaves(usize::from(last.is_some())));
    };
    let ((s1, r1), (s2, r2)) = (p.totals, l.totals);
    if s1 == r1 && (s1, r1) == (s2, r2) {
        return Ok(());
    }
    Err(Breach::UnequalWaves { prev: p.number, s1, r1, last: l.number, s2, r2 })
}

impl DetectorConformance {
    /// Prefetches PE `pe`'s records ([`super::Checker::prefetch`]).
    pub(super) fn prefetch(&self, pe: u32) {
        super::ahead(&self.knows, pe);
    }
}

impl Property for DetectorConformance {
    const NAME: &'static str = "detector_conformance";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, _: &Book) {
        if self.violation.is_none() {
            self.violation = violation_at(line, self.check(line, e));
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        if let Some((line, why)) = self.violation {
            return Verdict::fail(why, Some(line));
        }
        let who = format!("announcer PE {}", self.announcer);
        let justified = match self.announced {
            Some(_) => "the announcement justified",
            None => "no announcement to justify",
        };
        Verdict::pass(match self.rules {
            Rules::FourCounter { last, .. } => {
                let waves = last.map_or(0, |w| w.number);
                format!(
                    "{who}; {waves} four-counter waves, each within the counters it read; {justified} by the last two"
                )
            }
            Rules::Energy { .. } => format!("{who}; {justified} by holding all the energy"),
            Rules::Safra(ring) => format!(
                "{who}; {} Safra rounds, the token passed round the ring with each PE's count and colour; {justified} by a white token with q + c_0 = 0",
                ring.rounds
            ),
            Rules::Unknown(name) => format!(
                "{who}; detector `{name}` is not one lbcheck knows: only the announcer and `terminate` rules apply"
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;

    const NAME: &str = DetectorConformance::NAME;

    fn with_detector(detector: &str, pes: u32) -> TraceHeader {
        TraceHeader { detector: detector.into(), ..header(pes) }
    }

    fn check(h: &TraceHeader, events: Vec<Event>) -> crate::check::CheckReport {
        run_with_header(h, reference_of(&events), events)
    }

    #[test]
    fn breaches_are_typed() {
        let mut d = DetectorConformance::new(&with_detector("energy", 2));
        assert_eq!(d.check(2, &Event::Announce { t: 1, pe: 1 }), Err(Breach::NotAnnouncer { pe: 1, announcer: 0 }));
        assert_eq!(d.check(3, &Event::Terminated { t: 1, pe: 1 }), Err(Breach::EarlyTerminated(1)));
        assert_eq!(d.check(4, &Event::Announce { t: 1, pe: 0 }), Ok(()));
        assert_eq!(d.check(5, &Event::Announce { t: 1, pe: 0 }), Err(Breach::AnnouncedAgain { pe: 0, first: 4 }));
        let mut energy = DetectorConformance::new(&with_detector("energy", 2));
        assert_eq!(energy.check(2, &super::super::testutil::energy(0, 0, "1/2")), Ok(()));
        let held = Breach::EnergyHeld { pe: 0, held: dy("1/2") };
        assert_eq!(energy.check(3, &Event::Announce { t: 1, pe: 0 }), Err(held));
        let mut fc = DetectorConformance::new(&with_detector("four-counter", 2));
        let wave = |wave, sent, recv| Event::Wave { t: 1, wave, sent, recv, data: None };
        assert_eq!(fc.check(2, &wave(2, 0, 0)), Err(Breach::WaveNumber { number: 2, expected: 1 }));
        let totals = Breach::WaveTotals { number: 1, totals: (3, 0), floor: (0, 0), counted: (0, 0) };
        assert_eq!(fc.check(2, &wave(1, 3, 0)), Err(totals));
        assert_eq!(fc.check(2, &wave(1, 0, 0)), Ok(()));
        assert_eq!(fc.check(3, &Event::Announce { t: 2, pe: 0 }), Err(Breach::TooFewWaves(1)));
    }

    /// `two_pes` with four-counter instead of energy: PE 0 completes two
    /// waves, each reading one work message sent and received, then announces.
    fn four_counter_run(waves: &[(u64, u64)]) -> Vec<Event> {
        let mut events = two_pes();
        events.retain(|e| !matches!(e, Event::Energy { .. } | Event::Send { kind: Kind::Energy, .. }));
        events.retain(|e| !matches!(e, Event::Recv { kind: Kind::Energy, .. }));
        for e in &mut events {
            if let Event::Send { energy, .. } = e {
                *energy = None;
            }
        }
        let at = position(&events, |e| matches!(e, Event::Announce { .. }));
        for (i, &(sent, recv)) in waves.iter().enumerate() {
            let wave = Event::Wave { t: 16, wave: i as u64 + 1, sent, recv, data: None };
            events.insert(at + i, wave);
        }
        events
    }

    #[test]
    fn correct_streams_pass_for_known_and_unknown_detectors() {
        let r = check(&with_detector("energy", 2), two_pes());
        assert_passes(NAME, &r);
        assert_eq!(r.properties[NAME].detail, "announcer PE 0; the announcement justified by holding all the energy");
        assert_passes(NAME, &check(&with_detector("four-counter", 2), four_counter_run(&[(1, 1), (1, 1)])));
        let r = check(&with_detector("dijkstra-scholten", 1), single_pe());
        assert_passes(NAME, &r);
        assert!(r.properties[NAME].detail.contains("detector `dijkstra-scholten` is not one lbcheck knows"));
    }

    #[test]
    fn only_the_announcer_announces_once() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Announce { .. }));
        events[i] = Event::Announce { t: 17, pe: 1 };
        let v = assert_fails(NAME, &check(&with_detector("dijkstra-scholten", 2), events.clone()), Some(line_of(i)));
        assert!(v.detail.ends_with("PE 1 announced termination, but the announcer is PE 0"), "{}", v.detail);
        let h = TraceHeader { announcer: Some(1), ..with_detector("dijkstra-scholten", 2) };
        let v = assert_fails(NAME, &check(&h, events), Some(line_of(i + 2)));
        assert!(
            v.detail.ends_with(
                "PE 0 sent `terminate` before it learnt of termination (by announcing or receiving `terminate`)"
            ),
            "{}",
            v.detail
        );
        let mut events = two_pes();
        events.insert(i + 1, Event::Announce { t: 17, pe: 0 });
        let v = assert_fails(NAME, &check(&with_detector("dijkstra-scholten", 2), events), Some(line_of(i + 1)));
        assert!(v.detail.contains("announced termination again (first on line"), "{}", v.detail);
    }

    /// `terminated` before learning of termination: a known detector fails,
    /// an unknown one (which may spread the news in control messages) passes.
    #[test]
    fn terminated_needs_the_news_for_known_detectors() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Terminated { pe: 1, .. }));
        events.remove(i);
        events.insert(1, Event::Terminated { t: 0, pe: 1 });
        events.retain(|e| {
            !matches!(e, Event::Recv { kind: Kind::Terminate, .. } | Event::Send { kind: Kind::Terminate, .. })
        });
        let v = assert_fails(NAME, &check(&with_detector("energy", 2), events.clone()), Some(line_of(1)));
        assert!(v.detail.ends_with("PE 1 logged `terminated` before it learnt of termination"), "{}", v.detail);
        assert_passes(NAME, &check(&with_detector("dijkstra-scholten", 2), events));
    }

    #[test]
    fn four_counter_announces_only_after_two_equal_waves() {
        let fc = with_detector("four-counter", 2);
        let at = |events: &[Event]| line_of(position(events, |e| matches!(e, Event::Announce { .. })));
        for (waves, why) in [
            (&[(1, 1)][..], "after 1 wave(s); four-counter needs two consecutive waves"),
            (&[][..], "after 0 wave(s)"),
            (&[(1, 0), (1, 1)][..], "wave 1 (sent 1, received 0) and wave 2 (sent 1, received 1)"),
        ] {
            let events = four_counter_run(waves);
            let v = assert_fails(NAME, &check(&fc, events.clone()), Some(at(&events)));
            assert!(v.detail.contains(why), "{}", v.detail);
        }
    }

    #[test]
    fn four_counter_announces_as_soon_as_it_may() {
        let fc = with_detector("four-counter", 2);
        let events = four_counter_run(&[(1, 1), (1, 1), (1, 1)]);
        let third = position(&events, |e| matches!(e, Event::Wave { wave: 3, .. }));
        let v = assert_fails(NAME, &check(&fc, events), Some(line_of(third)));
        assert!(v.detail.contains("wave 3 completed, but waves 1 and 2 already had S = R = 1 twice"), "{}", v.detail);
    }

    #[test]
    fn four_counter_waves_stay_within_the_counters() {
        let fc = with_detector("four-counter", 2);
        let events = four_counter_run(&[(1, 1), (2, 1)]);
        let wave2 = position(&events, |e| matches!(e, Event::Wave { wave: 2, .. }));
        let v = assert_fails(NAME, &check(&fc, events), Some(line_of(wave2)));
        assert!(v.detail.ends_with("wave 2 reports 2 work messages sent and 1 received; the counters it read allow 1..=1 sent and 1..=1 received"), "{}", v.detail);
        let mut events = four_counter_run(&[(1, 1), (1, 1)]);
        let wave2 = position(&events, |e| matches!(e, Event::Wave { wave: 2, .. }));
        if let Event::Wave { wave, .. } = &mut events[wave2] {
            *wave = 3;
        }
        let v = assert_fails(NAME, &check(&fc, events), Some(line_of(wave2)));
        assert!(v.detail.ends_with("wave 3 completed, but the next wave is 2"), "{}", v.detail);
    }

    /// Safra's token from `from` to `to`.
    fn token(t: u64, from: u32, to: u32, id: u64, q: i64, black: bool) -> Event {
        let data = Some(Box::new(serde_json::json!({"q": q, "black": black})));
        Event::Send { t, from, to, id, kind: Kind::Control, energy: None, data }
    }

    /// `two_pes` with Safra instead of energy: round 1 comes back while
    /// PE 0 is busy, inconclusive (q + c_0 = 1); round 2 black (PE 1
    /// received work); round 3 white with q + c_0 = −1 + 1 = 0.
    fn safra_run() -> Vec<Event> {
        use Kind::*;
        vec![
            Event::Busy { t: 0, pe: 0 },
            token(0, 0, 1, 100, 0, false), // rule 1: round 1
            send(1, 1, 0, 1, Request),
            work(2, 0, 0, 0, 2),
            recv(2, 0, 1, 1, Request),
            recv(2, 1, 0, 100, Control),
            token(2, 1, 0, 101, 0, false), // PE 1, passive: q + c_1 = 0
            Event::Split { t: 2, pe: 0, gen: 1 },
            send(3, 0, 1, 2, Work),
            recv(4, 0, 1, 101, Control), // PE 0 is busy: it keeps the token
            recv(5, 1, 0, 2, Work),
            Event::Busy { t: 5, pe: 1 },
            work(10, 0, 1, 2, 10),
            Event::Idle { t: 10, pe: 0 },
            token(10, 0, 1, 102, 0, false), // q + c_0 = 1: round 2
            send(10, 0, 1, 3, Request),
            recv(12, 1, 0, 3, Request),
            send(12, 1, 0, 4, Reject),
            recv(12, 1, 0, 102, Control), // PE 1 is busy: it keeps the token
            recv(14, 0, 1, 4, Reject),
            work(15, 1, 1, 10, 20),
            Event::Idle { t: 15, pe: 1 },
            token(15, 1, 0, 103, -1, true), // PE 1 received work: black
            recv(17, 0, 1, 103, Control),
            token(17, 0, 1, 104, 0, false), // a black token: round 3
            recv(19, 1, 0, 104, Control),
            token(19, 1, 0, 105, -1, false),
            recv(21, 0, 1, 105, Control),
            Event::Announce { t: 21, pe: 0 }, // white, q + c_0 = 0, PE 0 white
            Event::Terminated { t: 21, pe: 0 },
            send(21, 0, 1, 6, Terminate),
            recv(23, 1, 0, 6, Terminate),
            Event::Terminated { t: 23, pe: 1 },
            Event::End { t: 23 },
        ]
    }

    /// Index of the send of message `id`.
    fn sent(events: &[Event], id: u64) -> usize {
        position(events, |e| matches!(e, Event::Send { id: i, .. } if *i == id))
    }

    /// `safra_run` with the send of message `id` replaced by `e`, failing at its line.
    fn safra_fails_at(id: u64, e: Event, why: &str) {
        let mut events = safra_run();
        let i = sent(&events, id);
        events[i] = e;
        safra_fails(events, i, why);
    }

    fn safra_fails(events: Vec<Event>, at: usize, why: &str) {
        let v = assert_fails(NAME, &check(&with_detector("safra", 2), events), Some(line_of(at)));
        assert!(v.detail.contains(why), "{}", v.detail);
    }

    #[test]
    fn a_correct_safra_stream_passes() {
        let r = check(&with_detector("safra", 2), safra_run());
        assert_passes(NAME, &r);
        assert!(r.properties[NAME].detail.contains("3 Safra rounds"), "{}", r.properties[NAME].detail);
        assert!(r.failures().is_empty(), "{:#?}", r.failures());
    }

    #[test]
    fn safra_tokens_go_round_the_ring_in_safras_format() {
        safra_fails_at(101, token(2, 1, 1, 101, 0, false), "PE 1 passed the token to PE 1; the ring runs PE 1 → PE 0");
        let mut odd = token(2, 1, 0, 101, 0, false);
        if let Event::Send { data, .. } = &mut odd {
            *data = Some(Box::new(serde_json::json!({"count": 0, "colour": "white"})));
        }
        safra_fails_at(101, odd, r#"whose `data` is not Safra's token {"q": integer, "black": bool}"#);
    }

    #[test]
    fn safra_tokens_are_passed_on_only_by_their_holder() {
        let mut events = safra_run();
        let i = sent(&events, 103) + 1;
        events.insert(i, token(16, 1, 0, 107, -1, false));
        safra_fails(events, i, "PE 1 passed the token on, but it has not received it since it last passed it");
        let mut events = safra_run();
        let i = sent(&events, 102) + 1;
        events.insert(i, token(10, 0, 1, 108, 0, false));
        safra_fails(events, i, "PE 0 started a round, but the token has not come back since it started the last");
    }

    #[test]
    fn safra_tokens_add_the_count_and_the_colour() {
        safra_fails_at(
            103,
            token(15, 1, 0, 103, 0, true),
            "q = 0, but it came with q = 0 and c_1 (work sent − received) is -1: q + c_1 = -1 (EWD998 rule 2)",
        );
        safra_fails_at(
            103,
            token(15, 1, 0, 103, -1, false),
            "PE 1 passed the token white, but it received work since it last passed it (EWD998 rules 3, 4",
        );
        safra_fails_at(
            105,
            token(19, 1, 0, 105, -1, true),
            "PE 1 passed the token black, but it came in white and PE 1 received no work since it last passed it",
        );
    }

    #[test]
    fn safra_rounds_start_white_at_zero_and_only_when_inconclusive() {
        safra_fails_at(
            102,
            token(10, 0, 1, 102, 1, false),
            "PE 0 started a round with q = 1, white; a round starts with a white token and q = 0",
        );
        let mut events = safra_run();
        let i = position(&events, |e| matches!(e, Event::Announce { .. }));
        events.truncate(i);
        events.push(token(21, 0, 1, 106, 0, false));
        safra_fails(events, i, "PE 0 started a new round, but the token came back white with q + c_0 = 0 and PE 0 white: it announces then (EWD998 rule 5)");
    }

    #[test]
    fn safra_announces_only_on_a_conclusive_round() {
        // Before the token is back.
        let mut events = safra_run();
        let i = position(&events, |e| matches!(e, Event::Recv { id: 105, .. }));
        events.swap(i, i + 1);
        safra_fails(events, i, "PE 0 announced termination without the token back (EWD998 rule 5)");
        // On round 2's black token.
        let mut events = safra_run();
        let i = sent(&events, 104);
        events.truncate(i);
        events.push(Event::Announce { t: 17, pe: 0 });
        safra_fails(events, i, "PE 0 announced termination on a black token");
        // On round 1's white token with q + c_0 = 1.
        let mut events = safra_run();
        let i = sent(&events, 102);
        events.truncate(i);
        events.push(Event::Announce { t: 10, pe: 0 });
        safra_fails(events, i, "PE 0 announced termination with q + c_0 = 0 + 1 = 1, not 0");
        // PE 0 received work in round 3 (PE 1 sent it, so the counts still balance).
        let mut events = safra_run();
        let i = sent(&events, 105);
        events[i] = token(19, 1, 0, 105, 0, false);
        events.splice(i..i, [send(18, 1, 0, 7, Kind::Work), recv(18, 0, 1, 7, Kind::Work)]);
        let at = position(&events, |e| matches!(e, Event::Announce { .. }));
        safra_fails(
            events,
            at,
            "PE 0 announced termination, but it received work since its round started (it is black",
        );
    }

    #[test]
    fn energy_announcer_must_hold_all_of_it() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Energy { t: 17, .. }));
        events[i] = energy(17, 0, "1/2^1");
        let v = assert_fails(NAME, &check(&with_detector("energy-tree", 2), events), Some(line_of(i + 1)));
        assert!(
            v.detail.ends_with("PE 0 announced termination holding energy 1/2^1, not all of it (1)"),
            "{}",
            v.detail
        );
    }
}
