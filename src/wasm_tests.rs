//! Component tests that run in headless Chromium (wasm-bindgen-test): they mount
//! the real panes over a store and check the DOM, which is cheaper than driving
//! the whole app end to end.

use crate::bytes::FileBytes;
use crate::components::hex_view::HexView;
use crate::components::tree_view::TreeView;
use crate::components::Store;
use crate::doc::Doc;
use crate::state::{Action, CursorAction, State};
use std::rc::Rc;
use wasm_bindgen_test::*;
use web_sys::Element;
use yew::prelude::*;

wasm_bindgen_test_configure!(run_in_browser);

#[derive(Properties, PartialEq)]
struct HarnessProps {
    doc: Rc<Doc>,
    actions: Vec<ActionEq>,
}

/// Actions to replay once the file is open (compared by count only).
#[derive(Clone)]
struct ActionEq(Action);
impl PartialEq for ActionEq {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

#[component]
fn Harness(p: &HarnessProps) -> Html {
    let state = use_reducer(State::default);
    crate::app::use_worker_questions(&state);
    {
        let d = state.dispatcher();
        STORE.with(|s| *s.borrow_mut() = Some(d.clone()));
        let doc = p.doc.clone();
        let actions = p.actions.clone();
        use_effect_with((), move |_| {
            // A session on this thread stands in for the decode worker.
            let sink = d.clone();
            crate::decoder::set_sink(Callback::from(move |e| {
                if let crate::decoder::Event::Answer { job, answer } = e {
                    sink.dispatch(Action::Answer { load: job, answer });
                }
            }));
            let data = doc
                .bytes
                .window(0, doc.bytes.len())
                .unwrap_or_default()
                .to_vec();
            crate::decoder::local::open(doc.load, data);
            d.dispatch(Action::Open(doc));
            // The actions run once the answer has landed.
            gloo_timers::callback::Timeout::new(20, move || {
                for a in actions {
                    d.dispatch(a.0);
                }
            })
            .forget();
        });
    }
    let s = &*state;
    match &s.load.doc {
        Some(_) => html! {
            <div style="display: flex; height: 300px; width: 1200px">
                <TreeView state={Store::new(state.clone())} />
                <HexView state={Store::new(state.clone())} />
            </div>
        },
        None => html! {},
    }
}

async fn mount(name: &str, data: Vec<u8>, actions: Vec<Action>) -> Element {
    let document = gloo_utils::document();
    if document.get_element_by_id("app-css").is_none() {
        let style = document.create_element("style").unwrap();
        style.set_id("app-css");
        style.set_text_content(Some(include_str!("../www/style.css")));
        document.head().unwrap().append_child(&style).unwrap();
    }
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let doc = Rc::new(Doc::pending(
        Rc::new(FileBytes::new(name, data)),
        next_load(),
    ));
    let props = HarnessProps {
        doc,
        actions: actions.into_iter().map(ActionEq).collect(),
    };
    yew::Renderer::<Harness>::with_root_and_props(root.clone(), props).render();
    settle().await;
    settle().await;
    root
}

thread_local! {
    /// The last harness's store, for tests that act after looking.
    static STORE: std::cell::RefCell<Option<UseReducerDispatcher<State>>> = const { std::cell::RefCell::new(None) };
}

fn dispatch(a: Action) {
    STORE.with(|s| s.borrow().as_ref().expect("a mounted harness").dispatch(a));
}

fn next_load() -> u32 {
    thread_local!(static N: std::cell::Cell<u32> = const { std::cell::Cell::new(100) });
    N.with(|n| n.replace(n.get() + 1))
}

async fn settle() {
    gloo_timers::future::TimeoutFuture::new(60).await;
}

/// The first element under `root` matching `selector`, once there is one
/// (`None` after five seconds).
async fn appears(root: &Element, selector: &str) -> Option<Element> {
    for _ in 0..250 {
        if let Some(e) = root.query_selector(selector).unwrap() {
            return Some(e);
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    None
}

fn all(root: &Element, sel: &str) -> Vec<Element> {
    let list = root.query_selector_all(sel).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| wasm_bindgen::JsCast::dyn_into::<Element>(n).ok())
        .collect()
}

const SAMPLE: &[u8] = include_bytes!("../static/samples/hs_mismatch_2_code_dxil.dxil.dxbc");

#[wasm_bindgen_test]
async fn hex_rows_outside_the_viewport_are_not_in_the_dom() {
    let data: Vec<u8> = (0..4 * 1024 * 1024u32).map(|i| (i % 251) as u8).collect();
    let root = mount("big.bin", data, vec![]).await;
    let rows = all(&root, "#hex .hrow");
    assert!(!rows.is_empty() && rows.len() <= 18, "{} rows", rows.len());
    let hex = root.query_selector("#hex").unwrap().unwrap();
    hex.set_scroll_top(hex.scroll_height());
    settle().await;
    let offs: Vec<String> = all(&root, "#hex .hrow .off")
        .iter()
        .map(|e| e.text_content().unwrap_or_default())
        .collect();
    assert!(offs.contains(&"003FFFF0".to_string()), "{offs:?}");
    assert!(all(&root, "#hex .hrow").len() <= 18);
}

#[wasm_bindgen_test]
async fn byte_classes_and_field_boxes_are_drawn_in_both_columns() {
    let root = mount("s.dxbc", SAMPLE.to_vec(), vec![]).await;
    let cell = |col: &str, o: u32| {
        root.query_selector(&format!("#hex .{col} .c[data-o=\"{o}\"]"))
            .unwrap()
            .unwrap()
            .class_name()
    };
    // 'D' of the magic is printable; 0x14 is the version's low byte (1), 0x15 a zero.
    for col in ["hx", "as"] {
        assert!(cell(col, 0).contains("bp"));
        assert!(cell(col, 0).contains(" fs"), "the magic starts a field box");
        assert!(cell(col, 3).contains(" fe"), "and ends one");
        assert!(cell(col, 0x15).contains("bz"));
    }
    assert_eq!(
        root.query_selector("#hex .as .c[data-o=\"0\"]")
            .unwrap()
            .unwrap()
            .text_content()
            .as_deref(),
        Some("D")
    );
}

#[wasm_bindgen_test]
async fn going_to_a_string_selects_it_and_shows_it_as_text() {
    // A DXBC whose only part is an input signature naming one element `<img ...>`.
    let name = b"<img src=x onerror=alert(1)>\0";
    let mut part = Vec::new();
    for v in [1u32, 8, 32, 0, 0, 3, 0] {
        part.extend_from_slice(&v.to_le_bytes());
    }
    part.extend_from_slice(&[0x0f, 0x0f, 0, 0]);
    part.extend_from_slice(name);
    while part.len() % 4 != 0 {
        part.push(0);
    }
    let size = 36 + 8 + part.len() as u32;
    let mut f = b"DXBC".to_vec();
    f.extend_from_slice(&[0; 16]);
    f.extend_from_slice(&[1, 0, 0, 0]);
    for v in [size, 1, 36] {
        f.extend_from_slice(&v.to_le_bytes());
    }
    f.extend_from_slice(b"ISGN");
    f.extend_from_slice(&(part.len() as u32).to_le_bytes());
    f.extend_from_slice(&part);
    let root = mount(
        "xss.dxbc",
        f,
        vec![Action::Cursor(CursorAction::Goto(0x4C))],
    )
    .await;
    // The go-to is answered, the tree opened to the node and its rows
    // drawn in a few turns of the event loop: as many as a loaded machine
    // takes.
    let sel = appears(&root, "#tree .trow[aria-selected=\"true\"]")
        .await
        .expect("a selected row");
    assert_eq!(
        sel.get_attribute("data-path").as_deref(),
        Some("Parts/[0]/Signature/Strings/[0]")
    );
    assert!(sel
        .text_content()
        .unwrap_or_default()
        .contains("<img src=x onerror=alert(1)>"));
    assert!(root.query_selector("img").unwrap().is_none());
}

/// The decoder modules write floats with the browser's shortest digits
/// (hexlens-core's `host-floats`): the text must be Rust's own, which the
/// native dumps and the npm package's trees give.
#[wasm_bindgen_test]
fn floats_are_written_as_rust_writes_them() {
    use hexlens_core::floattext::{debug, display};
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut values = vec![
        0.0,
        -0.0,
        0.1,
        1e-4,
        9.999e-5,
        1e16,
        1e21,
        5e-324,
        f64::MAX,
        f64::NAN,
        f64::NEG_INFINITY,
        f32::MAX as f64,
        0.1f32 as f64,
        // 1149636667324797.25: the engine writes …797.2, Rust …797.3.
        f64::from_bits(0xc310_565a_94b4_e5f5),
    ];
    for _ in 0..20_000 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        values.push(f64::from_bits(s));
        values.push(f32::from_bits(s as u32) as f64);
        values.push((s >> 11) as f64 / (1u64 << 30) as f64);
        // Values midway between two shortest candidates, where the engine
        // and Rust choose differently unless corrected: quarters near 2^50,
        // integers past 2^53, powers of two.
        values.push(((s >> 14) | (1 << 49)) as f64 + 0.25);
        values.push(((s >> 14) | (1 << 49)) as f64 + 0.75);
        values.push((((s >> 11) | (1 << 52)) as f64) * 2.0);
        values.push(-(((s >> 11) | (1 << 52)) as f64) * 8.0);
    }
    for k in -1074..1024 {
        values.push(2f64.powi(k));
    }
    for x in values {
        assert_eq!(display(x), format!("{x}"), "{{}} of {:#x}", x.to_bits());
        assert_eq!(debug(x), format!("{x:?}"), "{{:?}} of {:#x}", x.to_bits());
    }
}

/// A row whose bytes stay in view keeps its text nodes when only its tints
/// change (here: a node selected): the browser then lays out nothing anew.
#[wasm_bindgen_test]
async fn a_row_retinted_keeps_its_text_nodes() {
    let root = mount("hs.dxbc", SAMPLE.to_vec(), vec![]).await;
    settle().await;
    let row0 = |root: &Element| -> Vec<Element> {
        (0..16)
            .filter_map(|o| {
                root.query_selector(&format!("#hex .hx .c[data-o=\"{o}\"]"))
                    .unwrap()
            })
            .collect()
    };
    let before = row0(&root);
    assert_eq!(before.len(), 16);
    let texts: Vec<web_sys::Node> = before
        .iter()
        .map(|c| c.first_child().expect("text"))
        .collect();
    assert!(before.iter().all(|c| !c.class_name().contains("sel")));
    dispatch(Action::Cursor(CursorAction::Goto(4)));
    settle().await;
    settle().await;
    let after = row0(&root);
    assert!(
        after.iter().any(|c| c.class_name().contains(" sel")),
        "a byte of the selected node is marked: {:?}",
        after.iter().map(|c| c.class_name()).collect::<Vec<_>>()
    );
    for (c, t) in after.iter().zip(&texts) {
        assert!(
            c.first_child().is_some_and(|n| n.is_same_node(Some(t))),
            "cell {:?} got a new text node",
            c.get_attribute("data-o")
        );
    }
}
