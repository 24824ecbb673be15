//! The whole file at a glance: what the viewer's minimap, byte statistics
//! and field table show.
//!
//! - [`Counts`]: a byte histogram, with its Shannon entropy and the counts of
//!   zero, printable and high bytes; [`StatsScan`] fills one for a range of
//!   the file a step at a time (a worker answers the page between steps).
//! - [`MapScan`]: the minimap's cells, a fixed number of them whatever the
//!   file's size (cell `i` covers [`cell_range`]): first a coarse pass (a
//!   sample of each cell, a few MiB read for any file), then a full one, a
//!   step at a time.
//! - [`parts`] and [`owners`]: the nodes of the top levels the viewer gives
//!   colours to, and which of them holds most of each cell's bytes.
//! - [`Table`]: the flat table of a node's children (or all its
//!   descendants), decoding the lazy groups under it a step at a time,
//!   sorted by a column and filtered by a text.

use crate::clip;
use crate::source::ByteSource;
use crate::tree::{Kind, NodeId, Tree, Value};
use std::cmp::Ordering;

/// True for the bytes the viewer counts as printable text: ASCII graphics,
/// the blank, tab, line feed and carriage return.
pub fn is_text(b: u8) -> bool {
    matches!(b, 0x20..=0x7E | b'\t' | b'\n' | b'\r')
}

/// How many times each byte value occurs.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Counts(pub [u64; 256]);

impl Default for Counts {
    fn default() -> Self {
        Counts([0; 256])
    }
}

impl Counts {
    /// Counts `bytes` in.
    pub fn add(&mut self, bytes: &[u8]) {
        // Four tables, so neighbouring equal bytes do not wait on each other.
        let mut t = [[0u32; 256]; 4];
        for piece in bytes.chunks(1 << 30) {
            let mut q = piece.chunks_exact(4);
            for c in &mut q {
                t[0][c[0] as usize] += 1;
                t[1][c[1] as usize] += 1;
                t[2][c[2] as usize] += 1;
                t[3][c[3] as usize] += 1;
            }
            for &b in q.remainder() {
                t[0][b as usize] += 1;
            }
            for (i, n) in self.0.iter_mut().enumerate() {
                *n += u64::from(t[0][i])
                    + u64::from(t[1][i])
                    + u64::from(t[2][i])
                    + u64::from(t[3][i]);
            }
            t = [[0u32; 256]; 4];
        }
    }

    /// Bytes counted.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Shannon entropy in bits per byte (0 to 8; 0 for no bytes).
    pub fn entropy(&self) -> f64 {
        let total = self.total();
        if total == 0 {
            return 0.0;
        }
        let t = total as f64;
        let h: f64 = self
            .0
            .iter()
            .filter(|&&n| n > 0)
            .map(|&n| {
                let p = n as f64 / t;
                -p * p.log2()
            })
            .sum();
        h.max(0.0)
    }

    /// Zero bytes.
    pub fn zeros(&self) -> u64 {
        self.0[0]
    }

    /// Printable bytes ([`is_text`]).
    pub fn text(&self) -> u64 {
        (0..=255u8)
            .filter(|&b| is_text(b))
            .map(|b| self.0[b as usize])
            .sum()
    }

    /// Bytes 0x80 and above.
    pub fn high(&self) -> u64 {
        self.0[0x80..].iter().sum()
    }
}

/// What the minimap shows of one cell.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cell {
    /// Shannon entropy, bits per byte (0 to 8).
    pub entropy: f32,
    /// The fraction of zero bytes.
    pub zeros: f32,
    /// The fraction of printable bytes.
    pub text: f32,
}

impl Cell {
    fn of(c: &Counts) -> Cell {
        let t = c.total().max(1) as f64;
        Cell {
            entropy: c.entropy() as f32,
            zeros: (c.zeros() as f64 / t) as f32,
            text: (c.text() as f64 / t) as f32,
        }
    }
}

/// The number of cells a map of a `size`-byte file has when `wanted` are
/// asked for: no more than the file has bytes.
pub fn cells_for(size: u64, wanted: u32) -> u32 {
    u32::try_from(size).map_or(wanted, |s| s.min(wanted))
}

/// The bytes `[start, end)` cell `i` of `cells` covers in a `size`-byte file.
pub fn cell_range(i: u32, size: u64, cells: u32) -> (u64, u64) {
    let at = |k: u64| ((u128::from(k) * u128::from(size)) / u128::from(cells.max(1))) as u64;
    (at(u64::from(i)), at(u64::from(i) + 1))
}

/// The cell byte `at` is in.
pub fn cell_of(at: u64, size: u64, cells: u32) -> u32 {
    if size == 0 {
        return 0;
    }
    let mut i = ((u128::from(at) * u128::from(cells)) / u128::from(size)) as u32;
    // The cells' bounds are rounded down: step to the one that holds it.
    while i + 1 < cells && cell_range(i + 1, size, cells).0 <= at {
        i += 1;
    }
    while i > 0 && cell_range(i, size, cells).0 > at {
        i -= 1;
    }
    i.min(cells.saturating_sub(1))
}

/// Bytes read from each cell by the coarse pass.
pub const SAMPLE: u64 = 4096;
/// Bytes read at once by the scans (a read from a browser's file has a cost
/// of its own: few big reads are faster than many small ones).
const CHUNK: usize = 8 << 20;

/// Counts bytes `[start, end)` of `src` into `counts`, a chunk at a time
/// (`buf` is reused); returns the bytes counted (fewer at the file's end).
fn count_range(
    src: &dyn ByteSource,
    start: u64,
    end: u64,
    counts: &mut Counts,
    buf: &mut Vec<u8>,
) -> u64 {
    let mut at = start;
    while at < end {
        let want = (end - at).min(CHUNK as u64) as usize;
        buf.resize(want, 0);
        let got = src.read_at(at, &mut buf[..want]);
        if got == 0 {
            break;
        }
        counts.add(&buf[..got]);
        at += got as u64;
    }
    at - start
}

/// The minimap's byte scan: a coarse pass, then a full one a step at a time.
#[derive(Debug)]
pub struct MapScan {
    size: u64,
    cells: u32,
    /// The next cell of the full pass, and where the full pass has read to
    /// (inside that cell), with what it has counted of it.
    next: u32,
    at: u64,
    part: Counts,
    buf: Vec<u8>,
}

impl MapScan {
    /// A scan of a `size`-byte file into `cells` cells (see [`cells_for`]).
    pub fn new(size: u64, cells: u32) -> Self {
        MapScan {
            size,
            cells: cells_for(size, cells),
            next: 0,
            at: 0,
            part: Counts::default(),
            buf: Vec::new(),
        }
    }

    /// The cells of the map.
    pub fn cells(&self) -> u32 {
        self.cells
    }

    /// Every cell estimated from [`SAMPLE`] bytes in its middle (the whole
    /// cell if it is smaller).
    pub fn coarse(&mut self, src: &dyn ByteSource) -> Vec<Cell> {
        (0..self.cells)
            .map(|i| {
                let (a, b) = cell_range(i, self.size, self.cells);
                let (a, b) = if b - a > SAMPLE {
                    let mid = a + (b - a) / 2 - SAMPLE / 2;
                    (mid, mid + SAMPLE)
                } else {
                    (a, b)
                };
                let mut c = Counts::default();
                count_range(src, a, b, &mut c, &mut self.buf);
                Cell::of(&c)
            })
            .collect()
    }

    /// The full pass reads on for about `budget` bytes (in reads of up to
    /// [`CHUNK`] bytes that may span many cells): the first cell it
    /// finished and the cells finished (none if the budget ended inside a
    /// cell). Empty once the pass is done.
    pub fn step(&mut self, src: &dyn ByteSource, budget: u64) -> (u32, Vec<Cell>) {
        let from = self.next;
        let mut out = Vec::new();
        let mut read = 0u64;
        while self.next < self.cells && read < budget.max(1) {
            let want = (self.size - self.at).min(CHUNK as u64) as usize;
            self.buf.resize(want, 0);
            let got = src.read_at(self.at, &mut self.buf[..want]);
            // A file that ends early: what is missing counts as nothing.
            let end = if got == 0 {
                self.size
            } else {
                self.at + got as u64
            };
            read += (end - self.at).max(1);
            let mut k = 0usize;
            while self.at < end {
                let cell_end = cell_range(self.next, self.size, self.cells).1;
                let to = cell_end.min(end);
                let n = (to - self.at) as usize;
                if got > 0 {
                    self.part.add(&self.buf[k..k + n]);
                }
                k += n;
                self.at = to;
                if to == cell_end {
                    out.push(Cell::of(&std::mem::take(&mut self.part)));
                    self.next += 1;
                }
            }
        }
        (from, out)
    }

    /// True once the full pass has read every cell.
    pub fn done(&self) -> bool {
        self.next >= self.cells
    }
}

/// A byte histogram of a range of the file, counted a step at a time.
#[derive(Debug)]
pub struct StatsScan {
    /// The range `[start, end)`.
    pub start: u64,
    pub end: u64,
    /// Where counting has got to.
    pub at: u64,
    /// The counts so far.
    pub counts: Counts,
    buf: Vec<u8>,
}

impl StatsScan {
    /// A count of bytes `[start, end)` of a `size`-byte file (clipped to it).
    pub fn new(start: u64, end: u64, size: u64) -> Self {
        let end = end.min(size);
        let start = start.min(end);
        StatsScan {
            start,
            end,
            at: start,
            counts: Counts::default(),
            buf: Vec::new(),
        }
    }

    /// Counts about `budget` more bytes; true once the range is counted.
    pub fn step(&mut self, src: &dyn ByteSource, budget: u64) -> bool {
        let to = self.at.saturating_add(budget.max(1)).min(self.end);
        let got = count_range(src, self.at, to, &mut self.counts, &mut self.buf);
        self.at = if got < to - self.at { self.end } else { to };
        self.done()
    }

    /// True once the range is counted.
    pub fn done(&self) -> bool {
        self.at >= self.end
    }
}

/// At most this many nodes get colours.
pub const MAX_PARTS: usize = 4096;

/// The nodes of the top levels the viewer colours (its parts, blocks or
/// sections), sorted by where they start; lazy groups on the way are decoded.
///
/// The level coloured is the first below the root with more than one node
/// (a file holding one container colours the container's parts); a list of
/// groups among them (a list of parts, sections, records) gives each of its
/// entries a colour instead, as long as no more than [`MAX_PARTS`] are
/// coloured. Nodes without bytes, and nodes in bytes a `process` made, get
/// none.
pub fn parts(src: &dyn ByteSource, tree: &mut Tree) -> Vec<NodeId> {
    let mut level = tree.root();
    let mut kids = crate::open_children(src, tree, level);
    for _ in 0..16 {
        match kids.as_slice() {
            [only] if tree.kind(*only).is_group() => level = *only,
            _ => break,
        }
        kids = crate::open_children(src, tree, level);
    }
    let mut out = Vec::new();
    let mut room = MAX_PARTS.saturating_sub(kids.len());
    for k in kids {
        if tree.kind(k) == Kind::Array {
            let items = crate::open_children(src, tree, k);
            let groups = items.iter().any(|&i| tree.kind(i).is_group());
            if groups && items.len() <= room + 1 {
                room -= items.len() - 1;
                out.extend(items);
                continue;
            }
        }
        out.push(k);
    }
    out.retain(|&id| !tree.span(id).is_empty() && !tree.is_decoded(id));
    out.truncate(MAX_PARTS);
    crate::sorted::sort_by_key(&mut out, |&id| tree.span(id).start);
    out
}

/// For each of `cells` cells of a `size`-byte file, the index in `parts`
/// of the part holding most of its bytes (the first such), or -1.
pub fn owners(tree: &Tree, parts: &[NodeId], size: u64, cells: u32) -> Vec<i32> {
    let mut best = vec![(0u64, -1i32); cells as usize];
    if size == 0 || cells == 0 {
        return Vec::new();
    }
    for (k, &id) in parts.iter().enumerate() {
        let s = tree.span(id);
        let (a, b) = (s.start_byte().min(size), s.end_byte().min(size));
        if a >= b {
            continue;
        }
        let (first, last) = (cell_of(a, size, cells), cell_of(b - 1, size, cells));
        for i in first..=last {
            let (ca, cb) = cell_range(i, size, cells);
            let n = b.min(cb).saturating_sub(a.max(ca));
            let slot = &mut best[i as usize];
            if n > slot.0 {
                *slot = (n, k as i32);
            }
        }
    }
    best.into_iter().map(|(_, k)| k).collect()
}

/// A column of the field table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Col {
    /// The tree's order.
    Order,
    Path,
    Offset,
    Size,
    Kind,
    Value,
    Meaning,
}

impl Col {
    /// The column called `name` (`order`, `path`, `offset`, `size`, `kind`,
    /// `value`, `meaning`).
    pub fn from_name(name: &str) -> Option<Col> {
        Some(match name {
            "order" => Col::Order,
            "path" => Col::Path,
            "offset" => Col::Offset,
            "size" => Col::Size,
            "kind" => Col::Kind,
            "value" => Col::Value,
            "meaning" => Col::Meaning,
            _ => return None,
        })
    }
}

/// One row of the field table, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub path: String,
    pub start: u64,
    pub end: u64,
    pub kind: &'static str,
    pub value: String,
    pub meaning: String,
}

/// The field table of a node: its children or all its descendants.
#[derive(Debug)]
pub struct Table {
    node: NodeId,
    all: bool,
    /// Nodes still to visit while filling, and whether each is a row (not
    /// the table's node or a page).
    todo: Vec<(NodeId, bool)>,
    /// The rows, in the tree's order.
    rows: Vec<NodeId>,
    /// The rows shown: filtered and sorted.
    shown: Vec<NodeId>,
    /// Bytes the node covers, for progress.
    span: (u64, u64),
    /// How far the filling has got (bytes from the node's start).
    reached: u64,
}

impl Table {
    /// The table of node `node`: its children, or with `all` every node
    /// below it (pages are looked through).
    pub fn new(tree: &Tree, node: NodeId, all: bool) -> Table {
        let s = tree.span(node);
        Table {
            node,
            all,
            todo: vec![(node, false)],
            rows: Vec::new(),
            shown: Vec::new(),
            span: (s.start_byte(), s.end_byte()),
            reached: 0,
        }
    }

    /// The node whose table this is.
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// Decodes what the table needs for about `budget` nodes (those looked
    /// through and those decoded); true once every row is known.
    pub fn fill(&mut self, src: &dyn ByteSource, tree: &mut Tree, budget: usize) -> bool {
        let mut work = 0;
        // Depth first, children in order: the rows come out in the tree's order.
        while let Some((n, is_row)) = self.todo.pop() {
            work += 1;
            if is_row {
                self.rows.push(n);
                let at = tree.span(n).start_byte().saturating_sub(self.span.0);
                self.reached = self.reached.max(at);
                if !self.all {
                    continue;
                }
            }
            if tree.is_lazy(n) {
                if let Ok(new) = crate::expand(src, tree, n) {
                    work += new.len();
                }
            }
            for &c in tree.children(n).iter().rev() {
                self.todo.push((c, !tree.is_page(c)));
            }
            if work >= budget {
                break;
            }
        }
        if self.todo.is_empty() {
            self.reached = self.span.1.saturating_sub(self.span.0);
        }
        self.todo.is_empty()
    }

    /// True once every row is known (see [`Table::fill`]).
    pub fn filled(&self) -> bool {
        self.todo.is_empty()
    }

    /// How far filling has got: bytes from the node's start, and the node's length.
    pub fn progress(&self) -> (u64, u64) {
        (self.reached, self.span.1.saturating_sub(self.span.0))
    }

    /// Filters the rows by `filter` (rows whose path, kind, value or meaning
    /// hold it, whatever the case; empty: every row) and sorts them by
    /// `col` (`desc`: the other way).
    pub fn arrange(&mut self, tree: &Tree, col: Col, desc: bool, filter: &str) {
        let needle = filter.to_lowercase();
        let mut keyed: Vec<(Key, NodeId)> = Vec::new();
        let mut plain: Vec<NodeId> = Vec::new();
        // Offsets and sizes sort as bare numbers: a few bytes a row, where a
        // table may hold millions.
        let number = matches!(col, Col::Offset | Col::Size);
        for (i, &id) in self.rows.iter().enumerate() {
            if !needle.is_empty() {
                let r = row(tree, id, clip::ROW);
                let hit = [&r.path, r.kind, &r.value, &r.meaning]
                    .iter()
                    .any(|t| t.to_lowercase().contains(&needle));
                if !hit {
                    continue;
                }
            }
            if col == Col::Order || number {
                plain.push(id);
            } else {
                keyed.push((key(tree, id, col, i), id));
            }
        }
        if number {
            let mut v: Vec<(u64, NodeId)> = plain
                .iter()
                .map(|&id| {
                    let s = tree.span(id);
                    let k = match col {
                        Col::Offset => s.start_byte(),
                        _ => s.end_byte() - s.start_byte(),
                    };
                    (k, id)
                })
                .collect();
            crate::sorted::sort_by(&mut v, |a, b| {
                let o = a.0.cmp(&b.0);
                if desc {
                    o.reverse()
                } else {
                    o
                }
            });
            plain = v.into_iter().map(|(_, id)| id).collect();
        }
        if col == Col::Order || number {
            if desc && !number {
                plain.reverse();
            }
            self.shown = plain;
            return;
        }
        // Stable: rows equal by the column keep the tree's order.
        crate::sorted::sort_by(&mut keyed, |a, b| {
            let o = a.0.cmp(&b.0);
            if desc {
                o.reverse()
            } else {
                o
            }
        });
        self.shown = keyed.into_iter().map(|(_, id)| id).collect();
    }

    /// Rows shown (after [`Table::arrange`]).
    pub fn len(&self) -> usize {
        self.shown.len()
    }

    /// True if no row is shown.
    pub fn is_empty(&self) -> bool {
        self.shown.is_empty()
    }

    /// Rows `[first, first + count)` of those shown, as text (values
    /// clipped to `clip` bytes).
    pub fn window(&self, tree: &Tree, first: usize, count: usize, clip: usize) -> Vec<Row> {
        let first = first.min(self.shown.len());
        let last = first.saturating_add(count).min(self.shown.len());
        self.shown[first..last]
            .iter()
            .map(|&id| row(tree, id, clip))
            .collect()
    }

    /// The rows shown as CSV (`sep` `,`) or tab-separated text (`sep`
    /// `\t`), a header line first; `None` if it would be over `max` bytes.
    pub fn text(&self, tree: &Tree, sep: char, max: usize) -> Option<String> {
        let mut out = String::new();
        let line = |cells: [&str; 6], out: &mut String| {
            for (i, c) in cells.iter().enumerate() {
                if i > 0 {
                    out.push(sep);
                }
                if sep == ',' {
                    if c.contains([',', '"', '\n', '\r']) {
                        out.push('"');
                        out.push_str(&c.replace('"', "\"\""));
                        out.push('"');
                    } else {
                        out.push_str(c);
                    }
                } else {
                    out.extend(c.chars().map(|ch| {
                        if matches!(ch, '\t' | '\n' | '\r') {
                            ' '
                        } else {
                            ch
                        }
                    }));
                }
            }
            out.push('\n');
        };
        line(
            ["path", "offset", "size", "kind", "value", "meaning"],
            &mut out,
        );
        for &id in &self.shown {
            let r = row(tree, id, clip::DETAILS);
            let (o, s) = (r.start.to_string(), (r.end - r.start).to_string());
            line([&r.path, &o, &s, r.kind, &r.value, &r.meaning], &mut out);
            if out.len() > max {
                return None;
            }
        }
        Some(out)
    }
}

/// Node `id` as a table row.
pub fn row(tree: &Tree, id: NodeId, max: usize) -> Row {
    let n = tree.node(id);
    let len = n.span.len_bits() / 8;
    let field = (n.kind == Kind::Str).then_some(len);
    Row {
        path: tree.path(id),
        start: n.span.start_byte(),
        end: n.span.end_byte(),
        kind: n.kind.as_str(),
        value: n
            .value
            .as_ref()
            .map(|v| clip::value(v, field, max))
            .unwrap_or_default(),
        meaning: n
            .display
            .as_deref()
            .map(|d| clip::plain(d, max))
            .unwrap_or_default(),
    }
}

/// What a row sorts by in a column.
#[derive(Debug, PartialEq)]
enum Key {
    /// Numbers before text, in their order.
    Num(f64),
    Text(String),
    Path(Vec<PathBit>),
    Blank,
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum PathBit {
    Num(u64),
    Text(String),
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Key::Num(a), Key::Num(b)) => a.total_cmp(b),
            (Key::Text(a), Key::Text(b)) => a.cmp(b),
            (Key::Path(a), Key::Path(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl Key {
    fn rank(&self) -> u8 {
        match self {
            Key::Num(_) => 0,
            Key::Path(_) => 1,
            Key::Text(_) => 2,
            Key::Blank => 3,
        }
    }
}

/// A path's parts, the numbers in it as numbers (`[10]` after `[9]`).
fn path_key(path: &str) -> Vec<PathBit> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut digits = String::new();
    for ch in path.chars() {
        if ch.is_ascii_digit() {
            if !text.is_empty() {
                out.push(PathBit::Text(std::mem::take(&mut text)));
            }
            digits.push(ch);
        } else {
            if !digits.is_empty() {
                out.push(PathBit::Num(digits.parse().unwrap_or(u64::MAX)));
                digits.clear();
            }
            text.push(ch);
        }
    }
    if !digits.is_empty() {
        out.push(PathBit::Num(digits.parse().unwrap_or(u64::MAX)));
    }
    if !text.is_empty() {
        out.push(PathBit::Text(text));
    }
    out
}

fn key(tree: &Tree, id: NodeId, col: Col, order: usize) -> Key {
    let span = tree.span(id);
    match col {
        Col::Order => Key::Num(order as f64),
        Col::Path => Key::Path(path_key(&tree.path(id))),
        Col::Offset => Key::Num(span.start_byte() as f64),
        Col::Size => Key::Num((span.end_byte() - span.start_byte()) as f64),
        Col::Kind => Key::Text(tree.kind(id).as_str().to_string()),
        Col::Value => match tree.value(id) {
            Some(Value::U(v)) => Key::Num(v as f64),
            Some(Value::I(v)) => Key::Num(v as f64),
            Some(Value::F(v)) if !v.is_nan() => Key::Num(v),
            Some(Value::Bool(b)) => Key::Num(f64::from(u8::from(b))),
            Some(v) => Key::Text(clip::value(&v, None, clip::ROW).to_lowercase()),
            None => Key::Blank,
        },
        Col::Meaning => match tree.display(id) {
            Some(d) if !d.is_empty() => Key::Text(d.to_lowercase()),
            _ => Key::Blank,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_entropy_and_classes() {
        let mut c = Counts::default();
        assert_eq!(c.entropy(), 0.0);
        c.add(&[0; 1000]);
        assert_eq!(
            (c.total(), c.zeros(), c.text(), c.high()),
            (1000, 1000, 0, 0)
        );
        assert_eq!(c.entropy(), 0.0);
        let all: Vec<u8> = (0..=255u8).cycle().take(256 * 40).collect();
        let mut u = Counts::default();
        u.add(&all);
        assert!((u.entropy() - 8.0).abs() < 1e-9, "{}", u.entropy());
        assert_eq!(u.high(), 128 * 40);
        assert_eq!(u.text(), (95 + 3) * 40);
        let mut h = Counts::default();
        h.add(b"abab");
        assert!((h.entropy() - 1.0).abs() < 1e-12);
        // Counting in pieces gives what counting at once does.
        let mut p = Counts::default();
        for piece in all.chunks(7) {
            p.add(piece);
        }
        assert_eq!(p, u);
    }

    #[test]
    fn cells_cover_the_file_once() {
        for (size, cells) in [
            (10u64, 4u32),
            (1 << 32, 1024),
            (1000, 1000),
            (5, 5),
            (4097, 1024),
        ] {
            let cells = cells_for(size, cells);
            let mut at = 0;
            for i in 0..cells {
                let (a, b) = cell_range(i, size, cells);
                assert_eq!(a, at);
                assert!(b > a, "cell {i} of {size}");
                assert_eq!(cell_of(a, size, cells), i);
                assert_eq!(cell_of(b - 1, size, cells), i);
                at = b;
            }
            assert_eq!(at, size);
        }
        assert_eq!(cells_for(3, 1024), 3);
    }

    #[test]
    fn the_map_scan_finds_random_and_zero_regions() {
        // 1 MiB: zeros, then pseudo-random bytes, then text.
        let mut data = vec![0u8; 1 << 20];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for b in &mut data[1 << 18..1 << 19] {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = (x >> 24) as u8;
        }
        for (i, b) in data[1 << 19..].iter_mut().enumerate() {
            *b = b"the quick brown fox "[i % 20];
        }
        let src = data.as_slice();
        let mut m = MapScan::new(data.len() as u64, 64);
        let coarse = m.coarse(&src);
        assert_eq!(coarse.len(), 64);
        let mut full = Vec::new();
        while !m.done() {
            let (from, cells) = m.step(&src, 100_000);
            assert_eq!(from as usize, full.len());
            full.extend(cells);
        }
        for cells in [&coarse, &full] {
            assert_eq!(cells[0].zeros, 1.0);
            assert_eq!(cells[0].entropy, 0.0);
            assert!(cells[20].entropy > 7.9, "{:?}", cells[20]);
            assert!(cells[50].text == 1.0 && cells[50].entropy < 4.0);
        }
    }

    #[test]
    fn the_full_pass_in_any_steps_counts_each_cell_exactly() {
        let data: Vec<u8> = (0..(1u32 << 20) + 13)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let src = data.as_slice();
        let size = data.len() as u64;
        let want: Vec<Cell> = (0..100)
            .map(|i| {
                let (a, b) = cell_range(i, size, 100);
                let mut c = Counts::default();
                c.add(&data[a as usize..b as usize]);
                Cell::of(&c)
            })
            .collect();
        for budget in [1, 1000, 65_536, 1 << 30] {
            let mut m = MapScan::new(size, 100);
            let mut got = Vec::new();
            while !m.done() {
                let (from, cells) = m.step(&src, budget);
                assert_eq!(from as usize, got.len());
                got.extend(cells);
            }
            assert_eq!(got, want, "budget {budget}");
        }
    }

    #[test]
    fn stats_in_steps_match_a_count_at_once() {
        let data: Vec<u8> = (0..3_000_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let src = data.as_slice();
        let mut s = StatsScan::new(1000, 2_500_000, data.len() as u64);
        let mut steps = 0;
        while !s.step(&src, 300_000) {
            steps += 1;
        }
        assert_eq!(steps, 8);
        let mut c = Counts::default();
        c.add(&data[1000..2_500_000]);
        assert_eq!(s.counts, c);
        // Past the end: clipped.
        let mut s = StatsScan::new(10, 1 << 40, data.len() as u64);
        while !s.step(&src, 1 << 30) {}
        assert_eq!(s.counts.total(), data.len() as u64 - 10);
    }

    #[test]
    fn path_keys_sort_numbers_as_numbers() {
        let mut v = ["a/[10]", "a/[9]", "a/[1]/b", "a/[1]", "b"];
        v.sort_by_key(|p| path_key(p));
        assert_eq!(v, ["a/[1]", "a/[1]/b", "a/[9]", "a/[10]", "b"]);
    }

    /// Every node below `id` in the eager tree, depth first, pages looked through.
    fn below(t: &Tree, id: NodeId, all: bool, out: &mut Vec<String>) {
        for c in t.children_flat(id) {
            out.push(t.path(c));
            if all {
                below(t, c, all, out);
            }
        }
    }

    #[test]
    fn a_lazy_table_fills_to_the_eager_tree_s_rows_and_sorts() {
        for name in [
            "x86_64-linux.o",
            "rev5_llvm14.bc",
            "hs_mismatch_2_code_dxil.dxil.dxbc",
        ] {
            let data = crate::session::tests::sample(name);
            let src = data.as_slice();
            let eager = crate::decode(&src).tree;
            for all in [false, true] {
                let mut lazy = crate::decode_with(&src, &crate::view::viewer_options()).tree;
                let root = lazy.root();
                let mut t = Table::new(&lazy, root, all);
                let mut steps = 0;
                while !t.fill(&src, &mut lazy, 50) {
                    steps += 1;
                    assert!(t.progress().0 <= t.progress().1);
                }
                assert!(!all || steps > 0, "{name}: filled in one step");
                t.arrange(&lazy, Col::Order, false, "");
                let got: Vec<String> = t
                    .window(&lazy, 0, usize::MAX, clip::ROW)
                    .into_iter()
                    .map(|r| r.path)
                    .collect();
                let mut want = Vec::new();
                below(&eager, eager.root(), all, &mut want);
                assert_eq!(got, want, "{name} all={all}");
            }
            let mut lazy = crate::decode_with(&src, &crate::view::viewer_options()).tree;
            let root = lazy.root();
            let mut t = Table::new(&lazy, root, true);
            while !t.fill(&src, &mut lazy, 1000) {}
            t.arrange(&lazy, Col::Size, true, "");
            let rows = t.window(&lazy, 0, usize::MAX, clip::ROW);
            assert!(rows
                .windows(2)
                .all(|w| w[0].end - w[0].start >= w[1].end - w[1].start));
            t.arrange(&lazy, Col::Offset, false, "u32");
            let rows = t.window(&lazy, 0, usize::MAX, clip::ROW);
            assert!(!rows.is_empty() && rows.len() < t.rows.len(), "{name}");
            assert!(rows.windows(2).all(|w| w[0].start <= w[1].start));
            assert!(rows.iter().all(|r| [&r.path, r.kind, &r.value, &r.meaning]
                .iter()
                .any(|x| x.to_lowercase().contains("u32"))));
            let csv = t.text(&lazy, ',', usize::MAX).unwrap();
            assert_eq!(csv.lines().count(), rows.len() + 1);
            assert!(t.text(&lazy, '\t', 100).is_none());
        }
    }

    #[test]
    fn parts_colour_the_top_levels_and_cells_take_the_biggest() {
        let data = crate::session::tests::sample("hs_mismatch_2_code_dxil.dxil.dxbc");
        let src = data.as_slice();
        let mut lazy = crate::decode_with(&src, &crate::view::viewer_options()).tree;
        let parts = super::parts(&src, &mut lazy);
        let paths: Vec<String> = parts.iter().map(|&p| lazy.path(p)).collect();
        // A container's parts each get a colour, not the list holding them.
        assert!(paths.iter().any(|p| p.starts_with("Parts/[")), "{paths:?}");
        assert!(!paths.iter().any(|p| p == "Parts"), "{paths:?}");
        let size = data.len() as u64;
        let cells = cells_for(size, 64);
        let own = owners(&lazy, &parts, size, cells);
        assert_eq!(own.len(), cells as usize);
        for (i, &k) in own.iter().enumerate() {
            let (a, b) = cell_range(i as u32, size, cells);
            let cover = |p: NodeId| {
                let s = lazy.span(p);
                b.min(s.end_byte()).saturating_sub(a.max(s.start_byte()))
            };
            let most = parts.iter().map(|&p| cover(p)).max().unwrap_or(0);
            if most == 0 {
                assert_eq!(k, -1);
            } else {
                assert_eq!(cover(parts[k as usize]), most, "cell {i}");
            }
        }
        // An object file's sections.
        let data = crate::session::tests::sample("x86_64-linux.o");
        let src = data.as_slice();
        let mut lazy = crate::decode_with(&src, &crate::view::viewer_options()).tree;
        assert!(super::parts(&src, &mut lazy).len() > 3);
    }
}
