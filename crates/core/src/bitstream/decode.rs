//! The decoder: walks a bitstream entry by entry and records a node around every
//! field it reads (LLVM "Bitstream Format": Abbreviation IDs, Blocks, Data Records,
//! Abbreviations, Standard Blocks).
//!
//! Fixed fields are single [`Builder::bits`] reads, so their spans are exact. A VBR
//! field is scanned chunk by chunk first (without creating nodes) and then claimed
//! as one node over all its chunks whose value is the decoded number. Arrays and
//! records whose operands are characters are scanned first too, so their characters
//! can become one `Text` node.
//!
//! Each block's body is a [`Builder::region`] bounded by the block's `NumWords`:
//! damage inside a block stays inside it, and the decoder continues after it. What
//! a block needs to be decoded on its own is kept in a [`BlockResume`].

mod names;

use super::abbrev::{char6, Abbrev, AbbrevOp, BlockInfo, Encoding, MAX_FIXED_WIDTH, MAX_VBR_WIDTH};
use super::context::{
    ModuleNames, PageIndex, DEFINE_ABBREV, END_BLOCK, ENTER_SUBBLOCK, UNABBREV_RECORD,
};
use crate::builder::{Builder, DResult, Field, Stop};
use crate::source::ByteSource;
use crate::tree::{BitSpan, Kind, Name, NodeId, Recipe, Tree, Value};
use names::FUNCTION_BLOCK;
use std::cell::{Cell, RefCell};
use std::sync::Arc;

/// Blocks nested deeper than this are not decoded (an error says so).
pub const MAX_DEPTH: u32 = 64;

/// What is needed to decode one block's body on its own: where it starts, how wide
/// its abbreviation IDs are and the BLOCKINFO state in force when it was entered.
#[derive(Clone, Debug)]
pub struct BlockResume {
    /// The block's node.
    pub node: NodeId,
    /// The block ID.
    pub block_id: u64,
    /// Absolute bit of the first entry after the block header.
    pub body_bit: u64,
    /// Length of the body in bytes, as the block's `NumWords` says.
    pub body_bytes: u64,
    /// Width of abbreviation IDs inside the block.
    pub abbrev_width: u64,
    /// Nesting depth (top-level blocks are at depth 1).
    pub depth: u32,
    /// BLOCKINFO abbreviations and names in force at the block's start.
    pub info: Arc<BlockInfo>,
}

/// Counts of what was decoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Blocks entered.
    pub blocks: u64,
    /// Data records (abbreviated and unabbreviated).
    pub records: u64,
    /// `DEFINE_ABBREV` entries.
    pub abbrev_defs: u64,
    /// Record operands (array elements counted one by one; blobs once).
    pub operands: u64,
    /// Blocks left undecoded as lazy nodes (not counted in `blocks`).
    pub lazy_blocks: u64,
}

/// Result of scanning a VBR without creating nodes.
pub(super) enum Scan {
    /// Value and number of bits.
    Ok(u64, u64),
    /// The field runs past the limit.
    Short,
    /// Continuation bits go on past the allowed value width (bits read so far).
    Unterminated(u64),
}

/// What a block left undecoded (a lazy node) needs to be decoded later: where its
/// header starts, the stream it lies in, and the BLOCKINFO state in force there.
#[derive(Clone, Debug)]
pub struct LazyBlock {
    /// Absolute bit of the block's `ENTER_SUBBLOCK` abbreviation ID.
    header_bit: u64,
    /// Width of abbreviation IDs in the enclosing block (2 at the top level).
    outer_width: u64,
    /// Nesting depth of the block.
    depth: u32,
    /// The bytes the decoder may read: `[data_start, data_start + data_len)`.
    data_start: u64,
    data_len: u64,
    /// Absolute bit 32-bit alignment is measured from.
    align_base: u64,
    /// BLOCKINFO abbreviations and names in force where the block starts.
    info: Arc<BlockInfo>,
    /// End (bits) of the enclosing body and its name, which bound the block's reads.
    outer_limit: u64,
    outer_bound: Box<str>,
    /// Made in a stream the skim vouched for: its subtree holds no error.
    vouched: bool,
    /// Where the pages of bodies start, when a skim of the whole stream found it.
    page_index: Option<Arc<PageIndex>>,
    /// For a `FUNCTION_BLOCK`, the name of the function it holds, if known.
    function: Option<Arc<str>>,
}

/// A page of a block body's entries left undecoded (see
/// [`crate::Options::page_size`]): where its first entry starts, its index, and
/// the abbreviations in force there.
#[derive(Clone, Debug)]
pub(crate) struct BodyPage {
    block_id: u64,
    abbrev_width: u64,
    depth: u32,
    /// BLOCKINFO state in force where the block starts.
    info: Arc<BlockInfo>,
    /// Index of the first entry, and how many entries the page holds (the last
    /// page reads to the `END_BLOCK`).
    first: u32,
    count: u32,
    start_bit: u64,
    abbrevs: Vec<Arc<Abbrev>>,
    data_start: u64,
    data_len: u64,
    align_base: u64,
    /// End (bits) of the body and its name, which bound the page's reads.
    body_limit: u64,
    bound: Box<str>,
    /// Made in a stream the skim vouched for: its subtree holds no error.
    vouched: bool,
    /// Where the pages of bodies start, when a skim of the whole stream found it.
    page_index: Option<Arc<PageIndex>>,
}

impl Recipe for BodyPage {
    fn expand(&self, src: &dyn ByteSource, tree: Tree, id: NodeId) -> Tree {
        Decoder::expand_page(src, tree, id, self)
    }
    fn vouched(&self) -> bool {
        self.vouched
    }
}

impl Recipe for LazyBlock {
    fn expand(&self, src: &dyn ByteSource, tree: Tree, id: NodeId) -> Tree {
        Decoder::expand_block(src, tree, id, self)
    }
    fn vouched(&self) -> bool {
        self.vouched
    }
}

/// Bytes of the stream kept in memory at a time.
const WINDOW: u64 = 1 << 16;
/// Bytes read the first time: a decoder that decodes one small block or page
/// reads little; each later load doubles, up to [`WINDOW`].
const FIRST_WINDOW: u64 = 1 << 10;

/// A cached run of the stream's bytes.
struct Window {
    /// Absolute byte of `buf[0]`.
    at: u64,
    buf: Vec<u8>,
    /// Bytes the next load reads.
    next: u64,
}

/// A bitstream decoder over bytes `[start, start + len)` of a source (see the
/// module docs). It reads the source through a small window, never holding the
/// whole stream.
pub struct Decoder<'s> {
    src: &'s dyn ByteSource,
    /// The readable bytes: `[start, end)`.
    start: u64,
    end: u64,
    window: RefCell<Window>,
    /// The last 64 bits read: `(first bit, word)`. Fields are read in order, a
    /// few bits each, so most reads fall inside the word before.
    last: Cell<(u64, u64)>,
    /// Absolute bit 32-bit alignment is measured from (the stream's first bit).
    pub(super) align_base: u64,
    pub(super) info: Arc<BlockInfo>,
    /// Blocks below the top level whose body is at least this many bytes become
    /// lazy nodes.
    pub(super) lazy: Option<u64>,
    /// Bodies of lazy-capable blocks holding more entries than this are shown
    /// as pages (see [`crate::Options::page_size`]).
    pub(super) page_size: Option<u32>,
    /// The whole stream was skimmed without finding anything the decoder would
    /// report (see [`crate::Options::exact_totals`]).
    pub(super) vouched: bool,
    /// The pages of every body, when one skim of the whole stream found them.
    pub(super) page_index: Option<Arc<PageIndex>>,
    /// The `VERSION` of the module being decoded (2 and later: names in STRTAB).
    module_version: u64,
    /// Module records whose names are in the STRTAB block still to come.
    strtab_refs: Vec<StrtabRef>,
    /// The names of the top-level module's functions and global values, read
    /// ahead when it was entered, and the bit its body starts at.
    module_names: Option<(u64, Arc<ModuleNames>)>,
    /// Global value records read so far in that module's body (the next value ID).
    global_values: u64,
    /// `FUNCTION_BLOCK`s met so far in that module's body.
    function_blocks: u64,
    /// What has been decoded so far.
    pub stats: Stats,
    /// Every block entered, in stream order.
    pub blocks: Vec<BlockResume>,
}

/// A module record whose name lies in the string table (`STRTAB_BLOCK`).
struct StrtabRef {
    record: NodeId,
    code: u64,
    offset: u64,
    size: u64,
}

/// How a blob's bytes are split into nodes.
#[derive(Clone, Copy)]
enum Split {
    /// One `Data` run.
    Raw,
    /// A string table: the names module records refer to.
    Strtab,
    /// `METADATA_STRINGS`: lengths, then characters at `offset`.
    MetadataStrings { count: u64, offset: u64 },
}

fn limit_bits(b: &Builder) -> u64 {
    b.limit().saturating_mul(8)
}

fn is_text(vals: &[u64]) -> bool {
    !vals.is_empty()
        && vals
            .iter()
            .all(|&v| (0x20..0x7F).contains(&v) || v == 9 || v == 10 || v == 13)
}

/// [`is_text`], and for the names a module's symbol table gives (`ENTRY`,
/// `FNENTRY`) also text after a leading `\x01`: LLVM's mark for a name to be
/// used as it is, without the target's prefix (DXC's mangled names have it).
fn is_text_in(block: u64, code: u64, vals: &[u64]) -> bool {
    is_text(vals)
        || (block == names::VALUE_SYMTAB_BLOCK
            && matches!(code, 1 | 3)
            && vals.first() == Some(&1)
            && is_text(&vals[1..]))
}

/// The display of a record without text, from the tree: `INST_CALL (34),
/// abbrev 5` or `VERSION (1), unabbreviated`. Its first two children are its
/// abbreviation ID and code; the block it lies in is the nearest ancestor whose
/// second child is a `BlockID`.
fn record_display(t: &Tree, id: NodeId, out: &mut String) -> Option<()> {
    let (block, code, abbrev) = record_of(t, id)?;
    let abbrev = (abbrev != UNABBREV_RECORD).then_some(abbrev);
    write_record_line(out, names::record_name(block, code), code, abbrev).ok()
}

/// A rendered record's comparison key: its name (`record` when LLVM has none).
fn record_key(t: &Tree, id: NodeId, out: &mut String) -> Option<()> {
    let (block, code, _) = record_of(t, id)?;
    out.push_str(names::record_name(block, code).unwrap_or("record"));
    Some(())
}

/// A rendered record's block ID, code and abbreviation ID, read from its
/// first two children and the nearest enclosing block's `BlockID`.
fn record_of(t: &Tree, id: NodeId) -> Option<(u64, u64, u64)> {
    let kids = t.children(id);
    let abbrev = t.value_ref(*kids.first()?)?.as_u64()?;
    let code = t.value_ref(*kids.get(1)?)?.as_u64()?;
    let mut at = t.parent(id);
    let block = loop {
        let a = at?;
        if let Some(&k) = t.children(a).get(1) {
            if t.name(k).is("BlockID") {
                break t.value_ref(k)?.as_u64()?;
            }
        }
        at = t.parent(a);
    };
    Some((block, code, abbrev))
}

/// A record's label and how it was read: `INST_CALL (34), abbrev 5`,
/// `VERSION (1), unabbreviated` or `record 99 (not named by LLVM), abbrev 4`.
fn write_record_line(
    out: &mut String,
    name: Option<&str>,
    code: u64,
    abbrev: Option<u64>,
) -> std::fmt::Result {
    use std::fmt::Write as _;
    match name {
        Some(n) => write!(out, "{n} ({code})")?,
        None => write!(out, "record {code} (not named by LLVM)")?,
    }
    match abbrev {
        Some(id) => write!(out, ", abbrev {id}"),
        None => out.write_str(", unabbreviated"),
    }
}

fn text_of(vals: &[u64]) -> String {
    vals.iter().map(|&v| (v as u8) as char).collect()
}

/// `512 bytes`, `12.0 KiB`, `1.2 MiB`, `3.0 GiB`: tenths of the unit, the
/// nearest (halves to even, as `{:.1}` rounds), in integers only (a decoder
/// module then links no float formatting: `floattext.rs`).
fn human_size(n: u64) -> String {
    const UNITS: [&str; 3] = ["KiB", "MiB", "GiB"];
    if n < 1024 {
        return format!("{n} bytes");
    }
    let mut u = 0;
    while u + 1 < UNITS.len() && n >> (10 * (u + 2)) > 0 {
        u += 1;
    }
    let shift = 10 * (u as u32 + 1);
    let scaled = u128::from(n) * 10;
    let (mut tenths, rest) = (scaled >> shift, scaled & ((1u128 << shift) - 1));
    let half = 1u128 << (shift - 1);
    if rest > half || (rest == half && tenths % 2 == 1) {
        tenths += 1;
    }
    format!("{}.{} {}", tenths / 10, tenths % 10, UNITS[u])
}

fn words(n: u64) -> String {
    if n == 1 {
        "1 word".into()
    } else {
        format!("{n} words")
    }
}

fn short(s: &str) -> String {
    const MAX: usize = 80;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(MAX).collect();
        t.push('…');
        t
    }
}

fn abbrev_id_name(id: u64) -> &'static str {
    match id {
        END_BLOCK => "END_BLOCK",
        ENTER_SUBBLOCK => "ENTER_SUBBLOCK",
        DEFINE_ABBREV => "DEFINE_ABBREV",
        UNABBREV_RECORD => "UNABBREV_RECORD",
        _ => "an abbreviated record",
    }
}

impl<'s> Decoder<'s> {
    /// A decoder for the stream held in bytes `[start, start + len)` of the file,
    /// whose 32-bit alignment is measured from byte `stream_start`. It leaves blocks
    /// lazy as the builder's [`Builder::lazy_threshold`] says.
    pub fn new(b: &Builder<'s>, start: u64, len: u64, stream_start: u64) -> Self {
        Decoder {
            src: b.source(),
            start,
            end: start.saturating_add(len).min(b.file_len()),
            window: RefCell::new(Window {
                at: start,
                buf: Vec::new(),
                next: FIRST_WINDOW,
            }),
            last: Cell::new((u64::MAX, 0)),
            align_base: stream_start.saturating_mul(8),
            info: Arc::new(BlockInfo::default()),
            lazy: b.lazy_threshold(),
            page_size: b.page_size(),
            vouched: false,
            page_index: None,
            module_version: 0,
            strtab_refs: Vec::new(),
            module_names: None,
            global_values: 0,
            function_blocks: 0,
            stats: Stats::default(),
            blocks: Vec::new(),
        }
    }

    // ----- peeking --------------------------------------------------------------

    /// Loads the window so it starts at byte `first` (or a little before).
    fn load(&self, w: &mut Window, first: u64) {
        let at = first.saturating_sub(256).max(self.start);
        let n = w.next.min(self.end.saturating_sub(at));
        w.next = (w.next * 2).min(WINDOW);
        w.buf.resize(n as usize, 0);
        let got = if n == 0 {
            0
        } else {
            self.src.read_at(at, &mut w.buf)
        };
        w.buf.truncate(got);
        w.at = at;
    }

    /// Up to 64 bits at absolute bit `abs`, least significant first (zeros outside
    /// the stream's bytes).
    pub(super) fn peek(&self, abs: u64, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let (at, word) = self.last.get();
        if let Some(off) = abs.checked_sub(at) {
            if off + n <= 64 {
                let v = word >> off;
                return if n >= 64 { v } else { v & ((1u64 << n) - 1) };
            }
        }
        if n > 64 {
            return self.peek_window(abs, n);
        }
        let word = self.peek_window(abs, 64);
        self.last.set((abs, word));
        if n >= 64 {
            word
        } else {
            word & ((1u64 << n) - 1)
        }
    }

    /// [`Decoder::peek`] through the window.
    fn peek_window(&self, abs: u64, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let first = abs / 8;
        let shift = abs % 8;
        let need = (shift + n.min(64)).div_ceil(8);
        let mut w = self.window.borrow_mut();
        // The common case: every byte inside the stream and the window.
        if first >= self.start && first.saturating_add(need) <= self.end && first >= w.at {
            let i = (first - w.at) as usize;
            // 16 bytes at once when the window has them (a copy of fixed size),
            // only the bytes needed near its end.
            if let Some(bytes) = w.buf.get(i..i.saturating_add(16)) {
                let b: [u8; 16] = bytes.try_into().expect("16 bytes");
                let v = (u128::from_le_bytes(b) >> shift) as u64;
                return if n >= 64 { v } else { v & ((1u64 << n) - 1) };
            }
            if let Some(bytes) = w.buf.get(i..i + need as usize) {
                let mut b = [0u8; 16];
                b[..bytes.len()].copy_from_slice(bytes);
                let v = (u128::from_le_bytes(b) >> shift) as u64;
                return if n >= 64 { v } else { v & ((1u64 << n) - 1) };
            }
        }
        let w_end = w.at + w.buf.len() as u64;
        let last = first.saturating_add(need).min(self.end);
        if first < self.end && (first < w.at || last > w_end) {
            self.load(&mut w, first);
        }
        let mut acc: u128 = 0;
        for i in 0..need {
            let byte = first
                .checked_add(i)
                .filter(|&p| p >= self.start && p < self.end)
                .and_then(|p| p.checked_sub(w.at))
                .and_then(|j| w.buf.get(j as usize));
            if let Some(&x) = byte {
                acc |= (x as u128) << (8 * i);
            }
        }
        let v = (acc >> shift) as u64;
        if n >= 64 {
            v
        } else {
            v & ((1u64 << n) - 1)
        }
    }

    // Kept: no LEB128 crate reads bit-granular chunks (bench/RESULTS.md, "Library choices").
    /// Scans a VBR of `width`-bit chunks at `pos` (which must end by `limit`),
    /// allowing `max_bits` bits of value as LLVM's `ReadVBR` / `ReadVBR64` do.
    pub(super) fn scan_vbr(&self, pos: u64, width: u64, max_bits: u64, limit: u64) -> Scan {
        let hi = 1u64 << (width - 1);
        let mut value = 0u64;
        let mut shift = 0u64;
        let mut p = pos;
        loop {
            if p.saturating_add(width) > limit {
                return Scan::Short;
            }
            let chunk = self.peek(p, width);
            p += width;
            if shift < 64 {
                value |= (chunk & (hi - 1)) << shift;
            }
            if chunk & hi == 0 {
                return Scan::Ok(value, p - pos);
            }
            shift += width - 1;
            if shift >= max_bits {
                return Scan::Unterminated(p - pos);
            }
        }
    }

    pub(super) fn all_zero(&self, from: u64, to: u64) -> bool {
        let mut p = from;
        while p < to {
            let n = (to - p).min(64);
            if self.peek(p, n) != 0 {
                return false;
            }
            p += n;
        }
        true
    }

    // ----- leaves ---------------------------------------------------------------

    /// A node over `nbits` bits at the cursor whose value is `v` (not the raw bits).
    fn leaf(b: &mut Builder, name: Name, nbits: u64, v: Value) -> DResult<NodeId> {
        let id = b.bits_field(name, nbits)?.id;
        b.set_value(id, v);
        Ok(id)
    }

    /// A VBR field of `width`-bit chunks: one node over all its chunks.
    fn vbr(
        &self,
        b: &mut Builder,
        name: impl Into<Name>,
        width: u64,
        max_bits: u64,
    ) -> DResult<(NodeId, u64)> {
        let name = name.into();
        let pos = b.pos_bits();
        let limit = limit_bits(b);
        match self.scan_vbr(pos, width, max_bits, limit) {
            Scan::Ok(v, n) => Ok((Self::leaf(b, name, n, Value::U(v))?, v)),
            Scan::Short => {
                // Asks for one bit more than is left: the builder records the error.
                b.bits(name, limit.saturating_sub(pos).saturating_add(1))?;
                Err(Stop)
            }
            Scan::Unterminated(n) => {
                b.bits(name, n)?;
                b.error(format!(
                    "vbr{width} field is not terminated: its chunks carry more than {max_bits} bits of value"
                ));
                Err(Stop)
            }
        }
    }

    /// One scalar operand (fixed, vbr or char6).
    fn scalar(&self, b: &mut Builder, name: Name, enc: Encoding) -> DResult<(NodeId, u64)> {
        match enc {
            Encoding::Fixed(w) => {
                let f = b.bits_field(name, w)?;
                Ok((f.id, f.value))
            }
            Encoding::Vbr(w) => self.vbr(b, name, w, 64),
            Encoding::Char6 => {
                let Field { value: raw, id } = b.bits_field(name, 6)?;
                let c = char6(raw);
                b.set_value(id, Value::U(c as u64));
                b.set_display(id, format!("'{}' (char6 {raw})", c as char));
                Ok((id, c as u64))
            }
            Encoding::Literal(_) | Encoding::Array | Encoding::Blob => {
                unreachable!("validated abbreviations give only scalar fields here")
            }
        }
    }

    /// Skips to the next multiple of 32 bits from the stream start.
    fn align(&self, b: &mut Builder) -> DResult<()> {
        let rel = b.pos_bits().wrapping_sub(self.align_base) % 32;
        if rel != 0 {
            b.bits("Align", 32 - rel)?;
            b.display("alignment to 32 bits");
        }
        Ok(())
    }

    // ----- names ----------------------------------------------------------------

    fn block_name(&self, id: u64) -> Option<&str> {
        names::block_name(id).or_else(|| self.info.block_name(id))
    }

    /// `MODULE_BLOCK (8)`, or `block 99 (not named by LLVM)`.
    fn block_label(&self, id: u64) -> String {
        match self.block_name(id) {
            Some(n) => format!("{n} ({id})"),
            None => format!("block {id} (not named by LLVM)"),
        }
    }

    /// What names a block among its siblings when two files are compared: its
    /// kind, and the function a `FUNCTION_BLOCK` holds when it is known
    /// (`FUNCTION_BLOCK "main"`); `block` for one LLVM does not name.
    fn block_key(&self, id: u64, function: Option<&str>) -> String {
        let kind = self.block_name(id).unwrap_or("block");
        match function {
            Some(name) if id == FUNCTION_BLOCK => format!("{kind} \"{}\"", short(name)),
            _ => kind.to_string(),
        }
    }

    /// The block's label, with the name of the function a `FUNCTION_BLOCK`
    /// holds when it is known: `FUNCTION_BLOCK (12) "main"`.
    fn function_label(&self, id: u64, function: Option<&str>) -> String {
        let label = self.block_label(id);
        match function {
            Some(name) if id == FUNCTION_BLOCK => format!("{label} \"{}\"", short(name)),
            _ => label,
        }
    }

    /// The name of the function held by the block whose `ENTER_SUBBLOCK` is at
    /// bit `pos` inside body `r`, if it is a `FUNCTION_BLOCK` of the module
    /// whose names were read ahead (its `k`-th one holds the `k`-th function
    /// with a body), and the name is known.
    fn function_at(&mut self, r: &BlockResume, pos: u64) -> Option<Arc<str>> {
        let (body, names) = self.module_names.as_ref()?;
        if r.block_id != names::MODULE_BLOCK || *body != r.body_bit {
            return None;
        }
        let limit = r.body_bit.saturating_add(r.body_bytes.saturating_mul(8));
        let Scan::Ok(FUNCTION_BLOCK, _) =
            self.scan_vbr(pos.saturating_add(r.abbrev_width), 8, 32, limit)
        else {
            return None;
        };
        let k = self.function_blocks;
        self.function_blocks += 1;
        names.function(k)
    }

    fn record_name(&self, block: u64, code: u64) -> Option<&str> {
        names::record_name(block, code).or_else(|| self.info.record_name(block, code))
    }

    // ----- stream ---------------------------------------------------------------

    /// Decodes top-level entries from the cursor to the end of the current region:
    /// only blocks may appear there; zero bits after the last block are padding.
    pub fn top_level(&mut self, b: &mut Builder) -> DResult<()> {
        let mut i = 0u32;
        loop {
            let pos = b.pos_bits();
            let limit = limit_bits(b);
            if pos >= limit {
                return Ok(());
            }
            let id = self.peek(pos, 2);
            if id == END_BLOCK && self.all_zero(pos, limit) {
                if pos.is_multiple_of(8) {
                    b.padding("Padding", (limit - pos) / 8)?;
                } else {
                    b.bits("Padding", limit - pos)?;
                }
                b.display("zero bits after the last block");
                return Ok(());
            }
            if id != ENTER_SUBBLOCK {
                b.bits("AbbrevID", 2)?;
                b.error(format!(
                    "expected ENTER_SUBBLOCK (1) at the top level of the stream, found abbrev ID {id} ({})",
                    abbrev_id_name(id)
                ));
                return Err(Stop);
            }
            self.block(b, Name::Index(i), 2, 1, None)?;
            i = i.saturating_add(1);
        }
    }

    /// A block from its `ENTER_SUBBLOCK` abbrev ID: header, then its body. Below
    /// the top level, a block whose body is at least the lazy threshold becomes a
    /// lazy node instead (see [`Decoder::lazy_block`]).
    /// `function` names the function a `FUNCTION_BLOCK` holds.
    fn block(
        &mut self,
        b: &mut Builder,
        name: Name,
        outer_width: u64,
        depth: u32,
        function: Option<Arc<str>>,
    ) -> DResult<()> {
        if depth > 1 {
            if let Some(t) = self.lazy {
                if self.lazy_block(b, &name, outer_width, depth, t, &function)? {
                    return Ok(());
                }
            }
        }
        b.group(name, |b| {
            self.block_contents(b, outer_width, depth, function.as_deref())
        })
    }

    /// Leaves the block at the cursor undecoded if its body holds at least
    /// `threshold` bytes: its header is scanned without making nodes, and one lazy
    /// node over the whole block records what is needed to decode it later (the
    /// BLOCKINFO state in force here included). Only a block whose header is valid
    /// and whose body lies inside the enclosing body is left lazy, so expanding it
    /// gives what decoding it now would; anything else, and BLOCKINFO blocks (whose
    /// abbreviations later blocks need), are decoded now. Returns whether it left
    /// the block lazy. Skipping reads nothing of the body: time and memory do not
    /// depend on its size.
    fn lazy_block(
        &mut self,
        b: &mut Builder,
        name: &Name,
        outer_width: u64,
        depth: u32,
        threshold: u64,
        function: &Option<Arc<str>>,
    ) -> DResult<bool> {
        let start = b.pos_bits();
        let limit = limit_bits(b);
        if depth > MAX_DEPTH {
            return Ok(false);
        }
        let mut p = start.saturating_add(outer_width);
        let Scan::Ok(bid, n) = self.scan_vbr(p, 8, 32, limit) else {
            return Ok(false);
        };
        p += n;
        let Scan::Ok(width, n) = self.scan_vbr(p, 4, 32, limit) else {
            return Ok(false);
        };
        p += n;
        if bid == names::BLOCKINFO_BLOCK || width == 0 || width > MAX_VBR_WIDTH {
            return Ok(false);
        }
        let rel = p.wrapping_sub(self.align_base) % 32;
        if rel != 0 {
            p += 32 - rel;
        }
        if p.saturating_add(32) > limit {
            return Ok(false);
        }
        let words = self.peek(p, 32);
        p += 32;
        let body_bytes = words.saturating_mul(4);
        let end = p.saturating_add(body_bytes.saturating_mul(8));
        if body_bytes < threshold || end > limit {
            return Ok(false);
        }
        let label = self.function_label(bid, function.as_deref());
        let recipe = LazyBlock {
            header_bit: start,
            outer_width,
            depth,
            data_start: self.start,
            data_len: self.end - self.start,
            align_base: self.align_base,
            info: Arc::clone(&self.info),
            outer_limit: limit,
            outer_bound: b.bound().into(),
            vouched: self.vouched,
            page_index: self.page_index.clone(),
            function: function.clone(),
        };
        let id = b.lazy_node(name.clone(), Kind::Struct, end - start, Arc::new(recipe))?;
        b.set_display(
            id,
            format!("{label}, {}, not decoded yet", human_size(body_bytes)),
        );
        let key = self.block_key(bid, function.as_deref());
        b.set_key(id, key);
        self.stats.lazy_blocks += 1;
        Ok(true)
    }

    /// Decodes a block left lazy by [`Decoder::lazy_block`]: its header and body
    /// become children of node `id`, appended to the tree; the same threshold
    /// applies to its sub-blocks. A BLOCKINFO block inside it takes effect for the
    /// blocks after it inside this block only: blocks after the lazy block were
    /// already decoded with the BLOCKINFO state from before it. (LLVM writes its
    /// BLOCKINFO at the start of the module, before any block big enough to be
    /// lazy.)
    pub(crate) fn expand_block(
        src: &dyn ByteSource,
        tree: Tree,
        id: NodeId,
        r: &LazyBlock,
    ) -> Tree {
        let mut b = Builder::resume(src, tree, id, r.outer_limit, r.outer_bound.as_ref().into());
        let first_new = b.tree().len();
        let mut d = Decoder::new(&b, r.data_start, r.data_len, 0);
        d.align_base = r.align_base;
        d.info = Arc::clone(&r.info);
        d.vouched = r.vouched;
        d.page_index = r.page_index.clone();
        b.seek_bits(r.header_bit);
        // A Stop here has already recorded its error on the node.
        let _ = d.block_contents(&mut b, r.outer_width, r.depth, r.function.as_deref());
        b.finish_expansion(first_new)
    }

    /// A block's header and body, into the open group.
    ///
    /// Laziness stops at blocks: every record directly inside this block (not in a
    /// sub-block) is decoded here, however many there are. Measured with
    /// `examples/lazy_scale.rs --records`: one block of 1,000,000 three-operand
    /// records (4.9 MB of bitcode) makes 7,000,000 nodes, takes 5.4 s and peaks at
    /// 1.2 GB (about 250 bytes of memory per byte of records), so a block holding
    /// more than about 1 MB of records directly overruns a 256 MiB budget when
    /// expanded. Real modules keep such volume in sub-blocks (function, constants,
    /// metadata blocks), which stay lazy.
    /// `function` names the function a `FUNCTION_BLOCK` holds.
    fn block_contents(
        &mut self,
        b: &mut Builder,
        outer_width: u64,
        depth: u32,
        function: Option<&str>,
    ) -> DResult<()> {
        let gid = b.current();
        let outer_limit = limit_bits(b);
        b.bits("AbbrevID", outer_width)?;
        b.display("ENTER_SUBBLOCK");
        let (bid_node, bid) = self.vbr(b, "BlockID", 8, 32)?;
        let label = self.function_label(bid, function);
        if bid == names::MODULE_BLOCK {
            self.module_version = 0;
        }
        let short = self
            .block_name(bid)
            .unwrap_or("not named by LLVM")
            .to_string();
        b.set_display(bid_node, short);
        let (w_node, width) = self.vbr(b, "AbbrevWidth", 4, 32)?;
        if width == 0 || width > MAX_VBR_WIDTH {
            b.set_error(
                w_node,
                format!(
                    "abbreviation IDs of {width} bits cannot be read (1 to {MAX_VBR_WIDTH} bits)"
                ),
            );
            return Err(Stop);
        }
        self.align(b)?;
        let Field {
            value: words,
            id: nw_node,
        } = b.bits_field("NumWords", 32)?;
        let body_bit = b.pos_bits();
        let body_bytes = words.saturating_mul(4);
        b.set_display(
            nw_node,
            format!(
                "{words} words = {body_bytes} bytes, to 0x{:X}",
                (body_bit / 8).saturating_add(body_bytes)
            ),
        );
        b.set_display(gid, format!("{label}, {words} words, abbrev width {width}"));
        let key = self.block_key(bid, function);
        b.set_key(gid, key);
        self.stats.blocks += 1;
        if bid == names::MODULE_BLOCK && depth == 1 {
            // The names of its functions, before any of its blocks is met.
            let end = body_bit.saturating_add(body_bytes.saturating_mul(8));
            self.global_values = 0;
            self.function_blocks = 0;
            self.module_names = self
                .module_names(body_bit, end.min(outer_limit), width, outer_limit)
                .map(|n| (body_bit, n));
        }
        if depth > MAX_DEPTH {
            b.set_error(
                gid,
                format!(
                    "blocks nest deeper than {MAX_DEPTH} levels; this block's body is not decoded"
                ),
            );
            b.region("Body", Kind::Struct, body_bit / 8, body_bytes, |b| {
                let n = b.remaining();
                if n > 0 {
                    b.bytes("Raw", n)?;
                }
                Ok(())
            });
            return Ok(());
        }
        let resume = BlockResume {
            node: gid,
            block_id: bid,
            body_bit,
            body_bytes,
            abbrev_width: width,
            depth,
            info: Arc::clone(&self.info),
        };
        self.blocks.push(resume.clone());
        self.decode_body(b, &resume, Some(nw_node));
        Ok(())
    }

    /// Decodes a block's body (its entries up to `END_BLOCK`) as a `Body` region
    /// bounded by the block's `NumWords`. `words_node`, if given, receives an error
    /// when `END_BLOCK` does not end the body where `NumWords` says.
    pub fn decode_body(&mut self, b: &mut Builder, r: &BlockResume, words_node: Option<NodeId>) {
        if self.paged_body(b, r) {
            return;
        }
        let end = b.region("Body", Kind::Array, r.body_bit / 8, r.body_bytes, |b| {
            b.seek(r.body_bit / 8);
            self.body(b, r)
        });
        let claimed = r.body_bit.saturating_add(r.body_bytes.saturating_mul(8));
        if let (Some(end), Some(id)) = (end, words_node) {
            if end != claimed {
                b.set_error(
                    id,
                    format!(
                        "NumWords says the block ends at 0x{:X}, but its END_BLOCK ends it at 0x{:X}, after {}",
                        claimed / 8,
                        end / 8,
                        words((end - r.body_bit) / 32)
                    ),
                );
            }
        }
    }

    /// Shows the body of a block below the top level as pages of entries, each
    /// a lazy node, when the decoder pages lists and the body holds more entries
    /// than a page (see [`crate::Options::page_size`]); the skim finds where the
    /// pages start. Returns false, having made nothing, when the body is not
    /// paged (then it is decoded whole).
    fn paged_body(&mut self, b: &mut Builder, r: &BlockResume) -> bool {
        let Some(n) = self.page_size else {
            return false;
        };
        if r.depth < 2 || self.lazy.is_none() {
            return false;
        }
        let limit = r.body_bit.saturating_add(r.body_bytes.saturating_mul(8));
        if limit > self.end.saturating_mul(8) || limit > b.limit().saturating_mul(8) {
            return false;
        }
        let pages = match &self.page_index {
            // One skim of the whole stream found every body's pages.
            Some(index) => match index.get(&r.body_bit) {
                Some(p) => Arc::clone(p),
                None => return false,
            },
            None => match self.skim_pages(
                r.block_id,
                r.abbrev_width,
                r.depth,
                r.body_bit,
                limit,
                &r.info,
                n,
            ) {
                Some(p) => Arc::new(p),
                None => return false,
            },
        };
        if pages.end != limit || pages.entries <= n as u64 {
            return false;
        }
        b.region("Body", Kind::Array, r.body_bit / 8, r.body_bytes, |b| {
            b.seek_bits(r.body_bit);
            let count = pages.marks.len();
            for (k, m) in pages.marks.iter().enumerate() {
                let (to, last_index) = match pages.marks.get(k + 1) {
                    Some(next) => (next.bit, next.index as u64 - 1),
                    None => (pages.end, pages.entries - 1),
                };
                let recipe = BodyPage {
                    block_id: r.block_id,
                    abbrev_width: r.abbrev_width,
                    depth: r.depth,
                    info: Arc::clone(&r.info),
                    first: m.index,
                    count: if k + 1 == count {
                        u32::MAX
                    } else {
                        (last_index + 1 - m.index as u64) as u32
                    },
                    start_bit: m.bit,
                    abbrevs: m.abbrevs.clone(),
                    data_start: self.start,
                    data_len: self.end - self.start,
                    align_base: self.align_base,
                    body_limit: limit,
                    bound: b.bound().into(),
                    vouched: self.vouched,
                    page_index: self.page_index.clone(),
                };
                let name = Name::from(format!("[{}…{}]", m.index, last_index));
                let id = b.lazy_node(name, Kind::Array, to - m.bit, Arc::new(recipe))?;
                b.set_page(id);
                // The children it will have: its entries, and the END_BLOCK on the last.
                let held = last_index + 1 - m.index as u64 + u64::from(k + 1 == count);
                b.set_value(id, Value::U(held));
                b.set_display(
                    id,
                    format!(
                        "entries {} to {} of {}, not decoded yet",
                        m.index, last_index, pages.entries
                    ),
                );
            }
            Ok(())
        });
        true
    }

    /// Decodes a page of a body's entries (a [`BodyPage`]) into lazy node `id`.
    fn expand_page(src: &dyn ByteSource, tree: Tree, id: NodeId, p: &BodyPage) -> Tree {
        let mut b = Builder::resume(src, tree, id, p.body_limit, p.bound.as_ref().into());
        let first_new = b.tree().len();
        let mut d = Decoder::new(&b, p.data_start, p.data_len, 0);
        d.align_base = p.align_base;
        d.info = Arc::clone(&p.info);
        d.vouched = p.vouched;
        d.page_index = p.page_index.clone();
        b.seek_bits(p.start_bit);
        let r = BlockResume {
            node: id,
            block_id: p.block_id,
            body_bit: p.start_bit,
            body_bytes: 0,
            abbrev_width: p.abbrev_width,
            depth: p.depth,
            info: Arc::clone(&p.info),
        };
        // A Stop here has already recorded its error on the node.
        let _ = d.entries(&mut b, &r, p.abbrevs.clone(), p.first, p.count);
        b.finish_expansion(first_new)
    }

    /// The entries of a body; returns the bit where `END_BLOCK` ended it.
    fn body(&mut self, b: &mut Builder, r: &BlockResume) -> DResult<u64> {
        if r.block_id == names::BLOCKINFO_BLOCK {
            // Like llvm-bcanalyzer, a BLOCKINFO block replaces what earlier ones said.
            self.info = Arc::new(BlockInfo::default());
        }
        let abbrevs: Vec<Arc<Abbrev>> = r.info.abbrevs(r.block_id).to_vec();
        self.entries(b, r, abbrevs, 0, u32::MAX)
            .map(|end| end.unwrap_or(b.pos_bits()))
    }

    /// Entries of a body from the cursor, numbered from `first`, with `abbrevs`
    /// in force: up to `END_BLOCK` (returns the bit after it), or until `count`
    /// entries are read (returns `None`).
    fn entries(
        &mut self,
        b: &mut Builder,
        r: &BlockResume,
        mut abbrevs: Vec<Arc<Abbrev>>,
        first: u32,
        count: u32,
    ) -> DResult<Option<u64>> {
        let width = r.abbrev_width;
        let mut cur_bid: Option<u64> = None;
        let mut i = first;
        loop {
            if i - first >= count {
                return Ok(None);
            }
            let pos = b.pos_bits();
            if pos.saturating_add(width) > limit_bits(b) {
                let r = b.bits("AbbrevID", width);
                b.error("the block has no END_BLOCK before the end its NumWords gives");
                r?;
                return Err(Stop);
            }
            match self.peek(pos, width) {
                END_BLOCK => {
                    b.group("END_BLOCK", |b| {
                        b.bits("AbbrevID", width)?;
                        b.display("END_BLOCK");
                        self.align(b)
                    })?;
                    return Ok(Some(b.pos_bits()));
                }
                ENTER_SUBBLOCK => {
                    let function = self.function_at(r, pos);
                    self.block(b, Name::Index(i), width, r.depth + 1, function)?
                }
                DEFINE_ABBREV => self.define_abbrev(b, i, r, &mut abbrevs, cur_bid)?,
                UNABBREV_RECORD => self.unabbreviated(b, i, r, &mut cur_bid)?,
                id => self.abbreviated(b, i, r, id, &abbrevs, &mut cur_bid)?,
            }
            i = i.saturating_add(1);
        }
    }

    // ----- abbreviations ----------------------------------------------------------

    fn define_abbrev(
        &mut self,
        b: &mut Builder,
        i: u32,
        r: &BlockResume,
        abbrevs: &mut Vec<Arc<Abbrev>>,
        cur_bid: Option<u64>,
    ) -> DResult<()> {
        b.item(i as u64, |b| {
            let gid = b.current();
            let start = b.pos_bits();
            b.bits("AbbrevID", r.abbrev_width)?;
            b.display("DEFINE_ABBREV");
            let (n_node, n) = self.vbr(b, "NumOps", 5, 32)?;
            let left = limit_bits(b).saturating_sub(b.pos_bits());
            if n == 0 {
                b.set_error(n_node, "an abbreviation needs at least one operand");
                return Err(Stop);
            }
            if n.saturating_mul(4) > left {
                b.set_error(
                    n_node,
                    format!("{n} operand definitions need at least {} bits, but only {left} bits are left in the block", n.saturating_mul(4)),
                );
                return Err(Stop);
            }
            let mut ops: Vec<AbbrevOp> = Vec::new();
            for k in 0..n {
                let op_start = b.pos_bits();
                let enc = self.abbrev_op(b, Name::Index(k.min(u32::MAX as u64) as u32))?;
                ops.push(AbbrevOp {
                    enc,
                    def: BitSpan {
                        start: op_start,
                        end: b.pos_bits(),
                    },
                });
            }
            let problem = Abbrev::validate(&ops);
            let a = Arc::new(Abbrev {
                ops,
                def: BitSpan {
                    start,
                    end: b.pos_bits(),
                },
                problem: problem.clone(),
            });
            let desc = a.describe();
            if r.block_id == names::BLOCKINFO_BLOCK {
                let Some(target) = cur_bid else {
                    b.set_error(gid, "DEFINE_ABBREV in BLOCKINFO before any SETBID says which block it is for");
                    return Err(Stop);
                };
                let id = Arc::make_mut(&mut self.info).add_abbrev(target, a);
                let label = self.block_label(target);
                b.set_display(gid, format!("DEFINE_ABBREV for {label} as abbrev {id}: {desc}"));
                let key = format!("DEFINE_ABBREV for {}", self.block_key(target, None));
                b.set_key(gid, key);
            } else {
                abbrevs.push(a);
                b.set_display(
                    gid,
                    format!("DEFINE_ABBREV as abbrev {}: {desc}", 3 + abbrevs.len()),
                );
                b.set_key(gid, "DEFINE_ABBREV");
            }
            if let Some(p) = problem {
                b.set_error(gid, format!("no record can use this abbreviation: {p}"));
            }
            self.stats.abbrev_defs += 1;
            Ok(())
        })
    }

    /// One operand definition of a `DEFINE_ABBREV`: an `IsLiteral` bit, then a
    /// `vbr8` literal value, or a 3-bit encoding and, for fixed and vbr, a `vbr5`
    /// width. It becomes one node over all its bits; its value names the encoding
    /// and its display lists the fields.
    fn abbrev_op(&self, b: &mut Builder, name: Name) -> DResult<Encoding> {
        let pos = b.pos_bits();
        let limit = limit_bits(b);
        let short = |b: &mut Builder, name: Name| -> DResult<Encoding> {
            b.bits(name, limit.saturating_sub(pos).saturating_add(1))?;
            Err(Stop)
        };
        let bad = |b: &mut Builder, name: Name, n: u64, msg: String| -> DResult<Encoding> {
            b.bits(name, n)?;
            b.error(msg);
            Err(Stop)
        };
        if pos.saturating_add(1) > limit {
            return short(b, name);
        }
        let (enc, nbits, fields) = if self.peek(pos, 1) == 1 {
            match self.scan_vbr(pos + 1, 8, 64, limit) {
                Scan::Ok(v, n) => (
                    Encoding::Literal(v),
                    1 + n,
                    format!("IsLiteral 1, Value {v} (vbr8)"),
                ),
                Scan::Short => return short(b, name),
                Scan::Unterminated(n) => {
                    return bad(
                        b,
                        name,
                        1 + n,
                        "the literal's vbr8 is not terminated within 64 bits".into(),
                    )
                }
            }
        } else {
            if pos.saturating_add(4) > limit {
                return short(b, name);
            }
            let e = self.peek(pos + 1, 3);
            match e {
                1 | 2 => {
                    let kind = if e == 1 { "Fixed" } else { "VBR" };
                    let (w, n) = match self.scan_vbr(pos + 4, 5, 64, limit) {
                        Scan::Ok(w, n) => (w, n),
                        Scan::Short => return short(b, name),
                        Scan::Unterminated(n) => {
                            return bad(
                                b,
                                name,
                                4 + n,
                                "the width's vbr5 is not terminated within 64 bits".into(),
                            )
                        }
                    };
                    let fields = format!("IsLiteral 0, Encoding {e} ({kind}), Width {w} (vbr5)");
                    let enc = if w == 0 {
                        // LLVM reads fixed(0) and vbr(0) as the literal 0.
                        Encoding::Literal(0)
                    } else if e == 1 && w > MAX_FIXED_WIDTH {
                        return bad(
                            b,
                            name,
                            4 + n,
                            format!(
                                "a fixed field of {w} bits is wider than {MAX_FIXED_WIDTH} bits"
                            ),
                        );
                    } else if e == 2 && !(2..=MAX_VBR_WIDTH).contains(&w) {
                        return bad(
                            b,
                            name,
                            4 + n,
                            format!(
                                "vbr chunks of {w} bits cannot be read (2 to {MAX_VBR_WIDTH} bits)"
                            ),
                        );
                    } else if e == 1 {
                        Encoding::Fixed(w)
                    } else {
                        Encoding::Vbr(w)
                    };
                    (enc, 4 + n, fields)
                }
                3 => (Encoding::Array, 4, "IsLiteral 0, Encoding 3 (Array)".into()),
                4 => (Encoding::Char6, 4, "IsLiteral 0, Encoding 4 (Char6)".into()),
                5 => (Encoding::Blob, 4, "IsLiteral 0, Encoding 5 (Blob)".into()),
                _ => {
                    return bad(
                        b,
                        name,
                        4,
                        format!(
                        "encoding {e} is not defined (1 fixed, 2 vbr, 3 array, 4 char6, 5 blob)"
                    ),
                    )
                }
            }
        };
        let id = Self::leaf(b, name, nbits, Value::Str(enc.describe()))?;
        b.set_display(id, fields);
        Ok(enc)
    }

    // ----- records ----------------------------------------------------------------

    fn unabbreviated(
        &mut self,
        b: &mut Builder,
        i: u32,
        r: &BlockResume,
        cur_bid: &mut Option<u64>,
    ) -> DResult<()> {
        b.item(i as u64, |b| {
            let gid = b.current();
            b.bits("AbbrevID", r.abbrev_width)?;
            b.display("UNABBREV_RECORD");
            let (_, code) = self.vbr(b, "Code", 6, 32)?;
            let (n_node, n) = self.vbr(b, "NumOps", 6, 32)?;
            let pos = b.pos_bits();
            let limit = limit_bits(b);
            let left = limit.saturating_sub(pos);
            if n.saturating_mul(6) > left {
                b.set_error(
                    n_node,
                    format!("{n} operands need at least {} bits, but only {left} bits are left in the block", n.saturating_mul(6)),
                );
                return Err(Stop);
            }
            // Scan the operands first so character operands can become one node.
            let mut vals: Vec<u64> = Vec::with_capacity(n as usize);
            let mut widths: Vec<u64> = Vec::with_capacity(n as usize);
            let mut p = pos;
            while (vals.len() as u64) < n {
                match self.scan_vbr(p, 6, 64, limit) {
                    Scan::Ok(v, w) => {
                        vals.push(v);
                        widths.push(w);
                        p += w;
                    }
                    _ => break,
                }
            }
            let complete = vals.len() as u64 == n;
            let text_from = names::text_start(r.block_id, code)
                .filter(|&s| complete && s < vals.len() && is_text_in(r.block_id, code, &vals[s..]));
            let mut text = None;
            {
                let upto = text_from.unwrap_or(n as usize);
                for k in 0..upto {
                    let name = Name::Index(k as u32);
                    match (vals.get(k), widths.get(k)) {
                        (Some(&v), Some(&w)) => {
                            Self::leaf(b, name, w, Value::U(v))?;
                        }
                        _ => {
                            // The scan stopped here: reading it records the error.
                            self.vbr(b, name, 6, 64)?;
                        }
                    }
                }
                if let Some(s) = text_from {
                    let t = text_of(&vals[s..]);
                    let bits: u64 = widths[s..].iter().sum();
                    let id = Self::leaf(b, Name::Static("Text"), bits, Value::Str(t.clone()))?;
                    b.set_display(id, format!("{} characters, vbr6 each", vals.len() - s));
                    text = Some(t);
                }
            }
            self.finish_record(b, gid, code, None, &vals, text, r, cur_bid);
            Ok(())
        })
    }

    fn abbreviated(
        &mut self,
        b: &mut Builder,
        i: u32,
        r: &BlockResume,
        id: u64,
        abbrevs: &[Arc<Abbrev>],
        cur_bid: &mut Option<u64>,
    ) -> DResult<()> {
        b.item(i as u64, |b| {
            let gid = b.current();
            let aid_node = b.bits_field("AbbrevID", r.abbrev_width)?.id;
            let from_info = r.info.abbrevs(r.block_id).len();
            let Some(a) = abbrevs.get((id - 4) as usize).cloned() else {
                b.set_error(
                    aid_node,
                    format!(
                        "abbrev ID {id} is not defined in this block (it has {} abbreviations: {from_info} from BLOCKINFO, {} defined here)",
                        abbrevs.len(),
                        abbrevs.len() - from_info.min(abbrevs.len())
                    ),
                );
                return Err(Stop);
            };
            if let Some(p) = &a.problem {
                b.set_error(aid_node, format!("abbrev {id} cannot be used: {p}"));
                return Err(Stop);
            }
            let code_op = a.ops[0];
            let code = match code_op.enc {
                Encoding::Literal(v) => {
                    b.derived("Code", Value::U(v), code_op.def, None)?;
                    v
                }
                enc => self.scalar(b, Name::Static("Code"), enc)?.1,
            };
            let mut vals: Vec<u64> = Vec::new();
            let mut text = None;
            {
                let mut k = 1;
                while k < a.ops.len() {
                    let op = a.ops[k];
                    let name = Name::Index(vals.len().min(u32::MAX as usize) as u32);
                    match op.enc {
                        Encoding::Literal(v) => {
                            let id = b.derived(name, Value::U(v), op.def, None)?;
                            b.set_display(id, "literal from the abbreviation");
                            vals.push(v);
                        }
                        Encoding::Array => {
                            let elt = a.ops[k + 1].enc;
                            text = self.array(b, elt, &mut vals, r.block_id, code)?;
                            k += 1;
                        }
                        Encoding::Blob => {
                            let split = match (r.block_id, code) {
                                (names::STRTAB_BLOCK, 1) => Split::Strtab,
                                (names::METADATA_BLOCK, 35) if vals.len() == 2 => {
                                    Split::MetadataStrings {
                                        count: vals[0],
                                        offset: vals[1],
                                    }
                                }
                                _ => Split::Raw,
                            };
                            text = self.blob(b, split)?;
                            self.stats.operands += 1;
                        }
                        enc => {
                            let (_, v) = self.scalar(b, name, enc)?;
                            vals.push(v);
                        }
                    }
                    k += 1;
                }
            }
            self.finish_record(b, gid, code, Some(id), &vals, text, r, cur_bid);
            Ok(())
        })
    }

    /// An array operand: a `vbr6` length, then its elements (one `Text` node when
    /// they are characters).
    fn array(
        &mut self,
        b: &mut Builder,
        elt: Encoding,
        vals: &mut Vec<u64>,
        block: u64,
        code: u64,
    ) -> DResult<Option<String>> {
        b.array("Array", |b| {
            let gid = b.current();
            let (len_node, n) = self.vbr(b, "Length", 6, 32)?;
            let pos = b.pos_bits();
            let limit = limit_bits(b);
            let left = limit.saturating_sub(pos);
            let need = n.saturating_mul(elt.min_bits());
            if need > left {
                b.set_error(
                    len_node,
                    format!("{n} elements of {} need at least {need} bits, but only {left} bits are left in the block", elt.describe()),
                );
                return Err(Stop);
            }
            let mut ev: Vec<u64> = Vec::with_capacity(n as usize);
            let mut ew: Vec<u64> = Vec::with_capacity(n as usize);
            let mut p = pos;
            while (ev.len() as u64) < n {
                let (v, w) = match elt {
                    Encoding::Fixed(w) => (self.peek(p, w), w),
                    Encoding::Char6 => (char6(self.peek(p, 6)) as u64, 6),
                    Encoding::Vbr(w) => match self.scan_vbr(p, w, 64, limit) {
                        Scan::Ok(v, n) => (v, n),
                        _ => break,
                    },
                    _ => break,
                };
                if p.saturating_add(w) > limit {
                    break;
                }
                ev.push(v);
                ew.push(w);
                p += w;
            }
            let texty = ev.len() as u64 == n
                && match elt {
                    Encoding::Char6 => true,
                    Encoding::Fixed(7) | Encoding::Fixed(8) => true,
                    Encoding::Vbr(_) => names::text_start(block, code).is_some(),
                    _ => false,
                }
                && is_text_in(block, code, &ev);
            self.stats.operands += n;
            if texty {
                let t = text_of(&ev);
                let bits: u64 = ew.iter().sum();
                let id = Self::leaf(b, Name::Static("Text"), bits, Value::Str(t.clone()))?;
                b.set_display(id, format!("{n} characters, {} each", elt.describe()));
                b.set_value(gid, Value::Str(t.clone()));
                vals.extend_from_slice(&ev);
                return Ok(Some(t));
            }
            for j in 0..n as usize {
                let name = Name::Index(vals.len().min(u32::MAX as usize) as u32);
                let v = match (ev.get(j), ew.get(j)) {
                    (Some(&v), Some(&w)) => {
                        let id = Self::leaf(b, name, w, Value::U(v))?;
                        if elt == Encoding::Char6 {
                            b.set_display(id, format!("'{}'", v as u8 as char));
                        }
                        v
                    }
                    _ => self.scalar(b, name, elt)?.1,
                };
                vals.push(v);
            }
            Ok(None)
        })
    }

    /// A blob operand: `vbr6` length, alignment, the bytes, alignment. Returns the
    /// bytes as text when they are printable.
    fn blob(&mut self, b: &mut Builder, split: Split) -> DResult<Option<String>> {
        b.group("Blob", |b| {
            let gid = b.current();
            let (len_node, n) = self.vbr(b, "Length", 6, 32)?;
            self.align(b)?;
            let pad = (4 - n % 4) % 4;
            let left = limit_bits(b).saturating_sub(b.pos_bits()) / 8;
            if n.saturating_add(pad) > left {
                b.set_error(
                    len_node,
                    format!("a blob of {n} bytes (+{pad} padding) does not fit in the {left} bytes left in the block"),
                );
                return Err(Stop);
            }
            let mut text = None;
            if n > 0 {
                let at = b.pos();
                let id = match split {
                    Split::Strtab => self.strtab(b, n)?,
                    Split::MetadataStrings { count, offset } => {
                        self.metadata_strings(b, n, count, offset)?
                    }
                    Split::Raw => b.bytes("Data", n)?,
                };
                let shown = n.min(crate::builder::MAX_STRING_VALUE as u64);
                let bytes = b.peek_bytes(at, shown);
                let vals: Vec<u64> = bytes.iter().map(|&c| c as u64).collect();
                if is_text(&vals) {
                    let t = text_of(&vals);
                    b.set_value(id, Value::Str(t.clone()));
                    b.set_value(gid, Value::Str(t.clone()));
                    text = Some(t);
                }
            }
            if pad > 0 {
                b.padding("Pad", pad)?;
            }
            b.set_display(gid, format!("{n} bytes"));
            Ok(text)
        })
    }

    /// The bytes of a `STRTAB_BLOB` (`STRTAB_BLOCK`, record 1): a `Data` node whose
    /// children are the names the module records before it refer to, in offset
    /// order (`[i]`, text), with the bytes no record refers to as `Unreferenced`
    /// runs. Each referring record gets the name in its display and the name's
    /// bytes as its reference; a reference outside the blob is an error on it.
    fn strtab(&mut self, b: &mut Builder, n: u64) -> DResult<NodeId> {
        let at = b.pos();
        let refs = std::mem::take(&mut self.strtab_refs);
        // Each name once, in string-table order, with the first referrer's record
        // code and how many refer to it (refs sorted stably, then runs counted:
        // a module of thousands of globals made a search per ref quadratic).
        let mut valid: Vec<(u64, u64, u64)> = refs
            .iter()
            .filter(|r| r.size != 0 && r.offset.checked_add(r.size).is_some_and(|e| e <= n))
            .map(|r| (r.offset, r.size, r.code))
            .collect();
        crate::sorted::sort_by_key(&mut valid, |r| (r.0, r.1));
        let mut names: Vec<(u64, u64, u64, usize)> = Vec::new(); // offset, size, code, users
        for (offset, size, code) in valid {
            match names.last_mut() {
                Some(x) if (x.0, x.1) == (offset, size) => x.3 += 1,
                _ => names.push((offset, size, code, 1)),
            }
        }
        let id = if names.is_empty() {
            b.bytes("Data", n)?
        } else {
            b.valued_group_field("Data", Kind::Bytes, |b| {
                let mut cur = 0u64;
                let mut k = 0u32;
                for &(off, size, code, users) in &names {
                    // Names that overlap an earlier one are resolved on their
                    // records but get no node of their own.
                    if off < cur {
                        continue;
                    }
                    if off > cur {
                        b.bytes("Unreferenced", off - cur)?;
                        b.display("no record refers to these bytes");
                    }
                    b.fixed_str(Name::Index(k), size)?;
                    let what = self
                        .record_name(names::MODULE_BLOCK, code)
                        .unwrap_or("record");
                    if users == 1 {
                        b.display(format!("name of a {what} record"));
                    } else {
                        b.display(format!("name of {users} records"));
                    }
                    k += 1;
                    cur = off + size;
                }
                if cur < n {
                    b.bytes("Unreferenced", n - cur)?;
                    b.display("no record refers to these bytes");
                }
                Ok(())
            })?
            .id
        };
        for r in refs {
            let inside = r.offset.checked_add(r.size).is_some_and(|e| e <= n);
            if !inside {
                b.set_error(
                    r.record,
                    format!(
                        "its name ({} bytes at string table offset {}) lies outside the {n}-byte string table",
                        r.size, r.offset
                    ),
                );
                continue;
            }
            let from = at + r.offset;
            let bytes = b.peek_bytes(from, r.size.min(crate::builder::MAX_STRING_VALUE as u64));
            let name = String::from_utf8_lossy(&bytes).into_owned();
            let shown = b
                .tree()
                .display(r.record)
                .as_deref()
                .unwrap_or("")
                .to_string();
            b.set_display(r.record, format!("{shown}: \"{}\"", short(&name)));
            b.set_reference(r.record, BitSpan::bytes(from, from + r.size));
            let op0 = b
                .tree()
                .children(r.record)
                .iter()
                .copied()
                .find(|&c| b.tree().name(c) == crate::tree::NameRef::Index(0));
            if let Some(op0) = op0 {
                b.set_display(op0, format!("string table offset of \"{}\"", short(&name)));
            }
        }
        Ok(id)
    }

    /// The bytes of a `METADATA_STRINGS` blob (`METADATA_BLOCK`, record 35, whose
    /// operands are the string count and the offset of the characters): `count`
    /// string lengths as `vbr6` fields from the blob's start (`Lengths`, each
    /// exact to the bit), zero bits to the next 32-bit word (`Pad`), then at
    /// `offset` the strings one after another (`Strings`, text). This is the layout
    /// LLVM's writer gives it (`writeMetadataStrings`) and its reader expects. A blob
    /// that does not hold what the operands say stays one run, with an error.
    fn metadata_strings(
        &mut self,
        b: &mut Builder,
        n: u64,
        count: u64,
        offset: u64,
    ) -> DResult<NodeId> {
        let start = b.pos_bits();
        let mut lens: Vec<(u64, u64)> = Vec::new();
        let problem = if offset > n {
            Some(format!(
                "the characters' offset {offset} lies past the end of the {n}-byte blob"
            ))
        } else {
            let lim = start + offset * 8;
            let mut p = start;
            let mut total = 0u64;
            let mut problem = None;
            // Each length takes at least 6 bits, which bounds the loop.
            while (lens.len() as u64) < count {
                match self.scan_vbr(p, 6, 32, lim) {
                    Scan::Ok(v, w) => {
                        lens.push((v, w));
                        total = total.saturating_add(v);
                        p += w;
                    }
                    _ => {
                        problem = Some(format!(
                            "the blob holds only {} of the {count} string lengths before the characters at offset {offset}",
                            lens.len()
                        ));
                        break;
                    }
                }
            }
            if problem.is_none() && total > n - offset {
                problem = Some(format!(
                    "the {count} strings need {total} bytes, but only {} follow the offset {offset}",
                    n - offset
                ));
            }
            problem
        };
        if let Some(msg) = problem {
            let id = b.bytes("Data", n)?;
            b.set_error(id, msg);
            return Ok(id);
        }
        let data = b.valued_group_field("Data", Kind::Bytes, |b| {
            let gid = b.current();
            b.array("Lengths", |b| {
                for (i, &(v, w)) in lens.iter().enumerate() {
                    Self::leaf(b, Name::Index(i as u32), w, Value::U(v))?;
                }
                Ok(())
            })?;
            b.display(format!("{count} string lengths, vbr6 each"));
            let used = b.pos_bits() - start;
            if used < offset * 8 {
                b.bits("Pad", offset * 8 - used)?;
                b.display("zero bits to the next 32-bit word");
            }
            b.array("Strings", |b| {
                for (i, &(len, _)) in lens.iter().enumerate() {
                    let at = b.pos();
                    let id = b.fixed_str_field(Name::Index(i as u32), len)?.id;
                    let shown = len.min(crate::builder::MAX_STRING_VALUE as u64);
                    let bytes = b.peek_bytes(at, shown);
                    b.set_value(id, Value::Str(String::from_utf8_lossy(&bytes).into_owned()));
                }
                Ok(())
            })?;
            b.display(format!("{count} strings"));
            let rest = n - offset - lens.iter().map(|l| l.0).sum::<u64>();
            if rest > 0 {
                b.bytes("Unused", rest)?;
                b.display("bytes after the last string");
            }
            b.set_display(gid, format!("{count} metadata strings"));
            Ok(())
        })?;
        Ok(data.id)
    }

    /// Names a record, counts it, and applies BLOCKINFO records.
    #[allow(clippy::too_many_arguments)]
    fn finish_record(
        &mut self,
        b: &mut Builder,
        gid: NodeId,
        code: u64,
        abbrev: Option<u64>,
        vals: &[u64],
        text: Option<String>,
        r: &BlockResume,
        cur_bid: &mut Option<u64>,
    ) {
        self.stats.records += 1;
        self.stats.operands += vals.len() as u64;
        // Most records show only their label and abbreviation: rendered from the
        // tree when shown (nothing stored). Records with text, BLOCKINFO records,
        // records named by the file's BLOCKINFO and records whose name is still to
        // come from the string table keep their text.
        let mut rendered = text.is_none()
            && r.block_id != names::BLOCKINFO_BLOCK
            && (names::record_name(r.block_id, code).is_some()
                || self.info.record_name(r.block_id, code).is_none());
        // Before VERSION 2, a global value's name is in the module's symbol table.
        let mut named: Option<(Arc<str>, BitSpan)> = None;
        if r.block_id == names::MODULE_BLOCK && matches!(code, 7 | 8 | 9 | 14 | 18) {
            if let Some((body, n)) = &self.module_names {
                if *body == r.body_bit {
                    if self.module_version < 2 {
                        named = n.value(self.global_values);
                    }
                    self.global_values += 1;
                }
            }
            rendered &= named.is_none();
        }
        if r.block_id == names::MODULE_BLOCK {
            match (code, vals) {
                // VERSION 2 and later: global names live in the STRTAB block.
                (1, [v, ..]) => self.module_version = *v,
                // GLOBALVAR, FUNCTION, COMDAT, ALIAS, IFUNC: [strtab_offset, strtab_size, …]
                (7 | 8 | 12 | 14 | 18, [offset, size, ..]) if self.module_version >= 2 => {
                    rendered = false;
                    self.strtab_refs.push(StrtabRef {
                        record: gid,
                        code,
                        offset: *offset,
                        size: *size,
                    })
                }
                _ => {}
            }
        }
        if rendered {
            b.set_display_keyed(gid, record_display, record_key);
            return;
        }
        let key = self
            .record_name(r.block_id, code)
            .unwrap_or("record")
            .to_string();
        b.set_key(gid, key);
        let mut display = String::new();
        let _ = write_record_line(
            &mut display,
            self.record_name(r.block_id, code),
            code,
            abbrev,
        );
        if let Some(t) = &text {
            display.push_str(&format!(": \"{}\"", short(t)));
        }
        if let Some((name, span)) = named {
            display.push_str(&format!(": \"{}\"", short(&name)));
            b.set_reference(gid, span);
        }
        if r.block_id == names::BLOCKINFO_BLOCK {
            let info = Arc::make_mut(&mut self.info);
            match code {
                1 => match vals.first() {
                    Some(&bid) => {
                        *cur_bid = Some(bid);
                        display = format!("{display}: abbreviations for {}", self.block_label(bid));
                    }
                    None => b.set_error(gid, "SETBID needs the block ID as its operand"),
                },
                2 | 3 => match *cur_bid {
                    None => b.set_error(gid, "BLOCKINFO names a block before any SETBID"),
                    Some(bid) if code == 2 => info.set_block_name(bid, text_of(vals)),
                    Some(bid) => match vals.split_first() {
                        Some((&c, name)) => info.set_record_name(bid, c, text_of(name)),
                        None => b.set_error(gid, "SETRECORDNAME needs a record code and a name"),
                    },
                },
                _ => {}
            }
        }
        b.set_display(gid, display);
    }
}

#[cfg(test)]
mod tests {
    use super::human_size;

    /// What the sizes read before they were computed in integers.
    fn with_floats(n: u64) -> String {
        const UNITS: [&str; 3] = ["KiB", "MiB", "GiB"];
        if n < 1024 {
            return format!("{n} bytes");
        }
        let mut v = n as f64 / 1024.0;
        let mut u = 0;
        while v >= 1024.0 && u + 1 < UNITS.len() {
            v /= 1024.0;
            u += 1;
        }
        format!("{v:.1} {}", UNITS[u])
    }

    #[test]
    fn sizes_read_as_the_float_rounding_wrote_them() {
        let mut s = 0x1234_5678_9abc_def1u64;
        let mut ns: Vec<u64> = (0..5000).collect();
        for k in 10..50 {
            let p = 1u64 << k;
            ns.extend([p - 1, p, p + 1, p + p / 20, p + p / 20 * 3, p / 10 * 9]);
        }
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ns.push(s >> (s % 40 + 11));
        }
        // Exact halves of a tenth: 1.25 KiB, 3.75 MiB, ….
        ns.extend([
            1280,
            1536 + 256,
            3 * 1024 * 1024 + 768 * 1024,
            1024 * 1024 * 1024 + 128 * 1024 * 1024,
        ]);
        for n in ns {
            assert_eq!(human_size(n), with_floats(n), "{n}");
        }
    }
}
