//! A `.ksy` file read into what the interpreter runs: its types (nested,
//! with parameters, fields, instances), enums and defaults, every name
//! resolved and every expression parsed. A `.ksy` that Kaitai Struct's
//! compiler would reject is refused here with the YAML line and column and
//! the key path of what is wrong (`/types/chunk/seq/2/type`).
//!
//! Imports are read through an [`Importer`]: the main file's `meta/imports`
//! name other `.ksy` files, whose top-level type is then known by its
//! `meta/id` (and their own imports in turn).

use super::expr::{self, Expr};
use super::yaml::{self, Node, Pos, Yaml};
use crate::Endian;
use std::collections::HashMap;
use std::fmt;

/// Why a `.ksy` is refused: where (line, column, key path) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KsyError {
    /// The file it is in (the main file's name, or an import's).
    pub file: String,
    pub pos: Pos,
    /// The key path from the document's root (`/types/chunk/seq/2/type`).
    pub path: String,
    pub message: String,
}

impl fmt::Display for KsyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.file.is_empty() {
            write!(f, "{}: ", self.file)?;
        }
        write!(f, "line {}, column {}: ", self.pos.line, self.pos.col)?;
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

/// Finds the text of an imported `.ksy`.
pub trait Importer {
    /// The file `name` (as written in `meta/imports`: `riff`, `../common/x`,
    /// `/common/riff`) imported by the file `from` (the key an earlier call
    /// returned, or the main file's name): a key naming it uniquely (so a
    /// file imported twice is read once) and its text.
    fn import(&mut self, name: &str, from: &str) -> Result<(String, String), String>;
}

/// An importer that has no files: any import is an error.
pub struct NoImports;

impl Importer for NoImports {
    fn import(&mut self, name: &str, _from: &str) -> Result<(String, String), String> {
        Err(format!(
            "cannot import '{name}': no import folders are given"
        ))
    }
}

/// Index of a type in [`Spec::types`].
pub type TypeId = usize;
/// Index of an enum in [`Spec::enums`].
pub type EnumId = usize;

/// A whole format: the main file, its imports, their types and enums.
#[derive(Debug)]
pub struct Spec {
    /// `meta/id` of the main file.
    pub id: String,
    /// Every type; [`Spec::root`] is the main file's top-level type.
    pub types: Vec<TypeDef>,
    pub enums: Vec<EnumDef>,
    pub root: TypeId,
    /// `meta/file-extension` of the main file.
    pub extensions: Vec<String>,
}

/// Byte order a type reads multi-byte numbers in.
#[derive(Clone, Debug)]
pub enum EndianSpec {
    /// Fixed by `meta/endian`.
    Fixed(Endian),
    /// `meta/endian: {switch-on: …, cases: …}`: chosen when an object of
    /// the type starts reading.
    Switch {
        on: Expr,
        cases: Vec<(Expr, Endian)>,
    },
}

/// One type: the top-level one of a file or one under `types`.
#[derive(Debug)]
pub struct TypeDef {
    /// Its name (the file's `meta/id` for a top-level type).
    pub id: String,
    /// The type it is declared inside (`None` for a file's top-level type).
    pub outer: Option<TypeId>,
    /// The top-level type of the file it is in.
    pub file_root: TypeId,
    /// The key path of its definition, for messages.
    pub path: String,
    pub params: Vec<Param>,
    pub seq: Vec<Attr>,
    pub instances: Vec<Attr>,
    /// Its nested types and enums, by name.
    pub types: Vec<(String, TypeId)>,
    /// A file's top-level type: the top-level types of the files it
    /// imports (named by their `meta/id`).
    pub imports: Vec<TypeId>,
    pub enums: Vec<(String, EnumId)>,
    /// Its own `meta/endian`, if it says one (else the one of the type
    /// around it, else the object that reads it).
    pub endian: Option<EndianSpec>,
    /// Its own or inherited `meta/bit-endian` (big-endian when unsaid).
    pub bit_le: bool,
    /// Its own or inherited `meta/encoding`.
    pub encoding: Option<String>,
    pub doc: Option<String>,
    /// Its parameters', fields' and instances' names, for expressions.
    members: HashMap<String, Member, rustc_hash::FxBuildHasher>,
    /// `-webide-representation`: the label Kaitai's Web IDE shows, in its
    /// parts (`{expr}` and `{expr:hex}` placeholders parsed once).
    pub webide: Option<Vec<LabelPart>>,
}

/// What a name means in a type: a parameter, a field or an instance, by
/// its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Member {
    Param(usize),
    Seq(usize),
    Instance(usize),
}

impl TypeDef {
    /// What `name` names in the type.
    pub fn member(&self, name: &str) -> Option<Member> {
        self.members.get(name).copied()
    }
}

/// A part of a type's label (`-webide-representation`).
#[derive(Clone, Debug)]
pub enum LabelPart {
    Text(String),
    /// A placeholder's expression (a placeholder that does not parse shows
    /// `?`), and whether it shows in hex (`{len:hex}`).
    Value(Option<Expr>, bool),
}

/// A type parameter.
#[derive(Debug)]
pub struct Param {
    pub id: String,
    pub enum_: Option<EnumId>,
}

/// An enum: its values and their names.
#[derive(Debug)]
pub struct EnumDef {
    pub id: String,
    pub values: Vec<(i128, String)>,
    /// How each value shows (`kind::name`), interned (see [`intern`]).
    shown: Vec<&'static str>,
    /// Name to value, for enum literals.
    by_name: HashMap<String, i128>,
}

impl EnumDef {
    /// The name of value `v`, if it has one.
    pub fn name_of(&self, v: i128) -> Option<&str> {
        self.values
            .binary_search_by_key(&v, |e| e.0)
            .ok()
            .map(|i| self.values[i].1.as_str())
    }
    /// How value `v` shows in its node (`kind::name`), if it has a name.
    pub fn shown(&self, v: i128) -> Option<&'static str> {
        self.values
            .binary_search_by_key(&v, |e| e.0)
            .ok()
            .map(|i| self.shown[i])
    }

    /// The value named `name`.
    pub fn value_of(&self, name: &str) -> Option<i128> {
        self.by_name.get(name).copied()
    }
}

/// What a field reads.
#[derive(Clone, Debug)]
pub enum TypeSpec {
    /// A run of bytes (no `type`).
    Bytes,
    /// An integer of `size` bytes; `endian` when the type name says it.
    Int {
        size: u8,
        signed: bool,
        endian: Option<Endian>,
    },
    /// `bN`: an N-bit unsigned integer (`b1` is a boolean); `le` when the
    /// type name or `meta/bit-endian` says little-endian bit order.
    Bits {
        n: u8,
        le: bool,
    },
    Float {
        size: u8,
        endian: Option<Endian>,
    },
    /// `str` (`z`: `strz`, NUL-terminated unless a terminator is given).
    Str {
        z: bool,
    },
    /// A user type, with its arguments.
    User {
        ty: TypeId,
        args: Vec<Expr>,
    },
    /// `switch-on`: the type is chosen by a value (`_` is the default).
    Switch {
        on: Expr,
        cases: Vec<(Expr, TypeSpec)>,
        default: Option<Box<TypeSpec>>,
    },
}

/// How a field repeats.
#[derive(Clone, Debug)]
pub enum Repeat {
    No,
    Eos,
    Expr(Expr),
    Until(Expr),
}

/// `valid`: what a field's value must be.
#[derive(Clone, Debug, Default)]
pub struct Valid {
    pub eq: Option<Expr>,
    pub min: Option<Expr>,
    pub max: Option<Expr>,
    pub any_of: Vec<Expr>,
    pub expr: Option<Expr>,
    pub in_enum: bool,
}

/// `process`: how a field's bytes are transformed before they are read.
#[derive(Clone, Debug)]
pub enum Process {
    Xor(Expr),
    Rol(Expr),
    Ror(Expr),
    Zlib,
    /// A routine of the user's own, which hexlens cannot run.
    Custom(String),
}

/// A field (`seq` entry) or an instance.
#[derive(Clone, Debug)]
pub struct Attr {
    /// Its id (`_unnamedN` for a `seq` entry without one).
    pub id: String,
    /// The same, interned: its nodes' name (see [`intern`]).
    pub name: &'static str,
    /// Some expression or label of the format could read its value (else
    /// its value is not kept: only its node shows it).
    pub used: bool,
    /// Where it is defined, for messages.
    pub pos: Pos,
    pub path: String,
    pub ty: TypeSpec,
    pub repeat: Repeat,
    pub cond: Option<Expr>,
    pub size: Option<Expr>,
    pub size_eos: bool,
    pub contents: Option<Vec<u8>>,
    pub terminator: Option<u8>,
    pub include: bool,
    pub consume: bool,
    pub eos_error: bool,
    pub pad_right: Option<u8>,
    pub encoding: Option<String>,
    pub enum_: Option<EnumId>,
    pub valid: Option<Valid>,
    pub process: Option<Process>,
    pub doc: Option<String>,
    pub doc_ref: Vec<String>,
    /// Instances: `pos`, `io` and `value`.
    pub at: Option<Expr>,
    pub io: Option<Expr>,
    pub value: Option<Expr>,
    pub instance: bool,
}

/// Reads the `.ksy` text `text` (named `name` in messages and to the
/// importer) and the files it imports.
pub fn compile(name: &str, text: &str, importer: &mut dyn Importer) -> Result<Spec, KsyError> {
    let mut c = Compiler {
        used: Default::default(),
        types: Vec::new(),
        enums: Vec::new(),
        files: Vec::new(),
        pending: Vec::new(),
        importer,
        by_key: HashMap::new(),
    };
    let root = c.file(name.to_string(), text)?;
    c.resolve()?;
    let extensions = c.files[0].extensions.clone();
    Ok(Spec {
        id: c.types[root].id.clone(),
        types: c.types,
        enums: c.enums,
        root,
        extensions,
    })
}

/// What a file gives its types: its name, its top-level type, its imports'
/// top-level types (by `meta/id`).
struct FileInfo {
    name: String,
    root: TypeId,
    imports: Vec<TypeId>,
    extensions: Vec<String>,
}

/// A type or enum reference met while reading, resolved once every file is
/// read.
enum Pending {
    Type {
        ty: TypeId,
        attr: AttrRef,
        name: String,
        args: Vec<Expr>,
        at: Loc,
        /// Where in the switch's cases (`None`: the type itself, `Some(None)`:
        /// the default, `Some(Some(i))`: case `i`).
        case: Option<Option<usize>>,
    },
    Enum {
        ty: TypeId,
        attr: AttrRef,
        name: String,
        at: Loc,
    },
}

#[derive(Clone, Copy)]
enum AttrRef {
    Seq(usize),
    Instance(usize),
    Param(usize),
}

/// A place for a message: file, position, key path.
#[derive(Clone)]
struct Loc {
    file: usize,
    pos: Pos,
    path: String,
}

struct Compiler<'a> {
    /// Every name an expression or a label of the format could read.
    used: std::cell::RefCell<std::collections::HashSet<String>>,
    types: Vec<TypeDef>,
    enums: Vec<EnumDef>,
    files: Vec<FileInfo>,
    pending: Vec<Pending>,
    importer: &'a mut dyn Importer,
    by_key: HashMap<String, usize>,
}

/// Keys an attribute may have (keys starting with `-` are anyone's).
const ATTR_KEYS: &[&str] = &[
    "id",
    "doc",
    "doc-ref",
    "contents",
    "type",
    "repeat",
    "repeat-expr",
    "repeat-until",
    "if",
    "size",
    "size-eos",
    "process",
    "enum",
    "encoding",
    "pad-right",
    "terminator",
    "consume",
    "include",
    "eos-error",
    "valid",
];
const INSTANCE_KEYS: &[&str] = &["pos", "io", "value"];
const TYPE_KEYS: &[&str] = &[
    "meta",
    "doc",
    "doc-ref",
    "params",
    "seq",
    "types",
    "instances",
    "enums",
];
const META_KEYS: &[&str] = &[
    "id",
    "title",
    "application",
    "file-extension",
    "xref",
    "license",
    "ks-version",
    "ks-debug",
    "ks-opaque-types",
    "imports",
    "encoding",
    "endian",
    "bit-endian",
    "tags",
];

fn is_id(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some('a'..='z')) && c.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'))
}

/// The scalar text of a node, whether a number, a keyword or text.
fn scalar(n: &Node) -> Option<&str> {
    match &n.value {
        Yaml::Str { text, .. } => Some(text),
        _ => None,
    }
}

impl Compiler<'_> {
    fn err(&self, file: usize, pos: Pos, path: &str, message: impl Into<String>) -> KsyError {
        KsyError {
            file: self
                .files
                .get(file)
                .map_or(String::new(), |f| f.name.clone()),
            pos,
            path: path.to_string(),
            message: message.into(),
        }
    }

    fn err_at(&self, at: &Loc, message: impl Into<String>) -> KsyError {
        self.err(at.file, at.pos, &at.path, message)
    }

    /// Reads one file (and, first, what it imports); its top-level type.
    fn file(&mut self, name: String, text: &str) -> Result<TypeId, KsyError> {
        let doc = yaml::parse(text).map_err(|e| KsyError {
            file: name.clone(),
            pos: e.pos,
            path: String::new(),
            message: e.message,
        })?;
        let file = self.files.len();
        self.by_key.insert(name.clone(), file);
        self.files.push(FileInfo {
            name: name.clone(),
            root: usize::MAX,
            imports: Vec::new(),
            extensions: Vec::new(),
        });
        if !matches!(doc.value, Yaml::Map(_)) {
            return Err(self.err(file, doc.pos, "", "a .ksy is a mapping (meta, seq, types…)"));
        }
        let Some(meta) = doc.get("meta") else {
            return Err(self.err(
                file,
                doc.pos,
                "/meta",
                "missing meta (a .ksy needs meta/id)",
            ));
        };
        let id = match meta.get("id") {
            Some(n) => match scalar(n) {
                Some(s) if is_id(s) => s.to_string(),
                _ => return Err(self.err(
                    file,
                    n.pos,
                    "/meta/id",
                    "meta/id must be lower-case letters, digits and '_', starting with a letter",
                )),
            },
            None => return Err(self.err(file, meta.pos, "/meta", "missing meta/id")),
        };
        if let Some(ext) = meta.get("file-extension") {
            let list = match &ext.value {
                Yaml::Seq(items) => items.iter().filter_map(scalar).map(String::from).collect(),
                _ => scalar(ext).map(|s| vec![s.to_string()]).unwrap_or_default(),
            };
            self.files[file].extensions = list;
        }
        if let Some(imports) = meta.get("imports") {
            let Yaml::Seq(items) = &imports.value else {
                return Err(self.err(
                    file,
                    imports.pos,
                    "/meta/imports",
                    "imports is a list of names",
                ));
            };
            for (i, item) in items.iter().enumerate() {
                let path = format!("/meta/imports/{i}");
                let Some(what) = scalar(item) else {
                    return Err(self.err(file, item.pos, &path, "an import is a name"));
                };
                let (key, text) = self
                    .importer
                    .import(what, &name)
                    .map_err(|m| self.err(file, item.pos, &path, m))?;
                let root = match self.by_key.get(&key) {
                    Some(&f) if self.files[f].root != usize::MAX => self.files[f].root,
                    Some(_) => {
                        return Err(self.err(
                            file,
                            item.pos,
                            &path,
                            format!("'{what}' imports itself, through a loop of imports"),
                        ))
                    }
                    None => {
                        if self.files.len() >= 256 {
                            return Err(self.err(
                                file,
                                item.pos,
                                &path,
                                "more than 256 files imported",
                            ));
                        }
                        self.file(key, &text)?
                    }
                };
                self.files[file].imports.push(root);
            }
        }
        let root = self.type_def(file, &doc, id, None, String::new(), None)?;
        self.files[file].root = root;
        self.types[root].imports = self.files[file].imports.clone();
        Ok(root)
    }

    /// Reads a type's definition (its nested types first get their ids).
    fn type_def(
        &mut self,
        file: usize,
        n: &Node,
        id: String,
        outer: Option<TypeId>,
        path: String,
        file_root: Option<TypeId>,
    ) -> Result<TypeId, KsyError> {
        let Yaml::Map(entries) = &n.value else {
            return Err(self.err(
                file,
                n.pos,
                &path,
                "a type is a mapping (seq, instances, types…)",
            ));
        };
        for (k, pos, _) in entries {
            if !k.starts_with('-') && !TYPE_KEYS.contains(&k.as_str()) {
                return Err(self.err(
                    file,
                    *pos,
                    &format!("{path}/{k}"),
                    format!("unknown key '{k}' (a type has {})", TYPE_KEYS.join(", ")),
                ));
            }
        }
        let me = self.types.len();
        let (o_bit_le, o_enc) = match outer {
            Some(o) => (self.types[o].bit_le, self.types[o].encoding.clone()),
            None => (false, None),
        };
        let mut def = TypeDef {
            id,
            outer,
            file_root: file_root.unwrap_or(me),
            path: path.clone(),
            params: Vec::new(),
            seq: Vec::new(),
            instances: Vec::new(),
            types: Vec::new(),
            imports: Vec::new(),
            enums: Vec::new(),
            endian: None,
            bit_le: o_bit_le,
            encoding: o_enc,
            doc: n.get("doc").and_then(scalar).map(String::from),
            members: HashMap::default(),
            webide: n
                .get("-webide-representation")
                .and_then(scalar)
                .map(|w| self.label(w)),
        };
        if let Some(meta) = n.get("meta") {
            let mpath = format!("{path}/meta");
            let Yaml::Map(m) = &meta.value else {
                return Err(self.err(file, meta.pos, &mpath, "meta is a mapping"));
            };
            for (k, pos, _) in m {
                if !k.starts_with('-') && !META_KEYS.contains(&k.as_str()) {
                    return Err(self.err(
                        file,
                        *pos,
                        &format!("{mpath}/{k}"),
                        format!("unknown key '{k}' in meta"),
                    ));
                }
            }
            if outer.is_some() && (meta.get("id").is_some() || meta.get("imports").is_some()) {
                return Err(self.err(
                    file,
                    meta.pos,
                    &mpath,
                    "only a file's top-level meta has id and imports",
                ));
            }
            if let Some(e) = meta.get("endian") {
                def.endian = Some(self.endian(file, e, &format!("{mpath}/endian"))?);
            }
            if let Some(e) = meta.get("bit-endian") {
                def.bit_le = match scalar(e) {
                    Some("le") => true,
                    Some("be") => false,
                    _ => {
                        return Err(self.err(
                            file,
                            e.pos,
                            &format!("{mpath}/bit-endian"),
                            "bit-endian is le or be",
                        ))
                    }
                };
            }
            if let Some(e) = meta.get("encoding") {
                match scalar(e) {
                    Some(s) => def.encoding = Some(s.to_string()),
                    None => {
                        return Err(self.err(
                            file,
                            e.pos,
                            &format!("{mpath}/encoding"),
                            "encoding is a name",
                        ))
                    }
                }
            }
        }
        self.types.push(def);
        // Enums and nested types first: fields name them.
        for (name, _, body, epath) in self.named(file, n, &path, "enums", "enum")? {
            let e = self.enum_def(file, name, body, &epath)?;
            self.types[me].enums.push((name.to_string(), e));
        }
        for (name, _, body, tpath) in self.named(file, n, &path, "types", "type")? {
            let root = self.types[me].file_root;
            let t = self.type_def(file, body, name.to_string(), Some(me), tpath, Some(root))?;
            self.types[me].types.push((name.to_string(), t));
        }
        if let Some(params) = n.get("params") {
            let Yaml::Seq(list) = &params.value else {
                return Err(self.err(
                    file,
                    params.pos,
                    &format!("{path}/params"),
                    "params is a list",
                ));
            };
            for (i, p) in list.iter().enumerate() {
                let ppath = format!("{path}/params/{i}");
                let id = p.get("id").and_then(scalar).filter(|s| is_id(s));
                let Some(id) = id else {
                    return Err(self.err(
                        file,
                        p.pos,
                        &ppath,
                        "a parameter needs an id (lower-case letters, digits, '_')",
                    ));
                };
                if let Yaml::Map(m) = &p.value {
                    for (k, kp, _) in m {
                        if !k.starts_with('-')
                            && !["id", "type", "enum", "doc", "doc-ref"].contains(&k.as_str())
                        {
                            return Err(self.err(
                                file,
                                *kp,
                                &format!("{ppath}/{k}"),
                                format!("unknown key '{k}' in a parameter"),
                            ));
                        }
                    }
                }
                let k = self.types[me].params.len();
                self.types[me].params.push(Param {
                    id: id.to_string(),
                    enum_: None,
                });
                if let Some(e) = p.get("enum") {
                    let name = scalar(e).unwrap_or_default().to_string();
                    self.pending.push(Pending::Enum {
                        ty: me,
                        attr: AttrRef::Param(k),
                        name,
                        at: Loc {
                            file,
                            pos: e.pos,
                            path: format!("{ppath}/enum"),
                        },
                    });
                }
            }
        }
        let mut ids: HashMap<String, String> = HashMap::new();
        for p in &self.types[me].params {
            ids.insert(p.id.clone(), format!("{path}/params"));
        }
        if let Some(seq) = n.get("seq") {
            let Yaml::Seq(list) = &seq.value else {
                return Err(self.err(
                    file,
                    seq.pos,
                    &format!("{path}/seq"),
                    "seq is a list of fields",
                ));
            };
            for (i, a) in list.iter().enumerate() {
                let apath = format!("{path}/seq/{i}");
                let id = match a.get("id") {
                    Some(idn) => match scalar(idn) {
                        Some(s) if is_id(s) => s.to_string(),
                        _ => return Err(self.err(
                            file,
                            idn.pos,
                            &format!("{apath}/id"),
                            "an id is lower-case letters, digits and '_', starting with a letter",
                        )),
                    },
                    None => format!("_unnamed{i}"),
                };
                if let Some(prev) = ids.insert(id.clone(), apath.clone()) {
                    return Err(self.err(
                        file,
                        a.pos,
                        &apath,
                        format!("duplicate id '{id}' (also at {prev})"),
                    ));
                }
                let attr = self.attr(file, me, a, id, apath, false, AttrRef::Seq(i))?;
                self.types[me].seq.push(attr);
            }
        }
        let instances = self.named(file, n, &path, "instances", "instance")?;
        for (i, (name, pos, body, ipath)) in instances.into_iter().enumerate() {
            if let Some(prev) = ids.insert(name.to_string(), ipath.clone()) {
                let m = format!("duplicate id '{name}' (also at {prev})");
                return Err(self.err(file, pos, &ipath, m));
            }
            let attr = self.attr(
                file,
                me,
                body,
                name.to_string(),
                ipath,
                true,
                AttrRef::Instance(i),
            )?;
            self.types[me].instances.push(attr);
        }
        let t = &mut self.types[me];
        let members = (t
            .params
            .iter()
            .enumerate()
            .map(|(k, p)| (p.id.clone(), Member::Param(k))))
        .chain(
            t.seq
                .iter()
                .enumerate()
                .map(|(k, a)| (a.id.clone(), Member::Seq(k))),
        )
        .chain(
            t.instances
                .iter()
                .enumerate()
                .map(|(k, a)| (a.id.clone(), Member::Instance(k))),
        );
        t.members = members.collect();
        Ok(me)
    }

    /// The entries of mapping `key` of type node `n` (none if it has no
    /// such key), each with its key path; every name must be an id.
    fn named<'n>(
        &self,
        file: usize,
        n: &'n Node,
        path: &str,
        key: &str,
        what: &str,
    ) -> Result<Vec<(&'n str, Pos, &'n Node, String)>, KsyError> {
        let Some(m) = n.get(key) else {
            return Ok(Vec::new());
        };
        let Yaml::Map(list) = &m.value else {
            return Err(self.err(
                file,
                m.pos,
                &format!("{path}/{key}"),
                format!("{key} is a mapping of names"),
            ));
        };
        list.iter()
            .map(|(name, pos, body)| {
                let at = format!("{path}/{key}/{name}");
                if !is_id(name) {
                    return Err(self.err(
                        file,
                        *pos,
                        &at,
                        format!("'{name}' is not a valid {what} name"),
                    ));
                }
                Ok((name.as_str(), *pos, body, at))
            })
            .collect()
    }

    fn endian(&self, file: usize, n: &Node, path: &str) -> Result<EndianSpec, KsyError> {
        let one = |s: Option<&str>, pos: Pos, path: &str| match s {
            Some("le") => Ok(Endian::Little),
            Some("be") => Ok(Endian::Big),
            _ => Err(self.err(file, pos, path, "endian is le or be (or a switch-on)")),
        };
        if let Yaml::Map(_) = n.value {
            let on = n.get("switch-on").ok_or_else(|| {
                self.err(file, n.pos, path, "a calculated endian needs switch-on")
            })?;
            let on = self.expr(file, on, &format!("{path}/switch-on"))?;
            let Some(Yaml::Map(list)) = n.get("cases").map(|c| &c.value) else {
                return Err(self.err(
                    file,
                    n.pos,
                    &format!("{path}/cases"),
                    "a calculated endian needs cases",
                ));
            };
            let mut cases = Vec::new();
            for (k, pos, v) in list {
                let cpath = format!("{path}/cases/{k}");
                let key = self.parse(k).map_err(|e| {
                    self.err(
                        file,
                        *pos,
                        &cpath,
                        format!("in '{k}', column {}: {}", e.col, e.message),
                    )
                })?;
                cases.push((key, one(scalar(v), v.pos, &cpath)?));
            }
            return Ok(EndianSpec::Switch { on, cases });
        }
        Ok(EndianSpec::Fixed(one(scalar(n), n.pos, path)?))
    }

    fn enum_def(
        &mut self,
        file: usize,
        name: &str,
        n: &Node,
        path: &str,
    ) -> Result<EnumId, KsyError> {
        let Yaml::Map(list) = &n.value else {
            return Err(self.err(
                file,
                n.pos,
                path,
                "an enum is a mapping of numbers to names",
            ));
        };
        let mut values = Vec::new();
        let mut by_name = HashMap::new();
        for (k, pos, v) in list {
            let vpath = format!("{path}/{k}");
            let num = parse_int(k)
                .ok_or_else(|| self.err(file, *pos, &vpath, format!("'{k}' is not an integer")))?;
            let id = match &v.value {
                Yaml::Map(_) => v.get("id").and_then(scalar),
                _ => scalar(v),
            };
            let Some(id) = id.filter(|s| is_id(s)) else {
                return Err(self.err(
                    file,
                    v.pos,
                    &vpath,
                    "an enum value's name is lower-case letters, digits and '_'",
                ));
            };
            if by_name.insert(id.to_string(), num).is_some() {
                return Err(self.err(file, v.pos, &vpath, format!("duplicate enum name '{id}'")));
            }
            values.push((num, id.to_string()));
        }
        values.sort_by_key(|e| e.0);
        if values.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(self.err(file, n.pos, path, "an enum value appears twice"));
        }
        let shown = values
            .iter()
            .map(|(_, n)| intern(&format!("{name}::{n}")))
            .collect();
        self.enums.push(EnumDef {
            id: name.to_string(),
            values,
            shown,
            by_name,
        });
        Ok(self.enums.len() - 1)
    }

    /// A `-webide-representation` in its parts.
    fn label(&self, text: &str) -> Vec<LabelPart> {
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else {
                break;
            };
            if open > 0 {
                parts.push(LabelPart::Text(rest[..open].to_string()));
            }
            let inner = &rest[open + 1..open + close];
            let (e, fmt) = inner.split_once(':').unwrap_or((inner, ""));
            parts.push(LabelPart::Value(self.parse(e).ok(), fmt == "hex"));
            rest = &rest[open + close + 1..];
        }
        if !rest.is_empty() {
            parts.push(LabelPart::Text(rest.to_string()));
        }
        parts
    }

    /// Parses expression `text`, noting the names it could read.
    fn parse(&self, text: &str) -> Result<Expr, expr::ExprError> {
        self.note_names(text);
        expr::parse(text)
    }

    /// Notes every identifier in `text` as a name some expression or label
    /// could read (more than it reads is harmless: such a field's value is
    /// kept when it need not be).
    fn note_names(&self, text: &str) {
        let mut used = self.used.borrow_mut();
        for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if w.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') {
                used.insert(w.to_string());
            }
        }
    }

    fn expr(&self, file: usize, n: &Node, path: &str) -> Result<Expr, KsyError> {
        let text = match &n.value {
            Yaml::Str { text, .. } => text.as_str(),
            _ => return Err(self.err(file, n.pos, path, "expected an expression")),
        };
        self.parse(text).map_err(|e| {
            self.err(
                file,
                n.pos,
                path,
                format!("in '{text}', column {}: {}", e.col, e.message),
            )
        })
    }

    fn flag(
        &self,
        file: usize,
        n: Option<&Node>,
        path: &str,
        default: bool,
    ) -> Result<bool, KsyError> {
        match n {
            None => Ok(default),
            Some(n) => match scalar(n) {
                Some("true") => Ok(true),
                Some("false") => Ok(false),
                _ => Err(self.err(file, n.pos, path, "expected true or false")),
            },
        }
    }

    fn byte(&self, file: usize, n: &Node, path: &str) -> Result<u8, KsyError> {
        scalar(n)
            .and_then(parse_int)
            .and_then(|v| u8::try_from(v).ok())
            .ok_or_else(|| self.err(file, n.pos, path, "expected a byte value (0 to 255)"))
    }

    #[allow(clippy::too_many_arguments)]
    fn attr(
        &mut self,
        file: usize,
        ty: TypeId,
        n: &Node,
        id: String,
        path: String,
        instance: bool,
        me: AttrRef,
    ) -> Result<Attr, KsyError> {
        let Yaml::Map(entries) = &n.value else {
            return Err(self.err(file, n.pos, &path, "a field is a mapping (id, type, size…)"));
        };
        for (k, pos, _) in entries {
            let known = ATTR_KEYS.contains(&k.as_str())
                || (instance && INSTANCE_KEYS.contains(&k.as_str()));
            if !(k.starts_with('-') || known) {
                return Err(self.err(
                    file,
                    *pos,
                    &format!("{path}/{k}"),
                    format!("unknown key '{k}'"),
                ));
            }
        }
        let sub = |k: &str| format!("{path}/{k}");
        let get = |k: &str| n.get(k);
        let e = |s: &Self, k: &str| -> Result<Option<Expr>, KsyError> {
            get(k).map(|v| s.expr(file, v, &sub(k))).transpose()
        };
        let mut a = Attr {
            name: intern(&id),
            used: true,
            id,
            pos: n.pos,
            path: path.clone(),
            ty: TypeSpec::Bytes,
            repeat: Repeat::No,
            cond: e(self, "if")?,
            size: e(self, "size")?,
            size_eos: self.flag(file, get("size-eos"), &sub("size-eos"), false)?,
            contents: None,
            terminator: get("terminator")
                .map(|t| self.byte(file, t, &sub("terminator")))
                .transpose()?,
            include: self.flag(file, get("include"), &sub("include"), false)?,
            consume: self.flag(file, get("consume"), &sub("consume"), true)?,
            eos_error: self.flag(file, get("eos-error"), &sub("eos-error"), true)?,
            pad_right: get("pad-right")
                .map(|t| self.byte(file, t, &sub("pad-right")))
                .transpose()?,
            encoding: get("encoding").and_then(scalar).map(String::from),
            enum_: None,
            valid: None,
            process: None,
            doc: get("doc").and_then(scalar).map(String::from),
            doc_ref: match get("doc-ref").map(|d| &d.value) {
                Some(Yaml::Seq(items)) => {
                    items.iter().filter_map(scalar).map(String::from).collect()
                }
                Some(Yaml::Str { text, .. }) => vec![text.clone()],
                _ => Vec::new(),
            },
            at: e(self, "pos")?,
            io: e(self, "io")?,
            value: e(self, "value")?,
            instance,
        };
        if a.size.is_some() && a.size_eos {
            return Err(self.err(file, n.pos, &sub("size"), "size and size-eos together"));
        }
        if let Some(c) = get("contents") {
            a.contents = Some(self.contents(file, c, &sub("contents"))?);
            if get("type").is_some() {
                return Err(self.err(file, c.pos, &sub("contents"), "contents and type together"));
            }
        }
        if let Some(r) = get("repeat") {
            a.repeat = match scalar(r) {
                Some("eos") => Repeat::Eos,
                Some("expr") => match get("repeat-expr") {
                    Some(x) => Repeat::Expr(self.expr(file, x, &sub("repeat-expr"))?),
                    None => {
                        return Err(self.err(
                            file,
                            r.pos,
                            &sub("repeat"),
                            "repeat: expr needs repeat-expr",
                        ))
                    }
                },
                Some("until") => match get("repeat-until") {
                    Some(x) => Repeat::Until(self.expr(file, x, &sub("repeat-until"))?),
                    None => {
                        return Err(self.err(
                            file,
                            r.pos,
                            &sub("repeat"),
                            "repeat: until needs repeat-until",
                        ))
                    }
                },
                _ => {
                    return Err(self.err(
                        file,
                        r.pos,
                        &sub("repeat"),
                        "repeat is eos, expr or until",
                    ))
                }
            };
        } else if let Some(x) = get("repeat-expr").or(get("repeat-until")) {
            return Err(self.err(
                file,
                x.pos,
                &path,
                "repeat-expr or repeat-until without repeat",
            ));
        }
        if let Some(p) = get("process") {
            a.process = Some(self.process(file, p, &sub("process"))?);
        }
        if let Some(v) = get("valid") {
            a.valid = Some(self.valid(file, v, &sub("valid"))?);
        }
        if let Some(en) = get("enum") {
            let name = scalar(en).unwrap_or_default().to_string();
            self.pending.push(Pending::Enum {
                ty,
                attr: me,
                name,
                at: Loc {
                    file,
                    pos: en.pos,
                    path: sub("enum"),
                },
            });
        }
        if let Some(t) = get("type") {
            a.ty = self.type_spec(file, ty, t, &sub("type"), me, None)?;
        }
        if instance && a.value.is_some() {
            return Ok(a);
        }
        // What a field needs to know its size.
        let sized = a.size.is_some() || a.size_eos || a.terminator.is_some();
        match &a.ty {
            TypeSpec::Bytes if a.contents.is_none() && !sized => {
                return Err(self.err(
                    file,
                    n.pos,
                    &path,
                    "a byte array needs size, size-eos or terminator (or a type)",
                ));
            }
            TypeSpec::Str { z: false } if !sized => {
                return Err(self.err(
                    file,
                    n.pos,
                    &path,
                    "a str needs size, size-eos or terminator",
                ));
            }
            TypeSpec::Str { .. } => {
                let enc = a
                    .encoding
                    .clone()
                    .or_else(|| self.types[ty].encoding.clone());
                match enc {
                    None => {
                        return Err(self.err(
                            file,
                            n.pos,
                            &path,
                            "a string needs an encoding (here or in meta/encoding)",
                        ))
                    }
                    Some(enc) => {
                        if !super::encoding_known(&enc) {
                            let at = get("encoding").map_or(n.pos, |e| e.pos);
                            return Err(self.err(
                                file,
                                at,
                                &sub("encoding"),
                                format!("unknown encoding '{enc}'"),
                            ));
                        }
                        a.encoding = Some(enc);
                    }
                }
            }
            _ => {}
        }
        if a.process.is_some() && !sized {
            return Err(self.err(
                file,
                n.pos,
                &sub("process"),
                "process needs the field's size (size, size-eos or terminator)",
            ));
        }
        Ok(a)
    }

    fn contents(&self, file: usize, n: &Node, path: &str) -> Result<Vec<u8>, KsyError> {
        let mut out = Vec::new();
        let mut one = |v: &Node| -> Result<(), KsyError> {
            match &v.value {
                Yaml::Str { text, quoted } => {
                    if !quoted {
                        if let Some(x) = parse_int(text) {
                            let b = u8::try_from(x).map_err(|_| {
                                self.err(file, v.pos, path, format!("{x} is not a byte"))
                            })?;
                            out.push(b);
                            return Ok(());
                        }
                    }
                    out.extend_from_slice(text.as_bytes());
                    Ok(())
                }
                _ => Err(self.err(
                    file,
                    v.pos,
                    path,
                    "contents are a string or a list of bytes and strings",
                )),
            }
        };
        match &n.value {
            Yaml::Seq(items) => {
                for i in items {
                    one(i)?;
                }
            }
            Yaml::Str { text, .. } => out.extend_from_slice(text.as_bytes()),
            _ => {
                return Err(self.err(
                    file,
                    n.pos,
                    path,
                    "contents are a string or a list of bytes and strings",
                ))
            }
        }
        Ok(out)
    }

    fn process(&self, file: usize, n: &Node, path: &str) -> Result<Process, KsyError> {
        let text = scalar(n).unwrap_or_default();
        let (name, args) = split_call(text).ok_or_else(|| {
            self.err(file, n.pos, path, format!("'{text}' is not a process call"))
        })?;
        let arg = |i: usize| -> Result<Expr, KsyError> {
            let a = args.get(i).ok_or_else(|| {
                self.err(
                    file,
                    n.pos,
                    path,
                    format!("process {name} takes an argument"),
                )
            })?;
            self.parse(a).map_err(|e| {
                self.err(
                    file,
                    n.pos,
                    path,
                    format!("in '{a}', column {}: {}", e.col, e.message),
                )
            })
        };
        let want = |k: usize| -> Result<(), KsyError> {
            if args.len() != k {
                return Err(self.err(
                    file,
                    n.pos,
                    path,
                    format!("process {name} takes {k} argument(s)"),
                ));
            }
            Ok(())
        };
        Ok(match name {
            "xor" => {
                want(1)?;
                Process::Xor(arg(0)?)
            }
            "rol" => {
                want(1)?;
                Process::Rol(arg(0)?)
            }
            "ror" => {
                want(1)?;
                Process::Ror(arg(0)?)
            }
            "zlib" => {
                want(0)?;
                Process::Zlib
            }
            // A routine of the user's own (Kaitai's parsers link it in):
            // the field shows its raw bytes and says so.
            _ => Process::Custom(name.to_string()),
        })
    }

    fn valid(&self, file: usize, n: &Node, path: &str) -> Result<Valid, KsyError> {
        let mut v = Valid::default();
        match &n.value {
            Yaml::Map(entries) => {
                for (k, pos, x) in entries {
                    let kpath = format!("{path}/{k}");
                    match k.as_str() {
                        "eq" => v.eq = Some(self.expr(file, x, &kpath)?),
                        "min" => v.min = Some(self.expr(file, x, &kpath)?),
                        "max" => v.max = Some(self.expr(file, x, &kpath)?),
                        "expr" => v.expr = Some(self.expr(file, x, &kpath)?),
                        "in-enum" => v.in_enum = self.flag(file, Some(x), &kpath, false)?,
                        "any-of" => {
                            let Yaml::Seq(items) = &x.value else {
                                return Err(self.err(file, x.pos, &kpath, "any-of is a list"));
                            };
                            for (i, it) in items.iter().enumerate() {
                                v.any_of.push(self.expr(file, it, &format!("{kpath}/{i}"))?);
                            }
                        }
                        _ => {
                            return Err(self.err(
                                file,
                                *pos,
                                &kpath,
                                format!("unknown key '{k}' in valid"),
                            ))
                        }
                    }
                }
            }
            _ => v.eq = Some(self.expr(file, n, path)?),
        }
        Ok(v)
    }

    /// A field's `type`: a name or a switch.
    fn type_spec(
        &mut self,
        file: usize,
        ty: TypeId,
        n: &Node,
        path: &str,
        me: AttrRef,
        case: Option<Option<usize>>,
    ) -> Result<TypeSpec, KsyError> {
        if let Yaml::Map(_) = n.value {
            if case.is_some() {
                return Err(self.err(file, n.pos, path, "a switch case's type is a name"));
            }
            let on = n
                .get("switch-on")
                .ok_or_else(|| self.err(file, n.pos, path, "a type switch needs switch-on"))?;
            let on = self.expr(file, on, &format!("{path}/switch-on"))?;
            let Some(Yaml::Map(list)) = n.get("cases").map(|c| &c.value) else {
                return Err(self.err(
                    file,
                    n.pos,
                    &format!("{path}/cases"),
                    "a type switch needs cases",
                ));
            };
            let mut cases = Vec::new();
            let mut default = None;
            for (k, pos, v) in list {
                let cpath = format!("{path}/cases/{k}");
                if k == "_" {
                    default = Some(Box::new(self.type_spec(
                        file,
                        ty,
                        v,
                        &cpath,
                        me,
                        Some(None),
                    )?));
                    continue;
                }
                let key = self.parse(k).map_err(|e| {
                    self.err(
                        file,
                        *pos,
                        &cpath,
                        format!("in '{k}', column {}: {}", e.col, e.message),
                    )
                })?;
                let t = self.type_spec(file, ty, v, &cpath, me, Some(Some(cases.len())))?;
                cases.push((key, t));
            }
            return Ok(TypeSpec::Switch { on, cases, default });
        }
        let Some(text) = scalar(n) else {
            return Err(self.err(file, n.pos, path, "a type is a name or a switch-on"));
        };
        if let Some(t) = primitive(text, self.types[ty].bit_le) {
            return Ok(t);
        }
        let (name, args) = match split_call(text) {
            Some((name, args)) => (name, args),
            None => (text, Vec::new()),
        };
        let mut parsed = Vec::new();
        for a in &args {
            parsed.push(self.parse(a).map_err(|e| {
                self.err(
                    file,
                    n.pos,
                    path,
                    format!("in argument '{a}', column {}: {}", e.col, e.message),
                )
            })?);
        }
        if !name.split("::").all(is_id) {
            return Err(self.err(file, n.pos, path, format!("'{text}' is not a type name")));
        }
        self.pending.push(Pending::Type {
            ty,
            attr: me,
            name: name.to_string(),
            args: parsed.clone(),
            at: Loc {
                file,
                pos: n.pos,
                path: path.to_string(),
            },
            case,
        });
        // Resolved in `resolve`; until then a placeholder.
        Ok(TypeSpec::User {
            ty: usize::MAX,
            args: parsed,
        })
    }

    /// Resolves every type and enum name met.
    fn resolve(&mut self) -> Result<(), KsyError> {
        let used = self.used.take();
        for t in &mut self.types {
            for a in t.seq.iter_mut().chain(t.instances.iter_mut()) {
                a.used = used.contains(&a.id);
            }
        }
        let pending = std::mem::take(&mut self.pending);
        for p in pending {
            match p {
                Pending::Type {
                    ty,
                    attr,
                    name,
                    args,
                    at,
                    case,
                } => {
                    let Some(t) = find_type(&self.types, ty, &name.split("::").collect::<Vec<_>>())
                    else {
                        return Err(self.err_at(&at, format!("unknown type '{name}'")));
                    };
                    let want = self.types[t].params.len();
                    if want != args.len() {
                        return Err(self.err_at(
                            &at,
                            format!(
                                "type '{name}' takes {want} argument(s), given {}",
                                args.len()
                            ),
                        ));
                    }
                    let a = match attr {
                        AttrRef::Seq(i) => &mut self.types[ty].seq[i],
                        AttrRef::Instance(i) => &mut self.types[ty].instances[i],
                        AttrRef::Param(_) => continue,
                    };
                    let slot = match (&mut a.ty, case) {
                        (slot, None) => slot,
                        (TypeSpec::Switch { default, .. }, Some(None)) => {
                            default.as_deref_mut().expect("default read")
                        }
                        (TypeSpec::Switch { cases, .. }, Some(Some(i))) => &mut cases[i].1,
                        _ => continue,
                    };
                    *slot = TypeSpec::User { ty: t, args };
                }
                Pending::Enum { ty, attr, name, at } => {
                    let Some(e) = find_enum(&self.types, ty, &name.split("::").collect::<Vec<_>>())
                    else {
                        return Err(self.err_at(&at, format!("unknown enum '{name}'")));
                    };
                    match attr {
                        AttrRef::Seq(i) => self.types[ty].seq[i].enum_ = Some(e),
                        AttrRef::Instance(i) => self.types[ty].instances[i].enum_ = Some(e),
                        AttrRef::Param(i) => self.types[ty].params[i].enum_ = Some(e),
                    }
                }
            }
        }
        Ok(())
    }
}

/// `id`, kept for the program's life: a field's nodes are named by it (the
/// tree keeps an index per node, not a copy). Each distinct id is kept
/// once, so a `.ksy` compiled again and again (edited as it is used) adds
/// only the ids never seen before.
pub fn intern(id: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::Mutex;
    static NAMES: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    let set = names.get_or_insert_with(HashSet::new);
    if let Some(s) = set.get(id) {
        return s;
    }
    let s: &'static str = Box::leak(id.to_string().into_boxed_str());
    set.insert(s);
    s
}

/// Looks the type `path` (`[name]` or `[outer, inner]`) up from type
/// `from`, as Kaitai Struct does: among its nested types, then those of the
/// types around it, then its file's top-level type and the top-level types
/// of the files that file imports; then each further name among the nested
/// types of the one before.
pub fn find_type(types: &[TypeDef], from: TypeId, path: &[&str]) -> Option<TypeId> {
    let (first, rest) = path.split_first()?;
    let mut found = None;
    let mut at = Some(from);
    while let (Some(t), None) = (at, found) {
        found = types[t].types.iter().find(|e| e.0 == *first).map(|e| e.1);
        at = types[t].outer;
    }
    let root = types[from].file_root;
    let mut t = found.or_else(|| {
        std::iter::once(root)
            .chain(types[root].imports.iter().copied())
            .find(|&r| types[r].id == *first)
    })?;
    for p in rest {
        t = types[t].types.iter().find(|e| e.0 == *p)?.1;
    }
    Some(t)
}

/// Looks the enum `path` up from type `from`: a bare name among the enums of
/// `from` and the types around it; `type::name` among the enums of that
/// type (found as [`find_type`] finds it).
pub fn find_enum(types: &[TypeDef], from: TypeId, path: &[&str]) -> Option<EnumId> {
    let (last, outer) = path.split_last()?;
    let mut at = if outer.is_empty() {
        Some(from)
    } else {
        Some(find_type(types, from, outer)?)
    };
    while let Some(t) = at {
        if let Some(e) = types[t].enums.iter().find(|e| e.0 == *last) {
            return Some(e.1);
        }
        at = if outer.is_empty() {
            types[t].outer
        } else {
            None
        };
    }
    None
}

/// A built-in type name (`u4le`, `s2`, `f8be`, `b12`, `str`, `strz`).
fn primitive(text: &str, bit_le: bool) -> Option<TypeSpec> {
    match text {
        "str" => return Some(TypeSpec::Str { z: false }),
        "strz" => return Some(TypeSpec::Str { z: true }),
        _ => {}
    }
    let (body, endian) = if let Some(b) = text.strip_suffix("le") {
        (b, Some(Endian::Little))
    } else if let Some(b) = text.strip_suffix("be") {
        (b, Some(Endian::Big))
    } else {
        (text, None)
    };
    let (kind, digits) = body.split_at(body.chars().next().map_or(0, char::len_utf8));
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    let n: u32 = digits.parse().ok()?;
    match kind {
        "u" | "s" if matches!(n, 1 | 2 | 4 | 8) => {
            if n == 1 && endian.is_some() {
                return None;
            }
            Some(TypeSpec::Int {
                size: n as u8,
                signed: kind == "s",
                endian,
            })
        }
        "f" if matches!(n, 4 | 8) => Some(TypeSpec::Float {
            size: n as u8,
            endian,
        }),
        "b" if (1..=64).contains(&n) => Some(TypeSpec::Bits {
            n: n as u8,
            le: endian.map_or(bit_le, |e| e == Endian::Little),
        }),
        _ => None,
    }
}

/// `name(a, b)` split into its name and argument texts (commas inside
/// brackets, parentheses and quotes do not split).
fn split_call(text: &str) -> Option<(&str, Vec<String>)> {
    let text = text.trim();
    let Some(open) = text.find('(') else {
        return Some((text, Vec::new()));
    };
    let inner = text[open + 1..].strip_suffix(')')?;
    let name = text[..open].trim();
    let mut args = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut cur = String::new();
    let mut escaped = false;
    for c in inner.chars() {
        if let Some(q) = quote {
            cur.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' && q == '"' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => {
                quote = Some(c);
                cur.push(c);
            }
            '(' | '[' => {
                depth += 1;
                cur.push(c);
            }
            ')' | ']' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
                cur.push(c);
            }
            ',' if depth == 0 => args.push(std::mem::take(&mut cur).trim().to_string()),
            _ => cur.push(c),
        }
    }
    if quote.is_some() || depth != 0 {
        return None;
    }
    if !cur.trim().is_empty() || !args.is_empty() {
        args.push(cur.trim().to_string());
    }
    Some((name, args))
}

/// An integer as YAML and `.ksy` write them: decimal, `0x`, `0o`, `0b`,
/// with `_` separators, optionally negative.
pub fn parse_int(text: &str) -> Option<i128> {
    let t = text.trim().replace('_', "");
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r.to_string()),
        None => (false, t.strip_prefix('+').unwrap_or(&t).to_string()),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else if let Some(o) = t.strip_prefix("0o") {
        i128::from_str_radix(o, 8).ok()?
    } else if let Some(b) = t.strip_prefix("0b") {
        i128::from_str_radix(b, 2).ok()?
    } else if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        t.parse().ok()?
    } else {
        return None;
    };
    Some(if neg { -v } else { v })
}
