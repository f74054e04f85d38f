//! `trace_well_formed`: the stream is a trace at all (the format of
//! [`crate::event`]): a supported header (its announcer one of its PEs,
//! its initial split one the schema allows), times that never decrease, PE
//! numbers below the header's `pes`, unique message ids, every `recv`
//! matching an earlier `send` (same endpoints and kind) at most once, a
//! header only first and nothing after `end`; and PEs that work only while
//! busy, becoming busy only with their initial part (the first `busy`) or
//! with a work message received since they went idle.
//!
//! The messages in flight and delivered are the checker's shared book's
//! ([`super::messages`]): memory proportional to the messages in flight
//! (plus the gaps between the ids of delivered ones), not to the length
//! of the run.

use super::messages::{Now, Sent};
use super::{violation_at, Book, Metrics, Property, Verdict};
use crate::event::{Event, Kind, TraceHeader, TRACE_VERSION};
use crate::protocol::initial::{InitialSplit, InitialSplitError};

/// State of the `trace_well_formed` check.
pub(super) struct WellFormed {
    pes: u32,
    observed: u64,
    /// True if the first event was a header (not counted as an event).
    header_first: bool,
    last_t: u64,
    end_line: Option<usize>,
    /// Messages sent and received.
    sent: u64,
    received: u64,
    /// Per PE: [`BUSY`], [`WAS_BUSY`], [`GOT_WORK`] flags.
    pe_flags: Vec<u8>,
    violation: Option<(usize, String)>,
}

/// How a stream fails to be a trace (the `trace_well_formed` failures).
#[derive(Debug, thiserror::Error)]
enum Malformed {
    /// The header's format version is not this checker's.
    #[error("trace format version {0}; this checker reads version {TRACE_VERSION}")]
    Version(u32),
    /// The header says P = 0.
    #[error("the header says the run has 0 PEs")]
    NoPes,
    /// The header's announcer is not one of its PEs.
    #[error("the header's announcer PE {announcer} is out of range: the run has {pes} PEs")]
    Announcer { announcer: u32, pes: u32 },
    /// The header's `run.initial_random` out of 1..=64, or without
    /// `run.initial_split` (docs/trace.schema.json).
    #[error("{0}")]
    InitialSplit(InitialSplitError),
    /// An event after `end` (on that line).
    #[error("event after `end` (line {0})")]
    AfterEnd(usize),
    /// A `header` other than the first event.
    #[error("a `header` may only be the first event")]
    LateHeader,
    /// A time before the previous event's.
    #[error("time {t} is before the previous event's time {last}")]
    TimeBack { t: u64, last: u64 },
    /// A PE number not below the header's `pes`.
    #[error("PE {pe} (`{field}`) out of range: the header says {pes} PEs")]
    Pe { pe: u32, field: &'static str, pes: u32 },
    /// `work` while idle.
    #[error("PE {0} logged work while idle (work is done between `busy` and `idle`)")]
    WorkWhileIdle(u32),
    /// `busy` again without a work message since `idle`.
    #[error("PE {0} became busy without receiving work since it went idle")]
    BusyWithoutWork(u32),
    /// A message id sent again after its message was received.
    #[error("message id {0} sent again (the first one was received already)")]
    ResentDelivered(u64),
    /// A message id sent again while its first message is in flight.
    #[error("message id {id} sent again (first sent on line {line})")]
    Resent { id: u64, line: usize },
    /// A message received twice.
    #[error("message {0} received twice")]
    ReceivedTwice(u64),
    /// A `recv` without a `send`.
    #[error("recv of message {0}, which was never sent")]
    NeverSent(u64),
    /// A `recv` whose endpoints are not its `send`'s.
    #[error("recv of message {id} at PE {pe} from PE {from}, but it was sent from PE {} to PE {} (line {})", .sent.from, .sent.to, .sent.line)]
    Endpoints { id: u64, pe: u32, from: u32, sent: Sent },
    /// A `recv` whose kind is not its `send`'s.
    #[error("recv of message {id} as `{}`, but it was sent as `{}` (line {})", .kind.name(), .sent.kind.name(), .sent.line)]
    Kind { id: u64, kind: Kind, sent: Sent },
}

/// The PE holds work (between `busy` and `idle`).
const BUSY: u8 = 1;
/// The PE has been busy before (its first `busy` may be its initial part).
const WAS_BUSY: u8 = 2;
/// The PE received a work message since it last went idle.
const GOT_WORK: u8 = 4;

impl WellFormed {
    /// What is wrong with the header's initial split, if anything.
    fn bad_initial_split(header: &TraceHeader) -> Option<InitialSplitError> {
        let run = header.run_record()?;
        InitialSplit::of_header(run.initial_split, run.initial_random).err()
    }

    /// Checks `header` (reported on line 1) and starts on the events.
    pub(super) fn new(header: &TraceHeader) -> WellFormed {
        let bad_header = if header.version != TRACE_VERSION {
            Some(Malformed::Version(header.version))
        } else if header.pes == 0 {
            Some(Malformed::NoPes)
        } else if header.announcer() >= header.pes {
            Some(Malformed::Announcer { announcer: header.announcer(), pes: header.pes })
        } else {
            Self::bad_initial_split(header).map(Malformed::InitialSplit)
        };
        WellFormed {
            pes: header.pes,
            observed: 0,
            header_first: false,
            last_t: 0,
            end_line: None,
            sent: 0,
            pe_flags: vec![0; header.pes.min(super::MAX_PES) as usize],
            received: 0,
            violation: bad_header.map(|why| (1, format!("line 1: {why}"))),
        }
    }

    /// Checks `e`; `now` is what it did to the messages (the book's).
    #[inline(always)]
    fn check(&mut self, line: usize, e: &Event, now: Now) -> Result<(), Malformed> {
        if let Some(end) = self.end_line {
            return Err(Malformed::AfterEnd(end));
        }
        if let Event::Header(_) = e {
            if self.observed > 1 {
                return Err(Malformed::LateHeader);
            }
            self.header_first = true;
            return Ok(());
        }
        self.check_time(e.time())?;
        self.check_pes(e)?;
        match *e {
            Event::Send { id, .. } => self.on_send(id, now),
            Event::Recv { pe, from, id, kind, .. } => {
                self.on_recv(pe, from, id, kind, now)?;
                self.set(pe, if kind == Kind::Work { GOT_WORK } else { 0 }, 0);
                Ok(())
            }
            Event::Busy { pe, .. } => self.on_busy(pe),
            Event::Idle { pe, .. } => {
                self.set(pe, 0, BUSY | GOT_WORK);
                Ok(())
            }
            Event::Work { pe, .. } if self.flags(pe) & BUSY == 0 => Err(Malformed::WorkWhileIdle(pe)),
            Event::End { .. } => {
                self.end_line = Some(line);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn flags(&self, pe: u32) -> u8 {
        self.pe_flags.get(pe as usize).copied().unwrap_or(0)
    }

    /// Sets `on` and clears `off` in PE `pe`'s flags.
    fn set(&mut self, pe: u32, on: u8, off: u8) {
        if let Some(f) = self.pe_flags.get_mut(pe as usize) {
            *f = (*f & !off) | on;
        }
    }

    /// A PE becomes busy with its initial part (its first `busy`) or with
    /// work it received since it went idle.
    fn on_busy(&mut self, pe: u32) -> Result<(), Malformed> {
        let f = self.flags(pe);
        if f & WAS_BUSY != 0 && f & (BUSY | GOT_WORK) == 0 {
            return Err(Malformed::BusyWithoutWork(pe));
        }
        self.set(pe, BUSY | WAS_BUSY, GOT_WORK);
        Ok(())
    }

    fn check_time(&mut self, t: u64) -> Result<(), Malformed> {
        if t < self.last_t {
            return Err(Malformed::TimeBack { t, last: self.last_t });
        }
        self.last_t = t;
        Ok(())
    }

    /// Every PE number the event names is below P: one comparison on the
    /// larger of the two (a field the event lacks reads as PE 0); only a
    /// trace that fails it is looked at field by field (issue 30).
    #[inline(always)]
    fn check_pes(&self, e: &Event) -> Result<(), Malformed> {
        let [a, b] = pes_of(e).map(|p| p.map_or(0, |(_, pe)| pe));
        match a.max(b) < self.pes {
            true => Ok(()),
            false => self.name_bad_pe(e),
        }
    }

    /// The field of `e` naming a PE out of range, if one does.
    #[cold]
    fn name_bad_pe(&self, e: &Event) -> Result<(), Malformed> {
        match pes_of(e).into_iter().flatten().find(|&(_, pe)| pe >= self.pes) {
            Some((field, pe)) => Err(Malformed::Pe { pe, field, pes: self.pes }),
            None => Ok(()),
        }
    }

    fn on_send(&mut self, id: u64, now: Now) -> Result<(), Malformed> {
        match now {
            Now::ResentDelivered => Err(Malformed::ResentDelivered(id)),
            Now::Resent(first) => Err(Malformed::Resent { id, line: first.line }),
            _ => {
                self.sent += 1;
                Ok(())
            }
        }
    }

    fn on_recv(&mut self, pe: u32, from: u32, id: u64, kind: Kind, now: Now) -> Result<(), Malformed> {
        let sent = match now {
            Now::Landed(sent) => sent,
            Now::Twice => return Err(Malformed::ReceivedTwice(id)),
            _ => return Err(Malformed::NeverSent(id)),
        };
        if (sent.from, sent.to) != (from, pe) {
            return Err(Malformed::Endpoints { id, pe, from, sent });
        }
        if sent.kind != kind {
            return Err(Malformed::Kind { id, kind, sent });
        }
        self.received += 1;
        Ok(())
    }
}

/// The PE numbers an event names, with their field names.
#[inline(always)]
fn pes_of(e: &Event) -> [Option<(&'static str, u32)>; 2] {
    match *e {
        Event::Send { from, to, .. } => [Some(("from", from)), Some(("to", to))],
        Event::Recv { pe, from, .. } => [Some(("pe", pe)), Some(("from", from))],
        Event::Work { pe, .. }
        | Event::Split { pe, .. }
        | Event::Busy { pe, .. }
        | Event::Idle { pe, .. }
        | Event::Energy { pe, .. }
        | Event::Announce { pe, .. }
        | Event::Terminated { pe, .. } => [Some(("pe", pe)), None],
        Event::Header(_) | Event::Wave { .. } | Event::Phase { .. } | Event::End { .. } => [None, None],
    }
}

impl WellFormed {
    /// Prefetches PE `pe`'s flags ([`super::Checker::prefetch`]).
    pub(super) fn prefetch(&self, pe: u32) {
        super::ahead(&self.pe_flags, pe);
    }
}

impl Property for WellFormed {
    const NAME: &'static str = "trace_well_formed";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, book: &Book) {
        self.observed += 1;
        if self.violation.is_none() {
            self.violation = violation_at(line, self.check(line, e, book.messages.now));
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        if let Some((line, why)) = self.violation {
            return Verdict::fail(why, Some(line));
        }
        let sent = self.sent;
        Verdict::pass(format!(
            "{} events; {sent} messages sent, {} received, {} never received; every recv matches its send",
            self.observed - u64::from(self.header_first),
            self.received,
            sent - self.received
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;

    const NAME: &str = WellFormed::NAME;

    /// The first violation of `events` on 2 PEs, as the check types it.
    fn first(events: &[Event]) -> Malformed {
        let (mut w, mut book) = (WellFormed::new(&header(2)), super::super::messages::Messages::new(2));
        let mut check = |(i, e)| {
            book.observe(i + 2, e);
            w.check(i + 2, e, book.now).err()
        };
        events.iter().enumerate().find_map(&mut check).expect("a violation")
    }

    #[test]
    fn violations_are_typed() {
        let sent = [send(0, 0, 1, 7, Kind::Request)];
        assert!(matches!(first(&[sent[0].clone(), sent[0].clone()]), Malformed::Resent { id: 7, line: 2 }));
        assert!(matches!(first(&[recv(1, 1, 0, 9, Kind::Request)]), Malformed::NeverSent(9)));
        let kind = first(&[sent[0].clone(), recv(1, 1, 0, 7, Kind::Reject)]);
        assert!(matches!(kind, Malformed::Kind { id: 7, kind: Kind::Reject, sent: Sent { kind: Kind::Request, .. } }));
        assert_eq!(kind.to_string(), "recv of message 7 as `reject`, but it was sent as `request` (line 2)");
        let ends = first(&[sent[0].clone(), recv(1, 0, 0, 7, Kind::Request)]);
        assert!(matches!(ends, Malformed::Endpoints { id: 7, pe: 0, from: 0, .. }));
        assert_eq!(ends.to_string(), "recv of message 7 at PE 0 from PE 0, but it was sent from PE 0 to PE 1 (line 2)");
        let back = first(&[work(5, 0, 0, 0, 1), send(3, 0, 1, 1, Kind::Request)]);
        assert!(matches!(back, Malformed::WorkWhileIdle(0)), "{back}");
        assert!(matches!(first(&[send(0, 0, 2, 1, Kind::Request)]), Malformed::Pe { pe: 2, field: "to", pes: 2 }));
    }

    /// Work is done only while busy; a PE becomes busy again only with
    /// work it received.
    #[test]
    fn work_and_busy_follow_the_pe_state() {
        let mut events = single_pe();
        let idle = position(&events, |e| matches!(e, Event::Idle { .. }));
        events.insert(idle + 1, work(10, 0, 0, 10, 11)); // after its idle
        let v = assert_fails(NAME, &run(1, events), Some(line_of(idle + 1)));
        assert!(
            v.detail.ends_with("PE 0 logged work while idle (work is done between `busy` and `idle`)"),
            "{}",
            v.detail
        );
        let mut events = single_pe();
        events.insert(idle + 1, Event::Busy { t: 10, pe: 0 });
        let v = assert_fails(NAME, &run(1, events), Some(line_of(idle + 1)));
        assert!(v.detail.ends_with("PE 0 became busy without receiving work since it went idle"), "{}", v.detail);
    }

    #[test]
    fn correct_streams_pass() {
        assert_passes(NAME, &run(1, single_pe()));
        assert_passes(NAME, &run(2, two_pes()));
    }

    #[test]
    fn recv_of_unknown_id_fails_on_its_line() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Recv { id: 2, .. }));
        if let Event::Recv { id, .. } = &mut events[i] {
            *id = 42;
        }
        let v = assert_fails(NAME, &run(2, events), Some(line_of(i)));
        assert!(v.detail.contains("recv of message 42, which was never sent"), "{}", v.detail);
    }

    #[test]
    fn second_recv_of_a_message_fails() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Recv { id: 2, .. }));
        events.insert(i + 1, events[i].clone());
        let v = assert_fails(NAME, &run(2, events), Some(line_of(i + 1)));
        assert!(v.detail.contains("received twice"), "{}", v.detail);
    }

    #[test]
    fn recv_with_wrong_kind_or_endpoints_fails() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Recv { id: 2, .. }));
        if let Event::Recv { kind, .. } = &mut events[i] {
            *kind = Kind::Reject;
        }
        assert_fails(NAME, &run(2, events), Some(line_of(i)));
        let mut events = two_pes();
        if let Event::Recv { from, .. } = &mut events[i] {
            *from = 1;
        }
        let v = assert_fails(NAME, &run(2, events), Some(line_of(i)));
        assert!(v.detail.contains("sent from PE 0 to PE 1"), "{}", v.detail);
    }

    #[test]
    fn time_going_back_fails() {
        let mut events = two_pes();
        events.insert(5, Event::Busy { t: 0, pe: 1 }); // after events at t = 2
        let v = assert_fails(NAME, &run(2, events), Some(line_of(5)));
        assert!(v.detail.contains("before the previous event's time"), "{}", v.detail);
    }

    #[test]
    fn pe_out_of_range_duplicate_id_header_and_after_end_fail() {
        let mut events = single_pe();
        events.insert(1, Event::Busy { t: 0, pe: 1 });
        assert_fails(NAME, &run(1, events), Some(line_of(1)));
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Send { id: 2, .. }));
        events.insert(i + 1, events[i].clone());
        let v = assert_fails(NAME, &run(2, events), Some(line_of(i + 1)));
        assert!(v.detail.contains("sent again"), "{}", v.detail);
        let mut events = single_pe();
        events.insert(1, Event::Header(Box::new(header(1))));
        assert_fails(NAME, &run(1, events), Some(line_of(1)));
        let mut events = single_pe();
        events.push(Event::End { t: 10 });
        let v = assert_fails(NAME, &run(1, events.clone()), Some(line_of(events.len() - 1)));
        assert!(v.detail.contains("after `end`"), "{}", v.detail);
    }

    #[test]
    fn an_id_sent_again_after_its_receipt_fails() {
        let mut events = two_pes();
        let end = events.pop().unwrap();
        events.push(send(19, 0, 1, 2, Kind::Request));
        events.push(end);
        let v = assert_fails(NAME, &run(2, events.clone()), Some(line_of(events.len() - 2)));
        assert!(v.detail.contains("message id 2 sent again (the first one was received already)"), "{}", v.detail);
    }

    #[test]
    fn bad_header_fails_on_line_1() {
        let mut h = header(1);
        h.version = 99;
        let report = run_with_header(&h, reference_of(&single_pe()), single_pe());
        assert_fails(NAME, &report, Some(1));
    }
}
