//! Raw LLVM IR bitcode files (`.bc`): the `BC` `0xC0DE` magic, or the bitcode
//! wrapper header `0x0B17C0DE` around it (as Apple's and Darwin's toolchains
//! write it). The whole file is decoded by [`crate::bitstream`], as the DXIL part
//! of a DirectX Container is.

use super::{has_magic, Format};
use crate::bitstream::{self, Summary, BITCODE_MAGIC, WRAPPER_MAGIC};
use crate::builder::{Builder, DResult};
use crate::source::ByteSource;

/// The raw LLVM bitcode decoder.
pub const FORMAT: Format = Format {
    name: "bitcode",
    root: "Bitcode",
    description: "LLVM IR bitcode (LLVM 3.x and later, raw or wrapped)",
    extensions: &["bc"],
    probe,
    decode,
};

pub(crate) fn probe(src: &dyn ByteSource) -> bool {
    has_magic(src, &BITCODE_MAGIC) || has_magic(src, &WRAPPER_MAGIC)
}

fn decode(b: &mut Builder) -> DResult<()> {
    let root = b.current();
    let len = b.file_len();
    let s = bitstream::decode_bitcode(b, 0, len)?;
    b.set_display(root, summary(len, &s));
    Ok(())
}

/// `LLVM bitcode, 1234 bytes: 5 blocks, 80 records, 3 abbreviation definitions`,
/// saying how many blocks are left undecoded when some are.
pub(crate) fn summary(len: u64, s: &Summary) -> String {
    let n = |k: u64, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    let mut shown = format!(
        "LLVM bitcode, {len} bytes: {}, {}, {}",
        n(s.stats.blocks, "block", "blocks"),
        n(s.stats.records, "record", "records"),
        n(
            s.stats.abbrev_defs,
            "abbreviation definition",
            "abbreviation definitions"
        )
    );
    if s.stats.lazy_blocks > 0 {
        // The counts cover the blocks decoded now; expanding a lazy block later
        // does not update them.
        shown.push_str(&format!(
            " decoded so far; {} not decoded yet",
            n(s.stats.lazy_blocks, "block", "blocks")
        ));
    }
    shown
}
