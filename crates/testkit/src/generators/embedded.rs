//! Generator of files that hold containers of the known formats among bytes no
//! decoder recognises: an effect-like file (an FXC `fx_5_0`-style header, then
//! shaders each after its `u32` size, as effect files store them), a file with
//! a container of every format between runs of filler, and a damaged one
//! (containers whose headers claim more than the file holds, signatures in
//! text). Each comes with the containers planted in it, where and how long.
//!
//! The containers are real files: the samples in `static/samples/`, the
//! fixtures in `tests/fixtures/` (a PDB LLVM wrote, the compiled cDAC blob),
//! and the DXIL bitcode taken out of a sample's DXIL part (and wrapped in a
//! bitcode wrapper header written here). The filler never holds a byte a
//! signature starts with, so what a scan finds is exactly what was planted.
//! The core's `embedded_generated.rs` checks the files in `tests/fixtures/embedded/`
//! are what this generator makes (`HEXLENS_BLESS=1` rewrites them).

use crate::repo;
use std::path::PathBuf;

/// The bytes of `rel`, a path below the repository root.
fn read(rel: &str) -> Vec<u8> {
    let p = repo::root().join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The fixture directory.
pub fn dir() -> PathBuf {
    repo::fixtures().join("embedded")
}

/// A container planted in a file: its offset, length and decoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Planted {
    pub offset: u64,
    pub len: u64,
    pub format: &'static str,
}

/// A file being put together.
struct File {
    bytes: Vec<u8>,
    planted: Vec<Planted>,
    seed: u64,
}

impl File {
    fn new(seed: u64) -> Self {
        File {
            bytes: Vec::new(),
            planted: Vec::new(),
            seed,
        }
    }

    /// `n` bytes of filler: 0x80–0xFF less 0xDE, so no signature starts in it
    /// (they start with `D`, `B`, `L`, `l`, `M`, 0x00, 0x7F or 0xDE).
    fn filler(&mut self, n: usize) {
        for _ in 0..n {
            self.seed ^= self.seed << 13;
            self.seed ^= self.seed >> 7;
            self.seed ^= self.seed << 17;
            let b = 0x80 | (self.seed >> 24) as u8;
            self.bytes.push(if b == 0xDE { 0xDF } else { b });
        }
    }

    fn raw(&mut self, b: &[u8]) {
        self.bytes.extend_from_slice(b);
    }

    /// A container the scan must find.
    fn plant(&mut self, b: &[u8], format: &'static str) {
        self.planted.push(Planted {
            offset: self.bytes.len() as u64,
            len: b.len() as u64,
            format,
        });
        self.raw(b);
    }
}

fn u32_at(b: &[u8], i: usize) -> usize {
    u32::from_le_bytes(b[i..i + 4].try_into().unwrap()) as usize
}

/// The bitcode of the DXIL part of DirectX Container `c`.
pub fn dxil_bitcode(c: &[u8]) -> Vec<u8> {
    let parts = u32_at(c, 28);
    for i in 0..parts {
        let at = u32_at(c, 32 + 4 * i);
        if &c[at..at + 4] == b"DXIL" {
            // Part data: version, size in dwords, "DXIL", DXIL version, then
            // the bitcode's offset (from the "DXIL" magic) and size.
            let data = at + 8;
            let off = u32_at(c, data + 16);
            let size = u32_at(c, data + 20);
            return c[data + 8 + off..data + 8 + off + size].to_vec();
        }
    }
    panic!("no DXIL part")
}

/// `bc` in a bitcode wrapper header (magic, version 0, offset 20, size,
/// CPU type x86-64).
pub fn wrapped(bc: &[u8]) -> Vec<u8> {
    let mut v = Vec::new();
    for w in [0x0B17_C0DEu32, 0, 20, bc.len() as u32, 0x0100_0007] {
        v.extend_from_slice(&w.to_le_bytes());
    }
    v.extend_from_slice(bc);
    v
}

const DXBC: &str = "static/samples/d3d12_shaders_L2434_ps_dmax_code.dxbc";
const DXBC_RS: &str = "static/samples/embedded_rs_vs_space0_code_dxbc.dxbc";
const DXIL: &str = "static/samples/basic_code_dxil.dxil.dxbc";

/// An effect-like file: a 64-byte header (the `fx_5_0` tag, counts), then
/// three shaders each after its `u32` size, then a tail.
pub fn effect() -> (Vec<u8>, Vec<Planted>) {
    let mut f = File::new(0x5EED_0001);
    f.raw(&0xFEFF_2001u32.to_le_bytes());
    f.filler(60);
    for path in [DXBC, DXBC_RS, DXIL] {
        let shader = read(path);
        f.raw(&(shader.len() as u32).to_le_bytes());
        f.plant(&shader, "dxcontainer");
    }
    f.filler(40);
    (f.bytes, f.planted)
}

/// One container of every format, with filler between (none between two).
pub fn every_format() -> (Vec<u8>, Vec<Planted>) {
    let dxil = read(DXIL);
    let bc = dxil_bitcode(&dxil);
    let wrapper = wrapped(&bc);
    let mut f = File::new(0x5EED_0002);
    f.filler(300);
    f.plant(&read(DXBC), "dxcontainer");
    f.plant(&dxil, "dxcontainer");
    f.filler(7);
    f.plant(&bc, "bitcode");
    f.filler(33);
    f.plant(&wrapper, "bitcode");
    // Zeros to a 16-byte boundary, as Darwin's tools pad a wrapped file:
    // not the wrapper's.
    let pad = (16 - wrapper.len() % 16) % 16;
    f.raw(&vec![0; pad]);
    f.filler(129);
    f.plant(&read("static/samples/rev5_llvm14.bc"), "llvm1-bytecode");
    f.filler(64);
    f.plant(&read("static/samples/writer_le.dyno"), "chapel-dyno");
    f.filler(5);
    f.plant(&read("tests/fixtures/msf/llvm_minimal.pdb"), "msf");
    f.filler(1000);
    f.plant(&read("tests/fixtures/cdac/x86_64-blob.bin"), "cdac");
    f.filler(11);
    (f.bytes, f.planted)
}

/// Damaged containers among good ones: signatures in text, a DXBC header
/// whose part offsets point into its header, raw bitcode whose second block is
/// cut (found with its first block), a wrapper pointing past the file, and a
/// container cut by the end of the file (neither found: what a header claims
/// must fit the file).
pub fn damaged() -> (Vec<u8>, Vec<Planted>) {
    let dxbc = read(DXBC);
    let bc = dxil_bitcode(&read(DXIL));
    let mut f = File::new(0x5EED_0003);
    f.raw(b"Shaders: DXBC, DXIL (BC\xC0\xDE); llvm; \x7FLIBCHPL; MSF.");
    f.filler(20);
    let mut bad = dxbc.clone();
    bad[32..36].copy_from_slice(&8u32.to_le_bytes());
    f.raw(&bad);
    f.filler(3);
    f.plant(&dxbc, "dxcontainer");
    f.filler(17);
    // An identification block, then a module block cut after 40 bytes.
    let ident = identification_block();
    let mut cut = b"BC\xC0\xDE".to_vec();
    cut.extend_from_slice(&ident);
    f.plant(&cut, "bitcode");
    f.raw(&bc[4..44]);
    f.filler(50);
    // A wrapper whose size reaches past the end, cut after 44 bytes of its
    // bitcode (whose module block claims more than the rest of the file).
    let mut far = wrapped(&bc);
    far[12..16].copy_from_slice(&(1u32 << 30).to_le_bytes());
    f.raw(&far[..64]);
    f.filler(50);
    f.raw(&dxbc[..dxbc.len() - 10]);
    (f.bytes, f.planted)
}

/// A top-level IDENTIFICATION block (id 13, abbreviation width 5) of two
/// words holding nothing but an END_BLOCK: written bit by bit.
pub fn identification_block() -> Vec<u8> {
    // abbrev 1 (2 bits), id 13 as vbr8, width 5 as vbr4, align to 32, then
    // the length word; the body: END_BLOCK (abbrev 0, 5 bits), align.
    let header: u32 = 1 | (13 << 2) | (5 << 10);
    let mut v = header.to_le_bytes().to_vec();
    v.extend_from_slice(&1u32.to_le_bytes());
    v.extend_from_slice(&0u32.to_le_bytes());
    v
}

/// Every fixture with what was planted in it.
pub fn all() -> Vec<(&'static str, Vec<u8>, Vec<Planted>)> {
    let mut v = Vec::new();
    for (name, (bytes, planted)) in [
        ("effect.fxo", effect()),
        ("every_format.bin", every_format()),
        ("damaged.bin", damaged()),
    ] {
        v.push((name, bytes, planted));
    }
    v
}
