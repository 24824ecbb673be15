//! What the sections of one module share ([`Shared`]): where each section lies,
//! and what each needs from the others, read without making nodes. The module
//! decoder ([`super::module`]) makes it and the section decoders read it; it
//! imports none of them.

use super::layout::{Layout, Sect};
use super::prim::LongStrings;
use super::skim::{self, AstE, AstIndex, LocIndex, Syms};
use super::tags;
use crate::builder::Builder;
use crate::sorted::VecMap;
use std::sync::{Arc, OnceLock};

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
    /// The sections of the module whose header is at `m`, at absolute `spans`;
    /// nothing is read until a section asks.
    pub fn new(layout: Layout, m: u64, spans: VecMap<&'static str, (u64, u64)>) -> Self {
        Shared {
            layout,
            m,
            spans,
            long: OnceLock::new(),
            syms: OnceLock::new(),
            ast: OnceLock::new(),
            locs: OnceLock::new(),
        }
    }

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
