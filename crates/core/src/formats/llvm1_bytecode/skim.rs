//! Reading without making nodes: where the entries of a list start (so long
//! lists can be shown in pages that decode on demand), and whether a part
//! decodes without an error (so that, with exact totals, a lazy part never hides
//! one). Every rule here mirrors the decoding functions of [`super::blocks`],
//! [`super::tables`] and [`super::vbr`]: a vbr, string or type slot reads the
//! same bytes and fails in the same places, a block is laid out by the same
//! [`context::layout`], and a part is clean only if its decode sets no error.

use super::context::{self, BlockKind, Ctx, Parent, MAX_DEPTH};
use super::vbr::TYPE_SLOT_ESCAPE;
use crate::source::ByteSource;

/// Most bytes of the file held at a time.
const WINDOW: usize = 1 << 16;
/// Bytes read the first time: a skim of a small part reads little; each later
/// load doubles, up to [`WINDOW`].
const FIRST_WINDOW: usize = 256;

/// A window on the file, refilled as reads move.
pub(crate) struct Win<'s> {
    src: &'s dyn ByteSource,
    len: u64,
    at: u64,
    buf: Vec<u8>,
    /// Bytes the next load reads.
    next: usize,
}

impl<'s> Win<'s> {
    pub fn new(src: &'s dyn ByteSource) -> Self {
        Win {
            src,
            len: src.len(),
            at: 0,
            buf: Vec::new(),
            next: FIRST_WINDOW,
        }
    }

    /// The byte at `pos`, or `None` past the end of the file.
    pub fn byte(&mut self, pos: u64) -> Option<u8> {
        let held = pos >= self.at && pos - self.at < self.buf.len() as u64;
        if !held {
            let n = self.len.saturating_sub(pos).min(self.next as u64) as usize;
            if n == 0 {
                return None;
            }
            self.next = (self.next * 2).min(WINDOW);
            self.buf.resize(n, 0);
            let got = self.src.read_at(pos, &mut self.buf);
            self.buf.truncate(got);
            self.at = pos;
        }
        self.buf.get((pos - self.at) as usize).copied()
    }

    /// The little-endian `u32` at `pos` (as the decoder's block headers read).
    pub fn u32(&mut self, pos: u64) -> Option<u64> {
        let mut v = 0u64;
        for i in 0..4 {
            v |= u64::from(self.byte(pos.checked_add(i)?)?) << (8 * i);
        }
        Some(v)
    }
}

/// A cursor reading encoding primitives inside `[pos, limit)`. A read that the
/// decoder would stop at returns `None`; any read the decoder would flag clears
/// `clean`.
pub(crate) struct Cur<'w, 's> {
    pub w: &'w mut Win<'s>,
    pub pos: u64,
    pub limit: u64,
    pub clean: bool,
}

impl<'w, 's> Cur<'w, 's> {
    pub fn new(w: &'w mut Win<'s>, pos: u64, limit: u64) -> Self {
        Cur {
            w,
            pos,
            limit,
            clean: true,
        }
    }

    // Kept, as `vbr::read` is (bench/RESULTS.md, "Library choices").
    /// The vbr at the cursor, as `vbr::read` reads it: `None` (and not clean) if
    /// it is unterminated before the limit, longer than 10 bytes or over 64 bits.
    fn vbr(&mut self) -> Option<u64> {
        let at = self.pos;
        let limit = self.limit;
        let w = &mut self.w;
        let s = crate::varint::scan((at..limit).map_while(|p| w.byte(p)));
        if !s.terminated {
            self.clean = false;
            return None;
        }
        let v = s.fits();
        if v.is_none() {
            self.clean = false;
        }
        self.pos = at + s.len;
        v
    }

    /// A `uint_vbr`: a value over 32 bits is flagged, and read on.
    pub fn uint_vbr(&mut self) -> Option<u64> {
        let v = self.vbr()?;
        if v > u64::from(u32::MAX) {
            self.clean = false;
        }
        Some(v)
    }

    /// A type slot (`vbr::type_slot`).
    pub fn type_slot(&mut self, escapes: bool) -> Option<u64> {
        if escapes {
            let (pos, clean) = (self.pos, self.clean);
            let first = self.vbr();
            self.pos = pos;
            self.clean = clean;
            if first == Some(TYPE_SLOT_ESCAPE) {
                self.uint_vbr()?;
            }
        }
        self.uint_vbr()
    }

    /// A `string` (`vbr::string`): a length, then that many bytes.
    pub fn string(&mut self) -> Option<()> {
        let len = self.uint_vbr()?;
        if len > self.limit - self.pos {
            self.clean = false;
            return None;
        }
        self.pos += len;
        Some(())
    }

    /// Bytes left before the limit.
    pub fn room(&self) -> u64 {
        self.limit.saturating_sub(self.pos)
    }
}

/// One entry of a symbol table list: a type slot and a name (`TypeNames`), or a
/// slot number and a name (a plane's entries).
pub(crate) fn entry(c: &mut Cur, type_names: bool, escapes: bool) -> Option<()> {
    if type_names {
        c.type_slot(escapes)?;
    } else {
        c.uint_vbr()?;
    }
    c.string()
}

/// `n` entries of a list from the cursor; `None` at the first that stops.
fn entries(c: &mut Cur, n: u64, type_names: bool, escapes: bool) -> Option<()> {
    for _ in 0..n {
        entry(c, type_names, escapes)?;
    }
    Some(())
}

/// True if the blocks filling `[start, end)`, nested `depth` levels deep in
/// `parent`, decode without an error (their contents included).
pub(crate) fn blocks_clean(
    w: &mut Win,
    ctx: &Ctx,
    start: u64,
    end: u64,
    depth: u32,
    parent: Parent,
) -> bool {
    let mut firsts = context::Firsts::default();
    let mut pos = start;
    let mut i = 0u32;
    while pos < end {
        let l = context::layout(ctx, pos, end, &mut |o| w.u32(o));
        let dup = firsts.note(parent, l.kind, i);
        if dup.is_some() || !block_clean(w, ctx, &l, depth, parent) {
            return false;
        }
        pos += l.item_len;
        i = i.saturating_add(1);
    }
    true
}

/// True if the block laid out as `l` decodes without an error (its header, its
/// alignment and its content; whether it repeats a module-level block is the
/// caller's to tell).
pub(crate) fn block_clean(
    w: &mut Win,
    ctx: &Ctx,
    l: &context::Layout,
    depth: u32,
    parent: Parent,
) -> bool {
    if !l.header_fits || l.overrun || l.pad > l.pad_room {
        return false;
    }
    if ctx.long_headers() && l.kind == BlockKind::Unknown {
        return false;
    }
    l.content_len == 0
        || content_clean(
            w,
            ctx,
            l.kind,
            parent,
            l.content_start,
            l.content_len,
            depth,
        )
}

/// True if a block's content `[start, start + len)` decodes without an error.
pub(crate) fn content_clean(
    w: &mut Win,
    ctx: &Ctx,
    kind: BlockKind,
    _parent: Parent,
    start: u64,
    len: u64,
    depth: u32,
) -> bool {
    if !ctx.layouts_known() {
        return true;
    }
    let end = start + len;
    let mut c = Cur::new(w, start, end);
    match kind {
        BlockKind::GlobalTypePlane => {
            let ok = (|| {
                let count = c.uint_vbr()?;
                if ctx.types_in_planes() {
                    c.type_slot(false)?;
                }
                let rest = c.room();
                Some(count <= rest && !(count == 0 && rest > 0))
            })();
            ok == Some(true) && c.clean
        }
        BlockKind::SymbolTable => {
            let escapes = ctx.escaped_type_slots();
            let ok = (|| {
                if !ctx.types_in_planes() {
                    let n = c.uint_vbr()?;
                    if n.saturating_mul(2) > c.room() {
                        return None;
                    }
                    entries(&mut c, n, true, escapes)?;
                }
                while c.pos < end {
                    let n = c.uint_vbr()?;
                    c.type_slot(escapes)?;
                    if n.saturating_mul(2) > c.room() {
                        return None;
                    }
                    entries(&mut c, n, false, escapes)?;
                }
                Some(())
            })();
            ok.is_some() && c.clean
        }
        BlockKind::Function => {
            if depth >= MAX_DEPTH {
                return false;
            }
            let Some(linkage) = c.uint_vbr() else {
                return false;
            };
            let (at, clean) = (c.pos, c.clean);
            clean && linkage <= 4 && blocks_clean(w, ctx, at, end, depth + 1, Parent::Function)
        }
        _ => true,
    }
}
