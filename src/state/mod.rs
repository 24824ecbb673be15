//! The app's one store, in slices: each slice is a state struct with its
//! own action enum and its own `apply`, in a file of its own, and [`State`]
//! composes them. The page changes the store only through [`Action`]s (one
//! Yew reducer; `dispatch` takes an [`Action`], and every slice's action
//! converts into one with `.into()`).
//!
//! The core slices, which every panel reads:
//! - [`loading`]: the open file, its loading and decoding status, how far
//!   the worker's tree is decoded;
//! - [`tree`]: the nodes open in the tree pane, the worker's rows (the tree
//!   pane's window) and field boxes (the hex pane's window);
//! - [`cursor`]: the hex cursor, the byte selection, the selected and the
//!   hovered node, the panes' scroll requests;
//! - [`hash`]: the open file's SHA-256.
//!
//! The panels' slices: [`search`] (the search bar and its matches),
//! [`bookmarks`], [`compare`] (the file compared with the open one and the
//! panel's merged tree), [`export`] (the copy / export menu's download). A panel's
//! slice may read the core slices (its `apply` is handed what it needs), but
//! no core slice reads a panel's: the store works the same with a panel's
//! slice left at its default, which is what lets a panel live in a module
//! fetched later.
//!
//! Most actions change one slice, through its `apply`. What one slice's
//! change does to another is written out in [`State::apply`]: opening a file
//! starts every slice afresh, a node selected opens the tree down to it and
//! moves the cursor, a tree key moves the selection, a search match shown is
//! a go-to ([`search::Jump`]), a crash ends the search for a byte's owner.
//!
//! To add a panel's slice: a file here with its state struct (`Default`: a
//! page without the panel), its action enum and its `apply` (given the core
//! slices it reads), a field of [`State`], a variant of [`Action`] wrapping
//! its actions (with `From`), and its arm in [`State::apply`]; if it asks the
//! worker something, its questions go into [`State::wants`] and its answers
//! are routed to it in `State::answer`. Its state is reset on
//! [`Action::Open`] with every other slice (what outlives the open file is
//! kept there, written out).
//!
//! The page keeps no copy of the tree. The worker holds it; the page keeps
//! the open set (its own state) and asks for what it shows: the rows of the
//! tree pane's window, the field boxes of the hex pane's window, the selected
//! node's details, the node owning a clicked byte. [`State::tree_wants`],
//! [`State::hex_wants`] and [`State::wants`] say what to ask given what is on
//! screen; the answers come back as [`Action::Answer`]. Rows and boxes still
//! on their way show as placeholders.
//!
//! The transitions are plain Rust ([`State::apply`]) so they are unit tested
//! natively against a real [`hexlens_core::session::Session`]; in the browser,
//! `yew::Reducible` wraps them. An action that changes nothing returns the same
//! `Rc`, so Yew skips the re-render (hovering within one field costs nothing).

pub mod bookmarks;
pub mod compare;
pub mod cursor;
pub mod export;
pub mod hash;
pub mod loading;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod rig;
pub mod search;
pub mod tree;

pub use bookmarks::{Bookmark, BookmarkAction, BookmarkState, BOOKMARK_COLOURS};
pub use compare::{CompareAction, CompareState, DiffList, DiffRow, Other};
pub use cursor::{CursorAction, CursorState, Origin, Reveal};
pub use export::{ExportAction, ExportState};
pub use hash::{HashAction, HashState, HASH_STEP};
pub use hexlens_core::protocol::Request;
pub use loading::{LoadAction, LoadState, Status};
pub use search::{Search, SearchAction, SearchState, MAX_HITS, SEARCH_STEP};
pub use tree::{BoxCache, OpenSet, RowCache, TreeAction, TreeKey, TreeState, BOX_BLOCK};

use crate::doc::Doc;
use hexlens_core::protocol::Answer;
use hexlens_core::protocol::{NodeInfo, MAX_PATHS};
use hexlens_core::NodeId;
use std::rc::Rc;

/// Everything that can happen.
#[derive(Debug, Clone)]
pub enum Action {
    /// A file is open and being decoded (the worker reports back through the
    /// actions below, tagged with the doc's `load`): every slice starts afresh.
    Open(Rc<Doc>),
    /// The decoder answered a question (each answer goes to the slice that
    /// asked it).
    Answer {
        /// Which load.
        load: u32,
        /// The answer.
        answer: Rc<Answer>,
    },
    /// The file's loading.
    Load(LoadAction),
    /// The tree pane.
    Tree(TreeAction),
    /// The cursor, the selection, the hover.
    Cursor(CursorAction),
    /// The search bar.
    Search(SearchAction),
    /// The bookmarks.
    Bookmarks(BookmarkAction),
    /// The comparison.
    Compare(CompareAction),
    /// The copy / export menu.
    Export(ExportAction),
    /// The cursor to a byte and the selection to the node at a path.
    Go(search::Jump),
}

macro_rules! slice_action {
    ($($t:ty => $v:ident),*) => {$(
        impl From<$t> for Action {
            fn from(a: $t) -> Action {
                Action::$v(a)
            }
        }
    )*};
}
slice_action!(LoadAction => Load, TreeAction => Tree, CursorAction => Cursor,
    SearchAction => Search, BookmarkAction => Bookmarks, CompareAction => Compare,
    ExportAction => Export);

/// The store.
#[derive(Debug, Clone, Default)]
pub struct State {
    /// The open file and its loading.
    pub load: LoadState,
    /// The tree pane's open set and the worker's rows and boxes.
    pub tree: TreeState,
    /// The cursor, the selection, the hover, the scroll requests.
    pub cursor: CursorState,
    /// The file's SHA-256.
    pub hash: HashState,
    /// The search bar and the last search.
    pub search: SearchState,
    /// The open file's bookmarks.
    pub bookmarks: BookmarkState,
    /// The file compared with the open one.
    pub compare: CompareState,
    /// The export under way.
    pub export: ExportState,
    /// Grows with every change (the panes compare it to know they must redraw).
    pub stamp: u64,
}

impl State {
    /// What the page knows of node `id` without asking: its row, its details,
    /// or the field boxes. Crumbs are filled in from the boxes' parents.
    pub fn known(&self, id: NodeId) -> Option<Rc<NodeInfo>> {
        if let Some(d) = self.cursor.details.as_ref().filter(|d| d.id == id) {
            return Some(d.clone());
        }
        if let Some(r) = self.tree.rows.rows.rows.iter().find(|r| r.id == id) {
            return Some(r.clone());
        }
        let b = &self.tree.boxes.boxes;
        let mut n = b.node(id)?.clone();
        n.crumbs = b.crumbs(id);
        n.depth = n.crumbs.len() as u32;
        Some(Rc::new(n))
    }

    /// True if the rows held follow the current open set and tree.
    pub fn rows_fresh(&self) -> bool {
        self.tree.fresh(self.load.version.version)
    }

    /// Position of `id` among the rows held, or as the worker last found it
    /// (if the rows are fresh).
    pub fn row_of(&self, id: NodeId) -> Option<u64> {
        self.tree.row_of(id, self.load.version.version)
    }

    /// What the tree pane needs to show rows `[first, first + count)`.
    pub fn tree_wants(&self, first: u64, count: u64) -> Option<Request> {
        if !self.load.can_ask() {
            return None;
        }
        self.tree
            .rows_wanted(first, count, self.load.version.version)
    }

    /// What the hex pane needs to tint bytes `[start, end)`.
    pub fn hex_wants(&self, start: u64, end: u64) -> Option<Request> {
        if !self.load.can_ask() {
            return None;
        }
        self.tree
            .boxes_wanted(start, end, self.load.size(), self.load.version.version)
    }

    /// The other questions the store has: the selected node's details, the
    /// owner of a clicked byte, the open set's paths, the next step of
    /// hashing and of searching.
    pub fn wants(&self) -> Vec<Request> {
        let mut out = Vec::new();
        if !self.load.can_ask() {
            return out;
        }
        let c = &self.cursor;
        if let Some((b, _)) = c.seek {
            out.push(Request::Locate(b));
        }
        if let Some(p) = &c.seek_path {
            out.push(Request::Path(p.clone()));
        }
        let t = &self.tree;
        if let Some(paths) = &t.restore_open {
            out.push(Request::Resolve((**paths).clone()));
        } else if t.open_paths.as_ref().is_none_or(|(g, _)| *g != t.gen) {
            let ids: Vec<NodeId> = t.open.iter().copied().take(MAX_PATHS).collect();
            out.push(Request::PathsOf(ids));
        }
        out.extend(self.hash.wants());
        out.extend(self.search.wants(self.load.size()));
        if let Some(id) = c.selected {
            if c.details.as_ref().is_none_or(|d| d.id != id) {
                out.push(Request::Node(id));
            }
        }
        out
    }

    fn next_reveal(&self, byte: Option<u64>, node: Option<NodeId>) -> Reveal {
        Reveal {
            seq: self.cursor.reveal.seq + 1,
            byte,
            node,
            row: node.and_then(|n| self.row_of(n)),
        }
    }

    /// Selects `info`'s node: opens its ancestors, puts the cursor at `cursor`
    /// (default: its first byte) and scrolls the panes to it (the hex pane
    /// unless the selection came from there).
    fn focus(&mut self, info: &NodeInfo, origin: Origin, cursor: Option<u64>) {
        self.cursor.selected = Some(info.id);
        self.cursor.selecting = None;
        self.tree.open_all(info.crumbs.iter().map(|c| c.0));
        self.cursor.cursor = cursor.unwrap_or(info.shown_range().0);
        self.cursor.reveal = self.next_reveal(
            (origin != Origin::Hex).then_some(self.cursor.cursor),
            Some(info.id),
        );
        if self.cursor.reveal.row.is_none() {
            self.tree.finding = Some(info.id);
        }
    }

    /// The state after `action`, or `None` if nothing changed.
    pub fn apply(&self, action: Action) -> Option<State> {
        match action {
            Action::Open(doc) => {
                let total = doc.bytes.len();
                Some(State {
                    load: LoadState {
                        status: Status::Decoding { done: 0, total },
                        doc: Some(doc),
                        bytes_epoch: self.load.bytes_epoch,
                        ..LoadState::default()
                    },
                    cursor: CursorState {
                        reveal: Reveal {
                            seq: self.cursor.reveal.seq + 1,
                            byte: Some(0),
                            node: None,
                            row: Some(0),
                        },
                        ..CursorState::default()
                    },
                    compare: self.compare.reopened(),
                    // An export of the file before still downloads as asked.
                    export: self.export.clone(),
                    ..State::default()
                })
            }
            Action::Answer { load, answer } => {
                if self.load.load() != Some(load) {
                    return None;
                }
                let mut s = self.clone();
                s.answer(&answer)?;
                Some(s)
            }
            Action::Load(a) => {
                // A decoder that failed or crashed finds no byte's owner.
                let ends = matches!(a, LoadAction::DecodeFailed { .. } | LoadAction::Crashed(_));
                let mut s = State {
                    load: self.load.apply(a)?,
                    ..self.clone()
                };
                if ends {
                    s.cursor.seek = None;
                }
                Some(s)
            }
            Action::Tree(TreeAction::Toggle(id)) => {
                if !self.load.decoded() || self.known(id).is_some_and(|n| !n.has_kids()) {
                    return None;
                }
                Some(State {
                    tree: self.tree.apply(TreeAction::Toggle(id))?,
                    ..self.clone()
                })
            }
            Action::Tree(TreeAction::Key(key)) => self.tree_key(key),
            Action::Cursor(a) => self.cursor_action(a),
            Action::Go(j) => Some(self.jump(j)),
            Action::Search(a) => {
                let (search, jump) = self.search.apply(a, &self.load, self.cursor.cursor)?;
                let mut s = match jump {
                    Some(j) => self.jump(j),
                    None => self.clone(),
                };
                s.search = search;
                Some(s)
            }
            Action::Bookmarks(a) => Some(State {
                bookmarks: self.bookmarks.apply(a, &self.load)?,
                ..self.clone()
            }),
            Action::Compare(a) => Some(State {
                compare: self.compare.apply(a, &self.load)?,
                ..self.clone()
            }),
            Action::Export(a) => Some(State {
                export: self.export.apply(a)?,
                ..self.clone()
            }),
        }
    }

    /// Shows a search match: the cursor goes to its first byte, the hex pane
    /// scrolls there and its owner is selected (as a go-to does); a
    /// structure match selects its node itself, not the byte's owner.
    fn jump(&self, j: search::Jump) -> State {
        let mut s = self
            .apply(CursorAction::Goto(j.at).into())
            .unwrap_or_else(|| self.clone());
        if let Some(p) = j.path {
            s.cursor.seek = None;
            s.cursor.seek_path = Some(p);
        }
        s
    }

    /// The cursor slice's actions: its own moves, and those that select nodes
    /// (which open the tree to them).
    fn cursor_action(&self, action: CursorAction) -> Option<State> {
        match action {
            CursorAction::HoverNode(id) => {
                let h = id.map(|i| (i, Origin::Tree));
                if h == self.cursor.hover {
                    return None;
                }
                let mut s = self.clone();
                s.cursor.hover = h;
                s.cursor.hover_info = id.and_then(|i| s.known(i));
                Some(s)
            }
            CursorAction::HoverSpans(spans) => {
                if spans == self.cursor.hover_spans {
                    return None;
                }
                let first = spans.as_ref().and_then(|s| s.first()).map(|r| r.0);
                let seg = first.and_then(|b| self.tree.boxes.boxes.segment_at(b));
                let mut s = self.clone();
                s.cursor.hover = seg.map(|g| (g.owner, Origin::Other));
                s.cursor.hover_info = seg.and_then(|g| s.known(g.owner));
                s.cursor.hover_spans = spans;
                Some(s)
            }
            CursorAction::HoverByte(b) => {
                let seg = b.and_then(|b| self.tree.boxes.boxes.segment_at(b));
                let h = seg.map(|g| (g.owner, Origin::Hex));
                if h == self.cursor.hover {
                    return None;
                }
                let mut s = self.clone();
                s.cursor.hover = h;
                s.cursor.hover_info = seg.and_then(|g| s.known(g.owner));
                Some(s)
            }
            CursorAction::Select(id, from) => {
                if !self.load.decoded() {
                    return None;
                }
                let mut s = self.clone();
                s.cursor.anchor = None;
                if from == Origin::Other {
                    s.cursor.jumps += 1;
                }
                match s.known(id) {
                    Some(info) => s.focus(&info, from, None),
                    None => {
                        s.cursor.selected = Some(id);
                        s.cursor.selecting = Some(from);
                    }
                }
                Some(s)
            }
            CursorAction::ClickByte(b) | CursorAction::Goto(b) => {
                let doc = self.load.doc.clone()?;
                let goto = matches!(action, CursorAction::Goto(_));
                let b = b.min(doc.bytes.len().saturating_sub(1));
                let mut s = self.clone();
                s.cursor.cursor = b;
                s.cursor.anchor = None;
                s.cursor.jumps += 1;
                if goto {
                    s.cursor.reveal = s.next_reveal(Some(b), None);
                }
                if !doc.is_decoded() {
                    return Some(s);
                }
                // Select what the boxes know at once; ask the worker when they
                // do not know the byte, or it lies in a group not decoded yet.
                let owner = s
                    .tree
                    .boxes
                    .boxes
                    .segment_at(b)
                    .and_then(|g| s.known(g.owner));
                let origin = if goto { Origin::Other } else { Origin::Hex };
                match owner {
                    Some(o) if !o.lazy => {
                        s.cursor.seek = None;
                        s.focus(&o, origin, Some(b));
                    }
                    other => {
                        if let Some(o) = other {
                            s.focus(&o, origin, Some(b));
                        }
                        s.cursor.seek = Some((b, goto));
                    }
                }
                Some(s)
            }
            CursorAction::Move(..) | CursorAction::SelectBytes(..) => Some(State {
                cursor: self
                    .cursor
                    .apply(action, self.load.doc.as_ref()?.bytes.len())?,
                ..self.clone()
            }),
            CursorAction::Restore {
                sha,
                path,
                at,
                open,
            } => {
                let doc = self.load.doc.as_ref().filter(|d| d.is_decoded())?;
                if !sha.is_empty() && self.hash.sha.as_deref() != Some(sha.as_str()) {
                    return None;
                }
                let mut s = self.clone();
                s.cursor.anchor = None;
                if let Some(b) = at {
                    s.cursor.cursor = b.min(doc.bytes.len().saturating_sub(1));
                    s.cursor.reveal = s.next_reveal(Some(s.cursor.cursor), None);
                }
                if path.is_some() {
                    s.cursor.seek_path = path;
                    s.cursor.restoring = at;
                }
                if !open.is_empty() {
                    s.tree.restore_open = Some(Rc::new(open));
                }
                Some(s)
            }
        }
    }

    /// Takes in one of the worker's answers; `None` if it changes nothing.
    fn answer(&mut self, a: &Answer) -> Option<()> {
        let doc = self.load.doc.clone()?;
        if let Answer::Decoded {
            version,
            summary,
            rows,
        } = a
        {
            if doc.is_decoded() {
                return None;
            }
            self.load.doc = Some(Rc::new(doc.decoded((**summary).clone())));
            self.load.version = *version;
            self.tree.open = Rc::new(summary.open.iter().copied().collect());
            self.tree.gen = rows.gen;
            self.tree.rows = Rc::new(RowCache {
                version: version.version,
                rows: rows.clone(),
            });
            self.load.status = Status::Idle;
            self.cursor.reveal = self.next_reveal(None, Some(summary.root.id));
            return Some(());
        }
        if !doc.is_decoded() {
            return None;
        }
        // A structure search's answer comes from a worker without the tree
        // (see `session::structure_search`): it says nothing of the tree.
        if !matches!(a, Answer::Found { .. } | Answer::Compared { .. }) {
            self.load.version = a.version();
        }
        let version = self.load.version.version;
        match a {
            Answer::Decoded { .. } => unreachable!("handled above"),
            // The transport gives a comparison to the comparison panel.
            Answer::Compared { .. } => return None,
            Answer::Rows { rows, failed, .. } => {
                if rows.gen != self.tree.gen {
                    return None; // an open set since changed
                }
                self.tree.rows = Rc::new(RowCache {
                    version,
                    rows: rows.clone(),
                });
                // Only an answer to a request that sought this node settles the
                // search for it: rows asked for before it was selected (a
                // scroll's) say nothing of it.
                if let Some((id, pos)) = rows.found {
                    if self.tree.finding == Some(id) {
                        // Found, or not shown (an ancestor closed since):
                        // either way, stop looking.
                        self.tree.finding = None;
                        let reveal = &mut self.cursor.reveal;
                        if let (Some(pos), true) = (pos, reveal.node == Some(id)) {
                            reveal.seq += 1;
                            reveal.row = Some(pos);
                            reveal.byte = None;
                        }
                    }
                }
                if let Some(p) = self.tree.want_row {
                    if let Some(r) = rows.at(p) {
                        let r = r.clone();
                        self.tree.want_row = None;
                        self.focus(&r, Origin::Tree, None);
                    } else if p >= rows.total {
                        self.tree.want_row = None;
                    }
                }
                if self.rows_fresh() && !self.tree.keys.is_empty() {
                    for k in std::mem::take(Rc::make_mut(&mut self.tree.keys)) {
                        if let Some(next) = self.tree_key(k) {
                            *self = next;
                        }
                    }
                }
                if !failed.is_empty() {
                    let why: Vec<String> = failed.iter().map(|(_, e)| e.clone()).collect();
                    self.load.status =
                        Status::Failed(format!("could not decode that part: {}", why.join("; ")));
                    let open = Rc::make_mut(&mut self.tree.open);
                    for (id, _) in failed {
                        open.remove(id);
                    }
                    self.tree.gen += 1;
                }
            }
            Answer::Boxes { boxes, .. } => {
                self.tree.boxes = Rc::new(BoxCache {
                    version,
                    boxes: boxes.clone(),
                });
            }
            Answer::Node { id, info, .. } => {
                if self.cursor.selected != Some(*id) {
                    return None;
                }
                let info = info.clone()?;
                if let Some(origin) = self.cursor.selecting {
                    self.focus(&info, origin, None);
                }
                self.cursor.details = Some(Rc::new(info));
            }
            Answer::Found { .. } => {
                let before = self.search.last.as_ref()?.hits.is_empty();
                self.search = self.search.answered(a, doc.bytes.len())?;
                let first = before
                    && self
                        .search
                        .last
                        .as_ref()
                        .is_some_and(|x| !x.hits.is_empty());
                if first {
                    // The first match shows at once (the first at or after the cursor
                    // would mean waiting for the whole file).
                    if let Some((search, Some(jump))) = self.search.show(0) {
                        *self = self.jump(jump);
                        self.search = search;
                    }
                }
            }
            Answer::Hashed {
                from,
                reached,
                digest,
                ..
            } => {
                self.hash = self.hash.apply(HashAction::Hashed {
                    from: *from,
                    reached: *reached,
                    digest: digest.clone(),
                })?;
            }
            Answer::Resolved { path, info, .. } => {
                if self.cursor.seek_path.as_ref() != Some(path) {
                    return None;
                }
                self.cursor.seek_path = None;
                match info {
                    Some(info) => {
                        self.cursor.seek = None;
                        let at = self.cursor.restoring.take();
                        self.focus(info, Origin::Other, at);
                        self.cursor.details = Some(Rc::new(info.clone()));
                    }
                    None => {
                        self.load.status = Status::Failed(format!("there is no node at {path}"))
                    }
                }
            }
            Answer::Paths {
                ids,
                resolved: true,
                ..
            } => {
                self.tree.restore_open.take()?;
                // The nodes the link opens, and the way to the selected one.
                let mut open: OpenSet = ids.iter().copied().collect();
                open.insert(doc.summary.as_ref().map_or(0, |s| s.root.id));
                if let Some(d) = self.cursor.selected_details() {
                    for c in &d.crumbs {
                        open.insert(c.0);
                    }
                }
                self.tree.open = Rc::new(open);
                self.tree.gen = self.tree.gen.wrapping_add(1);
            }
            Answer::Paths {
                ids,
                paths,
                resolved: false,
                ..
            } => {
                let now: Vec<NodeId> = self.tree.open.iter().copied().take(MAX_PATHS).collect();
                if *ids != now {
                    return None;
                }
                self.tree.open_paths = Some((self.tree.gen, Rc::new(paths.clone())));
            }
            Answer::Located { byte, info, .. } => {
                let (b, goto) = self.cursor.seek?;
                if b != *byte {
                    return None;
                }
                self.cursor.seek = None;
                if let Some(info) = info {
                    let origin = if goto { Origin::Other } else { Origin::Hex };
                    self.focus(info, origin, Some(b));
                    self.cursor.details = Some(Rc::new(info.clone()));
                }
            }
        }
        Some(())
    }

    /// Moves the tree's focus to row `pos`: at once if the row is held, else
    /// once it arrives (the tree pane scrolls there and asks for it).
    fn go_row(&self, pos: u64) -> Option<State> {
        if let Some(r) = self
            .rows_fresh()
            .then(|| self.tree.rows.rows.at(pos))
            .flatten()
        {
            return self.apply(CursorAction::Select(r.id, Origin::Tree).into());
        }
        let mut s = self.clone();
        s.tree.want_row = Some(pos);
        s.cursor.reveal = Reveal {
            seq: self.cursor.reveal.seq + 1,
            byte: None,
            node: None,
            row: Some(pos),
        };
        Some(s)
    }

    /// A key in the tree view: it opens, closes or moves the selection by
    /// rows (keys pressed while the rows are out of date wait for them).
    fn tree_key(&self, key: TreeKey) -> Option<State> {
        if !self.load.decoded() {
            return None;
        }
        let queue = |s: &State| {
            let mut s = s.clone();
            Rc::make_mut(&mut s.tree.keys).push(key);
            Some(s)
        };
        if !self.tree.keys.is_empty() {
            // Keys act in the order they were pressed.
            return queue(self);
        }
        let toggle = |id| self.apply(TreeAction::Toggle(id).into());
        // Opening, closing and going to the parent need only the focused node.
        if let Some((id, row)) = self
            .cursor
            .selected
            .and_then(|id| Some((id, self.known(id)?)))
        {
            let open = self.tree.open.contains(&id);
            match key {
                TreeKey::Enter => return toggle(id),
                TreeKey::Right if !row.has_kids() => return None,
                TreeKey::Right if !open => return toggle(id),
                TreeKey::Left if open && row.has_kids() => return toggle(id),
                TreeKey::Left => {
                    return row
                        .parent
                        .and_then(|p| self.apply(CursorAction::Select(p, Origin::Tree).into()))
                }
                _ => {} // a move by rows (Right on an open node: to its first child)
            }
        }
        // A move by rows needs the rows as they are now.
        if !self.rows_fresh() || self.tree.want_row.is_some() {
            // Positions are about to change, or the focus is on its way to a
            // row not held yet: the key waits for the fresh rows.
            return queue(self);
        }
        let total = self.tree.rows.rows.total;
        let last = total.checked_sub(1)?;
        let Some(id) = self.cursor.selected else {
            // Nothing focused yet: any key focuses the first row.
            return self.go_row(0);
        };
        let Some(pos) = self.row_of(id) else {
            // The focused row is not among the rows held: show it first.
            let mut s = self.clone();
            s.cursor.reveal = s.next_reveal(None, Some(id));
            s.tree.finding = Some(id);
            return Some(s);
        };
        match key {
            TreeKey::Down | TreeKey::Right => (pos < last).then(|| self.go_row(pos + 1)).flatten(),
            TreeKey::Up => (pos > 0).then(|| self.go_row(pos - 1)).flatten(),
            TreeKey::Home => (pos != 0).then(|| self.go_row(0)).flatten(),
            TreeKey::End => (pos != last).then(|| self.go_row(last)).flatten(),
            TreeKey::PageDown(n) => self.go_row((pos + u64::from(n)).min(last)),
            TreeKey::PageUp(n) => self.go_row(pos.saturating_sub(u64::from(n))),
            // The focused node is among the rows held, so it was known above.
            TreeKey::Left | TreeKey::Enter => None,
        }
    }
}

#[cfg(target_arch = "wasm32")]
impl yew::Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match self.apply(action) {
            Some(mut s) => {
                s.stamp = self.stamp + 1;
                Rc::new(s)
            }
            None => self,
        }
    }
}
