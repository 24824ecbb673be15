//! Generator of .NET cDAC data descriptors: the damaged fixtures, made from the
//! compiled ones in `tests/fixtures/cdac/` (which `generators/cdac/build.sh`
//! beside this file compiles from the hexlens project's own C descriptor), and
//! large standalone blobs ([`dense`]).
//!
//! Each damaged variant changes a few bytes of a good blob (or cuts it) at
//! offsets taken from the layout in `specs/cdac-data-descriptor.md`: the
//! directory starts 8 bytes into the blob, its 11 `u32` words then 4 `u8` spec
//! sizes. The core's `cdac_fixtures.rs` checks the files in
//! `tests/fixtures/cdac/` are what this generator makes (`HEXLENS_BLESS=1`
//! rewrites them).
//!
//! The dense blob follows the runtime writer's layout
//! (`specs/notes/cdac-layout.md`): the `DACBLOB\0` magic, the 48-byte directory,
//! platform flags and baseline name, the type specs, the field pool (placeholder
//! entry, each type's run ended by a zero entry), global literals and pointers,
//! the names pool and the end magic. Little-endian, spec sizes padded as
//! compilers pad them (12, 12, 16, 8), tables 8-byte aligned.

use std::path::PathBuf;

/// The fixture directory.
pub fn dir() -> PathBuf {
    crate::repo::fixtures().join("cdac")
}

/// The folder of the C descriptor and `build.sh` that compiles it.
pub fn source_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/generators/cdac")
}

/// A compiled fixture's bytes.
pub fn compiled(name: &str) -> Vec<u8> {
    let p = dir().join(name);
    std::fs::read(&p).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run crates/testkit/src/generators/cdac/build.sh)",
            p.display()
        )
    })
}

/// Offset of the first directory word in a blob that starts at 0.
pub const DIR: usize = 8;

/// Directory word `i` (0 = FlagsAndBaselineStart … 10 = NamesPoolCount).
pub fn word_at(i: usize) -> usize {
    DIR + 4 * i
}

/// Spec-size byte `i` (0 = TypeSpecSize … 3 = GlobalPointerSpecSize).
pub fn size_at(i: usize) -> usize {
    DIR + 44 + i
}

fn get32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn put32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Absolute offset of a table whose directory word is `i`, in a blob at 0.
fn table(b: &[u8], i: usize) -> usize {
    DIR + get32(b, word_at(i)) as usize
}

/// The little-endian standalone blob (x86_64, runtime layout).
pub fn good_blob() -> Vec<u8> {
    compiled("x86_64-blob.bin")
}

/// Cut in the middle of the field pool.
pub fn truncated_blob() -> Vec<u8> {
    let b = good_blob();
    let cut = table(&b, 2) + 4 * 12 + 5;
    b[..cut].to_vec()
}

/// TypesStart far past the end, NamesStart inside the directory, and the global
/// pointers starting inside the global literals.
pub fn bad_offsets_blob() -> Vec<u8> {
    let mut b = good_blob();
    put32(&mut b, word_at(1), 0x7FFF_0000);
    put32(&mut b, word_at(5), 8);
    let lit = get32(&b, word_at(3));
    put32(&mut b, word_at(4), lit + 8);
    b
}

/// The end magic reads 01 02 03 05.
pub fn wrong_end_magic_blob() -> Vec<u8> {
    let mut b = good_blob();
    let end = table(&b, 5) + get32(&b, word_at(10)) as usize;
    b[end + 3] = 0x05;
    b
}

/// Every count is 0xFFFFFFFF.
pub fn hostile_counts_blob() -> Vec<u8> {
    let mut b = good_blob();
    for i in 6..=10 {
        put32(&mut b, word_at(i), u32::MAX);
    }
    b
}

/// Damage inside the tables: a type name past the names pool, a field run index
/// past the field pool, a run that starts inside another type's run, a global
/// without a name, a names pool that does not start with the empty name, and a
/// last name without its NUL.
pub fn bad_names_blob() -> Vec<u8> {
    let mut b = good_blob();
    let types = table(&b, 1);
    let ts = b[size_at(0)] as usize;
    put32(&mut b, types, 0x7000); // Types[0].Name
    put32(&mut b, types + ts + 4, 200); // Types[1].Fields
    put32(&mut b, types + 3 * ts + 4, 2); // Types[3].Fields: inside Lens's run
    let lits = table(&b, 3);
    let ls = b[size_at(2)] as usize;
    put32(&mut b, lits + ls, 0); // GlobalLiteralValues[1].Name
    let names = table(&b, 5);
    let count = get32(&b, word_at(10)) as usize;
    b[names] = b'X';
    // "...ActiveCatalog\0\0" -> "...ActiveCatalogZZ"
    b[names + count - 2] = b'Z';
    b[names + count - 1] = b'Z';
    b
}

/// FieldSpecSize 4 (smaller than a FieldSpec) and TypeSpecSize 0.
pub fn small_spec_sizes_blob() -> Vec<u8> {
    let mut b = good_blob();
    b[size_at(0)] = 0;
    b[size_at(1)] = 4;
    b
}

/// The little-endian blob, 16 bytes of other data, then the big-endian one.
pub fn two_blobs() -> Vec<u8> {
    let mut b = good_blob();
    b.extend_from_slice(b"hexlens-spacer!!");
    b.extend_from_slice(&compiled("s390x-blob.bin"));
    b
}

/// Offset of the blob in `x86_64-linux.o` (the start of its .rodata).
pub fn elf_blob_offset(elf: &[u8]) -> usize {
    elf.windows(8)
        .position(|w| w == b"DACBLOB\0")
        .expect("magic in the ELF fixture")
}

/// The x86_64 ELF object cut inside the blob: the section headers at the end of
/// the file are gone too.
pub fn truncated_elf() -> Vec<u8> {
    let e = compiled("x86_64-linux.o");
    let at = elf_blob_offset(&e) + 0x200;
    e[..at].to_vec()
}

/// The x86_64 ELF object whose blob claims 4096 more name bytes than its section
/// holds.
pub fn overrunning_elf() -> Vec<u8> {
    let mut e = compiled("x86_64-linux.o");
    let m = elf_blob_offset(&e);
    let at = m + word_at(10);
    let v = get32(&e, at);
    put32(&mut e, at, v + 4096);
    e
}

/// Every damaged fixture: (file name, bytes).
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("damaged-truncated-blob.bin", truncated_blob()),
        ("damaged-bad-offsets-blob.bin", bad_offsets_blob()),
        ("damaged-wrong-end-magic-blob.bin", wrong_end_magic_blob()),
        ("damaged-hostile-counts-blob.bin", hostile_counts_blob()),
        ("damaged-bad-names-blob.bin", bad_names_blob()),
        ("damaged-small-spec-sizes-blob.bin", small_spec_sizes_blob()),
        ("two-blobs.bin", two_blobs()),
        ("damaged-x86_64-linux-truncated.o", truncated_elf()),
        ("damaged-x86_64-linux-overrun.o", overrunning_elf()),
    ]
}

/// The compiled fixtures (written by build.sh, not by this generator).
pub const COMPILED: &[&str] = &[
    "x86_64-linux.o",
    "x86_64-linux-sample-layout.o",
    "s390x-linux.o",
    "powerpc64-linux-sample-layout.o",
    "i386-linux.o",
    "x86_64-windows.obj",
    "x86_64-windows.dll",
    "x86_64-macos.o",
    "wasm32.o",
    "x86_64-blob.bin",
    "s390x-blob.bin",
];

// ----- dense blobs -----

/// Field names the generated types draw from (shared through the names pool, as
/// the runtime's types share field names).
const FIELD_NAMES: &[&str] = &[
    "m_pNext",
    "m_pPrev",
    "m_Flags",
    "m_dwSize",
    "m_pMethodTable",
    "m_Count",
    "m_pData",
    "m_Handle",
    "m_pThread",
    "m_State",
    "m_pModule",
    "m_Token",
];

/// The names pool under construction: offsets of names already added.
struct Names {
    pool: Vec<u8>,
}

impl Names {
    fn add(&mut self, s: &str) -> u32 {
        let at = self.pool.len() as u32;
        self.pool.extend_from_slice(s.as_bytes());
        self.pool.push(0);
        at
    }
}

fn align8(v: &mut Vec<u8>, base: usize) {
    while !(v.len() - base).is_multiple_of(8) {
        v.push(0);
    }
}

/// A large standalone blob in the runtime writer's layout, for the benchmarks
/// and the scale tests: `types` type specs with 1 to 8 fields each, `types / 4`
/// global literals and `types / 8` global pointers.
pub fn dense(types: usize) -> Vec<u8> {
    let mut names = Names { pool: vec![0] };
    let baseline = names.add("net10.0/coreclr/linux-x64");
    let field_names: Vec<u32> = FIELD_NAMES.iter().map(|n| names.add(n)).collect();
    let primitive: Vec<u32> = ["uint8", "uint16", "uint32", "uint64", "pointer", "nuint"]
        .iter()
        .map(|n| names.add(n))
        .collect();
    let type_names: Vec<u32> = (0..types).map(|i| names.add(&format!("Type{i}"))).collect();

    // Type specs and the field pool.
    let mut type_specs = Vec::with_capacity(types * 12);
    let mut field_pool = vec![0u8; 12]; // entry 0: placeholder
    let mut field_count = 1u32;
    for (i, &name) in type_names.iter().enumerate() {
        let nfields = 1 + (i * 7 + 3) % 8;
        type_specs.extend_from_slice(&name.to_le_bytes());
        type_specs.extend_from_slice(&field_count.to_le_bytes());
        type_specs.extend_from_slice(&((nfields * 8) as u16).to_le_bytes());
        type_specs.extend_from_slice(&[0; 2]);
        for f in 0..nfields {
            let fname = field_names[(i + f) % field_names.len()];
            // Field types: a primitive, or (every fifth) another generated type.
            let ftype = if f % 5 == 4 {
                type_names[(i * 31 + f) % types]
            } else {
                primitive[(i + f) % primitive.len()]
            };
            field_pool.extend_from_slice(&fname.to_le_bytes());
            field_pool.extend_from_slice(&ftype.to_le_bytes());
            field_pool.extend_from_slice(&((f * 8) as u16).to_le_bytes());
            field_pool.extend_from_slice(&[0; 2]);
        }
        field_pool.extend_from_slice(&[0; 12]); // end of this type's run
        field_count += nfields as u32 + 1;
    }

    let nliterals = types / 4;
    let mut literals = Vec::with_capacity(nliterals * 16);
    for i in 0..nliterals {
        let name = names.add(&format!("Literal{i}"));
        literals.extend_from_slice(&name.to_le_bytes());
        literals.extend_from_slice(&primitive[i % primitive.len()].to_le_bytes());
        literals.extend_from_slice(&(i as u64 * 0x1_0001).to_le_bytes());
    }
    let npointers = types / 8;
    let mut pointers = Vec::with_capacity(npointers * 8);
    for i in 0..npointers {
        let name = names.add(&format!("g_Pointer{i}"));
        pointers.extend_from_slice(&name.to_le_bytes());
        pointers.extend_from_slice(&(i as u32).to_le_bytes());
    }
    names.pool.push(0); // the runtime's extra trailing NUL

    // Layout: magic, directory, flags + baseline, then each table 8-aligned.
    let mut out = b"DACBLOB\0".to_vec();
    let base = out.len();
    out.extend_from_slice(&[0; 48]);
    out.extend_from_slice(&1u32.to_le_bytes()); // PlatformFlags
    out.extend_from_slice(&baseline.to_le_bytes());
    let place = |out: &mut Vec<u8>, data: &[u8]| {
        align8(out, base);
        let at = (out.len() - base) as u32;
        out.extend_from_slice(data);
        at
    };
    let types_at = place(&mut out, &type_specs);
    let fields_at = place(&mut out, &field_pool);
    let literals_at = place(&mut out, &literals);
    let pointers_at = place(&mut out, &pointers);
    let names_at = place(&mut out, &names.pool);
    out.extend_from_slice(&[1, 2, 3, 4]);

    let mut dir = Vec::with_capacity(48);
    for v in [
        48,
        types_at,
        fields_at,
        literals_at,
        pointers_at,
        names_at,
        types as u32,
        field_count,
        nliterals as u32,
        npointers as u32,
        names.pool.len() as u32,
    ] {
        dir.extend_from_slice(&v.to_le_bytes());
    }
    dir.extend_from_slice(&[12, 12, 16, 8]);
    out[base..base + 48].copy_from_slice(&dir);
    out
}
