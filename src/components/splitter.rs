//! A vertical drag handle between two panes (pointer drag or arrow keys).

use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Props of [`Splitter`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// Accessible name.
    pub label: AttrValue,
    /// Current size of the pane it resizes (px), for assistive tech.
    pub value: f64,
    /// Called with the horizontal movement in px.
    pub on_resize: Callback<f64>,
}

/// The splitter.
#[component]
pub fn Splitter(p: &Props) -> Html {
    let last_x = use_mut_ref(|| None::<i32>);
    let onpointerdown = {
        let last_x = last_x.clone();
        Callback::from(move |e: PointerEvent| {
            if let Some(t) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            {
                let _ = t.set_pointer_capture(e.pointer_id());
            }
            *last_x.borrow_mut() = Some(e.client_x());
            e.prevent_default();
        })
    };
    let onpointermove = {
        let last_x = last_x.clone();
        let cb = p.on_resize.clone();
        Callback::from(move |e: PointerEvent| {
            let prev = *last_x.borrow();
            if let Some(x0) = prev {
                let x = e.client_x();
                *last_x.borrow_mut() = Some(x);
                cb.emit((x - x0) as f64);
            }
        })
    };
    let onpointerup = {
        let last_x = last_x.clone();
        Callback::from(move |_e: PointerEvent| *last_x.borrow_mut() = None)
    };
    let onkeydown = {
        let cb = p.on_resize.clone();
        Callback::from(move |e: KeyboardEvent| {
            let step = if e.shift_key() { 64.0 } else { 16.0 };
            match e.key().as_str() {
                "ArrowLeft" => cb.emit(-step),
                "ArrowRight" => cb.emit(step),
                _ => return,
            }
            e.prevent_default();
        })
    };
    html! {
        <div class="splitter" role="separator" aria-orientation="vertical" tabindex="0"
            aria-label={p.label.clone()} aria-valuenow={crate::hexfmt::decimal(p.value, 0)}
            title="Drag, or focus and use the arrow keys, to resize"
            {onpointerdown} {onpointermove} onpointerup={onpointerup.clone()} onpointercancel={onpointerup}
            {onkeydown} />
    }
}
