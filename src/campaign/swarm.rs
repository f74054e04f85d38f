//! The `simulate` and `threads` layers: checked runs of every balancer ×
//! detector. Each simulated run draws its machine from its own seed
//! ("swarm" testing: P, Δt, T_split, fixed or random latency and its shape,
//! an adversarial schedule, FIFO links, o, g, T_poll, slow PEs, initial
//! split, queue limit), so one campaign covers many corners.

use crate::protocol::initial::InitialSplit;
use crate::protocol::pacheco::Victim;
use crate::protocol::random_polling::Deactivation;
use std::time::{Duration, Instant};

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::shard::{Shard, Unit};
use super::{cost, demos, parallel, parallel_until, Case, Options, Point, Profile, Progress, Verdict};
use crate::base::rng::{derive_seed, stream, Purpose};
use crate::base::Registered;
use crate::bounds::atomic::search::ARBITERS;
use crate::harness::{Driver, RunResult, RunSpec};
use crate::mutants::{Catcher, Mutant, Need, Site, CATALOGUE};
use crate::protocol::poll_and_shuffle::SyncMode;
use crate::protocol::random_polling::{QueueLimit, RandomPollingParams, Serve};
use crate::protocol::{BalancerKind, BalancerSpec, BoundMode, DetectorKind};
use crate::runtime::threads::ThreadConfig;
use crate::sim::atomic::{Arbiter, AtomicConfig};
use crate::sim::{Schedule, Shape, SimConfig, Topology};

/// Workloads of the swarm: every family, small enough for seconds in all
/// (a synthetic or loop base gets a drawn `,seed=N`).
pub(crate) const WORKLOADS: &[&str] = &[
    "synthetic:size=500,atomic=1,split=uniform",
    "synthetic:size=2000,atomic=4,split=peel",
    "synthetic:size=4096,atomic=2,split=fig3:8:4",
    "synthetic:size=3000,atomic=5,split=alpha:0.1",
    "uts:default",
    "uts:args=-t 0 -b 20 -q 0.2 -m 4 -r 3",
    "uts:args=-t 1 -a 2 -d 5 -b 3 -r 7",
    "loop:n=300,cost=heavy",
];

/// A threaded run that has not terminated by then fails (the references
/// take milliseconds; a broken detector may never announce).
const THREADS_DEADLINE: Duration = Duration::from_secs(5);

/// Simulated runs per balancer × detector.
fn runs_per_pair(p: Profile) -> u32 {
    match p {
        Profile::Quick => 200,
        Profile::Full => 2000,
    }
}

/// Every (balancer, detector) pair that ships.
fn pairs() -> Vec<(BalancerKind, DetectorKind)> {
    let all = BalancerKind::ALL.iter().flat_map(|&b| DetectorKind::ALL.iter().map(move |&d| (b, d)));
    all.filter(|(b, d)| b.phased() == d.phased()).collect()
}

/// The `simulate` layer.
pub fn simulate(o: &Options, shard: &Shard, progress: &dyn Progress) -> Vec<Case> {
    let mut jobs = Vec::new();
    let mut skipped = Vec::new();
    for (b, d) in pairs() {
        let label = format!("{b}/{d}");
        if let Some(why) = o.mutant.and_then(|m| m.not_applicable(b, d, false)) {
            skipped.push(Case::skip("simulate", label, why));
            continue;
        }
        jobs.extend(swarm_specs(o, &label, b, d));
    }
    jobs.extend(regressions(o));
    jobs.retain(|(name, _)| o.selects("simulate", name));
    checked_in(shard, "simulate", jobs, progress, skipped, &|s| s.run(None), o.mutant.is_some())
}

/// The swarm of one pair, named `{label}/#i` (`b` builds the PEs unless
/// the runner puts a user's balancer in its place).
pub fn swarm_specs(o: &Options, label: &str, b: BalancerKind, d: DetectorKind) -> Vec<(String, RunSpec)> {
    (0..runs_per_pair(o.profile)).map(|i| (format!("{label}/#{i}"), swarm_spec(o, label, b, d, i))).collect()
}

/// The regression corpus: the runs each mutant is shown failing on
/// ([`demos::of`]), run with the implementation under test (the
/// reference must pass them all).
fn regressions(o: &Options) -> Vec<(String, RunSpec)> {
    let shown = CATALOGUE.iter().filter(|e| e.caught_by(Catcher::Run)).map(|e| e.mutant);
    let runs = shown.flat_map(|m| demos::of(m).into_iter().enumerate().map(move |(i, s)| (m, i, s)));
    runs.filter_map(|(m, i, spec)| {
        let spec = RunSpec { mutant: o.mutant, ..spec };
        let acts = o.mutant.is_none_or(|u| u.not_applicable(spec.balancer.kind(), spec.detector, false).is_none());
        acts.then(|| (format!("regression/{m}/#{i}"), spec))
    })
    .collect()
}

/// The `threads` layer: every pair on 2 to 4 threads (8 too in the full profile).
pub fn threads(o: &Options, shard: &Shard, progress: &dyn Progress) -> Vec<Case> {
    if let Some(m) = o.mutant.filter(|m| m.entry().site == Site::ThreadedDriver) {
        let why = format!("mutant `{m}` may deadlock real threads: loom catches it (scripts/loom.sh)");
        return vec![Case::skip("threads", m.to_string(), why)];
    }
    let mut jobs = Vec::new();
    let mut skipped = Vec::new();
    for (b, d) in pairs().into_iter().filter(|(b, _)| !b.atomic() && !b.needs_model_time()) {
        match o.mutant.and_then(|m| m.not_applicable(b, d, true)) {
            Some(why) => skipped.push(Case::skip("threads", format!("{b}/{d}"), why)),
            None => jobs.extend(thread_specs(o, &format!("{b}/{d}"), b, d)),
        }
    }
    jobs.retain(|(name, _)| o.selects("threads", name));
    checked_in(shard, "threads", jobs, progress, skipped, &|s| s.run(None), o.mutant.is_some())
}

/// The threaded runs of one pair, named `{label}/P=…/workload`.
pub fn thread_specs(o: &Options, label: &str, b: BalancerKind, d: DetectorKind) -> Vec<(String, RunSpec)> {
    let all: &[u32] = if o.profile == Profile::Full { &[2, 3, 4, 8] } else { &[2, 3, 4] };
    let pes: Vec<u32> = all.iter().copied().filter(|p| o.pes.as_ref().is_none_or(|r| r.contains(p))).collect();
    let workloads = ["uts:default", "synthetic:size=20000,atomic=1,split=uniform", "golomb:marks=7"];
    let runs = pes.iter().flat_map(|&p| workloads.map(|w| (p, w)));
    runs.map(|(p, w)| {
        let seed = derive_seed(o.seed, &format!("threads/{label}/{p}/{w}"), 0);
        let deadline = Some(THREADS_DEADLINE);
        let initial_split = (p == 3 && b != BalancerKind::Pacheco).into(); // Pacheco's start is Generate + Scatter
        let cfg = ThreadConfig { pes: p, seed, dt: 16, initial_split, deadline, ..ThreadConfig::default() };
        (format!("{label}/P={p}/{w}"), spec(w, b, d, Driver::Threads(cfg), o.mutant))
    })
    .collect()
}

/// Runs a spec: the references' own PEs, or a user's balancer in their place.
pub type Runner<'a> = dyn Fn(&RunSpec) -> std::io::Result<RunResult> + Sync + 'a;

/// Runs the specs in parallel with `runner`, one case each, after the skipped ones.
pub fn checked(
    layer: &'static str,
    jobs: Vec<(String, RunSpec)>,
    progress: &dyn Progress,
    skipped: Vec<Case>,
    runner: &Runner,
) -> Vec<Case> {
    checked_in(&Shard::whole(), layer, jobs, progress, skipped, runner, false)
}

/// [`checked`] for `shard`: each spec a unit; this process runs its own.
/// With `stop` (checking a mutant) the layer stops at its first failing
/// case in order: that is [`cut_after_failure`]'s, over the campaign's
/// whole report (in one process or over MPI ranks: the same report on any
/// number of ranks); here, in one process, the runs after a failure are
/// only saved ([`parallel_until`]), each a skip the cut then explains.
fn checked_in(
    shard: &Shard,
    layer: &'static str,
    jobs: Vec<(String, RunSpec)>,
    progress: &dyn Progress,
    skipped: Vec<Case>,
    runner: &Runner,
    stop: bool,
) -> Vec<Case> {
    let units: Vec<Unit> = jobs.iter().map(|(_, spec)| shard.take(cost::run(spec))).collect();
    let mine: Vec<&(String, RunSpec)> = jobs.iter().zip(&units).filter(|(_, u)| u.mine).map(|(j, _)| j).collect();
    progress.start(layer, mine.len() + skipped.len());
    skipped.iter().for_each(|c| progress.done(layer, c));
    let run = |(name, spec): &&(String, RunSpec)| {
        let case = run_case_with(layer, name.clone(), spec, runner);
        progress.done(layer, &case);
        case
    };
    let ran: Vec<Option<Case>> = match stop && shard.is_whole() {
        true => parallel_until(&mine, run, |c| c.verdict == Verdict::Fail),
        false => parallel(&mine, run).into_iter().map(Some).collect(),
    };
    let saved = |(case, (name, _)): (Option<Case>, &&(String, RunSpec))| {
        case.unwrap_or_else(|| {
            let case = Case::skip(layer, name.clone(), "not run: after the layer's first failure");
            progress.done(layer, &case);
            case
        })
    };
    let mut ran = ran.into_iter().zip(&mine).map(saved);
    let cases = units.into_iter().flat_map(|u| shard.put(u, layer, u.mine.then(|| ran.next().into_iter().collect())));
    skipped.into_iter().chain(cases).collect()
}

/// The rule "checking a mutant, a layer stops at its first failure", over
/// the campaign's whole report (in one process, or assembled from MPI
/// ranks by [`super::shard::assemble`]): in the layers that stop (simulate,
/// threads), every case after the first failing one is a skip naming it,
/// whether it ran (on another rank) or was saved (`parallel_until`).
pub fn cut_after_failure(cases: &mut [Case]) {
    for layer in ["simulate", "threads"] {
        let mut ours = cases.iter_mut().filter(|c| c.layer == layer);
        let Some(first) = ours.find(|c| c.verdict == Verdict::Fail).map(|c| c.name.clone()) else { continue };
        for c in ours {
            *c = Case::skip(layer, std::mem::take(&mut c.name), stop_why(&first));
        }
    }
}

/// Why a case after a layer's first failure (named `first`) is skipped.
fn stop_why(first: &str) -> String {
    format!("after the layer's first failing case ({first}): checking a mutant, one failure decides it")
}

/// One checked run of the references as a case.
pub fn run_case(layer: &'static str, name: String, spec: &RunSpec) -> Case {
    run_case_with(layer, name, spec, &|s| s.run(None))
}

/// One checked run by `runner` as a case.
pub fn run_case_with(layer: &'static str, name: String, spec: &RunSpec, runner: &Runner) -> Case {
    let start = Instant::now();
    let replay = Some(spec.replay());
    let result = match runner(spec) {
        Ok(r) => r,
        Err(e) => {
            return Case {
                verdict: Verdict::Fail,
                detail: format!("the run failed: {e}"),
                ..Case::skip(layer, name, "")
            }
        }
    };
    let failed: Vec<String> = result.check.failures_in_order().iter().map(|(n, _)| n.to_string()).collect();
    let detail = match failed.is_empty() {
        true => format!("every property holds: {}", describe(spec)),
        false => {
            let why: Vec<String> = result
                .check
                .failures_in_order()
                .iter()
                .map(|(n, v)| format!("{n}{}: {}", follows(v), v.detail))
                .collect();
            format!("{} — {}", describe(spec), why.join("; "))
        }
    };
    let verdict = if failed.is_empty() { Verdict::Pass } else { Verdict::Fail };
    let point = Some(point(spec, &result));
    let spec = (verdict == Verdict::Fail).then(|| Box::new(spec.clone()));
    Case { layer, name, verdict, detail, failed, replay, secs: start.elapsed().as_secs_f64(), point, spec, fit: None }
}

/// " (follows from X)" for a failure an earlier one explains.
fn follows(v: &crate::check::Verdict) -> String {
    v.follows.map(|cause| format!(" (follows from {cause})")).unwrap_or_default()
}

fn describe(spec: &RunSpec) -> String {
    format!("{} on {} PEs, {}", spec.workload, spec.driver.pes(), spec.detector)
}

fn point(spec: &RunSpec, r: &RunResult) -> Point {
    let m = &r.check.metrics;
    let pes = spec.driver.pes();
    let t_par = m.t_par.unwrap_or(m.t_last).max(1) as f64;
    let t_seq = r.reference.t_seq.max(1) as f64;
    let messages = m.messages.values().sum::<u64>() as f64;
    let efficiency = m.efficiency.unwrap_or(0.0);
    Point { pes, slowdown: t_par * f64::from(pes) / t_seq, messages_per_pe: messages / f64::from(pes), efficiency }
}

fn spec(workload: &str, b: BalancerKind, d: DetectorKind, driver: Driver, mutant: Option<Mutant>) -> RunSpec {
    let workload = workload.parse().expect("the campaign's workloads parse");
    RunSpec::new(workload, b, d, driver).with_mutant(mutant)
}

/// Run `i` of the swarm `label` for `b` + `d`: workload and machine drawn
/// from its seed.
fn swarm_spec(o: &Options, label: &str, b: BalancerKind, d: DetectorKind, i: u32) -> RunSpec {
    let seed = derive_seed(o.seed, &format!("swarm/{label}"), i);
    let mut rng = stream(seed, 0, Purpose::Protocol);
    let sim = machine(&mut rng, seed, o);
    let base = *WORKLOADS.choose(&mut rng).expect("workloads");
    let bnb = o.mutant.map_or(rng.random_bool(0.2), |m| m.entry().site == Site::BoundPropagation);
    let workload = match (b, base.starts_with("uts:")) {
        (BalancerKind::PriorityBnb, _) => {
            format!("kz:depth={},seed={}", rng.random_range(4..=12), rng.random_range(0..1000))
        }
        _ if bnb && !b.atomic() => branch_and_bound(&mut rng),
        (_, true) => base.to_string(), // a UTS tree is its own seed
        (_, false) => format!("{base},seed={}", rng.random_range(0..1000)),
    };
    let modes = [BoundMode::ReduceTree, BoundMode::Broadcast, BoundMode::None, BoundMode::FirstSolution];
    let drawn = *modes.choose(&mut rng).expect("modes");
    let draw = Draw { workload, bnb, bound: drawn, sim, mutant: o.mutant };
    match b {
        _ if b.atomic() => spec(&draw.workload, b, d, Driver::Atomic(atomic_machine(&mut rng, &sim)), o.mutant),
        BalancerKind::Pacheco => pacheco_spec(&mut rng, draw, d),
        _ if b.phased() => phased_spec(&mut rng, draw, b, d),
        BalancerKind::RandomPolling => polling_spec(&mut rng, draw, d),
        _ => {
            let driver = Driver::Sim(on_network(&mut rng, sim, b));
            budgeted(draw.bounded(spec(&draw.workload, b, d, driver, o.mutant)))
        }
    }
}

/// What every swarm run draws first.
struct Draw {
    workload: String,
    bnb: bool,
    bound: BoundMode,
    sim: SimConfig,
    mutant: Option<Mutant>,
}

impl Draw {
    /// `spec` with the drawn bound propagation if its workload prunes (a
    /// mutant needing first-solution mode has it).
    fn bounded(&self, spec: RunSpec) -> RunSpec {
        let first = spec.holds(Need::FirstSolution);
        let bound = if first { BoundMode::FirstSolution } else { self.bound };
        RunSpec { bound: spec.workload.prunes().then_some(bound), ..spec }
    }
}

/// Pacheco's search: Generate + Scatter is its start; a victim selection drawn.
fn pacheco_spec(rng: &mut ChaCha8Rng, draw: Draw, d: DetectorKind) -> RunSpec {
    let b = BalancerKind::Pacheco;
    let sim = SimConfig { initial_split: InitialSplit::Root, ..draw.sim };
    let mut spec = draw.bounded(spec(&draw.workload, b, d, Driver::Sim(sim), draw.mutant));
    if let Some(p) = spec.balancer.pacheco_mut().filter(|p| p.victim() == Victim::Random) {
        p.victim = Some(*[Victim::Random, Victim::LocalRr, Victim::GlobalRr].choose(rng).expect("victims"));
    }
    if let Driver::Sim(c) = &mut spec.driver {
        *c = on_network(rng, *c, b);
    }
    budgeted(spec)
}

/// 000's phased machine: P a power of two, fixed latency, none of 001's
/// extras; order-independent trees (000 §2.1); poll-and-shuffle locally
/// synchronised in half the runs (000 §6.3, Fig. 4).
fn phased_spec(rng: &mut ChaCha8Rng, draw: Draw, b: BalancerKind, d: DetectorKind) -> RunSpec {
    let c = draw.sim;
    let pes = c.pes.next_power_of_two();
    let phased =
        SimConfig { pes, seed: c.seed, dt: c.dt, t_rout: c.t_rout, t_split: c.t_split, ..SimConfig::default() };
    let workload = if draw.bnb { "uts:default" } else { &draw.workload };
    let mut spec = spec(workload, b, d, Driver::Sim(on_network(rng, phased, b)), draw.mutant);
    let adaptive = spec.holds(Need::AdaptiveTrigger); // where its mutants act (000 §5)
    if let Some(p) = spec.balancer.pas_mut().filter(|_| !adaptive && rng.random_bool(0.5)) {
        p.sync = Some(SyncMode::Local); // drawn after the network, which keeps its draw
    }
    budgeted(spec)
}

/// Random polling with its options drawn: a queue limit, serving all, a
/// deactivated worker or two slots (002 §3).
fn polling_spec(rng: &mut ChaCha8Rng, draw: Draw, d: DetectorKind) -> RunSpec {
    let b = BalancerKind::RandomPolling;
    let queue_limit = rng.random_bool(0.2).then(|| QueueLimit::Fixed(rng.random_range(1..=3)));
    let serve = rng.random_bool(0.3).then_some(Serve::All);
    let params = RandomPollingParams { queue_limit, serve, ..Default::default() };
    let workload = draw.workload.parse().expect("the campaign's workloads parse");
    let spec = RunSpec::new(workload, BalancerSpec::RandomPolling(params), d, Driver::Sim(draw.sim));
    let mut spec = draw.bounded(spec.with_mutant(draw.mutant));
    let pes = draw.sim.pes;
    if let Some(p) = spec.balancer.polling_mut() {
        match p.deactivate.as_mut() {
            Some(d) => d.pe %= pes, // the mutant's window, on a PE that exists
            None if rng.random_bool(0.15) => {
                // A deactivated worker has one slot (002 §3): none where a mutant set two.
                p.deactivate = (p.slots() == 1).then(|| deactivation(rng, pes));
            }
            None if rng.random_bool(0.3) => p.slots = Some(2), // 002 §3's two subproblems per PE
            None => {}
        }
    }
    if let Driver::Sim(c) = &mut spec.driver {
        *c = on_network(rng, *c, b);
    }
    budgeted(spec)
}

/// The machine on a network drawn last (000 §2.1, §4), so that every
/// earlier draw keeps its value: when P is a power of two, a topology in
/// three runs of ten (neighbourhood polling: every run, no fat tree, whose
/// nearest PEs are pairs).
fn on_network(rng: &mut ChaCha8Rng, sim: SimConfig, b: BalancerKind) -> SimConfig {
    let near = b == BalancerKind::NeighbourPolling;
    if !sim.pes.is_power_of_two() || !(near || rng.random_bool(0.3)) {
        return sim;
    }
    let all = [Topology::Hypercube, Topology::Mesh { r: 2 }, Topology::FatTree, Topology::Butterfly, Topology::Ccc];
    let choices = if near { &all[..2] } else { &all[..] };
    SimConfig { topology: *choices.choose(rng).expect("topologies"), ..sim }
}

/// A deactivated worker's window (002 §3; S-17): a random PE, early on.
fn deactivation(rng: &mut ChaCha8Rng, pes: u32) -> Deactivation {
    let from = rng.random_range(0..200);
    Deactivation { pe: rng.random_range(0..pes), from, to: from + rng.random_range(1..=2000) }
}

/// A small branch-and-bound instance (S-12): knapsack, TSP, Golomb or the
/// last iteration of a 15-puzzle IDA*.
fn branch_and_bound(rng: &mut ChaCha8Rng) -> String {
    match rng.random_range(0..4) {
        3 => format!("puzzle15:moves={},seed={}", rng.random_range(10..=30), rng.random_range(0..1000)),
        0 => format!("knapsack:items={},seed={}", rng.random_range(20..=60), rng.random_range(0..1000)),
        1 => format!("tsp:cities={},seed={}", rng.random_range(5..=10), rng.random_range(0..1000)),
        _ => format!("golomb:marks={}", rng.random_range(4..=7)),
    }
}

/// `spec` with steps budgeted for its atomic items.
fn budgeted(mut spec: RunSpec) -> RunSpec {
    // While one PE works an atomic item of T_atomic units the others keep
    // polling once per latency: budget the steps for that.
    let t_atomic = spec.workload.atomic_and_h().map_or(1, |(a, _)| a);
    if let Driver::Sim(c) = &mut spec.driver {
        c.max_steps += c.polling_steps(t_atomic);
    }
    spec
}

/// 004's atomic machine with `sim`'s P and seed and an arbiter heuristic
/// drawn from `rng`, or (one run in five) the complete network.
fn atomic_machine(rng: &mut ChaCha8Rng, sim: &SimConfig) -> AtomicConfig {
    let complete = rng.random_bool(0.2);
    let arbiter = match complete {
        true => Arbiter::Fifo,
        false => *ARBITERS.choose(rng).expect("arbiters"),
    };
    AtomicConfig { pes: sim.pes, seed: sim.seed, complete, arbiter, ..AtomicConfig::default() }
}

/// P drawn from the profile's values ([`PES`]; the full profile adds 256
/// and 1024) within `o.pes`, or uniformly from `o.pes` if it holds none.
fn draw_pes(rng: &mut ChaCha8Rng, o: &Options) -> u32 {
    let mut pes = PES.to_vec();
    if o.profile == Profile::Full {
        pes.extend([256, 1024]);
    }
    pes.retain(|p| o.pes.as_ref().is_none_or(|r| r.contains(p)));
    match (pes.choose(rng), &o.pes) {
        (Some(&p), _) => p,
        (None, Some(r)) => rng.random_range(r.clone()),
        (None, None) => unreachable!("the profile's values of P"),
    }
}

/// The quick swarm's values of P (the full one adds 256 and 1024).
pub(crate) const PES: [u32; 10] = [1, 2, 3, 4, 5, 8, 13, 16, 32, 64];

/// The quick swarm's machine drawn from `seed` alone (`simulate --swarm`).
pub fn machine_of_seed(seed: u64) -> SimConfig {
    machine(&mut stream(seed, 0, Purpose::Swarm), seed, &Options::default())
}

/// A machine drawn from `rng`: every parameter within its valid range,
/// P within `o.pes`.
fn machine(rng: &mut ChaCha8Rng, seed: u64, o: &Options) -> SimConfig {
    let pes = draw_pes(rng, o);
    let fixed = rng.random_bool(0.5);
    let a = rng.random_range(1..=10);
    let mut c = SimConfig {
        pes,
        seed,
        dt: *[1, 4, 10, 40].choose(rng).expect("Δt values"),
        t_rout: *[1, 5, 10, 30].choose(rng).expect("T_rout values"),
        t_split: *[0, 1, 5, 20].choose(rng).expect("T_split values"),
        latency: (!fixed).then(|| (a, a + rng.random_range(0..=40))),
        slow: rng.random_bool(0.25).then(|| (rng.random_range(1..=pes.min(4)), rng.random_range(2..=8))),
        initial_split: rng.random_bool(0.3).into(),
        max_steps: 20_000_000,
        max_time: None,
        horizon: 0,
        ..SimConfig::default()
    };
    // Drawn after the rest, so the parameters above keep their draws.
    c.shape = match rng.random_range(0..3) {
        0 => Shape::Uniform,
        1 => Shape::Bimodal { permille: *[20, 100, 300].choose(rng).expect("p values") },
        _ => Shape::Heavy,
    };
    c.schedule =
        *[Schedule::Plain, Schedule::Plain, Schedule::SlowControl, Schedule::SlowWork].choose(rng).expect("schedules");
    c.fifo_links = rng.random_bool(0.5);
    let cost = |rng: &mut ChaCha8Rng| *[0, 0, 1, 3].choose(rng).expect("cost values");
    (c.o, c.g, c.t_poll) = (cost(rng), cost(rng), cost(rng));
    if c.latency.is_none() {
        // A fixed latency has no range for a shape or a schedule to act on,
        // and `simulate` takes them only with --latency: the replay must run.
        (c.shape, c.schedule) = (Shape::Uniform, Schedule::Plain);
    }
    // 000 §1.2's randomised initialisation for some of the runs that split
    // the root, from a stream of its own: every other draw keeps its value.
    let mut own = stream(seed, 1, Purpose::Swarm);
    if c.initial_split.is_split() && own.random_bool(0.4) {
        c.initial_split = InitialSplit::Random(*[1, 2, 4, 8].choose(&mut own).expect("K values"));
    }
    c
}
