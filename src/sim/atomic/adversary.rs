//! The worst-case arbiter of 004 §2, exhaustively: every sequence of
//! arbitration choices of a tiny instance is run (stateless enumeration:
//! each run follows a script of choices, recording how many options each
//! choice had; the next script changes the last choice that has an option
//! left), and the run with the largest completion time T is the worst case.
//! 004's theorems are stated for this arbiter; the heuristics of
//! [`super::Arbiter`] only approximate it.

use super::network::{Chooser, Script};

/// What an exhaustive exploration found.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Exploration {
    /// Runs made (one per choice sequence).
    pub runs: u64,
    /// True if every choice sequence was run (false: the cap was reached).
    pub complete: bool,
    /// The largest T found.
    pub worst: u64,
    /// The smallest T found.
    pub best: u64,
    /// The choices of a run reaching `worst` (replay it with [`Script`]).
    pub worst_script: Vec<usize>,
}

/// Runs `run` on every choice sequence (at most `max_runs` of them); `run`
/// takes a chooser that follows a script and returns T and the chooser.
pub fn explore(max_runs: u64, mut run: impl FnMut(Chooser) -> (u64, Chooser)) -> Exploration {
    let mut found = Exploration { runs: 0, complete: false, worst: 0, best: u64::MAX, worst_script: Vec::new() };
    let mut prefix = Vec::new();
    loop {
        let (t, chooser) = run(Chooser::Script(Script { prefix, taken: Vec::new() }));
        let Chooser::Script(script) = chooser else { unreachable!("a script stays a script") };
        found.runs += 1;
        let choices = script.choices();
        if t > found.worst || found.runs == 1 {
            (found.worst, found.worst_script) = (t, choices.clone());
        }
        found.best = found.best.min(t);
        match script.next() {
            None => {
                found.complete = true;
                return found;
            }
            Some(_) if found.runs == max_runs => return found,
            Some(p) => prefix = p,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy "run" with two choices of 2 and 3 options: all 6 sequences
    /// are enumerated, and T = 10·c1 + c2 is maximal at (1, 2).
    #[test]
    fn every_sequence_is_run_once() {
        let mut seen = Vec::new();
        let found = explore(100, |mut ch| {
            let Chooser::Script(s) = &mut ch else { unreachable!() };
            let (a, b) = (s.choose(2), s.choose(3));
            seen.push((a, b));
            ((10 * a + b) as u64, ch)
        });
        assert_eq!(seen, [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]);
        assert_eq!((found.runs, found.complete, found.worst, found.best), (6, true, 12, 0));
        assert_eq!(found.worst_script, [1, 2]);
        let capped = explore(4, |ch| (0, ch));
        assert!(capped.complete, "a run with no choice is the whole space");
    }
}
