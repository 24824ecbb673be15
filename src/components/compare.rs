//! Compare with another file: "Compare with…" by the status bar picks a
//! second file (B); the tools module compares the open file (A) with it by
//! their structure (`hexlens_core::diff`, what `hexlens diff --tree` prints)
//! and the panel shows the merged tree: one row a node the comparison
//! reached, indented by depth, marked `=` the same in both (a run of
//! identical siblings is one row), `~` changed (both values), `>` changed
//! only because what it points at moved, `-` only in A, `+` only in B, `*`
//! the differences are inside. "Only differences" hides the `=` rows; a
//! row's twisty folds what is below it.
//!
//! B's bytes stand beside A's in the hex pane (the store's
//! [`crate::state::Other`]); differing bytes are marked in both. A click on a
//! row, or ◀ ▶ (the previous and next difference), selects the node in A and
//! lines B's bytes up with it (its start in B beside its start in A); the
//! byte ◀ ▶ go to the previous and next run of bytes that differ from those
//! beside them. Only the rows in the list's window are in the DOM.
//!
//! The panel is plain markup in `www/index.html`, wired here; every text in
//! it is set as text.

use crate::state::{Action, CompareAction, CompareState, CursorAction, DiffRow, LoadAction, State};
use gloo_events::EventListener;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::by_id as el;

thread_local! {
    /// The store as of the last render: a handle the panel's listeners and
    /// the tools module's replies reach it by (the panel's state is the
    /// store's compare slice).
    static LATEST: RefCell<Option<UseReducerHandle<State>>> = const { RefCell::new(None) };
}

fn say(id: &str, text: &str) {
    if let Some(s) = el::<web_sys::Element>(id) {
        s.set_text_content(Some(text));
    }
}

fn store() -> Option<UseReducerHandle<State>> {
    LATEST.with(|l| l.borrow().clone())
}

fn dispatch(a: CompareAction) {
    if let Some(st) = store() {
        st.dispatch(Action::Compare(a));
    }
}

/// Asks the tools module to compare the open file with `other`, called `name`,
/// and shows B's bytes beside A's (once the open file is decoded).
fn compare_with(other: web_sys::Blob, name: &str) {
    let Some(st) = store() else {
        return;
    };
    let Some(doc) = st.load.doc.clone() else {
        return crate::components::copy_bar::say("Open a file first");
    };
    let arrived = st.dispatcher();
    let bytes = Rc::new(crate::bytes::FileBytes::from_blob(
        name,
        other.clone(),
        Rc::new(move || arrived.dispatch(Action::Load(LoadAction::BytesArrived))),
    ));
    if !doc.is_decoded() {
        say(
            "cmp-summary",
            &format!("{name} will be compared once the open file is decoded…"),
        );
        return st.dispatch(Action::Compare(CompareAction::Wait(bytes)));
    }
    say("cmp-summary", &format!("Comparing with {name}…"));
    say("cmp-where", "");
    st.dispatch(Action::Compare(CompareAction::With(Some(bytes))));
    let sent = crate::decoder::send_tools(
        doc.load,
        &[("type", "diff".into()), ("other", other.into())],
    );
    if let Err(e) = sent {
        say("cmp-summary", &e);
    }
}

/// The tools module's answer: the summary and the merged tree's rows, or
/// why the files could not be compared.
pub fn received(answer: Result<(String, Vec<DiffRow>), String>) {
    match answer {
        Err(e) => say("cmp-summary", &format!("Could not compare: {e}")),
        Ok((summary, rows)) => {
            say("cmp-summary", &summary);
            dispatch(CompareAction::Rows(rows));
        }
    }
}

/// Selects row `i`: its node in A (a row only in B has none there: A's
/// bytes beside where B has it show), with B's bytes lined up with it.
fn pick(i: usize) {
    let Some(st) = store() else {
        return;
    };
    let Some(row) = st.compare.list.rows.get(i).cloned() else {
        return;
    };
    st.dispatch(Action::Compare(CompareAction::Pick(i)));
    st.dispatch(Action::Compare(CompareAction::Align(
        row.align.1 as i64 - row.align.0 as i64,
    )));
    if row.mark == "added" {
        say("cmp-where", &format!("Only in B: {}", row.path));
        return st.dispatch(Action::Cursor(CursorAction::Goto(row.align.0)));
    }
    say("cmp-where", "");
    st.dispatch(Action::Cursor(CursorAction::Restore {
        sha: String::new(),
        path: Some(row.path),
        at: None,
        open: Vec::new(),
    }));
}

/// Moves to the next (+1) or previous (-1) difference, wrapping around.
fn step(by: i64) {
    let Some(st) = store() else {
        return;
    };
    let p = &st.compare.list;
    let diffs: Vec<usize> = (0..p.rows.len())
        .filter(|&i| p.rows[i].difference.is_some())
        .collect();
    if diffs.is_empty() {
        return;
    }
    let at = p.current.map(|c| diffs.partition_point(|&d| d < c));
    let n = diffs.len() as i64;
    let k = match (at, p.current) {
        // On a difference: the one beside it.
        (Some(k), Some(c)) if diffs.get(k) == Some(&c) => (k as i64 + by).rem_euclid(n),
        // Between differences: the next one is at `k`, the previous one before it.
        (Some(k), _) if by > 0 => (k as i64).rem_euclid(n),
        (Some(k), _) => (k as i64 - 1).rem_euclid(n),
        (None, _) if by > 0 => 0,
        (None, _) => n - 1,
    };
    pick(diffs[k as usize]);
}

/// Asks for the next (`back`: previous) run of bytes that differ from those
/// beside them.
fn byte_step(back: bool) {
    let Some(st) = store() else {
        return;
    };
    let (Some(doc), Some(o)) = (st.load.doc.clone(), st.compare.other.clone()) else {
        return;
    };
    let Some(blob) = o.bytes.blob().cloned() else {
        return;
    };
    let cursor = st.cursor.cursor;
    // From the run shown, if the cursor is still in it.
    let from = match st
        .compare
        .run
        .filter(|r| r.0 <= cursor && cursor < r.1.max(r.0 + 1))
    {
        Some((s, _)) if back => s,
        Some((_, e)) => e.saturating_sub(1),
        None => cursor,
    };
    let sent = crate::decoder::send_tools(
        doc.load,
        &[
            ("type", "bytediff".into()),
            ("other", blob.into()),
            ("from", (from as f64).into()),
            ("delta", (o.delta as f64).into()),
            ("back", back.into()),
        ],
    );
    if let Err(e) = sent {
        say("cmp-where", &e);
    }
}

/// The tools module's answer to [`byte_step`]: `{type: "bytediff", start,
/// end}`, no `start` if there is no such run, or `{error}`.
pub fn byte_found(m: &JsValue) {
    let get = |k: &str| crate::decoder::get(m, k);
    if let Some(e) = get("error").as_string() {
        return say("cmp-where", &format!("Could not compare the bytes: {e}"));
    }
    let (Some(s), Some(e)) = (get("start").as_f64(), get("end").as_f64()) else {
        return say("cmp-where", "No more bytes differ that way");
    };
    let (s, e) = (s as u64, e as u64);
    say(
        "cmp-where",
        &format!("Bytes 0x{s:X}–0x{:X} differ ({} bytes)", e - 1, e - s),
    );
    if let Some(st) = store() {
        st.dispatch(Action::Compare(CompareAction::Run(s, e)));
        st.dispatch(Action::Cursor(CursorAction::Goto(s)));
        st.dispatch(Action::Cursor(CursorAction::SelectBytes(s, e - 1)));
    }
}

/// Fills the list with the rows of its scrolled window; with `reveal`, first
/// scrolls the selected row into view.
fn render(c: &CompareState, reveal: bool) {
    let p = &c.list;
    let cur = p.current.and_then(|c| p.shown.iter().position(|&i| i == c));
    super::list_window("cmp-list", p.shown.len(), cur, reveal, &|k, d| {
        let i = p.shown[k];
        let row = &p.rows[i];
        d.set_class_name(&format!("{} cmp-{}", d.class_name(), row.mark));
        let _ = d.set_attribute("data-path", &row.path);
        let _ = d.set_attribute("data-row", &i.to_string());
        let _ = d.set_attribute("role", "treeitem");
        let _ = d.set_attribute("aria-level", &(row.depth + 1).to_string());
        let _ = d.set_attribute(
            "style",
            &format!(
                "{}; padding-left: {}px",
                d.get_attribute("style").unwrap_or_default(),
                6 + 14 * row.depth
            ),
        );
        let doc = gloo_utils::document();
        if let Ok(t) = doc.create_element("span") {
            t.set_class_name("cmp-twisty");
            if p.has_children(i) {
                let folded = p.folded[i];
                let _ = t.set_attribute("data-fold", &i.to_string());
                let _ = d.set_attribute("aria-expanded", if folded { "false" } else { "true" });
                t.set_text_content(Some(if folded { "▸" } else { "▾" }));
            }
            let _ = d.append_child(&t);
        }
        if let Ok(t) = doc.create_element("span") {
            t.set_class_name("cmp-text");
            t.set_text_content(Some(&row.text));
            let _ = d.append_child(&t);
        }
    });
}

/// Compares the file about to open with bundled sample `name` once it is
/// decoded.
pub fn compare_later(dispatch: &UseReducerDispatcher<State>, name: String) {
    dispatch.dispatch(Action::Compare(CompareAction::Later(Some(name))));
}

/// Wires the panel and the "Compare with…" input, and keeps the panel
/// showing the store's comparison.
#[hook]
pub fn use_compare(state: &UseReducerHandle<State>) {
    LATEST.with(|l| *l.borrow_mut() = Some(state.clone()));
    let c = &state.compare;
    use_effect_with(c.panel, |open| {
        if let Some(p) = el::<web_sys::HtmlElement>("cmp-panel") {
            p.set_hidden(!*open);
        }
    });
    {
        let c = c.clone();
        use_effect_with(c.seq, move |_| render(&c, c.reveal));
    }
    // A comparison the address asked for, or picked while the file was
    // being decoded, once it is.
    let decoded = state.load.decoded();
    use_effect_with(
        (
            decoded,
            c.waiting.as_ref().map(|b| Rc::as_ptr(b) as usize),
            c.later.clone(),
        ),
        |(decoded, _, later)| {
            let Some(st) = store().filter(|_| *decoded) else {
                return;
            };
            if let Some(bytes) = st.compare.waiting.clone() {
                if let Some(blob) = bytes.blob().cloned() {
                    compare_with(blob, bytes.name());
                }
            }
            if let Some(name) = later.clone() {
                st.dispatch(Action::Compare(CompareAction::Later(None)));
                wasm_bindgen_futures::spawn_local(async move {
                    match crate::io::sample_blob(&name).await {
                        Ok(blob) => compare_with(blob, &name),
                        Err(e) => crate::components::copy_bar::say(&e),
                    }
                });
            }
        },
    );
    use_effect_with((), |_| {
        let mut held: Vec<EventListener> = Vec::new();
        let mut on = |id: &str, event: &'static str, f: Box<dyn FnMut(&web_sys::Event)>| {
            super::listen_on(&mut held, id, event, f)
        };
        on(
            "cmp-file",
            "change",
            Box::new(|e| {
                if let Some(f) = super::picked_file(e) {
                    let name = f.name();
                    compare_with(f.into(), &name);
                }
            }),
        );
        on("cmp-next", "click", Box::new(|_| step(1)));
        on("cmp-prev", "click", Box::new(|_| step(-1)));
        on("cmp-bnext", "click", Box::new(|_| byte_step(false)));
        on("cmp-bprev", "click", Box::new(|_| byte_step(true)));
        on(
            "cmp-only",
            "change",
            Box::new(|e| {
                let on = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                    .is_some_and(|i| i.checked());
                dispatch(CompareAction::Only(on));
            }),
        );
        on(
            "cmp-close",
            "click",
            Box::new(|_| dispatch(CompareAction::With(None))),
        );
        on(
            "cmp-list",
            "scroll",
            Box::new(|_| {
                if let Some(st) = store() {
                    render(&st.compare, false);
                }
            }),
        );
        on(
            "cmp-list",
            "click",
            Box::new(|e| {
                let fold_at = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .and_then(|t| t.get_attribute("data-fold"))
                    .and_then(|f| f.parse::<usize>().ok());
                if let Some(i) = fold_at {
                    return dispatch(CompareAction::Fold(i));
                }
                let row = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .and_then(|t| t.closest("[data-row]").ok().flatten())
                    .and_then(|r| r.get_attribute("data-row"))
                    .and_then(|r| r.parse::<usize>().ok());
                if let Some(i) = row {
                    pick(i);
                }
            }),
        );
        move || drop(held)
    });
}
