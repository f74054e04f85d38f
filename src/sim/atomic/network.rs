//! The network of 004's atomic model (004 §2): per node a message queue
//! (FIFO, or a priority queue by cost for branch-and-bound, 004 §4.1) and a
//! send buffer of one message; per step a send phase (an empty send buffer
//! takes the head of the queue; the message "becomes ready" at that step)
//! and a transmission phase (per destination, the arbiter picks one ready
//! message and moves it to the destination's receive buffer, clearing its
//! send buffer). Blocked messages stay in their send buffer: they cannot be
//! retrieved (004-2). The complete network of Karp and Zhang (004 §1) is the
//! same with unbounded buffers: every queued message is transmitted at the
//! next step.
//!
//! The network is generic over the payload: the atomic machine moves
//! protocol messages through it, message scattering (004 §3) bare ones.
//!
//! Only *live* ports (a message queued or in the send buffer) are visited,
//! in ascending order as a full sweep would: a step costs O(live ports +
//! P/64), not O(P), and the arbiter's choices come in the same order.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, VecDeque};

use bit_set::BitSet;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

pub use crate::sim::script::Script;

use super::Arbiter;
use crate::protocol::PeId;

/// A message with its routing and its urgency.
#[derive(Clone, Debug)]
pub struct Envelope<M> {
    /// Unique id (the `send` event's).
    pub id: u64,
    /// Source node.
    pub from: PeId,
    /// Destination node.
    pub to: PeId,
    /// Urgency, lower first: a branch-and-bound vertex's cost (004 §6),
    /// else its generation. Orders a priority queue; `anti-critical` picks
    /// the highest.
    pub key: u64,
    /// The payload.
    pub msg: M,
}

/// A message in a send buffer since step `ready`.
#[derive(Clone, Debug)]
pub struct Ready<M> {
    /// The message.
    pub env: Envelope<M>,
    /// The step it entered the send buffer.
    pub ready: u64,
}

/// How a node's message queue orders its messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discipline {
    /// First in, first out.
    Fifo,
    /// Lowest key first, ties by id (004 §4.1's priority message queue).
    Priority,
}

/// The network's rules, where a variant may change them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Who wins a destination.
    pub arbiter: Arbiter,
    /// The queue discipline.
    pub discipline: Discipline,
    /// Messages a node receives per step (`None`: all, the complete network).
    pub receives: Option<usize>,
    /// A blocked message is put back at the queue's tail and replaced by the
    /// head (a bug: 004-2 forbids it).
    pub retract: bool,
}

impl Rules {
    /// 004 §2: one receive per step, no retraction.
    pub fn atomic(arbiter: Arbiter, discipline: Discipline) -> Rules {
        Rules { arbiter, discipline, receives: Some(1), retract: false }
    }

    /// 004 §1's complete network: unbounded buffers and receives.
    pub fn complete(discipline: Discipline) -> Rules {
        Rules { arbiter: Arbiter::Fifo, discipline, receives: None, retract: false }
    }
}

/// Who decides the arbitration choices left open: a seeded stream, or a
/// script (the exhaustive adversary).
pub enum Chooser {
    /// Seeded random choices.
    Seeded(ChaCha8Rng),
    /// Scripted choices.
    Script(Script),
}

impl Chooser {
    /// One of `k ≥ 1` options.
    fn choose(&mut self, k: usize) -> usize {
        if k == 1 {
            return 0;
        }
        match self {
            Chooser::Seeded(rng) => rng.random_range(0..k),
            Chooser::Script(s) => s.choose(k),
        }
    }
}

struct Port<M> {
    fifo: VecDeque<Envelope<M>>,
    heap: BinaryHeap<ByKey<M>>,
    buf: Vec<Ready<M>>,
}

/// A queued message ordered by (key, id), lowest first.
struct ByKey<M>(Envelope<M>);

impl<M> ByKey<M> {
    fn rank(&self) -> Reverse<(u64, u64)> {
        Reverse((self.0.key, self.0.id))
    }
}

impl<M> PartialEq for ByKey<M> {
    fn eq(&self, o: &Self) -> bool {
        self.rank() == o.rank()
    }
}
impl<M> Eq for ByKey<M> {}
impl<M> PartialOrd for ByKey<M> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<M> Ord for ByKey<M> {
    fn cmp(&self, o: &Self) -> Ordering {
        self.rank().cmp(&o.rank())
    }
}

/// A message in a send buffer: (source, index in its buffer).
type Slot = (PeId, usize);

/// The network of `P` nodes.
pub struct Network<M> {
    rules: Rules,
    ports: Vec<Port<M>>,
    chooser: Chooser,
    queued: usize,
    contenders: Vec<Vec<Slot>>,
    /// Ports with a message queued or buffered.
    live: BitSet,
}

impl<M> Network<M> {
    /// `pes` nodes with empty queues and buffers.
    pub fn new(pes: u32, rules: Rules, chooser: Chooser) -> Self {
        let port = || Port { fifo: VecDeque::new(), heap: BinaryHeap::new(), buf: Vec::new() };
        let ports = (0..pes).map(|_| port()).collect();
        let contenders = (0..pes).map(|_| Vec::new()).collect();
        Network { rules, ports, chooser, queued: 0, contenders, live: BitSet::with_capacity(pes as usize) }
    }

    /// The chooser, with the choices it made.
    pub fn into_chooser(self) -> Chooser {
        self.chooser
    }

    /// True if no message is queued or in a send buffer.
    pub fn is_empty(&self) -> bool {
        self.queued == 0
    }

    /// Puts a message into its source's queue.
    pub fn enqueue(&mut self, env: Envelope<M>) {
        self.queued += 1;
        self.live.insert(env.from as usize);
        let port = &mut self.ports[env.from as usize];
        match self.rules.discipline {
            Discipline::Fifo => port.fifo.push_back(env),
            Discipline::Priority => port.heap.push(ByKey(env)),
        }
    }

    /// Step `t`'s send phase: every empty send buffer takes its queue's
    /// head (the complete network: the whole queue).
    pub fn send_phase(&mut self, t: u64) {
        let (unbounded, retract) = (self.rules.receives.is_none(), self.rules.retract);
        for src in self.live.iter() {
            let port = &mut self.ports[src];
            if retract && !port.buf.is_empty() && port.has_queued() {
                let blocked = port.buf.pop().expect("nonempty").env;
                port.fifo.push_back(blocked);
            }
            while (unbounded || port.buf.is_empty()) && port.has_queued() {
                let env = port.pop();
                port.buf.push(Ready { env, ready: t });
            }
        }
    }

    /// Step `t`'s transmission phase: the messages delivered, by destination
    /// (each with the step it became ready).
    pub fn transmit(&mut self) -> Vec<Ready<M>> {
        let mut touched = Vec::new();
        for src in self.live.iter() {
            for (slot, r) in self.ports[src].buf.iter().enumerate() {
                let list = &mut self.contenders[r.env.to as usize];
                if list.is_empty() {
                    touched.push(r.env.to);
                }
                list.push((src as PeId, slot));
            }
        }
        touched.sort_unstable();
        let mut won = Vec::new();
        for to in touched {
            let mut list = std::mem::take(&mut self.contenders[to as usize]);
            let winners = self.rules.receives.unwrap_or(list.len()).min(list.len());
            for _ in 0..winners {
                let i = self.pick(&list);
                won.push(list.swap_remove(i));
            }
            list.clear();
            self.contenders[to as usize] = list;
        }
        won.sort_unstable_by(|a, b| b.cmp(a)); // later slots of a buffer first: indices stay valid
        let mut delivered: Vec<Ready<M>> = won.into_iter().map(|w| self.take(w)).collect();
        delivered.sort_unstable_by_key(|r| (r.env.to, r.env.id));
        self.queued -= delivered.len();
        delivered
    }

    fn take(&mut self, (src, slot): Slot) -> Ready<M> {
        let port = &mut self.ports[src as usize];
        let r = port.buf.remove(slot);
        if port.buf.is_empty() && !port.has_queued() {
            self.live.remove(src as usize);
        }
        r
    }

    fn ready(&self, (src, slot): Slot) -> &Ready<M> {
        &self.ports[src as usize].buf[slot]
    }

    /// The arbiter's pick among `list` (004 §2).
    fn pick(&mut self, list: &[Slot]) -> usize {
        match self.rules.arbiter {
            Arbiter::Fifo => self.best(list, |r| Reverse(r.ready)),
            Arbiter::Lifo => self.best(list, |r| r.ready),
            Arbiter::FixedPriority => self.best(list, |r| Reverse(r.env.from)),
            Arbiter::AntiCritical => self.best(list, |r| r.env.key),
            Arbiter::Random | Arbiter::Adversary => self.chooser.choose(list.len()),
        }
    }

    /// An element of `list` with the largest `rank`, ties by the chooser.
    fn best<K: Ord>(&mut self, list: &[Slot], rank: impl Fn(&Ready<M>) -> K) -> usize {
        let top = list.iter().map(|&w| rank(self.ready(w))).max().expect("contenders");
        let ties: Vec<usize> = (0..list.len()).filter(|&i| rank(self.ready(list[i])) == top).collect();
        ties[self.chooser.choose(ties.len())]
    }
}

impl<M> Port<M> {
    fn has_queued(&self) -> bool {
        !self.fifo.is_empty() || !self.heap.is_empty()
    }

    fn pop(&mut self) -> Envelope<M> {
        match self.fifo.pop_front() {
            Some(e) => e,
            None => self.heap.pop().expect("queued").0,
        }
    }
}
