//! The configurations a user's program runs: groups drawn by the
//! references' swarm generator ([`super::super::swarm`]), restricted to
//! what the program accepts — 001's asynchronous machine with only P, the
//! seed, Δt, T_split and a latency range (every other machine parameter at
//! its default), P up to `--impl-max-pes`, and the workloads of
//! `--impl-workload`. A group is one configuration; its runs differ only
//! in their seed, so that a group is a sample `compare` can test.

use rand::seq::IndexedRandom;
use rand::Rng;

use super::super::swarm::{machine_of_seed, PES, WORKLOADS};
use crate::base::rng::{derive_seed, stream, Purpose};
use crate::base::Registered;
use crate::harness::{Driver, RunSpec};
use crate::problem::{Workload, WorkloadFamily};
use crate::protocol::{BalancerKind, DetectorKind};
use crate::sim::SimConfig;

/// Why the configurations cannot be drawn (bad input: exit 2).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ConfigError {
    /// `--impl-workload` names neither a family nor a workload.
    #[error("--impl-workload `{given}` is neither a workload family ({families}) nor a workload: {why}")]
    Workload {
        /// What was given.
        given: String,
        /// The families.
        families: String,
        /// Why it does not parse as a workload.
        why: String,
    },
    /// A family the swarm draws nothing from.
    #[error("--impl-workload {0}: the swarm draws no `{0}` workload for 001's machine; name concrete workloads instead (e.g. --impl-workload {0}:…, see `lbcheck tree --help`)")]
    EmptyFamily(String),
    /// No `--impl-workload`.
    #[error("--impl needs at least one --impl-workload (a family such as `uts`, or a workload such as `synthetic:size=20000,split=balanced`): the workloads your program accepts")]
    NoWorkload,
    /// The declared protocols do not run on 001's asynchronous machine.
    #[error("{0}")]
    Machine(String),
    /// `--impl-max-pes 0`.
    #[error("--impl-max-pes must be at least 1")]
    MaxPes,
}

/// The workloads the program accepts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Accepted {
    families: Vec<WorkloadFamily>,
    concrete: Vec<Workload>,
}

/// One workload of the pool: a swarm base (a seed is drawn for it unless
/// it is a UTS tree), or a concrete workload as given.
#[derive(Clone, Debug)]
enum Entry {
    Base(&'static str),
    Given(Workload),
}

impl Accepted {
    /// Parses `--impl-workload` values: family names or workloads.
    pub fn parse(given: &[String]) -> Result<Accepted, ConfigError> {
        let mut a = Accepted::default();
        for g in given {
            if let Ok(family) = WorkloadFamily::lookup(g) {
                a.families.push(family);
                continue;
            }
            let w: Workload = g.parse().map_err(|e: crate::problem::SpecError| ConfigError::Workload {
                given: g.clone(),
                families: WorkloadFamily::names().join(", "),
                why: e.to_string().lines().next().unwrap_or_default().to_string(),
            })?;
            a.concrete.push(w);
        }
        a.pool().map(|_| a)
    }

    /// True if exactly one workload can be drawn.
    pub fn one_workload(&self) -> bool {
        self.families.is_empty() && self.concrete.len() == 1
    }

    /// Every workload a group may draw.
    fn pool(&self) -> Result<Vec<Entry>, ConfigError> {
        let mut pool: Vec<Entry> = Vec::new();
        for &f in &self.families {
            let of = WORKLOADS.iter().filter(|w| w.split(':').next() == Some(f.name()));
            let before = pool.len();
            pool.extend(of.map(|w| Entry::Base(w)));
            if pool.len() == before {
                return Err(ConfigError::EmptyFamily(f.name().into()));
            }
        }
        pool.extend(self.concrete.iter().cloned().map(Entry::Given));
        if pool.is_empty() {
            return Err(ConfigError::NoWorkload);
        }
        Ok(pool)
    }
}

/// What to draw.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The balancer the program implements.
    pub balancer: BalancerKind,
    /// The detector it implements.
    pub detector: DetectorKind,
    /// The workloads it accepts.
    pub accepted: Accepted,
    /// The largest P it is run on.
    pub max_pes: Option<u32>,
    /// Runs in all.
    pub runs: u32,
    /// The base seed.
    pub seed: u64,
}

/// The runs a group holds when it is to be compared (`compare`'s least sample).
pub const RUNS_PER_GROUP: u32 = crate::bounds::compare::MIN_RUNS as u32;

/// One configuration and the seeds of its runs.
#[derive(Clone, Debug)]
pub struct Group {
    /// `g1`, `g2`, …
    pub label: String,
    /// The run specification (its driver's seed is the first run's).
    pub spec: RunSpec,
    /// The seed of each run.
    pub seeds: Vec<u64>,
}

impl Group {
    /// Run `i`'s specification.
    pub fn run_spec(&self, i: usize) -> RunSpec {
        let mut spec = self.spec.clone();
        spec.driver.set_seed(self.seeds[i]);
        spec
    }

    /// `uts:default, P=8, Δt=10, T_split=5, latency 1..40`.
    pub fn describe(&self) -> String {
        let Driver::Sim(c) = &self.spec.driver else { unreachable!("external runs are on 001's machine") };
        let (a, b) = c.latency.unwrap_or((c.t_rout, c.t_rout));
        format!("{}, P={}, Δt={}, T_split={}, latency {a}..{b}", self.spec.workload, c.pes, c.dt, c.t_split)
    }
}

/// The groups: `runs` / 20 of them (at least one), the runs shared out
/// evenly, each group's configuration drawn from its own seed.
pub fn groups(s: &Setup) -> Result<Vec<Group>, ConfigError> {
    protocols_fit(s.balancer, s.detector)?;
    if s.max_pes == Some(0) {
        return Err(ConfigError::MaxPes);
    }
    let pool = s.accepted.pool()?;
    let n = (s.runs / RUNS_PER_GROUP).max(1);
    (0..n)
        .map(|g| {
            let runs = s.runs / n + u32::from(g < s.runs % n);
            let label = format!("g{}", g + 1);
            let spec = draw(s, &pool, derive_seed(s.seed, "impl/group", g));
            spec.validate().map_err(|e| ConfigError::Machine(format!("{label} ({}): {e}", spec.workload)))?;
            let seeds = (0..runs).map(|i| derive_seed(s.seed, &format!("impl/{label}"), i)).collect();
            Ok(Group { label, spec, seeds })
        })
        .filter(|g| g.as_ref().map_or(true, |g| !g.seeds.is_empty()))
        .collect()
}

/// The declared protocols run on 001's asynchronous machine.
fn protocols_fit(b: BalancerKind, d: DetectorKind) -> Result<(), ConfigError> {
    let machine = match (b.phased() || d.phased(), b.atomic()) {
        (true, _) => "000's phased machine",
        (_, true) => "004's atomic machine",
        _ => return Ok(()),
    };
    Err(ConfigError::Machine(format!(
        "--impl drives 001's asynchronous machine (P, seed, Δt, T_split, latency); `{b}` with `{d}` runs on {machine}: check its traces with `lbcheck check-trace`"
    )))
}

/// One group's configuration: the swarm's machine for `seed` with only
/// P, Δt, T_split and the latency range kept, and a workload of the pool.
fn draw(s: &Setup, pool: &[Entry], seed: u64) -> RunSpec {
    let c = machine_of_seed(seed);
    let mut rng = stream(seed, 2, Purpose::Swarm);
    let max = s.max_pes.unwrap_or(u32::MAX);
    let pes = match c.pes <= max {
        true => c.pes,
        false => *PES.iter().filter(|&&p| p <= max).collect::<Vec<_>>().choose(&mut rng).copied().unwrap_or(&1),
    };
    let latency = c.latency.unwrap_or((c.t_rout, c.t_rout));
    let t_rout = latency.1;
    let sim =
        SimConfig { pes, seed, dt: c.dt, t_split: c.t_split, t_rout, latency: Some(latency), ..SimConfig::default() };
    let workload = match pool.choose(&mut rng).expect("a nonempty pool") {
        Entry::Base(w) if w.starts_with("uts:") => w.parse().expect("the swarm's workloads parse"),
        Entry::Base(w) => {
            format!("{w},seed={}", rng.random_range(0..1000)).parse().expect("the swarm's workloads parse")
        }
        Entry::Given(w) => w.clone(),
    };
    RunSpec::new(workload, s.balancer, s.detector, Driver::Sim(sim))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(workloads: &[&str], runs: u32, max_pes: Option<u32>) -> Setup {
        let accepted = Accepted::parse(&workloads.iter().map(|w| w.to_string()).collect::<Vec<_>>()).unwrap();
        Setup {
            balancer: BalancerKind::RandomPolling,
            detector: DetectorKind::Energy,
            accepted,
            max_pes,
            runs,
            seed: 1,
        }
    }

    #[test]
    fn groups_of_twenty_within_what_the_program_accepts() {
        let gs = groups(&setup(&["uts", "synthetic:size=300,split=balanced"], 45, Some(8))).unwrap();
        assert_eq!(gs.iter().map(|g| g.seeds.len()).collect::<Vec<_>>(), [23, 22]);
        for g in &gs {
            let Driver::Sim(c) = &g.spec.driver else { panic!() };
            assert!(c.pes <= 8 && c.latency.is_some() && c.o == 0 && c.slow.is_none(), "{c:?}");
            let w = g.spec.workload.to_string();
            assert!(w.starts_with("uts:") || w == "synthetic:size=300,atomic=1,split=balanced,seed=0", "{w}");
        }
        let distinct: std::collections::BTreeSet<u64> = gs.iter().flat_map(|g| g.seeds.clone()).collect();
        assert_eq!(distinct.len(), 45);
        assert_eq!(groups(&setup(&["uts"], 5, None)).unwrap()[0].seeds.len(), 5);
    }

    #[test]
    fn bad_declarations_are_refused() {
        let e = Accepted::parse(&["utz".into()]).unwrap_err().to_string();
        assert!(e.contains("`utz` is neither a workload family") && e.contains("uts"), "{e}");
        assert_eq!(Accepted::parse(&[]).unwrap_err(), ConfigError::NoWorkload);
        assert_eq!(Accepted::parse(&["kz".into()]).unwrap_err(), ConfigError::EmptyFamily("kz".into()));
        let phased = Setup {
            balancer: BalancerKind::PollAndShuffle,
            detector: DetectorKind::Barrier,
            ..setup(&["uts"], 20, None)
        };
        assert!(groups(&phased).unwrap_err().to_string().contains("000's phased machine"));
        assert_eq!(groups(&setup(&["uts"], 20, Some(0))).unwrap_err(), ConfigError::MaxPes);
    }
}
