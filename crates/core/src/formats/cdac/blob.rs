//! One data-descriptor blob: magic, directory, platform flags and baseline name,
//! type specs with their field runs, the field pool, global literals and pointers,
//! the names pool and the end magic (`specs/cdac-data-descriptor.md`, "Blob";
//! `specs/notes/cdac-layout.md` for the two directory layouts).
//!
//! All offsets in the directory count from the end of the 8-byte magic. Entries are
//! stepped by the directory's spec sizes, never by the sizes of the fields this
//! decoder knows, so compiler padding is skipped as the design asks; bytes between
//! the known fields and the spec size are shown as padding.
//!
//! Before any node is made, [`plan`] peeks at the directory in both byte orders
//! and keeps the one whose offsets and counts fit the blob (the magic alone cannot
//! tell: a magic written as a string reads `DACBLOB\0` on big-endian targets too),
//! and works out how far the blob reaches. [`decode`] then peeks every spec record
//! (to resolve field runs and count name uses) and builds the tree. Tables reached
//! through the directory become regions at their offsets, in file order; a table
//! that would overlap one already shown is reported instead of decoded twice.

use super::scan::{Hit, MagicBytes};
use crate::builder::{hex_preview, Builder, DResult, Endian, Field, MAX_REF_STRING};
use crate::tree::{BitSpan, Kind, Name, NodeId, Value};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// Size of the magic before the blob.
pub(super) const MAGIC_SIZE: u64 = 8;
/// Size of the directory: 11 `u32`s and 4 `u8`s.
pub(super) const DIRECTORY_SIZE: u64 = 48;
/// The end magic after the names pool.
const END_MAGIC: [u8; 4] = [0x01, 0x02, 0x03, 0x04];
/// Bytes of the fields each spec record holds (`u32 Name; u32 Fields; u16 Size`, …).
const TYPE_SPEC_FIELDS: u64 = 10;
const FIELD_SPEC_FIELDS: u64 = 10;
const LITERAL_SPEC_FIELDS: u64 = 16;
const POINTER_SPEC_FIELDS: u64 = 8;
/// A zero run between two tables shorter than this is shown as alignment padding.
const MAX_ALIGNMENT_GAP: u64 = 16;

/// Where `FlagsAndBaselineStart` / `BaselineStart` leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Layout {
    /// The design document's and the runtime writer's: `u32 PlatformFlags` then
    /// `u32 BaselineName` (`TypesStart` is 8 past the first directory word).
    Runtime,
    /// cdac-build-tool's sample: `u32 BaselineName` alone (`TypesStart` is 4 past).
    Sample,
}

/// The directory's values, widened to `u64`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Directory {
    first: u64,
    types: u64,
    fields: u64,
    literals: u64,
    pointers: u64,
    names: u64,
    type_count: u64,
    field_count: u64,
    literal_count: u64,
    pointer_count: u64,
    names_count: u64,
    type_size: u64,
    field_size: u64,
    literal_size: u64,
    pointer_size: u64,
}

/// Reads `size` bytes at `at` as an unsigned integer in `endian` order (no node).
fn peek(b: &Builder, at: u64, size: u64, endian: Endian) -> Option<u64> {
    let bytes = b.peek_bytes(at, size);
    if bytes.len() as u64 != size {
        return None;
    }
    let mut v = 0u64;
    match endian {
        Endian::Little => {
            for (i, &x) in bytes.iter().enumerate() {
                v |= (x as u64) << (8 * i);
            }
        }
        Endian::Big => {
            for &x in &bytes {
                v = (v << 8) | x as u64;
            }
        }
    }
    Some(v)
}

fn peek_directory(b: &Builder, h: u64, endian: Endian) -> Option<Directory> {
    let w = |i: u64| peek(b, h + 4 * i, 4, endian);
    let s = |i: u64| peek(b, h + 44 + i, 1, endian);
    Some(Directory {
        first: w(0)?,
        types: w(1)?,
        fields: w(2)?,
        literals: w(3)?,
        pointers: w(4)?,
        names: w(5)?,
        type_count: w(6)?,
        field_count: w(7)?,
        literal_count: w(8)?,
        pointer_count: w(9)?,
        names_count: w(10)?,
        type_size: s(0)?,
        field_size: s(1)?,
        literal_size: s(2)?,
        pointer_size: s(3)?,
    })
}

impl Directory {
    /// How many of the 11 offsets and counts make sense for a blob with `avail`
    /// bytes after the magic.
    fn plausible(&self, avail: u64) -> u32 {
        let offsets = [
            self.first,
            self.types,
            self.fields,
            self.literals,
            self.pointers,
            self.names,
        ];
        let tables = [
            (self.type_count, self.type_size),
            (self.field_count, self.field_size),
            (self.literal_count, self.literal_size),
            (self.pointer_count, self.pointer_size),
            (self.names_count, 1),
        ];
        let a = offsets
            .iter()
            .filter(|&&o| (DIRECTORY_SIZE..=avail).contains(&o))
            .count();
        let c = tables
            .iter()
            .filter(|&&(n, size)| n.saturating_mul(size.max(1)) <= avail)
            .count();
        (a + c) as u32
    }

    fn layout(&self) -> Layout {
        match self.types.checked_sub(self.first) {
            Some(d) if (4..8).contains(&d) => Layout::Sample,
            _ => Layout::Runtime,
        }
    }

    /// Bytes the blob claims after the magic (saturating; not capped).
    fn extent(&self, layout: Layout) -> u64 {
        let head = match layout {
            Layout::Runtime => 8,
            Layout::Sample => 4,
        };
        let end = |start: u64, n: u64, size: u64| start.saturating_add(n.saturating_mul(size));
        [
            DIRECTORY_SIZE,
            end(self.first, 1, head),
            end(self.types, self.type_count, self.type_size),
            end(self.fields, self.field_count, self.field_size),
            end(self.literals, self.literal_count, self.literal_size),
            end(self.pointers, self.pointer_count, self.pointer_size),
            end(self.names, self.names_count, 1).saturating_add(END_MAGIC.len() as u64),
        ]
        .into_iter()
        .max()
        .unwrap_or(DIRECTORY_SIZE)
    }
}

/// What [`plan`] settled before decoding a blob.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    /// The magic that starts the blob.
    pub hit: Hit,
    /// Byte order chosen for the blob's values.
    pub endian: Endian,
    /// Plausible directory values (of 11) read little- and big-endian.
    pub scores: (u32, u32),
    /// The directory in the chosen order, if 48 bytes follow the magic.
    pub dir: Option<Directory>,
    /// Layout chosen from the directory.
    pub layout: Layout,
    /// Bytes from the magic to the end of everything the directory points at,
    /// plus zero tail padding (not capped to the file).
    pub extent: u64,
}

/// Settles byte order, layout and extent of the blob whose magic is `hit`, inside a
/// container (file or section) that ends at `container_end`.
pub(super) fn plan(b: &Builder, hit: Hit, container_end: u64) -> Plan {
    let h = hit.offset.saturating_add(MAGIC_SIZE);
    let avail = container_end.saturating_sub(h);
    let le = peek_directory(b, h, Endian::Little);
    let be = peek_directory(b, h, Endian::Big);
    let score = |d: &Option<Directory>| d.as_ref().map_or(0, |d| d.plausible(avail));
    let scores = (score(&le), score(&be));
    let endian = if scores.0 > scores.1 {
        Endian::Little
    } else if scores.1 > scores.0 {
        Endian::Big
    } else {
        match hit.bytes {
            MagicBytes::Ascending => Endian::Little,
            MagicBytes::Reversed => Endian::Big,
        }
    };
    let dir = if endian == Endian::Little { le } else { be };
    let layout = dir.map_or(Layout::Runtime, |d| d.layout());
    let mut extent = match &dir {
        Some(d) => MAGIC_SIZE.saturating_add(d.extent(layout)),
        None => container_end.saturating_sub(hit.offset),
    };
    // Zero bytes up to the blob's 8-byte alignment are the C struct's tail padding.
    let end = hit.offset.saturating_add(extent);
    let tail = (8 - extent % 8) % 8;
    if dir.is_some() && tail > 0 && end.saturating_add(tail) <= container_end {
        let bytes = b.peek_bytes(end, tail);
        if bytes.len() as u64 == tail && bytes.iter().all(|&c| c == 0) {
            extent += tail;
        }
    }
    Plan {
        hit,
        endian,
        scores,
        dir,
        layout,
        extent,
    }
}

// ----- skimmed model ----------------------------------------------------------------

/// Where a type's field run stops, as far as it could be followed.
#[derive(Clone, Default)]
struct Run {
    /// Field pool indices of the type's fields (consecutive).
    entries: Vec<usize>,
    /// Index of the end marker, if one was reached.
    end: Option<usize>,
    /// The type whose run this one ran into, and where.
    overlaps: Option<(usize, usize)>,
    /// `Name`, `TypeName` and `FieldOffset` of each field of the run.
    fields: Vec<[u64; 3]>,
}

/// Where a table starts (absolute) and how many of its entries lie before `end`.
fn fitting(start: u64, count: u64, stride: u64, end: u64) -> u64 {
    if stride == 0 {
        return 0;
    }
    count.min(end.saturating_sub(start) / stride)
}

/// The decoding context of one blob.
#[derive(Clone)]
struct Ctx {
    endian: Endian,
    layout: Layout,
    dir: Directory,
    /// End of the magic: directory offsets count from here.
    h: u64,
    /// End of the blob's region.
    end: u64,
    /// Names pool: absolute start and end (clamped to the file).
    pool: (u64, u64),
    /// What bounds the blob, for messages ("the file", "section .rodata").
    container: String,
}

impl Ctx {
    fn abs(&self, rel: u64) -> u64 {
        self.h.saturating_add(rel)
    }

    /// Type specs whose records lie inside the blob and can be read (none if
    /// `TypeSpecSize` is too small for the fields).
    fn types_in(&self) -> u64 {
        let d = &self.dir;
        if d.type_size < TYPE_SPEC_FIELDS {
            return 0;
        }
        fitting(self.abs(d.types), d.type_count, d.type_size, self.end)
    }

    /// Field specs whose records lie inside the blob and can be read.
    fn fields_in(&self) -> u64 {
        let d = &self.dir;
        if d.field_size < FIELD_SPEC_FIELDS {
            return 0;
        }
        fitting(self.abs(d.fields), d.field_count, d.field_size, self.end)
    }
}

/// "No type owns this field pool entry" in [`Shared::owners`].
const NO_OWNER: u32 = u32::MAX;

/// Records read per step of a skim: bounded, so a skim holds little memory.
const SKIM_CHUNK: u64 = 1 << 16;

/// What the tables of one blob share. The facts that need a look at every
/// record (which type owns each field pool entry; how often each names-pool
/// offset is used; which offsets do not resolve) are skimmed once, without
/// making nodes, when a table first needs them, so a lazy table or page costs
/// only its own entries afterwards.
struct Shared {
    c: Ctx,
    /// A trial decode (see [`trial`]) found no error: every table is clean.
    clean: bool,
    /// This is a trial decode: a table that is not clean is only marked damaged.
    trial: bool,
    owners: OnceLock<Owners>,
    uses: OnceLock<Uses>,
    nuls: OnceLock<Vec<u64>>,
    /// The names pool's bytes, if it is at most [`POOL_CACHE`] bytes long.
    pool: OnceLock<Option<Vec<u8>>>,
}

/// Longest names pool kept in memory for looking names up (a longer one is read
/// from the file at each lookup).
const POOL_CACHE: u64 = 16 << 20;

/// Who owns each field pool entry (see [`owners`]).
struct Owners {
    /// For each field pool entry inside the blob: the type that owns it (a field
    /// of its run, or the end marker it reached first), or [`NO_OWNER`].
    of: Vec<u32>,
    /// For each type spec inside the blob: its run ends at an end marker (it
    /// does not run into another run, off the pool, or start past it).
    ended: Vec<bool>,
    /// For each type spec inside the blob: its `Name`.
    names: Vec<u32>,
}

impl Shared {
    fn new(c: Ctx, trial: bool) -> Self {
        Shared {
            c,
            clean: false,
            trial,
            owners: OnceLock::new(),
            uses: OnceLock::new(),
            nuls: OnceLock::new(),
            pool: OnceLock::new(),
        }
    }

    fn owners(&self, b: &Builder) -> &Owners {
        self.owners.get_or_init(|| owners(b, &self.c))
    }

    /// How many name fields of the blob hold names-pool offset `rel`.
    fn uses(&self, b: &Builder, rel: u64) -> u32 {
        let u = self.uses.get_or_init(|| uses(b, &self.c));
        match usize::try_from(rel).ok().and_then(|r| u.low.get(r)) {
            Some(&n) if n < u8::MAX => n as u32,
            Some(_) => u.high.get(&(rel as u32)).copied().unwrap_or(0),
            None => 0,
        }
    }

    /// True if the non-zero names-pool offset `off` does not resolve to a string
    /// (as [`Builder::peek_cstr`] reads it): it lies past the pool, or no NUL
    /// follows within [`MAX_REF_STRING`] bytes before the pool's end.
    fn bad(&self, b: &Builder, off: u64) -> bool {
        let (p0, p1) = self.c.pool;
        let len = p1.saturating_sub(p0);
        if off >= len {
            return true;
        }
        let nuls = self.nuls.get_or_init(|| nul_bits(b, p0, p1));
        let end = off.saturating_add(MAX_REF_STRING).min(len);
        // The first NUL at or after `off`, looked up a 64-bit word at a time.
        let mut i = off;
        while i < end {
            let word = nuls.get((i / 64) as usize).copied().unwrap_or(0) >> (i % 64);
            if word != 0 {
                return i + u64::from(word.trailing_zeros()) >= end;
            }
            i = (i / 64 + 1) * 64;
        }
        true
    }

    /// Type `t`'s field run starting at field pool entry `fields`. Runs do not
    /// overlap: each entry is owned by the first type whose walk reached it, so a
    /// run is the owned entries from its start up to an end marker (`Name` 0) or
    /// an entry another type owns.
    fn run(&self, b: &Builder, t: usize, fields: u64) -> Run {
        let mut run = Run::default();
        if t as u64 >= self.c.types_in() {
            return run;
        }
        let owner = &self.owners(b).of;
        let (e, stride) = (self.c.endian, self.c.dir.field_size);
        let base = self.c.abs(self.c.dir.fields);
        // The run's records, read a few at a time.
        let (mut held, mut from) = (Vec::new(), 0usize);
        let mut j = usize::try_from(fields).unwrap_or(usize::MAX);
        while let Some(&o) = owner.get(j) {
            let k = (j - from) as u64;
            if held.is_empty() || (k + 1) * stride > held.len() as u64 {
                let n = (owner.len() - j).min(16) as u64;
                held = b.peek_bytes(base + j as u64 * stride, n * stride);
                from = j;
            }
            let at = ((j - from) as u64 * stride) as usize;
            let rec = held.get(at..).unwrap_or_default();
            let name = word(rec, 0, e);
            if name == 0 {
                run.end = Some(j);
                break;
            }
            if o as usize != t {
                run.overlaps = Some((o as usize, j));
                break;
            }
            run.entries.push(j);
            run.fields.push([name, word(rec, 4, e), half(rec, 8, e)]);
            j += 1;
        }
        run
    }

    /// The name at names-pool offset `off`, for derived values ("" for 0 or one
    /// that does not resolve), as [`Builder::peek_cstr`] finds it.
    fn name(&self, b: &Builder, off: u64) -> String {
        if off == 0 {
            return String::new();
        }
        match self.lookup(b, off) {
            Some(found) => found.unwrap_or_default(),
            None => peek_name(b, &self.c, off),
        }
    }

    /// The string at names-pool offset `off` as [`Builder::peek_cstr`] finds it
    /// (`None` inside if it does not resolve), from the cached pool; `None` if
    /// the pool is too long to cache.
    fn lookup(&self, b: &Builder, off: u64) -> Option<Option<String>> {
        let (p0, p1) = self.c.pool;
        let cached = self.pool.get_or_init(|| {
            let len = p1.saturating_sub(p0);
            (len <= POOL_CACHE).then(|| b.peek_bytes(p0, len))
        });
        let pool = cached.as_ref()?;
        let Some(rest) = usize::try_from(off)
            .ok()
            .and_then(|o| pool.get(o..))
            .filter(|r| !r.is_empty())
        else {
            return Some(None);
        };
        let window = rest.get(..MAX_REF_STRING as usize).unwrap_or(rest);
        Some(
            window
                .iter()
                .position(|&c| c == 0)
                .map(|n| String::from_utf8_lossy(&window[..n]).into_owned()),
        )
    }

    /// True if spec table `part` at `[start, start + len)` decodes without an
    /// error: it lies inside the blob and its entries are clean.
    fn table_clean(&self, b: &Builder, part: Part, start: u64, len: u64) -> bool {
        let count = match part {
            Part::Types => self.c.dir.type_count,
            Part::FieldPool => self.c.dir.field_count,
            Part::Literals => self.c.dir.literal_count,
            _ => self.c.dir.pointer_count,
        };
        start.saturating_add(len) <= self.c.end
            && (count == 0 || self.entries_clean(b, part, start, 0, count - 1))
    }

    /// True if entries `first..=last` of spec table `part` (which starts at
    /// `start`) decode without an error: every name resolves, every required name
    /// is there, and every type's field run ends at an end marker.
    fn entries_clean(&self, b: &Builder, part: Part, start: u64, first: u64, last: u64) -> bool {
        let c = &self.c;
        let d = &c.dir;
        let e = c.endian;
        let n = last - first + 1;
        let mut ok = true;
        match part {
            Part::Types if d.type_size >= TYPE_SPEC_FIELDS => {
                let runs = d.field_size >= FIELD_SPEC_FIELDS;
                let ended = &self.owners(b).ended;
                let at = start + first * d.type_size;
                each_record(b, at, n, d.type_size, |k, r| {
                    let name = word(r, 0, e);
                    let i = (first + k) as usize;
                    ok &= name != 0
                        && !self.bad(b, name)
                        && (!runs || ended.get(i).copied().unwrap_or(false));
                });
            }
            Part::FieldPool if d.field_size >= FIELD_SPEC_FIELDS => {
                let at = start + first * d.field_size;
                each_record(b, at, n, d.field_size, |_, r| {
                    let (name, ty) = (word(r, 0, e), word(r, 4, e));
                    ok &= !(name != 0 && self.bad(b, name) || ty != 0 && self.bad(b, ty));
                });
            }
            Part::Literals if d.literal_size >= LITERAL_SPEC_FIELDS => {
                let at = start + first * d.literal_size;
                each_record(b, at, n, d.literal_size, |_, r| {
                    let (name, ty) = (word(r, 0, e), word(r, 4, e));
                    ok &= name != 0 && !self.bad(b, name) && !(ty != 0 && self.bad(b, ty));
                });
            }
            Part::Pointers if d.pointer_size >= POINTER_SPEC_FIELDS => {
                let at = start + first * d.pointer_size;
                each_record(b, at, n, d.pointer_size, |_, r| {
                    let name = word(r, 0, e);
                    ok &= name != 0 && !self.bad(b, name);
                });
            }
            // Too small a spec size: the table is one raw run.
            _ => {}
        }
        ok
    }

    /// True if entries may be left lazy without hiding an error: without exact
    /// totals (a survey finds damage), in a blob known clean, or if `clean` says
    /// so.
    fn may_defer(&self, b: &Builder, clean: impl FnOnce(&Builder) -> bool) -> bool {
        !b.exact_totals() || self.clean || clean(b)
    }

    /// True if the names pool at `[start, start + len)` decodes without an error:
    /// it lies inside the blob, starts with the empty name and ends its last name
    /// before its end.
    fn names_clean(&self, b: &Builder, start: u64, len: u64) -> bool {
        let end = start.saturating_add(len);
        end <= self.c.end
            && b.peek_bytes(start, 1) == [0]
            && !names_skim(b, self, start, end, u64::MAX).unterminated
    }
}

/// Reads the `u32` at `at` of a record (0 if the record is short).
fn word(rec: &[u8], at: usize, endian: Endian) -> u64 {
    let Some(&[a, b, c, d]) = rec.get(at..at + 4) else {
        return 0;
    };
    u64::from(match endian {
        Endian::Little => u32::from_le_bytes([a, b, c, d]),
        Endian::Big => u32::from_be_bytes([a, b, c, d]),
    })
}

/// Reads the `u16` at `at` of a record (0 if the record is short).
fn half(rec: &[u8], at: usize, endian: Endian) -> u64 {
    let Some(&[a, b]) = rec.get(at..at + 2) else {
        return 0;
    };
    u64::from(match endian {
        Endian::Little => u16::from_le_bytes([a, b]),
        Endian::Big => u16::from_be_bytes([a, b]),
    })
}

/// Calls `f(i, record)` for the first `n` records of `stride` bytes from `start`,
/// reading the file a chunk at a time (a record past the end of the file is
/// empty).
fn each_record(b: &Builder, start: u64, n: u64, stride: u64, mut f: impl FnMut(u64, &[u8])) {
    if stride == 0 {
        return;
    }
    let per = (SKIM_CHUNK / stride).max(1);
    let mut i = 0u64;
    while i < n {
        let k = per.min(n - i);
        let at = start.saturating_add(i.saturating_mul(stride));
        let bytes = b.peek_bytes(at, k.saturating_mul(stride));
        for j in 0..k {
            let from = ((j * stride) as usize).min(bytes.len());
            let to = (((j + 1) * stride) as usize).min(bytes.len());
            f(i + j, &bytes[from..to]);
        }
        i += k;
    }
}

/// The owner of each field pool entry: types in order walk their runs from their
/// `Fields` index; each entry is walked at most once (a run that reaches an entry
/// another type already owns stops there). A type without fields may point at any
/// end marker; the first type to reach one owns it. Entry 0 is the placeholder:
/// no one owns it.
fn owners(b: &Builder, c: &Ctx) -> Owners {
    let d = &c.dir;
    let e = c.endian;
    let mut marker = Vec::with_capacity(usize::try_from(c.fields_in()).unwrap_or(0));
    each_record(b, c.abs(d.fields), c.fields_in(), d.field_size, |_, r| {
        marker.push(word(r, 0, e) == 0)
    });
    let mut owner = vec![NO_OWNER; marker.len()];
    let mut ended_at = Vec::with_capacity(usize::try_from(c.types_in()).unwrap_or(0));
    let mut names = Vec::with_capacity(ended_at.capacity());
    each_record(b, c.abs(d.types), c.types_in(), d.type_size, |t, r| {
        let t = t as u32;
        names.push(word(r, 0, e) as u32);
        let mut j = usize::try_from(word(r, 4, e)).unwrap_or(usize::MAX);
        let mut ended = false;
        while let Some(&end) = marker.get(j) {
            if end {
                if j != 0 && owner[j] == NO_OWNER {
                    owner[j] = t;
                }
                ended = true;
                break;
            }
            if owner[j] != NO_OWNER {
                break;
            }
            owner[j] = t;
            j += 1;
        }
        ended_at.push(ended);
    });
    Owners {
        of: owner,
        ended: ended_at,
        names,
    }
}

/// Where the NULs of the names pool `[p0, p1)` are: bit `i` of the set is on if
/// byte `p0 + i` is a NUL.
fn nul_bits(b: &Builder, p0: u64, p1: u64) -> Vec<u64> {
    let len = p1.saturating_sub(p0);
    let mut bits = vec![0u64; usize::try_from(len.div_ceil(64)).unwrap_or(0)];
    let mut at = 0u64;
    while at < len {
        let chunk = b.peek_bytes(p0 + at, (len - at).min(SKIM_CHUNK));
        if chunk.is_empty() {
            break;
        }
        for (k, _) in chunk.iter().enumerate().filter(|&(_, &c)| c == 0) {
            let i = at + k as u64;
            bits[(i / 64) as usize] |= 1 << (i % 64);
        }
        at += chunk.len() as u64;
    }
    bits
}

/// How often each names-pool offset is used (see [`uses`]).
struct Uses {
    /// Uses of each offset inside the pool, `u8::MAX` for that many or more.
    low: Vec<u8>,
    /// Uses of the offsets used `u8::MAX` times or more.
    high: HashMap<u32, u32>,
}

/// Counts the names-pool offsets that name fields of the blob hold (0, "none",
/// left out): the baseline name, type names, field names and type names of
/// fields (not of end markers), global literal names and type names, global
/// pointer names.
fn uses(b: &Builder, c: &Ctx) -> Uses {
    let d = &c.dir;
    let e = c.endian;
    let len = c.pool.1.saturating_sub(c.pool.0);
    let mut u = Uses {
        low: vec![0; usize::try_from(len).unwrap_or(0)],
        high: HashMap::new(),
    };
    let add = |u: &mut Uses, off: u64| {
        if off == 0 {
            return;
        }
        let Some(n) = usize::try_from(off).ok().and_then(|o| u.low.get_mut(o)) else {
            return;
        };
        if *n < u8::MAX - 1 {
            *n += 1;
        } else if *n == u8::MAX - 1 {
            *n = u8::MAX;
            u.high.insert(off as u32, u8::MAX as u32);
        } else {
            *u.high.entry(off as u32).or_insert(0) += 1;
        }
    };
    if let Some(off) = peek(b, c.abs(d.first) + header_name_offset(c.layout), 4, e) {
        add(&mut u, off);
    }
    each_record(b, c.abs(d.types), c.types_in(), d.type_size, |_, r| {
        add(&mut u, word(r, 0, e))
    });
    each_record(b, c.abs(d.fields), c.fields_in(), d.field_size, |_, r| {
        let name = word(r, 0, e);
        if name != 0 {
            add(&mut u, name);
            add(&mut u, word(r, 4, e));
        }
    });
    if d.literal_size >= LITERAL_SPEC_FIELDS {
        let start = c.abs(d.literals);
        let n = fitting(start, d.literal_count, d.literal_size, c.end);
        each_record(b, start, n, d.literal_size, |_, r| {
            add(&mut u, word(r, 0, e));
            add(&mut u, word(r, 4, e));
        });
    }
    if d.pointer_size >= POINTER_SPEC_FIELDS {
        let start = c.abs(d.pointers);
        let n = fitting(start, d.pointer_count, d.pointer_size, c.end);
        each_record(b, start, n, d.pointer_size, |_, r| {
            add(&mut u, word(r, 0, e))
        });
    }
    u
}

/// Offset of `BaselineName` from the first directory word's target.
fn header_name_offset(layout: Layout) -> u64 {
    match layout {
        Layout::Runtime => 4,
        Layout::Sample => 0,
    }
}

// ----- tree -------------------------------------------------------------------------

/// Blob `plan`, cut at `end` (the end of `container`, named so in messages), as
/// region `name` of the current list. When the builder leaves parts lazy the blob
/// is decoded on demand; with exact totals only if a trial decode that leaves its
/// tables lazy (each checked by a skim that makes no nodes) finds no error, so a
/// lazy blob never hides one. Otherwise it is decoded now (its clean tables still
/// on demand).
pub(super) fn region(b: &mut Builder, name: Name, plan: &Plan, end: u64, container: &str) {
    decode_region(b, name, plan, end, container);
    // Blobs are matched by their byte order, in order.
    if let Some(id) = b.last() {
        let key = if plan.endian == Endian::Little {
            "little-endian"
        } else {
            "big-endian"
        };
        b.set_key(id, key);
    }
}

fn decode_region(b: &mut Builder, name: Name, plan: &Plan, end: u64, container: &str) {
    let start = plan.hit.offset;
    let len = end.saturating_sub(start);
    let exact = b.exact_totals();
    let mut known = None;
    if exact && b.lazy_threshold().is_some() {
        match trial(b, plan, end, container) {
            Some(sh) => known = Some(sh),
            None => {
                b.region(name, Kind::Struct, start, len, |b| {
                    decode(b, plan, end, container, None)
                });
                return;
            }
        }
    }
    let label = label(plan, end);
    let (plan, container) = (plan.clone(), container.to_string());
    b.lazy_region_vouched(exact, name, Kind::Struct, start, len, label, move |b| {
        decode(b, &plan, end, &container, known.clone())
    });
}

/// Decodes the blob in a builder of its own, with every table that a skim finds
/// clean left lazy and every other one marked damaged without decoding it.
/// Returns the blob's shared state (its skims done, known clean) if nothing in
/// the trial is damaged.
fn trial(b: &Builder, plan: &Plan, end: u64, container: &str) -> Option<Arc<Shared>> {
    let sh = Arc::new(Shared::new(ctx(b, plan, end, container)?, true));
    let mut t = Builder::new(b.source(), "Trial");
    t.set_lazy_threshold(Some(0));
    t.set_exact_totals(true);
    let start = plan.hit.offset;
    t.region(Name::Index(0), Kind::Struct, start, end - start, |t| {
        decode(t, plan, end, container, Some(Arc::clone(&sh)))
    });
    if t.tree().is_damaged(t.tree().root()) {
        return None;
    }
    drop(t);
    let mut sh = Arc::try_unwrap(sh).ok()?;
    sh.clean = true;
    sh.trial = false;
    Some(Arc::new(sh))
}

/// The decoding context of the blob planned in `plan` (`None` without a
/// directory).
fn ctx(b: &Builder, plan: &Plan, end: u64, container: &str) -> Option<Ctx> {
    let dir = plan.dir?;
    let h = plan.hit.offset.saturating_add(MAGIC_SIZE);
    let pool_start = h.saturating_add(dir.names);
    Some(Ctx {
        endian: plan.endian,
        layout: plan.layout,
        dir,
        h,
        end,
        // Names are looked up only inside the blob's own bytes.
        pool: (
            pool_start,
            pool_start
                .saturating_add(dir.names_count)
                .min(end)
                .min(b.file_len()),
        ),
        container: container.to_string(),
    })
}

/// Decodes the blob planned in `plan` into the current region (which spans the
/// magic and everything the plan says the blob reaches, cut at `end`).
/// `container` names what bounds the blob in messages. `known` is the blob's
/// shared state when a trial made it already.
fn decode(
    b: &mut Builder,
    plan: &Plan,
    end: u64,
    container: &str,
    known: Option<Arc<Shared>>,
) -> DResult<()> {
    let saved = b.endian();
    b.set_endian(plan.endian);
    let r = decode_inner(b, plan, end, container, known);
    b.set_endian(saved);
    r
}

fn decode_inner(
    b: &mut Builder,
    plan: &Plan,
    end: u64,
    container: &str,
    known: Option<Arc<Shared>>,
) -> DResult<()> {
    let blob = b.current();
    if let Some(msg) = overrun(plan, end, container) {
        // A lazy blob decoded anew after a release keeps the error it had.
        let there = b.tree().error(blob);
        if !there.is_some_and(|e| e.contains(msg.as_str())) {
            b.set_error(blob, msg);
        }
    }
    magic(b, plan)?;
    byte_order(b, plan)?;
    let Some(c) = ctx(b, plan, end, container) else {
        // Fewer than 48 bytes follow: reading the directory records where it stops.
        b.group("Directory", |b| {
            b.u32("FlagsAndBaselineStart")?;
            b.bytes("Rest", DIRECTORY_SIZE - 4).map(|_| ())
        })?;
        return Ok(());
    };
    directory(b, &c)?;
    layout_node(b, &c)?;
    b.set_display(blob, summary(plan.endian, plan.layout, &c.dir));
    let shared = known.unwrap_or_else(|| Arc::new(Shared::new(c, false)));
    tables(b, &shared);
    Ok(())
}

/// The blob's display: byte order, layout and the directory's counts.
fn summary(endian: Endian, layout: Layout, dir: &Directory) -> String {
    format!(
        "{}-endian, {} layout: {} types, {} field specs, {} literals, {} pointers, {} name bytes",
        if endian == Endian::Little {
            "little"
        } else {
            "big"
        },
        if layout == Layout::Runtime {
            "runtime"
        } else {
            "sample"
        },
        dir.type_count,
        dir.field_count,
        dir.literal_count,
        dir.pointer_count,
        dir.names_count
    )
}

/// What a blob that ends at `end` shows before it is decoded: the display the
/// decode gives it, when the decode is sure to set it (the directory fits).
fn label(plan: &Plan, end: u64) -> Option<String> {
    let dir = plan.dir.as_ref()?;
    let h = plan.hit.offset.saturating_add(MAGIC_SIZE);
    (end >= h.saturating_add(DIRECTORY_SIZE)).then(|| summary(plan.endian, plan.layout, dir))
}

/// The error of a blob whose directory places contents past `end`, the end of
/// the container (named `container`) that cuts it.
fn overrun(plan: &Plan, end: u64, container: &str) -> Option<String> {
    let wanted_end = plan.hit.offset.saturating_add(plan.extent);
    (wanted_end > end).then(|| {
        format!(
            "the directory places blob contents up to 0x{wanted_end:X}, but {container} ends at 0x{end:X}"
        )
    })
}

fn magic(b: &mut Builder, plan: &Plan) -> DResult<()> {
    let v = b.u64("Magic")?;
    let text = match plan.hit.bytes {
        MagicBytes::Ascending if plan.endian == Endian::Little => {
            "\"DACBLOB\\0\": the uint64 0x00424F4C42434144 stored little-endian (or the same bytes written as a string)"
        }
        MagicBytes::Ascending => {
            "\"DACBLOB\\0\" written as a string, which reads the same on every target: the byte order comes from the directory"
        }
        MagicBytes::Reversed if plan.endian == Endian::Big => {
            "the uint64 0x00424F4C42434144 (\"DACBLOB\\0\") stored big-endian"
        }
        MagicBytes::Reversed => {
            "the bytes of the uint64 magic stored big-endian, although the directory reads little-endian"
        }
    };
    b.display(format!("0x{v:016X}: {text}"));
    Ok(())
}

fn byte_order(b: &mut Builder, plan: &Plan) -> DResult<()> {
    let (le, be) = plan.scores;
    let (name, mine, other, other_name) = match plan.endian {
        Endian::Little => ("little", le, be, "big"),
        Endian::Big => ("big", be, le, "little"),
    };
    let why = if le == be {
        format!(
            "both byte orders fit equally ({mine} of 11 directory values plausible), so the magic decides"
        )
    } else {
        format!(
            "the directory's offsets and counts fit the blob read {name}-endian ({mine} of 11 plausible; {other_name}-endian: {other} of 11)"
        )
    };
    let from = BitSpan::bytes(
        plan.hit.offset.saturating_add(MAGIC_SIZE),
        plan.hit
            .offset
            .saturating_add(MAGIC_SIZE + DIRECTORY_SIZE)
            .min(b.file_len()),
    );
    let from = if from.is_empty() {
        BitSpan::bytes(plan.hit.offset, plan.hit.offset)
    } else {
        from
    };
    b.derived("ByteOrder", Value::Str(name.into()), from, Some(why))?;
    Ok(())
}

fn directory(b: &mut Builder, c: &Ctx) -> DResult<()> {
    let d = c.dir;
    let first = match c.layout {
        Layout::Runtime => "FlagsAndBaselineStart",
        Layout::Sample => "BaselineStart",
    };
    b.group("Directory", |b| {
        offset_field(b, c, first, d.first, 1)?;
        offset_field(b, c, "TypesStart", d.types, d.type_count)?;
        offset_field(b, c, "FieldPoolStart", d.fields, d.field_count)?;
        offset_field(
            b,
            c,
            "GlobalLiteralValuesStart",
            d.literals,
            d.literal_count,
        )?;
        offset_field(b, c, "GlobalPointersStart", d.pointers, d.pointer_count)?;
        offset_field(b, c, "NamesStart", d.names, d.names_count)?;
        count_field(b, c, "TypeCount", d.types, d.type_size, "TypeSpecSize")?;
        count_field(
            b,
            c,
            "FieldPoolCount",
            d.fields,
            d.field_size,
            "FieldSpecSize",
        )?;
        count_field(
            b,
            c,
            "GlobalLiteralValuesCount",
            d.literals,
            d.literal_size,
            "GlobalLiteralSpecSize",
        )?;
        count_field(
            b,
            c,
            "GlobalPointerValuesCount",
            d.pointers,
            d.pointer_size,
            "GlobalPointerSpecSize",
        )?;
        count_field(b, c, "NamesPoolCount", d.names, 1, "")?;
        size_field(
            b,
            "TypeSpecSize",
            TYPE_SPEC_FIELDS,
            "TypeSpec (u32 Name, u32 Fields, u16 Size)",
        )?;
        size_field(
            b,
            "FieldSpecSize",
            FIELD_SPEC_FIELDS,
            "FieldSpec (u32 Name, u32 TypeName, u16 FieldOffset)",
        )?;
        size_field(
            b,
            "GlobalLiteralSpecSize",
            LITERAL_SPEC_FIELDS,
            "GlobalLiteralSpec (u32 Name, u32 TypeName, u64 Value)",
        )?;
        size_field(
            b,
            "GlobalPointerSpecSize",
            POINTER_SPEC_FIELDS,
            "GlobalPointerSpec (u32 Name, u32 PointerDataIndex)",
        )?;
        Ok(())
    })
}

fn offset_field(b: &mut Builder, c: &Ctx, name: &'static str, rel: u64, count: u64) -> DResult<()> {
    b.u32(name)?;
    let abs = c.abs(rel);
    b.display(format!("+0x{rel:X} → 0x{abs:X}"));
    if rel < DIRECTORY_SIZE && count > 0 {
        b.error(format!(
            "{name} 0x{rel:X} points inside the 48-byte directory (it must be at least 0x30)"
        ));
    } else if abs > c.end && count > 0 {
        b.error(format!(
            "{name} points to 0x{abs:X}, past the end of {} at 0x{:X}",
            c.container, c.end
        ));
    }
    Ok(())
}

fn count_field(
    b: &mut Builder,
    c: &Ctx,
    name: &'static str,
    rel_start: u64,
    size: u64,
    size_name: &str,
) -> DResult<()> {
    let n = b.u32(name)? as u64;
    let start = c.abs(rel_start);
    let bytes = n.saturating_mul(size);
    if size > 0 && start <= c.end && bytes > c.end - start {
        let what = if size_name.is_empty() {
            format!("{name} {n} needs {bytes} bytes")
        } else {
            format!("{name} {n} × {size_name} {size} needs {bytes} bytes")
        };
        b.error(format!(
            "{what} from 0x{start:X}, but {} ends at 0x{:X} ({} bytes later)",
            c.container,
            c.end,
            c.end - start
        ));
    }
    Ok(())
}

fn size_field(b: &mut Builder, name: &'static str, known: u64, what: &str) -> DResult<()> {
    let v = b.u8(name)? as u64;
    if v < known {
        b.error(format!(
            "{name} {v} is smaller than the {known} bytes of a {what}: these entries cannot be decoded"
        ));
    } else if v == known {
        b.display(format!("{v} bytes per entry, no padding"));
    } else {
        b.display(format!(
            "{v} bytes per entry: {known} bytes of fields, {} bytes of compiler padding",
            v - known
        ));
    }
    Ok(())
}

fn layout_node(b: &mut Builder, c: &Ctx) -> DResult<()> {
    let d = c.dir;
    let diff = d.types.checked_sub(d.first);
    let (value, mut text) = match c.layout {
        Layout::Runtime => (
            "runtime",
            "FlagsAndBaselineStart leads to u32 PlatformFlags then u32 BaselineName (design document, runtime writer)"
                .to_string(),
        ),
        Layout::Sample => (
            "sample",
            "BaselineStart leads to u32 BaselineName alone, no PlatformFlags (cdac-build-tool sample)".to_string(),
        ),
    };
    let odd = !matches!(diff, Some(4) | Some(8));
    // A TypesStart outside the blob is reported on its own; it says nothing about
    // the layout then.
    let judged = c.abs(d.types) < c.end;
    if odd && !judged {
        text = format!(
            "{text}; assumed: TypesStart lies outside the blob, so it cannot tell the layout"
        );
    } else if odd {
        text = format!(
            "{text}; chosen because TypesStart − first directory word is {}, where 8 (runtime) or 4 (sample) was expected",
            match diff {
                Some(v) => v.to_string(),
                None => "negative".into(),
            }
        );
    }
    let from = BitSpan::bytes(c.h, c.h + 8);
    let id = b.derived("Layout", Value::Str(value.into()), from, Some(text))?;
    if odd && judged && d.type_count > 0 {
        b.set_error(
            id,
            format!(
                "TypesStart (0x{:X}) minus the first directory word (0x{:X}) is neither 8 nor 4: the directory layout is not one this decoder knows",
                d.types, d.first
            ),
        );
    }
    Ok(())
}

/// One thing the directory points at.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Header,
    Types,
    FieldPool,
    Literals,
    Pointers,
    Names,
    EndMagic,
}

impl Part {
    fn name(self, layout: Layout) -> &'static str {
        match self {
            Part::Header => match layout {
                Layout::Runtime => "PlatformFlags",
                Layout::Sample => "BaselineName",
            },
            Part::Types => "Types",
            Part::FieldPool => "FieldPool",
            Part::Literals => "GlobalLiteralValues",
            Part::Pointers => "GlobalPointerValues",
            Part::Names => "NamesPool",
            Part::EndMagic => "EndMagic",
        }
    }
}

fn tables(b: &mut Builder, sh: &Arc<Shared>) {
    let c = &sh.c;
    let d = c.dir;
    let head = 4 + header_name_offset(c.layout);
    let pool_end = d.names.saturating_add(d.names_count);
    let mut parts = [
        (Part::Header, d.first, head),
        (
            Part::Types,
            d.types,
            d.type_count.saturating_mul(d.type_size),
        ),
        (
            Part::FieldPool,
            d.fields,
            d.field_count.saturating_mul(d.field_size),
        ),
        (
            Part::Literals,
            d.literals,
            d.literal_count.saturating_mul(d.literal_size),
        ),
        (
            Part::Pointers,
            d.pointers,
            d.pointer_count.saturating_mul(d.pointer_size),
        ),
        (Part::Names, d.names, d.names_count),
        (Part::EndMagic, pool_end, END_MAGIC.len() as u64),
    ]
    .map(|(p, rel, len)| (p, c.abs(rel), len));
    crate::sorted::sort_by_key(&mut parts, |&(_, start, _)| start);
    let mut cursor = c.h.saturating_add(DIRECTORY_SIZE);
    let mut last_name = "Directory";
    for (part, start, len) in parts {
        let name = part.name(c.layout);
        if len == 0 {
            let at = start.clamp(cursor.min(c.end), c.end);
            b.seek(at);
            let _ = b.derived(
                name,
                Value::U(0),
                BitSpan::bytes(at, at),
                Some(format!("empty (no entries) at 0x{start:X}")),
            );
            continue;
        }
        if start < cursor {
            b.seek(cursor.min(c.end));
            let claimed = BitSpan::bytes(
                start.min(b.file_len()),
                start.saturating_add(len).min(b.file_len()),
            );
            if let Ok(id) = b.derived(name, Value::U(start), claimed, None) {
                b.set_error(
                    id,
                    format!(
                        "{name} at 0x{start:X} ({len} bytes) overlaps {last_name}, which ends at 0x{cursor:X}: not decoded a second time"
                    ),
                );
            }
            continue;
        }
        if start > cursor && start <= c.end {
            gap(b, cursor, start);
        }
        let _ = match part {
            Part::Header => header(b, c, start),
            Part::Types | Part::FieldPool | Part::Literals | Part::Pointers => {
                table(b, sh, name, start, len, part);
                Ok(())
            }
            Part::Names => {
                names_pool(b, sh, start, len);
                Ok(())
            }
            Part::EndMagic => end_magic(b, start),
        };
        cursor = start.saturating_add(len).min(c.end).max(cursor);
        last_name = name;
    }
    // The C struct's tail padding, if the plan counted it.
    if cursor < c.end {
        let rest = b.peek_bytes(cursor, c.end - cursor);
        if !rest.is_empty() && rest.len() < 8 && rest.iter().all(|&x| x == 0) {
            b.seek(cursor);
            if b.padding("TailPadding", rest.len() as u64).is_ok() {
                b.display("zero bytes to the blob's 8-byte alignment (C struct tail padding)");
            }
        }
    }
}

/// A short zero run between two tables is compiler alignment; anything else stays
/// unknown.
fn gap(b: &mut Builder, from: u64, to: u64) {
    let n = to - from;
    if n >= MAX_ALIGNMENT_GAP {
        return;
    }
    if b.peek_bytes(from, n).iter().all(|&x| x == 0) {
        b.seek(from);
        if b.padding("Padding", n).is_ok() {
            b.display("alignment padding between tables (the directory's offsets skip it)");
        }
    }
}

fn header(b: &mut Builder, c: &Ctx, start: u64) -> DResult<()> {
    b.seek(start);
    if c.layout == Layout::Runtime {
        let Field { value: flags, id } = b.uint_field("PlatformFlags", 4)?;
        let at = b.tree().span(id);
        let mut parts = vec![if flags & 1 != 0 {
            "bit 0 set (always set by the runtime)".to_string()
        } else {
            "bit 0 clear (the runtime always sets it)".to_string()
        }];
        parts.push(if flags & 2 != 0 {
            "bit 1 set: 32-bit pointers".into()
        } else {
            "bit 1 clear: 64-bit pointers".into()
        });
        if flags & !3 != 0 {
            parts.push(format!("bits 0x{:X}: not defined", flags & !3));
        }
        b.display(parts.join("; "));
        let size = if flags & 2 != 0 { 4 } else { 8 };
        b.derived(
            "PointerSize",
            Value::U(size),
            at,
            Some(format!("{size} bytes (PlatformFlags bit 1)")),
        )?;
    }
    let _ = name_field(b, c, "BaselineName", true, None)?;
    Ok(())
}

/// Reads a `u32` names-pool offset and resolves it. Offset 0 is the reserved empty
/// name: an error where a name is `required`, "none" otherwise.
///
/// With `later`, a name found in the cached names pool is returned at once and
/// its node resolved by [`Later::finish`] (the same text and error, read in
/// offset order rather than back and forth between a table and the pool).
fn name_field(
    b: &mut Builder,
    c: &Ctx,
    field: &'static str,
    required: bool,
    later: Option<&mut Later>,
) -> DResult<Option<String>> {
    let Field { value: off, id } = b.uint_field(field, 4)?;
    if off == 0 {
        if required {
            b.set_error(
                id,
                format!("{field} is 0, the reserved empty name, where a name is required"),
            );
        } else {
            b.set_display(id, "0: none (offset 0 is the reserved empty name)");
        }
        return Ok(None);
    }
    if let Some(found) = later.and_then(|l| l.name(b, id, off)) {
        return Ok(found);
    }
    Ok(b.resolve_strref(id, off, c.pool.0, c.pool.1))
}

/// Name fields of a run of spec entries whose strings are resolved after the
/// entries are read (see [`name_field`]).
struct Later<'a> {
    sh: &'a Shared,
    refs: Vec<(NodeId, u64)>,
}

impl<'a> Later<'a> {
    fn new(sh: &'a Shared) -> Self {
        Later {
            sh,
            refs: Vec::new(),
        }
    }

    /// The string at `off` from the cached pool (`None` inside if it does not
    /// resolve), noting node `id` for [`Later::finish`]; `None` without a cache.
    fn name(&mut self, b: &Builder, id: NodeId, off: u64) -> Option<Option<String>> {
        let found = self.sh.lookup(b, off)?;
        self.refs.push((id, off));
        Some(found)
    }

    /// Resolves the noted nodes (their display, value, reference or error), in
    /// the order of their offsets.
    fn finish(mut self, b: &mut Builder) {
        let (p0, p1) = self.sh.c.pool;
        crate::sorted::sort_by_key(&mut self.refs, |&(_, off)| off);
        for (id, off) in self.refs {
            b.resolve_strref(id, off, p0, p1);
        }
    }
}

/// Bytes between the fields this decoder knows and the directory's spec size.
fn spec_padding(b: &mut Builder, n: u64) -> DResult<()> {
    if n == 0 {
        return Ok(());
    }
    let bytes = b.peek_bytes(b.pos(), n);
    if bytes.len() as u64 == n && bytes.iter().all(|&x| x == 0) {
        b.padding("Padding", n)?;
        b.display("compiler padding up to the directory's spec size");
    } else {
        b.bytes("Extra", n)?;
        b.display("bytes past the fields this decoder knows, inside the directory's spec size (padding or a later addition)");
    }
    Ok(())
}

fn table(b: &mut Builder, sh: &Arc<Shared>, name: &'static str, start: u64, len: u64, part: Part) {
    let d = sh.c.dir;
    let (count, stride, known, what) = match part {
        Part::Types => (d.type_count, d.type_size, TYPE_SPEC_FIELDS, "TypeSpecSize"),
        Part::FieldPool => (
            d.field_count,
            d.field_size,
            FIELD_SPEC_FIELDS,
            "FieldSpecSize",
        ),
        Part::Literals => (
            d.literal_count,
            d.literal_size,
            LITERAL_SPEC_FIELDS,
            "GlobalLiteralSpecSize",
        ),
        _ => (
            d.pointer_count,
            d.pointer_size,
            POINTER_SPEC_FIELDS,
            "GlobalPointerSpecSize",
        ),
    };
    let exact = b.exact_totals();
    let lazy = match mode(b, sh, |b| sh.table_clean(b, part, start, len)) {
        Mode::Lazy => true,
        Mode::Now => false,
        Mode::Skip => return,
    };
    let sh = Arc::clone(sh);
    let body = move |b: &mut Builder| {
        if stride < known {
            let n = b.remaining();
            b.bytes("Bytes", n)?;
            b.display(format!(
                "{count} entries not decoded: {what} {stride} is smaller than the {known} bytes each needs"
            ));
            return Ok(());
        }
        // Entries wholly inside the region go in pages (fixed-size records: each
        // page's place is known); reads stop at the region's end, which the count
        // cannot move, so the rest is read here and stops at the first entry cut
        // by that end.
        let whole = count.min(b.limit().saturating_sub(start) / stride);
        // A type is a dozen nodes and more with its field run and the names it
        // resolves: its pages hold a quarter of the usual count, so that opening
        // one stays quick (1,000 types made 24,000 nodes: 72-93 ms in the browser).
        let per = b.page_size().map_or(u64::MAX, |p| {
            let p = u64::from(p);
            if part == Part::Types {
                (p / 4).max(1)
            } else {
                p
            }
        });
        let mut first = 0u64;
        while first < whole {
            let last = first.saturating_add(per - 1).min(whole - 1);
            let at = start + first * stride;
            // Only a list longer than a page is paged.
            let paged = whole > per;
            if paged && sh.may_defer(b, |b| sh.entries_clean(b, part, start, first, last)) {
                let sh = Arc::clone(&sh);
                let len = (last - first + 1) * stride;
                b.page_vouched(exact, first, last, at, len, move |b| {
                    specs(b, &sh, part, start, (first, last), stride)
                })?;
            } else {
                specs(b, &sh, part, start, (first, last), stride)?;
            }
            first = last + 1;
        }
        if whole < count {
            specs(b, &sh, part, start, (whole, count - 1), stride)?;
        }
        Ok(())
    };
    if lazy {
        b.lazy_region_vouched(exact, name, Kind::Array, start, len, None, body);
    } else {
        b.region(name, Kind::Array, start, len, body);
    }
}

/// How a table is decoded.
enum Mode {
    /// On demand, if the builder leaves parts lazy.
    Lazy,
    /// Now: with exact totals, a table that may hold an error is not left lazy.
    Now,
    /// Not at all: in a trial, such a table only marks the blob damaged.
    Skip,
}

/// Decides how a table is decoded; `clean` tells (by a skim) whether it decodes
/// without an error, asked only when exact totals need it.
fn mode(b: &mut Builder, sh: &Shared, clean: impl FnOnce(&Builder) -> bool) -> Mode {
    if sh.may_defer(b, clean) {
        return Mode::Lazy;
    }
    if sh.trial {
        let id = b.current();
        b.set_error(id, "a table holds an error (trial decode)");
        return Mode::Skip;
    }
    Mode::Now
}

/// Entry `i` of a spec table that starts at `start`.
/// Entries `first..=last` of a spec table that starts at `start`, read until one
/// stops; their names are resolved afterwards (see [`Later`]).
fn specs(
    b: &mut Builder,
    sh: &Shared,
    part: Part,
    start: u64,
    (first, last): (u64, u64),
    stride: u64,
) -> DResult<()> {
    let mut later = Later::new(sh);
    let mut r = Ok(());
    for i in first..=last {
        r = spec(b, sh, part, start, i, stride, &mut later);
        if r.is_err() {
            break;
        }
    }
    later.finish(b);
    r
}

/// Entry `i` of a spec table that starts at `start`.
fn spec(
    b: &mut Builder,
    sh: &Shared,
    part: Part,
    start: u64,
    i: u64,
    stride: u64,
    later: &mut Later,
) -> DResult<()> {
    b.seek(start.saturating_add(i * stride));
    b.item(i, |b| match part {
        Part::Types => type_spec(b, sh, i as usize, stride, later),
        Part::FieldPool => field_spec(b, sh, i as usize, stride, later),
        Part::Literals => literal_spec(b, sh, stride, later),
        _ => pointer_spec(b, sh, stride, later),
    })
}

fn type_spec(
    b: &mut Builder,
    sh: &Shared,
    i: usize,
    stride: u64,
    later: &mut Later,
) -> DResult<()> {
    let c = &sh.c;
    let item = b.current();
    let name = name_field(b, c, "Name", true, Some(later))?;
    let Field {
        value: fields,
        id: fields_id,
    } = b.uint_field("Fields", 4)?;
    let size = b.u16("Size")?;
    b.display(if size == 0 {
        "indeterminate (0)".to_string()
    } else {
        format!("{size} bytes")
    });
    spec_padding(b, stride - TYPE_SPEC_FIELDS)?;
    if let Some(n) = &name {
        b.set_display(item, n.clone());
    }
    let run = sh.run(b, i, fields);
    let pool_len = c.fields_in();
    if c.dir.field_size < FIELD_SPEC_FIELDS {
        b.set_display(
            fields_id,
            format!("FieldPool/[{fields}] (the field pool cannot be decoded: see FieldSpecSize)"),
        );
    } else if fields >= c.dir.field_count {
        b.set_error(
            fields_id,
            format!(
                "field run index {fields} is past the end of the field pool ({} entries)",
                c.dir.field_count
            ),
        );
    } else if fields >= pool_len {
        b.set_error(
            fields_id,
            format!(
                "field run index {fields} is in the part of the field pool that lies outside the blob's bytes (only {pool_len} entries are there)"
            ),
        );
    } else if let Some((k, j)) = run.overlaps {
        let msg = if j as u64 == fields {
            format!("the field run starts at FieldPool/[{j}], inside the run of Types/[{k}]: runs must not overlap")
        } else {
            format!("the field run from FieldPool/[{fields}] runs into FieldPool/[{j}], which belongs to Types/[{k}]: runs must not overlap")
        };
        b.set_error(fields_id, msg);
    } else if run.end.is_none() {
        b.set_error(
            fields_id,
            format!("the field run from FieldPool/[{fields}] has no end marker (a FieldSpec with Name 0) before the end of the field pool"),
        );
    } else {
        b.set_display(
            fields_id,
            format!(
                "FieldPool/[{fields}]: {} field{}",
                run.entries.len(),
                if run.entries.len() == 1 { "" } else { "s" }
            ),
        );
    }
    let field_span = |j: usize| {
        let at = c
            .abs(c.dir.fields)
            .saturating_add(j as u64 * c.dir.field_size);
        BitSpan::bytes(
            at.min(b.file_len()),
            at.saturating_add(c.dir.field_size).min(b.file_len()),
        )
    };
    let spans: Vec<BitSpan> = run.entries.iter().map(|&j| field_span(j)).collect();
    b.derived_group("FieldRun", None, |b| {
        for (k, ((&j, &span), &[name, ty, off])) in
            run.entries.iter().zip(&spans).zip(&run.fields).enumerate()
        {
            let name = sh.name(b, name);
            let ty = sh.name(b, ty);
            let id = b
                .derived_group_field(Name::Index(k as u32), Some(span), |b| {
                    b.derived("Name", Value::Str(name.clone()), span, None)?;
                    b.derived("TypeName", Value::Str(ty.clone()), span, None)?;
                    b.derived(
                        "FieldOffset",
                        Value::U(off),
                        span,
                        Some(format!("0x{off:X}")),
                    )?;
                    Ok(())
                })?
                .id;
            b.set_value(id, Value::Str(name.clone()));
            let ty_text = if ty.is_empty() {
                "no type".to_string()
            } else {
                ty
            };
            b.set_display(
                id,
                format!("{ty_text} at offset 0x{off:X} (FieldPool/[{j}])"),
            );
        }
        Ok(())
    })
}

/// The name at a names-pool offset, for derived values ("" for 0 or unresolvable).
fn peek_name(b: &Builder, c: &Ctx, off: u64) -> String {
    if off == 0 {
        return String::new();
    }
    b.peek_cstr(c.pool.0.saturating_add(off), c.pool.1)
        .map(|(s, _)| s)
        .unwrap_or_default()
}

fn field_spec(
    b: &mut Builder,
    sh: &Shared,
    i: usize,
    stride: u64,
    later: &mut Later,
) -> DResult<()> {
    let c = &sh.c;
    let item = b.current();
    let owner = sh
        .owners(b)
        .of
        .get(i)
        .copied()
        .filter(|&o| o != NO_OWNER)
        .map(|o| o as usize);
    let owner_name = owner
        .and_then(|t| sh.owners(b).names.get(t))
        .map(|&n| sh.name(b, u64::from(n)))
        .unwrap_or_default();
    let raw = peek(b, b.pos(), 4, c.endian).unwrap_or(0);
    let name = if raw == 0 {
        b.u32("Name")?;
        b.display(if i == 0 {
            "0: placeholder (entry 0 is unused)"
        } else {
            "0: end of a type's field run"
        });
        None
    } else {
        name_field(b, c, "Name", true, Some(later))?
    };
    name_field(b, c, "TypeName", false, Some(later))?;
    let off = b.u16("FieldOffset")?;
    b.display(format!("0x{off:X}"));
    spec_padding(b, stride - FIELD_SPEC_FIELDS)?;
    let text = match (&name, owner) {
        (_, _) if i == 0 && raw == 0 => "placeholder".to_string(),
        (None, Some(_)) => format!("end of {owner_name}'s fields"),
        (None, None) => "end marker of no type's run".to_string(),
        (Some(n), Some(_)) => format!("{owner_name}.{n}"),
        (Some(n), None) => format!("{n} (in no type's run)"),
    };
    b.set_display(item, text);
    Ok(())
}

fn literal_spec(b: &mut Builder, sh: &Shared, stride: u64, later: &mut Later) -> DResult<()> {
    let c = &sh.c;
    let item = b.current();
    let name = name_field(b, c, "Name", true, Some(later))?;
    let ty = name_field(b, c, "TypeName", false, Some(later))?;
    let v = b.u64("Value")?;
    let mut text = format!("0x{v:X}");
    if let Some(t) = &ty {
        let signed = match t.as_str() {
            "int8" => Some(v as u8 as i8 as i64),
            "int16" => Some(v as u16 as i16 as i64),
            "int32" => Some(v as u32 as i32 as i64),
            "int64" | "nint" => Some(v as i64),
            _ => None,
        };
        if let Some(s) = signed.filter(|s| *s < 0) {
            text = format!("0x{v:X} ({s} as {t})");
        }
    }
    b.display(text.clone());
    spec_padding(b, stride - LITERAL_SPEC_FIELDS)?;
    if let Some(n) = name {
        b.set_display(item, format!("{n} = {text}"));
    }
    Ok(())
}

fn pointer_spec(b: &mut Builder, sh: &Shared, stride: u64, later: &mut Later) -> DResult<()> {
    let c = &sh.c;
    let item = b.current();
    let name = name_field(b, c, "Name", true, Some(later))?;
    let idx = b.u32("PointerDataIndex")?;
    b.display(format!(
        "slot {idx} of the runtime's pointer data: the address itself is not in the blob"
    ));
    spec_padding(b, stride - POINTER_SPEC_FIELDS)?;
    if let Some(n) = name {
        b.set_display(item, n);
    }
    Ok(())
}

/// Offset of the last non-zero byte in `[start, end)`, read in chunks.
fn last_nonzero(b: &Builder, start: u64, end: u64) -> Option<u64> {
    let mut hi = end;
    while hi > start {
        let lo = hi.saturating_sub(64 * 1024).max(start);
        let bytes = b.peek_bytes(lo, hi - lo);
        if let Some(p) = bytes.iter().rposition(|&x| x != 0) {
            return Some(lo + p as u64);
        }
        if (bytes.len() as u64) < hi - lo {
            // Past the end of the file: look before it.
            hi = lo + bytes.len() as u64;
            if bytes.is_empty() {
                hi = lo;
            }
            continue;
        }
        hi = lo;
    }
    None
}

fn names_pool(b: &mut Builder, sh: &Arc<Shared>, start: u64, len: u64) {
    let exact = b.exact_totals();
    let lazy = match mode(b, sh, |b| sh.names_clean(b, start, len)) {
        Mode::Lazy => true,
        Mode::Now => false,
        Mode::Skip => return,
    };
    let sh = Arc::clone(sh);
    let body = move |b: &mut Builder| {
        let end = b.limit();
        let per = b.page_size().map_or(u64::MAX, u64::from);
        let skim = names_skim(b, &sh, start, end, per);
        let (marks, n, at) = (&skim.marks, skim.count, skim.stop);
        // Only a list longer than a page is paged.
        let paged = marks.len() > 1;
        for (k, &(first, from)) in marks.iter().enumerate() {
            let (last_i, to) = match marks.get(k + 1) {
                Some(&(f, o)) => (f - 1, o),
                None => (n - 1, at),
            };
            // Only the first name can be wrong (it must be the empty name).
            if paged && sh.may_defer(b, |b| first > 0 || b.peek_bytes(start, 1) == [0]) {
                let sh = Arc::clone(&sh);
                b.page_vouched(exact, first, last_i, from, to - from, move |b| {
                    for i in first..=last_i {
                        name_entry(b, &sh, start, i as u32)?;
                    }
                    Ok(())
                })?;
            } else {
                b.seek(from);
                for i in first..=last_i {
                    name_entry(b, &sh, start, i as u32)?;
                }
            }
        }
        // What the skim stopped at: the trailing NULs, or a name cut by the end.
        b.seek(at);
        let mut i = n as u32;
        while b.pos() < end {
            let at = b.pos();
            if trailing(b, &sh, start, at, skim.last) {
                b.padding("TrailingNul", end - at)?;
                b.display(
                    "NUL bytes after the last name (the runtime ends its pool with an extra NUL)",
                );
                break;
            }
            name_entry(b, &sh, start, i)?;
            i += 1;
        }
        Ok(())
    };
    if lazy {
        b.lazy_region_vouched(exact, "NamesPool", Kind::Array, start, len, None, body);
    } else {
        b.region("NamesPool", Kind::Array, start, len, body);
    }
}

/// Where the names of a names pool start, found without making nodes.
struct NamesSkim {
    /// Index and offset of the first name of each page.
    marks: Vec<(u64, u64)>,
    /// Names found (each ends with a NUL before the pool's end).
    count: u64,
    /// Where the skim stopped: the pool's end, its trailing NULs, or a name
    /// without a terminator.
    stop: u64,
    /// The skim stopped at a name without a terminator.
    unterminated: bool,
    /// The pool's last non-zero byte.
    last: Option<u64>,
}

/// Skims the names pool `[start, end)` as [`names_pool`] reads it, marking the
/// first name of every page of `per` names.
fn names_skim(b: &Builder, sh: &Shared, start: u64, end: u64, per: u64) -> NamesSkim {
    let last = last_nonzero(b, start, end);
    let mut marks: Vec<(u64, u64)> = Vec::new();
    let mut chunk = Chunk::default();
    let mut at = start;
    let mut n = 0u64;
    let mut unterminated = false;
    while at < end && !trailing(b, sh, start, at, last) {
        let Some(nul) = chunk.next_nul(b, at, end) else {
            unterminated = true;
            break;
        };
        if n.is_multiple_of(per) {
            marks.push((n, at));
        }
        n += 1;
        at = nul + 1;
    }
    NamesSkim {
        marks,
        count: n,
        stop: at,
        unterminated,
        last,
    }
}

/// True if the names pool (from `start`) ends in NULs from `at` on: `at` lies past
/// the last non-zero byte and no name field uses it.
fn trailing(b: &Builder, sh: &Shared, start: u64, at: u64, last: Option<u64>) -> bool {
    let rel = at - start;
    last.is_none_or(|l| at > l) && rel > 0 && sh.uses(b, rel) == 0
}

/// The name at the cursor, entry `i` of the names pool that starts at `start`.
fn name_entry(b: &mut Builder, sh: &Shared, start: u64, i: u32) -> DResult<()> {
    let at = b.pos();
    let rel = at - start;
    let used = sh.uses(b, rel);
    let Field { value: s, id } = b.cstr_field(Name::Index(i))?;
    let uses = match used {
        _ if rel == 0 => "the reserved empty name".to_string(),
        0 => "not referenced".to_string(),
        1 => "referenced once".to_string(),
        n => format!("referenced {n} times"),
    };
    b.set_display(id, format!("offset 0x{rel:X}; {uses}"));
    if rel == 0 && !s.is_empty() {
        b.set_error(
            id,
            format!(
                "the names pool must start with the reserved empty name (a NUL at offset 0, 0x{start:X}), found \"{s}\""
            ),
        );
    }
    Ok(())
}

/// A window of file bytes for finding NULs without reading byte by byte.
#[derive(Default)]
struct Chunk {
    at: u64,
    data: Vec<u8>,
}

impl Chunk {
    /// The first NUL at or after `from` and before `end`.
    fn next_nul(&mut self, b: &Builder, from: u64, end: u64) -> Option<u64> {
        let mut p = from;
        while p < end {
            let held = self.at <= p && p < self.at.saturating_add(self.data.len() as u64);
            if !held {
                self.data = b.peek_bytes(p, (end - p).min(SKIM_CHUNK));
                self.at = p;
                if self.data.is_empty() {
                    return None;
                }
            }
            let off = (p - self.at) as usize;
            if let Some(k) = self.data[off..].iter().position(|&x| x == 0) {
                return Some(p + k as u64);
            }
            p = self.at + self.data.len() as u64;
        }
        None
    }
}

fn end_magic(b: &mut Builder, start: u64) -> DResult<()> {
    b.seek(start);
    b.bytes("EndMagic", END_MAGIC.len() as u64)?;
    let got = b.peek_bytes(start, END_MAGIC.len() as u64);
    if got == END_MAGIC {
        b.display("01 02 03 04: the names pool has the length the directory says");
    } else {
        let hint = if got.iter().all(|&x| x == 0) {
            " (all zero: the writer did not reach the end magic)"
        } else {
            ""
        };
        b.error(format!(
            "expected the end magic 01 02 03 04 right after the names pool, at 0x{start:X}; found {}{hint}",
            hex_preview(&got)
        ));
    }
    Ok(())
}
