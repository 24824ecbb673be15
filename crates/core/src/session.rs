//! A viewer's session over one file: the one tree, what is open, and the small
//! answers a viewer asks for (the rows of a window of the tree pane, the field
//! boxes of a window of the hex pane, one node's details, the node owning a byte).
//!
//! The web viewer runs a session in its decode worker; the page keeps no copy of
//! the tree, only the answers for what it shows ([`crate::protocol`] carries them).
//! Answers are sized by the window asked for, never by the tree: a tree pane of
//! 40 rows costs 40 rows however many million nodes the file has.
//!
//! The open set belongs to the viewer: [`Session::set_open`] takes it whole.
//! Opening a lazy group decodes it then; opening a big list decodes only its
//! pages as they are opened in turn.

use crate::clip;
use crate::protocol::{
    Answer, Boxes, NodeInfo, Request, Rows, Segment, Summary, Version, MAX_DEPTH, MAX_PATHS,
};
use crate::source::ByteSource;
use crate::tree::{Kind, NodeId, Tree, Value};
use crate::view;
use std::collections::HashSet;
use std::rc::Rc;

/// A click or go-to opens the lazy group it lands in when the group spans at
/// most this many bytes (or is a page of a list); a bigger group is selected
/// and waits for the user to open it (decoding it may mean reading all of it).
pub const SEEK_OPEN_BYTES: u64 = 16 << 20;

/// Most rows one answer holds.
pub const MAX_ROWS: u64 = 10_000;
/// Most bytes one answer's field boxes cover (answers stay small).
pub const MAX_BOX_BYTES: u64 = 64 << 10;

/// A structure search (a query of [`crate::search::Mode::Structure`]) over the
/// whole of `src`, in one step, as an answer to
/// [`Request::Search`]: at most `max` nodes, each hit's node path in `paths`.
/// It decodes the file afresh as the walk goes ([`crate::search::find_nodes`]),
/// so it needs no session: the web viewer runs it in a worker module of its
/// own, fetched when a structure search or an export is first asked for.
pub fn structure_search(
    src: &dyn ByteSource,
    gen: u32,
    text: &str,
    max: u32,
    scan: bool,
    progress: &mut dyn FnMut(u64),
) -> Answer {
    structure_search_as(src, None, gen, text, max, scan, progress)
}

/// [`structure_search`] in the tree `format` decodes (a `.ksy` format,
/// say), or the one the file's own format gives when `None`.
pub fn structure_search_as(
    src: &dyn ByteSource,
    format: Option<&'static crate::Format>,
    gen: u32,
    text: &str,
    max: u32,
    scan: bool,
    progress: &mut dyn FnMut(u64),
) -> Answer {
    let (hits, paths) =
        crate::search::find_nodes_as(src, format, text, max as usize, scan, progress)
            .into_iter()
            .map(|n| {
                let len = u32::try_from(n.end - n.start).unwrap_or(u32::MAX);
                let hit = crate::search::Hit {
                    start: n.start,
                    len,
                    needle: 0,
                };
                (hit, n.path)
            })
            .unzip();
    Answer::Found {
        version: Version::default(),
        gen,
        from: 0,
        found: crate::search::Found {
            hits,
            reached: src.len(),
        },
        error: None,
        whats: vec!["structure".into()],
        paths,
    }
}

/// One step of a byte search (a [`Request::Search`] of the hex, text or number
/// modes) over `[from, to)` of `src`: at most `max` matches. Needs no session,
/// so the web viewer answers it in the module it fetches for searches (the
/// decoder modules leave the search out: see the `byte-search` feature).
pub fn byte_search(
    src: &dyn ByteSource,
    version: Version,
    gen: u32,
    query: &crate::search::Query,
    from: u64,
    to: u64,
    max: u32,
) -> Answer {
    let (found, error, whats) = match crate::search::needles(query) {
        Ok(n) => (
            crate::search::find(src, &n, from, to, max as usize),
            None,
            n.into_iter().map(|n| n.what).collect(),
        ),
        Err(e) => (
            crate::search::Found {
                hits: Vec::new(),
                reached: src.len(),
            },
            Some(e),
            Vec::new(),
        ),
    };
    Answer::Found {
        version,
        gen,
        from,
        found,
        error,
        whats,
        paths: Vec::new(),
    }
}

/// One file being viewed.
pub struct Session<S: ByteSource> {
    src: S,
    tree: Tree,
    format: &'static str,
    /// What the format says of a node, if it says anything ([`Format::doc`]).
    ///
    /// [`Format::doc`]: crate::formats::Format::doc
    doc: Option<&'static crate::formats::DocOf>,
    open: HashSet<NodeId>,
    /// The visible rows for `open`, and the generation they follow.
    rows: Vec<NodeId>,
    gen: u32,
    version: u32,
    /// The file's SHA-256 so far, and the bytes it has taken in.
    hash: Option<(u64, sha2::Sha256)>,
    /// The rows the viewer last asked for (first, count).
    asked: (u64, u64),
    /// Rests of lists read ahead to their end ([`Session::read_on`]).
    read: HashSet<NodeId>,
}

/// Bytes hashed a read at a time.
const HASH_CHUNK: usize = 1 << 20;

impl<S: ByteSource> Session<S> {
    /// Decodes `src` as a viewer does: the top levels and small groups now
    /// ([`view::prefetch`]), the rest when opened.
    pub fn open(src: S) -> Self {
        Self::open_with(src, false)
    }

    /// [`Session::open`], scanning the file for containers whatever it is
    /// when `scan` is set ([`crate::Options::scan`]).
    pub fn open_with(src: S, scan: bool) -> Self {
        Self::open_as(src, None, scan)
    }

    /// [`Session::open_with`] with the decoder `format` if one is given (a
    /// `.ksy` format the user gave: [`crate::ksy::from_text`]).
    pub fn open_as(src: S, format: Option<&'static crate::formats::Format>, scan: bool) -> Self {
        let opts = crate::Options {
            scan,
            ..view::viewer_options()
        };
        let mut d = crate::decode_as_or_with(format, &src, &opts);
        view::prefetch(&src, &mut d.tree, view::Budget::default());
        let mut s = Self::with_tree(src, d.format, d.tree);
        s.doc = format.and_then(|f| f.doc);
        s
    }

    /// A session over a tree decoded already (tests and tools).
    pub fn with_tree(src: S, format: &'static str, tree: Tree) -> Self {
        let mut s = Session {
            src,
            tree,
            format,
            doc: None,
            open: HashSet::new(),
            rows: Vec::new(),
            gen: 0,
            version: 0,
            hash: None,
            asked: (0, 0),
            read: HashSet::new(),
        };
        s.open = s.initial_open().into_iter().collect();
        s.rebuild_rows();
        s
    }

    /// The tree (read only: changes go through the session).
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The file.
    pub fn source(&self) -> &S {
        &self.src
    }

    fn initial_open(&self) -> Vec<NodeId> {
        let t = &self.tree;
        let root = t.root();
        let mut v = vec![root];
        v.extend(
            t.children(root)
                .iter()
                .copied()
                .filter(|&c| t.kind(c).is_group() && !t.is_lazy(c)),
        );
        v
    }

    /// How far the tree is decoded.
    pub fn version(&self) -> Version {
        Version {
            version: self.version,
            nodes: self.tree.len() as u64,
        }
    }

    /// What the viewer needs first.
    pub fn summary(&self) -> Summary {
        let root = self.tree.root();
        let errors = self.tree.errors();
        Summary {
            format: self.format.to_string(),
            errors: errors.len() as u64,
            first_error: errors.first().map(|&e| self.info(e, true)),
            root: self.info(root, true),
            open: self.initial_open(),
        }
    }

    fn expand(&mut self, id: NodeId) -> Result<(), String> {
        crate::expand(&self.src, &mut self.tree, id)?;
        self.version += 1;
        Ok(())
    }

    /// Reads ahead, for about `budget` bytes, a list read only as far as
    /// the viewer needed (a `.ksy` list of unsized elements: its rest, see
    /// [`Tree::is_rest`] and [`Tree::read_ahead`]), the newest first; its
    /// node says how far it got, and shows what was read when opened.
    /// `None` when no rest is left to read.
    pub fn read_on(&mut self, budget: u64) -> Option<crate::tree::Ahead> {
        let t = &self.tree;
        let id = (0..t.len() as NodeId)
            .rev()
            .find(|&i| t.is_rest(i) && t.is_lazy(i) && !self.read.contains(&i))?;
        let a = self.tree.read_ahead(&self.src, id, budget)?;
        if a.done {
            self.read.insert(id);
        }
        self.version += 1;
        Some(a)
    }

    /// The viewer was given rows `[first, first + count)` (see
    /// [`Session::rows_again`]).
    pub fn shown(&mut self, first: u64, count: u64) {
        self.asked = (first, count.min(MAX_ROWS));
    }

    /// The rows the viewer last asked for, as they are now (after
    /// [`Session::read_on`]).
    pub fn rows_again(&self) -> Answer {
        Answer::Rows {
            rows: self.rows(self.asked.0, self.asked.1, None),
            version: self.version(),
            failed: Vec::new(),
        }
    }

    /// Takes the viewer's open set (generation `gen`); open lazy groups are
    /// decoded now. Returns the groups that could not be decoded, with why.
    pub fn set_open(&mut self, gen: u32, open: &[NodeId]) -> Vec<(NodeId, String)> {
        let n = self.tree.len();
        let mut failed = Vec::new();
        let set: HashSet<NodeId> = open.iter().copied().filter(|&i| (i as usize) < n).collect();
        if gen == self.gen && set == self.open {
            return failed;
        }
        // Parents first: a page inside an opened group is decoded after it.
        let mut lazy: Vec<NodeId> = set
            .iter()
            .copied()
            .filter(|&i| self.tree.is_lazy(i))
            .collect();
        crate::sorted::sort(&mut lazy);
        for id in lazy {
            if let Err(e) = self.expand(id) {
                failed.push((id, e));
            }
        }
        self.open = set;
        self.gen = gen;
        self.rebuild_rows();
        failed
    }

    fn rebuild_rows(&mut self) {
        let t = &self.tree;
        let mut rows = Vec::new();
        let mut stack = vec![t.root()];
        while let Some(id) = stack.pop() {
            rows.push(id);
            if self.open.contains(&id) {
                stack.extend(t.children(id).iter().rev());
            }
        }
        self.rows = rows;
    }

    /// Rows `[first, first + count)` of the tree pane (fewer at the end), and
    /// the position of `find` if it is shown.
    pub fn rows(&self, first: u64, count: u64, find: Option<NodeId>) -> Rows {
        let total = self.rows.len() as u64;
        let first = first.min(total);
        let last = first.saturating_add(count).min(total);
        let rows = self.rows[first as usize..last as usize]
            .iter()
            .map(|&id| Rc::new(self.info(id, false)))
            .collect();
        let found = find.map(|f| {
            let pos = self.rows.iter().position(|&id| id == f);
            (f, pos.map(|p| p as u64))
        });
        Rows {
            gen: self.gen,
            total,
            first,
            rows,
            found,
        }
    }

    /// The details of node `id` (`None` if there is no such node).
    pub fn node(&self, id: NodeId) -> Option<NodeInfo> {
        ((id as usize) < self.tree.len()).then(|| self.info(id, true))
    }

    /// The file's bytes node `id` covers: for a node in bytes a `process`
    /// made, those of the field they were made from.
    fn byte_range(&self, id: NodeId) -> (u64, u64) {
        let size = self.src.len();
        let t = &self.tree;
        let mut id = id;
        for _ in 0..MAX_DEPTH {
            match t.parent(id) {
                Some(p) if t.is_decoded(id) => id = p,
                _ => break,
            }
        }
        let s = self.tree.span(id);
        if s.is_empty() {
            let a = s.start_byte().min(size);
            return (a, a);
        }
        (s.start_byte().min(size), s.end_byte().min(size))
    }

    fn info(&self, id: NodeId, full: bool) -> NodeInfo {
        let mut n = self.brief(id);
        let t = &self.tree;
        n.path = t.path(id);
        let mut cur = n.parent;
        while let Some(p) = cur {
            n.crumbs.push((p, t.name(p).to_string()));
            cur = t.parent(p);
        }
        n.crumbs.reverse();
        n.depth = n.crumbs.len() as u32;
        let inner = t.is_decoded(id) || t.inner(id).is_some();
        let len = if inner {
            t.span(id).len_bits() / 8
        } else {
            n.end - n.start
        };
        n.text = row_text(t, id, len);
        if full {
            let node = t.node(id);
            n.value = node.value.as_ref().map(|v| match v {
                Value::U(x) => format!("{x} (0x{x:X})"),
                Value::I(x) if *x < 0 => format!("{x}"),
                Value::I(x) => format!("{x} (0x{x:X})"),
                other => clip::value(
                    other,
                    (node.kind == Kind::Str).then_some(len),
                    clip::DETAILS,
                ),
            });
            n.display = node
                .display
                .as_deref()
                .map(|d| clip::plain(d, clip::DETAILS));
            n.doc = self
                .doc
                .and_then(|f| f(t, id))
                .map(|d| clip::plain(&d, clip::DETAILS));
            let sp = node.span;
            n.bits = (!sp.is_byte_aligned() && !inner).then_some((sp.start, sp.end));
            n.inner = match (t.is_decoded(id), t.inner(id)) {
                (true, _) => Some((sp.start_byte(), sp.end_byte())),
                (false, Some(b)) => Some((0, b.len() as u64)),
                _ => None,
            };
        }
        n
    }

    /// What field boxes carry of a node: no path, crumbs or row text.
    fn brief(&self, id: NodeId) -> NodeInfo {
        let t = &self.tree;
        let (start, end) = self.byte_range(id);
        let size = self.src.len();
        NodeInfo {
            id,
            parent: t.parent(id),
            depth: 0,
            name: t.name(id).to_string(),
            kind: t.kind(id).code(),
            start,
            end,
            bits: None,
            reference: t
                .reference(id)
                .filter(|r| !r.is_empty())
                .map(|r| (r.start_byte().min(size), r.end_byte().min(size))),
            text: String::new(),
            children: t.children(id).len() as u64,
            lazy: t.is_lazy(id),
            error: t.error(id).map(|e| clip::plain(e, clip::DETAILS)),
            damaged: t.is_damaged(id),
            path: String::new(),
            crumbs: Vec::new(),
            value: None,
            display: None,
            doc: None,
            inner: None,
        }
    }

    /// The field boxes of bytes `[start, end)`.
    pub fn boxes(&self, start: u64, end: u64) -> Boxes {
        let size = self.src.len();
        let (start, end) = (start.min(size), end.min(size));
        let mut segs = Vec::new();
        if start < end {
            self.fill(&mut segs, self.tree.root(), start, end, 0);
        }
        let mut ids: Vec<NodeId> = Vec::new();
        let mut seen = HashSet::new();
        for s in &segs {
            let mut cur = Some(s.owner);
            while let Some(c) = cur {
                if !seen.insert(c) {
                    break;
                }
                ids.push(c);
                cur = self.tree.parent(c);
            }
        }
        crate::sorted::sort(&mut ids);
        Boxes {
            start,
            end,
            segments: segs,
            nodes: ids.into_iter().map(|i| self.brief(i)).collect(),
        }
    }

    /// Segments of `[lo, hi)` below node `id`, which covers it: each byte goes
    /// to the innermost node covering it; where siblings overlap, the one that
    /// starts first keeps the shared bytes. Empty spans own nothing.
    /// Segments of `[lo, hi)` owned by `id` and its descendants: in the
    /// file's bytes, or (`inner`, `id` a node holding bytes a `process` made)
    /// in those bytes, a holder inside them owning all its own.
    fn fill(&self, out: &mut Vec<Segment>, id: NodeId, lo: u64, hi: u64, depth: usize) {
        self.fill_in(out, id, lo, hi, depth, false)
    }

    fn fill_in(
        &self,
        out: &mut Vec<Segment>,
        id: NodeId,
        lo: u64,
        hi: u64,
        depth: usize,
        inner: bool,
    ) {
        let t = &self.tree;
        let leaf = depth >= MAX_DEPTH || (inner && depth > 0 && t.inner(id).is_some());
        let mut kids: Vec<(u64, u64, NodeId)> = if leaf {
            Vec::new()
        } else {
            t.children(id)
                .iter()
                .filter_map(|&c| {
                    let s = t.span(c);
                    (!s.is_empty()
                        && s.start_byte() < hi
                        && s.end_byte() > lo
                        && t.is_decoded(c) == inner)
                        .then(|| (s.start_byte(), s.end_byte(), c))
                })
                .collect()
        };
        if !kids.windows(2).all(|w| w[0].0 <= w[1].0) {
            crate::sorted::sort_by_key(&mut kids, |k| k.0);
        }
        let mut cursor = lo;
        for (s, e, c) in kids {
            let s = s.max(cursor);
            let e = e.min(hi);
            if s >= e {
                continue;
            }
            push(out, cursor, s, id);
            self.fill_in(out, c, s, e, depth + 1, inner);
            cursor = e;
        }
        push(out, cursor, hi, id);
    }

    /// The innermost node owning `byte`, without decoding anything.
    pub fn owner(&self, byte: u64) -> Option<NodeId> {
        if byte >= self.src.len() {
            return None;
        }
        let mut segs = Vec::new();
        self.fill(&mut segs, self.tree.root(), byte, byte + 1, 0);
        segs.first().map(|s| s.owner)
    }

    /// The first answer about a file: its summary and its first `rows` rows
    /// (for the open set it starts with).
    pub fn opened(&self, rows: u64) -> Answer {
        Answer::Decoded {
            version: self.version(),
            summary: Box::new(self.summary()),
            rows: self.rows(0, rows.min(MAX_ROWS), None),
        }
    }

    /// Answers `r`.
    pub fn answer(&mut self, r: &Request) -> Answer {
        match r {
            Request::Rows {
                gen,
                open,
                first,
                count,
                find,
            } => {
                let failed = self.set_open(*gen, open);
                self.shown(*first, *count);
                Answer::Rows {
                    rows: self.rows(*first, (*count).min(MAX_ROWS), *find),
                    version: self.version(),
                    failed,
                }
            }
            Request::Boxes { start, end } => Answer::Boxes {
                boxes: self.boxes(*start, (*end).min(start.saturating_add(MAX_BOX_BYTES))),
                version: self.version(),
            },
            Request::Node(id) => Answer::Node {
                info: self.node(*id),
                id: *id,
                version: self.version(),
            },
            Request::Locate(b) => Answer::Located {
                info: self.locate(*b),
                byte: *b,
                version: self.version(),
            },
            #[cfg(feature = "byte-search")]
            Request::Search {
                gen,
                query,
                from,
                to,
                max,
            } => byte_search(&self.src, self.version(), *gen, query, *from, *to, *max),
            #[cfg(not(feature = "byte-search"))]
            Request::Search { gen, from, .. } => Answer::Found {
                version: self.version(),
                gen: *gen,
                from: *from,
                found: crate::search::Found {
                    hits: Vec::new(),
                    reached: self.src.len(),
                },
                error: Some("this build searches in its tools module".into()),
                whats: Vec::new(),
                paths: Vec::new(),
            },
            Request::Hash { from, to } => {
                let (reached, digest) = self.hash_step(*from, *to);
                Answer::Hashed {
                    version: self.version(),
                    from: *from,
                    reached,
                    digest,
                }
            }
            Request::Path(path) => Answer::Resolved {
                info: self.resolve(path),
                path: path.clone(),
                version: self.version(),
            },
            Request::PathsOf(ids) => {
                let ids: Vec<NodeId> = ids
                    .iter()
                    .copied()
                    .filter(|&id| (id as usize) < self.tree.len())
                    .take(MAX_PATHS)
                    .collect();
                Answer::Paths {
                    paths: ids.iter().map(|&id| self.tree.path(id)).collect(),
                    ids,
                    resolved: false,
                    version: self.version(),
                }
            }
            Request::Resolve(paths) => {
                let (mut ids, mut found) = (Vec::new(), Vec::new());
                for p in paths.iter().take(MAX_PATHS) {
                    if let Some(info) = self.resolve(p) {
                        ids.push(info.id);
                        found.push(p.clone());
                    }
                }
                Answer::Paths {
                    ids,
                    paths: found,
                    resolved: true,
                    version: self.version(),
                }
            }
        }
    }

    /// Takes bytes `[from, to)` into the file's SHA-256. Returns how far the
    /// hash has got and, once it has the whole file, the digest in hex. A step
    /// that does not follow the last one changes nothing.
    pub fn hash_step(&mut self, from: u64, to: u64) -> (u64, Option<String>) {
        use sha2::Digest;
        let size = self.src.len();
        if from == 0 {
            self.hash = Some((0, sha2::Sha256::new()));
        }
        let Some((at, h)) = self.hash.as_mut().filter(|(at, _)| *at == from) else {
            return (self.hash.as_ref().map_or(0, |h| h.0), None);
        };
        let to = to.min(size);
        let mut buf = vec![0u8; HASH_CHUNK];
        while *at < to {
            let n = ((to - *at) as usize).min(HASH_CHUNK);
            let got = self.src.read_at(*at, &mut buf[..n]);
            if got == 0 {
                break; // the file could not be read: the hash stops short
            }
            h.update(&buf[..got]);
            *at += got as u64;
        }
        let reached = *at;
        if reached < size {
            return (reached, None);
        }
        let digest = h.clone().finalize();
        let mut hex = String::with_capacity(64);
        for b in digest {
            hex.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
            hex.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
        }
        (reached, Some(hex))
    }

    /// The node at `path` (as the JSON contract writes paths: `Parts/[3]/PSVInfo`),
    /// opening the groups and pages on the way (`None`: no such node).
    pub fn resolve(&mut self, path: &str) -> Option<NodeInfo> {
        let before = self.tree.len();
        let found = crate::stream::select(&self.src, &mut self.tree, path);
        if self.tree.len() != before {
            self.version += 1;
            self.rebuild_rows();
        }
        found.map(|id| self.info(id, true))
    }

    /// What the bytes a `process` made show around the node at `path` (one
    /// in them, or the field that made them): bytes `[from, to)` of them (at
    /// most [`INNER_WINDOW`]), which node owns each, and where the node is.
    pub fn inner_view(&mut self, path: &str, from: u64, to: u64) -> Result<InnerView, String> {
        let node = self
            .resolve(path)
            .ok_or_else(|| format!("there is no node at {path}"))?
            .id;
        let t = &self.tree;
        let holder = match t.inner(node) {
            Some(_) => node,
            None => t
                .holder(node)
                .ok_or_else(|| format!("{path} is not in bytes a process made"))?,
        };
        let bytes = t.inner(holder).expect("a holder holds bytes");
        let len = bytes.len() as u64;
        let from = from.min(len);
        let to = to.clamp(from, from.saturating_add(INNER_WINDOW).min(len));
        let mark = if node == holder {
            (0, len)
        } else {
            let s = t.span(node);
            (s.start_byte(), s.end_byte())
        };
        let mut segments = Vec::new();
        if from < to {
            self.fill_in(&mut segments, holder, from, to, 0, true);
        }
        let mut owners: Vec<NodeId> = segments.iter().map(|s| s.owner).collect();
        crate::sorted::sort(&mut owners);
        owners.dedup();
        Ok(InnerView {
            holder,
            holder_path: t.path(holder),
            file: self.byte_range(holder),
            len,
            node,
            mark,
            from,
            bytes: bytes[from as usize..to as usize].to_vec(),
            segments,
            owners: owners.into_iter().map(|o| (o, t.path(o))).collect(),
        })
    }

    /// The innermost node owning `byte`, opening the lazy groups on the way
    /// that are small enough (see [`SEEK_OPEN_BYTES`]). Errors of groups that
    /// could not be decoded stop the walk there.
    pub fn locate(&mut self, byte: u64) -> Option<NodeInfo> {
        let before = self.version;
        let found = self.seek(byte);
        if self.version != before {
            self.rebuild_rows();
        }
        found
    }

    fn seek(&mut self, byte: u64) -> Option<NodeInfo> {
        let mut owner = self.owner(byte)?;
        for _ in 0..64 {
            let t = &self.tree;
            let small = t.is_page(owner) || t.open_cost(owner) <= SEEK_OPEN_BYTES;
            if !(t.is_lazy(owner) && small) || self.expand(owner).is_err() {
                break;
            }
            owner = self.owner(byte)?;
        }
        Some(self.info(owner, true))
    }
}

/// Most bytes one [`Session::inner_view`] gives.
pub const INNER_WINDOW: u64 = 1 << 16;

/// What bytes a `process` made show (see [`Session::inner_view`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InnerView {
    /// The field whose `process` made them.
    pub holder: NodeId,
    /// Its path.
    pub holder_path: String,
    /// Its bytes in the file.
    pub file: (u64, u64),
    /// How many bytes the `process` made.
    pub len: u64,
    /// The node asked about.
    pub node: NodeId,
    /// Where it is in them (all of them for the holder).
    pub mark: (u64, u64),
    /// The first byte given.
    pub from: u64,
    /// Bytes `[from, from + bytes.len())` of them.
    pub bytes: Vec<u8>,
    /// Which node owns each of those bytes (offsets into the made bytes).
    pub segments: Vec<Segment>,
    /// The owners and their paths, by id.
    pub owners: Vec<(NodeId, String)>,
}

fn push(out: &mut Vec<Segment>, start: u64, end: u64, owner: NodeId) {
    if start >= end {
        return;
    }
    if let Some(last) = out.last_mut() {
        if last.owner == owner && last.end == start {
            last.end = end;
            return;
        }
    }
    out.push(Segment { start, end, owner });
}

/// What a tree row shows after a node's name: for a group without a value
/// whose first fields include a naming field (a part's FourCC, an element's
/// semantic name, a symbol's name), that name first, so a list reads `[0] SFI0`,
/// `[1] ISG1`, … and a remark (an odd offset, a count) never hides what the
/// group is; then [`value_text`].
pub fn row_text(tree: &Tree, id: NodeId, len: u64) -> String {
    let n = tree.node(id);
    if n.kind == Kind::Struct && n.value.is_none() {
        let label = n.children.iter().take(3).find_map(|&c| {
            let c = tree.node(c);
            match (c.kind, &c.value) {
                (Kind::FourCC | Kind::Str | Kind::StrRef, Some(v)) => {
                    let field = (c.kind == Kind::Str).then(|| c.span.len_bits() / 8);
                    Some(clip::value(v, field, clip::ROW))
                }
                _ => None,
            }
        });
        if let Some(l) = label {
            return match n.display.as_deref().map(|d| clip::plain(d, clip::ROW)) {
                // The display already leads with the name (a DXContainer part's).
                Some(d) if d.starts_with(l.trim_matches('"')) => d,
                Some(d) => format!("{l} · {d}"),
                None => l,
            };
        }
    }
    value_text(
        n.kind,
        n.value.as_ref(),
        n.display.as_deref(),
        n.children.len(),
        len,
    )
}

/// The text a tree row shows as a node's value: the value and its human
/// rendering, or a size for groups and byte runs. Always text; long strings
/// are clipped to [`clip::ROW`] bytes with their length stated.
pub fn value_text(
    kind: Kind,
    value: Option<&Value>,
    display: Option<&str>,
    children: usize,
    len: u64,
) -> String {
    let field = (kind == Kind::Str).then_some(len);
    let v = value.map(|v| clip::value(v, field, clip::ROW));
    let d = display.map(|d| clip::plain(d, clip::ROW));
    match (v, d) {
        (Some(v), Some(d)) => format!("{v} ({d})"),
        (Some(v), None) => v,
        (None, Some(d)) => d,
        (None, None) => match kind {
            Kind::Array => match children {
                1 => "1 item".to_string(),
                k => format!("{k} items"),
            },
            Kind::File | Kind::Struct => String::new(),
            _ => format!("{len} byte{}", if len == 1 { "" } else { "s" }),
        },
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn sample(name: &str) -> Vec<u8> {
        std::fs::read(format!(
            "{}/../../static/samples/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    fn samples() -> Vec<Vec<u8>> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/samples");
        let mut out: Vec<Vec<u8>> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x != "json"))
            .map(|p| std::fs::read(p).unwrap())
            .collect();
        out.sort();
        assert!(out.len() > 5);
        out
    }

    #[test]
    fn the_hash_in_steps_is_the_sha_256_of_the_file() {
        use sha2::Digest;
        for data in samples() {
            let want: String = sha2::Sha256::digest(&data)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            let n = data.len() as u64;
            let mut s = Session::open(data);
            // In three uneven steps; a step out of order changes nothing.
            assert_eq!(s.hash_step(0, n / 3), (n / 3, None));
            assert_eq!(s.hash_step(n / 2, n).1, None);
            let (at, d) = s.hash_step(n / 3, n / 3 + 7);
            assert_eq!(at, (n / 3 + 7).min(n));
            if at < n {
                assert_eq!(d, None);
                assert_eq!(s.hash_step(at, u64::MAX), (n, Some(want.clone())));
            } else {
                assert_eq!(d.as_deref(), Some(want.as_str()));
            }
            // Starting from 0 again gives the same digest.
            assert_eq!(s.hash_step(0, n).1, Some(want));
        }
    }

    #[test]
    fn a_path_resolves_to_its_node_opening_the_groups_on_the_way() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut s = Session::open(data.clone());
        let eager = crate::decode_bytes(&data);
        let mut checked = 0;
        for id in 0..eager.tree.len() as NodeId {
            let path = eager.tree.path(id);
            if eager.tree.is_page(id) || id % 7 != 0 {
                continue;
            }
            let info = s
                .resolve(&path)
                .unwrap_or_else(|| panic!("no node at {path}"));
            assert_eq!(info.path, path);
            let span = eager.tree.span(id);
            let start = span.start_byte();
            let end = if span.is_empty() {
                start
            } else {
                span.end_byte()
            };
            assert_eq!((info.start, info.end), (start, end), "{path}");
            checked += 1;
        }
        assert!(checked > 20, "{checked}");
        assert!(s.resolve("Parts/[999]").is_none());
        assert!(s.resolve("Nope").is_none());
    }

    /// A session over the fully decoded tree of `data`.
    fn eager(data: &[u8]) -> Session<Vec<u8>> {
        let d = crate::decode_bytes(data);
        Session::with_tree(data.to_vec(), d.format, d.tree)
    }

    fn check_tiling(s: &Session<Vec<u8>>) {
        let size = ByteSource::len(s.source());
        let b = s.boxes(0, size);
        let mut next = 0;
        for seg in &b.segments {
            assert_eq!(seg.start, next);
            assert!(seg.end > seg.start);
            next = seg.end;
            let t = s.tree();
            let o = seg.owner;
            let (a, e) = s.byte_range(o);
            assert!(a <= seg.start && seg.end <= e || o == t.root());
            // Every owner and its ancestors are described.
            let mut cur = Some(o);
            while let Some(c) = cur {
                assert!(b.node(c).is_some());
                cur = t.parent(c);
            }
        }
        assert_eq!(next, size);
        // A window's boxes are the whole file's, cut to the window.
        for (lo, hi) in [
            (0, 1),
            (1, 3),
            (5, 77),
            (size / 3, size / 2),
            (size / 2, size + 9),
        ] {
            let w = s.boxes(lo, hi);
            let want: Vec<Segment> = b
                .segments
                .iter()
                .filter(|g| g.start < hi && g.end > lo)
                .map(|g| Segment {
                    start: g.start.max(lo),
                    end: g.end.min(hi),
                    owner: g.owner,
                })
                .collect();
            assert_eq!(w.segments, want, "window {lo}..{hi}");
            for byte in lo..hi.min(size) {
                assert_eq!(w.segment_at(byte).map(|g| g.owner), s.owner(byte));
            }
        }
    }

    #[test]
    fn boxes_tile_every_sample_and_windows_agree_with_the_whole() {
        for data in samples() {
            check_tiling(&eager(&data));
            check_tiling(&Session::open(data.clone()));
            for cut in [0, 1, 7, 33, data.len() / 2] {
                check_tiling(&eager(&data[..cut.min(data.len())]));
            }
        }
    }

    #[test]
    fn rows_follow_the_open_set_and_opening_a_lazy_group_decodes_it() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let d = crate::decode_with(
            &data.as_slice(),
            &crate::Options {
                lazy_threshold: Some(64),
                ..Default::default()
            },
        );
        let mut s = Session::with_tree(data.clone(), d.format, d.tree);
        let sum = s.summary();
        assert_eq!(sum.format, "dxcontainer");
        assert_eq!(sum.open[0], s.tree().root());
        let r = s.rows(0, 1000, None);
        assert_eq!(r.rows[0].id, s.tree().root());
        assert_eq!(r.total as usize, r.rows.len());
        let t = s.tree();
        let lazy = (0..t.len() as NodeId)
            .find(|&i| t.is_lazy(i))
            .expect("a 64-byte threshold leaves lazy groups");
        let lazy = s.node(lazy).unwrap();
        assert!(lazy.has_kids() && lazy.children == 0);
        let v0 = s.version().version;
        let mut open = sum.open.clone();
        open.extend(lazy.crumbs.iter().map(|c| c.0));
        open.push(lazy.id);
        assert!(s.set_open(1, &open).is_empty());
        assert!(s.version().version > v0);
        let r2 = s.rows(0, 10_000, Some(lazy.id));
        let (id, pos) = r2.found.unwrap();
        assert_eq!(id, lazy.id);
        let pos = pos.unwrap();
        let row = r2.at(pos).unwrap();
        assert!(!row.lazy && row.children > 0);
        let child = r2.at(pos + 1).unwrap();
        assert_eq!(child.parent, Some(lazy.id));
        assert_eq!(child.depth, row.depth + 1);
        assert_eq!(child.crumbs.last().map(|c| c.0), Some(lazy.id));
        assert!(child.path.starts_with(&row.path));
        assert!(r2.total > r.total);
        // A window in the middle, and one past the end.
        let mid = s.rows(3, 4, None);
        assert_eq!(mid.first, 3);
        assert_eq!(mid.rows, r2.rows[3..7]);
        assert!(s.rows(r2.total + 5, 10, None).rows.is_empty());
        // Closing again hides the children; ids that do not exist are ignored.
        s.set_open(2, &[s.tree().root(), 1 << 30]);
        assert_eq!(
            s.rows(0, 100, None).total,
            1 + s.tree().children(s.tree().root()).len() as u64
        );
    }

    #[test]
    fn locating_a_byte_opens_small_groups_down_to_its_innermost_field() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let full = eager(&data);
        let d = crate::decode_with(&data.as_slice(), &view::viewer_options());
        let mut s = Session::with_tree(data.clone(), d.format, d.tree);
        let b = data.len() as u64 - 40;
        let want = full.tree().path(full.owner(b).unwrap());
        let before = s.tree().len();
        let got = s.locate(b).unwrap();
        assert!(s.tree().len() > before, "it decoded groups on the way");
        assert!(!got.lazy);
        assert_eq!(got.path, want);
        assert!(got.start <= b && b < got.end);
        assert!(got.crumbs.iter().all(|&(c, _)| !s.tree().is_lazy(c)));
        assert!(s.locate(data.len() as u64).is_none());
    }

    #[test]
    fn details_say_everything_a_row_does_and_more() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let s = eager(&data);
        let t = s.tree();
        let magic = t.find("Header/Magic").unwrap();
        let n = s.node(magic).unwrap();
        assert_eq!(n.name, "Magic");
        assert_eq!(n.path, "Header/Magic");
        assert_eq!((n.start, n.end), (0, 4));
        assert_eq!(n.crumbs.len(), 2);
        assert_eq!(n.depth, 2);
        assert!(n.value.is_some());
        assert!(s.node(t.len() as NodeId).is_none());
    }

    /// A container whose one part (SFI0, 8 bytes of flags) starts at 0x26, two
    /// bytes past the end of the part table.
    fn unaligned_part() -> Vec<u8> {
        let mut v = b"DXBC".to_vec();
        v.extend([0u8; 16]);
        v.extend(1u16.to_le_bytes());
        v.extend(0u16.to_le_bytes());
        let size_at = v.len();
        v.extend(0u32.to_le_bytes());
        v.extend(1u32.to_le_bytes());
        v.extend(0x26u32.to_le_bytes());
        v.extend([0u8; 2]);
        v.extend(b"SFI0");
        v.extend(8u32.to_le_bytes());
        v.extend([0u8; 8]);
        let n = v.len() as u32;
        v[size_at..size_at + 4].copy_from_slice(&n.to_le_bytes());
        v
    }

    #[test]
    fn a_part_row_leads_with_its_fourcc_and_a_remark_follows_it() {
        let s = eager(&unaligned_part());
        let part = s.tree().find("Parts/[0]").expect("the part");
        let text = s.node(part).unwrap().text;
        assert!(text.starts_with("SFI0: shader feature flags"), "{text}");
        assert!(text.contains("⚠ at 0x26, not 4-byte aligned"), "{text}");
    }
}
