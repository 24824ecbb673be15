//! LLVM bitstream container format: the bits of LLVM IR bitcode (and of DXIL,
//! which is LLVM 3.7 bitcode), decoded down to every field.
//!
//! Follows LLVM's "LLVM Bitcode File Format" document (bitcode wrapper header,
//! magic, abbreviation IDs, blocks, data records, abbreviations, BLOCKINFO) and
//! the reader in `llvm/Bitstream/BitstreamReader.h`; block and record names come
//! from `llvm/Bitcode/LLVMBitCodes.h` (see [`names`]).
//!
//! Layout of the tree, under the node the caller opened over the bitcode:
//! - `Wrapper` (only if the bitcode starts with `0x0B17C0DE`): `Magic`, `Version`,
//!   `Offset`, `Size`, `CPUType`; the stream then lies at `Offset`.
//! - `Magic`: `BC` `0xC0DE`.
//! - `Blocks`: the top-level blocks `[i]`. A block's display names it
//!   (`MODULE_BLOCK (8), 263 words, abbrev width 3`); its children are the
//!   `ENTER_SUBBLOCK` header (`AbbrevID`, `BlockID`, `AbbrevWidth`, `Align`,
//!   `NumWords`) and its `Body`: the entries `[i]` and `END_BLOCK`.
//! - A record `[i]` is displayed as its name, code and abbreviation
//!   (`INST_CALL (34), abbrev 4`). Its children: `AbbrevID`, `Code` (for an
//!   unabbreviated record also `NumOps`), and `Ops`, whose `[i]` children are the
//!   operands numbered as LLVM numbers them. An array operand is an `Array` node
//!   (`Length`, then its elements); characters are one `Text` node whose value is
//!   the string. A blob is a `Blob` node (`Length`, `Align`, `Data`, `Pad`).
//!   Literal operands take no bits: they are derived nodes whose reference is the
//!   abbreviation operand that defines them.
//! - A `DEFINE_ABBREV` entry `[i]` shows the abbreviation it defines and the ID it
//!   gets (`DEFINE_ABBREV as abbrev 5: [literal 2, array of fixed(8)]`).
//! - Names where the bitcode gives them: a module's `GLOBALVAR`, `FUNCTION`,
//!   `ALIAS` and `IFUNC` records end with the name they get, from the STRTAB
//!   block (`VERSION` 2 and later) or the module's symbol table (earlier, as in
//!   DXIL): `FUNCTION (8), unabbreviated: "main"`. A `FUNCTION_BLOCK` leads with
//!   the name of the function it holds (`FUNCTION_BLOCK (12) "main", 31 words,
//!   abbrev width 4`), read ahead when the module is entered (`symbols.rs`),
//!   so a lazy block shows it before it is decoded.
//!
//! Every field's span is exact to the bit. Damage inside a block (an undefined
//! abbreviation, a length that runs past the block, a malformed abbreviation) is an
//! error node; decoding continues after the block, where its `NumWords` says it
//! ends. Blocks deeper than [`MAX_DEPTH`] are not decoded.
//!
//! Decoding is eager unless the builder has a lazy threshold
//! ([`crate::Options::lazy_threshold`]): then a block below the top level whose
//! body holds at least that many bytes is skipped by its `NumWords` and becomes a
//! lazy node (a [`LazyBlock`] keeps where it is and the BLOCKINFO state in force
//! there), which [`crate::expand`] decodes later with the same threshold. Top-level
//! blocks (the module) are always decoded at their own level, and BLOCKINFO blocks
//! are never lazy. The decoder reads the stream through a small window, so a
//! skipped block costs neither time nor memory. [`BlockResume`] records, for every
//! block decoded, what is needed to decode its body again on its own
//! ([`Decoder::decode_body`]).

mod abbrev;
mod context;
mod decode;
pub mod names;
pub mod records;
mod skim;
mod symbols;

pub use abbrev::{char6, Abbrev, AbbrevOp, BlockInfo, Encoding};
pub use decode::{BlockResume, Decoder, LazyBlock, Stats, MAX_DEPTH};

use crate::builder::{Builder, DResult, Endian, Field, Stop};
use crate::tree::Kind;

/// The bitcode wrapper header's magic (`0x0B17C0DE`, little-endian).
pub const WRAPPER_MAGIC: [u8; 4] = [0xDE, 0xC0, 0x17, 0x0B];
/// The LLVM IR bitcode magic: `BC` then `0x0`, `0xC`, `0xE`, `0xD` in nibbles.
pub const BITCODE_MAGIC: [u8; 4] = [0x42, 0x43, 0xC0, 0xDE];
/// Size of the bitcode wrapper header.
const WRAPPER_SIZE: u64 = 20;

/// What [`decode_bitcode`] found.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Counts of blocks, records, abbreviation definitions and operands.
    pub stats: Stats,
    /// Every block entered, in stream order, with what is needed to decode it again.
    pub blocks: Vec<BlockResume>,
}

/// Decodes LLVM bitcode held in bytes `[start, start + len)` into the current
/// group (see the module docs for the tree). Returns what it decoded; an error in
/// the wrapper or magic, or at the top level, is recorded in the tree and returns
/// [`Stop`]. Damage inside a block is contained there.
pub fn decode_bitcode(b: &mut Builder, start: u64, len: u64) -> DResult<Summary> {
    // The wrapper's fields are little-endian whatever the enclosing file's order.
    let saved = b.endian();
    b.set_endian(Endian::Little);
    let r = decode_stream(b, start, len);
    b.set_endian(saved);
    r
}

fn decode_stream(b: &mut Builder, start: u64, len: u64) -> DResult<Summary> {
    b.seek(start);
    let end = start.saturating_add(len);
    let head = b.peek_bytes(start, 4);
    let (stream, stream_len) = if head == WRAPPER_MAGIC {
        let mut at = (0, 0);
        b.group("Wrapper", |b| {
            b.u32("Magic")?;
            b.display("bitcode wrapper 0x0B17C0DE");
            b.u32("Version")?;
            let Field { value: off, id: off_node } = b.uint_field("Offset", 4)?;
            let size = b.u32("Size")? as u64;
            b.u32("CPUType")?;
            if off < WRAPPER_SIZE || off.saturating_add(size) > len {
                b.set_error(
                    off_node,
                    format!("the wrapped stream ({size} bytes at offset {off}) does not lie inside the {len} bytes after the wrapper's start"),
                );
                return Err(Stop);
            }
            b.set_display(off_node, format!("stream at 0x{:X}", start + off));
            at = (start + off, size);
            Ok(())
        })?;
        at
    } else {
        (start, len)
    };
    let mut d = Decoder::new(b, start, len, stream);
    b.seek(stream);
    let magic = b.fourcc("Magic")?;
    if magic != BITCODE_MAGIC {
        b.error(format!(
            "expected the LLVM bitcode magic BC C0 DE, found {}",
            crate::builder::hex_preview(&magic)
        ));
        return Err(Stop);
    }
    b.display("'BC' 0xC0DE: LLVM IR bitcode");
    let body = stream + 4;
    let stream_end = stream.saturating_add(stream_len).min(end);
    let mut totals = None;
    if b.exact_totals() && d.lazy.is_some() {
        // Lazy parts only in a stream the skim vouches for, with its counts.
        if stream_end <= b.limit() {
            let skim = d.skim_stream(
                body.saturating_mul(8),
                stream_end.saturating_mul(8),
                d.page_size,
            );
            if let Some((t, pages)) = skim {
                totals = Some(t);
                d.page_index = Some(std::sync::Arc::new(pages));
            }
        }
        if totals.is_none() {
            d.lazy = None;
            d.page_size = None;
        }
        d.vouched = totals.is_some();
    }
    b.region(
        "Blocks",
        Kind::Array,
        body,
        stream_end.saturating_sub(body),
        |b| d.top_level(b),
    );
    if stream_end < end && b.pos() < end {
        b.seek(stream_end);
        b.bytes("Trailing", end - stream_end)?;
        b.display("bytes after the wrapped stream");
    }
    let stats = match totals {
        Some(t) => Stats {
            lazy_blocks: 0,
            ..t
        },
        None => d.stats,
    };
    Ok(Summary {
        stats,
        blocks: d.blocks,
    })
}
