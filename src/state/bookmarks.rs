//! The bookmarks slice (a panel's): the open file's bookmarks. The hex pane
//! tints their bytes; no core slice reads them.

use super::loading::LoadState;
use std::rc::Rc;

/// A named place in the open file: a node or a byte range, with a colour and
/// a note. Kept in the browser per file (by the file's SHA-256).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bookmark {
    /// Its name.
    pub name: String,
    /// First byte.
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
    /// The node's path, when it names a node (empty: a byte range).
    pub path: String,
    /// Colour number (`0..BOOKMARK_COLOURS`).
    pub colour: u8,
    /// A note.
    pub note: String,
}

/// How many bookmark colours there are (the style sheet's `.bm0`…).
pub const BOOKMARK_COLOURS: u8 = 6;

/// The open file's bookmarks.
#[derive(Debug, Clone, Default)]
pub struct BookmarkState {
    /// The bookmarks, in the panel's order.
    pub list: Rc<Vec<Bookmark>>,
}

/// What happens to the bookmarks.
#[derive(Debug, Clone)]
pub enum BookmarkAction {
    /// Replace the open file's bookmarks (added, removed, loaded, imported).
    Set(Rc<Vec<Bookmark>>),
}

impl BookmarkState {
    /// The slice after `action` (with the open file `load`), or `None` if
    /// nothing changed (or no file is open).
    pub fn apply(&self, action: BookmarkAction, load: &LoadState) -> Option<BookmarkState> {
        load.doc.as_ref()?;
        let BookmarkAction::Set(list) = action;
        (list != self.list).then_some(BookmarkState { list })
    }
}
