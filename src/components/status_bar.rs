//! The bottom bar: the breadcrumb of the hovered (else selected) node, whose
//! parts select their node, and the cursor position.

use crate::doc::Doc;
use crate::state::{Action, CursorAction, Origin, State};
use hexlens_core::protocol::NodeInfo;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`status_bar`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The open file.
    pub doc: Rc<Doc>,
    /// What is known of the hovered node.
    pub hover: Option<Rc<NodeInfo>>,
    /// The selected node's details.
    pub selected: Option<Rc<NodeInfo>>,
    /// Cursor byte.
    pub cursor: u64,
    /// The selected bytes, `[start, end)`.
    pub range: Option<(u64, u64)>,
    /// The store.
    pub dispatch: UseReducerDispatcher<State>,
}

/// The status bar.
pub fn status_bar(p: &Props) -> Html {
    let focus = p.hover.as_ref().or(p.selected.as_ref());
    let crumbs = focus.map(|n| {
        let mut chain = n.crumbs.clone();
        chain.push((n.id, n.name.clone()));
        chain
    });
    let (s, e) = focus.map(|n| (n.start, n.end)).unwrap_or((0, 0));
    html! {
        <footer class="status">
            <nav class="breadcrumb" id="breadcrumb" aria-label="Path of the hovered or selected node"
                data-node={focus.map(|f| f.id.to_string())}>
                if let Some(chain) = crumbs {
                    { for chain.iter().enumerate().map(|(i, (id, name))| {
                        let id = *id;
                        let d = p.dispatch.clone();
                        let last = i + 1 == chain.len();
                        html! {
                            <>
                            if i > 0 { <span class="sep" aria-hidden="true">{"›"}</span> }
                            <button class={classes!("crumb", last.then_some("current"))}
                                onclick={Callback::from(move |_| d.dispatch(Action::Cursor(CursorAction::Select(id, Origin::Other))))}>
                                {name.clone()}
                            </button>
                            </>
                        }
                    }) }
                    <span class="muted mono range">{format!("  0x{s:X}–0x{e:X}, {} bytes", e - s)}</span>
                } else {
                    <span class="muted">{"Hover a byte or a tree row to see where it sits."}</span>
                }
            </nav>
            <span class="spacer" />
            <span class="mono muted" id="cursor-pos">{match p.range {
                // The last byte is shown, as the hex pane marks it; the
                // length is the count of bytes.
                Some((a, b)) => format!("selected 0x{a:X}–0x{:X}, {} bytes", b - 1, b - a),
                None => format!("cursor 0x{:X}", p.cursor),
            }}</span>
        </footer>
    }
}
