//! Running the plan: calibration runs (always the reference) and test runs
//! (the reference, or the mutant under test), each on its own seed, on up to
//! two threads, measured into [`Sample`]s.

use super::observe::GenDepth;
use super::papers::{lower_bound_eq1, Machine};
use super::plan::{Cell, Profile, BALANCER, T_POLL};
use crate::base::rng::derive_seed;
use crate::check::Metrics;
use crate::event::{Event, Kind};
use crate::harness::{Compose, Driver, RunSpec};
use crate::mutants::Mutant;
use crate::sim::Stop;

/// Calibration or test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Fits the constants, on the reference, on its own seeds.
    Calibrate,
    /// Checks the implementation under test against them, on other seeds.
    Test,
}

/// What one run measured.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Calibration or test.
    pub phase: Phase,
    /// P.
    pub pes: u32,
    /// The parameters of 001 Thm 1 (h measured for UTS).
    pub machine: Machine,
    /// 001 Thm 2's runs (S-18): `Some(trimmed)`; `None` for Thm 1's.
    pub trim: Option<bool>,
    /// Largest queue met by an arriving request (`recv` events' `queue`).
    pub queue_max: Option<u32>,
    /// Thm 2's R: (T_par − (1 + ε)·T_seq/cap) / (T_atomic +
    /// h(Δt + T_rout + T_split)), cap = the PEs' capacity Σ 1/speed (slow PEs count
    /// 1/factor); +∞ if unfinished.
    pub r_cap: f64,
    /// T_par (the last `terminated`); `None` if the run did not finish.
    pub t_par: Option<u64>,
    /// R = (T_par − T_seq/P) / (T_atomic + h(Δt + T_rout + T_split)); +∞ if unfinished.
    pub r: f64,
    /// Requests until every live subproblem had generation ≥ h, / (P·h)
    /// (synthetic workloads only; +∞ if never).
    pub gen_depth: Option<f64>,
    /// 001 Lemma 6's remaining time: (T_par − the time every live
    /// subproblem had generation ≥ h) / (T_atomic + h(Δt + T_rout +
    /// T_split)) (synthetic workloads only; +∞ if unfinished or never).
    pub remaining: Option<f64>,
    /// Red requests (001 Lemma 4's colouring) until every live subproblem
    /// had generation ≥ h, / (P·h) (synthetic workloads only; if never, the
    /// red requests of the whole run: a lower bound).
    pub red_depth: Option<f64>,
    /// Polls (every slice that did not exhaust its subproblem ends in one:
    /// `work` events − `idle` events).
    pub polls: u64,
    /// Mean queue length met by arriving requests.
    pub queue_mean: Option<f64>,
    /// Balancer messages (request, reject, work) / (P·h).
    pub traffic: f64,
    /// Requests by victim offset: index d − 1 counts requests from PE i
    /// to PE (i + d) mod P, d = 1 … P − 1.
    pub victims: Vec<u64>,
    /// T_par ≥ max(T_seq/P, max_gen·T_split) with the reference T_seq (000 eq. (1)).
    pub lower_ok: bool,
    /// The lower bound 000 eq. (1) gives.
    pub lower: f64,
    /// Invariants of `check/` that failed (none for a run stopped at its cap:
    /// it is unfinished, not wrong).
    pub failures: Vec<&'static str>,
    /// Simulator steps the run took.
    pub steps: u64,
    /// True if the run was stopped at its step cap (or time cap).
    pub capped: bool,
    /// The command that replays the run.
    pub replay: String,
    /// The run's metrics, as `check/` measured them.
    pub metrics: Metrics,
}

/// One run to do.
struct Job<'a> {
    cell: &'a Cell,
    phase: Phase,
    index: u32,
    /// The step cap of a test run.
    cap: Option<u64>,
}

/// A test run stops after this many times the most simulator steps a
/// calibration run of its cell took. Steps grow with T_par (idle PEs poll
/// once per latency), so a run stopped there is far past the
/// (1 + MARGIN)·C limit of `t_par` (MARGIN = 0.5) and fails it as R = ∞:
/// the stop changes no verdict, and a balancer 1,000× off fails in
/// seconds instead of running to its end (issue 16).
pub const STEP_CAP_FACTOR: u64 = 4;

/// Runs every calibration run of `profile` with P ≤ `max_pes` under base
/// seed `base`, then every test run (with `mutant`), each stopped at
/// [`STEP_CAP_FACTOR`] × its cell's calibration maximum. Samples come
/// back calibration first, in plan order.
pub fn run_all(profile: Profile, max_pes: u32, base: u64, mutant: Option<Mutant>) -> Vec<Sample> {
    let cells: Vec<Cell> = profile.cells().into_iter().filter(|c| c.pes <= max_pes).collect();
    let (cal, test) = profile.runs();
    let jobs = |phase, n, cap: &dyn Fn(usize) -> Option<u64>| -> Vec<Job> {
        let each = |(i, cell)| (0..n).map(move |index| Job { cell, phase, index, cap: cap(i) });
        cells.iter().enumerate().flat_map(each).collect()
    };
    let calibrate = |job: &Job| {
        let key = format!("polling/{:?}/{}/{base}", job.cell, job.index);
        super::memo::calibration(key, || run_one(job, base, None))
    };
    let calibration = par_map(&jobs(Phase::Calibrate, cal, &|_| None), calibrate);
    let most = |i: usize| calibration.iter().skip(i * cal as usize).take(cal as usize).map(|s| s.steps).max();
    let tests =
        par_map(&jobs(Phase::Test, test, &|i| most(i).map(|m| m * STEP_CAP_FACTOR)), |job| run_one(job, base, mutant));
    calibration.into_iter().chain(tests).collect()
}

/// `f` over `jobs` on every core ([`crate::base::par::map`]); results in `jobs`' order.
pub fn par_map<J: Sync, S: Send>(jobs: &[J], f: impl Fn(&J) -> S + Sync) -> Vec<S> {
    crate::base::par::map(jobs, f)
}

/// What a run of the suite observes of its events: the generation depth
/// reached, polls, and the victims of requests by distance.
struct Observed {
    depth: GenDepth,
    works: u64,
    idles: u64,
    victims: Vec<u64>,
}

impl Observed {
    fn new(pes: u32, depth: GenDepth) -> Observed {
        Observed { depth, works: 0, idles: 0, victims: vec![0; pes.saturating_sub(1) as usize] }
    }

    fn observe(&mut self, e: &Event, pes: u32) {
        self.depth.observe(e);
        self.works += u64::from(matches!(e, Event::Work { .. }));
        self.idles += u64::from(matches!(e, Event::Idle { .. }));
        if let Event::Send { from, to, kind: Kind::Request, .. } = *e {
            if let Some(v) = self.victims.get_mut(((to + pes - from) % pes) as usize - 1) {
                *v += 1;
            }
        }
    }
}

/// R with slow PEs: the excess over (1 + ε)·T_seq over the machine's
/// capacity (a slow PE counts 1/factor), per unit of the lower-order term.
fn r_cap(cell: &Cell, machine: &Machine, t_par: u64) -> f64 {
    let (n, f) = cell.slow().unwrap_or((0, 1));
    let cap = f64::from(cell.pes - n) + f64::from(n) / f as f64;
    (t_par as f64 - (1.0 + machine.eps()) * machine.t_seq as f64 / cap) / machine.rest()
}

/// [`Sample::remaining`]: the time from `at_h` to the end, over the
/// lower-order term of 001 Lemma 6; +∞ if either is missing.
fn remaining(machine: &Machine, t_par: Option<u64>, at_h: Option<u64>) -> f64 {
    match (t_par, at_h) {
        (Some(t), Some(h)) => t.saturating_sub(h) as f64 / machine.rest(),
        _ => f64::INFINITY,
    }
}

fn run_one(job: &Job, base: u64, mutant: Option<Mutant>) -> Sample {
    let phase_name = if job.phase == Phase::Calibrate { "calibrate" } else { "test" };
    let seed = derive_seed(base, &format!("{BALANCER}/{phase_name}/{}", job.cell.label()), job.index);
    let mutant = if job.phase == Phase::Test { mutant } else { None };
    let mut spec = job.cell.spec(seed, mutant);
    if let (Driver::Sim(c), Some(cap)) = (&mut spec.driver, job.cap) {
        c.max_steps = cap;
    }
    measure(job.cell, job.phase, &spec, &spec.balancer, job.cap.is_some())
}

/// One run of `cell`'s `spec` (from [`Cell::spec`], its step cap set if
/// `capped`: a run stopped there is unfinished, not wrong) with the PEs
/// `pes` builds — the spec's balancer, or a user's
/// ([`crate::harness::UserBalancer`]) — measured into a [`Sample`].
pub fn measure(cell: &Cell, phase: Phase, spec: &RunSpec, pes: &impl Compose, capped: bool) -> Sample {
    let (t_atomic, h) = spec.workload.atomic_and_h().unwrap_or((0, 0));
    let (dt, t_rout, t_split) = cell.machine;
    let mut seen = Observed::new(cell.pes, GenDepth::new(cell.pes, h, dt + t_split + 2 * t_rout));
    let report = spec.run_composed(pes, None, &mut |e| seen.observe(e, cell.pes)).expect("no trace to write");
    let Observed { depth, works, idles, victims } = seen;
    let m = &report.check.metrics;
    let h = if cell.synthetic() { h } else { u64::from(m.max_gen).max(1) };
    let t_seq = report.reference.t_seq;
    let machine = Machine { pes: cell.pes, t_seq, t_atomic, h, dt, t_rout, t_split, t_poll: T_POLL };
    let t_par = m.t_par.filter(|_| report.outcome.finished());
    let capped = matches!(report.outcome.stop, Stop::StepCap | Stop::TimeCap) && capped;
    let pe_h = f64::from(cell.pes) * h as f64;
    let balancer_msgs = ["request", "reject", "work"].iter().map(|k| m.messages[k]).sum::<u64>();
    let lower = lower_bound_eq1(t_seq, cell.pes, u64::from(m.max_gen), t_split);
    Sample {
        phase,
        pes: cell.pes,
        machine,
        trim: cell.trim,
        queue_max: m.queue.max,
        r_cap: t_par.map_or(f64::INFINITY, |t| r_cap(cell, &machine, t)),
        t_par,
        r: t_par.map_or(f64::INFINITY, |t| machine.excess(t)),
        gen_depth: cell.synthetic().then(|| depth.requests_until_h().map_or(f64::INFINITY, |n| n as f64 / pe_h)),
        red_depth: cell.synthetic().then(|| depth.red_until_h() as f64 / pe_h),
        remaining: cell.synthetic().then(|| remaining(&machine, t_par, depth.time_at_h())),
        queue_mean: m.queue.mean,
        polls: works - idles,
        traffic: balancer_msgs as f64 / pe_h,
        victims,
        lower_ok: t_par.is_none_or(|t| t as f64 >= lower),
        lower,
        failures: match capped {
            true => Vec::new(),
            false => report.check.failures().into_iter().map(|(name, _)| name).collect(),
        },
        steps: report.outcome.steps,
        capped,
        replay: spec.replay(),
        metrics: m.clone(),
    }
}
