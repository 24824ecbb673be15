//! The structure tree: a virtualised ARIA tree view. Only visible rows are in the
//! DOM; keyboard focus stays on the tree and `aria-activedescendant` names the
//! selected row (the WAI-ARIA pattern for virtualised trees).

use super::{offset_digits, row_text};
use crate::doc::Doc;
use crate::hooks::use_virtual_list::{reveal_row, use_virtual_list};
use crate::outline::{self, Row};
use crate::state::{Action, Origin, Reveal, State, TreeKey};
use hexlens_core::{Kind, NodeId};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Row height in px (must match `.trow` in the stylesheet).
pub const ROW_H: f64 = 24.0;

/// Props of [`TreeView`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The open file.
    pub doc: Rc<Doc>,
    /// Visible rows.
    pub rows: Rc<Vec<Row>>,
    /// Expanded flags.
    pub expanded: Rc<Vec<bool>>,
    /// Selected node.
    pub selected: Option<NodeId>,
    /// Hovered node.
    pub hover: Option<(NodeId, Origin)>,
    /// Scroll requests.
    pub reveal: Reveal,
    /// The store.
    pub dispatch: UseReducerDispatcher<State>,
}

/// The `data-id` of the row under an event's target, and whether the target was
/// the expand/collapse twisty.
fn row_of(e: &Event) -> Option<(NodeId, bool)> {
    let t = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    let row = t.closest("[data-id]").ok()??;
    let id = row.get_attribute("data-id")?.parse().ok()?;
    let twisty = t.closest(".twisty").ok().flatten().is_some();
    Some((id, twisty))
}

/// Props of [`TreeRow`].
#[derive(Properties, PartialEq)]
pub struct RowProps {
    /// The open file.
    pub doc: Rc<Doc>,
    /// The row.
    pub row: Row,
    /// 1-based position among the visible rows.
    pub pos: usize,
    /// Number of visible rows.
    pub setsize: usize,
    /// Selected (and focused).
    pub selected: bool,
    /// Hovered here or through its bytes.
    pub hovered: bool,
    /// What is hovered is inside this collapsed row.
    pub hovered_inside: bool,
    /// Expanded.
    pub open: bool,
}

/// One tree row; re-renders only when its own props change.
#[component]
pub fn TreeRow(p: &RowProps) -> Html {
    let doc = &p.doc;
    let tree = &doc.tree;
    let digits = offset_digits(doc.bytes.len());
    let r = p.row;
    let id = r.id;
    let n = tree.node(id);
    let (s, e) = doc.range(id);
    // A lazy node has children the decoder has not read yet: opening it asks for them.
    let has_kids = !n.children.is_empty() || n.lazy;
    let open = has_kids && p.open;
    let waiting = n.lazy && p.open;
    let sel = p.selected;
    let value = row_text(tree, id, e - s);
    let offset = match (n.kind, n.reference) {
        (Kind::Derived, Some(r)) => format!("→{:0digits$X}", r.start_byte()),
        _ => format!("{s:0digits$X}"),
    };
    let class = classes!(
        "trow",
        sel.then_some("selected"),
        p.hovered.then_some("hovered"),
        p.hovered_inside.then_some("hovered-inside"),
        n.error.is_some().then_some("has-error"),
        n.lazy.then_some("lazy"),
        waiting.then_some("waiting"),
        (n.damaged && n.error.is_none()).then_some("damaged"),
        match n.kind {
            Kind::Unknown => Some("k-unknown"),
            Kind::Padding => Some("k-padding"),
            Kind::Derived => Some("k-derived"),
            k if k.is_group() => Some("k-group"),
            _ => None,
        },
    );
    let path = tree.path(id);
    let title = format!(
        "{} [{}] 0x{s:X}–0x{e:X} ({} bytes){}",
        if path.is_empty() { "/" } else { &path },
        n.kind.as_str(),
        e - s,
        n.error
            .as_deref()
            .map(|m| format!("\nerror: {m}"))
            .unwrap_or_default()
    );
    html! {
        <div class={class} role="treeitem" id={format!("tn-{id}")} data-id={id.to_string()}
            data-start={s.to_string()} data-end={e.to_string()} data-kind={n.kind.as_str()}
            data-path={path} aria-level={(r.depth + 1).to_string()}
            aria-selected={if sel { "true" } else { "false" }}
            aria-busy={waiting.then_some("true")}
            aria-expanded={has_kids.then_some(if open { "true" } else { "false" })}
            aria-posinset={p.pos.to_string()} aria-setsize={p.setsize.to_string()}
            title={title}
            style={format!("padding-left: {}px", 4 + r.depth * 14)}>
            <span class={classes!("twisty", has_kids.then_some("has-kids"))} aria-hidden="true">
                { if has_kids { if open { "▾" } else { "▸" } } else { "" } }
            </span>
            <span class="tname">{n.name.to_string()}</span>
            if !value.is_empty() { <span class="tval">{value}</span> }
            if waiting { <span class="tlazy">{"decoding…"}</span> }
            else if n.lazy { <span class="tlazy">{"not decoded yet: open to decode"}</span> }
            if let Some(err) = n.error.as_deref() {
                <span class="terrmsg"><span aria-hidden="true">{"⚠ "}</span>{err}</span>
            }
            <span class="tkind">{n.kind.as_str()}</span>
            <span class="toff">{offset}</span>
        </div>
    }
}

/// The tree view.
#[component]
pub fn TreeView(p: &Props) -> Html {
    let node = use_node_ref();
    let vl = use_virtual_list(node.clone(), p.rows.len() as u64, ROW_H);

    // Scroll the selected node into view when asked.
    {
        let node = node.clone();
        let vl = vl.clone();
        let rows = p.rows.clone();
        use_effect_with(p.reveal, move |r| {
            if let Some(pos) = r.node.and_then(|id| outline::position(&rows, id)) {
                reveal_row(&node, &vl, pos as u64);
            }
        });
    }

    let onclick = {
        let d = p.dispatch.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some((id, twisty)) = row_of(&e) {
                if twisty {
                    d.dispatch(Action::Toggle(id));
                } else {
                    d.dispatch(Action::Select(id, Origin::Tree));
                }
            }
        })
    };
    let ondblclick = {
        let d = p.dispatch.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some((id, false)) = row_of(&e) {
                d.dispatch(Action::Toggle(id));
            }
        })
    };
    let onmouseover = {
        let d = p.dispatch.clone();
        Callback::from(move |e: MouseEvent| {
            d.dispatch(Action::HoverNode(row_of(&e).map(|r| r.0)));
        })
    };
    let onmouseleave = {
        let d = p.dispatch.clone();
        Callback::from(move |_| d.dispatch(Action::HoverNode(None)))
    };
    let onkeydown = {
        let d = p.dispatch.clone();
        let page = vl.virt.page_rows().saturating_sub(1).max(1) as u32;
        Callback::from(move |e: KeyboardEvent| {
            let k = match e.key().as_str() {
                "ArrowDown" => TreeKey::Down,
                "ArrowUp" => TreeKey::Up,
                "ArrowRight" => TreeKey::Right,
                "ArrowLeft" => TreeKey::Left,
                "Home" => TreeKey::Home,
                "End" => TreeKey::End,
                "Enter" | " " => TreeKey::Enter,
                "PageDown" => TreeKey::PageDown(page),
                "PageUp" => TreeKey::PageUp(page),
                _ => return,
            };
            e.prevent_default();
            d.dispatch(Action::TreeKey(k));
        })
    };

    let doc = &p.doc;
    let tree = &doc.tree;
    let hovered = p.hover.map(|h| h.0);
    // A hovered byte's owner may sit inside a collapsed node: light up that row.
    let hovered_row = hovered.map(|id| outline::shown_as(&doc.tree, &p.expanded, id));
    let w = vl.window;
    let first = w.first as usize;
    let last = (first + w.count as usize).min(p.rows.len());
    let rows = p.rows[first.min(last)..last]
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let id = r.id;
            html! {
                <TreeRow key={id} doc={doc.clone()} row={*r} pos={first + i + 1} setsize={p.rows.len()}
                    selected={p.selected == Some(id)} hovered={hovered_row == Some(id)}
                    hovered_inside={hovered_row == Some(id) && hovered != Some(id)}
                    open={p.expanded.get(id as usize).copied().unwrap_or(false)} />
            }
        });

    // Only the rows in view are looked at (the list may hold a million rows).
    let active = p
        .selected
        .filter(|id| p.rows[first.min(last)..last].iter().any(|r| r.id == *id))
        .map(|id| format!("tn-{id}"));
    html! {
        <section class="pane tree-pane" aria-label="Structure">
            <div class="pane-head">
                <span class="pane-title">{"Structure"}</span>
                <span class="pane-sub">{format!("{} nodes", tree.len())}</span>
            </div>
            <div class="vscroll tree" ref={node} role="tree" tabindex="0" aria-label="Structure tree"
                data-nodes={doc.tree.len().to_string()} data-decoded={if doc.decoded { "true" } else { "false" }}
                aria-activedescendant={active} onscroll={vl.onscroll} {onclick} {ondblclick} {onmouseover}
                {onmouseleave} {onkeydown} id="tree">
                <div class="vsticky" role="presentation">
                    <div class="vrows" role="presentation" style={format!("transform: translateY({}px)", -w.shift)}>
                        { for rows }
                    </div>
                </div>
                <div class="vspacer" role="presentation"
                    style={format!("height: {}px", (vl.virt.content_h() - vl.virt.view_h).max(0.0))} />
            </div>
        </section>
    }
}
