//! Breadth-first search over a [`Model`]'s states with a visited-state set
//! and sleep sets (Godefroid 1996, "Partial-Order Methods for the
//! Verification of Concurrent Systems", ch. 5), so the first violation found
//! is one at the smallest depth.
//!
//! **Reduction.** Two actions on different PEs commute: each changes only
//! its own PE, removes its own pending item and adds items to a set. After
//! action `a` has been explored from a state, it is put to sleep in the
//! sibling subtrees of every later action `b` independent of it (`b` on
//! another PE): `b` then `a` reaches the state `a` then `b` did. Sleep
//! sets alone prune transitions, never states — every reachable state is
//! still visited — so a state predicate is checked at every reachable
//! state. With state caching, a state met again with a sleep set that
//! wakes an action asleep at its first visit is expanded again for those
//! actions only (the stored set becomes the intersection), which keeps
//! that guarantee.

use std::collections::hash_map::Entry as Slot;
use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::base::caught::{caught, PROTOCOL_ASSERTION};
use crate::protocol::PeId;
use crate::sim::script::Script;

/// An enabled action: a stable key (the same action in two states has the
/// same key) and the PE it acts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Action {
    /// Identifies the action across states.
    pub key: u64,
    /// The PE whose state it changes.
    pub pe: PeId,
}

/// A violated property, by name, with what was seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The property (one of the checker's names).
    pub property: String,
    /// What happened.
    pub detail: String,
}

/// What the search explores.
pub trait Model: Clone {
    /// The enabled actions, in a canonical order (empty: the run is over).
    fn actions(&self) -> Vec<Action>;
    /// The successor by action `i` of [`Model::actions`], with the choices
    /// the action leaves open taken from `script`.
    fn apply(&self, i: usize, script: &mut Script) -> Self;
    /// A 128-bit digest of the state (equal states, equal digests).
    fn digest(&self) -> u128;
    /// A property this state violates.
    fn violation(&self) -> Option<Violation>;
    /// At a state with no action: a property the finished run violates.
    fn end_violation(&self) -> Option<Violation>;
}

/// One step of a path: the action (`None`: the start) and its choices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// Index in [`Model::actions`]; `None` for the start.
    pub action: Option<usize>,
    /// The open choices taken.
    pub choices: Vec<usize>,
}

/// Bounds on a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Distinct states at most.
    pub max_states: u64,
    /// Path length at most.
    pub max_depth: u32,
    /// Wall-clock time at most.
    pub time: Duration,
}

/// What a search found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Found {
    /// Distinct states visited.
    pub states: u64,
    /// Transitions taken.
    pub transitions: u64,
    /// Finished runs (states with no action) checked.
    pub ends: u64,
    /// The deepest state visited.
    pub depth: u32,
    /// True if every reachable state was visited.
    pub complete: bool,
    /// Why the search stopped early, if it did.
    pub stopped: Option<String>,
    /// The first violation, at the smallest depth.
    pub violation: Option<Violation>,
    /// Its path from the start.
    #[serde(skip)]
    pub path: Vec<Step>,
    /// Wall-clock time.
    #[serde(skip)]
    pub wall: Duration,
}

struct Entry<M> {
    state: M,
    sleep: Vec<Action>,
    /// On a second visit, the only actions to explore.
    only: Option<Vec<u64>>,
    depth: u32,
    record: u32,
}

/// The search: its queue, visited set and the path records.
struct Search<M> {
    queue: VecDeque<Entry<M>>,
    visited: HashMap<u128, Vec<u64>>,
    /// (parent record, step) of every state generated.
    records: Vec<(u32, Step)>,
    found: Found,
}

/// Explores every state reachable from the starts (every choice sequence
/// of `start`), checking [`Model::violation`] at each and
/// [`Model::end_violation`], then `on_end` with its path, at each finished run.
pub fn search<M: Model>(
    limits: Limits,
    start: impl Fn(&mut Script) -> M,
    mut on_end: impl FnMut(&[Step]) -> Option<Violation>,
) -> Found {
    let began = Instant::now();
    let mut s =
        Search { queue: VecDeque::new(), visited: HashMap::new(), records: Vec::new(), found: Found::default() };
    let mut prefix = Some(Vec::new());
    while let Some(p) = prefix {
        let mut script = Script::new(p);
        let state = match caught(|| start(&mut script)) {
            Ok(state) => state,
            Err(why) => {
                s.assertion(u32::MAX, why); // at the start: an empty path
                return s.done(began);
            }
        };
        let step = Step { action: None, choices: script.choices() };
        if s.visit(state, Vec::new(), 0, u32::MAX, step) {
            return s.done(began);
        }
        prefix = script.next();
    }
    while let Some(e) = s.queue.pop_front() {
        if let Some(why) = s.over(&limits, began) {
            s.found.stopped = Some(why);
            return s.done(began);
        }
        if s.expand(e, &limits, &mut on_end) {
            return s.done(began);
        }
    }
    s.found.complete = s.found.stopped.is_none();
    s.done(began)
}

impl<M: Model> Search<M> {
    fn over(&self, limits: &Limits, began: Instant) -> Option<String> {
        if self.found.states >= limits.max_states {
            return Some(format!("--max-states {} reached", limits.max_states));
        }
        (began.elapsed() > limits.time).then(|| format!("--max-seconds {} reached", limits.time.as_secs()))
    }

    /// Expands one queued state; true on a violation.
    fn expand(&mut self, e: Entry<M>, limits: &Limits, on_end: &mut impl FnMut(&[Step]) -> Option<Violation>) -> bool {
        let actions = e.state.actions();
        if actions.is_empty() {
            self.found.ends += 1;
            let v = e.state.end_violation().or_else(|| on_end(&self.path(e.record)));
            return self.violated(v, e.record);
        }
        if e.depth >= limits.max_depth {
            self.found.stopped = Some(format!("--max-depth {} reached", limits.max_depth));
            return false;
        }
        let mut done: Vec<Action> = Vec::new();
        for (i, &a) in actions.iter().enumerate() {
            let asleep = e.sleep.iter().any(|s| s.key == a.key);
            if asleep || e.only.as_ref().is_some_and(|o| !o.contains(&a.key)) {
                continue;
            }
            let mut prefix = Some(Vec::new());
            while let Some(p) = prefix {
                let mut script = Script::new(p);
                let next = match caught(|| e.state.apply(i, &mut script)) {
                    Ok(next) => next,
                    Err(why) => return self.assertion(e.record, why), // the path ends before the step
                };
                self.found.transitions += 1;
                let enabled = next.actions();
                let sleep = e.sleep.iter().chain(&done).filter(|b| b.pe != a.pe && enabled.contains(b)).copied();
                let step = Step { action: Some(i), choices: script.choices() };
                if self.visit(next, sleep.collect(), e.depth + 1, e.record, step) {
                    return true;
                }
                prefix = script.next();
            }
            done.push(a);
        }
        false
    }

    /// Records a generated state; queues it if new (or woken); true on a violation.
    fn visit(&mut self, state: M, sleep: Vec<Action>, depth: u32, parent: u32, step: Step) -> bool {
        self.records.push((parent, step));
        let record = (self.records.len() - 1) as u32;
        if self.violated(state.violation(), record) {
            return true;
        }
        let keys: Vec<u64> = sleep.iter().map(|a| a.key).collect();
        let only = match self.visited.entry(state.digest()) {
            Slot::Vacant(v) => {
                v.insert(keys);
                self.found.states += 1;
                self.found.depth = self.found.depth.max(depth);
                None
            }
            Slot::Occupied(mut o) => {
                let woken: Vec<u64> = o.get().iter().filter(|k| !keys.contains(k)).copied().collect();
                if woken.is_empty() {
                    return false;
                }
                o.get_mut().retain(|k| keys.contains(k));
                Some(woken)
            }
        };
        self.queue.push_back(Entry { state, sleep, only, depth, record });
        false
    }

    /// A protocol assertion the step after `record` tripped, as a violation.
    fn assertion(&mut self, record: u32, why: String) -> bool {
        let detail = format!("a protocol assertion failed at the next step (the run stops before it): {why}");
        self.violated(Some(Violation { property: PROTOCOL_ASSERTION.into(), detail }), record)
    }

    fn violated(&mut self, v: Option<Violation>, record: u32) -> bool {
        let Some(v) = v else { return false };
        self.found.path = self.path(record);
        self.found.violation = Some(v);
        true
    }

    /// The steps from the start to the state of `record`.
    fn path(&self, mut record: u32) -> Vec<Step> {
        let mut steps = Vec::new();
        while record != u32::MAX {
            let (parent, step) = &self.records[record as usize];
            steps.push(step.clone());
            record = *parent;
        }
        steps.reverse();
        steps
    }

    fn done(mut self, began: Instant) -> Found {
        self.found.wall = began.elapsed();
        self.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// A toy system: `n` PEs each counting up to `k` (an action per PE
    /// below k), with a choice of step 1 or 2 on PE 0. Its reachable states
    /// are known in closed form, so the reduction can be checked against them.
    #[derive(Clone, Debug)]
    struct Counters {
        c: Vec<u32>,
        k: u32,
        bad: Option<Vec<u32>>,
    }

    impl Model for Counters {
        fn actions(&self) -> Vec<Action> {
            let pes = (0..self.c.len() as u32).filter(|&i| self.c[i as usize] < self.k);
            pes.map(|pe| Action { key: u64::from(pe), pe }).collect()
        }
        fn apply(&self, i: usize, script: &mut Script) -> Self {
            let pe = self.actions()[i].pe as usize;
            let mut next = self.clone();
            let by = if pe == 0 { 1 + script.choose(2) as u32 } else { 1 };
            next.c[pe] = (next.c[pe] + by).min(self.k);
            next
        }
        fn digest(&self) -> u128 {
            self.c.iter().fold(0, |d, &x| d * 1000 + u128::from(x))
        }
        fn violation(&self) -> Option<Violation> {
            (self.bad.as_ref() == Some(&self.c)).then(|| Violation { property: "toy".into(), detail: String::new() })
        }
        fn end_violation(&self) -> Option<Violation> {
            None
        }
    }

    fn limits() -> Limits {
        Limits { max_states: 1 << 20, max_depth: 1000, time: Duration::from_secs(60) }
    }

    /// Every edge of the toy's state graph, by a plain search without
    /// sleep sets: (states, transitions).
    fn full_graph(start: &Counters) -> (u64, u64) {
        let (mut seen, mut queue, mut edges) = (HashSet::new(), vec![start.clone()], 0);
        seen.insert(start.digest());
        while let Some(s) = queue.pop() {
            for i in 0..s.actions().len() {
                let mut prefix = Some(Vec::new());
                while let Some(p) = prefix {
                    let mut script = Script::new(p);
                    let next = s.apply(i, &mut script);
                    edges += 1;
                    if seen.insert(next.digest()) {
                        queue.push(next);
                    }
                    prefix = script.next();
                }
            }
        }
        (seen.len() as u64, edges)
    }

    /// Every reachable state is visited, with fewer transitions than the
    /// state graph has edges.
    #[test]
    fn sleep_sets_keep_every_state() {
        let (n, k) = (3, 4);
        let start = |_: &mut Script| Counters { c: vec![0; n], k, bad: None };
        let found = search(limits(), start, |_| None);
        let (states, edges) = full_graph(&start(&mut Script::default()));
        assert!(found.complete);
        assert_eq!(states, u64::from(k + 1).pow(n as u32), "every (c0, c1, c2) in 0..=k is reachable");
        assert_eq!(found.states, states);
        assert!(found.transitions < edges, "{} transitions of {edges} edges", found.transitions);
    }

    /// The violation found is at the smallest depth, and its path leads to it.
    #[test]
    fn the_violation_is_a_shortest_path() {
        let bad = vec![3, 1, 0];
        let start = |_: &mut Script| Counters { c: vec![0; 3], k: 4, bad: Some(bad.clone()) };
        let found = search(limits(), start, |_| None);
        assert_eq!(found.violation.as_ref().map(|v| v.property.as_str()), Some("toy"));
        assert_eq!(found.path.len(), 1 + 3, "the start, then 0 +2, 0 +1 (or +1 +2), 1 +1");
        let mut state = start(&mut Script::default());
        for step in &found.path[1..] {
            state = state.apply(step.action.unwrap(), &mut Script::new(step.choices.clone()));
        }
        assert_eq!(state.c, bad);
    }

    /// The toy with an assertion of its own: no step may reach `bad`.
    #[derive(Clone, Debug)]
    struct Tripping(Counters);

    impl Model for Tripping {
        fn actions(&self) -> Vec<Action> {
            self.0.actions()
        }
        fn apply(&self, i: usize, script: &mut Script) -> Self {
            let next = self.0.apply(i, script);
            assert!(Some(&next.c) != self.0.bad.as_ref(), "the toy reached {:?}", next.c);
            Tripping(next)
        }
        fn digest(&self) -> u128 {
            self.0.digest()
        }
        fn violation(&self) -> Option<Violation> {
            None
        }
        fn end_violation(&self) -> Option<Violation> {
            None
        }
    }

    /// A step that trips the model's assertion is a `protocol_assertion`
    /// violation (message and place) whose path stops before that step,
    /// not a panic out of the search (shown: without `caught` this test
    /// panics with "the toy reached [2, 1, 0]").
    #[test]
    fn a_tripped_assertion_is_a_violation() {
        let start = |_: &mut Script| Tripping(Counters { c: vec![0; 3], k: 4, bad: Some(vec![2, 1, 0]) });
        let found = search(limits(), start, |_| None);
        let v = found.violation.expect("a violation");
        assert_eq!(v.property, "protocol_assertion");
        assert!(v.detail.contains("the toy reached [2, 1, 0] at src/sim/explore/search.rs:"), "{}", v.detail);
        let mut state = start(&mut Script::default());
        for step in &found.path[1..] {
            state = state.apply(step.action.unwrap(), &mut Script::new(step.choices.clone()));
        }
        assert!(state.0.c.iter().sum::<u32>() < 3, "a step before [2, 1, 0]: {:?}", state.0.c);
    }

    /// The caps stop the search and say so.
    #[test]
    fn limits_stop_the_search() {
        let start = |_: &mut Script| Counters { c: vec![0; 3], k: 4, bad: None };
        let found = search(Limits { max_states: 10, ..limits() }, start, |_| None);
        assert!(!found.complete);
        assert!(found.stopped.unwrap().contains("--max-states"));
        let found = search(Limits { max_depth: 2, ..limits() }, start, |_| None);
        assert!(!found.complete && found.stopped.unwrap().contains("--max-depth"));
    }
}
