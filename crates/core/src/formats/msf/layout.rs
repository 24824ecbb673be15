//! The MSF layout, read with peeks before any node is made: the superblock, the
//! block map, the stream directory, which page each structure and each stream
//! owns, and every problem found, kept against the field it is about so that
//! the nodes made later carry it.
//!
//! Follows LLVM's `docs/PDB/MsfFile.rst` and the checks LLVM's reader makes
//! (`validateSuperBlock`: block sizes 512 to 32768, a free block map at page 1
//! or 2, a directory whose page list fits the one block map page, a block map
//! past page 0 and before `NumBlocks`; a file of whole pages; every page a
//! stream uses inside the file). Every page may belong to one thing only: the
//! superblock, the block map, a directory page or one page of one stream. A
//! second claim is an error on the entry that makes it, so a page list that
//! points back at the directory or at itself cannot loop.
//!
//! A page past `NumBlocks` but inside the file is read, as LLVM's reader reads
//! it: DXC's shader PDBs count one page less than they hold (their writer
//! leaves the block map's page out of `NumBlocks`), and their last page is
//! such a page. A page past the end of the file is an error.
//!
//! What is read is bounded by the file: the directory is read only from pages
//! inside the file, counts are cut to what the directory holds, and the
//! per-page tables have one entry per page of the file.

use crate::builder::Builder;
use crate::claims::Claims;
use crate::sorted::VecMap;

/// `"Microsoft C/C++ MSF 7.00\r\n"` followed by `1A 44 53 00 00 00`.
pub(crate) const MAGIC: &[u8; 32] = b"Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0";
/// Bytes of the superblock: the magic and six `u32`s.
pub(super) const SUPERBLOCK_SIZE: u64 = 56;
/// A stream size of `0xFFFFFFFF`: a nil stream (no size, no pages).
pub(super) const NIL_SIZE: u32 = u32::MAX;

/// True if `n` is a page size LLVM's reader accepts.
pub(crate) fn valid_block_size(n: u32) -> bool {
    matches!(n, 512 | 1024 | 2048 | 4096 | 8192 | 16384 | 32768)
}

/// The superblock's fields after the magic.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct SuperBlock {
    pub block_size: u32,
    pub fpm_block: u32,
    pub num_blocks: u32,
    pub dir_bytes: u32,
    pub block_map: u32,
}

/// A superblock field a problem can be about.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Field {
    Magic,
    BlockSize,
    FpmBlock,
    NumBlocks,
    DirBytes,
    BlockMapAddr,
}

/// What a page of the file holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Owner {
    /// Nothing the directory names.
    Free,
    /// Page 0.
    Superblock,
    /// A free block map position (`1 + k·BlockSize` or `2 + k·BlockSize`)
    /// nothing else claims: FPM1 or FPM2, and the interval `k`.
    Fpm(u8, u32),
    /// The page `BlockMapAddr` names.
    BlockMap,
    /// Page `k` of the stream directory.
    Directory(u32),
    /// Page `k` of stream `s`.
    Stream(u32, u32),
}

/// One stream as the directory describes it.
#[derive(Clone, Debug, Default)]
pub(super) struct Stream {
    /// Its size as stored (`0xFFFFFFFF`: a nil stream).
    pub size: u32,
    /// The page numbers the directory lists for it (fewer than it needs when
    /// the directory ends first).
    pub pages: Vec<u32>,
    /// For each listed page: true if it lies in the file and belongs to this
    /// stream alone (its bytes can be shown as the stream's).
    pub usable: Vec<bool>,
    /// Directory offset of its first page number.
    pub first_entry: u64,
    /// What the stream is (`PDB info stream`, `named stream "/names"`), if known.
    pub name: Option<String>,
}

impl Stream {
    /// Its size in bytes (a nil stream has none).
    pub fn len(&self) -> u64 {
        if self.size == NIL_SIZE {
            0
        } else {
            u64::from(self.size)
        }
    }

    /// True when every page it needs is listed, lies in the file and is its own.
    pub fn whole(&self, bs: u64) -> bool {
        self.pages.len() as u64 == self.len().div_ceil(bs) && self.usable.iter().all(|&u| u)
    }

    /// True when its pages follow each other in the file (and it is whole).
    pub fn contiguous(&self, bs: u64) -> bool {
        self.whole(bs)
            && self
                .pages
                .windows(2)
                .all(|w| w[0].checked_add(1) == Some(w[1]))
    }
}

/// Everything the decoder needs to know before making nodes.
#[derive(Debug, Default)]
pub(super) struct Plan {
    /// Length of the file.
    pub file_len: u64,
    /// The superblock, if the file holds all of it.
    pub sb: SuperBlock,
    /// Problems with superblock fields.
    pub sb_errors: Vec<(Field, String)>,
    /// The page size, when it is one LLVM accepts (nothing past the superblock
    /// is read otherwise).
    pub bs: u64,
    /// Pages the file holds (the last one may be cut short), all shown.
    pub pages: u64,
    /// The pages given to the superblock, the block map, the directory and the
    /// streams (one-page ranges); the others are free or free block map pages.
    pub owners: Claims<Owner>,
    /// For each shown page, whether the active free block map marks it free
    /// (empty when that map cannot be read).
    pub marked_free: Vec<bool>,
    /// The block map's page, when it can be read.
    pub block_map: Option<u64>,
    /// The directory's page numbers the block map lists.
    pub dir_pages: Vec<u32>,
    /// How many of them, from the first, can be read (the directory is cut
    /// at the first that cannot).
    pub dir_readable: u64,
    /// Problems with block map entries, by index.
    pub bm_errors: VecMap<u64, String>,
    /// Directory bytes that can be read (at most `NumDirectoryBytes`).
    pub dir_avail: u64,
    /// Where the entries read end (directory offset): bytes after it, up to
    /// `NumDirectoryBytes`, are not part of any entry.
    pub dir_used: u64,
    /// `NumStreams`, when the directory holds it.
    pub num_streams: Option<u32>,
    /// Problems with directory entries, by directory offset.
    pub dir_errors: VecMap<u64, String>,
    /// The streams whose sizes the directory holds.
    pub streams: Vec<Stream>,
}

impl Plan {
    /// Page `p`'s bytes in the file (cut at the end of the file).
    pub fn page_span(&self, p: u64) -> (u64, u64) {
        let start = p.saturating_mul(self.bs).min(self.file_len);
        let end = start.saturating_add(self.bs).min(self.file_len);
        (start, end)
    }

    /// What owns page `p`, if it is shown: what claimed it, else the free
    /// block map whose position it is (pages 1 and 2 of every interval of
    /// `bs` pages), else nothing.
    pub fn owner(&self, p: u64) -> Option<Owner> {
        if p >= self.pages {
            return None;
        }
        Some(self.owners.owner(p).unwrap_or(match p % self.bs {
            w @ (1 | 2) => Owner::Fpm(w as u8, (p / self.bs) as u32),
            _ => Owner::Free,
        }))
    }

    /// Says what page `p` is, for messages: `the superblock`, `stream 3's page 1`.
    pub fn owner_text(&self, o: Owner) -> String {
        match o {
            Owner::Free => "free".into(),
            Owner::Superblock => "the superblock".into(),
            Owner::Fpm(w, k) => format!("free block map {w}, interval {k}"),
            Owner::BlockMap => "the block map".into(),
            Owner::Directory(k) => format!("the stream directory's page {k}"),
            Owner::Stream(s, k) => format!("stream {s}'s page {k}"),
        }
    }

    /// Reads up to `len` bytes of stream `s` from stream offset `off`, through
    /// its usable pages; stops at the first page it cannot read.
    pub fn read_stream(&self, b: &Builder, s: usize, off: u64, len: u64) -> Vec<u8> {
        let mut out = Vec::new();
        let Some(st) = self.streams.get(s) else {
            return out;
        };
        let end = off.saturating_add(len).min(st.len());
        let mut at = off;
        while at < end {
            let k = at / self.bs;
            let (Some(&p), Some(true)) =
                (st.pages.get(k as usize), st.usable.get(k as usize).copied())
            else {
                break;
            };
            let within = at % self.bs;
            let take = (self.bs - within).min(end - at);
            let bytes = b.peek_bytes(u64::from(p) * self.bs + within, take);
            let got = bytes.len() as u64;
            out.extend_from_slice(&bytes);
            if got < take {
                break;
            }
            at += take;
        }
        out
    }
}

/// Little-endian `u32` at `at` in `bytes`, if it is all there.
pub(super) fn le32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Little-endian `u16` at `at` in `bytes`, if it is all there.
pub(super) fn le16(bytes: &[u8], at: usize) -> Option<u16> {
    let b = bytes.get(at..at.checked_add(2)?)?;
    Some(u16::from_le_bytes([b[0], b[1]]))
}

/// `n` with a plural noun: `1 page`, `3 pages`.
pub(super) fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Reads the layout of the file `b` decodes.
pub(super) fn read(b: &Builder) -> Plan {
    let file_len = b.file_len();
    let mut plan = Plan {
        file_len,
        ..Plan::default()
    };
    let head = b.peek_bytes(0, SUPERBLOCK_SIZE);
    if head.len() as u64 != SUPERBLOCK_SIZE {
        return plan;
    }
    if head.get(..32) != Some(&MAGIC[..]) {
        plan.sb_errors.push((
            Field::Magic,
            "expected the MSF 7.00 magic \"Microsoft C/C++ MSF 7.00\\r\\n\" 1A 44 53 00 00 00"
                .into(),
        ));
    }
    let f = |i: usize| le32(&head, 32 + 4 * i).unwrap_or(0);
    plan.sb = SuperBlock {
        block_size: f(0),
        fpm_block: f(1),
        num_blocks: f(2),
        dir_bytes: f(3),
        block_map: f(5),
    };
    let sb = plan.sb;
    if !valid_block_size(sb.block_size) {
        plan.sb_errors.push((
            Field::BlockSize,
            format!(
                "page size {} is not one of 512, 1024, 2048, 4096, 8192, 16384 or 32768: nothing past the superblock is read",
                sb.block_size
            ),
        ));
        return plan;
    }
    let bs = u64::from(sb.block_size);
    plan.bs = bs;
    plan.pages = file_len.div_ceil(bs);
    let nb = u64::from(sb.num_blocks);
    if nb.saturating_mul(bs) > file_len {
        plan.sb_errors.push((
            Field::NumBlocks,
            format!(
                "{nb} pages of {bs} bytes need {} bytes, but the file has {file_len} (it is cut short)",
                nb.saturating_mul(bs)
            ),
        ));
    } else if !file_len.is_multiple_of(bs) {
        plan.sb_errors.push((
            Field::NumBlocks,
            format!(
                "the file's {file_len} bytes are not a whole number of {bs}-byte pages (its last page is cut short)"
            ),
        ));
    }
    if sb.fpm_block != 1 && sb.fpm_block != 2 {
        plan.sb_errors.push((
            Field::FpmBlock,
            format!(
                "the active free block map must be 1 or 2, not {}",
                sb.fpm_block
            ),
        ));
    }
    plan.owners.add(0, plan.pages.min(1), Owner::Superblock);
    read_fpm(b, &mut plan);

    if !sb.dir_bytes.is_multiple_of(4) {
        plan.sb_errors.push((
            Field::DirBytes,
            format!(
                "the stream directory's size {} is not a multiple of 4",
                sb.dir_bytes
            ),
        ));
    }
    let dir_bytes = u64::from(sb.dir_bytes);
    let need_pages = dir_bytes.div_ceil(bs);
    let can_list = bs / 4;
    if need_pages > can_list {
        plan.sb_errors.push((
            Field::DirBytes,
            format!(
                "a directory of {dir_bytes} bytes spans {need_pages} pages, but the block map's one page lists at most {can_list}"
            ),
        ));
    }
    let bm = u64::from(sb.block_map);
    let bm_problem = if bm == 0 {
        Some("page 0 is the superblock: the block map cannot be there".to_string())
    } else if bm >= nb {
        Some(format!(
            "page {bm} is past the last page (NumBlocks is {nb})"
        ))
    } else {
        page_problem(&plan, bm)
    };
    if let Some(msg) = bm_problem {
        plan.sb_errors.push((Field::BlockMapAddr, msg));
        return plan;
    }
    plan.block_map = Some(bm);
    claim(&mut plan, bm, Owner::BlockMap).ok();

    // The block map: the directory's page numbers.
    let listed = need_pages.min(can_list);
    let raw = b.peek_bytes(bm * bs, listed * 4);
    plan.dir_pages = raw
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut readable = 0u64;
    for (k, &p) in plan.dir_pages.clone().iter().enumerate() {
        let k = k as u64;
        if readable < k {
            break;
        }
        match claim(&mut plan, u64::from(p), Owner::Directory(k as u32)) {
            Ok(()) => readable = k + 1,
            Err(msg) => {
                plan.bm_errors
                    .insert(k, format!("{msg}: the stream directory is read no further"));
            }
        }
    }
    plan.dir_readable = readable;
    // The directory's bytes, from its readable pages (each inside the file).
    plan.dir_avail = dir_bytes.min(readable * bs);
    let mut dir = Vec::new();
    for k in 0..readable {
        let want = (plan.dir_avail - k * bs).min(bs);
        let p = u64::from(plan.dir_pages[k as usize]);
        dir.extend_from_slice(&b.peek_bytes(p * bs, want));
    }
    plan.dir_avail = dir.len() as u64;
    read_directory(&mut plan, &dir);
    plan
}

/// Why page number `p` cannot be followed, if it cannot: it must lie whole
/// inside the file.
fn page_problem(plan: &Plan, p: u64) -> Option<String> {
    let nb = u64::from(plan.sb.num_blocks);
    if p >= plan.pages {
        let mut s = format!(
            "page {p} lies past the end of the file, which holds {}",
            plural(plan.pages, "page", "pages")
        );
        if p >= nb {
            s.push_str(&format!(" (and past NumBlocks, {nb})"));
        }
        Some(s)
    } else if p.saturating_add(1).saturating_mul(plan.bs) > plan.file_len {
        Some(format!(
            "page {p} is cut short: the file ends {} bytes into it",
            plan.file_len - p * plan.bs
        ))
    } else {
        None
    }
}

/// Gives page `p` to `who`, or says why it cannot have it: past the end of
/// the file, or already someone else's. A page the end of the file cuts short
/// is given (it shows as `who`'s) but is an error too: it cannot be read whole.
fn claim(plan: &mut Plan, p: u64, who: Owner) -> Result<(), String> {
    let problem = page_problem(plan, p);
    let Some(cur) = plan.owner(p) else {
        return Err(problem.unwrap_or_default());
    };
    match cur {
        Owner::Free | Owner::Fpm(..) => {
            plan.owners.add(p, p + 1, who);
            problem.map_or(Ok(()), Err)
        }
        _ => Err(format!("page {p} is already {}", plan.owner_text(cur))),
    }
}

/// Reads the active free block map's bits for the shown pages.
fn read_fpm(b: &Builder, plan: &mut Plan) {
    let which = u64::from(plan.sb.fpm_block);
    if which != 1 && which != 2 {
        return;
    }
    let bs = plan.bs;
    let mut bits = Vec::with_capacity(plan.pages as usize);
    let mut k = 0u64;
    while (bits.len() as u64) < plan.pages {
        // The k-th page of the map sits at the map's position in interval k.
        let p = k * bs + which;
        if p >= plan.pages {
            break;
        }
        let bytes = b.peek_bytes(p * bs, bs);
        for byte in bytes {
            for i in 0..8 {
                if (bits.len() as u64) < plan.pages {
                    bits.push(byte >> i & 1 == 1);
                }
            }
        }
        k += 1;
    }
    if bits.len() as u64 == plan.pages {
        plan.marked_free = bits;
    }
}

/// Reads the stream directory's bytes `dir`: `NumStreams`, the sizes, the
/// page lists; checks every page number.
fn read_directory(plan: &mut Plan, dir: &[u8]) {
    let bs = plan.bs;
    let declared = u64::from(plan.sb.dir_bytes);
    let avail = dir.len() as u64;
    // The directory is cut short by a page that cannot be read (the error is
    // on that block map entry) or by its declared size (the error goes on the
    // entry that needs more).
    let cut_by_size = avail == declared;
    let Some(n) = le32(dir, 0) else {
        if cut_by_size && declared < 4 {
            plan.sb_errors.push((
                Field::DirBytes,
                format!("a stream directory of {declared} bytes cannot hold NumStreams"),
            ));
        }
        return;
    };
    plan.num_streams = Some(n);
    let room = (avail - 4) / 4;
    let count = u64::from(n).min(room);
    if u64::from(n) > room && cut_by_size {
        plan.dir_errors.insert(
            0,
            format!(
                "{n} streams need {} bytes of sizes, but the directory holds {declared} bytes",
                u64::from(n).saturating_mul(4).saturating_add(4)
            ),
        );
    }
    let mut at = 4 + 4 * count;
    plan.streams = (0..count)
        .map(|i| Stream {
            size: le32(dir, (4 + 4 * i) as usize).unwrap_or(0),
            ..Stream::default()
        })
        .collect();
    let mut cut = u64::from(n) > count;
    for i in 0..plan.streams.len() {
        plan.streams[i].first_entry = at;
        if cut {
            continue;
        }
        let need = plan.streams[i].len().div_ceil(bs);
        let room = (avail - at) / 4;
        let take = need.min(room);
        let pages: Vec<u32> = (0..take)
            .map(|k| le32(dir, (at + 4 * k) as usize).unwrap_or(0))
            .collect();
        if take < need {
            cut = true;
            if cut_by_size {
                plan.dir_errors.insert(
                    4 + 4 * i as u64,
                    format!(
                        "stream {i} needs {} for its {} bytes, but the directory ({declared} bytes) ends after {} of them",
                        plural(need, "page number", "page numbers"),
                        plan.streams[i].size,
                        take
                    ),
                );
            }
        }
        at += 4 * take;
        plan.streams[i].pages = pages;
    }
    plan.dir_used = at;
    // Claims, in stream order: the first claim of a page wins.
    for i in 0..plan.streams.len() {
        let pages = std::mem::take(&mut plan.streams[i].pages);
        let mut usable = Vec::with_capacity(pages.len());
        for (k, &p) in pages.iter().enumerate() {
            let r = claim(plan, u64::from(p), Owner::Stream(i as u32, k as u32));
            usable.push(r.is_ok());
            if let Err(msg) = r {
                let off = plan.streams[i].first_entry + 4 * k as u64;
                plan.dir_errors.insert(off, format!("stream {i}: {msg}"));
            }
        }
        plan.streams[i].pages = pages;
        plan.streams[i].usable = usable;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A superblock with `bs`-byte pages, `nb` of them, a directory of
    /// `dir` bytes listed at page 3, the file `len` bytes long.
    fn file(bs: u32, nb: u32, dir: u32, len: usize) -> Vec<u8> {
        let mut f = vec![0u8; len];
        f[..32].copy_from_slice(MAGIC);
        for (k, v) in [bs, 1, nb, dir, 0, 3].into_iter().enumerate() {
            f[32 + 4 * k..36 + 4 * k].copy_from_slice(&v.to_le_bytes());
        }
        f
    }

    #[test]
    fn only_llvms_page_sizes_are_read_past_the_superblock() {
        assert!(valid_block_size(512) && valid_block_size(32768));
        assert!(!valid_block_size(0) && !valid_block_size(1000) && !valid_block_size(65536));
        let f = file(1000, 4, 0, 4000);
        let plan = read(&Builder::new(&f.as_slice(), "t"));
        assert_eq!(plan.bs, 0);
        assert_eq!(plan.sb_errors.len(), 1);
        assert_eq!(plan.sb_errors[0].0, Field::BlockSize);
    }

    #[test]
    fn a_page_must_lie_whole_in_the_file_and_belong_to_one_owner() {
        // Five pages and a half; NumBlocks says 5.
        let f = file(512, 5, 0, 5 * 512 + 100);
        let src: &[u8] = &f;
        let b = Builder::new(&src, "t");
        let mut plan = read(&b);
        assert_eq!(plan.pages, 6);
        assert!(plan
            .sb_errors
            .iter()
            .any(|(f, m)| *f == Field::NumBlocks
                && m.contains("not a whole number of 512-byte pages")));
        assert_eq!(claim(&mut plan, 4, Owner::Stream(1, 0)), Ok(()));
        assert_eq!(
            claim(&mut plan, 4, Owner::Stream(2, 0)),
            Err("page 4 is already stream 1's page 0".to_string())
        );
        // The half page is given, but it cannot be read whole.
        assert!(claim(&mut plan, 5, Owner::Stream(2, 1))
            .unwrap_err()
            .contains("page 5 is cut short: the file ends 100 bytes into it"));
        assert_eq!(plan.owner(5), Some(Owner::Stream(2, 1)));
        assert!(claim(&mut plan, 6, Owner::Stream(2, 2))
            .unwrap_err()
            .contains(
                "page 6 lies past the end of the file, which holds 6 pages (and past NumBlocks, 5)"
            ));
        assert!(claim(&mut plan, u64::from(u32::MAX), Owner::Stream(2, 3)).is_err());
    }

    #[test]
    fn a_stream_is_contiguous_when_its_pages_follow_each_other_and_are_its_own() {
        let s = |size: u32, pages: &[u32], usable: &[bool]| Stream {
            size,
            pages: pages.to_vec(),
            usable: usable.to_vec(),
            ..Stream::default()
        };
        assert!(s(1000, &[7, 8], &[true, true]).contiguous(512));
        assert!(!s(1000, &[8, 7], &[true, true]).contiguous(512));
        assert!(!s(1000, &[7, 8], &[true, false]).contiguous(512));
        assert!(!s(1000, &[7], &[true]).contiguous(512));
        assert_eq!(s(NIL_SIZE, &[], &[]).len(), 0);
    }
}
