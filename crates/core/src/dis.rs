//! Program text: what the programs a file holds say, one line at a time, each
//! line tied to the bits it was made from (`hexlens dis`).
//!
//! A program is a node of a decoded tree: the SHDR/SHEX part of a DirectX
//! Container (FXC's SM4/5 bytecode), printed as FXC's own listing (`fxc /Fc`)
//! prints it; an LLVM bitcode module (a DXIL or ILDB part, a `.bc` file),
//! printed as `llvm-dis` prints it ([`crate::llvmir`]). [`programs`] finds
//! them in file order; [`listing`] makes one's text.

use crate::tree::{NodeId, Tree};

/// One line of a program's text and the bits of the file it was made from
/// (half-open ranges, in file order, not overlapping).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The text, without a line break.
    pub text: String,
    /// Bit ranges `[start, end)` of the file.
    pub bits: Vec<(u64, u64)>,
}

impl Line {
    /// A line made from nothing in the file (a blank or a fixed comment line).
    pub fn plain(text: impl Into<String>) -> Line {
        Line {
            text: text.into(),
            bits: Vec::new(),
        }
    }

    /// A line made from the bytes `[start, end)` of the file.
    pub fn bytes(text: impl Into<String>, start: u64, end: u64) -> Line {
        Line {
            text: text.into(),
            bits: if end > start {
                vec![(start * 8, end * 8)]
            } else {
                Vec::new()
            },
        }
    }

    /// Adds the bytes `[start, end)` to what the line was made from.
    pub fn with_bytes(mut self, start: u64, end: u64) -> Line {
        self.add_bits(start * 8, end * 8);
        self
    }

    /// Adds the bits `[start, end)`, keeping the ranges sorted and merged.
    /// Adds the bit ranges `ranges` (each half-open; empty ones are left
    /// out), merging where they touch or overlap.
    pub fn add_all_bits(&mut self, ranges: impl IntoIterator<Item = (u64, u64)>) {
        self.bits.extend(ranges.into_iter().filter(|(s, e)| e > s));
        if self.bits.len() < 2 {
            return;
        }
        self.bits.sort_unstable();
        let mut k = 0;
        for j in 1..self.bits.len() {
            let (s, e) = self.bits[j];
            if s <= self.bits[k].1 {
                self.bits[k].1 = self.bits[k].1.max(e);
            } else {
                k += 1;
                self.bits[k] = (s, e);
            }
        }
        self.bits.truncate(k + 1);
    }

    pub fn add_bits(&mut self, start: u64, end: u64) {
        if end <= start {
            return;
        }
        self.bits.push((start, end));
        self.bits.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(self.bits.len());
        for &(s, e) in &self.bits {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        self.bits = merged;
    }

    /// The byte ranges that hold the line's bits (a range of bits that is not
    /// whole bytes gives the bytes it touches).
    pub fn spans(&self) -> Vec<(u64, u64)> {
        let mut out: Vec<(u64, u64)> = Vec::with_capacity(self.bits.len());
        for &(s, e) in &self.bits {
            let (s, e) = (s / 8, e.div_ceil(8));
            match out.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => out.push((s, e)),
            }
        }
        out
    }
}

/// The text syntax of a program: how its comments start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// FXC's SM4/5 assembly (`//` comments).
    Sm4,
    /// LLVM assembly (`;` comments).
    Llvm,
}

impl Syntax {
    /// What starts a comment line.
    pub fn comment(self) -> &'static str {
        match self {
            Syntax::Sm4 => "//",
            Syntax::Llvm => ";",
        }
    }
}

/// A program found in a decoded file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The program's node.
    pub node: NodeId,
    /// Its path in the tree (`Parts/[3]`).
    pub path: String,
    /// What it is (`SHEX`).
    pub kind: String,
    /// Its text's syntax.
    pub syntax: Syntax,
}

impl Program {
    /// The heading comment `hexlens dis` prints before the program's text
    /// in a file that holds other things too.
    pub fn heading(&self) -> String {
        format!(
            "{} hexlens: {} {}",
            self.syntax.comment(),
            self.path,
            self.kind
        )
    }
}

/// Decodes the lazy parts of `tree` (decoded from `src` with a lazy
/// threshold) that may hold programs, so that [`programs`] finds them all:
/// every lazy node except those inside a bitcode module (whose records the
/// text is made from, not the tree).
pub fn open_programs(src: &dyn crate::source::ByteSource, tree: &mut Tree) {
    let is_bitcode = |t: &Tree, n: NodeId| {
        t.children(n).iter().any(|&c| {
            let name = t.name(c).to_string();
            name == "Blocks" || name == "Wrapper"
        })
    };
    let mut stack = vec![tree.root()];
    while let Some(id) = stack.pop() {
        #[cfg(feature = "bitcode")]
        if llvm_program(tree, id).is_some() {
            continue;
        }
        if tree.is_lazy(id) && crate::expand(src, tree, id).is_err() {
            continue;
        }
        if is_bitcode(tree, id) {
            continue;
        }
        stack.extend(tree.children(id).iter().rev());
    }
}

/// Every program of the tree, in file order.
pub fn programs(tree: &Tree) -> Vec<Program> {
    let mut out: Vec<Program> = Vec::new();
    let mut stack = vec![tree.root()];
    while let Some(id) = stack.pop() {
        if let Some(kind) = crate::formats::dxcontainer::sm4_program_part(tree, id) {
            out.push(Program {
                node: id,
                path: tree.path(id),
                kind,
                syntax: Syntax::Sm4,
            });
            continue;
        }
        #[cfg(feature = "bitcode")]
        if let Some(kind) = llvm_program(tree, id) {
            out.push(Program {
                node: id,
                path: tree.path(id),
                kind,
                syntax: Syntax::Llvm,
            });
            continue;
        }
        let kids = tree.children(id);
        stack.extend(kids.iter().rev());
    }
    out.sort_by_key(|p| tree.span(p.node).start);
    out
}

/// The program of the tree that holds node `id` (or is it).
pub fn program_at(tree: &Tree, id: NodeId) -> Option<Program> {
    let all = programs(tree);
    let mut at = Some(id);
    while let Some(n) = at {
        if let Some(p) = all.iter().find(|p| p.node == n) {
            return Some(p.clone());
        }
        at = tree.parent(n);
    }
    None
}

/// The text of program `p`, read from `src` (the file the tree was decoded
/// from): only the bytes of the program's container are read.
pub fn listing(tree: &Tree, p: &Program, src: &dyn crate::source::ByteSource) -> Vec<Line> {
    listing_named(tree, p, src, &p.path)
}

/// [`listing`], with the name LLVM text gives its module (`; ModuleID =
/// 'NAME'`; `llvm-dis` gives the path of the file it read).
pub fn listing_named(
    tree: &Tree,
    p: &Program,
    src: &dyn crate::source::ByteSource,
    name: &str,
) -> Vec<Line> {
    match p.syntax {
        Syntax::Sm4 => crate::formats::dxcontainer::sm4_listing(tree, p.node, src),
        #[cfg(feature = "bitcode")]
        Syntax::Llvm => llvm_listing(tree, p.node, src, name),
        #[cfg(not(feature = "bitcode"))]
        Syntax::Llvm => {
            let _ = name;
            vec![Line::plain("; hexlens: this build reads no LLVM bitcode")]
        }
    }
}

/// [`listing_named`], handing each line to `sink` as it is made (LLVM text
/// is never held whole), in the LLVM dialect `dialect` chooses (see
/// [`llvm_text_to`]).
pub fn listing_to(
    tree: &Tree,
    p: &Program,
    src: &dyn crate::source::ByteSource,
    name: &str,
    dialect: Option<u32>,
    sink: &mut dyn FnMut(Line),
) {
    listing_function_to(tree, p, src, name, dialect, None, sink);
}

/// [`listing_to`], or with `function` only that function's text (LLVM
/// programs; an SM4/5 program has no functions to pick). Returns whether
/// the function was found (true without `function`).
pub fn listing_function_to(
    tree: &Tree,
    p: &Program,
    src: &dyn crate::source::ByteSource,
    name: &str,
    dialect: Option<u32>,
    function: Option<&str>,
    sink: &mut dyn FnMut(Line),
) -> bool {
    match p.syntax {
        Syntax::Sm4 if function.is_some() => false,
        Syntax::Sm4 => {
            for l in crate::formats::dxcontainer::sm4_listing(tree, p.node, src) {
                sink(l);
            }
            true
        }
        #[cfg(feature = "bitcode")]
        Syntax::Llvm => {
            let Some((start, bytes)) = module_bytes(tree, p.node, src) else {
                sink(Line::plain(NO_BITCODE));
                return function.is_none();
            };
            llvm_function_to(&bytes, start, name, dialect, function, sink)
        }
        #[cfg(not(feature = "bitcode"))]
        Syntax::Llvm => {
            let _ = (name, dialect);
            sink(Line::plain("; hexlens: this build reads no LLVM bitcode"));
            function.is_none()
        }
    }
}

/// The kind of LLVM program node `id` is: a DirectX Container's DXIL or
/// ILDB part, a file that is a bitcode module, or a module found inside
/// another file.
#[cfg(feature = "bitcode")]
fn llvm_program(tree: &Tree, id: NodeId) -> Option<String> {
    let child = |n: NodeId, name: &str| {
        tree.children(n)
            .iter()
            .copied()
            .find(|&c| tree.name(c).to_string() == name)
    };
    if id == tree.root() {
        let bitcode = child(id, "Blocks").is_some() || child(id, "Wrapper").is_some();
        return bitcode.then(|| "bitcode".to_string());
    }
    // A module found inside another file (`Bitcode@0x3E8`).
    if tree.name(id).to_string().starts_with("Bitcode@") && bitcode_node(tree, id) == Some(id) {
        return Some("bitcode".to_string());
    }
    let parent = tree.parent(id)?;
    if tree.name(parent).to_string() != "Parts" {
        return None;
    }
    match tree.value(child(id, "Name")?) {
        Some(crate::tree::Value::Str(s)) if s == "DXIL" || s == "ILDB" => {
            (bitcode_node(tree, id).is_some() || has_lazy(tree, id)).then(|| s.to_string())
        }
        _ => None,
    }
}

/// Whether node `id` or a node below it is left for later (lazy).
#[cfg(feature = "bitcode")]
fn has_lazy(tree: &Tree, id: NodeId) -> bool {
    let mut stack = vec![id];
    while let Some(n) = stack.pop() {
        if tree.is_lazy(n) {
            return true;
        }
        stack.extend(tree.children(n).iter());
    }
    false
}

/// The bytes of the bitcode of DXIL or ILDB part node `id` when its
/// program is not decoded in the tree: the part's program header (after its
/// name and size) gives the bitcode's offset from the header's `DXIL` magic
/// and its size.
#[cfg(feature = "bitcode")]
fn part_bitcode(
    tree: &Tree,
    id: NodeId,
    src: &dyn crate::source::ByteSource,
) -> Option<(u64, u64)> {
    let start = tree.span(id).start / 8;
    let end = tree.span(id).end / 8;
    let mut h = [0u8; 32];
    if src.read_at(start, &mut h) < 32 || &h[16..20] != b"DXIL" {
        return None;
    }
    let word = |k: usize| u32::from_le_bytes([h[k], h[k + 1], h[k + 2], h[k + 3]]) as u64;
    let from = start + 16 + word(24);
    let to = from.checked_add(word(28))?.min(end);
    (from < to).then_some((from, to))
}

/// Whether `src` starts as an LLVM bitcode module or its wrapper does.
#[cfg(feature = "bitcode")]
pub fn bare_bitcode(src: &dyn crate::source::ByteSource) -> bool {
    use crate::bitstream::{BITCODE_MAGIC, WRAPPER_MAGIC};
    let mut head = [0u8; 4];
    src.read_at(0, &mut head) == 4 && (head == BITCODE_MAGIC || head == WRAPPER_MAGIC)
}

/// What the text of an LLVM program without its bitcode says.
#[cfg(feature = "bitcode")]
const NO_BITCODE: &str = "; hexlens: no bitcode in this program";

/// The first byte and the bytes of the bitcode module of LLVM program node
/// `id`, read from `src`.
#[cfg(feature = "bitcode")]
fn module_bytes(
    tree: &Tree,
    id: NodeId,
    src: &dyn crate::source::ByteSource,
) -> Option<(u64, Vec<u8>)> {
    let (start, end) = match bitcode_node(tree, id) {
        Some(bc) => {
            let span = tree.span(bc);
            (span.start / 8, span.end.div_ceil(8))
        }
        None => part_bitcode(tree, id, src)?,
    };
    let mut bytes = vec![0u8; (end - start) as usize];
    let n = src.read_at(start, &mut bytes);
    bytes.truncate(n);
    Some((start, bytes))
}

/// The node of the bitcode module inside program node `id` (the node
/// itself for a bitcode file): the first node with `Blocks` or `Wrapper`.
#[cfg(feature = "bitcode")]
fn bitcode_node(tree: &Tree, id: NodeId) -> Option<NodeId> {
    let mut stack = vec![id];
    while let Some(n) = stack.pop() {
        let kids = tree.children(n);
        if kids.iter().any(|&c| {
            let name = tree.name(c).to_string();
            name == "Blocks" || name == "Wrapper"
        }) {
            return Some(n);
        }
        stack.extend(kids.iter().rev());
    }
    None
}

/// LLVM text of the module in program node `id`: DXC's and LLVM 3.x's as
/// `llvm-dis-14` prints them, later ones as `llvm-dis-19` does.
#[cfg(feature = "bitcode")]
fn llvm_listing(
    tree: &Tree,
    id: NodeId,
    src: &dyn crate::source::ByteSource,
    name: &str,
) -> Vec<Line> {
    let p = Program {
        node: id,
        path: String::new(),
        kind: String::new(),
        syntax: Syntax::Llvm,
    };
    let mut out = Vec::new();
    listing_to(tree, &p, src, name, None, &mut |l| out.push(l));
    out
}

/// Hands `sink` each line of the LLVM text of the bitcode module `bytes`
/// (a bare module or its wrapper), which lie at byte `base` of the file, as
/// it is made: the text is never held whole. `dialect` chooses the text's
/// dialect (14: typed pointers as `llvm-dis-14` prints them, 19: opaque
/// pointers as `llvm-dis-19` does); `None` goes by the module's producer.
/// Where the module stops being readable a last comment line says where
/// and why.
#[cfg(feature = "bitcode")]
pub fn llvm_text_to(
    bytes: &[u8],
    base: u64,
    name: &str,
    dialect: Option<u32>,
    sink: &mut dyn FnMut(Line),
) {
    llvm_function_to(bytes, base, name, dialect, None, sink);
}

/// [`llvm_text_to`], or with `function` only the text of the function of
/// that name (its `define` or `declare` and its body, numbered as in the
/// whole text). Returns whether the function was found (true without
/// `function`).
#[cfg(feature = "bitcode")]
pub fn llvm_function_to(
    bytes: &[u8],
    base: u64,
    name: &str,
    dialect: Option<u32>,
    function: Option<&str>,
    sink: &mut dyn FnMut(Line),
) -> bool {
    let mut text = ProgramText::bitcode(bytes, base, name, dialect);
    let Some(want) = function else {
        for k in 0..text.pieces() {
            text.piece_to(k, sink);
        }
        return true;
    };
    let k = (0..text.functions())
        .map(|f| text.function_piece(f))
        .find(|&k| text.piece_name(k) == Some(want));
    if let Some(k) = k {
        // Without the blank line that separates it from what comes before.
        let mut first = true;
        text.piece_to(k, &mut |l| {
            if !std::mem::take(&mut first) {
                sink(l);
            }
        });
    }
    text.stops().iter().cloned().for_each(&mut *sink);
    k.is_some()
}

/// How many numbered metadata nodes of the module's own a piece of
/// [`ProgramText`] holds.
pub const NODES_A_PIECE: usize = 4096;

/// How many named types a piece of [`ProgramText`] holds.
pub const TYPES_A_PIECE: usize = 32;

/// About how many bits of a function block make a line of its text, and
/// how many of its metadata blocks make a numbered node (what a piece not
/// made yet is sized by).
#[cfg(feature = "bitcode")]
const BITS_A_LINE: u64 = 96;
#[cfg(feature = "bitcode")]
const BITS_A_NODE: u64 = 160;

/// A program's text in pieces, each made when asked for: what a viewer
/// holds to show a big module a screen at a time. An SM4/5 program is one
/// piece. An LLVM module is read without its function bodies, which are
/// read as the text comes to them; its pieces are
/// - the header (module ID, source file name, data layout, triple);
/// - its named types, [`TYPES_A_PIECE`] a piece, in the order the bodies
///   meet them (the first few need the first few bodies);
/// - its comdats and globals;
/// - each function: its text needs the functions before it numbered
///   (their metadata and call attributes), so making it reads the bodies
///   up to its own;
/// - the attribute groups and named metadata (every body read);
/// - the numbered metadata nodes of the module's own, [`NODES_A_PIECE`] a
///   piece;
/// - the nodes each function numbers first, a piece a function.
///
/// The pieces in order are [`listing_to`]'s lines, and each reads the same
/// whatever order they are asked for in.
pub struct ProgramText {
    inner: Inner,
}

enum Inner {
    /// Text made whole (SM4/5, or a module that is not there).
    Whole(Vec<Line>),
    #[cfg(feature = "bitcode")]
    Llvm {
        listing: Box<crate::llvmir::write::Listing>,
        /// The module's first bit in the file.
        base: u64,
        name: String,
        /// Comments on where the module stops being readable (made with the
        /// last piece, when every body is read).
        errors: Option<Vec<Line>>,
        /// Numbered metadata nodes of the module's own a piece.
        chunk: usize,
        /// Pieces of named types.
        types: usize,
    },
}

/// What a piece of a module's text holds.
#[cfg(feature = "bitcode")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Header,
    /// Named types `[from, to)`.
    Types(usize, usize),
    Globals,
    Function(usize),
    Groups,
    /// The module's own numbered nodes `[from, to)`.
    Nodes(usize, usize),
    /// The nodes function `k` numbers first.
    FunctionNodes(usize),
    Past,
}

/// How a module's text is cut into pieces (see [`ProgramText`]): the one
/// place that maps a piece to what it holds and back.
#[cfg(feature = "bitcode")]
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// Pieces of named types.
    types: usize,
    functions: usize,
    /// Numbered nodes of the module's own, and how many a piece holds.
    module_nodes: usize,
    chunk: usize,
}

#[cfg(feature = "bitcode")]
impl Layout {
    /// Pieces of the module's own nodes.
    fn node_pieces(&self) -> usize {
        self.module_nodes.div_ceil(self.chunk)
    }

    /// The piece that holds `part` (`Types` and `Nodes` by their first).
    fn piece(&self, part: Part) -> usize {
        let globals = 1 + self.types;
        let groups = globals + 1 + self.functions;
        let function_nodes = groups + 1 + self.node_pieces();
        match part {
            Part::Header => 0,
            Part::Types(from, _) => 1 + from / TYPES_A_PIECE,
            Part::Globals => globals,
            Part::Function(f) => globals + 1 + f,
            Part::Groups => groups,
            Part::Nodes(from, _) => groups + 1 + from / self.chunk,
            Part::FunctionNodes(f) => function_nodes + f,
            Part::Past => function_nodes + self.functions,
        }
    }

    /// What piece `k` holds.
    fn part(&self, k: usize) -> Part {
        let at = |p: Part| self.piece(p);
        if k == 0 {
            Part::Header
        } else if k < at(Part::Globals) {
            let from = (k - 1) * TYPES_A_PIECE;
            Part::Types(from, from + TYPES_A_PIECE)
        } else if k == at(Part::Globals) {
            Part::Globals
        } else if k < at(Part::Groups) {
            Part::Function(k - at(Part::Function(0)))
        } else if k == at(Part::Groups) {
            Part::Groups
        } else if k < at(Part::FunctionNodes(0)) {
            let from = (k - at(Part::Nodes(0, 0))) * self.chunk;
            Part::Nodes(from, (from + self.chunk).min(self.module_nodes))
        } else if k < at(Part::Past) {
            Part::FunctionNodes(k - at(Part::FunctionNodes(0)))
        } else {
            Part::Past
        }
    }

    /// The part that holds numbered node `slot`, which function `function`
    /// numbered first (`None`: the module).
    fn node(&self, slot: usize, function: Option<usize>) -> Part {
        match function {
            Some(f) => Part::FunctionNodes(f),
            None => Part::Nodes(slot - slot % self.chunk, slot + 1),
        }
    }
}

impl ProgramText {
    /// Reads program `p` of `tree` from `src` (the file the tree was
    /// decoded from) and numbers its text; `name` and `dialect` as
    /// [`listing_to`] takes them.
    pub fn open(
        tree: &Tree,
        p: &Program,
        src: &dyn crate::source::ByteSource,
        name: &str,
        dialect: Option<u32>,
    ) -> ProgramText {
        let inner = match p.syntax {
            #[cfg(feature = "bitcode")]
            Syntax::Llvm => match module_bytes(tree, p.node, src) {
                Some((start, bytes)) => return Self::bitcode(&bytes, start, name, dialect),
                None => Inner::Whole(vec![Line::plain(NO_BITCODE)]),
            },
            _ => {
                let mut lines = Vec::new();
                listing_to(tree, p, src, name, dialect, &mut |l| lines.push(l));
                Inner::Whole(lines)
            }
        };
        ProgramText { inner }
    }

    /// The text of the bitcode module `bytes` (a bare module or its wrapper),
    /// which lie at byte `start` of the file: its records read, its bodies
    /// left for when their text is asked for.
    #[cfg(feature = "bitcode")]
    pub fn bitcode(bytes: &[u8], start: u64, name: &str, dialect: Option<u32>) -> ProgramText {
        let mut m = crate::llvmir::read_lazily(bytes);
        m.dialect = dialect;
        let listing = crate::llvmir::write::Listing::new(m);
        let types = listing.named_types_bound().div_ceil(TYPES_A_PIECE);
        ProgramText {
            inner: Inner::Llvm {
                listing: Box::new(listing),
                base: start * 8,
                name: name.to_string(),
                errors: None,
                chunk: NODES_A_PIECE,
                types,
            },
        }
    }

    /// Puts `n` numbered metadata nodes (at least one) in a piece instead of
    /// [`NODES_A_PIECE`].
    pub fn set_nodes_a_piece(&mut self, n: usize) {
        #[cfg(feature = "bitcode")]
        if let Inner::Llvm { chunk, .. } = &mut self.inner {
            *chunk = n.max(1);
        }
        let _ = n;
    }

    /// Where each part of a module's text is among the pieces.
    #[cfg(feature = "bitcode")]
    fn layout(&self) -> Option<Layout> {
        let Inner::Llvm {
            listing,
            chunk,
            types,
            ..
        } = &self.inner
        else {
            return None;
        };
        Some(Layout {
            types: *types,
            functions: listing.functions(),
            module_nodes: listing.module_nodes(),
            chunk: *chunk,
        })
    }

    /// What piece `k` of a module's text holds.
    #[cfg(feature = "bitcode")]
    fn part(&self, k: usize) -> Part {
        self.layout().map_or(Part::Past, |l| l.part(k))
    }

    /// How many pieces the text is in (see [`ProgramText`]); one for
    /// anything but an LLVM module.
    pub fn pieces(&self) -> usize {
        match &self.inner {
            Inner::Whole(_) => 1,
            #[cfg(feature = "bitcode")]
            Inner::Llvm { .. } => self.layout().map_or(0, |l| l.piece(Part::Past)),
        }
    }

    /// How many functions the text holds.
    pub fn functions(&self) -> usize {
        match &self.inner {
            Inner::Whole(_) => 0,
            #[cfg(feature = "bitcode")]
            Inner::Llvm { listing, .. } => listing.functions(),
        }
    }

    /// The piece that holds function `k`'s text (`k` < [`ProgramText::functions`]).
    pub fn function_piece(&self, k: usize) -> usize {
        match &self.inner {
            Inner::Whole(_) => {
                let _ = k; // one piece
                0
            }
            #[cfg(feature = "bitcode")]
            Inner::Llvm { .. } => self.layout().map_or(0, |l| l.piece(Part::Function(k))),
        }
    }

    /// How many of an LLVM module's function bodies are not read yet
    /// (`None`: not a module's text).
    pub fn module_unread(&self) -> Option<usize> {
        match &self.inner {
            Inner::Whole(_) => None,
            #[cfg(feature = "bitcode")]
            Inner::Llvm { listing, .. } => Some(listing.module().unread_bodies()),
        }
    }

    /// The function piece `k` prints (`None` for other pieces, and for
    /// unnamed functions).
    pub fn piece_name(&self, k: usize) -> Option<&str> {
        match &self.inner {
            Inner::Whole(_) => k.checked_sub(usize::MAX).map(|_| ""),
            #[cfg(feature = "bitcode")]
            Inner::Llvm { listing, .. } => match self.part(k) {
                Part::Function(f) => listing.function_name(f),
                _ => None,
            },
        }
    }

    /// About how many lines piece `k` holds, without making it (what a
    /// viewer sizes its scroll by until the piece is made).
    pub fn estimate(&self, k: usize) -> usize {
        match &self.inner {
            Inner::Whole(lines) => {
                let _ = k; // one piece
                lines.len()
            }
            #[cfg(feature = "bitcode")]
            Inner::Llvm { listing, .. } => {
                let m = listing.module();
                let function =
                    |f: usize| listing.function_index(f).and_then(|i| m.functions.get(i));
                match self.part(k) {
                    Part::Header => 4,
                    Part::Types(from, to) => {
                        to.min(listing.named_types_bound()).saturating_sub(from)
                            + usize::from(from == 0)
                    }
                    Part::Globals => 1 + m.globals.len() + 2 * m.comdats.len(),
                    Part::Function(f) => match function(f) {
                        Some(func) => match (&func.body, func.block) {
                            (Some(b), _) => 4 + b.insts.len() + b.dbg.len() + 2 * b.blocks,
                            (None, Some((s, e))) => {
                                4 + ((e - s).saturating_sub(func.md_bits) / BITS_A_LINE) as usize
                            }
                            _ => 2,
                        },
                        None => 0,
                    },
                    Part::Groups => 2 + m.named_md.len() + m.groups.len() / 2,
                    Part::Nodes(from, to) => to - from + usize::from(from == 0),
                    Part::FunctionNodes(f) => {
                        if let Some((s, e)) = listing.numbered_nodes(f) {
                            return e - s;
                        }
                        function(f).map_or(0, |func| {
                            let locs = match (func.block, m.md.is_empty()) {
                                (Some((s, e)), false) => ((e - s) / (8 * BITS_A_LINE)) as usize,
                                _ => 0,
                            };
                            (func.md_bits / BITS_A_NODE) as usize + locs
                        })
                    }
                    Part::Past => 0,
                }
            }
        }
    }

    /// The piece whose lines bit `bit` of the file was most likely made
    /// into: the function whose record or body holds it (a location a body
    /// gives its instructions included), the nodes a metadata record is
    /// numbered with, the attribute groups, a named type's piece, the
    /// globals, else the header. Reads the bodies and numbers the functions
    /// it needs to tell.
    pub fn piece_at(&mut self, bit: u64) -> usize {
        #[cfg(feature = "bitcode")]
        if let Some(k) = self.llvm_piece_at(bit) {
            return k;
        }
        let _ = bit;
        0
    }

    #[cfg(feature = "bitcode")]
    fn llvm_piece_at(&mut self, bit: u64) -> Option<usize> {
        let layout = self.layout()?;
        let n = layout.functions;
        let Inner::Llvm { listing, base, .. } = &mut self.inner else {
            return None;
        };
        let b = bit.checked_sub(*base)?;
        let inside = |r: (u64, u64)| r.0 <= b && b < r.1;
        // The function whose record or block holds it.
        let function = (0..n).find(|&k| {
            let m = listing.module();
            listing
                .function_index(k)
                .and_then(|i| m.functions.get(i))
                .is_some_and(|f| inside(f.bits) || f.block.is_some_and(inside))
        });
        let mut in_md_block = false;
        if let Some(k) = function {
            listing.number_to(k + 1);
            let m = listing.module();
            let f = listing.function_index(k).and_then(|i| m.functions.get(i));
            in_md_block = f
                .and_then(|f| f.body.as_ref())
                .is_some_and(|body| body.md_blocks.iter().any(|&r| inside(r)));
        }
        // A body's own metadata blocks print in the tail; the locations its
        // instructions name print with them.
        if function.is_none() || in_md_block {
            let id = listing.module().md.iter().position(|e| inside(e.bits));
            if let Some(id) = id {
                if listing.metadata_slot(id).is_none() {
                    listing.number_all();
                }
                let part = match listing.metadata_slot(id) {
                    Some(slot) => layout.node(slot, listing.node_function(slot)),
                    None => Part::Groups,
                };
                return Some(layout.piece(part));
            }
        }
        if let Some(k) = function {
            return Some(layout.piece(Part::Function(k)));
        }
        let m = listing.module();
        if m.named_md.iter().any(|x| inside(x.2)) || m.group_bits.iter().any(|g| inside(g.1)) {
            return Some(layout.piece(Part::Groups));
        }
        let named = (0..m.types.len()).find(|&t| {
            matches!(
                m.types[t],
                crate::llvmir::Type::Struct { name: Some(_), .. }
            ) && m
                .type_bits
                .get(t)
                .is_some_and(|r| r.iter().any(|&r| inside(r)))
        });
        if let Some(t) = named {
            if let Some(place) = listing.named_type_place(t) {
                return Some(layout.piece(Part::Types(place, place + 1)));
            }
        }
        let m = listing.module();
        if m.globals.iter().any(|g| inside(g.bits)) || m.comdats.iter().any(|c| inside(c.2)) {
            return Some(layout.piece(Part::Globals));
        }
        Some(layout.piece(Part::Header))
    }

    /// The piece that defines `name` as the text writes it: `!12` (a
    /// numbered node), `!llvm.ident` (named metadata), `#3` (an attribute
    /// group), `@g` (a global or a function); `None` if nothing does. Numbers
    /// the functions it needs to tell where a node is.
    pub fn definition(&mut self, name: &str) -> Option<usize> {
        match &mut self.inner {
            Inner::Whole(_) => {
                let _ = name; // one piece
                Some(0)
            }
            #[cfg(feature = "bitcode")]
            Inner::Llvm { listing, .. } => {
                let part = if let Some(rest) = name.strip_prefix('!') {
                    match rest.parse::<usize>() {
                        // Named metadata.
                        Err(_) => Part::Groups,
                        Ok(slot) if listing.number_node(slot) => {
                            let f = listing.node_function(slot);
                            self.layout()?.node(slot, f)
                        }
                        Ok(_) => return None,
                    }
                } else if name.starts_with('#') {
                    Part::Groups
                } else {
                    let want = name.strip_prefix('@')?.trim_matches('"');
                    let f =
                        (0..listing.functions()).find(|&f| listing.function_name(f) == Some(want));
                    f.map_or(Part::Globals, Part::Function)
                };
                Some(self.layout()?.piece(part))
            }
        }
    }

    /// The lines of piece `k` (none past the last), made now.
    pub fn piece(&mut self, k: usize) -> Vec<Line> {
        let mut out = Vec::new();
        self.piece_to(k, &mut |l| out.push(l));
        out
    }

    /// [`ProgramText::piece`], handing each line to `sink` as it is made.
    pub fn piece_to(&mut self, k: usize, sink: &mut dyn FnMut(Line)) {
        #[cfg(feature = "bitcode")]
        let part = self.part(k);
        let last = k + 1 == self.pieces();
        match &mut self.inner {
            Inner::Whole(lines) if k == 0 => lines.iter().cloned().for_each(sink),
            Inner::Whole(_) => {}
            #[cfg(feature = "bitcode")]
            Inner::Llvm {
                listing,
                base,
                name,
                ..
            } => {
                let text = match part {
                    Part::Header => listing.header(name),
                    Part::Types(from, to) => listing.types(from, to),
                    Part::Globals => listing.globals(),
                    Part::Function(f) => listing.function(f),
                    Part::Groups => listing.tail_head(),
                    Part::Nodes(from, to) => listing.tail_nodes(from, to),
                    Part::FunctionNodes(f) => {
                        let (from, to) = listing.function_nodes(f);
                        listing.tail_nodes(from, to)
                    }
                    Part::Past => return,
                };
                let base = *base;
                for l in text {
                    text_lines(l, base, sink);
                }
                if last {
                    self.stops().iter().cloned().for_each(sink);
                }
            }
        }
        let _ = last;
    }

    /// The comments on where the module stops being readable (the last
    /// piece ends with them; none for a whole module). Reads every body.
    pub fn stops(&mut self) -> &[Line] {
        match &mut self.inner {
            Inner::Whole(_) => &[],
            #[cfg(feature = "bitcode")]
            Inner::Llvm {
                listing,
                errors,
                base,
                ..
            } => errors.get_or_insert_with(|| {
                listing.number_all();
                let mut at: Vec<&(u64, String)> = listing.module().errors.iter().collect();
                // In stream order, as reading it whole meets them.
                at.sort_by_key(|e| e.0);
                at.iter()
                    .map(|(at, e)| {
                        Line::plain(format!(
                            "; hexlens: the module stops being readable at bit {}: {e}",
                            *base + at
                        ))
                    })
                    .collect()
            }),
        }
    }
}

/// The lines of writer line `l` (whose text may hold line breaks), its bits
/// moved by `base` (the module's first bit in the file).
#[cfg(feature = "bitcode")]
fn text_lines(l: crate::llvmir::write::TextLine, base: u64, sink: &mut dyn FnMut(Line)) {
    let bits = l.bits.iter().map(|&(s, e)| (base + s, base + e));
    if !l.text.contains('\n') {
        let mut line = Line::plain(l.text);
        line.add_all_bits(bits);
        return sink(line);
    }
    for text in l.text.split('\n') {
        let mut line = Line::plain(text);
        line.add_all_bits(bits.clone());
        sink(line);
    }
}

/// How a file is decoded to find its programs ([`open_programs`] then
/// opens what may hold them): big parts (bitcode blocks) left for later,
/// since the text is made from the records, not the tree, and digests
/// unchecked (a DXBC checksum reads the whole container); scanned for
/// containers with `scan`.
pub fn tree_options(scan: bool) -> crate::Options {
    crate::Options {
        scan,
        lazy_threshold: Some(1 << 16),
        page_size: Some(4096),
        skip_digests: true,
        ..Default::default()
    }
}

/// Which program [`open_text`] opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The one that holds this byte (or the first).
    At(u64),
    /// The `k`th in file order (or the first).
    Index(usize),
}

/// The programs of the file `src` (decoded with its big parts left for
/// later, and scanned for containers with `scan`), and the text of the one
/// `pick` picks, read and numbered: what a viewer's listing pane opens. An
/// error if the file holds no program.
pub fn open_text(
    src: &dyn crate::source::ByteSource,
    scan: bool,
    pick: Pick,
    name: &str,
    dialect: Option<u32>,
) -> Result<(Vec<Program>, usize, ProgramText), String> {
    // A bare module: its text straight from its records, no tree.
    #[cfg(feature = "bitcode")]
    if !scan && bare_bitcode(src) {
        let mut bytes = vec![0u8; src.len() as usize];
        let n = src.read_at(0, &mut bytes);
        bytes.truncate(n);
        let p = Program {
            node: 0,
            path: String::new(),
            kind: "bitcode".into(),
            syntax: Syntax::Llvm,
        };
        return Ok((vec![p], 0, ProgramText::bitcode(&bytes, 0, name, dialect)));
    }
    let mut d = crate::decode_with(src, &tree_options(scan));
    open_programs(src, &mut d.tree);
    let all = programs(&d.tree);
    if all.is_empty() {
        return Err("this file holds no program hexlens can print (SM4/5 programs and LLVM bitcode modules)".into());
    }
    let k = match pick {
        Pick::At(b) => all.iter().position(|p| {
            let s = d.tree.span(p.node);
            s.start / 8 <= b && b < s.end.div_ceil(8)
        }),
        Pick::Index(k) => (k < all.len()).then_some(k),
    }
    .unwrap_or(0);
    let p = &all[k];
    let name = if p.node == d.tree.root() {
        name
    } else {
        &p.path
    };
    let text = ProgramText::open(&d.tree, p, src, name, dialect);
    Ok((all, k, text))
}

/// Line `n` (1-based) of program `program` as one line of JSON Lines
/// (without its line break): `{"program": PATH, "line": N, "text": STR,
/// "spans": [[start, end], …], "bits": [[start, end], …]}`, spans in bytes,
/// bits in bits, both half-open.
pub fn json_line(program: &str, n: usize, line: &Line) -> String {
    let mut out = Vec::with_capacity(line.text.len() + 96);
    out.extend_from_slice(b"{\"program\":");
    crate::output::json_str(&mut out, program);
    out.extend_from_slice(format!(",\"line\":{n},\"text\":").as_bytes());
    crate::output::json_str(&mut out, &line.text);
    let ranges = |r: &[(u64, u64)]| {
        let items: Vec<String> = r.iter().map(|(s, e)| format!("[{s},{e}]")).collect();
        format!("[{}]", items.join(","))
    };
    out.extend_from_slice(
        format!(
            ",\"spans\":{},\"bits\":{}}}",
            ranges(&line.spans()),
            ranges(&line.bits)
        )
        .as_bytes(),
    );
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_merge_and_give_the_bytes_they_touch() {
        let mut l = Line::bytes("x", 4, 8);
        l.add_bits(100, 102);
        l.add_bits(64, 70);
        l.add_bits(66, 80);
        assert_eq!(l.bits, vec![(32, 80), (100, 102)]);
        assert_eq!(l.spans(), vec![(4, 10), (12, 13)]);
        assert!(Line::plain("").spans().is_empty());
    }

    #[test]
    fn a_json_line_names_its_program_text_and_ranges() {
        let l = Line::bytes("mov r0.x, l(\"1\")", 16, 28);
        assert_eq!(
            json_line("Parts/[3]", 7, &l),
            r#"{"program":"Parts/[3]","line":7,"text":"mov r0.x, l(\"1\")","spans":[[16,28]],"bits":[[128,224]]}"#
        );
    }
}
