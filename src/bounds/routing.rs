//! 000 §6.1 (issue 31, COVERAGE #18): "a message of length l can be
//! routed over d hops in time O(dl) using packet routing or O(l + d) using
//! cut-through routing". With `--routing` 001's machine gives every
//! message a length l (a work message ⌈its subproblem's wire bytes /
//! `--msg-len`⌉, 002 §4.4's packed subproblem; the others 1) and its
//! links route it: T_rout·d·l (packet) or T_rout·(l + d) (cut-through).
//! The machine models no contention (a link carries any number of
//! messages at once), so the statement holds with constant 1:
//!
//! - `routing_time` (exact, every work message of every run): on random
//!   polling's runs on mesh:2 and the hypercube, under both routings, with
//!   a fixed latency T_rout and o = g = T_poll = T_split = 0 (so that a
//!   work message leaves at its `send`), `recv` − `send` of each work
//!   message is exactly T_rout·d·l resp. T_rout·(l + d), d the hop
//!   distance of the topology and l the length its `send` states
//!   (`data: {"len": l}`). UTS stacks give lengths that vary with the
//!   stack; synthetic tasks a constant 4 units.
//!
//! The mesh's bandwidth statement (poll-and-shuffle lets Ω(n^{(r−1)/r}
//! log n) PEs communicate at once, random polling O(n^{(r−1)/r})) needs
//! link contention, which the machine does not model: not tested.

use std::collections::BTreeMap;

use super::claims::Claim;
use super::plan::Cell;
use crate::base::rng::derive_seed;
use crate::base::topology::{Hops, Topology};
use crate::event::{Event, Kind};
use crate::harness::Driver;
use crate::mutants::Mutant;
use crate::sim::Routing;

/// T_rout of the cells: the latency per hop and unit of length.
const T_ROUT: u64 = 2;

/// The cells' workloads: a small UTS tree (stacks of varying length) and
/// a synthetic tree.
const WORKLOADS: [&str; 2] = ["uts:args=-t 0 -b 40 -q 0.2 -m 4 -r 1", "balanced"];

/// The cells' networks.
pub(super) const NETWORKS: [(&str, u32); 3] = [("mesh:2", 16), ("mesh:2", 64), ("hypercube", 16)];

/// Checks each work message's transfer time against the routing's formula.
pub struct Transfers {
    routing: Routing,
    hops: Hops,
    sent: BTreeMap<u64, (u64, u64, Option<u64>)>,
    /// Work messages checked, those off the formula, those with no length.
    checked: u64,
    off: u64,
    /// The shortest and longest l seen.
    lengths: (u64, u64),
    /// The first message off the formula: (id, measured, expected).
    first: Option<(u64, u64, u64)>,
}

impl Transfers {
    /// For `routing` on `topology` with `pes` PEs.
    pub fn new(routing: Routing, topology: Topology, pes: u32) -> Transfers {
        let hops = topology.distances(pes);
        Transfers { routing, hops, sent: BTreeMap::new(), checked: 0, off: 0, lengths: (u64::MAX, 0), first: None }
    }

    /// The transfer time the routing gives a message of length `l` over `d` hops.
    pub fn expected(routing: Routing, d: u64, l: u64) -> u64 {
        match routing {
            Routing::Packet => T_ROUT * d * l,
            _ => T_ROUT * (l + d),
        }
    }

    /// Feeds one event.
    pub fn observe(&mut self, e: &Event) {
        match e {
            Event::Send { t, from, to, id, kind: Kind::Work, data, .. } => {
                let len = data.as_ref().and_then(|d| d["len"].as_u64());
                self.sent.insert(*id, (*t, self.hops.hops(*from, *to).max(1), len));
            }
            Event::Recv { t, id, kind: Kind::Work, .. } => {
                let Some((sent, d, len)) = self.sent.remove(id) else { return };
                self.checked += 1;
                let l = len.unwrap_or(0);
                self.lengths = (self.lengths.0.min(l), self.lengths.1.max(l));
                let expected = Self::expected(self.routing, d, l);
                if len.is_none() || t - sent != expected {
                    self.off += 1;
                    self.first = self.first.or(Some((*id, t - sent, expected)));
                }
            }
            _ => {}
        }
    }
}

/// One run: `workload` on `topology` with `pes` PEs under `routing`.
fn run_one(cell: (&'static str, &str, u32, Routing), base: u64, mutant: Option<Mutant>) -> Transfers {
    let (workload, topology, pes, routing) = cell;
    let cell = Cell { workload, pes, machine: (10, T_ROUT, 0), trim: None };
    let label = format!("random-polling/routing/{}/{topology}/{routing}", cell.label());
    let mut spec = cell.spec(derive_seed(base, &label, 0), None);
    let topology: Topology = topology.parse().expect("the cells' topologies parse");
    if let Driver::Sim(c) = &mut spec.driver {
        (c.topology, c.routing, c.t_poll) = (topology, Some(routing), 0);
    }
    let spec = spec.with_mutant(mutant);
    let spec = if spec.validate().is_ok() { spec } else { spec.with_mutant(None) };
    let mut transfers = Transfers::new(routing, topology, pes);
    spec.run_composed(&spec.balancer, None, &mut |e| transfers.observe(e)).expect("no trace to write");
    transfers
}

/// `routing_time` on the cells with P ≤ `max_pes`, the runs with `mutant`.
pub fn run_claim(max_pes: u32, base: u64, mutant: Option<Mutant>) -> Claim {
    let mut cells = Vec::new();
    for routing in [Routing::Packet, Routing::CutThrough] {
        for (topology, pes) in NETWORKS.into_iter().filter(|n| n.1 <= max_pes) {
            cells.extend(WORKLOADS.map(|w| (w, topology, pes, routing)));
        }
    }
    let runs = super::suite::par_map(&cells, |&c| run_one(c, base, mutant));
    claim(&runs)
}

/// The claim on `runs`.
pub fn claim(runs: &[Transfers]) -> Claim {
    let checked: u64 = runs.iter().map(|r| r.checked).sum();
    let off: u64 = runs.iter().map(|r| r.off).sum();
    let lo = runs.iter().map(|r| r.lengths.0).min().unwrap_or(0);
    let hi = runs.iter().map(|r| r.lengths.1).max().unwrap_or(0);
    let first = runs.iter().find_map(|r| r.first.map(|f| (r.routing, f)));
    let example = first.map_or(String::new(), |(r, (id, m, e))| format!("; {r} message {id}: {m}, not {e}"));
    let measured = format!("{off} of {checked} work messages off (l = {lo} … {hi}){example}");
    let reference = "000 §6.1: a message of length l over d hops takes d·l (packet) or l + d (cut-through) × T_rout";
    Claim::exact("routing_time", reference, checked, measured, "0 off", off == 0 && checked > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packet_routing_multiplies_cut_through_adds() {
        assert_eq!(Transfers::expected(Routing::Packet, 3, 5), 2 * 15);
        assert_eq!(Transfers::expected(Routing::CutThrough, 3, 5), 2 * 8);
    }
}
