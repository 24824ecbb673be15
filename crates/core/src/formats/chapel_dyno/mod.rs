//! Chapel `.dyno` library files (`\x7FLIBCHPL` magic): a file header, a table of
//! module sections, and in each module a symbol table, serialized uAST, a long
//! strings table, source locations and (Chapel's writer only) generated LLVM IR.
//!
//! Follows `specs/chapel-dyno.md`, with the details it leaves open settled by
//! Chapel's own writer and reader (`frontend/lib/libraries/` in chapel-lang/chapel;
//! see `specs/notes/dyno-layout.md`). The spec's layout and the writer's (2024 and
//! 2021–2023) share a version number; [`layout`] tells them apart from the module
//! header and the root says which one a file follows.
//!
//! Byte order is whatever the magic announces (it reads `0x4C50484342494C7F` in the
//! file's order); every fixed-size field is read in that order. The file's SHA-256
//! (computed with its own hash field zeroed) is checked against the header.
//!
//! Modules, sections and location groups are decoded in their own regions, so a
//! damaged one carries its error and the rest is still decoded.

mod context;
mod layout;
mod locations;
mod module;
mod prim;
mod skim;
mod strings;
mod symtab;
pub mod tags;
mod uast;

use super::{read_exact, u32_at, u64_at, Embedded, Format};
use crate::builder::{hex_preview, Builder, DResult};
use crate::source::ByteSource;
use crate::tree::{BitSpan, Kind, Name, Value};
use crate::Endian;
use sha2::{Digest, Sha256};

pub use layout::Layout;
use prim::{magic, note, pad, peek_u64};
pub use prim::{
    GEN_CODE_MAGIC, LOCATION_MAGIC, LONG_STRINGS_MAGIC, MODULE_MAGIC, SYMBOL_TABLE_MAGIC,
    UAST_MAGIC,
};

/// The registry entry.
pub const FORMAT: Format = Format {
    name: "chapel-dyno",
    root: "ChapelLibrary",
    description: "Chapel .dyno library file",
    extensions: &["dyno"],
    module: "dyno",
    probe,
    head_probe: true,
    embedded: Some(Embedded {
        signatures: &[b"\x7FLIBCHPL", b"LPHCBIL\x7F"],
        extent,
    }),
    decode: &decode,
    doc: None,
};

/// `FILE_HEADER_MAGIC`: `\x7FLIBCHPL` in little-endian byte order.
pub const FILE_MAGIC: u64 = 0x4C50_4843_4249_4C7F;

/// Size of the fixed file header (before the module table).
const FILE_HEADER_SIZE: u64 = 64;
/// Where the 32-byte SHA-256 sits in the file header.
const HASH_AT: u64 = 32;
const HASH_SIZE: u64 = 32;
/// Chapel's reader rejects this many modules (`MAX_NUM_MODULES`).
const MAX_NUM_MODULES: u64 = 100_000_000;

pub(crate) fn probe(src: &dyn ByteSource) -> bool {
    let mut buf = [0u8; 8];
    src.len() >= 8
        && src.read_at(0, &mut buf) == 8
        && (buf == FILE_MAGIC.to_le_bytes() || buf == FILE_MAGIC.to_be_bytes())
}

fn order_name(e: Endian) -> &'static str {
    match e {
        Endian::Little => "little-endian",
        Endian::Big => "big-endian",
    }
}

fn decode(b: &mut Builder) -> DResult<()> {
    let root = b.current();
    let head = b.peek_bytes(0, 8);
    let endian = if head == FILE_MAGIC.to_be_bytes() {
        Endian::Big
    } else {
        Endian::Little
    };
    b.set_endian(endian);
    let order = format!("{} (magic {})", order_name(endian), hex_preview(&head));
    b.set_display(root, order.clone());
    b.derived(
        "ByteOrder",
        Value::Str(order_name(endian).into()),
        BitSpan::bytes(0, head.len() as u64),
        Some(format!(
            "the magic {} reads 0x{FILE_MAGIC:016X} in this order; every multi-byte field is read in it",
            hex_preview(&head)
        )),
    )?;

    let n_modules = b.group("Header", header)?;

    // The table's first entries, peeked, tell the layout.
    let peeked: Vec<u64> = (0..n_modules.min(64))
        .map_while(|i| peek_u64(b, FILE_HEADER_SIZE + 8 * i))
        .collect();
    let det = layout::detect(b, &peeked, n_modules);
    let lay = det.layout;
    let why = format!("told apart by {}. Layout: {}", det.evidence, lay.describe());
    match det.module {
        Some(m) => {
            let from = BitSpan::bytes(m, (m + lay.header_size()).min(b.file_len()));
            b.derived("Layout", Value::Str(lay.name().into()), from, Some(why))?;
        }
        None => note(b, "Layout", lay.name(), &why)?,
    }
    b.set_display(
        root,
        format!("{order}; layout: {} ({})", lay.name(), lay.short()),
    );

    // The module table: N offsets, plus the end offset in the spec and the 2024 writer.
    let entries = if lay.table_has_end() {
        n_modules.saturating_add(1)
    } else {
        n_modules
    };
    let file_len = b.file_len();
    // The offsets, read without making nodes (as many as the file holds).
    let at = b.pos();
    let avail = b.remaining() / 8;
    let raw = b.peek_bytes(at, 8 * entries.min(avail));
    let table: Vec<u64> = raw
        .chunks_exact(8)
        .map(|c| {
            let a: [u8; 8] = c.try_into().expect("8 bytes");
            match endian {
                Endian::Little => u64::from_le_bytes(a),
                Endian::Big => u64::from_be_bytes(a),
            }
        })
        .collect();
    drop(raw);
    let page = b
        .page_size()
        .filter(|_| b.lazy_threshold().is_some())
        .map(u64::from);
    let table_read = b.array("ModuleTable", |b| {
        let mut i = 0u64;
        let ok = table.len() as u64;
        if let Some(p) = page.filter(|&p| ok > p) {
            while i < ok {
                let last = (i + p).min(ok) - 1;
                let first = i;
                b.page(
                    first,
                    last,
                    at + 8 * first,
                    8 * (last - first + 1),
                    move |b| {
                        for i in first..=last {
                            table_entry(b, i, n_modules, file_len)?;
                        }
                        Ok(())
                    },
                )?;
                i = last + 1;
            }
        }
        for i in i..entries {
            table_entry(b, i, n_modules, file_len)?;
        }
        Ok(())
    });
    let table_end = b.pos();
    if table_read.is_err() {
        // A table cut short by the end of the file: decode the modules it names.
        b.seek(table_end);
    }
    if !lay.table_has_end() && n_modules % 2 == 1 {
        pad(b, table_end, table_end + 8, 16, "after the module table");
    }

    let n_listed = (table.len() as u64).min(n_modules);
    let mut prev_end = b.pos();
    if let Some(&first) = table.first().filter(|_| n_listed > 0) {
        pad(b, prev_end, first, lay.align(), "before the first module");
        prev_end = b.pos();
    }
    let places = module_places(b, &table, n_listed, lay, table_end);
    b.array("Modules", |b| {
        // Modules placed one after another are shown in pages.
        let tidy = places.iter().enumerate().all(|(i, p)| {
            p.misplaced.is_none()
                && p.next.is_some_and(|n| n >= p.off)
                && (i == 0 || p.off >= places[i - 1].end)
        });
        let mut i = 0usize;
        let n = places.len();
        if let Some(p) = page
            .map(|p| p as usize)
            .filter(|&p| n > p && tidy && prev_end <= places[0].off)
        {
            while i < n {
                let last = (i + p).min(n) - 1;
                let chunk: Vec<Place> = places[i..=last].to_vec();
                let (s, e) = (chunk[0].off, chunk[chunk.len() - 1].end);
                let first = i as u64;
                if i > 0 && s > prev_end {
                    pad(b, prev_end, s, lay.align(), "before the module");
                }
                prev_end = e.min(b.file_len());
                b.page(first, last as u64, s, e - s, move |b| {
                    let mut prev_end = s;
                    for (j, m) in chunk.iter().enumerate() {
                        module_at(b, first + j as u64, m, &mut prev_end, lay);
                    }
                    Ok(())
                })?;
                i = last + 1;
            }
            return Ok(());
        }
        for (i, m) in places.iter().enumerate() {
            module_at(b, i as u64, m, &mut prev_end, lay);
        }
        Ok(())
    })
}

/// Module-table entry `i` (the one after the modules, `n_modules`, is the end of
/// the last module).
fn table_entry(b: &mut Builder, i: u64, n_modules: u64, file_len: u64) -> DResult<()> {
    let off = b.u64(Name::Index(i.min(u32::MAX as u64) as u32))?;
    if i == n_modules {
        b.display(format!("end of the last module (0x{off:X})"));
        if off > file_len {
            b.error(format!(
                "the last module ends at 0x{off:X}, past the end of the file (0x{file_len:X})"
            ));
        }
    } else {
        b.display(format!("module [{i}] at 0x{off:X}"));
    }
    Ok(())
}

/// Where a module is, as the module table gives it.
#[derive(Clone, Debug)]
struct Place {
    off: u64,
    /// Where the table (or the module's length) says it ends, if it says.
    next: Option<u64>,
    /// Where it is read up to.
    end: u64,
    /// Why its offset cannot be followed.
    misplaced: Option<String>,
}

fn module_places(b: &Builder, table: &[u64], n: u64, lay: Layout, table_end: u64) -> Vec<Place> {
    let file_len = b.file_len();
    (0..n as usize)
        .map(|i| {
            let off = table[i];
            let next = if lay.table_has_end() {
                table.get(i + 1).copied()
            } else {
                // The 2023 header stores the module length at +16.
                peek_u64(b, off.saturating_add(16)).map(|len| off.saturating_add(len))
            };
            let misplaced = if off < table_end {
                Some(format!(
                    "module offset 0x{off:X} points inside the file header and module table (which end at 0x{table_end:X})"
                ))
            } else if off >= file_len {
                Some(format!(
                    "module offset 0x{off:X} is at or past the end of the file (0x{file_len:X})"
                ))
            } else {
                None
            };
            // An end before the start proves nothing: read up to the end of the file.
            let end = next.filter(|&n| n >= off).unwrap_or(file_len);
            Place {
                off,
                next,
                end,
                misplaced,
            }
        })
        .collect()
}

/// Module `i`, a region decoded when opened; `prev_end` is where the module
/// before it ends.
fn module_at(b: &mut Builder, i: u64, p: &Place, prev_end: &mut u64, lay: Layout) {
    let name = Name::Index(i as u32);
    let (off, next, end) = (p.off, p.next, p.end);
    if let Some(msg) = &p.misplaced {
        b.error_node(name, *prev_end, msg.clone());
        return;
    }
    if i > 0 && off > *prev_end {
        pad(b, *prev_end, off, lay.align(), "before the module");
    }
    let overlap = off < *prev_end;
    let pe = *prev_end;
    let what = if lay.table_has_end() {
        "the next module-table entry"
    } else {
        "the module's length field"
    };
    let label = format!(
        "module of {} bytes at 0x{off:X}, not decoded yet",
        end - off
    );
    b.lazy_region(name, Kind::Struct, off, end - off, Some(label), move |b| {
        let id = b.current();
        if overlap {
            set_error_once(
                b,
                id,
                format!("module starts at 0x{off:X}, inside the previous module (which ends at 0x{pe:X})"),
            );
        }
        if next.is_some_and(|n| n < off) {
            set_error_once(
                b,
                id,
                format!("{what} puts the module's end before its start (0x{off:X}); read up to the end of the file"),
            );
        }
        module::decode(b, off, lay)
    });
    // Modules are matched in order.
    if let Some(id) = b.last() {
        b.set_key(id, "module");
    }
    *prev_end = (*prev_end).max(end.min(b.file_len()));
}

/// The file header's fields and the check of its hash; returns the module count.
fn header(b: &mut Builder) -> DResult<u64> {
    (|| {
        magic(b, 8, FILE_MAGIC, "\\x7FLIBCHPL file")?;
        let major = b.u32("FormatVersionMajor")?;
        let minor = b.u32("FormatVersionMinor")?;
        if (major, minor) != (0, 1) {
            b.display(format!(
                "format version {major}.{minor}; hexlens knows the layouts of 0.1"
            ));
        }
        b.group("ChapelVersion", |b| {
            b.u32("Major")?;
            b.u32("Minor")?;
            b.u32("Update")?;
            Ok(())
        })?;
        let n_modules = b.u32("ModuleCount")? as u64;
        if n_modules >= MAX_NUM_MODULES {
            b.error(format!(
                "{n_modules} modules: Chapel's reader rejects {MAX_NUM_MODULES} or more"
            ));
        }
        sha256(b)?;
        Ok(n_modules)
    })()
}

/// `Sha256`: the stored digest (`Digest`) in a group that says whether it matches
/// the file. The check reads the whole file, so when the builder leaves parts
/// lazy the group is decoded (and the file hashed) only when it is opened:
/// opening the header costs its 64 bytes, not the file.
fn sha256(b: &mut Builder) -> DResult<()> {
    fn digest(b: &mut Builder) -> DResult<()> {
        b.bytes("Digest", HASH_SIZE)?;
        let id = b.current();
        check_hash(b, id);
        Ok(())
    }
    if b.lazy_threshold().is_none() || b.remaining() < HASH_SIZE {
        return b.group("Sha256", digest);
    }
    let whole = b.file_len();
    let label =
        format!("the stored SHA-256; opening it checks it against the whole file ({whole} bytes)");
    let at = b.pos();
    b.lazy_region_reading(
        whole,
        "Sha256",
        Kind::Struct,
        at,
        HASH_SIZE,
        Some(label),
        digest,
    );
    Ok(())
}

/// Records `msg` on node `id` unless it carries it already: a lazy region that
/// marks itself (its error stays when it is released) does so again each time it
/// is decoded anew.
fn set_error_once(b: &mut Builder, id: crate::tree::NodeId, msg: String) {
    if b.tree().error(id).is_some_and(|e| e.contains(&msg)) {
        return;
    }
    b.set_error(id, msg);
}

/// SHA-256 of the whole file with the hash field zeroed, read in 1 MiB chunks
/// (big enough to bypass the page cache: see [`crate::pages::DIRECT_READ`];
/// small enough to be hashed while still in the processor's cache: chunks of
/// 16 MiB made the check of a 70 MB file 390 → 552 ms in the browser).
fn file_sha256(b: &Builder) -> [u8; 32] {
    const CHUNK: u64 = crate::pages::DIRECT_READ;
    let mut h = Sha256::new();
    let len = b.file_len();
    let mut off = 0u64;
    while off < len {
        let mut chunk = b.peek_bytes(off, CHUNK);
        if chunk.is_empty() {
            break;
        }
        let end = off + chunk.len() as u64;
        let (zs, ze) = (HASH_AT.max(off), (HASH_AT + HASH_SIZE).min(end));
        for p in zs..ze {
            chunk[(p - off) as usize] = 0;
        }
        h.update(&chunk);
        off = end;
    }
    h.finalize().into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|x| format!("{x:02x}")).collect()
}

/// Compares the stored SHA-256 with the file's and says so on node `id`.
fn check_hash(b: &mut Builder, id: crate::tree::NodeId) {
    let stored = b.peek_bytes(HASH_AT, HASH_SIZE);
    let computed = file_sha256(b);
    if stored == computed {
        b.set_display(
            id,
            format!(
                "SHA-256 {}: matches the file hashed with this field zeroed",
                hex(&stored)
            ),
        );
    } else {
        b.set_display(
            id,
            format!(
                "SHA-256 mismatch: expected {}, found {}",
                hex(&computed),
                hex(&stored)
            ),
        );
        set_error_once(
            b,
            id,
            format!(
                "SHA-256 of the file (with this field zeroed) is {}, but the header stores {}",
                hex(&computed),
                hex(&stored)
            ),
        );
    }
}

// How far a container found inside another file extends (see `super::embedded`).

/// A .dyno header: its module table fits and rises. The 2024 writer's and the
/// spec's table hold one more offset than modules, the last the end of the
/// file; the 2021–2023 writer's holds the modules' offsets only, and each
/// module's header its length (see [`layout`]).
pub(crate) fn extent(src: &dyn ByteSource, offset: u64, room: u64) -> Option<u64> {
    let h = read_exact(src, offset, 64)?;
    let big = h[0] == b'L';
    let modules = u64::from(u32_at(&h, 28, big));
    let table_end = 64 + (modules + 1) * 8;
    if modules > 1 << 20 || table_end > room {
        return None;
    }
    let word = |at: u64| -> Option<u64> {
        if at.checked_add(8)? > room {
            return None;
        }
        Some(u64_at(&read_exact(src, offset + at, 8)?, 0, big))
    };
    // The first module's header tells the 2021–2023 layout, as it does when
    // the file is decoded.
    let first = word(64)?;
    let is_2023 = modules > 0
        && word(first) == Some(MODULE_MAGIC)
        && matches!((word(first + 16), word(first + 24)), (Some(w16), Some(w24)) if layout::is_2023_header(w16, w24));
    if is_2023 {
        // Modules start after the table (of `modules` offsets here).
        let table = table_end - 8;
        let mut end = table;
        for k in 0..modules {
            let at = word(64 + 8 * k)?;
            let module_end = at.checked_add(word(at.checked_add(16)?)?)?;
            if at < table || module_end > room {
                return None;
            }
            end = end.max(module_end);
        }
        return Some(end);
    }
    let t = read_exact(src, offset + 64, ((modules + 1) * 8) as usize)?;
    let mut last = table_end;
    for k in 0..=modules as usize {
        let o = u64_at(&t, 8 * k, big);
        if o < last || o > room {
            return None;
        }
        last = o;
    }
    Some(last)
}
