//! Searching a file's bytes: a query (hex bytes with wildcards, text in UTF-8
//! or UTF-16, a number in the widths and byte orders asked for) becomes a set
//! of needles, each a run of bytes with a mask; [`find`] reports every offset
//! where a needle matches, scanning the file in steps of a bounded size so a
//! viewer can show progress and stop between them. The file is read a chunk
//! at a time, never whole; a match may cross any chunk or page boundary.

use crate::source::ByteSource;

/// What the query's text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Hex byte values: `DE AD BE EF`, `DEADBEEF`, `??` for any byte and `?`
    /// for any nibble (`D?`).
    Hex,
    /// Text, searched as UTF-8 (and ASCII), and as UTF-16 when asked.
    Text,
    /// A number: an integer (decimal, or hex after `0x`, negative allowed) or
    /// a floating-point value.
    Number,
    /// The structure, not the bytes: nodes whose name, value or display holds
    /// the text, or whose path a pattern matches (see [`find_nodes`]).
    Structure,
}

impl Mode {
    /// The mode called `name` (`hex`, `text`, `number`).
    pub fn from_name(name: &str) -> Option<Mode> {
        match name {
            "hex" => Some(Mode::Hex),
            "text" => Some(Mode::Text),
            "number" => Some(Mode::Number),
            "structure" => Some(Mode::Structure),
            _ => None,
        }
    }

    /// Its name, as [`Mode::from_name`] takes it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Hex => "hex",
            Mode::Text => "text",
            Mode::Number => "number",
            Mode::Structure => "structure",
        }
    }
}

/// How a number is laid out in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NumberType {
    /// Every integer width (1, 2, 4, 8 bytes) that can hold the value, signed
    /// or unsigned as the value needs.
    AnyInt,
    /// An unsigned integer of this many bytes.
    U(u8),
    /// A two's-complement integer of this many bytes.
    I(u8),
    /// IEEE 754 single precision.
    F32,
    /// IEEE 754 double precision.
    F64,
}

impl NumberType {
    /// The type called `name`: `int`, `u8`…`u64`, `i8`…`i64`, `f32`, `f64`.
    pub fn from_name(name: &str) -> Option<NumberType> {
        Some(match name {
            "int" => NumberType::AnyInt,
            "u8" => NumberType::U(1),
            "u16" => NumberType::U(2),
            "u32" => NumberType::U(4),
            "u64" => NumberType::U(8),
            "i8" => NumberType::I(1),
            "i16" => NumberType::I(2),
            "i32" => NumberType::I(4),
            "i64" => NumberType::I(8),
            "f32" => NumberType::F32,
            "f64" => NumberType::F64,
            _ => return None,
        })
    }

    /// Its name, as [`NumberType::from_name`] takes it.
    pub fn name(self) -> &'static str {
        match self {
            NumberType::AnyInt => "int",
            NumberType::U(1) => "u8",
            NumberType::U(2) => "u16",
            NumberType::U(4) => "u32",
            NumberType::U(_) => "u64",
            NumberType::I(1) => "i8",
            NumberType::I(2) => "i16",
            NumberType::I(4) => "i32",
            NumberType::I(_) => "i64",
            NumberType::F32 => "f32",
            NumberType::F64 => "f64",
        }
    }
}

/// Byte orders a number is searched in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    Little,
    Big,
    Both,
}

impl Order {
    /// The order called `name`: `le`, `be`, `both`.
    pub fn from_name(name: &str) -> Option<Order> {
        match name {
            "le" => Some(Order::Little),
            "be" => Some(Order::Big),
            "both" => Some(Order::Both),
            _ => None,
        }
    }

    /// Its name, as [`Order::from_name`] takes it.
    pub fn name(self) -> &'static str {
        match self {
            Order::Little => "le",
            Order::Big => "be",
            Order::Both => "both",
        }
    }
}

/// A query as the user gives it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Query {
    pub mode: Mode,
    pub text: String,
    /// Text: ASCII letters match in either case.
    pub ignore_case: bool,
    /// Text: also search the UTF-16LE and UTF-16BE encodings.
    pub utf16: bool,
    /// Number: its type.
    pub number: NumberType,
    /// Number: its byte orders.
    pub order: Order,
    /// Number, as f32 or f64: the value already parsed by the caller (the bits
    /// of an `f64`). Without it the text is parsed here, natively only: a web
    /// build parses floats with the browser's own `Number()` (its module then
    /// carries no float parser, about 10 KB of tables).
    pub float_bits: Option<u64>,
}

impl Query {
    /// A query of `mode` for `text`, with the defaults: case matters, UTF-8
    /// only, any integer width, both byte orders.
    pub fn new(mode: Mode, text: &str) -> Query {
        Query {
            mode,
            text: text.to_string(),
            ignore_case: false,
            utf16: false,
            number: NumberType::AnyInt,
            order: Order::Both,
            float_bits: None,
        }
    }
}

/// One byte string to find: `bytes[i]` must equal the file's byte under
/// `mask[i]` (0xFF: exactly; 0: any byte; 0xDF: an ASCII letter in either case;
/// 0xF0 / 0x0F: one nibble).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Needle {
    pub bytes: Vec<u8>,
    pub mask: Vec<u8>,
    /// What this needle is (`u32 LE`, `UTF-16BE`), for the hit list.
    pub what: String,
}

impl Needle {
    fn exact(bytes: Vec<u8>, what: impl Into<String>) -> Needle {
        let mask = vec![0xFF; bytes.len()];
        Needle {
            bytes,
            mask,
            what: what.into(),
        }
    }

    /// True if the needle matches `hay` at its start (`hay` holds at least the
    /// needle's length).
    fn matches(&self, hay: &[u8]) -> bool {
        self.bytes
            .iter()
            .zip(&self.mask)
            .zip(hay)
            .all(|((&b, &m), &h)| h & m == b & m)
    }

    /// The byte to look for first: an exact one (rarest by a rough English and
    /// binary frequency guess), else a letter in either case.
    fn anchor(&self) -> Anchor {
        let common = |b: u8| -> u32 {
            match b {
                0x00 => 100,
                0xFF => 60,
                b' ' | b'e' | b't' | b'a' | b'o' | 0x01 => 40,
                b'a'..=b'z' => 20,
                _ => 0,
            }
        };
        let exact = (0..self.bytes.len())
            .filter(|&i| self.mask[i] == 0xFF)
            .min_by_key(|&i| common(self.bytes[i]));
        if let Some(i) = exact {
            return Anchor::Byte(i, self.bytes[i]);
        }
        match (0..self.bytes.len()).find(|&i| self.mask[i] == 0xDF) {
            Some(i) => {
                let up = self.bytes[i] & 0xDF;
                Anchor::Either(i, up, up | 0x20)
            }
            None => Anchor::None,
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Anchor {
    /// The needle's byte `.0` is exactly `.1`.
    Byte(usize, u8),
    /// The needle's byte `.0` is one of two.
    Either(usize, u8, u8),
    /// No byte is exact: every offset is a candidate.
    None,
}

/// The longest needle a query may give (bytes).
pub const MAX_NEEDLE: usize = 4096;

/// The needles of `q`, or why it cannot be searched.
pub fn needles(q: &Query) -> Result<Vec<Needle>, String> {
    let out = match q.mode {
        Mode::Hex => vec![hex_needle(&q.text)?],
        Mode::Text => text_needles(q)?,
        Mode::Number => number_needles(q)?,
        Mode::Structure => return Err("a structure query has no bytes to match".into()),
    };
    if let Some(n) = out.iter().find(|n| n.bytes.len() > MAX_NEEDLE) {
        return Err(format!(
            "{} bytes to match: at most {MAX_NEEDLE} can be searched",
            n.bytes.len()
        ));
    }
    Ok(out)
}

fn hex_needle(text: &str) -> Result<Needle, String> {
    // Hex digits (`None`: a `?`), two a byte. A lone digit before a separator or
    // the end is a byte of its own (`A 0B`: 0A 0B), and a lone `?` a whole byte.
    let mut digits: Vec<Option<u8>> = Vec::new();
    let close_byte = |digits: &mut Vec<Option<u8>>| {
        if digits.len() % 2 == 1 {
            let last = digits.pop().flatten();
            digits.push(last.map(|_| 0));
            digits.push(last);
        }
    };
    for (i, c) in text.char_indices() {
        match c {
            '0'..='9' | 'a'..='f' | 'A'..='F' => digits.push(c.to_digit(16).map(|d| d as u8)),
            '?' => digits.push(None),
            ' ' | ',' | '\t' | '\n' | '\r' => close_byte(&mut digits),
            _ => return Err(format!("'{c}' at {i} is not a hex digit, '?' or a space")),
        }
    }
    close_byte(&mut digits);
    if digits.is_empty() {
        return Err("no bytes to search for".into());
    }
    let mut bytes = Vec::with_capacity(digits.len() / 2);
    let mut mask = Vec::with_capacity(digits.len() / 2);
    for pair in digits.chunks(2) {
        let (hi, hm) = pair[0].map_or((0, 0), |d| (d << 4, 0xF0));
        let (lo, lm) = pair[1].map_or((0, 0), |d| (d, 0x0F));
        bytes.push(hi | lo);
        mask.push(hm | lm);
    }
    if mask.iter().all(|&m| m == 0) {
        return Err("only wildcards: every offset would match".into());
    }
    Ok(Needle {
        bytes,
        mask,
        what: "bytes".into(),
    })
}

fn text_needles(q: &Query) -> Result<Vec<Needle>, String> {
    if q.text.is_empty() {
        return Err("no text to search for".into());
    }
    let fold = |bytes: Vec<u8>, what: &str| {
        let mask = bytes
            .iter()
            .map(|b| {
                if q.ignore_case && b.is_ascii_alphabetic() {
                    0xDF
                } else {
                    0xFF
                }
            })
            .collect();
        Needle {
            bytes,
            mask,
            what: what.into(),
        }
    };
    let mut out = vec![fold(q.text.as_bytes().to_vec(), "UTF-8")];
    if q.utf16 {
        let units: Vec<u16> = q.text.encode_utf16().collect();
        let le = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        let be = units.iter().flat_map(|u| u.to_be_bytes()).collect();
        out.push(fold(le, "UTF-16LE"));
        out.push(fold(be, "UTF-16BE"));
    }
    Ok(out)
}

/// An integer as written: decimal or `0x` hex, with an optional sign.
fn parse_int(t: &str) -> Option<i128> {
    let t = t.trim().replace('_', "");
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b.to_string()),
        None => (false, t.strip_prefix('+').unwrap_or(&t).to_string()),
    };
    let v = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(h) => i128::from_str_radix(h, 16).ok()?,
        None => body.parse::<i128>().ok()?,
    };
    Some(if neg { -v } else { v })
}

#[cfg(not(target_arch = "wasm32"))]
fn parse_float(t: &str) -> Option<f64> {
    t.parse().ok()
}

/// See [`Query::float_bits`].
#[cfg(target_arch = "wasm32")]
fn parse_float(_: &str) -> Option<f64> {
    None
}

fn number_needles(q: &Query) -> Result<Vec<Needle>, String> {
    let text = q.text.trim();
    if text.is_empty() {
        return Err("no number to search for".into());
    }
    let mut raw: Vec<(Vec<u8>, String)> = Vec::new();
    match q.number {
        NumberType::F32 | NumberType::F64 => {
            let v = q
                .float_bits
                .map(f64::from_bits)
                .or_else(|| parse_float(text))
                .ok_or_else(|| format!("'{text}' is not a number"))?;
            if q.number == NumberType::F32 {
                let f = v as f32;
                if f.is_infinite() && v.is_finite() {
                    return Err(format!("{text} is too big for an f32"));
                }
                raw.push((f.to_le_bytes().to_vec(), "f32".into()));
            } else {
                raw.push((v.to_le_bytes().to_vec(), "f64".into()));
            }
        }
        NumberType::AnyInt | NumberType::U(_) | NumberType::I(_) => {
            let v = parse_int(text)
                .ok_or_else(|| format!("'{text}' is not an integer (decimal, or hex after 0x)"))?;
            let any = q.number == NumberType::AnyInt;
            // (width, signed) pairs to write the integer in.
            let widths: &[(u8, bool)] = match q.number {
                NumberType::U(w) => &[(w, false)],
                NumberType::I(w) => &[(w, true)],
                _ => &[(1, false), (2, false), (4, false), (8, false)],
            };
            for &(w, signed) in widths {
                let bits = u32::from(w) * 8;
                let (min, max): (i128, i128) = if signed {
                    (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
                } else if any {
                    // Any width: a negative value is searched as two's complement.
                    (-(1i128 << (bits - 1)), (1i128 << bits) - 1)
                } else {
                    (0, (1i128 << bits) - 1)
                };
                if v < min || v > max {
                    if !any {
                        return Err(format!(
                            "{text} does not fit in {}{bits}",
                            if signed { "i" } else { "u" }
                        ));
                    }
                    continue;
                }
                let bytes = (v as u128).to_le_bytes()[..usize::from(w)].to_vec();
                let name = format!("{}{bits}", if signed || v < 0 { "i" } else { "u" });
                raw.push((bytes, name));
            }
        }
    }
    let mut out: Vec<Needle> = Vec::new();
    for (le, name) in raw {
        if le.len() == 1 {
            out.push(Needle::exact(le, name));
            continue;
        }
        let be: Vec<u8> = le.iter().rev().copied().collect();
        // Bytes that read the same in both orders (0, a palindrome) are searched once.
        let be_too = q.order == Order::Big || (q.order == Order::Both && be != le);
        if q.order != Order::Big {
            out.push(Needle::exact(le, format!("{name} LE")));
        }
        if be_too {
            out.push(Needle::exact(be, format!("{name} BE")));
        }
    }
    if out.is_empty() {
        return Err(format!("{text} does not fit in 64 bits"));
    }
    Ok(out)
}

/// A match: where it starts, how long it is, and which needle matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hit {
    pub start: u64,
    pub len: u32,
    pub needle: u16,
}

/// What one step of a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Matches starting in the bytes searched, by start: one per offset (the
    /// longest needle matching there, the first of those given).
    pub hits: Vec<Hit>,
    /// Every match starting before this offset has been reported: search on from
    /// here (the file's length when done).
    pub reached: u64,
}

/// Bytes searched at once: one piece of a big read (see
/// [`crate::pages::PIECE`]), which goes past the page cache.
pub const CHUNK: usize = crate::pages::PIECE as usize;

/// Finds the matches of `needles` that start in `[from, to)` (`to` clipped to
/// the file), reading the file a chunk at a time (bytes past `to` are read as
/// far as a match starting before it needs). Stops early after `max_hits`
/// matches (at least one); `reached` says where to go on.
pub fn find(
    src: &dyn ByteSource,
    needles: &[Needle],
    from: u64,
    to: u64,
    max_hits: usize,
) -> Found {
    find_in_chunks(src, needles, from, to, max_hits, CHUNK)
}

fn find_in_chunks(
    src: &dyn ByteSource,
    needles: &[Needle],
    from: u64,
    to: u64,
    max_hits: usize,
    chunk: usize,
) -> Found {
    let len = src.len();
    let to = to.min(len);
    // At least one match a step, so a search always goes on.
    let max_hits = max_hits.max(1);
    let longest = needles.iter().map(|n| n.bytes.len()).max().unwrap_or(0);
    let mut found = Found {
        hits: Vec::new(),
        reached: to.max(from),
    };
    if longest == 0 || from >= to {
        return found;
    }
    let anchors: Vec<Anchor> = needles.iter().map(Needle::anchor).collect();
    let mut buf = vec![0u8; chunk + longest - 1];
    let mut at = from;
    while at < to {
        // Starts searched in this chunk: [at, at + n).
        let n = ((to - at) as usize).min(chunk);
        let want = (n + longest - 1).min((len - at) as usize);
        let got = src.read_at(at, &mut buf[..want]);
        let hay = &buf[..got];
        let mut chunk_hits: Vec<Hit> = Vec::new();
        for (k, (needle, anchor)) in needles.iter().zip(&anchors).enumerate() {
            scan(hay, n, needle, *anchor, |i| {
                chunk_hits.push(Hit {
                    start: at + i as u64,
                    len: needle.bytes.len() as u32,
                    needle: k as u16,
                })
            });
        }
        // One match per offset: the longest needle that matches there (an
        // integer searched in every width reports its widest form once).
        chunk_hits.sort_unstable_by_key(|h| (h.start, std::cmp::Reverse(h.len), h.needle));
        chunk_hits.dedup_by_key(|h| h.start);
        if found.hits.len() + chunk_hits.len() >= max_hits {
            // Full: go on from the first match not reported (each offset has
            // one match, so none is reported twice).
            let room = max_hits - found.hits.len();
            found.reached = chunk_hits.get(room).map_or(at + n as u64, |h| h.start);
            chunk_hits.truncate(room);
            found.hits.extend(chunk_hits);
            return found;
        }
        found.hits.extend(chunk_hits);
        if got < want {
            // The file ended early (it shrank, or the source failed).
            found.reached = to;
            return found;
        }
        at += n as u64;
    }
    found.reached = to;
    found
}

/// Calls `hit(i)` for every `i < starts` where `needle` matches `hay[i..]`.
fn scan(hay: &[u8], starts: usize, needle: &Needle, anchor: Anchor, mut hit: impl FnMut(usize)) {
    let m = needle.bytes.len();
    if hay.len() < m || starts == 0 {
        return;
    }
    let last = (hay.len() - m).min(starts - 1);
    let fits = |i: usize| i <= last && needle.matches(&hay[i..i + m]);
    // Candidates: where the anchor byte (`k` bytes after a start) is found.
    let mut by_anchor = |k: usize, next: &dyn Fn(&[u8]) -> Option<usize>| {
        let mut i = 0usize;
        while let Some(p) = next(&hay[k + i..=k + last]) {
            let s = i + p;
            if fits(s) {
                hit(s);
            }
            i = s + 1;
            if i > last {
                break;
            }
        }
    };
    match anchor {
        Anchor::Byte(k, b) => by_anchor(k, &|h| memchr::memchr(b, h)),
        Anchor::Either(k, a, b) => by_anchor(k, &|h| memchr::memchr2(a, b, h)),
        Anchor::None => {
            for s in 0..=last {
                if fits(s) {
                    hit(s);
                }
            }
        }
    }
}

/// A node the structure search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeHit {
    /// Its path, as the JSON contract writes paths.
    pub path: String,
    /// Its bytes.
    pub start: u64,
    pub end: u64,
    /// What matched: `name`, `value` (its value or display) or `path`.
    pub what: &'static str,
}

/// How a structure query matches a node.
enum NodeQuery {
    /// A path pattern (the query holds a `/`): segments compared one to one,
    /// `*` standing for any one segment, ASCII case ignored.
    Path(Vec<String>),
    /// Text found, ASCII case ignored, in the node's name, else in its value
    /// and display.
    Text(String),
}

impl NodeQuery {
    fn new(q: &str) -> NodeQuery {
        let q = q.trim();
        if q.contains('/') {
            NodeQuery::Path(
                q.trim_matches('/')
                    .split('/')
                    .map(str::to_ascii_lowercase)
                    .collect(),
            )
        } else {
            NodeQuery::Text(q.to_ascii_lowercase())
        }
    }

    /// Whether node `id`, `depth` levels below the root (pages not counted),
    /// matches: what matched, and the node's path.
    fn test(
        &self,
        tree: &crate::Tree,
        id: crate::NodeId,
        depth: usize,
    ) -> Option<(&'static str, String)> {
        match self {
            NodeQuery::Path(segs) => {
                // A path has one segment a level: only nodes at the pattern's
                // depth can match, and only their path is made.
                if depth != segs.len() {
                    return None;
                }
                let path = tree.path(id);
                path.split('/')
                    .zip(segs)
                    .all(|(p, s)| s == "*" || p.eq_ignore_ascii_case(s))
                    .then_some(("path", path))
            }
            NodeQuery::Text(t) => {
                if t.is_empty() {
                    return None;
                }
                let has = |x: &str| x.to_ascii_lowercase().contains(t.as_str());
                let what = if has(&tree.name_owned(id).to_string()) {
                    "name"
                } else {
                    let value = tree
                        .value(id)
                        .map(|v| crate::clip::value(&v, None, crate::clip::ROW));
                    let shown = tree.display(id);
                    if !(value.as_deref().is_some_and(has) || shown.as_deref().is_some_and(has)) {
                        return None;
                    }
                    "value"
                };
                Some((what, tree.path(id)))
            }
        }
    }
}

/// Searches the structure of `src` for `query` (see [`NodeQuery`]): the whole
/// tree, decoding each part as the walk reaches it and dropping it after (see
/// [`crate::stream::walk`]), so memory does not grow with the file. At most
/// `max` hits, in tree order; pages are looked through. With `scan`, the file
/// is scanned for containers whatever it is ([`crate::Options::scan`]).
/// `progress` hears, now and then, where in the file the walk is (the first
/// byte of the node it has reached).
pub fn find_nodes(
    src: &dyn ByteSource,
    query: &str,
    max: usize,
    scan: bool,
    progress: &mut dyn FnMut(u64),
) -> Vec<NodeHit> {
    find_nodes_as(src, None, query, max, scan, progress)
}

/// [`find_nodes`] in the tree `format` decodes (a `.ksy` format, say), or
/// the one the file's own format gives when `None`.
pub fn find_nodes_as(
    src: &dyn ByteSource,
    format: Option<&'static crate::Format>,
    query: &str,
    max: usize,
    scan: bool,
    progress: &mut dyn FnMut(u64),
) -> Vec<NodeHit> {
    struct V<'p> {
        q: NodeQuery,
        hits: Vec<NodeHit>,
        max: usize,
        seen: u32,
        progress: &'p mut dyn FnMut(u64),
    }
    impl crate::stream::Visitor for V<'_> {
        fn enter(
            &mut self,
            tree: &crate::Tree,
            id: crate::NodeId,
            depth: usize,
            _hidden: usize,
        ) -> std::io::Result<()> {
            self.seen = self.seen.wrapping_add(1);
            if self.seen.is_multiple_of(4096) {
                (self.progress)(tree.span(id).start_byte());
            }
            if let Some((what, path)) = self.q.test(tree, id, depth) {
                let span = tree.span(id);
                self.hits.push(NodeHit {
                    path,
                    start: span.start_byte(),
                    end: span.end_byte(),
                    what,
                });
                if self.hits.len() >= self.max {
                    return Err(std::io::Error::other("enough hits"));
                }
            }
            Ok(())
        }
        fn leave(&mut self, _: &crate::Tree, _: crate::NodeId, _: usize) -> std::io::Result<()> {
            Ok(())
        }
    }
    let opts = crate::Options {
        scan,
        ..crate::stream::streaming_options()
    };
    let mut d = crate::decode_as_or_with(format, src, &opts);
    let mut v = V {
        q: NodeQuery::new(query),
        hits: Vec::new(),
        max: max.max(1),
        seen: 0,
        progress,
    };
    let root = d.tree.root();
    // A path pattern names nodes at one depth: nothing below it is decoded.
    let limits = crate::stream::Limits {
        max_depth: match &v.q {
            NodeQuery::Path(segs) => Some(segs.len()),
            NodeQuery::Text(_) => None,
        },
        ..Default::default()
    };
    let _ = crate::stream::walk(src, &mut d.tree, root, limits, &mut v);
    v.hits
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every match by the definition: each start, the longest needle that
    /// matches there byte by byte (the first of those).
    fn reference(data: &[u8], needles: &[Needle]) -> Vec<Hit> {
        let mut out: Vec<Hit> = Vec::new();
        for s in 0..data.len() {
            let mut best: Option<Hit> = None;
            for (k, n) in needles.iter().enumerate() {
                let m = n.bytes.len();
                if s + m <= data.len()
                    && (0..m).all(|i| data[s + i] & n.mask[i] == n.bytes[i] & n.mask[i])
                    && best.is_none_or(|b| (m as u32) > b.len)
                {
                    best = Some(Hit {
                        start: s as u64,
                        len: m as u32,
                        needle: k as u16,
                    });
                }
            }
            out.extend(best);
        }
        out
    }

    /// A small deterministic generator (xorshift).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn all(data: &[u8], needles: &[Needle], step: u64) -> Vec<Hit> {
        all_in(data, needles, step, CHUNK)
    }

    fn all_in(data: &[u8], needles: &[Needle], step: u64, chunk: usize) -> Vec<Hit> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < data.len() as u64 {
            let f = find_in_chunks(&data, needles, at, at + step, usize::MAX, chunk);
            assert!(f.reached > at);
            out.extend(f.hits);
            at = f.reached;
        }
        out
    }

    #[test]
    fn random_patterns_find_what_the_reference_finds_across_chunk_and_step_boundaries() {
        let mut r = Rng(0x9E37_79B9_7F4A_7C15);
        for round in 0..40 {
            // Few distinct byte values, so matches are many; chunks of 64 KiB
            // (the page size) and odd sizes, files of a few of them.
            let chunk = [65536usize, 4099, 65535][round % 3];
            let size = 3 * chunk + r.below(3 * 65536) as usize;
            let alphabet = 2 + r.below(6) as u8;
            let data: Vec<u8> = (0..size)
                .map(|_| b'a' + (r.below(u64::from(alphabet)) as u8))
                .collect();
            let mut needles = Vec::new();
            for _ in 0..1 + r.below(3) {
                let m = 1 + r.below(12) as usize;
                let at = r.below((size - m) as u64) as usize;
                let bytes = data[at..at + m].to_vec();
                let mask = (0..m)
                    .map(|_| match r.below(6) {
                        0 => 0,
                        1 => 0xDF,
                        2 => 0xF0,
                        _ => 0xFF,
                    })
                    .collect::<Vec<u8>>();
                if mask.iter().all(|&x| x == 0) {
                    continue;
                }
                needles.push(Needle {
                    bytes,
                    mask,
                    what: String::new(),
                });
            }
            let want = reference(&data, &needles);
            let mut want_sorted = want.clone();
            want_sorted.sort_unstable();
            // Steps that end inside a chunk, at page boundaries and past the end.
            let step = [65536u64, 100_003, 7, 1 << 30][round % 4];
            assert_eq!(
                all_in(&data, &needles, step, chunk),
                want_sorted,
                "round {round}"
            );
        }
    }

    #[test]
    fn a_match_across_a_chunk_boundary_is_found_once() {
        let mut data = vec![0u8; 3 * CHUNK];
        data[CHUNK - 2..CHUNK + 2].copy_from_slice(&[0xDE, 0xAD, 0xBE, 0xEF]);
        data[2 * CHUNK - 1..2 * CHUNK + 3].copy_from_slice(&[0xDE, 0xAD, 0xBE, 0xEF]);
        let n = needles(&Query::new(Mode::Hex, "DE AD BE EF")).unwrap();
        let hits: Vec<u64> = all(&data, &n, 65536).iter().map(|h| h.start).collect();
        assert_eq!(hits, vec![CHUNK as u64 - 2, 2 * CHUNK as u64 - 1]);
    }

    #[test]
    fn hex_queries_take_wildcards_nibbles_and_loose_spacing() {
        let n = &needles(&Query::new(Mode::Hex, "DE ?? be EF")).unwrap()[0];
        assert_eq!(n.bytes, [0xDE, 0, 0xBE, 0xEF]);
        assert_eq!(n.mask, [0xFF, 0, 0xFF, 0xFF]);
        let n = &needles(&Query::new(Mode::Hex, "DEADbeef")).unwrap()[0];
        assert_eq!(n.bytes, [0xDE, 0xAD, 0xBE, 0xEF]);
        let n = &needles(&Query::new(Mode::Hex, "D? A 0B")).unwrap()[0];
        assert_eq!(n.bytes, [0xD0, 0x0A, 0x0B]);
        assert_eq!(n.mask, [0xF0, 0xFF, 0xFF]);
        assert!(needles(&Query::new(Mode::Hex, "?? ??")).is_err());
        assert!(needles(&Query::new(Mode::Hex, "XY")).is_err());
        assert!(needles(&Query::new(Mode::Hex, "")).is_err());
    }

    #[test]
    fn text_is_searched_in_utf8_and_utf16_and_either_case() {
        let mut q = Query::new(Mode::Text, "Ab1");
        q.utf16 = true;
        q.ignore_case = true;
        let n = needles(&q).unwrap();
        assert_eq!(n.len(), 3);
        let data = b"xaB1x\x00A\x00b\x001\x00\x00a\x00B\x001";
        let got: Vec<(u64, u16)> = all(data, &n, 1 << 20)
            .iter()
            .map(|h| (h.start, h.needle))
            .collect();
        // Needles: 0 UTF-8, 1 UTF-16LE, 2 UTF-16BE.
        assert_eq!(got, [(1, 0), (5, 2), (6, 1), (12, 2)]);
        // An integer in every width: one match per offset, the widest.
        let n = needles(&Query::new(Mode::Number, "1")).unwrap();
        let data = [1u8, 0, 0, 0, 7, 1, 7];
        let got: Vec<(u64, &str)> = all(&data, &n, 64)
            .iter()
            .map(|h| (h.start, n[h.needle as usize].what.as_str()))
            .collect();
        assert_eq!(got, [(0, "u32 LE"), (5, "u8")]);
        // Letters only fold: '[' is not '{'.
        let mut q = Query::new(Mode::Text, "a[");
        q.ignore_case = true;
        let n = needles(&q).unwrap();
        assert_eq!(all(b"A[ a{", &n, 64).len(), 1);
    }

    #[test]
    fn an_integer_is_searched_in_every_width_and_order_that_holds_it() {
        let whats = |q: &Query| -> Vec<String> {
            needles(q).unwrap().into_iter().map(|n| n.what).collect()
        };
        let q = Query::new(Mode::Number, "258");
        assert_eq!(
            whats(&q),
            ["u16 LE", "u16 BE", "u32 LE", "u32 BE", "u64 LE", "u64 BE"]
        );
        let q = Query::new(Mode::Number, "-2");
        assert_eq!(whats(&q)[0], "i8");
        assert_eq!(needles(&q).unwrap()[0].bytes, [0xFE]);
        let mut q = Query::new(Mode::Number, "0x1234");
        q.number = NumberType::U(4);
        q.order = Order::Big;
        assert_eq!(needles(&q).unwrap()[0].bytes, [0, 0, 0x12, 0x34]);
        q.number = NumberType::U(1);
        assert!(needles(&q).is_err(), "0x1234 does not fit a byte");
        let mut q = Query::new(Mode::Number, "1.5");
        q.number = NumberType::F32;
        q.order = Order::Little;
        assert_eq!(needles(&q).unwrap()[0].bytes, 1.5f32.to_le_bytes());
        q.number = NumberType::F64;
        q.order = Order::Both;
        let n = needles(&q).unwrap();
        assert_eq!(n.len(), 2);
        assert_eq!(n[1].bytes, 1.5f64.to_be_bytes());
        // A value the caller parsed wins over the text.
        q.float_bits = Some(2.25f64.to_bits());
        assert_eq!(needles(&q).unwrap()[0].bytes, 2.25f64.to_le_bytes());
        assert!(needles(&Query::new(Mode::Number, "12abc")).is_err());
        assert!(needles(&Query::new(Mode::Number, "99999999999999999999999")).is_err());
    }

    #[test]
    fn a_search_stops_at_the_hit_limit_and_goes_on_from_there() {
        let data = vec![7u8; 1000];
        let n = needles(&Query::new(Mode::Hex, "07 07")).unwrap();
        let f = find(&data.as_slice(), &n, 0, 1000, 10);
        assert_eq!(f.hits.len(), 10);
        assert_eq!(f.reached, 10);
        let g = find(&data.as_slice(), &n, f.reached, 1000, usize::MAX);
        assert_eq!(g.hits.len(), 999 - 10);
        assert_eq!(g.reached, 1000);
    }

    #[test]
    fn short_and_empty_files_and_steps_past_the_end_find_nothing_and_end() {
        let n = needles(&Query::new(Mode::Hex, "01 02 03")).unwrap();
        for data in [&b""[..], &b"\x01\x02"[..]] {
            let f = find(&data, &n, 0, u64::MAX, 10);
            assert!(f.hits.is_empty());
            assert_eq!(f.reached, data.len() as u64);
        }
        let data = b"\x01\x02\x03";
        let f = find(&&data[..], &n, 7, 100, 10);
        assert!(f.hits.is_empty());
        assert!(f.reached >= 3);
        // A needle longer than MAX_NEEDLE is refused.
        let long = "AB ".repeat(MAX_NEEDLE + 1);
        assert!(needles(&Query::new(Mode::Hex, &long)).is_err());
    }

    /// The nodes of the eager tree that the query finds, by the same rule.
    fn eager_hits(data: &[u8], query: &str) -> Vec<NodeHit> {
        let d = crate::decode(&data);
        let q = NodeQuery::new(query);
        let mut out = Vec::new();
        d.tree.walk(|id, depth| {
            // Pages are a way of browsing; the eager tree has none.
            if let Some((what, path)) = q.test(&d.tree, id, depth) {
                let s = d.tree.span(id);
                out.push(NodeHit {
                    path,
                    start: s.start_byte(),
                    end: s.end_byte(),
                    what,
                });
            }
        });
        out
    }

    fn sample(name: &str) -> Vec<u8> {
        std::fs::read(format!(
            "{}/../../static/samples/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    #[test]
    fn structure_search_walking_parts_on_demand_finds_what_the_eager_tree_holds() {
        for (file, queries) in [
            (
                "hs_mismatch_2_code_dxil.dxil.dxbc",
                &[
                    "systemvalue",
                    "SV_POSITION",
                    "Parts/*/PSVInfo",
                    "parts/*/name",
                    "FUNCTION_BLOCK",
                ][..],
            ),
            (
                "writer_le.dyno",
                &["symboltable", "Modules/*/Uast", "shapes"][..],
            ),
            ("x86_64-linux.o", &["typesstart", "name"][..]),
            ("rev5_llvm14.bc", &["module", "Module/*"][..]),
        ] {
            let data = sample(file);
            for q in queries {
                let got = find_nodes(&data.as_slice(), q, usize::MAX, false, &mut |_| {});
                let want = eager_hits(&data, q);
                assert!(!want.is_empty(), "{file}: '{q}' finds nothing to compare");
                assert_eq!(got, want, "{file}: '{q}'");
            }
        }
    }

    #[test]
    fn structure_search_stops_at_its_limit() {
        let data = sample("hs_mismatch_2_code_dxil.dxil.dxbc");
        let all = find_nodes(&data.as_slice(), "a", usize::MAX, false, &mut |_| {});
        assert!(all.len() > 10);
        assert_eq!(
            find_nodes(&data.as_slice(), "a", 10, false, &mut |_| {}),
            all[..10].to_vec()
        );
        assert!(find_nodes(&data.as_slice(), "", 10, false, &mut |_| {}).is_empty());
    }
}
