//! The page and its worker for the store's tests: the store, and a session
//! answering it over the wire form.

use super::*;
pub use crate::bytes::FileBytes;
pub use hexlens_core::session::Session;

pub fn sample(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/static/samples/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// The page and its worker: the store, and a session answering it over
/// the wire form, with the panes showing rows `[0, 40)` and bytes `[0, 640)`
/// unless a test scrolls them.
pub struct Rig {
    pub s: State,
    pub w: Session<Vec<u8>>,
    pub tree_first: u64,
    pub hex_first: u64,
    pub asked: usize,
}

impl Rig {
    pub fn new(data: Vec<u8>, tree: Option<hexlens_core::Tree>) -> Rig {
        let w = match tree {
            Some(t) => Session::with_tree(data.clone(), "dxcontainer", t),
            None => Session::open(data.clone()),
        };
        let doc = Rc::new(Doc::pending(Rc::new(FileBytes::new("f", data)), 7));
        let s = State::default().apply(Action::Open(doc)).unwrap();
        let mut r = Rig {
            s,
            w,
            tree_first: 0,
            hex_first: 0,
            asked: 0,
        };
        let a = r.w.opened(100);
        r.feed(&a);
        r.settle();
        r
    }

    pub fn feed(&mut self, a: &Answer) {
        let a = hexlens_core::protocol::Answer::decode(&a.encode()).unwrap();
        if let Some(s) = self.s.apply(Action::Answer {
            load: 7,
            answer: Rc::new(a),
        }) {
            self.s = s;
        }
    }

    pub fn act(&mut self, a: impl Into<Action>) -> bool {
        match self.s.apply(a.into()) {
            Some(s) => {
                self.s = s;
                self.settle();
                true
            }
            None => false,
        }
    }

    /// Answers what the store asks until it asks nothing more (the panes
    /// follow a reveal as they do on screen).
    pub fn settle(&mut self) {
        for _ in 0..50 {
            if let Some(r) = self.s.cursor.reveal.row {
                if r < self.tree_first || r >= self.tree_first + 40 {
                    self.tree_first = r.saturating_sub(10);
                }
            }
            if let Some(b) = self.s.cursor.reveal.byte {
                if b < self.hex_first || b >= self.hex_first + 640 {
                    self.hex_first = b / 16 * 16;
                }
            }
            let mut asks = self.s.wants();
            asks.extend(self.s.tree_wants(self.tree_first, 40));
            asks.extend(self.s.hex_wants(self.hex_first, self.hex_first + 640));
            if asks.is_empty() {
                return;
            }
            for q in asks {
                self.asked += 1;
                let a = match &q {
                    // The page sends these to the tools worker, which
                    // has no session (see `decoder::ask`).
                    Request::Search {
                        gen, query, max, ..
                    } if query.mode == hexlens_core::search::Mode::Structure => {
                        hexlens_core::session::structure_search(
                            self.w.source(),
                            *gen,
                            &query.text,
                            *max,
                            false,
                            &mut |_| {},
                        )
                    }
                    q => self.w.answer(q),
                };
                self.feed(&a);
            }
        }
        panic!("the store kept asking");
    }

    pub fn path(&self, id: NodeId) -> String {
        self.w.tree().path(id)
    }

    pub fn shown(&self, id: NodeId) -> bool {
        let r = &self.s.tree.rows.rows;
        self.s.rows_fresh() && r.rows.iter().any(|n| n.id == id)
    }
}

pub fn eager_tree(data: &[u8]) -> hexlens_core::Tree {
    hexlens_core::decode_bytes(data).tree
}
