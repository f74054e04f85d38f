//! Kills for cargo-mutants' survivors in src/check/ (`bash
//! scripts/mutants.sh check`): hand-written event streams, each a case a
//! property must judge and the simulator's runs do not produce; in the
//! quick test profile by the filter `mutation::`.

use lbcheck::check::{check_events, Reference};
use lbcheck::event::{Event, Kind, RunParams, TraceHeader, TRACE_VERSION};
use lbcheck::problem::Fingerprint;

/// The properties a stream of events on `pes` PEs fails (a header first;
/// no work to conserve).
fn failures(pes: u32, events: Vec<Event>) -> Vec<String> {
    failed(pes, events).into_iter().map(|(name, _)| name).collect()
}

/// What `trace_well_formed` says of `events` on 2 PEs ("" if it holds).
fn malformed(events: Vec<Event>) -> String {
    let failed = failed(2, events).into_iter().find(|(name, _)| name == "trace_well_formed");
    failed.map(|(_, detail)| detail).unwrap_or_default()
}

/// The properties `events` fail with what each says ([`failures`]).
fn failed(pes: u32, events: Vec<Event>) -> Vec<(String, String)> {
    failed_after(header(pes), events)
}

/// A header of a run on `pes` PEs of a custom workload.
fn header(pes: u32) -> TraceHeader {
    TraceHeader { version: TRACE_VERSION, pes, workload: "custom".into(), ..TraceHeader::default() }
}

/// The properties `events` after `header` fail, with what each says.
fn failed_after(header: TraceHeader, events: Vec<Event>) -> Vec<(String, String)> {
    let lines = std::iter::once(Event::Header(Box::new(header))).chain(events).enumerate();
    let events: Vec<(usize, Event)> = lines.map(|(i, e)| (i + 1, e)).collect();
    let reference = |_: &TraceHeader| {
        Ok::<_, String>(Reference {
            fp: Fingerprint::EMPTY,
            t_seq: 0,
            critical: None,
            pruning: None,
            pruned_critical: None,
        })
    };
    let report = check_events(&events, reference).expect("a report");
    report.failures().into_iter().map(|(name, v)| (name.to_string(), v.detail.clone())).collect()
}

fn send(t: u64, from: u32, to: u32, id: u64, kind: Kind) -> Event {
    Event::Send { t, from, to, id, kind, energy: None, data: None }
}

fn recv(t: u64, pe: u32, from: u32, id: u64, kind: Kind) -> Event {
    Event::Recv { t, pe, from, id, kind, queue: None, data: None }
}

/// A PE holds work from the `recv` of a work message, which may come
/// just before its `busy` (`check::activity`), until its `idle`: an
/// announcement between the `recv` and the `idle` is early, even with no
/// `busy` or `work` after it (an empty part). Kills `Activity::observe`
/// without its `recv` arm (the work then counted neither in flight nor
/// held; with a `busy` after the announcement the property sees it anyway).
#[test]
fn work_received_before_its_busy_is_held() {
    let early = |announce_at: usize, busy: bool| {
        let mut events = vec![Event::Busy { t: 0, pe: 0 }, send(1, 0, 1, 0, Kind::Work), Event::Idle { t: 1, pe: 0 }];
        events.push(recv(2, 1, 0, 0, Kind::Work));
        events.extend(busy.then_some(Event::Busy { t: 2, pe: 1 }));
        events.push(Event::Idle { t: 3, pe: 1 });
        events.insert(announce_at, Event::Announce { t: events[announce_at - 1].time(), pe: 0 });
        failures(2, events).contains(&"no_early_termination".to_string())
    };
    assert!(early(4, false), "announced between the recv of the work and the idle");
    assert!(!early(5, false), "announced once PE 1 is idle");
    assert!(early(4, true) && early(5, true), "announced before or while PE 1 is busy");
    assert!(!early(6, true), "announced once PE 1 is idle");
}

/// The end of a run on 2 PEs: PE 0 announces at 1 and terminates; PE 1
/// terminates at 2 if `both`; `late` adds a request from PE 1 that reaches
/// PE 0 after PE 0 terminated, never answered.
fn ending(both: bool, late: bool) -> Vec<String> {
    let mut events = vec![Event::Busy { t: 0, pe: 0 }, Event::Idle { t: 1, pe: 0 }];
    events.extend([Event::Announce { t: 1, pe: 0 }, Event::Terminated { t: 1, pe: 0 }]);
    if late {
        events.extend([send(1, 1, 0, 0, Kind::Request), recv(2, 0, 1, 0, Kind::Request)]);
    }
    events.extend(both.then_some(Event::Terminated { t: 2, pe: 1 }));
    events.push(Event::End { t: 2 });
    failures(2, events)
}

/// Every PE must log `terminated` (`termination_detected`), and a request
/// that reaches a PE after it terminated needs no answer
/// (`requests_answered`: the run is over). Kills `Activity::not_terminated`
/// → `vec![]` and its `&` → `|` (a PE that never terminated goes
/// unnoticed), and `has_terminated` → `false` (a late request counted
/// unanswered).
#[test]
fn who_terminated_is_read_by_the_end_and_the_requests() {
    assert_eq!(ending(true, false), Vec::<String>::new());
    assert_eq!(ending(false, false), ["termination_detected"]);
    assert_eq!(ending(true, true), Vec::<String>::new());
}

/// An early announcement names what was left (`Book::describe_left`):
/// the PEs holding work, ascending, and the work messages in flight.
/// Kills `Activity::holders` → `vec![]`, `vec![0]`, `vec![1]`, its `!=` →
/// `==` and its `&` → `|`, `^` (every PE, or the idle ones, named).
#[test]
fn an_early_announcement_names_the_pes_that_hold_work() {
    let mut events: Vec<Event> = (0..4).map(|pe| Event::Busy { t: 0, pe }).collect();
    events.extend([Event::Idle { t: 1, pe: 1 }, send(1, 0, 1, 7, Kind::Work), Event::Idle { t: 1, pe: 3 }]);
    events.push(Event::Announce { t: 1, pe: 1 });
    let early: Vec<(String, String)> =
        failed(4, events).into_iter().filter(|(name, _)| name == "no_early_termination").collect();
    assert_eq!(early.len(), 1, "the announcement is early");
    let detail = &early[0].1;
    assert!(detail.contains("2 PEs hold work (PE 0, 2)"), "{detail}");
    assert!(detail.contains("work message 7 is in flight"), "{detail}");
}

/// An announcement while no PE holds work but a work message is in flight
/// is early; with a request in flight instead it is not (`Messages` counts
/// work messages by their `send`'s kind). Kills `messages::is_work` → 0
/// (and → 1, its `==` → `!=`).
#[test]
fn only_a_work_message_in_flight_makes_an_announcement_early() {
    let early = |kind: Kind| {
        let events = vec![
            Event::Busy { t: 0, pe: 0 },
            send(1, 0, 1, 7, kind),
            Event::Idle { t: 1, pe: 0 },
            Event::Announce { t: 1, pe: 0 },
        ];
        failures(2, events).contains(&"no_early_termination".to_string())
    };
    assert!(early(Kind::Work), "work message 7 is in flight");
    assert!(!early(Kind::Request), "only a request is in flight");
}

/// A work message sent again under the id of one still in flight replaces
/// it (`trace_well_formed` fails): once it is received nothing is in
/// flight, and an announcement then is not early. Kills `Messages::send`'s
/// `-=` → `+=` (the replaced message counted twice).
#[test]
fn a_work_message_resent_under_its_id_is_counted_once() {
    let events = vec![
        Event::Busy { t: 0, pe: 0 },
        send(1, 0, 1, 7, Kind::Work),
        send(2, 0, 1, 7, Kind::Work),
        Event::Idle { t: 2, pe: 0 },
        recv(3, 1, 0, 7, Kind::Work),
        Event::Busy { t: 3, pe: 1 },
        Event::Idle { t: 4, pe: 1 },
        Event::Announce { t: 4, pe: 0 },
    ];
    let failed = failures(2, events);
    assert!(failed.contains(&"trace_well_formed".to_string()), "{failed:?}");
    assert!(!failed.contains(&"no_early_termination".to_string()), "{failed:?}");
}

/// What `trace_well_formed` says of requests 0 and 10 from PE 0 to PE 1,
/// each received, then `again` (a `send` or `recv` of an id).
fn after_two_deliveries(again: Event) -> String {
    let mut events = vec![send(0, 0, 1, 0, Kind::Request), recv(1, 1, 0, 0, Kind::Request)];
    events.extend([send(1, 0, 1, 10, Kind::Request), recv(2, 1, 0, 10, Kind::Request), again]);
    malformed(events)
}

/// Delivered ids leave the checker's window for its interval set
/// (`check::idset`): id 0 is then in an inner interval, 10 in the top
/// one. A second `recv` of either is "received twice", not "never sent",
/// and a new `send` of either reuses a delivered id. Kills `IdSet::contains`
/// → `false` and its `||` → `&&`, `IdSet::run_of` → `None`, and
/// `IdSet::insert` → `true` (the set forgets what it was given).
#[test]
fn ids_delivered_long_ago_are_remembered() {
    for id in [0, 10] {
        let twice = after_two_deliveries(recv(3, 1, 0, id, Kind::Request));
        assert!(twice.contains(&format!("message {id} received twice")), "{twice}");
        let resent = after_two_deliveries(send(3, 0, 1, id, Kind::Request));
        assert!(resent.contains(&format!("message id {id} sent again (the first one was received")), "{resent}");
    }
    let never = after_two_deliveries(recv(3, 1, 0, 5, Kind::Request));
    assert!(never.contains("recv of message 5, which was never sent"), "{never}");
}

/// Requests 0 … 7 from PE 0 to PE 1 in flight, then one with id 2^30 (a
/// jump past the checker's window: the eight go to its map of messages
/// below the window), the eight received in the order `order`, then
/// `again`: what `trace_well_formed` says.
fn delivered_out_of_order(order: &[u64], again: Event) -> String {
    let mut events: Vec<Event> = (0..8).map(|id| send(0, 0, 1, id, Kind::Request)).collect();
    events.push(send(0, 0, 1, 1 << 30, Kind::Request));
    events.extend(order.iter().map(|&id| recv(1, 1, 0, id, Kind::Request)));
    events.push(again);
    malformed(events)
}

/// Ids delivered out of order join, extend and merge the intervals of the
/// delivered set (`check::idset`): every one is remembered, and no other.
/// Kills `IdSet::insert`'s comparisons and arithmetic (`>` → `==`, `<`,
/// `>=`; `-`, `+` → `+`, `-`, `*`; `==` → `!=`) and `insert` → `false`.
#[test]
fn ids_delivered_out_of_order_are_remembered() {
    for order in
        [[3, 1, 5, 0, 2, 4, 7, 6], [7, 6, 5, 4, 3, 2, 1, 0], [0, 2, 4, 6, 1, 3, 5, 7], [6, 0, 7, 2, 1, 5, 3, 4]]
    {
        for id in 0..8 {
            let twice = delivered_out_of_order(&order, recv(2, 1, 0, id, Kind::Request));
            assert!(twice.contains(&format!("message {id} received twice")), "{order:?}: {twice}");
        }
        let first = delivered_out_of_order(&order[..7], recv(2, 1, 0, order[7], Kind::Request));
        assert_eq!(first, "", "{order:?}: the last id received once");
        for never in [8, (1 << 30) - 1, (1 << 30) + 1] {
            let detail = delivered_out_of_order(&order, recv(2, 1, 0, never, Kind::Request));
            assert!(detail.contains("never sent"), "{order:?}, id {never}: {detail}");
        }
    }
}

/// A request still in flight at the end while its target worked on fails
/// `requests_answered` ("never received", judged from the messages left
/// in flight). Kills `InFlight::values` → empty (the unread request then
/// goes unseen).
#[test]
fn a_request_left_in_flight_while_its_target_works_fails() {
    let work = |t| Event::Work {
        t,
        pe: 0,
        units: 10,
        gen: 0,
        fp: Fingerprint::EMPTY,
        cost: None,
        goal: None,
        pruned_with: None,
        critical: None,
    };
    let mut events = vec![Event::Busy { t: 0, pe: 0 }, send(1, 1, 0, 1, Kind::Request), work(10), work(20), work(30)];
    events.extend([Event::Idle { t: 32, pe: 0 }, Event::End { t: 34 }]);
    let said = failed(2, events).into_iter().find(|(name, _)| name == "requests_answered");
    let said = said.map(|(_, detail)| detail).unwrap_or_default();
    assert!(said.contains("PE 1's request to PE 0 (sent at t = 1) was never received"), "{said:?}");
}

/// An id sent again while its first message is still in flight is
/// malformed. Kills `InFlight::reach`'s `&&` → `||` (the window then starts
/// afresh at the id, so the second send replaces nothing and the first,
/// moved below the window, is never told of).
#[test]
fn an_id_sent_twice_while_in_flight_is_malformed() {
    let said = malformed(vec![send(1, 0, 1, 5, Kind::Control), send(2, 0, 1, 5, Kind::Control)]);
    assert!(said.contains("line 3") && said.contains("id 5"), "{said:?}");
}

/// A header's initial split is one the trace schema allows:
/// `run.initial_random` in 1..=64, and only with `run.initial_split`
/// (`InitialSplit::of_header`, which nothing called before: its guards
/// and arms survived cargo-mutants as dead code).
#[test]
fn a_headers_initial_split_is_one_the_schema_allows() {
    let said = |initial_split: bool, initial_random: Option<u32>| {
        let run = RunParams { initial_split, initial_random, ..RunParams::default() };
        let header = TraceHeader { run: Some(Box::new(run)), ..header(2) };
        let failed = failed_after(header, vec![Event::End { t: 0 }]);
        failed.into_iter().find(|(name, _)| name == "trace_well_formed").map(|(_, detail)| detail).unwrap_or_default()
    };
    for (split, random) in [(false, None), (true, None), (true, Some(1)), (true, Some(64))] {
        assert_eq!(said(split, random), "", "initial_split {split}, initial_random {random:?}");
    }
    for k in [0, 65] {
        let why = said(true, Some(k));
        assert!(why.contains(&format!("line 1: header `run.initial_random`: {k} is out of range 1..=64")), "{why}");
    }
    assert!(said(false, Some(3)).contains("`run.initial_random` without `run.initial_split`"));
}
