//! Compare with another file: "Compare with…" by the status bar picks a
//! second file (B); the tools module compares the open file (A) with it by
//! their structure (`hexlens_core::diff`, what `hexlens diff` prints) and the
//! panel lists the differences: a summary, then one row a difference (`~` a
//! value changed, `>` it changed only because what it points at moved, `-`
//! only in A, `+` only in B) with both values. A click on a row, or the
//! panel's ◀ ▶ (next and previous difference), selects the node in A and
//! shows its bytes. Only the rows in the list's window are in the DOM.
//!
//! The panel is plain markup in `www/index.html`, wired here; every text in
//! it is set as text.

use crate::state::{Action, State};
use gloo_events::EventListener;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::by_id as el;

/// One difference as the panel shows it.
#[derive(Clone, Debug)]
struct Row {
    /// `changed`, `moved`, `removed` or `added`.
    change: String,
    /// The node's path (in B for an addition).
    path: String,
    /// The row's text.
    text: String,
}

thread_local! {
    /// The differences shown, and the one selected.
    static ROWS: std::cell::RefCell<(Vec<Row>, Option<usize>)> =
        const { std::cell::RefCell::new((Vec::new(), None)) };
    /// The store as of the last render (a click selects in it).
    static LATEST: std::cell::RefCell<Option<UseReducerHandle<State>>> =
        const { std::cell::RefCell::new(None) };
    /// A bundled sample to compare the file with once it is decoded
    /// (`?sample=A&compare=B`).
    static LATER: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Compares the file about to open with bundled sample `name` once it is
/// decoded.
pub fn compare_later(name: String) {
    LATER.with(|l| *l.borrow_mut() = Some(name));
}

fn say(text: &str) {
    if let Some(s) = el::<web_sys::Element>("cmp-summary") {
        s.set_text_content(Some(text));
    }
}

fn show_panel(open: bool) {
    if let Some(p) = el::<web_sys::HtmlElement>("cmp-panel") {
        p.set_hidden(!open);
    }
}

/// Asks the tools module to compare the open file with `other`, called `name`.
fn compare_with(other: web_sys::Blob, name: &str) {
    let Some(st) = LATEST.with(|l| l.borrow().clone()) else {
        return;
    };
    let Some(doc) = st.doc.clone().filter(|d| d.is_decoded()) else {
        return crate::components::copy_bar::say("Open and decode a file first");
    };
    show_panel(true);
    say(&format!("Comparing with {name}…"));
    ROWS.with(|r| *r.borrow_mut() = (Vec::new(), None));
    render(false);
    let sent = crate::decoder::send_tools(
        doc.load,
        &[
            ("type", "diff".into()),
            ("other", other.into()),
            ("ticket", 0.into()),
        ],
    );
    if let Err(e) = sent {
        say(&e);
    }
}

/// The tools module's answer: `{type: "compared", summary, rows}` (`rows`:
/// `[change, path, text]` each), or `{error}`.
pub fn received(m: &JsValue) {
    let get = |k: &str| js_sys::Reflect::get(m, &k.into()).unwrap_or(JsValue::UNDEFINED);
    if let Some(e) = get("error").as_string() {
        return say(&format!("Could not compare: {e}"));
    }
    let rows: Vec<Row> = get("rows")
        .dyn_into::<js_sys::Array>()
        .map(|a| {
            a.iter()
                .filter_map(|r| {
                    let r: js_sys::Array = r.dyn_into().ok()?;
                    Some(Row {
                        change: r.get(0).as_string()?,
                        path: r.get(1).as_string()?,
                        text: r.get(2).as_string()?,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    say(&get("summary").as_string().unwrap_or_default());
    ROWS.with(|r| *r.borrow_mut() = (rows, None));
    render(false);
}

/// Selects difference `i`: the node in A (a row only in B has none there).
fn pick(i: usize) {
    let row = ROWS.with(|r| {
        let mut r = r.borrow_mut();
        let row = r.0.get(i).cloned();
        if row.is_some() {
            r.1 = Some(i);
        }
        row
    });
    let Some(row) = row else {
        return;
    };
    render(true);
    if row.change == "added" {
        return crate::components::copy_bar::say(&format!("Only in B: {}", row.path));
    }
    if let Some(st) = LATEST.with(|l| l.borrow().clone()) {
        st.dispatch(Action::Restore {
            sha: String::new(),
            path: Some(row.path),
            at: None,
            open: Vec::new(),
        });
    }
}

/// Moves to the next (+1) or previous (-1) difference, wrapping around.
fn step(by: i64) {
    let (n, cur) = ROWS.with(|r| (r.borrow().0.len(), r.borrow().1));
    if n == 0 {
        return;
    }
    let i = match cur {
        Some(c) => (c as i64 + by).rem_euclid(n as i64) as usize,
        None if by >= 0 => 0,
        None => n - 1,
    };
    pick(i);
}

/// Fills the list with the rows of its scrolled window; with `reveal`, first
/// scrolls the selected row into view.
fn render(reveal: bool) {
    ROWS.with(|r| {
        let (rows, cur) = &*r.borrow();
        super::list_window("cmp-list", rows.len(), *cur, reveal, &|i, d| {
            let row = &rows[i];
            d.set_class_name(&format!("{} cmp-{}", d.class_name(), row.change));
            let _ = d.set_attribute("data-path", &row.path);
            d.set_text_content(Some(&row.text));
        });
    });
}

/// Wires the panel and the "Compare with…" input.
#[hook]
pub fn use_compare(state: &UseReducerHandle<State>) {
    LATEST.with(|l| *l.borrow_mut() = Some(state.clone()));
    // A comparison the address asked for, once the file is decoded.
    if state.doc.as_ref().is_some_and(|d| d.is_decoded()) {
        if let Some(name) = LATER.with(|l| l.borrow_mut().take()) {
            wasm_bindgen_futures::spawn_local(async move {
                match crate::io::sample_blob(&name).await {
                    Ok(blob) => compare_with(blob, &name),
                    Err(e) => crate::components::copy_bar::say(&e),
                }
            });
        }
    }
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
        on("cmp-close", "click", Box::new(|_| show_panel(false)));
        on("cmp-list", "scroll", Box::new(|_| render(false)));
        on(
            "cmp-list",
            "click",
            Box::new(|e| {
                if let Some(i) = super::list_row(e) {
                    pick(i);
                }
            }),
        );
        move || drop(held)
    });
}
