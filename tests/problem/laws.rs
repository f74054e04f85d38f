//! 002 eq. (1) and the generation rules, as properties over random sequences
//! of work and split operations, for every workload and split strategy.

use lbcheck::problem::dfs::Strategy;
use lbcheck::problem::{sequential, Fingerprint, Subproblem, Task, WorkLog, Workload};
use proptest::prelude::*;

/// Small instances of every workload form and policy.
const WORKLOADS: &[&str] = &[
    "synthetic:size=300,atomic=1,split=uniform,seed=3",
    "synthetic:size=300,atomic=4,split=alpha:0.3",
    "synthetic:size=200,atomic=2,split=peel",
    "synthetic:size=257,atomic=3,split=balanced",
    "synthetic:size=400,atomic=2,split=fig3:8:3",
    "uts:default",
    "uts:args=-t 0 -b 30 -q 0.2 -m 4 -r 5",
    "uts:args=-t 1 -a 2 -d 4 -b 3 -r 9",
    "uts:args=-t 2 -a 1 -d 6 -b 4 -r 2 -q 0.2 -m 3",
    "uts:args=-t 3 -d 4 -b 3",
    "loop:n=97,cost=heavy,seed=4",
    "loop:n=64,cost=triangle",
    "loop:n=50,cost=const:3",
];

fn strategies() -> Vec<Strategy> {
    vec![Strategy::BottomOne, Strategy::BottomHalf, Strategy::AllHalf, Strategy::Cutoff(2)]
}

/// T(I) and the fingerprint of a subproblem, by running a copy to the end.
fn measure(t: &Task) -> (u64, Fingerprint) {
    let run = sequential::run(t.clone());
    (run.work, run.log.fp)
}

/// Applies `ops` (true = split, false = work `budget`) to a pool of pieces of
/// the root and checks the laws at every step.
/// With `small`, splits use [`Subproblem::split_small`], whose part given
/// away must also be at most T_atomic where the workload knows it.
fn check_ops(spec: &str, strategy: Strategy, ops: &[(bool, u8, u8)], small: bool) -> Result<(), TestCaseError> {
    let w: Workload = spec.parse().unwrap();
    let whole = measure(&w.root(strategy));
    let mut pieces = vec![w.root(strategy)];
    let mut done = WorkLog::default();
    for &(split, pick, budget) in ops {
        let i = pick as usize % pieces.len();
        if split {
            let (before, before_fp) = measure(&pieces[i]);
            let gen = pieces[i].generation();
            match if small { pieces[i].split_small() } else { pieces[i].split() } {
                Some(other) => {
                    let ((a, fa), (b, fb)) = (measure(&pieces[i]), measure(&other));
                    if let (true, Some((t_atomic, _))) = (small, w.atomic_and_h()) {
                        prop_assert!(b <= t_atomic, "split_small gave away {b} > T_atomic = {t_atomic}");
                    }
                    prop_assert_eq!(a + b, before, "T(I) = T(I1) + T(I2)");
                    prop_assert_eq!(fa + fb, before_fp, "fingerprints merge");
                    prop_assert!(a > 0 && b > 0, "both parts non-empty");
                    prop_assert_eq!((pieces[i].generation(), other.generation()), (gen + 1, gen + 1));
                    pieces.push(other);
                }
                None => {
                    prop_assert_eq!(measure(&pieces[i]).0, before, "a refused split changes nothing");
                    prop_assert_eq!(pieces[i].generation(), gen);
                }
            }
        } else {
            let (before, _) = measure(&pieces[i]);
            let did = pieces[i].work(budget as u64, &mut done);
            prop_assert_eq!(measure(&pieces[i]).0 + did, before, "work removes exactly what it did");
        }
    }
    let mut total = done.fp;
    pieces.iter().for_each(|p| total += measure(p).1);
    prop_assert_eq!(total, whole.1, "work done + rest = the root's fingerprint");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// With `small`, the same laws for the `split-tiny` mutant's split
    /// ([`Subproblem::split_small`]).
    #[test]
    fn sizes_add_and_fingerprints_merge(
        w in 0..WORKLOADS.len(),
        s in 0..4usize,
        ops in proptest::collection::vec((any::<bool>(), any::<u8>(), 1..40u8), 1..40),
        small in any::<bool>(),
    ) {
        check_ops(WORKLOADS[w], strategies()[s], &ops, small)?;
    }

    /// Synthetic workloads: generation ≥ h ⇒ size ≤ T_atomic, along any split sequence.
    #[test]
    fn synthetic_h_bounds_every_split_sequence(
        size in 1..5000u64,
        atomic in 1..50u64,
        policy in 0..5usize,
        seed in any::<u64>(),
        ops in proptest::collection::vec((any::<bool>(), any::<u16>()), 1..200),
    ) {
        let atomic = atomic.min(size);
        let policy = ["uniform", "alpha:0.2", "peel", "balanced", "fig3:4:2"][policy];
        let spec = format!("synthetic:size={size},atomic={atomic},split={policy},seed={seed}");
        let Ok(w) = spec.parse::<Workload>() else { return Ok(()) }; // fig3 too small
        let (t_atomic, h) = w.atomic_and_h().unwrap();
        let mut pieces = vec![w.root(Strategy::default())];
        for (keep_splitting, pick) in ops {
            let i = pick as usize % pieces.len();
            if keep_splitting {
                if let Some(o) = pieces[i].split() { pieces.push(o); }
            } else {
                pieces[i].work(1 + pick as u64 % 7, &mut WorkLog::default());
            }
            for p in &pieces {
                if p.generation() as u64 >= h {
                    prop_assert!(measure(p).0 <= t_atomic, "gen {} >= h {} but size {} > {}", p.generation(), h, measure(p).0, t_atomic);
                }
            }
        }
        let deepest = sequential::max_split_generation(w.root(Strategy::default()), 1 << 20).unwrap();
        prop_assert!(deepest as u64 <= h, "recursive splitting reached generation {deepest} > h = {h}");
    }
}

/// quickcheck: an atomic subproblem yields nothing and stays unchanged,
/// whatever its size (synthetic with size = T_atomic; a one-iteration loop).
#[test]
fn atomic_split_yields_nothing() {
    fn prop(size: u16, seed: u64) -> bool {
        let size = size as u64 + 1;
        let specs = [
            format!("synthetic:size={size},atomic={size},split=uniform,seed={seed}"),
            format!("loop:n=1,cost=heavy,seed={seed}"),
        ];
        specs.iter().all(|spec| {
            let mut t = spec.parse::<Workload>().unwrap().root(Strategy::default());
            let before = measure(&t);
            t.split().is_none() && t.generation() == 0 && measure(&t) == before
        })
    }
    quickcheck::quickcheck(prop as fn(u16, u64) -> bool);
}

/// quickcheck: the fingerprint is order-independent (any permutation of the
/// same items gives the same value) and sensitive to a lost item.
#[test]
fn fingerprint_order_independent_and_sensitive() {
    fn prop(items: Vec<u64>, rot: usize) -> bool {
        let fp = |xs: &[u64]| {
            xs.iter().fold(Fingerprint::EMPTY, |mut f, &x| {
                f.add_item(x, 1);
                f
            })
        };
        let mut rotated = items.clone();
        if !rotated.is_empty() {
            let k = rot % rotated.len();
            rotated.rotate_left(k);
        }
        let lost = items.len() > 1 && fp(&items[1..]) == fp(&items);
        fp(&items) == fp(&rotated) && !lost
    }
    quickcheck::quickcheck(prop as fn(Vec<u64>, usize) -> bool);
}

#[test]
fn stack_atomic_below_two_nodes() {
    let w: Workload = "uts:args=-t 3 -d 1 -b 1".parse().unwrap(); // a root with one child
    for s in strategies() {
        let mut t = w.root(s);
        assert!(t.split().is_none(), "{s}: a one-node stack is atomic");
    }
}
