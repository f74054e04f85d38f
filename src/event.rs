//! The one event stream every driver emits and every checker reads, and its
//! on-disk form: JSON Lines, one event per line, a [`TraceHeader`] first.
//!
//! This is lbcheck's **trace format** (version 1), the contract with
//! implementations in other languages: keep it stable. Times `t` are integers
//! in the header's [`Clock`]: model time units for the simulator (the
//! default, one per work unit), nanoseconds for real-time drivers,
//! PEs are numbered `0..pes`, message ids are unique within a trace, a
//! fingerprint is the string form of [`Fingerprint`] and energy the string
//! form of [`Fraction`] (`0`, `1`, `m/2^e`).
//!
//! ```text
//! {"ev":"header","version":1,"pes":4,"workload":"uts:default","split":"bottom-half",...}
//! {"ev":"busy","t":0,"pe":0}
//! {"ev":"send","t":3,"from":2,"to":0,"id":1,"kind":"request"}
//! {"ev":"work","t":10,"pe":0,"units":10,"gen":0,"fp":"10-..."}
//! ```

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use crate::base::Fraction;
use crate::problem::{Fingerprint, WorkLog};

/// The JSON Schema of one trace line (`docs/trace.schema.json`, shipped in
/// the crate; `lbcheck check-trace --schema` prints it).
pub const SCHEMA: &str = include_str!("../docs/trace.schema.json");

/// Version of the trace format written and accepted.
pub const TRACE_VERSION: u32 = 1;

/// First line of a trace: what ran, so a checker can recompute the reference.
/// Unknown fields are an error, as in events.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceHeader {
    /// Trace format version ([`TRACE_VERSION`]).
    pub version: u32,
    /// Number of PEs.
    pub pes: u32,
    /// Workload name (parses as [`crate::problem::Workload`]).
    pub workload: String,
    /// DFS-stack split strategy name.
    pub split: String,
    /// Balancer name.
    pub balancer: String,
    /// Termination detector name.
    pub detector: String,
    /// Cost of one split, charged to the splitting PE (for `lower_bound`).
    pub t_split: u64,
    /// What one unit of `t` is (absent: [`Clock::Work`]).
    #[serde(default, skip_serializing_if = "Clock::is_work")]
    pub clock: Clock,
    /// How lbcheck made the run: its run specification (the JSON of
    /// `lbcheck simulate --print-spec`), enough to replay it (absent in
    /// traces of other implementations; checking never depends on it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<Box<serde_json::Value>>,
    /// The command that replays the run, when the spec's driver would not
    /// (the explorer's counterexample: its exploration).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
    /// How the run was made as far as checks read it: written by other
    /// implementations (and by lbcheck before `spec`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<Box<RunParams>>,
    /// The expected fingerprint of all the work (the string form of
    /// [`Fingerprint`]), for a workload lbcheck cannot run itself
    /// (`workload: "custom"`); when present it is the reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// The expected work units; must agree with `fingerprint`'s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<u64>,
    /// The PE that announces termination (absent: PE 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub announcer: Option<u32>,
}

impl TraceHeader {
    /// The PE that announces termination: `announcer`, or PE 0.
    pub fn announcer(&self) -> u32 {
        self.announcer.unwrap_or(0)
    }

    /// How the run was made, as far as the checks read it: the `run`
    /// record, else the run specification's fields (`spec`, whose keys are
    /// the flags' names); `None` for a trace with neither.
    pub fn run_record(&self) -> Option<std::borrow::Cow<'_, RunParams>> {
        match (&self.run, &self.spec) {
            (Some(run), _) => Some(std::borrow::Cow::Borrowed(run)),
            (None, Some(spec)) => Some(std::borrow::Cow::Owned(RunParams::of_spec(spec))),
            (None, None) => None,
        }
    }
}

impl RunParams {
    /// The fields of a run specification's JSON that checks read.
    fn of_spec(spec: &serde_json::Value) -> RunParams {
        let (driver, balancer) = (&spec["driver"], &spec["balancer"]);
        let text = |v: &serde_json::Value| v.as_str().map(str::to_string);
        let atomic = driver["name"] == "atomic";
        let latency = driver["latency"].as_str().and_then(|l| l.split_once("..")).map(|(a, b)| [a, b]);
        RunParams {
            driver: text(&driver["name"]).unwrap_or_default(),
            seed: driver["seed"].as_u64().unwrap_or(0),
            machine: if atomic { text(&driver["machine"]) } else { None },
            arbiter: if atomic { text(&driver["arbiter"]).or(Some("fifo".into())) } else { None },
            dt: driver["dt"].as_u64().unwrap_or(1),
            t_rout: driver["t_rout"].as_u64(),
            latency: latency.and_then(|[a, b]| Some([a.parse().ok()?, b.parse().ok()?])),
            topology: text(&driver["topology"]),
            initial_split: driver.get("initial_split").is_some(),
            victim: text(&balancer["victim"]),
            sync: text(&balancer["sync"]),
            serve_all: balancer["serve"] == "all",
            bound: text(&spec["bound"]),
            ..RunParams::default()
        }
    }
}

/// The trace format's `run` record (version 1): how a run was made, as far
/// as the checks read it (`hop_latency`, `round_robin`, `atomic_conformance`,
/// `stop_delay`, `detection_delay_bound`, `fig3_transfers`). Other
/// implementations may write it; lbcheck wrote it before the run
/// specification and now writes `spec`, whose fields
/// [`TraceHeader::run_record`] reads into this form. Absent fields are the
/// driver's defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunParams {
    /// The driver (`sim`, `threads`, `loom`).
    pub driver: String,
    /// The seed of every random stream.
    pub seed: u64,
    /// The machine model (simulator: `async`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
    /// Δt: work units between polls.
    pub dt: u64,
    /// T_rout: the message latency (simulator, unless `latency`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t_rout: Option<u64>,
    /// o: PE time per message sent or received (simulator; 0 if absent).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub o: u64,
    /// g: the gap between a PE's messages (simulator; 0 if absent).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub g: u64,
    /// T_poll: PE time per poll (simulator; 0 if absent).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub t_poll: u64,
    /// `[a, b]`: message latencies uniform in a..=b (simulator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency: Option<[u64; 2]>,
    /// How latencies are drawn from `latency`: `bimodal:P` or `heavy`
    /// (absent: uniform).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// An adversarial schedule: `slow-control` or `slow-work` (absent: plain).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<String>,
    /// Every link delivers in send order.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fifo_links: bool,
    /// The network (000 §2.1, §4): `hypercube`, `mesh:R`, `fat-tree`,
    /// `butterfly`, `ccc`; a message takes its latency once per hop
    /// (absent: a crossbar, one hop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topology: Option<String>,
    /// `[count, factor]`: slow PEs (simulator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slow: Option<(u32, u64)>,
    /// The run started with the initial split of 002 §3.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub initial_split: bool,
    /// With `initial_split`: K of 000 §1.2's randomised initialisation into
    /// K·P pieces (`--initial-split random:K`; absent: 002 §3's
    /// breadth-first split).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_random: Option<u32>,
    /// Requests finding this many queued are rejected (001 §4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_limit: Option<u32>,
    /// Random polling answered every queued request at a poll (`--serve all`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub serve_all: bool,
    /// Poll-and-shuffle: how a cycle's permutation was drawn, `exact` or
    /// `pseudo` (000 §3.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permutation: Option<String>,
    /// Poll-and-shuffle: `global` (a global clock, 000 §3.1) or `local`
    /// synchronisation between partners (000 §6.3, Fig. 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sync: Option<String>,
    /// Poll-and-shuffle: when it permuted, `adaptive` or
    /// `adaptive:c=…,alpha=…,delta=…,eps=…` (000 §5; absent: after every cycle).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// Pacheco's search: `New_request`'s victim selection (003 §14.7.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victim: Option<String>,
    /// Random polling: subproblem slots per PE when not 1 (002 §3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots: Option<u8>,
    /// Branch-and-bound workloads: how improved bounds travelled (S-12).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<String>,
    /// Random polling: the deactivated worker, `PE:FROM..TO` (002 §3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deactivate: Option<String>,
    /// The deliberate bug the run had, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutant: Option<String>,
    /// The simulator's step cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<u64>,
    /// The simulator's detection horizon (0: automatic).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detect_horizon: Option<u64>,
    /// The atomic machine's arbiter (004 §2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arbiter: Option<String>,
    /// The exhaustive adversary's cap on choice sequences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_runs: Option<u64>,
    /// The command that replays the run, for a driver the other fields
    /// do not describe (the explorer's counterexample: its path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

/// What one unit of a trace's times `t` is. Only [`Clock::Work`] makes
/// times comparable with work (the `lower_bound` property needs that).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Clock {
    /// Model time: one unit per work unit, T_split per split (001 §1.2).
    #[default]
    Work,
    /// Wall-clock nanoseconds since the run started (real threads).
    Ns,
    /// A global sequence number, no clock at all (real threads under loom).
    Seq,
    /// Synchronous steps of 004's atomic model: a node expands at most one
    /// subproblem (one `work` event) per step.
    Step,
}

impl Clock {
    /// True for the simulator's model time.
    pub fn is_work(&self) -> bool {
        *self == Clock::Work
    }

    /// True for a simulated clock (work units or steps): every PE's events
    /// at one time happen at one instant.
    pub fn is_model(&self) -> bool {
        matches!(self, Clock::Work | Clock::Step)
    }
}

impl std::fmt::Display for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Clock::Work => "work units",
            Clock::Ns => "nanoseconds",
            Clock::Seq => "sequence numbers",
            Clock::Step => "steps",
        })
    }
}

/// Free-form JSON content of a message or wave (an object, or any JSON
/// value), carried through unchecked (but for Safra's token, detector
/// `safra`, and the atomic machine's steps); boxed to keep events small.
/// Read from a trace, only the members a property reads are kept
/// (`event/data.rs`).
pub type Data = Option<Box<serde_json::Value>>;

/// Kinds of messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A request for work.
    Request,
    /// An empty reply to a request.
    Reject,
    /// A nonempty subproblem (a reply to a request, or an initial part).
    Work,
    /// Energy returned towards PE 0 (energy detector).
    Energy,
    /// A wave going down the reduction tree (four-counter).
    WaveDown,
    /// A wave's partial sums going up the tree (four-counter).
    WaveUp,
    /// The termination announcement, passed on by PEs that learnt of it.
    Terminate,
    /// Global round robin (003 §14.7.3): a request to PE 0 for a target.
    GetTarget,
    /// PE 0's answer naming the target.
    Target,
    /// Branch-and-bound: a solution's cost, propagated (S-12).
    Bound,
    /// First-solution mode: a solution was found, every PE stops (002 §4.5).
    Stop,
    /// A control message of a detector lbcheck does not know (its content
    /// in the event's free-form `data`); the outcome properties ignore it.
    Control,
    /// Local synchronisation (000 §6.3, Fig. 4): a busy PE's "phase i
    /// finished" to its dimension-i partner (an idle PE's is its `request`).
    Sync,
    /// Poll-and-shuffle's adaptive trigger (000 §5; S-7): an idle PE tells
    /// the monitoring PE 0 that it is idle (`data`: `{"phase": j}`, the
    /// phase from 0 since the run began).
    Notify,
}

impl Kind {
    /// Every kind, in a fixed order.
    pub const ALL: [Kind; 14] = [
        Kind::Request,
        Kind::Reject,
        Kind::Work,
        Kind::Energy,
        Kind::WaveDown,
        Kind::WaveUp,
        Kind::Terminate,
        Kind::GetTarget,
        Kind::Target,
        Kind::Bound,
        Kind::Stop,
        Kind::Control,
        Kind::Sync,
        Kind::Notify,
    ];

    /// The kind's name in the trace.
    pub fn name(self) -> &'static str {
        [
            "request",
            "reject",
            "work",
            "energy",
            "wave_down",
            "wave_up",
            "terminate",
            "get_target",
            "target",
            "bound",
            "stop",
            "control",
            "sync",
            "notify",
        ][self as usize]
    }
}

/// One event of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "ev", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// First line of a trace (boxed: the largest variant by far, and once a
    /// run; an `Event` is 120 bytes, not 208, issue 30).
    Header(Box<TraceHeader>),
    /// `pe` finished `units` of work on a subproblem of generation `gen`.
    Work {
        /// Time the work finished.
        t: u64,
        /// The PE.
        pe: u32,
        /// Work units done.
        units: u64,
        /// Generation of the subproblem worked on.
        gen: u32,
        /// Fingerprint of the items worked.
        #[serde(with = "fp_string")]
        fp: Fingerprint,
        /// Branch-and-bound (one vertex per `work`, 004 §6): the cost of the
        /// vertex expanded.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cost: Option<u64>,
        /// Branch-and-bound: the cost of the goal (leaf) expanded, if it was
        /// one; with pruning (S-12), of the best solution the slice found.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        goal: Option<u64>,
        /// Branch-and-bound with pruning (S-12): the least incumbent a node
        /// was pruned with during the slice (`prune_sound` checks that some
        /// PE had found a solution that good).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pruned_with: Option<u64>,
        /// Branch-and-bound with pruning, when lbcheck watches it (S-12):
        /// the fingerprint of the nodes the slice expanded whose bound is
        /// below the sequential optimum (`critical_expanded`).
        /// (Boxed: 8 bytes instead of 40 in every event.)
        #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_fp_string")]
        critical: Option<Box<Fingerprint>>,
    },
    /// `pe` split its subproblem; both parts now have generation `gen`.
    Split {
        /// Time.
        t: u64,
        /// The PE.
        pe: u32,
        /// Generation of both parts.
        gen: u32,
    },
    /// A message left `from` for `to`.
    Send {
        /// Time.
        t: u64,
        /// Sender.
        from: u32,
        /// Receiver.
        to: u32,
        /// Unique message id.
        id: u64,
        /// Message kind.
        kind: Kind,
        /// Energy carried (energy detector), if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        energy: Option<Fraction>,
        /// Free-form content (a control message's data); checked only as Safra's token.
        #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "data::deserialize")]
        data: Data,
    },
    /// Message `id` reached `pe` (and was put into its queue or handled).
    Recv {
        /// Time.
        t: u64,
        /// Receiver.
        pe: u32,
        /// Sender.
        from: u32,
        /// The id of the matching `send`.
        id: u64,
        /// Message kind.
        kind: Kind,
        /// For requests: queued requests found at `pe` on arrival (001 Lemma 1.3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        queue: Option<u32>,
        /// Free-form content; never checked.
        #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "data::deserialize")]
        data: Data,
    },
    /// `pe` now holds work.
    Busy {
        /// Time.
        t: u64,
        /// The PE.
        pe: u32,
    },
    /// `pe` holds no work any more.
    Idle {
        /// Time.
        t: u64,
        /// The PE.
        pe: u32,
    },
    /// The energy `pe` now holds (after any change).
    Energy {
        /// Time.
        t: u64,
        /// The PE.
        pe: u32,
        /// Energy held.
        held: Fraction,
    },
    /// The announcer completed four-counter wave `wave` with these totals of
    /// work messages sent / received (001 §2).
    Wave {
        /// Time.
        t: u64,
        /// Wave number, from 1.
        wave: u64,
        /// Σ work messages sent, as read by the wave.
        sent: u64,
        /// Σ work messages received, as read by the wave.
        recv: u64,
        /// Free-form content; never checked.
        #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "data::deserialize")]
        data: Data,
    },
    /// A barrier of the phased machine (000 §3.1): phase `phase` of cycle
    /// `cycle` ended; idle PEs may now poll along dimension `phase`. With
    /// `pe`, a local barrier (000 §6.3, Fig. 4): only that PE ended the
    /// phase (it sends its "phase finished" message now).
    Phase {
        /// Time of the barrier.
        t: u64,
        /// Cycle number, from 0: the permutations made before this phase
        /// (with the adaptive trigger, 000 §5, a cycle may hold several
        /// rounds of the dimensions).
        cycle: u64,
        /// Phase number within the round of dimensions, from 0 (the
        /// dimension polled next).
        phase: u32,
        /// Local synchronisation: the one PE that ended the phase (absent:
        /// a global barrier, every PE).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pe: Option<u32>,
    },
    /// `pe`, the header's announcer (PE 0 by default), announced global termination.
    Announce {
        /// Time.
        t: u64,
        /// The PE.
        pe: u32,
    },
    /// `pe` learnt of termination and stopped.
    Terminated {
        /// Time.
        t: u64,
        /// The PE.
        pe: u32,
    },
    /// The run ended: no event is left (a complete trace ends with this).
    End {
        /// Time of the last event.
        t: u64,
    },
}

mod data;
mod read;

pub use read::{read_trace, TraceError, TraceReader, MAX_LINE_BYTES};

mod fp_string {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::problem::Fingerprint;

    pub fn serialize<S: Serializer>(fp: &Fingerprint, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(fp)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Fingerprint, D::Error> {
        let s = String::deserialize(d)?;
        Fingerprint::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("bad fingerprint `{s}`")))
    }
}

/// An optional [`fp_string`].
mod opt_fp_string {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::problem::Fingerprint;

    pub fn serialize<S: Serializer>(fp: &Option<Box<Fingerprint>>, s: S) -> Result<S::Ok, S::Error> {
        match fp {
            Some(fp) => s.collect_str(fp),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Box<Fingerprint>>, D::Error> {
        let s = String::deserialize(d)?;
        let fp = Fingerprint::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("bad fingerprint `{s}`")))?;
        Ok(Some(Box::new(fp)))
    }
}

/// Matches the time field `t` of every timed variant (header: `$header`).
macro_rules! with_time {
    ($e:expr, $t:ident => $body:expr, header => $header:expr) => {
        match $e {
            Event::Header(_) => $header,
            Event::Work { t: $t, .. }
            | Event::Split { t: $t, .. }
            | Event::Send { t: $t, .. }
            | Event::Recv { t: $t, .. }
            | Event::Busy { t: $t, .. }
            | Event::Idle { t: $t, .. }
            | Event::Energy { t: $t, .. }
            | Event::Wave { t: $t, .. }
            | Event::Phase { t: $t, .. }
            | Event::Announce { t: $t, .. }
            | Event::Terminated { t: $t, .. }
            | Event::End { t: $t } => $body,
        }
    };
}

impl Event {
    /// The `work` event of `units` done by `pe` at `t` on a subproblem of
    /// generation `gen`, as `log` recorded them (no vertex `cost`: that is
    /// the atomic machine's, one vertex per event).
    pub fn work(t: u64, pe: u32, units: u64, gen: u32, log: &WorkLog) -> Event {
        let critical = Some(log.critical).filter(|c| c.units > 0).map(Box::new);
        Event::Work {
            t,
            pe,
            units,
            gen,
            fp: log.fp,
            cost: None,
            goal: log.goal,
            pruned_with: log.pruned_with,
            critical,
        }
    }

    /// The event's time (0 for the header).
    pub fn time(&self) -> u64 {
        with_time!(self, t => *t, header => 0)
    }

    /// The event's time field (`None` for the header).
    pub fn time_mut(&mut self) -> Option<&mut u64> {
        with_time!(self, t => Some(t), header => None)
    }
}

/// Writes one event as a JSON line.
pub fn write_event(w: &mut (impl Write + ?Sized), e: &Event) -> io::Result<()> {
    serde_json::to_writer(&mut *w, e)?;
    w.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_round_trip_through_json_lines() {
        let mut fp = Fingerprint::EMPTY;
        fp.add_range(0, 10);
        let events = vec![
            Event::Work {
                t: 5,
                pe: 1,
                units: 10,
                gen: 2,
                fp,
                cost: None,
                goal: None,
                pruned_with: None,
                critical: None,
            },
            Event::Send {
                t: 6,
                from: 1,
                to: 0,
                id: 9,
                kind: Kind::Work,
                energy: Some(Fraction::pow2_neg(3)),
                data: None,
            },
            Event::Recv { t: 7, pe: 0, from: 1, id: 9, kind: Kind::Request, queue: Some(0), data: None },
            Event::End { t: 8 },
        ];
        let mut buf = Vec::new();
        events.iter().for_each(|e| write_event(&mut buf, e).unwrap());
        let back: Vec<Event> = read_trace(&buf[..]).unwrap().into_iter().map(|(_, e)| e).collect();
        assert_eq!(back, events);
    }

    /// A header with every optional field set (the `run` record's too).
    fn every_header_field() -> TraceHeader {
        let fp = Fingerprint::EMPTY;
        let run = RunParams {
            driver: "sim".into(),
            seed: 1,
            machine: Some("async".into()),
            dt: 2,
            t_rout: Some(3),
            o: 1,
            g: 2,
            t_poll: 3,
            latency: Some([1, 2]),
            shape: Some("bimodal:0.1".into()),
            schedule: Some("slow-control".into()),
            fifo_links: true,
            topology: Some("mesh:2".into()),
            slow: Some((1, 2)),
            initial_split: true,
            initial_random: Some(4),
            queue_limit: Some(1),
            serve_all: true,
            victim: Some("global-rr".into()),
            permutation: Some("pseudo".into()),
            sync: Some("local".into()),
            trigger: Some("adaptive:c=8,alpha=2,delta=auto,eps=0.5".into()),
            slots: Some(2),
            bound: Some("broadcast".into()),
            deactivate: Some("1:2..3".into()),
            mutant: Some("split-loses".into()),
            max_steps: Some(9),
            detect_horizon: Some(0),
            arbiter: Some("fifo".into()),
            max_runs: Some(5),
            replay: Some("lbcheck explore --seed 1".into()),
        };
        TraceHeader {
            version: TRACE_VERSION,
            pes: 2,
            workload: "custom".into(),
            split: "bottom-half".into(),
            balancer: "b".into(),
            detector: "d".into(),
            t_split: 1,
            clock: Clock::Seq,
            spec: Some(Box::new(serde_json::json!({"balancer": {"name": "random-polling", "slots": 2}}))),
            replay: Some("lbcheck explore --seed 1".into()),
            run: Some(Box::new(run)),
            fingerprint: Some(fp.to_string()),
            units: Some(0),
            announcer: Some(1),
        }
    }

    /// One event of every kind with every optional field set.
    fn every_kind() -> Vec<Event> {
        let (fp, header) = (Fingerprint::EMPTY, every_header_field());
        let data = || Some(Box::new(serde_json::json!({"q": -1, "black": true}))); // members read: kept
        vec![
            Event::Header(Box::new(header)),
            Event::Work {
                t: 1,
                pe: 0,
                units: 1,
                gen: 0,
                fp,
                cost: Some(3),
                goal: Some(3),
                pruned_with: Some(4),
                critical: Some(Box::new(fp)),
            },
            Event::Split { t: 1, pe: 0, gen: 1 },
            Event::Send {
                t: 1,
                from: 0,
                to: 1,
                id: 1,
                kind: Kind::Work,
                energy: Some(Fraction::pow2_neg(1)),
                data: data(),
            },
            Event::Recv { t: 1, pe: 1, from: 0, id: 1, kind: Kind::Request, queue: Some(0), data: data() },
            Event::Busy { t: 1, pe: 0 },
            Event::Idle { t: 1, pe: 0 },
            Event::Energy { t: 1, pe: 0, held: Fraction::one() },
            Event::Wave { t: 1, wave: 1, sent: 0, recv: 0, data: data() },
            Event::Phase { t: 1, cycle: 0, phase: 0, pe: Some(0) },
            Event::Announce { t: 1, pe: 0 },
            Event::Terminated { t: 1, pe: 0 },
            Event::End { t: 1 },
        ]
    }

    /// The schema's branch for each kind lists exactly the fields the
    /// trace writes (every optional one set here) and requires a subset.
    #[test]
    fn the_schema_matches_the_events() {
        let schema: serde_json::Value = serde_json::from_str(SCHEMA).expect("the schema is JSON");
        let branches = schema["oneOf"].as_array().expect("oneOf");
        assert_eq!(branches.len(), every_kind().len());
        for e in every_kind() {
            let line: serde_json::Value = serde_json::to_value(&e).unwrap();
            let ev = line["ev"].as_str().unwrap();
            let branch = branches.iter().find(|b| b["title"] == ev).unwrap_or_else(|| panic!("no branch for {ev}"));
            let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
            assert_eq!(keys(&line), keys(&branch["properties"]), "{ev}");
            let written = line.as_object().unwrap();
            for r in branch["required"].as_array().unwrap() {
                assert!(written.contains_key(r.as_str().unwrap()), "{ev}: required {r}");
            }
            if ev == "header" {
                assert_eq!(keys(&line["run"]), keys(&schema["$defs"]["run"]["properties"]), "run record");
            }
        }
    }

    #[test]
    fn blank_lines_are_named_as_such() {
        match read_trace("{\"ev\":\"end\",\"t\":1}\n\n".as_bytes()) {
            Err(e @ TraceError::Blank(2)) => assert!(e.to_string().starts_with("line 2: blank line"), "{e}"),
            other => panic!("expected a blank-line error on line 2, got {other:?}"),
        }
    }

    #[test]
    fn bad_lines_are_named() {
        let text = "{\"ev\":\"end\",\"t\":1}\n{\"ev\":\"warp\",\"t\":2}\n";
        match read_trace(text.as_bytes()) {
            Err(e @ TraceError::Parse { line: 2, .. }) => {
                assert!(e.to_string().starts_with("line 2: unknown variant `warp`"))
            }
            other => panic!("expected a parse error on line 2, got {other:?}"),
        }
    }
}
