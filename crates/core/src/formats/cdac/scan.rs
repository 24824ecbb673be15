//! Finding blob magics: `DACBLOB\0` and its byte-reversed form anywhere in a file.
//!
//! The runtime writes the magic as the `uint64` `0x00424F4C42434144`, which reads
//! `DACBLOB\0` on little-endian targets and `00 42 4F 4C 42 43 41 44` on big-endian
//! ones; a blob whose magic was written as a character string reads `DACBLOB\0` on
//! every target (`specs/notes/cdac-layout.md`). The scan reads the file in chunks
//! with a 7-byte overlap, so a magic straddling two chunks is found once and the
//! whole file is never held in memory.

/// The magic as a string, or as a `uint64` stored little-endian.
pub(super) const MAGIC_LE: [u8; 8] = *b"DACBLOB\0";
/// The `uint64` magic stored big-endian.
pub(super) const MAGIC_BE: [u8; 8] = [0x00, 0x42, 0x4F, 0x4C, 0x42, 0x43, 0x41, 0x44];

/// Bytes read per step of the scan.
pub(super) const CHUNK: u64 = 1 << 20;

/// Which of the two byte sequences was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MagicBytes {
    /// `44 41 43 42 4C 4F 42 00` ("DACBLOB\0").
    Ascending,
    /// `00 42 4F 4C 42 43 41 44`.
    Reversed,
}

/// A magic found at an absolute file offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Hit {
    /// Offset of the first magic byte.
    pub offset: u64,
    /// Which byte sequence it is.
    pub bytes: MagicBytes,
}

/// Result of a scan.
pub(super) struct Scan {
    /// Magics in file order, at most `max_hits`.
    pub hits: Vec<Hit>,
    /// True if more magics were found than `max_hits`.
    pub truncated: bool,
}

/// Scans magics that start before `end` (clamped to `len`). `read(offset, buf)`
/// fills `buf` from the file and returns how many bytes it copied; `chunk` is the
/// step size (tests use small ones to exercise the overlap). Stops after
/// `max_hits` hits (then sets [`Scan::truncated`]).
pub(super) fn scan(
    len: u64,
    end: u64,
    chunk: u64,
    max_hits: usize,
    read: &dyn Fn(u64, &mut [u8]) -> usize,
) -> Scan {
    let end = end.min(len);
    let chunk = chunk.max(1);
    let mut out = Scan {
        hits: Vec::new(),
        truncated: false,
    };
    let mut buf = vec![0u8; (chunk + 7).min(len.max(8)) as usize];
    let mut start = 0u64;
    while start < end {
        // Magics starting in [start, start + chunk) are complete in this window.
        let want = (chunk + 7).min(len - start) as usize;
        let window = buf.get_mut(..want).unwrap_or_default();
        let got = read(start, window).min(want);
        let data = window.get(..got).unwrap_or_default();
        let starts_before = (end - start).min(chunk) as usize;
        // Both byte sequences hold an 'L' (at 4 ascending, 3 reversed): only
        // windows around one are compared.
        let mut found: Vec<(usize, MagicBytes)> = Vec::new();
        for (q, _) in data.iter().enumerate().filter(|&(_, &c)| c == b'L') {
            for (p, want, bytes) in [
                (q.checked_sub(4), MAGIC_LE, MagicBytes::Ascending),
                (q.checked_sub(3), MAGIC_BE, MagicBytes::Reversed),
            ] {
                let Some(p) = p.filter(|&p| p < starts_before) else {
                    continue;
                };
                if data.get(p..p + 8) == Some(&want[..]) {
                    found.push((p, bytes));
                }
            }
        }
        crate::sorted::sort_by_key(&mut found, |&(p, _)| p);
        for (p, bytes) in found {
            if out.hits.len() >= max_hits {
                out.truncated = true;
                return out;
            }
            out.hits.push(Hit {
                offset: start + p as u64,
                bytes,
            });
        }
        if got < want {
            break;
        }
        start += chunk;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(data: &[u8], chunk: u64, end: u64, max: usize) -> Scan {
        let read = |off: u64, buf: &mut [u8]| {
            let Some(rest) = data.get(off as usize..) else {
                return 0;
            };
            let n = rest.len().min(buf.len());
            buf[..n].copy_from_slice(&rest[..n]);
            n
        };
        scan(data.len() as u64, end, chunk, max, &read)
    }

    #[test]
    fn magics_straddling_a_chunk_boundary_are_found_once_in_either_byte_order() {
        let mut data = vec![0x11u8; 64];
        data[5..13].copy_from_slice(&MAGIC_LE);
        data[30..38].copy_from_slice(&MAGIC_BE);
        data[56..64].copy_from_slice(&MAGIC_LE);
        for chunk in [1, 3, 8, 10, 16, 33, 1 << 20] {
            let s = run(&data, chunk, u64::MAX, 10);
            let got: Vec<(u64, MagicBytes)> = s.hits.iter().map(|h| (h.offset, h.bytes)).collect();
            assert_eq!(
                got,
                [
                    (5, MagicBytes::Ascending),
                    (30, MagicBytes::Reversed),
                    (56, MagicBytes::Ascending)
                ],
                "chunk {chunk}"
            );
            assert!(!s.truncated);
        }
    }

    #[test]
    fn the_scan_stops_at_its_limit_and_after_max_hits() {
        let mut data = vec![0u8; 40];
        data[0..8].copy_from_slice(&MAGIC_LE);
        data[20..28].copy_from_slice(&MAGIC_LE);
        assert_eq!(run(&data, 7, 20, 10).hits.len(), 1);
        assert_eq!(run(&data, 7, 21, 10).hits.len(), 2);
        let s = run(&data, 7, u64::MAX, 1);
        assert_eq!(s.hits.len(), 1);
        assert!(s.truncated);
        assert!(run(&data[..7], 4, u64::MAX, 1).hits.is_empty());
    }
}
