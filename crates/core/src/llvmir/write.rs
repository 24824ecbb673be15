//! A module as LLVM assembly, line for line as `llvm-dis-14` prints it (typed
//! pointers): the header, named types in the order LLVM's type finder meets
//! them, globals, functions with their value numbering and `; preds`
//! comments, attribute groups, named and numbered metadata. Each line keeps
//! the bits of the records it was made from (`bits`, relative to the stream).

use super::{di, Attr, Body, Const, Function, Inst, Md, Module, Op, Type, TypeId, Value, ValueId};
type HashMap<K, V> = std::collections::HashMap<K, V, rustc_hash::FxBuildHasher>;
type HashSet<K> = std::collections::HashSet<K, rustc_hash::FxBuildHasher>;
use std::fmt::Write as _;
use std::rc::Rc;

/// One line of text and the bits of the records it came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextLine {
    pub text: String,
    pub bits: Vec<(u64, u64)>,
}

impl TextLine {
    fn plain(text: impl Into<String>) -> Self {
        TextLine {
            text: text.into(),
            bits: Vec::new(),
        }
    }
    fn at(text: impl Into<String>, bits: (u64, u64)) -> Self {
        TextLine {
            text: text.into(),
            bits: if bits.1 > bits.0 {
                vec![bits]
            } else {
                Vec::new()
            },
        }
    }
}

/// The module's text. `name` is what the `; ModuleID` and (when the module
/// has no source file name) `source_filename` lines give.
pub fn module(m: impl Into<Rc<Module>>, name: &str) -> Vec<TextLine> {
    let mut out = Vec::new();
    module_to(m, name, &mut |l| out.push(l));
    out
}

/// [`module`], handing each line to `sink` as it is made: the text is never
/// held whole (at most one function's lines at a time).
pub fn module_to(m: impl Into<Rc<Module>>, name: &str, sink: &mut dyn FnMut(TextLine)) {
    let mut l = Listing::new(m);
    for line in l.head(name) {
        sink(line);
    }
    for k in 0..l.functions() {
        for line in l.function(k) {
            sink(line);
        }
    }
    l.tail_to(sink);
}

/// A module's text in pieces, made when asked for: the head (header, named
/// types, comdats, globals), each function (in the order the text gives
/// them), the tail (attribute groups, named and numbered metadata). Making
/// the listing numbers what the text numbers (attribute groups, metadata,
/// named types) once; after that a function's text costs that function.
/// The pieces put together in order are [`module`]'s text.
pub struct Listing {
    w: Writer,
}

impl Listing {
    /// Numbers module `m`'s text (an `Rc<Module>`, or a `Module` moved in).
    /// A module read with its bodies left for later
    /// ([`super::read_lazily`]) has them read as the text needs them: the
    /// listing then holds the only reference to it.
    pub fn new(m: impl Into<Rc<Module>>) -> Self {
        let mut m = m.into();
        if m.unread_bodies() > 0 {
            Rc::make_mut(&mut m);
        }
        let mut w = Writer::new(m);
        w.number();
        Listing { w }
    }

    /// The module the text is made from (its bodies read so far).
    pub fn module(&self) -> &Module {
        &self.w.m
    }

    /// The lines before the first function: the header, named types,
    /// comdats and globals.
    pub fn head(&mut self, name: &str) -> Vec<TextLine> {
        self.w.head(name);
        self.w.head_types(0, usize::MAX);
        self.w.head_globals();
        std::mem::take(&mut self.w.out)
    }

    /// The head in parts: the header (module ID, source file name, data
    /// layout, triple).
    pub fn header(&mut self, name: &str) -> Vec<TextLine> {
        self.w.head(name);
        std::mem::take(&mut self.w.out)
    }

    /// Named types `[from, to)` as the text defines them (a blank line
    /// before the first). Their order is the order the bodies meet them
    /// in: finding the first few reads the first few bodies.
    pub fn types(&mut self, from: usize, to: usize) -> Vec<TextLine> {
        self.w.head_types(from, to);
        std::mem::take(&mut self.w.out)
    }

    /// How many named types the text can define at most (those of the
    /// type table; the text defines those the module uses).
    pub fn named_types_bound(&self) -> usize {
        let m = &self.w.m;
        m.types
            .iter()
            .filter(|t| matches!(t, Type::Struct { name: Some(_), .. }))
            .count()
    }

    /// Where named type `t` is in the text's order, finding them all.
    pub fn named_type_place(&mut self, t: TypeId) -> Option<usize> {
        self.w.types_to(usize::MAX);
        self.w.named.iter().position(|&x| x == t)
    }

    /// The head's comdats and globals.
    pub fn globals(&mut self) -> Vec<TextLine> {
        self.w.head_globals();
        std::mem::take(&mut self.w.out)
    }

    /// How many functions (definitions and declarations) the text holds.
    pub fn functions(&self) -> usize {
        self.w.order.len()
    }

    /// The name of function `k` (in text order), if it has one.
    pub fn function_name(&self, k: usize) -> Option<&str> {
        self.w
            .order
            .get(k)
            .and_then(|&f| self.w.m.functions[f].name.as_deref())
    }

    /// The index in the module's functions of function `k` (in text order).
    pub fn function_index(&self, k: usize) -> Option<usize> {
        self.w.order.get(k).copied()
    }

    /// The lines of function `k` (in text order), from the blank line
    /// before it. The functions before it are numbered first (their
    /// bodies read).
    pub fn function(&mut self, k: usize) -> Vec<TextLine> {
        if let Some(&f) = self.w.order.get(k) {
            self.w.number_to(k + 1);
            let m = Rc::clone(&self.w.m);
            self.w.line(TextLine::plain(""));
            self.w.function(&m.functions[f]);
        }
        std::mem::take(&mut self.w.out)
    }

    /// Reads every body and numbers everything (what the tail needs).
    pub fn number_all(&mut self) {
        self.w.number_all();
    }

    /// The lines after the last function.
    pub fn tail(&mut self) -> Vec<TextLine> {
        self.w.number_all();
        self.w.tail(None);
        std::mem::take(&mut self.w.out)
    }

    /// How many numbered metadata nodes the tail lists (every function
    /// numbered).
    pub fn metadata_nodes(&mut self) -> usize {
        self.w.number_all();
        self.w.md_order.len()
    }

    /// How many numbered nodes the module itself numbers: the tail's first
    /// (those of globals and named metadata), before any function's.
    pub fn module_nodes(&self) -> usize {
        self.w.module_nodes
    }

    /// The numbered nodes function `k` (in text order) numbers first:
    /// `[start, end)` in the tail's order (the functions before it numbered).
    pub fn function_nodes(&mut self, k: usize) -> (usize, usize) {
        self.w.number_to(k + 1);
        self.w.md_groups.get(k).copied().unwrap_or((0, 0))
    }

    /// The nodes function `k` numbered first, if it is numbered.
    pub fn numbered_nodes(&self, k: usize) -> Option<(usize, usize)> {
        self.w.md_groups.get(k).copied()
    }

    /// The function (in text order) that numbered tail node `slot`, `None`
    /// for the module's own (of those numbered so far).
    pub fn node_function(&self, slot: usize) -> Option<usize> {
        if slot < self.w.module_nodes {
            return None;
        }
        let k = self.w.md_groups.partition_point(|g| g.1 <= slot);
        (k < self.w.md_groups.len()).then_some(k)
    }

    /// The tail node `slot` (`!slot`), numbering functions in order until
    /// it is numbered: whether it is.
    pub fn number_node(&mut self, slot: usize) -> bool {
        while self.w.md_order.len() <= slot && self.w.numbered < self.w.order.len() {
            self.w.number_to(self.w.numbered + 1);
        }
        slot < self.w.md_order.len()
    }

    /// Numbers functions `[0, k)` (reading their bodies).
    pub fn number_to(&mut self, k: usize) {
        self.w.number_to(k);
    }

    /// The slot (`!N`) of metadata ID `id`, if it is numbered (so far).
    pub fn metadata_slot(&self, id: usize) -> Option<usize> {
        self.w
            .md_slots
            .get(id)
            .filter(|&&k| k != u32::MAX)
            .map(|&k| k as usize)
    }

    /// The tail's lines before the numbered metadata (attribute groups and
    /// named metadata), then those of numbered nodes `[from, to)`: the tail
    /// in parts, [`Listing::tail`]'s lines in order. The attribute groups
    /// need every function numbered.
    pub fn tail_head(&mut self) -> Vec<TextLine> {
        self.w.number_all();
        self.w.groups();
        std::mem::take(&mut self.w.out)
    }

    /// Numbered metadata nodes `[from, to)` (see [`Listing::tail_head`]):
    /// the module's own need no function numbered, a function's nodes need
    /// it numbered ([`Listing::function_nodes`]).
    pub fn tail_nodes(&mut self, from: usize, to: usize) -> Vec<TextLine> {
        if to > self.w.md_order.len() {
            self.w.number_all();
        }
        self.w.nodes(from, to, None);
        std::mem::take(&mut self.w.out)
    }

    /// [`Listing::tail`], handed to `sink` a few lines at a time.
    pub fn tail_to(&mut self, sink: &mut dyn FnMut(TextLine)) {
        self.w.number_all();
        self.w.tail(Some(&mut *sink));
        self.w.out.drain(..).for_each(sink);
    }
}

/// Whether a name can be written without quotes.
fn bare(name: &str) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && !b[0].is_ascii_digit()
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'))
}

/// Appends `s` escaped as LLVM writes strings: printable ASCII except `"`
/// and `\` as it is, everything else as `\XX`.
fn escape(out: &mut String, s: &[u8]) {
    for &c in s {
        if c == b'\\' {
            out.push_str("\\\\");
        } else if (0x20..0x7F).contains(&c) && c != b'"' {
            out.push(c as char);
        } else {
            let _ = write!(out, "\\{c:02X}");
        }
    }
}

/// `@name` / `%name`, quoted where needed.
fn llvm_name(prefix: char, name: &str) -> String {
    let mut s = String::new();
    s.push(prefix);
    if bare(name) {
        s.push_str(name);
    } else {
        s.push('"');
        escape(&mut s, name.as_bytes());
        s.push('"');
    }
    s
}

/// A floating-point constant as LLVM writes a double or float: `%e` with six
/// digits when that reads back exactly, else the double's bits in hex.
fn float_text(bits: u64, t: &Type) -> String {
    let v = match t {
        Type::Float => f64::from(f32::from_bits(bits as u32)),
        Type::Double => f64::from_bits(bits),
        Type::Half => return format!("0xH{:04X}", bits & 0xFFFF),
        Type::BFloat => return format!("0xR{:04X}", bits & 0xFFFF),
        _ => return format!("0x{bits:X}"),
    };
    if v.is_finite() {
        if let Some(text) = six_digits(v) {
            if text.parse::<f64>().ok() == Some(v) {
                return text;
            }
        }
    }
    format!("0x{:016X}", v.to_bits())
}

struct Writer {
    m: Rc<Module>,
    /// Lines made and not yet handed on.
    out: Vec<TextLine>,
    /// Metadata numbering: metadata ID → slot (`u32::MAX`: none).
    md_slots: Vec<u32>,
    md_order: Vec<u64>,
    /// Attribute groups: the text of a set → its number.
    attr_slots: Vec<String>,
    /// Numbers of unnamed global values.
    unnamed: HashMap<ValueId, usize>,
    /// How deep constant text is nested.
    depth: std::cell::Cell<u32>,
    /// Value numbers of the globals and functions, by index.
    global_ids: Vec<ValueId>,
    function_ids: HashMap<*const Function, ValueId>,
    /// Attribute groups by ID (index in the module's list).
    group_at: HashMap<u64, usize>,
    /// Metadata kind names by ID.
    kind_names: HashMap<u64, String>,
    /// The function attributes' text of each attribute list.
    fn_attr_text: std::cell::RefCell<HashMap<u64, String>>,
    /// Attribute set numbers by text.
    attr_index: HashMap<String, usize>,
    /// Attachments of global values without bodies, by value number.
    global_md: HashMap<ValueId, Vec<(u64, u64)>>,
    /// Each type's text.
    type_names: Vec<String>,
    /// Named struct types, in the order the text defines them.
    named: Vec<TypeId>,
    /// `memory(…)` of each encoding, for attributes upgraded to it.
    memory_attrs: Vec<Attr>,
    /// What is left of a type text's budget of parts.
    ty_budget: std::cell::Cell<u32>,
    /// What is left of a constant text's budget of parts.
    const_budget: std::cell::Cell<u32>,
    /// The constants whose text is being made.
    open_consts: std::cell::RefCell<HashSet<ValueId>>,
    /// Whether the text is LLVM 19's ([`Module::modern`], asked once).
    modern: bool,
    /// The nodes `!llvm.module.flags` lists.
    module_flags: HashSet<u64>,
    /// The functions' indices in text order.
    order: Vec<usize>,
    /// How many functions (in text order) are numbered.
    numbered: usize,
    /// How many nodes the module itself numbers (before any function's).
    module_nodes: usize,
    /// The nodes each numbered function numbers: `[start, end)` in `md_order`.
    md_groups: Vec<(usize, usize)>,
    /// The type finder's state (named types go to `named`).
    found: Found,
    /// How many metadata kinds `kind_names` was made from.
    kinds_seen: usize,
    /// Attribute text by (list, index).
    attr_text_at: std::cell::RefCell<HashMap<(u64, u64), String>>,
}

/// What a function's text needs: its body and the numbers of its values and blocks.
struct Frame<'b> {
    body: &'b Body,
    base: usize,
    slots: HashMap<ValueId, String>,
    blocks: Vec<String>,
}

const FN_INDEX: u64 = 0xFFFF_FFFF;

impl Writer {
    fn new(m: Rc<Module>) -> Self {
        let rc = Rc::clone(&m);
        let m: &Module = &rc;
        let mut w = Writer {
            m: Rc::clone(&rc),
            out: Vec::new(),
            md_slots: vec![u32::MAX; m.md.len()],
            md_order: Vec::new(),
            attr_slots: Vec::new(),
            unnamed: HashMap::default(),
            depth: std::cell::Cell::new(0),
            global_ids: {
                let mut ids = vec![0; m.globals.len()];
                for (v, x) in m.values.iter().enumerate() {
                    if let Value::Global(k) = x {
                        if let Some(slot) = ids.get_mut(*k) {
                            *slot = v;
                        }
                    }
                }
                ids
            },
            function_ids: m
                .values
                .iter()
                .enumerate()
                .filter_map(|(v, x)| match x {
                    Value::Function(k) => m.functions.get(*k).map(|f| (f as *const Function, v)),
                    _ => None,
                })
                .collect(),
            group_at: {
                let mut at = HashMap::default();
                for (k, (id, _, _)) in m.groups.iter().enumerate() {
                    at.entry(*id).or_insert(k);
                }
                at
            },
            kind_names: m.md_kinds.iter().map(|(k, n)| (*k, n.clone())).collect(),
            fn_attr_text: Default::default(),
            attr_index: HashMap::default(),
            global_md: {
                let mut at: HashMap<ValueId, Vec<(u64, u64)>> = HashMap::default();
                for (v, pairs, _) in &m.global_md {
                    at.entry(*v).or_default().extend(pairs.iter().copied());
                }
                at
            },
            type_names: Vec::new(),
            attr_text_at: Default::default(),
            named: Vec::new(),
            memory_attrs: (0..64).map(|v| Attr::Int(86, v)).collect(),
            ty_budget: std::cell::Cell::new(0),
            const_budget: std::cell::Cell::new(0),
            open_consts: Default::default(),
            modern: m.modern(),
            module_flags: m
                .named_md
                .iter()
                .filter(|(n, _, _)| n == "llvm.module.flags")
                .flat_map(|(_, ops, _)| ops.iter().copied())
                .collect(),
            order: Vec::new(),
            numbered: 0,
            module_nodes: 0,
            md_groups: Vec::new(),
            found: Found::default(),
            kinds_seen: m.md_kinds.len(),
        };
        w.type_names = (0..m.types.len()).map(|t| w.ty_text(t)).collect();
        w
    }

    fn line(&mut self, l: TextLine) {
        self.out.push(l);
    }

    /// Numbers what the text numbers: unnamed globals and functions,
    /// attribute groups, metadata, named types.
    fn number(&mut self) {
        let rc = Rc::clone(&self.m);
        let m: &Module = &rc;
        // Unnamed globals and functions are numbered in module order.
        let mut n = 0;
        for (v, val) in m.values.iter().enumerate() {
            let named = match val {
                Value::Global(i) => m.globals[*i].name.is_some(),
                Value::Function(i) => m.functions[*i].name.is_some(),
                Value::Alias(_) => true,
                _ => continue,
            };
            if !named {
                self.unnamed.insert(v, n);
                n += 1;
            }
        }
        self.order = self.order();
        self.number_module();
    }

    /// Reads function `f`'s body if it is left to read (and those before
    /// it in the stream), and takes in what reading it added.
    fn read_to(&mut self, f: usize) {
        if self.m.unread_bodies() == 0 {
            return;
        }
        // The listing holds the only reference (see `Listing::new`).
        if let Some(m) = Rc::get_mut(&mut self.m) {
            m.read_bodies_to(f);
        }
        let n = self.m.md.len();
        if self.md_slots.len() < n {
            self.md_slots.resize(n, u32::MAX);
        }
        if self.m.md_kinds.len() != self.kinds_seen {
            self.kinds_seen = self.m.md_kinds.len();
            self.kind_names = self
                .m
                .md_kinds
                .iter()
                .map(|(k, n)| (*k, n.clone()))
                .collect();
        }
    }

    /// Numbers what functions `[0, k)` (in text order) number: their
    /// attachments' metadata, their calls' attribute sets.
    fn number_to(&mut self, k: usize) {
        while self.numbered < k.min(self.order.len()) {
            let f = self.order[self.numbered];
            self.read_to(f);
            let start = self.md_order.len();
            self.number_function(f);
            self.md_groups.push((start, self.md_order.len()));
            self.numbered += 1;
        }
    }

    /// Numbers every function.
    fn number_all(&mut self) {
        self.number_to(self.order.len());
    }

    /// The header: module ID, source file name, data layout, triple.
    fn head(&mut self, name: &str) {
        let rc = Rc::clone(&self.m);
        let m: &Module = &rc;
        self.line(TextLine::plain(format!("; ModuleID = '{name}'")));
        let mut sf = String::from("source_filename = \"");
        escape(
            &mut sf,
            m.source_filename.as_deref().unwrap_or(name).as_bytes(),
        );
        sf.push('"');
        self.line(TextLine::at(sf, m.header_bits[2]));
        if let Some(dl) = &m.datalayout {
            let mut s = String::from("target datalayout = \"");
            let dl = if self.modern {
                upgrade_datalayout(dl, m.triple.as_deref())
            } else {
                dl.clone()
            };
            escape(&mut s, dl.as_bytes());
            s.push('"');
            self.line(TextLine::at(s, m.header_bits[1]));
        }
        if let Some(t) = &m.triple {
            let mut s = String::from("target triple = \"");
            escape(&mut s, t.as_bytes());
            s.push('"');
            self.line(TextLine::at(s, m.header_bits[0]));
        }
    }

    /// The lines of named types `[from, to)` in the order the text defines
    /// them (a blank line before the first), found as far as `to`.
    fn head_types(&mut self, from: usize, to: usize) {
        self.types_to(to);
        let to = to.min(self.named.len());
        if from == 0 && to > 0 {
            self.line(TextLine::plain(""));
        }
        for k in from..to {
            let t = self.named[k];
            let text = format!("{} = type {}", self.ty(t), self.struct_body(t));
            let mut l = TextLine::plain(text);
            l.bits = self.m.type_bits.get(t).cloned().unwrap_or_default();
            self.line(l);
        }
    }

    /// The head's comdats and globals.
    fn head_globals(&mut self) {
        let rc = Rc::clone(&self.m);
        let m: &Module = &rc;
        // Comdats of global objects: functions', then variables'.
        let mut comdats: Vec<u64> = Vec::new();
        let mut seen = HashSet::default();
        for c in m
            .functions
            .iter()
            .map(|f| f.comdat)
            .chain(m.globals.iter().map(|g| g.comdat))
        {
            if c > 0 && (c as usize) <= m.comdats.len() && seen.insert(c) {
                comdats.push(c);
            }
        }
        if !comdats.is_empty() {
            self.line(TextLine::plain(""));
            for (k, &c) in comdats.iter().enumerate() {
                if k > 0 {
                    self.line(TextLine::plain(""));
                }
                let (name, kind, bits) = &m.comdats[c as usize - 1];
                let kind = match kind {
                    2 => "exactmatch",
                    3 => "largest",
                    4 => "nodeduplicate",
                    5 => "samesize",
                    _ => "any",
                };
                let text = format!("{} = comdat {kind}", llvm_name('$', name));
                self.line(TextLine::at(text, *bits));
            }
        }
        if !m.globals.is_empty() {
            self.line(TextLine::plain(""));
            for k in 0..m.globals.len() {
                let l = self.global(k);
                self.line(l);
            }
        }
    }

    /// Attribute groups, named and numbered metadata; with `sink`, the
    /// metadata lines are handed to it a thousand or so at a time.
    fn tail(&mut self, sink: Option<&mut dyn FnMut(TextLine)>) {
        self.groups();
        let n = self.md_order.len();
        self.nodes(0, n, sink);
    }

    /// The tail's lines before the numbered metadata: attribute groups and
    /// named metadata.
    fn groups(&mut self) {
        let rc = Rc::clone(&self.m);
        let m: &Module = &rc;
        if !self.attr_slots.is_empty() {
            self.line(TextLine::plain(""));
            for (k, a) in self.attr_slots.clone().into_iter().enumerate() {
                let mut l = TextLine::plain(format!("attributes #{k} = {{ {a} }}"));
                // The groups of function attributes that read the same.
                for (id, idx, attrs) in &m.groups {
                    let refs: Vec<&Attr> = attrs.iter().collect();
                    if *idx == FN_INDEX && self.attrs_text(&refs) == a {
                        if let Some((_, bits)) = m.group_bits.iter().find(|(g, _)| g == id) {
                            l.bits.push(*bits);
                        }
                    }
                }
                self.line(l);
            }
        }
        if !m.named_md.is_empty() {
            self.line(TextLine::plain(""));
            for (name, ops, bits) in &m.named_md {
                // Named metadata lists node IDs (not IDs + 1).
                let refs: Vec<String> = ops.iter().map(|&o| self.md_ref(o + 1)).collect();
                let mut s = String::from("!");
                if bare(name) {
                    s.push_str(name);
                } else {
                    escape(&mut s, name.as_bytes());
                }
                let _ = write!(s, " = !{{{}}}", refs.join(", "));
                self.line(TextLine::at(s, *bits));
            }
        }
    }

    /// The lines of numbered metadata nodes `[from, to)` (a blank line
    /// before the first); with `sink`, handed to it a thousand or so at a
    /// time.
    fn nodes(&mut self, from: usize, to: usize, mut sink: Option<&mut dyn FnMut(TextLine)>) {
        let to = to.min(self.md_order.len());
        if from == 0 && to > 0 {
            self.line(TextLine::plain(""));
        }
        for k in from..to {
            let id = self.md_order[k];
            let l = self.md_node(k, id);
            self.line(l);
            if let Some(sink) = sink.as_mut() {
                if self.out.len() >= 1024 {
                    self.out.drain(..).for_each(&mut **sink);
                }
            }
        }
    }

    // ----- numbering ------------------------------------------------------

    /// Attribute sets and metadata numbered as LLVM's slot tracker numbers
    /// them: named metadata, then each function's attributes, then (as each
    /// function is printed) its attachments and its calls' attributes.
    fn number_module(&mut self) {
        let rc = Rc::clone(&self.m);
        let m: &Module = &rc;
        for k in 0..m.globals.len() {
            let v = self.global_ids.get(k).copied().unwrap_or(usize::MAX);
            for (_, node) in self.global_md.get(&v).cloned().unwrap_or_default() {
                self.md_slot(node);
            }
        }
        for (_, ops, _) in &m.named_md {
            for &o in ops {
                self.md_slot(o);
            }
        }
        for f in self.order.clone().into_iter().map(|k| &m.functions[k]) {
            let a = self.function_attrs(f);
            if !a.is_empty() {
                self.attr_slot(&a);
            }
        }
        self.module_nodes = self.md_order.len();
    }

    /// Numbers what function `f` numbers (its body read).
    fn number_function(&mut self, f: usize) {
        let rc = Rc::clone(&self.m);
        let m: &Module = &rc;
        {
            let f = &m.functions[f];
            for (_, node) in self.function_attachments(f) {
                self.md_slot(node);
            }
            if let Some(b) = &f.body {
                let mut recs = b.dbg.iter().peekable();
                for (k, i) in b.insts.iter().enumerate() {
                    while let Some(r) = recs.next_if(|r| r.inst == k) {
                        let at = |j: usize| r.ops.get(j).copied().unwrap_or(0);
                        let mut nodes = Vec::new();
                        if r.code == 65 {
                            nodes.push(at(1));
                        } else {
                            if r.code != 64 && self.is_tuple(at(3)) {
                                nodes.push(at(3));
                            }
                            nodes.push(at(1));
                            if r.code == 63 {
                                nodes.push(at(4));
                                if self.is_tuple(at(6)) {
                                    nodes.push(at(6));
                                }
                            }
                        }
                        nodes.push(at(0));
                        for n in nodes {
                            if n > 0 {
                                self.md_slot(n - 1);
                            }
                        }
                    }
                    // Metadata an intrinsic call takes as arguments.
                    if let Op::Call { callee, args, .. } = &i.op {
                        let intrinsic = match m.values.get(*callee) {
                            Some(Value::Function(k)) => m.functions[*k]
                                .name
                                .as_deref()
                                .is_some_and(|n| n.starts_with("llvm.")),
                            _ => false,
                        };
                        if intrinsic {
                            for &a in args.iter().filter(|&&a| a >= super::MD_ARG) {
                                let mut id = (a - super::MD_ARG) as u64;
                                if let Some((from, shift)) = b.md_shift {
                                    if id >= from {
                                        id += shift;
                                    }
                                }
                                if matches!(
                                    m.md.get(id as usize).map(|e| &e.md),
                                    Some(Md::Node { .. } | Md::Special { .. })
                                ) {
                                    self.md_slot(id);
                                }
                            }
                        }
                    }
                    for (_, node) in inst_attachments(i) {
                        self.md_slot(node);
                    }
                }
                for i in &b.insts {
                    if let Op::Call { attrs, .. } = i.op {
                        let a = self.fn_attrs(attrs);
                        if !a.is_empty() {
                            self.attr_slot(&a);
                        }
                    }
                }
            }
        }
    }

    /// `comdat` / `comdat($name)` after `sep` for comdat `c` (index + 1).
    fn comdat_text(&self, c: u64, name: Option<&str>, sep: &str) -> String {
        let Some((cn, _, _)) = c
            .checked_sub(1)
            .and_then(|k| self.m.comdats.get(k as usize))
        else {
            return String::new();
        };
        if Some(cn.as_str()) == name {
            format!("{sep}comdat")
        } else {
            format!("{sep}comdat({})", llvm_name('$', cn))
        }
    }

    /// Whether reference `op` (ID + 1) is a tuple node (`!{…}`).
    fn is_tuple(&self, op: u64) -> bool {
        op > 0
            && matches!(
                self.m.md.get(op as usize - 1).map(|e| &e.md),
                Some(Md::Node { .. })
            )
    }

    /// A function's own attachments (`!dbg` of a definition or declaration).
    fn function_attachments(&self, f: &Function) -> Vec<(u64, u64)> {
        let mut out = match &f.body {
            Some(b) if !b.fn_md.is_empty() => b.fn_md.clone(),
            _ => self
                .function_ids
                .get(&(f as *const Function))
                .and_then(|v| self.global_md.get(v))
                .cloned()
                .unwrap_or_default(),
        };
        out.sort_by_key(|&(k, _)| k);
        out
    }

    /// ` !dbg !12` / `, !dbg !12`: attachments as LLVM prints them after `sep`.
    fn attachments_text(&self, sep: &str, md: &[(u64, u64)]) -> String {
        let mut s = String::new();
        for &(k, node) in md {
            let name = self
                .kind_names
                .get(&k)
                .cloned()
                .unwrap_or_else(|| format!("kind{k}"));
            let _ = write!(s, "{sep}!{name} {}", self.md_ref(node + 1));
        }
        s
    }

    fn attr_slot(&mut self, a: &str) -> usize {
        match self.attr_index.get(a) {
            Some(&k) => k,
            None => {
                self.attr_slots.push(a.to_string());
                self.attr_index
                    .insert(a.to_string(), self.attr_slots.len() - 1);
                self.attr_slots.len() - 1
            }
        }
    }

    /// Numbers metadata node `id` and, depth first, the nodes it refers to
    /// (a node before its operands, operands in order; a stack, not
    /// recursion, so a deep chain cannot overflow the stack).
    fn md_slot(&mut self, id: u64) {
        let rc = Rc::clone(&self.m);
        let m: &Module = &rc;
        let mut stack = vec![id];
        while let Some(id) = stack.pop() {
            let Some(e) = m.md.get(id as usize) else {
                continue;
            };
            if !matches!(e.md, Md::Node { .. } | Md::Special { .. })
                || self.md_slots[id as usize] != u32::MAX
            {
                continue;
            }
            // Expressions and argument lists are printed where they are used.
            if let Md::Special { code, .. } = e.md {
                if code == di::EXPRESSION || code == di::ARG_LIST {
                    continue;
                }
            }
            self.md_slots[id as usize] = self.md_order.len() as u32;
            self.md_order.push(id);
            match &e.md {
                Md::Node { ops, .. } => {
                    stack.extend(ops.iter().rev().filter(|&&o| o > 0).map(|&o| o - 1));
                }
                Md::Special { code, ops } => {
                    let refs = di::node_operands(*code, ops);
                    stack.extend(refs.iter().rev().filter(|&&o| o > 0).map(|&o| o - 1));
                }
                _ => {}
            }
        }
    }

    /// Finds named struct types, in the order LLVM's type finder meets them
    /// (globals, then each function and its body, then named metadata),
    /// until `n` are found or all are; the bodies it looks in are read as it
    /// comes to them.
    fn types_to(&mut self, n: usize) {
        while !self.found.done && self.named.len() < n {
            // Every named type of the table found: there are no more.
            if self.found.started && self.named.len() == self.found.bound {
                self.found.done = true;
                break;
            }
            let k = self.found.functions;
            if self.found.started && k < self.order.len() {
                self.read_to(self.order[k]);
            }
            let rc = Rc::clone(&self.m);
            let m: &Module = &rc;
            let st = &mut self.found;
            if st.seen.len() < m.types.len() {
                st.seen.resize(m.types.len(), false);
            }
            if !st.started {
                st.bound = m
                    .types
                    .iter()
                    .filter(|t| matches!(t, Type::Struct { name: Some(_), .. }))
                    .count();
            }
            let mut f = Finder {
                m,
                seen: std::mem::take(&mut st.seen),
                consts: std::mem::take(&mut st.consts),
                mds: std::mem::take(&mut st.mds),
                out: std::mem::take(&mut self.named),
                modern: self.modern,
            };
            if !st.started {
                st.started = true;
                for g in &m.globals {
                    if let Some(p) = m.pointer_to(g.ty, g.space) {
                        f.ty(p);
                    } else {
                        f.ty(g.ty);
                    }
                    if let Some(i) = g.init {
                        f.value(i, None);
                    }
                }
            } else if k < self.order.len() {
                st.functions += 1;
                f.function(&m.functions[self.order[k]]);
            } else {
                st.done = true;
                for (_, ops, _) in &m.named_md {
                    for &o in ops {
                        f.md(o);
                    }
                }
            }
            st.seen = f.seen;
            st.consts = f.consts;
            st.mds = f.mds;
            self.named = f.out;
        }
    }

    // ----- types ------------------------------------------------------------

    /// The text of type `t` (made once per type).
    fn ty(&self, t: TypeId) -> &str {
        match self.type_names.get(t) {
            Some(n) => n,
            None => "<type>",
        }
    }

    /// The text of type `t`; a damaged table's type that holds itself is cut
    /// short (`<type>`) where it nests too deep.
    fn ty_text(&self, t: TypeId) -> String {
        self.bounded(&self.ty_budget, 20_000, "<type>", || self.ty_text_inner(t))
    }

    /// Text that nests (a type's, a constant's), made by `make` one level
    /// deeper: past 64 levels, or past `parts` pieces of one outermost text
    /// (counted in `budget`), `cut` instead. A damaged module's types and
    /// constants can hold themselves, or share parts so that the text grows
    /// without bound.
    fn bounded(
        &self,
        budget: &std::cell::Cell<u32>,
        parts: u32,
        cut: &str,
        make: impl FnOnce() -> String,
    ) -> String {
        let d = self.depth.get();
        if d == 0 {
            budget.set(parts);
        }
        let left = budget.get();
        if d > 64 || left == 0 {
            return cut.into();
        }
        budget.set(left - 1);
        self.depth.set(d + 1);
        let text = make();
        self.depth.set(d);
        text
    }

    fn ty_text_inner(&self, t: TypeId) -> String {
        let m = &*self.m;
        match m.ty(t) {
            Type::Void => "void".into(),
            Type::Half => "half".into(),
            Type::BFloat => "bfloat".into(),
            Type::Float => "float".into(),
            Type::Double => "double".into(),
            Type::X86Fp80 => "x86_fp80".into(),
            Type::Fp128 => "fp128".into(),
            Type::PpcFp128 => "ppc_fp128".into(),
            Type::Label => "label".into(),
            Type::Metadata => "metadata".into(),
            Type::X86Mmx => "x86_mmx".into(),
            Type::X86Amx => "x86_amx".into(),
            Type::Token => "token".into(),
            Type::Int(n) => format!("i{n}"),
            // LLVM 19 reads typed pointers as opaque ones.
            Type::Pointer(Some(_), a) if self.modern => {
                if *a == 0 {
                    "ptr".into()
                } else {
                    format!("ptr addrspace({a})")
                }
            }
            Type::Pointer(Some(p), a) => {
                if *a == 0 {
                    format!("{}*", self.ty_text(*p))
                } else {
                    format!("{} addrspace({a})*", self.ty_text(*p))
                }
            }
            Type::Pointer(None, a) => {
                if *a == 0 {
                    "ptr".into()
                } else {
                    format!("ptr addrspace({a})")
                }
            }
            Type::Function {
                vararg,
                ret,
                params,
            } => {
                let mut ps: Vec<String> = params.iter().map(|&p| self.ty_text(p)).collect();
                if *vararg {
                    ps.push("...".into());
                }
                format!("{} ({})", self.ty_text(*ret), ps.join(", "))
            }
            Type::Struct { name: Some(n), .. } => llvm_name('%', n),
            Type::Struct { name: None, .. } => self.struct_body(t),
            Type::Array(n, e) => format!("[{n} x {}]", self.ty_text(*e)),
            Type::Vector(n, e, scalable) => {
                if *scalable {
                    format!("<vscale x {n} x {}>", self.ty_text(*e))
                } else {
                    format!("<{n} x {}>", self.ty_text(*e))
                }
            }
            Type::Unknown(k) => format!("<type {k}>"),
        }
    }

    fn struct_body(&self, t: TypeId) -> String {
        match self.m.ty(t) {
            Type::Struct { opaque: true, .. } => "opaque".into(),
            Type::Struct { packed, elems, .. } => {
                let es: Vec<String> = elems.iter().map(|&e| self.ty_text(e)).collect();
                let inner = if es.is_empty() {
                    String::new()
                } else {
                    format!(" {} ", es.join(", "))
                };
                if *packed {
                    format!("<{{{inner}}}>")
                } else {
                    format!("{{{inner}}}")
                }
            }
            _ => self.ty_text(t),
        }
    }

    // ----- values -------------------------------------------------------------

    fn value_entry<'a>(&'a self, v: ValueId, fr: Option<&'a Frame>) -> Option<&'a Value> {
        if v < self.m.values.len() {
            self.m.values.get(v)
        } else {
            let fr = fr?;
            fr.body.values.get(v - fr.base)
        }
    }

    fn value_ty(&self, v: ValueId, fr: Option<&Frame>) -> Option<TypeId> {
        let m = &*self.m;
        Some(match self.value_entry(v, fr)? {
            Value::Global(i) => m.pointer_to(m.globals[*i].ty, m.globals[*i].space)?,
            Value::Function(i) => m.pointer_to(m.functions[*i].ty, m.functions[*i].space)?,
            Value::Const { ty, .. } | Value::Arg { ty, .. } | Value::Inst { ty, .. } => *ty,
            _ => return None,
        })
    }

    /// A value as an operand: its name, number or constant text.
    fn value(&self, v: ValueId, fr: Option<&Frame>) -> String {
        let m = &*self.m;
        match self.value_entry(v, fr) {
            Some(Value::Global(i)) => match &m.globals[*i].name {
                Some(n) => llvm_name('@', n),
                None => format!("@{}", self.unnamed.get(&v).copied().unwrap_or(0)),
            },
            Some(Value::Function(i)) => match &m.functions[*i].name {
                Some(n) => match upgraded(m, &m.functions[*i]) {
                    Some(u) => llvm_name('@', &u.name),
                    None => llvm_name('@', n),
                },
                None => format!("@{}", self.unnamed.get(&v).copied().unwrap_or(0)),
            },
            // Constants nest a few levels; deeper, a damaged module's
            // constant may hold itself.
            Some(Value::Const { ty, c, .. }) if self.depth.get() < 8 => self.constant(*ty, c, fr),
            Some(Value::Const { ty, c, .. }) => {
                if !self.open_consts.borrow_mut().insert(v) {
                    return "<constant holds itself>".into();
                }
                let text = self.constant(*ty, c, fr);
                self.open_consts.borrow_mut().remove(&v);
                text
            }
            Some(Value::Arg { .. }) | Some(Value::Inst { .. }) => fr
                .and_then(|f| f.slots.get(&v).cloned())
                .unwrap_or_else(|| "%<?>".into()),
            _ => format!("<value {v}>"),
        }
    }

    /// `type value`.
    fn typed(&self, v: ValueId, fr: Option<&Frame>) -> String {
        let t = self.value_ty(v, fr).map_or("?", |t| self.ty(t));
        format!("{t} {}", self.value(v, fr))
    }

    /// The value a constant expression is when LLVM 19 reads it with opaque
    /// pointers: a bitcast to the type it has, and a getelementptr of zero
    /// indices whose result has its base's type, are that operand.
    fn folded(&self, ty: TypeId, c: &Const, fr: Option<&Frame>) -> Option<ValueId> {
        if !self.modern {
            return None;
        }
        match c {
            Const::Cast { op: 11, val, .. } => {
                let from = self.value_ty(*val, fr)?;
                (self.ty(from) == self.ty(ty)).then_some(*val)
            }
            Const::Gep { ops, .. } => {
                let (&(bt, base), idx) = ops.split_first()?;
                (!idx.is_empty()
                    && idx.iter().all(|&(_, v)| self.is_zero(v, fr))
                    && self.ty(bt) == self.ty(ty))
                .then_some(base)
            }
            _ => None,
        }
    }

    fn is_zero(&self, v: ValueId, fr: Option<&Frame>) -> bool {
        match self.value_entry(v, fr) {
            Some(Value::Const { c, ty, .. }) => match c {
                Const::Null => true,
                Const::Int(0) => true,
                Const::Float(0) => true,
                Const::Aggregate(es) => {
                    let d = self.depth.get();
                    if d > 64 {
                        return false;
                    }
                    self.depth.set(d + 1);
                    let z = es.iter().all(|&e| self.is_zero(e, fr));
                    self.depth.set(d);
                    z
                }
                Const::Data(d) => {
                    d.iter().all(|&x| x == 0)
                        && !matches!(self.m.ty(*ty), Type::Float | Type::Double)
                }
                _ => false,
            },
            _ => false,
        }
    }

    fn is_undef(&self, v: ValueId, fr: Option<&Frame>) -> bool {
        matches!(
            self.value_entry(v, fr),
            Some(Value::Const {
                c: Const::Undef,
                ..
            })
        )
    }

    /// A constant's text. Constants nest (a hostile module can make one hold
    /// itself): past 64 levels the text says so instead of going deeper.
    fn constant(&self, ty: TypeId, c: &Const, fr: Option<&Frame>) -> String {
        self.bounded(
            &self.const_budget,
            5_000_000,
            "<constant nested too deep>",
            || self.constant_inner(ty, c, fr),
        )
    }

    fn constant_inner(&self, ty: TypeId, c: &Const, fr: Option<&Frame>) -> String {
        let m = &*self.m;
        let t = m.ty(ty);
        if let Some(base) = self.folded(ty, c, fr) {
            return self.value(base, fr);
        }
        match c {
            Const::Null => match t {
                Type::Pointer(..) => "null".into(),
                Type::Int(1) => "false".into(),
                Type::Int(_) => "0".into(),
                Type::Half | Type::BFloat | Type::Float | Type::Double => float_text(0, t),
                Type::Token => "none".into(),
                _ => "zeroinitializer".into(),
            },
            Const::Undef => "undef".into(),
            Const::Poison => "poison".into(),
            Const::Int(v) => match t {
                Type::Int(1) => if *v != 0 { "true" } else { "false" }.into(),
                Type::Int(w) if *w > 0 && *w < 64 => {
                    // Sign-extend from the type's width.
                    let sh = 64 - w;
                    ((*v << sh) >> sh).to_string()
                }
                _ => v.to_string(),
            },
            Const::WideInt(words) => match t {
                Type::Int(w) if *w > 0 && *w <= 128 => {
                    // 64-bit words, least significant first, each sign-rotated.
                    let mut v: u128 = 0;
                    for (k, &x) in words.iter().take(2).enumerate() {
                        v |= u128::from(super::signed(x) as u64) << (64 * k);
                    }
                    let sh = 128 - w;
                    (((v << sh) as i128) >> sh).to_string()
                }
                _ => "<wide integer>".into(),
            },
            Const::Float(bits) => float_text(*bits, t),
            Const::Aggregate(es) => {
                if !es.is_empty() && es.iter().all(|&e| self.is_zero(e, fr)) {
                    return "zeroinitializer".into();
                }
                if !es.is_empty() && es.iter().all(|&e| self.is_undef(e, fr)) {
                    return "undef".into();
                }
                let items: Vec<String> = es.iter().map(|&e| self.typed(e, fr)).collect();
                match t {
                    Type::Struct { packed, .. } => {
                        if items.is_empty() {
                            return "zeroinitializer".into();
                        }
                        if *packed {
                            format!("<{{ {} }}>", items.join(", "))
                        } else {
                            format!("{{ {} }}", items.join(", "))
                        }
                    }
                    Type::Vector(..) => format!("<{}>", items.join(", ")),
                    _ => {
                        if let Type::Array(_, e) = t {
                            if matches!(m.ty(*e), Type::Int(8)) {
                                let bytes: Vec<u64> = es
                                    .iter()
                                    .map(|&x| match self.value_entry(x, fr) {
                                        Some(Value::Const {
                                            c: Const::Int(k), ..
                                        }) => *k as u64,
                                        _ => 0,
                                    })
                                    .collect();
                                return self.cstring(&bytes);
                            }
                        }
                        format!("[{}]", items.join(", "))
                    }
                }
            }
            Const::Data(d) | Const::CString(d) => {
                let mut d = d.clone();
                if matches!(c, Const::CString(_)) {
                    d.push(0);
                }
                let elem = match t {
                    Type::Array(_, e) | Type::Vector(_, e, _) => *e,
                    _ => ty,
                };
                if matches!(t, Type::Array(..)) && matches!(m.ty(elem), Type::Int(8)) {
                    return self.cstring(&d);
                }
                if d.iter().all(|&x| x == 0) {
                    return "zeroinitializer".into();
                }
                let et = self.ty(elem);
                let items: Vec<String> = d
                    .iter()
                    .map(|&x| {
                        let v = match m.ty(elem) {
                            Type::Half | Type::BFloat | Type::Float | Type::Double => {
                                float_text(x, m.ty(elem))
                            }
                            Type::Int(w) if *w > 0 && *w < 64 => {
                                let sh = 64 - w;
                                (((x as i64) << sh) >> sh).to_string()
                            }
                            _ => (x as i64).to_string(),
                        };
                        format!("{et} {v}")
                    })
                    .collect();
                if matches!(t, Type::Vector(..)) {
                    format!("<{}>", items.join(", "))
                } else {
                    format!("[{}]", items.join(", "))
                }
            }
            Const::Cast { op, val, .. } => format!(
                "{} ({} to {})",
                cast_name(*op),
                self.typed(*val, fr),
                self.ty(ty)
            ),
            Const::Gep {
                source,
                inbounds,
                flags,
                inrange,
                inrange_index,
                ops,
            } => {
                let src = source.or_else(|| ops.first().and_then(|&(t, _)| m.pointee(t)));
                let mut s = String::from("getelementptr ");
                if *inbounds {
                    s.push_str("inbounds ");
                } else if flags & 2 != 0 {
                    s.push_str("nusw ");
                }
                if flags & 4 != 0 {
                    s.push_str("nuw ");
                }
                if let Some((lo, hi)) = inrange {
                    let _ = write!(s, "inrange({lo}, {hi}) ");
                }
                let _ = write!(s, "({}", src.map_or("?", |t| self.ty(t)));
                for (k, &(t, v)) in ops.iter().enumerate() {
                    // The marked index counts from the first index (after the base).
                    let mark = if !self.modern && inrange_index.is_some_and(|x| x + 1 == k as u64) {
                        "inrange "
                    } else {
                        ""
                    };
                    let _ = write!(s, ", {mark}{} {}", self.ty(t), self.value(v, fr));
                }
                s.push(')');
                s
            }
            Const::Binop { op, lhs, rhs, .. } => {
                let fp = self.is_fp(ty);
                format!(
                    "{} ({}, {})",
                    binop_name(*op, fp),
                    self.typed(*lhs, fr),
                    self.typed(*rhs, fr)
                )
            }
            Const::Select(c2, a, b) => format!(
                "select ({}, {}, {})",
                self.typed(*c2, fr),
                self.typed(*a, fr),
                self.typed(*b, fr)
            ),
            Const::Cmp { pred, lhs, rhs } => format!(
                "{} {} ({}, {})",
                if *pred >= 32 { "icmp" } else { "fcmp" },
                pred_name(*pred),
                self.typed(*lhs, fr),
                self.typed(*rhs, fr)
            ),
            Const::Other(k) => format!("<constant {k}>"),
        }
    }

    fn cstring(&self, bytes: &[u64]) -> String {
        let b: Vec<u8> = bytes.iter().map(|&x| x as u8).collect();
        let mut s = String::from("c\"");
        escape(&mut s, &b);
        s.push('"');
        s
    }

    fn is_fp(&self, t: TypeId) -> bool {
        match self.m.ty(t) {
            Type::Half
            | Type::BFloat
            | Type::Float
            | Type::Double
            | Type::X86Fp80
            | Type::Fp128
            | Type::PpcFp128 => true,
            Type::Vector(_, e, _) => self.is_fp(*e),
            _ => false,
        }
    }

    // ----- attributes -------------------------------------------------------

    /// The attributes of list `list` (1-based; 0: none) at parameter index `idx`.
    fn attrs_at(&self, list: u64, idx: u64) -> Vec<&Attr> {
        let m = &*self.m;
        let Some(groups) = list
            .checked_sub(1)
            .and_then(|k| m.attr_lists.get(k as usize))
        else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for g in groups {
            if let Some((_, i, attrs)) = self.group_at.get(g).and_then(|&k| m.groups.get(k)) {
                if *i == idx {
                    out.extend(attrs.iter());
                }
            }
        }
        // LLVM 19 reads the memory attributes before `memory(…)` as one.
        if idx == FN_INDEX && self.modern {
            let mut effects = 63u64;
            let mut old = false;
            out.retain(|a| {
                let mask = match a {
                    Attr::Enum(20) => 0,
                    Attr::Enum(21) => 21,
                    Attr::Enum(52) => 42,
                    Attr::Enum(45) => 3,
                    Attr::Enum(49) => 12,
                    Attr::Enum(50) => 15,
                    _ => return true,
                };
                effects &= mask;
                old = true;
                false
            });
            if old {
                out.push(&self.memory_attrs[effects as usize]);
            }
        }
        out
    }

    fn attrs_text(&self, attrs: &[&Attr]) -> String {
        let modern = self.modern;
        let order = |k: u64| order(k, modern);
        let mut keyed: Vec<(u32, String)> = attrs
            .iter()
            .map(|a| match a {
                Attr::Enum(k) => (order(*k), attr_name(*k).to_string()),
                Attr::Int(86, v) => (order(86), memory_text(*v)),
                Attr::Int(k, v) => {
                    let n = attr_name(*k);
                    let t = match *k {
                        1 => format!("align {v}"),
                        25 => format!("alignstack({v})"),
                        // allocsize: the element size argument (high 32 bits)
                        // and the count argument (low; all ones: none).
                        51 => {
                            let (size, count) = (v >> 32, v & 0xFFFF_FFFF);
                            if count == 0xFFFF_FFFF {
                                format!("allocsize({size})")
                            } else {
                                format!("allocsize({size}, {count})")
                            }
                        }
                        74 => format!("vscale_range({},{})", v >> 32, v & 0xFFFF_FFFF),
                        82 => {
                            let names = [
                                "alloc",
                                "realloc",
                                "free",
                                "uninitialized",
                                "zeroed",
                                "aligned",
                            ];
                            let set: Vec<&str> = names
                                .iter()
                                .enumerate()
                                .filter(|(k, _)| v & (1 << k) != 0)
                                .map(|(_, n)| *n)
                                .collect();
                            format!("allockind(\"{}\")", set.join(","))
                        }
                        // uwtable: 2 asynchronous (plain), 1 synchronous.
                        33 => match v {
                            1 => "uwtable(sync)".into(),
                            _ => "uwtable".into(),
                        },
                        _ => format!("{n}({v})"),
                    };
                    (order(*k), t)
                }
                Attr::Str(key, val) => {
                    let mut s = String::from("\"");
                    escape(&mut s, key.as_bytes());
                    s.push('"');
                    if let Some(v) = val {
                        s.push_str("=\"");
                        escape(&mut s, v.as_bytes());
                        s.push('"');
                    }
                    (u32::MAX, s)
                }
                Attr::Range(k, w, lo, hi) => (
                    order(*k),
                    format!(
                        "{}(i{w} {}, {})",
                        attr_name(*k),
                        int_text(*lo, *w),
                        int_text(*hi, *w)
                    ),
                ),
                Attr::Type(k, t) => (
                    order(*k),
                    match t {
                        Some(t) => format!("{}({})", attr_name(*k), self.ty(*t)),
                        None => attr_name(*k).to_string(),
                    },
                ),
            })
            .collect();
        keyed.sort();
        keyed
            .into_iter()
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A function's own attributes as text (an upgraded intrinsic's are
    /// the intrinsic's).
    fn function_attrs(&self, f: &Function) -> String {
        match upgraded(&self.m, f) {
            Some(u) => u.fn_attrs.to_string(),
            None => {
                let a = self.own_attrs_at(f, FN_INDEX);
                self.attrs_text(&a)
            }
        }
    }

    /// The functions in the order LLVM holds them after reading: intrinsics
    /// the reader renames move to the end.
    fn order(&self) -> Vec<usize> {
        let m = &*self.m;
        // LLVM 19 turns debug intrinsics' calls into records and drops them.
        let (mut keep, moved): (Vec<usize>, Vec<usize>) = (0..m.functions.len())
            .filter(|&k| self.dbg_intrinsic(&m.functions[k]).is_none())
            .partition(|&k| upgraded(m, &m.functions[k]).is_none());
        keep.extend(moved);
        keep
    }

    /// A function's own attribute list entries at `idx`: an intrinsic's
    /// (`llvm.*`) without `mustprogress`, which LLVM's reader replaces by
    /// the intrinsic's own attributes and which no intrinsic has.
    fn own_attrs_at(&self, f: &Function, idx: u64) -> Vec<&Attr> {
        let mut a = self.attrs_at(f.attrs, idx);
        if f.name.as_deref().is_some_and(|n| n.starts_with("llvm.")) {
            a.retain(|x| !matches!(x, Attr::Enum(70)));
        }
        // An intrinsic LLVM declares without the default nofree and nosync.
        if f.name
            .as_deref()
            .is_some_and(|n| n.starts_with("llvm.eh.typeid.for"))
        {
            a.retain(|x| !matches!(x, Attr::Enum(62) | Attr::Enum(63)));
        }
        a
    }

    /// The text of attribute list `list`'s entries at `idx` (made once per
    /// list and index).
    fn attrs_text_at(&self, list: u64, idx: u64) -> String {
        if let Some(t) = self.attr_text_at.borrow().get(&(list, idx)) {
            return t.clone();
        }
        let t = self.attrs_text(&self.attrs_at(list, idx));
        self.attr_text_at
            .borrow_mut()
            .insert((list, idx), t.clone());
        t
    }

    fn fn_attrs(&self, list: u64) -> String {
        if let Some(t) = self.fn_attr_text.borrow().get(&list) {
            return t.clone();
        }
        let a = self.attrs_at(list, FN_INDEX);
        let t = self.attrs_text(&a);
        self.fn_attr_text.borrow_mut().insert(list, t.clone());
        t
    }

    // ----- globals and functions ------------------------------------------

    fn global(&self, k: usize) -> TextLine {
        let m = &*self.m;
        let g = &m.globals[k];
        let v = self.global_ids.get(k).copied().unwrap_or(0);
        let mut s = format!("{} = ", self.value(v, None));
        let link = linkage(g.linkage);
        if g.init.is_none() && link.is_empty() {
            s.push_str("external ");
        } else {
            s.push_str(link);
        }
        // Local linkage and hidden or protected visibility imply dso_local.
        if g.dso_local && !matches!(g.linkage, 3 | 9 | 13 | 14) && g.visibility == 0 {
            s.push_str("dso_local ");
        }
        s.push_str(visibility(g.visibility));
        match g.tls {
            1 => s.push_str("thread_local "),
            2 => s.push_str("thread_local(localdynamic) "),
            3 => s.push_str("thread_local(initialexec) "),
            4 => s.push_str("thread_local(localexec) "),
            _ => {}
        }
        match g.unnamed_addr {
            1 => s.push_str("unnamed_addr "),
            2 => s.push_str("local_unnamed_addr "),
            _ => {}
        }
        if g.space != 0 {
            let _ = write!(s, "addrspace({}) ", g.space);
        }
        if g.externally_initialized {
            s.push_str("externally_initialized ");
        }
        s.push_str(if g.constant { "constant " } else { "global " });
        s.push_str(self.ty(g.ty));
        if let Some(i) = g.init {
            let _ = write!(s, " {}", self.value(i, None));
        }
        s.push_str(&self.comdat_text(g.comdat, g.name.as_deref(), ", "));
        if g.align > 0 {
            let _ = write!(s, ", align {}", super::log2_align(g.align));
        }
        if let Some(md) = self.global_md.get(&v) {
            let mut md = md.clone();
            md.sort_by_key(|&(k, _)| k);
            s.push_str(&self.attachments_text(", ", &md));
        }
        TextLine::at(s, g.bits)
    }

    fn function(&mut self, f: &Function) {
        let rc = Rc::clone(&self.m);
        let m: &Module = &rc;
        let fa = self.function_attrs(f);
        let up = upgraded(m, f);
        let plain: Vec<&Attr> = self
            .own_attrs_at(f, FN_INDEX)
            .into_iter()
            .filter(|a| !matches!(a, Attr::Str(..)))
            .collect();
        // The comment points at the function's attribute group records.
        let mut group_bits = Vec::new();
        if let Some(groups) = f
            .attrs
            .checked_sub(1)
            .and_then(|k| m.attr_lists.get(k as usize))
        {
            for g in groups {
                let is_fn = m
                    .groups
                    .iter()
                    .any(|(id, idx, _)| id == g && *idx == FN_INDEX);
                if let Some((_, bits)) = m.group_bits.iter().find(|(id, _)| id == g) {
                    if is_fn {
                        group_bits.push(*bits);
                    }
                }
            }
        }
        if let Some(u) = &up {
            self.line(TextLine::plain(format!("; Function Attrs: {}", u.fn_attrs)));
        } else if !plain.is_empty() {
            let text = self.attrs_text(&plain);
            let mut l = TextLine::plain(format!("; Function Attrs: {text}"));
            l.bits = group_bits;
            self.line(l);
        }
        let (ret, params, vararg) = match m.ty(f.ty) {
            Type::Function {
                ret,
                params,
                vararg,
            } => (*ret, params.clone(), *vararg),
            _ => (0, Vec::new(), false),
        };
        let define = f.body.is_some();
        let fmd = self.function_attachments(f);
        let mut s = String::from(if define { "define " } else { "declare" });
        if !define {
            s.push_str(&self.attachments_text(" ", &fmd));
            s.push(' ');
        }
        let link = linkage(f.linkage);
        s.push_str(link);
        if f.dso_local && !matches!(f.linkage, 3 | 9 | 13 | 14) && f.visibility == 0 {
            s.push_str("dso_local ");
        }
        s.push_str(visibility(f.visibility));
        s.push_str(cc_name(f.cc));
        let ra = self.attrs_text(&self.attrs_at(f.attrs, 0));
        if !ra.is_empty() {
            s.push_str(&ra);
            s.push(' ');
        }
        let _ = write!(s, "{} ", self.ty(ret));
        let me = self
            .function_ids
            .get(&(f as *const Function))
            .copied()
            .unwrap_or(0);
        s.push_str(&self.value(me, None));
        let frame = f.body.as_ref().map(|b| self.frame(b, &params));
        let mut ps = Vec::new();
        for (k, &p) in params.iter().enumerate() {
            let mut t = self.ty(p).to_string();
            let pa = match &up {
                Some(u) => u.params.get(k).copied().unwrap_or("").to_string(),
                None => self.attrs_text(&self.attrs_at(f.attrs, k as u64 + 1)),
            };
            if !pa.is_empty() {
                t.push(' ');
                t.push_str(&pa);
            }
            if let Some(fr) = &frame {
                let v = fr.base + k;
                if let Some(n) = fr.slots.get(&v) {
                    t.push(' ');
                    t.push_str(n);
                }
            }
            ps.push(t);
        }
        if vararg {
            ps.push("...".into());
        }
        let _ = write!(s, "({})", ps.join(", "));
        match f.unnamed_addr {
            1 => s.push_str(" unnamed_addr"),
            2 => s.push_str(" local_unnamed_addr"),
            _ => {}
        }
        if !fa.is_empty() {
            let k = self.attr_slot(&fa);
            let _ = write!(s, " #{k}");
        }
        s.push_str(&self.comdat_text(f.comdat, f.name.as_deref(), " "));
        if f.align > 0 {
            let _ = write!(s, " align {}", super::log2_align(f.align));
        }
        if f.personality > 0 {
            let _ = write!(
                s,
                " personality {}",
                self.typed(f.personality as usize - 1, None)
            );
        }
        match frame {
            None => self.line(TextLine::at(s, f.bits)),
            Some(fr) => {
                s.push_str(&self.attachments_text(" ", &fmd));
                s.push_str(" {");
                let mut head = TextLine::at(s, f.bits);
                if let Some(b) = &f.body {
                    head.bits.extend(b.bits.iter().copied());
                }
                self.line(head);
                self.body(&fr);
                self.line(TextLine::plain("}"));
            }
        }
    }

    /// Names and numbers of a body's arguments, blocks and instructions.
    fn frame<'b>(&self, b: &'b Body, params: &[TypeId]) -> Frame<'b> {
        let base = self.m.values.len();
        let mut slots = HashMap::default();
        let names: HashMap<usize, &String> = b.names.iter().map(|(v, n)| (*v, n)).collect();
        let bnames: HashMap<usize, &String> = b.block_names.iter().map(|(v, n)| (*v, n)).collect();
        let mut n = 0usize;
        for k in 0..params.len() {
            let v = base + k;
            match names.get(&v) {
                Some(name) => {
                    slots.insert(v, llvm_name('%', name));
                }
                None => {
                    slots.insert(v, format!("%{n}"));
                    n += 1;
                }
            }
        }
        let mut blocks = vec![String::new(); block_count(b)];
        let mut at = 0;
        for (bb, label) in blocks.iter_mut().enumerate() {
            match bnames.get(&bb) {
                Some(name) => *label = llvm_name('%', name),
                None => {
                    *label = format!("%{n}");
                    n += 1;
                }
            }
            while at < b.insts.len() && b.insts[at].block == bb {
                if let Some(v) = b.insts[at].value {
                    match names.get(&v) {
                        Some(name) => {
                            slots.insert(v, llvm_name('%', name));
                        }
                        None => {
                            slots.insert(v, format!("%{n}"));
                            n += 1;
                        }
                    }
                }
                at += 1;
            }
        }
        Frame {
            body: b,
            base,
            slots,
            blocks,
        }
    }

    fn body(&mut self, fr: &Frame) {
        let b = fr.body;
        // Predecessors: the terminators naming each block, latest first.
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); block_count(b)];
        for i in &b.insts {
            for t in targets(&i.op) {
                if let Some(p) = preds.get_mut(t) {
                    p.push(i.block);
                }
            }
        }
        for p in &mut preds {
            p.reverse();
        }
        // A use-list order the module keeps: use k moves to position perm[k].
        for (bb, perm) in &b.bb_uselists {
            if let Some(p) = preds.get_mut(*bb) {
                if p.len() == perm.len() {
                    let mut keyed: Vec<(u64, usize)> =
                        perm.iter().copied().zip(p.iter().copied()).collect();
                    keyed.sort_by_key(|&(k, _)| k);
                    *p = keyed.into_iter().map(|(_, b)| b).collect();
                }
            }
        }
        let mut cur = usize::MAX;
        let mut recs = b.dbg.iter().peekable();
        for (k, i) in b.insts.iter().enumerate() {
            if i.block != cur {
                cur = i.block;
                if cur > 0 {
                    self.line(TextLine::plain(""));
                    let label = fr.blocks.get(cur).map_or_else(
                        || format!("<block {cur}>"),
                        |b| b.trim_start_matches('%').to_string(),
                    );
                    let mut s = format!("{label}:");
                    let none = Vec::new();
                    let these = preds.get(cur).unwrap_or(&none);
                    if !these.is_empty() {
                        while s.len() < 50 {
                            s.push(' ');
                        }
                        let ps: Vec<&str> = these
                            .iter()
                            .map(|&p| fr.blocks.get(p).map_or("%?", String::as_str))
                            .collect();
                        let _ = write!(s, "; preds = {}", ps.join(", "));
                    } else {
                        while s.len() < 50 {
                            s.push(' ');
                        }
                        s.push_str("; No predecessors!");
                    }
                    self.line(TextLine::plain(s));
                }
            }
            while let Some(r) = recs.next_if(|r| r.inst == k) {
                let text = self.dbg_record(r, fr);
                self.line(TextLine::at(text, r.bits));
            }
            let text = match self.dbg_call(i, fr) {
                Some(t) => t,
                None => self.inst(i, fr),
            };
            let mut line = TextLine::at(text, i.bits);
            if let Some(b) = i.bits_loc {
                line.bits.push(b);
            }
            // The records of the constants it names.
            for v in operands(&i.op) {
                if let Some(Value::Const { bits, .. }) = self.value_entry(v, Some(fr)) {
                    if bits.1 > bits.0 && !line.bits.contains(bits) {
                        line.bits.push(*bits);
                    }
                }
            }
            self.line(line);
        }
        if let Some((at, e)) = &b.error {
            self.line(TextLine::plain(format!(
                "  ; hexlens: the body stops at bit {at}: {e}"
            )));
        }
    }

    fn inst(&self, i: &Inst, fr: &Frame) -> String {
        let m = &*self.m;
        let mut s = String::with_capacity(128);
        s.push_str("  ");
        if let Some(v) = i.value {
            let _ = write!(s, "{} = ", fr.slots.get(&v).map_or("%?", String::as_str));
        }
        let fr2 = Some(fr);
        let blk = |k: usize| {
            fr.blocks
                .get(k)
                .cloned()
                .unwrap_or_else(|| format!("%<block {k}>"))
        };
        match &i.op {
            Op::Ret(None) => s.push_str("ret void"),
            Op::Ret(Some(v)) => {
                let _ = write!(s, "ret {}", self.typed(*v, fr2));
            }
            Op::Br(t) => {
                let _ = write!(s, "br label {}", blk(*t));
            }
            Op::CondBr(c, t, f) => {
                let _ = write!(
                    s,
                    "br {}, label {}, label {}",
                    self.typed(*c, fr2),
                    blk(*t),
                    blk(*f)
                );
            }
            Op::Switch {
                cond,
                default,
                cases,
            } => {
                let _ = write!(
                    s,
                    "switch {}, label {} [",
                    self.typed(*cond, fr2),
                    blk(*default)
                );
                for (v, t) in cases {
                    let _ = write!(s, "\n    {}, label {}", self.typed(*v, fr2), blk(*t));
                }
                s.push_str("\n  ]");
            }
            Op::Unreachable => s.push_str("unreachable"),
            Op::Binop {
                op,
                lhs,
                rhs,
                flags,
            } => {
                let t = self.value_ty(*lhs, fr2).unwrap_or(0);
                let fp = self.is_fp(t);
                s.push_str(binop_name(*op, fp));
                if fp {
                    s.push_str(&fmf_text(*flags));
                } else {
                    match op {
                        0 | 1 | 2 | 7 => {
                            if flags & 1 != 0 {
                                s.push_str(" nuw");
                            }
                            if flags & 2 != 0 {
                                s.push_str(" nsw");
                            }
                        }
                        3 | 4 | 8 | 9 if flags & 1 != 0 => s.push_str(" exact"),
                        11 if flags & 1 != 0 => s.push_str(" disjoint"),
                        _ => {}
                    }
                }
                let _ = write!(s, " {}, {}", self.typed(*lhs, fr2), self.value(*rhs, fr2));
            }
            Op::Unop { val, flags, .. } => {
                let _ = write!(s, "fneg{} {}", fmf_text(*flags), self.typed(*val, fr2));
            }
            Op::Cast { op, val, flags } => {
                let mut f = String::new();
                match op {
                    // zext, uitofp: nneg.
                    1 | 5 if flags & 1 != 0 => f.push_str(" nneg"),
                    // trunc: nuw, nsw.
                    0 => {
                        if flags & 1 != 0 {
                            f.push_str(" nuw");
                        }
                        if flags & 2 != 0 {
                            f.push_str(" nsw");
                        }
                    }
                    // Casts to and from floating point carry fast-math flags.
                    7 | 8 => f.push_str(&fmf_text(*flags)),
                    _ => {}
                }
                let _ = write!(
                    s,
                    "{}{f} {} to {}",
                    cast_name(*op),
                    self.typed(*val, fr2),
                    self.ty(i.ty)
                );
            }
            Op::Cmp {
                pred,
                lhs,
                rhs,
                flags,
            } => {
                let int = *pred >= 32;
                let _ = write!(
                    s,
                    "{}{} {} {}, {}",
                    if int { "icmp" } else { "fcmp" },
                    if int { String::new() } else { fmf_text(*flags) },
                    pred_name(*pred),
                    self.typed(*lhs, fr2),
                    self.value(*rhs, fr2)
                );
            }
            Op::Select(c, a, b) => {
                let _ = write!(
                    s,
                    "select {}, {}, {}",
                    self.typed(*c, fr2),
                    self.typed(*a, fr2),
                    self.typed(*b, fr2)
                );
            }
            Op::ExtractValue(v, idx) => {
                let _ = write!(s, "extractvalue {}", self.typed(*v, fr2));
                for k in idx {
                    let _ = write!(s, ", {k}");
                }
            }
            Op::InsertValue(a, v, idx) => {
                let _ = write!(
                    s,
                    "insertvalue {}, {}",
                    self.typed(*a, fr2),
                    self.typed(*v, fr2)
                );
                for k in idx {
                    let _ = write!(s, ", {k}");
                }
            }
            Op::ExtractElement(v, x) => {
                let _ = write!(
                    s,
                    "extractelement {}, {}",
                    self.typed(*v, fr2),
                    self.typed(*x, fr2)
                );
            }
            Op::InsertElement(v, e, x) => {
                let _ = write!(
                    s,
                    "insertelement {}, {}, {}",
                    self.typed(*v, fr2),
                    self.typed(*e, fr2),
                    self.typed(*x, fr2)
                );
            }
            Op::ShuffleVector(a, b, mask) => {
                let _ = write!(
                    s,
                    "shufflevector {}, {}, {}",
                    self.typed(*a, fr2),
                    self.typed(*b, fr2),
                    self.typed(*mask, fr2)
                );
            }
            Op::Phi(inc) => {
                let _ = write!(s, "phi {} ", self.ty(i.ty));
                let parts: Vec<String> = inc
                    .iter()
                    .map(|(v, b)| format!("[ {}, {} ]", self.value(*v, fr2), blk(*b)))
                    .collect();
                s.push_str(&parts.join(", "));
            }
            Op::Alloca { ty, size, align } => {
                let _ = write!(s, "alloca {}", self.ty(*ty));
                let one = matches!(
                    self.value_entry(*size, fr2),
                    Some(Value::Const {
                        c: Const::Int(1),
                        ..
                    })
                );
                if !one {
                    let _ = write!(s, ", {}", self.typed(*size, fr2));
                }
                if *align > 0 {
                    let _ = write!(s, ", align {align}");
                }
            }
            Op::Load {
                ptr,
                align,
                volatile,
                atomic,
            } => {
                let _ = write!(
                    s,
                    "load {}{}{}, {}",
                    if atomic.is_some() { "atomic " } else { "" },
                    if *volatile { "volatile " } else { "" },
                    self.ty(i.ty),
                    self.typed(*ptr, fr2)
                );
                if let Some((ordering, scope)) = atomic {
                    let _ = write!(s, " {}{}", scope_text(*scope), ordering_name(*ordering));
                }
                let _ = write!(s, ", align {}", self.align_or_abi(*align, i.ty));
            }
            Op::Store {
                ptr,
                val,
                align,
                volatile,
                atomic,
            } => {
                let _ = write!(
                    s,
                    "store {}{}{}, {}",
                    if atomic.is_some() { "atomic " } else { "" },
                    if *volatile { "volatile " } else { "" },
                    self.typed(*val, fr2),
                    self.typed(*ptr, fr2)
                );
                if let Some((ordering, scope)) = atomic {
                    let _ = write!(s, " {}{}", scope_text(*scope), ordering_name(*ordering));
                }
                let t = self.value_ty(*val, fr2).unwrap_or(0);
                let _ = write!(s, ", align {}", self.align_or_abi(*align, t));
            }
            Op::Freeze(v) => {
                let _ = write!(s, "freeze {}", self.typed(*v, fr2));
            }
            Op::Gep {
                inbounds,
                source,
                ops,
            } => {
                let _ = write!(
                    s,
                    "getelementptr {}{}",
                    if *inbounds { "inbounds " } else { "" },
                    self.ty(*source)
                );
                for &v in ops {
                    let _ = write!(s, ", {}", self.typed(v, fr2));
                }
            }
            Op::Call {
                attrs,
                cc,
                fmf,
                fnty,
                callee,
                args,
                invoke,
            } => {
                if invoke.is_some() {
                    s.push_str("invoke");
                } else if cc & 1 != 0 {
                    s.push_str(if cc & (1 << 14) != 0 {
                        "musttail "
                    } else {
                        "tail "
                    });
                } else if cc & (1 << 16) != 0 {
                    s.push_str("notail ");
                }
                if invoke.is_none() {
                    s.push_str("call");
                }
                s.push_str(&fmf_text(*fmf));
                s.push(' ');
                s.push_str(cc_name((cc >> 1) & 0x3FF));
                let (ret, params, vararg) = match m.ty(*fnty) {
                    Type::Function {
                        ret,
                        params,
                        vararg,
                    } => (*ret, params.clone(), *vararg),
                    _ => (0, Vec::new(), false),
                };
                let ra = self.attrs_text_at(*attrs, 0);
                if !ra.is_empty() {
                    s.push_str(&ra);
                    s.push(' ');
                }
                if vararg {
                    s.push_str(self.ty(*fnty));
                } else {
                    s.push_str(self.ty(ret));
                }
                let _ = write!(s, " {}(", self.value(*callee, fr2));
                let mut parts = Vec::new();
                for (k, &a) in args.iter().enumerate() {
                    let t = params
                        .get(k)
                        .copied()
                        .or_else(|| self.value_ty(a, fr2))
                        .unwrap_or(0);
                    let mut p = self.ty(t).to_string();
                    let pa = self.attrs_text_at(*attrs, k as u64 + 1);
                    if !pa.is_empty() {
                        p.push(' ');
                        p.push_str(&pa);
                    }
                    if matches!(m.ty(t), Type::Label) {
                        let _ = write!(p, " {}", blk(a));
                    } else if matches!(m.ty(t), Type::Metadata) && a >= super::MD_ARG {
                        let _ = write!(p, " {}", self.md_arg(a - super::MD_ARG, fr2));
                    } else {
                        let _ = write!(p, " {}", self.value(a, fr2));
                    }
                    parts.push(p);
                }
                s.push_str(&parts.join(", "));
                s.push(')');
                let fa = self.fn_attrs(*attrs);
                if !fa.is_empty() {
                    let k = self.attr_index.get(&fa).copied().unwrap_or(0);
                    let _ = write!(s, " #{k}");
                }
                if let Some((normal, unwind)) = invoke {
                    let _ = write!(
                        s,
                        "\n          to label {} unwind label {}",
                        blk(*normal),
                        blk(*unwind)
                    );
                }
            }
            Op::LandingPad {
                ty,
                cleanup,
                clauses,
            } => {
                let _ = write!(s, "landingpad {}", self.ty(*ty));
                if *cleanup {
                    s.push_str("\n          cleanup");
                }
                for (kind, v) in clauses {
                    let _ = write!(
                        s,
                        "\n          {} {}",
                        if *kind == 0 { "catch" } else { "filter" },
                        self.typed(*v, fr2)
                    );
                }
            }
            Op::Resume(v) => {
                let _ = write!(s, "resume {}", self.typed(*v, fr2));
            }
            Op::AtomicRmw {
                op,
                ptr,
                val,
                volatile,
                ordering,
                scope,
            } => {
                let t = self.value_ty(*val, fr2).unwrap_or(0);
                let _ = write!(
                    s,
                    "atomicrmw {}{} {}, {} {}{}, align {}",
                    if *volatile { "volatile " } else { "" },
                    rmw_name(*op),
                    self.typed(*ptr, fr2),
                    self.typed(*val, fr2),
                    if *scope == 0 {
                        "syncscope(\"singlethread\") "
                    } else {
                        ""
                    },
                    ordering_name(*ordering),
                    self.natural_align(t)
                );
            }
            Op::CmpXchg {
                ptr,
                cmp,
                new,
                volatile,
                success,
                failure,
                scope,
                weak,
            } => {
                let t = self.value_ty(*cmp, fr2).unwrap_or(0);
                let _ = write!(
                    s,
                    "cmpxchg {}{}{}, {}, {} {}{} {}, align {}",
                    if *weak { "weak " } else { "" },
                    if *volatile { "volatile " } else { "" },
                    self.typed(*ptr, fr2),
                    self.typed(*cmp, fr2),
                    self.typed(*new, fr2),
                    if *scope == 0 {
                        "syncscope(\"singlethread\") "
                    } else {
                        ""
                    },
                    ordering_name(*success),
                    ordering_name(*failure),
                    self.natural_align(t)
                );
            }
            Op::Fence { ordering, scope } => {
                let _ = write!(
                    s,
                    "fence {}{}",
                    if *scope == 0 {
                        "syncscope(\"singlethread\") "
                    } else {
                        ""
                    },
                    ordering_name(*ordering)
                );
            }
            Op::Other(k) => {
                let _ = write!(s, "; hexlens: instruction record {k}");
            }
        }
        // Attachments: !dbg first, then by kind.
        s.push_str(&self.attachments_text(", ", &inst_attachments(i)));
        s
    }

    /// `align`, or where the record gives none the type's ABI alignment
    /// (LLVM's reader fills it in from the data layout).
    fn align_or_abi(&self, align: u64, t: TypeId) -> u64 {
        if align > 0 {
            align
        } else {
            self.abi_align(t)
        }
    }

    /// The ABI alignment of `t` by the module's data layout (LLVM's
    /// defaults where it says nothing).
    fn abi_align(&self, t: TypeId) -> u64 {
        let m = &*self.m;
        let spec = |prefix: &str, bits: u64| -> Option<u64> {
            let dl = m.datalayout.as_deref()?;
            dl.split('-').find_map(|part| {
                let rest = part.strip_prefix(prefix)?;
                let mut f = rest.split(':');
                let size: u64 = f.next()?.parse().ok()?;
                let abi: u64 = f.next()?.parse().ok()?;
                (size == bits).then_some(abi / 8)
            })
        };
        match m.ty(t) {
            Type::Int(w) => {
                let w = u64::from(*w);
                spec("i", w).unwrap_or(match w {
                    0..=8 => 1,
                    9..=16 => 2,
                    17..=32 => 4,
                    _ => 8,
                })
            }
            Type::Half => spec("f", 16).unwrap_or(2),
            Type::BFloat => 2,
            Type::Float => spec("f", 32).unwrap_or(4),
            Type::Double => spec("f", 64).unwrap_or(8),
            Type::Pointer(_, a) => {
                let dl = m.datalayout.as_deref().unwrap_or("");
                let key = if *a == 0 {
                    "p".to_string()
                } else {
                    format!("p{a}")
                };
                dl.split('-')
                    .find_map(|part| {
                        let rest = part.strip_prefix(&key)?;
                        let mut f = rest.strip_prefix(':')?.split(':');
                        let _size = f.next()?;
                        f.next()?.parse::<u64>().ok().map(|b| b / 8)
                    })
                    .unwrap_or(8)
            }
            Type::Struct { elems, packed, .. } => {
                if *packed {
                    1
                } else {
                    elems.iter().map(|&e| self.abi_align(e)).max().unwrap_or(1)
                }
            }
            Type::Array(_, e) => self.abi_align(*e),
            Type::Vector(n, e, _) => {
                let bits = n * self.size_bits(*e);
                spec("v", bits).unwrap_or_else(|| bits.div_ceil(8).next_power_of_two().max(1))
            }
            _ => 1,
        }
    }

    fn size_bits(&self, t: TypeId) -> u64 {
        match self.m.ty(t) {
            Type::Int(w) => u64::from(*w),
            Type::Half | Type::BFloat => 16,
            Type::Float => 32,
            Type::Double => 64,
            _ => 32,
        }
    }

    fn natural_align(&self, t: TypeId) -> u64 {
        match self.m.ty(t) {
            Type::Int(w) => u64::from(w.div_ceil(8)).next_power_of_two().max(1),
            Type::Half | Type::BFloat => 2,
            Type::Float => 4,
            Type::Double => 8,
            Type::Pointer(..) => 4,
            _ => 1,
        }
    }

    // ----- metadata ---------------------------------------------------------

    /// A call's metadata argument: metadata `id` as the function numbers it.
    fn md_arg(&self, id: usize, fr: Option<&Frame>) -> String {
        let mut id = id as u64;
        if let Some((from, shift)) = fr.and_then(|f| f.body.md_shift) {
            if id >= from {
                id += shift;
            }
        }
        self.md_ref_in(id + 1, fr)
    }

    /// A metadata operand (ID + 1; 0: null).
    fn md_ref(&self, op: u64) -> String {
        self.md_ref_in(op, None)
    }

    /// A metadata operand inside a function, whose own values it may name.
    fn md_ref_in(&self, op: u64, fr: Option<&Frame>) -> String {
        if op == 0 {
            return "null".into();
        }
        let id = op - 1;
        let m = &*self.m;
        match m.md.get(id as usize).map(|e| &e.md) {
            Some(Md::Str(s)) => {
                let mut t = String::from("!\"");
                escape(&mut t, s);
                t.push('"');
                t
            }
            Some(Md::Value(ty, v)) => {
                if matches!(m.ty(*ty), Type::Void) {
                    return "null".into();
                }
                format!("{} {}", self.ty(*ty), self.value(*v, fr))
            }
            Some(Md::Special { code, ops }) if *code == di::EXPRESSION => {
                di::expression_record(ops)
            }
            Some(Md::Special { code, ops }) if *code == di::ARG_LIST => {
                // An argument list holds values, not other lists.
                let args: Vec<String> = ops
                    .iter()
                    .map(
                        |&o| match o.checked_sub(1).and_then(|k| m.md.get(k as usize)) {
                            Some(e)
                                if matches!(
                                    e.md,
                                    Md::Special {
                                        code: di::ARG_LIST,
                                        ..
                                    }
                                ) =>
                            {
                                format!("!<{}>", o - 1)
                            }
                            _ => self.md_ref_in(o, fr),
                        },
                    )
                    .collect();
                format!("!DIArgList({})", args.join(", "))
            }
            Some(_) => match self.md_slots.get(id as usize).filter(|&&k| k != u32::MAX) {
                Some(k) => format!("!{k}"),
                None => format!("!<{id}>"),
            },
            None => format!("!<{id}>"),
        }
    }

    fn md_node(&self, slot: usize, id: u64) -> TextLine {
        let e = &self.m.md[id as usize];
        let text = match &e.md {
            Md::Node { distinct, ops } => {
                let mut refs: Vec<String> = ops.iter().map(|&o| self.md_ref(o)).collect();
                // LLVM 19 reads the `PIC Level` module flag's Error or Max
                // behaviour as Min.
                if self.modern
                    && ops.len() == 3
                    && self.md_string(ops[1]) == b"PIC Level"
                    && matches!(self.md_const_int(ops[0]), Some(1 | 7))
                    && self.module_flags.contains(&id)
                {
                    let ty = refs[0].split(' ').next().unwrap_or("i32").to_string();
                    refs[0] = ty + " 8";
                }
                format!(
                    "!{slot} = {}!{{{}}}",
                    if *distinct { "distinct " } else { "" },
                    refs.join(", ")
                )
            }
            Md::Special { code, ops } => format!(
                "!{slot} = {}{}",
                if di::distinct(*code, ops) {
                    "distinct "
                } else {
                    ""
                },
                self.di_text(*code, ops)
            ),
            _ => format!("!{slot} = ?"),
        };
        TextLine::at(text, e.bits)
    }
}

/// What LLVM's type finder collects: named structs, depth first, subtypes in order.
/// Where the type finder is: what it has met, and how far it has looked.
#[derive(Default)]
struct Found {
    seen: Vec<bool>,
    consts: HashSet<(usize, ValueId)>,
    mds: HashSet<u64>,
    /// The globals are looked at.
    started: bool,
    /// Functions (in text order) looked at.
    functions: usize,
    /// Named metadata looked at: every type is found.
    done: bool,
    /// How many named types the table holds.
    bound: usize,
}

struct Finder<'m> {
    m: &'m Module,
    seen: Vec<bool>,
    /// Constants met: module ones by number, a function's own with the
    /// function's body address (their numbers repeat from body to body).
    consts: HashSet<(usize, ValueId)>,
    mds: HashSet<u64>,
    out: Vec<TypeId>,
    /// Whether pointers are opaque (LLVM 19's text): no pointee to visit.
    modern: bool,
}

impl Finder<'_> {
    fn ty(&mut self, t: TypeId) {
        if t >= self.seen.len() || self.seen[t] {
            return;
        }
        self.seen[t] = true;
        let mut stack = vec![t];
        while let Some(t) = stack.pop() {
            let subs: Vec<TypeId> = match self.m.ty(t) {
                Type::Struct { name, elems, .. } => {
                    if name.is_some() {
                        self.out.push(t);
                    }
                    elems.clone()
                }
                // LLVM 19 reads typed pointers as opaque ones: no pointee.
                Type::Pointer(Some(p), _) if !self.modern => vec![*p],
                Type::Function { ret, params, .. } => {
                    let mut v = vec![*ret];
                    v.extend(params.iter().copied());
                    v
                }
                Type::Array(_, e) | Type::Vector(_, e, _) => vec![*e],
                _ => Vec::new(),
            };
            for &s in subs.iter().rev() {
                if s < self.seen.len() && !self.seen[s] {
                    self.seen[s] = true;
                    stack.push(s);
                }
            }
        }
    }

    /// Types in function `func`'s type and body.
    fn function(&mut self, func: &Function) {
        let m = self.m;
        if let Some(p) = m.pointer_to(func.ty, func.space) {
            self.ty(p);
        } else {
            self.ty(func.ty);
        }
        let Some(b) = &func.body else {
            return;
        };
        let base = m.values.len();
        for i in &b.insts {
            self.ty(i.ty);
            for v in operands(&i.op) {
                if v >= super::MD_ARG {
                    // Metadata as an argument: the types in it.
                    let mut id = (v - super::MD_ARG) as u64;
                    if let Some((from, shift)) = b.md_shift {
                        if id >= from {
                            id += shift;
                        }
                    }
                    match m.md.get(id as usize).map(|e| &e.md) {
                        Some(Md::Value(_, x)) => self.value(*x, Some((b, base))),
                        Some(Md::Node { .. }) => self.md(id),
                        _ => {}
                    }
                    continue;
                }
                self.value(v, Some((b, base)));
            }
            if let Op::Gep { source, .. } = i.op {
                self.ty(source);
            }
            if let Op::Alloca { ty, .. } = i.op {
                self.ty(ty);
            }
            let mut md = i.md.clone();
            md.sort_by_key(|&(k, _)| k);
            for (_, node) in md {
                self.md(node);
            }
        }
    }

    /// Types in constant `v` and the constants it is made of (each once).
    fn value(&mut self, v: ValueId, body: Option<(&Body, usize)>) {
        let m = self.m;
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            let val = if v < m.values.len() {
                m.values.get(v)
            } else {
                body.and_then(|(b, base)| b.values.get(v - base))
            };
            let Some(Value::Const { ty, c, .. }) = val else {
                continue;
            };
            let owner = match body {
                Some((b, base)) if v >= base => b as *const Body as usize,
                _ => 0,
            };
            if !self.consts.insert((owner, v)) {
                continue;
            }
            self.ty(*ty);
            let inner: Vec<ValueId> = match c {
                Const::Aggregate(es) => es.clone(),
                Const::Cast { val, .. } => vec![*val],
                Const::Gep { ops, .. } => ops.iter().map(|&(_, v)| v).collect(),
                Const::Binop { lhs, rhs, .. } | Const::Cmp { lhs, rhs, .. } => vec![*lhs, *rhs],
                Const::Select(a, b, c2) => vec![*a, *b, *c2],
                _ => Vec::new(),
            };
            stack.extend(inner.into_iter().rev());
        }
    }

    /// Types in metadata node `id` and the nodes and values it holds, in
    /// the order recursion would meet them (a stack of work, not recursion).
    fn md(&mut self, id: u64) {
        enum Work {
            Node(u64),
            Value(ValueId),
        }
        let mut stack = vec![Work::Node(id)];
        while let Some(w) = stack.pop() {
            let id = match w {
                Work::Value(v) => {
                    self.value(v, None);
                    continue;
                }
                Work::Node(id) => id,
            };
            if !self.mds.insert(id) {
                continue;
            }
            let Some(e) = self.m.md.get(id as usize) else {
                continue;
            };
            if let Md::Node { ops, .. } = &e.md {
                let mut work = Vec::new();
                for &o in ops {
                    match o
                        .checked_sub(1)
                        .and_then(|k| self.m.md.get(k as usize))
                        .map(|e| &e.md)
                    {
                        Some(Md::Node { .. }) => work.push(Work::Node(o - 1)),
                        Some(Md::Value(_, v)) => work.push(Work::Value(*v)),
                        _ => {}
                    }
                }
                stack.extend(work.into_iter().rev());
            }
        }
    }
}

/// An instruction's attachments in the order LLVM prints them: its debug
/// location first, then by kind.
fn inst_attachments(i: &Inst) -> Vec<(u64, u64)> {
    let mut md: Vec<(u64, u64)> = i.loc.map(|l| (0, l)).into_iter().collect();
    let mut rest = i.md.clone();
    rest.sort_by_key(|&(k, _)| k);
    md.extend(rest);
    md
}

/// The value operands of an instruction, in operand order.
fn operands(op: &Op) -> Vec<ValueId> {
    match op {
        Op::Ret(v) => v.iter().copied().collect(),
        Op::CondBr(c, _, _) => vec![*c],
        Op::Switch { cond, cases, .. } => {
            let mut v = vec![*cond];
            v.extend(cases.iter().map(|c| c.0));
            v
        }
        Op::Binop { lhs, rhs, .. } | Op::Cmp { lhs, rhs, .. } => vec![*lhs, *rhs],
        Op::Unop { val, .. } | Op::Cast { val, .. } | Op::Freeze(val) => vec![*val],
        Op::Select(a, b, c) => vec![*a, *b, *c],
        Op::ExtractValue(v, _) => vec![*v],
        Op::InsertValue(a, b, _) | Op::ExtractElement(a, b) => vec![*a, *b],
        Op::InsertElement(a, b, c) | Op::ShuffleVector(a, b, c) => vec![*a, *b, *c],
        Op::Phi(inc) => inc.iter().map(|p| p.0).collect(),
        Op::Alloca { size, .. } => vec![*size],
        Op::Load { ptr, .. } => vec![*ptr],
        Op::Store { ptr, val, .. } => vec![*val, *ptr],
        Op::Gep { ops, .. } => ops.clone(),
        Op::Call { callee, args, .. } => {
            let mut v = args.clone();
            v.push(*callee);
            v
        }
        Op::LandingPad { clauses, .. } => clauses.iter().map(|c| c.1).collect(),
        Op::Resume(v) => vec![*v],
        Op::AtomicRmw { ptr, val, .. } => vec![*ptr, *val],
        Op::CmpXchg { ptr, cmp, new, .. } => vec![*ptr, *cmp, *new],
        _ => Vec::new(),
    }
}

/// The blocks a terminator names, in operand order.
fn targets(op: &Op) -> Vec<usize> {
    match op {
        Op::Br(t) => vec![*t],
        Op::Call {
            invoke: Some((normal, unwind)),
            ..
        } => vec![*normal, *unwind],
        Op::CondBr(_, t, f) => vec![*t, *f],
        Op::Switch { default, cases, .. } => {
            let mut v = vec![*default];
            v.extend(cases.iter().map(|c| c.1));
            v
        }
        _ => Vec::new(),
    }
}

fn linkage(l: u64) -> &'static str {
    match l {
        0 | 5 | 6 | 15 => "",
        2 => "appending ",
        3 => "internal ",
        4 | 18 => "linkonce ",
        7 => "extern_weak ",
        8 => "common ",
        9 | 13 | 14 => "private ",
        1 | 16 => "weak ",
        10 | 17 => "weak_odr ",
        11 | 19 => "linkonce_odr ",
        12 => "available_externally ",
        _ => "",
    }
}

fn visibility(v: u64) -> &'static str {
    match v {
        1 => "hidden ",
        2 => "protected ",
        _ => "",
    }
}

fn cc_name(cc: u64) -> &'static str {
    match cc {
        0 => "",
        8 => "fastcc ",
        9 => "coldcc ",
        64 => "x86_stdcallcc ",
        65 => "x86_fastcallcc ",
        66 => "arm_apcscc ",
        67 => "arm_aapcscc ",
        68 => "arm_aapcs_vfpcc ",
        _ => "",
    }
}

fn binop_name(op: u64, fp: bool) -> &'static str {
    match (op, fp) {
        (0, false) => "add",
        (0, true) => "fadd",
        (1, false) => "sub",
        (1, true) => "fsub",
        (2, false) => "mul",
        (2, true) => "fmul",
        (3, _) => "udiv",
        (4, false) => "sdiv",
        (4, true) => "fdiv",
        (5, _) => "urem",
        (6, false) => "srem",
        (6, true) => "frem",
        (7, _) => "shl",
        (8, _) => "lshr",
        (9, _) => "ashr",
        (10, _) => "and",
        (11, _) => "or",
        (12, _) => "xor",
        _ => "<binop>",
    }
}

fn cast_name(op: u64) -> &'static str {
    [
        "trunc",
        "zext",
        "sext",
        "fptoui",
        "fptosi",
        "uitofp",
        "sitofp",
        "fptrunc",
        "fpext",
        "ptrtoint",
        "inttoptr",
        "bitcast",
        "addrspacecast",
    ]
    .get(op as usize)
    .copied()
    .unwrap_or("<cast>")
}

fn pred_name(p: u64) -> &'static str {
    match p {
        0 => "false",
        1 => "oeq",
        2 => "ogt",
        3 => "oge",
        4 => "olt",
        5 => "ole",
        6 => "one",
        7 => "ord",
        8 => "uno",
        9 => "ueq",
        10 => "ugt",
        11 => "uge",
        12 => "ult",
        13 => "ule",
        14 => "une",
        15 => "true",
        32 => "eq",
        33 => "ne",
        34 => "ugt",
        35 => "uge",
        36 => "ult",
        37 => "ule",
        38 => "sgt",
        39 => "sge",
        40 => "slt",
        41 => "sle",
        _ => "<pred>",
    }
}

fn rmw_name(op: u64) -> &'static str {
    [
        "xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min", "umax", "umin", "fadd",
        "fsub",
    ]
    .get(op as usize)
    .copied()
    .unwrap_or("<rmw>")
}

fn ordering_name(o: u64) -> &'static str {
    [
        "",
        "unordered",
        "monotonic",
        "acquire",
        "release",
        "acq_rel",
        "seq_cst",
    ]
    .get(o as usize)
    .copied()
    .unwrap_or("")
}

/// Fast-math flags as LLVM writes them after the opcode (` fast`, ` nnan ninf`).
fn fmf_text(f: u64) -> String {
    if f == 0 {
        return String::new();
    }
    // Bit 0 (unsafe algebra, LLVM before 6) means every flag.
    if f & 1 != 0 || f & 0xFE == 0xFE {
        return " fast".into();
    }
    let mut s = String::new();
    for (bit, name) in [
        (7, "reassoc"),
        (1, "nnan"),
        (2, "ninf"),
        (3, "nsz"),
        (4, "arcp"),
        (5, "contract"),
        (6, "afn"),
    ] {
        if f & (1 << bit) != 0 {
            s.push(' ');
            s.push_str(name);
        }
    }
    s
}

/// An attribute kind's name (LLVM's bitcode attribute kind codes).
fn attr_name(k: u64) -> &'static str {
    const NAMES: [&str; 96] = [
        "",
        "align",
        "alwaysinline",
        "byval",
        "inlinehint",
        "inreg",
        "minsize",
        "naked",
        "nest",
        "noalias",
        "nobuiltin",
        "nocapture",
        "noduplicate",
        "noimplicitfloat",
        "noinline",
        "nonlazybind",
        "noredzone",
        "noreturn",
        "nounwind",
        "optsize",
        "readnone",
        "readonly",
        "returned",
        "returns_twice",
        "signext",
        "alignstack",
        "ssp",
        "sspreq",
        "sspstrong",
        "sret",
        "sanitize_address",
        "sanitize_thread",
        "sanitize_memory",
        "uwtable",
        "zeroext",
        "builtin",
        "cold",
        "optnone",
        "inalloca",
        "nonnull",
        "jumptable",
        "dereferenceable",
        "dereferenceable_or_null",
        "convergent",
        "safestack",
        "argmemonly",
        "swiftself",
        "swifterror",
        "norecurse",
        "inaccessiblememonly",
        "inaccessiblemem_or_argmemonly",
        "allocsize",
        "writeonly",
        "speculatable",
        "strictfp",
        "sanitize_hwaddress",
        "nocf_check",
        "optforfuzzing",
        "shadowcallstack",
        "speculative_load_hardening",
        "immarg",
        "willreturn",
        "nofree",
        "nosync",
        "sanitize_memtag",
        "preallocated",
        "no_merge",
        "null_pointer_is_valid",
        "noundef",
        "byref",
        "mustprogress",
        "nocallback",
        "hot",
        "noprofile",
        "vscale_range",
        "swiftasync",
        "nosanitize_coverage",
        "elementtype",
        "disable_sanitizer_instrumentation",
        "nosanitize_bounds",
        "allocalign",
        "allocptr",
        "allockind",
        "presplitcoroutine",
        "fn_ret_thunk_extern",
        "skipprofile",
        "memory",
        "nofpclass",
        "optdebug",
        "writable",
        "coro_only_destroy_when_complete",
        "dead_on_unwind",
        "range",
        "sanitize_numerical_stability",
        "initializes",
        "hybrid_patchable",
    ];
    NAMES.get(k as usize).copied().unwrap_or("<attribute>")
}

/// Where an attribute sorts in a set: LLVM keeps a set sorted by kind, the
/// kinds numbered by their C++ enumerator names in byte order, enum kinds
/// before integer kinds before type kinds before constant-range kinds.
fn order(k: u64, modern: bool) -> u32 {
    const CPP: [&str; 96] = [
        "",
        "Alignment",
        "AlwaysInline",
        "ByVal",
        "InlineHint",
        "InReg",
        "MinSize",
        "Naked",
        "Nest",
        "NoAlias",
        "NoBuiltin",
        "NoCapture",
        "NoDuplicate",
        "NoImplicitFloat",
        "NoInline",
        "NonLazyBind",
        "NoRedZone",
        "NoReturn",
        "NoUnwind",
        "OptimizeForSize",
        "ReadNone",
        "ReadOnly",
        "Returned",
        "ReturnsTwice",
        "SExt",
        "StackAlignment",
        "StackProtect",
        "StackProtectReq",
        "StackProtectStrong",
        "StructRet",
        "SanitizeAddress",
        "SanitizeThread",
        "SanitizeMemory",
        "UWTable",
        "ZExt",
        "Builtin",
        "Cold",
        "OptimizeNone",
        "InAlloca",
        "NonNull",
        "JumpTable",
        "Dereferenceable",
        "DereferenceableOrNull",
        "Convergent",
        "SafeStack",
        "ArgMemOnly",
        "SwiftSelf",
        "SwiftError",
        "NoRecurse",
        "InaccessibleMemOnly",
        "InaccessibleMemOrArgMemOnly",
        "AllocSize",
        "WriteOnly",
        "Speculatable",
        "StrictFP",
        "SanitizeHWAddress",
        "NoCfCheck",
        "OptForFuzzing",
        "ShadowCallStack",
        "SpeculativeLoadHardening",
        "ImmArg",
        "WillReturn",
        "NoFree",
        "NoSync",
        "SanitizeMemTag",
        "Preallocated",
        "NoMerge",
        "NullPointerIsValid",
        "NoUndef",
        "ByRef",
        "MustProgress",
        "NoCallback",
        "Hot",
        "NoProfile",
        "VScaleRange",
        "SwiftAsync",
        "NoSanitizeCoverage",
        "ElementType",
        "DisableSanitizerInstrumentation",
        "NoSanitizeBounds",
        "AllocAlign",
        "AllocatedPointer",
        "AllocKind",
        "PresplitCoroutine",
        "FnRetThunkExtern",
        "SkipProfile",
        "Memory",
        "NoFPClass",
        "OptimizeForDebugging",
        "Writable",
        "CoroDestroyOnlyWhenComplete",
        "DeadOnUnwind",
        "Range",
        "SanitizeNumericalStability",
        "Initializes",
        "HybridPatchable",
    ];
    let int_kind = matches!(k, 1 | 25 | 41 | 42 | 51 | 74 | 82 | 86 | 87) || (modern && k == 33);
    let type_kind = matches!(k, 3 | 29 | 38 | 65 | 69 | 77);
    let range_kind = matches!(k, 92 | 94);
    let class: u32 = if range_kind {
        3
    } else if type_kind {
        2
    } else if int_kind {
        1
    } else {
        0
    };
    // The position of the name among all names, in byte order (an unknown
    // kind's "~" after them all), worked out once.
    static RANKS: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    let ranks = RANKS.get_or_init(|| {
        (0..=CPP.len())
            .map(|i| {
                let name = CPP.get(i).copied().unwrap_or("~");
                CPP.iter().filter(|n| !n.is_empty() && **n < name).count() as u32
            })
            .collect()
    });
    (class << 16) | ranks[(k as usize).min(CPP.len())]
}

/// An intrinsic LLVM's reader renames when it reads old bitcode, with the
/// attributes the renamed declaration gets.
struct Upgrade {
    name: String,
    fn_attrs: &'static str,
    params: [&'static str; 2],
}

/// `llvm.lifetime.start` / `llvm.lifetime.end` of LLVM before 5 name their
/// pointer type since (`llvm.lifetime.start.p0i8`).
fn upgraded(m: &Module, f: &Function) -> Option<Upgrade> {
    let name = f.name.as_deref()?;
    if name != "llvm.lifetime.start" && name != "llvm.lifetime.end" {
        return None;
    }
    let Type::Function { params, .. } = m.ty(f.ty) else {
        return None;
    };
    let Type::Pointer(Some(p), space) = m.ty(*params.get(1)?) else {
        return None;
    };
    Some(Upgrade {
        name: format!("{name}.p{space}{}", mangle(m, *p)?),
        fn_attrs: "argmemonly nofree nosync nounwind willreturn",
        params: ["immarg", "nocapture"],
    })
}

/// An x86 data layout as LLVM 19 reads it from older bitcode: with the
/// address spaces of 32- and 64-bit pointers (`-p270:32:32-p271:32:32-
/// p272:64:64`) after `e-m:…`, and `-i128:128` after the leading
/// `m`/`p`/`i` specifications.
fn upgrade_datalayout(dl: &str, triple: Option<&str>) -> String {
    let arch = triple.unwrap_or("").split('-').next().unwrap_or("");
    let x86 = arch == "x86_64"
        || arch == "x86"
        || (arch.len() == 4 && arch.starts_with('i') && arch.ends_with("86"));
    if !x86 || triple.is_some_and(|t| t.contains("iamcu")) {
        return dl.to_string();
    }
    let mut parts: Vec<String> = dl.split('-').map(str::to_string).collect();
    let spaces = "p270:32:32-p271:32:32-p272:64:64";
    if !dl.contains(spaces)
        && parts.len() >= 3
        && (parts[0] == "e" || parts[0] == "E")
        && parts[1].len() == 3
        && parts[1].starts_with("m:")
    {
        let at = if parts[2] == "p:32:32" { 3 } else { 2 };
        parts.insert(at, spaces.to_string());
        parts = parts.join("-").split('-').map(str::to_string).collect();
    }
    if !parts.iter().any(|p| p == "i128:128") && parts.first().is_some_and(|p| p == "e") {
        let lead = 1 + parts[1..]
            .iter()
            .take_while(|p| p.starts_with(['m', 'p', 'i']))
            .count();
        if parts[lead..]
            .iter()
            .all(|p| !p.starts_with(['m', 'p', 'i']))
        {
            parts.insert(lead, "i128:128".to_string());
        }
    }
    parts.join("-")
}

/// A type's part of an overloaded intrinsic's name.
fn mangle(m: &Module, t: TypeId) -> Option<String> {
    Some(match m.ty(t) {
        Type::Int(w) => format!("i{w}"),
        Type::Half => "f16".into(),
        Type::Float => "f32".into(),
        Type::Double => "f64".into(),
        Type::Pointer(Some(p), a) => format!("p{a}{}", mangle(m, *p)?),
        _ => return None,
    })
}

/// A `memory` attribute's text: two bits (read 1, write 2) for each of
/// argument memory, inaccessible memory and other memory, the last written
/// as the default.
fn memory_text(v: u64) -> String {
    let loc = |k: u64| (v >> (2 * k)) & 3;
    let name = |mr: u64| ["none", "read", "write", "readwrite"][mr as usize];
    let other = loc(2);
    let all = loc(0) | loc(1) | loc(2);
    let mut parts = Vec::new();
    if other != 0 || all == other {
        parts.push(name(other).to_string());
    }
    for (k, what) in [(0, "argmem"), (1, "inaccessiblemem")] {
        if loc(k) != other {
            parts.push(format!("{what}: {}", name(loc(k))));
        }
    }
    format!("memory({})", parts.join(", "))
}

/// A sync scope before an ordering: nothing for the system scope (1),
/// `syncscope("singlethread") ` for 0.
fn scope_text(scope: u64) -> &'static str {
    if scope == 0 {
        "syncscope(\"singlethread\") "
    } else {
        ""
    }
}

/// A `w`-bit integer's text, signed.
fn int_text(v: i64, w: u64) -> String {
    if w == 0 || w >= 64 {
        return v.to_string();
    }
    let sh = 64 - w;
    ((v << sh) >> sh).to_string()
}

/// A value as LLVM's `APFloat::toString(6, 0, false)` writes it: the exact
/// decimal value, cut (not rounded) to about six digits as its
/// `AdjustToPrecision` cuts the significand, then rounded half up to six
/// significant digits, written `d.dddddde±XX`.
fn six_digits(v: f64) -> Option<String> {
    let sign = if v.is_sign_negative() { "-" } else { "" };
    if v == 0.0 {
        return Some(format!("{sign}0.000000e+00"));
    }
    let bits = v.abs().to_bits();
    let (e, f) = ((bits >> 52) as i32, bits & ((1u64 << 52) - 1));
    let (mut n, mut e2) = if e == 0 {
        (f, -1074)
    } else {
        (f | (1 << 52), e - 1075)
    };
    let tz = n.trailing_zeros();
    n >>= tz;
    e2 += tz as i32;
    // The value is d · 10^e10.
    let mut d = Big::from(n);
    let mut e10: i32 = 0;
    if e2 > 0 {
        for _ in 0..e2 {
            d.mul_small(2);
        }
    } else {
        for _ in 0..-e2 {
            d.mul_small(5);
        }
        e10 = e2;
    }
    // Drop whole decimal digits the significand holds past what six digits need.
    let active = d.bit_len();
    let required = (6u32 * 196).div_ceil(59);
    if active > required {
        let tens = (active - required) * 59 / 196;
        for _ in 0..tens {
            d.div_small(10);
        }
        e10 += tens as i32;
    }
    // Its digits, trailing zeros dropped.
    let mut digits: Vec<u8> = Vec::new();
    while !d.is_zero() {
        digits.push(d.div_small(10) as u8);
    }
    digits.reverse();
    while digits.len() > 1 && digits.last() == Some(&0) {
        digits.pop();
        e10 += 1;
    }
    if digits.is_empty() {
        return None;
    }
    // Round half up to six digits.
    if digits.len() > 6 {
        let dropped = digits.len() - 6;
        let up = digits[6] >= 5;
        digits.truncate(6);
        e10 += dropped as i32;
        if up {
            let mut k = 6;
            loop {
                if k == 0 {
                    digits.insert(0, 1);
                    digits.truncate(6);
                    e10 += 1;
                    break;
                }
                k -= 1;
                if digits[k] == 9 {
                    digits[k] = 0;
                } else {
                    digits[k] += 1;
                    break;
                }
            }
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
            e10 += 1;
        }
    }
    let exp = e10 + digits.len() as i32 - 1;
    let mut out = String::from(sign);
    out.push((b'0' + digits[0]) as char);
    out.push('.');
    for &x in &digits[1..] {
        out.push((b'0' + x) as char);
    }
    for _ in digits.len() - 1..6 {
        out.push('0');
    }
    let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    Some(out)
}

/// An unsigned integer of any size, 32-bit limbs, least significant first.
struct Big(Vec<u32>);

impl Big {
    fn from(v: u64) -> Big {
        Big(vec![v as u32, (v >> 32) as u32])
    }
    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for l in &mut self.0 {
            let x = u64::from(*l) * u64::from(m) + carry;
            *l = x as u32;
            carry = x >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }
    /// Divides in place; returns the remainder.
    fn div_small(&mut self, q: u32) -> u32 {
        let mut rem = 0u64;
        for l in self.0.iter_mut().rev() {
            let x = (rem << 32) | u64::from(*l);
            *l = (x / u64::from(q)) as u32;
            rem = x % u64::from(q);
        }
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        rem as u32
    }
    fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }
    fn bit_len(&self) -> u32 {
        match self.0.iter().rposition(|&l| l != 0) {
            Some(k) => 32 * k as u32 + (32 - self.0[k].leading_zeros()),
            None => 0,
        }
    }
}

// ----- debug information -----------------------------------------------------

/// The `name: value` fields of a specialised node, as LLVM's printer skips
/// and spells them.
struct Fields<'w> {
    w: &'w Writer,
    ops: &'w [u64],
    out: String,
}

impl Fields<'_> {
    fn at(&self, k: usize) -> u64 {
        self.ops.get(k).copied().unwrap_or(0)
    }
    fn raw(&mut self, name: &str, value: &str) {
        if !self.out.is_empty() {
            self.out.push_str(", ");
        }
        self.out.push_str(name);
        self.out.push_str(": ");
        self.out.push_str(value);
    }
    /// A reference field (skipped when null and `skip_null`).
    fn md(&mut self, name: &str, k: usize, skip_null: bool) {
        let op = self.at(k);
        if op == 0 && skip_null {
            return;
        }
        let text = self.w.md_ref(op);
        self.raw(name, &text);
    }
    /// A string field (an MDString reference; skipped when empty and `skip_empty`).
    fn string(&mut self, name: &str, k: usize, skip_empty: bool) {
        let bytes = self.w.md_string(self.at(k));
        if bytes.is_empty() && skip_empty {
            return;
        }
        let mut t = String::from("\"");
        escape(&mut t, bytes);
        t.push('"');
        self.raw(name, &t);
    }
    fn int(&mut self, name: &str, v: u64, skip_zero: bool) {
        if v == 0 && skip_zero {
            return;
        }
        self.raw(name, &v.to_string());
    }
    fn sint(&mut self, name: &str, v: i64, skip_zero: bool) {
        if v == 0 && skip_zero {
            return;
        }
        self.raw(name, &v.to_string());
    }
    fn boolean(&mut self, name: &str, v: bool, default: Option<bool>) {
        if default == Some(v) {
            return;
        }
        self.raw(name, if v { "true" } else { "false" });
    }
    /// A DWARF enumeration field: never printed when 0, as LLVM's printer
    /// skips it whatever the field (`skip_zero` is for the fields that
    /// print a zero anyway).
    fn dwarf(
        &mut self,
        name: &str,
        v: u64,
        names: fn(u64) -> Option<&'static str>,
        skip_zero: bool,
    ) {
        if v == 0 && (skip_zero || name != "type") {
            return;
        }
        match names(v) {
            Some(n) => self.raw(name, n),
            None => self.raw(name, &v.to_string()),
        }
    }
    fn tag(&mut self, v: u64) {
        self.dwarf("tag", v, di::tag, false);
    }
    fn flags(&mut self, name: &str, v: u64) {
        if v != 0 {
            self.raw(name, &di::di_flags(v));
        }
    }
    /// A bound of a subrange: a constant integer as a number, else a reference.
    fn bound(&mut self, name: &str, k: usize) {
        match self.w.md_const_int(self.at(k)) {
            Some(v) => self.sint(name, v, false),
            None => self.md(name, k, true),
        }
    }
}

impl Writer {
    /// The bytes of MDString reference `op` (empty for null or anything else).
    fn md_string(&self, op: u64) -> &[u8] {
        match op
            .checked_sub(1)
            .and_then(|k| self.m.md.get(k as usize))
            .map(|e| &e.md)
        {
            Some(Md::Str(s)) => s,
            _ => &[],
        }
    }

    /// The value of reference `op` when it is a constant integer's metadata.
    fn md_const_int(&self, op: u64) -> Option<i64> {
        let e = self.m.md.get(op.checked_sub(1)? as usize)?;
        let Md::Value(_, v) = e.md else {
            return None;
        };
        match self.m.values.get(v)? {
            Value::Const {
                c: super::Const::Int(i),
                ..
            } => Some(*i),
            _ => None,
        }
    }

    /// `!DIKind(field: value, …)` of a specialised node's record.
    fn di_text(&self, code: u64, ops: &[u64]) -> String {
        let mut f = Fields {
            w: self,
            ops,
            out: String::new(),
        };
        let name = match code {
            di::LOCATION => {
                f.int("line", f.at(1), false);
                f.int("column", f.at(2), true);
                f.md("scope", 3, false);
                f.md("inlinedAt", 4, true);
                f.boolean("isImplicitCode", f.at(5) != 0, Some(false));
                "DILocation"
            }
            di::SUBRANGE => {
                match f.at(0) >> 1 {
                    2 => {
                        f.bound("count", 1);
                        f.bound("lowerBound", 2);
                        f.bound("upperBound", 3);
                        f.bound("stride", 4);
                    }
                    1 => {
                        f.bound("count", 1);
                        f.sint("lowerBound", super::signed(f.at(2)), false);
                    }
                    _ => {
                        f.sint("count", f.at(1) as i64, false);
                        f.sint("lowerBound", super::signed(f.at(2)), false);
                    }
                }
                "DISubrange"
            }
            di::GENERIC_SUBRANGE => {
                f.md("count", 1, true);
                f.md("lowerBound", 2, true);
                f.md("upperBound", 3, true);
                f.md("stride", 4, true);
                "DIGenericSubrange"
            }
            di::ENUMERATOR => {
                let flags = f.at(0);
                let unsigned = flags & 2 != 0;
                f.string("name", 2, false);
                let text = if flags & 4 != 0 {
                    wide_int_text(f.at(1), ops.get(3..).unwrap_or(&[]), !unsigned)
                } else {
                    let v = super::signed(f.at(1));
                    if unsigned {
                        (v as u64).to_string()
                    } else {
                        v.to_string()
                    }
                };
                f.raw("value", &text);
                if unsigned {
                    f.boolean("isUnsigned", true, None);
                }
                "DIEnumerator"
            }
            di::BASIC_TYPE => {
                if f.at(1) != 0x24 {
                    f.tag(f.at(1));
                }
                f.string("name", 2, true);
                f.int("size", f.at(3), true);
                f.int("align", f.at(4), true);
                f.dwarf("encoding", f.at(5), di::encoding, true);
                f.flags("flags", f.at(6));
                "DIBasicType"
            }
            di::FILE => {
                f.string("filename", 1, false);
                f.string("directory", 2, false);
                let kind = f.at(3);
                if kind != 0 && f.at(4) != 0 {
                    let k = match kind {
                        1 => "CSK_MD5",
                        2 => "CSK_SHA1",
                        3 => "CSK_SHA256",
                        _ => "CSK_unknown",
                    };
                    f.raw("checksumkind", k);
                    f.string("checksum", 4, false);
                }
                if ops.len() > 5 {
                    f.string("source", 5, false);
                }
                "DIFile"
            }
            di::DERIVED_TYPE => {
                f.tag(f.at(1));
                f.string("name", 2, true);
                f.md("scope", 5, true);
                f.md("file", 3, true);
                f.int("line", f.at(4), true);
                f.md("baseType", 6, false);
                f.int("size", f.at(7), true);
                let align = match (f.at(1) == 0x4300, f.at(14)) {
                    (true, _) => 0,
                    (false, 0) => f.at(8),
                    (false, a) => a,
                };
                f.int("align", align & 0xffff_ffff, true);
                f.int("offset", f.at(9), true);
                f.flags("flags", f.at(10));
                f.md("extraData", 11, true);
                if f.at(12) != 0 {
                    f.int("dwarfAddressSpace", f.at(12) - 1, false);
                }
                if ops.len() != 14 {
                    f.md("annotations", 13, true);
                }
                // Pointer authentication shares the alignment's storage.
                let ptrauth = f.at(1) == 0x4300;
                let auth = if f.at(14) != 0 { f.at(14) } else { f.at(8) };
                if ptrauth {
                    f.int("ptrAuthKey", auth & 0xf, false);
                    f.boolean("ptrAuthIsAddressDiscriminated", auth & 0x10 != 0, None);
                    f.int("ptrAuthExtraDiscriminator", (auth >> 5) & 0xffff, false);
                    f.boolean("ptrAuthIsaPointer", auth & (1 << 21) != 0, None);
                    f.boolean(
                        "ptrAuthAuthenticatesNullValues",
                        auth & (1 << 22) != 0,
                        None,
                    );
                }
                "DIDerivedType"
            }
            di::COMPOSITE_TYPE => {
                f.tag(f.at(1));
                f.string("name", 2, true);
                f.md("scope", 5, true);
                f.md("file", 3, true);
                f.int("line", f.at(4), true);
                f.md("baseType", 6, true);
                f.int("size", f.at(7), true);
                f.int("align", f.at(8), true);
                f.int("offset", f.at(9), true);
                f.flags("flags", f.at(10));
                f.md("elements", 11, true);
                f.dwarf("runtimeLang", f.at(12), di::language, true);
                f.md("vtableHolder", 13, true);
                f.md("templateParams", 14, true);
                f.string("identifier", 15, true);
                f.md("discriminator", 16, true);
                f.md("dataLocation", 17, true);
                f.md("associated", 18, true);
                f.md("allocated", 19, true);
                f.bound("rank", 20);
                f.md("annotations", 21, true);
                "DICompositeType"
            }
            di::SUBROUTINE_TYPE => {
                f.flags("flags", f.at(1));
                f.dwarf("cc", f.at(3), di::convention, true);
                f.md("types", 2, false);
                "DISubroutineType"
            }
            di::COMPILE_UNIT => {
                f.dwarf("language", f.at(1), di::language, false);
                f.md("file", 2, false);
                f.string("producer", 3, true);
                f.boolean("isOptimized", f.at(4) != 0, None);
                f.string("flags", 5, true);
                f.int("runtimeVersion", f.at(6), false);
                f.string("splitDebugFilename", 7, true);
                let kind = match f.at(8) {
                    0 => "NoDebug".to_string(),
                    1 => "FullDebug".to_string(),
                    2 => "LineTablesOnly".to_string(),
                    3 => "DebugDirectivesOnly".to_string(),
                    k => k.to_string(),
                };
                f.raw("emissionKind", &kind);
                f.md("enums", 9, true);
                f.md("retainedTypes", 10, true);
                f.md("globals", 12, true);
                f.md("imports", 13, true);
                f.md("macros", 15, true);
                f.int("dwoId", f.at(14), true);
                f.boolean(
                    "splitDebugInlining",
                    ops.len() <= 16 || f.at(16) != 0,
                    Some(true),
                );
                f.boolean("debugInfoForProfiling", f.at(17) != 0, Some(false));
                match f.at(18) {
                    0 => {}
                    1 => f.raw("nameTableKind", "GNU"),
                    2 => f.raw("nameTableKind", "None"),
                    3 => f.raw("nameTableKind", "Apple"),
                    k => f.raw("nameTableKind", &k.to_string()),
                }
                f.boolean("rangesBaseAddress", f.at(19) != 0, Some(false));
                f.string("sysroot", 20, true);
                f.string("sdk", 21, true);
                "DICompileUnit"
            }
            di::SUBPROGRAM => {
                let new = f.at(0) & 4 != 0;
                // (flags word, virtual index, DI flags, unit, template params,
                // declaration, retained nodes, this adjustment, thrown types,
                // annotations, target function name) by layout.
                let (
                    spflags,
                    vindex,
                    diflags,
                    unit,
                    tparams,
                    decl,
                    retained,
                    adj,
                    thrown,
                    ann,
                    target,
                ) = if new {
                    (f.at(9), 10, f.at(11), 12, 13, 14, 15, 16, 17, 18, 19)
                } else {
                    // Before LLVM 8: a function (LLVM 3.7–3.8) or a unit
                    // (3.9 on) where the record has 19 operands or more;
                    // the unit of a record without one comes from its
                    // compile unit's list.
                    let has_unit = f.at(0) & 2 != 0;
                    let b = 2 + usize::from(ops.len() >= 19);
                    (
                        di::old_sp_flags(ops),
                        12,
                        f.at(13) & !(1 << 21),
                        if has_unit { 12 + b } else { usize::MAX },
                        13 + b,
                        14 + b,
                        15 + b,
                        if ops.len() >= 20 { 16 + b } else { usize::MAX },
                        if ops.len() >= 21 { 17 + b } else { usize::MAX },
                        usize::MAX,
                        usize::MAX,
                    )
                };
                f.string("name", 2, true);
                f.string("linkageName", 3, true);
                f.md("scope", 1, false);
                f.md("file", 4, true);
                f.int("line", f.at(5), true);
                f.md("type", 6, true);
                f.int("scopeLine", f.at(if new { 7 } else { 9 }), true);
                f.md("containingType", if new { 8 } else { 10 }, true);
                if spflags & 3 != 0 || f.at(vindex) != 0 {
                    f.int("virtualIndex", f.at(vindex), false);
                }
                f.sint("thisAdjustment", f.at(adj) as i64, true);
                f.flags("flags", diflags);
                f.raw("spFlags", &di::sp_flags(spflags));
                f.md("unit", unit, true);
                f.md("templateParams", tparams, true);
                f.md("declaration", decl, true);
                f.md("retainedNodes", retained, true);
                f.md("thrownTypes", thrown, true);
                f.md("annotations", ann, true);
                f.string("targetFuncName", target, true);
                "DISubprogram"
            }
            di::LEXICAL_BLOCK => {
                f.md("scope", 1, false);
                f.md("file", 2, true);
                f.int("line", f.at(3), true);
                f.int("column", f.at(4), true);
                "DILexicalBlock"
            }
            di::LEXICAL_BLOCK_FILE => {
                f.md("scope", 1, false);
                f.md("file", 2, true);
                f.int("discriminator", f.at(3), false);
                "DILexicalBlockFile"
            }
            di::NAMESPACE => {
                f.string("name", if ops.len() == 3 { 2 } else { 3 }, true);
                f.md("scope", 1, false);
                f.boolean("exportSymbols", f.at(0) & 2 != 0, Some(false));
                "DINamespace"
            }
            di::TEMPLATE_TYPE => {
                f.string("name", 1, true);
                f.md("type", 2, false);
                f.boolean("defaulted", f.at(3) != 0, Some(false));
                "DITemplateTypeParameter"
            }
            di::TEMPLATE_VALUE => {
                if f.at(1) != 0x30 {
                    f.tag(f.at(1));
                }
                f.string("name", 2, true);
                f.md("type", 3, true);
                if ops.len() >= 6 {
                    f.boolean("defaulted", f.at(4) != 0, Some(false));
                    f.md("value", 5, false);
                } else {
                    f.md("value", 4, false);
                }
                "DITemplateValueParameter"
            }
            di::GLOBAL_VAR => {
                f.string("name", 2, true);
                f.string("linkageName", 3, true);
                f.md("scope", 1, false);
                f.md("file", 4, true);
                f.int("line", f.at(5), true);
                f.md("type", 6, true);
                f.boolean("isLocal", f.at(7) != 0, None);
                f.boolean("isDefinition", f.at(8) != 0, None);
                f.md("declaration", 9, true);
                f.md("templateParams", 10, true);
                f.int("align", f.at(11), true);
                f.md("annotations", 12, true);
                "DIGlobalVariable"
            }
            di::LOCAL_VAR => {
                // LLVM 3.x records give the variable's tag first.
                let t = di::local_var_tag_shift(ops);
                f.string("name", 2 + t, true);
                f.int("arg", f.at(6 + t), true);
                f.md("scope", 1 + t, false);
                f.md("file", 3 + t, true);
                f.int("line", f.at(4 + t), true);
                f.md("type", 5 + t, true);
                f.flags("flags", f.at(7 + t));
                if f.at(0) & 2 != 0 {
                    f.int("align", f.at(8), true);
                    f.md("annotations", 9, true);
                }
                "DILocalVariable"
            }
            di::LABEL => {
                f.md("scope", 1, false);
                f.string("name", 2, true);
                f.md("file", 3, true);
                f.int("line", f.at(4), true);
                "DILabel"
            }
            di::EXPRESSION => return di::expression_record(ops),
            di::GLOBAL_VAR_EXPR => {
                f.md("var", 1, false);
                f.md("expr", 2, false);
                "DIGlobalVariableExpression"
            }
            di::IMPORTED_ENTITY => {
                f.tag(f.at(1));
                f.string("name", 5, true);
                f.md("scope", 2, false);
                f.md("entity", 3, true);
                f.md("file", 6, true);
                f.int("line", f.at(4), true);
                f.md("elements", 7, true);
                "DIImportedEntity"
            }
            di::MACRO => {
                f.dwarf("type", f.at(1), di::macinfo, false);
                f.int("line", f.at(2), true);
                f.string("name", 3, true);
                f.string("value", 4, true);
                "DIMacro"
            }
            di::MACRO_FILE => {
                f.int("line", f.at(2), true);
                f.md("file", 3, false);
                f.md("nodes", 4, true);
                "DIMacroFile"
            }
            di::ASSIGN_ID => return "!DIAssignID()".into(),
            di::ARG_LIST => {
                let args: Vec<String> = ops.iter().map(|&o| self.md_ref(o)).collect();
                return format!("!DIArgList({})", args.join(", "));
            }
            di::COMMON_BLOCK => {
                f.md("scope", 1, false);
                f.md("declaration", 2, false);
                f.string("name", 3, true);
                f.md("file", 4, true);
                f.int("line", f.at(5), true);
                "DICommonBlock"
            }
            di::GENERIC_DEBUG => {
                f.tag(f.at(1));
                f.md("header", 3, true);
                let rest: Vec<String> = ops.iter().skip(4).map(|&o| self.md_ref(o)).collect();
                if !rest.is_empty() {
                    f.raw("operands", &format!("{{{}}}", rest.join(", ")));
                }
                "GenericDINode"
            }
            _ => return format!("!<record {code}>"),
        };
        format!("!{name}({})", f.out)
    }

    /// The kind of debug intrinsic function `f` is (`value`, `declare`,
    /// `assign`, `label`) when LLVM 19 reads its calls as debug records.
    fn dbg_intrinsic(&self, f: &Function) -> Option<&'static str> {
        if !self.modern {
            return None;
        }
        match f.name.as_deref()? {
            "llvm.dbg.value" => Some("value"),
            "llvm.dbg.declare" => Some("declare"),
            "llvm.dbg.assign" => Some("assign"),
            "llvm.dbg.label" => Some("label"),
            _ => None,
        }
    }

    /// A call of a debug intrinsic as the debug record LLVM 19 makes of it
    /// (`#dbg_value(…)` where the call was), or `None` for anything else.
    fn dbg_call(&self, i: &Inst, fr: &Frame) -> Option<String> {
        let Op::Call { callee, args, .. } = &i.op else {
            return None;
        };
        let Some(Value::Function(k)) = self.m.values.get(*callee) else {
            return None;
        };
        let kind = self.dbg_intrinsic(&self.m.functions[*k])?;
        let arg = |j: usize| match args.get(j) {
            Some(&a) if a >= super::MD_ARG => self.md_arg(a - super::MD_ARG, Some(fr)),
            Some(&a) => self.typed(a, Some(fr)),
            None => "null".into(),
        };
        let loc = i.loc.map_or_else(|| "null".into(), |l| self.md_ref(l + 1));
        let n = if kind == "label" {
            1
        } else if kind == "assign" {
            6
        } else {
            3
        };
        let mut parts: Vec<String> = (0..n).map(arg).collect();
        parts.push(loc);
        Some(format!("    #dbg_{kind}({})", parts.join(", ")))
    }

    /// `#dbg_value(…)`, `#dbg_declare(…)`, `#dbg_assign(…)`, `#dbg_label(…)`.
    fn dbg_record(&self, r: &super::DbgRecord, fr: &Frame) -> String {
        let at = |k: usize| r.ops.get(k).copied().unwrap_or(0);
        let md = |k: usize| self.md_ref_in(at(k), Some(fr));
        if r.code == 65 {
            return format!("    #dbg_label({}, {})", md(1), md(0));
        }
        let kind = match r.code {
            62 => "declare",
            63 => "assign",
            _ => "value",
        };
        let loc = match (r.code, r.value) {
            (64, Some(v)) => self.typed(v, Some(fr)),
            _ => md(3),
        };
        let mut s = format!("    #dbg_{kind}({loc}, {}, {}, ", md(1), md(2));
        if r.code == 63 {
            let _ = write!(s, "{}, {}, {}, ", md(4), md(6), md(5));
        }
        s.push_str(&md(0));
        s.push(')');
        s
    }
}

/// An APInt of `width` bits stored as sign-rotated 64-bit words, low first.
fn wide_int_text(width: u64, words: &[u64], signed: bool) -> String {
    if width <= 64 || words.len() <= 1 {
        let v = words.first().map_or(0, |&w| super::signed(w));
        let width = width.clamp(1, 64);
        if signed {
            let shift = 64 - width;
            return ((v << shift) >> shift).to_string();
        }
        let mask = if width == 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        return ((v as u64) & mask).to_string();
    }
    let mut v: u128 = 0;
    for (k, &w) in words.iter().take(2).enumerate() {
        v |= (super::signed(w) as u64 as u128) << (64 * k);
    }
    if signed && width <= 128 {
        let shift = 128 - width as u32;
        return (((v << shift) as i128) >> shift).to_string();
    }
    v.to_string()
}

/// How many blocks a body's text has: as DECLAREBLOCKS says, but no more
/// than its instructions (each block ends with one), so a damaged count
/// costs nothing.
fn block_count(b: &Body) -> usize {
    b.blocks.clamp(1, b.insts.len().max(1))
}
