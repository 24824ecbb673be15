//! The compare slice (a panel's): the file the open one is compared with,
//! whose bytes stand beside the open file's in the hex pane. No core slice
//! reads it; the hex pane does.

use super::loading::LoadState;
use std::rc::Rc;

/// The file the open one is compared with: its bytes stand beside the open
/// file's in the hex pane, B's byte at A's offset plus `delta`.
#[derive(Debug, Clone)]
pub struct Other {
    /// B's bytes.
    pub bytes: Rc<crate::bytes::FileBytes>,
    /// B's offset minus A's, for the bytes side by side.
    pub delta: i64,
}

impl Other {
    /// The offset in B standing beside A's offset `o`, if B has it.
    pub fn beside(&self, o: u64) -> Option<u64> {
        let b = o as i128 + self.delta as i128;
        (0..self.bytes.len() as i128)
            .contains(&b)
            .then_some(b as u64)
    }

    /// Rows of 16 the hex pane needs for A (`a_len` bytes) and B side by
    /// side: to the end of whichever goes further.
    pub fn rows(&self, a_len: u64) -> u64 {
        let b_end = (self.bytes.len() as i128 - self.delta as i128).max(0) as u64;
        a_len.max(b_end).div_ceil(16)
    }
}

/// The comparison under way, if any.
#[derive(Debug, Clone, Default)]
pub struct CompareState {
    /// The file compared with the open one, its bytes beside the open file's.
    pub other: Option<Rc<Other>>,
}

/// What happens to the comparison.
#[derive(Debug, Clone)]
pub enum CompareAction {
    /// Show another file's bytes beside the open file's (a comparison), or
    /// stop (`None`).
    With(Option<Rc<crate::bytes::FileBytes>>),
    /// Line the compared file's bytes up with the open file's: B's offset
    /// minus A's for the bytes shown side by side.
    Align(i64),
}

impl CompareState {
    /// The slice after `action` (with the open file `load`), or `None` if
    /// nothing changed.
    pub fn apply(&self, action: CompareAction, load: &LoadState) -> Option<CompareState> {
        match action {
            CompareAction::With(bytes) => {
                load.doc.as_ref()?;
                if bytes.is_none() && self.other.is_none() {
                    return None;
                }
                Some(CompareState {
                    other: bytes.map(|bytes| Rc::new(Other { bytes, delta: 0 })),
                })
            }
            CompareAction::Align(delta) => {
                let o = self.other.as_ref().filter(|o| o.delta != delta)?;
                Some(CompareState {
                    other: Some(Rc::new(Other {
                        bytes: o.bytes.clone(),
                        delta,
                    })),
                })
            }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use crate::state::rig::*;
    use crate::state::*;

    #[test]
    fn a_compared_file_stands_beside_the_open_one_until_another_opens() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data.clone(), None);
        assert!(r.s.compare.other.is_none());
        assert!(!r.act(CompareAction::Align(4)), "nothing to line up");
        let b = Rc::new(FileBytes::new("b", data[..100].to_vec()));
        assert!(r.act(CompareAction::With(Some(b))));
        let o = r.s.compare.other.clone().unwrap();
        assert_eq!((o.delta, o.beside(99), o.beside(100)), (0, Some(99), None));
        assert_eq!(o.rows(data.len() as u64), (data.len() as u64).div_ceil(16));
        // Lined up by a node's starts: B's byte 0 beside A's byte 40.
        assert!(r.act(CompareAction::Align(-40)));
        let o = r.s.compare.other.clone().unwrap();
        assert_eq!(
            (o.beside(39), o.beside(40), o.beside(139)),
            (None, Some(0), Some(99))
        );
        assert!(!r.act(CompareAction::Align(-40)), "already lined up so");
        // B past A's end: the rows go on to B's end.
        let long = Rc::new(FileBytes::new("b", vec![0; data.len() + 40]));
        r.act(CompareAction::With(Some(long)));
        let o = r.s.compare.other.clone().unwrap();
        assert_eq!(
            o.rows(data.len() as u64),
            (data.len() as u64 + 40).div_ceil(16)
        );
        assert!(r.act(CompareAction::With(None)));
        assert!(r.s.compare.other.is_none());
        assert!(!r.act(CompareAction::With(None)));
        // Opening a file ends the comparison.
        r.act(CompareAction::With(Some(Rc::new(FileBytes::new(
            "b",
            vec![1],
        )))));
        let doc = Rc::new(Doc::pending(Rc::new(FileBytes::new("g", data)), 8));
        r.act(Action::Open(doc));
        assert!(r.s.compare.other.is_none());
    }
}
