//! The sans-IO protocols on 004's atomic machine (see [`super`]).
//!
//! Step t: the send phase and transmission phase of the data network
//! ([`super::network`]); then each node in turn (the order does not matter:
//! nodes interact only through messages) receives the control messages sent
//! to it at step t − 1, receives the data message the arbiter gave it (its
//! `recv` event carries `data: {"ready": r}`, the step the message entered
//! its sender's send buffer, for `atomic_conformance`; a branch-and-bound
//! vertex's `send` carries `data: {"key": c}`, its cost), and expands one unit
//! of the subproblem it holds: a `work` event of that step, after which the
//! balancer is polled (a random-destination node then sends the children
//! away). The root is expanded at step 1 on node 0 (004 §4.1). Time is
//! counted in steps (`clock: step`). The run ends when no node holds work
//! and no message is queued, buffered or in flight and no timer is set —
//! or, with the computation over but the detector's messages still going
//! (it never announces, or its news does not spread), after the detection
//! horizon ([`AtomicConfig::detect_horizon`]).
//! Timers ([`Command::Timer`], in steps) fire at the start of their step.
//!
//! A step visits only the nodes on its agenda: those holding work and those
//! receiving a message, in ascending order as a sweep over all P nodes
//! would (a node without work or message does nothing in a step), so a
//! step costs O(active nodes + P/64) and the event stream is the sweep's.

use bit_set::BitSet;
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use super::network::{Chooser, Envelope, Network, Ready, Rules};
use super::AtomicConfig;
use crate::base::rng::{stream, Purpose};
use crate::event::{Event, Kind};
use crate::problem::{Subproblem, WorkLog};
use crate::protocol::initial::{assign, InitialSplit};
use crate::protocol::{Balancer, Command, Ctx, Detector, Msg, Pe, PeId};
use crate::sim::{Outcome, Stop};

/// How a run on the atomic machine ended, with the model's figures.
pub struct AtomicOutcome {
    /// Steps, last step, why it stopped.
    pub outcome: Outcome,
    /// T: the last step at which a node expanded a subproblem (004 §4.1:
    /// the last receipt of a vertex, which is expanded at once).
    pub t: u64,
    /// Expansions (work events): n for a tree of unit vertices.
    pub expansions: u64,
    /// (step, cost) of every expansion of a branch-and-bound vertex.
    pub costs: Vec<(u64, u64)>,
    /// The arbitration choices made (the adversary's script).
    pub chooser: Chooser,
}

struct Node<B, D> {
    pe: Pe<B, D>,
    rng: ChaCha8Rng,
}

struct Machine<'s, T, B, D> {
    nodes: Vec<Node<B, D>>,
    net: Network<Msg<T>>,
    control: Vec<Envelope<Msg<T>>>,
    timers: Vec<(u64, PeId)>,
    out: Vec<Command<T>>,
    now: u64,
    next_id: u64,
    /// The nodes holding work.
    busy: BitSet,
    holding: u32,
    /// Work messages sent and not yet received.
    work_in_flight: u64,
    announced: bool,
    t: u64,
    expansions: u64,
    costs: Vec<(u64, u64)>,
    sink: &'s mut dyn FnMut(Event),
}

/// Runs `root` on `cfg.pes` nodes built by `make`, under the network
/// `rules`, arbitration choices left open decided by `chooser`, feeding
/// every event to `sink`.
pub fn run<T, B, D>(
    cfg: &AtomicConfig,
    rules: Rules,
    chooser: Chooser,
    root: T,
    make: impl Fn(PeId) -> Pe<B, D>,
    sink: &mut dyn FnMut(Event),
) -> AtomicOutcome
where
    T: Subproblem,
    B: Balancer<Task = T>,
    D: Detector<T>,
{
    let nodes = (0..cfg.pes).map(|i| Node { pe: make(i), rng: stream(cfg.seed, i, Purpose::Protocol) }).collect();
    let mut m = Machine {
        nodes,
        net: Network::new(cfg.pes, rules, chooser),
        control: Vec::new(),
        timers: Vec::new(),
        out: Vec::new(),
        now: 0,
        next_id: 0,
        busy: BitSet::with_capacity(cfg.pes as usize),
        holding: 0,
        work_in_flight: 0,
        announced: false,
        t: 0,
        expansions: 0,
        costs: Vec::new(),
        sink,
    };
    for (i, start) in assign(root, cfg.pes, InitialSplit::Root, cfg.seed).into_iter().enumerate() {
        m.call(i as PeId, |pe, ctx| pe.start(ctx, start.part, start.share));
        m.maybe_busy(i as PeId);
    }
    let stop = m.steps(cfg.max_steps, cfg.detect_horizon());
    if stop == Stop::Drained {
        (m.sink)(Event::End { t: m.now });
    }
    let outcome = Outcome { steps: m.now, end_time: m.now, stop };
    let (t, expansions, costs) = (m.t, m.expansions, std::mem::take(&mut m.costs));
    AtomicOutcome { outcome, t, expansions, costs, chooser: m.net.into_chooser() }
}

impl<T, B, D> Machine<'_, T, B, D>
where
    T: Subproblem,
    B: Balancer<Task = T>,
    D: Detector<T>,
{
    fn steps(&mut self, max_steps: u64, horizon: u64) -> Stop {
        let mut quiet_since = None;
        loop {
            if self.net.is_empty() && self.control.is_empty() && self.timers.is_empty() && self.holding == 0 {
                return match self.announced {
                    true => Stop::Drained,
                    false => Stop::NotAnnounced { quiet_since: self.now },
                };
            }
            if let Some(stop) = self.past_horizon(&mut quiet_since, horizon) {
                return stop;
            }
            if self.now == max_steps {
                return Stop::StepCap;
            }
            self.now += 1;
            self.fire_timers();
            self.net.send_phase(self.now);
            let data = self.net.transmit();
            let mut control = std::mem::take(&mut self.control);
            control.sort_by_key(|e| (e.to, e.id));
            let agenda = self.agenda(&data, &control);
            let mut data = data.into_iter().peekable();
            let mut control = control.into_iter().peekable();
            for q in agenda {
                while let Some(e) = control.next_if(|e| e.to == q) {
                    self.receive(e, None);
                }
                while let Some(r) = data.next_if(|r| r.env.to == q) {
                    let Ready { env, ready } = r;
                    self.receive(env, Some(ready));
                }
                self.expand(q);
            }
        }
    }

    /// Once the computation has been over (no node holds work, no work
    /// message is in flight) for longer than `horizon` steps, why the run
    /// stops ([`AtomicConfig::detect_horizon`]); `quiet_since` is when it
    /// was over.
    fn past_horizon(&self, quiet_since: &mut Option<u64>, horizon: u64) -> Option<Stop> {
        if self.holding > 0 || self.work_in_flight > 0 {
            *quiet_since = None;
            return None;
        }
        let since = *quiet_since.get_or_insert(self.now);
        (self.now - since > horizon).then_some(match self.announced {
            true => Stop::NotTerminated { quiet_since: since },
            false => Stop::NotAnnounced { quiet_since: since },
        })
    }

    /// The nodes a step visits, ascending: those holding work and the
    /// recipients of `data` and `control` (a node with neither does nothing).
    fn agenda(&self, data: &[Ready<Msg<T>>], control: &[Envelope<Msg<T>>]) -> Vec<PeId> {
        let mut agenda: Vec<PeId> = self.busy.iter().map(|q| q as PeId).collect();
        agenda.extend(data.iter().map(|r| r.env.to).chain(control.iter().map(|e| e.to)));
        agenda.sort_unstable();
        agenda.dedup();
        agenda
    }

    /// Calls every PE whose timer is due, in PE order.
    fn fire_timers(&mut self) {
        let now = self.now;
        let mut due: Vec<PeId> = self.timers.iter().filter(|(t, _)| *t <= now).map(|&(_, pe)| pe).collect();
        self.timers.retain(|(t, _)| *t > now);
        due.sort_unstable();
        for pe in due {
            self.call(pe, |p, ctx| p.on_timer(ctx));
            self.maybe_busy(pe);
        }
    }

    fn receive(&mut self, e: Envelope<Msg<T>>, ready: Option<u64>) {
        let (t, pe, from, id, kind) = (self.now, e.to, e.from, e.id, e.msg.kind());
        let data = ready.map(|r| Box::new(json!({ "ready": r }))).or_else(|| e.msg.data());
        (self.sink)(Event::Recv { t, pe, from, id, kind, queue: None, data });
        self.work_in_flight -= u64::from(kind == Kind::Work);
        self.call(pe, |p, ctx| p.on_message(ctx, from, e.msg));
        self.maybe_busy(pe);
    }

    /// One expansion step of node `q`, if it holds work.
    fn expand(&mut self, q: PeId) {
        let (t, node) = (self.now, &mut self.nodes[q as usize]);
        if !node.pe.has_work() {
            return;
        }
        let task = node.pe.task_to_work(q);
        let (gen, cost, mut log) = (task.generation(), task.cost(), WorkLog::default());
        let units = task.work(1, &mut log);
        let goal = cost.filter(|_| log.leaves > 0);
        (self.sink)(Event::Work { t, pe: q, units, gen, fp: log.fp, cost, goal, pruned_with: None, critical: None });
        if let Some(c) = cost {
            self.costs.push((t, c));
        }
        (self.t, self.expansions) = (t, self.expansions + 1);
        if self.nodes[q as usize].pe.has_work() {
            self.call(q, |p, ctx| p.on_poll(ctx));
            if !self.nodes[q as usize].pe.has_work() {
                self.idle(q);
            }
        } else {
            self.idle(q);
            self.call(q, |p, ctx| p.on_exhausted(ctx));
            self.maybe_busy(q);
        }
    }

    fn idle(&mut self, q: PeId) {
        self.busy.remove(q as usize);
        self.holding -= 1;
        (self.sink)(Event::Idle { t: self.now, pe: q });
    }

    fn maybe_busy(&mut self, q: PeId) {
        if !self.busy.contains(q as usize) && self.nodes[q as usize].pe.has_work() {
            self.busy.insert(q as usize);
            self.holding += 1;
            (self.sink)(Event::Busy { t: self.now, pe: q });
        }
    }

    /// Runs a handler of node `me` and carries out its commands.
    fn call(&mut self, me: PeId, f: impl FnOnce(&mut Pe<B, D>, &mut Ctx<T>)) {
        let pes = self.nodes.len() as u32;
        let Node { pe, rng, .. } = &mut self.nodes[me as usize];
        f(pe, &mut Ctx { now: self.now, me, pes, rng, out: &mut self.out });
        let mut out = std::mem::take(&mut self.out); // given back below: no allocation per call
        for cmd in out.drain(..) {
            match cmd {
                Command::Send { to, msg } => self.send(me, to, msg),
                Command::Timer { after } => self.timers.push((self.now + after.max(1), me)),
                cmd => {
                    self.announced |= matches!(cmd, Command::Announce);
                    if let Some(e) = cmd.event(self.now, me) {
                        (self.sink)(e);
                    }
                }
            }
        }
        self.out = out;
    }

    /// A balancer message enters the sender's queue; a detector's takes
    /// the control network (delivered at the next step).
    fn send(&mut self, from: PeId, to: PeId, msg: Msg<T>) {
        self.next_id += 1;
        let id = self.next_id;
        let (key, cost) = match &msg {
            Msg::Work { task, .. } => (task.key(), task.cost()),
            _ => (0, None),
        };
        let data_network = matches!(msg.kind(), Kind::Work | Kind::Request | Kind::Reject);
        self.work_in_flight += u64::from(msg.kind() == Kind::Work);
        let mut event = msg.send_event(self.now, from, to, id);
        if let (Event::Send { data, .. }, Some(cost)) = (&mut event, cost) {
            *data = Some(Box::new(json!({ "key": cost })));
        }
        (self.sink)(event);
        let env = Envelope { id, from, to, key, msg };
        match data_network {
            true => self.net.enqueue(env),
            false => self.control.push(env),
        }
    }
}
