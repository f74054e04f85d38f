//! A run as a timeline: what each PE did when, read from a trace
//! (docs/trace-format.md). [`Timeline::of`] turns the events into lanes of
//! busy spans, the messages with their send and receive times, and the
//! run's marks (the detector's waves, the phased machine's barriers, the
//! announcement); [`super::gantt`] draws it as SVG and [`super::perfetto`]
//! writes it as Chrome trace events.
//!
//! Reading is tolerant where a broken run would be: a failing run's trace
//! (work lost, a `recv` logged before its `send`) still draws. Only what
//! cannot be drawn is an error: no header first, a PE not below `pes`.

use std::collections::BTreeMap;

use crate::event::{Event, Kind, TraceHeader};

/// The most PEs a timeline draws (lanes are kept per PE).
pub const MAX_PES: u32 = 1 << 20;

/// A trace that cannot be drawn.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TimelineError {
    /// The first line is not the header.
    #[error("line {0}: a trace starts with its header (`{{\"ev\":\"header\",...}}`)")]
    NoHeader(usize),
    /// A second header.
    #[error("line {0}: a second header (a trace has one, on line 1)")]
    SecondHeader(usize),
    /// An event of a PE the header does not have.
    #[error("line {line}: PE {pe} is not below the header's pes = {pes}")]
    Pe {
        /// 1-based line number.
        line: usize,
        /// The PE named.
        pe: u32,
        /// The header's P.
        pes: u32,
    },
    /// More PEs than a timeline draws.
    #[error("line 1: pes = {0}: a timeline draws at most {MAX_PES} PEs")]
    TooManyPes(u32),
}

/// A span of time `[from, to]` a PE held work, and the units it did then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// When the PE became busy.
    pub from: u64,
    /// When it went idle (the end of the run if it never did).
    pub to: u64,
    /// Work units done in the span.
    pub units: u64,
}

/// One PE's lane.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lane {
    /// The spans it held work, in order.
    pub busy: Vec<Span>,
    /// When it learnt of termination, if it did.
    pub terminated: Option<u64>,
    /// The times it split its subproblem, with the parts' generation.
    pub splits: Vec<(u64, u32)>,
}

/// A message: its kind, endpoints, and when it was sent and received.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message {
    /// The trace's id.
    pub id: u64,
    /// Its kind.
    pub kind: Kind,
    /// Sender.
    pub from: u32,
    /// Receiver.
    pub to: u32,
    /// Sent at (`None`: a `recv` without a `send`).
    pub sent: Option<u64>,
    /// Received at (`None`: in flight when the trace ended).
    pub received: Option<u64>,
}

/// A moment of the whole run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The announcer completed four-counter wave `wave` (001 §2).
    Wave {
        /// Time.
        t: u64,
        /// Its number, from 1.
        wave: u64,
        /// Work messages sent, as the wave read them.
        sent: u64,
        /// Work messages received, as the wave read them.
        recv: u64,
    },
    /// A barrier of the phased machine (000 §3.1), global or one PE's.
    Phase {
        /// Time.
        t: u64,
        /// Cycle.
        cycle: u64,
        /// Phase within the cycle.
        phase: u32,
        /// The PE, for a local barrier.
        pe: Option<u32>,
    },
    /// The announcement of global termination.
    Announce {
        /// Time.
        t: u64,
        /// The announcer.
        pe: u32,
    },
}

/// A run, ready to draw.
#[derive(Clone, Debug)]
pub struct Timeline {
    /// The trace's header.
    pub header: TraceHeader,
    /// One lane per PE.
    pub lanes: Vec<Lane>,
    /// Every message, by id.
    pub messages: Vec<Message>,
    /// Waves, barriers and the announcement, in order.
    pub marks: Vec<Mark>,
    /// The time of the last event.
    pub end: u64,
}

impl Timeline {
    /// The timeline of a trace as [`crate::event::read_trace`] returns it.
    pub fn of(events: &[(usize, Event)]) -> Result<Timeline, TimelineError> {
        let Some((_, Event::Header(header))) = events.first() else {
            return Err(TimelineError::NoHeader(events.first().map_or(1, |(l, _)| *l)));
        };
        if header.pes > MAX_PES {
            return Err(TimelineError::TooManyPes(header.pes));
        }
        let pes = header.pes as usize;
        let mut b = Builder { lanes: vec![Lane::default(); pes], open: vec![None; pes], ..Builder::default() };
        for (line, e) in &events[1..] {
            b.event(*line, e, header.pes)?;
        }
        Ok(b.finish((**header).clone()))
    }

    /// Work messages with both ends, in order of sending.
    pub fn work_messages(&self) -> impl Iterator<Item = (&Message, u64, u64)> {
        self.messages.iter().filter(|m| m.kind == Kind::Work).filter_map(|m| Some((m, m.sent?, m.received?)))
    }

    /// When the announcement came, if it did.
    pub fn announced(&self) -> Option<u64> {
        self.marks.iter().find_map(|m| match m {
            Mark::Announce { t, .. } => Some(*t),
            _ => None,
        })
    }

    /// "balancer + detector on workload, P = …".
    pub fn title(&self) -> String {
        let h = &self.header;
        format!("{} + {} on {}, P = {}", h.balancer, h.detector, h.workload, h.pes)
    }
}

#[derive(Default)]
struct Builder {
    lanes: Vec<Lane>,
    /// Each PE's busy span in progress.
    open: Vec<Option<Span>>,
    messages: BTreeMap<u64, Message>,
    marks: Vec<Mark>,
    end: u64,
}

impl Builder {
    fn event(&mut self, line: usize, e: &Event, pes: u32) -> Result<(), TimelineError> {
        self.end = self.end.max(e.time());
        let lane = |pe: u32| if pe < pes { Ok(pe as usize) } else { Err(TimelineError::Pe { line, pe, pes }) };
        match *e {
            Event::Header(_) => return Err(TimelineError::SecondHeader(line)),
            Event::Busy { t, pe } => self.open(lane(pe)?, t),
            Event::Idle { t, pe } => self.close(lane(pe)?, t),
            Event::Work { t, pe, units, .. } => self.work(lane(pe)?, t, units),
            Event::Split { t, pe, gen } => self.lanes[lane(pe)?].splits.push((t, gen)),
            Event::Terminated { t, pe } => self.lanes[lane(pe)?].terminated = Some(t),
            Event::Send { t, from, to, id, kind, .. } => {
                let m = self.message(id, kind, (lane(from)? as u32, lane(to)? as u32));
                m.sent = Some(t);
            }
            Event::Recv { t, pe, from, id, kind, .. } => {
                let m = self.message(id, kind, (lane(from)? as u32, lane(pe)? as u32));
                m.received = Some(t);
            }
            Event::Wave { t, wave, sent, recv, .. } => self.marks.push(Mark::Wave { t, wave, sent, recv }),
            Event::Phase { t, cycle, phase, pe } => {
                let pe = pe.map(lane).transpose()?.map(|p| p as u32);
                self.marks.push(Mark::Phase { t, cycle, phase, pe })
            }
            Event::Announce { t, pe } => self.marks.push(Mark::Announce { t, pe: lane(pe)? as u32 }),
            Event::Energy { pe, .. } => _ = lane(pe)?,
            Event::End { .. } => {}
        }
        Ok(())
    }

    fn message(&mut self, id: u64, kind: Kind, (from, to): (u32, u32)) -> &mut Message {
        self.messages.entry(id).or_insert(Message { id, kind, from, to, sent: None, received: None })
    }

    fn finish(mut self, header: TraceHeader) -> Timeline {
        let end = self.end;
        (0..self.lanes.len()).for_each(|pe| self.close(pe, end));
        let mut messages: Vec<Message> = self.messages.into_values().collect();
        messages.sort_by_key(|m| (m.sent.or(m.received), m.id));
        Timeline { header, lanes: self.lanes, messages, marks: self.marks, end }
    }
}

impl Builder {
    fn open(&mut self, pe: usize, t: u64) {
        self.open[pe].get_or_insert(Span { from: t, to: t, units: 0 });
    }

    fn close(&mut self, pe: usize, t: u64) {
        if let Some(s) = self.open[pe].take() {
            self.lanes[pe].busy.push(Span { to: t.max(s.from), ..s });
        }
    }

    /// Work logged while idle (a broken trace) still shows: a span of its own.
    fn work(&mut self, pe: usize, t: u64, units: u64) {
        match &mut self.open[pe] {
            Some(s) => s.units += units,
            None => self.lanes[pe].busy.push(Span { from: t, to: t, units }),
        }
    }
}

impl Lane {
    /// The spans it was idle, from 0 to when it terminated (or `end`).
    pub fn idle(&self, end: u64) -> Vec<(u64, u64)> {
        let stop = self.terminated.unwrap_or(end);
        let mut out = Vec::new();
        let mut at = 0;
        for s in &self.busy {
            if s.from > at {
                out.push((at, s.from.min(stop)));
            }
            at = at.max(s.to);
        }
        if stop > at {
            out.push((at, stop));
        }
        out.retain(|(a, b)| b > a);
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::event::read_trace;

    /// Two PEs: PE 0 works, sends PE 1 work, both go idle; a wave, the
    /// announcement, both terminate.
    pub(crate) const TRACE: &str = r#"{"ev":"header","version":1,"pes":2,"workload":"uts:default","split":"bottom-half","balancer":"random-polling","detector":"four-counter","t_split":5}
{"ev":"busy","t":0,"pe":0}
{"ev":"send","t":2,"from":1,"to":0,"id":1,"kind":"request"}
{"ev":"recv","t":4,"pe":0,"from":1,"id":1,"kind":"request","queue":0}
{"ev":"split","t":10,"pe":0,"gen":1}
{"ev":"send","t":10,"from":0,"to":1,"id":2,"kind":"work"}
{"ev":"work","t":10,"pe":0,"units":10,"gen":0,"fp":"10-000000000000002d00000000000001fb000000000000087d"}
{"ev":"recv","t":14,"pe":1,"from":0,"id":2,"kind":"work"}
{"ev":"busy","t":14,"pe":1}
{"ev":"idle","t":20,"pe":0}
{"ev":"idle","t":30,"pe":1}
{"ev":"wave","t":40,"wave":1,"sent":1,"recv":1}
{"ev":"announce","t":50,"pe":0}
{"ev":"terminated","t":50,"pe":0}
{"ev":"terminated","t":60,"pe":1}
{"ev":"end","t":60}
"#;

    pub(crate) fn timeline(text: &str) -> Result<Timeline, TimelineError> {
        Timeline::of(&read_trace(text.as_bytes()).expect("a readable trace"))
    }

    #[test]
    fn lanes_messages_and_marks() {
        let t = timeline(TRACE).unwrap();
        assert_eq!(t.lanes[0].busy, [Span { from: 0, to: 20, units: 10 }]);
        assert_eq!(t.lanes[1].busy, [Span { from: 14, to: 30, units: 0 }]);
        assert_eq!(t.lanes[1].idle(t.end), [(0, 14), (30, 60)]);
        assert_eq!(t.lanes[0].idle(t.end), [(20, 50)], "idle until it terminated");
        assert_eq!((t.lanes[0].splits.clone(), t.lanes[1].terminated), (vec![(10, 1)], Some(60)));
        let work: Vec<_> = t.work_messages().map(|(m, s, r)| (m.from, m.to, s, r)).collect();
        assert_eq!(work, [(0, 1, 10, 14)]);
        assert_eq!((t.announced(), t.end, t.marks.len()), (Some(50), 60, 2));
        assert_eq!(t.title(), "random-polling + four-counter on uts:default, P = 2");
    }

    #[test]
    fn undrawable_traces_are_errors_naming_the_line() {
        let no_header = TRACE.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert_eq!(timeline(&no_header).unwrap_err(), TimelineError::NoHeader(1));
        let bad_pe = TRACE.replace(r#""t":20,"pe":0"#, r#""t":20,"pe":7"#);
        let e = timeline(&bad_pe).unwrap_err();
        assert_eq!(e.to_string(), "line 10: PE 7 is not below the header's pes = 2");
        let twice = format!("{TRACE}{}", TRACE.lines().next().unwrap());
        assert_eq!(timeline(&twice).unwrap_err(), TimelineError::SecondHeader(17));
    }

    #[test]
    fn a_broken_run_still_draws() {
        let lost = TRACE.replace("{\"ev\":\"recv\",\"t\":14,\"pe\":1,\"from\":0,\"id\":2,\"kind\":\"work\"}\n", "");
        let t = timeline(&lost).unwrap();
        assert_eq!(t.work_messages().count(), 0, "the work message never arrived");
        assert_eq!(t.messages.iter().find(|m| m.id == 2).unwrap().received, None);
    }
}
