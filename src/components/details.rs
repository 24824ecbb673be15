//! The details pane: everything about the selected node, then the data inspector
//! for the byte at the cursor.

use crate::doc::Doc;
use crate::state::{Action, CursorAction, Origin, State};
use hexlens_core::protocol::NodeInfo;
use hexlens_core::NodeId;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`details`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The open file.
    pub doc: Rc<Doc>,
    /// Selected node.
    pub selected: Option<NodeId>,
    /// Its details, once the decoder sent them.
    pub details: Option<Rc<NodeInfo>>,
    /// Cursor byte.
    pub cursor: u64,
    /// Grows when file bytes arrive (the inspector may be waiting for some).
    pub bytes_epoch: u32,
    /// The store.
    pub dispatch: UseReducerDispatcher<State>,
}

fn hexdec(v: u64) -> Html {
    html! { <><span class="mono">{format!("0x{v:X}")}</span>{" "}<span class="muted">{format!("({v})")}</span></> }
}

/// The details pane.
pub fn details(p: &Props) -> Html {
    let doc = &p.doc;
    let body = match (p.selected, &p.details) {
        (None, _) => html! {
            <p class="hint">{"Select a node in the tree or click a byte to see its details."}</p>
        },
        (Some(id), d) if d.as_ref().is_none_or(|d| d.id != id) => html! {
            <p class="hint" aria-busy="true">{"…"}</p>
        },
        (Some(_), d) => {
            let n = d.as_ref().expect("details of the selected node");
            let (s, e) = (n.start, n.end);
            let path = n.path.clone();
            let bits = n.bits.map(|(a, b)| {
                format!(
                    "bits {}.{}–{}.{} ({} bits)",
                    a / 8,
                    a % 8,
                    b / 8,
                    b % 8,
                    b - a
                )
            });
            let goto_parent = n.parent.map(|pid| {
                let d = p.dispatch.clone();
                // The root by its name; any other parent by the names below the
                // root down to it (a page of a list included: `Parts/[1000…1999]`,
                // where the path alone would not say which page).
                let name = match n.crumbs.split_first() {
                    Some((root, [])) => root.1.clone(),
                    Some((_, below)) => below.iter().map(|c| c.1.as_str()).collect::<Vec<_>>().join("/"),
                    None => String::new(),
                };
                html! {
                    <button class="link" onclick={Callback::from(move |_| d.dispatch(Action::Cursor(CursorAction::Select(pid, Origin::Other))))}>{name}</button>
                }
            });
            let reference = n.reference.map(|(rs, re)| {
                let d = p.dispatch.clone();
                html! {
                    <>
                    <dt>{"Refers to"}</dt>
                    <dd>
                        <button class="link mono" onclick={Callback::from(move |_| d.dispatch(Action::Cursor(CursorAction::Goto(rs))))}>
                            {format!("0x{rs:X}–0x{re:X}")}
                        </button>
                        <span class="muted">{format!(" ({} bytes)", re - rs)}</span>
                    </dd>
                    </>
                }
            });
            html! {
                <>
                if let Some(err) = n.error.clone() {
                    <div class="error-box" role="alert" id="details-error">
                        <strong>{"Error: "}</strong>{err}
                    </div>
                }
                <dl class="props" id="details-props">
                    <dt>{"Name"}</dt><dd class="strong">{n.name.clone()}</dd>
                    <dt>{"Path"}</dt><dd class="mono path" id="details-path">{if path.is_empty() { "/".to_string() } else { path.clone() }}</dd>
                    <dt>{"Kind"}</dt><dd><span class="badge">{n.kind().as_str()}</span>
                        if n.damaged && n.error.is_none() { {" "}<span class="badge badge-err">{"contains errors"}</span> }
                    </dd>
                    <dt>{"Start"}</dt><dd>{hexdec(s)}</dd>
                    <dt>{"End"}</dt><dd>{hexdec(e)}<span class="muted">{" exclusive"}</span></dd>
                    <dt>{"Length"}</dt><dd>{hexdec(e - s)}<span class="muted">{" bytes"}</span></dd>
                    if let Some(b) = bits { <dt>{"Bits"}</dt><dd class="mono">{b}</dd> }
                    if let Some(v) = n.value.clone() { <dt>{"Value"}</dt><dd class="mono value">{v}</dd> }
                    if let Some(d) = n.display.clone() { <dt>{"Display"}</dt><dd class="value">{d}</dd> }
                    if let Some(d) = n.doc.clone() { <dt>{"Doc"}</dt><dd class="doc" id="details-doc">{d}</dd> }
                    if let Some((a, b)) = n.inner {
                        <dt>{"Decoded"}</dt>
                        <dd id="details-inner" data-path={path.clone()}>
                            <span class="mono">{format!("0x{a:X}–0x{b:X}")}</span>
                            <span class="muted">{" of the bytes its field's process made "}</span>
                            <button class="link" onclick={let p = path.clone(); Callback::from(move |_| crate::ksy::inner(&p))}>{"Show"}</button>
                        </dd>
                    }
                    if n.value.is_none() && n.display.is_none() {
                        <dt>{"Content"}</dt><dd class="muted">{n.text.clone()}</dd>
                    }
                    { for reference }
                    if n.children > 0 { <dt>{"Children"}</dt><dd>{n.children}</dd> }
                    if let Some(gp) = goto_parent { <dt>{"Parent"}</dt><dd>{gp}</dd> }
                </dl>
                </>
            }
        }
    };
    html! {
        <section class="pane details-pane" aria-label="Details" id="details">
            <div class="pane-head"><span class="pane-title">{"Details"}</span></div>
            <div class="details-scroll">
                <div class="details-node">{ body }</div>
                { super::inspector::inspector(&super::inspector::Props { doc: doc.clone(), cursor: p.cursor, bytes_epoch: p.bytes_epoch }) }
            </div>
        </section>
    }
}
