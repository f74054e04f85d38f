//! The exhaustive explorer (`lbcheck explore`): every run of a tiny
//! instance on 001's machine (001 §1.1), over the same sans-IO protocol
//! code the simulator and the threads run, on the simulator's own machine
//! (its rules are written once). Where the simulator draws one latency per
//! message and orders simultaneous events by arrival, the explorer takes
//! every latency of the range and every order of the items due at one
//! instant ([`world`]), breadth-first, with a visited-state set
//! and sleep sets ([`search`]); the anchor is stateright's model checker
//! for actor systems.
//!
//! **What is checked where.** At every reachable state, exactly:
//! `no_early_termination` (an announcement while a PE holds work or work
//! is in flight, 001 §2) and `energy_conserved` (003 §14.7.4). At every
//! finished run (nothing pending, or the computation over for longer than
//! the horizon without an announcement): `termination_detected`,
//! `work_conserved` (002 eq. (1)) and `requests_answered` ([`ghost`]); and
//! then the whole checker — every property of `lbcheck check-trace` — on
//! the path that first reached that finished state. A run's time-dependent
//! properties (`service_latency`, `detection_delay_bound`) are therefore
//! checked on one path per finished state, not on every path merged into it.
//!
//! The first violation is one at the smallest depth; its path, completed
//! to the end of the run by the first choice at every later step, is the
//! counterexample trace.

pub mod ghost;
pub mod search;
pub mod world;

use std::time::Duration;

use crate::base::topology::Hops;
use crate::event::Event;
use crate::problem::{Fingerprint, Subproblem};
use crate::protocol::{Balancer, Detector, Pe, PeId};
use crate::sim::script::Script;
use crate::sim::{ConfigError, Schedule, Shape, SimConfig};
use search::{Found, Limits, Model, Step, Violation};
use world::World;

/// The largest P the explorer takes (the "tiny instances").
pub const MAX_PES: u32 = 6;

/// Steps a counterexample is completed by, at most, after its violation.
const COMPLETION_STEPS: usize = 100_000;

/// An exploration's machine and bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExploreConfig {
    /// The machine (P, seed, Δt, T_rout or the latency range, T_split,
    /// horizon; slow PEs, the initial split and the step cap are not explored).
    pub sim: SimConfig,
    /// The search's bounds.
    pub limits: Limits,
}

impl ExploreConfig {
    /// Checks the machine and the bounds (messages name the flag).
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.sim.validate()?;
        let driver = |why: &str| Err(ConfigError::Driver(why.into()));
        if !(1..=MAX_PES).contains(&self.sim.pes) {
            return driver(&format!("--pes = {} is out of range for explore: valid 1..={MAX_PES}", self.sim.pes));
        }
        let (a, b) = latency_range(&self.sim);
        if b - a > 7 {
            return driver(&format!("--latency {a}..{b}: explore takes at most 8 latencies per message (b - a <= 7)"));
        }
        if self.sim.slow.is_some() || self.sim.initial_split.is_split() {
            return driver("explore does not take --slow or --initial-split");
        }
        if self.sim.o + self.sim.g + self.sim.t_poll > 0 {
            return driver("explore runs 001's machine without o, g and T_poll");
        }
        if self.sim.fifo_links || self.sim.shape != Shape::Uniform || self.sim.schedule != Schedule::Plain {
            return driver("explore takes every latency of the range: no latency shape, schedule or FIFO links");
        }
        Ok(())
    }

    /// The horizon: how long after the computation is over a run may go
    /// unannounced — the configured one, else 10·(D + 1)·(Δt + T_split + b·d + 1)
    /// with D = ⌊log2 P⌋, b the largest latency and d the diameter, above every detector's
    /// delay bound (`detection_delay_bound`, S-20) at these parameters.
    pub fn horizon(&self) -> u64 {
        if self.sim.horizon > 0 {
            return self.sim.horizon;
        }
        let s = &self.sim;
        let depth = u64::from(s.pes.max(1).ilog2());
        10 * (depth + 1) * (s.dt + s.t_split + latency_range(s).1 * s.diameter() + 1)
    }
}

/// The latency range of `sim`: a..=b, or T_rout alone.
fn latency_range(sim: &SimConfig) -> (u64, u64) {
    sim.latency.unwrap_or((sim.t_rout, sim.t_rout))
}

/// What a transition needs to know of the run.
#[derive(Clone, Debug)]
pub struct Params {
    sim: SimConfig,
    /// Hop distances of the topology (a message takes its latency per hop).
    hops: Hops,
    horizon: u64,
    /// The sequential run's work (`None` under branch-and-bound pruning,
    /// where a run examines other nodes: the checker's `optimum_found`
    /// and `prune_sound` judge it instead).
    reference: Option<Fingerprint>,
}

impl Params {
    /// The latency range explored.
    fn latency(&self) -> (u64, u64) {
        latency_range(&self.sim)
    }
}

/// An exploration's result.
#[derive(Debug)]
pub struct Explored {
    /// What the search found.
    pub found: Found,
    /// The counterexample's events (no header), if a property failed.
    pub trace: Option<Vec<Event>>,
}

/// Explores every run of `root` on PEs built by `make`; `check` is the
/// whole checker over a finished run's events (`None`: every property
/// holds); `reference` is the sequential run's work (`None` under pruning).
pub fn explore<T, B, D>(
    cfg: &ExploreConfig,
    reference: Option<Fingerprint>,
    root: T,
    make: impl Fn(PeId) -> Pe<B, D>,
    mut check: impl FnMut(&[Event]) -> Option<Violation>,
) -> Explored
where
    T: Subproblem,
    B: Balancer<Task = T> + Clone + std::fmt::Debug,
    D: Detector<T> + Clone + std::fmt::Debug,
{
    let hops = cfg.sim.topology.distances(cfg.sim.pes);
    let params = Params { sim: cfg.sim, hops, horizon: cfg.horizon(), reference };
    let start = |script: &mut Script, events: Option<&mut Vec<Event>>| {
        World::start(params.clone(), root.clone(), &make, script, events)
    };
    let found = search::search(cfg.limits, |s| start(s, None), |path| check(&events_of(&start, path, false)));
    let events = || if found.path.is_empty() { vec![] } else { events_of(&start, &found.path, true) }; // empty: tripped at the start
    let trace = found.violation.is_some().then(events);
    Explored { found, trace }
}

/// The events of the run that follows `path` (and, if `complete`, goes on
/// by the first choice at every step until it is over).
fn events_of<T, B, D>(
    start: &impl Fn(&mut Script, Option<&mut Vec<Event>>) -> World<T, B, D>,
    path: &[Step],
    complete: bool,
) -> Vec<Event>
where
    T: Subproblem,
    B: Balancer<Task = T> + Clone + std::fmt::Debug,
    D: Detector<T> + Clone + std::fmt::Debug,
{
    let mut events = Vec::new();
    let script = |s: &Step| Script::new(s.choices.clone());
    let mut world = start(&mut script(&path[0]), Some(&mut events));
    for step in &path[1..] {
        world = world.step(step.action.expect("only the first step starts"), &mut script(step), Some(&mut events));
    }
    let mut extra = 0;
    while complete && extra < COMPLETION_STEPS && !world.actions().is_empty() {
        match crate::base::caught::caught(|| world.step(0, &mut Script::default(), Some(&mut events))) {
            Ok(next) => world = next,
            Err(_) => break, // a protocol assertion: the counterexample ends before it
        }
        extra += 1;
    }
    if world.drained() {
        events.push(Event::End { t: world.now() });
    }
    events
}

/// Default bounds: a million states, depth 100,000, 60 seconds.
impl Default for Limits {
    fn default() -> Self {
        Limits { max_states: 1_000_000, max_depth: 100_000, time: Duration::from_secs(60) }
    }
}
