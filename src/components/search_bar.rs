//! The search bar (Ctrl+F): what to look for in the file's bytes (hex with
//! wildcards, text, a number), the options of each kind, the count of matches
//! and the way through them (Enter, F3 / Shift+F3, the arrows). The worker
//! searches the file a step at a time; the bar shows how far it got and can
//! stop it.
//!
//! Under the bar, the list of matches: each one's offset and what matched
//! (the needle, or the node's path for a structure search); a click shows it.
//! Only the rows in the list's scrolled window are in the DOM.
//!
//! The bar is plain markup in `www/index.html`: this module wires it to the
//! store and keeps it in step with it, which costs the page's module far less
//! code than rendering it.

use crate::state::{Action, Search, SearchAction, State, MAX_HITS};
use gloo_events::EventListener;
use hexlens_core::search::{Mode, NumberType, Order, Query};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::by_id as el;

fn input(id: &str) -> Option<web_sys::HtmlInputElement> {
    el(id)
}

fn select_value(id: &str) -> String {
    el::<web_sys::HtmlSelectElement>(id)
        .map(|s| s.value())
        .unwrap_or_default()
}

/// `text` as JavaScript's `Number(text)` reads it (`None`: not a number).
fn js_number(text: &str) -> Option<f64> {
    let f: js_sys::Function = js_sys::Reflect::get(&js_sys::global(), &"Number".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let v = f
        .call1(&wasm_bindgen::JsValue::UNDEFINED, &text.into())
        .ok()?
        .as_f64()?;
    (!v.is_nan()).then_some(v)
}

/// The query the bar's fields give.
fn query() -> Query {
    let mode = Mode::from_name(&select_value("search-mode")).unwrap_or(Mode::Hex);
    let mut q = Query::new(
        mode,
        &input("search-input").map(|i| i.value()).unwrap_or_default(),
    );
    let checked = |id| input(id).is_some_and(|i| i.checked());
    q.ignore_case = checked("search-case");
    q.utf16 = checked("search-utf16");
    q.number = NumberType::from_name(&select_value("search-type")).unwrap_or(NumberType::AnyInt);
    q.order = Order::from_name(&select_value("search-order")).unwrap_or(Order::Both);
    if mode == Mode::Number && matches!(q.number, NumberType::F32 | NumberType::F64) {
        // The browser parses the float with its own `Number()` (see
        // `Query::float_bits`).
        q.float_bits = js_number(q.text.trim()).map(f64::to_bits);
    }
    q
}

/// The search the results list shows: the store's, while the bar is open
/// (the list's listeners, set once, read it as of the last render).
type Shown = std::rc::Rc<std::cell::RefCell<Option<std::rc::Rc<Search>>>>;

/// The text of match `i`'s row: its offset, then the node's path (a
/// structure search) or the length and what was searched for.
fn result_text(x: &Search, i: usize) -> String {
    let h = x.hits[i];
    match x.paths.get(i) {
        Some(p) => format!("{:>8X}  {p}", h.start),
        None => format!(
            "{:>8X}  {} bytes  {}",
            h.start,
            h.len,
            x.whats.get(h.needle as usize).map_or("", |w| w.as_str())
        ),
    }
}

/// Fills the results list with the rows of its scrolled window; with
/// `reveal`, first scrolls the current match into view.
fn render_results(shown: &Shown, reveal: bool) {
    let x = shown.borrow().clone();
    let n = x.as_ref().map_or(0, |x| x.hits.len());
    if let Some(list) = el::<web_sys::HtmlElement>("search-results") {
        list.set_hidden(n == 0);
    }
    let current = x.as_ref().and_then(|x| x.current);
    super::list_window("search-results", n, current, reveal, &|i, r| {
        if let Some(x) = &x {
            r.set_text_content(Some(&result_text(x, i)));
        }
    });
}

/// Shows the bar and puts the cursor in its field.
pub fn show() {
    if let Some(f) = el::<web_sys::HtmlElement>("search-bar") {
        f.set_hidden(false);
    }
    if let Some(i) = input("search-input") {
        let _ = i.focus();
        i.select();
    }
}

/// `3 of 120`, `3 of 120, searching… 45 %`, or why there are none.
fn status(x: &Search, size: u64) -> String {
    if let Some(e) = &x.error {
        return e.clone();
    }
    let n = x.hits.len();
    let count = match (n, x.current) {
        (0, _) => "no matches".to_string(),
        (n, Some(c)) => format!("{} of {n}", c + 1),
        (n, None) => format!("{n} found"),
    };
    let more = if n >= MAX_HITS { "+" } else { "" };
    // A structure search walks the tree in one step: how far it has read.
    let at = if x.query.mode == Mode::Structure {
        x.progress.max(x.reached)
    } else {
        x.reached
    };
    if x.running {
        let pct = at.saturating_mul(100) / size.max(1);
        format!("{count}{more}, searching… {pct} %")
    } else if x.reached < size {
        format!("{count}{more} (stopped at 0x{at:X} of 0x{size:X})")
    } else {
        format!("{count}{more}")
    }
}

/// Wires the bar to the store and keeps it showing the store's search.
#[hook]
pub fn use_search_bar(state: &UseReducerHandle<State>) {
    let dispatch = state.dispatcher();
    let shown: Shown = use_mut_ref(|| None);
    let sh = shown.clone();
    use_effect_with((), move |_| {
        let shown = sh;
        let d = dispatch;
        let mut held: Vec<EventListener> = Vec::new();
        let mut on = |id: &str, event: &'static str, f: Box<dyn FnMut(&Event)>| {
            super::listen_on(&mut held, id, event, f)
        };
        let dd = d.clone();
        on(
            "search-bar",
            "submit",
            Box::new(move |e| {
                e.prevent_default();
                dd.dispatch(Action::Search(SearchAction::Find(query())));
            }),
        );
        // The mode shows its options (the style sheet follows `data-mode`).
        on(
            "search-mode",
            "change",
            Box::new(|_| {
                if let Some(f) = el::<web_sys::Element>("search-bar") {
                    let _ = f.set_attribute("data-mode", &select_value("search-mode"));
                }
            }),
        );
        // Stopping a structure search stops the tools module doing it.
        on(
            "search-stop",
            "click",
            Box::new({
                let shown = shown.clone();
                move |_| {
                    let structure = shown
                        .borrow()
                        .as_ref()
                        .is_some_and(|x| x.running && x.query.mode == Mode::Structure);
                    if structure {
                        crate::decoder::stop_tools();
                    }
                }
            }),
        );
        for (id, a) in [
            ("search-prev", Action::Search(SearchAction::Move(-1))),
            ("search-next", Action::Search(SearchAction::Move(1))),
            ("search-stop", Action::Search(SearchAction::Stop)),
            ("search-close", Action::Search(SearchAction::Bar(false))),
        ] {
            let dd = d.clone();
            on(id, "click", Box::new(move |_| dd.dispatch(a.clone())));
        }
        on(
            "search-results",
            "scroll",
            Box::new({
                let shown = shown.clone();
                move |_| render_results(&shown, false)
            }),
        );
        let dd = d.clone();
        on(
            "search-results",
            "click",
            Box::new(move |e| {
                if let Some(i) = super::list_row(e) {
                    dd.dispatch(Action::Search(SearchAction::Show(i)));
                }
            }),
        );
        let dd = d.clone();
        on(
            "search-input",
            "keydown",
            Box::new(move |e| {
                if e.dyn_ref::<KeyboardEvent>()
                    .is_some_and(|k| k.key() == "Escape")
                {
                    dd.dispatch(Action::Search(SearchAction::Bar(false)));
                }
            }),
        );
        move || drop(held)
    });
    let size = state.load.doc.as_ref().map_or(0, |d| d.bytes.len());
    use_effect_with(
        (
            state.search.last.clone(),
            state.search.open && state.load.doc.is_some(),
            size,
        ),
        move |(search, open, size)| {
            let Some(bar) = el::<web_sys::HtmlElement>("search-bar") else {
                return;
            };
            bar.set_hidden(!*open);
            let x = search.as_deref();
            let invalid = x.is_some_and(|x| x.error.is_some());
            bar.set_class_name(if invalid {
                "search-bar invalid"
            } else {
                "search-bar"
            });
            if let Some(s) = el::<web_sys::Element>("search-status") {
                s.set_text_content(Some(&x.map(|x| status(x, *size)).unwrap_or_default()));
                let what = x.map(|x| format!("searched as: {}", x.whats.join(", ")));
                let _ = s.set_attribute("title", what.as_deref().unwrap_or(""));
            }
            let none = x.is_none_or(|x| x.hits.is_empty());
            for id in ["search-prev", "search-next"] {
                if let Some(b) = el::<web_sys::Element>(id) {
                    let _ = if none {
                        b.set_attribute("disabled", "")
                    } else {
                        b.remove_attribute("disabled")
                    };
                }
            }
            if let Some(b) = el::<web_sys::HtmlElement>("search-stop") {
                b.set_hidden(!x.is_some_and(|x| x.running));
            }
            *shown.borrow_mut() = search.clone().filter(|_| *open);
            render_results(&shown, true);
        },
    );
}
