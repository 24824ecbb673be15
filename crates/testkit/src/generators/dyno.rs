//! Generator of Chapel `.dyno` test fixtures. No Chapel compiler is available and no
//! `.dyno` file is published, so every fixture is written here: from
//! `specs/chapel-dyno.md` (the spec's layout) and from Chapel's own writer
//! (`frontend/lib/libraries/LibraryFileWriter.cpp`, summarised in
//! `specs/notes/dyno-layout.md`: the 2024 layout and the 2021–2023 one), in both
//! byte orders, plus damaged files.
//!
//! The module written is the uAST of this Chapel source ([`SOURCE`]): a record with
//! fields and a primary method, two constants (one named with a long string, one
//! holding a long string literal), two functions (one generic, with two
//! instantiations), an enum and a module-level call. Its nodes are encoded the way
//! each class's `serializeInner` writes them.
//!
//! The encoder is independent of the decoder (its own tag numbers, its own SHA-256).
//! The core's `dyno_generated.rs` checks the files in `tests/fixtures/chapel-dyno/`
//! are what this generator makes (`HEXLENS_BLESS=1` rewrites them).
//!
//! [`dense`] writes a large library for the benchmarks and the scale tests.

use std::collections::BTreeMap;

/// The Chapel source the fixtures' module comes from (its SHA-256 is stored in the
/// location section, its lines and columns in the location groups).
pub const SOURCE: &str = "module Shapes {
  record Point {
    var x: int;
    var y: int;
    proc norm1(): int { return x + y; }
  }
  const origin_point_with_a_long_name = 1;
  const banner_text = \"Shapes module, generated\";
  proc area(w: int, h: int): int {
    return w * h + origin_point_with_a_long_name;
  }
  proc twice(x) { return x + x; }
  enum Color { red, green }
  area(2, 3);
}
";

/// The generated-code section's LLVM IR bitcode: `tests/fixtures/bitcode/gen_code.bc`,
/// which `llvm-as-19` made from `gen_code.ll` beside it (the module's procedures
/// under their C names; the core's `bitstream_oracle.rs` checks the file is still what
/// `llvm-as-19` makes of it).
pub const BITCODE: &[u8] = include_bytes!("../../../../tests/fixtures/bitcode/gen_code.bc");

// ----- uAST tags (position in uast-classes-list.h @659c09f6, markers included) -----
pub const T_DOT: u8 = 13;
pub const T_IDENTIFIER: u8 = 18;
pub const T_RETURN: u8 = 28;
pub const T_USE: u8 = 32;
pub const T_VISIBILITY_CLAUSE: u8 = 33;
pub const T_BLOCK: u8 = 39;
pub const T_BOOL_LITERAL: u8 = 59;
pub const T_INT_LITERAL: u8 = 61;
pub const T_STRING_LITERAL: u8 = 67;
pub const T_FN_CALL: u8 = 71;
pub const T_OP_CALL: u8 = 72;
pub const T_ENUM_ELEMENT: u8 = 84;
pub const T_FUNCTION: u8 = 85;
pub const T_MODULE: u8 = 87;
pub const T_FORMAL: u8 = 91;
pub const T_VARIABLE: u8 = 94;
pub const T_ENUM: u8 = 97;
pub const T_RECORD: u8 = 100;

// ----- magic numbers -----
const FILE_MAGIC: u64 = 0x4C50_4843_4249_4C7F;
const MODULE_MAGIC: u64 = 0x4D4D_D01E_5EC1_4D4D;
const SYMBOL_TABLE_MAGIC: u64 = 0x4D59_531E_5EC1_10E0;
const UAST_MAGIC: u64 = 0x5453_411E_5EC1_10E0;
const LONG_STRINGS_MAGIC: u32 = 0x5254_5301;
const LOCATION_MAGIC: u64 = 0x434F_4C07_5EC1_10E0;
const GEN_CODE_MAGIC: u64 = 0x4E45_4707_5EC1_10E0;

/// Strings this long or longer go through the long strings table
/// (`Serializer::LONG_STRING_SIZE`).
const LONG_STRING_SIZE: usize = 20;

/// Which module layout to write.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Layout {
    Spec,
    Writer,
    Writer2023,
}

// ----- a byte writer in a chosen byte order -----

pub struct W {
    pub buf: Vec<u8>,
    pub be: bool,
}

impl W {
    pub fn new(be: bool) -> Self {
        W {
            buf: Vec::new(),
            be,
        }
    }
    pub fn pos(&self) -> u64 {
        self.buf.len() as u64
    }
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    pub fn u32(&mut self, v: u32) {
        let b = if self.be {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.buf.extend_from_slice(&b);
    }
    pub fn u64(&mut self, v: u64) {
        let b = if self.be {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.buf.extend_from_slice(&b);
    }
    pub fn i64(&mut self, v: i64) {
        self.u64(v as u64);
    }
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }
    /// Unsigned variable-byte integer.
    pub fn vu(&mut self, mut v: u64) {
        loop {
            let byte = (v & 0x7F) as u8;
            v >>= 7;
            if v == 0 {
                self.buf.push(byte);
                return;
            }
            self.buf.push(byte | 0x80);
        }
    }
    /// Signed (ZigZag) variable-byte integer.
    pub fn vi(&mut self, v: i64) {
        self.vu(((v << 1) ^ (v >> 63)) as u64);
    }
    /// A string without the long strings table: length, bytes.
    pub fn str(&mut self, s: &str) {
        self.vu(s.len() as u64);
        self.bytes(s.as_bytes());
    }
    pub fn align(&mut self, n: u64) {
        while !self.pos().is_multiple_of(n) {
            self.u8(0);
        }
    }
    pub fn put_u32(&mut self, at: u64, v: u32) {
        let b = if self.be {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.buf[at as usize..at as usize + 4].copy_from_slice(&b);
    }
    pub fn put_u64(&mut self, at: u64, v: u64) {
        let b = if self.be {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.buf[at as usize..at as usize + 8].copy_from_slice(&b);
    }
}

// ----- SHA-256 (FIPS 180-4), so the fixtures do not depend on the decoder's crate -----

pub fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bits.to_be_bytes());
    for block in msg.chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([
                block[4 * i],
                block[4 * i + 1],
                block[4 * i + 2],
                block[4 * i + 3],
            ]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [
                t1.wrapping_add(t2),
                v[0],
                v[1],
                v[2],
                v[3].wrapping_add(t1),
                v[4],
                v[5],
                v[6],
            ];
        }
        for i in 0..8 {
            h[i] = h[i].wrapping_add(v[i]);
        }
    }
    let mut out = [0u8; 32];
    for i in 0..8 {
        out[4 * i..4 * i + 4].copy_from_slice(&h[i].to_be_bytes());
    }
    out
}

/// Writes the SHA-256 of `file` (hash field zeroed) into its header.
pub fn rehash(file: &mut [u8]) {
    file[32..64].fill(0);
    let h = sha256(file);
    file[32..64].copy_from_slice(&h);
}

// ----- the uAST model -----

/// A source location: first line/column, last line/column, additional locations
/// `(tag, first line, last line, first column, last column)` (lines absolute).
#[derive(Clone, Debug, Default)]
pub struct Loc {
    pub l1: i64,
    pub c1: u64,
    pub l2: i64,
    pub c2: u64,
    pub extra: Vec<(i64, i64, i64, u64, u64)>,
}

pub fn loc(l1: i64, c1: u64, l2: i64, c2: u64) -> Loc {
    Loc {
        l1,
        c1,
        l2,
        c2,
        extra: Vec::new(),
    }
}

impl Loc {
    /// Adds an additional location.
    pub fn with(mut self, tag: i64, l1: i64, c1: u64, l2: i64, c2: u64) -> Loc {
        self.extra.push((tag, l1, l2, c1, c2));
        self
    }
}

/// A field of a node's `serializeInner`.
#[derive(Clone, Debug)]
pub enum F {
    U8(u8),
    I8(i8),
    /// Signed variable-byte integer.
    Vi(i64),
    /// Unsigned variable-byte integer.
    Vu(u64),
    /// A `UniqueString` (inline, or through the long strings table).
    Ustr(String),
    /// An 8-byte integer in the file's byte order.
    I64(i64),
    /// Bytes as they are (payloads of tags the decoder does not know).
    Raw(Vec<u8>),
}

/// A uAST node.
#[derive(Clone, Debug)]
pub struct Node {
    pub tag: u8,
    pub attr: i64,
    pub fields: Vec<F>,
    pub children: Vec<Node>,
    pub loc: Loc,
    /// Symbol table ID, if the node is in the symbol table.
    pub sym: Option<String>,
    /// Code-generated versions: (is instantiation, C name).
    pub gens: Vec<(bool, String)>,
}

/// A node outside the symbol table, with no generated code.
pub fn node(tag: u8, fields: Vec<F>, children: Vec<Node>, loc: Loc) -> Node {
    Node {
        tag,
        attr: -1,
        fields,
        children,
        loc,
        sym: None,
        gens: Vec::new(),
    }
}

impl Node {
    /// The node, in the symbol table under `id`.
    pub fn sym(mut self, id: &str) -> Node {
        self.sym = Some(id.to_string());
        self
    }
    /// The node, with a code-generated version (an instantiation if `inst`)
    /// named `cname` in C.
    pub fn gen(mut self, inst: bool, cname: &str) -> Node {
        self.gens.push((inst, cname.to_string()));
        self
    }
}

fn s(v: &str) -> F {
    F::Ustr(v.to_string())
}

/// `Decl` fields (default visibility and linkage, no linkage name, no destination)
/// and the name.
pub fn named(name: &str) -> Vec<F> {
    vec![F::U8(0), F::U8(0), F::Vi(-1), F::Vi(-1), s(name)]
}

pub fn ident(name: &str, l: Loc) -> Node {
    node(T_IDENTIFIER, vec![s(name)], vec![], l)
}

/// A `Variable`: storage kind, type/init child numbers, isConfig, isField.
pub fn variable(name: &str, kind: u8, ty: i8, init: i8, field: bool, child: Node, l: Loc) -> Node {
    let mut f = named(name);
    f.extend([
        F::U8(kind),
        F::I8(ty),
        F::I8(init),
        F::U8(0),
        F::U8(field as u8),
    ]);
    node(T_VARIABLE, f, vec![child], l)
}

fn formal(name: &str, ty: Option<Node>, l: Loc) -> Node {
    let mut f = named(name);
    f.extend([
        F::U8(1),
        F::I8(if ty.is_some() { 0 } else { -1 }),
        F::I8(-1),
    ]);
    node(T_FORMAL, f, ty.into_iter().collect(), l)
}

/// A `Function`: name, flags, then the child numbers.
#[allow(clippy::too_many_arguments)]
fn function(
    name: &str,
    primary: bool,
    this_formal: i64,
    formals: i64,
    ret: i64,
    body: i64,
    children: Vec<Node>,
    l: Loc,
) -> Node {
    let mut f = named(name);
    f.extend([
        F::U8(0), // inline
        F::U8(0), // override
        F::U8(0), // PROC
        F::U8(1), // DEFAULT_INTENT
        F::U8(0), // throws
        F::U8(primary as u8),
        F::U8(0), // parenless
        F::Vi(0), // formals child num
        F::Vi(this_formal),
        F::Vi(formals),
        F::Vi(ret),
        F::Vi(-1), // where
        F::Vi(-1), // lifetime
        F::Vi(0),  // lifetime parts
        F::Vi(body),
    ]);
    node(T_FUNCTION, f, children, l)
}

fn block(stmts: Vec<Node>, l: Loc) -> Node {
    let n = stmts.len() as i64;
    node(T_BLOCK, vec![F::U8(1), F::Vi(0), F::Vi(n)], stmts, l)
}

fn ret(value: Node, l: Loc) -> Node {
    node(T_RETURN, vec![F::I8(0)], vec![value], l)
}

fn op(o: &str, children: Vec<Node>, l: Loc) -> Node {
    node(T_OP_CALL, vec![F::U8(0), s(o)], children, l)
}

/// An `IntLiteral` holding `v`.
pub fn int_lit(v: i64, l: Loc) -> Node {
    node(
        T_INT_LITERAL,
        vec![F::U8(3), F::I64(v), s(&v.to_string())],
        vec![],
        l,
    )
}

fn string_lit(v: &str, l: Loc) -> Node {
    node(T_STRING_LITERAL, vec![F::U8(6), s(v), F::U8(1)], vec![], l)
}

/// The uAST of [`SOURCE`]. With `with_use`, a `use IO;` (a `Use` holding a
/// `VisibilityClause`, tags whose fields the decoder does not know) comes first.
pub fn shapes_module(with_use: bool) -> Node {
    let int = |line, col| ident("int", loc(line, col, line, col + 2));
    let point = {
        let x = variable(
            "x",
            4,
            0,
            -1,
            true,
            int(3, 12),
            loc(3, 5, 3, 15).with(2, 3, 9, 3, 9),
        )
        .sym("Point.x");
        let y = variable(
            "y",
            4,
            0,
            -1,
            true,
            int(4, 12),
            loc(4, 5, 4, 15).with(2, 4, 9, 4, 9),
        )
        .sym("Point.y");
        let norm1 = function(
            "norm1",
            true,
            0,
            1,
            1,
            2,
            vec![
                formal("this", None, loc(5, 10, 5, 14)),
                int(5, 19),
                block(
                    vec![ret(
                        op(
                            "+",
                            vec![ident("x", loc(5, 32, 5, 32)), ident("y", loc(5, 36, 5, 36))],
                            loc(5, 32, 5, 36),
                        ),
                        loc(5, 25, 5, 37),
                    )],
                    loc(5, 23, 5, 39),
                ),
            ],
            loc(5, 5, 5, 39).with(2, 5, 10, 5, 14).with(6, 5, 5, 5, 21),
        )
        .sym("Point.norm1")
        .gen(false, "Point_norm1_chpl");
        let mut f = named("Point");
        f.extend([F::Vi(-1), F::Vi(0), F::Vi(0), F::Vi(3)]);
        node(
            T_RECORD,
            f,
            vec![x, y, norm1],
            loc(2, 3, 6, 3).with(2, 2, 10, 2, 14),
        )
        .sym("Point")
    };
    let origin = variable(
        "origin_point_with_a_long_name",
        5,
        -1,
        0,
        false,
        int_lit(1, loc(7, 41, 7, 41)),
        loc(7, 3, 7, 42).with(2, 7, 9, 7, 37),
    )
    .sym("origin_point_with_a_long_name");
    let banner = variable(
        "banner_text",
        5,
        -1,
        0,
        false,
        string_lit("Shapes module, generated", loc(8, 23, 8, 48)),
        loc(8, 3, 8, 49).with(2, 8, 9, 8, 19),
    )
    .sym("banner_text");
    let area = function(
        "area",
        false,
        -1,
        2,
        2,
        3,
        vec![
            formal("w", Some(int(9, 16)), loc(9, 13, 9, 18)),
            formal("h", Some(int(9, 24)), loc(9, 21, 9, 26)),
            int(9, 30),
            block(
                vec![ret(
                    op(
                        "+",
                        vec![
                            op(
                                "*",
                                vec![
                                    ident("w", loc(10, 12, 10, 12)),
                                    ident("h", loc(10, 16, 10, 16)),
                                ],
                                loc(10, 12, 10, 16),
                            ),
                            ident("origin_point_with_a_long_name", loc(10, 20, 10, 48)),
                        ],
                        loc(10, 12, 10, 48),
                    ),
                    loc(10, 5, 10, 49),
                )],
                loc(9, 34, 11, 3),
            ),
        ],
        loc(9, 3, 11, 3).with(2, 9, 8, 9, 11).with(6, 9, 3, 9, 32),
    )
    .sym("area")
    .gen(false, "area_chpl");
    let twice = function(
        "twice",
        false,
        -1,
        1,
        -1,
        1,
        vec![
            formal("x", None, loc(12, 14, 12, 14)),
            block(
                vec![ret(
                    op(
                        "+",
                        vec![
                            ident("x", loc(12, 26, 12, 26)),
                            ident("x", loc(12, 30, 12, 30)),
                        ],
                        loc(12, 26, 12, 30),
                    ),
                    loc(12, 19, 12, 31),
                )],
                loc(12, 17, 12, 33),
            ),
        ],
        loc(12, 3, 12, 33).with(2, 12, 8, 12, 12),
    )
    .sym("twice")
    .gen(true, "twice_chpl")
    .gen(true, "twice_chpl2");
    let color = node(
        T_ENUM,
        named("Color"),
        vec![
            node(T_ENUM_ELEMENT, named("red"), vec![], loc(13, 16, 13, 18)),
            node(T_ENUM_ELEMENT, named("green"), vec![], loc(13, 21, 13, 25)),
        ],
        loc(13, 3, 13, 27).with(2, 13, 8, 13, 12),
    )
    .sym("Color");
    let call = node(
        T_FN_CALL,
        vec![F::U8(1), F::Vu(0), F::U8(0)],
        vec![
            ident("area", loc(14, 3, 14, 6)),
            int_lit(2, loc(14, 8, 14, 8)),
            int_lit(3, loc(14, 11, 14, 11)),
        ],
        loc(14, 3, 14, 12),
    );
    let mut stmts = vec![point, origin, banner, area, twice, color, call];
    if with_use {
        let clause = node(
            T_VISIBILITY_CLAUSE,
            vec![F::Raw(vec![0x00, 0x00])],
            vec![ident("IO", loc(1, 21, 1, 22))],
            loc(1, 21, 1, 22),
        );
        let use_ = node(
            T_USE,
            vec![F::Raw(vec![0x00])],
            vec![clause],
            loc(1, 17, 1, 23),
        );
        stmts.insert(0, use_);
    }
    let mut f = named("Shapes");
    f.push(F::U8(0));
    node(T_MODULE, f, stmts, loc(1, 1, 15, 1).with(2, 1, 8, 1, 13)).sym("")
}

/// A second, small module: `module Util { proc helper() { } }`.
pub fn util_module() -> Node {
    let helper = function(
        "helper",
        false,
        -1,
        0,
        -1,
        0,
        vec![block(vec![], loc(1, 29, 1, 31))],
        loc(1, 15, 1, 31).with(2, 1, 20, 1, 25),
    )
    .sym("helper")
    .gen(false, "helper_chpl");
    let mut f = named("Util");
    f.push(F::U8(0));
    node(T_MODULE, f, vec![helper], loc(1, 1, 1, 33)).sym("")
}

// ----- section encoders -----

/// The long strings table being filled while the uAST is written.
#[derive(Default)]
struct Longs {
    list: Vec<String>,
    index: BTreeMap<String, u32>,
}

impl Longs {
    fn intern(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        self.list.push(s.to_string());
        let i = self.list.len() as u32;
        self.index.insert(s.to_string(), i);
        i
    }
}

fn ustr(w: &mut W, longs: &mut Longs, v: &str) {
    if v.len() < LONG_STRING_SIZE {
        w.u8(v.len() as u8);
        w.bytes(v.as_bytes());
    } else {
        let idx = longs.intern(v) | 0x8000_0000;
        w.bytes(&idx.to_be_bytes());
    }
}

fn count(n: &Node) -> u64 {
    1 + n.children.iter().map(count).sum::<u64>()
}

/// Writes a node depth-first; records where symbol-table nodes start (relative to
/// `base`).
fn ser(w: &mut W, n: &Node, longs: &mut Longs, base: u64, at: &mut BTreeMap<String, u64>) {
    if let Some(id) = &n.sym {
        at.insert(id.clone(), w.pos() - base);
    }
    w.u8(n.tag);
    w.vi(n.attr);
    for f in &n.fields {
        match f {
            F::U8(v) => w.u8(*v),
            F::I8(v) => w.u8(*v as u8),
            F::Vi(v) => w.vi(*v),
            F::Vu(v) => w.vu(*v),
            F::Ustr(v) => ustr(w, longs, v),
            F::I64(v) => w.i64(*v),
            F::Raw(v) => w.bytes(v),
        }
    }
    w.vu(n.children.len() as u64);
    for c in &n.children {
        ser(w, c, longs, base, at);
    }
}

/// Nodes in the symbol table, in uAST pre-order (the writer's `symbolTableVec`).
fn symbols(n: &Node, out: &mut Vec<Node>) {
    if n.sym.is_some() {
        out.push(n.clone());
    }
    for c in &n.children {
        symbols(c, out);
    }
}

/// Location entries of a group: pre-order from `n`, leaving out children that have
/// their own group.
fn loc_entries(w: &mut W, n: &Node, last: &mut i64, signed_tags: bool) {
    let l = &n.loc;
    w.vi(l.l1 - *last);
    w.vi(l.l2 - l.l1);
    w.vu(l.c1);
    w.vu(l.c2);
    w.vu(l.extra.len() as u64);
    for &(tag, e1, e2, ec1, ec2) in &l.extra {
        if signed_tags {
            w.vi(tag);
        } else {
            w.vu(tag as u64);
        }
        w.vi(e1 - l.l1);
        w.vi(e2 - e1);
        w.vu(ec1);
        w.vu(ec2);
    }
    *last = l.l2;
    for c in &n.children {
        if c.sym.is_none() {
            loc_entries(w, c, last, signed_tags);
        }
    }
}

/// One module's sections, each relative to its own start.
struct Parts {
    uast: Vec<u8>,
    ast_at: BTreeMap<String, u64>,
    longs: Longs,
    locations: Vec<u8>,
    loc_at: BTreeMap<String, u64>,
}

fn parts(root: &Node, layout: Layout, be: bool, path: &str) -> Parts {
    let mut longs = Longs::default();
    let mut ast_at = BTreeMap::new();
    let mut u = W::new(be);
    u.u64(UAST_MAGIC);
    let body = {
        let mut b = W::new(be);
        ser(&mut b, root, &mut longs, 0, &mut ast_at);
        b.buf
    };
    let header = if layout == Layout::Writer2023 { 24 } else { 16 };
    if layout == Layout::Writer2023 {
        u.u64(body.len() as u64);
    }
    u.u64(count(root));
    u.bytes(&body);
    for v in ast_at.values_mut() {
        *v += header;
    }

    let mut syms = Vec::new();
    symbols(root, &mut syms);
    let mut l = W::new(be);
    let mut loc_at = BTreeMap::new();
    l.u64(LOCATION_MAGIC);
    l.u32(1);
    l.u32(syms.len() as u32);
    l.str(path);
    l.bytes(&sha256(SOURCE.as_bytes()));
    for s in &syms {
        loc_at.insert(s.sym.clone().unwrap(), l.pos());
        l.vu(0);
        l.vi(s.loc.l1);
        // The 2021-2023 writer wrote only each group's header.
        if layout != Layout::Writer2023 {
            let mut last = s.loc.l1;
            loc_entries(&mut l, s, &mut last, layout != Layout::Spec);
        }
    }
    Parts {
        uast: u.buf,
        ast_at,
        longs,
        locations: l.buf,
        loc_at,
    }
}

/// The long strings table; offsets relative to the table plus `base`.
fn long_strings(longs: &Longs, be: bool, base: u64) -> Vec<u8> {
    let mut w = W::new(be);
    w.u32(LONG_STRINGS_MAGIC);
    let n = longs.list.len() as u32 + 2;
    w.u32(n);
    let mut at = 8 + 4 * n as u64;
    w.u32((base + at) as u32);
    for s in &longs.list {
        w.u32((base + at) as u32);
        at += s.len() as u64;
    }
    w.u32((base + at) as u32);
    for s in &longs.list {
        w.bytes(s.as_bytes());
    }
    w.buf
}

fn front_code(w: &mut W, prev: &str, cur: &str) {
    let common = prev
        .bytes()
        .zip(cur.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    w.vu(common as u64);
    w.vu((cur.len() - common) as u64);
    w.bytes(&cur.as_bytes()[common..]);
}

/// The symbol table; `ast`/`loc` give each ID's offsets as stored.
fn symbol_table(
    root: &Node,
    layout: Layout,
    be: bool,
    ast: &dyn Fn(&str) -> u64,
    loc: &dyn Fn(&str) -> u64,
) -> Vec<u8> {
    let mut syms = Vec::new();
    symbols(root, &mut syms);
    if layout == Layout::Writer2023 {
        syms.retain(|s| s.sym.as_deref() != Some(""));
    }
    syms.sort_by(|a, b| a.sym.cmp(&b.sym));
    let mut w = W::new(be);
    w.u64(SYMBOL_TABLE_MAGIC);
    w.u32(syms.len() as u32);
    w.u32(0);
    let mut last_id = String::new();
    let mut last_cname = String::new();
    for s in &syms {
        let id = s.sym.clone().unwrap();
        w.u32(ast(&id) as u32);
        w.u32(loc(&id) as u32);
        if layout == Layout::Writer2023 {
            w.u32(0);
        }
        w.u8(s.tag);
        front_code(&mut w, &last_id, &id);
        if layout != Layout::Writer2023 {
            w.vu(s.gens.len() as u64);
            for (inst, cname) in &s.gens {
                w.u8(*inst as u8);
                front_code(&mut w, &last_cname, cname);
                last_cname = cname.clone();
            }
        }
        last_id = id;
    }
    w.buf
}

fn gen_code(be: bool) -> Vec<u8> {
    let mut w = W::new(be);
    w.u64(GEN_CODE_MAGIC);
    w.u64(BITCODE.len() as u64);
    w.bytes(BITCODE);
    w.buf
}

/// Where things landed in a generated file (absolute offsets), for damaging it.
#[derive(Default, Debug, Clone)]
pub struct Marks {
    pub at: BTreeMap<String, u64>,
}

impl Marks {
    pub fn get(&self, k: &str) -> usize {
        *self
            .at
            .get(k)
            .unwrap_or_else(|| panic!("no mark {k}: {:?}", self.at.keys())) as usize
    }
    fn set(&mut self, k: impl Into<String>, v: u64) {
        self.at.insert(k.into(), v);
    }
}

/// Writes one module section at the writer's position; returns its end.
fn module(w: &mut W, root: &Node, layout: Layout, path: &str, marks: &mut Marks, mi: usize) {
    let be = w.be;
    let name = match &root.fields[4] {
        F::Ustr(s) => s.clone(),
        _ => unreachable!(),
    };
    let p = parts(root, layout, be, path);
    let m = w.pos();
    marks.set(format!("m{mi}"), m);
    let header = match layout {
        Layout::Spec => 128,
        Layout::Writer => 96,
        Layout::Writer2023 => 80,
    };
    w.bytes(&vec![0u8; header]);
    w.str(&name);
    w.str(path);
    let align = if layout == Layout::Spec { 8 } else { 16 };
    let mut regions: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    let mut put =
        |w: &mut W, key: &'static str, bytes: &[u8], regions: &mut BTreeMap<&str, (u64, u64)>| {
            w.align(align);
            let s = w.pos();
            w.bytes(bytes);
            marks.set(format!("m{mi}.{key}"), s);
            regions.insert(key, (s - m, w.pos() - m));
        };
    match layout {
        Layout::Spec => {
            let st = symbol_table(root, layout, be, &|id| p.ast_at[id], &|id| p.loc_at[id]);
            put(w, "symtab", &st, &mut regions);
            put(w, "uast", &p.uast, &mut regions);
            put(w, "longs", &long_strings(&p.longs, be, 0), &mut regions);
            put(w, "locations", &p.locations, &mut regions);
        }
        Layout::Writer => {
            put(w, "uast", &p.uast, &mut regions);
            put(w, "longs", &long_strings(&p.longs, be, 0), &mut regions);
            put(w, "locations", &p.locations, &mut regions);
            let st = symbol_table(root, layout, be, &|id| p.ast_at[id], &|id| p.loc_at[id]);
            put(w, "symtab", &st, &mut regions);
            put(w, "gen", &gen_code(be), &mut regions);
        }
        Layout::Writer2023 => {
            put(w, "uast", &p.uast, &mut regions);
            w.align(align);
            let longs_at = w.pos() - m;
            put(
                w,
                "longs",
                &long_strings(&p.longs, be, longs_at),
                &mut regions,
            );
            put(w, "locations", &p.locations, &mut regions);
            let (ua, la) = (regions["uast"].0, regions["locations"].0);
            let st = symbol_table(root, layout, be, &|id| ua + p.ast_at[id], &|id| {
                la + p.loc_at[id]
            });
            put(w, "symtab", &st, &mut regions);
        }
    }
    let end = w.pos();
    // The header, written last as the writer does.
    let mut h = W::new(be);
    h.u64(MODULE_MAGIC);
    h.u64(0);
    let r = |k: &str| regions.get(k).copied().unwrap_or((0, 0));
    match layout {
        Layout::Writer2023 => {
            h.u64(end - m);
            for k in ["symtab", "uast", "longs", "locations"] {
                h.u64(r(k).0);
            }
            for _ in 0..3 {
                h.u64(0);
            }
        }
        Layout::Writer => {
            for k in ["symtab", "uast", "longs", "locations", "gen"] {
                h.u64(r(k).0);
                h.u64(r(k).1);
            }
        }
        Layout::Spec => {
            for k in [
                "symtab",
                "uast",
                "longs",
                "locations",
                "types",
                "functions",
                "deps",
            ] {
                h.u64(r(k).0);
                h.u64(r(k).1);
            }
        }
    }
    w.buf[m as usize..m as usize + header].copy_from_slice(&h.buf);
}

/// A whole file: header, module table, modules (each aligned), hash.
pub fn file(modules: &[(Node, &str)], layout: Layout, be: bool) -> (Vec<u8>, Marks) {
    let mut marks = Marks::default();
    let mut w = W::new(be);
    w.u64(FILE_MAGIC);
    w.u32(0); // format version 0.1
    w.u32(1);
    let (maj, min, upd) = match layout {
        Layout::Spec => (2, 0, 0),
        Layout::Writer => (2, 1, 0),
        Layout::Writer2023 => (1, 31, 0),
    };
    w.u32(maj);
    w.u32(min);
    w.u32(upd);
    w.u32(modules.len() as u32);
    w.bytes(&[0u8; 32]);
    let table = w.pos();
    marks.set("table", table);
    let entries = if layout == Layout::Writer2023 {
        modules.len()
    } else {
        modules.len() + 1
    };
    for _ in 0..entries {
        w.u64(0);
    }
    let align = if layout == Layout::Spec { 8 } else { 16 };
    let mut offs = Vec::new();
    for (i, (root, path)) in modules.iter().enumerate() {
        w.align(align);
        offs.push(w.pos());
        module(&mut w, root, layout, path, &mut marks, i);
    }
    offs.push(w.pos());
    for (i, &o) in offs.iter().take(entries).enumerate() {
        w.put_u64(table + 8 * i as u64, o);
    }
    let mut buf = w.buf;
    rehash(&mut buf);
    (buf, marks)
}

/// The Shapes module alone in a file of the given layout and byte order.
pub fn shapes(layout: Layout, be: bool) -> (Vec<u8>, Marks) {
    file(&[(shapes_module(false), "shapes.chpl")], layout, be)
}

// ----- damaged files -----

fn put_u32(f: &mut [u8], at: usize, v: u32) {
    f[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
fn put_u64(f: &mut [u8], at: usize, v: u64) {
    f[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

/// Finds `needle` in `hay` at or after `from`.
pub fn find(hay: &[u8], needle: &[u8], from: usize) -> usize {
    hay[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
        .unwrap_or_else(|| panic!("{needle:02X?} not found after 0x{from:X}"))
}

/// A writer file whose content changed after it was hashed (the Chapel update
/// version), so its SHA-256 no longer matches.
pub fn stale_hash() -> Vec<u8> {
    let (mut f, _) = shapes(Layout::Writer, false);
    put_u32(&mut f, 24, 7);
    f
}

/// A writer file cut in the middle of its uAST section.
pub fn truncated() -> Vec<u8> {
    let (f, m) = shapes(Layout::Writer, false);
    f[..m.get("m0.uast") + 40].to_vec()
}

/// Hostile counts inside an otherwise sound writer file (rehashed): a symbol table
/// claiming 2^32-1 entries, a long strings table claiming 2^31 offsets, a uAST child
/// count of 2^63 and an 11-byte varint in a location entry.
pub fn hostile_counts() -> Vec<u8> {
    let (mut f, m) = shapes(Layout::Writer, false);
    put_u32(&mut f, m.get("m0.symtab") + 8, u32::MAX);
    put_u32(&mut f, m.get("m0.longs") + 4, 0x8000_0000);
    // The Enum's child count (2) becomes a 10-byte varint of 2^63 (the next 9 bytes
    // are overwritten: the entries after it are damaged too).
    let color = m.get("m0.uast") + find(&f[m.get("m0.uast")..], b"\x05Color", 0) + 6;
    f[color..color + 10]
        .copy_from_slice(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]);
    // The first location entry's first column becomes an unterminated varint.
    let groups = m.get("m0.locations") + 16 + 1 + "shapes.chpl".len() + 32;
    let first_col = groups + 2 + 2;
    f[first_col..first_col + 11].fill(0xFF);
    rehash(&mut f);
    f
}

/// A file whose module table and headers point the wrong way (rehashed): module 0's
/// location region ends past the module, its generated-code region starts inside the
/// module header, a symbol-table entry points into the middle of a uAST entry and
/// another past its location section, a uAST string names long string #9 of a
/// 4-offset table, and a location group names file #5. A second module
/// (intact) follows.
pub fn bad_offsets() -> Vec<u8> {
    let (mut f, m) = file(
        &[
            (shapes_module(false), "shapes.chpl"),
            (util_module(), "util.chpl"),
        ],
        Layout::Writer,
        false,
    );
    let m0 = m.get("m0");
    // Locations region: end far past the module.
    put_u64(&mut f, m0 + 72, 0x10_0000);
    // Generated code region: starts inside the module header.
    put_u64(&mut f, m0 + 80, 8);
    // Symbol table entry [2] ("Point"): uAST offset + 1; entry [3]: location offset huge.
    let st = m.get("m0.symtab") + 16;
    let e1 = st + 8 + 1 + 2 + 1; // "" entry: offsets, kind, prefix 0, suffix 0, G=0
    let e2 = e1 + 8 + 1 + 2 + "Color".len() + 1;
    let ast = u32::from_le_bytes(f[e2..e2 + 4].try_into().unwrap());
    put_u32(&mut f, e2, ast + 1);
    let e3 = e2 + 8 + 1 + 2 + "Point".len() + 1;
    put_u32(&mut f, e3 + 4, 0x7FFF_0000);
    // The long string reference for "Shapes module, generated" becomes #9.
    let u = m.get("m0.uast");
    let lit = find(&f, &[0x80, 0x00, 0x00, 0x02], u);
    f[lit..lit + 4].copy_from_slice(&[0x80, 0x00, 0x00, 0x09]);
    // The second group's file path index becomes 5.
    let g1 = m.get("m0.locations") + ast_group_offset(&f, &m, 1);
    f[g1] = 5;
    rehash(&mut f);
    f
}

/// Offset of location group `k` (k ≥ 1) inside module 0's location section, read
/// back from the symbol table entry whose group it is (the writer puts the module's
/// group first, then the others in uAST order: group 1 is the record's).
fn ast_group_offset(f: &[u8], m: &Marks, k: usize) -> usize {
    assert_eq!(k, 1);
    // Entry [2] is "Point", whose group is group 1.
    let st = m.get("m0.symtab") + 16;
    let e2 = st + (8 + 1 + 2 + 1) + (8 + 1 + 2 + "Color".len() + 1);
    u32::from_le_bytes(f[e2 + 4..e2 + 8].try_into().unwrap()) as usize
}

/// A writer file claiming 2^32-1 modules: the module table runs to the end of the
/// file and every "module" it names is misplaced.
pub fn hostile_module_count() -> Vec<u8> {
    let (mut f, _) = shapes(Layout::Writer, false);
    put_u32(&mut f, 28, u32::MAX);
    rehash(&mut f);
    f
}

/// A clean writer file with `use IO;` first: `Use` and `VisibilityClause` are tags
/// whose fields the decoder does not know, so it shows their bytes as one run up to
/// the next entry the symbol table points at, and resumes there.
pub fn unknown_tag() -> Vec<u8> {
    file(
        &[(shapes_module(true), "shapes.chpl")],
        Layout::Writer,
        false,
    )
    .0
}

/// Every fixture: file name and bytes.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("writer_le.dyno", shapes(Layout::Writer, false).0),
        ("writer_be.dyno", shapes(Layout::Writer, true).0),
        ("spec_le.dyno", shapes(Layout::Spec, false).0),
        ("spec_be.dyno", shapes(Layout::Spec, true).0),
        ("writer2023_le.dyno", shapes(Layout::Writer2023, false).0),
        (
            "two_modules.dyno",
            file(
                &[
                    (shapes_module(false), "shapes.chpl"),
                    (util_module(), "util.chpl"),
                ],
                Layout::Writer,
                false,
            )
            .0,
        ),
        ("unknown_tag.dyno", unknown_tag()),
        ("stale_hash.dyno", stale_hash()),
        ("truncated.dyno", truncated()),
        ("hostile_counts.dyno", hostile_counts()),
        ("bad_offsets.dyno", bad_offsets()),
        ("hostile_module_count.dyno", hostile_module_count()),
    ]
}

// ----- a dense library -----

/// A large library for the benchmarks and the scale tests: one module holding
/// about `symbols` symbol-table entries (records with fields, and constants
/// initialised by literals, some with long names that go through the long
/// strings table), in the 2024 writer's layout, little-endian, with its location
/// groups, symbol table, gen-code section and file hash. Every fourth group is a
/// record with three fields, the others are constants.
pub fn dense(symbols: usize) -> Vec<u8> {
    let mut stmts = Vec::new();
    let mut made = 1; // the module itself
    let mut line = 2i64;
    let mut i = 0usize;
    while made < symbols {
        if i.is_multiple_of(4) {
            let rec = format!("Rec{i}");
            let fields: Vec<Node> = ["alpha", "beta", "gamma"]
                .iter()
                .enumerate()
                .map(|(k, f)| {
                    let l = line + 1 + k as i64;
                    variable(
                        f,
                        4,
                        0,
                        -1,
                        true,
                        ident("int", loc(l, 12, l, 14)),
                        loc(l, 5, l, 15).with(2, l, 9, l, 9 + f.len() as u64),
                    )
                    .sym(&format!("{rec}.{f}"))
                })
                .collect();
            let mut f = named(&rec);
            f.extend([F::Vi(-1), F::Vi(0), F::Vi(0), F::Vi(3)]);
            let l = loc(line, 3, line + 4, 3).with(2, line, 10, line, 10 + rec.len() as u64);
            stmts.push(
                node(T_RECORD, f, fields, l)
                    .sym(&rec)
                    .gen(false, &format!("{rec}_chpl")),
            );
            made += 4;
            line += 5;
        } else {
            // Every third constant's name is long enough for the long strings table.
            let name = if i.is_multiple_of(3) {
                format!("configuration_constant_number_{i}")
            } else {
                format!("c{i}")
            };
            let end = 9 + name.len() as u64;
            stmts.push(
                variable(
                    &name,
                    5,
                    -1,
                    0,
                    false,
                    int_lit(i as i64, loc(line, end + 3, line, end + 8)),
                    loc(line, 3, line, end + 9).with(2, line, 9, line, end),
                )
                .sym(&name),
            );
            made += 1;
            line += 1;
        }
        i += 1;
    }
    let mut f = named("Big");
    f.push(F::U8(0));
    let module = node(T_MODULE, f, stmts, loc(1, 1, line, 1).with(2, 1, 8, 1, 10)).sym("");
    file(&[(module, "big.chpl")], Layout::Writer, false).0
}

#[cfg(test)]
mod tests {
    #[test]
    fn sha256_matches_the_fips_examples() {
        let hex = |h: [u8; 32]| h.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(
            hex(super::sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(super::sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
