//! The JavaScript API (wasm32 only): `detect`, `decode`, `open`, `formats`
//! and the `HexTree` class, over [`crate::handle`].
//!
//! Where the bytes come from:
//! - a `Uint8Array` (or `ArrayBuffer`) is read in place, a 64 KiB page at a
//!   time into a bounded cache (16 MiB): the file is not copied into the
//!   module's memory whole. Do not change it while its tree is in use.
//! - a `Blob`/`File` in a Web Worker is read lazily, a page at a time,
//!   through `FileReaderSync`: only what the decoders ask for is read.
//! - a `Blob`/`File` elsewhere (a page's main thread, Node.js) cannot be read
//!   synchronously: `open` reads it whole once (`blob.arrayBuffer()`), and
//!   `decode`/`detect` refuse it with an error saying so.
//!
//! Every failure is a thrown `Error` with a message; a file the decoders
//! cannot make sense of is not a failure: its tree carries the errors, as
//! `hexlens dump` prints them.

use crate::handle::{self, Handle, ListingOptions, NodeRecord, OpenOptions};
use hexlens_core::pages::PageCache;
use hexlens_core::stream::DumpForm;
use hexlens_core::ByteSource;
use js_sys::{ArrayBuffer, Reflect, Uint8Array};
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Pages a source keeps (64 KiB each): 16 MiB.
const CACHE_PAGES: usize = 256;
/// Pages read at once on a miss (1 MiB): a decoder walking the file reads it
/// in a few big reads.
const READ_AHEAD: u64 = 16;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** What `detect`, `decode` and `open` read: a `Uint8Array` (a Node.js
 * `Buffer` too) or an `ArrayBuffer`, read in place, or a `Blob`/`File`. */
export type HexInput = Uint8Array | ArrayBuffer | Blob;

/** Options of `decode` and `open`. */
export interface DecodeOptions {
  /** Scan the file for containers of every format whatever it is
   * (`hexlens dump --scan`). A file no decoder recognises is scanned anyway. */
  scan?: boolean;
  /** Decode small groups at once, breadth first, until the tree holds this
   * many nodes (default 50000; 0: only what the format's top level needs,
   * the rest waits for `children` and `find`). */
  prefetch?: number;
  /** Decode with this Kaitai Struct format (the text of a `.ksy` file)
   * instead of the one the file's bytes name; the tree's format is
   * `ksy:<meta/id>`. A `.ksy` Kaitai's compiler would refuse throws, with
   * its line, column and key path. */
  ksy?: string;
  /** The `.ksy` files it imports, by name: `riff` (or `riff.ksy`) serves
   * `imports: [riff]`, `/common/riff` and `../common/riff`. */
  imports?: Record<string, string>;
  /** Apply the `.ksy` from this byte of the file (a structure inside
   * another file). */
  at?: number;
  /** Apply it to this many bytes from `at` (default: to the file's end):
   * its stream ends there. */
  size?: number;
}

/** A node of the tree: the JSON contract's keys (without `children`) and
 * where it sits. Offsets are bytes, half-open. */
export interface HexNode {
  /** Its id in this tree (stable for the tree's life). */
  id: number;
  /** Its parent's id (absent on the root). */
  parent?: number;
  /** Field name: `Header`, `[3]`, or a page of a long list, `[1000…1999]`. */
  name: string;
  /** `file struct array u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 varint bits bool
   * fourcc string strref bytes padding unknown derived` */
  kind: string;
  start: number;
  end: number;
  /** The value: integers beyond 2^53 are `bigint`s, floats their text. */
  value?: number | bigint | string | boolean;
  /** What the value means: enum names, flags, where an offset points. */
  display?: string;
  /** The node's own error. */
  error?: string;
  /** The span in bits, when it is not whole bytes. */
  bits?: { start: number; end: number };
  /** The bytes the node points at. */
  ref?: { start: number; end: number };
  /** An error here or below. */
  damaged?: true;
  /** Its children are not decoded yet: `children(id)` decodes them. */
  lazy?: true;
  /** A page of a long list (paths and the JSON contract look through it). */
  page?: true;
  /** Children decoded so far (0 while lazy). */
  childCount: number;
  /** Slash-separated path, as the JSON contract writes it ("" for the root). */
  path: string;
  /** One line for a tree view: the value and its meaning, or a size. */
  text: string;
}

/** A node of the JSON contract (`hexlens dump --json`). */
export interface HexDumpNode {
  name: string;
  kind: string;
  start: number;
  end: number;
  value?: number | string | boolean;
  display?: string;
  error?: string;
  children?: HexDumpNode[];
  bits?: { start: number; end: number };
  ref?: { start: number; end: number };
  damaged?: true;
}

/** The JSON contract of `hexlens dump FILE --json`. */
export interface HexDump {
  format: string;
  file_size: number;
  /** The subtree's path, when a subtree was asked for. */
  path?: string;
  tree: HexDumpNode;
  errors: { path: string; start: number; end: number; message: string }[];
}

/** Options of `listing`: `hexlens dis`'s. */
export interface ListingOptions {
  /** LLVM text as `llvm-dis-14` (14: typed pointers) or `llvm-dis-19` (19)
   * prints it; by default by the module's producer (`--dialect`). */
  dialect?: 14 | 19;
  /** Only this function's text (`--function`); throws if there is none. */
  function?: string;
  /** What a bare bitcode module calls itself in `; ModuleID` (and
   * `source_filename`, when the module names no source); default "". */
  name?: string;
}

/** One line of a program's text: the record `hexlens dis --json` writes. */
export interface HexLine {
  /** The program's path in the tree ("" for a bare bitcode module). */
  program: string;
  /** The line's number in its program's text, from 1. */
  line: number;
  text: string;
  /** The bytes the line was made from, half-open `[start, end]` pairs. */
  spans: [number, number][];
  /** The same in bits. */
  bits: [number, number][];
}

/** A decoder `formats()` lists. */
export interface HexFormat {
  name: string;
  description: string;
  extensions: string[];
}
"#;

/// The file a tree reads.
enum Source {
    /// A `Uint8Array`, read in place.
    Array {
        data: Uint8Array,
        cache: RefCell<PageCache>,
    },
    /// A `Blob` read through `FileReaderSync` (in a worker).
    Blob {
        blob: web_sys::Blob,
        reader: web_sys::FileReaderSync,
        cache: RefCell<PageCache>,
    },
}

fn cache(len: u64) -> RefCell<PageCache> {
    RefCell::new(PageCache::new(len, CACHE_PAGES).with_read_ahead(READ_AHEAD))
}

impl Source {
    fn array(data: Uint8Array) -> Self {
        let len = u64::from(data.length());
        Source::Array {
            data,
            cache: cache(len),
        }
    }

    /// `[start, end)` of the file as a `Uint8Array` (`None`: it could not be
    /// read whole, say the array's buffer was detached).
    fn read(&self, start: u64, end: u64) -> Option<Uint8Array> {
        let a = match self {
            Source::Array { data, .. } => {
                let (s, e) = (u32::try_from(start).ok()?, u32::try_from(end).ok()?);
                data.subarray(s, e)
            }
            Source::Blob { blob, reader, .. } => {
                let slice = blob.slice_with_f64_and_f64(start as f64, end as f64).ok()?;
                Uint8Array::new(&reader.read_as_array_buffer(&slice).ok()?.into())
            }
        };
        (u64::from(a.length()) == end - start).then_some(a)
    }
}

impl ByteSource for Source {
    fn len(&self) -> u64 {
        match self {
            Source::Array { cache, .. } | Source::Blob { cache, .. } => cache.borrow().len(),
        }
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        let (Source::Array { cache, .. } | Source::Blob { cache, .. }) = self;
        cache.borrow_mut().read_with_into(
            offset,
            buf,
            |s, e| self.read(s, e).map(|a| a.to_vec()),
            |s, dst| match self.read(s, s + dst.len() as u64) {
                Some(a) => {
                    a.copy_to(dst);
                    true
                }
                None => false,
            },
        )
    }
}

/// True where a `Blob` can be read synchronously (a Web Worker).
fn has_sync_reader() -> bool {
    Reflect::has(&js_sys::global(), &"FileReaderSync".into()).unwrap_or(false)
}

fn is_blob(v: &JsValue) -> bool {
    // `instanceof Blob` throws where there is no `Blob` at all.
    Reflect::has(&js_sys::global(), &"Blob".into()).unwrap_or(false)
        && v.is_instance_of::<web_sys::Blob>()
}

const WHAT_INPUT: &str = "expected a Uint8Array, an ArrayBuffer, or a Blob/File";

/// The source for `input`, read synchronously.
fn source(input: &JsValue) -> Result<Source, JsError> {
    if let Some(a) = input.dyn_ref::<Uint8Array>() {
        return Ok(Source::array(a.clone()));
    }
    if let Some(b) = input.dyn_ref::<ArrayBuffer>() {
        return Ok(Source::array(Uint8Array::new(b)));
    }
    if is_blob(input) {
        if !has_sync_reader() {
            return Err(JsError::new(
                "a Blob or File can be read synchronously only in a Web Worker (FileReaderSync); \
                 use `await open(blob)`, which reads it whole here, or pass its bytes",
            ));
        }
        let blob: web_sys::Blob = input.clone().unchecked_into();
        let reader = web_sys::FileReaderSync::new()
            .map_err(|_| JsError::new("FileReaderSync is not usable here"))?;
        let len = blob.size() as u64;
        return Ok(Source::Blob {
            blob,
            reader,
            cache: cache(len),
        });
    }
    Err(JsError::new(&format!(
        "{WHAT_INPUT}, not {}",
        type_of(input)
    )))
}

fn type_of(v: &JsValue) -> String {
    if v.is_null() {
        return "null".into();
    }
    v.js_typeof().as_string().unwrap_or_default()
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct Opts {
    scan: bool,
    prefetch: Option<u32>,
    ksy: Option<String>,
    imports: std::collections::BTreeMap<String, String>,
    at: Option<f64>,
    size: Option<f64>,
}

/// An offset or length option: a whole number of bytes.
fn byte_count(v: Option<f64>, what: &str) -> Result<Option<u64>, JsError> {
    match v {
        None => Ok(None),
        Some(a) if a >= 0.0 && a.fract() == 0.0 && a <= 2f64.powi(53) => Ok(Some(a as u64)),
        Some(a) => Err(JsError::new(&format!(
            "bad options: {what} {a} is not a byte {}",
            if what == "at" { "offset" } else { "count" }
        ))),
    }
}

/// An options argument: `T`'s default when absent, else an object with no
/// key but `known`'s, read as `T` (`how`: its fields' types, for errors).
fn read_options<T: serde::de::DeserializeOwned + Default>(
    v: &JsValue,
    known: &[&str],
    how: &str,
) -> Result<T, JsError> {
    if v.is_undefined() || v.is_null() {
        return Ok(T::default());
    }
    let Some(obj) = v.dyn_ref::<js_sys::Object>().filter(|_| v.is_object()) else {
        return Err(JsError::new(&format!(
            "bad options: expected an object, not {}",
            type_of(v)
        )));
    };
    // Each key is checked: the deserializer reads only the fields it knows.
    for k in js_sys::Object::keys(obj).iter() {
        let k = k.as_string().unwrap_or_default();
        if !known.contains(&k.as_str()) {
            return Err(JsError::new(&format!(
                "bad options: unknown option '{k}' (known: {})",
                known.join(", ")
            )));
        }
    }
    serde_wasm_bindgen::from_value(v.clone())
        .map_err(|e| JsError::new(&format!("bad options: {e} (known: {how})")))
}

fn options(v: &JsValue) -> Result<OpenOptions, JsError> {
    let o: Opts = read_options(
        v,
        &["scan", "prefetch", "ksy", "imports", "at", "size"],
        "{scan: boolean, prefetch: number, ksy: string, imports: {name: string}, at: number, size: number}",
    )?;
    if o.ksy.is_none() && (o.at.is_some() || o.size.is_some() || !o.imports.is_empty()) {
        return Err(JsError::new(
            "bad options: `at`, `size` and `imports` go with `ksy`",
        ));
    }
    if o.ksy.is_some() && o.scan {
        return Err(JsError::new(
            "bad options: `scan` and `ksy` exclude each other",
        ));
    }
    let at = byte_count(o.at, "at")?.unwrap_or(0);
    let size = byte_count(o.size, "size")?;
    let format = match &o.ksy {
        Some(text) => Some(handle::Given(
            hexlens_core::ksy::from_text("format.ksy", text, &o.imports, at, size)
                .map_err(|e| JsError::new(&format!("the .ksy is refused: {e}")))?,
        )),
        None => None,
    };
    Ok(OpenOptions {
        scan: o.scan,
        prefetch: o
            .prefetch
            .map_or(OpenOptions::default().prefetch, |n| n as usize),
        format,
    })
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct ListingOpts {
    dialect: Option<u32>,
    function: Option<String>,
    name: Option<String>,
}

fn listing_options(v: &JsValue) -> Result<ListingOptions, JsError> {
    let o: ListingOpts = read_options(
        v,
        &["dialect", "function", "name"],
        "{dialect: 14 | 19, function: string, name: string}",
    )?;
    if let Some(d) = o.dialect.filter(|d| ![14, 19].contains(d)) {
        return Err(JsError::new(&format!(
            "bad options: dialect {d} (known: 14, 19)"
        )));
    }
    Ok(ListingOptions {
        dialect: o.dialect,
        function: o.function,
        name: o.name,
    })
}

/// Plain JS objects; 64-bit integers beyond 2^53 as `BigInt`s.
fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsError> {
    let s = serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true);
    v.serialize(&s).map_err(|e| JsError::new(&e.to_string()))
}

fn err(e: String) -> JsError {
    JsError::new(&e)
}

/// The short name of the decoder that recognises the file (`dxcontainer`,
/// `bitcode`, `llvm1-bytecode`, `chapel-dyno`, `cdac`, `msf`), or `undefined`. Throws if
/// `input` is not a file (or is a `Blob` outside a worker).
#[wasm_bindgen(unchecked_return_type = "string | undefined")]
pub fn detect(
    #[wasm_bindgen(unchecked_param_type = "HexInput")] input: JsValue,
) -> Result<JsValue, JsError> {
    let src = source(&input)?;
    Ok(handle::detect(&src).map_or(JsValue::UNDEFINED, JsValue::from))
}

/// Decodes a file now and returns its tree. A `Blob` is accepted only in a
/// Web Worker (read lazily); elsewhere use `open`.
#[wasm_bindgen]
pub fn decode(
    #[wasm_bindgen(unchecked_param_type = "HexInput")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DecodeOptions")] options: JsValue,
) -> Result<HexTree, JsError> {
    let opts = self::options(&options)?;
    Ok(HexTree {
        h: Handle::open(source(&input)?, opts),
    })
}

/// Decodes a file and resolves to its tree: a `Blob` in a Web Worker is read
/// lazily, elsewhere it is read whole first.
#[wasm_bindgen]
pub async fn open(
    #[wasm_bindgen(unchecked_param_type = "HexInput")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DecodeOptions")] options: JsValue,
) -> Result<HexTree, JsError> {
    let opts = self::options(&options)?;
    let src = if is_blob(&input) && !has_sync_reader() {
        let blob: &web_sys::Blob = input.unchecked_ref();
        let buf = wasm_bindgen_futures::JsFuture::from(blob.array_buffer())
            .await
            .map_err(|e| {
                let why = Reflect::get(&e, &"message".into())
                    .ok()
                    .and_then(|m| m.as_string())
                    .unwrap_or_else(|| "unknown error".into());
                JsError::new(&format!("could not read the Blob: {why}"))
            })?;
        Source::array(Uint8Array::new(&buf))
    } else {
        source(&input)?
    };
    Ok(HexTree {
        h: Handle::open(src, opts),
    })
}

#[derive(Serialize)]
struct FormatInfo {
    name: &'static str,
    description: &'static str,
    extensions: &'static [&'static str],
}

/// The decoders built in, in the order their probes are tried.
#[wasm_bindgen(unchecked_return_type = "HexFormat[]")]
pub fn formats() -> Result<JsValue, JsError> {
    let list: Vec<FormatInfo> = hexlens_core::formats()
        .iter()
        .map(|f| FormatInfo {
            name: f.name,
            description: f.description,
            extensions: f.extensions,
        })
        .collect();
    to_js(&list)
}

/// A decoded file: its tree, decoded on demand. Small groups are decoded at
/// once (up to `options.prefetch` nodes, 50,000 by default); bigger ones, and
/// the pages of long lists, when `children(id)` or `find(path)` reaches them. Call `free()`
/// when done to release its memory at once.
#[wasm_bindgen]
pub struct HexTree {
    h: Handle<Source>,
}

#[wasm_bindgen]
impl HexTree {
    /// The decoder that read the file, or `raw` when none recognised it.
    #[wasm_bindgen(getter)]
    pub fn format(&self) -> String {
        self.h.format().to_string()
    }

    /// The file's size in bytes.
    #[wasm_bindgen(getter, js_name = fileSize)]
    pub fn file_size(&self) -> f64 {
        self.h.file_size() as f64
    }

    /// The root node.
    #[wasm_bindgen(unchecked_return_type = "HexNode")]
    pub fn root(&self) -> Result<JsValue, JsError> {
        to_js(&self.h.root())
    }

    /// Node `id`. Throws if there is no such node.
    #[wasm_bindgen(unchecked_return_type = "HexNode")]
    pub fn node(&self, id: f64) -> Result<JsValue, JsError> {
        to_js(&self.h.node(id).map_err(err)?)
    }

    /// The children of node `id`, decoding them first if the node is lazy (a
    /// long list's children are its pages, each lazy in turn). Throws if
    /// there is no such node.
    #[wasm_bindgen(unchecked_return_type = "HexNode[]")]
    pub fn children(&mut self, id: f64) -> Result<JsValue, JsError> {
        let kids: Vec<NodeRecord> = self.h.children(id).map_err(err)?;
        to_js(&kids)
    }

    /// The node at `path` (`Parts/[3]/PSVInfo`, as the JSON contract writes
    /// paths; "" is the root), decoding the groups on the way and the node
    /// itself if it is a lazy group (only the page of a long list that holds
    /// an entry); `undefined` if there is none.
    #[wasm_bindgen(unchecked_return_type = "HexNode | undefined")]
    pub fn find(&mut self, path: &str) -> Result<JsValue, JsError> {
        match self.h.find(path) {
            Some(n) => to_js(&n),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The whole tree in the JSON contract of `hexlens dump FILE --json`, as
    /// an object (so `JSON.stringify(tree)` writes the contract; integers
    /// beyond 2^53 lose precision in a JS number: `dumpJSON()` keeps them).
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "HexDump")]
    pub fn to_json(&self) -> Result<JsValue, JsError> {
        let text = self.h.dump(None, DumpForm::Json).map_err(err)?;
        js_sys::JSON::parse(&text).map_err(|_| JsError::new("the dump is not valid JSON"))
    }

    /// The text of `hexlens dump FILE --json [--select PATH]` (without its
    /// final newline). Throws if there is no node at `path`.
    #[wasm_bindgen(js_name = dumpJSON)]
    pub fn dump_json(&self, path: Option<String>) -> Result<String, JsError> {
        self.h.dump(path.as_deref(), DumpForm::Json).map_err(err)
    }

    /// The text of the programs the file holds (SM4/5 programs, LLVM
    /// bitcode modules: DXIL parts, `.bc` files), a record a line: what
    /// `hexlens dis FILE --json [--select PATH]` writes. With `path`, the
    /// program that holds the node there; without, every program in file
    /// order. Throws if there is no node at `path`, it is in no program, or
    /// `options.function` names no function.
    #[wasm_bindgen(unchecked_return_type = "HexLine[]")]
    pub fn listing(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "string")] path: Option<String>,
        #[wasm_bindgen(unchecked_optional_param_type = "ListingOptions")] options: JsValue,
    ) -> Result<JsValue, JsError> {
        let opts = listing_options(&options)?;
        let lines = self.h.listing(path.as_deref(), &opts).map_err(err)?;
        to_js(&lines)
    }

    /// The text of `hexlens dump FILE [--select PATH]`: one line a node.
    /// Throws if there is no node at `path`.
    #[wasm_bindgen(js_name = dumpText)]
    pub fn dump_text(&self, path: Option<String>) -> Result<String, JsError> {
        self.h.dump(path.as_deref(), DumpForm::Text).map_err(err)
    }
}
