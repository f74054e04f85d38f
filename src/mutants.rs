//! The catalogue of deliberately broken protocol variants ("mutants"). Each
//! exists to show that a checker can fail: the test suite runs every mutant
//! and expects the property named here to fail.

use std::fmt;
use std::str::FromStr;

/// A deliberate bug, selected by name (`--mutant NAME`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mutant {
    /// Energy: the server sends half its energy but keeps all of it.
    EnergyNotSplit,
    /// Energy: the server returns its energy to PE 0 before sending the work,
    /// which then travels with none.
    EnergyEarlyReturn,
    /// Four-counter: announces after one wave with sent = received.
    FourCounterOneWave,
    /// Random polling: a request that should be rejected is silently dropped.
    RequestDropped,
    /// Random polling: the part given away is also kept (work done twice).
    SplitDuplicates,
    /// Random polling: the part split off is sent to nobody (work lost).
    SplitLoses,
    /// Random polling: an idle PE asks only PE (i+1) mod P (000 §1.1's
    /// neighbourhood polling, whose busy clusters hide large subproblems).
    PollNeighbour,
    /// Random polling: the server gives away a single atomic unit
    /// ([`crate::problem::Subproblem::split_small`]), so splits make no progress in h.
    SplitTiny,
    /// Random polling: a busy PE serves its queue only every 64th poll, as if
    /// Δt were 64 times the configured value.
    PollLazy,
    /// Random polling: at a poll the first queued request is served and the
    /// rest vanish (their senders wait forever).
    ServeOneDropRest,
    /// Random polling: every idle PE asks PE 0 (PE 0 asks PE 1), and PE 0
    /// queues requests even while idle: requests pile up in one queue
    /// (001 Lemma 1.3 needs uniform victims).
    PollHotspot,
}

/// Which checker a mutant is shown failing under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checker {
    /// An invariant of `check/`, on every run (`lbcheck simulate`).
    Invariant,
    /// A statistical claim of `bounds/` (`lbcheck bounds`).
    Bounds,
}

/// The claims of `lbcheck bounds` (`crate::bounds`) a mutant can be listed
/// under; every other `fails` names an invariant.
pub const BOUND_CLAIMS: &[&str] = &[
    "formula",
    "lower_bound_eq1",
    "t_par",
    "t_par_trend",
    "gen_depth",
    "gen_depth_trend",
    "queue",
    "traffic",
    "traffic_trend",
];

/// One catalogue entry.
pub struct Entry {
    /// The mutant.
    pub mutant: Mutant,
    /// Its name on the command line.
    pub name: &'static str,
    /// The property the checker must report as failed.
    pub fails: &'static str,
    /// The detector it needs (mutants of a detector only act in it).
    pub detector: &'static str,
    /// What is broken.
    pub what: &'static str,
    /// Also shown failing on real threads under loom (`tests/loom_threads.rs`).
    pub loom: bool,
}

/// Every mutant.
pub const CATALOGUE: &[Entry] = &[
    Entry {
        mutant: Mutant::EnergyNotSplit,
        name: "energy-not-split",
        fails: "energy_conserved",
        detector: "energy",
        what: "the server sends half its energy with the work but keeps all of it (003 §14.7.4 rule 4 broken)",
        loom: false,
    },
    Entry {
        mutant: Mutant::EnergyEarlyReturn,
        name: "energy-early-return",
        fails: "no_early_termination",
        detector: "energy",
        what: "the server returns its energy to PE 0 before the work message is sent; the work travels with none",
        loom: true,
    },
    Entry {
        mutant: Mutant::FourCounterOneWave,
        name: "four-counter-one-wave",
        fails: "no_early_termination",
        detector: "four-counter",
        what: "PE 0 announces after a single wave with sent = received (001 §2 needs two)",
        loom: true,
    },
    Entry {
        mutant: Mutant::RequestDropped,
        name: "request-dropped",
        fails: "requests_answered",
        detector: "any",
        what: "a request that should be rejected (idle PE, or queue over the limit) is silently dropped",
        loom: true,
    },
    Entry {
        mutant: Mutant::SplitDuplicates,
        name: "split-duplicates",
        fails: "work_conserved",
        detector: "any",
        what: "the server sends a part of its subproblem but keeps the whole (work done twice)",
        loom: false,
    },
    Entry {
        mutant: Mutant::SplitLoses,
        name: "split-loses",
        fails: "work_conserved",
        detector: "any",
        what: "the server splits off a part and sends it to nobody (work lost), rejecting the request",
        loom: false,
    },
    Entry {
        mutant: Mutant::PollNeighbour,
        name: "poll-neighbour",
        fails: "t_par",
        detector: "any",
        what: "an idle PE asks only PE (i+1) mod P: busy clusters hide large subproblems (000 §1.1)",
        loom: false,
    },
    Entry {
        mutant: Mutant::SplitTiny,
        name: "split-tiny",
        fails: "traffic",
        detector: "any",
        what: "the server gives away a single atomic unit, so splitting makes no progress in h",
        loom: false,
    },
    Entry {
        mutant: Mutant::PollLazy,
        name: "poll-lazy",
        fails: "t_par",
        detector: "any",
        what: "a busy PE serves requests only every 64th poll: Δt far larger than configured",
        loom: false,
    },
    Entry {
        mutant: Mutant::ServeOneDropRest,
        name: "serve-one-drop-rest",
        fails: "t_par",
        detector: "any",
        what: "at a poll only the first queued request is answered; the rest vanish",
        loom: false,
    },
    Entry {
        mutant: Mutant::PollHotspot,
        name: "poll-hotspot",
        fails: "queue",
        detector: "any",
        what: "every idle PE asks PE 0 (PE 0 asks PE 1), which queues them even while idle (001 Lemma 1.3)",
        loom: false,
    },
];

impl Entry {
    /// The checker this mutant is shown failing under: [`Checker::Bounds`]
    /// if `fails` names a claim of [`BOUND_CLAIMS`], else [`Checker::Invariant`].
    pub fn checker(&self) -> Checker {
        match BOUND_CLAIMS.contains(&self.fails) {
            true => Checker::Bounds,
            false => Checker::Invariant,
        }
    }
}

impl Mutant {
    /// The mutant's catalogue entry.
    pub fn entry(self) -> &'static Entry {
        CATALOGUE.iter().find(|e| e.mutant == self).expect("every mutant is catalogued")
    }
}

impl fmt::Display for Mutant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.entry().name)
    }
}

impl FromStr for Mutant {
    type Err = String;
    fn from_str(s: &str) -> Result<Mutant, String> {
        CATALOGUE.iter().find(|e| e.name == s).map(|e| e.mutant).ok_or_else(|| {
            let names: Vec<_> = CATALOGUE.iter().map(|e| e.name).collect();
            format!("unknown mutant `{s}`; valid: {}", names.join(", "))
        })
    }
}
