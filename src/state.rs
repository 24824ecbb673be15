//! The app's one store: the open file, hover, selection, what is open, the
//! cursor, and the decode worker's latest answers for what the panes show,
//! changed only through [`Action`]s.
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

use crate::doc::Doc;
use hexlens_core::protocol::Answer;
pub use hexlens_core::protocol::Request;
use hexlens_core::protocol::{Boxes, NodeInfo, Rows, Version, MAX_PATHS};
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
    /// Its row, once known.
    pub row: Option<u64>,
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

/// Field boxes are asked for in blocks of this many bytes.
pub const BOX_BLOCK: u64 = 1024;

/// Everything that can happen.
#[derive(Debug, Clone)]
pub enum Action {
    /// Reading a file started.
    Loading(String),
    /// Reading a file failed.
    LoadFailed(String),
    /// A file is open and being decoded (the worker reports back through the
    /// actions below, tagged with the doc's `load`).
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
    /// The decoder answered a question.
    Answer {
        /// Which load.
        load: u32,
        /// The answer.
        answer: Rc<Answer>,
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
    /// Move the hex cursor by a number of bytes (keyboard in the hex pane);
    /// true: extend the byte selection (Shift held).
    MoveCursor(i64, bool),
    /// Select bytes from the first offset to the second, both included (a
    /// drag, or Shift+click from the cursor); the cursor goes to the second.
    SelectBytes(u64, u64),
    /// Replace the open file's bookmarks (added, removed, loaded, imported).
    Bookmarks(Rc<Vec<Bookmark>>),
    /// Show a place a link or the browser's history holds: the node at a path
    /// and the cursor at a byte (what the URL's fragment says).
    Restore {
        /// The hash of the file the place is in (another file's is ignored;
        /// empty: whatever file is open).
        sha: String,
        /// Path of the node to select.
        path: Option<String>,
        /// Cursor offset.
        at: Option<u64>,
        /// Paths of the nodes to open (empty: the tree's open set stays).
        open: Vec<String>,
    },
    /// Expand or collapse a node.
    Toggle(NodeId),
    /// A key in the tree view.
    TreeKey(TreeKey),
    /// Show or hide the search bar.
    SearchBar(bool),
    /// Search the file for a query (replacing any search before).
    Search(hexlens_core::search::Query),
    /// Show the next (+1) or previous (-1) match, wrapping around.
    SearchMove(i64),
    /// Show match number `i` (a click in the results list).
    SearchShow(usize),
    /// A search done in one step (a structure search) has read `done` bytes
    /// of the file.
    SearchProgress {
        /// Which load.
        load: u32,
        /// Bytes read.
        done: u64,
    },
    /// Stop searching (the matches found stay).
    SearchStop,
    /// Show another file's bytes beside the open file's (a comparison), or
    /// stop (`None`).
    Compare(Option<Rc<crate::bytes::FileBytes>>),
    /// Line the compared file's bytes up with the open file's: B's offset
    /// minus A's for the bytes shown side by side.
    Align(i64),
}

/// The file the open one is compared with: its bytes stand beside the open
/// file's in the hex pane, B's byte at A's offset plus `delta`.
#[derive(Debug, Clone)]
pub struct Other {
    /// B's bytes.
    pub bytes: Rc<crate::bytes::FileBytes>,
    /// B's offset minus A's, for the bytes side by side.
    pub delta: i64,
}

impl Other {
    /// The offset in B standing beside A's offset `o`, if B has it.
    pub fn beside(&self, o: u64) -> Option<u64> {
        let b = o as i128 + self.delta as i128;
        (0..self.bytes.len() as i128)
            .contains(&b)
            .then_some(b as u64)
    }

    /// Rows of 16 the hex pane needs for A (`a_len` bytes) and B side by
    /// side: to the end of whichever goes further.
    pub fn rows(&self, a_len: u64) -> u64 {
        let b_end = (self.bytes.len() as i128 - self.delta as i128).max(0) as u64;
        a_len.max(b_end).div_ceil(16)
    }
}

/// A named place in the open file: a node or a byte range, with a colour and
/// a note. Kept in the browser per file (by the file's SHA-256).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bookmark {
    /// Its name.
    pub name: String,
    /// First byte.
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
    /// The node's path, when it names a node (empty: a byte range).
    pub path: String,
    /// Colour number (`0..BOOKMARK_COLOURS`).
    pub colour: u8,
    /// A note.
    pub note: String,
}

/// How many bookmark colours there are (the style sheet's `.bm0`…).
pub const BOOKMARK_COLOURS: u8 = 6;

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

/// Matches kept by one search (more are not searched for).
pub const MAX_HITS: usize = 100_000;
/// Bytes one search step covers (the worker answers after each).
pub const SEARCH_STEP: u64 = 64 << 20;
/// Bytes one step of hashing the file covers: small, so the panes' questions
/// never wait long behind it (4 MiB: about 25 ms in the browser bench's
/// worker, which hashed 1 GiB at about 180 MB/s in 16 MiB steps).
pub const HASH_STEP: u64 = 4 << 20;

/// A search of the open file's bytes: its query, what it found so far and how far
/// it got. The worker runs it one step at a time as the store asks (see
/// [`State::wants`]), so it can be stopped between steps.
#[derive(Debug, Clone, PartialEq)]
pub struct Search {
    /// What is searched for.
    pub query: hexlens_core::search::Query,
    /// The needles' descriptions (`u32 LE`, `UTF-16BE`), by needle number.
    pub whats: Vec<String>,
    /// Search number (an answer of an older search is dropped).
    pub gen: u32,
    /// Matches so far, in file order (a structure search: in tree order).
    pub hits: Rc<Vec<hexlens_core::search::Hit>>,
    /// A structure search: each match's node path, by match.
    pub paths: Rc<Vec<String>>,
    /// Every match starting before this byte is in `hits`.
    pub reached: u64,
    /// A search done in one step (a structure search): how far it has read.
    pub progress: u64,
    /// Still searching (false: done, stopped, or stopped at [`MAX_HITS`]).
    pub running: bool,
    /// Why the query cannot be searched.
    pub error: Option<String>,
    /// The match shown (an index into `hits`).
    pub current: Option<usize>,
}

/// The store.
#[derive(Debug, Clone, Default)]
pub struct State {
    /// The open file.
    pub doc: Option<Rc<Doc>>,
    /// Loading / error state.
    pub status: Status,
    /// The hovered node, where the pointer is, and what is known of the node.
    pub hover: Option<(NodeId, Origin)>,
    /// What the hovered node covers (from its row or the field boxes).
    pub hover_info: Option<Rc<NodeInfo>>,
    /// The selected node (also the tree's focused row).
    pub selected: Option<NodeId>,
    /// The selected node's details, once the worker sent them.
    pub details: Option<Rc<NodeInfo>>,
    /// A selection waiting for its details to move the cursor and open the tree.
    pub selecting: Option<Origin>,
    /// Nodes open in the tree pane.
    pub open: Rc<OpenSet>,
    /// The file compared with the open one, its bytes beside the open file's.
    pub other: Option<Rc<Other>>,
    /// Grows with every change of `open`.
    pub gen: u32,
    /// How far the worker's tree is decoded (from its latest answer).
    pub version: Version,
    /// Rows of the tree pane around its window.
    pub rows: Rc<RowCache>,
    /// Field boxes around the hex pane's window.
    pub boxes: Rc<BoxCache>,
    /// The hex cursor (the inspector reads from here).
    pub cursor: u64,
    /// Pending scroll requests.
    pub reveal: Reveal,
    /// A node whose row position was asked for.
    pub finding: Option<NodeId>,
    /// A row a key moved to that was not among the rows held.
    pub want_row: Option<u64>,
    /// Grows whenever file bytes arrive (rows that waited for them redraw).
    pub bytes_epoch: u32,
    /// A clicked or gone-to byte whose owner the worker is finding (true: a
    /// go-to, which also scrolls the hex pane).
    pub seek: Option<(u64, bool)>,
    /// Tree keys pressed while the rows held were out of date (after a
    /// toggle): replayed when the fresh rows land.
    pub keys: Rc<Vec<TreeKey>>,
    /// The search bar is shown.
    pub search_open: bool,
    /// The last search.
    pub search: Option<Rc<Search>>,
    /// A node path whose node the worker is finding, to select it.
    pub seek_path: Option<String>,
    /// The other end of the byte selection (the cursor is one end): `None`
    /// when no bytes are selected.
    pub anchor: Option<u64>,
    /// Grows with every jump to another place (a go-to, a search match, a
    /// click): the address bar keeps one history entry a jump.
    pub jumps: u32,
    /// The file's SHA-256 in hex, once the worker has hashed it all.
    pub sha: Option<Rc<str>>,
    /// Bytes hashed so far.
    pub sha_at: u64,
    /// The cursor a restored place puts back once its node is found.
    pub restoring: Option<u64>,
    /// Paths of the nodes a restored place opens, while the worker finds them.
    pub restore_open: Option<Rc<Vec<String>>>,
    /// The paths of the open set (a link holds them) and the generation of
    /// the open set they are of ([`State::gen`]).
    pub open_paths: Option<(u32, Rc<Vec<String>>)>,
    /// The open file's bookmarks.
    pub bookmarks: Rc<Vec<Bookmark>>,
    /// Grows with every change (the panes compare it to know they must redraw).
    pub stamp: u64,
}

impl State {
    fn load(&self) -> Option<u32> {
        self.doc.as_ref().map(|d| d.load)
    }

    /// What the page knows of node `id` without asking: its row, its details,
    /// or the field boxes. Crumbs are filled in from the boxes' parents.
    pub fn known(&self, id: NodeId) -> Option<Rc<NodeInfo>> {
        if let Some(d) = self.details.as_ref().filter(|d| d.id == id) {
            return Some(d.clone());
        }
        if let Some(r) = self.rows.rows.rows.iter().find(|r| r.id == id) {
            return Some(r.clone());
        }
        let b = &self.boxes.boxes;
        let mut n = b.node(id)?.clone();
        n.crumbs = b.crumbs(id);
        n.depth = n.crumbs.len() as u32;
        Some(Rc::new(n))
    }

    /// True if the rows held follow the current open set and tree.
    pub fn rows_fresh(&self) -> bool {
        self.rows.rows.gen == self.gen && self.rows.version == self.version.version
    }

    /// Position of `id` among the rows held, or as the worker last found it
    /// (if the rows are fresh).
    pub fn row_of(&self, id: NodeId) -> Option<u64> {
        if !self.rows_fresh() {
            return None;
        }
        let r = &self.rows.rows;
        r.position(id).or(match r.found {
            Some((f, Some(pos))) if f == id => Some(pos),
            _ => None,
        })
    }

    /// True if the decoder holds the open file's tree and can be asked about
    /// it (not after it crashed: the bytes stay, the structure shown stays as
    /// it was).
    pub fn can_ask(&self) -> bool {
        self.doc.as_ref().is_some_and(|d| d.is_decoded())
            && !matches!(self.status, Status::Crashed(_))
    }

    /// What the tree pane needs to show rows `[first, first + count)`.
    pub fn tree_wants(&self, first: u64, count: u64) -> Option<Request> {
        if !self.can_ask() {
            return None;
        }
        let r = &self.rows.rows;
        let covered = self.rows_fresh()
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

    /// What the hex pane needs to tint bytes `[start, end)`.
    pub fn hex_wants(&self, start: u64, end: u64) -> Option<Request> {
        if !self.can_ask() {
            return None;
        }
        let doc = self.doc.as_ref()?;
        let size = doc.bytes.len();
        let end = end.min(size);
        let b = &self.boxes;
        if start >= end
            || (b.version == self.version.version && b.boxes.start <= start && end <= b.boxes.end)
        {
            return None;
        }
        Some(Request::Boxes {
            start: (start / BOX_BLOCK).saturating_sub(1) * BOX_BLOCK,
            end: ((end / BOX_BLOCK + 2) * BOX_BLOCK).min(size),
        })
    }

    /// The other questions the store has: the selected node's details, the
    /// owner of a clicked byte.
    pub fn wants(&self) -> Vec<Request> {
        let mut out = Vec::new();
        if !self.can_ask() {
            return out;
        }
        if let Some((b, _)) = self.seek {
            out.push(Request::Locate(b));
        }
        if let Some(p) = &self.seek_path {
            out.push(Request::Path(p.clone()));
        }
        if let Some(paths) = &self.restore_open {
            out.push(Request::Resolve((**paths).clone()));
        } else if self.open_paths.as_ref().is_none_or(|(g, _)| *g != self.gen) {
            let ids: Vec<NodeId> = self.open.iter().copied().take(MAX_PATHS).collect();
            out.push(Request::PathsOf(ids));
        }
        if self.sha.is_none() {
            out.push(Request::Hash {
                from: self.sha_at,
                to: self.sha_at.saturating_add(HASH_STEP),
            });
        }
        if let (Some(x), Some(doc)) = (self.search.as_ref().filter(|x| x.running), &self.doc) {
            let size = doc.bytes.len();
            out.push(Request::Search {
                gen: x.gen,
                query: x.query.clone(),
                from: x.reached,
                to: x.reached.saturating_add(SEARCH_STEP).min(size),
                max: (MAX_HITS - x.hits.len().min(MAX_HITS)) as u32,
            });
        }
        if let Some(id) = self.selected {
            if self.details.as_ref().is_none_or(|d| d.id != id) {
                out.push(Request::Node(id));
            }
        }
        out
    }

    fn next_reveal(&self, byte: Option<u64>, node: Option<NodeId>) -> Reveal {
        Reveal {
            seq: self.reveal.seq + 1,
            byte,
            node,
            row: node.and_then(|n| self.row_of(n)),
        }
    }

    /// Marks `ids` open (a new generation of the open set if that changed it).
    fn open_all(&mut self, ids: impl IntoIterator<Item = NodeId>) {
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

    /// Selects `info`'s node: opens its ancestors, puts the cursor at `cursor`
    /// (default: its first byte) and scrolls the panes to it (the hex pane
    /// unless the selection came from there).
    fn focus(&mut self, info: &NodeInfo, origin: Origin, cursor: Option<u64>) {
        self.selected = Some(info.id);
        self.selecting = None;
        self.open_all(info.crumbs.iter().map(|c| c.0));
        self.cursor = cursor.unwrap_or(info.shown_range().0);
        self.reveal = self.next_reveal(
            (origin != Origin::Hex).then_some(self.cursor),
            Some(info.id),
        );
        if self.reveal.row.is_none() {
            self.finding = Some(info.id);
        }
    }

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
                let total = doc.bytes.len();
                Some(State {
                    status: Status::Decoding { done: 0, total },
                    doc: Some(doc),
                    reveal: Reveal {
                        seq: self.reveal.seq + 1,
                        byte: Some(0),
                        node: None,
                        row: Some(0),
                    },
                    bytes_epoch: self.bytes_epoch,
                    ..State::default()
                })
            }
            Action::Progress { load, done, total } => {
                let doc = self.doc.as_ref()?;
                if doc.load != load
                    || doc.is_decoded()
                    || !matches!(self.status, Status::Decoding { .. })
                {
                    return None;
                }
                Some(State {
                    status: Status::Decoding { done, total },
                    ..self.clone()
                })
            }
            Action::Answer { load, answer } => {
                if self.load() != Some(load) {
                    return None;
                }
                let mut s = self.clone();
                s.answer(&answer)?;
                Some(s)
            }
            Action::DecodeFailed { load, message } => {
                if self.load() != Some(load) {
                    return None;
                }
                let mut s = self.clone();
                s.seek = None;
                s.status = Status::Failed(message);
                Some(s)
            }
            Action::Crashed(message) => {
                let mut s = self.clone();
                s.seek = None;
                s.status = Status::Crashed(message);
                Some(s)
            }
            Action::Cancel => {
                let doc = self.doc.as_ref()?;
                if doc.is_decoded() {
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
                if h == self.hover {
                    return None;
                }
                let mut s = self.clone();
                s.hover = h;
                s.hover_info = id.and_then(|i| s.known(i));
                Some(s)
            }
            Action::HoverByte(b) => {
                let seg = b.and_then(|b| self.boxes.boxes.segment_at(b));
                let h = seg.map(|g| (g.owner, Origin::Hex));
                if h == self.hover {
                    return None;
                }
                let mut s = self.clone();
                s.hover = h;
                s.hover_info = seg.and_then(|g| s.known(g.owner));
                Some(s)
            }
            Action::Select(id, from) => {
                self.doc.as_ref().filter(|d| d.is_decoded())?;
                let mut s = self.clone();
                s.anchor = None;
                if from == Origin::Other {
                    s.jumps += 1;
                }
                match s.known(id) {
                    Some(info) => s.focus(&info, from, None),
                    None => {
                        s.selected = Some(id);
                        s.selecting = Some(from);
                    }
                }
                Some(s)
            }
            Action::ClickByte(b) | Action::Goto(b) => {
                let doc = self.doc.clone()?;
                let goto = matches!(action, Action::Goto(_));
                let b = b.min(doc.bytes.len().saturating_sub(1));
                let mut s = self.clone();
                s.cursor = b;
                s.anchor = None;
                s.jumps += 1;
                if goto {
                    s.reveal = s.next_reveal(Some(b), None);
                }
                if !doc.is_decoded() {
                    return Some(s);
                }
                // Select what the boxes know at once; ask the worker when they
                // do not know the byte, or it lies in a group not decoded yet.
                let owner = s.boxes.boxes.segment_at(b).and_then(|g| s.known(g.owner));
                let origin = if goto { Origin::Other } else { Origin::Hex };
                match owner {
                    Some(o) if !o.lazy => {
                        s.seek = None;
                        s.focus(&o, origin, Some(b));
                    }
                    other => {
                        if let Some(o) = other {
                            s.focus(&o, origin, Some(b));
                        }
                        s.seek = Some((b, goto));
                    }
                }
                Some(s)
            }
            Action::MoveCursor(delta, extend) => {
                let doc = self.doc.as_ref()?;
                let max = doc.bytes.len().saturating_sub(1);
                let c = if delta < 0 {
                    self.cursor.saturating_sub(delta.unsigned_abs())
                } else {
                    self.cursor.saturating_add(delta as u64).min(max)
                };
                let anchor = if extend {
                    self.anchor.or(Some(self.cursor))
                } else {
                    None
                };
                (c != self.cursor || anchor != self.anchor).then(|| State {
                    cursor: c,
                    anchor,
                    reveal: self.next_reveal(Some(c), None),
                    ..self.clone()
                })
            }
            Action::SelectBytes(from, to) => {
                let doc = self.doc.as_ref()?;
                let max = doc.bytes.len().saturating_sub(1);
                let (a, c) = (from.min(max), to.min(max));
                (Some(a) != self.anchor || c != self.cursor).then(|| State {
                    cursor: c,
                    anchor: Some(a),
                    ..self.clone()
                })
            }
            Action::Bookmarks(b) => {
                self.doc.as_ref()?;
                (b != self.bookmarks).then(|| State {
                    bookmarks: b,
                    ..self.clone()
                })
            }
            Action::Restore {
                sha,
                path,
                at,
                open,
            } => {
                let doc = self.doc.as_ref().filter(|d| d.is_decoded())?;
                if !sha.is_empty() && self.sha.as_deref() != Some(sha.as_str()) {
                    return None;
                }
                let mut s = self.clone();
                s.anchor = None;
                if let Some(b) = at {
                    s.cursor = b.min(doc.bytes.len().saturating_sub(1));
                    s.reveal = s.next_reveal(Some(s.cursor), None);
                }
                if path.is_some() {
                    s.seek_path = path;
                    s.restoring = at;
                }
                if !open.is_empty() {
                    s.restore_open = Some(Rc::new(open));
                }
                Some(s)
            }
            Action::Toggle(id) => {
                self.doc.as_ref().filter(|d| d.is_decoded())?;
                if self.known(id).is_some_and(|n| !n.has_kids()) {
                    return None;
                }
                let mut s = self.clone();
                let open = Rc::make_mut(&mut s.open);
                if !open.remove(&id) {
                    open.insert(id);
                }
                s.gen += 1;
                Some(s)
            }
            Action::TreeKey(key) => self.tree_key(key),
            Action::SearchBar(open) => {
                let mut s = self.clone();
                s.search_open = open;
                Some(s)
            }
            Action::Search(query) => {
                // The same query again goes to the next match.
                if self
                    .search
                    .as_ref()
                    .is_some_and(|x| x.query == query && x.error.is_none() && !x.hits.is_empty())
                {
                    return self.apply(Action::SearchMove(1));
                }
                // The worker checks the query (the page links no query parser)
                // and says what it searches for with its first answer.
                let mut s = self.clone();
                let gen = self.search.as_ref().map_or(1, |x| x.gen.wrapping_add(1));
                s.search_open = true;
                s.search = Some(Rc::new(Search {
                    running: self.doc.is_some(),
                    query,
                    whats: Vec::new(),
                    gen,
                    hits: Rc::new(Vec::new()),
                    paths: Rc::new(Vec::new()),
                    reached: 0,
                    progress: 0,
                    error: None,
                    current: None,
                }));
                Some(s)
            }
            Action::SearchMove(step) => {
                let x = self.search.as_ref()?;
                let n = x.hits.len();
                if n == 0 {
                    return None;
                }
                let i = match x.current {
                    Some(c) => (c as i64 + step).rem_euclid(n as i64) as usize,
                    // The first match at or after the cursor (or before it, going back).
                    None => {
                        let after = x.hits.partition_point(|h| h.start < self.cursor);
                        if step >= 0 {
                            after % n
                        } else {
                            (after + n - 1) % n
                        }
                    }
                };
                self.show_hit(i)
            }
            Action::SearchShow(i) => self.show_hit(i),
            Action::SearchProgress { load, done } => {
                let x = self.search.as_ref().filter(|x| x.running)?;
                if self.load() != Some(load) || done <= x.progress {
                    return None;
                }
                let mut s = self.clone();
                s.search = Some(Rc::new(Search {
                    progress: done,
                    ..(**x).clone()
                }));
                Some(s)
            }
            Action::SearchStop => {
                let x = self.search.as_ref().filter(|x| x.running)?;
                let mut s = self.clone();
                s.search = Some(Rc::new(Search {
                    running: false,
                    ..(**x).clone()
                }));
                Some(s)
            }
            Action::Compare(bytes) => {
                self.doc.as_ref()?;
                if bytes.is_none() && self.other.is_none() {
                    return None;
                }
                Some(State {
                    other: bytes.map(|bytes| Rc::new(Other { bytes, delta: 0 })),
                    ..self.clone()
                })
            }
            Action::Align(delta) => {
                let o = self.other.as_ref().filter(|o| o.delta != delta)?;
                Some(State {
                    other: Some(Rc::new(Other {
                        bytes: o.bytes.clone(),
                        delta,
                    })),
                    ..self.clone()
                })
            }
        }
    }

    /// Makes match `i` the current one: the cursor goes to its first byte, the
    /// hex pane scrolls there and its owner is selected (as a go-to does).
    fn show_hit(&self, i: usize) -> Option<State> {
        let x = self.search.as_ref()?;
        let h = *x.hits.get(i)?;
        let mut s = self
            .apply(Action::Goto(h.start))
            .unwrap_or_else(|| self.clone());
        // A structure match selects its node itself, not the byte's owner.
        if let Some(p) = x.paths.get(i) {
            s.seek = None;
            s.seek_path = Some(p.clone());
        }
        s.search = Some(Rc::new(Search {
            current: Some(i),
            ..(**x).clone()
        }));
        Some(s)
    }

    /// Takes in one of the worker's answers; `None` if it changes nothing.
    fn answer(&mut self, a: &Answer) -> Option<()> {
        let doc = self.doc.clone()?;
        if let Answer::Decoded {
            version,
            summary,
            rows,
        } = a
        {
            if doc.is_decoded() {
                return None;
            }
            self.doc = Some(Rc::new(doc.decoded((**summary).clone())));
            self.version = *version;
            self.open = Rc::new(summary.open.iter().copied().collect());
            self.gen = rows.gen;
            self.rows = Rc::new(RowCache {
                version: version.version,
                rows: rows.clone(),
            });
            self.status = Status::Idle;
            self.reveal = self.next_reveal(None, Some(summary.root.id));
            return Some(());
        }
        if !doc.is_decoded() {
            return None;
        }
        // A structure search's answer comes from a worker without the tree
        // (see `session::structure_search`): it says nothing of the tree.
        if !matches!(a, Answer::Found { .. }) {
            self.version = a.version();
        }
        let version = self.version.version;
        match a {
            Answer::Decoded { .. } => unreachable!("handled above"),
            Answer::Rows { rows, failed, .. } => {
                if rows.gen != self.gen {
                    return None; // an open set since changed
                }
                self.rows = Rc::new(RowCache {
                    version,
                    rows: rows.clone(),
                });
                // Only an answer to a request that sought this node settles the
                // search for it: rows asked for before it was selected (a
                // scroll's) say nothing of it.
                if let Some((id, pos)) = rows.found {
                    if self.finding == Some(id) {
                        // Found, or not shown (an ancestor closed since):
                        // either way, stop looking.
                        self.finding = None;
                        if let (Some(pos), true) = (pos, self.reveal.node == Some(id)) {
                            self.reveal.seq += 1;
                            self.reveal.row = Some(pos);
                            self.reveal.byte = None;
                        }
                    }
                }
                if let Some(p) = self.want_row {
                    if let Some(r) = rows.at(p) {
                        let r = r.clone();
                        self.want_row = None;
                        self.focus(&r, Origin::Tree, None);
                    } else if p >= rows.total {
                        self.want_row = None;
                    }
                }
                if self.rows_fresh() && !self.keys.is_empty() {
                    for k in std::mem::take(Rc::make_mut(&mut self.keys)) {
                        if let Some(next) = self.tree_key(k) {
                            *self = next;
                        }
                    }
                }
                if !failed.is_empty() {
                    let why: Vec<String> = failed.iter().map(|(_, e)| e.clone()).collect();
                    self.status =
                        Status::Failed(format!("could not decode that part: {}", why.join("; ")));
                    let open = Rc::make_mut(&mut self.open);
                    for (id, _) in failed {
                        open.remove(id);
                    }
                    self.gen += 1;
                }
            }
            Answer::Boxes { boxes, .. } => {
                self.boxes = Rc::new(BoxCache {
                    version,
                    boxes: boxes.clone(),
                });
            }
            Answer::Node { id, info, .. } => {
                if self.selected != Some(*id) {
                    return None;
                }
                let info = info.clone()?;
                if let Some(origin) = self.selecting {
                    self.focus(&info, origin, None);
                }
                self.details = Some(Rc::new(info));
            }
            Answer::Found {
                gen,
                from,
                found,
                error,
                whats,
                paths,
                ..
            } => {
                let x = self.search.as_ref()?;
                if x.gen != *gen || x.reached != *from || !x.running {
                    return None;
                }
                let size = doc.bytes.len();
                let mut hits = (*x.hits).clone();
                hits.extend_from_slice(&found.hits);
                hits.truncate(MAX_HITS);
                let first = x.hits.is_empty() && !hits.is_empty();
                let reached = found.reached.max(*from);
                self.search = Some(Rc::new(Search {
                    running: error.is_none()
                        && reached < size
                        && hits.len() < MAX_HITS
                        && reached > *from,
                    error: error.clone(),
                    whats: whats.clone(),
                    paths: if paths.is_empty() {
                        x.paths.clone()
                    } else {
                        let mut p = (*x.paths).clone();
                        p.extend(paths.iter().cloned());
                        p.truncate(MAX_HITS);
                        Rc::new(p)
                    },
                    hits: Rc::new(hits),
                    reached,
                    ..(**x).clone()
                }));
                if first {
                    // The first match shows at once (the first at or after the cursor
                    // would mean waiting for the whole file).
                    if let Some(s) = self.show_hit(0) {
                        *self = s;
                    }
                }
            }
            Answer::Hashed {
                from,
                reached,
                digest,
                ..
            } => {
                if self.sha.is_some()
                    || *from != self.sha_at
                    || *reached <= *from && digest.is_none()
                {
                    return None;
                }
                self.sha_at = *reached;
                self.sha = digest.as_deref().map(Rc::from);
            }
            Answer::Resolved { path, info, .. } => {
                if self.seek_path.as_ref() != Some(path) {
                    return None;
                }
                self.seek_path = None;
                match info {
                    Some(info) => {
                        self.seek = None;
                        let at = self.restoring.take();
                        self.focus(info, Origin::Other, at);
                        self.details = Some(Rc::new(info.clone()));
                    }
                    None => self.status = Status::Failed(format!("there is no node at {path}")),
                }
            }
            Answer::Paths {
                ids,
                resolved: true,
                ..
            } => {
                self.restore_open.take()?;
                // The nodes the link opens, and the way to the selected one.
                let mut open: OpenSet = ids.iter().copied().collect();
                open.insert(doc.summary.as_ref().map_or(0, |s| s.root.id));
                if let Some(d) = self.details.clone().filter(|d| Some(d.id) == self.selected) {
                    for c in &d.crumbs {
                        open.insert(c.0);
                    }
                }
                self.open = Rc::new(open);
                self.gen = self.gen.wrapping_add(1);
            }
            Answer::Paths {
                ids,
                paths,
                resolved: false,
                ..
            } => {
                let now: Vec<NodeId> = self.open.iter().copied().take(MAX_PATHS).collect();
                if *ids != now {
                    return None;
                }
                self.open_paths = Some((self.gen, Rc::new(paths.clone())));
            }
            Answer::Located { byte, info, .. } => {
                let (b, goto) = self.seek?;
                if b != *byte {
                    return None;
                }
                self.seek = None;
                if let Some(info) = info {
                    let origin = if goto { Origin::Other } else { Origin::Hex };
                    self.focus(info, origin, Some(b));
                    self.details = Some(Rc::new(info.clone()));
                }
            }
        }
        Some(())
    }

    /// Moves the tree's focus to row `pos`: at once if the row is held, else
    /// once it arrives (the tree pane scrolls there and asks for it).
    fn go_row(&self, pos: u64) -> Option<State> {
        if let Some(r) = self.rows_fresh().then(|| self.rows.rows.at(pos)).flatten() {
            return self.apply(Action::Select(r.id, Origin::Tree));
        }
        let mut s = self.clone();
        s.want_row = Some(pos);
        s.reveal = Reveal {
            seq: self.reveal.seq + 1,
            byte: None,
            node: None,
            row: Some(pos),
        };
        Some(s)
    }

    fn tree_key(&self, key: TreeKey) -> Option<State> {
        self.doc.as_ref().filter(|d| d.is_decoded())?;
        let queue = |s: &State| {
            let mut s = s.clone();
            Rc::make_mut(&mut s.keys).push(key);
            Some(s)
        };
        if !self.keys.is_empty() {
            // Keys act in the order they were pressed.
            return queue(self);
        }
        // Opening, closing and going to the parent need only the focused node.
        if let Some((id, row)) = self.selected.and_then(|id| Some((id, self.known(id)?))) {
            let open = self.open.contains(&id);
            match key {
                TreeKey::Enter => return self.apply(Action::Toggle(id)),
                TreeKey::Right if !row.has_kids() => return None,
                TreeKey::Right if !open => return self.apply(Action::Toggle(id)),
                TreeKey::Left if open && row.has_kids() => return self.apply(Action::Toggle(id)),
                TreeKey::Left => {
                    return row
                        .parent
                        .and_then(|p| self.apply(Action::Select(p, Origin::Tree)))
                }
                _ => {} // a move by rows (Right on an open node: to its first child)
            }
        }
        // A move by rows needs the rows as they are now.
        if !self.rows_fresh() || self.want_row.is_some() {
            // Positions are about to change, or the focus is on its way to a
            // row not held yet: the key waits for the fresh rows.
            return queue(self);
        }
        let total = self.rows.rows.total;
        let last = total.checked_sub(1)?;
        let Some(id) = self.selected else {
            // Nothing focused yet: any key focuses the first row.
            return self.go_row(0);
        };
        let Some(pos) = self.row_of(id) else {
            // The focused row is not among the rows held: show it first.
            let mut s = self.clone();
            s.reveal = s.next_reveal(None, Some(id));
            s.finding = Some(id);
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

    /// The selected bytes, `[start, end)` (`None`: none are).
    pub fn byte_range(&self) -> Option<(u64, u64)> {
        let a = self.anchor?;
        Some((a.min(self.cursor), a.max(self.cursor) + 1))
    }

    /// The bytes a copy takes: the selected bytes, else the selected node's,
    /// else the byte under the cursor.
    pub fn copy_range(&self) -> (u64, u64) {
        self.byte_range()
            .or_else(|| {
                let d = self
                    .details
                    .as_ref()
                    .filter(|d| Some(d.id) == self.selected)?;
                (d.end > d.start).then_some((d.start, d.end))
            })
            .unwrap_or((self.cursor, self.cursor + 1))
    }

    /// The node whose bytes the hex pane highlights: the hovered one.
    pub fn hovered(&self) -> Option<NodeId> {
        self.hover.map(|h| h.0)
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::bytes::FileBytes;
    use hexlens_core::session::Session;

    fn sample(name: &str) -> Vec<u8> {
        std::fs::read(format!(
            "{}/static/samples/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    #[test]
    fn open_sets_are_sorted_and_without_repeats_whatever_the_order_given() {
        let ids = |s: &OpenSet| s.iter().copied().collect::<Vec<_>>();
        let s: OpenSet = [5, 1, 3, 3, 9, 1, 0].into_iter().collect();
        assert_eq!(ids(&s), [0, 1, 3, 5, 9]);
        let s: OpenSet = (0..1000).collect();
        assert_eq!(ids(&s), (0..1000).collect::<Vec<_>>());
        assert!(s.contains(&999) && !s.contains(&1000));
    }

    /// The page and its worker: the store, and a session answering it over
    /// the wire form, with the panes showing rows `[0, 40)` and bytes `[0, 640)`
    /// unless a test scrolls them.
    struct Rig {
        s: State,
        w: Session<Vec<u8>>,
        tree_first: u64,
        hex_first: u64,
        asked: usize,
    }

    impl Rig {
        fn new(data: Vec<u8>, tree: Option<hexlens_core::Tree>) -> Rig {
            let w = match tree {
                Some(t) => Session::with_tree(data.clone(), "dxcontainer", t),
                None => Session::open(data.clone()),
            };
            let doc = Rc::new(Doc::pending(Rc::new(FileBytes::new("f", data)), 7));
            let s = State::default().apply(Action::Open(doc)).unwrap();
            let mut r = Rig {
                s,
                w,
                tree_first: 0,
                hex_first: 0,
                asked: 0,
            };
            let a = r.w.opened(100);
            r.feed(&a);
            r.settle();
            r
        }

        fn feed(&mut self, a: &Answer) {
            let a = hexlens_core::protocol::Answer::decode(&a.encode()).unwrap();
            if let Some(s) = self.s.apply(Action::Answer {
                load: 7,
                answer: Rc::new(a),
            }) {
                self.s = s;
            }
        }

        fn act(&mut self, a: Action) -> bool {
            match self.s.apply(a) {
                Some(s) => {
                    self.s = s;
                    self.settle();
                    true
                }
                None => false,
            }
        }

        /// Answers what the store asks until it asks nothing more (the panes
        /// follow a reveal as they do on screen).
        fn settle(&mut self) {
            for _ in 0..50 {
                if let Some(r) = self.s.reveal.row {
                    if r < self.tree_first || r >= self.tree_first + 40 {
                        self.tree_first = r.saturating_sub(10);
                    }
                }
                if let Some(b) = self.s.reveal.byte {
                    if b < self.hex_first || b >= self.hex_first + 640 {
                        self.hex_first = b / 16 * 16;
                    }
                }
                let mut asks = self.s.wants();
                asks.extend(self.s.tree_wants(self.tree_first, 40));
                asks.extend(self.s.hex_wants(self.hex_first, self.hex_first + 640));
                if asks.is_empty() {
                    return;
                }
                for q in asks {
                    self.asked += 1;
                    let a = match &q {
                        // The page sends these to the tools worker, which
                        // has no session (see `decoder::ask`).
                        Request::Search {
                            gen, query, max, ..
                        } if query.mode == hexlens_core::search::Mode::Structure => {
                            hexlens_core::session::structure_search(
                                self.w.source(),
                                *gen,
                                &query.text,
                                *max,
                                false,
                                &mut |_| {},
                            )
                        }
                        q => self.w.answer(q),
                    };
                    self.feed(&a);
                }
            }
            panic!("the store kept asking");
        }

        fn path(&self, id: NodeId) -> String {
            self.w.tree().path(id)
        }

        fn shown(&self, id: NodeId) -> bool {
            let r = &self.s.rows.rows;
            self.s.rows_fresh() && r.rows.iter().any(|n| n.id == id)
        }
    }

    fn eager_tree(data: &[u8]) -> hexlens_core::Tree {
        hexlens_core::decode_bytes(data).tree
    }

    #[test]
    fn a_selected_row_far_away_is_revealed_whatever_answers_come_between() {
        let data = sample("hs_mismatch_2_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data, None);
        // Open groups until the tree is several screens long.
        while r.s.rows.rows.total < 300 {
            let rows = &r.s.rows.rows;
            let shut = rows
                .rows
                .iter()
                .find(|n| n.has_kids() && !r.s.open.contains(&n.id));
            match shut {
                Some(n) => {
                    let id = n.id;
                    r.act(Action::Toggle(id));
                }
                None => {
                    assert!(
                        rows.first + (rows.rows.len() as u64) < rows.total,
                        "a closed group"
                    );
                    // The user scrolls down (away from the last reveal).
                    r.s.reveal.row = None;
                    r.tree_first += 40;
                    r.settle();
                }
            }
        }
        let pos = r.s.rows.rows.total - 1;
        r.s.reveal.row = None;
        r.tree_first = pos - 10;
        r.settle();
        let far = r.s.rows.rows.at(pos).expect("the last row, held").id;
        r.act(Action::Select(far, Origin::Tree));
        // Back to the top: the selected row is no longer held.
        r.s.reveal.row = None;
        r.tree_first = 0;
        r.settle();
        assert!(!r.shown(far));
        // Rows the tree pane asked for while scrolling, still on their way
        // when the node is selected again (its ancestors open: same open set).
        let scroll = r.w.answer(&Request::Rows {
            gen: r.s.gen,
            open: r.s.open.iter().copied().collect(),
            first: 0,
            count: 48,
            find: None,
        });
        r.s = r.s.apply(Action::Select(far, Origin::Other)).unwrap();
        assert_eq!(r.s.finding, Some(far), "its row is sought");
        r.feed(&scroll);
        assert_eq!(
            r.s.finding,
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
        assert_eq!((r.s.finding, r.s.reveal.row), (None, Some(pos)));
        let info = r.s.known(far).unwrap();
        r.s.focus(&info, Origin::Other, None);
        assert_eq!((r.s.finding, r.s.reveal.row), (None, Some(pos)));
        r.settle();
        assert_eq!(r.s.reveal.row, Some(pos));
        assert!(r.shown(far), "the tree scrolled to it");
    }

    #[test]
    fn clicking_a_byte_selects_its_owner_and_expands_the_tree_to_it() {
        let data = sample("hs_mismatch_2_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data.clone(), None);
        assert!(r.s.boxes.boxes.segment_at(0x35).is_some(), "boxes arrived");
        r.act(Action::ClickByte(0x35));
        let sel = r.s.selected.unwrap();
        let d = r.s.details.clone().unwrap();
        assert_eq!(d.id, sel);
        assert!(d.start <= 0x35 && 0x35 < d.end);
        assert!(r.shown(sel), "its row is shown");
        assert_eq!(r.s.reveal.node, Some(sel));
        assert_eq!(r.s.cursor, 0x35);
        let full = Session::with_tree(data.clone(), "x", eager_tree(&data));
        assert_eq!(r.path(sel), full.tree().path(full.owner(0x35).unwrap()));
    }

    #[test]
    fn hovering_inside_one_field_changes_nothing_and_lights_up_its_row() {
        let mut r = Rig::new(sample("hs_mismatch_2_code_dxil.dxil.dxbc"), None);
        r.act(Action::HoverByte(Some(0)));
        let info = r.s.hover_info.clone().unwrap();
        assert_eq!(info.name, "Magic");
        assert_eq!(
            info.crumbs.iter().map(|c| c.1.as_str()).collect::<Vec<_>>(),
            ["", "Header"].map(|s| if s.is_empty() {
                r.w.tree().name(0).to_string()
            } else {
                s.to_string()
            })
        );
        // Header is open at first: the row shown is Magic itself.
        assert_eq!(r.s.shown_as(&info), info.id);
        assert!(!r.act(Action::HoverByte(Some(1))), "magic is one field");
        assert!(r.act(Action::HoverByte(None)));
        assert!(r.s.hover_info.is_none());
        // Tree hover: the row's own range.
        let parts = r.w.tree().find("Parts").unwrap();
        r.act(Action::HoverNode(Some(parts)));
        assert_eq!(r.s.hover_info.as_ref().unwrap().path, "Parts");
    }

    #[test]
    fn tree_keys_walk_like_a_native_tree() {
        let mut r = Rig::new(sample("basic_code_dxil.dxil.dxbc"), None);
        let t = r.w.tree();
        let root = t.root();
        let header = t.find("Header").unwrap();
        let magic = t.find("Header/Magic").unwrap();
        r.act(Action::TreeKey(TreeKey::Down));
        assert_eq!(r.s.selected, Some(root));
        r.act(Action::TreeKey(TreeKey::Down));
        assert_eq!(r.s.selected, Some(header));
        // Left on an open node collapses it, Left again goes to the parent.
        r.act(Action::TreeKey(TreeKey::Left));
        assert!(!r.s.open.contains(&header));
        assert!(!r.shown(magic));
        r.act(Action::TreeKey(TreeKey::Left));
        assert_eq!(r.s.selected, Some(root));
        r.act(Action::TreeKey(TreeKey::Down));
        // Right expands, Right again enters the first child.
        r.act(Action::TreeKey(TreeKey::Right));
        assert!(r.s.open.contains(&header));
        r.act(Action::TreeKey(TreeKey::Right));
        assert_eq!(r.s.selected, Some(magic));
        // A key pressed before the rows of a toggle arrive waits for them
        // when it moves by rows; opening and closing act at once.
        r.act(Action::TreeKey(TreeKey::Left));
        let closed = r.s.apply(Action::TreeKey(TreeKey::Enter)).unwrap();
        assert!(!closed.open.contains(&header) && closed.keys.is_empty());
        let reopened = closed.apply(Action::TreeKey(TreeKey::Enter)).unwrap();
        assert!(reopened.open.contains(&header) && reopened.keys.is_empty());
        let stale = r.s.apply(Action::Toggle(header)).unwrap();
        let stale = stale.apply(Action::TreeKey(TreeKey::Down)).unwrap();
        assert_eq!(stale.selected, Some(header), "not moved yet");
        r.s = stale;
        r.settle();
        assert!(r.s.keys.is_empty());
        assert_ne!(r.s.selected, Some(header), "moved once the rows came");
        r.act(Action::Select(magic, Origin::Tree));
        r.act(Action::TreeKey(TreeKey::End));
        let last = r.s.rows.rows.total - 1;
        assert_eq!(r.s.row_of(r.s.selected.unwrap()), Some(last));
        r.act(Action::TreeKey(TreeKey::Home));
        assert_eq!(r.s.selected, Some(root));
        assert!(!r.act(Action::TreeKey(TreeKey::Up)));
    }

    #[test]
    fn a_pending_file_becomes_what_the_worker_says() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let bytes = Rc::new(FileBytes::new("f", data.clone()));
        let s = State::default()
            .apply(Action::Open(Rc::new(Doc::pending(bytes, 7))))
            .unwrap();
        assert!(matches!(s.status, Status::Decoding { done: 0, .. }));
        assert!(!s.doc.as_ref().unwrap().is_decoded());
        assert!(
            !s.doc.as_ref().unwrap().is_raw(),
            "not called raw before decoding"
        );
        assert!(
            s.tree_wants(0, 40).is_none(),
            "nothing to ask before decoding"
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
        let w = Session::open(data.clone());
        let a = Rc::new(w.opened(100));
        assert!(s
            .apply(Action::Answer {
                load: 6,
                answer: a.clone()
            })
            .is_none());
        let s = s
            .apply(Action::Answer {
                load: 7,
                answer: a.clone(),
            })
            .unwrap();
        let doc = s.doc.clone().unwrap();
        assert!(doc.is_decoded());
        assert_eq!(s.status, Status::Idle);
        assert_eq!(doc.format, "dxcontainer");
        assert_eq!(s.version.nodes, w.tree().len() as u64);
        assert_eq!(s.rows.rows.rows[0].id, w.tree().root());
        // A second answer for the same load is ignored.
        assert!(s.apply(Action::Answer { load: 7, answer: a }).is_none());
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
        r.act(Action::Select(lazy, Origin::Other));
        assert!(r.shown(lazy));
        let row = r.s.details.clone().unwrap();
        assert!(row.lazy);
        let before = r.s.version.nodes;
        r.act(Action::Select(row.id, Origin::Tree));
        r.act(Action::Toggle(row.id));
        assert!(r.s.version.nodes > before, "the worker decoded it");
        let pos = r.s.row_of(row.id).unwrap();
        let now = r.s.rows.rows.at(pos).unwrap();
        assert!(!now.lazy && now.children > 0);
        let child = r.s.rows.rows.at(pos + 1).unwrap();
        assert_eq!(child.parent, Some(row.id));
    }

    #[test]
    fn a_search_finds_every_match_shows_the_first_and_moves_through_them() {
        use hexlens_core::search::{Mode, Query};
        let data = sample("basic_code_dxil.dxil.dxbc");
        let want: Vec<u64> = data
            .windows(4)
            .enumerate()
            .filter(|(_, w)| w == b"DXIL")
            .map(|(i, _)| i as u64)
            .collect();
        assert!(want.len() >= 2, "{want:?}");
        let mut r = Rig::new(data.clone(), None);
        r.act(Action::Search(Query::new(Mode::Hex, "44 58 49 4C")));
        let x = r.s.search.clone().unwrap();
        assert!(!x.running && x.error.is_none());
        assert_eq!(x.reached, data.len() as u64);
        let got: Vec<u64> = x.hits.iter().map(|h| h.start).collect();
        assert_eq!(got, want);
        // The first match is shown: the cursor on it, its owner selected.
        assert_eq!(x.current, Some(0));
        assert_eq!(r.s.cursor, want[0]);
        assert!(r.s.selected.is_some());
        r.act(Action::SearchMove(1));
        assert_eq!(r.s.cursor, want[1]);
        assert_eq!(r.s.search.as_ref().unwrap().current, Some(1));
        r.act(Action::SearchMove(-1));
        r.act(Action::SearchMove(-1));
        assert_eq!(r.s.cursor, *want.last().unwrap(), "going back wraps around");
        // A query that cannot be searched says why and asks the worker nothing.
        r.act(Action::Search(Query::new(Mode::Number, "12abc")));
        let x = r.s.search.clone().unwrap();
        assert!(x.error.is_some() && !x.running && x.hits.is_empty());
        assert!(!r
            .s
            .wants()
            .iter()
            .any(|w| matches!(w, Request::Search { .. })));
    }

    #[test]
    fn a_stopped_search_keeps_its_matches_and_asks_no_more() {
        use hexlens_core::search::{Mode, Query};
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data, None);
        // Start a search without answering it, then stop it.
        r.s =
            r.s.apply(Action::Search(Query::new(Mode::Hex, "44 58")))
                .unwrap();
        assert!(r
            .s
            .wants()
            .iter()
            .any(|w| matches!(w, Request::Search { .. })));
        r.s = r.s.apply(Action::SearchStop).unwrap();
        assert!(!r
            .s
            .wants()
            .iter()
            .any(|w| matches!(w, Request::Search { .. })));
        let x = r.s.search.clone().unwrap();
        assert!(!x.running && x.reached == 0);
    }

    #[test]
    fn a_click_in_a_group_not_decoded_yet_opens_it_down_to_the_byte() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let tree =
            hexlens_core::decode_with(&data.as_slice(), &hexlens_core::view::viewer_options()).tree;
        let mut r = Rig::new(data.clone(), Some(tree));
        let full = Session::with_tree(data.clone(), "x", eager_tree(&data));
        let b = data.len() as u64 - 40;
        let want = full.tree().path(full.owner(b).unwrap());
        r.act(Action::Goto(b));
        assert_eq!(r.s.seek, None);
        let sel = r.s.selected.unwrap();
        assert_eq!(r.path(sel), want);
        assert!(!r.w.tree().is_lazy(sel));
        assert_eq!(r.s.cursor, b);
        assert!(r.shown(sel), "its row is shown");
        assert!(r.s.reveal.row.is_some() && r.s.reveal.node == Some(sel));
        // The boxes were asked again after the groups opened: the byte's
        // owner is now the field itself.
        assert_eq!(r.s.boxes.boxes.segment_at(b).map(|g| g.owner), Some(sel));
    }

    #[test]
    fn after_a_crash_the_decoder_is_not_asked_again() {
        let mut r = Rig::new(sample("basic_code_dxil.dxil.dxbc"), None);
        assert!(r.s.tree_wants(500, 40).is_some() || r.s.rows.rows.total < 500);
        r.s = r.s.apply(Action::Crashed("boom".into())).unwrap();
        assert!(r.s.tree_wants(0, 4000).is_none());
        assert!(r.s.hex_wants(1 << 20, 2 << 20).is_none());
        r.s = r.s.apply(Action::ClickByte(3)).unwrap();
        assert!(r.s.wants().is_empty());
        assert!(matches!(r.s.status, Status::Crashed(_)));
    }

    #[test]
    fn goto_clamps_to_the_file_and_reveals_both_panes() {
        let mut r = Rig::new(sample("embedded_rs_vs_space0_code_dxbc.dxbc"), None);
        r.act(Action::Goto(1 << 40));
        assert_eq!(r.s.cursor, 455);
        assert!(r.s.selected.is_some());
        assert!(r.s.reveal.node.is_some());
    }

    #[test]
    fn a_long_list_is_walked_a_window_at_a_time() {
        // Rows far down a long list arrive when the pane scrolls there; a key
        // that leaves the rows held waits for them.
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data, None);
        // Open everything: many more rows than a window.
        let all: Vec<NodeId> = (0..r.w.tree().len() as NodeId).collect();
        r.s.open = Rc::new(all.into_iter().collect());
        r.s.gen += 1;
        r.settle();
        let total = r.s.rows.rows.total;
        assert!(total > 400, "{total}");
        assert!(
            (r.s.rows.rows.rows.len() as u64) < total,
            "only a window is held"
        );
        let asked = r.asked;
        r.act(Action::TreeKey(TreeKey::Down));
        r.act(Action::TreeKey(TreeKey::End));
        assert_eq!(r.s.row_of(r.s.selected.unwrap()), Some(total - 1));
        assert!(r.asked > asked);
        r.act(Action::TreeKey(TreeKey::PageUp(30)));
        assert_eq!(r.s.row_of(r.s.selected.unwrap()), Some(total - 31));
        // Keys pressed while the focus waits for a row not held yet count
        // from that row, not from where the focus was.
        r.act(Action::TreeKey(TreeKey::Home));
        let mut s = r.s.clone();
        for _ in 0..3 {
            s = s.apply(Action::TreeKey(TreeKey::PageDown(150))).unwrap();
        }
        r.s = s;
        r.settle();
        assert_eq!(r.s.row_of(r.s.selected.unwrap()), Some(450));
    }

    #[test]
    fn the_file_is_hashed_in_steps_and_the_digest_is_its_sha_256() {
        use sha2::Digest;
        let data = sample("basic_code_dxil.dxil.dxbc");
        let want: String = sha2::Sha256::digest(&data)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let r = Rig::new(data, None);
        assert_eq!(r.s.sha.as_deref(), Some(want.as_str()));
        assert!(!r
            .s
            .wants()
            .iter()
            .any(|q| matches!(q, Request::Hash { .. })));
    }

    #[test]
    fn a_drag_shift_arrows_and_a_click_make_and_clear_the_byte_selection() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data.clone(), None);
        assert_eq!(r.s.byte_range(), None);
        r.act(Action::SelectBytes(0x30, 0x20));
        assert_eq!(r.s.byte_range(), Some((0x20, 0x31)));
        assert_eq!(r.s.cursor, 0x20);
        assert_eq!(r.s.copy_range(), (0x20, 0x31));
        // Shift+arrows move the cursor end; the anchor stays.
        r.act(Action::MoveCursor(0x20, true));
        assert_eq!(r.s.byte_range(), Some((0x30, 0x41)));
        // Ends past the file are clipped to its last byte.
        r.act(Action::SelectBytes(4, u64::MAX));
        assert_eq!(r.s.byte_range(), Some((4, data.len() as u64)));
        // A plain arrow or a click ends the selection; a copy then takes the
        // selected node's bytes.
        r.act(Action::MoveCursor(-1, false));
        assert_eq!(r.s.byte_range(), None);
        r.act(Action::SelectBytes(1, 2));
        r.act(Action::ClickByte(0x35));
        assert_eq!(r.s.byte_range(), None);
        let d = r.s.details.clone().unwrap();
        assert_eq!(Some(d.id), r.s.selected);
        assert_eq!(r.s.copy_range(), (d.start, d.end));
    }

    #[test]
    fn a_restored_place_selects_the_node_at_its_path_and_puts_the_cursor_back() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data.clone(), None);
        let sha = r.s.sha.as_deref().unwrap().to_string();
        let path = "Parts/[4]/Program/DXIL";
        let jumps = r.s.jumps;
        // Another file's place is ignored.
        assert!(!r.act(Action::Restore {
            sha: "00".repeat(32),
            path: Some(path.into()),
            at: Some(9),
            open: Vec::new(),
        }));
        r.act(Action::Restore {
            sha,
            path: Some(path.into()),
            at: Some(0x123),
            open: Vec::new(),
        });
        let d = r.s.details.clone().unwrap();
        assert_eq!(d.path, path);
        assert_eq!(Some(d.id), r.s.selected);
        assert_eq!(r.s.cursor, 0x123);
        // Its ancestors are open, so its row shows.
        assert!(d.crumbs.iter().all(|c| r.s.open.contains(&c.0)));
        assert!(r.shown(d.id));
        // Restoring is not a jump (no new history entry); a go-to is.
        assert_eq!(r.s.jumps, jumps);
        r.act(Action::Goto(0x40));
        assert_eq!(r.s.jumps, jumps + 1);
        // A path that names nothing says so.
        r.act(Action::Restore {
            sha: String::new(),
            path: Some("Parts/[77]".into()),
            at: None,
            open: Vec::new(),
        });
        assert!(matches!(&r.s.status, Status::Failed(m) if m.contains("Parts/[77]")));
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
            r.act(Action::Restore {
                sha: String::new(),
                path: Some(p.into()),
                at: None,
                open: Vec::new(),
            });
            let id = r.s.selected.unwrap();
            if !r.s.open.contains(&id) {
                r.act(Action::Toggle(id));
            }
        }
        let (gen, paths) = r.s.open_paths.clone().unwrap();
        assert_eq!(gen, r.s.gen);
        for p in want {
            assert!(paths.iter().any(|q| q == p), "{p} in {paths:?}");
        }
        assert!(paths.iter().all(|p| eager.tree.find(p).is_some()));
        // A new view of the same file, given those paths, opens those nodes.
        let mut fresh = Rig::new(data, None);
        fresh.act(Action::Restore {
            sha: String::new(),
            path: Some(want[1].into()),
            at: None,
            open: (*paths).clone(),
        });
        assert!(fresh.s.restore_open.is_none());
        let (_, again) = fresh.s.open_paths.clone().unwrap();
        let mut a = (*again).clone();
        let mut b = (*paths).clone();
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }

    #[test]
    fn a_structure_search_goes_through_its_nodes_selecting_each() {
        use hexlens_core::search::{Mode, Query};
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data.clone(), None);
        r.act(Action::Search(Query::new(Mode::Structure, "Parts/*/Name")));
        let x = r.s.search.clone().unwrap();
        assert!(!x.running && x.error.is_none());
        let eager = hexlens_core::decode_bytes(&data);
        let parts = eager.tree.find("Parts").unwrap();
        let want: Vec<String> = eager
            .tree
            .children(parts)
            .iter()
            .map(|&p| format!("{}/Name", eager.tree.path(p)))
            .collect();
        assert_eq!(*x.paths, want);
        assert_eq!(x.hits.len(), want.len());
        for (i, p) in want.iter().enumerate() {
            if i > 0 {
                r.act(Action::SearchMove(1));
            }
            let d = r.s.details.clone().unwrap();
            assert_eq!(&d.path, p, "match {i}");
            assert_eq!(Some(d.id), r.s.selected);
            assert_eq!(r.s.search.as_ref().unwrap().current, Some(i));
        }
        // A match picked from the list, out of order.
        for i in [3, 0, want.len() - 1] {
            r.act(Action::SearchShow(i));
            assert_eq!(r.s.details.clone().unwrap().path, want[i]);
            assert_eq!(r.s.search.as_ref().unwrap().current, Some(i));
        }
        // One past the end is no match: nothing changes.
        let before = r.s.search.as_ref().unwrap().current;
        assert!(r.s.apply(Action::SearchShow(want.len())).is_none());
        assert_eq!(r.s.search.as_ref().unwrap().current, before);
    }

    #[test]
    fn a_compared_file_stands_beside_the_open_one_until_another_opens() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data.clone(), None);
        assert!(r.s.other.is_none());
        assert!(!r.act(Action::Align(4)), "nothing to line up");
        let b = Rc::new(FileBytes::new("b", data[..100].to_vec()));
        assert!(r.act(Action::Compare(Some(b))));
        let o = r.s.other.clone().unwrap();
        assert_eq!((o.delta, o.beside(99), o.beside(100)), (0, Some(99), None));
        assert_eq!(o.rows(data.len() as u64), (data.len() as u64).div_ceil(16));
        // Lined up by a node's starts: B's byte 0 beside A's byte 40.
        assert!(r.act(Action::Align(-40)));
        let o = r.s.other.clone().unwrap();
        assert_eq!(
            (o.beside(39), o.beside(40), o.beside(139)),
            (None, Some(0), Some(99))
        );
        assert!(!r.act(Action::Align(-40)), "already lined up so");
        // B past A's end: the rows go on to B's end.
        let long = Rc::new(FileBytes::new("b", vec![0; data.len() + 40]));
        r.act(Action::Compare(Some(long)));
        let o = r.s.other.clone().unwrap();
        assert_eq!(
            o.rows(data.len() as u64),
            (data.len() as u64 + 40).div_ceil(16)
        );
        assert!(r.act(Action::Compare(None)));
        assert!(r.s.other.is_none());
        assert!(!r.act(Action::Compare(None)));
        // Opening a file ends the comparison.
        r.act(Action::Compare(Some(Rc::new(FileBytes::new("b", vec![1])))));
        let doc = Rc::new(Doc::pending(Rc::new(FileBytes::new("g", data)), 8));
        r.act(Action::Open(doc));
        assert!(r.s.other.is_none());
    }
}
