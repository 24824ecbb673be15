//! The page's side of the listing pane. The pane itself (the program text
//! beside the bytes) is `static/listing.js`, plain script fetched when the
//! pane is first opened, talking to its own worker module
//! (`hexlens-worker-listing`); the page's module holds only this bridge:
//! - `window.hexlensListing()` (defined by `static/shell.js`) opens or
//!   closes the pane: the toolbar's button calls it;
//! - the pane asks [`listing_source`] for the open file and where the
//!   selection is, and tells the store what its pointer is over and which
//!   line was clicked ([`listing_point`]: the hex pane marks the line's
//!   bytes, a click goes to them);
//! - [`use_listing`] tells the pane where the selection is whenever it
//!   moves: it calls `window.hexlensListingSelected(start, end)` (bits:
//!   the selected node's span), and `window.hexlensListingReload()` when
//!   another file opens; the pane defines both while it is open.

use crate::decoder::{self, Event};
use crate::state::State;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

thread_local! {
    /// The selected bits, as last told to the pane.
    static SELECTED: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
    /// The selected bytes, if a range of them is selected.
    static RANGE: Cell<Option<(u64, u64)>> = const { Cell::new(None) };
}

fn set(o: &js_sys::Object, k: &str, v: &JsValue) {
    let _ = js_sys::Reflect::set(o, &k.into(), v);
}

/// What the listing pane opens: `{blob, scan, start, end, range}` (the open
/// file, whether it was scanned for containers, the selected bits, and the
/// selected bytes `[start, end]` if a range of them is selected: where
/// static/ksy.js applies a format), or `null` when no file is open.
#[wasm_bindgen]
pub fn listing_source() -> JsValue {
    let Some(blob) = decoder::blob() else {
        return JsValue::NULL;
    };
    let o = js_sys::Object::new();
    let (start, end) = SELECTED.with(Cell::get);
    set(&o, "blob", &blob);
    set(&o, "scan", &decoder::scanned().into());
    set(&o, "start", &(start as f64).into());
    set(&o, "end", &(end as f64).into());
    if let Some((a, b)) = RANGE.with(Cell::get) {
        set(
            &o,
            "range",
            &js_sys::Array::of2(&(a as f64).into(), &(b as f64).into()),
        );
    }
    o.into()
}

/// The pointer is over a listing line made from the bytes `spans` (start,
/// end, start, end, …; empty: it left the pane); with `go`, the line was
/// clicked: the cursor goes to its first byte and its owner is selected, as
/// a go-to does.
#[wasm_bindgen]
pub fn listing_point(spans: Vec<f64>, go: bool) {
    let ranges: Vec<(u64, u64)> = spans
        .chunks_exact(2)
        .map(|p| (p[0] as u64, p[1] as u64))
        .collect();
    decoder::emit(match (go, ranges.first()) {
        (true, Some(r)) => Event::ListingGoto(r.0),
        _ => Event::ListingHover((!ranges.is_empty()).then(|| Rc::new(ranges))),
    });
}

/// Calls `window[name](args…)`, if the page defines it.
fn call(name: &str, args: &js_sys::Array) {
    let f = js_sys::Reflect::get(&js_sys::global(), &name.into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(f) = f {
        let _ = f.apply(&JsValue::NULL, args);
    }
}

/// Opens or closes the listing pane (`window.hexlensListing`).
pub fn toggle() {
    call("hexlensListing", &js_sys::Array::new());
}

/// Tells the listing pane when another file opens (it reads that file's
/// programs) and where the selection is whenever it moves.
#[hook]
pub fn use_listing(state: &UseReducerHandle<State>) {
    // The load, not the `Doc` value: the file's decoding finishing makes a new
    // `Doc` of the same file, which the pane (reading the file itself) ignores.
    let load = state.load.doc.as_ref().map(|d| d.load);
    use_effect_with(load, |_| {
        call("hexlensListingReload", &js_sys::Array::new())
    });
    RANGE.with(|r| r.set(state.cursor.byte_range()));
    let c = state.cursor.cursor;
    let range = state
        .cursor
        .selected_details()
        .map(|d| d.bits.unwrap_or((d.start * 8, d.end * 8)))
        .unwrap_or((c * 8, c * 8 + 8));
    use_effect_with(range, |&(start, end)| {
        SELECTED.with(|s| s.set((start, end)));
        call(
            "hexlensListingSelected",
            &js_sys::Array::of2(&(start as f64).into(), &(end as f64).into()),
        );
    });
}
