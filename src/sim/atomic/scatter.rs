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
use crate::base::registry::Info;
use crate::base::rng::{stream, Purpose};
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

    /// m: the most messages one node sends through the network (its whole
    /// list, less its self-messages when they stay local; 004 §3).
    pub fn m(&self) -> u64 {
        let mut sends = vec![0u64; self.pes as usize];
        self.network_messages().for_each(|(s, _)| sends[s as usize] += 1);
        sends.into_iter().max().unwrap_or(0)
    }

    /// r: the largest number of network messages to one node.
    pub fn r(&self) -> u64 {
        let mut indeg = vec![0u64; self.pes as usize];
        self.network_messages().for_each(|(_, d)| indeg[d as usize] += 1);
        indeg.into_iter().max().unwrap_or(0)
    }

    /// max{r, m}: the off-line optimum and a lower bound on every run (004 §3).
    pub fn lower(&self) -> u64 {
        self.r().max(self.m())
    }

    /// (source, destination) of every message that takes the network.
    fn network_messages(&self) -> impl Iterator<Item = (PeId, PeId)> + '_ {
        let all = self.dests.iter().enumerate().flat_map(|(s, ds)| ds.iter().map(move |&d| (s as PeId, d)));
        all.filter(|&(s, d)| !(self.self_local && s == d))
    }

    /// The completion time under `rules`, open choices made by `chooser`.
    pub fn run(&self, rules: Rules, chooser: Chooser) -> (u64, Chooser) {
        let (t, chooser) = self.run_until(rules, chooser, u64::MAX);
        (t.expect("every message delivered by step 2^64 - 1"), chooser)
    }

    /// [`Instance::run`] stopped after `cap` steps: the completion time, or
    /// `None` if messages were still in the network then (T > `cap`).
    pub fn run_until(&self, rules: Rules, chooser: Chooser, cap: u64) -> (Option<u64>, Chooser) {
        let mut net = Network::new(self.pes, rules, chooser);
        for (id, (from, to)) in self.network_messages().enumerate() {
            net.enqueue(Envelope { id: id as u64, from, to, key: 0, msg: () });
        }
        let mut t = 0;
        while !net.is_empty() {
            if t == cap {
                return (None, net.into_chooser());
            }
            t += 1;
            net.send_phase(t);
            net.transmit();
        }
        (Some(t), net.into_chooser())
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

/// One exact fact of 004 §3 about a run: its name, whether it holds, why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// `t_at_least_m`, `t_at_least_r`, `all_to_0_exact` or `offline_is_max_r_m`.
    pub name: &'static str,
    /// True if the fact holds.
    pub pass: bool,
    /// The figures compared.
    pub detail: String,
}

impl Fact {
    fn new(name: &'static str, pass: bool, ok: String, failed: String) -> Fact {
        Fact { name, pass, detail: if pass { ok } else { failed } }
    }

    /// `Ok` if the fact holds, else the failure.
    pub fn holds(self) -> Result<(), FailedFact> {
        match self.pass {
            true => Ok(()),
            false => Err(FailedFact { name: self.name, detail: self.detail }),
        }
    }
}

/// A fact of 004 §3 that fails: its name and the figures compared.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{detail}")]
pub struct FailedFact {
    /// The fact's name ([`Fact::name`]).
    pub name: &'static str,
    /// The figures compared.
    pub detail: String,
}

/// The exact facts of 004 §3 for a run of `inst` that took `t` steps: T ≥ m
/// (one send per step), T ≥ r (one receipt per step) and, for all-to-0, T =
/// m·p exactly (m·(p − 1) when self-messages stay local).
pub fn facts(inst: &Instance, t: u64, dest: Dest) -> Vec<Fact> {
    let (m, r, p) = (inst.m(), inst.r(), u64::from(inst.pes));
    let mut out = vec![
        Fact::new(
            "t_at_least_m",
            t >= m,
            format!("T = {t} >= m = {m}"),
            format!("T = {t} < m = {m}: a node sent two messages in one step"),
        ),
        Fact::new(
            "t_at_least_r",
            t >= r,
            format!("T = {t} >= r = {r}"),
            format!("T = {t} < r = {r}: a node received two messages in one step"),
        ),
    ];
    if dest == Dest::AllToZero {
        let (exact, q, p_) = if inst.self_local { (m * (p - 1), p - 1, "(p − 1)") } else { (m * p, p, "p") };
        let failed = format!(
            "all-to-0: T = {t}, but exactly m·{p_} = {m}·{q} = {exact} (one receipt per step, always one ready)"
        );
        out.push(Fact::new("all_to_0_exact", t == exact, format!("T = {t} = m·{p_} = {m}·{q}"), failed));
    }
    out
}

/// 004-7: the off-line schedule of `inst` takes `offline_t` = max{r, m} steps.
pub fn offline_fact(inst: &Instance, offline_t: u64) -> Fact {
    let (m, r, lower) = (inst.m(), inst.r(), inst.lower());
    let ok = offline_t == lower;
    let failed = format!("off-line T = {offline_t}, but max(r, m) = max({r}, {m}) = {lower} (004-7)");
    Fact::new("offline_is_max_r_m", ok, format!("off-line T = {offline_t} = max(r, m)"), failed)
}

/// The exact facts of 004 §3 for a run of `inst` that took `t` steps:
/// `Err` is the first that fails ([`facts`]).
pub fn check(inst: &Instance, t: u64, dest: Dest) -> Result<(), FailedFact> {
    facts(inst, t, dest).into_iter().try_for_each(Fact::holds)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With self-messages local, a node whose messages all go to itself
    /// sends nothing: T ≥ m must count network messages only (004 §3).
    #[test]
    fn self_local_messages_do_not_count_towards_m() {
        let inst = Instance::new(1, 5, Dest::AllToZero, 0, true);
        let (t, _) = inst.run(rules(Arbiter::Fifo), Chooser::Script(Default::default()));
        assert_eq!((t, inst.m(), inst.r(), inst.offline()), (0, 0, 0, 0));
        assert_eq!(check(&inst, t, Dest::AllToZero), Ok(()));
        let random = Instance::new(6, 4, Dest::Random, 1, true);
        assert_eq!(random.offline(), random.lower(), "004-7 with self-messages local");
    }

    /// Each fact can fail, and `check` reports the first failure.
    #[test]
    fn facts_name_each_failure() {
        let inst = Instance::new(8, 5, Dest::AllToZero, 0, false);
        let names =
            |t| facts(&inst, t, Dest::AllToZero).into_iter().filter(|f| !f.pass).map(|f| f.name).collect::<Vec<_>>();
        assert_eq!(names(40), Vec::<&str>::new());
        assert_eq!(names(41), ["all_to_0_exact"]);
        assert_eq!(names(4), ["t_at_least_m", "t_at_least_r", "all_to_0_exact"]);
        let first = check(&inst, 4, Dest::AllToZero).unwrap_err();
        assert_eq!(first.name, "t_at_least_m");
        assert!(first.to_string().contains("T = 4 < m = 5"));
        assert!(!offline_fact(&inst, 39).pass && offline_fact(&inst, 40).pass);
    }
}
