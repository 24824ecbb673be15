//! Banners over the panes: loading, load failures, unrecognised files, damaged
//! files (with a jump to the first error).

use super::toolbar::size_text;
use crate::doc::Doc;
use crate::state::{Action, CursorAction, Origin, State, Status};
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`notices`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The open file.
    pub doc: Option<Rc<Doc>>,
    /// Loading state.
    pub status: Status,
    /// The store.
    pub dispatch: UseReducerDispatcher<State>,
}

/// The notices.
pub fn notices(p: &Props) -> Html {
    let status = match &p.status {
        Status::Idle => html! {},
        Status::Loading(name) => html! {
            <div class="notice info" role="status" id="notice-loading">{"Opening "}<strong>{name}</strong>{"…"}</div>
        },
        Status::Failed(msg) => html! {
            <div class="notice error" role="alert" id="notice-failed">{"Could not open the file: "}{msg}</div>
        },
        Status::Decoding { done, total } => {
            let d = p.dispatch.clone();
            let pct = if *total == 0 {
                100.0
            } else {
                *done as f64 * 100.0 / *total as f64
            };
            html! {
                <div class="notice info decoding" role="status" id="notice-decoding">
                    <span>{"Decoding… "}</span>
                    <progress max="100" value={crate::hexfmt::decimal(pct, 1)} aria-label="Decoding progress" />
                    <span class="mono">{format!(" {}% ({} of {})", crate::hexfmt::decimal(pct, 0), size_text(*done), size_text(*total))}</span>
                    {" The bytes are already shown. "}
                    <button class="btn btn-small" id="cancel-decode"
                        onclick={Callback::from(move |_| crate::io::cancel(&d))}>{"Cancel"}</button>
                </div>
            }
        }
        Status::Cancelled => html! {
            <div class="notice warn" role="status" id="notice-cancelled">
                {"Decoding was cancelled: the bytes are shown without structure. Open the file again to decode it."}
            </div>
        },
        Status::Crashed(msg) => html! {
            <div class="notice error" role="alert" id="notice-crashed">
                <strong>{"The decoder crashed. "}</strong>
                {"The bytes are still shown; the structure may be incomplete. Message: "}
                <span class="mono">{msg}</span>
            </div>
        },
    };
    let doc_notice = match &p.doc {
        Some(d) if d.is_raw() => {
            let msg = d
                .root()
                .and_then(|r| r.error.clone())
                .unwrap_or_else(|| "no decoder recognises this file".to_string());
            html! {
                <div class="notice warn" role="status" id="notice-raw" title={msg}>
                    <strong>{"Unrecognised format. "}</strong>
                    {"No decoder recognises this file, so it is shown as plain hex."}
                </div>
            }
        }
        Some(d) if d.summary.as_ref().is_some_and(|s| s.first_error.is_some()) => {
            let sum = d.summary.as_ref().expect("checked");
            let first = sum.first_error.clone().expect("checked");
            let dd = p.dispatch.clone();
            let n = sum.errors;
            let id = first.id;
            html! {
                <div class="notice error" role="status" id="notice-damaged">
                    <strong>{format!("Damaged file: {n} error{}. ", if n == 1 { "" } else { "s" })}</strong>
                    {"The tree shows what could be decoded; errors are marked in red. First: "}
                    <span class="mono">{if first.path.is_empty() { "/".to_string() } else { first.path.clone() }}</span>{" — "}{first.error.clone().unwrap_or_default()}{" "}
                    <button class="btn btn-small" onclick={Callback::from(move |_| dd.dispatch(Action::Cursor(CursorAction::Select(id, Origin::Other))))}>
                        {"Show"}
                    </button>
                </div>
            }
        }
        _ => html! {},
    };
    html! { <>{status}{doc_notice}</> }
}
