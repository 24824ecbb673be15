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

use super::context::Shared;
use super::layout::{Layout, Sect};
use super::prim::{magic, varint_of, vuint, SYMBOL_TABLE_MAGIC};
use super::skim::{self, sym_fixed, SymState};
use super::tags;
use crate::builder::{Builder, DResult, Field, MAX_STRING_VALUE};
use crate::tree::{BitSpan, Kind, Name, NodeId, Value};
use std::sync::Arc;

/// Chapel's reader rejects this many symbols (`MAX_NUM_SYMBOLS`).
const MAX_NUM_SYMBOLS: u64 = 100_000_000;

/// Decodes the table (cursor at its start, region bounded by its end). A table
/// of more entries than a page holds is shown in pages, each decoded when
/// opened: a skim finds where each page starts and the previous ID and C name
/// there (the front coding's state).
pub fn decode(b: &mut Builder, sh: &Arc<Shared>) -> DResult<()> {
    let layout = sh.layout;
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
    let fixed = sym_fixed(layout);
    let room = b.remaining();
    if count > room / (fixed + 3) {
        b.error(format!(
            "{count} entries need at least {} bytes, but the table has {room} bytes after its header",
            count.saturating_mul(fixed + 3)
        ));
    }
    let page = b
        .page_size()
        .filter(|_| b.lazy_threshold().is_some())
        .map(u64::from)
        .filter(|&p| count > p && room / (fixed + 3) > p);
    let (start, end) = (b.pos(), b.limit());
    b.array("Entries", |b| {
        let Some(p) = page else {
            return entries(b, sh, 0, count, SymState::default());
        };
        let d = skim::bytes_of(b, start, end);
        let plan = skim::sym_plan(&d, start, start, end, b.endian(), layout, count, p);
        drop(d);
        for (k, w) in plan.marks.windows(2).enumerate() {
            let first = k as u64 * p;
            if first >= plan.ok {
                break;
            }
            let last = (first + p).min(plan.ok) - 1;
            let (at, st) = w[0].clone();
            let sh = sh.clone();
            b.page(first, last, at, w[1].0 - at, move |b| {
                entries(b, &sh, first, last + 1, st.clone())
            })?;
        }
        let (at, st) = plan.marks.last().cloned().unwrap_or_default();
        b.seek(at);
        entries(b, sh, plan.ok, count, st)
    })
}

/// Entries `from..to`, starting with front-coding state `st`, then the
/// cross-checks of those decoded.
fn entries(b: &mut Builder, sh: &Shared, from: u64, to: u64, mut st: SymState) -> DResult<()> {
    let mut nodes = Vec::new();
    let mut r = Ok(());
    for i in from..to {
        r = b.item(i, |b| entry(b, sh.layout, i, &mut st, &mut nodes));
        if r.is_err() {
            break;
        }
    }
    link_symbols(b, sh, &nodes);
    r
}

fn entry(
    b: &mut Builder,
    layout: Layout,
    index: u64,
    st: &mut SymState,
    nodes: &mut Vec<SymNodes>,
) -> DResult<()> {
    let (last_id, last_cname) = (&mut st.id, &mut st.cname);
    let rel = if layout == Layout::Writer2023 {
        "module header"
    } else {
        "section"
    };
    let Field {
        value: ast,
        id: ast_node,
    } = b.uint_field("UastOffset", 4)?;
    b.display(format!("relative to the uAST {rel}"));
    let Field {
        value: loc,
        id: loc_node,
    } = b.uint_field("LocationOffset", 4)?;
    b.display(format!("relative to the location {rel}"));
    if layout == Layout::Writer2023 {
        b.u32("TypeOrFnOffset")?;
        b.display("types/functions entry (the 2023 writer leaves it 0)");
    }
    let Field {
        value: kind,
        id: kind_node,
    } = b.uint_field("Kind", 1)?;
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
    b.set_key(item, id.clone());
    nodes.push(SymNodes {
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
                    b.set_key(it, cname.to_string());
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
    let id = b
        .valued_group_field(Name::Static(name), Kind::Str, |b| {
            let Field { value: p, id: p_id } = varint_of(b, "PrefixLength", false)?;
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
                    b.tree().display(p_id).as_deref().unwrap_or_default()
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
        })?
        .id;
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

/// Nodes of one decoded symbol-table entry the cross-checks annotate.
#[derive(Clone, Copy, Debug)]
pub struct SymNodes {
    pub ast_node: NodeId,
    pub loc_node: NodeId,
    pub kind_node: NodeId,
    pub kind: u64,
    pub ast: u64,
    pub loc: u64,
}

/// The cross-checks of symbol-table entries: where they point in the uAST and
/// location sections.
pub fn link_symbols(b: &mut Builder, sh: &Shared, nodes: &[SymNodes]) {
    if nodes.is_empty() {
        return;
    }
    let ast_span = sh.span(Sect::Uast);
    let loc_span = sh.span(Sect::Locations);
    let ix = sh.ast(b);
    let locs = sh.locs(b);
    let groups = locs.as_ref().as_ref().filter(|l| !l.paths_cut);
    for s in nodes {
        // uAST pointer.
        match (sh.ast_base(), ast_span) {
            (Some(base), Some((as_, ae))) => {
                let t = base.saturating_add(s.ast);
                let how = format!("0x{base:X} + 0x{:X} = 0x{t:X}", s.ast);
                if let Some(i) = ix.at(t) {
                    let e = ix.e[i as usize];
                    let label = sh.describe(b, &e);
                    b.set_display(s.ast_node, format!("{how}: {label}"));
                    b.set_reference(s.ast_node, BitSpan::bytes(t, e.end));
                    if e.tag as u64 != s.kind {
                        b.set_error(
                            s.kind_node,
                            format!(
                                "the kind byte says {}, but the uAST entry it points at is a {}",
                                tags::describe_tag(s.kind),
                                tags::describe_tag(e.tag as u64)
                            ),
                        );
                    }
                } else if t < as_ || t >= ae {
                    b.set_error(
                        s.ast_node,
                        format!("{how} is outside the uAST section (0x{as_:X}-0x{ae:X})"),
                    );
                } else if ix.checked(t) {
                    b.set_error(
                        s.ast_node,
                        format!("{how} does not point at the start of a uAST entry"),
                    );
                } else {
                    b.set_display(
                        s.ast_node,
                        format!("{how}: inside uAST bytes hexlens did not decode; not checked"),
                    );
                }
            }
            _ if sh.layout != Layout::Writer2023 => {
                b.set_error(s.ast_node, "the module has no uAST section to point into");
            }
            _ => {}
        }
        // Location pointer.
        if let (Some(base), Some((ls, le))) = (sh.loc_base(), loc_span) {
            let t = base.saturating_add(s.loc);
            let how = format!("0x{base:X} + 0x{:X} = 0x{t:X}", s.loc);
            if let Some((g, gi)) = groups.and_then(|g| g.group_at(t).map(|gi| (g, gi))) {
                b.set_display(s.loc_node, format!("{how}: location group [{gi}]"));
                b.set_reference(s.loc_node, BitSpan::bytes(g.starts[gi], g.starts[gi + 1]));
            } else if t < ls || t >= le {
                b.set_error(
                    s.loc_node,
                    format!("{how} is outside the location section (0x{ls:X}-0x{le:X})"),
                );
            } else {
                b.set_error(
                    s.loc_node,
                    format!("{how} is not the start of a location group"),
                );
            }
        } else if sh.layout != Layout::Writer2023 {
            b.set_error(
                s.loc_node,
                "the module has no location section to point into",
            );
        }
    }
}
