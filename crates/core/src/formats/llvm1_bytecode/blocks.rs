//! Blocks (spec "Blocks", "Block Types"; `specs/notes/llvm1-layout.md` §3): an
//! identifier and a size, then `size` bytes of content.
//!
//! Revisions 0–2 write long headers (`u32` identifier, `u32` size, identifiers
//! 0x01…0x33); revision 3 and later one `u32` holding the identifier in its low 5
//! bits and the size in its high 27 (identifiers 1…8). Revisions 0–3 pad to a
//! 32-bit boundary (counted from the start of the module stream) after each block.
//!
//! Each block is a list element `[i]` decoded inside its own region, holding
//! `BlockId`, `Size`, the content (a region named after the block type, so a wrong
//! size stays contained) and its alignment `Padding`. Function blocks hold further
//! blocks; nesting deeper than [`MAX_DEPTH`] is shown raw with an error.

use super::context::{layout, BlockKind, Ctx, Firsts, Parent, MAX_DEPTH};
use super::skim::{self, Win};
use super::tables;
use super::vbr;
use crate::builder::{Builder, DResult};
use crate::tree::{Kind, Name, NodeId};

/// Reads the blocks filling `[cursor, end)` as the list `Blocks`. `depth` is the
/// nesting level of these blocks (module-level blocks are level 1). `clean`: the
/// list is known to decode without an error.
///
/// A skim of the headers finds where each block starts, so a long list comes in
/// pages that decode on demand; with exact totals a page is left lazy only if a
/// skim of its blocks (contents included) finds no error.
pub(crate) fn blocks(
    b: &mut Builder,
    ctx: &Ctx,
    end: u64,
    depth: u32,
    parent: Parent,
    clean: bool,
) -> DResult<()> {
    let ctx = *ctx;
    b.array("Blocks", |b| {
        let exact = b.exact_totals();
        let per = b.page_size().map_or(u64::MAX, u64::from);
        let mut w = Win::new(b.source());
        // (index, offset) of each page's first block, and where the list ends.
        let mut marks: Vec<(u32, u64)> = Vec::new();
        let mut firsts = Firsts::default();
        let mut pos = b.pos();
        let mut n = 0u32;
        // Every block claims at least one byte, so this ends.
        while pos < end {
            if u64::from(n).is_multiple_of(per) {
                marks.push((n, pos));
            }
            let l = layout(&ctx, pos, end, &mut |o| w.u32(o));
            firsts.note(parent, l.kind, n);
            pos += l.item_len;
            n = n.saturating_add(1);
        }
        // Only a list longer than a page is paged.
        let paged = marks.len() > 1;
        for (k, &(first, from)) in marks.iter().enumerate() {
            let (last, to) = match marks.get(k + 1) {
                Some(&(f, o)) => (f - 1, o),
                None => (n - 1, pos),
            };
            let page_clean = clean
                || (paged
                    && exact
                    && page_is_clean(&mut w, &ctx, from, to, end, depth, parent, first, firsts));
            if paged && (!exact || page_clean) {
                b.page_vouched(
                    exact,
                    first.into(),
                    last.into(),
                    from,
                    to - from,
                    move |b| {
                        for i in first..=last {
                            block(b, &ctx, i, end, depth, parent, firsts, page_clean);
                        }
                        Ok(())
                    },
                )?;
            } else {
                b.seek(from);
                for i in first..=last {
                    block(b, &ctx, i, end, depth, parent, firsts, clean);
                }
            }
        }
        Ok(())
    })
}

/// True if the blocks `first…` in `[from, to)` of a list ending at `end` decode
/// without an error (`firsts`: the list's first module-level blocks).
#[allow(clippy::too_many_arguments)]
fn page_is_clean(
    w: &mut Win,
    ctx: &Ctx,
    from: u64,
    to: u64,
    end: u64,
    depth: u32,
    parent: Parent,
    first: u32,
    mut firsts: Firsts,
) -> bool {
    let mut pos = from;
    let mut i = first;
    while pos < to {
        let l = layout(ctx, pos, end, &mut |o| w.u32(o));
        if firsts.note(parent, l.kind, i).is_some() || !skim::block_clean(w, ctx, &l, depth, parent)
        {
            return false;
        }
        pos += l.item_len;
        i = i.saturating_add(1);
    }
    true
}

/// Block `i` at the cursor, ending no later than `end`. `clean`: it is known to
/// decode without an error.
#[allow(clippy::too_many_arguments)]
fn block(
    b: &mut Builder,
    ctx: &Ctx,
    i: u32,
    end: u64,
    depth: u32,
    parent: Parent,
    firsts: Firsts,
    clean: bool,
) {
    let start = b.pos();
    // Size the element from a peek at its header; the header's own nodes are read
    // inside the region (and report a truncated header there).
    let l = layout(ctx, start, end, &mut |o| b.peek_uint(o, 4));
    let (content_start, content_len, overrun) = (l.content_start, l.content_len, l.overrun);
    let (pad, pad_room, size_v) = (l.pad, l.pad_room, l.size);
    b.region(Name::Index(i), Kind::Struct, start, l.item_len, |b| {
        let item = b.current();
        let (kind, size_id) = header(b, ctx)?;
        let size = size_v;
        if overrun {
            b.set_error(
                size_id,
                format!(
                    "the block claims {size} bytes of content from 0x{content_start:X} (to 0x{:X}), but {} ends at 0x{end:X}",
                    content_start.saturating_add(size),
                    parent.what()
                ),
            );
        }
        let mut desc = format!("{}, {size} bytes", kind.name());
        if kind != BlockKind::Unknown && !parent.expects(kind) {
            desc.push_str(&format!(
                "; not expected in {}: LLVM's reader skips it",
                parent.what()
            ));
        }
        let mut repeat = firsts;
        if let Some(first) = repeat.note(parent, kind, i) {
            if let Some(id_node) = b.children(item).first().copied() {
                b.set_error(
                    id_node,
                    format!(
                        "expected one {} block in the module, found a second one (the first is [{first}]); LLVM's reader rejects this",
                        kind.name()
                    ),
                );
            }
        }
        b.set_display(item, desc);
        b.set_key(item, kind.name());
        if content_len > 0 {
            content_region(b, ctx, kind, parent, content_start, content_len, depth, clean);
        }
        padding(b, pad, pad_room, content_start + content_len, end)
    });
}

/// A block's content `[start, start + len)`: decoded on demand, unless exact
/// totals need it now (a skim finds an error in it) or its decode would set an
/// error on the region itself (a function nested too deep).
#[allow(clippy::too_many_arguments)]
fn content_region(
    b: &mut Builder,
    ctx: &Ctx,
    kind: BlockKind,
    parent: Parent,
    start: u64,
    len: u64,
    depth: u32,
    clean: bool,
) {
    let exact = b.exact_totals();
    let too_deep = ctx.layouts_known() && kind == BlockKind::Function && depth >= MAX_DEPTH;
    let clean = clean
        || (exact && !too_deep && {
            let mut w = Win::new(b.source());
            skim::content_clean(&mut w, ctx, kind, parent, start, len, depth)
        });
    if too_deep || (exact && !clean) {
        b.region(kind.name(), Kind::Struct, start, len, |b| {
            content(b, ctx, kind, parent, len, depth, false)
        });
        return;
    }
    let ctx = *ctx;
    b.lazy_region_vouched(
        exact,
        kind.name(),
        Kind::Struct,
        start,
        len,
        content_display(&ctx, kind, parent),
        move |b| content(b, &ctx, kind, parent, len, depth, clean),
    );
}

/// Reads a block header: `BlockId` and `Size` (two `u32`s, or 5 + 27 bits of one).
/// Returns the block type and the `Size` node.
fn header(b: &mut Builder, ctx: &Ctx) -> DResult<(BlockKind, NodeId)> {
    if ctx.long_headers() {
        let id = b.u32("BlockId")? as u64;
        let kind = BlockKind::from_long(id);
        if kind == BlockKind::Unknown {
            b.error(format!(
                "expected a block identifier (0x01, 0x11–0x16 or 0x31–0x33), found 0x{id:X}"
            ));
        } else {
            b.display(format!("{} (0x{id:02X})", kind.name()));
        }
        Ok((kind, b.uint_field("Size", 4)?.id))
    } else {
        let id = b.bits("BlockId", 5)?;
        let kind = BlockKind::from_short(id, ctx.rev);
        if kind == BlockKind::Unknown {
            b.display(format!(
                "unknown block identifier {id} (known: 1–8); LLVM's reader skips such blocks"
            ));
        } else {
            b.display(format!("{} ({id})", kind.name()));
        }
        Ok((kind, b.bits_field("Size", 27)?.id))
    }
}

/// What a block's content region shows (set by [`content`]; the label of a lazy
/// content). `None` where the decode shows nothing on the region, or sets an
/// error there.
fn content_display(ctx: &Ctx, kind: BlockKind, parent: Parent) -> Option<String> {
    if !ctx.layouts_known() {
        return Some(format!(
            "revision {}: neither the spec nor the LLVM 1.x readers describe this revision's block contents; shown raw",
            ctx.rev
        ));
    }
    Some(match kind {
        BlockKind::GlobalTypePlane | BlockKind::SymbolTable => return None,
        BlockKind::Function => "the spec says \"to be determined\"; read as LLVM 1.x's reader does: a linkage uint_vbr, then blocks".to_string(),
        BlockKind::ModuleGlobalInfo if ctx.rev == 0 => {
            "Module Info: the spec says \"to be determined\"; shown raw (revision 0 counts the block's trailing alignment in its size)".to_string()
        }
        BlockKind::ModuleGlobalInfo => {
            "Module Info: the spec says \"to be determined\"; shown raw".to_string()
        }
        BlockKind::ConstantPool => {
            "Constants: the spec says \"to be determined\"; shown raw".to_string()
        }
        BlockKind::BasicBlock | BlockKind::InstructionList | BlockKind::CompactionTable => {
            "the spec lists this block identifier but does not define its content; shown raw"
                .to_string()
        }
        BlockKind::Module => format!(
            "a Module block inside {}: LLVM's reader skips it; shown raw",
            parent.what()
        ),
        BlockKind::DependentLibs | BlockKind::TypeSymbolTable => {
            "Format.h names this block, but neither the spec nor the 1.x readers describe its content; shown raw"
                .to_string()
        }
        BlockKind::Unknown => "unknown block type; shown raw".to_string(),
    })
}

/// The content of one block (cursor at its start, region bounded by its size).
/// `clean`: it is known to decode without an error.
fn content(
    b: &mut Builder,
    ctx: &Ctx,
    kind: BlockKind,
    parent: Parent,
    len: u64,
    depth: u32,
    clean: bool,
) -> DResult<()> {
    let region = b.current();
    if !ctx.layouts_known() {
        if let Some(d) = content_display(ctx, kind, parent) {
            b.set_display(region, d);
        }
        return raw(b, len);
    }
    match kind {
        BlockKind::GlobalTypePlane => tables::global_type_pool(b, ctx),
        BlockKind::SymbolTable => tables::symbol_table(b, ctx, clean),
        BlockKind::Function => {
            if depth >= MAX_DEPTH {
                let at = b.pos();
                b.set_error(
                    region,
                    format!(
                        "expected at most {MAX_DEPTH} levels of nested blocks, found a function body at 0x{at:X} nested {depth} levels deep; its content is shown raw"
                    ),
                );
                return raw(b, len);
            }
            if let Some(d) = content_display(ctx, kind, parent) {
                b.set_display(region, d);
            }
            function(b, ctx, depth, clean)
        }
        other => {
            if let Some(d) = content_display(ctx, other, parent) {
                b.set_display(region, d);
            }
            raw(b, len)
        }
    }
}

/// A function block's content (LLVM 1.x's reader, `ParseFunctionBody`): the
/// linkage, then blocks.
fn function(b: &mut Builder, ctx: &Ctx, depth: u32, clean: bool) -> DResult<()> {
    let l = vbr::uint_vbr(b, "Linkage")?;
    match linkage_name(l) {
        Some(n) => b.display(n),
        None => b.error(format!(
            "expected a linkage of 0–4 (external, weak, appending, internal, linkonce), found {l}"
        )),
    }
    let end = b.limit();
    blocks(b, ctx, end, depth + 1, Parent::Function, clean)
}

/// Linkage numbers (LLVM 1.x's reader).
fn linkage_name(l: u64) -> Option<&'static str> {
    Some(match l {
        0 => "external",
        1 => "weak",
        2 => "appending",
        3 => "internal",
        4 => "linkonce",
        _ => return None,
    })
}

/// The rest of the region as one raw `Payload` run.
pub(crate) fn raw(b: &mut Builder, len: u64) -> DResult<()> {
    let n = len.min(b.remaining());
    if n > 0 {
        b.bytes("Payload", n)?;
    }
    Ok(())
}

/// Alignment padding of `pad` bytes at the cursor (`room` bytes are left before
/// `end`). Padding that does not fit is an error.
pub(crate) fn padding(b: &mut Builder, pad: u64, room: u64, at: u64, end: u64) -> DResult<()> {
    if pad == 0 {
        return Ok(());
    }
    let n = pad.min(room);
    let id = if n > 0 {
        Some(b.padding("Padding", n)?)
    } else {
        None
    };
    let bytes = b.peek_bytes(at, n);
    if let Some(id) = id {
        let mut d = String::from("alignment to a 32-bit boundary (revisions 0–3)");
        if bytes.iter().any(|&c| c != 0) {
            d.push_str(&format!(
                "; holds {} where zero bytes are written",
                crate::builder::hex_preview(&bytes)
            ));
        }
        b.set_display(id, d);
    }
    if pad > room {
        let target = id.unwrap_or_else(|| b.current());
        b.set_error(
            target,
            format!(
                "expected {pad} byte(s) of alignment padding at 0x{at:X} (to a 32-bit boundary), found only {room} before 0x{end:X}"
            ),
        );
    }
    Ok(())
}
