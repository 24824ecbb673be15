//! Another format inside the file: a decoder run over a window of the file (a
//! stream whose pages lie one after the other), its tree grafted in place so
//! that every node spans the file bytes it came from.
//!
//! The inner decoder sees the window as a file of its own (offset 0 is the
//! window's start); its tree is copied under the node open in the outer
//! builder, every span and reference moved by the window's offset. Names,
//! kinds, values, displays and errors are copied as they are, `unknown` runs
//! are left to the outer tree (which finds the same gaps).
//!
//! The inner decode uses the outer decode's options. A part it leaves lazy
//! becomes a lazy node of the outer tree whose recipe decodes the window
//! again, expands the inner lazy nodes on the way to that part (their ids are
//! the same in every decode of the same bytes with the same options) and
//! copies the part's children. Decoded on demand and expanded, the outer tree
//! is the one an eager decode grafts.

use crate::builder::{Builder, DResult};
use crate::formats::Format;
use crate::source::ByteSource;
use crate::tree::{BitSpan, Kind, NodeId, Recipe, Tree};
use crate::Options;
use std::rc::Rc;
use std::sync::Arc;

/// `len` bytes of `src` from `base`, as a source of their own.
struct Window<'a> {
    src: &'a dyn ByteSource,
    base: u64,
    len: u64,
}

impl ByteSource for Window<'_> {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        let n = crate::source::clip(self.len, offset, buf.len());
        if n == 0 {
            return 0;
        }
        match offset.checked_add(self.base) {
            Some(at) => self.src.read_at(at, &mut buf[..n]),
            None => 0,
        }
    }
}

/// What every lazy node of one graft shares: which decoder, which window,
/// which options.
struct Graft {
    format: &'static Format,
    base: u64,
    len: u64,
    opts: Options,
}

impl std::fmt::Debug for Graft {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Graft({} at 0x{:X}, {} bytes)",
            self.format.name, self.base, self.len
        )
    }
}

impl Graft {
    fn decode(&self, src: &dyn ByteSource) -> Tree {
        let window = Window {
            src,
            base: self.base,
            len: self.len,
        };
        crate::decode_as_with(self.format, &window, &self.opts).tree
    }

    /// A span of the inner tree, in the file.
    fn shift(&self, s: BitSpan) -> BitSpan {
        let by = self.base.saturating_mul(8);
        BitSpan {
            start: s.start.saturating_add(by),
            end: s.end.saturating_add(by),
        }
    }
}

/// Decodes `len` bytes of the file from `base` with `format` and copies the
/// tree under the node open in `b` (a region over exactly those bytes): the
/// inner root's value, display and error go on that node, its children become
/// that node's children.
pub(crate) fn graft(b: &mut Builder, format: &'static Format, base: u64, len: u64) -> DResult<()> {
    let g = Arc::new(Graft {
        format,
        base,
        len,
        opts: Options {
            lazy_threshold: b.lazy_threshold(),
            page_size: b.page_size(),
            exact_totals: b.exact_totals(),
            scan: false,
            skip_digests: b.skip_digests(),
        },
    });
    let t = g.decode(b.source());
    let here = b.current();
    annotate(b, here, &t, t.root(), &g);
    children(b, &t, t.root(), &g, &[])
}

/// Copies the value, display, comparison key, error and reference of inner
/// node `c` onto `id` (an error `id` already carries is not added twice).
fn annotate(b: &mut Builder, id: NodeId, t: &Tree, c: NodeId, g: &Graft) {
    if let Some(v) = t.value(c) {
        b.set_value(id, v);
    }
    if let Some(d) = t.display(c) {
        b.set_display(id, d.into_owned());
    }
    if let Some(k) = t.key(c) {
        b.set_key(id, k.into_owned());
    }
    if let Some(e) = t.error(c) {
        if b.tree().error(id) != Some(e) {
            b.set_error(id, e.to_string());
        }
    }
    if let Some(r) = t.reference(c) {
        b.set_reference(id, g.shift(r));
    }
}

/// Copies the children of inner node `parent`; `chain` is the inner lazy
/// nodes expanded to reach it.
fn children(
    b: &mut Builder,
    t: &Tree,
    parent: NodeId,
    g: &Arc<Graft>,
    chain: &[NodeId],
) -> DResult<()> {
    for &c in t.children(parent) {
        node(b, t, c, g, chain)?;
    }
    Ok(())
}

/// Copies inner node `c` (and what is below it) at the same place in the file.
fn node(b: &mut Builder, t: &Tree, c: NodeId, g: &Arc<Graft>, chain: &[NodeId]) -> DResult<()> {
    let kind = t.kind(c);
    if kind == Kind::Unknown {
        return Ok(());
    }
    let span = g.shift(t.span(c));
    let name = t.name_owned(c);
    b.seek_bits(span.start);
    if t.is_lazy(c) {
        let mut path = chain.to_vec();
        path.push(c);
        let recipe = GraftRecipe {
            graft: Arc::clone(g),
            chain: path,
            limit: span.end,
            vouched: t.is_vouched(c),
            reads: Some(t.open_cost(c)).filter(|&n| n > span.len_bits().div_ceil(8)),
        };
        let id = b.lazy_node(name, kind, span.len_bits(), Arc::new(recipe))?;
        if t.is_page(c) {
            b.set_page(id);
        }
        annotate(b, id, t, c, g);
        return Ok(());
    }
    let id = if kind == Kind::Derived {
        let from = t.reference(c).map(|r| g.shift(r));
        b.derived_group_field(name, from, |b| children(b, t, c, g, chain))?
            .id
    } else {
        b.valued_group_field(name, kind, |b| {
            children(b, t, c, g, chain)?;
            b.seek_bits(span.end);
            Ok(())
        })?
        .id
    };
    annotate(b, id, t, c, g);
    Ok(())
}

/// Decodes an inner lazy node when its outer copy is expanded.
#[derive(Debug)]
struct GraftRecipe {
    graft: Arc<Graft>,
    /// The inner lazy nodes to expand, in order; the last is this node's.
    chain: Vec<NodeId>,
    /// End of the node (bits).
    limit: u64,
    vouched: bool,
    reads: Option<u64>,
}

impl Recipe for GraftRecipe {
    fn expand(&self, src: &dyn ByteSource, mut tree: Tree, id: NodeId) -> Tree {
        let g = &self.graft;
        let mut inner = g.decode(src);
        let window = Window {
            src,
            base: g.base,
            len: g.len,
        };
        for &lazy in &self.chain {
            if inner.is_lazy(lazy) {
                // The ids are those of the first decode; expanding cannot fail
                // for them. Should it, the node is left with no children.
                let _ = crate::expand(&window, &mut inner, lazy);
            }
        }
        let target = self.chain.last().copied();
        // What the node showed while lazy gives way to what the expanded
        // inner node shows.
        tree.clear_display(id);
        let bound: Rc<str> = format!("end of {}", tree.name(id)).into();
        let mut b = Builder::resume(src, tree, id, self.limit, bound);
        let first_new = b.tree().len();
        b.set_exact_totals(g.opts.exact_totals);
        if let Some(c) = target.filter(|&c| (c as usize) < inner.len() && !inner.is_lazy(c)) {
            // A Stop has recorded its error already.
            let _ = children(&mut b, &inner, c, g, &self.chain);
            annotate(&mut b, id, &inner, c, g);
        }
        b.seek_bits(self.limit);
        b.finish_expansion(first_new)
    }

    fn vouched(&self) -> bool {
        self.vouched
    }

    fn reads(&self) -> Option<u64> {
        self.reads
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_reads_only_its_own_bytes() {
        let data: &[u8] = &[0, 1, 2, 3, 4, 5, 6, 7];
        let w = Window {
            src: &data,
            base: 2,
            len: 4,
        };
        let mut buf = [9u8; 8];
        assert_eq!(w.len(), 4);
        assert_eq!(w.read_at(0, &mut buf), 4);
        assert_eq!(&buf[..4], &[2, 3, 4, 5]);
        assert_eq!(w.read_at(3, &mut buf), 1);
        assert_eq!(buf[0], 5);
        assert_eq!(w.read_at(4, &mut buf), 0);
        assert_eq!(w.read_at(u64::MAX, &mut buf), 0);
        let far = Window {
            src: &data,
            base: u64::MAX,
            len: 4,
        };
        assert_eq!(far.read_at(1, &mut buf), 0);
    }
}
