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

use crate::state::{Action, CompareAction, CursorAction, LoadAction, State};
use gloo_events::EventListener;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::by_id as el;

/// One row of the merged tree as the panel shows it.
#[derive(Clone, Debug)]
struct Row {
    depth: u32,
    /// `same`, `changed`, `moved`, `removed`, `added` or `inside`.
    mark: String,
    /// The row's text (`hexlens diff --tree`'s line without its indent).
    text: String,
    /// The node's path (in B for an addition).
    path: String,
    /// The difference it shows.
    difference: Option<usize>,
    /// The offsets in A and B that stand side by side when it is shown.
    align: (u64, u64),
}

/// What the panel shows.
#[derive(Default)]
struct Panel {
    rows: Vec<Row>,
    /// The rows shown (indices into `rows`), as the filter and folds leave them.
    shown: Vec<usize>,
    /// The row selected (an index into `rows`).
    current: Option<usize>,
    /// Rows folded (their descendants hidden).
    folded: Vec<bool>,
    /// Hide the rows of nodes that are the same.
    only: bool,
    /// The second file.
    other: Option<web_sys::Blob>,
    /// The last run of differing bytes shown, in A.
    run: Option<(u64, u64)>,
    /// The load of the file compared (A): another file opened ends the
    /// comparison.
    load: Option<u32>,
}

impl Panel {
    /// Works out which rows show.
    fn refilter(&mut self) {
        self.shown.clear();
        // Depth below which rows are hidden by a fold.
        let mut hide_below: Option<u32> = None;
        for (i, r) in self.rows.iter().enumerate() {
            if let Some(d) = hide_below {
                if r.depth > d {
                    continue;
                }
                hide_below = None;
            }
            if self.only && r.mark == "same" {
                continue;
            }
            self.shown.push(i);
            if self.folded[i] {
                hide_below = Some(r.depth);
            }
        }
    }

    /// True if row `i` has rows below it.
    fn has_children(&self, i: usize) -> bool {
        self.rows
            .get(i + 1)
            .is_some_and(|n| n.depth > self.rows[i].depth)
    }

    /// Unfolds the rows above row `i`, so it shows.
    fn unfold_to(&mut self, i: usize) {
        let mut depth = self.rows[i].depth;
        for j in (0..i).rev() {
            if self.rows[j].depth < depth {
                self.folded[j] = false;
                depth = self.rows[j].depth;
            }
        }
    }
}

thread_local! {
    static PANEL: RefCell<Panel> = RefCell::new(Panel { only: true, ..Panel::default() });
    /// The store as of the last render (a click selects in it).
    static LATEST: RefCell<Option<UseReducerHandle<State>>> = const { RefCell::new(None) };
    /// A bundled sample to compare the file with once it is decoded
    /// (`?sample=A&compare=B`).
    static LATER: RefCell<Option<String>> = const { RefCell::new(None) };
    /// A file picked to compare with while the open file was still being
    /// decoded: compared once it is.
    static WAITING: RefCell<Option<(web_sys::Blob, String, u32)>> = const { RefCell::new(None) };
}

/// Compares the file about to open with bundled sample `name` once it is
/// decoded.
pub fn compare_later(name: String) {
    LATER.with(|l| *l.borrow_mut() = Some(name));
}

fn say(id: &str, text: &str) {
    if let Some(s) = el::<web_sys::Element>(id) {
        s.set_text_content(Some(text));
    }
}

fn show_panel(open: bool) {
    if let Some(p) = el::<web_sys::HtmlElement>("cmp-panel") {
        p.set_hidden(!open);
    }
}

fn store() -> Option<UseReducerHandle<State>> {
    LATEST.with(|l| l.borrow().clone())
}

/// Asks the tools module to compare the open file with `other`, called `name`,
/// and shows B's bytes beside A's.
fn compare_with(other: web_sys::Blob, name: &str) {
    let Some(st) = store() else {
        return;
    };
    let Some(doc) = st.load.doc.clone() else {
        return crate::components::copy_bar::say("Open a file first");
    };
    if !doc.is_decoded() {
        show_panel(true);
        say(
            "cmp-summary",
            &format!("{name} will be compared once the open file is decoded…"),
        );
        WAITING.with(|w| *w.borrow_mut() = Some((other, name.to_string(), doc.load)));
        return;
    }
    show_panel(true);
    say("cmp-summary", &format!("Comparing with {name}…"));
    say("cmp-where", "");
    PANEL.with(|p| {
        let mut p = p.borrow_mut();
        let only = p.only;
        *p = Panel {
            only,
            other: Some(other.clone()),
            load: Some(doc.load),
            ..Panel::default()
        };
    });
    render(false);
    let arrived = st.dispatcher();
    let bytes = crate::bytes::FileBytes::from_blob(
        name,
        other.clone(),
        Rc::new(move || arrived.dispatch(Action::Load(LoadAction::BytesArrived))),
    );
    st.dispatch(Action::Compare(CompareAction::With(Some(Rc::new(bytes)))));
    let sent = crate::decoder::send_tools(
        doc.load,
        &[
            ("type", "diff".into()),
            ("other", other.into()),
            ("ticket", 0.into()),
        ],
    );
    if let Err(e) = sent {
        say("cmp-summary", &e);
    }
}

/// The tools module's answer: `{type: "compared", summary, rows}` (`rows`:
/// the merged tree's, see the tools module), or `{error}`.
pub fn received(m: &JsValue) {
    let get = |k: &str| crate::decoder::get(m, k);
    if let Some(e) = get("error").as_string() {
        return say("cmp-summary", &format!("Could not compare: {e}"));
    }
    let num = |r: &js_sys::Array, i: u32| r.get(i).as_f64().unwrap_or(-1.0);
    let rows: Vec<Row> = get("rows")
        .dyn_into::<js_sys::Array>()
        .map(|a| {
            a.iter()
                .filter_map(|r| {
                    let r: js_sys::Array = r.dyn_into().ok()?;
                    Some(Row {
                        depth: num(&r, 0) as u32,
                        mark: r.get(1).as_string()?,
                        text: r.get(2).as_string()?,
                        path: r.get(3).as_string()?,
                        difference: (num(&r, 4) >= 0.0).then(|| num(&r, 4) as usize),
                        align: (num(&r, 5) as u64, num(&r, 6) as u64),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    say(
        "cmp-summary",
        &get("summary").as_string().unwrap_or_default(),
    );
    PANEL.with(|p| {
        let mut p = p.borrow_mut();
        p.folded = vec![false; rows.len()];
        p.rows = rows;
        p.current = None;
        p.refilter();
    });
    render(false);
}

/// Selects row `i`: its node in A (a row only in B has none there: A's
/// bytes beside where B has it show), with B's bytes lined up with it.
fn pick(i: usize) {
    let row = PANEL.with(|p| {
        let mut p = p.borrow_mut();
        let row = p.rows.get(i).cloned()?;
        p.current = Some(i);
        p.unfold_to(i);
        p.refilter();
        Some(row)
    });
    let Some(row) = row else {
        return;
    };
    render(true);
    let Some(st) = store() else {
        return;
    };
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
    let next = PANEL.with(|p| {
        let p = p.borrow();
        let diffs: Vec<usize> = (0..p.rows.len())
            .filter(|&i| p.rows[i].difference.is_some())
            .collect();
        if diffs.is_empty() {
            return None;
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
        Some(diffs[k as usize])
    });
    if let Some(i) = next {
        pick(i);
    }
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
    let (blob, run) = PANEL.with(|p| (p.borrow().other.clone(), p.borrow().run));
    let Some(blob) = blob else {
        return;
    };
    // From the run shown, if the cursor is still in it.
    let from = match run.filter(|r| r.0 <= st.cursor.cursor && st.cursor.cursor < r.1.max(r.0 + 1))
    {
        Some((s, _)) if back => s,
        Some((_, e)) => e.saturating_sub(1),
        None => st.cursor.cursor,
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
    PANEL.with(|p| p.borrow_mut().run = Some((s, e)));
    say(
        "cmp-where",
        &format!("Bytes 0x{s:X}–0x{:X} differ ({} bytes)", e - 1, e - s),
    );
    if let Some(st) = store() {
        st.dispatch(Action::Cursor(CursorAction::Goto(s)));
        st.dispatch(Action::Cursor(CursorAction::SelectBytes(s, e - 1)));
    }
}

/// Ends the comparison: the panel hides and B's bytes leave the hex pane.
fn close() {
    show_panel(false);
    WAITING.with(|w| w.borrow_mut().take());
    PANEL.with(|p| {
        let mut p = p.borrow_mut();
        let only = p.only;
        *p = Panel {
            only,
            ..Panel::default()
        };
    });
    if let Some(st) = store() {
        st.dispatch(Action::Compare(CompareAction::With(None)));
    }
}

/// Fills the list with the rows of its scrolled window; with `reveal`, first
/// scrolls the selected row into view.
fn render(reveal: bool) {
    PANEL.with(|p| {
        let p = p.borrow();
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
    });
}

/// Folds or unfolds row `i`.
fn fold(i: usize) {
    PANEL.with(|p| {
        let mut p = p.borrow_mut();
        if let Some(f) = p.folded.get_mut(i) {
            *f = !*f;
        }
        p.refilter();
    });
    render(false);
}

/// Wires the panel and the "Compare with…" input.
#[hook]
pub fn use_compare(state: &UseReducerHandle<State>) {
    LATEST.with(|l| *l.borrow_mut() = Some(state.clone()));
    // Another file opened: the comparison (of the file before) ends.
    let load = state.load.doc.as_ref().map(|d| d.load);
    let stale = WAITING.with(|w| w.borrow().as_ref().is_some_and(|x| Some(x.2) != load));
    let ended = stale || PANEL.with(|p| p.borrow().load.is_some_and(|l| Some(l) != load));
    if ended {
        close();
    }
    // A comparison the address asked for, or picked while the file was
    // being decoded, once it is.
    if state.load.doc.as_ref().is_some_and(|d| d.is_decoded()) {
        if let Some((blob, name, _)) = WAITING.with(|w| w.borrow_mut().take()) {
            // After this render: the comparison changes the store.
            wasm_bindgen_futures::spawn_local(async move { compare_with(blob, &name) });
        }
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
                PANEL.with(|p| {
                    let mut p = p.borrow_mut();
                    p.only = on;
                    p.refilter();
                });
                render(true);
            }),
        );
        on("cmp-close", "click", Box::new(|_| close()));
        on("cmp-list", "scroll", Box::new(|_| render(false)));
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
                    return fold(i);
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
