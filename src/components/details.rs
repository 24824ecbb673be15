//! The details pane: everything about the selected node, then the data inspector
//! for the byte at the cursor.

use super::inspector::Inspector;
use super::value_text;
use crate::clip;
use crate::doc::Doc;
use crate::state::{Action, Origin, State};
use hexlens_core::{Kind, NodeId, Value};
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`Details`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The open file.
    pub doc: Rc<Doc>,
    /// Selected node.
    pub selected: Option<NodeId>,
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
#[component]
pub fn Details(p: &Props) -> Html {
    let doc = &p.doc;
    let tree = &doc.tree;
    let body = match p.selected {
        None => html! {
            <p class="hint">{"Select a node in the tree or click a byte to see its details."}</p>
        },
        Some(id) => {
            let n = tree.node(id);
            let (s, e) = doc.range(id);
            let path = tree.path(id);
            let bits = (!n.span.is_byte_aligned()).then(|| {
                let sp = n.span;
                format!(
                    "bits {}.{}–{}.{} ({} bits)",
                    sp.start / 8,
                    sp.start % 8,
                    sp.end / 8,
                    sp.end % 8,
                    sp.len_bits()
                )
            });
            let value = n.value.as_ref().map(|v| match v {
                Value::U(x) => format!("{x} (0x{x:X})"),
                Value::I(x) if *x < 0 => format!("{x}"),
                Value::I(x) => format!("{x} (0x{x:X})"),
                // Strings: the first DETAILS bytes, and the full length if longer.
                other => clip::value(other, (n.kind == Kind::Str).then_some(e - s), clip::DETAILS),
            });
            let parent = n.parent;
            let goto_parent = parent.map(|pid| {
                let d = p.dispatch.clone();
                let name = if pid == tree.root() { tree.node(pid).name.to_string() } else { tree.path(pid) };
                html! {
                    <button class="link" onclick={Callback::from(move |_| d.dispatch(Action::Select(pid, Origin::Other)))}>{name}</button>
                }
            });
            let reference = doc.reference(id).map(|(rs, re)| {
                let d = p.dispatch.clone();
                html! {
                    <>
                    <dt>{"Refers to"}</dt>
                    <dd>
                        <button class="link mono" onclick={Callback::from(move |_| d.dispatch(Action::Goto(rs)))}>
                            {format!("0x{rs:X}–0x{re:X}")}
                        </button>
                        <span class="muted">{format!(" ({} bytes)", re - rs)}</span>
                    </dd>
                    </>
                }
            });
            html! {
                <>
                if let Some(err) = n.error.as_deref() {
                    <div class="error-box" role="alert" id="details-error">
                        <strong>{"Error: "}</strong>{err}
                    </div>
                }
                <dl class="props" id="details-props">
                    <dt>{"Name"}</dt><dd class="strong">{n.name.to_string()}</dd>
                    <dt>{"Path"}</dt><dd class="mono path" id="details-path">{if path.is_empty() { "/".to_string() } else { path }}</dd>
                    <dt>{"Kind"}</dt><dd><span class="badge">{n.kind.as_str()}</span>
                        if n.damaged && n.error.is_none() { {" "}<span class="badge badge-err">{"contains errors"}</span> }
                    </dd>
                    <dt>{"Start"}</dt><dd>{hexdec(s)}</dd>
                    <dt>{"End"}</dt><dd>{hexdec(e)}<span class="muted">{" exclusive"}</span></dd>
                    <dt>{"Length"}</dt><dd>{hexdec(e - s)}<span class="muted">{" bytes"}</span></dd>
                    if let Some(b) = bits { <dt>{"Bits"}</dt><dd class="mono">{b}</dd> }
                    if let Some(v) = value { <dt>{"Value"}</dt><dd class="mono value">{v}</dd> }
                    if let Some(d) = n.display.as_deref() { <dt>{"Display"}</dt><dd class="value">{clip::plain(d, clip::DETAILS)}</dd> }
                    if n.value.is_none() && n.display.is_none() {
                        <dt>{"Content"}</dt><dd class="muted">{value_text(&n, e - s)}</dd>
                    }
                    { for reference }
                    if !n.children.is_empty() { <dt>{"Children"}</dt><dd>{n.children.len()}</dd> }
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
                <Inspector doc={doc.clone()} cursor={p.cursor} bytes_epoch={p.bytes_epoch} />
            </div>
        </section>
    }
}
