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
use crate::builder::{hex_preview, Builder, DResult, Endian};
use crate::tree::{BitSpan, Kind, Name, Value};
use std::collections::BTreeMap;

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

// ----- peeked model ---------------------------------------------------------------

#[derive(Clone, Copy, Default)]
struct TypeRec {
    name: u64,
    fields: u64,
}

#[derive(Clone, Copy, Default)]
struct FieldRec {
    name: u64,
    type_name: u64,
}

/// A type's field run, as far as it could be followed.
#[derive(Clone, Default)]
struct Run {
    /// Field pool indices of the type's fields.
    entries: Vec<usize>,
    /// Index of the end marker, if one was reached.
    end: Option<usize>,
    /// The type whose run this one ran into, and where.
    overlaps: Option<(usize, usize)>,
}

/// Everything the tables hold that other tables need.
#[derive(Default)]
struct Model {
    types: Vec<TypeRec>,
    fields: Vec<FieldRec>,
    runs: Vec<Run>,
    /// For each field pool entry: the type that owns it (field or end marker).
    owner: Vec<Option<usize>>,
    /// How often each names-pool offset is used.
    uses: BTreeMap<u64, u32>,
}

/// Where a table starts (absolute) and how many of its entries lie before `end`.
fn fitting(start: u64, count: u64, stride: u64, end: u64) -> u64 {
    if stride == 0 {
        return 0;
    }
    count.min(end.saturating_sub(start) / stride)
}

/// The decoding context of one blob.
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
}

fn build_model(b: &Builder, c: &Ctx) -> Model {
    let d = &c.dir;
    let mut m = Model::default();
    let e = c.endian;
    let name_use = |m: &mut Model, off: u64| {
        if off != 0 {
            *m.uses.entry(off).or_insert(0) += 1;
        }
    };
    if let Some(off) = peek(b, c.abs(d.first) + header_name_offset(c.layout), 4, e) {
        name_use(&mut m, off);
    }
    if d.type_size >= TYPE_SPEC_FIELDS {
        let start = c.abs(d.types);
        for i in 0..fitting(start, d.type_count, d.type_size, c.end) {
            let at = start + i * d.type_size;
            let t = TypeRec {
                name: peek(b, at, 4, e).unwrap_or(0),
                fields: peek(b, at + 4, 4, e).unwrap_or(0),
            };
            name_use(&mut m, t.name);
            m.types.push(t);
        }
    }
    if d.field_size >= FIELD_SPEC_FIELDS {
        let start = c.abs(d.fields);
        for i in 0..fitting(start, d.field_count, d.field_size, c.end) {
            let at = start + i * d.field_size;
            let f = FieldRec {
                name: peek(b, at, 4, e).unwrap_or(0),
                type_name: peek(b, at + 4, 4, e).unwrap_or(0),
            };
            if f.name != 0 {
                name_use(&mut m, f.name);
                name_use(&mut m, f.type_name);
            }
            m.fields.push(f);
        }
    }
    if d.literal_size >= LITERAL_SPEC_FIELDS {
        let start = c.abs(d.literals);
        for i in 0..fitting(start, d.literal_count, d.literal_size, c.end) {
            let at = start + i * d.literal_size;
            name_use(&mut m, peek(b, at, 4, e).unwrap_or(0));
            name_use(&mut m, peek(b, at + 4, 4, e).unwrap_or(0));
        }
    }
    if d.pointer_size >= POINTER_SPEC_FIELDS {
        let start = c.abs(d.pointers);
        for i in 0..fitting(start, d.pointer_count, d.pointer_size, c.end) {
            name_use(
                &mut m,
                peek(b, start + i * d.pointer_size, 4, e).unwrap_or(0),
            );
        }
    }
    // Field runs. Each pool entry is walked at most once: a run that reaches an
    // entry another type already owns stops there (runs must not overlap).
    m.owner = vec![None; m.fields.len()];
    for (t, ty) in m.types.iter().enumerate() {
        let mut run = Run::default();
        let mut j = usize::try_from(ty.fields).unwrap_or(usize::MAX);
        while let Some(f) = m.fields.get(j) {
            if f.name == 0 {
                // A type without fields may point at any end marker; the first type
                // to reach one owns it. Entry 0 is the placeholder: no one owns it.
                if j != 0 && m.owner[j].is_none() {
                    m.owner[j] = Some(t);
                }
                run.end = Some(j);
                break;
            }
            if let Some(k) = m.owner.get(j).copied().flatten() {
                run.overlaps = Some((k, j));
                break;
            }
            m.owner[j] = Some(t);
            run.entries.push(j);
            j += 1;
        }
        m.runs.push(run);
    }
    m
}

/// Offset of `BaselineName` from the first directory word's target.
fn header_name_offset(layout: Layout) -> u64 {
    match layout {
        Layout::Runtime => 4,
        Layout::Sample => 0,
    }
}

// ----- tree -------------------------------------------------------------------------

/// Decodes the blob planned in `plan` into the current region (which spans the
/// magic and everything the plan says the blob reaches, cut at `end`).
/// `container` names what bounds the blob in messages.
pub(super) fn decode(b: &mut Builder, plan: &Plan, end: u64, container: &str) -> DResult<()> {
    let saved = b.endian();
    b.set_endian(plan.endian);
    let r = decode_inner(b, plan, end, container);
    b.set_endian(saved);
    r
}

fn decode_inner(b: &mut Builder, plan: &Plan, end: u64, container: &str) -> DResult<()> {
    let blob = b.current();
    let m = plan.hit.offset;
    let h = m.saturating_add(MAGIC_SIZE);
    let wanted_end = m.saturating_add(plan.extent);
    if wanted_end > end {
        b.set_error(
            blob,
            format!(
                "the directory places blob contents up to 0x{wanted_end:X}, but {container} ends at 0x{end:X}"
            ),
        );
    }
    magic(b, plan)?;
    byte_order(b, plan)?;
    let Some(dir) = plan.dir else {
        // Fewer than 48 bytes follow: reading the directory records where it stops.
        b.group("Directory", |b| {
            b.u32("FlagsAndBaselineStart")?;
            b.bytes("Rest", DIRECTORY_SIZE - 4).map(|_| ())
        })?;
        return Ok(());
    };
    let pool_start = h.saturating_add(dir.names);
    let c = Ctx {
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
    };
    directory(b, &c)?;
    layout_node(b, &c)?;
    let model = build_model(b, &c);
    let summary =
        format!(
        "{}-endian, {} layout: {} types, {} field specs, {} literals, {} pointers, {} name bytes",
        if c.endian == Endian::Little { "little" } else { "big" },
        if c.layout == Layout::Runtime { "runtime" } else { "sample" },
        dir.type_count,
        dir.field_count,
        dir.literal_count,
        dir.pointer_count,
        dir.names_count
    );
    b.set_display(blob, summary);
    tables(b, &c, &model);
    Ok(())
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

fn tables(b: &mut Builder, c: &Ctx, m: &Model) {
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
    parts.sort_by_key(|&(_, start, _)| start);
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
            Part::Types => {
                table(b, c, m, name, start, len, Part::Types);
                Ok(())
            }
            Part::FieldPool => {
                table(b, c, m, name, start, len, Part::FieldPool);
                Ok(())
            }
            Part::Literals => {
                table(b, c, m, name, start, len, Part::Literals);
                Ok(())
            }
            Part::Pointers => {
                table(b, c, m, name, start, len, Part::Pointers);
                Ok(())
            }
            Part::Names => {
                names_pool(b, m, start, len);
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
        let flags = b.u32("PlatformFlags")?;
        let at = b
            .last()
            .map(|id| b.tree().node(id).span)
            .unwrap_or_default();
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
    let _ = name_field(b, c, "BaselineName", true)?;
    Ok(())
}

/// Reads a `u32` names-pool offset and resolves it. Offset 0 is the reserved empty
/// name: an error where a name is `required`, "none" otherwise.
fn name_field(
    b: &mut Builder,
    c: &Ctx,
    field: &'static str,
    required: bool,
) -> DResult<Option<String>> {
    let off = b.u32(field)? as u64;
    let id = b.last().expect("u32 made a node");
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
    Ok(b.resolve_strref(id, off, c.pool.0, c.pool.1))
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

fn table(
    b: &mut Builder,
    c: &Ctx,
    m: &Model,
    name: &'static str,
    start: u64,
    len: u64,
    part: Part,
) {
    let d = c.dir;
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
    b.region(name, Kind::Array, start, len, |b| {
        if stride < known {
            let n = b.remaining();
            b.bytes("Bytes", n)?;
            b.display(format!(
                "{count} entries not decoded: {what} {stride} is smaller than the {known} bytes each needs"
            ));
            return Ok(());
        }
        // Reads stop at the region's end, which the count cannot move.
        for i in 0..count {
            b.seek(start.saturating_add(i * stride));
            b.item(i, |b| match part {
                Part::Types => type_spec(b, c, m, i as usize, stride),
                Part::FieldPool => field_spec(b, c, m, i as usize, stride),
                Part::Literals => literal_spec(b, c, stride),
                _ => pointer_spec(b, c, stride),
            })?;
        }
        Ok(())
    });
}

fn type_spec(b: &mut Builder, c: &Ctx, m: &Model, i: usize, stride: u64) -> DResult<()> {
    let item = b.current();
    let name = name_field(b, c, "Name", true)?;
    let fields = b.u32("Fields")? as u64;
    let fields_id = b.last().expect("node");
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
    let run = m.runs.get(i).cloned().unwrap_or_default();
    let pool_len = m.fields.len() as u64;
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
        for (k, (&j, &span)) in run.entries.iter().zip(&spans).enumerate() {
            let name = peek_name(b, c, m.fields.get(j).map_or(0, |f| f.name));
            let ty = peek_name(b, c, m.fields.get(j).map_or(0, |f| f.type_name));
            let off = peek(b, span.start_byte() + 8, 2, c.endian).unwrap_or(0);
            b.derived_group(Name::Index(k as u32), Some(span), |b| {
                b.derived("Name", Value::Str(name.clone()), span, None)?;
                b.derived("TypeName", Value::Str(ty.clone()), span, None)?;
                b.derived(
                    "FieldOffset",
                    Value::U(off),
                    span,
                    Some(format!("0x{off:X}")),
                )?;
                Ok(())
            })?;
            let id = b.last().expect("group");
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

fn field_spec(b: &mut Builder, c: &Ctx, m: &Model, i: usize, stride: u64) -> DResult<()> {
    let item = b.current();
    let owner = m.owner.get(i).copied().flatten();
    let owner_name = owner
        .and_then(|t| m.types.get(t))
        .map(|t| peek_name(b, c, t.name))
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
        name_field(b, c, "Name", true)?
    };
    name_field(b, c, "TypeName", false)?;
    b.u16("FieldOffset")?;
    let off = b.last().and_then(|id| b.tree().node(id).value.clone());
    if let Some(Value::U(v)) = off {
        b.display(format!("0x{v:X}"));
    }
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

fn literal_spec(b: &mut Builder, c: &Ctx, stride: u64) -> DResult<()> {
    let item = b.current();
    let name = name_field(b, c, "Name", true)?;
    let ty = name_field(b, c, "TypeName", false)?;
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

fn pointer_spec(b: &mut Builder, c: &Ctx, stride: u64) -> DResult<()> {
    let item = b.current();
    let name = name_field(b, c, "Name", true)?;
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

fn names_pool(b: &mut Builder, m: &Model, start: u64, len: u64) {
    b.region("NamesPool", Kind::Array, start, len, |b| {
        let end = b.limit();
        let last = last_nonzero(b, start, end);
        let mut i = 0u32;
        while b.pos() < end {
            let at = b.pos();
            let rel = at - start;
            let used = m.uses.get(&rel).copied().unwrap_or(0);
            let tail = last.is_none_or(|l| at > l);
            if tail && rel > 0 && used == 0 {
                b.padding("TrailingNul", end - at)?;
                b.display("NUL bytes after the last name (the runtime ends its pool with an extra NUL)");
                break;
            }
            let s = b.cstr(Name::Index(i))?;
            let id = b.last().expect("node");
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
            i += 1;
        }
        Ok(())
    });
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
