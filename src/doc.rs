//! An opened and decoded file: the bytes, the tree, and the lookups the panes need.

use crate::bytes::FileBytes;
use crate::index::{byte_range, SpanIndex};
use hexlens_core::{NodeId, Tree};
use std::sync::atomic::{AtomicU32, Ordering};

static NEXT_ID: AtomicU32 = AtomicU32::new(1);

/// A decoded file. Shared behind `Rc`; two `Doc`s are equal only if they are the
/// same load.
#[derive(Debug)]
pub struct Doc {
    /// Distinguishes loads (so re-opening the same file still refreshes the view).
    pub id: u32,
    /// The file's bytes.
    pub bytes: FileBytes,
    /// The decoder used (`raw` if none recognised the file).
    pub format: &'static str,
    /// The decoder's one-line description.
    pub format_description: &'static str,
    /// The structure tree.
    pub tree: Tree,
    /// Byte → innermost node.
    pub index: SpanIndex,
    /// Nodes carrying an error, depth first.
    pub errors: Vec<NodeId>,
}

impl PartialEq for Doc {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Doc {
    /// Decodes `bytes` (never fails: an unknown file becomes one `unknown` run).
    pub fn open(bytes: FileBytes) -> Self {
        let d = hexlens_core::decode(&bytes);
        let index = SpanIndex::build(&d.tree, bytes.len());
        let errors = d.tree.errors();
        let format_description = hexlens_core::formats::by_name(d.format)
            .map(|f| f.description)
            .unwrap_or("no decoder recognised this file");
        Doc {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            bytes,
            format: d.format,
            format_description,
            tree: d.tree,
            index,
            errors,
        }
    }

    /// The bytes `[start, end)` a node covers, clipped to the file.
    pub fn range(&self, id: NodeId) -> (u64, u64) {
        byte_range(&self.tree, id, self.bytes.len())
    }

    /// The bytes to show for a node: its own range, or for a node without bytes of
    /// its own (a derived value), the bytes it refers to.
    pub fn shown_range(&self, id: NodeId) -> (u64, u64) {
        let (s, e) = self.range(id);
        if s < e {
            return (s, e);
        }
        match self.tree.node(id).reference {
            Some(r) if !r.is_empty() => {
                let n = self.bytes.len();
                (r.start_byte().min(n), r.end_byte().min(n))
            }
            _ => (s, e),
        }
    }

    /// The referenced bytes of a node (a string an offset points at), if any.
    pub fn reference(&self, id: NodeId) -> Option<(u64, u64)> {
        let r = self.tree.node(id).reference?;
        let n = self.bytes.len();
        (!r.is_empty()).then(|| (r.start_byte().min(n), r.end_byte().min(n)))
    }

    /// True if no decoder recognised the file.
    pub fn is_raw(&self) -> bool {
        self.format == "raw"
    }
}
