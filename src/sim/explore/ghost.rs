//! The ghost state of an explored run: what the exact predicates need
//! beyond the PEs' own state — the work done (002 eq. (1): it must add up
//! to the sequential run), each PE's energy holding (003 §14.7.4: holdings
//! plus energy in flight are exactly 1), and the requests each PE is
//! waiting on (001 Fig. 1: every request gets one reply). It reads the
//! run's events, as the checker does, and is part of the state's digest,
//! so two paths merge only if their ghosts agree.

use super::search::Violation;
use crate::base::Fraction;
use crate::event::{Event, Kind};
use crate::problem::Fingerprint;
use crate::protocol::PeId;

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct Ghost {
    pes: u32,
    done: Fingerprint,
    /// Energy held per PE, once a PE reported energy (energy detectors).
    held: Option<Vec<Fraction>>,
    /// Requests sent by `from` to `to` not yet answered, at `from · P + to`.
    asked: Vec<u32>,
}

impl Ghost {
    /// For `pes` PEs; PE 0 holds energy 1 (it starts with the root).
    pub fn new(pes: u32) -> Ghost {
        Ghost { pes, done: Fingerprint::default(), held: None, asked: vec![0; (pes * pes) as usize] }
    }

    /// Reads one event of the run, as the checker would: a slice's work,
    /// a PE's new energy holding, a request sent, and a reject or work
    /// received (each answers a request).
    pub fn observe(&mut self, event: &Event) {
        match event {
            Event::Work { fp, .. } => self.done += *fp,
            Event::Energy { pe, held, .. } => self.held(*pe, held.clone()),
            Event::Send { from, to, kind: Kind::Request, .. } => self.asked[(from * self.pes + to) as usize] += 1,
            Event::Recv { pe, from, kind: Kind::Reject | Kind::Work, .. } => {
                let waiting = &mut self.asked[(pe * self.pes + from) as usize];
                *waiting = waiting.saturating_sub(1);
            }
            _ => {}
        }
    }

    /// PE `pe` reported its holding.
    fn held(&mut self, pe: PeId, held: Fraction) {
        let pes = self.pes as usize;
        let holdings = self.held.get_or_insert_with(|| {
            let mut v = vec![Fraction::zero(); pes];
            v[0] = Fraction::one();
            v
        });
        holdings[pe as usize] = held;
    }

    /// At time `now`, with the energies of the messages in flight: the
    /// total must be exactly 1 (once energy is in use).
    pub fn energy_violation(&self, now: u64, in_flight: impl Iterator<Item = Fraction>) -> Option<Violation> {
        let held = self.held.as_ref()?;
        let total = in_flight.fold(held.iter().fold(Fraction::zero(), |s, e| &s + e), |s, e| s + e);
        (total != Fraction::one()).then(|| Violation {
            property: "energy_conserved".into(),
            detail: format!("at t = {now} the energy held and in flight totals {total}, not 1"),
        })
    }

    /// At the end of a run: all the work done (unless the workload prunes:
    /// `reference` is `None`), every request answered.
    pub fn end_violation(&self, reference: Option<&Fingerprint>) -> Option<Violation> {
        if let Some(reference) = reference.filter(|r| self.done != **r) {
            let detail = format!(
                "the PEs did {} (fingerprint {}); the sequential run does {}",
                self.done.units, self.done, reference
            );
            return Some(Violation { property: "work_conserved".into(), detail });
        }
        let i = self.asked.iter().position(|&n| n > 0)?;
        let (from, to) = (i as u32 / self.pes, i as u32 % self.pes);
        let detail = format!("PE {from}'s request to PE {to} was never answered");
        Some(Violation { property: "requests_answered".into(), detail })
    }
}
