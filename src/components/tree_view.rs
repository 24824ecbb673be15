//! The structure tree: a virtualised ARIA tree view. Only visible rows are in the
//! DOM; keyboard focus stays on the tree and `aria-activedescendant` names the
//! selected row (the WAI-ARIA pattern for virtualised trees).

use super::offset_digits;
use crate::doc::PENDING_ROOT;
use crate::hexfmt::px;
use crate::hooks::use_ask::use_ask;
use crate::hooks::use_virtual_list::{reveal_row, use_virtual_list};
use crate::state::{Action, CursorAction, Origin, State, TreeAction, TreeKey};
use hexlens_core::protocol::NodeInfo;
use hexlens_core::{Kind, NodeId};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Row height in px (must match `.trow` in the stylesheet).
pub const ROW_H: f64 = 24.0;

/// Props of [`TreeView`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The store (rows, open set, selection, hover, reveal requests).
    pub state: super::Store,
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

/// Props of [`tree_row`].
#[derive(Properties, PartialEq)]
pub struct RowProps {
    /// What the worker said of the row's node (`None`: on its way); shared
    /// with the store.
    pub info: Option<Rc<NodeInfo>>,
    /// 1-based position among the visible rows.
    pub pos: u64,
    /// Number of visible rows.
    pub setsize: u64,
    /// Hex digits of offsets.
    pub digits: usize,
    /// Selected (and focused).
    pub selected: bool,
    /// Hovered here or through its bytes.
    pub hovered: bool,
    /// What is hovered is inside this collapsed row.
    pub hovered_inside: bool,
    /// Open.
    pub open: bool,
}

/// One tree row, keyed by its node (a plain function, not a component: the
/// per-component code Yew generates cost the page's download more than
/// re-diffing the few dozen rows in view, measured by the browser bench).
pub fn tree_row(p: &RowProps, key: String) -> Html {
    let Some(n) = &p.info else {
        // Not arrived yet: the row keeps its place and fills in when it lands.
        return html! {
            <div key={key} class="trow pending" role="treeitem" aria-busy="true"
                aria-posinset={p.pos.to_string()} aria-setsize={p.setsize.to_string()}>
                <span class="tname muted">{"…"}</span>
            </div>
        };
    };
    let digits = p.digits;
    let id = n.id;
    let (s, e) = (n.start, n.end);
    let kind = n.kind();
    // A lazy node has children the decoder has not read yet: opening it asks for them.
    let has_kids = n.has_kids();
    let open = has_kids && p.open;
    let waiting = n.lazy && p.open;
    let sel = p.selected;
    let offset = match (kind, n.reference) {
        (Kind::Derived, Some((r, _))) => format!("→{r:0digits$X}"),
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
        match kind {
            Kind::Unknown => Some("k-unknown"),
            Kind::Padding => Some("k-padding"),
            Kind::Derived => Some("k-derived"),
            k if k.is_group() => Some("k-group"),
            _ => None,
        },
    );
    let path = &n.path;
    let title = format!(
        "{} [{}] 0x{s:X}–0x{e:X} ({} bytes){}",
        if path.is_empty() { "/" } else { path },
        kind.as_str(),
        e - s,
        n.error
            .as_deref()
            .map(|m| format!("\nerror: {m}"))
            .unwrap_or_default()
    );
    html! {
        <div key={key} class={class} role="treeitem" id={format!("tn-{id}")} data-id={id.to_string()}
            data-start={s.to_string()} data-end={e.to_string()} data-kind={kind.as_str()}
            data-path={path.clone()} aria-level={(n.depth + 1).to_string()}
            aria-selected={if sel { "true" } else { "false" }}
            aria-busy={waiting.then_some("true")}
            aria-expanded={has_kids.then_some(if open { "true" } else { "false" })}
            aria-posinset={p.pos.to_string()} aria-setsize={p.setsize.to_string()}
            title={title}
            style={format!("padding-left: {}px", 4 + n.depth * 14)}>
            <span class={classes!("twisty", has_kids.then_some("has-kids"))} aria-hidden="true">
                { if has_kids { if open { "▾" } else { "▸" } } else { "" } }
            </span>
            <span class="tname">{n.name.clone()}</span>
            if !n.text.is_empty() { <span class="tval">{n.text.clone()}</span> }
            if waiting { <span class="tlazy">{"decoding…"}</span> }
            else if n.lazy { <span class="tlazy">{"not decoded yet: open to decode"}</span> }
            if let Some(err) = n.error.as_deref() {
                <span class="terrmsg"><span aria-hidden="true">{"⚠ "}</span>{err.to_string()}</span>
            }
            <span class="tkind">{kind.as_str()}</span>
            <span class="toff">{offset}</span>
        </div>
    }
}

/// The tree view.
#[component]
pub fn TreeView(p: &Props) -> Html {
    let st = &*p.state;
    let node = use_node_ref();
    let decoded = st.load.doc.as_ref().is_some_and(|d| d.is_decoded());
    // Before the decoder answers, one placeholder root row.
    let total = if decoded { st.tree.rows.rows.total } else { 1 };
    let vl = use_virtual_list(node.clone(), total, ROW_H);

    // Scroll a revealed node's row into view: its position is known once the
    // worker has said where it is (the store asks).
    {
        let node = node.clone();
        let vl = vl.clone();
        use_effect_with(p.state.cursor.reveal, move |r| {
            if let Some(pos) = r.row {
                reveal_row(&node, &vl, pos);
            }
        });
    }
    // Ask the worker for the rows in view (with a screen's margin each way).
    use_ask(
        st.load.doc.as_ref().map(|d| d.load),
        st.load.version.version,
        st.tree_wants(vl.window.first, vl.window.count)
            .into_iter()
            .collect(),
    );

    let dispatch = p.state.0.dispatcher();
    let onclick = {
        let d = dispatch.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some((id, twisty)) = row_of(&e) {
                if twisty {
                    d.dispatch(Action::Tree(TreeAction::Toggle(id)));
                } else {
                    d.dispatch(Action::Cursor(CursorAction::Select(id, Origin::Tree)));
                }
            }
        })
    };
    let ondblclick = {
        let d = dispatch.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some((id, false)) = row_of(&e) {
                d.dispatch(Action::Tree(TreeAction::Toggle(id)));
            }
        })
    };
    let onmouseover = {
        let d = dispatch.clone();
        Callback::from(move |e: MouseEvent| {
            d.dispatch(Action::Cursor(CursorAction::HoverNode(
                row_of(&e).map(|r| r.0),
            )));
        })
    };
    let onmouseleave = {
        let d = dispatch.clone();
        Callback::from(move |_| d.dispatch(Action::Cursor(CursorAction::HoverNode(None))))
    };
    let onkeydown = {
        let d = dispatch.clone();
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
            d.dispatch(Action::Tree(TreeAction::Key(k)));
        })
    };

    let digits = offset_digits(st.load.doc.as_ref().map_or(0, |d| d.bytes.len()));
    let hovered = st.cursor.hovered();
    // A hovered byte's owner may sit inside a closed node: light up that row.
    let hovered_row = st.cursor.hover_info.as_ref().map(|i| st.tree.shown_as(i));
    let w = vl.window;
    let first = w.first;
    let last = (first + w.count).min(total);
    let held = &st.tree.rows.rows;
    let rows = (first..last).map(|pos| {
        let info = if decoded {
            // Rows of the previous open set stay until the fresh ones land
            // (a few milliseconds): no flash of placeholders on every toggle.
            held.at(pos).cloned()
        } else {
            Some(Rc::new(pending_root(st)))
        };
        let id = info.as_ref().map(|i| i.id);
        let key = id.map_or_else(|| format!("p{pos}"), |i| i.to_string());
        tree_row(
            &RowProps {
                info,
                pos: pos + 1,
                setsize: total,
                digits,
                selected: id.is_some() && st.cursor.selected == id,
                hovered: id.is_some() && hovered_row == id,
                hovered_inside: id.is_some() && hovered_row == id && hovered != id,
                open: id.is_some_and(|i| st.tree.open.contains(&i)),
            },
            key,
        )
    });

    // Only the rows in view are looked at (the list may hold a million rows).
    let active = st
        .cursor
        .selected
        .filter(|id| (first..last).any(|p| held.at(p).is_some_and(|r| r.id == *id)))
        .map(|id| format!("tn-{id}"));
    let nodes = st.load.version.nodes;
    html! {
        <section class="pane tree-pane" aria-label="Structure">
            <div class="pane-head">
                <span class="pane-title">{"Structure"}</span>
                <span class="pane-sub">{if decoded { format!("{nodes} nodes") } else { String::new() }}</span>
            </div>
            <div class="vscroll tree" ref={node} role="tree" tabindex="0" aria-label="Structure tree"
                data-nodes={nodes.to_string()} data-decoded={if decoded { "true" } else { "false" }}
                aria-activedescendant={active} onscroll={vl.onscroll} {onclick} {ondblclick} {onmouseover}
                {onmouseleave} {onkeydown} id="tree">
                <div class="vsticky" role="presentation">
                    <div class="vrows" role="presentation" style={format!("transform: translateY({})", px(-w.shift))}>
                        { for rows }
                    </div>
                </div>
                <div class="vspacer" role="presentation"
                    style={format!("height: {}", px((vl.virt.content_h() - vl.virt.view_h).max(0.0)))} />
            </div>
        </section>
    }
}

/// The row shown while the decoder works: the file as one field.
fn pending_root(st: &State) -> NodeInfo {
    NodeInfo {
        name: PENDING_ROOT.into(),
        kind: Kind::File.code(),
        end: st.load.doc.as_ref().map_or(0, |d| d.bytes.len()),
        text: "decoding…".into(),
        ..NodeInfo::default()
    }
}
