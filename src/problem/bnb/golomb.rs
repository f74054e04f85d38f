//! Optimal Golomb rulers by depth-first branch-and-bound (002 §5.1; S-12).
//!
//! A ruler with k marks 0 = m_1 < … < m_k = L is Golomb when its
//! k(k−1)/2 differences are distinct; the search minimises L. A node holds
//! the marks placed so far; its children place the next mark at every
//! position whose differences to all marks are new, nearest first. The
//! bound: with r marks still to place after the last mark a, the r gaps
//! between consecutive marks are distinct differences not used yet, so
//! L ≥ a + the sum of the r smallest unused differences. Marks stay at or
//! below 2^(k−1) − 1, the length of the ruler of marks 2^j − 1, which is
//! Golomb: a finite tree that contains an optimal ruler. Optimal lengths
//! for k = 4 … 11: 6, 11, 17, 25, 34, 44, 55, 72.

use super::child_id;
use crate::problem::dfs::{DfsStack, Strategy, TreeRule};

/// The most marks accepted (and the known optima, by marks − 2).
pub const MAX_MARKS: u32 = 11;

/// Optimal lengths for 2 … 11 marks (002 §5.1's problem; known values).
pub const OPTIMA: [u64; 10] = [1, 3, 6, 11, 17, 25, 34, 44, 55, 72];

/// Words of a difference bitset: differences up to 2^(MAX_MARKS−1) − 1.
const WORDS: usize = 1 << (MAX_MARKS - 1) >> 6;

/// Rulers with `marks` marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GolombConfig {
    /// k: marks.
    pub marks: u32,
}

/// The expansion rule.
#[derive(Clone, Copy, Debug)]
pub struct Golomb {
    marks: u32,
    longest: u32,
}

/// A partial ruler.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    marks: [u16; MAX_MARKS as usize],
    placed: u32,
    used: [u64; WORDS],
    id: u64,
}

impl GolombConfig {
    /// The root: the mark at 0 alone.
    pub fn root(&self, strategy: Strategy) -> DfsStack<Golomb> {
        let rule = Golomb { marks: self.marks, longest: (1 << (self.marks - 1)) - 1 };
        let root = Node { marks: [0; MAX_MARKS as usize], placed: 1, used: [0; WORDS], id: u64::from(self.marks) };
        DfsStack::new(rule, root, strategy)
    }
}

impl Node {
    fn last(&self) -> u32 {
        u32::from(self.marks[self.placed as usize - 1])
    }

    fn is_used(&self, d: u32) -> bool {
        self.used[d as usize >> 6] >> (d & 63) & 1 == 1
    }

    /// The node with a mark at `x`, if all its differences are new.
    fn with_mark(&self, x: u32) -> Option<Node> {
        let mut next = *self;
        for &m in &self.marks[..self.placed as usize] {
            let d = x - u32::from(m);
            if next.is_used(d) {
                return None;
            }
            next.used[d as usize >> 6] |= 1 << (d & 63);
        }
        next.marks[self.placed as usize] = x as u16;
        next.placed += 1;
        next.id = child_id(self.id, u64::from(x));
        Some(next)
    }
}

impl TreeRule for Golomb {
    type Node = Node;
    const PRUNES: bool = true;

    fn expand(&self, n: &Node, out: &mut Vec<Node>) -> u32 {
        if n.placed == self.marks {
            return 0;
        }
        let before = out.len();
        out.extend((n.last() + 1..=self.longest).rev().filter_map(|x| n.with_mark(x)));
        (out.len() - before) as u32
    }

    fn id(&self, n: &Node) -> u64 {
        n.id
    }

    fn height(&self, n: &Node) -> u32 {
        n.placed - 1
    }

    fn bound(&self, n: &Node) -> u64 {
        let unused = (1..).filter(|&d| !n.is_used(d));
        u64::from(n.last()) + unused.take((self.marks - n.placed) as usize).map(u64::from).sum::<u64>()
    }

    fn solution(&self, n: &Node) -> Option<u64> {
        (n.placed == self.marks).then(|| u64::from(n.last()))
    }
}

/// On the wire (MPI): every field of a node.
impl crate::problem::wire::WireNode for Node {
    const SIZE: usize = 2 * MAX_MARKS as usize + 4 + 8 * WORDS + 8;
    fn put(&self, out: &mut Vec<u8>) {
        use crate::problem::wire::Put;
        self.marks.iter().for_each(|&m| out.put_u16(m));
        out.put_u32(self.placed);
        self.used.iter().for_each(|&w| out.put_u64(w));
        out.put_u64(self.id);
    }
    fn get(r: &mut crate::problem::wire::Reader<'_>) -> Result<Self, crate::problem::wire::WireError> {
        let mut marks = [0u16; MAX_MARKS as usize];
        for m in &mut marks {
            *m = r.u16()?;
        }
        let placed = r.u32()?;
        let mut used = [0u64; WORDS];
        for w in &mut used {
            *w = r.u64()?;
        }
        Ok(Node { marks, placed, used, id: r.u64()? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::sequential;

    /// The known optimal lengths, found by the branch-and-bound.
    #[test]
    fn the_known_optima_are_found() {
        for marks in 2..=7 {
            let seq = sequential::run(GolombConfig { marks }.root(Strategy::BottomHalf));
            assert_eq!(seq.log.goal, Some(OPTIMA[marks as usize - 2]), "{marks} marks");
        }
    }

    /// The ruler of marks 2^j − 1 is Golomb, so the tree holds a solution.
    #[test]
    fn the_longest_ruler_is_golomb() {
        let mut n = Node { marks: [0; MAX_MARKS as usize], placed: 1, used: [0; WORDS], id: 0 };
        for j in 1..MAX_MARKS {
            n = n.with_mark((1 << j) - 1).expect("distinct differences");
        }
        assert_eq!(n.last(), (1 << (MAX_MARKS - 1)) - 1);
    }
}
