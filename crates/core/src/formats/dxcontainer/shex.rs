//! SHDR/SHEX: FXC's SM4/5 shader bytecode (the tokenized program format: version
//! token, length in dwords, then the token stream; layout notes §8,
//! `specs/notes/dxcontainer-layout.md`). Instructions are walked by their length;
//! each one's opcode token, extended opcode tokens, operands (with their indices,
//! immediates and extended operand tokens), declaration dwords and custom-data
//! blocks are decoded as `tokens` reads them for the listing (`hexlens dis`:
//! `listing`). `specs/dxcontainer.md` lists the part but does not lay it out.

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
                pages(
                    b,
                    &contiguous_pages(&marks, count, to),
                    move |b, first, next| {
                        instructions(b, b.pos(), b.limit(), first, Some(next), sm51).map(|_| ())
                    },
                )?;
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
        if dwords * 4 <= b.remaining() + 8 {
            custom_data(b, class, at, dwords, sm51)?;
        }
    } else {
        match controls(op as u32) {
            // No named bits: one field.
            "" => {
                b.bits("Controls", 13)?;
            }
            layout => b.group("Controls", |b| fields(b, layout))?,
        }
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
        b.bytes(if op == OP_CUSTOMDATA { "Data" } else { "Rest" }, r)?;
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
                let layout = match e & 0x3F {
                    1 => SAMPLE_CONTROLS,
                    2 => RESOURCE_DIM,
                    3 => RETURN_TYPE,
                    _ => EMPTY_EXT,
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
        let name = names.get(k).copied().unwrap_or(match op {
            145 => "FunctionBody",
            146 => "FunctionTable",
            _ => "Value",
        });
        let v = b.u32(name)?;
        match name {
            "ReturnType" => {
                let t = text::return_types(v);
                b.display(t.trim_start_matches('(').trim_end_matches(')').to_string());
            }
            "SystemValue" => b.display(text::system_value(v)),
            "MaxTessFactor" => b.display(text::imm32_text(v)),
            _ => {}
        }
    }
    if let Some(e) = &d.error {
        b.error(e.clone());
    }
    Ok(())
}

/// The resource dimensions by number, as a layout's value names.
macro_rules! resource_dims {
    () => {
        "unknown|buffer|texture1d|texture2d|texture2dms|texture3d|texturecube|texture1darray|texture2darray|texture2dmsarray|texturecubearray|raw_buffer|structured_buffer"
    };
}

/// The 13 control bits of an opcode token (bits 11–23), by opcode, as a
/// [layout](fields).
fn controls(op: u32) -> &'static str {
    match op {
        // if, breakc, continuec, retc, discard, callc.
        3 | 5 | 8 | 13 | 31 | 63 => "Reserved:7;Test:1=zero|nonzero;Reserved:5",
        // resinfo
        61 => "ReturnType:2=float|rcpfloat|uint;Reserved:6;PreciseMask:4;Reserved:1",
        // sampleinfo
        111 => "ReturnType:1=float|uint;Reserved:7;PreciseMask:4;Reserved:1",
        // sync
        190 => "ThreadsInGroup:1;GroupSharedMemory:1;UavGroup:1;UavGlobal:1;Reserved:9",
        // dcl_resource
        88 => concat!("Dimension:5=", resource_dims!(), ";SampleCount:7;Reserved:1"),
        // dcl_constantbuffer
        89 => "AccessPattern:1=immediateIndexed|dynamicIndexed;Reserved:12",
        // dcl_sampler
        90 => "Mode:4=default|comparison|mono;Reserved:9",
        // dcl_outputtopology
        92 => "Topology:7=|pointlist||linestrip||trianglestrip|||||linelist_adj|linestrip_adj|trianglelist_adj|trianglestrip_adj;Reserved:6",
        // dcl_inputprimitive (8 and up: a patch of 1–32 control points)
        93 => "Primitive:6=|point|line|triangle|||lineadj|triangleadj;Reserved:7",
        // dcl_input_ps, dcl_input_ps_siv
        98 | 100 => "Interpolation:4=undefined|constant|linear|linear centroid|linear noperspective|linear noperspective centroid|linear sample|linear noperspective sample;Reserved:9",
        // dcl_globalFlags
        106 => "RefactoringAllowed:1;DoublePrecisionFloatOps:1;ForceEarlyDepthStencil:1;RawAndStructuredBuffers:1;SkipOptimization:1;MinimumPrecision:1;DoubleExtensions11_1:1;ShaderExtensions11_1:1;Reserved:5",
        // dcl_interface
        146 => "DynamicallyIndexed:1;Reserved:12",
        // dcl_input_control_point_count, dcl_output_control_point_count
        147 | 148 => "ControlPoints:6;Reserved:7",
        149 => "Domain:2=undefined|isoline|tri|quad;Reserved:11",
        150 => "Partitioning:3=undefined|integer|pow2|fractional_odd|fractional_even;Reserved:10",
        151 => "OutputPrimitive:3=undefined|point|line|triangle_cw|triangle_ccw;Reserved:10",
        // dcl_uav_typed
        156 => concat!(
            "Dimension:5=",
            resource_dims!(),
            ";GloballyCoherent:1;RasterizerOrdered:1;Reserved:6"
        ),
        // dcl_uav_raw, dcl_uav_structured
        157 | 158 => "Reserved:5;GloballyCoherent:1;RasterizerOrdered:1;Reserved:5;OrderPreservingCounter:1",
        88..=106 | 113..=116 | 143..=162 | 206 => "",
        _ => "Reserved:2;Saturate:1;Reserved:5;PreciseMask:4;Reserved:1",
    }
}

/// A custom-data block's contents after its opcode and length dwords: an
/// immediate constant buffer's rows, a comment's text, a shader message's
/// fields. Debug info, opaque data and DX9 clip-plane mappings have no
/// public layout and stay bytes.
fn custom_data(b: &mut Builder, class: u64, at: u64, dwords: u64, sm51: bool) -> DResult<()> {
    let n = dwords.saturating_sub(2);
    match class {
        3 => {
            let rows = n / 4;
            let start = b.pos();
            let row = |b: &mut Builder, k: u64| -> DResult<()> {
                b.group(index_name(k), |b| {
                    let mut shown = String::from("{ ");
                    for (c, name) in ["X", "Y", "Z", "W"].into_iter().enumerate() {
                        let v = b.u32(name)?;
                        if c > 0 {
                            shown.push_str(", ");
                        }
                        shown.push_str(&text::imm32_text(v));
                    }
                    shown.push_str(" }");
                    let id = b.current();
                    b.set_display(id, shown);
                    Ok(())
                })
            };
            b.array("Rows", |b| match page_size(b) {
                Some(per) if rows > per => pages(
                    b,
                    &super::lazy::fixed_pages(start, 16, rows, per),
                    move |b, first, next| (first..next).try_for_each(|k| row(b, k)),
                ),
                _ => (0..rows).try_for_each(|k| row(b, k)),
            })?;
        }
        0 => {
            b.fixed_str("Text", n * 4)?;
        }
        4 if n >= 5 => shader_message(b, at, sm51)?,
        _ => {}
    }
    Ok(())
}

/// A shader message (`printf`, `errorf`): its kind, format, the length of its
/// text, its operand count and their dwords, the operands, then the text.
fn shader_message(b: &mut Builder, at: u64, sm51: bool) -> DResult<()> {
    let kind = b.u32("Kind")?;
    b.display(match kind {
        0x0020_0102 => "printf",
        0x0020_0103 => "errorf",
        _ => "unknown",
    });
    let format = b.u32("Format")?;
    if format == 1 {
        b.display("ANSI, printf-style");
    }
    let chars = b.u32("TextLength")?;
    let count = b.u32("OperandCount")?;
    let op_dwords = b.u32("OperandDwords")?;
    let words: Vec<u32> = b
        .peek_bytes(at, b.limit().saturating_sub(at))
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let ops_end = 7 + op_dwords as usize;
    if ops_end > words.len() {
        b.error("the message's operands run past the block");
        return Ok(());
    }
    b.array("Operands", |b| {
        let mut i = 7;
        let mut k = 0;
        while i < ops_end && k < count {
            match tokens::operand(&words[..ops_end], &mut i, at) {
                Ok(o) => operand_node(b, index_name(u64::from(k)), &o, sm51)?,
                Err(e) => {
                    b.error(e);
                    break;
                }
            }
            k += 1;
        }
        Ok(())
    })?;
    let text_at = at + 4 * ops_end as u64;
    if b.pos() == text_at && u64::from(chars) <= b.remaining() {
        b.fixed_str("Text", u64::from(chars))?;
        // The text is padded to a whole dword.
        let r = b.remaining();
        if r > 0 && r < 4 {
            b.bytes("Padding", r)?;
        }
    }
    Ok(())
}

/// The fields of an operand token after its component count and selection.
macro_rules! operand_tail {
    () => {
        "Type:8;IndexDimension:2=0D|1D|2D|3D;Index0:3=immediate32|immediate64|relative|immediate32 + relative|immediate64 + relative;Index1:3=immediate32|immediate64|relative|immediate32 + relative|immediate64 + relative;Index2:3=immediate32|immediate64|relative|immediate32 + relative|immediate64 + relative;Extended:1=false|true"
    };
}

/// A 4-component operand's token: mask, swizzle or one component.
const OPERAND_4: &str = concat!(
    "Components:2=0|1|4|N;SelectionMode:2=mask|swizzle|select 1;Selection:8;",
    operand_tail!()
);

const OPERAND: &str = concat!("Components:2=0|1|4|N;Selection:10;", operand_tail!());

const EXTENDED_OPERAND: &str = "Type:6=empty|modifier;Modifier:8=none|neg|abs|abs neg;MinPrecision:3=default|float16|float2_8||sint16|uint16;NonUniform:1=false|true;Reserved:13;Extended:1=false|true";

/// An extended opcode token's type, the first field of each.
macro_rules! ext_type {
    () => {
        "Type:6=empty|sample controls|resource dimension|resource return type;"
    };
}

const SAMPLE_CONTROLS: &str = concat!(
    ext_type!(),
    "Reserved:3;OffsetU:4;OffsetV:4;OffsetW:4;Reserved:10;Extended:1=false|true"
);

const RESOURCE_DIM: &str = concat!(
    ext_type!(),
    "Dimension:5=",
    resource_dims!(),
    ";StructureStride:12;Reserved:8;Extended:1=false|true"
);

const RETURN_TYPE: &str = concat!(
    ext_type!(),
    "ReturnTypeX:4;ReturnTypeY:4;ReturnTypeZ:4;ReturnTypeW:4;Reserved:9;Extended:1=false|true"
);

const EMPTY_EXT: &str = concat!(ext_type!(), "Reserved:25;Extended:1=false|true");

/// Reads the bit fields `layout` describes, lowest bits first:
/// `Name:width` or `Name:width=name0|name1|…` (a value with a name, not
/// empty, is shown by it), separated by `;`. Tables kept as text are a
/// fraction of the download tables of string slices would be.
fn fields(b: &mut Builder, layout: &'static str) -> DResult<()> {
    for field in layout.split(';').filter(|f| !f.is_empty()) {
        let (name, rest) = field.split_once(':').unwrap_or((field, "0"));
        let (width, names) = rest.split_once('=').unwrap_or((rest, ""));
        let v = b.bits(name, width.parse().unwrap_or(0))?;
        if let Some(n) = names.split('|').nth(v as usize).filter(|n| !n.is_empty()) {
            b.display(n);
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
        // The function bodies follow.
        145 => &["Table", "BodyCount"],
        // Call sites, then the table count (low 16 bits) and the interface
        // array's length (high 16 bits); the function tables follow.
        146 => &["Interface", "CallSites", "TablesAndArrayLength"],
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
        b.error(format!(
            "the operand at 0x{:X} is not where the walk stands",
            o.at
        ));
        return Ok(());
    }
    b.group(name, |b| {
        let id = b.current();
        b.set_display(id, text::operand_text(o, sm51));
        b.group("Token", |b| {
            fields(b, if o.comps == 4 { OPERAND_4 } else { OPERAND })?;
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
                fields(b, EXTENDED_OPERAND)?;
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

    /// Opcode controls by opcode; an immediate constant buffer's rows and a
    /// comment's text.
    #[test]
    fn controls_and_custom_data_are_decoded() {
        let mut shex = Vec::new();
        put(
            &mut shex,
            &[
                0x0005_0050,
                21,
                // if_nz r0.x (test boolean: bit 18)
                0x0104_001F | 1 << 18 | 3 << 24,
                0x0010_000A,
                0,
                // an immediate constant buffer of one row: 1.0, 2, -0.5, 7
                0x0000_1835,
                6,
                0x3F80_0000,
                2,
                0xBF00_0000,
                7,
                // a comment: "hi" padded
                0x0000_0035,
                3,
                u32::from_le_bytes(*b"hi\0\0"),
                // mul_sat r0.x, r0.x, r0.x
                0x0700_0038 | 1 << 13,
                0x0010_0012,
                0,
                0x0010_000A,
                0,
                0x0010_000A,
                0,
            ],
        );
        let d = crate::decode_bytes(&container(&[(b"SHEX", &shex)]));
        check_tree(&d.tree);
        let t = &d.tree;
        let s = "Parts/[0]/Shader/Instructions";
        assert_eq!(num(t, &format!("{s}/[0]/Controls/Test")), 1);
        assert_eq!(shown(t, &format!("{s}/[0]/Controls/Test")), "nonzero");
        assert_eq!(
            shown(t, &format!("{s}/[1]/DataClass")),
            "ImmediateConstantBuffer"
        );
        assert_eq!(shown(t, &format!("{s}/[1]/Rows/[0]")), "{ 1, 2, -0.5, 7 }");
        assert_eq!(num(t, &format!("{s}/[1]/Rows/[0]/W")), 7);
        assert_eq!(shown(t, &format!("{s}/[2]/DataClass")), "Comment");
        assert_eq!(
            node(t, &format!("{s}/[2]/Text")).value,
            Some(crate::tree::Value::Str("hi".into()))
        );
        assert_eq!(num(t, &format!("{s}/[3]/Controls/Saturate")), 1);
        assert_eq!(shown(t, &format!("{s}/[3]")), "mul r0.x, r0.x, r0.x");
        assert!(d.is_clean(), "errors: {:?}", t.errors());
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
