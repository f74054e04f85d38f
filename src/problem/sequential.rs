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
pub fn run<S: Subproblem>(mut task: S) -> SeqRun {
    let mut out = SeqRun::default();
    while !task.is_empty() {
        out.work += task.work(CHUNK, &mut out.log);
    }
    out
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
