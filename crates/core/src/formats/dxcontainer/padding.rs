//! Padding and reserved fields that must be zero, shared by the ILDN, VERS, SRCI and
//! RDAT decoders.

use crate::builder::{Builder, DResult};

/// `n` rounded up to a multiple of 4.
pub(super) fn align4(n: u64) -> u64 {
    n.saturating_add(3) & !3
}

/// Claims `n` bytes of padding; an error says so if any of them is not zero.
pub(super) fn zero_padding(b: &mut Builder, name: &'static str, n: u64) -> DResult<()> {
    if n == 0 {
        return Ok(());
    }
    let at = b.pos();
    let bytes = b.peek_bytes(at, n);
    b.padding(name, n)?;
    if let Some(k) = bytes.iter().position(|&c| c != 0) {
        b.error(format!(
            "expected zero padding, found 0x{:02X} at 0x{:X}",
            bytes[k],
            at + k as u64
        ));
    }
    Ok(())
}

/// Reads a reserved field that must be zero.
pub(super) fn reserved(b: &mut Builder, name: &'static str, size: u64) -> DResult<()> {
    let v = b.uint(name, size)?;
    if v != 0 {
        b.error(format!("reserved, must be 0; found 0x{v:X}"));
    }
    Ok(())
}
