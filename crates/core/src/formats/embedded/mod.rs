//! Containers inside other files: a file no decoder recognises (an FXC effect
//! file holding DXBC containers one after another, an executable or archive
//! with shaders or bitcode in it), or any file on request
//! ([`crate::Options::scan`]), scanned for every format's signature.
//!
//! A signature counts only when the header after it says where the container
//! ends and that end fits the file: a DXBC header whose FileSize and part
//! offsets fit, a bitcode wrapper whose offset and size fit (and hold raw
//! bitcode), raw bitcode whose top-level blocks can be walked to their end, a
//! cDAC blob whose directory fits whole, a .dyno header whose module table
//! fits, an LLVM 1.x module block whose size fits, an MSF superblock whose
//! pages fit. Each container found is decoded in place by its own decoder
//! (`DXContainer@0x1F40`, its nodes spanning the file's bytes), when it is
//! opened; bytes between containers are left `unknown`. The scan goes on after
//! a container's end, so the bitcode inside a DXIL part or the container in a
//! PDB's stream is shown inside its container, not again beside it.
//!
//! The scan reads the file once, 16 MiB at a time, and never holds it whole.

use super::Format;
use crate::builder::{Builder, DResult};
use crate::clip::thousands;
use crate::source::ByteSource;
use crate::tree::{Kind, Name, Value};

/// The registry entry. Its probe never matches: the decoder runs when no other
/// recognises a file, or when asked for.
pub const FORMAT: Format = Format {
    name: "embedded",
    root: "Embedded",
    description: "Containers of the known formats found inside another file (effect files, executables, archives)",
    extensions: &["fxo", "exe", "dll", "o", "a"],
    probe: |_| false,
    decode,
};

/// Most containers decoded from one file.
pub const MAX_FOUND: usize = 100_000;

/// Bytes read per step of the scan: the pieces a big read is fetched in (in
/// the browser, a file reads faster in pieces of 16 MiB than of 1 MiB).
const CHUNK: usize = crate::pages::PIECE as usize;

/// A container found inside a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Where its signature starts.
    pub offset: u64,
    /// Its bytes, as its header says.
    pub len: u64,
    /// The decoder for it ([`Format::name`]).
    pub format: &'static str,
}

/// What a scan found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scan {
    /// The containers, in file order, none inside another.
    pub found: Vec<Found>,
    /// True if the scan stopped at [`MAX_FOUND`].
    pub truncated: bool,
}

/// The signatures looked for, and the decoder whose containers start with each.
const SIGNATURES: &[(&[u8], &str)] = &[
    (b"DXBC", "dxcontainer"),
    (b"BC\xC0\xDE", "bitcode"),
    (b"\xDE\xC0\x17\x0B", "bitcode"),
    (b"DACBLOB\0", "cdac"),
    (b"\0BOLBCAD", "cdac"),
    (b"\x7FLIBCHPL", "chapel-dyno"),
    (b"LPHCBIL\x7F", "chapel-dyno"),
    (b"llvm", "llvm1-bytecode"),
    (b"Microsoft C/C++ MSF 7.00\r\n", "msf"),
];

/// Longest signature, less one: how far consecutive chunks overlap.
const OVERLAP: usize = 25;

/// Scans `src` for containers (see the module's description).
pub fn scan(src: &dyn ByteSource) -> Scan {
    scan_in_chunks(src, CHUNK)
}

/// How far the scan may move on when the byte at `i + 3` is `b`: no
/// signature starts at `i`, …, `i + SKIP[b] - 1` (a signature starting at
/// `i + d` has `b` as its byte `3 - d`). 0: one may start at `i`.
const SKIP: [u8; 256] = {
    let mut t = [4u8; 256];
    let mut k = 0;
    while k < SIGNATURES.len() {
        let sig = SIGNATURES[k].0;
        let mut j = 0;
        while j < 4 {
            let shift = 3 - j as u8;
            if shift < t[sig[j] as usize] {
                t[sig[j] as usize] = shift;
            }
            j += 1;
        }
        k += 1;
    }
    t
};

/// Positions in `w` before `end` where a signature starts, with its index in
/// [`SIGNATURES`]. One pass, most bytes skipped (see [`SKIP`]): a few bytes
/// looked at per four on bytes that hold none, in wasm as natively.
fn signatures_in(w: &[u8], end: usize, base: u64, out: &mut Vec<(u64, usize)>) {
    let mut i = 0;
    while i < end && i + 4 <= w.len() {
        let s = SKIP[w[i + 3] as usize];
        if s > 0 {
            i += s as usize;
            continue;
        }
        for (k, (sig, _)) in SIGNATURES.iter().enumerate() {
            if w[i..].starts_with(sig) {
                out.push((base + i as u64, k));
            }
        }
        i += 1;
    }
}

fn scan_in_chunks(src: &dyn ByteSource, chunk: usize) -> Scan {
    let len = src.len();
    let mut out = Scan::default();
    // Nothing starts before `free`: the end of the last container found.
    let mut free = 0u64;
    let mut at = 0u64;
    // No bigger than the file: a small file costs little memory.
    let cap = (chunk + OVERLAP).min(usize::try_from(len).unwrap_or(usize::MAX));
    let mut buf = vec![0u8; cap];
    let mut hits: Vec<(u64, usize)> = Vec::new();
    while at < len {
        let want = cap.min(usize::try_from(len - at).unwrap_or(usize::MAX));
        let got = src.read_at(at, &mut buf[..want]);
        if got == 0 {
            break;
        }
        let window = &buf[..got];
        // Signatures starting in this chunk's own `chunk` bytes (the overlap
        // lets one straddle into the next read).
        hits.clear();
        signatures_in(window, chunk, at, &mut hits);
        for &(offset, k) in &hits {
            if offset < free {
                continue;
            }
            let format = SIGNATURES[k].1;
            if let Some(n) = extent(src, offset, format).filter(|&n| n > 0) {
                if out.found.len() == MAX_FOUND {
                    out.truncated = true;
                    return out;
                }
                out.found.push(Found {
                    offset,
                    len: n,
                    format,
                });
                free = offset + n;
            }
        }
        at = at.saturating_add(chunk as u64).max(free.min(len));
    }
    out
}

/// Reads `n` bytes at `at`, or `None` if the file ends first.
fn read(src: &dyn ByteSource, at: u64, n: usize) -> Option<Vec<u8>> {
    let mut v = vec![0u8; n];
    (src.read_at(at, &mut v) == n).then_some(v)
}

fn u32_at(b: &[u8], i: usize, big: bool) -> u32 {
    let w: [u8; 4] = b[i..i + 4].try_into().unwrap_or_default();
    if big {
        u32::from_be_bytes(w)
    } else {
        u32::from_le_bytes(w)
    }
}

/// The bytes of the container of `format` whose signature is at `offset`, if
/// its header says where it ends and that end fits the file.
fn extent(src: &dyn ByteSource, offset: u64, format: &str) -> Option<u64> {
    let room = src.len().checked_sub(offset)?;
    let n = match format {
        "dxcontainer" => dxbc(src, offset, room),
        "bitcode" => bitcode(src, offset, room),
        "cdac" => super::cdac::blob_extent(src, offset),
        "chapel-dyno" => dyno(src, offset, room),
        "llvm1-bytecode" => llvm1(src, offset, room),
        "msf" => msf(src, offset, room),
        _ => None,
    }?;
    (n <= room).then_some(n)
}

/// A DXBC header: FileSize at least the header and part table, within the
/// file, and every part's offset leaving room for its header inside it.
fn dxbc(src: &dyn ByteSource, offset: u64, room: u64) -> Option<u64> {
    let h = read(src, offset, 32)?;
    let size = u64::from(u32_at(&h, 24, false));
    let parts = u64::from(u32_at(&h, 28, false));
    let table_end = 32 + parts * 4;
    if size > room || table_end > size || parts > 1 << 16 {
        return None;
    }
    let t = read(src, offset + 32, (parts * 4) as usize)?;
    let fits = (0..parts as usize).all(|i| {
        let o = u64::from(u32_at(&t, i * 4, false));
        o >= table_end && o + 8 <= size
    });
    fits.then_some(size)
}

/// Top-level block ids of LLVM bitcode: BLOCKINFO, MODULE, IDENTIFICATION,
/// STRTAB, SYMTAB.
const TOP_BLOCKS: &[u64] = &[0, 8, 13, 23, 25];

/// A bitcode wrapper (its offset and size fit, raw bitcode where it points)
/// or raw bitcode (see [`raw_bitcode`]).
fn bitcode(src: &dyn ByteSource, offset: u64, room: u64) -> Option<u64> {
    let magic = read(src, offset, 4)?;
    if magic == b"BC\xC0\xDE" {
        return raw_bitcode(src, offset, room);
    }
    let h = read(src, offset, 20)?;
    let at = u64::from(u32_at(&h, 8, false));
    let size = u64::from(u32_at(&h, 12, false));
    let end = at.checked_add(size)?;
    if at < 20 || end > room || read(src, offset + at, 4)? != b"BC\xC0\xDE" {
        return None;
    }
    Some(end)
}

/// Raw bitcode: the top-level blocks after the magic, walked by their length
/// words, the first a MODULE, IDENTIFICATION or BLOCKINFO block; it ends after
/// the last block that fits.
fn raw_bitcode(src: &dyn ByteSource, offset: u64, room: u64) -> Option<u64> {
    let mut pos = 4u64;
    let mut blocks = 0;
    while pos + 8 <= room {
        let Some(next) = top_block(src, offset + pos, room - pos, blocks == 0) else {
            break;
        };
        pos += next;
        blocks += 1;
    }
    (blocks > 0).then_some(pos)
}

/// The bytes of the top-level block whose header is at `at` (a 32-bit
/// boundary of the stream, abbreviation width 2), if it is one and fits `room`.
fn top_block(src: &dyn ByteSource, at: u64, room: u64, first: bool) -> Option<u64> {
    let mut h = [0u8; 16];
    let got = src.read_at(at, &mut h[..room.min(16) as usize]);
    if got < 8 {
        return None;
    }
    let bits = u128::from_le_bytes(h);
    let mut cur = 0u32;
    let mut take = |n: u32| {
        let v = (bits >> cur) as u64 & ((1u64 << n) - 1);
        cur += n;
        v
    };
    // ENTER_SUBBLOCK: abbreviation id 1.
    if take(2) != 1 {
        return None;
    }
    let vbr = |take: &mut dyn FnMut(u32) -> u64, n: u32| -> Option<u64> {
        let mut v = 0u64;
        for i in 0..4 {
            let c = take(n);
            v |= (c & ((1 << (n - 1)) - 1)) << (i * (n - 1));
            if c >> (n - 1) == 0 {
                return Some(v);
            }
        }
        None
    };
    let id = vbr(&mut take, 8)?;
    let width = vbr(&mut take, 4)?;
    let allowed = if first { &[0, 8, 13][..] } else { TOP_BLOCKS };
    if !allowed.contains(&id) || !(2..=32).contains(&width) {
        return None;
    }
    let head = u64::from(cur.div_ceil(32) * 4);
    if head + 4 > got as u64 {
        return None;
    }
    let words = u64::from(u32::from_le_bytes(
        h[head as usize..head as usize + 4].try_into().ok()?,
    ));
    let n = head + 4 + words * 4;
    (words > 0 && n <= room).then_some(n)
}

/// A .dyno header: its module table (one more offset than modules, the last
/// the end of the file) fits and rises.
fn dyno(src: &dyn ByteSource, offset: u64, room: u64) -> Option<u64> {
    let h = read(src, offset, 64)?;
    let big = h[0] == b'L';
    let modules = u64::from(u32_at(&h, 28, big));
    let table_end = 64 + (modules + 1) * 8;
    if modules > 1 << 20 || table_end > room {
        return None;
    }
    let t = read(src, offset + 64, ((modules + 1) * 8) as usize)?;
    let mut last = table_end;
    for w in t.chunks_exact(8) {
        let w: [u8; 8] = w.try_into().ok()?;
        let o = if big {
            u64::from_be_bytes(w)
        } else {
            u64::from_le_bytes(w)
        };
        if o < last || o > room {
            return None;
        }
        last = o;
    }
    Some(last)
}

/// LLVM 1.x bytecode (uncompressed, `llvm`): a module block (id 1) whose size
/// fits. Compressed bytecode (`llvc`) does not say where it ends and is not
/// looked for.
fn llvm1(src: &dyn ByteSource, offset: u64, room: u64) -> Option<u64> {
    let h = read(src, offset, 12)?;
    let size = u64::from(u32_at(&h, 8, false));
    (u32_at(&h, 4, false) == 1 && size > 0 && 12 + size <= room).then_some(12 + size)
}

/// An MSF 7.00 superblock: its page size one the format allows, its pages
/// within the file.
fn msf(src: &dyn ByteSource, offset: u64, room: u64) -> Option<u64> {
    let h = read(src, offset, 44)?;
    if h[..32] != super::msf::layout::MAGIC[..] {
        return None;
    }
    let page = u32_at(&h, 32, false);
    let pages = u64::from(u32_at(&h, 40, false));
    let n = u64::from(page) * pages;
    (super::msf::layout::valid_block_size(page) && pages > 0 && n <= room).then_some(n)
}

/// The decoder: the containers found, each decoded in place when opened.
fn decode(b: &mut Builder) -> DResult<()> {
    let s = scan(b.source());
    let root = b.current();
    b.set_value(root, Value::U(s.found.len() as u64));
    if s.found.is_empty() {
        let head = b.peek_bytes(0, 8);
        b.set_error(root, crate::unrecognised(&head, true));
        return Ok(());
    }
    b.set_display(
        root,
        format!(
            "{} container{} found by their signatures{}",
            thousands(s.found.len() as u64),
            if s.found.len() == 1 { "" } else { "s" },
            if s.truncated {
                format!(" (the scan stopped at {})", thousands(MAX_FOUND as u64))
            } else {
                String::new()
            }
        ),
    );
    for f in s.found {
        let Some(format) = super::by_name(f.format) else {
            // A build without that decoder: the bytes stay unknown.
            continue;
        };
        let name = Name::Owned(format!("{}@0x{:X}", format.root, f.offset).into());
        let label = format!("{}, {} bytes", format.description, thousands(f.len));
        let (base, len) = (f.offset, f.len);
        b.lazy_region(name, Kind::Struct, base, len, Some(label), move |b| {
            super::nest::graft(b, format, base, len)
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests;
