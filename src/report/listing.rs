//! Everything the registry holds, family by family ([`listing`]: what
//! `lbcheck list` prints and what the README's status table and
//! `docs/mutants.md` are generated from), as a table for the terminal or as
//! Markdown.

use serde::Serialize;

use crate::base::registry::{Info, Registered};
use crate::bounds::Suite;
use crate::harness::DriverKind;
use crate::mutants::{Entry, Site, CATALOGUE};
use crate::problem::WorkloadFamily;
use crate::protocol::{BalancerKind, DetectorKind};
use crate::sim::atomic::Arbiter;
use crate::sim::MachineKind;

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

/// The listing as Markdown tables, one per family, without the mutant
/// catalogue (the README's status table; the catalogue is
/// [`mutants_markdown`], `docs/mutants.md`).
pub fn markdown(l: &Listing) -> String {
    let mut out = String::new();
    for (i, (_, heading, infos)) in families(l).into_iter().enumerate() {
        if i > 0 {
            out += "\n";
        }
        out += &format!("#### {heading}\n\n| name | paper | what | status |\n|---|---|---|---|\n");
        for i in infos {
            out += &format!("| `{}` | {} | {} | {} |\n", i.name, i.paper, i.what, i.status);
        }
    }
    out
}

/// The mutant catalogue as one Markdown table (`lbcheck mutants --markdown`,
/// the generated page `docs/mutants.md`).
pub fn mutants_markdown(mutants: &[MutantInfo]) -> String {
    let mut out = format!(
        "#### {MUTANTS}\n\n| name | breaks | acts in | fails | caught by | what |\n|---|---|---|---|---|---|\n"
    );
    for m in mutants {
        let i = &m.info;
        out += &format!("| `{}` | {} | {} | {} | {} | {} |\n", i.name, i.paper, m.acts_in, m.fails, m.checker, i.what);
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

/// The whole registry.
#[derive(Clone, Debug, Serialize)]
pub struct Listing {
    /// Load balancers (`--balancer`).
    pub balancers: Vec<Info>,
    /// Termination detectors (`--termination`).
    pub detectors: Vec<Info>,
    /// Machine models (`--machine`).
    pub machines: Vec<Info>,
    /// The atomic machine's arbiters (`--arbiter`).
    pub arbiters: Vec<Info>,
    /// Drivers (`simulate`, `run`, loom).
    pub drivers: Vec<Info>,
    /// Workload families (`--workload FAMILY:...`).
    pub workloads: Vec<Info>,
    /// Bound suites (`lbcheck bounds --balancer`).
    pub bounds: Vec<Info>,
    /// The mutant catalogue (`--mutant`).
    pub mutants: Vec<MutantInfo>,
}

/// A mutant's registry entry with where it acts and what catches it.
#[derive(Clone, Debug, Serialize)]
pub struct MutantInfo {
    /// Name, paper rule broken, what is broken, status.
    #[serde(flatten)]
    pub info: Info,
    /// Where the bug is ("balancer NAME", "detectors energy, energy-tree", "driver threads", …).
    pub acts_in: String,
    /// What each checker reports ("simulate (`requests_answered`), bounds (`t_par`)").
    pub fails: String,
    /// The checkers that catch it, joined by `+` ("simulate+loom").
    pub checker: String,
}

/// The registry, every family in listing order.
pub fn listing() -> Listing {
    Listing {
        balancers: BalancerKind::listing(),
        detectors: DetectorKind::listing(),
        machines: MachineKind::listing(),
        arbiters: Arbiter::listing(),
        drivers: DriverKind::listing(),
        workloads: WorkloadFamily::listing(),
        bounds: Suite::listing(),
        mutants: CATALOGUE.iter().map(mutant_info).collect(),
    }
}

fn mutant_info(e: &Entry) -> MutantInfo {
    let m = e.mutant;
    let acts_in = match e.site {
        Site::Balancer(b) => format!("balancer {b}"),
        Site::Detectors(ds) => format!("detectors {}", ds.iter().map(|d| d.name()).collect::<Vec<_>>().join(", ")),
        Site::ThreadedDriver => "driver threads".into(),
        Site::Formulas => "bound formulas".into(),
        Site::Log => "event log".into(),
        Site::AtomicMachine => "machine atomic".into(),
        Site::Scatter => "message scattering".into(),
        Site::SimWorkLoop => "machine async (work loop)".into(),
        Site::SimNetwork => "machine async (network)".into(),
        Site::Bitonic => "bitonic sort".into(),
        Site::BoundPropagation => "bound propagation (branch-and-bound workloads)".into(),
        Site::NetworkPolling => "balancer random-polling (on a topology)".into(),
    };
    MutantInfo { info: e.info, acts_in, fails: m.fails(), checker: m.checkers() }
}
