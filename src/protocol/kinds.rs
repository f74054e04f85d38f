//! The registry of the protocol layer: balancers and termination detectors
//! ([`crate::base::registry`]). Adding a protocol is one file in this folder,
//! one arm here and one arm in `harness/compose.rs`.

use crate::base::registry::Info;
use crate::registry;

registry! {
    /// The load balancers.
    pub enum BalancerKind: "balancer" {
        /// Asynchronous random polling ([`super::random_polling`]).
        RandomPolling => Info::ships(
            "random-polling",
            "001 Fig. 1; 002 Thm 1",
            "asynchronous random polling: an idle PE asks a uniformly random PE; a busy one serves a request per Δt",
        ),
        /// Random-destination backtrack search ([`super::random_destination`]).
        RandomDestination => Info::ships(
            "random-destination",
            "004 §4.1, §5, Thm 1",
            "backtrack search sending every child to a uniformly random node (atomic machine)",
        ),
        /// Priority-queue branch-and-bound ([`super::random_destination`] over a priority queue).
        PriorityBnb => Info::ships(
            "priority-bnb",
            "004 §4.1, §6, Thm 2",
            "best-first branch-and-bound: random destinations, message queues ordered by cost (atomic machine)",
        ),
        /// Pacheco's parallel tree search ([`super::pacheco`]).
        Pacheco => Info::ships(
            "pacheco",
            "003 §14.7, §14.7.2-§14.7.3",
            "Generate + Scatter, Service_requests answering all, Send_all_rejects, New_request by random, local or global round robin",
        ),
        /// Synchronous random polling ([`super::sync_polling`]).
        SyncRandomPolling => Info::ships(
            "sync-random-polling",
            "001 §1.3",
            "synchronous random polling: rounds of Δt + 2·T_rout·d + T_split; idle PEs ask at a round's start, a busy PE serves one request a round",
        ),
        /// Hypercube poll-and-shuffle ([`super::poll_and_shuffle`], on [`crate::sim::phased`]).
        PollAndShuffle => Info::ships(
            "poll-and-shuffle",
            "000 §3-§4, Fig. 2; §6.3, Fig. 4",
            "phases of T_phase work; after phase i idle PEs poll along dimension i; a random permutation per cycle (phased machine; --sync local: partners synchronise by messages, Fig. 4)",
        ),
        /// Neighbourhood polling ([`super::random_polling`] asking network neighbours).
        NeighbourPolling => Info::ships(
            "neighbour-polling",
            "000 §1.1",
            "random polling that asks only network neighbours of --topology (the nearest PEs); busy clusters form",
        ),
        /// SIMD phases ([`super::simd_phase`], on the phased machine).
        SimdPhase => Info::ships(
            "simd-phase",
            "000 §1.1",
            "phases of T_phase work; when half the PEs are idle, prefix sums match the i-th idle PE with the i-th busy one (phased machine)",
        ),
    }
    planned: [
    ]
}

impl BalancerKind {
    /// True for the balancers of 004's atomic model, which run only on the
    /// atomic machine (or the complete network): they give all their work
    /// away at each step.
    pub fn atomic(self) -> bool {
        matches!(self, BalancerKind::RandomDestination | BalancerKind::PriorityBnb)
    }

    /// True for the balancers that need a global clock in model time
    /// (synchronous rounds, 001 §1.3): the simulators run them, real
    /// threads do not.
    pub fn needs_model_time(self) -> bool {
        matches!(self, BalancerKind::SyncRandomPolling | BalancerKind::PollAndShuffle | BalancerKind::SimdPhase)
    }

    /// True for the balancers of 000's phased machine (poll-and-shuffle),
    /// which detects termination at its barriers.
    pub fn phased(self) -> bool {
        matches!(self, BalancerKind::PollAndShuffle | BalancerKind::SimdPhase)
    }
}

impl DetectorKind {
    /// True for the detector that only the phased machine's barriers give.
    pub fn phased(self) -> bool {
        self == DetectorKind::Barrier
    }

    /// The detectors that run inside PEs (every driver but the phased machine).
    pub fn of_pes() -> impl Iterator<Item = DetectorKind> {
        <DetectorKind as crate::base::Registered>::ALL.iter().copied().filter(|d| !d.phased())
    }
}

registry! {
    /// The termination detectors.
    pub enum DetectorKind: "termination detector" {
        /// Energy returned directly to PE 0 ([`super::energy`]).
        Energy => Info::ships(
            "energy",
            "003 §14.7.4",
            "energy with exact fractions, returned directly to PE 0",
        ),
        /// Energy returned along the spanning tree ([`super::energy`]).
        EnergyTree => Info::ships(
            "energy-tree",
            "003 §14.7.4",
            "energy with exact fractions, returned along the spanning tree",
        ),
        /// Four-counter waves over a reduction tree ([`super::four_counter`]).
        FourCounter => Info::ships(
            "four-counter",
            "001 §2 (Mattern)",
            "two waves over a reduction tree with equal sent/received work-message totals",
        ),
        /// Safra's token ring ([`super::safra`]).
        Safra => Info::ships(
            "safra",
            "EWD998 (Safra; beyond the five papers)",
            "a token round the ring P-1 → … → 0 sums work sent − received; PE 0 announces on a white token with q + c_0 = 0",
        ),
        /// The phased machine's barrier ([`crate::sim::phased`]).
        Barrier => Info::ships(
            "barrier",
            "000 §2.1, §3",
            "the phased machine's barriers are global reductions: PE 0 announces at the first barrier with no work held",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::Registered;

    #[test]
    fn names_round_trip_and_planned_names_are_refused() {
        for d in DetectorKind::ALL {
            assert_eq!(d.to_string().parse::<DetectorKind>(), Ok(*d));
        }
        let err = "simd".parse::<BalancerKind>().unwrap_err().to_string();
        assert!(
            err.contains("valid: random-polling, random-destination, priority-bnb, pacheco, sync-random-polling, poll-and-shuffle, neighbour-polling, simd-phase"),
            "{err}"
        );
        let err = "nope".parse::<DetectorKind>().unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown termination detector `nope`; valid: energy, energy-tree, four-counter, safra, barrier"
        );
    }
}
