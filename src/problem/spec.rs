//! Workload names: the strings the CLI and the trace format use to name a
//! root subproblem, parsed with errors that list the valid forms.

use super::bnb::golomb::{self, GolombConfig};
use super::bnb::knapsack::{self, KnapsackConfig};
use super::bnb::puzzle15::{self, NoSuchIteration, Puzzle15Config};
use super::bnb::tsp::{self, TspConfig};
use super::costtree::{CostTreeConfig, Critical, MAX_DEPTH};
use std::collections::BTreeMap;
use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use super::dfs::{Strategy, STRATEGIES};
use super::loops::{CostProfile, LoopConfig, PROFILES};
use super::synthetic::{Policy, SynthConfig};
use super::uts::params::{UtsError, UTS_FLAGS};
use super::uts::samples::{self, Sample, SAMPLES};
use super::uts::{self, UtsParams};
use super::Task;
use crate::base::registry::{Info, Registered};
use crate::registry;

/// The largest synthetic size and loop length, 10^9 (a sequential run
/// of either takes seconds at most).
pub const MAX_SIZE: u64 = 1_000_000_000;

/// Every workload form, for error messages and `--help`.
pub const FORMS: &str = "\
  synthetic:size=N[,atomic=A][,split=POLICY][,seed=S]   1 <= A <= N <= 10^9; POLICY: uniform, alpha:<a in [0.001,0.999]>,
                                                        peel, balanced (default), fig3[:<n PEs>[:<spine>]]
  uts:NAME                                              NAME: default, T1, T5, T2, T4, T1L, T1XL, T3, T3L
  uts:args=<UTS flags>                                  e.g. uts:args=-t 0 -b 2000 -q 0.124875 -m 8 -r 42
  loop:n=N[,cost=PROFILE][,seed=S]                      1 <= N <= 10^9; PROFILE: const, const:<units>, heavy, triangle
  kz:depth=D[,seed=S][,pruned=1]                        Karp-Zhang cost tree, 1 <= D <= 26 (branch-and-bound, 004 §6);
                                                        pruned: vertices of cost >= the optimum are leaves
  knapsack:items=N[,seed=S]                             0-1 knapsack branch-and-bound (002 §5.2 generator), 1 <= N <= 2000
  tsp:cities=N[,seed=S]                                 travelling salesman branch-and-bound (003 §14.5), 2 <= N <= 24
  golomb:marks=K                                        optimal Golomb ruler branch-and-bound (002 §5.1), 2 <= K <= 11
  puzzle15:moves=M[,seed=S][,iteration=I]               15-puzzle IDA* iteration I (default: the last) of a board scrambled
                                                        by M random moves (002 §5.3), 1 <= M <= 80";

registry! {
    /// The workload families (the part of a workload name before `:`).
    pub enum WorkloadFamily: "workload family" {
        /// Synthetic interval trees with adversarial split policies ([`super::synthetic`]).
        Synthetic => Info::ships(
            "synthetic",
            "002 §2; 000 Fig. 3",
            "interval trees with exact sizes, T_atomic and h under adversarial split policies",
        ),
        /// Unbalanced Tree Search trees as DFS stacks ([`super::uts`], [`super::dfs`]).
        Uts => Info::ships(
            "uts",
            "002 §4.1 (DFS stacks)",
            "Unbalanced Tree Search trees (shared/uts.md), every published sample node for node",
        ),
        /// Interval loops ([`super::loops`]).
        Loop => Info::ships("loop", "002 §4.2", "interval loop scheduling with per-iteration cost profiles"),
        /// Karp–Zhang random cost trees ([`super::costtree`]).
        Kz => Info::ships(
            "kz",
            "004 §4.1, §6 (Karp-Zhang)",
            "random cost trees for best-first branch-and-bound: costs increase along paths, a critical subtree",
        ),
        /// 0-1 knapsack by depth-first branch-and-bound ([`super::bnb::knapsack`]).
        Knapsack => Info::ships(
            "knapsack",
            "002 §5.2",
            "0-1 knapsack branch-and-bound on 002's strongly correlated instances (Dantzig bound)",
        ),
        /// The travelling salesman by depth-first branch-and-bound ([`super::bnb::tsp`]).
        Tsp => Info::ships("tsp", "003 §14.5, §14.11", "travelling salesman branch-and-bound on random points"),
        /// Optimal Golomb rulers by depth-first branch-and-bound ([`super::bnb::golomb`]).
        Golomb => Info::ships("golomb", "002 §5.1", "optimal Golomb rulers (known optima for 2..11 marks)"),
        /// 15-puzzle IDA* iterations ([`super::bnb::puzzle15`]).
        Puzzle15 => Info::ships(
            "puzzle15",
            "002 §5.3",
            "15-puzzle by IDA* (Manhattan distance): one iteration a run, every one but the last order-independent",
        ),
    }
}

/// A workload name that could not be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpecError {
    /// Not one of the workload forms.
    #[error("unknown workload `{0}`; valid forms:\n{FORMS}")]
    Unknown(String),
    /// Bad UTS arguments.
    #[error("bad UTS arguments `{args}`: {why}\nvalid flags: {UTS_FLAGS}")]
    Uts {
        /// The argument string given.
        args: String,
        /// What is wrong with it.
        why: UtsError,
    },
    /// Bad parameters of a `family:key=value,…` workload.
    #[error("bad workload `{spec}`: {why}\nvalid forms:\n{FORMS}")]
    Params {
        /// The workload string given.
        spec: String,
        /// What is wrong with it.
        why: ParamsError,
    },
    /// A workload family the papers define that does not ship yet.
    #[error("{0}; valid forms:\n{FORMS}")]
    Planned(crate::base::UnknownName),
    /// Unknown DFS split strategy.
    #[error("unknown split strategy `{0}`; valid: {STRATEGIES}")]
    Strategy(String),
}

/// What is wrong with the parameters of a `family:key=value,…` workload
/// (the `why` of [`SpecError::Params`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamsError {
    /// An item that is not `key=value`.
    #[error("`{0}` is not key=value")]
    NotKeyValue(String),
    /// A key the family does not take.
    #[error("unknown key `{key}` (keys: {keys})")]
    UnknownKey {
        /// The key given.
        key: String,
        /// The keys the family takes, comma-separated.
        keys: String,
    },
    /// A key given twice.
    #[error("key `{0}` given twice")]
    Repeated(String),
    /// A required key missing.
    #[error("missing `{0}=`")]
    Missing(&'static str),
    /// A value that is not a number.
    #[error("`{key}={value}` is not a valid number")]
    NotNumber {
        /// The key.
        key: &'static str,
        /// The value given.
        value: String,
    },
    /// A number outside its range (`min..=max`).
    #[error("need {min} <= {key} <= {max}, got {key}={value}")]
    OutOfRange {
        /// The key.
        key: &'static str,
        /// The least value.
        min: u64,
        /// The largest value.
        max: u64,
        /// The value given.
        value: u64,
    },
    /// A synthetic size and atomic size outside 1 <= atomic <= size <= [`MAX_SIZE`].
    #[error("need 1 <= atomic <= size <= {MAX_SIZE}, got size={size}, atomic={atomic}")]
    Sizes {
        /// The size given.
        size: u64,
        /// The atomic size given.
        atomic: u64,
    },
    /// An unknown synthetic split policy.
    #[error("unknown split policy `{0}`")]
    Policy(String),
    /// α not a decimal in [0.001, 0.999].
    #[error("alpha `{0}` must be a decimal in [0.001, 0.999]")]
    Alpha(String),
    /// A `fig3` PE count or spine that is not a number.
    #[error("fig3 {what} `{value}` is not a number")]
    Fig3Number {
        /// `PE count` or `spine`.
        what: &'static str,
        /// The value given.
        value: String,
    },
    /// A `fig3` PE count that is not a power of two ≥ 2.
    #[error("fig3 needs a power-of-two PE count >= 2, got {0}")]
    Fig3Pes(u32),
    /// A size too small for `fig3:pes:spine`.
    #[error("fig3:{pes}:{spine} needs size >= {}·({spine}+1)·atomic", .pes / 2)]
    Fig3Size {
        /// The PE count.
        pes: u32,
        /// The spine.
        spine: u32,
    },
    /// An unknown loop cost profile.
    #[error("unknown cost profile `{0}` (valid: {PROFILES}; const units in 1..=2^20)")]
    Profile(String),
    /// A 15-puzzle iteration the instance does not have.
    #[error(transparent)]
    Iteration(#[from] NoSuchIteration),
}

/// A parsed workload: everything needed to build its root subproblem.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Workload {
    /// Synthetic interval tree.
    Synthetic(SynthConfig),
    /// UTS tree, with its published sample when named.
    Uts {
        /// Tree parameters.
        params: UtsParams,
        /// The published sample this is, when named by `uts:NAME`.
        sample: Option<&'static Sample>,
    },
    /// Interval loop.
    Loop(LoopConfig),
    /// Karp–Zhang random cost tree.
    CostTree(CostTreeConfig),
    /// 0-1 knapsack branch-and-bound.
    Knapsack(KnapsackConfig),
    /// Travelling salesman branch-and-bound.
    Tsp(TspConfig),
    /// Golomb ruler branch-and-bound.
    Golomb(GolombConfig),
    /// An IDA* iteration of the 15-puzzle.
    Puzzle15(Puzzle15Config),
}

impl FromStr for Workload {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Workload, SpecError> {
        let (kind, body) = s.split_once(':').ok_or_else(|| SpecError::Unknown(s.into()))?;
        let family = WorkloadFamily::lookup(kind).map_err(|e| match e.planned {
            Some(_) => SpecError::Planned(e),
            None => SpecError::Unknown(s.into()),
        })?;
        let params = |why: ParamsError| SpecError::Params { spec: s.into(), why };
        match family {
            WorkloadFamily::Synthetic => parse_synthetic(body).map(Workload::Synthetic).map_err(params),
            WorkloadFamily::Loop => parse_loop(body).map(Workload::Loop).map_err(params),
            WorkloadFamily::Uts => parse_uts(body),
            WorkloadFamily::Kz => parse_kz(body).map(Workload::CostTree).map_err(params),
            WorkloadFamily::Knapsack => parse_knapsack(body).map(Workload::Knapsack).map_err(params),
            WorkloadFamily::Tsp => parse_tsp(body).map(Workload::Tsp).map_err(params),
            WorkloadFamily::Golomb => parse_golomb(body).map(Workload::Golomb).map_err(params),
            WorkloadFamily::Puzzle15 => parse_puzzle15(body).map(Workload::Puzzle15).map_err(params),
        }
    }
}

impl Workload {
    /// The workload's family.
    pub fn family(&self) -> WorkloadFamily {
        match self {
            Workload::Synthetic(_) => WorkloadFamily::Synthetic,
            Workload::Uts { .. } => WorkloadFamily::Uts,
            Workload::Loop(_) => WorkloadFamily::Loop,
            Workload::CostTree(_) => WorkloadFamily::Kz,
            Workload::Knapsack(_) => WorkloadFamily::Knapsack,
            Workload::Tsp(_) => WorkloadFamily::Tsp,
            Workload::Golomb(_) => WorkloadFamily::Golomb,
            Workload::Puzzle15(_) => WorkloadFamily::Puzzle15,
        }
    }

    /// The root subproblem (DFS-stack workloads split with `strategy`).
    pub fn root(&self, strategy: Strategy) -> Task {
        match self {
            Workload::Synthetic(c) => Task::Synthetic(c.root()),
            Workload::Uts { params, .. } => Task::Uts(uts::root(*params, strategy)),
            Workload::Loop(c) => Task::Loop(c.root()),
            Workload::CostTree(c) => Task::Cost(c.root()),
            Workload::Knapsack(c) => Task::Knapsack(c.root(strategy)),
            Workload::Tsp(c) => Task::Tsp(c.root(strategy)),
            Workload::Golomb(c) => Task::Golomb(c.root(strategy)),
            Workload::Puzzle15(c) => Task::Puzzle15(c.root(strategy)),
        }
    }

    /// True for branch-and-bound workloads that prune (S-12): a run
    /// examines a different set of nodes than the sequential reference.
    /// An IDA* iteration prunes only if it is the last: the others find no
    /// solution and are order-independent trees.
    pub fn prunes(&self) -> bool {
        match self {
            Workload::Knapsack(_) | Workload::Tsp(_) | Workload::Golomb(_) => true,
            Workload::Puzzle15(c) => c.last,
            _ => false,
        }
    }

    /// A pruning workload's cost `c` in the problem's own terms: the
    /// profit taken for knapsack (which minimises the profit left out), the
    /// length of a tour or ruler.
    pub fn natural(&self, c: u64) -> u64 {
        match self {
            Workload::Knapsack(k) => k.total_profit() - c,
            _ => c,
        }
    }

    /// Whether the problem's own objective is maximised (knapsack).
    pub fn maximises(&self) -> bool {
        matches!(self, Workload::Knapsack(_))
    }

    /// T_atomic and h, where the workload guarantees them.
    pub fn atomic_and_h(&self) -> Option<(u64, u64)> {
        match self {
            Workload::Synthetic(c) => Some((c.atomic, c.h())),
            Workload::Loop(c) => Some((c.t_atomic(), c.h())),
            _ => None,
        }
    }

    /// The optimum and critical subtree of a branch-and-bound workload (004 §6).
    pub fn critical(&self) -> Option<Critical> {
        match self {
            Workload::CostTree(c) => Some(c.critical()),
            _ => None,
        }
    }
}

impl fmt::Display for Workload {
    /// The canonical name, which parses back to the same workload.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Workload::Synthetic(c) => {
                write!(
                    f,
                    "synthetic:size={},atomic={},split={},seed={}",
                    c.size,
                    c.atomic,
                    policy_name(c.policy),
                    c.seed
                )
            }
            Workload::Uts { sample: Some(s), .. } => write!(f, "uts:{}", s.name),
            Workload::Uts { params, .. } => write!(f, "uts:args={params}"),
            Workload::Loop(c) => write!(f, "loop:n={},cost={},seed={}", c.n, profile_name(c.profile), c.seed),
            Workload::CostTree(c) => {
                write!(f, "kz:depth={},seed={}{}", c.depth, c.seed, if c.cut.is_some() { ",pruned=1" } else { "" })
            }
            Workload::Knapsack(c) => write!(f, "knapsack:items={},seed={}", c.items, c.seed),
            Workload::Tsp(c) => write!(f, "tsp:cities={},seed={}", c.cities, c.seed),
            Workload::Golomb(c) => write!(f, "golomb:marks={}", c.marks),
            Workload::Puzzle15(c) => write!(f, "puzzle15:moves={},seed={},iteration={}", c.moves, c.seed, c.iteration),
        }
    }
}

fn parse_uts(body: &str) -> Result<Workload, SpecError> {
    if let Some(args) = body.strip_prefix("args=") {
        return Ok(Workload::Uts { params: UtsParams::parse_args(args)?, sample: None });
    }
    let sample = samples::by_name(body).ok_or_else(|| SpecError::Unknown(format!("uts:{body}")))?;
    Ok(Workload::Uts { params: UtsParams::parse_args(sample.args)?, sample: Some(sample) })
}

/// Splits `k=v,k=v` into a map; rejects unknown and repeated keys.
fn key_values<'a>(body: &'a str, allowed: &[&str]) -> Result<BTreeMap<&'a str, &'a str>, ParamsError> {
    let mut map = BTreeMap::new();
    for item in body.split(',').filter(|i| !i.is_empty()) {
        let (k, v) = item.split_once('=').ok_or_else(|| ParamsError::NotKeyValue(item.into()))?;
        if !allowed.contains(&k) {
            return Err(ParamsError::UnknownKey { key: k.into(), keys: allowed.join(", ") });
        }
        if map.insert(k, v).is_some() {
            return Err(ParamsError::Repeated(k.into()));
        }
    }
    Ok(map)
}

fn get<T: FromStr>(map: &BTreeMap<&str, &str>, key: &'static str, default: Option<T>) -> Result<T, ParamsError> {
    match (map.get(key), default) {
        (Some(v), _) => v.parse().map_err(|_| ParamsError::NotNumber { key, value: v.to_string() }),
        (None, Some(d)) => Ok(d),
        (None, None) => Err(ParamsError::Missing(key)),
    }
}

fn parse_synthetic(body: &str) -> Result<SynthConfig, ParamsError> {
    let map = key_values(body, &["size", "atomic", "split", "seed"])?;
    let size: u64 = get(&map, "size", None)?;
    let atomic: u64 = get(&map, "atomic", Some(1))?;
    if size == 0 || atomic == 0 || atomic > size || size > MAX_SIZE {
        return Err(ParamsError::Sizes { size, atomic });
    }
    let policy = parse_policy(map.get("split").copied().unwrap_or("balanced"), size, atomic)?;
    Ok(SynthConfig { size, atomic, policy, seed: get(&map, "seed", Some(0))? })
}

fn parse_policy(s: &str, size: u64, atomic: u64) -> Result<Policy, ParamsError> {
    let unknown = || ParamsError::Policy(s.into());
    Ok(match s.split(':').collect::<Vec<_>>().as_slice() {
        ["uniform"] => Policy::Uniform,
        ["peel"] => Policy::Peel,
        ["balanced"] => Policy::Balanced,
        ["alpha", a] => parse_alpha(a)?,
        ["fig3", rest @ ..] if rest.len() <= 2 => parse_fig3(rest, size, atomic)?,
        _ => return Err(unknown()),
    })
}

/// α as an exact decimal fraction in [0.001, 0.999].
fn parse_alpha(a: &str) -> Result<Policy, ParamsError> {
    let bad = || ParamsError::Alpha(a.into());
    let digits = a.strip_prefix("0.").filter(|d| (1..=9).contains(&d.len())).ok_or_else(bad)?;
    let num: u64 = digits.parse().map_err(|_| bad())?;
    let den = 10u64.pow(digits.len() as u32);
    if num * 1000 < den || num * 1000 > 999 * den {
        return Err(bad());
    }
    Ok(Policy::Alpha { num, den })
}

fn parse_fig3(rest: &[&str], size: u64, atomic: u64) -> Result<Policy, ParamsError> {
    let number = |what, v: &str| v.parse().map_err(|_| ParamsError::Fig3Number { what, value: v.into() });
    let n: u32 = rest.first().map_or(Ok(16), |v| number("PE count", v))?;
    if n < 2 || !n.is_power_of_two() {
        return Err(ParamsError::Fig3Pes(n));
    }
    let default_spine = (size / atomic).max(2).next_power_of_two().trailing_zeros();
    let spine: u32 = rest.get(1).map_or(Ok(default_spine), |v| number("spine", v))?;
    let branches = n / 2;
    if (size as u128) < branches as u128 * (spine as u128 + 1) * atomic as u128 {
        return Err(ParamsError::Fig3Size { pes: n, spine });
    }
    Ok(Policy::Fig3 { branches, spine })
}

/// The one size key of a `KEY=N[,seed=S]` workload, in `range`, and its
/// seed (default 0; `seeded` false: the form takes no seed).
fn size_and_seed(
    body: &str,
    key: &'static str,
    range: RangeInclusive<u32>,
    seeded: bool,
) -> Result<(u32, u64), ParamsError> {
    let keys = [key, "seed"];
    let map = key_values(body, &keys[..1 + seeded as usize])?;
    let n: u32 = get(&map, key, None)?;
    if !range.contains(&n) {
        return Err(out_of_range(key, (*range.start()).into()..=(*range.end()).into(), n.into()));
    }
    Ok((n, get(&map, "seed", Some(0))?))
}

/// `key = value` is outside `range`.
fn out_of_range(key: &'static str, range: RangeInclusive<u64>, value: u64) -> ParamsError {
    ParamsError::OutOfRange { key, min: *range.start(), max: *range.end(), value }
}

fn parse_kz(body: &str) -> Result<CostTreeConfig, ParamsError> {
    let map = key_values(body, &["depth", "seed", "pruned"])?;
    let depth: u32 = get(&map, "depth", None)?;
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(out_of_range("depth", 1..=u64::from(MAX_DEPTH), depth.into()));
    }
    let seed = get(&map, "seed", Some(0))?;
    match get(&map, "pruned", Some(0u64))? {
        0 => Ok(CostTreeConfig::new(depth, seed)),
        1 => Ok(CostTreeConfig::pruned(depth, seed)),
        other => Err(out_of_range("pruned", 0..=1, other)),
    }
}

fn parse_knapsack(body: &str) -> Result<KnapsackConfig, ParamsError> {
    let (items, seed) = size_and_seed(body, "items", 1..=knapsack::MAX_ITEMS, true)?;
    Ok(KnapsackConfig { items, seed })
}

fn parse_tsp(body: &str) -> Result<TspConfig, ParamsError> {
    let (cities, seed) = size_and_seed(body, "cities", 2..=tsp::MAX_CITIES, true)?;
    Ok(TspConfig { cities, seed })
}

fn parse_golomb(body: &str) -> Result<GolombConfig, ParamsError> {
    let (marks, _) = size_and_seed(body, "marks", 2..=golomb::MAX_MARKS, false)?;
    Ok(GolombConfig { marks })
}

fn parse_puzzle15(body: &str) -> Result<Puzzle15Config, ParamsError> {
    let map = key_values(body, &["moves", "seed", "iteration"])?;
    let moves: u32 = get(&map, "moves", None)?;
    if !(1..=puzzle15::MAX_MOVES).contains(&moves) {
        return Err(out_of_range("moves", 1..=puzzle15::MAX_MOVES.into(), moves.into()));
    }
    let iteration = map.contains_key("iteration").then(|| get(&map, "iteration", None)).transpose()?;
    Ok(Puzzle15Config::new(moves, get(&map, "seed", Some(0))?, iteration)?)
}

fn parse_loop(body: &str) -> Result<LoopConfig, ParamsError> {
    let map = key_values(body, &["n", "cost", "seed"])?;
    let n: u64 = get(&map, "n", None)?;
    if n == 0 || n > MAX_SIZE {
        return Err(out_of_range("n", 1..=MAX_SIZE, n));
    }
    let profile = match map.get("cost").copied().unwrap_or("const") {
        "const" => CostProfile::Constant(1),
        "heavy" => CostProfile::Heavy,
        "triangle" => CostProfile::Triangle,
        c => match c.strip_prefix("const:").and_then(|u| u.parse().ok()) {
            Some(u) if (1..=1 << 20).contains(&u) => CostProfile::Constant(u),
            _ => return Err(ParamsError::Profile(c.into())),
        },
    };
    Ok(LoopConfig { n, profile, seed: get(&map, "seed", Some(0))? })
}

fn policy_name(p: Policy) -> String {
    match p {
        Policy::Uniform => "uniform".into(),
        Policy::Alpha { num, den } => {
            let width = den.trailing_zeros() as usize; // den = 10^width
            format!("alpha:0.{num:0width$}")
        }
        Policy::Peel => "peel".into(),
        Policy::Balanced => "balanced".into(),
        Policy::Fig3 { branches, spine } => format!("fig3:{}:{spine}", branches * 2),
    }
}

fn profile_name(p: CostProfile) -> String {
    match p {
        CostProfile::Constant(c) => format!("const:{c}"),
        CostProfile::Heavy => "heavy".into(),
        CostProfile::Triangle => "triangle".into(),
    }
}

/// Names of every UTS sample, for `--help`.
pub fn sample_names() -> Vec<&'static str> {
    SAMPLES.iter().map(|s| s.name).collect()
}

crate::serde_as_text!(Workload);
#[cfg(test)]
mod tests {
    use super::*;

    /// The `why` of a bad `family:key=value` workload.
    fn why(spec: &str) -> ParamsError {
        match spec.parse::<Workload>() {
            Err(SpecError::Params { spec: s, why }) if s == spec => why,
            other => panic!("{spec}: {other:?}"),
        }
    }

    #[test]
    fn bad_parameters_name_what_is_wrong() {
        assert_eq!(why("synthetic:size10"), ParamsError::NotKeyValue("size10".into()));
        let keys = "size, atomic, split, seed".to_string();
        assert_eq!(why("synthetic:size=10,foo=1"), ParamsError::UnknownKey { key: "foo".into(), keys });
        assert_eq!(why("synthetic:size=10,size=2"), ParamsError::Repeated("size".into()));
        assert_eq!(why("synthetic:atomic=3"), ParamsError::Missing("size"));
        assert_eq!(why("synthetic:size=x"), ParamsError::NotNumber { key: "size", value: "x".into() });
        assert_eq!(why("synthetic:size=10,atomic=20"), ParamsError::Sizes { size: 10, atomic: 20 });
        assert_eq!(why("synthetic:size=10,split=zigzag"), ParamsError::Policy("zigzag".into()));
        assert_eq!(why("synthetic:size=10,split=alpha:1.5"), ParamsError::Alpha("1.5".into()));
        assert_eq!(why("synthetic:size=10,split=fig3:3"), ParamsError::Fig3Pes(3));
        let spine = ParamsError::Fig3Number { what: "spine", value: "y".into() };
        assert_eq!(why("synthetic:size=10,split=fig3:4:y"), spine);
        assert_eq!(why("synthetic:size=10,split=fig3:16:9"), ParamsError::Fig3Size { pes: 16, spine: 9 });
        let depth = ParamsError::OutOfRange { key: "depth", min: 1, max: MAX_DEPTH.into(), value: 99 };
        assert_eq!(why("kz:depth=99"), depth);
        assert_eq!(why("kz:depth=9,pruned=2"), ParamsError::OutOfRange { key: "pruned", min: 0, max: 1, value: 2 });
        assert_eq!("kz:depth=9,pruned=1".parse::<Workload>().unwrap().to_string(), "kz:depth=9,seed=0,pruned=1");
        assert_eq!(why("loop:n=0"), ParamsError::OutOfRange { key: "n", min: 1, max: MAX_SIZE, value: 0 });
        assert_eq!(why("loop:n=10,cost=zig"), ParamsError::Profile("zig".into()));
        let iteration = NoSuchIteration { moves: 5, seed: 0, last: 0, iteration: 99 };
        assert_eq!(why("puzzle15:moves=5,iteration=99"), ParamsError::Iteration(iteration));
    }

    /// The messages are the ones users' scripts match.
    #[test]
    fn messages_are_unchanged() {
        let msg = |spec: &str| spec.parse::<Workload>().unwrap_err().to_string();
        assert!(msg("synthetic:size=10,split=fig3:16:9")
            .starts_with("bad workload `synthetic:size=10,split=fig3:16:9`: fig3:16:9 needs size >= 8·(9+1)·atomic\n"));
        assert!(msg("tsp:cities=1").starts_with("bad workload `tsp:cities=1`: need 2 <= cities <= 24, got cities=1\n"));
        assert!(msg("puzzle15:moves=5,iteration=99").starts_with(
            "bad workload `puzzle15:moves=5,iteration=99`: puzzle15:moves=5,seed=0 has iterations 0..=0, got iteration=99\n"
        ));
        assert!(msg("nope:1").starts_with("unknown workload `nope:1`; valid forms:\n"));
    }
}
