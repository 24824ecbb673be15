//! The loading slice: the open file, how its loading and decoding go, and
//! how far the worker's tree is decoded.

use crate::doc::Doc;
use hexlens_core::protocol::Version;
use std::rc::Rc;

/// Loading state of the file slot.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Status {
    /// Nothing is happening.
    #[default]
    Idle,
    /// Reading or fetching the named file.
    Loading(String),
    /// The decoder is working: bytes read so far out of the file's size.
    Decoding {
        /// Bytes read.
        done: u64,
        /// File size.
        total: u64,
    },
    /// The user stopped the decoder; the bytes are shown without structure.
    Cancelled,
    /// The last load failed (the message is shown as text).
    Failed(String),
    /// The decoder crashed; the bytes are still shown (the message is text).
    Crashed(String),
}

/// The open file and how its loading goes.
#[derive(Debug, Clone, Default)]
pub struct LoadState {
    /// The open file.
    pub doc: Option<Rc<Doc>>,
    /// Loading / error state.
    pub status: Status,
    /// How far the worker's tree is decoded (from its latest answer).
    pub version: Version,
    /// Grows whenever file bytes arrive (rows that waited for them redraw).
    pub bytes_epoch: u32,
}

/// What happens to the loading of a file (opening one is
/// [`super::Action::Open`]: it starts every slice afresh).
#[derive(Debug, Clone)]
pub enum LoadAction {
    /// Reading a file started.
    Loading(String),
    /// Reading a file failed.
    Failed(String),
    /// The decoder has read `done` of `total` bytes.
    Progress {
        /// Which load.
        load: u32,
        /// Bytes read.
        done: u64,
        /// File size.
        total: u64,
    },
    /// The decoder could not do what was asked.
    DecodeFailed {
        /// Which load.
        load: u32,
        /// Why (shown as text).
        message: String,
    },
    /// The decoder crashed (shown as text); the bytes stay on screen.
    Crashed(String),
    /// The user stopped decoding.
    Cancel,
    /// Requested file bytes arrived: redraw what shows bytes.
    BytesArrived,
}

impl LoadState {
    /// The open file's load number.
    pub fn load(&self) -> Option<u32> {
        self.doc.as_ref().map(|d| d.load)
    }

    /// The open file's size (0: none is open).
    pub fn size(&self) -> u64 {
        self.doc.as_ref().map_or(0, |d| d.bytes.len())
    }

    /// True if the open file's tree is decoded (its structure can be shown).
    pub fn decoded(&self) -> bool {
        self.doc.as_ref().is_some_and(|d| d.is_decoded())
    }

    /// True if the decoder holds the open file's tree and can be asked about
    /// it (not after it crashed: the bytes stay, the structure shown stays as
    /// it was).
    pub fn can_ask(&self) -> bool {
        self.decoded() && !matches!(self.status, Status::Crashed(_))
    }

    /// The slice after `action`, or `None` if nothing changed.
    pub fn apply(&self, action: LoadAction) -> Option<LoadState> {
        let status = match action {
            LoadAction::Loading(name) => Status::Loading(name),
            LoadAction::Failed(msg) => Status::Failed(msg),
            LoadAction::Progress { load, done, total } => {
                let doc = self.doc.as_ref()?;
                if doc.load != load
                    || doc.is_decoded()
                    || !matches!(self.status, Status::Decoding { .. })
                {
                    return None;
                }
                Status::Decoding { done, total }
            }
            LoadAction::DecodeFailed { load, message } => {
                if self.load() != Some(load) {
                    return None;
                }
                Status::Failed(message)
            }
            LoadAction::Crashed(message) => Status::Crashed(message),
            LoadAction::Cancel => {
                if self.doc.as_ref()?.is_decoded() {
                    return None;
                }
                Status::Cancelled
            }
            LoadAction::BytesArrived => {
                return Some(LoadState {
                    bytes_epoch: self.bytes_epoch.wrapping_add(1),
                    ..self.clone()
                })
            }
        };
        Some(LoadState {
            status,
            ..self.clone()
        })
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use crate::state::rig::*;
    use crate::state::*;

    #[test]
    fn a_pending_file_becomes_what_the_worker_says() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let bytes = Rc::new(FileBytes::new("f", data.clone()));
        let s = State::default()
            .apply(Action::Open(Rc::new(Doc::pending(bytes, 7))))
            .unwrap();
        assert!(matches!(s.load.status, Status::Decoding { done: 0, .. }));
        assert!(!s.load.doc.as_ref().unwrap().is_decoded());
        assert!(
            !s.load.doc.as_ref().unwrap().is_raw(),
            "not called raw before decoding"
        );
        assert!(
            s.tree_wants(0, 40).is_none(),
            "nothing to ask before decoding"
        );
        let s = s
            .apply(Action::Load(LoadAction::Progress {
                load: 7,
                done: 100,
                total: data.len() as u64,
            }))
            .unwrap();
        assert_eq!(
            s.load.status,
            Status::Decoding {
                done: 100,
                total: data.len() as u64
            }
        );
        // Reports about another load change nothing.
        assert!(s
            .apply(Action::Load(LoadAction::Progress {
                load: 6,
                done: 5,
                total: 9
            }))
            .is_none());
        let w = Session::open(data.clone());
        let a = Rc::new(w.opened(100));
        assert!(s
            .apply(Action::Answer {
                load: 6,
                answer: a.clone()
            })
            .is_none());
        let s = s
            .apply(Action::Answer {
                load: 7,
                answer: a.clone(),
            })
            .unwrap();
        let doc = s.load.doc.clone().unwrap();
        assert!(doc.is_decoded());
        assert_eq!(s.load.status, Status::Idle);
        assert_eq!(doc.format, "dxcontainer");
        assert_eq!(s.load.version.nodes, w.tree().len() as u64);
        assert_eq!(s.tree.rows.rows.rows[0].id, w.tree().root());
        // A second answer for the same load is ignored.
        assert!(s.apply(Action::Answer { load: 7, answer: a }).is_none());
    }

    #[test]
    fn after_a_crash_the_decoder_is_not_asked_again() {
        let mut r = Rig::new(sample("basic_code_dxil.dxil.dxbc"), None);
        assert!(r.s.tree_wants(500, 40).is_some() || r.s.tree.rows.rows.total < 500);
        r.s =
            r.s.apply(LoadAction::Crashed("boom".into()).into())
                .unwrap();
        assert!(r.s.tree_wants(0, 4000).is_none());
        assert!(r.s.hex_wants(1 << 20, 2 << 20).is_none());
        r.s = r.s.apply(CursorAction::ClickByte(3).into()).unwrap();
        assert!(r.s.wants().is_empty());
        assert!(matches!(r.s.load.status, Status::Crashed(_)));
    }
}
