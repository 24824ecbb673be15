//! A large standalone .NET cDAC data-descriptor blob for the benchmarks, in the
//! runtime writer's layout (`specs/notes/cdac-layout.md`): the `DACBLOB\0` magic,
//! the 48-byte directory, platform flags and baseline name, `types` type specs
//! with 1 to 8 fields each, the field pool (placeholder entry, each type's run
//! ended by a zero entry), global literals and pointers, the names pool and the
//! end magic. Little-endian, spec sizes padded as compilers pad them (12, 12, 16,
//! 8), tables 8-byte aligned.

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

/// A blob with `types` type specs, `types / 4` global literals and `types / 8`
/// global pointers.
pub fn blob(types: usize) -> Vec<u8> {
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
