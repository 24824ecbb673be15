//! The app's one store: the open file, hover, selection, expanded nodes and the
//! cursor, changed only through [`Action`]s.
//!
//! The transitions are plain Rust ([`State::apply`]) so they are unit tested
//! natively; in the browser, `yew::Reducible` wraps them. An action that changes
//! nothing returns the same `Rc`, so Yew skips the re-render (hovering within one
//! field costs nothing).

use crate::doc::Doc;
use crate::outline::{self, Row};
use hexlens_core::NodeId;
use std::rc::Rc;

/// Where a hover or selection came from (the other pane follows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The structure tree.
    Tree,
    /// The hex pane.
    Hex,
    /// Anything else (go to offset, the error list, a breadcrumb).
    Other,
}

/// Loading state of the file slot.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Status {
    /// Nothing is happening.
    #[default]
    Idle,
    /// Reading or fetching the named file.
    Loading(String),
    /// The last load failed (the message is shown as text).
    Failed(String),
}

/// A request for a pane to scroll something into view. `seq` grows on every
/// request so asking twice for the same place still scrolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Reveal {
    /// Request number.
    pub seq: u32,
    /// Byte the hex pane should show.
    pub byte: Option<u64>,
    /// Node the tree pane should show.
    pub node: Option<NodeId>,
}

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

/// Everything that can happen.
#[derive(Debug, Clone)]
pub enum Action {
    /// Reading a file started.
    Loading(String),
    /// Reading a file failed.
    LoadFailed(String),
    /// A decoded file is ready.
    Open(Rc<Doc>),
    /// Pointer over a tree row (`None`: left it).
    HoverNode(Option<NodeId>),
    /// Pointer over a byte (`None`: left the hex pane).
    HoverByte(Option<u64>),
    /// Select a node: expand the tree to it and scroll the other pane(s) to it.
    Select(NodeId, Origin),
    /// Click on a byte: cursor there, select its innermost node.
    ClickByte(u64),
    /// Go to offset: like a click on that byte, scrolling both panes.
    Goto(u64),
    /// Move the hex cursor by a number of bytes (keyboard in the hex pane).
    MoveCursor(i64),
    /// Expand or collapse a node.
    Toggle(NodeId),
    /// A key in the tree view.
    TreeKey(TreeKey),
}

/// The store.
#[derive(Debug, Clone, Default)]
pub struct State {
    /// The open file.
    pub doc: Option<Rc<Doc>>,
    /// Loading / error state.
    pub status: Status,
    /// The hovered node and where the pointer is.
    pub hover: Option<(NodeId, Origin)>,
    /// The selected node (also the tree's focused row).
    pub selected: Option<NodeId>,
    /// Expanded flag per node id.
    pub expanded: Rc<Vec<bool>>,
    /// Visible tree rows for `expanded`.
    pub rows: Rc<Vec<Row>>,
    /// The hex cursor (the inspector reads from here).
    pub cursor: u64,
    /// Pending scroll requests.
    pub reveal: Reveal,
}

impl State {
    /// The state after `action`, or `None` if nothing changed.
    pub fn apply(&self, action: Action) -> Option<State> {
        match action {
            Action::Loading(name) => {
                let mut s = self.clone();
                s.status = Status::Loading(name);
                Some(s)
            }
            Action::LoadFailed(msg) => {
                let mut s = self.clone();
                s.status = Status::Failed(msg);
                Some(s)
            }
            Action::Open(doc) => {
                let doc_root = doc.tree.root();
                let expanded = outline::initial_expanded(&doc.tree);
                let rows = outline::visible_rows(&doc.tree, &expanded);
                Some(State {
                    doc: Some(doc),
                    status: Status::Idle,
                    hover: None,
                    selected: None,
                    expanded: Rc::new(expanded),
                    rows: Rc::new(rows),
                    cursor: 0,
                    reveal: Reveal {
                        seq: self.reveal.seq + 1,
                        byte: Some(0),
                        node: Some(doc_root),
                    },
                })
            }
            Action::HoverNode(id) => {
                let h = id.map(|i| (i, Origin::Tree));
                (h != self.hover).then(|| State {
                    hover: h,
                    ..self.clone()
                })
            }
            Action::HoverByte(b) => {
                let doc = self.doc.as_ref()?;
                let h = b.and_then(|b| doc.index.owner(b)).map(|i| (i, Origin::Hex));
                (h != self.hover).then(|| State {
                    hover: h,
                    ..self.clone()
                })
            }
            Action::Select(id, from) => {
                let doc = self.doc.clone()?;
                if id as usize >= doc.tree.len() {
                    return None;
                }
                let mut s = self.clone();
                s.select(&doc, id);
                s.cursor = doc.shown_range(id).0;
                s.reveal = Reveal {
                    seq: self.reveal.seq + 1,
                    byte: (from != Origin::Hex).then_some(s.cursor),
                    node: Some(id),
                };
                Some(s)
            }
            Action::ClickByte(b) | Action::Goto(b) => {
                let doc = self.doc.clone()?;
                let goto = matches!(action, Action::Goto(_));
                let b = b.min(doc.bytes.len().saturating_sub(1));
                let mut s = self.clone();
                s.cursor = b;
                if let Some(owner) = doc.index.owner(b) {
                    s.select(&doc, owner);
                }
                s.reveal = Reveal {
                    seq: self.reveal.seq + 1,
                    byte: goto.then_some(b),
                    node: s.selected,
                };
                Some(s)
            }
            Action::MoveCursor(delta) => {
                let doc = self.doc.as_ref()?;
                let max = doc.bytes.len().saturating_sub(1);
                let c = if delta < 0 {
                    self.cursor.saturating_sub(delta.unsigned_abs())
                } else {
                    self.cursor.saturating_add(delta as u64).min(max)
                };
                (c != self.cursor).then(|| State {
                    cursor: c,
                    reveal: Reveal {
                        seq: self.reveal.seq + 1,
                        byte: Some(c),
                        node: None,
                    },
                    ..self.clone()
                })
            }
            Action::Toggle(id) => {
                let doc = self.doc.clone()?;
                if doc.tree.node(id).children.is_empty() {
                    return None;
                }
                let mut s = self.clone();
                let e = Rc::make_mut(&mut s.expanded);
                e[id as usize] = !e[id as usize];
                s.rows = Rc::new(outline::visible_rows(&doc.tree, &s.expanded));
                Some(s)
            }
            Action::TreeKey(key) => self.tree_key(key),
        }
    }

    /// Selects `id`, expanding its ancestors.
    fn select(&mut self, doc: &Doc, id: NodeId) {
        self.selected = Some(id);
        let e = Rc::make_mut(&mut self.expanded);
        if outline::expand_to(&doc.tree, e, id) {
            self.rows = Rc::new(outline::visible_rows(&doc.tree, e));
        }
    }

    fn tree_key(&self, key: TreeKey) -> Option<State> {
        let doc = self.doc.clone()?;
        let tree = &doc.tree;
        let rows = &self.rows;
        let last = rows.len().checked_sub(1)?;
        let pos = self.selected.and_then(|id| outline::position(rows, id));
        let Some(pos) = pos else {
            // Nothing focused yet: any key focuses the first row.
            return self.apply(Action::Select(rows[0].id, Origin::Tree));
        };
        let id = rows[pos].id;
        let node = tree.node(id);
        let open = self.expanded.get(id as usize).copied().unwrap_or(false);
        let go = |p: usize| self.apply(Action::Select(rows[p].id, Origin::Tree));
        match key {
            TreeKey::Down => (pos < last).then(|| go(pos + 1)).flatten(),
            TreeKey::Up => (pos > 0).then(|| go(pos - 1)).flatten(),
            TreeKey::Home => (pos != 0).then(|| go(0)).flatten(),
            TreeKey::End => (pos != last).then(|| go(last)).flatten(),
            TreeKey::PageDown(n) => go((pos + n as usize).min(last)),
            TreeKey::PageUp(n) => go(pos.saturating_sub(n as usize)),
            TreeKey::Right if !node.children.is_empty() => {
                if open {
                    go(pos + 1)
                } else {
                    self.apply(Action::Toggle(id))
                }
            }
            TreeKey::Right => None,
            TreeKey::Left => {
                if open && !node.children.is_empty() {
                    self.apply(Action::Toggle(id))
                } else {
                    node.parent
                        .and_then(|p| self.apply(Action::Select(p, Origin::Tree)))
                }
            }
            TreeKey::Enter => self.apply(Action::Toggle(id)),
        }
    }

    /// The node whose bytes the hex pane highlights: the hovered one.
    pub fn hovered(&self) -> Option<NodeId> {
        self.hover.map(|h| h.0)
    }
}

#[cfg(target_arch = "wasm32")]
impl yew::Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match self.apply(action) {
            Some(s) => Rc::new(s),
            None => self,
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::bytes::FileBytes;

    fn open(name: &str) -> State {
        let data = std::fs::read(format!(
            "{}/static/samples/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let doc = Rc::new(Doc::open(FileBytes::new(name, data)));
        State::default().apply(Action::Open(doc)).unwrap()
    }

    #[test]
    fn clicking_a_byte_selects_its_owner_and_expands_the_tree_to_it() {
        let s = open("hs_mismatch_2_code_dxil.dxil.dxbc");
        let doc = s.doc.clone().unwrap();
        let s = s.apply(Action::ClickByte(0x35)).unwrap();
        let sel = s.selected.unwrap();
        let (a, b) = doc.range(sel);
        assert!(a <= 0x35 && 0x35 < b);
        assert!(outline::position(&s.rows, sel).is_some());
        assert_eq!(s.reveal.node, Some(sel));
        assert_eq!(s.cursor, 0x35);
    }

    #[test]
    fn hovering_inside_one_field_changes_nothing() {
        let s = open("hs_mismatch_2_code_dxil.dxil.dxbc");
        let s = s.apply(Action::HoverByte(Some(0))).unwrap();
        assert!(
            s.apply(Action::HoverByte(Some(1))).is_none(),
            "magic is one field"
        );
        assert!(s.apply(Action::HoverByte(None)).is_some());
    }

    #[test]
    fn tree_keys_walk_like_a_native_tree() {
        let s = open("basic_code_dxil.dxil.dxbc");
        let doc = s.doc.clone().unwrap();
        let root = doc.tree.root();
        let s = s.apply(Action::TreeKey(TreeKey::Down)).unwrap();
        assert_eq!(s.selected, Some(root));
        let s = s.apply(Action::TreeKey(TreeKey::Down)).unwrap();
        let header = doc.tree.find("Header").unwrap();
        assert_eq!(s.selected, Some(header));
        // Left on an open node collapses it, Left again goes to the parent.
        let s = s.apply(Action::TreeKey(TreeKey::Left)).unwrap();
        assert!(!s.expanded[header as usize]);
        let s2 = s.apply(Action::TreeKey(TreeKey::Left)).unwrap();
        assert_eq!(s2.selected, Some(root));
        // Right expands, Right again enters the first child.
        let s = s.apply(Action::TreeKey(TreeKey::Right)).unwrap();
        assert!(s.expanded[header as usize]);
        let s = s.apply(Action::TreeKey(TreeKey::Right)).unwrap();
        assert_eq!(s.selected, doc.tree.find("Header/Magic"));
        let s = s.apply(Action::TreeKey(TreeKey::End)).unwrap();
        assert_eq!(s.selected, Some(s.rows.last().unwrap().id));
        let s = s.apply(Action::TreeKey(TreeKey::Home)).unwrap();
        assert_eq!(s.selected, Some(root));
        assert!(s.apply(Action::TreeKey(TreeKey::Up)).is_none());
    }

    #[test]
    fn goto_clamps_to_the_file_and_reveals_both_panes() {
        let s = open("embedded_rs_vs_space0_code_dxbc.dxbc");
        let s = s.apply(Action::Goto(1 << 40)).unwrap();
        assert_eq!(s.cursor, 455);
        assert_eq!(s.reveal.byte, Some(455));
        assert!(s.reveal.node.is_some());
    }
}
