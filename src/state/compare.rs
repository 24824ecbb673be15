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

/// One row of the merged tree the comparison panel lists, as the tools
/// module's answer carries it.
pub use hexlens_core::protocol::MergedRow as DiffRow;

/// The panel's list: the merged tree's rows and which of them show.
#[derive(Clone, Debug, Default)]
pub struct DiffList {
    /// Every row.
    pub rows: Rc<Vec<DiffRow>>,
    /// The rows shown (indices into `rows`), as the filter and folds leave them.
    pub shown: Vec<usize>,
    /// The row selected (an index into `rows`).
    pub current: Option<usize>,
    /// Rows folded (their descendants hidden), by row.
    pub folded: Vec<bool>,
}

impl DiffList {
    /// Works out which rows show (`only`: not those of nodes that are the same).
    fn refilter(&mut self, only: bool) {
        self.shown.clear();
        // Depth below which rows are hidden by a fold.
        let mut hide_below: Option<u32> = None;
        for (i, r) in self.rows.iter().enumerate() {
            if let Some(d) = hide_below {
                if r.depth > d {
                    continue;
                }
                hide_below = None;
            }
            if only && r.mark == "same" {
                continue;
            }
            self.shown.push(i);
            if self.folded[i] {
                hide_below = Some(r.depth);
            }
        }
    }

    /// True if row `i` has rows below it.
    pub fn has_children(&self, i: usize) -> bool {
        self.rows
            .get(i + 1)
            .is_some_and(|n| n.depth > self.rows[i].depth)
    }

    /// Unfolds the rows above row `i`, so it shows.
    fn unfold_to(&mut self, i: usize) {
        let mut depth = self.rows[i].depth;
        for j in (0..i).rev() {
            if self.rows[j].depth < depth {
                self.folded[j] = false;
                depth = self.rows[j].depth;
            }
        }
    }
}

/// The comparison under way, if any, and its panel.
#[derive(Debug, Clone)]
pub struct CompareState {
    /// The file compared with the open one, its bytes beside the open file's.
    pub other: Option<Rc<Other>>,
    /// The panel is shown.
    pub panel: bool,
    /// The merged tree's rows the panel lists.
    pub list: Rc<DiffList>,
    /// Grows with every change of `list` (the panel redraws it).
    pub seq: u32,
    /// The last change of `list` scrolls its selected row into view.
    pub reveal: bool,
    /// Hide the rows of nodes that are the same (the panel's checkbox, which
    /// keeps its state while the page lives).
    pub only: bool,
    /// The last run of differing bytes shown, in A.
    pub run: Option<(u64, u64)>,
    /// A file picked to compare with while the open file was still being
    /// decoded: compared once it is.
    pub waiting: Option<Rc<crate::bytes::FileBytes>>,
    /// A bundled sample to compare the file about to open with, once it is
    /// decoded (`?sample=A&compare=B`).
    pub later: Option<String>,
}

impl Default for CompareState {
    fn default() -> Self {
        CompareState {
            other: None,
            panel: false,
            list: Rc::default(),
            seq: 0,
            reveal: false,
            only: true,
            run: None,
            waiting: None,
            later: None,
        }
    }
}

/// What happens to the comparison.
#[derive(Debug, Clone)]
pub enum CompareAction {
    /// Compare with another file, its bytes beside the open file's (the
    /// panel shows, empty until the rows come), or end the comparison
    /// (`None`: the panel hides).
    With(Option<Rc<crate::bytes::FileBytes>>),
    /// Compare with this file once the open one is decoded (the panel shows).
    Wait(Rc<crate::bytes::FileBytes>),
    /// Compare the file about to open with this bundled sample once it is
    /// decoded (`None`: that is under way).
    Later(Option<String>),
    /// Line the compared file's bytes up with the open file's: B's offset
    /// minus A's for the bytes shown side by side.
    Align(i64),
    /// The merged tree's rows arrived.
    Rows(Vec<DiffRow>),
    /// Select row `i` (shown, unfolding what hides it).
    Pick(usize),
    /// Fold or unfold row `i`.
    Fold(usize),
    /// Hide (true) or show the rows of nodes that are the same.
    Only(bool),
    /// A run of differing bytes `[start, end)` in A is shown.
    Run(u64, u64),
}

impl CompareState {
    /// The slice after `action` (with the open file `load`), or `None` if
    /// nothing changed.
    pub fn apply(&self, action: CompareAction, load: &LoadState) -> Option<CompareState> {
        let mut c = self.clone();
        match action {
            CompareAction::With(bytes) => {
                load.doc.as_ref()?;
                if bytes.is_none() && self.other.is_none() && !self.panel {
                    return None;
                }
                c.panel = bytes.is_some();
                c.other = bytes.map(|bytes| Rc::new(Other { bytes, delta: 0 }));
                c.waiting = None;
                c.run = None;
                c.set_list(DiffList::default(), false);
            }
            CompareAction::Wait(bytes) => {
                c.panel = true;
                c.waiting = Some(bytes);
            }
            CompareAction::Later(name) => c.later = name,
            CompareAction::Align(delta) => {
                let o = self.other.as_ref().filter(|o| o.delta != delta)?;
                c.other = Some(Rc::new(Other {
                    bytes: o.bytes.clone(),
                    delta,
                }));
            }
            CompareAction::Rows(rows) => {
                let list = DiffList {
                    folded: vec![false; rows.len()],
                    rows: Rc::new(rows),
                    ..DiffList::default()
                };
                c.set_list(list, false);
            }
            CompareAction::Pick(i) => {
                self.list.rows.get(i)?;
                let mut list = (*self.list).clone();
                list.current = Some(i);
                list.unfold_to(i);
                c.set_list(list, true);
            }
            CompareAction::Fold(i) => {
                let mut list = (*self.list).clone();
                let f = list.folded.get_mut(i)?;
                *f = !*f;
                c.set_list(list, false);
            }
            CompareAction::Only(only) => {
                c.only = only;
                c.set_list((*self.list).clone(), true);
            }
            CompareAction::Run(start, end) => c.run = Some((start, end)),
        }
        Some(c)
    }

    /// Puts `list` in the panel, its rows filtered as the panel says.
    fn set_list(&mut self, mut list: DiffList, reveal: bool) {
        list.refilter(self.only);
        self.list = Rc::new(list);
        self.seq = self.seq.wrapping_add(1);
        self.reveal = reveal;
    }

    /// What of the slice outlives the open file: the checkbox's state, and a
    /// comparison the address asks for of the file about to open.
    pub fn reopened(&self) -> CompareState {
        CompareState {
            only: self.only,
            later: self.later.clone(),
            // The panel's list empties (a change like any other).
            seq: self.seq.wrapping_add(1),
            ..CompareState::default()
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

    #[test]
    fn the_panel_lists_the_merged_tree_as_its_filter_and_folds_leave_it() {
        let row = |depth, mark: &str| DiffRow {
            depth,
            mark: mark.into(),
            text: String::new(),
            path: String::new(),
            difference: None,
            align: (0, 0),
        };
        let rows = vec![
            row(0, "inside"),
            row(1, "same"),
            row(1, "inside"),
            row(2, "added"),
        ];
        let act = |s: &State, a: CompareAction| s.apply(a.into()).unwrap();
        let shown = |s: &State| s.compare.list.shown.clone();
        let s = act(&State::default(), CompareAction::Rows(rows));
        assert_eq!(shown(&s), [0, 2, 3], "only the differences at first");
        let s = act(&s, CompareAction::Fold(2));
        assert_eq!(shown(&s), [0, 2]);
        assert!(!s.compare.reveal);
        // Picking a folded row unfolds what hides it and scrolls to it.
        let seq = s.compare.seq;
        let s = act(&s, CompareAction::Pick(3));
        assert_eq!(
            (shown(&s), s.compare.list.current),
            (vec![0, 2, 3], Some(3))
        );
        assert!(s.compare.reveal && s.compare.seq != seq);
        assert!(s.apply(CompareAction::Pick(4).into()).is_none(), "no row 4");
        let s = act(&s, CompareAction::Only(false));
        assert_eq!(shown(&s), [0, 1, 2, 3]);
        // Another file: the list empties, the checkbox's state stays.
        let doc = Rc::new(Doc::pending(Rc::new(FileBytes::new("g", vec![0])), 2));
        let s = s.apply(Action::Open(doc)).unwrap();
        assert!(s.compare.list.rows.is_empty() && !s.compare.only);
    }
}
