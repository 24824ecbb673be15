//! LLVM 1.x bytecode (`llvm` / `llvc` signature): the pre-bitcode format LLVM
//! 1.0–1.9 wrote.
//!
//! Follows `specs/llvm1-bytecode.html` (signature, module block, format
//! information, block identifiers, encoding primitives, global type pool, symbol
//! table) and `specs/notes/llvm1-layout.md` for what later revisions changed
//! (compressed `llvc` files, long and short block headers, alignment, revisions
//! 0–7), checked against LLVM 1.x's bytecode reader and writer.
//!
//! Layout of the tree:
//! - `Signature` (`llvm`, or `llvc` then `Compression`: `'0'` stored, `'1'` zlib,
//!   `'2'` bzip2). A stored (`'0'`) stream is the module itself and is decoded in
//!   place; a zlib or bzip2 stream is one raw `CompressedPayload` run: the tree
//!   model spans only the file's own bytes and has no view of derived
//!   (decompressed) bytes yet, so the module inside is not shown.
//! - `Module`: `BlockId` (1), `Size`, `FormatInformation` (a vbr whose bits are
//!   `BigEndian`, `PointersAre64Bit`, `HasNoEndianness`, `HasNoPointerSize` and
//!   `BytecodeFormatVersion`), alignment `Padding`, then `Blocks` (see [`blocks`]).
//! - `TrailingData`: bytes after the module block, which LLVM's reader ignores.
//!
//! What the spec leaves "to be determined" (module info, constants, instruction
//! lists, compaction tables, type definitions) is a raw `Payload` whose parent's
//! display says so.

mod blocks;
mod context;
mod skim;
mod tables;
mod vbr;

use super::{has_magic, read_exact, u32_at, Embedded, Format};
use crate::builder::{fourcc_text, hex_preview, Builder, DResult, Field};
use crate::source::ByteSource;
use crate::tree::{Kind, Value};
use context::{Ctx, Parent};

/// The registry entry.
pub const FORMAT: Format = Format {
    name: "llvm1-bytecode",
    root: "LLVMBytecode",
    description: "LLVM 1.x bytecode",
    extensions: &["bc"],
    module: "llvm1",
    probe,
    head_probe: true,
    // Compressed bytecode (`llvc`) does not say where it ends: only `llvm`.
    embedded: Some(Embedded {
        signatures: &[b"llvm"],
        extent,
    }),
    decode: &decode,
    doc: None,
};

pub(crate) fn probe(src: &dyn ByteSource) -> bool {
    has_magic(src, b"llvm") || has_magic(src, b"llvc")
}

/// Module block identifier (always written with a long header).
const MODULE_ID: u64 = 1;

fn decode(b: &mut Builder) -> DResult<()> {
    let magic = b.fourcc("Signature")?;
    match &magic {
        b"llvm" => {
            b.display("uncompressed LLVM 1.x bytecode");
            module(b, 4, 0)
        }
        b"llvc" => {
            b.display("compressed LLVM 1.x bytecode (LLVM 1.4 and later)");
            compressed(b)
        }
        _ => {
            b.error(format!(
                "expected the signature \"llvm\" or \"llvc\", found \"{}\"",
                fourcc_text(&magic)
            ));
            Ok(())
        }
    }
}

fn compression_name(c: u64) -> Option<&'static str> {
    Some(match c {
        0x30 => "'0': stored (no compression); the module follows as is",
        0x31 => "'1': zlib",
        0x32 => "'2': bzip2",
        _ => return None,
    })
}

/// After an `llvc` signature: the compression byte and the stream.
fn compressed(b: &mut Builder) -> DResult<()> {
    let Field { value: c, id: c_id } = b.uint_enum_field("Compression", 1, compression_name)?;
    let at = b.pos();
    let len = b.file_len().saturating_sub(at);
    if c == 0x30 {
        // The stored stream is the module; alignment counts from its start.
        return module(b, at, at);
    }
    if compression_name(c).is_none() {
        b.error(format!(
            "expected the compression byte '0', '1' or '2' (0x30–0x32) at 0x4, found 0x{c:02X}"
        ));
    }
    if len == 0 {
        b.set_error(
            c_id,
            format!("expected a compressed stream from 0x{at:X}, found the end of the file"),
        );
        return Ok(());
    }
    let id = b.bytes("CompressedPayload", len)?;
    let kind = match c {
        0x31 => "zlib",
        0x32 => "bzip2",
        _ => "unknown",
    };
    b.set_display(
        id,
        format!(
            "{kind} stream of the module, {len} bytes: not decompressed (the tree shows only the file's own bytes and has no view of derived, decompressed bytes yet)"
        ),
    );
    let head = b.peek_bytes(at, 4);
    let problem = match c {
        0x31 => check_zlib(&head),
        0x32 => check_bzip2(b, at, len),
        _ => None,
    };
    if let Some(p) = problem {
        b.set_error(id, p);
    }
    Ok(())
}

/// A zlib stream starts with a CMF/FLG pair naming deflate whose 16-bit value is a
/// multiple of 31 (RFC 1950).
fn check_zlib(head: &[u8]) -> Option<String> {
    match head {
        [cmf, flg, ..] if cmf & 0x0F == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0 => {
            None
        }
        _ => Some(format!(
            "expected a zlib header (deflate, check bits a multiple of 31) at 0x5, found {}",
            hex_preview(&head[..head.len().min(2)])
        )),
    }
}

/// bzip2's end-of-stream marker (48 bits), followed by a 32-bit CRC and 0–7 bits
/// of padding to a byte boundary.
const BZIP2_EOS: u64 = 0x1772_4538_5090;

/// A bzip2 stream starts `BZh1`…`BZh9` and ends with the end-of-stream marker.
fn check_bzip2(b: &Builder, at: u64, len: u64) -> Option<String> {
    let head = b.peek_bytes(at, 4);
    if !(head.len() == 4 && &head[..3] == b"BZh" && (b'1'..=b'9').contains(&head[3])) {
        return Some(format!(
            "expected a bzip2 stream starting \"BZh1\"–\"BZh9\" at 0x{at:X}, found {}",
            hex_preview(&head)
        ));
    }
    // The last 11 bytes hold the marker, the CRC and the padding.
    let tail_len = len.min(11);
    let tail = b.peek_bytes(at + len - tail_len, tail_len);
    let mut acc: u128 = 0;
    for &c in &tail {
        acc = acc << 8 | u128::from(c);
    }
    let bits = 8 * tail.len() as u32;
    let found = (0..8u32).any(|pad| {
        let shift = pad + 32;
        bits >= shift + 48 && ((acc >> shift) & 0xFFFF_FFFF_FFFF) as u64 == BZIP2_EOS
    });
    if found {
        None
    } else {
        Some(format!(
            "expected bzip2's end-of-stream marker (0x177245385090, then a CRC) in the last bytes before 0x{:X}, found none: the stream looks truncated",
            at + len
        ))
    }
}

/// The module block at `start`; alignment counts from `base`.
fn module(b: &mut Builder, start: u64, base: u64) -> DResult<()> {
    let file_len = b.file_len();
    let avail = file_len.saturating_sub(start);
    let size = b.peek_uint(start + 4, 4);
    let want = size.map_or(avail, |s| s.saturating_add(8));
    let len = want.min(avail);
    b.region("Module", Kind::Struct, start, len, |b| {
        let id = b.u32("BlockId")? as u64;
        if id == MODULE_ID {
            b.display("Module (0x01)");
        } else {
            b.error(format!(
                "expected the Module block identifier 0x01 at 0x{start:X}, found 0x{id:X}"
            ));
        }
        let size = b.u32("Size")? as u64;
        let content = start + 8;
        if size > avail.saturating_sub(8) {
            b.error(format!(
                "the module block claims {size} bytes from 0x{content:X} (to 0x{:X}), but the file ends at 0x{file_len:X}",
                content + size
            ));
        } else {
            b.display(format!("{size} bytes, to 0x{:X}", content + size));
        }
        let rev = format_information(b)?;
        let ctx = Ctx { rev, base };
        let end = b.limit();
        let at = b.pos();
        let pad = ctx.pad_after(at);
        blocks::padding(b, pad, end - at, at, end)?;
        blocks::blocks(b, &ctx, end, 1, Parent::Module, false)
    });
    if want < avail {
        let at = start + want;
        b.seek(at);
        b.bytes("TrailingData", avail - want)?;
        b.display(format!(
            "{} bytes after the module block: LLVM's reader ignores trailing data (a workaround for darwin's ranlib)",
            avail - want
        ));
    }
    Ok(())
}

/// What each format revision is (`specs/notes/llvm1-layout.md` §2).
fn revision_name(rev: u64) -> &'static str {
    match rev {
        0 => "LLVM 1.0 / 1.1: long block headers, alignment",
        1 => "LLVM 1.2: long block headers, alignment",
        2 => "LLVM 1.2.5 (unreleased): long block headers, alignment",
        3 => "LLVM 1.3: short block headers, alignment",
        4 => "LLVM 1.3.1 (unreleased): short block headers",
        5 => "LLVM 1.4 and later 1.x: short block headers",
        6 => "LLVM 1.9 / 2.0 transition: short block headers",
        7 => "LLVM 2.0 development: short block headers",
        _ => "unknown revision: short block headers assumed",
    }
}

/// The format information vbr: four flag bits and the revision. Returns the
/// revision.
fn format_information(b: &mut Builder) -> DResult<u64> {
    let at = b.pos();
    let Some((len, word)) = vbr::peek(b, at, b.limit()) else {
        // Unterminated, too long or too large: the generic reader reports it.
        vbr::uint_vbr(b, "FormatInformation")?;
        return Ok(0);
    };
    let rev = word >> 4;
    let g = b.valued_group_field("FormatInformation", Kind::VarInt, |b| {
        let big = b.bit("BigEndian")?;
        b.display(if big { "big-endian target" } else { "little-endian target" });
        let p64 = b.bit("PointersAre64Bit")?;
        b.display(if p64 { "64-bit pointers" } else { "32-bit pointers" });
        if b.bit("HasNoEndianness")? {
            b.display("the module does not depend on endianness (overrides BigEndian)");
        }
        if b.bit("HasNoPointerSize")? {
            b.display("the module does not depend on pointer size (overrides PointersAre64Bit)");
        }
        let id = b.bits_field("BytecodeFormatVersion", 8 * len - 4)?.id;
        b.set_value(id, Value::U(rev));
        let mut d = format!("revision {rev}: {}", revision_name(rev));
        if len > 1 {
            d.push_str(" (value bits 4 and up; bit 7 of each byte is the vbr's continuation bit)");
        }
        b.set_display(id, d);
        if rev > 7 {
            b.set_error(
                id,
                format!("expected a bytecode revision of 0–7, found {rev}; blocks are read with short headers and their contents shown raw"),
            );
        }
        Ok(())
    })?;
    let id = g.id;
    b.set_value(id, Value::U(word));
    b.set_display(id, hex_preview(&b.peek_bytes(at, len)));
    if word > u64::from(u32::MAX) {
        b.set_error(
            id,
            format!("expected a 32-bit uint_vbr at 0x{at:X}, found the value {word}, which needs more than 32 bits"),
        );
    }
    Ok(rev)
}

// How far a container found inside another file extends (see `super::embedded`).

/// LLVM 1.x bytecode (uncompressed, `llvm`): a module block (id 1) whose size
/// fits. Compressed bytecode (`llvc`) does not say where it ends and is not
/// looked for.
pub(crate) fn extent(src: &dyn ByteSource, offset: u64, room: u64) -> Option<u64> {
    let h = read_exact(src, offset, 12)?;
    let size = u64::from(u32_at(&h, 8, false));
    (u32_at(&h, 4, false) == 1 && size > 0 && 12 + size <= room).then_some(12 + size)
}
