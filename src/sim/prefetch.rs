//! A hint to the CPU to bring a value into the cache before it is used.
//!
//! The simulator touches one PE's state per event, a random PE among P: at
//! P ≥ 2^14 that state is rarely cached, and every event waited for main
//! memory. The agenda knows the next events ([`super::agenda::Agenda::upcoming`]),
//! so the state of the PE an event a few steps ahead will touch is asked for
//! now, and arrives while the events before it run. A prefetch changes no
//! value the program computes, only when memory is read.

/// Asks for every cache line of `value` (on x86-64; elsewhere nothing).
#[inline]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let start = (value as *const T).cast::<i8>();
        for offset in (0..std::mem::size_of::<T>()).step_by(64) {
            // SAFETY: PREFETCHT0 is a hint: it never faults, whatever the
            // address, and neither reads into the program nor writes; the
            // addresses lie within `value` anyway. SSE, which it needs, is
            // part of the x86-64 baseline.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Prefetching changes nothing, for small, large and odd-sized values.
    #[test]
    fn prefetch_changes_nothing() {
        let big = [7u8; 1000];
        let odd = (1u8, 2u16, 3u64);
        prefetch(&big);
        prefetch(&odd);
        prefetch(&());
        assert!(big.iter().all(|&b| b == 7));
        assert_eq!(odd, (1, 2, 3));
    }
}
