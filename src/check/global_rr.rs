//! Global round robin for `round_robin` (003 §14.7.3, S-14): PE 0 keeps
//! one target counter; each `target` message 0 → r (and each request PE 0
//! sends itself) takes the counter's value, skipping the requester, and
//! moves the counter past it; requester r's next request must go to the
//! target it was given.
//!
//! The rule is the rotation, not the start value: 003 does not fix where
//! the counter starts (lbcheck's starts at 0, an implementation may start
//! at 1), and the trace does not show the targets PE 0 hands out, only the
//! requests they lead to. So the counter's start is unknown until a
//! request reveals a target: the targets handed out before are kept as
//! their requesters, in order, and the first revealed target gives the
//! starts consistent with it (worked backwards through the skips: nearly
//! always one, a few when PE 0 handed out hundreds of targets first). Each
//! candidate start then runs forward; a request fails when no candidate
//! expected it. More than [`max_starts`] candidates (each keeps a target
//! per PE) and the rule is not judged from there on, saying so: dropping
//! the true start would fail a correct run (it did: P = 1,024, 840
//! targets before the first revealed one, 15 starts fit it).

/// The most candidate starts kept for `pes` PEs: 64, fewer from P = 2^16
/// on (each keeps a target per PE), at least 8.
fn max_starts(pes: u32) -> usize {
    ((1usize << 22) / pes.max(1) as usize).clamp(8, 64)
}

/// The rank after `v`'s turn for requester `pe`: `v` itself unless it is `pe`.
pub(super) fn skip(pe: u32, v: u32, pes: u32) -> u32 {
    if v == pe {
        (v + 1) % pes
    } else {
        v
    }
}

/// One candidate: the counter and the target each requester was given.
#[derive(Clone)]
struct Counter {
    next: u32,
    given: Vec<Option<u32>>,
}

impl Counter {
    /// Hands requester `r` the counter's value.
    fn hand(&mut self, r: u32, pes: u32) -> u32 {
        let t = skip(r, self.next, pes);
        self.next = (t + 1) % pes;
        if let Some(g) = self.given.get_mut(r as usize) {
            *g = Some(t);
        }
        t
    }
}

/// PE 0's counter as far as the trace shows it.
pub(super) struct Global {
    pes: u32,
    /// Requesters handed a target before any was revealed (`None`: revealed).
    unrevealed: Option<Vec<u32>>,
    candidates: Vec<Counter>,
    /// Why the rule is no longer judged (too many candidate starts).
    pub(super) unjudged: Option<String>,
}

impl Global {
    /// For `pes` PEs, the start unknown.
    pub(super) fn new(pes: u32) -> Global {
        Global { pes, unrevealed: Some(Vec::new()), candidates: Vec::new(), unjudged: None }
    }

    /// PE 0 sent requester `to` a target.
    pub(super) fn on_target(&mut self, to: u32) {
        match &mut self.unrevealed {
            Some(order) => order.push(to),
            None => {
                for c in &mut self.candidates {
                    c.hand(to, self.pes);
                }
            }
        }
    }

    /// PE `from` asked `to`: `Err(expected)` if no candidate expected it.
    pub(super) fn on_request(&mut self, from: u32, to: u32) -> Result<(), String> {
        if from == 0 {
            self.on_target(0);
        }
        if let Some(order) = self.unrevealed.take() {
            let Some(k) = order.iter().rposition(|&r| r == from) else {
                self.unrevealed = Some(order);
                return Err(format!("PE {from} asked PE {to} without a target from PE 0"));
            };
            let Some(starts) = starts(&order[..=k], to, self.pes) else {
                let n = max_starts(self.pes);
                self.unjudged = Some(format!(
                    "not judged from PE {from}'s request on: more than {n} starts of PE 0's counter fit the {} targets handed out before it",
                    k + 1
                ));
                return Ok(());
            };
            self.candidates = starts.into_iter().map(|s| forward(s, &order, self.pes)).collect();
        }
        if self.unjudged.is_some() {
            return Ok(());
        }
        let expected: Vec<Option<u32>> = self.candidates.iter().map(|c| c.given[from as usize]).collect();
        if expected.iter().all(Option::is_none) {
            return Err(format!("PE {from} asked PE {to} without a target from PE 0"));
        }
        let before = self.candidates.clone();
        self.candidates.retain(|c| c.given[from as usize] == Some(to));
        self.candidates.iter_mut().for_each(|c| c.given[from as usize] = None);
        match (self.candidates.is_empty(), before.first().and_then(|c| c.given[from as usize])) {
            (false, _) => Ok(()),
            (true, Some(e)) => Err(format!("PE {from} asked PE {to}; round robin's turn was PE {e}")),
            (true, None) => Err(format!("PE {from} asked PE {to}, a target out of round robin's turn")),
        }
    }
}

/// The counter's starts under which handing out `order` in turn gives its
/// last requester `to`: worked backwards, the counter before a hand-out of
/// value v to r was v (if v ≠ r) or r (if v = r + 1). `None` if more than
/// [`max_starts`] fit at some step (going back, the set only grows).
fn starts(order: &[u32], to: u32, pes: u32) -> Option<Vec<u32>> {
    let mut values = vec![to];
    for (i, &r) in order.iter().enumerate().rev() {
        let mut before = Vec::new();
        for &v in &values {
            before.extend((v != r).then_some(v));
            before.extend((v == (r + 1) % pes).then_some(r));
        }
        if before.len() > max_starts(pes) {
            return None;
        }
        if i == 0 {
            return Some(before);
        }
        // The counter before this hand-out is the previous value + 1.
        values = before.into_iter().map(|c| (c + pes - 1) % pes).filter(|&v| v != order[i - 1]).collect();
    }
    Some(values)
}

/// The counter from `start` after handing out `order`.
fn forward(start: u32, order: &[u32], pes: u32) -> Counter {
    let mut c = Counter { next: start, given: vec![None; pes as usize] };
    for &r in order {
        c.hand(r, pes);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cargo-mutants: `<<` → `>>` kept 8 starts at every size.
    #[test]
    fn max_starts_is_64_up_to_2_16_pes_then_halves_down_to_8() {
        let starts = [1, 1024, 1 << 16, 1 << 17, 1 << 19, 1 << 20].map(max_starts);
        assert_eq!(starts, [64, 64, 64, 32, 8, 8]);
    }

    /// The hand-outs of PE 0's counter under which `starts` consecutive
    /// start values all give requester 7 the same target, with that
    /// target: each hand-out to r merges counters r and r + 1 (both give
    /// r + 1), so the trace cannot tell the starts apart.
    fn merging(pes: u32, starts: u32) -> (Vec<u32>, u32) {
        let mut counters: Vec<u32> = (100..100 + starts).collect();
        let mut order = Vec::new();
        while counters.len() > 1 {
            let r = counters[0]; // the lowest two merge, the rest stay consecutive
            order.push(r);
            counters = counters.iter().map(|&c| (skip(r, c, pes) + 1) % pes).collect();
            counters.sort_unstable();
            counters.dedup();
        }
        order.push(7);
        (order, skip(7, counters[0], pes))
    }

    /// More fitting starts than [`max_starts`] (8 at P = 2^19) and the rule
    /// is not judged from the revealing request on, saying why, rather than
    /// failing a correct run or keeping a guess; as many as it keeps and
    /// a request out of turn still fails.
    #[test]
    fn too_many_fitting_starts_leave_the_rule_unjudged() {
        const PES: u32 = 1 << 19;
        assert_eq!(max_starts(PES), 8);
        let run = |starts: u32, out_of_turn: bool| {
            let (order, to) = merging(PES, starts);
            let mut g = Global::new(PES);
            order.iter().for_each(|&r| g.on_target(r));
            assert_eq!(g.on_request(7, to), Ok(()));
            g.on_target(7);
            let next = match out_of_turn {
                true => to + 5,
                false => to + 1,
            };
            (g.on_request(7, next), g.unjudged)
        };
        let (verdict, unjudged) = run(9, true);
        assert_eq!(verdict, Ok(()));
        let why = unjudged.expect("not judged");
        assert!(why.contains("more than 8 starts"), "{why}");
        assert_eq!(run(8, false), (Ok(()), None));
        assert!(run(8, true).0.is_err());
    }
}
