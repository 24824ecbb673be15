//! Comparing two files by their structure: the two trees are walked together
//! and each node of one is matched with a node of the other, by what it is
//! rather than where it lies, so that an inserted part or symbol is one
//! addition, not a change of everything after it.
//!
//! - **Matching.** Children are matched by a key: a named field by its name;
//!   an entry of a list (`[3]`) by what its decoder says names it
//!   ([`Tree::key`]: a DXContainer part's FourCC, with FXC's and DXC's forms
//!   of a signature under one key; a bitcode record's or block's kind and a
//!   function block's function; a .dyno symbol's name; an MSF stream's name),
//!   else by its `Name` field (ASCII case ignored, with its `Index` field if
//!   it has one: a signature element's semantic), else, for a string-table
//!   entry, by its text. Other entries (numbers in a table) are matched by
//!   position. Keys that repeat are matched in order of appearance.
//! - **Cost.** Two matched nodes whose bytes are identical are the same: they
//!   are neither opened nor walked further. Nodes at the same offsets are
//!   checked against one pass over both files that found where they differ
//!   (so comparing two 1 GiB files that differ in a few places reads each
//!   once); nodes that moved are compared by reading their bytes.
//! - **What is reported.** A field whose value differs is `changed`, with
//!   both values; one whose value differs only because what it points at
//!   moved (both refer to identical bytes) is `moved`; a node of one file
//!   with no match in the other is `removed` (only in A) or `added` (only in
//!   B). Runs of bytes no decoder claimed are compared as bytes.

use crate::source::ByteSource;
use crate::tree::{Kind, NameRef, NodeId, Tree, Value};
use crate::Decoded;
use std::collections::HashMap;

/// What differs at one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Both files have the node; its value (or bytes) differ: A's and B's text.
    Changed { a: String, b: String },
    /// Both have it; the values differ only because what they point at moved.
    Moved { a: String, b: String },
    /// Only A has it.
    Removed,
    /// Only B has it.
    Added,
}

/// One difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The node's path (in A, or in B for an addition).
    pub path: String,
    /// Its path in B, where the node is in both and the paths differ (an
    /// entry matched by its name at another position).
    pub path_b: Option<String>,
    /// What differs.
    pub change: Change,
    /// What the node shows (its value and display) in the file that has
    /// it: for an addition or a removal, what was added or removed.
    pub shown: String,
    /// The node's bytes in A, `[start, end)`.
    pub a: Option<(u64, u64)>,
    /// The node's bytes in B.
    pub b: Option<(u64, u64)>,
}

/// The comparison of two files.
#[derive(Debug, Clone, Default)]
pub struct Diff {
    /// The decoders that read A and B.
    pub formats: (&'static str, &'static str),
    /// The sizes of A and B.
    pub sizes: (u64, u64),
    /// The differences, in A's tree order (additions where B has them:
    /// before the first node of A matched with a node after them in B).
    pub differences: Vec<Difference>,
    /// True if the list stopped at the limit asked for.
    pub truncated: bool,
    /// Nodes found identical by their bytes (not walked further).
    pub same: u64,
    /// Bytes that differ at the same offsets, in the part both files have,
    /// plus the bytes one file has past the other's end.
    pub changed_bytes: u64,
    /// The merged tree: the nodes the walk reached, in A's tree order (an
    /// addition where B has it), each marked (see [`Row`]).
    pub rows: Vec<Row>,
}

/// How a row of the merged tree compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// The node's bytes are the same in both files (a row may stand for a run
    /// of such siblings: [`Row::count`]).
    Same,
    /// Its value differs (a [`Change::Changed`] difference).
    Changed,
    /// Its value differs only because what it points at moved.
    Moved,
    /// Only in A.
    Removed,
    /// Only in B.
    Added,
    /// Both files have it and the differences are inside it (its rows follow,
    /// one level deeper).
    Inside,
}

impl Mark {
    /// The mark's one-character sign: `=`, `~`, `>`, `-`, `+`, or `*` for a
    /// group holding differences.
    pub fn sign(self) -> char {
        match self {
            Mark::Same => '=',
            Mark::Changed => '~',
            Mark::Moved => '>',
            Mark::Removed => '-',
            Mark::Added => '+',
            Mark::Inside => '*',
        }
    }

    /// The mark's name: `same`, `changed`, `moved`, `removed`, `added`,
    /// `inside`.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Same => "same",
            Mark::Changed => "changed",
            Mark::Moved => "moved",
            Mark::Removed => "removed",
            Mark::Added => "added",
            Mark::Inside => "inside",
        }
    }
}

/// One row of the merged tree: a node both files have (or a run of
/// identical siblings), or one only one of them has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Depth below the root (the root is 0).
    pub depth: u32,
    /// How it compares.
    pub mark: Mark,
    /// Its name (the last segment of its path; a run of identical siblings:
    /// the first's).
    pub name: String,
    /// Its path in A (in B for an addition).
    pub path: String,
    /// What it shows: its value in A (a change: `A -> B`; a run of
    /// identical siblings: how many).
    pub text: String,
    /// Its bytes in A, `[start, end)` (a run: from the first's start to the
    /// last's end).
    pub a: Option<(u64, u64)>,
    /// Its bytes in B.
    pub b: Option<(u64, u64)>,
    /// How many nodes the row stands for (more than one: a run of identical
    /// siblings).
    pub count: u32,
    /// The offsets in A and in B that stand side by side when the row is
    /// shown: its starts in both files, or for a node only one file has, its
    /// start in that file and the place its parent's alignment gives in the
    /// other.
    pub align: (u64, u64),
    /// The difference the row shows, an index into [`Diff::differences`].
    pub difference: Option<usize>,
}

impl Row {
    /// The line `hexlens diff --tree` prints for it: two spaces a level, then
    /// its [`label`](Row::label).
    pub fn line(&self) -> String {
        format!("{}{}", "  ".repeat(self.depth as usize), self.label())
    }

    /// The mark's sign, the name, then what it shows (`~ PartCount: 5 -> 4`).
    pub fn label(&self) -> String {
        let name = if self.name.is_empty() {
            "(file)"
        } else {
            &self.name
        };
        if self.text.is_empty() {
            format!("{} {name}", self.mark.sign())
        } else {
            format!(
                "{} {name}: {}",
                self.mark.sign(),
                crate::output::one_line(&self.text, 200)
            )
        }
    }
}

impl Difference {
    /// The line `hexlens diff` prints for it: `~ PATH: A -> B` (changed),
    /// `> PATH: A -> B (what it points at moved)`, `- PATH (shown)  (only in A,
    /// START-END)`, `+ PATH (shown)  (only in B, START-END)`; the other path
    /// follows a changed node's as `(B: PATH)` where it differs.
    pub fn line(&self) -> String {
        let one = |s: &str| crate::output::one_line(s, 200);
        let path = match &self.path_b {
            Some(pb) => format!("{} (B: {pb})", self.path),
            None => self.path.clone(),
        };
        let at = |s: Option<(u64, u64)>| s.map_or(String::new(), |(x, y)| format!("{x:X}-{y:X}"));
        let shown = if self.shown.is_empty() {
            String::new()
        } else {
            format!(" ({})", crate::output::one_line(&self.shown, 120))
        };
        match &self.change {
            Change::Changed { a, b } => format!("~ {path}: {} -> {}", one(a), one(b)),
            Change::Moved { a, b } => {
                format!(
                    "> {path}: {} -> {} (what it points at moved)",
                    one(a),
                    one(b)
                )
            }
            Change::Removed => format!("- {path}{shown}  (only in A, {})", at(self.a)),
            Change::Added => format!("+ {path}{shown}  (only in B, {})", at(self.b)),
        }
    }
}

impl Diff {
    /// The summary line `hexlens diff` ends with, for files named `a` and `b`.
    pub fn summary(&self, a: &str, b: &str) -> String {
        let (c, m, r, ad) = self.counts();
        format!(
            "{a} ({}, {} bytes) vs {b} ({}, {} bytes): {}; {c} changed, {m} moved, {r} only in A, {ad} only in B, {} bytes differ{}",
            self.formats.0,
            self.sizes.0,
            self.formats.1,
            self.sizes.1,
            if self.is_equal() {
                "equal structures"
            } else {
                "the structures differ"
            },
            self.changed_bytes,
            if self.truncated {
                " (the list stops at its limit)"
            } else {
                ""
            }
        )
    }

    /// True if the structures are equal (nothing changed, added or removed).
    pub fn is_equal(&self) -> bool {
        self.differences
            .iter()
            .all(|d| matches!(d.change, Change::Moved { .. }))
    }

    /// How many differences of each kind: changed, moved, removed, added.
    pub fn counts(&self) -> (usize, usize, usize, usize) {
        let mut c = (0, 0, 0, 0);
        for d in &self.differences {
            match d.change {
                Change::Changed { .. } => c.0 += 1,
                Change::Moved { .. } => c.1 += 1,
                Change::Removed => c.2 += 1,
                Change::Added => c.3 += 1,
            }
        }
        c
    }
}

/// Most differences listed.
pub const MAX_DIFFERENCES: usize = 100_000;

/// Most runs of differing bytes kept from the pass over both files; past it,
/// nodes at the same offsets are compared by reading them.
const MAX_RUNS: usize = 1 << 16;

/// Compares `a` and `b` by their structure (see the module's description),
/// listing at most `max` differences.
pub fn diff(a: &dyn ByteSource, b: &dyn ByteSource, max: usize) -> Diff {
    diff_as(a, b, None, max)
}

/// [`diff`] of the trees `format` decodes (a `.ksy` format, say), or those
/// the files' own formats give when `None`.
pub fn diff_as(
    a: &dyn ByteSource,
    b: &dyn ByteSource,
    format: Option<&'static crate::Format>,
    max: usize,
) -> Diff {
    // As a viewer decodes: groups are decoded when the walk opens them.
    let opts = crate::view::viewer_options();
    let decode = |src: &dyn ByteSource| crate::decode_as_or_with(format, src, &opts);
    let mut da = decode(a);
    let mut db = decode(b);
    let (runs, changed_bytes) = differing_runs(a, b);
    let mut w = Walk {
        a,
        b,
        runs,
        out: Diff {
            formats: (da.format, db.format),
            sizes: (a.len(), b.len()),
            changed_bytes,
            ..Diff::default()
        },
        max: max.max(1),
        refused: 0,
    };
    let (ra, rb) = (da.tree.root(), db.tree.root());
    w.pair(&mut da, &mut db, (ra, rb), String::new(), String::new(), 0);
    w.out
}

/// The first run `[start, end)` of offsets in A, after `from` (or with
/// `back`, the last before it), where A's byte differs from B's byte at the
/// offset plus `delta` (the two panes of a comparison stand side by side
/// that way). A byte only one file has differs. Offsets run from 0 to the
/// end of A or of B's bytes moved by `delta`, whichever is further. `None`
/// if there is no such run. Both files are read in chunks, once at most.
pub fn next_byte_difference(
    a: &dyn ByteSource,
    b: &dyn ByteSource,
    from: u64,
    delta: i64,
    back: bool,
) -> Option<(u64, u64)> {
    let end = a.len().max(shifted(b.len(), -delta));
    let chunk = READ as u64;
    // The first offset at or after `at` (`ahead`), or the last before it,
    // whose difference is `want`.
    let seek = |at: u64, want: bool, ahead: bool| -> Option<u64> {
        let mut at = at.min(end);
        while (ahead && at < end) || (!ahead && at > 0) {
            let (lo, hi) = if ahead {
                (at, at.saturating_add(chunk).min(end))
            } else {
                (at.saturating_sub(chunk), at)
            };
            let w = Window::read(a, b, lo, (hi - lo) as usize, delta);
            if let Some(i) = w.seek(want, ahead) {
                return Some(lo + i as u64);
            }
            at = if ahead { hi } else { lo };
        }
        None
    };
    let forward = |at, want| seek(at, want, true);
    let backward = |at, want| seek(at, want, false);
    if back {
        // The last run starting before `from`.
        let last = backward(from, true)?;
        let start = backward(last, false).map_or(0, |q| q + 1);
        let stop = forward(last, false).unwrap_or(end);
        Some((start, stop))
    } else {
        // The first run starting after `from`: the rest of a run `from` is
        // in is passed over.
        let mut at = from.saturating_add(1);
        if from < end
            && Window::read(a, b, from, 1, delta)
                .seek(true, true)
                .is_some()
        {
            at = forward(at, false)?;
        }
        let start = forward(at, true)?;
        let stop = forward(start, false).unwrap_or(end);
        Some((start, stop))
    }
}

/// Bytes read at once when comparing bytes: in the browser each read is a
/// call into the file reader, so few big ones (measured on two 1 GiB files);
/// natively, reads that stay in the processor's cache (8 MiB reads spent
/// two thirds of the time copying into cold memory).
const READ: usize = if cfg!(target_arch = "wasm32") {
    8 << 20
} else {
    1 << 20
};

/// A window of A's bytes and the bytes of B beside them.
struct Window {
    x: Vec<u8>,
    y: Vec<u8>,
    /// B's bytes beside the window: `[both.0, both.1)` has bytes in both
    /// files; every other place differs.
    both: (usize, usize),
}

impl Window {
    /// A's bytes `[at, at + n)` and B's bytes `delta` further on.
    fn read(a: &dyn ByteSource, b: &dyn ByteSource, at: u64, n: usize, delta: i64) -> Window {
        let mut x = vec![0u8; n];
        let ga = a.read_at(at, &mut x);
        let bs = at as i128 + delta as i128;
        let mut y = vec![0u8; n];
        let lo = (-bs).clamp(0, n as i128) as usize;
        let gb = if lo < n {
            b.read_at((bs + lo as i128) as u64, &mut y[lo..])
        } else {
            0
        };
        let hi = ga.min(lo + gb).max(lo);
        Window {
            x,
            y,
            both: (lo, hi),
        }
    }

    /// The first (`ahead`) or last place whose difference is `want`.
    fn seek(&self, want: bool, ahead: bool) -> Option<usize> {
        let ((lo, hi), n) = (self.both, self.x.len());
        // Places outside both files' bytes all differ.
        let outside = |r: std::ops::Range<usize>| -> Option<usize> {
            if !want || r.is_empty() {
                return None;
            }
            Some(if ahead { r.start } else { r.end - 1 })
        };
        let inside = || -> Option<usize> {
            let (x, y) = (&self.x[lo..hi], &self.y[lo..hi]);
            let i = if want {
                mismatch(x, y, ahead)
            } else if ahead {
                (0..x.len()).find(|&i| x[i] == y[i])
            } else {
                (0..x.len()).rev().find(|&i| x[i] == y[i])
            };
            i.map(|i| lo + i)
        };
        if ahead {
            outside(0..lo).or_else(inside).or_else(|| outside(hi..n))
        } else {
            outside(hi..n).or_else(inside).or_else(|| outside(0..lo))
        }
    }
}

/// The first (`ahead`) or last place where `x` and `y` (of one length)
/// differ, eight bytes compared at once where they are equal.
fn mismatch(x: &[u8], y: &[u8], ahead: bool) -> Option<usize> {
    let word = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().unwrap_or([0; 8]));
    let n = x.len();
    let whole = n - n % 8;
    if ahead {
        let mut i = 0;
        // Equal runs skipped a block at a time: natively the C library's
        // comparison is the fastest; in wasm it compares byte by byte, so 32
        // bytes a step as four words.
        if cfg!(target_arch = "wasm32") {
            let block =
                |i: usize| (0..4).fold(0, |d, k| d | (word(x, i + 8 * k) ^ word(y, i + 8 * k)));
            while i + 32 <= whole && block(i) == 0 {
                i += 32;
            }
        } else {
            while i + 4096 <= whole && x[i..i + 4096] == y[i..i + 4096] {
                i += 4096;
            }
        }
        while i < whole && word(x, i) == word(y, i) {
            i += 8;
        }
        (i..n).find(|&k| x[k] != y[k])
    } else {
        if let Some(k) = (whole..n).rev().find(|&k| x[k] != y[k]) {
            return Some(k);
        }
        let mut i = whole;
        while i > 0 && word(x, i - 8) == word(y, i - 8) {
            i -= 8;
        }
        (i.saturating_sub(8)..i).rev().find(|&k| x[k] != y[k])
    }
}

/// `x + by`, within `0..=u64::MAX`.
fn shifted(x: u64, by: i64) -> u64 {
    (x as i128 + by as i128).clamp(0, u64::MAX as i128) as u64
}

/// Where `a` and `b` differ at the same offsets: merged runs `[start, end)`
/// (`None` if there were more than [`MAX_RUNS`]), and how many bytes differ
/// (with those past the shorter file's end).
fn differing_runs(a: &dyn ByteSource, b: &dyn ByteSource) -> (Option<Vec<(u64, u64)>>, u64) {
    let common = a.len().min(b.len());
    let mut runs: Vec<(u64, u64)> = Vec::new();
    let mut over = false;
    let mut count = a.len().max(b.len()) - common;
    let size = READ.min(usize::try_from(common).unwrap_or(READ));
    let (mut x, mut y) = (vec![0u8; size], vec![0u8; size]);
    let mut at = 0u64;
    while at < common {
        let n = size.min((common - at) as usize);
        let (ga, gb) = (a.read_at(at, &mut x[..n]), b.read_at(at, &mut y[..n]));
        if ga < n || gb < n {
            // A read failed: what is left counts as differing.
            count += common - at;
            push_run(&mut runs, &mut over, at, common);
            break;
        }
        let mut i = 0;
        while let Some(k) = mismatch(&x[i..n], &y[i..n], true) {
            let k = i + k;
            count += 1;
            push_run(&mut runs, &mut over, at + k as u64, at + k as u64 + 1);
            i = k + 1;
        }
        at += n as u64;
    }
    if a.len() != b.len() {
        push_run(&mut runs, &mut over, common, a.len().max(b.len()));
    }
    ((!over).then_some(runs), count)
}

fn push_run(runs: &mut Vec<(u64, u64)>, over: &mut bool, start: u64, end: u64) {
    let full = runs.len() >= MAX_RUNS;
    match runs.last_mut() {
        Some(last) if last.1 >= start => last.1 = last.1.max(end),
        _ if full => *over = true,
        _ => runs.push((start, end)),
    }
}

struct Walk<'s> {
    a: &'s dyn ByteSource,
    b: &'s dyn ByteSource,
    runs: Option<Vec<(u64, u64)>>,
    out: Diff,
    max: usize,
    /// Differences not listed because the list was full.
    refused: usize,
}

/// A node's byte span `[start, end)`.
fn bytes(t: &Tree, id: NodeId) -> (u64, u64) {
    let s = t.span(id);
    (s.start_byte(), s.end_byte())
}

impl Walk<'_> {
    fn push(&mut self, d: Difference) {
        if self.out.differences.len() >= self.max {
            self.out.truncated = true;
            self.refused += 1;
        } else {
            self.out.differences.push(d);
        }
    }

    /// Node `id` of one file's tree `t`, at `path`, has no match in the other
    /// (`change`: removed from A, or added in B).
    fn only(&mut self, t: &Tree, id: NodeId, path: String, change: Change, at: Place) {
        if self.out.truncated {
            return;
        }
        let span = bytes(t, id);
        let added = change == Change::Added;
        let (a, b) = if added {
            (None, Some(span))
        } else {
            (Some(span), None)
        };
        let shown = text(t, id);
        let row = Row {
            depth: at.depth,
            mark: if added { Mark::Added } else { Mark::Removed },
            name: t.name(id).to_string(),
            path: path.clone(),
            text: shown.clone(),
            a,
            b,
            count: 1,
            align: if added {
                (shifted(span.0, -at.delta), span.0)
            } else {
                (span.0, shifted(span.0, at.delta))
            },
            difference: Some(self.out.differences.len()),
        };
        self.push(Difference {
            path,
            path_b: None,
            shown,
            change,
            a,
            b,
        });
        if !self.out.truncated {
            self.out.rows.push(row);
        }
    }

    /// A node both files have with identical bytes: a row, or one more in a
    /// run of identical siblings.
    fn same_row(
        &mut self,
        t: &Tree,
        id: NodeId,
        path: &str,
        sa: (u64, u64),
        sb: (u64, u64),
        depth: u32,
    ) {
        if let Some(last) = self.out.rows.last_mut() {
            if last.mark == Mark::Same && last.depth == depth && last.path != path {
                last.count += 1;
                last.text = format!("{} identical nodes", last.count);
                let first = last.name.split(" … ").next().unwrap_or("").to_string();
                last.name = format!("{first} … {}", t.name(id));
                last.a = last.a.map(|(s, e)| (s.min(sa.0), e.max(sa.1)));
                last.b = last.b.map(|(s, e)| (s.min(sb.0), e.max(sb.1)));
                return;
            }
        }
        self.out
            .rows
            .push(both_row(depth, Mark::Same, t, id, path, (sa, sb)));
    }

    /// True if the bytes of `ia` in A and `ib` in B are identical.
    fn same_bytes(&self, (a0, a1): (u64, u64), (b0, b1): (u64, u64)) -> bool {
        if a1 - a0 != b1 - b0 {
            return false;
        }
        if a0 == b0 {
            if let Some(runs) = &self.runs {
                // Runs are sorted and disjoint: the first ending after a0.
                let i = runs.partition_point(|r| r.1 <= a0);
                return runs.get(i).is_none_or(|r| r.0 >= a1);
            }
        }
        // Most nodes compared are small: buffers no bigger than the node.
        let len = usize::try_from(a1 - a0).map_or(READ, |l| l.min(READ));
        let (mut x, mut y) = (vec![0u8; len], vec![0u8; len]);
        let mut at = 0u64;
        while at < a1 - a0 {
            let n = READ.min((a1 - a0 - at) as usize);
            let ga = self.a.read_at(a0 + at, &mut x[..n]);
            let gb = self.b.read_at(b0 + at, &mut y[..n]);
            if ga != n || gb != n || mismatch(&x[..n], &y[..n], true).is_some() {
                return false;
            }
            at += n as u64;
        }
        true
    }

    /// Compares node `ia` of A (at `path`) with node `ib` of B (at `path_b`).
    fn pair(
        &mut self,
        da: &mut Decoded,
        db: &mut Decoded,
        (ia, ib): (NodeId, NodeId),
        path: String,
        path_b: String,
        depth: u32,
    ) {
        if self.out.truncated {
            return;
        }
        let (sa, sb) = (bytes(&da.tree, ia), bytes(&db.tree, ib));
        let (ta, tb) = (&da.tree, &db.tree);
        let whole_file = path.is_empty();
        if !(whole_file && da.format != db.format)
            && ta.kind(ia) == tb.kind(ib)
            && self.same_bytes(sa, sb)
        {
            self.out.same += 1;
            self.same_row(ta, ia, &path, sa, sb, depth);
            return;
        }
        // The node's row: marked when what it holds is known.
        let row = self.out.rows.len();
        self.out
            .rows
            .push(both_row(depth, Mark::Inside, ta, ia, &path, (sa, sb)));
        let place = Place {
            depth: depth + 1,
            delta: sb.0 as i64 - sa.0 as i64,
        };
        let unknown = ta.kind(ia) == Kind::Unknown || tb.kind(ib) == Kind::Unknown;
        let (va, vb) = (ta.value(ia), tb.value(ib));
        let leaf = !ta.is_lazy(ia)
            && !tb.is_lazy(ib)
            && ta.children(ia).is_empty()
            && tb.children(ib).is_empty();
        if unknown || leaf || va != vb {
            let (xa, xb) = (text(ta, ia), text(tb, ib));
            // A field with a value is compared by it (bit fields share their
            // bytes with their neighbours); raw bytes by their bytes.
            let differs = unknown || xa != xb || (leaf && va.is_none());
            if differs {
                let moved = match (ta.reference(ia), tb.reference(ib)) {
                    (Some(ra), Some(rb)) if va.is_some() => self.same_bytes(
                        (ra.start_byte(), ra.end_byte()),
                        (rb.start_byte(), rb.end_byte()),
                    ),
                    _ => false,
                };
                let (a, b) = if unknown || (xa == xb && leaf) {
                    (
                        format!("{} bytes", sa.1 - sa.0),
                        format!("{} bytes, differing", sb.1 - sb.0),
                    )
                } else {
                    (xa, xb)
                };
                let (change, mark) = if moved {
                    (
                        Change::Moved {
                            a: a.clone(),
                            b: b.clone(),
                        },
                        Mark::Moved,
                    )
                } else {
                    (
                        Change::Changed {
                            a: a.clone(),
                            b: b.clone(),
                        },
                        Mark::Changed,
                    )
                };
                if self.out.differences.len() < self.max {
                    let r = &mut self.out.rows[row];
                    r.mark = mark;
                    r.text = format!(
                        "{} -> {}",
                        crate::output::one_line(&a, 200),
                        crate::output::one_line(&b, 200)
                    );
                    r.difference = Some(self.out.differences.len());
                }
                self.push(Difference {
                    path: path.clone(),
                    path_b: (path_b != path).then(|| path_b.clone()),
                    shown: String::new(),
                    change,
                    a: Some(sa),
                    b: Some(sb),
                });
            }
            if unknown || leaf {
                return;
            }
        }
        // A group's own value (a flag word) is reported only when none of
        // its children says what changed.
        // (Its own: one this call pushed, not an addition elsewhere whose path
        // in B reads the same.)
        let own = self.out.rows[row].difference.filter(|_| !path.is_empty());
        let refused = self.refused;
        let ka = crate::open_children(self.a, &mut da.tree, ia);
        let kb = crate::open_children(self.b, &mut db.tree, ib);
        // A group decoded just now says more than it did unopened.
        if self.out.rows[row].mark == Mark::Inside {
            self.out.rows[row].text = one_line_text(&da.tree, ia);
        }
        let keys_b = keyed(&db.tree, &kb);
        let mut index_b: HashMap<(String, u32), usize> = HashMap::new();
        for (i, k) in keys_b.iter().enumerate() {
            index_b.insert(k.clone(), i);
        }
        let keys_a = keyed(&da.tree, &ka);
        let mut matched: Vec<Option<usize>> =
            keys_a.iter().map(|k| index_b.get(k).copied()).collect();
        // A child of A no key matches, at the same place as B's child there
        // and with most of its fields equal, is that child changed, whatever
        // its key now says (an element whose index byte changed names another
        // element). If another child of A holds B's child by its key, it
        // gives it up only to take B's child at its own place the same way.
        let mut by_b: Vec<Option<usize>> = vec![None; kb.len()];
        for (i, m) in matched.iter().enumerate() {
            if let Some(j) = *m {
                by_b[j] = Some(i);
            }
        }
        let alike = |da: &Decoded, db: &Decoded, i: usize| {
            i < ka.len()
                && i < kb.len()
                && same_place_mostly_equal(&da.tree, ka[i], &db.tree, kb[i])
        };
        for i in 0..ka.len().min(kb.len()) {
            if matched[i].is_some() || !alike(da, db, i) {
                continue;
            }
            match by_b[i] {
                None => {
                    matched[i] = Some(i);
                    by_b[i] = Some(i);
                }
                Some(k) if k < kb.len() && by_b[k].is_none() && alike(da, db, k) => {
                    matched[i] = Some(i);
                    by_b[i] = Some(i);
                    matched[k] = Some(k);
                    by_b[k] = Some(k);
                }
                Some(_) => {}
            }
        }
        let mut used = vec![false; kb.len()];
        for &j in matched.iter().flatten() {
            used[j] = true;
        }
        // B's children no child of A matches, each shown where B has it:
        // before the first child of A matched with a later child of B.
        let mut next_b = 0;
        let mut added_before = |w: &mut Self, db: &Decoded, upto: usize| {
            while next_b < upto.min(kb.len()) {
                if !used[next_b] {
                    let p = child_path(&path_b, &db.tree, kb[next_b]);
                    w.only(&db.tree, kb[next_b], p, Change::Added, place);
                }
                next_b += 1;
            }
        };
        for (i, m) in matched.iter().enumerate() {
            let ca = ka[i];
            let p = child_path(&path, &da.tree, ca);
            match *m {
                Some(j) => {
                    added_before(self, db, j);
                    let pb = child_path(&path_b, &db.tree, kb[j]);
                    self.pair(da, db, (ca, kb[j]), p, pb, depth + 1);
                }
                None => self.only(&da.tree, ca, p, Change::Removed, place),
            }
        }
        added_before(self, db, kb.len());
        // Its children said what changed: listed after it, or refused by a
        // full list (then the list ends before the group, as it would with
        // room for them).
        let said = |w: &Self, i: usize| w.out.differences.len() > i + 1 || w.refused > refused;
        if let Some(i) = own.filter(|&i| said(self, i)) {
            self.out.differences.remove(i);
            // The group's row says only that differences are inside it; the
            // rows after it point one difference earlier.
            let r = &mut self.out.rows[row];
            r.mark = Mark::Inside;
            r.text = one_line_text(&da.tree, ia);
            r.difference = None;
            for r in &mut self.out.rows[row + 1..] {
                if let Some(d) = r.difference.as_mut().filter(|d| **d > i) {
                    *d -= 1;
                }
            }
        }
    }
}

/// The row of node `id` of A's tree `t`, at `path`, which both files have
/// (at `sa` in A and `sb` in B), marked `mark`.
fn both_row(
    depth: u32,
    mark: Mark,
    t: &Tree,
    id: NodeId,
    path: &str,
    (sa, sb): ((u64, u64), (u64, u64)),
) -> Row {
    Row {
        depth,
        mark,
        name: t.name(id).to_string(),
        path: path.to_string(),
        text: one_line_text(t, id),
        a: Some(sa),
        b: Some(sb),
        count: 1,
        align: (sa.0, sb.0),
        difference: None,
    }
}

/// Where the rows of a node's children go: their depth, and how far B's
/// offsets stand from A's in their parent (B's start minus A's).
#[derive(Clone, Copy)]
struct Place {
    depth: u32,
    delta: i64,
}

/// A node's value and display as one line.
fn one_line_text(t: &Tree, id: NodeId) -> String {
    crate::output::one_line(&text(t, id), 200)
}

/// The path of child `c` below `parent` (a path as [`Tree::path`] writes it).
fn child_path(parent: &str, t: &Tree, c: NodeId) -> String {
    if parent.is_empty() {
        t.name(c).to_string()
    } else {
        format!("{parent}/{}", t.name(c))
    }
}

/// A node's value and display as one text (`3 (Float32)`).
fn text(t: &Tree, id: NodeId) -> String {
    let v = t.value(id).map(|v| match v {
        Value::U(n) => n.to_string(),
        Value::I(n) => n.to_string(),
        Value::F(x) => crate::floattext::display(x),
        Value::Bool(b) => b.to_string(),
        Value::Str(s) => format!("{s:?}"),
    });
    match (v, t.display(id)) {
        (Some(v), Some(d)) => format!("{v} ({d})"),
        (Some(v), None) => v,
        (None, Some(d)) => d.into_owned(),
        (None, None) => String::new(),
    }
}

/// True if node `x` of `ta` and node `y` of `tb` lie at the same bytes of
/// their files and are groups of named fields more than half of which hold
/// equal values (a field only one of them has counts as unequal).
fn same_place_mostly_equal(ta: &Tree, x: NodeId, tb: &Tree, y: NodeId) -> bool {
    if bytes(ta, x) != bytes(tb, y) || ta.is_lazy(x) || tb.is_lazy(y) {
        return false;
    }
    let fields = |t: &Tree, id: NodeId| -> Vec<(String, Option<Value>)> {
        t.children(id)
            .iter()
            .filter(|&&c| t.kind(c) != Kind::Unknown && !matches!(t.name(c), NameRef::Index(_)))
            .map(|&c| (t.name(c).to_string(), t.value(c)))
            .collect()
    };
    let (fx, fy) = (fields(ta, x), fields(tb, y));
    let total = fx.len().max(fy.len());
    if total < 2 {
        return false;
    }
    let equal = fx
        .iter()
        .filter(|(n, v)| v.is_some() && fy.iter().any(|(m, w)| m == n && w == v))
        .count();
    2 * equal > total
}

/// Each child's key and how many earlier children have the same key.
fn keyed(t: &Tree, kids: &[NodeId]) -> Vec<(String, u32)> {
    let mut seen: HashMap<String, u32> = HashMap::new();
    kids.iter()
        .map(|&c| {
            let k = key(t, c);
            let n = seen.entry(k.clone()).or_insert(0);
            let out = (k, *n);
            *n += 1;
            out
        })
        .collect()
}

/// What a child is matched by (see the module's description).
fn key(t: &Tree, c: NodeId) -> String {
    let i = match t.name(c) {
        NameRef::Index(i) => i,
        other => return other.to_string(),
    };
    if t.kind(c) == Kind::Unknown {
        return "unknown".into();
    }
    // What its decoder says names it.
    if let Some(k) = t.key(c) {
        return format!("={k}");
    }
    // An entry with a `Name` field: by that name (ASCII case ignored), and
    // its `Index` field if it has one.
    let named = |n: &str| {
        t.children(c)
            .iter()
            .find(|&&k| t.name(k).is(n))
            .and_then(|&k| t.value(k))
    };
    if let Some(name) = named("Name") {
        let name = match name {
            Value::Str(s) => Value::Str(s.to_ascii_lowercase()),
            v => v,
        };
        return match named("Index") {
            Some(ix) => format!("{name:?}#{ix:?}"),
            None => format!("{name:?}"),
        };
    }
    // An entry of a string table: by its text (ASCII case ignored).
    let group = t.is_lazy(c) || !t.children(c).is_empty();
    if let (false, Some(Value::Str(s))) = (group, t.value(c)) {
        return format!("{:?}", s.to_ascii_lowercase());
    }
    format!("[{i}]")
}

#[cfg(test)]
mod tests;
