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
pub mod formats;
pub mod output;
pub mod source;
pub mod tree;

pub use builder::{Builder, DResult, Endian, Stop};
pub use formats::{formats, Format};
pub use source::ByteSource;
pub use tree::{BitSpan, Kind, Name, Node, NodeId, Tree, Value};

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
        !self.tree.node(self.tree.root()).damaged
    }
}

/// The decoder whose probe recognises `src`, if any.
pub fn detect(src: &dyn ByteSource) -> Option<&'static Format> {
    formats().iter().find(|f| (f.probe)(src))
}

/// Decodes `src` with the first decoder that recognises it. A file no decoder
/// recognises still gets a tree: one `unknown` run and an error on the root
/// saying so. Never panics on any input.
pub fn decode(src: &dyn ByteSource) -> Decoded {
    match detect(src) {
        Some(f) => decode_as(f, src),
        None => {
            let mut b = Builder::new(src, "raw");
            let head = b.peek_bytes(0, 8);
            let root = b.current();
            b.set_error(
                root,
                format!(
                    "no decoder recognises this file (it starts with {}); shown as plain bytes",
                    if head.is_empty() {
                        "nothing: it is empty".to_string()
                    } else {
                        builder::hex_preview(&head)
                    }
                ),
            );
            Decoded {
                format: "raw",
                file_size: src.len(),
                tree: b.finish(),
            }
        }
    }
}

/// Decodes an in-memory file (see [`decode`]).
pub fn decode_bytes(data: &[u8]) -> Decoded {
    decode(&data)
}

/// Decodes `src` with a given decoder, whether or not its probe matches.
pub fn decode_as(format: &'static Format, src: &dyn ByteSource) -> Decoded {
    let mut b = Builder::new(src, format.root);
    // A Stop that reaches the top has already recorded its error in the tree.
    let _ = (format.decode)(&mut b);
    Decoded {
        format: format.name,
        file_size: src.len(),
        tree: b.finish(),
    }
}
