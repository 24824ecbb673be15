//! Chapel .dyno library file. Decoder under construction: the probe recognises nothing yet.

use super::Format;
use crate::builder::{Builder, DResult};
use crate::source::ByteSource;

/// The registry entry.
pub const FORMAT: Format = Format {
    name: "chapel-dyno",
    root: "ChapelLibrary",
    description: "Chapel .dyno library file",
    extensions: &["dyno"],
    probe,
    decode,
};

fn probe(_src: &dyn ByteSource) -> bool {
    false
}

fn decode(_b: &mut Builder) -> DResult<()> {
    Ok(())
}
