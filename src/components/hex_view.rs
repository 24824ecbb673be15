//! The hex pane: offset, 16 bytes in hex, and the ASCII column, virtualised (only
//! rows in view are in the DOM, so a 50 MB file scrolls like a 1 KB one).
//!
//! Every byte is tinted by the innermost field that owns it, with box edges where
//! fields start and end; byte classes colour the digits (see [`crate::hexfmt`]).
//! The hovered node's bytes, its referenced bytes, the selection and the cursor
//! are drawn on top. All file content is inserted as text.

use crate::doc::Doc;
use crate::hexfmt::{self, px};
use crate::hooks::use_ask::use_ask;
use crate::hooks::use_virtual_list::{reveal_row, use_virtual_list};
use crate::state::{Action, BoxCache, CursorAction, Other};
use hexlens_core::Kind;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Row height in px (must match `.hrow` in the stylesheet).
pub const ROW_H: f64 = 20.0;
/// Bytes per row.
pub const WIDTH: u64 = 16;

/// Props of [`HexView`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The store (file, field boxes, hover, selection, cursor, reveal requests).
    pub state: super::Store,
}

fn offset_of(e: &Event) -> Option<u64> {
    let t = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    t.closest("[data-o]")
        .ok()??
        .get_attribute("data-o")?
        .parse()
        .ok()
}

fn inside(r: Option<(u64, u64)>, o: u64) -> bool {
    r.is_some_and(|(s, e)| s <= o && o < e)
}

/// The search matches touching bytes `[a, b)` (at most 16 of them), each as its
/// span and whether it is the current one.
fn hits_in(search: Option<&crate::state::Search>, a: u64, b: u64) -> Vec<(u64, u64, bool)> {
    let Some(x) = search else {
        return Vec::new();
    };
    let longest = hexlens_core::search::MAX_NEEDLE as u64;
    let first = x
        .hits
        .partition_point(|h| h.start.saturating_add(longest) <= a);
    x.hits[first..]
        .iter()
        .enumerate()
        .take_while(|(_, h)| h.start < b)
        .filter(|(_, h)| h.start + u64::from(h.len) > a)
        .take(16)
        .map(|(i, h)| {
            (
                h.start,
                h.start + u64::from(h.len),
                x.current == Some(first + i),
            )
        })
        .collect()
}

/// What one row shows: its place in the file and the marks that touch it.
/// A row element showing the same is not touched again.
#[derive(Clone)]
struct RowView {
    /// Row number (offset / 16).
    row: u64,
    /// The field boxes it was tinted from (the same answer: the same tints;
    /// held, so no later answer can take its address).
    boxes: Rc<BoxCache>,
    /// The selected node's bytes, if they touch the row.
    sel: Option<(u64, u64)>,
    /// The selected bytes, if they touch the row.
    rng: Option<(u64, u64)>,
    /// Bookmarks touching the row: their bytes and colour.
    marks: Vec<(u64, u64, u8)>,
    /// The cursor, if in this row.
    cursor: Option<u64>,
    /// Search matches touching the row (true: the current one).
    hits: Vec<(u64, u64, bool)>,
    /// Grows when file bytes arrive (a row drawn before its bytes were read
    /// draws again).
    epoch: u32,
    /// The open file.
    doc: u32,
    /// The file compared with it, its bytes drawn beside A's.
    other: Option<Rc<Other>>,
}

impl PartialEq for RowView {
    fn eq(&self, o: &Self) -> bool {
        self.row == o.row
            && Rc::ptr_eq(&self.boxes, &o.boxes)
            && self.sel == o.sel
            && self.rng == o.rng
            && self.marks == o.marks
            && self.cursor == o.cursor
            && self.hits == o.hits
            && self.epoch == o.epoch
            && self.doc == o.doc
            && same_other(&self.other, &o.other)
    }
}

/// True if two rows are drawn beside the same compared file (or both beside none).
fn same_other(a: &Option<Rc<Other>>, b: &Option<Rc<Other>>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => Rc::ptr_eq(x, y),
        (x, y) => x.is_none() && y.is_none(),
    }
}

/// The classes of each byte of row `base`: byte class, field tint and box
/// edges, selection, cursor.
fn cell_classes(doc: &Doc, base: u64, bytes: &[u8], v: &RowView, diff: &[bool]) -> Vec<String> {
    let (sel, rng, cursor, hits) = (v.sel, v.rng, v.cursor, &v.hits);
    let boxes = &v.boxes.boxes;
    let root = doc.root().map(|r| r.id);
    let first = boxes.segments.partition_point(|s| s.end <= base);
    let mut segs = boxes.segments[first..].iter().peekable();
    bytes
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            let o = base + i as u64;
            while segs.peek().is_some_and(|s| s.end <= o) {
                segs.next();
            }
            let mut c = String::with_capacity(40);
            c.push_str("c ");
            c.push_str(hexfmt::class(b).css());
            // Bytes owned by the root (an unrecognised file) stay plain, and
            // so do bytes whose boxes have not arrived yet.
            let seg = segs
                .peek()
                .filter(|s| s.start <= o && Some(s.owner) != root);
            if let Some((s, n)) = seg.and_then(|s| Some((s, boxes.node(s.owner)?))) {
                let tint = if n.error.is_some() {
                    " terr"
                } else {
                    match n.kind() {
                        Kind::Unknown => " tu",
                        Kind::Padding => " tp",
                        _ => [" t0", " t1", " t2", " t3"][s.owner as usize % 4],
                    }
                };
                c.push_str(tint);
                if s.start == o {
                    c.push_str(" fs");
                }
                if s.end == o + 1 {
                    c.push_str(" fe");
                }
            }
            if inside(sel, o) {
                c.push_str(" sel");
            }
            if inside(rng, o) {
                c.push_str(" rng");
            }
            if let Some(m) = v.marks.iter().find(|m| m.0 <= o && o < m.1) {
                c.push_str([" bm0", " bm1", " bm2", " bm3", " bm4", " bm5"][usize::from(m.2 % 6)]);
            }
            let mut hit = hits.iter().filter(|h| h.0 <= o && o < h.1);
            if let Some(h) = hit.next() {
                c.push_str(if h.2 || hit.any(|h| h.2) {
                    " hitc"
                } else {
                    " hit"
                });
            }
            if cursor == Some(o) {
                c.push_str(" cur");
            }
            if i == 7 {
                c.push_str(" g8");
            }
            if diff.get(i).copied().unwrap_or(false) {
                c.push_str(" dif");
            }
            c
        })
        .collect()
}

/// One cell of B's side of a row: the byte and its offset in B, if B has
/// one there.
type BByte = Option<(u64, u8)>;

/// Which of A's bytes `bytes` (from `base`) differ from the bytes beside
/// them in B (none is marked while B's are being read); and B's bytes
/// beside row `base`, each with its offset in B (`None`: B has none there,
/// or the row is being read).
fn beside(other: &Other, base: u64, bytes: &[u8]) -> (Vec<bool>, Option<Vec<BByte>>) {
    let offs: Vec<Option<u64>> = (0..WIDTH).map(|i| other.beside(base + i)).collect();
    let first = offs.iter().flatten().next().copied();
    let last = offs.iter().flatten().last().copied();
    let got = match (first, last) {
        (Some(f), Some(l)) => other.bytes.window(f, l + 1),
        _ => Some(Vec::new()),
    };
    let Some(got) = got else {
        return (Vec::new(), None);
    };
    let b: Vec<Option<(u64, u8)>> = offs
        .iter()
        .map(|o| o.and_then(|o| Some((o, *got.get((o - first?) as usize)?))))
        .collect();
    // A byte with nothing beside it differs, and so does a byte of B's
    // with no byte of A's beside it (past A's end).
    let n = bytes
        .len()
        .max(b.iter().rposition(Option::is_some).map_or(0, |i| i + 1));
    let diff = (0..n)
        .map(|i| bytes.get(i).copied() != b.get(i).copied().flatten().map(|x| x.1))
        .collect();
    (diff, Some(b.into_iter().take(n).collect()))
}

/// Makes `col` hold exactly `n` cell elements.
fn cells(col: &web_sys::Element, n: usize) -> Vec<web_sys::Element> {
    let doc = gloo_utils::document();
    let kids = col.children();
    while kids.length() as usize > n {
        if let Some(k) = kids.item(kids.length() - 1) {
            k.remove();
        }
    }
    while (kids.length() as usize) < n {
        if let Ok(c) = doc.create_element("span") {
            let _ = col.append_child(&c);
        }
    }
    (0..kids.length()).filter_map(|i| kids.item(i)).collect()
}

/// Sets an attribute unless it already has that value (a DOM write costs more
/// than a read).
fn set(el: &web_sys::Element, k: &str, v: &str) {
    if el.get_attribute(k).as_deref() != Some(v) {
        let _ = el.set_attribute(k, v);
    }
}

/// True if an element drawn as `shown` already holds the text `want` needs:
/// the same row of the same bytes, read, in the same comparison. Only its
/// classes (tints, marks) can differ then.
fn same_text(shown: &RowView, want: &RowView) -> bool {
    shown.row == want.row
        && shown.epoch == want.epoch
        && shown.doc == want.doc
        && same_other(&shown.other, &want.other)
}

/// Draws row `v` into `el` (a `.hrow` made by [`new_row`]): the offset, 16 hex
/// cells and 16 ASCII cells, all as text. `shown`: what `el` shows now, if it
/// was drawn before. A row whose text stays (new field boxes, a new selection
/// or mark) only has the classes that change set: its text nodes are not
/// replaced, so the browser lays out nothing anew (a new answer of field boxes
/// for the window would otherwise lay out every row at once).
fn fill_row(el: &web_sys::Element, doc: &Doc, v: &RowView, shown: Option<&RowView>) {
    let base = v.row * WIDTH;
    let kids = el.children();
    let (Some(off), Some(hx), Some(asc)) = (kids.item(0), kids.item(1), kids.item(2)) else {
        return;
    };
    // A's bytes and, in a comparison, B's beside them.
    let a = doc.bytes.window(base, base + WIDTH);
    if let (Some(bytes), true) = (&a, shown.is_some_and(|s| same_text(s, v))) {
        if el.class_name() == "hrow" {
            let diff = match &v.other {
                Some(o) => beside(o, base, bytes).0,
                None => Vec::new(),
            };
            let classes = cell_classes(doc, base, bytes, v, &diff);
            for col in [&hx, &asc] {
                let cells = col.children();
                for (i, class) in classes.iter().enumerate() {
                    if let Some(cell) = cells.item(i as u32) {
                        if cell.class_name() != *class {
                            cell.set_class_name(class);
                        }
                    }
                }
            }
            return;
        }
    }
    let (diff, b) = match (&v.other, &a) {
        (Some(o), Some(a)) => beside(o, base, a),
        _ => (Vec::new(), None),
    };
    let at = v.other.as_ref().map(|o| base as i128 + i128::from(o.delta));
    fill_other(&kids, at, b.as_deref(), &diff);
    set(el, "data-b", &base.to_string());
    // The hover marks drawn before belong to another row.
    let _ = el.remove_attribute("data-hv");
    off.set_text_content(Some(&hexfmt::offset(base)));
    let Some(bytes) = a else {
        // Not read yet: the row keeps its place and fills in when the page lands.
        el.set_class_name("hrow pending");
        set(el, "aria-busy", "true");
        let n = WIDTH.min(doc.bytes.len().saturating_sub(base)) as usize;
        for (i, c) in cells(&hx, n).iter().enumerate() {
            c.set_class_name("c pend");
            set(c, "data-o", &(base + i as u64).to_string());
            c.set_text_content(Some("··"));
        }
        cells(&asc, 0);
        return;
    };
    el.set_class_name("hrow");
    let _ = el.remove_attribute("aria-busy");
    let classes = cell_classes(doc, base, &bytes, v, &diff);
    let hex_cells = cells(&hx, bytes.len());
    let asc_cells = cells(&asc, bytes.len());
    for (i, (&b, class)) in bytes.iter().zip(&classes).enumerate() {
        let o = (base + i as u64).to_string();
        let ch = hexfmt::ascii(b).to_string();
        for (cell, text) in [
            (&hex_cells[i], hexfmt::hex(b)),
            (&asc_cells[i], ch.as_str()),
        ] {
            if cell.class_name() != *class {
                cell.set_class_name(class);
            }
            set(cell, "data-o", &o);
            // A byte's hover mark belongs to the hover drawn for another row.
            let _ = cell.remove_attribute("data-h");
            cell.set_text_content(Some(text));
        }
    }
}

/// Draws B's side of a row (its offset and hex columns, the 4th and 5th
/// children of the row; B's ASCII is not shown: a comparison hides the
/// ASCII columns to fit both files), or empties it outside a comparison.
/// `at`: B's offset beside the row's first byte; `b`: B's bytes beside the
/// row with their offsets (`None`: being read); `diff`: which differ from
/// A's. B's cells carry no `data-o`: hovering or clicking them does nothing
/// to A.
fn fill_other(
    kids: &web_sys::HtmlCollection,
    at: Option<i128>,
    b: Option<&[BByte]>,
    diff: &[bool],
) {
    let (Some(off), Some(hx)) = (kids.item(3), kids.item(4)) else {
        return;
    };
    let (Some(at), Some(b)) = (at, b) else {
        // Outside a comparison, or B's bytes being read.
        off.set_text_content(at.map(|_| "··"));
        cells(&hx, 0);
        return;
    };
    // A row B has no byte of, or that starts before B: no offset.
    let shown = b.iter().any(Option::is_some) && at >= 0;
    off.set_text_content(Some(&if shown {
        hexfmt::offset(at as u64)
    } else {
        String::new()
    }));
    let n = b.len();
    let hex_cells = cells(&hx, n);
    for i in 0..n {
        let byte = b[i];
        let mut class = match byte {
            Some((_, x)) => format!("c {}", hexfmt::class(x).css()),
            None => "c".to_string(),
        };
        if i == 7 {
            class.push_str(" g8");
        }
        if diff.get(i).copied().unwrap_or(false) {
            class.push_str(" dif");
        }
        let cell = &hex_cells[i];
        if cell.class_name() != class {
            cell.set_class_name(&class);
        }
        match byte {
            Some(x) => set(cell, "data-ob", &x.0.to_string()),
            None => {
                let _ = cell.remove_attribute("data-ob");
            }
        }
        cell.set_text_content(Some(byte.map_or("  ", |x| hexfmt::hex(x.1))));
    }
}

/// A new, empty row element.
fn new_row() -> Option<web_sys::Element> {
    let doc = gloo_utils::document();
    let row = doc.create_element("div").ok()?;
    row.set_class_name("hrow");
    for class in ["off", "hx", "as", "off offb", "hx hxb"] {
        let c = doc.create_element("span").ok()?;
        c.set_class_name(class);
        row.append_child(&c).ok()?;
    }
    Some(row)
}

/// The row elements of the hex pane, outside Yew: as the pane scrolls, the
/// rows still in view keep their elements untouched, and only the rows that
/// came into view are drawn (into the elements of the rows that left it). A
/// step of three rows draws three rows, not the whole window; a jump across
/// the file draws the window once.
#[derive(Default)]
struct Pool {
    /// The row elements, in the order they stand in the DOM, and what each shows.
    rows: Vec<(web_sys::Element, RowView)>,
}

/// Rows stand at fixed places below an anchor row that moves only every this
/// many rows: a scroll step moves the rows' layer as a whole (the compositor's
/// work) and draws only the rows that came into view.
const ANCHOR_EVERY: u64 = 512;

/// The anchor row for a window starting at `first`.
fn anchor(first: u64) -> u64 {
    first - first % ANCHOR_EVERY
}

impl Pool {
    /// Shows `views` (consecutive rows, top to bottom) in `container`, each
    /// row at its place below the anchor row `anchor`.
    fn paint(&mut self, container: &web_sys::Element, doc: &Doc, views: &[RowView], anchor: u64) {
        let first = views.first().map_or(0, |v| v.row);
        let mut kept: Vec<Option<(web_sys::Element, RowView)>> = vec![None; views.len()];
        // Rows still in view keep their element.
        let mut free = Vec::new();
        for (el, v) in self.rows.drain(..) {
            match v.row.checked_sub(first).map(|i| i as usize) {
                Some(i) if i < kept.len() && kept[i].is_none() => kept[i] = Some((el, v)),
                _ => free.push(el),
            }
        }
        // Out of the DOM first: the rows kept then stand in order at the top,
        // and only the rows drawn anew are moved.
        for el in &free {
            el.remove();
        }
        for (i, want) in views.iter().enumerate() {
            let el = match kept[i].take() {
                Some((el, shown)) => {
                    if shown != *want {
                        fill_row(&el, doc, want, Some(&shown));
                    }
                    el
                }
                None => match free.pop().or_else(new_row) {
                    Some(el) => {
                        fill_row(&el, doc, want, None);
                        el
                    }
                    None => continue,
                },
            };
            let top = format!("top: {}", px((want.row - anchor) as f64 * ROW_H));
            set(&el, "style", &top);
            // In DOM order, top to bottom (what assistive technology reads).
            let at = container.children().item(i as u32);
            if at.as_ref() != Some(&el) {
                let _ = container.insert_before(&el, at.as_ref().map(|a| a.as_ref()));
            }
            self.rows.push((el, want.clone()));
        }
    }
}

/// The hover marks of byte `o`: `hl` (hovered node's bytes, or a listing
/// line's; `hs`/`he` at a range's first/last byte) and `rf` (bytes the
/// hovered node refers to), space separated.
fn hover_marks(o: u64, hl: &[(u64, u64)], rf: Option<(u64, u64)>) -> String {
    let mut m = String::new();
    if let Some(&(s, e)) = hl.iter().find(|&&(s, e)| s <= o && o < e) {
        m.push_str("hl");
        if s == o {
            m.push_str(" hs");
        }
        if e == o + 1 {
            m.push_str(" he");
        }
    }
    if inside(rf, o) {
        if !m.is_empty() {
            m.push(' ');
        }
        m.push_str("rf");
    }
    m
}

/// Puts the hover marks in the `data-h` attribute of the rendered cells, or
/// `data-hall` on a row whose every byte is inside the hovered node but neither
/// end (the stylesheet draws them). Each row remembers which hover it shows (`data-hv`),
/// so only rows whose marks change are touched; Yew never sets `data-h`, so a
/// row re-rendered for another reason keeps its marks.
fn mark_hover(node: &NodeRef, hl: &[(u64, u64)], rf: Option<(u64, u64)>) {
    let Some(root) = node.cast::<web_sys::Element>() else {
        return;
    };
    // What the marks are, as a number (a row whose token is the same keeps its marks).
    let marks = hl
        .iter()
        .chain(rf.as_ref())
        .fold(rf.is_some() as u64, |h, &(s, e)| {
            h.wrapping_mul(0x100_0000_01b3) ^ s.wrapping_mul(31) ^ e
        });
    let rows = root.get_elements_by_class_name("hrow");
    for i in 0..rows.length() {
        let Some(row) = rows.item(i) else { continue };
        let Some(base) = row
            .get_attribute("data-b")
            .and_then(|b| b.parse::<u64>().ok())
        else {
            continue;
        };
        // Row elements are reused for other rows as the pane scrolls: the token
        // names the row as well as the hover.
        let token = format!("{base}:{marks}");
        if row.get_attribute("data-hv").as_deref() == Some(token.as_str()) {
            continue;
        }
        let _ = row.set_attribute("data-hv", &token);
        let end = base + WIDTH;
        let touches = |r: Option<(u64, u64)>| r.is_some_and(|(s, e)| s < end && e > base);
        // A row inside the hovered node, its first and last byte elsewhere, is
        // marked as a whole: one attribute instead of one a cell (hovering a big
        // group marks every row in view).
        let in_hl = hl.iter().filter(|&&(s, e)| s < end && e > base);
        let whole = !touches(rf) && {
            let mut touching = in_hl.clone();
            touching.next().is_some_and(|&(s, e)| s < base && e > end) && touching.next().is_none()
        };
        if whole {
            let _ = row.set_attribute("data-hall", "");
        } else {
            let _ = row.remove_attribute("data-hall");
        }
        let now = (in_hl.clone().next().is_some() || touches(rf)) && !whole;
        if !now && !row.has_attribute("data-hr") {
            continue;
        }
        let cols = row.children();
        for col in [cols.item(1), cols.item(2)].into_iter().flatten() {
            let cells = col.children();
            for j in 0..cells.length() {
                let Some(cell) = cells.item(j) else { continue };
                // A row marked as a whole keeps no marks of its own cells.
                let m = if whole {
                    String::new()
                } else {
                    hover_marks(base + u64::from(j), hl, rf)
                };
                if m.is_empty() {
                    let _ = cell.remove_attribute("data-h");
                } else {
                    let _ = cell.set_attribute("data-h", &m);
                }
            }
        }
        if now {
            let _ = row.set_attribute("data-hr", "");
        } else {
            let _ = row.remove_attribute("data-hr");
        }
    }
}

/// The hex pane.
#[component]
pub fn HexView(p: &Props) -> Html {
    let st = &*p.state;
    let node = use_node_ref();
    let doc = st
        .load
        .doc
        .clone()
        .expect("the hex pane shows an open file");
    let size = doc.bytes.len();
    let other = st.compare.other.clone();
    // In a comparison the rows go on to the end of B's bytes beside A's.
    let total_rows = other
        .as_ref()
        .map_or(size.div_ceil(WIDTH), |o| o.rows(size));
    let vl = use_virtual_list(node.clone(), total_rows, ROW_H);
    let last_hover = use_mut_ref(|| None::<u64>);
    let rows_ref = use_node_ref();
    let pool = use_mut_ref(Pool::default);
    let dispatch = p.state.0.dispatcher();

    {
        let node = node.clone();
        let vl = vl.clone();
        use_effect_with(st.cursor.reveal, move |r| {
            if let Some(b) = r.byte {
                reveal_row(&node, &vl, b / WIDTH);
            }
        });
    }
    // Ask the worker for the field boxes of the bytes in view.
    let w = vl.window;
    use_ask(
        Some(doc.load),
        st.load.version.version,
        st.hex_wants(w.first * WIDTH, (w.first + w.count) * WIDTH)
            .into_iter()
            .collect(),
    );

    // Selecting bytes: a drag from the byte pressed, or Shift+click from the
    // cursor (or the selection's other end). A click that ends a drag selects
    // no node.
    let drag = use_mut_ref(|| (None::<u64>, false));
    let onmousemove = {
        let d = dispatch.clone();
        let last = last_hover.clone();
        let drag = drag.clone();
        Callback::from(move |e: MouseEvent| {
            let o = offset_of(&e);
            let down = drag.borrow().0;
            if let (Some(a), Some(b), 1) = (down, o, e.buttons() & 1) {
                if a != b || drag.borrow().1 {
                    drag.borrow_mut().1 = true;
                    d.dispatch(Action::Cursor(CursorAction::SelectBytes(a, b)));
                }
            }
            if *last.borrow() != o {
                *last.borrow_mut() = o;
                d.dispatch(Action::Cursor(CursorAction::HoverByte(o)));
            }
        })
    };
    let onmouseleave = {
        let d = dispatch.clone();
        let last = last_hover.clone();
        Callback::from(move |_| {
            *last.borrow_mut() = None;
            d.dispatch(Action::Cursor(CursorAction::HoverByte(None)));
        })
    };
    let onmousedown = {
        let d = dispatch.clone();
        let drag = drag.clone();
        let from = st.cursor.anchor.unwrap_or(st.cursor.cursor);
        Callback::from(move |e: MouseEvent| {
            let o = offset_of(&e).filter(|_| e.button() == 0);
            *drag.borrow_mut() = (o, false);
            if let (Some(o), true) = (o, e.shift_key()) {
                e.prevent_default();
                drag.borrow_mut().1 = true;
                d.dispatch(Action::Cursor(CursorAction::SelectBytes(from, o)));
            }
        })
    };
    let onclick = {
        let d = dispatch.clone();
        let drag = drag.clone();
        Callback::from(move |e: MouseEvent| {
            let dragged = std::mem::take(&mut *drag.borrow_mut()).1;
            if let Some(o) = offset_of(&e).filter(|_| !dragged) {
                d.dispatch(Action::Cursor(CursorAction::ClickByte(o)));
            }
        })
    };
    let onkeydown = {
        let d = dispatch.clone();
        let page = (vl.virt.page_rows().saturating_sub(1).max(1) * WIDTH) as i64;
        let cursor = st.cursor.cursor;
        Callback::from(move |e: KeyboardEvent| {
            let w = WIDTH as i64;
            let ctrl = e.ctrl_key() || e.meta_key();
            if e.alt_key() {
                return; // Alt+arrows go through the history (see `use_history_keys`)
            }
            let by = match e.key().as_str() {
                "c" | "C" if ctrl => {
                    e.prevent_default();
                    return super::copy_bar::copy("bytes:hex");
                }
                "ArrowLeft" => -1,
                "ArrowRight" => 1,
                "ArrowUp" => -w,
                "ArrowDown" => w,
                "PageUp" => -page,
                "PageDown" => page,
                "Home" if ctrl => i64::MIN / 2,
                "End" if ctrl => i64::MAX / 2,
                "Home" => -((cursor % WIDTH) as i64),
                "End" => (WIDTH - 1 - cursor % WIDTH) as i64,
                "Enter" | " " => {
                    e.prevent_default();
                    return d.dispatch(Action::Cursor(CursorAction::ClickByte(cursor)));
                }
                _ => return,
            };
            e.prevent_default();
            d.dispatch(Action::Cursor(CursorAction::Move(by, e.shift_key())));
        })
    };

    let hl: Vec<(u64, u64)> = match &st.cursor.hover_spans {
        Some(spans) => spans.to_vec(),
        None => st
            .cursor
            .hover_info
            .as_ref()
            .map(|i| i.shown_range())
            .into_iter()
            .collect(),
    };
    let rf = st
        .cursor
        .hover_info
        .as_ref()
        .filter(|_| st.cursor.hover_spans.is_none())
        .and_then(|i| i.reference);
    // The root covers the whole file: underlining every byte would say nothing.
    let sel = st
        .cursor
        .selected
        .filter(|&id| Some(id) != doc.root().map(|r| r.id))
        .and_then(|id| st.known(id))
        .map(|i| i.shown_range());

    // Hover marks are set on the drawn cells directly, after every render:
    // hovering never redraws rows, however many bytes the hovered node covers.
    // The rows are drawn outside Yew (see `Pool`), after every render, before
    // the hover marks.
    let w = vl.window;
    let views: Vec<RowView> = (w.first..w.first + w.count)
        .map(|r| {
            let (a, b) = (r * WIDTH, (r + 1) * WIDTH);
            // Each row only sees the ranges that touch it, so a selection
            // redraws just the rows whose marks changed.
            let touch = |x: Option<(u64, u64)>| x.filter(|&(s, e)| s < b && e > a);
            RowView {
                row: r,
                boxes: st.tree.boxes.clone(),
                sel: touch(sel),
                rng: touch(st.cursor.byte_range()),
                marks: st
                    .bookmarks
                    .list
                    .iter()
                    .filter(|m| m.start < b && m.end > a)
                    .map(|m| (m.start, m.end, m.colour))
                    .collect(),
                cursor: (a..b)
                    .contains(&st.cursor.cursor)
                    .then_some(st.cursor.cursor),
                hits: hits_in(st.search.last.as_deref(), a, b),
                epoch: st.load.bytes_epoch,
                doc: doc.id,
                other: other.clone(),
            }
        })
        .collect();
    {
        let rows_ref = rows_ref.clone();
        let pool = pool.clone();
        let doc = doc.clone();
        let node = node.clone();
        use_effect(move || {
            if let Some(c) = rows_ref.cast::<web_sys::Element>() {
                pool.borrow_mut().paint(&c, &doc, &views, anchor(w.first));
            }
            mark_hover(&node, &hl, rf);
        });
    }

    let head_cols = || {
        (0..WIDTH).map(|i| {
            html! { <span class={classes!("c", (i == 7).then_some("g8"))}>{format!("{i:02X}")}</span> }
        })
    };
    let b_head = other.as_ref().map(|o| {
        let d = o.delta;
        let lined = match d {
            0 => "same offsets".to_string(),
            d if d > 0 => format!("B at A + 0x{d:X}"),
            d => format!("B at A − 0x{:X}", d.unsigned_abs()),
        };
        (o.bytes.name().to_string(), lined)
    });
    html! {
        <section class={classes!("pane", "hex-pane", other.is_some().then_some("cmp"))} aria-label="Bytes"
            data-delta={other.as_ref().map(|o| o.delta.to_string())}>
            <div class="pane-head">
                <span class="pane-title">{"Bytes"}</span>
                <span class="pane-sub">{format!("{} rows of 16", total_rows)}</span>
                if let Some((name, lined)) = &b_head {
                    <span class="pane-sub cmp-sides" id="cmp-sides">
                        {format!("A: {} · B: {} · {lined}", doc.bytes.name(), name)}
                    </span>
                }
                <span class="legend" aria-label="Byte classes">
                    <span class="bz">{"00 zero"}</span>
                    <span class="bp">{"41 printable"}</span>
                    <span class="bw">{"20 whitespace"}</span>
                    <span class="bo">{"FF other"}</span>
                </span>
            </div>
            <div class="hrow hhead" aria-hidden="true">
                <span class="off">{if b_head.is_some() { "A offset" } else { "Offset" }}</span>
                <span class="hx">{ for head_cols() }</span>
                <span class="as">{"ASCII"}</span>
                if b_head.is_some() {
                    <span class="off offb">{"B offset"}</span>
                    <span class="hx hxb">{ for head_cols() }</span>
                }
            </div>
            <div class="vscroll hex" ref={node} id="hex" tabindex="0" role="region"
                aria-label={format!("Hex dump, cursor at offset 0x{:X}", st.cursor.cursor)}
                onscroll={vl.onscroll} {onmousedown} {onmousemove} {onmouseleave} {onclick} {onkeydown}>
                <div class="vsticky">
                    <div class="vrows hrows" ref={rows_ref}
                        style={format!("transform: translateY({})", px(-w.shift - (w.first - anchor(w.first)) as f64 * ROW_H))} />
                    if size == 0 { <div class="hex-empty">{"This file is empty."}</div> }
                </div>
                <div class="vspacer" style={format!("height: {}", px((vl.virt.content_h() - vl.virt.view_h).max(0.0)))} />
            </div>
        </section>
    }
}
