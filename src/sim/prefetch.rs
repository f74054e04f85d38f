//! Hints about memory: to the CPU, to bring a value into the cache before
//! it is used ([`prefetch`]); to the kernel, to back a large per-PE array
//! with huge pages ([`huge_vec`]).
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

/// `n` values made by `f`, in memory the kernel is asked (before any of it
/// is touched) to back with 2 MiB pages (`MADV_HUGEPAGE`; Linux only, and
/// only for arrays of 4 MiB or more). An array indexed by a random PE
/// (the simulator's slots, the checker's per-PE records) missed the TLB on
/// nearly every access with 4 KiB pages at P ≥ 2^16; with 2 MiB pages a
/// few hundred entries map it. The values are the same either way.
pub(crate) fn huge_vec<T>(n: usize, f: impl FnMut(usize) -> T) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    advise_huge(v.as_ptr() as usize, n.saturating_mul(std::mem::size_of::<T>()));
    v.extend((0..n).map(f));
    v
}

/// Asks for huge pages on the 2 MiB-aligned part of `[start, start + len)`.
fn advise_huge(start: usize, len: usize) {
    const HUGE: usize = 2 << 20;
    let (lo, hi) = (start.next_multiple_of(HUGE), (start + len) / HUGE * HUGE);
    if len < 2 * HUGE || lo >= hi {
        return;
    }
    #[cfg(target_os = "linux")]
    // SAFETY: [lo, hi) lies within one live allocation of ours (a vector's
    // capacity); MADV_HUGEPAGE only changes how the kernel backs those
    // pages, never their contents, and a failure (no THP) changes nothing.
    unsafe {
        libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE);
    }
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

    /// A huge-page array holds what `f` made, small or large.
    #[test]
    fn huge_vec_holds_its_values() {
        for n in [0, 3, 1 << 20] {
            let v = huge_vec(n, |i| i as u64 * 3);
            assert_eq!(v.len(), n);
            assert!(v.iter().enumerate().all(|(i, &x)| x == i as u64 * 3));
        }
    }
}
