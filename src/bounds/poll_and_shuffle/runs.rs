//! The runs of poll-and-shuffle's suite on one topology: poll-and-shuffle
//! itself (000 §3–4) and, for 000 §3's comparison, asynchronous random
//! polling on the same network (000 §1.1, 000-6), on the same workloads
//! (paired by seed). Each run is normalised by the lower-order term of its
//! own theorem:
//!
//! - poll-and-shuffle (000 Thm 1; Thms 2–4 on hypercubic networks, meshes
//!   and fat trees): T_atomic + h·(T_phase + c̄_poll + T_perm/L), the mean
//!   cost of a phase of the run's schedule: c̄_poll = the mean over the L
//!   phases of 2·T_rout·hops(k, k ⊕ 2^i) + T_split, T_perm = T_rout·d;
//! - random polling (000 §1.1, \[27\]; S-1's R_d): T_atomic + h·(Δt + d·T_rout + T_split).

use rand::Rng;

use super::lemma2::Barriers;
use crate::base::rng::{derive_seed, stream, Purpose};
use crate::bounds::plan::Profile;
use crate::bounds::suite::{par_map, Phase, STEP_CAP_FACTOR};
use crate::harness::{Driver, RunSpec};
use crate::mutants::Mutant;
use crate::protocol::poll_and_shuffle::phases_per_cycle;
use crate::protocol::{BalancerKind, DetectorKind};
use crate::sim::{SimConfig, Stop, Topology};

/// T_atomic of the synthetic workloads.
const ATOMIC: u64 = 4;
/// Each PE's share: 2^SHARE_LOG · T_atomic units.
const SHARE_LOG: u32 = 9;
/// (T_phase = Δt, T_rout, T_split) of both balancers.
pub const MACHINE: (u64, u64, u64) = (20, 5, 2);
/// Runs per cell and phase.
pub const RUNS: u32 = 8;

/// Poll-and-shuffle, or random polling on the same network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Net {
    /// 000 §3's poll-and-shuffle on the phased machine.
    PollAndShuffle,
    /// 001's asynchronous random polling with T_rout per hop.
    RandomPolling,
}

/// What one run measured.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Which balancer.
    pub net: Net,
    /// Calibration or test.
    pub phase: Phase,
    /// n.
    pub pes: u32,
    /// The cell's split policy.
    pub policy: &'static str,
    /// The run's index in its cell (pairs the two balancers' runs).
    pub index: u32,
    /// A run of 000 Thms 3–4's regime ([`super::regime`]), not of the suite's cells.
    pub regime: bool,
    /// T_par − T_seq/n; +∞ if unfinished; for a regime test run stopped
    /// at the claim's limit ([`Sample::capped`]) a lower bound of it.
    pub excess: f64,
    /// A regime test run stopped at the step cap derived from
    /// `regime_t_par`'s limit ([`super::regime::step_cap`]): its `excess`
    /// and `r` are lower bounds, already above the limit.
    pub capped: bool,
    /// The excess over the run's lower-order term (R of its theorem).
    pub r: f64,
    /// 000 Lemma 2's event at one random qualifying (phase, S) of the run
    /// (poll-and-shuffle only; `None` without a qualifying phase).
    pub lemma2: Option<bool>,
    /// 000 Lemma 3: the run's qualifying phases over h (poll-and-shuffle,
    /// suite cells only; the claim `qualifying_phases`).
    pub lemma3: Option<f64>,
    /// Simulator steps the run took.
    pub steps: u64,
    /// The time the run reached (T_par if it ended).
    pub time: u64,
    /// Invariants that failed.
    pub failures: Vec<&'static str>,
    /// The command that replays the run.
    pub replay: String,
}

/// The cells: balanced and uniform trees, n = 8 … 128 (quick) or … 512
/// (full). Not n = 4: there the first splits reach every PE at once, an
/// excess far below the asymptotic one, which would pose as a trend.
pub fn cells(profile: Profile) -> Vec<(&'static str, u32)> {
    let top = if profile == Profile::Quick { 7 } else { 9 };
    ["balanced", "uniform"].into_iter().flat_map(|p| (3..=top).map(move |k| (p, 1u32 << k))).collect()
}

/// Calibration runs (the reference), then test runs (with `mutant`), of `net` on `topology`.
///
/// Only the cells with n ≤ `max_pes`.
pub fn run_all(
    net: Net,
    topology: Topology,
    profile: Profile,
    max_pes: u32,
    base: u64,
    mutant: Option<Mutant>,
) -> Vec<Sample> {
    let mut cells: Vec<(&str, u32, bool)> = cells(profile).into_iter().map(|(p, n)| (p, n, false)).collect();
    if net == Net::PollAndShuffle {
        cells.extend(super::regime::cells(profile, topology).into_iter().map(|(p, n)| (p, n, true)));
    }
    cells.retain(|c| c.1 <= max_pes);
    // A test run stops at its cell's calibration steps × STEP_CAP_FACTOR,
    // or in the regime at regime_t_par's limit (`Cap::Limit`).
    let jobs = |phase, most: &dyn Fn(usize) -> Option<u64>, limit: Option<(f64, &dyn Fn(usize) -> f64)>| {
        let cap = |c: usize| match (cells[c].2, limit) {
            (true, Some((limit, pace))) => Cap::Limit { limit, pace: pace(c) },
            _ => most(c).map_or(Cap::None, Cap::Steps),
        };
        let caps: Vec<Cap> = (0..cells.len()).map(cap).collect();
        let caps = &caps;
        (0..cells.len()).flat_map(|c| (0..RUNS).map(move |i| (c, phase, i, caps[c]))).collect::<Vec<_>>()
    };
    let one = |&(c, ph, i, cap): &(usize, Phase, u32, Cap), m| {
        let (policy, pes, regime) = cells[c];
        let dt = if regime { super::regime::t_phase(topology, pes) } else { MACHINE.0 };
        run_one(Job { net, topology, policy, pes, dt, regime, phase: ph, index: i, cap }, base, m)
    };
    let calibration = par_map(&jobs(Phase::Calibrate, &|_| None, None), |j| one(j, None));
    let r = RUNS as usize;
    let most = |c: usize| calibration.iter().skip(c * r).take(r).map(|s| s.steps).max().map(|m| m * STEP_CAP_FACTOR);
    let limit = super::regime::limit(&calibration);
    let pace = |c: usize| super::regime::pace(calibration.iter().skip(c * r).take(r));
    let tests = par_map(&jobs(Phase::Test, &most, Some((limit, &pace))), |j| one(j, mutant));
    calibration.into_iter().chain(tests).collect()
}

/// What stops a run before it ends.
#[derive(Clone, Copy, Debug)]
enum Cap {
    /// Nothing but the simulator's default (calibration runs).
    None,
    /// A step cap (STEP_CAP_FACTOR × the cell's calibration steps).
    Steps(u64),
    /// `regime_t_par`'s limit on R, reached at about `pace` time units a
    /// step ([`super::regime::step_cap`]).
    Limit { limit: f64, pace: f64 },
}

/// One run to make.
struct Job {
    net: Net,
    topology: Topology,
    policy: &'static str,
    pes: u32,
    /// T_phase (Δt): the suite's, or the regime's scaled one.
    dt: u64,
    regime: bool,
    phase: Phase,
    index: u32,
    cap: Cap,
}

impl Job {
    /// The cell's label; poll-and-shuffle on the hypercube keeps the
    /// labels (and so the seeds) it had before topologies.
    fn label(&self, net: Net) -> String {
        let phase = if self.phase == Phase::Calibrate { "calibrate" } else { "test" };
        let (balancer, policy, pes) = match net {
            Net::PollAndShuffle => ("poll-and-shuffle", self.policy, self.pes),
            Net::RandomPolling => ("random-polling", self.policy, self.pes),
        };
        let mut label = format!("{phase}/{balancer}/{policy}/P={pes}");
        if !(net == Net::PollAndShuffle && self.topology == Topology::Hypercube) {
            label += &format!("/{}", self.topology);
        }
        label
    }

    /// The run: the workload's seed is poll-and-shuffle's (so the two
    /// balancers meet the same trees), the machine's the balancer's own.
    fn spec(&self, base: u64, mutant: Option<Mutant>) -> RunSpec {
        let tree_seed = derive_seed(base, &self.label(Net::PollAndShuffle), self.index);
        let seed = derive_seed(base, &self.label(self.net), self.index);
        let (balancer, detector) = match self.net {
            Net::PollAndShuffle => (BalancerKind::PollAndShuffle, DetectorKind::Barrier),
            Net::RandomPolling => (BalancerKind::RandomPolling, DetectorKind::Energy),
        };
        let mutant =
            mutant.filter(|m| self.phase == Phase::Test && m.not_applicable(balancer, detector, false).is_none());
        let (dt, (_, t_rout, t_split)) = (self.dt, MACHINE);
        let size = u64::from(self.pes) * (ATOMIC << SHARE_LOG);
        let workload =
            format!("synthetic:size={size},atomic={ATOMIC},split={},seed={}", self.policy, tree_seed % 1_000_000);
        let workload: crate::problem::Workload = workload.parse().expect("valid");
        let max_steps = match self.cap {
            Cap::None => 50_000_000,
            Cap::Steps(s) => s,
            Cap::Limit { limit, pace } => super::regime::step_cap(self.t_lim(limit, &workload), pace),
        };
        let sim = SimConfig {
            pes: self.pes,
            seed,
            dt,
            t_rout,
            t_split,
            max_steps,
            topology: self.topology,
            ..SimConfig::default()
        };
        RunSpec::new(workload, balancer, detector, Driver::Sim(sim)).with_mutant(mutant)
    }

    /// The time past which R > `limit`: T_seq/n + `limit` × the lower-order term.
    fn t_lim(&self, limit: f64, workload: &crate::problem::Workload) -> f64 {
        let (t_atomic, h) = workload.atomic_and_h().unwrap_or((0, 0));
        (ATOMIC << SHARE_LOG) as f64 + limit * self.lower_order(t_atomic, h)
    }

    /// The lower-order term of the balancer's theorem (module doc).
    fn lower_order(&self, t_atomic: u64, h: u64) -> f64 {
        let (dt, (_, t_rout, t_split)) = (self.dt, MACHINE);
        let hops = self.topology.distances(self.pes);
        let per_h = match self.net {
            Net::PollAndShuffle => {
                let l = phases_per_cycle(self.topology, self.pes).max(1);
                let c_poll: u64 = (0..l).map(|i| 2 * t_rout * hops.hops(0, 1 << i).max(1) + t_split).sum();
                (u64::from(l) * dt + c_poll + t_rout * hops.diameter()) as f64 / f64::from(l)
            }
            Net::RandomPolling => (dt + hops.diameter() * t_rout + t_split) as f64,
        };
        t_atomic as f64 + h as f64 * per_h
    }
}

fn run_one(job: Job, base: u64, mutant: Option<Mutant>) -> Sample {
    let spec = job.spec(base, mutant);
    let sample = measure(&job, &spec);
    match job.cap {
        // Stopped short of the limit's time (steps quicker than the pace
        // expected): again at T_phase a step, which no step beats.
        Cap::Limit { limit, pace } if sample.capped && (sample.time as f64) <= job.t_lim(limit, &spec.workload) => {
            let least = job.dt as f64;
            (pace > least).then(|| run_one(Job { cap: Cap::Limit { limit, pace: least }, ..job }, base, mutant))
        }
        _ => None,
    }
    .unwrap_or(sample)
}

/// Runs `spec` (`job`'s) and measures it.
fn measure(job: &Job, spec: &RunSpec) -> Sample {
    let (t_atomic, h) = spec.workload.atomic_and_h().unwrap_or((0, 0));
    let mut barriers = Barriers::new(job.pes);
    let mut observe = |e: &crate::event::Event| {
        if !job.regime {
            barriers.observe(e); // Lemma 2's trials come from the suite's cells
        }
    };
    let report = spec.run_observed(None, &mut observe).expect("no trace to write");
    let t_par = report.check.metrics.t_par.filter(|_| report.outcome.finished());
    let stopped = report.outcome.stop == Stop::StepCap && !matches!(job.cap, Cap::None);
    let capped = stopped && matches!(job.cap, Cap::Limit { .. });
    // At the limit's cap T_par ≥ the time reached (regime::step_cap).
    let t_par = t_par.or(capped.then_some(report.outcome.end_time));
    let excess = t_par.map_or(f64::INFINITY, |t| t as f64 - report.reference.t_seq as f64 / f64::from(job.pes));
    let Driver::Sim(sim) = &spec.driver else { unreachable!("a simulated run") };
    let mut pick = stream(derive_seed(sim.seed, "lemma2", 0), 0, Purpose::Protocol);
    Sample {
        net: job.net,
        phase: job.phase,
        pes: job.pes,
        policy: job.policy,
        index: job.index,
        regime: job.regime,
        excess,
        capped,
        r: excess / job.lower_order(t_atomic, h),
        lemma2: (job.net == Net::PollAndShuffle).then(|| barriers.pick(|n| pick.random_range(0..n))).flatten(),
        lemma3: (job.net == Net::PollAndShuffle && !job.regime && h > 0)
            .then(|| barriers.qualifying() as f64 / h as f64),
        steps: report.outcome.steps,
        time: report.outcome.end_time,
        failures: if stopped { Vec::new() } else { report.check.failures().into_iter().map(|(n, _)| n).collect() },
        replay: spec.replay(),
    }
}
