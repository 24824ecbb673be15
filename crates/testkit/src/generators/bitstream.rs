//! A small LLVM bitstream writer for building test streams by hand (the core's
//! bitstream, lazy-decoding, function-name and release tests), a sample stream
//! using every operand encoding and a dense module for the scale tests.
//!
//! Bits are written least significant first, as LLVM's `BitstreamWriter` does;
//! blocks are 32-bit aligned and their `NumWords` is patched when they end (or set
//! to a chosen lie with [`Writer::end_block_claiming`]).

/// One abbreviation operand, as written in a `DEFINE_ABBREV`.
#[derive(Clone, Copy, Debug)]
pub enum Op {
    Literal(u64),
    Fixed(u64),
    Vbr(u64),
    Array,
    Char6,
    Blob,
    /// An encoding number outside 1..=5 (hostile).
    BadEncoding(u64),
}

/// A bitstream under construction.
pub struct Writer {
    pub bytes: Vec<u8>,
    /// Bits used in the last byte (0 = byte aligned).
    bit: u32,
    /// Abbreviation ID width of the open blocks (top level: 2).
    widths: Vec<u64>,
    /// Byte offset of each open block's NumWords field.
    words_at: Vec<usize>,
}

impl Default for Writer {
    fn default() -> Self {
        Self::new()
    }
}

impl Writer {
    /// A stream that starts with the `BC` `0xC0DE` magic.
    pub fn new() -> Self {
        Writer {
            bytes: b"BC\xC0\xDE".to_vec(),
            bit: 0,
            widths: vec![2],
            words_at: Vec::new(),
        }
    }

    /// Current position in bits.
    pub fn pos_bits(&self) -> u64 {
        let full = self.bytes.len() as u64 * 8;
        if self.bit == 0 {
            full
        } else {
            full - 8 + self.bit as u64
        }
    }

    /// Writes the low `width` bits of `v`.
    pub fn fixed(&mut self, v: u64, width: u64) -> &mut Self {
        for i in 0..width {
            if self.bit == 0 {
                self.bytes.push(0);
            }
            if i < 64 && (v >> i) & 1 == 1 {
                *self.bytes.last_mut().unwrap() |= 1 << self.bit;
            }
            self.bit = (self.bit + 1) % 8;
        }
        self
    }

    /// Writes `v` as a VBR of `width`-bit chunks.
    pub fn vbr(&mut self, mut v: u64, width: u64) -> &mut Self {
        let hi = 1u64 << (width - 1);
        loop {
            let chunk = v & (hi - 1);
            v >>= width - 1;
            if v == 0 {
                self.fixed(chunk, width);
                return self;
            }
            self.fixed(chunk | hi, width);
        }
    }

    /// Pads with zero bits to a multiple of 32 bits from the stream's start.
    pub fn align32(&mut self) -> &mut Self {
        while !self.pos_bits().is_multiple_of(32) {
            self.fixed(0, 1);
        }
        self
    }

    fn width(&self) -> u64 {
        *self.widths.last().unwrap()
    }

    /// Writes an abbreviation ID at the current block's width.
    pub fn abbrev_id(&mut self, id: u64) -> &mut Self {
        let w = self.width();
        self.fixed(id, w)
    }

    /// `ENTER_SUBBLOCK`: block `id` whose abbreviation IDs are `width` bits wide.
    pub fn enter(&mut self, id: u64, width: u64) -> &mut Self {
        self.abbrev_id(1).vbr(id, 8).vbr(width, 4).align32();
        self.words_at.push(self.bytes.len());
        self.fixed(0, 32);
        self.widths.push(width);
        self
    }

    /// `END_BLOCK`, patching the block's `NumWords` to its true length.
    pub fn end_block(&mut self) -> &mut Self {
        self.abbrev_id(0).align32();
        let at = self.words_at.pop().unwrap();
        let words = ((self.bytes.len() - at - 4) / 4) as u32;
        self.bytes[at..at + 4].copy_from_slice(&words.to_le_bytes());
        self.widths.pop();
        self
    }

    /// `END_BLOCK`, but `NumWords` says `words`.
    pub fn end_block_claiming(&mut self, words: u32) -> &mut Self {
        self.abbrev_id(0).align32();
        let at = self.words_at.pop().unwrap();
        self.bytes[at..at + 4].copy_from_slice(&words.to_le_bytes());
        self.widths.pop();
        self
    }

    /// `DEFINE_ABBREV` with these operands.
    pub fn define_abbrev(&mut self, ops: &[Op]) -> &mut Self {
        self.abbrev_id(2).vbr(ops.len() as u64, 5);
        for op in ops {
            match *op {
                Op::Literal(v) => {
                    self.fixed(1, 1).vbr(v, 8);
                }
                Op::Fixed(w) => {
                    self.fixed(0, 1).fixed(1, 3).vbr(w, 5);
                }
                Op::Vbr(w) => {
                    self.fixed(0, 1).fixed(2, 3).vbr(w, 5);
                }
                Op::Array => {
                    self.fixed(0, 1).fixed(3, 3);
                }
                Op::Char6 => {
                    self.fixed(0, 1).fixed(4, 3);
                }
                Op::Blob => {
                    self.fixed(0, 1).fixed(5, 3);
                }
                Op::BadEncoding(e) => {
                    self.fixed(0, 1).fixed(e, 3);
                }
            }
        }
        self
    }

    /// `UNABBREV_RECORD`: code and operands as `vbr6`.
    pub fn record(&mut self, code: u64, ops: &[u64]) -> &mut Self {
        self.abbrev_id(3).vbr(code, 6).vbr(ops.len() as u64, 6);
        for &v in ops {
            self.vbr(v, 6);
        }
        self
    }

    /// Encodes a char6 character.
    pub fn char6(c: u8) -> u64 {
        match c {
            b'a'..=b'z' => (c - b'a') as u64,
            b'A'..=b'Z' => (c - b'A') as u64 + 26,
            b'0'..=b'9' => (c - b'0') as u64 + 52,
            b'.' => 62,
            b'_' => 63,
            _ => panic!("not a char6 character: {c}"),
        }
    }

    /// A blob operand's body (after its abbreviation ID and earlier operands):
    /// `vbr6` length, alignment, bytes, alignment.
    pub fn blob(&mut self, data: &[u8]) -> &mut Self {
        self.vbr(data.len() as u64, 6).align32();
        for &b in data {
            self.fixed(b as u64, 8);
        }
        self.align32()
    }

    /// The finished stream.
    pub fn finish(&self) -> Vec<u8> {
        self.bytes.clone()
    }
}

/// A small module exercising every operand encoding: a BLOCKINFO block that
/// registers abbreviations for block 8 (a literal-code char6 array, a blob), an
/// IDENTIFICATION-like block, and a module using BLOCKINFO and local abbreviations
/// (fixed, vbr, array of fixed(8), char6 scalar, literal operands, a blob).
pub fn sample_stream() -> Vec<u8> {
    let mut w = Writer::new();
    // IDENTIFICATION_BLOCK (13): STRING "LLVM19" as array of char6, EPOCH 0.
    w.enter(13, 5)
        .define_abbrev(&[Op::Literal(1), Op::Array, Op::Char6]);
    w.abbrev_id(4).vbr(6, 6);
    for &c in b"LLVM19" {
        w.fixed(Writer::char6(c), 6);
    }
    w.record(2, &[0]).end_block();
    // MODULE_BLOCK (8), VERSION 1: names are not in the string table, so the
    // GLOBALVAR record below is free to carry any operands.
    w.enter(8, 3).record(1, &[1]);
    // BLOCKINFO: for block 14 (VALUE_SYMTAB): [literal 1, vbr(8), array of char6];
    // for block 23 (STRTAB): [literal 1, blob].
    w.enter(0, 2)
        .record(1, &[14])
        .define_abbrev(&[Op::Literal(1), Op::Vbr(8), Op::Array, Op::Char6])
        .record(1, &[23])
        .define_abbrev(&[Op::Literal(1), Op::Blob])
        .end_block();
    // TRIPLE as an unabbreviated record of characters.
    w.record(2, b"dxil-ms-dx".map(u64::from).as_slice());
    // A local abbreviation: [fixed(3) code, fixed(5), vbr(4), char6, literal 9, array of fixed(8)]
    w.define_abbrev(&[
        Op::Fixed(3),
        Op::Fixed(5),
        Op::Vbr(4),
        Op::Char6,
        Op::Literal(9),
        Op::Array,
        Op::Fixed(8),
    ]);
    // Uses abbrev 4: code 7 (GLOBALVAR), 17, 1000, 'x', (9), [0xFF, 0x00, 0x80]
    w.abbrev_id(4)
        .fixed(7, 3)
        .fixed(17, 5)
        .vbr(1000, 4)
        .fixed(Writer::char6(b'x'), 6)
        .vbr(3, 6)
        .fixed(0xFF, 8)
        .fixed(0x00, 8)
        .fixed(0x80, 8);
    // VALUE_SYMTAB (14) using the BLOCKINFO abbreviation (ID 4): ENTRY 5 "main".
    w.enter(14, 4).abbrev_id(4).vbr(5, 8).vbr(4, 6);
    for &c in b"main" {
        w.fixed(Writer::char6(c), 6);
    }
    w.end_block();
    w.end_block();
    // STRTAB_BLOCK (23) using the BLOCKINFO blob abbreviation: "mainfoo".
    w.enter(23, 3).abbrev_id(4).blob(b"mainfoo").end_block();
    w.finish()
}

/// A dense module of `functions` function blocks: a module block (VERSION 1)
/// holding a constants block and, per function, a FUNCTION_BLOCK of 40
/// instruction records (half through a local abbreviation with a literal code,
/// half unabbreviated) and a VALUE_SYMTAB naming two values.
pub fn dense_module(functions: usize) -> Vec<u8> {
    let mut w = Writer::new();
    w.enter(8, 3).record(1, &[1]);
    w.enter(11, 4);
    for i in 0..64 {
        w.record(4, &[i * 2]);
    }
    w.end_block();
    for f in 0..functions as u64 {
        w.enter(12, 4).record(1, &[1]).define_abbrev(&[
            Op::Literal(2),
            Op::Vbr(6),
            Op::Vbr(6),
            Op::Fixed(4),
        ]);
        for k in 0..20 {
            w.abbrev_id(4).vbr(k + 1, 6).vbr(f % 50, 6).fixed(k % 16, 4);
            w.record(34, &[0, k, f, 3, k + 2]);
        }
        w.enter(14, 4);
        for v in 0..2u64 {
            let name = format!("v{f}x{v}");
            let mut ops = vec![v];
            ops.extend(name.bytes().map(u64::from));
            w.record(1, &ops);
        }
        w.end_block().end_block();
    }
    w.end_block();
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_writer_emits_vbrs_least_significant_chunk_first() {
        let mut w = Writer::new();
        w.vbr(1000, 4);
        // 1000 = 0b1111101000: chunks of 3 bits 000, 101, 111, 001 with continuation.
        assert_eq!(w.pos_bits(), 32 + 16);
        assert_eq!(&w.bytes[4..], &[0b1101_1000, 0b0001_1111]);
    }

    #[test]
    fn the_sample_stream_ends_on_a_word() {
        let s = sample_stream();
        assert_eq!(s.len() % 4, 0);
        assert!(s.starts_with(b"BC\xC0\xDE"));
    }
}
