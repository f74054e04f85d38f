//! `atomic_conformance` (004 §2, S-8): the run obeys the atomic model.
//!
//! Balancer messages (`work`, `request`, `reject`) take the data network:
//! each waits in its sender's queue, enters the sender's send buffer of one
//! message at some step r (its `recv` carries `data: {"ready": r}`), and is
//! moved by the arbiter into the receiver's buffer at the step of its
//! `recv`. For every such `recv` at step t:
//!
//! - `ready` is given, after the step of the `send` and no later than t;
//! - a node receives at most one message per step;
//! - a node's send buffer holds one message, which cannot be taken back
//!   (004-2): a message becomes ready only after the previous message of
//!   its sender was received, and messages leave a sender in the order it
//!   sent them (FIFO queue: a retracted message would be overtaken) or,
//!   when the header's balancer is `priority-bnb` (004 §4.1's priority
//!   message queue), each message has the least `data.key` (its `send`'s)
//!   among its sender's messages sent before its ready step and still
//!   waiting;
//! - with `run.arbiter` `fifo` (004-4), a message ready earlier is
//!   received no later than one ready later for the same receiver.
//!
//! Applies to traces with `clock: step` on the atomic machine; on
//! `run.machine` `complete` (unbounded buffers, Karp and Zhang) only the
//! first rule does; for any other clock the verdict says "not applicable".
//! Detector messages take the control network and are not checked here.

use std::collections::{BTreeSet, VecDeque};

use super::{Book, Metrics, Property, Verdict};
use crate::event::{Clock, Event, Kind, TraceHeader};

/// What applies to the trace.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Model {
    /// Not an atomic-model trace.
    Other(Clock),
    /// The complete network: readiness only.
    Complete,
    /// The atomic machine; `fifo` if the arbiter is declared FIFO,
    /// `by_key` if the message queues are priority queues.
    Atomic { fifo: bool, by_key: bool },
}

/// How a run breaks the atomic model (the `atomic_conformance` failures).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
enum Breach {
    /// A data message's `recv` without `data.ready`.
    #[error("message {id} from PE {from} has no `data.ready` step")]
    NoReady { id: u64, from: u32 },
    /// Ready before it was sent, or after it was received.
    #[error("message {id} sent at step {sent}, ready at {ready}, received at {t}: ready must be in {}..={t}", .sent + 1)]
    Ready { id: u64, sent: u64, ready: u64, t: u64 },
    /// A message left its sender before an older one (004-2).
    #[error(
        "PE {from}'s message {id} left before its older message {older}: a blocked message was taken back (004-2)"
    )]
    TakenBack { from: u32, id: u64, older: u64 },
    /// A message became ready while the previous one was in the send buffer.
    #[error("PE {from}'s message {id} was ready at step {ready}, while its previous message was in the send buffer until step {previous} (one message per send buffer)")]
    SendBuffer { from: u32, id: u64, ready: u64, previous: u64 },
    /// A node received more than one message in a step.
    #[error("PE {pe} received {count} messages at step {t} (one per step)")]
    Receipts { pe: u32, count: u32, t: u64 },
    /// FIFO arbiter: a message ready later was received first (ready at
    /// `later`, received at `at`).
    #[error("FIFO arbiter: message {id} to PE {pe}, ready at step {ready}, was received at {t}, after a message ready later (at {later}) was received at {at}")]
    Fifo { id: u64, pe: u32, ready: u64, t: u64, later: u64, at: u64 },
    /// Priority queue: a `send` without `data.key`.
    #[error("message {0}'s `send` has no `data.key` (priority message queue)")]
    NoKey(u64),
    /// Priority queue: a message entered the send buffer over one of a smaller key.
    #[error("message {id} (key {key}) entered the send buffer at step {ready} while message {other} (key {other_key}) was queued: not a priority queue (004 §4.1)")]
    NotLeastKey { id: u64, key: u64, ready: u64, other: u64, other_key: u64 },
}

/// One node's view.
#[derive(Clone, Default)]
struct Node {
    /// Data messages sent and not yet received, in send order: (id, step, key).
    pending: VecDeque<(u64, u64, Option<u64>)>,
    /// Over priority queues, the keyed ones among them by key: (key, step, id).
    by_key: BTreeSet<(u64, u64, u64)>,
    /// Step of the last receipt of a message this node sent.
    last_out: Option<u64>,
    /// Step of the last receipt at this node, and how many at that step.
    last_in: (u64, u32),
    /// Largest `ready` of a message received here, and its receipt step.
    max_ready_in: Option<(u64, u64)>,
}

/// State of the `atomic_conformance` check.
pub(super) struct AtomicConformance {
    model: Model,
    nodes: Vec<Node>,
    received: u64,
    violation: Option<(usize, String)>,
}

impl AtomicConformance {
    /// False when the header says the check does not apply (then the
    /// [`super::Checker`] does not keep it: its events change nothing).
    pub(super) fn applies(&self) -> bool {
        !matches!(self.model, Model::Other(_))
    }

    /// For the run of `header` (clock, machine, arbiter, PEs).
    pub(super) fn new(header: &TraceHeader) -> AtomicConformance {
        let run = header.run_record();
        let run = run.as_deref();
        let (machine, arbiter) = (run.and_then(|r| r.machine.as_deref()), run.and_then(|r| r.arbiter.as_deref()));
        let model = match (header.clock, machine) {
            (Clock::Step, Some("complete")) => Model::Complete,
            (Clock::Step, _) => {
                Model::Atomic { fifo: arbiter == Some("fifo"), by_key: header.balancer == "priority-bnb" }
            }
            (clock, _) => Model::Other(clock),
        };
        let nodes = match model {
            Model::Other(_) => Vec::new(), // nothing to check: no per-node records
            _ => vec![Node::default(); header.pes.min(super::MAX_PES) as usize],
        };
        AtomicConformance { model, nodes, received: 0, violation: None }
    }

    fn on_send(&mut self, from: u32, id: u64, t: u64, key: Option<u64>) {
        let by_key = matches!(self.model, Model::Atomic { by_key: true, .. });
        if let Some(n) = self.nodes.get_mut(from as usize) {
            n.pending.push_back((id, t, key));
            if let Some(key) = key.filter(|_| by_key) {
                n.by_key.insert((key, t, id));
            }
        }
    }

    fn on_recv(&mut self, (pe, from, id, t): (u32, u32, u64, u64), ready: Option<u64>) -> Result<(), Breach> {
        self.received += 1;
        let ready = ready.ok_or(Breach::NoReady { id, from })?;
        let Some(sender) = self.nodes.get_mut(from as usize) else { return Ok(()) };
        let Some(pos) = position(&sender.pending, id) else { return Ok(()) };
        let (_, sent, key) = sender.pending[pos];
        if ready <= sent || ready > t {
            return Err(Breach::Ready { id, sent, ready, t });
        }
        let Model::Atomic { fifo, by_key } = self.model else {
            sender.pending.remove(pos);
            return Ok(());
        };
        match by_key {
            true => least_key(&sender.by_key, id, ready, key)?,
            false if pos > 0 => {
                let (older, _, _) = sender.pending[0];
                return Err(Breach::TakenBack { from, id, older });
            }
            false => {}
        }
        if let Some(previous) = sender.last_out.filter(|&p| ready <= p) {
            return Err(Breach::SendBuffer { from, id, ready, previous });
        }
        sender.pending.remove(pos);
        if let Some(key) = key.filter(|_| by_key) {
            sender.by_key.remove(&(key, sent, id));
        }
        sender.last_out = Some(t);
        self.into_node(pe, id, t, ready, fifo)
    }

    /// The receiver's rules: one receipt per step; FIFO order.
    fn into_node(&mut self, pe: u32, id: u64, t: u64, ready: u64, fifo: bool) -> Result<(), Breach> {
        let Some(n) = self.nodes.get_mut(pe as usize) else { return Ok(()) };
        n.last_in = if n.last_in.0 == t { (t, n.last_in.1 + 1) } else { (t, 1) };
        if n.last_in.1 > 1 {
            return Err(Breach::Receipts { pe, count: n.last_in.1, t });
        }
        if let Some((later, at)) = n.max_ready_in.filter(|&(r, at)| fifo && ready < r && t > at) {
            return Err(Breach::Fifo { id, pe, ready, t, later, at });
        }
        if n.max_ready_in.is_none_or(|(r, _)| ready > r) {
            n.max_ready_in = Some((ready, t));
        }
        Ok(())
    }
}

/// Where message `id` waits in `pending` (send order): found by binary
/// search when ids rise with sends, as the simulators number them, else
/// by a scan (a trace may number its messages in any order).
fn position(pending: &VecDeque<(u64, u64, Option<u64>)>, id: u64) -> Option<usize> {
    match pending.binary_search_by_key(&id, |&(i, _, _)| i) {
        Ok(pos) => Some(pos),
        Err(_) => pending.iter().position(|&(i, _, _)| i == id),
    }
}

/// Over a priority queue: message `id` (key `key`), ready at `ready`, has
/// the least key among the messages its sender sent before `ready`.
/// `waiting` holds its sender's keyed messages not yet received, by key:
/// only those of a smaller key are looked at (in a correct run, the few
/// sent while it sat in the send buffer).
fn least_key(waiting: &BTreeSet<(u64, u64, u64)>, id: u64, ready: u64, key: Option<u64>) -> Result<(), Breach> {
    let key = key.ok_or(Breach::NoKey(id))?;
    let smaller = waiting.range(..(key, 0, 0));
    match smaller.filter(|&&(_, sent, i)| i != id && sent < ready).next() {
        Some(&(other_key, _, other)) => Err(Breach::NotLeastKey { id, key, ready, other, other_key }),
        None => Ok(()),
    }
}

fn data_network(kind: Kind) -> bool {
    matches!(kind, Kind::Work | Kind::Request | Kind::Reject)
}

impl Property for AtomicConformance {
    const NAME: &'static str = "atomic_conformance";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, _: &Book) {
        if self.violation.is_some() || matches!(self.model, Model::Other(_)) {
            return;
        }
        match e {
            Event::Send { t, from, id, kind, data, .. } if data_network(*kind) => {
                let key = data.as_deref().and_then(|d| d.get("key")).and_then(serde_json::Value::as_u64);
                self.on_send(*from, *id, *t, key)
            }
            Event::Recv { t, pe, from, id, kind, data, .. } if data_network(*kind) => {
                let ready = data.as_deref().and_then(|d| d.get("ready")).and_then(serde_json::Value::as_u64);
                if let Err(why) = self.on_recv((*pe, *from, *id, *t), ready) {
                    self.violation = Some((line, format!("line {line}: {why}")));
                }
            }
            _ => {}
        }
    }

    fn finish(self, _: &Metrics, _: &Book) -> Verdict {
        let what = match self.model {
            Model::Other(clock) => {
                return Verdict::pass(format!("not applicable: times are {clock}, not steps of 004's atomic model"))
            }
            Model::Complete => "the complete network: readiness only",
            Model::Atomic { fifo, by_key } => match (fifo, by_key) {
                (true, false) => "one receipt per node per step, send buffers of one in send order, FIFO arbiter",
                (false, false) => "one receipt per node per step, send buffers of one in send order",
                (true, true) => {
                    "one receipt per node per step, send buffers of one fed by priority queues, FIFO arbiter"
                }
                (false, true) => "one receipt per node per step, send buffers of one fed by priority queues",
            },
        };
        match self.violation {
            Some((line, why)) => Verdict::fail(why, Some(line)),
            None => Verdict::pass(format!("{} data-network receipts obey {what}", self.received)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::header;
    use super::*;

    #[test]
    fn breaches_are_typed() {
        let mut a = AtomicConformance::new(&TraceHeader { clock: Clock::Step, ..header(2) });
        a.on_send(0, 1, 1, None);
        assert_eq!(a.on_recv((1, 0, 1, 3), None), Err(Breach::NoReady { id: 1, from: 0 }));
        assert_eq!(a.on_recv((1, 0, 1, 3), Some(5)), Err(Breach::Ready { id: 1, sent: 1, ready: 5, t: 3 }));
        let msg = "message 1 sent at step 1, ready at 5, received at 3: ready must be in 2..=3";
        assert_eq!(a.on_recv((1, 0, 1, 3), Some(5)).unwrap_err().to_string(), msg);
        a.on_send(0, 2, 1, None);
        assert_eq!(a.on_recv((1, 0, 2, 3), Some(2)), Err(Breach::TakenBack { from: 0, id: 2, older: 1 }));
        assert_eq!(a.on_recv((1, 0, 1, 3), Some(2)), Ok(()));
        a.on_send(1, 3, 1, None);
        assert_eq!(a.on_recv((0, 1, 3, 3), Some(2)), Ok(()));
        a.on_send(1, 4, 2, None);
        assert_eq!(a.on_recv((0, 1, 4, 3), Some(3)), Err(Breach::SendBuffer { from: 1, id: 4, ready: 3, previous: 3 }));
    }

    /// Over priority queues, ids in any order: the least key waiting
    /// before the ready step goes first; one sent later does not count.
    #[test]
    fn a_priority_queue_sends_its_least_key_first() {
        let pq = TraceHeader { clock: Clock::Step, balancer: "priority-bnb".into(), ..header(2) };
        let mut a = AtomicConformance::new(&pq);
        a.on_send(0, 9, 1, Some(50));
        a.on_send(0, 7, 1, Some(20));
        a.on_send(0, 8, 3, Some(10)); // sent after 7 became ready
        assert_eq!(a.on_recv((1, 0, 7, 3), Some(2)), Ok(()));
        assert_eq!(
            a.on_recv((1, 0, 9, 5), Some(4)),
            Err(Breach::NotLeastKey { id: 9, key: 50, ready: 4, other: 8, other_key: 10 })
        );
        let mut b = AtomicConformance::new(&pq);
        b.on_send(0, 1, 1, None);
        assert_eq!(b.on_recv((1, 0, 1, 3), Some(2)), Err(Breach::NoKey(1)));
    }
}
