//! Renders a [`Decoded`] tree as the JSON contract or as an indented text tree.
//!
//! JSON (`hexlens dump FILE --json`):
//! ```text
//! {"format": str, "file_size": int, "tree": NODE,
//!  "errors": [{"path": str, "start": int, "end": int, "message": str}]}
//! NODE = {"name", "kind", "start", "end", "value"?, "display"?, "error"?,
//!         "children"?, "bits"?, "ref"?, "damaged"?, "lazy"?}
//! ```
//! `start`/`end` are byte offsets, half-open, rounded outwards from the bit span;
//! `bits` (`{"start","end"}` in bits) is present when the span is not byte aligned;
//! `ref` (`{"start","end"}` in bytes) is present on nodes that point at other bytes;
//! `damaged` is true on nodes whose subtree holds an error; `lazy` is true on
//! nodes whose children are not decoded yet (see [`crate::expand`]). In the text
//! dump a lazy node ends with `[not decoded yet]`.
//!
//! Both renderers walk the tree with an explicit stack, so arbitrarily deep trees
//! cannot overflow the call stack.

use crate::tree::{BitSpan, Kind, NameRef, NodeId, Tree, ValueRef};
use crate::Decoded;
use std::fmt::Write;

/// Appends `s` as a JSON string literal.
pub fn json_str(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut from = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        // Bytes below 0x20, '"', '\\', and the first byte of U+2028/U+2029.
        if b >= 0x20 && b != b'"' && b != b'\\' && b != 0xE2 {
            i += 1;
            continue;
        }
        let c = s[i..].chars().next().unwrap_or('\0');
        let esc: Option<&str> = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            _ => None,
        };
        let special = esc.is_some() || (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}';
        if !special {
            i += c.len_utf8();
            continue;
        }
        out.push_str(&s[from..i]);
        match esc {
            Some(e) => out.push_str(e),
            None => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
        }
        i += c.len_utf8();
        from = i;
    }
    out.push_str(&s[from..]);
    out.push('"');
}

/// Appends an unsigned integer in decimal.
fn push_u64(out: &mut String, v: u64) {
    if v < 10 {
        // Common (small values, bit offsets): one byte, no copy of a buffer.
        out.push((b'0' + v as u8) as char);
    } else {
        out.push_str(itoa::Buffer::new().format(v));
    }
}

/// Appends a node name as text: `[i]` for a list index.
fn push_name(out: &mut String, name: NameRef<'_>) {
    match name {
        NameRef::Str(s) => out.push_str(s),
        NameRef::Index(i) => {
            out.push('[');
            push_u64(out, i as u64);
            out.push(']');
        }
    }
}

/// Appends a node name as a JSON string literal.
fn json_name(out: &mut String, name: NameRef<'_>) {
    match name {
        NameRef::Index(i) => {
            out.push_str("\"[");
            push_u64(out, i as u64);
            out.push_str("]\"");
        }
        NameRef::Str(s) => json_str(out, s),
    }
}

fn json_value(out: &mut String, v: ValueRef<'_>) {
    match v {
        ValueRef::U(x) => push_u64(out, x),
        ValueRef::I(x) => out.push_str(itoa::Buffer::new().format(x)),
        ValueRef::F(x) if x.is_finite() => {
            let _ = write!(out, "{x:?}");
        }
        ValueRef::F(x) => json_str(out, &format!("{x}")),
        ValueRef::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        ValueRef::Str(s) => json_str(out, s),
    }
}

fn json_span(out: &mut String, key: &str, s: BitSpan, bytes: bool) {
    let (a, b) = if bytes {
        (s.start_byte(), s.end_byte())
    } else {
        (s.start, s.end)
    };
    out.push_str(",\"");
    out.push_str(key);
    out.push_str("\":{\"start\":");
    push_u64(out, a);
    out.push_str(",\"end\":");
    push_u64(out, b);
    out.push('}');
}

/// Appends the opening of node `id`'s JSON object: every key before
/// `children` (the caller closes it).
pub(crate) fn json_node_open(out: &mut String, tree: &Tree, id: NodeId) {
    let span = tree.span(id);
    out.push_str("{\"name\":");
    json_name(out, tree.name(id));
    out.push_str(",\"kind\":\"");
    out.push_str(tree.kind(id).as_str());
    out.push_str("\",\"start\":");
    push_u64(out, span.start_byte());
    out.push_str(",\"end\":");
    push_u64(out, span.end_byte());
    if let Some(v) = tree.value_ref(id) {
        out.push_str(",\"value\":");
        json_value(out, v);
    }
    if let Some(d) = tree.display(id) {
        out.push_str(",\"display\":");
        json_str(out, &d);
    }
    if let Some(e) = tree.error(id) {
        out.push_str(",\"error\":");
        json_str(out, e);
    }
    if !span.is_byte_aligned() {
        json_span(out, "bits", span, false);
    }
    if let Some(r) = tree.reference(id) {
        json_span(out, "ref", r, true);
    }
    if tree.is_damaged(id) {
        out.push_str(",\"damaged\":true");
    }
    if tree.is_lazy(id) {
        out.push_str(",\"lazy\":true");
    }
}

/// Renders the JSON contract (one line, no trailing newline).
pub fn to_json(d: &Decoded) -> String {
    let tree = &d.tree;
    let mut out = String::with_capacity(tree.len() * 96);
    out.push_str("{\"format\":");
    json_str(&mut out, d.format);
    let _ = write!(out, ",\"file_size\":{},\"tree\":", d.file_size);

    // Explicit stack: (node, next child index, its children with pages looked
    // through when it has pages).
    let paged = |id: NodeId| -> Option<Vec<NodeId>> {
        tree.children(id)
            .iter()
            .any(|&c| tree.is_page(c))
            .then(|| tree.children_flat(id))
    };
    let mut stack: Vec<(NodeId, usize, Option<Vec<NodeId>>)> =
        vec![(tree.root(), 0, paged(tree.root()))];
    json_node_open(&mut out, tree, tree.root());
    while let Some(top) = stack.last_mut() {
        let (id, i) = (top.0, top.1);
        let children = top.2.as_deref().unwrap_or(tree.children(id));
        if i < children.len() {
            top.1 += 1;
            out.push_str(if i == 0 { ",\"children\":[" } else { "," });
            let c = children[i];
            json_node_open(&mut out, tree, c);
            stack.push((c, 0, paged(c)));
        } else {
            if !children.is_empty() {
                out.push(']');
            }
            out.push('}');
            stack.pop();
        }
    }

    out.push_str(",\"errors\":[");
    for (k, id) in tree.errors().into_iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        let span = tree.span(id);
        out.push_str("{\"path\":");
        json_str(&mut out, &tree.path(id));
        let _ = write!(
            out,
            ",\"start\":{},\"end\":{},\"message\":",
            span.start_byte(),
            span.end_byte()
        );
        json_str(&mut out, tree.error(id).unwrap_or_default());
        out.push('}');
    }
    out.push_str("]}");
    out
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends a position as the text dump writes it: the byte offset in upper-case
/// hex, zero-padded to `width`, and `.b` for a bit inside the byte.
fn push_pos(out: &mut String, bits: u64, width: usize) {
    let byte = bits / 8;
    let mut digits = [0u8; 16];
    let mut n = 0;
    let mut v = byte;
    loop {
        digits[n] = HEX[(v & 15) as usize];
        n += 1;
        v >>= 4;
        if v == 0 {
            break;
        }
    }
    for _ in n..width {
        out.push('0');
    }
    for &d in digits[..n].iter().rev() {
        out.push(d as char);
    }
    if !bits.is_multiple_of(8) {
        out.push('.');
        out.push((b'0' + (bits % 8) as u8) as char);
    }
}

/// Appends `s` as [`one_line`] renders it.
fn push_one_line(out: &mut String, s: &str, max: usize) {
    // Short text without control characters is common: copied as it is.
    if s.len() <= max && !s.chars().any(char::is_control) {
        out.push_str(s);
    } else {
        out.push_str(&one_line(s, max));
    }
}

/// Shortens text for one-line display, escaping control characters.
pub fn one_line(s: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i >= max {
            out.push('…');
            break;
        }
        if c.is_control() {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// Renders the tree as indented text: one node a line with its hex byte range
/// (`.b` marks a bit inside a byte), its name, value and display, and its error.
pub fn to_text(d: &Decoded) -> String {
    let tree = &d.tree;
    let width = text_width(d.file_size);
    let mut out = String::new();
    let _ = writeln!(out, "{} ({} bytes)", d.format, d.file_size);
    tree.walk(|id, depth| text_node(&mut out, tree, id, depth, width));
    let errs = tree.errors();
    if !errs.is_empty() {
        let _ = writeln!(out, "{} error(s)", errs.len());
    }
    out
}

/// Width of the offsets in the text dump of a file of `file_size` bytes.
pub(crate) fn text_width(file_size: u64) -> usize {
    format!("{file_size:X}").len().max(4)
}

/// Appends node `id`'s line of the text dump (and its error line), indented for
/// `depth`, offsets `width` hex digits wide.
pub(crate) fn text_node(out: &mut String, tree: &Tree, id: NodeId, depth: usize, width: usize) {
    let span = tree.span(id);
    push_pos(out, span.start, width);
    out.push('-');
    push_pos(out, span.end, width);
    out.push(' ');
    for _ in 0..depth {
        out.push_str("  ");
    }
    push_name(out, tree.name(id));
    match tree.value_ref(id) {
        Some(ValueRef::Str(s)) => {
            out.push_str(": \"");
            push_one_line(out, s, 120);
            out.push('"');
        }
        Some(ValueRef::U(v)) => {
            out.push_str(": ");
            push_u64(out, v);
        }
        Some(v) => {
            let _ = write!(out, ": {}", v.to_owned());
        }
        None => {}
    }
    if let Some(disp) = tree.display(id) {
        out.push_str(" (");
        push_one_line(out, &disp, 160);
        out.push(')');
    }
    let kind = tree.kind(id);
    if kind.is_group() || matches!(kind, Kind::Unknown | Kind::Padding | Kind::Bytes) {
        out.push_str(" [");
        out.push_str(kind.as_str());
        out.push(']');
    }
    if tree.is_lazy(id) {
        out.push_str(" [not decoded yet]");
    }
    out.push('\n');
    if let Some(e) = tree.error(id) {
        for _ in 0..2 * width + 1 {
            out.push(' ');
        }
        out.push(' ');
        for _ in 0..depth {
            out.push_str("  ");
        }
        out.push_str("  ! ");
        push_one_line(out, e, 400);
        out.push('\n');
    }
}
