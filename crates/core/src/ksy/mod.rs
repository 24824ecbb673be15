//! Formats the user describes: Kaitai Struct `.ksy` files, read and
//! interpreted. [`yaml`] reads the YAML they are written in, keeping where
//! every node is, so an error in a `.ksy` can name its line and column;
//! [`model`] turns it into types, fields and enums with every name
//! resolved; [`expr`] is the expression language; [`interp`] decodes a file
//! with a model into the same tree every format gives.

pub mod encoding;
pub mod expr;
mod inflate;
pub mod interp;
pub mod model;
pub mod yaml;

pub(crate) fn encoding_known(name: &str) -> bool {
    encoding::known(name)
}

use crate::formats::Format;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

pub use model::{compile, Importer, KsyError, NoImports, Spec};

/// Finds imported `.ksy` files on disk: a relative name beside the file
/// that imports it, an absolute one (`/common/riff`) under each folder
/// given, in order.
pub struct DirImporter {
    pub dirs: Vec<PathBuf>,
}

impl Importer for DirImporter {
    fn import(&mut self, name: &str, from: &str) -> Result<(String, String), String> {
        let file = format!("{}.ksy", name.trim_start_matches('/'));
        let candidates: Vec<PathBuf> = if name.starts_with('/') {
            self.dirs.iter().map(|d| d.join(&file)).collect()
        } else {
            let here = Path::new(from).parent().unwrap_or(Path::new("."));
            vec![here.join(&file)]
        };
        for c in &candidates {
            if let Ok(text) = std::fs::read_to_string(c) {
                let key = std::fs::canonicalize(c).unwrap_or_else(|_| c.clone());
                return Ok((key.to_string_lossy().into_owned(), text));
            }
        }
        Err(if candidates.is_empty() {
            format!(
                "cannot import '{name}': an absolute import needs an import folder (--ksy-path)"
            )
        } else {
            format!(
                "cannot import '{name}': no file at {}",
                candidates
                    .iter()
                    .map(|c| c.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }
}

/// Imported `.ksy` files given as texts (a browser's or a JavaScript
/// program's), by name: an import (`riff`, `/common/riff`,
/// `../common/riff`) is the text named as written (without a leading `/`),
/// else the one named by its last part (`riff`), with or without `.ksy`.
/// The names asked for and not given are kept, for the caller to ask for.
#[derive(Default)]
pub struct MapImporter {
    pub files: BTreeMap<String, String>,
    pub missing: Vec<String>,
}

impl MapImporter {
    /// The key of the text an import names, if one is given.
    fn find(&self, name: &str) -> Option<&str> {
        let whole = name.trim_start_matches('/');
        let last = whole.rsplit('/').next().unwrap_or(whole);
        [whole, last].into_iter().find_map(|n| {
            [n.to_string(), format!("{n}.ksy")]
                .into_iter()
                .find_map(|k| self.files.get_key_value(&k).map(|(k, _)| k.as_str()))
        })
    }
}

impl Importer for MapImporter {
    fn import(&mut self, name: &str, _from: &str) -> Result<(String, String), String> {
        if let Some(k) = self.find(name) {
            let k = k.to_string();
            let text = self.files[&k].clone();
            return Ok((k, text));
        }
        let last = name.rsplit('/').next().unwrap_or(name);
        if !self.missing.iter().any(|m| m == last) {
            self.missing.push(last.to_string());
        }
        Err(format!(
            "cannot import '{name}': give the format {last}.ksy too"
        ))
    }
}

/// Why a `.ksy` given as text could not be used: the error, and the
/// imports it names that were not given (by their last part, `riff`).
#[derive(Debug, Clone)]
pub struct TextError {
    pub error: KsyError,
    pub missing: Vec<String>,
}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

/// The formats [`from_text`] registered, by everything they were made from.
type Registered =
    HashMap<(String, String, BTreeMap<String, String>, u64, Option<u64>), &'static Format>;

/// The registry entry of the `.ksy` format `text` (called `name` in
/// messages), with `imports` (see [`MapImporter`]), applied from byte `at`
/// to `size` bytes of the file (`None`: to its end, see [`format_in`]):
/// registered the first time, found after that (a program that decodes
/// many files with one format makes its entry once).
pub fn from_text(
    name: &str,
    text: &str,
    imports: &BTreeMap<String, String>,
    at: u64,
    size: Option<u64>,
) -> Result<&'static Format, TextError> {
    static SEEN: OnceLock<Mutex<Registered>> = OnceLock::new();
    let key = (
        name.to_string(),
        text.to_string(),
        imports.clone(),
        at,
        size,
    );
    let seen = SEEN.get_or_init(Default::default);
    if let Some(&f) = seen.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(f);
    }
    let mut imp = MapImporter {
        files: imports.clone(),
        missing: Vec::new(),
    };
    let spec = compile(name, text, &mut imp).map_err(|error| TextError {
        error,
        missing: imp.missing,
    })?;
    let f = crate::formats::register(format_in(spec, at, size));
    seen.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, f);
    Ok(f)
}

/// Reads a `.ksy` file and what it imports (from `dirs`).
pub fn load_file(path: &Path, dirs: &[PathBuf]) -> Result<Spec, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut imp = DirImporter {
        dirs: dirs.to_vec(),
    };
    compile(&path.to_string_lossy(), &text, &mut imp).map_err(|e| e.to_string())
}

/// The registry entry of a `.ksy` format, named `ksy:<meta/id>` (the
/// entry and its names live as long as the program: made once per format
/// a program uses). `at`: the format applies from that byte of the file.
pub fn format(spec: Spec, at: u64) -> Format {
    format_in(spec, at, None)
}

/// The registry entry of a `.ksy` format applied to `size` bytes of the file
/// from byte `at` (`None`: to its end), as [`format`]: its stream ends
/// there (`size` past the file's end reads to the file's end).
pub fn format_in(spec: Spec, at: u64, size: Option<u64>) -> Format {
    let spec = Arc::new(spec);
    let name: &'static str = Box::leak(format!("ksy:{}", spec.id).into_boxed_str());
    let root: &'static str = if at == 0 && size.is_none() {
        Box::leak(spec.id.clone().into_boxed_str())
    } else {
        "file"
    };
    let exts: Vec<&'static str> = spec
        .extensions
        .iter()
        .map(|e| &*Box::leak(e.clone().into_boxed_str()))
        .collect();
    let whole = at == 0 && size.is_none();
    let words = spec.clone();
    let doc: Box<crate::formats::DocOf> = Box::new(move |t, id| doc_of(&words, t, id, whole));
    let decode: Box<crate::formats::Decode> =
        Box::new(move |b| interp::decode_at(&spec, b, at, size));
    Format {
        name,
        root,
        description: "a format described by a Kaitai Struct .ksy file",
        extensions: Box::leak(exts.into_boxed_slice()),
        module: "ksy",
        probe: |_| false,
        head_probe: true,
        embedded: None,
        decode: Box::leak(decode),
        doc: Some(Box::leak(doc)),
    }
}

/// What the `.ksy` says of node `id` of a tree it decoded (`whole`: over the
/// whole file, the root being the format's top-level object; else that
/// object is the root's first child): the `doc` of the field the node is
/// (a list's element: of its list), or of its type when the field says
/// none, and the field's `doc-ref`s. Found by following the node's names
/// through the format's types (a `switch-on` field's node through each of
/// the types it can be); `None` where the `.ksy` says nothing.
pub fn doc_of(
    spec: &Spec,
    t: &crate::tree::Tree,
    id: crate::NodeId,
    whole: bool,
) -> Option<String> {
    use model::{Member, TypeSpec};
    let mut chain = Vec::new();
    let mut cur = Some(id);
    while let Some(c) = cur.filter(|&c| c != t.root()) {
        chain.push(c);
        cur = t.parent(c);
    }
    chain.reverse();
    if !whole {
        // The format's object under the file's root.
        if chain.is_empty() {
            return None;
        }
        chain.remove(0);
    }
    let user_types = |ty: &TypeSpec| -> Vec<model::TypeId> {
        match ty {
            TypeSpec::User { ty, .. } => vec![*ty],
            TypeSpec::Switch { cases, default, .. } => cases
                .iter()
                .map(|(_, c)| c)
                .chain(default.as_deref())
                .filter_map(|c| match c {
                    TypeSpec::User { ty, .. } => Some(*ty),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    };
    // The field the node is (a list's element: its list's), and its types.
    let mut types = vec![spec.root];
    let mut field = None;
    for node in chain {
        let name = match t.name(node) {
            crate::tree::NameRef::Str(s) if !s.starts_with('[') => s,
            // An element of a list, or a page of one.
            _ => continue,
        };
        let attr = types.iter().find_map(|&ty| {
            let def = &spec.types[ty];
            match def.member(name)? {
                Member::Seq(k) => def.seq.get(k),
                Member::Instance(k) => def.instances.get(k),
                Member::Param(_) => None,
            }
        })?;
        types = user_types(&attr.ty);
        field = Some(attr);
    }
    let type_doc = || match types.as_slice() {
        [only] => spec.types[*only].doc.clone(),
        _ => None,
    };
    let said = match field {
        // The format's top-level object.
        None => type_doc(),
        Some(attr) => {
            let own = attr.doc.clone().or_else(type_doc);
            if attr.doc_ref.is_empty() {
                own
            } else {
                let refs = format!("See: {}", attr.doc_ref.join("; "));
                Some(match own {
                    Some(d) => format!("{}\n{refs}", d.trim_end()),
                    None => refs,
                })
            }
        }
    };
    said.map(|d| d.trim_end().to_string())
}
