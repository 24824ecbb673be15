//! Page-wide keyboard shortcuts.

use gloo_events::{EventListener, EventListenerOptions};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Calls `f` on Ctrl+`key` (Cmd+`key` on macOS) anywhere on the page, replacing
/// the browser's own binding.
#[hook]
pub fn use_ctrl_key<F>(key: &'static str, f: F)
where
    F: Fn() + 'static,
{
    let slot = use_mut_ref(|| None::<Rc<dyn Fn()>>);
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
                if (e.ctrl_key() || e.meta_key())
                    && !e.alt_key()
                    && e.key().eq_ignore_ascii_case(key)
                {
                    e.prevent_default();
                    let cb = slot.borrow().clone();
                    if let Some(cb) = cb {
                        cb();
                    }
                }
            },
        );
        move || drop(listener)
    });
}
