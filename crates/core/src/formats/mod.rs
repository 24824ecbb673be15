//! The registry of format decoders: each has a probe (does this look like my
//! format?) and a decode function that fills a [`Builder`].

use crate::builder::{Builder, DResult};
use crate::source::ByteSource;

pub mod bitcode;
pub mod cdac;
pub mod dxcontainer;
pub mod dyno;
pub mod llvm1;

/// A registered decoder.
pub struct Format {
    /// Short stable name used in JSON output and on the command line.
    pub name: &'static str,
    /// Name given to the root node.
    pub root: &'static str,
    /// One line describing the format.
    pub description: &'static str,
    /// File extensions commonly used.
    pub extensions: &'static [&'static str],
    /// True if `src` looks like this format (usually a magic number check).
    pub probe: fn(&dyn ByteSource) -> bool,
    /// Decodes the whole file into the builder's root.
    pub decode: fn(&mut Builder) -> DResult<()>,
}

/// Probe order matters: formats with a magic number at offset 0 come first; the
/// cDAC probe, which searches a whole file (and object files) for an embedded blob,
/// comes last.
static FORMATS: &[Format] = &[
    dxcontainer::FORMAT,
    dyno::FORMAT,
    llvm1::FORMAT,
    bitcode::FORMAT,
    cdac::FORMAT,
];

/// Every registered decoder, in probe order.
pub fn formats() -> &'static [Format] {
    FORMATS
}

/// Finds a decoder by its short name.
pub fn by_name(name: &str) -> Option<&'static Format> {
    FORMATS.iter().find(|f| f.name == name)
}

/// True if `src` starts with `magic`.
pub fn has_magic(src: &dyn ByteSource, magic: &[u8]) -> bool {
    if src.len() < magic.len() as u64 {
        return false;
    }
    let mut buf = vec![0u8; magic.len()];
    src.read_at(0, &mut buf) == magic.len() && buf == magic
}
