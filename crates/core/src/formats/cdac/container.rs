//! The object file around a blob: its kind, architecture, byte order and section
//! table, read with the `object` crate (ELF, COFF, PE, Mach-O, XCOFF).
//!
//! `object` reads through a [`ReadCache`] over the builder's peeks, so the file is
//! read piecewise and never copied whole; every read `object` makes is bounded by
//! the file size. Only plain facts come back ([`ObjectInfo`]); the tree is built
//! from them in `mod.rs`.
//!
//! WebAssembly: a wasm object's section list is read here, from the section headers
//! the WebAssembly core spec defines (an id byte and a LEB128 size; custom sections
//! start with a LEB128-prefixed name). Only the section boundaries and names are
//! read: no section contents. `object` 0.36's wasm reader (its `wasm` feature) was
//! tried on `tests/fixtures/cdac/wasm32.o` and rejected: it skipped the standard
//! sections and reported file ranges past the end of the file (0x3BC..0x880 in a
//! 0x535-byte object), and it would add `wasmparser` to the web bundle.

use crate::builder::Builder;
use object::{Object, ObjectSection};
use std::io::{Read, Seek, SeekFrom};

/// Longest section name kept.
const MAX_NAME: usize = 200;

/// One section of an object file.
#[derive(Clone, Debug)]
pub(super) struct SectionInfo {
    /// The object's own index for the section.
    pub index: u64,
    /// Section name (lossy UTF-8, shortened past [`MAX_NAME`] bytes).
    pub name: String,
    /// Segment name, where the format has one (Mach-O).
    pub segment: Option<String>,
    /// Virtual address (0 in relocatable objects).
    pub address: u64,
    /// Size in memory.
    pub size: u64,
    /// `object`'s classification (`ReadOnlyData`, `UninitializedData`, …).
    pub kind: String,
    /// File offset and length of the section's bytes, if it has any.
    pub file_range: Option<(u64, u64)>,
}

/// What `object` (or the wasm walk) says about the file.
#[derive(Clone, Debug)]
pub(super) struct ObjectInfo {
    /// File kind (`Elf64`, `Coff`, `MachO64`, `Pe64`, `Wasm`, `Archive`, …).
    pub kind: String,
    /// Binary format name, when the file could be opened as one object.
    pub format: Option<String>,
    /// Architecture name.
    pub architecture: Option<String>,
    /// True for little-endian objects.
    pub little_endian: Option<bool>,
    /// Name and size of the fixed header at offset 0.
    pub header: Option<(&'static str, u64)>,
    /// The section table, in the object's order.
    pub sections: Vec<SectionInfo>,
    /// Why the section table is missing or incomplete: `(message, is_error)`.
    pub problem: Option<(String, bool)>,
    /// Who read the section table.
    pub reader: &'static str,
}

/// `Read + Seek` over a peek function, for [`object::ReadCache`].
struct PeekReader<'a> {
    read: &'a dyn Fn(u64, &mut [u8]) -> usize,
    len: u64,
    pos: u64,
}

impl Read for PeekReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = (self.read)(self.pos, buf);
        self.pos = self.pos.saturating_add(n as u64);
        Ok(n)
    }
}

impl Seek for PeekReader<'_> {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        let target = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        match target {
            Some(p) => {
                self.pos = p;
                Ok(p)
            }
            None => Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "seek before the start of the file",
            )),
        }
    }
}

/// Copies file bytes at `offset` into `buf` through the builder's peek.
fn peek_into(b: &Builder, offset: u64, buf: &mut [u8]) -> usize {
    let got = b.peek_bytes(offset, buf.len() as u64);
    match buf.get_mut(..got.len()) {
        Some(dst) => {
            dst.copy_from_slice(&got);
            got.len()
        }
        None => 0,
    }
}

/// Looks at the file as an object file. `None` if it is not one (no object magic),
/// or if it is a COFF object `object` cannot open (COFF has no magic, only a
/// machine number, so such a file is more likely not COFF at all).
pub(super) fn inspect(b: &Builder) -> Option<ObjectInfo> {
    let read = |off: u64, buf: &mut [u8]| peek_into(b, off, buf);
    if b.peek_bytes(0, 4) == b"\0asm" {
        return Some(wasm(b));
    }
    let cache = object::ReadCache::new(PeekReader {
        read: &read,
        len: b.file_len(),
        pos: 0,
    });
    let kind = object::FileKind::parse(&cache).ok()?;
    let header = header_of(kind);
    let mut info = ObjectInfo {
        kind: format!("{kind:?}"),
        format: None,
        architecture: None,
        little_endian: None,
        header,
        sections: Vec::new(),
        problem: None,
        reader: "the object crate",
    };
    let file = match kind {
        object::FileKind::Archive
        | object::FileKind::MachOFat32
        | object::FileKind::MachOFat64
        | object::FileKind::DyldCache
        | object::FileKind::CoffImport => {
            info.problem = Some((
                format!(
                    "a {kind:?} file holds other objects (or none): its members' section tables are not shown"
                ),
                false,
            ));
            return Some(info);
        }
        _ => {
            match object::File::parse(&cache) {
                Ok(f) => f,
                Err(e) => {
                    if matches!(kind, object::FileKind::Coff) {
                        return None;
                    }
                    info.problem = Some((
                    format!("the object crate could not read this {kind:?} file's section table: {e}"),
                    true,
                ));
                    return Some(info);
                }
            }
        }
    };
    info.format = Some(format!("{:?}", file.format()));
    info.architecture = Some(format!("{:?}", file.architecture()));
    info.little_endian = Some(file.is_little_endian());
    for s in file.sections() {
        let name = match s.name_bytes() {
            Ok(n) => short(n),
            Err(e) => format!("<unreadable name: {e}>"),
        };
        let segment = s.segment_name_bytes().ok().flatten().map(short);
        info.sections.push(SectionInfo {
            index: s.index().0 as u64,
            name,
            segment,
            address: s.address(),
            size: s.size(),
            kind: format!("{:?}", s.kind()),
            file_range: s.file_range(),
        });
    }
    Some(info)
}

fn short(name: &[u8]) -> String {
    let cut = name.get(..MAX_NAME).unwrap_or(name);
    let mut s = String::from_utf8_lossy(cut).into_owned();
    if name.len() > MAX_NAME {
        s.push('…');
    }
    s
}

/// The fixed header at offset 0, named as its format names it, with the size of
/// `object`'s definition of it.
fn header_of(kind: object::FileKind) -> Option<(&'static str, u64)> {
    use object::{elf, macho, pe, Endianness};
    use std::mem::size_of;
    let (name, size) = match kind {
        object::FileKind::Elf32 => ("ElfHeader", size_of::<elf::FileHeader32<Endianness>>()),
        object::FileKind::Elf64 => ("ElfHeader", size_of::<elf::FileHeader64<Endianness>>()),
        object::FileKind::MachO32 => ("MachHeader", size_of::<macho::MachHeader32<Endianness>>()),
        object::FileKind::MachO64 => ("MachHeader", size_of::<macho::MachHeader64<Endianness>>()),
        object::FileKind::Coff => ("CoffFileHeader", size_of::<pe::ImageFileHeader>()),
        object::FileKind::CoffBig => (
            "AnonObjectHeaderBigobj",
            size_of::<pe::AnonObjectHeaderBigobj>(),
        ),
        object::FileKind::Pe32 | object::FileKind::Pe64 => {
            ("DosHeader", size_of::<pe::ImageDosHeader>())
        }
        _ => return None,
    };
    Some((name, size as u64))
}

/// The WebAssembly preamble: `\0asm` and a 4-byte version.
const WASM_PREAMBLE: u64 = 8;

/// Names `object` gives the standard wasm sections (custom sections use their own).
fn wasm_section_name(id: u8) -> &'static str {
    match id {
        1 => "<type>",
        2 => "<import>",
        3 => "<function>",
        4 => "<table>",
        5 => "<memory>",
        6 => "<global>",
        7 => "<export>",
        8 => "<start>",
        9 => "<element>",
        10 => "<code>",
        11 => "<data>",
        12 => "<data_count>",
        13 => "<tag>",
        _ => "<unknown>",
    }
}

// Kept: unsigned-varint rejects wasm's padded LEB128 (bench/RESULTS.md, "Library choices").
/// Reads an unsigned LEB128 of at most 5 bytes (a wasm `u32`) at `at`; returns the
/// value and the bytes it used.
fn leb_u32(b: &Builder, at: u64) -> Option<(u64, u64)> {
    let s = crate::varint::scan(b.peek_bytes(at, 5));
    (s.terminated && s.value <= u64::from(u32::MAX)).then_some((s.value, s.len))
}

/// The section list of a WebAssembly module (see the module docs).
fn wasm(b: &Builder) -> ObjectInfo {
    let len = b.file_len();
    let mut info = ObjectInfo {
        kind: "Wasm".into(),
        format: Some("Wasm".into()),
        architecture: None,
        little_endian: Some(true),
        header: Some(("WasmHeader", WASM_PREAMBLE.min(len))),
        sections: Vec::new(),
        problem: None,
        reader: "hexlens (this build of the object crate has no wasm support)",
    };
    let version = b.peek_bytes(4, 4);
    if version != [1, 0, 0, 0] {
        info.problem = Some((
            format!(
                "expected wasm version 01 00 00 00 at 0x4, found {}",
                crate::builder::hex_preview(&version)
            ),
            true,
        ));
        return info;
    }
    let mut at = WASM_PREAMBLE;
    let mut index = 0u64;
    // Every section takes at least two bytes, so this loop ends.
    while at < len {
        let id = b.peek_bytes(at, 1).first().copied().unwrap_or(0);
        let Some((size, used)) = leb_u32(b, at + 1) else {
            info.problem = Some((
                format!(
                    "expected a LEB128 section size at 0x{:X} (section {index})",
                    at + 1
                ),
                true,
            ));
            break;
        };
        let data = at + 1 + used;
        let name = if id == 0 {
            match leb_u32(b, data) {
                Some((n, nl)) => {
                    let end = data.saturating_add(nl).saturating_add(n);
                    if end <= data.saturating_add(size) && end <= len {
                        short(&b.peek_bytes(data + nl, n))
                    } else {
                        "<custom section with a bad name>".into()
                    }
                }
                None => "<custom section with a bad name>".into(),
            }
        } else {
            wasm_section_name(id).into()
        };
        info.sections.push(SectionInfo {
            index,
            name,
            segment: None,
            address: 0,
            size,
            kind: if id == 0 {
                "Custom".into()
            } else {
                "Standard".into()
            },
            file_range: Some((data, size)),
        });
        index += 1;
        at = data.saturating_add(size);
    }
    info
}
