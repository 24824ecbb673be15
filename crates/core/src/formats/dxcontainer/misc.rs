//! Parts LLVM does not model: ILDN, VERS, SRCI, RDAT, SHDR/SHEX, RDEF and FXC's STAT
//! (layout notes §8).
//!
//! Sources: DXC's `DxilContainer.h` (ILDN, VERS, SRCI as its `SourceInfoWriter`
//! writes it), `DxilRuntimeReflection.h` and `RDAT_*.inl` (RDAT), the SM4/5
//! tokenized program format (SHDR/SHEX), and Wine's `d3dcompiler` reflection reader
//! (RDEF, STAT). Offsets inside a part are relative to the part data.
//!
//! Structures reached by offset are laid out with [`Claims`] and [`place`]: each
//! byte range is given to one node only, so two references to the same bytes
//! decode them once and overlapping structures are reported instead of being
//! decoded on top of each other (RTS0 uses the same helpers).

use std::collections::BTreeMap;

use super::{names, string_table, u32_array, Context};
use crate::builder::{flag_names, Builder, DResult};
use crate::tree::{Kind, Name, NodeId, Value};

// ----- shared layout helpers ------------------------------------------------------

/// Byte ranges (absolute, half-open) of a part already given to nodes, with what
/// they hold. Ranges never overlap.
#[derive(Default)]
pub(super) struct Claims {
    spans: BTreeMap<u64, (u64, String)>,
    /// Sorted starts of structures still to be placed (see [`Claims::plan`]).
    planned: Vec<u64>,
}

/// A claimed range that a new structure would overlap: start, end, what it holds.
pub(super) type Clash = (u64, u64, String);

impl Claims {
    /// Records `[start, end)` as holding `what`. Empty ranges are ignored.
    pub(super) fn add(&mut self, start: u64, end: u64, what: impl Into<String>) {
        if end > start {
            self.spans.insert(start, (end, what.into()));
        }
    }

    /// The claimed range overlapping `[start, end)`, if any.
    pub(super) fn clash(&self, start: u64, end: u64) -> Option<Clash> {
        if end <= start {
            return None;
        }
        // Ranges are disjoint, so only the last one starting before `end` can overlap.
        self.spans
            .range(..end)
            .next_back()
            .filter(|(_, (e, _))| *e > start)
            .map(|(s, (e, w))| (*s, *e, w.clone()))
    }

    /// Notes where structures that are placed later start, so that [`place`] does
    /// not give an earlier container a span that would swallow them.
    pub(super) fn plan(&mut self, mut starts: Vec<u64>) {
        starts.sort_unstable();
        starts.dedup();
        self.planned = starts;
    }

    /// True if a planned start in `[lo, hi)` is not one of `own` (sorted).
    fn foreign_start(&self, lo: u64, hi: u64, own: &[u64]) -> bool {
        let from = self.planned.partition_point(|&p| p < lo);
        self.planned[from..]
            .iter()
            .take_while(|&&p| p < hi)
            .any(|p| own.binary_search(p).is_err())
    }

    /// The unclaimed stretches of `[from, to)`.
    pub(super) fn gaps(&self, from: u64, to: u64) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        let mut cur = from;
        for (&s, (e, _)) in self.spans.range(..to) {
            if *e <= cur {
                continue;
            }
            if s > cur {
                out.push((cur, s.min(to)));
            }
            cur = cur.max(*e);
        }
        if cur < to {
            out.push((cur, to));
        }
        out
    }
}

/// Says that `what` at `[start, end)` would overlap `clash`.
pub(super) fn clash_msg(what: &str, start: u64, end: u64, clash: &Clash) -> String {
    format!(
        "{what} at 0x{start:X}..0x{end:X} would overlap {} at 0x{:X}..0x{:X}; not decoded",
        clash.2, clash.0, clash.1
    )
}

/// A structure reached by offset: absolute start, length, and the index it is
/// shown under (`[index]`).
pub(super) struct Block {
    pub start: u64,
    pub len: u64,
    pub index: u64,
    pub what: String,
}

impl Block {
    /// Says that this block would overlap `clash`.
    pub(super) fn clash_msg(&self, clash: &Clash) -> String {
        clash_msg(&self.what, self.start, self.start + self.len, clash)
    }
}

/// Places `blocks` as `[index]` regions inside one `name` container spanning them,
/// decoding each with `f(builder, block)`. If that container would overlap bytes
/// already claimed or the start of a structure planned for later
/// ([`Claims::plan`]), each block becomes its own region `name[index]` instead. Blocks
/// that overlap claimed bytes or an earlier block are not decoded; they are returned
/// with what they overlap, for the caller to report on the offset that led there.
pub(super) fn place<'a>(
    b: &mut Builder,
    claims: &mut Claims,
    name: &'static str,
    blocks: &'a [Block],
    mut f: impl FnMut(&mut Builder, &Block) -> DResult<()>,
) -> Vec<(&'a Block, Clash)> {
    let mut local = Claims::default();
    let mut ok: Vec<&Block> = Vec::new();
    let mut rejected = Vec::new();
    for blk in blocks {
        let end = blk.start.saturating_add(blk.len);
        if blk.len == 0 {
            continue;
        }
        if let Some(c) = claims
            .clash(blk.start, end)
            .or_else(|| local.clash(blk.start, end))
        {
            rejected.push((blk, c));
            continue;
        }
        local.add(blk.start, end, blk.what.clone());
        ok.push(blk);
    }
    let (Some(lo), Some(hi)) = (
        ok.iter().map(|k| k.start).min(),
        ok.iter().map(|k| k.start + k.len).max(),
    ) else {
        return rejected;
    };
    let mut own: Vec<u64> = ok.iter().map(|k| k.start).collect();
    own.sort_unstable();
    if claims.clash(lo, hi).is_none() && !claims.foreign_start(lo, hi, &own) {
        b.region(name, Kind::Array, lo, hi - lo, |b| {
            for blk in &ok {
                b.region(
                    index_name(blk.index),
                    Kind::Struct,
                    blk.start,
                    blk.len,
                    |b| f(b, blk),
                );
            }
            Ok(())
        });
        claims.add(lo, hi, name);
    } else {
        for blk in &ok {
            let n = format!("{name}[{}]", blk.index);
            b.region(n, Kind::Struct, blk.start, blk.len, |b| f(b, blk));
            claims.add(blk.start, blk.start + blk.len, blk.what.clone());
        }
    }
    rejected
}

/// Claims `[start, start + len)` for `what`, or reports on `off_id` what it overlaps.
pub(super) fn claim(
    b: &mut Builder,
    claims: &mut Claims,
    start: u64,
    len: u64,
    what: &str,
    off_id: Option<NodeId>,
) -> bool {
    let end = start.saturating_add(len);
    if let Some(c) = claims.clash(start, end) {
        if let Some(id) = off_id {
            b.set_error(id, clash_msg(what, start, end, &c));
        }
        return false;
    }
    claims.add(start, end, what);
    true
}

fn index_name(i: u64) -> Name {
    Name::Index(i.min(u32::MAX as u64) as u32)
}

/// How many `elem`-byte entries of a `count`-entry table at offset `off` fit in a
/// part of `size` bytes. If not all do, an error goes on `count_id` (or on `off_id`
/// when the offset itself is past the end).
#[allow(clippy::too_many_arguments)]
pub(super) fn fit(
    b: &mut Builder,
    count: u64,
    elem: u64,
    off: u64,
    size: u64,
    count_id: Option<NodeId>,
    off_id: Option<NodeId>,
    what: &str,
) -> u64 {
    if count == 0 || elem == 0 {
        return 0;
    }
    if off > size {
        if let Some(id) = off_id.or(count_id) {
            b.set_error(
                id,
                format!("{what} at offset 0x{off:X} start past the end of the part ({size} bytes)"),
            );
        }
        return 0;
    }
    let room = (size - off) / elem;
    if count > room {
        if let Some(id) = count_id {
            b.set_error(
                id,
                format!(
                    "{count} {what} of {elem} bytes at offset 0x{off:X} need {} bytes, but only {} bytes remain in the part; decoding {room}",
                    count.saturating_mul(elem),
                    size - off
                ),
            );
        }
    }
    count.min(room)
}

/// `n` and `what`, with an `s` unless `n` is 1.
pub(super) fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `n` rounded up to a multiple of 4.
fn align4(n: u64) -> u64 {
    n.saturating_add(3) & !3
}

/// Claims `n` bytes of padding; an error says so if any of them is not zero.
fn zero_padding(b: &mut Builder, name: &'static str, n: u64) -> DResult<()> {
    if n == 0 {
        return Ok(());
    }
    let at = b.pos();
    let bytes = b.peek_bytes(at, n);
    b.padding(name, n)?;
    if let Some(k) = bytes.iter().position(|&c| c != 0) {
        b.error(format!(
            "expected zero padding, found 0x{:02X} at 0x{:X}",
            bytes[k],
            at + k as u64
        ));
    }
    Ok(())
}

/// Reads a reserved field that must be zero.
fn reserved(b: &mut Builder, name: &'static str, size: u64) -> DResult<()> {
    let v = b.uint(name, size)?;
    if v != 0 {
        b.error(format!("reserved, must be 0; found 0x{v:X}"));
    }
    Ok(())
}

// ----- ILDN -------------------------------------------------------------------------

/// ILDN (`DxilShaderDebugName`): flags, name length, name, NUL, zero padding to 4.
pub(super) fn ildn(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    reserved(b, "Flags", 2)?;
    let len = b.u16("NameLength")? as u64;
    let len_id = b.last().expect("node");
    let expected = align4(4 + len + 1);
    if expected != size {
        b.set_error(
            len_id,
            format!(
                "a {len}-byte name plus its NUL, padded to 4 bytes, needs a {expected}-byte part, but the part holds {size} bytes"
            ),
        );
    }
    let room = size.saturating_sub(4);
    b.fixed_str("Name", len.min(room))?;
    if len >= room {
        return Ok(());
    }
    let t = b.u8("Terminator")?;
    if t != 0 {
        b.error(format!(
            "expected the name's NUL terminator, found 0x{t:02X}"
        ));
    }
    let rest = b.remaining();
    zero_padding(b, "Padding", rest)
}

// ----- VERS -------------------------------------------------------------------------

/// VERS (`DxilCompilerVersion` as DXC 1.8 writes it): version, flags, commit count,
/// then a list of two NUL-terminated strings (commit SHA, version string).
pub(super) fn vers(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    let base = b.pos();
    let major = b.u16("Major")?;
    let minor = b.u16("Minor")?;
    let root = b.current();
    b.set_display(root, format!("compiler {major}.{minor}"));
    b.uint_flags("VersionFlags", 4, names::VERSION_FLAGS)?;
    b.u32("CommitCount")?;
    let list = b.u32("VersionStringListSizeInBytes")? as u64;
    let expected = if list == 0 { 16 } else { align4(16 + list) };
    if expected != size {
        b.error(format!(
            "a {list}-byte string list after the 16-byte header, padded to 4 bytes, needs a {expected}-byte part, but the part holds {size} bytes"
        ));
    }
    let n = list.min(size.saturating_sub(16));
    if n > 0 {
        b.region("VersionStringList", Kind::Struct, base + 16, n, |b| {
            b.cstr("CommitSha")?;
            if b.remaining() > 0 {
                b.cstr("CustomVersionString")?;
            }
            let rest = b.remaining();
            if rest > 0 {
                b.bytes("Extra", rest)?;
                b.display("bytes after the two version strings");
            }
            Ok(())
        });
    }
    let rest = b.remaining();
    zero_padding(b, "Padding", rest)
}

// ----- SRCI -------------------------------------------------------------------------

/// SRCI (`DxilSourceInfo`): sections of source names, source contents and
/// compiler arguments, each 4-byte aligned.
pub(super) fn srci(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    let end = b.pos() + size;
    let aligned = b.u32("AlignedSizeInBytes")? as u64;
    if aligned != size {
        b.error(format!(
            "source info says it is {aligned} bytes, but the part holds {size} bytes"
        ));
    }
    reserved(b, "Flags", 2)?;
    let count = b.u16("SectionCount")? as u64;
    let count_id = b.last().expect("node");
    b.array("Sections", |b| {
        let mut pos = b.pos();
        for i in 0..count {
            if pos + 8 > end {
                b.set_error(
                    count_id,
                    format!(
                        "{count} sections declared, but only {i} fit before the end of the part at 0x{end:X}"
                    ),
                );
                break;
            }
            let sz = b.peek_uint(pos, 4).unwrap_or(0);
            let len = if sz < 8 { end - pos } else { sz };
            b.region(index_name(i), Kind::Struct, pos, len, |b| {
                srci_section(b, sz)
            });
            if sz < 8 || pos + sz > end {
                break;
            }
            pos += sz;
        }
        Ok(())
    })?;
    let rest = end.saturating_sub(b.pos());
    if rest > 0 {
        zero_padding(b, "Padding", rest)?;
    }
    Ok(())
}

fn srci_section(b: &mut Builder, sz: u64) -> DResult<()> {
    b.u32("AlignedSizeInBytes")?;
    if sz < 8 {
        b.error(format!(
            "a section is at least its 8-byte header, found size {sz}; the rest of the part is not decoded"
        ));
        return Ok(());
    }
    if !sz.is_multiple_of(4) {
        b.error(format!("section size {sz} is not a multiple of 4"));
    }
    reserved(b, "Flags", 2)?;
    let ty = b.uint_enum("Type", 2, names::source_info_section_type)?;
    match ty {
        0 => source_contents(b)?,
        1 => source_names(b)?,
        2 => source_args(b)?,
        _ => {
            let r = b.remaining();
            if r > 0 {
                b.bytes("Data", r)?;
            }
        }
    }
    let r = b.remaining();
    zero_padding(b, "Padding", r)
}

fn source_names(b: &mut Builder) -> DResult<()> {
    reserved(b, "Flags", 4)?;
    let count = b.u32("Count")? as u64;
    let count_id = b.last().expect("node");
    b.u16("EntriesSizeInBytes")?;
    b.array("Entries", |b| {
        for k in 0..count {
            if b.remaining() < 16 {
                b.set_error(
                    count_id,
                    format!("{count} names declared, but only {k} fit in the section"),
                );
                break;
            }
            let at = b.pos();
            let sz = b.peek_uint(at, 4).unwrap_or(0);
            let len = if sz < 16 { b.remaining() } else { sz };
            b.region(index_name(k), Kind::Struct, at, len, |b| {
                b.u32("AlignedSizeInBytes")?;
                if sz < 16 {
                    b.error(format!(
                        "an entry is at least its 16-byte header, found size {sz}"
                    ));
                    return Ok(());
                }
                reserved(b, "Flags", 4)?;
                let n = b.u32("NameSizeInBytes")? as u64;
                b.u32("ContentSizeInBytes")?;
                b.display("the content is in the SourceContents section");
                let r = b.remaining();
                if n > r {
                    b.error(format!(
                        "name of {n} bytes, but only {r} remain in the entry"
                    ));
                }
                b.fixed_str("Name", n.min(r))?;
                let r = b.remaining();
                zero_padding(b, "Padding", r)
            });
            if sz < 16 {
                break;
            }
        }
        Ok(())
    })
}

fn source_contents(b: &mut Builder) -> DResult<()> {
    b.u32("AlignedSizeInBytes")?;
    reserved(b, "Flags", 2)?;
    let compress = b.uint_enum("CompressType", 2, names::source_contents_compress_type)?;
    let size = b.u32("EntriesSizeInBytes")? as u64;
    let size_id = b.last().expect("node");
    let raw = b.u32("UncompressedEntriesSizeInBytes")? as u64;
    let count = b.u32("Count")? as u64;
    let count_id = b.last().expect("node");
    let r = b.remaining();
    if size > r {
        b.set_error(
            size_id,
            format!("{size} bytes of entries declared, but only {r} remain in the section"),
        );
    }
    let n = size.min(r);
    if compress != 0 {
        if n > 0 {
            b.bytes("Entries", n)?;
            b.display(format!(
                "{} compressed, {n} bytes ({raw} bytes uncompressed); not inflated",
                names::source_contents_compress_type(compress).unwrap_or("unknown")
            ));
        }
        return Ok(());
    }
    let start = b.pos();
    b.region("Entries", Kind::Array, start, n, |b| {
        for k in 0..count {
            if b.remaining() < 12 {
                b.set_error(
                    count_id,
                    format!("{count} contents declared, but only {k} fit in the entries"),
                );
                break;
            }
            let at = b.pos();
            let sz = b.peek_uint(at, 4).unwrap_or(0);
            let len = if sz < 12 { b.remaining() } else { sz };
            b.region(index_name(k), Kind::Struct, at, len, |b| {
                b.u32("AlignedSizeInBytes")?;
                if sz < 12 {
                    b.error(format!(
                        "an entry is at least its 12-byte header, found size {sz}"
                    ));
                    return Ok(());
                }
                reserved(b, "Flags", 4)?;
                let n = b.u32("ContentSizeInBytes")? as u64;
                let r = b.remaining();
                if n > r {
                    b.error(format!(
                        "content of {n} bytes, but only {r} remain in the entry"
                    ));
                }
                b.fixed_str("Content", n.min(r))?;
                let r = b.remaining();
                zero_padding(b, "Padding", r)
            });
            if sz < 12 {
                break;
            }
        }
        Ok(())
    });
    Ok(())
}

fn source_args(b: &mut Builder) -> DResult<()> {
    reserved(b, "Flags", 4)?;
    let size = b.u32("SizeInBytes")? as u64;
    let size_id = b.last().expect("node");
    let count = b.u32("Count")? as u64;
    let count_id = b.last().expect("node");
    let r = b.remaining();
    if size > r {
        b.set_error(
            size_id,
            format!("{size} bytes of arguments declared, but only {r} remain in the section"),
        );
    }
    let start = b.pos();
    b.region("Args", Kind::Array, start, size.min(r), |b| {
        for k in 0..count {
            if b.remaining() == 0 {
                b.set_error(
                    count_id,
                    format!("{count} arguments declared, but the argument bytes end after {k}"),
                );
                break;
            }
            b.item(k, |b| {
                b.cstr("Name")?;
                b.cstr("Value")?;
                Ok(())
            })?;
        }
        Ok(())
    });
    Ok(())
}

// ----- RDAT -------------------------------------------------------------------------

const RDAT_NULL: u64 = 0xFFFF_FFFF;

/// Where the RDAT sub-parts that records refer to are (absolute offsets).
#[derive(Default)]
struct RdatInfo {
    /// String buffer data: start, end.
    strings: Option<(u64, u64)>,
    /// Index arrays data: start, number of dwords.
    index: Option<(u64, u64)>,
    /// Root signature blobs of subobjects: (subobject index, offset, size) in RawBytes.
    root_sigs: Vec<(u64, u64, u64)>,
}

/// RDAT (`RuntimeDataHeader`): version, part offsets, then each part (`Type`, `Size`,
/// data): the string buffer as strings, index arrays as rows, record tables as
/// decoded records, raw bytes with the root signatures subobjects point into.
pub(super) fn rdat(b: &mut Builder, size: u64, ctx: &Context) -> DResult<()> {
    let base = b.pos();
    let version = b.u32("Version")?;
    if version != 0x10 {
        b.error(format!(
            "expected RDAT version 0x10 (RDAT_Version_10), found 0x{version:X}; prerelease RDAT (which starts with its part count) is not decoded"
        ));
        let r = b.remaining();
        if r > 0 {
            b.bytes("Data", r)?;
        }
        return Ok(());
    }
    b.display("RDAT_Version_10");
    let count = b.u32("PartCount")? as u64;
    let count_id = b.last();
    let n = fit(b, count, 4, 8, size, count_id, None, "part offsets");
    let offsets = u32_array(b, "PartOffsets", n)?;
    let offset_ids = b.tree().node(b.last().expect("node")).children.clone();
    let mut claims = Claims::default();
    claims.add(base, b.pos(), "the RDAT header");

    let info = rdat_scan(b, base, size, &offsets);
    let mut blocks = Vec::new();
    for (i, &off) in offsets.iter().enumerate() {
        let off = off as u64;
        if off.saturating_add(8) > size {
            b.set_error(
                offset_ids[i],
                format!(
                    "part header at offset 0x{off:X} does not fit in the {size}-byte RDAT part"
                ),
            );
            continue;
        }
        let psize = b.peek_uint(base + off + 4, 4).unwrap_or(0);
        blocks.push(Block {
            start: base + off,
            len: psize.saturating_add(8).min(size - off),
            index: i as u64,
            what: format!("RDAT part {i}"),
        });
    }
    let rejected = place(b, &mut claims, "Parts", &blocks, |b, _blk| {
        rdat_part(b, &info, ctx)
    });
    for (blk, c) in rejected {
        b.set_error(offset_ids[blk.index as usize], blk.clash_msg(&c));
    }
    Ok(())
}

/// Finds the string buffer, the index arrays and the root signature blobs
/// (without creating nodes).
fn rdat_scan(b: &Builder, base: u64, size: u64, offsets: &[u32]) -> RdatInfo {
    let mut info = RdatInfo::default();
    let mut subobjects = None;
    for &off in offsets {
        let at = base + off as u64;
        let (Some(ty), Some(sz)) = (b.peek_uint(at, 4), b.peek_uint(at + 4, 4)) else {
            continue;
        };
        let data = at + 8;
        let sz = sz.min((base + size).saturating_sub(data));
        match ty {
            1 if info.strings.is_none() => info.strings = Some((data, data + sz)),
            2 if info.index.is_none() => info.index = Some((data, sz / 4)),
            6 if subobjects.is_none() => subobjects = Some((data, sz)),
            _ => {}
        }
    }
    if let Some((data, sz)) = subobjects {
        let count = b.peek_uint(data, 4).unwrap_or(0);
        let stride = b.peek_uint(data + 4, 4).unwrap_or(0);
        if stride >= 16 {
            let n = count.min(sz.saturating_sub(8) / stride);
            for r in 0..n {
                let rec = data + 8 + r * stride;
                let kind = b.peek_uint(rec, 4).unwrap_or(u64::MAX);
                if kind == 1 || kind == 2 {
                    let off = b.peek_uint(rec + 8, 4).unwrap_or(0);
                    let len = b.peek_uint(rec + 12, 4).unwrap_or(0);
                    info.root_sigs.push((r, off, len));
                }
            }
        }
    }
    info
}

fn rdat_part(b: &mut Builder, info: &RdatInfo, ctx: &Context) -> DResult<()> {
    let item = b.current();
    let ty = b.uint_enum("Type", 4, names::rdat_part_type)?;
    b.set_display(
        item,
        names::rdat_part_type(ty).map_or_else(|| format!("part type {ty}"), str::to_string),
    );
    let sz = b.u32("Size")? as u64;
    let avail = b.remaining();
    if sz > avail {
        b.error(format!(
            "part claims {sz} bytes of data, but only {avail} remain in the RDAT part"
        ));
    } else if !sz.is_multiple_of(4) {
        b.error(format!("part size {sz} is not a multiple of 4"));
    }
    let n = sz.min(avail);
    if n == 0 {
        return Ok(());
    }
    let data = b.pos();
    match ty {
        1 => string_table(b, "Strings", n, data)?,
        2 => index_arrays(b, data, n)?,
        5 => raw_bytes(b, data, n, info, ctx)?,
        3 | 4 | 6..=21 | 0x10001..=0x10003 => record_table(b, ty, n, info)?,
        _ => {
            b.bytes("Data", n)?;
        }
    }
    Ok(())
}

/// The index arrays: rows of `count, values…`, each named by its dword index (the
/// number records use to refer to it).
fn index_arrays(b: &mut Builder, data: u64, n: u64) -> DResult<()> {
    b.region("IndexArrays", Kind::Array, data, n, |b| {
        while b.remaining() >= 4 {
            let at = b.pos();
            let cnt = b.peek_uint(at, 4).unwrap_or(0);
            let left = b.remaining() / 4 - 1;
            b.item((at - data) / 4, |b| {
                b.u32("Count")?;
                if cnt > left {
                    b.error(format!(
                        "row of {cnt} values at 0x{at:X}, but only {left} dwords remain in the index arrays"
                    ));
                }
                for j in 0..cnt.min(left) {
                    b.u32(index_name(j))?;
                }
                Ok(())
            })?;
        }
        let r = b.remaining();
        if r > 0 {
            b.bytes("Extra", r)?;
        }
        Ok(())
    });
    Ok(())
}

/// RawBytes, with the root signatures that subobjects point at decoded in place.
fn raw_bytes(b: &mut Builder, data: u64, n: u64, info: &RdatInfo, ctx: &Context) -> DResult<()> {
    let mut claims = Claims::default();
    let blocks: Vec<Block> = info
        .root_sigs
        .iter()
        .filter(|(_, off, len)| off.saturating_add(*len) <= n)
        .map(|&(r, off, len)| Block {
            start: data + off,
            len,
            index: r,
            what: format!("subobject {r}'s root signature"),
        })
        .collect();
    place(b, &mut claims, "RootSignatures", &blocks, |b, blk| {
        super::rts0::rts0(b, blk.len, ctx)
    });
    let gaps = claims.gaps(data, data + n);
    for (s, e) in gaps {
        b.seek(s);
        b.bytes("Bytes", e - s)?;
    }
    Ok(())
}

/// Field kinds of RDAT records.
#[derive(Clone, Copy)]
enum F {
    U32,
    U8,
    Hex,
    /// Offset into the string buffer.
    Str,
    /// Index-array row of string offsets.
    StrArray,
    /// Index-array row of values.
    Idx,
    /// Index-array row of record indices into the table of this part type.
    Recs(u64),
    /// Record index into the table of this part type.
    Rec(u64),
    /// UpperBound-style value where 0xFFFFFFFF means unbounded.
    Bound,
    Enum(fn(u64) -> Option<&'static str>),
    Flags(&'static [(u64, &'static str)]),
    Flags16(&'static [(u64, &'static str)]),
    /// Feature flags, low 32 bits of the SFI0 word.
    Feature1,
    /// Shader stages as bits `1 << kind`.
    Stages,
    /// `kind << 16 | major << 4 | minor`.
    Target,
}

const RESOURCE_INFO: &[(&str, F)] = &[
    ("Class", F::Enum(names::resource_class)),
    ("Kind", F::Enum(names::resource_kind)),
    ("ID", F::U32),
    ("Space", F::U32),
    ("LowerBound", F::U32),
    ("UpperBound", F::Bound),
    ("Name", F::Str),
    ("Flags", F::Flags(names::DXIL_RESOURCE_FLAGS)),
];

const FUNCTION_INFO: &[(&str, F)] = &[
    ("Name", F::Str),
    ("UnmangledName", F::Str),
    ("Resources", F::Recs(3)),
    ("FunctionDependencies", F::StrArray),
    ("ShaderKind", F::Enum(names::shader_kind)),
    ("PayloadSizeInBytes", F::U32),
    ("AttributeSizeInBytes", F::U32),
    ("FeatureInfo1", F::Feature1),
    ("FeatureInfo2", F::Flags(names::FEATURE_INFO2_FLAGS)),
    ("ShaderStageFlag", F::Stages),
    ("MinShaderTarget", F::Target),
    ("MinimumExpectedWaveLaneCount", F::U8),
    ("MaximumExpectedWaveLaneCount", F::U8),
    ("ShaderFlags", F::Flags16(names::RDAT_SHADER_FLAGS)),
];

const NODE_ID: &[(&str, F)] = &[("Name", F::Str), ("Index", F::U32)];
const IO_NODE: &[(&str, F)] = &[("IOFlagsAndKind", F::Hex), ("Attribs", F::Recs(8))];
const NODE_SHADER_INFO: &[(&str, F)] = &[
    ("LaunchType", F::Enum(names::node_launch_type)),
    ("GroupSharedBytesUsed", F::U32),
    ("Attribs", F::Recs(9)),
    ("Outputs", F::Recs(10)),
    ("Inputs", F::Recs(10)),
];

/// A record table part: `RecordCount`, `RecordStride`, records.
fn record_table(b: &mut Builder, ty: u64, n: u64, info: &RdatInfo) -> DResult<()> {
    let count = b.u32("RecordCount")? as u64;
    let count_id = b.last().expect("node");
    let stride = b.u32("RecordStride")? as u64;
    if stride == 0 && count > 0 {
        b.error("RecordStride is 0, so no record can be read");
    } else if !stride.is_multiple_of(4) {
        b.error(format!("RecordStride {stride} is not a multiple of 4"));
    }
    let room = n.saturating_sub(8);
    let fits = room.checked_div(stride).unwrap_or(0);
    if count > fits {
        b.set_error(
            count_id,
            format!(
                "{count} records of {stride} bytes need {} bytes, but the part holds {room} after its table header; decoding {fits}",
                count.saturating_mul(stride)
            ),
        );
    }
    let count = count.min(fits);
    let start = b.pos();
    b.region("Records", Kind::Array, start, count * stride, |b| {
        for r in 0..count {
            b.region(
                index_name(r),
                Kind::Struct,
                start + r * stride,
                stride,
                |b| record(b, ty, info),
            );
        }
        Ok(())
    });
    let rest = room.saturating_sub(count * stride);
    if rest > 0 {
        b.seek(start + count * stride);
        b.bytes("Unused", rest)?;
    }
    Ok(())
}

fn record(b: &mut Builder, ty: u64, info: &RdatInfo) -> DResult<()> {
    match ty {
        3 => {
            fields(b, RESOURCE_INFO, info)?;
        }
        4 => {
            let kind = b.peek_uint(b.pos() + 16, 4).unwrap_or(u64::MAX);
            if fields(b, FUNCTION_INFO, info)? && b.remaining() >= 4 {
                let (name, f) = match kind {
                    15 => ("Node", F::Rec(11)),
                    16 => ("RawShaderRef", F::Hex),
                    1 => ("VS", F::Rec(14)),
                    0 => ("PS", F::Rec(15)),
                    3 => ("HS", F::Rec(16)),
                    4 => ("DS", F::Rec(17)),
                    2 => ("GS", F::Rec(18)),
                    5 => ("CS", F::Rec(19)),
                    13 => ("MS", F::Rec(20)),
                    14 => ("AS", F::Rec(21)),
                    _ => ("Unused", F::Hex),
                };
                field(b, name, f, info)?;
            }
        }
        6 => subobject(b, info)?,
        7 => {
            fields(b, NODE_ID, info)?;
        }
        8 => {
            let kind = b.peek_uint(b.pos(), 4).unwrap_or(0);
            if fields(b, &[("AttribKind", F::Enum(names::node_attrib_kind))], info)? {
                match kind {
                    1 => field(b, "OutputID", F::Rec(7), info)?,
                    2 => field(b, "MaxRecords", F::U32, info)?,
                    3 => field(b, "MaxRecordsSharedWith", F::U32, info)?,
                    4 => field(b, "RecordSizeInBytes", F::U32, info)?,
                    5 if b.remaining() >= 4 => {
                        b.group("RecordDispatchGrid", |b| {
                            b.u16("ByteOffset")?;
                            b.bits("NumComponents", 2)?;
                            let t = b.bits("ComponentType", 14)?;
                            b.display(
                                names::dxil_component_type(t)
                                    .map_or_else(|| format!("unknown ({t})"), str::to_string),
                            );
                            Ok(())
                        })?;
                    }
                    6 => field(b, "OutputArraySize", F::U32, info)?,
                    7 => field(b, "AllowSparseNodes", F::U32, info)?,
                    8 => field(b, "RecordAlignmentInBytes", F::U32, info)?,
                    _ => field(b, "Value", F::Hex, info)?,
                }
            }
        }
        9 => {
            let kind = b.peek_uint(b.pos(), 4).unwrap_or(0);
            if fields(
                b,
                &[("AttribKind", F::Enum(names::node_func_attrib_kind))],
                info,
            )? {
                match kind {
                    1 => field(b, "ID", F::Rec(7), info)?,
                    2 => field(b, "NumThreads", F::Idx, info)?,
                    3 => field(b, "ShareInputOf", F::Rec(7), info)?,
                    4 => field(b, "DispatchGrid", F::Idx, info)?,
                    5 => field(b, "MaxRecursionDepth", F::U32, info)?,
                    6 => field(b, "LocalRootArgumentsTableIndex", F::U32, info)?,
                    7 => field(b, "MaxDispatchGrid", F::Idx, info)?,
                    _ => field(b, "Value", F::Hex, info)?,
                }
            }
        }
        10 => {
            fields(b, IO_NODE, info)?;
        }
        11 => {
            fields(b, NODE_SHADER_INFO, info)?;
        }
        _ => {}
    }
    let r = b.remaining();
    if r > 0 {
        b.bytes(if ty <= 11 { "Extra" } else { "Data" }, r)?;
        if ty <= 11 {
            b.display("record bytes beyond the fields this decoder knows");
        }
    }
    Ok(())
}

/// A subobject record: kind, name, and the member of its union the kind selects.
fn subobject(b: &mut Builder, info: &RdatInfo) -> DResult<()> {
    let kind = b.peek_uint(b.pos(), 4).unwrap_or(u64::MAX);
    let head = [("Kind", F::Enum(names::subobject_kind)), ("Name", F::Str)];
    if !fields(b, &head, info)? {
        return Ok(());
    }
    let body: &[(&str, F)] = match kind {
        0 => &[("Flags", F::Flags(names::STATE_OBJECT_FLAGS))],
        1 | 2 => &[("Data", F::Hex), ("Data_Size", F::U32)],
        8 => &[("Subobject", F::Str), ("Exports", F::StrArray)],
        9 => &[
            ("MaxPayloadSizeInBytes", F::U32),
            ("MaxAttributeSizeInBytes", F::U32),
        ],
        10 => &[("MaxTraceRecursionDepth", F::U32)],
        11 => &[
            ("Type", F::Enum(names::hit_group_type)),
            ("AnyHit", F::Str),
            ("ClosestHit", F::Str),
            ("Intersection", F::Str),
        ],
        12 => &[
            ("MaxTraceRecursionDepth", F::U32),
            ("Flags", F::Flags(names::RAYTRACING_PIPELINE_FLAGS)),
        ],
        _ => &[],
    };
    let name = match kind {
        0 => "StateObjectConfig",
        1 | 2 => "RootSignature",
        8 => "SubobjectToExportsAssociation",
        9 => "RaytracingShaderConfig",
        10 => "RaytracingPipelineConfig",
        11 => "HitGroup",
        12 => "RaytracingPipelineConfig1",
        _ => return Ok(()),
    };
    if b.remaining() < 4 {
        return Ok(());
    }
    let union_start = b.pos();
    b.group(name, |b| fields(b, body, info))?;
    if kind == 1 || kind == 2 {
        if let Some(&id) = b.tree().node(b.last().expect("node")).children.first() {
            b.set_display(
                id,
                "offset into RawBytes; decoded as RawBytes/RootSignatures/[record]",
            );
        }
    }
    // The union is 16 bytes (its largest member, HitGroup); the rest is unused.
    let used = b.pos() - union_start;
    let rest = SUBOBJECT_UNION.saturating_sub(used).min(b.remaining());
    if rest > 0 {
        zero_padding(b, "Unused", rest)?;
        b.display("rest of the 16-byte subobject union");
    }
    Ok(())
}

/// Size of the union in a subobject record.
const SUBOBJECT_UNION: u64 = 16;

/// Reads `list` while the record has room; false if it ran out first.
fn fields(b: &mut Builder, list: &[(&'static str, F)], info: &RdatInfo) -> DResult<bool> {
    for &(name, f) in list {
        let need = match f {
            F::U8 => 1,
            F::Flags16(_) => 2,
            _ => 4,
        };
        if b.remaining() < need {
            return Ok(false);
        }
        field(b, name, f, info)?;
    }
    Ok(true)
}

fn field(b: &mut Builder, name: &'static str, f: F, info: &RdatInfo) -> DResult<()> {
    let v = match f {
        F::U8 => return b.u8(name).map(|_| ()),
        F::Flags16(t) => return b.uint_flags(name, 2, t).map(|_| ()),
        F::Enum(t) => return b.uint_enum(name, 4, t).map(|_| ()),
        F::Flags(t) => return b.uint_flags(name, 4, t).map(|_| ()),
        _ => b.u32(name)? as u64,
    };
    let id = b.last().expect("node");
    match f {
        F::Hex => b.display(format!("0x{v:X}")),
        F::Bound if v == RDAT_NULL => b.display("unbounded"),
        F::Str => {
            if let Some((s, e)) = info.strings {
                b.resolve_strref(id, v, s, e);
            } else {
                b.error("string offset, but the RDAT has no string buffer");
            }
        }
        F::StrArray | F::Idx | F::Recs(_) => {
            let text = match rdat_row(b, info, v) {
                Err(msg) => {
                    b.error(msg);
                    return Ok(());
                }
                Ok(None) => "null".to_string(),
                Ok(Some(row)) => match f {
                    F::StrArray => {
                        let list: Vec<String> = row
                            .iter()
                            .map(|&o| match info.strings {
                                Some((s, e)) => short_cstr(b, s.saturating_add(o), e)
                                    .unwrap_or_else(|| format!("<bad offset 0x{o:X}>")),
                                None => format!("0x{o:X}"),
                            })
                            .collect();
                        format!("IndexArrays/[{v}] → [{}]", list.join(", "))
                    }
                    F::Recs(t) => format!(
                        "IndexArrays/[{v}] → {} {:?}",
                        names::rdat_part_type(t).unwrap_or("table"),
                        row
                    ),
                    _ => format!("IndexArrays/[{v}] → {row:?}"),
                },
            };
            b.set_display(id, text);
        }
        F::Rec(t) => {
            if v == RDAT_NULL {
                b.display("null");
            } else {
                b.display(format!(
                    "→ {}[{v}]",
                    names::rdat_part_type(t).unwrap_or("table")
                ));
            }
        }
        F::Feature1 => {
            let table: Vec<(u64, &str)> = names::FEATURE_FLAGS
                .iter()
                .take(32)
                .enumerate()
                .map(|(i, n)| (1u64 << i, *n))
                .collect();
            b.display(flag_names(v, &table));
        }
        F::Stages => {
            let table: Vec<(u64, &str)> = (0..16u64)
                .filter_map(|k| names::shader_kind(k).map(|n| (1u64 << k, n)))
                .collect();
            b.display(flag_names(v, &table));
        }
        F::Target => {
            let kind = v >> 16;
            b.display(format!(
                "{} {}.{}",
                names::shader_kind(kind).unwrap_or("unknown kind"),
                (v >> 4) & 0xF,
                v & 0xF
            ));
        }
        _ => {}
    }
    Ok(())
}

/// The quoted string at `at` (before `end`) for a display, cut after 96 bytes;
/// `None` if `at` is outside the buffer.
fn short_cstr(b: &Builder, at: u64, end: u64) -> Option<String> {
    if at >= end {
        return None;
    }
    let bytes = b.peek_bytes(at, (end - at).min(96));
    Some(match bytes.iter().position(|&c| c == 0) {
        Some(n) => format!("{:?}", String::from_utf8_lossy(&bytes[..n])),
        None => format!("{:?}…", String::from_utf8_lossy(&bytes)),
    })
}

/// Row `i` of the index arrays (`None` for the null reference), at most 16 values.
fn rdat_row(b: &Builder, info: &RdatInfo, i: u64) -> Result<Option<Vec<u64>>, String> {
    if i == RDAT_NULL {
        return Ok(None);
    }
    let Some((start, words)) = info.index else {
        return Err(format!(
            "index-array reference {i}, but the RDAT has no index arrays"
        ));
    };
    let cnt = if i < words {
        b.peek_uint(start + 4 * i, 4).unwrap_or(0)
    } else {
        0
    };
    if i >= words || cnt > words - i - 1 {
        return Err(format!(
            "index-array reference {i} does not name a row inside the {words}-dword index arrays"
        ));
    }
    Ok(Some(
        (0..cnt.min(16))
            .map(|k| b.peek_uint(start + 4 * (i + 1 + k), 4).unwrap_or(0))
            .collect(),
    ))
}

// ----- SHDR / SHEX ------------------------------------------------------------------

const OP_CUSTOMDATA: u64 = 53;

/// SHDR/SHEX: version token, length in dwords, then the SM4/5 token stream, one
/// `[i]` item per instruction (opcode token bits and the remaining dwords).
pub(super) fn shex(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    let base = b.pos();
    let end = base + size;
    let (minor, major, ty) = b.group("Version", |b| {
        let minor = b.bits("MinorVersion", 4)?;
        let major = b.bits("MajorVersion", 4)?;
        b.bits("Reserved", 8)?;
        let ty = b.bits("ProgramType", 16)?;
        b.display(
            names::sm4_program_type(ty).map_or_else(|| format!("unknown ({ty})"), str::to_string),
        );
        Ok((minor, major, ty))
    })?;
    let vid = b.last().expect("node");
    if let Some(raw) = b.peek_uint(base, 4) {
        b.set_value(vid, Value::U(raw));
    }
    // SM4 program types number the stages as DXIL shader kinds do.
    let prefix = if ty <= 5 {
        names::profile_prefix(ty)
    } else {
        "?"
    };
    b.set_display(vid, format!("{prefix}_{major}_{minor}"));
    let len = b.u32("Length")? as u64;
    if len.saturating_mul(4) != size {
        b.error(format!(
            "Length says {len} dwords ({} bytes), but the part holds {size} bytes",
            len.saturating_mul(4)
        ));
    } else {
        b.display(plural(len, "dword"));
    }
    b.array("Instructions", |b| {
        let mut p = base + 8;
        let mut i = 0u64;
        while p + 4 <= end {
            let tok = b.peek_uint(p, 4).unwrap_or(0);
            let op = tok & 0x7FF;
            let dwords = if op == OP_CUSTOMDATA {
                b.peek_uint(p + 4, 4).unwrap_or(0)
            } else {
                (tok >> 24) & 0x7F
            };
            let n = dwords.saturating_mul(4).max(4);
            b.region(index_name(i), Kind::Struct, p, n, |b| {
                instruction(b, op, dwords)
            });
            if dwords == 0 || p + n > end {
                break;
            }
            p += n;
            i += 1;
        }
        if p < end && p + 4 > end {
            b.seek(p);
            b.bytes("Extra", end - p)?;
            b.error(format!(
                "{} bytes after the last instruction, less than a dword",
                end - p
            ));
        }
        Ok(())
    })
}

fn instruction(b: &mut Builder, op: u64, dwords: u64) -> DResult<()> {
    let item = b.current();
    let name = names::sm4_opcode(op).map_or_else(|| format!("unknown ({op})"), str::to_string);
    b.set_display(item, format!("{name}, {}", plural(dwords, "dword")));
    b.bits("OpcodeType", 11)?;
    b.display(name.clone());
    if op == OP_CUSTOMDATA {
        let class = b.bits("DataClass", 21)?;
        b.display(
            names::sm4_customdata_class(class)
                .map_or_else(|| format!("unknown ({class})"), str::to_string),
        );
        if b.remaining() < 4 {
            return b.u32("Length").map(|_| ());
        }
        b.u32("Length")?;
        if dwords < 2 {
            b.error(format!(
                "a custom-data block is at least 2 dwords (opcode and length), found length {dwords}; the rest of the stream is not decoded"
            ));
            return Ok(());
        }
        b.display("dwords, including the opcode token");
    } else {
        b.bits("Controls", 13)?;
        b.bits("Length", 7)?;
        if dwords == 0 {
            b.error("instruction length 0: the stream cannot be walked past this token");
        }
        let ext = b.bit("Extended")?;
        if ext {
            b.display("extended opcode tokens follow");
        }
    }
    let r = b.remaining();
    if r > 0 {
        b.bytes(
            if op == OP_CUSTOMDATA {
                "Data"
            } else {
                "Operands"
            },
            r,
        )?;
    }
    Ok(())
}

// ----- RDEF -------------------------------------------------------------------------

/// RDEF (FXC resource definitions): header with `Target` and creator string, the
/// SM5 `RD11` sizes, bound resources, constant buffers, their variables, the
/// variable types and their members. Names are offsets from the RDEF data start;
/// the strings between the tables are shown as `Strings` areas.
pub(super) fn rdef(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    let base = b.pos();
    let end = base + size;
    let mut strs: Vec<u64> = Vec::new();
    let cb_count = b.u32("ConstantBufferCount")? as u64;
    let cbc_id = b.last();
    let cb_off = b.u32("ConstantBufferOffset")? as u64;
    let cbo_id = b.last();
    let br_count = b.u32("BoundResourceCount")? as u64;
    let brc_id = b.last();
    let br_off = b.u32("BoundResourceOffset")? as u64;
    let bro_id = b.last();
    let (minor, major, ptype) = b.group("Target", |b| {
        let minor = b.u8("MinorVersion")? as u64;
        let major = b.u8("MajorVersion")? as u64;
        let ptype = b.uint_enum("ProgramType", 2, names::rdef_program_type)?;
        Ok((minor, major, ptype))
    })?;
    let tid = b.last().expect("node");
    if let Some(raw) = b.peek_uint(base + 16, 4) {
        b.set_value(tid, Value::U(raw));
    }
    let prefix = match ptype {
        0xFFFE => "vs",
        0xFFFF => "ps",
        0x4353 => "cs",
        0x4753 => "gs",
        0x4853 => "hs",
        0x4453 => "ds",
        _ => "?",
    };
    b.set_display(tid, format!("{prefix}_{major}_{minor}"));
    let flags = b.u32("Flags")? as u64;
    b.display(compile_flags(flags));
    if let Some(o) = b.peek_uint(b.pos(), 4) {
        strs.push(o);
    }
    b.strref("Creator", 4, base, end)?;
    let sm5 = major >= 5;
    let sm51 = (major, minor) >= (5, 1);
    if sm5 {
        b.group("RD11", |b| {
            let magic = b.fourcc("Magic")?;
            if &magic != b"RD11" {
                b.error(format!(
                    "expected \"RD11\" after an SM5 RDEF header, found \"{}\"",
                    crate::builder::fourcc_text(&magic)
                ));
            }
            for (name, what) in [
                ("HeaderSize", "size of this RDEF header"),
                ("ConstantBufferDescSize", "size of a constant buffer entry"),
                ("ResourceBindingDescSize", "size of a bound resource entry"),
                ("VariableDescSize", "size of a variable entry"),
                ("TypeDescSize", "size of a type entry"),
                ("MemberDescSize", "size of a type member entry"),
            ] {
                b.u32(name)?;
                b.display(what);
            }
            b.u32("InterfaceSlotCount")?;
            Ok(())
        })?;
    }
    let mut claims = Claims::default();
    claims.add(base, b.pos(), "the RDEF header");
    let layout = RdefLayout {
        base,
        size,
        br_stride: if sm51 { 40 } else { 32 },
        var_stride: if sm5 { 40 } else { 24 },
        type_size: if sm5 { 36 } else { 16 },
    };
    claims.plan(rdef_starts(
        b,
        &layout,
        (br_count, br_off),
        (cb_count, cb_off),
    ));

    // Bound resources.
    let br_stride = layout.br_stride;
    let n = fit(
        b,
        br_count,
        br_stride,
        br_off,
        size,
        brc_id,
        bro_id,
        "bound resources",
    );
    if n > 0
        && claim(
            b,
            &mut claims,
            base + br_off,
            n * br_stride,
            "the bound resources",
            bro_id,
        )
    {
        b.region(
            "BoundResources",
            Kind::Array,
            base + br_off,
            n * br_stride,
            |b| {
                for i in 0..n {
                    b.item(i, |b| {
                        strs.extend(b.peek_uint(b.pos(), 4));
                        b.strref("Name", 4, base, end)?;
                        b.uint_enum("Type", 4, names::shader_input_type)?;
                        let rt = b.uint_enum("ReturnType", 4, names::return_type)?;
                        if rt == 0 {
                            b.display("none (not a typed texture or buffer)");
                        }
                        b.uint_enum("Dimension", 4, names::srv_dimension)?;
                        let ns = b.u32("NumSamples")?;
                        if ns == u32::MAX {
                            b.display("not multisampled");
                        }
                        b.u32("BindPoint")?;
                        b.u32("BindCount")?;
                        b.uint_flags("Flags", 4, names::SHADER_INPUT_FLAGS)?;
                        if sm51 {
                            b.u32("Space")?;
                            b.u32("ID")?;
                        }
                        Ok(())
                    })?;
                }
                Ok(())
            },
        );
    }

    // Constant buffers.
    let n = fit(
        b,
        cb_count,
        24,
        cb_off,
        size,
        cbc_id,
        cbo_id,
        "constant buffers",
    );
    let mut cbs: Vec<(u64, u64, NodeId, NodeId)> = Vec::new(); // count, offset, count id, offset id
    if n > 0
        && claim(
            b,
            &mut claims,
            base + cb_off,
            n * 24,
            "the constant buffers",
            cbo_id,
        )
    {
        b.region("ConstantBuffers", Kind::Array, base + cb_off, n * 24, |b| {
            for i in 0..n {
                b.item(i, |b| {
                    strs.extend(b.peek_uint(b.pos(), 4));
                    b.strref("Name", 4, base, end)?;
                    let vc = b.u32("VariableCount")? as u64;
                    let vc_id = b.last().expect("node");
                    let vo = b.u32("VariableOffset")? as u64;
                    let vo_id = b.last().expect("node");
                    cbs.push((vc, vo, vc_id, vo_id));
                    b.u32("Size")?;
                    b.uint_flags("Flags", 4, names::CBUFFER_FLAGS)?;
                    b.uint_enum("Type", 4, names::cbuffer_type)?;
                    Ok(())
                })?;
            }
            Ok(())
        });
    }

    // Variables of each constant buffer.
    let var_stride = layout.var_stride;
    let mut blocks = Vec::new();
    let mut counts = Vec::new();
    for (i, &(vc, vo, vc_id, vo_id)) in cbs.iter().enumerate() {
        let k = fit(
            b,
            vc,
            var_stride,
            vo,
            size,
            Some(vc_id),
            Some(vo_id),
            "variables",
        );
        counts.push(k);
        blocks.push(Block {
            start: base + vo,
            len: k * var_stride,
            index: i as u64,
            what: format!("constant buffer {i}'s variables"),
        });
    }
    // Type offsets with the first node referring to each (and where each is in
    // that list); default values to place.
    let mut types: Vec<(u64, NodeId)> = Vec::new();
    let mut type_index: BTreeMap<u64, usize> = BTreeMap::new();
    let mut defaults: Vec<(Block, NodeId)> = Vec::new();
    let rejected = place(b, &mut claims, "Variables", &blocks, |b, blk| {
        for j in 0..counts[blk.index as usize] {
            b.item(j, |b| {
                strs.extend(b.peek_uint(b.pos(), 4));
                b.strref("Name", 4, base, end)?;
                b.u32("StartOffset")?;
                let vsize = b.u32("Size")? as u64;
                b.uint_flags("Flags", 4, names::VARIABLE_FLAGS)?;
                let to = b.u32("TypeOffset")? as u64;
                let to_id = b.last().expect("node");
                type_index.entry(to).or_insert_with(|| {
                    types.push((to, to_id));
                    types.len() - 1
                });
                let k = type_index.get(&to).copied().unwrap_or(0);
                b.set_display(to_id, format!("type {k} at 0x{:X}", base + to));
                let dv = b.u32("DefaultValueOffset")? as u64;
                let dv_id = b.last().expect("node");
                if dv == 0 {
                    b.display("none");
                } else {
                    let g = defaults.len() as u64;
                    b.display(format!("default value {g} at 0x{:X}", base + dv));
                    defaults.push((
                        Block {
                            start: base + dv,
                            len: vsize.min(size.saturating_sub(dv)),
                            index: g,
                            what: "a default value".into(),
                        },
                        dv_id,
                    ));
                }
                if sm5 {
                    for name in ["StartTexture", "TextureSize", "StartSampler", "SamplerSize"] {
                        let v = b.u32(name)?;
                        if v == u32::MAX {
                            b.display("none");
                        }
                    }
                }
                Ok(())
            })?;
        }
        Ok(())
    });
    for (blk, c) in rejected {
        b.set_error(cbs[blk.index as usize].3, blk.clash_msg(&c));
    }

    // Default values.
    let dblocks: Vec<Block> = defaults
        .iter()
        .map(|(k, _)| Block {
            start: k.start,
            len: k.len,
            index: k.index,
            what: k.what.clone(),
        })
        .collect();
    let rejected = place(b, &mut claims, "DefaultValues", &dblocks, |b, blk| {
        b.bytes("Value", blk.len).map(|_| ())
    });
    for (blk, c) in rejected {
        b.set_error(defaults[blk.index as usize].1, blk.clash_msg(&c));
    }

    // Types, following member types; at most one per 16 bytes of the part.
    let tsize = layout.type_size;
    let mut k = 0;
    let mut members: Vec<(u64, u64, u64)> = Vec::new(); // type index, offset, count
    while k < types.len() && types.len() as u64 <= size / 16 + 1 {
        let (to, _) = types[k];
        let at = base + to;
        let cnt = b.peek_uint(at + 10, 2).unwrap_or(0);
        let mo = b.peek_uint(at + 12, 4).unwrap_or(0);
        if cnt > 0 && to + tsize <= size {
            let m = cnt.min(size.saturating_sub(mo) / 12);
            members.push((k as u64, mo, m));
            for j in 0..m {
                if let Some(mt) = b.peek_uint(base + mo + 12 * j + 4, 4) {
                    let from = types[k].1;
                    type_index.entry(mt).or_insert_with(|| {
                        types.push((mt, from));
                        types.len() - 1
                    });
                }
            }
        }
        k += 1;
    }
    let mut tblocks = Vec::new();
    for (k, &(to, id)) in types.iter().enumerate() {
        if to.saturating_add(tsize) > size {
            b.set_error(
                id,
                format!(
                    "a {tsize}-byte type at offset 0x{to:X} does not fit in the {size}-byte part"
                ),
            );
            continue;
        }
        tblocks.push(Block {
            start: base + to,
            len: tsize,
            index: k as u64,
            what: format!("type {k}"),
        });
    }
    let rejected = place(b, &mut claims, "Types", &tblocks, |b, _blk| {
        b.uint_enum("Class", 2, names::variable_class)?;
        b.uint_enum("Type", 2, names::variable_type)?;
        b.u16("Rows")?;
        b.u16("Columns")?;
        b.u16("Elements")?;
        let m = b.u16("Members")?;
        let mo = b.u32("MemberOffset")?;
        if m > 0 {
            b.display(format!("members at 0x{:X}", base + mo as u64));
        }
        if sm5 {
            u32_array(b, "Unidentified", 4)?;
            b.display("four dwords Wine's reader skips; their meaning is not documented");
            strs.extend(b.peek_uint(b.pos(), 4));
            b.strref("Name", 4, base, end)?;
        }
        Ok(())
    });
    for (blk, c) in rejected {
        b.set_error(types[blk.index as usize].1, blk.clash_msg(&c));
    }
    let mblocks: Vec<Block> = members
        .iter()
        .map(|&(k, mo, m)| Block {
            start: base + mo,
            len: m * 12,
            index: k,
            what: format!("type {k}'s members"),
        })
        .collect();
    let rejected = place(b, &mut claims, "Members", &mblocks, |b, blk| {
        for j in 0..blk.len / 12 {
            b.item(j, |b| {
                strs.extend(b.peek_uint(b.pos(), 4));
                b.strref("Name", 4, base, end)?;
                let t = b.u32("TypeOffset")? as u64;
                if let Some(i) = type_index.get(&t) {
                    b.display(format!("type {i} at 0x{:X}", base + t));
                }
                b.u32("Offset")?;
                Ok(())
            })?;
        }
        Ok(())
    });
    for (blk, c) in rejected {
        b.set_error(types[blk.index as usize].1, blk.clash_msg(&c));
    }

    // The strings between the tables.
    let mut strs: Vec<u64> = strs.iter().map(|&o| base.saturating_add(o)).collect();
    strs.sort_unstable();
    for (s, e) in claims.gaps(base, end) {
        let lo = strs.partition_point(|&a| a < s);
        let hi = strs.partition_point(|&a| a < e);
        let here: Vec<u64> = strs[lo..hi].iter().map(|&a| a - base).collect();
        if !here.is_empty() {
            super::signature::strings_area(b, base, s, e, here)?;
        }
    }
    Ok(())
}

/// Entry sizes of an RDEF, which depend on its target.
struct RdefLayout {
    base: u64,
    size: u64,
    br_stride: u64,
    var_stride: u64,
    type_size: u64,
}

/// Where the RDEF's tables, variables, types, member tables, default values and
/// strings start (absolute), from peeked values. Only used to keep containers from
/// spanning each other; each loop is bounded by the part size.
fn rdef_starts(b: &Builder, l: &RdefLayout, br: (u64, u64), cb: (u64, u64)) -> Vec<u64> {
    let (base, size) = (l.base, l.size);
    let peek = |rel: u64| b.peek_uint(base.saturating_add(rel), 4).unwrap_or(u64::MAX);
    let mut out = Vec::new();
    let mut push = |rel: u64| {
        if rel < size {
            out.push(base + rel);
        }
    };
    push(peek(24)); // creator
    push(br.1);
    for i in 0..br.0.min(size / l.br_stride) {
        push(peek(br.1.saturating_add(i * l.br_stride)));
    }
    push(cb.1);
    let mut types: Vec<u64> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut vars_left = size / l.var_stride;
    for i in 0..cb.0.min(size / 24) {
        let at = cb.1.saturating_add(24 * i);
        push(peek(at));
        let (vc, vo) = (peek(at.saturating_add(4)), peek(at.saturating_add(8)));
        push(vo);
        for j in 0..vc.min(vars_left) {
            let va = vo.saturating_add(j * l.var_stride);
            push(peek(va));
            let t = peek(va.saturating_add(16));
            push(t);
            let dv = peek(va.saturating_add(20));
            if dv != 0 {
                push(dv);
            }
            if seen.insert(t) {
                types.push(t);
            }
        }
        vars_left = vars_left.saturating_sub(vc);
    }
    let mut k = 0;
    while k < types.len() && k as u64 <= size / 16 {
        let t = types[k];
        let count = b
            .peek_uint(base.saturating_add(t).saturating_add(10), 2)
            .unwrap_or(0);
        let mo = peek(t.saturating_add(12));
        if l.type_size == 36 {
            push(peek(t.saturating_add(32)));
        }
        if count > 0 {
            push(mo);
            for m in 0..count.min(size / 12) {
                push(peek(mo.saturating_add(12 * m)));
                let mt = peek(mo.saturating_add(12 * m).saturating_add(4));
                push(mt);
                if seen.insert(mt) {
                    types.push(mt);
                }
            }
        }
        k += 1;
    }
    out
}

/// Names the `D3DCOMPILE_*` bits of an RDEF `Flags` word.
fn compile_flags(v: u64) -> String {
    let level = match v & 0xC000 {
        0x4000 => Some("OptimizationLevel0"),
        0xC000 => Some("OptimizationLevel2"),
        0x8000 => Some("OptimizationLevel3"),
        _ => None,
    };
    let rest = flag_names(v & !0xC000, names::COMPILE_FLAGS);
    match (level, v & !0xC000) {
        (Some(l), 0) => l.to_string(),
        (Some(l), _) => format!("{rest} | {l}"),
        (None, _) => rest,
    }
}

// ----- FXC STAT ---------------------------------------------------------------------

/// STAT dwords in the order Wine's reader takes them (`D3D11_SHADER_DESC` names);
/// `None` for dwords it skips without naming.
const STAT_FIELDS: [Option<&str>; 37] = [
    Some("InstructionCount"),
    Some("TempRegisterCount"),
    Some("DefCount"),
    Some("DclCount"),
    Some("FloatInstructionCount"),
    Some("IntInstructionCount"),
    Some("UintInstructionCount"),
    Some("StaticFlowControlCount"),
    Some("DynamicFlowControlCount"),
    Some("MacroInstructionCount"),
    Some("TempArrayCount"),
    Some("ArrayInstructionCount"),
    Some("CutInstructionCount"),
    Some("EmitInstructionCount"),
    Some("TextureNormalInstructions"),
    Some("TextureLoadInstructions"),
    Some("TextureCompInstructions"),
    Some("TextureBiasInstructions"),
    Some("TextureGradientInstructions"),
    Some("MovInstructionCount"),
    None,
    Some("ConversionInstructionCount"),
    None,
    Some("InputPrimitive"),
    Some("GSOutputTopology"),
    Some("GSMaxOutputVertexCount"),
    None,
    None,
    None,
    None,
    Some("cControlPoints"),
    Some("HSOutputPrimitive"),
    Some("HSPartitioning"),
    Some("TessellatorDomain"),
    None,
    None,
    None,
];

/// FXC's STAT: an array of u32 statistics (28, 29 or 37 dwords).
pub(super) fn fxc_stat(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    let root = b.current();
    let dwords = size / 4;
    let what = match dwords {
        28 => "Direct3D 10 statistics, older layout (28 dwords)",
        29 => "Direct3D 10 statistics (29 dwords)",
        37 => "Direct3D 11 statistics (37 dwords)",
        _ => "statistics of a size Wine's reader does not know (it knows 28, 29 and 37 dwords)",
    };
    b.set_display(root, what);
    for i in 0..dwords {
        match STAT_FIELDS.get(i as usize).copied().flatten() {
            Some(name) => {
                let v = b.u32(name)? as u64;
                let shown = match name {
                    "InputPrimitive" => names::input_primitive(v),
                    "GSOutputTopology" => names::primitive_topology(v),
                    "HSOutputPrimitive" => names::tessellator_output(v),
                    "HSPartitioning" => names::tessellator_partitioning(v),
                    "TessellatorDomain" => names::tessellator_domain(v),
                    _ => continue,
                };
                b.display(shown.map_or_else(|| format!("unknown ({v})"), str::to_string));
            }
            None => {
                b.u32(index_name(i))?;
                b.display("not identified (Wine's reader skips this dword)");
            }
        }
    }
    let rest = size % 4;
    if rest > 0 {
        b.bytes("Extra", rest)?;
        b.error(format!("{rest} bytes after the last whole dword"));
    }
    Ok(())
}

#[cfg(test)]
pub(super) mod tests {
    use crate::tree::{BitSpan, Tree};

    const BASIC: &[u8] = include_bytes!(
        "../../../../../tests/fixtures/dxcontainer/curated/basic_code_dxil.dxil.dxbc"
    );
    const WRITE_DXBC: &[u8] = include_bytes!(
        "../../../../../tests/fixtures/dxcontainer/curated/d3d12_enhanced_barriers_L635_write_dxbc.dxbc"
    );
    const DMAX: &[u8] = include_bytes!(
        "../../../../../tests/fixtures/dxcontainer/curated/d3d12_shaders_L2434_ps_dmax_code.dxbc"
    );
    const SUBOBJECTS: &[u8] = include_bytes!(
        "../../../../../tests/fixtures/dxcontainer/curated/embedded_subobject_dupe_code_dxil.dxil.dxbc"
    );
    const OCCLUSION: &[u8] = include_bytes!(
        "../../../../../tests/fixtures/dxcontainer/curated/occlusion_code_dxbc.dxbc"
    );

    /// A DXBC container holding `parts` (FourCC, data), with a zero hash.
    pub(crate) fn container(parts: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
        let header = 32 + 4 * parts.len();
        let total = header + parts.iter().map(|(_, d)| 8 + d.len()).sum::<usize>();
        let mut v = Vec::with_capacity(total);
        v.extend_from_slice(b"DXBC");
        v.extend_from_slice(&[0; 16]);
        v.extend_from_slice(&1u16.to_le_bytes());
        v.extend_from_slice(&0u16.to_le_bytes());
        v.extend_from_slice(&(total as u32).to_le_bytes());
        v.extend_from_slice(&(parts.len() as u32).to_le_bytes());
        let mut off = header;
        for (_, d) in parts {
            v.extend_from_slice(&(off as u32).to_le_bytes());
            off += 8 + d.len();
        }
        for (cc, d) in parts {
            v.extend_from_slice(*cc);
            v.extend_from_slice(&(d.len() as u32).to_le_bytes());
            v.extend_from_slice(d);
        }
        v
    }

    /// Appends little-endian u32s.
    pub(crate) fn put(v: &mut Vec<u8>, words: &[u32]) {
        for w in words {
            v.extend_from_slice(&w.to_le_bytes());
        }
    }

    /// Every child lies inside its parent, and no two siblings overlap inside a
    /// part (the container itself reports, but keeps, parts that overlap).
    pub(crate) fn check_tree(tree: &Tree) {
        tree.walk(|id, depth| {
            let n = tree.node(id);
            let mut spans: Vec<(BitSpan, u32)> = Vec::new();
            for &c in &n.children {
                let s = tree.node(c).span;
                if s.is_empty() {
                    continue;
                }
                assert!(
                    n.span.contains(&s),
                    "{} {:?} is not inside {} {:?}",
                    tree.path(c),
                    s,
                    tree.path(id),
                    n.span
                );
                spans.push((s, c));
            }
            spans.sort_by_key(|(s, _)| (s.start, s.end));
            if depth < 2 {
                return;
            }
            for w in spans.windows(2) {
                assert!(
                    w[0].0.end <= w[1].0.start,
                    "siblings {} and {} overlap",
                    tree.path(w[0].1),
                    tree.path(w[1].1)
                );
            }
        });
    }

    pub(crate) fn node<'t>(tree: &'t Tree, path: &str) -> &'t crate::tree::Node {
        let id = tree
            .find(path)
            .unwrap_or_else(|| panic!("no node at {path}"));
        tree.node(id)
    }

    pub(crate) fn num(tree: &Tree, path: &str) -> u64 {
        node(tree, path)
            .value
            .as_ref()
            .and_then(|v| v.as_u64())
            .unwrap_or_else(|| panic!("{path} has no number"))
    }

    pub(crate) fn text(tree: &Tree, path: &str) -> String {
        node(tree, path)
            .value
            .as_ref()
            .and_then(|v| v.as_str())
            .unwrap_or_else(|| panic!("{path} has no text"))
            .to_string()
    }

    pub(crate) fn shown(tree: &Tree, path: &str) -> String {
        node(tree, path)
            .display
            .as_deref()
            .unwrap_or("")
            .to_string()
    }

    pub(crate) fn error(tree: &Tree, path: &str) -> String {
        node(tree, path).error.as_deref().unwrap_or("").to_string()
    }

    /// Decodes `bytes` cut at every length and with random byte flips in
    /// `flip_from..`: never panics, spans always nest, a cut file always has an error.
    pub(crate) fn fuzz(bytes: &[u8], flip_from: usize, rounds: usize) {
        for len in 0..bytes.len() {
            let d = crate::decode_bytes(&bytes[..len]);
            check_tree(&d.tree);
            assert!(!d.tree.errors().is_empty(), "no error when cut at {len}");
        }
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let span = bytes.len().saturating_sub(flip_from).max(1);
        for _ in 0..rounds {
            let mut m = bytes.to_vec();
            for _ in 0..1 + next() % 4 {
                let i = (flip_from + (next() as usize) % span).min(m.len() - 1);
                let r = next();
                m[i] = if r % 3 == 0 {
                    0xFF
                } else {
                    m[i] ^ (r >> 8) as u8 | 1
                };
            }
            let d = crate::decode_bytes(&m);
            check_tree(&d.tree);
        }
    }

    #[test]
    fn decodes_vers_and_rdat_of_a_work_graph_library() {
        let d = crate::decode_bytes(BASIC);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        assert_eq!(num(t, "Parts/[1]/CompilerVersion/Major"), 1);
        assert_eq!(num(t, "Parts/[1]/CompilerVersion/Minor"), 8);
        assert_eq!(num(t, "Parts/[1]/CompilerVersion/CommitCount"), 4458);
        assert_eq!(
            num(t, "Parts/[1]/CompilerVersion/VersionStringListSizeInBytes"),
            21
        );
        assert_eq!(
            text(t, "Parts/[1]/CompilerVersion/VersionStringList/CommitSha"),
            "c9660a8c"
        );
        assert_eq!(
            text(
                t,
                "Parts/[1]/CompilerVersion/VersionStringList/CustomVersionString"
            ),
            "1.8.2403.34"
        );
        let r = "Parts/[2]/RuntimeData";
        assert_eq!(num(t, &format!("{r}/Version")), 0x10);
        assert_eq!(num(t, &format!("{r}/PartCount")), 9);
        assert_eq!(
            text(t, &format!("{r}/Parts/[0]/Strings/[2]")),
            "BroadcastNode"
        );
        let res = format!("{r}/Parts/[1]/Records/[0]");
        assert_eq!(num(t, &format!("{res}/Class")), 1);
        assert_eq!(shown(t, &format!("{res}/Kind")), "StructuredBuffer");
        assert_eq!(text(t, &format!("{res}/Name")), "RWBuf");
        let f = format!("{r}/Parts/[2]/Records/[0]");
        assert_eq!(num(t, &format!("{r}/Parts/[2]/RecordStride")), 52);
        assert_eq!(text(t, &format!("{f}/UnmangledName")), "BroadcastNode");
        assert_eq!(shown(t, &format!("{f}/ShaderKind")), "Node");
        assert_eq!(shown(t, &format!("{f}/MinShaderTarget")), "Node 6.8");
        assert_eq!(shown(t, &format!("{f}/Node")), "→ NodeShaderInfoTable[0]");
        assert_eq!(num(t, &format!("{r}/Parts/[3]/IndexArrays/[2]/Count")), 3);
        assert_eq!(num(t, &format!("{r}/Parts/[3]/IndexArrays/[2]/[2]")), 4);
        let attr = format!("{r}/Parts/[5]/Records/[1]");
        assert_eq!(shown(t, &format!("{attr}/AttribKind")), "NumThreads");
        assert_eq!(
            shown(t, &format!("{attr}/NumThreads")),
            "IndexArrays/[2] → [2, 3, 4]"
        );
        let grid = format!("{r}/Parts/[6]/Records/[1]/RecordDispatchGrid");
        assert_eq!(num(t, &format!("{grid}/NumComponents")), 3);
        assert_eq!(shown(t, &format!("{grid}/ComponentType")), "U32");
        assert_eq!(
            shown(t, &format!("{r}/Parts/[8]/Records/[0]/LaunchType")),
            "Broadcasting"
        );
    }

    #[test]
    fn decodes_subobject_records() {
        let d = crate::decode_bytes(SUBOBJECTS);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let s = "Parts/[1]/RuntimeData/Parts/[2]";
        assert_eq!(num(t, &format!("{s}/RecordCount")), 4);
        assert_eq!(
            shown(t, &format!("{s}/Records/[0]/Kind")),
            "RaytracingShaderConfig"
        );
        assert_eq!(text(t, &format!("{s}/Records/[0]/Name")), "config");
        assert_eq!(
            num(
                t,
                &format!("{s}/Records/[0]/RaytracingShaderConfig/MaxAttributeSizeInBytes")
            ),
            8
        );
        assert_eq!(
            num(
                t,
                &format!("{s}/Records/[3]/RaytracingPipelineConfig/MaxTraceRecursionDepth")
            ),
            2
        );
        assert_eq!(
            node(t, &format!("{s}/Records/[3]/Unused")).span,
            BitSpan::bytes(0x13C, 0x148)
        );
    }

    #[test]
    fn decodes_rdef_stat_and_shex_of_fxc_output() {
        let d = crate::decode_bytes(WRITE_DXBC);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let r = "Parts/[0]/ResourceDefinitions";
        assert_eq!(num(t, &format!("{r}/BoundResourceCount")), 1);
        assert_eq!(num(t, &format!("{r}/BoundResourceOffset")), 0x3C);
        assert_eq!(num(t, &format!("{r}/Target")), 0x4353_0500);
        assert_eq!(shown(t, &format!("{r}/Target")), "cs_5_0");
        assert_eq!(shown(t, &format!("{r}/Flags")), "NoPreshader");
        assert_eq!(
            text(t, &format!("{r}/Creator")),
            "Microsoft (R) HLSL Shader Compiler 10.1"
        );
        assert_eq!(text(t, &format!("{r}/RD11/Magic")), "RD11");
        assert_eq!(num(t, &format!("{r}/RD11/HeaderSize")), 60);
        let br = format!("{r}/BoundResources/[0]");
        assert_eq!(text(t, &format!("{br}/Name")), "UAVUnorm8x4");
        assert_eq!(shown(t, &format!("{br}/Type")), "UAVRWTyped");
        assert_eq!(shown(t, &format!("{br}/ReturnType")), "Float");
        assert_eq!(shown(t, &format!("{br}/Dimension")), "Texture2D");
        assert_eq!(num(t, &format!("{br}/Flags")), 13);
        assert_eq!(text(t, &format!("{r}/Strings/[0]")), "UAVUnorm8x4");

        let s = "Parts/[3]/Shader";
        assert_eq!(shown(t, &format!("{s}/Version")), "cs_5_0");
        assert_eq!(num(t, &format!("{s}/Version/ProgramType")), 5);
        assert_eq!(num(t, &format!("{s}/Length")), 36);
        assert_eq!(num(t, &format!("{s}/Instructions/[0]/OpcodeType")), 106);
        assert_eq!(
            shown(t, &format!("{s}/Instructions/[7]/OpcodeType")),
            "store_uav_typed"
        );
        assert_eq!(num(t, &format!("{s}/Instructions/[7]/Length")), 6);
        assert_eq!(shown(t, &format!("{s}/Instructions/[8]")), "ret, 1 dword");
        assert!(t.find(&format!("{s}/Instructions/[9]")).is_none());

        let st = "Parts/[4]/Statistics";
        assert_eq!(num(t, &format!("{st}/InstructionCount")), 4);
        assert_eq!(num(t, &format!("{st}/TempRegisterCount")), 1);
        assert_eq!(num(t, &format!("{st}/FloatInstructionCount")), 1);
        assert_eq!(num(t, &format!("{st}/ConversionInstructionCount")), 1);
        assert_eq!(num(t, &format!("{st}/[36]")), 1);
    }

    #[test]
    fn decodes_rdef_constant_buffer_variables_and_types() {
        let d = crate::decode_bytes(DMAX);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let r = "Parts/[0]/ResourceDefinitions";
        assert_eq!(shown(t, &format!("{r}/Target")), "ps_5_0");
        assert_eq!(
            text(t, &format!("{r}/ConstantBuffers/[0]/Name")),
            "$Globals"
        );
        assert_eq!(num(t, &format!("{r}/ConstantBuffers/[0]/Size")), 16);
        let v = format!("{r}/Variables/[0]/[0]");
        assert_eq!(text(t, &format!("{v}/Name")), "src0");
        assert_eq!(num(t, &format!("{v}/Size")), 8);
        assert_eq!(shown(t, &format!("{v}/Flags")), "Used");
        assert_eq!(shown(t, &format!("{r}/Types/[0]/Type")), "Double");
        assert_eq!(text(t, &format!("{r}/Types/[0]/Name")), "double");
        assert_eq!(num(t, &format!("{r}/Types/[0]/Columns")), 1);
    }

    /// An SM4 pixel-shader RDEF: one constant buffer with one struct variable of
    /// two float2 members.
    fn rdef_sm4() -> Vec<u8> {
        let mut v = Vec::new();
        put(&mut v, &[1, 28, 0, 0, 0xFFFF_0400, 0, 142]);
        put(&mut v, &[132, 1, 52, 16, 0, 0]);
        put(&mut v, &[136, 0, 16, 2, 76, 0]);
        put(&mut v, &[0x0000_0005, 0x0004_0001, 0x0002_0000, 92]);
        put(&mut v, &[138, 116, 0, 140, 116, 8]);
        put(&mut v, &[0x0003_0001, 0x0002_0001, 0, 0]);
        v.extend_from_slice(b"cb0\0v\0a\0b\0creator\0\0\0");
        assert_eq!(v.len(), 152);
        v
    }

    #[test]
    fn decodes_sm4_rdef_struct_types_and_members() {
        let file = container(&[(b"RDEF", &rdef_sm4())]);
        let d = crate::decode_bytes(&file);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let r = "Parts/[0]/ResourceDefinitions";
        assert_eq!(shown(t, &format!("{r}/Target")), "ps_4_0");
        assert!(t.find(&format!("{r}/RD11")).is_none());
        assert_eq!(text(t, &format!("{r}/Creator")), "creator");
        assert_eq!(text(t, &format!("{r}/ConstantBuffers/[0]/Name")), "cb0");
        let v = format!("{r}/Variables/[0]/[0]");
        assert_eq!(text(t, &format!("{v}/Name")), "v");
        assert!(t.find(&format!("{v}/StartTexture")).is_none());
        assert_eq!(
            node(t, &format!("{r}/Variables/[0]/[0]")).span,
            BitSpan::bytes(0x2C + 52, 0x2C + 76)
        );
        // Member tables sit between the two types, so each type is its own region.
        assert_eq!(shown(t, &format!("{r}/Types[0]/Class")), "Struct");
        assert_eq!(num(t, &format!("{r}/Types[0]/Members")), 2);
        assert_eq!(text(t, &format!("{r}/Members/[0]/[1]/Name")), "b");
        assert_eq!(num(t, &format!("{r}/Members/[0]/[1]/Offset")), 8);
        assert_eq!(
            shown(t, &format!("{r}/Members/[0]/[1]/TypeOffset")),
            "type 1 at 0xA0"
        );
        assert_eq!(shown(t, &format!("{r}/Types[1]/Type")), "Float");
        assert_eq!(num(t, &format!("{r}/Types[1]/Columns")), 2);
        assert_eq!(text(t, &format!("{r}/Strings/[4]")), "creator");
        fuzz(&file, 0x2C, 1500);
    }

    #[test]
    fn decodes_shdr_token_stream() {
        let d = crate::decode_bytes(OCCLUSION);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let s = "Parts/[2]/Shader";
        // 50 00 00 00: ps_5_0 (FXC wrote this SM5 program as SHDR).
        assert_eq!(num(t, &format!("{s}/Version")), 0x50);
        assert_eq!(shown(t, &format!("{s}/Version")), "ps_5_0");
        assert_eq!(num(t, &format!("{s}/Length")), 14);
        assert_eq!(
            shown(t, &format!("{s}/Instructions/[0]")),
            "dcl_constant_buffer, 4 dwords"
        );
        assert_eq!(shown(t, &format!("{s}/Instructions/[2]/OpcodeType")), "mov");
        assert_eq!(shown(t, &format!("{s}/Instructions/[3]/OpcodeType")), "ret");
        assert_eq!(
            node(t, &format!("{s}/Instructions/[3]")).span,
            BitSpan::bytes(0xAC, 0xB0)
        );
    }

    fn ildn_part(name: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        v.extend_from_slice(&0u16.to_le_bytes());
        v.extend_from_slice(&(name.len() as u16).to_le_bytes());
        v.extend_from_slice(name);
        v.push(0);
        while v.len() % 4 != 0 {
            v.push(0);
        }
        v
    }

    #[test]
    fn decodes_ildn_debug_name() {
        let part = ildn_part(b"0123456789abcdef.pdb");
        let file = container(&[(b"ILDN", &part)]);
        let d = crate::decode_bytes(&file);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let p = "Parts/[0]/DebugName";
        assert_eq!(num(&d.tree, &format!("{p}/NameLength")), 20);
        assert_eq!(text(&d.tree, &format!("{p}/Name")), "0123456789abcdef.pdb");
        assert_eq!(node(&d.tree, &format!("{p}/Padding")).span.len_bits(), 24);
        fuzz(&file, 36, 300);
    }

    #[test]
    fn reports_an_ildn_name_length_that_does_not_match_the_part() {
        let mut part = ildn_part(b"abc");
        part[2] = 9; // NameLength 9, but the part is 8 bytes
        let d = crate::decode_bytes(&container(&[(b"ILDN", &part)]));
        check_tree(&d.tree);
        let e = error(&d.tree, "Parts/[0]/DebugName/NameLength");
        assert!(
            e.contains("needs a 16-byte part") && e.contains("holds 8 bytes"),
            "{e}"
        );
    }

    /// An SRCI section of type `ty` around `body`, padded to 4 bytes.
    fn section(ty: u16, body: &[u8]) -> Vec<u8> {
        let size = (8 + body.len()).div_ceil(4) * 4;
        let mut v = Vec::new();
        put(&mut v, &[size as u32]);
        v.extend_from_slice(&0u16.to_le_bytes());
        v.extend_from_slice(&ty.to_le_bytes());
        v.extend_from_slice(body);
        v.resize(size, 0);
        v
    }

    fn srci_part(compressed: bool) -> Vec<u8> {
        // SourceNames: header (10 bytes), one entry.
        let name = b"main.hlsl\0";
        let content = b"float4 main() : SV_Target { return 1; }\0";
        let entry_size = (16 + name.len()).div_ceil(4) * 4;
        let mut names = Vec::new();
        put(&mut names, &[0, 1]);
        names.extend_from_slice(&(entry_size as u16).to_le_bytes());
        put(
            &mut names,
            &[
                entry_size as u32,
                0,
                name.len() as u32,
                content.len() as u32,
            ],
        );
        names.extend_from_slice(name);
        names.resize(10 + entry_size, 0);
        // SourceContents: header (20 bytes), one entry or a compressed blob.
        let centry = (12 + content.len()).div_ceil(4) * 4;
        let mut contents = Vec::new();
        put(&mut contents, &[0]);
        contents.extend_from_slice(&0u16.to_le_bytes());
        contents.extend_from_slice(&(compressed as u16).to_le_bytes());
        if compressed {
            put(&mut contents, &[6, centry as u32, 1]);
            contents.extend_from_slice(&[0x78, 0x9C, 1, 2, 3, 4]);
        } else {
            put(&mut contents, &[centry as u32, centry as u32, 1]);
            put(&mut contents, &[centry as u32, 0, content.len() as u32]);
            contents.extend_from_slice(content);
            contents.resize(20 + centry, 0);
        }
        // Args.
        let pairs = b"T\0ps_6_0\0E\0main\0";
        let mut args = Vec::new();
        put(&mut args, &[0, pairs.len() as u32, 2]);
        args.extend_from_slice(pairs);
        let body: Vec<u8> = [section(1, &names), section(0, &contents), section(2, &args)].concat();
        let mut v = Vec::new();
        put(&mut v, &[(8 + body.len()) as u32]);
        v.extend_from_slice(&0u16.to_le_bytes());
        v.extend_from_slice(&3u16.to_le_bytes());
        v.extend_from_slice(&body);
        v
    }

    #[test]
    fn decodes_srci_sections() {
        let file = container(&[(b"SRCI", &srci_part(false))]);
        let d = crate::decode_bytes(&file);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let s = "Parts/[0]/SourceInfo/Sections";
        assert_eq!(num(t, "Parts/[0]/SourceInfo/SectionCount"), 3);
        assert_eq!(shown(t, &format!("{s}/[0]/Type")), "SourceNames");
        assert_eq!(text(t, &format!("{s}/[0]/Entries/[0]/Name")), "main.hlsl");
        assert_eq!(
            num(t, &format!("{s}/[0]/Entries/[0]/ContentSizeInBytes")),
            40
        );
        assert_eq!(shown(t, &format!("{s}/[1]/Type")), "SourceContents");
        assert_eq!(
            text(t, &format!("{s}/[1]/Entries/[0]/Content")),
            "float4 main() : SV_Target { return 1; }"
        );
        assert_eq!(shown(t, &format!("{s}/[2]/Type")), "Args");
        assert_eq!(text(t, &format!("{s}/[2]/Args/[0]/Name")), "T");
        assert_eq!(text(t, &format!("{s}/[2]/Args/[0]/Value")), "ps_6_0");
        assert_eq!(text(t, &format!("{s}/[2]/Args/[1]/Value")), "main");
        fuzz(&file, 36, 400);
    }

    #[test]
    fn shows_compressed_srci_contents_as_a_run() {
        let d = crate::decode_bytes(&container(&[(b"SRCI", &srci_part(true))]));
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let e = shown(&d.tree, "Parts/[0]/SourceInfo/Sections/[1]/Entries");
        assert!(
            e.contains("Zlib compressed, 6 bytes") && e.contains("not inflated"),
            "{e}"
        );
    }

    #[test]
    fn stops_at_a_zero_length_instruction() {
        let mut shex = Vec::new();
        put(&mut shex, &[0x0005_0050, 4, 0x0100_003E, 0x0000_0036]);
        let d = crate::decode_bytes(&container(&[(b"SHEX", &shex)]));
        check_tree(&d.tree);
        let s = "Parts/[0]/Shader/Instructions";
        assert_eq!(shown(&d.tree, &format!("{s}/[0]/OpcodeType")), "ret");
        assert!(error(&d.tree, &format!("{s}/[1]/Length")).contains("length 0"));
        assert!(d.tree.find(&format!("{s}/[2]")).is_none());
    }

    #[test]
    fn reports_rdat_counts_that_do_not_fit() {
        let mut rdat = Vec::new();
        put(&mut rdat, &[0x10, 1, 12, 3, 16, 1000, 32, 0, 0, 0, 0]);
        let d = crate::decode_bytes(&container(&[(b"RDAT", &rdat)]));
        check_tree(&d.tree);
        let e = error(&d.tree, "Parts/[0]/RuntimeData/Parts/[0]/RecordCount");
        assert!(
            e.contains("1000 records of 32 bytes") && e.contains("decoding 0"),
            "{e}"
        );
        let mut rdat = Vec::new();
        put(&mut rdat, &[0x10, 0x4000_0000, 12]);
        let d = crate::decode_bytes(&container(&[(b"RDAT", &rdat)]));
        check_tree(&d.tree);
        assert!(error(&d.tree, "Parts/[0]/RuntimeData/PartCount").contains("decoding 1"));
    }

    #[test]
    fn survives_truncation_and_corruption() {
        for (file, from) in [
            (BASIC, 0x44),
            (WRITE_DXBC, 0x34),
            (DMAX, 0x34),
            (SUBOBJECTS, 0x30),
        ] {
            fuzz(file, from, 1500);
        }
    }
}
