//! A virtual list: which of `rows` fixed-height rows to render for the scroll
//! position of a viewport element (see [`crate::virt`]).
//!
//! For lists taller than the browser can scroll pixel by pixel, the first row
//! can be pinned (see the module docs of [`crate::virt`]): the wheel and
//! [`reveal_row`] move it row by row, dragging the scrollbar unpins it.

use super::use_element_height::use_element_height;
use crate::virt::{within, Virt, Window};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// A pinned first row and the scroll position it was pinned at.
type Pin = Option<(f64, u64)>;

/// What a virtualised pane renders.
#[derive(Clone)]
pub struct VirtualList {
    /// The geometry.
    pub virt: Virt,
    /// Rows to render now.
    pub window: Window,
    /// Attach to the viewport's `onscroll`.
    pub onscroll: Callback<Event>,
    top: UseStateHandle<f64>,
    pin: UseStateHandle<Pin>,
}

/// Scroll positions within this many px of the pinned one keep the pin
/// (browsers round scroll positions).
const PIN_SLACK: f64 = 1.5;

fn window_for(virt: &Virt, top: f64, pin: Pin) -> Window {
    match pin {
        Some((t, first)) if virt.scaled() && (top - t).abs() <= PIN_SLACK => virt.window_at(first),
        _ => virt.window(top),
    }
}

/// Tracks `node`'s scroll position and height for a list of `rows` rows of
/// `row_h` px.
#[hook]
pub fn use_virtual_list(node: NodeRef, rows: u64, row_h: f64) -> VirtualList {
    let top = use_state_eq(|| 0.0f64);
    let pin = use_state_eq(|| None::<(f64, u64)>);
    let view_h = use_element_height(node.clone());
    let virt = Virt {
        rows,
        row_h,
        // Bounded even if the stylesheet failed to load and the viewport grows
        // with its content (which would otherwise render every row).
        view_h: within(view_h, row_h, 4000.0),
    };
    let window = window_for(&virt, *top, *pin);
    let onscroll = {
        let top = top.clone();
        Callback::from(move |e: Event| {
            let el: web_sys::Element = e.target_unchecked_into();
            top.set(el.scroll_top() as f64);
        })
    };
    let vl = VirtualList {
        virt,
        window,
        onscroll,
        top,
        pin,
    };

    // Past the pixel limit, the wheel moves the pinned first row by rows (a
    // non-passive listener: the browser's own scroll would jump by thousands).
    let latest = use_mut_ref(|| None::<VirtualList>);
    *latest.borrow_mut() = Some(vl.clone());
    let scaled = virt.scaled();
    use_effect_with((node, scaled), move |(node, scaled)| {
        let listener = node
            .cast::<web_sys::Element>()
            .filter(|_| *scaled)
            .map(|el| {
                let opts = gloo_events::EventListenerOptions::enable_prevent_default();
                let target = el.clone();
                gloo_events::EventListener::new_with_options(&el, "wheel", opts, move |e| {
                    let Some(w) = e.dyn_ref::<web_sys::WheelEvent>() else {
                        return;
                    };
                    let Some(vl) = latest.borrow().clone() else {
                        return;
                    };
                    let dy = match w.delta_mode() {
                        1 => w.delta_y() * vl.virt.row_h,
                        2 => w.delta_y() * vl.virt.view_h,
                        _ => w.delta_y(),
                    };
                    e.prevent_default();
                    let first = vl.virt.wheel(vl.window.first, dy);
                    pin_first(&target, &vl, first);
                })
            });
        move || drop(listener)
    });
    vl
}

/// Puts `first` at the top of `el`'s list: exactly (pinned) if the list is
/// scaled, else by scroll position.
fn pin_first(el: &web_sys::Element, vl: &VirtualList, first: u64) {
    let top = vl.virt.top_for(first);
    el.set_scroll_top(top.round() as i32);
    let actual = el.scroll_top() as f64;
    if vl.virt.scaled() {
        vl.pin.set(Some((actual, first.min(vl.virt.max_first()))));
    }
    vl.top.set(actual);
}

/// Scrolls `node` so that `row` is in view (no-op if it already is). Exact to
/// the row however long the list is.
pub fn reveal_row(node: &NodeRef, vl: &VirtualList, row: u64) {
    let Some(el) = node.cast::<web_sys::Element>() else {
        return;
    };
    let v = Virt {
        view_h: (el.client_height() as f64).max(vl.virt.row_h),
        ..vl.virt
    };
    if v.scaled() {
        let current = window_for(&v, el.scroll_top() as f64, *vl.pin).first;
        if let Some(first) = v.reveal_first(current, row) {
            pin_first(&el, vl, first);
        }
    } else if let Some(top) = v.reveal(el.scroll_top() as f64, row) {
        el.set_scroll_top(top.round() as i32);
    }
}
