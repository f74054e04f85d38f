//! The one command line that reproduces a run (../shared/STYLE.md item 8),
//! derived from the run specification's JSON: every key is the name of
//! its flag (`t_rout` → `--t-rout`), every value its text, so the command
//! names exactly what the spec holds and nothing is written out by hand.

use std::fmt::{self, Write};

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use super::driver::Driver;
use super::spec::RunSpec;

/// A JSON value with its objects' keys in the order written (the spec's
/// field order, which is the order of the flags in the command).
enum Ordered {
    Object(Vec<(String, Ordered)>),
    Scalar(Value),
}

impl Ordered {
    fn scalar(&self) -> Option<&Value> {
        match self {
            Ordered::Scalar(v) => Some(v),
            Ordered::Object(_) => None,
        }
    }
}

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ordered, D::Error> {
        d.deserialize_any(OrderedVisitor)
    }
}

/// Objects in order; the scalars of a run specification as they are.
struct OrderedVisitor;

impl<'de> Visitor<'de> for OrderedVisitor {
    type Value = Ordered;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a run specification's JSON")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Ordered, A::Error> {
        let mut fields = Vec::new();
        while let Some(entry) = m.next_entry::<String, Ordered>()? {
            fields.push(entry);
        }
        Ok(Ordered::Object(fields))
    }

    fn visit_bool<E>(self, v: bool) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(Value::Bool(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(Value::from(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(Value::from(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(Value::from(v)))
    }

    fn visit_unit<E>(self) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(Value::Null))
    }
}

impl RunSpec {
    /// The command line that reproduces this run: event for event in the
    /// simulator; with the same seeds (thread interleavings differ) on
    /// threads and MPI.
    pub fn replay(&self) -> String {
        let command = match &self.driver {
            Driver::Sim(_) | Driver::Atomic(_) => "lbcheck simulate".to_string(),
            Driver::Threads(_) => "lbcheck run".to_string(),
            Driver::Mpi(c) => format!("mpirun --oversubscribe -np {} lbcheck mpi", c.pes),
        };
        let check = if matches!(self.driver, Driver::Threads(_)) { " --check" } else { "" };
        format!("{command}{}{check}", self.flags())
    }

    /// The flags that give this run, each key of the spec's JSON as a flag
    /// (` --balancer random-polling --slots 2 --termination energy …`).
    pub fn flags(&self) -> String {
        let json = serde_json::to_string(self).expect("a run specification is JSON");
        let Ok(Ordered::Object(spec)) = serde_json::from_str::<Ordered>(&json) else {
            unreachable!("a run specification is a JSON object")
        };
        let mut cmd = String::new();
        for (key, value) in &spec {
            match value {
                Ordered::Object(fields) => tagged(&mut cmd, key, fields),
                Ordered::Scalar(v) => flag(&mut cmd, key, v),
            }
        }
        cmd
    }
}

/// A value tagged with its `name`: the balancer (`--balancer NAME` and
/// its parameters) or the driver (its parameters; its name is the command).
fn tagged(cmd: &mut String, key: &str, fields: &[(String, Ordered)]) {
    let driver = key == "driver";
    let mpi = fields.iter().any(|(k, v)| k == "name" && v.scalar() == Some(&Value::from("mpi")));
    for (field, value) in fields {
        let Some(value) = value.scalar() else { continue };
        match field.as_str() {
            "name" if driver => {}
            "pes" if mpi => {} // the number of ranks, in the mpirun prefix
            "name" => flag(cmd, key, value),
            _ => flag(cmd, field, value),
        }
    }
}

/// Appends ` --NAME VALUE` (` --NAME` for `true`; nothing for `false`).
fn flag(cmd: &mut String, key: &str, value: &Value) {
    let name = key.replace('_', "-");
    match value {
        Value::Bool(true) => {
            let _ = write!(cmd, " --{name}");
        }
        Value::Bool(false) | Value::Null => {}
        Value::String(s) => {
            let _ = write!(cmd, " --{name} {}", quoted(s));
        }
        other => {
            let _ = write!(cmd, " --{name} {other}");
        }
    }
}

/// `s` as one shell word: as it is if it needs no quoting, else in single
/// quotes (a value never holds a single quote).
fn quoted(s: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_.,:=/+@%".contains(c);
    match !s.is_empty() && s.chars().all(plain) {
        true => s.to_string(),
        false => format!("'{s}'"),
    }
}

/// The words of a command line, split as a POSIX shell would (whitespace,
/// single quotes): the inverse of [`RunSpec::replay`]'s quoting, for running
/// a printed replay command or flags given as one string.
pub fn words(cmd: &str) -> Vec<String> {
    let (mut out, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in cmd.chars() {
        match c {
            '\'' => (quoted, any) = (!quoted, true),
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{BalancerKind, DetectorKind};
    use crate::sim::SimConfig;

    #[test]
    fn splits_words_and_single_quotes() {
        let w = words("--workload 'uts:args=-t 0 -b 4' --pes  16 ''");
        assert_eq!(w, ["--workload", "uts:args=-t 0 -b 4", "--pes", "16", ""]);
    }

    #[test]
    fn every_key_is_a_flag() {
        let sim = SimConfig { pes: 16, seed: 3, latency: Some((1, 40)), fifo_links: true, ..SimConfig::default() };
        let w = "uts:args=-t 0 -b 4".parse().unwrap();
        let spec = RunSpec::new(w, BalancerKind::RandomPolling, DetectorKind::Energy, Driver::Sim(sim));
        let workload = spec.workload.to_string();
        assert!(workload.contains(' '), "{workload}");
        assert_eq!(
            spec.replay(),
            format!(
                "lbcheck simulate --balancer random-polling --termination energy --workload '{workload}' \
                 --split bottom-half --pes 16 --seed 3 --dt 10 --t-rout 10 --t-split 5 --latency 1..40 --fifo-links"
            )
        );
    }
}
