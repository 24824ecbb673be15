//! DirectX Container (`DXBC` magic): the shader container written by DXC and FXC.
//!
//! Follows `specs/dxcontainer.md` (header, part table, parts) and the proposed
//! SYM0/STR0 parts (`specs/dxcontainer-sym0-str0-proposal.md`). Node names follow
//! LLVM's `obj2yaml` keys (`Header/Version/Major`, `Parts/[3]/PSVInfo/ShaderStage`),
//! so a path printed by LLVM finds the same value here.
//!
//! Each part is decoded inside its own region: a damaged part carries its error and
//! the next part is still decoded. Nothing assumes 4-byte alignment.
//!
//! With a lazy threshold a part's body is decoded when it is opened, and long
//! lists (symbols, strings, instructions, signature parameters, resource
//! bindings, RDAT records) come in pages (`lazy.rs`); the header and the part
//! table are decoded at once.

pub mod checksum;
mod ildn;
mod lazy;
pub mod names;
mod padding;
mod place;
mod program;
mod psv;
mod rdat;
mod rdef;
mod rts0;
mod shex;
mod signature;
mod srci;
mod stat;
mod sym;
#[cfg(test)]
mod testing;
mod vers;
pub mod yaml;

use super::{has_magic, read_exact, u32_at, Embedded, Format};
use crate::builder::{Builder, DResult, Field};
use crate::source::ByteSource;
use crate::tree::{Kind, Name, Value};
pub(crate) use lazy::{
    contiguous_pages, fixed_pages, lazy_part, page_size, pages, Page, SKIM_CHUNK,
};

/// The registry entry.
pub const FORMAT: Format = Format {
    name: "dxcontainer",
    root: "DXContainer",
    description: "DirectX Container (DXBC/DXIL shader container)",
    extensions: &["dxbc", "dxil", "cso", "fxc"],
    module: "llvm",
    probe,
    head_probe: true,
    embedded: Some(Embedded {
        signatures: &[b"DXBC"],
        extent,
    }),
    decode: &decode,
    doc: None,
};

pub(crate) fn probe(src: &dyn ByteSource) -> bool {
    has_magic(src, b"DXBC")
}

/// Size of the fixed container header.
const HEADER_SIZE: u64 = 32;
/// Size of a part header (FourCC + size).
const PART_HEADER_SIZE: u64 = 8;

/// What one part needs to know about the others.
#[derive(Default, Clone, Copy)]
pub(crate) struct Context {
    /// Shader kind from the DXIL (or ILDB) program header, if any.
    pub shader_kind: Option<u64>,
    /// Index of the DXIL part in the part table.
    pub dxil_index: Option<usize>,
    /// Absolute offset and size of the STR0 part's data.
    pub str0: Option<(u64, u64)>,
    /// Absolute offset and size of the SYM0 part's data.
    pub sym0: Option<(u64, u64)>,
    /// Number of parts.
    pub part_count: usize,
}

fn decode(b: &mut Builder) -> DResult<()> {
    let file_len = b.file_len();
    let mut offsets: Vec<u64> = Vec::new();
    let mut part_count = 0u64;
    // A damaged header still lets us decode the parts whose offsets were read.
    let _ = b.group("Header", |b| {
        let magic = b.fourcc("Magic")?;
        if &magic != b"DXBC" {
            b.error(format!("expected magic \"DXBC\", found \"{}\"", crate::builder::fourcc_text(&magic)));
        }
        let hash = b.bytes("Hash", 16)?;
        checksum::show_container_digest(b, hash);
        b.group("Version", |b| {
            b.u16("Major")?;
            b.u16("Minor")?;
            Ok(())
        })?;
        let size = b.u32("FileSize")?;
        if size as u64 != file_len {
            b.error(format!("FileSize says {size} bytes, but the file has {file_len} bytes"));
        }
        part_count = b.u32("PartCount")? as u64;
        let room = file_len.saturating_sub(HEADER_SIZE) / 4;
        if part_count > room {
            b.error(format!(
                "PartCount {part_count} needs {} bytes of part offsets, but only {} bytes follow the header",
                part_count.saturating_mul(4),
                file_len.saturating_sub(HEADER_SIZE)
            ));
        }
        // A long table whose every entry is in the file is shown in pages; the
        // offsets are read now without nodes (laying out the parts needs them).
        if let Some(n) = page_size(b).filter(|&n| part_count > n && part_count <= room) {
            let raw = b.peek_bytes(HEADER_SIZE, part_count * 4);
            offsets = raw
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as u64)
                .collect();
            if offsets.len() as u64 == part_count {
                let list = fixed_pages(HEADER_SIZE, 4, part_count, n);
                return b.array("PartOffsets", |b| {
                    pages(b, &list, move |b, first, next| {
                        for i in first..next {
                            part_offset(b, i, file_len)?;
                        }
                        Ok(())
                    })
                });
            }
            offsets.clear();
        }
        b.array("PartOffsets", |b| {
            for i in 0..part_count {
                offsets.push(part_offset(b, i, file_len)?);
            }
            Ok(())
        })
    });

    let table_end = (HEADER_SIZE + 4 * offsets.len() as u64).min(file_len);
    b.seek(table_end);
    let ctx = Context {
        part_count: offsets.len(),
        ..prescan(b, &offsets)
    };
    let count = offsets.len();
    // Parts laid out one after the other, each inside the file, are shown in
    // pages when there are many: nothing about one of them depends on another.
    if let Some(n) = page_size(b).filter(|&n| count as u64 > n) {
        if let Some(ends) = part_ends(b, &offsets, table_end, file_len) {
            let list = part_pages(&offsets, &ends, n);
            let offs = std::sync::Arc::new(offsets);
            return b.array("Parts", |b| {
                pages(b, &list, move |b, first, next| {
                    for i in first as usize..next as usize {
                        // Laid out one after the other: no part overlaps the one before.
                        let off = offs[i];
                        part_entry(b, i, off, off, table_end, &ctx);
                    }
                    Ok(())
                })
            });
        }
    }
    b.array("Parts", |b| {
        let mut prev_end = table_end;
        for (i, &off) in offsets.iter().enumerate() {
            prev_end = part_entry(b, i, off, prev_end, table_end, &ctx);
        }
        Ok(())
    })
}

/// Entry `i` of the part table: an offset that refers to the part's header
/// (its FourCC and size) when that is inside the file.
fn part_offset(b: &mut Builder, i: u64, file_len: u64) -> DResult<u64> {
    let Field { value: off, id } = b.uint_field(Name::Index(i as u32), 4)?;
    if off.saturating_add(8) <= file_len {
        b.set_reference(id, crate::tree::BitSpan::bytes(off, off + 8));
    }
    Ok(off)
}

/// Where each part ends, if the parts lie one after the other after the part
/// table, each inside the file (a well-formed container); `None` otherwise.
fn part_ends(b: &Builder, offsets: &[u64], table_end: u64, file_len: u64) -> Option<Vec<u64>> {
    let mut prev = table_end;
    let mut ends = Vec::with_capacity(offsets.len());
    for &off in offsets {
        if off < prev || off >= file_len {
            return None;
        }
        let size = b.peek_uint(off.checked_add(4)?, 4)?;
        prev = off.checked_add(PART_HEADER_SIZE + size)?;
        if prev > file_len {
            return None;
        }
        ends.push(prev);
    }
    Some(ends)
}

/// Pages of at most `n` parts, each from its first part's start to its last
/// part's end. A page also ends where bytes lie between two parts: those
/// bytes are then an `unknown` run between pages, as they are between parts
/// when the list is not paged, so a page holds exactly its parts and a page
/// not yet decoded counts its children.
fn part_pages(offsets: &[u64], ends: &[u64], n: u64) -> Vec<Page> {
    let mut out = Vec::new();
    let mut first = 0usize;
    for (i, &end) in ends.iter().enumerate() {
        let full = (i + 1 - first) as u64 >= n;
        let gap = offsets.get(i + 1).is_some_and(|&next| next != end);
        if full || gap || i + 1 == ends.len() {
            out.push(Page {
                first: first as u64,
                next: i as u64 + 1,
                start: offsets[first],
                end,
            });
            first = i + 1;
        }
    }
    out
}

/// Part `i` at `off` in the list of parts, after parts that end at `prev_end`:
/// a part that would start inside the header or past the end of the file gets
/// an empty node carrying the error. Returns where the parts now end.
fn part_entry(
    b: &mut Builder,
    i: usize,
    off: u64,
    prev_end: u64,
    table_end: u64,
    ctx: &Context,
) -> u64 {
    let file_len = b.file_len();
    let name = Name::Index(i as u32);
    let misplaced = if off < table_end {
        Some(format!(
            "part offset 0x{off:X} points inside the container header and part table (which end at 0x{table_end:X})"
        ))
    } else if off >= file_len {
        Some(format!(
            "part offset 0x{off:X} is past the end of the file (0x{file_len:X})"
        ))
    } else {
        None
    };
    if let Some(msg) = misplaced {
        b.error_node(name, prev_end, msg);
        return prev_end;
    }
    // The part's own Size node reports a size that runs past the end.
    let len = match b.peek_uint(off.saturating_add(4), 4) {
        Some(s) => (PART_HEADER_SIZE + s).min(file_len - off),
        None => file_len - off,
    };
    let overlap = off < prev_end;
    b.region(name, Kind::Struct, off, len, |b| {
        let id = b.current();
        if overlap {
            b.set_error(
                id,
                format!("part starts at 0x{off:X}, inside the previous part (which ends at 0x{prev_end:X})"),
            );
        }
        part(b, i, off, ctx)
    });
    prev_end.max(off.saturating_add(len).min(file_len))
}

/// Peeks at the parts other parts depend on (the DXIL program header's shader
/// kind, the STR0 string table), without creating nodes.
fn prescan(b: &Builder, offsets: &[u64]) -> Context {
    let mut ctx = Context::default();
    for (i, &off) in offsets.iter().enumerate() {
        let name = b.peek_bytes(off, 4);
        let size = b.peek_uint(off + 4, 4).unwrap_or(0);
        match name.as_slice() {
            b"DXIL" | b"ILDB" => {
                if ctx.shader_kind.is_none() || name == b"DXIL" {
                    if let Some(k) = b.peek_uint(off + PART_HEADER_SIZE + 2, 2) {
                        ctx.shader_kind = Some(k);
                    }
                }
                if name == b"DXIL" {
                    ctx.dxil_index = Some(i);
                }
            }
            b"STR0" => ctx.str0 = Some((off + PART_HEADER_SIZE, size)),
            b"SYM0" => ctx.sym0 = Some((off + PART_HEADER_SIZE, size)),
            _ => {}
        }
    }
    ctx
}

/// Decodes a part's data: the builder, the data size, what other parts said.
type PartDecoder = fn(&mut Builder, u64, &Context) -> DResult<()>;

/// What a part is matched by when two containers are compared: its FourCC,
/// ASCII case ignored, with the parts that say the same in the forms of two
/// shader model generations (FXC's and DXC's signatures, SM4 and SM5
/// bytecode) under one key, so their contents are compared.
fn part_key(fourcc: &str) -> String {
    let same = match fourcc {
        "ISG1" => "ISGN",
        "OSG1" | "OSG5" => "OSGN",
        "PSG1" => "PCSG",
        "SHDR" => "SHEX",
        other => other,
    };
    same.to_ascii_lowercase()
}

/// Decodes one part (cursor at its header, region bounded by its size).
fn part(b: &mut Builder, index: usize, off: u64, ctx: &Context) -> DResult<()> {
    let cc = b.fourcc("Name")?;
    // The part's row leads with what it is; an odd place follows as a warning.
    let what = crate::builder::fourcc_text(&cc);
    let desc = part_description(&cc);
    let place = if !off.is_multiple_of(4) {
        format!("; ⚠ at 0x{off:X}, not 4-byte aligned")
    } else {
        String::new()
    };
    b.set_display(
        b.current(),
        format!(
            "{what}: {}{place}",
            desc.unwrap_or("part not named by the spec")
        ),
    );
    b.set_key(b.current(), part_key(&what));
    let Field {
        value: size,
        id: size_id,
    } = b.uint_field("Size", 4)?;
    let data = off + PART_HEADER_SIZE;
    if let Some(desc) = desc {
        let id = b.children(b.current())[0];
        b.set_display(id, desc);
    }
    let file_len = b.file_len();
    if data.saturating_add(size) > file_len {
        b.set_error(
            size_id,
            format!(
                "part {index} ({}) claims {size} bytes of data from 0x{data:X}, but the file ends at 0x{file_len:X}",
                crate::builder::fourcc_text(&cc)
            ),
        );
    }
    let body: (&'static str, PartDecoder) = match &cc {
        b"DXIL" | b"ILDB" => ("Program", program::program),
        b"STAT" => {
            // DXC's STAT holds a reflection program (a program header); FXC's holds
            // statistics counters.
            if b.peek_bytes(data + 8, 4) == b"DXIL" {
                ("Program", program::program)
            } else {
                ("Statistics", stat::fxc_stat)
            }
        }
        b"HASH" => ("Hash", program::hash),
        b"SFI0" => ("Flags", program::feature_flags),
        b"ISG1" | b"OSG1" | b"PSG1" => ("Signature", signature::sig1),
        b"ISGN" | b"OSGN" | b"PCSG" => ("Signature", signature::sig_sm4),
        b"OSG5" => ("Signature", signature::sig_osg5),
        b"PSV0" => ("PSVInfo", psv::psv0),
        b"RTS0" => ("RootSignature", rts0::rts0),
        b"ILDN" => ("DebugName", ildn::ildn),
        b"VERS" => ("CompilerVersion", vers::vers),
        b"SRCI" => ("SourceInfo", srci::srci),
        b"RDAT" => ("RuntimeData", rdat::rdat),
        b"SHDR" | b"SHEX" => ("Shader", shex::shex),
        b"RDEF" => ("ResourceDefinitions", rdef::rdef),
        b"SYM0" => ("SymbolTable", sym::sym0),
        b"STR0" => ("StringTable", sym::str0),
        _ => ("Data", raw_part),
    };
    let (name, f) = body;
    let avail = size.min(file_len.saturating_sub(data));
    // The body is decoded when it is opened (see `lazy.rs`): nothing outside it
    // depends on what it holds (what parts need of each other, `prescan` peeks
    // without nodes). A program's bitcode summary counts every block when the
    // decode asks for exact totals, whenever the body is decoded.
    let ctx = *ctx;
    let label = format!("{}, not decoded yet", place::plural(avail, "byte"));
    lazy_part(b, name, data, avail, label, move |b| f(b, avail, &ctx));
    Ok(())
}

fn raw_part(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    if size > 0 {
        b.bytes("Bytes", size)?;
    }
    Ok(())
}

fn part_description(cc: &[u8; 4]) -> Option<&'static str> {
    Some(match cc {
        b"DXIL" => "DXIL program (LLVM bitcode)",
        b"HASH" => "shader hash",
        b"ILDB" => "DXIL program with debug info",
        b"ILDN" => "debug name",
        b"ISG1" => "input signature (SM 5.1+)",
        b"ISGN" => "input signature (SM 4/5)",
        b"OSG1" => "output signature (SM 5.1+)",
        b"OSG5" => "output signature (SM 5, with streams)",
        b"OSGN" => "output signature (SM 4/5)",
        b"PCSG" => "patch constant signature (SM 5)",
        b"PDBI" => "PDB information",
        b"PRIV" => "private data",
        b"PSG1" => "patch constant / primitive signature (SM 6+)",
        b"PSV0" => "pipeline state validation",
        b"RDAT" => "runtime data",
        b"RDEF" => "resource definitions",
        b"RTS0" => "root signature",
        b"SFI0" => "shader feature flags",
        b"SHDR" => "SM4 shader bytecode",
        b"SHEX" => "SM5 shader bytecode",
        b"DXBC" => "shader bytecode",
        b"SRCI" => "shader source information",
        b"STAT" => "shader statistics",
        b"VERS" => "compiler version",
        b"SYM0" => "symbol table (proposed)",
        b"STR0" => "string table (proposed)",
        b"IFCE" => "interfaces",
        _ => return None,
    })
}

/// Reads `count` consecutive `u32`s as an array named `name` (elements `[i]`):
/// their values and the array's node.
pub(crate) fn u32_array(
    b: &mut Builder,
    name: &'static str,
    count: u64,
) -> DResult<Field<Vec<u32>>> {
    b.array_field(name, |b| {
        let mut out = Vec::new();
        for i in 0..count {
            out.push(b.u32(Name::Index(i as u32))?);
        }
        Ok(out)
    })
}

/// Reads a table of NUL-terminated strings filling `[cursor, cursor + size)`:
/// entries are `[i]` nodes (display: their offset from `base`), a trailing run of
/// zero bytes is padding.
pub(crate) fn string_table(
    b: &mut Builder,
    name: &'static str,
    size: u64,
    base: u64,
) -> DResult<()> {
    let start = b.pos();
    let end = start.saturating_add(size);
    b.region(name, Kind::Array, start, size, |b| {
        string_entries(b, end, base)
    });
    Ok(())
}

/// Reads NUL-terminated strings from the cursor up to `end` as `[i]` nodes
/// (display: their offset from `base`); a trailing run of zero bytes after the
/// first string is padding. A table of more strings than a page holds is shown
/// as pages, which a skim over its bytes finds.
pub(crate) fn string_entries(b: &mut Builder, end: u64, base: u64) -> DResult<()> {
    let skim = match page_size(b) {
        Some(n) if end <= b.limit() => Some(skim_strings(b, b.pos(), end, n, |_, _, _| {})),
        _ => None,
    };
    string_entries_after(b, end, base, skim.as_ref())
}

/// [`string_entries`], with the strings `skim` found (if any) shown as pages.
pub(crate) fn string_entries_after(
    b: &mut Builder,
    end: u64,
    base: u64,
    skim: Option<&StrSkim>,
) -> DResult<()> {
    // Where the strings end and zero padding may begin.
    let z = nonzero_end(b, b.pos(), end);
    let mut i = 0u64;
    if let Some(s) = skim.filter(|s| s.marks.len() > 1) {
        let marks = contiguous_pages(&s.marks, s.count, s.pos);
        pages(b, &marks, move |b, first, next| {
            for k in first..next {
                let at = b.pos();
                b.cstr(place::index_name(k))?;
                b.display(format!("offset 0x{:X}", at - base));
            }
            Ok(())
        })?;
        b.seek(s.pos);
        i = s.count;
    }
    while b.pos() < end {
        // The rest is all zero bytes (as far as the file goes).
        if i > 0 && b.pos() >= z {
            let rest = end.min(b.file_len()).saturating_sub(b.pos());
            b.padding("Padding", rest)?;
            break;
        }
        let at = b.pos();
        b.cstr(place::index_name(i))?;
        b.display(format!("offset 0x{:X}", at - base));
        i += 1;
    }
    Ok(())
}

/// What [`skim_strings`] found, without making nodes.
pub(crate) struct StrSkim {
    /// Where every `n`-th string starts: its index and offset.
    pub marks: Vec<(u64, u64)>,
    /// Strings read, each ending with a NUL before the table's end.
    pub count: u64,
    /// Where they end: at the table's end, at zero padding, or at a string
    /// with no NUL before the end.
    pub pos: u64,
}

/// Walks the strings of `[start, end)` as [`string_entries`] reads them,
/// making no nodes: `visit(start, end, index)` sees each string (its span,
/// terminator included); every `n`-th one is a page mark. `end` must not lie
/// past the file.
pub(crate) fn skim_strings(
    b: &Builder,
    start: u64,
    end: u64,
    n: u64,
    mut visit: impl FnMut(u64, u64, u64),
) -> StrSkim {
    let z = nonzero_end(b, start, end);
    let mut marks = Vec::new();
    let mut pos = start;
    let mut i = 0u64;
    let mut win: Vec<u8> = Vec::new();
    let mut win_at = start;
    loop {
        if pos >= end || (i > 0 && pos >= z) {
            break;
        }
        // The NUL ending the string at `pos`.
        let mut from = pos;
        let nul = loop {
            if from < win_at || from >= win_at + win.len() as u64 {
                win_at = from;
                win = b.peek_bytes(from, (end - from).min(SKIM_CHUNK));
                if win.is_empty() {
                    break None;
                }
            }
            let k = (from - win_at) as usize;
            match win[k..].iter().position(|&c| c == 0) {
                Some(p) => break Some(from + p as u64),
                None => from = win_at + win.len() as u64,
            }
        };
        let Some(nul) = nul else {
            break;
        };
        if i.is_multiple_of(n.max(1)) {
            marks.push((i, pos));
        }
        visit(pos, nul + 1, i);
        pos = nul + 1;
        i += 1;
    }
    StrSkim {
        marks,
        count: i,
        pos,
    }
}

/// The offset just past the last non-zero byte of `[start, end)` (clipped to
/// the file), or `start` if there is none.
fn nonzero_end(b: &Builder, start: u64, end: u64) -> u64 {
    let mut to = end.min(b.file_len());
    while to > start {
        let from = to.saturating_sub(SKIM_CHUNK).max(start);
        let bytes = b.peek_bytes(from, to - from);
        if let Some(k) = bytes.iter().rposition(|&c| c != 0) {
            return from + k as u64 + 1;
        }
        to = from;
    }
    start
}

/// Adds a derived value node.
pub(crate) fn derived_u(
    b: &mut Builder,
    name: &'static str,
    v: u64,
    from: crate::tree::BitSpan,
    why: &str,
) -> DResult<()> {
    b.derived(name, Value::U(v), from, Some(why.to_string()))?;
    Ok(())
}

// How far a container found inside another file extends (see `super::embedded`).

/// A DXBC header: FileSize at least the header and part table, within the
/// file, and every part's offset leaving room for its header inside it.
pub(crate) fn extent(src: &dyn ByteSource, offset: u64, room: u64) -> Option<u64> {
    let h = read_exact(src, offset, 32)?;
    let size = u64::from(u32_at(&h, 24, false));
    let parts = u64::from(u32_at(&h, 28, false));
    let table_end = 32 + parts * 4;
    if size > room || table_end > size || parts > 1 << 16 {
        return None;
    }
    let t = read_exact(src, offset + 32, (parts * 4) as usize)?;
    let fits = (0..parts as usize).all(|i| {
        let o = u64::from(u32_at(&t, i * 4, false));
        o >= table_end && o + 8 <= size
    });
    fits.then_some(size)
}

/// `Some("SHEX")` (or `SHDR`) if node `id` is a part holding FXC's SM4/5
/// program: an item of a container's `Parts` whose `Name` says so.
pub(crate) fn sm4_program_part(
    tree: &crate::tree::Tree,
    id: crate::tree::NodeId,
) -> Option<String> {
    let parent = tree.parent(id)?;
    if tree.name(parent).to_string() != "Parts" {
        return None;
    }
    let name = tree
        .children(id)
        .iter()
        .copied()
        .find(|&c| tree.name(c).to_string() == "Name")?;
    match tree.value(name) {
        Some(Value::Str(s)) if s == "SHDR" || s == "SHEX" => Some(s.to_string()),
        _ => None,
    }
}

/// FXC's listing of the SM4/5 program in part `id` (see
/// [`sm4_program_part`]), reading the bytes of its container from `src`.
pub(crate) fn sm4_listing(
    tree: &crate::tree::Tree,
    id: crate::tree::NodeId,
    src: &dyn ByteSource,
) -> Vec<crate::dis::Line> {
    let container = tree.parent(id).and_then(|p| tree.parent(p));
    let (Some(container), part) = (container, tree.span(id)) else {
        return vec![crate::dis::Line::plain(
            "// hexlens: the program's container is not in the tree",
        )];
    };
    let span = tree.span(container);
    let (start, end) = (span.start / 8, span.end.div_ceil(8).min(src.len()));
    let mut bytes = vec![0u8; usize::try_from(end.saturating_sub(start)).unwrap_or(0)];
    let n = src.read_at(start, &mut bytes);
    bytes.truncate(n);
    shex::listing::fxc_listing(&bytes, start, part.start / 8 - start)
}
