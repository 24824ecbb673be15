//! The tree slice: the nodes open in the tree pane, and the worker's latest
//! rows (the tree pane's window) and field boxes (the hex pane's window).

use hexlens_core::protocol::{Boxes, NodeInfo, Request, Rows};
use hexlens_core::NodeId;
use std::rc::Rc;

/// Tree-view keys (WAI-ARIA tree view pattern).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeKey {
    /// Next visible row.
    Down,
    /// Previous visible row.
    Up,
    /// Expand, or go to the first child.
    Right,
    /// Collapse, or go to the parent.
    Left,
    /// First row.
    Home,
    /// Last row.
    End,
    /// Toggle expansion.
    Enter,
    /// Rows up.
    PageUp(u32),
    /// Rows down.
    PageDown(u32),
}

/// Field boxes are asked for in blocks of this many bytes.
pub const BOX_BLOCK: u64 = 1024;

/// The nodes open in the tree pane: a sorted list (a few hundred at most in
/// practice; a set type would cost the page's module more code than it saves).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenSet(Vec<NodeId>);

impl OpenSet {
    /// True if `id` is open.
    pub fn contains(&self, id: &NodeId) -> bool {
        self.0.binary_search(id).is_ok()
    }

    /// Opens `id`; false if it was open.
    pub fn insert(&mut self, id: NodeId) -> bool {
        match self.0.binary_search(&id) {
            Ok(_) => false,
            Err(i) => {
                self.0.insert(i, id);
                true
            }
        }
    }

    /// Closes `id`; false if it was closed.
    pub fn remove(&mut self, id: &NodeId) -> bool {
        match self.0.binary_search(id) {
            Ok(i) => {
                self.0.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    /// The open nodes, in id order.
    pub fn iter(&self) -> impl Iterator<Item = &NodeId> {
        self.0.iter()
    }
}

impl FromIterator<NodeId> for OpenSet {
    fn from_iter<I: IntoIterator<Item = NodeId>>(it: I) -> Self {
        // Ids arrive in order (the worker's open set is sorted): each is pushed,
        // and one out of order is put in its place. No sort is linked into the
        // page for this.
        let mut v: Vec<NodeId> = Vec::new();
        for id in it {
            match v.last() {
                Some(&last) if last >= id => {
                    if let Err(at) = v.binary_search(&id) {
                        v.insert(at, id);
                    }
                }
                _ => v.push(id),
            }
        }
        OpenSet(v)
    }
}

/// The latest rows answer and how far the tree was decoded when it was made.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowCache {
    /// Decoding version of the answer.
    pub version: u32,
    /// The rows.
    pub rows: Rows,
}

/// The latest field boxes answer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoxCache {
    /// Decoding version of the answer.
    pub version: u32,
    /// The boxes.
    pub boxes: Boxes,
}

/// What the tree pane shows and what the page holds of the worker's tree.
#[derive(Debug, Clone, Default)]
pub struct TreeState {
    /// Nodes open in the tree pane.
    pub open: Rc<OpenSet>,
    /// Grows with every change of `open`.
    pub gen: u32,
    /// Rows of the tree pane around its window.
    pub rows: Rc<RowCache>,
    /// Field boxes around the hex pane's window.
    pub boxes: Rc<BoxCache>,
    /// A node whose row position was asked for.
    pub finding: Option<NodeId>,
    /// A row a key moved to that was not among the rows held.
    pub want_row: Option<u64>,
    /// Tree keys pressed while the rows held were out of date (after a
    /// toggle): replayed when the fresh rows land.
    pub keys: Rc<Vec<TreeKey>>,
    /// Paths of the nodes a restored place opens, while the worker finds them.
    pub restore_open: Option<Rc<Vec<String>>>,
    /// The paths of the open set (a link holds them) and the generation of
    /// the open set they are of ([`TreeState::gen`]).
    pub open_paths: Option<(u32, Rc<Vec<String>>)>,
}

/// What happens in the tree pane.
#[derive(Debug, Clone)]
pub enum TreeAction {
    /// Expand or collapse a node.
    Toggle(NodeId),
    /// A key in the tree view (it moves the selection too: the store's
    /// top-level apply carries it out).
    Key(TreeKey),
}

impl TreeState {
    /// The slice after `action`, or `None` if nothing changed. Whether a node
    /// can be opened at all (it has children, the tree is decoded) is the
    /// store's to say; keys move the selection, so the store handles them.
    pub fn apply(&self, action: TreeAction) -> Option<TreeState> {
        match action {
            TreeAction::Toggle(id) => {
                let mut t = self.clone();
                let open = Rc::make_mut(&mut t.open);
                if !open.remove(&id) {
                    open.insert(id);
                }
                t.gen += 1;
                Some(t)
            }
            TreeAction::Key(_) => None,
        }
    }

    /// True if the rows held follow the current open set and the tree as of
    /// decoding `version`.
    pub fn fresh(&self, version: u32) -> bool {
        self.rows.rows.gen == self.gen && self.rows.version == version
    }

    /// Position of `id` among the rows held, or as the worker last found it
    /// (if the rows are fresh).
    pub fn row_of(&self, id: NodeId, version: u32) -> Option<u64> {
        if !self.fresh(version) {
            return None;
        }
        let r = &self.rows.rows;
        r.position(id).or(match r.found {
            Some((f, Some(pos))) if f == id => Some(pos),
            _ => None,
        })
    }

    /// Marks `ids` open (a new generation of the open set if that changed it).
    pub fn open_all(&mut self, ids: impl IntoIterator<Item = NodeId>) {
        let mut changed = false;
        for id in ids {
            if !self.open.contains(&id) {
                Rc::make_mut(&mut self.open).insert(id);
                changed = true;
            }
        }
        if changed {
            self.gen += 1;
        }
    }

    /// What the tree pane needs to show rows `[first, first + count)`, given
    /// the tree as of decoding `version`.
    pub fn rows_wanted(&self, first: u64, count: u64, version: u32) -> Option<Request> {
        let r = &self.rows.rows;
        let covered = self.fresh(version)
            && r.first <= first
            && (first + count <= r.first + r.rows.len() as u64
                || r.first + r.rows.len() as u64 >= r.total);
        if covered && self.finding.is_none() {
            return None;
        }
        let count = count.max(16);
        Some(Request::Rows {
            gen: self.gen,
            open: self.open.iter().copied().collect(),
            first: first.saturating_sub(count),
            count: count * 3,
            find: self.finding,
        })
    }

    /// What the hex pane needs to tint bytes `[start, end)` of a file of
    /// `size` bytes, given the tree as of decoding `version`.
    pub fn boxes_wanted(&self, start: u64, end: u64, size: u64, version: u32) -> Option<Request> {
        let end = end.min(size);
        let b = &self.boxes;
        if start >= end || (b.version == version && b.boxes.start <= start && end <= b.boxes.end) {
            return None;
        }
        Some(Request::Boxes {
            start: (start / BOX_BLOCK).saturating_sub(1) * BOX_BLOCK,
            end: ((end / BOX_BLOCK + 2) * BOX_BLOCK).min(size),
        })
    }

    /// The row that shows node `info`: the node itself if all its ancestors
    /// are open, else its outermost closed ancestor (the row a hovered byte's
    /// owner hides in).
    pub fn shown_as(&self, info: &NodeInfo) -> NodeId {
        for &(c, _) in &info.crumbs {
            if !self.open.contains(&c) {
                return c;
            }
        }
        info.id
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use crate::state::rig::*;
    use crate::state::*;

    #[test]
    fn open_sets_are_sorted_and_without_repeats_whatever_the_order_given() {
        let ids = |s: &OpenSet| s.iter().copied().collect::<Vec<_>>();
        let s: OpenSet = [5, 1, 3, 3, 9, 1, 0].into_iter().collect();
        assert_eq!(ids(&s), [0, 1, 3, 5, 9]);
        let s: OpenSet = (0..1000).collect();
        assert_eq!(ids(&s), (0..1000).collect::<Vec<_>>());
        assert!(s.contains(&999) && !s.contains(&1000));
    }

    #[test]
    fn a_selected_row_far_away_is_revealed_whatever_answers_come_between() {
        let data = sample("hs_mismatch_2_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data, None);
        // Open groups until the tree is several screens long.
        while r.s.tree.rows.rows.total < 300 {
            let rows = &r.s.tree.rows.rows;
            let shut = rows
                .rows
                .iter()
                .find(|n| n.has_kids() && !r.s.tree.open.contains(&n.id));
            match shut {
                Some(n) => {
                    let id = n.id;
                    r.act(TreeAction::Toggle(id));
                }
                None => {
                    assert!(
                        rows.first + (rows.rows.len() as u64) < rows.total,
                        "a closed group"
                    );
                    // The user scrolls down (away from the last reveal).
                    r.s.cursor.reveal.row = None;
                    r.tree_first += 40;
                    r.settle();
                }
            }
        }
        let pos = r.s.tree.rows.rows.total - 1;
        r.s.cursor.reveal.row = None;
        r.tree_first = pos - 10;
        r.settle();
        let far = r.s.tree.rows.rows.at(pos).expect("the last row, held").id;
        r.act(CursorAction::Select(far, Origin::Tree));
        // Back to the top: the selected row is no longer held.
        r.s.cursor.reveal.row = None;
        r.tree_first = 0;
        r.settle();
        assert!(!r.shown(far));
        // Rows the tree pane asked for while scrolling, still on their way
        // when the node is selected again (its ancestors open: same open set).
        let scroll = r.w.answer(&Request::Rows {
            gen: r.s.tree.gen,
            open: r.s.tree.open.iter().copied().collect(),
            first: 0,
            count: 48,
            find: None,
        });
        r.s =
            r.s.apply(CursorAction::Select(far, Origin::Other).into())
                .unwrap();
        assert_eq!(r.s.tree.finding, Some(far), "its row is sought");
        r.feed(&scroll);
        assert_eq!(
            r.s.tree.finding,
            Some(far),
            "still sought after the scroll's rows"
        );
        // The worker says where it is; before the pane has scrolled there, the
        // node is selected once more (a structure match's path resolved): its
        // place is known, so the reveal stands and nothing is sought again.
        let ask =
            r.s.tree_wants(r.tree_first, 40)
                .expect("its row is asked for");
        let answer = r.w.answer(&ask);
        r.feed(&answer);
        assert_eq!((r.s.tree.finding, r.s.cursor.reveal.row), (None, Some(pos)));
        let info = r.s.known(far).unwrap();
        r.s.focus(&info, Origin::Other, None);
        assert_eq!((r.s.tree.finding, r.s.cursor.reveal.row), (None, Some(pos)));
        r.settle();
        assert_eq!(r.s.cursor.reveal.row, Some(pos));
        assert!(r.shown(far), "the tree scrolled to it");
    }

    #[test]
    fn tree_keys_walk_like_a_native_tree() {
        let mut r = Rig::new(sample("basic_code_dxil.dxil.dxbc"), None);
        let t = r.w.tree();
        let root = t.root();
        let header = t.find("Header").unwrap();
        let magic = t.find("Header/Magic").unwrap();
        r.act(TreeAction::Key(TreeKey::Down));
        assert_eq!(r.s.cursor.selected, Some(root));
        r.act(TreeAction::Key(TreeKey::Down));
        assert_eq!(r.s.cursor.selected, Some(header));
        // Left on an open node collapses it, Left again goes to the parent.
        r.act(TreeAction::Key(TreeKey::Left));
        assert!(!r.s.tree.open.contains(&header));
        assert!(!r.shown(magic));
        r.act(TreeAction::Key(TreeKey::Left));
        assert_eq!(r.s.cursor.selected, Some(root));
        r.act(TreeAction::Key(TreeKey::Down));
        // Right expands, Right again enters the first child.
        r.act(TreeAction::Key(TreeKey::Right));
        assert!(r.s.tree.open.contains(&header));
        r.act(TreeAction::Key(TreeKey::Right));
        assert_eq!(r.s.cursor.selected, Some(magic));
        // A key pressed before the rows of a toggle arrive waits for them
        // when it moves by rows; opening and closing act at once.
        r.act(TreeAction::Key(TreeKey::Left));
        let closed = r.s.apply(TreeAction::Key(TreeKey::Enter).into()).unwrap();
        assert!(!closed.tree.open.contains(&header) && closed.tree.keys.is_empty());
        let reopened = closed
            .apply(TreeAction::Key(TreeKey::Enter).into())
            .unwrap();
        assert!(reopened.tree.open.contains(&header) && reopened.tree.keys.is_empty());
        let stale = r.s.apply(TreeAction::Toggle(header).into()).unwrap();
        let stale = stale.apply(TreeAction::Key(TreeKey::Down).into()).unwrap();
        assert_eq!(stale.cursor.selected, Some(header), "not moved yet");
        r.s = stale;
        r.settle();
        assert!(r.s.tree.keys.is_empty());
        assert_ne!(
            r.s.cursor.selected,
            Some(header),
            "moved once the rows came"
        );
        r.act(CursorAction::Select(magic, Origin::Tree));
        r.act(TreeAction::Key(TreeKey::End));
        let last = r.s.tree.rows.rows.total - 1;
        assert_eq!(r.s.row_of(r.s.cursor.selected.unwrap()), Some(last));
        r.act(TreeAction::Key(TreeKey::Home));
        assert_eq!(r.s.cursor.selected, Some(root));
        assert!(!r.act(TreeAction::Key(TreeKey::Up)));
    }

    #[test]
    fn opening_a_lazy_node_asks_for_it_and_shows_its_children() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let opts = hexlens_core::Options {
            lazy_threshold: Some(64),
            ..Default::default()
        };
        let tree = hexlens_core::decode_with(&data.as_slice(), &opts).tree;
        let mut r = Rig::new(data, Some(tree));
        let t = r.w.tree();
        let lazy = (0..t.len() as NodeId)
            .find(|&i| t.is_lazy(i) && t.parent(i) != Some(t.root()))
            .expect("a 64-byte threshold leaves lazy groups below the top");
        assert!(!r.shown(lazy));
        // Selecting a node the page knows nothing of asks for it, then opens
        // the tree down to it.
        r.act(CursorAction::Select(lazy, Origin::Other));
        assert!(r.shown(lazy));
        let row = r.s.cursor.details.clone().unwrap();
        assert!(row.lazy);
        let before = r.s.load.version.nodes;
        r.act(CursorAction::Select(row.id, Origin::Tree));
        r.act(TreeAction::Toggle(row.id));
        assert!(r.s.load.version.nodes > before, "the worker decoded it");
        let pos = r.s.row_of(row.id).unwrap();
        let now = r.s.tree.rows.rows.at(pos).unwrap();
        assert!(!now.lazy && now.children > 0);
        let child = r.s.tree.rows.rows.at(pos + 1).unwrap();
        assert_eq!(child.parent, Some(row.id));
    }

    #[test]
    fn a_long_list_is_walked_a_window_at_a_time() {
        // Rows far down a long list arrive when the pane scrolls there; a key
        // that leaves the rows held waits for them.
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data, None);
        // Open everything: many more rows than a window.
        let all: Vec<NodeId> = (0..r.w.tree().len() as NodeId).collect();
        r.s.tree.open = Rc::new(all.into_iter().collect());
        r.s.tree.gen += 1;
        r.settle();
        let total = r.s.tree.rows.rows.total;
        assert!(total > 400, "{total}");
        assert!(
            (r.s.tree.rows.rows.rows.len() as u64) < total,
            "only a window is held"
        );
        let asked = r.asked;
        r.act(TreeAction::Key(TreeKey::Down));
        r.act(TreeAction::Key(TreeKey::End));
        assert_eq!(r.s.row_of(r.s.cursor.selected.unwrap()), Some(total - 1));
        assert!(r.asked > asked);
        r.act(TreeAction::Key(TreeKey::PageUp(30)));
        assert_eq!(r.s.row_of(r.s.cursor.selected.unwrap()), Some(total - 31));
        // Keys pressed while the focus waits for a row not held yet count
        // from that row, not from where the focus was.
        r.act(TreeAction::Key(TreeKey::Home));
        let mut s = r.s.clone();
        for _ in 0..3 {
            s = s
                .apply(TreeAction::Key(TreeKey::PageDown(150)).into())
                .unwrap();
        }
        r.s = s;
        r.settle();
        assert_eq!(r.s.row_of(r.s.cursor.selected.unwrap()), Some(450));
    }

    #[test]
    fn the_open_set_goes_into_a_link_by_its_paths_and_comes_back_from_it() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data.clone(), None);
        // Open a part and a lazy block inside another: their paths are known
        // for the open set's generation.
        let eager = hexlens_core::decode_bytes(&data);
        let want = ["Parts/[1]", "Parts/[4]/Program/DXIL/Blocks/[0]"];
        for p in want {
            r.act(CursorAction::Restore {
                sha: String::new(),
                path: Some(p.into()),
                at: None,
                open: Vec::new(),
            });
            let id = r.s.cursor.selected.unwrap();
            if !r.s.tree.open.contains(&id) {
                r.act(TreeAction::Toggle(id));
            }
        }
        let (gen, paths) = r.s.tree.open_paths.clone().unwrap();
        assert_eq!(gen, r.s.tree.gen);
        for p in want {
            assert!(paths.iter().any(|q| q == p), "{p} in {paths:?}");
        }
        assert!(paths.iter().all(|p| eager.tree.find(p).is_some()));
        // A new view of the same file, given those paths, opens those nodes.
        let mut fresh = Rig::new(data, None);
        fresh.act(CursorAction::Restore {
            sha: String::new(),
            path: Some(want[1].into()),
            at: None,
            open: (*paths).clone(),
        });
        assert!(fresh.s.tree.restore_open.is_none());
        let (_, again) = fresh.s.tree.open_paths.clone().unwrap();
        let mut a = (*again).clone();
        let mut b = (*paths).clone();
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }
}
