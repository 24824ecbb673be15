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

/// What a tree row shows after a node's name: for a group without a value
/// whose first fields include a naming field (a part's FourCC, an element's
/// semantic name, a symbol's name), that name first, so a list reads `[0] SFI0`,
/// `[1] ISG1`, … and a remark (an odd offset, a count) never hides what the
/// group is; then [`value_text`].
pub fn row_text(tree: &Tree, id: NodeId, len: u64) -> String {
    let n = tree.node(id);
    if n.kind == Kind::Struct && n.value.is_none() {
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
            return match n.display.as_deref().map(|d| clip::plain(d, clip::ROW)) {
                // The display already leads with the name (a DXContainer part's).
                Some(d) if d.starts_with(l.trim_matches('"')) => d,
                Some(d) => format!("{l} · {d}"),
                None => l,
            };
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

#[cfg(test)]
mod tests {
    use super::row_text;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// A container whose one part (SFI0, 8 bytes of flags) starts at 0x26, two
    /// bytes past the end of the part table.
    fn unaligned_part() -> Vec<u8> {
        let mut v = b"DXBC".to_vec();
        v.extend([0u8; 16]);
        v.extend(1u16.to_le_bytes());
        v.extend(0u16.to_le_bytes());
        let size_at = v.len();
        v.extend(0u32.to_le_bytes());
        v.extend(1u32.to_le_bytes());
        v.extend(0x26u32.to_le_bytes());
        v.extend([0u8; 2]);
        v.extend(b"SFI0");
        v.extend(8u32.to_le_bytes());
        v.extend([0u8; 8]);
        let n = v.len() as u32;
        v[size_at..size_at + 4].copy_from_slice(&n.to_le_bytes());
        v
    }

    #[wasm_bindgen_test]
    fn a_part_row_leads_with_its_fourcc_and_a_remark_follows_it() {
        let d = hexlens_core::decode_bytes(&unaligned_part());
        let t = &d.tree;
        let part = t.find("Parts/[0]").expect("the part");
        let len = t.span(part).len_bits() / 8;
        let text = row_text(t, part, len);
        assert!(text.starts_with("SFI0: shader feature flags"), "{text}");
        assert!(text.contains("⚠ at 0x26, not 4-byte aligned"), "{text}");
    }
}
