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

mod names;

use super::place::index_name;
use super::{
    fixed_pages, page_size, pages, skim_strings, string_entries_after, Context, SKIM_CHUNK,
};
use crate::builder::{Builder, DResult, Field};
use crate::tree::{Kind, Value};

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
    let start = b.pos();
    let ctx = *ctx;
    b.array("Symbols", |b| match page_size(b) {
        Some(n) if count > n => pages(
            b,
            &fixed_pages(start, SYMBOL_SIZE, count, n),
            move |b, first, next| symbols(b, first, next, &ctx),
        ),
        _ => symbols(b, 0, count, &ctx),
    })
}

/// Symbols `first..next`, from the cursor on.
fn symbols(b: &mut Builder, first: u64, next: u64, ctx: &Context) -> DResult<()> {
    for i in first..next {
        b.item(i, |b| symbol(b, ctx))?;
    }
    Ok(())
}

fn symbol(b: &mut Builder, ctx: &Context) -> DResult<()> {
    let item = b.current();
    let at = b.pos();
    let long = b.peek_uint(at, 4) == Some(0);
    let name = if long {
        let mut resolved = None;
        let gid = b
            .group_field("Name", |b| {
                b.u32("Zeros")?;
                b.display("zero: the name is in STR0");
                let Field { value: off, id } = b.uint_field("NameOffset", 4)?;
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
            })?
            .id;
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
    let refs = long_name_offsets(b, ctx.sym0);
    let start = base + 4;
    b.region(
        "Strings",
        Kind::Array,
        start,
        end.saturating_sub(start),
        |b| {
            // Suffix-shared entries: offsets that land inside a string (found by a
            // skim, which also says where pages start when the table is paged).
            let n = page_size(b);
            let mut hits: Vec<(u64, u64, u64)> = Vec::new();
            let mut r = 0;
            let skim = (end <= b.limit()).then(|| {
                skim_strings(b, start, end, n.unwrap_or(u64::MAX), |s, e, k| {
                    while r < refs.len() && base.saturating_add(refs[r]) <= s {
                        r += 1;
                    }
                    while r < refs.len() && base.saturating_add(refs[r]) < e {
                        hits.push((refs[r], s, k));
                        r += 1;
                    }
                })
            });
            let paged = skim.as_ref().filter(|_| n.is_some());
            string_entries_after(b, end, base, paged)?;
            // They follow the strings, numbered on from them.
            let first = skim.map_or(0, |s| s.count);
            for (i, (off, s, k)) in (first..).zip(hits) {
                b.seek(base.saturating_add(off));
                b.cstr(index_name(i))?;
                b.display(format!(
                    "offset 0x{off:X}: shares the tail of [{k}] at offset 0x{:X} (suffix-packed)",
                    s - base
                ));
            }
            Ok(())
        },
    );
    b.seek(end);
    if end < base + size {
        let rest = b.peek_bytes(end, base + size - end);
        if rest.iter().all(|&c| c == 0) {
            b.padding("Padding", rest.len() as u64)?;
        }
    }
    Ok(())
}

/// The STR0 offsets of the symbols' long names, sorted, each once (peeked in
/// chunks, without nodes).
fn long_name_offsets(b: &Builder, sym0: Option<(u64, u64)>) -> Vec<u64> {
    let Some((at, len)) = sym0 else {
        return Vec::new();
    };
    let n = (len / SYMBOL_SIZE).min(b.file_len() / SYMBOL_SIZE);
    let per_chunk = (SKIM_CHUNK / SYMBOL_SIZE).max(1);
    let mut refs = Vec::new();
    let mut i = 0;
    while i < n {
        let k = (n - i).min(per_chunk);
        let bytes = b.peek_bytes(at.saturating_add(i * SYMBOL_SIZE), k * SYMBOL_SIZE);
        for j in 0..k as usize {
            let o = j * SYMBOL_SIZE as usize;
            if let Some(rec) = bytes.get(o..o + 8) {
                if rec[..4] == [0; 4] {
                    refs.push(u32::from_le_bytes([rec[4], rec[5], rec[6], rec[7]]) as u64);
                }
            }
        }
        i += k;
    }
    crate::sorted::sort(&mut refs);
    refs.dedup();
    refs
}
