//! What the streams of a PDB are, and the headers decoded field by field: the
//! PDB info stream (LLVM's `docs/PDB/PdbStream.rst`: header, named stream map,
//! feature codes), the TPI and IPI stream headers (`TpiStream.rst`) and the DBI
//! stream header (`DbiStream.rst`).
//!
//! Names come from the fixed stream indices (0 to 4), the named stream map,
//! the TPI/IPI hash stream indices, the DBI header's stream indices, its
//! module records and its optional debug header, and from content: a stream
//! starting with `DXBC` holds a DirectX Container (DXC's shader PDBs keep the
//! shader's debug container in stream 5). They are read with peeks through
//! the streams' pages; reads are bounded by the streams' sizes.

use super::layout::{le16, le32, plural, Plan};
use crate::builder::{Builder, DResult};
use crate::tree::{Kind, Name};

/// Size of the PDB info stream's header.
pub(super) const PDB_HEADER: u64 = 28;
/// Size of the TPI/IPI stream header.
pub(super) const TPI_HEADER: u64 = 56;
/// Size of the DBI stream header.
pub(super) const DBI_HEADER: u64 = 64;
/// Stream index meaning "no stream".
const NO_STREAM: u16 = 0xFFFF;
/// Longest name kept from a file.
const MAX_NAME: usize = 256;

/// The stream holding a DirectX Container, as DXC writes it.
pub(super) fn is_dxbc(plan: &Plan, b: &Builder, s: usize) -> bool {
    plan.read_stream(b, s, 0, 4) == b"DXBC"
}

/// Names the streams (see the module docs).
pub(super) fn name_streams(b: &Builder, plan: &mut Plan) {
    let n = plan.streams.len();
    let mut names: Vec<Option<String>> = vec![None; n];
    let mut set = |i: usize, s: String| {
        if let Some(slot @ None) = names.get_mut(i) {
            *slot = Some(s);
        }
    };
    for (i, s) in [
        "old MSF directory",
        "PDB info stream",
        "TPI stream",
        "DBI stream",
        "IPI stream",
    ]
    .into_iter()
    .enumerate()
    {
        set(i, s.to_string());
    }
    if n > 1 {
        let size = plan.streams[1].len();
        let bytes = plan.read_stream(b, 1, 0, size);
        if let Some(map) = named_map(&bytes) {
            for (name, index) in map.entries {
                set(index as usize, format!("named stream \"{name}\""));
            }
        }
    }
    for (s, what) in [(2usize, "TPI"), (4, "IPI")] {
        if n > s {
            let h = plan.read_stream(b, s, 20, 4);
            if let (Some(hash), Some(aux)) = (le16(&h, 0), le16(&h, 2)) {
                if hash != NO_STREAM {
                    set(hash as usize, format!("{what} hash"));
                }
                if aux != NO_STREAM {
                    set(aux as usize, format!("{what} hash (auxiliary)"));
                }
            }
        }
    }
    if n > 3 {
        let h = plan.read_stream(b, 3, 0, DBI_HEADER);
        if h.len() as u64 == DBI_HEADER {
            for (at, what) in [
                (12, "global symbol hash"),
                (16, "public symbol hash"),
                (20, "symbol records"),
            ] {
                if let Some(i) = le16(&h, at).filter(|&i| i != NO_STREAM) {
                    set(i as usize, what.to_string());
                }
            }
            let size = |at: usize| le32(&h, at).map_or(0, u64::from);
            // Negative sizes are reported on the header; nothing is named then.
            let sizes: Vec<u64> = [24, 28, 32, 36, 40, 52, 48]
                .iter()
                .map(|&a| size(a))
                .collect();
            if sizes.iter().all(|&s| s < 1 << 31) {
                let mods = plan.read_stream(b, 3, DBI_HEADER, sizes[0]);
                for (name, stream) in modules(&mods) {
                    set(stream as usize, format!("module \"{name}\""));
                }
                let dbg_at = DBI_HEADER + sizes[..6].iter().sum::<u64>();
                let dbg = plan.read_stream(b, 3, dbg_at, sizes[6].min(2 * 64));
                for (k, what) in DEBUG_STREAMS.iter().enumerate() {
                    if let Some(i) = le16(&dbg, 2 * k).filter(|&i| i != NO_STREAM) {
                        set(i as usize, what.to_string());
                    }
                }
            }
        }
    }
    for (i, slot) in names.iter_mut().enumerate() {
        if slot.is_none() && is_dxbc(plan, b, i) {
            *slot = Some("DXContainer".into());
        }
    }
    for (st, name) in plan.streams.iter_mut().zip(names) {
        st.name = name;
    }
}

/// The streams the DBI stream's optional debug header names, in its order.
const DEBUG_STREAMS: [&str; 11] = [
    "FPO data",
    "exception data",
    "fixup data",
    "OMAP to source",
    "OMAP from source",
    "section headers",
    "token RID map",
    "xdata",
    "pdata",
    "new FPO data",
    "original section headers",
];

/// The module records of a DBI module info substream: each module's name and
/// symbol stream (modules without one are left out).
fn modules(bytes: &[u8]) -> Vec<(String, u16)> {
    let mut out = Vec::new();
    let mut at = 0usize;
    while at.saturating_add(64) <= bytes.len() {
        let stream = le16(bytes, at + 34).unwrap_or(NO_STREAM);
        let mut p = at + 64;
        let mut texts = Vec::new();
        for _ in 0..2 {
            let Some(n) = bytes.get(p..).and_then(|r| r.iter().position(|&c| c == 0)) else {
                return out;
            };
            texts.push(clip_name(&bytes[p..p + n]));
            p += n + 1;
        }
        if stream != NO_STREAM {
            out.push((texts.swap_remove(0), stream));
        }
        at = p.div_ceil(4) * 4;
    }
    out
}

/// A name from the file, shortened past [`MAX_NAME`] bytes.
fn clip_name(b: &[u8]) -> String {
    let mut s = String::from_utf8_lossy(&b[..b.len().min(MAX_NAME)]).into_owned();
    if b.len() > MAX_NAME {
        s.push('…');
    }
    s
}

/// A named stream map read from the PDB info stream's bytes.
struct NamedMap {
    /// The names and the streams they name.
    entries: Vec<(String, u32)>,
    /// Where the map ends (after `niMac`).
    end: u64,
}

/// Reads the named stream map after the PDB info header in `bytes` (the
/// stream's bytes), if it is whole.
fn named_map(bytes: &[u8]) -> Option<NamedMap> {
    let mut at = PDB_HEADER as usize;
    let strlen = le32(bytes, at)? as usize;
    let strings = bytes.get(at + 4..(at + 4).checked_add(strlen)?)?;
    at += 4 + strlen;
    let size = le32(bytes, at)?;
    let _capacity = le32(bytes, at + 4)?;
    at += 8;
    let words = le32(bytes, at)? as usize;
    let present: Vec<u32> = (0..words)
        .map(|k| le32(bytes, at + 4 + 4 * k))
        .collect::<Option<_>>()?;
    at += 4 + 4 * words;
    let deleted = le32(bytes, at)? as usize;
    at = at.checked_add(4 + deleted.checked_mul(4)?)?;
    if at > bytes.len() {
        return None;
    }
    let set: u64 = present.iter().map(|w| u64::from(w.count_ones())).sum();
    if set != u64::from(size) {
        return None;
    }
    let mut entries = Vec::new();
    for _ in 0..set {
        let key = le32(bytes, at)? as usize;
        let value = le32(bytes, at + 4)?;
        at += 8;
        let rest = strings.get(key..)?;
        let n = rest.iter().position(|&c| c == 0)?;
        entries.push((clip_name(&rest[..n]), value));
    }
    le32(bytes, at)?;
    Some(NamedMap {
        entries,
        end: at as u64 + 4,
    })
}

/// Where the named stream map of the PDB info stream `bytes` ends, if it is
/// whole.
pub(super) fn named_map_end(bytes: &[u8]) -> Option<u64> {
    named_map(bytes).map(|m| m.end)
}

/// What stream `i` is called in displays: `stream 3 (DBI stream)`.
pub(super) fn stream_label(plan: &Plan, i: u64) -> String {
    match plan.streams.get(i as usize).and_then(|s| s.name.as_deref()) {
        Some(n) => format!("stream {i} ({n})"),
        None => format!("stream {i}"),
    }
}

/// A `u16` stream index field: display names the stream; an index past the
/// directory's streams is an error.
fn stream_index(b: &mut Builder, plan: &Plan, name: &'static str) -> DResult<u16> {
    let i = b.u16(name)?;
    if i == NO_STREAM {
        b.display("none");
    } else if u64::from(i) < plan.streams.len() as u64 {
        b.display(stream_label(plan, u64::from(i)));
    } else {
        b.error(format!(
            "stream {i} does not exist: the directory lists {}",
            plural(plan.streams.len() as u64, "stream", "streams")
        ));
    }
    Ok(i)
}

fn pdb_version(v: u64) -> Option<&'static str> {
    Some(match v {
        19941610 => "VC2",
        19950623 => "VC4",
        19950814 => "VC41",
        19960307 => "VC50",
        19970604 => "VC98",
        19990604 => "VC70Dep",
        20000404 => "VC70",
        20030901 => "VC80",
        20091201 => "VC110",
        20140508 => "VC140",
        _ => return None,
    })
}

fn feature(v: u64) -> Option<&'static str> {
    Some(match v {
        20091201 => "VC110",
        20140508 => "VC140",
        0x4D54_4F4E => "NoTypeMerge",
        0x494E_494D => "MinimalDebugInfo",
        _ => return None,
    })
}

fn tpi_version(v: u64) -> Option<&'static str> {
    Some(match v {
        19950410 => "V40",
        19951122 => "V41",
        19961031 => "V50",
        19990903 => "V70",
        20040203 => "V80",
        _ => return None,
    })
}

fn dbi_version(v: u64) -> Option<&'static str> {
    Some(match v {
        930803 => "VC41",
        19960307 => "V50",
        19970606 => "V60",
        19990903 => "V70",
        20091201 => "V110",
        _ => return None,
    })
}

fn machine(v: u64) -> Option<&'static str> {
    Some(match v {
        0 => "unknown",
        0x14C => "x86",
        0x166 => "MIPS R4000",
        0x1C0 => "ARM",
        0x1C2 => "Thumb",
        0x1C4 => "ARM Thumb-2",
        0x200 => "IA-64",
        0x8664 => "x86-64",
        0xAA64 => "ARM64",
        0xA641 => "ARM64EC",
        0xA64E => "ARM64X",
        _ => return None,
    })
}

const DBI_FLAGS: &[(u64, &str)] = &[
    (1, "IncrementallyLinked"),
    (2, "PrivateSymbolsStripped"),
    (4, "HasConflictingTypes"),
];

/// The PDB info stream's header (the cursor at the stream's start).
pub(super) fn pdb_header(b: &mut Builder) -> DResult<()> {
    b.uint_enum("Version", 4, pdb_version)?;
    b.u32("Signature")?;
    b.display("time the PDB was written (seconds since 1970)");
    b.u32("Age")?;
    b.display("times the PDB has been written");
    let at = b.pos();
    b.bytes("Guid", 16)?;
    let g = b.peek_bytes(at, 16);
    if g.len() == 16 {
        let d1 = le32(&g, 0).unwrap_or(0);
        let d2 = le16(&g, 4).unwrap_or(0);
        let d3 = le16(&g, 6).unwrap_or(0);
        let mut s = format!("{{{d1:08X}-{d2:04X}-{d3:04X}-{:02X}{:02X}-", g[8], g[9]);
        for x in &g[10..] {
            s.push_str(&format!("{x:02X}"));
        }
        s.push('}');
        b.display(s);
    }
    Ok(())
}

/// The named stream map and `niMac` (the cursor after the PDB info header,
/// the region bounded by the map's end).
pub(super) fn named_stream_map(b: &mut Builder, plan: &Plan) -> DResult<()> {
    let strlen = b.u32("StringBufferSize")? as u64;
    let strings = b.pos();
    if strlen > b.remaining() {
        b.error(format!(
            "{strlen} bytes of names do not fit: {} bytes are left",
            b.remaining()
        ));
        return Ok(());
    }
    let end = strings + strlen;
    b.region("Strings", Kind::Array, strings, strlen, |b| {
        let mut i = 0u64;
        while b.pos() < end {
            let at = b.pos();
            b.cstr(Name::Index(i as u32))?;
            b.display(format!("offset {}", at - strings));
            i += 1;
        }
        Ok(())
    });
    b.seek(end);
    let mut present = Vec::new();
    b.group("HashTable", |b| {
        let size = b.u32("Size")?;
        b.display("names in the table");
        let cap = b.u32("Capacity")?;
        if size > cap {
            b.error(format!(
                "{size} entries do not fit a table of {cap} buckets"
            ));
        }
        for (name, keep) in [("Present", true), ("Deleted", false)] {
            b.group(name, |b| {
                let words = b.u32("WordCount")? as u64;
                if words.saturating_mul(4) > b.remaining() {
                    b.error(format!(
                        "{words} words of bits do not fit: {} bytes are left",
                        b.remaining()
                    ));
                    return Ok(());
                }
                b.array("Words", |b| {
                    for k in 0..words {
                        let w = b.u32(Name::Index(k as u32))?;
                        if keep {
                            present.push(w);
                        }
                    }
                    Ok(())
                })
            })?;
        }
        let set: u64 = present.iter().map(|w| u64::from(w.count_ones())).sum();
        if set != u64::from(size) {
            if let Some(&id) = b.children(b.current()).first() {
                b.set_error(
                    id,
                    format!("{size} entries, but the present bits mark {set} buckets"),
                );
            }
        }
        b.array("Entries", |b| {
            let mut j = 0u32;
            for (w, &word) in present.iter().enumerate() {
                for bit in 0..32 {
                    if word >> bit & 1 == 0 {
                        continue;
                    }
                    let bucket = w as u64 * 32 + bit;
                    let entry = b.item_field(u64::from(j), |b| {
                        b.strref("Key", 4, strings, end)?;
                        let v = b.u32("Value")?;
                        if u64::from(v) < plan.streams.len() as u64 {
                            b.display(stream_label(plan, u64::from(v)));
                        } else {
                            b.error(format!(
                                "stream {v} does not exist: the directory lists {}",
                                plural(plan.streams.len() as u64, "stream", "streams")
                            ));
                        }
                        Ok(())
                    })?;
                    b.set_display(entry.id, format!("bucket {bucket}"));
                    b.set_key(entry.id, "bucket");
                    j += 1;
                }
            }
            Ok(())
        })
    })?;
    b.u32("NiMac")?;
    b.display("the named-stream table's next name index (Microsoft's writer)");
    Ok(())
}

/// The feature codes that fill the rest of the PDB info stream (the region
/// bounded by the stream's end).
pub(super) fn features(b: &mut Builder) -> DResult<()> {
    let mut i = 0u32;
    while b.remaining() >= 4 {
        b.uint_enum(Name::Index(i), 4, feature)?;
        i += 1;
    }
    Ok(())
}

/// The TPI or IPI stream header (`size`: the stream's size).
pub(super) fn tpi_header(b: &mut Builder, plan: &Plan, size: u64) -> DResult<()> {
    b.uint_enum("Version", 4, tpi_version)?;
    let hs = b.u32("HeaderSize")?;
    if u64::from(hs) != TPI_HEADER {
        b.error(format!("the header is {TPI_HEADER} bytes, not {hs}"));
    }
    let first = b.u32("TypeIndexBegin")?;
    let end = b.u32("TypeIndexEnd")?;
    match end.checked_sub(first) {
        Some(n) => b.display(plural(u64::from(n), "record", "records")),
        None => b.error(format!("ends at {end}, before its first index {first}")),
    }
    let bytes = b.u32("TypeRecordBytes")?;
    if u64::from(hs) + u64::from(bytes) > size {
        b.error(format!(
            "{hs} bytes of header and {bytes} of records do not fit the {size}-byte stream"
        ));
    }
    stream_index(b, plan, "HashStreamIndex")?;
    stream_index(b, plan, "HashAuxStreamIndex")?;
    b.u32("HashKeySize")?;
    b.u32("NumHashBuckets")?;
    for name in ["HashValueBuffer", "IndexOffsetBuffer", "HashAdjBuffer"] {
        b.group(name, |b| {
            b.int("Offset", 4)?;
            b.u32("Length")?;
            Ok(())
        })?;
    }
    Ok(())
}

/// The DBI stream header (`size`: the stream's size).
pub(super) fn dbi_header(b: &mut Builder, plan: &Plan, size: u64) -> DResult<()> {
    let sig = b.int("VersionSignature", 4)?;
    if sig != -1 {
        b.display("always -1 in the files studied");
    }
    b.uint_enum("VersionHeader", 4, dbi_version)?;
    b.u32("Age")?;
    stream_index(b, plan, "GlobalStreamIndex")?;
    let build = b.u16("BuildNumber")?;
    if build & 0x8000 != 0 {
        b.display(format!(
            "toolchain {}.{}",
            (build >> 8) & 0x7F,
            build & 0xFF
        ));
    } else {
        b.display("old build number format");
    }
    stream_index(b, plan, "PublicStreamIndex")?;
    b.u16("PdbDllVersion")?;
    stream_index(b, plan, "SymRecordStream")?;
    b.u16("PdbDllRbld")?;
    let mut total = DBI_HEADER as i64;
    let mut sizes = |b: &mut Builder, name: &'static str| -> DResult<()> {
        let n = b.int(name, 4)?;
        if n < 0 {
            b.error(format!("a substream cannot be {n} bytes"));
        }
        total += n;
        Ok(())
    };
    for name in [
        "ModInfoSize",
        "SectionContributionSize",
        "SectionMapSize",
        "SourceInfoSize",
        "TypeServerMapSize",
    ] {
        sizes(b, name)?;
    }
    b.u32("MFCTypeServerIndex")?;
    sizes(b, "OptionalDbgHeaderSize")?;
    sizes(b, "ECSubstreamSize")?;
    b.uint_flags("Flags", 2, DBI_FLAGS)?;
    b.uint_enum("Machine", 2, machine)?;
    b.u32("Padding")?;
    if total != size as i64 {
        let id = b.current();
        b.set_error(
            id,
            format!(
                "the header and its substreams add up to {total} bytes, but the stream holds {size}"
            ),
        );
    }
    Ok(())
}
