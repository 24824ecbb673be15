//! An opened and decoded file: the bytes, the tree, and the lookups the panes need.

use crate::bytes::FileBytes;
use crate::index::{byte_range, SpanIndex};
use hexlens_core::{BitSpan, Kind, Name, Node, NodeId, Tree};
use std::rc::Rc;
use std::sync::atomic::{AtomicU32, Ordering};

static NEXT_ID: AtomicU32 = AtomicU32::new(1);

/// A decoded file (or one being decoded). Shared behind `Rc`; two `Doc`s are
/// equal only if they are the same value: decoding finishing, or a lazy node
/// being expanded, makes a new `Doc`.
#[derive(Debug)]
pub struct Doc {
    /// Distinguishes `Doc` values (so re-opening the same file still refreshes the view).
    pub id: u32,
    /// The load this belongs to: stays the same while a file is decoded and expanded.
    pub load: u32,
    /// The file's bytes.
    pub bytes: Rc<FileBytes>,
    /// The decoder used (`raw` if none recognised the file).
    pub format: &'static str,
    /// The decoder's one-line description.
    pub format_description: &'static str,
    /// The structure tree (just the root while decoding).
    pub tree: Tree,
    /// Byte → innermost node.
    pub index: SpanIndex,
    /// Nodes carrying an error, depth first.
    pub errors: Vec<NodeId>,
    /// False while the decoder is still working on the file.
    pub decoded: bool,
}

impl PartialEq for Doc {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

/// Name of the placeholder root shown while a file is being decoded.
pub const PENDING_ROOT: &str = "file";

impl Doc {
    /// A doc for `tree`, decoded from `bytes` by the decoder called `format`.
    pub fn new(bytes: Rc<FileBytes>, load: u32, format: &str, tree: Tree) -> Self {
        let index = SpanIndex::build(&tree, bytes.len());
        let errors = tree.errors();
        let f = hexlens_core::formats::about(format);
        Doc {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            load,
            bytes,
            format: f.map(|f| f.name).unwrap_or("raw"),
            format_description: f
                .map(|f| f.description)
                .unwrap_or("no decoder recognised this file"),
            tree,
            index,
            errors,
            decoded: true,
        }
    }

    /// The doc shown while `bytes` is being decoded: the bytes and a bare root.
    pub fn pending(bytes: Rc<FileBytes>, load: u32) -> Self {
        let root = Node {
            name: Name::Static(PENDING_ROOT),
            kind: Kind::File,
            span: BitSpan::bytes(0, bytes.len()),
            value: None,
            display: Some("decoding…".into()),
            error: None,
            reference: None,
            damaged: false,
            lazy: false,
            page: false,
            parent: None,
            children: Vec::new(),
        };
        let tree = Tree::from_nodes(vec![root]).expect("a lone root is a tree");
        let mut d = Doc::new(bytes, load, "raw", tree);
        d.decoded = false;
        d
    }

    /// Decodes in-memory `bytes` on this thread (tests and tools; the browser
    /// decodes files in the worker).
    pub fn open(bytes: FileBytes) -> Self {
        let d = hexlens_core::decode(&bytes);
        Doc::new(Rc::new(bytes), 0, d.format, d.tree)
    }

    /// This doc with the lazy node `id` expanded as the decoder reported it
    /// (`nodes`: the node's new self, then the nodes it gained).
    pub fn expanded(&self, id: NodeId, mut nodes: Vec<Node>) -> Result<Doc, String> {
        if nodes.is_empty() {
            return Err("the decoder sent no nodes".into());
        }
        let node = nodes.remove(0);
        let mut tree = self.tree.clone();
        tree.apply_expansion(id, node, nodes)?;
        Ok(Doc::new(self.bytes.clone(), self.load, self.format, tree))
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

    /// True if no decoder recognised the file (known only once decoded).
    pub fn is_raw(&self) -> bool {
        self.decoded && self.format == "raw"
    }
}
