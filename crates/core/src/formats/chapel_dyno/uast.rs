//! uAST Section (spec §"uAST Section"): magic, entry count, then the module's uAST
//! serialized depth-first. Each entry is a tag byte, the attribute-group child number
//! (a signed variable-byte integer: Chapel's writer uses `writeVInt`, -1 meaning
//! none), the tag's own fields, a variable-byte child count and the children.
//!
//! The fields of each tag come from its `serializeInner` in chapel-lang/chapel
//! (`frontend/include/chpl/uast/*.h`); only tags whose fields were read there are
//! decoded. Any other tag's fields have an unknown length, so from there on the
//! bytes cannot be parsed: they become one `Undecoded` run ending where the next
//! entry the symbol table points at begins (or at the section end) — the only
//! boundary the file proves — and decoding resumes at that entry.
//!
//! The 2023 writer's uAST header carries a byte count; its node encoding was not
//! verified, so its entries are shown as one run.

use super::context::Shared;
use super::layout::Layout;
use super::prim::{magic, note, ustring, vint, vuint, LongStrings, UAST_MAGIC};
use super::skim::{self, AstIndex, MAX_DEPTH};
use super::tags::{self, TagKind};
use crate::builder::{Builder, DResult, Stop};
use crate::tree::Name;
use std::sync::Arc;

/// Chapel's reader rejects this many uAST entries (`MAX_NUM_ASTS`).
const MAX_NUM_ASTS: u64 = 100_000_000;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Flow {
    /// The entry and its children were decoded; the cursor is after them.
    Done,
    /// Parsing lost its footing; the cursor is at the next provable entry start.
    Lost,
}

/// What decoding entries needs: the long strings, the module (where the symbol
/// table points: an undecoded run ends at the next entry it points at, found
/// only when a run needs it), the section's end, and the skim of the section
/// (where each entry is, for pages of long lists).
#[derive(Clone)]
struct Cx {
    strings: Arc<LongStrings>,
    sh: Arc<Shared>,
    ix: Arc<AstIndex>,
    end: u64,
    /// Decoding for a viewer (pages, no first pass for exact totals): the
    /// section is not skimmed whole; the children of an entry no skim covers
    /// yet are skimmed when the entry is decoded ([`children`]).
    on_demand: bool,
    /// The entry being decoded is the first top-level one (the module): its
    /// children run to the section's end, so those past a budget can wait in
    /// a page of their own whose bytes are the rest of the section.
    tail: bool,
}

/// Entries skimmed before the module's first children are shown, when decoding
/// on demand, in pages' worth (32,000 entries with pages of 1,000): the rest
/// wait in a page read when opened, which reads twice as many before leaving
/// the rest to a page of its own, and so on.
const FIRST_SKIM_PAGES: usize = 32;

/// The page size when lists are paged.
fn paging(b: &Builder) -> Option<usize> {
    b.page_size()
        .filter(|_| b.lazy_threshold().is_some())
        .map(|p| p as usize)
}

/// Decodes the section (cursor at its start, region bounded by its end).
pub fn decode(b: &mut Builder, sh: &Arc<Shared>) -> DResult<()> {
    let old = sh.layout == Layout::Writer2023;
    let mut declared = 0u64;
    let mut byte_count = 0u64;
    let mut count_node = None;
    b.group("Header", |b| {
        magic(b, 8, UAST_MAGIC, "uAST section")?;
        if old {
            byte_count = b.u64("ByteCount")?;
        }
        let count = b.uint_field("EntryCount", 8)?;
        declared = count.value;
        count_node = Some(count.id);
        if declared > MAX_NUM_ASTS {
            b.error(format!(
                "{declared} entries: Chapel's reader rejects more than {MAX_NUM_ASTS}"
            ));
        }
        Ok(())
    })?;
    note(
        b,
        "TagNumbering",
        tags::TAG_SOURCE,
        "uAST tag bytes are named after this class list",
    )?;
    if old {
        let n = byte_count.min(b.remaining());
        if n != byte_count {
            b.error(format!(
                "{byte_count} bytes of entries, but only {} bytes follow the header",
                b.remaining()
            ));
        }
        b.bytes("Entries", n)?;
        b.display("uAST entries of the 2021-2023 writer: their node encoding was not verified, so they are not decoded");
        return Ok(());
    }

    // A viewer reads the entries as they are shown; a dump skims the section
    // first (the entry count is checked against it, and pages know where they
    // start).
    let on_demand = paging(b).is_some() && !b.exact_totals();
    let cx = Cx {
        strings: sh.long(b),
        sh: sh.clone(),
        ix: if on_demand { Arc::default() } else { sh.ast(b) },
        end: b.limit(),
        on_demand,
        tail: false,
    };
    let r = b.array("Entries", |b| top_level(b, &cx));
    let ix = &cx.ix;
    if on_demand {
        if let Some(id) = count_node {
            b.set_display(
                id,
                "entries are read as they are shown: a full decode counts them".to_string(),
            );
        }
    } else if r.is_ok() && ix.undecoded.is_empty() && ix.count != declared {
        if let Some(id) = count_node {
            b.set_error(
                id,
                format!(
                    "the header counts {declared} uAST entries, but the section holds {}",
                    ix.count
                ),
            );
        }
    } else if let Some(id) = count_node {
        b.set_display(id, format!("{} entries decoded", ix.count));
    }
    r
}

/// The top-level entries: the module's, and those where decoding resumed after
/// losing its footing. In pages when there are more than a page holds.
fn top_level(b: &mut Builder, cx: &Cx) -> DResult<()> {
    if cx.on_demand {
        // No skim says where the entries are: one after another, each saying
        // what it is from how the ones before it ended.
        let (mut k, mut prev, mut any) = (0usize, false, false);
        while b.pos() < cx.end {
            let c = Cx {
                tail: k == 0,
                ..cx.clone()
            };
            let lost = root(b, &c, k, Some((prev, any)))? == Flow::Lost;
            prev = lost;
            any |= lost;
            k += 1;
        }
        return Ok(());
    }
    let roots = &cx.ix.roots;
    let n = roots.len();
    let mut k = 0usize;
    if let Some(p) = paging(b).filter(|&p| n > p) {
        while k < n {
            let last = (k + p).min(n) - 1;
            let (s, e) = (
                cx.ix.e[roots[k] as usize].start,
                cx.ix.e[roots[last] as usize].end,
            );
            let c = cx.clone();
            let first = k;
            b.page(
                first as u64,
                last as u64,
                s,
                e.saturating_sub(s),
                move |b| {
                    for k in first..=last {
                        b.seek(c.ix.e[c.ix.roots[k] as usize].start);
                        root(b, &c, k, None)?;
                    }
                    Ok(())
                },
            )?;
            k = last + 1;
        }
    }
    while b.pos() < cx.end {
        root(b, cx, k, None)?;
        k += 1;
    }
    Ok(())
}

/// Top-level entry `k`: decoded, then said what it is. `lost`: whether parsing
/// lost its footing in the entry before it and in any entry before it (`None`:
/// the section's skim says).
fn root(b: &mut Builder, cx: &Cx, k: usize, lost: Option<(bool, bool)>) -> DResult<Flow> {
    let ix = &cx.ix;
    let pos = match ix.roots.get(k) {
        _ if cx.on_demand => None,
        Some(&p) => Some(p),
        None if k == 0 => (!ix.e.is_empty()).then_some(0),
        None => ix
            .roots
            .last()
            .map(|&p| ix.e[p as usize].skip)
            .filter(|&p| (p as usize) < ix.e.len()),
    };
    let (flow, id, what, tag) = entry(b, cx, 0, Name::Index(k.min(u32::MAX as usize) as u32), pos)?;
    if k == 0 && tag != u64::from(tags::tag_of("Module")) {
        b.set_error(
            id,
            format!("the first uAST entry should be the module, but it is a {what}"),
        );
    }
    let was_lost = |j: usize| ix.roots.get(j).is_some_and(|&p| ix.e[p as usize].lost());
    let (prev, any) = lost.unwrap_or_else(|| (k > 0 && was_lost(k - 1), (0..k).any(was_lost)));
    let note = if k == 0 {
        "the module's uAST"
    } else if prev {
        "decoding resumed here: the symbol table points at this entry (its place in the tree is not known)"
    } else if any {
        "the entry after the previous one (its place in the tree is not known)"
    } else {
        "another top-level entry"
    };
    b.set_display(id, format!("{what}; {note}"));
    Ok(flow)
}

/// `Function "area"`: the tag's name and the entry's label.
fn describe(tag: u64, label: &Option<String>) -> String {
    let name = tags::ast_tag(tag).map_or("?", |t| t.0);
    match label {
        Some(l) => format!("{name} \"{l}\""),
        None => name.to_string(),
    }
}

/// Decodes one entry and, recursively, its children (`pos`: the entry in the
/// skim). Returns how it ended, its node, what it is and its tag.
fn entry(
    b: &mut Builder,
    cx: &Cx,
    depth: u32,
    name: Name,
    pos: Option<u32>,
) -> DResult<(Flow, crate::tree::NodeId, String, u64)> {
    let mut flow = Flow::Done;
    let mut tag = 0u64;
    let mut label = None;
    let mut entry_id = None;
    let r = b.group(name, |b| {
        entry_id = Some(b.current());
        tag = b.u8("Tag")? as u64;
        b.display(tags::describe_tag(tag));
        let kind = match tags::ast_tag(tag) {
            Some((_, k)) if k != TagKind::Marker => k,
            _ => {
                b.error(format!(
                    "{} is not the tag of a serialized uAST node ({})",
                    tag,
                    tags::describe_tag(tag)
                ));
                undecoded(b, cx, "the entry after an invalid tag")?;
                flow = Flow::Lost;
                return Ok(());
            }
        };
        let name = tags::ast_tag(tag).map_or("?", |t| t.0);
        let attr = vint(b, "AttributeGroupChildNum")?;
        if attr == -1 {
            append(b, "NO_CHILD");
        }
        match fields(b, cx, name)? {
            Fields::Decoded(l) => label = l,
            Fields::Unknown => {
                undecoded(
                    b,
                    cx,
                    &format!(
                        "the fields of {name} (tag {tag}), whose layout hexlens does not know,"
                    ),
                )?;
                flow = Flow::Lost;
                return Ok(());
            }
            Fields::Lost => {
                undecoded(b, cx, &format!("the rest of this {name}"))?;
                flow = Flow::Lost;
                return Ok(());
            }
        }
        let n = vuint(b, "ChildCount")?;
        if kind == TagKind::Leaf && n > 0 {
            b.error(format!(
                "{name} is a leaf class, but {n} children are stored"
            ));
        }
        if n > 0 && depth >= MAX_DEPTH {
            b.error(format!(
                "entries nest deeper than {MAX_DEPTH} levels: the children are not decoded"
            ));
            undecoded(b, cx, "the children of an entry nested too deep")?;
            flow = Flow::Lost;
            return Ok(());
        }
        if n == 0 {
            return Ok(());
        }
        b.array("Children", |b| {
            flow = children(b, cx, depth, n, pos)?;
            Ok(())
        })
    });
    // The entry's node, even when decoding stopped inside it: it shows what the
    // entry is. Without one, the group could not be made and `r` is that stop.
    let Some(id) = entry_id else {
        return Err(Stop);
    };
    let what = describe(tag, &label);
    if tags::ast_tag(tag).is_some() {
        b.set_display(id, what.clone());
        // An entry that names something is matched by its `Name` field; the
        // others by what they are.
        let t = b.tree();
        let named = t
            .children(id)
            .iter()
            .any(|&c| t.name(c).is("Name") && t.value_ref(c).is_some());
        if !named {
            b.set_key(id, what.clone());
        }
    }
    r.map(|_| (flow, id, what, tag))
}

/// The `n` children of the entry at `pos` in the skim: in pages of the children
/// the skim found decodable when there are more than a page holds. Decoding on
/// demand, an entry no skim covers has its children skimmed now: all of them,
/// or for the module's a budget's worth, the rest waiting in a page of their
/// own ([`FIRST_SKIM_PAGES`]).
fn children(b: &mut Builder, cx: &Cx, depth: u32, n: u64, pos: Option<u32>) -> DResult<Flow> {
    if cx.on_demand && pos.is_none() {
        let budget = (depth == 0 && cx.tail)
            .then(|| paging(b).map(|p| p.saturating_mul(FIRST_SKIM_PAGES)))
            .flatten();
        let c = skim_here(b, cx, n, budget);
        let kids = c.ix.roots.clone();
        return list(b, &c, depth, 0, n, &kids, budget.map(|x| x * 2));
    }
    let ix = &cx.ix;
    let kids = pos
        .filter(|&p| (p as usize) < ix.e.len())
        .map(|p| ix.children(p))
        .unwrap_or_default();
    list(b, cx, depth, 0, n, &kids, None)
}

/// `cx` with the skim of up to `max` entries from the cursor (see
/// [`skim::siblings`]), read from the file a growing piece at a time.
fn skim_here(b: &Builder, cx: &Cx, max: u64, budget: Option<usize>) -> Cx {
    let at = b.pos();
    let page = paging(b).unwrap_or(usize::MAX);
    let reach = skim::Reach { max, budget, page };
    // Entries take 8 to 16 bytes in a typical module.
    let mut want = budget.map_or(1 << 20, |x| x as u64 * 16).max(1 << 12);
    loop {
        let end = at.saturating_add(want).min(cx.end);
        let d = skim::bytes_of(b, at, end);
        let syms = || cx.sh.syms(b);
        let ix = skim::siblings(reach, &d, at, cx.end, b.endian(), &cx.strings, &syms);
        if !ix.cut || end >= cx.end {
            return Cx {
                ix: Arc::new(ix),
                ..cx.clone()
            };
        }
        want = want.saturating_mul(4);
    }
}

/// Children `first..n` of an entry at `depth`, the skim's entries `kids` being
/// the first of them. With `more` (a skim budget), children past `kids` wait in
/// a page reaching to the section's end, which skims that many when opened.
fn list(
    b: &mut Builder,
    cx: &Cx,
    depth: u32,
    first: u64,
    n: u64,
    kids: &[u32],
    more: Option<usize>,
) -> DResult<Flow> {
    let ix = &cx.ix;
    let kid = |j: u64| kids.get((j - first) as usize).copied();
    let okn = kids.iter().take_while(|&&c| ix.e[c as usize].ok()).count();
    let clean =
        !ix.cut && okn == kids.len() && !kids.last().is_some_and(|&c| ix.e[c as usize].lost());
    let rest = first + kids.len() as u64;
    let more = more.filter(|_| clean && rest < n && paging(b).is_some());
    let mut i = 0usize;
    if let Some(p) = paging(b).filter(|&p| (kids.len() > p || more.is_some()) && rest <= n) {
        while i < okn {
            let last = (i + p).min(okn) - 1;
            let (s, e) = (ix.e[kids[i] as usize].start, ix.e[kids[last] as usize].end);
            let (c, k0, at) = (cx.clone(), i, kids[i]);
            b.page(
                first + i as u64,
                first + last as u64,
                s,
                e.saturating_sub(s),
                move |b| {
                    let mut at = at;
                    for k in k0..=last {
                        let name = Name::Index((first + k as u64).min(u32::MAX as u64) as u32);
                        let (f, ..) = entry(b, &c, depth + 1, name, Some(at))?;
                        if f == Flow::Lost {
                            break;
                        }
                        at = c.ix.e[at as usize].skip;
                    }
                    Ok(())
                },
            )?;
            i = last + 1;
        }
        if okn > 0 && ix.e[kids[okn - 1] as usize].lost() {
            return Ok(Flow::Lost);
        }
        if okn < kids.len() {
            b.seek(ix.e[kids[okn] as usize].start);
        }
    }
    if let Some(budget) = more {
        let start = b.pos();
        let c = Cx {
            ix: Arc::default(),
            ..cx.clone()
        };
        b.page(rest, n - 1, start, cx.end.saturating_sub(start), move |b| {
            later(b, &c, depth, rest, n, budget)
        })?;
        if let Some(id) = b.last().filter(|&id| b.tree().is_lazy(id)) {
            b.set_display(
                id,
                format!(
                    "entries {rest} to {}, not read yet: opening reads them (they end by the section's end, 0x{:X})",
                    n - 1,
                    cx.end
                ),
            );
        }
        return Ok(Flow::Done);
    }
    for j in first + i as u64..n {
        let name = Name::Index(j.min(u32::MAX as u64) as u32);
        let (f, ..) = entry(b, cx, depth + 1, name, kid(j))?;
        if f == Flow::Lost {
            return Ok(Flow::Lost);
        }
    }
    Ok(Flow::Done)
}

/// The module's children `first..n`, read when their page is opened: `budget`
/// entries' worth in pages, the rest in a page of their own. Bytes left after
/// the last child (a damaged section, where a full decode finds more top-level
/// entries) are shown as such.
fn later(b: &mut Builder, cx: &Cx, depth: u32, first: u64, n: u64, budget: usize) -> DResult<()> {
    let c = skim_here(b, cx, n - first, Some(budget));
    let kids = c.ix.roots.clone();
    let flow = list(
        b,
        &c,
        depth,
        first,
        n,
        &kids,
        Some(budget.saturating_mul(2)),
    )?;
    let at = b.pos();
    if at < cx.end {
        b.bytes("Rest", cx.end - at)?;
        let why = match flow {
            Flow::Lost => "decoding lost its footing in the module's children",
            Flow::Done => "the module's last child ends here",
        };
        b.display(format!(
            "{why}: the bytes to the section's end are not read here (a full decode, `hexlens dump`, reads them as further top-level entries)"
        ));
        if flow == Flow::Done {
            b.error("the module's entries end before the uAST section does");
        }
    }
    Ok(())
}

/// Appends `extra` to the last node's display.
fn append(b: &mut Builder, extra: &str) {
    if let Some(id) = b.last() {
        let d = b.tree().display(id).clone().unwrap_or_default();
        b.set_display(id, format!("{d}; {extra}"));
    }
}

/// Claims the bytes from the cursor to the next entry the symbol table points at
/// (or to the section end) as one undecoded run.
fn undecoded(b: &mut Builder, cx: &Cx, what: &str) -> DResult<()> {
    let at = b.pos();
    let syms = cx.sh.syms(b);
    let next = syms.anchors.first_from(at).filter(|&a| a < cx.end);
    let bound = next.unwrap_or(cx.end).max(at);
    if bound > at {
        b.bytes("Undecoded", bound - at)?;
        b.display(match next {
            Some(a) => format!(
                "{what} its children and possibly later entries: not decoded; they run at most to 0x{a:X}, where the symbol table says an entry begins"
            ),
            None => format!(
                "{what} its children and possibly later entries: not decoded; they run at most to the end of the section (0x{:X})",
                cx.end
            ),
        });
    }
    Ok(())
}

enum Fields {
    /// Decoded; the entry's label (name, operator, value) if it has one.
    Decoded(Option<String>),
    /// The tag's fields are not known to hexlens.
    Unknown,
    /// The fields contradict themselves (e.g. a literal whose value has the wrong
    /// kind): what follows cannot be trusted.
    Lost,
}

fn fields(b: &mut Builder, cx: &Cx, tag: &str) -> DResult<Fields> {
    let s: &LongStrings = &cx.strings;
    let label = match tag {
        "Identifier" => Some(ustring(b, "Name", s)?),
        "Dot" => Some(ustring(b, "FieldName", s)?),
        "Block" | "On" => {
            simple_block_like(b)?;
            None
        }
        "Module" => {
            let n = named_decl(b, s)?;
            b.uint_enum("Kind", 1, tags::module_kind)?;
            Some(n)
        }
        "Function" => Some(function(b, s)?),
        "Variable" => {
            let n = var_like_decl(b, s)?;
            b.bool_int("IsConfig", 1)?;
            b.bool_int("IsField", 1)?;
            Some(n)
        }
        "Formal" => Some(var_like_decl(b, s)?),
        "Record" | "Class" => {
            let n = named_decl(b, s)?;
            child_num(b, "InheritExprChildNum")?;
            vint(b, "NumInheritExprs")?;
            child_num(b, "ElementsChildNum")?;
            vint(b, "NumElements")?;
            Some(n)
        }
        "Enum" | "EnumElement" => Some(named_decl(b, s)?),
        "Return" => {
            let v = b.int("ValueChildNum", 1)?;
            if v < 0 {
                b.display("NO_CHILD: no value");
            }
            None
        }
        "FnCall" => {
            b.bool_int("HasCalledExpression", 1)?;
            let n = vuint(b, "ActualNameCount")?;
            if n > 0 {
                b.array("ActualNames", |b| {
                    for i in 0..n {
                        ustring(b, Name::Index(i.min(u32::MAX as u64) as u32), s)?;
                    }
                    Ok(())
                })?;
            }
            b.bool_int("CallUsedSquareBrackets", 1)?;
            None
        }
        "OpCall" => {
            b.bool_int("HasCalledExpression", 1)?;
            Some(ustring(b, "Op", s)?)
        }
        "BoolLiteral" | "IntLiteral" | "StringLiteral" | "BytesLiteral" => {
            return literal(b, s, tag);
        }
        _ => return Ok(Fields::Unknown),
    };
    Ok(Fields::Decoded(label))
}

/// A signed child number; -1 is `NO_CHILD`.
fn child_num(b: &mut Builder, name: &'static str) -> DResult<i64> {
    let v = vint(b, name)?;
    if v == -1 {
        append(b, "NO_CHILD");
    }
    Ok(v)
}

/// `Decl::declSerializeInner`: visibility, linkage, linkage-name and destination
/// child numbers.
fn decl(b: &mut Builder) -> DResult<()> {
    b.uint_enum("Visibility", 1, tags::visibility)?;
    b.uint_enum("Linkage", 1, tags::linkage)?;
    child_num(b, "LinkageNameChildNum")?;
    child_num(b, "DestinationChildNum")?;
    Ok(())
}

/// `NamedDecl`: a `Decl` and the name.
fn named_decl(b: &mut Builder, s: &LongStrings) -> DResult<String> {
    decl(b)?;
    ustring(b, "Name", s)
}

/// `VarLikeDecl`: a `NamedDecl`, the storage kind and two `int8_t` child numbers.
fn var_like_decl(b: &mut Builder, s: &LongStrings) -> DResult<String> {
    let n = named_decl(b, s)?;
    b.uint_enum("StorageKind", 1, tags::qualifier)?;
    for f in ["TypeExpressionChildNum", "InitExpressionChildNum"] {
        let v = b.int(f, 1)?;
        if v < 0 {
            b.display("NO_CHILD");
        }
    }
    Ok(n)
}

/// `Function::serializeInner`.
fn function(b: &mut Builder, s: &LongStrings) -> DResult<String> {
    let n = named_decl(b, s)?;
    b.bool_int("Inline", 1)?;
    b.bool_int("Override", 1)?;
    b.uint_enum("Kind", 1, tags::function_kind)?;
    b.uint_enum("ReturnIntent", 1, tags::qualifier)?;
    b.bool_int("Throws", 1)?;
    b.bool_int("PrimaryMethod", 1)?;
    b.bool_int("Parenless", 1)?;
    for f in [
        "FormalsChildNum",
        "ThisFormalChildNum",
        "NumFormals",
        "ReturnTypeChildNum",
        "WhereChildNum",
        "LifetimeChildNum",
        "NumLifetimeParts",
        "BodyChildNum",
    ] {
        if f.starts_with("Num") {
            vint(b, f)?;
        } else {
            child_num(b, f)?;
        }
    }
    Ok(n)
}

/// `SimpleBlockLike`: block style and two child numbers.
fn simple_block_like(b: &mut Builder) -> DResult<()> {
    b.uint_enum("BlockStyle", 1, tags::block_style)?;
    child_num(b, "BodyChildNum")?;
    vint(b, "NumBodyStmts")?;
    Ok(())
}

/// `Literal`: the value as a `types::Param` (its tag, then the value), then the
/// numeric literal's source text or the string literal's quote style.
///
/// The width of the `ParamTag` was not found in the sources read; it is read as one
/// byte (the width of every other uAST enum) and only trusted when it names the
/// `Param` class the literal's tag requires.
fn literal(b: &mut Builder, s: &LongStrings, tag: &str) -> DResult<Fields> {
    let want = match tag {
        "BoolLiteral" => 0,
        "IntLiteral" => 3,
        _ => 6,
    };
    let mut label = None;
    let mut lost = false;
    b.group("Value", |b| {
        let pt = b.u8("ParamTag")? as u64;
        let pname = tags::param_tag(pt).unwrap_or("unknown");
        if pt != want {
            b.display(format!("{pt}: {pname}"));
            b.error(format!(
                "a {tag} holds a {}, but this ParamTag is {pt} ({pname}); the entry cannot be read further",
                tags::param_tag(want).unwrap_or("?")
            ));
            lost = true;
            return Ok(());
        }
        b.display(format!(
            "{pname} (read as 1 byte, the width of the other uAST enums; it matches the literal's class)"
        ));
        label = Some(match want {
            0 => b.bool_int("Bool", 1)?.to_string(),
            3 => b.int("Int64", 8)?.to_string(),
            _ => ustring(b, "String", s)?,
        });
        Ok(())
    })?;
    if lost {
        return Ok(Fields::Lost);
    }
    match tag {
        "IntLiteral" => {
            let text = ustring(b, "Text", s)?;
            label = Some(text);
        }
        "StringLiteral" | "BytesLiteral" => {
            b.uint_enum("QuoteStyle", 1, tags::quote_style)?;
        }
        _ => {}
    }
    Ok(Fields::Decoded(label))
}
