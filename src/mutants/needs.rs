//! What a mutant needs of a run to act, besides its site: part of its
//! declaration ([`super::Entry::needs`]). The run specification's
//! validation refuses a run that lacks one (saying what to add), and
//! `RunSpec::with_mutant` sets the run up so that each holds.

/// One thing a run must have for a mutant to act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Random polling with two slots per PE (002 §3).
    TwoSlots,
    /// Pacheco's global round robin (003 §14.7.3).
    GlobalRoundRobin,
    /// Branch-and-bound in first-solution mode (002 §4.5).
    FirstSolution,
    /// Branch-and-bound bounds passed on along the reduction tree (002 §4.5).
    ReduceTree,
    /// A deactivated worker (002 §3).
    Deactivated,
    /// Random polling with queue trimming (001 §4).
    QueueLimit,
    /// Random polling serving one request per poll (001 Fig. 1).
    ServeOne,
    /// Poll-and-shuffle with local synchronisation (000 §6.3, Fig. 4).
    LocalSync,
    /// Poll-and-shuffle's adaptive trigger (000 §5).
    AdaptiveTrigger,
    /// 001's machine on a network other than the crossbar (000 §2.1).
    Network,
    /// 001's machine with packet routing (000 §6.1, `--routing packet`).
    PacketRouting,
    /// 004's atomic machine with the FIFO arbiter (004 §2).
    FifoArbiter,
    /// Model time: the bug pauses, or acts in a window, of simulated time.
    ModelTime,
}

impl Need {
    /// What the refusal of a run without it says after "mutant `NAME` ".
    pub fn advice(self) -> &'static str {
        match self {
            Need::TwoSlots => "acts with two slots per PE: add --slots 2",
            Need::GlobalRoundRobin => "acts in global round robin: add --victim global-rr",
            Need::FirstSolution => "acts in first-solution mode: add --bound first-solution",
            Need::ReduceTree => "acts where bounds are passed on, in --bound reduce-tree",
            Need::Deactivated => "acts in a deactivated worker: add --deactivate PE:FROM..TO",
            Need::QueueLimit => "ignores queue trimming: add --queue-limit N or sqrt",
            Need::ServeOne => {
                "drops the requests a poll leaves queued; with --serve all none are left: it would have no effect in this run"
            }
            Need::LocalSync => "acts in local synchronisation: add --sync local",
            Need::AdaptiveTrigger => {
                "acts in poll-and-shuffle's adaptive trigger (000 §5): add --trigger adaptive; it would have no effect in this run"
            }
            Need::Network => {
                "acts in the network of a topology: add --topology hypercube (or mesh:R, fat-tree, butterfly, ccc)"
            }
            Need::PacketRouting => "acts in packet routing: add --routing packet",
            Need::FifoArbiter => "acts only on --machine atomic --arbiter fifo; it would have no effect in this run",
            Need::ModelTime => "pauses in model time, which real threads do not have: use `lbcheck simulate`",
        }
    }
}
