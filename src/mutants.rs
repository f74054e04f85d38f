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
    /// Random polling: a request is silently dropped instead of rejected.
    RequestDropped,
    /// Random polling: the part given away is also kept (work done twice).
    SplitDuplicates,
    /// Random polling: the part split off is sent to nobody (work lost).
    SplitLoses,
}

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
}

/// Every mutant.
pub const CATALOGUE: &[Entry] = &[
    Entry {
        mutant: Mutant::EnergyNotSplit,
        name: "energy-not-split",
        fails: "energy_conserved",
        detector: "energy",
        what: "the server sends half its energy with the work but keeps all of it (003 §14.7.4 rule 4 broken)",
    },
    Entry {
        mutant: Mutant::EnergyEarlyReturn,
        name: "energy-early-return",
        fails: "no_early_termination",
        detector: "energy",
        what: "the server returns its energy to PE 0 before the work message is sent; the work travels with none",
    },
    Entry {
        mutant: Mutant::FourCounterOneWave,
        name: "four-counter-one-wave",
        fails: "no_early_termination",
        detector: "four-counter",
        what: "PE 0 announces after a single wave with sent = received (001 §2 needs two)",
    },
    Entry {
        mutant: Mutant::RequestDropped,
        name: "request-dropped",
        fails: "requests_answered",
        detector: "any",
        what: "a busy PE silently drops a request instead of answering it",
    },
    Entry {
        mutant: Mutant::SplitDuplicates,
        name: "split-duplicates",
        fails: "work_conserved",
        detector: "any",
        what: "the server sends a part of its subproblem but keeps the whole (work done twice)",
    },
    Entry {
        mutant: Mutant::SplitLoses,
        name: "split-loses",
        fails: "work_conserved",
        detector: "any",
        what: "the server splits off a part and sends it to nobody (work lost), rejecting the request",
    },
];

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
