//! Lazy regions and pages that the decoder vouches for (the same helper as the
//! cDAC decoder's; each format keeps its own copy).
//!
//! [`Builder::lazy_region`] and [`Builder::page`] make lazy nodes that may hide an
//! error, so a streaming dump first surveys the whole tree (a second decode) to
//! learn damage flags. With exact totals this decoder leaves a part lazy only
//! after a skim (making no nodes) found it clean, so its lazy nodes can say so
//! ([`Recipe::vouched`]) and the survey is not needed. [`region`] and [`page`]
//! make such nodes exactly as the builder makes its own (same name, span, label,
//! page marking, bound "end of <name>", byte order restored), or defer to the
//! builder's unvouched ones when `vouched` is false.

use crate::builder::{Builder, DResult, Endian};
use crate::source::ByteSource;
use crate::tree::{Kind, Name, NodeId, Recipe, Tree, Value};
use std::fmt;
use std::sync::Arc;

type RegionFn = Arc<dyn Fn(&mut Builder) -> DResult<()> + Send + Sync>;

/// Decodes a region left lazy by [`region`] or [`page`]; its subtree is known
/// to hold no error.
struct Vouched {
    /// End of the region (bits) and its name for error messages.
    limit: u64,
    bound: Box<str>,
    /// Byte order in force where the region was met.
    endian: Endian,
    f: RegionFn,
}

impl fmt::Debug for Vouched {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Vouched(to bit {}, {})", self.limit, self.bound)
    }
}

impl Recipe for Vouched {
    fn expand(&self, src: &dyn ByteSource, tree: Tree, id: NodeId) -> Tree {
        let mut b = Builder::resume(src, tree, id, self.limit, self.bound.as_ref().into());
        let first_new = b.tree().len();
        b.set_endian(self.endian);
        // A Stop has already recorded its error in the tree.
        let _ = (self.f)(&mut b);
        // The region keeps its whole span, as an eager region does.
        b.seek(self.limit / 8);
        b.finish_expansion(first_new)
    }

    fn vouched(&self) -> bool {
        true
    }
}

/// True if `[start, start + len)` lies inside the current group (a lazy node
/// must; a region that does not fit is decoded now, so its error reads as usual).
fn fits(b: &Builder, start: u64, len: u64) -> bool {
    let from = b.tree().node(b.current()).span.start;
    len > 0
        && start.saturating_mul(8) >= from
        && start.saturating_add(len) <= b.limit()
        && start.checked_add(len).is_some()
}

/// Makes the lazy node; `None` if it could not be made (its read failed).
fn lazy(
    b: &mut Builder,
    name: Name,
    kind: Kind,
    start: u64,
    len: u64,
    label: Option<String>,
    f: RegionFn,
) -> Option<NodeId> {
    let recipe = Vouched {
        limit: (start + len) * 8,
        bound: format!("end of {name}").into(),
        endian: b.endian(),
        f,
    };
    b.seek(start);
    let id = b.lazy_node(name, kind, len * 8, Arc::new(recipe)).ok()?;
    if let Some(l) = label {
        b.set_display(id, l);
    }
    b.seek(start + len);
    Some(id)
}

/// [`Builder::lazy_region`], vouched for when `vouched`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn region<F>(
    b: &mut Builder,
    vouched: bool,
    name: impl Into<Name>,
    kind: Kind,
    start: u64,
    len: u64,
    label: Option<String>,
    f: F,
) where
    F: Fn(&mut Builder) -> DResult<()> + Send + Sync + 'static,
{
    if !vouched {
        b.lazy_region(name, kind, start, len, label, f);
        return;
    }
    let big = b.lazy_threshold().is_some_and(|t| len >= t);
    if !(big && fits(b, start, len)) {
        b.region(name, kind, start, len, |b| f(b));
        return;
    }
    lazy(b, name.into(), kind, start, len, label, Arc::new(f));
}

/// [`Builder::page`], vouched for when `vouched`.
pub(crate) fn page<F>(
    b: &mut Builder,
    vouched: bool,
    first: u64,
    last: u64,
    start: u64,
    len: u64,
    f: F,
) -> DResult<()>
where
    F: Fn(&mut Builder) -> DResult<()> + Send + Sync + 'static,
{
    if !vouched {
        return b.page(first, last, start, len, f);
    }
    let paged = b.page_size().is_some() && b.lazy_threshold().is_some();
    if !(paged && fits(b, start, len)) {
        b.seek(start);
        return f(b);
    }
    let name = Name::from(format!("[{first}…{last}]"));
    let label = format!("entries {first} to {last}, not decoded yet");
    if let Some(id) = lazy(b, name, Kind::Array, start, len, Some(label), Arc::new(f)) {
        b.set_page(id);
        b.set_value(id, Value::U(last.saturating_sub(first).saturating_add(1)));
    }
    Ok(())
}
