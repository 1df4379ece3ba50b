//! Memory hints for the phases that walk many NPCs' scattered data in a known order.

/// Asks the processor to bring the cache line at `p` in (a hint: nothing changes that the
/// program can observe; nothing at all off x86-64).
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults, whatever the address, and changes nothing the program
    // can observe; `_mm_prefetch` is `unsafe` only for its target feature (SSE), which every
    // x86-64 processor has.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
