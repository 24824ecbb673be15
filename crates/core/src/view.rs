//! Decoding for a viewer: what a person looking at a file needs first, and no
//! more.
//!
//! A viewer decodes with [`viewer_options`]: every part that can wait is lazy and
//! long lists come in pages, with no first pass over the whole file (counts a
//! group does not know until it is opened stay unknown). Opening a file then
//! costs what its top level costs, whatever its size.
//!
//! [`prefetch`] then opens small groups breadth first until a node budget is
//! spent, so a small file shows fully decoded at once and a big one shows its
//! top levels, its big groups waiting for the user to open them.

use crate::source::ByteSource;
use crate::stream::STREAM_PAGE;
use crate::tree::{NodeId, Tree};
use crate::Options;
use std::collections::VecDeque;

/// The options a viewer decodes with (see the module docs).
pub fn viewer_options() -> Options {
    Options {
        lazy_threshold: Some(0),
        page_size: Some(STREAM_PAGE),
        exact_totals: false,
        scan: false,
        skip_digests: false,
    }
}

/// How much [`prefetch`] opens.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Stop opening groups once the tree holds this many nodes.
    pub nodes: usize,
    /// Open only groups spanning at most this many bytes (what a group costs
    /// to decode grows with its bytes, unless it is a page).
    pub group_bytes: u64,
}

impl Default for Budget {
    /// About 50,000 nodes (a few milliseconds of decoding, a few MiB), groups of
    /// up to 256 KiB.
    fn default() -> Self {
        Budget {
            nodes: 50_000,
            group_bytes: 256 * 1024,
        }
    }
}

/// Opens lazy groups of `tree` breadth first (shallow ones first, in file order
/// within a level), skipping groups bigger than `budget.group_bytes`, until the
/// tree holds `budget.nodes` nodes or nothing small is left closed. A group that
/// fails to open stays closed. Returns the number of groups opened.
pub fn prefetch(src: &dyn ByteSource, tree: &mut Tree, budget: Budget) -> usize {
    let mut queue: VecDeque<NodeId> = VecDeque::new();
    queue.push_back(tree.root());
    let mut opened = 0;
    while let Some(id) = queue.pop_front() {
        if tree.len() >= budget.nodes {
            break;
        }
        if tree.is_lazy(id) {
            if tree.open_cost(id) > budget.group_bytes {
                continue;
            }
            if crate::expand(src, tree, id).is_err() {
                continue;
            }
            opened += 1;
        }
        queue.extend(tree.children(id).iter().copied());
    }
    opened
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(path: &str) -> Vec<u8> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/");
        std::fs::read(format!("{dir}{path}")).expect("fixture")
    }

    fn sample(name: &str) -> Vec<u8> {
        fixture(&format!("dxcontainer/curated/{name}"))
    }

    #[test]
    fn a_small_file_is_decoded_whole_by_the_prefetch() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let src = data.as_slice();
        let mut d = crate::decode_with(&src, &viewer_options());
        assert!(d.tree.nodes().iter().any(|n| n.lazy), "parts start lazy");
        assert!(prefetch(&src, &mut d.tree, Budget::default()) > 0);
        assert!(
            !d.tree.nodes().iter().any(|n| n.lazy),
            "nothing left closed"
        );
        // The same nodes as an eager decode (summaries written at open may
        // still say what was decoded then).
        let eager = crate::decode(&src);
        let shape = |t: &Tree| {
            let mut v: Vec<_> = (0..t.len() as NodeId)
                .filter(|&i| !t.is_page(i))
                .map(|i| (t.path(i), t.span(i), t.kind(i), t.value(i)))
                .collect();
            v.sort_by(|a, b| a.0.cmp(&b.0));
            v
        };
        assert_eq!(shape(&d.tree), shape(&eager.tree));
    }

    #[test]
    fn the_prefetch_stops_at_its_budgets() {
        let data = sample("basic_code_dxil.dxil.dxbc");
        let src = data.as_slice();
        let mut d = crate::decode_with(&src, &viewer_options());
        let before = d.tree.len();
        let tight = Budget {
            nodes: before + 1,
            group_bytes: u64::MAX,
        };
        prefetch(&src, &mut d.tree, tight);
        assert!(
            d.tree.nodes().iter().any(|n| n.lazy),
            "the budget left groups closed"
        );
        let mut d = crate::decode_with(&src, &viewer_options());
        let small = Budget {
            nodes: usize::MAX,
            group_bytes: 0,
        };
        assert_eq!(prefetch(&src, &mut d.tree, small), 0);
        assert_eq!(d.tree.len(), before);
    }

    #[test]
    fn a_group_that_reads_more_than_its_bytes_costs_what_it_reads() {
        // A .dyno header's hash is 32 bytes, but checking it reads the whole file.
        let data = fixture("chapel-dyno/spec_le.dyno");
        let src = data.as_slice();
        let mut d = crate::decode_with(&src, &viewer_options());
        let header = d.tree.find("Header/Sha256").expect("the header's hash");
        assert!(d.tree.is_lazy(header));
        assert!(d.tree.span(header).len_bits() / 8 < data.len() as u64);
        assert_eq!(d.tree.open_cost(header), data.len() as u64);
        let budget = Budget {
            nodes: usize::MAX,
            group_bytes: data.len() as u64 - 1,
        };
        prefetch(&src, &mut d.tree, budget);
        assert!(d.tree.is_lazy(header), "the prefetch leaves it to the user");
        let budget = Budget {
            nodes: usize::MAX,
            group_bytes: data.len() as u64,
        };
        prefetch(&src, &mut d.tree, budget);
        assert!(!d.tree.is_lazy(header));
    }
}
