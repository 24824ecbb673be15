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

use super::tables;
use super::vbr;
use crate::builder::{Builder, DResult};
use crate::tree::{Kind, Name, NodeId};

/// Deepest block nesting decoded. Real files nest three levels (module, function,
/// function sub-block); deeper blocks are shown raw with an error, so a hostile
/// file cannot drive the recursion further, and the tree stays shallow enough for
/// JSON readers with a nesting limit (serde_json's is 128; each level adds three
/// tree levels, six JSON levels).
pub(crate) const MAX_DEPTH: u32 = 16;

/// What the format information word says about how the rest is laid out.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    /// The bytecode format revision (bits 4 and up of the format information).
    pub rev: u64,
    /// File offset where the module stream starts (the signature for `llvm` files,
    /// the byte after the compression byte for `llvc0`): alignment counts from here.
    pub base: u64,
}

impl Ctx {
    /// Revisions 0–2 (LLVM ≤ 1.2): two-`u32` block headers.
    pub fn long_headers(&self) -> bool {
        self.rev <= 2
    }
    /// Revisions 0–3 (LLVM ≤ 1.3): padding to 32-bit boundaries.
    pub fn aligned(&self) -> bool {
        self.rev <= 3
    }
    /// Revisions 0–1 (LLVM ≤ 1.2): types live in a type plane (slot 12), so the
    /// type pool and symbol tables carry no separate type lists.
    pub fn types_in_planes(&self) -> bool {
        self.rev <= 1
    }
    /// Revisions 3 and later: type slots of 0x00FFFFFF and up are escaped.
    pub fn escaped_type_slots(&self) -> bool {
        self.rev >= 3
    }
    /// Revisions 0–5: the layouts of the spec and LLVM 1.x's readers apply. Later
    /// revisions (LLVM 1.9/2.0 development) are not covered by either.
    pub fn layouts_known(&self) -> bool {
        self.rev <= 5
    }
    /// Padding bytes needed after `end` to reach a 32-bit boundary (0 when the
    /// revision does not align).
    pub fn pad_after(&self, end: u64) -> u64 {
        if self.aligned() {
            (4 - end.saturating_sub(self.base) % 4) % 4
        } else {
            0
        }
    }
}

/// A block type, named as in `Format.h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BlockKind {
    Module,
    Function,
    ConstantPool,
    SymbolTable,
    ModuleGlobalInfo,
    GlobalTypePlane,
    DependentLibs,
    BasicBlock,
    InstructionList,
    CompactionTable,
    TypeSymbolTable,
    Unknown,
}

impl BlockKind {
    /// Identifiers of long (revision 0–2) headers.
    pub fn from_long(id: u64) -> Self {
        match id {
            0x01 => Self::Module,
            0x11 => Self::Function,
            0x12 => Self::ConstantPool,
            0x13 => Self::SymbolTable,
            0x14 => Self::ModuleGlobalInfo,
            0x15 => Self::GlobalTypePlane,
            0x16 => Self::DependentLibs,
            0x31 => Self::BasicBlock,
            0x32 => Self::InstructionList,
            0x33 => Self::CompactionTable,
            _ => Self::Unknown,
        }
    }

    /// Identifiers of short (revision 3+) headers.
    pub fn from_short(id: u64, rev: u64) -> Self {
        match id {
            1 => Self::Module,
            2 => Self::Function,
            3 => Self::ConstantPool,
            4 => Self::SymbolTable,
            5 => Self::ModuleGlobalInfo,
            6 => Self::GlobalTypePlane,
            7 => Self::InstructionList,
            8 => Self::CompactionTable,
            9 if rev >= 7 => Self::TypeSymbolTable,
            _ => Self::Unknown,
        }
    }

    /// The block type's name (also the name of its content node).
    pub fn name(self) -> &'static str {
        match self {
            Self::Module => "Module",
            Self::Function => "Function",
            Self::ConstantPool => "ConstantPool",
            Self::SymbolTable => "SymbolTable",
            Self::ModuleGlobalInfo => "ModuleGlobalInfo",
            Self::GlobalTypePlane => "GlobalTypePlane",
            Self::DependentLibs => "DependentLibs",
            Self::BasicBlock => "BasicBlock",
            Self::InstructionList => "InstructionList",
            Self::CompactionTable => "CompactionTable",
            Self::TypeSymbolTable => "TypeSymbolTable",
            Self::Unknown => "Content",
        }
    }
}

/// What holds a list of blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Parent {
    Module,
    Function,
}

impl Parent {
    fn expects(self, k: BlockKind) -> bool {
        use BlockKind::*;
        match self {
            Parent::Module => matches!(
                k,
                GlobalTypePlane | ModuleGlobalInfo | ConstantPool | Function | SymbolTable
            ),
            Parent::Function => matches!(
                k,
                ConstantPool | CompactionTable | BasicBlock | InstructionList | SymbolTable
            ),
        }
    }
    fn what(self) -> &'static str {
        match self {
            Parent::Module => "the module",
            Parent::Function => "a function body",
        }
    }
}

/// Reads the blocks filling `[cursor, end)` as the list `Blocks`. `depth` is the
/// nesting level of these blocks (module-level blocks are level 1).
pub(crate) fn blocks(
    b: &mut Builder,
    ctx: &Ctx,
    end: u64,
    depth: u32,
    parent: Parent,
) -> DResult<()> {
    b.array("Blocks", |b| {
        let mut seen: Vec<(BlockKind, u32)> = Vec::new();
        let mut i = 0u32;
        // Every block claims at least one byte, so this ends.
        while b.pos() < end {
            block(b, ctx, i, end, depth, parent, &mut seen);
            i = i.saturating_add(1);
        }
        Ok(())
    })
}

/// One block at the cursor, ending no later than `end`.
fn block(
    b: &mut Builder,
    ctx: &Ctx,
    i: u32,
    end: u64,
    depth: u32,
    parent: Parent,
    seen: &mut Vec<(BlockKind, u32)>,
) {
    let start = b.pos();
    let avail = end - start;
    let hdr: u64 = if ctx.long_headers() { 8 } else { 4 };
    // Size the element from a peek at its header; the header's own nodes are read
    // inside the region (and report a truncated header there).
    let size = if avail < hdr {
        None
    } else if ctx.long_headers() {
        b.peek_uint(start + 4, 4)
    } else {
        b.peek_uint(start, 4).map(|w| w >> 5)
    };
    let content_start = start + hdr.min(avail);
    let room = end - content_start;
    let size_v = size.unwrap_or(0);
    let content_len = size_v.min(room);
    let overrun = size.is_some() && size_v > room;
    let pad = if overrun {
        0
    } else {
        ctx.pad_after(content_start + content_len)
    };
    let pad_room = room - content_len;
    let item_len = (content_start - start) + content_len + pad.min(pad_room);
    b.region(Name::Index(i), Kind::Struct, start, item_len, |b| {
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
        if parent == Parent::Module && matches!(kind, BlockKind::GlobalTypePlane | BlockKind::ModuleGlobalInfo) {
            let first = seen.iter().find(|(k, _)| *k == kind).map(|&(_, f)| f);
            let id_node = b.tree().node(item).children.first().copied();
            if let (Some(first), Some(id_node)) = (first, id_node) {
                b.set_error(
                    id_node,
                    format!(
                        "expected one {} block in the module, found a second one (the first is [{first}]); LLVM's reader rejects this",
                        kind.name()
                    ),
                );
            }
            if first.is_none() {
                seen.push((kind, i));
            }
        }
        b.set_display(item, desc);
        if content_len > 0 {
            b.region(kind.name(), Kind::Struct, content_start, content_len, |b| {
                content(b, ctx, kind, parent, content_len, depth)
            });
        }
        padding(b, pad, pad_room, content_start + content_len, end)
    });
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
        b.u32("Size")?;
        Ok((kind, b.last().expect("Size node")))
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
        b.bits("Size", 27)?;
        Ok((kind, b.last().expect("Size node")))
    }
}

/// The content of one block (cursor at its start, region bounded by its size).
fn content(
    b: &mut Builder,
    ctx: &Ctx,
    kind: BlockKind,
    parent: Parent,
    len: u64,
    depth: u32,
) -> DResult<()> {
    let region = b.current();
    if !ctx.layouts_known() {
        b.set_display(
            region,
            format!(
                "revision {}: neither the spec nor the LLVM 1.x readers describe this revision's block contents; shown raw",
                ctx.rev
            ),
        );
        return raw(b, len);
    }
    match kind {
        BlockKind::GlobalTypePlane => tables::global_type_pool(b, ctx),
        BlockKind::SymbolTable => tables::symbol_table(b, ctx),
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
            b.set_display(
                region,
                "the spec says \"to be determined\"; read as LLVM 1.x's reader does: a linkage uint_vbr, then blocks",
            );
            function(b, ctx, depth)
        }
        other => {
            let why = match other {
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
                _ => "unknown block type; shown raw".to_string(),
            };
            b.set_display(region, why);
            raw(b, len)
        }
    }
}

/// A function block's content (LLVM 1.x's reader, `ParseFunctionBody`): the
/// linkage, then blocks.
fn function(b: &mut Builder, ctx: &Ctx, depth: u32) -> DResult<()> {
    let l = vbr::uint_vbr(b, "Linkage")?;
    match linkage_name(l) {
        Some(n) => b.display(n),
        None => b.error(format!(
            "expected a linkage of 0–4 (external, weak, appending, internal, linkonce), found {l}"
        )),
    }
    let end = b.limit();
    blocks(b, ctx, end, depth + 1, Parent::Function)
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
