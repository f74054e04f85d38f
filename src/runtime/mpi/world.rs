//! The MPI driver proper (feature `mpi`): one [`Pe`] per rank, real MPI
//! messages, the loop, the end and the gathering of [`super`]'s module docs.
//! The handler calls and work slices are the shared PE loop's
//! (`runtime::pe_loop`); what is MPI's is here: the tags, the probing, the
//! start barrier, the deadline, the test's fault and the gathering.

use std::time::{Duration, Instant};

use mpi::environment::Universe;
use mpi::point_to_point::MatchedReceiveVec;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Tag;

use super::{merge, Fault, Lamport, MpiConfig, MpiRun, RankRecord};
use crate::event::{Event, Kind};
use crate::problem::wire::{Put, Reader};
use crate::problem::Task;
use crate::protocol::initial::assign;
use crate::protocol::{Balancer, Detector, Msg, Pe, PeId};
use crate::runtime::mailbox::Envelope;
use crate::runtime::pe_loop::{Link, PeLoop};

/// A protocol message: envelope (Lamport stamp, trace id), then the `Msg`.
const TAG_MSG: Tag = 1;
/// A rank learnt of termination and sent everything it will send.
const TAG_FIN: Tag = 2;
/// A rank's [`RankRecord`], to rank 0, as JSON.
const TAG_RECORD: Tag = 3;
/// The buffer attached for `MPI_Bsend`: room for every message in flight.
const BSEND_BYTES: usize = 64 << 20;
/// Consecutive empty probes of an idle rank before it naps.
const SPINS: u32 = 64;
/// An idle rank's nap between probes (the ranks may share cores).
const NAP: Duration = Duration::from_micros(50);

/// Initialises MPI (once per process) and attaches the buffer of its
/// buffered sends. `None` if MPI was initialised already.
pub fn init() -> Option<Universe> {
    let mut universe = mpi::initialize()?;
    universe.set_buffer_size(BSEND_BYTES);
    Some(universe)
}

/// (this rank, number of ranks) of the world communicator (MPI initialised).
pub fn rank_and_size() -> (u32, u32) {
    let world = SimpleCommunicator::world();
    (world.rank() as u32, world.size() as u32)
}

/// Runs this rank's PE (built by `make`) of a run of `root` on `cfg.pes`
/// ranks, recording its events if `record`; rank 0 gathers every rank's.
/// Collective: every rank calls it. A timeout aborts the job.
pub fn run<B, D>(cfg: &MpiConfig, root: Task, record: bool, make: impl Fn(PeId) -> Pe<B, D>) -> Result<MpiRun, String>
where
    B: Balancer<Task = Task>,
    D: Detector<Task>,
{
    if !mpi::environment::is_initialized() {
        return Err("MPI is not initialised: run `lbcheck mpi` under mpirun".into());
    }
    let world = SimpleCommunicator::world();
    let (rank, size) = (world.rank() as u32, world.size() as u32);
    if size != cfg.pes {
        return Err(format!("the run is for {} PEs but mpirun started {size} ranks", cfg.pes));
    }
    let fault = match std::env::var("LBCHECK_MPI_FAULT") {
        Ok(s) => Some(s.parse::<Fault>()?).filter(|f| f.rank == rank),
        Err(_) => None,
    };
    let template = root.clone();
    let start =
        assign(root, cfg.pes, cfg.initial_split, cfg.seed).into_iter().nth(rank as usize).expect("a start a rank");
    let link = Mpi::new(cfg, world, template, record, fault);
    let mut me = Rank::new(rank, cfg.pes, cfg.seed, cfg.dt, make(rank), link);
    me.start(start); // before the start barrier, as the threaded driver starts every PE before any thread runs
    me.link.start_barrier();
    me.run();
    Ok(me.finish())
}

/// A rank: the shared loop over MPI.
type Rank<B, D> = PeLoop<Task, B, D, Mpi>;

/// The MPI side of a rank: the communicator, the Lamport recorder, the
/// deadline, what it knows of the other ranks, the test's fault.
struct Mpi {
    world: SimpleCommunicator,
    rec: Lamport,
    /// A task to decode messages against.
    template: Task,
    fault: Option<Fault>,
    /// Work slices done (for the fault).
    slices: u64,
    timeout: Duration,
    start: Instant,
    deadline: Instant,
    /// Per rank: its `fin` came.
    fin: Vec<bool>,
    /// Rank 0: per rank, its record.
    records: Vec<Option<RankRecord>>,
    /// Per rank: the last message from it (seconds since the start, kind, id).
    heard: Vec<Option<(f64, Kind, u64)>>,
    /// Messages dropped because this rank had terminated.
    dropped: u64,
    buf: Vec<u8>,
}

impl Mpi {
    fn new(cfg: &MpiConfig, world: SimpleCommunicator, template: Task, record: bool, fault: Option<Fault>) -> Self {
        let now = Instant::now();
        let pes = cfg.pes as usize;
        Mpi {
            world,
            rec: Lamport::new(record),
            template,
            fault,
            slices: 0,
            timeout: cfg.timeout,
            start: now,
            deadline: now + cfg.timeout,
            fin: vec![false; pes],
            records: (0..pes).map(|_| None).collect(),
            heard: vec![None; pes],
            dropped: 0,
            buf: Vec::new(),
        }
    }

    /// Waits for every rank to have started (rank 0 computes the sequential
    /// reference first); the timeout counts from here.
    fn start_barrier(&mut self) {
        let mut req = self.world.immediate_barrier();
        loop {
            match req.test() {
                Ok(_) => break,
                Err(r) => req = r,
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        self.start = Instant::now();
        self.deadline = self.start + self.timeout;
    }

    /// The test's fault (`LBCHECK_MPI_FAULT`), once its slices are done.
    fn inject_fault(&self, me: PeId) {
        let Some(f) = self.fault.filter(|f| self.slices >= f.slices) else { return };
        if f.exit {
            eprintln!("lbcheck mpi: rank {me}: LBCHECK_MPI_FAULT: exiting after {} slices", self.slices);
            std::process::exit(3);
        }
        eprintln!("lbcheck mpi: rank {me}: LBCHECK_MPI_FAULT: no longer answering after {} slices", self.slices);
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
}

impl Link<Task> for Mpi {
    type Stamp = u64;

    fn note(&mut self, event: impl FnOnce() -> Event) {
        self.rec.push(event);
    }

    /// The batch's Lamport stamp (the start's too: the merge's times are
    /// sequence numbers).
    fn close(&mut self, _at_start: bool) -> u64 {
        self.rec.close()
    }

    /// `MPI_Bsend` of the envelope (Lamport stamp, trace id) and the message.
    fn send(&mut self, to: PeId, stamp: u64, env: Envelope<Task>) {
        self.buf.clear();
        self.buf.put_u64(stamp);
        self.buf.put_u64(env.id);
        env.msg.encode(&mut self.buf);
        self.world.process_at_rank(to as i32).buffered_send_with_tag(&self.buf[..], TAG_MSG);
    }

    fn worked<B: Balancer<Task = Task>, D: Detector<Task>>(lp: &mut Rank<B, D>) {
        lp.link.slices += 1;
        lp.link.inject_fault(lp.me);
    }

    /// `MPI_Iprobe` until none is left.
    fn receive<B: Balancer<Task = Task>, D: Detector<Task>>(lp: &mut Rank<B, D>) {
        while !lp.pe.terminated() && lp.receive_one() {}
    }
}

impl<B, D> Rank<B, D>
where
    B: Balancer<Task = Task>,
    D: Detector<Task>,
{
    fn run(&mut self) {
        let mut empty = 0;
        while !self.pe.terminated() {
            if self.pe.has_work() {
                self.slice();
                empty = 0;
            } else if self.receive_one() {
                empty = 0;
            } else {
                empty = self.nap(empty);
            }
            self.check_deadline("global termination");
        }
    }

    /// Backs off an idle rank: yields, then naps after [`SPINS`] empty probes.
    fn nap(&self, empty: u32) -> u32 {
        if empty < SPINS {
            std::thread::yield_now();
        } else {
            std::thread::sleep(NAP);
        }
        empty + 1
    }

    /// Receives and handles one message if one is there.
    fn receive_one(&mut self) -> bool {
        let Some((msg, status)) = self.link.world.any_process().immediate_matched_probe() else { return false };
        let (from, tag) = (status.source_rank() as u32, status.tag());
        let (bytes, _) = (msg, status).matched_receive_vec::<u8>();
        self.dispatch(from, tag, bytes);
        true
    }

    fn dispatch(&mut self, from: PeId, tag: Tag, bytes: Vec<u8>) {
        match tag {
            TAG_MSG => self.protocol_message(from, &bytes),
            TAG_FIN => self.link.fin[from as usize] = true,
            TAG_RECORD => match serde_json::from_slice::<RankRecord>(&bytes) {
                Ok(r) => self.link.records[from as usize] = Some(r),
                Err(e) => self.fail(&format!("rank {from}'s record is malformed: {e}")),
            },
            _ => self.fail(&format!("a message from rank {from} with unknown tag {tag}")),
        }
    }

    fn protocol_message(&mut self, from: PeId, bytes: &[u8]) {
        let mut r = Reader::new(bytes);
        let decoded = (|| {
            let (stamp, id) = (r.u64()?, r.u64()?);
            let msg = Msg::decode(&self.link.template, &mut r)?;
            r.finish().map(|_| (stamp, id, msg))
        })();
        let (stamp, id, msg) = decoded.unwrap_or_else(|e| self.fail(&format!("from rank {from}: {e}")));
        self.link.heard[from as usize] = Some((self.link.start.elapsed().as_secs_f64(), msg.kind(), id));
        if self.pe.terminated() {
            self.link.dropped += 1; // as on threads: a PE that stopped drops what still comes
            return;
        }
        self.link.rec.received(stamp);
        self.deliver(Envelope { from, id, msg });
    }

    /// After termination: `fin` to every rank, every rank's `fin` awaited
    /// (dropping what still comes), the records gathered at rank 0.
    fn finish(mut self) -> MpiRun {
        let terminated = self.link.start.elapsed();
        for q in (0..self.pes).filter(|&q| q != self.me) {
            self.link.world.process_at_rank(q as i32).buffered_send_with_tag(&[0u8][..], TAG_FIN);
        }
        self.link.fin[self.me as usize] = true;
        self.wait_until("every rank's fin (that it learnt of termination)", |r| r.link.fin.iter().all(|&f| f));
        let all_done = self.link.start.elapsed();
        let (me, units) = (self.me, self.units);
        let record = RankRecord { units, secs: terminated.as_secs_f64(), batches: self.take_batches() };
        if me != 0 {
            self.send_record(&record);
            return MpiRun { rank: me, elapsed: terminated, units: vec![units], events: None };
        }
        self.link.records[0] = Some(record);
        self.wait_until("every rank's events", |r| r.link.records.iter().all(Option::is_some));
        let recorded = self.link.rec.record;
        let records: Vec<RankRecord> = self.link.records.into_iter().map(|r| r.expect("every record")).collect();
        let units = records.iter().map(|r| r.units).collect();
        let events = recorded.then(|| merge(records.into_iter().map(|r| r.batches).collect(), true));
        MpiRun { rank: 0, elapsed: all_done, units, events }
    }

    fn take_batches(&mut self) -> Vec<super::Batch> {
        let record = self.link.rec.record;
        std::mem::replace(&mut self.link.rec, Lamport::new(record)).into_batches()
    }

    /// Sends this rank's record to rank 0 (non-blocking, so a dead rank 0
    /// ends in the timeout, not a hang).
    fn send_record(&self, record: &RankRecord) {
        let bytes = serde_json::to_vec(record).expect("a record serialises");
        mpi::request::scope(|scope| {
            let mut req = self.link.world.process_at_rank(0).immediate_send_with_tag(scope, &bytes[..], TAG_RECORD);
            loop {
                match req.test() {
                    Ok(_) => break,
                    Err(r) => req = r,
                }
                self.check_deadline("rank 0 taking its events");
                std::thread::sleep(Duration::from_micros(100));
            }
        });
    }

    /// Receives (and handles) messages until `done`.
    fn wait_until(&mut self, what: &str, done: impl Fn(&Self) -> bool) {
        let mut empty = 0;
        while !done(self) {
            if self.receive_one() {
                empty = 0;
            } else {
                empty = self.nap(empty);
            }
            self.check_deadline(what);
        }
    }

    /// Past the deadline: says what this rank knows and aborts the job.
    fn check_deadline(&self, waiting_for: &str) {
        if Instant::now() >= self.link.deadline {
            self.fail(&format!(
                "no {waiting_for} within --timeout {} s (a rank died or never answers?)",
                self.link.timeout.as_secs()
            ));
        }
    }

    /// Reports what this rank knows on stderr and aborts the whole job.
    fn fail(&self, why: &str) -> ! {
        let mut report = format!("lbcheck mpi: rank {}: {why}; aborting the run\n", self.me);
        report += &format!(
            "  rank {}: {} units done, {}, Lamport clock {}, {} messages dropped after termination\n",
            self.me,
            self.units,
            if self.pe.terminated() { "terminated" } else { "not terminated" },
            self.link.rec.clock(),
            self.link.dropped
        );
        for e in self.link.rec.last_events(3) {
            report += &format!("  rank {} last event: {}\n", self.me, serde_json::to_string(e).unwrap_or_default());
        }
        for q in (0..self.pes).filter(|&q| q != self.me) {
            let fin = if self.link.fin[q as usize] { "; it sent fin" } else { "" };
            report += &match self.link.heard[q as usize] {
                Some((at, kind, id)) => {
                    format!("  rank {q}: last message from it: `{}` id {id} at {at:.3} s{fin}\n", kind.name())
                }
                None => format!("  rank {q}: no protocol message from it{fin}\n"),
            };
        }
        eprint!("{report}");
        self.link.world.abort(1)
    }
}
