//! A virtual list: which of `rows` fixed-height rows to render for the scroll
//! position of a viewport element (see [`crate::virt`]).

use super::use_element_height::use_element_height;
use crate::virt::{Virt, Window};
use yew::prelude::*;

/// What a virtualised pane renders.
pub struct VirtualList {
    /// The geometry.
    pub virt: Virt,
    /// Rows to render now.
    pub window: Window,
    /// Attach to the viewport's `onscroll`.
    pub onscroll: Callback<Event>,
}

/// Tracks `node`'s scroll position and height for a list of `rows` rows of
/// `row_h` px.
#[hook]
pub fn use_virtual_list(node: NodeRef, rows: u64, row_h: f64) -> VirtualList {
    let top = use_state_eq(|| 0.0f64);
    let view_h = use_element_height(node);
    let virt = Virt {
        rows,
        row_h,
        // Bounded even if the stylesheet failed to load and the viewport grows
        // with its content (which would otherwise render every row).
        view_h: view_h.clamp(row_h, 4000.0),
    };
    let window = virt.window(*top);
    let onscroll = {
        let top = top.clone();
        Callback::from(move |e: Event| {
            let el: web_sys::Element = e.target_unchecked_into();
            top.set(el.scroll_top() as f64);
        })
    };
    VirtualList {
        virt,
        window,
        onscroll,
    }
}

/// Scrolls `node` so that `row` is in view (no-op if it already is).
pub fn reveal_row(node: &NodeRef, virt: &Virt, row: u64) {
    if let Some(el) = node.cast::<web_sys::Element>() {
        let v = Virt {
            view_h: (el.client_height() as f64).max(virt.row_h),
            ..*virt
        };
        if let Some(top) = v.reveal(el.scroll_top() as f64, row) {
            el.set_scroll_top(top.round() as i32);
        }
    }
}
