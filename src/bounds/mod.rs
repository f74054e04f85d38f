//! The papers' bounds as functions, and statistical tests of a balancer
//! against them (../shared/STATISTICS.md).
//!
//! - [`papers`]: each bound as a function with its source: 000 Lemma 1's
//!   Chernoff tails (eq. (2), (3)), 000 eq. (1)'s lower bound, 001 Lemma 1.3
//!   (queue length), 001 Lemma 3 (generation depth, with c = 8 as proved in
//!   proofs/Bounds.v), 001 Thm 1 / 002 Thm 1 (T_par and O(P·h) messages).
//! - [`stats`]: exact Clopper–Pearson bounds and binomial tails, empirical
//!   tail vs bound, t-based upper confidence bounds, the trend test.
//! - [`plan`], [`suite`], [`observe`]: the quick and full profiles, the
//!   simulated runs and what they measure.
//! - [`twosample`], [`compare`]: Mann–Whitney tests of a user's batch of
//!   runs against the reference's (`lbcheck compare`).
//! - [`claims`]: the claims checked on those runs, each with its α, the
//!   fitted constants and the verdicts `lbcheck bounds` prints.
//! - [`pacheco`]: Pacheco's global round robin (003 §14.7.3, S-14): V(P)
//!   exactly, T_par with its four-message T_count.
//! - [`atomic`]: 004's suites (random-destination search, Thm 1; message
//!   scattering, Thm 3; Lemmas 6 and 7); [`dispatch`] runs every suite
//!   but random polling's by name; [`sync_polling`]: 001 §1.3's
//!   synchronous random polling.
//!
//! [`Suite`] is the registry of suites `lbcheck bounds --balancer` runs.

use crate::base::registry::Info;
use crate::base::Topology;
use crate::mutants::{Catcher, Mutant, Site};
use crate::protocol::{BalancerKind, DetectorKind};
use crate::registry;

registry! {
    /// The bound suites (`lbcheck bounds --balancer NAME`).
    pub enum Suite: "bounds suite" {
        /// 001/002's random polling ([`suite`], [`claims`]).
        RandomPolling => Info::ships(
            "random-polling",
            "001 Thm 1, Lemmas 1.3, 3, 6; 002 Thm 1",
            "T_par, generation depth, remaining time, queues and traffic of asynchronous random polling",
        ),
        /// 001 §1.3's synchronous random polling ([`sync_polling`]).
        SyncRandomPolling => Info::ships(
            "sync-random-polling",
            "001 §1.3 [28, 29]; S-13",
            "T_par of synchronous random polling: (T_par − (1+ε)T_seq/P)/(T_atomic + h·T_round) bounded, no trend in log2 P",
        ),
        /// 004's random-destination search ([`atomic::search`]).
        RandomDestination => Info::ships(
            "random-destination",
            "004 Thm 1, Lemmas 6-7",
            "T/(n/p + h) of random-destination search on the atomic machine, every arbiter",
        ),
        /// 004's message scattering ([`atomic::scatter`]).
        Scatter => Info::ships("scatter", "004 §3, Thm 3, Lemmas 6-7", "T/m of message scattering, every arbiter; exact facts"),
        /// 004's priority-queue branch-and-bound ([`atomic::search`]).
        PriorityBnb => Info::ships(
            "priority-bnb",
            "004 Thm 2, Lemmas 6-7",
            "T/(n/p + h) of the critical subtree, priority message queues, FIFO arbiter, n > p² log p; `--full`: critical subtrees of ≥ 5,000 vertices (`thm2_large`, p ≤ 32)",
        ),
        /// Pacheco's global round robin ([`pacheco`]).
        Pacheco => Info::ships(
            "pacheco",
            "003 §14.7.3; S-14",
            "global round robin: V(P) = P − s requests until every PE is asked (exact), T_par/(h·(4T_rout + Δt + T_split))",
        ),
        /// Hypercube poll-and-shuffle ([`poll_and_shuffle`]).
        PollAndShuffle => Info::ships(
            "poll-and-shuffle",
            "000 §3, §5, Thm 1, eq. (4), Lemmas 4-5, Thm 5; S-2, S-6, S-7",
            "uniform permutations (χ² on S_4), eq. (4)'s uniform partners, T_par/(h·(T_phase + c_poll)) bounded and free of log n; the adaptive trigger's notifications, idle estimate, T_par and permutations",
        ),
    }
}

impl Suite {
    /// The claims whose names a formula mutant may carry in this suite.
    fn formula_claims(self) -> &'static [&'static str] {
        match self {
            Suite::RandomPolling => &["formula"],
            Suite::RandomDestination | Suite::Scatter | Suite::PriorityBnb => &["lemma6", "lemma7"],
            Suite::Pacheco | Suite::PollAndShuffle | Suite::SyncRandomPolling => &[],
        }
    }

    /// The network the suite runs on when none is named: poll-and-shuffle's
    /// is the hypercube (000 §3), or a 2-D mesh for a mutant of random
    /// polling on a network (neighbourhood polling hides work only where
    /// neighbours are few: 000 §1.1); the others run on the crossbar.
    pub fn default_topology(self, mutant: Option<Mutant>) -> Topology {
        match self {
            Suite::PollAndShuffle if mutant.is_some_and(|m| m.entry().site == Site::NetworkPolling) => {
                Topology::Mesh { r: 2 }
            }
            Suite::PollAndShuffle => Topology::Hypercube,
            _ => Topology::Crossbar,
        }
    }

    /// Why `m` has no effect in this suite's runs (`None`: it acts).
    pub fn refuses(self, m: Mutant) -> Option<String> {
        let site = m.entry().site;
        let acts = match (self, site) {
            (_, Site::Formulas) => {
                m.entry().fails_under(Catcher::Bounds).is_some_and(|c| self.formula_claims().contains(&c))
            }
            // Random polling on a network: the comparison runs of poll-and-shuffle's suite.
            (Suite::PollAndShuffle, Site::NetworkPolling) => true,
            (Suite::RandomPolling, Site::NetworkPolling) => false,
            (Suite::RandomPolling, _) => {
                m.not_applicable(BalancerKind::RandomPolling, DetectorKind::Energy, false).is_none()
            }
            (Suite::Pacheco, Site::Balancer(b)) => b == BalancerKind::Pacheco,
            (Suite::SyncRandomPolling, Site::NetworkPolling) => false,
            (Suite::SyncRandomPolling, _) => {
                m.not_applicable(BalancerKind::SyncRandomPolling, DetectorKind::Energy, false).is_none()
            }
            (Suite::PollAndShuffle, Site::Balancer(b)) => b == BalancerKind::PollAndShuffle,
            (Suite::RandomDestination, Site::AtomicMachine) => true,
            (Suite::RandomDestination, Site::Balancer(b)) => b == BalancerKind::RandomDestination,
            (Suite::PriorityBnb, Site::Balancer(b)) => b == BalancerKind::PriorityBnb,
            (Suite::Scatter, Site::Scatter) => true,
            _ => false,
        };
        (!acts).then(|| format!("mutant `{m}` has no effect in the `{self}` bounds suite"))
    }
}

pub mod assumptions;
pub mod atomic;
pub mod claims;
pub mod compare;
pub mod coverage;
pub mod dispatch;
pub mod granularity;
pub mod listing;
pub mod logp;
pub mod memo;
pub mod observe;
pub mod pacheco;
pub mod papers;
pub mod plan;
pub mod poll_and_shuffle;
pub mod range;
pub mod request_cost;
pub mod routing;
pub mod stats;
pub mod suite;
pub mod sync_polling;
pub mod twosample;
