//! The data inspector: the bytes at the cursor as integers, floats (both
//! endians), a FourCC and printable text.

use crate::doc::Doc;
use crate::inspect;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`inspector`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The open file.
    pub doc: Rc<Doc>,
    /// Cursor byte.
    pub cursor: u64,
    /// Grows when file bytes arrive (redraws once the bytes at the cursor are read).
    pub bytes_epoch: u32,
}

/// Characters shown in the printable preview.
const PREVIEW: usize = 32;

/// The inspector.
pub fn inspector(p: &Props) -> Html {
    let c = p.cursor;
    let window = p.doc.bytes.window(c, c + PREVIEW as u64);
    let bytes: &[u8] = window.as_deref().unwrap_or(&[]);
    let na = || html! { <span class="muted">{"—"}</span> };
    let rows = inspect::rows(bytes).into_iter().map(|r| {
        let single = r.label == "u8" || r.label == "i8";
        html! {
            <tr data-type={r.label}>
                <th scope="row">{r.label}</th>
                if single {
                    <td colspan="2">{ r.le.map(Html::from).unwrap_or_else(na) }</td>
                } else {
                    <td>{ r.le.map(Html::from).unwrap_or_else(na) }</td>
                    <td>{ r.be.map(Html::from).unwrap_or_else(na) }</td>
                }
            </tr>
        }
    });
    let byte = p.doc.bytes.byte(c).flatten();
    html! {
        <div class="inspector" id="inspector">
            <h3>
                {"Inspector"}
                <span class="muted mono">{format!(" at 0x{c:X} ({c})")}</span>
            </h3>
            if let Some(b) = byte {
                <div class="insp-byte mono">
                    <span class={crate::hexfmt::class(b).css()}>{crate::hexfmt::hex(b)}</span>
                    <span class="muted">{format!(" = {b:08b}b")}</span>
                </div>
            }
            <table class="insp mono">
                <thead><tr><th></th><th scope="col">{"little endian"}</th><th scope="col">{"big endian"}</th></tr></thead>
                <tbody>
                    { for rows }
                    <tr data-type="fourcc"><th scope="row">{"FourCC"}</th>
                        <td colspan="2">{ inspect::fourcc(bytes).map(|s| html!{ <>{"'"}{s}{"'"}</> }).unwrap_or_else(na) }</td></tr>
                    <tr data-type="text"><th scope="row">{"text"}</th>
                        <td colspan="2" class="preview">{ inspect::preview(bytes, PREVIEW) }</td></tr>
                </tbody>
            </table>
        </div>
    }
}
