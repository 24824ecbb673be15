//! The root component: owns the store, loads the sample manifest (and a sample
//! named in the URL), listens for drops and Ctrl+G, and lays out the panes.

use crate::components::details::{details, Props as DetailsProps};
use crate::components::drop_overlay::drop_overlay;
use crate::components::hex_view::HexView;
use crate::components::notices::{notices, Props as NoticesProps};
use crate::components::search_bar::use_search_bar;
use crate::components::splitter::{splitter, Props as SplitterProps};
use crate::components::status_bar::{status_bar, Props as StatusProps};
use crate::components::toolbar::{toolbar, Props as ToolbarProps};
use crate::components::tree_view::TreeView;
use crate::components::Store;
use crate::hexfmt::px;
use crate::hooks::use_ask::use_ask;
use crate::hooks::use_file_drop::use_file_drop;
use crate::hooks::use_hotkey::{use_ctrl_key, use_plain_key};
use crate::io::{self, Sample};
use crate::state::{Action, LoadAction, SearchAction, State};
use crate::virt::within;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Mounts the app on `<div id="app-root">` (beside it in `www/index.html` is
/// the search bar's markup, which the app wires up but does not render). The
/// first page, drawn by `www/index.html` and `static/shell.js` until a file is
/// chosen, gives way to the app's own.
pub fn start() {
    let doc = gloo_utils::document();
    // The first page's empty state (its samples and open button, wired by
    // static/shell.js) stays the app's: it is shown whenever no file is open.
    if let Some(empty) = doc.get_element_by_id("empty-state") {
        empty.remove();
        EMPTY.with(|e| *e.borrow_mut() = Some(empty));
    }
    if let Some(shell) = doc.get_element_by_id("shell") {
        shell.remove();
    }
    // From now on the first page's controls hand their choice to the app
    // (`hexlens:open` events) instead of starting it.
    let _ = js_sys::Reflect::set(
        &gloo_utils::window(),
        &"hexlensStarted".into(),
        &true.into(),
    );
    match doc.get_element_by_id("app-root") {
        Some(root) => yew::Renderer::<App>::with_root(root).render(),
        None => yew::Renderer::<App>::new().render(),
    };
}

thread_local! {
    /// The first page's empty state, shown while no file is open.
    static EMPTY: std::cell::RefCell<Option<web_sys::Element>> = const { std::cell::RefCell::new(None) };
}

/// Smallest widths (px) of the side panes.
const MIN_SIDE: f64 = 200.0;

/// The app.
#[component]
pub fn App() -> Html {
    let state = use_reducer(State::default);
    let dispatch = state.dispatcher();
    let samples = use_state(|| Rc::new(Vec::<Sample>::new()));

    {
        let dispatch = dispatch.clone();
        use_effect_with((), move |_| io::connect_decoder(dispatch));
    }
    use_worker_questions(&state);

    {
        let samples = samples.clone();
        let dispatch = dispatch.clone();
        use_effect_with((), move |_| {
            wasm_bindgen_futures::spawn_local(async move {
                match io::load_manifest().await {
                    Ok(list) => {
                        if let Some(want) = io::sample_param() {
                            // `?sample=A&compare=B`: B is compared with A once A is decoded.
                            if let Some(other) = io::query_param("compare") {
                                crate::components::compare::compare_later(&dispatch, other);
                            }
                            match list.iter().find(|s| s.file == want) {
                                Some(s) => io::open_sample(s, dispatch.clone()),
                                None => {
                                    dispatch.dispatch(Action::Load(LoadAction::Failed(format!(
                                        "there is no bundled sample called \u{201c}{want}\u{201d}"
                                    ))))
                                }
                            }
                        }
                        // A file picked or dropped on the first page, which
                        // started the app to open it.
                        if let Some(f) = io::take_pending_file() {
                            io::open_file(f, dispatch.clone());
                        }
                        samples.set(Rc::new(list));
                    }
                    Err(e) => {
                        if let Some(f) = io::take_pending_file() {
                            io::open_file(f, dispatch.clone());
                        } else {
                            dispatch.dispatch(Action::Load(LoadAction::Failed(e)))
                        }
                    }
                }
            });
        });
    }

    let on_file = use_callback(dispatch.clone(), |f: web_sys::File, d| {
        io::open_file(f, d.clone())
    });
    let on_sample = use_callback(dispatch.clone(), |s: Sample, d| {
        io::open_sample(&s, d.clone())
    });
    let dragging = use_file_drop(on_file.clone());

    // A file or sample chosen in the first page's empty state.
    {
        let on_file = on_file.clone();
        let on_sample = on_sample.clone();
        let samples = samples.clone();
        use_effect_with(samples, move |samples| {
            let samples = (**samples).clone();
            let l =
                gloo_events::EventListener::new(&gloo_utils::window(), "hexlens:open", move |e| {
                    let Ok(detail) = js_sys::Reflect::get(e, &"detail".into()) else {
                        return;
                    };
                    let get =
                        |k: &str| js_sys::Reflect::get(&detail, &k.into()).unwrap_or_default();
                    if let Ok(f) = get("file").dyn_into::<web_sys::File>() {
                        on_file.emit(f);
                    } else if let Some(name) = get("sample").as_string() {
                        if let Some(s) = samples.iter().find(|s| s.file == name) {
                            on_sample.emit(s.clone());
                        }
                    }
                });
            move || drop(l)
        });
    }
    let empty_slot = use_node_ref();
    {
        let slot = empty_slot.clone();
        use_effect_with(state.load.doc.is_none(), move |&none| {
            if none {
                if let Some(slot) = slot.cast::<web_sys::Element>() {
                    EMPTY.with(|e| {
                        if let Some(empty) = e.borrow().as_ref() {
                            let _ = slot.append_child(empty);
                        }
                    });
                }
            }
        });
    }

    let goto_ref = use_node_ref();
    {
        let goto_ref = goto_ref.clone();
        use_ctrl_key("g", move || {
            if let Some(el) = goto_ref.cast::<web_sys::HtmlInputElement>() {
                let _ = el.focus();
                el.select();
            }
        });
    }

    use_search_bar(&state);
    crate::components::copy_bar::use_copy_bar(&state);
    crate::components::bookmarks::use_bookmarks(&state);
    crate::components::compare::use_compare(&state);
    crate::hooks::use_permalink::use_permalink(&state);
    crate::listing::use_listing(&state);
    crate::hooks::use_hotkey::use_history_keys();
    {
        let d = dispatch.clone();
        use_ctrl_key("f", move || {
            crate::components::search_bar::show();
            d.dispatch(Action::Search(SearchAction::Bar(true)));
        });
    }
    {
        let d = dispatch.clone();
        use_plain_key("F3", move |shift| {
            d.dispatch(Action::Search(SearchAction::Move(if shift {
                -1
            } else {
                1
            })))
        });
    }

    // Pane widths (tree, details) in px; the hex pane takes the rest.
    let widths = use_state_eq(|| (380.0f64, 330.0f64));
    let resize_tree = {
        let widths = widths.clone();
        Callback::from(move |dx: f64| {
            let (t, d) = *widths;
            widths.set((within(t + dx, MIN_SIDE, 900.0), d));
        })
    };
    let resize_details = {
        let widths = widths.clone();
        Callback::from(move |dx: f64| {
            let (t, d) = *widths;
            widths.set((t, within(d - dx, MIN_SIDE, 900.0)));
        })
    };

    let s = &*state;
    let body = match &s.load.doc {
        Some(doc) => {
            // In a comparison the hex pane shows both files' bytes: it takes
            // the details pane's place (the differences' panel floats over
            // the structure pane's foot).
            let comparing = s.compare.other.is_some();
            let cols = if comparing {
                format!("grid-template-columns: {} 6px minmax(0, 1fr)", px(widths.0))
            } else {
                format!(
                    "grid-template-columns: {} 6px minmax(0, 1fr) 6px {}",
                    px(widths.0),
                    px(widths.1)
                )
            };
            html! {
                <>
                { notices(&NoticesProps { doc: Some(doc.clone()), status: s.load.status.clone(), dispatch: dispatch.clone() }) }
                <main class="panes" style={cols}>
                    <TreeView state={Store::new(state.clone())} />
                    { splitter(&SplitterProps { label: "Resize the structure pane".into(), value: widths.0, on_resize: resize_tree }) }
                    <HexView state={Store::new(state.clone())} />
                    if !comparing {
                        { splitter(&SplitterProps { label: "Resize the details pane".into(), value: widths.1, on_resize: resize_details }) }
                        { details(&DetailsProps { doc: doc.clone(), selected: s.cursor.selected, details: s.cursor.details.clone(), cursor: s.cursor.cursor, bytes_epoch: s.load.bytes_epoch, dispatch: dispatch.clone() }) }
                    }
                </main>
                { status_bar(&StatusProps { doc: doc.clone(), hover: s.cursor.hover_info.clone(), selected: s.cursor.selected_details().cloned(), cursor: s.cursor.cursor, range: s.cursor.byte_range(), dispatch: dispatch.clone() }) }
                </>
            }
        }
        None => html! {
            <>
            { notices(&NoticesProps { doc: None, status: s.load.status.clone(), dispatch: dispatch.clone() }) }
            <div class="empty-slot" ref={empty_slot}></div>
            </>
        },
    };

    html! {
        <div class={classes!("app", s.load.doc.is_some().then_some("has-doc"))}>
            { toolbar(&ToolbarProps { doc: s.load.doc.clone(), samples: (*samples).clone(), on_sample, on_file, goto_ref, dispatch: dispatch.clone() }) }
            { body }
            if dragging { { drop_overlay() } }
        </div>
    }
}

/// Asks the decoder what the store wants besides the panes' windows (the
/// selected node's details, the owner of a clicked byte).
#[hook]
pub fn use_worker_questions(state: &UseReducerHandle<State>) {
    use_ask(
        state.load.doc.as_ref().map(|d| d.load),
        state.load.version.version,
        state.wants(),
    );
}
