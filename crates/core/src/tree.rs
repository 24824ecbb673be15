//! The structure tree every decoder produces: one model for every format.
//!
//! A [`Tree`] is an arena of [`Node`]s. Each node has a name, a [`Kind`], a half-open
//! bit span ([`BitSpan`]), an optional typed [`Value`], an optional human `display`
//! (enum names, flag lists), an optional error and children. Spans are bit-precise
//! internally (bitfields, flag bits); output formats round them outwards to bytes.
//!
//! Nodes are only created through [`crate::Builder`], which records spans around
//! each read, so format code never computes a span by hand.

use crate::sorted::VecMap;
use crate::source::ByteSource;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::sync::Arc;

mod validate;
pub use validate::{node_bound, NODES_BASE, NODES_PER_BYTE};

/// Index of a node inside its [`Tree`].
pub type NodeId = u32;

/// A half-open range of bit positions `[start, end)`. Bit `8*b + i` is bit `i`
/// (counting from the least significant) of byte `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct BitSpan {
    /// First bit (inclusive).
    pub start: u64,
    /// One past the last bit.
    pub end: u64,
}

impl BitSpan {
    /// A span from byte offsets.
    pub fn bytes(start: u64, end: u64) -> Self {
        BitSpan {
            start: start * 8,
            end: end * 8,
        }
    }
    /// First byte touched.
    pub fn start_byte(&self) -> u64 {
        self.start / 8
    }
    /// One past the last byte touched (rounded outwards).
    pub fn end_byte(&self) -> u64 {
        self.end.div_ceil(8)
    }
    /// Length in bits.
    pub fn len_bits(&self) -> u64 {
        self.end - self.start
    }
    /// True if the span covers no bits.
    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }
    /// True if `other` lies inside `self`.
    pub fn contains(&self, other: &BitSpan) -> bool {
        other.start >= self.start && other.end <= self.end
    }
    /// True if both spans share at least one bit.
    pub fn overlaps(&self, other: &BitSpan) -> bool {
        self.start < other.end && other.start < self.end
    }
    /// True if the span starts and ends on byte boundaries.
    pub fn is_byte_aligned(&self) -> bool {
        self.start.is_multiple_of(8) && self.end.is_multiple_of(8)
    }
}

/// What a node is. Integer kinds say how the bytes were read; the meaning of an
/// enum or flag field is carried by `display`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    /// The root of a decoded file.
    File,
    /// A group of fields (a struct, a part, a header).
    Struct,
    /// A list whose children are named `[0]`, `[1]`, …
    Array,
    /// Unsigned little- or big-endian integers.
    U8,
    U16,
    U32,
    U64,
    /// Signed integers.
    I8,
    I16,
    I32,
    I64,
    /// IEEE floating point.
    F32,
    F64,
    /// A variable-length integer (its encoded bytes are the span).
    VarInt,
    /// A run of bits inside a larger integer (a bitfield or a single flag).
    Bits,
    /// A boolean stored as an integer or a bit.
    Bool,
    /// A four-character code.
    FourCC,
    /// A text string (NUL-terminated or length-delimited).
    Str,
    /// An integer field that refers to a string stored elsewhere; its value is the
    /// resolved string and its `reference` span points at the string bytes.
    StrRef,
    /// A raw run of bytes whose content is not decoded further.
    Bytes,
    /// Alignment or reserved padding.
    Padding,
    /// Bytes inside a parent that no decoded field claims.
    Unknown,
    /// A value computed from other fields, not stored at its own bytes: its span is
    /// empty and `reference` points at the bytes it was derived from.
    Derived,
}

impl Kind {
    /// The stable lower-case name used in JSON and text output.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::File => "file",
            Kind::Struct => "struct",
            Kind::Array => "array",
            Kind::U8 => "u8",
            Kind::U16 => "u16",
            Kind::U32 => "u32",
            Kind::U64 => "u64",
            Kind::I8 => "i8",
            Kind::I16 => "i16",
            Kind::I32 => "i32",
            Kind::I64 => "i64",
            Kind::F32 => "f32",
            Kind::F64 => "f64",
            Kind::VarInt => "varint",
            Kind::Bits => "bits",
            Kind::Bool => "bool",
            Kind::FourCC => "fourcc",
            Kind::Str => "string",
            Kind::StrRef => "strref",
            Kind::Bytes => "bytes",
            Kind::Padding => "padding",
            Kind::Unknown => "unknown",
            Kind::Derived => "derived",
        }
    }

    /// Every kind, in the order of their codes.
    const ALL: [Kind; 23] = [
        Kind::File,
        Kind::Struct,
        Kind::Array,
        Kind::U8,
        Kind::U16,
        Kind::U32,
        Kind::U64,
        Kind::I8,
        Kind::I16,
        Kind::I32,
        Kind::I64,
        Kind::F32,
        Kind::F64,
        Kind::VarInt,
        Kind::Bits,
        Kind::Bool,
        Kind::FourCC,
        Kind::Str,
        Kind::StrRef,
        Kind::Bytes,
        Kind::Padding,
        Kind::Unknown,
        Kind::Derived,
    ];

    /// The kind's small code (stable: the tree's records and the wire format
    /// store it).
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The kind with code `c`, if there is one.
    pub fn from_code(c: u8) -> Option<Kind> {
        Kind::ALL.get(c as usize).copied()
    }

    /// True for kinds that group other nodes rather than hold a value.
    pub fn is_group(self) -> bool {
        matches!(self, Kind::File | Kind::Struct | Kind::Array)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A decoded value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Unsigned integer (also used for enum and flag fields: the raw number).
    U(u64),
    /// Signed integer.
    I(i64),
    /// Floating point.
    F(f64),
    /// Boolean.
    Bool(bool),
    /// Text (lossily decoded from the file's bytes when not valid UTF-8).
    Str(String),
}

impl Value {
    /// The value as an unsigned integer, if it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::U(v) => Some(v),
            Value::I(v) if v >= 0 => Some(v as u64),
            _ => None,
        }
    }
    /// The value as text, if it is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::U(v) => write!(f, "{v}"),
            Value::I(v) => write!(f, "{v}"),
            Value::F(v) => crate::floattext::write_display(f, *v),
            Value::Bool(v) => write!(f, "{v}"),
            // Quoted; control characters escaped, everything else as stored (text
            // that decoders already escaped, like a FourCC's `\xC0`, is not escaped twice).
            Value::Str(s) => {
                f.write_char('"')?;
                for c in s.chars() {
                    if c.is_control() {
                        write!(f, "\\u{{{:x}}}", c as u32)?;
                    } else {
                        f.write_char(c)?;
                    }
                }
                f.write_char('"')
            }
        }
    }
}

/// A node's name: a fixed field name, a list index (`[i]`), or an owned string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Name {
    /// A field name known at compile time.
    Static(&'static str),
    /// A list element, shown as `[i]`.
    Index(u32),
    /// A name computed at run time.
    Owned(Box<str>),
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Name::Static(s) => f.write_str(s),
            Name::Index(i) => write!(f, "[{i}]"),
            Name::Owned(s) => f.write_str(s),
        }
    }
}

impl From<&'static str> for Name {
    fn from(s: &'static str) -> Self {
        Name::Static(s)
    }
}

impl From<String> for Name {
    fn from(s: String) -> Self {
        Name::Owned(s.into_boxed_str())
    }
}

/// A node's name as the tree stores it, borrowed: text or a list index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameRef<'a> {
    /// A field name (fixed or computed).
    Str(&'a str),
    /// A list element, shown as `[i]`.
    Index(u32),
}

impl fmt::Display for NameRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameRef::Str(s) => f.write_str(s),
            NameRef::Index(i) => write!(f, "[{i}]"),
        }
    }
}

impl NameRef<'_> {
    /// True if the name renders as `s` (`[3]` for index 3), without allocating.
    pub fn is(&self, s: &str) -> bool {
        match *self {
            NameRef::Str(t) => t == s,
            NameRef::Index(i) => s
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .is_some_and(|d| {
                    !d.is_empty()
                        && (d == "0" || !d.starts_with('0'))
                        && d.bytes().all(|c| c.is_ascii_digit())
                        && d.parse::<u32>() == Ok(i)
                }),
        }
    }
}

/// A node's value as the tree stores it, borrowed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueRef<'a> {
    /// Unsigned integer.
    U(u64),
    /// Signed integer.
    I(i64),
    /// Floating point.
    F(f64),
    /// Boolean.
    Bool(bool),
    /// Text.
    Str(&'a str),
}

impl ValueRef<'_> {
    /// An owned copy.
    pub fn to_owned(&self) -> Value {
        match *self {
            ValueRef::U(v) => Value::U(v),
            ValueRef::I(v) => Value::I(v),
            ValueRef::F(v) => Value::F(v),
            ValueRef::Bool(v) => Value::Bool(v),
            ValueRef::Str(s) => Value::Str(s.to_string()),
        }
    }
    /// The value as an unsigned integer, if it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            ValueRef::U(v) => Some(v),
            ValueRef::I(v) if v >= 0 => Some(v as u64),
            _ => None,
        }
    }
}

/// One node of the structure tree, as a snapshot: [`Tree::node`] builds it from
/// the tree's compact storage (its display rendered, its children listed). Code
/// that visits many nodes uses [`Tree`]'s accessors ([`Tree::span`],
/// [`Tree::children`], [`Tree::display`], …), which build nothing.
#[derive(Clone, Debug)]
pub struct Node {
    /// Field name, list index or computed name.
    pub name: Name,
    /// What the node is.
    pub kind: Kind,
    /// The bits the node covers (empty for [`Kind::Derived`]).
    pub span: BitSpan,
    /// The decoded value, absent on groups and raw byte runs.
    pub value: Option<Value>,
    /// Human rendering: enum names, flag lists, resolved offsets.
    pub display: Option<Box<str>>,
    /// What went wrong decoding this node: expected, found, and where.
    pub error: Option<Box<str>>,
    /// Bytes this node refers to elsewhere in the file (a string an offset points at,
    /// the source of a derived value).
    pub reference: Option<BitSpan>,
    /// True if this node or a descendant carries an error.
    pub damaged: bool,
    /// True while the node's children are not decoded yet: it has its span, name,
    /// kind, value and display, but no children until [`crate::expand`] decodes
    /// them (see [`crate::Options::lazy_threshold`]).
    pub lazy: bool,
    /// True on a page of a long list (`[1000…1999]`): a way of browsing the list
    /// in parts that each decode when opened. A page is not part of the file's
    /// structure: paths, the JSON contract and the text dump show its children as
    /// children of its parent (see [`Tree::walk`]).
    pub page: bool,
    /// True on a `.ksy` instance (see [`Tree::is_instance`]).
    pub instance: bool,
    /// True on a node inside bytes a `.ksy` `process` made (see
    /// [`Tree::is_decoded`]).
    pub decoded: bool,
    /// The parent, `None` for the root.
    pub parent: Option<NodeId>,
    /// Children in display order.
    pub children: Vec<NodeId>,
}

/// What is needed to decode a lazy node's children later: a decoder's own state
/// at the node (where it starts, what it must know there). It stays inside the
/// process that decoded the tree. A format makes a node lazy by giving the
/// builder a recipe ([`crate::Builder`]'s `lazy_node`); the tree only stores it
/// and hands it back, so this module knows nothing of any format.
pub(crate) trait Recipe: Send + Sync {
    /// Decodes the children of lazy node `id` of `tree` from `src` and returns
    /// the tree with them appended (see [`crate::expand`]). Never panics.
    fn expand(&self, src: &dyn ByteSource, tree: Tree, id: NodeId) -> Tree;
    /// True if the decoder knows the node's subtree holds no error (it read all
    /// of it, making no nodes, before leaving it lazy): a walk that writes
    /// damage flags need not look inside first.
    fn vouched(&self) -> bool {
        false
    }
    /// Bytes of the file decoding it reads, when more than the node's span
    /// (see [`Tree::open_cost`]).
    fn reads(&self) -> Option<u64> {
        None
    }
}

// A recipe's own fields are the decoder's business: a tree's `Debug` names it
// only (a decoder module then links no `Debug` code of any recipe).
impl fmt::Debug for dyn Recipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Recipe")
    }
}

/// A shared recipe: kept after an expansion so a released node can be decoded
/// again.
pub(crate) type RecipeRef = Arc<dyn Recipe>;

/// A decoder's display rule: see [`Render::With`].
pub type DisplayFn = fn(&Tree, NodeId, &mut String) -> Option<()>;

/// How a node's display text is made when it is read: stored text, or a rule
/// that renders it from the node (so the common displays cost no memory).
#[derive(Clone, Copy)]
pub(crate) enum Render {
    /// Fixed text.
    Static(&'static str),
    /// The name an enumeration gives the node's value, or `unknown (v)`.
    Enum(fn(u64) -> Option<&'static str>),
    /// The names of the flags set in the node's value (see
    /// [`crate::builder::flag_names`]).
    Flags(&'static [(u64, &'static str)]),
    /// A decoder's own rule, reading the node and its neighbours: appends the
    /// display to the string, or returns `None` (what it appended is dropped).
    With(DisplayFn),
    /// A decoder's display rule and, beside it, the rule of the node's
    /// comparison key (see [`Tree::key`]): nodes rendered alike are keyed
    /// alike, at no cost per node.
    Keyed(DisplayFn, DisplayFn),
}

impl Render {
    fn key(&self) -> (u8, usize, usize) {
        match *self {
            Render::Static(s) => (0, s.as_ptr() as usize, s.len()),
            Render::Enum(f) => (1, f as usize, 0),
            Render::Flags(t) => (2, t.as_ptr() as usize, t.len()),
            Render::With(f) => (3, f as usize, 0),
            Render::Keyed(f, k) => (4, f as usize, k as usize),
        }
    }
}

impl fmt::Debug for Render {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Render::Static(s) => write!(f, "Static({s:?})"),
            Render::Enum(_) => f.write_str("Enum"),
            Render::Flags(_) => f.write_str("Flags"),
            Render::With(_) => f.write_str("With"),
            Render::Keyed(..) => f.write_str("Keyed"),
        }
    }
}

// ----- compact storage ---------------------------------------------------------

/// The hasher of the tree's small interning tables (keys are addresses and
/// lengths, not attacker-chosen text): rustc-hash's Fx hash, which replaced a
/// hand-written one of the same kind (bench/RESULTS.md, "Library choices").
type FastHash = rustc_hash::FxBuildHasher;

const NONE: u32 = u32::MAX;

// Rec::flags
const DAMAGED: u8 = 1;
const LAZY: u8 = 2;
const PAGE: u8 = 4;
const HAS_ERROR: u8 = 8;
const HAS_REF: u8 = 16;
/// The span's length does not fit `len`: it is in `Tree::long_len`.
const LONG: u8 = 32;
/// `payload` holds the children's range in `Tree::kids`.
const KIDS: u8 = 64;
/// The value is in `Tree::side_vals` (the payload holds children).
const SIDE_VAL: u8 = 128;

// Value tags (the top three bits of Rec::kind).
const V_NONE: u8 = 0;
const V_U: u8 = 1;
const V_I: u8 = 2;
const V_F: u8 = 3;
const V_BOOL: u8 = 4;
const V_STR: u8 = 5;

// Rec::disp
const D_NONE: u16 = 0;
const D_TEXT: u16 = 1;
const D_FIRST_RENDER: u16 = 2;
/// Rec::disp's top bits: marks of a `.ksy` node (see [`Tree::is_instance`],
/// [`Tree::is_decoded`]); the display tag is the rest.
const M_INSTANCE: u16 = 0x8000;
const M_DECODED: u16 = 0x4000;
const D_MASK: u16 = 0x3FFF;

/// A key's `TextRef::off` when the key is static text: `len` is its index in
/// `Tree::statics`.
const STATIC_KEY: u32 = u32::MAX;

// Rec::name tags (top two bits).
const N_STATIC: u32 = 0;
const N_INDEX: u32 = 1 << 30;
const N_OWNED: u32 = 2 << 30;
const N_TAG: u32 = 3 << 30;
const N_MAX_INDEX: u32 = (1 << 30) - 1;

/// One node in 32 bytes: everything a node usually has inline, the rest
/// (display text, errors, references, values of groups) in side tables.
#[derive(Clone, Copy, Debug)]
struct Rec {
    /// First bit.
    start: u64,
    /// Length in bits (see [`LONG`]).
    len: u32,
    /// Tagged name: a static name's index, a list index, or an owned name's index.
    name: u32,
    /// Parent id, [`NONE`] for the root.
    parent: u32,
    /// Kind (low five bits) and value tag (high three).
    kind: u8,
    flags: u8,
    /// [`D_NONE`], [`D_TEXT`], or a render rule's index plus [`D_FIRST_RENDER`].
    disp: u16,
    /// The value (integers and floats as bits, a string as its range in
    /// `Tree::text`), or, with [`KIDS`], the children's range in `Tree::kids`.
    payload: u64,
}

const _: () = assert!(std::mem::size_of::<Rec>() == 32);

/// Two 32-bit halves (an offset and a length) in one payload.
fn pack(off: u64, len: u64) -> u64 {
    (off << 32) | (len & 0xFFFF_FFFF)
}

/// The halves [`pack`] joined.
fn unpack(p: u64) -> (u64, u64) {
    (p >> 32, p & 0xFFFF_FFFF)
}

/// A range of `Tree::text`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TextRef {
    off: u32,
    len: u32,
}

/// What a release needs to undo an expansion.
#[derive(Clone, Debug)]
struct Expansion {
    /// Lengths of the node arena, the children arena, the text arena and the
    /// owned-name list before the expansion.
    nodes: usize,
    kids: usize,
    text: usize,
    owned: usize,
    /// The node as it was before.
    before: Box<Node>,
    /// When the expansion was last used (see [`Tree::touch`]).
    used: u64,
}

/// A decoded file: an arena of nodes whose first entry is the root.
///
/// Nodes are stored compactly (32 bytes each plus 4 for their place in their
/// parent's child list); names, strings, display text and errors live in shared
/// arenas or are rendered when read. A tree decoded with a lazy threshold
/// ([`crate::decode_with`]) also keeps, for each lazy node, what
/// [`crate::expand`] needs to decode it later.
#[derive(Clone, Debug)]
pub struct Tree {
    recs: Vec<Rec>,
    /// Children lists, each contiguous.
    kids: Vec<NodeId>,
    /// Owned names, string values, display text and errors.
    text: String,
    statics: Vec<&'static str>,
    static_ix: HashMap<(usize, usize), u32, FastHash>,
    owned: Vec<TextRef>,
    renders: Vec<Render>,
    render_ix: HashMap<(u8, usize, usize), u16, FastHash>,
    disp_text: VecMap<NodeId, TextRef>,
    /// Comparison keys decoders gave: text in the arena (often a part of the
    /// node's display text), or a static text (see [`STATIC_KEY`]).
    keys: VecMap<NodeId, TextRef>,
    errors: VecMap<NodeId, TextRef>,
    refs: VecMap<NodeId, BitSpan>,
    side_vals: VecMap<NodeId, Value>,
    long_len: VecMap<NodeId, u64>,
    /// The bytes a node's content was decoded from when they are not the
    /// file's (a `.ksy` field's `process`): its children span them.
    inner: VecMap<NodeId, Arc<[u8]>>,
    /// Lazy nodes holding the rest of a list read as far as the viewer
    /// needed, and what reads them ahead.
    rests: VecMap<NodeId, RestRef>,
    recipes: VecMap<NodeId, RecipeRef>,
    /// For each expanded node still holding its children.
    expanded: VecMap<NodeId, Expansion>,
    clock: u64,
    lazy_threshold: Option<u64>,
    page_size: Option<u32>,
}

impl Tree {
    /// A tree with no nodes and empty tables.
    fn blank() -> Self {
        Tree {
            recs: Vec::new(),
            kids: Vec::new(),
            text: String::new(),
            statics: Vec::new(),
            static_ix: HashMap::default(),
            owned: Vec::new(),
            renders: Vec::new(),
            render_ix: HashMap::default(),
            disp_text: VecMap::new(),
            keys: VecMap::new(),
            errors: VecMap::new(),
            refs: VecMap::new(),
            side_vals: VecMap::new(),
            long_len: VecMap::new(),
            inner: VecMap::new(),
            rests: VecMap::new(),
            recipes: VecMap::new(),
            expanded: VecMap::new(),
            clock: 0,
            lazy_threshold: None,
            page_size: None,
        }
    }

    pub(crate) fn with_root(name: Name, span: BitSpan) -> Self {
        let mut t = Tree::blank();
        t.push_rec(None, name, Kind::File, span);
        t
    }

    // ----- storage helpers ------------------------------------------------------

    /// Stores `s` in the text arena (cut to what a 32-bit offset can address).
    fn put_text(&mut self, s: &str) -> TextRef {
        let room = (u32::MAX as usize).saturating_sub(self.text.len());
        let mut n = s.len().min(room);
        while !s.is_char_boundary(n) {
            n -= 1;
        }
        let off = self.text.len() as u32;
        self.text.push_str(s.get(..n).unwrap_or_default());
        TextRef { off, len: n as u32 }
    }

    fn get_text(&self, r: TextRef) -> &str {
        self.text
            .get(r.off as usize..(r.off as usize).saturating_add(r.len as usize))
            .unwrap_or("")
    }

    fn name_code(&mut self, name: Name) -> u32 {
        match name {
            Name::Index(i) if i <= N_MAX_INDEX => N_INDEX | i,
            Name::Index(i) => self.owned_name(&format!("[{i}]")),
            Name::Static(s) => {
                let key = (s.as_ptr() as usize, s.len());
                if let Some(&ix) = self.static_ix.get(&key) {
                    return N_STATIC | ix;
                }
                let ix = self.statics.len() as u32;
                if ix > N_MAX_INDEX {
                    return self.owned_name(s);
                }
                self.statics.push(s);
                self.static_ix.insert(key, ix);
                N_STATIC | ix
            }
            Name::Owned(s) => self.owned_name(&s),
        }
    }

    fn owned_name(&mut self, s: &str) -> u32 {
        let ix = self.owned.len() as u32;
        if ix > N_MAX_INDEX {
            return N_INDEX | N_MAX_INDEX;
        }
        let r = self.put_text(s);
        self.owned.push(r);
        N_OWNED | ix
    }

    fn rec(&self, id: NodeId) -> &Rec {
        &self.recs[id as usize]
    }

    fn rec_mut(&mut self, id: NodeId) -> &mut Rec {
        &mut self.recs[id as usize]
    }

    /// Appends a node with no children, value or display; its parent does not
    /// list it yet (see [`Tree::add_children`]).
    pub(crate) fn push_rec(
        &mut self,
        parent: Option<NodeId>,
        name: Name,
        kind: Kind,
        span: BitSpan,
    ) -> NodeId {
        let id = self.recs.len() as NodeId;
        let name = self.name_code(name);
        let n = span.end.saturating_sub(span.start);
        self.recs.push(Rec {
            start: span.start,
            len: n.min(u32::MAX as u64) as u32,
            name,
            parent: parent.unwrap_or(NONE),
            kind: kind.code(),
            flags: 0,
            disp: D_NONE,
            payload: 0,
        });
        if n >= u32::MAX as u64 {
            self.set_span(id, span);
        }
        id
    }

    /// Appends integer leaves `[first_index]`, `[first_index + 1]`, … of
    /// kind `kind` under `parent`, each `width` bits from bit `start` on,
    /// valued `vals` (read as signed when `signed`); returns the first id.
    /// Its parent does not list them yet (see [`Tree::add_children`]).
    #[cfg(feature = "ksy")]
    pub(crate) fn push_int_leaves(
        &mut self,
        parent: NodeId,
        kind: Kind,
        (start, width): (u64, u64),
        first_index: u32,
        vals: &[u64],
        signed: bool,
    ) -> NodeId {
        let first = self.recs.len() as NodeId;
        self.recs.reserve(vals.len());
        for (k, &v) in vals.iter().enumerate() {
            let ix = first_index.saturating_add(k as u32);
            let name = if ix <= N_MAX_INDEX {
                N_INDEX | ix
            } else {
                self.name_code(Name::Index(ix))
            };
            let tag = if signed && (v as i64) < 0 { V_I } else { V_U };
            self.recs.push(Rec {
                start: start + k as u64 * width,
                len: width as u32,
                name,
                parent,
                kind: kind.code() | (tag << 5),
                flags: 0,
                disp: D_NONE,
                payload: v,
            });
        }
        first
    }

    /// The nodes that have children, in id order.
    #[cfg(feature = "ksy")]
    pub(crate) fn parents(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.recs
            .iter()
            .enumerate()
            .filter(|(_, r)| r.flags & KIDS != 0 && unpack(r.payload).1 > 0)
            .map(|(i, _)| i as NodeId)
    }

    /// Appends `new` to the children of `id` (they must name `id` as parent).
    pub(crate) fn add_children(&mut self, id: NodeId, new: &[NodeId]) {
        if new.is_empty() {
            return;
        }
        let old = self.children(id);
        let start = self.kids.len();
        if old.is_empty() {
            self.kids.extend_from_slice(new);
        } else {
            let (a, b) = (self.kids_range(id).0, old.len());
            self.kids.extend_from_within(a..a + b);
            self.kids.extend_from_slice(new);
        }
        let count = self.kids.len() - start;
        self.set_kids_range(id, start, count);
    }

    /// Replaces the children of `id` with `list`.
    pub(crate) fn set_children(&mut self, id: NodeId, list: &[NodeId]) {
        if list.is_empty() {
            self.clear_children(id);
            return;
        }
        let start = self.kids.len();
        self.kids.extend_from_slice(list);
        self.set_kids_range(id, start, list.len());
    }

    fn clear_children(&mut self, id: NodeId) {
        let r = self.rec_mut(id);
        if r.flags & KIDS != 0 {
            r.flags &= !KIDS;
            r.payload = 0;
        }
    }

    fn set_kids_range(&mut self, id: NodeId, start: usize, count: usize) {
        if self.rec(id).flags & (KIDS | SIDE_VAL) == 0 {
            // An inline value moves aside to make room for the children.
            if let Some(v) = self.value_ref(id).map(|v| v.to_owned()) {
                self.side_vals.insert(id, v);
                self.rec_mut(id).flags |= SIDE_VAL;
            }
        }
        let r = self.rec_mut(id);
        r.flags |= KIDS;
        r.payload = pack(start as u64, count as u64);
    }

    fn kids_range(&self, id: NodeId) -> (usize, usize) {
        let r = self.rec(id);
        if r.flags & KIDS == 0 {
            return (0, 0);
        }
        let (start, count) = unpack(r.payload);
        (start as usize, count as usize)
    }

    // ----- reading ----------------------------------------------------------------

    /// The node's bit span.
    pub fn span(&self, id: NodeId) -> BitSpan {
        let r = self.rec(id);
        let len = if r.flags & LONG != 0 {
            self.long_len.get(&id).copied().unwrap_or(r.len as u64)
        } else {
            r.len as u64
        };
        BitSpan {
            start: r.start,
            end: r.start.saturating_add(len),
        }
    }

    /// The node's kind.
    pub fn kind(&self, id: NodeId) -> Kind {
        Kind::from_code(self.rec(id).kind & 31).unwrap_or(Kind::Unknown)
    }

    /// The node's name.
    pub fn name(&self, id: NodeId) -> NameRef<'_> {
        self.name_of_code(self.rec(id).name)
    }

    /// The name a name code stands for.
    fn name_of_code(&self, code: u32) -> NameRef<'_> {
        let ix = code & !N_TAG;
        match code & N_TAG {
            N_STATIC => NameRef::Str(self.statics.get(ix as usize).copied().unwrap_or("")),
            N_INDEX => NameRef::Index(ix),
            _ => NameRef::Str(
                self.owned
                    .get(ix as usize)
                    .map(|&r| self.get_text(r))
                    .unwrap_or(""),
            ),
        }
    }

    /// The node's name as a [`Name`] (owned only when computed at run time).
    pub fn name_owned(&self, id: NodeId) -> Name {
        let code = self.rec(id).name;
        let ix = code & !N_TAG;
        match code & N_TAG {
            N_STATIC => Name::Static(self.statics.get(ix as usize).copied().unwrap_or("")),
            N_INDEX => Name::Index(ix),
            _ => Name::Owned(self.name(id).to_string().into()),
        }
    }

    /// The node's value.
    pub fn value_ref(&self, id: NodeId) -> Option<ValueRef<'_>> {
        let r = self.rec(id);
        let tag = r.kind >> 5;
        if tag == V_NONE {
            return None;
        }
        if r.flags & SIDE_VAL != 0 {
            return self.side_vals.get(&id).map(|v| match v {
                Value::U(v) => ValueRef::U(*v),
                Value::I(v) => ValueRef::I(*v),
                Value::F(v) => ValueRef::F(*v),
                Value::Bool(v) => ValueRef::Bool(*v),
                Value::Str(s) => ValueRef::Str(s),
            });
        }
        let p = r.payload;
        Some(match tag {
            V_U => ValueRef::U(p),
            V_I => ValueRef::I(p as i64),
            V_F => ValueRef::F(f64::from_bits(p)),
            V_BOOL => ValueRef::Bool(p != 0),
            _ => {
                let (off, len) = unpack(p);
                ValueRef::Str(self.get_text(TextRef {
                    off: off as u32,
                    len: len as u32,
                }))
            }
        })
    }

    /// The node's value, owned.
    pub fn value(&self, id: NodeId) -> Option<Value> {
        self.value_ref(id).map(|v| v.to_owned())
    }

    /// The node's display text (enum names, flag lists, what an offset points
    /// at), rendered now.
    pub fn display(&self, id: NodeId) -> Option<Cow<'_, str>> {
        match self.rec(id).disp & D_MASK {
            D_NONE => None,
            D_TEXT => self
                .disp_text
                .get(&id)
                .map(|&r| Cow::Borrowed(self.get_text(r))),
            _ => self.render(self.render_rule(id)?, id),
        }
    }

    /// What node `id` is matched by when two trees are compared
    /// ([`crate::diff`]), if its decoder said: an entry of a list that a name
    /// identifies (a part's FourCC, a symbol's name, a record's kind) rather
    /// than its position. Entries with equal keys are matched in order.
    pub fn key(&self, id: NodeId) -> Option<Cow<'_, str>> {
        if let Some(&r) = self.keys.get(&id) {
            return Some(Cow::Borrowed(self.key_text(r)));
        }
        let Some(Render::Keyed(_, k)) = self.render_rule(id) else {
            return None;
        };
        let mut s = String::new();
        k(self, id, &mut s).map(|()| Cow::Owned(s))
    }

    fn key_text(&self, r: TextRef) -> &str {
        if r.off == STATIC_KEY {
            return self.statics.get(r.len as usize).copied().unwrap_or("");
        }
        self.get_text(r)
    }

    /// Sets node `id`'s comparison key. A static text is stored as its index;
    /// one the node's display text holds, as that part of it (a symbol's name
    /// in its row), costing no text.
    pub(crate) fn set_key(&mut self, id: NodeId, key: Name) {
        let r = match key {
            Name::Static(s) => match self.name_code(Name::Static(s)) {
                code if code & N_TAG == N_STATIC => TextRef {
                    off: STATIC_KEY,
                    len: code & !N_TAG,
                },
                _ => self.put_text(s),
            },
            Name::Owned(s) => self.shared_key(id, &s),
            Name::Index(i) => self.put_text(&format!("[{i}]")),
        };
        self.keys.insert(id, r);
    }

    /// `key` as a part of node `id`'s display text if that holds it, else
    /// stored.
    fn shared_key(&mut self, id: NodeId, key: &str) -> TextRef {
        if self.rec(id).disp & D_MASK == D_TEXT {
            if let Some(&d) = self.disp_text.get(&id) {
                // A byte search (a match of valid UTF-8 in valid UTF-8 starts
                // on a character boundary); `str::find` would link a panic path.
                let (hay, k) = (self.get_text(d).as_bytes(), key.as_bytes());
                let found = (!k.is_empty())
                    .then(|| hay.windows(k.len()).position(|w| w == k))
                    .flatten();
                if let Some(at) = found {
                    return TextRef {
                        off: d.off + at as u32,
                        len: key.len() as u32,
                    };
                }
            }
        }
        self.put_text(key)
    }

    /// The rule node `id`'s display is rendered by, if it has one.
    fn render_rule(&self, id: NodeId) -> Option<Render> {
        let k = (self.rec(id).disp & D_MASK).checked_sub(D_FIRST_RENDER)?;
        self.renders.get(k as usize).copied()
    }

    /// Node `id`'s display as rule `render` makes it.
    fn render(&self, render: Render, id: NodeId) -> Option<Cow<'_, str>> {
        let v = self.value_ref(id).and_then(|v| v.as_u64()).unwrap_or(0);
        match render {
            Render::Static(s) => Some(Cow::Borrowed(s)),
            Render::Enum(f) => Some(match f(v) {
                Some(n) => Cow::Borrowed(n),
                None => Cow::Owned(format!("unknown ({v})")),
            }),
            Render::Flags(t) => Some(Cow::Owned(crate::builder::flag_names(v, t))),
            Render::With(f) | Render::Keyed(f, _) => {
                let mut s = String::new();
                f(self, id, &mut s).map(|()| Cow::Owned(s))
            }
        }
    }

    /// Appends node `id`'s display to `out`, as [`Tree::display`] gives it, without
    /// making a string of its own; false (and nothing appended) if it has none.
    pub fn display_into(&self, id: NodeId, out: &mut String) -> bool {
        if let Some(Render::With(f) | Render::Keyed(f, _)) = self.render_rule(id) {
            let len = out.len();
            let made = f(self, id, out).is_some();
            if !made {
                out.truncate(len);
            }
            return made;
        }
        match self.display(id) {
            Some(d) => {
                out.push_str(&d);
                true
            }
            None => false,
        }
    }

    /// What went wrong decoding the node.
    pub fn error(&self, id: NodeId) -> Option<&str> {
        if self.rec(id).flags & HAS_ERROR == 0 {
            return None;
        }
        self.errors.get(&id).map(|&r| self.get_text(r))
    }

    /// The bytes the node refers to elsewhere in the file.
    pub fn reference(&self, id: NodeId) -> Option<BitSpan> {
        if self.rec(id).flags & HAS_REF == 0 {
            return None;
        }
        self.refs.get(&id).copied()
    }

    /// True if the node or a descendant carries an error.
    pub fn is_damaged(&self, id: NodeId) -> bool {
        self.rec(id).flags & DAMAGED != 0
    }

    /// True while the node's children are not decoded yet (see [`Node::lazy`]).
    pub fn is_lazy(&self, id: NodeId) -> bool {
        self.rec(id).flags & LAZY != 0
    }

    /// True on a page of a long list (see [`Node::page`]).
    pub fn is_page(&self, id: NodeId) -> bool {
        self.rec(id).flags & PAGE != 0
    }

    /// The node's parent, `None` for the root.
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        let p = self.rec(id).parent;
        (p != NONE).then_some(p)
    }

    /// The node's children, in display order.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        let (a, n) = self.kids_range(id);
        self.kids.get(a..a + n).unwrap_or(&[])
    }

    // ----- writing (the builder's) ------------------------------------------------

    pub(crate) fn set_value(&mut self, id: NodeId, v: Value) {
        if self.rec(id).flags & KIDS != 0 {
            let tag = match v {
                Value::U(_) => V_U,
                Value::I(_) => V_I,
                Value::F(_) => V_F,
                Value::Bool(_) => V_BOOL,
                Value::Str(_) => V_STR,
            };
            self.side_vals.insert(id, v);
            let r = self.rec_mut(id);
            r.flags |= SIDE_VAL;
            r.kind = (r.kind & 31) | (tag << 5);
            return;
        }
        if self.rec(id).flags & SIDE_VAL != 0 {
            self.side_vals.remove(&id);
            self.rec_mut(id).flags &= !SIDE_VAL;
        }
        let (tag, payload) = match v {
            Value::U(x) => (V_U, x),
            Value::I(x) => (V_I, x as u64),
            Value::F(x) => (V_F, x.to_bits()),
            Value::Bool(x) => (V_BOOL, x as u64),
            Value::Str(s) => {
                let t = self.put_text(&s);
                (V_STR, pack(t.off as u64, t.len as u64))
            }
        };
        let r = self.rec_mut(id);
        r.kind = (r.kind & 31) | (tag << 5);
        r.payload = payload;
    }

    /// Sets the value of a node that has no children and whose value (if any)
    /// is an integer: the fast path of integer reads.
    #[inline]
    pub(crate) fn set_uint(&mut self, id: NodeId, v: u64) {
        let r = &mut self.recs[id as usize];
        if r.flags & (KIDS | SIDE_VAL) == 0 {
            r.kind = (r.kind & 31) | (V_U << 5);
            r.payload = v;
        } else {
            self.set_value(id, Value::U(v));
        }
    }

    /// Sets a text value without first making it a [`Value`].
    #[cfg(feature = "ksy")]
    pub(crate) fn set_str(&mut self, id: NodeId, s: &str) {
        if self.rec(id).flags & (KIDS | SIDE_VAL) != 0 {
            return self.set_value(id, Value::Str(s.to_string()));
        }
        let t = self.put_text(s);
        let r = self.rec_mut(id);
        r.kind = (r.kind & 31) | (V_STR << 5);
        r.payload = pack(t.off as u64, t.len as u64);
    }

    pub(crate) fn clear_value(&mut self, id: NodeId) {
        self.side_vals.remove(&id);
        let r = self.rec_mut(id);
        r.kind &= 31;
        r.flags &= !SIDE_VAL;
        if r.flags & KIDS == 0 {
            r.payload = 0;
        }
    }

    pub(crate) fn set_display_text(&mut self, id: NodeId, s: &str) {
        // A key its display rule gave stays when the rule gives way to text.
        if let (Some(Render::Keyed(..)), None) = (self.render_rule(id), self.keys.get(&id)) {
            if let Some(k) = self.key(id).map(Cow::into_owned) {
                self.set_key(id, Name::Owned(k.into_boxed_str()));
            }
        }
        let t = self.put_text(s);
        self.disp_text.insert(id, t);
        let r = self.rec_mut(id);
        r.disp = (r.disp & !D_MASK) | D_TEXT;
    }

    pub(crate) fn set_display_render(&mut self, id: NodeId, render: Render) {
        let key = render.key();
        let k = match self.render_ix.get(&key) {
            Some(&k) => k,
            None => {
                let k = self.renders.len();
                if k + D_FIRST_RENDER as usize > D_MASK as usize {
                    // The rule table is full: store the text instead.
                    let text = self.render(render, id).map(|c| c.into_owned());
                    match text {
                        Some(t) => self.set_display_text(id, &t),
                        None => self.clear_display(id),
                    }
                    return;
                }
                let k = k as u16;
                self.renders.push(render);
                self.render_ix.insert(key, k);
                k
            }
        };
        if self.rec(id).disp & D_MASK == D_TEXT {
            self.disp_text.remove(&id);
        }
        let r = self.rec_mut(id);
        r.disp = (r.disp & !D_MASK) | (k + D_FIRST_RENDER);
    }

    pub(crate) fn clear_display(&mut self, id: NodeId) {
        self.disp_text.remove(&id);
        let r = self.rec_mut(id);
        r.disp &= !D_MASK;
    }

    /// Sets the error of `id` (replacing any).
    pub(crate) fn set_error_text(&mut self, id: NodeId, s: &str) {
        let t = self.put_text(s);
        self.errors.insert(id, t);
        self.rec_mut(id).flags |= HAS_ERROR;
    }

    pub(crate) fn clear_error(&mut self, id: NodeId) {
        self.errors.remove(&id);
        self.rec_mut(id).flags &= !HAS_ERROR;
    }

    pub(crate) fn set_reference(&mut self, id: NodeId, span: Option<BitSpan>) {
        match span {
            Some(s) => {
                self.refs.insert(id, s);
                self.rec_mut(id).flags |= HAS_REF;
            }
            None => {
                self.refs.remove(&id);
                self.rec_mut(id).flags &= !HAS_REF;
            }
        }
    }

    pub(crate) fn set_kind(&mut self, id: NodeId, kind: Kind) {
        let r = self.rec_mut(id);
        r.kind = (r.kind & !31) | kind.code();
    }

    pub(crate) fn set_span(&mut self, id: NodeId, span: BitSpan) {
        let n = span.end.saturating_sub(span.start);
        if n >= u32::MAX as u64 {
            self.long_len.insert(id, n);
            let r = self.rec_mut(id);
            r.start = span.start;
            r.len = u32::MAX;
            r.flags |= LONG;
        } else {
            if self.rec(id).flags & LONG != 0 {
                self.long_len.remove(&id);
            }
            let r = self.rec_mut(id);
            r.start = span.start;
            r.len = n as u32;
            r.flags &= !LONG;
        }
    }

    /// Sets or clears `flag` on `id`.
    fn set_flag(&mut self, id: NodeId, flag: u8, on: bool) {
        let r = self.rec_mut(id);
        if on {
            r.flags |= flag;
        } else {
            r.flags &= !flag;
        }
    }

    pub(crate) fn set_damaged(&mut self, id: NodeId, on: bool) {
        self.set_flag(id, DAMAGED, on);
    }

    pub(crate) fn set_lazy(&mut self, id: NodeId, on: bool) {
        self.set_flag(id, LAZY, on);
    }

    pub(crate) fn set_page(&mut self, id: NodeId) {
        self.set_flag(id, PAGE, true);
    }

    /// Marks `id` and its ancestors damaged, stopping at the first ancestor
    /// already marked.
    pub(crate) fn mark_damaged(&mut self, id: NodeId) {
        let mut cur = Some(id);
        while let Some(c) = cur {
            if self.is_damaged(c) && c != id {
                break;
            }
            self.set_damaged(c, true);
            cur = self.parent(c);
        }
    }

    /// Appends a node given in full (its children, which must follow it or
    /// already exist, are listed as given). Returns its id.
    fn push_node(&mut self, n: &Node) -> NodeId {
        let id = self.push_rec(n.parent, n.name.clone(), n.kind, n.span);
        self.fill_from(id, n);
        id
    }

    /// Sets everything of `id` but its name, kind, span and parent from `n`.
    fn fill_from(&mut self, id: NodeId, n: &Node) {
        self.clear_value(id);
        self.set_children(id, &n.children);
        if let Some(v) = &n.value {
            self.set_value(id, v.clone());
        }
        match &n.display {
            Some(d) => self.set_display_text(id, d),
            None => self.clear_display(id),
        }
        match &n.error {
            Some(e) => self.set_error_text(id, e),
            None => self.clear_error(id),
        }
        self.set_reference(id, n.reference);
        self.set_damaged(id, n.damaged);
        self.set_lazy(id, n.lazy);
        self.set_flag(id, PAGE, n.page);
        self.set_mark(id, M_INSTANCE, n.instance);
        self.set_mark(id, M_DECODED, n.decoded);
    }

    /// True on a `.ksy` instance's node: it lies where the instance was read
    /// (a `pos` instance anywhere in the file), which need not be inside its
    /// parent, the one exception to nesting (see [`Tree::validate`]).
    pub fn is_instance(&self, id: NodeId) -> bool {
        self.rec(id).disp & M_INSTANCE != 0
    }

    /// True on a node read from bytes a `.ksy` `process` made: its span is
    /// offsets into those bytes, not the file's (the processed field's own
    /// node, which holds it, spans the file's bytes).
    pub fn is_decoded(&self, id: NodeId) -> bool {
        self.rec(id).disp & M_DECODED != 0
    }

    #[cfg(feature = "ksy")]
    pub(crate) fn set_instance(&mut self, id: NodeId, on: bool) {
        self.set_mark(id, M_INSTANCE, on);
    }

    #[cfg(feature = "ksy")]
    pub(crate) fn set_decoded(&mut self, id: NodeId, on: bool) {
        self.set_mark(id, M_DECODED, on);
    }

    /// The bytes node `id`'s content was decoded from, when they are not the
    /// file's: what a `.ksy` field's `process` made of its bytes (its
    /// children, marked [`Tree::is_decoded`], span them).
    pub fn inner(&self, id: NodeId) -> Option<&Arc<[u8]>> {
        self.inner.get(&id)
    }

    #[cfg(feature = "ksy")]
    pub(crate) fn set_inner(&mut self, id: NodeId, bytes: Arc<[u8]>) {
        self.inner.insert(id, bytes);
    }

    /// True on a node holding the rest of a list read as far as the viewer
    /// needed (a `.ksy` list of unsized elements to the stream's end):
    /// expanding it reads on.
    pub fn is_rest(&self, id: NodeId) -> bool {
        self.rests.get(&id).is_some()
    }

    #[cfg(feature = "ksy")]
    pub(crate) fn set_rest(&mut self, id: NodeId, ahead: Arc<dyn ReadAhead>) {
        self.rests.insert(id, RestRef(ahead));
    }

    /// Reads the rest of a list (node `id`, see [`Tree::is_rest`]) ahead
    /// for about `budget` bytes, before its node is opened: opened, it
    /// shows what was read as pages, and a rest again for what was not.
    /// Its display says how far it has got. `None` if `id` is no list's
    /// rest, or it is opened already.
    pub fn read_ahead(&mut self, src: &dyn ByteSource, id: NodeId, budget: u64) -> Option<Ahead> {
        if !self.is_lazy(id) {
            return None;
        }
        let r = self.rests.get(&id)?.0.clone();
        let a = r.step(src, budget);
        let pct = |a: &Ahead| {
            let whole = a.end.saturating_sub(a.from).max(1) as f64;
            (a.to.saturating_sub(a.from) as f64 * 100.0 / whole).floor()
        };
        let text = if a.done {
            format!(
                "{} entries read ahead to the end: open to see them",
                a.entries
            )
        } else {
            format!(
                "{} entries read ahead ({}% of these bytes): open to see them",
                a.entries,
                pct(&a)
            )
        };
        self.set_display_text(id, &text);
        Some(a)
    }

    /// The node whose [`Tree::inner`] bytes node `id` spans (`None`: it spans
    /// the file's).
    pub fn holder(&self, id: NodeId) -> Option<NodeId> {
        if !self.is_decoded(id) {
            return None;
        }
        let mut cur = self.parent(id);
        while let Some(p) = cur {
            if self.inner.get(&p).is_some() {
                return Some(p);
            }
            cur = self.parent(p);
        }
        None
    }

    fn set_mark(&mut self, id: NodeId, mark: u16, on: bool) {
        let r = self.rec_mut(id);
        if on {
            r.disp |= mark;
        } else {
            r.disp &= !mark;
        }
    }

    /// Restores `id` as `n` was, keeping its render rule when `n`'s display is
    /// the one it renders.
    fn restore(&mut self, id: NodeId, n: &Node) {
        let disp = self.rec(id).disp & D_MASK;
        let same_render =
            disp >= D_FIRST_RENDER && self.display(id).as_deref() == n.display.as_deref();
        self.fill_from(id, n);
        if same_render {
            self.disp_text.remove(&id);
            let r = self.rec_mut(id);
            r.disp = (r.disp & !D_MASK) | disp;
        }
        let code = self.name_code(n.name.clone());
        self.rec_mut(id).name = code;
        self.set_kind(id, n.kind);
        self.set_span(id, n.span);
    }

    // ----- whole nodes ------------------------------------------------------------

    /// A snapshot of node `id` (display rendered, children listed).
    ///
    /// Panics if `id` did not come from this tree.
    pub fn node(&self, id: NodeId) -> Node {
        Node {
            name: self.name_owned(id),
            kind: self.kind(id),
            span: self.span(id),
            value: self.value(id),
            display: self.display(id).map(|d| d.into()),
            error: self.error(id).map(Into::into),
            reference: self.reference(id),
            damaged: self.is_damaged(id),
            lazy: self.is_lazy(id),
            page: self.is_page(id),
            instance: self.is_instance(id),
            decoded: self.is_decoded(id),
            parent: self.parent(id),
            children: self.children(id).to_vec(),
        }
    }

    /// Snapshots of all nodes, in creation order (the root first).
    pub fn nodes(&self) -> Vec<Node> {
        self.nodes_in(0..self.len() as NodeId)
    }

    /// Snapshots of the nodes with ids in `ids` (clamped to the tree).
    pub fn nodes_in(&self, ids: std::ops::Range<NodeId>) -> Vec<Node> {
        let end = ids.end.min(self.len() as NodeId);
        (ids.start.min(end)..end).map(|i| self.node(i)).collect()
    }

    /// The first lazy node with id `from` or later, in creation order.
    pub fn next_lazy(&self, from: NodeId) -> Option<NodeId> {
        (from..self.len() as NodeId).find(|&id| self.is_lazy(id))
    }

    /// Bytes the tree holds (its arenas and side tables, by capacity; the side
    /// tables estimated per entry): what a memory budget counts.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let side = self.disp_text.len() * (size_of::<NodeId>() + size_of::<TextRef>() + 8)
            + self.errors.len() * (size_of::<NodeId>() + size_of::<TextRef>() + 8)
            + self.keys.len() * (size_of::<NodeId>() + size_of::<TextRef>() + 8)
            + self.refs.len() * (size_of::<NodeId>() + size_of::<BitSpan>() + 8)
            + self.side_vals.len() * (size_of::<NodeId>() + size_of::<Value>() + 8)
            + self.long_len.len() * 20
            + self.inner.len() * 24
            + self.rests.len() * 24
            + self.recipes.len() * 32
            + self.expanded.len() * (size_of::<Expansion>() + size_of::<Node>() + 16);
        self.recs.capacity() * size_of::<Rec>()
            + self.kids.capacity() * size_of::<NodeId>()
            + self.text.capacity()
            + self.owned.capacity() * size_of::<TextRef>()
            + self.statics.capacity() * size_of::<&str>()
            + side
    }

    /// Gives back spare capacity of the arenas (after an eager decode).
    pub(crate) fn shrink(&mut self) {
        self.compact_kids();
        self.recs.shrink_to_fit();
        self.kids.shrink_to_fit();
        self.text.shrink_to_fit();
        self.owned.shrink_to_fit();
    }

    /// Rewrites the children arena with only the lists nodes use (lists
    /// replaced while decoding leave their old copies behind).
    fn compact_kids(&mut self) {
        let live: usize = (0..self.recs.len())
            .map(|i| self.kids_range(i as NodeId).1)
            .sum();
        if live == self.kids.len() {
            return;
        }
        let mut kids = Vec::with_capacity(live);
        for i in 0..self.recs.len() as NodeId {
            let (a, n) = self.kids_range(i);
            if n > 0 {
                let start = kids.len();
                kids.extend_from_slice(&self.kids[a..a + n]);
                self.rec_mut(i).payload = pack(start as u64, n as u64);
            }
        }
        self.kids = kids;
    }

    /// Rebuilds a tree from its nodes (as received from a worker that decoded it,
    /// in the order [`Tree::nodes`] gave them). Errors, without panicking, unless
    /// node 0 is the root and every other node is listed exactly once among the
    /// children of its parent and reachable from the root. The rebuilt tree cannot
    /// decode its lazy nodes itself: it mirrors expansions done elsewhere with
    /// [`Tree::apply_expansion`].
    pub fn from_nodes(nodes: Vec<Node>) -> Result<Tree, String> {
        let Some(root) = nodes.first() else {
            return Err("a tree needs at least its root node".into());
        };
        if root.parent.is_some() {
            return Err("node 0 (the root) has a parent".into());
        }
        if u32::try_from(nodes.len()).is_err() || nodes.len() == u32::MAX as usize {
            return Err(format!(
                "{} nodes are more than a tree can index",
                nodes.len()
            ));
        }
        let len = nodes.len();
        let mut listed = vec![false; len];
        for (i, n) in nodes.iter().enumerate() {
            if i > 0 && n.parent.is_none() {
                return Err(format!("node {i} has no parent but is not the root"));
            }
            for &c in &n.children {
                check_child(&nodes, &mut listed, i as NodeId, c)?;
            }
        }
        if let Some(i) = (1..len).find(|&i| !listed[i]) {
            return Err(format!("node {i} is not among its parent's children"));
        }
        // Every node has one parent that lists it; reaching all of them from the
        // root rules out cycles detached from it.
        let mut seen = 1usize;
        let mut stack = vec![0 as NodeId];
        while let Some(id) = stack.pop() {
            for &c in &nodes[id as usize].children {
                seen += 1;
                if seen > len {
                    return Err("the nodes' children lists form a cycle".into());
                }
                stack.push(c);
            }
        }
        if seen != len {
            return Err(format!(
                "only {seen} of {len} nodes are reachable from the root"
            ));
        }
        let mut t = Tree::with_root(root.name.clone(), root.span);
        t.fill_from(0, root);
        for n in &nodes[1..] {
            t.push_node(n);
        }
        Ok(t)
    }

    /// Mirrors an expansion done in another copy of this tree (see
    /// [`crate::expand`]): node `id` is replaced by `node` (its updated form:
    /// children set, lazy cleared, perhaps an error or `damaged`), and `new_nodes`,
    /// whose ids are `len()..`, are appended. If `node` is damaged its ancestors are
    /// marked damaged too. Errors, leaving the tree unchanged, unless `id` exists,
    /// `node` keeps its parent, every new node is listed exactly once among the
    /// children of `node` or of another new node (its parent), and the children of
    /// `node` and the new nodes are all new nodes.
    pub fn apply_expansion(
        &mut self,
        id: NodeId,
        node: Node,
        new_nodes: Vec<Node>,
    ) -> Result<(), String> {
        let old_len = self.len();
        if id as usize >= old_len {
            return Err(format!("node {id} is not in the tree ({old_len} nodes)"));
        }
        let old_parent = self.parent(id);
        if old_parent != node.parent {
            return Err(format!(
                "the expanded node {id} has parent {:?}, but the tree has {:?}",
                node.parent, old_parent
            ));
        }
        let total = old_len.saturating_add(new_nodes.len());
        if u32::try_from(total).is_err() || total == u32::MAX as usize {
            return Err(format!("{total} nodes are more than a tree can index"));
        }
        let get = |k: NodeId| -> Option<&Node> {
            if k == id {
                Some(&node)
            } else {
                (k as usize)
                    .checked_sub(old_len)
                    .and_then(|j| new_nodes.get(j))
            }
        };
        let mut listed = vec![false; new_nodes.len()];
        let mut parents: Vec<NodeId> = vec![id];
        parents.extend((old_len..total).map(|k| k as NodeId));
        for &p in &parents {
            let pn = get(p).expect("parents are the node and the new nodes");
            for &c in &pn.children {
                let j = (c as usize)
                    .checked_sub(old_len)
                    .filter(|&j| j < new_nodes.len())
                    .ok_or_else(|| {
                        format!("node {p} lists child {c}, which is not one of the new nodes {old_len}..{total}")
                    })?;
                if new_nodes[j].parent != Some(p) {
                    return Err(format!(
                        "node {c} is listed by node {p} but names {:?} as its parent",
                        new_nodes[j].parent
                    ));
                }
                if std::mem::replace(&mut listed[j], true) {
                    return Err(format!("node {c} is listed twice as a child"));
                }
            }
        }
        if let Some(j) = listed.iter().position(|&l| !l) {
            return Err(format!(
                "new node {} is not among its parent's children",
                old_len + j
            ));
        }
        let mut seen = 0usize;
        let mut stack = vec![id];
        while let Some(k) = stack.pop() {
            for &c in &get(k).expect("reached nodes are new").children {
                seen += 1;
                if seen > new_nodes.len() {
                    return Err("the new nodes' children lists form a cycle".into());
                }
                stack.push(c);
            }
        }
        if seen != new_nodes.len() {
            return Err(format!(
                "only {seen} of {} new nodes are reachable from node {id}",
                new_nodes.len()
            ));
        }
        let damaged = node.damaged;
        let code = self.name_code(node.name.clone());
        self.rec_mut(id).name = code;
        self.set_kind(id, node.kind);
        self.set_span(id, node.span);
        self.fill_from(id, &node);
        for n in &new_nodes {
            self.push_node(n);
        }
        self.recipes.remove(&id);
        if damaged {
            self.mark_damaged(id);
        }
        Ok(())
    }

    /// The lazy threshold the tree was decoded with (`None`: decoded eagerly).
    pub fn lazy_threshold(&self) -> Option<u64> {
        self.lazy_threshold
    }

    pub(crate) fn set_lazy_threshold(&mut self, t: Option<u64>) {
        self.lazy_threshold = t;
    }

    /// Entries a page of a long list holds, `None` when lists are not paged (see
    /// [`crate::Options::page_size`]).
    pub fn page_size(&self) -> Option<u32> {
        self.page_size
    }

    pub(crate) fn set_page_size(&mut self, n: Option<u32>) {
        self.page_size = n;
    }

    /// Number of nodes whose children are not decoded yet.
    pub fn lazy_count(&self) -> usize {
        self.recs.iter().filter(|r| r.flags & LAZY != 0).count()
    }

    /// Marks `id` lazy and keeps what is needed to decode it later.
    pub(crate) fn set_recipe(&mut self, id: NodeId, r: RecipeRef) {
        if (id as usize) < self.recs.len() {
            self.set_lazy(id, true);
            self.recipes.insert(id, r);
        }
    }

    /// What is needed to decode lazy node `id` (kept: a released node needs it
    /// again).
    pub(crate) fn recipe(&self, id: NodeId) -> Option<RecipeRef> {
        self.recipes.get(&id).cloned()
    }

    /// True if some lazy node may hide an error (its decoder did not vouch for
    /// it): a node's `damaged` flag is then only sure once every lazy node below
    /// it has been expanded.
    pub fn may_hide_damage(&self) -> bool {
        self.recipes
            .iter()
            .any(|(&id, r)| self.is_lazy(id) && !r.vouched())
    }

    /// True if node `id` is lazy and its decoder vouched that its subtree holds
    /// no error (see [`Tree::may_hide_damage`]).
    pub fn is_vouched(&self, id: NodeId) -> bool {
        self.is_lazy(id) && self.recipes.get(&id).is_some_and(|r| r.vouched())
    }

    /// Bytes of the file opening lazy node `id` reads: its span, or more when
    /// its decoder said so (a header whose hash covers the whole file).
    pub fn open_cost(&self, id: NodeId) -> u64 {
        let span = self.span(id).len_bits().div_ceil(8);
        match self.recipes.get(&id).and_then(|r| r.reads()) {
            Some(r) => r.max(span),
            None => span,
        }
    }

    /// Arena lengths before an expansion: what [`Tree::note_expanded`] records.
    pub(crate) fn marks(&self) -> (usize, usize, usize, usize) {
        (
            self.recs.len(),
            self.kids.len(),
            self.text.len(),
            self.owned.len(),
        )
    }

    /// Notes that node `id`, which was `before`, was expanded when the arenas
    /// had the lengths `marks` (see [`Tree::marks`]).
    pub(crate) fn note_expanded(
        &mut self,
        id: NodeId,
        marks: (usize, usize, usize, usize),
        before: Node,
    ) {
        self.clock += 1;
        self.expanded.insert(
            id,
            Expansion {
                nodes: marks.0,
                kids: marks.1,
                text: marks.2,
                owned: marks.3,
                before: Box::new(before),
                used: self.clock,
            },
        );
    }

    /// True if node `id` was expanded and still holds what the expansion added:
    /// it can be released with [`Tree::release`].
    pub fn can_release(&self, id: NodeId) -> bool {
        self.expanded.contains_key(&id)
    }

    /// True if releasing `id` only drops the end of the arenas: every node made
    /// since `id` was expanded is inside its subtree.
    fn releases_tail(&self, id: NodeId) -> bool {
        match self.expanded.get(&id) {
            Some(e) => self.recs.get(e.nodes..).is_some_and(|made| {
                made.iter()
                    .all(|r| r.parent != NONE && (r.parent as usize >= e.nodes || r.parent == id))
            }),
            None => false,
        }
    }

    /// Releases what expanding node `id` added: its descendants are dropped, and
    /// it becomes lazy again, as it was before (what the expansion learnt of its
    /// damage stays), so a later [`crate::expand`] decodes it anew (groups
    /// expanded inside it are released with it).
    ///
    /// When every node made since `id` was expanded lies inside its subtree (a
    /// walk that opens and closes groups in order releases them in reverse), the
    /// release drops the end of the arenas and no other node changes id.
    /// Otherwise the tree is compacted: nodes after the dropped ones move down,
    /// and the returned map gives each surviving node's new id (see
    /// [`IdMap`]). Errors, and changes nothing, if `id` was not expanded.
    pub fn release(&mut self, id: NodeId) -> Result<IdMap, String> {
        if !self.can_release(id) {
            return Err(format!("node {id} cannot be released: it is not expanded"));
        }
        if self.releases_tail(id) {
            let e = self.expanded.remove(&id).expect("checked");
            self.truncate_to(&e);
            self.restore_released(id, &e.before);
            return Ok(IdMap::identity());
        }
        Ok(self.release_many(&[id]))
    }

    fn truncate_to(&mut self, e: &Expansion) {
        let mark = e.nodes as NodeId;
        self.recs.truncate(e.nodes);
        self.kids.truncate(e.kids);
        self.text.truncate(e.text);
        self.owned.truncate(e.owned);
        for m in [&mut self.disp_text, &mut self.errors] {
            m.split_off(&mark);
        }
        self.keys.split_off(&mark);
        self.refs.split_off(&mark);
        self.side_vals.split_off(&mark);
        self.long_len.split_off(&mark);
        self.inner.split_off(&mark);
        self.rests.split_off(&mark);
        self.expanded.split_off(&mark);
        self.recipes.split_off(&mark);
    }

    /// Makes `id` lazy again as `before` was, keeping what was learnt of its
    /// damage.
    fn restore_released(&mut self, id: NodeId, before: &Node) {
        let damaged = self.is_damaged(id);
        let mut b = before.clone();
        b.children = Vec::new();
        b.lazy = true;
        b.damaged |= damaged;
        self.restore(id, &b);
    }

    /// Releases the expanded nodes `ids` (and everything expanded inside them)
    /// in one pass, compacting the tree; returns where surviving nodes moved.
    pub fn release_many(&mut self, ids: &[NodeId]) -> IdMap {
        let n = self.recs.len();
        let mut drop = vec![false; n];
        let mut released: Vec<(NodeId, Expansion)> = Vec::new();
        for &id in ids {
            if (id as usize) >= n || drop[id as usize] {
                continue;
            }
            let Some(e) = self.expanded.remove(&id) else {
                continue;
            };
            let mut stack: Vec<NodeId> = self.children(id).to_vec();
            while let Some(c) = stack.pop() {
                if !std::mem::replace(&mut drop[c as usize], true) {
                    stack.extend_from_slice(self.children(c));
                }
            }
            released.push((id, e));
        }
        // A node released inside another one released is gone with it.
        released.retain(|(id, _)| !drop[*id as usize]);
        // Nodes expanded inside a dropped subtree are gone with it.
        self.expanded.retain(|&k, _| !drop[k as usize]);
        for (id, _) in &released {
            self.clear_children(*id);
        }
        // New ids.
        let mut map = vec![NONE; n];
        let mut next = 0u32;
        for (i, m) in map.iter_mut().enumerate() {
            if !drop[i] {
                *m = next;
                next += 1;
            }
        }
        let old = std::mem::replace(self, Tree::blank());
        *self = old.compacted(&map, next as usize);
        for (id, e) in released {
            let nid = map[id as usize];
            self.restore_released(nid, &e.before);
        }
        IdMap { map: Some(map) }
    }

    /// A copy of the tree with only the nodes `map` keeps, renumbered by it.
    fn compacted(self, map: &[u32], count: usize) -> Tree {
        let mut t = Tree {
            recs: Vec::with_capacity(count),
            statics: self.statics.clone(),
            static_ix: self.static_ix.clone(),
            renders: self.renders.clone(),
            render_ix: self.render_ix.clone(),
            clock: self.clock,
            lazy_threshold: self.lazy_threshold,
            page_size: self.page_size,
            ..Tree::blank()
        };
        let remap = |k: NodeId| map.get(k as usize).copied().filter(|&m| m != NONE);
        for (i, r) in self.recs.iter().enumerate() {
            if map[i] == NONE {
                continue;
            }
            let id = i as NodeId;
            let mut r = *r;
            r.parent = if r.parent == NONE {
                NONE
            } else {
                remap(r.parent).unwrap_or(NONE)
            };
            if r.name & N_TAG == N_OWNED {
                let ix = t.owned.len() as u32;
                let tr = t.put_text(&self.name(id).to_string());
                t.owned.push(tr);
                r.name = N_OWNED | ix;
            }
            let tag = r.kind >> 5;
            if tag == V_STR && r.flags & SIDE_VAL == 0 {
                let s = match self.value_ref(id) {
                    Some(ValueRef::Str(s)) => s,
                    _ => "",
                };
                let tr = t.put_text(s);
                r.payload = pack(tr.off as u64, tr.len as u64);
            }
            if r.flags & KIDS != 0 {
                let list: Vec<NodeId> =
                    self.children(id).iter().filter_map(|&c| remap(c)).collect();
                if list.is_empty() {
                    r.flags &= !KIDS;
                    r.payload = 0;
                } else {
                    r.payload = pack(t.kids.len() as u64, list.len() as u64);
                    t.kids.extend_from_slice(&list);
                }
            }
            t.recs.push(r);
            let nid = map[i];
            if let Some(&tr) = self.disp_text.get(&id) {
                let tr = t.put_text(self.get_text(tr));
                t.disp_text.insert(nid, tr);
            }
            if let Some(&tr) = self.errors.get(&id) {
                let tr = t.put_text(self.get_text(tr));
                t.errors.insert(nid, tr);
            }
            if let Some(&r) = self.keys.get(&id) {
                let r = if r.off == STATIC_KEY {
                    r
                } else {
                    t.put_text(self.get_text(r))
                };
                t.keys.insert(nid, r);
            }
            if let Some(&s) = self.refs.get(&id) {
                t.refs.insert(nid, s);
            }
            if let Some(v) = self.side_vals.get(&id) {
                t.side_vals.insert(nid, v.clone());
            }
            if let Some(&l) = self.long_len.get(&id) {
                t.long_len.insert(nid, l);
            }
            if let Some(b) = self.inner.get(&id) {
                t.inner.insert(nid, b.clone());
            }
            if let Some(k) = self.rests.get(&id) {
                t.rests.insert(nid, k.clone());
            }
            if let Some(rc) = self.recipes.get(&id) {
                t.recipes.insert(nid, rc.clone());
            }
        }
        // Expansions that survive: their marks no longer describe a tail, so
        // they are released by compaction (marks past the end never match).
        for (k, e) in self.expanded {
            if let Some(nk) = remap(k) {
                let mut e = e;
                e.nodes = usize::MAX;
                t.expanded.insert(nk, e);
            }
        }
        t
    }

    /// Notes that the user (or a walk) is looking at node `id`: the expanded
    /// groups that hold it become the most recently used (see
    /// [`Tree::trim`]).
    pub fn touch(&mut self, id: NodeId) {
        self.clock += 1;
        let now = self.clock;
        let mut cur = Some(id);
        while let Some(c) = cur {
            if let Some(e) = self.expanded.get_mut(&c) {
                e.used = now;
            }
            cur = self.parent(c);
        }
    }

    /// Releases the least recently used expanded groups (see [`Tree::touch`])
    /// until the tree holds at most `budget` bytes ([`Tree::heap_bytes`]) or
    /// nothing more can be released; groups holding node `keep` (what is on
    /// screen) are kept. Returns where surviving nodes moved.
    pub fn trim(&mut self, budget: usize, keep: Option<NodeId>) -> IdMap {
        let mut total = IdMap::identity();
        let mut guard = 0;
        while self.heap_bytes() > budget && guard < 64 {
            guard += 1;
            let mut kept: Vec<NodeId> = Vec::new();
            let mut cur = keep.and_then(|k| total.get(k));
            while let Some(c) = cur {
                kept.push(c);
                cur = self.parent(c);
            }
            // Oldest first; release about a quarter of what is open each round.
            let mut open: Vec<(u64, NodeId)> = self
                .expanded
                .iter()
                .filter(|(k, _)| !kept.contains(k))
                .map(|(&k, e)| (e.used, k))
                .collect();
            if open.is_empty() {
                break;
            }
            crate::sorted::sort(&mut open);
            let take = open.len().div_ceil(4);
            let ids: Vec<NodeId> = open[..take].iter().map(|&(_, k)| k).collect();
            let m = self.release_many(&ids);
            total = total.then(&m);
        }
        if self.heap_bytes() > budget {
            self.shrink();
        }
        total
    }

    /// The root node's id (always 0).
    pub fn root(&self) -> NodeId {
        0
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.recs.len()
    }

    /// True if the tree holds only its root.
    pub fn is_empty(&self) -> bool {
        self.recs.len() <= 1
    }

    /// The path of a node from the root: names joined by `/`, the root's own name
    /// left out (`Parts/[3]/PSVInfo`).
    pub fn path(&self, id: NodeId) -> String {
        let mut parts = Vec::new();
        let mut cur = Some(id);
        while let Some(c) = cur {
            if self.parent(c).is_some() && !self.is_page(c) {
                parts.push(c);
            }
            cur = self.parent(c);
        }
        let mut out = String::new();
        for (i, &c) in parts.iter().rev().enumerate() {
            if i > 0 {
                out.push('/');
            }
            let _ = write!(out, "{}", self.name(c));
        }
        out
    }

    /// Finds a node by a path as printed by [`Tree::path`].
    pub fn find(&self, path: &str) -> Option<NodeId> {
        let mut cur = self.root();
        if path.is_empty() {
            return Some(cur);
        }
        for seg in path.split('/') {
            cur = self.child_named(cur, seg)?;
        }
        Some(cur)
    }

    /// The child of `id` called `name`, looking through pages (see [`Node::page`]).
    pub fn child_named(&self, id: NodeId, name: &str) -> Option<NodeId> {
        let mut stack: Vec<NodeId> = self.children(id).iter().rev().copied().collect();
        while let Some(c) = stack.pop() {
            if self.is_page(c) {
                stack.extend(self.children(c).iter().rev());
            } else if self.name(c).is(name) {
                return Some(c);
            }
        }
        None
    }

    /// The children of `id` as the file's structure has them: the children of a
    /// page stand in for the page (pages inside pages too).
    pub fn children_flat(&self, id: NodeId) -> Vec<NodeId> {
        let kids = self.children(id);
        if !kids.iter().any(|&c| self.is_page(c)) {
            return kids.to_vec();
        }
        let mut out = Vec::new();
        let mut stack: Vec<NodeId> = kids.iter().rev().copied().collect();
        while let Some(c) = stack.pop() {
            if self.is_page(c) {
                stack.extend(self.children(c).iter().rev());
            } else {
                out.push(c);
            }
        }
        out
    }

    /// Ids of every node that carries an error, in depth-first order.
    pub fn errors(&self) -> Vec<NodeId> {
        let mut out = Vec::new();
        if self.errors.is_empty() {
            return out;
        }
        self.walk(|id, _| {
            if self.rec(id).flags & HAS_ERROR != 0 {
                out.push(id);
            }
        });
        out
    }

    /// Visits every node depth-first (parents before children) with its depth.
    /// Pages are looked through: their children are visited at the page's depth,
    /// the page itself is not (see [`Node::page`]).
    pub fn walk(&self, mut f: impl FnMut(NodeId, usize)) {
        let mut stack = vec![(self.root(), 0usize)];
        while let Some((id, depth)) = stack.pop() {
            if self.is_page(id) {
                for &c in self.children(id).iter().rev() {
                    stack.push((c, depth));
                }
                continue;
            }
            f(id, depth);
            for &c in self.children(id).iter().rev() {
                stack.push((c, depth + 1));
            }
        }
    }

    /// The innermost node whose span covers `byte`, preferring later siblings never:
    /// the first child (in display order) that covers the byte wins. Nodes
    /// spanning bytes a `process` made ([`Tree::is_decoded`]) own none of the
    /// file's.
    pub fn innermost_at(&self, byte: u64) -> NodeId {
        let bit = BitSpan::bytes(byte, byte + 1);
        let mut cur = self.root();
        'down: loop {
            for &c in self.children(cur) {
                let s = self.span(c);
                if !s.is_empty() && s.overlaps(&bit) && !self.is_decoded(c) {
                    cur = c;
                    continue 'down;
                }
            }
            return cur;
        }
    }
}

/// What reads the rest of a list ahead (see [`Tree::read_ahead`]).
pub trait ReadAhead: Send + Sync {
    /// Reads on for about `budget` more bytes of file `src`; how far it got.
    fn step(&self, src: &dyn ByteSource, budget: u64) -> Ahead;
}

/// How far the rest of a list has been read ahead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ahead {
    /// Where the rest starts (a byte of the file).
    pub from: u64,
    /// Where reading has got to.
    pub to: u64,
    /// Where the list ends.
    pub end: u64,
    /// Entries read.
    pub entries: u64,
    /// True once there is nothing more to read (its end, or an entry that
    /// fails: opening the rest shows it).
    pub done: bool,
}

#[derive(Clone)]
struct RestRef(Arc<dyn ReadAhead>);

impl fmt::Debug for RestRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RestRef")
    }
}

/// Where nodes moved when a release compacted the tree ([`Tree::release`],
/// [`Tree::trim`]): a node's new id, or `None` if it was dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IdMap {
    /// Old id → new id ([`u32::MAX`]: dropped); `None`: nothing moved.
    map: Option<Vec<u32>>,
}

impl IdMap {
    /// Nothing moved.
    pub fn identity() -> Self {
        IdMap { map: None }
    }
    /// True if no node changed id.
    pub fn is_identity(&self) -> bool {
        self.map.is_none()
    }
    /// The new id of `old`, `None` if it was dropped.
    pub fn get(&self, old: NodeId) -> Option<NodeId> {
        match &self.map {
            None => Some(old),
            Some(m) => match m.get(old as usize) {
                Some(&n) if n != NONE => Some(n),
                Some(_) => None,
                None => None,
            },
        }
    }
    /// This map followed by `next`.
    pub fn then(self, next: &IdMap) -> IdMap {
        match (self.map, &next.map) {
            (m, None) => IdMap { map: m },
            (None, Some(n)) => IdMap {
                map: Some(n.clone()),
            },
            (Some(m), Some(_)) => IdMap {
                map: Some(
                    m.iter()
                        .map(|&x| {
                            if x == NONE {
                                NONE
                            } else {
                                next.get(x).unwrap_or(NONE)
                            }
                        })
                        .collect(),
                ),
            },
        }
    }
}

/// Checks that `c`, listed as a child of `p`, exists, names `p` as its parent and
/// is listed only once.
fn check_child(nodes: &[Node], listed: &mut [bool], p: NodeId, c: NodeId) -> Result<(), String> {
    let Some(cn) = nodes.get(c as usize) else {
        return Err(format!(
            "node {p} lists child {c}, but there are only {} nodes",
            nodes.len()
        ));
    };
    if c == 0 {
        return Err(format!("node {p} lists the root as a child"));
    }
    if cn.parent != Some(p) {
        return Err(format!(
            "node {c} is listed by node {p} but names {:?} as its parent",
            cn.parent
        ));
    }
    if std::mem::replace(&mut listed[c as usize], true) {
        return Err(format!("node {c} is listed twice as a child"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Kind, Value};

    #[test]
    fn kind_codes_are_their_places_in_the_list_of_kinds() {
        for (i, &k) in Kind::ALL.iter().enumerate() {
            assert_eq!(k.code() as usize, i, "{k:?}");
            assert_eq!(Kind::from_code(i as u8), Some(k));
        }
        assert_eq!(Kind::from_code(Kind::ALL.len() as u8), None);
    }

    #[test]
    fn strings_display_quoted_with_control_characters_escaped_once() {
        assert_eq!(
            Value::Str("BC\\xC0\\xDE".into()).to_string(),
            "\"BC\\xC0\\xDE\""
        );
        assert_eq!(
            Value::Str("a\nb\u{7}".into()).to_string(),
            "\"a\\u{a}b\\u{7}\""
        );
        assert_eq!(
            Value::Str("<img src=x>".into()).to_string(),
            "\"<img src=x>\""
        );
    }
}
