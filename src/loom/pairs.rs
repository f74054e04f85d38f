//! The loom suite's table (`tests/loom_threads.rs`, the campaign's `loom`
//! layer and adequacy cells): every balancer × detector pair that runs on
//! threads, with the P = 3 reference it affords and one mutant at its
//! balancer's or detector's seam, and the threaded driver's own mutants.
//! Each test has a name ([`tests`]): `PAIR::reference_p2`,
//! `PAIR::reference_p3`, `PAIR::MUTANT_is_caught`, `MUTANT_is_caught`.
//!
//! **Bounds.** The profile's bound B (quick 2, full 3). P = 3 cases run
//! with fewer preemptions: each one more multiplies the interleavings by
//! about a hundred (measured: energy P = 3 took 1.5 s at bound 1 and 185 s
//! at 2; four-counter P = 3 passed 2.2 million interleavings in 300 s at
//! bound 1 without finishing — idle PEs keep exchanging requests and
//! rejects, and waves keep running, while the others work).

use super::case::{Case, Profile, ONE_SPLIT, UNEVEN};
use std::time::Duration;

use crate::base::Registered;
use crate::mutants::{Catcher, Mutant};
use crate::protocol::{BalancerKind as B, DetectorKind as D};

/// How a pair's reference runs at P = 3, at bound B − `fewer`: the largest
/// bound the quick profile affords in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum P3 {
    /// [`super::TINY`]: Pacheco's Generate + Scatter leaves little to exchange.
    Tiny(usize),
    /// [`ONE_SPLIT`]: energy at bound 1 (on `TINY`, or at bound 2, over
    /// a minute). Neighbourhood polling at bound 0: on the threaded
    /// driver's crossbar every PE is a neighbour, so at bound 1 its
    /// interleavings would repeat random polling's (10 s each).
    OneSplit(usize),
    /// [`UNEVEN`], split among the PEs at the start (002 §3), at bound
    /// B − 2 (quick: 0, every slice-level interleaving; full: 1, the first
    /// cap interleavings per seed — exhaustive is out of reach: 10^6 per
    /// seed ran for over 20 minutes). For waves and tokens, which keep
    /// running while PEs work: at bound 1 four-counter ran for over a
    /// minute even on [`ONE_SPLIT`], Safra 15 s.
    Uneven,
}

/// One balancer × detector pair that runs on threads.
#[derive(Clone, Copy, Debug)]
pub struct Pair {
    /// The test module's name (`random_polling_energy`).
    pub name: &'static str,
    /// The balancer.
    pub balancer: B,
    /// The detector.
    pub detector: D,
    /// How its reference runs at P = 3.
    pub p3: P3,
    /// A mutant at the pair's balancer or detector seam that loom reports ...
    pub mutant: Mutant,
    /// ... at this P ...
    pub mutant_pes: u32,
    /// ... within this many seeds (full: at least 4), failing the property
    /// the catalogue lists under loom.
    pub mutant_seeds: u64,
}

const fn pair(name: &'static str, balancer: B, detector: D, p3: P3, mutant: Mutant, pes: u32) -> Pair {
    Pair { name, balancer, detector, p3, mutant, mutant_pes: pes, mutant_seeds: 0 }
}

/// Every balancer × detector pair that runs on threads.
pub const PAIRS: [Pair; 12] = {
    use Mutant::*;
    [
        pair("random_polling_energy", B::RandomPolling, D::Energy, P3::OneSplit(1), EnergyEarlyReturn, 2),
        pair("random_polling_energy_tree", B::RandomPolling, D::EnergyTree, P3::OneSplit(1), EnergyEarlyReturn, 2),
        pair("random_polling_four_counter", B::RandomPolling, D::FourCounter, P3::Uneven, RequestDropped, 2),
        pair("random_polling_safra", B::RandomPolling, D::Safra, P3::Uneven, SafraNoBlacken, 2),
        pair("pacheco_energy", B::Pacheco, D::Energy, P3::Tiny(0), NoSendAllRejects, 3),
        pair("pacheco_energy_tree", B::Pacheco, D::EnergyTree, P3::Tiny(0), EnergyEarlyReturn, 2),
        pair("pacheco_four_counter", B::Pacheco, D::FourCounter, P3::Tiny(1), NoSendAllRejects, 3),
        pair("pacheco_safra", B::Pacheco, D::Safra, P3::Tiny(1), SafraNoBlacken, 2),
        pair("neighbour_polling_energy", B::NeighbourPolling, D::Energy, P3::OneSplit(2), EnergyEarlyReturn, 2),
        pair(
            "neighbour_polling_energy_tree",
            B::NeighbourPolling,
            D::EnergyTree,
            P3::OneSplit(2),
            EnergyEarlyReturn,
            2,
        ),
        Pair {
            mutant_seeds: 16,
            ..pair(
                "neighbour_polling_four_counter",
                B::NeighbourPolling,
                D::FourCounter,
                P3::Uneven,
                FourCounterOneWave,
                3,
            )
        },
        pair("neighbour_polling_safra", B::NeighbourPolling, D::Safra, P3::Uneven, SafraNoBlacken, 2),
    ]
};

impl Pair {
    /// The reference at P (2 or 3) in profile `p`.
    pub fn reference(&self, pes: u32, p: &Profile) -> Case {
        let case = Case::new(self.balancer, self.detector, pes, p);
        match (pes, self.p3) {
            (2, _) => case,
            (_, P3::Tiny(fewer)) => Case { fewer, ..case },
            (_, P3::OneSplit(fewer)) => Case { workload: ONE_SPLIT, fewer, ..case },
            (_, P3::Uneven) => {
                let cap = p.full.then_some(p.cap);
                Case { workload: UNEVEN, initial_split: true, fewer: 2, cap, ..case }
            }
        }
    }

    /// The mutant's case: the reference's at its P in both profiles (at
    /// P = 3 in the full profile, energy-early-return ran for over 200 s a
    /// seed on [`ONE_SPLIT`]), on [`UNEVEN`] at bound 0 (a seed without the
    /// bug takes hours at 1).
    pub fn mutated(&self, p: &Profile) -> Case {
        let case = Case { mutant: Some(self.mutant), ..self.reference(self.mutant_pes, p) };
        let seeds = self.mutant_seeds.max(case.seeds);
        match case.workload == UNEVEN {
            true => Case { fewer: p.bound, cap: None, seeds, ..case },
            false => Case { seeds, ..case },
        }
    }

    /// What loom reports for the mutant (the catalogue's entry).
    pub fn expect(&self) -> &'static str {
        self.mutant.entry().fails_under(Catcher::Loom).expect("the catalogue lists the mutant as caught by loom")
    }
}

/// The name of the test that shows loom catching `m`: `MUTANT_is_caught`.
pub fn caught_name(m: Mutant) -> String {
    format!("{}_is_caught", m.name().replace('-', "_"))
}

/// One test of the suite: its name, its case and, for a mutant, what loom
/// must report (None: every interleaving must pass).
#[derive(Clone, Debug)]
pub struct Test {
    /// `PAIR::reference_p2`, `PAIR::MUTANT_is_caught`, `MUTANT_is_caught`.
    pub name: String,
    /// What it explores.
    pub case: Case,
    /// What loom must report (the catalogue's property, or "deadlock").
    pub expect: Option<&'static str>,
}

/// Every test of the suite in profile `p`, in the table's order.
pub fn tests(p: &Profile) -> Vec<Test> {
    let mut all = Vec::new();
    for pair in &PAIRS {
        let named = |what: &str| format!("{}::{what}", pair.name);
        all.push(Test { name: named("reference_p2"), case: pair.reference(2, p), expect: None });
        all.push(Test { name: named("reference_p3"), case: pair.reference(3, p), expect: None });
        let caught = caught_name(pair.mutant);
        all.push(Test { name: named(&caught), case: pair.mutated(p), expect: Some(pair.expect()) });
    }
    all.extend(driver_tests(p));
    all
}

/// The bug needs a PE read idle to receive work and pass part of it on
/// (001 §2), which takes three PEs: with two, FIFO mailboxes deliver a PE's
/// reading before any work it gives back. With the 002 §3 initial split
/// into uneven parts, PE 2 reads idle, gets work from PE 1 (counted) and
/// gives part to PE 0 (received before PE 0's reading), so one wave
/// balances while PE 2 still works. Seeds 0..16 at bound 0 (seed 11 has it
/// in loom's first interleaving); at higher bounds a seed without it takes
/// hours. Then the threaded driver's mutants, which act whatever the
/// protocols (P = 2; full: 3).
fn driver_tests(p: &Profile) -> Vec<Test> {
    let base = Case::new(B::RandomPolling, D::FourCounter, 3, p);
    let (workload, initial_split, seeds, fewer) = (UNEVEN, true, 16, p.bound);
    let one_wave = Case { workload, initial_split, seeds, fewer, mutant: Some(Mutant::FourCounterOneWave), ..base };
    let pes = if p.full { 3 } else { 2 };
    let driver = |m: Mutant, d: D| Case { mutant: Some(m), ..Case::new(B::RandomPolling, d, pes, p) };
    vec![
        Test { name: caught_name(Mutant::FourCounterOneWave), case: one_wave, expect: Some("no_early_termination") },
        Test {
            name: caught_name(Mutant::LostWakeup),
            case: driver(Mutant::LostWakeup, D::FourCounter),
            expect: Some("deadlock"),
        },
        Test {
            name: caught_name(Mutant::SleepFlagOutsideLock),
            case: driver(Mutant::SleepFlagOutsideLock, D::Energy),
            expect: Some("deadlock"),
        },
    ]
}

/// The test named `name` (exactly).
pub fn test(name: &str, p: &Profile) -> Option<Test> {
    tests(p).into_iter().find(|t| t.name == name)
}

impl Test {
    /// Runs the test: `Ok` with what it found ("passed", or the seed and
    /// loom's report lines naming the expected failure), `Err` why not.
    pub fn run(&self) -> Result<String, String> {
        let Some(expect) = self.expect else {
            return (0..self.case.seeds).try_for_each(|s| self.case.explore(s)).map(|()| "passed".into());
        };
        let limit =
            Duration::from_secs(if self.case.cap.is_some() || self.case.profile_bound > 2 { 1800 } else { 120 });
        let Some((seed, msg)) = self.case.first_failure(expect, limit) else {
            return Err(format!("no seed in 0..{} fails `{expect}`", self.case.seeds));
        };
        let brief: String = msg.lines().filter(|l| l.contains(expect)).take(2).collect::<Vec<_>>().join("\n");
        Ok(format!("seed {seed}: {}", brief.chars().take(300).collect::<String>()))
    }
}
