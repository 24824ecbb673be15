//! Decodes a file with a [`Spec`]: the `.ksy` interpreted, its fields read
//! into the tree every format gives (a node per field, `[i]` per repeated
//! element, a struct per user-type object, instances after their type's
//! `seq`), its values kept per object for the expressions that name them.
//!
//! Reading follows Kaitai Struct's semantics: streams (`_io`) are the file,
//! a window of it (a field with a size read as a user type), or bytes a
//! `process` made; integers align to a byte, bit fields do not; `pos`
//! instances read elsewhere and come back. A failed read puts its error on
//! its node and stops the object it is in; a sized field's object contains
//! its failure, so the fields after it are read. Budgets (expression steps,
//! nesting, repeats, decoded bytes) stop a hostile `.ksy` with an error.

use super::encoding::Encoding;
use super::expr::{self, Expr, Handle, Scope, TypeName, Val};
use super::model::{
    self, Attr, EndianSpec, LabelPart, Member, Process, Repeat, Spec, TypeId, TypeSpec, Valid,
};
use crate::builder::{hex_preview, Builder, DResult, Stop};
use crate::tree::{BitSpan, Kind, Name, NodeId, Value};
use crate::Endian;
use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

/// Work one decode may do (expression steps and values read): this much,
/// plus [`STEPS_PER_BYTE`] for each byte of the file.
const BASE_STEPS: u64 = 20_000_000;
const STEPS_PER_BYTE: u64 = 64;
/// How deep user types may nest (objects inside objects).
const MAX_DEPTH: usize = 64;
/// Elements one repeated field may have.
const MAX_REPEAT: u64 = 1 << 28;
/// Bytes a `process` may make (a zlib bomb stops here).
const MAX_DECODED: u64 = 1 << 28;
/// Objects one decode may make when no node is made for them (instances
/// read for a value): a budget like the builder's node budget.
const MAX_OBJECTS: usize = 50_000_000;

/// What the user type's label (`-webide-representation`) shows at most.
const MAX_LABEL: usize = 200;

/// Why reading stopped.
#[derive(Debug)]
enum Fail {
    /// The error is on a node already.
    Recorded,
    /// A budget of the whole decode is spent (nodes, work): the error is on
    /// a node already, and nothing more is read anywhere.
    Spent,
    /// Not recorded yet (read without nodes, or found before the node is
    /// made): the message.
    Msg(String),
}

type R<T> = Result<T, Fail>;

fn fail<T>(msg: impl Into<String>) -> R<T> {
    Err(Fail::Msg(msg.into()))
}

/// A stream objects read from: a window of the file, or of bytes a
/// `process` made.
#[derive(Clone)]
struct Io {
    /// Bytes a `process` made; `None`: the file.
    buf: Option<Arc<[u8]>>,
    /// Where the stream starts in the file, or in `buf` (bytes): what the
    /// nodes read from it are placed by.
    base: u64,
    len: u64,
    pos: u64,
    bits: u64,
    bits_left: u8,
}

/// An object of a user type.
#[derive(Clone)]
struct Obj {
    ty: TypeId,
    parent: Option<u32>,
    root: u32,
    io: u32,
    /// Values of the `seq` fields then the instances (`None`: not read).
    vals: Vec<Slot>,
    params: Vec<Val>,
    le: Option<bool>,
    /// Where it starts and ends in its stream (bytes), once read.
    start: u64,
    end: Option<u64>,
    /// Its fields are not read yet (its node is decoded when opened): they
    /// are read, for their values only, when an expression names one.
    pending: bool,
}

/// The objects and streams of a decode, kept once it ends for the nodes it
/// left to be decoded when opened (their parents, roots and streams).
struct Arena {
    objs: Vec<Obj>,
    ios: Vec<Io>,
}

/// Where a decode's [`Arena`] is put when it ends.
type Frozen = Arc<OnceLock<Arc<Arena>>>;

#[derive(Clone)]
enum Slot {
    Unread,
    Busy,
    Done(Val),
}

#[derive(Clone, Copy)]
enum Ref {
    Obj(u32),
    Io(u32),
    /// A long run of bytes left in its stream (stream, start, length) until
    /// an expression reads it.
    Bytes(u32, u64, u64),
}

/// Bytes of a long unsized list read before the viewer shows it (and
/// before it shows a rest opened before it was read ahead): the rest is
/// read ahead by the viewer ([`crate::tree::Tree::read_ahead`]) and shown
/// when opened.
const SKIM_FIRST: u64 = 4 << 20;

/// How reading a list's elements without nodes ended ([`Run::skim`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ended {
    /// At the stream's end.
    Whole,
    /// At a page's end, past the budget.
    Paused,
    /// At an element that failed or read nothing.
    Failed,
}

/// What reading a list's elements without nodes found (in one go, or, for
/// a list's rest, in all the steps so far: `Paused` while it goes on).
struct Skim {
    /// Where each page starts (the first: where the reading began).
    starts: Vec<u64>,
    /// The elements read (whole pages only, when one failed).
    count: u64,
    /// Where they end.
    to: u64,
    end: Ended,
}

/// The rest of a list read only as far as the viewer needed: what reads it
/// ahead ([`Tree::read_ahead`]) and what its node shows when opened.
struct RestCtx {
    spec: Arc<Spec>,
    frozen: Frozen,
    /// The list's object, stream and field, and its first element here.
    o: u32,
    io: u32,
    place: (TypeId, usize, bool),
    first: u64,
    /// The decode's lazy threshold and page size.
    lazy: Option<u64>,
    page: Option<u32>,
    /// How far it has been read.
    state: std::sync::Mutex<Skim>,
}

/// The field at `place` (its type, its index, whether it is an instance;
/// see [`Run::attr_place`]).
fn attr_at(spec: &Spec, (ty, k, instance): (TypeId, usize, bool)) -> &Attr {
    let def = &spec.types[ty];
    if instance {
        &def.instances[k]
    } else {
        &def.seq[k]
    }
}

impl RestCtx {
    /// Reads on for `budget` bytes (at a page's end) with builder `b`,
    /// making no node.
    fn advance(&self, b: &mut Builder, st: &mut Skim, budget: u64) {
        if st.end != Ended::Paused {
            return;
        }
        let Some(arena) = self.frozen.get() else {
            st.end = Ended::Failed;
            return;
        };
        let page = self.page.unwrap_or(1).max(1) as u64;
        let mut run = Run::new(&self.spec, b, arena.objs.clone(), arena.ios.clone(), budget);
        let s = &mut run.ios[self.io as usize];
        (s.pos, s.bits_left) = (st.to, 0);
        let a = attr_at(&self.spec, self.place);
        match run.skim(self.o, self.io, a, self.first + st.count, page, budget) {
            Ok(sk) => {
                st.starts.extend_from_slice(&sk.starts[1..]);
                st.count += sk.count;
                st.to = sk.to;
                st.end = sk.end;
            }
            Err(_) => st.end = Ended::Failed,
        }
    }

    /// The rest's node opened: what was read, as pages; then the list's
    /// end (its count), an element that fails (read with its node, its
    /// error where it is), or a rest again.
    fn open(&self, b: &mut Builder) -> DResult<()> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.count == 0 && st.end == Ended::Paused {
            self.advance(b, &mut st, SKIM_FIRST);
        }
        let Some(arena) = self.frozen.get() else {
            let here = b.current();
            b.set_error(here, "the decode this list belongs to did not finish");
            return Err(Stop);
        };
        let page = self.page.unwrap_or(1).max(1) as u64;
        let len = arena.ios.get(self.io as usize).map_or(0, |s| s.len);
        let mut run = Run::new(&self.spec, b, arena.objs.clone(), arena.ios.clone(), len);
        let here = run.b.current();
        let sk = &*st;
        run.pages_of(self.o, self.io, self.place, self.first, page, sk);
        let next = self.first + sk.count;
        match sk.end {
            Ended::Paused => run.rest(self.o, self.io, self.place, next, sk.to),
            Ended::Failed => {
                // Read again with nodes, to the failure.
                let a = attr_at(&self.spec, self.place);
                let s = &mut run.ios[self.io as usize];
                (s.pos, s.bits_left) = (sk.to, 0);
                for i in next.. {
                    let index = Name::Index(i.min(u32::MAX as u64) as u32);
                    let s = &run.ios[self.io as usize];
                    let before = (s.pos, s.bits_left);
                    if run.one(self.o, self.io, a, index, Some(i as i128)).is_err() {
                        break;
                    }
                    let s = &run.ios[self.io as usize];
                    if (s.pos, s.bits_left) == before || s.pos >= s.len {
                        break;
                    }
                }
            }
            Ended::Whole => {
                // Read to its end: the list's count is known.
                let t = run.b.tree_mut();
                let mut list = here;
                while let (true, Some(p)) = (t.is_rest(list), t.parent(list)) {
                    list = p;
                }
                t.set_uint(list, next);
            }
        }
        run.end(Ok(()), here)
    }
}

impl crate::tree::ReadAhead for RestCtx {
    fn step(&self, src: &dyn crate::source::ByteSource, budget: u64) -> crate::tree::Ahead {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let mut b = Builder::new(src, "rest");
        b.set_lazy_threshold(self.lazy);
        b.set_page_size(self.page);
        self.advance(&mut b, &mut st, budget);
        let s = self
            .frozen
            .get()
            .and_then(|a| a.ios.get(self.io as usize).cloned());
        let (base, len) = s.map_or((0, 0), |s| (s.base, s.len));
        crate::tree::Ahead {
            from: base + st.starts[0],
            to: base + st.to,
            end: base + len,
            entries: st.count,
            done: st.end != Ended::Paused,
        }
    }
}

/// Elements in a row that read nothing a `repeat: until` may have.
const MAX_EMPTY: u32 = 4096;

/// Byte fields longer than this keep their bytes in the file until an
/// expression reads them.
const LAZY_BYTES: u64 = 4096;
/// Byte fields up to this long show their bytes in their node's display.
const PREVIEW_BYTES: u64 = 32;

/// Decodes the builder's file with `spec` into its root.
pub fn decode(spec: &Arc<Spec>, b: &mut Builder) -> DResult<()> {
    decode_at(spec, b, 0, None)
}

/// Decodes the file with `spec` from byte `at` on (`size` bytes of it, or to
/// its end): over the whole file the root is the format's top-level object;
/// over a part of it, that object is the root's child named by the format's
/// id (a structure inside another file), its stream ending where the part
/// ends.
pub fn decode_at(spec: &Arc<Spec>, b: &mut Builder, at: u64, size: Option<u64>) -> DResult<()> {
    let rest = b.file_len().saturating_sub(at);
    let len = size.map_or(rest, |n| n.min(rest));
    let whole = at == 0 && size.is_none();
    let file = Io {
        buf: None,
        base: at,
        len,
        pos: 0,
        bits: 0,
        bits_left: 0,
    };
    let mut run = Run::new(spec, b, Vec::new(), vec![file], len);
    let root = run.b.current();
    let (name, into) = if !whole {
        (Some((Name::from(spec.id.clone()), Some(len))), None)
    } else {
        (None, Some(root))
    };
    let r = run.object(spec.root, 0, None, Vec::new(), name, into);
    let r = run.end(r.map(|_| ()), root);
    match r {
        Err(Stop) if !whole && !run.b.tree().is_damaged(root) => Ok(()),
        other => other,
    }
}

impl<'a, 'b, 's> Run<'a, 'b, 's> {
    fn new(
        spec: &'a Arc<Spec>,
        b: &'b mut Builder<'s>,
        objs: Vec<Obj>,
        ios: Vec<Io>,
        len: u64,
    ) -> Self {
        Run {
            spec,
            shared: spec.clone(),
            b,
            objs,
            ios,
            steps: BASE_STEPS.saturating_add(len.saturating_mul(STEPS_PER_BYTE)),
            depth: 0,
            mk: true,
            frozen: Arc::new(OnceLock::new()),
            on: None,
            sizes: Default::default(),
        }
    }

    /// Ends the decode with `r`: a failure not recorded yet goes on `at`;
    /// the objects and streams are kept for the nodes left to be decoded
    /// when opened.
    fn end(&mut self, r: R<()>, at: NodeId) -> DResult<()> {
        let arena = Arena {
            objs: std::mem::take(&mut self.objs),
            ios: std::mem::take(&mut self.ios),
        };
        let _ = self.frozen.set(Arc::new(arena));
        match r {
            Ok(()) => Ok(()),
            Err(Fail::Recorded | Fail::Spent) => Err(Stop),
            Err(Fail::Msg(m)) => {
                self.b.set_error(at, m);
                Err(Stop)
            }
        }
    }
}

struct Run<'a, 'b, 's> {
    spec: &'a Spec,
    /// The same, for the nodes left to be decoded when opened.
    shared: Arc<Spec>,
    b: &'b mut Builder<'s>,
    objs: Vec<Obj>,
    ios: Vec<Io>,
    steps: u64,
    depth: usize,
    /// Whether reads make nodes (not while an instance is read for a value).
    mk: bool,
    /// Where this decode's objects and streams are kept when it ends.
    frozen: Frozen,
    /// The value the field being read switched on (`_on`).
    on: Option<Val>,
    /// The fixed sizes of types found so far (bits), for `sizeof`.
    sizes: std::cell::RefCell<std::collections::HashMap<TypeId, Result<u64, String>>>,
}

/// The context an expression is evaluated in.
struct Ctx<'r, 'a, 'b, 's> {
    run: &'r mut Run<'a, 'b, 's>,
    obj: u32,
    index: Option<i128>,
    it: Option<Val>,
    on: Option<Val>,
}

fn handle(r: Ref) -> Val {
    Val::Handle(Handle(Arc::new(r)))
}

fn as_ref(v: &Val) -> Option<Ref> {
    match v {
        Val::Handle(h) => h.0.downcast_ref::<Ref>().copied(),
        _ => None,
    }
}

impl Scope for Ctx<'_, '_, '_, '_> {
    fn name(&mut self, name: &str) -> Result<Val, String> {
        match name {
            "_index" => {
                return self
                    .index
                    .map(Val::Int)
                    .ok_or_else(|| "_index outside a repeated field".into())
            }
            "_" => {
                return self
                    .it
                    .clone()
                    .ok_or_else(|| "'_' outside repeat-until".into())
            }
            "_on" => return self.on.clone().ok_or_else(|| "_on outside a switch".into()),
            _ => {}
        }
        self.run.member(self.obj, name)
    }

    fn attr(&mut self, target: &Val, name: &str) -> Result<Val, String> {
        match as_ref(target) {
            Some(Ref::Obj(o)) => self.run.member(o, name),
            Some(Ref::Io(i)) => {
                let io = &self.run.ios[i as usize];
                match name {
                    "pos" => Ok(Val::Int(io.pos as i128)),
                    "size" => Ok(Val::Int(io.len as i128)),
                    "eof" => Ok(Val::Bool(io.pos >= io.len && io.bits_left == 0)),
                    _ => Err(format!("a stream has no '{name}' (it has pos, size, eof)")),
                }
            }
            // Bytes left in their stream reach an expression only inside
            // another value (`read_lazy` reads a field's own): read them.
            Some(Ref::Bytes(..)) => {
                let v = self.run.read_lazy(target.clone());
                let mut c = Lit(Some(v));
                let e = expr::parse(&format!("_.{name}")).map_err(|e| e.message)?;
                expr::eval(&e, &mut c)
            }
            None => Err(format!("cannot take '{name}' of {}", target.type_name())),
        }
    }

    fn enum_value(&mut self, path: &[String], name: &str) -> Result<Val, String> {
        let ty = self.run.objs[self.obj as usize].ty;
        let e = self
            .run
            .find_enum(ty, path)
            .ok_or_else(|| format!("unknown enum '{}'", path.join("::")))?;
        let v = self.run.spec.enums[e]
            .value_of(name)
            .ok_or_else(|| format!("enum '{}' has no '{name}'", path.join("::")))?;
        Ok(Val::Enum { e: e as u32, v })
    }

    fn sizeof(&mut self, ty: &TypeName, bits: bool) -> Result<Val, String> {
        let from = self.run.objs[self.obj as usize].ty;
        let n = self.run.static_bits(from, ty)?;
        Ok(Val::Int(if bits {
            n as i128
        } else {
            n.div_ceil(8) as i128
        }))
    }

    fn cast(&mut self, v: Val, ty: &TypeName) -> Result<Val, String> {
        // A user type: the object is what it is (Kaitai's casts only tell the
        // compiler which type to expect).
        match as_ref(&v) {
            Some(Ref::Obj(_)) => Ok(v),
            _ => Err(format!(
                "cannot cast {} to {}",
                v.type_name(),
                ty.path.join("::")
            )),
        }
    }

    fn enum_name(&self, e: u32, v: i128) -> Option<String> {
        self.run
            .spec
            .enums
            .get(e as usize)?
            .name_of(v)
            .map(String::from)
    }
}

impl<'a, 'b, 's> Run<'a, 'b, 's> {
    fn eval(&mut self, obj: u32, index: Option<i128>, e: &Expr) -> R<Val> {
        let mut steps = self.steps;
        let on = self.on.clone();
        let mut c = Ctx {
            run: self,
            obj,
            index,
            it: None,
            on,
        };
        let r = expr::eval_with_budget(e, &mut c, &mut steps);
        self.steps = steps;
        r.map_err(Fail::Msg)
    }

    fn eval_int(&mut self, obj: u32, index: Option<i128>, e: &Expr, what: &str) -> R<i128> {
        match self.eval(obj, index, e)? {
            Val::Int(v) => Ok(v),
            Val::Enum { v, .. } => Ok(v),
            other => fail(format!("{what} is {}, not an integer", other.type_name())),
        }
    }

    /// `name` of object `o`: a field, an instance, a parameter, or one of
    /// `_io`, `_root`, `_parent`, `_sizeof`, `_is_le`.
    fn member(&mut self, o: u32, name: &str) -> Result<Val, String> {
        if self.objs[o as usize].pending && !name.starts_with('_') {
            self.fill(o).map_err(|f| match f {
                Fail::Msg(m) => m,
                Fail::Recorded | Fail::Spent => "its fields could not be read".into(),
            })?;
        }
        let obj = &self.objs[o as usize];
        match name {
            "_io" => return Ok(handle(Ref::Io(obj.io))),
            "_root" => return Ok(handle(Ref::Obj(obj.root))),
            "_parent" => {
                return obj
                    .parent
                    .map(|p| handle(Ref::Obj(p)))
                    .ok_or_else(|| "the root has no _parent".into())
            }
            "_sizeof" => {
                let end = obj.end.unwrap_or(self.ios[obj.io as usize].pos);
                return Ok(Val::Int(end.saturating_sub(obj.start) as i128));
            }
            "_is_le" => return Ok(Val::Bool(obj.le.unwrap_or(false))),
            _ => {}
        }
        let def = &self.spec.types[obj.ty];
        match def.member(name) {
            Some(Member::Param(k)) => return Ok(obj.params[k].clone()),
            Some(Member::Seq(k)) => {
                return match &obj.vals[k] {
                    Slot::Done(v) => Ok(self.read_lazy(v.clone())),
                    _ => Err(format!("'{name}' is not read yet")),
                };
            }
            _ => {}
        }
        if let Some(Member::Instance(k)) = def.member(name) {
            return self
                .instance_value(o, k)
                .map(|v| self.read_lazy(v))
                .map_err(|f| match f {
                    Fail::Msg(m) => format!("instance '{name}': {m}"),
                    Fail::Recorded | Fail::Spent => format!("instance '{name}' failed"),
                });
        }
        Err(format!(
            "'{name}' is not a field, instance or parameter of {}",
            def.id
        ))
    }

    /// `v` with the bytes it leaves in their stream read.
    fn read_lazy(&self, v: Val) -> Val {
        match &v {
            Val::Handle(_) => match as_ref(&v) {
                Some(Ref::Bytes(io, at, n)) => Val::Bytes(self.slice(io, at, n).into()),
                _ => v,
            },
            Val::Array(items)
                if items
                    .iter()
                    .any(|x| matches!(as_ref(x), Some(Ref::Bytes(..)))) =>
            {
                Val::Array(Arc::new(
                    items.iter().map(|x| self.read_lazy(x.clone())).collect(),
                ))
            }
            _ => v,
        }
    }

    /// Instance `k` of object `o`, read (without nodes) if it was not yet.
    fn instance_value(&mut self, o: u32, k: usize) -> R<Val> {
        let slot = self.spec.types[self.objs[o as usize].ty].seq.len() + k;
        match &self.objs[o as usize].vals[slot] {
            Slot::Done(v) => return Ok(v.clone()),
            Slot::Busy => {
                return fail("it depends on itself");
            }
            Slot::Unread => {}
        }
        // An instance read for a value nests like an object.
        if self.depth >= MAX_DEPTH {
            return fail(format!(
                "objects and instances nest deeper than {MAX_DEPTH}"
            ));
        }
        self.objs[o as usize].vals[slot] = Slot::Busy;
        let mk = std::mem::replace(&mut self.mk, false);
        self.depth += 1;
        let r = self.instance(o, k, None);
        self.depth -= 1;
        self.mk = mk;
        match r {
            Ok(v) => {
                self.objs[o as usize].vals[slot] = Slot::Done(v.clone());
                Ok(v)
            }
            Err(e) => {
                self.objs[o as usize].vals[slot] = Slot::Unread;
                Err(e)
            }
        }
    }

    /// Reads instance `k` of object `o` (with nodes if `self.mk`, as
    /// children of the open group).
    fn instance(&mut self, o: u32, k: usize, _node: Option<NodeId>) -> R<Val> {
        let spec = self.spec;
        let ty = self.objs[o as usize].ty;
        let a = &spec.types[ty].instances[k];
        if let Some(c) = &a.cond {
            if !self.eval(o, None, c)?.truthy().map_err(Fail::Msg)? {
                return Ok(Val::Nil);
            }
        }
        if let Some(v) = &a.value {
            let v = self.eval(o, None, v)?;
            let v = match (a.enum_, &v) {
                (Some(e), Val::Int(n)) => Val::Enum { e: e as u32, v: *n },
                _ => v,
            };
            if self.mk {
                let at = self.anchor(o);
                let id = self.node(Name::Static(a.name), Kind::Derived, at)?;
                self.show(id, &v);
                self.b.tree_mut().set_instance(id, true);
            }
            return Ok(v);
        }
        let io = match &a.io {
            Some(e) => match as_ref(&self.eval(o, None, e)?) {
                Some(Ref::Io(i)) => i,
                _ => return fail(format!("{}: io is not a stream", a.path)),
            },
            None => self.objs[o as usize].io,
        };
        let saved = (
            self.ios[io as usize].pos,
            self.ios[io as usize].bits,
            self.ios[io as usize].bits_left,
        );
        if let Some(p) = &a.at {
            let p = self.eval_int(o, None, p, "pos")?;
            let len = self.ios[io as usize].len;
            if !u64::try_from(p).is_ok_and(|p| p <= len) {
                let msg = format!("pos {p} is outside its stream ({len} bytes)");
                return self.fail_here(o, Name::Static(a.name), msg);
            }
            let s = &mut self.ios[io as usize];
            s.pos = p as u64;
            s.bits_left = 0;
        }
        if let Some(v) = self.instance_later(o, io, a)? {
            let s = &mut self.ios[io as usize];
            (s.pos, s.bits, s.bits_left) = saved;
            return Ok(v);
        }
        let before = if self.mk { self.b.open_kids().len() } else { 0 };
        let r = self.attr(o, io, a, Name::Static(a.name));
        if self.mk {
            if let Some(&id) = self.b.open_kids().get(before) {
                self.b.tree_mut().set_instance(id, true);
            }
        }
        let s = &mut self.ios[io as usize];
        (s.pos, s.bits, s.bits_left) = saved;
        r
    }

    /// A node for an error met before its field's node was made; the
    /// failure, recorded.
    fn fail_here<T>(&mut self, o: u32, name: Name, msg: String) -> R<T> {
        if !self.mk {
            return fail(msg);
        }
        let at = self.anchor(o);
        let id = self.node(name, Kind::Struct, at)?;
        self.b.set_error(id, msg);
        Err(Fail::Recorded)
    }

    /// A `pos` instance of a user type, where big parts are decoded when
    /// opened: read for its value without making nodes, then, if the bytes
    /// that read took are a big part, left as a lazy node over them (its
    /// value returned). `None`: read it as any field (also when the read
    /// for its value failed: read again, it shows the failure).
    fn instance_later(&mut self, o: u32, io: u32, a: &Attr) -> R<Option<Val>> {
        let TypeSpec::User { ty, args } = &a.ty else {
            return Ok(None);
        };
        if !self.mk
            || self.b.lazy_threshold().is_none()
            || a.at.is_none()
            || !matches!(a.repeat, Repeat::No)
            || a.size.is_some()
            || a.size_eos
            || a.terminator.is_some()
            || a.process.is_some()
            || a.valid.is_some()
            || self.ios[io as usize].buf.is_some()
        {
            return Ok(None);
        }
        let at = self.ios[io as usize].pos;
        self.mk = false;
        let r = self.one(o, io, a, Name::Static(a.name), None);
        self.mk = true;
        let s = &mut self.ios[io as usize];
        let (end, start) = (s.pos, s.base + at);
        (s.pos, s.bits_left) = (at, 0);
        let v = match r {
            Ok(v) => v,
            Err(Fail::Spent) => return Err(Fail::Spent),
            Err(_) => return Ok(None),
        };
        let n = end.saturating_sub(at);
        if n == 0 || self.b.lazy_threshold().is_some_and(|t| n < t) {
            return Ok(None);
        }
        let name = Name::Static(a.name);
        let params = self.params(o, *ty, args, name.clone(), None)?;
        match self.lazy_object(o, io, *ty, params, name, (at, start, n), true) {
            Some(id) => self.b.tree_mut().set_instance(id, true),
            // The node budget is spent.
            None => return Err(Fail::Spent),
        }
        Ok(Some(v))
    }

    /// Where the nodes of object `o` that claim no bytes sit: its stream's
    /// position, and whether that is in decoded bytes.
    fn anchor(&self, o: u32) -> (BitSpan, bool) {
        let s = &self.ios[self.objs[o as usize].io as usize];
        let at = (s.base + s.pos.min(s.len)) * 8;
        (BitSpan { start: at, end: at }, s.buf.is_some())
    }

    /// A node over `span` (in decoded bytes if `decoded`).
    fn node(&mut self, name: Name, kind: Kind, (span, decoded): (BitSpan, bool)) -> R<NodeId> {
        let id = self.b.node_at(name, kind, span).map_err(|_| Fail::Spent)?;
        if decoded {
            self.b.tree_mut().set_decoded(id, true);
        }
        Ok(id)
    }

    /// Opens a group at `span`'s start (in decoded bytes if `decoded`).
    fn open(&mut self, name: Name, kind: Kind, (span, decoded): (BitSpan, bool)) -> R<NodeId> {
        let id = self
            .b
            .open_at(name, kind, span.start)
            .map_err(|_| Fail::Spent)?;
        if decoded {
            self.b.tree_mut().set_decoded(id, true);
        }
        Ok(id)
    }

    /// Shows value `v` on node `id` (an enum's name in its display).
    fn show(&mut self, id: NodeId, v: &Val) {
        let t = self.b.tree_mut();
        match v {
            Val::Int(n) => {
                if *n >= 0 && *n <= u64::MAX as i128 {
                    t.set_uint(id, *n as u64);
                } else {
                    t.set_value(id, Value::I(*n as i64));
                }
            }
            Val::Enum { e, v } => {
                if *v >= 0 && *v <= u64::MAX as i128 {
                    t.set_uint(id, *v as u64);
                } else {
                    t.set_value(id, Value::I(*v as i64));
                }
                if let Some(n) = self.spec.enums.get(*e as usize).and_then(|d| d.shown(*v)) {
                    self.b
                        .tree_mut()
                        .set_display_render(id, crate::tree::Render::Static(n));
                }
            }
            Val::Float(f) => t.set_value(id, Value::F(*f)),
            Val::Bool(x) => t.set_value(id, Value::Bool(*x)),
            Val::Str(s) => t.set_str(id, s),
            Val::Bytes(b) => {
                if !b.is_empty() && b.len() <= 32 {
                    let text = hex_preview(b);
                    t.set_display_text(id, &text);
                }
            }
            Val::Array(items) => t.set_value(id, Value::U(items.len() as u64)),
            Val::Handle(_) | Val::Nil => {}
        }
    }

    fn find_enum(&self, from: TypeId, path: &[String]) -> Option<usize> {
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        model::find_enum(&self.spec.types, from, &path)
    }

    fn find_type(&self, from: TypeId, path: &[String]) -> Option<TypeId> {
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        model::find_type(&self.spec.types, from, &path)
    }

    /// Bits a value of type `ty` always takes, for `sizeof<…>`.
    fn static_bits(&self, from: TypeId, ty: &TypeName) -> Result<u64, String> {
        let name = ty.path.join("::");
        if ty.array {
            return Err(format!("sizeof<{name}[]>: an array has no fixed size"));
        }
        if ty.path.len() == 1 {
            if let Some(n) = prim_bits(&ty.path[0]) {
                return Ok(n);
            }
        }
        let t = self
            .find_type(from, &ty.path)
            .ok_or_else(|| format!("sizeof: unknown type '{name}'"))?;
        self.type_bits(t, 0)
    }

    fn type_bits(&self, t: TypeId, depth: usize) -> Result<u64, String> {
        if depth > 50 {
            return Err("sizeof: the type contains itself".into());
        }
        // Each type's size is found once (types made of types of types…
        // would otherwise be visited exponentially often).
        if let Some(r) = self.sizes.borrow().get(&t) {
            return r.clone();
        }
        let r = self.type_bits_now(t, depth);
        self.sizes.borrow_mut().insert(t, r.clone());
        r
    }

    fn type_bits_now(&self, t: TypeId, depth: usize) -> Result<u64, String> {
        let def = &self.spec.types[t];
        let mut bits = 0u64;
        for a in &def.seq {
            let one = self.attr_bits(a, depth)?;
            if !matches!(a.ty, TypeSpec::Bits { .. }) {
                bits = bits.div_ceil(8) * 8;
            }
            let n = match &a.repeat {
                Repeat::No => 1,
                Repeat::Expr(e) => const_int(e).ok_or_else(|| {
                    format!(
                        "sizeof<{}>: {} repeats a variable number of times",
                        def.id, a.id
                    )
                })? as u64,
                _ => {
                    return Err(format!(
                        "sizeof<{}>: {} repeats a variable number of times",
                        def.id, a.id
                    ))
                }
            };
            if a.cond.is_some() {
                return Err(format!("sizeof<{}>: {} is conditional", def.id, a.id));
            }
            bits = bits.saturating_add(one.saturating_mul(n));
        }
        Ok(bits)
    }

    fn attr_bits(&self, a: &Attr, depth: usize) -> Result<u64, String> {
        let var = || format!("{} has no fixed size", a.id);
        if let Some(c) = &a.contents {
            return Ok(c.len() as u64 * 8);
        }
        if let Some(s) = &a.size {
            return const_int(s).map(|n| n as u64 * 8).ok_or_else(var);
        }
        match &a.ty {
            TypeSpec::Int { size, .. } | TypeSpec::Float { size, .. } => Ok(*size as u64 * 8),
            TypeSpec::Bits { n, .. } => Ok(*n as u64),
            TypeSpec::User { ty, .. } => self.type_bits(*ty, depth + 1),
            _ => Err(var()),
        }
    }

    // ----- streams -----------------------------------------------------------

    fn slice(&self, io: u32, off: u64, n: u64) -> Vec<u8> {
        let s = &self.ios[io as usize];
        let at = s.base + off;
        match &s.buf {
            Some(b) => b[at as usize..(at + n) as usize].to_vec(),
            None => self.b.peek_bytes(at, n),
        }
    }

    /// Reads `n` bytes at the stream's position (aligned to a byte first).
    fn take(&mut self, io: u32, n: u64, what: &str) -> R<(u64, Vec<u8>)> {
        let at = self.advance(io, n, what)?;
        Ok((at, self.slice(io, at, n)))
    }

    /// Reads `n` bytes (at most 8) at the stream's position, aligned to a
    /// byte first, without allocating.
    fn take_small(&mut self, io: u32, n: u64, what: &str) -> R<(u64, [u8; 8])> {
        let at = self.advance(io, n, what)?;
        Ok((at, self.small(io, at, n).0))
    }

    /// Bytes `[off, off + n)` of stream `io` (n at most 8; checked by the
    /// caller), in a buffer.
    fn small(&self, io: u32, off: u64, n: u64) -> ([u8; 8], usize) {
        let mut buf = [0u8; 8];
        let n = n.min(8) as usize;
        let s = &self.ios[io as usize];
        let at = s.base + off;
        match &s.buf {
            Some(b) => buf[..n].copy_from_slice(&b[at as usize..at as usize + n]),
            None => {
                self.b.source().read_at(at, &mut buf[..n]);
            }
        }
        (buf, n)
    }

    /// Passes `n` bytes at the stream's position (aligned to a byte first),
    /// reading nothing; where they start.
    fn advance(&mut self, io: u32, n: u64, what: &str) -> R<u64> {
        let s = &mut self.ios[io as usize];
        s.bits_left = 0;
        let left = s.len.saturating_sub(s.pos);
        if n > left {
            return fail(format!(
                "expected {what} ({n} bytes) at 0x{:X}, found only {left} before the end of its stream",
                s.pos
            ));
        }
        let at = s.pos;
        s.pos += n;
        Ok(at)
    }

    /// The span of bytes `[at, at + n)` of stream `io`, and whether it is
    /// in decoded bytes (offsets into them) rather than the file.
    fn span(&self, io: u32, at: u64, n: u64) -> (BitSpan, bool) {
        let s = &self.ios[io as usize];
        (
            BitSpan::bytes(s.base + at, s.base + at + n),
            s.buf.is_some(),
        )
    }

    // ----- objects -----------------------------------------------------------

    /// Reads an object of type `ty` from stream `io` (its node named `name`,
    /// or filling `into`, the root); its index.
    fn object(
        &mut self,
        ty: TypeId,
        io: u32,
        parent: Option<u32>,
        params: Vec<Val>,
        name: Option<(Name, Option<u64>)>,
        into: Option<NodeId>,
    ) -> R<u32> {
        if self.depth >= MAX_DEPTH {
            return fail(format!("user types nest deeper than {MAX_DEPTH}"));
        }
        if !self.mk && self.objs.len() >= MAX_OBJECTS {
            return fail("too many objects read for values");
        }
        let spec = self.spec;
        let def = &spec.types[ty];
        let me = self.objs.len() as u32;
        let start = self.ios[io as usize].pos;
        let root = parent.map_or(me, |p| self.objs[p as usize].root);
        self.objs.push(Obj {
            ty,
            parent,
            root,
            io,
            vals: vec![Slot::Unread; def.seq.len() + def.instances.len()],
            params,
            le: None,
            start,
            end: None,
            pending: false,
        });
        // The node: the root's (given) or a struct opened here.
        let node = match (&name, into) {
            (_, Some(id)) => Some(id),
            (Some((n, _)), None) if self.mk => {
                let at = self.span(io, start, 0);
                Some(self.open(n.clone(), Kind::Struct, at)?)
            }
            _ => None,
        };
        self.depth += 1;
        // A switch's value is its case's arguments', not the object's fields'.
        let on = self.on.take();
        let r = self.read_object(me);
        self.on = on;
        self.depth -= 1;
        let end_pos = self.ios[io as usize].pos;
        self.objs[me as usize].end = Some(end_pos);
        if let (Some(id), true) = (node, self.mk) {
            if let Some(label) = self.label(me) {
                self.b.set_display(id, label);
            }
            let r2 = match r {
                Err(Fail::Msg(m)) => {
                    self.b.set_error(id, m);
                    Err(Fail::Recorded)
                }
                other => other,
            };
            if into.is_none() {
                // A sized object spans its whole window.
                let want = name.as_ref().and_then(|n| n.1);
                let s = &self.ios[io as usize];
                // A sized object spans its field's size (its stream may be
                // shorter: the bytes before a terminator).
                let end = want.map_or(end_pos.min(s.len), |w| w.max(end_pos));
                self.b.close_at((s.base + end) * 8);
            }
            r2.map(|_| me)
        } else {
            r.map(|_| me)
        }
    }

    fn read_object(&mut self, me: u32) -> R<()> {
        let spec = self.spec;
        let ty = self.objs[me as usize].ty;
        let def = &spec.types[ty];
        self.objs[me as usize].le = self.endian_of(me)?;
        let io = self.objs[me as usize].io;
        for (k, a) in def.seq.iter().enumerate() {
            let v = self.attr(me, io, a, Name::Static(a.name))?;
            self.objs[me as usize].vals[k] = Slot::Done(if a.used { v } else { Val::Nil });
        }
        if self.mk {
            let n = def.seq.len();
            for k in 0..def.instances.len() {
                match self.instance(me, k, None) {
                    Ok(v) => self.objs[me as usize].vals[n + k] = Slot::Done(v),
                    Err(Fail::Spent) => return Err(Fail::Spent),
                    Err(Fail::Recorded) => {}
                    Err(Fail::Msg(m)) => {
                        let at = self.anchor(me);
                        let a = &def.instances[k];
                        let id = self.node(Name::Static(a.name), Kind::Struct, at)?;
                        self.b.set_error(id, m);
                        self.b.tree_mut().set_instance(id, true);
                    }
                }
            }
        }
        Ok(())
    }

    /// The byte order of object `me`: its type's, else the one of the type
    /// around it, else its parent's.
    fn endian_of(&mut self, me: u32) -> R<Option<bool>> {
        let spec = self.spec;
        let mut t = Some(self.objs[me as usize].ty);
        while let Some(ty) = t {
            match &spec.types[ty].endian {
                Some(EndianSpec::Fixed(e)) => return Ok(Some(*e == Endian::Little)),
                Some(EndianSpec::Switch { on, cases }) => {
                    if ty != self.objs[me as usize].ty {
                        break;
                    }
                    let v = self.eval(me, None, on)?;
                    for (k, e) in cases {
                        let key = self.eval(me, None, k)?;
                        if vals_eq(&v, &key) {
                            return Ok(Some(*e == Endian::Little));
                        }
                    }
                    return fail(format!("no endian case matches {v}"));
                }
                None => t = spec.types[ty].outer,
            }
        }
        Ok(self.objs[me as usize]
            .parent
            .and_then(|p| self.objs[p as usize].le))
    }

    /// The label a type's `-webide-representation` gives object `o`.
    fn label(&mut self, o: u32) -> Option<String> {
        let spec = self.spec;
        let parts = spec.types[self.objs[o as usize].ty].webide.as_ref()?;
        let mut out = String::new();
        for p in parts {
            match p {
                LabelPart::Text(t) => out.push_str(t),
                LabelPart::Value(e, hex) => {
                    let v = e.as_ref().and_then(|e| self.eval(o, None, e).ok());
                    match (&v, hex) {
                        (Some(Val::Int(n)), true) => {
                            let _ = write!(out, "0x{n:X}");
                        }
                        (Some(Val::Str(s)), _) => out.push_str(s),
                        (Some(Val::Enum { e, v }), _) => {
                            match spec.enums[*e as usize].name_of(*v) {
                                Some(name) => out.push_str(name),
                                None => {
                                    let _ = write!(out, "{v}");
                                }
                            }
                        }
                        (Some(v), _) => {
                            let _ = write!(out, "{v}");
                        }
                        (None, _) => out.push('?'),
                    }
                }
            }
        }
        if out.len() > MAX_LABEL {
            let mut cut = MAX_LABEL;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push('…');
        }
        Some(out)
    }

    // ----- fields ------------------------------------------------------------

    /// Reads field `a` of object `o` from stream `io`: its value (`Nil`
    /// when its `if` is false).
    fn attr(&mut self, o: u32, io: u32, a: &Attr, name: Name) -> R<Val> {
        if let Some(c) = &a.cond {
            let v = self.eval(o, None, c);
            match v.and_then(|v| v.truthy().map_err(Fail::Msg)) {
                Ok(false) => return Ok(Val::Nil),
                Ok(true) => {}
                Err(Fail::Msg(m)) => return self.fail_here(o, name, format!("if: {m}")),
                Err(e) => return Err(e),
            }
        }
        if matches!(a.repeat, Repeat::No) {
            return self.one(o, io, a, name, None);
        }
        if let Some((count, size)) = self.pageable(o, io, a) {
            return self.paged(o, io, a, name, count, size);
        }
        if self.skimmable(io, a) {
            if let Some(v) = self.skim_paged(o, io, a, name.clone())? {
                return Ok(v);
            }
        }
        // The list's node, then its elements.
        let list = if self.mk {
            let s = &self.ios[io as usize];
            let at = self.span(io, s.pos.min(s.len), 0);
            Some(self.open(name, Kind::Array, at)?)
        } else {
            None
        };
        let (mut vals, mut n) = (Vec::new(), 0);
        let res = self.repeat(o, io, a, &mut vals, &mut n);
        if let Some(id) = list {
            let s = &self.ios[io as usize];
            let end = (s.base + s.pos.min(s.len)) * 8;
            let res = match res {
                Err(Fail::Msg(m)) => {
                    self.b.set_error(id, m);
                    Err(Fail::Recorded)
                }
                other => other,
            };
            self.b.close_at(end);
            self.b.tree_mut().set_uint(id, n);
            res.map(|_| Val::Array(Arc::new(vals)))
        } else {
            res.map(|_| Val::Array(Arc::new(vals)))
        }
    }

    /// The count and size of the elements of repeated field `a` of object
    /// `o` if its list comes in pages decoded when opened: the builder pages
    /// lists, the list is longer than a page, in the file's bytes, no
    /// expression reads it, and each element takes a size known without
    /// reading it (a constant `size`, or a type of fixed size), so where
    /// each page starts is known.
    fn pageable(&mut self, o: u32, io: u32, a: &Attr) -> Option<(u64, u64)> {
        let page = self.b.page_size()? as u64;
        if !self.mk
            || a.used
            || self.ios[io as usize].buf.is_some()
            || self.b.lazy_threshold().is_none()
        {
            return None;
        }
        if a.process.is_some()
            || a.terminator.is_some()
            || a.contents.is_some()
            || a.valid.is_some()
            || a.cond.is_some()
        {
            return None;
        }
        // Elements that cannot fail once their bytes are there (a failure
        // ends a list, which a page could not know).
        let bits = match (&a.size, &a.ty) {
            (Some(e), TypeSpec::Bytes) => const_int(e).filter(|n| *n > 0)? as u64 * 8,
            (None, TypeSpec::Int { size, .. } | TypeSpec::Float { size, .. }) => *size as u64 * 8,
            _ => return None,
        };
        if bits == 0 || !bits.is_multiple_of(8) || a.size_eos {
            return None;
        }
        let size = bits / 8;
        let s = &self.ios[io as usize];
        let left = s.len.saturating_sub(s.pos);
        let count = match &a.repeat {
            Repeat::Expr(e) => {
                u64::try_from(self.eval_int(o, None, e, "repeat-expr").ok()?).ok()?
            }
            Repeat::Eos if left.is_multiple_of(size) => left / size,
            _ => return None,
        };
        (count > page && count.checked_mul(size)? <= left).then_some((count, size))
    }

    /// Repeated field `a` of object `o`, `count` elements of `size` bytes,
    /// in pages each decoded when opened (see [`Run::pageable`]).
    fn paged(&mut self, o: u32, io: u32, a: &Attr, name: Name, count: u64, size: u64) -> R<Val> {
        let page = self.b.page_size().unwrap_or(1).max(1) as u64;
        let from = self.ios[io as usize].pos;
        let at = self.span(io, from, 0);
        let list = self.open(name, Kind::Array, at)?;
        let (ty, k, instance) = self.attr_place(o, a);
        let base = self.ios[io as usize].base;
        let mut first = 0;
        while first < count {
            let last = (first + page).min(count) - 1;
            let start = from + first * size;
            let len = (last - first + 1) * size;
            let open = self.page_of(o, io, (ty, k, instance), (first, last), start, len);
            if self.b.page(first, last, base + start, len, open).is_err() {
                break;
            }
            first = last + 1;
        }
        let s = &mut self.ios[io as usize];
        (s.pos, s.bits_left) = (from + count * size, 0);
        self.b.close_at((base + from + count * size) * 8);
        self.b.tree_mut().set_uint(list, count);
        Ok(Val::Nil)
    }

    /// True if repeated field `a` may come in pages found by reading its
    /// elements without making their nodes (see [`Run::skim_paged`]): a
    /// `repeat: eos` of objects, in the file's bytes, that no expression
    /// reads, when the builder pages lists and leaves parts lazy.
    fn skimmable(&self, io: u32, a: &Attr) -> bool {
        self.mk
            && !a.used
            && matches!(a.repeat, Repeat::Eos)
            && matches!(a.ty, TypeSpec::User { .. } | TypeSpec::Switch { .. })
            && self.ios[io as usize].buf.is_none()
            && self.b.page_size().is_some()
            && self.b.lazy_threshold().is_some()
            && a.process.is_none()
            && a.terminator.is_none()
            && a.contents.is_none()
            && a.valid.is_none()
            && a.cond.is_none()
            && a.size.is_none()
            && !a.size_eos
    }

    /// Repeated field `a` of object `o` (see [`Run::skimmable`]), its
    /// elements' sizes known only by reading them: read for where each page
    /// of elements starts, without making a node, then made a list of
    /// pages, each decoded when opened. The tree holds a node per page until
    /// one is opened, whatever the list's length. Past [`SKIM_FIRST`] bytes
    /// (at a page's end) the reading pauses: the list's last node is then
    /// its rest, a lazy node that reads on when opened ([`RestCtx`],
    /// [`Tree::is_rest`]). `None` (the stream put back where the list
    /// starts) when the list is not longer than a page or an element before
    /// the pause fails or reads nothing: it is then read as any list is,
    /// which shows the failure where it is.
    fn skim_paged(&mut self, o: u32, io: u32, a: &Attr, name: Name) -> R<Option<Val>> {
        let Some(page) = self.b.page_size().map(|p| p.max(1) as u64) else {
            return Ok(None);
        };
        let from = self.ios[io as usize].pos;
        // A dump that must be what an eager decode writes reads it all.
        let budget = if self.b.exact_totals() {
            u64::MAX
        } else {
            SKIM_FIRST
        };
        let sk = self.skim(o, io, a, 0, page, budget)?;
        if sk.end == Ended::Failed || sk.count <= page && sk.end == Ended::Whole {
            let s = &mut self.ios[io as usize];
            (s.pos, s.bits_left) = (from, 0);
            return Ok(None);
        }
        let at = self.span(io, from, 0);
        let list = self.open(name, Kind::Array, at)?;
        let place = self.attr_place(o, a);
        self.pages_of(o, io, place, 0, page, &sk);
        let s = &mut self.ios[io as usize];
        let stop = if sk.end == Ended::Paused {
            s.len
        } else {
            sk.to
        };
        (s.pos, s.bits_left) = (stop, 0);
        let base = s.base;
        if sk.end == Ended::Paused {
            self.rest(o, io, place, sk.count, sk.to);
        } else {
            self.b.tree_mut().set_uint(list, sk.count);
        }
        self.b.close_at((base + stop) * 8);
        Ok(Some(Val::Nil))
    }

    /// Reads the elements of repeated field `a` of object `o` from the
    /// stream's position on, element `first` the first, without making
    /// nodes: to the stream's end, an element that fails or reads nothing,
    /// or the first page's end past `budget` bytes.
    fn skim(&mut self, o: u32, io: u32, a: &Attr, first: u64, page: u64, budget: u64) -> R<Skim> {
        let from = self.ios[io as usize].pos;
        let mut starts = vec![from];
        let mut count = 0u64;
        self.mk = false;
        let end = loop {
            let s = &self.ios[io as usize];
            if s.pos >= s.len && s.bits_left == 0 {
                break Ended::Whole;
            }
            if first + count >= MAX_REPEAT {
                break Ended::Failed;
            }
            if count > 0 && count.is_multiple_of(page) && s.pos - from >= budget {
                break Ended::Paused;
            }
            let before = (s.pos, s.bits_left);
            let i = first + count;
            let index = Name::Index(i.min(u32::MAX as u64) as u32);
            // The element's objects and streams: nothing outside it reads
            // them (no expression reads the list), so they go once it is read.
            let marks = (self.objs.len(), self.ios.len());
            let r = self.one(o, io, a, index, Some(i as i128));
            self.objs.truncate(marks.0);
            self.ios.truncate(marks.1);
            match r {
                Ok(_) => {}
                Err(Fail::Spent) => {
                    self.mk = true;
                    return Err(Fail::Spent);
                }
                Err(_) => break Ended::Failed,
            }
            let s = &self.ios[io as usize];
            if (s.pos, s.bits_left) == before || s.bits_left != 0 {
                break Ended::Failed;
            }
            count += 1;
            if count.is_multiple_of(page) {
                starts.push(s.pos);
            }
        };
        self.mk = true;
        let s = &mut self.ios[io as usize];
        let to = if end == Ended::Failed {
            // The pages end with the last whole one read.
            count -= count % page;
            starts.truncate((count / page) as usize + 1);
            starts[starts.len() - 1]
        } else {
            s.pos
        };
        s.bits_left = 0;
        Ok(Skim {
            starts,
            count,
            to,
            end,
        })
    }

    /// The pages of the elements `sk` read, element `first` the first.
    fn pages_of(
        &mut self,
        o: u32,
        io: u32,
        place: (TypeId, usize, bool),
        first: u64,
        page: u64,
        sk: &Skim,
    ) {
        let base = self.ios[io as usize].base;
        for (p, &start) in sk.starts.iter().enumerate() {
            let k = p as u64 * page;
            if k >= sk.count {
                break;
            }
            let last = (k + page).min(sk.count) - 1;
            let len = sk.starts.get(p + 1).copied().unwrap_or(sk.to) - start;
            let open = self.page_of(o, io, place, (first + k, first + last), start, len);
            if self
                .b
                .page(first + k, first + last, base + start, len, open)
                .is_err()
            {
                break;
            }
        }
    }

    /// The rest of a list read as far as byte `at` of stream `io`
    /// (elements `first` on): a lazy node to the stream's end, read ahead
    /// by the viewer ([`Tree::read_ahead`]), that shows as pages what was
    /// read when opened.
    fn rest(&mut self, o: u32, io: u32, place: (TypeId, usize, bool), first: u64, at: u64) {
        let s = &self.ios[io as usize];
        let (base, len) = (s.base, s.len - at);
        let ctx = Arc::new(RestCtx {
            spec: self.shared.clone(),
            frozen: self.frozen.clone(),
            o,
            io,
            place,
            first,
            lazy: self.b.lazy_threshold(),
            page: self.b.page_size(),
            state: std::sync::Mutex::new(Skim {
                starts: vec![at],
                count: 0,
                to: at,
                end: Ended::Paused,
            }),
        });
        let name = Name::from(format!("[{first}…]"));
        let label = Some(format!("entries {first} on, not read yet: open to read on"));
        let open = {
            let ctx = ctx.clone();
            move |b: &mut Builder| ctx.open(b)
        };
        if let Some(id) = self
            .b
            .lazy_always(name, Kind::Array, base + at, len, label, open)
        {
            // Looked through as a page is: its elements are the list's.
            self.b.set_page(id);
            self.b.tree_mut().set_rest(id, ctx);
        }
    }

    /// What decodes a page of a repeated field of object `o` when it is
    /// opened: elements `first..=last` of the field at `place` (its type,
    /// its index, whether it is an instance; see [`Run::attr_place`]), read
    /// from byte `start` of stream `io`, `len` bytes in all.
    fn page_of(
        &self,
        o: u32,
        io: u32,
        (ty, k, instance): (TypeId, usize, bool),
        (first, last): (u64, u64),
        start: u64,
        len: u64,
    ) -> impl Fn(&mut Builder) -> DResult<()> + Send + Sync + 'static {
        let (spec, frozen) = (self.shared.clone(), self.frozen.clone());
        move |b: &mut Builder| -> DResult<()> {
            let Some(arena) = frozen.get() else {
                let at = b.current();
                b.set_error(at, "the decode this page belongs to did not finish");
                return Err(Stop);
            };
            let mut run = Run::new(&spec, b, arena.objs.clone(), arena.ios.clone(), len);
            let s = &mut run.ios[io as usize];
            (s.pos, s.bits_left) = (start, 0);
            let a = attr_at(&spec, (ty, k, instance));
            let at = run.b.current();
            let mut r = Ok(());
            for i in first..=last {
                let index = Name::Index(i.min(u32::MAX as u64) as u32);
                if let Err(f) = run.one(o, io, a, index, Some(i as i128)) {
                    r = Err(f);
                    break;
                }
            }
            run.end(r, at)
        }
    }

    /// Where field `a` of object `o` is defined: its type, its index, and
    /// whether it is an instance.
    fn attr_place(&self, o: u32, a: &Attr) -> (TypeId, usize, bool) {
        let ty = self.objs[o as usize].ty;
        let def = &self.spec.types[ty];
        match def.seq.iter().position(|x| std::ptr::eq(x, a)) {
            Some(k) => (ty, k, false),
            None => (
                ty,
                def.instances
                    .iter()
                    .position(|x| std::ptr::eq(x, a))
                    .unwrap_or(0),
                true,
            ),
        }
    }

    /// The elements of repeated field `a`: all of them, or those read
    /// before the failure.
    /// Reads the elements of repeated field `a`: their values onto `vals`
    /// if an expression may read them, and their count into `n`.
    fn repeat(&mut self, o: u32, io: u32, a: &Attr, vals: &mut Vec<Val>, n: &mut u64) -> R<()> {
        let count = match &a.repeat {
            Repeat::Expr(e) => {
                match self.eval_int(o, None, e, "repeat-expr") {
                    Ok(n) if (0..=MAX_REPEAT as i128).contains(&n) => Some(n),
                    Ok(n) => {
                        let m = format!("repeat-expr is {n}: not a count this decoder takes (0 to {MAX_REPEAT})");
                        return Err(Fail::Msg(m));
                    }
                    Err(f) => return Err(f),
                }
            }
            _ => None,
        };
        let mut i = 0i128;
        let mut empty = 0u32;
        *n = self.int_run(o, io, a, count, vals)?;
        i += *n as i128;
        loop {
            let s = &self.ios[io as usize];
            let before = (s.pos, s.bits_left);
            match (&a.repeat, count) {
                (_, Some(n)) if i >= n => break,
                // A stream is at its end when no byte and no bit is left.
                (Repeat::Eos, _) if s.pos >= s.len && s.bits_left == 0 => break,
                _ if i as u64 >= MAX_REPEAT => {
                    return Err(Fail::Msg(format!("more than {MAX_REPEAT} elements")));
                }
                _ => {}
            }
            let name = Name::Index(i.min(u32::MAX as i128) as u32);
            let v = self.one(o, io, a, name, Some(i))?;
            match &a.repeat {
                Repeat::Eos
                    if (self.ios[io as usize].pos, self.ios[io as usize].bits_left) == before =>
                {
                    let m = format!(
                        "element {i} of repeat: eos read no bytes: it would repeat for ever"
                    );
                    if a.used {
                        vals.push(v);
                    }
                    *n += 1;
                    return Err(Fail::Msg(m));
                }
                Repeat::Until(cond) => {
                    // Elements that read nothing may repeat until the
                    // condition holds, but not without end.
                    let s = &self.ios[io as usize];
                    empty = if (s.pos, s.bits_left) == before {
                        empty + 1
                    } else {
                        0
                    };
                    if empty > MAX_EMPTY {
                        let m = format!("repeat-until: {MAX_EMPTY} elements in a row read no bytes and the condition is still false");
                        return Err(Fail::Msg(m));
                    }
                    if a.used {
                        vals.push(v.clone());
                    }
                    *n += 1;
                    let mut steps = self.steps;
                    let mut c = Ctx {
                        run: self,
                        obj: o,
                        index: Some(i),
                        it: Some(v),
                        on: None,
                    };
                    let done =
                        expr::eval_with_budget(cond, &mut c, &mut steps).and_then(|v| v.truthy());
                    self.steps = steps;
                    match done {
                        Ok(true) => break,
                        Ok(false) => {}
                        Err(m) => return Err(Fail::Msg(format!("repeat-until: {m}"))),
                    }
                }
                // What no expression reads is not kept.
                _ => {
                    if a.used {
                        vals.push(v);
                    }
                    *n += 1;
                }
            }
            i += 1;
        }
        Ok(())
    }

    /// Reads at once the elements of a `repeat: expr` or `repeat: eos` list
    /// of plain integers (no size, `valid` or `process` of their own) that
    /// are wholly in the stream and within the work budget, pushing their
    /// values onto `vals`: what the element-by-element loop would read,
    /// without its per-element dispatch. The loop goes on from where this
    /// stops, to the list's end or to the element that fails.
    fn int_run(
        &mut self,
        o: u32,
        io: u32,
        a: &Attr,
        count: Option<i128>,
        vals: &mut Vec<Val>,
    ) -> R<u64> {
        let TypeSpec::Int {
            size,
            signed,
            endian,
        } = a.ty
        else {
            return Ok(0);
        };
        if a.contents.is_some()
            || a.size.is_some()
            || a.size_eos
            || a.terminator.is_some()
            || a.process.is_some()
            || a.valid.is_some()
            || !matches!(a.repeat, Repeat::Expr(_) | Repeat::Eos)
        {
            return Ok(0);
        }
        let le = match endian {
            Some(e) => e == Endian::Little,
            None if size == 1 => true,
            None => match self.objs[o as usize].le {
                Some(le) => le,
                // The element's own read reports the missing byte order.
                None => return Ok(0),
            },
        };
        let size = size as u64;
        let s = &self.ios[io as usize];
        let whole = s.len.saturating_sub(s.pos) / size;
        let n = count
            .map_or(whole, |c| (c.max(0) as u64).min(whole))
            .min(self.steps)
            .min(MAX_REPEAT);
        if n == 0 {
            return Ok(0);
        }
        let at = s.pos;
        let raw = self.slice(io, at, n * size);
        let s = &mut self.ios[io as usize];
        s.bits_left = 0;
        s.pos = at + n * size;
        self.steps -= n;
        let kind = int_kind(size, signed);
        let shift = 64 - 8 * size as u32;
        // Signed values sign-extended to 64 bits.
        let ext = |v: u64| {
            if signed {
                ((v << shift) as i64 >> shift) as u64
            } else {
                v
            }
        };
        let raw: Vec<u64> = match (size, le) {
            (1, _) => raw.iter().map(|&b| ext(b as u64)).collect(),
            (2, true) => raw
                .chunks_exact(2)
                .map(|b| ext(u16::from_le_bytes([b[0], b[1]]) as u64))
                .collect(),
            (2, false) => raw
                .chunks_exact(2)
                .map(|b| ext(u16::from_be_bytes([b[0], b[1]]) as u64))
                .collect(),
            (4, true) => raw
                .chunks_exact(4)
                .map(|b| ext(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64))
                .collect(),
            (4, false) => raw
                .chunks_exact(4)
                .map(|b| ext(u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as u64))
                .collect(),
            (_, le) => raw
                .chunks_exact(8)
                .map(|b| {
                    let a: [u8; 8] = b.try_into().expect("8 bytes");
                    if le {
                        u64::from_le_bytes(a)
                    } else {
                        u64::from_be_bytes(a)
                    }
                })
                .collect(),
        };
        let val = |v: u64| {
            let v = if signed { v as i64 as i128 } else { v as i128 };
            match a.enum_ {
                Some(e) => Val::Enum { e: e as u32, v },
                None => Val::Int(v),
            }
        };
        if self.mk {
            let (sp, decoded) = self.span(io, at, size);
            if a.enum_.is_none() && !decoded {
                self.b
                    .int_leaves(kind, (sp.start, size * 8), 0, &raw, signed)
                    .map_err(|_| Fail::Spent)?;
            } else {
                for (k, &v) in raw.iter().enumerate() {
                    let sp = self.span(io, at + k as u64 * size, size);
                    let id = self.node(Name::Index(k as u32), kind, sp)?;
                    self.show(id, &val(v));
                }
            }
        }
        if a.used {
            vals.extend(raw.iter().map(|&v| val(v)));
        }
        Ok(n)
    }

    /// The type a field reads, its switch resolved.
    fn pick<'t>(
        &mut self,
        o: u32,
        index: Option<i128>,
        t: &'t TypeSpec,
    ) -> R<(&'t TypeSpec, Option<Val>)> {
        let TypeSpec::Switch { on, cases, default } = t else {
            return Ok((t, None));
        };
        let v = self.eval(o, index, on)?;
        for (k, ty) in cases {
            let key = self.eval(o, index, k)?;
            if vals_eq(&v, &key) {
                return Ok((ty, Some(v)));
            }
        }
        match default {
            Some(d) => Ok((d, Some(v))),
            None => Ok((&TypeSpec::Bytes, Some(v))),
        }
    }

    /// Reads one value of field `a` (element `index` of a repeated one).
    fn one(&mut self, o: u32, io: u32, a: &Attr, name: Name, index: Option<i128>) -> R<Val> {
        if self.steps == 0 {
            let m =
                "the decode's work budget is spent (a repeat or a recursion that does not end?)";
            return match self.fail_here::<Val>(o, name, m.into()) {
                Err(Fail::Recorded) => Err(Fail::Spent),
                other => other,
            };
        }
        self.steps -= 1;
        let (ty, on) = match self.pick(o, index, &a.ty) {
            Ok(t) => t,
            Err(Fail::Msg(m)) => return self.fail_here(o, name, format!("switch-on: {m}")),
            Err(e) => return Err(e),
        };
        // The chosen case's arguments may name the switch's value, `_on`.
        let outer = std::mem::replace(&mut self.on, on);
        let r = self.one_of(o, io, a, ty, name, index);
        self.on = outer;
        r
    }

    /// Reads one value of field `a` as type `ty` (its switch resolved).
    fn one_of(
        &mut self,
        o: u32,
        io: u32,
        a: &Attr,
        ty: &TypeSpec,
        name: Name,
        index: Option<i128>,
    ) -> R<Val> {
        if let Some(c) = &a.contents {
            return self.contents(io, c, name);
        }
        // A size, given or found by a terminator: the field is that run of
        // bytes (processed if it says so), read as its type.
        let sized = a.size.is_some()
            || a.size_eos
            || (a.terminator.is_some() && !matches!(ty, TypeSpec::Str { z: true }));
        let untyped_switch =
            matches!(a.ty, TypeSpec::Switch { .. }) && matches!(ty, TypeSpec::Bytes) && !sized;
        if untyped_switch {
            // No case matches and the field has no size: it reads nothing
            // (as Kaitai's parsers do).
            return Ok(Val::Nil);
        }
        if sized || a.process.is_some() {
            return self.sized(o, io, a, ty, name, index);
        }
        let v = match ty {
            TypeSpec::Int {
                size,
                signed,
                endian,
            } => self.int(o, io, *size, *signed, *endian, name.clone(), a),
            TypeSpec::Float { size, endian } => self.float(o, io, *size, *endian, name.clone()),
            TypeSpec::Bits { n, le } => self.bits(o, io, *n, *le, name.clone(), a),
            TypeSpec::Str { .. } => self.strz(o, io, a, name.clone()),
            TypeSpec::User { ty, args } => self.user(o, io, *ty, args, name.clone(), index, None),
            TypeSpec::Bytes | TypeSpec::Switch { .. } => {
                self.fail_here(o, name.clone(), "a byte array needs a size".into())
            }
        }?;
        self.valid(o, a, &v, name, index)?;
        Ok(v)
    }

    fn contents(&mut self, io: u32, want: &[u8], name: Name) -> R<Val> {
        let n = want.len() as u64;
        let s = &self.ios[io as usize];
        let at = s.pos;
        let avail = s.len.saturating_sub(at).min(n);
        let got = self.slice(io, at, avail);
        let sp = self.span(io, at, avail);
        let ok = got == want;
        if self.mk {
            let id = self.node(name, Kind::Bytes, sp)?;
            self.show(id, &Val::Bytes(got.clone().into()));
            if !ok {
                self.b.set_error(
                    id,
                    format!(
                        "expected contents {}, found {}",
                        hex_preview(want),
                        if got.is_empty() {
                            "the end of the stream".into()
                        } else {
                            hex_preview(&got)
                        }
                    ),
                );
                return Err(Fail::Recorded);
            }
        } else if !ok {
            return fail(format!(
                "expected contents {}, found {}",
                hex_preview(want),
                hex_preview(&got)
            ));
        }
        self.ios[io as usize].pos += n;
        self.ios[io as usize].bits_left = 0;
        Ok(Val::Bytes(got.into()))
    }

    /// A leaf's node over `[at, at + n)` of `io`, showing `v`; a failure
    /// message becomes the error of a node over what there is.
    fn leaf(
        &mut self,
        io: u32,
        name: Name,
        kind: Kind,
        at: u64,
        n: u64,
        v: &Val,
    ) -> R<Option<NodeId>> {
        if !self.mk {
            return Ok(None);
        }
        let sp = self.span(io, at, n);
        let id = self.node(name, kind, sp)?;
        self.show(id, v);
        Ok(Some(id))
    }

    /// A read that failed at the stream's position: its error on a node
    /// over what is left of the stream.
    fn read_fail<T>(&mut self, io: u32, name: Name, kind: Kind, msg: String) -> R<T> {
        let s = &self.ios[io as usize];
        let at = s.pos.min(s.len);
        let left = s.len - at;
        self.fail_at(io, name, kind, at, left, msg)
    }

    #[allow(clippy::too_many_arguments)]
    fn int(
        &mut self,
        o: u32,
        io: u32,
        size: u8,
        signed: bool,
        endian: Option<Endian>,
        name: Name,
        a: &Attr,
    ) -> R<Val> {
        let kind = int_kind(size as u64, signed);
        let le = match endian {
            Some(e) => e == Endian::Little,
            None if size == 1 => true,
            None => match self.objs[o as usize].le {
                Some(le) => le,
                None => {
                    return self.fail_here(
                        o,
                        name,
                        format!(
                            "{}: a {size}-byte integer without a byte order (no meta/endian)",
                            a.path
                        ),
                    )
                }
            },
        };
        let (at, bytes) = match self.take_small(io, size as u64, "an integer") {
            Ok(x) => x,
            Err(Fail::Msg(m)) => return self.read_fail(io, name, kind, m),
            Err(e) => return Err(e),
        };
        let mut v: u64 = 0;
        for i in 0..size as usize {
            let b = if le {
                bytes[size as usize - 1 - i]
            } else {
                bytes[i]
            };
            v = (v << 8) | b as u64;
        }
        let val = if signed {
            let shift = 64 - 8 * size as u32;
            ((v << shift) as i64 >> shift) as i128
        } else {
            v as i128
        };
        let val = match a.enum_ {
            Some(e) => Val::Enum {
                e: e as u32,
                v: val,
            },
            None => Val::Int(val),
        };
        self.leaf(io, name, kind, at, size as u64, &val)?;
        Ok(val)
    }

    fn float(&mut self, o: u32, io: u32, size: u8, endian: Option<Endian>, name: Name) -> R<Val> {
        let kind = if size == 4 { Kind::F32 } else { Kind::F64 };
        let le = match endian
            .map(|e| e == Endian::Little)
            .or(self.objs[o as usize].le)
        {
            Some(le) => le,
            None => {
                return self.fail_here(
                    o,
                    name,
                    "a float without a byte order (no meta/endian)".into(),
                )
            }
        };
        let (at, b) = match self.take_small(io, size as u64, "a float") {
            Ok(x) => x,
            Err(Fail::Msg(m)) => return self.read_fail(io, name, kind, m),
            Err(e) => return Err(e),
        };
        let v = if size == 4 {
            let a = [b[0], b[1], b[2], b[3]];
            (if le {
                f32::from_le_bytes(a)
            } else {
                f32::from_be_bytes(a)
            }) as f64
        } else {
            let a = [b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]];
            if le {
                f64::from_le_bytes(a)
            } else {
                f64::from_be_bytes(a)
            }
        };
        let val = Val::Float(v);
        self.leaf(io, name, kind, at, size as u64, &val)?;
        Ok(val)
    }

    fn bits(&mut self, _o: u32, io: u32, n: u8, le: bool, name: Name, a: &Attr) -> R<Val> {
        // `b1` is a boolean, unless an enum names its values.
        let kind = if n == 1 && a.enum_.is_none() {
            Kind::Bool
        } else {
            Kind::Bits
        };
        let n = n as u32;
        let s = &self.ios[io as usize];
        // Where the field starts, in bits from the stream's start.
        let at_bits = s.pos * 8 - s.bits_left as u64;
        let need = n.saturating_sub(s.bits_left as u32);
        let bytes = need.div_ceil(8) as u64;
        if bytes > s.len.saturating_sub(s.pos) {
            let msg = format!(
                "expected {n} bits at 0x{:X}, found only {} bytes before the end of its stream",
                s.pos,
                s.len.saturating_sub(s.pos)
            );
            return self.read_fail(io, name, kind, msg);
        }
        let pos = s.pos;
        let (new, _) = self.small(io, pos, bytes);
        let new = &new[..bytes as usize];
        let s = &mut self.ios[io as usize];
        let mut acc = s.bits as u128;
        let mut left = s.bits_left as u32;
        for (k, &b) in new.iter().enumerate() {
            if le {
                acc |= (b as u128) << (left + 8 * k as u32);
            } else {
                acc = (acc << 8) | b as u128;
            }
        }
        left += 8 * bytes as u32;
        let v: u64;
        if le {
            v = (acc & ((1u128 << n) - 1)) as u64;
            acc >>= n;
            left -= n;
        } else {
            left -= n;
            v = ((acc >> left) & ((1u128 << n) - 1)) as u64;
            acc &= (1u128 << left) - 1;
        }
        s.bits = acc as u64;
        s.bits_left = left as u8;
        s.pos += bytes;
        let val = if n == 1 && a.enum_.is_none() {
            Val::Bool(v == 1)
        } else {
            match a.enum_ {
                Some(e) => Val::Enum {
                    e: e as u32,
                    v: v as i128,
                },
                None => Val::Int(v as i128),
            }
        };
        if self.mk {
            let s = &self.ios[io as usize];
            let sp = if le {
                BitSpan {
                    start: s.base * 8 + at_bits,
                    end: s.base * 8 + at_bits + n as u64,
                }
            } else {
                // Big-endian bit order counts from a byte's top bit; the
                // tree counts bits from the bottom. Within one byte the
                // span is exact; across bytes it is every byte touched.
                let first = at_bits / 8;
                let last = (at_bits + n as u64 - 1) / 8;
                if first == last {
                    let o = at_bits % 8;
                    let lo = 8 - o - n as u64;
                    BitSpan {
                        start: (s.base + first) * 8 + lo,
                        end: (s.base + first) * 8 + 8 - o,
                    }
                } else {
                    BitSpan::bytes(s.base + first, s.base + last + 1)
                }
            };
            let decoded = s.buf.is_some();
            let id = self.node(name, kind, (sp, decoded))?;
            self.show(id, &val);
        }
        Ok(val)
    }

    /// A `strz` (or a `str` with a terminator and no size).
    fn strz(&mut self, o: u32, io: u32, a: &Attr, name: Name) -> R<Val> {
        let _ = o;
        let term = a.terminator.unwrap_or(0);
        let (at, raw, _) = match self.until_terminator(io, term, a) {
            Ok(x) => x,
            Err(Fail::Msg(m)) => return self.read_fail(io, name, Kind::Str, m),
            Err(e) => return Err(e),
        };
        let text = self.text(a, &raw)?;
        let len = self.ios[io as usize].pos - at;
        self.leaf(io, name, Kind::Str, at, len, &text)?;
        Ok(text)
    }

    /// Reads up to terminator `term`: where it started, the value's bytes
    /// (with the terminator if `include`), and whether it was found.
    fn until_terminator(&mut self, io: u32, term: u8, a: &Attr) -> R<(u64, Vec<u8>, bool)> {
        let s = &mut self.ios[io as usize];
        s.bits_left = 0;
        let at = s.pos;
        let len = s.len;
        let mut end = at;
        let mut found = false;
        // Scan in blocks.
        while end < len {
            let n = (len - end).min(4096);
            let block = self.slice(io, end, n);
            if let Some(k) = block.iter().position(|&b| b == term) {
                end += k as u64;
                found = true;
                break;
            }
            end += n;
        }
        if !found && a.eos_error {
            return fail(format!(
                "no terminator 0x{term:02X} after 0x{at:X} before the end of its stream"
            ));
        }
        let take = if found && a.include {
            end + 1 - at
        } else {
            end - at
        };
        let bytes = self.slice(io, at, take);
        let s = &mut self.ios[io as usize];
        s.pos = if found && a.consume { end + 1 } else { end };
        Ok((at, bytes, found))
    }

    fn text(&mut self, a: &Attr, raw: &[u8]) -> R<Val> {
        let enc = a.encoding.as_deref().unwrap_or("UTF-8");
        let e = Encoding::from_name(enc)
            .ok_or_else(|| Fail::Msg(format!("unknown encoding '{enc}'")))?;
        Ok(Val::Str(e.decode(raw).into()))
    }

    /// A field with a size (given, to the end, or to a terminator): its
    /// bytes, processed, read as its type.
    fn sized(
        &mut self,
        o: u32,
        io: u32,
        a: &Attr,
        ty: &TypeSpec,
        name: Name,
        index: Option<i128>,
    ) -> R<Val> {
        let kind = match ty {
            TypeSpec::Str { .. } => Kind::Str,
            TypeSpec::User { .. } => Kind::Struct,
            _ => Kind::Bytes,
        };
        self.ios[io as usize].bits_left = 0;
        let at = self.ios[io as usize].pos;
        let (mut raw, n) = if let Some(e) = &a.size {
            let n = match self.eval_int(o, index, e, "size") {
                Ok(n) => n,
                Err(Fail::Msg(m)) => return self.fail_here(o, name, format!("size: {m}")),
                Err(f) => return Err(f),
            };
            let left = {
                let s = &self.ios[io as usize];
                s.len.saturating_sub(s.pos)
            };
            let n = match u64::try_from(n) {
                Ok(n) if n <= left => n as i128,
                _ => {
                    let at = self.ios[io as usize].pos;
                    let m = if n < 0 {
                        format!("size is {n}")
                    } else {
                        format!("expected the field's bytes ({n} bytes) at 0x{at:X}, found only {left} before the end of its stream")
                    };
                    return self.read_fail(io, name, kind, m);
                }
            };
            // A long plain run of bytes is not copied (a 64 MB sample body).
            let plain = matches!(ty, TypeSpec::Bytes)
                && a.process.is_none()
                && a.pad_right.is_none()
                && a.terminator.is_none()
                && a.valid.is_none();
            // One no expression reads is read only for its preview.
            let keep = if a.used { LAZY_BYTES } else { PREVIEW_BYTES };
            if plain && n as u64 > keep {
                let at = match self.advance(io, n as u64, "the field's bytes") {
                    Ok(at) => at,
                    Err(Fail::Msg(m)) => return self.read_fail(io, name, kind, m),
                    Err(f) => return Err(f),
                };
                let v = handle(Ref::Bytes(io, at, n as u64));
                self.leaf(io, name, Kind::Bytes, at, n as u64, &v)?;
                return Ok(v);
            }
            match self.take(io, n as u64, "the field's bytes") {
                Ok((_, b)) => (b, n as u64),
                Err(Fail::Msg(m)) => return self.read_fail(io, name, kind, m),
                Err(f) => return Err(f),
            }
        } else if a.size_eos {
            let s = &self.ios[io as usize];
            let n = s.len.saturating_sub(s.pos);
            (self.take(io, n, "the rest")?.1, n)
        } else {
            let term = a.terminator.unwrap_or(0);
            match self.until_terminator(io, term, a) {
                Ok((_, b, _)) => {
                    let n = self.ios[io as usize].pos - at;
                    (b, n)
                }
                Err(Fail::Msg(m)) => return self.read_fail(io, name, kind, m),
                Err(f) => return Err(f),
            }
        };
        // With a size, pad-right is stripped and a terminator ends the value.
        if a.size.is_some() || a.size_eos {
            if let Some(p) = a.pad_right {
                while raw.last() == Some(&p) {
                    raw.pop();
                }
            }
            // A sized `strz` ends at its first NUL.
            let term = a
                .terminator
                .or(matches!(ty, TypeSpec::Str { z: true }).then_some(0));
            if let Some(t) = term {
                if let Some(k) = raw.iter().position(|&b| b == t) {
                    raw.truncate(if a.include { k + 1 } else { k });
                }
            }
        }
        let data: Arc<[u8]> = match &a.process {
            Some(p) => match self.process(o, index, p, raw) {
                Ok(d) => d.into(),
                Err(Fail::Msg(m)) => {
                    // The field's size is known: its node says why its bytes
                    // are not decoded, and the fields after it are read.
                    return match self.fail_at::<Val>(io, name, kind, at, n, format!("process: {m}"))
                    {
                        Err(Fail::Recorded) => Ok(Val::Nil),
                        other => other,
                    };
                }
                Err(f) => return Err(f),
            },
            None => raw.into(),
        };
        let processed = a.process.is_some();
        let v = match ty {
            TypeSpec::Bytes | TypeSpec::Switch { .. } => {
                let v = Val::Bytes(data.clone());
                let id = self.leaf(io, name.clone(), Kind::Bytes, at, n, &v)?;
                if let (Some(id), true) = (id, processed) {
                    self.b.tree_mut().set_inner(id, data);
                }
                v
            }
            TypeSpec::Str { .. } => {
                let v = self.text(a, &data)?;
                let id = self.leaf(io, name.clone(), Kind::Str, at, n, &v)?;
                if let (Some(id), true) = (id, processed) {
                    self.b.tree_mut().set_inner(id, data);
                }
                v
            }
            _ => {
                // A stream of its own: the window, or the processed bytes.
                let s = &self.ios[io as usize];
                let len = data.len() as u64;
                let sub = if processed {
                    Io {
                        buf: Some(data.clone()),
                        base: 0,
                        len,
                        pos: 0,
                        bits: 0,
                        bits_left: 0,
                    }
                } else {
                    Io {
                        buf: s.buf.clone(),
                        base: s.base + at,
                        len,
                        pos: 0,
                        bits: 0,
                        bits_left: 0,
                    }
                };
                let sub_io = self.ios.len() as u32;
                self.ios.push(sub);
                if processed && self.mk {
                    // The field's node spans its bytes in its own stream;
                    // what they decode to is read into it, at offsets into
                    // the decoded bytes.
                    let raw = self.span(io, at, n);
                    let holder = self.open(name.clone(), kind, raw)?;
                    self.b.tree_mut().set_inner(holder, data);
                    let r = match ty {
                        TypeSpec::User { ty, args } => self
                            .params(o, *ty, args, name.clone(), index)
                            .and_then(|params| {
                                self.object(*ty, sub_io, Some(o), params, None, Some(holder))
                                    .map(|me| handle(Ref::Obj(me)))
                            }),
                        _ => self.prim_in(o, sub_io, ty, a, Name::Static("value")),
                    };
                    let r = match r {
                        Err(Fail::Msg(m)) => {
                            self.b.set_error(holder, m);
                            Err(Fail::Recorded)
                        }
                        other => other,
                    };
                    self.b.close_at(raw.0.end);
                    // A sized field contains its failure.
                    r.unwrap_or(Val::Nil)
                } else if let (TypeSpec::User { ty, args }, true) = (ty, self.leave(io, at, n)) {
                    // Big enough to be decoded when opened.
                    let start = self.ios[io as usize].base + at;
                    match self.later(o, sub_io, *ty, args, name.clone(), index, start, n) {
                        Ok(v) => v,
                        Err(Fail::Recorded) => Val::Nil,
                        Err(e) => return Err(e),
                    }
                } else {
                    let r = match ty {
                        TypeSpec::User { ty, args } => {
                            self.user(o, sub_io, *ty, args, name.clone(), index, Some(n))
                        }
                        _ => self.prim_in(o, sub_io, ty, a, name.clone()),
                    };
                    match r {
                        Ok(v) => v,
                        // The window holds the failure: the fields after it are read.
                        Err(Fail::Recorded) if self.mk => Val::Nil,
                        Err(e) => return Err(e),
                    }
                }
            }
        };
        self.valid(o, a, &v, name, index)?;
        Ok(v)
    }

    /// An error on a node over bytes `[at, at + n)` of stream `io` (the
    /// message alone when no node is made).
    fn fail_at<T>(
        &mut self,
        io: u32,
        name: Name,
        kind: Kind,
        at: u64,
        n: u64,
        msg: String,
    ) -> R<T> {
        if !self.mk {
            return fail(msg);
        }
        let sp = self.span(io, at, n);
        let id = self.node(name, kind, sp)?;
        self.b.set_error(id, msg);
        Err(Fail::Recorded)
    }

    /// A number read from a sized stream of its own (`type: u4` with a size).
    fn prim_in(&mut self, o: u32, io: u32, ty: &TypeSpec, a: &Attr, name: Name) -> R<Val> {
        match ty {
            TypeSpec::Int {
                size,
                signed,
                endian,
            } => self.int(o, io, *size, *signed, *endian, name, a),
            TypeSpec::Float { size, endian } => self.float(o, io, *size, *endian, name),
            TypeSpec::Bits { n, le } => self.bits(o, io, *n, *le, name, a),
            _ => fail("this type cannot be read from a sized stream"),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn user(
        &mut self,
        o: u32,
        io: u32,
        ty: TypeId,
        args: &[Expr],
        name: Name,
        index: Option<i128>,
        size: Option<u64>,
    ) -> R<Val> {
        let params = self.params(o, ty, args, name.clone(), index)?;
        let me = self.object(ty, io, Some(o), params, Some((name, size)), None)?;
        Ok(handle(Ref::Obj(me)))
    }

    /// True if an object of `n` bytes at `at` in stream `io` is left to be
    /// decoded when opened: the builder leaves parts of that size there
    /// lazy, and the stream is the file's (a node in decoded bytes is made
    /// at once).
    fn leave(&self, io: u32, at: u64, n: u64) -> bool {
        let s = &self.ios[io as usize];
        self.mk && s.buf.is_none() && self.b.would_leave(s.base + at, n)
    }

    /// An object of type `ty` over the `n`-byte window `io` (at byte
    /// `start` of the file), left to be decoded when opened: its node is
    /// lazy, and its fields are read for their values when an expression
    /// names one.
    #[allow(clippy::too_many_arguments)]
    fn later(
        &mut self,
        o: u32,
        io: u32,
        ty: TypeId,
        args: &[Expr],
        name: Name,
        index: Option<i128>,
        start: u64,
        n: u64,
    ) -> R<Val> {
        let params = self.params(o, ty, args, name.clone(), index)?;
        let me = self.objs.len() as u32;
        let root = self.objs[o as usize].root;
        let def = &self.spec.types[ty];
        self.objs.push(Obj {
            ty,
            parent: Some(o),
            root,
            io,
            vals: vec![Slot::Unread; def.seq.len() + def.instances.len()],
            params: params.clone(),
            le: None,
            start: 0,
            end: Some(n),
            pending: true,
        });
        self.lazy_object(o, io, ty, params, name, (0, start, n), false);
        Ok(handle(Ref::Obj(me)))
    }

    /// A lazy node over `n` bytes of the file from `start` that, opened,
    /// decodes an object of type `ty` (child of `o`) from byte `from` of
    /// stream `io`, with `params`; it may lie outside the open group if
    /// `anywhere` (an instance). Returns the node, if it was made lazy.
    #[allow(clippy::too_many_arguments)]
    fn lazy_object(
        &mut self,
        o: u32,
        io: u32,
        ty: TypeId,
        params: Vec<Val>,
        name: Name,
        (from, start, n): (u64, u64, u64),
        anywhere: bool,
    ) -> Option<NodeId> {
        // Where the streams of the objects around it are now: opened later,
        // it sees them as it would have here (`_parent._io.pos`).
        let mut around = Vec::new();
        let mut at = Some(o);
        while let Some(p) = at {
            let i = self.objs[p as usize].io;
            let s = &self.ios[i as usize];
            around.push((i, s.pos, s.bits, s.bits_left));
            at = self.objs[p as usize].parent;
        }
        let (spec, frozen) = (self.shared.clone(), self.frozen.clone());
        let open = move |b: &mut Builder| -> DResult<()> {
            let Some(arena) = frozen.get() else {
                let at = b.current();
                b.set_error(at, "the decode this part belongs to did not finish");
                return Err(Stop);
            };
            let mut run = Run::new(&spec, b, arena.objs.clone(), arena.ios.clone(), n);
            for &(i, pos, bits, left) in &around {
                let s = &mut run.ios[i as usize];
                (s.pos, s.bits, s.bits_left) = (pos, bits, left);
            }
            let s = &mut run.ios[io as usize];
            (s.pos, s.bits_left) = (from, 0);
            let into = run.b.current();
            let r = run.object(ty, io, Some(o), params.clone(), None, Some(into));
            run.end(r.map(|_| ()), into)
        };
        if anywhere {
            self.b.lazy_anywhere(name, Kind::Struct, start, n, open)
        } else {
            self.b.lazy_region(name, Kind::Struct, start, n, None, open);
            None
        }
    }

    /// Reads the fields of object `o`, left to be decoded when opened, for
    /// their values (no nodes).
    fn fill(&mut self, o: u32) -> R<()> {
        self.objs[o as usize].pending = false;
        let io = self.objs[o as usize].io;
        let s = &self.ios[io as usize];
        let saved = (s.pos, s.bits, s.bits_left);
        let s = &mut self.ios[io as usize];
        (s.pos, s.bits_left) = (self.objs[o as usize].start, 0);
        let mk = std::mem::replace(&mut self.mk, false);
        self.depth += 1;
        let r = self.read_object(o);
        self.depth -= 1;
        self.mk = mk;
        let s = &mut self.ios[io as usize];
        (s.pos, s.bits, s.bits_left) = saved;
        r
    }

    /// The arguments `args` of a user type `ty`, evaluated in object `o`.
    fn params(
        &mut self,
        o: u32,
        ty: TypeId,
        args: &[Expr],
        name: Name,
        index: Option<i128>,
    ) -> R<Vec<Val>> {
        let mut params = Vec::with_capacity(args.len());
        for (k, e) in args.iter().enumerate() {
            let v = match self.eval(o, index, e) {
                Ok(v) => v,
                Err(Fail::Msg(m)) => {
                    return self.fail_here(o, name, format!("argument {}: {m}", k + 1))
                }
                Err(f) => return Err(f),
            };
            let v = match (self.spec.types[ty].params.get(k).and_then(|p| p.enum_), v) {
                (Some(e), Val::Int(n)) => Val::Enum { e: e as u32, v: n },
                (_, v) => v,
            };
            params.push(v);
        }
        Ok(params)
    }

    fn process(&mut self, o: u32, index: Option<i128>, p: &Process, raw: Vec<u8>) -> R<Vec<u8>> {
        Ok(match p {
            Process::Xor(k) => {
                let key = match self.eval(o, index, k)? {
                    Val::Int(v) => vec![v as u8],
                    Val::Bytes(b) => b.to_vec(),
                    Val::Array(a) => a
                        .iter()
                        .map(|x| x.as_int().map(|v| v as u8))
                        .collect::<Result<_, _>>()
                        .map_err(Fail::Msg)?,
                    other => return fail(format!("xor key is {}", other.type_name())),
                };
                if key.is_empty() {
                    return fail("xor key is empty");
                }
                raw.iter()
                    .zip(key.iter().cycle())
                    .map(|(b, k)| b ^ k)
                    .collect()
            }
            Process::Rol(k) | Process::Ror(k) => {
                let n = self.eval_int(o, index, k, "rotation")?;
                let n = (n.rem_euclid(8)) as u32;
                let left = matches!(p, Process::Rol(_));
                raw.iter()
                    .map(|b| {
                        if left {
                            b.rotate_left(n)
                        } else {
                            b.rotate_right(n)
                        }
                    })
                    .collect()
            }
            Process::Zlib => super::inflate::zlib(&raw, MAX_DECODED).map_err(Fail::Msg)?,
            Process::Custom(name) => {
                return fail(format!("'{name}' is a routine of the format's own, which hexlens cannot run: the bytes are shown as they are"));
            }
        })
    }

    /// Checks `valid` on value `v` of field `a`.
    #[inline]
    fn valid(&mut self, o: u32, a: &Attr, v: &Val, name: Name, index: Option<i128>) -> R<()> {
        match &a.valid {
            None => Ok(()),
            Some(valid) => self.check_valid(o, &a.path, valid, v, name, index),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_valid(
        &mut self,
        o: u32,
        path: &str,
        valid: &Valid,
        v: &Val,
        name: Name,
        index: Option<i128>,
    ) -> R<()> {
        let mut why = None;
        if let Some(e) = &valid.eq {
            let want = self.eval(o, index, e)?;
            if !vals_eq(v, &want) {
                why = Some(format!("not equal: expected {want}, found {v}"));
            }
        }
        if why.is_none() {
            if let Some(e) = &valid.min {
                let min = self.eval(o, index, e)?;
                if cmp(v, &min).is_some_and(|c| c.is_lt()) {
                    why = Some(format!("less than the minimum {min}: {v}"));
                }
            }
        }
        if why.is_none() {
            if let Some(e) = &valid.max {
                let max = self.eval(o, index, e)?;
                if cmp(v, &max).is_some_and(|c| c.is_gt()) {
                    why = Some(format!("greater than the maximum {max}: {v}"));
                }
            }
        }
        if why.is_none() && !valid.any_of.is_empty() {
            let mut any = false;
            for e in &valid.any_of {
                let x = self.eval(o, index, e)?;
                if vals_eq(v, &x) {
                    any = true;
                    break;
                }
            }
            if !any {
                why = Some(format!("{v} is none of the values allowed"));
            }
        }
        if why.is_none() {
            if let Some(e) = &valid.expr {
                let mut steps = self.steps;
                let mut c = Ctx {
                    run: self,
                    obj: o,
                    index,
                    it: Some(v.clone()),
                    on: None,
                };
                let ok = expr::eval_with_budget(e, &mut c, &mut steps).and_then(|r| r.truthy());
                self.steps = steps;
                match ok {
                    Ok(true) => {}
                    Ok(false) => why = Some(format!("{v} fails its valid expression")),
                    Err(m) => why = Some(format!("valid expr: {m}")),
                }
            }
        }
        if why.is_none() && valid.in_enum {
            if let Val::Enum { e, v: n } = v {
                if self.spec.enums[*e as usize].name_of(*n).is_none() {
                    why = Some(format!(
                        "{n} is not in enum {}",
                        self.spec.enums[*e as usize].id
                    ));
                }
            }
        }
        let Some(why) = why else {
            return Ok(());
        };
        let msg = format!("{path}: {why}");
        if !self.mk {
            return fail(msg);
        }
        // The field's node is the last one made in the open group.
        let _ = name;
        match self.b.last() {
            Some(id) => {
                self.b.set_error(id, msg);
                Err(Fail::Recorded)
            }
            None => fail(msg),
        }
    }
}

/// Bits a built-in type takes (`u4`, `f8`, `b3`, `s2le`).
/// The node kind of a `size`-byte integer.
fn int_kind(size: u64, signed: bool) -> Kind {
    match (size, signed) {
        (1, false) => Kind::U8,
        (2, false) => Kind::U16,
        (4, false) => Kind::U32,
        (_, false) => Kind::U64,
        (1, true) => Kind::I8,
        (2, true) => Kind::I16,
        (4, true) => Kind::I32,
        (_, true) => Kind::I64,
    }
}

fn prim_bits(name: &str) -> Option<u64> {
    let body = name
        .strip_suffix("le")
        .or_else(|| name.strip_suffix("be"))
        .unwrap_or(name);
    let (k, d) = body.split_at(1.min(body.len()));
    let n: u64 = d.parse().ok()?;
    match k {
        "u" | "s" if matches!(n, 1 | 2 | 4 | 8) => Some(n * 8),
        "f" if matches!(n, 4 | 8) => Some(n * 8),
        "b" if (1..=64).contains(&n) => Some(n),
        _ => None,
    }
}

/// The value of an expression that names nothing (a constant).
fn const_int(e: &Expr) -> Option<i128> {
    let mut budget = 10_000;
    match expr::eval_with_budget(e, &mut Lit(None), &mut budget).ok()? {
        Val::Int(v) => Some(v),
        _ => None,
    }
}

/// A scope that knows one value at most, `_`: for constants, and for an
/// attribute of a value read apart from its object.
struct Lit(Option<Val>);

impl Scope for Lit {
    fn name(&mut self, n: &str) -> Result<Val, String> {
        match (&self.0, n) {
            (Some(v), "_") => Ok(v.clone()),
            _ => Err(format!("'{n}' is not known here")),
        }
    }
    fn attr(&mut self, _: &Val, n: &str) -> Result<Val, String> {
        Err(format!("'{n}' is not known here"))
    }
    fn enum_value(&mut self, _: &[String], n: &str) -> Result<Val, String> {
        Err(format!("'{n}' is not known here"))
    }
    fn sizeof(&mut self, _: &TypeName, _: bool) -> Result<Val, String> {
        Err("sizeof is not known here".into())
    }
    fn cast(&mut self, v: Val, _: &TypeName) -> Result<Val, String> {
        Ok(v)
    }
}

/// `==` as the expression language has it (a byte array equals a list of
/// the same byte values; an enum equals its own kind's values).
fn vals_eq(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => x == y,
        (Val::Int(x), Val::Float(y)) | (Val::Float(y), Val::Int(x)) => (*x as f64) == *y,
        (Val::Float(x), Val::Float(y)) => x == y,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Str(x), Val::Str(y)) => x == y,
        (Val::Bytes(x), Val::Bytes(y)) => x == y,
        (Val::Bytes(x), Val::Array(y)) | (Val::Array(y), Val::Bytes(x)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(b, v)| matches!(v, Val::Int(i) if *i == *b as i128))
        }
        (Val::Array(x), Val::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| vals_eq(p, q))
        }
        (Val::Enum { e, v }, Val::Enum { e: f, v: w }) => e == f && v == w,
        (Val::Enum { v, .. }, Val::Int(w)) | (Val::Int(w), Val::Enum { v, .. }) => v == w,
        (Val::Nil, Val::Nil) => true,
        _ => false,
    }
}

fn cmp(a: &Val, b: &Val) -> Option<std::cmp::Ordering> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => Some(x.cmp(y)),
        (Val::Int(x), Val::Float(y)) => (*x as f64).partial_cmp(y),
        (Val::Float(x), Val::Int(y)) => x.partial_cmp(&(*y as f64)),
        (Val::Float(x), Val::Float(y)) => x.partial_cmp(y),
        (Val::Str(x), Val::Str(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (Val::Bytes(x), Val::Bytes(y)) => Some(x.cmp(y)),
        (Val::Enum { v, .. }, Val::Int(w)) => Some(v.cmp(w)),
        _ => None,
    }
}
