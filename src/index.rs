//! Byte → innermost node lookup, built once per file.
//!
//! The file is cut into disjoint, contiguous segments `[start, next start)`, each
//! owned by the innermost node whose (byte-aligned) span covers it. Hovering a byte
//! is then a binary search, not a tree walk, and the hex pane draws one tinted box
//! per segment. Ranges are half-open everywhere.
//!
//! Nodes whose span is empty (derived values) own no segment. Bit fields and flags
//! own the bytes their bits touch (rounded outwards), so a byte inside a bitcode
//! record or a flag word points at the field that starts in it. When siblings
//! overlap (several bit fields sharing a byte, or aliased bytes), the one that
//! starts first keeps the shared bytes.

use hexlens_core::{NodeId, Tree};

/// Deeper nesting than this is owned by the node at this depth (keeps recursion
/// bounded on hostile files).
const MAX_DEPTH: usize = 400;

/// Segments covering `[0, file_size)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpanIndex {
    starts: Vec<u64>,
    owners: Vec<NodeId>,
    size: u64,
}

/// One segment of the file and its owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    /// Position of the segment in file order (stable; drives the tint).
    pub ordinal: usize,
    /// First byte.
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
    /// The innermost node owning these bytes.
    pub owner: NodeId,
}

/// The byte range `[start, end)` a node covers (its bit span rounded outwards),
/// clipped to the file.
pub fn byte_range(tree: &Tree, id: NodeId, size: u64) -> (u64, u64) {
    let s = tree.node(id).span;
    if s.is_empty() {
        let a = s.start_byte().min(size);
        return (a, a);
    }
    (s.start_byte().min(size), s.end_byte().min(size))
}

impl SpanIndex {
    /// Builds the index of `tree` for a file of `size` bytes.
    pub fn build(tree: &Tree, size: u64) -> Self {
        let mut ix = SpanIndex {
            starts: Vec::new(),
            owners: Vec::new(),
            size,
        };
        if size > 0 {
            ix.fill(tree, tree.root(), 0, size, 0);
        }
        ix
    }

    fn push(&mut self, start: u64, end: u64, owner: NodeId) {
        if start >= end {
            return;
        }
        if self.owners.last() == Some(&owner) {
            return; // contiguous with the previous segment of the same owner
        }
        self.starts.push(start);
        self.owners.push(owner);
    }

    fn fill(&mut self, tree: &Tree, id: NodeId, lo: u64, hi: u64, depth: usize) {
        let node = tree.node(id);
        let mut kids: Vec<(u64, u64, NodeId)> = if depth >= MAX_DEPTH {
            Vec::new()
        } else {
            node.children
                .iter()
                .filter_map(|&c| {
                    let s = tree.node(c).span;
                    (!s.is_empty()).then(|| (s.start_byte(), s.end_byte(), c))
                })
                .collect()
        };
        if !kids.windows(2).all(|w| w[0].0 <= w[1].0) {
            kids.sort_by_key(|k| k.0);
        }
        let mut cursor = lo;
        for (s, e, c) in kids {
            let s = s.max(cursor);
            let e = e.min(hi);
            if s >= e {
                continue;
            }
            self.push(cursor, s, id);
            self.fill(tree, c, s, e, depth + 1);
            cursor = e;
        }
        self.push(cursor, hi, id);
    }

    /// Size of the indexed file.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// True for an empty file.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The `i`-th segment.
    pub fn segment(&self, i: usize) -> Option<Segment> {
        let start = *self.starts.get(i)?;
        let end = self.starts.get(i + 1).copied().unwrap_or(self.size);
        Some(Segment {
            ordinal: i,
            start,
            end,
            owner: self.owners[i],
        })
    }

    /// The segment holding `byte`, if the byte is inside the file.
    pub fn segment_at(&self, byte: u64) -> Option<Segment> {
        if byte >= self.size {
            return None;
        }
        let i = self.starts.partition_point(|&s| s <= byte).checked_sub(1)?;
        self.segment(i)
    }

    /// The innermost node owning `byte`.
    pub fn owner(&self, byte: u64) -> Option<NodeId> {
        self.segment_at(byte).map(|s| s.owner)
    }

    /// The segments overlapping `[start, end)`, in file order.
    pub fn segments_in(&self, start: u64, end: u64) -> impl Iterator<Item = Segment> + '_ {
        let first = if start >= self.size {
            self.starts.len()
        } else {
            self.starts
                .partition_point(|&s| s <= start)
                .saturating_sub(1)
        };
        (first..self.starts.len()).map_while(move |i| self.segment(i).filter(|s| s.start < end))
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use hexlens_core::decode_bytes;
    use std::path::Path;

    fn samples() -> Vec<Vec<u8>> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/samples");
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).expect("static/samples") {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "dxbc") {
                out.push(std::fs::read(p).unwrap());
            }
        }
        assert!(!out.is_empty());
        out
    }

    fn check(data: &[u8]) {
        let d = decode_bytes(data);
        let size = data.len() as u64;
        let ix = SpanIndex::build(&d.tree, size);
        // Segments tile the file.
        let mut next = 0;
        for i in 0..ix.len() {
            let s = ix.segment(i).unwrap();
            assert_eq!(s.start, next);
            assert!(s.end > s.start);
            next = s.end;
        }
        assert_eq!(next, size);
        for b in 0..size {
            let o = ix.owner(b).unwrap();
            let (s, e) = byte_range(&d.tree, o, size);
            assert!(
                s <= b && b < e || o == d.tree.root(),
                "owner covers the byte"
            );
            // No byte-aligned child of the owner covers it.
            for &c in &d.tree.node(o).children {
                let sp = d.tree.node(c).span;
                if !sp.is_empty() && sp.is_byte_aligned() {
                    assert!(!(sp.start_byte() <= b && b < sp.end_byte()) || sp.start_byte() < s);
                }
            }
        }
        let all: Vec<_> = ix.segments_in(0, size).collect();
        assert_eq!(all.len(), ix.len());
        if size > 3 {
            let some: Vec<_> = ix.segments_in(1, 3).collect();
            assert!(some.first().unwrap().start <= 1 && some.last().unwrap().end >= 3);
        }
    }

    #[test]
    fn segments_tile_every_sample_and_name_the_innermost_owner() {
        for s in samples() {
            check(&s);
            // Truncated and corrupted copies still index cleanly.
            for cut in [0, 1, 7, 33, s.len() / 2] {
                check(&s[..cut.min(s.len())]);
            }
        }
    }

    #[test]
    fn an_unknown_file_is_one_segment_owned_by_the_root() {
        let d = decode_bytes(b"hello world");
        let ix = SpanIndex::build(&d.tree, 11);
        assert!(ix.owner(0).is_some());
        assert_eq!(ix.owner(11), None);
    }
}
