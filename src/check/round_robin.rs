//! `round_robin` (003 §14.7.3, New_request; S-14): the round-robin victim
//! selections ask the PEs in turn.
//!
//! - Local round robin: PE i's first request goes to (i + 1) mod p, each
//!   later one to the rank after the last it asked, skipping i itself.
//! - Global round robin: PE 0 keeps one target counter. Each `target`
//!   message 0 → r (and each request PE 0 sends itself) takes the
//!   counter's value, skipping the requester, and moves the counter past
//!   it; requester r's next request must go to the target it was given.
//!   So the counter's first pass asks every PE once, except the ranks it
//!   passes over as their own requester: V(P) = P − s (`lbcheck bounds
//!   --balancer pacheco`, claim `v_p`).
//!   The counter may start anywhere: the rule is the rotation, not the
//!   start value (003 does not fix it; [`super::global_rr`]). And every
//!   `get_target` PE 0 receives gets its `target` (in order per
//!   requester), unless PE 0 had terminated when it arrived: a requester
//!   left without one never asks again.
//!
//! Read from the `send` events and PE 0's `recv`s of `get_target`. Applies when the header's `balancer`
//! is `pacheco` and its `run.victim` is `local-rr` or `global-rr`;
//! otherwise the verdict says "not applicable".

use std::collections::{BTreeMap, VecDeque};

use super::global_rr::{skip, Global};
use super::{Book, Metrics, Property, Verdict};
use crate::event::{Event, Kind, TraceHeader};
use crate::protocol::BalancerKind;

/// What is checked.
enum Mode {
    /// Nothing: why not.
    Off(String),
    /// Local round robin: each PE's next victim.
    Local { next: Vec<u32> },
    /// Global round robin: PE 0's counter, wherever it started.
    Global(Global),
}

/// State of the `round_robin` check.
pub(super) struct RoundRobin {
    mode: Mode,
    pes: u32,
    requests: u64,
    violation: Option<(usize, String)>,
    /// Global round robin: per requester, the lines of the `get_target`s
    /// PE 0 received and has not answered yet.
    unanswered: BTreeMap<u32, VecDeque<usize>>,
}

impl RoundRobin {
    /// False when the header says the check does not apply (then the
    /// [`super::Checker`] does not keep it: its events change nothing).
    pub(super) fn applies(&self) -> bool {
        !matches!(self.mode, Mode::Off(_))
    }

    /// For the run of `header` (its PEs, balancer and victim selection).
    pub(super) fn new(header: &TraceHeader) -> RoundRobin {
        let pes = header.pes.min(super::MAX_PES);
        let victim = header.run_record().and_then(|r| r.victim.clone());
        let victim = victim.as_deref();
        let mode = match (header.balancer.parse(), victim) {
            (Ok(BalancerKind::Pacheco), Some("local-rr")) => Mode::Local { next: (1..=pes).map(|i| i % pes).collect() },
            (Ok(BalancerKind::Pacheco), Some("global-rr")) => Mode::Global(Global::new(pes)),
            (Ok(BalancerKind::Pacheco), v) => Mode::Off(format!("victim selection `{}`", v.unwrap_or("random"))),
            _ => Mode::Off(format!("balancer `{}`", header.balancer)),
        };
        RoundRobin { mode, pes, requests: 0, violation: None, unanswered: BTreeMap::new() }
    }

    /// PE `from` asked `to`: the victim it should have asked, if another.
    fn on_request(&mut self, from: u32, to: u32) -> Option<String> {
        let pes = self.pes;
        let expected = match &mut self.mode {
            Mode::Off(_) => return None,
            Mode::Local { next } => {
                let e = *next.get(from as usize)?;
                next[from as usize] = skip(from, (to + 1) % pes, pes);
                e
            }
            Mode::Global(g) => {
                self.requests += 1;
                return g.on_request(from, to).err();
            }
        };
        self.requests += 1;
        (to != expected).then(|| format!("PE {from} asked PE {to}; round robin's turn was PE {expected}"))
    }

    /// PE 0 sent requester `to` a target.
    fn on_target(&mut self, to: u32) {
        if let Mode::Global(g) = &mut self.mode {
            g.on_target(to);
            if let Some(due) = self.unanswered.get_mut(&to) {
                due.pop_front();
            }
        }
    }

    /// The first `get_target` never answered: (line, requester).
    fn first_unanswered(&self) -> Option<(usize, u32)> {
        self.unanswered.iter().filter_map(|(&r, due)| Some((*due.front()?, r))).min()
    }
}

impl Property for RoundRobin {
    const NAME: &'static str = "round_robin";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, book: &Book) {
        if self.violation.is_some() {
            return;
        }
        match *e {
            Event::Send { from, to, kind: Kind::Request, .. } => {
                self.violation = self.on_request(from, to).map(|why| (line, format!("line {line}: {why}")));
            }
            Event::Send { from: 0, to, kind: Kind::Target, .. } => self.on_target(to),
            Event::Recv { pe: 0, from, kind: Kind::GetTarget, .. }
                if matches!(self.mode, Mode::Global(_)) && !book.activity.has_terminated(0) =>
            {
                self.unanswered.entry(from).or_default().push_back(line);
            }
            _ => {}
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        if let (None, Some((line, r))) = (&self.violation, self.first_unanswered()) {
            let why = format!("line {line}: PE 0 received PE {r}'s get_target and never sent it a target");
            return Verdict::fail(why, Some(line));
        }
        match (self.mode, self.violation) {
            (_, Some((line, why))) => Verdict::fail(why, Some(line)),
            (Mode::Off(what), None) => Verdict::pass(format!("not applicable: {what} is not a round robin")),
            (Mode::Global(Global { unjudged: Some(why), .. }), None) => {
                Verdict::pass(format!("{} requests; global round robin {why}", self.requests))
            }
            (_, None) => Verdict::pass(format!("each of {} requests went to the PE whose turn it was", self.requests)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;
    use crate::event::RunParams;

    const NAME: &str = RoundRobin::NAME;

    fn pacheco(pes: u32, victim: &str) -> TraceHeader {
        let run = Some(Box::new(RunParams { victim: Some(victim.into()), ..RunParams::default() }));
        TraceHeader { balancer: "pacheco".into(), run, ..header(pes) }
    }

    fn check(h: &TraceHeader, sends: &[(u32, u32, Kind)]) -> crate::check::CheckReport {
        let events: Vec<Event> =
            sends.iter().enumerate().map(|(i, &(f, t, k))| send(i as u64, f, t, i as u64 + 1, k)).collect();
        run_with_header(h, reference_of(&[]), events)
    }

    #[test]
    fn local_round_robin_asks_the_next_rank_skipping_itself() {
        let h = pacheco(3, "local-rr");
        let ok = [(1, 2, Kind::Request), (1, 0, Kind::Request), (1, 2, Kind::Request), (2, 0, Kind::Request)];
        assert!(check(&h, &ok).properties[NAME].pass);
        let stuck = [(1, 2, Kind::Request), (1, 2, Kind::Request)];
        let v = assert_fails(NAME, &check(&h, &stuck), Some(line_of(1)));
        assert!(v.detail.contains("turn was PE 0"), "{}", v.detail);
    }

    /// A `get_target` PE 0 received is answered by a `target`, unless PE 0
    /// had terminated (a requester left without one never asks again).
    #[test]
    fn every_get_target_pe_0_receives_is_answered() {
        let h = pacheco(4, "global-rr");
        let run = |events: Vec<Event>| run_with_header(&h, reference_of(&[]), events).properties[NAME].clone();
        let asked = || vec![send(1, 2, 0, 1, Kind::GetTarget), recv(2, 0, 2, 1, Kind::GetTarget)];
        let answered = [asked(), vec![send(3, 0, 2, 2, Kind::Target), recv(4, 2, 0, 2, Kind::Target)]].concat();
        assert!(run(answered).pass);
        let v = run(asked());
        assert!(!v.pass && v.detail.contains("PE 0 received PE 2's get_target and never sent it a target"), "{v:?}");
        assert_eq!(v.line, Some(line_of(1)));
        let late = run([vec![Event::Terminated { t: 1, pe: 0 }], asked()].concat());
        assert!(late.pass, "{late:?}");
    }

    #[test]
    fn global_round_robin_hands_out_the_counter_in_order() {
        let h = pacheco(4, "global-rr");
        let (t, r) = (Kind::Target, Kind::Request);
        // Counter 0: PE 1 gets 0; PE 0 itself asks 1; PE 2 gets 3 (2 is itself); PE 3 gets 0 (wrapped).
        let ok = [(0, 1, t), (1, 0, r), (0, 1, r), (0, 2, t), (2, 3, r), (0, 3, t), (3, 0, r)];
        assert!(check(&h, &ok).properties[NAME].pass, "{:?}", check(&h, &ok).properties[NAME]);
        let no_increment = [(0, 1, t), (1, 0, r), (0, 2, t), (2, 0, r)];
        let v = assert_fails(NAME, &check(&h, &no_increment), Some(line_of(3)));
        assert!(v.detail.contains("PE 2 asked PE 0; round robin's turn was PE 1"), "{}", v.detail);
        let no_target = [(2, 1, r)];
        assert!(assert_fails(NAME, &check(&h, &no_target), Some(line_of(0))).detail.contains("without a target"));
    }

    /// A correct global round robin whose counter starts at 1, 2 or 3 (not
    /// lbcheck's 0) passes: the rule is the rotation; its hand-outs may be
    /// revealed late (two targets out before the first request).
    #[test]
    fn global_round_robin_may_start_anywhere() {
        let h = pacheco(4, "global-rr");
        let (t, r) = (Kind::Target, Kind::Request);
        // Counter 1: PE 1 gets 2; PE 0 asks 3; PE 2 gets 0; PE 3 gets 1.
        let from_1 = [(0, 1, t), (1, 2, r), (0, 3, r), (0, 2, t), (2, 0, r), (0, 3, t), (3, 1, r)];
        assert!(check(&h, &from_1).properties[NAME].pass, "{:?}", check(&h, &from_1).properties[NAME]);
        // Counter 3: PE 1 gets 3, PE 2 gets 0 before either asks; PE 0 asks 1.
        let late = [(0, 1, t), (0, 2, t), (2, 0, r), (1, 3, r), (0, 1, r)];
        assert!(check(&h, &late).properties[NAME].pass, "{:?}", check(&h, &late).properties[NAME]);
        let out_of_turn = [(0, 1, t), (0, 2, t), (2, 0, r), (1, 2, r)];
        let v = assert_fails(NAME, &check(&h, &out_of_turn), Some(line_of(3)));
        assert!(v.detail.contains("PE 1 asked PE 2; round robin's turn was PE 3"), "{}", v.detail);
    }

    /// PE 0's counter from 8 hands out 35 targets on 16 PEs (some
    /// requesters twice) before its own request reveals one: 10 starts fit
    /// that, and a backward search's first 8 miss the true one. Every start
    /// that fits must be kept: the check once kept 8 and failed a correct
    /// run (P = 1,024, 840 targets before the first revealed one). A
    /// request out of turn after them still fails.
    #[test]
    fn global_round_robin_keeps_every_start_that_fits() {
        const PES: u32 = 16;
        let requesters = [
            15, 10, 15, 13, 11, 9, 3, 15, 12, 6, 3, 5, 11, 2, 2, 3, 11, 13, 8, 4, 12, 7, 4, 1, 10, 10, 15, 4, 9, 11,
            13, 7, 2, 5, 12,
        ];
        let mut counter = 8;
        let mut hand = |r: u32| {
            let t = skip(r, counter, PES);
            counter = (t + 1) % PES;
            t
        };
        let mut given = [None; PES as usize];
        let mut sends = Vec::new();
        for r in requesters {
            given[r as usize] = Some(hand(r));
            sends.push((0, r, Kind::Target));
        }
        sends.push((0, hand(0), Kind::Request));
        sends.extend((1..PES).filter_map(|r| Some((r, given[r as usize]?, Kind::Request))));
        let h = pacheco(PES, "global-rr");
        assert!(check(&h, &sends).properties[NAME].pass, "{:?}", check(&h, &sends).properties[NAME]);
        let next = hand(15);
        sends.extend([(0, 15, Kind::Target), (15, (next + 1) % PES, Kind::Request)]);
        assert_fails(NAME, &check(&h, &sends), Some(line_of(sends.len() - 1)));
    }

    #[test]
    fn other_victims_and_balancers_are_not_applicable() {
        let events = [(1, 1, Kind::Request), (1, 1, Kind::Request)];
        for h in [pacheco(3, "random"), header(3)] {
            let r = check(&h, &events);
            assert!(r.properties[NAME].detail.starts_with("not applicable"), "{}", r.properties[NAME].detail);
        }
    }
}
