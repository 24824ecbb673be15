//! What a first-time visitor sees: one sentence of instructions, an open button,
//! the bundled samples and the formats hexlens reads.

use super::toolbar::{file_picker, PickerProps};
use crate::io::Sample;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`empty_state`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// Bundled samples.
    pub samples: Rc<Vec<Sample>>,
    /// Open a sample.
    pub on_sample: Callback<Sample>,
    /// Open a picked file.
    pub on_file: Callback<web_sys::File>,
}

/// The empty state.
pub fn empty_state(p: &Props) -> Html {
    html! {
        <main class="empty" id="empty-state">
            <div class="empty-card">
                <div class="empty-drop" aria-hidden="true">
                    <div class="empty-glyph">{"⬡"}</div>
                </div>
                <h1>{"See the structure inside a binary file"}</h1>
                <p class="lead">{"Drag a file anywhere onto this page, or open one, or try a sample below: hexlens shows its fields as a tree linked to the bytes."}</p>
                <div class="empty-actions">
                    { file_picker(&PickerProps { on_file: p.on_file.clone(), label: "Open a file…".into(), id: "file-input-empty".into(), class: classes!("btn-primary") }) }
                </div>
                <h2>{"Samples"}</h2>
                <ul class="sample-list" id="sample-list">
                    { for p.samples.iter().map(|s| {
                        let cb = p.on_sample.clone();
                        let sc = s.clone();
                        html! {
                            <li>
                                <button class="sample" data-file={s.file.clone()} onclick={Callback::from(move |_| cb.emit(sc.clone()))}>
                                    <span class="sample-title">{&s.title}<span class="badge">{&s.format}</span></span>
                                    <span class="sample-note">{&s.note}</span>
                                    <span class="sample-src">{format!("{} · {}", s.file, s.source)}</span>
                                </button>
                            </li>
                        }
                    }) }
                </ul>
                <p class="formats">
                    {"Reads: "}
                    { for hexlens_core::formats::catalog().iter().enumerate().map(|(i, f)| html! {
                        <>
                        if i > 0 { {", "} }
                        <span class="format" title={f.description}>{f.name}</span>
                        <span class="muted">{format!(" ({})", f.extensions.join(", "))}</span>
                        </>
                    }) }
                    {" · anything else is shown as plain hex."}
                </p>
                <p class="privacy-long">{ super::icons::lock() }{" Everything runs in this tab: the file is never uploaded, and the page makes no network request except for its own files."}</p>
            </div>
        </main>
    }
}
