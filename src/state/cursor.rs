//! The cursor slice: the hex cursor and the byte selection, the selected and
//! the hovered node, the scroll requests to the panes, and the places the
//! worker is finding for them (a clicked byte's owner, a node path).

use hexlens_core::protocol::NodeInfo;
use hexlens_core::NodeId;
use std::rc::Rc;

/// Where a hover or selection came from (the other pane follows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The structure tree.
    Tree,
    /// The hex pane.
    Hex,
    /// Anything else (go to offset, the error list, a breadcrumb).
    Other,
}

/// A request for a pane to scroll something into view. `seq` grows on every
/// request so asking twice for the same place still scrolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Reveal {
    /// Request number.
    pub seq: u32,
    /// Byte the hex pane should show.
    pub byte: Option<u64>,
    /// Node the tree pane should show.
    pub node: Option<NodeId>,
    /// Its row, once known.
    pub row: Option<u64>,
}

/// Where the user is in the file.
#[derive(Debug, Clone, Default)]
pub struct CursorState {
    /// The hex cursor (the inspector reads from here).
    pub cursor: u64,
    /// The other end of the byte selection (the cursor is one end): `None`
    /// when no bytes are selected.
    pub anchor: Option<u64>,
    /// The hovered node, where the pointer is, and what is known of the node.
    pub hover: Option<(NodeId, Origin)>,
    /// What the hovered node covers (from its row or the field boxes).
    pub hover_info: Option<Rc<NodeInfo>>,
    /// The bytes a hovered line of the listing pane was made from (the hex
    /// pane marks them instead of the hovered node's).
    pub hover_spans: Option<Rc<Vec<(u64, u64)>>>,
    /// The selected node (also the tree's focused row).
    pub selected: Option<NodeId>,
    /// The selected node's details, once the worker sent them.
    pub details: Option<Rc<NodeInfo>>,
    /// A selection waiting for its details to move the cursor and open the tree.
    pub selecting: Option<Origin>,
    /// Pending scroll requests.
    pub reveal: Reveal,
    /// A clicked or gone-to byte whose owner the worker is finding (true: a
    /// go-to, which also scrolls the hex pane).
    pub seek: Option<(u64, bool)>,
    /// A node path whose node the worker is finding, to select it.
    pub seek_path: Option<String>,
    /// The cursor a restored place puts back once its node is found.
    pub restoring: Option<u64>,
    /// Grows with every jump to another place (a go-to, a search match, a
    /// click): the address bar keeps one history entry a jump.
    pub jumps: u32,
}

/// What moves the cursor, the selection or the hover.
#[derive(Debug, Clone)]
pub enum CursorAction {
    /// Pointer over a tree row (`None`: left it).
    HoverNode(Option<NodeId>),
    /// Pointer over a byte (`None`: left the hex pane).
    HoverByte(Option<u64>),
    /// Pointer over a line of the listing pane, made from these bytes
    /// (`None`: left it): they are marked, and the node owning the first
    /// is the hovered one.
    HoverSpans(Option<Rc<Vec<(u64, u64)>>>),
    /// Select a node: expand the tree to it and scroll the other pane(s) to it.
    Select(NodeId, Origin),
    /// Click on a byte: cursor there, select its innermost node.
    ClickByte(u64),
    /// Go to offset: like a click on that byte, scrolling both panes.
    Goto(u64),
    /// Move the hex cursor by a number of bytes (keyboard in the hex pane);
    /// true: extend the byte selection (Shift held).
    Move(i64, bool),
    /// Select bytes from the first offset to the second, both included (a
    /// drag, or Shift+click from the cursor); the cursor goes to the second.
    SelectBytes(u64, u64),
    /// Show a place a link or the browser's history holds: the node at a path
    /// and the cursor at a byte (what the URL's fragment says).
    Restore {
        /// The hash of the file the place is in (another file's is ignored;
        /// empty: whatever file is open).
        sha: String,
        /// Path of the node to select.
        path: Option<String>,
        /// Cursor offset.
        at: Option<u64>,
        /// Paths of the nodes to open (empty: the tree's open set stays).
        open: Vec<String>,
    },
}

impl CursorState {
    /// The slice after `action` in a file of `size` bytes, or `None` if
    /// nothing changed. Only the moves of the cursor and the byte selection
    /// are the slice's own; the others find, select or open nodes, and the
    /// store's top-level apply carries them out (this returns `None`).
    pub fn apply(&self, action: CursorAction, size: u64) -> Option<CursorState> {
        let max = size.saturating_sub(1);
        match action {
            CursorAction::Move(delta, extend) => {
                let c = if delta < 0 {
                    self.cursor.saturating_sub(delta.unsigned_abs())
                } else {
                    self.cursor.saturating_add(delta as u64).min(max)
                };
                let anchor = if extend {
                    self.anchor.or(Some(self.cursor))
                } else {
                    None
                };
                (c != self.cursor || anchor != self.anchor).then(|| CursorState {
                    cursor: c,
                    anchor,
                    reveal: Reveal {
                        seq: self.reveal.seq + 1,
                        byte: Some(c),
                        node: None,
                        row: None,
                    },
                    ..self.clone()
                })
            }
            CursorAction::SelectBytes(from, to) => {
                let (a, c) = (from.min(max), to.min(max));
                (Some(a) != self.anchor || c != self.cursor).then(|| CursorState {
                    cursor: c,
                    anchor: Some(a),
                    ..self.clone()
                })
            }
            _ => None,
        }
    }

    /// The selected bytes, `[start, end)` (`None`: none are).
    pub fn byte_range(&self) -> Option<(u64, u64)> {
        let a = self.anchor?;
        Some((a.min(self.cursor), a.max(self.cursor) + 1))
    }

    /// The selected node's details, if they are here.
    pub fn selected_details(&self) -> Option<&Rc<NodeInfo>> {
        self.details
            .as_ref()
            .filter(|d| Some(d.id) == self.selected)
    }

    /// The bytes a copy takes: the selected bytes, else the selected node's,
    /// else the byte under the cursor.
    pub fn copy_range(&self) -> (u64, u64) {
        self.byte_range()
            .or_else(|| {
                let d = self.selected_details()?;
                (d.end > d.start).then_some((d.start, d.end))
            })
            .unwrap_or((self.cursor, self.cursor + 1))
    }

    /// The node whose bytes the hex pane highlights: the hovered one.
    pub fn hovered(&self) -> Option<NodeId> {
        self.hover.map(|h| h.0)
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use crate::state::rig::*;
    use crate::state::*;

    #[test]
    fn clicking_a_byte_selects_its_owner_and_expands_the_tree_to_it() {
        let data = sample("hs_mismatch_2_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data.clone(), None);
        assert!(
            r.s.tree.boxes.boxes.segment_at(0x35).is_some(),
            "boxes arrived"
        );
        r.act(CursorAction::ClickByte(0x35));
        let sel = r.s.cursor.selected.unwrap();
        let d = r.s.cursor.details.clone().unwrap();
        assert_eq!(d.id, sel);
        assert!(d.start <= 0x35 && 0x35 < d.end);
        assert!(r.shown(sel), "its row is shown");
        assert_eq!(r.s.cursor.reveal.node, Some(sel));
        assert_eq!(r.s.cursor.cursor, 0x35);
        let full = Session::with_tree(data.clone(), "x", eager_tree(&data));
        assert_eq!(r.path(sel), full.tree().path(full.owner(0x35).unwrap()));
    }

    #[test]
    fn hovering_inside_one_field_changes_nothing_and_lights_up_its_row() {
        let mut r = Rig::new(sample("hs_mismatch_2_code_dxil.dxil.dxbc"), None);
        r.act(CursorAction::HoverByte(Some(0)));
        let info = r.s.cursor.hover_info.clone().unwrap();
        assert_eq!(info.name, "Magic");
        assert_eq!(
            info.crumbs.iter().map(|c| c.1.as_str()).collect::<Vec<_>>(),
            ["", "Header"].map(|s| if s.is_empty() {
                r.w.tree().name(0).to_string()
            } else {
                s.to_string()
            })
        );
        // Header is open at first: the row shown is Magic itself.
        assert_eq!(r.s.tree.shown_as(&info), info.id);
        assert!(
            !r.act(CursorAction::HoverByte(Some(1))),
            "magic is one field"
        );
        assert!(r.act(CursorAction::HoverByte(None)));
        assert!(r.s.cursor.hover_info.is_none());
        // Tree hover: the row's own range.
        let parts = r.w.tree().find("Parts").unwrap();
        r.act(CursorAction::HoverNode(Some(parts)));
        assert_eq!(r.s.cursor.hover_info.as_ref().unwrap().path, "Parts");
    }

    #[test]
    fn a_listing_line_hovered_marks_its_bytes_and_the_owner_of_the_first() {
        let mut r = Rig::new(sample("hs_mismatch_2_code_dxil.dxil.dxbc"), None);
        let spans = Rc::new(vec![(0, 4), (8, 12)]);
        assert!(r.act(CursorAction::HoverSpans(Some(spans.clone()))));
        assert_eq!(r.s.cursor.hover_spans.as_deref(), Some(&*spans));
        // The hovered node is the one owning the line's first byte.
        assert_eq!(r.s.cursor.hover_info.as_ref().unwrap().name, "Magic");
        assert!(
            !r.act(CursorAction::HoverSpans(Some(spans))),
            "the same line"
        );
        assert!(r.act(CursorAction::HoverSpans(None)));
        assert!(r.s.cursor.hover_spans.is_none() && r.s.cursor.hover_info.is_none());
    }

    #[test]
    fn a_click_in_a_group_not_decoded_yet_opens_it_down_to_the_byte() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let tree =
            hexlens_core::decode_with(&data.as_slice(), &hexlens_core::view::viewer_options()).tree;
        let mut r = Rig::new(data.clone(), Some(tree));
        let full = Session::with_tree(data.clone(), "x", eager_tree(&data));
        let b = data.len() as u64 - 40;
        let want = full.tree().path(full.owner(b).unwrap());
        r.act(CursorAction::Goto(b));
        assert_eq!(r.s.cursor.seek, None);
        let sel = r.s.cursor.selected.unwrap();
        assert_eq!(r.path(sel), want);
        assert!(!r.w.tree().is_lazy(sel));
        assert_eq!(r.s.cursor.cursor, b);
        assert!(r.shown(sel), "its row is shown");
        assert!(r.s.cursor.reveal.row.is_some() && r.s.cursor.reveal.node == Some(sel));
        // The boxes were asked again after the groups opened: the byte's
        // owner is now the field itself.
        assert_eq!(
            r.s.tree.boxes.boxes.segment_at(b).map(|g| g.owner),
            Some(sel)
        );
    }

    #[test]
    fn goto_clamps_to_the_file_and_reveals_both_panes() {
        let mut r = Rig::new(sample("embedded_rs_vs_space0_code_dxbc.dxbc"), None);
        r.act(CursorAction::Goto(1 << 40));
        assert_eq!(r.s.cursor.cursor, 455);
        assert!(r.s.cursor.selected.is_some());
        assert!(r.s.cursor.reveal.node.is_some());
    }

    #[test]
    fn a_drag_shift_arrows_and_a_click_make_and_clear_the_byte_selection() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data.clone(), None);
        assert_eq!(r.s.cursor.byte_range(), None);
        r.act(CursorAction::SelectBytes(0x30, 0x20));
        assert_eq!(r.s.cursor.byte_range(), Some((0x20, 0x31)));
        assert_eq!(r.s.cursor.cursor, 0x20);
        assert_eq!(r.s.cursor.copy_range(), (0x20, 0x31));
        // Shift+arrows move the cursor end; the anchor stays.
        r.act(CursorAction::Move(0x20, true));
        assert_eq!(r.s.cursor.byte_range(), Some((0x30, 0x41)));
        // Ends past the file are clipped to its last byte.
        r.act(CursorAction::SelectBytes(4, u64::MAX));
        assert_eq!(r.s.cursor.byte_range(), Some((4, data.len() as u64)));
        // A plain arrow or a click ends the selection; a copy then takes the
        // selected node's bytes.
        r.act(CursorAction::Move(-1, false));
        assert_eq!(r.s.cursor.byte_range(), None);
        r.act(CursorAction::SelectBytes(1, 2));
        r.act(CursorAction::ClickByte(0x35));
        assert_eq!(r.s.cursor.byte_range(), None);
        let d = r.s.cursor.details.clone().unwrap();
        assert_eq!(Some(d.id), r.s.cursor.selected);
        assert_eq!(r.s.cursor.copy_range(), (d.start, d.end));
    }

    #[test]
    fn a_restored_place_selects_the_node_at_its_path_and_puts_the_cursor_back() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data.clone(), None);
        let sha = r.s.hash.sha.as_deref().unwrap().to_string();
        let path = "Parts/[4]/Program/DXIL";
        let jumps = r.s.cursor.jumps;
        // Another file's place is ignored.
        assert!(!r.act(CursorAction::Restore {
            sha: "00".repeat(32),
            path: Some(path.into()),
            at: Some(9),
            open: Vec::new(),
        }));
        r.act(CursorAction::Restore {
            sha,
            path: Some(path.into()),
            at: Some(0x123),
            open: Vec::new(),
        });
        let d = r.s.cursor.details.clone().unwrap();
        assert_eq!(d.path, path);
        assert_eq!(Some(d.id), r.s.cursor.selected);
        assert_eq!(r.s.cursor.cursor, 0x123);
        // Its ancestors are open, so its row shows.
        assert!(d.crumbs.iter().all(|c| r.s.tree.open.contains(&c.0)));
        assert!(r.shown(d.id));
        // Restoring is not a jump (no new history entry); a go-to is.
        assert_eq!(r.s.cursor.jumps, jumps);
        r.act(CursorAction::Goto(0x40));
        assert_eq!(r.s.cursor.jumps, jumps + 1);
        // A path that names nothing says so.
        r.act(CursorAction::Restore {
            sha: String::new(),
            path: Some("Parts/[77]".into()),
            at: None,
            open: Vec::new(),
        });
        assert!(matches!(&r.s.load.status, Status::Failed(m) if m.contains("Parts/[77]")));
    }
}
