//! Renders a [`Decoded`] tree as the JSON contract or as an indented text tree.
//!
//! JSON (`hexlens dump FILE --json`):
//! ```text
//! {"format": str, "file_size": int, "tree": NODE,
//!  "errors": [{"path": str, "start": int, "end": int, "message": str}]}
//! NODE = {"name", "kind", "start", "end", "value"?, "display"?, "error"?,
//!         "children"?, "bits"?, "ref"?, "damaged"?, "lazy"?, "instance"?, "in"?}
//! ```
//! `start`/`end` are byte offsets, half-open, rounded outwards from the bit span;
//! `bits` (`{"start","end"}` in bits) is present when the span is not byte aligned;
//! `ref` (`{"start","end"}` in bytes) is present on nodes that point at other bytes;
//! `damaged` is true on nodes whose subtree holds an error; `lazy` is true on
//! nodes whose children are not decoded yet (see [`crate::expand`]). In the text
//! dump a lazy node ends with `[not decoded yet]`. A `.ksy` format's instances
//! carry `"instance": true` (`[instance]` in text); nodes read from bytes a
//! `process` made carry `"in": "decoded"` (`[in decoded bytes]`), their
//! offsets being into those bytes.
//!
//! Both renderers walk the tree with an explicit stack, so arbitrarily deep trees
//! cannot overflow the call stack.

use crate::tree::{BitSpan, Kind, NameRef, NodeId, Tree, ValueRef};
use crate::Decoded;
use std::fmt::Write as _;
use std::io::Write as _;

// Kept over serde_json: no faster, larger, other escapes (bench/RESULTS.md, "Library choices").
/// Appends `s` as a JSON string literal.
pub fn json_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
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
        let esc: Option<&[u8]> = match c {
            '"' => Some(b"\\\""),
            '\\' => Some(b"\\\\"),
            '\n' => Some(b"\\n"),
            '\r' => Some(b"\\r"),
            '\t' => Some(b"\\t"),
            _ => None,
        };
        let special = esc.is_some() || (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}';
        if !special {
            i += c.len_utf8();
            continue;
        }
        out.extend_from_slice(&bytes[from..i]);
        match esc {
            Some(e) => out.extend_from_slice(e),
            None => {
                let u = c as u32;
                out.extend_from_slice(b"\\u");
                for shift in [12, 8, 4, 0] {
                    out.push(HEX_LOWER[(u >> shift & 15) as usize]);
                }
            }
        }
        i += c.len_utf8();
        from = i;
    }
    out.extend_from_slice(&bytes[from..]);
    out.push(b'"');
}

const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";

/// Two decimal digits for each number below 100.
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

// Kept over itoa: 3-5 % faster bitcode dumps (bench/RESULTS.md, "Library choices").
/// Appends an unsigned integer in decimal. The JSON dump writes several numbers
/// a node, most below 10^8: those take one fixed-size store of eight digits made
/// with a few multiplications (no division chain, no copy of a variable length).
#[inline]
fn put_u64(out: &mut Vec<u8>, v: u64) {
    if v < 10 {
        out.push(b'0' + v as u8);
        return;
    }
    if v < 100_000_000 {
        let d = eight_digits(v as u32);
        // Leading zero digits are the low zero bytes (v >= 10: d is not zero).
        let zeros = (d.trailing_zeros() / 8) as usize;
        let ascii = (d + 0x3030_3030_3030_3030) >> (8 * zeros);
        let len = out.len();
        out.extend_from_slice(&ascii.to_le_bytes());
        out.truncate(len + 8 - zeros);
        return;
    }
    let n = v.ilog10() as usize + 1;
    let len = out.len();
    out.extend_from_slice(&[b'0'; 20]);
    let d = &mut out[len..len + 20];
    let mut i = n;
    let mut w = v;
    while w >= 10_000 {
        let r = (w % 10_000) as u32;
        w /= 10_000;
        put4(d, i - 4, r);
        i -= 4;
    }
    while i > 0 {
        i -= 1;
        d[i] = b'0' + (w % 10) as u8;
        w /= 10;
    }
    out.truncate(len + n);
}

/// The eight decimal digits of `v` (below 10^8, leading zeros included), one a
/// byte, the first in the lowest byte. Works on lanes of one `u64`: two halves
/// of four digits, then four pairs, then eight digits.
#[inline(always)]
fn eight_digits(v: u32) -> u64 {
    let x = (v / 10_000) as u64 | ((v % 10_000) as u64) << 32;
    // Each 32-bit lane (below 10^4) divided by 100: x * 10486 >> 20 is exact there.
    let q = ((x * 10_486) >> 20) & 0x0000_007F_0000_007F;
    let pairs = q | (x - q * 100) << 16;
    // Each 16-bit lane (below 100) divided by 10: x * 103 >> 10 is exact there.
    let t = ((pairs * 103) >> 10) & 0x000F_000F_000F_000F;
    t | (pairs - t * 10) << 8
}

/// Writes `r` (below 10,000) as four digits at `d[at..at + 4]`.
#[inline(always)]
fn put4(d: &mut [u8], at: usize, r: u32) {
    let (hi, lo) = ((r / 100) as usize * 2, (r % 100) as usize * 2);
    d[at..at + 2].copy_from_slice(&PAIRS[hi..hi + 2]);
    d[at + 2..at + 4].copy_from_slice(&PAIRS[lo..lo + 2]);
}

/// Appends a signed integer in decimal.
fn put_i64(out: &mut Vec<u8>, v: i64) {
    if v < 0 {
        out.push(b'-');
    }
    put_u64(out, v.unsigned_abs());
}

/// Appends a node name as text: `[i]` for a list index.
fn push_name(out: &mut Vec<u8>, name: NameRef<'_>) {
    match name {
        NameRef::Str(s) => out.extend_from_slice(s.as_bytes()),
        NameRef::Index(i) => {
            out.push(b'[');
            put_u64(out, i as u64);
            out.push(b']');
        }
    }
}

/// Appends a node name as a JSON string literal.
fn json_name(out: &mut Vec<u8>, name: NameRef<'_>) {
    match name {
        NameRef::Index(i) => {
            out.extend_from_slice(b"\"[");
            put_u64(out, i as u64);
            out.extend_from_slice(b"]\"");
        }
        NameRef::Str(s) => json_str(out, s),
    }
}

fn json_value(out: &mut Vec<u8>, v: ValueRef<'_>) {
    match v {
        ValueRef::U(x) => put_u64(out, x),
        ValueRef::I(x) => put_i64(out, x),
        ValueRef::F(x) if x.is_finite() => {
            out.extend_from_slice(crate::floattext::debug(x).as_bytes())
        }
        ValueRef::F(x) => json_str(out, &crate::floattext::display(x)),
        ValueRef::Bool(b) => out.extend_from_slice(if b { b"true" } else { b"false" }),
        ValueRef::Str(s) => json_str(out, s),
    }
}

/// Appends `,"<key>":{"start":A,"end":B}` (`key` with its quotes and colon).
#[inline]
fn json_span(out: &mut Vec<u8>, key: &[u8], a: u64, b: u64) {
    out.extend_from_slice(key);
    out.extend_from_slice(b"{\"start\":");
    put_u64(out, a);
    out.extend_from_slice(b",\"end\":");
    put_u64(out, b);
    out.push(b'}');
}

/// `,"kind":"<kind>","start":` for each kind, made once from [`Kind::as_str`]:
/// one copy of a constant a node.
fn kind_key(k: Kind) -> &'static [u8] {
    static KEYS: std::sync::OnceLock<Vec<Box<[u8]>>> = std::sync::OnceLock::new();
    let keys = KEYS.get_or_init(|| {
        (0..=u8::MAX)
            .map_while(Kind::from_code)
            .map(|k| {
                format!(",\"kind\":\"{}\",\"start\":", k.as_str())
                    .into_bytes()
                    .into()
            })
            .collect()
    });
    &keys[k.code() as usize]
}

/// Appends the opening of node `id`'s JSON object: every key before
/// `children` (the caller closes it). `scratch` is room for a rendered display.
pub(crate) fn json_node_open(out: &mut Vec<u8>, scratch: &mut String, tree: &Tree, id: NodeId) {
    let span = tree.span(id);
    out.extend_from_slice(b"{\"name\":");
    json_name(out, tree.name(id));
    out.extend_from_slice(kind_key(tree.kind(id)));
    put_u64(out, span.start_byte());
    out.extend_from_slice(b",\"end\":");
    put_u64(out, span.end_byte());
    if let Some(v) = tree.value_ref(id) {
        out.extend_from_slice(b",\"value\":");
        json_value(out, v);
    }
    scratch.clear();
    if tree.display_into(id, scratch) {
        out.extend_from_slice(b",\"display\":");
        json_str(out, scratch);
    }
    if let Some(e) = tree.error(id) {
        out.extend_from_slice(b",\"error\":");
        json_str(out, e);
    }
    if !span.is_byte_aligned() {
        json_span(out, b",\"bits\":", span.start, span.end);
    }
    if let Some(r) = tree.reference(id) {
        json_span(out, b",\"ref\":", r.start_byte(), r.end_byte());
    }
    if tree.is_damaged(id) {
        out.extend_from_slice(b",\"damaged\":true");
    }
    if tree.is_lazy(id) {
        out.extend_from_slice(b",\"lazy\":true");
    }
    if tree.is_instance(id) {
        out.extend_from_slice(b",\"instance\":true");
    }
    if tree.is_decoded(id) {
        out.extend_from_slice(b",\"in\":\"decoded\"");
    }
}

/// Renders the JSON contract (one line, no trailing newline).
pub fn to_json(d: &Decoded) -> String {
    let tree = &d.tree;
    let mut out = Vec::with_capacity(tree.len() * 96);
    let mut scratch = String::new();
    out.extend_from_slice(b"{\"format\":");
    json_str(&mut out, d.format);
    out.extend_from_slice(b",\"file_size\":");
    put_u64(&mut out, d.file_size);
    out.extend_from_slice(b",\"tree\":");

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
    json_node_open(&mut out, &mut scratch, tree, tree.root());
    while let Some(top) = stack.last_mut() {
        let (id, i) = (top.0, top.1);
        let children = top.2.as_deref().unwrap_or(tree.children(id));
        if i < children.len() {
            top.1 += 1;
            out.extend_from_slice(if i == 0 { b",\"children\":[" } else { b"," });
            let c = children[i];
            json_node_open(&mut out, &mut scratch, tree, c);
            stack.push((c, 0, paged(c)));
        } else {
            if !children.is_empty() {
                out.push(b']');
            }
            out.push(b'}');
            stack.pop();
        }
    }

    out.extend_from_slice(b",\"errors\":[");
    for (k, id) in tree.errors().into_iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        json_error(
            &mut out,
            &tree.path(id),
            tree.span(id),
            tree.error(id).unwrap_or_default(),
        );
    }
    out.extend_from_slice(b"]}");
    into_string(out)
}

/// Appends one entry of the contract's `errors` list.
pub(crate) fn json_error(out: &mut Vec<u8>, path: &str, span: BitSpan, message: &str) {
    out.extend_from_slice(b"{\"path\":");
    json_str(out, path);
    out.extend_from_slice(b",\"start\":");
    put_u64(out, span.start_byte());
    out.extend_from_slice(b",\"end\":");
    put_u64(out, span.end_byte());
    out.extend_from_slice(b",\"message\":");
    json_str(out, message);
    out.push(b'}');
}

/// Appends `,"<key>":N`.
pub(crate) fn json_u64_key(out: &mut Vec<u8>, key: &str, v: u64) {
    out.extend_from_slice(b",\"");
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":");
    put_u64(out, v);
}

/// The JSON text: the writers above append only whole UTF-8 strings and ASCII.
pub(crate) fn into_string(out: Vec<u8>) -> String {
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends a position as the text dump writes it: the byte offset in upper-case
/// hex, zero-padded to `width`, and `.b` for a bit inside the byte.
fn push_pos(out: &mut Vec<u8>, bits: u64, width: usize) {
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
        out.push(b'0');
    }
    out.extend(digits[..n].iter().rev());
    if !bits.is_multiple_of(8) {
        out.push(b'.');
        out.push(b'0' + (bits % 8) as u8);
    }
}

/// Appends `s` as [`one_line`] renders it.
fn push_one_line(out: &mut Vec<u8>, s: &str, max: usize) {
    // Short text without control characters is common: copied as it is.
    if s.len() <= max && !s.chars().any(char::is_control) {
        out.extend_from_slice(s.as_bytes());
    } else {
        out.extend_from_slice(one_line(s, max).as_bytes());
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
    let mut out = Vec::new();
    let _ = writeln!(out, "{} ({} bytes)", d.format, d.file_size);
    let style = TextStyle::default();
    tree.walk(|id, depth| text_node(&mut out, tree, id, depth, width, &style));
    let errs = tree.errors();
    if !errs.is_empty() {
        let _ = writeln!(out, "{} error(s)", errs.len());
    }
    into_string(out)
}

/// Width of the offsets in the text dump of a file of `file_size` bytes.
pub(crate) fn text_width(file_size: u64) -> usize {
    format!("{file_size:X}").len().max(4)
}

/// Text written around one part of a line of the text dump: `before` it and
/// `after` it (for a terminal, an ANSI colour and its reset). Both empty
/// leave the part as it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Paint {
    /// Written before the part.
    pub before: String,
    /// Written after the part.
    pub after: String,
}

impl Paint {
    /// Paint that writes `before` before a part and `after` after it.
    pub fn new(before: impl Into<String>, after: impl Into<String>) -> Self {
        Paint {
            before: before.into(),
            after: after.into(),
        }
    }

    fn open(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.before.as_bytes());
    }

    fn close(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.after.as_bytes());
    }
}

/// How the text dump marks each part of its lines, so a terminal can show them
/// apart: the byte range, the node's name, its value, its display (the text in
/// parentheses), its error line, the whole name of an `unknown` node (bytes no
/// field claims), and the notes in brackets (`[struct]`, `[not decoded yet]`,
/// `[N children not shown]`). [`TextStyle::default`] marks nothing: the plain
/// dump. Only what is painted changes: with every paint removed, a styled dump
/// is the plain dump byte for byte.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextStyle {
    /// The byte range at the start of a line (`0018-001C`).
    pub span: Paint,
    /// A node's name.
    pub name: Paint,
    /// The name of a node of kind `unknown`, in place of [`TextStyle::name`].
    pub unknown: Paint,
    /// A node's value (with its quotes, for text).
    pub value: Paint,
    /// A node's display, inside the parentheses.
    pub display: Paint,
    /// An error: the `! message` line, and the error count at the end.
    pub error: Paint,
    /// The notes in brackets after a node.
    pub note: Paint,
}

/// Appends node `id`'s line of the text dump (and its error line), indented for
/// `depth`, offsets `width` hex digits wide, marked as `style` says.
pub(crate) fn text_node(
    out: &mut Vec<u8>,
    tree: &Tree,
    id: NodeId,
    depth: usize,
    width: usize,
    style: &TextStyle,
) {
    let span = tree.span(id);
    style.span.open(out);
    push_pos(out, span.start, width);
    out.push(b'-');
    push_pos(out, span.end, width);
    style.span.close(out);
    out.push(b' ');
    for _ in 0..depth {
        out.extend_from_slice(b"  ");
    }
    let kind = tree.kind(id);
    let name_paint = if matches!(kind, Kind::Unknown) {
        &style.unknown
    } else {
        &style.name
    };
    name_paint.open(out);
    push_name(out, tree.name(id));
    name_paint.close(out);
    if let Some(v) = tree.value_ref(id) {
        out.extend_from_slice(b": ");
        style.value.open(out);
        match v {
            ValueRef::Str(s) => {
                out.push(b'"');
                push_one_line(out, s, 120);
                out.push(b'"');
            }
            ValueRef::U(v) => put_u64(out, v),
            v => {
                let _ = write!(out, "{}", v.to_owned());
            }
        }
        style.value.close(out);
    }
    if let Some(disp) = tree.display(id) {
        out.extend_from_slice(b" (");
        style.display.open(out);
        push_one_line(out, &disp, 160);
        style.display.close(out);
        out.push(b')');
    }
    let tagged = kind.is_group() || matches!(kind, Kind::Unknown | Kind::Padding | Kind::Bytes);
    let marks: &[u8] = match (tree.is_instance(id), tree.is_decoded(id)) {
        (true, true) => b"[instance] [in decoded bytes]",
        (true, false) => b"[instance]",
        (false, true) => b"[in decoded bytes]",
        (false, false) => b"",
    };
    if tagged || tree.is_lazy(id) || !marks.is_empty() {
        out.push(b' ');
        style.note.open(out);
        if tagged {
            out.push(b'[');
            out.extend_from_slice(kind.as_str().as_bytes());
            out.push(b']');
        }
        if tree.is_lazy(id) {
            if tagged {
                out.push(b' ');
            }
            out.extend_from_slice(b"[not decoded yet]");
        }
        if !marks.is_empty() {
            if tagged || tree.is_lazy(id) {
                out.push(b' ');
            }
            out.extend_from_slice(marks);
        }
        style.note.close(out);
    }
    out.push(b'\n');
    if let Some(e) = tree.error(id) {
        out.resize(out.len() + 2 * width + 2 + 2 * depth, b' ');
        out.extend_from_slice(b"  ");
        style.error.open(out);
        out.extend_from_slice(b"! ");
        push_one_line(out, e, 400);
        style.error.close(out);
        out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::put_u64;

    #[test]
    fn numbers_are_written_as_decimal_text() {
        let mut vals: Vec<u64> = vec![0, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 10_001];
        for k in 0..=19u32 {
            let p = 10u64.pow(k);
            vals.extend([p - 1, p, p + 1, p.saturating_mul(5) - 1]);
        }
        vals.extend([
            99_999_999,
            100_000_000,
            u32::MAX as u64,
            u64::MAX,
            u64::MAX - 1,
        ]);
        // A fixed-seed generator over every digit count.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            vals.push(x >> (x % 64));
        }
        let mut out = b"x".to_vec();
        for v in vals {
            out.truncate(1);
            put_u64(&mut out, v);
            assert_eq!(std::str::from_utf8(&out[1..]).unwrap(), v.to_string());
        }
    }
}
