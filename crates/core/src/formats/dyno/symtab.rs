//! Symbol Table Section (spec §"Symbol Table Section"): magic, entry count, then one
//! entry per symbol sorted by symbol table ID. An entry holds two offsets (its uAST
//! entry and its location group), a kind byte (Chapel's writer stores the uAST tag),
//! the ID front-coded against the previous entry's ID (prefix length to copy, suffix
//! length, suffix bytes) and — in the spec and the 2024 writer — the code-generated
//! versions, each an instantiation flag and a C name front-coded the same way
//! against the previous C name. The spec's list leaves open whether the generated
//! versions follow each entry or the whole table; Chapel's writer writes them after
//! each entry, and so does this decoder. The 2023 writer has a third offset
//! (types/functions, always 0) and no generated versions.

use super::layout::Layout;
use super::module::{Ctx, SymNodes, SymTarget};
use super::prim::{peek_varint, vuint};
use super::{magic, tags, SYMBOL_TABLE_MAGIC};
use crate::builder::{Builder, DResult, MAX_STRING_VALUE};
use crate::tree::{Kind, Name, Value};

/// Size of the table header (magic, count, reserved).
const HEADER: u64 = 16;
/// Chapel's reader rejects this many symbols (`MAX_NUM_SYMBOLS`).
const MAX_NUM_SYMBOLS: u64 = 100_000_000;

fn fixed_size(layout: Layout) -> u64 {
    if layout == Layout::Writer2023 {
        12
    } else {
        8
    }
}

/// Reads every entry's two offsets without creating nodes (the uAST and location
/// sections need them as entry points and group boundaries). Stops at the first
/// entry that does not fit.
pub fn scan(b: &Builder, s: u64, e: u64, layout: Layout) -> Vec<SymTarget> {
    let mut out = Vec::new();
    let Some(count) = b.peek_uint(s + 8, 4) else {
        return out;
    };
    let mut p = s + HEADER;
    let skip_front_coded = |p: u64| -> Option<u64> {
        let (_, n1) = peek_varint(b, p, e)?;
        let (len, n2) = peek_varint(b, p + n1, e)?;
        let next = (p + n1 + n2).checked_add(len)?;
        (next <= e).then_some(next)
    };
    for _ in 0..count {
        let fixed = fixed_size(layout);
        if p + fixed + 1 > e {
            break;
        }
        let (Some(ast), Some(loc)) = (b.peek_uint(p, 4), b.peek_uint(p + 4, 4)) else {
            break;
        };
        out.push(SymTarget { ast, loc });
        let Some(next) = skip_front_coded(p + fixed + 1) else {
            break;
        };
        p = next;
        if layout != Layout::Writer2023 {
            let Some((g, n)) = peek_varint(b, p, e) else {
                break;
            };
            p += n;
            for _ in 0..g {
                match skip_front_coded(p + 1) {
                    Some(next) => p = next,
                    None => return out,
                }
            }
        }
    }
    out
}

/// Decodes the table (cursor at its start, region bounded by its end).
pub fn decode(b: &mut Builder, ctx: &mut Ctx) -> DResult<()> {
    let layout = ctx.layout;
    let mut count = 0u64;
    b.group("Header", |b| {
        magic(b, 8, SYMBOL_TABLE_MAGIC, "symbol table")?;
        count = b.u32("EntryCount")? as u64;
        if count >= MAX_NUM_SYMBOLS {
            b.error(format!(
                "{count} symbols: Chapel's reader rejects {MAX_NUM_SYMBOLS} or more"
            ));
        } else if layout == Layout::Writer2023 {
            b.display("entries, not counting the module itself (2023 writer)");
        }
        let r = b.u32("Reserved")?;
        if r != 0 {
            b.display("reserved for future use; Chapel's writer leaves it 0");
        }
        Ok(())
    })?;
    let fixed = fixed_size(layout);
    let room = b.remaining();
    if count > room / (fixed + 3) {
        b.error(format!(
            "{count} entries need at least {} bytes, but the table has {room} bytes after its header",
            count.saturating_mul(fixed + 3)
        ));
    }
    let mut last_id: Vec<u8> = Vec::new();
    let mut last_cname: Vec<u8> = Vec::new();
    b.array("Entries", |b| {
        for i in 0..count {
            let r = b.item(i, |b| entry(b, ctx, i, &mut last_id, &mut last_cname));
            r?;
        }
        Ok(())
    })
}

fn entry(
    b: &mut Builder,
    ctx: &mut Ctx,
    index: u64,
    last_id: &mut Vec<u8>,
    last_cname: &mut Vec<u8>,
) -> DResult<()> {
    let layout = ctx.layout;
    let rel = if layout == Layout::Writer2023 {
        "module header"
    } else {
        "section"
    };
    let ast = b.u32("UastOffset")? as u64;
    let ast_node = b.last().expect("node");
    b.display(format!("relative to the uAST {rel}"));
    let loc = b.u32("LocationOffset")? as u64;
    let loc_node = b.last().expect("node");
    b.display(format!("relative to the location {rel}"));
    if layout == Layout::Writer2023 {
        b.u32("TypeOrFnOffset")?;
        b.display("types/functions entry (the 2023 writer leaves it 0)");
    }
    let kind = b.u8("Kind")? as u64;
    let kind_node = b.last().expect("node");
    b.display(format!(
        "{} (flags/kind byte: Chapel's writer stores the uAST tag)",
        tags::describe_tag(kind)
    ));
    let previous = last_id.clone();
    let id = front_coded(b, "SymbolId", last_id)?;
    if index > 0 && *last_id < previous {
        b.error(format!(
            "the table must be sorted by symbol table ID, but \"{}\" comes after \"{}\"",
            String::from_utf8_lossy(last_id),
            String::from_utf8_lossy(&previous)
        ));
    }
    let item = b.current();
    b.set_display(
        item,
        if id.is_empty() {
            "\"\": the module itself".to_string()
        } else {
            format!("\"{id}\"")
        },
    );
    ctx.sym_nodes.push(SymNodes {
        ast_node,
        loc_node,
        kind_node,
        kind,
        ast,
        loc,
    });
    if layout != Layout::Writer2023 {
        let g = vuint(b, "GeneratedCount")?;
        if g == 0 {
            return Ok(());
        }
        b.array("Generated", |b| {
            for j in 0..g {
                b.item(j, |b| {
                    let inst = b.u8("IsInstantiation")?;
                    b.display(if inst == 0 {
                        "0: concrete"
                    } else {
                        "nonzero: an instantiation"
                    });
                    let cname = front_coded(b, "CName", last_cname)?;
                    let it = b.current();
                    b.set_display(it, format!("\"{cname}\""));
                    Ok(())
                })?;
            }
            Ok(())
        })?;
    }
    Ok(())
}

/// Reads a front-coded string: the first `PrefixLength` bytes of `prev`, then
/// `SuffixLength` bytes stored here. The node's value is the whole string; `prev`
/// becomes it.
fn front_coded(b: &mut Builder, name: &'static str, prev: &mut Vec<u8>) -> DResult<String> {
    let mut full: Vec<u8> = Vec::new();
    let mut parts = (String::new(), String::new());
    let r = b.valued_group(Name::Static(name), Kind::Str, |b| {
        let p = vuint(b, "PrefixLength")?;
        let keep = (p.min(prev.len() as u64)) as usize;
        let kept = String::from_utf8_lossy(prev.get(..keep).unwrap_or_default()).into_owned();
        if p > prev.len() as u64 {
            b.error(format!(
                "copies {p} bytes from the previous string, which has only {}",
                prev.len()
            ));
        } else {
            b.display(format!(
                "{}; copies \"{kept}\" from the previous string",
                b.tree()
                    .node(b.last().expect("node"))
                    .display
                    .as_deref()
                    .unwrap_or_default()
            ));
        }
        let n = vuint(b, "SuffixLength")?;
        let at = b.pos();
        if n > 0 {
            b.bytes("Suffix", n)?;
        }
        let suffix = b.peek_bytes(at, n.min(MAX_STRING_VALUE as u64));
        parts = (kept, String::from_utf8_lossy(&suffix).into_owned());
        full.extend_from_slice(prev.get(..keep).unwrap_or_default());
        full.extend_from_slice(&suffix);
        Ok(())
    });
    let id = b.last().expect("node");
    r?;
    let text = String::from_utf8_lossy(&full).into_owned();
    b.set_value(id, Value::Str(text.clone()));
    b.set_display(
        id,
        format!(
            "\"{}\" (copied) + \"{}\" (stored) = \"{text}\"",
            parts.0, parts.1
        ),
    );
    *prev = full;
    Ok(text)
}
