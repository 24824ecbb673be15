//! What the web viewer's page and its workers say to each other: the
//! questions a viewer asks its [`crate::session::Session`] ([`Request`]), the
//! answers ([`Answer`]) and what they carry, and one compact binary form of
//! both for the messages between them.
//!
//! The form is private to one build of hexlens (both ends run the same code):
//! a magic, a tag, then the message's fields in order. Integers are LEB128;
//! strings are length-prefixed UTF-8. Decoding checks every length and returns
//! an error, never panics, on bad input.
//!
//! Every message between the page and a worker is one envelope, `{type, job,
//! …}`: `job` is the one id (the load of a file a message is about); a request
//! is `{type: "ask", job, data}` and its answer `{type: "answer", job, data}`,
//! `data` the binary form.

use crate::tree::{Kind, NodeId};
use std::rc::Rc;

/// Deeper nesting than this is owned by the node at this depth in the field
/// boxes, and ends a walk up their parents (keeps both bounded on hostile
/// files).
pub(crate) const MAX_DEPTH: usize = 400;

const MAGIC: &[u8; 4] = b"HXW2";

/// What a viewer shows of one node.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NodeInfo {
    /// The node.
    pub id: NodeId,
    /// Its parent (`None` for the root).
    pub parent: Option<NodeId>,
    /// Nesting depth (the root is 0).
    pub depth: u32,
    /// Field name.
    pub name: String,
    /// Kind (a [`Kind::code`]).
    pub kind: u8,
    /// First byte (the bit span rounded outwards, clipped to the file).
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
    /// The span in bits when it is not byte aligned.
    pub bits: Option<(u64, u64)>,
    /// The bytes the node refers to (a string an offset points at).
    pub reference: Option<(u64, u64)>,
    /// The row text: a naming field first, then the value and its rendering.
    pub text: String,
    /// Number of children decoded.
    pub children: u64,
    /// Children not decoded yet: opening the node decodes them.
    pub lazy: bool,
    /// The node's own error, if any.
    pub error: Option<String>,
    /// Something below holds an error.
    pub damaged: bool,
    /// Slash-separated path (empty for the root). Empty in field boxes.
    pub path: String,
    /// Ancestors, root first, with their names. Empty in field boxes (which
    /// carry parents instead).
    pub crumbs: Vec<(NodeId, String)>,
    /// Details only: the value in full (up to [`clip::DETAILS`] bytes).
    pub value: Option<String>,
    /// Details only: the decoder's rendering of the value.
    pub display: Option<String>,
    /// Details only: what the format's description says of the node (a
    /// `.ksy` field's `doc`).
    pub doc: Option<String>,
    /// Where the node is in bytes a `process` made (offsets into them, the
    /// node's `start`/`end` being its holder's bytes in the file), or, on
    /// the field whose `process` made them, all of them.
    pub inner: Option<(u64, u64)>,
}

impl NodeInfo {
    /// The node's kind.
    pub fn kind(&self) -> Kind {
        Kind::from_code(self.kind).unwrap_or(Kind::Unknown)
    }

    /// The bytes to show for the node: its own, or for a node without bytes of
    /// its own (a derived value), the bytes it refers to.
    pub fn shown_range(&self) -> (u64, u64) {
        match self.reference {
            Some(r) if self.start >= self.end => r,
            _ => (self.start, self.end),
        }
    }

    /// True if opening the node shows something.
    pub fn has_kids(&self) -> bool {
        self.children > 0 || self.lazy
    }
}

/// The rows `[first, first + rows.len())` of the tree pane.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Rows {
    /// The open set these rows follow (the viewer's count of its changes).
    pub gen: u32,
    /// Number of rows in all.
    pub total: u64,
    /// Position of the first row given.
    pub first: u64,
    /// The rows (shared: a viewer hands them to its row views without copying).
    pub rows: Vec<Rc<NodeInfo>>,
    /// The node the viewer asked to find (if it asked), and its position if
    /// it is shown (`None`: an ancestor is closed). An answer to a request
    /// that asked for no node says nothing of the one the viewer seeks now.
    pub found: Option<(NodeId, Option<u64>)>,
}

impl Rows {
    /// The row at position `pos`, if given.
    pub fn at(&self, pos: u64) -> Option<&Rc<NodeInfo>> {
        self.rows.get(pos.checked_sub(self.first)? as usize)
    }

    /// Position of node `id`, if among the rows given.
    pub fn position(&self, id: NodeId) -> Option<u64> {
        self.rows
            .iter()
            .position(|r| r.id == id)
            .map(|i| self.first + i as u64)
    }
}

/// One run of bytes owned by one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    /// First byte.
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
    /// The innermost node owning the bytes.
    pub owner: NodeId,
}

/// The field boxes of bytes `[start, end)`: which node owns each byte, and
/// enough about the owners and their ancestors for hovering a byte to stay a
/// lookup in the viewer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Boxes {
    /// First byte covered.
    pub start: u64,
    /// One past the last byte covered.
    pub end: u64,
    /// Segments tiling `[start, end)` (clipped to the file), in file order.
    pub segments: Vec<Segment>,
    /// The owners and all their ancestors (without paths and crumbs), by id.
    pub nodes: Vec<NodeInfo>,
}

impl Boxes {
    /// The segment holding `byte`.
    pub fn segment_at(&self, byte: u64) -> Option<Segment> {
        let i = self
            .segments
            .partition_point(|s| s.start <= byte)
            .checked_sub(1)?;
        let s = self.segments[i];
        (byte < s.end).then_some(s)
    }

    /// What the boxes know of node `id` (`nodes` is sorted by id).
    pub fn node(&self, id: NodeId) -> Option<&NodeInfo> {
        let i = self.nodes.binary_search_by_key(&id, |n| n.id).ok()?;
        Some(&self.nodes[i])
    }

    /// The ancestors of `id`, root first, with their names (from the parents
    /// the boxes carry).
    pub fn crumbs(&self, id: NodeId) -> Vec<(NodeId, String)> {
        let mut out = Vec::new();
        let mut cur = self.node(id).and_then(|n| n.parent);
        while let Some(p) = cur {
            let Some(n) = self.node(p) else { break };
            out.push((p, n.name.clone()));
            cur = n.parent;
            if out.len() > MAX_DEPTH {
                break;
            }
        }
        out.reverse();
        out
    }
}

/// A question a viewer asks its session (the web viewer's page asks its decode
/// worker; [`Session::answer`] answers).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Request {
    /// Take this open set (generation `gen`) and give rows `[first, first + count)`,
    /// and the position of `find`.
    Rows {
        /// Generation of the open set.
        gen: u32,
        /// The open set.
        open: Vec<NodeId>,
        /// First row wanted.
        first: u64,
        /// Rows wanted.
        count: u64,
        /// A node whose row position is wanted.
        find: Option<NodeId>,
    },
    /// The field boxes of bytes `[start, end)`.
    Boxes {
        /// First byte.
        start: u64,
        /// One past the last byte.
        end: u64,
    },
    /// One node's details.
    Node(NodeId),
    /// The innermost node owning a byte, opening small groups on the way.
    Locate(u64),
    /// Search `query`'s matches starting in `[from, to)`, at most `max` of them
    /// (search number `gen`, which the answer carries back).
    Search {
        gen: u32,
        query: crate::search::Query,
        from: u64,
        to: u64,
        max: u32,
    },
    /// The node at a path (as the JSON contract writes paths), opening the
    /// groups on the way.
    Path(String),
    /// Hash the file's bytes `[from, to)` into its SHA-256 (steps must follow
    /// one another from 0; a step from 0 starts over).
    Hash {
        /// First byte.
        from: u64,
        /// One past the last byte.
        to: u64,
    },
    /// The paths of these nodes (an open set, to put in a link).
    PathsOf(Vec<NodeId>),
    /// The nodes at these paths, opening the groups on the way (an open set
    /// a link holds).
    Resolve(Vec<String>),
}

/// Most nodes or paths one [`Request::PathsOf`] or [`Request::Resolve`] takes.
pub const MAX_PATHS: usize = 256;

/// What the viewer needs once a file is decoded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Summary {
    /// The decoder that read the file, or `raw`.
    pub format: String,
    /// Errors among the nodes decoded at opening.
    pub errors: u64,
    /// The first of them, depth first.
    pub first_error: Option<NodeInfo>,
    /// The root.
    pub root: NodeInfo,
    /// The open set to start with: the root and its group children that are
    /// decoded, so a container's header and parts show at once.
    pub open: Vec<NodeId>,
}

/// Every answer says how far the tree has been decoded: a viewer holding
/// boxes or rows from before an expansion asks again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Version {
    /// Grows with every expansion.
    pub version: u32,
    /// Nodes decoded.
    pub nodes: u64,
}

/// One row of the merged tree of a comparison, as the comparison panel lists
/// it (see [`crate::diff::Row`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergedRow {
    /// Its depth in the merged tree.
    pub depth: u32,
    /// `same`, `changed`, `moved`, `removed`, `added` or `inside`.
    pub mark: String,
    /// The row's text (`hexlens diff --tree`'s line without its indent).
    pub text: String,
    /// The node's path (in B for an addition).
    pub path: String,
    /// The difference it shows, by its number in the comparison's list.
    pub difference: Option<usize>,
    /// The offsets in A and B that stand side by side when it is shown.
    pub align: (u64, u64),
}

impl MergedRow {
    /// The panel's row of merged-tree row `r`.
    pub fn of(r: &crate::diff::Row) -> Self {
        MergedRow {
            depth: r.depth,
            mark: r.mark.name().to_string(),
            text: r.label(),
            path: r.path.clone(),
            difference: r.difference,
            align: r.align,
        }
    }
}

/// One answer of the decode worker (or of the tools module, for a
/// comparison).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A file decoded: what shows first, and the first rows of the tree pane.
    Decoded {
        /// How far the tree is decoded.
        version: Version,
        /// The file's summary.
        summary: Box<Summary>,
        /// The first rows for the summary's open set (generation 0).
        rows: Rows,
    },
    /// Rows of the tree pane, and the groups that could not be opened.
    Rows {
        /// How far the tree is decoded.
        version: Version,
        /// The rows.
        rows: Rows,
        /// Groups whose decoding failed, with why.
        failed: Vec<(NodeId, String)>,
    },
    /// The field boxes of a byte window.
    Boxes {
        /// How far the tree is decoded.
        version: Version,
        /// The boxes.
        boxes: Boxes,
    },
    /// One node's details (`None`: no such node).
    Node {
        /// How far the tree is decoded.
        version: Version,
        /// The node asked for.
        id: NodeId,
        /// Its details.
        info: Option<NodeInfo>,
    },
    /// The innermost node owning a byte, after opening the small groups on
    /// the way.
    Located {
        /// How far the tree is decoded.
        version: Version,
        /// The byte asked about.
        byte: u64,
        /// Its owner (`None` past the end of the file).
        info: Option<NodeInfo>,
    },
    /// One step of a search (see [`Request::Search`]).
    Found {
        /// How far the tree is decoded.
        version: Version,
        /// The search's number, as asked.
        gen: u32,
        /// Where the step began.
        from: u64,
        /// What it found, and where the next step begins.
        found: crate::search::Found,
        /// Why the query cannot be searched (then nothing was).
        error: Option<String>,
        /// What each needle is (`u32 LE`, `UTF-16BE`), by needle number.
        whats: Vec<String>,
        /// A structure search: each hit's node path, by hit (empty for bytes).
        paths: Vec<String>,
    },
    /// One step of hashing the file (see [`Request::Hash`]).
    Hashed {
        /// How far the tree is decoded.
        version: Version,
        /// Where the step began.
        from: u64,
        /// The bytes hashed so far.
        reached: u64,
        /// The SHA-256 in hex, once the whole file is hashed.
        digest: Option<String>,
    },
    /// The node at a path, after opening the groups on the way.
    Resolved {
        /// How far the tree is decoded.
        version: Version,
        /// The path asked about.
        path: String,
        /// Its node (`None`: no such node).
        info: Option<NodeInfo>,
    },
    /// Nodes and their paths: the paths of the nodes asked about
    /// ([`Request::PathsOf`]), or the nodes of the paths
    /// asked about that exist ([`Request::Resolve`]).
    Paths {
        /// How far the tree is decoded.
        version: Version,
        /// The nodes.
        ids: Vec<NodeId>,
        /// Their paths, one a node.
        paths: Vec<String>,
        /// True: the answer to a `Resolve`.
        resolved: bool,
    },
    /// The open file (A) compared with a second one (B) by their structure
    /// (the tools module's answer; it decodes both files itself).
    Compared {
        /// Always the default: the comparison's trees are not the session's.
        version: Version,
        /// The comparison's one-line summary.
        summary: String,
        /// The merged tree's rows.
        rows: Vec<MergedRow>,
        /// Why the files could not be compared (then there are no rows).
        error: Option<String>,
    },
}

impl Answer {
    /// The answer's binary form (the `data` of an `answer` message).
    pub fn encode(&self) -> Vec<u8> {
        encode_answer(self)
    }

    /// Reads what [`Answer::encode`] wrote.
    pub fn decode(bytes: &[u8]) -> Result<Answer, String> {
        decode_answer(bytes)
    }

    /// How far the tree was decoded when this answer was made.
    pub fn version(&self) -> Version {
        match self {
            Answer::Decoded { version, .. }
            | Answer::Rows { version, .. }
            | Answer::Boxes { version, .. }
            | Answer::Node { version, .. }
            | Answer::Located { version, .. }
            | Answer::Found { version, .. }
            | Answer::Hashed { version, .. }
            | Answer::Resolved { version, .. }
            | Answer::Paths { version, .. }
            | Answer::Compared { version, .. } => *version,
        }
    }
}

// Kept over postcard: larger, slower answers, larger page (bench/RESULTS.md, "Library choices").
/// Appends LEB128 integers and length-prefixed strings.
struct Out(Vec<u8>);

impl Out {
    fn uint(&mut self, v: u64) {
        crate::varint::encode(v, &mut self.0);
    }
    /// A list of node ids: its length, then each.
    fn ids(&mut self, ids: &[NodeId]) {
        self.uint(ids.len() as u64);
        for &id in ids {
            self.uint(u64::from(id));
        }
    }
    fn str(&mut self, s: &str) {
        self.uint(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }
    fn opt_str(&mut self, s: &Option<String>) {
        match s {
            None => self.0.push(0),
            Some(s) => {
                self.0.push(1);
                self.str(s);
            }
        }
    }
    fn pair(&mut self, p: &Option<(u64, u64)>) {
        match p {
            None => self.0.push(0),
            Some((a, b)) => {
                self.0.push(1);
                self.uint(*a);
                self.uint(*b);
            }
        }
    }
    fn version(&mut self, v: &Version) {
        self.uint(u64::from(v.version));
        self.uint(v.nodes);
    }
    fn info(&mut self, n: &NodeInfo) {
        self.uint(u64::from(n.id));
        self.uint(n.parent.map_or(0, |p| u64::from(p) + 1));
        self.uint(u64::from(n.depth));
        self.str(&n.name);
        self.0.push(n.kind);
        self.0.push(u8::from(n.lazy) | u8::from(n.damaged) << 1);
        self.uint(n.start);
        self.uint(n.end);
        self.pair(&n.bits);
        self.pair(&n.reference);
        self.str(&n.text);
        self.uint(n.children);
        self.opt_str(&n.error);
        self.str(&n.path);
        self.uint(n.crumbs.len() as u64);
        for (id, name) in &n.crumbs {
            self.uint(u64::from(*id));
            self.str(name);
        }
        self.opt_str(&n.value);
        self.opt_str(&n.display);
        self.opt_str(&n.doc);
        self.pair(&n.inner);
    }
    fn opt_info(&mut self, n: &Option<NodeInfo>) {
        match n {
            None => self.0.push(0),
            Some(n) => {
                self.0.push(1);
                self.info(n);
            }
        }
    }
    fn rows(&mut self, r: &Rows) {
        self.uint(u64::from(r.gen));
        self.uint(r.total);
        self.uint(r.first);
        self.uint(r.rows.len() as u64);
        for n in &r.rows {
            self.info(n);
        }
        // 0: no node asked for; 1: asked for and shown at a row; 2: asked
        // for, not shown.
        match r.found {
            None => self.0.push(0),
            Some((id, Some(p))) => {
                self.0.push(1);
                self.uint(u64::from(id));
                self.uint(p);
            }
            Some((id, None)) => {
                self.0.push(2);
                self.uint(u64::from(id));
            }
        }
    }
}

/// The binary form of `a` (see [`Answer::encode`]).
fn encode_answer(a: &Answer) -> Vec<u8> {
    let mut o = Out(Vec::with_capacity(256));
    o.0.extend_from_slice(MAGIC);
    match a {
        Answer::Decoded {
            version,
            summary,
            rows,
        } => {
            o.0.push(0);
            o.version(version);
            o.str(&summary.format);
            o.uint(summary.errors);
            o.opt_info(&summary.first_error);
            o.info(&summary.root);
            o.ids(&summary.open);
            o.rows(rows);
        }
        Answer::Rows {
            version,
            rows,
            failed,
        } => {
            o.0.push(1);
            o.version(version);
            o.rows(rows);
            o.uint(failed.len() as u64);
            for (id, why) in failed {
                o.uint(u64::from(*id));
                o.str(why);
            }
        }
        Answer::Boxes { version, boxes } => {
            o.0.push(2);
            o.version(version);
            o.uint(boxes.start);
            o.uint(boxes.end);
            o.uint(boxes.segments.len() as u64);
            let mut at = boxes.start;
            for s in &boxes.segments {
                // Segments tile the window: each is its length and owner.
                o.uint(s.start - at);
                o.uint(s.end - s.start);
                o.uint(u64::from(s.owner));
                at = s.end;
            }
            o.uint(boxes.nodes.len() as u64);
            for n in &boxes.nodes {
                o.info(n);
            }
        }
        Answer::Node { version, id, info } => {
            o.0.push(3);
            o.version(version);
            o.uint(u64::from(*id));
            o.opt_info(info);
        }
        Answer::Located {
            version,
            byte,
            info,
        } => {
            o.0.push(4);
            o.version(version);
            o.uint(*byte);
            o.opt_info(info);
        }
        Answer::Found {
            version,
            gen,
            from,
            found,
            error,
            whats,
            paths,
        } => {
            o.0.push(5);
            o.version(version);
            o.uint(u64::from(*gen));
            o.uint(*from);
            o.uint(found.reached);
            o.opt_str(error);
            o.uint(whats.len() as u64);
            for w in whats {
                o.str(w);
            }
            o.uint(found.hits.len() as u64);
            // Hits are in order: each start as the distance from the last.
            let mut at = *from;
            for h in &found.hits {
                o.uint(h.start.wrapping_sub(at));
                o.uint(u64::from(h.len));
                o.uint(u64::from(h.needle));
                at = h.start;
            }
            o.uint(paths.len() as u64);
            for p in paths {
                o.str(p);
            }
        }
        Answer::Resolved {
            version,
            path,
            info,
        } => {
            o.0.push(6);
            o.version(version);
            o.str(path);
            o.opt_info(info);
        }
        Answer::Hashed {
            version,
            from,
            reached,
            digest,
        } => {
            o.0.push(7);
            o.version(version);
            o.uint(*from);
            o.uint(*reached);
            o.opt_str(digest);
        }
        Answer::Paths {
            version,
            ids,
            paths,
            resolved,
        } => {
            o.0.push(8);
            o.version(version);
            o.0.push(u8::from(*resolved));
            o.uint(ids.len() as u64);
            for (id, p) in ids.iter().zip(paths) {
                o.uint(u64::from(*id));
                o.str(p);
            }
        }
        Answer::Compared {
            version,
            summary,
            rows,
            error,
        } => {
            o.0.push(9);
            o.version(version);
            o.str(summary);
            o.opt_str(error);
            o.uint(rows.len() as u64);
            for r in rows {
                o.uint(u64::from(r.depth));
                o.str(&r.mark);
                o.str(&r.text);
                o.str(&r.path);
                o.uint(r.difference.map_or(0, |d| d as u64 + 1));
                o.uint(r.align.0);
                o.uint(r.align.1);
            }
        }
    }
    o.0
}

struct In<'a> {
    b: &'a [u8],
    at: usize,
    /// What is read, for errors: `answer` or `request`.
    what: &'static str,
}

impl In<'_> {
    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{} data: {what} at byte {}", self.what, self.at))
    }
    fn u8(&mut self) -> Result<u8, String> {
        match self.b.get(self.at) {
            Some(&v) => {
                self.at += 1;
                Ok(v)
            }
            None => self.err("unexpected end"),
        }
    }
    fn flag(&mut self) -> Result<bool, String> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => self.err("bad flag"),
        }
    }
    fn uint(&mut self) -> Result<u64, String> {
        use crate::varint::{scan, MAX_LEN};
        let rest = self.b.get(self.at..).unwrap_or_default();
        let s = scan(rest.iter().copied().take(MAX_LEN as usize));
        match s.fits() {
            Some(v) => {
                self.at += s.len as usize;
                Ok(v)
            }
            None if !s.terminated && s.len < MAX_LEN => self.err("unexpected end"),
            None => self.err("integer too long"),
        }
    }
    fn u32(&mut self) -> Result<u32, String> {
        let v = self.uint()?;
        u32::try_from(v).or_else(|_| self.err("number out of range"))
    }
    /// A count of items each taking at least `min` bytes.
    fn count(&mut self, min: usize) -> Result<usize, String> {
        let n = self.uint()?;
        if n > ((self.b.len() - self.at) / min.max(1)) as u64 {
            return self.err("count larger than the data");
        }
        Ok(n as usize)
    }
    /// What [`Out::ids`] wrote.
    fn ids(&mut self) -> Result<Vec<NodeId>, String> {
        let k = self.count(1)?;
        let mut out = Vec::with_capacity(k);
        for _ in 0..k {
            out.push(self.u32()?);
        }
        Ok(out)
    }
    fn str(&mut self) -> Result<String, String> {
        let n = self.count(1)?;
        let s = &self.b[self.at..self.at + n];
        match std::str::from_utf8(s) {
            Ok(s) => {
                self.at += n;
                Ok(s.to_owned())
            }
            Err(_) => self.err("text that is not UTF-8"),
        }
    }
    fn opt_str(&mut self) -> Result<Option<String>, String> {
        Ok(if self.flag()? {
            Some(self.str()?)
        } else {
            None
        })
    }
    fn pair(&mut self) -> Result<Option<(u64, u64)>, String> {
        Ok(if self.flag()? {
            Some((self.uint()?, self.uint()?))
        } else {
            None
        })
    }
    fn version(&mut self) -> Result<Version, String> {
        Ok(Version {
            version: self.u32()?,
            nodes: self.uint()?,
        })
    }
    fn info(&mut self) -> Result<NodeInfo, String> {
        let id = self.u32()?;
        let parent = match self.u32()? {
            0 => None,
            p => Some(p - 1),
        };
        let depth = self.u32()?;
        let name = self.str()?;
        let kind = self.u8()?;
        let flags = self.u8()?;
        let start = self.uint()?;
        let end = self.uint()?;
        let bits = self.pair()?;
        let reference = self.pair()?;
        let text = self.str()?;
        let children = self.uint()?;
        let error = self.opt_str()?;
        let path = self.str()?;
        let k = self.count(2)?;
        let mut crumbs = Vec::with_capacity(k);
        for _ in 0..k {
            crumbs.push((self.u32()?, self.str()?));
        }
        Ok(NodeInfo {
            id,
            parent,
            depth,
            name,
            kind,
            start,
            end,
            bits,
            reference,
            text,
            children,
            lazy: flags & 1 != 0,
            error,
            damaged: flags & 2 != 0,
            path,
            crumbs,
            value: self.opt_str()?,
            display: self.opt_str()?,
            doc: self.opt_str()?,
            inner: self.pair()?,
        })
    }
    fn opt_info(&mut self) -> Result<Option<NodeInfo>, String> {
        Ok(if self.flag()? {
            Some(self.info()?)
        } else {
            None
        })
    }
    fn rows(&mut self) -> Result<Rows, String> {
        let gen = self.u32()?;
        let total = self.uint()?;
        let first = self.uint()?;
        let k = self.count(12)?;
        let mut rows = Vec::with_capacity(k);
        for _ in 0..k {
            rows.push(std::rc::Rc::new(self.info()?));
        }
        let found = match self.u8()? {
            0 => None,
            t @ (1 | 2) => {
                let id = self.u32()?;
                Some((id, if t == 1 { Some(self.uint()?) } else { None }))
            }
            _ => return self.err("bad found tag"),
        };
        Ok(Rows {
            gen,
            total,
            first,
            rows,
            found,
        })
    }
}

/// Reads what [`encode_answer`] wrote.
fn decode_answer(bytes: &[u8]) -> Result<Answer, String> {
    let mut r = In {
        b: bytes,
        at: 0,
        what: "answer",
    };
    if bytes.get(..4) != Some(MAGIC) {
        return r.err("bad magic");
    }
    r.at = 4;
    let tag = r.u8()?;
    let version = r.version()?;
    let a = match tag {
        0 => {
            let format = r.str()?;
            let errors = r.uint()?;
            let first_error = r.opt_info()?;
            let root = r.info()?;
            let open = r.ids()?;
            let rows = r.rows()?;
            Answer::Decoded {
                version,
                summary: Box::new(Summary {
                    format,
                    errors,
                    first_error,
                    root,
                    open,
                }),
                rows,
            }
        }
        1 => {
            let rows = r.rows()?;
            let k = r.count(2)?;
            let mut failed = Vec::with_capacity(k);
            for _ in 0..k {
                failed.push((r.u32()?, r.str()?));
            }
            Answer::Rows {
                version,
                rows,
                failed,
            }
        }
        2 => {
            let start = r.uint()?;
            let end = r.uint()?;
            let k = r.count(3)?;
            let mut segments = Vec::with_capacity(k);
            let mut at = start;
            for _ in 0..k {
                let s = at
                    .checked_add(r.uint()?)
                    .map_or_else(|| r.err("segment past 2^64"), Ok)?;
                let e = s
                    .checked_add(r.uint()?)
                    .map_or_else(|| r.err("segment past 2^64"), Ok)?;
                let owner = r.u32()?;
                segments.push(Segment {
                    start: s,
                    end: e,
                    owner,
                });
                at = e;
            }
            let k = r.count(12)?;
            let mut nodes = Vec::with_capacity(k);
            for _ in 0..k {
                nodes.push(r.info()?);
            }
            Answer::Boxes {
                version,
                boxes: Boxes {
                    start,
                    end,
                    segments,
                    nodes,
                },
            }
        }
        3 => Answer::Node {
            version,
            id: r.u32()?,
            info: r.opt_info()?,
        },
        4 => Answer::Located {
            version,
            byte: r.uint()?,
            info: r.opt_info()?,
        },
        5 => {
            let gen = r.u32()?;
            let from = r.uint()?;
            let reached = r.uint()?;
            let error = r.opt_str()?;
            let k = r.count(1)?;
            let mut whats = Vec::with_capacity(k);
            for _ in 0..k {
                whats.push(r.str()?);
            }
            let k = r.count(3)?;
            let mut hits = Vec::with_capacity(k);
            let mut at = from;
            for _ in 0..k {
                let start = at.wrapping_add(r.uint()?);
                let len = r.u32()?;
                let needle =
                    u16::try_from(r.uint()?).map_or_else(|_| r.err("needle past u16"), Ok)?;
                hits.push(crate::search::Hit { start, len, needle });
                at = start;
            }
            let k = r.count(1)?;
            let mut paths = Vec::with_capacity(k);
            for _ in 0..k {
                paths.push(r.str()?);
            }
            Answer::Found {
                version,
                gen,
                from,
                found: crate::search::Found { hits, reached },
                error,
                whats,
                paths,
            }
        }
        6 => Answer::Resolved {
            version,
            path: r.str()?,
            info: r.opt_info()?,
        },
        7 => Answer::Hashed {
            version,
            from: r.uint()?,
            reached: r.uint()?,
            digest: r.opt_str()?,
        },
        8 => {
            let resolved = match r.u32()? {
                0 => false,
                1 => true,
                _ => return r.err("not a flag"),
            };
            let k = r.count(2)?;
            let (mut ids, mut paths) = (Vec::with_capacity(k), Vec::with_capacity(k));
            for _ in 0..k {
                ids.push(r.u32()?);
                paths.push(r.str()?);
            }
            Answer::Paths {
                version,
                ids,
                paths,
                resolved,
            }
        }
        9 => {
            let summary = r.str()?;
            let error = r.opt_str()?;
            // A row is at least seven bytes.
            let k = r.count(7)?;
            let mut rows = Vec::with_capacity(k);
            for _ in 0..k {
                rows.push(MergedRow {
                    depth: r.u32()?,
                    mark: r.str()?,
                    text: r.str()?,
                    path: r.str()?,
                    difference: match r.uint()? {
                        0 => None,
                        d => match usize::try_from(d - 1) {
                            Ok(d) => Some(d),
                            Err(_) => return r.err("difference out of range"),
                        },
                    },
                    align: (r.uint()?, r.uint()?),
                });
            }
            Answer::Compared {
                version,
                summary,
                rows,
                error,
            }
        }
        _ => return r.err("unknown answer"),
    };
    if r.at != bytes.len() {
        return r.err("trailing data");
    }
    Ok(a)
}

/// The magic of a request's binary form.
const REQUEST_MAGIC: &[u8; 4] = b"HXQ1";

impl Request {
    /// The request's binary form (the `data` of an `ask` message).
    pub fn encode(&self) -> Vec<u8> {
        let mut o = Out(Vec::with_capacity(32));
        o.0.extend_from_slice(REQUEST_MAGIC);
        match self {
            Request::Rows {
                gen,
                open,
                first,
                count,
                find,
            } => {
                o.0.push(0);
                o.uint(u64::from(*gen));
                o.ids(open);
                o.uint(*first);
                o.uint(*count);
                o.uint(find.map_or(0, |f| u64::from(f) + 1));
            }
            Request::Boxes { start, end } => {
                o.0.push(1);
                o.uint(*start);
                o.uint(*end);
            }
            Request::Node(id) => {
                o.0.push(2);
                o.uint(u64::from(*id));
            }
            Request::Locate(byte) => {
                o.0.push(3);
                o.uint(*byte);
            }
            Request::Search {
                gen,
                query,
                from,
                to,
                max,
            } => {
                o.0.push(4);
                o.uint(u64::from(*gen));
                o.str(query.mode.name());
                o.str(&query.text);
                o.0.push(u8::from(query.ignore_case) | u8::from(query.utf16) << 1);
                o.str(query.number.name());
                o.str(query.order.name());
                match query.float_bits {
                    None => o.0.push(0),
                    Some(b) => {
                        o.0.push(1);
                        o.0.extend_from_slice(&b.to_le_bytes());
                    }
                }
                o.uint(*from);
                o.uint(*to);
                o.uint(u64::from(*max));
            }
            Request::Path(p) => {
                o.0.push(5);
                o.str(p);
            }
            Request::Hash { from, to } => {
                o.0.push(6);
                o.uint(*from);
                o.uint(*to);
            }
            Request::PathsOf(list) => {
                o.0.push(7);
                o.ids(list);
            }
            Request::Resolve(paths) => {
                o.0.push(8);
                o.uint(paths.len() as u64);
                for p in paths {
                    o.str(p);
                }
            }
        }
        o.0
    }

    /// Reads what [`Request::encode`] wrote.
    pub fn decode(bytes: &[u8]) -> Result<Request, String> {
        use crate::search::{Mode, NumberType, Order, Query};
        let mut r = In {
            b: bytes,
            at: 0,
            what: "request",
        };
        if bytes.get(..4) != Some(REQUEST_MAGIC) {
            return r.err("bad magic");
        }
        r.at = 4;
        let q = match r.u8()? {
            0 => Request::Rows {
                gen: r.u32()?,
                open: r.ids()?,
                first: r.uint()?,
                count: r.uint()?,
                find: match r.uint()? {
                    0 => None,
                    f => Some(NodeId::try_from(f - 1).or_else(|_| r.err("number out of range"))?),
                },
            },
            1 => Request::Boxes {
                start: r.uint()?,
                end: r.uint()?,
            },
            2 => Request::Node(r.u32()?),
            3 => Request::Locate(r.uint()?),
            4 => {
                let gen = r.u32()?;
                let mode = r.str()?;
                let mode =
                    Mode::from_name(&mode).map_or_else(|| r.err("unknown search mode"), Ok)?;
                let mut query = Query::new(mode, &r.str()?);
                let flags = r.u8()?;
                if flags > 3 {
                    return r.err("bad flags");
                }
                query.ignore_case = flags & 1 != 0;
                query.utf16 = flags & 2 != 0;
                let number = r.str()?;
                query.number = NumberType::from_name(&number)
                    .map_or_else(|| r.err("unknown number type"), Ok)?;
                let order = r.str()?;
                query.order =
                    Order::from_name(&order).map_or_else(|| r.err("unknown byte order"), Ok)?;
                if r.flag()? {
                    let Some(b) = bytes.get(r.at..r.at + 8) else {
                        return r.err("unexpected end");
                    };
                    query.float_bits = Some(u64::from_le_bytes(b.try_into().unwrap_or_default()));
                    r.at += 8;
                }
                Request::Search {
                    gen,
                    query,
                    from: r.uint()?,
                    to: r.uint()?,
                    max: r.u32()?,
                }
            }
            5 => Request::Path(r.str()?),
            6 => Request::Hash {
                from: r.uint()?,
                to: r.uint()?,
            },
            7 => Request::PathsOf(r.ids()?),
            8 => {
                let k = r.count(1)?;
                let mut paths = Vec::with_capacity(k);
                for _ in 0..k {
                    paths.push(r.str()?);
                }
                Request::Resolve(paths)
            }
            _ => return r.err("unknown request"),
        };
        if r.at != bytes.len() {
            return r.err("trailing data");
        }
        Ok(q)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::tests::sample;
    use crate::session::Session;

    #[test]
    fn every_request_comes_back_as_it_was_sent() {
        use crate::search::{Mode, NumberType, Order, Query};
        let mut number = Query::new(Mode::Number, "1.5");
        number.number = NumberType::F64;
        number.order = Order::Big;
        number.float_bits = Some(1.5f64.to_bits());
        let mut text = Query::new(Mode::Text, "héllo");
        text.ignore_case = true;
        text.utf16 = true;
        let requests = vec![
            Request::Rows {
                gen: 7,
                open: vec![0, 3, NodeId::MAX],
                first: 1 << 40,
                count: 120,
                find: Some(NodeId::MAX),
            },
            Request::Rows {
                gen: 0,
                open: vec![],
                first: 0,
                count: 0,
                find: None,
            },
            Request::Boxes {
                start: 5,
                end: u64::MAX,
            },
            Request::Node(42),
            Request::Locate(1 << 33),
            Request::Search {
                gen: 3,
                query: number,
                from: 0,
                to: 1 << 32,
                max: u32::MAX,
            },
            Request::Search {
                gen: 4,
                query: text,
                from: 9,
                to: 10,
                max: 1,
            },
            Request::Search {
                gen: 5,
                query: Query::new(Mode::Structure, "Parts/*/Name"),
                from: 0,
                to: 0,
                max: 1000,
            },
            Request::Path("Parts/[0]/Name".into()),
            Request::Hash {
                from: 0,
                to: 1 << 20,
            },
            Request::PathsOf(vec![1, 2, 3]),
            Request::Resolve(vec!["".into(), "Header".into()]),
        ];
        for q in requests {
            let bytes = q.encode();
            assert_eq!(Request::decode(&bytes), Ok(q.clone()));
            // Every cut is refused, never read as something else.
            for n in 0..bytes.len() {
                assert!(Request::decode(&bytes[..n]).is_err(), "{q:?} cut at {n}");
            }
            let mut longer = bytes.clone();
            longer.push(0);
            assert!(Request::decode(&longer)
                .unwrap_err()
                .contains("trailing data"));
        }
        assert!(Request::decode(b"HXQ1\x09")
            .unwrap_err()
            .contains("unknown request"));
        assert!(Request::decode(b"HXW2\x00")
            .unwrap_err()
            .contains("bad magic"));
    }

    #[test]
    fn every_answer_comes_back_as_it_was_sent() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut s = Session::open(data.clone());
        let mut answers = vec![s.opened(100)];
        let parts = s.tree().find("Parts").unwrap();
        let failed = s.set_open(1, &[s.tree().root(), parts]);
        answers.push(Answer::Rows {
            version: s.version(),
            rows: s.rows(2, 30, Some(parts)),
            failed,
        });
        answers.push(Answer::Boxes {
            version: s.version(),
            boxes: s.boxes(0, data.len() as u64),
        });
        answers.push(Answer::Node {
            version: s.version(),
            id: parts,
            info: s.node(parts),
        });
        let b = data.len() as u64 - 40;
        answers.push(Answer::Located {
            version: s.version(),
            byte: b,
            info: s.locate(b),
        });
        let mut q = crate::search::Query::new(crate::search::Mode::Text, "dx");
        q.ignore_case = true;
        q.utf16 = true;
        let search = |q: &crate::search::Query, s: &mut Session<Vec<u8>>| {
            s.answer(&Request::Search {
                gen: 3,
                query: q.clone(),
                from: 4,
                to: u64::MAX,
                max: 1000,
            })
        };
        let found = search(&q, &mut s);
        assert!(
            matches!(&found, Answer::Found { found, error: None, .. } if !found.hits.is_empty()),
            "{found:?}"
        );
        answers.push(found);
        let bad = search(
            &crate::search::Query::new(crate::search::Mode::Hex, "zz"),
            &mut s,
        );
        assert!(matches!(&bad, Answer::Found { error: Some(_), .. }));
        answers.push(bad);
        let structure =
            crate::session::structure_search(&data, 3, "Parts/*/Name", 1000, false, &mut |_| {});
        assert!(
            matches!(&structure, Answer::Found { paths, found, .. } if !paths.is_empty() && paths.len() == found.hits.len()),
            "{structure:?}"
        );
        answers.push(structure);
        for path in ["Parts/[1]/Name", "Parts/[99]"] {
            answers.push(s.answer(&Request::Path(path.into())));
        }
        let of = s.answer(&Request::PathsOf(vec![parts, 0, 1 << 30]));
        assert!(
            matches!(&of, Answer::Paths { paths, resolved: false, .. } if paths[..] == ["Parts", ""]),
            "{of:?}"
        );
        answers.push(of);
        let block = "Parts/[4]/Program/DXIL/Blocks/[0]/Body";
        let back = s.answer(&Request::Resolve(vec![
            "Parts/[2]".into(),
            "Parts/[99]".into(),
            block.into(),
        ]));
        assert!(
            matches!(&back, Answer::Paths { paths, ids, resolved: true, .. }
                if paths[..] == ["Parts/[2]", block] && s.tree().path(ids[1]) == block),
            "{back:?}"
        );
        answers.push(back);
        let n = data.len() as u64;
        for (from, to) in [(0, n / 2), (n / 2, n)] {
            answers.push(s.answer(&Request::Hash { from, to }));
        }
        assert!(matches!(
            answers.last(),
            Some(Answer::Hashed {
                digest: Some(_),
                ..
            })
        ));
        let mut other = data.clone();
        other[60] ^= 1;
        let d = crate::diff::diff(&data.as_slice(), &other.as_slice(), 100);
        assert!(!d.rows.is_empty() && d.rows.iter().any(|r| r.difference.is_some()));
        answers.push(Answer::Compared {
            version: Version::default(),
            summary: d.summary("A", "B"),
            rows: d.rows.iter().map(MergedRow::of).collect(),
            error: None,
        });
        answers.push(Answer::Compared {
            version: Version::default(),
            summary: String::new(),
            rows: Vec::new(),
            error: Some("no second file was given".into()),
        });
        for a in answers {
            let bytes = a.encode();
            assert_eq!(
                Answer::decode(&bytes).unwrap_or_else(|e| panic!("{e}: {a:?}")),
                a
            );
            // Every cut and a flipped byte is an error or a different answer, never a panic.
            for cut in 0..bytes.len().min(400) {
                assert!(Answer::decode(&bytes[..cut]).is_err());
            }
            let mut bad = bytes.clone();
            for i in (0..bad.len()).step_by(7) {
                bad[i] ^= 0x5a;
                let _ = Answer::decode(&bad);
                bad[i] ^= 0x5a;
            }
        }
    }
}
