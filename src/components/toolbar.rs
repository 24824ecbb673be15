//! The top bar: brand, open file, sample picker, go to offset, what is open, and
//! the privacy promise.

use crate::doc::Doc;
use crate::io::Sample;
use crate::state::{Action, CursorAction, State};
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`toolbar`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The open file, if any.
    pub doc: Option<Rc<Doc>>,
    /// Bundled samples.
    pub samples: Rc<Vec<Sample>>,
    /// Open a sample.
    pub on_sample: Callback<Sample>,
    /// Open a picked file.
    pub on_file: Callback<web_sys::File>,
    /// The go-to field (focused by Ctrl+G).
    pub goto_ref: NodeRef,
    /// The store.
    pub dispatch: UseReducerDispatcher<State>,
}

/// Human file size (`2.7 KiB (2776 bytes)` style, short form).
pub fn size_text(n: u64) -> String {
    const U: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} bytes");
    }
    let mut v = n as f64 / 1024.0;
    let mut i = 0;
    while v >= 1024.0 && i < U.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    format!("{} {}", crate::hexfmt::decimal(v, 1), U[i])
}

/// A file-picker button (a label over a hidden input, so it is keyboard reachable).
#[derive(Properties, PartialEq)]
pub struct PickerProps {
    /// Open a picked file.
    pub on_file: Callback<web_sys::File>,
    /// Button text.
    pub label: AttrValue,
    /// Extra class.
    #[prop_or_default]
    pub class: Classes,
    /// id of the input.
    pub id: AttrValue,
}

/// The file picker.
pub fn file_picker(p: &PickerProps) -> Html {
    let onchange = {
        let cb = p.on_file.clone();
        Callback::from(move |e: Event| {
            if let Some(f) = super::picked_file(&e) {
                cb.emit(f);
            }
        })
    };
    html! {
        <label class={classes!("btn", p.class.clone())} for={p.id.clone()}>
            <input type="file" id={p.id.clone()} class="visually-hidden" {onchange} />
            { super::icons::folder() }
            <span>{p.label.clone()}</span>
        </label>
    }
}

/// The "Format…" button: picks `.ksy` files (several: a format and what it
/// imports), kept in the browser and applied to the open file. Its input's
/// files go to `static/ksy.js` (static/shell.js listens for them).
#[inline(never)]
fn format_picker() -> Html {
    html! {
        <label class="btn btn-small" for="format-input"
            title="Decode the file with a Kaitai Struct format (.ksy): pick it and the formats it imports">
            <input type="file" id="format-input" class="visually-hidden" accept=".ksy" multiple=true />
            <span>{"Format…"}</span>
        </label>
    }
}

/// What the toolbar says of the formats for the open file `doc`: decoded
/// with one, the format's editor and a way back to hexlens's own decoders;
/// else the kept format offered for its extension, if one is. A click goes
/// to `static/ksy.js` (static/shell.js listens for it), with the format's
/// file name.
#[inline(never)]
fn format_button(doc: &Rc<Doc>) -> Html {
    if doc.format.starts_with("ksy:") {
        return html! {
            <>
            <button type="button" class="btn btn-small" id="format-edit"
                title="Edit the format: the file is decoded again as you type">{"Edit format"}</button>
            <button type="button" class="btn btn-small" id="format-builtin">{"Built-in"}</button>
            </>
        };
    }
    match crate::ksy::offered(doc.bytes.name()) {
        Some((file, id)) => html! {
            <button type="button" class="btn btn-small" id="format-offer" data-file={file}>{format!("Decode as {id}")}</button>
        },
        None => Html::default(),
    }
}

/// Marks the go-to field as holding an offset that cannot be gone to (or not).
/// Set on the elements directly: the toolbar keeps no state of its own, so it
/// is a plain function of the store, not a component.
fn mark_goto(input: &web_sys::HtmlInputElement, invalid: bool) {
    if let Some(form) = input.parent_element() {
        form.set_class_name(if invalid { "goto invalid" } else { "goto" });
    }
    let _ = if invalid {
        input.set_attribute("aria-invalid", "true")
    } else {
        input.remove_attribute("aria-invalid")
    };
}

/// The toolbar.
pub fn toolbar(p: &Props) -> Html {
    let onsubmit = {
        let dispatch = p.dispatch.clone();
        let goto_ref = p.goto_ref.clone();
        let has_doc = p.doc.is_some();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Some(input) = goto_ref.cast::<web_sys::HtmlInputElement>() else {
                return;
            };
            match crate::offset::parse(&input.value()) {
                Some(o) if has_doc => {
                    mark_goto(&input, false);
                    dispatch.dispatch(Action::Cursor(CursorAction::Goto(o)));
                }
                _ => mark_goto(&input, true),
            }
        })
    };
    let onkeydown = {
        let goto_ref = p.goto_ref.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                if let Some(i) = goto_ref.cast::<web_sys::HtmlElement>() {
                    let _ = i.blur();
                }
            }
        })
    };
    let oninput = Callback::from(|e: InputEvent| mark_goto(&e.target_unchecked_into(), false));
    let onchange = {
        let samples = p.samples.clone();
        let cb = p.on_sample.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let v = sel.value();
            if let Some(s) = samples.iter().find(|s| s.file == v) {
                cb.emit(s.clone());
            }
            sel.set_value("");
        })
    };
    let file_info = p.doc.as_ref().map(|d| {
        html! {
            <div class="file-info" id="file-info">
                <span class="file-name" title={d.bytes.name().to_string()}>{d.bytes.name()}</span>
                <span class={classes!("badge", d.is_raw().then_some("badge-warn"))} title={d.format_description}>{d.format}</span>
                <span class="file-size" title={format!("{} bytes", d.bytes.len())}>{size_text(d.bytes.len())}</span>
            </div>
        }
    });
    html! {
        <header class="toolbar">
            <div class="brand" aria-label="hexlens">
                <span class="logo" aria-hidden="true">{"⬡"}</span>
                <span class="brand-name">{"hexlens"}</span>
            </div>
            { file_picker(&PickerProps { on_file: p.on_file.clone(), label: "Open file…".into(), id: "file-input".into(), class: Classes::new() }) }
            <select class="sample-select" id="sample-select" aria-label="Open a bundled sample" {onchange}>
                <option value="" selected=true>{"Samples…"}</option>
                { for p.samples.iter().map(|s| html! {
                    <option value={s.file.clone()} title={s.note.clone()}>{format!("{} ({})", s.title, s.format)}</option>
                }) }
            </select>
            <form class="goto" {onsubmit} role="search">
                <label for="goto-input" class="visually-hidden">{"Go to offset"}</label>
                <input id="goto-input" ref={p.goto_ref.clone()} type="text" inputmode="text" autocomplete="off"
                    spellcheck="false" placeholder="Go to offset  (Ctrl+G)" disabled={p.doc.is_none()}
                    title="Hex (0x40, 40h, 1f) or decimal (64)"
                    {onkeydown} {oninput} />
                <button type="submit" class="btn btn-small" disabled={p.doc.is_none()}>{"Go"}</button>
            </form>
            { format_picker() }
            { for file_info }
            { for p.doc.as_ref().map(format_button) }
            // The panes of static/listing.js and static/glance.js.
            { for p.doc.iter().flat_map(|_| [
                ("listing-button", "Listing", "hexlensListing"),
                ("glance-button", "Glance", "hexlensGlance"),
            ]).map(|(id, label, open)| html! {
                <button type="button" class="btn btn-small" {id}
                    onclick={Callback::from(move |_| crate::listing::toggle(open))}>{label}</button>
            }) }
            <div class="spacer" />
            <div class="privacy" id="privacy-note" title="hexlens decodes your file with WebAssembly inside this tab. The page loads only its own files and makes no other network requests.">
                { super::icons::lock() }
                {"Runs locally: your file never leaves this machine"}
            </div>
        </header>
    }
}
