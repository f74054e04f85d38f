//! Network topologies of 000 §2.1 and §4 (S-1): a message between PEs a and
//! b travels `hops(a, b)` links, and with packet switching and no
//! contention it takes T_rout × hops (000 §2.1: "k hops ⇒ time k").
//!
//! | topology | P | hops(a, b) | diameter d |
//! |---|---|---|---|
//! | crossbar (001's machine) | any | 1 | 1 |
//! | hypercube | 2^D | popcount(a ⊕ b) | D |
//! | r-dimensional mesh (000 §4.1) | 2^D | Σ over axes of \|a_j − b_j\| in the embedding below | Σ_j (2^{D_j} − 1) |
//! | fat tree (000 §4.2; binary, PEs at the leaves) | 2^D | 2·(highest differing bit + 1) | 2D |
//! | butterfly (000 Thm 2; wrapped, PE k at row k of level 0) | 2^D | BFS distance | Θ(D) |
//! | cube-connected cycles (000 Thm 2; PE k at row k, position 0) | 2^D | BFS distance | Θ(D) |
//!
//! The mesh embeds the hypercube as 000 §4.1 does, so that every j-cube
//! lies in a submesh of diameter ≤ r·2^{⌈j/r⌉} − r: hypercube bit i is bit
//! ⌊i/r⌋ of the coordinate on axis i mod r (axis j has D_j = ⌈(D − j)/r⌉
//! bits). The dimension-i partner is then 2^{⌊i/r⌋} mesh links away.
//!
//! Butterfly and CCC distances are vertex-transitive under XOR of rows
//! ((r, ℓ) ↦ (r ⊕ x, ℓ) maps edges to edges), so one breadth-first search
//! from row 0 gives every pair: hops(a, b) = dist(0, a ⊕ b).

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use super::PeId;

/// The largest mesh dimension r accepted.
pub const MAX_MESH_R: u8 = 8;
/// The largest P whose butterfly or CCC distances are tabulated (2^20:
/// a search over D·2^D nodes).
pub const MAX_BFS_PES: u32 = 1 << 20;

/// A network topology (000 §2.1, §4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Topology {
    /// Every pair one hop apart (001's machine; the default).
    #[default]
    Crossbar,
    /// The hypercube of 000 §3.
    Hypercube,
    /// The r-dimensional mesh of 000 §4.1 with the hypercube embedded.
    Mesh {
        /// Dimensions, 1..=8.
        r: u8,
    },
    /// The binary fat tree of 000 §4.2 (PEs at the leaves).
    FatTree,
    /// The wrapped butterfly of 000 Thm 2 (PEs at the rows of level 0).
    Butterfly,
    /// The cube-connected cycles of 000 Thm 2 (PEs at position 0 of each cycle).
    Ccc,
}

/// The names `--topology` takes.
pub const FORMS: &str = "crossbar, hypercube, mesh:R (R = 1..=8), fat-tree, butterfly, ccc";

/// A topology name that is not one, or a P the topology cannot take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TopologyError {
    /// Not one of the [`FORMS`].
    #[error("unknown topology `{0}`; valid: {FORMS}")]
    Unknown(String),
    /// `mesh:R` with R outside 1..=[`MAX_MESH_R`].
    #[error("--topology mesh:{0}: R must be in 1..={MAX_MESH_R}")]
    MeshDimension(u8),
    /// P is not a power of two (every topology but the crossbar needs one).
    #[error("--topology {topology} needs P a power of two (000 §3: n = 2^D), not {pes}")]
    NotPowerOfTwo {
        /// The topology.
        topology: Topology,
        /// The P given.
        pes: u32,
    },
    /// P is above [`MAX_BFS_PES`] on a topology whose distances are tabulated.
    #[error("--topology {topology} takes at most P = 2^20, not {pes}")]
    TooManyPes {
        /// The topology (butterfly or CCC).
        topology: Topology,
        /// The P given.
        pes: u32,
    },
}

impl Topology {
    /// Checks that `pes` PEs fit the topology (a power of two for all but
    /// the crossbar; at most 2^20 for the tabulated ones).
    pub fn fits(self, pes: u32) -> Result<(), TopologyError> {
        if self == Topology::Crossbar {
            return Ok(());
        }
        if !pes.is_power_of_two() {
            return Err(TopologyError::NotPowerOfTwo { topology: self, pes });
        }
        if self.tabulated() && pes > MAX_BFS_PES {
            return Err(TopologyError::TooManyPes { topology: self, pes });
        }
        Ok(())
    }

    /// True for the topologies whose distances come from a search.
    fn tabulated(self) -> bool {
        matches!(self, Topology::Butterfly | Topology::Ccc)
    }

    /// The hop distances of this topology on `pes` PEs (which must fit).
    pub fn distances(self, pes: u32) -> Hops {
        let table = self.tabulated().then(|| Arc::new(bfs_from_row0(self, pes.trailing_zeros())));
        Hops { topology: self, pes, table }
    }

    /// The PEs one hop class away from `me` on `pes` PEs: those at the
    /// least positive distance (000 §1.1's network neighbours), ascending.
    /// Hypercube: the D partners; mesh: the axis neighbours; fat tree: the
    /// sibling leaf; CCC: the cube partner of position 0; butterfly: the
    /// rows two links away (bits 0 and D − 1, and for D = 2 also both);
    /// crossbar: every other PE.
    pub fn neighbours(self, me: PeId, pes: u32) -> Vec<PeId> {
        let d = pes.trailing_zeros();
        let xor = |masks: &mut dyn Iterator<Item = u32>| masks.map(|m| me ^ m).collect::<Vec<_>>();
        let mut out = match self {
            Topology::Crossbar => (0..pes).filter(|&p| p != me).collect(),
            _ if pes < 2 => vec![],
            Topology::Hypercube => xor(&mut (0..d).map(|i| 1 << i)),
            Topology::FatTree | Topology::Ccc => vec![me ^ 1],
            Topology::Butterfly if d == 2 => xor(&mut (1..4)), // two levels: the wrap-around reaches row 3 too
            Topology::Butterfly => xor(&mut [1, 1 << (d - 1)].into_iter()),
            Topology::Mesh { r } => mesh_neighbours(me, r, d),
        };
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The axis neighbours of `me` in the r-dimensional mesh of 2^d PEs.
fn mesh_neighbours(me: PeId, r: u8, d: u32) -> Vec<PeId> {
    let mut out = Vec::new();
    for j in 0..u32::from(r).min(d) {
        let (bits, c) = (axis_bits(d, j, r), mesh_coordinate(me, j, r, d));
        let mut with = |c: u64| {
            let cleared = (0..bits).fold(me, |pe, k| pe & !(1 << (j + k * u32::from(r))));
            out.push((0..bits).fold(cleared, |pe, k| pe | (((c >> k) & 1) as u32) << (j + k * u32::from(r))));
        };
        if c > 0 {
            with(c - 1);
        }
        if c + 1 < 1 << bits {
            with(c + 1);
        }
    }
    out
}

/// The hop distances of one topology on P PEs.
#[derive(Clone, Debug)]
pub struct Hops {
    topology: Topology,
    pes: u32,
    /// Butterfly, CCC: distance from row 0 to row x, by x.
    table: Option<Arc<Vec<u32>>>,
}

impl Hops {
    /// Links between `a` and `b` (0 for a = b).
    pub fn hops(&self, a: PeId, b: PeId) -> u64 {
        if a == b {
            return 0;
        }
        let x = a ^ b;
        u64::from(match self.topology {
            Topology::Crossbar => 1,
            Topology::Hypercube => x.count_ones(),
            Topology::Mesh { r } => mesh_distance(a, b, r, self.pes.trailing_zeros()),
            Topology::FatTree => 2 * (u32::BITS - x.leading_zeros()),
            Topology::Butterfly | Topology::Ccc => self.table.as_ref().expect("tabulated")[x as usize],
        })
    }

    /// The diameter d: the most hops between two PEs.
    pub fn diameter(&self) -> u64 {
        let d = self.pes.trailing_zeros();
        match self.topology {
            Topology::Crossbar => u64::from(self.pes > 1),
            Topology::Hypercube => u64::from(d),
            Topology::Mesh { r } => (0..u32::from(r)).map(|j| (1u64 << axis_bits(d, j, r)) - 1).sum(),
            Topology::FatTree => 2 * u64::from(d),
            Topology::Butterfly | Topology::Ccc => {
                self.table.as_ref().expect("tabulated").iter().copied().max().map_or(0, u64::from)
            }
        }
    }

    /// The topology.
    pub fn topology(&self) -> Topology {
        self.topology
    }
}

/// Bits of the coordinate on mesh axis `j` of D hypercube bits: ⌈(D − j)/r⌉.
fn axis_bits(d: u32, j: u32, r: u8) -> u32 {
    (d.saturating_sub(j)).div_ceil(u32::from(r))
}

/// The coordinate of PE `pe` on mesh axis `j` (000 §4.1's embedding).
pub fn mesh_coordinate(pe: PeId, j: u32, r: u8, d: u32) -> u64 {
    (0..axis_bits(d, j, r)).map(|k| u64::from((pe >> (j + k * u32::from(r))) & 1) << k).sum()
}

fn mesh_distance(a: PeId, b: PeId, r: u8, d: u32) -> u32 {
    (0..u32::from(r)).map(|j| mesh_coordinate(a, j, r, d).abs_diff(mesh_coordinate(b, j, r, d)) as u32).sum()
}

/// Breadth-first distances from node (row 0, level 0) to (row x, level 0)
/// of the wrapped butterfly or the CCC of dimension `d` (d levels of 2^d
/// rows; node (x, ℓ) is x·d + ℓ).
fn bfs_from_row0(t: Topology, d: u32) -> Vec<u32> {
    let rows = 1usize << d;
    if d == 0 {
        return vec![0];
    }
    let levels = d as usize;
    let node = |x: usize, l: usize| x * levels + l;
    let mut dist = vec![u32::MAX; rows * levels];
    let mut frontier = vec![node(0, 0)];
    dist[0] = 0;
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for n in frontier {
            let (x, l) = (n / levels, n % levels);
            for m in adjacent(t, x, l, levels) {
                let m = node(m.0, m.1);
                if dist[m] == u32::MAX {
                    dist[m] = depth;
                    next.push(m);
                }
            }
        }
        frontier = next;
    }
    (0..rows).map(|x| dist[node(x, 0)]).collect()
}

/// The neighbours of node (x, ℓ): butterfly: straight and cross edges to
/// levels ℓ ± 1 (cross edges flip bit ℓ going up, bit ℓ − 1 going down);
/// CCC: the cycle neighbours (x, ℓ ± 1) and the cube edge (x ⊕ 2^ℓ, ℓ).
fn adjacent(t: Topology, x: usize, l: usize, levels: usize) -> Vec<(usize, usize)> {
    let (up, down) = ((l + 1) % levels, (l + levels - 1) % levels);
    match t {
        Topology::Butterfly => vec![(x, up), (x ^ (1 << l), up), (x, down), (x ^ (1 << down), down)],
        _ => vec![(x, up), (x, down), (x ^ (1 << l), l)],
    }
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Topology::Crossbar => f.write_str("crossbar"),
            Topology::Hypercube => f.write_str("hypercube"),
            Topology::Mesh { r } => write!(f, "mesh:{r}"),
            Topology::FatTree => f.write_str("fat-tree"),
            Topology::Butterfly => f.write_str("butterfly"),
            Topology::Ccc => f.write_str("ccc"),
        }
    }
}

impl FromStr for Topology {
    type Err = TopologyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || TopologyError::Unknown(s.to_string());
        Ok(match s {
            "crossbar" => Topology::Crossbar,
            "hypercube" => Topology::Hypercube,
            "fat-tree" => Topology::FatTree,
            "butterfly" => Topology::Butterfly,
            "ccc" => Topology::Ccc,
            _ => {
                let r: u8 = s.strip_prefix("mesh:").ok_or_else(bad)?.parse().map_err(|_| bad())?;
                if !(1..=MAX_MESH_R).contains(&r) {
                    return Err(TopologyError::MeshDimension(r));
                }
                Topology::Mesh { r }
            }
        })
    }
}

crate::serde_as_text!(Topology);

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> [Topology; 6] {
        use Topology::*;
        [Crossbar, Hypercube, Mesh { r: 2 }, FatTree, Butterfly, Ccc]
    }

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        for t in all().into_iter().chain([Topology::Mesh { r: 3 }]) {
            assert_eq!(t.to_string().parse::<Topology>(), Ok(t));
        }
        assert_eq!("mesh:0".parse::<Topology>(), Err(TopologyError::MeshDimension(0)));
        assert!("mesh:0".parse::<Topology>().unwrap_err().to_string().contains("1..=8"));
        assert_eq!("torus".parse::<Topology>(), Err(TopologyError::Unknown("torus".into())));
        assert!("torus".parse::<Topology>().unwrap_err().to_string().contains("valid: crossbar"));
        let twelve = Topology::Hypercube.fits(12).unwrap_err();
        assert_eq!(twelve, TopologyError::NotPowerOfTwo { topology: Topology::Hypercube, pes: 12 });
        assert!(twelve.to_string().contains("power of two"));
        let big = Topology::Ccc.fits(1 << 21);
        assert_eq!(big, Err(TopologyError::TooManyPes { topology: Topology::Ccc, pes: 1 << 21 }));
    }

    /// Distances are a metric: symmetric, zero only on the diagonal, and
    /// the triangle inequality holds; the diameter is the largest.
    #[test]
    fn distances_are_a_metric() {
        for pes in [1, 2, 8, 32] {
            for t in all() {
                let h = t.distances(pes);
                let mut most = 0;
                for a in 0..pes {
                    for b in 0..pes {
                        assert_eq!(h.hops(a, b), h.hops(b, a), "{t} P={pes}");
                        assert_eq!(h.hops(a, b) == 0, a == b, "{t} P={pes}");
                        most = most.max(h.hops(a, b));
                        for c in 0..pes {
                            assert!(h.hops(a, c) <= h.hops(a, b) + h.hops(b, c), "{t} P={pes}");
                        }
                    }
                }
                assert_eq!(h.diameter(), most, "{t} P={pes}");
            }
        }
    }

    #[test]
    fn diameters_are_the_papers() {
        let d = |t: Topology, pes| t.distances(pes).diameter();
        assert_eq!(d(Topology::Hypercube, 1024), 10);
        assert_eq!(d(Topology::FatTree, 1024), 20);
        assert_eq!(d(Topology::Mesh { r: 2 }, 1024), 62); // a 32 × 32 mesh
        assert_eq!(d(Topology::Mesh { r: 2 }, 2048), 31 + 63); // 64 × 32
        assert_eq!(d(Topology::Mesh { r: 1 }, 16), 15); // a line
        assert_eq!(d(Topology::Crossbar, 5), 1);
        // the wrapped butterfly of dimension D has diameter ⌊3D/2⌋; between
        // rows of level 0 the walk must return to level 0
        assert!((10..=20).contains(&d(Topology::Butterfly, 1024)));
    }

    /// 000 §4.1: every j-cube lies in a submesh of diameter
    /// Σ_{a<r} (2^{⌈(j−a)/r⌉} − 1) ≤ r·2^{⌈j/r⌉} − r, with equality when r | j;
    /// the dimension-i partner is 2^{⌊i/r⌋} links away.
    #[test]
    fn the_mesh_embeds_the_hypercube_as_000_says() {
        let (d, r) = (8u32, 2u8);
        let h = Topology::Mesh { r }.distances(1 << d);
        for i in 0..d {
            assert_eq!(h.hops(0, 1 << i), 1 << (i / u32::from(r)), "dimension {i}");
        }
        for j in 0..=d {
            let cube = 1u32 << j; // the j-cube of PE 0: PEs 0..2^j
            let most = (0..cube).flat_map(|a| (0..cube).map(move |b| (a, b))).map(|(a, b)| h.hops(a, b)).max();
            let expected: u64 = (0..u32::from(r)).map(|a| (1u64 << axis_bits(j, a, r)) - 1).sum();
            assert_eq!(most, Some(expected), "j = {j}");
            let bound = u64::from(r) * (1 << j.div_ceil(u32::from(r))) - u64::from(r);
            assert!(expected <= bound && (j % u32::from(r) != 0 || expected == bound), "j = {j}");
        }
    }

    /// The closed forms are the PEs at the least positive distance.
    #[test]
    fn neighbours_are_at_the_least_distance() {
        for pes in [1, 2, 4, 16, 32] {
            for t in all().into_iter().chain([Topology::Mesh { r: 1 }, Topology::Mesh { r: 3 }]) {
                let h = t.distances(pes);
                for me in 0..pes {
                    let others = (0..pes).filter(|&p| p != me);
                    let least = others.clone().map(|p| h.hops(me, p)).min();
                    let nearest: Vec<PeId> = others.filter(|&p| Some(h.hops(me, p)) == least).collect();
                    assert_eq!(t.neighbours(me, pes), nearest, "{t} P={pes} PE {me}");
                }
            }
        }
    }

    #[test]
    fn neighbours_are_the_nearest_pes() {
        assert_eq!(Topology::Hypercube.neighbours(5, 16), vec![1, 4, 7, 13]);
        assert_eq!(Topology::FatTree.neighbours(5, 16), vec![4]);
        assert_eq!(Topology::Crossbar.neighbours(1, 4), vec![0, 2, 3]);
        assert_eq!(Topology::Mesh { r: 2 }.neighbours(0, 16).len(), 2); // a corner of the 4 × 4 mesh
        assert_eq!(Topology::Ccc.neighbours(0, 8), vec![1]);
        assert_eq!(Topology::Butterfly.neighbours(0, 8), vec![1, 4]);
    }
}
