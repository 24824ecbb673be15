//! The tree pane's model: which nodes are expanded and the flat list of visible
//! rows that the virtualised tree view renders.

use hexlens_core::{NodeId, Tree};

/// One visible row of the tree pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The node shown.
    pub id: NodeId,
    /// Nesting depth (the root is 0).
    pub depth: u32,
}

/// The expansion state for a fresh file: the root and its direct group children
/// open, so the top-level structure (a container's header and parts) shows at once.
pub fn initial_expanded(tree: &Tree) -> Vec<bool> {
    let mut e = vec![false; tree.len()];
    let root = tree.root();
    e[root as usize] = true;
    for &c in &tree.node(root).children {
        // Lazy nodes stay closed: opening one asks the decoder for its children.
        if tree.node(c).kind.is_group() && !tree.node(c).lazy {
            e[c as usize] = true;
        }
    }
    e
}

/// Rows shown for the expansion state `expanded` (depth first, parents first).
pub fn visible_rows(tree: &Tree, expanded: &[bool]) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut stack = vec![(tree.root(), 0u32)];
    while let Some((id, depth)) = stack.pop() {
        rows.push(Row { id, depth });
        if expanded.get(id as usize).copied().unwrap_or(false) {
            for &c in tree.node(id).children.iter().rev() {
                stack.push((c, depth + 1));
            }
        }
    }
    rows
}

/// Marks every ancestor of `id` expanded; true if anything changed.
pub fn expand_to(tree: &Tree, expanded: &mut [bool], id: NodeId) -> bool {
    let mut changed = false;
    let mut cur = tree.node(id).parent;
    while let Some(p) = cur {
        if let Some(e) = expanded.get_mut(p as usize) {
            changed |= !*e;
            *e = true;
        }
        cur = tree.node(p).parent;
    }
    changed
}

/// The row that shows `id`: the node itself if all its ancestors are expanded,
/// else its outermost collapsed ancestor (the row a hovered byte's owner hides in).
pub fn shown_as(tree: &Tree, expanded: &[bool], id: NodeId) -> NodeId {
    let mut chain = vec![id];
    let mut cur = tree.node(id).parent;
    while let Some(p) = cur {
        chain.push(p);
        cur = tree.node(p).parent;
    }
    // From the root down, stop at the first node that is not expanded.
    let mut shown = tree.root();
    for &n in chain.iter().rev() {
        shown = n;
        if !expanded.get(n as usize).copied().unwrap_or(false) {
            break;
        }
    }
    shown
}

/// Position of `id` among `rows`.
pub fn position(rows: &[Row], id: NodeId) -> Option<usize> {
    rows.iter().position(|r| r.id == id)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn expanding_to_a_leaf_shows_it() {
        let data = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/static/samples/basic_code_dxil.dxil.dxbc"
        ))
        .unwrap();
        let d = hexlens_core::decode_bytes(&data);
        let t = &d.tree;
        let mut e = initial_expanded(t);
        let rows = visible_rows(t, &e);
        assert_eq!(rows[0].id, t.root());
        let parts = t.find("Parts").unwrap();
        assert!(position(&rows, parts).is_some());
        let deep = t.find("Parts/[0]/Name").unwrap();
        assert!(position(&rows, deep).is_none());
        assert!(expand_to(t, &mut e, deep));
        let rows = visible_rows(t, &e);
        let p = position(&rows, deep).unwrap();
        assert_eq!(rows[p].depth, 3);
        assert!(!expand_to(t, &mut e, deep));
        assert_eq!(shown_as(t, &e, deep), deep);
        let part = t.find("Parts/[1]").unwrap();
        let inner = t.find("Parts/[1]/Name").unwrap();
        assert_eq!(shown_as(t, &initial_expanded(t), inner), part);
    }
}
