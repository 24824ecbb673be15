//! The structure tree every decoder produces: one model for every format.
//!
//! A [`Tree`] is an arena of [`Node`]s. Each node has a name, a [`Kind`], a half-open
//! bit span ([`BitSpan`]), an optional typed [`Value`], an optional human `display`
//! (enum names, flag lists), an optional error and children. Spans are bit-precise
//! internally (bitfields, flag bits); output formats round them outwards to bytes.
//!
//! Nodes are only created through [`crate::Builder`], which records spans around
//! each read, so format code never computes a span by hand.

use crate::source::ByteSource;
use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::sync::Arc;

/// Index of a node inside its [`Tree`].
pub type NodeId = u32;

/// A half-open range of bit positions `[start, end)`. Bit `8*b + i` is bit `i`
/// (counting from the least significant) of byte `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct BitSpan {
    /// First bit (inclusive).
    pub start: u64,
    /// One past the last bit.
    pub end: u64,
}

impl BitSpan {
    /// A span from byte offsets.
    pub fn bytes(start: u64, end: u64) -> Self {
        BitSpan {
            start: start * 8,
            end: end * 8,
        }
    }
    /// First byte touched.
    pub fn start_byte(&self) -> u64 {
        self.start / 8
    }
    /// One past the last byte touched (rounded outwards).
    pub fn end_byte(&self) -> u64 {
        self.end.div_ceil(8)
    }
    /// Length in bits.
    pub fn len_bits(&self) -> u64 {
        self.end - self.start
    }
    /// True if the span covers no bits.
    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }
    /// True if `other` lies inside `self`.
    pub fn contains(&self, other: &BitSpan) -> bool {
        other.start >= self.start && other.end <= self.end
    }
    /// True if both spans share at least one bit.
    pub fn overlaps(&self, other: &BitSpan) -> bool {
        self.start < other.end && other.start < self.end
    }
    /// True if the span starts and ends on byte boundaries.
    pub fn is_byte_aligned(&self) -> bool {
        self.start.is_multiple_of(8) && self.end.is_multiple_of(8)
    }
}

/// What a node is. Integer kinds say how the bytes were read; the meaning of an
/// enum or flag field is carried by `display`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The root of a decoded file.
    File,
    /// A group of fields (a struct, a part, a header).
    Struct,
    /// A list whose children are named `[0]`, `[1]`, …
    Array,
    /// Unsigned little- or big-endian integers.
    U8,
    U16,
    U32,
    U64,
    /// Signed integers.
    I8,
    I16,
    I32,
    I64,
    /// IEEE floating point.
    F32,
    F64,
    /// A variable-length integer (its encoded bytes are the span).
    VarInt,
    /// A run of bits inside a larger integer (a bitfield or a single flag).
    Bits,
    /// A boolean stored as an integer or a bit.
    Bool,
    /// A four-character code.
    FourCC,
    /// A text string (NUL-terminated or length-delimited).
    Str,
    /// An integer field that refers to a string stored elsewhere; its value is the
    /// resolved string and its `reference` span points at the string bytes.
    StrRef,
    /// A raw run of bytes whose content is not decoded further.
    Bytes,
    /// Alignment or reserved padding.
    Padding,
    /// Bytes inside a parent that no decoded field claims.
    Unknown,
    /// A value computed from other fields, not stored at its own bytes: its span is
    /// empty and `reference` points at the bytes it was derived from.
    Derived,
}

impl Kind {
    /// The stable lower-case name used in JSON and text output.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::File => "file",
            Kind::Struct => "struct",
            Kind::Array => "array",
            Kind::U8 => "u8",
            Kind::U16 => "u16",
            Kind::U32 => "u32",
            Kind::U64 => "u64",
            Kind::I8 => "i8",
            Kind::I16 => "i16",
            Kind::I32 => "i32",
            Kind::I64 => "i64",
            Kind::F32 => "f32",
            Kind::F64 => "f64",
            Kind::VarInt => "varint",
            Kind::Bits => "bits",
            Kind::Bool => "bool",
            Kind::FourCC => "fourcc",
            Kind::Str => "string",
            Kind::StrRef => "strref",
            Kind::Bytes => "bytes",
            Kind::Padding => "padding",
            Kind::Unknown => "unknown",
            Kind::Derived => "derived",
        }
    }

    /// True for kinds that group other nodes rather than hold a value.
    pub fn is_group(self) -> bool {
        matches!(self, Kind::File | Kind::Struct | Kind::Array)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A decoded value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Unsigned integer (also used for enum and flag fields: the raw number).
    U(u64),
    /// Signed integer.
    I(i64),
    /// Floating point.
    F(f64),
    /// Boolean.
    Bool(bool),
    /// Text (lossily decoded from the file's bytes when not valid UTF-8).
    Str(String),
}

impl Value {
    /// The value as an unsigned integer, if it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::U(v) => Some(v),
            Value::I(v) if v >= 0 => Some(v as u64),
            _ => None,
        }
    }
    /// The value as text, if it is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::U(v) => write!(f, "{v}"),
            Value::I(v) => write!(f, "{v}"),
            Value::F(v) => write!(f, "{v}"),
            Value::Bool(v) => write!(f, "{v}"),
            // Quoted; control characters escaped, everything else as stored (text
            // that decoders already escaped, like a FourCC's `\xC0`, is not escaped twice).
            Value::Str(s) => {
                f.write_char('"')?;
                for c in s.chars() {
                    if c.is_control() {
                        write!(f, "\\u{{{:x}}}", c as u32)?;
                    } else {
                        f.write_char(c)?;
                    }
                }
                f.write_char('"')
            }
        }
    }
}

/// A node's name: a fixed field name, a list index (`[i]`), or an owned string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Name {
    /// A field name known at compile time.
    Static(&'static str),
    /// A list element, shown as `[i]`.
    Index(u32),
    /// A name computed at run time.
    Owned(Box<str>),
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Name::Static(s) => f.write_str(s),
            Name::Index(i) => write!(f, "[{i}]"),
            Name::Owned(s) => f.write_str(s),
        }
    }
}

impl From<&'static str> for Name {
    fn from(s: &'static str) -> Self {
        Name::Static(s)
    }
}

impl From<String> for Name {
    fn from(s: String) -> Self {
        Name::Owned(s.into_boxed_str())
    }
}

/// One node of the structure tree.
#[derive(Clone, Debug)]
pub struct Node {
    /// Field name, list index or computed name.
    pub name: Name,
    /// What the node is.
    pub kind: Kind,
    /// The bits the node covers (empty for [`Kind::Derived`]).
    pub span: BitSpan,
    /// The decoded value, absent on groups and raw byte runs.
    pub value: Option<Value>,
    /// Human rendering: enum names, flag lists, resolved offsets.
    pub display: Option<Box<str>>,
    /// What went wrong decoding this node: expected, found, and where.
    pub error: Option<Box<str>>,
    /// Bytes this node refers to elsewhere in the file (a string an offset points at,
    /// the source of a derived value).
    pub reference: Option<BitSpan>,
    /// True if this node or a descendant carries an error.
    pub damaged: bool,
    /// True while the node's children are not decoded yet: it has its span, name,
    /// kind, value and display, but no children until [`crate::expand`] decodes
    /// them (see [`crate::Options::lazy_threshold`]).
    pub lazy: bool,
    /// True on a page of a long list (`[1000…1999]`): a way of browsing the list
    /// in parts that each decode when opened. A page is not part of the file's
    /// structure: paths, the JSON contract and the text dump show its children as
    /// children of its parent (see [`Tree::walk`]).
    pub page: bool,
    /// The parent, `None` for the root.
    pub parent: Option<NodeId>,
    /// Children in display order.
    pub children: Vec<NodeId>,
}

/// What is needed to decode a lazy node's children later: a decoder's own state
/// at the node (where it starts, what it must know there). It stays inside the
/// process that decoded the tree. A format makes a node lazy by giving the
/// builder a recipe ([`crate::Builder`]'s `lazy_node`); the tree only stores it
/// and hands it back, so this module knows nothing of any format.
pub(crate) trait Recipe: fmt::Debug + Send + Sync {
    /// Decodes the children of lazy node `id` of `tree` from `src` and returns
    /// the tree with them appended (see [`crate::expand`]). Never panics.
    fn expand(&self, src: &dyn ByteSource, tree: Tree, id: NodeId) -> Tree;
    /// True if the decoder knows the node's subtree holds no error (it read all
    /// of it, making no nodes, before leaving it lazy): a walk that writes
    /// damage flags need not look inside first.
    fn vouched(&self) -> bool {
        false
    }
}

/// A shared recipe: kept after an expansion so a released node can be decoded
/// again.
pub(crate) type RecipeRef = Arc<dyn Recipe>;

/// A decoded file: an arena of nodes whose first entry is the root.
///
/// A tree decoded with a lazy threshold ([`crate::decode_with`]) also keeps, for
/// each lazy node, what [`crate::expand`] needs to decode it later.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    recipes: BTreeMap<NodeId, RecipeRef>,
    /// For each expanded node still holding its children: the tree's length
    /// before the expansion (its new nodes start there).
    /// (and the node as it was before, which a release restores).
    expanded: BTreeMap<NodeId, (usize, Node)>,
    lazy_threshold: Option<u64>,
    page_size: Option<u32>,
}

impl Tree {
    pub(crate) fn with_root(name: Name, span: BitSpan) -> Self {
        Tree {
            recipes: BTreeMap::new(),
            expanded: BTreeMap::new(),
            lazy_threshold: None,
            page_size: None,
            nodes: vec![Node {
                name,
                kind: Kind::File,
                span,
                value: None,
                display: None,
                error: None,
                reference: None,
                damaged: false,
                lazy: false,
                page: false,
                parent: None,
                children: Vec::new(),
            }],
        }
    }

    /// Rebuilds a tree from its nodes (as received from a worker that decoded it,
    /// in the order [`Tree::nodes`] gave them). Errors, without panicking, unless
    /// node 0 is the root and every other node is listed exactly once among the
    /// children of its parent and reachable from the root. The rebuilt tree cannot
    /// decode its lazy nodes itself: it mirrors expansions done elsewhere with
    /// [`Tree::apply_expansion`].
    pub fn from_nodes(nodes: Vec<Node>) -> Result<Tree, String> {
        let Some(root) = nodes.first() else {
            return Err("a tree needs at least its root node".into());
        };
        if root.parent.is_some() {
            return Err("node 0 (the root) has a parent".into());
        }
        if u32::try_from(nodes.len()).is_err() {
            return Err(format!(
                "{} nodes are more than a tree can index",
                nodes.len()
            ));
        }
        let len = nodes.len();
        let mut listed = vec![false; len];
        for (i, n) in nodes.iter().enumerate() {
            if i > 0 && n.parent.is_none() {
                return Err(format!("node {i} has no parent but is not the root"));
            }
            for &c in &n.children {
                check_child(&nodes, &mut listed, i as NodeId, c)?;
            }
        }
        if let Some(i) = (1..len).find(|&i| !listed[i]) {
            return Err(format!("node {i} is not among its parent's children"));
        }
        // Every node has one parent that lists it; reaching all of them from the
        // root rules out cycles detached from it.
        let mut seen = 1usize;
        let mut stack = vec![0 as NodeId];
        while let Some(id) = stack.pop() {
            for &c in &nodes[id as usize].children {
                seen += 1;
                if seen > len {
                    return Err("the nodes' children lists form a cycle".into());
                }
                stack.push(c);
            }
        }
        if seen != len {
            return Err(format!(
                "only {seen} of {len} nodes are reachable from the root"
            ));
        }
        Ok(Tree {
            nodes,
            recipes: BTreeMap::new(),
            expanded: BTreeMap::new(),
            lazy_threshold: None,
            page_size: None,
        })
    }

    /// Mirrors an expansion done in another copy of this tree (see
    /// [`crate::expand`]): node `id` is replaced by `node` (its updated form:
    /// children set, lazy cleared, perhaps an error or `damaged`), and `new_nodes`,
    /// whose ids are `len()..`, are appended. If `node` is damaged its ancestors are
    /// marked damaged too. Errors, leaving the tree unchanged, unless `id` exists,
    /// `node` keeps its parent, every new node is listed exactly once among the
    /// children of `node` or of another new node (its parent), and the children of
    /// `node` and the new nodes are all new nodes.
    pub fn apply_expansion(
        &mut self,
        id: NodeId,
        node: Node,
        new_nodes: Vec<Node>,
    ) -> Result<(), String> {
        let old_len = self.nodes.len();
        let Some(old) = self.nodes.get(id as usize) else {
            return Err(format!("node {id} is not in the tree ({old_len} nodes)"));
        };
        if old.parent != node.parent {
            return Err(format!(
                "the expanded node {id} has parent {:?}, but the tree has {:?}",
                node.parent, old.parent
            ));
        }
        let total = old_len.saturating_add(new_nodes.len());
        if u32::try_from(total).is_err() {
            return Err(format!("{total} nodes are more than a tree can index"));
        }
        let get = |k: NodeId| -> Option<&Node> {
            if k == id {
                Some(&node)
            } else {
                (k as usize)
                    .checked_sub(old_len)
                    .and_then(|j| new_nodes.get(j))
            }
        };
        let mut listed = vec![false; new_nodes.len()];
        let mut parents: Vec<NodeId> = vec![id];
        parents.extend((old_len..total).map(|k| k as NodeId));
        for &p in &parents {
            let pn = get(p).expect("parents are the node and the new nodes");
            for &c in &pn.children {
                let j = (c as usize)
                    .checked_sub(old_len)
                    .filter(|&j| j < new_nodes.len())
                    .ok_or_else(|| {
                        format!("node {p} lists child {c}, which is not one of the new nodes {old_len}..{total}")
                    })?;
                if new_nodes[j].parent != Some(p) {
                    return Err(format!(
                        "node {c} is listed by node {p} but names {:?} as its parent",
                        new_nodes[j].parent
                    ));
                }
                if std::mem::replace(&mut listed[j], true) {
                    return Err(format!("node {c} is listed twice as a child"));
                }
            }
        }
        if let Some(j) = listed.iter().position(|&l| !l) {
            return Err(format!(
                "new node {} is not among its parent's children",
                old_len + j
            ));
        }
        let mut seen = 0usize;
        let mut stack = vec![id];
        while let Some(k) = stack.pop() {
            for &c in &get(k).expect("reached nodes are new").children {
                seen += 1;
                if seen > new_nodes.len() {
                    return Err("the new nodes' children lists form a cycle".into());
                }
                stack.push(c);
            }
        }
        if seen != new_nodes.len() {
            return Err(format!(
                "only {seen} of {} new nodes are reachable from node {id}",
                new_nodes.len()
            ));
        }
        let damaged = node.damaged;
        let parent = node.parent;
        self.nodes[id as usize] = node;
        self.nodes.extend(new_nodes);
        self.recipes.remove(&id);
        if damaged {
            let mut cur = parent;
            while let Some(c) = cur {
                let n = &mut self.nodes[c as usize];
                if n.damaged {
                    break;
                }
                n.damaged = true;
                cur = n.parent;
            }
        }
        Ok(())
    }

    /// The lazy threshold the tree was decoded with (`None`: decoded eagerly).
    pub fn lazy_threshold(&self) -> Option<u64> {
        self.lazy_threshold
    }

    pub(crate) fn set_lazy_threshold(&mut self, t: Option<u64>) {
        self.lazy_threshold = t;
    }

    /// Entries a page of a long list holds, `None` when lists are not paged (see
    /// [`crate::Options::page_size`]).
    pub fn page_size(&self) -> Option<u32> {
        self.page_size
    }

    pub(crate) fn set_page_size(&mut self, n: Option<u32>) {
        self.page_size = n;
    }

    /// Number of nodes whose children are not decoded yet.
    pub fn lazy_count(&self) -> usize {
        self.nodes.iter().filter(|n| n.lazy).count()
    }

    /// Marks `id` lazy and keeps what is needed to decode it later.
    pub(crate) fn set_recipe(&mut self, id: NodeId, r: RecipeRef) {
        if let Some(n) = self.nodes.get_mut(id as usize) {
            n.lazy = true;
            self.recipes.insert(id, r);
        }
    }

    /// What is needed to decode lazy node `id` (kept: a released node needs it
    /// again).
    pub(crate) fn recipe(&self, id: NodeId) -> Option<RecipeRef> {
        self.recipes.get(&id).cloned()
    }

    /// True if some lazy node may hide an error (its decoder did not vouch for
    /// it): a node's `damaged` flag is then only sure once every lazy node below
    /// it has been expanded.
    pub fn may_hide_damage(&self) -> bool {
        self.recipes
            .iter()
            .any(|(&id, r)| self.nodes[id as usize].lazy && !r.vouched())
    }

    /// True if node `id` is lazy and its decoder vouched that its subtree holds
    /// no error (see [`Tree::may_hide_damage`]).
    pub fn is_vouched(&self, id: NodeId) -> bool {
        self.nodes[id as usize].lazy && self.recipes.get(&id).is_some_and(|r| r.vouched())
    }

    /// Notes that node `id`, which was `before`, was expanded when the tree held
    /// `len` nodes.
    pub(crate) fn note_expanded(&mut self, id: NodeId, len: usize, before: Node) {
        self.expanded.insert(id, (len, before));
    }

    /// True if node `id` can be released with [`Tree::release`]: it was expanded,
    /// and every node made since is inside its subtree.
    pub fn can_release(&self, id: NodeId) -> bool {
        match self.expanded.get(&id) {
            Some(&(mark, _)) => self.nodes.get(mark..).is_some_and(|made| {
                made.iter()
                    .all(|n| matches!(n.parent, Some(p) if p as usize >= mark || p == id))
            }),
            None => false,
        }
    }

    /// Releases what expanding node `id` added: its descendants are dropped, and
    /// it becomes lazy again, as it was before (what the expansion learnt of its
    /// damage stays), so a
    /// later [`crate::expand`] decodes it anew (groups expanded inside it are
    /// released with it). Every node made since `id` was expanded must lie inside
    /// its subtree: a walk that opens and closes groups in order releases them in
    /// reverse, and its memory then follows its depth, not the file. Errors, and
    /// changes nothing, if `id` was not expanded or nodes outside its subtree were
    /// made after it.
    pub fn release(&mut self, id: NodeId) -> Result<(), String> {
        if !self.can_release(id) {
            return Err(format!(
                "node {id} cannot be released: it was not expanded, or groups opened after it are still open"
            ));
        }
        let (mark, before) = self.expanded.remove(&id).expect("checked");
        self.nodes.truncate(mark);
        // Expansions and recipes of the dropped nodes go with them.
        self.expanded.split_off(&(mark as NodeId));
        self.recipes.split_off(&(mark as NodeId));
        let n = &mut self.nodes[id as usize];
        let damaged = n.damaged;
        *n = before;
        n.children = Vec::new();
        n.lazy = true;
        n.damaged |= damaged;
        Ok(())
    }

    /// The root node's id (always 0).
    pub fn root(&self) -> NodeId {
        0
    }

    /// The node with this id.
    ///
    /// Panics if `id` did not come from this tree.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    pub(crate) fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True if the tree holds only its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// All nodes, in creation order (the root first).
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub(crate) fn push(&mut self, parent: NodeId, node: Node) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(node);
        self.nodes[parent as usize].children.push(id);
        id
    }

    /// Appends a node whose parent already lists it.
    pub(crate) fn push_detached(&mut self, node: Node) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(node);
        id
    }

    /// The path of a node from the root: names joined by `/`, the root's own name
    /// left out (`Parts/[3]/PSVInfo`).
    pub fn path(&self, id: NodeId) -> String {
        let mut parts = Vec::new();
        let mut cur = Some(id);
        while let Some(c) = cur {
            let n = self.node(c);
            if n.parent.is_some() && !n.page {
                parts.push(n.name.to_string());
            }
            cur = n.parent;
        }
        parts.reverse();
        parts.join("/")
    }

    /// Finds a node by a path as printed by [`Tree::path`].
    pub fn find(&self, path: &str) -> Option<NodeId> {
        let mut cur = self.root();
        if path.is_empty() {
            return Some(cur);
        }
        for seg in path.split('/') {
            cur = self.child_named(cur, seg)?;
        }
        Some(cur)
    }

    /// The child of `id` called `name`, looking through pages (see [`Node::page`]).
    pub fn child_named(&self, id: NodeId, name: &str) -> Option<NodeId> {
        self.children_flat(id)
            .into_iter()
            .find(|&c| self.node(c).name.to_string() == name)
    }

    /// The children of `id` as the file's structure has them: the children of a
    /// page stand in for the page (pages inside pages too).
    pub fn children_flat(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack: Vec<NodeId> = self.node(id).children.iter().rev().copied().collect();
        while let Some(c) = stack.pop() {
            let n = self.node(c);
            if n.page {
                stack.extend(n.children.iter().rev());
            } else {
                out.push(c);
            }
        }
        out
    }

    /// Ids of every node that carries an error, in depth-first order.
    pub fn errors(&self) -> Vec<NodeId> {
        let mut out = Vec::new();
        self.walk(|id, _| {
            if self.node(id).error.is_some() {
                out.push(id);
            }
        });
        out
    }

    /// Visits every node depth-first (parents before children) with its depth.
    /// Pages are looked through: their children are visited at the page's depth,
    /// the page itself is not (see [`Node::page`]).
    pub fn walk(&self, mut f: impl FnMut(NodeId, usize)) {
        let mut stack = vec![(self.root(), 0usize)];
        while let Some((id, depth)) = stack.pop() {
            let n = self.node(id);
            if n.page {
                for &c in n.children.iter().rev() {
                    stack.push((c, depth));
                }
                continue;
            }
            f(id, depth);
            for &c in n.children.iter().rev() {
                stack.push((c, depth + 1));
            }
        }
    }

    /// The innermost node whose span covers `byte`, preferring later siblings never:
    /// the first child (in display order) that covers the byte wins.
    pub fn innermost_at(&self, byte: u64) -> NodeId {
        let bit = BitSpan::bytes(byte, byte + 1);
        let mut cur = self.root();
        'down: loop {
            for &c in &self.node(cur).children {
                let s = self.node(c).span;
                if !s.is_empty() && s.overlaps(&bit) {
                    cur = c;
                    continue 'down;
                }
            }
            return cur;
        }
    }
}

/// Checks that `c`, listed as a child of `p`, exists, names `p` as its parent and
/// is listed only once.
fn check_child(nodes: &[Node], listed: &mut [bool], p: NodeId, c: NodeId) -> Result<(), String> {
    let Some(cn) = nodes.get(c as usize) else {
        return Err(format!(
            "node {p} lists child {c}, but there are only {} nodes",
            nodes.len()
        ));
    };
    if c == 0 {
        return Err(format!("node {p} lists the root as a child"));
    }
    if cn.parent != Some(p) {
        return Err(format!(
            "node {c} is listed by node {p} but names {:?} as its parent",
            cn.parent
        ));
    }
    if std::mem::replace(&mut listed[c as usize], true) {
        return Err(format!("node {c} is listed twice as a child"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Value;

    #[test]
    fn strings_display_quoted_with_control_characters_escaped_once() {
        assert_eq!(
            Value::Str("BC\\xC0\\xDE".into()).to_string(),
            "\"BC\\xC0\\xDE\""
        );
        assert_eq!(
            Value::Str("a\nb\u{7}".into()).to_string(),
            "\"a\\u{a}b\\u{7}\""
        );
        assert_eq!(
            Value::Str("<img src=x>".into()).to_string(),
            "\"<img src=x>\""
        );
    }
}
