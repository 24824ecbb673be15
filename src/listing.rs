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

/// What the glance's map marks (see [`listing_source`]): the bookmarks, the
/// last search and the comparison.
type Marks = (
    Rc<Vec<crate::state::Bookmark>>,
    Option<Rc<crate::state::Search>>,
    Rc<crate::state::DiffList>,
);

thread_local! {
    static MARKS: std::cell::RefCell<Option<Marks>> = const { std::cell::RefCell::new(None) };
    /// The selected bits, as last told to the pane.
    static SELECTED: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
    /// The selected bytes, if a range of them is selected.
    static RANGE: Cell<Option<(u64, u64)>> = const { Cell::new(None) };
}

fn set(o: &js_sys::Object, k: &str, v: &JsValue) {
    let _ = js_sys::Reflect::set(o, &k.into(), v);
}

/// What the listing pane (and the glance, static/glance.js) opens: `{blob,
/// scan, ksy, start, end, marks, range}` (the open file, whether it was
/// scanned for containers, the `.ksy` format's message if it is decoded with
/// one, the selected bits, what the glance's map marks, and the selected
/// bytes `[start, end]` if a range of them is selected: where static/ksy.js
/// applies a format), or `null` when no file is open.
#[wasm_bindgen]
pub fn listing_source() -> JsValue {
    let Some(blob) = decoder::blob() else {
        return JsValue::NULL;
    };
    let o = js_sys::Object::new();
    let (start, end) = SELECTED.with(Cell::get);
    set(&o, "blob", &blob);
    set(&o, "scan", &decoder::scanned().into());
    if let Some(k) = decoder::ksy() {
        set(&o, "ksy", &k);
    }
    set(&o, "start", &(start as f64).into());
    set(&o, "end", &(end as f64).into());
    // What the glance's map marks: `kind, start, end` (bytes; kind 0: a
    // bookmark, 1: a search match, 2: a difference from the compared file).
    let mut v = Vec::new();
    MARKS.with(|m| {
        if let Some((marks, search, diff)) = m.borrow().as_ref() {
            for b in marks.iter() {
                v.extend([0.0, b.start as f64, b.end as f64]);
            }
            for h in search.iter().flat_map(|s| s.hits.iter()) {
                v.extend([1.0, h.start as f64, (h.start + u64::from(h.len)) as f64]);
            }
            for r in diff.rows.iter().filter(|r| r.difference.is_some()) {
                v.extend([2.0, r.align.0 as f64, r.align.0 as f64 + 1.0]);
            }
        }
    });
    set(&o, "marks", &js_sys::Float64Array::from(v.as_slice()));
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

/// Opens or closes the listing pane (`window.hexlensListing`) or the glance
/// (`window.hexlensGlance`, static/glance.js): `f` names which.
pub fn toggle(f: &str) {
    call(f, &js_sys::Array::new());
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
    MARKS.with(|m| {
        *m.borrow_mut() = Some((
            state.bookmarks.list.clone(),
            state.search.last.clone(),
            state.compare.list.clone(),
        ))
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
