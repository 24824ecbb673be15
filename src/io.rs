//! Browser glue: reading dropped or picked files, fetching bundled samples and
//! their manifest (same-origin assets only), and the page URL.

use crate::bytes::FileBytes;
use crate::components::{compare, copy_bar};
use crate::decoder;
use crate::doc::Doc;
use crate::state::{Action, CursorAction, LoadAction, SearchAction, State};
use js_sys::{Reflect, Uint8Array};
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::spawn_local;
use wasm_bindgen_futures::JsFuture;
use yew::UseReducerDispatcher;

/// One entry of `static/samples/manifest.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// File name inside `static/samples/`.
    pub file: String,
    /// The decoder that reads it.
    pub format: String,
    /// Short title for the picker.
    pub title: String,
    /// One line about what is inside.
    pub note: String,
    /// Where the bytes come from.
    pub source: String,
}

/// `rel` resolved against the document's base URL, so the app works from any
/// sub-path (`trunk build --public-url /hexlens/`).
pub fn asset_url(rel: &str) -> String {
    let base = gloo_utils::document()
        .base_uri()
        .ok()
        .flatten()
        .unwrap_or_default();
    web_sys::Url::new_with_base(rel, &base)
        .map(|u| u.href())
        .unwrap_or_else(|_| rel.to_string())
}

/// Text of a failed promise's reason (an `Error`'s message, or the value).
pub fn reason(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into())
}

/// The bytes at `url` (same-origin assets only), through the browser's `fetch`.
async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let promise = gloo_utils::window().fetch_with_str(url);
    let resp: web_sys::Response = JsFuture::from(promise)
        .await
        .and_then(|r| r.dyn_into())
        .map_err(|e| format!("could not fetch {url}: {}", reason(&e)))?;
    if !resp.ok() {
        return Err(format!("{url} answered HTTP {}", resp.status()));
    }
    let buf = match resp.array_buffer() {
        Ok(p) => JsFuture::from(p).await,
        Err(e) => Err(e),
    }
    .map_err(|e| format!("could not read {url}: {}", reason(&e)))?;
    Ok(Uint8Array::new(&buf).to_vec())
}

fn field(obj: &JsValue, key: &str) -> String {
    Reflect::get(obj, &JsValue::from_str(key))
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// The file the first page (`static/shell.js`) was given before the app ran,
/// taken (so it is opened once).
pub fn take_pending_file() -> Option<web_sys::File> {
    let win = JsValue::from(gloo_utils::window());
    let key = JsValue::from_str("hexlensPendingFile");
    let f = Reflect::get(&win, &key)
        .ok()?
        .dyn_into::<web_sys::File>()
        .ok()?;
    let _ = Reflect::set(&win, &key, &JsValue::UNDEFINED);
    Some(f)
}

/// The bundled samples listed in `static/samples/manifest.json`.
/// The first page (`static/shell.js`) hands over the manifest it read
/// (`window.hexlensSamples`), so the app does not fetch it again.
pub async fn load_manifest() -> Result<Vec<Sample>, String> {
    let url = asset_url("static/samples/manifest.json");
    let read = Reflect::get(&gloo_utils::window(), &JsValue::from_str("hexlensSamples"))
        .ok()
        .filter(JsValue::is_object);
    let json = match read {
        Some(j) => j,
        None => {
            let bytes = fetch_bytes(&url).await?;
            let text = String::from_utf8_lossy(&bytes);
            js_sys::JSON::parse(&text).map_err(|_| format!("{url} is not valid JSON"))?
        }
    };
    let list = Reflect::get(&json, &JsValue::from_str("samples")).unwrap_or(JsValue::UNDEFINED);
    if !js_sys::Array::is_array(&list) {
        return Err(format!("{url} has no \"samples\" list"));
    }
    let arr = js_sys::Array::from(&list);
    Ok(arr
        .iter()
        .map(|o| Sample {
            file: field(&o, "file"),
            format: field(&o, "format"),
            title: field(&o, "title"),
            note: field(&o, "note"),
            source: field(&o, "source"),
        })
        .filter(|s| !s.file.is_empty() && !s.file.contains('/'))
        .collect())
}

thread_local! {
    /// The open file's name (to decode it again with another format).
    static OPEN_NAME: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    /// The number the next load gets (the store holds the open file's; this
    /// only hands out numbers, so a report of a load before is told apart).
    static NEXT_LOAD: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
}

/// Sets a `performance` mark (the browser benchmark reads them).
pub fn mark(name: &str) {
    if let Some(p) = gloo_utils::window().performance() {
        let _ = p.mark(name);
    }
}

/// Opens `blob` as `name`: the bytes show at once (read a page at a time), the
/// decoder works in its worker and reports back through the store.
fn open_blob(name: String, blob: web_sys::Blob, dispatch: UseReducerDispatcher<State>) {
    open_blob_as(name, blob, false, None, dispatch)
}

/// Opens `blob` as `name` (see [`open_blob`]): scanned for containers
/// whatever it is (`scan`), decoded with the `.ksy` format whose worker
/// message is `ksy` (see [`crate::ksy`]), or decoded by its own format.
pub fn open_blob_as(
    name: String,
    blob: web_sys::Blob,
    scan: bool,
    ksy: Option<JsValue>,
    dispatch: UseReducerDispatcher<State>,
) {
    OPEN_NAME.with(|n| *n.borrow_mut() = Some(name.clone()));
    mark("hexlens:open");
    let load = NEXT_LOAD.with(|n| n.replace(n.get().wrapping_add(1)));
    let arrived = dispatch.clone();
    let bytes = FileBytes::from_blob(
        name,
        blob.clone(),
        Rc::new(move || arrived.dispatch(Action::Load(LoadAction::BytesArrived))),
    );
    // Start reading the first screen now, before the first render asks for it.
    let _ = bytes.window(0, 4096);
    dispatch.dispatch(Action::Open(Rc::new(Doc::pending(Rc::new(bytes), load))));
    decoder::open(load, &blob, scan, ksy, move |message| {
        dispatch.dispatch(Action::Load(LoadAction::DecodeFailed { load, message }))
    });
}

/// Decodes the open file again: with the `.ksy` format whose worker message
/// is `ksy`, or with hexlens's own decoders (`None`).
pub fn reopen(ksy: Option<JsValue>, dispatch: UseReducerDispatcher<State>) -> Result<(), String> {
    let blob = decoder::blob().ok_or("the format is kept: open a file to decode it with it")?;
    let name = OPEN_NAME.with(|n| n.borrow().clone()).unwrap_or_default();
    open_blob_as(name, blob, false, ksy, dispatch);
    Ok(())
}

/// Routes the decode worker's reports: into the store, and the tools
/// module's replies to the panels that asked for them (the transport knows
/// no panel).
pub fn connect_decoder(dispatch: UseReducerDispatcher<State>) {
    decoder::set_sink(yew::Callback::from(move |e: decoder::Event| {
        let a = match e {
            decoder::Event::Progress { job, done, total } => Action::Load(LoadAction::Progress {
                load: job,
                done,
                total,
            }),
            decoder::Event::Answer { job, answer } => {
                let first = matches!(*answer, hexlens_core::protocol::Answer::Decoded { .. });
                if first {
                    // "received": the worker's first answer arrived; "decoded":
                    // the store has taken it in.
                    mark("hexlens:received");
                }
                dispatch.dispatch(Action::Answer { load: job, answer });
                if first {
                    mark("hexlens:decoded");
                }
                return;
            }
            decoder::Event::Failed { job, message } => {
                Action::Load(LoadAction::DecodeFailed { load: job, message })
            }
            decoder::Event::Crashed { message } => Action::Load(LoadAction::Crashed(message)),
            decoder::Event::ToolsProgress { job, done } => {
                Action::Search(SearchAction::Progress { load: job, done })
            }
            // The panels that asked the tools module hear its replies.
            decoder::Event::Copied(m) => return copy_bar::received(&m),
            decoder::Event::Compared(m) => return compare::received(m),
            decoder::Event::ByteDiff(m) => return compare::byte_found(&m),
            decoder::Event::ToolsStopped(why) => {
                return copy_bar::say(&format!("The tools module stopped: {why}"))
            }
            decoder::Event::ListingHover(spans) => Action::Cursor(CursorAction::HoverSpans(spans)),
            decoder::Event::ListingGoto(b) => Action::Cursor(CursorAction::Goto(b)),
            decoder::Event::Go(at, path) => Action::Go(crate::state::search::Jump {
                at,
                path: Some(path),
            }),
            decoder::Event::Format { message, file } => {
                match file {
                    Some(f) => open_file_with(f, message, dispatch.clone()),
                    None => {
                        if let Err(why) = reopen(message, dispatch.clone()) {
                            copy_bar::say(&why);
                        }
                    }
                }
                return;
            }
        };
        dispatch.dispatch(a);
    }));
}

/// Stops decoding the open file (its bytes stay on screen).
pub fn cancel(dispatch: &UseReducerDispatcher<State>) {
    decoder::stop();
    dispatch.dispatch(Action::Load(LoadAction::Cancel));
}

/// Opens a picked or dropped file. The bytes stay in this tab, on disk: only
/// the pages shown and the ones the decoder reads are loaded.
pub fn open_file(file: web_sys::File, dispatch: UseReducerDispatcher<State>) {
    if crate::ksy::is_ksy(&file.name()) {
        // A format: kept, and the open file decoded with it.
        return crate::ksy::pick(vec![file]);
    }
    open_file_with(file, None, dispatch)
}

/// Opens a picked or dropped file (see [`open_file`]), decoded with the
/// `.ksy` format whose worker message is `ksy`, if one is given.
fn open_file_with(
    file: web_sys::File,
    ksy: Option<JsValue>,
    dispatch: UseReducerDispatcher<State>,
) {
    let name = file.name();
    set_sample_param(None);
    open_blob_as(name, file.into(), false, ksy, dispatch);
}

/// Fetches a bundled sample (from this site) and opens it.
pub fn open_sample(sample: &Sample, dispatch: UseReducerDispatcher<State>) {
    let name = sample.file.clone();
    dispatch.dispatch(Action::Load(LoadAction::Loading(name.clone())));
    set_sample_param(Some(&name));
    spawn_local(async move {
        match sample_blob(&name).await {
            Ok(blob) => open_blob(name, blob, dispatch),
            Err(e) => dispatch.dispatch(Action::Load(LoadAction::Failed(e))),
        }
    });
}

/// The `?sample=` parameter of the page URL.
pub fn sample_param() -> Option<String> {
    query_param("sample")
}

/// The address's query parameter `name` (`?compare=`).
pub fn query_param(name: &str) -> Option<String> {
    let search = gloo_utils::window().location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get(name)
}

/// A bundled sample's bytes as a `Blob`.
pub async fn sample_blob(name: &str) -> Result<web_sys::Blob, String> {
    let data = fetch_bytes(&asset_url(&format!("static/samples/{name}"))).await?;
    let parts = js_sys::Array::of1(&Uint8Array::from(&data[..]));
    web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(|_| format!("could not open {name}"))
}

/// Keeps `?sample=` in the address bar in step with what is open, so a reload or
/// a shared link reopens the same sample (a local file clears it).
fn set_sample_param(name: Option<&str>) {
    let w = gloo_utils::window();
    let Ok(href) = w.location().href() else {
        return;
    };
    let Ok(url) = web_sys::Url::new(&href) else {
        return;
    };
    match name {
        Some(n) => url.search_params().set("sample", n),
        None => url.search_params().delete("sample"),
    }
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url.href()));
    }
}
