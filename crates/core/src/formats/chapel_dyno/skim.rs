//! Node-free passes over a module's sections: what the sections need from each
//! other (where uAST entries start and end, where location groups start) and where
//! each page of a long list starts, with the state decoding needs there.
//!
//! Each pass reads a section's bytes once and follows exactly the reads the
//! decoder makes, failing where a decoder read would fail (a read past the end of
//! the section), so what it finds is what an eager decode finds: the cross-checks
//! and the pages of a decode on demand give the same tree as an eager decode.

use super::layout::Layout;
use super::prim::{decode_varint, unzigzag, LongStrings, MAX_VARINT_BYTES};
use super::tags::{self, TagKind};
use crate::builder::{Builder, MAX_STRING_VALUE};
use crate::Endian;
use std::sync::{Arc, OnceLock};

/// Entries nested deeper than this are not decoded (bounded recursion).
pub(super) const MAX_DEPTH: u32 = 128;

/// A decoder read that would fail: it reaches past the end of its region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut;

/// Result of a skim read.
pub type SR<T> = Result<T, Cut>;

/// Reads over the bytes of one region, bounded like the decoder's reads.
pub struct Rd<'a> {
    d: &'a [u8],
    base: u64,
    /// Absolute cursor.
    pub pos: u64,
    /// Reads may not pass this absolute offset.
    pub end: u64,
    endian: Endian,
}

impl<'a> Rd<'a> {
    /// A reader over `d`, the bytes from absolute `base` on, bounded by `end`.
    pub fn new(d: &'a [u8], base: u64, end: u64, endian: Endian) -> Self {
        Rd {
            d,
            base,
            pos: base,
            end: end.min(base + d.len() as u64),
            endian,
        }
    }

    #[inline]
    fn need(&self, n: u64) -> SR<usize> {
        // The cursor is never set below `base`; it may be set past `end`.
        if n <= self.end.saturating_sub(self.pos) {
            Ok((self.pos - self.base) as usize)
        } else {
            Err(Cut)
        }
    }

    /// Moves the cursor to `n` bytes further on (fails past the end).
    pub fn skip(&mut self, n: u64) -> SR<()> {
        self.need(n)?;
        self.pos += n;
        Ok(())
    }

    /// An unsigned integer of `size` bytes in the file's order.
    pub fn uint(&mut self, size: u64) -> SR<u64> {
        let at = self.need(size)?;
        let b = &self.d[at..at + size as usize];
        let mut v = 0u64;
        match self.endian {
            Endian::Little => {
                for (i, &x) in b.iter().enumerate() {
                    v |= (x as u64) << (8 * i);
                }
            }
            Endian::Big => {
                for &x in b {
                    v = (v << 8) | x as u64;
                }
            }
        }
        self.pos += size;
        Ok(v)
    }

    /// A signed integer of `size` bytes in the file's order.
    pub fn int(&mut self, size: u64) -> SR<i64> {
        let raw = self.uint(size)?;
        let shift = 64 - 8 * size.clamp(1, 8);
        Ok(((raw << shift) as i64) >> shift)
    }

    /// A byte.
    pub fn u8(&mut self) -> SR<u8> {
        let at = self.need(1)?;
        self.pos += 1;
        Ok(self.d[at])
    }

    /// A big-endian `u32`.
    fn u32_be(&mut self) -> SR<u64> {
        let at = self.need(4)?;
        let b = &self.d[at..at + 4];
        self.pos += 4;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as u64)
    }

    /// A variable-byte integer (raw, not un-ZigZagged).
    pub fn varint(&mut self) -> SR<u64> {
        if self.pos < self.base || self.pos >= self.end {
            return Err(Cut);
        }
        let at = (self.pos - self.base) as usize;
        let first = self.d[at];
        if first & 0x80 == 0 {
            self.pos += 1;
            return Ok(first as u64);
        }
        let avail = (self.end - self.pos).min(MAX_VARINT_BYTES) as usize;
        match decode_varint(&self.d[at..at + avail]) {
            Some((v, n, _)) => {
                self.pos += n;
                Ok(v)
            }
            None => Err(Cut),
        }
    }

    /// A signed (ZigZag) variable-byte integer.
    pub fn vint(&mut self) -> SR<i64> {
        self.varint().map(unzigzag)
    }

    /// The byte at the cursor, if it is inside the region.
    fn peek(&self) -> Option<u8> {
        if self.pos >= self.base && self.pos < self.end {
            Some(self.d[(self.pos - self.base) as usize])
        } else {
            None
        }
    }

    /// Up to [`MAX_STRING_VALUE`] bytes at absolute `at` (inside the bytes held).
    fn text(&self, at: u64, len: u64) -> String {
        let s = at.saturating_sub(self.base) as usize;
        let z = (s + len.min(MAX_STRING_VALUE as u64) as usize).min(self.d.len());
        String::from_utf8_lossy(self.d.get(s..z).unwrap_or_default()).into_owned()
    }
}

/// The bytes `[s, e)` of the file (fewer past its end).
pub fn bytes_of(b: &Builder, s: u64, e: u64) -> Vec<u8> {
    b.peek_bytes(s, e.saturating_sub(s))
}

// ----- uAST ---------------------------------------------------------------------

/// The entry was decoded without a failing read (the decoder keeps it).
pub const OK: u8 = 1;
/// The entry and all its descendants were decoded.
pub const COMPLETE: u8 = 2;
/// Parsing lost its footing in the entry (an undecoded run follows).
pub const LOST: u8 = 4;

/// One uAST entry the skim met, in the order the decoder meets them (pre-order,
/// so by start).
#[derive(Clone, Copy, Debug, Default)]
pub struct AstE {
    pub start: u64,
    /// Where decoding continues after the entry (its subtree, or its undecoded run).
    pub end: u64,
    /// Index of the first entry after its subtree.
    pub skip: u32,
    pub tag: u8,
    pub flags: u8,
}

impl AstE {
    pub fn ok(&self) -> bool {
        self.flags & OK != 0
    }
    pub fn complete(&self) -> bool {
        self.flags & COMPLETE != 0
    }
    pub fn lost(&self) -> bool {
        self.flags & LOST != 0
    }
}

/// What the uAST section holds, as the decoder reads it.
#[derive(Default, Debug)]
pub struct AstIndex {
    /// Every entry met, by start.
    pub e: Vec<AstE>,
    /// Top-level entries decoded without a failing read (indices into `e`).
    pub roots: Vec<u32>,
    /// Byte runs left undecoded, in order.
    pub undecoded: Vec<(u64, u64)>,
    /// Where decoding stopped (everything before it is decoded or undecoded runs).
    pub reached: u64,
    /// Where the entries began.
    pub begin: u64,
    /// Tags read.
    pub count: u64,
    /// A read failed (the decoder's entries end with an error).
    pub cut: bool,
    /// The section's bytes and where they start (labels are read from them).
    pub bytes: Vec<u8>,
    pub base: u64,
}

impl AstIndex {
    /// The entry kept by the decoder that starts at `t`.
    pub fn at(&self, t: u64) -> Option<u32> {
        let i = self.e.partition_point(|x| x.start < t);
        self.e
            .get(i)
            .filter(|x| x.start == t && x.ok())
            .map(|_| i as u32)
    }

    /// True if offset `t` lies in bytes that were decoded as entries (so an entry
    /// starting there would have been found).
    pub fn checked(&self, t: u64) -> bool {
        if t < self.begin || t >= self.reached {
            return false;
        }
        // The runs are in order and do not overlap: only the last one starting at
        // or before `t` can hold it.
        let i = self.undecoded.partition_point(|&(a, _)| a <= t);
        !(i > 0 && t < self.undecoded[i - 1].1)
    }

    /// The children of entry `i` met by the decoder (indices into `e`).
    pub fn children(&self, i: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let end = self.e[i as usize].skip;
        let mut c = i + 1;
        while c < end {
            out.push(c);
            c = self.e[c as usize].skip;
        }
        out
    }

    /// The entries of the subtree at `root` in pre-order, leaving out the subtrees
    /// starting at one of `skip` (other than `root` itself); `None` unless
    /// every entry involved was completely decoded.
    pub fn preorder(&self, root: u64, skip: &Marks) -> Option<Vec<u32>> {
        let p = self.at(root)?;
        if !self.e[p as usize].complete() {
            return None;
        }
        let mut out = vec![p];
        let end = self.e[p as usize].skip;
        let mut q = p + 1;
        while q < end {
            let e = &self.e[q as usize];
            if skip.contains(e.start) {
                q = e.skip;
            } else {
                out.push(q);
                q += 1;
            }
        }
        Some(out)
    }
}

/// A label as the decoder shows it, found without decoding the text yet.
pub enum Label {
    /// Text at an absolute offset, this many bytes.
    At(u64, u64),
    Owned(String),
}

/// What an entry's fields give (see `uast::fields`).
pub enum Fields {
    Decoded(Option<Label>),
    Unknown,
    Lost,
}

/// `UniqueString::serialize`, as `prim::ustring` reads it.
fn ustring(rd: &mut Rd, long: &LongStrings) -> SR<Label> {
    match rd.peek() {
        Some(x) if x & 0x80 != 0 => {
            let idx = rd.u32_be()? & 0x7FFF_FFFF;
            Ok(match long.lookup(idx) {
                Ok((s, e)) => Label::At(s, e - s),
                Err(_) => Label::Owned(String::new()),
            })
        }
        None => Err(Cut),
        _ => {
            let len = rd.u8()? as u64;
            let at = rd.pos;
            rd.skip(len)?;
            Ok(Label::At(at, len))
        }
    }
}

fn decl(rd: &mut Rd) -> SR<()> {
    rd.u8()?;
    rd.u8()?;
    rd.vint()?;
    rd.vint()?;
    Ok(())
}

fn named_decl(rd: &mut Rd, s: &LongStrings) -> SR<Label> {
    decl(rd)?;
    ustring(rd, s)
}

fn var_like_decl(rd: &mut Rd, s: &LongStrings) -> SR<Label> {
    let n = named_decl(rd, s)?;
    rd.skip(3)?;
    Ok(n)
}

/// How an entry's fields are laid out, by the name of its tag.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Fk {
    /// One string: `Identifier`, `Dot`.
    Str,
    BlockLike,
    Module,
    Function,
    Variable,
    Formal,
    RecordLike,
    /// A named declaration and nothing else: `Enum`, `EnumElement`.
    Named,
    Return,
    FnCall,
    OpCall,
    Literal(u64),
    Unknown,
}

fn fk_of(name: &str) -> Fk {
    match name {
        "Identifier" | "Dot" => Fk::Str,
        "Block" | "On" => Fk::BlockLike,
        "Module" => Fk::Module,
        "Function" => Fk::Function,
        "Variable" => Fk::Variable,
        "Formal" => Fk::Formal,
        "Record" | "Class" => Fk::RecordLike,
        "Enum" | "EnumElement" => Fk::Named,
        "Return" => Fk::Return,
        "FnCall" => Fk::FnCall,
        "OpCall" => Fk::OpCall,
        "BoolLiteral" => Fk::Literal(0),
        "IntLiteral" => Fk::Literal(3),
        "StringLiteral" | "BytesLiteral" => Fk::Literal(6),
        _ => Fk::Unknown,
    }
}

/// [`fk_of`] the name of every tag byte, and whether the tag is one of a node.
fn fk_table() -> &'static [(Fk, bool); 256] {
    static T: std::sync::OnceLock<[(Fk, bool); 256]> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut t = [(Fk::Unknown, false); 256];
        for (i, x) in t.iter_mut().enumerate() {
            if let Some((name, k)) = tags::ast_tag(i as u64) {
                *x = (fk_of(name), k != TagKind::Marker);
            }
        }
        t
    })
}

/// The fields of an entry whose tag is named `tag` (see `uast::fields`).
pub fn fields(rd: &mut Rd, s: &LongStrings, tag: &str) -> SR<Fields> {
    fields_of(rd, s, fk_of(tag))
}

fn fields_of(rd: &mut Rd, s: &LongStrings, fk: Fk) -> SR<Fields> {
    let label = match fk {
        Fk::Str => Some(ustring(rd, s)?),
        Fk::BlockLike => {
            rd.u8()?;
            rd.vint()?;
            rd.vint()?;
            None
        }
        Fk::Module => {
            let n = named_decl(rd, s)?;
            rd.u8()?;
            Some(n)
        }
        Fk::Function => {
            let n = named_decl(rd, s)?;
            rd.skip(7)?;
            for _ in 0..8 {
                rd.vint()?;
            }
            Some(n)
        }
        Fk::Variable => {
            let n = var_like_decl(rd, s)?;
            rd.skip(2)?;
            Some(n)
        }
        Fk::Formal => Some(var_like_decl(rd, s)?),
        Fk::RecordLike => {
            let n = named_decl(rd, s)?;
            for _ in 0..4 {
                rd.vint()?;
            }
            Some(n)
        }
        Fk::Named => Some(named_decl(rd, s)?),
        Fk::Return => {
            rd.u8()?;
            None
        }
        Fk::FnCall => {
            rd.u8()?;
            let n = rd.varint()?;
            for _ in 0..n {
                ustring(rd, s)?;
            }
            rd.u8()?;
            None
        }
        Fk::OpCall => {
            rd.u8()?;
            Some(ustring(rd, s)?)
        }
        Fk::Literal(want) => {
            if rd.u8()? as u64 != want {
                return Ok(Fields::Lost);
            }
            let mut label = match want {
                0 => Label::Owned((rd.u8()? != 0).to_string()),
                3 => Label::Owned(rd.int(8)?.to_string()),
                _ => ustring(rd, s)?,
            };
            match want {
                3 => label = ustring(rd, s)?,
                6 => {
                    rd.u8()?;
                }
                _ => {}
            }
            Some(label)
        }
        Fk::Unknown => return Ok(Fields::Unknown),
    };
    Ok(Fields::Decoded(label))
}

struct AstSkim<'a, 'b> {
    rd: Rd<'a>,
    /// Where the section ends (the reader's bytes may stop sooner: see
    /// [`siblings`]); an undecoded run is bounded by it.
    end: u64,
    long: &'b LongStrings,
    /// Where the symbol table points (made when an undecoded run first needs it).
    anchors: &'b dyn Fn() -> Arc<Syms>,
    syms: Option<Arc<Syms>>,
    ix: AstIndex,
}

/// Skims the uAST entries from `begin` to `end` (the section's bytes `d` start at
/// `base`) as `uast::decode` reads them. `declared` is the entry count the
/// section's header gives: the index is made that big at once when the count is
/// believable (entries of 8 bytes or more on average: a count claiming more is
/// not given that much memory up front), so it is not grown by doubling, which
/// for a million entries meant holding the old and the new array at once.
#[allow(clippy::too_many_arguments)]
pub fn uast(
    declared: u64,
    d: &[u8],
    base: u64,
    begin: u64,
    end: u64,
    endian: Endian,
    long: &LongStrings,
    anchors: &dyn Fn() -> Arc<Syms>,
) -> AstIndex {
    let mut rd = Rd::new(d, base, end, endian);
    rd.pos = begin;
    let mut sk = AstSkim {
        end: rd.end,
        rd,
        long,
        anchors,
        syms: None,
        ix: AstIndex {
            begin,
            // Entries take 8 to 16 bytes in a typical module.
            e: Vec::with_capacity(match usize::try_from(declared) {
                Ok(n) if n <= d.len() / 8 => n,
                _ => d.len() / 16,
            }),
            ..Default::default()
        },
    };
    let end = sk.rd.end;
    while sk.rd.pos < end {
        let i = sk.ix.e.len() as u32;
        if ast_entry(&mut sk, 0).is_err() {
            sk.ix.cut = true;
            break;
        }
        sk.ix.roots.push(i);
    }
    finish(sk.ix)
}

fn finish(mut ix: AstIndex) -> AstIndex {
    ix.reached =
        ix.e.iter()
            .filter(|e| e.ok())
            .map(|e| e.end)
            .max()
            .unwrap_or(ix.begin)
            .max(ix.undecoded.iter().map(|u| u.1).max().unwrap_or(0));
    ix
}

/// Where [`siblings`] stops.
#[derive(Clone, Copy, Debug)]
pub struct Reach {
    /// At most this many entries.
    pub max: u64,
    /// Once the skim holds this many entries (subtrees included), at the next
    /// multiple of `page` entries (`None`: no such limit).
    pub budget: Option<usize>,
    pub page: usize,
}

/// Skims consecutive entries from `begin`, each with its subtree, as
/// [`uast`] does, until `reach` says, or after an entry where parsing lost its
/// footing, or where a read fails (`cut`): the children of one entry, read
/// when they are first shown rather than with the whole section. Its `roots`
/// are those entries. `d` holds the file's bytes from `begin` on, perhaps
/// fewer than up to the section's `end`: a read past them fails as a read past
/// the end does, so a caller seeing `cut` before `end` tries again with more.
#[allow(clippy::too_many_arguments)]
pub fn siblings(
    reach: Reach,
    d: &[u8],
    begin: u64,
    end: u64,
    endian: Endian,
    long: &LongStrings,
    anchors: &dyn Fn() -> Arc<Syms>,
) -> AstIndex {
    let mut sk = AstSkim {
        rd: Rd::new(d, begin, end, endian),
        end,
        long,
        anchors,
        syms: None,
        ix: AstIndex {
            begin,
            ..Default::default()
        },
    };
    let page = reach.page.max(1);
    while (sk.ix.roots.len() as u64) < reach.max {
        let i = sk.ix.e.len() as u32;
        if ast_entry(&mut sk, 0).is_err() {
            sk.ix.cut = true;
            break;
        }
        sk.ix.roots.push(i);
        if sk.ix.e[i as usize].lost() {
            break;
        }
        let n = sk.ix.roots.len();
        if reach.budget.is_some_and(|b| sk.ix.e.len() >= b) && n.is_multiple_of(page) {
            break;
        }
    }
    finish(sk.ix)
}

/// `uast::undecoded`: the run up to the next entry the symbol table points at.
fn skim_undecoded(sk: &mut AstSkim) -> SR<()> {
    let at = sk.rd.pos;
    let end = sk.end;
    let syms = sk.syms.get_or_insert_with(sk.anchors);
    let next = syms.anchors.first_from(at).filter(|&a| a < end);
    let bound = next.unwrap_or(end).max(at);
    sk.rd.skip(bound - at)?;
    sk.ix.undecoded.push((at, bound));
    Ok(())
}

fn ast_entry(sk: &mut AstSkim, depth: u32) -> SR<()> {
    let slot = sk.ix.e.len();
    sk.ix.e.push(AstE {
        start: sk.rd.pos,
        ..Default::default()
    });
    let r = ast_body(sk, depth, slot);
    let n = sk.ix.e.len() as u32;
    let pos = sk.rd.pos;
    let e = &mut sk.ix.e[slot];
    e.skip = n;
    e.end = pos;
    let (lost, complete) = r?;
    e.flags = OK | if complete { COMPLETE } else { 0 } | if lost { LOST } else { 0 };
    Ok(())
}

/// `(lost, complete)` of the entry whose slot is `slot`.
fn ast_body(sk: &mut AstSkim, depth: u32, slot: usize) -> SR<(bool, bool)> {
    let tag = sk.rd.u8()?;
    sk.ix.e[slot].tag = tag;
    sk.ix.count += 1;
    let (fk, node) = fk_table()[tag as usize];
    if !node {
        skim_undecoded(sk)?;
        return Ok((true, false));
    }
    sk.rd.vint()?;
    match fields_of(&mut sk.rd, sk.long, fk)? {
        Fields::Decoded(_) => {}
        Fields::Unknown | Fields::Lost => {
            skim_undecoded(sk)?;
            return Ok((true, false));
        }
    }
    let n = sk.rd.varint()?;
    if n > 0 && depth >= MAX_DEPTH {
        skim_undecoded(sk)?;
        return Ok((true, false));
    }
    if n == 0 {
        return Ok((false, true));
    }
    let mut all = true;
    for _ in 0..n {
        let c = sk.ix.e.len();
        ast_entry(sk, depth + 1)?;
        let e = sk.ix.e[c];
        all &= e.complete();
        if e.lost() {
            return Ok((true, false));
        }
    }
    Ok((false, all))
}

/// The label of the entry with tag `tag` starting at `start` (the uAST section,
/// whose bytes `ix` holds, ends at `end`), as the decoder reads it.
pub fn label_at(
    b: &Builder,
    ix: &AstIndex,
    start: u64,
    end: u64,
    tag: u8,
    long: &LongStrings,
) -> Option<String> {
    let name = tags::ast_tag(tag as u64)?.0;
    if name == "FnCall" {
        return None;
    }
    let mut rd = Rd::new(&ix.bytes, ix.base, end, b.endian());
    if start < ix.base {
        return None;
    }
    rd.pos = start;
    rd.skip(1).ok()?;
    rd.vint().ok()?;
    match fields(&mut rd, long, name).ok()? {
        Fields::Decoded(Some(Label::Owned(s))) => Some(s),
        Fields::Decoded(Some(Label::At(at, len))) => Some(if at >= rd.base && at + len <= rd.end {
            rd.text(at, len)
        } else {
            long.text(at, at + len).unwrap_or_else(|| {
                let bytes = b.peek_bytes(at, len.min(MAX_STRING_VALUE as u64));
                String::from_utf8_lossy(&bytes).into_owned()
            })
        }),
        _ => None,
    }
}

// ----- offsets -------------------------------------------------------------------

/// A set of offsets inside `[base, end)`, a bit per byte: where the symbol table
/// says uAST entries or location groups start.
#[derive(Debug, Default)]
pub struct Marks {
    base: u64,
    end: u64,
    words: Vec<u64>,
}

impl Marks {
    /// The offsets of `xs` that lie in `[base, end)`.
    pub fn new(base: u64, end: u64, xs: impl Iterator<Item = u64>) -> Self {
        let n = end.saturating_sub(base);
        let mut words = vec![0u64; n.div_ceil(64) as usize];
        for x in xs {
            if x >= base && x < end {
                let i = x - base;
                words[(i / 64) as usize] |= 1 << (i % 64);
            }
        }
        Marks { base, end, words }
    }

    pub fn contains(&self, x: u64) -> bool {
        x >= self.base && x < self.end && {
            let i = x - self.base;
            (self.words[(i / 64) as usize] >> (i % 64)) & 1 == 1
        }
    }

    /// The first offset at or after `x`.
    pub fn first_from(&self, x: u64) -> Option<u64> {
        let x = x.max(self.base);
        if x >= self.end {
            return None;
        }
        let i = x - self.base;
        let mut w = (i / 64) as usize;
        let mut bits = self.words[w] & (!0u64 << (i % 64));
        loop {
            if bits != 0 {
                return Some(self.base + w as u64 * 64 + bits.trailing_zeros() as u64);
            }
            w += 1;
            bits = *self.words.get(w)?;
        }
    }

    /// Where a location group starting at `at` ends: at the next group start
    /// after it, or at `end` if there is none before it.
    pub fn after(&self, at: u64, end: u64) -> u64 {
        self.first_from(at.saturating_add(1))
            .filter(|&x| x <= end)
            .unwrap_or(end)
    }
}

// ----- sorting ---------------------------------------------------------------------

/// Sorts `v` by `key` (stable), a byte at a time from the least significant one
/// up to the highest byte any key uses: linear in the length, for the million
/// offsets of a dense symbol table.
pub fn radix_sort_by_key<T: Copy + Default>(v: &mut Vec<T>, key: impl Fn(&T) -> u64) {
    let max = v.iter().map(&key).max().unwrap_or(0);
    let mut tmp = vec![T::default(); v.len()];
    let mut shift = 0;
    while shift < 64 && (max >> shift) != 0 {
        let mut counts = [0usize; 257];
        for x in v.iter() {
            counts[((key(x) >> shift) & 0xFF) as usize + 1] += 1;
        }
        for i in 1..257 {
            counts[i] += counts[i - 1];
        }
        for x in v.iter() {
            let d = ((key(x) >> shift) & 0xFF) as usize;
            tmp[counts[d]] = *x;
            counts[d] += 1;
        }
        std::mem::swap(v, &mut tmp);
        shift += 8;
    }
}

// ----- symbol table ---------------------------------------------------------------

/// Size of the fixed part of a symbol-table entry.
pub fn sym_fixed(layout: Layout) -> u64 {
    if layout == Layout::Writer2023 {
        12
    } else {
        8
    }
}

/// What a symbol-table entry points at.
#[derive(Clone, Copy, Debug)]
pub struct SymTarget {
    /// uAST entry, relative to the uAST section (module header in 2023).
    pub ast: u64,
    /// Location group, relative to the location section (module header in 2023).
    pub loc: u64,
}

/// Reads every entry's two offsets (the uAST and location sections need them as
/// entry points and group boundaries). Stops at the first entry that does not fit.
pub fn sym_targets(d: &[u8], s: u64, e: u64, endian: Endian, layout: Layout) -> Vec<SymTarget> {
    let mut out = Vec::new();
    let mut rd = Rd::new(d, s, e, endian);
    let e = rd.end;
    rd.pos = s + 8;
    let Ok(count) = rd.uint(4) else {
        return out;
    };
    let fixed = sym_fixed(layout);
    let mut p = s + 16;
    let skip_front_coded = |rd: &mut Rd, p: u64| -> Option<u64> {
        rd.pos = p;
        rd.varint().ok()?;
        let len = rd.varint().ok()?;
        let next = rd.pos.checked_add(len)?;
        (next <= e).then_some(next)
    };
    for _ in 0..count {
        if p + fixed + 1 > e {
            break;
        }
        rd.pos = p;
        let (Ok(ast), Ok(loc)) = (rd.uint(4), rd.uint(4)) else {
            break;
        };
        out.push(SymTarget { ast, loc });
        let Some(next) = skip_front_coded(&mut rd, p + fixed + 1) else {
            break;
        };
        p = next;
        if layout != Layout::Writer2023 {
            rd.pos = p;
            let Ok(g) = rd.varint() else {
                break;
            };
            p = rd.pos;
            for _ in 0..g {
                match skip_front_coded(&mut rd, p + 1) {
                    Some(next) => p = next,
                    None => return out,
                }
            }
        }
    }
    out
}

/// Front-coding state where a symbol-table entry starts: the previous entry's ID
/// and the previous C name.
#[derive(Clone, Debug, Default)]
pub struct SymState {
    pub id: Vec<u8>,
    pub cname: Vec<u8>,
}

/// Where the symbol-table entries start, as `symtab::decode` reads them.
#[derive(Debug, Default)]
pub struct SymPlan {
    /// Start of every `every`-th entry and the state there, then of the entry
    /// after the last one read without a failing read.
    pub marks: Vec<(u64, SymState)>,
    /// Entries read without a failing read.
    pub ok: u64,
    /// Where the last of them ends.
    pub end: u64,
}

fn front_coded(rd: &mut Rd, prev: &mut Vec<u8>) -> SR<()> {
    let p = rd.varint()?;
    let n = rd.varint()?;
    let at = rd.pos;
    rd.skip(n)?;
    let keep = p.min(prev.len() as u64) as usize;
    let take = n.min(MAX_STRING_VALUE as u64) as usize;
    let s = (at - rd.base) as usize;
    prev.truncate(keep);
    prev.extend_from_slice(&rd.d[s..s + take]);
    Ok(())
}

fn sym_entry(rd: &mut Rd, st: &mut SymState, layout: Layout) -> SR<()> {
    rd.skip(sym_fixed(layout) + 1)?;
    front_coded(rd, &mut st.id)?;
    if layout != Layout::Writer2023 {
        let g = rd.varint()?;
        for _ in 0..g {
            rd.skip(1)?;
            front_coded(rd, &mut st.cname)?;
        }
    }
    Ok(())
}

/// Skims `count` entries from `start` (the table's bytes `d` start at `base`, the
/// table ends at `end`), marking every `every`-th.
#[allow(clippy::too_many_arguments)]
pub fn sym_plan(
    d: &[u8],
    base: u64,
    start: u64,
    end: u64,
    endian: Endian,
    layout: Layout,
    count: u64,
    every: u64,
) -> SymPlan {
    let mut rd = Rd::new(d, base, end, endian);
    rd.pos = start;
    let mut st = SymState::default();
    let mut plan = SymPlan {
        end: start,
        ..Default::default()
    };
    let mut i = 0u64;
    let mut cut = false;
    while i < count {
        if i.is_multiple_of(every) {
            plan.marks.push((rd.pos, st.clone()));
        }
        if sym_entry(&mut rd, &mut st, layout).is_err() {
            cut = true;
            break;
        }
        i += 1;
        plan.end = rd.pos;
    }
    plan.ok = i;
    if cut {
        if !i.is_multiple_of(every) {
            // The failed entry may have changed the state: read again from the
            // last mark up to it.
            let (at, mut st) = plan.marks.last().cloned().expect("a mark");
            rd.pos = at;
            for _ in 0..i % every {
                let _ = sym_entry(&mut rd, &mut st, layout);
            }
            plan.marks.push((rd.pos, st));
        }
    } else {
        plan.marks.push((plan.end, st));
    }
    plan
}

// ----- long strings -----------------------------------------------------------

/// Finds every usable string's bytes (see `strings::scan`).
pub fn long_strings(b: &Builder, s: u64, e: u64, base: u64) -> LongStrings {
    let mut ls = LongStrings {
        present: true,
        ..Default::default()
    };
    let Some(count) = b.peek_uint(s + 4, 4) else {
        return ls;
    };
    ls.count = count;
    let fit = e.saturating_sub(s + 8) / 4;
    let n = count.min(fit);
    let raw = bytes_of(b, s + 8, s + 8 + 4 * n);
    let mut rd = Rd::new(&raw, s + 8, s + 8 + 4 * n, b.endian());
    let mut offs = Vec::with_capacity(raw.len() / 4);
    while let Ok(o) = rd.uint(4) {
        offs.push(o);
    }
    let data = s + 8 + 4 * n;
    ls.data = std::sync::Arc::new(bytes_of(b, data, e));
    ls.data_at = data;
    ls.spans = vec![None; offs.len()];
    for i in 1..offs.len().saturating_sub(1) {
        let (a, z) = (
            base.saturating_add(offs[i]),
            base.saturating_add(offs[i + 1]),
        );
        if a <= z && a >= data && z <= e {
            ls.spans[i] = Some((a, z));
        }
    }
    ls
}

// ----- locations ----------------------------------------------------------------

/// Where the location section's file paths and groups are, as
/// `locations::decode` reads them.
#[derive(Debug, Default)]
pub struct LocIndex {
    /// The file paths (text as the decoder shows it).
    pub paths: Vec<String>,
    /// Start of every file path, then where the last one ends.
    pub path_starts: Vec<u64>,
    /// True if reading the file paths failed (no group is decoded).
    pub paths_cut: bool,
    /// Start of every group, then where the last one ends.
    pub starts: Vec<u64>,
    /// True if the header claims more groups than the section holds.
    pub short: bool,
}

impl LocIndex {
    /// The group that starts at `t`.
    pub fn group_at(&self, t: u64) -> Option<usize> {
        let n = self.starts.len().saturating_sub(1);
        self.starts[..n].binary_search(&t).ok()
    }
}

/// Skims the location section `[s, e)`; `loc_starts` are where the
/// symbol table says groups start. `None` if its header cannot be read.
pub fn locations(b: &Builder, s: u64, e: u64, loc_starts: &Marks) -> Option<LocIndex> {
    // Only the header and the file paths are read: at first the section's first
    // 64 KiB, more if the paths need it.
    let mut want = 64 * 1024u64;
    loop {
        let upto = e.min(s.saturating_add(want));
        let d = bytes_of(b, s, upto);
        let mut rd = Rd::new(&d, s, e, b.endian());
        let short = rd.end < e;
        let (mut ix, ngroups) = loc_paths(&mut rd)?;
        if ix.paths_cut && short {
            want = want.saturating_mul(4);
            continue;
        }
        if ix.paths_cut {
            return Some(ix);
        }
        let mut at = rd.pos;
        for _ in 0..ngroups {
            if at >= e {
                ix.short = true;
                break;
            }
            let bound = loc_starts.after(at, e);
            ix.starts.push(at);
            at = bound;
        }
        ix.starts.push(at);
        return Some(ix);
    }
}

/// The header and the file paths, and the number of groups the header claims;
/// `None` if the header cannot be read.
fn loc_paths(rd: &mut Rd) -> Option<(LocIndex, u64)> {
    rd.skip(8).ok()?;
    let npaths = rd.uint(4).ok()?;
    let ngroups = rd.uint(4).ok()?;
    let mut ix = LocIndex::default();
    for _ in 0..npaths {
        ix.path_starts.push(rd.pos);
        let r = (|| -> SR<String> {
            let len = rd.varint()?;
            let at = rd.pos;
            rd.skip(len)?;
            let t = rd.text(at, len);
            rd.skip(32)?;
            Ok(t)
        })();
        match r {
            Ok(t) => ix.paths.push(t),
            Err(_) => {
                ix.paths_cut = true;
                return Some((ix, ngroups));
            }
        }
    }
    ix.path_starts.push(rd.pos);
    Some((ix, ngroups))
}

/// Where a location group's entries start, as `locations::group` reads them.
#[derive(Debug, Default)]
pub struct LocPlan {
    /// Start of every `every`-th entry and the last line before it, then of the
    /// entry after the last one read without a failing read.
    pub marks: Vec<(u64, i64)>,
    /// Entries read without a failing read.
    pub ok: u64,
    /// True if an entry after them fails.
    pub cut: bool,
}

/// Skims a group's entries from `start` to `end`, the last line being `last`.
pub fn loc_plan(
    d: &[u8],
    base: u64,
    start: u64,
    end: u64,
    endian: Endian,
    mut last: i64,
    every: u64,
) -> LocPlan {
    let mut rd = Rd::new(d, base, end, endian);
    rd.pos = start;
    let mut plan = LocPlan::default();
    let mut i = 0u64;
    while rd.pos < rd.end {
        let at = rd.pos;
        if i.is_multiple_of(every) {
            plan.marks.push((at, last));
        }
        let r = (|| -> SR<i64> {
            let first = last.saturating_add(rd.vint()?);
            let last_line = first.saturating_add(rd.vint()?);
            rd.varint()?;
            rd.varint()?;
            let m = rd.varint()?;
            for _ in 0..m {
                rd.varint()?;
                rd.vint()?;
                rd.vint()?;
                rd.varint()?;
                rd.varint()?;
            }
            Ok(last_line)
        })();
        match r {
            Ok(l) => last = l,
            Err(_) => {
                plan.cut = true;
                if !i.is_multiple_of(every) {
                    plan.marks.push((at, last));
                }
                plan.ok = i;
                return plan;
            }
        }
        i += 1;
    }
    plan.ok = i;
    plan.marks.push((rd.pos, last));
    plan
}

/// Where the symbol table points, as the other sections need it.
#[derive(Debug, Default)]
pub struct Syms {
    /// Where the symbol table says uAST entries start (inside the uAST section).
    pub anchors: Marks,
    /// Where it says location groups start (inside the location section).
    pub loc_starts: Marks,
    /// What each entry points at (relative offsets).
    pub(super) targets: Vec<SymTarget>,
    /// Location group start → uAST entry start (the last entry naming a group
    /// wins), sorted; made when a location group is first checked.
    pub(super) root_of: OnceLock<Vec<(u64, u64)>>,
}

impl Syms {
    /// Location group start → uAST entry start, with the sections' bases.
    pub fn root_of(&self, ab: u64, lb: u64) -> &[(u64, u64)] {
        self.root_of.get_or_init(|| {
            let mut r: Vec<(u64, u64)> = self
                .targets
                .iter()
                .map(|t| (lb.saturating_add(t.loc), ab.saturating_add(t.ast)))
                .collect();
            // Stable: of entries naming the same group, the last one wins.
            radix_sort_by_key(&mut r, |x| x.0);
            let mut kept: Vec<(u64, u64)> = Vec::with_capacity(r.len());
            for x in r {
                match kept.last_mut() {
                    Some(l) if l.0 == x.0 => *l = x,
                    _ => kept.push(x),
                }
            }
            kept
        })
    }
}
