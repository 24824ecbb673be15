//! Parts LLVM does not model: ILDN, VERS, SRCI, RDAT, SHDR/SHEX, RDEF, FXC STAT.
use super::Context;
use crate::builder::{Builder, DResult};

fn raw(b: &mut Builder, size: u64) -> DResult<()> {
    if size > 0 {
        b.bytes("Bytes", size)?;
    }
    Ok(())
}
pub(super) fn ildn(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    raw(b, size)
}
pub(super) fn vers(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    raw(b, size)
}
pub(super) fn srci(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    raw(b, size)
}
pub(super) fn rdat(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    raw(b, size)
}
pub(super) fn shex(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    raw(b, size)
}
pub(super) fn rdef(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    raw(b, size)
}
pub(super) fn fxc_stat(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    raw(b, size)
}
