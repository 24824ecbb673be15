//! The view in the address bar: the URL's fragment says where the viewer is
//! (`#sha=…&node=Parts/[3]/PSVInfo&at=1F4&open=Parts&open=Parts/[3]`: the
//! file's SHA-256, the selected node's path, the cursor offset in hex and the
//! paths of the tree's open nodes), never anything of the file's content. A link to a bundled sample may leave `sha` out
//! (`?sample=a.dxbc#node=Parts/[3]`). A jump to another place (a go-to, a
//! search match, a click) adds a browser history entry, so Back and Forward
//! (Alt+←/→, the mouse's buttons) walk through the places visited; other moves
//! replace the current entry.
//!
//! Reloading restores the place: a bundled sample (`?sample=`) reopens by
//! itself, and a dropped file's place comes back when the same file (the same
//! hash, computed by the worker) is opened again. A file whose hash is not the
//! fragment's opens at its start, as always.

use crate::state::{Action, CursorAction, State};
use gloo_events::EventListener;
use std::rc::Rc;
use yew::prelude::*;

/// The fragment (without `#`) for a place, with the tree's open nodes and,
/// for a file scanned for containers on request, `scan=1`.
pub fn fragment(sha: &str, node: Option<&str>, at: u64, open: &[String]) -> String {
    let p = web_sys::UrlSearchParams::new().expect("URLSearchParams");
    p.append("sha", sha);
    if crate::decoder::scanned() {
        p.append("scan", "1");
    }
    if let Some(n) = node {
        p.append("node", n);
    }
    p.append("at", &format!("{at:X}"));
    for o in open {
        p.append("open", o);
    }
    for ((k, _), v) in crate::ksy::LINK_KEYS.iter().zip(crate::ksy::link()) {
        if !v.is_empty() {
            p.append(k, &v);
        }
    }
    p.to_string().into()
}

/// The `.ksy` format a fragment says its place is in (the values of
/// [`crate::ksy::LINK_KEYS`], empty where it says none), if it says one.
fn wants_ksy(fragment: &str) -> Option<Vec<String>> {
    let p = web_sys::UrlSearchParams::new_with_str(fragment.trim_start_matches('#')).ok()?;
    p.get("ksy")?;
    Some(
        crate::ksy::LINK_KEYS
            .iter()
            .map(|(k, _)| p.get(k).unwrap_or_default())
            .collect(),
    )
}

/// The restore action a fragment says, if it says a place in the file with
/// hash `sha` (or, with `any_file`, a place without a hash).
pub fn parse(fragment: &str, sha: Option<&str>, any_file: bool) -> Option<Action> {
    let p = web_sys::UrlSearchParams::new_with_str(fragment.trim_start_matches('#')).ok()?;
    let own = p.get("sha").unwrap_or_default();
    if !(own.is_empty() && any_file) && sha.is_some_and(|s| s != own) {
        return None;
    }
    let path = p.get("node").filter(|n| !n.is_empty());
    let at = p.get("at").and_then(|a| u64::from_str_radix(&a, 16).ok());
    let open: Vec<String> = p
        .get_all("open")
        .iter()
        .filter_map(|o| o.as_string())
        .collect();
    (path.is_some() || at.is_some() || !open.is_empty()).then_some(Action::Cursor(
        CursorAction::Restore {
            sha: own,
            path,
            at,
            open,
        },
    ))
}

/// True if a fragment says its place is in the file scanned for containers.
fn wants_scan(fragment: &str) -> bool {
    web_sys::UrlSearchParams::new_with_str(fragment.trim_start_matches('#'))
        .ok()
        .and_then(|p| p.get("scan"))
        .is_some_and(|v| v == "1")
}

fn location_hash() -> String {
    gloo_utils::window().location().hash().unwrap_or_default()
}

/// What was last written, and the hash whose place was last restored.
#[derive(Default)]
struct Mem {
    jumps: u32,
    /// The node, cursor, jump count and open set generation last written
    /// (most renders change none).
    key: (Option<u32>, u64, u32, u32),
    written: String,
    restored: Option<Rc<str>>,
    /// The hash of the file a link's `.ksy` format was last asked for.
    ksy_tried: Option<Rc<str>>,
    popstate: Option<EventListener>,
    /// A write waiting for moves to pause.
    pending: Option<(gloo_timers::callback::Timeout, String)>,
}

/// Keeps the address bar's fragment in step with the view and restores a
/// place from it (see the module's notes).
#[hook]
pub fn use_permalink(state: &UseReducerHandle<State>) {
    let mem = use_mut_ref(Mem::default);
    let st = state.clone();
    use_effect(move || {
        let mut m = mem.borrow_mut();
        let d = st.dispatcher();
        let d2 = d.clone();
        let mem2 = mem.clone();
        m.popstate.get_or_insert_with(|| {
            EventListener::new(&gloo_utils::window(), "popstate", move |_| {
                // A write still waiting belongs to the entry left.
                if let Some((t, _)) = mem2.borrow_mut().pending.take() {
                    t.cancel();
                }
                if let Some(a) = parse(&location_hash(), None, false) {
                    d2.dispatch(a);
                }
            })
        });
        // Restore once the file's hash is known, if the address bar holds a
        // place in this file.
        let Some(sha) = st.hash.sha.clone() else {
            return;
        };
        if m.restored.as_ref() != Some(&sha) {
            let sample = crate::io::sample_param().is_some();
            let here = location_hash();
            let place = parse(&here, Some(&sha), sample);
            // A place in the file as scanned for containers: open it so
            // first (the place is restored once that view is decoded).
            if place.is_some() && wants_scan(&here) && !crate::decoder::scanned() {
                if let Some((doc, blob)) = st
                    .load
                    .doc
                    .as_ref()
                    .and_then(|d| d.bytes.blob().map(|b| (d.clone(), b.clone())))
                {
                    crate::io::open_blob_as(doc.bytes.name().to_string(), blob, true, None, d);
                    return;
                }
            }
            // A place in the file as a kept `.ksy` format decodes it: decode
            // it so first (once; a format not kept here is said, and the
            // place is restored in the tree there is).
            if let Some(want) = place.as_ref().and_then(|_| wants_ksy(&here)) {
                if crate::ksy::link() != want && m.ksy_tried.as_ref() != Some(&sha) {
                    m.ksy_tried = Some(sha.clone());
                    if crate::ksy::restore(&want) {
                        return;
                    }
                }
            }
            m.restored = Some(sha.clone());
            crate::io::mark("hexlens:hashed"); // for the benchmark
            m.key = (None, u64::MAX, u32::MAX, u32::MAX);
            if let Some(a) = place {
                d.dispatch(a);
                return;
            }
        }
        // Write the place: a new history entry for a jump, else in place;
        // once the open set's paths are known.
        if st.cursor.seek_path.is_some() || st.tree.restore_open.is_some() {
            return;
        }
        let Some(open) = st
            .tree
            .open_paths
            .as_ref()
            .filter(|(g, _)| *g == st.tree.gen)
            .map(|(_, p)| p.clone())
        else {
            return;
        };
        let details = st.cursor.selected_details().filter(|d| !d.path.is_empty());
        let key = (
            details.map(|d| d.id),
            st.cursor.cursor,
            st.cursor.jumps,
            st.tree.gen,
        );
        if key == m.key {
            return;
        }
        // Only the node or the open set changed (its details or paths
        // arrived, a group opened): the place is complete.
        let settled = (key.1, key.2) == (m.key.1, m.key.2);
        m.key = key;
        let node = details.map(|d| d.path.as_str());
        let f = fragment(&sha, node, st.cursor.cursor, &open);
        if f == m.written {
            return;
        }
        let push = st.cursor.jumps != m.jumps && !m.written.is_empty();
        m.jumps = st.cursor.jumps;
        m.written = f.clone();
        // A jump is written at once; other moves (a held arrow key) once they
        // pause, as browsers throttle pages that rewrite the address often.
        if let Some((t, before)) = m.pending.take() {
            t.cancel();
            if push {
                write(&before, false); // the place left keeps its last state
            }
        }
        if push || settled {
            write(&f, push);
        } else {
            let later = f.clone();
            let t = gloo_timers::callback::Timeout::new(250, move || write(&later, false));
            m.pending = Some((t, f));
        }
    });
}

/// Puts fragment `f` in the address bar: a new history entry, or in place.
fn write(f: &str, push: bool) {
    // The whole address: the page's `<base>` would resolve a bare `#…`
    // without the query (`?sample=`).
    let href = gloo_utils::window().location().href().unwrap_or_default();
    let url = format!("{}#{f}", href.split('#').next().unwrap_or_default());
    if let Ok(h) = gloo_utils::window().history() {
        let none = wasm_bindgen::JsValue::NULL;
        let _ = if push {
            h.push_state_with_url(&none, "", Some(&url))
        } else {
            h.replace_state_with_url(&none, "", Some(&url))
        };
    }
}
