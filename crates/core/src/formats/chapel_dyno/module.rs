//! One module section: its header (spec §"Module Section Header", or the writer's),
//! then each section it points to, decoded in file order, then the cross-checks
//! between sections (symbol table → uAST entries and location groups; location
//! groups → the uAST nodes they describe).

use super::layout::{Layout, Sect};
use super::prim::{string, LongStrings};
use super::skim::{self, AstE, AstIndex, LocIndex};
use super::{locations, magic, pad, strings, symtab, tags, uast, MODULE_MAGIC};
use crate::builder::{Builder, DResult};
use crate::sorted::VecMap;
use crate::tree::{BitSpan, Kind, Name, NodeId};
use std::sync::{Arc, OnceLock};

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

/// Where the symbol table points, as the other sections need it.
#[derive(Debug, Default)]
pub struct Syms {
    /// Where the symbol table says uAST entries start (inside the uAST section).
    pub anchors: skim::Marks,
    /// Where it says location groups start (inside the location section).
    pub loc_starts: skim::Marks,
    /// What each entry points at (relative offsets).
    targets: Vec<skim::SymTarget>,
    /// Location group start → uAST entry start (the last entry naming a group
    /// wins), sorted; made when a location group is first checked.
    root_of: OnceLock<Vec<(u64, u64)>>,
}

impl Syms {
    /// Location group start → uAST entry start, with the sections' bases.
    pub fn root_of(&self, ab: u64, lb: u64) -> &[(u64, u64)] {
        self.root_of.get_or_init(|| {
            let mut r: Vec<(u64, u64)> = self
                .targets
                .iter()
                .map(|t| (lb.saturating_add(t.loc), ab.saturating_add(t.ast)))
                .collect();
            // Stable: of entries naming the same group, the last one wins.
            skim::radix_sort_by_key(&mut r, |x| x.0);
            let mut kept: Vec<(u64, u64)> = Vec::with_capacity(r.len());
            for x in r {
                match kept.last_mut() {
                    Some(l) if l.0 == x.0 => *l = x,
                    _ => kept.push(x),
                }
            }
            kept
        })
    }
}

/// What the sections of one module share: their places, and what each needs from
/// the others, found (without making nodes) the first time a section asks. The
/// sections are decoded on demand, each with this context, so they give what an
/// eager decode gives.
pub struct Shared {
    pub layout: Layout,
    /// Absolute offset of the module header.
    pub m: u64,
    /// Absolute spans of the sections present.
    pub spans: VecMap<&'static str, (u64, u64)>,
    long: OnceLock<Arc<LongStrings>>,
    syms: OnceLock<Arc<Syms>>,
    ast: OnceLock<Arc<AstIndex>>,
    locs: OnceLock<Arc<Option<LocIndex>>>,
}

impl Shared {
    pub fn span(&self, s: Sect) -> Option<(u64, u64)> {
        self.spans.get(&s.name()).copied()
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

    /// The long strings table's strings.
    pub fn long(&self, b: &Builder) -> Arc<LongStrings> {
        self.long
            .get_or_init(|| {
                Arc::new(match self.span(Sect::LongStrings) {
                    Some((s, e)) => {
                        let base = if self.layout == Layout::Writer2023 {
                            self.m
                        } else {
                            s
                        };
                        skim::long_strings(b, s, e, base)
                    }
                    None => LongStrings::default(),
                })
            })
            .clone()
    }

    /// Where the symbol table points.
    pub fn syms(&self, b: &Builder) -> Arc<Syms> {
        self.syms
            .get_or_init(|| {
                let targets = match self.span(Sect::SymbolTable) {
                    Some((s, e)) => {
                        let d = skim::bytes_of(b, s, e);
                        skim::sym_targets(&d, s, e, b.endian(), self.layout)
                    }
                    None => Vec::new(),
                };
                let mut out = Syms::default();
                if let (Some(base), Some((s, e))) = (self.ast_base(), self.span(Sect::Uast)) {
                    let xs = targets.iter().map(|t| base.saturating_add(t.ast));
                    out.anchors = skim::Marks::new(s, e, xs);
                }
                if let (Some(base), Some((s, e))) = (self.loc_base(), self.span(Sect::Locations)) {
                    let xs = targets.iter().map(|t| base.saturating_add(t.loc));
                    out.loc_starts = skim::Marks::new(s, e, xs);
                }
                out.targets = targets;
                Arc::new(out)
            })
            .clone()
    }

    /// The uAST entries, as the uAST section's decoder reads them (none in the
    /// 2023 layout, whose entries are not decoded, or if the header is cut).
    pub fn ast(&self, b: &Builder) -> Arc<AstIndex> {
        self.ast
            .get_or_init(|| {
                let Some((s, e)) = self.span(Sect::Uast) else {
                    return Arc::default();
                };
                if self.layout == Layout::Writer2023 || e < s.saturating_add(16) {
                    return Arc::default();
                }
                let long = self.long(b);
                let d = skim::bytes_of(b, s, e);
                let syms = || self.syms(b);
                let declared = b.peek_uint(s + 8, 8).unwrap_or(0);
                let mut ix = skim::uast(declared, &d, s, s + 16, e, b.endian(), &long, &syms);
                ix.bytes = d;
                ix.base = s;
                Arc::new(ix)
            })
            .clone()
    }

    /// Where the location section's paths and groups are.
    pub fn locs(&self, b: &Builder) -> Arc<Option<LocIndex>> {
        self.locs
            .get_or_init(|| {
                let Some((s, e)) = self.span(Sect::Locations) else {
                    return Arc::new(None);
                };
                let syms = self.syms(b);
                Arc::new(skim::locations(b, s, e, &syms.loc_starts))
            })
            .clone()
    }

    /// "Function \"area\"": what the uAST entry `e` is.
    pub fn describe(&self, b: &Builder, e: &AstE) -> String {
        let name = tags::ast_tag(e.tag as u64).map_or("?", |t| t.0);
        let end = self.span(Sect::Uast).map_or(e.end, |s| s.1);
        match skim::label_at(b, &self.ast(b), e.start, end, e.tag, &self.long(b)) {
            Some(l) => format!("{name} \"{l}\""),
            None => name.to_string(),
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

    let plan = plan_sections(b, &mut refs, header_end, mlen, layout, m);
    let spans = plan
        .iter()
        .map(|r| (r.sect.name(), (m + r.start, m + r.end.max(r.start))))
        .collect();
    let shared = Arc::new(Shared {
        layout,
        m,
        spans,
        long: OnceLock::new(),
        syms: OnceLock::new(),
        ast: OnceLock::new(),
        locs: OnceLock::new(),
    });

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
        let (sect, sh) = (r.sect, shared.clone());
        let label = format!("{} bytes, not decoded yet", e - s);
        b.lazy_region(name, Kind::Struct, s, e - s, Some(label), move |b| {
            section(b, sect, &sh)
        });
        cursor = cursor.max(e);
    }
    let mend = m + mlen;
    if cursor < mend {
        pad(b, cursor, mend, layout.align(), "at the end of the module");
    }
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
        crate::sorted::sort(&mut starts);
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
    crate::sorted::sort_by_key(&mut ok, |r| (r.start, r.end));
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

fn section(b: &mut Builder, sect: Sect, sh: &Arc<Shared>) -> DResult<()> {
    let r = match sect {
        Sect::SymbolTable => symtab::decode(b, sh),
        Sect::Uast => uast::decode(b, sh),
        Sect::LongStrings => strings::decode(b, sh),
        Sect::Locations => locations::decode(b, sh),
        Sect::GenCode => gen_code(b),
        Sect::Types | Sect::Functions | Sect::Dependencies => {
            let n = b.remaining();
            b.bytes("Contents", n)?;
            b.display("the spec leaves this section's format TODO: not decoded");
            Ok(())
        }
    };
    if sh.layout == Layout::Writer2023 {
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

/// The uAST subtree location group `gi` (starting at `start`) describes (group
/// 0: the module; the others through the symbol table): its root and its entries
/// in pre-order, leaving out subtrees that have their own group; `None` if it is
/// not known or not completely decoded.
pub fn group_order(b: &Builder, sh: &Shared, gi: u64, start: u64) -> Option<(AstE, Vec<u32>)> {
    sh.ast_base()?;
    sh.loc_base()?;
    let syms = sh.syms(b);
    let ix = sh.ast(b);
    let root_of = syms.root_of(sh.ast_base()?, sh.loc_base()?);
    let root = match root_of.binary_search_by_key(&start, |x| x.0) {
        Ok(i) => root_of[i].1,
        Err(_) if gi == 0 => ix.e[*ix.roots.first()? as usize].start,
        Err(_) => return None,
    };
    let order = ix.preorder(root, &syms.anchors)?;
    Some((ix.e[order[0] as usize], order))
}

/// Checks that location group `gi` holds one entry per node of its uAST
/// subtree (see [`group_order`]): an error on the group node `gid` if not.
/// Returns the order when the counts agree, for labelling the entries.
pub fn check_group(
    b: &mut Builder,
    sh: &Shared,
    gi: u64,
    start: u64,
    gid: NodeId,
    entries: u64,
) -> Option<Vec<u32>> {
    let (re, order) = group_order(b, sh, gi, start)?;
    if order.len() as u64 != entries {
        let what = sh.describe(b, &re);
        b.set_error(
            gid,
            format!(
                "the group holds {entries} location entries, but its uAST subtree ({what} at 0x{:X}) has {} nodes outside other groups",
                re.start,
                order.len()
            ),
        );
        return None;
    }
    Some(order)
}

/// Labels location entry node `id` with the uAST entry `order_at` (an index
/// into the uAST index) it describes.
pub fn label_entry(b: &mut Builder, sh: &Shared, id: NodeId, at: u32) {
    let ix = sh.ast(b);
    let Some(e) = ix.e.get(at as usize).copied() else {
        return;
    };
    let prev = b.tree().display(id).clone().unwrap_or_default();
    let what = sh.describe(b, &e);
    b.set_display(id, format!("{what}: {prev}"));
    b.set_reference(id, BitSpan::bytes(e.start, e.end));
}
