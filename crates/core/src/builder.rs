//! The tree builder: a bounds-checked reader that records a node around every read.
//!
//! Format code calls `b.u32("FileSize")`, `b.group("Header", |b| …)`,
//! `b.region("Data", start, len, |b| …)`; the builder notes the cursor before and
//! after each read and stores that span on the node. Nothing can read past the end
//! of the file or of the enclosing region: such a read records an error node that
//! says what was expected, what was there and where, marks its ancestors damaged and
//! returns [`Stop`], which unwinds to the nearest [`Builder::region`] (or the root).
//! Everything decoded before the failure stays in the tree.
//!
//! When the tree is finished, bytes inside a parent that no child claims become
//! [`Kind::Unknown`] nodes, so every byte is accounted for.

use crate::source::ByteSource;
use crate::tree::{BitSpan, Kind, Name, NodeId, Render, Tree, Value};
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

/// What a read expected, rendered into its error message only when it fails.
#[derive(Clone, Copy)]
enum What {
    Int(u64),
    SignedInt(u64),
    Bool(u64),
    Bits(u64),
    Bytes(u64),
    Str(u64),
    Text(&'static str),
}

impl fmt::Display for What {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            What::Int(n) => write!(f, "a {n}-byte integer"),
            What::SignedInt(n) => write!(f, "a {n}-byte signed integer"),
            What::Bool(n) => write!(f, "a {n}-byte boolean"),
            What::Bits(1) => f.write_str("1 bit"),
            What::Bits(n) => write!(f, "{n} bits"),
            What::Bytes(n) => write!(f, "{n} bytes"),
            What::Str(n) => write!(f, "a {n}-byte string"),
            What::Text(t) => f.write_str(t),
        }
    }
}

/// Display text given to the builder: fixed text costs the tree no memory.
pub enum Text {
    /// Text known at compile time.
    Static(&'static str),
    /// Text made at run time.
    Owned(String),
}

impl From<&'static str> for Text {
    fn from(s: &'static str) -> Self {
        Text::Static(s)
    }
}

impl From<String> for Text {
    fn from(s: String) -> Self {
        Text::Owned(s)
    }
}

/// Signals that decoding of the current region cannot continue. The error itself is
/// already recorded on a node of the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stop;

/// Result of a builder read.
pub type DResult<T> = Result<T, Stop>;

/// What a read gives when the caller needs its node as well as its value (to put
/// an error, a display or a reference on it later): the value and the node that
/// shows it. The `*_field` reads return it; the plain reads return the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field<T> {
    pub value: T,
    pub id: NodeId,
}

/// Byte order for multi-byte integer reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endian {
    /// Least significant byte first.
    Little,
    /// Most significant byte first.
    Big,
}

/// Longest string an offset may resolve to before it is reported as unterminated.
pub const MAX_REF_STRING: u64 = 4096;
/// Longest string value kept in a node; longer strings are truncated in `value`
/// and their full length is said in `display`.
pub const MAX_STRING_VALUE: usize = 64 * 1024;
/// Byte runs up to this length show their bytes as hex in `display`.
const HEX_PREVIEW: u64 = 32;

struct Frame {
    id: NodeId,
    /// Children pushed while the frame is open (given to the tree when it closes).
    kids: Vec<NodeId>,
    /// Cursor (bits) when the frame opened.
    start: u64,
    /// Reads may not go past this bit.
    limit: u64,
    /// Human name of what bounds the frame, for error messages.
    bound: Rc<str>,
    /// Where its children end if all of them are runs of leaves
    /// ([`Builder::int_leaves`]) lying end to end from its start: it then
    /// closes without a look at each, and holds no gap.
    #[cfg(feature = "ksy")]
    dense: Option<u64>,
}

/// Builds a [`Tree`] while reading from a [`ByteSource`]. See the module docs.
pub struct Builder<'s> {
    src: &'s dyn ByteSource,
    len_bits: u64,
    tree: Tree,
    stack: Vec<Frame>,
    pos: u64,
    last: Option<NodeId>,
    budget: usize,
    /// Groups closed over runs of leaves that fill them (see
    /// [`Frame::dense`]): [`Builder::finish`] looks for no gap in them.
    #[cfg(feature = "ksy")]
    gap_free: Vec<NodeId>,
    endian: Endian,
    lazy_threshold: Option<u64>,
    page_size: Option<u32>,
    exact_totals: bool,
    /// See [`crate::Options::skip_digests`].
    skip_digests: bool,
    /// Children lists of closed frames, kept for reuse.
    spare: Vec<Vec<NodeId>>,
}

/// Nodes the budget allows per byte of decoded data (see [`Builder::new`]).
const NODES_PER_BYTE: u64 = 12;

fn fmt_off(bits: u64) -> String {
    if bits.is_multiple_of(8) {
        format!("0x{:X}", bits / 8)
    } else {
        format!("0x{:X}.{}", bits / 8, bits % 8)
    }
}

/// Renders up to [`HEX_PREVIEW`] bytes as spaced hex.
pub fn hex_preview(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut s = String::with_capacity(bytes.len() * 3);
    for (i, &b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push(HEX[(b >> 4) as usize] as char);
        s.push(HEX[(b & 15) as usize] as char);
    }
    s
}

impl<'s> Builder<'s> {
    /// A builder over `src` whose root node is called `root_name`.
    pub fn new(src: &'s dyn ByteSource, root_name: &'static str) -> Self {
        let len = src.len();
        let len_bits = len.saturating_mul(8);
        let tree = Tree::with_root(
            Name::Static(root_name),
            BitSpan {
                start: 0,
                end: len_bits,
            },
        );
        // Every node but a derived one claims at least one bit, and derived nodes are
        // produced a bounded number per claimed field; this generous linear budget
        // stops any loop a hostile count could otherwise drive.
        let budget = 4096usize.saturating_add(
            usize::try_from(len.saturating_mul(NODES_PER_BYTE)).unwrap_or(usize::MAX),
        );
        Builder {
            src,
            len_bits,
            tree,
            stack: vec![Frame {
                id: 0,
                kids: Vec::new(),
                start: 0,
                limit: len_bits,
                bound: "end of file".into(),
                #[cfg(feature = "ksy")]
                dense: None,
            }],
            pos: 0,
            last: None,
            budget,
            #[cfg(feature = "ksy")]
            gap_free: Vec::new(),
            endian: Endian::Little,
            lazy_threshold: None,
            page_size: None,
            exact_totals: false,
            skip_digests: false,
            spare: Vec::new(),
        }
    }

    /// A builder that decodes the children of lazy node `id` of `tree` in place:
    /// new nodes are appended to the arena as children of `id`, the cursor starts
    /// at the node's first bit, and reads may go up to `limit` (bits), which
    /// `bound` names in error messages. The node budget covers only the node's own
    /// bytes. Finish with [`Builder::finish_expansion`].
    pub(crate) fn resume(
        src: &'s dyn ByteSource,
        mut tree: Tree,
        id: NodeId,
        limit: u64,
        bound: Rc<str>,
    ) -> Self {
        let len_bits = src.len().saturating_mul(8);
        let span = tree.span(id);
        tree.set_lazy(id, false);
        let own = span.len_bits().div_ceil(8).saturating_mul(NODES_PER_BYTE);
        let budget = tree
            .len()
            .saturating_add(4096)
            .saturating_add(usize::try_from(own).unwrap_or(usize::MAX));
        let lazy_threshold = tree.lazy_threshold();
        let page_size = tree.page_size();
        Builder {
            src,
            len_bits,
            tree,
            stack: vec![
                Frame {
                    id: 0,
                    kids: Vec::new(),
                    start: 0,
                    limit: len_bits,
                    bound: "end of file".into(),
                    #[cfg(feature = "ksy")]
                    dense: None,
                },
                Frame {
                    id,
                    kids: Vec::new(),
                    start: span.start,
                    limit: limit.min(len_bits),
                    bound,
                    #[cfg(feature = "ksy")]
                    dense: None,
                },
            ],
            pos: span.start,
            last: None,
            budget,
            #[cfg(feature = "ksy")]
            gap_free: Vec::new(),
            endian: Endian::Little,
            lazy_threshold,
            page_size,
            exact_totals: false,
            skip_digests: false,
            spare: Vec::new(),
        }
    }

    /// Finishes an expansion begun with [`Builder::resume`]: closes the expanded
    /// node, fills unclaimed bytes inside it (and inside its new descendants) with
    /// `unknown` nodes, and returns the tree.
    pub(crate) fn finish_expansion(mut self, first_new: usize) -> Tree {
        while self.stack.len() > 2 {
            self.close();
        }
        let id = self.close();
        self.flush_root();
        let n = self.tree.len();
        fill_gaps_of(
            &mut self.tree,
            std::iter::once(id).chain((first_new..n).map(|k| k as NodeId)),
        );
        self.tree
    }

    // ----- laziness -------------------------------------------------------------

    /// Blocks (or other parts) whose body is at least this many bytes are left
    /// undecoded, as lazy nodes; `None` decodes everything.
    pub fn lazy_threshold(&self) -> Option<u64> {
        self.lazy_threshold
    }

    /// Sets the lazy threshold (see [`Builder::lazy_threshold`]); the tree keeps it
    /// for later expansions.
    pub fn set_lazy_threshold(&mut self, t: Option<u64>) {
        self.lazy_threshold = t;
        self.tree.set_lazy_threshold(t);
    }

    /// Entries a page of a long list holds (`None`: lists are not paged); the tree
    /// keeps it for later expansions. See [`crate::Options::page_size`].
    pub fn page_size(&self) -> Option<u32> {
        self.page_size
    }

    /// Sets the page size (see [`Builder::page_size`]).
    pub fn set_page_size(&mut self, n: Option<u32>) {
        let n = n.map(|n| n.max(1));
        self.page_size = n;
        self.tree.set_page_size(n);
    }

    /// Marks node `id` as a page of a long list (see [`crate::tree::Node::page`]).
    pub(crate) fn set_page(&mut self, id: NodeId) {
        self.tree.set_page(id);
    }

    /// Whether totals shown on the root must be those of an eager decode even
    /// when parts are left lazy (see [`crate::Options::exact_totals`]). A lazy
    /// region or page is decoded later with the setting in force where it was
    /// made.
    pub fn exact_totals(&self) -> bool {
        self.exact_totals
    }

    /// Whether digests of the file's contents are left unchecked (see
    /// [`crate::Options::skip_digests`]).
    pub fn skip_digests(&self) -> bool {
        self.skip_digests
    }

    /// Sets [`Builder::skip_digests`].
    pub fn set_skip_digests(&mut self, on: bool) {
        self.skip_digests = on;
    }

    /// Sets [`Builder::exact_totals`].
    pub fn set_exact_totals(&mut self, on: bool) {
        self.exact_totals = on;
    }

    /// Marks node `id`, which has no children, lazy: `recipe` says how to decode
    /// it later. Its bytes no longer count towards the node budget.
    pub(crate) fn make_lazy(&mut self, id: NodeId, recipe: crate::tree::RecipeRef) {
        let bytes = self.tree.span(id).len_bits().div_ceil(8);
        let spare = usize::try_from(bytes.saturating_mul(NODES_PER_BYTE)).unwrap_or(usize::MAX);
        // Never below what exists, so the nodes made so far stay within budget.
        self.budget = self
            .budget
            .saturating_sub(spare)
            .max(self.tree.len().saturating_add(4096));
        self.tree.set_recipe(id, recipe);
    }

    /// The source being read.
    pub fn source(&self) -> &'s dyn ByteSource {
        self.src
    }

    // ----- position -------------------------------------------------------------

    /// Length of the source in bytes.
    pub fn file_len(&self) -> u64 {
        self.len_bits / 8
    }
    /// Cursor in bytes (rounded down if inside a byte).
    pub fn pos(&self) -> u64 {
        self.pos / 8
    }
    /// Cursor in bits.
    pub fn pos_bits(&self) -> u64 {
        self.pos
    }
    /// Moves the cursor to an absolute byte offset. Reads there fail cleanly if it
    /// is outside the current region.
    pub fn seek(&mut self, byte: u64) {
        self.pos = byte.saturating_mul(8);
    }
    /// Moves the cursor to an absolute bit.
    pub fn seek_bits(&mut self, bit: u64) {
        self.pos = bit;
    }
    /// What bounds the current region, as error messages name it (`end of Body`).
    pub fn bound(&self) -> &str {
        &self.frame().bound
    }
    /// End of the current region in bytes.
    pub fn limit(&self) -> u64 {
        self.frame().limit / 8
    }
    /// Bytes left before the end of the current region.
    pub fn remaining(&self) -> u64 {
        self.frame().limit.saturating_sub(self.pos) / 8
    }
    /// Sets the byte order of later multi-byte reads.
    pub fn set_endian(&mut self, e: Endian) {
        self.endian = e;
    }
    /// The byte order in force.
    pub fn endian(&self) -> Endian {
        self.endian
    }
    /// The id of the node created last.
    pub fn last(&self) -> Option<NodeId> {
        self.last
    }
    /// The id of the innermost open group.
    pub fn current(&self) -> NodeId {
        self.frame().id
    }
    /// The tree built so far. The children of groups still open are not in it
    /// yet: [`Builder::children`] has them.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The children of node `id` so far, whether its group is open or closed.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        match self.stack.iter().rev().find(|f| f.id == id) {
            Some(f) if self.tree.children(id).is_empty() => &f.kids,
            _ => self.tree.children(id),
        }
    }

    fn frame(&self) -> &Frame {
        self.stack.last().expect("builder stack never empty")
    }

    // ----- peeking (no nodes) ---------------------------------------------------

    /// Reads up to `n` bytes at an absolute offset without creating a node. Returns
    /// fewer at the end of the file. `n` is capped by the file size, so a count read
    /// from the file cannot size the allocation.
    pub fn peek_bytes(&self, offset: u64, n: u64) -> Vec<u8> {
        let avail = self.file_len().saturating_sub(offset);
        let n = n.min(avail) as usize;
        if n == 0 {
            // Past the end (or nothing wanted): the source is not asked.
            return Vec::new();
        }
        let mut buf = vec![0u8; n];
        let got = self.src.read_at(offset, &mut buf);
        buf.truncate(got);
        buf
    }

    /// Reads an unsigned integer of `size` bytes (1..=8) at `offset` in the current
    /// byte order, or `None` past the end of the file.
    pub fn peek_uint(&self, offset: u64, size: u64) -> Option<u64> {
        let b = self.peek_bytes(offset, size);
        if b.len() as u64 != size || size == 0 || size > 8 {
            return None;
        }
        Some(self.assemble(&b))
    }

    fn assemble(&self, b: &[u8]) -> u64 {
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
        v
    }

    /// Reads `n` (≤ 64) bits at bit position `pos`, least significant first.
    fn raw_bits(&self, pos: u64, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let first = pos / 8;
        let last = (pos + n.min(64)).div_ceil(8);
        // At most 9 bytes: read into the stack, not a fresh vector.
        let mut buf = [0u8; 16];
        let want = crate::source::clip(self.file_len(), first, (last - first) as usize);
        if want > 0 {
            self.src.read_at(first, &mut buf[..want]);
        }
        let acc = u128::from_le_bytes(buf);
        let v = acc >> (pos % 8);
        if n >= 64 {
            v as u64
        } else {
            (v as u64) & ((1u64 << n) - 1)
        }
    }

    /// Finds a NUL-terminated string starting at `offset` that ends before `end`
    /// (and within [`MAX_REF_STRING`] bytes). Returns the text and its span
    /// (terminator included), or a message saying why it could not be read.
    pub fn peek_cstr(&self, offset: u64, end: u64) -> Result<(String, BitSpan), String> {
        let end = end.min(self.file_len());
        if offset >= end {
            return Err(format!(
                "string offset 0x{offset:X} is outside the table ending at 0x{end:X}"
            ));
        }
        let window = (end - offset).min(MAX_REF_STRING);
        let bytes = self.peek_bytes(offset, window);
        match bytes.iter().position(|&c| c == 0) {
            Some(n) => Ok((
                String::from_utf8_lossy(&bytes[..n]).into_owned(),
                BitSpan::bytes(offset, offset + n as u64 + 1),
            )),
            None => Err(format!(
                "string at 0x{offset:X} has no NUL terminator before 0x{:X}",
                offset + window
            )),
        }
    }

    // ----- node creation --------------------------------------------------------

    fn push(&mut self, name: Name, kind: Kind, span: BitSpan) -> DResult<NodeId> {
        if self.tree.len() >= self.budget {
            let parent = self.frame().id;
            let msg = format!(
                "node budget of {} exhausted for a {}-byte file: the structure claims more entries than the data can hold",
                self.budget,
                self.file_len()
            );
            self.set_error(parent, msg);
            return Err(Stop);
        }
        let f = self.stack.last_mut().expect("builder stack never empty");
        let id = self.tree.push_rec(Some(f.id), name, kind, span);
        f.kids.push(id);
        #[cfg(feature = "ksy")]
        {
            f.dense = None;
        }
        self.last = Some(id);
        Ok(id)
    }

    /// Checks that `nbits` can be read at the cursor; if not, records an error node
    /// named `name` over what is left and returns [`Stop`].
    /// `what` describes the expected data ("a 4-byte integer"); it is only built
    /// when the read fails, so successful reads allocate nothing for it.
    fn need(&mut self, name: &Name, kind: Kind, nbits: u64, what: What) -> DResult<()> {
        let limit = self.frame().limit;
        let end = self.pos.checked_add(nbits);
        if end.is_some_and(|e| e <= limit) && self.pos <= limit {
            return Ok(());
        }
        let avail = limit.saturating_sub(self.pos);
        let start = self.pos.min(limit);
        let bound = self.frame().bound.clone();
        let msg = if self.pos > limit {
            format!(
                "expected {what} at {}, but that is past the {bound} at {}",
                fmt_off(self.pos),
                fmt_off(limit)
            )
        } else {
            format!(
                "expected {what} at {}, found only {} before the {bound} at {}",
                fmt_off(self.pos),
                describe_bits(avail),
                fmt_off(limit)
            )
        };
        let id = self.push(
            name.clone(),
            kind,
            BitSpan {
                start,
                end: start + avail,
            },
        )?;
        self.set_error(id, msg);
        Err(Stop)
    }

    fn leaf(&mut self, name: Name, kind: Kind, nbits: u64, what: What) -> DResult<(NodeId, u64)> {
        self.need(&name, kind, nbits, what)?;
        let start = self.pos;
        self.pos += nbits;
        let id = self.push(
            name,
            kind,
            BitSpan {
                start,
                end: self.pos,
            },
        )?;
        Ok((id, start))
    }

    /// A node of `nbits` bits at the cursor whose children are not decoded now:
    /// it is marked lazy and `recipe` says how [`crate::expand`] decodes it later.
    /// Fails like any read if the bits are not there.
    pub(crate) fn lazy_node(
        &mut self,
        name: Name,
        kind: Kind,
        nbits: u64,
        recipe: crate::tree::RecipeRef,
    ) -> DResult<NodeId> {
        let (id, _) = self.leaf(name, kind, nbits, What::Bits(nbits))?;
        self.make_lazy(id, recipe);
        Ok(id)
    }

    /// Reads an unsigned integer of `size` bytes in the current byte order.
    pub fn uint(&mut self, name: impl Into<Name>, size: u64) -> DResult<u64> {
        self.uint_field(name, size).map(|f| f.value)
    }

    /// [`Builder::uint`], with the node it makes.
    pub fn uint_field(&mut self, name: impl Into<Name>, size: u64) -> DResult<Field<u64>> {
        let kind = match size {
            1 => Kind::U8,
            2 => Kind::U16,
            4 => Kind::U32,
            _ => Kind::U64,
        };
        let (id, start) = self.leaf(name.into(), kind, size * 8, What::Int(size))?;
        let v = self.peek_uint(start / 8, size).unwrap_or(0);
        self.tree.set_uint(id, v);
        Ok(Field { value: v, id })
    }

    /// Reads a `u8`.
    pub fn u8(&mut self, name: impl Into<Name>) -> DResult<u8> {
        self.uint(name, 1).map(|v| v as u8)
    }
    /// Reads a `u16` in the current byte order.
    pub fn u16(&mut self, name: impl Into<Name>) -> DResult<u16> {
        self.uint(name, 2).map(|v| v as u16)
    }
    /// Reads a `u32` in the current byte order.
    pub fn u32(&mut self, name: impl Into<Name>) -> DResult<u32> {
        self.uint(name, 4).map(|v| v as u32)
    }
    /// Reads a `u64` in the current byte order.
    pub fn u64(&mut self, name: impl Into<Name>) -> DResult<u64> {
        self.uint(name, 8)
    }

    /// Reads a signed integer of `size` bytes in the current byte order.
    pub fn int(&mut self, name: impl Into<Name>, size: u64) -> DResult<i64> {
        let kind = match size {
            1 => Kind::I8,
            2 => Kind::I16,
            4 => Kind::I32,
            _ => Kind::I64,
        };
        let (id, start) = self.leaf(name.into(), kind, size * 8, What::SignedInt(size))?;
        let raw = self.peek_uint(start / 8, size).unwrap_or(0);
        let shift = 64 - 8 * size.clamp(1, 8);
        let v = ((raw << shift) as i64) >> shift;
        self.tree.set_value(id, Value::I(v));
        Ok(v)
    }

    /// Reads an IEEE `f32` in the current byte order.
    pub fn f32(&mut self, name: impl Into<Name>) -> DResult<f32> {
        let (id, start) = self.leaf(name.into(), Kind::F32, 32, What::Text("a 4-byte float"))?;
        let v = f32::from_bits(self.peek_uint(start / 8, 4).unwrap_or(0) as u32);
        self.tree.set_value(id, Value::F(v as f64));
        Ok(v)
    }

    /// Reads an integer whose meaning is an enumeration: `value` keeps the number,
    /// `display` the name `names` gives (or says the number is not a known value).
    pub fn uint_enum(
        &mut self,
        name: impl Into<Name>,
        size: u64,
        names: fn(u64) -> Option<&'static str>,
    ) -> DResult<u64> {
        self.uint_enum_field(name, size, names).map(|f| f.value)
    }

    /// [`Builder::uint_enum`], with the node it makes.
    pub fn uint_enum_field(
        &mut self,
        name: impl Into<Name>,
        size: u64,
        names: fn(u64) -> Option<&'static str>,
    ) -> DResult<Field<u64>> {
        let f = self.uint_field(name, size)?;
        self.tree.set_display_render(f.id, Render::Enum(names));
        Ok(f)
    }

    /// Reads a flag word: `value` keeps the number, `display` lists the names of the
    /// set bits from `table` (`(mask, name)`), plus any bits the table does not name.
    pub fn uint_flags(
        &mut self,
        name: impl Into<Name>,
        size: u64,
        table: &'static [(u64, &'static str)],
    ) -> DResult<u64> {
        let f = self.uint_field(name, size)?;
        self.tree.set_display_render(f.id, Render::Flags(table));
        Ok(f.value)
    }

    /// Reads `n` bits (LSB first) as an unsigned bitfield.
    pub fn bits(&mut self, name: impl Into<Name>, n: u64) -> DResult<u64> {
        self.bits_field(name, n).map(|f| f.value)
    }

    /// [`Builder::bits`], with the node it makes.
    pub fn bits_field(&mut self, name: impl Into<Name>, n: u64) -> DResult<Field<u64>> {
        let (id, start) = self.leaf(name.into(), Kind::Bits, n, What::Bits(n))?;
        let v = self.raw_bits(start, n.min(64));
        self.tree.set_uint(id, v);
        Ok(Field { value: v, id })
    }

    /// Reads one bit as a boolean.
    pub fn bit(&mut self, name: impl Into<Name>) -> DResult<bool> {
        let (id, start) = self.leaf(name.into(), Kind::Bool, 1, What::Bits(1))?;
        let v = self.raw_bits(start, 1) == 1;
        self.tree.set_value(id, Value::Bool(v));
        Ok(v)
    }

    /// Reads an integer of `size` bytes that is a boolean (0 = false).
    pub fn bool_int(&mut self, name: impl Into<Name>, size: u64) -> DResult<bool> {
        let (id, start) = self.leaf(name.into(), Kind::Bool, size * 8, What::Bool(size))?;
        let raw = self.peek_uint(start / 8, size).unwrap_or(0);
        self.tree.set_value(id, Value::Bool(raw != 0));
        if raw > 1 {
            self.tree
                .set_display_text(id, &format!("true (stored as {raw})"));
        }
        Ok(raw != 0)
    }

    /// Reads a four-character code; its value is the text (non-printable bytes
    /// escaped).
    pub fn fourcc(&mut self, name: impl Into<Name>) -> DResult<[u8; 4]> {
        let (id, start) = self.leaf(
            name.into(),
            Kind::FourCC,
            32,
            What::Text("a four-character code"),
        )?;
        let b = self.peek_bytes(start / 8, 4);
        let mut cc = [0u8; 4];
        cc.copy_from_slice(&b[..4]);
        self.tree.set_value(id, Value::Str(fourcc_text(&cc)));
        Ok(cc)
    }

    /// Claims a run of `n` bytes that is not decoded further (no value; short runs
    /// show their hex in `display`).
    pub fn bytes(&mut self, name: impl Into<Name>, n: u64) -> DResult<NodeId> {
        self.run(name.into(), Kind::Bytes, n)
    }

    /// Claims `n` bytes of padding.
    pub fn padding(&mut self, name: impl Into<Name>, n: u64) -> DResult<NodeId> {
        self.run(name.into(), Kind::Padding, n)
    }

    fn run(&mut self, name: Name, kind: Kind, n: u64) -> DResult<NodeId> {
        let bits = n.saturating_mul(8);
        let (id, start) = self.leaf(name, kind, bits, What::Bytes(n))?;
        if n <= HEX_PREVIEW && start.is_multiple_of(8) {
            let b = self.peek_bytes(start / 8, n);
            if !b.is_empty() {
                self.tree.set_display_text(id, &hex_preview(&b));
            }
        }
        Ok(id)
    }

    /// Reads a NUL-terminated string (terminator included in the span). If no NUL
    /// comes before the end of the region, the rest of the region becomes an error
    /// node and [`Stop`] is returned.
    pub fn cstr(&mut self, name: impl Into<Name>) -> DResult<String> {
        self.cstr_field(name).map(|f| f.value)
    }

    /// [`Builder::cstr`], with the node it makes.
    pub fn cstr_field(&mut self, name: impl Into<Name>) -> DResult<Field<String>> {
        let name = name.into();
        if !self.pos.is_multiple_of(8) {
            // No read of `u64::MAX` bits fits: this records the error node and stops.
            self.need(
                &name,
                Kind::Str,
                u64::MAX,
                What::Text("a byte-aligned string"),
            )?;
            return Err(Stop);
        }
        let start = self.pos / 8;
        let limit = self.limit();
        let mut off = start;
        let mut text: Vec<u8> = Vec::new();
        let mut total = 0u64;
        loop {
            if off >= limit {
                let bound = self.frame().bound.clone();
                let id = self.push(name, Kind::Str, BitSpan::bytes(start.min(limit), limit))?;
                self.set_error(
                    id,
                    format!(
                        "expected a NUL-terminated string at 0x{start:X}, found {} bytes without a terminator before the {bound} at 0x{limit:X}",
                        limit.saturating_sub(start)
                    ),
                );
                self.pos = limit * 8;
                return Err(Stop);
            }
            let chunk = self.peek_bytes(off, (limit - off).min(4096));
            if let Some(n) = chunk.iter().position(|&c| c == 0) {
                if text.len() < MAX_STRING_VALUE {
                    text.extend_from_slice(&chunk[..n.min(MAX_STRING_VALUE - text.len())]);
                }
                total += n as u64;
                let end = off + n as u64 + 1;
                self.pos = end * 8;
                let id = self.push(name, Kind::Str, BitSpan::bytes(start, end))?;
                self.set_string(id, text, total);
                let value = self.str_value(id);
                return Ok(Field { value, id });
            }
            if text.len() < MAX_STRING_VALUE {
                let take = chunk.len().min(MAX_STRING_VALUE - text.len());
                text.extend_from_slice(&chunk[..take]);
            }
            total += chunk.len() as u64;
            off += chunk.len() as u64;
        }
    }

    /// Reads a string of exactly `n` bytes (trailing NULs are not part of the text).
    pub fn fixed_str(&mut self, name: impl Into<Name>, n: u64) -> DResult<String> {
        self.fixed_str_field(name, n).map(|f| f.value)
    }

    /// [`Builder::fixed_str`], with the node it makes.
    pub fn fixed_str_field(&mut self, name: impl Into<Name>, n: u64) -> DResult<Field<String>> {
        let (id, start) = self.leaf(name.into(), Kind::Str, n.saturating_mul(8), What::Str(n))?;
        let mut b = self.peek_bytes(start / 8, n.min(MAX_STRING_VALUE as u64));
        while b.last() == Some(&0) {
            b.pop();
        }
        self.set_string(id, b, n);
        let value = self.str_value(id);
        Ok(Field { value, id })
    }

    fn set_string(&mut self, id: NodeId, bytes: Vec<u8>, total: u64) {
        let s = String::from_utf8_lossy(&bytes).into_owned();
        if total as usize > bytes.len() && total > MAX_STRING_VALUE as u64 {
            self.tree
                .set_display_text(id, &format!("{total} bytes; first {MAX_STRING_VALUE} kept"));
        }
        self.tree.set_value(id, Value::Str(s));
    }

    fn str_value(&self, id: NodeId) -> String {
        match self.tree.value_ref(id) {
            Some(crate::tree::ValueRef::Str(s)) => s.to_string(),
            _ => String::new(),
        }
    }

    /// Reads an unsigned offset of `size` bytes that addresses a NUL-terminated string
    /// at `base + offset`, inside `[base, table_end)`. The node's value is the string
    /// (its display says the offset and where the string is, its reference spans the
    /// string). If the offset does not resolve, the node keeps the raw offset and
    /// carries an error; decoding continues.
    pub fn strref(
        &mut self,
        name: impl Into<Name>,
        size: u64,
        base: u64,
        table_end: u64,
    ) -> DResult<Option<String>> {
        let Field { value: off, id } = self.uint_field(name, size)?;
        self.tree.set_kind(id, Kind::StrRef);
        Ok(self.resolve_strref(id, off, base, table_end))
    }

    /// Turns an already-read offset node into a string reference (see [`Builder::strref`]).
    pub fn resolve_strref(
        &mut self,
        id: NodeId,
        off: u64,
        base: u64,
        table_end: u64,
    ) -> Option<String> {
        let at = base.saturating_add(off);
        match self.peek_cstr(at, table_end) {
            Ok((s, span)) => {
                self.tree.set_kind(id, Kind::StrRef);
                self.tree.set_display_text(
                    id,
                    &format!("offset 0x{off:X} → string at 0x{:X}", span.start_byte()),
                );
                self.tree.set_value(id, Value::Str(s.clone()));
                self.tree.set_reference(id, Some(span));
                Some(s)
            }
            Err(msg) => {
                self.set_error(id, format!("offset 0x{off:X} does not resolve: {msg}"));
                None
            }
        }
    }

    /// Adds a value computed from other fields. It claims no bytes: its span is
    /// empty at the cursor and `reference` points at the bytes it comes from.
    pub fn derived(
        &mut self,
        name: impl Into<Name>,
        value: Value,
        from: BitSpan,
        display: Option<String>,
    ) -> DResult<NodeId> {
        let at = self.derived_anchor();
        let id = self.push(name.into(), Kind::Derived, BitSpan { start: at, end: at })?;
        self.tree.set_value(id, value);
        self.tree.set_reference(id, Some(from));
        if let Some(d) = display {
            self.tree.set_display_text(id, &d);
        }
        Ok(id)
    }

    /// Adds a derived group (empty span at the cursor) whose children are built by `f`
    /// (typically further derived values, e.g. a list resolved through an index).
    pub fn derived_group<T>(
        &mut self,
        name: impl Into<Name>,
        from: Option<BitSpan>,
        f: impl FnOnce(&mut Self) -> DResult<T>,
    ) -> DResult<T> {
        self.derived_group_field(name, from, f).map(|g| g.value)
    }

    /// [`Builder::derived_group`], with the group's node.
    pub fn derived_group_field<T>(
        &mut self,
        name: impl Into<Name>,
        from: Option<BitSpan>,
        f: impl FnOnce(&mut Self) -> DResult<T>,
    ) -> DResult<Field<T>> {
        let at = self.derived_anchor();
        let id = self.push(name.into(), Kind::Derived, BitSpan { start: at, end: at })?;
        self.tree.set_reference(id, from);
        let limit = self.frame().limit;
        let bound = self.frame().bound.clone();
        self.push_frame(id, at, limit, bound);
        let saved = self.pos;
        let r = f(self);
        self.pos = saved;
        let f = self.stack.pop().expect("pushed above");
        self.give_kids(f);
        self.last = Some(id);
        r.map(|value| Field { value, id })
    }

    /// Where a derived node sits: the cursor, clamped into the open group's bounds so
    /// it always nests.
    fn derived_anchor(&self) -> u64 {
        let f = self.frame();
        let pstart = self.tree.span(f.id).start;
        self.pos.clamp(pstart.min(f.limit), f.limit)
    }

    // ----- annotations ----------------------------------------------------------

    /// Sets the display text of the last node.
    pub fn display(&mut self, text: impl Into<Text>) {
        if let Some(id) = self.last {
            self.set_display(id, text);
        }
    }

    /// Sets the display text of node `id`.
    pub fn set_display(&mut self, id: NodeId, text: impl Into<Text>) {
        match text.into() {
            Text::Static(s) => self.tree.set_display_render(id, Render::Static(s)),
            Text::Owned(s) => self.tree.set_display_text(id, &s),
        }
    }

    /// Makes node `id`'s display rendered by `f` whenever it is shown (from the
    /// node and its neighbours), so it costs no memory while not shown.
    pub fn set_display_with(&mut self, id: NodeId, f: crate::tree::DisplayFn) {
        self.tree.set_display_render(id, Render::With(f));
    }

    /// Makes node `id`'s display rendered by `f` and its comparison key (see
    /// [`Tree::key`]) by `key`, both when asked for: for the many entries of a
    /// long list (records, instructions, symbols) whose key a rule can read
    /// from the node.
    pub fn set_display_keyed(
        &mut self,
        id: NodeId,
        f: crate::tree::DisplayFn,
        key: crate::tree::DisplayFn,
    ) {
        self.tree.set_display_render(id, Render::Keyed(f, key));
    }

    /// Gives the last node its comparison key (see [`Tree::key`]).
    pub fn key(&mut self, key: impl Into<Text>) {
        if let Some(id) = self.last {
            self.set_key(id, key);
        }
    }

    /// Gives node `id` its comparison key (see [`Tree::key`]): what names it
    /// among its siblings, whatever its position (a part's FourCC, a symbol's
    /// name, a section's name). A static text costs no more than its index.
    pub fn set_key(&mut self, id: NodeId, key: impl Into<Text>) {
        let name = match key.into() {
            Text::Static(s) => Name::Static(s),
            Text::Owned(s) => Name::Owned(s.into_boxed_str()),
        };
        self.tree.set_key(id, name);
    }

    /// Sets the value of node `id`.
    pub fn set_value(&mut self, id: NodeId, v: Value) {
        self.tree.set_value(id, v);
    }

    /// Sets the reference span of node `id`.
    pub fn set_reference(&mut self, id: NodeId, span: BitSpan) {
        self.tree.set_reference(id, Some(span));
    }

    /// Records an error on the last node (decoding continues).
    pub fn error(&mut self, msg: impl Into<String>) {
        if let Some(id) = self.last {
            self.set_error(id, msg);
        }
    }

    /// Records an error on node `id` and marks its ancestors damaged. A second
    /// error on the same node is appended.
    pub fn set_error(&mut self, id: NodeId, msg: impl Into<String>) {
        let msg = msg.into();
        match self.tree.error(id) {
            // The same failure said again (a budget met at each further
            // read) is said once.
            Some(prev) if prev.ends_with(msg.as_str()) => {}
            Some(prev) => {
                let both = format!("{prev}; {msg}");
                self.tree.set_error_text(id, &both);
            }
            None => self.tree.set_error_text(id, &msg),
        }
        self.tree.mark_damaged(id);
    }

    // ----- nodes at given places (for interpreters that read for themselves) ----

    #[cfg(feature = "ksy")]
    /// A node over `span` in the open group, made as it is: for a decoder
    /// that reads the bytes itself (the `.ksy` interpreter). Fails only when
    /// the node budget is spent.
    pub(crate) fn node_at(&mut self, name: Name, kind: Kind, span: BitSpan) -> DResult<NodeId> {
        self.push(name, kind, span)
    }

    #[cfg(feature = "ksy")]
    /// Integer leaves in the open group, one per value of `vals`, named by
    /// their index from `first_index`, each `width` bits from bit `start`
    /// on: what [`Builder::node_at`] and a value on each would make, at
    /// once. Fails as `node_at` does when the node budget runs out.
    pub(crate) fn int_leaves(
        &mut self,
        kind: Kind,
        (start, width): (u64, u64),
        first_index: u32,
        vals: &[u64],
        signed: bool,
    ) -> DResult<()> {
        if self.tree.len().saturating_add(vals.len()) > self.budget {
            // Node by node, to the budget's end and its error.
            for (k, &v) in vals.iter().enumerate() {
                let at = start + k as u64 * width;
                let name = Name::Index(first_index.saturating_add(k as u32));
                let id = self.push(
                    name,
                    kind,
                    BitSpan {
                        start: at,
                        end: at + width,
                    },
                )?;
                let v = if signed && (v as i64) < 0 {
                    Value::I(v as i64)
                } else {
                    Value::U(v)
                };
                self.tree.set_value(id, v);
            }
            return Ok(());
        }
        let parent = self.frame().id;
        let first =
            self.tree
                .push_int_leaves(parent, kind, (start, width), first_index, vals, signed);
        let f = self.stack.last_mut().expect("builder stack never empty");
        f.kids.extend(first..first + vals.len() as NodeId);
        f.dense = match f.dense {
            Some(e) if e == start => Some(start + vals.len() as u64 * width),
            _ => None,
        };
        if !vals.is_empty() {
            self.last = Some(first + vals.len() as NodeId - 1);
        }
        Ok(())
    }

    #[cfg(feature = "ksy")]
    /// Opens a group starting at bit `start`; [`Builder::close_at`] closes it.
    pub(crate) fn open_at(&mut self, name: Name, kind: Kind, start: u64) -> DResult<NodeId> {
        let id = self.push(name, kind, BitSpan { start, end: start })?;
        let limit = self.len_bits;
        self.push_frame(id, start, limit, Rc::from("end of file"));
        Ok(id)
    }

    #[cfg(feature = "ksy")]
    /// Closes the group [`Builder::open_at`] opened last, spanning
    /// `[its start, end)` and every child it holds.
    pub(crate) fn close_at(&mut self, end: u64) -> NodeId {
        let start = self.frame().start;
        self.close_to(end.max(start))
    }

    #[cfg(feature = "ksy")]
    /// True if [`Builder::lazy_region`] would leave `[start, start + len)`
    /// (bytes) lazy here rather than decode it now.
    pub(crate) fn would_leave(&self, start: u64, len: u64) -> bool {
        let end = start.saturating_add(len).saturating_mul(8);
        self.lazy_threshold.is_some_and(|t| len >= t)
            && len > 0
            && start.saturating_mul(8) >= self.frame().start
            && end <= self.frame().limit
    }

    #[cfg(feature = "ksy")]
    /// [`Builder::lazy_region`] for a part that may lie outside the open
    /// group (a `.ksy` `pos` instance, marked as one by the caller), within
    /// the file: lazy if it is big enough. Returns the lazy node, or `None`
    /// when it was decoded now.
    pub(crate) fn lazy_anywhere<F>(
        &mut self,
        name: Name,
        kind: Kind,
        start: u64,
        len: u64,
        f: F,
    ) -> Option<NodeId>
    where
        F: Fn(&mut Builder) -> DResult<()> + Send + Sync + 'static,
    {
        let fits = start.saturating_add(len).saturating_mul(8) <= self.len_bits;
        let big = self.lazy_threshold.is_some_and(|t| len >= t) && fits;
        if !big || len == 0 {
            return self.region(name, kind, start, len, |b| f(b)).and(None);
        }
        let how = LazyHow {
            vouched: false,
            reads: None,
        };
        self.lazy_node_over(how, name, kind, start, len, None, f)
    }

    #[cfg(feature = "ksy")]
    /// A lazy node over `[start, start + len)` of the open group, whatever
    /// its size, that `f` decodes when it is expanded (the rest of a list
    /// read as far as the viewer needed); `None` if it would not fit there.
    pub(crate) fn lazy_always<F>(
        &mut self,
        name: Name,
        kind: Kind,
        start: u64,
        len: u64,
        label: Option<String>,
        f: F,
    ) -> Option<NodeId>
    where
        F: Fn(&mut Builder) -> DResult<()> + Send + Sync + 'static,
    {
        let how = LazyHow {
            vouched: false,
            reads: None,
        };
        self.lazy_region_if(true, how, name, kind, start, len, label, f)
            .flatten()
    }

    #[cfg(feature = "ksy")]
    /// The children made so far in the open group.
    pub(crate) fn open_kids(&self) -> &[NodeId] {
        &self.frame().kids
    }

    #[cfg(feature = "ksy")]
    /// The tree, to set what a node says (value, display, error).
    pub(crate) fn tree_mut(&mut self) -> &mut Tree {
        &mut self.tree
    }

    // ----- structure ------------------------------------------------------------

    fn open(&mut self, name: Name, kind: Kind, limit: u64, bound: Rc<str>) -> DResult<NodeId> {
        // A group opened after a seek outside the enclosing region starts at its
        // edge, so even an empty group nests; reads inside it fail cleanly.
        let outer = self.frame();
        let outer_start = self.tree.span(outer.id).start.min(outer.start);
        let start = self.pos.clamp(outer_start.min(outer.limit), outer.limit);
        let id = self.push(name, kind, BitSpan { start, end: start })?;
        self.push_frame(id, start, limit, bound);
        Ok(id)
    }

    /// Opens a frame for group `id` (reusing a spare children list).
    fn push_frame(&mut self, id: NodeId, start: u64, limit: u64, bound: Rc<str>) {
        let kids = self.spare.pop().unwrap_or_default();
        self.stack.push(Frame {
            id,
            kids,
            start,
            limit,
            bound,
            #[cfg(feature = "ksy")]
            dense: Some(start),
        });
    }

    fn close(&mut self) -> NodeId {
        let f = self.frame();
        let end = self.pos.clamp(f.start, f.limit.max(f.start));
        self.close_to(end)
    }

    /// Closes the open group: it spans from its start to `end` and over
    /// every child it holds (but a `.ksy` instance or a node in decoded
    /// bytes, which lie elsewhere).
    fn close_to(&mut self, mut end: u64) -> NodeId {
        let f = self.stack.pop().expect("close matches open");
        let mut start = f.start;
        #[cfg(feature = "ksy")]
        if let (Some(e), false) = (f.dense, f.kids.is_empty()) {
            // Runs of leaves end to end from its start: no gap unless it
            // ends past them.
            end = end.max(e);
            if end == e {
                self.gap_free.push(f.id);
            }
            let id = f.id;
            self.tree.set_span(id, BitSpan { start, end });
            self.give_kids(f);
            self.last = Some(id);
            return id;
        }
        for &c in &f.kids {
            let s = self.tree.span(c);
            if s.is_empty() || self.tree.is_instance(c) || self.tree.is_decoded(c) {
                continue;
            }
            start = start.min(s.start);
            end = end.max(s.end);
        }
        let id = f.id;
        self.tree.set_span(id, BitSpan { start, end });
        self.give_kids(f);
        self.last = Some(id);
        id
    }

    /// Gives a closing frame's children to the tree and keeps its list for reuse.
    fn give_kids(&mut self, mut f: Frame) {
        self.tree.add_children(f.id, &f.kids);
        f.kids.clear();
        if self.spare.len() < 64 {
            self.spare.push(f.kids);
        }
    }

    /// Gives the root frame's children (if any) to the tree.
    fn flush_root(&mut self) {
        if let Some(f) = self.stack.first_mut() {
            let kids = std::mem::take(&mut f.kids);
            let id = f.id;
            self.tree.add_children(id, &kids);
        }
    }

    fn nest<T>(
        &mut self,
        name: Name,
        kind: Kind,
        f: impl FnOnce(&mut Self) -> DResult<T>,
    ) -> DResult<Field<T>> {
        let limit = self.frame().limit;
        let bound = self.frame().bound.clone();
        let id = self.open(name, kind, limit, bound)?;
        let r = f(self);
        self.close();
        r.map(|value| Field { value, id })
    }

    /// A group of fields read by `f` from the cursor on. Its span covers everything
    /// its children cover. A [`Stop`] inside propagates.
    pub fn group<T>(
        &mut self,
        name: impl Into<Name>,
        f: impl FnOnce(&mut Self) -> DResult<T>,
    ) -> DResult<T> {
        self.group_field(name, f).map(|g| g.value)
    }

    /// [`Builder::group`], with the group's node.
    pub fn group_field<T>(
        &mut self,
        name: impl Into<Name>,
        f: impl FnOnce(&mut Self) -> DResult<T>,
    ) -> DResult<Field<T>> {
        self.nest(name.into(), Kind::Struct, f)
    }

    /// A list; `f` adds its elements (usually with [`Builder::item`]).
    pub fn array<T>(
        &mut self,
        name: impl Into<Name>,
        f: impl FnOnce(&mut Self) -> DResult<T>,
    ) -> DResult<T> {
        self.array_field(name, f).map(|g| g.value)
    }

    /// [`Builder::array`], with the list's node.
    pub fn array_field<T>(
        &mut self,
        name: impl Into<Name>,
        f: impl FnOnce(&mut Self) -> DResult<T>,
    ) -> DResult<Field<T>> {
        self.nest(name.into(), Kind::Array, f)
    }

    /// Element `i` of a list: a group named `[i]`.
    pub fn item<T>(&mut self, i: u64, f: impl FnOnce(&mut Self) -> DResult<T>) -> DResult<T> {
        self.item_field(i, f).map(|g| g.value)
    }

    /// [`Builder::item`], with the element's node.
    pub fn item_field<T>(
        &mut self,
        i: u64,
        f: impl FnOnce(&mut Self) -> DResult<T>,
    ) -> DResult<Field<T>> {
        self.nest(Name::Index(i.min(u32::MAX as u64) as u32), Kind::Struct, f)
    }

    /// A group that carries a value of its own (e.g. a flag word whose children are
    /// its bits): `f` reads the children, then `value` is stored on the group.
    pub fn valued_group<T>(
        &mut self,
        name: impl Into<Name>,
        kind: Kind,
        f: impl FnOnce(&mut Self) -> DResult<T>,
    ) -> DResult<T> {
        self.valued_group_field(name, kind, f).map(|g| g.value)
    }

    /// [`Builder::valued_group`], with the group's node.
    pub fn valued_group_field<T>(
        &mut self,
        name: impl Into<Name>,
        kind: Kind,
        f: impl FnOnce(&mut Self) -> DResult<T>,
    ) -> DResult<Field<T>> {
        self.nest(name.into(), kind, f)
    }

    /// A bounded region `[start, start + len)` decoded by `f`. Reads inside cannot pass
    /// its end; a [`Stop`] inside is caught here (the error is already in the tree)
    /// and `None` returned. Afterwards the cursor sits at the region's end. If the
    /// region reaches past its parent's bound, that is recorded as an error on it and
    /// the region is cut there.
    pub fn region<T>(
        &mut self,
        name: impl Into<Name>,
        kind: Kind,
        start: u64,
        len: u64,
        f: impl FnOnce(&mut Self) -> DResult<T>,
    ) -> Option<T> {
        let parent_limit = self.frame().limit;
        let want_end = start.saturating_add(len).saturating_mul(8);
        let start_bits = start.saturating_mul(8).min(parent_limit);
        let end = want_end.min(parent_limit);
        self.pos = start_bits;
        let name = name.into();
        let bound: Rc<str> = format!("end of {name}").into();
        let id = self.open(name, kind, end, bound).ok()?;
        if want_end > parent_limit || start.saturating_mul(8) > parent_limit {
            let pb = self.stack[self.stack.len() - 2].bound.clone();
            self.set_error(
                id,
                format!(
                    "expected {len} bytes at 0x{start:X} (to 0x{:X}), but the {pb} is at {}",
                    start.saturating_add(len),
                    fmt_off(parent_limit)
                ),
            );
        }
        let r = f(self);
        self.close();
        self.tree.set_span(
            id,
            BitSpan {
                start: start_bits,
                end,
            },
        );
        self.pos = end;
        self.last = Some(id);
        r.ok()
    }

    /// A region like [`Builder::region`] whose contents `f` decodes now or, when
    /// the builder leaves parts lazy ([`Builder::lazy_threshold`]) and the region
    /// holds at least that many bytes, later: it becomes a lazy node over
    /// `[start, start + len)` that [`crate::expand`] decodes by calling `f` on a
    /// builder positioned at `start`, bounded by the region's end. `f` must
    /// depend only on what it captures and the file's bytes (it may run again
    /// after the node is released). `label`, if given, is the lazy node's display
    /// until it is decoded (`f` can set the real one). A region that would not
    /// fit its parent is decoded now, so its error reads as it always does.
    pub fn lazy_region<F>(
        &mut self,
        name: impl Into<Name>,
        kind: Kind,
        start: u64,
        len: u64,
        label: Option<String>,
        f: F,
    ) -> Option<()>
    where
        F: Fn(&mut Builder) -> DResult<()> + Send + Sync + 'static,
    {
        self.lazy_region_vouched(false, name, kind, start, len, label, f)
    }

    /// [`Builder::lazy_region`] for a region whose decoding reads `reads` bytes of
    /// the file, more than its own span (a header whose hash covers the whole
    /// file): what opening it costs, for callers that open groups unasked
    /// ([`Tree::open_cost`], [`crate::view::prefetch`]).
    #[allow(clippy::too_many_arguments)]
    pub fn lazy_region_reading<F>(
        &mut self,
        reads: u64,
        name: impl Into<Name>,
        kind: Kind,
        start: u64,
        len: u64,
        label: Option<String>,
        f: F,
    ) -> Option<()>
    where
        F: Fn(&mut Builder) -> DResult<()> + Send + Sync + 'static,
    {
        let how = LazyHow {
            vouched: false,
            reads: Some(reads),
        };
        self.lazy_region_how(how, name, kind, start, len, label, f)
    }

    /// [`Builder::lazy_region`] for a decoder that, when `vouched`, has checked the
    /// region without making nodes and found nothing it would report: the lazy
    /// node then says its subtree holds no error ([`Tree::may_hide_damage`]), so a
    /// streaming dump need not survey it first.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn lazy_region_vouched<F>(
        &mut self,
        vouched: bool,
        name: impl Into<Name>,
        kind: Kind,
        start: u64,
        len: u64,
        label: Option<String>,
        f: F,
    ) -> Option<()>
    where
        F: Fn(&mut Builder) -> DResult<()> + Send + Sync + 'static,
    {
        let how = LazyHow {
            vouched,
            reads: None,
        };
        self.lazy_region_how(how, name, kind, start, len, label, f)
    }

    /// [`Builder::lazy_region`], its lazy node made as `how` says.
    #[allow(clippy::too_many_arguments)]
    fn lazy_region_how<F>(
        &mut self,
        how: LazyHow,
        name: impl Into<Name>,
        kind: Kind,
        start: u64,
        len: u64,
        label: Option<String>,
        f: F,
    ) -> Option<()>
    where
        F: Fn(&mut Builder) -> DResult<()> + Send + Sync + 'static,
    {
        let big = self.lazy_threshold.is_some_and(|t| len >= t);
        self.lazy_region_if(big, how, name, kind, start, len, label, f)
            .map(|_| ())
    }

    /// [`Builder::lazy_region`], lazy only if `lazy` (and the region fits its
    /// parent); returns the lazy node, or `None` when decoded now.
    #[allow(clippy::too_many_arguments)]
    fn lazy_region_if<F>(
        &mut self,
        lazy: bool,
        how: LazyHow,
        name: impl Into<Name>,
        kind: Kind,
        start: u64,
        len: u64,
        label: Option<String>,
        f: F,
    ) -> Option<Option<NodeId>>
    where
        F: Fn(&mut Builder) -> DResult<()> + Send + Sync + 'static,
    {
        let name = name.into();
        let end = start.saturating_add(len).saturating_mul(8);
        let inside = start.saturating_mul(8) >= self.frame().start && end <= self.frame().limit;
        if !(lazy && inside && len > 0) {
            return self.region(name, kind, start, len, |b| f(b)).map(|_| None);
        }
        self.lazy_node_over(how, name, kind, start, len, label, f)
            .map(Some)
    }

    /// A lazy node over bytes `[start, start + len)` that `f` decodes when
    /// it is expanded (see [`Builder::lazy_region`]).
    #[allow(clippy::too_many_arguments)]
    fn lazy_node_over<F>(
        &mut self,
        how: LazyHow,
        name: Name,
        kind: Kind,
        start: u64,
        len: u64,
        label: Option<String>,
        f: F,
    ) -> Option<NodeId>
    where
        F: Fn(&mut Builder) -> DResult<()> + Send + Sync + 'static,
    {
        let end = start.saturating_add(len).saturating_mul(8);
        let bound: Rc<str> = format!("end of {name}").into();
        self.pos = start * 8;
        let recipe = FnRecipe {
            limit: end,
            bound: bound.as_ref().into(),
            endian: self.endian,
            f: Arc::new(f),
            vouched: how.vouched,
            reads: how.reads,
            exact_totals: self.exact_totals,
        };
        let id = self.lazy_node(name, kind, len * 8, Arc::new(recipe)).ok()?;
        if let Some(l) = label {
            self.set_display(id, l);
        }
        self.pos = end;
        Some(id)
    }

    /// A page of the current list: entries `first..=last`, lying in bytes
    /// `[start, start + len)`, which `f` decodes (as children of the list,
    /// named by their real indices). When the builder pages lists
    /// ([`Builder::page_size`]) and leaves parts lazy, the page is a lazy node
    /// named `[first…last]` (see [`crate::tree::Node::page`]) that `f` fills when
    /// it is expanded; otherwise `f` runs now and the entries go straight into
    /// the list. Callers split a list into pages of [`Builder::page_size`]
    /// entries only when they know where each page starts without decoding the
    /// entries before it.
    pub fn page<F>(&mut self, first: u64, last: u64, start: u64, len: u64, f: F) -> DResult<()>
    where
        F: Fn(&mut Builder) -> DResult<()> + Send + Sync + 'static,
    {
        self.page_vouched(false, first, last, start, len, f)
    }

    /// [`Builder::page`], vouched for when `vouched` (see
    /// [`Builder::lazy_region_vouched`]).
    pub(crate) fn page_vouched<F>(
        &mut self,
        vouched: bool,
        first: u64,
        last: u64,
        start: u64,
        len: u64,
        f: F,
    ) -> DResult<()>
    where
        F: Fn(&mut Builder) -> DResult<()> + Send + Sync + 'static,
    {
        let lazy = self.page_size.is_some()
            && self.lazy_threshold.is_some()
            && len > 0
            && start.saturating_mul(8) >= self.frame().start
            && start.saturating_add(len).saturating_mul(8) <= self.frame().limit;
        if !lazy {
            self.seek(start);
            return f(self);
        }
        let made = self.lazy_region_if(
            true,
            LazyHow {
                vouched,
                reads: None,
            },
            Name::from(format!("[{first}…{last}]")),
            Kind::Array,
            start,
            len,
            Some(format!("entries {first} to {last}, not decoded yet")),
            f,
        );
        if let Some(Some(id)) = made {
            self.set_page(id);
            self.set_value(id, Value::U(last.saturating_sub(first).saturating_add(1)));
        }
        Ok(())
    }

    /// Adds an empty struct node at byte `at` carrying `msg` as its error: the place
    /// for an entry whose offset cannot be followed (into a header, past the end).
    pub fn error_node(&mut self, name: impl Into<Name>, at: u64, msg: impl Into<String>) {
        let msg = msg.into();
        self.region(name, Kind::Struct, at, 0, |b| {
            let id = b.current();
            b.set_error(id, msg);
            Ok(())
        });
    }

    /// Finishes the tree: closes any open group, turns unclaimed bytes inside every
    /// parent into `unknown` nodes, and returns it.
    pub fn finish(mut self) -> Tree {
        while self.stack.len() > 1 {
            self.close();
        }
        self.flush_root();
        // Only the `.ksy` interpreter makes groups of runs of leaves (and
        // the decoder modules, which the page fetches, stay smaller without
        // this): elsewhere every node is looked at.
        #[cfg(feature = "ksy")]
        {
            // In id order (such groups hold no group, so they close in the order
            // they opened); one out of order would only be looked at again.
            let mut skip = self.gap_free.iter().copied().peekable();
            let parents: Vec<NodeId> = self
                .tree
                .parents()
                .filter(|&id| {
                    while skip.next_if(|&s| s < id).is_some() {}
                    skip.next_if_eq(&id).is_none()
                })
                .collect();
            fill_gaps_of(&mut self.tree, parents.into_iter());
        }
        #[cfg(not(feature = "ksy"))]
        {
            let n = self.tree.len() as NodeId;
            fill_gaps_of(&mut self.tree, 0..n);
        }
        self.tree.shrink();
        self.tree
    }
}

/// Decodes a region left lazy by [`Builder::lazy_region`].
struct FnRecipe {
    /// End of the region (bits) and its name for error messages.
    limit: u64,
    bound: Box<str>,
    /// Byte order in force where the region was met.
    endian: Endian,
    f: RegionFn,
    /// The decoder checked the region and found nothing it would report.
    vouched: bool,
    /// Bytes decoding it reads, when more than its span.
    reads: Option<u64>,
    /// Whether the builder that made it wanted exact totals: decoding it later
    /// wants them too (see [`Builder::exact_totals`]).
    exact_totals: bool,
}

/// What a lazy region's node says of itself (see [`Builder::lazy_region_vouched`]
/// and [`Builder::lazy_region_reading`]).
#[derive(Clone, Copy)]
struct LazyHow {
    vouched: bool,
    reads: Option<u64>,
}

type RegionFn = Arc<dyn Fn(&mut Builder) -> DResult<()> + Send + Sync>;

impl fmt::Debug for FnRecipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FnRecipe(to bit {}, {})", self.limit, self.bound)
    }
}

impl crate::tree::Recipe for FnRecipe {
    fn expand(&self, src: &dyn ByteSource, tree: Tree, id: NodeId) -> Tree {
        let mut b = Builder::resume(src, tree, id, self.limit, self.bound.as_ref().into());
        let first_new = b.tree().len();
        b.set_endian(self.endian);
        b.set_exact_totals(self.exact_totals);
        // The label said what the region is until now; an eager region has only
        // what `f` gives it.
        b.tree.clear_display(id);
        // A Stop has already recorded its error in the tree.
        let _ = (self.f)(&mut b);
        // The region keeps its whole span, as an eager region does.
        while b.stack.len() > 2 {
            b.close();
        }
        b.pos = self.limit;
        b.finish_expansion(first_new)
    }

    fn vouched(&self) -> bool {
        self.vouched
    }

    fn reads(&self) -> Option<u64> {
        self.reads
    }
}

fn describe_bits(bits: u64) -> String {
    if bits.is_multiple_of(8) {
        let b = bits / 8;
        if b == 1 {
            "1 byte".into()
        } else {
            format!("{b} bytes")
        }
    } else {
        format!("{bits} bits")
    }
}

/// Renders a four-character code as text, escaping bytes that are not printable.
pub fn fourcc_text(cc: &[u8]) -> String {
    let mut s = String::new();
    for &c in cc {
        if (0x20..0x7f).contains(&c) && c != b'\\' {
            s.push(c as char);
        } else {
            s.push_str(&format!("\\x{c:02X}"));
        }
    }
    s
}

/// Names the set bits of `v` from `table` (`(mask, name)`), joined with ` | `;
/// bits no entry names are appended in hex; `0` renders as `none`.
pub fn flag_names(v: u64, table: &[(u64, &str)]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut rest = v;
    for &(mask, name) in table {
        if mask != 0 && v & mask == mask {
            parts.push(name.to_string());
            rest &= !mask;
        }
    }
    if rest != 0 {
        parts.push(format!("0x{rest:X}"));
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(" | ")
    }
}

/// Inserts `unknown` nodes into the parents `ids` where no child covers their span.
/// Lazy nodes have no children yet and are left alone.
fn fill_gaps_of(tree: &mut Tree, ids: impl Iterator<Item = NodeId>) {
    let mut spans: Vec<BitSpan> = Vec::new();
    let mut gaps: Vec<BitSpan> = Vec::new();
    for id in ids {
        if tree.children(id).is_empty() {
            continue;
        }
        let span = tree.span(id);
        // A field whose bytes a `process` turned into others' has them all
        // accounted for: its children span those others.
        if span.is_empty()
            || tree.kind(id) == Kind::Derived
            || tree.is_decoded(id)
            || tree.inner(id).is_some()
        {
            continue;
        }
        spans.clear();
        // Children usually come in order: sort only when they do not.
        let mut sorted = true;
        let mut last = (0, 0);
        for &c in tree.children(id) {
            let s = tree.span(c);
            // A `.ksy` instance claims its parent's bytes only where it
            // lies inside it; nodes in decoded bytes claim none of the
            // file's.
            if s.is_empty() || tree.is_decoded(c) || (tree.is_instance(c) && !span.contains(&s)) {
                continue;
            }
            sorted &= last <= (s.start, s.end);
            last = (s.start, s.end);
            spans.push(s);
        }
        if !sorted {
            crate::sorted::sort_by_key(&mut spans, |s| (s.start, s.end));
        }
        gaps.clear();
        let mut cursor = span.start;
        for s in &spans {
            if s.start > cursor {
                gaps.push(BitSpan {
                    start: cursor,
                    end: s.start,
                });
            }
            cursor = cursor.max(s.end);
        }
        if cursor < span.end {
            gaps.push(BitSpan {
                start: cursor,
                end: span.end,
            });
        }
        if gaps.is_empty() {
            continue;
        }
        // Each gap goes before the first child (with bytes) that starts at
        // or after its end. The gaps are in order, so a merge places them.
        let first_gap = tree.push_rec(Some(id), Name::Static("unknown"), Kind::Unknown, gaps[0]);
        for &g in &gaps[1..] {
            tree.push_rec(Some(id), Name::Static("unknown"), Kind::Unknown, g);
        }
        let kids = tree.children(id);
        let mut list = Vec::with_capacity(kids.len() + gaps.len());
        let mut next = 0;
        for &c in kids {
            let s = tree.span(c);
            while next < gaps.len() && !s.is_empty() && s.start >= gaps[next].end {
                list.push(first_gap + next as NodeId);
                next += 1;
            }
            list.push(c);
        }
        list.extend((next..gaps.len()).map(|k| first_gap + k as NodeId));
        tree.set_children(id, &list);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn val(t: &Tree, path: &str) -> Option<Value> {
        t.find(path).and_then(|id| t.value(id))
    }

    #[test]
    fn bitfields_are_read_least_significant_bit_first_with_exact_spans() {
        let data: &[u8] = &[0b1011_0110, 0xFF];
        let mut b = Builder::new(&data, "t");
        assert_eq!(b.bits("lo", 4).unwrap(), 0b0110);
        assert_eq!(b.bits("mid", 2).unwrap(), 0b11);
        assert!(!b.bit("b6").unwrap());
        // A field that straddles a byte boundary.
        assert_eq!(b.bits("straddle", 3).unwrap(), 0b111);
        let t = b.finish();
        let s = t.span(t.find("straddle").unwrap());
        assert_eq!((s.start, s.end), (7, 10));
        assert_eq!((s.start_byte(), s.end_byte()), (0, 2));
        // The rest of the second byte is unclaimed.
        let unknown = t.node(t.find("unknown").unwrap());
        assert_eq!((unknown.span.start, unknown.span.end), (10, 16));
    }

    #[test]
    fn integers_follow_the_byte_order_in_force() {
        let data: &[u8] = &[1, 2, 3, 4, 0xFE, 0xFF];
        let mut b = Builder::new(&data, "t");
        assert_eq!(b.u16("le").unwrap(), 0x0201);
        b.set_endian(Endian::Big);
        assert_eq!(b.u16("be").unwrap(), 0x0304);
        b.set_endian(Endian::Little);
        assert_eq!(b.int("neg", 2).unwrap(), -2);
        // Children of open groups reach the tree when the groups close.
        assert_eq!(b.children(0).len(), 3);
        assert_eq!(val(&b.finish(), "neg"), Some(Value::I(-2)));
    }

    #[test]
    fn a_read_past_the_end_records_what_was_expected_and_marks_ancestors() {
        let data: &[u8] = &[1, 2, 3, 4, 5, 6];
        let mut b = Builder::new(&data, "t");
        let r = b.group("G", |b| {
            b.u32("a")?;
            b.u32("b")?;
            b.u32("never")
        });
        assert_eq!(r, Err(Stop));
        let t = b.finish();
        let bad = t.node(t.find("G/b").unwrap());
        assert_eq!(bad.error.as_deref(), Some("expected a 4-byte integer at 0x4, found only 2 bytes before the end of file at 0x6"));
        assert_eq!((bad.span.start_byte(), bad.span.end_byte()), (4, 6));
        assert!(t.find("G/never").is_none());
        assert!(t.is_damaged(t.find("G").unwrap()));
        assert!(t.is_damaged(t.root()));
        assert_eq!(t.errors().len(), 1);
    }

    #[test]
    fn a_region_contains_its_damage_and_decoding_continues_after_it() {
        let data: &[u8] = &[1, 0, 0, 0, 9, 9, 2, 0];
        let mut b = Builder::new(&data, "t");
        let r: Option<()> = b.region("R", Kind::Struct, 0, 6, |b| {
            b.u32("x")?;
            b.u32("y")?; // only 2 bytes left in the region
            Ok(())
        });
        assert!(r.is_none());
        assert_eq!(b.pos(), 6);
        assert_eq!(b.u16("after").unwrap(), 2);
        let t = b.finish();
        let y = t.node(t.find("R/y").unwrap());
        assert!(
            y.error
                .as_deref()
                .unwrap()
                .contains("before the end of R at 0x6"),
            "{:?}",
            y.error
        );
        assert!(!t.is_damaged(t.find("after").unwrap()));
    }

    #[test]
    fn a_region_reaching_past_its_parent_is_cut_and_flagged() {
        let data: &[u8] = &[0; 8];
        let mut b = Builder::new(&data, "t");
        b.region("R", Kind::Struct, 4, 100, |b| {
            b.bytes("all", b.remaining()).map(|_| ())
        });
        let t = b.finish();
        let r = t.node(t.find("R").unwrap());
        assert_eq!((r.span.start_byte(), r.span.end_byte()), (4, 8));
        assert!(r
            .error
            .as_deref()
            .unwrap()
            .contains("expected 100 bytes at 0x4"));
    }

    #[test]
    fn unclaimed_bytes_between_fields_become_unknown_nodes_in_order() {
        let data: &[u8] = &[0; 10];
        let mut b = Builder::new(&data, "t");
        b.group("G", |b| {
            b.u8("a")?;
            b.seek(4);
            b.u8("b")
        })
        .unwrap();
        let t = b.finish();
        let g = t.node(t.find("G").unwrap());
        let names: Vec<String> = g.children.iter().map(|&c| t.name(c).to_string()).collect();
        assert_eq!(names, ["a", "unknown", "b"]);
        let root_names: Vec<String> = t
            .children(0)
            .iter()
            .map(|&c| t.name(c).to_string())
            .collect();
        assert_eq!(root_names, ["G", "unknown"]);
    }

    #[test]
    fn strings_resolve_through_offsets_and_unterminated_ones_are_errors() {
        let data: &[u8] = b"\x04\x00\x00\x00abc\x00xyz";
        let mut b = Builder::new(&data, "t");
        assert_eq!(b.strref("ok", 4, 0, 11).unwrap().as_deref(), Some("abc"));
        b.seek(8);
        assert_eq!(b.cstr("bad"), Err(Stop));
        let t = b.finish();
        let ok = t.node(t.find("ok").unwrap());
        assert_eq!(ok.kind, Kind::StrRef);
        assert_eq!(ok.reference, Some(BitSpan::bytes(4, 8)));
        let bad = t.node(t.find("bad").unwrap());
        assert!(bad
            .error
            .as_deref()
            .unwrap()
            .contains("found 3 bytes without a terminator"));
    }

    #[test]
    fn a_hostile_count_cannot_create_more_nodes_than_the_budget() {
        let data = vec![0u8; 16];
        let slice: &[u8] = &data;
        let mut b = Builder::new(&slice, "t");
        let r = b.array("A", |b| {
            for i in 0..u32::MAX as u64 {
                b.derived(Name::Index(i as u32), Value::U(0), BitSpan::default(), None)?;
            }
            Ok(())
        });
        assert_eq!(r, Err(Stop));
        let t = b.finish();
        assert!(t.len() <= 4096 + 16 * 12 + 2);
        assert!(t
            .error(t.find("A").unwrap())
            .unwrap()
            .contains("node budget"));
    }

    #[test]
    fn flag_names_list_set_bits_and_leftovers() {
        assert_eq!(flag_names(0, &[(1, "A")]), "none");
        assert_eq!(flag_names(0b101, &[(1, "A"), (2, "B"), (4, "C")]), "A | C");
        assert_eq!(flag_names(0x11, &[(1, "A")]), "A | 0x10");
    }
}
