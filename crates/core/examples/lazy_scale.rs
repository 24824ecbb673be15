//! Benchmark: lazy decoding of a DirectX Container whose DXIL part is huge.
//!
//! ```text
//! cargo run --release -p hexlens-core --example lazy_scale [--dump] [MiB ...]
//! ```
//! `--dump` also prints each decoded tree; `--signed` gives the container a
//! non-zero digest, so its checksum is computed (and found wrong) over the file.
//!
//! `--records N` instead measures the one cost laziness cannot avoid: expanding a
//! single block that holds `N` records directly (not in sub-blocks) decodes them
//! all at once. It prints the stream size, the nodes made and the peak memory.
//! For each size (default 64 and 1024 MiB) it builds, without allocating the
//! file, a container holding one DXIL part: a module with one record and one
//! function block whose body fills the part. It decodes it with a 1 MiB lazy
//! threshold and prints the time, the node count, the bytes the decoders read and
//! the peak resident memory. The bitstream decoder skips the function block by its
//! length word; the container checksum (MD5 over the whole file, read in 64 KiB
//! chunks) is the only cost that grows with the size.

use hexlens_core::{decode_with, ByteSource, Options};
use std::cell::Cell;
use std::time::Instant;

/// A file of `len` bytes: `head`, then zeros. Counts the bytes read.
struct Virtual {
    head: Vec<u8>,
    len: u64,
    read: Cell<u64>,
}

impl ByteSource for Virtual {
    fn len(&self) -> u64 {
        self.len
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        let n = self.len.saturating_sub(offset).min(buf.len() as u64) as usize;
        buf[..n].fill(0);
        if let Some(h) = usize::try_from(offset)
            .ok()
            .and_then(|o| self.head.get(o..))
        {
            let k = h.len().min(n);
            buf[..k].copy_from_slice(&h[..k]);
        }
        self.read.set(self.read.get() + n as u64);
        n
    }
}

/// Bits written least significant first, as LLVM writes them.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    bit: u64,
}

impl Bits {
    fn fixed(&mut self, v: u64, width: u64) {
        for i in 0..width {
            if self.bit.is_multiple_of(8) {
                self.out.push(0);
            }
            if (v >> i) & 1 == 1 {
                *self.out.last_mut().expect("pushed") |= 1 << (self.bit % 8);
            }
            self.bit += 1;
        }
    }
    fn vbr(&mut self, mut v: u64, width: u64) {
        let hi = 1 << (width - 1);
        loop {
            let chunk = v & (hi - 1);
            v >>= width - 1;
            if v == 0 {
                return self.fixed(chunk, width);
            }
            self.fixed(chunk | hi, width);
        }
    }
    fn align32(&mut self) {
        while !self.bit.is_multiple_of(32) {
            self.fixed(0, 1);
        }
    }
}

/// A container of `total` bytes with one DXIL part filling it.
fn container(total: u64, signed: bool) -> Virtual {
    const HEADER: u64 = 32 + 4; // container header + one part offset
    const PART: u64 = 8; // part header
    const PROGRAM: u64 = 24; // program header + bitcode header
    let bitcode_len = total - HEADER - PART - PROGRAM;
    let mut bc = Bits::default();
    for &c in b"BC\xC0\xDE" {
        bc.fixed(c as u64, 8);
    }
    // MODULE_BLOCK, abbrev width 3; its NumWords is patched below.
    bc.fixed(1, 2);
    bc.vbr(8, 8);
    bc.vbr(3, 4);
    bc.align32();
    bc.fixed((bitcode_len - 12) / 4, 32);
    // MODULE_CODE_VERSION 2, unabbreviated.
    bc.fixed(3, 3);
    bc.vbr(1, 6);
    bc.vbr(1, 6);
    bc.vbr(2, 6);
    // FUNCTION_BLOCK, abbrev width 4, filling the rest but the module's END_BLOCK.
    bc.fixed(1, 3);
    bc.vbr(12, 8);
    bc.vbr(4, 4);
    bc.align32();
    let words = (bitcode_len - bc.out.len() as u64 - 4 - 4) / 4;
    bc.fixed(words, 32);

    let mut h = Vec::new();
    h.extend_from_slice(b"DXBC");
    h.extend_from_slice(&[signed as u8; 16]);
    h.extend_from_slice(&1u16.to_le_bytes());
    h.extend_from_slice(&0u16.to_le_bytes());
    h.extend_from_slice(&(total as u32).to_le_bytes());
    h.extend_from_slice(&1u32.to_le_bytes());
    h.extend_from_slice(&(HEADER as u32).to_le_bytes());
    h.extend_from_slice(b"DXIL");
    let part = total - HEADER - PART;
    h.extend_from_slice(&(part as u32).to_le_bytes());
    h.push(0x60); // shader model 6.0
    h.push(0);
    h.extend_from_slice(&1u16.to_le_bytes()); // vertex shader
    h.extend_from_slice(&((part / 4) as u32).to_le_bytes());
    h.extend_from_slice(b"DXIL");
    h.extend_from_slice(&[0, 1, 0, 0]);
    h.extend_from_slice(&16u32.to_le_bytes());
    h.extend_from_slice(&(bitcode_len as u32).to_le_bytes());
    h.extend_from_slice(&bc.out);
    Virtual {
        head: h,
        len: total,
        read: Cell::new(0),
    }
}

/// Peak resident memory of this process in KiB (Linux), if known.
fn peak_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A raw bitcode stream: a module holding one function block of `n` records
/// (`INST_CALL`-like, three small operands each, unabbreviated).
fn many_records(n: u64) -> Vec<u8> {
    let mut bc = Bits::default();
    for &c in b"BC\xC0\xDE" {
        bc.fixed(c as u64, 8);
    }
    bc.fixed(1, 2);
    bc.vbr(8, 8);
    bc.vbr(3, 4);
    bc.align32();
    let module_words = bc.out.len();
    bc.fixed(0, 32);
    bc.fixed(1, 3);
    bc.vbr(12, 8);
    bc.vbr(4, 4);
    bc.align32();
    let function_words = bc.out.len();
    bc.fixed(0, 32);
    for i in 0..n {
        bc.fixed(3, 4);
        bc.vbr(34, 6);
        bc.vbr(3, 6);
        bc.vbr(i % 31, 6);
        bc.vbr(i % 17, 6);
        bc.vbr(i % 5, 6);
    }
    bc.fixed(0, 4);
    bc.align32();
    let w = ((bc.out.len() - function_words - 4) / 4) as u32;
    bc.out[function_words..function_words + 4].copy_from_slice(&w.to_le_bytes());
    bc.fixed(0, 3);
    bc.align32();
    let w = ((bc.out.len() - module_words - 4) / 4) as u32;
    bc.out[module_words..module_words + 4].copy_from_slice(&w.to_le_bytes());
    bc.out
}

fn expand_many(n: u64) {
    let bytes = many_records(n);
    let src: &[u8] = &bytes;
    let started = Instant::now();
    let mut d = decode_with(
        &src,
        &Options {
            lazy_threshold: Some(1 << 10),
            ..Default::default()
        },
    );
    let lazy_nodes = d.tree.len();
    let id = (0..d.tree.len() as u32)
        .find(|&i| d.tree.node(i).lazy)
        .expect("the function block is lazy");
    let r = hexlens_core::expand(&src, &mut d.tree, id).expect("expands");
    println!(
        "{n} records in one block ({} KiB of bitcode): {lazy_nodes} nodes before expanding, {} made by expanding it, {:.2?}, peak RSS {} MiB",
        bytes.len() >> 10,
        r.end - r.start,
        started.elapsed(),
        peak_kib().map_or("?".into(), |k| (k >> 10).to_string()),
    );
}

fn main() {
    let mut args = std::env::args().skip_while(|a| a != "--records");
    if args.next().is_some() {
        let n = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
        return expand_many(n);
    }
    let dump = std::env::args().any(|a| a == "--dump");
    let signed = std::env::args().any(|a| a == "--signed");
    let sizes: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![64, 1024]
    } else {
        sizes
    };
    for mib in sizes {
        let total = (mib << 20).min(u32::MAX as u64 & !3);
        let src = container(total, signed);
        let started = Instant::now();
        let d = decode_with(
            &src,
            &Options {
                lazy_threshold: Some(1 << 20),
                ..Default::default()
            },
        );
        let took = started.elapsed();
        let lazy = d.tree.lazy_count();
        if dump {
            print!("{}", hexlens_core::output::to_text(&d));
        }
        println!(
            "{mib} MiB container: {took:.2?}, {} nodes ({lazy} lazy), {} errors, {} MiB read (checksums included), peak RSS {} MiB",
            d.tree.len(),
            d.tree.errors().len(),
            src.read.get() >> 20,
            peak_kib().map_or("?".into(), |k| (k >> 10).to_string()),
        );
    }
}
