//! `service_latency` (001 Lemma 1.2, 001 Fig. 1; 003 §14.7.2): a busy PE
//! with requests queued answers one at every poll (random polling), or
//! every one queued (Pacheco's Service_requests, and random polling with
//! `--serve all`), so one is answered every Δt + T_split of its time.
//!
//! Random polling polls between work slices, and each slice is one `work`
//! event, so the rule is checked slice by slice, in any clock: when a PE
//! logs `work` while requests it received are still unanswered, it sends
//! the replies it owes (`work` or `reject`: one, or all those queued) before
//! its next `work` event. Going idle ends the obligation (the PE then
//! rejects what is queued, which `requests_answered` checks). Requests are
//! counted per PE: +1 at each `recv` of a request, −1 at each reply it
//! sends while one is pending (a `work` message sent with none pending is
//! an initial part, not a reply).
//!
//! The polls themselves are checked against the declared Δt (`run.dt`,
//! or the `spec`'s): a busy PE polls after every Δt units of work, so no
//! `work` event has more than Δt units — an implementation that polls far
//! too rarely fails. Except for `loop:` workloads, whose iterations are
//! indivisible (002 §4.2: a slice ends after the iteration that reaches
//! Δt), and traces that declare no Δt.
//!
//! Applies when the header's `balancer` is `random-polling` (all queued
//! with `run.serve_all`) or `pacheco` (all queued); for any other balancer
//! the trace does not say where its polls are, and the verdict says "not
//! applicable".

use super::{Book, Metrics, Property, Verdict};
use crate::event::{Event, Kind, TraceHeader};
use crate::protocol::BalancerKind;
use crate::sim::prefetch::huge_vec;

/// One PE's service state.
#[derive(Clone, Copy, Default)]
struct Server {
    /// Requests received and not yet answered.
    pending: u32,
    /// Replies owed since the `work` event of this line (the poll after it).
    owes: Option<(usize, u32)>,
}

/// State of the `service_latency` check.
pub(super) struct ServiceLatency {
    /// Per PE, or the balancer's name when it has no polls to check.
    servers: Result<Vec<Server>, String>,
    /// A poll answers every queued request (else one).
    all: bool,
    /// The declared Δt, when slices are checked against it.
    dt: Option<u64>,
    polls: u64,
    violation: Option<(usize, String)>,
}

impl ServiceLatency {
    /// For the run of `header` (its PEs and balancer).
    pub(super) fn new(header: &TraceHeader) -> ServiceLatency {
        let serve_all = header.run_record().is_some_and(|r| r.serve_all);
        let (servers, all) = match header.balancer.parse() {
            Ok(b @ (BalancerKind::RandomPolling | BalancerKind::Pacheco)) => {
                let all = b == BalancerKind::Pacheco || serve_all;
                (Ok(huge_vec(header.pes.min(super::MAX_PES) as usize, |_| Server::default())), all)
            }
            _ => (Err(header.balancer.clone()), false),
        };
        let divisible = !header.workload.starts_with("loop:");
        let dt = header.run_record().map(|r| r.dt).filter(|&dt| dt > 0 && divisible);
        ServiceLatency { servers, all, dt, polls: 0, violation: None }
    }

    fn on_work(&mut self, line: usize, pe: u32, units: u64) -> Option<String> {
        let (all, dt) = (self.all, self.dt);
        if let (Some(dt), Ok(_)) = (dt, &self.servers) {
            if units > dt {
                return Some(format!(
                    "line {line}: PE {pe} worked {units} units between two polls; the run declares Δt = {dt} (a poll after every Δt units of work, 001 Fig. 1)"
                ));
            }
        }
        let s = self.servers.as_mut().ok()?.get_mut(pe as usize)?;
        if let Some((earlier, owed)) = s.owes {
            let rule =
                if all { "every request queued at a poll is answered there" } else { "one is answered at every poll" };
            return Some(format!(
                "line {line}: PE {pe} worked another slice with {owed} of the requests queued at its poll after line {earlier} unanswered ({} queued now; {rule})",
                s.pending
            ));
        }
        if s.pending > 0 {
            s.owes = Some((line, if all { s.pending } else { 1 }));
            self.polls += 1;
        }
        None
    }

    fn server(&mut self, pe: u32) -> Option<&mut Server> {
        self.servers.as_mut().ok()?.get_mut(pe as usize)
    }
}

impl ServiceLatency {
    /// Prefetches PE `pe`'s server ([`super::Checker::prefetch`]).
    pub(super) fn prefetch(&self, pe: u32) {
        if let Ok(servers) = &self.servers {
            super::ahead(servers, pe);
        }
    }
}

impl Property for ServiceLatency {
    const NAME: &'static str = "service_latency";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, _: &Book) {
        if self.violation.is_some() {
            return;
        }
        match *e {
            Event::Work { pe, units, .. } => self.violation = self.on_work(line, pe, units).map(|why| (line, why)),
            Event::Recv { pe, kind: Kind::Request, .. } => self.server(pe).iter_mut().for_each(|s| s.pending += 1),
            Event::Send { from, kind: Kind::Work | Kind::Reject, .. } => {
                if let Some(s) = self.server(from).filter(|s| s.pending > 0) {
                    s.pending -= 1;
                    s.owes = s.owes.and_then(|(line, owed)| (owed > 1).then_some((line, owed - 1)));
                }
            }
            Event::Idle { pe, .. } => self.server(pe).iter_mut().for_each(|s| s.owes = None),
            _ => {}
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        match (self.servers, self.violation) {
            (_, Some((line, why))) => Verdict::fail(why, Some(line)),
            (Err(b), None) => Verdict::pass(format!(
                "not applicable: balancer `{b}` has no polls this check knows (the trace does not show them)"
            )),
            (Ok(_), None) => Verdict::pass(format!(
                "at each of {} polls with requests queued, {} answered before the next slice",
                self.polls,
                if self.all { "all were" } else { "one was" }
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;

    const NAME: &str = ServiceLatency::NAME;

    fn rp(pes: u32) -> TraceHeader {
        TraceHeader { balancer: "random-polling".into(), ..header(pes) }
    }

    fn check(events: Vec<Event>) -> crate::check::CheckReport {
        run_with_header(&rp(2), reference_of(&events), events)
    }

    /// `two_pes` with PE 0's first slice cut in two: the request is queued
    /// at the first `work` and answered after the second.
    fn two_slices_before_the_reply() -> Vec<Event> {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Work { t: 2, .. }));
        events[i] = work(1, 0, 0, 0, 1);
        events.insert(i + 2, work(2, 0, 0, 1, 2)); // after the request's recv, before the split
        events
    }

    #[test]
    fn correct_streams_pass() {
        assert_passes(NAME, &check(two_pes()));
        let r = check(two_slices_before_the_reply());
        assert_passes(NAME, &r);
        assert!(r.properties[NAME].detail.starts_with("at each of 1 polls with requests queued"), "{:?}", r.properties);
        let r = run(2, two_pes());
        assert_eq!(
            r.properties[NAME].detail,
            "not applicable: balancer `test-balancer` has no polls this check knows (the trace does not show them)"
        );
    }

    /// A hand-written foreign trace: PEs 1 and 2 ask PE 0, both requests
    /// are queued at its poll after the first slice, and it answers one
    /// there, the other after its second slice.
    fn one_of_two_answered() -> Vec<Event> {
        vec![
            Event::Busy { t: 0, pe: 0 },
            send(1, 1, 0, 1, Kind::Request),
            send(1, 2, 0, 2, Kind::Request),
            recv(3, 0, 1, 1, Kind::Request),
            recv(3, 0, 2, 2, Kind::Request),
            work(5, 0, 0, 0, 5),
            send(5, 0, 1, 3, Kind::Reject),
            work(10, 0, 0, 5, 10),
            send(10, 0, 2, 4, Kind::Reject),
        ]
    }

    /// Pacheco's service point answers every queued request (003 §14.7.2's
    /// Service_requests): answering one of two fails; random polling's poll
    /// answers one (001 Fig. 1), so there the same trace passes, unless it
    /// declares `serve_all`.
    #[test]
    fn a_pacheco_service_point_that_answers_one_of_two_fails() {
        let pacheco = TraceHeader { balancer: "pacheco".into(), ..header(3) };
        let events = one_of_two_answered();
        let v = assert_fails(NAME, &run_with_header(&pacheco, reference_of(&events), events.clone()), Some(line_of(7)));
        let why = format!("PE 0 worked another slice with 1 of the requests queued at its poll after line {} unanswered (1 queued now; every request queued at a poll is answered there)", line_of(5));
        assert!(v.detail.contains(&why), "{}", v.detail);
        assert_passes(NAME, &run_with_header(&rp(3), reference_of(&events), events.clone()));
        let run = Some(Box::new(crate::event::RunParams { serve_all: true, ..Default::default() }));
        let serve_all = TraceHeader { run, ..rp(3) };
        assert_fails(NAME, &run_with_header(&serve_all, reference_of(&events), events), Some(line_of(7)));
    }

    /// A foreign trace declaring Δt = 4 whose PE polls after 8 units fails
    /// (polls far too rarely); with Δt = 10, or on a loop, whose iterations
    /// are indivisible, it passes.
    #[test]
    fn slices_longer_than_the_declared_dt_fail() {
        let with_dt = |dt: u64, workload: &str| {
            let run = Some(Box::new(crate::event::RunParams { dt, ..Default::default() }));
            TraceHeader { run, workload: workload.into(), ..rp(2) }
        };
        let events = two_pes(); // PE 0's second slice is 8 units
        let r = run_with_header(&with_dt(4, "custom"), reference_of(&events), events.clone());
        let at = position(&events, |e| matches!(e, Event::Work { t: 10, .. }));
        let v = assert_fails(NAME, &r, Some(line_of(at)));
        assert!(v.detail.contains("PE 0 worked 8 units between two polls; the run declares Δt = 4"), "{}", v.detail);
        assert_passes(NAME, &run_with_header(&with_dt(10, "custom"), reference_of(&events), events.clone()));
        assert_passes(NAME, &run_with_header(&with_dt(4, "loop:n=300"), reference_of(&events), events));
    }

    #[test]
    fn a_poll_that_serves_nobody_fails() {
        let mut events = two_slices_before_the_reply();
        let at = position(&events, |e| matches!(e, Event::Recv { id: 1, .. }));
        events.remove(at);
        let first = position(&events, |e| matches!(e, Event::Work { t: 1, .. }));
        events.insert(first, recv(1, 0, 1, 1, Kind::Request)); // queued before the first slice ends
        let second = position(&events, |e| matches!(e, Event::Work { t: 2, pe: 0, .. }));
        let v = assert_fails(NAME, &check(events), Some(line_of(second)));
        assert!(v.detail.contains("PE 0 worked another slice with 1 of the requests queued"), "{}", v.detail);
    }
}
