//! Generator of DirectX Container test fixtures that no compiler in our corpus
//! writes: the proposed SYM0/STR0 parts, a PSV0 v0 part, and damaged containers
//! (hostile counts, offsets into the header or past the end, overlapping and
//! truncated parts, unterminated strings).
//!
//! Every fixture is built from the layouts in `specs/dxcontainer.md` and
//! `specs/dxcontainer-sym0-str0-proposal.md`. `tests/dxcontainer_generated.rs`
//! checks the files in `tests/fixtures/generated/` are what this generator makes
//! (`HEXLENS_BLESS=1` rewrites them) and what hexlens decodes from them.

#![allow(dead_code)]

/// A string that must be shown as text, never interpreted as HTML.
pub const XSS_NAME: &str = "<img src=x onerror=alert(1)>";

fn u16le(v: u16) -> [u8; 2] {
    v.to_le_bytes()
}
fn u32le(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

/// A part: FourCC and data (the 8-byte part header is added by [`container`]).
pub struct Part {
    pub name: [u8; 4],
    pub data: Vec<u8>,
}

pub fn part(name: &[u8; 4], data: Vec<u8>) -> Part {
    Part { name: *name, data }
}

/// Lays out a container: header, part offsets, then each part (header + data) in
/// order, with a zero digest and the real file size.
pub fn container(parts: &[Part]) -> Vec<u8> {
    let mut offsets = Vec::new();
    let mut at = 32 + 4 * parts.len() as u32;
    for p in parts {
        offsets.push(at);
        at += 8 + p.data.len() as u32;
    }
    let mut out = Vec::new();
    out.extend_from_slice(b"DXBC");
    out.extend_from_slice(&[0u8; 16]);
    out.extend_from_slice(&u16le(1));
    out.extend_from_slice(&u16le(0));
    out.extend_from_slice(&u32le(at));
    out.extend_from_slice(&u32le(parts.len() as u32));
    for o in offsets {
        out.extend_from_slice(&u32le(o));
    }
    for p in parts {
        out.extend_from_slice(&p.name);
        out.extend_from_slice(&u32le(p.data.len() as u32));
        out.extend_from_slice(&p.data);
    }
    out
}

/// A DXIL part: program header for shader model `major.minor` and `kind`, the
/// bitcode header, and the smallest complete bitcode: the magic and an empty
/// IDENTIFICATION block (abbrev width 5, NumWords 1, END_BLOCK).
pub fn dxil_part(major: u8, minor: u8, kind: u16) -> Part {
    let bitcode: Vec<u8> = vec![
        0x42, 0x43, 0xC0, 0xDE, 0x35, 0x14, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00,
    ];
    let mut d = Vec::new();
    d.push((major << 4) | minor);
    d.push(0);
    d.extend_from_slice(&u16le(kind));
    let total = 24 + bitcode.len() as u32;
    d.extend_from_slice(&u32le(total / 4));
    d.extend_from_slice(b"DXIL");
    d.push(8); // DXIL minor
    d.push(1); // DXIL major
    d.extend_from_slice(&u16le(0));
    d.extend_from_slice(&u32le(16));
    d.extend_from_slice(&u32le(bitcode.len() as u32));
    d.extend_from_slice(&bitcode);
    part(b"DXIL", d)
}

/// One SYM0 symbol.
pub enum SymName<'a> {
    /// Up to 8 bytes stored inline (NUL padded when shorter).
    Short(&'a str),
    /// An offset into STR0 (counted from STR0's size field).
    Long(u32),
}

pub fn symbol(
    name: SymName,
    value: u32,
    section: u32,
    base: u8,
    complex: u8,
    class: u8,
    unused: u8,
) -> Vec<u8> {
    let mut s = Vec::new();
    match name {
        SymName::Short(n) => {
            let mut raw = [0u8; 8];
            raw[..n.len()].copy_from_slice(n.as_bytes());
            s.extend_from_slice(&raw);
        }
        SymName::Long(off) => {
            s.extend_from_slice(&u32le(0));
            s.extend_from_slice(&u32le(off));
        }
    }
    s.extend_from_slice(&u32le(value));
    s.extend_from_slice(&u32le(section));
    s.extend_from_slice(&[base, complex, class, unused]);
    s
}

/// A STR0 part from the given strings, padded to 4 bytes; returns the part and
/// each string's offset (counted from the size field, as COFF does).
pub fn str0_part(strings: &[&str]) -> (Part, Vec<u32>) {
    let mut body = Vec::new();
    let mut offs = Vec::new();
    for s in strings {
        offs.push(4 + body.len() as u32);
        body.extend_from_slice(s.as_bytes());
        body.push(0);
    }
    while (4 + body.len()) % 4 != 0 {
        body.push(0);
    }
    let mut d = u32le(4 + body.len() as u32).to_vec();
    d.extend_from_slice(&body);
    (part(b"STR0", d), offs)
}

const IMAGE_SYM_TYPE_NULL: u8 = 0;
const IMAGE_SYM_DTYPE_FUNCTION: u8 = 2;
const IMAGE_SYM_CLASS_EXTERNAL: u8 = 2;

/// A DXIL library with a SYM0 symbol table and a STR0 string table: short names
/// (shorter than and exactly 8 bytes), long names, a name that shares the tail of
/// another (suffix packing), and a name that is an HTML payload.
pub fn sym0_str0_library() -> Vec<u8> {
    let long = "RayGenerationShaderMain";
    let (str0, offs) = str0_part(&[long, XSS_NAME, "ClosestHitShader"]);
    let suffix_off = offs[0] + "RayGeneration".len() as u32; // "ShaderMain"
    let f = |n| {
        symbol(
            n,
            0,
            1,
            IMAGE_SYM_TYPE_NULL,
            IMAGE_SYM_DTYPE_FUNCTION,
            IMAGE_SYM_CLASS_EXTERNAL,
            0,
        )
    };
    let mut sym = Vec::new();
    sym.extend(f(SymName::Short("main")));
    sym.extend(f(SymName::Short("entry_ps")));
    sym.extend(f(SymName::Long(offs[0])));
    sym.extend(f(SymName::Long(suffix_off)));
    sym.extend(f(SymName::Long(offs[1])));
    sym.extend(f(SymName::Long(offs[2])));
    container(&[
        part(b"SFI0", vec![0; 8]),
        dxil_part(6, 8, 6),
        part(b"SYM0", sym),
        str0,
    ])
}

/// A vertex shader whose PSV0 part is version 0 (24-byte RuntimeInfo) with one
/// v0 resource binding (16 bytes), which no shipped compiler still writes.
pub fn psv0_v0_vertex() -> Vec<u8> {
    let mut psv = Vec::new();
    psv.extend_from_slice(&u32le(24));
    let mut info = [0u8; 24];
    info[0] = 1; // OutputPositionPresent
    info[16..20].copy_from_slice(&u32le(4)); // MinimumWaveLaneCount
    info[20..24].copy_from_slice(&u32le(64)); // MaximumWaveLaneCount
    psv.extend_from_slice(&info);
    psv.extend_from_slice(&u32le(1)); // ResourceCount
    psv.extend_from_slice(&u32le(16)); // ResourceStride
    for v in [2u32, 3, 1, u32::MAX] {
        psv.extend_from_slice(&u32le(v)); // CBV, space 3, b1..unbounded
    }
    container(&[dxil_part(6, 0, 1), part(b"PSV0", psv)])
}

/// A PSV0 part whose RuntimeInfo is larger than any known version (v3 + 8 bytes).
pub fn psv0_future_size() -> Vec<u8> {
    let mut psv = Vec::new();
    psv.extend_from_slice(&u32le(60));
    let mut info = [0u8; 60];
    info[24] = 5; // ShaderStage: compute
    info[36..40].copy_from_slice(&u32le(8)); // NumThreadsX
    info[40..44].copy_from_slice(&u32le(4));
    info[44..48].copy_from_slice(&u32le(1));
    info[48..52].copy_from_slice(&u32le(1)); // EntryName offset 1
    info[52..60].copy_from_slice(&[0xEE; 8]);
    psv.extend_from_slice(&info);
    psv.extend_from_slice(&u32le(0)); // no resources
    psv.extend_from_slice(&u32le(8)); // string table
    psv.extend_from_slice(b"\0main\0\0\0");
    psv.extend_from_slice(&u32le(0)); // semantic index table
    container(&[dxil_part(6, 6, 5), part(b"PSV0", psv)])
}

/// PartCount 0xFFFFFFFF with a single real part after the header.
pub fn hostile_part_count() -> Vec<u8> {
    let mut c = container(&[part(b"SFI0", vec![1, 0, 0, 0, 0, 0, 0, 0])]);
    c[28..32].copy_from_slice(&u32le(u32::MAX));
    c
}

/// Part offsets that point into the header, past the end of the file, and into
/// the middle of the previous part; plus one good part.
pub fn bad_part_offsets() -> Vec<u8> {
    let mut c = container(&[
        part(b"SFI0", vec![0; 8]),
        part(b"PRIV", vec![0xAA; 12]),
        part(b"ZZZZ", vec![1, 2, 3, 4]),
        part(b"HASH", vec![0; 20]),
    ]);
    let len = c.len() as u32;
    let first = u32::from_le_bytes(c[32..36].try_into().unwrap());
    c[36..40].copy_from_slice(&u32le(4)); // into the header
    c[40..44].copy_from_slice(&u32le(len + 100)); // past the end
    c[44..48].copy_from_slice(&u32le(first + 4)); // inside part 0
    c
}

/// A part whose size runs past the end of the file, and a FileSize that lies.
pub fn truncated_part() -> Vec<u8> {
    let mut c = container(&[part(b"SFI0", vec![0; 8]), part(b"HASH", vec![0; 20])]);
    let last = c.len() - 28;
    c[last + 4..last + 8].copy_from_slice(&u32le(1000));
    c[24..28].copy_from_slice(&u32le(4096));
    c
}

/// SYM0/STR0 damage: a long name offset past the table, a name offset into the
/// size field, a SectionIndex that is not a part, a non-zero aux count, a SYM0
/// size that is not a multiple of 20, and a STR0 whose last string has no NUL and
/// whose size field is larger than the part.
pub fn bad_symbols() -> Vec<u8> {
    let mut str0 = Vec::new();
    str0.extend_from_slice(&u32le(64)); // claims 64, holds 12
    str0.extend_from_slice(b"okname\0unte");
    str0.push(b'r');
    let mut sym = Vec::new();
    sym.extend(symbol(SymName::Long(4), 0, 0, 0, 2, 2, 0)); // fine: "okname"
    sym.extend(symbol(SymName::Long(500), 0, 0, 0, 2, 2, 0)); // past the table
    sym.extend(symbol(SymName::Long(2), 0, 0, 0, 2, 2, 0)); // inside the size field
    sym.extend(symbol(SymName::Short("x"), 0, 9, 0, 2, 2, 3)); // bad section, aux
    sym.extend([0xEE; 7]); // trailing partial symbol
    container(&[dxil_part(6, 8, 6), part(b"SYM0", sym), part(b"STR0", str0)])
}

/// An input signature whose element name offset points outside the part, and a
/// PSV0 whose RuntimeInfo is too small to be any version.
pub fn bad_signature_and_psv() -> Vec<u8> {
    let mut sig = Vec::new();
    sig.extend_from_slice(&u32le(1));
    sig.extend_from_slice(&u32le(8));
    for v in [0u32, 0x400, 0, 1, 3, 0] {
        sig.extend_from_slice(&u32le(v));
    }
    sig.extend_from_slice(&[0x0F, 0x0F, 0, 0]);
    sig.extend_from_slice(&u32le(0));
    let mut psv = Vec::new();
    psv.extend_from_slice(&u32le(8));
    psv.extend_from_slice(&[0; 8]);
    container(&[dxil_part(6, 0, 0), part(b"ISG1", sig), part(b"PSV0", psv)])
}

/// Every generated fixture: file name and bytes.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("sym0_str0_library.dxbc", sym0_str0_library()),
        ("psv0_v0_vertex.dxbc", psv0_v0_vertex()),
        ("psv0_future_size.dxbc", psv0_future_size()),
        ("hostile_part_count.dxbc", hostile_part_count()),
        ("bad_part_offsets.dxbc", bad_part_offsets()),
        ("truncated_part.dxbc", truncated_part()),
        ("bad_symbols.dxbc", bad_symbols()),
        ("bad_signature_and_psv.dxbc", bad_signature_and_psv()),
    ]
}
