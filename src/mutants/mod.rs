//! The one catalogue of deliberately broken variants ("mutants"): bugs of a
//! protocol, of the threaded driver, and of the statistical layer's
//! formulas. Each exists to show that a checker can fail: the test suites
//! run every mutant and expect the checker named here to report it.
//!
//! Every entry says where the bug acts (a balancer, detectors, the threaded
//! driver, the bound formulas) and which checkers catch it, so that a
//! combination where the mutant has no effect is refused and a run that
//! cannot catch it says so ([`Mutant::not_applicable`], [`Mutant::uncaught_by`]).
//! Each mutant is declared once, in `catalogue.rs`: the harness, the
//! campaign and `lbcheck mutants` read its [`Entry`] (what it needs from a
//! run, [`Need`]; the runs it is shown on, [`Demo`]) and never name it.
//! [`seams`] holds each protocol mutant as the broken rule it puts at one
//! seam of a reference; the threaded driver's mutants act in its mailbox,
//! the formula mutants in `bounds::claims`, the log mutants ([`log`]) in the
//! event stream between any driver and the checker.

mod catalogue;
pub mod log;
mod needs;
pub mod seams;

pub use needs::Need;

use crate::base::registry::{Info, Registered};
use crate::protocol::{BalancerKind, DetectorKind};

/// Declares the catalogue from one list: the [`Mutant`] enum, its entries
/// ([`CATALOGUE`], in the enum's order) and its registry.
macro_rules! declare_catalogue {
    ($( $(#[$doc:meta])* $variant:ident => $entry:expr; )+) => {
        /// A deliberate bug, selected by name (`--mutant NAME`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Mutant { $( $(#[$doc])* $variant, )+ }

        /// Every mutant's declaration, in the enum's order.
        pub const CATALOGUE: &[super::Entry] = &[ $( super::Entry { mutant: Mutant::$variant, ..$entry }, )+ ];

        impl crate::base::Registered for Mutant {
            const KIND: &'static str = "mutant";
            const ALL: &'static [Self] = &[ $( Mutant::$variant, )+ ];

            fn info(self) -> &'static crate::base::Info {
                &self.entry().info
            }
        }

        crate::registered_names!(Mutant);
    };
}
use declare_catalogue;

pub use catalogue::*;

/// Where a mutant's bug is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// In a balancer: acts whenever that balancer runs, on every driver.
    Balancer(BalancerKind),
    /// In a detector family: acts only with these detectors, on every driver.
    Detectors(&'static [DetectorKind]),
    /// In the threaded driver (`lbcheck run`, loom), whatever the protocols.
    ThreadedDriver,
    /// In the bound formulas of `lbcheck bounds`.
    Formulas,
    /// In the event log between a driver and the checker (the logging bugs
    /// of an implementation whose protocol is right): acts in every run.
    Log,
    /// In 004's atomic machine (its buffers and arbiter): acts in runs on
    /// `--machine atomic`.
    AtomicMachine,
    /// In message scattering's destinations (004 §3, `lbcheck bounds --balancer scatter`).
    Scatter,
    /// In the work loop of 001's simulated machine (`lbcheck simulate`, `lbcheck bounds`).
    SimWorkLoop,
    /// In bitonic sort's merge-split (`lbcheck bitonic`, 003 §14.4).
    Bitonic,
    /// In the network of 001's simulated machine (`lbcheck simulate
    /// --topology`): acts in runs on a topology other than the crossbar.
    SimNetwork,
    /// In the bound propagation of branch-and-bound (S-12): acts in runs
    /// of a pruning workload (knapsack, tsp, golomb), whatever the balancer.
    BoundPropagation,
    /// In random polling's choice of victim on a network (000 §1.1): acts
    /// in random-polling runs on a topology (`lbcheck simulate --topology`,
    /// the random-polling runs of `lbcheck bounds --balancer poll-and-shuffle`).
    NetworkPolling,
}

/// A checker a mutant is shown failing under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Catcher {
    /// The invariants of one checked run (`lbcheck simulate`; `lbcheck run --check`).
    Run,
    /// A statistical claim of `lbcheck bounds`.
    Bounds,
    /// loom's exhaustive interleavings of the threaded driver (`scripts/loom.sh`).
    Loom,
    /// The properties of a parallel bitonic sort (`lbcheck bitonic`).
    Bitonic,
    /// The exhaustive explorer of tiny instances (`lbcheck explore`).
    Explore,
    /// A batch of runs against the reference's (`lbcheck compare`): for a
    /// mutant that is correct but wasteful, which every property passes.
    Compare,
}

impl Catcher {
    /// The command that shows it.
    pub fn name(self) -> &'static str {
        match self {
            Catcher::Run => "simulate",
            Catcher::Bounds => "bounds",
            Catcher::Loom => "loom",
            Catcher::Explore => "explore",
            Catcher::Bitonic => "bitonic",
            Catcher::Compare => "compare",
        }
    }
}

/// One catalogue entry: a mutant's declaration.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The mutant.
    pub mutant: Mutant,
    /// Name, the paper rule it breaks, what is broken.
    pub info: Info,
    /// Where the bug is.
    pub site: Site,
    /// The checkers shown reporting it, each with what it reports: a
    /// property, a claim, or loom's "deadlock".
    pub caught_by: &'static [(Catcher, &'static str)],
    /// What a run needs for the bug to act (beyond its site).
    pub needs: &'static [Need],
    /// The runs a single checked run shows it on (the campaign's `mutants`
    /// layer and regression corpus).
    pub demo: Demo,
    /// The largest P of the reduced bounds profile it is shown failing on.
    pub bounds_max_pes: u32,
}

impl Entry {
    /// An entry acting at `site`, caught by `caught_by`, needing nothing
    /// more, shown on [`Demo::DEFAULT`] (the catalogue fills in `mutant`).
    pub const fn new(info: Info, site: Site, caught_by: &'static [(Catcher, &'static str)]) -> Entry {
        let mutant = Mutant::EnergyNotSplit; // replaced by the catalogue
        Entry { mutant, info, site, caught_by, needs: &[], demo: Demo::DEFAULT, bounds_max_pes: 32 }
    }

    /// This entry needing `needs` of a run.
    pub const fn needs(self, needs: &'static [Need]) -> Entry {
        Entry { needs, ..self }
    }

    /// This entry shown on `demo`.
    pub const fn demo(self, demo: Demo) -> Entry {
        Entry { demo, ..self }
    }

    /// This entry shown failing its bound claims on P up to `pes`.
    pub const fn bounds_max_pes(self, pes: u32) -> Entry {
        Entry { bounds_max_pes: pes, ..self }
    }

    /// What `c` reports for this mutant, if `c` is shown catching it.
    pub fn fails_under(&self, c: Catcher) -> Option<&'static str> {
        self.caught_by.iter().find(|(k, _)| *k == c).map(|(_, f)| *f)
    }

    /// True if `c` is shown catching this mutant.
    pub fn caught_by(&self, c: Catcher) -> bool {
        self.fails_under(c).is_some()
    }

    /// True if the mutant needs `need` of a run.
    pub fn has_need(&self, need: Need) -> bool {
        self.needs.contains(&need)
    }
}

/// The runs a mutant caught by one checked run is shown on: `workload` on
/// `pes` PEs of 001's machine (T_split `t_split`), one run per seed, with
/// `balancer` (else the site's, or random polling) and the site's detector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Demo {
    /// The workload.
    pub workload: &'static str,
    /// P.
    pub pes: u32,
    /// T_split.
    pub t_split: u64,
    /// One run per seed.
    pub seeds: &'static [u64],
    /// The balancer, when not the site's.
    pub balancer: Option<BalancerKind>,
}

impl Demo {
    /// A small UTS tree (T_seq 4,112) on 16 PEs, seeds 1-3.
    pub const DEFAULT: Demo = Demo {
        workload: "uts:args=-t 0 -b 40 -q 0.2 -m 4 -r 1",
        pes: 16,
        t_split: 5,
        seeds: &[1, 2, 3],
        balancer: None,
    };
}

impl Mutant {
    /// The mutant's declaration.
    pub fn entry(self) -> &'static Entry {
        &CATALOGUE[self as usize]
    }

    /// Why this mutant has no effect in a run of `balancer` + `detector`
    /// (on real threads or processes if `threaded`); `None` if it acts.
    pub fn not_applicable(self, balancer: BalancerKind, detector: DetectorKind, threaded: bool) -> Option<String> {
        let (name, e) = (self.name(), self.entry());
        match e.site {
            Site::Balancer(b) if b != balancer => Some(format!("mutant `{name}` acts only in the {b} balancer")),
            Site::NetworkPolling if balancer != BalancerKind::RandomPolling => {
                Some(format!("mutant `{name}` acts only in random polling on a topology (`--topology mesh:2`)"))
            }
            Site::Detectors(ds) if !ds.contains(&detector) => {
                let names: Vec<_> = ds.iter().map(|d| d.name()).collect();
                Some(format!("mutant `{name}` acts only with --termination {}", names.join(" or ")))
            }
            _ if threaded && e.has_need(Need::Deactivated) => Some(format!(
                "mutant `{name}` acts in a deactivated worker, whose window is in model time: use `lbcheck simulate`"
            )),
            _ if threaded && e.has_need(Need::ModelTime) => {
                Some(format!("mutant `{name}` {}", Need::ModelTime.advice()))
            }
            Site::ThreadedDriver if !threaded => {
                Some(format!("mutant `{name}` is a bug of the threaded driver: use `lbcheck run` (loom catches it)"))
            }
            _ => self.outside_runs(balancer, threaded),
        }
    }

    /// Why a run of `balancer` cannot show this mutant at all: it acts
    /// outside checked runs, or on another machine.
    fn outside_runs(self, balancer: BalancerKind, threaded: bool) -> Option<String> {
        let name = self.name();
        match self.entry().site {
            Site::Formulas => Some(format!("mutant `{name}` breaks the bound formulas: use `lbcheck bounds`")),
            Site::Scatter => Some(format!("mutant `{name}` acts in message scattering: use `lbcheck bounds --balancer scatter`")),
            Site::Bitonic => Some(format!("mutant `{name}` acts in bitonic sort: use `lbcheck bitonic`")),
            Site::SimWorkLoop | Site::SimNetwork if threaded || balancer.atomic() => {
                Some(format!("mutant `{name}` acts in the work loop of 001's simulated machine: use `lbcheck simulate` or `lbcheck bounds`"))
            }
            Site::BoundPropagation if balancer.atomic() => Some(format!(
                "mutant `{name}` acts in branch-and-bound's bound propagation, which 004's atomic machine does not run (backtrack and best-first search, 004 §4.1): use a balancer of 001's machine"
            )),
            Site::AtomicMachine if !balancer.atomic() => Some(format!(
                "mutant `{name}` is a bug of 004's atomic machine: use `lbcheck simulate --machine atomic --balancer random-destination`"
            )),
            _ => None,
        }
    }

    /// If `catcher` is not among the checkers shown catching this mutant,
    /// the note to print: which ones do.
    pub fn uncaught_by(self, catcher: Catcher) -> Option<String> {
        let e = self.entry();
        if e.caught_by(catcher) {
            return None;
        }
        Some(format!(
            "note: mutant `{}` is caught by {}, not by this command: this run may well pass",
            e.info.name,
            self.fails()
        ))
    }

    /// The checkers that catch it, joined by `+` ("simulate+loom").
    pub fn checkers(self) -> String {
        let names: Vec<_> = self.entry().caught_by.iter().map(|(c, _)| c.name()).collect();
        names.join("+")
    }

    /// What each checker reports: "simulate (`requests_answered`), bounds (`t_par`)".
    pub fn fails(self) -> String {
        let each: Vec<_> = self.entry().caught_by.iter().map(|(c, f)| format!("{} (`{f}`)", c.name())).collect();
        each.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_lists_every_variant_once_in_order() {
        let listed: Vec<Mutant> = CATALOGUE.iter().map(|e| e.mutant).collect();
        assert_eq!(listed, Mutant::ALL);
        for m in Mutant::ALL {
            assert_eq!(m.to_string().parse::<Mutant>(), Ok(*m));
            assert!(!m.entry().caught_by.is_empty(), "{m}");
            assert_eq!(m.checkers().split('+').count(), m.entry().caught_by.len(), "{m}");
        }
    }

    #[test]
    fn inapplicable_combinations_say_why() {
        let (rp, fc, en) = (BalancerKind::RandomPolling, DetectorKind::FourCounter, DetectorKind::Energy);
        let why = Mutant::EnergyNotSplit.not_applicable(rp, fc, false).unwrap();
        assert!(why.contains("--termination energy or energy-tree"), "{why}");
        assert!(Mutant::EnergyNotSplit.not_applicable(rp, DetectorKind::EnergyTree, false).is_none());
        assert!(Mutant::LostWakeup.not_applicable(rp, en, false).unwrap().contains("lbcheck run"));
        assert!(Mutant::LostWakeup.not_applicable(rp, en, true).is_none());
        assert!(Mutant::SplitLoses.not_applicable(rp, fc, true).is_none());
        assert!(Mutant::FormulaNoSquare.not_applicable(rp, en, false).is_some());
        assert!(Mutant::LostWakeup.uncaught_by(Catcher::Run).unwrap().contains("caught by loom"));
        assert!(Mutant::SplitLoses.uncaught_by(Catcher::Run).is_none());
    }
}
