//! Message scattering on the atomic machine (004 §3, Thm 3, 004-6 … 004-9).
//!
//! Every node holds a list of m messages and sends them in list order
//! through its send buffer; a message's destination is independent and
//! uniform (`random`), node 0 (`all-to-0`), or node 0 or 1 (`hotspot`, a
//! deliberately bad pattern: T/m then grows with p). T is the step of the
//! last receipt. Exact facts, asserted by [`check`]: T ≥ m (one send per
//! step), T ≥ r (one receipt per step, r the largest in-degree), and
//! all-to-0 takes exactly m·p, or m·(p − 1) when self-messages stay local;
//! off-line ([`super::offline`]) max{r, m} steps suffice. Thm 3: under the
//! worst-case arbiter, P[T > k·m] = O(e^{−m}) for random destinations.

use rand::Rng;

use super::adversary::{explore, Exploration};
use super::network::{Chooser, Discipline, Envelope, Network, Rules};
use super::{offline, Arbiter};
use crate::base::rng::{stream, Purpose};
use crate::base::registry::Info;
use crate::protocol::PeId;
use crate::registry;

registry! {
    /// How scattered messages choose their destinations.
    pub enum Dest: "destination pattern" {
        /// Independent, uniform (004 §3).
        Random => Info::ships("random", "004 §3, Thm 3", "independent uniformly random destinations"),
        /// Every message to node 0 (004 §3's Ω(mp) worst case).
        AllToZero => Info::ships("all-to-0", "004 §3", "every message to node 0: T = m·p exactly"),
        /// Node 0 or 1 at random: a hot spot.
        Hotspot => Info::ships("hotspot", "004 §3", "destinations drawn from {0, 1}: a hot spot (T/m grows with p)"),
    }
}

/// One scattering instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Number of nodes p.
    pub pes: u32,
    /// `dests[s]`: node s's destinations, in list order.
    pub dests: Vec<Vec<PeId>>,
    /// Self-messages are delivered locally, not through the network.
    pub self_local: bool,
}

impl Instance {
    /// `m` messages per node with destinations drawn by `dest` from the
    /// seed's streams (one per node).
    pub fn new(pes: u32, m: usize, dest: Dest, seed: u64, self_local: bool) -> Instance {
        let dests = (0..pes)
            .map(|s| {
                let mut rng = stream(seed, s, Purpose::Destinations);
                (0..m)
                    .map(|_| match dest {
                        Dest::Random => rng.random_range(0..pes),
                        Dest::AllToZero => 0,
                        Dest::Hotspot => rng.random_range(0..pes.min(2)),
                    })
                    .collect()
            })
            .collect();
        Instance { pes, dests, self_local }
    }

    /// m: the longest list.
    pub fn m(&self) -> u64 {
        self.dests.iter().map(Vec::len).max().unwrap_or(0) as u64
    }

    /// r: the largest number of network messages to one node.
    pub fn r(&self) -> u64 {
        let mut indeg = vec![0u64; self.pes as usize];
        self.network_messages().for_each(|(_, d)| indeg[d as usize] += 1);
        indeg.into_iter().max().unwrap_or(0)
    }

    /// (source, destination) of every message that takes the network.
    fn network_messages(&self) -> impl Iterator<Item = (PeId, PeId)> + '_ {
        let all = self.dests.iter().enumerate().flat_map(|(s, ds)| ds.iter().map(move |&d| (s as PeId, d)));
        all.filter(|&(s, d)| !(self.self_local && s == d))
    }

    /// The completion time under `rules`, open choices made by `chooser`.
    pub fn run(&self, rules: Rules, chooser: Chooser) -> (u64, Chooser) {
        let mut net = Network::new(self.pes, rules, chooser);
        for (id, (from, to)) in self.network_messages().enumerate() {
            net.enqueue(Envelope { id: id as u64, from, to, key: 0, msg: () });
        }
        let mut t = 0;
        while !net.is_empty() {
            t += 1;
            net.send_phase(t);
            net.transmit();
        }
        (t, net.into_chooser())
    }

    /// The off-line completion time: max{r, m} exactly (004-7).
    pub fn offline(&self) -> u64 {
        let dests: Vec<Vec<PeId>> = (0..self.pes as usize)
            .map(|s| self.dests[s].iter().copied().filter(|&d| !(self.self_local && d == s as PeId)).collect())
            .collect();
        offline::schedule(&dests, self.pes).t
    }

    /// Every arbitration choice: the worst and best T ([`explore`]).
    pub fn adversary(&self, rules: Rules, max_runs: u64) -> Exploration {
        explore(max_runs, |chooser| self.run(rules, chooser))
    }
}

/// The network rules of a scattering run under `arbiter` (messages are
/// sent in list order: a FIFO queue).
pub fn rules(arbiter: Arbiter) -> Rules {
    Rules::atomic(arbiter, Discipline::Fifo)
}

/// The exact facts of 004 §3 for a run of `inst` that took `t` steps:
/// `Err` names the first that fails.
pub fn check(inst: &Instance, t: u64, dest: Dest) -> Result<(), String> {
    let (m, r, p) = (inst.m(), inst.r(), u64::from(inst.pes));
    if t < m {
        return Err(format!("T = {t} < m = {m}: a node sent two messages in one step"));
    }
    if t < r {
        return Err(format!("T = {t} < r = {r}: a node received two messages in one step"));
    }
    if dest == Dest::AllToZero {
        let exact = if inst.self_local { m * (p - 1) } else { m * p };
        if t != exact {
            return Err(format!("all-to-0: T = {t}, but exactly {exact} (one receipt per step, always one ready)"));
        }
    }
    Ok(())
}
