//! UTS child hashing with the x86 SHA extensions, inlined into the expansion
//! loop: a child's message is `parent ‖ i ‖ padding` (24 bytes, one block),
//! so its first 16 message bytes are shared by all siblings and the rest is
//! known. The rounds follow the `sha1` crate's x86 backend (the same
//! instruction sequence); [`expand`] is checked against that crate in tests
//! and is only called where the CPU has the extensions.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::node::{UtsNode, SHA1_INIT};

macro_rules! rounds4 {
    ($h0:ident, $h1:ident, $wk:expr, $i:expr) => {
        _mm_sha1rnds4_epu32($h0, _mm_sha1nexte_epu32($h1, $wk), $i)
    };
}

macro_rules! schedule_rounds4 {
    ($h0:ident, $h1:ident, $w0:expr, $w1:expr, $w2:expr, $w3:expr, $w4:expr, $i:expr) => {
        $w4 = _mm_sha1msg2_epu32(_mm_xor_si128(_mm_sha1msg1_epu32($w0, $w1), $w2), $w3);
        $h1 = rounds4!($h0, $h1, $w4, $i);
    };
}

/// True when this CPU can run [`expand`].
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    return is_x86_feature_detected!("sha") && is_x86_feature_detected!("sse4.1");
    #[allow(unreachable_code)]
    false
}

/// Pushes the children `0..n` of `parent` onto `out`.
///
/// # Safety
/// The CPU must support the `sha`, `ssse3` and `sse4.1` extensions
/// ([`available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub unsafe fn expand(parent: &UtsNode, n: u32, out: &mut Vec<UtsNode>) {
    let word = |k: usize| u32::from_be_bytes(parent.state[4 * k..4 * k + 4].try_into().expect("4 bytes")) as i32;
    let w0_msg = _mm_set_epi32(word(0), word(1), word(2), word(3));
    let w2_msg = _mm_setzero_si128();
    let w3_msg = _mm_set_epi32(0, 0, 0, 24 * 8);
    let abcd0 = _mm_set_epi32(SHA1_INIT[0] as i32, SHA1_INIT[1] as i32, SHA1_INIT[2] as i32, SHA1_INIT[3] as i32);
    let e0 = _mm_set_epi32(SHA1_INIT[4] as i32, 0, 0, 0);
    let mask = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0A0B_0C0D_0E0F);
    out.reserve(n as usize);
    for i in 0..n {
        let (mut w0, mut w1, mut w2, mut w3) = (w0_msg, _mm_set_epi32(word(4), i as i32, i32::MIN, 0), w2_msg, w3_msg);
        let mut w4;
        let mut h0 = abcd0;
        let mut h1 = _mm_add_epi32(e0, w0);
        h1 = _mm_sha1rnds4_epu32(h0, h1, 0);
        h0 = rounds4!(h1, h0, w1, 0);
        h1 = rounds4!(h0, h1, w2, 0);
        h0 = rounds4!(h1, h0, w3, 0);
        schedule_rounds4!(h0, h1, w0, w1, w2, w3, w4, 0);
        schedule_rounds4!(h1, h0, w1, w2, w3, w4, w0, 1);
        schedule_rounds4!(h0, h1, w2, w3, w4, w0, w1, 1);
        schedule_rounds4!(h1, h0, w3, w4, w0, w1, w2, 1);
        schedule_rounds4!(h0, h1, w4, w0, w1, w2, w3, 1);
        schedule_rounds4!(h1, h0, w0, w1, w2, w3, w4, 1);
        schedule_rounds4!(h0, h1, w1, w2, w3, w4, w0, 2);
        schedule_rounds4!(h1, h0, w2, w3, w4, w0, w1, 2);
        schedule_rounds4!(h0, h1, w3, w4, w0, w1, w2, 2);
        schedule_rounds4!(h1, h0, w4, w0, w1, w2, w3, 2);
        schedule_rounds4!(h0, h1, w0, w1, w2, w3, w4, 2);
        schedule_rounds4!(h1, h0, w1, w2, w3, w4, w0, 3);
        schedule_rounds4!(h0, h1, w2, w3, w4, w0, w1, 3);
        schedule_rounds4!(h1, h0, w3, w4, w0, w1, w2, 3);
        schedule_rounds4!(h0, h1, w4, w0, w1, w2, w3, 3);
        schedule_rounds4!(h1, h0, w0, w1, w2, w3, w4, 3);
        let abcd = _mm_shuffle_epi8(_mm_add_epi32(abcd0, h0), mask);
        let e = _mm_extract_epi32(_mm_sha1nexte_epu32(h1, e0), 3) as u32;
        let mut state = [0u8; 20];
        _mm_storeu_si128(state.as_mut_ptr() as *mut __m128i, abcd);
        state[16..].copy_from_slice(&e.to_be_bytes());
        out.push(UtsNode { state, height: parent.height + 1 });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_portable_child_hash() {
        if !available() {
            return; // nothing to compare on this CPU; the portable path is used
        }
        let mut node = UtsNode::root(19);
        for round in 0..50 {
            let mut fast = Vec::new();
            unsafe { expand(&node, 7, &mut fast) };
            let slow: Vec<UtsNode> = (0..7).map(|i| node.child(i)).collect();
            assert_eq!(fast, slow, "round {round}");
            node = fast[round % 7];
        }
    }
}
