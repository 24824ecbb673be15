//! The app's components, one per file.

pub mod details;
pub mod drop_overlay;
pub mod empty_state;
pub mod hex_view;
pub mod icons;
pub mod inspector;
pub mod notices;
pub mod splitter;
pub mod status_bar;
pub mod toolbar;
pub mod tree_view;

use crate::clip;
use hexlens_core::{Kind, Node, NodeId, Tree};

/// What a tree row shows after a node's name: [`value_text`], or for a group
/// without a value, the text of its naming field (a part's FourCC, an element's
/// semantic name) so a list of parts reads `[0] SFI0`, `[1] ISG1`, …
pub fn row_text(tree: &Tree, id: NodeId, len: u64) -> String {
    let n = tree.node(id);
    if n.kind == Kind::Struct && n.value.is_none() && n.display.is_none() {
        let label = n.children.iter().take(3).find_map(|&c| {
            let c = tree.node(c);
            match (c.kind, &c.value) {
                (Kind::FourCC | Kind::Str | Kind::StrRef, Some(v)) => {
                    let field = (c.kind == Kind::Str).then(|| c.span.len_bits() / 8);
                    Some(clip::value(v, field, clip::ROW))
                }
                _ => None,
            }
        });
        if let Some(l) = label {
            return l;
        }
    }
    value_text(&n, len)
}

/// The text a tree row (and the details pane) shows as a node's value: the value
/// and its human rendering, or a size for groups and byte runs. Always text; long
/// strings are clipped to [`clip::ROW`] bytes with their length stated.
pub fn value_text(n: &Node, len: u64) -> String {
    let field = (n.kind == Kind::Str).then_some(len);
    let v = n.value.as_ref().map(|v| clip::value(v, field, clip::ROW));
    let d = n.display.as_deref().map(|d| clip::plain(d, clip::ROW));
    match (v, d) {
        (Some(v), Some(d)) => format!("{v} ({d})"),
        (Some(v), None) => v,
        (None, Some(d)) => d,
        (None, None) => match n.kind {
            Kind::Array => match n.children.len() {
                1 => "1 item".to_string(),
                k => format!("{k} items"),
            },
            Kind::File | Kind::Struct => String::new(),
            _ => format!("{len} byte{}", if len == 1 { "" } else { "s" }),
        },
    }
}

/// Number of hex digits offsets need for a file of `size` bytes (at least 4).
pub fn offset_digits(size: u64) -> usize {
    let mut d = 4;
    while d < 16 && size > (1u64 << (4 * d)) {
        d += 1;
    }
    d
}
