//! The page's side of the decode worker (the `hexlens-worker` crate, a wasm
//! module of its own that `static/worker.js` loads): starts it, sends it files
//! and the store's questions ([`Request`]), and turns its replies into
//! [`Event`]s for the app. The worker holds the file's one tree; the page
//! holds only the answers for what it shows.
//!
//! The decoders come in a few wasm modules (`hexlens_core::formats::modules()`):
//! opening a file reads its first bytes, picks the module that decodes it
//! ([`hexlens_core::formats::module_for`]) and starts a worker with that
//! module, so a visit downloads only the decoders of the files it opens. The
//! page's module holds no decoder: the hex view of a file shows before the
//! decoder has arrived.
//!
//! One worker at a time. Opening a file that needs another module, cancelling,
//! or a panic inside the worker (the instance is unusable afterwards)
//! terminates it. The next request starts a fresh one (the browser keeps the
//! decoder's module in its cache).

use crate::state::Request;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::Callback;

/// What the worker reports.
#[derive(Debug, Clone)]
pub enum Event {
    /// Bytes read so far out of the file's size.
    Progress { job: u32, done: u64, total: u64 },
    /// An answer about the open file.
    Answer {
        job: u32,
        answer: std::rc::Rc<hexlens_core::protocol::Answer>,
    },
    /// A request could not be carried out.
    Failed { job: u32, message: String },
    /// The worker died (a panic or a trap); it has been replaced.
    Crashed { message: String },
    /// The tools module (a structure search) has read `done` of the file's
    /// bytes for load `job`.
    ToolsProgress { job: u32, done: u64 },
    /// A copy or an export is made (`{text, what}` or `{blob}`) or could not
    /// be (`{error}`).
    Copied(JsValue),
    /// The tools module compared the open file with another: the summary and
    /// the merged tree's rows, or why it could not.
    Compared(Result<(String, Vec<hexlens_core::protocol::MergedRow>), String>),
    /// The tools module found the next run of bytes that differ from those
    /// beside them (`{start, end}`, neither if there is none, or `{error}`).
    ByteDiff(JsValue),
    /// The tools module stopped (a panic or an error): why.
    ToolsStopped(String),
    /// The pointer is over a line of the listing pane, made from these
    /// bytes (`None`: it left the pane).
    ListingHover(Option<std::rc::Rc<Vec<(u64, u64)>>>),
    /// A line of the listing pane was clicked: go to this byte.
    ListingGoto(u64),
    /// Go to the node at a path, the cursor to this byte.
    Go(u64, String),
    /// `static/ksy.js` hands over a `.ksy` format: the worker's message for
    /// it (`None`: hexlens's own decoders), and the file to open with it
    /// (`None`: the open file again).
    Format {
        message: Option<JsValue>,
        file: Option<web_sys::File>,
    },
}

struct Client {
    worker: web_sys::Worker,
    /// Its decoder module (a name in `hexlens_core::formats::modules()`).
    module: &'static str,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

// The transport's own state: the workers' handles and their handlers, the
// sink the app wires, and what the workers were last sent (the open file's
// blob, its module, whether it was scanned). None of it is the page's state,
// which the store holds.
thread_local! {
    static CLIENT: RefCell<Option<Client>> = const { RefCell::new(None) };
    static SINK: RefCell<Option<Callback<Event>>> = const { RefCell::new(None) };
    /// Stopped workers' handlers, dropped later: a handler may be the one running
    /// when its worker is stopped, and must outlive that call.
    static RETIRED: RefCell<Vec<Client>> = const { RefCell::new(Vec::new()) };
    /// The worker's wasm memory size at its last report, in bytes.
    static WORKER_WASM: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
    /// The decoder module of the last file opened: a worker started for a
    /// request loads it.
    static MODULE: std::cell::Cell<&'static str> =
        const { std::cell::Cell::new(hexlens_core::formats::FALLBACK) };
    /// The tools module's worker (exports, subtrees as JSON, structure
    /// searches), started when first asked; it keeps no state between asks.
    static TOOLS: RefCell<Option<web_sys::Worker>> = const { RefCell::new(None) };
    /// The open file, which each question to the tools module carries.
    static BLOB: RefCell<Option<web_sys::Blob>> = const { RefCell::new(None) };
    /// The load whose first bytes are being read to pick its module (0: none).
    /// Stopping clears it, so a cancelled or superseded load is never sent.
    static ROUTING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// True if the open file was scanned for containers on request (its
    /// questions to the tools module say so, so exports match the tree).
    static SCANNED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The `.ksy` format the open file is decoded with: the `ksy` worker
    /// module's message for it (`{name, text, imports, hash, at, size}`,
    /// made by static/ksy.js). Its questions to the tools module carry it,
    /// so exports and searches see the same tree.
    static KSY: RefCell<Option<JsValue>> = const { RefCell::new(None) };
    /// The load the worker was last sent.
    static OPENED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The worker module that decodes with a `.ksy` format.
const KSY_MODULE: &str = "ksy";

/// The running decode worker and the load it was last sent.
pub fn worker() -> Option<(JsValue, u32)> {
    let job = OPENED.with(|o| o.get());
    CLIENT.with(|c| c.borrow().as_ref().map(|c| (c.worker.clone().into(), job)))
}

/// The `.ksy` format the open file is decoded with: its worker message.
pub fn ksy() -> Option<JsValue> {
    KSY.with(|k| k.borrow().clone())
}

/// The open file, as the workers were sent it.
pub fn blob() -> Option<web_sys::Blob> {
    BLOB.with(|b| b.borrow().clone())
}

/// True if the open file was opened to be scanned for containers.
pub fn scanned() -> bool {
    SCANNED.with(|s| s.get())
}

/// Bytes of the page's wasm memory (the worker reports its own the same way,
/// in `crates/worker`).
fn wasm_memory_bytes() -> f64 {
    wasm_bindgen::memory()
        .unchecked_into::<js_sys::WebAssembly::Memory>()
        .buffer()
        .unchecked_into::<js_sys::ArrayBuffer>()
        .byte_length() as f64
}

/// Memory figures for the browser benchmark: the page's and the decode worker's
/// wasm memory (bytes).
#[wasm_bindgen]
pub fn debug_memory() -> JsValue {
    let o = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&o, &"pageWasm".into(), &wasm_memory_bytes().into());
    let _ = js_sys::Reflect::set(
        &o,
        &"workerWasm".into(),
        &WORKER_WASM.with(|c| c.get()).into(),
    );
    o.into()
}

/// Where worker events go (the app's reducer).
pub fn set_sink(cb: Callback<Event>) {
    SINK.with(|s| *s.borrow_mut() = Some(cb));
}

pub(crate) fn emit(e: Event) {
    let cb = SINK.with(|s| s.borrow().clone());
    if let Some(cb) = cb {
        cb.emit(e);
    }
}

/// Field `k` of a message `o` (undefined if it has none).
pub fn get(o: &JsValue, k: &str) -> JsValue {
    js_sys::Reflect::get(o, &k.into()).unwrap_or(JsValue::UNDEFINED)
}

fn num(o: &JsValue, k: &str) -> u64 {
    get(o, k).as_f64().unwrap_or(0.0) as u64
}

fn bytes(o: &JsValue, k: &str) -> Vec<u8> {
    get(o, k)
        .dyn_into::<js_sys::Uint8Array>()
        .map(|a| a.to_vec())
        .unwrap_or_default()
}

fn on_message(e: web_sys::MessageEvent) {
    let d = e.data();
    if let Some(w) = get(&d, "wasmBytes").as_f64() {
        WORKER_WASM.with(|c| c.set(w));
    }
    let job = num(&d, "job") as u32;
    let event = match get(&d, "type").as_string().unwrap_or_default().as_str() {
        "progress" => Event::Progress {
            job,
            done: num(&d, "done"),
            total: num(&d, "total"),
        },
        "answer" => match hexlens_core::protocol::Answer::decode(&bytes(&d, "data")) {
            Ok(hexlens_core::protocol::Answer::Decoded { summary, .. })
                if summary.format == "raw" && module() == hexlens_core::formats::FALLBACK =>
            {
                return rescan(job);
            }
            Ok(hexlens_core::protocol::Answer::Compared {
                summary,
                rows,
                error,
                ..
            }) => Event::Compared(match error {
                Some(e) => Err(e),
                None => Ok((summary, rows)),
            }),
            Ok(answer) => Event::Answer {
                job,
                answer: std::rc::Rc::new(answer),
            },
            Err(e) => Event::Failed {
                job,
                message: format!("the decoder's answer was damaged: {e}"),
            },
        },
        "failed" => Event::Failed {
            job,
            message: get(&d, "message").as_string().unwrap_or_default(),
        },
        "copied" | "exported" => Event::Copied(d),
        "reading" | "inner" => return crate::ksy::heard(&d),
        "bytediff" => Event::ByteDiff(d),
        "panic" => {
            stop();
            Event::Crashed {
                message: get(&d, "message")
                    .as_string()
                    .unwrap_or_else(|| "unknown error".into()),
            }
        }
        _ => return,
    };
    emit(event);
}

/// Sends the tools module (started on first use: `hexlens-worker-tools`, every
/// decoder with the streaming dump and the structure search) a message about
/// load `job` made of `fields` and the open file. Its answers come back as
/// the decoder's do.
pub fn send_tools(job: u32, fields: &[(&str, JsValue)]) -> Result<(), String> {
    let blob = BLOB.with(|b| b.borrow().clone()).ok_or("no file is open")?;
    let m = js_sys::Object::new();
    let scan = ("scan", JsValue::from(scanned()));
    let ksy = ("ksy", ksy().unwrap_or(JsValue::UNDEFINED));
    for (k, v) in fields
        .iter()
        .chain(&[("job", job.into()), ("blob", blob.into()), scan, ksy])
    {
        let _ = js_sys::Reflect::set(&m, &(*k).into(), v);
    }
    TOOLS.with(|t| {
        let mut t = t.borrow_mut();
        if t.is_none() {
            *t = Some(start_tools()?);
        }
        t.as_ref()
            .expect("just started")
            .post_message(&m)
            .map_err(|e| crate::io::reason(&e))
    })
}

/// Stops what the tools module is doing (a structure search the user
/// stopped); the next ask starts it again.
pub fn stop_tools() {
    if let Some(w) = TOOLS.with(|t| t.borrow_mut().take()) {
        w.terminate();
    }
}

/// Starts the tools module. Its answers go where the decoder's go; if it
/// fails, the open file's decoder goes on (the next ask starts a new one).
fn start_tools() -> Result<web_sys::Worker, String> {
    let c = start("tools")?;
    let stopped = |why: String| {
        if let Some(w) = TOOLS.with(|t| t.borrow_mut().take()) {
            w.terminate();
        }
        emit(Event::ToolsStopped(why));
    };
    let on_message = Closure::<dyn FnMut(_)>::new(move |e: web_sys::MessageEvent| {
        let d = e.data();
        match get(&d, "type").as_string().as_deref() {
            Some("panic") => stopped(get(&d, "message").as_string().unwrap_or_default()),
            // How far a structure search's walk is; the bytes the tools read
            // say nothing of it (a container's digest reads the whole file first).
            Some("walked") => emit(Event::ToolsProgress {
                job: num(&d, "job") as u32,
                done: num(&d, "done"),
            }),
            Some("progress") => {}
            _ => on_message(e),
        }
    });
    let on_error = Closure::<dyn FnMut(_)>::new(move |e: web_sys::ErrorEvent| stopped(e.message()));
    c.worker
        .set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    c.worker
        .set_onerror(Some(on_error.as_ref().unchecked_ref()));
    // The handlers live as long as the worker, which nothing else holds.
    on_message.forget();
    on_error.forget();
    Ok(c.worker)
}

fn start(module: &'static str) -> Result<Client, String> {
    // A classic worker: `static/worker.js` loads the decoder's wasm module named
    // by `m` with `importScripts`.
    let url = crate::io::asset_url(&format!("static/worker.js?m={module}"));
    let worker = web_sys::Worker::new(&url).map_err(|e| {
        format!(
            "could not start the decode worker: {}",
            crate::io::reason(&e)
        )
    })?;
    let on_message = Closure::<dyn FnMut(_)>::new(on_message);
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    let on_error = Closure::<dyn FnMut(_)>::new(|e: web_sys::ErrorEvent| {
        stop();
        emit(Event::Crashed {
            message: e.message(),
        });
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Ok(Client {
        worker,
        module,
        _on_message: on_message,
        _on_error: on_error,
    })
}

fn send(fields: &[(&str, JsValue)]) -> Result<(), String> {
    let m = js_sys::Object::new();
    for (k, v) in fields {
        let _ = js_sys::Reflect::set(&m, &(*k).into(), v);
    }
    CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        if c.is_none() {
            *c = Some(start(MODULE.with(|m| m.get()))?);
        }
        let w = &c.as_ref().expect("just started").worker;
        w.post_message(&m).map_err(|e| {
            format!(
                "could not reach the decode worker: {}",
                crate::io::reason(&e)
            )
        })
    })
}

/// The running worker's module, if one runs.
fn module() -> &'static str {
    CLIENT.with(|c| c.borrow().as_ref().map_or("", |c| c.module))
}

/// The fallback module left load `job` undecoded (no cDAC blob in it): it
/// goes to the scan module, which looks for containers inside it.
fn rescan(job: u32) {
    let Some(blob) = BLOB.with(|b| b.borrow().clone()) else {
        return;
    };
    stop();
    MODULE.with(|m| m.set(hexlens_core::formats::SCAN));
    if let Err(message) = send_open(job, &blob, false) {
        emit(Event::Failed { job, message });
    }
}

fn send_open(job: u32, blob: &web_sys::Blob, scan: bool) -> Result<(), String> {
    OPENED.with(|o| o.set(job));
    send(&[
        ("type", "open".into()),
        ("job", job.into()),
        ("blob", blob.into()),
        ("rows", FIRST_ROWS.into()),
        ("scan", scan.into()),
        ("ksy", ksy().unwrap_or(JsValue::UNDEFINED)),
    ])
}

/// Decodes `blob` as load number `job`, as a viewer does: its top levels and
/// small groups now, the rest when opened (`hexlens_core::view`). Reads the
/// file's first bytes to pick the decoder module first (a worker holding
/// another module is stopped); with `scan`, the scan module scans the file
/// for containers whatever it is; with `ksy` (`{name, text, imports, at,
/// size}`, see static/ksy.js), the module that holds the `.ksy` interpreter
/// decodes it with that format (a `.ksy` it refuses comes back as a failure
/// naming its line and key, and any import it misses). `failed` hears if the
/// worker cannot be reached.
pub fn open(
    job: u32,
    blob: &web_sys::Blob,
    scan: bool,
    ksy: Option<JsValue>,
    failed: impl FnOnce(String) + 'static,
) {
    ROUTING.with(|r| r.set(job));
    BLOB.with(|b| *b.borrow_mut() = Some(blob.clone()));
    SCANNED.with(|s| s.set(scan));
    KSY.with(|k| *k.borrow_mut() = ksy.clone());
    let head = blob.slice_with_f64_and_f64(0.0, hexlens_core::formats::HEAD_BYTES as f64);
    let blob = blob.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let head = match head {
            Ok(h) => wasm_bindgen_futures::JsFuture::from(h.array_buffer())
                .await
                .map(|b| js_sys::Uint8Array::new(&b).to_vec())
                .unwrap_or_default(),
            Err(_) => Vec::new(),
        };
        if ROUTING.with(|r| r.get()) != job {
            return;
        }
        ROUTING.with(|r| r.set(0));
        let module = if ksy.is_some() {
            KSY_MODULE
        } else if scan {
            hexlens_core::formats::SCAN
        } else {
            hexlens_core::formats::module_for(&head, blob.size() as u64)
        };
        let running = CLIENT.with(|c| c.borrow().as_ref().map(|c| c.module));
        if running.is_some_and(|m| m != module) {
            stop();
        }
        MODULE.with(|m| m.set(module));
        if let Err(message) = send_open(job, &blob, scan) {
            failed(message);
        }
    });
}

/// Sends the worker a message about load `job` made of `fields` (a copy or
/// an export: see `components::copy_bar`).
pub fn send_to(job: u32, fields: &[(&str, JsValue)]) -> Result<(), String> {
    let mut m = fields.to_vec();
    m.push(("job", job.into()));
    send(&m)
}

/// Asks the worker a question about load `job` (see [`Request`]): one `ask`
/// message carrying the request's binary form. A search goes to the tools
/// module, fetched on first use (the decoder modules hold no search code; a
/// structure search decodes the file afresh there, the decoder keeping its
/// tree). The answer comes back as an [`Event::Answer`].
pub fn ask(job: u32, r: &Request) -> Result<(), String> {
    #[cfg(test)]
    if local::LOCAL.with(|l| l.borrow().is_some()) {
        local::ask(job, r);
        return Ok(());
    }
    let data: JsValue = js_sys::Uint8Array::from(&r.encode()[..]).into();
    let fields = [("type", "ask".into()), ("data", data)];
    match r {
        Request::Search { .. } => send_tools(job, &fields),
        _ => send_to(job, &fields),
    }
}

/// Rows the worker sends with a decoded file, before the tree pane asks.
pub const FIRST_ROWS: u32 = 120;

/// Component tests: a session on this thread answers instead of a worker
/// (only test builds link the decoders into the page).
#[cfg(test)]
pub mod local {
    use super::*;
    use hexlens_core::protocol::Answer;
    use hexlens_core::session::Session;

    thread_local! {
        pub(super) static LOCAL: RefCell<Option<Session<Vec<u8>>>> = const { RefCell::new(None) };
    }

    /// Decodes `data` here as load `job`, and answers as the worker would.
    pub fn open(job: u32, data: Vec<u8>) {
        let s = Session::open(data);
        let a = s.opened(u64::from(FIRST_ROWS));
        LOCAL.with(|l| *l.borrow_mut() = Some(s));
        later(job, a);
    }

    pub(super) fn ask(job: u32, r: &Request) {
        let a = LOCAL.with(|l| {
            let mut l = l.borrow_mut();
            let s = l.as_mut().expect("a local session");
            s.answer(r)
        });
        later(job, a);
    }

    /// Delivers an answer after the current task, as a message would arrive.
    fn later(job: u32, answer: Answer) {
        gloo_timers::callback::Timeout::new(0, move || {
            emit(Event::Answer {
                job,
                answer: std::rc::Rc::new(answer),
            })
        })
        .forget();
    }
}

/// Stops the worker (whatever it is doing); the next request starts a new one.
pub fn stop() {
    ROUTING.with(|r| r.set(0));
    // Take the client out first: terminating it must not run while borrowed.
    let old = CLIENT.with(|c| c.borrow_mut().take());
    if let Some(c) = old {
        c.worker.terminate();
        c.worker.set_onmessage(None);
        c.worker.set_onerror(None);
        RETIRED.with(|r| {
            let mut r = r.borrow_mut();
            r.push(c);
            if r.len() > 4 {
                r.remove(0);
            }
        });
    }
}

/// Test hook: makes the decode worker panic, to check that the page survives it.
#[wasm_bindgen]
pub fn debug_crash_decoder() {
    let _ = send(&[("type", "crash".into())]);
}
