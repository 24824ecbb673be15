//! Dropping a file anywhere on the page opens it.

use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use yew::prelude::*;

fn carries_files(e: &web_sys::DragEvent) -> bool {
    e.data_transfer()
        .map(|dt| {
            dt.types()
                .iter()
                .any(|t| t.as_string().as_deref() == Some("Files"))
        })
        .unwrap_or(false)
}

/// Listens for file drags over the window; returns true while one hovers (to
/// show the drop target) and calls `on_file` with the dropped file.
#[hook]
pub fn use_file_drop(on_file: Callback<web_sys::File>) -> bool {
    let dragging = use_state_eq(|| false);
    {
        let dragging = dragging.clone();
        use_effect_with(on_file, move |on_file| {
            let win = gloo_utils::window();
            let opts = EventListenerOptions::enable_prevent_default();
            let over = {
                let dragging = dragging.clone();
                move |e: &web_sys::Event| {
                    if let Some(d) = e.dyn_ref::<web_sys::DragEvent>() {
                        if carries_files(d) {
                            e.prevent_default();
                            if let Some(dt) = d.data_transfer() {
                                dt.set_drop_effect("copy");
                            }
                            dragging.set(true);
                        }
                    }
                }
            };
            let enter = EventListener::new_with_options(&win, "dragenter", opts, over.clone());
            let overl = EventListener::new_with_options(&win, "dragover", opts, over);
            let leave = {
                let dragging = dragging.clone();
                EventListener::new(&win, "dragleave", move |e| {
                    let d = e.dyn_ref::<web_sys::DragEvent>();
                    // Leaving the window: no element under the pointer any more.
                    if d.map(|d| d.related_target().is_none()).unwrap_or(true) {
                        dragging.set(false);
                    }
                })
            };
            let drop_l = {
                let dragging = dragging.clone();
                let on_file = on_file.clone();
                EventListener::new_with_options(&win, "drop", opts, move |e| {
                    e.prevent_default();
                    dragging.set(false);
                    let file = e
                        .dyn_ref::<web_sys::DragEvent>()
                        .and_then(|d| d.data_transfer())
                        .and_then(|dt| dt.files())
                        .and_then(|fl| fl.get(0));
                    if let Some(f) = file {
                        on_file.emit(f);
                    }
                })
            };
            move || drop((enter, overl, leave, drop_l))
        });
    }
    *dragging
}
