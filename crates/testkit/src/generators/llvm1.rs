//! Generator of LLVM 1.x bytecode test fixtures. No LLVM 1.x tool is at hand, so
//! every file is written here from `specs/llvm1-bytecode.html` (signature, module
//! block, format information, vbr/string primitives, global type pool, symbol
//! table) and `specs/notes/llvm1-layout.md` (compression, long and short block
//! headers, alignment, revisions): LLVM 1.0 (revision 0), 1.3 (revision 3) and
//! 1.4+ (revision 5) modules, compressed `llvc` files, deep nesting, and damaged
//! files.
//!
//! Contents the spec leaves "to be determined" (module info, constants,
//! instructions, type definitions) are filled with plausible bytes following LLVM
//! 1.x's writer; hexlens shows them raw, so only their sizes matter.
//!
//! The core's `llvm1_generated.rs` checks the files in `tests/fixtures/llvm1-bytecode/`
//! are what this generator makes (`HEXLENS_BLESS=1` rewrites them) and what
//! hexlens decodes from them. [`dense`] writes a large file for the benchmarks
//! and the scale tests.

/// A block type, with its long (revisions 0–2) and short (3+) identifiers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Id {
    Module,
    Function,
    ConstantPool,
    SymbolTable,
    ModuleGlobalInfo,
    GlobalTypePlane,
    BasicBlock,
    InstructionList,
    CompactionTable,
    /// Any identifier, written as given in either header form.
    Other(u32),
}

impl Id {
    fn long(self) -> u32 {
        match self {
            Id::Module => 0x01,
            Id::Function => 0x11,
            Id::ConstantPool => 0x12,
            Id::SymbolTable => 0x13,
            Id::ModuleGlobalInfo => 0x14,
            Id::GlobalTypePlane => 0x15,
            Id::BasicBlock => 0x31,
            Id::InstructionList => 0x32,
            Id::CompactionTable => 0x33,
            Id::Other(v) => v,
        }
    }
    fn short(self) -> u32 {
        match self {
            Id::Module => 1,
            Id::Function => 2,
            Id::ConstantPool => 3,
            Id::SymbolTable => 4,
            Id::ModuleGlobalInfo => 5,
            Id::GlobalTypePlane => 6,
            Id::InstructionList => 7,
            Id::CompactionTable => 8,
            Id::BasicBlock => panic!("revisions 3+ have no BasicBlock block"),
            Id::Other(v) => v,
        }
    }
}

/// Appends `v` as a vbr: 7 bits a byte, least significant first, bit 7 = more.
pub fn vbr(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(0x80 | (v & 0x7F) as u8);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends an `int64_vbr`: magnitude shifted left once, sign in bit 0.
pub fn vbr_i64(out: &mut Vec<u8>, v: i64) {
    let r = if v < 0 {
        (v.unsigned_abs() << 1) | 1
    } else {
        (v as u64) << 1
    };
    vbr(out, r)
}

/// A module stream under construction. Alignment counts from the start of `buf`
/// (the signature of an `llvm` file, the module header of a compressed stream).
pub struct W {
    pub buf: Vec<u8>,
    pub rev: u32,
}

impl W {
    /// An `llvm` file for revision `rev`: the signature is written already.
    pub fn file(rev: u32) -> W {
        W {
            buf: b"llvm".to_vec(),
            rev,
        }
    }
    /// A bare module stream (what an `llvc` file compresses).
    pub fn stream(rev: u32) -> W {
        W {
            buf: Vec::new(),
            rev,
        }
    }
    pub fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    pub fn vbr(&mut self, v: u64) {
        vbr(&mut self.buf, v)
    }
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b)
    }
    /// A `string`: vbr length, then the characters.
    pub fn string(&mut self, s: &str) {
        self.vbr(s.len() as u64);
        self.bytes(s.as_bytes());
    }
    /// A type slot: from revision 3 on, slots of 0x00FFFFFF and up are escaped.
    pub fn type_slot(&mut self, v: u64) {
        if self.rev >= 3 && v >= 0x00FF_FFFF {
            self.vbr(0x00FF_FFFF);
        }
        self.vbr(v);
    }
    /// Zero padding to a 32-bit boundary (revisions 0–3 only).
    pub fn align(&mut self) {
        if self.rev <= 3 {
            while !self.buf.len().is_multiple_of(4) {
                self.buf.push(0);
            }
        }
    }
    fn long(&self) -> bool {
        self.rev <= 2
    }

    /// A block whose content `f` writes; the header is back-patched with the size,
    /// then the stream is aligned. Revision 0 counts a ModuleGlobalInfo block's
    /// trailing alignment in its size (LLVM 1.0's quirk).
    pub fn block(&mut self, id: Id, f: impl FnOnce(&mut W)) {
        let at = self.buf.len();
        let hdr = if self.long() { 8 } else { 4 };
        self.buf.extend_from_slice(&[0; 8][..hdr]);
        f(self);
        if self.rev == 0 && id == Id::ModuleGlobalInfo {
            self.align();
        }
        let size = (self.buf.len() - at - hdr) as u32;
        self.patch_header(at, id, size);
        self.align();
    }

    /// Writes a block header at `at` with an explicit size.
    pub fn patch_header(&mut self, at: usize, id: Id, size: u32) {
        if self.long() {
            self.buf[at..at + 4].copy_from_slice(&id.long().to_le_bytes());
            self.buf[at + 4..at + 8].copy_from_slice(&size.to_le_bytes());
        } else {
            let word = (size << 5) | (id.short() & 0x1F);
            self.buf[at..at + 4].copy_from_slice(&word.to_le_bytes());
        }
    }

    /// The module block: long header, the format information word
    /// (`flags | rev << 4`), alignment, then the blocks `f` writes.
    pub fn module(&mut self, flags: u64, f: impl FnOnce(&mut W)) {
        self.module_word(flags | (u64::from(self.rev) << 4), f)
    }

    /// The module block with an arbitrary format information word.
    pub fn module_word(&mut self, word: u64, f: impl FnOnce(&mut W)) {
        let at = self.buf.len();
        self.u32(1);
        self.u32(0);
        self.vbr(word);
        self.align();
        f(self);
        let size = (self.buf.len() - at - 8) as u32;
        self.buf[at + 4..at + 8].copy_from_slice(&size.to_le_bytes());
    }

    /// A function block: linkage, then the sub-blocks `f` writes.
    pub fn function(&mut self, linkage: u64, f: impl FnOnce(&mut W)) {
        self.block(Id::Function, |w| {
            w.vbr(linkage);
            f(w);
        })
    }

    /// A symbol table: (revisions 2+) the named types, then value planes of
    /// (type slot, [(value slot, name)]).
    pub fn symbol_table(&mut self, types: &[(u64, &str)], planes: &[(u64, &[(u64, &str)])]) {
        self.block(Id::SymbolTable, |w| {
            if w.rev >= 2 {
                w.vbr(types.len() as u64);
                for (slot, name) in types {
                    w.type_slot(*slot);
                    w.string(name);
                }
            }
            for (ty, entries) in planes {
                w.vbr(entries.len() as u64);
                w.type_slot(*ty);
                for (slot, name) in *entries {
                    w.vbr(*slot);
                    w.string(name);
                }
            }
        })
    }

    /// A global type pool with `count` entries whose definitions are `defs`;
    /// revisions 0–1 write the type plane index (12) after the count.
    pub fn type_pool(&mut self, count: u64, defs: &[u8]) {
        self.block(Id::GlobalTypePlane, |w| {
            w.vbr(count);
            if w.rev <= 1 {
                w.vbr(12);
            }
            w.bytes(defs);
        })
    }
}

/// Type definitions as LLVM 1.x's writer encodes them (type id, then operands),
/// for revisions 2+ (function 13, struct 14, array 15, pointer 16) or 0–1 (one
/// higher). hexlens shows them raw.
fn type_defs(rev: u32) -> Vec<u8> {
    let shift = u64::from(rev <= 1);
    let mut d = Vec::new();
    // #0: int (void) — function type: return int, no parameters.
    vbr(&mut d, 13 + shift);
    vbr(&mut d, 7);
    vbr(&mut d, 0);
    // #1: { int, long } — struct terminated by void.
    vbr(&mut d, 14 + shift);
    vbr(&mut d, 7);
    vbr(&mut d, 9);
    vbr(&mut d, 0);
    // #2: pointer to #0.
    vbr(&mut d, 16 + shift);
    vbr(&mut d, 13 + shift);
    // #3: [10 x sbyte].
    vbr(&mut d, 15 + shift);
    vbr(&mut d, 3);
    vbr(&mut d, 10);
    d
}

/// Module info bytes in the 1.3+ layout (a global of type slot 16 with an
/// initializer, the list ends; a function of slot 15; no libraries, a target
/// triple). Shown raw.
fn module_info(triple: &str) -> Vec<u8> {
    let mut d = Vec::new();
    vbr(&mut d, (16 << 5) | 2);
    vbr(&mut d, 1);
    vbr(&mut d, 0);
    vbr(&mut d, (15 << 5) | 1);
    vbr(&mut d, 0);
    vbr(&mut d, 0);
    vbr(&mut d, triple.len() as u64);
    d.extend_from_slice(triple.as_bytes());
    d
}

/// A constant pool plane: `count` constants of type `ty` (not expressions),
/// each an int64_vbr. Shown raw.
fn constants(ty: u64, values: &[i64]) -> Vec<u8> {
    let mut d = Vec::new();
    vbr(&mut d, values.len() as u64);
    vbr(&mut d, ty);
    for &v in values {
        vbr(&mut d, 0);
        vbr_i64(&mut d, v);
    }
    d
}

/// Instructions in LLVM 1.x's 32-bit formats (opcode and operands packed into a
/// little-endian word). Shown raw.
fn instructions(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// LLVM 1.0 (revision 0): long headers, types in type plane 12, alignment after
/// every block (the module info block counting its own), two basic block blocks.
pub fn rev0_llvm10() -> Vec<u8> {
    let mut w = W::file(0);
    w.module(0, |w| {
        let defs = type_defs(0);
        w.type_pool(4, &defs);
        w.block(Id::ModuleGlobalInfo, |w| {
            w.vbr((17 << 3) | 2);
            w.vbr(1);
            w.vbr(0);
            w.vbr(16);
            w.vbr(0);
        });
        w.block(Id::ConstantPool, |w| w.bytes(&constants(7, &[42, -7])));
        w.function(0, |w| {
            w.block(Id::ConstantPool, |w| w.bytes(&constants(9, &[1 << 40])));
            w.block(Id::BasicBlock, |w| w.bytes(&instructions(&[0x0070_1C05])));
            w.block(Id::BasicBlock, |w| {
                w.bytes(&instructions(&[0xFFF0_0705, 0x0000_0402]))
            });
            w.symbol_table(&[], &[(13, &[(0, "entry"), (1, "exit")])]);
        });
        w.symbol_table(
            &[],
            &[
                (12, &[(15, "struct.pair")]),
                (16, &[(0, "main"), (1, "counter")]),
            ],
        );
    });
    w.buf
}

/// LLVM 1.3 (revision 3): short headers, alignment, named types first in symbol
/// tables, a compaction table and instruction lists; a big-endian, 64-bit target.
pub fn rev3_llvm13() -> Vec<u8> {
    let mut w = W::file(3);
    w.module(0b0011, |w| {
        w.type_pool(4, &type_defs(3));
        w.block(Id::ModuleGlobalInfo, |w| {
            w.bytes(&module_info("sparcv9-sun-solaris"))
        });
        w.block(Id::ConstantPool, |w| {
            w.bytes(&constants(7, &[100, -100, 0x7FFF_FFFF]))
        });
        w.function(3, |w| {
            w.block(Id::CompactionTable, |w| w.bytes(&[0x00, 0x1D, 0x01, 0x02]));
            w.block(Id::InstructionList, |w| {
                w.bytes(&instructions(&[0x0070_1C05, 0xFFF0_0705]))
            });
            w.symbol_table(&[], &[(12, &[(0, "entry")])]);
        });
        w.function(4, |w| {
            w.block(Id::ConstantPool, |w| w.bytes(&constants(7, &[5])));
            w.block(Id::InstructionList, |w| {
                w.bytes(&instructions(&[0xFFF0_0705]))
            });
        });
        w.symbol_table(
            &[(14, "struct.pair")],
            &[(15, &[(0, "main"), (1, "helper")]), (7, &[(2, "x")])],
        );
    });
    w.buf
}

/// A revision 5 module whose symbol table names `values` (value slot,
/// name) in the plane of type slot 15, after one named type: what two builds
/// of one program differ by when a global is added.
pub fn with_symbols(values: &[(u64, &str)]) -> Vec<u8> {
    let mut w = W::file(5);
    w.module(0, |w| {
        w.type_pool(4, &type_defs(5));
        w.symbol_table(&[(14, "struct.pair")], &[(15, values), (7, &[(2, "x")])]);
    });
    w.buf
}

/// A 200-character name: its length takes a two-byte vbr.
pub fn long_name() -> String {
    let mut s = String::from("a_name_long_enough_for_a_two_byte_length_");
    while s.len() < 200 {
        s.push((b'a' + (s.len() % 26) as u8) as char);
    }
    s
}

/// The module body of the revision 5 fixtures: 130 type definitions (a two-byte
/// count), module info, constants, a weak function, and a symbol table with a
/// 200-character name, a five-byte slot number and an escaped type slot.
fn rev5_body(w: &mut W) {
    let mut defs = Vec::new();
    for _ in 0..130 {
        vbr(&mut defs, 16);
        vbr(&mut defs, 7);
    }
    w.type_pool(130, &defs);
    w.block(Id::ModuleGlobalInfo, |w| {
        w.bytes(&module_info("i686-pc-linux-gnu"))
    });
    w.block(Id::ConstantPool, |w| {
        w.bytes(&constants(9, &[i64::MIN, i64::MAX, -1]))
    });
    w.function(1, |w| {
        w.block(Id::ConstantPool, |w| w.bytes(&constants(7, &[3])));
        w.block(Id::InstructionList, |w| {
            w.bytes(&instructions(&[0xFFF0_0705]))
        });
    });
    let name = long_name();
    w.symbol_table(
        &[(13, "struct.empty"), (14, &name)],
        &[
            (7, &[(300_000_000, "big_slot"), (0, "zero")]),
            (0x0100_0000, &[(5, "escaped")]),
        ],
    );
}

/// LLVM 1.4+ (revision 5): no alignment, long vbr values, an escaped type slot,
/// and the "no endianness" / "no pointer size" flags.
pub fn rev5_llvm14() -> Vec<u8> {
    let mut w = W::file(5);
    w.module(0b1100, rev5_body);
    w.buf
}

/// The module stream the compressed fixtures hold (a revision 5 module).
pub fn compressed_stream() -> Vec<u8> {
    let mut w = W::stream(5);
    w.module(0, |w| {
        w.type_pool(4, &type_defs(5));
        w.symbol_table(&[], &[(16, &[(0, "main")])]);
    });
    w.buf
}

/// `llvc` + `'0'`: the stored (uncompressed) stream, decoded in place.
pub fn compressed_stored() -> Vec<u8> {
    let mut out = b"llvc0".to_vec();
    out.extend(compressed_stream());
    out
}

fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &c in data {
        a = (a + u32::from(c)) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

/// `llvc` + `'1'`: a zlib stream (RFC 1950) of one stored deflate block.
pub fn compressed_zlib() -> Vec<u8> {
    let data = compressed_stream();
    let mut out = b"llvc1".to_vec();
    out.extend_from_slice(&[0x78, 0x01]);
    out.push(0x01); // final block, stored
    let len = data.len() as u16;
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&(!len).to_le_bytes());
    out.extend_from_slice(&data);
    out.extend_from_slice(&adler32(&data).to_be_bytes());
    out
}

/// `bzip2 -9` (bzip2 1.0.8) of [`compressed_stream`]: writing bzip2 here would
/// mean writing a Burrows–Wheeler compressor, so the stream is kept as bytes.
/// The core's `llvm1_generated.rs` checks [`compressed_stream`] still hashes to what was
/// compressed.
pub const BZIP2_OF_STREAM: &[u8] = &[
    0x42, 0x5A, 0x68, 0x39, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59, 0xC3, 0x5B, 0x1C, 0x4D, 0x00, 0x00,
    0x07, 0xF3, 0x10, 0x6C, 0xB3, 0xC0, 0x00, 0x84, 0x00, 0x40, 0x00, 0x20, 0x23, 0x01, 0x00, 0x20,
    0x00, 0x31, 0x4C, 0x98, 0x99, 0x06, 0x46, 0x0D, 0x4C, 0x86, 0x83, 0x08, 0x68, 0x41, 0x4C, 0xC8,
    0x05, 0x4C, 0x54, 0x37, 0xA6, 0xB0, 0x41, 0xE3, 0x2C, 0xEA, 0x88, 0xC6, 0x20, 0xA7, 0xD8, 0x99,
    0xF8, 0xBB, 0x92, 0x29, 0xC2, 0x84, 0x86, 0x1A, 0xD8, 0xE2, 0x68,
];

/// FNV-1a (64-bit) of the [`compressed_stream`] bytes that were compressed.
pub const STREAM_FNV1A64: u64 = 0x79A70E498ADE1690;

/// `llvc` + `'2'`: a bzip2 stream, the default of LLVM 1.4+ tools.
pub fn compressed_bzip2() -> Vec<u8> {
    let mut out = b"llvc2".to_vec();
    out.extend_from_slice(BZIP2_OF_STREAM);
    out
}

/// A bzip2 file cut short: its end-of-stream marker is missing.
pub fn truncated_bzip2() -> Vec<u8> {
    let mut f = compressed_bzip2();
    f.truncate(f.len() - 6);
    f
}

/// An `llvc` file with an unknown compression byte.
pub fn bad_compression() -> Vec<u8> {
    let mut out = b"llvcx".to_vec();
    out.extend(compressed_stream());
    out
}

/// The revision 3 module cut in the middle of its last symbol table.
pub fn truncated() -> Vec<u8> {
    let mut f = rev3_llvm13();
    f.truncate(f.len() - 9);
    f
}

/// A clean revision 5 module followed by bytes LLVM's reader ignores.
pub fn trailing_data() -> Vec<u8> {
    let mut w = W::file(5);
    w.module(0, |w| w.symbol_table(&[], &[(7, &[(0, "x")])]));
    w.bytes(b"\0ranlib");
    w.buf
}

/// Block sizes gone wrong (revision 5): an instruction list whose size runs past
/// its function, a second type pool, an empty module info block; the symbol table
/// after them is fine.
pub fn bad_block_sizes() -> Vec<u8> {
    let mut w = W::file(5);
    w.module(0, |w| {
        w.type_pool(4, &type_defs(5));
        w.type_pool(1, &[16, 7]);
        w.block(Id::ModuleGlobalInfo, |_| {});
        w.function(0, |w| {
            let at = w.buf.len();
            w.block(Id::InstructionList, |w| {
                w.bytes(&instructions(&[0xFFF0_0705]))
            });
            w.patch_header(at, Id::InstructionList, 40);
        });
        w.symbol_table(&[], &[(7, &[(1, "still_read")])]);
    });
    w.buf
}

/// Damaged vbrs and strings (revision 5): a type pool whose count needs more than
/// 32 bits, a symbol table whose slot number is a 12-byte vbr, and one whose name
/// length runs past the block.
pub fn bad_vbrs() -> Vec<u8> {
    let mut w = W::file(5);
    w.module(0, |w| {
        w.block(Id::GlobalTypePlane, |w| {
            w.vbr(1 << 32);
            w.bytes(&type_defs(5));
        });
        w.block(Id::SymbolTable, |w| {
            w.vbr(0);
            w.vbr(1);
            w.vbr(7);
            w.bytes(&[0x80; 11]);
            w.bytes(&[0x00]);
            w.string("unreached");
        });
        w.block(Id::SymbolTable, |w| {
            w.vbr(0);
            w.vbr(1);
            w.vbr(7);
            w.vbr(0);
            w.vbr(50);
            w.bytes(b"short");
        });
    });
    w.buf
}

/// Identifiers and fields out of place (revision 0, long headers): an unknown block
/// identifier, a Module block inside the module, a type pool inside a function, a
/// linkage of 9, a non-zero alignment byte, and a last block whose alignment
/// padding the module's size leaves out.
pub fn bad_ids() -> Vec<u8> {
    let mut w = W::file(0);
    w.module(0, |w| {
        w.type_pool(4, &type_defs(0));
        // The pool's content is 14 bytes: two padding bytes follow; spoil the last.
        let end = w.buf.len();
        w.buf[end - 1] = 0xAA;
        w.block(Id::Other(0x77), |w| w.bytes(b"???"));
        w.block(Id::Module, |w| w.bytes(&[1, 2, 3, 4]));
        w.function(9, |w| {
            w.type_pool(1, &[17, 7]);
            w.block(Id::BasicBlock, |w| w.bytes(&instructions(&[0xFFF0_0705])));
        });
        // Three bytes of content: one byte of padding follows.
        w.block(Id::ConstantPool, |w| w.bytes(&[0, 7, 0]));
    });
    // Drop that padding byte from the file and from the module's size.
    w.buf.pop();
    let size = u32::from_le_bytes(w.buf[8..12].try_into().unwrap()) - 1;
    w.buf[8..12].copy_from_slice(&size.to_le_bytes());
    w.buf
}

/// A module header gone wrong: identifier 2 instead of 1 and a format revision
/// of 9 (read with the revision 5 layout).
pub fn bad_module_header() -> Vec<u8> {
    let mut w = W::file(5);
    w.module_word(9 << 4, |w| w.symbol_table(&[], &[(7, &[(0, "x")])]));
    w.buf[4] = 2;
    w.buf
}

/// Revision 6 (LLVM 1.9/2.0 transition): block structure only, contents raw.
pub fn rev6_transition() -> Vec<u8> {
    let mut w = W::file(6);
    w.module(0, |w| {
        w.type_pool(4, &type_defs(5));
        w.symbol_table(&[], &[(16, &[(0, "main")])]);
    });
    w.buf
}

/// `levels` function blocks nested in each other (revision 5), the innermost
/// holding an instruction list.
pub fn nested(levels: usize) -> Vec<u8> {
    fn level(w: &mut W, left: usize) {
        if left == 0 {
            w.block(Id::InstructionList, |w| {
                w.bytes(&instructions(&[0xFFF0_0705]))
            });
        } else {
            w.function(0, |w| level(w, left - 1));
        }
    }
    // Build iteratively in spirit: recursion depth `levels` is fine for the small
    // checked-in fixture; the hostile test uses [`nested_flat`].
    let mut w = W::file(5);
    w.module(0, |w| level(w, levels));
    w.buf
}

/// `levels` nested function blocks built without recursion (for 100,000 levels).
pub fn nested_flat(levels: usize) -> Vec<u8> {
    // Innermost first: an instruction list, then each function wraps the previous.
    let mut inner = Vec::new();
    let il = instructions(&[0xFFF0_0705]);
    inner.extend_from_slice(&(((il.len() as u32) << 5) | 7).to_le_bytes());
    inner.extend_from_slice(&il);
    // Each level adds a 4-byte header and a 1-byte linkage in front; write the
    // sizes from the inside out, then lay the prefixes out from the outside in.
    let mut sizes = Vec::with_capacity(levels);
    let mut size = inner.len() as u32;
    for _ in 0..levels {
        size += 1; // linkage
        sizes.push(size);
        size += 4; // header
    }
    let mut out = b"llvm".to_vec();
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&(size + 1).to_le_bytes());
    out.push(5 << 4);
    for s in sizes.iter().rev() {
        out.extend_from_slice(&((s << 5) | 2).to_le_bytes());
        out.push(0);
    }
    out.extend_from_slice(&inner);
    out
}

/// Every generated fixture: file name and bytes.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("rev0_llvm10.bc", rev0_llvm10()),
        ("rev3_llvm13.bc", rev3_llvm13()),
        ("rev5_llvm14.bc", rev5_llvm14()),
        ("rev6_transition.bc", rev6_transition()),
        ("compressed_stored.bc", compressed_stored()),
        ("compressed_zlib.bc", compressed_zlib()),
        ("compressed_bzip2.bc", compressed_bzip2()),
        ("truncated_bzip2.bc", truncated_bzip2()),
        ("bad_compression.bc", bad_compression()),
        ("truncated.bc", truncated()),
        ("trailing_data.bc", trailing_data()),
        ("bad_block_sizes.bc", bad_block_sizes()),
        ("bad_vbrs.bc", bad_vbrs()),
        ("bad_ids.bc", bad_ids()),
        ("bad_module_header.bc", bad_module_header()),
        ("deep_nesting.bc", nested(20)),
    ]
}

// ----- a dense module -----

/// A large file for the benchmarks and the scale tests: an LLVM 1.3 (revision
/// 3, short block headers, 32-bit alignment) module with a global type pool,
/// module info, a constant pool, `functions` function blocks (each with a
/// constant pool, an instruction list and a symbol table naming its values) and
/// a module symbol table naming every function.
pub fn dense(functions: usize) -> Vec<u8> {
    let mut w = W::file(3);
    w.module(0b0011, |w| {
        let mut defs = Vec::new();
        for i in 0..64u64 {
            vbr(&mut defs, 15); // pointer
            vbr(&mut defs, 7 + i % 4);
        }
        w.type_pool(64, &defs);
        w.block(Id::ModuleGlobalInfo, |w| {
            // No global variables; one function type slot per function; the
            // target triple.
            w.vbr(0);
            for _ in 0..functions {
                w.vbr((16 << 5) | 1);
            }
            w.vbr(0);
            w.string("i686-pc-linux-gnu");
        });
        w.block(Id::ConstantPool, |w| {
            w.vbr(256);
            w.vbr(7);
            for i in 0..256i64 {
                w.vbr(0);
                let mut d = Vec::new();
                vbr_i64(&mut d, i * 1000 - 5000);
                w.bytes(&d);
            }
        });
        for f in 0..functions {
            w.function(1, |w| {
                w.block(Id::ConstantPool, |w| {
                    w.vbr(4);
                    w.vbr(7);
                    for k in 0..4i64 {
                        w.vbr(0);
                        let mut d = Vec::new();
                        vbr_i64(&mut d, k - 2);
                        w.bytes(&d);
                    }
                });
                w.block(Id::InstructionList, |w| {
                    for k in 0..48u32 {
                        w.u32(0xFFF0_0705 ^ (k << 8));
                    }
                });
                let names: Vec<(u64, String)> =
                    (0..12u64).map(|v| (v, format!("tmp.{f}.{v}"))).collect();
                let entries: Vec<(u64, &str)> =
                    names.iter().map(|(v, n)| (*v, n.as_str())).collect();
                w.symbol_table(&[], &[(7, &entries)]);
            });
        }
        let names: Vec<(u64, String)> = (0..functions as u64)
            .map(|f| (f, format!("function_{f}")))
            .collect();
        let entries: Vec<(u64, &str)> = names.iter().map(|(v, n)| (*v, n.as_str())).collect();
        w.symbol_table(&[(13, "struct.node")], &[(16, &entries)]);
    });
    w.buf
}
