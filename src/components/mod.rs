//! The app's components, one per file.

pub mod bookmarks;
pub mod copy_bar;
pub mod details;
pub mod drop_overlay;
pub mod empty_state;
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
