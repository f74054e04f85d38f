//! The catalogue: every mutant, once, with its declaration ([`Entry`]):
//! name, the paper rule it breaks, where it acts, what it needs from a run,
//! the runs it is shown on and the checkers that catch it. Nothing outside
//! `src/mutants/` names a mutant: the harness, the campaign and `lbcheck
//! mutants` read these declarations.

use super::{Catcher, Demo, Entry, Need, Site};
use crate::base::registry::Info;
use crate::protocol::{BalancerKind, DetectorKind};

use Catcher::{Bitonic, Bounds, Compare, Explore, Loom, Run};

const RP: Site = Site::Balancer(BalancerKind::RandomPolling);
const PACHECO: Site = Site::Balancer(BalancerKind::Pacheco);
const PAS: Site = Site::Balancer(BalancerKind::PollAndShuffle);
const ENERGIES: Site = Site::Detectors(&[DetectorKind::Energy, DetectorKind::EnergyTree]);

/// Poll-and-shuffle's mutants are shown where enough work is left at the shuffles.
const PAS_DEMO: Demo = Demo { workload: "synthetic:size=100000,split=uniform", ..Demo::DEFAULT };

/// A tree large enough that busy PEs work long after the first requests.
const LARGE_DEMO: Demo = Demo { workload: "synthetic:size=100000,split=uniform", ..Demo::DEFAULT };

const fn entry(info: Info, site: Site, caught_by: &'static [(Catcher, &'static str)]) -> Entry {
    Entry::new(info, site, caught_by)
}

super::declare_catalogue! {
    /// Energy: the server sends half its energy but keeps all of it.
    EnergyNotSplit => entry(
        Info::ships(
            "energy-not-split",
            "003 §14.7.4 rule 4",
            "the server sends half its energy with the work but keeps all of it",
        ),
        ENERGIES,
        &[(Run, "energy_conserved"), (Explore, "energy_conserved")],
    );
    /// Energy: the server returns its energy to PE 0 before sending the work,
    /// which then travels with none.
    EnergyEarlyReturn => entry(
        Info::ships(
            "energy-early-return",
            "003 §14.7.4",
            "the server returns its energy to PE 0 before the work message is sent; the work travels with none",
        ),
        ENERGIES,
        &[(Run, "no_early_termination"), (Loom, "no_early_termination"), (Explore, "no_early_termination")],
    );
    /// Four-counter: announces after one wave with sent = received.
    FourCounterOneWave => entry(
        Info::ships("four-counter-one-wave", "001 §2", "PE 0 announces after a single wave with sent = received"),
        Site::Detectors(&[DetectorKind::FourCounter]),
        &[(Run, "detector_conformance"), (Loom, "no_early_termination"), (Explore, "detector_conformance")],
    )
    // The one-wave bug needs an unlucky interleaving: two seeds of 200 have it.
    .demo(Demo {
        workload: "synthetic:size=3000,atomic=1,split=uniform",
        pes: 4,
        t_split: 40,
        seeds: &[17, 90],
        ..Demo::DEFAULT
    });
    /// Four-counter: announces only after nine equal waves (safe, but late).
    FourCounterLate => entry(
        Info::ships(
            "four-counter-late",
            "001 §2, Lemma 6",
            "PE 0 announces only after nine consecutive equal waves instead of two: safe, but late",
        ),
        Site::Detectors(&[DetectorKind::FourCounter]),
        &[(Run, "detector_conformance"), (Explore, "detector_conformance")],
    );
    /// Random polling: a request that should be rejected is silently dropped.
    RequestDropped => entry(
        Info::ships(
            "request-dropped",
            "001 Fig. 1",
            "a request that should be rejected (idle PE, or queue over the limit) is silently dropped",
        ),
        RP,
        &[(Run, "requests_answered"), (Loom, "requests_answered"), (Explore, "requests_answered")],
    );
    /// Random polling: the part given away is also kept (work done twice).
    SplitDuplicates => entry(
        Info::ships(
            "split-duplicates",
            "002 eq. (1)",
            "the server sends a part of its subproblem but keeps the whole (work done twice)",
        ),
        RP,
        &[(Run, "work_conserved"), (Explore, "work_conserved")],
    );
    /// Random polling: the part split off is sent to nobody (work lost).
    SplitLoses => entry(
        Info::ships(
            "split-loses",
            "002 eq. (1)",
            "the server splits off a part and sends it to nobody (work lost), rejecting the request",
        ),
        RP,
        &[(Run, "work_conserved"), (Explore, "work_conserved")],
    );
    /// Random polling: an idle PE asks only PE (i+1) mod P.
    PollNeighbour => entry(
        Info::ships(
            "poll-neighbour",
            "001 Fig. 1",
            "an idle PE asks only PE (i+1) mod P (not 000 §1.1's network neighbours): busy clusters hide work",
        ),
        RP,
        &[(Bounds, "t_par")],
    );
    /// Random polling: the server splits a copy first, then splits for the requester.
    SplitProbe => entry(
        Info::ships(
            "split-probe",
            "001 Lemma 1.1",
            "the server splits a copy of its subproblem to look at the part, then splits for the requester: two splits (2·T_split) per request",
        ),
        RP,
        &[(Bounds, "request_cost")],
    );
    /// Random polling: the server gives away a single atomic unit
    /// ([`crate::problem::Subproblem::split_small`]), so splits make no progress in h.
    SplitTiny => entry(
        Info::ships(
            "split-tiny",
            "001 §1.2",
            "the server gives away a single atomic unit, so splitting makes no progress in h",
        ),
        RP,
        &[(Bounds, "traffic")],
    );
    /// Random polling: a busy PE serves its queue only every 64th poll.
    /// It also fails `lbcheck reproduce knapsack`'s verdict (002 §5.2;
    /// `bounds::coverage::OUTSIDE_MUTANTS`, tests/sim/reproduce.rs).
    PollLazy => entry(
        Info::ships(
            "poll-lazy",
            "001 Fig. 1, Lemma 1.2",
            "a busy PE serves requests only every 64th poll: Δt far larger than configured",
        ),
        RP,
        &[(Run, "service_latency"), (Bounds, "t_par"), (Explore, "service_latency")],
    );
    /// Random polling: at a poll the first queued request is served and the rest vanish.
    ServeOneDropRest => entry(
        Info::ships(
            "serve-one-drop-rest",
            "001 Fig. 1",
            "at a poll only the first queued request is answered; the rest vanish",
        ),
        RP,
        &[(Run, "requests_answered"), (Bounds, "t_par"), (Explore, "requests_answered")],
    )
    .needs(&[Need::ServeOne]);
    /// Random polling: every idle PE asks PE 0, which queues requests even while idle.
    PollHotspot => entry(
        Info::ships(
            "poll-hotspot",
            "001 Lemma 1.3",
            "every idle PE asks PE 0 (PE 0 asks PE 1), which queues them even while idle",
        ),
        RP,
        &[(Run, "requests_answered"), (Bounds, "queue"), (Explore, "requests_answered")],
    )
    // Its single queue grows with P: 001 Lemma 1.3 breaks only at P up to 128.
    .bounds_max_pes(128);
    /// Threaded driver: the mailbox checks "empty", drops its lock, then
    /// blocks without re-checking (a notification in between is lost).
    LostWakeup => entry(
        Info::ships(
            "lost-wakeup",
            "threaded driver",
            "the idle PE checks its mailbox is empty, drops the lock, then waits: a notification in between is lost",
        ),
        Site::ThreadedDriver,
        &[(Loom, "deadlock")],
    );
    /// Threaded driver: a sender reads the receiver's "sleeping" flag
    /// outside the mailbox lock and may skip a needed notification.
    SleepFlagOutsideLock => entry(
        Info::ships(
            "sleep-flag-outside-lock",
            "threaded driver",
            "a sender reads the receiver's `sleeping` flag outside the mailbox lock and skips a needed notification",
        ),
        Site::ThreadedDriver,
        &[(Loom, "deadlock")],
    );
    /// Bound formulas: 000 Lemma 1 eq. (2) with ε instead of ε².
    FormulaNoSquare => entry(
        Info::ships("formula-no-square", "000 Lemma 1 eq. (2)", "the Chernoff lower tail with ε instead of ε²"),
        Site::Formulas,
        &[(Bounds, "formula")],
    );
    /// Bound formulas: 000 Lemma 1 eq. (3) with α²np instead of αnp.
    FormulaSignSlip => entry(
        Info::ships("formula-sign-slip", "000 Lemma 1 eq. (3)", "the Chernoff upper tail with α²np instead of αnp"),
        Site::Formulas,
        &[(Bounds, "formula")],
    );
    /// Event log: a PE's `idle` is logged before its last `work`.
    LogIdleEarly => entry(
        Info::ships(
            "log-idle-early",
            "trace format",
            "the log shows a PE's `idle` before its last `work`: it went idle, then worked on",
        ),
        Site::Log,
        &[(Run, "trace_well_formed"), (Explore, "trace_well_formed")],
    );
    /// Event log: the first work message's `recv` is logged before its `send`.
    LogRecvBeforeSend => entry(
        Info::ships(
            "log-recv-before-send",
            "trace format",
            "the first work message's `recv` is logged before its `send` (the other properties follow from it)",
        ),
        Site::Log,
        &[(Run, "trace_well_formed"), (Explore, "trace_well_formed")],
    );
    /// Atomic machine: a node receives two messages in one step.
    TwoReceives => entry(
        Info::ships("two-receives", "004 §2", "a node takes two messages from the network in one step"),
        Site::AtomicMachine,
        &[(Run, "atomic_conformance"), (Explore, "atomic_conformance")],
    );
    /// Atomic machine: a blocked message is put back in the queue and replaced.
    RetractBlocked => entry(
        Info::ships(
            "retract-blocked",
            "004 §2 (004-2)",
            "a blocked message is taken back into the queue and another put into the send buffer",
        ),
        Site::AtomicMachine,
        &[(Run, "atomic_conformance"), (Explore, "atomic_conformance")],
    );
    /// Atomic machine: the arbiter picks the latest-ready message while the run says FIFO.
    ArbiterLifoAsFifo => entry(
        Info::ships(
            "arbiter-lifo-as-fifo",
            "004 §2 (004-4)",
            "the arbiter lets the latest-ready message win while the run declares FIFO",
        ),
        Site::AtomicMachine,
        &[(Run, "atomic_conformance"), (Explore, "atomic_conformance")],
    )
    .needs(&[Need::FifoArbiter]);
    /// Random destinations: the root's first child is sent twice (its subtree expanded twice).
    ExpandTwice => entry(
        Info::ships("expand-twice", "004 §4.1", "the root's first child is sent twice: its subtree is searched twice"),
        Site::Balancer(BalancerKind::RandomDestination),
        &[(Run, "work_conserved"), (Explore, "work_conserved")],
    );
    /// Random destinations: each child goes to node 0 with probability 1/2.
    DestHotspot => entry(
        Info::ships(
            "dest-hotspot",
            "004 §4.1, Thm 1",
            "each child goes to node 0 with probability 1/2: node 0 receives half the tree, one vertex per step",
        ),
        Site::Balancer(BalancerKind::RandomDestination),
        &[(Bounds, "thm1")],
    );
    /// Message scattering: destinations drawn from {0, 1} (a hot spot).
    ScatterHotspot => entry(
        Info::ships(
            "scatter-hotspot",
            "004 §3, Thm 3",
            "scattered messages go to node 0 or 1 only: T/m grows like p/2",
        ),
        Site::Scatter,
        &[(Bounds, "thm3")],
    );
    /// Bound formulas: 004 Lemma 6 with (1/2)^{αm} instead of (1/2)^{αm/(p−1)}.
    Lemma6NoP => entry(
        Info::ships("lemma6-no-p", "004 Lemma 6", "the tail bound (1/2)^{αm} without the /(p−1) of the exponent"),
        Site::Formulas,
        &[(Bounds, "lemma6")],
    );
    /// Bound formulas: 004 Lemma 7 with (1/2)^{(β−1)m} instead of (1/2)^{(β−1)m/(p−1)}.
    Lemma7NoP => entry(
        Info::ships("lemma7-no-p", "004 Lemma 7", "the tail bound (1/2)^{(β−1)m} without the /(p−1) of the exponent"),
        Site::Formulas,
        &[(Bounds, "lemma7")],
    );
    /// Priority-queue branch-and-bound: the message queues are FIFO.
    BnbFifoQueue => entry(
        Info::ships(
            "bnb-fifo-queue",
            "004 §4.1, §6, Thm 2",
            "message queues in arrival order, not by cost: non-critical vertices delay critical ones",
        ),
        Site::Balancer(BalancerKind::PriorityBnb),
        &[(Run, "atomic_conformance"), (Bounds, "thm2"), (Explore, "atomic_conformance")],
    );
    /// Priority-queue branch-and-bound: a node prunes by an unachieved bound.
    PruneWrong => entry(
        Info::ships(
            "prune-wrong",
            "004 §6",
            "a node discards the subtree of every vertex costing more than the first it expanded (a bound no goal achieved)",
        ),
        Site::Balancer(BalancerKind::PriorityBnb),
        &[(Run, "optimum_found"), (Explore, "critical_expanded")],
    );
    /// Four-counter: PE 0 pauses between waves (safe, but late).
    WavePause => entry(
        Info::ships(
            "wave-pause",
            "001 §2, Lemma 6; S-20",
            "PE 0 waits 10,000 time units between waves: safe, but far later than 6·D·L",
        ),
        Site::Detectors(&[DetectorKind::FourCounter]),
        &[(Run, "detection_delay_bound"), (Explore, "termination_detected")],
    )
    .needs(&[Need::ModelTime]);
    /// Energy (tree): a PE that went idle holds its energy a while before returning it.
    EnergyTreeBusyForwardLate => entry(
        Info::ships(
            "energy-tree-busy-forward-late",
            "003 §14.7.4; S-20",
            "a PE that goes idle holds its energy 10,000 time units before returning it up the tree: safe, but later than D·L",
        ),
        Site::Detectors(&[DetectorKind::EnergyTree]),
        &[(Run, "detection_delay_bound"), (Explore, "termination_detected")],
    )
    .needs(&[Need::ModelTime]);
    /// Energy (direct): a PE that went idle holds its energy a while before
    /// returning it to PE 0: the tail after every subproblem reached
    /// generation h grows, and nothing else (001 Lemma 6's own mutant).
    EnergyIdleHold => entry(
        Info::ships(
            "energy-idle-hold",
            "001 Lemma 6; 003 §14.7.4",
            "a PE that goes idle holds its energy 100 time units before returning it to PE 0: safe, but the run ends late (only the tail after generation h grows)",
        ),
        Site::Detectors(&[DetectorKind::Energy]),
        &[(Run, "detection_delay_bound"), (Bounds, "remaining_time")],
    )
    .needs(&[Need::ModelTime]);
    /// 001's simulated machine: the work loop polls after every unit, not every Δt.
    PollEveryUnit => entry(
        Info::ships(
            "poll-every-unit",
            "001 §3, Thm 1",
            "the work loop polls after every unit while the run declares Δt: polling costs T_poll per unit, not ε = T_poll/Δt",
        ),
        Site::SimWorkLoop,
        &[(Bounds, "thm1_eps")],
    );
    /// 001's simulated machine: the work loop polls after 16·Δt units.
    PollRarely => entry(
        Info::ships(
            "poll-rarely",
            "001 Fig. 1",
            "the work loop polls after every 16·Δt units while the run declares Δt: requests wait sixteen times longer",
        ),
        Site::SimWorkLoop,
        &[(Run, "service_latency")],
    );
    /// Bitonic sort: the DECR merge-split keeps the wrong half.
    MergeSplitSwappedDecr => entry(
        Info::ships("merge-split-swapped-decr", "003 §14.4", "the DECR merge-split keeps the low half where it should keep the high one"),
        Site::Bitonic,
        &[(Bitonic, "sorted")],
    );
    /// Bitonic sort: the direction bit is set/2 instead of set.
    AndBitHalf => entry(
        Info::ships("and-bit-half", "003 §14.4", "the direction of a merge-split is read from bit set/2 instead of set"),
        Site::Bitonic,
        &[(Bitonic, "sorted")],
    );
    /// Bitonic sort: the merge drops duplicate keys.
    MergeDropsDuplicates => entry(
        Info::ships("merge-drops-duplicates", "003 §14.4", "Merge_split's merge keeps one key of each run of equal keys"),
        Site::Bitonic,
        &[(Bitonic, "multiset_kept")],
    );
    /// Pacheco's search: an idle PE keeps arriving requests queued until it gets work.
    NoSendAllRejects => entry(
        Info::ships(
            "no-send-all-rejects",
            "003 §14.7.3",
            "Work_remains without Send_all_rejects: an idle PE keeps requests queued until it gets work (busy deadlock)",
        ),
        PACHECO,
        &[(Run, "requests_answered"), (Loom, "requests_answered"), (Explore, "requests_answered")],
    );
    /// Pacheco's search: PE 0's global round-robin target never moves.
    GrrNoIncrement => entry(
        Info::ships(
            "grr-no-increment",
            "003 §14.7.3",
            "global round robin: PE 0 never increments its target, so every idle PE asks the same PE (a hot spot)",
        ),
        PACHECO,
        &[(Run, "round_robin"), (Bounds, "v_p"), (Explore, "round_robin")],
    )
    .needs(&[Need::GlobalRoundRobin]);
    /// Pacheco's search: PE 0 drops the `get_target`s that reach it while
    /// it works; their senders wait for a target for ever.
    GrrBusyDrops => entry(
        Info::ships(
            "grr-busy-drops",
            "003 §14.7.3",
            "global round robin: PE 0 drops a get_target that arrives while it works; its sender waits for ever",
        ),
        PACHECO,
        &[(Run, "round_robin")],
    )
    .needs(&[Need::GlobalRoundRobin])
    // PE 0 works when the first get_targets reach it only on a large tree.
    .demo(LARGE_DEMO);
    /// Pacheco's search: a service point answers the oldest request only.
    ServiceOne => entry(
        Info::ships(
            "service-one",
            "003 §14.7.2",
            "Service_requests answers only the oldest pending request at a service point; the others wait for the next",
        ),
        PACHECO,
        &[(Run, "service_latency")],
    )
    // Requests queue up at a busy PE on a large tree (not on the small UTS one).
    .demo(LARGE_DEMO);
    /// 001's simulated machine: requests are held on the network, as if
    /// their targets read them only long after they arrived.
    RequestsUnread => entry(
        Info::ships(
            "requests-unread",
            "001 Fig. 1, §1.1",
            "every request reaches its target 10,000 time units late (a PE that leaves its requests unread while it works): the requesters idle meanwhile",
        ),
        Site::SimNetwork,
        &[(Run, "requests_answered")],
    )
    // PE 0 works long enough for a held request to it to show.
    .demo(LARGE_DEMO);
    /// Energy: shares computed in floating point (rounded, and 0 past 2^-1074).
    EnergyFloat => entry(
        Info::ships(
            "energy-float",
            "003 §14.7.4",
            "energy shares in f64, which 003 §14.7.4 warns against: 1/3 is rounded and halves vanish past 2^-1074",
        ),
        ENERGIES,
        &[(Run, "energy_conserved")],
    )
    // 003 §14.7.4's 1/p shares with p = 3 (Pacheco's Scatter divides by p): not a float.
    .demo(Demo { pes: 3, balancer: Some(BalancerKind::Pacheco), ..Demo::DEFAULT });
    /// Random polling with two slots: a reply overwrites a nonempty slot.
    SlotOverwrite => entry(
        Info::ships(
            "slot-overwrite",
            "002 §3",
            "two slots per PE: a work reply goes into the first slot even when it holds work, which is lost",
        ),
        RP,
        &[(Run, "work_conserved"), (Explore, "work_conserved")],
    )
    .needs(&[Need::TwoSlots])
    // Busy PEs ask, and get work, often enough only on a larger tree.
    .demo(Demo { workload: "uts:default", ..Demo::DEFAULT });
    /// Branch-and-bound: PE 0 takes its root's lower bound for a solution found.
    PruneUnachieved => entry(
        Info::ships(
            "prune-unachieved",
            "002 §4.5, S-12",
            "PE 0 starts with its root's lower bound (the relaxation) as its incumbent: a value no PE achieved prunes optimal branches",
        ),
        Site::BoundPropagation,
        &[(Run, "prune_sound"), (Explore, "prune_sound")],
    )
    .demo(Demo { workload: "knapsack:items=40,seed=1", ..Demo::DEFAULT });
    /// First-solution mode: a PE that hears of the stop does not pass it to its tree children.
    StopNotForwarded => entry(
        Info::ships(
            "stop-not-forwarded",
            "002 §4.5, S-12",
            "first-solution mode: a PE that hears of the stop passes it up the tree but not to its children, who search on",
        ),
        Site::BoundPropagation,
        &[(Run, "stop_delay")],
    )
    .needs(&[Need::FirstSolution])
    // The last IDA* iteration: much work is left after the first solution.
    .demo(Demo { workload: "puzzle15:moves=40,seed=1", ..Demo::DEFAULT });
    /// Bound propagation: a PE takes in an improving bound from the tree but passes it on to no one.
    BoundLost => entry(
        Info::ships(
            "bound-lost",
            "002 §4.5, S-12",
            "reduce-tree: a PE takes in a better bound from the tree but passes it on to no one; the PEs below it prune with stale bounds (the optimum is still found)",
        ),
        Site::BoundPropagation,
        &[(Run, "bound_delay")],
    )
    .needs(&[Need::ReduceTree])
    .demo(Demo { workload: "knapsack:items=40,seed=1", seeds: &[1], ..Demo::DEFAULT });
    /// Random polling: a deactivated PE does not answer requests.
    InactiveSilent => entry(
        Info::ships(
            "inactive-silent",
            "002 §3",
            "a deactivated worker (--deactivate) leaves requests unanswered instead of sending its entire subproblem or a reject",
        ),
        RP,
        &[(Run, "requests_answered")],
    )
    .needs(&[Need::Deactivated, Need::ModelTime]);
    /// Random polling with two slots: a request is served from the slot of largest generation.
    SplitDeepestSlot => entry(
        Info::ships(
            "split-deepest-slot",
            "002 §3",
            "two slots per PE: a request is served from the slot of largest generation (the smallest part), not the smallest",
        ),
        RP,
        &[(Compare, "messages_per_pe")],
    )
    .needs(&[Need::TwoSlots])
    // 002 §3's traffic: on a balanced tree the smallest parts go.
    .demo(Demo { workload: "synthetic:size=100000,split=balanced", seeds: &[1], ..Demo::DEFAULT });
    /// Branch-and-bound: a node is pruned when its bound + 1 reaches the incumbent.
    PruneOffByOne => entry(
        Info::ships(
            "prune-off-by-one",
            "002 §4.5, S-12",
            "a node is pruned when its bound + 1 reaches the incumbent: nodes whose bound beats the optimum by one are cut, though the incumbent is a real solution",
        ),
        Site::BoundPropagation,
        &[(Run, "critical_expanded")],
    )
    // TSP's bounds meet the optimum minus one often (knapsack's rarely).
    .demo(Demo { workload: "tsp:cities=12,seed=1", ..Demo::DEFAULT });
    /// 001's simulated machine on a topology: every message takes one hop.
    HopsIgnored => entry(
        Info::ships(
            "hops-ignored",
            "000 §2.1; S-1",
            "the simulator delivers every message in one hop while the run declares a topology: long-distance polls cost what a crossbar's do",
        ),
        Site::SimNetwork,
        &[(Run, "hop_latency")],
    )
    .needs(&[Need::Network]);
    /// The simulator's network charges l + d under declared packet routing.
    RoutingAdditive => entry(
        Info::ships(
            "routing-additive",
            "000 §6.1",
            "the simulator routes a message of length l over d hops in l + d (cut-through's time) while the run declares packet routing (d·l): long work messages arrive early",
        ),
        Site::SimNetwork,
        &[(Bounds, "routing_time")],
    )
    .needs(&[Need::PacketRouting]);
    /// Synchronous random polling: a PE with two or more requests in a round rejects them all.
    SyncServeNoneWhenMany => entry(
        Info::ships(
            "sync-serve-none-when-many",
            "001 §1.3; S-13",
            "synchronous random polling: a PE that received two or more requests in a round rejects them all: correct, but work spreads slowly",
        ),
        Site::Balancer(BalancerKind::SyncRandomPolling),
        &[(Compare, "efficiency")],
    )
    // Many requests meet at a busy PE only on a larger machine.
    .demo(Demo { workload: "synthetic:size=200000,split=uniform", pes: 64, seeds: &[1], ..Demo::DEFAULT });
    /// Synchronous random polling: an idle PE asks only PE (i+1) mod P.
    SyncPollNeighbour => entry(
        Info::ships(
            "sync-poll-neighbour",
            "001 §1, §1.3; S-13",
            "synchronous random polling: an idle PE asks only PE (i+1) mod P: work spreads one PE per round, T_par leaves (1+ε)T_seq/P + O(h·T_rout)",
        ),
        Site::Balancer(BalancerKind::SyncRandomPolling),
        &[(Bounds, "t_par")],
    );
    /// Random polling: queue trimming (001 §4) is configured but never applied.
    QueueLimitIgnored => entry(
        Info::ships(
            "queue-limit-ignored",
            "001 §4, Thm 2; S-18",
            "random polling with --queue-limit: a request finding the limit queued is queued anyway, so slow PEs' queues grow past ⌈√P⌉",
        ),
        RP,
        &[(Bounds, "queue_trim")],
    )
    .needs(&[Need::QueueLimit]);
    /// Poll-and-shuffle: the "permutation" sends each subproblem to a random PE; a PE receiving two keeps one.
    ShuffleDropsWork => entry(
        Info::ships(
            "shuffle-drops-work",
            "000 §3.2",
            "the shuffle sends each subproblem to a uniformly random PE (no prefix sums); a PE that receives two keeps one",
        ),
        PAS,
        &[(Run, "work_conserved")],
    )
    .demo(PAS_DEMO);
    /// Poll-and-shuffle: idle PEs always poll along dimension 0.
    PasSameDimension => entry(
        Info::ships(
            "pas-same-dimension",
            "000 §3.1, Lemma 2",
            "idle PEs always poll along dimension 0: pairs trade work, the cube does not",
        ),
        PAS,
        &[(Run, "phase_discipline")],
    )
    .demo(PAS_DEMO);
    /// Poll-and-shuffle: an idle PE polls the moment it runs out, mid-phase.
    PasMidPhaseRequest => entry(
        Info::ships(
            "pas-mid-phase-request",
            "000 §3.1",
            "an idle PE polls the moment it runs out, mid-phase, not after the barrier",
        ),
        PAS,
        &[(Run, "phase_discipline")],
    )
    .demo(PAS_DEMO);
    /// Poll-and-shuffle: no permutation between cycles.
    PasNoShuffle => entry(
        Info::ships(
            "pas-no-shuffle",
            "000 §3.1, eq. (4)",
            "no permutation between cycles: a subproblem meets the same partners every cycle",
        ),
        PAS,
        &[(Bounds, "eq4_partners")],
    );
    /// Poll-and-shuffle: the "permutation" is k ↦ k ⊕ r.
    PasXorShuffle => entry(
        Info::ships(
            "pas-xor-shuffle",
            "000 §3.1, eq. (4); S-2",
            "the permutation is k ↦ k ⊕ r for a random r: random, but it commutes with the pairings, so S meets the same partners",
        ),
        PAS,
        &[(Bounds, "eq4_partners")],
    );
    /// Poll-and-shuffle's exact permutation without the local shuffle.
    PermNoLocalShuffle => entry(
        Info::ships(
            "perm-no-local-shuffle",
            "000 §3.2; S-6",
            "the exact permutation skips the local shuffle: the items a PE receives keep their source order",
        ),
        PAS,
        &[(Bounds, "perm_uniform")],
    );
    /// Poll-and-shuffle's pseudo-random permutations from XOR translations only.
    PermGeneratorsSubgroup => entry(
        Info::ships(
            "perm-generators-subgroup",
            "000 §3.2; S-6",
            "the pseudo-random method's generators are XOR translations: their compositions reach n of the n! permutations",
        ),
        PAS,
        &[(Bounds, "perm_generators")],
    );
    /// Random polling on a network asks a uniform network neighbour (000 §1.1's neighbourhood polling).
    PollNetworkNeighbour => entry(
        Info::ships(
            "poll-network-neighbour",
            "000 §1.1; S-24",
            "random polling on a network asks a uniform network neighbour: busy clusters form and the excess grows with n on a mesh",
        ),
        Site::NetworkPolling,
        &[(Bounds, "rp_t_par")],
    );
    /// SIMD phases: every idle PE asks the first busy PE.
    SimdMatchFirstBusy => entry(
        Info::ships(
            "simd-match-first-busy",
            "000 §1.1",
            "SIMD phases without the prefix-sum enumeration: every idle PE asks the first busy PE, which splits again and again",
        ),
        Site::Balancer(BalancerKind::SimdPhase),
        &[(Run, "simd_matching")],
    )
    .demo(PAS_DEMO);
    /// Poll-and-shuffle with local synchronisation: a PE does not wait for its partner's "phase finished".
    NoPhaseWait => entry(
        Info::ships(
            "no-phase-wait",
            "000 §6.3, Fig. 4; S-5",
            "local synchronisation: a PE goes on after sending \"phase i finished\" without waiting for its partner's, so a late request is answered in a later phase",
        ),
        PAS,
        &[(Run, "same_phase_exchange")],
    )
    .needs(&[Need::LocalSync])
    .demo(PAS_DEMO);
    /// Poll-and-shuffle with local synchronisation: a PE waits for its dimension-(i+1) partner's "phase i finished".
    WaitWrongDimension => entry(
        Info::ships(
            "wait-wrong-dimension",
            "000 §6.3, Fig. 4; S-5",
            "local synchronisation: after phase i a PE waits for its dimension-(i+1) partner's \"phase i finished\", which goes elsewhere: every PE waits for ever",
        ),
        PAS,
        &[(Run, "termination_detected")],
    )
    .needs(&[Need::LocalSync])
    .demo(PAS_DEMO);
    /// Adaptive poll-and-shuffle: every idle PE notifies PE 0 (q = 1).
    NotifyAlways => entry(
        Info::ships(
            "notify-always",
            "000 §5, Lemma 4; S-7",
            "adaptive trigger: every idle PE notifies PE 0 at every phase (q = 1, not c/n): PE 0 is a hot spot",
        ),
        PAS,
        &[(Bounds, "notify_tail")],
    )
    .needs(&[Need::AdaptiveTrigger]);
    /// Adaptive poll-and-shuffle: no idle PE ever notifies PE 0 (q = 0).
    NotifyNever => entry(
        Info::ships(
            "notify-never",
            "000 §5, Lemma 5; S-7",
            "adaptive trigger: no idle PE notifies PE 0 (q = 0): PE 0 estimates no idleness and never permutes",
        ),
        PAS,
        &[(Bounds, "idle_estimate")],
    )
    .needs(&[Need::AdaptiveTrigger]);
    /// Adaptive poll-and-shuffle: a permutation may follow the last one after a single phase.
    TriggerTooSoon => entry(
        Info::ships(
            "trigger-too-soon",
            "000 §5, Thm 5; S-7",
            "adaptive trigger: PE 0 permutes whenever its estimate is high, without waiting log2 n phases since the last permutation",
        ),
        PAS,
        &[(Bounds, "shuffles_le_cycles")],
    )
    .needs(&[Need::AdaptiveTrigger]);
    /// Safra: a PE receiving work does not turn black.
    SafraNoBlacken => entry(
        Info::ships(
            "safra-no-blacken",
            "EWD998 rule 3",
            "a PE receiving work does not turn black: the token stays white, and the counts may balance while work remains",
        ),
        Site::Detectors(&[DetectorKind::Safra]),
        &[(Run, "detector_conformance"), (Loom, "detector_conformance"), (Explore, "detector_conformance")],
    );
    /// 001's simulated machine: the initial split of 002 §3 splits the
    /// part split off last at each step (a stack, not a queue).
    InitialSplitLinear => entry(
        Info::ships(
            "initial-split-linear",
            "002 §3",
            "the initial local split splits the part split off last at each step, not the oldest: a chain of up to P − 1 splits instead of ⌈log P⌉ levels",
        ),
        Site::SimWorkLoop,
        &[(Bounds, "initial_split")],
    );
}
