//! An LLVM module read from its bitcode records (LLVM's "LLVM Bitcode File
//! Format" and the record layouts of `llvm/Bitcode/LLVMBitCodes.h`), for
//! printing as LLVM assembly (`write`). It holds what the text needs: the
//! type table, global values, constants, attribute groups, metadata and the
//! function bodies' instructions, each with the bits of the record it came
//! from.
//!
//! The reader follows the stream's own numbering: global values in record
//! order, then module constants; in a function its arguments, constants and
//! the instructions that produce a value; relative operand IDs (module
//! version 1 and later) count back from the next value. What it cannot read
//! it records as an error with the record's bits, and stops there.

pub mod di;
pub mod write;

use crate::bitstream::records::{text, Block, Cursor, Entry, Record, Stream};

/// A call argument of type `metadata` is a metadata node, not a value: it
/// is kept among the arguments as `MD_ARG +` its metadata ID (as the
/// function numbers metadata).
pub const MD_ARG: usize = 1 << 30;

/// A type-table index.
pub type TypeId = usize;
/// A value number (module values, then a function's own).
pub type ValueId = usize;

/// A type of the type table.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Half,
    BFloat,
    Float,
    Double,
    X86Fp80,
    Fp128,
    PpcFp128,
    Label,
    Metadata,
    X86Mmx,
    X86Amx,
    Token,
    Int(u32),
    /// A typed pointer (`pointee`) or an opaque `ptr` (`None`), and its address space.
    Pointer(Option<TypeId>, u32),
    Function {
        vararg: bool,
        ret: TypeId,
        params: Vec<TypeId>,
    },
    Struct {
        name: Option<String>,
        packed: bool,
        elems: Vec<TypeId>,
        /// Declared without a body (`type opaque`).
        opaque: bool,
    },
    Array(u64, TypeId),
    Vector(u64, TypeId, bool),
    /// A type the reader does not know (its record code).
    Unknown(u64),
}

/// A constant's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Const {
    Null,
    Undef,
    Poison,
    Int(i64),
    /// Words of a wide integer, least significant first (sign-rotated as stored).
    WideInt(Vec<u64>),
    /// The bits of a floating-point value.
    Float(u64),
    Aggregate(Vec<ValueId>),
    /// Elements of a data array or vector, or the characters of a string
    /// (`cstring`: with the NUL the record leaves out).
    Data(Vec<u64>),
    CString(Vec<u64>),
    Binop {
        op: u64,
        lhs: ValueId,
        rhs: ValueId,
        flags: u64,
    },
    Cast {
        op: u64,
        ty: TypeId,
        val: ValueId,
    },
    Gep {
        source: Option<TypeId>,
        inbounds: bool,
        /// LLVM 19's flags: 2 `nusw`, 4 `nuw` (1 is `inbounds`).
        flags: u64,
        /// `inrange(lower, upper)` (CE_GEP_WITH_INRANGE).
        inrange: Option<(i64, i64)>,
        /// The index marked `inrange` (CE_GEP_WITH_INRANGE_INDEX, before LLVM 19).
        inrange_index: Option<u64>,
        ops: Vec<(TypeId, ValueId)>,
    },
    Select(ValueId, ValueId, ValueId),
    Cmp {
        pred: u64,
        lhs: ValueId,
        rhs: ValueId,
    },
    /// A constant the reader does not print (its record code).
    Other(u64),
}

/// What a value number stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Global(usize),
    Function(usize),
    Alias(usize),
    /// A constant, and the bits of its record.
    Const {
        ty: TypeId,
        c: Const,
        bits: (u64, u64),
    },
    Arg {
        ty: TypeId,
        n: usize,
    },
    Inst {
        ty: TypeId,
        n: usize,
    },
    Metadata(u64),
    /// Referred to before it is defined and never defined.
    Missing,
}

/// A global variable.
#[derive(Clone, Debug, Default)]
pub struct Global {
    pub name: Option<String>,
    /// The variable's value type (typed pointers: the pointee).
    pub ty: TypeId,
    pub space: u32,
    pub constant: bool,
    pub init: Option<ValueId>,
    pub linkage: u64,
    pub align: u64,
    pub section: u64,
    pub visibility: u64,
    pub tls: u64,
    pub unnamed_addr: u64,
    pub externally_initialized: bool,
    pub dll: u64,
    pub dso_local: bool,
    /// Its comdat's index + 1 (0: none).
    pub comdat: u64,
    pub bits: (u64, u64),
}

/// A function: its record, and its body when it has one.
#[derive(Clone, Debug, Default)]
pub struct Function {
    pub name: Option<String>,
    /// Its function type.
    pub ty: TypeId,
    pub cc: u64,
    pub declaration: bool,
    pub linkage: u64,
    pub attrs: u64,
    pub align: u64,
    pub section: u64,
    pub visibility: u64,
    pub unnamed_addr: u64,
    pub dll: u64,
    pub dso_local: bool,
    pub space: u32,
    /// Its comdat's index + 1 (0: none).
    pub comdat: u64,
    /// Its personality function's value + 1 (0: none).
    pub personality: u64,
    pub bits: (u64, u64),
    pub body: Option<Body>,
    /// The bits of its FUNCTION_BLOCK and of the METADATA blocks at its
    /// start, read or not ([`read_lazily`]).
    pub block: Option<(u64, u64)>,
    pub md_bits: u64,
}

/// A function body.
#[derive(Clone, Debug, Default)]
pub struct Body {
    pub blocks: usize,
    /// The function's own values after the module's: arguments, constants,
    /// instruction results.
    pub values: Vec<Value>,
    pub insts: Vec<Inst>,
    /// Names from the function's symbol table: values and blocks.
    pub names: Vec<(ValueId, String)>,
    pub block_names: Vec<(usize, String)>,
    /// Use-list orders of basic blocks (USELIST_CODE_BB): block, and the
    /// position of each of its uses, in the order uses are listed.
    pub bb_uselists: Vec<(usize, Vec<u64>)>,
    /// Where this function's own metadata IDs start, and how far its nodes
    /// lie past that in the module's list.
    pub md_shift: Option<(u64, u64)>,
    /// The function's own attachments (`define … !dbg !12`): (kind, node ID).
    pub fn_md: Vec<(u64, u64)>,
    /// Debug records (`#dbg_value(…)`), each before the instruction it is
    /// attached to.
    pub dbg: Vec<DbgRecord>,
    /// The FUNCTION_BLOCK's header (its ENTER_SUBBLOCK and length word) and
    /// its DECLAREBLOCKS record.
    pub bits: Vec<(u64, u64)>,
    /// The bits of the whole FUNCTION_BLOCK, and of its METADATA blocks.
    pub block: (u64, u64),
    pub md_blocks: Vec<(u64, u64)>,
    pub error: Option<(u64, String)>,
}

/// A debug record of a function body (FUNC_CODE_DEBUG_RECORD_*).
#[derive(Clone, Debug, Default)]
pub struct DbgRecord {
    /// The record code: 61 value, 62 declare, 63 assign, 64 value with a
    /// plain value operand, 65 label.
    pub code: u64,
    /// Its metadata operands as node IDs + 1, in record order (for code 64
    /// the value's place holds 0).
    pub ops: Vec<u64>,
    /// Code 64's value.
    pub value: Option<ValueId>,
    /// The instruction it is printed before.
    pub inst: usize,
    pub bits: (u64, u64),
}

/// One instruction.
#[derive(Clone, Debug, Default)]
pub struct Inst {
    /// The basic block it is in.
    pub block: usize,
    /// Its result's value number, if it has one.
    pub value: Option<ValueId>,
    pub ty: TypeId,
    pub op: Op,
    /// Attached metadata: (kind, node).
    pub md: Vec<(u64, u64)>,
    /// Its debug location (`DEBUG_LOC`): a DILocation's node ID.
    pub loc: Option<u64>,
    /// The bits of its DEBUG_LOC record.
    pub bits_loc: Option<(u64, u64)>,
    pub bits: (u64, u64),
}

/// What an instruction does, with its operands as value numbers.
#[derive(Clone, Debug, Default)]
pub enum Op {
    #[default]
    Unreachable,
    Ret(Option<ValueId>),
    Br(usize),
    CondBr(ValueId, usize, usize),
    Switch {
        cond: ValueId,
        default: usize,
        cases: Vec<(ValueId, usize)>,
    },
    Binop {
        op: u64,
        lhs: ValueId,
        rhs: ValueId,
        flags: u64,
    },
    Unop {
        op: u64,
        val: ValueId,
        flags: u64,
    },
    Cast {
        op: u64,
        val: ValueId,
        /// `nneg` (zext, uitofp), `nuw`/`nsw` (trunc), or fast-math flags.
        flags: u64,
    },
    Cmp {
        pred: u64,
        lhs: ValueId,
        rhs: ValueId,
        flags: u64,
    },
    Select(ValueId, ValueId, ValueId),
    ExtractValue(ValueId, Vec<u64>),
    InsertValue(ValueId, ValueId, Vec<u64>),
    ExtractElement(ValueId, ValueId),
    InsertElement(ValueId, ValueId, ValueId),
    ShuffleVector(ValueId, ValueId, ValueId),
    Phi(Vec<(ValueId, usize)>),
    Alloca {
        ty: TypeId,
        size: ValueId,
        align: u64,
    },
    Load {
        ptr: ValueId,
        align: u64,
        volatile: bool,
        /// An atomic load's ordering and sync scope.
        atomic: Option<(u64, u64)>,
    },
    Store {
        ptr: ValueId,
        val: ValueId,
        align: u64,
        volatile: bool,
        atomic: Option<(u64, u64)>,
    },
    Freeze(ValueId),
    Gep {
        inbounds: bool,
        source: TypeId,
        ops: Vec<ValueId>,
    },
    Call {
        attrs: u64,
        cc: u64,
        fmf: u64,
        fnty: TypeId,
        callee: ValueId,
        args: Vec<ValueId>,
        /// An `invoke`'s normal and unwind blocks.
        invoke: Option<(usize, usize)>,
    },
    LandingPad {
        ty: TypeId,
        cleanup: bool,
        /// (0 catch / 1 filter, value).
        clauses: Vec<(u64, ValueId)>,
    },
    Resume(ValueId),
    AtomicRmw {
        op: u64,
        ptr: ValueId,
        val: ValueId,
        volatile: bool,
        ordering: u64,
        scope: u64,
    },
    CmpXchg {
        ptr: ValueId,
        cmp: ValueId,
        new: ValueId,
        volatile: bool,
        success: u64,
        failure: u64,
        scope: u64,
        weak: bool,
    },
    Fence {
        ordering: u64,
        scope: u64,
    },
    /// An instruction the reader does not print (its record code).
    Other(u64),
}

/// One metadata node, string or value.
#[derive(Clone, Debug, PartialEq)]
pub enum Md {
    Str(Vec<u8>),
    Value(TypeId, ValueId),
    /// A tuple: operands are metadata IDs + 1 (0: null).
    Node {
        distinct: bool,
        ops: Vec<u64>,
    },
    /// A specialised node (`!DILocation(…)`, …): its record code and operands.
    Special {
        code: u64,
        ops: Vec<u64>,
    },
}

/// A metadata entry and the bits of its record.
#[derive(Clone, Debug)]
pub struct MdEntry {
    pub md: Md,
    pub bits: (u64, u64),
}

/// A global value's attachments: the value, its (kind, node ID) pairs, the
/// bits of its GLOBAL_DECL_ATTACHMENT record.
pub type GlobalAttachments = (ValueId, Vec<(u64, u64)>, (u64, u64));

/// A module.
#[derive(Clone, Debug, Default)]
pub struct Module {
    pub producer: Option<String>,
    pub version: u64,
    pub triple: Option<String>,
    pub datalayout: Option<String>,
    pub source_filename: Option<String>,
    /// Bits of the TRIPLE, DATALAYOUT and SOURCE_FILENAME records.
    pub header_bits: [(u64, u64); 3],
    pub types: Vec<Type>,
    /// Bits of each type's record (a named struct's: its name and body).
    pub type_bits: Vec<Vec<(u64, u64)>>,
    /// Each type's first index in the table.
    pub type_index: std::collections::HashMap<Type, TypeId, rustc_hash::FxBuildHasher>,
    /// Bits of each attribute group's record, by group ID.
    pub group_bits: Vec<(u64, (u64, u64))>,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    pub values: Vec<Value>,
    /// Attribute groups: ID → (parameter index, attributes as text, in order).
    pub groups: Vec<(u64, u64, Vec<Attr>)>,
    /// Attribute lists (PARAMATTR entries): their groups' IDs.
    pub attr_lists: Vec<Vec<u64>>,
    pub md: Vec<MdEntry>,
    pub named_md: Vec<(String, Vec<u64>, (u64, u64))>,
    pub md_kinds: Vec<(u64, String)>,
    /// Attachments of global values (GLOBAL_DECL_ATTACHMENT): value, its
    /// (kind, node ID) pairs, the record's bits.
    pub global_md: Vec<GlobalAttachments>,
    /// Comdats: name, selection kind (1 any, 2 exactmatch, 3 largest,
    /// 4 nodeduplicate, 5 samesize), the record's bits.
    pub comdats: Vec<(String, u64, (u64, u64))>,
    /// The text's dialect when the caller chooses it (`14`: typed pointers,
    /// as `llvm-dis-14` prints; `19`: opaque pointers, as `llvm-dis-19`);
    /// `None`: by the producer (see [`Module::modern`]).
    pub dialect: Option<u32>,
    pub errors: Vec<(u64, String)>,
    /// Function bodies left to read ([`read_lazily`]).
    pub unread: Option<Box<Unread>>,
}

/// What reading a module's bodies later needs: the stream's bytes, the
/// BLOCKINFO abbreviations in force at each body, the bodies in stream
/// order, and the reader's state they share (where a function's own
/// metadata is numbered from, the uniqued locations).
#[derive(Clone, Debug, Default)]
pub struct Unread {
    data: std::rc::Rc<[u8]>,
    infos: Vec<std::rc::Rc<crate::bitstream::records::BlockInfo>>,
    /// [`Stream::blockinfo_reads`] when the last of `infos` was taken.
    infos_read: u32,
    /// (function, its block, its BLOCKINFO in `infos`), in stream order.
    bodies: std::collections::VecDeque<(usize, Block, usize)>,
    /// Which functions have a body in `bodies`.
    pending: Vec<bool>,
    module_md: Option<usize>,
    locs: Locations,
}

/// Uniqued DILocations by (line, column, scope + 1, inlined-at + 1,
/// implicit code).
type Locations = std::collections::HashMap<[u64; 5], u64, rustc_hash::FxBuildHasher>;

impl Module {
    /// How many function bodies are left to read.
    pub fn unread_bodies(&self) -> usize {
        self.unread.as_ref().map_or(0, |u| u.bodies.len())
    }

    /// Reads the bodies left to read, in stream order, up to and including
    /// function `f`'s (none if `f`'s is read or it has none). Bodies are
    /// always read in stream order, so what they share (metadata IDs,
    /// uniqued locations) is what reading the module whole gives.
    pub fn read_bodies_to(&mut self, f: usize) {
        let wanted = self
            .unread
            .as_ref()
            .is_some_and(|u| u.pending.get(f).copied().unwrap_or(false));
        while wanted && self.read_next_body().is_some_and(|g| g != f) {}
    }

    /// Reads every body left to read.
    pub fn read_all_bodies(&mut self) {
        while self.read_next_body().is_some() {}
    }

    /// Reads the next body left to read; its function.
    fn read_next_body(&mut self) -> Option<usize> {
        // (An Unread is kept only while it has bodies left.)
        let mut u = self.unread.take()?;
        let data = std::rc::Rc::clone(&u.data);
        let mut r = Reader {
            m: self,
            strtab: Vec::new(),
            pending_names: Vec::new(),
            module_md: u.module_md,
            locs: std::mem::take(&mut u.locs),
            lazy: None,
        };
        let f = r.read_body(&data, &mut u);
        u.module_md = r.module_md;
        u.locs = std::mem::take(&mut r.locs);
        if !u.bodies.is_empty() {
            self.unread = Some(u);
        }
        f
    }
}

impl Module {
    /// Whether the module is LLVM 4 or later's (its text as `llvm-dis-19`
    /// prints it): opaque pointers, or an IDENTIFICATION block naming a
    /// producer other than LLVM 3.x.
    pub fn modern(&self) -> bool {
        if let Some(d) = self.dialect {
            return d >= 19;
        }
        self.types
            .iter()
            .any(|t| matches!(t, Type::Pointer(None, _)))
            || self
                .producer
                .as_deref()
                .is_some_and(|p| !p.starts_with("LLVM3.") && !p.starts_with("APPLE_1_"))
    }
}

/// One attribute of a group.
#[derive(Clone, Debug, PartialEq)]
pub enum Attr {
    Enum(u64),
    Int(u64, u64),
    Str(String, Option<String>),
    Type(u64, Option<TypeId>),
    /// A constant range: kind, bit width, lower and upper bound.
    Range(u64, u64, i64, i64),
}

// Block IDs.
const MODULE: u64 = 8;
const PARAMATTR: u64 = 9;
const PARAMATTR_GROUP: u64 = 10;
const CONSTANTS: u64 = 11;
const FUNCTION: u64 = 12;
const IDENTIFICATION: u64 = 13;
const VALUE_SYMTAB: u64 = 14;
const METADATA: u64 = 15;
const METADATA_ATTACHMENT: u64 = 16;
const TYPE_NEW: u64 = 17;
const METADATA_KIND: u64 = 22;
const USELIST: u64 = 18;
const STRTAB: u64 = 23;

impl Module {
    /// The type `t`, or `Unknown` for an index past the table.
    pub fn ty(&self, t: TypeId) -> &Type {
        self.types.get(t).unwrap_or(&Type::Unknown(u64::MAX))
    }

    /// The pointee of pointer type `t` (typed pointers).
    pub fn pointee(&self, t: TypeId) -> Option<TypeId> {
        match self.ty(t) {
            Type::Pointer(p, _) => *p,
            _ => None,
        }
    }

    /// A pointer to `t` in address space `space`: the typed pointer if the
    /// table has one, else the opaque `ptr` of that space.
    pub fn pointer_to(&self, t: TypeId, space: u32) -> Option<TypeId> {
        self.find_type(&Type::Pointer(Some(t), space))
            .or_else(|| self.find_type(&Type::Pointer(None, space)))
    }

    /// The index of type `t` in the table, if it is there.
    pub fn find_type(&self, t: &Type) -> Option<TypeId> {
        self.type_index.get(t).copied()
    }
}

/// Reads the module in `data` (a bitcode stream with its magic, or its
/// wrapper).
pub fn read(data: &[u8]) -> Module {
    read_with(data, false)
}

/// [`read`], leaving the function bodies to read when they are asked for
/// ([`Module::read_bodies_to`]): what a viewer showing the text a piece at
/// a time reads first (the module's records, its types, globals and
/// module-level metadata, and where each body lies).
pub fn read_lazily(data: &[u8]) -> Module {
    read_with(data, true)
}

fn read_with(data: &[u8], lazy: bool) -> Module {
    let mut m = Module::default();
    let data = unwrap(data);
    if data.len() < 4 || data[..4] != crate::bitstream::BITCODE_MAGIC {
        m.errors
            .push((0, "not LLVM bitcode (no BC 0xC0DE magic)".into()));
        return m;
    }
    let mut s = Stream::new(data);
    let mut top = s.top(32);
    let mut r = Reader {
        m: &mut m,
        strtab: Vec::new(),
        pending_names: Vec::new(),
        module_md: None,
        locs: Default::default(),
        lazy: lazy.then(|| Unread {
            data: data.into(),
            ..Unread::default()
        }),
    };
    loop {
        match s.next(&mut top) {
            Ok(Entry::Block(b)) => match b.id {
                IDENTIFICATION => r.identification(&mut s, &b),
                MODULE => r.module(&mut s, &b),
                STRTAB => r.strtab(&mut s, &b),
                _ => {}
            },
            Ok(Entry::End) => break,
            Ok(Entry::Record(_)) => {}
            Err(e) => {
                r.m.errors.push((top.pos, e));
                break;
            }
        }
    }
    r.apply_strtab();
    if let Some(mut u) = r.lazy.take() {
        if !u.bodies.is_empty() {
            u.module_md = r.module_md;
            u.locs = std::mem::take(&mut r.locs);
            m.unread = Some(Box::new(u));
        }
    }
    m
}

/// The bits of the METADATA blocks at the start of function block `b`
/// (before its first instruction): what a viewer sizes a body's metadata by
/// before reading it.
fn md_bits(s: &mut Stream, b: &Block) -> u64 {
    let mut c = s.enter(b);
    let mut bits = 0;
    // DECLAREBLOCKS, then the constants and metadata blocks.
    for _ in 0..8 {
        match s.next(&mut c) {
            Ok(Entry::Block(sub)) if sub.id == METADATA => bits += sub.end - sub.start,
            Ok(Entry::Block(_)) => {}
            Ok(Entry::Record(r)) if r.code == 1 => {}
            _ => break,
        }
    }
    bits
}

/// The stream inside a bitcode wrapper, or `data` itself.
fn unwrap(data: &[u8]) -> &[u8] {
    if data.len() >= 20 && data[..4] == crate::bitstream::WRAPPER_MAGIC {
        let word = |k: usize| u32::from_le_bytes([data[k], data[k + 1], data[k + 2], data[k + 3]]);
        let (off, size) = (word(8) as usize, word(12) as usize);
        if let Some(inner) = data.get(off..off.saturating_add(size)) {
            return inner;
        }
    }
    data
}

struct Reader<'m> {
    m: &'m mut Module,
    strtab: Vec<u8>,
    /// Names in the string table: (global kind 0 var / 1 function, index, offset, size).
    pending_names: Vec<(u8, usize, u64, u64)>,
    /// Metadata entries of the module itself: a function's own metadata is
    /// numbered from here in each function.
    module_md: Option<usize>,
    /// Uniqued DILocations: a DEBUG_LOC naming one already read is that node.
    locs: Locations,
    /// Reading lazily: the bodies met and left for later.
    lazy: Option<Unread>,
}

/// An alignment stored as log2 + 1 (0: none); 0 for one past 2^63.
pub fn log2_align(a: u64) -> u64 {
    match a {
        0 => 0,
        a => 1u64.checked_shl((a - 1).min(64) as u32).unwrap_or(0),
    }
}

/// A signed value as the bitstream stores it (sign in the low bit).
pub(crate) fn signed(v: u64) -> i64 {
    if v & 1 == 0 {
        (v >> 1) as i64
    } else if v == 1 {
        i64::MIN
    } else {
        -((v >> 1) as i64)
    }
}

impl Reader<'_> {
    fn identification(&mut self, s: &mut Stream, b: &Block) {
        let mut c = s.enter(b);
        while let Ok(Entry::Record(r)) = s.next(&mut c) {
            if r.code == 1 {
                self.m.producer = Some(text(&r.ops));
            }
        }
    }

    fn strtab(&mut self, s: &mut Stream, b: &Block) {
        let mut c = s.enter(b);
        while let Ok(Entry::Record(r)) = s.next(&mut c) {
            if r.code == 1 {
                self.strtab = s.blob(&r).to_vec();
            }
        }
    }

    fn apply_strtab(&mut self) {
        for &(kind, i, off, size) in &self.pending_names {
            let name = self
                .strtab
                .get(off as usize..(off + size) as usize)
                .map(|b| String::from_utf8_lossy(b).into_owned());
            match kind {
                0 => self.m.globals[i].name = name,
                2 => self.m.comdats[i].0 = name.unwrap_or_default(),
                _ => self.m.functions[i].name = name,
            }
        }
    }

    fn module(&mut self, s: &mut Stream, b: &Block) {
        let mut c = s.enter(b);
        // Functions with bodies, in record order, for the FUNCTION_BLOCKs.
        let mut bodies: Vec<usize> = Vec::new();
        let mut next_body = 0;
        loop {
            let e = match s.next(&mut c) {
                Ok(e) => e,
                Err(e) => {
                    self.m.errors.push((c.pos, e));
                    return;
                }
            };
            // What comes after a body left for later may change what the
            // body is read with (values, types, metadata, abbreviations):
            // the bodies left so far are read first. Only the symbol table
            // (names) and more bodies are met after them in LLVM's layout.
            let later = match &e {
                Entry::Block(b) => b.id == FUNCTION || b.id == VALUE_SYMTAB,
                _ => true,
            };
            if !later {
                self.read_left(s);
            }
            match e {
                Entry::End => return,
                Entry::Block(b) => match b.id {
                    TYPE_NEW => self.types(s, &b),
                    PARAMATTR_GROUP => self.groups(s, &b),
                    PARAMATTR => self.attr_lists(s, &b),
                    CONSTANTS => {
                        let mut vals = std::mem::take(&mut self.m.values);
                        self.constants(s, &b, &mut vals, 0);
                        self.m.values = vals;
                    }
                    METADATA => {
                        let from = self.m.md.len();
                        self.metadata(s, &b);
                        self.index_locations(from);
                    }
                    METADATA_KIND => self.kinds(s, &b),
                    VALUE_SYMTAB => self.module_symtab(s, &b),
                    FUNCTION => {
                        self.module_md.get_or_insert(self.m.md.len());
                        if next_body == 0 {
                            bodies = (0..self.m.functions.len())
                                .filter(|&k| !self.m.functions[k].declaration)
                                .collect();
                        }
                        if let Some(&f) = bodies.get(next_body) {
                            self.m.functions[f].block = Some((b.start, b.end));
                            self.m.functions[f].md_bits = md_bits(s, &b);
                            if self.lazy.is_some() {
                                self.leave(s, b, f);
                            } else {
                                let body = self.function(s, &b, f);
                                self.m.functions[f].body = Some(body);
                            }
                        }
                        next_body += 1;
                    }
                    _ => {}
                },
                Entry::Record(r) => self.module_record(&r),
            }
        }
    }

    /// Leaves function `f`'s body (block `b`) for later.
    fn leave(&mut self, s: &Stream, b: Block, f: usize) {
        let n = self.m.functions.len();
        let Some(u) = self.lazy.as_mut() else {
            return;
        };
        // A BLOCKINFO read since the last body: its abbreviations from here.
        if u.infos.is_empty() || s.blockinfo_reads() != u.infos_read {
            u.infos.push(std::rc::Rc::new(s.block_info()));
            u.infos_read = s.blockinfo_reads();
        }
        u.pending.resize(n, false);
        u.pending[f] = true;
        u.bodies.push_back((f, b, u.infos.len() - 1));
    }

    /// Reads the bodies left for later now.
    fn read_left(&mut self, s: &Stream) {
        let Some(mut u) = self.lazy.take() else {
            return;
        };
        while self.read_body(s.data(), &mut u).is_some() {}
        self.lazy = Some(u);
    }

    /// Reads the first of the bodies `u` left for later (in the stream
    /// `data`, with the abbreviations in force where it lies); its function.
    fn read_body(&mut self, data: &[u8], u: &mut Unread) -> Option<usize> {
        let (f, b, info) = u.bodies.pop_front()?;
        u.pending[f] = false;
        let mut s = Stream::with_blockinfo(data, &u.infos[info]);
        let body = self.function(&mut s, &b, f);
        self.m.functions[f].body = Some(body);
        Some(f)
    }

    fn module_record(&mut self, r: &Record) {
        let o = |k: usize| r.ops.get(k).copied().unwrap_or(0);
        match r.code {
            1 => self.m.version = o(0),
            2 => {
                self.m.triple = Some(text(&r.ops));
                self.m.header_bits[0] = r.bits;
            }
            3 => {
                self.m.datalayout = Some(text(&r.ops));
                self.m.header_bits[1] = r.bits;
            }
            16 => {
                self.m.source_filename = Some(text(&r.ops));
                self.m.header_bits[2] = r.bits;
            }
            // GLOBALVAR: [(strtab offset, size,)? type, isconst|explicit, init+1,
            // linkage, align, section, visibility, tls, unnamed_addr,
            // externally_initialized, dll, comdat, attrs, dso_local]
            7 => {
                let (base, st) = self.name_base(r);
                let ob = |k: usize| o(base + k);
                let explicit = ob(1) & 2 != 0;
                let mut ty = ob(0) as usize;
                let mut space = (ob(1) >> 2) as u32;
                if !explicit {
                    // The record gives the pointer type.
                    if let Type::Pointer(Some(p), a) = self.m.ty(ty).clone() {
                        ty = p;
                        space = a;
                    }
                }
                let g = Global {
                    name: None,
                    ty,
                    space,
                    constant: ob(1) & 1 != 0,
                    init: (ob(2) != 0).then(|| ob(2) as usize - 1),
                    linkage: ob(3),
                    align: ob(4),
                    section: ob(5),
                    visibility: ob(6),
                    tls: ob(7),
                    unnamed_addr: ob(8),
                    externally_initialized: ob(9) != 0,
                    dll: ob(10),
                    dso_local: r.ops.len() > base + 13 && ob(13) != 0,
                    comdat: ob(11),
                    bits: r.bits,
                };
                let i = self.m.globals.len();
                if let Some((off, size)) = st {
                    self.pending_names.push((0, i, off, size));
                }
                self.m.globals.push(g);
                self.m.values.push(Value::Global(i));
            }
            // FUNCTION: [(strtab,)? type, cc, isproto, linkage, paramattr,
            // alignment, section, visibility, gc, unnamed_addr, prologue,
            // dllstorage, comdat, prefix, personality, dso_local, addrspace]
            8 => {
                let (base, st) = self.name_base(r);
                let ob = |k: usize| o(base + k);
                let mut ty = ob(0) as usize;
                if let Type::Pointer(Some(p), _) = self.m.ty(ty) {
                    ty = *p;
                }
                let f = Function {
                    name: None,
                    ty,
                    cc: ob(1),
                    declaration: ob(2) != 0,
                    linkage: ob(3),
                    attrs: ob(4),
                    align: ob(5),
                    section: ob(6),
                    visibility: ob(7),
                    unnamed_addr: ob(9),
                    dll: ob(11),
                    dso_local: ob(15) != 0,
                    space: ob(16) as u32,
                    comdat: ob(12),
                    personality: ob(14),
                    bits: r.bits,
                    body: None,
                    block: None,
                    md_bits: 0,
                };
                let i = self.m.functions.len();
                if let Some((off, size)) = st {
                    self.pending_names.push((1, i, off, size));
                }
                self.m.functions.push(f);
                self.m.values.push(Value::Function(i));
            }
            14 | 9 => self.m.values.push(Value::Alias(0)),
            // COMDAT: [strtab offset, size, selection] or [selection, size, name…]
            12 => {
                let i = self.m.comdats.len();
                if self.m.version >= 2 {
                    self.pending_names.push((2, i, o(0), o(1)));
                    self.m.comdats.push((String::new(), o(2), r.bits));
                } else {
                    let n = o(1) as usize;
                    let name = text(r.ops.get(2..2 + n).unwrap_or(&[]));
                    self.m.comdats.push((name, o(0), r.bits));
                }
            }
            _ => {}
        }
    }

    /// From module version 2 on a global value's record starts with its
    /// name's offset and size in the string table.
    fn name_base(&self, r: &Record) -> (usize, Option<(u64, u64)>) {
        if self.m.version >= 2 {
            let o = |k: usize| r.ops.get(k).copied().unwrap_or(0);
            (2, Some((o(0), o(1))))
        } else {
            (0, None)
        }
    }

    fn types(&mut self, s: &mut Stream, b: &Block) {
        let mut c = s.enter(b);
        let mut name: Option<String> = None;
        let mut name_bits: Option<(u64, u64)> = None;
        loop {
            let r = match s.next(&mut c) {
                Ok(Entry::Record(r)) => r,
                Ok(Entry::Block(_)) => continue,
                Ok(Entry::End) => return,
                Err(e) => {
                    self.m.errors.push((c.pos, e));
                    return;
                }
            };
            if r.code == 19 {
                name_bits = Some(r.bits);
            } else if r.code != 1 {
                let mut bits = vec![r.bits];
                if matches!(r.code, 6 | 20) {
                    bits.extend(name_bits.take());
                }
                self.m.type_bits.push(bits);
            }
            let o = |k: usize| r.ops.get(k).copied().unwrap_or(0);
            let t = match r.code {
                1 => continue,
                2 => Type::Void,
                3 => Type::Float,
                4 => Type::Double,
                5 => Type::Label,
                6 => Type::Struct {
                    name: name.take(),
                    packed: false,
                    elems: Vec::new(),
                    opaque: true,
                },
                7 => Type::Int(o(0) as u32),
                8 => Type::Pointer(Some(o(0) as usize), o(1) as u32),
                9 => Type::Function {
                    vararg: o(0) != 0,
                    ret: o(2) as usize,
                    params: r.ops.iter().skip(3).map(|&v| v as usize).collect(),
                },
                10 => Type::Half,
                11 => Type::Array(o(0), o(1) as usize),
                12 => Type::Vector(o(0), o(1) as usize, o(2) != 0),
                13 => Type::X86Fp80,
                14 => Type::Fp128,
                15 => Type::PpcFp128,
                16 => Type::Metadata,
                17 => Type::X86Mmx,
                18 => Type::Struct {
                    name: None,
                    packed: o(0) != 0,
                    elems: r.ops.iter().skip(1).map(|&v| v as usize).collect(),
                    opaque: false,
                },
                19 => {
                    name = Some(text(&r.ops));
                    continue;
                }
                20 => Type::Struct {
                    name: name.take(),
                    packed: o(0) != 0,
                    elems: r.ops.iter().skip(1).map(|&v| v as usize).collect(),
                    opaque: false,
                },
                21 => Type::Function {
                    vararg: o(0) != 0,
                    ret: o(1) as usize,
                    params: r.ops.iter().skip(2).map(|&v| v as usize).collect(),
                },
                22 => Type::Token,
                23 => Type::BFloat,
                24 => Type::X86Amx,
                25 => Type::Pointer(None, o(0) as u32),
                k => Type::Unknown(k),
            };
            let id = self.m.types.len();
            self.m.type_index.entry(t.clone()).or_insert(id);
            self.m.types.push(t);
        }
    }

    fn groups(&mut self, s: &mut Stream, b: &Block) {
        let mut c = s.enter(b);
        while let Ok(Entry::Record(r)) = s.next(&mut c) {
            if r.code != 3 || r.ops.len() < 2 {
                continue;
            }
            let (id, idx) = (r.ops[0], r.ops[1]);
            let mut attrs = Vec::new();
            let mut i = 2;
            let ops = &r.ops;
            let string = |i: &mut usize| -> String {
                let start = *i;
                while *i < ops.len() && ops[*i] != 0 {
                    *i += 1;
                }
                let s = text(&ops[start..*i]);
                *i += 1;
                s
            };
            while i < ops.len() {
                let kind = ops[i];
                i += 1;
                match kind {
                    0 => {
                        attrs.push(Attr::Enum(ops.get(i).copied().unwrap_or(0)));
                        i += 1;
                    }
                    1 => {
                        let k = ops.get(i).copied().unwrap_or(0);
                        let v = ops.get(i + 1).copied().unwrap_or(0);
                        attrs.push(Attr::Int(k, v));
                        i += 2;
                    }
                    3 | 4 => {
                        let key = string(&mut i);
                        let val = (kind == 4).then(|| string(&mut i));
                        attrs.push(Attr::Str(key, val));
                    }
                    5 | 6 => {
                        let k = ops.get(i).copied().unwrap_or(0);
                        i += 1;
                        let t = if kind == 6 {
                            i += 1;
                            ops.get(i - 1).map(|&v| v as usize)
                        } else {
                            None
                        };
                        attrs.push(Attr::Type(k, t));
                    }
                    // A constant range: [kind, bit width, lower, upper], the
                    // bounds signed (wide ones word by word, not read here).
                    7 => {
                        let k = ops.get(i).copied().unwrap_or(0);
                        let width = ops.get(i + 1).copied().unwrap_or(0);
                        if width > 64 {
                            break;
                        }
                        let lo = signed(ops.get(i + 2).copied().unwrap_or(0));
                        let hi = signed(ops.get(i + 3).copied().unwrap_or(0));
                        attrs.push(Attr::Range(k, width, lo, hi));
                        i += 4;
                    }
                    _ => break,
                }
            }
            self.m.groups.push((id, idx, attrs));
            self.m.group_bits.push((id, r.bits));
        }
    }

    fn attr_lists(&mut self, s: &mut Stream, b: &Block) {
        let mut c = s.enter(b);
        while let Ok(Entry::Record(r)) = s.next(&mut c) {
            if r.code == 2 {
                self.m.attr_lists.push(r.ops.clone());
            }
        }
    }

    fn kinds(&mut self, s: &mut Stream, b: &Block) {
        let mut c = s.enter(b);
        while let Ok(Entry::Record(r)) = s.next(&mut c) {
            if r.code == 6 && !r.ops.is_empty() {
                self.m.md_kinds.push((r.ops[0], text(&r.ops[1..])));
            }
        }
    }

    /// The module-level symbol table (before string tables): names of
    /// global values by value number.
    fn module_symtab(&mut self, s: &mut Stream, b: &Block) {
        let mut c = s.enter(b);
        while let Ok(Entry::Record(r)) = s.next(&mut c) {
            let (id, name) = match r.code {
                1 if !r.ops.is_empty() => (r.ops[0] as usize, text(&r.ops[1..])),
                3 if r.ops.len() >= 2 => (r.ops[0] as usize, text(&r.ops[2..])),
                _ => continue,
            };
            match self.m.values.get(id) {
                Some(Value::Global(i)) => self.m.globals[*i].name = Some(name),
                Some(Value::Function(i)) => self.m.functions[*i].name = Some(name),
                _ => {}
            }
        }
    }

    /// A constants block: each value is pushed onto `vals` (numbered from
    /// `base` + its index there).
    fn constants(&mut self, s: &mut Stream, b: &Block, vals: &mut Vec<Value>, base: usize) {
        let mut c = s.enter(b);
        let mut ty: TypeId = 0;
        loop {
            let r = match s.next(&mut c) {
                Ok(Entry::Record(r)) => r,
                Ok(Entry::Block(_)) => continue,
                Ok(Entry::End) => return,
                Err(e) => {
                    self.m.errors.push((c.pos, e));
                    return;
                }
            };
            let o = |k: usize| r.ops.get(k).copied().unwrap_or(0);
            let id = |k: usize| o(k) as usize;
            let _ = base;
            let k = match r.code {
                1 => {
                    ty = o(0) as usize;
                    continue;
                }
                2 => Const::Null,
                3 => Const::Undef,
                26 => Const::Poison,
                4 => Const::Int(signed(o(0))),
                5 => Const::WideInt(r.ops.clone()),
                6 => Const::Float(o(0)),
                7 => Const::Aggregate(r.ops.iter().map(|&v| v as usize).collect()),
                8 | 22 => Const::Data(r.ops.clone()),
                9 => Const::CString(r.ops.clone()),
                10 => Const::Binop {
                    op: o(0),
                    lhs: id(1),
                    rhs: id(2),
                    flags: o(3),
                },
                11 => Const::Cast {
                    op: o(0),
                    ty: id(1),
                    val: id(2),
                },
                // CE_GEP / CE_INBOUNDS_GEP: [pointee type?, (type, value)*],
                // the leading type present when the count is odd.
                // CE_GEP (old), CE_INBOUNDS_GEP: [pointee type?, (type, value)*],
                // the leading type present when the count is odd;
                // CE_GEP_WITH_INRANGE_INDEX: [pointee, flags, (type, value)*];
                // CE_GEP (LLVM 19): [pointee, flags, (type, value)*].
                // CE_GEP_WITH_INRANGE: [pointee, flags, bit width, lower,
                // upper, (type, value)*].
                12 | 20 | 24 | 31 | 32 => {
                    let mut ops = r.ops.as_slice();
                    let mut inbounds = r.code == 20;
                    let mut flags = 0;
                    let mut source = None;
                    let mut inrange = None;
                    let mut inrange_index = None;
                    if matches!(r.code, 24 | 31 | 32) || ops.len() % 2 == 1 {
                        source = ops.first().map(|&t| t as usize);
                        ops = ops.get(1..).unwrap_or_default();
                    }
                    if matches!(r.code, 24 | 31 | 32) {
                        let f = ops.first().copied().unwrap_or(0);
                        inbounds = f & 1 != 0;
                        if r.code != 24 {
                            flags = f;
                        } else if f >> 1 != 0 || ops.len() % 2 == 1 {
                            inrange_index = Some(f >> 1);
                        }
                        ops = ops.get(1..).unwrap_or_default();
                    }
                    if r.code == 31 && ops.len() >= 3 && ops[0] <= 64 {
                        inrange = Some((signed(ops[1]), signed(ops[2])));
                        ops = &ops[3..];
                    }
                    Const::Gep {
                        source,
                        inbounds,
                        flags,
                        inrange,
                        inrange_index,
                        ops: ops
                            .chunks(2)
                            .map(|p| (p[0] as usize, *p.get(1).unwrap_or(&0) as usize))
                            .collect(),
                    }
                }
                13 => Const::Select(id(0), id(1), id(2)),
                17 => Const::Cmp {
                    pred: o(3),
                    lhs: id(1),
                    rhs: id(2),
                },
                k => Const::Other(k),
            };
            vals.push(Value::Const {
                ty,
                c: k,
                bits: r.bits,
            });
        }
    }

    /// Keeps the uniqued DILocations of entries `from..` for DEBUG_LOC records.
    fn index_locations(&mut self, from: usize) {
        for (k, e) in self.m.md.iter().enumerate().skip(from) {
            if let Md::Special { code, ops } = &e.md {
                if *code == di::LOCATION && ops.len() >= 5 && ops[0] & 1 == 0 {
                    let key = [
                        ops[1],
                        ops[2],
                        ops[3],
                        ops[4],
                        ops.get(5).copied().unwrap_or(0),
                    ];
                    self.locs.entry(key).or_insert(k as u64);
                }
            }
        }
    }

    fn metadata(&mut self, s: &mut Stream, b: &Block) {
        let mut c = s.enter(b);
        let mut name: Option<String> = None;
        loop {
            let r = match s.next(&mut c) {
                Ok(Entry::Record(r)) => r,
                Ok(Entry::Block(_)) => continue,
                Ok(Entry::End) => return,
                Err(e) => {
                    self.m.errors.push((c.pos, e));
                    return;
                }
            };
            let md = match r.code {
                1 => Md::Str(r.ops.iter().map(|&v| v as u8).collect()),
                2 => Md::Value(
                    r.ops.first().copied().unwrap_or(0) as usize,
                    r.ops.get(1).copied().unwrap_or(0) as usize,
                ),
                3 | 5 => Md::Node {
                    distinct: r.code == 5,
                    ops: r.ops.clone(),
                },
                4 => {
                    name = Some(text(&r.ops));
                    continue;
                }
                6 => {
                    if !r.ops.is_empty() {
                        self.m.md_kinds.push((r.ops[0], text(&r.ops[1..])));
                    }
                    continue;
                }
                10 => {
                    let n = name.take().unwrap_or_default();
                    self.m.named_md.push((n, r.ops.clone(), r.bits));
                    continue;
                }
                // METADATA_STRINGS: [count, offsets size, blob]
                35 => {
                    let blob = s.blob(&r);
                    let count = r.ops.first().copied().unwrap_or(0) as usize;
                    let off = r.ops.get(1).copied().unwrap_or(0) as usize;
                    for st in strings(blob, count, off) {
                        self.m.md.push(MdEntry {
                            md: Md::Str(st),
                            bits: r.bits,
                        });
                    }
                    continue;
                }
                // Index records: not metadata.
                38 | 39 => continue,
                // GLOBAL_DECL_ATTACHMENT: [value, (kind, node)*].
                36 => {
                    if let Some((&v, pairs)) = r.ops.split_first() {
                        let pairs = pairs
                            .chunks(2)
                            .filter(|p| p.len() == 2)
                            .map(|p| (p[0], p[1]));
                        self.m.global_md.push((v as usize, pairs.collect(), r.bits));
                    }
                    continue;
                }
                code => {
                    let mut ops = r.ops.clone();
                    di::normalize(code, &mut ops);
                    Md::Special { code, ops }
                }
            };
            self.m.md.push(MdEntry { md, bits: r.bits });
        }
    }

    fn function(&mut self, s: &mut Stream, b: &Block, f: usize) -> Body {
        let mut body = Body {
            bits: vec![(b.start, b.body)],
            block: (b.start, b.end),
            ..Body::default()
        };
        let base = self.m.values.len();
        let params = match self.m.ty(self.m.functions[f].ty) {
            Type::Function { params, .. } => params.clone(),
            _ => Vec::new(),
        };
        for (n, &t) in params.iter().enumerate() {
            body.values.push(Value::Arg { ty: t, n });
        }
        let mut c = s.enter(b);
        let mut block = 0usize;
        let mut last_loc: Option<u64> = None;
        loop {
            let e = match s.next(&mut c) {
                Ok(e) => e,
                Err(e) => {
                    body.error = Some((c.pos, e));
                    return body;
                }
            };
            match e {
                Entry::End => break,
                Entry::Block(sub) => match sub.id {
                    CONSTANTS => {
                        let mut vals = std::mem::take(&mut body.values);
                        self.constants(s, &sub, &mut vals, base);
                        body.values = vals;
                    }
                    METADATA => {
                        body.md_blocks.push((sub.start, sub.end));
                        let module_md = *self.module_md.get_or_insert(self.m.md.len());
                        let base = self.m.md.len();
                        self.metadata(s, &sub);
                        // This function's nodes are numbered from the module's
                        // count: move their references to where they are kept.
                        let shift = base - module_md;
                        if shift > 0 {
                            for e in &mut self.m.md[base..] {
                                match &mut e.md {
                                    Md::Node { ops, .. } => {
                                        for o in ops.iter_mut() {
                                            if *o > module_md as u64 {
                                                *o += shift as u64;
                                            }
                                        }
                                    }
                                    Md::Special { code, ops } => {
                                        for k in di::ref_fields(*code, ops) {
                                            if ops[k] > module_md as u64 {
                                                ops[k] += shift as u64;
                                            }
                                        }
                                    }
                                    _ => {}
                                }
                            }
                        }
                        body.md_shift = Some((module_md as u64, shift as u64));
                        self.index_locations(base);
                    }
                    METADATA_ATTACHMENT => attachments(s, &sub, &mut body),
                    USELIST => {
                        let mut uc = s.enter(&sub);
                        while let Ok(Entry::Record(r)) = s.next(&mut uc) {
                            if r.code == 2 {
                                if let Some((&bb, perm)) = r.ops.split_last() {
                                    body.bb_uselists.push((bb as usize, perm.to_vec()));
                                }
                            }
                        }
                    }
                    VALUE_SYMTAB => {
                        let mut vc = s.enter(&sub);
                        while let Ok(Entry::Record(r)) = s.next(&mut vc) {
                            match r.code {
                                1 if !r.ops.is_empty() => {
                                    body.names.push((r.ops[0] as usize, text(&r.ops[1..])))
                                }
                                2 if !r.ops.is_empty() => body
                                    .block_names
                                    .push((r.ops[0] as usize, text(&r.ops[1..]))),
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                },
                Entry::Record(r) => {
                    if r.code == 1 {
                        body.blocks = r.ops.first().copied().unwrap_or(0) as usize;
                        body.bits.push(r.bits);
                        continue;
                    }
                    // DEBUG_LOC, DEBUG_LOC_AGAIN: on the last instruction.
                    if r.code == 35 || r.code == 33 {
                        let loc = if r.code == 33 {
                            last_loc
                        } else {
                            let shifted = |id: u64| match body.md_shift {
                                Some((from, shift)) if id > from => id + shift,
                                _ => id,
                            };
                            let at = |k: usize| r.ops.get(k).copied().unwrap_or(0);
                            let key = [at(0), at(1), shifted(at(2)), shifted(at(3)), at(4)];
                            let id = match self.locs.get(&key) {
                                Some(&id) => id,
                                None => {
                                    let id = self.m.md.len() as u64;
                                    let mut ops = vec![0];
                                    ops.extend_from_slice(&key);
                                    self.m.md.push(MdEntry {
                                        md: Md::Special {
                                            code: di::LOCATION,
                                            ops,
                                        },
                                        bits: r.bits,
                                    });
                                    self.locs.insert(key, id);
                                    id
                                }
                            };
                            Some(id)
                        };
                        last_loc = loc;
                        if let Some(last) = body.insts.last_mut() {
                            last.loc = loc;
                            last.bits_loc = Some(r.bits);
                        }
                        continue;
                    }
                    // Debug records: before the last instruction.
                    if (61..=65).contains(&r.code) {
                        let Some(inst) = body.insts.len().checked_sub(1) else {
                            continue;
                        };
                        let node = |id: u64| match body.md_shift {
                            Some((from, shift)) if id >= from => id + shift + 1,
                            _ => id + 1,
                        };
                        let mut rec = DbgRecord {
                            code: r.code,
                            inst,
                            bits: r.bits,
                            ..DbgRecord::default()
                        };
                        for (k, &o) in r.ops.iter().enumerate() {
                            if r.code == 64 && k == 3 {
                                let next = base + body.values.len();
                                let v = if self.m.version >= 1 {
                                    (next as u64).wrapping_sub(o) as usize
                                } else {
                                    o as usize
                                };
                                rec.value = Some(v);
                                rec.ops.push(0);
                                break;
                            }
                            rec.ops.push(node(o));
                        }
                        body.dbg.push(rec);
                        continue;
                    }
                    let next = base + body.values.len();
                    match self.instruction(&r, next, base, &body.values) {
                        Ok((ty, op, terminator)) => {
                            let value = if matches!(self.m.ty(ty), Type::Void) {
                                None
                            } else {
                                body.values.push(Value::Inst {
                                    ty,
                                    n: body.insts.len(),
                                });
                                Some(next)
                            };
                            body.insts.push(Inst {
                                block,
                                value,
                                ty,
                                op,
                                md: Vec::new(),
                                loc: None,
                                bits_loc: None,
                                bits: r.bits,
                            });
                            if terminator {
                                block += 1;
                            }
                        }
                        Err(e) => {
                            body.error = Some((r.bits.0, e));
                            return body;
                        }
                    }
                }
            }
        }
        body
    }

    /// The type of value `v` (module values, then the function's from `base`).
    fn value_ty(&self, v: usize, base: usize, local: &[Value]) -> Option<TypeId> {
        let val = if v < base {
            self.m.values.get(v)?
        } else {
            local.get(v - base)?
        };
        Some(match val {
            Value::Global(i) => {
                let g = &self.m.globals[*i];
                self.m.pointer_to(g.ty, g.space)?
            }
            Value::Function(i) => {
                let f = &self.m.functions[*i];
                self.m.pointer_to(f.ty, f.space)?
            }
            Value::Const { ty, .. } | Value::Arg { ty, .. } | Value::Inst { ty, .. } => *ty,
            _ => return None,
        })
    }

    /// Reads one instruction record: its result type, what it does, and
    /// whether it ends a basic block.
    fn instruction(
        &self,
        r: &Record,
        next: usize,
        base: usize,
        local: &[Value],
    ) -> Result<(TypeId, Op, bool), String> {
        let ops = &r.ops;
        let mut i = 0usize;
        let relative = self.m.version >= 1;
        let void = self.m.find_type(&Type::Void).unwrap_or(0);
        let get = |k: usize| -> Result<u64, String> {
            ops.get(k)
                .copied()
                .ok_or_else(|| format!("record {} has too few operands", r.code))
        };
        let abs = |v: u64| -> usize {
            if relative {
                // 32-bit arithmetic, as LLVM's reader does: a forward
                // reference is stored as its negative distance mod 2^32.
                (next as u32).wrapping_sub(v as u32) as usize
            } else {
                v as usize
            }
        };
        // A value and its type (a forward reference gives its type).
        let pair = |i: &mut usize| -> Result<(usize, TypeId), String> {
            let v = abs(get(*i)?);
            *i += 1;
            if v < next {
                if let Some(t) = self.value_ty(v, base, local) {
                    return Ok((v, t));
                }
            }
            let t = get(*i)? as usize;
            *i += 1;
            Ok((v, t))
        };
        let value = |i: &mut usize| -> Result<usize, String> {
            let v = abs(get(*i)?);
            *i += 1;
            Ok(v)
        };
        let op = match r.code {
            2 => {
                let (l, t) = pair(&mut i)?;
                let rhs = value(&mut i)?;
                let op = get(i)?;
                let flags = ops.get(i + 1).copied().unwrap_or(0);
                return Ok((
                    t,
                    Op::Binop {
                        op,
                        lhs: l,
                        rhs,
                        flags,
                    },
                    false,
                ));
            }
            56 => {
                let (v, t) = pair(&mut i)?;
                let op = get(i)?;
                let flags = ops.get(i + 1).copied().unwrap_or(0);
                return Ok((t, Op::Unop { op, val: v, flags }, false));
            }
            3 => {
                let (v, _) = pair(&mut i)?;
                let to = get(i)? as usize;
                let op = get(i + 1)?;
                let flags = ops.get(i + 2).copied().unwrap_or(0);
                return Ok((to, Op::Cast { op, val: v, flags }, false));
            }
            9 | 28 => {
                let (l, t) = pair(&mut i)?;
                let rhs = value(&mut i)?;
                let pred = get(i)?;
                let flags = ops.get(i + 1).copied().unwrap_or(0);
                let bool_ty = self.m.find_type(&Type::Int(1)).unwrap_or(0);
                let rt = match self.m.ty(t) {
                    Type::Vector(n, _, sc) => self
                        .m
                        .find_type(&Type::Vector(*n, bool_ty, *sc))
                        .unwrap_or(bool_ty),
                    _ => bool_ty,
                };
                return Ok((
                    rt,
                    Op::Cmp {
                        pred,
                        lhs: l,
                        rhs,
                        flags,
                    },
                    false,
                ));
            }
            29 | 5 => {
                let (a, t) = pair(&mut i)?;
                let b2 = value(&mut i)?;
                let (cnd, _) = pair(&mut i)?;
                return Ok((t, Op::Select(cnd, a, b2), false));
            }
            26 => {
                let (v, t) = pair(&mut i)?;
                let idx: Vec<u64> = ops[i..].to_vec();
                let mut rt = t;
                for &k in &idx {
                    rt = match self.m.ty(rt) {
                        Type::Struct { elems, .. } => *elems.get(k as usize).unwrap_or(&void),
                        Type::Array(_, e) | Type::Vector(_, e, _) => *e,
                        _ => void,
                    };
                }
                return Ok((rt, Op::ExtractValue(v, idx), false));
            }
            27 => {
                let (a, t) = pair(&mut i)?;
                let (v, _) = pair(&mut i)?;
                return Ok((t, Op::InsertValue(a, v, ops[i..].to_vec()), false));
            }
            6 => {
                let (v, t) = pair(&mut i)?;
                let (x, _) = pair(&mut i)?;
                let e = match self.m.ty(t) {
                    Type::Vector(_, e, _) => *e,
                    _ => void,
                };
                return Ok((e, Op::ExtractElement(v, x), false));
            }
            7 => {
                let (v, t) = pair(&mut i)?;
                let e = value(&mut i)?;
                let (x, _) = pair(&mut i)?;
                return Ok((t, Op::InsertElement(v, e, x), false));
            }
            8 => {
                let (a, t) = pair(&mut i)?;
                let b2 = value(&mut i)?;
                let (mask, mt) = pair(&mut i)?;
                let rt = match (self.m.ty(t), self.m.ty(mt)) {
                    (Type::Vector(_, e, sc), Type::Vector(n, _, _)) => {
                        self.m.find_type(&Type::Vector(*n, *e, *sc)).unwrap_or(t)
                    }
                    _ => t,
                };
                return Ok((rt, Op::ShuffleVector(a, b2, mask), false));
            }
            10 => {
                if ops.is_empty() {
                    Op::Ret(None)
                } else {
                    let (v, _) = pair(&mut i)?;
                    Op::Ret(Some(v))
                }
            }
            11 => {
                if ops.len() == 1 {
                    Op::Br(get(0)? as usize)
                } else {
                    let t = get(0)? as usize;
                    let f = get(1)? as usize;
                    let cnd = abs(get(2)?);
                    Op::CondBr(cnd, t, f)
                }
            }
            12 => {
                // [opty, cond, default, (case value, block)*]
                let cond = abs(get(1)?);
                let default = get(2)? as usize;
                let cases = ops[3..]
                    .chunks(2)
                    .map(|p| (p[0] as usize, *p.get(1).unwrap_or(&0) as usize))
                    .collect();
                Op::Switch {
                    cond,
                    default,
                    cases,
                }
            }
            15 => Op::Unreachable,
            16 => {
                let t = get(0)? as usize;
                let mut incoming = Vec::new();
                let mut k = 1;
                while k + 1 < ops.len() {
                    let rel = signed(ops[k]);
                    let v = if relative {
                        (next as i64).wrapping_sub(rel) as usize
                    } else {
                        ops[k] as usize
                    };
                    incoming.push((v, ops[k + 1] as usize));
                    k += 2;
                }
                return Ok((t, Op::Phi(incoming), false));
            }
            19 => {
                // [instty, opty, op, align]
                let ty = get(0)? as usize;
                let size = get(2)? as usize;
                let a = get(3)?;
                let explicit = a & (1 << 6) != 0;
                let align = ((a & 0x1F) | ((a >> 8) & 0x7) << 5) as u32;
                let (elem, rt) = if explicit {
                    (ty, self.m.pointer_to(ty, 0).unwrap_or(void))
                } else {
                    (self.m.pointee(ty).unwrap_or(void), ty)
                };
                return Ok((
                    rt,
                    Op::Alloca {
                        ty: elem,
                        size,
                        align: log2_align(u64::from(align)),
                    },
                    false,
                ));
            }
            // LOAD: [op, ty?, retty?, align, vol]; LOADATOMIC adds ordering
            // and sync scope.
            20 | 41 => {
                let (p, pt) = pair(&mut i)?;
                let tail = if r.code == 41 { 5 } else { 3 };
                let (rt, rest) = if ops.len() - i == tail {
                    (get(i)? as usize, i + 1)
                } else {
                    (self.m.pointee(pt).unwrap_or(void), i)
                };
                let a = get(rest)?;
                let vol = ops.get(rest + 1).copied().unwrap_or(0) != 0;
                let atomic = (r.code == 41).then(|| {
                    (
                        ops.get(rest + 2).copied().unwrap_or(0),
                        ops.get(rest + 3).copied().unwrap_or(1),
                    )
                });
                return Ok((
                    rt,
                    Op::Load {
                        ptr: p,
                        align: log2_align(a),
                        volatile: vol,
                        atomic,
                    },
                    false,
                ));
            }
            58 => {
                let (v, t) = pair(&mut i)?;
                return Ok((t, Op::Freeze(v), false));
            }
            // STORE: [ptr, ty?, val, ty?, align, vol]; STOREATOMIC adds
            // ordering and sync scope.
            44 | 24 | 45 => {
                let (p, _) = pair(&mut i)?;
                let v = if r.code != 24 {
                    pair(&mut i)?.0
                } else {
                    value(&mut i)?
                };
                let a = get(i)?;
                let vol = ops.get(i + 1).copied().unwrap_or(0) != 0;
                let atomic = (r.code == 45).then(|| {
                    (
                        ops.get(i + 2).copied().unwrap_or(0),
                        ops.get(i + 3).copied().unwrap_or(1),
                    )
                });
                Op::Store {
                    ptr: p,
                    val: v,
                    align: log2_align(a),
                    volatile: vol,
                    atomic,
                }
            }
            43 => {
                let inbounds = get(0)? != 0;
                let source = get(1)? as usize;
                i = 2;
                let mut vals = Vec::new();
                let mut types = Vec::new();
                while i < ops.len() {
                    let (v, t) = pair(&mut i)?;
                    vals.push(v);
                    types.push(t);
                }
                // The result: a pointer to the indexed type, in the base's space.
                let space = match types.first().map(|&t| self.m.ty(t)) {
                    Some(Type::Pointer(_, a)) => *a,
                    _ => 0,
                };
                let mut cur = source;
                for &v in vals.iter().skip(2) {
                    cur = match self.m.ty(cur) {
                        Type::Struct { elems, .. } => {
                            let k = self.const_int(v, base, local).unwrap_or(0);
                            *elems.get(k as usize).unwrap_or(&void)
                        }
                        Type::Array(_, e) | Type::Vector(_, e, _) => *e,
                        _ => void,
                    };
                }
                let mut rt = self.m.pointer_to(cur, space).unwrap_or(void);
                // A vector base or index makes a vector of pointers.
                if let Some((n, sc)) = types.iter().find_map(|&t| match self.m.ty(t) {
                    Type::Vector(n, _, sc) => Some((*n, *sc)),
                    _ => None,
                }) {
                    if let Some(v) = self.m.find_type(&Type::Vector(n, rt, sc)) {
                        rt = v;
                    }
                }
                return Ok((
                    rt,
                    Op::Gep {
                        inbounds,
                        source,
                        ops: vals,
                    },
                    false,
                ));
            }
            // CALL: [paramattrs, cc, fmf?, fnty?, fnid, args…]
            // INVOKE: [paramattrs, cc, normal, unwind, fnty?, fnid, args…]
            34 | 13 => {
                let call = r.code == 34;
                let attrs = get(0)?;
                let cc = get(1)?;
                let mut fmf = 0;
                let mut invoke = None;
                let explicit_type;
                if call {
                    i = 2;
                    if cc & (1 << 17) != 0 {
                        fmf = get(i)?;
                        i += 1;
                    }
                    explicit_type = cc & (1 << 15) != 0;
                } else {
                    invoke = Some((get(2)? as usize, get(3)? as usize));
                    i = 4;
                    explicit_type = cc & (1 << 13) != 0;
                }
                let mut fnty = None;
                if explicit_type {
                    fnty = Some(get(i)? as usize);
                    i += 1;
                }
                let (callee, ct) = pair(&mut i)?;
                let fnty = fnty.or_else(|| self.m.pointee(ct)).unwrap_or(void);
                let (ret, params, vararg) = match self.m.ty(fnty) {
                    Type::Function {
                        ret,
                        params,
                        vararg,
                    } => (*ret, params.clone(), *vararg),
                    _ if call => return Err("a call whose callee is not a function".into()),
                    _ => return Err("an invoke whose callee is not a function".into()),
                };
                let mut args = Vec::new();
                for &p in &params {
                    match self.m.ty(p) {
                        // A call's label arguments are block numbers.
                        Type::Label if call => {
                            args.push(get(i)? as usize);
                            i += 1;
                        }
                        Type::Metadata => args.push(MD_ARG + (value(&mut i)? & (MD_ARG - 1))),
                        _ => args.push(value(&mut i)?),
                    }
                }
                if vararg {
                    while i < ops.len() {
                        args.push(pair(&mut i)?.0);
                    }
                }
                return Ok((
                    ret,
                    Op::Call {
                        attrs,
                        // An invoke's calling convention where a call keeps
                        // it (above the tail bit).
                        cc: if call { cc } else { (cc & 0x3FF) << 1 },
                        fmf,
                        fnty,
                        callee,
                        args,
                        invoke,
                    },
                    !call,
                ));
            }
            47 => {
                // LANDINGPAD: [ty, cleanup, nclauses, (kind, value)*]
                let ty = get(0)? as usize;
                let cleanup = get(1)? != 0;
                let n = get(2)? as usize;
                i = 3;
                let mut clauses = Vec::new();
                for _ in 0..n.min(ops.len()) {
                    let kind = get(i)?;
                    i += 1;
                    clauses.push((kind, pair(&mut i)?.0));
                }
                return Ok((
                    ty,
                    Op::LandingPad {
                        ty,
                        cleanup,
                        clauses,
                    },
                    false,
                ));
            }
            39 => Op::Resume(pair(&mut i)?.0),
            38 | 59 => {
                let (p, pt) = pair(&mut i)?;
                let (v, vt) = if r.code == 59 {
                    pair(&mut i)?
                } else {
                    let v = value(&mut i)?;
                    (v, self.m.pointee(pt).unwrap_or(void))
                };
                let op = get(i)?;
                let vol = get(i + 1)? != 0;
                let ordering = get(i + 2)?;
                let scope = ops.get(i + 3).copied().unwrap_or(1);
                return Ok((
                    vt,
                    Op::AtomicRmw {
                        op,
                        ptr: p,
                        val: v,
                        volatile: vol,
                        ordering,
                        scope,
                    },
                    false,
                ));
            }
            // CMPXCHG: [ptr, cmp, new, vol, success, scope, failure, weak];
            // the old form gives the compared value without its type.
            46 | 37 => {
                let (p, pt) = pair(&mut i)?;
                let (cmp, ct) = if r.code == 46 {
                    pair(&mut i)?
                } else {
                    let v = value(&mut i)?;
                    (v, self.m.pointee(pt).unwrap_or(void))
                };
                let new = value(&mut i)?;
                let volatile = get(i)? != 0;
                let success = get(i + 1)?;
                let scope = ops.get(i + 2).copied().unwrap_or(1);
                let failure = ops.get(i + 3).copied().unwrap_or(match success {
                    // The failure ordering LLVM derives from the success one.
                    5 => 3,
                    4 => 2,
                    o => o,
                });
                let weak = ops.get(i + 4).copied().unwrap_or(0) != 0;
                let bool_ty = self.m.find_type(&Type::Int(1)).unwrap_or(void);
                let rt = self
                    .m
                    .types
                    .iter()
                    .position(|t| {
                        matches!(t, Type::Struct { name: None, elems, .. } if *elems == [ct, bool_ty])
                    })
                    .unwrap_or(void);
                return Ok((
                    rt,
                    Op::CmpXchg {
                        ptr: p,
                        cmp,
                        new,
                        volatile,
                        success,
                        failure,
                        scope,
                        weak,
                    },
                    false,
                ));
            }
            36 => Op::Fence {
                ordering: get(0)?,
                scope: ops.get(1).copied().unwrap_or(1),
            },
            k => {
                return Err(format!("instruction record {k} is not read yet"));
            }
        };
        let terminator = matches!(r.code, 10 | 11 | 12 | 15 | 31 | 13 | 39);
        Ok((void, op, terminator))
    }

    /// The value of an integer constant.
    fn const_int(&self, v: usize, base: usize, local: &[Value]) -> Option<i64> {
        let val = if v < base {
            self.m.values.get(v)?
        } else {
            local.get(v - base)?
        };
        match val {
            Value::Const {
                c: Const::Int(k), ..
            } => Some(*k),
            Value::Const { c: Const::Null, .. } => Some(0),
            _ => None,
        }
    }
}

/// A function's metadata attachments: `[inst, (kind, node)*]` for an
/// instruction, `[(kind, node)*]` for the function.
fn attachments(s: &mut Stream, b: &Block, body: &mut Body) {
    let mut c: Cursor = s.enter(b);
    while let Ok(Entry::Record(r)) = s.next(&mut c) {
        if r.code != 11 {
            continue;
        }
        let (from, shift) = body.md_shift.unwrap_or((u64::MAX, 0));
        let node = |id: u64| if id >= from { id + shift } else { id };
        if r.ops.len() % 2 == 0 {
            body.fn_md
                .extend(r.ops.chunks(2).map(|p| (p[0], node(p[1]))));
            continue;
        }
        let inst = r.ops[0] as usize;
        if let Some(i) = body.insts.get_mut(inst) {
            i.md.extend(r.ops[1..].chunks(2).map(|p| (p[0], node(p[1]))));
        }
    }
}

/// The strings of a METADATA_STRINGS blob: `count` vbr6 lengths, then the
/// characters from `offset`.
fn strings(blob: &[u8], count: usize, offset: usize) -> Vec<Vec<u8>> {
    let mut lens = Vec::new();
    let mut s = Stream::new(blob);
    let _ = &mut s;
    let mut bit = 0u64;
    let bits = |p: u64, n: u64| -> Option<u64> {
        let mut v = 0;
        for k in 0..n {
            let q = p + k;
            let byte = *blob.get((q / 8) as usize)?;
            v |= u64::from(byte >> (q % 8) & 1) << k;
        }
        Some(v)
    };
    while lens.len() < count {
        let mut v = 0u64;
        let mut shift = 0;
        loop {
            let Some(chunk) = bits(bit, 6) else {
                return Vec::new();
            };
            bit += 6;
            v |= (chunk & 31) << shift;
            shift += 5;
            if chunk & 32 == 0 || shift > 60 {
                break;
            }
        }
        lens.push(v as usize);
    }
    let mut out = Vec::new();
    let mut at = offset;
    for n in lens {
        let Some(st) = blob.get(at..at + n) else {
            break;
        };
        out.push(st.to_vec());
        at += n;
    }
    out
}
