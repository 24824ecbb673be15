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
    module: "tools",
    probe: |_| false,
    head_probe: false,
    embedded: None,
    decode: &decode,
    doc: None,
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

/// The signatures looked for: every signature of every decoder built in or
/// registered that says how a container of its format is found inside
/// another file ([`Format::embedded`]), with that format.
struct Signatures {
    list: Vec<(&'static [u8], &'static Format)>,
    /// How far the scan may move on when the byte at `i + 3` is `b`: no
    /// signature starts at `i`, …, `i + skip[b] - 1` (a signature starting at
    /// `i + d` has `b` as its byte `3 - d`). 0: one may start at `i`.
    skip: [u8; 256],
    /// Longest signature, less one: how far consecutive chunks overlap.
    overlap: usize,
}

impl Signatures {
    fn of_registry() -> Signatures {
        let list: Vec<(&'static [u8], &'static Format)> = super::formats()
            .into_iter()
            .filter_map(|f| f.embedded.map(|e| (e, f)))
            .flat_map(|(e, f)| e.signatures.iter().map(move |&sig| (sig, f)))
            .filter(|(sig, _)| <[u8]>::len(sig) >= 4)
            .collect();
        let mut skip = [4u8; 256];
        for (sig, _) in &list {
            for (j, &byte) in sig[..4].iter().enumerate() {
                let shift = 3 - j as u8;
                let t = &mut skip[byte as usize];
                *t = (*t).min(shift);
            }
        }
        let overlap = list.iter().map(|(s, _)| <[u8]>::len(s)).max().unwrap_or(1) - 1;
        Signatures {
            list,
            skip,
            overlap,
        }
    }

    /// Positions in `w` before `end` where a signature starts, with its index
    /// in the list. One pass, most bytes skipped (see [`Signatures::skip`]): a
    /// few bytes looked at per four on bytes that hold none, in wasm as
    /// natively.
    fn find(&self, w: &[u8], end: usize, base: u64, out: &mut Vec<(u64, usize)>) {
        let mut i = 0;
        while i < end && i + 4 <= w.len() {
            let s = self.skip[w[i + 3] as usize];
            if s > 0 {
                i += s as usize;
                continue;
            }
            for (k, (sig, _)) in self.list.iter().enumerate() {
                if w[i..].starts_with(sig) {
                    out.push((base + i as u64, k));
                }
            }
            i += 1;
        }
    }
}

/// Scans `src` for containers (see the module's description).
pub fn scan(src: &dyn ByteSource) -> Scan {
    scan_in_chunks(src, CHUNK)
}

fn scan_in_chunks(src: &dyn ByteSource, chunk: usize) -> Scan {
    let len = src.len();
    let mut out = Scan::default();
    let sigs = Signatures::of_registry();
    // Nothing starts before `free`: the end of the last container found.
    let mut free = 0u64;
    let mut at = 0u64;
    // No bigger than the file: a small file costs little memory.
    let cap = (chunk + sigs.overlap).min(usize::try_from(len).unwrap_or(usize::MAX));
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
        sigs.find(window, chunk, at, &mut hits);
        for &(offset, k) in &hits {
            if offset < free {
                continue;
            }
            let format = sigs.list[k].1;
            if let Some(n) = extent(src, offset, format).filter(|&n| n > 0) {
                if out.found.len() == MAX_FOUND {
                    out.truncated = true;
                    return out;
                }
                out.found.push(Found {
                    offset,
                    len: n,
                    format: format.name,
                });
                free = offset + n;
            }
        }
        at = at.saturating_add(chunk as u64).max(free.min(len));
    }
    out
}

/// The bytes of the container of `format` whose signature is at `offset`, if
/// its header says where it ends and that end fits the file.
fn extent(src: &dyn ByteSource, offset: u64, format: &Format) -> Option<u64> {
    let room = src.len().checked_sub(offset)?;
    let n = (format.embedded?.extent)(src, offset, room)?;
    (n <= room).then_some(n)
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
