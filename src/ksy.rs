//! Formats the user describes (Kaitai Struct `.ksy` files) on the page.
//!
//! What a format takes on the page, keeping it in the browser, reading the
//! files picked or dropped, choosing the one the others are imported by,
//! offering kept formats for a file by its extension and making the `ksy`
//! worker module's message, is JavaScript (`window.hexlensFormats` in
//! static/shell.js, and static/ksy.js, fetched when a format is first
//! used): the page's own module holds only the calls to it, and [`ksy_open`],
//! through which it hands the page the message and the file to open.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// True if `name` is a `.ksy` file's.
pub fn is_ksy(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".ksy")
}

/// `window.hexlensFormats`, or (if `key` is given) its member `key`.
fn formats(key: Option<&str>) -> Option<js_sys::Function> {
    let w: JsValue = gloo_utils::window().into();
    let mut f = js_sys::Reflect::get(&w, &"hexlensFormats".into()).ok()?;
    if let Some(k) = key {
        f = js_sys::Reflect::get(&f, &k.into()).ok()?;
    }
    f.dyn_into().ok()
}

/// The kept format offered for a file named `name` (the first whose
/// `meta/file-extension`s name its extension): its file name and id.
pub fn offered(name: &str) -> Option<(String, String)> {
    let f = formats(Some("offer"))?;
    let line = f.call1(&JsValue::NULL, &name.into()).ok()?.as_string()?;
    let (file, id) = line.split_once('\t')?;
    Some((file.to_string(), id.to_string()))
}

/// The keys a link (the fragment, see `hooks::use_permalink`) names the
/// `.ksy` format the open file is decoded with by: its file name, a hash of
/// its text (static/ksy.js makes it), and where it applies, from a byte and
/// for a length (hex), if not to the whole file.
pub const LINK_KEYS: [(&str, &str); 4] = [
    ("ksy", "name"),
    ("ksyh", "hash"),
    ("ksyat", "at"),
    ("ksysize", "size"),
];

/// What a link says of the `.ksy` format the open file is decoded with: the
/// values of [`LINK_KEYS`], in order, empty where it says none (all empty:
/// the file is decoded with hexlens's own decoders).
pub fn link() -> Vec<String> {
    let m = crate::decoder::ksy().unwrap_or(JsValue::UNDEFINED);
    LINK_KEYS
        .iter()
        .map(|(_, field)| {
            let v = js_sys::Reflect::get(&m, &(*field).into()).unwrap_or(JsValue::UNDEFINED);
            match (v.as_string(), v.as_f64()) {
                (Some(s), _) => s,
                (_, Some(n)) => format!("{:X}", n as u64),
                _ => String::new(),
            }
        })
        .collect()
}

/// Decodes the open file again with the kept format a link names (`link`:
/// its [`LINK_KEYS`] values, in order, empty where it says none). False
/// (and said on the page) if that format, with that text, is not kept in
/// this browser.
pub fn restore(link: &[String]) -> bool {
    let Some(f) = formats(Some("restore")) else {
        return false;
    };
    let args: js_sys::Array = link.iter().map(|s| JsValue::from_str(s)).collect();
    f.apply(&JsValue::NULL, &args).is_ok_and(|v| v.is_truthy())
}

/// Shows the bytes a `process` made around the node at `path` (see
/// `static/ksy.js`, which asks the decode worker for them: [`ksy_worker`]).
pub fn inner(path: &str) {
    if let Some(f) = formats(Some("inner")) {
        let _ = f.call1(&JsValue::NULL, &path.into());
    }
}

/// What the decode worker says for the scripts alone: how far it has read
/// a list ahead (static/ksy.js shows it, with Stop), and the bytes a
/// `process` made that static/inner.js asked for.
pub fn heard(m: &JsValue) {
    if let Some(f) = formats(Some("heard")) {
        let _ = f.call1(&JsValue::NULL, m);
    }
}

/// The decode worker and the load it holds (`[worker, job]`, or `null`):
/// static/inner.js asks it for the bytes a `process` made (its answers come
/// back through [`heard`]).
#[wasm_bindgen]
pub fn ksy_worker() -> JsValue {
    crate::decoder::worker()
        .map(|(w, job)| js_sys::Array::of2(&w, &job.into()).into())
        .unwrap_or(JsValue::NULL)
}

/// Goes to the node at `path`, the cursor to byte `at` (a click in
/// static/ksy.js's view of the bytes a `process` made).
#[wasm_bindgen]
pub fn ksy_go(at: f64, path: String) {
    crate::decoder::emit(crate::decoder::Event::Go(at as u64, path));
}

/// Picked files holding `.ksy` formats (see `static/ksy.js`).
pub fn pick(files: Vec<web_sys::File>) {
    if let Some(f) = formats(None) {
        let a: js_sys::Array = files.into_iter().collect();
        let _ = f.call1(&JsValue::NULL, &a);
    }
}

/// `static/ksy.js` hands over a format: `message` (`{name, text,
/// imports, …}`, or `null`: hexlens's own decoders) and the file to open
/// with it (`null`: the open file again).
#[wasm_bindgen]
pub fn ksy_open(message: JsValue, file: JsValue) {
    crate::decoder::emit(crate::decoder::Event::Format {
        message: (!message.is_null() && !message.is_undefined()).then_some(message),
        file: file.dyn_into().ok(),
    });
}
