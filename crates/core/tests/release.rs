//! Releasing opened groups under a memory budget: the least recently used go
//! first, what is being looked at stays, and a walk of the whole file that trims
//! after every opening sees exactly the eager tree while the tree stays within
//! the budget. Format-agnostic: run on the dense LLVM 1.x, cDAC, .dyno and
//! bitcode inputs the benchmarks use.

use hexlens_core::stream::streaming_options;
use hexlens_core::tree::{NodeId, Tree};
use hexlens_core::{decode_bytes, decode_with, expand, Decoded, Options};
use hexlens_testkit::generators::{bitstream as writer, cdac, dyno, llvm1};

fn paged(page: u32) -> Options {
    Options {
        page_size: Some(page),
        ..streaming_options()
    }
}

/// One line per node in depth-first order: depth (pages not counted), name,
/// kind, span, value, display and error. Page nodes give no line.
fn line(t: &Tree, id: NodeId, depth: usize) -> String {
    format!(
        "{depth} {} {} {:?} {:?} {:?} {:?}",
        t.name(id),
        t.kind(id).as_str(),
        t.span(id),
        t.value(id),
        t.display(id),
        t.error(id)
    )
}

/// The lines of an eager tree.
fn eager_lines(d: &Decoded) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![(d.tree.root(), 0usize)];
    while let Some((id, depth)) = stack.pop() {
        let t = &d.tree;
        let below = if t.is_page(id) {
            depth
        } else {
            out.push(line(t, id, depth));
            depth + 1
        };
        for &c in t.children(id).iter().rev() {
            stack.push((c, below));
        }
    }
    out
}

/// Node at `chain` (child indexes from the root, pages included), opening lazy
/// groups on the way as a viewer re-opening a released group would.
fn resolve(src: &[u8], t: &mut Tree, chain: &[usize]) -> NodeId {
    let mut cur = t.root();
    for &i in chain {
        if t.is_lazy(cur) {
            expand(&src, t, cur).unwrap();
        }
        cur = t.children(cur)[i];
    }
    cur
}

struct Walk {
    lines: Vec<String>,
    /// The most the tree held right after a trim.
    peak_after_trim: usize,
    /// Trims that released something.
    releases: usize,
    openings: usize,
}

/// Walks every node of `bytes` depth first, opening lazy groups when reached
/// and trimming the tree to `budget` after each opening, keeping the node being
/// looked at. Nodes are addressed by child-index chains, so a walk survives
/// the renumbering a release does.
fn bounded_walk(bytes: &[u8], opts: &Options, budget: usize) -> Walk {
    let mut d = decode_with(&bytes, opts);
    let mut w = Walk {
        lines: Vec::new(),
        peak_after_trim: 0,
        releases: 0,
        openings: 0,
    };
    let mut stack: Vec<(Vec<usize>, usize)> = vec![(Vec::new(), 0)];
    while let Some((chain, depth)) = stack.pop() {
        let mut id = resolve(bytes, &mut d.tree, &chain);
        if d.tree.is_lazy(id) {
            expand(&bytes, &mut d.tree, id).unwrap();
            w.openings += 1;
            d.tree.touch(id);
            let before = d.tree.len();
            let map = d.tree.trim(budget, Some(id));
            if !map.is_identity() || d.tree.len() != before {
                w.releases += 1;
            }
            id = map.get(id).expect("the node looked at is kept");
            w.peak_after_trim = w.peak_after_trim.max(d.tree.heap_bytes());
        }
        let t = &d.tree;
        let below = if t.is_page(id) {
            depth
        } else {
            w.lines.push(line(t, id, depth));
            depth + 1
        };
        for i in (0..t.children(id).len()).rev() {
            let mut c = chain.clone();
            c.push(i);
            stack.push((c, below));
        }
    }
    w
}

fn check_bounded_walk(what: &str, bytes: &[u8], page: u32, budget: usize) {
    let eager = decode_bytes(bytes);
    assert!(
        eager.tree.heap_bytes() > 8 * budget,
        "{what}: the eager tree ({} bytes) must dwarf the budget",
        eager.tree.heap_bytes()
    );
    let want = eager_lines(&eager);
    let w = bounded_walk(bytes, &paged(page), budget);
    assert!(w.openings > 20, "{what}: {} openings", w.openings);
    assert!(
        w.releases > 5,
        "{what}: {} trims released something",
        w.releases
    );
    assert!(
        w.peak_after_trim <= budget,
        "{what}: the tree held {} bytes after a trim to {budget}",
        w.peak_after_trim
    );
    assert_eq!(w.lines.len(), want.len(), "{what}: node count");
    if let Some(i) = (0..want.len()).find(|&i| w.lines[i] != want[i]) {
        panic!(
            "{what}: node {i} differs\n  walked: {}\n  eager:  {}",
            w.lines[i], want[i]
        );
    }
}

#[test]
fn a_walk_of_the_whole_file_within_a_budget_sees_the_eager_tree() {
    check_bounded_walk("LLVM 1.x, 600 functions", &llvm1::dense(600), 50, 256 << 10);
    // A page of 100 cDAC types is ~2,400 nodes.
    check_bounded_walk("cDAC, 3000 types", &cdac::dense(3000), 100, 512 << 10);
    check_bounded_walk(".dyno, 3000 symbols", &dyno::dense(3000), 100, 512 << 10);
    check_bounded_walk(
        "bitcode, 400 functions",
        &writer::dense_module(400),
        100,
        128 << 10,
    );
}

/// The first `n` lazy nodes of `t` (in creation order) that are not pages.
fn lazy_groups(t: &Tree, n: usize) -> Vec<NodeId> {
    (0..t.len() as NodeId)
        .filter(|&id| t.is_lazy(id) && !t.is_page(id))
        .take(n)
        .collect()
}

/// Opens the first lazy group of `d`, then the `n` lazy groups that follow
/// it, in turn; returns the first and the `n`.
fn open_groups(src: &[u8], d: &mut Decoded, n: usize) -> (NodeId, Vec<NodeId>) {
    let first = lazy_groups(&d.tree, 1)[0];
    expand(&src, &mut d.tree, first).unwrap();
    let groups = lazy_groups(&d.tree, n);
    assert_eq!(groups.len(), n);
    for &g in &groups {
        expand(&src, &mut d.tree, g).unwrap();
    }
    (first, groups)
}

/// The lines of the children of `id`.
fn kid_lines(t: &Tree, id: NodeId) -> Vec<String> {
    t.children(id).iter().map(|&k| line(t, k, 0)).collect()
}

#[test]
fn trimming_releases_the_least_recently_used_group_first_and_keeps_what_is_looked_at() {
    let bytes = llvm1::dense(300);
    let src = bytes.as_slice();
    let mut d = decode_with(&src, &paged(1000));
    // Open four groups in turn: w, a, b, c.
    let (first, fns) = open_groups(src, &mut d, 3);
    let paths: Vec<String> = fns.iter().map(|&f| d.tree.path(f)).collect();
    // Looking at w, then a, makes b the least recently used.
    d.tree.touch(first);
    d.tree.touch(fns[0]);
    let held = d.tree.heap_bytes();
    let map = d.tree.trim(held - 1, None);
    let open = |t: &Tree, p: &str| !t.is_lazy(t.find(p).unwrap());
    assert!(open(&d.tree, &paths[0]), "a was looked at last");
    assert!(!open(&d.tree, &paths[1]), "b was the least recently used");
    assert!(open(&d.tree, &paths[2]), "c was opened after b");
    assert!(d.tree.heap_bytes() < held);
    assert_eq!(map.get(first), Some(first), "w stays");
    // A budget of nothing releases everything but what holds the node kept.
    let c = d.tree.find(&paths[2]).unwrap();
    let deep = d.tree.children(c)[0];
    let map = d.tree.trim(0, Some(deep));
    let deep = map.get(deep).expect("kept");
    assert!(!open(&d.tree, &paths[0]));
    assert!(open(&d.tree, &paths[2]), "c holds the node kept");
    assert_eq!(d.tree.parent(deep), d.tree.find(&paths[2]));
    // Opened again, the groups are what they were.
    let a = d.tree.find(&paths[0]).unwrap();
    expand(&src, &mut d.tree, a).unwrap();
    let eager = decode_bytes(&bytes);
    let ea = eager.tree.find(&paths[0]).unwrap();
    let a = d.tree.find(&paths[0]).unwrap();
    assert_eq!(kid_lines(&d.tree, a), kid_lines(&eager.tree, ea));
}

#[test]
fn a_release_renumbers_the_nodes_after_it_and_says_where_they_went() {
    let bytes = cdac::dense(3000);
    let src = bytes.as_slice();
    let mut d = decode_with(&src, &paged(100));
    // Open two groups, then release the first (not the last opened: the
    // arenas are compacted and later nodes move).
    let (_, groups) = open_groups(src, &mut d, 2);
    let second_kids = kid_lines(&d.tree, groups[1]);
    let first_kid = d.tree.children(groups[1])[0];
    let len = d.tree.len();
    let map = d.tree.release(groups[0]).unwrap();
    assert!(d.tree.len() < len);
    assert!(d.tree.is_lazy(groups[0]));
    let moved = map
        .get(first_kid)
        .expect("a node of the other group survives");
    assert!(moved < first_kid, "it moved down: {first_kid} → {moved}");
    let g1 = map.get(groups[1]).unwrap();
    assert_eq!(kid_lines(&d.tree, g1), second_kids);
    assert_eq!(d.tree.parent(moved), Some(g1));
}
