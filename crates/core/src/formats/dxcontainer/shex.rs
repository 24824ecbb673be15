//! SHDR/SHEX: FXC's SM4/5 shader bytecode (the tokenized program format: version
//! token, length in dwords, then the token stream; layout notes §8,
//! `specs/notes/dxcontainer-layout.md`). Instructions are walked by their length;
//! operands are not decoded. `specs/dxcontainer.md` lists the part but does not lay it
//! out.

mod header;
pub(super) mod listing;
mod names;
mod text;
mod tokens;

use super::place::{index_name, plural};
use super::{contiguous_pages, page_size, pages, Context, SKIM_CHUNK};
use crate::builder::{Builder, DResult, Field};
use crate::tree::{Kind, Value};

const OP_CUSTOMDATA: u64 = 53;

/// SHDR/SHEX: version token, length in dwords, then the SM4/5 token stream, one
/// `[i]` item per instruction (opcode token bits and the remaining dwords).
pub(super) fn shex(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    let base = b.pos();
    let end = base + size;
    let Field {
        value: (minor, major, ty),
        id: vid,
    } = b.group_field("Version", |b| {
        let minor = b.bits("MinorVersion", 4)?;
        let major = b.bits("MajorVersion", 4)?;
        b.bits("Reserved", 8)?;
        let ty = b.bits("ProgramType", 16)?;
        b.display(
            names::sm4_program_type(ty).map_or_else(|| format!("unknown ({ty})"), str::to_string),
        );
        Ok((minor, major, ty))
    })?;
    if let Some(raw) = b.peek_uint(base, 4) {
        b.set_value(vid, Value::U(raw));
    }
    // SM4 program types number the stages as DXIL shader kinds do.
    let prefix = if ty <= 5 {
        names::profile_prefix(ty)
    } else {
        "?"
    };
    b.set_display(vid, format!("{prefix}_{major}_{minor}"));
    let sm51 = (major, minor) >= (5, 1);
    let len = b.u32("Length")? as u64;
    if len.saturating_mul(4) != size {
        b.error(format!(
            "Length says {len} dwords ({} bytes), but the part holds {size} bytes",
            len.saturating_mul(4)
        ));
    } else {
        b.display(plural(len, "dword"));
    }
    b.array("Instructions", |b| {
        let mut p = base + 8;
        let mut i = 0u64;
        if let Some(n) = page_size(b) {
            // Pages hold the instructions the stream can be walked past.
            let (marks, count, to) = skim(b, p, end, n);
            if marks.len() > 1 {
                pages(b, &contiguous_pages(&marks, count, to), move |b, first, next| {
                    instructions(b, b.pos(), b.limit(), first, Some(next), sm51).map(|_| ())
                })?;
                p = to;
                i = count;
            }
        }
        let p = instructions(b, p, end, i, None, sm51)?;
        if p < end && p + 4 > end {
            b.seek(p);
            b.bytes("Extra", end - p)?;
            b.error(format!(
                "{} bytes after the last instruction, less than a dword",
                end - p
            ));
        }
        Ok(())
    })
}

/// The opcode and length in dwords of the instruction whose opcode token is at
/// `p`.
fn opcode_and_length(b: &Builder, p: u64) -> (u64, u64) {
    let tok = b.peek_uint(p, 4).unwrap_or(0) as u32;
    let next = || Some(b.peek_uint(p + 4, 4).unwrap_or(0) as u32);
    let (op, dwords) = tokens::opcode_and_length(tok, next).unwrap_or((tok & 0x7FF, 0));
    (u64::from(op), u64::from(dwords))
}

/// Instructions `i`, `i + 1`, … from `p`, up to `end` or (if given) up to
/// instruction `next`; returns where the walk stopped.
fn instructions(
    b: &mut Builder,
    mut p: u64,
    end: u64,
    mut i: u64,
    next: Option<u64>,
    sm51: bool,
) -> DResult<u64> {
    while p + 4 <= end && next.is_none_or(|k| i < k) {
        let (op, dwords) = opcode_and_length(b, p);
        let n = dwords.saturating_mul(4).max(4);
        b.region(index_name(i), Kind::Struct, p, n, |b| {
            instruction(b, op, dwords, p, sm51)
        });
        if dwords == 0 || p + n > end {
            break;
        }
        p += n;
        i += 1;
    }
    Ok(p)
}

/// Walks the instructions from `p` by their lengths, making no nodes: where
/// every `n`-th one starts (index, offset), how many can be walked past (a
/// non-zero length that ends inside the stream), and where they end.
fn skim(b: &Builder, mut p: u64, end: u64, n: u64) -> (Vec<(u64, u64)>, u64, u64) {
    let mut marks = Vec::new();
    let mut i = 0u64;
    let mut win: Vec<u8> = Vec::new();
    let mut win_at = p;
    let word = |win: &mut Vec<u8>, win_at: &mut u64, at: u64| -> u64 {
        if at < *win_at || at + 4 > *win_at + win.len() as u64 {
            *win_at = at;
            *win = b.peek_bytes(at, (end - at).min(SKIM_CHUNK));
        }
        let k = (at - *win_at) as usize;
        match win.get(k..k + 4) {
            Some(w) => u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as u64,
            None => 0,
        }
    };
    while p + 4 <= end {
        let tok = word(&mut win, &mut win_at, p) as u32;
        let next = || (p + 8 <= end).then(|| word(&mut win, &mut win_at, p + 4) as u32);
        let Some((_, dwords)) = tokens::opcode_and_length(tok, next) else {
            break;
        };
        let len = u64::from(dwords).saturating_mul(4);
        if dwords == 0 || p.saturating_add(len) > end {
            break;
        }
        if i.is_multiple_of(n.max(1)) {
            marks.push((i, p));
        }
        p += len;
        i += 1;
    }
    (marks, i, p)
}

fn instruction(b: &mut Builder, op: u64, dwords: u64, at: u64, sm51: bool) -> DResult<()> {
    let item = b.current();
    let name = names::sm4_opcode(op).map_or_else(|| format!("unknown ({op})"), str::to_string);
    b.set_display(item, format!("{name}, {}", plural(dwords, "dword")));
    b.set_key(item, names::sm4_opcode(op).unwrap_or("unknown"));
    b.bits("OpcodeType", 11)?;
    b.display(name.clone());
    if op == OP_CUSTOMDATA {
        let class = b.bits("DataClass", 21)?;
        b.display(
            names::sm4_customdata_class(class)
                .map_or_else(|| format!("unknown ({class})"), str::to_string),
        );
        if b.remaining() < 4 {
            return b.u32("Length").map(|_| ());
        }
        b.u32("Length")?;
        if dwords < 2 {
            b.error(format!(
                "a custom-data block is at least 2 dwords (opcode and length), found length {dwords}; the rest of the stream is not decoded"
            ));
            return Ok(());
        }
        b.display("dwords, including the opcode token");
    } else {
        b.bits("Controls", 13)?;
        b.bits("Length", 7)?;
        if dwords == 0 {
            b.error("instruction length 0: the stream cannot be walked past this token");
        }
        let ext = b.bit("Extended")?;
        if ext {
            b.display("extended opcode tokens follow");
        }
    }
    // Only an instruction whose words all lie in the stream is decoded further.
    if op != OP_CUSTOMDATA && dwords > 0 && dwords * 4 <= b.remaining() + 4 {
        operands(b, at, op, dwords, sm51)?;
    }
    let r = b.remaining();
    if r > 0 {
        b.bytes(
            if op == OP_CUSTOMDATA {
                "Data"
            } else {
                "Rest"
            },
            r,
        )?;
    }
    Ok(())
}

/// The extended opcode tokens, operands and declaration dwords of the
/// instruction at `at` (its opcode token read), as `tokens` decodes them.
fn operands(b: &mut Builder, at: u64, op: u64, dwords: u64, sm51: bool) -> DResult<()> {
    let words: Vec<u32> = b
        .peek_bytes(at, dwords * 4)
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let ins = tokens::Instruction {
        at,
        words,
        opcode: op as u32,
    };
    let d = ins.decode();
    // The opcode's name and the operands (`mov r0.x, l(1.000000)`); the
    // listing (`hexlens dis`) writes declarations as FXC does.
    let item = b.current();
    let mut shown = names::sm4_opcode(op).unwrap_or("unknown").to_string();
    for (k, o) in d.operands.iter().enumerate() {
        shown.push_str(if k == 0 { " " } else { ", " });
        shown.push_str(&text::operand_text(o, sm51));
    }
    b.set_display(item, shown);
    if !d.ext.is_empty() {
        b.array("ExtendedOpcodes", |b| {
            for (k, &e) in d.ext.iter().enumerate() {
                let layout: &[Bits] = match e & 0x3F {
                    1 => &SAMPLE_CONTROLS,
                    2 => &RESOURCE_DIM,
                    3 => &RETURN_TYPE,
                    _ => &EMPTY_EXT,
                };
                b.group(index_name(k as u64), |b| fields(b, layout))?;
            }
            Ok(())
        })?;
    }
    if !d.operands.is_empty() {
        // A call site's index comes before the interface operand.
        if op == u64::from(tokens::op::INTERFACE_CALL) && !d.extra.is_empty() {
            b.u32("CallSite")?;
        }
        b.array("Operands", |b| {
            for (k, o) in d.operands.iter().enumerate() {
                operand_node(b, index_name(k as u64), o, sm51)?;
            }
            Ok(())
        })?;
    }
    let names = extra_names(op as u32);
    for (k, &(i, _)) in d.extra.iter().enumerate() {
        if op == u64::from(tokens::op::INTERFACE_CALL) && k == 0 {
            continue;
        }
        if b.pos() != at + 4 * i as u64 {
            break;
        }
        let name = names.get(k).copied().unwrap_or("Value");
        b.u32(name)?;
    }
    if let Some(e) = &d.error {
        b.error(e.clone());
    }
    Ok(())
}

/// A bit field of a token: name, width, and the names of its values.
type Bits = (&'static str, u64, &'static [&'static str]);

const INDEX_REPS: &[&str] = &[
    "immediate32",
    "immediate64",
    "relative",
    "immediate32 + relative",
    "immediate64 + relative",
];

const OPERAND_TAIL: [Bits; 7] = [
    ("Type", 8, &[]),
    ("IndexDimension", 2, &["0D", "1D", "2D", "3D"]),
    ("Index0", 3, INDEX_REPS),
    ("Index1", 3, INDEX_REPS),
    ("Index2", 3, INDEX_REPS),
    ("Reserved", 0, &[]),
    ("Extended", 1, &["false", "true"]),
];

const OPERAND_4: [Bits; 10] = [
    ("Components", 2, &["0", "1", "4", "N"]),
    ("SelectionMode", 2, &["mask", "swizzle", "select 1"]),
    ("Selection", 8, &[]),
    OPERAND_TAIL[0],
    OPERAND_TAIL[1],
    OPERAND_TAIL[2],
    OPERAND_TAIL[3],
    OPERAND_TAIL[4],
    OPERAND_TAIL[5],
    OPERAND_TAIL[6],
];

const OPERAND: [Bits; 9] = [
    ("Components", 2, &["0", "1", "4", "N"]),
    ("Selection", 10, &[]),
    OPERAND_TAIL[0],
    OPERAND_TAIL[1],
    OPERAND_TAIL[2],
    OPERAND_TAIL[3],
    OPERAND_TAIL[4],
    OPERAND_TAIL[5],
    OPERAND_TAIL[6],
];

const EXTENDED_OPERAND: [Bits; 6] = [
    ("Type", 6, &["empty", "modifier"]),
    ("Modifier", 8, &["none", "neg", "abs", "abs neg"]),
    (
        "MinPrecision",
        3,
        &["default", "float16", "float2_8", "", "sint16", "uint16"],
    ),
    ("NonUniform", 1, &["false", "true"]),
    ("Reserved", 13, &[]),
    ("Extended", 1, &["false", "true"]),
];

const EXT_TYPES: &[&str] = &[
    "empty",
    "sample controls",
    "resource dimension",
    "resource return type",
];

const SAMPLE_CONTROLS: [Bits; 7] = [
    ("Type", 6, EXT_TYPES),
    ("Reserved", 3, &[]),
    ("OffsetU", 4, &[]),
    ("OffsetV", 4, &[]),
    ("OffsetW", 4, &[]),
    ("Reserved", 10, &[]),
    ("Extended", 1, &["false", "true"]),
];

const RESOURCE_DIM: [Bits; 5] = [
    ("Type", 6, EXT_TYPES),
    ("Dimension", 5, &[]),
    ("StructureStride", 12, &[]),
    ("Reserved", 8, &[]),
    ("Extended", 1, &["false", "true"]),
];

const RETURN_TYPE: [Bits; 7] = [
    ("Type", 6, EXT_TYPES),
    ("ReturnTypeX", 4, &[]),
    ("ReturnTypeY", 4, &[]),
    ("ReturnTypeZ", 4, &[]),
    ("ReturnTypeW", 4, &[]),
    ("Reserved", 9, &[]),
    ("Extended", 1, &["false", "true"]),
];

const EMPTY_EXT: [Bits; 3] = [
    ("Type", 6, EXT_TYPES),
    ("Reserved", 25, &[]),
    ("Extended", 1, &["false", "true"]),
];

/// Reads the bit fields of `layout` (a width of 0 reads nothing), each named
/// value shown by its name.
fn fields(b: &mut Builder, layout: &[Bits]) -> DResult<()> {
    for &(name, width, names) in layout {
        if width == 0 {
            continue;
        }
        let v = b.bits(name, width)?;
        if let Some(n) = names.get(v as usize).filter(|n| !n.is_empty()) {
            b.display(*n);
        }
    }
    Ok(())
}

/// Names of a declaration's dwords after its operands.
fn extra_names(op: u32) -> &'static [&'static str] {
    match op {
        88 | 156 => &["ReturnType", "Space"],
        89 => &["Size", "Space"],
        90 | 157 | 161 => &["Space"],
        158 | 162 => &["Stride", "Space"],
        91 => &["Count"],
        94 => &["MaxVertexCount"],
        96 | 97 | 99 | 100 | 102 | 103 => &["SystemValue"],
        104 => &["TempCount"],
        105 => &["Register", "Count", "Components"],
        144 => &["FunctionBody"],
        145 => &["Table", "Length"],
        146 => &["Interface", "TableSize", "Lengths"],
        152 => &["MaxTessFactor"],
        153 | 154 => &["InstanceCount"],
        155 => &["X", "Y", "Z"],
        159 => &["ByteCount"],
        160 => &["Stride", "Count"],
        206 => &["InstanceCount"],
        _ => &[],
    }
}

/// One operand: its token's fields, extended tokens, immediates and indices
/// (a relative index holds an operand of its own).
fn operand_node(
    b: &mut Builder,
    name: impl Into<crate::tree::Name>,
    o: &tokens::Operand,
    sm51: bool,
) -> DResult<()> {
    if b.pos() != o.at {
        b.error(format!("the operand at 0x{:X} is not where the walk stands", o.at));
        return Ok(());
    }
    b.group(name, |b| {
        let id = b.current();
        b.set_display(id, text::operand_text(o, sm51));
        b.group("Token", |b| {
            fields(b, if o.comps == 4 { &OPERAND_4 } else { &OPERAND })?;
            // A 4-component operand's selection as it is written, and what
            // its type is.
            let kids = b.children(b.current()).to_vec();
            let ty_at = if o.comps == 4 {
                if let Some(&sel) = kids.get(2) {
                    b.set_display(sel, text::components(o));
                }
                3
            } else {
                2
            };
            if let Some(&ty) = kids.get(ty_at) {
                b.set_display(ty, text::operand_type_name((o.token >> 12) & 0xFF));
            }
            Ok(())
        })?;
        let mut ext = o.token & 0x8000_0000 != 0;
        while ext {
            ext = b.group("ExtendedToken", |b| {
                fields(b, &EXTENDED_OPERAND)?;
                Ok(b.peek_uint(b.pos() - 4, 4).unwrap_or(0) & 0x8000_0000 != 0)
            })?;
        }
        if !o.imm.is_empty() {
            b.array("Values", |b| {
                for k in 0..o.imm.len() {
                    b.u32(index_name(k as u64))?;
                }
                Ok(())
            })?;
        }
        if !o.indices.is_empty() {
            b.array("Indices", |b| {
                for (k, i) in o.indices.iter().enumerate() {
                    let rep = (o.token >> (22 + 3 * k)) & 7;
                    b.group(index_name(k as u64), |b| {
                        match rep {
                            0 | 3 => {
                                b.u32("Immediate")?;
                            }
                            1 | 4 => {
                                b.u32("ImmediateHigh")?;
                                b.u32("ImmediateLow")?;
                            }
                            _ => {}
                        }
                        if let Some(r) = &i.rel {
                            operand_node(b, "Relative", r, sm51)?;
                        }
                        Ok(())
                    })?;
                }
                Ok(())
            })?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check_tree, container, error, node, num, put, shown};
    use crate::tree::BitSpan;

    const OCCLUSION: &[u8] = include_bytes!(
        "../../../../../tests/fixtures/dxcontainer/curated/occlusion_code_dxbc.dxbc"
    );

    #[test]
    fn decodes_shdr_token_stream() {
        let d = crate::decode_bytes(OCCLUSION);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let s = "Parts/[2]/Shader";
        // 50 00 00 00: ps_5_0 (FXC wrote this SM5 program as SHDR).
        assert_eq!(num(t, &format!("{s}/Version")), 0x50);
        assert_eq!(shown(t, &format!("{s}/Version")), "ps_5_0");
        assert_eq!(num(t, &format!("{s}/Length")), 14);
        assert_eq!(
            shown(t, &format!("{s}/Instructions/[0]")),
            "dcl_constant_buffer cb0[1].xyzw"
        );
        assert_eq!(shown(t, &format!("{s}/Instructions/[2]/OpcodeType")), "mov");
        // The constant buffer operand: cb0[1], two immediate indices.
        let cb = format!("{s}/Instructions/[0]/Operands/[0]");
        assert_eq!(num(t, &format!("{cb}/Token/Type")), 8);
        assert_eq!(num(t, &format!("{cb}/Token/IndexDimension")), 2);
        assert_eq!(num(t, &format!("{cb}/Indices/[0]/Immediate")), 0);
        assert_eq!(num(t, &format!("{cb}/Indices/[1]/Immediate")), 1);
        assert_eq!(shown(t, &format!("{s}/Instructions/[3]/OpcodeType")), "ret");
        assert_eq!(
            node(t, &format!("{s}/Instructions/[3]")).span,
            BitSpan::bytes(0xAC, 0xB0)
        );
    }

    #[test]
    fn stops_at_a_zero_length_instruction() {
        let mut shex = Vec::new();
        put(&mut shex, &[0x0005_0050, 4, 0x0100_003E, 0x0000_0036]);
        let d = crate::decode_bytes(&container(&[(b"SHEX", &shex)]));
        check_tree(&d.tree);
        let s = "Parts/[0]/Shader/Instructions";
        assert_eq!(shown(&d.tree, &format!("{s}/[0]/OpcodeType")), "ret");
        assert!(error(&d.tree, &format!("{s}/[1]/Length")).contains("length 0"));
        assert!(d.tree.find(&format!("{s}/[2]")).is_none());
    }
}
