//! `lbcheck timeline`: a 64-PE run's trace as an SVG Gantt chart with one
//! lane per PE and as Chrome trace-event JSON that has every field the
//! Trace Event Format requires; more than 64 PEs as bands; bad input exits 2.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;

use super::lbcheck;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("lbcheck-timeline-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_64_pe_uts_t1_trace_draws_64_lanes_and_valid_trace_events() {
    let d = dir("t1");
    let (trace, svg, json) = (d.join("t.jsonl"), d.join("t.svg"), d.join("t.json"));
    let path = |p: &PathBuf| p.to_str().unwrap().to_string();
    let (code, _, err) = lbcheck(&["simulate", "--workload", "uts:T1", "--pes", "64", "--trace", &path(&trace)]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = lbcheck(&["timeline", &path(&trace), "--out", &path(&svg), "--perfetto", &path(&json)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("64 PEs") && out.contains("wrote "), "{out}");
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{:.200}", svg);
    let lanes: Vec<&str> =
        svg.split("<g class=\"lane\" data-pe=\"").skip(1).map(|s| &s[..s.find('"').unwrap()]).collect();
    let expected: Vec<String> = (0..64).map(|pe| pe.to_string()).collect();
    assert_eq!(lanes, expected, "one lane per PE, in order");
    assert!(svg.contains("class=\"announce\"") && svg.contains("class=\"msg\""), "the announcement and work messages");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).expect("the Perfetto file is JSON");
    let events = assert_trace_event_format(&doc);
    let threads = events.iter().filter(|e| e["ph"] == "M" && e["name"] == "thread_name").count();
    assert_eq!(threads, 64, "one named thread per PE");
    let flows = events.iter().filter(|e| e["ph"] == "s" && e["cat"] == "work").count();
    assert!(flows > 64, "work messages as flows: {flows}");
    std::fs::remove_dir_all(d).ok();
}

/// The Trace Event Format's rules (JSON Object Format: `traceEvents`),
/// checked on every event; the events.
fn assert_trace_event_format(doc: &Value) -> &Vec<Value> {
    let events = doc["traceEvents"].as_array().expect("traceEvents: an array");
    assert!(!events.is_empty());
    let mut open_flows: BTreeMap<(String, String), f64> = BTreeMap::new();
    let mut stacks: BTreeMap<(u64, u64), Vec<String>> = BTreeMap::new();
    for e in events {
        let ph = required_fields(e);
        let ts = e["ts"].as_f64().unwrap();
        match ph {
            "X" => assert!(e["dur"].as_f64().is_some_and(|d| d >= 0.0), "X needs dur >= 0: {e}"),
            "B" => stacks.entry(thread(e)).or_default().push(e["name"].as_str().unwrap().into()),
            "E" => assert!(stacks.entry(thread(e)).or_default().pop().is_some(), "E without B: {e}"),
            "s" | "t" | "f" => {
                let key = (e["cat"].as_str().expect("a flow needs cat").to_string(), flow_id(e));
                match ph {
                    "s" => assert!(open_flows.insert(key, ts).is_none(), "a flow id started twice: {e}"),
                    _ => assert!(open_flows.get(&key).is_some_and(|&s| s <= ts), "a flow step before its start: {e}"),
                }
            }
            "i" | "I" => assert!(e.get("s").is_none_or(|s| ["g", "p", "t"].contains(&s.as_str().unwrap())), "{e}"),
            "M" => assert!(e["args"].is_object(), "metadata needs args: {e}"),
            "C" => assert!(e["args"].as_object().is_some_and(|a| a.values().all(Value::is_number)), "{e}"),
            other => panic!("unexpected phase {other}: {e}"),
        }
    }
    assert!(stacks.values().all(Vec::is_empty), "every B has its E");
    assert_complete_events_nest(events);
    events
}

/// name, ph, ts, pid, tid: present and of their types (args an object if
/// present); the phase.
fn required_fields(e: &Value) -> &str {
    assert!(e["name"].is_string(), "name: {e}");
    assert!(e["ts"].as_f64().is_some_and(|t| t >= 0.0), "ts: {e}");
    assert!(e["pid"].is_u64() && e["tid"].is_u64(), "pid, tid: {e}");
    assert!(e.get("args").is_none_or(Value::is_object), "args: {e}");
    e["ph"].as_str().unwrap_or_else(|| panic!("ph: {e}"))
}

fn thread(e: &Value) -> (u64, u64) {
    (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap())
}

fn flow_id(e: &Value) -> String {
    match &e["id"] {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        other => panic!("a flow needs an id: {other}"),
    }
}

/// Complete events of one thread never overlap partly (viewers need them nested).
fn assert_complete_events_nest(events: &[Value]) {
    let mut by_thread: BTreeMap<(u64, u64), Vec<(f64, f64)>> = BTreeMap::new();
    for e in events.iter().filter(|e| e["ph"] == "X") {
        let (ts, dur) = (e["ts"].as_f64().unwrap(), e["dur"].as_f64().unwrap());
        by_thread.entry(thread(e)).or_default().push((ts, ts + dur));
    }
    for (t, mut spans) in by_thread {
        spans.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1)));
        for w in spans.windows(2) {
            let ((_, end), (start, stop)) = (w[0], w[1]);
            assert!(start >= end || stop <= end, "thread {t:?}: {:?} and {:?} overlap partly", w[0], w[1]);
        }
    }
}

#[test]
fn more_than_64_pes_draw_as_bands_and_stdout_works() {
    let d = dir("bands");
    let trace = d.join("t.jsonl");
    let (code, _, err) =
        lbcheck(&["simulate", "--workload", "uts:default", "--pes", "100", "--trace", trace.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = lbcheck(&["timeline", trace.to_str().unwrap(), "--out", "-"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("<g class=\"band\"").count(), 50, "100 PEs in bands of 2");
    assert!(!out.contains("<g class=\"lane\"") && err.contains("wrote - (SVG)"), "{err}");
    let (code, out, _) = lbcheck(&["timeline", trace.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(d.join("t.svg").is_file() && out.contains("t.svg"), "the default output: the trace's name with .svg");
    std::fs::remove_dir_all(d).ok();
}

#[test]
fn bad_input_exits_2_naming_the_line() {
    let d = dir("bad");
    let write = |name: &str, text: &str| {
        let p = d.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let header = r#"{"ev":"header","version":1,"pes":2,"workload":"uts:default","split":"bottom-half","balancer":"b","detector":"d","t_split":1}"#;
    let cases = [
        (d.join("missing.jsonl").to_str().unwrap().to_string(), "cannot open"),
        (write("blank.jsonl", &format!("{header}\n\n")), "is not a valid trace: line 2: blank line"),
        (
            write("field.jsonl", &format!("{header}\n{{\"ev\":\"busy\",\"t\":0,\"pe\":0,\"x\":1}}\n")),
            "line 2: unknown field `x`",
        ),
        (
            write("noheader.jsonl", "{\"ev\":\"end\",\"t\":0}\n"),
            "cannot be drawn: line 1: a trace starts with its header",
        ),
        (
            write("pe.jsonl", &format!("{header}\n{{\"ev\":\"busy\",\"t\":0,\"pe\":2}}\n")),
            "line 2: PE 2 is not below the header's pes = 2",
        ),
    ];
    for (path, says) in cases {
        let (code, _, err) = lbcheck(&["timeline", &path, "--perfetto", &d.join("x.json").to_string_lossy()]);
        assert_eq!(code, 2, "{path}: {err}");
        assert!(err.contains(says), "{path}: expected `{says}` in: {err}");
    }
    std::fs::remove_dir_all(d).ok();
}
