//! SYM0 / STR0: the proposed COFF-style symbol table and string table parts.
use super::Context;
use crate::builder::{Builder, DResult};

pub(super) fn sym0(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    if size > 0 {
        b.bytes("Bytes", size)?;
    }
    Ok(())
}
pub(super) fn str0(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    if size > 0 {
        b.bytes("Bytes", size)?;
    }
    Ok(())
}
