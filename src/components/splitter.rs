//! A vertical drag handle between two panes (pointer drag or arrow keys).

use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Props of [`splitter`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// Accessible name.
    pub label: AttrValue,
    /// Current size of the pane it resizes (px), for assistive tech.
    pub value: f64,
    /// Called with the horizontal movement in px.
    pub on_resize: Callback<f64>,
}

thread_local! {
    /// Where the pointer dragging a splitter was last (one drag at a time: the
    /// pointer is captured while it lasts). Not the page's state: nothing
    /// shows it and nothing else reads it; the pane widths it changes are the
    /// app's.
    static LAST_X: std::cell::Cell<Option<i32>> = const { std::cell::Cell::new(None) };
}

/// The splitter (a plain function of its props: its drag lives in [`LAST_X`]).
pub fn splitter(p: &Props) -> Html {
    let onpointerdown = {
        Callback::from(move |e: PointerEvent| {
            if let Some(t) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            {
                let _ = t.set_pointer_capture(e.pointer_id());
            }
            LAST_X.with(|l| l.set(Some(e.client_x())));
            e.prevent_default();
        })
    };
    let onpointermove = {
        let cb = p.on_resize.clone();
        Callback::from(move |e: PointerEvent| {
            if let Some(x0) = LAST_X.with(|l| l.get()) {
                let x = e.client_x();
                LAST_X.with(|l| l.set(Some(x)));
                cb.emit((x - x0) as f64);
            }
        })
    };
    let onpointerup = Callback::from(|_e: PointerEvent| LAST_X.with(|l| l.set(None)));
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
