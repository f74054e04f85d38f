//! Two exact claims of random polling's suite on small runs of their own
//! (issue 31), each a fact every run must meet:
//!
//! - `lower_bound_atomic`, 000 §6.4 ("we trivially get an additional lower
//!   bound T_par ∈ Ω(T_atomic)"): 000 eq. (1) with the T_atomic term,
//!   T_par ≥ max(T_seq/P, max_gen·T_split, T_atomic), on loops whose
//!   iterations are atomic (002 §4.2: one iteration is never cut) and
//!   heavy-tailed, so T_atomic, the dearest iteration, is far above T_seq/P
//!   and the new term is the one that binds. One PE works the dearest
//!   iteration whole, so no balancer that keeps its work beats it; the
//!   claim also asks that the term bind in some run, else it tests
//!   nothing. `split-loses` fails it where T_seq/P alone does not (a lost
//!   half that held the dearest iteration).
//! - `initial_split`, 002 §3 ("broadcasting the root problem initially and
//!   splitting it into P disjoint parts … can be done without
//!   communication in time ⌈log P⌉·T_split"): with `--initial-split bfs`
//!   every PE starts work by ⌈log2 P⌉·T_split (its first `work` event
//!   began by then). The broadcast itself is not modelled (every PE holds
//!   the root at time 0). `initial-split-linear` (each step splits the
//!   part split off last) fails it: the deepest PE waits up to
//!   (P − 1)·T_split.

use super::claims::{Claim, Plot};
use super::plan::{Cell, MACHINES, T_POLL};
use super::suite::par_map;
use crate::base::rng::derive_seed;
use crate::event::Event;
use crate::harness::{Driver, RunSpec};
use crate::mutants::Mutant;
use crate::problem::Workload;
use crate::protocol::initial::InitialSplit;
use crate::protocol::{BalancerSpec, DetectorKind};
use crate::sim::SimConfig;

/// Machine sizes of `lower_bound_atomic`'s runs.
pub const ATOMIC_PES: &[u32] = &[16, 64];
/// Iterations of its loops (heavy-tailed costs: T_atomic ≈ n, T_seq ≈ 5n).
pub const LOOP_N: u64 = 256;
/// Machine sizes of `initial_split`'s runs.
pub const SPLIT_PES: &[u32] = &[4, 16, 64];
/// Runs per machine size (each on its own seed).
pub const RUNS: u32 = 4;

/// What one run measured.
struct Measured {
    pes: u32,
    t_par: Option<u64>,
    t_seq: u64,
    t_atomic: u64,
    max_gen: u64,
    /// Each PE's first `work` event's start (None: it never worked).
    first_work: Vec<Option<u64>>,
    t_split: u64,
}

/// The two claims on P ≤ `max_pes` under base seed `base`, the runs with `mutant`.
pub fn claims(max_pes: u32, base: u64, mutant: Option<Mutant>) -> Vec<Claim> {
    let jobs = |pes: &[u32]| -> Vec<(u32, u32)> {
        pes.iter().filter(|&&p| p <= max_pes).flat_map(|&p| (0..RUNS).map(move |i| (p, i))).collect()
    };
    let atomic = par_map(&jobs(ATOMIC_PES), |&(p, i)| run(&loop_spec(p, base, i, mutant)));
    let split = par_map(&jobs(SPLIT_PES), |&(p, i)| run(&split_spec(p, base, i, mutant)));
    vec![atomic_claim(&atomic), split_claim(&split)]
}

/// 001's machine of the suite's first cell shape on `pes` PEs.
fn sim(pes: u32, seed: u64) -> SimConfig {
    let (dt, t_rout, t_split) = MACHINES[0];
    SimConfig { pes, seed, dt, t_rout, t_split, t_poll: T_POLL, max_steps: 50_000_000, ..SimConfig::default() }
}

/// Random polling with the energy detector on `workload`, `mutant`'s bug if it acts there.
fn spec(workload: Workload, sim: SimConfig, mutant: Option<Mutant>) -> RunSpec {
    let mutant = mutant.filter(|m| m.not_applicable(super::plan::BALANCER, DetectorKind::Energy, false).is_none());
    let balancer = BalancerSpec::of(super::plan::BALANCER);
    RunSpec { mutant, ..RunSpec::new(workload, balancer, DetectorKind::Energy, Driver::Sim(sim)) }
}

/// The `i`th heavy-tailed loop on `pes` PEs.
fn loop_spec(pes: u32, base: u64, i: u32, mutant: Option<Mutant>) -> RunSpec {
    let seed = derive_seed(base, &format!("random-polling/atomic/P={pes}"), i);
    let w = format!("loop:n={LOOP_N},cost=heavy,seed={}", seed % 1_000_000);
    spec(w.parse().expect("a loop workload"), sim(pes, seed), mutant)
}

/// The `i`th run of the suite's synthetic workloads (balanced, then
/// uniform splits) on `pes` PEs with 002 §3's initial split.
fn split_spec(pes: u32, base: u64, i: u32, mutant: Option<Mutant>) -> RunSpec {
    let seed = derive_seed(base, &format!("random-polling/initial-split/P={pes}"), i);
    let policy = super::plan::POLICIES[i as usize % 2];
    let cell = Cell { workload: policy, pes, machine: MACHINES[0], trim: None };
    let sim = SimConfig { initial_split: InitialSplit::Bfs, ..sim(pes, seed) };
    spec(cell.workload(seed), sim, mutant)
}

/// One run, measured.
fn run(spec: &RunSpec) -> Measured {
    let Driver::Sim(cfg) = &spec.driver else { unreachable!("granularity runs on 001's machine") };
    let mut first_work = vec![None; cfg.pes as usize];
    let mut seen = |e: &Event| {
        if let Event::Work { t, pe, units, .. } = *e {
            first_work[pe as usize].get_or_insert(t.saturating_sub(units));
        }
    };
    let report = spec.run_observed(None, &mut seen).expect("no trace to write");
    let m = &report.check.metrics;
    Measured {
        pes: cfg.pes,
        t_par: m.t_par.filter(|_| report.outcome.finished()),
        t_seq: report.reference.t_seq,
        t_atomic: spec.workload.atomic_and_h().map_or(0, |(a, _)| a),
        max_gen: u64::from(m.max_gen),
        first_work,
        t_split: cfg.t_split,
    }
}

/// 000 §6.4: T_par ≥ max(T_seq/P, max_gen·T_split, T_atomic) on every
/// run, with T_atomic the binding term in at least one.
fn atomic_claim(runs: &[Measured]) -> Claim {
    let eq1 = |r: &Measured| super::papers::lower_bound_eq1(r.t_seq, r.pes, r.max_gen, r.t_split);
    let bound = |r: &Measured| eq1(r).max(r.t_atomic as f64);
    let ratio = |r: &Measured| r.t_par.map(|t| (r.pes, t as f64 / bound(r)));
    let bad = runs.iter().filter(|r| r.t_par.is_some_and(|t| (t as f64) < bound(r))).count();
    let only_atomic = runs.iter().filter(|r| r.t_par.is_some_and(|t| (t as f64) < bound(r) && t as f64 >= eq1(r)));
    let binds = runs.iter().filter(|r| r.t_atomic as f64 > eq1(r)).count();
    let worst = runs.iter().filter_map(ratio).map(|(_, x)| x).fold(f64::INFINITY, f64::min);
    let measured = format!(
        "{bad} runs below ({} only by the T_atomic term); T_atomic binds in {binds} of {}; min T_par/bound = {worst:.3}",
        only_atomic.count(),
        runs.len()
    );
    let reference = "000 §6.4: T_par ≥ max(T_seq/P, max_gen·T_split, T_atomic) (heavy-tailed loops)";
    let pass = bad == 0 && binds > 0;
    let bound_text = "T_par/bound ≥ 1; T_atomic binds in some run";
    let mut c = Claim::exact("lower_bound_atomic", reference, runs.len() as u64, measured, bound_text, pass);
    c.plot = Plot::exact(runs.iter().filter_map(ratio).collect(), "T_par/max(T_seq/P, g·T_split, T_atomic) ≥ 1");
    c
}

/// ⌈log2 P⌉.
pub fn ceil_log2(pes: u32) -> u64 {
    u64::from(pes.max(1).next_power_of_two().trailing_zeros())
}

/// 002 §3: with the initial split every PE starts work by ⌈log2 P⌉·T_split.
fn split_claim(runs: &[Measured]) -> Claim {
    let limit = |r: &Measured| ceil_log2(r.pes) * r.t_split;
    let latest = |r: &Measured| r.first_work.iter().map(|w| w.unwrap_or(u64::MAX)).max().unwrap_or(0);
    let ratio = |r: &Measured| latest(r) as f64 / limit(r).max(1) as f64;
    let bad = runs.iter().filter(|r| latest(r) > limit(r)).count();
    let worst = runs.iter().map(ratio).fold(0.0, f64::max);
    let measured = format!("{bad} runs over; max (last PE's first work)/(⌈log2 P⌉·T_split) = {worst:.3}");
    let reference = "002 §3: the initial split gives every PE work by ⌈log P⌉·T_split";
    let bound = "every PE's first work starts ≤ ⌈log2 P⌉·T_split";
    let pass = bad == 0 && !runs.is_empty();
    let mut c = Claim::exact("initial_split", reference, runs.len() as u64, measured, bound, pass);
    c.plot = Plot::exact(runs.iter().map(|r| (r.pes, ratio(r))).collect(), "first work/(⌈log2 P⌉·T_split) ≤ 1");
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceil_log2_by_hand() {
        assert_eq!([1, 2, 3, 4, 5, 64, 65].map(ceil_log2), [0, 1, 2, 2, 3, 6, 7]);
    }
}
