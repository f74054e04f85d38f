//! The MPI driver: the unchanged sans-IO [`crate::protocol::Pe`]s, one per
//! MPI rank, exchanging real MPI messages (../shared/ARCHITECTURE.md "One
//! protocol, many drivers"; `lbcheck mpi` under `mpirun`, built with
//! `--features mpi`). This module is the part that needs no MPI library:
//! the configuration, the recorder with its Lamport clock, the merge rule
//! and the gathered batches' encoding; `world` (feature `mpi`) is the
//! driver itself.
//!
//! **The loop** (003 §14.7's; the one the threaded driver runs too, in
//! `runtime::pe_loop`): a rank works Δt units on its subproblem, then
//! receives every message that arrived meanwhile (`MPI_Iprobe` until none
//! is left), then polls ([`crate::protocol::Pe::on_poll`]) or, out of
//! work, goes idle and probes until a message comes. Messages are `Msg<Task>` in
//! [`crate::protocol::wire`]'s encoding behind a 16-byte envelope (Lamport
//! stamp, trace id), sent with `MPI_Bsend`, so that no send ever waits for
//! its receiver.
//!
//! **The merge rule.** Every handler call of a rank is one *batch* of
//! events (as in the threaded driver's recorder). Each rank keeps a
//! Lamport clock L: a batch that handles a received message gets
//! L := max(L, the message's stamp) + 1, any other batch L := L + 1; every
//! message carries the stamp of the batch that sent it. Rank 0 gathers the
//! batches and sorts them by (L, rank); within a rank L increases, so each
//! rank's program order is kept, and a `recv`'s batch has a larger L than
//! its `send`'s, so every `recv` follows its `send`: the merged stream is a
//! linearisation of the run's happens-before order. Its times are the
//! global sequence numbers of that order (`clock: seq`): a batch's events
//! share the number of its first event, as under loom.
//!
//! **The end.** The detectors announce and the announcement spreads as the
//! protocols say; a rank that learnt of termination sends a `fin` to every
//! other rank and keeps receiving (and dropping) protocol messages until it
//! has every rank's `fin` (MPI keeps each sender's messages in order, so
//! nothing is left in flight), then sends its batches to rank 0. A rank
//! that waits longer than `--timeout` for any of this (a rank died, or
//! never answers) prints what it knows — its own last events and the last
//! message it had from each rank — and aborts the job (`MPI_Abort`), so
//! `mpirun` exits non-zero instead of hanging.

#[cfg(feature = "mpi")]
pub mod collect;
#[cfg(feature = "mpi")]
pub mod world;

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::event::Event;
use crate::protocol::initial::InitialSplit;
use crate::sim::ConfigError;

/// Parameters of an MPI run (P is the number of ranks `mpirun` started);
/// serialised (in the run specification) under the names of `lbcheck
/// mpi`'s flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MpiConfig {
    /// Number of ranks, one PE each.
    pub pes: u32,
    /// Seed of the PEs' random streams.
    pub seed: u64,
    /// Δt: work units between polls.
    pub dt: u64,
    /// Start with the root split locally (002 §3, 000 §1.2) instead of at rank 0.
    #[serde(default, skip_serializing_if = "crate::base::text::is_default")]
    pub initial_split: InitialSplit,
    /// Give up (error, exit non-zero) when the run has not ended this long
    /// after the start barrier (`--timeout`, whole seconds).
    #[serde(
        default = "default_timeout",
        skip_serializing_if = "is_default_timeout",
        with = "crate::base::text::seconds"
    )]
    pub timeout: Duration,
}

/// The most ranks a run may have.
pub const MAX_RANKS: u32 = 4096;
/// The default `--timeout`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

fn default_timeout() -> Duration {
    DEFAULT_TIMEOUT
}

fn is_default_timeout(t: &Duration) -> bool {
    *t == DEFAULT_TIMEOUT
}

impl Default for MpiConfig {
    fn default() -> Self {
        MpiConfig { pes: 1, seed: 0, dt: 64, initial_split: InitialSplit::Root, timeout: DEFAULT_TIMEOUT }
    }
}

impl MpiConfig {
    /// Checks the parameters (each message names the flag).
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=MAX_RANKS).contains(&self.pes) {
            return Err(ConfigError::Driver(format!("{} ranks is out of range: valid 1..={MAX_RANKS}", self.pes)));
        }
        if !(1..=super::threads::MAX_DT).contains(&self.dt) {
            return Err(ConfigError::range("--dt", self.dt, 1, super::threads::MAX_DT));
        }
        if self.timeout.is_zero() || self.timeout > Duration::from_secs(86_400) {
            return Err(ConfigError::Driver(format!(
                "--timeout = {} s is out of range: valid 1..=86400",
                self.timeout.as_secs()
            )));
        }
        Ok(self.initial_split.validate(self.pes)?)
    }
}

/// What an MPI run did, as rank 0 knows it (other ranks: their own part).
#[derive(Debug)]
pub struct MpiRun {
    /// This rank.
    pub rank: u32,
    /// Rank 0: from the start barrier until every rank learnt of
    /// termination; other ranks: until this one did.
    pub elapsed: Duration,
    /// Rank 0: work units of every rank; other ranks: their own only.
    pub units: Vec<u64>,
    /// Rank 0: the merged event stream, ending with `end` (when recorded).
    pub events: Option<Vec<Event>>,
}

/// What `lbcheck mpi` says when built without the feature.
pub const NOT_BUILT: &str = "this lbcheck was built without MPI: build it with `cargo build --release --features mpi` \
    (it needs an MPI library: apt-get install libopenmpi-dev openmpi-bin libclang-dev), \
    then run `mpirun -np N target/release/lbcheck mpi ...`";

/// One batch: its Lamport stamp and its events (times not yet set).
pub type Batch = (u64, Vec<Event>);

/// What a rank sends rank 0 at the end.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct RankRecord {
    /// Work units the rank did.
    pub units: u64,
    /// Seconds from the start barrier until the rank learnt of termination.
    pub secs: f64,
    /// Its batches, in program order.
    pub batches: Vec<Batch>,
}

/// A rank's event recorder with its Lamport clock (module docs).
#[derive(Debug, Default)]
pub struct Lamport {
    clock: u64,
    /// The stamp of the message the open batch handles, if any.
    received: u64,
    open: Vec<Event>,
    batches: Vec<Batch>,
    record: bool,
}

impl Lamport {
    /// A recorder; without `record` only the clock runs.
    pub fn new(record: bool) -> Self {
        Lamport { record, ..Lamport::default() }
    }

    /// Adds an event to the open batch (built only when recording).
    pub fn push(&mut self, e: impl FnOnce() -> Event) {
        if self.record {
            self.open.push(e());
        }
    }

    /// The open batch handles a message stamped `stamp`.
    pub fn received(&mut self, stamp: u64) {
        self.received = self.received.max(stamp);
    }

    /// Closes the open batch (a handler call): ticks the clock and returns
    /// the stamp the batch's messages carry.
    pub fn close(&mut self) -> u64 {
        self.clock = self.clock.max(self.received) + 1;
        self.received = 0;
        if !self.open.is_empty() {
            self.batches.push((self.clock, std::mem::take(&mut self.open)));
        }
        self.clock
    }

    /// The last `n` events recorded (for a timeout's report).
    pub fn last_events(&self, n: usize) -> Vec<&Event> {
        let all = self.batches.iter().flat_map(|(_, b)| b).chain(&self.open);
        let v: Vec<&Event> = all.collect();
        v[v.len().saturating_sub(n)..].to_vec()
    }

    /// The clock's value.
    pub fn clock(&self) -> u64 {
        self.clock
    }

    /// The recorded batches (the open one closed first).
    pub fn into_batches(mut self) -> Vec<Batch> {
        if !self.open.is_empty() {
            self.close();
        }
        self.batches
    }
}

/// Merges the ranks' batches (index = rank) by (Lamport stamp, rank) into
/// one stream whose times are global sequence numbers (each batch's events
/// at the number of its first event), ending with `end` if the run is
/// `complete`.
pub fn merge(per_rank: Vec<Vec<Batch>>, complete: bool) -> Vec<Event> {
    let mut all: Vec<(u64, usize, Vec<Event>)> = per_rank
        .into_iter()
        .enumerate()
        .flat_map(|(rank, batches)| batches.into_iter().map(move |(l, b)| (l, rank, b)))
        .collect();
    all.sort_by_key(|&(l, rank, _)| (l, rank)); // stable: a rank's equal stamps keep their order
    let mut out = Vec::with_capacity(all.iter().map(|(_, _, b)| b.len()).sum::<usize>() + 1);
    for (_, _, batch) in all {
        let t = out.len() as u64;
        for mut e in batch {
            if let Some(time) = e.time_mut() {
                *time = t;
            }
            out.push(e);
        }
    }
    if complete {
        out.push(Event::End { t: out.len() as u64 });
    }
    out
}

/// A fault a test injects (`LBCHECK_MPI_FAULT=RANK:SLICES:exit|hang`, read
/// only by the driver): after `slices` work slices, rank `rank` exits
/// without a word, or stops answering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The rank that fails.
    pub rank: u32,
    /// After this many work slices.
    pub slices: u64,
    /// Exit (true) or hang.
    pub exit: bool,
}

impl std::str::FromStr for Fault {
    type Err = String;
    fn from_str(s: &str) -> Result<Fault, String> {
        let bad = || format!("LBCHECK_MPI_FAULT=`{s}`: expected RANK:SLICES:exit or RANK:SLICES:hang");
        let mut it = s.split(':');
        let (rank, slices, how) = (it.next(), it.next(), it.next());
        let (Some(rank), Some(slices), Some(how), None) = (rank, slices, how, it.next()) else { return Err(bad()) };
        let exit = match how {
            "exit" => true,
            "hang" => false,
            _ => return Err(bad()),
        };
        Ok(Fault { rank: rank.parse().map_err(|_| bad())?, slices: slices.parse().map_err(|_| bad())?, exit })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Kind;

    fn send(from: u32, to: u32, id: u64) -> Event {
        Event::Send { t: 0, from, to, id, kind: Kind::Request, energy: None, data: None }
    }

    fn recv(pe: u32, from: u32, id: u64) -> Event {
        Event::Recv { t: 0, pe, from, id, kind: Kind::Request, queue: Some(0), data: None }
    }

    /// Rank 1 sends at its first batch, rank 0 receives after ten local
    /// batches of its own; rank 0 answers, rank 1 receives: every `recv`
    /// follows its `send`, each rank's batches keep their order, and the
    /// times are sequence numbers.
    #[test]
    fn a_recv_follows_its_send_and_program_order_is_kept() {
        let (mut r0, mut r1) = (Lamport::new(true), Lamport::new(true));
        r1.push(|| send(1, 0, 1));
        let stamp = r1.close();
        for _ in 0..10 {
            r0.push(|| Event::Busy { t: 0, pe: 0 });
            r0.close();
        }
        r0.received(stamp);
        r0.push(|| recv(0, 1, 1));
        r0.push(|| send(0, 1, 2));
        let back = r0.close();
        r1.received(back);
        r1.push(|| recv(1, 0, 2));
        assert!(r1.close() > back && back > stamp);
        let merged = merge(vec![r0.into_batches(), r1.into_batches()], true);
        let pos = |f: &dyn Fn(&Event) -> bool| merged.iter().position(f).unwrap();
        assert!(pos(&|e| matches!(e, Event::Send { id: 1, .. })) < pos(&|e| matches!(e, Event::Recv { id: 1, .. })));
        assert!(pos(&|e| matches!(e, Event::Send { id: 2, .. })) < pos(&|e| matches!(e, Event::Recv { id: 2, .. })));
        let times: Vec<u64> = merged.iter().map(Event::time).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
        assert_eq!(merged.len(), 15);
        assert!(matches!(merged.last(), Some(Event::End { t: 14 })));
        // The recv batch's two events share the number of its first.
        let i = pos(&|e| matches!(e, Event::Recv { id: 1, .. }));
        assert_eq!(merged[i].time(), merged[i + 1].time());
        assert_eq!(merged[i].time(), i as u64);
    }

    #[test]
    fn equal_stamps_order_by_rank_and_the_clock_runs_without_recording() {
        let mut quiet = Lamport::new(false);
        quiet.push(|| unreachable!("not built when not recording"));
        assert_eq!((quiet.close(), quiet.close()), (1, 2));
        let (mut a, mut b) = (Lamport::new(true), Lamport::new(true));
        a.push(|| Event::Idle { t: 0, pe: 1 });
        b.push(|| Event::Idle { t: 0, pe: 0 });
        assert_eq!(a.close(), b.close());
        let merged = merge(vec![b.into_batches(), a.into_batches()], false);
        assert!(matches!(merged[..], [Event::Idle { pe: 0, t: 0 }, Event::Idle { pe: 1, t: 1 }]));
    }

    #[test]
    fn faults_parse_and_bad_ones_are_named() {
        assert_eq!("2:40:exit".parse(), Ok(Fault { rank: 2, slices: 40, exit: true }));
        assert_eq!("0:1:hang".parse(), Ok(Fault { rank: 0, slices: 1, exit: false }));
        for bad in ["", "2", "2:4", "2:4:die", "x:4:exit", "2:4:exit:1"] {
            assert!(bad.parse::<Fault>().unwrap_err().contains("LBCHECK_MPI_FAULT"), "{bad}");
        }
    }

    #[test]
    fn the_config_is_validated() {
        assert!(MpiConfig { pes: 4, ..MpiConfig::default() }.validate().is_ok());
        assert!(MpiConfig { dt: 0, ..MpiConfig::default() }.validate().unwrap_err().to_string().contains("--dt"));
        let zero = MpiConfig { timeout: Duration::ZERO, ..MpiConfig::default() };
        assert!(zero.validate().unwrap_err().to_string().contains("--timeout"));
    }
}
