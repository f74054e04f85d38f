//! SIMD phase load balancing on the phased machine (000 §1.1, 000-7;
//! rules in [`crate::protocol::simd_phase`]): phases of T_phase work; at a
//! barrier where the trigger holds, prefix sums over the PEs (2⌈log2 P⌉
//! steps of T_rout: one hop per step, as on the hypercube) enumerate the
//! idle and the busy PEs, then the i-th idle PE asks the i-th busy one,
//! which answers with a split-off part or a reject. No permutation.
//! Termination is the barrier's, as for poll-and-shuffle.

use super::Machine;
use crate::event::Event;
use crate::problem::Subproblem;
use crate::protocol::poll_and_shuffle::PasRules;
use crate::protocol::simd_phase::{prefix_steps, SimdRules};
use crate::protocol::PeId;
use crate::sim::logp::{Outcome, Stop};
use crate::sim::phased::permutation::Method;
use crate::sim::phased::trigger::Trigger;
use crate::sim::SimConfig;

/// Runs SIMD phases on `cfg.pes` PEs from `root` on PE 0, feeding every
/// event to `sink`; `cfg.dt` is T_phase, `cfg.max_steps` caps phases.
pub fn run<T: Subproblem>(cfg: &SimConfig, rules: SimdRules, root: T, sink: &mut dyn FnMut(Event)) -> Outcome {
    let mut m = Machine::new(cfg, PasRules::PAPER, (Method::Exact, Trigger::Cycle), root, sink);
    for phase in 0..cfg.max_steps.min(u64::from(u32::MAX)) as u32 {
        m.work_phase(0, phase, u64::from(phase));
        if !m.any_busy() {
            return m.terminate(u64::from(phase) + 1);
        }
        balance(&mut m, rules);
    }
    Outcome { steps: cfg.max_steps, end_time: m.now, stop: Stop::StepCap }
}

/// The barrier's load-balancing phase, if the trigger holds.
fn balance<T: Subproblem>(m: &mut Machine<'_, T>, rules: SimdRules) {
    let (idle, busy): (Vec<PeId>, Vec<PeId>) = (0..m.cfg.pes).partition(|&k| !m.busy(k as usize));
    if !SimdRules::triggered(idle.len(), m.cfg.pes as usize) {
        return;
    }
    let start = m.now + m.cfg.t_rout * prefix_steps(m.cfg.pes);
    let mut end = start;
    for (k, p) in rules.matching(&idle, &busy) {
        end = end.max(m.request(k, p, start));
    }
    m.now = end.max(m.batch.last().unwrap_or(end));
    m.batch.emit_until(m.now, &mut *m.sink);
}
