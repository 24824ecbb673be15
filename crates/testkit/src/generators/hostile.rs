//! Generator of hostile inputs for the core's `hostile.rs` and
//! `resource_bounds.rs`: files whose counts, offsets, sizes, nesting and
//! variable-length integers are chosen to make a careless decoder allocate by a
//! count, loop, recurse without end or overflow arithmetic.
//!
//! DXContainers follow `specs/dxcontainer.md` (32-byte header, part offset table,
//! 8-byte part headers, the DXIL program header); bitstreams follow LLVM's
//! bitcode format document (abbreviation IDs 0 END_BLOCK, 1 ENTER_SUBBLOCK,
//! 2 DEFINE_ABBREV, 3 UNABBREV_RECORD; bits packed least significant first).
//! Each generator's doc says which offsets the damage is at, so the tests can
//! check that errors are reported there.

fn u32le(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

// ----- DXContainer ------------------------------------------------------------------

/// Size of the DXContainer header before the part offset table.
pub const DX_HEADER: usize = 32;

/// A container with the given parts (FourCC, data) and an explicit offset table
/// (`None` = the real offsets, in order). FileSize is the real size.
pub fn dx_container(parts: &[(&[u8; 4], Vec<u8>)], offsets: Option<&[u32]>) -> Vec<u8> {
    let count = offsets.map_or(parts.len(), |o| o.len());
    let mut real = Vec::new();
    let mut at = (DX_HEADER + 4 * count) as u32;
    for (_, data) in parts {
        real.push(at);
        at += 8 + data.len() as u32;
    }
    let table: Vec<u32> = offsets.map_or(real, |o| o.to_vec());
    let mut out = Vec::new();
    out.extend_from_slice(b"DXBC");
    out.extend_from_slice(&[0u8; 16]);
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&u32le(at));
    out.extend_from_slice(&u32le(count as u32));
    for o in table {
        out.extend_from_slice(&u32le(o));
    }
    for (name, data) in parts {
        out.extend_from_slice(*name);
        out.extend_from_slice(&u32le(data.len() as u32));
        out.extend_from_slice(data);
    }
    out
}

/// Offset of part `i` of a container laid out by [`dx_container`] with `count`
/// table entries and these part data sizes.
pub fn dx_part_offset(count: usize, sizes: &[usize], i: usize) -> u32 {
    (DX_HEADER + 4 * count + sizes[..i].iter().map(|s| 8 + s).sum::<usize>()) as u32
}

/// Three parts (SFI0, PRIV, HASH) whose offset table lists them backwards, then
/// the first part again (two entries for the same bytes: overlapping parts), then
/// offset 0 (the container header itself, read as a part header).
pub fn dx_backward_overlapping_offsets() -> Vec<u8> {
    let sizes = [8, 12, 20];
    let o = |i| dx_part_offset(5, &sizes, i);
    dx_container(
        &[
            (b"SFI0", vec![0; 8]),
            (b"PRIV", vec![0xAA; 12]),
            (b"HASH", vec![0; 20]),
        ],
        Some(&[o(2), o(1), o(0), o(0), 0]),
    )
}

/// Two parts whose sizes are 0x80000000 each (their sum overflows u32), and a
/// third whose offset + 8 + size overflows u32 (size 0xFFFFFFFC).
pub fn dx_size_overflow() -> Vec<u8> {
    let sizes = [4, 4, 4];
    let mut c = dx_container(
        &[
            (b"PRIV", vec![1; 4]),
            (b"RDAT", vec![2; 4]),
            (b"ZZZZ", vec![3; 4]),
        ],
        None,
    );
    for (i, size) in [0x8000_0000u32, 0x8000_0000, 0xFFFF_FFFC]
        .into_iter()
        .enumerate()
    {
        let at = dx_part_offset(3, &sizes, i) as usize + 4;
        c[at..at + 4].copy_from_slice(&u32le(size));
    }
    c
}

/// The smallest complete bitcode: magic and an empty block (abbrev width 2, one
/// word: END_BLOCK).
pub fn tiny_bitcode() -> Vec<u8> {
    let mut w = Bits::bitcode();
    let at = w.enter(13, 2);
    w.end_block(2, at);
    w.finish()
}

/// A DXIL part around `bitcode`, with the bitcode header's DXILOffset and DXILSize
/// replaced by `offset` and `size` when given.
pub fn dxil_part(bitcode: &[u8], offset: Option<u32>, size: Option<u32>) -> Vec<u8> {
    let mut d = Vec::new();
    d.push(0x60); // shader model 6.0
    d.push(0);
    d.extend_from_slice(&5u16.to_le_bytes()); // compute
    d.extend_from_slice(&u32le(((24 + bitcode.len()) / 4) as u32));
    d.extend_from_slice(b"DXIL");
    d.extend_from_slice(&[0, 1, 0, 0]);
    d.extend_from_slice(&u32le(offset.unwrap_or(16)));
    d.extend_from_slice(&u32le(size.unwrap_or(bitcode.len() as u32)));
    d.extend_from_slice(bitcode);
    d
}

/// Offset in the file of the DXIL part's DXILOffset field in a one-part container.
pub const DX_DXIL_OFFSET_FIELD: usize = DX_HEADER + 4 + 8 + 16;

/// A DXIL part whose bitcode offset + size overflows u32 (0xFFFFFFF0 + 0x20).
pub fn dx_dxil_offset_overflow() -> Vec<u8> {
    let bc = tiny_bitcode();
    dx_container(
        &[(b"DXIL", dxil_part(&bc, Some(0xFFFF_FFF0), Some(0x20)))],
        None,
    )
}

/// A DXIL part whose bitcode nests `levels` blocks deep.
pub fn dx_deep_bitcode(levels: usize) -> Vec<u8> {
    let bc = bs_deep_nesting(levels);
    dx_container(&[(b"DXIL", dxil_part(&bc, None, None))], None)
}

// ----- LLVM bitstream -----------------------------------------------------------------

/// Writes bits least significant first, as LLVM's bitstream writer does.
pub struct Bits {
    pub buf: Vec<u8>,
    bit: u64,
}

impl Bits {
    /// An empty stream.
    pub fn new() -> Self {
        Bits {
            buf: Vec::new(),
            bit: 0,
        }
    }

    /// A stream that starts with the bitcode magic `BC C0 DE`.
    pub fn bitcode() -> Self {
        let mut w = Bits::new();
        for b in [0x42, 0x43, 0xC0, 0xDE] {
            w.fixed(b, 8);
        }
        w
    }

    /// Current position in bits.
    pub fn pos(&self) -> u64 {
        self.bit
    }

    pub fn fixed(&mut self, v: u64, width: u32) -> &mut Self {
        for i in 0..width {
            if self.bit.is_multiple_of(8) {
                self.buf.push(0);
            }
            if (v >> i) & 1 == 1 {
                *self.buf.last_mut().unwrap() |= 1 << (self.bit % 8);
            }
            self.bit += 1;
        }
        self
    }

    pub fn vbr(&mut self, mut v: u64, width: u32) -> &mut Self {
        let hi = 1u64 << (width - 1);
        while v >= hi {
            self.fixed((v & (hi - 1)) | hi, width);
            v >>= width - 1;
        }
        self.fixed(v, width)
    }

    /// A vbr of `chunks` chunks whose continuation bits are all set but the last's:
    /// the value is 1 << (payload bits · (chunks − 1)), far past 64 bits.
    pub fn long_vbr(&mut self, chunks: usize, width: u32) -> &mut Self {
        let hi = 1u64 << (width - 1);
        for _ in 1..chunks {
            self.fixed(hi, width);
        }
        self.fixed(1, width)
    }

    pub fn align32(&mut self) -> &mut Self {
        while !self.bit.is_multiple_of(32) {
            self.fixed(0, 1);
        }
        self
    }

    /// ENTER_SUBBLOCK (at abbrev width 2) of block `id` whose abbreviations are
    /// `width` bits; NumWords is written as 0 and patched by [`Bits::end_block`].
    /// Returns the byte offset of the NumWords field.
    pub fn enter(&mut self, id: u64, width: u64) -> usize {
        self.fixed(1, 2).vbr(id, 8).vbr(width, 4).align32();
        let at = self.buf.len();
        self.fixed(0, 32);
        at
    }

    /// END_BLOCK at abbrev width `width`, patching the NumWords field at
    /// `numwords_at` to the words of the block's body.
    pub fn end_block(&mut self, width: u32, numwords_at: usize) -> &mut Self {
        self.fixed(0, width).align32();
        let words = ((self.buf.len() - numwords_at - 4) / 4) as u32;
        self.buf[numwords_at..numwords_at + 4].copy_from_slice(&u32le(words));
        self
    }

    pub fn finish(&self) -> Vec<u8> {
        self.buf.clone()
    }
}

impl Default for Bits {
    fn default() -> Self {
        Bits::new()
    }
}

/// Byte offset of the ENTER_SUBBLOCK of nesting level `level` (0 = top) in
/// [`bs_deep_nesting`]: each header is 8 bytes after the 4-byte magic.
pub fn bs_deep_enter_at(level: usize) -> usize {
    4 + 8 * level
}

/// `levels` blocks, each the only content of the one before (abbrev width 2), with
/// true NumWords: 8 bytes of header per level, then 4 bytes of END_BLOCK.
pub fn bs_deep_nesting(levels: usize) -> Vec<u8> {
    let mut w = Bits::bitcode();
    let mut at = Vec::with_capacity(levels);
    for _ in 0..levels {
        at.push(w.enter(8, 2));
    }
    for &a in at.iter().rev() {
        w.end_block(2, a);
    }
    w.finish()
}

/// Byte offset of the UNABBREV_RECORD in the streams of [`bs_long_vbr_code`] and
/// [`bs_huge_numops`]: after the magic and one block header.
pub const BS_RECORD_AT: usize = 12;

/// A block holding one unabbreviated record whose code is a vbr6 of `chunks`
/// chunks (6 bits each, so 100 chunks are 75 bytes).
pub fn bs_long_vbr_code(chunks: usize) -> Vec<u8> {
    let mut w = Bits::bitcode();
    let at = w.enter(8, 3);
    w.fixed(3, 3).long_vbr(chunks, 6).vbr(0, 6);
    w.end_block(3, at);
    w.finish()
}

/// A block holding one unabbreviated record that claims 0xFFFFFFFF operands and
/// holds two.
pub fn bs_huge_numops() -> Vec<u8> {
    let mut w = Bits::bitcode();
    let at = w.enter(8, 3);
    w.fixed(3, 3)
        .vbr(1, 6)
        .vbr(0xFFFF_FFFF, 6)
        .vbr(7, 6)
        .vbr(9, 6);
    w.end_block(3, at);
    w.finish()
}

/// A block with an abbreviation [literal 1, array of fixed(8)] (ID 4) and one
/// record using it that claims an array of 0xFFFFFFFF elements and holds 3; then a
/// second top-level block whose abbreviation 4 is [literal 2, blob] and whose
/// record claims a blob of 0xFFFFFFFF bytes and holds 4.
pub fn bs_huge_array_and_blob() -> Vec<u8> {
    let mut w = Bits::bitcode();
    let at = w.enter(8, 3);
    // DEFINE_ABBREV: numops 3: literal 1; array; fixed(8).
    w.fixed(2, 3).vbr(3, 5);
    w.fixed(1, 1).vbr(1, 8);
    w.fixed(0, 1).fixed(3, 3);
    w.fixed(0, 1).fixed(1, 3).vbr(8, 5);
    // DEFINE_ABBREV: numops 2: literal 2; blob.
    w.fixed(2, 3).vbr(2, 5);
    w.fixed(1, 1).vbr(2, 8);
    w.fixed(0, 1).fixed(5, 3);
    // Record with abbrev 4: array length 0xFFFFFFFF, then 3 elements.
    w.fixed(4, 3)
        .vbr(0xFFFF_FFFF, 6)
        .fixed(b'a' as u64, 8)
        .fixed(b'b' as u64, 8);
    w.fixed(b'c' as u64, 8);
    w.end_block(3, at);
    let mut w2 = Bits::bitcode();
    let at2 = w2.enter(8, 3);
    w2.fixed(2, 3).vbr(2, 5);
    w2.fixed(1, 1).vbr(2, 8);
    w2.fixed(0, 1).fixed(5, 3);
    w2.fixed(4, 3)
        .vbr(0xFFFF_FFFF, 6)
        .align32()
        .fixed(0x1234_5678, 32);
    w2.end_block(3, at2);
    // Two top-level blocks in one stream: the second without its magic.
    let mut out = w.finish();
    out.extend_from_slice(&w2.finish()[4..]);
    out
}

/// Two top-level blocks: the first claims NumWords 0xFFFFFFFF (its end, at
/// 4 · 0xFFFFFFFF bytes, overflows u32), the second is sound.
pub fn bs_numwords_overflow() -> Vec<u8> {
    let mut w = Bits::bitcode();
    let a = w.enter(8, 3);
    w.fixed(3, 3).vbr(1, 6).vbr(1, 6).vbr(5, 6);
    w.end_block(3, a);
    let b = w.enter(13, 3);
    w.end_block(3, b);
    let mut out = w.finish();
    out[a..a + 4].copy_from_slice(&u32le(u32::MAX));
    out
}

/// Byte offset of the signature element's NameOffset field in
/// [`dx_unterminated_name`], and of the name's first byte.
pub const DX_SIG_NAME_OFFSET_FIELD: usize = DX_HEADER + 4 + 8 + 8 + 4;
pub const DX_SIG_NAME_AT: usize = DX_HEADER + 4 + 8 + 8 + 32;

/// An input signature (ISG1) of one element whose name runs without a NUL to the
/// end of the part, which is the end of the file.
pub fn dx_unterminated_name() -> Vec<u8> {
    let mut p = Vec::new();
    p.extend_from_slice(&u32le(1)); // element count
    p.extend_from_slice(&u32le(8)); // elements at 8
    p.extend_from_slice(&u32le(0)); // stream
    p.extend_from_slice(&u32le(8 + 32)); // name right after the element
    p.extend_from_slice(&u32le(0)); // semantic index
    p.extend_from_slice(&u32le(0)); // system value
    p.extend_from_slice(&u32le(3)); // component type float32
    p.extend_from_slice(&u32le(0)); // register
    p.extend_from_slice(&[0x0F, 0x0F, 0, 0]); // mask, rw mask
    p.extend_from_slice(&u32le(0)); // min precision
    p.extend_from_slice(b"POSITION_WITHOUT_END");
    dx_container(&[(b"ISG1", p)], None)
}

/// A container of `n` eight-byte PRIV parts: the part table and the parts grow
/// with `n` (for the linear-growth checks).
pub fn dx_many_parts(n: usize) -> Vec<u8> {
    let parts: Vec<(&[u8; 4], Vec<u8>)> = (0..n).map(|i| (b"PRIV", vec![i as u8; 8])).collect();
    dx_container(&parts, None)
}

/// A block with an abbreviation [literal 1, array of fixed(0)] (ID 4) — fixed(0)
/// reads as the literal 0 and takes no bits — and one record using it that claims
/// an array of 0xFFFFFFFF elements.
pub fn bs_zero_width_array() -> Vec<u8> {
    let mut w = Bits::bitcode();
    let at = w.enter(8, 3);
    w.fixed(2, 3).vbr(3, 5);
    w.fixed(1, 1).vbr(1, 8);
    w.fixed(0, 1).fixed(3, 3);
    w.fixed(0, 1).fixed(1, 3).vbr(0, 5);
    w.fixed(4, 3).vbr(0xFFFF_FFFF, 6);
    w.end_block(3, at);
    w.finish()
}
