//! Copy and export: the "Copy / export…" menu by the status bar, and Ctrl+C in
//! the hex pane. The selected bytes go to the clipboard as hex, a C, Rust or
//! Python array, or base64; the selected node's value, path or subtree (the
//! JSON contract of `hexlens dump --json`) too; the whole tree or a subtree
//! downloads as JSON or as the text dump.
//!
//! The decode worker makes every text and file (see `crates/worker`): the page
//! only says what to make and hands the result to the clipboard or to a
//! download, so an export of a big tree never passes through the page's
//! memory, and the page's module holds none of the formatting. The menu is
//! plain markup in `www/index.html`, wired here.

use crate::state::{Action, ExportAction, State};
use gloo_events::EventListener;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

thread_local! {
    /// The store as of the last render (the menu acts on what is shown): a
    /// handle the menu's listeners and the worker's replies reach it by.
    static LATEST: std::cell::RefCell<Option<UseReducerHandle<State>>> =
        const { std::cell::RefCell::new(None) };
}

fn store() -> Option<UseReducerHandle<State>> {
    LATEST.with(|l| l.borrow().clone())
}

fn el(id: &str) -> Option<web_sys::HtmlElement> {
    super::by_id(id)
}

/// Says what happened in the menu's status line (as text).
pub fn say(text: &str) {
    if let Some(s) = el("copy-status") {
        s.set_text_content(Some(text));
    }
}

/// Puts `text` on the clipboard and says so (`what`: what it is).
fn to_clipboard(text: &str, what: &str) {
    // Browsers give pages the clipboard only in a secure context (https, or
    // localhost): elsewhere `navigator.clipboard` is missing.
    let nav = gloo_utils::window().navigator();
    let Some(clipboard) = js_sys::Reflect::get(&nav, &"clipboard".into())
        .ok()
        .filter(|c| !c.is_undefined())
    else {
        return say("Could not copy: the browser gives this page no clipboard (it needs https)");
    };
    let p = clipboard
        .unchecked_into::<web_sys::Clipboard>()
        .write_text(text);
    let done = format!("Copied {what}");
    wasm_bindgen_futures::spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(p).await {
            Ok(_) => say(&done),
            Err(e) => say(&format!("Could not copy: {}", crate::io::reason(&e))),
        }
    });
}

/// Saves `blob` as a download called `name`, and says so in the menu's
/// status line (the bookmarks' export comes through here too).
pub fn download(blob: &web_sys::Blob, name: &str) {
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else {
        return say("Could not save the export");
    };
    let doc = gloo_utils::document();
    if let Some(a) = doc
        .create_element("a")
        .ok()
        .and_then(|a| a.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = a.set_attribute("href", &url);
        let _ = a.set_attribute("download", name);
        a.click();
    }
    gloo_timers::callback::Timeout::new(60_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    say(&format!("Saved {name} ({} bytes)", blob.size() as u64));
}

/// The worker's reply to a copy or an export (`copied` / `exported`).
pub fn received(m: &JsValue) {
    let get = |k: &str| crate::decoder::get(m, k);
    if let Some(e) = get("error").as_string() {
        return say(&format!("Could not do that: {e}"));
    }
    if let Some(t) = get("text").as_string() {
        return to_clipboard(&t, &get("what").as_string().unwrap_or_default());
    }
    if let (Ok(b), Some(st)) = (get("blob").dyn_into::<web_sys::Blob>(), store()) {
        download(&b, &st.export.save_as);
    }
}

/// A file name made of `name` and a node path (`a.dxbc-Parts-1-PSVInfo.json`).
fn save_name(file: &str, path: &str, ext: &str) -> String {
    let mut n = file.to_string();
    if !path.is_empty() {
        n.push('-');
        n.extend(path.chars().filter_map(|c| match c {
            '/' => Some('-'),
            c if c.is_alphanumeric() || c == '_' || c == '.' => Some(c),
            _ => None,
        }));
    }
    n.push('.');
    n.push_str(ext);
    n
}

/// Carries out a menu choice (`bytes:FORM`, `node:value`, `node:path`,
/// `node:json`, `file:json`, `file:text`, `subtree:json`, `subtree:text`)
/// for what the store shows.
#[inline(never)]
pub fn copy(choice: &str) {
    let Some(st) = store() else {
        return;
    };
    let Some(doc) = st.load.doc.clone().filter(|d| d.is_decoded()) else {
        return say("Nothing to copy until the file is decoded");
    };
    let node = st
        .cursor
        .details
        .clone()
        .filter(|d| Some(d.id) == st.cursor.selected);
    let mut path = node.as_ref().map(|n| n.path.clone()).unwrap_or_default();
    let (kind, form) = choice.split_once(':').unwrap_or((choice, ""));
    let mut msg: Vec<(&str, JsValue)> = Vec::new();
    // Copies and exports are made by the tools module (fetched on first use:
    // the decoder modules hold none of it).
    match (kind, form) {
        ("bytes", _) => {
            let (a, b) = st.cursor.copy_range();
            msg.push(("type", "copy".into()));
            msg.push(("what", "bytes".into()));
            msg.push(("start", (a as f64).into()));
            msg.push(("end", (b as f64).into()));
        }
        ("node", "path") => {
            return match node {
                Some(n) => to_clipboard(&n.path, "the path"),
                None => say("Select a node first"),
            };
        }
        ("node", _) => {
            if node.is_none() {
                return say("Select a node first");
            }
            msg.push(("type", "copy".into()));
            msg.push(("what", form.into()));
        }
        _ => {
            let sub = kind == "subtree";
            if sub && node.is_none() {
                return say("Select a node first");
            }
            if !sub {
                path.clear(); // the whole file
            }
            let ext = if form == "json" { "json" } else { "txt" };
            st.dispatch(Action::Export(ExportAction::SaveAs(save_name(
                doc.bytes.name(),
                &path,
                ext,
            ))));
            msg.push(("type", "export".into()));
            say("Exporting…");
        }
    }
    msg.push(("form", form.into()));
    msg.push(("path", path.into()));
    if let Err(e) = crate::decoder::send_tools(doc.load, &msg) {
        say(&e);
    }
}

/// Opens the open file again scanned for containers of every format, or, if
/// it was, decoded by its own format (the "Scan for containers" button).
fn toggle_scan() {
    let Some(st) = store() else {
        return;
    };
    let Some(doc) = st.load.doc.clone() else {
        return;
    };
    let Some(blob) = doc.bytes.blob().cloned() else {
        return say("This file cannot be opened again");
    };
    let scan = !crate::decoder::scanned();
    crate::io::open_blob_as(
        doc.bytes.name().to_string(),
        blob,
        scan,
        None,
        st.dispatcher(),
    );
}

/// The scan button's label for what is open.
fn scan_label() -> &'static str {
    if crate::decoder::scanned() {
        "Decode as its format"
    } else {
        "Scan for containers"
    }
}

/// Wires the menu to the store: shown while a file is open.
#[hook]
pub fn use_copy_bar(state: &UseReducerHandle<State>) {
    LATEST.with(|l| *l.borrow_mut() = Some(state.clone()));
    let held = use_mut_ref(|| None::<(bool, &'static str, Vec<EventListener>)>);
    let open = state.load.doc.is_some();
    use_effect(move || {
        let mut h = held.borrow_mut();
        let (shown, label, _) = h.get_or_insert_with(|| {
            let mut held = Vec::new();
            super::listen_on(&mut held, "scan-btn", "click", Box::new(|_| toggle_scan()));
            let l = el("copy-as").map(|s| {
                EventListener::new(&s, "change", |e| {
                    let Some(s) = e
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
                    else {
                        return;
                    };
                    let v = s.value();
                    s.set_value("");
                    if !v.is_empty() {
                        copy(&v);
                    }
                })
            });
            held.extend(l);
            (false, "", held)
        });
        if *label != scan_label() {
            *label = scan_label();
            if let Some(b) = el("scan-btn") {
                b.set_text_content(Some(label));
            }
        }
        if *shown != open {
            *shown = open;
            if let Some(bar) = el("copy-bar") {
                bar.set_hidden(!open);
            }
        }
    });
}
