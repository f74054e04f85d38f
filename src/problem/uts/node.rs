//! UTS nodes: the splittable SHA-1 random stream and the branching rules of
//! ../shared/uts.md (Olivier et al., LCPC 2006).

use sha1::digest::generic_array::GenericArray;

use super::params::{GeoShape, TreeKind, UtsParams};

/// At most this many children per node (except the BIN root and BALANCED).
pub const MAX_CHILDREN: u32 = 100;

pub(super) const SHA1_INIT: [u32; 5] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0];

/// One UTS node: its 20-byte SHA-1 state and its height (root 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UtsNode {
    /// SHA-1 digest, standard byte order.
    pub state: [u8; 20],
    /// Distance from the root.
    pub height: u32,
}

/// SHA-1 of a message of at most 55 bytes: one padded block, one compression.
fn sha1_short(msg: &[u8]) -> [u8; 20] {
    debug_assert!(msg.len() <= 55);
    let mut block = [0u8; 64];
    block[..msg.len()].copy_from_slice(msg);
    block[msg.len()] = 0x80;
    block[56..].copy_from_slice(&((msg.len() as u64) * 8).to_be_bytes());
    let mut h = SHA1_INIT;
    sha1::compress(&mut h, &[GenericArray::from(block)]);
    let mut out = [0u8; 20];
    for (chunk, word) in out.chunks_exact_mut(4).zip(h) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

impl UtsNode {
    /// The root for seed `r`: SHA-1 of 16 zero bytes then `r` big-endian.
    pub fn root(r: i32) -> UtsNode {
        let mut msg = [0u8; 20];
        msg[16..].copy_from_slice(&r.to_be_bytes());
        UtsNode { state: sha1_short(&msg), height: 0 }
    }

    /// Child `i`: SHA-1 of `state ‖ big_endian_u32(i)`.
    #[inline]
    pub fn child(&self, i: u32) -> UtsNode {
        let mut msg = [0u8; 24];
        msg[..20].copy_from_slice(&self.state);
        msg[20..].copy_from_slice(&i.to_be_bytes());
        UtsNode { state: sha1_short(&msg), height: self.height + 1 }
    }

    /// The node's one random draw: bytes 16..20, big-endian, masked to 31 bits.
    #[inline]
    pub fn draw(&self) -> u32 {
        u32::from_be_bytes([self.state[16], self.state[17], self.state[18], self.state[19]]) & 0x7fff_ffff
    }

    /// The draw as a probability in [0, 1).
    #[inline]
    fn prob(&self) -> f64 {
        self.draw() as f64 / 2_147_483_648.0
    }

    /// Identity for fingerprints: the first 8 bytes of the state.
    #[inline]
    pub fn id(&self) -> u64 {
        u64::from_le_bytes(self.state[..8].try_into().expect("8 bytes"))
    }

    /// Number of children under `p` (../shared/uts.md "Tree types").
    pub fn num_children(&self, p: &UtsParams) -> u32 {
        let d = self.height;
        let n = match p.kind {
            TreeKind::Bin if d == 0 => return p.b0.floor() as u32,
            TreeKind::Bin => self.bin_children(p),
            TreeKind::Geo => self.geo_children(p),
            TreeKind::Hybrid if d == 0 || (d as f64) < p.shift_depth * p.gen_mx as f64 => self.geo_children(p),
            TreeKind::Hybrid => self.bin_children(p),
            TreeKind::Balanced => return if d < p.gen_mx { p.b0.floor() as u32 } else { 0 },
        };
        n.min(MAX_CHILDREN)
    }

    fn bin_children(&self, p: &UtsParams) -> u32 {
        if self.prob() < p.q {
            p.m
        } else {
            0
        }
    }

    fn geo_children(&self, p: &UtsParams) -> u32 {
        let b = geo_branching(p, self.height);
        if b <= 0.0 {
            return 0;
        }
        let prob = 1.0 / (1.0 + b);
        let n = ((1.0 - self.prob()).ln() / (1.0 - prob).ln()).floor();
        n.clamp(0.0, MAX_CHILDREN as f64) as u32
    }
}

/// Target branching factor b_i of a GEO node at height `d`.
fn geo_branching(p: &UtsParams, d: u32) -> f64 {
    let (b0, d, mx) = (p.b0, d as f64, p.gen_mx as f64);
    if d == 0.0 {
        return b0;
    }
    match p.shape {
        GeoShape::Linear => b0 * (1.0 - d / mx),
        GeoShape::ExpDec => b0 * d.powf(-b0.ln() / mx.ln()),
        GeoShape::Cyclic if d > 5.0 * mx => 0.0,
        GeoShape::Cyclic => b0.powf((2.0 * std::f64::consts::PI * d / mx).sin()),
        GeoShape::Fixed if d < mx => b0,
        GeoShape::Fixed => 0.0,
    }
}

/// On the wire (MPI): the 20-byte state, then the height.
impl crate::problem::wire::WireNode for UtsNode {
    const SIZE: usize = 24;
    fn put(&self, out: &mut Vec<u8>) {
        use crate::problem::wire::Put;
        out.extend_from_slice(&self.state);
        out.put_u32(self.height);
    }
    fn get(r: &mut crate::problem::wire::Reader<'_>) -> Result<Self, crate::problem::wire::WireError> {
        Ok(UtsNode { state: r.array()?, height: r.u32()? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &[u8; 20]) -> String {
        s.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn uts_md_test_vectors() {
        let root = UtsNode::root(0);
        assert_eq!(hex(&root.state), "6768033e216468247bd031a0a2d9876d79818f8f");
        assert_eq!(root.draw(), 2038534031);
        let (c0, c1) = (root.child(0), root.child(1));
        assert_eq!(hex(&c0.state), "f6b4e21a6db7135e161960a04c6bd6cab35bd8d3");
        assert_eq!(c0.draw(), 861657299);
        assert_eq!(hex(&c1.state), "5f9ce39723964a09decdaecdd937b9f50107e514");
        assert_eq!(c1.draw(), 17294612);
        let r19 = UtsNode::root(19);
        assert_eq!(hex(&r19.state), "c6988ab70cc9559ae4d6cba254e29a845a85f86b");
        assert_eq!(r19.draw(), 1518729323);
    }

    #[test]
    fn sha1_short_matches_the_sha1_crate() {
        use sha1::Digest;
        for len in [0usize, 1, 20, 24, 55] {
            let msg: Vec<u8> = (0..len as u8).collect();
            let want: [u8; 20] = sha1::Sha1::digest(&msg).into();
            assert_eq!(sha1_short(&msg), want, "len {len}");
        }
    }
}
