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

/// What a decoder is, without the decoder: for a program that lists or names
/// formats but decodes nothing itself (a page whose decoding runs in a worker
/// links none of the decoders through this).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct About {
    /// See [`Format::name`].
    pub name: &'static str,
    /// See [`Format::description`].
    pub description: &'static str,
    /// See [`Format::extensions`].
    pub extensions: &'static [&'static str],
}

impl Format {
    /// The decoder's [`About`].
    pub const fn about(&self) -> About {
        About {
            name: self.name,
            description: self.description,
            extensions: self.extensions,
        }
    }
}

/// [`About`] of every registered decoder, in probe order, evaluated when
/// compiling: it refers to no decoder code.
static CATALOG: &[About] = &[
    dxcontainer::FORMAT.about(),
    dyno::FORMAT.about(),
    llvm1::FORMAT.about(),
    bitcode::FORMAT.about(),
    cdac::FORMAT.about(),
];

/// What every registered decoder is, in probe order (see [`About`]).
pub fn catalog() -> &'static [About] {
    CATALOG
}

/// The [`About`] of the decoder called `name`.
pub fn about(name: &str) -> Option<&'static About> {
    CATALOG.iter().find(|f| f.name == name)
}

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

#[cfg(test)]
mod tests {
    #[test]
    fn the_catalog_says_what_the_registry_holds() {
        let about: Vec<_> = super::formats().iter().map(|f| f.about()).collect();
        assert_eq!(super::catalog(), &about[..]);
        assert_eq!(
            super::about("chapel-dyno").map(|a| a.name),
            Some("chapel-dyno")
        );
        assert!(super::about("nope").is_none());
    }
}
