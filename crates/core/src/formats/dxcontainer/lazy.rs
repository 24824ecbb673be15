//! Decoding on demand: part bodies and RDAT sub-parts as lazy regions, long
//! lists as pages.
//!
//! When the decode leaves parts lazy and pages lists (a lazy threshold and a
//! page size, as the streaming dump decodes: [`crate::Options`]), every part's
//! body is left undecoded until it is opened. The header, the part table and
//! each part's `Name` and `Size` are decoded at once, and nothing outside a
//! body is computed from what it holds: what parts need of each other is
//! peeked without nodes (`prescan`, the digests, STR0's look at SYM0's long
//! names). Inside RDAT each sub-part is lazy in the same way. With a lazy
//! threshold alone (as the web app and `hexlens dump --lazy-threshold`
//! decode), parts are decoded at once and only the bitcode's blocks are left
//! lazy, as before.
//!
//! Lists longer than a page are shown as pages that decode when opened: SYM0
//! symbols, STR0 strings and the string tables of PSV0 and RDAT (a skim for
//! NUL bytes finds where pages start), SHDR/SHEX instructions (a skim of the
//! opcode tokens' lengths), signature parameters, PSV0 resource bindings and
//! RDAT records (fixed sizes). A page holds only entries that decode without
//! reaching its end; whatever follows the last such entry is decoded in the
//! list itself, so errors read as they do in an eager decode. STR0's
//! suffix-shared entries follow its pages unpaged: they lie inside other
//! strings, so a page of them would not be covered by its entries.
//!
//! A lazy body is made here rather than with [`Builder::lazy_region`]: it
//! shows `N bytes, not decoded yet` until it is decoded, and an eagerly
//! decoded body has no display of its own, so its recipe takes the label (and
//! any error an earlier decode left on the node) off before decoding.

use std::fmt;
use std::sync::Arc;

use crate::builder::{Builder, DResult};
use crate::source::ByteSource;
use crate::tree::{Kind, Name, NodeId, Tree};

/// Bytes read at a time by the skims.
pub(crate) const SKIM_CHUNK: u64 = 1 << 16;

type BodyFn = Arc<dyn Fn(&mut Builder) -> DResult<()> + Send + Sync>;

/// A region `[start, start + len)` named `name` whose contents `f` decodes,
/// like [`Builder::region`]: now, or (when the builder leaves parts lazy and
/// pages lists, and the region holds at least the lazy threshold's bytes and
/// fits its parent) when it is opened. Until then it shows `label`. `f` runs
/// on a builder at `start` bounded by the region's end (named `end of
/// <name>`), and may run again after the node is released.
pub(crate) fn lazy_part<F>(
    b: &mut Builder,
    name: impl Into<Name>,
    start: u64,
    len: u64,
    label: String,
    f: F,
) where
    F: Fn(&mut Builder) -> DResult<()> + Send + Sync + 'static,
{
    let name = name.into();
    let end = start.saturating_add(len);
    // Lazy only inside the region being decoded, so that a region that does
    // not fit reports it as it always does.
    let inside = start.saturating_mul(8) >= b.tree().node(b.current()).span.start;
    let lazy = page_size(b).is_some()
        && b.lazy_threshold().is_some_and(|t| len >= t)
        && len > 0
        && inside
        && end <= b.limit();
    if !lazy {
        b.region(name, Kind::Struct, start, len, |b| f(b));
        return;
    }
    let recipe = LazyPart {
        limit: end.saturating_mul(8),
        bound: format!("end of {name}").into(),
        f: Arc::new(f),
    };
    b.seek(start);
    if let Ok(id) = b.lazy_node(name, Kind::Struct, len * 8, Arc::new(recipe)) {
        b.set_display(id, label);
    }
    b.seek(end);
}

/// Decodes a region left lazy by [`lazy_part`].
struct LazyPart {
    /// End of the region (bits) and its name for error messages.
    limit: u64,
    bound: Box<str>,
    f: BodyFn,
}

impl fmt::Debug for LazyPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LazyPart(to bit {}, {})", self.limit, self.bound)
    }
}

impl crate::tree::Recipe for LazyPart {
    fn expand(&self, src: &dyn ByteSource, mut tree: Tree, id: NodeId) -> Tree {
        // What the node shows and says comes from decoding it, as in an eager
        // decode: not the label, nor what an earlier decode said before the
        // node was released.
        let n = tree.node_mut(id);
        n.display = None;
        n.error = None;
        let mut b = Builder::resume(src, tree, id, self.limit, self.bound.as_ref().into());
        let first_new = b.tree().len();
        // A Stop has already recorded its error in the tree.
        let _ = (self.f)(&mut b);
        // The region keeps its whole span, as an eager region does.
        b.seek_bits(self.limit);
        b.finish_expansion(first_new)
    }
}

/// Entries a page of a long list holds, when lists are shown as pages (see
/// [`Builder::page`]).
pub(crate) fn page_size(b: &Builder) -> Option<u64> {
    match (b.page_size(), b.lazy_threshold()) {
        (Some(n), Some(_)) => Some(u64::from(n.max(1))),
        _ => None,
    }
}

/// One page of a list: entries `first..next` in bytes `[start, end)`.
#[derive(Clone, Copy)]
pub(crate) struct Page {
    pub first: u64,
    pub next: u64,
    pub start: u64,
    pub end: u64,
}

/// Pages of `count` entries `stride` bytes apart from `start`, `n` to a page.
pub(crate) fn fixed_pages(start: u64, stride: u64, count: u64, n: u64) -> Vec<Page> {
    let n = n.max(1);
    (0..count.div_ceil(n))
        .map(|k| {
            let first = k * n;
            let next = (first + n).min(count);
            Page {
                first,
                next,
                start: start + first * stride,
                end: start + next * stride,
            }
        })
        .collect()
}

/// Pages of a list whose entries lie one after the other: `marks` says where
/// each page's first entry is (index, offset); `count` entries end at `end`.
pub(crate) fn contiguous_pages(marks: &[(u64, u64)], count: u64, end: u64) -> Vec<Page> {
    marks
        .iter()
        .enumerate()
        .map(|(k, &(first, start))| {
            let (next, to) = marks.get(k + 1).copied().unwrap_or((count, end));
            Page {
                first,
                next,
                start,
                end: to,
            }
        })
        .collect()
}

/// Shows `list` as pages of the current list: `f(b, first, next)` decodes
/// entries `first..next` from the page's start, now or when the page is opened
/// (see [`Builder::page`]).
pub(crate) fn pages<F>(b: &mut Builder, list: &[Page], f: F) -> DResult<()>
where
    F: Fn(&mut Builder, u64, u64) -> DResult<()> + Send + Sync + 'static,
{
    let f = Arc::new(f);
    for p in list {
        let f = Arc::clone(&f);
        let (first, next) = (p.first, p.next);
        b.page(first, next - 1, p.start, p.end - p.start, move |b| {
            f(b, first, next)
        })?;
    }
    Ok(())
}
