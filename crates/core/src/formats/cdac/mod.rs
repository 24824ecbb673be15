//! .NET cDAC data-descriptor blobs (`specs/cdac-data-descriptor.md`,
//! `specs/notes/cdac-layout.md`), standalone or embedded in an object file.
//!
//! The blob is found by its magic anywhere in the file ([`scan`]); each one is
//! decoded by [`blob`] (directory, platform flags, baseline, type specs with their
//! field runs, field pool, global literals and pointers, names pool, end magic).
//!
//! Tree:
//! * standalone: `Blobs/[i]` under the root;
//! * in an ELF, COFF, PE, Mach-O or wasm object: `ObjectFile` (format, architecture,
//!   byte order as derived values, the format's header as a raw run) with
//!   `Sections/[i]` regions over each section's file bytes (sections without file
//!   bytes are empty derived nodes), and each blob in `Sections/[i]/Blobs/[j]`
//!   inside the section that holds its magic. Blobs outside every section are in
//!   `ObjectFile/Blobs`. The section table itself comes from the `object` crate
//!   ([`container`]); object headers are not decoded field by field.

mod blob;
mod container;
mod scan;

use super::{Embedded, Format};
use crate::builder::{Builder, DResult};
use crate::claims::Claims;
use crate::source::ByteSource;
use crate::tree::{BitSpan, Kind, Name, Value};
use scan::Hit;

/// The registry entry.
pub const FORMAT: Format = Format {
    name: "cdac",
    root: "CdacDescriptor",
    description:
        ".NET cDAC data-descriptor blob (standalone or inside an ELF/COFF/Mach-O/wasm object)",
    extensions: &["bin", "o", "obj", "so", "dll", "dylib"],
    module: "cdac",
    probe,
    // The probe searches the file: the page sends what no head probe
    // recognises to this module (`super::FALLBACK`).
    head_probe: false,
    embedded: Some(Embedded {
        signatures: &[&scan::MAGIC_LE, &scan::MAGIC_BE],
        extent: |src, offset, _room| blob_extent(src, offset),
    }),
    decode: &decode,
    doc: None,
};

/// The probe looks for a magic in the first 64 MiB only, so that a large file no
/// other decoder claims is rejected quickly; a blob deeper in such a file is not
/// auto-detected (decoding, once chosen, scans the whole file).
const PROBE_LIMIT: u64 = 64 << 20;

/// Most blobs decoded from one file.
const MAX_BLOBS: usize = 4096;

/// True if the file holds `DACBLOB\0` or `00 42 4F 4C 42 43 41 44` in its first
/// [`PROBE_LIMIT`] bytes. (An object file is only a cDAC file if it holds the
/// magic too, so the magic is the whole test.)
fn probe(src: &dyn ByteSource) -> bool {
    let read = |off: u64, buf: &mut [u8]| src.read_at(off, buf);
    !scan::scan(src.len(), PROBE_LIMIT, scan::CHUNK, 1, &read)
        .hits
        .is_empty()
}

/// The bytes of the blob whose magic is at `offset` (the blob alone: its
/// directory and everything it points at), if all 11 of its directory's
/// offsets and counts fit the rest of the file: how far a blob found inside a
/// file of another kind reaches (see [`super::embedded`]).
pub(crate) fn blob_extent(src: &dyn ByteSource, offset: u64) -> Option<u64> {
    let mut magic = [0u8; 8];
    if src.read_at(offset, &mut magic) != 8 {
        return None;
    }
    let bytes = match magic {
        scan::MAGIC_LE => scan::MagicBytes::Ascending,
        scan::MAGIC_BE => scan::MagicBytes::Reversed,
        _ => return None,
    };
    let b = Builder::new(src, "");
    let plan = blob::plan(&b, Hit { offset, bytes }, src.len());
    let score = match plan.endian {
        crate::builder::Endian::Little => plan.scores.0,
        crate::builder::Endian::Big => plan.scores.1,
    };
    (plan.dir.is_some() && score == 11 && plan.extent <= src.len() - offset).then_some(plan.extent)
}

fn decode(b: &mut Builder) -> DResult<()> {
    let len = b.file_len();
    let found = {
        let b: &Builder = b;
        let read = |off: u64, buf: &mut [u8]| {
            let got = b.peek_bytes(off, buf.len() as u64);
            match buf.get_mut(..got.len()) {
                Some(dst) => {
                    dst.copy_from_slice(&got);
                    got.len()
                }
                None => 0,
            }
        };
        scan::scan(len, len, scan::CHUNK, MAX_BLOBS, &read)
    };
    let root = b.current();
    if found.hits.is_empty() {
        b.set_error(
            root,
            "no cDAC blob magic (\"DACBLOB\\0\" or 00 42 4F 4C 42 43 41 44) anywhere in the file",
        );
    } else if found.truncated {
        b.set_display(
            root,
            format!("more than {MAX_BLOBS} blob magics: only the first {MAX_BLOBS} are decoded"),
        );
    }
    match container::inspect(b) {
        Some(info) => object_file(b, &info, &found.hits),
        None => {
            blobs(b, &found.hits, &|_| (len, "the file".into()));
            Ok(())
        }
    }
}

/// Decodes the blobs whose magics are `hits` (in file order) as `Blobs/[i]` at the
/// cursor's level. `container(offset)` says where the container holding a magic at
/// `offset` ends, and how to name it in messages.
///
/// A magic inside a blob whose whole directory fits (say, in a name) is part of
/// that blob, not a new one. A blob with a damaged directory is cut at the next
/// magic instead, so a bad blob cannot swallow a good one.
fn blobs(b: &mut Builder, hits: &[Hit], container: &dyn Fn(u64) -> (u64, String)) {
    let mut plans: Vec<(blob::Plan, u64, String)> = Vec::new();
    let mut covered = 0u64;
    for &hit in hits {
        if hit.offset < covered {
            continue;
        }
        let (stop, what) = container(hit.offset);
        if hit.offset >= stop {
            continue;
        }
        let plan = blob::plan(b, hit, stop);
        let whole = plan.scores.0.max(plan.scores.1) == 11;
        covered = if whole {
            hit.offset.saturating_add(plan.extent.max(blob::MAGIC_SIZE))
        } else {
            hit.offset.saturating_add(blob::MAGIC_SIZE)
        };
        plans.push((plan, stop, what));
    }
    // Cut each blob at the next one's magic.
    for i in 1..plans.len() {
        let next = plans[i].0.hit.offset;
        let prev = &mut plans[i - 1];
        if next < prev.1 && prev.0.hit.offset.saturating_add(prev.0.extent) > next {
            prev.1 = next;
            prev.2 = format!("the next blob magic (at 0x{next:X})");
        }
    }
    let Some(first) = plans.first() else {
        return;
    };
    b.seek(first.0.hit.offset);
    let _ = b.array("Blobs", |b| {
        for (i, (plan, stop, what)) in plans.iter().enumerate() {
            let start = plan.hit.offset;
            let blob_end = start.saturating_add(plan.extent).min(*stop);
            blob::region(b, Name::Index(i as u32), plan, blob_end, what);
        }
        Ok(())
    });
}

/// How a section is shown.
enum Placement {
    /// A region over `[start, start + len)` (len as the section says; the region
    /// reports any part past the end of the file).
    Region { start: u64, len: u64 },
    /// No file bytes: an empty derived node, with an error if that is wrong.
    NoData(Option<String>),
}

fn object_file(b: &mut Builder, info: &container::ObjectInfo, hits: &[Hit]) -> DResult<()> {
    let len = b.file_len();
    // Claimed byte ranges, so no two section regions overlap: the header's
    // (no index) and each section region's, with its index in `places`.
    let mut taken: Claims<Option<usize>> = Claims::default();
    let header = info.header.filter(|&(_, n)| n > 0 && n <= len);
    if let Some((_, n)) = header {
        taken.add(0, n, None);
    }
    let mut places = Vec::with_capacity(info.sections.len());
    for s in &info.sections {
        let place = match s.file_range {
            None | Some((_, 0)) => Placement::NoData(None),
            Some((off, _)) if off >= len => Placement::NoData(Some(format!(
                "its file bytes at 0x{off:X} start past the end of the file (0x{len:X})"
            ))),
            Some((off, size)) => {
                let end = off.saturating_add(size).min(len);
                match taken.first_clash(off, end) {
                    Some((st, e, _)) => Placement::NoData(Some(format!(
                        "its file bytes 0x{off:X}–0x{end:X} overlap bytes 0x{st:X}–0x{e:X} already shown (a header or another section)"
                    ))),
                    None => {
                        taken.add(off, end, Some(places.len()));
                        Placement::Region { start: off, len: size }
                    }
                }
            }
        };
        places.push(place);
    }
    // Which section region holds each magic.
    let mut inside: Vec<Vec<Hit>> = vec![Vec::new(); places.len()];
    let mut outside = Vec::new();
    let mut in_header = Vec::new();
    for &hit in hits {
        match taken.owner(hit.offset) {
            Some(Some(i)) => inside[i].push(hit),
            Some(None) => in_header.push(hit),
            None => outside.push(hit),
        }
    }

    b.region("ObjectFile", Kind::Struct, 0, len, |b| {
        let obj = b.current();
        let whole = BitSpan::bytes(0, len.min(16));
        let format = info.format.clone().unwrap_or_else(|| info.kind.clone());
        b.derived(
            "Format",
            Value::Str(format),
            whole,
            Some(format!(
                "file kind {}; sections read by {}",
                info.kind, info.reader
            )),
        )?;
        if let Some(a) = &info.architecture {
            b.derived("Architecture", Value::Str(a.clone()), whole, None)?;
        }
        if let Some(le) = info.little_endian {
            let e = if le { "Little" } else { "Big" };
            b.derived(
                "Endianness",
                Value::Str(e.into()),
                whole,
                Some(format!("{e}-endian object")),
            )?;
        }
        match &info.problem {
            Some((msg, true)) => b.set_error(obj, msg.clone()),
            Some((msg, false)) => b.set_display(obj, msg.clone()),
            None => {}
        }
        if let Some((name, n)) = header {
            b.seek(0);
            b.bytes(name, n)?;
            b.display(format!(
                "{} header: {n} bytes, not decoded field by field",
                info.kind
            ));
            if let Some(h) = in_header.first() {
                b.error(format!(
                    "a blob magic at 0x{:X} lies inside the object's header: not decoded",
                    h.offset
                ));
            }
        }
        sections(b, info, &places, &inside);
        // A blob outside every section may run up to the next section.
        let free = |off: u64| match taken.next_start(off) {
            Some(s) => (s, format!("the free space before the bytes at 0x{s:X}")),
            None => (len, "the file".to_string()),
        };
        blobs(b, &outside, &free);
        Ok(())
    });
    Ok(())
}

fn sections(
    b: &mut Builder,
    info: &container::ObjectInfo,
    places: &[Placement],
    inside: &[Vec<Hit>],
) {
    if info.sections.is_empty() {
        return;
    }
    let first = places
        .iter()
        .filter_map(|p| match *p {
            Placement::Region { start, .. } => Some(start),
            Placement::NoData(_) => None,
        })
        .min();
    if let Some(s) = first {
        b.seek(s);
    }
    let len = b.file_len();
    let _ = b.array("Sections", |b| {
        for (i, (s, place)) in info.sections.iter().zip(places).enumerate() {
            let name = Name::Index(i as u32);
            let label = match &s.segment {
                Some(seg) => format!("{seg},{}", s.name),
                None => s.name.clone(),
            };
            match place {
                Placement::Region { start, len: n } => {
                    let start = *start;
                    let end = start.saturating_add(*n).min(len);
                    let what = format!("section {label}");
                    let hits = &inside[i];
                    // Sections are few; the blobs inside are decoded on demand.
                    b.region(name, Kind::Struct, start, *n, |b| {
                        let id = b.current();
                        b.set_display(id, label.clone());
                        section_meta(b, s, BitSpan::bytes(start, end))?;
                        blobs(b, hits, &|_| (end, what.clone()));
                        Ok(())
                    });
                }
                Placement::NoData(problem) => {
                    let at = b.pos();
                    let id = b
                        .derived_group_field(name, None, |b| {
                            section_meta(b, s, BitSpan::bytes(at, at))
                        })?
                        .id;
                    b.set_display(id, format!("{label} (no bytes in the file)"));
                    if let Some(p) = problem {
                        b.set_error(id, p.clone());
                    }
                }
            }
        }
        Ok(())
    });
}

fn section_meta(b: &mut Builder, s: &container::SectionInfo, from: BitSpan) -> DResult<()> {
    b.derived("Index", Value::U(s.index), from, None)?;
    b.derived("Name", Value::Str(s.name.clone()), from, None)?;
    if let Some(seg) = &s.segment {
        b.derived("Segment", Value::Str(seg.clone()), from, None)?;
    }
    b.derived(
        "Address",
        Value::U(s.address),
        from,
        Some(format!("0x{:X}", s.address)),
    )?;
    b.derived(
        "Size",
        Value::U(s.size),
        from,
        Some(format!("0x{:X}", s.size)),
    )?;
    b.derived("Kind", Value::Str(s.kind.clone()), from, None)?;
    if let Some((off, n)) = s.file_range {
        b.derived(
            "FileRange",
            Value::U(off),
            from,
            Some(format!("0x{off:X}..0x{:X}", off.saturating_add(n))),
        )?;
    }
    Ok(())
}
