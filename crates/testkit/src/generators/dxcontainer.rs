//! Generator of DirectX Container test fixtures that no compiler in our corpus
//! writes: the proposed SYM0/STR0 parts, a PSV0 v0 part, damaged containers
//! (hostile counts, offsets into the header or past the end, overlapping and
//! truncated parts, unterminated strings), and the debug container DXC writes into
//! a shader's PDB, with the signed shader it belongs to.
//!
//! Every fixture is built from the layouts in `specs/dxcontainer.md` and
//! `specs/dxcontainer-sym0-str0-proposal.md`; the PDB debug container follows
//! DXC's `CreateContainerForPDB` (`dxcutil.cpp`, and `dxcompilerobj.cpp` before it)
//! and its `SRCI` follows DXC's `SourceInfoWriter` (`dxcshadersourceinfo.cpp`).
//! The generator signs with its own MD5 code (the DXBC checksum as vkd3d-shader's
//! `checksum.c` describes it), not hexlens's. The core's `dxcontainer_generated.rs`
//! checks the files in `tests/fixtures/dxcontainer/generated/` are what this
//! generator makes (`HEXLENS_BLESS=1` rewrites them) and what hexlens decodes
//! from them. [`dense_container`] writes large containers for the examples.

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

// ----- MD5 and the DXBC checksum --------------------------------------------------

/// MD5's compression function over one 64-byte block (RFC 1321).
fn md5_block(state: &mut [u32; 4], block: &[u8]) {
    const SHIFT: [[u32; 4]; 4] = [
        [7, 12, 17, 22],
        [5, 9, 14, 20],
        [4, 11, 16, 23],
        [6, 10, 15, 21],
    ];
    let word = |i: usize| u32::from_le_bytes(block[4 * i..4 * i + 4].try_into().unwrap());
    let [mut a, mut b, mut c, mut d] = *state;
    for i in 0..64usize {
        let round = i / 16;
        let (mix, g) = match round {
            0 => ((b & c) | (!b & d), i),
            1 => ((b & d) | (c & !d), (5 * i + 1) % 16),
            2 => (b ^ c ^ d, (3 * i + 5) % 16),
            _ => (c ^ (b | !d), (7 * i) % 16),
        };
        // T[i] = floor(|sin(i + 1)| * 2^32).
        let t = (((i + 1) as f64).sin().abs() * 4294967296.0) as u32;
        let sum = a.wrapping_add(mix).wrapping_add(t).wrapping_add(word(g));
        a = d;
        d = c;
        c = b;
        b = b.wrapping_add(sum.rotate_left(SHIFT[round][i % 4]));
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d]) {
        *s = s.wrapping_add(v);
    }
}

fn md5_state_bytes(state: [u32; 4]) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (i, w) in state.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// Plain MD5 (the HASH part's digest).
pub fn md5(msg: &[u8]) -> [u8; 16] {
    let mut data = msg.to_vec();
    data.push(0x80);
    while data.len() % 64 != 56 {
        data.push(0);
    }
    data.extend_from_slice(&(msg.len() as u64 * 8).to_le_bytes());
    let mut state = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
    for block in data.chunks(64) {
        md5_block(&mut state, block);
    }
    md5_state_bytes(state)
}

/// The DXBC checksum of a container: MD5's compression over bytes 0x14.. with the
/// DXBC final block (bit length first, then the tail and 0x80, and
/// `(bits >> 2) | 1` as the last word; a tail of 56 bytes or more gets its 0x80
/// in a block of its own before that one).
pub fn dxbc_checksum(container: &[u8]) -> [u8; 16] {
    let msg = &container[20..];
    let mut state = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
    let whole = msg.len() / 64 * 64;
    for block in msg[..whole].chunks(64) {
        md5_block(&mut state, block);
    }
    let tail = &msg[whole..];
    let bits = (msg.len() as u32).wrapping_mul(8);
    let mut last = [0u8; 64];
    if tail.len() >= 56 {
        let mut block = [0u8; 64];
        block[..tail.len()].copy_from_slice(tail);
        block[tail.len()] = 0x80;
        md5_block(&mut state, &block);
    } else {
        last[4..4 + tail.len()].copy_from_slice(tail);
        last[4 + tail.len()] = 0x80;
    }
    last[..4].copy_from_slice(&bits.to_le_bytes());
    last[60..].copy_from_slice(&((bits >> 2) | 1).to_le_bytes());
    md5_block(&mut state, &last);
    md5_state_bytes(state)
}

/// Writes the container's DXBC checksum into its header digest.
pub fn sign(container: &mut [u8]) {
    let sum = dxbc_checksum(container);
    container[4..20].copy_from_slice(&sum);
}

// ----- a shader and the debug container of its PDB ---------------------------------

fn pad4(v: &mut Vec<u8>) {
    while !v.len().is_multiple_of(4) {
        v.push(0);
    }
}

/// The data of the first part named `cc` in a container laid out by [`container`].
fn part_data<'a>(c: &'a [u8], cc: &[u8; 4]) -> &'a [u8] {
    let count = u32::from_le_bytes(c[28..32].try_into().unwrap()) as usize;
    (0..count)
        .map(|i| u32::from_le_bytes(c[32 + 4 * i..36 + 4 * i].try_into().unwrap()) as usize)
        .find(|&o| &c[o..o + 4] == cc)
        .map(|o| {
            let size = u32::from_le_bytes(c[o + 4..o + 8].try_into().unwrap()) as usize;
            &c[o + 8..o + 8 + size]
        })
        .expect("part present")
}

/// The bitcode of a program part's data (after its 24-byte program header).
fn program_bitcode(data: &[u8]) -> &[u8] {
    let offset = u32::from_le_bytes(data[16..20].try_into().unwrap()) as usize;
    let size = u32::from_le_bytes(data[20..24].try_into().unwrap()) as usize;
    &data[8 + offset..8 + offset + size]
}

/// ILDN (`DxilShaderDebugName`): flags, name length, name, NUL, zero padding.
fn ildn_part(name: &str) -> Part {
    let mut d = Vec::new();
    d.extend_from_slice(&u16le(0));
    d.extend_from_slice(&u16le(name.len() as u16));
    d.extend_from_slice(name.as_bytes());
    d.push(0);
    pad4(&mut d);
    part(b"ILDN", d)
}

/// HASH (`DxilShaderHash`): flags 0 (the program without its source), digest.
fn hash_part(digest: [u8; 16]) -> Part {
    let mut d = u32le(0).to_vec();
    d.extend_from_slice(&digest);
    part(b"HASH", d)
}

/// One SRCI section (`DxilSourceInfoSection`): size, flags, type, body, padding.
fn srci_section(ty: u16, body: &[u8]) -> Vec<u8> {
    let mut v = vec![0u8; 4];
    v.extend_from_slice(&u16le(0));
    v.extend_from_slice(&u16le(ty));
    v.extend_from_slice(body);
    pad4(&mut v);
    let size = v.len() as u32;
    v[..4].copy_from_slice(&u32le(size));
    v
}

pub const PDB_SOURCE_NAME: &str = "shader.hlsl";
pub const PDB_SOURCE: &str = "float4 main() : SV_Target { return float4(1, 0, 0, 1); }\n";
pub const PDB_ARGS: [(&str, &str); 5] = [
    ("", PDB_SOURCE_NAME),
    ("T", "ps_6_0"),
    ("E", "main"),
    ("Zi", ""),
    ("Fd", "shader.pdb"),
];

/// SRCI as DXC's `SourceInfoWriter` lays it out: SourceNames, SourceContents (not
/// compressed here), Args; every section and the part padded to 4 bytes.
fn srci_part() -> Part {
    // SourceNames: flags, count, entries size (u16), then one entry.
    let mut entry = Vec::new();
    entry.extend_from_slice(&u32le(0)); // AlignedSizeInBytes, set below
    entry.extend_from_slice(&u32le(0)); // Flags
    entry.extend_from_slice(&u32le(PDB_SOURCE_NAME.len() as u32 + 1));
    entry.extend_from_slice(&u32le(PDB_SOURCE.len() as u32 + 1));
    entry.extend_from_slice(PDB_SOURCE_NAME.as_bytes());
    entry.push(0);
    pad4(&mut entry);
    let n = entry.len() as u32;
    entry[..4].copy_from_slice(&u32le(n));
    let mut names = Vec::new();
    names.extend_from_slice(&u32le(0));
    names.extend_from_slice(&u32le(1));
    names.extend_from_slice(&u16le(entry.len() as u16));
    names.extend_from_slice(&entry);
    // SourceContents: header (aligned size 0 as DXC leaves it, flags, compression
    // type 0, entries size, uncompressed size, count), then one entry.
    let mut content = Vec::new();
    content.extend_from_slice(&u32le(0)); // AlignedSizeInBytes, set below
    content.extend_from_slice(&u32le(0)); // Flags
    content.extend_from_slice(&u32le(PDB_SOURCE.len() as u32 + 1));
    content.extend_from_slice(PDB_SOURCE.as_bytes());
    content.push(0);
    pad4(&mut content);
    let n = content.len() as u32;
    content[..4].copy_from_slice(&u32le(n));
    let mut contents = Vec::new();
    contents.extend_from_slice(&u32le(0));
    contents.extend_from_slice(&u16le(0));
    contents.extend_from_slice(&u16le(0));
    contents.extend_from_slice(&u32le(n));
    contents.extend_from_slice(&u32le(n));
    contents.extend_from_slice(&u32le(1));
    contents.extend_from_slice(&content);
    // Args: flags, size of the name/value strings, count, then the strings.
    let mut pairs = Vec::new();
    for (name, value) in PDB_ARGS {
        pairs.extend_from_slice(name.as_bytes());
        pairs.push(0);
        pairs.extend_from_slice(value.as_bytes());
        pairs.push(0);
    }
    let mut args = Vec::new();
    args.extend_from_slice(&u32le(0));
    args.extend_from_slice(&u32le(pairs.len() as u32));
    args.extend_from_slice(&u32le(PDB_ARGS.len() as u32));
    args.extend_from_slice(&pairs);
    let sections = [
        srci_section(1, &names),
        srci_section(0, &contents),
        srci_section(2, &args),
    ]
    .concat();
    let mut d = u32le(8 + sections.len() as u32).to_vec();
    d.extend_from_slice(&u16le(0));
    d.extend_from_slice(&u16le(3));
    d.extend_from_slice(&sections);
    part(b"SRCI", d)
}

/// VERS (`DxilCompilerVersion`, the string-list form DXC 1.8 writes).
fn vers_part() -> Part {
    let list = b"0000000\x001.8.0.0 (hexlens fixture)\x00";
    let mut d = Vec::new();
    d.extend_from_slice(&u16le(1));
    d.extend_from_slice(&u16le(8));
    d.extend_from_slice(&u32le(0)); // VersionFlags: release
    d.extend_from_slice(&u32le(0)); // CommitCount
    d.extend_from_slice(&u32le(list.len() as u32));
    d.extend_from_slice(list);
    pad4(&mut d);
    part(b"VERS", d)
}

/// The signed pixel shader (`-T ps_6_0 -Zi -Fd`): SFI0, ILDN naming its PDB after
/// the shader hash, HASH (MD5 of the DXIL part's bitcode) and DXIL, signed with
/// the DXBC checksum as the validator signs it.
pub fn pdb_signed_shader() -> Vec<u8> {
    let dxil = dxil_part(6, 0, 0);
    let digest = md5(program_bitcode(&dxil.data));
    let name: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    let mut c = container(&[
        part(b"SFI0", vec![0; 8]),
        ildn_part(&format!("{name}.pdb")),
        hash_part(digest),
        dxil,
    ]);
    sign(&mut c);
    c
}

/// The debug container `dxc -Zi -Fd` writes into the shader's PDB, as DXC's
/// `CreateContainerForPDB` builds it: the shader's ILDN and HASH parts copied, then
/// SRCI, VERS, and ILDB (the shader's program header around the module with its
/// debug info; the same tiny module here). No DXIL part. The header is the signed
/// shader's with only the part count and size changed, as DXC's first
/// `CreateContainerForPDB` (in `dxcompilerobj.cpp`) wrote it: its digest is the
/// shader's, not a checksum of this container.
pub fn pdb_debug_container() -> Vec<u8> {
    pdb_container_from(&pdb_signed_shader(), false)
}

/// Negative control: the debug container with the shader's DXIL part added, which
/// makes it claim to be the signed shader; its digest (still the shader's) does
/// not match its bytes.
pub fn pdb_container_with_dxil() -> Vec<u8> {
    pdb_container_from(&pdb_signed_shader(), true)
}

fn pdb_container_from(shader: &[u8], with_dxil: bool) -> Vec<u8> {
    let dxil = part_data(shader, b"DXIL");
    let debug_module = program_bitcode(dxil).to_vec();
    let mut ildb = dxil[..24].to_vec();
    ildb[16..20].copy_from_slice(&u32le(16));
    ildb[20..24].copy_from_slice(&u32le(debug_module.len() as u32));
    ildb.extend_from_slice(&debug_module);
    pad4(&mut ildb);
    let dwords = ildb.len() as u32 / 4;
    ildb[4..8].copy_from_slice(&u32le(dwords));
    let mut parts = vec![
        part(b"ILDN", part_data(shader, b"ILDN").to_vec()),
        part(b"HASH", part_data(shader, b"HASH").to_vec()),
        srci_part(),
        vers_part(),
        part(b"ILDB", ildb),
    ];
    if with_dxil {
        parts.push(part(b"DXIL", dxil.to_vec()));
    }
    let mut c = container(&parts);
    c[4..20].copy_from_slice(&shader[4..20]);
    c
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
        ("pdb_signed_shader.dxbc", pdb_signed_shader()),
        ("pdb_debug_container.dxbc", pdb_debug_container()),
        ("pdb_container_with_dxil.dxbc", pdb_container_with_dxil()),
    ]
}

/// How many entries each long list of [`dense_container`] holds.
pub struct Dense {
    /// SYM0 symbols, as many STR0 strings; one name in `suffix_every` shares
    /// the tail of the string before it.
    pub symbols: u32,
    pub suffix_every: u32,
    /// SHDR instructions.
    pub instructions: u32,
    /// ISG1 parameters.
    pub parameters: u32,
    /// RDAT resource records and PSV0 resource bindings.
    pub resources: u32,
}

fn le_words(v: &mut Vec<u8>, words: &[u32]) {
    for w in words {
        v.extend_from_slice(&w.to_le_bytes());
    }
}

/// A container whose parts hold long lists: a symbol table (SYM0) with its
/// string table (STR0), an SM4 instruction stream (SHDR), an input signature
/// (ISG1), runtime data with a resource table (RDAT) and PSV0 resource
/// bindings. Every list is valid: an eager decode reports no error.
pub fn dense_container(n: &Dense) -> Vec<u8> {
    // STR0: one long name per symbol.
    let names: Vec<String> = (0..n.symbols)
        .map(|k| format!("symbol_name_{k:08}"))
        .collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let (str0, offs) = str0_part(&refs);
    let mut sym = Vec::with_capacity(20 * n.symbols as usize);
    for k in 0..n.symbols {
        let name = if k % 5 == 0 {
            SymName::Short("short")
        } else if n.suffix_every > 0 && k % n.suffix_every == 1 {
            // "name_000000NN": the tail of the previous symbol's string.
            SymName::Long(offs[k as usize - 1] + 7)
        } else {
            SymName::Long(offs[k as usize])
        };
        sym.extend(symbol(name, k, 0, 0, 2, 2, 0));
    }
    // SHDR: ps_5_0, `mov` instructions of 5 dwords, then `ret`.
    let mut shdr = Vec::new();
    le_words(&mut shdr, &[0x0000_0050, 2 + 5 * n.instructions + 1]);
    for k in 0..n.instructions {
        le_words(&mut shdr, &[0x0500_0036, 0x0010_2012, k, 0x0010_0E46, k]);
    }
    le_words(&mut shdr, &[0x0100_003E]);
    // ISG1: 32-byte parameters all named TEXCOORD.
    let mut isg1 = Vec::new();
    let strings_at = 8 + 32 * n.parameters;
    le_words(&mut isg1, &[n.parameters, 8]);
    for k in 0..n.parameters {
        le_words(&mut isg1, &[0, strings_at, k, 0, 3, k]);
        isg1.extend_from_slice(&[0x0F, 0x0F, 0, 0]);
        le_words(&mut isg1, &[0]);
    }
    isg1.extend_from_slice(b"TEXCOORD\0\0\0\0");
    // RDAT: a string buffer and a resource table.
    let mut rdat = Vec::new();
    let strbuf = b"\0res_a\0\0";
    le_words(&mut rdat, &[0x10, 2, 16, 16 + 8 + strbuf.len() as u32]);
    le_words(&mut rdat, &[1, strbuf.len() as u32]);
    rdat.extend_from_slice(strbuf);
    le_words(&mut rdat, &[3, 8 + 32 * n.resources, n.resources, 32]);
    for k in 0..n.resources {
        le_words(&mut rdat, &[1, 12, k, 0, k, k, 1, 0]);
    }
    // PSV0 v0 of a compute shader: resource bindings of 16 bytes.
    let mut psv = Vec::new();
    le_words(&mut psv, &[24]);
    psv.extend_from_slice(&[0u8; 16]);
    le_words(&mut psv, &[0, u32::MAX, n.resources, 16]);
    for k in 0..n.resources {
        le_words(&mut psv, &[2, 0, k, k]);
    }
    container(&[
        dxil_part(6, 0, 5),
        part(b"SYM0", sym),
        str0,
        part(b"SHDR", shdr),
        part(b"ISG1", isg1),
        part(b"RDAT", rdat),
        part(b"PSV0", psv),
    ])
}
