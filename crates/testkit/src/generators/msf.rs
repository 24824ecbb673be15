//! Generator of PDB / MSF 7.00 test fixtures: DXC's shader PDBs (the layout of
//! DXC's `MSFWriter` in `lib/DXIL/DxilPDB.cpp`: 512-byte pages, free block map
//! 1 active and both maps zero, the block map at page 3, the directory from
//! page 4, the streams one after the other, `NumBlocks` leaving the block map's
//! page out; stream 5 holds the shader's DirectX Container), a PDB whose
//! streams and directory are scattered over the file in any order, and damaged
//! files (cut short, directories too short for their counts, page numbers past
//! the end, pages claimed twice or pointing back at the directory, hostile
//! sizes, a bad superblock and a bad named stream map).
//!
//! Every file is laid out here from LLVM's `docs/PDB/MsfFile.rst`,
//! `PdbStream.rst`, `HashTable.rst`, `TpiStream.rst` and `DbiStream.rst`; the
//! named stream map's buckets follow the string hash PDB writers use (the one
//! LLVM calls `hashStringV1`), so LLVM's reader finds names by lookup. The
//! DirectX Containers inside are fixtures of this repository: the debug
//! container of [`dxcontainer`](super::dxcontainer) and a DXIL shader of the
//! vkd3d-proton corpus (`tests/fixtures/dxcontainer/curated/`).
//!
//! The core's `msf_generated.rs` checks the files in `tests/fixtures/msf/` are
//! what this generator makes (`HEXLENS_BLESS=1` rewrites them) and what hexlens
//! decodes from them; its `pdbutil_oracle.rs` checks them against
//! `llvm-pdbutil-19`.

/// `"Microsoft C/C++ MSF 7.00\r\n"` and `1A 44 53 00 00 00`.
pub const MAGIC: &[u8; 32] = b"Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0";
/// The size of a nil stream.
pub const NIL: u32 = u32::MAX;

/// The debug container DXC writes into a shader's PDB (this repository's
/// generated fixture).
pub const DEBUG_CONTAINER: &[u8] =
    include_bytes!("../../../../tests/fixtures/dxcontainer/generated/pdb_debug_container.dxbc");
/// A DXIL hull shader compiled by DXC (vkd3d-proton corpus), 2,776 bytes.
pub const DXIL_SHADER: &[u8] = include_bytes!(
    "../../../../tests/fixtures/dxcontainer/curated/hs_mismatch_2_code_dxil.dxil.dxbc"
);

/// One stream: its size as stored, its bytes, its pages.
#[derive(Clone, Debug)]
pub struct Stream {
    pub size: u32,
    pub data: Vec<u8>,
    pub pages: Vec<u32>,
}

impl Stream {
    /// A stream holding `data` in `pages`.
    pub fn new(data: Vec<u8>, pages: Vec<u32>) -> Stream {
        Stream {
            size: data.len() as u32,
            data,
            pages,
        }
    }

    /// A stream of no bytes.
    pub fn empty() -> Stream {
        Stream::new(Vec::new(), Vec::new())
    }

    /// A nil stream (size `0xFFFFFFFF`, no pages).
    pub fn nil() -> Stream {
        Stream {
            size: NIL,
            data: Vec::new(),
            pages: Vec::new(),
        }
    }
}

/// An MSF file laid out by hand: where everything goes is given.
#[derive(Clone, Debug)]
pub struct Msf {
    pub block_size: u32,
    /// The active free block map (1 or 2).
    pub fpm: u32,
    /// `NumBlocks` as written.
    pub num_blocks: u32,
    /// Pages written (the file's length over the page size).
    pub file_pages: u32,
    pub block_map: u32,
    pub dir_pages: Vec<u32>,
    pub streams: Vec<Stream>,
    /// Write the active free block map's bits (set: page free), as LLVM does;
    /// DXC leaves both maps zero.
    pub fpm_bits: bool,
}

fn put32(f: &mut [u8], at: usize, v: u32) {
    f[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

impl Msf {
    /// The stream directory's bytes.
    pub fn directory(&self) -> Vec<u8> {
        let mut d = Vec::new();
        d.extend_from_slice(&(self.streams.len() as u32).to_le_bytes());
        for s in &self.streams {
            d.extend_from_slice(&s.size.to_le_bytes());
        }
        for s in &self.streams {
            for p in &s.pages {
                d.extend_from_slice(&p.to_le_bytes());
            }
        }
        d
    }

    /// Where directory byte `o` lies in the file.
    pub fn dir_offset(&self, o: usize) -> usize {
        let bs = self.block_size as usize;
        self.dir_pages[o / bs] as usize * bs + o % bs
    }

    /// Where the directory entry of stream `s`'s `k`-th page lies in the file.
    pub fn page_entry_offset(&self, s: usize, k: usize) -> usize {
        let before: usize = self.streams[..s].iter().map(|s| s.pages.len()).sum();
        self.dir_offset(4 + 4 * self.streams.len() + 4 * (before + k))
    }

    /// Where stream `s`'s size lies in the file.
    pub fn size_offset(&self, s: usize) -> usize {
        self.dir_offset(4 + 4 * s)
    }

    /// Where stream byte `o` of stream `s` lies in the file.
    pub fn stream_offset(&self, s: usize, o: usize) -> usize {
        let bs = self.block_size as usize;
        self.streams[s].pages[o / bs] as usize * bs + o % bs
    }

    /// The file.
    pub fn bytes(&self) -> Vec<u8> {
        let bs = self.block_size as usize;
        let mut f = vec![0u8; self.file_pages as usize * bs];
        let dir = self.directory();
        f[..32].copy_from_slice(MAGIC);
        for (k, v) in [
            self.block_size,
            self.fpm,
            self.num_blocks,
            dir.len() as u32,
            0,
            self.block_map,
        ]
        .into_iter()
        .enumerate()
        {
            put32(&mut f, 32 + 4 * k, v);
        }
        for (k, &p) in self.dir_pages.iter().enumerate() {
            put32(&mut f, self.block_map as usize * bs + 4 * k, p);
        }
        for (k, chunk) in dir.chunks(bs).enumerate() {
            let at = self.dir_pages[k] as usize * bs;
            f[at..at + chunk.len()].copy_from_slice(chunk);
        }
        for s in &self.streams {
            for (k, chunk) in s.data.chunks(bs).enumerate() {
                let at = s.pages[k] as usize * bs;
                f[at..at + chunk.len()].copy_from_slice(chunk);
            }
        }
        if self.fpm_bits {
            let mut used = vec![false; self.num_blocks as usize];
            let mut mark = |p: u32| {
                if let Some(u) = used.get_mut(p as usize) {
                    *u = true;
                }
            };
            mark(0);
            let mut k = 0;
            while k * self.block_size < self.num_blocks {
                mark(k * self.block_size + 1);
                mark(k * self.block_size + 2);
                k += 1;
            }
            mark(self.block_map);
            self.dir_pages.iter().for_each(|&p| mark(p));
            self.streams
                .iter()
                .flat_map(|s| s.pages.iter())
                .for_each(|&p| mark(p));
            // The map's k-th page, at its position in interval k, holds the
            // bits of pages k·8·bs onwards.
            for (i, &u) in used.iter().enumerate() {
                if !u {
                    let page = i / (8 * bs) * bs + self.fpm as usize;
                    f[page * bs + i % (8 * bs) / 8] |= 1 << (i % 8);
                }
            }
        }
        f
    }
}

/// The string hash PDB writers bucket names by (LLVM's `hashStringV1`):
/// the bytes xor-folded as little-endian words, then mixed.
pub fn hash_v1(s: &[u8]) -> u32 {
    let mut r: u32 = 0;
    let words = s.len() / 4;
    for k in 0..words {
        r ^= u32::from_le_bytes([s[4 * k], s[4 * k + 1], s[4 * k + 2], s[4 * k + 3]]);
    }
    let rest = &s[4 * words..];
    let mut i = 0;
    if rest.len() >= 2 {
        r ^= u32::from(u16::from_le_bytes([rest[0], rest[1]]));
        i = 2;
    }
    if rest.len() % 2 == 1 {
        r ^= u32::from(rest[i]);
    }
    r |= 0x2020_2020;
    r ^= r >> 11;
    r ^ (r >> 16)
}

/// A PDB info stream: header, named stream map (`names`: name and stream, put
/// in their hash buckets in this order, `capacity` buckets), `niMac` 0 and the
/// feature codes.
pub fn pdb_info(
    signature: u32,
    age: u32,
    guid: [u8; 16],
    names: &[(&str, u32)],
    capacity: u32,
    features: &[u32],
) -> Vec<u8> {
    let mut d = Vec::new();
    d.extend_from_slice(&20000404u32.to_le_bytes()); // VC70
    d.extend_from_slice(&signature.to_le_bytes());
    d.extend_from_slice(&age.to_le_bytes());
    d.extend_from_slice(&guid);
    let mut strings = Vec::new();
    let mut buckets: Vec<Option<(u32, u32)>> = vec![None; capacity as usize];
    for &(name, stream) in names {
        let off = strings.len() as u32;
        strings.extend_from_slice(name.as_bytes());
        strings.push(0);
        let mut b = (hash_v1(name.as_bytes()) & 0xFFFF) as usize % capacity as usize;
        while buckets[b].is_some() {
            b = (b + 1) % capacity as usize;
        }
        buckets[b] = Some((off, stream));
    }
    d.extend_from_slice(&(strings.len() as u32).to_le_bytes());
    d.extend_from_slice(&strings);
    d.extend_from_slice(&(names.len() as u32).to_le_bytes());
    d.extend_from_slice(&capacity.to_le_bytes());
    let words = capacity.div_ceil(32);
    d.extend_from_slice(&words.to_le_bytes());
    for w in 0..words {
        let mut bits = 0u32;
        for bit in 0..32 {
            if buckets
                .get((w * 32 + bit) as usize)
                .is_some_and(|b| b.is_some())
            {
                bits |= 1 << bit;
            }
        }
        d.extend_from_slice(&bits.to_le_bytes());
    }
    d.extend_from_slice(&0u32.to_le_bytes()); // no deleted bits
    for (off, stream) in buckets.into_iter().flatten() {
        d.extend_from_slice(&off.to_le_bytes());
        d.extend_from_slice(&stream.to_le_bytes());
    }
    d.extend_from_slice(&0u32.to_le_bytes()); // niMac
    for f in features {
        d.extend_from_slice(&f.to_le_bytes());
    }
    d
}

/// The PDB info stream DXC writes: version VC70, signature 0, age 1, the
/// shader hash as the GUID, an empty named stream map (capacity 1), then the
/// two zero words DXC appends.
pub fn dxc_pdb_info(hash: [u8; 16]) -> Vec<u8> {
    let mut d = Vec::new();
    d.extend_from_slice(&20000404u32.to_le_bytes());
    d.extend_from_slice(&0u32.to_le_bytes());
    d.extend_from_slice(&1u32.to_le_bytes());
    d.extend_from_slice(&hash);
    for v in [0u32, 0, 1, 0, 0, 0, 0] {
        d.extend_from_slice(&v.to_le_bytes());
    }
    d
}

/// The digest of a container's HASH part.
pub fn shader_hash(container: &[u8]) -> [u8; 16] {
    let rd = |at: usize| u32::from_le_bytes(container[at..at + 4].try_into().unwrap()) as usize;
    let parts = rd(28);
    for k in 0..parts {
        let off = rd(32 + 4 * k);
        if &container[off..off + 4] == b"HASH" {
            return container[off + 12..off + 28].try_into().unwrap();
        }
    }
    panic!("no HASH part");
}

/// DXC's layout around `container` (see the module docs).
pub fn dxc_layout(container: &[u8]) -> Msf {
    let bs = 512u32;
    let datas = [
        Vec::new(),
        dxc_pdb_info(shader_hash(container)),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        container.to_vec(),
    ];
    let stream_pages: u32 = datas.iter().map(|d| (d.len() as u32).div_ceil(bs)).sum();
    let dir_bytes = 4 + 4 * datas.len() as u32 + 4 * stream_pages;
    let dir_pages = dir_bytes.div_ceil(bs);
    let mut next = 4 + dir_pages;
    let streams = datas
        .into_iter()
        .map(|d| {
            let n = (d.len() as u32).div_ceil(bs);
            let pages = (next..next + n).collect();
            next += n;
            Stream::new(d, pages)
        })
        .collect();
    Msf {
        block_size: bs,
        fpm: 1,
        num_blocks: 3 + stream_pages + dir_pages,
        file_pages: next,
        block_map: 3,
        dir_pages: (4..4 + dir_pages).collect(),
        streams,
        fpm_bits: false,
    }
}

/// A TPI or IPI stream: its header and `records` bytes of type records
/// (`count` records), hash stream `hash` (laid out as [`tpi_hash`] lays it).
pub fn tpi(records: &[u8], count: u32, hash: u16) -> Vec<u8> {
    let mut d = Vec::new();
    for v in [
        20040203u32,
        56,
        0x1000,
        0x1000 + count,
        records.len() as u32,
    ] {
        d.extend_from_slice(&v.to_le_bytes());
    }
    d.extend_from_slice(&hash.to_le_bytes());
    d.extend_from_slice(&0xFFFFu16.to_le_bytes());
    let index = if count > 0 { 8 } else { 0 };
    for v in [4u32, 0x3FFFF, 0, 4 * count, 4 * count, index, 0, 0] {
        d.extend_from_slice(&v.to_le_bytes());
    }
    d.extend_from_slice(records);
    d
}

/// The hash stream of a TPI stream of `count` records: a zero hash value for
/// each, and one index offset (the first record at offset 0).
pub fn tpi_hash(count: u32) -> Vec<u8> {
    let mut d = vec![0u8; 4 * count as usize];
    d.extend_from_slice(&0x1000u32.to_le_bytes());
    d.extend_from_slice(&0u32.to_le_bytes());
    d
}

/// `n` LF_ARGLIST records of two `int` arguments (16 bytes each).
pub fn arglists(n: usize) -> Vec<u8> {
    let mut d = Vec::new();
    for _ in 0..n {
        for v in [14u16, 0x1201] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        for v in [2u32, 0x74, 0x74] {
            d.extend_from_slice(&v.to_le_bytes());
        }
    }
    d
}

/// A DBI stream: header, one module record (`module`, symbols in stream
/// `mod_stream`), a section contribution version word, an empty section map,
/// file info for the one module, an empty EC string table and an optional
/// debug header naming `section_headers`.
pub fn dbi(module: &str, mod_stream: u16, section_headers: u16) -> Vec<u8> {
    let mut modi = Vec::new();
    modi.extend_from_slice(&[0u8; 4]);
    modi.extend_from_slice(&[0u8; 28]);
    modi.extend_from_slice(&0u16.to_le_bytes());
    modi.extend_from_slice(&mod_stream.to_le_bytes());
    modi.extend_from_slice(&4u32.to_le_bytes()); // SymByteSize
    modi.extend_from_slice(&[0u8; 8]);
    modi.extend_from_slice(&[0u8; 4]);
    modi.extend_from_slice(&[0u8; 12]);
    for _ in 0..2 {
        modi.extend_from_slice(module.as_bytes());
        modi.push(0);
    }
    while modi.len() % 4 != 0 {
        modi.push(0);
    }
    let seccontr = (0xEFFE_0000u32 + 19970605).to_le_bytes().to_vec();
    let secmap = vec![0u8; 4];
    // One module, no source files: NumModules, NumSourceFiles, ModIndices[1],
    // ModFileCounts[1].
    let fileinfo = [1u16, 0, 0, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect::<Vec<u8>>();
    let ec = string_table(None);
    let mut dbg = Vec::new();
    for k in 0..11 {
        let v = if k == 5 { section_headers } else { 0xFFFF };
        dbg.extend_from_slice(&v.to_le_bytes());
    }
    let mut d = Vec::new();
    d.extend_from_slice(&(-1i32).to_le_bytes());
    d.extend_from_slice(&19990903u32.to_le_bytes());
    d.extend_from_slice(&1u32.to_le_bytes());
    for v in [0xFFFFu16, 0x8E0B, 0xFFFF, 0, 0xFFFF, 0] {
        d.extend_from_slice(&v.to_le_bytes());
    }
    for v in [
        modi.len() as u32,
        seccontr.len() as u32,
        secmap.len() as u32,
        fileinfo.len() as u32,
        0,
        0,
        dbg.len() as u32,
        ec.len() as u32,
    ] {
        d.extend_from_slice(&v.to_le_bytes());
    }
    d.extend_from_slice(&0u16.to_le_bytes());
    d.extend_from_slice(&0x8664u16.to_le_bytes());
    d.extend_from_slice(&0u32.to_le_bytes());
    for part in [&modi, &seccontr, &secmap, &fileinfo, &ec, &dbg] {
        d.extend_from_slice(part);
    }
    d
}

/// A PDB string table (the `/names` stream, the DBI's EC substream) holding
/// `name` if given: signature, version 1, the buffer (an empty string first),
/// one bucket holding the name's offset, the name count.
pub fn string_table(name: Option<&str>) -> Vec<u8> {
    let mut buf = vec![0u8];
    if let Some(n) = name {
        buf.extend_from_slice(n.as_bytes());
        buf.push(0);
    }
    let count = u32::from(name.is_some());
    let mut d = Vec::new();
    for v in [0xEFFE_EFFEu32, 1, buf.len() as u32] {
        d.extend_from_slice(&v.to_le_bytes());
    }
    d.extend_from_slice(&buf);
    for v in [1u32, count, count] {
        d.extend_from_slice(&v.to_le_bytes());
    }
    d
}

/// The GUID of the scattered PDB.
pub const GUID: [u8; 16] = [
    0x5D, 0x2B, 0x9A, 0x41, 0x7C, 0x03, 0xE2, 0x4B, 0x91, 0x6F, 0x0A, 0x3D, 0x58, 0xC4, 0x27, 0xB6,
];

/// A PDB whose streams and directory are scattered (see [`scattered`]).
pub fn scattered_layout() -> Msf {
    let mut streams = vec![
        // 0: old directory.
        Stream::empty(),
        // 1: PDB info, naming 6, 7, 5 and 12.
        Stream::new(
            pdb_info(
                0x6553_F100,
                2,
                GUID,
                &[
                    ("/names", 6),
                    ("/LinkInfo", 7),
                    ("/dxil/shader", 5),
                    ("/dxil/debug", 12),
                ],
                8,
                &[20140508],
            ),
            vec![20],
        ),
        // 2: TPI, three pages out of order, hash stream 8.
        Stream::new(tpi(&arglists(90), 90, 8), vec![9, 14, 10]),
        // 3: DBI, one module (symbols in 9), section headers in 10.
        Stream::new(dbi("C:\\src\\shader.obj", 9, 10), vec![5]),
        // 4: IPI.
        Stream::new(tpi(&[], 0, 0xFFFF), vec![11]),
        // 5: a DirectX Container over scattered pages.
        Stream::new(DXIL_SHADER.to_vec(), vec![12, 13, 16, 17, 18, 26]),
        // 6: /names.
        Stream::new(string_table(Some("C:\\src\\shader.hlsl")), vec![15]),
        // 7: /LinkInfo, empty.
        Stream::empty(),
        // 8: TPI hash.
        Stream::new(tpi_hash(90), vec![19]),
        // 9: the module's symbols: CodeView signature 4, no symbols, no lines,
        // no global references.
        Stream::new(
            [4u32, 0].iter().flat_map(|v| v.to_le_bytes()).collect(),
            vec![21],
        ),
        // 10: section headers (one, .text).
        Stream::new(
            {
                let mut h = b".text\0\0\0".to_vec();
                h.resize(40, 0);
                h
            },
            vec![22],
        ),
        // 11: nil.
        Stream::nil(),
        // 12: the debug container, in one page.
        Stream::new(DEBUG_CONTAINER.to_vec(), vec![27]),
    ];
    // Empty streams enough to spread the directory over two pages.
    streams.extend((0..120).map(|_| Stream::empty()));
    Msf {
        block_size: 512,
        fpm: 2,
        num_blocks: 30,
        file_pages: 30,
        block_map: 4,
        dir_pages: vec![24, 8],
        streams,
        fpm_bits: true,
    }
}

/// DXC's shader PDB around its debug container.
pub fn dxc_debug_container() -> Vec<u8> {
    dxc_layout(DEBUG_CONTAINER).bytes()
}

/// DXC's layout around a DXIL shader spanning several pages.
pub fn dxc_dxil_shader() -> Vec<u8> {
    dxc_layout(DXIL_SHADER).bytes()
}

/// A PDB with scattered streams and directory: out-of-order pages, a
/// DirectX Container over scattered pages, one in a single page, a nil
/// stream, free pages, free block map 2 active.
pub fn scattered() -> Vec<u8> {
    scattered_layout().bytes()
}

/// The DXIL shader's PDB cut 100 bytes into the container's third page.
pub fn damaged_truncated() -> Vec<u8> {
    let m = dxc_layout(DXIL_SHADER);
    let mut f = m.bytes();
    f.truncate(m.streams[5].pages[2] as usize * 512 + 100);
    f
}

/// NumStreams 0x40000000 in a directory of 36 bytes.
pub fn damaged_stream_count() -> Vec<u8> {
    let m = dxc_layout(DEBUG_CONTAINER);
    let mut f = m.bytes();
    put32(&mut f, m.dir_offset(0), 0x4000_0000);
    f
}

/// NumDirectoryBytes 4 short: stream 5's page number is cut off.
pub fn damaged_directory_short() -> Vec<u8> {
    let m = dxc_layout(DEBUG_CONTAINER);
    let mut f = m.bytes();
    let n = m.directory().len() as u32 - 4;
    put32(&mut f, 44, n);
    f
}

/// The scattered PDB with stream 2's second page 9999 (past NumBlocks and the
/// file) and stream 6's page 30 (just past the end of the file).
pub fn damaged_page_out_of_range() -> Vec<u8> {
    let m = scattered_layout();
    let mut f = m.bytes();
    put32(&mut f, m.page_entry_offset(2, 1), 9999);
    put32(&mut f, m.page_entry_offset(6, 0), 30);
    f
}

/// The scattered PDB with pages claimed twice: stream 8 uses the directory's
/// own first page (the directory describes itself), stream 9 the block map,
/// stream 10 page 0, stream 4 (grown to two pages) lists page 11 twice, and
/// stream 6 uses stream 2's first page.
pub fn damaged_cyclic_pages() -> Vec<u8> {
    let mut m = scattered_layout();
    let mut ipi = m.streams[4].data.clone();
    ipi.resize(600, 0);
    m.streams[4] = Stream::new(ipi, vec![11, 3]);
    let mut f = m.bytes();
    put32(&mut f, m.page_entry_offset(4, 1), 11);
    put32(&mut f, m.page_entry_offset(8, 0), 24);
    put32(&mut f, m.page_entry_offset(9, 0), 4);
    put32(&mut f, m.page_entry_offset(10, 0), 0);
    put32(&mut f, m.page_entry_offset(6, 0), 9);
    f
}

/// Stream 5 claims 0x7FFFFFF0 bytes: 4,194,304 page numbers the directory
/// does not hold.
pub fn damaged_hostile_size() -> Vec<u8> {
    let m = dxc_layout(DEBUG_CONTAINER);
    let mut f = m.bytes();
    put32(&mut f, m.size_offset(5), 0x7FFF_FFF0);
    f
}

/// A superblock with page size 1000: nothing past it can be read.
pub fn damaged_block_size() -> Vec<u8> {
    let mut f = dxc_debug_container();
    put32(&mut f, 32, 1000);
    f
}

/// Free block map 7, and a block map whose second directory page is page 0.
pub fn damaged_block_map() -> Vec<u8> {
    let m = scattered_layout();
    let mut f = m.bytes();
    put32(&mut f, 36, 7);
    put32(&mut f, 4 * 512 + 4, 0);
    f
}

/// The scattered PDB's named stream map with a name for stream 500 and a
/// table size the present bits disagree with.
pub fn damaged_named_map() -> Vec<u8> {
    let m = scattered_layout();
    let mut f = m.bytes();
    let info = &m.streams[1].data;
    // The entries follow the header, the names, Size, Capacity, one present
    // word and the (empty) deleted words: find the "/dxil/debug" entry (12).
    let strlen = u32::from_le_bytes(info[28..32].try_into().unwrap()) as usize;
    let size_at = 32 + strlen;
    put32(&mut f, m.stream_offset(1, size_at), 5);
    let entries = size_at + 8 + 8 + 4;
    for e in 0..4 {
        let at = entries + 8 * e + 4;
        if u32::from_le_bytes(info[at..at + 4].try_into().unwrap()) == 12 {
            put32(&mut f, m.stream_offset(1, at), 500);
        }
    }
    f
}

/// Every fixture, by file name.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("dxc_debug_container.pdb", dxc_debug_container()),
        ("dxc_dxil_shader.pdb", dxc_dxil_shader()),
        ("scattered.pdb", scattered()),
        ("damaged_truncated.pdb", damaged_truncated()),
        ("damaged_stream_count.pdb", damaged_stream_count()),
        ("damaged_directory_short.pdb", damaged_directory_short()),
        ("damaged_page_out_of_range.pdb", damaged_page_out_of_range()),
        ("damaged_cyclic_pages.pdb", damaged_cyclic_pages()),
        ("damaged_hostile_size.pdb", damaged_hostile_size()),
        ("damaged_block_size.pdb", damaged_block_size()),
        ("damaged_block_map.pdb", damaged_block_map()),
        ("damaged_named_map.pdb", damaged_named_map()),
    ]
}
