//! The one catalogue of deliberately broken variants ("mutants"): bugs of a
//! protocol, of the threaded driver, and of the statistical layer's
//! formulas. Each exists to show that a checker can fail: the test suites
//! run every mutant and expect the checker named here to report it.
//!
//! Every entry says where the bug acts (a balancer, detectors, the threaded
//! driver, the bound formulas) and which checkers catch it, so that a
//! combination where the mutant has no effect is refused and a run that
//! cannot catch it says so ([`Mutant::not_applicable`], [`Mutant::uncaught_by`]).
//! [`seams`] holds each protocol mutant as the broken rule it puts at one
//! seam of a reference; the threaded driver's mutants act in its mailbox,
//! the formula mutants in `bounds::claims`, the log mutants ([`log`]) in the
//! event stream between any driver and the checker.

pub mod log;
pub mod seams;

use crate::base::registry::{Info, Registered};
use crate::protocol::{BalancerKind, DetectorKind};
use crate::registered_names;

/// A deliberate bug, selected by name (`--mutant NAME`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mutant {
    /// Energy: the server sends half its energy but keeps all of it.
    EnergyNotSplit,
    /// Energy: the server returns its energy to PE 0 before sending the work,
    /// which then travels with none.
    EnergyEarlyReturn,
    /// Four-counter: announces after one wave with sent = received.
    FourCounterOneWave,
    /// Four-counter: announces only after nine equal waves (safe, but late).
    FourCounterLate,
    /// Random polling: a request that should be rejected is silently dropped.
    RequestDropped,
    /// Random polling: the part given away is also kept (work done twice).
    SplitDuplicates,
    /// Random polling: the part split off is sent to nobody (work lost).
    SplitLoses,
    /// Random polling: an idle PE asks only PE (i+1) mod P.
    PollNeighbour,
    /// Random polling: the server gives away a single atomic unit
    /// ([`crate::problem::Subproblem::split_small`]), so splits make no progress in h.
    SplitTiny,
    /// Random polling: a busy PE serves its queue only every 64th poll.
    PollLazy,
    /// Random polling: at a poll the first queued request is served and the rest vanish.
    ServeOneDropRest,
    /// Random polling: every idle PE asks PE 0, which queues requests even while idle.
    PollHotspot,
    /// Threaded driver: the mailbox checks "empty", drops its lock, then
    /// blocks without re-checking (a notification in between is lost).
    LostWakeup,
    /// Threaded driver: a sender reads the receiver's "sleeping" flag
    /// outside the mailbox lock and may skip a needed notification.
    SleepFlagOutsideLock,
    /// Bound formulas: 000 Lemma 1 eq. (2) with ε instead of ε².
    FormulaNoSquare,
    /// Bound formulas: 000 Lemma 1 eq. (3) with α²np instead of αnp.
    FormulaSignSlip,
    /// Event log: a PE's `idle` is logged before its last `work`.
    LogIdleEarly,
    /// Event log: the first work message's `recv` is logged before its `send`.
    LogRecvBeforeSend,
    /// Atomic machine: a node receives two messages in one step.
    TwoReceives,
    /// Atomic machine: a blocked message is put back in the queue and replaced.
    RetractBlocked,
    /// Atomic machine: the arbiter picks the latest-ready message while the run says FIFO.
    ArbiterLifoAsFifo,
    /// Random destinations: the root's first child is sent twice (its subtree expanded twice).
    ExpandTwice,
    /// Random destinations: each child goes to node 0 with probability 1/2.
    DestHotspot,
    /// Message scattering: destinations drawn from {0, 1} (a hot spot).
    ScatterHotspot,
    /// Bound formulas: 004 Lemma 6 with (1/2)^{αm} instead of (1/2)^{αm/(p−1)}.
    Lemma6NoP,
    /// Priority-queue branch-and-bound: the message queues are FIFO.
    BnbFifoQueue,
    /// Priority-queue branch-and-bound: a node prunes by an unachieved bound.
    PruneWrong,
    /// Four-counter: PE 0 pauses between waves (safe, but late).
    WavePause,
    /// Energy (tree): a PE that went idle holds its energy a while before returning it.
    EnergyTreeBusyForwardLate,
    /// 001's simulated machine: the work loop polls after every unit, not every Δt.
    PollEveryUnit,
    /// Bitonic sort: the DECR merge-split keeps the wrong half.
    MergeSplitSwappedDecr,
    /// Bitonic sort: the direction bit is set/2 instead of set.
    AndBitHalf,
    /// Bitonic sort: the merge drops duplicate keys.
    MergeDropsDuplicates,
    /// Pacheco's search: an idle PE keeps arriving requests queued until it gets work.
    NoSendAllRejects,
    /// Pacheco's search: PE 0's global round-robin target never moves.
    GrrNoIncrement,
    /// Energy: shares computed in floating point (rounded, and 0 past 2^-1074).
    EnergyFloat,
    /// Random polling with two slots: a reply overwrites a nonempty slot.
    SlotOverwrite,
    /// Branch-and-bound: PE 0 takes its root's lower bound for a solution found.
    PruneUnachieved,
    /// First-solution mode: a PE that hears of the stop does not pass it to its tree children.
    StopNotForwarded,
    /// Bound propagation: a PE takes in an improving bound from the tree but passes it on to no one.
    BoundLost,
    /// Random polling: a deactivated PE does not answer requests.
    InactiveSilent,
    /// Random polling with two slots: a request is served from the slot of largest generation.
    SplitDeepestSlot,
    /// Branch-and-bound: a node is pruned when its bound + 1 reaches the incumbent.
    PruneOffByOne,
    /// 001's simulated machine on a topology: every message takes one hop.
    HopsIgnored,
    /// Synchronous random polling: a PE with two or more requests in a round rejects them all.
    SyncServeNoneWhenMany,
    /// Poll-and-shuffle: the "permutation" sends each subproblem to a random PE; a PE receiving two keeps one.
    ShuffleDropsWork,
    /// Poll-and-shuffle: idle PEs always poll along dimension 0.
    PasSameDimension,
    /// Poll-and-shuffle: an idle PE polls the moment it runs out, mid-phase.
    PasMidPhaseRequest,
    /// Poll-and-shuffle: no permutation between cycles.
    PasNoShuffle,
    /// Poll-and-shuffle: the "permutation" is k ↦ k ⊕ r.
    PasXorShuffle,
    /// Poll-and-shuffle's exact permutation without the local shuffle.
    PermNoLocalShuffle,
    /// Random polling: queue trimming (001 §4) is configured but never applied.
    QueueLimitIgnored,
    /// Poll-and-shuffle's pseudo-random permutations from XOR translations only.
    PermGeneratorsSubgroup,
    /// Random polling on a network asks a uniform network neighbour (000 §1.1's neighbourhood polling).
    PollNetworkNeighbour,
    /// SIMD phases: every idle PE asks the first busy PE.
    SimdMatchFirstBusy,
    /// Poll-and-shuffle with local synchronisation: a PE does not wait for its partner's "phase finished".
    NoPhaseWait,
    /// Poll-and-shuffle with local synchronisation: a PE waits for its dimension-(i+1) partner's "phase i finished".
    WaitWrongDimension,
    /// Adaptive poll-and-shuffle: every idle PE notifies PE 0 (q = 1).
    NotifyAlways,
    /// Adaptive poll-and-shuffle: no idle PE ever notifies PE 0 (q = 0).
    NotifyNever,
    /// Adaptive poll-and-shuffle: a permutation may follow the last one after a single phase.
    TriggerTooSoon,
}

/// Where a mutant's bug is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// In a balancer: acts whenever that balancer runs, on every driver.
    Balancer(BalancerKind),
    /// In a detector family: acts only with these detectors, on every driver.
    Detectors(&'static [DetectorKind]),
    /// In the threaded driver (`lbcheck run`, loom), whatever the protocols.
    ThreadedDriver,
    /// In the bound formulas of `lbcheck bounds`.
    Formulas,
    /// In the event log between a driver and the checker (the logging bugs
    /// of an implementation whose protocol is right): acts in every run.
    Log,
    /// In 004's atomic machine (its buffers and arbiter): acts in runs on
    /// `--machine atomic`.
    AtomicMachine,
    /// In message scattering's destinations (004 §3, `lbcheck bounds --balancer scatter`).
    Scatter,
    /// In the work loop of 001's simulated machine (`lbcheck simulate`, `lbcheck bounds`).
    SimWorkLoop,
    /// In bitonic sort's merge-split (`lbcheck bitonic`, 003 §14.4).
    Bitonic,
    /// In the network of 001's simulated machine (`lbcheck simulate
    /// --topology`): acts in runs on a topology other than the crossbar.
    SimNetwork,
    /// In the bound propagation of branch-and-bound (S-12): acts in runs
    /// of a pruning workload (knapsack, tsp, golomb), whatever the balancer.
    BoundPropagation,
    /// In random polling's choice of victim on a network (000 §1.1): acts
    /// in random-polling runs on a topology (`lbcheck simulate --topology`,
    /// the random-polling runs of `lbcheck bounds --balancer poll-and-shuffle`).
    NetworkPolling,
}

/// A checker a mutant is shown failing under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Catcher {
    /// The invariants of one checked run (`lbcheck simulate`; `lbcheck run --check`).
    Run,
    /// A statistical claim of `lbcheck bounds`.
    Bounds,
    /// loom's exhaustive interleavings of the threaded driver (`scripts/loom.sh`).
    Loom,
    /// The properties of a parallel bitonic sort (`lbcheck bitonic`).
    Bitonic,
    /// The exhaustive explorer of tiny instances (`lbcheck explore`).
    Explore,
    /// A batch of runs against the reference's (`lbcheck compare`): for a
    /// mutant that is correct but wasteful, which every property passes.
    Compare,
}

impl Catcher {
    /// The command that shows it.
    pub fn name(self) -> &'static str {
        match self {
            Catcher::Run => "simulate",
            Catcher::Bounds => "bounds",
            Catcher::Loom => "loom",
            Catcher::Explore => "explore",
            Catcher::Bitonic => "bitonic",
            Catcher::Compare => "compare",
        }
    }
}

/// One catalogue entry.
pub struct Entry {
    /// The mutant.
    pub mutant: Mutant,
    /// Name, the paper rule it breaks, what is broken.
    pub info: Info,
    /// Where the bug is.
    pub site: Site,
    /// The checkers shown reporting it, each with what it reports: a
    /// property, a claim, or loom's "deadlock".
    pub caught_by: &'static [(Catcher, &'static str)],
}

impl Entry {
    /// What `c` reports for this mutant, if `c` is shown catching it.
    pub fn fails_under(&self, c: Catcher) -> Option<&'static str> {
        self.caught_by.iter().find(|(k, _)| *k == c).map(|(_, f)| *f)
    }

    /// True if `c` is shown catching this mutant.
    pub fn caught_by(&self, c: Catcher) -> bool {
        self.fails_under(c).is_some()
    }
}

const RP: Site = Site::Balancer(BalancerKind::RandomPolling);
const PACHECO: Site = Site::Balancer(BalancerKind::Pacheco);
const PAS: Site = Site::Balancer(BalancerKind::PollAndShuffle);
const ENERGIES: Site = Site::Detectors(&[DetectorKind::Energy, DetectorKind::EnergyTree]);
const fn entry(mutant: Mutant, info: Info, site: Site, caught_by: &'static [(Catcher, &'static str)]) -> Entry {
    Entry { mutant, info, site, caught_by }
}

/// Every mutant.
pub const CATALOGUE: &[Entry] = &[
    entry(
        Mutant::EnergyNotSplit,
        Info::ships(
            "energy-not-split",
            "003 §14.7.4 rule 4",
            "the server sends half its energy with the work but keeps all of it",
        ),
        ENERGIES,
        &[(Catcher::Run, "energy_conserved"), (Catcher::Explore, "energy_conserved")],
    ),
    entry(
        Mutant::EnergyEarlyReturn,
        Info::ships(
            "energy-early-return",
            "003 §14.7.4",
            "the server returns its energy to PE 0 before the work message is sent; the work travels with none",
        ),
        ENERGIES,
        &[(Catcher::Run, "no_early_termination"), (Catcher::Loom, "no_early_termination"), (Catcher::Explore, "no_early_termination")],
    ),
    entry(
        Mutant::FourCounterOneWave,
        Info::ships("four-counter-one-wave", "001 §2", "PE 0 announces after a single wave with sent = received"),
        Site::Detectors(&[DetectorKind::FourCounter]),
        &[(Catcher::Run, "detector_conformance"), (Catcher::Loom, "no_early_termination"), (Catcher::Explore, "detector_conformance")],
    ),
    entry(
        Mutant::FourCounterLate,
        Info::ships(
            "four-counter-late",
            "001 §2, Lemma 6",
            "PE 0 announces only after nine consecutive equal waves instead of two: safe, but late",
        ),
        Site::Detectors(&[DetectorKind::FourCounter]),
        &[(Catcher::Run, "detector_conformance"), (Catcher::Explore, "detector_conformance")],
    ),
    entry(
        Mutant::RequestDropped,
        Info::ships(
            "request-dropped",
            "001 Fig. 1",
            "a request that should be rejected (idle PE, or queue over the limit) is silently dropped",
        ),
        RP,
        &[(Catcher::Run, "requests_answered"), (Catcher::Loom, "requests_answered"), (Catcher::Explore, "requests_answered")],
    ),
    entry(
        Mutant::SplitDuplicates,
        Info::ships(
            "split-duplicates",
            "002 eq. (1)",
            "the server sends a part of its subproblem but keeps the whole (work done twice)",
        ),
        RP,
        &[(Catcher::Run, "work_conserved"), (Catcher::Explore, "work_conserved")],
    ),
    entry(
        Mutant::SplitLoses,
        Info::ships(
            "split-loses",
            "002 eq. (1)",
            "the server splits off a part and sends it to nobody (work lost), rejecting the request",
        ),
        RP,
        &[(Catcher::Run, "work_conserved"), (Catcher::Explore, "work_conserved")],
    ),
    entry(
        Mutant::PollNeighbour,
        Info::ships(
            "poll-neighbour",
            "001 Fig. 1",
            "an idle PE asks only PE (i+1) mod P (not 000 §1.1's network neighbours): busy clusters hide work",
        ),
        RP,
        &[(Catcher::Bounds, "t_par")],
    ),
    entry(
        Mutant::SplitTiny,
        Info::ships(
            "split-tiny",
            "001 §1.2",
            "the server gives away a single atomic unit, so splitting makes no progress in h",
        ),
        RP,
        &[(Catcher::Bounds, "traffic")],
    ),
    entry(
        Mutant::PollLazy,
        Info::ships(
            "poll-lazy",
            "001 Fig. 1, Lemma 1.2",
            "a busy PE serves requests only every 64th poll: Δt far larger than configured",
        ),
        RP,
        &[(Catcher::Run, "service_latency"), (Catcher::Bounds, "t_par"), (Catcher::Explore, "service_latency")],
    ),
    entry(
        Mutant::ServeOneDropRest,
        Info::ships(
            "serve-one-drop-rest",
            "001 Fig. 1",
            "at a poll only the first queued request is answered; the rest vanish",
        ),
        RP,
        &[(Catcher::Run, "requests_answered"), (Catcher::Bounds, "t_par"), (Catcher::Explore, "requests_answered")],
    ),
    entry(
        Mutant::PollHotspot,
        Info::ships(
            "poll-hotspot",
            "001 Lemma 1.3",
            "every idle PE asks PE 0 (PE 0 asks PE 1), which queues them even while idle",
        ),
        RP,
        &[(Catcher::Run, "requests_answered"), (Catcher::Bounds, "queue"), (Catcher::Explore, "requests_answered")],
    ),
    entry(
        Mutant::LostWakeup,
        Info::ships(
            "lost-wakeup",
            "threaded driver",
            "the idle PE checks its mailbox is empty, drops the lock, then waits: a notification in between is lost",
        ),
        Site::ThreadedDriver,
        &[(Catcher::Loom, "deadlock")],
    ),
    entry(
        Mutant::SleepFlagOutsideLock,
        Info::ships(
            "sleep-flag-outside-lock",
            "threaded driver",
            "a sender reads the receiver's `sleeping` flag outside the mailbox lock and skips a needed notification",
        ),
        Site::ThreadedDriver,
        &[(Catcher::Loom, "deadlock")],
    ),
    entry(
        Mutant::FormulaNoSquare,
        Info::ships("formula-no-square", "000 Lemma 1 eq. (2)", "the Chernoff lower tail with ε instead of ε²"),
        Site::Formulas,
        &[(Catcher::Bounds, "formula")],
    ),
    entry(
        Mutant::FormulaSignSlip,
        Info::ships("formula-sign-slip", "000 Lemma 1 eq. (3)", "the Chernoff upper tail with α²np instead of αnp"),
        Site::Formulas,
        &[(Catcher::Bounds, "formula")],
    ),
    entry(
        Mutant::LogIdleEarly,
        Info::ships(
            "log-idle-early",
            "trace format",
            "the log shows a PE's `idle` before its last `work`: it went idle, then worked on",
        ),
        Site::Log,
        &[(Catcher::Run, "trace_well_formed"), (Catcher::Explore, "trace_well_formed")],
    ),
    entry(
        Mutant::LogRecvBeforeSend,
        Info::ships(
            "log-recv-before-send",
            "trace format",
            "the first work message's `recv` is logged before its `send` (the other properties follow from it)",
        ),
        Site::Log,
        &[(Catcher::Run, "trace_well_formed"), (Catcher::Explore, "trace_well_formed")],
    ),
    entry(
        Mutant::TwoReceives,
        Info::ships("two-receives", "004 §2", "a node takes two messages from the network in one step"),
        Site::AtomicMachine,
        &[(Catcher::Run, "atomic_conformance"), (Catcher::Explore, "atomic_conformance")],
    ),
    entry(
        Mutant::RetractBlocked,
        Info::ships(
            "retract-blocked",
            "004 §2 (004-2)",
            "a blocked message is taken back into the queue and another put into the send buffer",
        ),
        Site::AtomicMachine,
        &[(Catcher::Run, "atomic_conformance"), (Catcher::Explore, "atomic_conformance")],
    ),
    entry(
        Mutant::ArbiterLifoAsFifo,
        Info::ships(
            "arbiter-lifo-as-fifo",
            "004 §2 (004-4)",
            "the arbiter lets the latest-ready message win while the run declares FIFO",
        ),
        Site::AtomicMachine,
        &[(Catcher::Run, "atomic_conformance"), (Catcher::Explore, "atomic_conformance")],
    ),
    entry(
        Mutant::ExpandTwice,
        Info::ships("expand-twice", "004 §4.1", "the root's first child is sent twice: its subtree is searched twice"),
        Site::Balancer(BalancerKind::RandomDestination),
        &[(Catcher::Run, "work_conserved"), (Catcher::Explore, "work_conserved")],
    ),
    entry(
        Mutant::DestHotspot,
        Info::ships(
            "dest-hotspot",
            "004 §4.1, Thm 1",
            "each child goes to node 0 with probability 1/2: node 0 receives half the tree, one vertex per step",
        ),
        Site::Balancer(BalancerKind::RandomDestination),
        &[(Catcher::Bounds, "thm1")],
    ),
    entry(
        Mutant::ScatterHotspot,
        Info::ships(
            "scatter-hotspot",
            "004 §3, Thm 3",
            "scattered messages go to node 0 or 1 only: T/m grows like p/2",
        ),
        Site::Scatter,
        &[(Catcher::Bounds, "thm3")],
    ),
    entry(
        Mutant::Lemma6NoP,
        Info::ships("lemma6-no-p", "004 Lemma 6", "the tail bound (1/2)^{αm} without the /(p−1) of the exponent"),
        Site::Formulas,
        &[(Catcher::Bounds, "lemma6")],
    ),
    entry(
        Mutant::BnbFifoQueue,
        Info::ships(
            "bnb-fifo-queue",
            "004 §4.1, §6, Thm 2",
            "message queues in arrival order, not by cost: non-critical vertices delay critical ones",
        ),
        Site::Balancer(BalancerKind::PriorityBnb),
        &[(Catcher::Run, "atomic_conformance"), (Catcher::Bounds, "thm2"), (Catcher::Explore, "atomic_conformance")],
    ),
    entry(
        Mutant::PruneWrong,
        Info::ships(
            "prune-wrong",
            "004 §6",
            "a node discards the subtree of every vertex costing more than the first it expanded (a bound no goal achieved)",
        ),
        Site::Balancer(BalancerKind::PriorityBnb),
        &[(Catcher::Run, "optimum_found"), (Catcher::Explore, "critical_expanded")],
    ),
    entry(
        Mutant::WavePause,
        Info::ships(
            "wave-pause",
            "001 §2, Lemma 6; S-20",
            "PE 0 waits 10,000 time units between waves: safe, but far later than 6·D·L",
        ),
        Site::Detectors(&[DetectorKind::FourCounter]),
        &[(Catcher::Run, "detection_delay_bound"), (Catcher::Explore, "termination_detected")],
    ),
    entry(
        Mutant::EnergyTreeBusyForwardLate,
        Info::ships(
            "energy-tree-busy-forward-late",
            "003 §14.7.4; S-20",
            "a PE that goes idle holds its energy 10,000 time units before returning it up the tree: safe, but later than D·L",
        ),
        Site::Detectors(&[DetectorKind::EnergyTree]),
        &[(Catcher::Run, "detection_delay_bound"), (Catcher::Explore, "termination_detected")],
    ),
    entry(
        Mutant::PollEveryUnit,
        Info::ships(
            "poll-every-unit",
            "001 §3, Thm 1",
            "the work loop polls after every unit while the run declares Δt: polling costs T_poll per unit, not ε = T_poll/Δt",
        ),
        Site::SimWorkLoop,
        &[(Catcher::Bounds, "thm1_eps")],
    ),
    entry(
        Mutant::MergeSplitSwappedDecr,
        Info::ships("merge-split-swapped-decr", "003 §14.4", "the DECR merge-split keeps the low half where it should keep the high one"),
        Site::Bitonic,
        &[(Catcher::Bitonic, "sorted")],
    ),
    entry(
        Mutant::AndBitHalf,
        Info::ships("and-bit-half", "003 §14.4", "the direction of a merge-split is read from bit set/2 instead of set"),
        Site::Bitonic,
        &[(Catcher::Bitonic, "sorted")],
    ),
    entry(
        Mutant::MergeDropsDuplicates,
        Info::ships("merge-drops-duplicates", "003 §14.4", "Merge_split's merge keeps one key of each run of equal keys"),
        Site::Bitonic,
        &[(Catcher::Bitonic, "multiset_kept")],
    ),
    entry(
        Mutant::NoSendAllRejects,
        Info::ships(
            "no-send-all-rejects",
            "003 §14.7.3",
            "Work_remains without Send_all_rejects: an idle PE keeps requests queued until it gets work (busy deadlock)",
        ),
        PACHECO,
        &[(Catcher::Run, "requests_answered"), (Catcher::Loom, "requests_answered"), (Catcher::Explore, "requests_answered")],
    ),
    entry(
        Mutant::GrrNoIncrement,
        Info::ships(
            "grr-no-increment",
            "003 §14.7.3",
            "global round robin: PE 0 never increments its target, so every idle PE asks the same PE (a hot spot)",
        ),
        PACHECO,
        &[(Catcher::Run, "round_robin"), (Catcher::Bounds, "v_p"), (Catcher::Explore, "round_robin")],
    ),
    entry(
        Mutant::EnergyFloat,
        Info::ships(
            "energy-float",
            "003 §14.7.4",
            "energy shares in f64, which 003 §14.7.4 warns against: 1/3 is rounded and halves vanish past 2^-1074",
        ),
        ENERGIES,
        &[(Catcher::Run, "energy_conserved")],
    ),
    entry(
        Mutant::SlotOverwrite,
        Info::ships(
            "slot-overwrite",
            "002 §3",
            "two slots per PE: a work reply goes into the first slot even when it holds work, which is lost",
        ),
        RP,
        &[(Catcher::Run, "work_conserved"), (Catcher::Explore, "work_conserved")],
    ),
    entry(
        Mutant::PruneUnachieved,
        Info::ships(
            "prune-unachieved",
            "002 §4.5, S-12",
            "PE 0 starts with its root's lower bound (the relaxation) as its incumbent: a value no PE achieved prunes optimal branches",
        ),
        Site::BoundPropagation,
        &[(Catcher::Run, "prune_sound"), (Catcher::Explore, "prune_sound")],
    ),
    entry(
        Mutant::StopNotForwarded,
        Info::ships(
            "stop-not-forwarded",
            "002 §4.5, S-12",
            "first-solution mode: a PE that hears of the stop passes it up the tree but not to its children, who search on",
        ),
        Site::BoundPropagation,
        &[(Catcher::Run, "stop_delay")],
    ),
    entry(
        Mutant::BoundLost,
        Info::ships(
            "bound-lost",
            "002 §4.5, S-12",
            "reduce-tree: a PE takes in a better bound from the tree but passes it on to no one; more nodes are examined, the optimum is still found",
        ),
        Site::BoundPropagation,
        &[(Catcher::Compare, "efficiency")],
    ),
    entry(
        Mutant::InactiveSilent,
        Info::ships(
            "inactive-silent",
            "002 §3",
            "a deactivated worker (--deactivate) leaves requests unanswered instead of sending its entire subproblem or a reject",
        ),
        RP,
        &[(Catcher::Run, "requests_answered")],
    ),
    entry(
        Mutant::SplitDeepestSlot,
        Info::ships(
            "split-deepest-slot",
            "002 §3",
            "two slots per PE: a request is served from the slot of largest generation (the smallest part), not the smallest",
        ),
        RP,
        &[(Catcher::Compare, "messages_per_pe")],
    ),
    entry(
        Mutant::PruneOffByOne,
        Info::ships(
            "prune-off-by-one",
            "002 §4.5, S-12",
            "a node is pruned when its bound + 1 reaches the incumbent: nodes whose bound beats the optimum by one are cut, though the incumbent is a real solution",
        ),
        Site::BoundPropagation,
        &[(Catcher::Run, "critical_expanded")],
    ),
    entry(
        Mutant::HopsIgnored,
        Info::ships(
            "hops-ignored",
            "000 §2.1; S-1",
            "the simulator delivers every message in one hop while the run declares a topology: long-distance polls cost what a crossbar's do",
        ),
        Site::SimNetwork,
        &[(Catcher::Run, "hop_latency")],
    ),
    entry(
        Mutant::SyncServeNoneWhenMany,
        Info::ships(
            "sync-serve-none-when-many",
            "001 §1.3; S-13",
            "synchronous random polling: a PE that received two or more requests in a round rejects them all: correct, but work spreads slowly",
        ),
        Site::Balancer(BalancerKind::SyncRandomPolling),
        &[(Catcher::Compare, "efficiency")],
    ),
    entry(
        Mutant::QueueLimitIgnored,
        Info::ships(
            "queue-limit-ignored",
            "001 §4, Thm 2; S-18",
            "random polling with --queue-limit: a request finding the limit queued is queued anyway, so slow PEs' queues grow past ⌈√P⌉",
        ),
        RP,
        &[(Catcher::Bounds, "queue_trim")],
    ),
    entry(
        Mutant::ShuffleDropsWork,
        Info::ships(
            "shuffle-drops-work",
            "000 §3.2",
            "the shuffle sends each subproblem to a uniformly random PE (no prefix sums); a PE that receives two keeps one",
        ),
        PAS,
        &[(Catcher::Run, "work_conserved")],
    ),
    entry(
        Mutant::PasSameDimension,
        Info::ships(
            "pas-same-dimension",
            "000 §3.1, Lemma 2",
            "idle PEs always poll along dimension 0: pairs trade work, the cube does not",
        ),
        PAS,
        &[(Catcher::Run, "phase_discipline")],
    ),
    entry(
        Mutant::PasMidPhaseRequest,
        Info::ships(
            "pas-mid-phase-request",
            "000 §3.1",
            "an idle PE polls the moment it runs out, mid-phase, not after the barrier",
        ),
        PAS,
        &[(Catcher::Run, "phase_discipline")],
    ),
    entry(
        Mutant::PasNoShuffle,
        Info::ships(
            "pas-no-shuffle",
            "000 §3.1, eq. (4)",
            "no permutation between cycles: a subproblem meets the same partners every cycle",
        ),
        PAS,
        &[(Catcher::Bounds, "eq4_partners")],
    ),
    entry(
        Mutant::PasXorShuffle,
        Info::ships(
            "pas-xor-shuffle",
            "000 §3.1, eq. (4); S-2",
            "the permutation is k ↦ k ⊕ r for a random r: random, but it commutes with the pairings, so S meets the same partners",
        ),
        PAS,
        &[(Catcher::Bounds, "eq4_partners")],
    ),
    entry(
        Mutant::PermNoLocalShuffle,
        Info::ships(
            "perm-no-local-shuffle",
            "000 §3.2; S-6",
            "the exact permutation skips the local shuffle: the items a PE receives keep their source order",
        ),
        PAS,
        &[(Catcher::Bounds, "perm_uniform")],
    ),
    entry(
        Mutant::PermGeneratorsSubgroup,
        Info::ships(
            "perm-generators-subgroup",
            "000 §3.2; S-6",
            "the pseudo-random method's generators are XOR translations: their compositions reach n of the n! permutations",
        ),
        PAS,
        &[(Catcher::Bounds, "perm_generators")],
    ),
    entry(
        Mutant::PollNetworkNeighbour,
        Info::ships(
            "poll-network-neighbour",
            "000 §1.1; S-24",
            "random polling on a network asks a uniform network neighbour: busy clusters form and the excess grows with n on a mesh",
        ),
        Site::NetworkPolling,
        &[(Catcher::Bounds, "rp_t_par")],
    ),
    entry(
        Mutant::SimdMatchFirstBusy,
        Info::ships(
            "simd-match-first-busy",
            "000 §1.1",
            "SIMD phases without the prefix-sum enumeration: every idle PE asks the first busy PE, which splits again and again",
        ),
        Site::Balancer(BalancerKind::SimdPhase),
        &[(Catcher::Run, "simd_matching")],
    ),
    entry(
        Mutant::NoPhaseWait,
        Info::ships(
            "no-phase-wait",
            "000 §6.3, Fig. 4; S-5",
            "local synchronisation: a PE goes on after sending \"phase i finished\" without waiting for its partner's, so a late request is answered in a later phase",
        ),
        PAS,
        &[(Catcher::Run, "same_phase_exchange")],
    ),
    entry(
        Mutant::WaitWrongDimension,
        Info::ships(
            "wait-wrong-dimension",
            "000 §6.3, Fig. 4; S-5",
            "local synchronisation: after phase i a PE waits for its dimension-(i+1) partner's \"phase i finished\", which goes elsewhere: every PE waits for ever",
        ),
        PAS,
        &[(Catcher::Run, "termination_detected")],
    ),
    entry(
        Mutant::NotifyAlways,
        Info::ships(
            "notify-always",
            "000 §5, Lemma 4; S-7",
            "adaptive trigger: every idle PE notifies PE 0 at every phase (q = 1, not c/n): PE 0 is a hot spot",
        ),
        PAS,
        &[(Catcher::Bounds, "notify_tail")],
    ),
    entry(
        Mutant::NotifyNever,
        Info::ships(
            "notify-never",
            "000 §5, Lemma 5; S-7",
            "adaptive trigger: no idle PE notifies PE 0 (q = 0): PE 0 estimates no idleness and never permutes",
        ),
        PAS,
        &[(Catcher::Bounds, "idle_estimate")],
    ),
    entry(
        Mutant::TriggerTooSoon,
        Info::ships(
            "trigger-too-soon",
            "000 §5, Thm 5; S-7",
            "adaptive trigger: PE 0 permutes whenever its estimate is high, without waiting log2 n phases since the last permutation",
        ),
        PAS,
        &[(Catcher::Bounds, "shuffles_le_cycles")],
    ),
];

impl Mutant {
    /// The mutant's catalogue entry.
    pub fn entry(self) -> &'static Entry {
        CATALOGUE.iter().find(|e| e.mutant == self).expect("every mutant is catalogued")
    }

    /// Why this mutant has no effect in a run of `balancer` + `detector`
    /// (on the threaded driver if `threaded`); `None` if it acts.
    pub fn not_applicable(self, balancer: BalancerKind, detector: DetectorKind, threaded: bool) -> Option<String> {
        let name = self.name();
        match self.entry().site {
            Site::Balancer(b) if b != balancer => Some(format!("mutant `{name}` acts only in the {b} balancer")),
            Site::NetworkPolling if balancer != BalancerKind::RandomPolling => {
                Some(format!("mutant `{name}` acts only in random polling on a topology (`--topology mesh:2`)"))
            }
            Site::Detectors(ds) if !ds.contains(&detector) => {
                let names: Vec<_> = ds.iter().map(|d| d.name()).collect();
                Some(format!("mutant `{name}` acts only with --termination {}", names.join(" or ")))
            }
            _ if threaded && self == Mutant::InactiveSilent => {
                Some(format!("mutant `{name}` acts in a deactivated worker, whose window is in model time: use `lbcheck simulate`"))
            }
            _ if threaded && self.pauses() => {
                Some(format!("mutant `{name}` pauses in model time, which real threads do not have: use `lbcheck simulate`"))
            }
            Site::ThreadedDriver if !threaded => {
                Some(format!("mutant `{name}` is a bug of the threaded driver: use `lbcheck run` (loom catches it)"))
            }
            Site::Formulas => Some(format!("mutant `{name}` breaks the bound formulas: use `lbcheck bounds`")),
            Site::Scatter => Some(format!("mutant `{name}` acts in message scattering: use `lbcheck bounds --balancer scatter`")),
            Site::Bitonic => Some(format!("mutant `{name}` acts in bitonic sort: use `lbcheck bitonic`")),
            Site::SimWorkLoop | Site::SimNetwork if threaded || balancer.atomic() => {
                Some(format!("mutant `{name}` acts in the work loop of 001's simulated machine: use `lbcheck simulate` or `lbcheck bounds`"))
            }
            Site::AtomicMachine if !balancer.atomic() => Some(format!(
                "mutant `{name}` is a bug of 004's atomic machine: use `lbcheck simulate --machine atomic --balancer random-destination`"
            )),
            _ => None,
        }
    }

    /// True for the mutants of poll-and-shuffle's adaptive trigger (000 §5),
    /// which act only with `--trigger adaptive`.
    pub fn adaptive_trigger(self) -> bool {
        matches!(self, Mutant::NotifyAlways | Mutant::NotifyNever | Mutant::TriggerTooSoon)
    }

    /// True for the mutants that pause in model time ([`seams::PAUSE`]).
    pub fn pauses(self) -> bool {
        matches!(self, Mutant::WavePause | Mutant::EnergyTreeBusyForwardLate)
    }

    /// If `catcher` is not among the checkers shown catching this mutant,
    /// the note to print: which ones do.
    pub fn uncaught_by(self, catcher: Catcher) -> Option<String> {
        let e = self.entry();
        if e.caught_by(catcher) {
            return None;
        }
        Some(format!(
            "note: mutant `{}` is caught by {}, not by this command: this run may well pass",
            e.info.name,
            self.fails()
        ))
    }

    /// The checkers that catch it, joined by `+` ("simulate+loom").
    pub fn checkers(self) -> String {
        let names: Vec<_> = self.entry().caught_by.iter().map(|(c, _)| c.name()).collect();
        names.join("+")
    }

    /// What each checker reports: "simulate (`requests_answered`), bounds (`t_par`)".
    pub fn fails(self) -> String {
        let each: Vec<_> = self.entry().caught_by.iter().map(|(c, f)| format!("{} (`{f}`)", c.name())).collect();
        each.join(", ")
    }
}

impl Registered for Mutant {
    const KIND: &'static str = "mutant";
    const ALL: &'static [Self] = &[
        Mutant::EnergyNotSplit,
        Mutant::EnergyEarlyReturn,
        Mutant::FourCounterOneWave,
        Mutant::FourCounterLate,
        Mutant::RequestDropped,
        Mutant::SplitDuplicates,
        Mutant::SplitLoses,
        Mutant::PollNeighbour,
        Mutant::SplitTiny,
        Mutant::PollLazy,
        Mutant::ServeOneDropRest,
        Mutant::PollHotspot,
        Mutant::LostWakeup,
        Mutant::SleepFlagOutsideLock,
        Mutant::FormulaNoSquare,
        Mutant::FormulaSignSlip,
        Mutant::LogIdleEarly,
        Mutant::LogRecvBeforeSend,
        Mutant::TwoReceives,
        Mutant::RetractBlocked,
        Mutant::ArbiterLifoAsFifo,
        Mutant::ExpandTwice,
        Mutant::DestHotspot,
        Mutant::ScatterHotspot,
        Mutant::Lemma6NoP,
        Mutant::BnbFifoQueue,
        Mutant::PruneWrong,
        Mutant::WavePause,
        Mutant::EnergyTreeBusyForwardLate,
        Mutant::PollEveryUnit,
        Mutant::MergeSplitSwappedDecr,
        Mutant::AndBitHalf,
        Mutant::MergeDropsDuplicates,
        Mutant::NoSendAllRejects,
        Mutant::GrrNoIncrement,
        Mutant::EnergyFloat,
        Mutant::SlotOverwrite,
        Mutant::PruneUnachieved,
        Mutant::StopNotForwarded,
        Mutant::BoundLost,
        Mutant::InactiveSilent,
        Mutant::SplitDeepestSlot,
        Mutant::PruneOffByOne,
        Mutant::HopsIgnored,
        Mutant::SyncServeNoneWhenMany,
        Mutant::QueueLimitIgnored,
        Mutant::ShuffleDropsWork,
        Mutant::PasSameDimension,
        Mutant::PasMidPhaseRequest,
        Mutant::PasNoShuffle,
        Mutant::PasXorShuffle,
        Mutant::PermNoLocalShuffle,
        Mutant::PermGeneratorsSubgroup,
        Mutant::PollNetworkNeighbour,
        Mutant::SimdMatchFirstBusy,
        Mutant::NoPhaseWait,
        Mutant::WaitWrongDimension,
        Mutant::NotifyAlways,
        Mutant::NotifyNever,
        Mutant::TriggerTooSoon,
    ];

    fn info(self) -> &'static Info {
        &self.entry().info
    }
}

registered_names!(Mutant);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_lists_every_variant_once_in_order() {
        let listed: Vec<Mutant> = CATALOGUE.iter().map(|e| e.mutant).collect();
        assert_eq!(listed, Mutant::ALL);
        for m in Mutant::ALL {
            assert_eq!(m.to_string().parse::<Mutant>(), Ok(*m));
            assert!(!m.entry().caught_by.is_empty(), "{m}");
            assert_eq!(m.checkers().split('+').count(), m.entry().caught_by.len(), "{m}");
        }
    }

    #[test]
    fn inapplicable_combinations_say_why() {
        let (rp, fc, en) = (BalancerKind::RandomPolling, DetectorKind::FourCounter, DetectorKind::Energy);
        let why = Mutant::EnergyNotSplit.not_applicable(rp, fc, false).unwrap();
        assert!(why.contains("--termination energy or energy-tree"), "{why}");
        assert!(Mutant::EnergyNotSplit.not_applicable(rp, DetectorKind::EnergyTree, false).is_none());
        assert!(Mutant::LostWakeup.not_applicable(rp, en, false).unwrap().contains("lbcheck run"));
        assert!(Mutant::LostWakeup.not_applicable(rp, en, true).is_none());
        assert!(Mutant::SplitLoses.not_applicable(rp, fc, true).is_none());
        assert!(Mutant::FormulaNoSquare.not_applicable(rp, en, false).is_some());
        assert!(Mutant::LostWakeup.uncaught_by(Catcher::Run).unwrap().contains("caught by loom"));
        assert!(Mutant::SplitLoses.uncaught_by(Catcher::Run).is_none());
    }
}
