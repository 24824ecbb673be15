//! The invariants every decoded tree holds, whatever the input: [`Tree::validate`]
//! checks them, and every test, fuzz target and damage sweep asks it (one checker
//! for the whole project).
//!
//! - the root spans exactly the file, every span lies inside the file and every
//!   child inside its parent (an empty child at its parent's edges included),
//!   but for a `.ksy` instance, which lies where it was read, and a node read
//!   from bytes a `process` made, whose span is offsets into those bytes;
//!   every non-root node is the child of exactly one parent that it points back
//!   at (so the arena is a tree, without cycles);
//! - a derived node claims no bits; every reference lies inside the file;
//! - every error has a message and marks its node and all its ancestors
//!   damaged, and the root is damaged exactly when some node has an error;
//! - the node count is at most [`node_bound`] of the file's length.
//!
//! A lazy node (children decoded on expansion) is checked like any other: a
//! span and no children yet. Whether siblings may overlap depends on the
//! format (a damaged container keeps the parts it reports as overlapping):
//! [`Tree::overlapping_siblings`] lists those that do.

use super::{BitSpan, Kind, NodeId, Tree};

/// Nodes per input byte. The builder stops at N = 4096 + 12 · len nodes (its
/// budget); filling the gaps with `unknown` nodes adds at most one before each
/// child and one after the last child of each node, so at most 2N more. Measured:
/// real files ~1 node per byte, node-budget exhaustion ~13.
pub const NODES_PER_BYTE: u64 = 36;
/// Constant part of the node bound (see [`NODES_PER_BYTE`]).
pub const NODES_BASE: u64 = 3 * 4096;

/// Upper bound on the nodes of a tree decoded from `len` bytes.
pub fn node_bound(len: u64) -> u64 {
    NODES_PER_BYTE
        .saturating_mul(len)
        .saturating_add(NODES_BASE)
}

impl Tree {
    /// Checks the tree, decoded from a file of `len` bytes, against the
    /// invariants every decode holds (see the module's documentation); the first
    /// violation found, described with the node's path.
    pub fn validate(&self, len: u64) -> Result<(), String> {
        let count = self.len();
        if count as u64 > node_bound(len) {
            return Err(format!(
                "{count} nodes for a {len}-byte input: more than the bound {}",
                node_bound(len)
            ));
        }
        let file = BitSpan::bytes(0, len);
        let root = self.root();
        if self.span(root) != file {
            return Err(format!(
                "root span {:?} is not the file {file:?}",
                self.span(root)
            ));
        }
        if self.parent(root).is_some() {
            return Err("the root has a parent".into());
        }
        // How many times each node is listed as a child: once for all but the root.
        let mut listed = vec![0u8; count];
        let mut any_error = false;
        for id in 0..count as NodeId {
            let span = self.span(id);
            let path = || self.path(id);
            if span.start > span.end {
                return Err(format!("{} has a reversed span {span:?}", path()));
            }
            if !file.contains(&span) && !self.is_decoded(id) {
                return Err(format!("{} {span:?} lies outside the file", path()));
            }
            if let Some(r) = self.reference(id) {
                if r.start > r.end || !file.contains(&r) {
                    return Err(format!("{} refers to {r:?}, outside the file", path()));
                }
            }
            if self.kind(id) == Kind::Derived && !span.is_empty() {
                return Err(format!("{} is derived but claims bits", path()));
            }
            if id != root && self.parent(id).is_none() {
                return Err(format!("node {id} ({}) has no parent", self.name(id)));
            }
            if let Some(e) = self.error(id) {
                any_error = true;
                self.check_error(id, e, count)?;
            }
            for &c in self.children(id) {
                let Some(slot) = listed.get_mut(c as usize) else {
                    return Err(format!("{} lists a child {c} that does not exist", path()));
                };
                *slot = slot.saturating_add(1);
                if *slot > 1 {
                    return Err(format!("node {c} is listed as a child more than once"));
                }
                if self.parent(c) != Some(id) {
                    return Err(format!(
                        "child {} does not point back at {}",
                        self.path(c),
                        path()
                    ));
                }
                let cs = self.span(c);
                // A `.ksy` instance lies where it was read; a node in
                // decoded bytes has offsets into them (its ancestor that is
                // not decoded holds them).
                if self.is_instance(c) || self.is_decoded(c) {
                    continue;
                }
                let inside = if cs.is_empty() {
                    cs.start >= span.start && cs.start <= span.end
                } else {
                    span.contains(&cs)
                };
                if !inside {
                    return Err(format!(
                        "child {} {cs:?} lies outside its parent {span:?}",
                        self.path(c)
                    ));
                }
            }
        }
        if listed[root as usize] != 0 {
            return Err("the root is listed as a child".into());
        }
        if let Some(orphan) = (0..count).find(|&i| i as NodeId != root && listed[i] != 1) {
            return Err(format!("node {orphan} is not listed by its parent"));
        }
        if any_error != self.is_damaged(root) {
            return Err("the root's damaged flag disagrees with the errors present".into());
        }
        Ok(())
    }

    /// Node `id`'s error `e` has a message and marks it and its ancestors damaged.
    fn check_error(&self, id: NodeId, e: &str, count: usize) -> Result<(), String> {
        if e.trim().is_empty() {
            return Err(format!("{} has an empty error message", self.path(id)));
        }
        if !self.is_damaged(id) {
            return Err(format!(
                "{} has an error but is not marked damaged",
                self.path(id)
            ));
        }
        let (mut p, mut steps) = (self.parent(id), 0usize);
        while let Some(pid) = p {
            steps += 1;
            if steps > count {
                return Err(format!("the ancestors of {id} form a cycle"));
            }
            if !self.is_damaged(pid) {
                return Err(format!(
                    "{} has an error but its ancestor {} is not marked damaged",
                    self.path(id),
                    self.path(pid)
                ));
            }
            p = self.parent(pid);
        }
        Ok(())
    }

    /// Pairs of siblings whose (non-empty) spans overlap, among the children of
    /// nodes at depth `from_depth` or deeper (the root is at depth 0), in walk
    /// order.
    pub fn overlapping_siblings(&self, from_depth: usize) -> Vec<(NodeId, NodeId)> {
        let mut out = Vec::new();
        self.walk(|id, depth| {
            if depth < from_depth {
                return;
            }
            let mut kids: Vec<(BitSpan, NodeId)> = self
                .children(id)
                .iter()
                .map(|&c| (self.span(c), c))
                .filter(|(s, _)| !s.is_empty())
                .collect();
            kids.sort_by_key(|(s, _)| (s.start, s.end));
            // Each child against the furthest end reached before it.
            let mut reach: Option<(u64, NodeId)> = None;
            for (s, c) in kids {
                if let Some((end, before)) = reach {
                    if s.start < end {
                        out.push((before, c));
                    }
                }
                if reach.is_none_or(|(end, _)| s.end > end) {
                    reach = Some((s.end, c));
                }
            }
        });
        out
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_clean_decode_is_valid_and_a_broken_tree_is_not() {
        let data = include_bytes!("../../../../static/samples/basic_code_dxil.dxil.dxbc");
        let d = crate::decode_bytes(data.as_slice());
        let len = data.len() as u64;
        d.tree.validate(len).unwrap();
        assert!(d.tree.overlapping_siblings(0).is_empty());
        // The same tree said to come from a longer file: the root no longer spans it.
        let e = d.tree.validate(len + 1).unwrap_err();
        assert!(e.contains("root span"), "{e}");
        assert!(super::node_bound(len) > d.tree.len() as u64);
    }
}
