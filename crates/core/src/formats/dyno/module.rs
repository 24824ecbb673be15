//! One module section: its header (spec §"Module Section Header", or the writer's),
//! then each section it points to, decoded in file order, then the cross-checks
//! between sections (symbol table → uAST entries and location groups; location
//! groups → the uAST nodes they describe).

use super::layout::{Layout, Sect};
use super::prim::{string, LongStrings};
use super::uast::AstIndex;
use super::{locations, magic, pad, strings, symtab, uast, MODULE_MAGIC};
use crate::builder::{Builder, DResult};
use crate::tree::{BitSpan, Kind, Name, NodeId};
use std::collections::{BTreeMap, BTreeSet};

/// A section as the module header gives it.
#[derive(Clone, Debug)]
pub struct SectionRef {
    pub sect: Sect,
    /// Offsets relative to the module header.
    pub start: u64,
    pub end: u64,
    /// True if `end` was stored (false: inferred from the next section, 2023 header).
    pub end_stored: bool,
    /// The header node describing the section (its pair, or its single offset).
    pub node: NodeId,
}

/// What a symbol-table entry points at (from the scan before decoding).
#[derive(Clone, Copy, Debug)]
pub struct SymTarget {
    /// uAST entry, relative to the uAST section (module header in the 2023 layout).
    pub ast: u64,
    /// Location group, relative to the location section (module header in 2023).
    pub loc: u64,
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

/// One decoded location group.
#[derive(Clone, Debug, Default)]
pub struct LocGroup {
    pub start: u64,
    pub node: NodeId,
    pub entries: Vec<NodeId>,
}

/// Everything the sections of one module share.
pub struct Ctx {
    pub layout: Layout,
    /// Absolute offset of the module header.
    pub m: u64,
    /// Absolute spans of the sections present.
    pub spans: BTreeMap<&'static str, (u64, u64)>,
    pub long: LongStrings,
    pub syms: Vec<SymTarget>,
    /// Absolute starts of the uAST entries the symbol table points at.
    pub anchors: BTreeSet<u64>,
    /// Absolute starts of the location groups the symbol table points at.
    pub loc_starts: BTreeSet<u64>,
    pub ast: AstIndex,
    pub sym_nodes: Vec<SymNodes>,
    pub groups: Vec<LocGroup>,
    /// File paths of the location section (index → path).
    pub paths: Vec<String>,
}

impl Ctx {
    fn span(&self, s: Sect) -> Option<(u64, u64)> {
        self.spans.get(s.name()).copied()
    }
    /// What symbol-table uAST offsets are relative to.
    pub fn ast_base(&self) -> Option<u64> {
        match self.layout {
            Layout::Writer2023 => Some(self.m),
            _ => self.span(Sect::Uast).map(|s| s.0),
        }
    }
    /// What symbol-table location offsets are relative to.
    pub fn loc_base(&self) -> Option<u64> {
        match self.layout {
            Layout::Writer2023 => Some(self.m),
            _ => self.span(Sect::Locations).map(|s| s.0),
        }
    }
}

/// Decodes the module whose header is at absolute offset `m` (the cursor); the
/// enclosing region ends where the module does.
pub fn decode(b: &mut Builder, m: u64, layout: Layout) -> DResult<()> {
    let mlen = b.limit().saturating_sub(m);
    let mut refs: Vec<SectionRef> = Vec::new();
    b.group("Header", |b| {
        magic(b, 8, MODULE_MAGIC, "module section")?;
        let flags = b.u64("Flags")?;
        b.display(if flags == 0 {
            "none (reserved for future flags)".to_string()
        } else {
            format!("0x{flags:X} (reserved for future flags; no flag is defined)")
        });
        if layout == Layout::Writer2023 {
            let len = b.u64("Length")?;
            b.display(format!(
                "module section of {len} bytes, to 0x{:X}",
                m.saturating_add(len)
            ));
        }
        for &sect in layout.sections() {
            if layout == Layout::Writer2023 {
                let name: Name = format!("{}Offset", sect.name()).into();
                let off = b.u64(name)?;
                let node = b.last().expect("offset node");
                b.display(format!(
                    "module 0x{m:X} + 0x{off:X} = 0x{:X}",
                    m.saturating_add(off)
                ));
                refs.push(SectionRef {
                    sect,
                    start: off,
                    end: off,
                    end_stored: false,
                    node,
                });
            } else {
                let mut pair = (0, 0);
                b.group(sect.name(), |b| {
                    for (i, what) in ["Start", "End"].into_iter().enumerate() {
                        let v = b.u64(what)?;
                        b.display(format!(
                            "module 0x{m:X} + 0x{v:X} = 0x{:X}",
                            m.saturating_add(v)
                        ));
                        if i == 0 {
                            pair.0 = v;
                        } else {
                            pair.1 = v;
                        }
                    }
                    Ok(())
                })?;
                let node = b.last().expect("pair node");
                let (s, e) = pair;
                b.display(if s == e {
                    "empty".to_string()
                } else if s < e {
                    format!(
                        "0x{:X}-0x{:X}, {} bytes",
                        m.saturating_add(s),
                        m.saturating_add(e),
                        e - s
                    )
                } else {
                    "end before start".to_string()
                });
                let (abs_s, abs_e) = (m.saturating_add(s), m.saturating_add(e));
                if s < e && abs_e <= b.file_len() {
                    b.set_reference(node, BitSpan::bytes(abs_s, abs_e));
                }
                refs.push(SectionRef {
                    sect,
                    start: s,
                    end: e,
                    end_stored: true,
                    node,
                });
            }
        }
        string(b, "ModuleSymbolId")?;
        string(b, "FilePath")?;
        Ok(())
    })?;
    let header_end = b.pos() - m;

    let mut ctx = Ctx {
        layout,
        m,
        spans: BTreeMap::new(),
        long: LongStrings::default(),
        syms: Vec::new(),
        anchors: BTreeSet::new(),
        loc_starts: BTreeSet::new(),
        ast: AstIndex::default(),
        sym_nodes: Vec::new(),
        groups: Vec::new(),
        paths: Vec::new(),
    };
    let plan = plan_sections(b, &mut refs, header_end, mlen, layout, m);
    for r in &plan {
        ctx.spans
            .insert(r.sect.name(), (m + r.start, m + r.end.max(r.start)));
    }

    // What the sections need from each other, peeked before any is decoded.
    if let Some((s, e)) = ctx.span(Sect::LongStrings) {
        let base = if layout == Layout::Writer2023 { m } else { s };
        ctx.long = strings::scan(b, s, e, base);
    }
    if let Some((s, e)) = ctx.span(Sect::SymbolTable) {
        ctx.syms = symtab::scan(b, s, e, layout);
    }
    if let Some(base) = ctx.ast_base() {
        ctx.anchors = ctx
            .syms
            .iter()
            .map(|t| base.saturating_add(t.ast))
            .collect();
    }
    if let Some(base) = ctx.loc_base() {
        ctx.loc_starts = ctx
            .syms
            .iter()
            .map(|t| base.saturating_add(t.loc))
            .collect();
    }

    let mut cursor = m + header_end;
    for r in &plan {
        let (s, e) = (m + r.start, m + r.end.max(r.start));
        if s > cursor {
            pad(b, cursor, s, layout.align(), "before the section");
        }
        if s % layout.align() != 0 {
            b.set_error(
                r.node,
                format!(
                    "the {} section starts at 0x{s:X}, not on the {}-byte boundary {} pads sections to",
                    r.sect.name(),
                    layout.align(),
                    if layout == Layout::Spec { "the spec" } else { "Chapel's writer" }
                ),
            );
        }
        let name: Name = r.sect.name().into();
        b.region(name, Kind::Struct, s, e - s, |b| {
            section(b, r.sect, &mut ctx)
        });
        cursor = cursor.max(e);
    }
    let mend = m + mlen;
    if cursor < mend {
        pad(b, cursor, mend, layout.align(), "at the end of the module");
    }
    link(b, &ctx);
    Ok(())
}

/// Checks the header's sections against the module and each other; returns those
/// that can be decoded, sorted by position. The 2023 header stores only starts: each
/// section ends where the next one starts (the uAST where its byte count says).
fn plan_sections(
    b: &mut Builder,
    refs: &mut [SectionRef],
    header_end: u64,
    mlen: u64,
    layout: Layout,
    m: u64,
) -> Vec<SectionRef> {
    if layout == Layout::Writer2023 {
        let mut starts: Vec<u64> = refs
            .iter()
            .map(|r| r.start)
            .filter(|&s| s >= header_end && s < mlen)
            .collect();
        starts.push(mlen);
        starts.sort_unstable();
        for r in refs.iter_mut() {
            r.end = starts
                .iter()
                .copied()
                .find(|&s| s > r.start)
                .unwrap_or(mlen);
            if r.sect == Sect::Uast {
                // The 2023 uAST header stores its byte count at +8 (after the magic).
                if let Some(n) = b.peek_uint(m.saturating_add(r.start).saturating_add(8), 8) {
                    let exact = r.start.saturating_add(24).saturating_add(n);
                    if exact <= r.end {
                        r.end = exact;
                    }
                }
            }
        }
    }
    let mut ok: Vec<SectionRef> = Vec::new();
    for r in refs.iter() {
        let absent = if layout == Layout::Writer2023 {
            r.start == 0
        } else {
            r.start == r.end
        };
        if absent {
            continue;
        }
        let problem = if r.start > r.end {
            Some(format!(
                "the {} section ends (0x{:X}) before it starts (0x{:X})",
                r.sect.name(),
                r.end,
                r.start
            ))
        } else if r.start < header_end {
            Some(format!(
                "the {} section starts at relative 0x{:X}, inside the module header (which ends at relative 0x{header_end:X})",
                r.sect.name(),
                r.start
            ))
        } else if r.start >= mlen {
            Some(format!(
                "the {} section starts at relative 0x{:X}, past the module's end (0x{mlen:X})",
                r.sect.name(),
                r.start
            ))
        } else {
            None
        };
        if let Some(p) = problem {
            b.set_error(r.node, p);
            continue;
        }
        if r.end_stored && r.end > mlen {
            b.set_error(
                r.node,
                format!(
                    "the {} section ends at relative 0x{:X}, past the module's end (0x{mlen:X})",
                    r.sect.name(),
                    r.end
                ),
            );
        }
        ok.push(r.clone());
    }
    ok.sort_by_key(|r| (r.start, r.end));
    // A stored end past the module proves nothing: such a section is cut where the
    // next one starts (or at the module's end).
    let starts: Vec<u64> = ok.iter().map(|r| r.start).collect();
    for r in ok.iter_mut() {
        if r.end_stored && r.end > mlen {
            let next = starts
                .iter()
                .copied()
                .find(|&s| s > r.start)
                .unwrap_or(mlen);
            r.end = next.min(mlen);
        }
    }
    let mut prev: Option<(u64, &'static str)> = None;
    for r in &ok {
        if let Some((pend, pname)) = prev {
            if r.start < pend {
                b.set_error(
                    r.node,
                    format!(
                        "the {} section (from relative 0x{:X}) overlaps the {pname} section, which ends at 0x{pend:X}",
                        r.sect.name(),
                        r.start
                    ),
                );
            }
        }
        if prev.is_none_or(|(pend, _)| r.end > pend) {
            prev = Some((r.end, r.sect.name()));
        }
    }
    ok
}

fn section(b: &mut Builder, sect: Sect, ctx: &mut Ctx) -> DResult<()> {
    let r = match sect {
        Sect::SymbolTable => symtab::decode(b, ctx),
        Sect::Uast => uast::decode(b, ctx),
        Sect::LongStrings => strings::decode(b, ctx),
        Sect::Locations => locations::decode(b, ctx),
        Sect::GenCode => gen_code(b),
        Sect::Types | Sect::Functions | Sect::Dependencies => {
            let n = b.remaining();
            b.bytes("Contents", n)?;
            b.display("the spec leaves this section's format TODO: not decoded");
            Ok(())
        }
    };
    if ctx.layout == Layout::Writer2023 {
        // Sections whose end was inferred run up to the next one: claim the padding.
        let (at, end) = (b.pos(), b.limit());
        pad(b, at, end, 16, "after the section");
    }
    r
}

/// Generated Code Section: magic, byte count, LLVM IR bitcode. Bitcode (the
/// `BC` `0xC0DE` magic or the `0x0B17C0DE` wrapper) is decoded by
/// [`crate::bitstream`] into an `LlvmIr` node spanning exactly its bytes, lazily
/// like any bitcode when the decode has a lazy threshold; anything else stays one
/// run.
fn gen_code(b: &mut Builder) -> DResult<()> {
    let mut len = 0;
    b.group("Header", |b| {
        magic(b, 8, super::GEN_CODE_MAGIC, "generated-code section")?;
        len = b.u64("Length")?;
        Ok(())
    })?;
    if len == 0 {
        return Ok(());
    }
    let at = b.pos();
    let head = b.peek_bytes(at, 4);
    let is_bitcode =
        head == crate::bitstream::BITCODE_MAGIC || head == crate::bitstream::WRAPPER_MAGIC;
    if !is_bitcode || len > b.remaining() {
        b.bytes("LlvmIr", len)?;
        b.display(format!(
            "{len} bytes, not starting with the LLVM bitcode magic BC C0 DE; not decoded"
        ));
        return Ok(());
    }
    b.region("LlvmIr", Kind::Struct, at, len, |b| {
        let id = b.current();
        let s = crate::bitstream::decode_bitcode(b, at, len)?;
        b.set_display(id, crate::formats::bitcode::summary(len, &s));
        Ok(())
    });
    Ok(())
}

/// Cross-checks after every section is decoded: where symbol-table entries point,
/// and which uAST nodes the location entries describe.
fn link(b: &mut Builder, ctx: &Ctx) {
    let ast_span = ctx.span(Sect::Uast);
    let loc_span = ctx.span(Sect::Locations);
    let group_at: BTreeMap<u64, usize> = ctx
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| (g.start, i))
        .collect();
    for s in &ctx.sym_nodes {
        // uAST pointer.
        match (ctx.ast_base(), ast_span) {
            (Some(base), Some((as_, ae))) => {
                let t = base.saturating_add(s.ast);
                let how = format!("0x{base:X} + 0x{:X} = 0x{t:X}", s.ast);
                if let Some(e) = ctx.ast.entries.get(&t) {
                    let label = e.describe();
                    b.set_display(s.ast_node, format!("{how}: {label}"));
                    b.set_reference(s.ast_node, BitSpan::bytes(t, e.end));
                    if e.tag != s.kind {
                        b.set_error(
                            s.kind_node,
                            format!(
                                "the kind byte says {}, but the uAST entry it points at is a {}",
                                super::tags::describe_tag(s.kind),
                                super::tags::describe_tag(e.tag)
                            ),
                        );
                    }
                } else if t < as_ || t >= ae {
                    b.set_error(
                        s.ast_node,
                        format!("{how} is outside the uAST section (0x{as_:X}-0x{ae:X})"),
                    );
                } else if ctx.ast.checked(t) {
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
            _ if ctx.layout != Layout::Writer2023 => {
                b.set_error(s.ast_node, "the module has no uAST section to point into");
            }
            _ => {}
        }
        // Location pointer.
        if let (Some(base), Some((ls, le))) = (ctx.loc_base(), loc_span) {
            let t = base.saturating_add(s.loc);
            let how = format!("0x{base:X} + 0x{:X} = 0x{t:X}", s.loc);
            if let Some(&gi) = group_at.get(&t) {
                b.set_display(s.loc_node, format!("{how}: location group [{gi}]"));
                let g = b.tree().node(ctx.groups[gi].node).span;
                b.set_reference(s.loc_node, g);
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
        } else if ctx.layout != Layout::Writer2023 {
            b.set_error(
                s.loc_node,
                "the module has no location section to point into",
            );
        }
    }
    link_locations(b, ctx);
}

/// Pairs each location group with its uAST subtree (group 0: the module; the others
/// through the symbol table) and checks it holds one entry per node of the subtree,
/// in pre-order, leaving out subtrees that have their own group. When the counts
/// agree, each entry is labelled with its node.
fn link_locations(b: &mut Builder, ctx: &Ctx) {
    let (Some(ab), Some(lb)) = (ctx.ast_base(), ctx.loc_base()) else {
        return;
    };
    let mut root_of: BTreeMap<u64, u64> = BTreeMap::new();
    for t in &ctx.syms {
        root_of.insert(lb.saturating_add(t.loc), ab.saturating_add(t.ast));
    }
    for (gi, g) in ctx.groups.iter().enumerate() {
        let root = match root_of.get(&g.start) {
            Some(&r) => r,
            None if gi == 0 => match ctx.ast.roots.first() {
                Some(&r) => r,
                None => continue,
            },
            None => continue,
        };
        let Some(order) = ctx.ast.preorder(root, &ctx.anchors) else {
            continue;
        };
        let Some(re) = ctx.ast.entries.get(&root) else {
            continue;
        };
        if order.len() != g.entries.len() {
            b.set_error(
                g.node,
                format!(
                    "the group holds {} location entries, but its uAST subtree ({} at 0x{root:X}) has {} nodes outside other groups",
                    g.entries.len(),
                    re.describe(),
                    order.len()
                ),
            );
            continue;
        }
        for (&id, at) in g.entries.iter().zip(order) {
            let Some(e) = ctx.ast.entries.get(&at) else {
                continue;
            };
            let prev = b.tree().node(id).display.clone().unwrap_or_default();
            b.set_display(id, format!("{}: {prev}", e.describe()));
            b.set_reference(id, BitSpan::bytes(at, e.end));
        }
    }
}
