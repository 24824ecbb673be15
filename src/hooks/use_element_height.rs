//! The client height of an element, kept current with a `ResizeObserver`.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Height in px of the element behind `node` (0 until it is mounted).
#[hook]
pub fn use_element_height(node: NodeRef) -> f64 {
    let height = use_state_eq(|| 0.0f64);
    {
        let height = height.clone();
        use_effect_with(node, move |node| {
            let el = node.cast::<web_sys::Element>();
            let observer = el.as_ref().and_then(|el| {
                height.set(el.client_height() as f64);
                let target = el.clone();
                let h = height.clone();
                let cb = Closure::<dyn FnMut(js_sys::Array)>::new(move |_entries| {
                    h.set(target.client_height() as f64);
                });
                let ro = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()).ok()?;
                ro.observe(el);
                Some((ro, cb))
            });
            move || {
                if let Some((ro, cb)) = observer {
                    ro.disconnect();
                    drop(cb);
                }
            }
        });
    }
    *height
}
