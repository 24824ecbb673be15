//! The app's components, one per file.

pub mod bookmarks;
pub mod compare;
pub mod copy_bar;
pub mod details;
pub mod drop_overlay;
pub mod hex_view;
pub mod icons;
pub mod inspector;
pub mod notices;
pub mod search_bar;
pub mod splitter;
pub mod status_bar;
pub mod toolbar;
pub mod tree_view;

/// The page's element with id `id`, as a `T` (the static markup of
/// `www/index.html` that the search bar, the copy menu and the bookmarks
/// panel wire up).
pub fn by_id<T: wasm_bindgen::JsCast>(id: &str) -> Option<T> {
    use wasm_bindgen::JsCast;
    gloo_utils::document()
        .get_element_by_id(id)?
        .dyn_into()
        .ok()
}

/// Calls `f` on `event` at the element with id `id` (if there is one), the
/// listener kept in `held` (it stops when dropped); `f` may prevent the
/// event's default.
pub fn listen_on(
    held: &mut Vec<gloo_events::EventListener>,
    id: &str,
    event: &'static str,
    f: Box<dyn FnMut(&web_sys::Event)>,
) {
    if let Some(t) = by_id::<web_sys::EventTarget>(id) {
        held.push(gloo_events::EventListener::new_with_options(
            &t,
            event,
            gloo_events::EventListenerOptions::enable_prevent_default(),
            f,
        ));
    }
}

/// Number of hex digits offsets need for a file of `size` bytes (at least 4).
pub fn offset_digits(size: u64) -> usize {
    let mut d = 4;
    while d < 16 && size > (1u64 << (4 * d)) {
        d += 1;
    }
    d
}

/// The store as a pane's prop, with the stamp of the state it was made from:
/// equal only to the same state, so a pane re-renders on every change of the
/// store and compares nothing deep. (A reducer handle reads the latest state,
/// so two handles alone always look alike.)
#[derive(Clone)]
pub struct Store(pub yew::UseReducerHandle<crate::state::State>, u64);

impl Store {
    /// The store as it is now.
    pub fn new(h: yew::UseReducerHandle<crate::state::State>) -> Self {
        let stamp = h.stamp;
        Store(h, stamp)
    }
}

impl PartialEq for Store {
    fn eq(&self, other: &Self) -> bool {
        self.1 == other.1
    }
}

impl std::ops::Deref for Store {
    type Target = crate::state::State;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

/// Height of a row of a list of matches or differences, in CSS pixels (the
/// style sheet's `.sr`).
const LIST_ROW: i32 = 20;

/// Fills the list element `id` (a list of matches or differences: `n` rows,
/// `current` marked) with the rows of its scrolled window ([`crate::virt`]'s
/// window, as the tree and hex panes render), under a spacer as
/// tall as every row; with `reveal`, first scrolls the current row into view.
/// `fill(i, row)` sets row `i`'s text (as text) and anything else it shows.
pub fn list_window(
    id: &str,
    n: usize,
    current: Option<usize>,
    reveal: bool,
    fill: &dyn Fn(usize, &web_sys::Element),
) {
    let Some(list) = by_id::<web_sys::HtmlElement>(id) else {
        return;
    };
    list.set_text_content(None);
    let doc = gloo_utils::document();
    let Ok(space) = doc.create_element("div") else {
        return;
    };
    space.set_class_name("sr-space");
    let height = i32::try_from(n)
        .unwrap_or(i32::MAX)
        .saturating_mul(LIST_ROW);
    let _ = space.set_attribute("style", &format!("height: {height}px"));
    let _ = list.append_child(&space);
    let view = match list.client_height() {
        0 => 8 * LIST_ROW,
        h => h,
    };
    if let Some(c) = current.filter(|_| reveal) {
        let at = c as i32 * LIST_ROW;
        if at < list.scroll_top() || at + LIST_ROW > list.scroll_top() + view {
            list.set_scroll_top(at - view / 2);
        }
    }
    // The rows in view, as the panes' virtual lists work them out.
    let w = crate::virt::Virt {
        rows: n as u64,
        row_h: f64::from(LIST_ROW),
        view_h: f64::from(view),
    }
    .window(f64::from(list.scroll_top()));
    for i in w.first as usize..(w.first + w.count) as usize {
        let Ok(r) = doc.create_element("div") else {
            return;
        };
        let cur = current == Some(i);
        r.set_class_name(if cur { "sr cur" } else { "sr" });
        let _ = r.set_attribute("role", "option");
        let _ = r.set_attribute("aria-selected", if cur { "true" } else { "false" });
        let _ = r.set_attribute("data-i", &i.to_string());
        let _ = r.set_attribute("style", &format!("top: {}px", i as i32 * LIST_ROW));
        fill(i, &r);
        let _ = list.append_child(&r);
    }
}

/// The number (`data-i`) of the list row an event (a click) happened in.
pub fn list_row(e: &web_sys::Event) -> Option<usize> {
    use wasm_bindgen::JsCast;
    e.target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest("[data-i]")
        .ok()??
        .get_attribute("data-i")?
        .parse()
        .ok()
}

/// The file a file input's `change` event picked; the input is cleared, so
/// picking the same file again is a change too.
pub fn picked_file(e: &web_sys::Event) -> Option<web_sys::File> {
    use wasm_bindgen::JsCast;
    let input = e.target()?.dyn_into::<web_sys::HtmlInputElement>().ok()?;
    let file = input.files().and_then(|l| l.get(0));
    input.set_value("");
    file
}
