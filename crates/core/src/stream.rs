//! Walking a tree whose parts are decoded on demand, and writing it as it is
//! walked: the streaming dump.
//!
//! [`walk`] visits a subtree depth first. A lazy node it reaches is expanded
//! ([`crate::expand`]) before it is visited and released ([`crate::release`])
//! once its subtree has been visited, so the tree holds only the groups on the
//! path from the root to the node being visited: memory follows the depth of
//! the tree and the size of one page, not the size of the file. Pages (see
//! [`Node::page`](crate::Node::page)) are looked through: the visitor sees their
//! children as children of the page's parent.
//!
//! [`write_json`] and [`write_text`] write the JSON contract and the text dump
//! this way. Decoded with [`streaming_options`], they write exactly what
//! [`output::to_json`] and [`output::to_text`] write for an eager decode.

use crate::output::{
    self, json_error, json_node_open, json_str, json_u64_key, text_node, text_width, TextStyle,
};
use crate::source::ByteSource;
use crate::tree::{BitSpan, NodeId, Tree};
use crate::{Decoded, Options};
use std::collections::HashSet;
use std::io::{self, Write};

/// Entries a page holds in a streaming walk.
pub const STREAM_PAGE: u32 = 1000;

/// The options a streaming dump decodes with: every part that can be lazy is
/// (`lazy_threshold` 0), long lists in pages of [`STREAM_PAGE`], and exact
/// totals, so the dump matches an eager one.
pub fn streaming_options() -> Options {
    Options {
        lazy_threshold: Some(0),
        page_size: Some(STREAM_PAGE),
        exact_totals: true,
        scan: false,
        skip_digests: false,
    }
}

/// What a [`walk`] tells its visitor.
pub trait Visitor {
    /// Node `id` is reached, `depth` levels below the root (pages not counted),
    /// decoded (if it was lazy). `hidden` is the number of its children the walk
    /// will not visit because of its depth limit (0 if it visits them all).
    fn enter(&mut self, tree: &Tree, id: NodeId, depth: usize, hidden: usize) -> io::Result<()>;
    /// Node `id` is left: its subtree has been visited.
    fn leave(&mut self, tree: &Tree, id: NodeId, depth: usize) -> io::Result<()>;
}

/// How far a [`walk`] goes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits<'a> {
    /// Nodes deeper than this many levels below the start are not visited (their
    /// parent's `hidden` count says how many children were left out).
    pub max_depth: Option<usize>,
    /// Lazy nodes are visited as they are, not expanded.
    pub keep_lazy: bool,
    /// What a [`survey`] found: lazy nodes made by an expansion are marked
    /// damaged (with their ancestors) before they are visited when it lists them.
    pub damage: Option<&'a Damage>,
}

/// The lazy nodes whose subtree holds an error, as a [`survey`] found them: by
/// span and depth, which stay the same each time a node is decoded anew.
#[derive(Clone, Debug, Default)]
pub struct Damage(HashSet<(u64, u64, usize)>);

impl Damage {
    /// Number of damaged lazy nodes found.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// True if no lazy node is damaged.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Depth of node `id` below the root, pages not counted.
fn depth_of(tree: &Tree, id: NodeId) -> usize {
    let mut d = 0;
    let mut cur = tree.parent(id);
    let mut this_page = tree.is_page(id);
    while let Some(p) = cur {
        if !this_page {
            d += 1;
        }
        this_page = tree.is_page(p);
        cur = tree.parent(p);
    }
    d
}

fn key(tree: &Tree, id: NodeId) -> (u64, u64, usize) {
    let span = tree.span(id);
    (span.start, span.end, depth_of(tree, id))
}

/// Walks the whole tree, expanding and releasing every lazy node that may hide
/// an error (those whose decoder vouched for them are left closed), to learn
/// which lazy nodes hide an error. Afterwards every node present (the root and
/// what is not lazy) carries its true `damaged` flag, and the result tells a
/// later walk which lazy nodes to mark when it decodes them again. Needed only
/// when [`Tree::may_hide_damage`]; costs a decode of everything.
pub fn survey(src: &dyn ByteSource, tree: &mut Tree) -> Damage {
    struct Nothing;
    impl Visitor for Nothing {
        fn enter(&mut self, _: &Tree, _: NodeId, _: usize, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn leave(&mut self, _: &Tree, _: NodeId, _: usize) -> io::Result<()> {
            Ok(())
        }
    }
    let mut found = Damage::default();
    let root = tree.root();
    let _ = walk_inner(
        src,
        tree,
        root,
        Limits::default(),
        &mut Nothing,
        Some(&mut found),
    );
    found
}

struct Frame {
    id: NodeId,
    /// Next child to visit.
    next: usize,
    depth: usize,
    /// Expanded by this walk: released when left.
    expanded: bool,
    /// A page: looked through, not visited.
    page: bool,
}

fn expand_if_lazy(src: &dyn ByteSource, tree: &mut Tree, id: NodeId) -> bool {
    tree.is_lazy(id) && crate::expand(src, tree, id).is_ok()
}

/// Expands `id` if it is lazy (unless `limits` keep lazy nodes), marking the
/// lazy nodes the expansion made that `limits.damage` lists.
/// A survey (`surveying`) leaves lazy nodes whose decoder vouched for them closed.
fn open(
    src: &dyn ByteSource,
    tree: &mut Tree,
    id: NodeId,
    limits: &Limits,
    surveying: bool,
) -> bool {
    if limits.keep_lazy || !tree.is_lazy(id) || (surveying && tree.is_vouched(id)) {
        return false;
    }
    let Ok(made) = crate::expand(src, tree, id) else {
        return false;
    };
    if let Some(d) = limits.damage.filter(|d| !d.is_empty()) {
        for k in made {
            if tree.is_lazy(k) && d.0.contains(&key(tree, k)) {
                tree.mark_damaged(k);
            }
        }
    }
    true
}

/// How many children node `id` has, pages looked through (a page that is not
/// decoded counts the entries it will hold).
pub fn child_count(tree: &Tree, id: NodeId) -> usize {
    tree.children(id)
        .iter()
        .map(|&c| {
            if tree.is_page(c) {
                if tree.is_lazy(c) {
                    tree.value_ref(c).and_then(|v| v.as_u64()).unwrap_or(0) as usize
                } else {
                    child_count(tree, c)
                }
            } else {
                1
            }
        })
        .sum()
}

/// Visits the subtree of `start` (at depth 0) depth first, expanding lazy nodes
/// as it reaches them and releasing them after their subtree (see the module
/// docs). A node at the depth limit is expanded (so it shows what an eager
/// decode shows) but its children are not visited. Stops at the first error
/// the visitor returns. Nodes that were expanded before the walk stay so.
pub fn walk(
    src: &dyn ByteSource,
    tree: &mut Tree,
    start: NodeId,
    limits: Limits,
    v: &mut dyn Visitor,
) -> io::Result<()> {
    walk_inner(src, tree, start, limits, v, None)
}

fn walk_inner(
    src: &dyn ByteSource,
    tree: &mut Tree,
    start: NodeId,
    limits: Limits,
    v: &mut dyn Visitor,
    mut found: Option<&mut Damage>,
) -> io::Result<()> {
    let expanded = open(src, tree, start, &limits, found.is_some());
    let hidden = match limits.max_depth {
        Some(0) => child_count(tree, start),
        _ => 0,
    };
    v.enter(tree, start, 0, hidden)?;
    let mut stack = vec![Frame {
        id: start,
        next: 0,
        depth: 0,
        expanded,
        page: false,
    }];
    if hidden > 0 {
        stack[0].next = usize::MAX;
    }
    while let Some(top) = stack.last_mut() {
        let child = tree.children(top.id).get(top.next).copied();
        match child {
            Some(c) => {
                top.next += 1;
                let depth = top.depth;
                if tree.is_page(c) {
                    let expanded = open(src, tree, c, &limits, found.is_some());
                    stack.push(Frame {
                        id: c,
                        next: 0,
                        depth,
                        expanded,
                        page: true,
                    });
                    continue;
                }
                let depth = depth + 1;
                let expanded = open(src, tree, c, &limits, found.is_some());
                let at_limit = limits.max_depth.is_some_and(|m| depth >= m);
                let hidden = if at_limit { child_count(tree, c) } else { 0 };
                v.enter(tree, c, depth, hidden)?;
                stack.push(Frame {
                    id: c,
                    next: if at_limit { usize::MAX } else { 0 },
                    depth,
                    expanded,
                    page: false,
                });
            }
            None => {
                let f = stack
                    .pop()
                    .expect("the loop runs while the stack has a frame");
                if !f.page {
                    v.leave(tree, f.id, f.depth)?;
                }
                if f.expanded {
                    if let Some(found) = found.as_deref_mut() {
                        if tree.is_damaged(f.id) {
                            found.0.insert(key(tree, f.id));
                        }
                    }
                    // Everything made since lies inside its subtree.
                    let _ = crate::release(tree, f.id);
                }
            }
        }
    }
    Ok(())
}

/// Finds the node at `path` (as the JSON contract writes paths), expanding lazy
/// nodes and pages on the way; they stay expanded. `None` if there is no such
/// node.
pub fn select(src: &dyn ByteSource, tree: &mut Tree, path: &str) -> Option<NodeId> {
    let mut cur = tree.root();
    expand_if_lazy(src, tree, cur);
    if path.is_empty() {
        return Some(cur);
    }
    for seg in path.split('/') {
        cur = find_child(src, tree, cur, seg)?;
        expand_if_lazy(src, tree, cur);
    }
    Some(cur)
}

/// The child of `id` named `name`, looking through pages (and expanding only the
/// page that can hold it when the name is an index).
fn find_child(src: &dyn ByteSource, tree: &mut Tree, id: NodeId, name: &str) -> Option<NodeId> {
    let index: Option<u64> = name
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .and_then(|s| s.parse().ok());
    let mut k = 0;
    while let Some(&c) = tree.children(id).get(k) {
        k += 1;
        if tree.is_page(c) {
            let holds = match (index, page_range(&tree.name(c).to_string())) {
                (Some(i), Some((a, b))) => a <= i && i <= b,
                // Not an index (END_BLOCK on the last page, say): look in every page.
                _ => true,
            };
            if holds {
                expand_if_lazy(src, tree, c);
                if let Some(hit) = find_child(src, tree, c, name) {
                    return Some(hit);
                }
            }
            continue;
        }
        if tree.name(c).is(name) {
            return Some(c);
        }
    }
    None
}

/// The entry indices `[a…b]` a page's name gives.
fn page_range(name: &str) -> Option<(u64, u64)> {
    let (a, b) = name.strip_prefix('[')?.strip_suffix(']')?.split_once('…')?;
    // `[first…]`: the rest of a list (see `Tree::is_rest`).
    let last = if b.is_empty() {
        u64::MAX
    } else {
        b.parse().ok()?
    };
    Some((a.parse().ok()?, last))
}

/// Output is collected here and handed to the writer in pieces of this size.
const FLUSH_AT: usize = 1 << 16;

struct Json<'w> {
    out: Vec<u8>,
    /// Room for a rendered display.
    scratch: String,
    w: &'w mut dyn Write,
    errors: Vec<(String, BitSpan, String)>,
}

impl Json<'_> {
    fn flush_if_full(&mut self) -> io::Result<()> {
        if self.out.len() >= FLUSH_AT {
            self.w.write_all(&self.out)?;
            self.out.clear();
        }
        Ok(())
    }
}

/// The visitor's position among its parent's children is told by the parent:
/// the first child opens the `children` list.
struct JsonVisitor<'w> {
    j: Json<'w>,
    /// For each open node: children written so far.
    open: Vec<usize>,
}

impl Visitor for JsonVisitor<'_> {
    fn enter(&mut self, tree: &Tree, id: NodeId, _depth: usize, hidden: usize) -> io::Result<()> {
        if let Some(n) = self.open.last_mut() {
            self.j
                .out
                .extend_from_slice(if *n == 0 { b",\"children\":[" } else { b"," });
            *n += 1;
        }
        json_node_open(&mut self.j.out, &mut self.j.scratch, tree, id);
        if hidden > 0 {
            json_u64_key(&mut self.j.out, "hidden_children", hidden as u64);
        }
        if let Some(e) = tree.error(id) {
            self.j
                .errors
                .push((tree.path(id), tree.span(id), e.to_string()));
        }
        self.open.push(0);
        self.j.flush_if_full()
    }

    fn leave(&mut self, _: &Tree, _: NodeId, _: usize) -> io::Result<()> {
        let n = self.open.pop().unwrap_or(0);
        if n > 0 {
            self.j.out.push(b']');
        }
        self.j.out.push(b'}');
        self.j.flush_if_full()
    }
}

/// Writes the JSON contract of the subtree at `start` (the root: the whole
/// file) to `w`, walking it with [`walk`]: `{"format", "file_size", "tree",
/// "errors"}`, plus `"path"` when `start` is not the root. A node whose
/// children the depth limit leaves out has `"hidden_children": N`. Errors are
/// those of the nodes written, in the order written.
pub fn write_json(
    src: &dyn ByteSource,
    d: &mut Decoded,
    start: NodeId,
    limits: Limits,
    w: &mut dyn Write,
) -> io::Result<()> {
    let mut v = JsonVisitor {
        j: Json {
            out: Vec::with_capacity(FLUSH_AT * 2),
            scratch: String::new(),
            w,
            errors: Vec::new(),
        },
        open: Vec::new(),
    };
    v.j.out.extend_from_slice(b"{\"format\":");
    json_str(&mut v.j.out, d.format);
    json_u64_key(&mut v.j.out, "file_size", d.file_size);
    if start != d.tree.root() {
        v.j.out.extend_from_slice(b",\"path\":");
        json_str(&mut v.j.out, &d.tree.path(start));
    }
    v.j.out.extend_from_slice(b",\"tree\":");
    walk(src, &mut d.tree, start, limits, &mut v)?;
    let j = &mut v.j;
    j.out.extend_from_slice(b",\"errors\":[");
    let errors = std::mem::take(&mut j.errors);
    for (k, (path, span, msg)) in errors.iter().enumerate() {
        if k > 0 {
            j.out.push(b',');
        }
        json_error(&mut j.out, path, *span, msg);
        j.flush_if_full()?;
    }
    j.out.extend_from_slice(b"]}\n");
    j.w.write_all(&j.out)
}

struct TextVisitor<'w> {
    out: Vec<u8>,
    w: &'w mut dyn Write,
    width: usize,
    errors: usize,
    style: &'w TextStyle,
}

impl Visitor for TextVisitor<'_> {
    fn enter(&mut self, tree: &Tree, id: NodeId, depth: usize, hidden: usize) -> io::Result<()> {
        text_node(&mut self.out, tree, id, depth, self.width, self.style);
        if hidden > 0 {
            // The line ends with a newline, then maybe an error line: mark the
            // node's own line.
            let line_end = match tree.error(id) {
                Some(_) => self.out[..self.out.len() - 1]
                    .iter()
                    .rposition(|&c| c == b'\n')
                    .unwrap_or(0),
                None => self.out.len() - 1,
            };
            let mark = format!(
                " {}[{hidden} {} not shown]{}",
                self.style.note.before,
                if hidden == 1 { "child" } else { "children" },
                self.style.note.after,
            );
            self.out.splice(line_end..line_end, mark.bytes());
        }
        if tree.error(id).is_some() {
            self.errors += 1;
        }
        if self.out.len() >= FLUSH_AT {
            self.w.write_all(&self.out)?;
            self.out.clear();
        }
        Ok(())
    }

    fn leave(&mut self, _: &Tree, _: NodeId, _: usize) -> io::Result<()> {
        Ok(())
    }
}

/// Writes the text dump of the subtree at `start` to `w`, walking it with
/// [`walk`]: the header line, one line a node (indented from `start`), and the
/// error count of the nodes written. A node whose children the depth limit
/// leaves out ends with `[N children not shown]`.
pub fn write_text(
    src: &dyn ByteSource,
    d: &mut Decoded,
    start: NodeId,
    limits: Limits,
    w: &mut dyn Write,
) -> io::Result<()> {
    write_text_styled(src, d, start, limits, &TextStyle::default(), w)
}

/// [`write_text`] with each part of a line marked as `style` says (colours for
/// a terminal); with [`TextStyle::default`] it is [`write_text`].
pub fn write_text_styled(
    src: &dyn ByteSource,
    d: &mut Decoded,
    start: NodeId,
    limits: Limits,
    style: &TextStyle,
    w: &mut dyn Write,
) -> io::Result<()> {
    let mut v = TextVisitor {
        out: Vec::with_capacity(FLUSH_AT * 2),
        w,
        width: text_width(d.file_size),
        errors: 0,
        style,
    };
    let _ = writeln!(v.out, "{} ({} bytes)", d.format, d.file_size);
    if start != d.tree.root() {
        let _ = writeln!(v.out, "{}", output::one_line(&d.tree.path(start), 400));
    }
    walk(src, &mut d.tree, start, limits, &mut v)?;
    if v.errors > 0 {
        let e = &style.error;
        let _ = writeln!(v.out, "{}{} error(s){}", e.before, v.errors, e.after);
    }
    v.w.write_all(&v.out)
}

/// How [`dump`] writes a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DumpForm {
    /// The JSON contract ([`write_json`]).
    Json,
    /// The indented text dump ([`write_text`]).
    Text,
}

/// Why [`dump`] wrote nothing.
#[derive(Debug)]
pub enum DumpError {
    /// There is no node at the path asked for.
    NoSuchPath(String),
    /// Writing failed.
    Io(io::Error),
}

/// Decodes `src` and writes the subtree at `path` (`None`: the whole file) to
/// `w` as `hexlens dump` does: a streaming decode (parts decoded as the walk
/// reaches them and dropped after), with the first pass that finds the damage
/// lazy parts hide where the JSON or a partial dump needs it. The CLI's dump
/// and the web viewer's copy and export both come through here, so their
/// output is the same. With `scan`, the file is scanned for containers
/// whatever it is ([`Options::scan`]). Returns true if the file decoded
/// without errors.
pub fn dump(
    src: &dyn ByteSource,
    path: Option<&str>,
    form: DumpForm,
    max_depth: Option<usize>,
    scan: bool,
    w: &mut dyn Write,
) -> Result<bool, DumpError> {
    dump_styled(src, path, form, max_depth, scan, &TextStyle::default(), w)
}

/// [`dump`], with the text dump's lines marked as `style` says (colours for a
/// terminal; [`write_text_styled`]). The JSON is never styled.
pub fn dump_styled(
    src: &dyn ByteSource,
    path: Option<&str>,
    form: DumpForm,
    max_depth: Option<usize>,
    scan: bool,
    style: &TextStyle,
    w: &mut dyn Write,
) -> Result<bool, DumpError> {
    dump_styled_as(src, None, path, form, max_depth, scan, style, w)
}

/// [`dump_styled`] of the tree `format` decodes (a `.ksy` format, say), or
/// the one the file's own format gives when `None`.
#[allow(clippy::too_many_arguments)]
pub fn dump_styled_as(
    src: &dyn ByteSource,
    format: Option<&'static crate::Format>,
    path: Option<&str>,
    form: DumpForm,
    max_depth: Option<usize>,
    scan: bool,
    style: &TextStyle,
    w: &mut dyn Write,
) -> Result<bool, DumpError> {
    let opts = Options {
        scan,
        ..streaming_options()
    };
    let mut d = crate::decode_as_or_with(format, src, &opts);
    let json = form == DumpForm::Json;
    let damage;
    let mut limits = Limits {
        max_depth,
        ..Limits::default()
    };
    if d.tree.may_hide_damage() && (json || max_depth.is_some() || path.is_some()) {
        damage = survey(src, &mut d.tree);
        limits.damage = Some(&damage);
    }
    let start = match path {
        Some(p) => select(src, &mut d.tree, p).ok_or_else(|| DumpError::NoSuchPath(p.into()))?,
        None => d.tree.root(),
    };
    if json {
        write_json(src, &mut d, start, limits, w)
    } else {
        write_text_styled(src, &mut d, start, limits, style, w)
    }
    .map_err(DumpError::Io)?;
    Ok(d.is_clean())
}
