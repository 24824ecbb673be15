//! The two digests a DirectX Container carries, checked against its bytes.
//!
//! - The container header's 16-byte `Hash` is the DXBC checksum: MD5's compression
//!   function over every byte after the digest field (offset 0x14 to the end), with
//!   a non-standard final block: the message length in bits (`L`, 32 bits) comes
//!   first, then the remaining bytes and `0x80`, zeros, and `(L >> 2) | 1` as the
//!   last word (a message whose tail leaves under 8 bytes of room gets a block of
//!   its own for these words). This is the algorithm vkd3d-shader (`checksum.c`)
//!   and Wine's d3dcompiler document; because of the padding no MD5 library can
//!   compute it, so the compression function is written out here. An all-zero
//!   digest means the container was never signed, which is not an error.
//! - The HASH part's digest is a plain MD5 (the `md-5` crate). DXC's
//!   `DxilContainerAssembler` hashes the DXIL part's bitcode (the program without
//!   its program header) unless the HASH flags say `IncludesSource`: then it hashed
//!   the module with its debug info and source, which only an `ILDB` part can hold.
//!   LLVM's DirectX backend (`DXContainerGlobals`) does the same over `dx.dxil`.
//!
//! # The debug container of a shader PDB
//!
//! `dxc -Zi -Fd file.pdb` writes a PDB (an MSF file, DXC's `DxilPDB.cpp`,
//! `WriteDxilPDB`) whose data stream is a DXBC container holding what a debugger
//! needs and no program: the `ILDN` and `HASH` parts copied from the compiled
//! shader (the `ShouldBeCopiedIntoPDB` list), then `SRCI` (sources and arguments;
//! newer DXC writes `PDBI` in its place), `STAT` (reflection, source-only PDBs
//! only), `VERS`, and `ILDB` (the module with debug info; absent from source-only
//! PDBs). That list and order are `CreateContainerForPDB` in DXC's
//! `tools/clang/tools/dxcompiler/dxcutil.cpp`; the FourCCs are `DFCC_*` in
//! `DxilContainer.h`. Its header digest is not a checksum of its own bytes:
//! earlier DXC built that header by copying the signed shader's header and
//! changing only the part count and size (`CreateContainerForPDB` when it still
//! lived in `dxcompilerobj.cpp`), so it carries the signed shader's digest; current DXC
//! writes it through `DxilContainerWriter` (`DxilContainerAssembler.cpp`), whose
//! `InitDxilContainer` (`DxilContainer.cpp`) zeroes it (shown as not signed).
//!
//! Rule: a container is such a debug container when every part is one of `ILDN`,
//! `HASH`, `SRCI`, `PDBI`, `STAT`, `VERS`, `ILDB`, and at least one holds debug
//! information (`ILDB`, `SRCI` or `PDBI`). It then has no program part (`DXIL`,
//! `SHDR`, `SHEX`) and nothing else a signed shader carries (signatures, `PSV0`,
//! `RTS0`, `SFI0`, `RDAT`, `PRIV`, unknown parts). A digest on it that is not its
//! own checksum is shown as the signed shader's digest, without an error. Nothing
//! in the container can confirm that digest: the HASH part is the MD5 of the
//! shader's program, a different digest of different bytes, and the signed
//! container itself is not there. Every other container with a digest that does
//! not match its bytes stays an error.

use crate::builder::Builder;
use crate::tree::NodeId;
use md5::{Digest, Md5};

/// Where the DXBC checksum starts: just after the magic and the digest.
pub(crate) const CHECKSUM_START: u64 = 0x14;
/// Bytes read at a time while hashing.
const CHUNK: u64 = 1 << 16;

/// The parts DXC writes into a shader PDB's debug container (see the module docs).
const PDB_PARTS: [&[u8; 4]; 7] = [
    b"ILDN", b"HASH", b"SRCI", b"PDBI", b"STAT", b"VERS", b"ILDB",
];
/// Of those, the parts that hold the debug information itself.
const PDB_DEBUG_INFO: [&[u8; 4]; 3] = [b"ILDB", b"SRCI", b"PDBI"];

/// MD5's per-round additive constants (`floor(abs(sin(i + 1)) * 2^32)`).
const K: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/// MD5's per-round rotation amounts.
const S: [u32; 16] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];

const MD5_INIT: [u32; 4] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];

// Kept: md-5 hides its compression function (bench/RESULTS.md, "Library choices").
/// MD5's compression function over one 64-byte block.
fn compress(state: &mut [u32; 4], block: &[u8; 64]) {
    let mut m = [0u32; 16];
    for (i, w) in m.iter_mut().enumerate() {
        *w = u32::from_le_bytes([
            block[4 * i],
            block[4 * i + 1],
            block[4 * i + 2],
            block[4 * i + 3],
        ]);
    }
    let [mut a, mut b, mut c, mut d] = *state;
    for i in 0..64 {
        let (f, g) = match i / 16 {
            0 => ((b & c) | (!b & d), i),
            1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
            2 => (b ^ c ^ d, (3 * i + 5) % 16),
            _ => (c ^ (b | !d), (7 * i) % 16),
        };
        let f = f.wrapping_add(a).wrapping_add(K[i]).wrapping_add(m[g]);
        a = d;
        d = c;
        c = b;
        b = b.wrapping_add(f.rotate_left(S[(i / 16) * 4 + i % 4]));
    }
    state[0] = state[0].wrapping_add(a);
    state[1] = state[1].wrapping_add(b);
    state[2] = state[2].wrapping_add(c);
    state[3] = state[3].wrapping_add(d);
}

/// The DXBC checksum of `msg` (the container's bytes from offset 0x14 on), fed
/// in pieces by `next` (see the module docs).
pub fn dxbc_checksum_of(total: u64, mut next: impl FnMut() -> Vec<u8>) -> [u8; 16] {
    let mut state = MD5_INIT;
    let mut buf: Vec<u8> = Vec::with_capacity(128);
    let mut seen = 0u64;
    while seen < total {
        let piece = next();
        if piece.is_empty() {
            break;
        }
        seen += piece.len() as u64;
        buf.extend_from_slice(&piece);
        let whole = buf.len() / 64 * 64;
        for block in buf[..whole].chunks_exact(64) {
            compress(&mut state, block.try_into().expect("64-byte chunk"));
        }
        buf.drain(..whole);
    }
    let bits = (seen as u32).wrapping_mul(8);
    let mut last = [0u8; 64];
    if buf.len() >= 56 {
        let mut block = [0u8; 64];
        block[..buf.len()].copy_from_slice(&buf);
        block[buf.len()] = 0x80;
        compress(&mut state, &block);
    } else {
        last[4..4 + buf.len()].copy_from_slice(&buf);
        last[4 + buf.len()] = 0x80;
    }
    last[..4].copy_from_slice(&bits.to_le_bytes());
    last[60..].copy_from_slice(&((bits >> 2) | 1).to_le_bytes());
    compress(&mut state, &last);
    let mut out = [0u8; 16];
    for (i, w) in state.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// The DXBC checksum of an in-memory container (bytes 0x14 to the end).
pub fn dxbc_checksum(container: &[u8]) -> [u8; 16] {
    let msg = container.get(CHECKSUM_START as usize..).unwrap_or_default();
    let mut once = Some(msg.to_vec());
    dxbc_checksum_of(msg.len() as u64, || once.take().unwrap_or_default())
}

/// Bytes `[start, start + len)` read through the builder in chunks.
fn chunks<'a>(b: &'a Builder, start: u64, len: u64) -> impl FnMut() -> Vec<u8> + 'a {
    let mut at = start;
    let end = start.saturating_add(len);
    move || {
        if at >= end {
            return Vec::new();
        }
        let piece = b.peek_bytes(at, (end - at).min(CHUNK));
        at += piece.len().max(1) as u64;
        piece
    }
}

fn md5_of(b: &Builder, start: u64, len: u64) -> [u8; 16] {
    let mut h = Md5::new();
    let mut next = chunks(b, start, len);
    loop {
        let piece = next();
        if piece.is_empty() {
            break;
        }
        h.update(&piece);
    }
    h.finalize().into()
}

/// Lower-case hex of a digest.
pub fn hex(d: &[u8]) -> String {
    d.iter().map(|x| format!("{x:02x}")).collect()
}

/// Checks the container header's digest (node `id`, 16 bytes at 0x04) against the
/// DXBC checksum of bytes 0x14 up to the header's `FileSize` (or the end of the
/// file if that is shorter or unreadable) and says so on the node.
pub(crate) fn show_container_digest(b: &mut Builder, id: NodeId) {
    let found = b.peek_bytes(4, 16);
    if found.iter().all(|&x| x == 0) {
        b.set_display(id, "container digest: not signed (all zero)");
        return;
    }
    if b.skip_digests() {
        b.set_display(id, "container digest: not checked");
        return;
    }
    let file_len = b.file_len();
    let end = match b.peek_uint(0x18, 4) {
        Some(size) if size >= CHECKSUM_START && size <= file_len => size,
        _ => file_len,
    };
    let len = end.saturating_sub(CHECKSUM_START);
    let expected = dxbc_checksum_of(len, chunks(b, CHECKSUM_START, len));
    if expected[..] == found[..] {
        b.set_display(id, "container digest: DXBC checksum matches");
    } else if is_pdb_debug_container(b) {
        b.set_display(
            id,
            "container digest: digest of the signed shader this debug container belongs to (not a checksum of this container)",
        );
    } else {
        let msg = format!("expected {}, found {}", hex(&expected), hex(&found));
        b.set_display(id, format!("container digest: {msg}"));
        b.set_error(
            id,
            format!("container digest does not match the DXBC checksum of bytes 0x14..0x{end:X}: {msg}; the file was changed after it was signed"),
        );
    }
}

/// True if the container is a shader PDB's debug container by the rule in the
/// module docs: every part is one DXC writes there and one holds debug
/// information. Peeks the part table only.
pub(crate) fn is_pdb_debug_container(b: &Builder) -> bool {
    let Some(count) = b.peek_uint(0x1C, 4) else {
        return false;
    };
    if count == 0 || count > b.file_len().saturating_sub(0x20) / 4 {
        return false;
    }
    let mut debug_info = false;
    for i in 0..count {
        let Some(off) = b.peek_uint(0x20 + 4 * i, 4) else {
            return false;
        };
        let Ok(cc) = <[u8; 4]>::try_from(b.peek_bytes(off, 4).as_slice()) else {
            return false;
        };
        if !PDB_PARTS.contains(&&cc) {
            return false;
        }
        debug_info |= PDB_DEBUG_INFO.contains(&&cc);
    }
    debug_info
}

/// Finds the bitcode of the first part named `cc` (a program part: DXIL, ILDB) by
/// peeking the part table and the program header: `(offset, size)`.
fn program_bitcode(b: &Builder, cc: &[u8; 4]) -> Result<Option<(u64, u64)>, String> {
    let count = b.peek_uint(0x1C, 4).unwrap_or(0).min(b.file_len() / 4);
    for i in 0..count {
        let Some(off) = b.peek_uint(0x20 + 4 * i, 4) else {
            break;
        };
        if b.peek_bytes(off, 4) != cc {
            continue;
        }
        let part_size = b.peek_uint(off + 4, 4).unwrap_or(0);
        let data = off + 8;
        let header = data + 8;
        let name = crate::builder::fourcc_text(cc);
        let (Some(bc_off), Some(bc_size)) =
            (b.peek_uint(header + 8, 4), b.peek_uint(header + 12, 4))
        else {
            return Err(format!("the {name} part's program header is cut short"));
        };
        let start = header + bc_off;
        if start.saturating_add(bc_size) > (data + part_size).min(b.file_len()) {
            return Err(format!(
                "the {name} part's bitcode does not fit in the part"
            ));
        }
        return Ok(Some((start, bc_size)));
    }
    Ok(None)
}

/// Checks a HASH part's digest (node `id`, bytes at `at`) against the MD5 of what
/// DXC hashed (see the module docs) and says so on the node.
pub(crate) fn show_shader_hash(b: &mut Builder, id: NodeId, at: u64, includes_source: bool) {
    let found = b.peek_bytes(at, 16);
    if found.len() < 16 {
        return;
    }
    if found.iter().all(|&x| x == 0) {
        b.set_display(id, "MD5 shader hash: not computed (all zero)");
        return;
    }
    if b.skip_digests() {
        b.set_display(id, "MD5 shader hash: not checked");
        return;
    }
    let (cc, what) = if includes_source {
        (
            b"ILDB",
            "the ILDB part's bitcode (the module with debug info and source)",
        )
    } else {
        (b"DXIL", "the DXIL part's bitcode")
    };
    match program_bitcode(b, cc) {
        Err(why) => b.set_display(id, format!("MD5 shader hash: cannot be checked: {why}")),
        Ok(None) if includes_source => b.set_display(
            id,
            "MD5 shader hash: cannot be checked: it covers the module with its debug info and source (IncludesSource), which this container does not hold (no ILDB part)",
        ),
        Ok(None) if is_pdb_debug_container(b) => b.set_display(
            id,
            "MD5 shader hash: cannot be checked: copied from the signed shader, it covers that shader's DXIL part, which a debug container does not hold",
        ),
        Ok(None) => b.set_display(
            id,
            "MD5 shader hash: cannot be checked: the container has no DXIL part",
        ),
        Ok(Some((start, len))) => {
            let expected = md5_of(b, start, len);
            if expected[..] == found[..] {
                b.set_display(id, format!("MD5 shader hash: matches the MD5 of {what}"));
            } else if includes_source {
                // DXC may have hashed a module that differs from what it kept.
                b.set_display(
                    id,
                    format!("MD5 shader hash: cannot be confirmed: it covers the module with source, and the MD5 of {what} is {}", hex(&expected)),
                );
            } else {
                let msg = format!("expected {}, found {}", hex(&expected), hex(&found));
                b.set_display(id, format!("MD5 shader hash: {msg}"));
                b.set_error(
                    id,
                    format!("shader hash does not match the MD5 of {what}: {msg}"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check_tree, container};
    use super::*;

    /// `parts` laid out with a digest that is not the container's own checksum;
    /// returns the header digest node's display and error.
    fn digest_of(parts: &[(&[u8; 4], &[u8])]) -> (String, Option<String>) {
        let mut file = container(parts);
        file[4..20].copy_from_slice(&[0xA5; 16]);
        assert_ne!(dxbc_checksum(&file), [0xA5; 16]);
        let d = crate::decode_bytes(&file);
        check_tree(&d.tree);
        let n = d
            .tree
            .node(d.tree.find("Header/Hash").expect("digest node"));
        (
            n.display.as_deref().unwrap_or_default().to_string(),
            n.error.as_deref().map(str::to_string),
        )
    }

    const SIGNED_SHADER: &str = "container digest: digest of the signed shader this debug container belongs to (not a checksum of this container)";

    #[test]
    fn a_pdb_debug_containers_digest_is_the_signed_shaders() {
        let hash = [0u8; 20];
        let blob = [0u8; 8];
        for parts in [
            &[
                (b"ILDN", &blob[..]),
                (b"HASH", &hash[..]),
                (b"ILDB", &blob[..]),
            ][..],
            &[
                (b"HASH", &hash[..]),
                (b"SRCI", &blob[..]),
                (b"VERS", &blob[..]),
            ][..],
            &[(b"PDBI", &blob[..]), (b"STAT", &blob[..])][..],
            &[(b"ILDB", &blob[..])][..],
        ] {
            let (shown, error) = digest_of(parts);
            assert_eq!(shown, SIGNED_SHADER);
            assert_eq!(error, None);
        }
    }

    #[test]
    fn a_container_that_is_not_a_pdb_debug_container_keeps_the_error() {
        let hash = [0u8; 20];
        let blob = [0u8; 8];
        for parts in [
            // A program part: the container claims to be the signed shader.
            &[
                (b"HASH", &hash[..]),
                (b"ILDB", &blob[..]),
                (b"DXIL", &blob[..]),
            ][..],
            &[(b"ILDB", &blob[..]), (b"SHEX", &blob[..])][..],
            // A part DXC does not write into a PDB.
            &[(b"ILDB", &blob[..]), (b"PSV0", &blob[..])][..],
            &[(b"ILDB", &blob[..]), (b"ZZZZ", &blob[..])][..],
            // No debug information.
            &[
                (b"ILDN", &blob[..]),
                (b"HASH", &hash[..]),
                (b"VERS", &blob[..]),
            ][..],
            &[(b"RTS0", &blob[..])][..],
            &[][..],
        ] {
            let (shown, error) = digest_of(parts);
            assert!(shown.starts_with("container digest: expected "), "{shown}");
            assert!(
                error
                    .as_deref()
                    .unwrap()
                    .contains("changed after it was signed"),
                "{error:?}"
            );
        }
    }

    #[test]
    fn a_misplaced_or_unreadable_part_offset_is_not_a_pdb_debug_container() {
        let blob = [0u8; 8];
        let mut file = container(&[(b"ILDB", &blob[..]), (b"HASH", &[0u8; 20][..])]);
        file[4..20].copy_from_slice(&[0xA5; 16]);
        let good = crate::decode_bytes(&file);
        let h = good.tree.find("Header/Hash").unwrap();
        assert!(good.tree.error(h).is_none());
        // The second offset points past the end of the file.
        let mut bad = file.clone();
        bad[36..40].copy_from_slice(&u32::MAX.to_le_bytes());
        let d = crate::decode_bytes(&bad);
        let h = d.tree.find("Header/Hash").unwrap();
        assert!(d.tree.error(h).is_some());
        // A part count larger than the file can hold.
        let mut bad = file;
        bad[28..32].copy_from_slice(&u32::MAX.to_le_bytes());
        let d = crate::decode_bytes(&bad);
        let h = d.tree.find("Header/Hash").unwrap();
        assert!(d.tree.error(h).is_some());
    }

    /// Standard MD5 built from [`compress`] with MD5's own padding.
    fn md5_via_compress(msg: &[u8]) -> [u8; 16] {
        let mut state = MD5_INIT;
        let mut data = msg.to_vec();
        data.push(0x80);
        while data.len() % 64 != 56 {
            data.push(0);
        }
        data.extend_from_slice(&((msg.len() as u64) * 8).to_le_bytes());
        for block in data.chunks_exact(64) {
            compress(&mut state, block.try_into().unwrap());
        }
        let mut out = [0u8; 16];
        for (i, w) in state.iter().enumerate() {
            out[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    #[test]
    fn the_compression_function_is_md5s() {
        for n in [0usize, 1, 55, 56, 63, 64, 65, 119, 120, 1000] {
            let msg: Vec<u8> = (0..n).map(|i| (i * 7 + 3) as u8).collect();
            let want: [u8; 16] = Md5::digest(&msg).into();
            assert_eq!(md5_via_compress(&msg), want, "length {n}");
        }
    }

    #[test]
    fn the_dxbc_padding_puts_the_length_first_and_a_marker_last() {
        // A message of 0 bytes: one block [0, 0x80, 0…, 1].
        let mut block = [0u8; 64];
        block[4] = 0x80;
        block[60] = 1;
        let mut state = MD5_INIT;
        compress(&mut state, &block);
        let mut want = [0u8; 16];
        for (i, w) in state.iter().enumerate() {
            want[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
        assert_eq!(dxbc_checksum(&[0u8; 20]), want);
        // Chunked and whole inputs agree at every tail length.
        for n in [1usize, 55, 56, 57, 63, 64, 65, 200] {
            let msg: Vec<u8> = (0..n).map(|i| i as u8).collect();
            let mut file = vec![0u8; 20];
            file.extend_from_slice(&msg);
            let mut pieces = msg
                .chunks(7)
                .map(<[u8]>::to_vec)
                .collect::<Vec<_>>()
                .into_iter();
            let chunked = dxbc_checksum_of(n as u64, || pieces.next().unwrap_or_default());
            assert_eq!(chunked, dxbc_checksum(&file), "length {n}");
        }
    }
}
