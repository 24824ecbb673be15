//! Decoding on demand: part bodies and RDAT sub-parts as lazy regions, long
//! lists as pages.
//!
//! When the decode leaves parts lazy and pages lists (a lazy threshold and a
//! page size, as the streaming dump decodes: [`crate::Options`]), every part's
//! body is left undecoded until it is opened. The header, the part table and
//! each part's `Name` and `Size` are decoded at once, and nothing outside a
//! body is computed from what it holds: what parts need of each other is
//! peeked without nodes (`prescan`, the digests, STR0's look at SYM0's long
//! names). Inside RDAT each sub-part is lazy in the same way. A part table and
//! a list of parts longer than a page are pages themselves when the parts lie
//! one after the other. With a lazy threshold alone (as `hexlens dump
//! --lazy-threshold` decodes), parts are decoded at once and only the
//! bitcode's blocks are left lazy.
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
//! A lazy body is a [`Builder::lazy_region`] made only when lists are paged; it
//! shows `N bytes, not decoded yet` until it is decoded.

use std::sync::Arc;

use crate::builder::{Builder, DResult};
use crate::tree::{Kind, Name};

/// Bytes read at a time by the skims.
pub(crate) const SKIM_CHUNK: u64 = 1 << 16;

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
    if page_size(b).is_none() {
        b.region(name, Kind::Struct, start, len, |b| f(b));
        return;
    }
    b.lazy_region(name, Kind::Struct, start, len, Some(label), f);
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
