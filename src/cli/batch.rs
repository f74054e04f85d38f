//! `compare`'s batch of traces, guarded before any statistics: each trace
//! read and checked (a line at a time), all of one configuration (headers
//! equal but for the seed), on distinct seeds, none empty and none twice.

use anyhow::{bail, Context};
use lbcheck::check::Metrics;
use lbcheck::event::{TraceHeader, TraceReader};
use lbcheck::harness::{check_trace, RunSpec, TraceCheckError};
use serde_json::Value;
use sha1::{Digest, Sha1};

use super::check_trace::MAX_REFERENCE_UNITS;

/// One trace of the batch.
pub struct Trace {
    /// Its path.
    pub path: String,
    /// What its run measured.
    pub metrics: Metrics,
    /// Its header.
    pub header: TraceHeader,
    /// The SHA-1 of its bytes.
    digest: [u8; 20],
}

/// Reads and checks every trace of `paths` and refuses a batch that is not
/// runs of one configuration on distinct seeds.
pub fn read(paths: &[String]) -> anyhow::Result<Vec<Trace>> {
    let traces: Vec<Trace> = paths.iter().map(|p| trace(p)).collect::<anyhow::Result<_>>()?;
    let first = &traces[0];
    for (i, t) in traces.iter().enumerate() {
        let differ = differences(&configuration(&first.header), &configuration(&t.header));
        if !differ.is_empty() {
            bail!(
                "{} and {} are runs of two configurations ({}): compare takes runs of one",
                first.path,
                t.path,
                differ.join("; ")
            );
        }
        if let Some(u) = traces[..i].iter().find(|u| u.digest == t.digest) {
            bail!("{} and {} are the same trace: compare takes distinct runs", u.path, t.path);
        }
        if let Some(u) = traces[..i].iter().find(|u| seed(&u.header).is_some() && seed(&u.header) == seed(&t.header)) {
            let s = seed(&t.header).unwrap_or_default();
            bail!("{} and {} are runs on the same seed {s}: compare takes runs on distinct seeds", u.path, t.path);
        }
    }
    Ok(traces)
}

/// One trace, checked (a bad or empty trace is bad input).
fn trace(path: &str) -> anyhow::Result<Trace> {
    let open = || std::fs::File::open(path).with_context(|| format!("cannot open {path}"));
    let mut digest = Sha1::new();
    std::io::copy(&mut open()?, &mut digest).with_context(|| format!("reading {path}"))?;
    let reader = TraceReader::new(std::io::BufReader::new(open()?));
    let checked = match check_trace(reader, None, MAX_REFERENCE_UNITS) {
        Ok(checked) => checked,
        Err(TraceCheckError::Read(e)) => return Err(e).with_context(|| format!("{path} is not a valid trace")),
        Err(e) => return Err(e).with_context(|| path.to_string()),
    };
    let Some(header) = checked.header else { bail!("{path} has no header (an empty file, or not a trace)") };
    if checked.lines < 2 {
        bail!("{path} has a header and no events: compare takes runs");
    }
    if !checked.report.all_pass() {
        let failed: Vec<&str> = checked.report.failures().iter().map(|(n, _)| *n).collect();
        eprintln!("note: {path} fails {} (lbcheck check-trace {path})", failed.join(", "));
    }
    Ok(Trace { path: path.to_string(), metrics: checked.report.metrics, header, digest: digest.finalize().into() })
}

/// The seed of a trace's run, if its header says.
fn seed(h: &TraceHeader) -> Option<u64> {
    let of_spec = h.spec.as_ref().and_then(|s| s["driver"]["seed"].as_u64());
    of_spec.or(h.run.as_ref().map(|r| r.seed))
}

/// A header without what differs between runs of one configuration: the
/// seed and the replay command.
fn configuration(h: &TraceHeader) -> Value {
    let mut v = serde_json::to_value(h).expect("a header serialises");
    v.as_object_mut().map(|o| o.remove("replay"));
    for (at, key) in [("/run", "seed"), ("/run", "replay"), ("/spec/driver", "seed")] {
        v.pointer_mut(at).and_then(Value::as_object_mut).map(|o| o.remove(key));
    }
    v
}

/// The configuration of an lbcheck trace as a run (no seed, no mutant:
/// the traces' mutant is the implementation compared).
pub fn spec_of(h: &TraceHeader) -> anyhow::Result<Option<RunSpec>> {
    Ok(RunSpec::from_header(h)?.map(|s| RunSpec { mutant: None, ..s }))
}

/// The runs `a` and `b` describe differ in (seed aside), as `key: a vs b`.
pub fn spec_differences(a: &RunSpec, b: &RunSpec) -> Vec<String> {
    let json = |s: &RunSpec| {
        let mut s = s.clone();
        s.driver.set_seed(0);
        serde_json::to_value(s).expect("a spec serialises")
    };
    differences(&json(a), &json(b))
}

/// Where two JSON values differ, as `path: a vs b` (at most 8).
fn differences(a: &Value, b: &Value) -> Vec<String> {
    let mut out = vec![];
    diff(a, b, "", &mut out);
    out.truncate(8);
    out
}

fn diff(a: &Value, b: &Value, at: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let (u, v) = (x.get(k).unwrap_or(&Value::Null), y.get(k).unwrap_or(&Value::Null));
                diff(u, v, &format!("{at}{}{k}", if at.is_empty() { "" } else { "." }), out);
            }
        }
        _ if a != b => out.push(format!("{at}: {} vs {}", short(a), short(b))),
        _ => {}
    }
}

/// A value for a message (at most 60 characters).
fn short(v: &Value) -> String {
    lbcheck::base::text::clip(&v.to_string(), 60).into_owned()
}
