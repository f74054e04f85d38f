//! Poll-and-shuffle with local synchronisation (000 §6.3, Fig. 4; S-5):
//! no global clock inside a cycle. Each PE, after the work of its phase i
//! (T_phase units, or until its subproblem runs out), emits a local
//! barrier (a `phase` event with its `pe`) and sends "phase i finished"
//! to its dimension-i partner: a `request` if it is idle (the flag doubles
//! as the request, S-5), else a `sync` message. It then waits for the
//! partner's message of the same (cycle, i) and settles the exchange:
//!
//! | me   | partner | what I do                                            |
//! |------|---------|------------------------------------------------------|
//! | busy | busy    | start phase i+1                                      |
//! | busy | idle    | split, send the part (`work`, after T_split) or a `reject`; start phase i+1 |
//! | idle | busy    | wait for the partner's `work` or `reject`            |
//! | idle | idle    | `reject` the partner's request (Fig. 4: "reject incoming requests"), wait for its `reject` |
//!
//! Deviations, documented: Fig. 4's idle PE sends its request after the
//! wait; here the "phase finished" message carries it (S-5), so a busy
//! partner knows at the wait whether a request comes (Fig. 4's "IF a
//! request arrives" without a race). A PE does not work while it waits
//! (Fig. 4 as written; §6.3's multithreading is left out). The
//! permutation at the end of a cycle stays a global step, as the routing
//! of a permutation and its prefix sums are (000 §3.2): it starts when
//! every PE has finished its L phases and nothing is in flight, and the
//! barrier detector announces there when no PE holds work.
//!
//! Mutant `no-phase-wait` ([`Wait::Skip`]): a PE settles its exchange the
//! moment it sends its message, with whatever it has heard; a partner's
//! request that comes later is served at the PE's next local barrier, or
//! on arrival if the PE is not working — so requests and replies cross
//! phases (`same_phase_exchange`). Mutant `wait-wrong-dimension`
//! ([`Wait::NextDimension`]) waits for the dimension-(i+1) partner's
//! message, which that partner sends elsewhere: nothing is left to happen
//! while PEs wait, and the run ends without an announcement
//! (`termination_detected`).
//!
//! Latency is T_rout × hops of the topology, as on the global machine.
//! Events are emitted in (time, order made) at each cycle's end.

use super::{Machine, Outcome, Stop};
use crate::event::{Event, Kind};
use crate::problem::{Subproblem, WorkLog};
pub use crate::protocol::poll_and_shuffle::SyncMode;
use crate::protocol::poll_and_shuffle::{phases_per_cycle, Wait};
use crate::protocol::PeId;
use crate::sim::agenda::Agenda;

/// Where a PE is within its current phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Working on the phase (its local barrier is on the agenda).
    Working,
    /// Sent its message; waits for the partner's.
    Syncing,
    /// Idle, waits for the partner's `work` or `reject`.
    Awaiting,
    /// Finished the cycle's phases; waits for the permutation.
    Done,
}

/// A PE's progress through the cycle.
struct Progress {
    phase: u32,
    state: State,
    /// Partners' messages of later (or the current) phases: (phase, sender, idle).
    heard: Vec<(u32, PeId, bool)>,
    /// Requests of past phases to serve at the next local barrier (mutant).
    stray: Vec<PeId>,
}

/// A message on its way.
enum Msg<T> {
    /// "Phase `phase` finished"; `idle` makes it a request.
    Done { phase: u32, idle: bool },
    /// A reply: a part, or nothing (a reject).
    Reply(Option<T>),
}

/// What happens next.
enum Item<T> {
    /// The PE's phase work is over.
    Barrier(PeId),
    /// A message arrives.
    Arrive { to: PeId, from: PeId, id: u64, msg: Msg<T> },
}

/// One cycle's local synchronisation over the machine's PEs.
struct Local<'a, 's, T> {
    m: &'a mut Machine<'s, T>,
    agenda: Agenda<Item<T>>,
    pes: Vec<Progress>,
    phases: u32,
    cycle: u64,
}

impl<T: Subproblem> Machine<'_, T> {
    /// The cycles of 000 Fig. 4: L locally synchronised phases, then the
    /// permutation; the barrier detector announces at a cycle's end when
    /// no PE holds work. `cfg.max_steps` caps phases (checked per cycle).
    pub(super) fn local_cycles(mut self) -> Outcome {
        let phases = phases_per_cycle(self.cfg.topology, self.cfg.pes).max(1);
        let mut agenda = Agenda::default();
        let mut steps = 0;
        for cycle in 0.. {
            if steps >= self.cfg.max_steps {
                return Outcome { steps, end_time: self.now, stop: Stop::StepCap };
            }
            steps += u64::from(phases);
            let mut local = Local::new(&mut self, agenda, phases, cycle);
            local.run();
            let stuck = local.pes.iter().any(|p| p.state != State::Done);
            agenda = local.agenda;
            self.now = self.now.max(self.batch.last().unwrap_or(0));
            self.batch.emit_until(self.now, &mut *self.sink);
            if stuck {
                (self.sink)(Event::End { t: self.now }); // PEs wait for messages that never come
                return Outcome { steps, end_time: self.now, stop: Stop::Drained };
            }
            if !self.any_busy() {
                return self.terminate(steps);
            }
            if self.cfg.pes > 1 {
                self.shuffle();
            }
        }
        unreachable!("the loop returns")
    }
}

impl<'a, 's, T: Subproblem> Local<'a, 's, T> {
    fn new(m: &'a mut Machine<'s, T>, agenda: Agenda<Item<T>>, phases: u32, cycle: u64) -> Self {
        let fresh = || Progress { phase: 0, state: State::Working, heard: Vec::new(), stray: Vec::new() };
        let pes = (0..m.cfg.pes).map(|_| fresh()).collect();
        Local { m, agenda, pes, phases, cycle }
    }

    /// Every PE starts phase 0 now; runs until every PE is done and
    /// nothing is in flight.
    fn run(&mut self) {
        let start = self.m.now;
        (0..self.m.cfg.pes).for_each(|pe| self.start_phase(pe, start));
        while let Some((t, item)) = self.agenda.pop() {
            match item {
                Item::Barrier(pe) => self.barrier(pe, t),
                Item::Arrive { to, from, id, msg } => self.arrive(to, from, id, msg, t),
            }
        }
    }

    /// `pe` works its phase from `t` (T_phase units or until it runs out).
    fn start_phase(&mut self, pe: PeId, t: u64) {
        self.pes[pe as usize].state = State::Working;
        let (t_phase, slot) = (self.m.cfg.dt, &mut self.m.tasks[pe as usize]);
        let mut end = t;
        if let Some(task) = slot.as_mut().filter(|t| !t.is_empty()) {
            let (mut log, gen) = (WorkLog::default(), task.generation());
            let units = task.work(t_phase, &mut log);
            end = t + units;
            self.m.batch.push(Event::work(end, pe, units, gen, &log));
            if task.is_empty() {
                *slot = None;
                self.m.batch.push(Event::Idle { t: end, pe });
            }
        }
        self.agenda.push(end, Item::Barrier(pe));
    }

    /// `pe`'s local barrier: "phase i finished" to its partner, then the
    /// exchange once the partner's has come (at once for the mutant).
    fn barrier(&mut self, pe: PeId, t: u64) {
        let phase = self.pes[pe as usize].phase;
        self.m.batch.push(Event::Phase { t, cycle: self.cycle, phase, pe: Some(pe) });
        if self.m.cfg.pes == 1 {
            return self.next_phase(pe, t);
        }
        let idle = !self.m.busy(pe as usize);
        let to = self.m.rules.partner(pe, phase);
        self.send(pe, to, t, Msg::Done { phase, idle });
        self.pes[pe as usize].state = State::Syncing;
        let mut free = t;
        for asker in std::mem::take(&mut self.pes[pe as usize].stray) {
            free = self.serve(pe, asker, free);
        }
        self.settle(pe, free);
    }

    /// The exchange of `pe`'s phase, if the partner's message has come
    /// (or, for the mutant, with whatever `pe` has heard).
    fn settle(&mut self, pe: PeId, t: u64) {
        let p = &mut self.pes[pe as usize];
        let partner = self.m.rules.partner(pe, p.phase);
        let awaited = match self.m.rules.wait {
            Wait::NextDimension => pe ^ (1 << ((p.phase + 1) % self.m.cfg.pes.trailing_zeros())),
            Wait::Partner | Wait::Skip => partner,
        };
        let at = p.heard.iter().position(|&(phase, from, _)| phase == p.phase && from == awaited);
        let partner_idle = match at {
            Some(i) => p.heard.swap_remove(i).2,
            None if self.m.rules.wait != Wait::Skip => return,
            None => false, // no-phase-wait: heard no request, so none
        };
        match (self.m.busy(pe as usize), partner_idle) {
            (true, false) => self.next_phase(pe, t),
            (true, true) => {
                let free = self.serve(pe, partner, t);
                self.next_phase(pe, free);
            }
            (false, partner_idle) => {
                if partner_idle {
                    self.serve(pe, partner, t);
                }
                self.pes[pe as usize].state = State::Awaiting;
            }
        }
    }

    /// `pe` answers `asker`'s request at `t`: a part split off its
    /// subproblem, or a reject; returns when `pe` is free again.
    fn serve(&mut self, pe: PeId, asker: PeId, t: u64) -> u64 {
        let part = self.m.tasks[pe as usize].as_mut().filter(|t| !t.is_empty()).and_then(|t| t.split());
        let leaves = match &part {
            Some(part) => {
                self.m.batch.push(Event::Split { t, pe, gen: part.generation() });
                t + self.m.cfg.t_split
            }
            None => t,
        };
        self.send(pe, asker, leaves, Msg::Reply(part));
        leaves
    }

    /// `msg` leaves `from` for `to` at `t`.
    fn send(&mut self, from: PeId, to: PeId, t: u64, msg: Msg<T>) {
        let id = self.m.id();
        let kind = kind_of(&msg);
        self.m.batch.push(Event::Send { t, from, to, id, kind, energy: None, data: None });
        let at = t + self.m.latency(from, to);
        self.agenda.push(at, Item::Arrive { to, from, id, msg });
    }

    fn arrive(&mut self, pe: PeId, from: PeId, id: u64, msg: Msg<T>, t: u64) {
        let kind = kind_of(&msg);
        let queue = (kind == Kind::Request).then_some(0);
        self.m.batch.push(Event::Recv { t, pe, from, id, kind, queue, data: None });
        match msg {
            Msg::Done { phase, idle } => self.heard(pe, from, phase, idle, t),
            Msg::Reply(part) => self.reply(pe, part, t),
        }
    }

    /// `pe` hears that `from` finished `phase`: kept for that phase's
    /// exchange, or (a past phase's, only under the mutant) a stray
    /// request to serve.
    fn heard(&mut self, pe: PeId, from: PeId, phase: u32, idle: bool, t: u64) {
        let p = &mut self.pes[pe as usize];
        let pending = phase > p.phase || (phase == p.phase && matches!(p.state, State::Working | State::Syncing));
        if pending {
            p.heard.push((phase, from, idle));
            if phase == p.phase && p.state == State::Syncing {
                self.settle(pe, t);
            }
        } else if idle && p.state == State::Working {
            p.stray.push(from);
        } else if idle {
            self.serve(pe, from, t);
        }
    }

    /// The reply `pe` waited for: a part to work on, or a reject.
    fn reply(&mut self, pe: PeId, part: Option<T>, t: u64) {
        if let Some(part) = part {
            self.m.tasks[pe as usize] = Some(part);
            self.m.batch.push(Event::Busy { t, pe });
        }
        if self.pes[pe as usize].state == State::Awaiting {
            self.next_phase(pe, t);
        }
    }

    /// `pe` starts its next phase at `t`, or is done with the cycle.
    fn next_phase(&mut self, pe: PeId, t: u64) {
        let p = &mut self.pes[pe as usize];
        p.phase += 1;
        if p.phase == self.phases {
            p.state = State::Done;
        } else {
            self.start_phase(pe, t);
        }
    }
}

fn kind_of<T>(msg: &Msg<T>) -> Kind {
    match msg {
        Msg::Done { idle: true, .. } => Kind::Request,
        Msg::Done { idle: false, .. } => Kind::Sync,
        Msg::Reply(Some(_)) => Kind::Work,
        Msg::Reply(None) => Kind::Reject,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sync_modes_parse_and_print() {
        for m in [SyncMode::Global, SyncMode::Local] {
            assert_eq!(m.to_string().parse::<SyncMode>(), Ok(m));
        }
        assert_eq!(SyncMode::default(), SyncMode::Global);
        let err = "clock".parse::<SyncMode>().unwrap_err();
        assert_eq!((err.what, err.given.as_str()), ("sync", "clock"));
        assert!(err.to_string().contains("Fig. 4"));
    }

    #[test]
    fn messages_have_the_kinds_of_fig_4() {
        let kinds = [
            kind_of::<()>(&Msg::Done { phase: 0, idle: true }),
            kind_of::<()>(&Msg::Done { phase: 0, idle: false }),
            kind_of(&Msg::Reply(Some(()))),
            kind_of::<()>(&Msg::Reply(None)),
        ];
        assert_eq!(kinds, [Kind::Request, Kind::Sync, Kind::Work, Kind::Reject]);
    }
}
