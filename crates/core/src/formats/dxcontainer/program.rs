//! DXIL / ILDB / STAT program header, HASH and SFI0 parts.
//!
//! Program header (24 bytes): shader model version nibbles, shader kind, size in
//! dwords, then the bitcode header (`DXIL` magic, DXIL version, bitcode offset and
//! size); the bitcode itself is decoded by [`crate::bitstream`] under a `DXIL`
//! node spanning exactly its bytes. The HASH part's digest is checked against the
//! MD5 DXC computes (see [`super::checksum`]).

use super::{checksum, names, Context};
use crate::bitstream;
use crate::builder::{flag_names, Builder, DResult};
use crate::tree::{Kind, Value};

/// Program header + bitcode header + bitcode run.
pub(super) fn program(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    let data = b.pos();
    let minor = b.bits("MinorVersion", 4)?;
    let major = b.bits("MajorVersion", 4)?;
    b.padding("Unused", 1)?;
    let kind = b.uint_enum("ShaderKind", 2, names::shader_kind)?;
    let shown = names::shader_kind(kind).unwrap_or("?");
    b.display(format!(
        "{shown} ({}_{major}_{minor})",
        names::profile_prefix(kind)
    ));
    let dwords = b.u32("Size")? as u64;
    if dwords.saturating_mul(4) == size {
        b.display(format!("{dwords} dwords = {} bytes", dwords * 4));
    } else {
        b.error(format!(
            "program size is {dwords} dwords ({} bytes), but the part holds {size} bytes",
            dwords.saturating_mul(4)
        ));
    }
    let bc_header = b.pos();
    let magic = b.fourcc("DXILMagic")?;
    if &magic != b"DXIL" {
        b.error(format!(
            "expected bitcode header magic \"DXIL\", found \"{}\"",
            crate::builder::fourcc_text(&magic)
        ));
    }
    b.u8("DXILMinorVersion")?;
    b.u8("DXILMajorVersion")?;
    b.padding("Unused", 2)?;
    let offset = b.u32("DXILOffset")? as u64;
    b.display(format!("bitcode at 0x{:X}", bc_header + offset));
    let bc_size = b.u32("DXILSize")? as u64;
    let start = bc_header + offset;
    let end = data + size;
    if start < b.pos() || start.saturating_add(bc_size) > end {
        b.error(format!(
            "bitcode of {bc_size} bytes at 0x{start:X} does not fit in the part, which spans 0x{data:X}..0x{end:X}"
        ));
        return Ok(());
    }
    if start > b.pos() {
        let gap = start - b.pos();
        b.padding("Padding", gap)?;
    }
    b.seek(start);
    b.region("DXIL", Kind::Struct, start, bc_size, |b| {
        let id = b.current();
        let s = bitstream::decode_bitcode(b, start, bc_size)?;
        let shown = crate::formats::bitcode::summary(bc_size, &s);
        b.set_display(id, shown);
        Ok(())
    });
    Ok(())
}

/// HASH: flags + 16-byte MD5 digest.
pub(super) fn hash(b: &mut Builder, _size: u64, _ctx: &Context) -> DResult<()> {
    let inc = b.bit("IncludesSource")?;
    b.display(if inc {
        "hash computed including the source"
    } else {
        "hash computed without the source"
    });
    let rest = b.bits("ReservedFlags", 31)?;
    if rest != 0 {
        b.display(format!("unknown flag bits 0x{:X}", rest << 1));
    }
    let at = b.pos();
    let digest = b.bytes("Digest", 16)?;
    checksum::show_shader_hash(b, digest, at, inc);
    Ok(())
}

/// SFI0: a 64-bit feature flag word; each named bit is a child.
pub(super) fn feature_flags(b: &mut Builder, _size: u64, _ctx: &Context) -> DResult<()> {
    let group = b.current();
    let start = b.pos();
    let raw = b.peek_uint(start, 8);
    for name in names::FEATURE_FLAGS {
        b.bit(name)?;
    }
    let rest = b.bits("Reserved", 64 - names::FEATURE_FLAGS.len() as u64)?;
    if rest != 0 {
        b.display(format!(
            "bits not named by the spec are set: 0x{:X}",
            rest << names::FEATURE_FLAGS.len()
        ));
    }
    if let Some(v) = raw {
        b.set_value(group, Value::U(v));
        let table: Vec<(u64, &str)> = names::FEATURE_FLAGS
            .iter()
            .enumerate()
            .map(|(i, n)| (1u64 << i, *n))
            .collect();
        b.set_display(group, flag_names(v, &table));
    }
    Ok(())
}
