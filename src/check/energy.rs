//! `energy_conserved` (003 §14.7.4): the energy held by all PEs plus the
//! energy in flight is exactly 1 — computed exactly, with [`Fraction`]s.
//!
//! Holdings come from `energy` events (`held` is the PE's new holding); the
//! announcer (the header's, PE 0 by default) starts with all the energy, 1,
//! and every other PE with 0. Energy in flight comes from `send`s that carry energy,
//! until the `recv` of the same id. A driver reports one step of the
//! protocol as several events at the same time (the sender's `energy` and
//! the `send`, in either order; a `recv` and the receiver's `energy`), so the
//! total is checked at the end of each step — at an event that starts a new
//! step, and at the end of the stream — from the first event that carries
//! energy on. A step is the events with one time `t`; with `clock` `ns` or
//! `seq` (where every event may have its own `t`), consecutive events of one
//! PE also belong to one step, so a sender logs its `send` and its `energy`
//! update next to each other. Streams without energy pass as not applicable,
//! unless the header declares an energy detector (`energy`, `energy-tree`):
//! then its stream must carry energy, and every work message must carry some.
//! A work message that carries energy carries a positive share (halving
//! never reaches 0): one with energy 0 fails, since the work it carries
//! could go on while PE 0 holds all the energy.
//!
//! Totals are kept incrementally, so an event costs O(1) dyadic operations
//! whatever the number of PEs.

use rustc_hash::FxHashMap as HashMap;

use super::{Book, Metrics, Property, Verdict};
use crate::base::Fraction;
use crate::event::{Event, Kind, TraceHeader};
use crate::protocol::DetectorKind;

/// State of the `energy_conserved` check.
pub(super) struct EnergyConserved {
    /// Holdings per PE of the header (zero for none), by PE.
    held: Vec<Fraction>,
    /// Nonzero holdings of PEs outside the header's range (a malformed
    /// trace, which `trace_well_formed` reports).
    held_beyond: HashMap<u32, Fraction>,
    /// Energy of the messages in flight, by id.
    in_flight: HashMap<u64, Fraction>,
    held_total: Fraction,
    flight_total: Fraction,
    /// True once an event carried energy.
    active: bool,
    /// Time of the current step, its acting PE, and the line of its latest event.
    step_t: u64,
    step_pe: Option<u32>,
    step_line: usize,
    /// Consecutive events of one PE form one step (clocks `ns`, `seq`).
    by_pe: bool,
    /// The header declares an energy detector (`energy`, `energy-tree`):
    /// then the stream must carry energy, on every work message.
    declared: Option<String>,
    steps_checked: u64,
    violation: Option<(usize, String)>,
}

impl EnergyConserved {
    /// For the trace of `header` (its clock and declared detector).
    pub(super) fn new(header: &TraceHeader) -> EnergyConserved {
        let energy = [DetectorKind::Energy, DetectorKind::EnergyTree];
        let declared = header.detector.parse().is_ok_and(|d| energy.contains(&d)).then(|| header.detector.clone());
        let mut check = EnergyConserved {
            held: vec![Fraction::zero(); header.pes.min(super::MAX_PES) as usize],
            held_beyond: HashMap::default(),
            in_flight: HashMap::default(),
            held_total: Fraction::zero(),
            flight_total: Fraction::zero(),
            active: false,
            step_t: 0,
            step_pe: None,
            step_line: 0,
            by_pe: !header.clock.is_model(),
            declared,
            steps_checked: 0,
            violation: None,
        };
        check.set_held(header.announcer(), &Fraction::one());
        check.active = false; // no energy seen yet
        check
    }

    /// True if `e` (by PE `pe`, at `t`) continues the current step.
    fn same_step(&self, t: u64, pe: Option<u32>) -> bool {
        t == self.step_t || (self.by_pe && pe.is_some() && pe == self.step_pe)
    }

    /// Checks the total as of the end of the current time step.
    fn check_step(&mut self) {
        if !self.active || self.violation.is_some() {
            return;
        }
        self.steps_checked += 1;
        let total = &self.held_total + &self.flight_total;
        if !total.is_one() {
            let why = format!(
                "line {}: at the end of time step t={}, the total energy is {total} ({} held + {} in flight), not 1",
                self.step_line, self.step_t, self.held_total, self.flight_total
            );
            self.violation = Some((self.step_line, why));
        }
    }

    #[inline(always)]
    fn apply(&mut self, e: &Event) {
        match e {
            Event::Energy { pe, held, .. } => self.set_held(*pe, held),
            Event::Send { id, energy: Some(en), .. } => self.launch(*id, en),
            Event::Recv { id, .. } => self.land(*id),
            _ => {}
        }
    }

    /// Sets `pe`'s holding, its slot's digits reused (issue 30: a holding
    /// spans up to n/p bits on a big tree).
    fn set_held(&mut self, pe: u32, held: &Fraction) {
        self.active = true;
        self.held_total += held;
        match self.held.get_mut(pe as usize) {
            Some(slot) => {
                self.held_total -= slot;
                slot.clone_from(held);
            }
            None => {
                let old = if held.is_zero() {
                    self.held_beyond.remove(&pe)
                } else {
                    self.held_beyond.insert(pe, held.clone())
                };
                if let Some(old) = old {
                    self.held_total -= &old;
                }
            }
        }
    }

    /// Prefetches PE `pe`'s holding ([`super::Checker::prefetch`]).
    pub(super) fn prefetch(&self, pe: u32) {
        super::ahead(&self.held, pe);
    }

    fn launch(&mut self, id: u64, energy: &Fraction) {
        self.active = true;
        self.flight_total += energy;
        if let Some(old) = self.in_flight.insert(id, energy.clone()) {
            self.flight_total -= &old; // a reused id: trace_well_formed reports it
        }
    }

    fn land(&mut self, id: u64) {
        if let Some(energy) = self.in_flight.remove(&id) {
            self.flight_total -= &energy;
        }
    }
}

/// The PE an event is an action of (`None` for waves and the end).
#[inline(always)]
pub(super) fn acting_pe(e: &Event) -> Option<u32> {
    match *e {
        Event::Send { from, .. } => Some(from),
        Event::Work { pe, .. }
        | Event::Split { pe, .. }
        | Event::Recv { pe, .. }
        | Event::Busy { pe, .. }
        | Event::Idle { pe, .. }
        | Event::Energy { pe, .. }
        | Event::Announce { pe, .. }
        | Event::Terminated { pe, .. } => Some(pe),
        Event::Header(_) | Event::Wave { .. } | Event::Phase { .. } | Event::End { .. } => None,
    }
}

impl Property for EnergyConserved {
    const NAME: &'static str = "energy_conserved";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, _: &Book) {
        if let Event::Header(_) = e {
            return;
        }
        let pe = acting_pe(e);
        if !self.same_step(e.time(), pe) {
            self.check_step();
        }
        (self.step_t, self.step_pe) = (e.time(), pe);
        self.apply(e);
        self.step_line = line;
        if let (Event::Send { id, kind: Kind::Work, energy: None, .. }, Some(d)) = (e, &self.declared) {
            if self.violation.is_none() {
                let why =
                    format!("line {line}: work message {id} carries no energy, but the header declares detector `{d}`");
                self.violation = Some((line, why));
            }
        }
        if let Event::Send { id, kind: Kind::Work, energy: Some(en), .. } = e {
            if en.is_zero() && self.violation.is_none() {
                let why = format!("line {line}: work message {id} carries energy 0: its work could be done after PE 0 holds all the energy (003 §14.7.4: a share is half the sender's, never 0)");
                self.violation = Some((line, why));
            }
        }
    }

    fn finish(mut self, _: &Metrics, _: &Book) -> Verdict {
        self.check_step();
        match (self.active, self.violation) {
            (false, None) => match self.declared {
                Some(d) => {
                    Verdict::fail(format!("the header declares detector `{d}`, but no event carries energy"), None)
                }
                None => Verdict::pass("not applicable: no energy in the stream"),
            },
            (_, Some((line, why))) => Verdict::fail(why, Some(line)),
            (true, None) => Verdict::pass(format!(
                "total energy exactly 1 at the end of each of {} time steps; finally {} held, {} in flight",
                self.steps_checked, self.held_total, self.flight_total
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;
    use crate::event::{Clock, Kind, TraceHeader};

    const NAME: &str = EnergyConserved::NAME;

    /// One sequence number per event (`clock: seq`): a correct trace passes,
    /// since a PE's send and energy update stand next to each other; the
    /// same times read as model time split them into two steps and fail.
    #[test]
    fn sequence_numbered_traces_are_checked_step_by_step() {
        let mut events = two_pes();
        for (i, e) in events.iter_mut().enumerate() {
            if let Some(t) = e.time_mut() {
                *t = i as u64;
            }
        }
        let seq = TraceHeader { clock: Clock::Seq, ..header(2) };
        assert_passes(NAME, &run_with_header(&seq, reference_of(&events), events.clone()));
        let r = run(2, events);
        assert!(!r.properties[NAME].pass, "{}", r.properties[NAME].detail);
    }

    /// With `clock: seq`, a step ends where another PE acts: PE 1 taking
    /// its half before PE 0 sent it (a total of 3/2 until then) fails
    /// there, although the total is 1 again by the end (cargo-mutants:
    /// `acting_pe` → `Some(1)`, one PE for every event, passed it).
    #[test]
    fn with_sequence_numbers_a_step_ends_where_another_pe_acts() {
        let mut events = two_pes();
        let taken = position(&events, |e| matches!(e, Event::Energy { t: 5, pe: 1, .. }));
        let early = events.remove(taken);
        let split = position(&events, |e| matches!(e, Event::Split { .. }));
        events.insert(split + 1, early);
        for (i, e) in events.iter_mut().enumerate() {
            if let Some(t) = e.time_mut() {
                *t = i as u64;
            }
        }
        let seq = TraceHeader { clock: Clock::Seq, ..header(2) };
        let v = assert_fails(NAME, &run_with_header(&seq, reference_of(&events), events), Some(line_of(split + 1)));
        assert!(v.detail.contains("the total energy is 3/2^1"), "{}", v.detail);
    }

    /// A work message with energy 0 fails at its `send`, before any total
    /// is off.
    #[test]
    fn a_work_message_with_no_energy_share_fails() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Send { kind: Kind::Work, .. }));
        if let Event::Send { energy, .. } = &mut events[i] {
            *energy = Some(Fraction::zero());
        }
        let v = assert_fails(NAME, &run(2, events), Some(i + 2)); // line 1 is the header
        assert!(v.detail.contains("carries energy 0"), "{}", v.detail);
    }

    /// A header that declares an energy detector must carry energy, on
    /// every work message.
    #[test]
    fn a_declared_energy_detector_needs_its_energy() {
        let declared = TraceHeader { detector: "energy-tree".into(), ..header(1) };
        let events = single_pe();
        let v = assert_fails(NAME, &run_with_header(&declared, reference_of(&events), events), None);
        assert_eq!(v.detail, "the header declares detector `energy-tree`, but no event carries energy");
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Send { kind: Kind::Work, .. }));
        if let Event::Send { energy, .. } = &mut events[i] {
            *energy = None;
        }
        let declared = TraceHeader { detector: "energy".into(), ..header(2) };
        let v = assert_fails(NAME, &run_with_header(&declared, reference_of(&events), events), Some(line_of(i)));
        assert!(v.detail.contains("work message 2 carries no energy"), "{}", v.detail);
        assert_passes(NAME, &run_with_header(&declared, reference_of(&two_pes()), two_pes()));
    }

    /// The announcer starts with 1, so a trace need not log it, and a
    /// request carrying energy 0 before any `energy` event is no violation.
    #[test]
    fn the_announcer_starts_with_all_the_energy() {
        let mut events = two_pes();
        events.retain(|e| !matches!(e, Event::Energy { t: 0, .. }));
        events[1] = send_e(1, 1, 0, 1, Kind::Request, "0");
        assert_passes(NAME, &run(2, events.clone()));
        let elsewhere = TraceHeader { announcer: Some(1), ..header(2) };
        let v = assert_fails(NAME, &run_with_header(&elsewhere, reference_of(&events), events), Some(line_of(6)));
        assert!(v.detail.contains("t=3, the total energy is 2 (3/2^1 held"), "{}", v.detail);
    }

    #[test]
    fn correct_streams_pass() {
        let r = run(1, single_pe());
        assert_passes(NAME, &r);
        assert_eq!(r.properties[NAME].detail, "not applicable: no energy in the stream");
        let r = run(2, two_pes());
        assert_passes(NAME, &r);
        assert!(r.properties[NAME].detail.starts_with("total energy exactly 1"));
    }

    #[test]
    fn energy_event_before_or_after_the_send_both_pass() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Send { id: 2, .. }));
        events.swap(i, i + 1);
        assert_passes(NAME, &run(2, events));
    }

    #[test]
    fn a_total_of_three_halves_fails_at_the_end_of_its_step() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Send { id: 2, .. }));
        if let Event::Send { energy, .. } = &mut events[i] {
            *energy = Some(Fraction::one()); // the sender kept its half too
        }
        let r = run(2, events);
        let v = assert_fails(NAME, &r, Some(line_of(i + 1)));
        assert!(v.detail.contains("t=3, the total energy is 3/2^1"), "{}", v.detail);
    }

    #[test]
    fn energy_lost_in_the_last_step_fails_at_finish() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Energy { t: 17, .. }));
        events[i] = energy(17, 0, "1/2^1");
        let last_of_step = position(&events, |e| matches!(e, Event::Send { id: 6, .. }));
        assert_fails(NAME, &run(2, events), Some(line_of(last_of_step)));
    }

    #[test]
    fn an_energy_message_without_energy_fails() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Send { kind: Kind::Energy, .. }));
        events[i] = send(15, 1, 0, 5, Kind::Energy);
        let v = assert_fails(NAME, &run(2, events), Some(line_of(i)));
        assert!(v.detail.contains("t=15"), "{}", v.detail);
    }
}
