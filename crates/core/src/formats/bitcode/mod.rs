//! Raw LLVM IR bitcode files (`.bc`): the `BC` `0xC0DE` magic, or the bitcode
//! wrapper header `0x0B17C0DE` around it (as Apple's and Darwin's toolchains
//! write it). The whole file is decoded by [`crate::bitstream`], as the DXIL part
//! of a DirectX Container is.

use super::{has_magic, read_exact, u32_at, Embedded, Format};
use crate::bitstream::{self, Summary, BITCODE_MAGIC, WRAPPER_MAGIC};
use crate::builder::{Builder, DResult};
use crate::source::ByteSource;

/// The raw LLVM bitcode decoder.
pub const FORMAT: Format = Format {
    name: "bitcode",
    root: "Bitcode",
    description: "LLVM IR bitcode (LLVM 3.x and later, raw or wrapped)",
    extensions: &["bc"],
    module: "llvm",
    probe,
    head_probe: true,
    embedded: Some(Embedded {
        signatures: &[b"BC\xC0\xDE", b"\xDE\xC0\x17\x0B"],
        extent,
    }),
    decode: &decode,
    doc: None,
};

pub(crate) fn probe(src: &dyn ByteSource) -> bool {
    has_magic(src, &BITCODE_MAGIC) || has_magic(src, &WRAPPER_MAGIC)
}

fn decode(b: &mut Builder) -> DResult<()> {
    let root = b.current();
    let len = b.file_len();
    let s = bitstream::decode_bitcode(b, 0, len)?;
    b.set_display(root, summary(len, &s));
    Ok(())
}

/// `LLVM bitcode, 1234 bytes: 5 blocks, 80 records, 3 abbreviation definitions`,
/// saying how many blocks are left undecoded when some are.
pub(crate) fn summary(len: u64, s: &Summary) -> String {
    let n = |k: u64, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    let mut shown = format!(
        "LLVM bitcode, {len} bytes: {}, {}, {}",
        n(s.stats.blocks, "block", "blocks"),
        n(s.stats.records, "record", "records"),
        n(
            s.stats.abbrev_defs,
            "abbreviation definition",
            "abbreviation definitions"
        )
    );
    if s.stats.lazy_blocks > 0 {
        // The counts cover the blocks decoded now; expanding a lazy block later
        // does not update them.
        shown.push_str(&format!(
            " decoded so far; {} not decoded yet",
            n(s.stats.lazy_blocks, "block", "blocks")
        ));
    }
    shown
}

// How far a container found inside another file extends (see `super::embedded`).

/// Top-level block ids of LLVM bitcode: BLOCKINFO, MODULE, IDENTIFICATION,
/// STRTAB, SYMTAB.
const TOP_BLOCKS: &[u64] = &[0, 8, 13, 23, 25];

/// A bitcode wrapper (its offset and size fit, raw bitcode where it points)
/// or raw bitcode (see [`raw_bitcode`]).
pub(crate) fn extent(src: &dyn ByteSource, offset: u64, room: u64) -> Option<u64> {
    let magic = read_exact(src, offset, 4)?;
    if magic == b"BC\xC0\xDE" {
        return raw_bitcode(src, offset, room);
    }
    let h = read_exact(src, offset, 20)?;
    let at = u64::from(u32_at(&h, 8, false));
    let size = u64::from(u32_at(&h, 12, false));
    let end = at.checked_add(size)?;
    if at < 20 || end > room || read_exact(src, offset + at, 4)? != b"BC\xC0\xDE" {
        return None;
    }
    Some(end)
}

/// Raw bitcode: the top-level blocks after the magic, walked by their length
/// words, the first a MODULE, IDENTIFICATION or BLOCKINFO block; it ends after
/// the last block that fits.
fn raw_bitcode(src: &dyn ByteSource, offset: u64, room: u64) -> Option<u64> {
    let mut pos = 4u64;
    let mut blocks = 0;
    while pos + 8 <= room {
        let Some(next) = top_block(src, offset + pos, room - pos, blocks == 0) else {
            break;
        };
        pos += next;
        blocks += 1;
    }
    (blocks > 0).then_some(pos)
}

/// The bytes of the top-level block whose header is at `at` (a 32-bit
/// boundary of the stream, abbreviation width 2), if it is one and fits `room`.
fn top_block(src: &dyn ByteSource, at: u64, room: u64, first: bool) -> Option<u64> {
    let mut h = [0u8; 16];
    let got = src.read_at(at, &mut h[..room.min(16) as usize]);
    if got < 8 {
        return None;
    }
    let bits = u128::from_le_bytes(h);
    let mut cur = 0u32;
    let mut take = |n: u32| {
        let v = (bits >> cur) as u64 & ((1u64 << n) - 1);
        cur += n;
        v
    };
    // ENTER_SUBBLOCK: abbreviation id 1.
    if take(2) != 1 {
        return None;
    }
    let vbr = |take: &mut dyn FnMut(u32) -> u64, n: u32| -> Option<u64> {
        let mut v = 0u64;
        for i in 0..4 {
            let c = take(n);
            v |= (c & ((1 << (n - 1)) - 1)) << (i * (n - 1));
            if c >> (n - 1) == 0 {
                return Some(v);
            }
        }
        None
    };
    let id = vbr(&mut take, 8)?;
    let width = vbr(&mut take, 4)?;
    let allowed = if first { &[0, 8, 13][..] } else { TOP_BLOCKS };
    if !allowed.contains(&id) || !(2..=32).contains(&width) {
        return None;
    }
    let head = u64::from(cur.div_ceil(32) * 4);
    if head + 4 > got as u64 {
        return None;
    }
    let words = u64::from(u32::from_le_bytes(
        h[head as usize..head as usize + 4].try_into().ok()?,
    ));
    let n = head + 4 + words * 4;
    (words > 0 && n <= room).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bitcode_block_header_is_read_bit_by_bit() {
        // MODULE (8) with abbreviation width 3 and 2 words, then the two words.
        let word: u32 = 1 | (8 << 2) | (3 << 10);
        let mut v = b"BC\xC0\xDE".to_vec();
        v.extend_from_slice(&word.to_le_bytes());
        v.extend_from_slice(&2u32.to_le_bytes());
        v.extend_from_slice(&[0; 8]);
        assert_eq!(raw_bitcode(&v.as_slice(), 0, v.len() as u64), Some(20));
        // A block id needing two vbr8 chunks (200 = 0b1100_1000: 72 | 128, 1).
        let word: u32 = 1 | ((72 | 128) << 2) | (1 << 10) | (3 << 18);
        assert_eq!(
            top_block(
                &[word.to_le_bytes(), 0u32.to_le_bytes()].concat().as_slice(),
                0,
                8,
                false
            ),
            None,
            "200 is no top-level block"
        );
        // The first block must be MODULE, IDENTIFICATION or BLOCKINFO.
        let word: u32 = 1 | (23 << 2) | (3 << 10);
        let mut strtab = b"BC\xC0\xDE".to_vec();
        strtab.extend_from_slice(&word.to_le_bytes());
        strtab.extend_from_slice(&0u32.to_le_bytes());
        assert_eq!(
            raw_bitcode(&strtab.as_slice(), 0, strtab.len() as u64),
            None
        );
    }
}
