//! The search bar (Ctrl+F): what to look for in the file's bytes (hex with
//! wildcards, text, a number), the options of each kind, the count of matches
//! and the way through them (Enter, F3 / Shift+F3, the arrows). The worker
//! searches the file a step at a time; the bar shows how far it got and can
//! stop it.

use crate::state::{Action, Search, State};
use hexlens_core::search::{Mode, NumberType, Order, Query};
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`SearchBar`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The last search.
    pub search: Option<Rc<Search>>,
    /// The open file's size.
    pub size: u64,
    /// The query field (focused by Ctrl+F).
    pub input_ref: NodeRef,
    /// The store.
    pub dispatch: UseReducerDispatcher<State>,
}

// `NodeRef::cast` does not check the element's type: each helper is used only
// on refs of its own element type.
fn input_value(r: &NodeRef) -> String {
    r.cast::<web_sys::HtmlInputElement>()
        .map(|i| i.value())
        .unwrap_or_default()
}

fn select_value(e: &Event) -> String {
    e.target_unchecked_into::<web_sys::HtmlSelectElement>()
        .value()
}

fn checked(r: &NodeRef) -> bool {
    r.cast::<web_sys::HtmlInputElement>()
        .is_some_and(|i| i.checked())
}

/// `3 of 120 matches`, `searching… 45 %`, or why there are none.
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
    let more = if n >= crate::state::MAX_HITS { "+" } else { "" };
    if x.running {
        let pct = (x.reached as f64 / size.max(1) as f64 * 100.0) as u64;
        format!("{count}{more}, searching… {pct} %")
    } else if x.reached < size {
        format!("{count}{more} (stopped at 0x{:X} of 0x{size:X})", x.reached)
    } else {
        format!("{count}{more}")
    }
}

/// The search bar.
#[component]
pub fn SearchBar(p: &Props) -> Html {
    let mode = use_state_eq(|| Mode::Hex);
    let case_ref = use_node_ref();
    let utf16_ref = use_node_ref();
    // The number's type and byte order are kept here (a select's own value is
    // not trusted to follow its options as they are redrawn).
    let number = use_state_eq(|| NumberType::AnyInt);
    let order = use_state_eq(|| Order::Both);

    let query = {
        let mode = *mode;
        let input = p.input_ref.clone();
        let (case_ref, utf16_ref, number, order) =
            (case_ref.clone(), utf16_ref.clone(), *number, *order);
        move || {
            let mut q = Query::new(mode, &input_value(&input));
            q.ignore_case = checked(&case_ref);
            q.utf16 = checked(&utf16_ref);
            q.number = number;
            q.order = order;
            q
        }
    };
    let onsubmit = {
        let d = p.dispatch.clone();
        let search = p.search.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let q = query();
            // Enter again on the same query goes to the next match.
            match &search {
                Some(x) if x.query == q && x.error.is_none() => d.dispatch(Action::SearchMove(1)),
                _ => d.dispatch(Action::Search(q)),
            }
        })
    };
    let onkeydown = {
        let d = p.dispatch.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                d.dispatch(Action::SearchBar(false));
            }
        })
    };
    let on_mode = {
        let mode = mode.clone();
        Callback::from(move |e: Event| {
            mode.set(Mode::from_name(&select_value(&e)).unwrap_or(Mode::Hex))
        })
    };
    let on_number = {
        let number = number.clone();
        Callback::from(move |e: Event| {
            number.set(NumberType::from_name(&select_value(&e)).unwrap_or(NumberType::AnyInt))
        })
    };
    let on_order = {
        let order = order.clone();
        Callback::from(move |e: Event| {
            order.set(Order::from_name(&select_value(&e)).unwrap_or(Order::Both))
        })
    };
    let step = |k: i64| {
        let d = p.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::SearchMove(k)))
    };
    let stop = {
        let d = p.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::SearchStop))
    };
    let close = {
        let d = p.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::SearchBar(false)))
    };
    let placeholder = match *mode {
        Mode::Hex => "Bytes: DE AD ?? EF",
        Mode::Text => "Text",
        Mode::Number => "Number: 1234, -5, 0x1F, 1.5",
    };
    let x = p.search.as_deref();
    let has_hits = x.is_some_and(|x| !x.hits.is_empty());
    let running = x.is_some_and(|x| x.running);
    let invalid = x.is_some_and(|x| x.error.is_some());
    html! {
        <form class={classes!("search-bar", invalid.then_some("invalid"))} id="search-bar" role="search" {onsubmit}>
            <label for="search-mode" class="visually-hidden">{"Search for"}</label>
            <select id="search-mode" onchange={on_mode}>
                <option value="hex" selected={*mode == Mode::Hex}>{"Hex"}</option>
                <option value="text" selected={*mode == Mode::Text}>{"Text"}</option>
                <option value="number" selected={*mode == Mode::Number}>{"Number"}</option>
            </select>
            <label for="search-input" class="visually-hidden">{"Search the file"}</label>
            <input id="search-input" ref={p.input_ref.clone()} type="text" autocomplete="off" spellcheck="false"
                {placeholder} {onkeydown} aria-invalid={invalid.then_some("true")} />
            if *mode == Mode::Text {
                <label class="opt"><input type="checkbox" id="search-case" ref={case_ref} />{"Ignore case"}</label>
                <label class="opt"><input type="checkbox" id="search-utf16" ref={utf16_ref} />{"UTF-16 too"}</label>
            }
            if *mode == Mode::Number {
                <label for="search-type" class="visually-hidden">{"Number type"}</label>
                <select id="search-type" onchange={on_number}>
                    { for ["int", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64"].iter().map(|t| html! {
                        <option value={*t} selected={number.name() == *t}>{ if *t == "int" { "any int width" } else { t } }</option>
                    }) }
                </select>
                <label for="search-order" class="visually-hidden">{"Byte order"}</label>
                <select id="search-order" onchange={on_order}>
                    { for [("both", "LE and BE"), ("le", "little-endian"), ("be", "big-endian")].iter().map(|(v, t)| html! {
                        <option value={*v} selected={order.name() == *v}>{*t}</option>
                    }) }
                </select>
            }
            <button type="submit" class="btn btn-small" id="search-go">{"Find"}</button>
            <button type="button" class="btn btn-small" id="search-prev" title="Previous match (Shift+F3)"
                disabled={!has_hits} onclick={step(-1)}>{"◀"}</button>
            <button type="button" class="btn btn-small" id="search-next" title="Next match (F3)"
                disabled={!has_hits} onclick={step(1)}>{"▶"}</button>
            if running {
                <button type="button" class="btn btn-small" id="search-stop" onclick={stop}>{"Stop"}</button>
            }
            <span class="search-status" id="search-status" role="status" aria-live="polite"
                title={x.map(|x| format!("searched as: {}", x.whats.join(", ")))}>
                { x.map(|x| status(x, p.size)).unwrap_or_default() }
            </span>
            <button type="button" class="btn btn-small search-close" aria-label="Close the search bar" onclick={close}>{"×"}</button>
        </form>
    }
}
