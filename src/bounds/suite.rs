//! Running the plan: calibration runs (always the reference) and test runs
//! (the reference, or the mutant under test), each on its own seed, on up to
//! two threads, measured into [`Sample`]s.

use super::observe::GenDepth;
use super::papers::{lower_bound_eq1, Machine};
use super::plan::{Cell, Profile, BALANCER};
use crate::base::rng::derive_seed;
use crate::mutants::Mutant;

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
    /// T_par (the last `terminated`); `None` if the run did not finish.
    pub t_par: Option<u64>,
    /// R = (T_par − T_seq/P) / (T_atomic + h(Δt + T_rout + T_split)); +∞ if unfinished.
    pub r: f64,
    /// Requests until every live subproblem had generation ≥ h, / (P·h)
    /// (synthetic workloads only; +∞ if never).
    pub gen_depth: Option<f64>,
    /// Mean queue length met by arriving requests.
    pub queue_mean: Option<f64>,
    /// Balancer messages (request, reject, work) / (P·h).
    pub traffic: f64,
    /// T_par ≥ max(T_seq/P, max_gen·T_split) with the reference T_seq (000 eq. (1)).
    pub lower_ok: bool,
    /// The lower bound 000 eq. (1) gives.
    pub lower: f64,
    /// Invariants of `check/` that failed.
    pub failures: Vec<&'static str>,
    /// The command that replays the run.
    pub replay: String,
}

/// One run to do.
struct Job<'a> {
    cell: &'a Cell,
    phase: Phase,
    index: u32,
}

/// Runs every calibration and test run of `profile` with P ≤ `max_pes`
/// under base seed `base`; test runs use `mutant`. Samples come back in
/// plan order.
pub fn run_all(profile: Profile, max_pes: u32, base: u64, mutant: Option<Mutant>) -> Vec<Sample> {
    let cells: Vec<Cell> = profile.cells().into_iter().filter(|c| c.pes <= max_pes).collect();
    let (cal, test) = profile.runs();
    let mut jobs = Vec::new();
    for cell in &cells {
        jobs.extend((0..cal).map(|index| Job { cell, phase: Phase::Calibrate, index }));
        jobs.extend((0..test).map(|index| Job { cell, phase: Phase::Test, index }));
    }
    par_map(&jobs, |job| run_one(job, base, mutant))
}

/// `f` over `jobs` on up to two threads; results in `jobs`' order.
pub fn par_map<J: Sync, S: Send>(jobs: &[J], f: impl Fn(&J) -> S + Sync) -> Vec<S> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(2);
    let f = &f;
    let mut all: Vec<(usize, S)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| s.spawn(move || (t..jobs.len()).step_by(threads).map(|i| (i, f(&jobs[i]))).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a run panicked")).collect()
    });
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, s)| s).collect()
}

fn run_one(job: &Job, base: u64, mutant: Option<Mutant>) -> Sample {
    let phase_name = if job.phase == Phase::Calibrate { "calibrate" } else { "test" };
    let seed = derive_seed(base, &format!("{BALANCER}/{phase_name}/{}", job.cell.label()), job.index);
    let mutant = if job.phase == Phase::Test { mutant } else { None };
    let spec = job.cell.spec(seed, mutant);
    let (t_atomic, h) = spec.workload.atomic_and_h().unwrap_or((0, 0));
    let mut depth = GenDepth::new(job.cell.pes, h);
    let report = spec.run_observed(None, &mut |e| depth.observe(e)).expect("no trace to write");
    let m = &report.check.metrics;
    let h = if job.cell.synthetic() { h } else { u64::from(m.max_gen).max(1) };
    let (dt, t_rout, t_split) = job.cell.machine;
    let t_seq = report.reference.t_seq;
    let machine = Machine { pes: job.cell.pes, t_seq, t_atomic, h, dt, t_rout, t_split };
    let t_par = m.t_par.filter(|_| report.outcome.finished());
    let pe_h = f64::from(job.cell.pes) * h as f64;
    let balancer_msgs = ["request", "reject", "work"].iter().map(|k| m.messages[k]).sum::<u64>();
    let lower = lower_bound_eq1(t_seq, job.cell.pes, u64::from(m.max_gen), t_split);
    Sample {
        phase: job.phase,
        pes: job.cell.pes,
        machine,
        t_par,
        r: t_par.map_or(f64::INFINITY, |t| machine.excess(t)),
        gen_depth: job.cell.synthetic().then(|| depth.requests_until_h().map_or(f64::INFINITY, |n| n as f64 / pe_h)),
        queue_mean: m.queue.mean,
        traffic: balancer_msgs as f64 / pe_h,
        lower_ok: t_par.is_none_or(|t| t as f64 >= lower),
        lower,
        failures: report.check.failures().into_iter().map(|(name, _)| name).collect(),
        replay: spec.replay(),
    }
}
