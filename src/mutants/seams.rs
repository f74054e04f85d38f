//! Each mutant as the broken rule it puts at one seam of a reference
//! protocol (../shared/ARCHITECTURE.md "The harness and the registry"):
//! the references hold only the papers' rules, and nothing in
//! `protocol/` names a mutant.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::Mutant;
use crate::base::Fraction;
use crate::problem::Subproblem;
use crate::protocol::initial::InitialSplit;
use crate::protocol::random_destination::{children, Rules as Destinations};
use crate::protocol::random_polling::{Gift, Rules as Polling};
use crate::protocol::{bound, energy, four_counter, pacheco, safra, PeId};
use crate::sim::atomic::network::Rules as Network;
use crate::sim::atomic::Arbiter;

/// The model time `wave-pause` waits between waves and
/// `energy-tree-busy-forward-late` holds energy after going idle: far above
/// the delays `detection_delay_bound` allows at the campaign's latencies
/// (S-20: 10·D·L), below the simulator's detection horizon.
pub const PAUSE: u64 = 10_000;

/// The model time `energy-idle-hold` holds energy after going idle: a
/// fraction of 001 Lemma 6's lower-order term in `lbcheck bounds`' cells
/// (T_atomic + h(Δt + T_split + T_rout): several hundred), so that only the
/// tail after generation h grows (`remaining_time` fails, `t_par` holds),
/// yet 10 × the one hop (L) direct energy's `detection_delay_bound` allows
/// at the campaign's latency.
pub const HOLD: u64 = 100;

/// The `poll-lazy` mutant serves requests only at every this many polls.
pub const LAZY_FACTOR: u64 = 64;

/// Random polling's rules with `mutant`'s broken one, if it has one there.
pub fn polling<T: Subproblem>(mutant: Option<Mutant>) -> Polling<T> {
    let paper = Polling::paper();
    match mutant {
        Some(Mutant::PollNeighbour) => Polling { victim: ring_successor, ..paper },
        Some(Mutant::PollHotspot) => Polling { victim: pe_zero, queues: pe_zero_hoards, ..paper },
        Some(Mutant::SplitDuplicates) => {
            Polling { give: |t: &mut T| t.clone().split().map_or(Gift::Nothing, Gift::Send), ..paper }
        }
        Some(Mutant::SplitTiny) => {
            Polling { give: |t: &mut T| t.split_small().map_or(Gift::Nothing, Gift::Send), ..paper }
        }
        Some(Mutant::SplitProbe) => Polling {
            give: |t: &mut T| {
                let _probe = t.clone().split();
                t.split().map_or(Gift::Nothing, Gift::Probed)
            },
            ..paper
        },
        Some(Mutant::SplitLoses) => Polling { give: |t: &mut T| t.split().map_or(Gift::Nothing, Gift::Lose), ..paper },
        Some(Mutant::RequestDropped) => Polling { reject_refused: false, ..paper },
        Some(Mutant::PollLazy) => Polling { serves_at: |n| n % LAZY_FACTOR == 0, ..paper },
        Some(Mutant::ServeOneDropRest) => Polling { keep_rest: false, ..paper },
        Some(Mutant::SlotOverwrite) => Polling { fills_empty_slot: false, ..paper },
        Some(Mutant::InactiveSilent) => Polling { inactive_answers: false, ..paper },
        Some(Mutant::SplitDeepestSlot) => Polling { splits_oldest_slot: false, ..paper },
        Some(Mutant::QueueLimitIgnored) => Polling { trims: false, ..paper },
        _ => paper,
    }
}

/// Pacheco's rules with `mutant`'s broken one, if it has one there.
pub fn pacheco(mutant: Option<Mutant>) -> pacheco::Rules {
    match mutant {
        Some(Mutant::NoSendAllRejects) => pacheco::Rules { send_all_rejects: false, ..pacheco::Rules::PAPER },
        Some(Mutant::GrrNoIncrement) => pacheco::Rules { increments: false, ..pacheco::Rules::PAPER },
        Some(Mutant::GrrBusyDrops) => pacheco::Rules { answers_busy: false, ..pacheco::Rules::PAPER },
        Some(Mutant::ServiceOne) => pacheco::Rules { serves_all: false, ..pacheco::Rules::PAPER },
        _ => pacheco::Rules::PAPER,
    }
}

/// How much sooner `mutant` prunes (`prune-off-by-one`: bound + 1 ≥
/// incumbent), if it changes branch-and-bound's pruning.
pub fn prune_slack(mutant: Option<Mutant>) -> Option<u64> {
    (mutant == Some(Mutant::PruneOffByOne)).then_some(1)
}

/// The bound propagation's rules with `mutant`'s broken one, if it has one there.
pub fn bounds(mutant: Option<Mutant>) -> bound::Rules {
    match mutant {
        Some(Mutant::PruneUnachieved) => bound::Rules { takes_relaxation: true, ..bound::Rules::PAPER },
        Some(Mutant::StopNotForwarded) => bound::Rules { forwards_stop: false, ..bound::Rules::PAPER },
        Some(Mutant::BoundLost) => bound::Rules { forwards_bounds: false, ..bound::Rules::PAPER },
        _ => bound::Rules::PAPER,
    }
}

/// `poll-neighbour`: always the ring successor (i+1) mod P.
fn ring_successor(me: PeId, pes: u32, _: &mut ChaCha8Rng) -> PeId {
    (me + 1) % pes
}

/// `poll-hotspot`: everyone asks PE 0 (PE 0 asks PE 1) ...
fn pe_zero(me: PeId, _: u32, _: &mut ChaCha8Rng) -> PeId {
    (me == 0) as PeId
}

/// ... and PE 0 queues requests even while idle.
fn pe_zero_hoards(me: PeId, has_work: bool) -> bool {
    has_work || me == 0
}

/// The energy rule with `mutant`'s broken share, if it has one.
pub fn energy(mutant: Option<Mutant>) -> energy::Rules {
    match mutant {
        Some(Mutant::EnergyNotSplit) => energy::Rules { share: keeps_all, ..energy::Rules::PAPER },
        Some(Mutant::EnergyEarlyReturn) => energy::Rules { share: returns_first, ..energy::Rules::PAPER },
        Some(Mutant::EnergyTreeBusyForwardLate) => energy::Rules { idle_hold: PAUSE, ..energy::Rules::PAPER },
        Some(Mutant::EnergyIdleHold) => energy::Rules { idle_hold: HOLD, ..energy::Rules::PAPER },
        Some(Mutant::EnergyFloat) => energy::Rules { share: in_floats, ..energy::Rules::PAPER },
        _ => energy::Rules::PAPER,
    }
}

/// `energy-not-split`: sends its part, keeps all.
fn keeps_all(held: &Fraction, parts: u32, _: PeId) -> energy::Share {
    energy::Share { keep: None, attach: held.div(parts), returned: None }
}

/// `energy-float`: the share computed in `f64`, as 003 §14.7.4 warns
/// against: 1/3 is rounded, and past 2^-1074 a half is 0.
fn in_floats(held: &Fraction, parts: u32, _: PeId) -> energy::Share {
    let (h, a) = (held.to_f64(), held.to_f64() / f64::from(parts));
    energy::Share { keep: Some(Fraction::from_f64(h - a)), attach: Fraction::from_f64(a), returned: None }
}

/// `energy-early-return`: returns everything to PE 0 first; the work
/// travels with none (PE 0 "returns" to itself: keeps all).
fn returns_first(held: &Fraction, _: u32, me: PeId) -> energy::Share {
    match me {
        0 => energy::Share { keep: None, attach: Fraction::zero(), returned: None },
        _ => energy::Share { keep: Some(Fraction::zero()), attach: Fraction::zero(), returned: Some(held.clone()) },
    }
}

/// The four-counter rule with `mutant`'s broken condition, if it has one.
pub fn four_counter(mutant: Option<Mutant>) -> four_counter::Rules {
    match mutant {
        Some(Mutant::FourCounterOneWave) => four_counter::Rules { announce: |(s, r), _| s == r, pause: 0 },
        Some(Mutant::WavePause) => four_counter::Rules { pause: PAUSE, ..four_counter::Rules::PAPER },
        Some(Mutant::FourCounterLate) => {
            four_counter::Rules { announce: |(s, r), same_before| s == r && same_before >= 8, pause: 0 }
        }
        _ => four_counter::Rules::PAPER,
    }
}

/// Safra's rules with `mutant`'s broken one, if it has one there.
pub fn safra(mutant: Option<Mutant>) -> safra::Rules {
    match mutant {
        Some(Mutant::SafraNoBlacken) => safra::Rules { blackens_on_receive: false },
        _ => safra::Rules::PAPER,
    }
}

/// Random destinations' rules with `mutant`'s broken one, if it has one there.
pub fn destinations<T: Subproblem>(mutant: Option<Mutant>) -> Destinations<T> {
    let paper = Destinations::paper();
    match mutant {
        Some(Mutant::ExpandTwice) => Destinations { children: first_child_twice, ..paper },
        Some(Mutant::DestHotspot) => Destinations { destination: half_to_zero, ..paper },
        Some(Mutant::PruneWrong) => Destinations { prune: first_cost_bound, ..paper },
        _ => paper,
    }
}

/// `dest-hotspot`: node 0 with probability 1/2, else uniform.
fn half_to_zero(_: PeId, pes: u32, rng: &mut ChaCha8Rng) -> PeId {
    match rng.random_bool(0.5) {
        true => 0,
        false => rng.random_range(0..pes),
    }
}

/// `prune-wrong`: the first vertex's cost is taken for a bound (no goal
/// achieved it); every costlier vertex's subtree is discarded.
fn first_cost_bound<T: Subproblem>(bound: &mut Option<u64>, v: &T) -> bool {
    let cost = v.cost().unwrap_or(0);
    cost > *bound.get_or_insert(cost)
}

/// `expand-twice`: the root's first child is sent twice (once would do:
/// doubling every vertex's would blow the tree up exponentially).
fn first_child_twice<T: Subproblem>(v: T) -> Vec<T> {
    let mut kids = children(v);
    if kids.len() == 2 && kids[0].generation() == 1 {
        kids.push(kids[0].clone());
    }
    kids
}

/// The atomic network's rules with `mutant`'s broken one, if it has one there.
pub fn network(mutant: Option<Mutant>, rules: Network) -> Network {
    match mutant {
        Some(Mutant::TwoReceives) => Network { receives: Some(2), ..rules },
        Some(Mutant::RetractBlocked) => Network { retract: true, ..rules },
        Some(Mutant::ArbiterLifoAsFifo) => Network { arbiter: Arbiter::Lifo, ..rules },
        _ => rules,
    }
}

/// Poll-and-shuffle's rules with `mutant`'s broken one, if it has one there.
pub fn poll_and_shuffle(mutant: Option<Mutant>) -> crate::protocol::poll_and_shuffle::PasRules {
    use crate::protocol::poll_and_shuffle::{Notify, PasRules, Shuffle, Wait};
    let paper = PasRules::PAPER;
    match mutant {
        Some(Mutant::ShuffleDropsWork) => PasRules { shuffle: Shuffle::RandomDestinations, ..paper },
        Some(Mutant::PasSameDimension) => PasRules { fresh_dimensions: false, ..paper },
        Some(Mutant::PasMidPhaseRequest) => PasRules { wait_for_barrier: false, ..paper },
        Some(Mutant::PasNoShuffle) => PasRules { shuffle: Shuffle::Skip, ..paper },
        Some(Mutant::PasXorShuffle) => PasRules { shuffle: Shuffle::Xor, ..paper },
        Some(Mutant::PermNoLocalShuffle) => PasRules { local_shuffle: false, ..paper },
        Some(Mutant::PermGeneratorsSubgroup) => PasRules { uniform_generators: false, ..paper },
        Some(Mutant::NoPhaseWait) => PasRules { wait: Wait::Skip, ..paper },
        Some(Mutant::WaitWrongDimension) => PasRules { wait: Wait::NextDimension, ..paper },
        Some(Mutant::NotifyAlways) => PasRules { notify: Notify::Always, ..paper },
        Some(Mutant::NotifyNever) => PasRules { notify: Notify::Never, ..paper },
        Some(Mutant::TriggerTooSoon) => PasRules { spaced_triggers: false, ..paper },
        _ => paper,
    }
}

/// SIMD phase balancing's rules with `mutant`'s broken one, if it has one there.
pub fn simd_phase(mutant: Option<Mutant>) -> crate::protocol::simd_phase::SimdRules {
    use crate::protocol::simd_phase::SimdRules;
    match mutant {
        Some(Mutant::SimdMatchFirstBusy) => SimdRules { prefix_matching: false },
        _ => SimdRules::PAPER,
    }
}

/// Synchronous random polling's rules with `mutant`'s broken one, if it has one there.
pub fn sync_polling(mutant: Option<Mutant>) -> crate::protocol::sync_polling::SyncRules {
    use crate::protocol::sync_polling::SyncRules;
    match mutant {
        Some(Mutant::SyncServeNoneWhenMany) => SyncRules { serves_when_many: false, ..SyncRules::PAPER },
        Some(Mutant::SyncPollNeighbour) => SyncRules { random_victim: false, ..SyncRules::PAPER },
        _ => SyncRules::PAPER,
    }
}

/// How many times Δt `poll-rarely` works between polls.
const POLL_RARELY: u64 = 16;

/// 001's simulated machine as the mutant runs it: `poll-every-unit` slices
/// one unit at a time while the run (its header) declares `cfg.dt`,
/// `poll-rarely` 16·Δt;
/// `hops-ignored` runs a crossbar while the header declares `cfg.topology`;
/// `requests-unread` holds every request on the network while the header
/// declares `cfg.schedule`; `routing-additive` routes packets in l + d
/// while the header declares packet routing; `initial-split-linear` splits the root as a
/// chain while the header declares 002 §3's breadth-first split.
pub fn work_loop(mutant: Option<Mutant>, cfg: &crate::sim::SimConfig) -> crate::sim::SimConfig {
    match mutant {
        Some(Mutant::PollEveryUnit) => crate::sim::SimConfig { dt: 1, ..*cfg },
        Some(Mutant::PollRarely) => crate::sim::SimConfig { dt: cfg.dt.saturating_mul(POLL_RARELY), ..*cfg },
        Some(Mutant::HopsIgnored) => crate::sim::SimConfig { topology: crate::base::Topology::Crossbar, ..*cfg },
        Some(Mutant::RequestsUnread) => crate::sim::SimConfig { schedule: crate::sim::Schedule::HeldRequests, ..*cfg },
        Some(Mutant::RoutingAdditive) if cfg.routing == Some(crate::sim::Routing::Packet) => {
            crate::sim::SimConfig { routing: Some(crate::sim::Routing::PacketAdditive), ..*cfg }
        }
        Some(Mutant::InitialSplitLinear) if cfg.initial_split == InitialSplit::Bfs => {
            crate::sim::SimConfig { initial_split: InitialSplit::Linear, ..*cfg }
        }
        _ => *cfg,
    }
}

/// Bitonic sort's merge-split with `mutant`'s broken step, if it has one.
pub fn bitonic(mutant: Option<Mutant>) -> crate::bitonic::Rules {
    use crate::bitonic::Rules;
    match mutant {
        Some(Mutant::MergeSplitSwappedDecr) => Rules { swapped_decr: true, ..Rules::PAPER },
        Some(Mutant::AndBitHalf) => Rules { and_bit_half: true, ..Rules::PAPER },
        Some(Mutant::MergeDropsDuplicates) => Rules { drops_duplicates: true, ..Rules::PAPER },
        _ => Rules::PAPER,
    }
}

/// Why bitonic sort's `mutant` cannot act on `pes` ranks sorting `keys`
/// keys, if it cannot (003 §14.4): every merge-split runs between two
/// ranks; a decreasing one, or one whose direction comes from bit set/2,
/// needs set = 4, so P >= 4; with fewer than two keys there is nothing
/// to order and no duplicate.
pub fn bitonic_inert(mutant: Mutant, pes: u32, keys: u64) -> Option<String> {
    let least_pes = match mutant {
        Mutant::MergeSplitSwappedDecr | Mutant::AndBitHalf => 4, // the first decreasing merge-split is at set = 4
        _ => 2,
    };
    match (pes < least_pes, keys < 2) {
        (true, _) => Some(format!(
            "mutant `{mutant}` acts in a merge-split that needs --pes {least_pes} or more (003 §14.4), not {pes}"
        )),
        (_, true) => {
            Some(format!("mutant `{mutant}` needs --keys 2 or more to act (with {keys} there is nothing to order)"))
        }
        _ => None,
    }
}

/// Random polling on a network as the mutant runs it: `poll-network-neighbour`
/// asks a uniform network neighbour (000 §1.1's neighbourhood polling).
pub fn polls_neighbours(mutant: Option<Mutant>) -> bool {
    mutant == Some(Mutant::PollNetworkNeighbour)
}

/// Whether priority-queue branch-and-bound's message queues are ordered by
/// cost (004 §4.1, §6), or in arrival order (`bnb-fifo-queue`).
pub fn queues_by_cost(mutant: Option<Mutant>) -> bool {
    mutant != Some(Mutant::BnbFifoQueue)
}

/// A tail bound of 000 Lemma 1 as a function of (n, p, ε or α).
pub type Tail = fn(u64, f64, f64) -> f64;

/// 000 Lemma 1's (lower, upper) tails as `lbcheck bounds` checks them:
/// `paper`, or with the formula mutant's transcription error.
pub fn chernoff(mutant: Option<Mutant>, paper: (Tail, Tail)) -> (Tail, Tail) {
    match mutant {
        Some(Mutant::FormulaNoSquare) => (no_square, paper.1),
        Some(Mutant::FormulaSignSlip) => (paper.0, sign_slip),
        _ => paper,
    }
}

/// `formula-no-square`: eq. (2) with ε instead of ε².
fn no_square(n: u64, p: f64, e: f64) -> f64 {
    (-e * n as f64 * p / 3.0).exp()
}

/// `formula-sign-slip`: eq. (3) with α²np instead of αnp.
fn sign_slip(n: u64, p: f64, a: f64) -> f64 {
    ((1.0 - 1.0 / a - a.ln()) * a * a * n as f64 * p).exp()
}

/// A bound of 004 Lemmas 6–7 as a function of (m, p, α).
pub type Bound = fn(u64, u64, f64) -> f64;

/// 004 Lemma 6's bound as checked: `paper`, or `lemma6-no-p`'s (1/2)^{αm}.
pub fn lemma6(mutant: Option<Mutant>, paper: Bound) -> Bound {
    match mutant {
        Some(Mutant::Lemma6NoP) => |m, _, alpha| 0.5f64.powf(alpha * m as f64),
        _ => paper,
    }
}

/// 004 Lemma 7's bound as checked: `paper`, or `lemma7-no-p`'s (1/2)^{(β−1)m}.
pub fn lemma7(mutant: Option<Mutant>, paper: Bound) -> Bound {
    match mutant {
        Some(Mutant::Lemma7NoP) => |m, _, beta| 0.5f64.powf((beta - 1.0) * m as f64),
        _ => paper,
    }
}

/// Message scattering's destinations (004 §3): uniform, or a hot spot of
/// nodes 0 and 1 (`scatter-hotspot`).
pub fn scatters_to_hotspot(mutant: Option<Mutant>) -> bool {
    mutant == Some(Mutant::ScatterHotspot)
}
/// The threaded driver's mailbox with `mutant`'s broken rule, if it has one there.
pub fn mailbox(mutant: Option<Mutant>) -> crate::runtime::mailbox::Rules {
    use crate::runtime::mailbox::Rules;
    match mutant {
        Some(Mutant::SleepFlagOutsideLock) => Rules { sender_reads_flag_under_lock: false, ..Rules::PAPER },
        Some(Mutant::LostWakeup) => Rules { receiver_waits_under_lock: false, ..Rules::PAPER },
        _ => Rules::PAPER,
    }
}
