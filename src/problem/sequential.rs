//! The sequential reference executor: runs a subproblem to exhaustion on one
//! PE. Its fingerprint and T_seq are what every parallel run must reproduce.

use super::{Subproblem, WorkLog};

/// Work units per call of `work` in the reference loop.
const CHUNK: u64 = 1 << 16;

/// Result of a sequential run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeqRun {
    /// T_seq: total work units.
    pub work: u64,
    /// Fingerprint, leaves and depth of everything worked.
    pub log: WorkLog,
}

/// Runs `task` to exhaustion without splitting.
pub fn run<S: Subproblem>(task: S) -> SeqRun {
    run_within(task, u64::MAX).unwrap_or_else(|_| unreachable!("no budget"))
}

/// Runs `task` to exhaustion without splitting, or gives up once it has
/// done more than `budget` units (`Err`: the part run so far).
pub fn run_within<S: Subproblem>(mut task: S, budget: u64) -> Result<SeqRun, SeqRun> {
    let mut out = SeqRun::default();
    while !task.is_empty() && out.work <= budget {
        out.work += task.work(CHUNK.min((budget - out.work).saturating_add(1)), &mut out.log);
    }
    match out.work > budget {
        true => Err(out),
        false => Ok(out),
    }
}

/// Splits `task` recursively until every piece is atomic (no work done) and
/// returns the largest generation reached, or `None` if that would take more
/// than `max_pieces` pieces.
pub fn max_split_generation<S: Subproblem>(task: S, max_pieces: u64) -> Option<u32> {
    let (mut stack, mut pieces, mut deepest) = (vec![task], 1u64, 0);
    while let Some(mut t) = stack.pop() {
        match t.split() {
            Some(other) => {
                pieces += 1;
                if pieces > max_pieces {
                    return None;
                }
                stack.push(other);
                stack.push(t);
            }
            None => deepest = deepest.max(t.generation()),
        }
    }
    Some(deepest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Workload;

    /// A budget stops the run once it is passed, and a large one changes nothing.
    #[test]
    fn a_budget_stops_the_run_after_it() {
        let w: Workload = "synthetic:size=1000".parse().unwrap();
        let whole = run(w.root(Default::default()));
        assert_eq!(whole.work, 1000);
        assert_eq!(run_within(w.root(Default::default()), 1000), Ok(whole));
        let part = run_within(w.root(Default::default()), 999).unwrap_err();
        assert_eq!(part.work, 1000, "stopped after one unit past the budget");
        let part = run_within(w.root(Default::default()), 10).unwrap_err();
        assert_eq!(part.work, 11);
    }
}
