//! Pacheco's parallel tree search (003 §14.7, §14.7.2–§14.7.3, §14.11 1d).
//!
//! - **Generate + Scatter** (003 §14.7, `Par_tree_search`): PE 0 starts with
//!   the root, the others wait in the Scatter. PE 0 searches; at its first
//!   service point where its stack splits into p parts it keeps one and
//!   sends one to each PE `1..p` as real work messages that divide its
//!   energy into p equal parts (003 §14.7.4 rule 3, [`Command::Scatter`]).
//!   (A tree too small to give p parts is searched by PE 0 alone; the
//!   others stay in the Scatter until the termination message.)
//! - **Service_requests** (§14.7.2): at every service point (the driver's
//!   Δt slices are `Par_dfs`'s `MAX_WORK`) *every* pending request is
//!   answered: a split-off part if `Nodes_available`, else a reject. What
//!   `Nodes_available` and `Split` mean is the workload's split strategy
//!   (`--split`, e.g. `cutoff:D` for §14.11 1d's cut-off depth).
//! - **Work_remains** (§14.7.3): an idle PE runs `Send_all_rejects` (a
//!   request reaching it is rejected at once: without this two idle PEs
//!   asking each other deadlock), then `New_request` → `Send_request` and
//!   waits for the reply; on a reject it asks again.
//! - **New_request** ([`Victim`]): a random rank; local round robin
//!   ((my_rank + 1) mod p, then incremented); or global round robin: PE 0
//!   holds the next target and every other PE first asks it
//!   ([`Msg::GetTarget`] / [`Msg::Target`]), four messages per request
//!   instead of two.
//!
//! The steps a mutant may change are [`Rules`].

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::params::Params;
use super::{initial, Balancer, Command, Ctx, Msg, PeId};
use crate::base::UnknownName;
use crate::problem::Subproblem;

/// Pacheco's search's parameters: flags of the commands that run it and
/// keys of the run specification, absent at their default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::Args, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PachecoParams {
    /// Pacheco's search: whom an idle PE asks (003 §14.7.3's New_request):
    /// a random rank (the default), local round robin, or global round robin via PE 0.
    #[arg(long, value_enum)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victim: Option<Victim>,
}

impl Params for PachecoParams {
    const OWNER: (&'static str, &'static str) = ("Pacheco's search", "003 §14.7.3");
}

impl PachecoParams {
    /// The victim selection (random unless `--victim`).
    pub fn victim(&self) -> Victim {
        self.victim.unwrap_or_default()
    }
}

/// `New_request` (003 §14.7.3): whom an idle PE asks for work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Victim {
    /// A uniformly random other rank.
    #[default]
    Random,
    /// Local round robin: (my_rank + 1) mod p first, then the next rank.
    LocalRr,
    /// Global round robin: a target counter on PE 0.
    GlobalRr,
}

/// The `--victim` names.
pub const VICTIMS: [&str; 3] = ["random", "local-rr", "global-rr"];

impl fmt::Display for Victim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(VICTIMS[*self as usize])
    }
}

impl FromStr for Victim {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Victim, UnknownName> {
        match s {
            "random" => Ok(Victim::Random),
            "local-rr" => Ok(Victim::LocalRr),
            "global-rr" => Ok(Victim::GlobalRr),
            _ => Err(UnknownName { kind: "victim selection", given: s.into(), valid: VICTIMS.to_vec(), planned: None }),
        }
    }
}

crate::serde_as_text!(Victim);

/// The steps of 003 §14.7.3 at the seams where a variant may change them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// `Send_all_rejects`: an idle PE rejects requests at once (else they
    /// wait for its next service point).
    pub send_all_rejects: bool,
    /// Global round robin: PE 0 increments its target after each answer.
    pub increments: bool,
    /// Global round robin: PE 0 answers every `get_target`, also one that
    /// arrives while it works (else it drops those).
    pub answers_busy: bool,
    /// `Service_requests` answers every pending request (else only the
    /// oldest; the rest wait for the next service point).
    pub serves_all: bool,
}

impl Rules {
    /// 003 §14.7.3 as printed.
    pub const PAPER: Rules = Rules { send_all_rejects: true, increments: true, answers_busy: true, serves_all: true };
}

/// Where a PE stands in `Work_remains`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asking {
    /// Not asking: it holds work, or waits in the Scatter.
    No,
    /// Waiting for PE 0's target (global round robin).
    Target,
    /// Waiting for the reply of this PE.
    Reply(PeId),
}

/// One PE of Pacheco's parallel tree search.
#[derive(Clone, Debug)]
pub struct Pacheco<T> {
    rules: Rules,
    victim: Victim,
    task: Option<T>,
    /// `Work_requests_pending`: requesters, oldest first.
    pending: VecDeque<PeId>,
    /// False while the PE (PE 0: the root's holder) is in the Scatter.
    scattered: bool,
    asking: Asking,
    /// Local round robin: the next PE to ask.
    next: PeId,
    /// Global round robin, PE 0: the next target.
    target: PeId,
}

impl<T: Subproblem> Pacheco<T> {
    /// PE `me` of a search following `rules`, asking by `victim`.
    pub fn new(rules: Rules, victim: Victim) -> Self {
        let (task, pending) = (None, VecDeque::new());
        Pacheco { rules, victim, task, pending, scattered: false, asking: Asking::No, next: 0, target: 0 }
    }

    /// `Generate` + `Scatter`: PE 0 sends one of p parts to each other PE
    /// once its stack splits into p parts.
    fn scatter(&mut self, ctx: &mut Ctx<T>) {
        let Some(task) = &self.task else { return };
        let parts = initial::parts(task.clone(), ctx.pes);
        if parts.len() < ctx.pes as usize {
            return; // not yet: search on and try at the next service point
        }
        let mut parts = parts.into_iter();
        self.task = parts.next();
        self.scattered = true;
        ctx.out.push(Command::Scatter);
        for (to, part) in (1..).zip(parts) {
            ctx.out.push(Command::Split { gen: part.generation() });
            ctx.send(to, Msg::Work { task: part, energy: None });
        }
    }

    /// `Service_requests`: answers every pending request (with
    /// `serves_all` off, the oldest only).
    fn service_requests(&mut self, ctx: &mut Ctx<T>) {
        let n = if self.rules.serves_all { self.pending.len() } else { 1 };
        for to in self.pending.drain(..n.min(self.pending.len())).collect::<Vec<_>>() {
            match self.task.as_mut().and_then(|t| t.split()) {
                Some(part) => {
                    ctx.out.push(Command::Split { gen: part.generation() });
                    ctx.send(to, Msg::Work { task: part, energy: None });
                }
                None => ctx.send(to, Msg::Reject),
            }
        }
    }

    /// `New_request` + `Send_request` (none with P = 1).
    fn new_request(&mut self, ctx: &mut Ctx<T>) {
        if ctx.pes < 2 {
            return;
        }
        let to = match self.victim {
            Victim::Random => {
                let v = ctx.rng.random_range(0..ctx.pes - 1);
                v + (v >= ctx.me) as PeId
            }
            Victim::LocalRr => {
                let to = self.next;
                self.next = skip(ctx.me, (to + 1) % ctx.pes, ctx.pes);
                to
            }
            Victim::GlobalRr if ctx.me != 0 => {
                self.asking = Asking::Target;
                return ctx.send(0, Msg::GetTarget);
            }
            Victim::GlobalRr => self.next_target(0, ctx.pes),
        };
        self.asking = Asking::Reply(to);
        ctx.send(to, Msg::Request);
    }

    /// PE 0's global counter: the target for `requester`, never itself.
    fn next_target(&mut self, requester: PeId, pes: u32) -> PeId {
        let t = skip(requester, self.target, pes);
        if self.rules.increments {
            self.target = (t + 1) % pes;
        }
        t
    }
}

/// `pe` itself is skipped: the next rank after `v` if `v` is `pe`.
fn skip(pe: PeId, v: PeId, pes: u32) -> PeId {
    if v == pe {
        (v + 1) % pes
    } else {
        v
    }
}

impl<T: Subproblem> Balancer for Pacheco<T> {
    type Task = T;

    fn start(&mut self, ctx: &mut Ctx<T>, part: Option<T>) {
        self.task = part.filter(|p| !p.is_empty());
        self.next = (ctx.me + 1) % ctx.pes.max(1);
        self.scattered = ctx.pes < 2; // else PE 0 scatters, the others wait for it
    }

    fn on_message(&mut self, ctx: &mut Ctx<T>, from: PeId, msg: Msg<T>) {
        match msg {
            Msg::Request if self.has_work() || !self.rules.send_all_rejects => self.pending.push_back(from),
            Msg::Request => ctx.send(from, Msg::Reject),
            Msg::Reject if self.asking == Asking::Reply(from) => self.new_request(ctx),
            Msg::Work { task, .. } => {
                assert!(self.task.is_none(), "PE {} received work while holding work", ctx.me);
                (self.task, self.scattered, self.asking) = (Some(task), true, Asking::No);
            }
            Msg::GetTarget if self.has_work() && !self.rules.answers_busy => {}
            Msg::GetTarget => {
                let to = self.next_target(from, ctx.pes);
                ctx.send(from, Msg::Target(to));
            }
            Msg::Target(to) if self.asking == Asking::Target => {
                self.asking = Asking::Reply(to);
                ctx.send(to, Msg::Request);
            }
            _ => {}
        }
    }

    fn on_poll(&mut self, ctx: &mut Ctx<T>) {
        if !self.scattered {
            self.scatter(ctx);
        }
        self.service_requests(ctx);
    }

    fn on_exhausted(&mut self, ctx: &mut Ctx<T>) {
        self.task = None;
        self.scattered = true;
        if self.rules.send_all_rejects {
            for from in std::mem::take(&mut self.pending) {
                ctx.send(from, Msg::Reject);
            }
        }
        self.new_request(ctx);
    }

    fn task_mut(&mut self) -> Option<&mut T> {
        self.task.as_mut()
    }

    fn has_work(&self) -> bool {
        self.task.as_ref().is_some_and(|t| !t.is_empty())
    }

    fn queued_requests(&self) -> u32 {
        self.pending.len() as u32
    }
}
