//! An SM4/5 program as FXC prints it: the version line, then one line per
//! declaration and instruction (an immediate constant buffer takes a line per
//! row), indented two spaces per open `if`, `loop` or `switch`. Each line
//! carries the bits of the tokens it was made from.

use super::tokens::{op, Index, Instruction, Operand, Program, Select};
use crate::dis::Line;

/// The program's lines: version, declarations and instructions; a comment
/// line where the stream could not be read further.
pub(crate) fn program(p: &Program) -> Vec<Line> {
    let mut out = Vec::new();
    let Some((major, minor, ty)) = p.version else {
        out.push(Line::plain("// hexlens: no version token"));
        return out;
    };
    // SM4 program types number the stages as DXIL shader kinds do.
    let prefix = if ty <= 5 {
        super::names::profile_prefix(u64::from(ty))
    } else {
        "??"
    };
    // The version token and the length dword.
    out.push(Line::bytes(
        format!("{prefix}_{major}_{minor}"),
        p.at,
        p.at + 8,
    ));
    let sm51 = (major, minor) >= (5, 1);
    let mut depth = 0usize;
    for ins in &p.instructions {
        let name_depth = match ins.opcode {
            // endif, endloop, endswitch close a block; else and case sit at
            // the level of what opened it.
            21..=23 => {
                depth = depth.saturating_sub(1);
                depth
            }
            18 => depth.saturating_sub(1),
            _ => depth,
        };
        let start = out.len();
        instruction(ins, &mut out, sm51);
        let pad = "  ".repeat(name_depth);
        if !pad.is_empty() {
            for l in &mut out[start..] {
                l.text.insert_str(0, &pad);
            }
        }
        match ins.opcode {
            // if, loop, switch open a block.
            31 | 48 | 76 => depth += 1,
            _ => {}
        }
    }
    if let Some((at, why)) = &p.error {
        out.push(Line::plain(format!(
            "// hexlens: the program stops being readable at 0x{at:X}: {why}"
        )));
    }
    out
}

/// How an instruction's immediates are read: as floats, as integers, or by
/// what their bits look like.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Num {
    Float,
    Int,
    Any,
}

/// What the source immediates of opcode `o` are.
fn numbers(o: u32) -> Num {
    match o {
        0
        | 11
        | 12
        | 14..=17
        | 24
        | 25
        | 26
        | 27
        | 28
        | 29
        | 47
        | 49
        | 50
        | 51
        | 52
        | 56
        | 57
        | 64..=75
        | 77
        | 108
        | 109
        | 111
        | 122..=130
        | 203..=205 => Num::Float,
        54 | 55 | 142 => Num::Any,
        _ => Num::Int,
    }
}

/// How a float is written: FXC's six digits (the listing) or the shortest
/// digits that read back the same (the tree's displays, which then link no
/// fixed-precision formatting).
type FloatText = fn(f64) -> String;

/// One immediate 32-bit value as FXC prints it.
fn imm32(v: u32, num: Num) -> String {
    imm32_with(v, num, crate::floattext::fixed6)
}

fn imm32_with(v: u32, num: Num, ft: FloatText) -> String {
    let f = f32::from_bits(v);
    let exp = v & 0x7F80_0000;
    let float = match num {
        Num::Float => true,
        Num::Int => false,
        // Typeless: a value whose exponent is neither all zeros (zero and
        // denormals: small integers) nor all ones reads as a float.
        Num::Any => exp != 0 && exp != 0x7F80_0000,
    };
    if float {
        ft(f64::from(f))
    } else if !(-10_000..10_000).contains(&(v as i32)) {
        format!("0x{v:08x}")
    } else {
        (v as i32).to_string()
    }
}

fn comp(c: u8) -> char {
    ['x', 'y', 'z', 'w'][usize::from(c & 3)]
}

/// An operand's component suffix (`.xyz`, `.xyxx`, `.y`).
pub(crate) fn components(o: &Operand) -> String {
    match o.select {
        Select::None => String::new(),
        Select::Mask(0) => String::new(),
        Select::Mask(m) => {
            let mut s = String::from(".");
            for c in 0..4 {
                if m & (1 << c) != 0 {
                    s.push(comp(c));
                }
            }
            s
        }
        Select::Swizzle(sw) => {
            let mut s = String::from(".");
            for c in sw {
                s.push(comp(c));
            }
            s
        }
        Select::One(c) => format!(".{}", comp(c)),
    }
}

/// The register name of operand type `ty` (`None`: an immediate).
fn register(ty: u32) -> &'static str {
    match ty {
        0 => "r",
        1 => "v",
        2 => "o",
        3 => "x",
        6 => "s",
        7 => "t",
        8 => "cb",
        9 => "icb",
        10 => "l",
        11 => "vPrim",
        12 => "oDepth",
        13 => "null",
        14 => "rasterizer",
        15 => "oMask",
        16 => "m",
        17 => "fb",
        18 => "ft",
        19 => "fp",
        20 => "fi",
        21 => "fo",
        22 => "vOutputControlPointID",
        23 => "vForkInstanceID",
        24 => "vJoinInstanceID",
        25 => "vicp",
        26 => "vocp",
        27 => "vpc",
        28 => "vDomain",
        29 => "this",
        30 => "u",
        31 => "g",
        32 => "vThreadID",
        33 => "vThreadGroupID",
        34 => "vThreadIDInGroup",
        35 => "vCoverage",
        36 => "vThreadIDInGroupFlattened",
        37 => "vGSInstanceID",
        38 => "oDepthGE",
        39 => "oDepthLE",
        40 => "vCycleCounter",
        41 => "oStencilRef",
        42 => "vInnerCoverage",
        _ => "?",
    }
}

fn index_text(i: &Index, num: Num, sm51: bool, ft: FloatText) -> String {
    match (&i.rel, i.imm) {
        (Some(r), imm) => format!("{} + {}", operand_with(r, num, sm51, ft), imm.unwrap_or(0)),
        (None, Some(v)) => v.to_string(),
        (None, None) => "?".into(),
    }
}

/// An operand as FXC prints it (`sm51`: in an SM 5.1 program, whose
/// resources are ranges in register spaces: `T0[2]`, `CB1[0][3]`).
fn operand(o: &Operand, num: Num, sm51: bool) -> String {
    operand_with(o, num, sm51, crate::floattext::fixed6)
}

fn operand_with(o: &Operand, num: Num, sm51: bool, ft: FloatText) -> String {
    let body = if o.ty == 4 || o.ty == 5 {
        let vals: Vec<String> = if o.ty == 4 {
            o.imm.iter().map(|&v| imm32_with(v, num, ft)).collect()
        } else {
            o.imm
                .chunks(2)
                .map(|c| {
                    let bits = u64::from(c[0]) | (u64::from(*c.get(1).unwrap_or(&0)) << 32);
                    format!("{}l", ft(f64::from_bits(bits)))
                })
                .collect()
        };
        // Typeless values are listed without spaces.
        let sep = if num == Num::Any { "," } else { ", " };
        format!("{}({})", if o.ty == 4 { "l" } else { "d" }, vals.join(sep))
    } else {
        let name = register(o.ty);
        let mut s = if sm51 && matches!(o.ty, 6 | 7 | 8 | 30) {
            name.to_ascii_uppercase()
        } else {
            String::from(name)
        };
        // The first index is part of a register's name (`r0`, `cb1[3]`)
        // unless it is relative, or the register is an array of arrays
        // (an input per vertex: `v[2][1]`, `vicp[0][1]`) or `icb`.
        let attached = matches!(
            o.ty,
            0 | 1 | 2 | 3 | 6 | 7 | 8 | 16 | 17 | 18 | 19 | 30 | 31
        ) && !(matches!(o.ty, 1) && o.indices.len() == 2)
            && o.indices.first().is_some_and(|i| i.rel.is_none());
        for (k, i) in o.indices.iter().enumerate() {
            if k == 0 && attached {
                s.push_str(&index_text(i, Num::Int, sm51, ft));
            } else {
                s.push('[');
                s.push_str(&index_text(i, Num::Int, sm51, ft));
                s.push(']');
            }
        }
        s.push_str(&components(o));
        s
    };
    match o.modifier {
        1 => format!("-{body}"),
        2 => format!("|{body}|"),
        3 => format!("-|{body}|"),
        _ => body,
    }
}

const RESOURCE_DIMS: [&str; 13] = [
    "unknown",
    "buffer",
    "texture1d",
    "texture2d",
    "texture2dms",
    "texture3d",
    "texturecube",
    "texture1darray",
    "texture2darray",
    "texture2dmsarray",
    "texturecubearray",
    "raw_buffer",
    "structured_buffer",
];

const RETURN_TYPES: [&str; 10] = [
    "?",
    "unorm",
    "snorm",
    "sint",
    "uint",
    "float",
    "mixed",
    "double",
    "continued",
    "unused",
];

pub(crate) fn return_types(token: u32) -> String {
    let t: Vec<&str> = (0..4)
        .map(|k| {
            RETURN_TYPES
                .get(((token >> (4 * k)) & 0xF) as usize)
                .copied()
                .unwrap_or("?")
        })
        .collect();
    format!("({})", t.join(","))
}

const SYSTEM_VALUES: [&str; 23] = [
    "undefined",
    "position",
    "clip_distance",
    "cull_distance",
    "rendertarget_array_index",
    "viewport_array_index",
    "vertex_id",
    "primitive_id",
    "instance_id",
    "is_front_face",
    "sampleIndex",
    "finalQuadUeq0EdgeTessFactor",
    "finalQuadVeq0EdgeTessFactor",
    "finalQuadUeq1EdgeTessFactor",
    "finalQuadVeq1EdgeTessFactor",
    "finalQuadUInsideTessFactor",
    "finalQuadVInsideTessFactor",
    "finalTriUeq0EdgeTessFactor",
    "finalTriVeq0EdgeTessFactor",
    "finalTriWeq0EdgeTessFactor",
    "finalTriInsideTessFactor",
    "finalLineDetailTessFactor",
    "finalLineDensityTessFactor",
];

fn pick(names: &[&str], v: u32) -> String {
    names
        .get(v as usize)
        .map_or_else(|| format!("unknown({v})"), |s| (*s).to_string())
}

/// The instruction's mnemonic with its suffixes (`_sat`, `_nz`,
/// `_aoffimmi(1,1,0)`, `_indexable(texture2d)(float,float,float,float)`).
fn mnemonic(ins: &Instruction, ext: &[u32]) -> String {
    let c = ins.controls();
    let base = match ins.opcode {
        89 => "dcl_constantbuffer".to_string(),
        90 => "dcl_sampler".into(),
        91 => "dcl_indexrange".into(),
        92 => "dcl_outputtopology".into(),
        93 => "dcl_inputprimitive".into(),
        94 => "dcl_maxout".into(),
        105 => "dcl_indexableTemp".into(),
        106 => "dcl_globalFlags".into(),
        46 => "ldms".into(),
        110 => "samplepos".into(),
        111 => "sampleinfo".into(),
        120 => "fcall".into(),
        149 => "dcl_tessellator_domain".into(),
        150 => "dcl_tessellator_partitioning".into(),
        151 => "dcl_tessellator_output_primitive".into(),
        o => super::names::sm4_opcode(u64::from(o))
            .map_or_else(|| format!("unknown_opcode_{o}"), str::to_string),
    };
    let mut s = base;
    // Test booleans: if, breakc, continuec, retc, discard, callc.
    if matches!(ins.opcode, 3 | 5 | 8 | 13 | 31 | 63) {
        s.push_str(if c & (1 << 7) != 0 { "_nz" } else { "_z" });
    }
    if ins.opcode == 61 {
        match c & 3 {
            1 => s.push_str("_rcpfloat"),
            2 => s.push_str("_uint"),
            _ => {}
        }
    }
    if ins.opcode == 111 && c & 1 != 0 {
        s.push_str("_uint");
    }
    if ins.opcode == 190 {
        if c & 8 != 0 {
            s.push_str("_uglobal");
        }
        if c & 4 != 0 {
            s.push_str("_ugroup");
        }
        if c & 2 != 0 {
            s.push_str("_g");
        }
        if c & 1 != 0 {
            s.push_str("_t");
        }
    }
    // `_aoffimmi` and `_indexable` are named first, their arguments after:
    // `ldms_aoffimmi_indexable(1,1,0)(texture2dms)(float,float,float,float)`.
    let mut args = String::new();
    for &e in ext {
        match e & 0x3F {
            1 => {
                let off = |k: u32| -> i32 { (((e >> k) & 0xF) as i32) << 28 >> 28 };
                s.push_str("_aoffimmi");
                args.push_str(&format!("({},{},{})", off(9), off(13), off(17)));
            }
            2 => {
                let dim = (e >> 6) & 0x1F;
                s.push_str("_indexable");
                args.push('(');
                args.push_str(&pick(&RESOURCE_DIMS, dim));
                if dim == 12 {
                    args.push_str(&format!(", stride={}", (e >> 11) & 0xFFF));
                }
                args.push(')');
            }
            3 => args.push_str(&return_types(e >> 6)),
            _ => {}
        }
    }
    s.push_str(&args);
    if c & 4 != 0 && !is_declaration(ins.opcode) && ins.opcode != 190 && ins.opcode != 61 {
        s.push_str("_sat");
    }
    s
}

fn is_declaration(o: u32) -> bool {
    matches!(o, 88..=106 | 113..=116 | 143..=162 | 206)
}

/// Appends the instruction's lines.
fn instruction(ins: &Instruction, out: &mut Vec<Line>, sm51: bool) {
    let end = ins.at + 4 * ins.words.len() as u64;
    let whole = |text: String| Line::bytes(text, ins.at, end);
    if ins.opcode == op::CUSTOMDATA {
        custom_data(ins, out, sm51);
        return;
    }
    let d = ins.decode();
    let c = ins.controls();
    let num = numbers(ins.opcode);
    let ops = |from: usize| -> Vec<String> {
        d.operands
            .iter()
            .enumerate()
            .map(|(k, o)| {
                // movc's condition and gather4_po's offsets are integers;
                // mov's and movc's values are typeless.
                let n = if (ins.opcode == 55 && k == 1)
                    || (matches!(ins.opcode, 127 | 128) && k == 2)
                {
                    Num::Int
                } else {
                    num
                };
                operand(o, n, sm51)
            })
            .skip(from)
            .collect()
    };
    let extra = |k: usize| d.extra.get(k).map_or(0, |e| e.1);
    let name = mnemonic(ins, &d.ext);
    // A resource declaration's register: `t0`, or in SM 5.1 its range of
    // registers `T0[0:3]` (a constant buffer's size after it: `CB0[0:0][4]`),
    // and its register space, the declaration's last dword.
    let target = || -> String {
        let Some(o) = d.operands.first() else {
            return String::new();
        };
        if sm51 && o.indices.len() == 3 {
            let idx = |k: usize| o.indices[k].imm.unwrap_or(0);
            let hi = if idx(2) == u64::from(u32::MAX) {
                "unbounded".to_string()
            } else {
                idx(2).to_string()
            };
            let mut t = format!(
                "{}{}[{}:{hi}]",
                register(o.ty).to_ascii_uppercase(),
                idx(0),
                idx(1)
            );
            if ins.opcode == 89 {
                t.push_str(&format!("[{}]", extra(0)));
            }
            t
        } else {
            let mut o = o.clone();
            if ins.opcode == 89 {
                o.select = Select::None;
            }
            operand(&o, Num::Int, sm51)
        }
    };
    let space = || -> String {
        match d.extra.last() {
            Some(&(_, v)) if sm51 => format!(", space={v}"),
            _ => String::new(),
        }
    };
    let text = match ins.opcode {
        88 => {
            let dim = c & 0x1F;
            let samples = (c >> 5) & 0x7F;
            let mut n = format!("dcl_resource_{}", pick(&RESOURCE_DIMS, dim));
            if matches!(dim, 4 | 9) {
                n.push_str(&format!("({samples})"));
            }
            format!("{n} {} {}{}", return_types(extra(0)), target(), space())
        }
        89 => format!(
            "{name} {}, {}{}",
            target(),
            if c & 1 != 0 {
                "dynamicIndexed"
            } else {
                "immediateIndexed"
            },
            space()
        ),
        90 => format!(
            "{name} {}, {}{}",
            target(),
            pick(&["mode_default", "mode_comparison", "mode_mono"], c & 0xF),
            space()
        ),
        91 => format!("{name} {} {}", ops(0).join(", "), extra(0)),
        92 => format!(
            "{name} {}",
            pick(
                &[
                    "undefined",
                    "pointlist",
                    "undefined",
                    "linestrip",
                    "undefined",
                    "trianglestrip",
                    "undefined",
                    "undefined",
                    "undefined",
                    "undefined",
                    "linelist_adj",
                    "linestrip_adj",
                    "trianglelist_adj",
                    "trianglestrip_adj",
                ],
                c & 0x7F
            )
        ),
        93 => format!(
            "{name} {}",
            match c & 0x3F {
                1 => "point".to_string(),
                2 => "line".into(),
                3 => "triangle".into(),
                6 => "lineadj".into(),
                7 => "triangleadj".into(),
                n @ 8..=39 => format!("{}_control_point_patch", n - 7),
                n => format!("unknown({n})"),
            }
        ),
        94 | 104 | 144 | 153 | 154 | 206 => match ins.opcode {
            144 => format!("{name} fb{}", extra(0)),
            _ => format!("{name} {}", extra(0)),
        },
        96 | 97 | 99 | 100 | 102 | 103 => {
            let interp = if ins.opcode == 100 {
                interpolation(c)
            } else {
                String::new()
            };
            format!(
                "{name} {interp}{}, {}",
                ops(0).join(", "),
                pick(&SYSTEM_VALUES, extra(0))
            )
        }
        98 => format!("{name} {}{}", interpolation(c), ops(0).join(", ")),
        105 => format!("{name} x{}[{}], {}", extra(0), extra(1), extra(2)),
        106 => {
            let flags = [
                "refactoringAllowed",
                "enableDoublePrecisionFloatOps",
                "forceEarlyDepthStencil",
                "enableRawAndStructuredBuffers",
                "skipOptimization",
                "enableMinimumPrecision",
                "enable11_1DoubleExtensions",
                "enable11_1ShaderExtensions",
            ];
            let set: Vec<&str> = (0..8)
                .filter(|k| c & (1 << k) != 0)
                .map(|k| flags[k])
                .collect();
            format!("{name} {}", set.join(" | "))
        }
        145 => {
            let n = extra(1) as usize;
            let fbs: Vec<String> = (0..n).map(|k| format!("fb{}", extra(2 + k))).collect();
            format!("{name} ft{} = {{{}}}", extra(0), fbs.join(", "))
        }
        146 => {
            let len = extra(2) & 0xFFFF;
            let arr = extra(2) >> 16;
            let fts: Vec<String> = (0..len as usize)
                .map(|k| format!("ft{}", extra(3 + k)))
                .collect();
            format!(
                "{name} fp{}[{arr}][{}] = {{{}}}",
                extra(0),
                extra(1),
                fts.join(", ")
            )
        }
        147 | 148 => format!("{name} {}", c & 0x3F),
        149 => format!(
            "{name} {}",
            pick(
                &[
                    "domain_undefined",
                    "domain_isoline",
                    "domain_tri",
                    "domain_quad"
                ],
                c & 3
            )
        ),
        150 => format!(
            "{name} {}",
            pick(
                &[
                    "partitioning_undefined",
                    "partitioning_integer",
                    "partitioning_pow2",
                    "partitioning_fractional_odd",
                    "partitioning_fractional_even",
                ],
                c & 7
            )
        ),
        151 => format!(
            "{name} {}",
            pick(
                &[
                    "output_undefined",
                    "output_point",
                    "output_line",
                    "output_triangle_cw",
                    "output_triangle_ccw",
                ],
                c & 7
            )
        ),
        152 => format!("{name} l({})", imm32(extra(0), Num::Float)),
        155 => format!("{name} {}, {}, {}", extra(0), extra(1), extra(2)),
        156 => format!(
            "dcl_uav_typed_{}{} {} {}{}",
            pick(&RESOURCE_DIMS, c & 0x1F),
            uav_flags(c),
            return_types(extra(0)),
            target(),
            space()
        ),
        157 => format!("{name}{} {}{}", uav_flags(c), target(), space()),
        161 => format!("{name} {}{}", target(), space()),
        158 => format!(
            "{name}{} {}, {}{}",
            uav_flags(c),
            target(),
            extra(0),
            space()
        ),
        162 => format!("{name} {}, {}{}", target(), extra(0), space()),
        159 => format!("{name} {}, {}", ops(0).join(", "), extra(0)),
        160 => format!("{name} {}, {}, {}", ops(0).join(", "), extra(0), extra(1)),
        // The interface operand, then the call site.
        120 => format!("{name} {}[{}]", ops(0).join(", "), extra(0)),
        _ => format!("{name} {}", ops(0).join(", ")),
    };
    let mut line = whole(text);
    if let Some(e) = &d.error {
        line.text.push_str(&format!(" // hexlens: {e}"));
    }
    out.push(line);
}

/// A UAV declaration's suffixes: globally coherent (control bit 5),
/// order-preserving counter (bit 12), rasterizer ordered (bit 6).
fn uav_flags(c: u32) -> String {
    let mut s = String::new();
    for (bit, suffix) in [(5, "_glc"), (12, "_opc"), (6, "_rov")] {
        if c & (1 << bit) != 0 {
            s.push_str(suffix);
        }
    }
    s
}

fn interpolation(c: u32) -> String {
    match c & 0xF {
        0 => String::new(),
        m => format!(
            "{} ",
            pick(
                &[
                    "undefined",
                    "constant",
                    "linear",
                    "linear centroid",
                    "linear noperspective",
                    "linear noperspective centroid",
                    "linear sample",
                    "linear noperspective sample",
                ],
                m
            )
        ),
    }
}

/// A custom-data block: the immediate constant buffer a row a line; other
/// classes as a comment naming them.
fn custom_data(ins: &Instruction, out: &mut Vec<Line>, sm51: bool) {
    let class = ins.token() >> 11;
    let data = ins.words.get(2..).unwrap_or(&[]);
    if class == 3 {
        let rows: Vec<&[u32]> = data.chunks(4).collect();
        if rows.is_empty() {
            out.push(Line::bytes(
                "dcl_immediateConstantBuffer { }",
                ins.at,
                ins.at + 8,
            ));
            return;
        }
        for (k, row) in rows.iter().enumerate() {
            let vals: Vec<String> = row.iter().map(|&v| imm32(v, Num::Any)).collect();
            let body = format!("{{ {}}}", vals.join(", "));
            let lead = if k == 0 {
                "dcl_immediateConstantBuffer { ".to_string()
            } else {
                " ".repeat(30)
            };
            let tail = if k + 1 == rows.len() { " }" } else { "," };
            let at = ins.at + 8 + 16 * k as u64;
            let mut l = Line::bytes(format!("{lead}{body}{tail}"), at, at + 4 * row.len() as u64);
            if k == 0 {
                l = l.with_bytes(ins.at, ins.at + 8);
            }
            out.push(l);
        }
        return;
    }
    if class == 4 {
        if let Some(text) = shader_message(ins, sm51) {
            out.push(Line::bytes(
                text,
                ins.at,
                ins.at + 4 * ins.words.len() as u64,
            ));
            return;
        }
    }
    let name = super::names::sm4_customdata_class(u64::from(class)).unwrap_or("unknown");
    out.push(Line::bytes(
        format!(
            "// hexlens: custom data ({name}), {} dwords",
            ins.words.len()
        ),
        ins.at,
        ins.at + 4 * ins.words.len() as u64,
    ));
}

/// A shader message (`printf`, `errorf`): after the block's class and length,
/// the message's kind, its format (1: printf-style), the length of its text,
/// how many operands it has and how many dwords they take, the operands, then
/// the text (NUL-terminated).
fn shader_message(ins: &Instruction, sm51: bool) -> Option<String> {
    let w = &ins.words;
    let (kind, chars, count, dwords) = (
        *w.get(2)?,
        *w.get(4)? as usize,
        *w.get(5)?,
        *w.get(6)? as usize,
    );
    let name = match kind {
        0x0020_0102 => "printf",
        0x0020_0103 => "errorf",
        _ => return None,
    };
    let ops_end = 7usize.checked_add(dwords)?;
    let mut i = 7;
    let mut operands = Vec::new();
    while i < ops_end.min(w.len()) && operands.len() < count as usize {
        let o = super::tokens::operand(w, &mut i, ins.at).ok()?;
        operands.push(operand(&o, Num::Any, sm51));
    }
    let bytes: Vec<u8> = w
        .get(ops_end..)?
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let text = String::from_utf8_lossy(bytes.get(..chars)?).into_owned();
    let mut line = format!("{name} \"{text}\"");
    for o in operands {
        line.push_str(", ");
        line.push_str(&o);
    }
    Some(line)
}

/// An operand's text for the tree: immediates read by their bits, floats in
/// their shortest digits.
pub(crate) fn operand_text(o: &Operand, sm51: bool) -> String {
    operand_with(o, Num::Any, sm51, crate::floattext::display)
}

/// A typeless 32-bit value for the tree (an immediate constant buffer's):
/// a float by its bits' exponent, in its shortest digits, else an integer.
pub(crate) fn imm32_text(v: u32) -> String {
    imm32_with(v, Num::Any, crate::floattext::display)
}

/// A system value's name as FXC prints it (`position`, `vertex_id`).
pub(crate) fn system_value(v: u32) -> String {
    pick(&SYSTEM_VALUES, v)
}

/// What an operand type is, for the tree (`r (temp)`, `cb (constant buffer)`).
pub(crate) fn operand_type_name(ty: u32) -> String {
    let what = match ty {
        0 => "temp",
        1 => "input",
        2 => "output",
        3 => "indexable temp",
        4 => "32-bit immediate",
        5 => "64-bit immediate",
        6 => "sampler",
        7 => "resource",
        8 => "constant buffer",
        9 => "immediate constant buffer",
        10 => "label",
        17 => "function body",
        18 => "function table",
        19 => "interface",
        30 => "unordered access view",
        31 => "thread group shared memory",
        _ => "",
    };
    let reg = match ty {
        4 => "l",
        5 => "d",
        t => register(t),
    };
    if what.is_empty() {
        reg.to_string()
    } else {
        format!("{reg} ({what})")
    }
}

#[cfg(test)]
mod tests {
    /// The lines of a ps_5_0 program made of `body` (instruction dwords).
    fn lines(body: &[u32]) -> Vec<String> {
        let mut words = vec![0x0000_0050, 2 + body.len() as u32];
        words.extend_from_slice(body);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let p = super::super::tokens::program(&bytes, 0);
        super::program(&p)
            .into_iter()
            .skip(1)
            .map(|l| l.text)
            .collect()
    }

    /// An immediate's type follows its operand: f16tof32 reads integers,
    /// gather4_po's offsets are integers beside a float address, samplepos
    /// takes an integer sample index.
    #[test]
    fn immediates_are_read_as_their_operand_types() {
        // f16tof32 r0.x, l(7): as a float its bits would be a denormal
        let f16 = [0x0500_0083, 0x0010_0012, 0, 0x0000_4001, 7];
        assert_eq!(lines(&f16), ["f16tof32 r0.x, l(7)"]);
        // f32tof16 r0.x, l(1.000000)
        let f32 = [0x0500_0082, 0x0010_0012, 0, 0x0000_4001, 0x3F80_0000];
        assert_eq!(lines(&f32), ["f32tof16 r0.x, l(1.000000)"]);
        // gather4_po r0.xyzw, l(0.5, 0.5, 0, 0), l(1, 2, 0, 0), t0.xyzw, s0.x
        let g = [
            0x1100_007F,
            0x0010_00F2,
            0,
            0x0000_4002,
            0x3F00_0000,
            0x3F00_0000,
            0,
            0,
            0x0000_4002,
            1,
            2,
            0,
            0,
            0x0010_7E46,
            0,
            0x0010_600A,
            0,
        ];
        assert_eq!(
            lines(&g),
            ["gather4_po r0.xyzw, l(0.500000, 0.500000, 0.000000, 0.000000), l(1, 2, 0, 0), t0.xyzw, s0.x"]
        );
    }

    /// UAV declarations name their flags: globally coherent, order-preserving
    /// counter, rasterizer ordered.
    #[test]
    fn uav_declarations_name_their_flags() {
        // dcl_uav_structured_glc_opc u1, 16
        let s = [0x0400_009E | 1 << 16 | 1 << 23, 0x0011_E000, 1, 16];
        assert_eq!(lines(&s), ["dcl_uav_structured_glc_opc u1, 16"]);
        // dcl_uav_raw_rov u0
        let r = [0x0300_009D | 1 << 17, 0x0011_E000, 0];
        assert_eq!(lines(&r), ["dcl_uav_raw_rov u0"]);
    }
}
