//! RTS0: serialized root signature (versions 1.0, 1.1, 1.2).
use super::Context;
use crate::builder::{Builder, DResult};

pub(super) fn rts0(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    if size > 0 {
        b.bytes("Bytes", size)?;
    }
    Ok(())
}
