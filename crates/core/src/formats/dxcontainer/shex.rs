//! SHDR/SHEX: FXC's SM4/5 shader bytecode (the tokenized program format: version
//! token, length in dwords, then the token stream; layout notes §8,
//! `specs/notes/dxcontainer-layout.md`). Instructions are walked by their length;
//! the tree does not decode their operands yet (`tokens` does, for the listing
//! `hexlens dis` prints: `listing`). `specs/dxcontainer.md` lists the part but does
//! not lay it out.

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
                pages(b, &contiguous_pages(&marks, count, to), |b, first, next| {
                    instructions(b, b.pos(), b.limit(), first, Some(next)).map(|_| ())
                })?;
                p = to;
                i = count;
            }
        }
        let p = instructions(b, p, end, i, None)?;
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
) -> DResult<u64> {
    while p + 4 <= end && next.is_none_or(|k| i < k) {
        let (op, dwords) = opcode_and_length(b, p);
        let n = dwords.saturating_mul(4).max(4);
        b.region(index_name(i), Kind::Struct, p, n, |b| {
            instruction(b, op, dwords)
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

fn instruction(b: &mut Builder, op: u64, dwords: u64) -> DResult<()> {
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
    let r = b.remaining();
    if r > 0 {
        b.bytes(
            if op == OP_CUSTOMDATA {
                "Data"
            } else {
                "Operands"
            },
            r,
        )?;
    }
    Ok(())
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
            "dcl_constant_buffer, 4 dwords"
        );
        assert_eq!(shown(t, &format!("{s}/Instructions/[2]/OpcodeType")), "mov");
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
