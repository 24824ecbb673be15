//! SYM0 / STR0: the proposed symbol table and file-wide string table parts
//! (`specs/dxcontainer-sym0-str0-proposal.md`).
//!
//! SYM0 is a run of 20-byte COFF-style symbols with no header: an 8-byte name
//! (inline when it fits, else four zero bytes and an offset into STR0), `Value`,
//! `SectionIndex` (a part index), `BaseType`, `ComplexType`, `StorageClass` and an
//! unused byte (COFF's auxiliary-symbol count; DXIL has none).
//!
//! STR0 is a COFF string table: a `u32` size (which counts itself), then
//! NUL-terminated strings; offsets count from the size field. Strings may share a
//! tail ("bar" inside "foobar"): such an entry overlaps the string it is a suffix of,
//! and says so in its display.

use super::{names, Context};
use crate::builder::{Builder, DResult};
use crate::tree::{Kind, Name, Value};

/// Size of one symbol.
pub(crate) const SYMBOL_SIZE: u64 = 20;

pub(super) fn sym0(b: &mut Builder, size: u64, ctx: &Context) -> DResult<()> {
    let count = size / SYMBOL_SIZE;
    if !size.is_multiple_of(SYMBOL_SIZE) {
        let id = b.current();
        b.set_error(
            id,
            format!("SYM0 size {size} is not a multiple of the {SYMBOL_SIZE}-byte symbol size; {} bytes left over", size % SYMBOL_SIZE),
        );
    }
    b.array("Symbols", |b| {
        for i in 0..count {
            b.item(i, |b| symbol(b, ctx))?;
        }
        Ok(())
    })
}

fn symbol(b: &mut Builder, ctx: &Context) -> DResult<()> {
    let item = b.current();
    let at = b.pos();
    let long = b.peek_uint(at, 4) == Some(0);
    let name = if long {
        let mut resolved = None;
        b.group("Name", |b| {
            b.u32("Zeros")?;
            b.display("zero: the name is in STR0");
            let off = b.u32("NameOffset")? as u64;
            let id = b.last().expect("node");
            match ctx.str0 {
                Some((start, len)) => {
                    resolved = b.resolve_strref(id, off, start, start.saturating_add(len));
                    if resolved.is_some() && off < 4 {
                        b.set_error(id, format!("offset {off} points into STR0's size field"));
                    }
                }
                None => b.set_error(
                    id,
                    format!(
                        "long name at STR0 offset 0x{off:X}, but the container has no STR0 part"
                    ),
                ),
            }
            Ok(())
        })?;
        let gid = b.last().expect("group");
        if let Some(s) = &resolved {
            b.set_value(gid, Value::Str(s.clone()));
            b.set_display(gid, "long name (in STR0)");
        }
        resolved
    } else {
        let s = b.fixed_str("Name", 8)?;
        b.display("short name (inline)");
        Some(s)
    };
    b.u32("Value")?;
    let sec = b.u32("SectionIndex")? as u64;
    if ctx.dxil_index == Some(sec as usize) {
        b.display(format!("part [{sec}] (DXIL)"));
    } else if sec < ctx.part_count as u64 {
        b.display(format!("part [{sec}]"));
    } else {
        b.error(format!(
            "SectionIndex {sec} is not a part index (the container has {} parts)",
            ctx.part_count
        ));
    }
    b.uint_enum("BaseType", 1, names::sym_base_type)?;
    b.uint_enum("ComplexType", 1, names::sym_complex_type)?;
    b.uint_enum("StorageClass", 1, names::storage_class)?;
    let aux = b.u8("Unused")?;
    if aux != 0 {
        b.error(format!(
            "expected 0 (DXIL symbols have no auxiliary records), found {aux}"
        ));
    }
    if let Some(n) = name {
        b.set_display(item, n);
    }
    Ok(())
}

pub(super) fn str0(b: &mut Builder, size: u64, ctx: &Context) -> DResult<()> {
    let base = b.pos();
    let declared = b.u32("Size")? as u64;
    let end = if declared > size {
        b.error(format!(
            "the string table says it is {declared} bytes, but the part holds {size}"
        ));
        base + size
    } else if declared < 4 {
        b.error(format!(
            "the string table size {declared} is smaller than its own 4-byte size field"
        ));
        base + 4
    } else {
        if declared < size {
            b.display(format!("{} bytes of padding follow", size - declared));
        }
        base + declared
    };
    // Offsets the symbols use, to show strings that share another string's tail.
    let mut refs: Vec<u64> = Vec::new();
    if let Some((sym_at, sym_len)) = ctx.sym0 {
        let n = (sym_len / SYMBOL_SIZE).min(b.file_len() / SYMBOL_SIZE);
        for i in 0..n {
            let at = sym_at + i * SYMBOL_SIZE;
            if b.peek_uint(at, 4) == Some(0) {
                if let Some(off) = b.peek_uint(at + 4, 4) {
                    refs.push(off);
                }
            }
        }
    }
    refs.sort_unstable();
    refs.dedup();
    b.region("Strings", Kind::Array, base + 4, end.saturating_sub(base + 4), |b| {
        let starts = super::string_entries(b, end, base)?;
        let mut i = starts.len() as u32;
        // Suffix-shared entries: offsets that land inside a string.
        for off in refs {
            let at = base.saturating_add(off);
            if let Some(&(s, _, k)) = starts.iter().find(|&&(s, e, _)| at > s && at < e) {
                let keep = b.pos();
                b.seek(at);
                b.cstr(Name::Index(i))?;
                b.display(format!("offset 0x{off:X}: shares the tail of [{k}] at offset 0x{:X} (suffix-packed)", s - base));
                b.seek(keep);
                i += 1;
            }
        }
        Ok(())
    });
    b.seek(end);
    if end < base + size {
        let rest = b.peek_bytes(end, base + size - end);
        if rest.iter().all(|&c| c == 0) {
            b.padding("Padding", rest.len() as u64)?;
        }
    }
    Ok(())
}
