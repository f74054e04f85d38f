//! `hop_latency` (000 §2.1: "k hops ⇒ time k"; S-1): on a network
//! topology every message takes at least its least latency once per hop,
//! so its `recv` comes at least hops(from, to) × a after its `send`, where
//! a is the header's `run.latency[0]` (or `run.t_rout`) and hops the
//! distance of `run.topology` (hypercube, mesh:R, fat-tree, butterfly,
//! ccc; `src/sim/topology.rs`). A driver that ignores the topology
//! delivers long-distance messages early, and the balancer's costs are
//! then those of a crossbar.
//!
//! Applies to traces in model time (`clock` = `work`) whose header names a
//! topology; otherwise the verdict says "not applicable".

use super::{Book, Metrics, Property, Verdict};
use crate::base::topology::{Hops, Topology, TopologyError};
use crate::event::{Clock, Event, TraceHeader};

/// Why `hop_latency` does not apply to a trace.
#[derive(Debug, thiserror::Error)]
enum NotApplicable {
    /// No `run` record: no topology.
    #[error("the header has no `run` record")]
    NoRun,
    /// No topology: the crossbar.
    #[error("no topology (a crossbar: one hop)")]
    NoTopology,
    /// A topology name that does not parse.
    #[error("header `run.topology`: {0}")]
    BadTopology(TopologyError),
    /// Times are not model time.
    #[error("times are not model time")]
    Clock,
    /// P does not fit the topology.
    #[error(transparent)]
    Fits(TopologyError),
}

/// State of the `hop_latency` check.
pub(super) struct HopLatency {
    /// The distances and the least latency per hop; `Err`: why not applicable.
    net: Result<(Hops, u64), NotApplicable>,
    checked: u64,
    violation: Option<(usize, String)>,
}

/// The network a header declares, if the check applies.
fn network(header: &TraceHeader) -> Result<(Hops, u64), NotApplicable> {
    let run = header.run_record().ok_or(NotApplicable::NoRun)?;
    let name = run.topology.as_deref().ok_or(NotApplicable::NoTopology)?;
    let topology: Topology = name.parse().map_err(NotApplicable::BadTopology)?;
    if header.clock != Clock::Work {
        return Err(NotApplicable::Clock);
    }
    topology.fits(header.pes).map_err(NotApplicable::Fits)?;
    let least = run.latency.map_or(run.t_rout.unwrap_or(1), |[a, _]| a);
    Ok((topology.distances(header.pes), least))
}

impl HopLatency {
    /// For the run of `header`.
    pub(super) fn new(header: &TraceHeader) -> HopLatency {
        HopLatency { net: network(header), checked: 0, violation: None }
    }

    /// False when the header says the check does not apply (then the
    /// [`super::Checker`] does not keep it: its events change nothing).
    pub(super) fn applies(&self) -> bool {
        self.net.is_ok()
    }
}

impl Property for HopLatency {
    const NAME: &'static str = "hop_latency";

    #[inline(always)]
    fn observe(&mut self, line: usize, event: &Event, book: &Book) {
        let Ok((hops, least)) = &self.net else { return };
        let Event::Recv { t, pe, from, id, .. } = *event else { return };
        let Some(sent) = book.messages.landed().map(|s| s.t) else { return };
        self.checked += 1;
        let (n, min) = (hops.hops(from, pe), hops.hops(from, pe).saturating_mul(*least));
        if t.saturating_sub(sent) < min && self.violation.is_none() {
            let why = format!(
                "line {line}: message {id} from PE {from} to PE {pe} ({n} hops of {}) took {} < {n} × {least}",
                hops.topology(),
                t.saturating_sub(sent)
            );
            self.violation = Some((line, why));
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        match (self.net, self.violation) {
            (Err(why), _) => Verdict::pass(format!("not applicable: {why}")),
            (Ok(_), Some((line, why))) => Verdict::fail(why, Some(line)),
            (Ok((hops, least)), None) => Verdict::pass(format!(
                "{} messages each took ≥ hops × {least} on the {} (diameter {})",
                self.checked,
                hops.topology(),
                hops.diameter()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testutil;
    use crate::event::Kind;

    fn header(topology: Option<&str>) -> TraceHeader {
        let mut h = testutil::header(8);
        let run = h.run.get_or_insert_with(Default::default);
        run.t_rout = Some(5);
        run.topology = topology.map(str::to_string);
        h
    }

    fn check(h: &TraceHeader, took: u64) -> Verdict {
        let (mut p, mut book) = (HopLatency::new(h), Book::new(8));
        let sent = Event::Send { t: 10, from: 0, to: 7, id: 1, kind: Kind::Request, energy: None, data: None };
        testutil::feed(&mut p, &mut book, 2, &sent);
        let got = Event::Recv { t: 10 + took, pe: 7, from: 0, id: 1, kind: Kind::Request, queue: None, data: None };
        testutil::feed(&mut p, &mut book, 3, &got);
        p.finish(&Metrics::default(), &book)
    }

    #[test]
    fn a_message_faster_than_its_hops_fails() {
        let h = header(Some("hypercube")); // PE 0 to PE 7: 3 hops
        assert!(check(&h, 15).pass);
        let v = check(&h, 14);
        assert!(!v.pass && v.detail.contains("3 hops of hypercube") && v.line == Some(3), "{}", v.detail);
    }

    #[test]
    fn no_topology_is_not_applicable() {
        let v = check(&header(None), 1);
        assert!(v.pass && v.detail.starts_with("not applicable"), "{}", v.detail);
    }
}
