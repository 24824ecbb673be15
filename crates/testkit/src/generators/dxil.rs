//! A large DirectX Container for the benchmarks: a signed container whose DXIL part
//! holds an LLVM bitstream of many blocks and records, in the shape DXC writes
//! (IDENTIFICATION block, MODULE block with BLOCKINFO, TYPE, METADATA with a
//! strings blob, CONSTANTS, many FUNCTION blocks with abbreviated and unabbreviated
//! records, and a VALUE_SYMTAB with char6 names), plus SFI0 and a HASH part holding
//! the MD5 of the bitcode.
//!
//! The bit writer keeps 64 bits in a register and flushes whole bytes, so writing
//! a stream of hundreds of megabytes takes seconds.

use hexlens_core::formats::dxcontainer::checksum::dxbc_checksum;
use md5::{Digest, Md5};

/// An LLVM bitstream under construction (bits least significant first).
pub struct Bits {
    out: Vec<u8>,
    acc: u64,
    nacc: u32,
    /// Abbreviation ID width of each open block (the top level's is 2).
    widths: Vec<u32>,
    /// Byte offset of each open block's NumWords word.
    words_at: Vec<usize>,
}

/// One operand of a `DEFINE_ABBREV`.
#[derive(Clone, Copy)]
pub enum Op {
    Lit(u64),
    Fixed(u32),
    Vbr(u32),
    Array,
    Char6,
    Blob,
}

const END_BLOCK: u64 = 0;
const ENTER_SUBBLOCK: u64 = 1;
const DEFINE_ABBREV: u64 = 2;
const UNABBREV_RECORD: u64 = 3;

const CHAR6: &[u8; 64] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

impl Bits {
    /// A stream that starts with the `BC` `0xC0DE` magic.
    pub fn new(capacity: usize) -> Self {
        let mut out = Vec::with_capacity(capacity + 16);
        out.extend_from_slice(b"BC\xC0\xDE");
        Bits {
            out,
            acc: 0,
            nacc: 0,
            widths: vec![2],
            words_at: Vec::new(),
        }
    }

    /// Bytes written so far (whole bytes only).
    fn len(&self) -> usize {
        self.out.len()
    }

    /// The low `width` bits of `v` (`width` ≤ 32).
    pub fn fixed(&mut self, v: u64, width: u32) {
        debug_assert!(width <= 32);
        let v = v & ((1u64 << width) - 1);
        self.acc |= v << self.nacc;
        self.nacc += width;
        while self.nacc >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.nacc -= 8;
        }
    }

    /// `v` as a VBR of `width`-bit chunks.
    pub fn vbr(&mut self, mut v: u64, width: u32) {
        let hi = 1u64 << (width - 1);
        while v >= hi {
            self.fixed((v & (hi - 1)) | hi, width);
            v >>= width - 1;
        }
        self.fixed(v, width);
    }

    /// Zero bits up to the next 32-bit boundary.
    pub fn align32(&mut self) {
        if self.nacc > 0 {
            self.fixed(0, 8 - self.nacc);
        }
        while !self.out.len().is_multiple_of(4) {
            self.out.push(0);
        }
    }

    fn abbrev_id(&mut self, id: u64) {
        let w = *self.widths.last().expect("the top level is always open");
        self.fixed(id, w);
    }

    /// `ENTER_SUBBLOCK`: block ID, abbreviation width, alignment, NumWords (patched
    /// by [`Bits::end`]).
    pub fn enter(&mut self, block: u64, width: u32) {
        self.abbrev_id(ENTER_SUBBLOCK);
        self.vbr(block, 8);
        self.vbr(width as u64, 4);
        self.align32();
        self.words_at.push(self.out.len());
        self.out.extend_from_slice(&[0; 4]);
        self.widths.push(width);
    }

    /// `END_BLOCK`, alignment, and the block's NumWords.
    pub fn end(&mut self) {
        self.abbrev_id(END_BLOCK);
        self.align32();
        self.widths.pop();
        let at = self.words_at.pop().expect("a block is open");
        let words = ((self.out.len() - at - 4) / 4) as u32;
        self.out[at..at + 4].copy_from_slice(&words.to_le_bytes());
    }

    /// `DEFINE_ABBREV` with the given operands.
    pub fn define(&mut self, ops: &[Op]) {
        self.abbrev_id(DEFINE_ABBREV);
        self.vbr(ops.len() as u64, 5);
        for op in ops {
            match *op {
                Op::Lit(v) => {
                    self.fixed(1, 1);
                    self.vbr(v, 8);
                }
                Op::Fixed(w) => {
                    self.fixed(0, 1);
                    self.fixed(1, 3);
                    self.vbr(w as u64, 5);
                }
                Op::Vbr(w) => {
                    self.fixed(0, 1);
                    self.fixed(2, 3);
                    self.vbr(w as u64, 5);
                }
                Op::Array => {
                    self.fixed(0, 1);
                    self.fixed(3, 3);
                }
                Op::Char6 => {
                    self.fixed(0, 1);
                    self.fixed(4, 3);
                }
                Op::Blob => {
                    self.fixed(0, 1);
                    self.fixed(5, 3);
                }
            }
        }
    }

    /// An unabbreviated record: code and operands as VBR6.
    pub fn record(&mut self, code: u64, ops: &[u64]) {
        self.abbrev_id(UNABBREV_RECORD);
        self.vbr(code, 6);
        self.vbr(ops.len() as u64, 6);
        for &v in ops {
            self.vbr(v, 6);
        }
    }

    /// A record written with abbreviation `id`; the caller writes the operands.
    pub fn abbreviated(&mut self, id: u64) {
        self.abbrev_id(id);
    }

    /// A blob operand: VBR6 length, alignment, bytes, alignment.
    pub fn blob(&mut self, data: &[u8]) {
        self.vbr(data.len() as u64, 6);
        self.align32();
        self.out.extend_from_slice(data);
        while !self.out.len().is_multiple_of(4) {
            self.out.push(0);
        }
    }

    /// The finished stream (top level ends on a 32-bit boundary).
    pub fn finish(mut self) -> Vec<u8> {
        assert!(self.words_at.is_empty(), "a block was left open");
        self.align32();
        self.out
    }
}

/// The char6 code of `c` (letters, digits, `.` and `_`).
fn char6(c: u8) -> u64 {
    CHAR6.iter().position(|&x| x == c).unwrap_or(63) as u64
}

/// A deterministic pseudo-random sequence (xorshift), so every run writes the same
/// file.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

// Block IDs and record codes from LLVM's LLVMBitCodes.h.
const BLOCKINFO: u64 = 0;
const MODULE_BLOCK: u64 = 8;
const PARAMATTR_BLOCK: u64 = 9;
const CONSTANTS_BLOCK: u64 = 11;
const FUNCTION_BLOCK: u64 = 12;
const IDENTIFICATION_BLOCK: u64 = 13;
const VALUE_SYMTAB_BLOCK: u64 = 14;
const METADATA_BLOCK: u64 = 15;
const TYPE_BLOCK_NEW: u64 = 17;

/// LLVM bitcode of about `target` bytes: the module holds as many functions as it
/// takes, each with a few hundred instructions, or with `big_functions` eight
/// functions of about `target / 8` bytes each (the shape lazy decoding is for).
pub fn bitcode(target: usize, big_functions: bool) -> Vec<u8> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut w = Bits::new(target);

    // IDENTIFICATION: producer string (char6 array) and epoch.
    w.enter(IDENTIFICATION_BLOCK, 5);
    w.define(&[Op::Lit(1), Op::Array, Op::Char6]);
    w.abbreviated(4);
    let producer = b"LLVM3.7.hexlens.bench";
    w.vbr(producer.len() as u64, 6);
    for &c in producer {
        w.fixed(char6(c), 6);
    }
    w.record(2, &[0]);
    w.end();

    w.enter(MODULE_BLOCK, 3);
    w.record(1, &[1]); // VERSION

    // BLOCKINFO: abbreviations every FUNCTION_BLOCK and VALUE_SYMTAB_BLOCK gets.
    w.enter(BLOCKINFO, 2);
    w.record(1, &[FUNCTION_BLOCK]); // SETBID
    w.define(&[Op::Lit(2), Op::Vbr(6), Op::Vbr(6), Op::Fixed(4)]); // 4: INST_BINOP
    w.define(&[
        Op::Lit(20),
        Op::Vbr(6),
        Op::Vbr(6),
        Op::Vbr(4),
        Op::Fixed(1),
    ]); // 5: INST_LOAD
    w.define(&[Op::Lit(10)]); // 6: INST_RET void
    w.define(&[Op::Lit(3), Op::Vbr(6), Op::Vbr(6), Op::Fixed(4)]); // 7: INST_CAST
    w.record(1, &[VALUE_SYMTAB_BLOCK]); // SETBID
    w.define(&[Op::Lit(1), Op::Vbr(8), Op::Array, Op::Char6]); // 4: VST_ENTRY char6
    w.define(&[Op::Lit(1), Op::Vbr(8), Op::Array, Op::Fixed(8)]); // 5: VST_ENTRY 8-bit
    w.end();

    w.enter(PARAMATTR_BLOCK, 3);
    for i in 0..8u64 {
        w.record(2, &[i, 0xFFFF_FFFF, 0, 18, 0, 21]);
    }
    w.end();

    w.enter(TYPE_BLOCK_NEW, 4);
    w.define(&[Op::Lit(8), Op::Vbr(8), Op::Lit(0)]); // 4: POINTER
    w.define(&[Op::Lit(21), Op::Fixed(1), Op::Array, Op::Vbr(8)]); // 5: FUNCTION
    w.record(1, &[40]); // NUMENTRY
    w.record(7, &[32]); // INTEGER i32
    w.record(3, &[]); // FLOAT
    w.record(2, &[]); // VOID
    for i in 0..37u64 {
        if i % 2 == 0 {
            w.abbreviated(4);
            w.vbr(i % 3, 8);
        } else {
            w.abbreviated(5);
            w.fixed(0, 1);
            w.vbr(3, 6);
            for v in [2, 0, 1] {
                w.vbr(v, 8);
            }
        }
    }
    w.end();

    // METADATA: a strings blob (offsets then characters) and some nodes.
    w.enter(METADATA_BLOCK, 3);
    w.define(&[Op::Lit(35), Op::Vbr(6), Op::Vbr(6), Op::Blob]); // 4: STRINGS
    let names: Vec<String> = (0..64).map(|i| format!("dx.meta.{i}")).collect();
    // The blob: the lengths as VBR6 in a 32-bit aligned bitstream, then the
    // characters; the second operand is where the characters start.
    let mut lengths = Bits::new(256);
    for n in &names {
        lengths.vbr(n.len() as u64, 6);
    }
    let mut blob = lengths.finish().split_off(4);
    let chars_at = blob.len() as u64;
    blob.extend(names.iter().flat_map(|s| s.bytes()));
    w.abbreviated(4);
    w.vbr(names.len() as u64, 6);
    w.vbr(chars_at, 6);
    w.blob(&blob);
    for i in 0..64u64 {
        w.record(3, &[i + 1, i + 2, i + 3]); // NODE
    }
    w.end();

    w.enter(CONSTANTS_BLOCK, 4);
    w.define(&[Op::Lit(4), Op::Vbr(8)]); // 4: INTEGER
    w.record(1, &[0]); // SETTYPE
    for i in 0..256u64 {
        w.abbreviated(4);
        w.vbr(i * 2, 8);
    }
    w.end();

    // Functions until the stream is big enough.
    let mut f = 0u64;
    while w.len() < target.saturating_sub(64) {
        w.enter(FUNCTION_BLOCK, 4);
        w.record(1, &[1]); // DECLAREBLOCKS
        let start = w.len();
        let n = 150 + rng.below(200);
        let mut k = 0;
        while if big_functions {
            w.len() - start < target / 8 && w.len() < target
        } else {
            k < n
        } {
            k += 1;
            match rng.below(10) {
                0..=3 => {
                    w.abbreviated(4);
                    w.vbr(rng.below(40), 6);
                    w.vbr(rng.below(40), 6);
                    w.fixed(rng.below(16), 4);
                }
                4..=5 => {
                    w.abbreviated(5);
                    w.vbr(rng.below(40), 6);
                    w.vbr(1, 6);
                    w.vbr(2, 4);
                    w.fixed(0, 1);
                }
                6 => {
                    w.abbreviated(7);
                    w.vbr(rng.below(40), 6);
                    w.vbr(1, 6);
                    w.fixed(rng.below(13), 4);
                }
                7 => {
                    // INST_CALL with a handful of arguments.
                    let args = 2 + rng.below(5);
                    let mut ops = vec![0, 1 << 15, 5, 20];
                    ops.extend((0..args).map(|_| rng.below(300)));
                    w.record(34, &ops);
                }
                8 => w.record(11, &[rng.below(8), rng.below(8), rng.below(4)]), // INST_BR
                _ => w.record(44, &[rng.below(64), rng.below(64), 4, 0]),       // INST_STORE
            }
        }
        w.abbreviated(6);
        if f.is_multiple_of(4) {
            // A function-local symbol table.
            w.enter(VALUE_SYMTAB_BLOCK, 4);
            for v in 0..8u64 {
                let name = format!("v{f}_{v}");
                w.abbreviated(4);
                w.vbr(v, 8);
                w.vbr(name.len() as u64, 6);
                for c in name.bytes() {
                    w.fixed(char6(c), 6);
                }
            }
            w.end();
        }
        w.end();
        f += 1;
    }

    // The module's symbol table: one entry a function, some with non-char6 names.
    w.enter(VALUE_SYMTAB_BLOCK, 4);
    for i in 0..f {
        if i % 3 == 0 {
            let name = format!("dx.op.func-{i}");
            w.abbreviated(5);
            w.vbr(i, 8);
            w.vbr(name.len() as u64, 6);
            for c in name.bytes() {
                w.fixed(c as u64, 8);
            }
        } else {
            let name = format!("main_{i}");
            w.abbreviated(4);
            w.vbr(i, 8);
            w.vbr(name.len() as u64, 6);
            for c in name.bytes() {
                w.fixed(char6(c), 6);
            }
        }
    }
    w.end();
    w.end(); // MODULE_BLOCK
    w.finish()
}

/// A signed DirectX Container (compute shader, SM 6.0): SFI0, HASH (the MD5 of the
/// bitcode) and a DXIL part holding about `bitcode_bytes` of bitcode (see
/// [`bitcode`]). Peak memory while writing it is about three times its size.
pub fn container(bitcode_bytes: usize, big_functions: bool) -> Vec<u8> {
    container_of(bitcode(bitcode_bytes, big_functions))
}

/// A signed DirectX Container (compute shader, SM 6.0) whose DXIL part holds the
/// bitcode `bc` (any LLVM bitcode, e.g. what clang makes), with SFI0 and a HASH
/// part holding its MD5.
pub fn container_of(bc: Vec<u8>) -> Vec<u8> {
    let sfi0 = [0u8; 8];
    let mut hash = [0u8; 20];
    hash[4..].copy_from_slice(&Md5::digest(&bc));
    let dxil_len = 24 + bc.len();
    let parts: [(&[u8; 4], usize); 3] = [(b"SFI0", 8), (b"HASH", 20), (b"DXIL", dxil_len)];
    let header = 32 + 4 * parts.len();
    let total = header + parts.iter().map(|p| 8 + p.1).sum::<usize>();

    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"DXBC");
    out.extend_from_slice(&[0; 16]);
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(parts.len() as u32).to_le_bytes());
    let mut at = header;
    for p in &parts {
        out.extend_from_slice(&(at as u32).to_le_bytes());
        at += 8 + p.1;
    }
    for (name, len) in parts {
        out.extend_from_slice(name);
        out.extend_from_slice(&(len as u32).to_le_bytes());
        match name {
            b"SFI0" => out.extend_from_slice(&sfi0),
            b"HASH" => out.extend_from_slice(&hash),
            _ => {
                // DXIL program header (shader model 6.0, compute), bitcode header.
                out.push(0x60);
                out.push(0);
                out.extend_from_slice(&5u16.to_le_bytes());
                out.extend_from_slice(&((dxil_len / 4) as u32).to_le_bytes());
                out.extend_from_slice(b"DXIL");
                out.push(0); // DXIL 1.0
                out.push(1);
                out.extend_from_slice(&0u16.to_le_bytes());
                out.extend_from_slice(&16u32.to_le_bytes());
                out.extend_from_slice(&(bc.len() as u32).to_le_bytes());
                out.extend_from_slice(&bc);
            }
        }
    }
    drop(bc);
    let digest = dxbc_checksum(&out);
    out[4..20].copy_from_slice(&digest);
    out
}
