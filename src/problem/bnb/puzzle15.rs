//! The 15-puzzle by IDA* (002 §5.3, 000 §6.2; S-12).
//!
//! An instance is the solved board scrambled by `moves` random moves of
//! the blank (never straight back), so it is solvable in at most `moves`.
//! IDA* searches depth first with a cost limit on f = g + h, h the
//! Manhattan distance (admissible), raising the limit to the least f that
//! exceeded it until an iteration finds the solved board. A node is a
//! board reached by a path; its children move the blank (not back), and
//! only children with f within the iteration's limit are pushed.
//!
//! Every iteration but the last finds no solution, so its tree is fixed:
//! an order-independent tree-shaped computation whose node count and
//! fingerprint every parallel run must reproduce (`work_conserved`). The
//! last iteration is a branch-and-bound: its first solution costs the
//! limit, which is the optimum, and prunes every node with f ≥ it. The
//! workload `puzzle15:moves=M,seed=S,iteration=I` is iteration I (by
//! default the last); the IDA* run is the sequence of iterations
//! 0 … last, each a run of its own.

use rand::Rng;

use super::child_id;
use crate::base::rng::{stream, Purpose};
use crate::problem::dfs::{DfsStack, Strategy, TreeRule};

/// The most scrambling moves accepted (sequential IDA* of 80-move
/// scrambles takes seconds).
pub const MAX_MOVES: u32 = 80;

/// The blank's moves: up, down, left, right.
const DIRS: [(i8, i8); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// An IDA* iteration of an instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Puzzle15Config {
    /// Random moves scrambling the solved board.
    pub moves: u32,
    /// Seed of the scramble.
    pub seed: u64,
    /// The iteration (0 = the first).
    pub iteration: u32,
    /// The iteration's cost limit.
    pub limit: u32,
    /// True for the last iteration (the one that finds the optimum).
    pub last: bool,
}

/// One IDA* iteration as the sequential search runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The cost limit.
    pub limit: u32,
    /// Nodes examined (the last iteration: up to its first solution).
    pub nodes: u64,
}

/// The expansion rule of one iteration: moves within the cost limit.
#[derive(Clone, Copy, Debug)]
pub struct Puzzle15 {
    limit: u32,
}

/// An IDA* iteration the instance does not have ([`Puzzle15Config::new`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("puzzle15:moves={moves},seed={seed} has iterations 0..={last}, got iteration={iteration}")]
pub struct NoSuchIteration {
    /// The scrambling moves.
    pub moves: u32,
    /// The scrambling seed.
    pub seed: u64,
    /// The last iteration.
    pub last: u32,
    /// The iteration asked for.
    pub iteration: u32,
}

/// A board reached by a path: 16 nibbles, tile at position p in nibble p
/// (0 = the blank); solved when position p holds tile p + 1.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    tiles: u64,
    blank: u8,
    g: u8,
    h: u8,
    /// The direction that would undo the last move (4: none).
    back: u8,
    id: u64,
}

impl Puzzle15Config {
    /// Iteration `iteration` (the last if `None`) of the instance, or why not.
    pub fn new(moves: u32, seed: u64, iteration: Option<u32>) -> Result<Puzzle15Config, NoSuchIteration> {
        let its = iterations(&scramble(moves, seed));
        let last = its.len() as u32 - 1;
        let i = iteration.unwrap_or(last);
        if i > last {
            return Err(NoSuchIteration { moves, seed, last, iteration: i });
        }
        Ok(Puzzle15Config { moves, seed, iteration: i, limit: its[i as usize].limit, last: i == last })
    }

    /// The scrambled board.
    pub fn board(&self) -> Node {
        scramble(self.moves, self.seed)
    }

    /// The root subproblem of the iteration.
    pub fn root(&self, strategy: Strategy) -> DfsStack<Puzzle15> {
        DfsStack::new(Puzzle15 { limit: self.limit }, self.board(), strategy)
    }
}

/// The solved board scrambled by `moves` random moves, never straight back.
fn scramble(moves: u32, seed: u64) -> Node {
    let solved = (0..15).fold(0u64, |t, p| t | (p + 1) << (4 * p));
    let mut n = Node { tiles: solved, blank: 15, g: 0, h: 0, back: 4, id: seed };
    let mut rng = stream(seed, 0, Purpose::Instance);
    for _ in 0..moves {
        let dirs: Vec<usize> = (0..4).filter(|&d| d != n.back as usize && n.moved(d).is_some()).collect();
        n = n.moved(dirs[rng.random_range(0..dirs.len())]).expect("a legal move");
    }
    Node { g: 0, back: 4, id: seed, ..n }
}

/// The Manhattan distance of tile `t` at position `p` from its place.
fn distance(t: u64, p: u8) -> u8 {
    let (goal, p) = (t as u8 - 1, p);
    (goal / 4).abs_diff(p / 4) + (goal % 4).abs_diff(p % 4)
}

impl Node {
    fn tile(&self, p: u8) -> u64 {
        self.tiles >> (4 * p) & 15
    }

    /// The board after the blank moves in direction `d`, if it can.
    fn moved(&self, d: usize) -> Option<Node> {
        let (dr, dc) = DIRS[d];
        let (r, c) = ((self.blank / 4) as i8 + dr, (self.blank % 4) as i8 + dc);
        if !(0..4).contains(&r) || !(0..4).contains(&c) {
            return None;
        }
        let to = (r * 4 + c) as u8;
        let t = self.tile(to);
        let h = self.h + distance(t, self.blank) - distance(t, to);
        let tiles = self.tiles & !(15 << (4 * to)) | t << (4 * self.blank);
        Some(Node { tiles, blank: to, g: self.g + 1, h, back: (d ^ 1) as u8, id: child_id(self.id, d as u64) })
    }

    /// f = g + h.
    fn f(&self) -> u32 {
        u32::from(self.g) + u32::from(self.h)
    }
}

/// The Manhattan distance of a whole board.
fn manhattan(tiles: u64) -> u8 {
    (0..16u8).map(|p| (p, tiles >> (4 * p) & 15)).filter(|&(_, t)| t != 0).map(|(p, t)| distance(t, p)).sum()
}

/// Sequential IDA* (its own recursion, independent of [`DfsStack`]): the
/// limit and node count of every iteration, the last finding the optimum.
pub fn iterations(board: &Node) -> Vec<Iteration> {
    let root = Node { h: manhattan(board.tiles), ..*board };
    let mut out = vec![];
    let mut limit = root.f();
    loop {
        let (mut nodes, mut next) = (0, u32::MAX);
        let found = dive(&root, limit, &mut nodes, &mut next);
        out.push(Iteration { limit, nodes });
        if found {
            return out;
        }
        limit = next;
    }
}

/// Depth-first search within `limit`; true at the first solution.
fn dive(n: &Node, limit: u32, nodes: &mut u64, next: &mut u32) -> bool {
    *nodes += 1;
    if n.h == 0 {
        return true;
    }
    for d in (0..4).filter(|&d| d != n.back as usize) {
        let Some(c) = n.moved(d) else { continue };
        if c.f() > limit {
            *next = (*next).min(c.f());
        } else if dive(&c, limit, nodes, next) {
            return true;
        }
    }
    false
}

impl TreeRule for Puzzle15 {
    type Node = Node;
    const PRUNES: bool = true;

    fn expand(&self, n: &Node, out: &mut Vec<Node>) -> u32 {
        if n.h == 0 {
            return 0;
        }
        let before = out.len();
        // Pushed in reverse so that the stack pops them in `dive`'s order.
        out.extend(
            (0..4).rev().filter(|&d| d != n.back as usize).filter_map(|d| n.moved(d)).filter(|c| c.f() <= self.limit),
        );
        (out.len() - before) as u32
    }

    fn id(&self, n: &Node) -> u64 {
        n.id
    }

    fn height(&self, n: &Node) -> u32 {
        u32::from(n.g)
    }

    fn bound(&self, n: &Node) -> u64 {
        u64::from(n.f())
    }

    fn solution(&self, n: &Node) -> Option<u64> {
        (n.h == 0).then(|| u64::from(n.g))
    }
}

/// On the wire (MPI): every field of a node.
impl crate::problem::wire::WireNode for Node {
    const SIZE: usize = 20;
    fn put(&self, out: &mut Vec<u8>) {
        use crate::problem::wire::Put;
        out.put_u64(self.tiles);
        out.extend_from_slice(&[self.blank, self.g, self.h, self.back]);
        out.put_u64(self.id);
    }
    fn get(r: &mut crate::problem::wire::Reader<'_>) -> Result<Self, crate::problem::wire::WireError> {
        let tiles = r.u64()?;
        let [blank, g, h, back] = r.array()?;
        Ok(Node { tiles, blank, g, h, back, id: r.u64()? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::sequential;
    use std::collections::{HashSet, VecDeque};

    /// The fewest moves to the solved board, by breadth-first search.
    fn bfs(board: &Node) -> u32 {
        let mut seen = HashSet::from([board.tiles]);
        let mut queue = VecDeque::from([(Node { back: 4, ..*board }, 0)]);
        while let Some((n, dist)) = queue.pop_front() {
            if n.h == 0 {
                return dist;
            }
            for c in (0..4).filter_map(|d| n.moved(d)) {
                if seen.insert(c.tiles) {
                    queue.push_back((c, dist + 1));
                }
            }
        }
        unreachable!("a scramble is solvable")
    }

    /// IDA*'s last limit is the optimum (breadth-first search agrees).
    #[test]
    fn the_last_limit_is_the_fewest_moves() {
        for seed in 0..8 {
            let cfg = Puzzle15Config::new(14, seed, None).unwrap();
            assert_eq!(cfg.board().h, manhattan(cfg.board().tiles), "incremental h");
            assert_eq!(cfg.limit, bfs(&cfg.board()), "seed {seed}");
            assert!(cfg.last && cfg.limit <= 14);
        }
    }

    /// The stack's sequential run does each iteration's nodes (all but
    /// the last: an order-independent tree) and finds the optimum last.
    #[test]
    fn the_stack_runs_the_iterations() {
        let board = scramble(30, 3);
        let its = iterations(&board);
        assert!(its.len() >= 2, "{its:?}");
        for (i, it) in its.iter().enumerate() {
            let cfg = Puzzle15Config::new(30, 3, Some(i as u32)).unwrap();
            let seq = sequential::run(cfg.root(Strategy::BottomHalf));
            if cfg.last {
                assert_eq!(seq.log.goal, Some(u64::from(it.limit)));
            } else {
                assert_eq!((seq.work, seq.log.goal), (it.nodes, None), "iteration {i}");
            }
        }
        assert!(its.windows(2).all(|w| w[0].limit < w[1].limit));
        assert!(Puzzle15Config::new(30, 3, Some(its.len() as u32)).is_err());
    }
}
