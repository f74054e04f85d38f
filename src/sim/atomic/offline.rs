//! Off-line message scattering (004 §3, 004-7): when every node may send
//! its messages in any order, max{r, m} steps are necessary (a node sends
//! one message per step; a node receives one per step) and sufficient: the
//! messages are the edges of a bipartite multigraph (sources × destinations)
//! of maximum degree Δ = max{r, m}, which König's theorem colours with Δ
//! colours; colour c is sent at step c + 1. The colouring is the classical
//! alternating-path construction: for an edge (u, v), take a colour a free
//! at u and b free at v; if a is not free at v, swap a and b along the
//! a/b path from v (it cannot reach u in a bipartite graph), then use a.

use crate::protocol::PeId;

/// An off-line schedule: for every source, the step (from 1) at which each
/// of its messages is sent, in list order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// `steps[s][i]`: the step of source s's i-th message.
    pub steps: Vec<Vec<u64>>,
    /// The completion time: the largest step.
    pub t: u64,
}

/// The schedule of `dests` (`dests[s]`: source s's destinations) on
/// `pes` nodes with max{r, m} colours.
pub fn schedule(dests: &[Vec<PeId>], pes: u32) -> Schedule {
    let m = dests.iter().map(Vec::len).max().unwrap_or(0);
    let mut indeg = vec![0usize; pes as usize];
    dests.iter().flatten().for_each(|&d| indeg[d as usize] += 1);
    let delta = m.max(indeg.iter().copied().max().unwrap_or(0));
    // Per side and colour, the edge using it: sources are 0..P, destinations P..2P.
    let mut at: Vec<Vec<Option<usize>>> = vec![vec![None; delta]; 2 * pes as usize];
    let edges: Vec<(usize, usize)> =
        dests.iter().enumerate().flat_map(|(s, ds)| ds.iter().map(move |&d| (s, pes as usize + d as usize))).collect();
    let mut colour = vec![usize::MAX; edges.len()];
    for (e, &(u, v)) in edges.iter().enumerate() {
        let a = free(&at[u]);
        let b = free(&at[v]);
        if at[v][a].is_some() {
            swap_path(&mut at, &mut colour, &edges, v, a, b);
        }
        (at[u][a], at[v][a], colour[e]) = (Some(e), Some(e), a);
    }
    let mut steps: Vec<Vec<u64>> = dests.iter().map(|d| Vec::with_capacity(d.len())).collect();
    for (e, &(s, _)) in edges.iter().enumerate() {
        steps[s].push(colour[e] as u64 + 1);
    }
    let t = colour.iter().map(|&c| c as u64 + 1).max().unwrap_or(0);
    Schedule { steps, t }
}

fn free(slots: &[Option<usize>]) -> usize {
    slots.iter().position(Option::is_none).expect("a vertex of degree ≤ Δ has a free colour")
}

/// Swaps colours `a` and `b` along the path from `v` that starts with `a`.
fn swap_path(
    at: &mut [Vec<Option<usize>>],
    colour: &mut [usize],
    edges: &[(usize, usize)],
    v: usize,
    a: usize,
    b: usize,
) {
    let mut path = Vec::new();
    let (mut node, mut c) = (v, a);
    while let Some(e) = at[node][c] {
        path.push(e);
        let (x, y) = edges[e];
        node = if x == node { y } else { x };
        c = if c == a { b } else { a };
    }
    for &e in &path {
        let (x, y) = edges[e];
        at[x][colour[e]] = None;
        at[y][colour[e]] = None;
    }
    for &e in &path {
        let (x, y) = edges[e];
        colour[e] = if colour[e] == a { b } else { a };
        at[x][colour[e]] = Some(e);
        at[y][colour[e]] = Some(e);
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A schedule is valid: each source sends one message per step, each
    /// destination receives one per step, and it takes exactly max{r, m}.
    fn assert_valid(dests: &[Vec<PeId>], pes: u32, s: &Schedule) {
        let m = dests.iter().map(Vec::len).max().unwrap_or(0) as u64;
        let mut seen = std::collections::HashSet::new();
        for (src, steps) in s.steps.iter().enumerate() {
            let mut own: Vec<u64> = steps.clone();
            own.sort_unstable();
            own.dedup();
            assert_eq!(own.len(), steps.len(), "source {src} sends twice in a step");
            for (i, &t) in steps.iter().enumerate() {
                assert!(seen.insert((dests[src][i], t)), "destination {} receives twice at {t}", dests[src][i]);
            }
        }
        let mut indeg = vec![0u64; pes as usize];
        dests.iter().flatten().for_each(|&d| indeg[d as usize] += 1);
        assert_eq!(s.t, m.max(indeg.into_iter().max().unwrap_or(0)));
    }

    #[test]
    fn all_to_one_takes_m_times_p() {
        let dests = vec![vec![0; 5]; 8];
        let s = schedule(&dests, 8);
        assert_valid(&dests, 8, &s);
        assert_eq!(s.t, 40);
    }

    proptest! {
        #[test]
        fn random_instances_take_exactly_max_r_m(pes in 1u32..9, m in 0usize..8, seed in any::<u64>()) {
            let mut x = seed | 1;
            let mut next = |p: u32| { x ^= x << 13; x ^= x >> 7; x ^= x << 17; (x % u64::from(p)) as PeId };
            let dests: Vec<Vec<PeId>> = (0..pes).map(|_| (0..m).map(|_| next(pes)).collect()).collect();
            let s = schedule(&dests, pes);
            assert_valid(&dests, pes, &s);
        }
    }
}
