//! Shared code of the hexlens fuzz targets: the counting allocator, the invariant
//! checks and the decodes the targets drive live in `hexlens-testkit`
//! (`crates/testkit`, shared with the core's tests); this crate installs the
//! allocator and re-exports them. Each target decodes an input and asserts the
//! invariants through [`run`].
//!
//! Run with `fuzz/run.sh SECONDS`; see `fuzz/REPORT.md` for the figures.

pub use hexlens_testkit::{alloc, checks, compare, decoders, query};

pub use compare::pair;
pub use decoders::{decode, decode_for_target};

use hexlens_core::Decoded;

#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

/// Runs one decode under the allocation counter and panics (a libFuzzer crash)
/// if the allocation bound or any tree invariant fails.
pub fn run(data: &[u8], decode: impl FnOnce(&[u8]) -> Decoded) {
    let len = data.len() as u64;
    let (d, peak) = alloc::measure(|| decode(data));
    if let Err(e) = checks::check_alloc(peak, len) {
        panic!("allocation bound: {e}");
    }
    if let Err(e) = checks::check_all(&d, len) {
        panic!("invariant violated ({} decoder): {e}", d.format);
    }
}
