//! The SM4/5 token stream decoded (Microsoft's tokenized program format, as
//! FXC writes it): each instruction's opcode token fields, extended opcode
//! tokens, operands (operand token, extended operand tokens, indices,
//! immediates) and the dwords declarations carry after their operands.
//! Nothing here reads outside the words it is given; a damaged stream stops
//! with an error saying where.

/// A decoded program: the version token, its instructions, and where and
/// why decoding stopped, if it did before the end.
#[derive(Clone, Debug, Default)]
pub(crate) struct Program {
    /// File offset of the version token.
    pub at: u64,
    /// The version token: (major, minor, program type: 0 pixel, 1 vertex,
    /// 2 geometry, 3 hull, 4 domain, 5 compute).
    pub version: Option<(u32, u32, u32)>,
    /// The instructions, in stream order.
    pub instructions: Vec<Instruction>,
    /// Where decoding stopped early (file offset) and why.
    pub error: Option<(u64, String)>,
}

/// One instruction (or declaration, or custom-data block).
#[derive(Clone, Debug, Default)]
pub(crate) struct Instruction {
    /// File offset of the opcode token.
    pub at: u64,
    /// Every dword of the instruction, the opcode token first.
    pub words: Vec<u32>,
    /// The opcode (bits 0–10 of the opcode token).
    pub opcode: u32,
}

/// How a 4-component operand picks its components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Select {
    /// Not a 4-component operand (0 or 1 component, or N).
    None,
    /// A write mask (bit 0: x … bit 3: w).
    Mask(u8),
    /// A swizzle: the source component of each of x, y, z, w.
    Swizzle([u8; 4]),
    /// One component.
    One(u8),
}

/// One index of an operand: an immediate, a relative operand, or both
/// (`r0.x + 3`).
#[derive(Clone, Debug)]
pub(crate) struct Index {
    /// The immediate part.
    pub imm: Option<u64>,
    /// The relative part.
    pub rel: Option<Box<Operand>>,
}

/// One operand.
#[derive(Clone, Debug)]
pub(crate) struct Operand {
    /// File offset of the operand token.
    pub at: u64,
    /// File offset past its last dword (its indices and nested operands).
    pub end: u64,
    /// The operand token.
    pub token: u32,
    /// Number of components: 0, 1 or 4 (N is given as 5).
    pub comps: u32,
    /// Operand type (bits 12–19: 0 temp `r`, 1 input `v`, 2 output `o`, …).
    pub ty: u32,
    /// How the components are picked.
    pub select: Select,
    /// The indices, outermost first.
    pub indices: Vec<Index>,
    /// Immediate values (one or four dwords; 64-bit immediates give two
    /// dwords each).
    pub imm: Vec<u32>,
    /// Modifier of an extended operand token: 0 none, 1 neg, 2 abs, 3 -abs.
    pub modifier: u32,
    /// Minimum precision of an extended operand token (0: default).
    pub min_precision: u32,
    /// Non-uniform index (extended operand token bit 17).
    pub nonuniform: bool,
}

/// A decoded instruction's fields beyond its words.
#[derive(Clone, Debug, Default)]
pub(crate) struct Decoded {
    /// Extended opcode tokens.
    pub ext: Vec<u32>,
    /// The operands, in order.
    pub operands: Vec<Operand>,
    /// Declarations' dwords after their operands (or instead of them): the
    /// word index in the instruction and the value.
    pub extra: Vec<(usize, u32)>,
    /// Why the instruction's words could not all be read, if so.
    pub error: Option<String>,
}

/// Opcodes with a meaning of their own for the stream.
pub(crate) mod op {
    pub const CUSTOMDATA: u32 = 53;
    pub const DCL_RESOURCE: u32 = 88;
    pub const DCL_CONSTANT_BUFFER: u32 = 89;
    pub const DCL_SAMPLER: u32 = 90;
    pub const DCL_UAV_RAW: u32 = 157;
    pub const DCL_RESOURCE_RAW: u32 = 161;
    pub const DCL_INDEX_RANGE: u32 = 91;
    pub const DCL_MAX_OUTPUT_VERTEX_COUNT: u32 = 94;
    pub const DCL_INPUT_SGV: u32 = 96;
    pub const DCL_INPUT_SIV: u32 = 97;
    pub const DCL_INPUT_PS_SGV: u32 = 99;
    pub const DCL_INPUT_PS_SIV: u32 = 100;
    pub const DCL_OUTPUT_SGV: u32 = 102;
    pub const DCL_OUTPUT_SIV: u32 = 103;
    pub const DCL_TEMPS: u32 = 104;
    pub const DCL_INDEXABLE_TEMP: u32 = 105;
    pub const DCL_FUNCTION_BODY: u32 = 144;
    pub const DCL_FUNCTION_TABLE: u32 = 145;
    pub const DCL_INTERFACE: u32 = 146;
    pub const DCL_HS_MAX_TESSFACTOR: u32 = 152;
    pub const DCL_HS_FORK_PHASE_INSTANCE_COUNT: u32 = 153;
    pub const DCL_HS_JOIN_PHASE_INSTANCE_COUNT: u32 = 154;
    pub const DCL_THREAD_GROUP: u32 = 155;
    pub const DCL_UAV_TYPED: u32 = 156;
    pub const DCL_UAV_STRUCTURED: u32 = 158;
    pub const DCL_TGSM_RAW: u32 = 159;
    pub const DCL_TGSM_STRUCTURED: u32 = 160;
    pub const DCL_RESOURCE_STRUCTURED: u32 = 162;
    pub const INTERFACE_CALL: u32 = 120;
    pub const DCL_GS_INSTANCE_COUNT: u32 = 206;
}

impl Instruction {
    /// The opcode token.
    pub fn token(&self) -> u32 {
        self.words.first().copied().unwrap_or(0)
    }

    /// The opcode-specific control bits (11–23 of the opcode token).
    pub fn controls(&self) -> u32 {
        (self.token() >> 11) & 0x1FFF
    }

    /// Its extended opcode tokens, operands and declaration dwords.
    pub fn decode(&self) -> Decoded {
        let mut d = Decoded::default();
        let w = &self.words;
        if self.opcode == op::CUSTOMDATA {
            return d;
        }
        let mut i = 1;
        let mut ext = self.token() & 0x8000_0000 != 0;
        while ext && i < w.len() {
            d.ext.push(w[i]);
            ext = w[i] & 0x8000_0000 != 0;
            i += 1;
        }
        // Declarations: how many operands, then how many dwords after them
        // (`None`: the rest of the instruction).
        let (operands, extra): (usize, Option<usize>) = match self.opcode {
            op::DCL_INDEX_RANGE => (1, Some(1)),
            op::DCL_INPUT_SGV
            | op::DCL_INPUT_SIV
            | op::DCL_INPUT_PS_SGV
            | op::DCL_INPUT_PS_SIV
            | op::DCL_OUTPUT_SGV
            | op::DCL_OUTPUT_SIV => (1, Some(1)),
            op::DCL_MAX_OUTPUT_VERTEX_COUNT
            | op::DCL_TEMPS
            | op::DCL_FUNCTION_BODY
            | op::DCL_HS_MAX_TESSFACTOR
            | op::DCL_HS_FORK_PHASE_INSTANCE_COUNT
            | op::DCL_HS_JOIN_PHASE_INSTANCE_COUNT
            | op::DCL_GS_INSTANCE_COUNT => (0, None),
            op::DCL_INDEXABLE_TEMP | op::DCL_THREAD_GROUP => (0, None),
            op::DCL_FUNCTION_TABLE | op::DCL_INTERFACE => (0, None),
            // Resource declarations: SM 5.1 adds dwords (a constant
            // buffer's size, a register space) after those of SM 5.0.
            op::DCL_RESOURCE
            | op::DCL_CONSTANT_BUFFER
            | op::DCL_SAMPLER
            | op::DCL_UAV_TYPED
            | op::DCL_UAV_RAW
            | op::DCL_UAV_STRUCTURED
            | op::DCL_RESOURCE_RAW
            | op::DCL_RESOURCE_STRUCTURED => (1, None),
            op::DCL_TGSM_RAW => (1, Some(1)),
            op::DCL_TGSM_STRUCTURED => (1, Some(2)),
            op::INTERFACE_CALL => {
                // The call site's index, then the interface operand.
                if i < w.len() {
                    d.extra.push((i, w[i]));
                    i += 1;
                }
                (usize::MAX, Some(0))
            }
            _ => (usize::MAX, Some(0)),
        };
        let mut n = 0;
        while n < operands && i < w.len() {
            match operand(w, &mut i, self.at) {
                Ok(o) => d.operands.push(o),
                Err(e) => {
                    d.error = Some(e);
                    return d;
                }
            }
            n += 1;
        }
        match extra {
            Some(k) => {
                for _ in 0..k {
                    if i < w.len() {
                        d.extra.push((i, w[i]));
                        i += 1;
                    } else {
                        d.error = Some("the declaration ends before its last dword".into());
                        return d;
                    }
                }
            }
            None => {
                while i < w.len() {
                    d.extra.push((i, w[i]));
                    i += 1;
                }
            }
        }
        if i < w.len() {
            d.error = Some(format!(
                "{} dwords after the last operand are not read",
                w.len() - i
            ));
        }
        d
    }
}

/// The opcode and length in dwords of the instruction whose opcode token is
/// `tok`: bits 24–30 of the token, or for a custom-data block the dword after
/// it, which `next` reads (`None`: there is none, and so no length).
pub(crate) fn opcode_and_length(
    tok: u32,
    next: impl FnOnce() -> Option<u32>,
) -> Option<(u32, u32)> {
    let opcode = tok & 0x7FF;
    let len = if opcode == op::CUSTOMDATA {
        next()?
    } else {
        (tok >> 24) & 0x7F
    };
    Some((opcode, len))
}

pub(crate) fn operand(w: &[u32], i: &mut usize, at: u64) -> Result<Operand, String> {
    let start = *i;
    let token = *w
        .get(start)
        .ok_or("the instruction ends before an operand")?;
    *i += 1;
    let comps = match token & 3 {
        0 => 0,
        1 => 1,
        2 => 4,
        _ => 5,
    };
    let select = if comps == 4 {
        match (token >> 2) & 3 {
            0 => Select::Mask(((token >> 4) & 0xF) as u8),
            1 => {
                let s = (token >> 4) & 0xFF;
                Select::Swizzle([
                    (s & 3) as u8,
                    ((s >> 2) & 3) as u8,
                    ((s >> 4) & 3) as u8,
                    ((s >> 6) & 3) as u8,
                ])
            }
            2 => Select::One(((token >> 4) & 3) as u8),
            m => return Err(format!("component selection mode {m} is not defined")),
        }
    } else {
        Select::None
    };
    let ty = (token >> 12) & 0xFF;
    let dims = (token >> 20) & 3;
    let mut o = Operand {
        at: at + 4 * start as u64,
        end: 0,
        token,
        comps,
        ty,
        select,
        indices: Vec::new(),
        imm: Vec::new(),
        modifier: 0,
        min_precision: 0,
        nonuniform: false,
    };
    let mut ext = token & 0x8000_0000 != 0;
    while ext {
        let e = *w
            .get(*i)
            .ok_or("the instruction ends in an extended operand token")?;
        *i += 1;
        if e & 0x3F == 1 {
            o.modifier = (e >> 6) & 0xFF;
            o.min_precision = (e >> 14) & 7;
            o.nonuniform = (e >> 17) & 1 != 0;
        }
        ext = e & 0x8000_0000 != 0;
    }
    // Immediates: 4 (immediate32) or 5 (immediate64) hold their values here.
    if ty == 4 || ty == 5 {
        // Four 32-bit values or one; two 64-bit values (a double2) or one.
        let n = match (ty, comps == 4) {
            (4, true) => 4,
            (4, false) => 1,
            (_, true) => 4,
            (_, false) => 2,
        };
        for _ in 0..n {
            o.imm.push(
                *w.get(*i)
                    .ok_or("the instruction ends inside an immediate")?,
            );
            *i += 1;
        }
    }
    for d in 0..dims {
        let rep = (token >> (22 + 3 * d)) & 7;
        let mut idx = Index {
            imm: None,
            rel: None,
        };
        match rep {
            0 | 3 => {
                idx.imm = Some(u64::from(
                    *w.get(*i).ok_or("the instruction ends inside an index")?,
                ));
                *i += 1;
            }
            1 | 4 => {
                let hi = *w.get(*i).ok_or("the instruction ends inside an index")?;
                let lo = *w
                    .get(*i + 1)
                    .ok_or("the instruction ends inside an index")?;
                idx.imm = Some((u64::from(hi) << 32) | u64::from(lo));
                *i += 2;
            }
            2 => {}
            r => return Err(format!("index representation {r} is not defined")),
        }
        if rep >= 2 {
            idx.rel = Some(Box::new(operand(w, i, at)?));
        }
        o.indices.push(idx);
    }
    o.end = at + 4 * *i as u64;
    Ok(o)
}

/// Decodes the SHDR/SHEX part's data `data`, which starts at file offset `at`.
pub(crate) fn program(data: &[u8], at: u64) -> Program {
    let word = |k: usize| -> Option<u32> {
        let b = data.get(4 * k..4 * k + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let mut p = Program {
        at,
        ..Program::default()
    };
    let Some(v) = word(0) else {
        p.error = Some((at, "the part ends before its version token".into()));
        return p;
    };
    p.version = Some(((v >> 4) & 0xF, v & 0xF, v >> 16));
    let total = (data.len() / 4).min(word(1).map_or(0, |n| n as usize));
    let mut k = 2;
    while k < total {
        let (opcode, len) =
            opcode_and_length(word(k).unwrap_or(0), || Some(word(k + 1).unwrap_or(0)))
                .unwrap_or((0, 0));
        let len = len as usize;
        if len == 0 || k + len > total {
            p.error = Some((
                at + 4 * k as u64,
                if len == 0 {
                    "an instruction of length 0: the stream cannot be walked past it".into()
                } else {
                    format!("an instruction of {len} dwords runs past the program's end")
                },
            ));
            break;
        }
        p.instructions.push(Instruction {
            at: at + 4 * k as u64,
            words: (k..k + len).filter_map(word).collect(),
            opcode,
        });
        k += len;
    }
    if p.error.is_none() && data.len() / 4 < word(1).map_or(0, |n| n as usize) {
        p.error = Some((
            at + data.len() as u64,
            "the program's length is more than the part holds".into(),
        ));
    }
    p
}
