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
    /// The decoder is working: bytes read so far out of the file's size.
    Decoding {
        /// Bytes read.
        done: u64,
        /// File size.
        total: u64,
    },
    /// The user stopped the decoder; the bytes are shown without structure.
    Cancelled,
    /// The last load failed (the message is shown as text).
    Failed(String),
    /// The decoder crashed; the bytes are still shown (the message is text).
    Crashed(String),
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
    /// A file is open: decoded already, or pending (then the decoder reports back
    /// through the actions below, tagged with the doc's `load`).
    Open(Rc<Doc>),
    /// The decoder has read `done` of `total` bytes.
    Progress {
        /// Which load.
        load: u32,
        /// Bytes read.
        done: u64,
        /// File size.
        total: u64,
    },
    /// The decoder finished: the tree in wire form.
    Decoded {
        /// Which load.
        load: u32,
        /// The decoder that recognised the file, or `raw`.
        format: String,
        /// Nodes in [`hexlens_core::wire`] form.
        nodes: Rc<[u8]>,
    },
    /// A lazy node was decoded: its new self, then its new descendants (wire form).
    Expanded {
        /// Which load.
        load: u32,
        /// The node.
        node: NodeId,
        /// Nodes in [`hexlens_core::wire`] form.
        nodes: Rc<[u8]>,
    },
    /// The decoder could not do what was asked.
    DecodeFailed {
        /// Which load.
        load: u32,
        /// Why (shown as text).
        message: String,
    },
    /// The decoder crashed (shown as text); the bytes stay on screen.
    Crashed(String),
    /// The user stopped decoding.
    Cancel,
    /// Requested file bytes arrived: redraw what shows bytes.
    BytesArrived,
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
    /// Grows whenever file bytes arrive (rows that waited for them redraw).
    pub bytes_epoch: u32,
    /// Lazy nodes whose children have been asked for (per load).
    pub expanding: Rc<Vec<NodeId>>,
    /// A byte being revealed: a click or go-to landed in a group not decoded
    /// yet, which was asked for; when it arrives, the byte's innermost owner in
    /// it is selected (and opened in turn if it is a small lazy group).
    pub seek: Option<u64>,
}

/// A click or go-to opens the lazy group it lands in when the group spans at
/// most this many bytes, or is a page; a bigger group is selected and waits
/// for the user to open it (decoding it may mean reading all of it).
pub const SEEK_OPEN_BYTES: u64 = 16 << 20;

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
                let status = if doc.decoded {
                    Status::Idle
                } else {
                    Status::Decoding {
                        done: 0,
                        total: doc.bytes.len(),
                    }
                };
                Some(State {
                    doc: Some(doc),
                    status,
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
                    bytes_epoch: self.bytes_epoch,
                    expanding: Rc::default(),
                    seek: None,
                })
            }
            Action::Progress { load, done, total } => {
                let doc = self.doc.as_ref()?;
                if doc.load != load
                    || doc.decoded
                    || !matches!(self.status, Status::Decoding { .. })
                {
                    return None;
                }
                Some(State {
                    status: Status::Decoding { done, total },
                    ..self.clone()
                })
            }
            Action::Decoded {
                load,
                format,
                nodes,
            } => {
                let doc = self.doc.clone()?;
                if doc.load != load || doc.decoded {
                    return None;
                }
                let tree = hexlens_core::wire::decode_nodes(&nodes)
                    .and_then(hexlens_core::Tree::from_nodes);
                let mut s = self.clone();
                match tree {
                    Ok(tree) => {
                        let doc = Rc::new(Doc::new(doc.bytes.clone(), load, &format, tree));
                        let expanded = outline::initial_expanded(&doc.tree);
                        s.rows = Rc::new(outline::visible_rows(&doc.tree, &expanded));
                        s.expanded = Rc::new(expanded);
                        s.hover = None;
                        s.selected = None;
                        s.status = Status::Idle;
                        s.reveal = Reveal {
                            seq: self.reveal.seq + 1,
                            byte: None,
                            node: Some(doc.tree.root()),
                        };
                        s.doc = Some(doc);
                    }
                    Err(e) => {
                        s.status = Status::Failed(format!("the decoder's answer was damaged: {e}"))
                    }
                }
                Some(s)
            }
            Action::Expanded { load, node, nodes } => {
                let doc = self.doc.clone()?;
                if doc.load != load || !doc.decoded {
                    return None;
                }
                let mut s = self.clone();
                Rc::make_mut(&mut s.expanding).retain(|&n| n != node);
                let new_doc =
                    hexlens_core::wire::decode_nodes(&nodes).and_then(|n| doc.expanded(node, n));
                match new_doc {
                    Ok(d) => {
                        let e = Rc::make_mut(&mut s.expanded);
                        e.resize(d.tree.len(), false);
                        s.rows = Rc::new(outline::visible_rows(&d.tree, e));
                        let d = Rc::new(d);
                        s.doc = Some(d.clone());
                        if let Some(b) = s.seek {
                            if let Some(owner) = s.land(&d, b) {
                                s.reveal = Reveal {
                                    seq: self.reveal.seq + 1,
                                    byte: None,
                                    node: Some(owner),
                                };
                            }
                        }
                    }
                    Err(e) => s.status = Status::Failed(format!("could not decode that part: {e}")),
                }
                Some(s)
            }
            Action::DecodeFailed { load, message } => {
                let doc = self.doc.as_ref()?;
                if doc.load != load {
                    return None;
                }
                let mut s = self.clone();
                s.expanding = Rc::default();
                s.seek = None;
                s.status = Status::Failed(message);
                Some(s)
            }
            Action::Crashed(message) => {
                let mut s = self.clone();
                s.expanding = Rc::default();
                s.seek = None;
                s.status = Status::Crashed(message);
                Some(s)
            }
            Action::Cancel => {
                let doc = self.doc.as_ref()?;
                if doc.decoded {
                    return None;
                }
                Some(State {
                    status: Status::Cancelled,
                    ..self.clone()
                })
            }
            Action::BytesArrived => Some(State {
                bytes_epoch: self.bytes_epoch.wrapping_add(1),
                ..self.clone()
            }),
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
                s.land(&doc, b);
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
                let n = doc.tree.node(id);
                if n.children.is_empty() && !n.lazy {
                    return None;
                }
                let mut s = self.clone();
                let e = Rc::make_mut(&mut s.expanded);
                e[id as usize] = !e[id as usize];
                if n.lazy && e[id as usize] && !s.expanding.contains(&id) {
                    Rc::make_mut(&mut s.expanding).push(id);
                }
                s.rows = Rc::new(outline::visible_rows(&doc.tree, &s.expanded));
                Some(s)
            }
            Action::TreeKey(key) => self.tree_key(key),
        }
    }

    /// Selects the innermost node owning byte `b` and returns it. If that is a
    /// lazy group a click may open (see [`SEEK_OPEN_BYTES`]), asks for it and
    /// keeps seeking `b`; otherwise the seek ends there.
    fn land(&mut self, doc: &Doc, b: u64) -> Option<NodeId> {
        self.seek = None;
        let owner = doc.index.owner(b)?;
        self.select(doc, owner);
        let t = &doc.tree;
        let small = t.is_page(owner) || t.open_cost(owner) <= SEEK_OPEN_BYTES;
        if t.is_lazy(owner) && small {
            self.seek = Some(b);
            let e = Rc::make_mut(&mut self.expanded);
            if !e[owner as usize] {
                e[owner as usize] = true;
                self.rows = Rc::new(outline::visible_rows(t, e));
            }
            if !self.expanding.contains(&owner) {
                Rc::make_mut(&mut self.expanding).push(owner);
            }
        }
        Some(owner)
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
            TreeKey::Right if !node.children.is_empty() || node.lazy => {
                if open {
                    (pos < last).then(|| go(pos + 1)).flatten()
                } else {
                    self.apply(Action::Toggle(id))
                }
            }
            TreeKey::Right => None,
            TreeKey::Left => {
                if open && (!node.children.is_empty() || node.lazy) {
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
        let doc = Rc::new(Doc::open(FileBytes::new(name, sample(name))));
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

    fn json(t: &hexlens_core::Tree) -> String {
        hexlens_core::output::to_json(&hexlens_core::Decoded {
            format: "x",
            file_size: 0,
            tree: t.clone(),
        })
    }

    fn sample(name: &str) -> Vec<u8> {
        std::fs::read(format!(
            "{}/static/samples/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    /// The store once the decoder answered load `load` of `data` with `tree`.
    fn decoded(data: &[u8], tree: &hexlens_core::Tree, load: u32) -> State {
        let wire: Rc<[u8]> = hexlens_core::wire::encode_nodes(&tree.nodes()).into();
        State::default()
            .apply(Action::Open(Rc::new(Doc::pending(
                Rc::new(FileBytes::new("f", data.to_vec())),
                load,
            ))))
            .unwrap()
            .apply(Action::Decoded {
                load,
                format: "dxcontainer".into(),
                nodes: wire,
            })
            .unwrap()
    }

    /// What the worker sends after expanding lazy node `id` of its `tree`: the
    /// node's new self, then the nodes it gained.
    fn expansion(data: &[u8], tree: &mut hexlens_core::Tree, id: NodeId) -> Rc<[u8]> {
        let range = hexlens_core::expand(&data, tree, id).unwrap();
        let mut sent = vec![tree.node(id)];
        sent.extend(tree.nodes_in(range));
        hexlens_core::wire::encode_nodes(&sent).into()
    }

    /// The worker's side of a load, natively: decode, then send the wire form.
    #[test]
    fn a_pending_file_becomes_the_decoded_tree_the_worker_sends() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let bytes = Rc::new(FileBytes::new("f", data.clone()));
        let s = State::default()
            .apply(Action::Open(Rc::new(Doc::pending(bytes, 7))))
            .unwrap();
        assert!(matches!(s.status, Status::Decoding { done: 0, .. }));
        assert!(!s.doc.as_ref().unwrap().decoded);
        assert!(
            !s.doc.as_ref().unwrap().is_raw(),
            "not called raw before decoding"
        );
        let s = s
            .apply(Action::Progress {
                load: 7,
                done: 100,
                total: data.len() as u64,
            })
            .unwrap();
        assert_eq!(
            s.status,
            Status::Decoding {
                done: 100,
                total: data.len() as u64
            }
        );
        // Reports about another load change nothing.
        assert!(s
            .apply(Action::Progress {
                load: 6,
                done: 5,
                total: 9
            })
            .is_none());
        let d = hexlens_core::decode_bytes(&data);
        let wire: Rc<[u8]> = hexlens_core::wire::encode_nodes(&d.tree.nodes()).into();
        let stale = Action::Decoded {
            load: 6,
            format: d.format.into(),
            nodes: wire.clone(),
        };
        assert!(s.apply(stale).is_none());
        let s = s
            .apply(Action::Decoded {
                load: 7,
                format: d.format.into(),
                nodes: wire.clone(),
            })
            .unwrap();
        let doc = s.doc.clone().unwrap();
        assert!(doc.decoded);
        assert_eq!(s.status, Status::Idle);
        assert_eq!(doc.format, "dxcontainer");
        assert_eq!(doc.tree.len(), d.tree.len());
        assert_eq!(json(&doc.tree), json(&d.tree));
        // A second answer for the same load is ignored.
        assert!(s
            .apply(Action::Decoded {
                load: 7,
                format: "raw".into(),
                nodes: wire
            })
            .is_none());
        // Damaged wire data is an error banner, not a panic.
        let s2 = State::default()
            .apply(Action::Open(Rc::new(Doc::pending(
                Rc::new(FileBytes::new("g", data)),
                8,
            ))))
            .unwrap()
            .apply(Action::Decoded {
                load: 8,
                format: "raw".into(),
                nodes: vec![1, 2, 3].into(),
            })
            .unwrap();
        assert!(matches!(s2.status, Status::Failed(_)));
        assert!(s2.doc.is_some(), "the bytes stay open");
    }

    #[test]
    fn opening_a_lazy_node_asks_for_it_and_mirrors_the_expansion() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let opts = hexlens_core::Options {
            lazy_threshold: Some(64),
            ..Default::default()
        };
        let mut worker_tree = hexlens_core::decode_with(&data.as_slice(), &opts).tree;
        let lazy = (0..worker_tree.len() as NodeId)
            .find(|&i| worker_tree.node(i).lazy)
            .expect("a 64-byte threshold leaves lazy blocks");
        let s = decoded(&data, &worker_tree, 3);
        let s = s.apply(Action::Select(lazy, Origin::Tree)).unwrap();
        let s = s.apply(Action::Toggle(lazy)).unwrap();
        assert_eq!(
            *s.expanding,
            vec![lazy],
            "opening a lazy node asks the decoder"
        );
        // The worker expands and sends the node and what it gained.
        let nodes = expansion(&data, &mut worker_tree, lazy);
        let s = s
            .apply(Action::Expanded {
                load: 3,
                node: lazy,
                nodes,
            })
            .unwrap();
        assert!(s.expanding.is_empty());
        let doc = s.doc.clone().unwrap();
        assert_eq!(doc.tree.len(), worker_tree.len());
        assert!(!doc.tree.node(lazy).lazy);
        assert_eq!(json(&doc.tree), json(&worker_tree));
        assert_eq!(s.expanded.len(), doc.tree.len());
        let first_child = doc.tree.node(lazy).children[0];
        assert!(
            outline::position(&s.rows, first_child).is_some(),
            "its children show at once"
        );
    }

    #[test]
    fn goto_clamps_to_the_file_and_reveals_both_panes() {
        let s = open("embedded_rs_vs_space0_code_dxbc.dxbc");
        let s = s.apply(Action::Goto(1 << 40)).unwrap();
        assert_eq!(s.cursor, 455);
        assert_eq!(s.reveal.byte, Some(455));
        assert!(s.reveal.node.is_some());
    }

    #[test]
    fn a_click_in_a_group_not_decoded_yet_opens_it_down_to_the_byte() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let src = data.as_slice();
        let mut worker_tree =
            hexlens_core::decode_with(&src, &hexlens_core::view::viewer_options()).tree;
        let mut s = decoded(&data, &worker_tree, 4);
        // A byte of an operand deep in the DXIL part's bitcode.
        let eager = Doc::open(FileBytes::new("e", data.clone()));
        let b = data.len() as u64 - 40;
        let want = eager.tree.path(eager.index.owner(b).unwrap());
        s = s.apply(Action::ClickByte(b)).unwrap();
        assert_eq!(s.seek, Some(b), "the click landed in a lazy group");
        let mut rounds = 0;
        while let Some(&id) = s.expanding.first() {
            rounds += 1;
            assert!(rounds < 20, "the seek ends");
            let nodes = expansion(&data, &mut worker_tree, id);
            s = s
                .apply(Action::Expanded {
                    load: 4,
                    node: id,
                    nodes,
                })
                .unwrap();
        }
        assert!(
            rounds >= 2,
            "it went through more than one group ({rounds})"
        );
        assert_eq!(s.seek, None);
        let doc = s.doc.clone().unwrap();
        let sel = s.selected.unwrap();
        assert!(!doc.tree.is_lazy(sel));
        assert_eq!(doc.tree.path(sel), want);
        assert_eq!(s.reveal.node, Some(sel));
        assert!(
            outline::position(&s.rows, sel).is_some(),
            "its row is shown"
        );
    }
}
