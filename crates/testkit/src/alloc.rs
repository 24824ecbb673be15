//! A global allocator that wraps the system allocator and counts, per thread, the
//! bytes currently allocated and the peak since the last [`measure`] started.
//!
//! Counting per thread lets parallel test threads measure their own decodes.
//! Memory freed on another thread than the one that allocated it is rare in the
//! decoders (they are single-threaded); the counters saturate instead of wrapping.
//!
//! Installed by the fuzz targets (`fuzz/src/lib.rs`), by the core's tests that
//! measure allocations (`crates/core/tests/resource_bounds.rs`, `hostile.rs`,
//! `fuzz_regressions.rs`) and by the `node_cost` example.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The counting allocator; install it with `#[global_allocator]`.
pub struct Counting;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn grow(n: usize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get().saturating_add(n);
        live.set(now);
        let _ = PEAK.try_with(|peak| {
            if now > peak.get() {
                peak.set(now);
            }
        });
    });
}

fn shrink(n: usize) {
    let _ = LIVE.try_with(|live| live.set(live.get().saturating_sub(n)));
}

// SAFETY: every call is forwarded unchanged to the system allocator; the wrapper
// only updates thread-local counters, which never allocate (const-initialised
// `Cell`s without destructors).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrink(layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // Counted as if old and new blocks were live at once, as they are when
            // the block moves: an upper bound on the true peak.
            grow(new_size);
            shrink(layout.size());
        }
        p
    }
}

/// Bytes currently allocated by this thread (as counted since it started).
pub fn live() -> usize {
    LIVE.try_with(Cell::get).unwrap_or(0)
}

/// Runs `f` and returns its result with the peak number of bytes this thread had
/// allocated during the call, above what it had allocated before. Whatever `f`
/// returns is still allocated, so it is included.
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = live();
    let _ = PEAK.try_with(|p| p.set(base));
    let r = f();
    let peak = PEAK.try_with(Cell::get).unwrap_or(base);
    (r, peak.saturating_sub(base))
}
