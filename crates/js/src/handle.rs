//! One decoded file behind the JavaScript API, in plain Rust (so it is tested
//! natively): the tree decoded as a viewer decodes it
//! ([`hexlens_core::view`]), its lazy groups decoded when asked for, and the
//! plain records the API hands to JavaScript.
//!
//! Node ids are the core's: they stay valid for the handle's life (opening a
//! group appends nodes, nothing is released).

use hexlens_core::output;
use hexlens_core::session::row_text;
use hexlens_core::stream::{self, DumpError, DumpForm};
use hexlens_core::{view, ByteSource, NodeId, Options, Tree, ValueRef};
use serde::ser::{Serialize, Serializer};

/// A span in bytes or bits, as the JSON contract writes `bits` and `ref`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Span {
    /// First byte (or bit).
    pub start: f64,
    /// One past the last.
    pub end: f64,
}

/// A node's value. Integers are numbers when JavaScript holds them exactly
/// and `BigInt`s beyond 2^53 (with a serializer that makes 64-bit integers
/// `BigInt`s); floats are the text the JSON contract writes.
#[derive(Debug, Clone, PartialEq)]
pub enum JsValueOf {
    /// Unsigned integer.
    U(u64),
    /// Signed integer.
    I(i64),
    /// Floating point, as text (`1.5`, `NaN`).
    F(String),
    /// Boolean.
    Bool(bool),
    /// Text.
    Str(String),
}

/// Largest integer a JavaScript number holds exactly.
const MAX_SAFE: u64 = (1 << 53) - 1;

impl Serialize for JsValueOf {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            JsValueOf::U(v) if *v <= MAX_SAFE => s.serialize_f64(*v as f64),
            JsValueOf::U(v) => s.serialize_u64(*v),
            JsValueOf::I(v) if v.unsigned_abs() <= MAX_SAFE => s.serialize_f64(*v as f64),
            JsValueOf::I(v) => s.serialize_i64(*v),
            JsValueOf::F(t) | JsValueOf::Str(t) => s.serialize_str(t),
            JsValueOf::Bool(b) => s.serialize_bool(*b),
        }
    }
}

/// What `root()`, `node(id)`, `children(id)` and `find(path)` return for a
/// node: the keys of the JSON contract's node (without `children`), and where
/// it sits in the tree.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeRecord {
    /// The node's id in this tree.
    pub id: NodeId,
    /// Its parent's id (absent on the root).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<NodeId>,
    /// Field name (`Header`, `[3]`, a page `[0…999]`).
    pub name: String,
    /// Kind (`struct`, `u32`, `fourcc`, …).
    pub kind: &'static str,
    /// First byte (rounded down from the bit span).
    pub start: f64,
    /// One past the last byte (rounded up).
    pub end: f64,
    /// The decoded value (absent on groups and raw byte runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<JsValueOf>,
    /// What the value means (enum names, flags, where an offset points).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display: Option<String>,
    /// The node's own error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The span in bits, when it is not whole bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bits: Option<Span>,
    /// The bytes the node points at.
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<Span>,
    /// An error somewhere below (or here).
    #[serde(skip_serializing_if = "is_false")]
    pub damaged: bool,
    /// Children not decoded yet: `children(id)` decodes them.
    #[serde(skip_serializing_if = "is_false")]
    pub lazy: bool,
    /// A page of a long list (`[1000…1999]`), not a node of the file: paths
    /// and the JSON contract look through it.
    #[serde(skip_serializing_if = "is_false")]
    pub page: bool,
    /// Children decoded so far (0 while lazy).
    pub child_count: u32,
    /// Slash-separated path, as the JSON contract writes paths (empty for
    /// the root).
    pub path: String,
    /// One line for a tree view: the value and its meaning, or a size.
    pub text: String,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// How to decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenOptions {
    /// Scan the file for containers of every format, whatever it is
    /// (`hexlens dump --scan`).
    pub scan: bool,
    /// Decode small groups at opening, breadth first, until the tree holds
    /// this many nodes (0: only what the format's top level needs; the rest
    /// waits for `children` or `find`).
    pub prefetch: usize,
    /// Decode with this format (a `.ksy` the caller gave:
    /// [`hexlens_core::ksy::from_text`]) instead of the one the file's
    /// bytes name.
    pub format: Option<Given>,
}

/// A format given to [`Handle::open`] (its registry entry; equal only to
/// itself).
#[derive(Clone, Copy)]
pub struct Given(pub &'static hexlens_core::formats::Format);

impl std::fmt::Debug for Given {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name)
    }
}

impl PartialEq for Given {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Given {}

impl Default for OpenOptions {
    /// No scan; the viewer's prefetch ([`view::Budget::default`]).
    fn default() -> Self {
        OpenOptions {
            scan: false,
            prefetch: view::Budget::default().nodes,
            format: None,
        }
    }
}

/// How to make a program's text ([`Handle::listing`]), as `hexlens dis`'s
/// options say it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListingOptions {
    /// LLVM text as `llvm-dis-14` (14) or `llvm-dis-19` (19) prints it;
    /// `None`: by the module's producer (`--dialect`).
    pub dialect: Option<u32>,
    /// Only this function's text (`--function`).
    pub function: Option<String>,
    /// What a bare bitcode module calls itself (`; ModuleID`, and
    /// `source_filename` when the module names no source): `hexlens dis`
    /// gives the file's path; by default the program's path ("").
    pub name: Option<String>,
}

/// One line of a program's text: the record `hexlens dis --json` writes.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ListingLine {
    /// The program's path in the tree (`Parts/[3]`; "" for a bare module).
    pub program: String,
    /// The line's number in its program's text, from 1.
    pub line: u32,
    /// The text, without a line break.
    pub text: String,
    /// The bytes the line was made from: half-open `[start, end]` pairs.
    pub spans: Vec<[f64; 2]>,
    /// The same in bits.
    pub bits: Vec<[f64; 2]>,
}

/// A decoded file and its on-demand tree.
pub struct Handle<S: ByteSource> {
    src: S,
    tree: Tree,
    format: &'static str,
    scan: bool,
    /// The format it was opened with, if one was given.
    given: Option<Given>,
}

impl<S: ByteSource> Handle<S> {
    /// Decodes `src` as a viewer does: the top levels and small groups now
    /// (up to `opts.prefetch` nodes), bigger groups and long lists' pages
    /// when they are opened. Never fails: a file no decoder recognises is format
    /// `raw` with an error on the root.
    pub fn open(src: S, opts: OpenOptions) -> Self {
        let o = Options {
            scan: opts.scan,
            ..view::viewer_options()
        };
        let mut d = hexlens_core::decode_as_or_with(opts.format.map(|g| g.0), &src, &o);
        let budget = view::Budget {
            nodes: opts.prefetch,
            ..view::Budget::default()
        };
        view::prefetch(&src, &mut d.tree, budget);
        Handle {
            src,
            tree: d.tree,
            format: d.format,
            scan: opts.scan,
            given: opts.format,
        }
    }

    /// The decoder that read the file (`dxcontainer`, …), or `raw`.
    pub fn format(&self) -> &'static str {
        self.format
    }

    /// The file's size in bytes.
    pub fn file_size(&self) -> u64 {
        self.src.len()
    }

    /// The tree as decoded so far (read only).
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The root's record.
    pub fn root(&self) -> NodeRecord {
        self.record(self.tree.root())
    }

    fn check(&self, id: f64) -> Result<NodeId, String> {
        if id.fract() == 0.0 && id >= 0.0 && id < self.tree.len() as f64 {
            Ok(id as NodeId)
        } else {
            Err(format!(
                "no node {id} in this tree (ids are 0 to {})",
                self.tree.len().saturating_sub(1)
            ))
        }
    }

    /// Node `id`'s record. Errors if there is no such node.
    pub fn node(&self, id: f64) -> Result<NodeRecord, String> {
        Ok(self.record(self.check(id)?))
    }

    /// The children of node `id`, decoding them first if the node is lazy.
    /// Errors if there is no such node or its group cannot be decoded.
    pub fn children(&mut self, id: f64) -> Result<Vec<NodeRecord>, String> {
        let id = self.check(id)?;
        if self.tree.is_lazy(id) {
            hexlens_core::expand(&self.src, &mut self.tree, id)?;
        }
        Ok(self
            .tree
            .children(id)
            .iter()
            .map(|&c| self.record(c))
            .collect())
    }

    /// The node at `path` (`Parts/[3]/PSVInfo`, as the JSON contract writes
    /// paths; pages looked through; empty: the root), decoding the groups on
    /// the way and the node itself if it is lazy. `None` if there is no such
    /// node.
    pub fn find(&mut self, path: &str) -> Option<NodeRecord> {
        stream::select(&self.src, &mut self.tree, path).map(|id| self.record(id))
    }

    /// The whole file, or the subtree at `path`, in the JSON contract: byte
    /// for byte what `hexlens dump FILE --json [--select PATH] [--scan]`
    /// writes (without its final newline). Decodes the file afresh as it
    /// writes, dropping each part once written, so this tree is unchanged.
    pub fn dump(&self, path: Option<&str>, form: DumpForm) -> Result<String, String> {
        let mut out = Vec::new();
        let format = self.given.map(|g| g.0);
        let style = hexlens_core::output::TextStyle::default();
        match stream::dump_styled_as(
            &self.src, format, path, form, None, self.scan, &style, &mut out,
        ) {
            Ok(_) => {}
            Err(DumpError::NoSuchPath(p)) => return Err(format!("there is no node at '{p}'")),
            Err(DumpError::Io(e)) => return Err(format!("the dump failed: {e}")),
        }
        if form == DumpForm::Json && out.last() == Some(&b'\n') {
            out.pop();
        }
        Ok(String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
    }

    /// The text of the programs the file holds, line by line with the bytes
    /// each line was made from: what `hexlens dis FILE --json [--select
    /// PATH]` writes, a record a line. With `path`, the program that holds
    /// the node there (an error if there is no such node or it is in no
    /// program); without, every program in file order (none: no lines).
    pub fn listing(
        &mut self,
        path: Option<&str>,
        opts: &ListingOptions,
    ) -> Result<Vec<ListingLine>, String> {
        use hexlens_core::dis;
        dis::open_programs(&self.src, &mut self.tree);
        let programs = match path {
            Some(p) => {
                let id = stream::select(&self.src, &mut self.tree, p)
                    .ok_or_else(|| format!("there is no node at '{p}'"))?;
                vec![dis::program_at(&self.tree, id).ok_or_else(|| {
                    format!("the node at '{p}' is in no program hexlens can print")
                })?]
            }
            None => dis::programs(&self.tree),
        };
        let mut out = Vec::new();
        let mut found = opts.function.is_none();
        for p in &programs {
            let name = match &opts.name {
                Some(n) if p.node == self.tree.root() => n.clone(),
                _ => p.path.clone(),
            };
            let mut n = 0u32;
            found |= dis::listing_function_to(
                &self.tree,
                p,
                &self.src,
                &name,
                opts.dialect,
                opts.function.as_deref(),
                &mut |l| {
                    n += 1;
                    let pairs =
                        |r: &[(u64, u64)]| r.iter().map(|&(s, e)| [s as f64, e as f64]).collect();
                    out.push(ListingLine {
                        program: p.path.clone(),
                        line: n,
                        spans: pairs(&l.spans()),
                        bits: pairs(&l.bits),
                        text: l.text,
                    });
                },
            );
        }
        if !found {
            let f = opts.function.as_deref().unwrap_or_default();
            return Err(format!("no function '{f}' in the program"));
        }
        Ok(out)
    }

    /// The record of node `id` (which exists).
    pub fn record(&self, id: NodeId) -> NodeRecord {
        let t = &self.tree;
        let span = t.span(id);
        let mut display = String::new();
        let has_display = t.display_into(id, &mut display);
        let len = if span.is_empty() {
            0
        } else {
            span.end_byte() - span.start_byte()
        };
        NodeRecord {
            id,
            parent: t.parent(id),
            name: t.name(id).to_string(),
            kind: t.kind(id).as_str(),
            start: span.start_byte() as f64,
            end: span.end_byte() as f64,
            value: t.value_ref(id).map(|v| match v {
                ValueRef::U(x) => JsValueOf::U(x),
                ValueRef::I(x) => JsValueOf::I(x),
                ValueRef::F(x) => JsValueOf::F(format!("{x}")),
                ValueRef::Bool(b) => JsValueOf::Bool(b),
                ValueRef::Str(s) => JsValueOf::Str(s.to_string()),
            }),
            display: has_display.then_some(display),
            error: t.error(id).map(str::to_string),
            bits: (!span.is_byte_aligned()).then_some(Span {
                start: span.start as f64,
                end: span.end as f64,
            }),
            reference: t.reference(id).map(|r| Span {
                start: r.start_byte() as f64,
                end: r.end_byte() as f64,
            }),
            damaged: t.is_damaged(id),
            lazy: t.is_lazy(id),
            page: t.is_page(id),
            child_count: t.children(id).len() as u32,
            path: t.path(id),
            text: output::one_line(&row_text(t, id, len), 400),
        }
    }
}

/// The decoder that recognises `src` (its short name), if any.
pub fn detect(src: &dyn ByteSource) -> Option<&'static str> {
    hexlens_core::detect(src).map(|f| f.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(path: &str) -> Vec<u8> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/");
        std::fs::read(format!("{dir}{path}")).expect("fixture")
    }

    const BITCODE: &str = "bitcode/gen_code.bc";
    const DXIL: &str = "dxcontainer/curated/basic_code_dxil.dxil.dxbc";

    #[test]
    fn every_format_is_detected_by_its_short_name() {
        for (path, want) in [
            (DXIL, "dxcontainer"),
            (BITCODE, "bitcode"),
            ("chapel-dyno/spec_le.dyno", "chapel-dyno"),
            ("cdac/x86_64-blob.bin", "cdac"),
            ("llvm1-bytecode/rev3_llvm13.bc", "llvm1-bytecode"),
            ("msf/llvm_minimal.pdb", "msf"),
        ] {
            let data = fixture(path);
            assert_eq!(detect(&data.as_slice()), Some(want), "{path}");
        }
        assert_eq!(detect(&b"nothing known".as_slice()), None);
    }

    #[test]
    fn a_lazy_group_has_children_once_asked_for_them() {
        // A small file is decoded whole by the prefetch: none here.
        let data = fixture(BITCODE);
        let opts = OpenOptions {
            prefetch: 0,
            ..OpenOptions::default()
        };
        let full = Handle::open(data.clone(), OpenOptions::default());
        assert_eq!(full.tree.lazy_count(), 0);
        let mut h = Handle::open(data.clone(), opts);
        let lazy = (0..h.tree.len() as NodeId)
            .find(|&i| h.tree.is_lazy(i))
            .expect("a lazy group");
        let before = h.node(lazy as f64).unwrap();
        assert!(before.lazy && before.child_count == 0);
        let kids = h.children(lazy as f64).unwrap();
        assert!(!kids.is_empty());
        assert!(kids.iter().all(|k| k.parent == Some(lazy)));
        let after = h.node(lazy as f64).unwrap();
        assert!(!after.lazy);
        assert_eq!(after.child_count as usize, kids.len());
        // A child's path is its parent's and its name.
        let k = &kids[0];
        assert!(k.path.starts_with(&after.path), "{} {}", k.path, after.path);
    }

    #[test]
    fn a_path_finds_its_node_and_a_wrong_one_finds_nothing() {
        let mut h = Handle::open(fixture(DXIL), OpenOptions::default());
        let magic = h.find("Header/Magic").expect("the magic");
        assert_eq!(magic.name, "Magic");
        assert_eq!((magic.start, magic.end), (0.0, 4.0));
        assert_eq!(magic.kind, "fourcc");
        assert_eq!(magic.value, Some(JsValueOf::Str("DXBC".into())));
        assert_eq!(h.find("").unwrap().id, h.tree().root());
        assert!(h.find("Header/Nope").is_none());
        assert!(h.find("Parts/[9999]").is_none());
    }

    #[test]
    fn ids_out_of_range_are_errors_that_say_so() {
        let mut h = Handle::open(fixture(DXIL), OpenOptions::default());
        let n = h.tree().len() as f64;
        for bad in [n, -1.0, 0.5, f64::NAN, f64::INFINITY] {
            let e = h.node(bad).unwrap_err();
            assert!(e.starts_with("no node"), "{e}");
            assert!(h.children(bad).is_err());
        }
    }

    #[test]
    fn the_json_dump_is_the_contract_of_an_eager_decode() {
        for path in [DXIL, "msf/llvm_minimal.pdb", "chapel-dyno/truncated.dyno"] {
            let data = fixture(path);
            let h = Handle::open(data.clone(), OpenOptions::default());
            let eager = hexlens_core::decode_bytes(&data);
            assert_eq!(
                h.dump(None, DumpForm::Json).unwrap(),
                output::to_json(&eager),
                "{path}"
            );
        }
        let h = Handle::open(fixture(DXIL), OpenOptions::default());
        let sub = h.dump(Some("Header"), DumpForm::Json).unwrap();
        assert!(sub.contains("\"path\":\"Header\""), "{sub}");
        let e = h.dump(Some("Nope"), DumpForm::Json).unwrap_err();
        assert!(e.contains("Nope"), "{e}");
    }

    #[test]
    fn the_listing_is_the_program_text_dis_makes_from_an_eager_tree() {
        use hexlens_core::dis;
        for path in [
            DXIL,
            "dxcontainer/curated/d3d12_shaders_L2434_ps_dmax_code.dxbc",
            BITCODE,
        ] {
            let data = fixture(path);
            let mut h = Handle::open(data.clone(), OpenOptions::default());
            let got = h.listing(None, &ListingOptions::default()).unwrap();
            let eager = hexlens_core::decode_bytes(&data);
            let programs = dis::programs(&eager.tree);
            assert!(!programs.is_empty(), "{path}");
            let mut want = Vec::new();
            for p in &programs {
                for (k, l) in dis::listing(&eager.tree, p, &data.as_slice())
                    .into_iter()
                    .enumerate()
                {
                    want.push((p.path.clone(), k + 1, l.text.clone(), l.spans()));
                }
            }
            let got: Vec<_> = got
                .iter()
                .map(|l| {
                    let spans = l.spans.iter().map(|&[s, e]| (s as u64, e as u64)).collect();
                    (l.program.clone(), l.line as usize, l.text.clone(), spans)
                })
                .collect::<Vec<(String, usize, String, Vec<(u64, u64)>)>>();
            assert_eq!(got, want, "{path}");
            // A node inside a program picks that program alone.
            let p = &programs[0];
            let inner = format!(
                "{}/{}",
                p.path,
                eager.tree.name(eager.tree.children(p.node)[0])
            );
            let inner = inner.trim_start_matches('/');
            let one = h.listing(Some(inner), &ListingOptions::default()).unwrap();
            assert!(one.iter().all(|l| l.program == p.path), "{path} {inner}");
            assert_eq!(one.len(), want.iter().filter(|w| w.0 == p.path).count());
        }
        let mut h = Handle::open(fixture(DXIL), OpenOptions::default());
        let e = h
            .listing(Some("Nope"), &ListingOptions::default())
            .unwrap_err();
        assert!(e.contains("no node at 'Nope'"), "{e}");
        let e = h
            .listing(Some("Header"), &ListingOptions::default())
            .unwrap_err();
        assert!(e.contains("in no program"), "{e}");
        // One function, in either dialect; the name of a bare module.
        let mut h = Handle::open(fixture(BITCODE), OpenOptions::default());
        let named = ListingOptions {
            name: Some("gen_code.bc".into()),
            ..ListingOptions::default()
        };
        let all = h.listing(None, &named).unwrap();
        assert_eq!(all[0].text, "; ModuleID = 'gen_code.bc'");
        let define = all
            .iter()
            .find(|l| l.text.starts_with("define "))
            .expect("a definition");
        let f = define
            .text
            .split('@')
            .nth(1)
            .unwrap()
            .split('(')
            .next()
            .unwrap();
        let opts = ListingOptions {
            function: Some(f.to_string()),
            ..ListingOptions::default()
        };
        let one = h.listing(None, &opts).unwrap();
        assert_eq!(one[0].text, define.text);
        assert_eq!(one.last().unwrap().text, "}");
        let missing = ListingOptions {
            function: Some("no_such_function".into()),
            ..ListingOptions::default()
        };
        assert!(h
            .listing(None, &missing)
            .unwrap_err()
            .contains("no_such_function"));
        for d in [14, 19] {
            let o = ListingOptions {
                dialect: Some(d),
                ..ListingOptions::default()
            };
            assert!(!h.listing(None, &o).unwrap().is_empty());
        }
    }

    #[test]
    fn an_unknown_file_is_raw_with_an_error_on_the_root() {
        let h = Handle::open(b"\x00\x01not a format".to_vec(), OpenOptions::default());
        assert_eq!(h.format(), "raw");
        let r = h.root();
        assert!(r.damaged);
        assert!(r.error.unwrap().contains("no decoder recognises"));
    }
}
