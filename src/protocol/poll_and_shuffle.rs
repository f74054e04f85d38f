//! Hypercube poll-and-shuffle (000 §3.1, Fig. 2; S-2), on the hypercube
//! and, through 000 §4's embedding, on meshes (§4.1), fat trees (§4.2) and
//! hypercubic networks (Thm 2).
//!
//! Every PE performs receiver-induced tree splitting (000 Fig. 1) in
//! phases of T_phase work units. Idle PEs send requests only after a
//! phase: after phase i, PE k asks its dimension-i partner k ⊕ 2^i, which
//! answers with a part split off its subproblem, or a reject. After L
//! phases (a *cycle*; L = log n on the hypercube) the subproblems — empty
//! ones included — are permuted uniformly at random (000 §3.2;
//! [`crate::sim::phased::permutation`]) and the phase counter restarts at
//! 0, so a subproblem meets fresh partners in every cycle (Lemma 2).
//!
//! L per topology: log n on the hypercube, butterfly, CCC and crossbar; on
//! an r-dimensional mesh the last ⌈r·log2 log2 n⌉ dimensions (the long
//! jumps) are dropped (000 §4.1, Thm 3); on a fat tree only the ⌈√log n⌉
//! lowest (000 §4.2, Thm 4).
//!
//! With the adaptive trigger (000 §5; S-7) the permutation is not made
//! after every L phases but when PE 0, from the notifications of idle PEs,
//! estimates that too many PEs are idle; without a trigger the dimension
//! counter wraps without permuting ([`crate::sim::phased::trigger`]).
//!
//! The schedule (phases, barriers, the permutation) is the phased
//! machine's ([`crate::sim::phased`]); this file holds the per-PE rules at
//! the seams a variant may change ([`PasRules`]).

use crate::base::Topology;

use super::PeId;

/// How the subproblems move between cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shuffle {
    /// A uniform random permutation (000 §3.2).
    Permute,
    /// None: every cycle pairs the same subproblems (mutant `pas-no-shuffle`).
    Skip,
    /// k ↦ k ⊕ r for a random r: random, but it commutes with the
    /// dimension pairings, so every cycle pairs the same subproblems again
    /// (mutant `pas-xor-shuffle`, S-2).
    Xor,
    /// Random destinations without the prefix-sum step; a PE receiving two
    /// keeps one (mutant `shuffle-drops-work`).
    RandomDestinations,
}

/// The steps of poll-and-shuffle a variant may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PasRules {
    /// Poll along dimension i after phase i (else always dimension 0:
    /// mutant `pas-same-dimension`).
    pub fresh_dimensions: bool,
    /// How subproblems move between cycles.
    pub shuffle: Shuffle,
    /// Idle PEs wait for the barrier (else they ask the moment they run
    /// out, mid-phase: mutant `pas-mid-phase-request`).
    pub wait_for_barrier: bool,
    /// The exact permutation shuffles each PE's received items (else they
    /// keep their order: mutant `perm-no-local-shuffle`, S-6).
    pub local_shuffle: bool,
    /// The pseudo method's generators are uniform permutations (else XOR
    /// translations, a subgroup of order n: mutant `perm-generators-subgroup`, S-6).
    pub uniform_generators: bool,
    /// Local synchronisation: whose "phase finished" a PE waits for
    /// before the exchange (000 Fig. 4, S-5).
    pub wait: Wait,
    /// Adaptive trigger (000 §5): how often an idle PE notifies PE 0.
    pub notify: Notify,
    /// Adaptive trigger (000 §5, before Thm 5): never permute less than
    /// log2 n phases after the last permutation (else mutant `trigger-too-soon`).
    pub spaced_triggers: bool,
}

/// Local synchronisation's wait (000 §6.3, Fig. 4; S-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// For the dimension-i partner's "phase i finished" (Fig. 4).
    Partner,
    /// For nobody: the PE goes on at once (mutant `no-phase-wait`).
    Skip,
    /// For the dimension-(i+1) partner's, which never comes (mutant
    /// `wait-wrong-dimension`: a deadlock).
    NextDimension,
}

/// How often an idle PE notifies PE 0 under the adaptive trigger (000 §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notify {
    /// With probability c/n (c·√log2 n / n on a fat tree, 000 §5 fn. 1).
    Sampled,
    /// Always (mutant `notify-always`: PE 0 becomes a hot spot, Lemma 4).
    Always,
    /// Never (mutant `notify-never`: PE 0 sees no idleness, Lemma 5).
    Never,
}

impl PasRules {
    /// 000 §3.1.
    pub const PAPER: PasRules = PasRules {
        fresh_dimensions: true,
        shuffle: Shuffle::Permute,
        wait_for_barrier: true,
        local_shuffle: true,
        uniform_generators: true,
        wait: Wait::Partner,
        notify: Notify::Sampled,
        spaced_triggers: true,
    };

    /// The PE that PE `me` asks after phase `phase`: its partner along
    /// that dimension.
    pub fn partner(&self, me: PeId, phase: u32) -> PeId {
        me ^ (1 << if self.fresh_dimensions { phase } else { 0 })
    }
}

/// Phases per cycle L on `pes` = 2^D PEs of `topology` (000 §3.1, §4.1, §4.2).
pub fn phases_per_cycle(topology: Topology, pes: u32) -> u32 {
    let d = pes.trailing_zeros();
    let log_log = f64::from(d.max(1)).log2().ceil() as u32;
    match topology {
        Topology::Mesh { r } => d.saturating_sub(u32::from(r) * log_log).max(1.min(d)),
        Topology::FatTree => (f64::from(d).sqrt().ceil() as u32).min(d),
        _ => d,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_per_cycle_follow_000() {
        assert_eq!(phases_per_cycle(Topology::Hypercube, 1024), 10);
        assert_eq!(phases_per_cycle(Topology::Mesh { r: 2 }, 1024), 2); // 10 − 2·⌈log2 10⌉
        assert_eq!(phases_per_cycle(Topology::Mesh { r: 2 }, 1 << 16), 8); // 16 − 2·4
        assert_eq!(phases_per_cycle(Topology::FatTree, 1024), 4); // ⌈√10⌉
        assert_eq!(phases_per_cycle(Topology::Hypercube, 1), 0);
        assert_eq!(PasRules::PAPER.partner(5, 1), 7);
    }
}
