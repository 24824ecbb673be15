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

use super::layout::Layout;
use super::module::Ctx;
use super::prim::{ustring, vint, vuint, LongStrings};
use super::tags::{self, TagKind};
use super::{magic, UAST_MAGIC};
use crate::builder::{Builder, DResult};
use crate::tree::{Name, NodeId};
use std::collections::{BTreeMap, BTreeSet};

/// Chapel's reader rejects this many uAST entries (`MAX_NUM_ASTS`).
const MAX_NUM_ASTS: u64 = 100_000_000;
/// Entries nested deeper than this are not decoded (bounded recursion).
const MAX_DEPTH: u32 = 128;

/// One decoded uAST entry.
#[derive(Clone, Debug, Default)]
pub struct AstEntry {
    pub id: NodeId,
    pub tag: u64,
    /// Name, operator or value, if the tag has one.
    pub label: Option<String>,
    /// Absolute starts of the children (complete only if `complete`).
    pub children: Vec<u64>,
    pub end: u64,
    /// True if the entry and all its descendants were decoded.
    pub complete: bool,
}

impl AstEntry {
    /// "Function \"area\"" style description.
    pub fn describe(&self) -> String {
        let name = tags::ast_tag(self.tag).map_or("?", |t| t.0);
        match &self.label {
            Some(l) => format!("{name} \"{l}\""),
            None => name.to_string(),
        }
    }
}

/// What the uAST section yielded, for the cross-checks.
#[derive(Default, Debug)]
pub struct AstIndex {
    /// Entries by absolute start.
    pub entries: BTreeMap<u64, AstEntry>,
    /// Absolute starts of the top-level entries.
    pub roots: Vec<u64>,
    /// Byte runs left undecoded.
    pub undecoded: Vec<(u64, u64)>,
    /// Where decoding stopped (everything before it is decoded or undecoded runs).
    pub reached: u64,
    /// Where the entries began.
    pub begin: u64,
}

impl AstIndex {
    /// True if offset `t` lies in bytes that were decoded as entries (so an entry
    /// starting there would have been found).
    pub fn checked(&self, t: u64) -> bool {
        t >= self.begin && t < self.reached && !self.undecoded.iter().any(|&(a, z)| t >= a && t < z)
    }

    /// The entries of the subtree at `root` in pre-order, leaving out the subtrees
    /// of `skip` (other than `root` itself); `None` unless every entry involved was
    /// completely decoded.
    pub fn preorder(&self, root: u64, skip: &BTreeSet<u64>) -> Option<Vec<u64>> {
        let mut out = Vec::new();
        let mut stack = vec![root];
        while let Some(at) = stack.pop() {
            let e = self.entries.get(&at)?;
            if !e.complete {
                return None;
            }
            out.push(at);
            for &c in e.children.iter().rev() {
                if !skip.contains(&c) {
                    stack.push(c);
                }
            }
        }
        Some(out)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Flow {
    /// The entry and its children were decoded; the cursor is after them.
    Done,
    /// Parsing lost its footing; the cursor is at the next provable entry start.
    Lost,
}

struct Cx<'a> {
    strings: &'a LongStrings,
    anchors: &'a BTreeSet<u64>,
    end: u64,
    index: AstIndex,
    count: u64,
}

/// Decodes the section (cursor at its start, region bounded by its end).
pub fn decode(b: &mut Builder, ctx: &mut Ctx) -> DResult<()> {
    let old = ctx.layout == Layout::Writer2023;
    let mut declared = 0u64;
    let mut byte_count = 0u64;
    let mut count_node = None;
    b.group("Header", |b| {
        magic(b, 8, UAST_MAGIC, "uAST section")?;
        if old {
            byte_count = b.u64("ByteCount")?;
        }
        declared = b.u64("EntryCount")?;
        count_node = b.last();
        if declared > MAX_NUM_ASTS {
            b.error(format!(
                "{declared} entries: Chapel's reader rejects more than {MAX_NUM_ASTS}"
            ));
        }
        Ok(())
    })?;
    super::note(
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

    let mut cx = Cx {
        strings: &ctx.long,
        anchors: &ctx.anchors,
        end: b.limit(),
        index: AstIndex {
            begin: b.pos(),
            ..Default::default()
        },
        count: 0,
    };
    let r = b.array("Entries", |b| {
        let mut k = 0u64;
        let mut resync = false;
        let mut lost_before = false;
        while b.pos() < cx.end {
            let start = b.pos();
            let (flow, _) = entry(b, &mut cx, 0, Name::Index(k.min(u32::MAX as u64) as u32))?;
            cx.index.roots.push(start);
            if let Some(e) = cx.index.entries.get(&start) {
                let id = e.id;
                let what = e.describe();
                if k == 0 && e.tag != u64::from(tags::tag_of("Module")) {
                    b.set_error(
                        id,
                        format!("the first uAST entry should be the module, but it is a {what}"),
                    );
                }
                let note = if k == 0 {
                    "the module's uAST"
                } else if resync {
                    "decoding resumed here: the symbol table points at this entry (its place in the tree is not known)"
                } else if lost_before {
                    "the entry after the previous one (its place in the tree is not known)"
                } else {
                    "another top-level entry"
                };
                b.set_display(id, format!("{what}; {note}"));
            }
            resync = flow == Flow::Lost;
            lost_before |= resync;
            k += 1;
        }
        Ok(())
    });
    cx.index.reached = cx
        .index
        .entries
        .values()
        .map(|e| e.end)
        .max()
        .unwrap_or(cx.index.begin)
        .max(cx.index.undecoded.iter().map(|u| u.1).max().unwrap_or(0));
    if r.is_ok() && cx.index.undecoded.is_empty() && cx.count != declared {
        if let Some(id) = count_node {
            b.set_error(
                id,
                format!(
                    "the header counts {declared} uAST entries, but the section holds {}",
                    cx.count
                ),
            );
        }
    } else if let Some(id) = count_node {
        b.set_display(id, format!("{} entries decoded", cx.count));
    }
    ctx.ast = cx.index;
    r
}

/// Decodes one entry and, recursively, its children.
fn entry(b: &mut Builder, cx: &mut Cx, depth: u32, name: Name) -> DResult<(Flow, u64)> {
    let start = b.pos();
    let mut flow = Flow::Done;
    let mut info = AstEntry::default();
    let r = b.group(name, |b| {
        let tag = b.u8("Tag")? as u64;
        info.tag = tag;
        cx.count += 1;
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
            Fields::Decoded(label) => info.label = label,
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
        let mut all = true;
        if n == 0 {
            info.complete = flow == Flow::Done;
            return Ok(());
        }
        b.array("Children", |b| {
            for i in 0..n {
                let (f, c) = entry(b, cx, depth + 1, Name::Index(i.min(u32::MAX as u64) as u32))?;
                info.children.push(c);
                all &= cx.index.entries.get(&c).is_some_and(|e| e.complete);
                if f == Flow::Lost {
                    flow = Flow::Lost;
                    break;
                }
            }
            Ok(())
        })?;
        info.complete = all && flow == Flow::Done;
        Ok(())
    });
    let id = b.last().expect("entry node");
    info.id = id;
    info.end = b.pos();
    if tags::ast_tag(info.tag).is_some() {
        b.set_display(id, info.describe());
    }
    if r.is_ok() {
        cx.index.entries.insert(start, info);
    }
    r.map(|_| (flow, start))
}

/// Appends `extra` to the last node's display.
fn append(b: &mut Builder, extra: &str) {
    if let Some(id) = b.last() {
        let d = b.tree().node(id).display.clone().unwrap_or_default();
        b.set_display(id, format!("{d}; {extra}"));
    }
}

/// Claims the bytes from the cursor to the next entry the symbol table points at
/// (or to the section end) as one undecoded run.
fn undecoded(b: &mut Builder, cx: &mut Cx, what: &str) -> DResult<()> {
    let at = b.pos();
    let next = cx
        .anchors
        .range(at..)
        .next()
        .copied()
        .filter(|&a| a < cx.end);
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
    cx.index.undecoded.push((at, bound));
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

fn fields(b: &mut Builder, cx: &mut Cx, tag: &str) -> DResult<Fields> {
    let s = cx.strings;
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
