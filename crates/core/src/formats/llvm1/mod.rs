//! LLVM 1.x bytecode. Decoder under construction: the probe recognises nothing yet.

use super::Format;
use crate::builder::{Builder, DResult};
use crate::source::ByteSource;

/// The registry entry.
pub const FORMAT: Format = Format {
    name: "llvm1-bytecode",
    root: "LLVMBytecode",
    description: "LLVM 1.x bytecode",
    extensions: &["bc"],
    probe,
    decode,
};

fn probe(_src: &dyn ByteSource) -> bool {
    false
}

fn decode(_b: &mut Builder) -> DResult<()> {
    Ok(())
}
