//! RDAT: DXC's runtime data (`RuntimeDataHeader` and the record tables of DXC's
//! `DxilRuntimeReflection.h` and `RDAT_*.inl`; layout notes §8,
//! `specs/notes/dxcontainer-layout.md`): the string buffer, the index arrays, the
//! record tables (resources, functions, subobjects, work-graph nodes) and the raw
//! bytes, with the root signatures subobjects point into decoded as RTS0. Offsets
//! inside the part are relative to the part data; sub-parts are laid out with
//! [`super::place::place`]. `specs/dxcontainer.md` lists the part but does not lay it
//! out.

mod names;

use std::sync::Arc;

use super::padding::zero_padding;
use super::place::{fit, index_name, place, place_lazy, Block, Claims};
use super::{fixed_pages, page_size, pages, string_table, u32_array, Context};
use crate::builder::{flag_names, Builder, DResult, Field};
use crate::clip;
use crate::tree::Kind;

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
    let Field {
        value: count,
        id: count_id,
    } = b.uint_field("PartCount", 4)?;
    let n = fit(b, count, 4, 8, size, Some(count_id), None, "part offsets");
    let Field {
        value: offsets,
        id: offsets_id,
    } = u32_array(b, "PartOffsets", n)?;
    let offset_ids = b.children(offsets_id).to_vec();
    let mut claims = Claims::default();
    claims.add(base, b.pos(), "the RDAT header");

    let info = Arc::new(rdat_scan(b, base, size, &offsets));
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
    // Each sub-part is decoded when it is opened: what records need of the
    // others (strings, index arrays, root signatures) was peeked above.
    let ctx = *ctx;
    let rejected = place_lazy(
        b,
        &mut claims,
        "Parts",
        &blocks,
        |b, blk| match b.peek_uint(blk.start, 4) {
            Some(ty) => (
                format!("{}, not decoded yet", part_label(ty)),
                Some(names::rdat_part_type(ty).unwrap_or("part type")),
            ),
            None => ("not decoded yet".to_string(), None),
        },
        move |b, _| rdat_part(b, &info, &ctx),
    );
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

/// What an RDAT sub-part of type `ty` is called.
fn part_label(ty: u64) -> String {
    names::rdat_part_type(ty).map_or_else(|| format!("part type {ty}"), str::to_string)
}

fn rdat_part(b: &mut Builder, info: &Arc<RdatInfo>, ctx: &Context) -> DResult<()> {
    let item = b.current();
    let ty = b.uint_enum("Type", 4, names::rdat_part_type)?;
    b.set_display(item, part_label(ty));
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
fn record_table(b: &mut Builder, ty: u64, n: u64, info: &Arc<RdatInfo>) -> DResult<()> {
    let Field {
        value: count,
        id: count_id,
    } = b.uint_field("RecordCount", 4)?;
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
    let info = Arc::clone(info);
    b.region(
        "Records",
        Kind::Array,
        start,
        count * stride,
        |b| match page_size(b) {
            Some(n) if count > n => pages(
                b,
                &fixed_pages(start, stride, count, n),
                move |b, first, next| records(b, ty, start, stride, first, next, &info),
            ),
            _ => records(b, ty, start, stride, 0, count, &info),
        },
    );
    let rest = room.saturating_sub(count * stride);
    if rest > 0 {
        b.seek(start + count * stride);
        b.bytes("Unused", rest)?;
    }
    Ok(())
}

/// Records `first..next` of a table of `stride`-byte records at `start`.
fn records(
    b: &mut Builder,
    ty: u64,
    start: u64,
    stride: u64,
    first: u64,
    next: u64,
    info: &RdatInfo,
) -> DResult<()> {
    for r in first..next {
        b.region(
            index_name(r),
            Kind::Struct,
            start + r * stride,
            stride,
            |b| record(b, ty, info),
        );
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
    let union = b.group_field(name, |b| fields(b, body, info))?.id;
    if kind == 1 || kind == 2 {
        if let Some(&id) = b.children(union).first() {
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
    let Field { value: v, id } = match f {
        F::U8 => return b.u8(name).map(|_| ()),
        F::Flags16(t) => return b.uint_flags(name, 2, t).map(|_| ()),
        F::Enum(t) => return b.uint_enum(name, 4, t).map(|_| ()),
        F::Flags(t) => return b.uint_flags(name, 4, t).map(|_| ()),
        _ => b.uint_field(name, 4)?,
    };
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
                        "IndexArrays/[{v}] → {} {}",
                        names::rdat_part_type(t).unwrap_or("table"),
                        list_text(&row)
                    ),
                    _ => format!("IndexArrays/[{v}] → {}", list_text(&row)),
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

/// `[1, 2, 3]`.
fn list_text(row: &[u64]) -> String {
    let items: Vec<String> = row.iter().map(|v| v.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// The quoted string at `at` (before `end`) for a display, cut after 96 bytes;
/// `None` if `at` is outside the buffer.
fn short_cstr(b: &Builder, at: u64, end: u64) -> Option<String> {
    if at >= end {
        return None;
    }
    let bytes = b.peek_bytes(at, (end - at).min(96));
    Some(match bytes.iter().position(|&c| c == 0) {
        Some(n) => clip::debug_quoted(&String::from_utf8_lossy(&bytes[..n])),
        None => clip::debug_quoted(&String::from_utf8_lossy(&bytes)) + "…",
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

#[cfg(test)]
mod tests {
    use super::super::testing::{
        check_tree, container, error, node, num, put, shown, text, BASIC, SUBOBJECTS,
    };
    use crate::tree::BitSpan;

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
}
