//! A [`Timeline`] as Chrome trace events (the JSON Object Format of the
//! Trace Event Format), which Perfetto (ui.perfetto.dev) and
//! chrome://tracing open. The mapping (docs/guide.md "A run's timeline"):
//!
//! | lbcheck | trace event |
//! |---|---|
//! | the run | process `pid` 0, named by `process_name` metadata (`ph: M`) |
//! | PE i | thread `tid` i, named `PE i` (`thread_name`, `thread_sort_index`) |
//! | a busy span | complete event `ph: X`, name `busy`, `dur`; `args.units` |
//! | an idle span | `ph: X`, name `idle` (from 0 until the PE terminated) |
//! | after `terminated` | `ph: X`, name `terminated`, to the end of the run |
//! | a message (`send` … `recv`) | a flow: `ph: s` on the sender at the send, `ph: f` (`bp: e`) on the receiver at the receipt; `name` and `cat` the message kind, `id` the trace's id |
//! | `split` | instant `ph: i`, scope thread, `args.gen` |
//! | `wave`, a global `phase` | instant `ph: i`, scope global; a local `phase` scope thread |
//! | `announce` | instant `ph: i`, scope global, on the announcer's thread |
//!
//! Times: `ts` and `dur` are microseconds in the format; a trace in model
//! time (`clock` `work`, `step`, `seq`) shows one unit as one microsecond,
//! a trace in nanoseconds is divided by 1000. `otherData` says which.
//! A message never received has no flow; `work` and `energy` events show
//! only as the busy span's units.

use serde_json::{json, Value};

use super::timeline::{Mark, Timeline};
use crate::event::Clock;

/// The trace events document.
pub fn document(t: &Timeline) -> Value {
    let us = |x: u64| -> Value {
        match t.header.clock {
            Clock::Ns => json!(x as f64 / 1000.0),
            Clock::Work | Clock::Seq | Clock::Step => json!(x),
        }
    };
    let mut events = metadata(t);
    for pe in 0..t.lanes.len() {
        events.extend(lane_events(t, pe, &us));
    }
    events.extend(flows(t, &us));
    events.extend(instants(t, &us));
    let unit = match t.header.clock {
        Clock::Ns => "ts in microseconds (the trace's nanoseconds / 1000)",
        _ => "ts: one trace time unit shown as one microsecond",
    };
    json!({
        "traceEvents": events,
        "displayTimeUnit": "ms",
        "otherData": {"title": t.title(), "clock": t.header.clock.to_string(), "time": unit, "source": "lbcheck timeline"},
    })
}

fn meta(name: &str, tid: usize, args: Value) -> Value {
    json!({"name": name, "ph": "M", "ts": 0, "pid": 0, "tid": tid, "args": args})
}

/// The process's and every thread's name and order.
fn metadata(t: &Timeline) -> Vec<Value> {
    let mut out = vec![meta("process_name", 0, json!({"name": t.title()}))];
    for pe in 0..t.lanes.len() {
        out.push(meta("thread_name", pe, json!({"name": format!("PE {pe}")})));
        out.push(meta("thread_sort_index", pe, json!({"sort_index": pe})));
    }
    out
}

fn slice(name: &str, tid: usize, (from, to): (u64, u64), us: &dyn Fn(u64) -> Value, args: Value) -> Value {
    json!({"name": name, "cat": name, "ph": "X", "ts": us(from), "dur": us(to - from), "pid": 0, "tid": tid, "args": args})
}

/// A PE's busy, idle and terminated spans, and its splits.
fn lane_events(t: &Timeline, pe: usize, us: &dyn Fn(u64) -> Value) -> Vec<Value> {
    let lane = &t.lanes[pe];
    let mut out: Vec<Value> =
        lane.busy.iter().map(|s| slice("busy", pe, (s.from, s.to), us, json!({"units": s.units}))).collect();
    out.extend(lane.idle(t.end).into_iter().map(|span| slice("idle", pe, span, us, json!({}))));
    if let Some(at) = lane.terminated {
        out.push(slice("terminated", pe, (at, t.end.max(at)), us, json!({})));
    }
    out.extend(lane.splits.iter().map(|&(at, gen)| {
        json!({"name": "split", "cat": "split", "ph": "i", "s": "t", "ts": us(at), "pid": 0, "tid": pe, "args": {"gen": gen}})
    }));
    out
}

/// One flow per received message: start on the sender, end on the receiver.
fn flows(t: &Timeline, us: &dyn Fn(u64) -> Value) -> Vec<Value> {
    let received = t.messages.iter().filter_map(|m| Some((m, m.sent?, m.received?)));
    received
        .flat_map(|(m, sent, got)| {
            let kind = m.kind.name();
            [
                json!({"name": kind, "cat": kind, "ph": "s", "id": m.id, "ts": us(sent), "pid": 0, "tid": m.from, "bp": "e"}),
                json!({"name": kind, "cat": kind, "ph": "f", "id": m.id, "ts": us(got), "pid": 0, "tid": m.to, "bp": "e"}),
            ]
        })
        .collect()
}

/// Waves, barriers and the announcement.
fn instants(t: &Timeline, us: &dyn Fn(u64) -> Value) -> Vec<Value> {
    let at = |name: String, ts: u64, tid: u32, scope: &str, args: Value| json!({"name": name, "cat": "detector", "ph": "i", "s": scope, "ts": us(ts), "pid": 0, "tid": tid, "args": args});
    let announcer = t.header.announcer();
    t.marks
        .iter()
        .map(|m| match *m {
            Mark::Wave { t, wave, sent, recv } => {
                at(format!("wave {wave}"), t, announcer, "g", json!({"sent": sent, "recv": recv}))
            }
            Mark::Phase { t, cycle, phase, pe } => {
                let args = json!({"cycle": cycle, "phase": phase});
                at(format!("phase {cycle}.{phase}"), t, pe.unwrap_or(0), if pe.is_some() { "t" } else { "g" }, args)
            }
            Mark::Announce { t, pe } => at("announce".into(), t, pe, "g", json!({})),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::timeline::tests::{timeline, TRACE};
    use super::*;

    #[test]
    fn spans_flows_and_instants() {
        let doc = document(&timeline(TRACE).unwrap());
        let events = doc["traceEvents"].as_array().unwrap();
        let named = |ph: &str, name: &str| events.iter().filter(|e| e["ph"] == ph && e["name"] == name).count();
        assert_eq!((named("X", "busy"), named("X", "idle"), named("X", "terminated")), (2, 3, 2));
        assert_eq!((named("s", "work"), named("f", "work"), named("s", "request")), (1, 1, 1));
        assert_eq!((named("i", "wave 1"), named("i", "announce"), named("i", "split")), (1, 1, 1));
        let busy0 = events.iter().find(|e| e["ph"] == "X" && e["name"] == "busy" && e["tid"] == 0).unwrap();
        assert_eq!(
            (busy0["ts"].as_u64(), busy0["dur"].as_u64(), busy0["args"]["units"].as_u64()),
            (Some(0), Some(20), Some(10))
        );
    }

    #[test]
    fn nanoseconds_become_microseconds() {
        let doc = document(&timeline(&TRACE.replace("\"t_split\":5", "\"t_split\":5,\"clock\":\"ns\"")).unwrap());
        let busy =
            doc["traceEvents"].as_array().unwrap().iter().find(|e| e["name"] == "busy" && e["tid"] == 1).unwrap();
        assert_eq!((busy["ts"].as_f64(), busy["dur"].as_f64()), (Some(0.014), Some(0.016)));
    }
}
