//! The initial broadcast of 002 §3: every PE receives the root and splits it
//! locally into (up to) P parts, keeping its own. Splitting is breadth-first
//! and deterministic, so every PE computes the same partition; each part's
//! energy (003 §14.7.4 rule 3) is halved along its splits, which keeps it
//! dyadic and exact for any P. A root that cannot be split into P parts (a
//! UTS root is one node) leaves the remaining PEs without work.
//!
//! 000 §1.2's randomised initialisation (\[30\]; COVERAGE S-24, 000-10;
//! `--initial-split random:K`): every PE splits the root locally into (up
//! to) K·P pieces by a random split sequence drawn from one stream of the
//! run's seed alone ([`Purpose::InitialSplit`], the same on every PE), and
//! keeps the pieces whose index is ≡ its rank (mod P): at each step a
//! uniformly random piece not yet found atomic is split; the part split off
//! takes the next index. Energy is halved along the splits as above, so the
//! shares of all pieces sum to 1. A PE works its pieces one after the
//! other ([`crate::protocol::Pe::resume`]); the local splits cost it
//! T_split each for every split on the paths from the root to its pieces.

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

use rand::Rng;

use crate::base::rng::{stream, Purpose};
use crate::base::Fraction;
use crate::problem::Subproblem;

/// The largest K of `--initial-split random:K`.
pub const MAX_RANDOM_K: u32 = 64;

/// What `--initial-split` takes, for error messages.
fn expected() -> String {
    format!(
        "expected `bfs` (002 §3's breadth-first split, what a bare --initial-split means) or `random:K` with K in 1..={MAX_RANDOM_K} (000 §1.2's randomised initialisation)"
    )
}

/// An initial split a run cannot take ([`InitialSplit::validate`],
/// [`InitialSplit::of_header`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InitialSplitError {
    /// `random:K` with K outside 1..=[`MAX_RANDOM_K`].
    #[error("--initial-split random:{0} is out of range: valid K in 1..={MAX_RANDOM_K}")]
    K(u32),
    /// K·P pieces above 2^24.
    #[error("--initial-split random:{k} on {pes} PEs: K·P must be at most 2^24 pieces")]
    TooManyPieces {
        /// K.
        k: u32,
        /// P.
        pes: u32,
    },
    /// A trace header's `run.initial_random` outside 1..=[`MAX_RANDOM_K`].
    #[error("header `run.initial_random`: {0} is out of range 1..={MAX_RANDOM_K}")]
    HeaderK(u32),
    /// A trace header's `run.initial_random` without `run.initial_split`.
    #[error("header `run.initial_random` without `run.initial_split`")]
    HeaderRandomWithoutSplit,
}

/// An `--initial-split` value that does not parse ([`InitialSplit`]'s `FromStr`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseInitialSplitError {
    /// `random:K` with K outside 1..=[`MAX_RANDOM_K`].
    #[error("`{given}`: K = {k} is out of range; {expected}", expected = expected())]
    K {
        /// The value given.
        given: String,
        /// K.
        k: u32,
    },
    /// `random:K` with K not a number.
    #[error("`{0}`: K is not a number; {expected}", expected = expected())]
    KNotNumber(String),
    /// Neither `bfs` nor `random:K`.
    #[error("`{0}`: {expected}", expected = expected())]
    Unknown(String),
}

/// How a run starts (`--initial-split [bfs|random:K]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum InitialSplit {
    /// PE 0 holds the root, the others nothing (no flag).
    #[default]
    Root,
    /// 002 §3's breadth-first split into P parts (a bare `--initial-split`).
    Bfs,
    /// 000 §1.2's randomised initialisation into K·P pieces, K per PE.
    Random(u32),
    /// The `initial-split-linear` mutant's split, never a run's declared
    /// mode (no flag parses to it; it shows as `bfs`): each step splits the
    /// part split off last (a stack where 002 §3's breadth-first queue
    /// is), so the deepest PE makes up to P − 1 local splits instead of
    /// ⌈log P⌉.
    Linear,
}

impl InitialSplit {
    /// True for either local split of the root (every PE starts with its part).
    pub fn is_split(self) -> bool {
        self != InitialSplit::Root
    }

    /// K of the randomised initialisation.
    pub fn random(self) -> Option<u32> {
        match self {
            InitialSplit::Random(k) => Some(k),
            _ => None,
        }
    }

    /// The mode a trace header's `initial_split` and `initial_random` name.
    pub fn of_header(split: bool, random: Option<u32>) -> Result<InitialSplit, InitialSplitError> {
        match (split, random) {
            (false, None) => Ok(InitialSplit::Root),
            (true, None) => Ok(InitialSplit::Bfs),
            (true, Some(k)) if (1..=MAX_RANDOM_K).contains(&k) => Ok(InitialSplit::Random(k)),
            (true, Some(k)) => Err(InitialSplitError::HeaderK(k)),
            (false, Some(_)) => Err(InitialSplitError::HeaderRandomWithoutSplit),
        }
    }

    /// Checks K (1..=64) and that K·P pieces stay within 2^24 on `pes` PEs.
    pub fn validate(self, pes: u32) -> Result<(), InitialSplitError> {
        let Some(k) = self.random() else { return Ok(()) };
        if !(1..=MAX_RANDOM_K).contains(&k) {
            return Err(InitialSplitError::K(k));
        }
        if u64::from(k) * u64::from(pes) > 1 << 24 {
            return Err(InitialSplitError::TooManyPieces { k, pes });
        }
        Ok(())
    }
}

impl From<bool> for InitialSplit {
    /// `true`: 002 §3's breadth-first split; `false`: PE 0 holds the root.
    fn from(split: bool) -> InitialSplit {
        if split {
            InitialSplit::Bfs
        } else {
            InitialSplit::Root
        }
    }
}

impl fmt::Display for InitialSplit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InitialSplit::Root => f.write_str("root"),
            InitialSplit::Bfs | InitialSplit::Linear => f.write_str("bfs"),
            InitialSplit::Random(k) => write!(f, "random:{k}"),
        }
    }
}

impl FromStr for InitialSplit {
    type Err = ParseInitialSplitError;
    /// `bfs` or `random:K` (1 ≤ K ≤ 64); the bare flag means `bfs`.
    fn from_str(s: &str) -> Result<InitialSplit, ParseInitialSplitError> {
        match s.split_once(':') {
            None if s == "bfs" => Ok(InitialSplit::Bfs),
            Some(("random", k)) => match k.parse::<u32>() {
                Ok(k) if (1..=MAX_RANDOM_K).contains(&k) => Ok(InitialSplit::Random(k)),
                Ok(k) => Err(ParseInitialSplitError::K { given: s.into(), k }),
                Err(_) => Err(ParseInitialSplitError::KNotNumber(s.into())),
            },
            _ => Err(ParseInitialSplitError::Unknown(s.into())),
        }
    }
}

/// One PE's start: its first part, the further pieces it works after it
/// (randomised initialisation), its energy share, and the local splits it
/// made (each costs it T_split before it starts).
#[derive(Clone, Debug)]
pub struct Start<T> {
    /// The part it works first (`None`: it starts idle).
    pub part: Option<T>,
    /// Further pieces, worked in this order once `part` runs out.
    pub more: Vec<T>,
    /// Its energy share (`None` without an initial split: energy starts at PE 0).
    pub share: Option<Fraction>,
    /// Splits on the paths from the root to its pieces.
    pub splits: u64,
}

/// The parts of `root` for PEs `0..`, with their energy shares (at most `pes`).
pub fn local_parts<T: Subproblem>(root: T, pes: u32) -> Vec<(T, Fraction)> {
    split_into(root, pes, VecDeque::pop_front)
}

/// [`local_parts`] with the part to split next taken by `next`: the
/// oldest (breadth-first, 002 §3), or the newest ([`InitialSplit::Linear`]).
fn split_into<T: Subproblem>(root: T, pes: u32, next: Next<T>) -> Vec<(T, Fraction)> {
    let mut open = VecDeque::from([(root, Fraction::one())]);
    let mut atomic = Vec::new();
    while open.len() + atomic.len() < pes as usize {
        let Some((mut t, e)) = next(&mut open) else { break };
        match t.split() {
            Some(other) => {
                let half = e.half();
                open.push_back((t, half.clone()));
                open.push_back((other, half));
            }
            None => atomic.push((t, e)),
        }
    }
    atomic.extend(open);
    atomic
}

/// Which open part [`split_into`] splits next.
type Next<T> = fn(&mut VecDeque<(T, Fraction)>) -> Option<(T, Fraction)>;

/// `root` split breadth-first into at most `pes` parts (003 §14.7's
/// Generate, energy aside).
pub fn parts<T: Subproblem>(root: T, pes: u32) -> Vec<T> {
    local_parts(root, pes).into_iter().map(|(t, _)| t).collect()
}

/// Every PE's start under `mode` (`seed`: the run's, for the randomised
/// initialisation). Without a split PE 0 gets the root and no PE a share
/// (energy starts at PE 0); with one, a PE left without a part has share 0.
pub fn assign<T: Subproblem>(root: T, pes: u32, mode: InitialSplit, seed: u64) -> Vec<Start<T>> {
    let n = pes as usize;
    let none = |share| Start { part: None, more: Vec::new(), share, splits: 0 };
    let mut out: Vec<Start<T>> = Vec::with_capacity(n);
    match mode {
        InitialSplit::Root => {
            out.push(Start { part: Some(root), ..none(None) });
            out.resize_with(n, || none(None));
        }
        InitialSplit::Bfs | InitialSplit::Linear => {
            let next: Next<T> = if mode == InitialSplit::Bfs { VecDeque::pop_front } else { VecDeque::pop_back };
            out.extend(split_into(root, pes, next).into_iter().map(|(t, e)| {
                let splits = u64::from(t.generation());
                Start { part: Some(t), more: Vec::new(), share: Some(e), splits }
            }));
            out.resize_with(n, || none(Some(Fraction::zero())));
        }
        InitialSplit::Random(k) => {
            let pieces = random_pieces(root, pes, k, seed);
            out.resize_with(n, || none(Some(Fraction::zero())));
            for (i, piece) in pieces.pieces.into_iter().enumerate() {
                let start = &mut out[i % n];
                let share = start.share.take().unwrap_or_else(Fraction::zero);
                start.share = Some(&share + &piece.energy);
                match start.part {
                    None => start.part = Some(piece.task),
                    Some(_) => start.more.push(piece.task),
                }
            }
            for (rank, start) in out.iter_mut().enumerate() {
                start.splits = pieces.splits[rank];
            }
        }
    }
    out
}

/// One piece of the randomised initialisation.
#[derive(Clone, Debug)]
pub struct Piece<T> {
    /// The subproblem.
    pub task: T,
    /// Its energy: 2^−(splits on its path), exactly.
    pub energy: Fraction,
    /// Its node in the split tree (the root is node 0).
    node: usize,
}

/// The randomised initialisation's partition of the root.
#[derive(Clone, Debug)]
pub struct Pieces<T> {
    /// The pieces in index order: PE r keeps those with index ≡ r (mod P).
    pub pieces: Vec<Piece<T>>,
    /// Per PE: the splits on the paths from the root to its pieces.
    pub splits: Vec<u64>,
}

/// 000 §1.2's randomised initialisation: `root` split into (up to) `k`·`pes`
/// pieces by the random split sequence of `seed` (see the module). Every PE
/// computes exactly this (the stream does not depend on the PE).
pub fn random_pieces<T: Subproblem>(root: T, pes: u32, k: u32, seed: u64) -> Pieces<T> {
    let target = (k as usize).saturating_mul(pes as usize);
    let mut rng = stream(seed, 0, Purpose::InitialSplit);
    let mut parent: Vec<usize> = vec![usize::MAX];
    let mut pieces = vec![Piece { task: root, energy: Fraction::one(), node: 0 }];
    let mut open: Vec<usize> = vec![0];
    while pieces.len() < target && !open.is_empty() {
        let o = rng.random_range(0..open.len());
        let i = open[o];
        match pieces[i].task.split() {
            Some(other) => {
                let (up, half) = (pieces[i].node, pieces[i].energy.half());
                parent.extend([up, up]);
                pieces[i].node = parent.len() - 2;
                pieces[i].energy = half.clone();
                pieces.push(Piece { task: other, energy: half, node: parent.len() - 1 });
                open.push(pieces.len() - 1);
            }
            None => {
                open.swap_remove(o);
            }
        }
    }
    // Per PE, the split-tree nodes above its pieces (each one split).
    let mut seen = vec![u32::MAX; parent.len()];
    let mut splits = vec![0u64; pes as usize];
    for (rank, count) in splits.iter_mut().enumerate() {
        for piece in pieces.iter().skip(rank).step_by(pes as usize) {
            let mut v = parent[piece.node];
            while v != usize::MAX && seen[v] != rank as u32 {
                seen[v] = rank as u32;
                *count += 1;
                v = parent[v];
            }
        }
    }
    Pieces { pieces, splits }
}

/// What PE `rank` keeps of the randomised initialisation: its pieces, in
/// index order, computed as the PE computes them (the whole sequence).
pub fn local_random<T: Subproblem>(root: T, pes: u32, k: u32, seed: u64, rank: u32) -> Vec<(T, Fraction)> {
    let all = random_pieces(root, pes, k, seed).pieces;
    all.into_iter().skip(rank as usize).step_by(pes as usize).map(|p| (p.task, p.energy)).collect()
}

crate::serde_as_text!(InitialSplit);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{dfs::Strategy, Workload};

    #[test]
    fn parts_cover_the_root_and_energy_sums_to_one() {
        let w: Workload = "synthetic:size=1000,atomic=1,split=uniform,seed=1".parse().unwrap();
        let parts = local_parts(w.root(Strategy::default()), 7);
        assert_eq!(parts.len(), 7);
        let energy = parts.iter().fold(Fraction::zero(), |a, (_, e)| &a + e);
        assert!(energy.is_one());
        let total: u64 = parts.into_iter().map(|(t, _)| crate::problem::sequential::run(t).work).sum();
        assert_eq!(total, 1000);
    }

    #[test]
    fn assign_gives_every_pe_a_start() {
        let w: Workload = "synthetic:size=3,atomic=1".parse().unwrap();
        for pes in [1, 2, 5] {
            let split = assign(w.root(Strategy::default()), pes, InitialSplit::Bfs, 0);
            assert_eq!(split.len(), pes as usize);
            let energy = split.iter().fold(Fraction::zero(), |a, s| &a + s.share.as_ref().expect("a share"));
            assert!(energy.is_one(), "P={pes}");
            let holders = split.iter().filter(|s| s.part.is_some()).count();
            assert_eq!(holders, pes.min(3) as usize, "size 3 splits into at most 3 parts");
            let root_only = assign(w.root(Strategy::default()), pes, InitialSplit::Root, 0);
            assert!(root_only[0].part.is_some() && root_only.iter().all(|s| s.share.is_none()));
            assert!(root_only[1..].iter().all(|s| s.part.is_none()));
        }
    }

    /// 000 §1.2's randomised initialisation: the pieces partition the root
    /// (their sequential runs add up to the root's work and fingerprint),
    /// their energies sum to exactly 1, each PE keeps at most K, every PE
    /// computes the same partition from the seed alone, and another seed
    /// gives another partition.
    #[test]
    fn random_pieces_partition_the_root() {
        use crate::problem::sequential;
        let w: Workload = "synthetic:size=5000,atomic=1,split=uniform,seed=3".parse().unwrap();
        let root = || w.root(Strategy::default());
        let whole = sequential::run(root());
        for (pes, k) in [(3, 1), (5, 4), (7, 16), (1, 3)] {
            let starts = assign(root(), pes, InitialSplit::Random(k), 42);
            let energy = starts.iter().fold(Fraction::zero(), |a, s| &a + s.share.as_ref().unwrap());
            assert!(energy.is_one(), "P={pes} K={k}");
            let (mut work, mut fp) = (0, crate::problem::Fingerprint::EMPTY);
            for (rank, s) in starts.into_iter().enumerate() {
                let mine: Vec<_> = s.part.into_iter().chain(s.more).collect();
                assert!(mine.len() <= k as usize);
                let local = local_random(root(), pes, k, 42, rank as u32);
                assert_eq!(local.len(), mine.len(), "PE {rank} computes its own pieces");
                for (a, (b, _)) in mine.into_iter().zip(local) {
                    let (ra, rb) = (sequential::run(a), sequential::run(b));
                    assert_eq!((ra.work, ra.log.fp), (rb.work, rb.log.fp), "PE {rank}");
                    work += ra.work;
                    fp += ra.log.fp;
                }
            }
            assert_eq!((work, fp), (whole.work, whole.log.fp), "P={pes} K={k}");
        }
        let sizes =
            |seed| random_pieces(root(), 4, 4, seed).pieces.iter().map(|p| p.energy.clone()).collect::<Vec<_>>();
        assert_eq!(sizes(1), sizes(1));
        assert_ne!(sizes(1), sizes(2), "the split sequence depends on the seed");
        assert_eq!(random_pieces(root(), 4, 4, 1).pieces.len(), 16);
    }

    #[test]
    fn modes_parse_and_refuse_bad_values() {
        assert_eq!("bfs".parse(), Ok(InitialSplit::Bfs));
        assert_eq!("random:8".parse(), Ok(InitialSplit::Random(8)));
        for bad in ["random:0", "random:x", "random:65", "foo", "random", ""] {
            let e = bad.parse::<InitialSplit>().unwrap_err();
            assert!(e.to_string().contains("random:K"), "{bad}: {e}");
        }
        assert_eq!(
            "random:65".parse::<InitialSplit>(),
            Err(ParseInitialSplitError::K { given: "random:65".into(), k: 65 })
        );
        assert_eq!("random:x".parse::<InitialSplit>(), Err(ParseInitialSplitError::KNotNumber("random:x".into())));
        assert_eq!("foo".parse::<InitialSplit>(), Err(ParseInitialSplitError::Unknown("foo".into())));
        assert_eq!(InitialSplit::of_header(true, Some(3)), Ok(InitialSplit::Random(3)));
        assert_eq!(InitialSplit::of_header(false, Some(3)), Err(InitialSplitError::HeaderRandomWithoutSplit));
        assert_eq!(InitialSplit::of_header(true, Some(65)), Err(InitialSplitError::HeaderK(65)));
        assert!(InitialSplit::Random(64).validate(1 << 18).is_ok());
        assert_eq!(
            InitialSplit::Random(64).validate(1 << 19),
            Err(InitialSplitError::TooManyPieces { k: 64, pes: 1 << 19 })
        );
        assert_eq!(InitialSplit::Random(65).validate(1), Err(InitialSplitError::K(65)));
        assert_eq!(
            InitialSplit::Random(65).validate(1).unwrap_err().to_string(),
            "--initial-split random:65 is out of range: valid K in 1..=64"
        );
    }
}
