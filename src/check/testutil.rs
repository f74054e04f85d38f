//! Hand-made event streams for the property tests.

use super::{Book, CheckReport, Checker, Property, Reference, Verdict};
use crate::base::Fraction;
use crate::event::{Event, Kind, TraceHeader, TRACE_VERSION};
use crate::problem::Fingerprint;

/// Feeds `e` (on `line`) to `book`, then to `p`, as the checker does.
pub(super) fn feed(p: &mut impl Property, book: &mut Book, line: usize, e: &Event) {
    book.observe(line, e);
    p.observe(line, e, book);
}

/// A header for `pes` PEs with T_split = 1.
pub fn header(pes: u32) -> TraceHeader {
    TraceHeader {
        version: TRACE_VERSION,
        pes,
        workload: "test".into(),
        split: "half".into(),
        balancer: "test-balancer".into(),
        detector: "test-detector".into(),
        t_split: 1,
        ..TraceHeader::default()
    }
}

/// The fingerprint of unit items `lo..hi`.
pub fn fp(lo: u64, hi: u64) -> Fingerprint {
    let mut f = Fingerprint::EMPTY;
    f.add_range(lo, hi);
    f
}

/// A `work` event on items `lo..hi`.
pub fn work(t: u64, pe: u32, gen: u32, lo: u64, hi: u64) -> Event {
    Event::Work {
        t,
        pe,
        units: hi - lo,
        gen,
        fp: fp(lo, hi),
        cost: None,
        goal: None,
        pruned_with: None,
        critical: None,
    }
}

/// A `send` without energy.
pub fn send(t: u64, from: u32, to: u32, id: u64, kind: Kind) -> Event {
    Event::Send { t, from, to, id, kind, energy: None, data: None }
}

/// A `send` carrying `energy` (a string such as `1/2^1`).
pub fn send_e(t: u64, from: u32, to: u32, id: u64, kind: Kind, energy: &str) -> Event {
    Event::Send { t, from, to, id, kind, energy: Some(dy(energy)), data: None }
}

/// A `recv` (requests find an empty queue).
pub fn recv(t: u64, pe: u32, from: u32, id: u64, kind: Kind) -> Event {
    let queue = (kind == Kind::Request).then_some(0);
    Event::Recv { t, pe, from, id, kind, queue, data: None }
}

/// An `energy` event.
pub fn energy(t: u64, pe: u32, held: &str) -> Event {
    Event::Energy { t, pe, held: dy(held) }
}

/// Parses a dyadic number.
pub fn dy(s: &str) -> Fraction {
    s.parse().unwrap()
}

/// P = 1: PE 0 works 10 units from t = 0 to 10 and terminates.
pub fn single_pe() -> Vec<Event> {
    vec![
        Event::Busy { t: 0, pe: 0 },
        work(10, 0, 0, 0, 10),
        Event::Idle { t: 10, pe: 0 },
        Event::Announce { t: 10, pe: 0 },
        Event::Terminated { t: 10, pe: 0 },
        Event::End { t: 10 },
    ]
}

/// P = 2 with the energy detector: PE 1 asks for work, PE 0 splits and
/// sends half its work and energy, PE 0 runs dry and is rejected, PE 1 runs
/// dry and returns its energy, PE 0 announces. 20 units, items 0..20.
pub fn two_pes() -> Vec<Event> {
    use Kind::*;
    vec![
        Event::Busy { t: 0, pe: 0 },
        energy(0, 0, "1"),
        energy(0, 1, "0"),
        send(1, 1, 0, 1, Request),
        work(2, 0, 0, 0, 2),
        recv(2, 0, 1, 1, Request),
        Event::Split { t: 2, pe: 0, gen: 1 },
        send_e(3, 0, 1, 2, Work, "1/2^1"), // the send first,
        energy(3, 0, "1/2^1"),             // then the sender's energy
        recv(5, 1, 0, 2, Work),
        Event::Busy { t: 5, pe: 1 },
        energy(5, 1, "1/2^1"),
        work(10, 0, 1, 2, 10),
        Event::Idle { t: 10, pe: 0 },
        send(10, 0, 1, 3, Request),
        recv(12, 1, 0, 3, Request),
        send(12, 1, 0, 4, Reject),
        recv(14, 0, 1, 4, Reject),
        work(15, 1, 1, 10, 20),
        Event::Idle { t: 15, pe: 1 },
        energy(15, 1, "0"),
        send_e(15, 1, 0, 5, Energy, "1/2^1"),
        recv(17, 0, 1, 5, Energy),
        energy(17, 0, "1"),
        Event::Announce { t: 17, pe: 0 },
        Event::Terminated { t: 17, pe: 0 },
        send(17, 0, 1, 6, Terminate),
        recv(19, 1, 0, 6, Terminate),
        Event::Terminated { t: 19, pe: 1 },
        Event::End { t: 19 },
    ]
}

/// The reference matching the `work` events of `events`.
pub fn reference_of(events: &[Event]) -> Reference {
    let mut r = Reference { fp: Fingerprint::EMPTY, t_seq: 0, critical: None, pruning: None, pruned_critical: None };
    for e in events {
        if let Event::Work { units, fp, .. } = e {
            r.fp += *fp;
            r.t_seq += units;
        }
    }
    r
}

/// Checks `events` after `header`, with the header fed as line 1.
pub fn run_with_header(h: &TraceHeader, reference: Reference, events: Vec<Event>) -> CheckReport {
    let mut c = Checker::new(h, reference);
    c.observe(1, &Event::Header(Box::new(h.clone())));
    for (i, e) in events.iter().enumerate() {
        c.observe(line_of(i), e);
    }
    c.finish()
}

/// Checks `events` on `pes` PEs against the reference of a correct run of
/// this test file's streams (so dropped or doubled work shows).
pub fn run_ref(pes: u32, reference: Reference, events: Vec<Event>) -> CheckReport {
    run_with_header(&header(pes), reference, events)
}

/// Checks `events` on `pes` PEs against their own work as the reference.
pub fn run(pes: u32, events: Vec<Event>) -> CheckReport {
    let r = reference_of(&events);
    run_ref(pes, r, events)
}

/// The trace line of the `i`-th event (line 1 is the header).
pub fn line_of(i: usize) -> usize {
    i + 2
}

/// Index of the first event matching `f`.
pub fn position(events: &[Event], f: impl Fn(&Event) -> bool) -> usize {
    events.iter().position(f).expect("the stream has such an event")
}

/// Asserts that property `name` passed.
pub fn assert_passes(name: &str, r: &CheckReport) {
    let v = &r.properties[name];
    assert!(v.pass, "{name} should pass: {}", v.detail);
}

/// Asserts that property `name` failed at `line`; returns its verdict.
pub fn assert_fails(name: &str, r: &CheckReport, line: Option<usize>) -> Verdict {
    let v = r.properties[name].clone();
    assert!(!v.pass, "{name} should fail: {}", v.detail);
    assert_eq!(v.line, line, "{name}: {}", v.detail);
    v
}
