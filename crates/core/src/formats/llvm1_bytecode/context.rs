//! What the block decoder ([`super::blocks`]), the tables it decodes
//! ([`super::tables`]) and the skim that checks them ahead of decoding
//! ([`super::skim`]) share: the revision's layout rules ([`Ctx`]), the block
//! types, and where a block lies from a peek at its header. It imports none of
//! them.

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
    /// True if `k` is a block type this list holds.
    pub fn expects(self, k: BlockKind) -> bool {
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
    /// What holds the list, for messages.
    pub fn what(self) -> &'static str {
        match self {
            Parent::Module => "the module",
            Parent::Function => "a function body",
        }
    }
}

/// Where a block lies and what its header says, from a peek at the header (see
/// [`layout`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    /// The header is all there (`avail` holds it).
    pub header_fits: bool,
    /// The header's size, if the header is there.
    pub size: u64,
    pub content_start: u64,
    pub content_len: u64,
    /// The size reaches past `end`.
    pub overrun: bool,
    /// Alignment padding owed after the content, and room for it before `end`.
    pub pad: u64,
    pub pad_room: u64,
    /// Bytes of the list element: header, content and the padding that fits.
    pub item_len: u64,
    /// The block type the header names (`Unknown` if it is not there).
    pub kind: BlockKind,
}

/// Lays out the block at `start`, ending no later than `end`, from its header
/// (`u32at` reads a little-endian `u32`, `None` past the end of the file).
pub(crate) fn layout(
    ctx: &Ctx,
    start: u64,
    end: u64,
    u32at: &mut dyn FnMut(u64) -> Option<u64>,
) -> Layout {
    let avail = end - start;
    let hdr: u64 = if ctx.long_headers() { 8 } else { 4 };
    let (size, kind) = if avail < hdr {
        (None, BlockKind::Unknown)
    } else if ctx.long_headers() {
        let kind = u32at(start).map_or(BlockKind::Unknown, BlockKind::from_long);
        (u32at(start + 4), kind)
    } else {
        let w = u32at(start);
        (
            w.map(|w| w >> 5),
            w.map_or(BlockKind::Unknown, |w| {
                BlockKind::from_short(w & 31, ctx.rev)
            }),
        )
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
    Layout {
        header_fits: avail >= hdr,
        size: size_v,
        content_start,
        content_len,
        overrun,
        pad,
        pad_room,
        item_len: (content_start - start) + content_len + pad.min(pad_room),
        kind,
    }
}

/// The first module-level GlobalTypePlane and ModuleGlobalInfo blocks (LLVM's
/// reader rejects a second one).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Firsts {
    type_plane: Option<u32>,
    global_info: Option<u32>,
}

impl Firsts {
    /// Notes block `i` of `kind` in `parent`; returns the index of the first block
    /// of its kind if this one repeats it.
    pub fn note(&mut self, parent: Parent, kind: BlockKind, i: u32) -> Option<u32> {
        let slot = match (parent, kind) {
            (Parent::Module, BlockKind::GlobalTypePlane) => &mut self.type_plane,
            (Parent::Module, BlockKind::ModuleGlobalInfo) => &mut self.global_info,
            _ => return None,
        };
        match *slot {
            Some(f) if f < i => Some(f),
            Some(_) => None,
            None => {
                *slot = Some(i);
                None
            }
        }
    }
}
