//! FXC's listing of a container's SM4/5 program (`fxc /Fc`, `fxc /dumpbin`):
//! the comment header made from RDEF, the signatures and STAT
//! ([`super::header`]), the program ([`super::text`]) and the statistics line.
//! Every line carries the bits it was made from.

use super::{header, text, tokens};
use crate::dis::Line;

/// One part of the container, read from its bytes.
pub(crate) struct Part<'a> {
    /// The four-character code (`RDEF`, `ISGN`, `SHEX`, …).
    pub fourcc: [u8; 4],
    /// The part's data (after its name and size).
    pub data: &'a [u8],
    /// The file offset of `data`.
    pub at: u64,
}

impl Part<'_> {
    /// The little-endian `u32` at `off` of the part's data.
    pub fn u32(&self, off: usize) -> Option<u32> {
        let b = self.data.get(off..off.checked_add(4)?)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The NUL-terminated string at `off` of the part's data.
    pub fn cstr(&self, off: usize) -> Option<&str> {
        let rest = self.data.get(off..)?;
        let n = rest.iter().position(|&c| c == 0)?;
        std::str::from_utf8(&rest[..n]).ok()
    }
}

/// The parts of the container `bytes` (which starts at file offset `base`);
/// parts whose place lies outside the container are left out.
pub(crate) fn parts(bytes: &[u8], base: u64) -> Vec<Part<'_>> {
    let u32_at = |o: usize| -> Option<usize> {
        let b = bytes.get(o..o.checked_add(4)?)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    };
    let Some(count) = u32_at(28) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for i in 0..count.min(4096) {
        let Some(off) = u32_at(32 + 4 * i) else { break };
        let Some(size) = u32_at(off + 4) else {
            continue;
        };
        let Some(data) = bytes.get(off + 8..(off + 8).saturating_add(size)) else {
            continue;
        };
        let mut fourcc = [0u8; 4];
        fourcc.copy_from_slice(&bytes[off..off + 4]);
        out.push(Part {
            fourcc,
            data,
            at: base + off as u64 + 8,
        });
    }
    out
}

/// FXC's listing of the program in the part whose header (name and size)
/// starts at `part_off` of `bytes`, the container, which starts at file
/// offset `base`.
pub(crate) fn fxc_listing(bytes: &[u8], base: u64, part_off: u64) -> Vec<Line> {
    let all = parts(bytes, base);
    let Some(program) = all.iter().find(|p| p.at == base + part_off + 8) else {
        return vec![Line::plain(
            "// hexlens: the program part is not in the container's part table",
        )];
    };
    let decoded = tokens::program(program.data, program.at);
    let mut out = header::header_in(bytes, base, &all, &decoded);
    out.extend(text::program(&decoded));
    out.extend(header::footer(&all, &decoded));
    out
}
