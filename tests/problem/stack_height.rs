//! S-22: alternating stack splitting keeps h ≤ d·⌈log2 B⌉ (002 §4.1, after
//! Rao and Kumar; 001 §1.2's h for a backtrack tree of depth d and
//! branching B). For every nonempty piece of a DFS stack split by
//! `bottom-half`, along any interleaving of work and splits:
//! generation ≤ ⌈log2 B⌉ · height(bottom node), hence every generation is
//! at most d·⌈log2 B⌉. Why: while a piece's bottom level has s ≤ B nodes it
//! can be split at most ⌈log2 s⌉ times before its bottom moves a level
//! deeper (the kept part of a level with upper levels has s ≤ B − 1 nodes,
//! halved ⌊log2 s⌋ times and then given away), and work never makes the
//! bottom shallower. The other strategies promise nothing; `all-half`
//! breaks the bound, which shows the check can fail.

use lbcheck::problem::dfs::Strategy;
use lbcheck::problem::uts::UtsStack;
use lbcheck::problem::{Subproblem, Task, WorkLog, Workload};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Trees with known shape parameters: BIN, GEO FIXED and BALANCED.
const TREES: &[&str] = &[
    "uts:args=-t 0 -b 4 -q 0.2 -m 4 -r 3",
    "uts:args=-t 0 -b 8 -q 0.3 -m 3 -r 5",
    "uts:args=-t 1 -a 3 -d 5 -b 3 -r 2",
    "uts:args=-t 1 -a 3 -d 4 -b 5 -r 7",
    "uts:args=-t 3 -d 4 -b 3",
    "uts:args=-t 3 -d 3 -b 6",
];

fn stack(spec: &str, strategy: Strategy) -> UtsStack {
    match spec.parse::<Workload>().unwrap().root(strategy) {
        Task::Uts(s) => s,
        other => panic!("{spec} is not a UTS tree: {other:?}"),
    }
}

/// (d, B): the tree's largest height and largest number of children, by
/// expanding it one node at a time.
fn depth_and_branching(spec: &str) -> (u32, u32) {
    let (mut s, mut log, mut b) = (stack(spec, Strategy::BottomOne), WorkLog::default(), 0);
    while !s.is_empty() {
        let before = s.len();
        s.work(1, &mut log);
        b = b.max((s.len() + 1 - before) as u32);
    }
    (log.max_depth, b)
}

fn ceil_log2(b: u32) -> u32 {
    b.max(1).next_power_of_two().trailing_zeros()
}

/// The first piece, along `ops` (true = split, else work `k` nodes) on a
/// pool of pieces, whose generation exceeds ⌈log2 B⌉ · its bottom height.
fn violation(spec: &str, strategy: Strategy, ops: &[(bool, u16, u8)]) -> Option<String> {
    let (d, b) = depth_and_branching(spec);
    let per_level = ceil_log2(b);
    let mut pieces = vec![stack(spec, strategy)];
    for &(split, pick, k) in ops {
        let i = pick as usize % pieces.len();
        match split {
            true => {
                let part = pieces[i].split();
                pieces.extend(part);
            }
            false => _ = pieces[i].work(u64::from(k), &mut WorkLog::default()),
        }
        for p in pieces.iter().filter(|p| !p.is_empty()) {
            let (gen, bottom) = (p.generation(), p.bottom_height().unwrap());
            if gen > per_level * bottom || gen > d * per_level {
                return Some(format!("{spec}: a piece of generation {gen} has its bottom at height {bottom} (d = {d}, B = {b}, ⌈log2 B⌉ = {per_level})"));
            }
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn bottom_half_keeps_generations_within_d_log_b(
        tree in 0..TREES.len(),
        ops in proptest::collection::vec((any::<bool>(), any::<u16>(), 1..6u8), 1..300),
    ) {
        let found = violation(TREES[tree], Strategy::BottomHalf, &ops);
        prop_assert!(found.is_none(), "{}", found.unwrap_or_default());
    }
}

/// Seeded split-heavy schedules: `all-half` exceeds the bound on some
/// tree (the check can fail), `bottom-half` never does.
#[test]
fn all_half_breaks_the_bound_that_bottom_half_keeps() {
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let schedules: Vec<Vec<(bool, u16, u8)>> = (0..50)
        .map(|_| (0..400).map(|_| (rng.random_bool(0.6), rng.random(), rng.random_range(1..4))).collect())
        .collect();
    let broken =
        TREES.iter().flat_map(|t| schedules.iter().filter_map(|ops| violation(t, Strategy::AllHalf, ops))).next();
    assert!(broken.is_some(), "all-half stayed within d·⌈log2 B⌉ on every schedule");
    for t in TREES {
        for ops in &schedules {
            assert_eq!(violation(t, Strategy::BottomHalf, ops), None);
        }
    }
    eprintln!("all-half: {}", broken.unwrap());
}
