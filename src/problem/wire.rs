//! A subproblem on the wire: the small hand encoding that carries a
//! [`Task`] between processes (the MPI driver, [`crate::runtime::mpi`]).
//!
//! Only what changes travels. Every process builds the same root of the
//! same workload from the run's spec, so the receiver decodes a part
//! against that **template**: the rule and its tables (UTS parameters,
//! knapsack items, TSP distances), the configuration and the split
//! strategy come from the template; the untried nodes (a DFS stack's SHA-1
//! states and heights, an interval's bounds), the generation and the
//! branch-and-bound incumbent come from the bytes. `decode(template,
//! encode(t))` is `t` exactly (its `Debug` form, every field, is equal;
//! `tests` below check every workload family, parts split off after work).
//!
//! The encoding: little-endian fixed-width integers, a `u32` count before
//! each sequence, `Option`s as a 0/1 byte and the value. A malformed or
//! truncated message is a [`WireError`], never a panic.

use std::fmt;

use super::Task;

/// A malformed message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed message: {0}")]
pub struct WireError(pub String);

/// Reads the fields of a message in order.
pub struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes }
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        if self.bytes.len() < n {
            return Err(WireError(format!("{} bytes left, {n} needed", self.bytes.len())));
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Ok(head)
    }

    /// The next `N` bytes as an array.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], WireError> {
        Ok(self.take(N)?.try_into().expect("N bytes"))
    }

    /// A byte.
    pub fn u8(&mut self) -> Result<u8, WireError> {
        Ok(self.array::<1>()?[0])
    }

    /// A `u16`.
    pub fn u16(&mut self) -> Result<u16, WireError> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    /// A `u32`.
    pub fn u32(&mut self) -> Result<u32, WireError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// A `u64`.
    pub fn u64(&mut self) -> Result<u64, WireError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A 0/1 byte.
    pub fn bool(&mut self) -> Result<bool, WireError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(WireError(format!("{b} is not a boolean"))),
        }
    }

    /// An optional `u64`.
    pub fn opt_u64(&mut self) -> Result<Option<u64>, WireError> {
        Ok(if self.bool()? { Some(self.u64()?) } else { None })
    }

    /// A sequence count, at most what the remaining bytes can hold at
    /// `min_size` bytes an element (so a corrupt count cannot allocate).
    pub fn count(&mut self, min_size: usize) -> Result<usize, WireError> {
        let n = self.u32()? as usize;
        if n.saturating_mul(min_size.max(1)) > self.bytes.len() {
            return Err(WireError(format!("{n} elements cannot fit in {} bytes", self.bytes.len())));
        }
        Ok(n)
    }

    /// A sequence of `N`-byte-or-more elements, each read by `get`.
    pub fn seq<T>(
        &mut self,
        min_size: usize,
        mut get: impl FnMut(&mut Self) -> Result<T, WireError>,
    ) -> Result<Vec<T>, WireError> {
        let n = self.count(min_size)?;
        (0..n).map(|_| get(self)).collect()
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        self.bytes
    }

    /// Fails unless every byte was read.
    pub fn finish(self) -> Result<(), WireError> {
        match self.bytes.len() {
            0 => Ok(()),
            n => Err(WireError(format!("{n} trailing bytes"))),
        }
    }
}

/// Appends the fields of a message.
pub trait Put {
    /// Appends a byte.
    fn put_u8(&mut self, x: u8);
    /// Appends a `u16`.
    fn put_u16(&mut self, x: u16);
    /// Appends a `u32`.
    fn put_u32(&mut self, x: u32);
    /// Appends a `u64`.
    fn put_u64(&mut self, x: u64);
    /// Appends a 0/1 byte.
    fn put_bool(&mut self, x: bool);
    /// Appends an optional `u64`.
    fn put_opt_u64(&mut self, x: Option<u64>);
    /// Appends a sequence count (sequences are below 2^32 elements).
    fn put_count(&mut self, n: usize);
}

impl Put for Vec<u8> {
    fn put_u8(&mut self, x: u8) {
        self.push(x);
    }
    fn put_u16(&mut self, x: u16) {
        self.extend_from_slice(&x.to_le_bytes());
    }
    fn put_u32(&mut self, x: u32) {
        self.extend_from_slice(&x.to_le_bytes());
    }
    fn put_u64(&mut self, x: u64) {
        self.extend_from_slice(&x.to_le_bytes());
    }
    fn put_bool(&mut self, x: bool) {
        self.push(u8::from(x));
    }
    fn put_opt_u64(&mut self, x: Option<u64>) {
        self.put_bool(x.is_some());
        if let Some(x) = x {
            self.put_u64(x);
        }
    }
    fn put_count(&mut self, n: usize) {
        self.put_u32(u32::try_from(n).expect("a sequence of fewer than 2^32 elements"));
    }
}

/// A subproblem that travels between processes, decoded against a
/// template of the same workload (module docs).
pub trait Wire: Sized {
    /// Appends the subproblem's state.
    fn encode(&self, out: &mut Vec<u8>);
    /// The subproblem `encode` wrote, with the rule and configuration of `template`.
    fn decode(template: &Self, r: &mut Reader<'_>) -> Result<Self, WireError>;
}

/// A tree node of a DFS stack on the wire (it is plain data).
pub trait WireNode: Sized {
    /// Its size on the wire, in bytes (at least).
    const SIZE: usize;
    /// Appends the node.
    fn put(&self, out: &mut Vec<u8>);
    /// Reads a node.
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError>;
}

impl Wire for Task {
    fn encode(&self, out: &mut Vec<u8>) {
        let tag = match self {
            Task::Synthetic(_) => 0,
            Task::Uts(_) => 1,
            Task::Loop(_) => 2,
            Task::Cost(_) => 3,
            Task::Knapsack(_) => 4,
            Task::Golomb(_) => 5,
            Task::Tsp(_) => 6,
            Task::Puzzle15(_) => 7,
        };
        out.put_u8(tag);
        match self {
            Task::Synthetic(t) => t.encode(out),
            Task::Uts(t) => t.encode(out),
            Task::Loop(t) => t.encode(out),
            Task::Cost(t) => t.encode(out),
            Task::Knapsack(t) => t.encode(out),
            Task::Golomb(t) => t.encode(out),
            Task::Tsp(t) => t.encode(out),
            Task::Puzzle15(t) => t.encode(out),
        }
    }

    fn decode(template: &Task, r: &mut Reader<'_>) -> Result<Task, WireError> {
        let tag = r.u8()?;
        Ok(match (tag, template) {
            (0, Task::Synthetic(t)) => Task::Synthetic(Wire::decode(t, r)?),
            (1, Task::Uts(t)) => Task::Uts(Wire::decode(t, r)?),
            (2, Task::Loop(t)) => Task::Loop(Wire::decode(t, r)?),
            (3, Task::Cost(t)) => Task::Cost(Wire::decode(t, r)?),
            (4, Task::Knapsack(t)) => Task::Knapsack(Wire::decode(t, r)?),
            (5, Task::Golomb(t)) => Task::Golomb(Wire::decode(t, r)?),
            (6, Task::Tsp(t)) => Task::Tsp(Wire::decode(t, r)?),
            (7, Task::Puzzle15(t)) => Task::Puzzle15(Wire::decode(t, r)?),
            (tag, template) => {
                return Err(WireError(format!("task tag {tag} does not match the workload ({})", Family(template))))
            }
        })
    }
}

/// The variant name of a task, for messages.
struct Family<'a>(&'a Task);

impl fmt::Display for Family<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Task::Synthetic(_) => "synthetic",
            Task::Uts(_) => "uts",
            Task::Loop(_) => "loop",
            Task::Cost(_) => "kz",
            Task::Knapsack(_) => "knapsack",
            Task::Golomb(_) => "golomb",
            Task::Tsp(_) => "tsp",
            Task::Puzzle15(_) => "puzzle15",
        })
    }
}

/// Encodes `task` into a fresh buffer and decodes it against `template`
/// (the round trip the tests check).
pub fn round_trip(template: &Task, task: &Task) -> Result<Task, WireError> {
    let mut bytes = Vec::new();
    task.encode(&mut bytes);
    let mut r = Reader::new(&bytes);
    let back = Task::decode(template, &mut r)?;
    r.finish()?;
    Ok(back)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::dfs::Strategy;
    use crate::problem::{Subproblem, WorkLog, Workload};

    /// Parts of `w`'s root after some work and splits, the root itself
    /// first: each round-trips to an identical subproblem (every field,
    /// by its `Debug` form) that does the same work afterwards.
    fn check(w: &str, split: Strategy) {
        let w: Workload = w.parse().unwrap();
        let template = w.root(split);
        let mut parts = vec![template.clone()];
        let mut t = template.clone();
        for round in 0..6 {
            t.work(3 + round, &mut WorkLog::default());
            if let Some(p) = t.split() {
                parts.push(p);
            }
            parts.push(t.clone());
        }
        assert!(parts.len() > 3, "{w}: too few parts to test");
        for p in parts {
            let back = round_trip(&template, &p).unwrap_or_else(|e| panic!("{w}: {e}"));
            assert_eq!(format!("{back:?}"), format!("{p:?}"), "{w}");
            let (mut a, mut b) = (p.clone(), back);
            let (mut la, mut lb) = (WorkLog::default(), WorkLog::default());
            assert_eq!(a.work(1 << 40, &mut la), b.work(1 << 40, &mut lb), "{w}");
            assert_eq!(la.fp, lb.fp, "{w}");
        }
    }

    #[test]
    fn every_workload_family_round_trips() {
        for w in [
            "synthetic:size=1000,split=uniform,seed=3",
            "synthetic:size=1000,split=fig3:8:3",
            "uts:default",
            "uts:T3",
            "loop:n=200,cost=heavy,seed=2",
            "kz:depth=8,seed=1",
            "knapsack:items=20,seed=1",
            "tsp:cities=8,seed=1",
            "golomb:marks=6",
            "puzzle15:moves=20,seed=1",
        ] {
            check(w, Strategy::BottomHalf);
        }
        check("uts:default", Strategy::AllHalf);
    }

    #[test]
    fn a_uts_t1_stack_round_trips_node_for_node() {
        let w: Workload = "uts:T1".parse().unwrap();
        let template = w.root(Strategy::AllHalf);
        let mut t = template.clone();
        t.work(10_000, &mut WorkLog::default());
        let part = t.split().expect("a deep stack splits");
        for p in [t, part] {
            let back = round_trip(&template, &p).unwrap();
            assert_eq!(format!("{back:?}"), format!("{p:?}"));
        }
    }

    #[test]
    fn malformed_messages_are_errors_not_panics() {
        let w: Workload = "uts:default".parse().unwrap();
        let template = w.root(Strategy::BottomHalf);
        let mut bytes = Vec::new();
        template.encode(&mut bytes);
        for cut in 0..bytes.len() {
            let mut r = Reader::new(&bytes[..cut]);
            assert!(Task::decode(&template, &mut r).and_then(|_| r.finish()).is_err(), "cut at {cut}");
        }
        let other: Workload = "loop:n=10".parse().unwrap();
        let err = Task::decode(&other.root(Strategy::BottomHalf), &mut Reader::new(&bytes)).unwrap_err();
        assert!(err.0.contains("does not match"), "{err}");
        let mut huge = vec![1u8];
        huge.put_u32(u32::MAX);
        assert!(Task::decode(&template, &mut Reader::new(&huge)).is_err());
    }
}
