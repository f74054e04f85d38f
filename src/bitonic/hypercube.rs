//! Bitonic sort on a hypercube of p = 2^d ranks by merge-split (003 §14.4;
//! S-25), simulated in one process: every exchange is recorded so that
//! [`super::check`] can see who talked to whom. (003's text says "processes
//! 0 and 3 will also get the same keys" where it means 1 and 3.)

use super::{Dir, Rules};

/// A padding key, larger than every real key (keys are below 2^63): when
/// p does not divide n, the keys are padded to a multiple of p (003
/// §14.4's exercise 3) and the padding, which sorts to the top, is dropped.
pub const PAD: u64 = u64::MAX;

/// A parallel run: each rank's keys after the sort (padding included), and
/// every merge-split (stage, rank, partner).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// p.
    pub pes: u32,
    /// The input keys.
    pub input: Vec<u64>,
    /// Each rank's keys at the end.
    pub ranks: Vec<Vec<u64>>,
    /// (stage, rank, partner) of every merge-split, both sides.
    pub exchanges: Vec<(u32, u32, u32)>,
    /// Merge-split stages done.
    pub stages: u32,
}

impl Run {
    /// The sorted keys, padding dropped.
    pub fn output(&self) -> Vec<u64> {
        self.ranks.iter().flatten().copied().filter(|&k| k != PAD).collect()
    }
}

/// Sorts `keys` on `pes` ranks (a power of two) following `rules`.
pub fn sort(keys: &[u64], pes: u32, rules: Rules) -> Run {
    assert!(pes.is_power_of_two(), "p = 2^d ranks");
    let p = pes as usize;
    let mut padded = keys.to_vec();
    padded.resize(keys.len().div_ceil(p) * p, PAD);
    let per = padded.len() / p;
    let mut ranks: Vec<Vec<u64>> = padded.chunks(per.max(1)).map(<[u64]>::to_vec).collect();
    ranks.resize(p, Vec::new());
    ranks.iter_mut().for_each(|r| r.sort_unstable());
    let (mut exchanges, mut stages) = (Vec::new(), 0);
    let mut set = 2;
    while set <= p {
        let and_bit = if rules.and_bit_half { set / 2 } else { set };
        let mut eor = set / 2;
        while eor >= 1 {
            for rank in (0..p).filter(|&r| r < r ^ eor) {
                let dir = if rank & and_bit == 0 { Dir::Incr } else { Dir::Decr };
                merge_split(&mut ranks, rank, rank ^ eor, dir, rules);
                exchanges
                    .extend([(stages, rank as u32, (rank ^ eor) as u32), (stages, (rank ^ eor) as u32, rank as u32)]);
            }
            stages += 1;
            eor /= 2;
        }
        set *= 2;
    }
    Run { pes, input: keys.to_vec(), ranks, exchanges, stages }
}

/// One exchange: both ranks merge their sorted lists; `low` (the smaller
/// rank) keeps the low half if the direction is INCR, the high half if
/// DECR, and `high` the other (003 §14.4's Merge_split).
fn merge_split(ranks: &mut [Vec<u64>], low: usize, high: usize, dir: Dir, rules: Rules) {
    let n = ranks[low].len();
    let mut merged = merge(&ranks[low], &ranks[high], rules.drops_duplicates);
    let keeps_low = match dir {
        Dir::Incr => true,
        Dir::Decr => rules.swapped_decr,
    };
    let upper = merged.split_off(n.min(merged.len()));
    (ranks[low], ranks[high]) = if keeps_low { (merged, upper) } else { (upper, merged) };
}

/// The merge of two sorted lists (with `dedup`, one of each run of equal keys).
fn merge(a: &[u64], b: &[u64], dedup: bool) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let take_a = j == b.len() || (i < a.len() && a[i] <= b[j]);
        let k = if take_a { a[i] } else { b[j] };
        if take_a {
            i += 1
        } else {
            j += 1
        }
        if !(dedup && out.last() == Some(&k)) {
            out.push(k);
        }
    }
    out
}
