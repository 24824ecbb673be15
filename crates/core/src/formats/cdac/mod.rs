//! .NET cDAC data-descriptor blob (standalone or inside an ELF/COFF/Mach-O/wasm object). Decoder under construction: the probe recognises nothing yet.

use super::Format;
use crate::builder::{Builder, DResult};
use crate::source::ByteSource;

/// The registry entry.
pub const FORMAT: Format = Format {
    name: "cdac",
    root: "CdacDescriptor",
    description: ".NET cDAC data-descriptor blob (standalone or inside an ELF/COFF/Mach-O/wasm object)",
    extensions: &["bin", "o", "obj", "so", "dll", "dylib"],
    probe,
    decode,
};

fn probe(_src: &dyn ByteSource) -> bool {
    false
}

fn decode(_b: &mut Builder) -> DResult<()> {
    Ok(())
}
