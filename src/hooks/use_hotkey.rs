//! Page-wide keyboard shortcuts.

use gloo_events::{EventListener, EventListenerOptions};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Calls `f(event)` for every key press on the page that `wanted` accepts,
/// replacing the browser's own binding for it.
#[hook]
fn use_key<W, F>(wanted: W, f: F)
where
    W: Fn(&web_sys::KeyboardEvent) -> bool + 'static,
    F: Fn(&web_sys::KeyboardEvent) + 'static,
{
    let slot = use_mut_ref(|| None::<Rc<dyn Fn(&web_sys::KeyboardEvent)>>);
    *slot.borrow_mut() = Some(Rc::new(f));
    use_effect_with((), move |_| {
        let doc = gloo_utils::document();
        let listener = EventListener::new_with_options(
            &doc,
            "keydown",
            EventListenerOptions::enable_prevent_default(),
            move |e| {
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                    return;
                };
                if wanted(e) {
                    e.prevent_default();
                    let cb = slot.borrow().clone();
                    if let Some(cb) = cb {
                        cb(e);
                    }
                }
            },
        );
        move || drop(listener)
    });
}

/// Calls `f` on Ctrl+`key` (Cmd+`key` on macOS) anywhere on the page, replacing
/// the browser's own binding.
#[hook]
pub fn use_ctrl_key<F>(key: &'static str, f: F)
where
    F: Fn() + 'static,
{
    use_key(
        move |e| {
            (e.ctrl_key() || e.meta_key()) && !e.alt_key() && e.key().eq_ignore_ascii_case(key)
        },
        move |_| f(),
    );
}

/// Calls `f(shift)` on `key` (a function key such as `F3`, with or without
/// Shift) anywhere on the page, replacing the browser's own binding.
#[hook]
pub fn use_plain_key<F>(key: &'static str, f: F)
where
    F: Fn(bool) + 'static,
{
    use_key(
        move |e| !e.ctrl_key() && !e.meta_key() && !e.alt_key() && e.key() == key,
        move |e| f(e.shift_key()),
    );
}

/// Alt+← and Alt+→ go back and forward in the browser's history (the places
/// visited: see `use_permalink`). Browsers do this themselves; the page does it
/// too, so the keys work wherever the page has the focus, and the browser's
/// own binding is replaced (never both).
#[hook]
pub fn use_history_keys() {
    use_key(
        |e| e.alt_key() && !e.ctrl_key() && (e.key() == "ArrowLeft" || e.key() == "ArrowRight"),
        |e| {
            if let Ok(h) = gloo_utils::window().history() {
                let _ = if e.key() == "ArrowLeft" {
                    h.back()
                } else {
                    h.forward()
                };
            }
        },
    );
}
