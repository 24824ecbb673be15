//! hexlens-core: format decoders that turn a file into a span-annotated structure tree.
//!
//! Every decoder reads through a [`Builder`], which records the bit span of every
//! field it reads, keeps partial results when data is truncated or invalid, and
//! fills unclaimed bytes with `unknown` nodes. The result is a [`Tree`] with the
//! same shape for every format, which [`output`] renders as JSON or text.
//!
//! ```
//! let d = hexlens_core::decode_bytes(b"not a known format");
//! assert_eq!(d.format, "raw");
//! assert!(!d.tree.errors().is_empty());
//! ```
#![forbid(unsafe_code)]

pub mod bitstream;
pub mod builder;
pub(crate) mod claims;
pub mod clip;
pub mod copy;
pub mod diff;
pub mod dis;
pub mod floattext;
pub mod formats;
pub mod glance;
#[cfg(feature = "ksy")]
pub mod ksy;
#[cfg(feature = "bitcode")]
pub mod llvmir;
pub mod output;
pub mod pages;
pub mod protocol;
pub mod search;
pub mod session;
pub mod sorted;
pub mod source;
pub mod stream;
pub mod tree;
pub mod varint;
pub mod view;

pub use builder::{Builder, DResult, Endian, Field, Stop};
pub use formats::{formats, Format};
pub use source::ByteSource;
pub use tree::{BitSpan, IdMap, Kind, Name, NameRef, Node, NodeId, Tree, Value, ValueRef};

/// A decoded file.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The short name of the decoder that produced the tree (`dxcontainer`), or
    /// `raw` when no decoder recognised the file.
    pub format: &'static str,
    /// Size of the file in bytes.
    pub file_size: u64,
    /// The structure tree.
    pub tree: Tree,
}

impl Decoded {
    /// True if no node carries an error.
    pub fn is_clean(&self) -> bool {
        !self.tree.is_damaged(self.tree.root())
    }
}

/// The decoder whose probe recognises `src`, if any.
pub fn detect(src: &dyn ByteSource) -> Option<&'static Format> {
    formats().into_iter().find(|f| (f.probe)(src))
}

/// How to decode a file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// `None` (the default) decodes everything now. `Some(n)`: a part of the file
    /// whose body holds at least `n` bytes, such as an LLVM bitstream block below
    /// the top level, is not decoded: it becomes a lazy node (its span, name and a
    /// display saying what it is, no children) that [`expand`] decodes when asked.
    /// The time and memory a lazy part costs do not depend on its size.
    pub lazy_threshold: Option<u64>,
    /// `None` (the default): a list's entries are the children of the list.
    /// `Some(n)`: a list inside a lazy part that holds more than `n` entries
    /// (the records of an LLVM bitstream block's body) gets page nodes of `n`
    /// entries each (`[0…999]`, `[1000…1999]`, …), lazy themselves, each decoded
    /// when [`expand`]ed. A quick skim over the list finds where each page
    /// starts and what decoding must know there. Pages are a way of browsing:
    /// paths, the JSON contract and the text dump look through them (see
    /// [`Node::page`]). Only takes effect with a lazy threshold.
    pub page_size: Option<u32>,
    /// With a lazy threshold: first skim the whole file (reading every field,
    /// making no nodes) so that what the root shows (the bitcode summary's
    /// counts) is what an eager decode shows, and decode eagerly any part the
    /// skim finds damaged, so that a lazy node never hides an error. Costs one
    /// pass over the data. A streaming dump (see [`stream`]) needs it to write
    /// exactly what an eager dump writes.
    pub exact_totals: bool,
    /// Scan the file for containers of every format and decode those found in
    /// place ([`formats::embedded`]), whatever the file is. A file no decoder
    /// recognises is scanned anyway (when the `embedded` decoder is built in).
    pub scan: bool,
    /// Leave digests of the file's contents unchecked (a DirectX
    /// Container's DXBC checksum and MD5 shader hash): for a reader that
    /// wants only where things are, such as a listing finding its programs.
    /// The nodes say they were not checked.
    pub skip_digests: bool,
}

/// Decodes `src` with the first decoder that recognises it. A file no decoder
/// recognises still gets a tree: one `unknown` run and an error on the root
/// saying so. Never panics on any input. Everything is decoded now; see
/// [`decode_with`] to leave big parts for later.
pub fn decode(src: &dyn ByteSource) -> Decoded {
    decode_with(src, &Options::default())
}

/// Decodes `src` with `format` (a `.ksy` format the user gave, say), or
/// like [`decode_with`] when `None`.
pub fn decode_as_or_with(
    format: Option<&'static Format>,
    src: &dyn ByteSource,
    opts: &Options,
) -> Decoded {
    match format {
        Some(f) => decode_as_with(f, src, opts),
        None => decode_with(src, opts),
    }
}

/// Decodes `src` like [`decode`], with `opts` (see [`Options::lazy_threshold`]).
pub fn decode_with(src: &dyn ByteSource, opts: &Options) -> Decoded {
    let scan = formats::by_name(formats::embedded::FORMAT.name);
    if let Some(f) = scan.filter(|_| opts.scan) {
        return decode_as_with(f, src, opts);
    }
    match detect(src) {
        Some(f) => decode_as_with(f, src, opts),
        None => {
            // Containers inside the file, if the scan is built in and finds any.
            if let Some(f) = scan {
                let d = decode_as_with(f, src, opts);
                if d.tree.value(d.tree.root()) != Some(Value::U(0)) {
                    return d;
                }
            }
            let mut b = Builder::new(src, "raw");
            let head = b.peek_bytes(0, 8);
            let root = b.current();
            b.set_error(root, unrecognised(&head, scan.is_some()));
            Decoded {
                format: "raw",
                file_size: src.len(),
                tree: b.finish(),
            }
        }
    }
}

/// The error of a file no decoder recognises, which starts with `head`;
/// `scanned`: no container of a known format was found inside it either.
pub(crate) fn unrecognised(head: &[u8], scanned: bool) -> String {
    format!(
        "no decoder recognises this file (it starts with {}){}; shown as plain bytes",
        if head.is_empty() {
            "nothing: it is empty".to_string()
        } else {
            builder::hex_preview(head)
        },
        if scanned {
            ", and no container of a known format was found inside it"
        } else {
            ""
        }
    )
}

/// Decodes an in-memory file (see [`decode`]).
pub fn decode_bytes(data: &[u8]) -> Decoded {
    decode(&data)
}

/// Decodes `src` with a given decoder, whether or not its probe matches.
pub fn decode_as(format: &'static Format, src: &dyn ByteSource) -> Decoded {
    decode_as_with(format, src, &Options::default())
}

/// Decodes `src` with a given decoder and options.
pub fn decode_as_with(format: &'static Format, src: &dyn ByteSource, opts: &Options) -> Decoded {
    let mut b = Builder::new(src, format.root);
    b.set_lazy_threshold(opts.lazy_threshold);
    b.set_skip_digests(opts.skip_digests);
    if opts.lazy_threshold.is_some() {
        b.set_page_size(opts.page_size);
        b.set_exact_totals(opts.exact_totals);
    }
    // A Stop that reaches the top has already recorded its error in the tree.
    let _ = (format.decode)(&mut b);
    Decoded {
        format: format.name,
        file_size: src.len(),
        tree: b.finish(),
    }
}

/// Decodes the children of lazy node `id` of `tree`, which was decoded from `src`
/// with [`decode_with`], using the same lazy threshold (so big parts inside it stay
/// lazy). The new nodes are appended to the tree and become the node's children;
/// its `lazy` flag is cleared, unclaimed bytes inside it become `unknown` nodes,
/// and if an error appears the node and its ancestors are marked damaged. The
/// subtree is the one [`decode`] gives for that node. Returns the range of new
/// node ids (to send to a tree mirrored with [`Tree::apply_expansion`]).
///
/// Errors (and changes nothing) if `id` is not in the tree or is not lazy, or if
/// the tree does not hold what is needed to decode it (a tree rebuilt with
/// [`Tree::from_nodes`]). Never panics on any input.
pub fn expand(
    src: &dyn ByteSource,
    tree: &mut Tree,
    id: NodeId,
) -> Result<std::ops::Range<NodeId>, String> {
    if id as usize >= tree.len() {
        return Err(format!(
            "node {id} is not in the tree ({} nodes)",
            tree.len()
        ));
    }
    if !tree.is_lazy(id) {
        return Err(format!(
            "node {id} ({}) is not lazy: its children are decoded",
            tree.path(id)
        ));
    }
    let Some(recipe) = tree.recipe(id) else {
        return Err(format!(
            "node {id} ({}) is lazy, but this tree cannot decode it (it mirrors a tree decoded elsewhere)",
            tree.path(id)
        ));
    };
    let first = tree.len();
    let marks = tree.marks();
    let before = tree.node(id);
    let taken = std::mem::replace(tree, Tree::with_root(Name::Static(""), BitSpan::default()));
    *tree = recipe.expand(src, taken, id);
    tree.note_expanded(id, marks, before);
    Ok(first as NodeId..tree.len() as NodeId)
}

/// The children of node `id` as the file's structure has them (pages looked
/// through), decoding `id` and its pages first if they wait to be opened (a
/// group that cannot be decoded has the children it had).
pub fn open_children(src: &dyn ByteSource, tree: &mut Tree, id: NodeId) -> Vec<NodeId> {
    if tree.is_lazy(id) {
        let _ = expand(src, tree, id);
    }
    let mut out = Vec::new();
    let mut stack: Vec<NodeId> = tree.children(id).iter().rev().copied().collect();
    while let Some(c) = stack.pop() {
        if tree.is_page(c) {
            if tree.is_lazy(c) {
                let _ = expand(src, tree, c);
            }
            stack.extend(tree.children(c).iter().rev());
        } else {
            out.push(c);
        }
    }
    out
}

/// Releases what [`expand`] added below node `id` (see [`Tree::release`]): the
/// node becomes lazy again and can be expanded anew. Nodes keep their ids when
/// groups are released in the reverse order of their opening; otherwise the
/// returned map says where they moved.
pub fn release(tree: &mut Tree, id: NodeId) -> Result<IdMap, String> {
    tree.release(id)
}
