//! loom: every interleaving (up to a preemption bound) of the threaded
//! driver running every balancer × detector pair that runs on threads, on
//! tiny workloads, checked by the same checker as the simulator's runs; and
//! a mutant of each pair, and every threaded-driver mutant, reported.
//!
//! Part of `cargo test --release` (quick profile): the threaded driver's
//! loom copy ([`lbcheck::loom`]) is in the ordinary build. `scripts/loom.sh`
//! pins the bound and prints each test's time.
//! loom has no random choice: a PE's victims come from its seeded stream, so
//! each test explores several seeds, one `loom::model` per seed. A busy PE
//! yields after each work slice under loom (`sync::let_others_run`), so PEs
//! interleave at slice boundaries for free and the preemption bound counts
//! only switches inside the driver's synchronisation.
//!
//! **The pairs.** [`lbcheck::loom::PAIRS`] is the one table (the cases
//! live in the library, so that `lbcheck check` runs them in-process): every pair the registry's
//! validation accepts on the threaded driver (checked by
//! `the_table_lists_every_pair_that_runs_on_threads`), each with the P = 3
//! reference it affords and one mutant at its balancer's or detector's
//! seam. Each row gives a module of tests, `PAIR::reference_p2`,
//! `PAIR::reference_p3` and `PAIR::MUTANT_is_caught` (the names the
//! campaign's `loom` layer and adequacy cells select by).
//!
//! **Bounds.** The profile's bound B is `LOOM_MAX_PREEMPTIONS` (quick 2,
//! full 3). P = 3 cases run with fewer preemptions: each one more multiplies
//! the interleavings by about a hundred (measured: energy P = 3 took 1.5 s at
//! bound 1 and 185 s at 2; four-counter P = 3 passed 2.2 million
//! interleavings in 300 s at bound 1 without finishing — idle PEs keep
//! exchanging requests and rejects, and waves keep running, while the others
//! work). Set `LBCHECK_LOOM_PROFILE=full` for the full profile (P = 3 for
//! the threaded driver's mutants, more seeds, B = 3): `scripts/loom.sh --full`.
#[path = "loom/harness.rs"]
mod harness;
#[path = "loom/user.rs"]
mod user;

use lbcheck::base::Registered;
use lbcheck::harness::{Driver, RunSpec};
use lbcheck::loom::{caught_name, Profile, PAIRS, TINY};
use lbcheck::mutants::{Catcher, Site};
use lbcheck::protocol::{BalancerKind, DetectorKind};
use lbcheck::runtime::threads::ThreadConfig;

/// One module of tests per row of the table: `reference_p2`,
/// `reference_p3` and the row's `MUTANT_is_caught`.
macro_rules! pairs {
    ($($pair:ident: $test:ident;)+) => {
        $(
            mod $pair {
                #[test]
                fn reference_p2() {
                    super::harness::run(concat!(stringify!($pair), "::reference_p2"));
                }

                #[test]
                fn reference_p3() {
                    super::harness::run(concat!(stringify!($pair), "::reference_p3"));
                }

                #[test]
                fn $test() {
                    super::harness::run(concat!(stringify!($pair), "::", stringify!($test)));
                }
            }
        )+

        /// The macro's rows are the library's table, in its order.
        #[test]
        fn the_tests_are_the_tables_rows() {
            let rows = [$(concat!(stringify!($pair), "::", stringify!($test))),+];
            let table: Vec<_> = PAIRS.iter().map(|p| format!("{}::{}", p.name, caught_name(p.mutant))).collect();
            assert_eq!(rows.to_vec(), table);
        }
    };
}

pairs! {
    random_polling_energy: energy_early_return_is_caught;
    random_polling_energy_tree: energy_early_return_is_caught;
    random_polling_four_counter: request_dropped_is_caught;
    random_polling_safra: safra_no_blacken_is_caught;
    pacheco_energy: no_send_all_rejects_is_caught;
    pacheco_energy_tree: energy_early_return_is_caught;
    pacheco_four_counter: no_send_all_rejects_is_caught;
    pacheco_safra: safra_no_blacken_is_caught;
    neighbour_polling_energy: energy_early_return_is_caught;
    neighbour_polling_energy_tree: energy_early_return_is_caught;
    neighbour_polling_four_counter: four_counter_one_wave_is_caught;
    neighbour_polling_safra: safra_no_blacken_is_caught;
}

/// The table is the registry's: every balancer × detector pair whose run
/// on the threaded driver validates is listed once, and each row's mutant
/// acts at its balancer's or detector's seam and is listed as caught by loom.
#[test]
fn the_table_lists_every_pair_that_runs_on_threads() {
    let runs_on_threads = |b: BalancerKind, d: DetectorKind| {
        let driver = Driver::Threads(ThreadConfig::default());
        RunSpec::new(TINY.parse().expect("workload"), b, d, driver).validate().is_ok()
    };
    let registry: Vec<_> = BalancerKind::ALL
        .iter()
        .flat_map(|&b| DetectorKind::ALL.iter().map(move |&d| (b, d)))
        .filter(|&(b, d)| runs_on_threads(b, d))
        .collect();
    let table: Vec<_> = PAIRS.iter().map(|p| (p.balancer, p.detector)).collect();
    assert_eq!(table, registry, "lbcheck::loom::PAIRS against the registry");
    for p in &PAIRS {
        let at_seam = match p.mutant.entry().site {
            Site::Balancer(b) => b == p.balancer,
            Site::Detectors(ds) => ds.contains(&p.detector),
            _ => false,
        };
        assert!(at_seam && p.mutant.not_applicable(p.balancer, p.detector, true).is_none(), "{p:?}");
        assert!(p.mutant.entry().caught_by(Catcher::Loom), "{p:?}: the catalogue lists loom");
    }
    assert_eq!(lbcheck::loom::tests(&Profile::QUICK).len(), 3 * PAIRS.len() + 3);
}

/// The one-wave bug at P = 3 (`lbcheck::loom`'s `driver_tests` says why).
#[test]
fn four_counter_one_wave_is_caught() {
    harness::run("four_counter_one_wave_is_caught");
}

#[test]
fn lost_wakeup_is_caught() {
    harness::run("lost_wakeup_is_caught");
}

#[test]
fn sleep_flag_outside_lock_is_caught() {
    harness::run("sleep_flag_outside_lock_is_caught");
}
