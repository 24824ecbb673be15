//! The search slice (a panel's): the search bar, the last search, what it
//! found so far and the match shown. It reads the core slices (the open file,
//! the cursor) and none reads it: showing a match is a [`Jump`] the store
//! carries out in the cursor slice.

use super::loading::LoadState;
use hexlens_core::protocol::Answer;
use hexlens_core::protocol::Request;
use std::rc::Rc;

/// Matches kept by one search (more are not searched for).
pub const MAX_HITS: usize = 100_000;
/// Bytes one search step covers (the worker answers after each).
pub const SEARCH_STEP: u64 = 64 << 20;

/// A search of the open file's bytes: its query, what it found so far and how far
/// it got. The worker runs it one step at a time as the store asks (see
/// [`SearchState::wants`]), so it can be stopped between steps.
#[derive(Debug, Clone, PartialEq)]
pub struct Search {
    /// What is searched for.
    pub query: hexlens_core::search::Query,
    /// The needles' descriptions (`u32 LE`, `UTF-16BE`), by needle number.
    pub whats: Vec<String>,
    /// Search number (an answer of an older search is dropped).
    pub gen: u32,
    /// Matches so far, in file order (a structure search: in tree order).
    pub hits: Rc<Vec<hexlens_core::search::Hit>>,
    /// A structure search: each match's node path, by match.
    pub paths: Rc<Vec<String>>,
    /// Every match starting before this byte is in `hits`.
    pub reached: u64,
    /// A search done in one step (a structure search): how far it has read.
    pub progress: u64,
    /// Still searching (false: done, stopped, or stopped at [`MAX_HITS`]).
    pub running: bool,
    /// Why the query cannot be searched.
    pub error: Option<String>,
    /// The match shown (an index into `hits`).
    pub current: Option<usize>,
}

/// The search bar and the last search.
#[derive(Debug, Clone, Default)]
pub struct SearchState {
    /// The search bar is shown.
    pub open: bool,
    /// The last search.
    pub last: Option<Rc<Search>>,
}

/// What happens in the search bar and its list of matches.
#[derive(Debug, Clone)]
pub enum SearchAction {
    /// Show or hide the search bar.
    Bar(bool),
    /// Search the file for a query (replacing any search before).
    Find(hexlens_core::search::Query),
    /// Show the next (+1) or previous (-1) match, wrapping around.
    Move(i64),
    /// Show match number `i` (a click in the results list).
    Show(usize),
    /// A search done in one step (a structure search) has read `done` bytes
    /// of the file.
    Progress {
        /// Which load.
        load: u32,
        /// Bytes read.
        done: u64,
    },
    /// Stop searching (the matches found stay).
    Stop,
}

/// A match to show: the cursor goes to `at` and its owner is selected (as a
/// go-to does), or, for a structure match, the node at `path`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jump {
    /// The match's first byte.
    pub at: u64,
    /// A structure match's node path.
    pub path: Option<String>,
}

impl SearchState {
    /// The slice after `action` (with the open file `load` and the hex cursor
    /// at `cursor`) and the match it shows, or `None` if nothing changed.
    pub fn apply(
        &self,
        action: SearchAction,
        load: &LoadState,
        cursor: u64,
    ) -> Option<(SearchState, Option<Jump>)> {
        match action {
            SearchAction::Bar(open) => Some((
                SearchState {
                    open,
                    ..self.clone()
                },
                None,
            )),
            SearchAction::Find(query) => {
                // The same query again goes to the next match.
                if self
                    .last
                    .as_ref()
                    .is_some_and(|x| x.query == query && x.error.is_none() && !x.hits.is_empty())
                {
                    return self.apply(SearchAction::Move(1), load, cursor);
                }
                // The worker checks the query (the page links no query parser)
                // and says what it searches for with its first answer.
                let gen = self.last.as_ref().map_or(1, |x| x.gen.wrapping_add(1));
                let search = Search {
                    running: load.doc.is_some(),
                    query,
                    whats: Vec::new(),
                    gen,
                    hits: Rc::new(Vec::new()),
                    paths: Rc::new(Vec::new()),
                    reached: 0,
                    progress: 0,
                    error: None,
                    current: None,
                };
                Some((
                    SearchState {
                        open: true,
                        last: Some(Rc::new(search)),
                    },
                    None,
                ))
            }
            SearchAction::Move(step) => {
                let x = self.last.as_ref()?;
                let n = x.hits.len();
                if n == 0 {
                    return None;
                }
                let i = match x.current {
                    Some(c) => (c as i64 + step).rem_euclid(n as i64) as usize,
                    // The first match at or after the cursor (or before it, going back).
                    None => {
                        let after = x.hits.partition_point(|h| h.start < cursor);
                        if step >= 0 {
                            after % n
                        } else {
                            (after + n - 1) % n
                        }
                    }
                };
                self.show(i)
            }
            SearchAction::Show(i) => self.show(i),
            SearchAction::Progress { load: l, done } => {
                let x = self.last.as_ref().filter(|x| x.running)?;
                if load.load() != Some(l) || done <= x.progress {
                    return None;
                }
                Some((
                    self.with(Search {
                        progress: done,
                        ..(**x).clone()
                    }),
                    None,
                ))
            }
            SearchAction::Stop => {
                let x = self.last.as_ref().filter(|x| x.running)?;
                Some((
                    self.with(Search {
                        running: false,
                        ..(**x).clone()
                    }),
                    None,
                ))
            }
        }
    }

    fn with(&self, search: Search) -> SearchState {
        SearchState {
            last: Some(Rc::new(search)),
            ..self.clone()
        }
    }

    /// Makes match `i` the current one, and the place to show it.
    pub fn show(&self, i: usize) -> Option<(SearchState, Option<Jump>)> {
        let x = self.last.as_ref()?;
        let h = *x.hits.get(i)?;
        let jump = Jump {
            at: h.start,
            path: x.paths.get(i).cloned(),
        };
        Some((
            self.with(Search {
                current: Some(i),
                ..(**x).clone()
            }),
            Some(jump),
        ))
    }

    /// Takes in a step's matches (a [`Answer::Found`]) in a file of `size`
    /// bytes; `None` if it is not the running search's next step.
    pub fn answered(&self, a: &Answer, size: u64) -> Option<SearchState> {
        let Answer::Found {
            gen,
            from,
            found,
            error,
            whats,
            paths,
            ..
        } = a
        else {
            return None;
        };
        let x = self.last.as_ref()?;
        if x.gen != *gen || x.reached != *from || !x.running {
            return None;
        }
        let mut hits = (*x.hits).clone();
        hits.extend_from_slice(&found.hits);
        hits.truncate(MAX_HITS);
        let reached = found.reached.max(*from);
        Some(self.with(Search {
            running: error.is_none() && reached < size && hits.len() < MAX_HITS && reached > *from,
            error: error.clone(),
            whats: whats.clone(),
            paths: if paths.is_empty() {
                x.paths.clone()
            } else {
                let mut p = (*x.paths).clone();
                p.extend(paths.iter().cloned());
                p.truncate(MAX_HITS);
                Rc::new(p)
            },
            hits: Rc::new(hits),
            reached,
            ..(**x).clone()
        }))
    }

    /// The running search's next step in a file of `size` bytes.
    pub fn wants(&self, size: u64) -> Option<Request> {
        let x = self.last.as_ref().filter(|x| x.running)?;
        Some(Request::Search {
            gen: x.gen,
            query: x.query.clone(),
            from: x.reached,
            to: x.reached.saturating_add(SEARCH_STEP).min(size),
            max: (MAX_HITS - x.hits.len().min(MAX_HITS)) as u32,
        })
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use crate::state::rig::*;
    use crate::state::*;

    #[test]
    fn a_search_finds_every_match_shows_the_first_and_moves_through_them() {
        use hexlens_core::search::{Mode, Query};
        let data = sample("basic_code_dxil.dxil.dxbc");
        let want: Vec<u64> = data
            .windows(4)
            .enumerate()
            .filter(|(_, w)| w == b"DXIL")
            .map(|(i, _)| i as u64)
            .collect();
        assert!(want.len() >= 2, "{want:?}");
        let mut r = Rig::new(data.clone(), None);
        r.act(SearchAction::Find(Query::new(Mode::Hex, "44 58 49 4C")));
        let x = r.s.search.last.clone().unwrap();
        assert!(!x.running && x.error.is_none());
        assert_eq!(x.reached, data.len() as u64);
        let got: Vec<u64> = x.hits.iter().map(|h| h.start).collect();
        assert_eq!(got, want);
        // The first match is shown: the cursor on it, its owner selected.
        assert_eq!(x.current, Some(0));
        assert_eq!(r.s.cursor.cursor, want[0]);
        assert!(r.s.cursor.selected.is_some());
        r.act(SearchAction::Move(1));
        assert_eq!(r.s.cursor.cursor, want[1]);
        assert_eq!(r.s.search.last.as_ref().unwrap().current, Some(1));
        r.act(SearchAction::Move(-1));
        r.act(SearchAction::Move(-1));
        assert_eq!(
            r.s.cursor.cursor,
            *want.last().unwrap(),
            "going back wraps around"
        );
        // A query that cannot be searched says why and asks the worker nothing.
        r.act(SearchAction::Find(Query::new(Mode::Number, "12abc")));
        let x = r.s.search.last.clone().unwrap();
        assert!(x.error.is_some() && !x.running && x.hits.is_empty());
        assert!(!r
            .s
            .wants()
            .iter()
            .any(|w| matches!(w, Request::Search { .. })));
    }

    #[test]
    fn a_stopped_search_keeps_its_matches_and_asks_no_more() {
        use hexlens_core::search::{Mode, Query};
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data, None);
        // Start a search without answering it, then stop it.
        r.s =
            r.s.apply(SearchAction::Find(Query::new(Mode::Hex, "44 58")).into())
                .unwrap();
        assert!(r
            .s
            .wants()
            .iter()
            .any(|w| matches!(w, Request::Search { .. })));
        r.s = r.s.apply(SearchAction::Stop.into()).unwrap();
        assert!(!r
            .s
            .wants()
            .iter()
            .any(|w| matches!(w, Request::Search { .. })));
        let x = r.s.search.last.clone().unwrap();
        assert!(!x.running && x.reached == 0);
    }

    #[test]
    fn a_structure_search_goes_through_its_nodes_selecting_each() {
        use hexlens_core::search::{Mode, Query};
        let data = sample("basic_code_dxil.dxil.dxbc");
        let mut r = Rig::new(data.clone(), None);
        r.act(SearchAction::Find(Query::new(
            Mode::Structure,
            "Parts/*/Name",
        )));
        let x = r.s.search.last.clone().unwrap();
        assert!(!x.running && x.error.is_none());
        let eager = hexlens_core::decode_bytes(&data);
        let parts = eager.tree.find("Parts").unwrap();
        let want: Vec<String> = eager
            .tree
            .children(parts)
            .iter()
            .map(|&p| format!("{}/Name", eager.tree.path(p)))
            .collect();
        assert_eq!(*x.paths, want);
        assert_eq!(x.hits.len(), want.len());
        for (i, p) in want.iter().enumerate() {
            if i > 0 {
                r.act(SearchAction::Move(1));
            }
            let d = r.s.cursor.details.clone().unwrap();
            assert_eq!(&d.path, p, "match {i}");
            assert_eq!(Some(d.id), r.s.cursor.selected);
            assert_eq!(r.s.search.last.as_ref().unwrap().current, Some(i));
        }
        // A match picked from the list, out of order.
        for i in [3, 0, want.len() - 1] {
            r.act(SearchAction::Show(i));
            assert_eq!(r.s.cursor.details.clone().unwrap().path, want[i]);
            assert_eq!(r.s.search.last.as_ref().unwrap().current, Some(i));
        }
        // One past the end is no match: nothing changes.
        let before = r.s.search.last.as_ref().unwrap().current;
        assert!(r.s.apply(SearchAction::Show(want.len()).into()).is_none());
        assert_eq!(r.s.search.last.as_ref().unwrap().current, before);
    }
}
