//! Bookmarks: name the selected bytes (or the selected node), give them a
//! colour and a note. The panel lists them (a click goes there, × removes
//! one) and the hex pane tints their bytes. They are kept in the browser's
//! local storage per file, by the file's SHA-256 (the worker hashes the file),
//! and export to / import from a JSON file:
//! `{"sha256": "…", "file": "name", "bookmarks": [{"name", "start", "end",
//! "path", "colour", "note"}, …]}`.
//!
//! The panel is plain markup in `www/index.html`, wired here; every text in
//! it is set as text.

use crate::state::{Action, Bookmark, BookmarkAction, CursorAction, State, BOOKMARK_COLOURS};
use gloo_events::EventListener;
use js_sys::{Array, Object, Reflect, JSON};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

const KEY: &str = "hexlens.bookmarks.";

use super::by_id as el;

fn value(id: &str) -> String {
    el::<web_sys::HtmlInputElement>(id).map_or_else(String::new, |i| i.value())
}

/// The bookmarks as the JSON file holds them.
fn to_json(sha: &str, file: &str, list: &[Bookmark]) -> String {
    let o = Object::new();
    let set = |o: &Object, k: &str, v: JsValue| {
        let _ = Reflect::set(o, &k.into(), &v);
    };
    set(&o, "sha256", sha.into());
    set(&o, "file", file.into());
    let a = Array::new();
    for b in list {
        let m = Object::new();
        set(&m, "name", b.name.as_str().into());
        set(&m, "start", (b.start as f64).into());
        set(&m, "end", (b.end as f64).into());
        set(&m, "path", b.path.as_str().into());
        set(&m, "colour", b.colour.into());
        set(&m, "note", b.note.as_str().into());
        a.push(&m);
    }
    set(&o, "bookmarks", a.into());
    JSON::stringify_with_replacer_and_space(&o, &JsValue::NULL, &2.into())
        .map(String::from)
        .unwrap_or_default()
}

/// The bookmarks a JSON file holds (`None`: not a bookmarks file). Entries
/// that make no sense for a file of `size` bytes are left out.
fn from_json(text: &str, size: u64) -> Option<Vec<Bookmark>> {
    let o = JSON::parse(text).ok()?;
    let list: Array = Reflect::get(&o, &"bookmarks".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let get = |m: &JsValue, k: &str| Reflect::get(m, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let text = |m: &JsValue, k: &str| get(m, k).as_string().unwrap_or_default();
    let num = |m: &JsValue, k: &str| get(m, k).as_f64().filter(|v| *v >= 0.0).map(|v| v as u64);
    Some(
        list.iter()
            .filter_map(|m| {
                let (start, end) = (num(&m, "start")?, num(&m, "end")?);
                (start < end && end <= size).then(|| Bookmark {
                    name: text(&m, "name"),
                    start,
                    end,
                    path: text(&m, "path"),
                    colour: num(&m, "colour")
                        .unwrap_or(0)
                        .min(u64::from(BOOKMARK_COLOURS - 1)) as u8,
                    note: text(&m, "note"),
                })
            })
            .collect(),
    )
}

/// Shows `list` in the panel.
fn render(list: &[Bookmark]) {
    let Some(ul) = el::<web_sys::Element>("bm-list") else {
        return;
    };
    ul.set_text_content(None);
    let doc = gloo_utils::document();
    let add = |parent: &web_sys::Element, tag: &str, class: &str, text: &str| {
        let e = doc.create_element(tag).ok()?;
        e.set_class_name(class);
        e.set_text_content(Some(text));
        parent.append_child(&e).ok()?;
        Some(e)
    };
    for (i, b) in list.iter().enumerate() {
        let Some(li) = add(&ul, "li", "bm-item", "") else {
            return;
        };
        let _ = li.set_attribute("data-i", &i.to_string());
        add(&li, "span", &format!("bm-swatch bm{}", b.colour), "");
        add(&li, "button", "bm-go", &b.name);
        add(
            &li,
            "span",
            "bm-range mono",
            &format!("0x{:X}–0x{:X}", b.start, b.end - 1),
        );
        add(&li, "span", "bm-note", &b.note);
        if let Some(x) = add(&li, "button", "bm-del", "×") {
            let _ = x.set_attribute("aria-label", &format!("Remove {}", b.name));
        }
    }
}

/// Saves `text` as a download called `name`.
fn download(text: &str, name: &str) {
    let parts = Array::of1(&text.into());
    if let Ok(blob) = web_sys::Blob::new_with_str_sequence(&parts) {
        super::copy_bar::download(&blob, name);
    }
}

/// What the panel's listeners need of the store as of the last render.
#[derive(Default)]
struct Mem {
    state: Option<UseReducerHandle<State>>,
    shown: Option<Rc<Vec<Bookmark>>>,
    /// The load (file opening) shown, and the hash whose bookmarks it loaded.
    load: Option<u32>,
    loaded: Option<Rc<str>>,
    listeners: Vec<EventListener>,
}

/// Wires the panel to the store: loads a file's bookmarks once its hash is
/// known, keeps them saved, shows them, and acts on the panel's controls.
#[hook]
pub fn use_bookmarks(state: &UseReducerHandle<State>) {
    let mem = use_mut_ref(Mem::default);
    let st = state.clone();
    use_effect(move || {
        let m2 = mem.clone();
        let mut m = mem.borrow_mut();
        m.state = Some(st.clone());
        if m.listeners.is_empty() {
            m.listeners = listen(m2);
        }
        let storage = gloo_utils::window().local_storage().ok().flatten();
        // Another file (or the same one opened again): nothing until its
        // hash is known and its bookmarks are read.
        let load = st.load.doc.as_ref().map(|d| d.load);
        if m.load != load {
            m.load = load;
            m.loaded = None;
            m.shown = None;
            render(&[]);
        }
        let Some(sha) = st.hash.sha.clone() else {
            return;
        };
        if m.loaded.as_ref() != Some(&sha) {
            m.loaded = Some(sha.clone());
            let size = st.load.doc.as_ref().map_or(0, |d| d.bytes.len());
            let kept = Rc::new(
                storage
                    .as_ref()
                    .and_then(|s| s.get_item(&format!("{KEY}{sha}")).ok().flatten())
                    .and_then(|t| from_json(&t, size))
                    .unwrap_or_default(),
            );
            render(&kept);
            m.shown = Some(kept.clone());
            st.dispatch(Action::Bookmarks(BookmarkAction::Set(kept)));
            return;
        }
        // Shown and saved as they change.
        if m.shown.as_ref() == Some(&st.bookmarks.list) {
            return;
        }
        m.shown = Some(st.bookmarks.list.clone());
        render(&st.bookmarks.list);
        if let Some(s) = storage {
            let name = st
                .load
                .doc
                .as_ref()
                .map(|d| d.bytes.name().to_string())
                .unwrap_or_default();
            let _ = if st.bookmarks.list.is_empty() {
                s.remove_item(&format!("{KEY}{sha}"))
            } else {
                s.set_item(
                    &format!("{KEY}{sha}"),
                    &to_json(&sha, &name, &st.bookmarks.list),
                )
            };
        }
    });
}

/// The panel's listeners.
fn listen(mem: Rc<std::cell::RefCell<Mem>>) -> Vec<EventListener> {
    let state = move || mem.borrow().state.clone();
    let mut out = Vec::new();
    let mut on = |id: &str, event: &'static str, f: Box<dyn FnMut(&Event)>| {
        super::listen_on(&mut out, id, event, f)
    };
    on(
        "bm-toggle",
        "click",
        Box::new(|_| {
            if let Some(p) = el::<web_sys::HtmlElement>("bm-panel") {
                p.set_hidden(!p.hidden());
            }
        }),
    );
    let st = state.clone();
    on(
        "bm-form",
        "submit",
        Box::new(move |e| {
            e.prevent_default();
            let Some(s) = st() else { return };
            if s.hash.sha.is_none() {
                return crate::components::copy_bar::say(
                    "Bookmarks are kept by the file's SHA-256: it is still being computed",
                );
            }
            // The selected bytes, else the selected node (by its path too).
            let node = s.cursor.selected_details();
            let (start, end) = s.cursor.copy_range();
            let path = match (s.cursor.byte_range(), node) {
                (None, Some(n)) => n.path.clone(),
                _ => String::new(),
            };
            let mut name = value("bm-name");
            if name.trim().is_empty() {
                name = node.map_or_else(|| format!("0x{start:X}"), |n| n.name.clone());
            }
            let mut list = (*s.bookmarks.list).clone();
            list.push(Bookmark {
                name,
                start,
                end,
                path,
                colour: el::<web_sys::HtmlSelectElement>("bm-colour")
                    .and_then(|c| c.value().parse().ok())
                    .unwrap_or(0),
                note: value("bm-note"),
            });
            s.dispatch(Action::Bookmarks(BookmarkAction::Set(Rc::new(list))));
            for id in ["bm-name", "bm-note"] {
                if let Some(i) = el::<web_sys::HtmlInputElement>(id) {
                    i.set_value("");
                }
            }
        }),
    );
    let st = state.clone();
    on(
        "bm-list",
        "click",
        Box::new(move |e| {
            let Some(s) = st() else { return };
            let Some(t) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            else {
                return;
            };
            let i = super::list_row(e);
            let Some(b) = i.and_then(|i| s.bookmarks.list.get(i)) else {
                return;
            };
            if t.class_name() == "bm-del" {
                let mut list = (*s.bookmarks.list).clone();
                list.remove(i.unwrap_or(0));
                s.dispatch(Action::Bookmarks(BookmarkAction::Set(Rc::new(list))));
            } else if !b.path.is_empty() {
                s.dispatch(Action::Cursor(CursorAction::Restore {
                    sha: String::new(),
                    path: Some(b.path.clone()),
                    at: Some(b.start),
                    open: Vec::new(),
                }));
            } else {
                s.dispatch(Action::Cursor(CursorAction::Goto(b.start)));
                s.dispatch(Action::Cursor(CursorAction::SelectBytes(
                    b.start,
                    b.end - 1,
                )));
            }
        }),
    );
    let st = state.clone();
    on(
        "bm-export",
        "click",
        Box::new(move |_| {
            let Some(s) = st() else { return };
            let (Some(sha), Some(doc)) = (s.hash.sha.as_ref(), s.load.doc.as_ref()) else {
                return;
            };
            let name = doc.bytes.name();
            download(
                &to_json(sha, name, &s.bookmarks.list),
                &format!("{name}.bookmarks.json"),
            );
        }),
    );
    on(
        "bm-import",
        "change",
        Box::new(move |e| {
            let (Some(f), Some(s)) = (super::picked_file(e), state()) else {
                return;
            };
            let size = s.load.doc.as_ref().map_or(0, |d| d.bytes.len());
            wasm_bindgen_futures::spawn_local(async move {
                let text = wasm_bindgen_futures::JsFuture::from(f.text()).await;
                let read = text.ok().and_then(|t| t.as_string());
                match read.and_then(|t| from_json(&t, size)) {
                    Some(more) => {
                        let mut list = (*s.bookmarks.list).clone();
                        list.extend(more.into_iter().filter(|b| !s.bookmarks.list.contains(b)));
                        s.dispatch(Action::Bookmarks(BookmarkAction::Set(Rc::new(list))));
                    }
                    None => crate::components::copy_bar::say("That file holds no bookmarks"),
                }
            });
        }),
    );
    out
}
