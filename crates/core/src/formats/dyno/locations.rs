//! Location Section (spec §"Location Section"): magic, file-path count, group count,
//! the file paths (string and SHA-256 of the parsed source each), then the location
//! groups: a file-path index, a signed starting line, and one entry per uAST node of
//! the group in pre-order. An entry stores its lines as ZigZag deltas (first line
//! from the previous entry's last line, or from the starting line; last line from
//! its first line), its columns, and additional locations (tag, lines relative to
//! the entry's first line, columns). Absolute lines are shown as derived nodes.
//!
//! Groups store no entry count: a group ends where the next one the symbol table
//! points at begins (or at the section end), and its entries are read up to there.
//! The spec stores an additional location's tag unsigned, Chapel's writer signed
//! (`writeVInt`); each layout is read its own way.

use super::layout::Layout;
use super::module::{Ctx, LocGroup};
use super::prim::{string, varint_of, vint, vuint};
use super::{magic, tags, LOCATION_MAGIC};
use crate::builder::{Builder, DResult};
use crate::tree::{Kind, Name, Value};

/// Decodes the section (cursor at its start, region bounded by its end).
pub fn decode(b: &mut Builder, ctx: &mut Ctx) -> DResult<()> {
    let signed_tags = ctx.layout != Layout::Spec;
    let (mut npaths, mut ngroups, mut groups_node) = (0u64, 0u64, None);
    b.group("Header", |b| {
        magic(b, 8, LOCATION_MAGIC, "location section")?;
        npaths = b.u32("FilePathCount")? as u64;
        ngroups = b.u32("GroupCount")? as u64;
        groups_node = b.last();
        b.display("the module's group first, then one per symbol-table entry, in uAST order");
        Ok(())
    })?;
    let mut paths = Vec::new();
    b.array("FilePaths", |b| {
        for i in 0..npaths {
            b.item(i, |b| {
                let p = string(b, "Path")?;
                let at = b.pos();
                b.bytes("Sha256", 32)?;
                let h = b.peek_bytes(at, 32);
                let hex: String = h.iter().map(|x| format!("{x:02x}")).collect();
                b.display(if h.iter().all(|&x| x == 0) {
                    "all zero: the writer could not read the source file".to_string()
                } else {
                    format!("SHA-256 of the source file as parsed: {hex}")
                });
                let it = b.current();
                b.set_display(it, format!("\"{p}\""));
                paths.push(p);
                Ok(())
            })?;
        }
        Ok(())
    })?;
    ctx.paths = paths;
    let end = b.limit();
    let starts = ctx.loc_starts.clone();
    let mut groups: Vec<LocGroup> = Vec::new();
    let r = b.array("Groups", |b| {
        for k in 0..ngroups {
            let at = b.pos();
            if at >= end {
                if let Some(id) = groups_node {
                    b.set_error(
                        id,
                        format!("{ngroups} groups are claimed, but the section ends after {k}"),
                    );
                }
                break;
            }
            let bound = starts
                .range(at + 1..)
                .next()
                .copied()
                .filter(|&x| x <= end)
                .unwrap_or(end);
            let mut g = LocGroup {
                start: at,
                ..Default::default()
            };
            b.region(
                Name::Index(k.min(u32::MAX as u64) as u32),
                Kind::Struct,
                at,
                bound - at,
                |b| group(b, &ctx.paths, signed_tags, &mut g),
            );
            g.node = b.last().expect("group node");
            groups.push(g);
        }
        Ok(())
    });
    ctx.groups = groups;
    r
}

/// One location group, bounded by the next group's start.
fn group(b: &mut Builder, paths: &[String], signed_tags: bool, g: &mut LocGroup) -> DResult<()> {
    let gid = b.current();
    let fi = vuint(b, "FilePathIndex")?;
    let file = match paths.get(fi as usize) {
        Some(p) => {
            append(b, &format!("\"{p}\""));
            p.clone()
        }
        None => {
            b.error(format!(
                "file path index {fi}, but the section lists {} paths",
                paths.len()
            ));
            format!("file #{fi}")
        }
    };
    let start_line = vint(b, "StartingLine")?;
    b.set_display(gid, format!("{file}, from line {start_line}"));
    let mut last = start_line;
    if b.remaining() == 0 {
        b.set_display(gid, format!("{file}, from line {start_line}: no entries"));
        return Ok(());
    }
    b.array("Entries", |b| {
        let mut i = 0u64;
        while b.remaining() > 0 {
            let r = b.item(i, |b| loc_entry(b, &mut last, signed_tags));
            g.entries.push(b.last().expect("entry node"));
            r?;
            i += 1;
        }
        Ok(())
    })?;
    let n = g.entries.len();
    b.set_display(
        gid,
        format!(
            "{file}, from line {start_line}: {n} entr{}",
            if n == 1 { "y" } else { "ies" }
        ),
    );
    Ok(())
}

/// Appends `extra` to the last node's display.
fn append(b: &mut Builder, extra: &str) {
    if let Some(id) = b.last() {
        let d = b.tree().node(id).display.clone().unwrap_or_default();
        b.set_display(id, format!("{d}; {extra}"));
    }
}

/// Reads a signed line delta, shows the absolute line it gives and adds it as a
/// derived node named `line_name`.
fn line(
    b: &mut Builder,
    delta_name: &'static str,
    line_name: &'static str,
    base: i64,
    from: &str,
) -> DResult<i64> {
    let d = vint(b, delta_name)?;
    let abs = base.saturating_add(d);
    append(b, &format!("line {abs}"));
    let span = b.tree().node(b.last().expect("delta node")).span;
    b.derived(
        line_name,
        Value::I(abs),
        span,
        Some(format!(
            "{from} {base} {} {}",
            if d < 0 { "-" } else { "+" },
            d.unsigned_abs()
        )),
    )?;
    Ok(abs)
}

fn loc_entry(b: &mut Builder, last: &mut i64, signed_tags: bool) -> DResult<()> {
    let item = b.current();
    let first = line(
        b,
        "FirstLineDelta",
        "FirstLine",
        *last,
        "previous last line",
    )?;
    let last_line = line(b, "LastLineDelta", "LastLine", first, "first line")?;
    let c1 = vuint(b, "FirstColumn")?;
    let c2 = vuint(b, "LastColumn")?;
    b.set_display(
        item,
        format!("lines {first}-{last_line}, columns {c1}-{c2}"),
    );
    let m = vuint(b, "AdditionalCount")?;
    if m == 0 {
        *last = last_line;
        return Ok(());
    }
    b.array("Additional", |b| {
        for j in 0..m {
            b.item(j, |b| {
                let it = b.current();
                let raw = varint_of(b, "Tag", signed_tags)?;
                let tag: i128 = if signed_tags {
                    super::prim::unzigzag(raw) as i128
                } else {
                    raw as i128
                };
                let tname = tags::location_tag(tag).unwrap_or("unknown");
                append(
                    b,
                    &format!("{tname} (LocationMapTag, all-location-maps.h @05cfdad5)"),
                );
                let f = line(
                    b,
                    "FirstLineDelta",
                    "FirstLine",
                    first,
                    "entry's first line",
                )?;
                let l = line(b, "LastLineDelta", "LastLine", f, "first line")?;
                let a = vuint(b, "FirstColumn")?;
                let z = vuint(b, "LastColumn")?;
                b.set_display(it, format!("{tname}: lines {f}-{l}, columns {a}-{z}"));
                Ok(())
            })?;
        }
        Ok(())
    })?;
    *last = last_line;
    Ok(())
}
