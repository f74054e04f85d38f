//! The registry (`lbcheck list`) as a table for the terminal or as the
//! Markdown status table of the README.

use crate::base::Info;
use crate::harness::registry::{Listing, MutantInfo};

/// The families of the listing: JSON key, heading, and the flag that takes them.
fn families(l: &Listing) -> [(&'static str, &'static str, &[Info]); 7] {
    [
        ("balancers", "Balancers (`--balancer`)", &l.balancers),
        ("detectors", "Termination detectors (`--termination`)", &l.detectors),
        ("machines", "Machine models (`--machine`)", &l.machines),
        ("arbiters", "Arbiters of the atomic machine (`--arbiter`)", &l.arbiters),
        ("drivers", "Drivers", &l.drivers),
        ("workloads", "Workload families (`--workload FAMILY:...`)", &l.workloads),
        ("bounds", "Bound suites (`lbcheck bounds --balancer`)", &l.bounds),
    ]
}

const MUTANTS: &str = "Mutants (`--mutant`)";

/// The listing as Markdown tables, one per family (the README's status table).
pub fn markdown(l: &Listing) -> String {
    let mut out = String::new();
    for (_, heading, infos) in families(l) {
        out += &format!("#### {heading}\n\n| name | paper | what | status |\n|---|---|---|---|\n");
        for i in infos {
            out += &format!("| `{}` | {} | {} | {} |\n", i.name, i.paper, i.what, i.status);
        }
        out += "\n";
    }
    out += &format!(
        "#### {MUTANTS}\n\n| name | breaks | acts in | fails | caught by | what |\n|---|---|---|---|---|---|\n"
    );
    for m in &l.mutants {
        let i = &m.info;
        out +=
            &format!("| `{}` | {} | {} | `{}` | {} | {} |\n", i.name, i.paper, m.acts_in, m.fails, m.checker, i.what);
    }
    out
}

/// The listing as aligned columns, one block per family.
pub fn table(l: &Listing) -> String {
    let mut out = String::new();
    for (_, heading, infos) in families(l) {
        let rows: Vec<[String; 4]> =
            infos.iter().map(|i| [i.name.into(), i.status.to_string(), i.paper.into(), i.what.into()]).collect();
        out += &format!("{heading}\n{}\n", super::columns(["name", "status", "paper", "what"], &rows));
    }
    out + &format!("{MUTANTS}\n{}", mutants_table(&l.mutants))
}

/// The mutant catalogue as aligned columns (also `lbcheck mutants`).
pub fn mutants_table(mutants: &[MutantInfo]) -> String {
    let rows: Vec<[String; 4]> =
        mutants.iter().map(|m| [m.info.name.into(), m.fails.clone(), m.acts_in.clone(), m.info.what.into()]).collect();
    super::columns(["name", "caught by (fails)", "acts in", "what"], &rows)
}
