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

use super::context::Shared;
use super::layout::Layout;
use super::prim::{magic, string, unzigzag, varint_of, varint_shown, vint, vuint, LOCATION_MAGIC};
use super::skim::{self, AstE, LocIndex};
use super::tags;
use crate::builder::{Builder, DResult, Field};
use crate::tree::{BitSpan, Kind, Name, NodeId, Tree, Value, ValueRef};
use std::fmt::{self, Write as _};
use std::sync::Arc;

/// The page size when lists are paged.
fn paging(b: &Builder) -> Option<u64> {
    b.page_size()
        .filter(|_| b.lazy_threshold().is_some())
        .map(u64::from)
}

/// Decodes the section (cursor at its start, region bounded by its end). Long
/// lists of file paths, groups and entries of a group are shown in pages; a skim
/// of the section finds where they start.
pub fn decode(b: &mut Builder, sh: &Arc<Shared>) -> DResult<()> {
    let signed_tags = sh.layout != Layout::Spec;
    let (mut npaths, mut ngroups, mut groups_node) = (0u64, 0u64, None);
    b.group("Header", |b| {
        magic(b, 8, LOCATION_MAGIC, "location section")?;
        npaths = b.u32("FilePathCount")? as u64;
        let f = b.uint_field("GroupCount", 4)?;
        ngroups = f.value;
        groups_node = Some(f.id);
        b.display("the module's group first, then one per symbol-table entry, in uAST order");
        Ok(())
    })?;
    let page = paging(b);
    let locs: Option<Arc<Option<LocIndex>>> = page.map(|_| sh.locs(b));
    let ix: Option<&LocIndex> = locs.as_ref().and_then(|l| l.as_ref().as_ref());
    let mut paths = Vec::new();
    b.array("FilePaths", |b| {
        let mut i = 0;
        if let (Some(p), Some(ix)) = (page, ix.filter(|_| npaths > page.unwrap_or(0))) {
            let ok = (ix.paths.len() as u64).min(npaths);
            while i < ok {
                let last = (i + p).min(ok) - 1;
                let (s, e) = (
                    ix.path_starts[i as usize],
                    ix.path_starts[last as usize + 1],
                );
                let first = i;
                b.page(first, last, s, e - s, move |b| {
                    for i in first..=last {
                        path(b, i)?;
                    }
                    Ok(())
                })?;
                i = last + 1;
            }
            paths = ix.paths.clone();
        }
        for i in i..npaths {
            paths.push(path(b, i)?);
        }
        Ok(())
    })?;
    let paths = Arc::new(paths);
    let end = b.limit();
    b.array("Groups", |b| {
        let mut k = 0u64;
        if let (Some(p), Some(ix)) = (
            page,
            ix.filter(|x| x.starts.len() as u64 > page.unwrap_or(0) + 1),
        ) {
            let n = ix.starts.len() as u64 - 1;
            while k < n {
                let last = (k + p).min(n) - 1;
                let (s, e) = (ix.starts[k as usize], ix.starts[last as usize + 1]);
                let bounds: Vec<u64> = ix.starts[k as usize..=last as usize + 1].to_vec();
                let (first, sh, paths) = (k, sh.clone(), paths.clone());
                b.page(first, last, s, e - s, move |b| {
                    for (j, w) in bounds.windows(2).enumerate() {
                        group_region(b, &sh, &paths, signed_tags, first + j as u64, w[0], w[1]);
                    }
                    Ok(())
                })?;
                k = last + 1;
            }
        }
        let syms = sh.syms(b);
        let starts = &syms.loc_starts;
        while k < ngroups {
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
            let bound = starts.after(at, end);
            group_region(b, sh, &paths, signed_tags, k, at, bound);
            k += 1;
        }
        Ok(())
    })
}

/// File path `i`: its text and the SHA-256 of the source.
fn path(b: &mut Builder, i: u64) -> DResult<String> {
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
        b.set_key(it, p.clone());
        Ok(p)
    })
}

/// Group `k`, `[at, bound)`, and the check of its entries against its uAST
/// subtree.
fn group_region(
    b: &mut Builder,
    sh: &Arc<Shared>,
    paths: &[String],
    signed_tags: bool,
    k: u64,
    at: u64,
    bound: u64,
) {
    b.region(
        Name::Index(k.min(u32::MAX as u64) as u32),
        Kind::Struct,
        at,
        bound - at,
        |b| {
            let gid = b.current();
            let mut entries: Vec<NodeId> = Vec::new();
            let mut count = 0u64;
            let r = group(b, sh, paths, signed_tags, k, &mut entries, &mut count);
            if let Some(order) = check_group(b, sh, k, at, gid, count) {
                let from = count - entries.len() as u64;
                for (j, &id) in entries.iter().enumerate() {
                    label_entry(b, sh, id, order[from as usize + j]);
                }
            }
            r
        },
    );
}

/// One location group, bounded by the next group's start. `entries` gets the
/// entry nodes decoded here (the last ones; those before are in pages), `count`
/// the number of entries.
fn group(
    b: &mut Builder,
    sh: &Arc<Shared>,
    paths: &[String],
    signed_tags: bool,
    k: u64,
    entries: &mut Vec<NodeId>,
    count: &mut u64,
) -> DResult<()> {
    let gid = b.current();
    let gstart = b.pos();
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
    // Groups are matched by their file (an index with no path: in order).
    let key = if fi < paths.len() as u64 {
        file.clone()
    } else {
        "file".into()
    };
    b.set_key(gid, key);
    let mut last = start_line;
    if b.remaining() == 0 {
        b.set_display(gid, format!("{file}, from line {start_line}: no entries"));
        return Ok(());
    }
    // Every entry takes at least 5 bytes: fewer bytes than 5 a page's worth
    // hold no more than a page.
    let page = paging(b).filter(|&p| b.remaining() > 5 * p);
    b.array("Entries", |b| {
        let mut i = 0u64;
        if let Some(p) = page {
            let (s, e) = (b.pos(), b.limit());
            let d = skim::bytes_of(b, s, e);
            let plan = skim::loc_plan(&d, s, s, e, b.endian(), last, p);
            drop(d);
            let total = plan.ok + u64::from(plan.cut);
            for (j, w) in plan.marks.windows(2).enumerate() {
                let first = j as u64 * p;
                if first >= plan.ok {
                    break;
                }
                let lastk = (first + p).min(plan.ok) - 1;
                let (at, l0) = w[0];
                let sh = sh.clone();
                b.page(first, lastk, at, w[1].0 - at, move |b| {
                    let mut l = l0;
                    let mut ids = Vec::new();
                    for i in first..=lastk {
                        ids.push(b.item_field(i, |b| loc_entry(b, &mut l, signed_tags))?.id);
                    }
                    if let Some((_, order)) =
                        group_order(b, &sh, k, gstart).filter(|(_, o)| o.len() as u64 == total)
                    {
                        for (j, id) in ids.into_iter().enumerate() {
                            label_entry(b, &sh, id, order[first as usize + j]);
                        }
                    }
                    Ok(())
                })?;
            }
            let (at, l) = plan.marks.last().copied().unwrap_or((s, last));
            b.seek(at);
            last = l;
            i = plan.ok;
            *count = plan.ok;
        }
        while b.remaining() > 0 {
            // The entry's node is kept even when decoding stops inside it.
            let r = b.item(i, |b| {
                entries.push(b.current());
                loc_entry(b, &mut last, signed_tags)
            });
            *count += 1;
            r?;
            i += 1;
        }
        Ok(())
    })?;
    let n = *count;
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
        let d = b.tree().display(id).clone().unwrap_or_default();
        b.set_display(id, format!("{d}; {extra}"));
    }
}

/// Reads a signed line delta, shows the absolute line it gives and adds it as a
/// derived node named `line_name`, counted from `base` (see [`line_from`];
/// `additional`: in an additional entry). Both displays are rendered when shown
/// (see [`delta_shown`], [`line_shown`]).
fn line(
    b: &mut Builder,
    delta_name: &'static str,
    line_name: &'static str,
    base: i64,
    additional: bool,
) -> DResult<i64> {
    let Field {
        value: d,
        id: delta,
    } = varint_of(b, delta_name, true)?;
    let d = unzigzag(d);
    let abs = base.saturating_add(d);
    // An overflowing varint keeps its text; a saturated sum cannot be undone.
    let rendered = b.tree().error(delta).is_none() && base.checked_add(d).is_some();
    if rendered {
        b.set_display_with(delta, delta_shown);
    } else {
        append(b, &format!("line {abs}"));
    }
    let span = b.tree().span(delta);
    let id = b.derived(line_name, Value::I(abs), span, None)?;
    if rendered {
        b.set_display_with(id, line_shown);
    } else {
        b.set_display(id, line_text(line_from(line_name, additional), base, d));
    }
    Ok(abs)
}

/// `first line 38 + 2`: a line counted from `base` by delta `d`.
fn line_text(from: &str, base: i64, d: i64) -> String {
    format!(
        "{from} {base} {} {}",
        if d < 0 { "-" } else { "+" },
        d.unsigned_abs()
    )
}

/// `lines 3-9, columns 1-20`.
fn lines_text(
    first: impl fmt::Display,
    last: impl fmt::Display,
    c1: impl fmt::Display,
    c2: impl fmt::Display,
) -> String {
    format!("lines {first}-{last}, columns {c1}-{c2}")
}

/// True if the entry `item` (being built) can render its display from its
/// children: it has no error so far (its values are the ones read).
fn rendered_lines(b: &Builder, item: NodeId) -> bool {
    b.children(item)
        .iter()
        .all(|&k| b.tree().error(k).is_none())
}

/// What a line is counted from: the entry's first line for its last line, and
/// for a first line the previous entry's last line (in an additional entry: its
/// entry's first line).
fn line_from(line_name: &str, additional: bool) -> &'static str {
    match (line_name, additional) {
        ("FirstLine", false) => "previous last line",
        ("FirstLine", true) => "entry's first line",
        _ => "first line",
    }
}

/// The signed value of `id`, if it has one.
fn int_of(t: &Tree, id: NodeId) -> Option<i64> {
    match t.value_ref(id)? {
        ValueRef::I(v) => Some(v),
        ValueRef::U(v) => i64::try_from(v).ok(),
        _ => None,
    }
}

/// The sibling `step` places after `id` (before it when negative).
fn sibling(t: &Tree, id: NodeId, step: isize) -> Option<NodeId> {
    let kids = t.children(t.parent(id)?);
    let at = kids.iter().position(|&k| k == id)?;
    kids.get(at.checked_add_signed(step)?).copied()
}

/// The value of `id`'s child named `name`, as shown.
fn kid_value(t: &Tree, id: NodeId, name: &str) -> Option<String> {
    let k = *t.children(id).iter().find(|&&k| t.name(k).is(name))?;
    Some(t.value(k)?.to_string())
}

/// A line delta: its varint, then the line it gives (the derived node after
/// it), `03 → ZigZag 3 → -2; line 40`.
fn delta_shown(t: &Tree, id: NodeId, out: &mut String) -> Option<()> {
    let abs = int_of(t, sibling(t, id, 1)?)?;
    varint_shown(t, id, out)?;
    write!(out, "; line {abs}").ok()
}

/// A derived line: the base it is counted from and the delta (the node before
/// it), `first line 38 + 2`.
fn line_shown(t: &Tree, id: NodeId, out: &mut String) -> Option<()> {
    let abs = int_of(t, id)?;
    let d = int_of(t, sibling(t, id, -1)?)?;
    let base = abs.checked_sub(d)?;
    let entry = t.parent(id)?;
    let additional = t
        .parent(entry)
        .is_some_and(|list| t.name(list).is("Additional"));
    let from = line_from(&t.name(id).to_string(), additional);
    out.push_str(&line_text(from, base, d));
    Some(())
}

/// A location entry: `lines 3-9, columns 1-20`.
fn entry_shown(t: &Tree, id: NodeId, out: &mut String) -> Option<()> {
    out.push_str(&lines_text(
        kid_value(t, id, "FirstLine")?,
        kid_value(t, id, "LastLine")?,
        kid_value(t, id, "FirstColumn")?,
        kid_value(t, id, "LastColumn")?,
    ));
    Some(())
}

/// The name of the location tag whose varint is node `id`.
fn tag_name(t: &Tree, id: NodeId) -> Option<&'static str> {
    let tag = match t.value_ref(id)? {
        ValueRef::I(v) => v as i128,
        ValueRef::U(v) => v as i128,
        _ => return None,
    };
    Some(tags::location_tag(tag).unwrap_or("unknown"))
}

/// A location tag: its varint and its name.
fn tag_shown(t: &Tree, id: NodeId, out: &mut String) -> Option<()> {
    let name = tag_name(t, id)?;
    varint_shown(t, id, out)?;
    write!(
        out,
        "; {name} (LocationMapTag, all-location-maps.h @05cfdad5)"
    )
    .ok()
}

/// An additional location entry: `Comment: lines 3-4, columns 1-9`.
fn additional_shown(t: &Tree, id: NodeId, out: &mut String) -> Option<()> {
    let tag = *t.children(id).first()?;
    write!(
        out,
        "{}: {}",
        tag_name(t, tag)?,
        lines_text(
            kid_value(t, id, "FirstLine")?,
            kid_value(t, id, "LastLine")?,
            kid_value(t, id, "FirstColumn")?,
            kid_value(t, id, "LastColumn")?,
        )
    )
    .ok()
}

/// The comparison key of an entry not labelled yet.
fn lines_key(_: &Tree, _: NodeId, out: &mut String) -> Option<()> {
    out.push_str("lines");
    Some(())
}

/// The comparison key of an additional location: its tag's name.
fn additional_key(t: &Tree, id: NodeId, out: &mut String) -> Option<()> {
    out.push_str(tag_name(t, *t.children(id).first()?)?);
    Some(())
}

fn loc_entry(b: &mut Builder, last: &mut i64, signed_tags: bool) -> DResult<()> {
    let item = b.current();
    let first = line(b, "FirstLineDelta", "FirstLine", *last, false)?;
    let last_line = line(b, "LastLineDelta", "LastLine", first, false)?;
    let c1 = vuint(b, "FirstColumn")?;
    let c2 = vuint(b, "LastColumn")?;
    // An entry is matched by what it locates (see `label_entry`), until then
    // in order.
    if rendered_lines(b, item) {
        b.set_display_keyed(item, entry_shown, lines_key);
    } else {
        b.set_display(item, lines_text(first, last_line, c1, c2));
        b.set_key(item, "lines");
    }
    let m = vuint(b, "AdditionalCount")?;
    if m == 0 {
        *last = last_line;
        return Ok(());
    }
    b.array("Additional", |b| {
        for j in 0..m {
            b.item(j, |b| {
                let it = b.current();
                let tag_id = varint_of(b, "Tag", signed_tags)?.id;
                let tname = tag_name(b.tree(), tag_id).unwrap_or("unknown");
                if b.tree().error(tag_id).is_none() {
                    b.set_display_with(tag_id, tag_shown);
                } else {
                    append(
                        b,
                        &format!("{tname} (LocationMapTag, all-location-maps.h @05cfdad5)"),
                    );
                }
                let f = line(b, "FirstLineDelta", "FirstLine", first, true)?;
                let l = line(b, "LastLineDelta", "LastLine", f, true)?;
                let a = vuint(b, "FirstColumn")?;
                let z = vuint(b, "LastColumn")?;
                if rendered_lines(b, it) {
                    b.set_display_keyed(it, additional_shown, additional_key);
                } else {
                    b.set_display(it, format!("{tname}: {}", lines_text(f, l, a, z)));
                    b.set_key(it, tname);
                }
                Ok(())
            })?;
        }
        Ok(())
    })?;
    *last = last_line;
    Ok(())
}

/// The uAST subtree location group `gi` (starting at `start`) describes (group
/// 0: the module; the others through the symbol table): its root and its entries
/// in pre-order, leaving out subtrees that have their own group; `None` if it is
/// not known or not completely decoded.
pub fn group_order(b: &Builder, sh: &Shared, gi: u64, start: u64) -> Option<(AstE, Vec<u32>)> {
    sh.ast_base()?;
    sh.loc_base()?;
    let syms = sh.syms(b);
    let ix = sh.ast(b);
    let root_of = syms.root_of(sh.ast_base()?, sh.loc_base()?);
    let root = match root_of.binary_search_by_key(&start, |x| x.0) {
        Ok(i) => root_of[i].1,
        Err(_) if gi == 0 => ix.e[*ix.roots.first()? as usize].start,
        Err(_) => return None,
    };
    let order = ix.preorder(root, &syms.anchors)?;
    Some((ix.e[order[0] as usize], order))
}

/// Checks that location group `gi` holds one entry per node of its uAST
/// subtree (see [`group_order`]): an error on the group node `gid` if not.
/// Returns the order when the counts agree, for labelling the entries.
pub fn check_group(
    b: &mut Builder,
    sh: &Shared,
    gi: u64,
    start: u64,
    gid: NodeId,
    entries: u64,
) -> Option<Vec<u32>> {
    let (re, order) = group_order(b, sh, gi, start)?;
    if order.len() as u64 != entries {
        let what = sh.describe(b, &re);
        b.set_error(
            gid,
            format!(
                "the group holds {entries} location entries, but its uAST subtree ({what} at 0x{:X}) has {} nodes outside other groups",
                re.start,
                order.len()
            ),
        );
        return None;
    }
    Some(order)
}

/// Labels location entry node `id` with the uAST entry `order_at` (an index
/// into the uAST index) it describes.
pub fn label_entry(b: &mut Builder, sh: &Shared, id: NodeId, at: u32) {
    let ix = sh.ast(b);
    let Some(e) = ix.e.get(at as usize).copied() else {
        return;
    };
    let prev = b.tree().display(id).clone().unwrap_or_default();
    let what = sh.describe(b, &e);
    b.set_display(id, format!("{what}: {prev}"));
    b.set_key(id, what);
    b.set_reference(id, BitSpan::bytes(e.start, e.end));
}
