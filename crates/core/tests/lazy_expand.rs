//! Lazy decoding: a tree decoded with a lazy threshold, whose lazy nodes are then
//! expanded one by one until none is left, is the tree the eager decode gives
//! (for every DXIL sample of the corpus and for generated streams with nested big
//! blocks); a tree mirrored through `Tree::from_nodes` / `Tree::apply_expansion`
//! ends up equal to the one that did the expanding; malformed mirrors are refused;
//! a huge block is skipped without reading it.

use hexlens_core::{decode, decode_with, expand, BitSpan, ByteSource, NodeId, Options, Tree};
use hexlens_testkit::{generators::bitstream as writer, invariants, repo};
use std::cell::Cell;
use writer::{Op, Writer};

/// One node's fields that must match, in a form that compares.
#[derive(Debug, PartialEq)]
struct Seen {
    path: String,
    kind: &'static str,
    span: BitSpan,
    value: Option<String>,
    display: Option<String>,
    error: Option<String>,
    reference: Option<BitSpan>,
    damaged: bool,
    lazy: bool,
    children: usize,
}

/// The bitcode summary (`LLVM bitcode, N bytes: … decoded so far; K blocks not
/// decoded yet`) counts only what the lazy decode decoded, and expanding does not
/// rewrite it: it is the one display allowed to differ from the eager tree's.
fn is_partial_summary(display: Option<&str>) -> bool {
    display.is_some_and(|d| d.starts_with("LLVM bitcode, ") && d.contains(" decoded so far; "))
}

/// The tree in child order, one entry a node; the partial bitcode summary is
/// replaced by a marker (counted in `partial`).
fn canonical(t: &Tree, partial: &mut usize) -> Vec<Seen> {
    let mut out = Vec::new();
    t.walk(|id, _| {
        let n = t.node(id);
        let mut display = n.display.as_deref().map(str::to_string);
        if is_partial_summary(n.display.as_deref()) {
            *partial += 1;
            display = Some("LLVM bitcode summary".into());
        }
        out.push(Seen {
            path: t.path(id),
            kind: n.kind.as_str(),
            span: n.span,
            value: n.value.as_ref().map(|v| format!("{v:?}")),
            display,
            error: n.error.as_deref().map(str::to_string),
            reference: n.reference,
            damaged: n.damaged,
            lazy: n.lazy,
            children: n.children.len(),
        })
    });
    out
}

/// The eager tree, with each bitcode summary replaced by the marker where the lazy
/// tree had a partial one.
fn canonical_eager(t: &Tree, lazy_partials: &[String]) -> Vec<Seen> {
    let mut unused = 0;
    let mut out = canonical(t, &mut unused);
    for s in &mut out {
        if lazy_partials.contains(&s.path) {
            assert!(
                s.display
                    .as_deref()
                    .is_some_and(|d| d.starts_with("LLVM bitcode, ")),
                "{}: {:?}",
                s.path,
                s.display
            );
            s.display = Some("LLVM bitcode summary".into());
        }
    }
    out
}

fn first_difference(a: &[Seen], b: &[Seen]) -> String {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return format!("lazy+expanded:\n{x:#?}\neager:\n{y:#?}");
        }
    }
    format!("{} nodes vs {} nodes", a.len(), b.len())
}

/// Lazy nodes have no children; nothing else is lazy.
fn check_lazy_nodes(t: &Tree) -> Result<(), String> {
    for (i, n) in t.nodes().iter().enumerate() {
        if n.lazy && !n.children.is_empty() {
            return Err(format!("lazy node {} has children", t.path(i as NodeId)));
        }
        if n.lazy && n.span.is_empty() {
            return Err(format!("lazy node {} claims no bits", t.path(i as NodeId)));
        }
    }
    Ok(())
}

/// Decodes `src` lazily with `threshold`, expands every lazy node (first in the
/// arena first, repeatedly, until none is left) while a mirror tree follows along,
/// and checks the result against the eager decode. Returns how many expansions
/// were done.
fn expand_all_and_compare(src: &dyn ByteSource, threshold: u64, what: &str) -> usize {
    let eager = decode(src);
    let mut lazy = decode_with(
        src,
        &Options {
            lazy_threshold: Some(threshold),
            ..Default::default()
        },
    );
    assert_eq!(lazy.format, eager.format, "{what}");
    assert_eq!(lazy.tree.lazy_threshold(), Some(threshold));
    invariants::check(&lazy, src.len()).unwrap_or_else(|e| panic!("{what}: lazy tree: {e}"));
    check_lazy_nodes(&lazy.tree).unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut mirror = Tree::from_nodes(lazy.tree.nodes())
        .unwrap_or_else(|e| panic!("{what}: mirror refused: {e}"));
    let mut partials = Vec::new();
    for (i, n) in lazy.tree.nodes().iter().enumerate() {
        if is_partial_summary(n.display.as_deref()) {
            partials.push(lazy.tree.path(i as NodeId));
        }
    }
    let mut expansions = 0;
    let mut next = 0;
    while let Some(id) = lazy.tree.next_lazy(next) {
        next = id;
        let before = lazy.tree.len();
        let range = expand(src, &mut lazy.tree, id)
            .unwrap_or_else(|e| panic!("{what}: expanding {}: {e}", lazy.tree.path(id)));
        assert_eq!(range.start as usize, before, "{what}");
        assert_eq!(range.end as usize, lazy.tree.len(), "{what}");
        assert!(!lazy.tree.node(id).lazy, "{what}");
        assert!(
            expand(src, &mut lazy.tree, id).is_err(),
            "{what}: a node expands only once"
        );
        let node = lazy.tree.node(id).clone();
        let new_nodes = lazy.tree.nodes_in(range.clone());
        mirror
            .apply_expansion(id, node, new_nodes)
            .unwrap_or_else(|e| panic!("{what}: mirror refused expansion of {id}: {e}"));
        expansions += 1;
    }
    assert_eq!(lazy.tree.lazy_count(), 0, "{what}");
    invariants::check(&lazy, src.len()).unwrap_or_else(|e| panic!("{what}: expanded tree: {e}"));
    let mut n_partial = 0;
    let got = canonical(&lazy.tree, &mut n_partial);
    assert_eq!(n_partial, partials.len(), "{what}");
    let want = canonical_eager(&eager.tree, &partials);
    assert!(
        got == want,
        "{what}: the expanded tree differs from the eager one: {}",
        first_difference(&got, &want)
    );
    let mut unused = 0;
    let mirrored = canonical(&mirror, &mut unused);
    let mut unused = 0;
    assert!(
        mirrored == canonical(&lazy.tree, &mut unused),
        "{what}: the mirror differs from the expanded tree"
    );
    assert_eq!(mirror.len(), lazy.tree.len(), "{what}");
    expansions
}

#[test]
fn every_dxil_sample_expanded_block_by_block_equals_its_eager_decode() {
    let dir = repo::shared_dir().join("samples").join("dxcontainer");
    let files = repo::files_with_suffix(&dir, "");
    let mut with_bitcode = 0;
    let mut with_dxil = 0;
    let mut expansions = 0;
    let mut files_seen = 0;
    for path in &files {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        if !bytes.starts_with(b"DXBC") {
            continue;
        }
        files_seen += 1;
        let src: &[u8] = &bytes;
        let n = expand_all_and_compare(&src, 64, &path.display().to_string());
        let dxil = decode(&src)
            .tree
            .nodes()
            .iter()
            .any(|n| n.name.to_string() == "DXIL");
        with_dxil += dxil as usize;
        if n > 0 {
            assert!(dxil, "{}: lazy blocks without bitcode", path.display());
            with_bitcode += 1;
        }
        expansions += n;
    }
    println!(
        "{files_seen} containers, {with_dxil} with DXIL bitcode, {with_bitcode} with lazy blocks, {expansions} expansions"
    );
    assert!(
        files_seen > 1000,
        "only {files_seen} containers found in {}",
        dir.display()
    );
    assert!(
        with_dxil > 400,
        "only {with_dxil} containers hold DXIL bitcode"
    );
    // Every DXIL module has blocks below the top level of 64 bytes or more.
    assert_eq!(with_bitcode, with_dxil);
}

/// A module whose function blocks are big, each holding a big constants block and
/// a value symbol table that uses a BLOCKINFO abbreviation, with local
/// abbreviations, char6 arrays and blobs; one small function stays eager.
fn nested_stream() -> Vec<u8> {
    let mut w = Writer::new();
    w.enter(13, 5)
        .define_abbrev(&[Op::Literal(1), Op::Array, Op::Char6])
        .abbrev_id(4)
        .vbr(6, 6);
    for &c in b"LLVM37" {
        w.fixed(Writer::char6(c), 6);
    }
    w.record(2, &[0]).end_block();
    w.enter(8, 3);
    // BLOCKINFO: an abbreviation for VALUE_SYMTAB (14) and for CONSTANTS (11).
    w.enter(0, 2)
        .record(1, &[14])
        .define_abbrev(&[Op::Fixed(3), Op::Vbr(8), Op::Array, Op::Fixed(8)])
        .record(1, &[11])
        .define_abbrev(&[Op::Literal(4), Op::Vbr(8)])
        .end_block();
    w.record(1, &[2]);
    for f in 0..4u64 {
        w.enter(12, 4)
            .define_abbrev(&[Op::Literal(34), Op::Vbr(6), Op::Vbr(6), Op::Fixed(4)])
            .record(1, &[1]);
        let big = f != 2;
        w.enter(11, 4).record(1, &[3]);
        for k in 0..if big { 60 } else { 3 } {
            w.abbrev_id(4).vbr(k * 1000 + f, 8);
        }
        if big {
            // A nested block inside the constants block, big enough to be lazy too.
            w.enter(15, 3).abbrev_id(2).vbr(2, 5);
            w.fixed(1, 1).vbr(99, 8).fixed(0, 1).fixed(5, 3);
            w.abbrev_id(4).blob(&[b'x'; 80]);
            w.end_block();
        }
        w.end_block();
        for k in 0..if big { 40 } else { 2 } {
            w.abbrev_id(4).vbr(k % 9, 6).vbr(3, 6).fixed(5, 4);
        }
        w.enter(14, 4);
        w.abbrev_id(4).fixed(1, 3).vbr(k_id(f), 8).vbr(4, 6);
        for &c in b"main" {
            w.fixed(c as u64, 8);
        }
        w.end_block();
        w.end_block();
    }
    w.end_block();
    w.finish()
}

fn k_id(f: u64) -> u64 {
    f + 1
}

#[test]
fn nested_big_blocks_expand_to_the_eager_tree_and_stay_lazy_below_the_threshold() {
    let bytes = nested_stream();
    let src: &[u8] = &bytes;
    let eager = decode(&src);
    assert_eq!(eager.format, "bitcode");
    assert!(
        eager.is_clean(),
        "{}",
        hexlens_core::output::to_text(&eager)
    );
    let lazy = decode_with(
        &src,
        &Options {
            lazy_threshold: Some(64),
            ..Default::default()
        },
    );
    // The module (top level) is decoded at its own level; its big function blocks
    // are lazy, the small one is not; the BLOCKINFO block is never lazy.
    let module = lazy.tree.find("Blocks/[1]").unwrap();
    assert!(!lazy.tree.node(module).lazy);
    let lazy_paths: Vec<String> = (0..lazy.tree.len() as NodeId)
        .filter(|&i| lazy.tree.node(i).lazy)
        .map(|i| lazy.tree.path(i))
        .collect();
    assert_eq!(
        lazy_paths,
        [
            "Blocks/[1]/Body/[2]",
            "Blocks/[1]/Body/[3]",
            "Blocks/[1]/Body/[5]"
        ],
        "{}",
        hexlens_core::output::to_text(&lazy)
    );
    let f0 = lazy
        .tree
        .node(lazy.tree.find("Blocks/[1]/Body/[2]").unwrap());
    let shown = f0.display.as_deref().unwrap();
    assert!(
        shown.starts_with("FUNCTION_BLOCK (12), ") && shown.ends_with(", not decoded yet"),
        "{shown}"
    );
    let root = lazy.tree.display(0).unwrap();
    assert!(root.ends_with("; 3 blocks not decoded yet"), "{root}");
    // JSON and text mark lazy nodes.
    let json = hexlens_core::output::to_json(&lazy);
    assert_eq!(json.matches("\"lazy\":true").count(), 3);
    let text = hexlens_core::output::to_text(&lazy);
    assert_eq!(text.matches("[not decoded yet]").count(), 3);
    assert!(!hexlens_core::output::to_json(&eager).contains("\"lazy\""));

    // Expanding a function block leaves its big constants block lazy, and
    // expanding that leaves the nested block lazy: three levels.
    let mut t = lazy.tree.clone();
    let f0 = t.find("Blocks/[1]/Body/[2]").unwrap();
    let r = expand(&src, &mut t, f0).unwrap();
    let newly_lazy: Vec<NodeId> = (r.start..r.end).filter(|&i| t.node(i).lazy).collect();
    assert_eq!(newly_lazy.len(), 1);
    assert!(t
        .node(newly_lazy[0])
        .display
        .as_deref()
        .unwrap()
        .starts_with("CONSTANTS_BLOCK (11)"));
    let r = expand(&src, &mut t, newly_lazy[0]).unwrap();
    let deeper: Vec<NodeId> = (r.start..r.end).filter(|&i| t.node(i).lazy).collect();
    assert_eq!(deeper.len(), 1);
    assert!(t
        .node(deeper[0])
        .display
        .as_deref()
        .unwrap()
        .starts_with("METADATA_BLOCK (15)"));

    let n = expand_all_and_compare(&src, 64, "nested stream");
    assert_eq!(n, 3 + 2 * 3);
    // A threshold above every block leaves nothing lazy; a zero threshold makes
    // every block below the top level except BLOCKINFO lazy.
    assert_eq!(
        expand_all_and_compare(&src, 1 << 20, "nested, huge threshold"),
        0
    );
    assert!(expand_all_and_compare(&src, 0, "nested, zero threshold") > 9);
}

#[test]
fn damage_inside_a_lazy_block_appears_when_it_is_expanded_and_marks_its_ancestors() {
    let mut bytes = nested_stream();
    // Find the first function block's records and corrupt an abbreviation ID in
    // its body into an undefined one, keeping lengths intact: expansion and eager
    // decode must agree on the error.
    let src: &[u8] = &bytes.clone();
    let eager = decode(&src);
    let body = eager.tree.find("Blocks/[1]/Body/[2]/Body/[3]").unwrap();
    let at = eager.tree.node(body).span.start;
    // Abbrev ID of a record in a 4-bit block: set it to 15 (undefined).
    for k in 0..4 {
        let bit = at + k;
        bytes[(bit / 8) as usize] |= 1 << (bit % 8);
    }
    let src: &[u8] = &bytes;
    let lazy = decode_with(
        &src,
        &Options {
            lazy_threshold: Some(64),
            ..Default::default()
        },
    );
    assert!(lazy.is_clean(), "the damage is inside a lazy block");
    let mut t = lazy.tree.clone();
    let f0 = t.find("Blocks/[1]/Body/[2]").unwrap();
    expand(&src, &mut t, f0).unwrap();
    assert!(t.node(f0).damaged);
    assert!(t.node(0).damaged);
    assert!(!t.errors().is_empty());
    expand_all_and_compare(&src, 64, "damaged nested stream");
}

#[test]
fn expand_refuses_nodes_that_are_not_lazy_or_not_in_the_tree() {
    let bytes = nested_stream();
    let src: &[u8] = &bytes;
    let mut d = decode_with(
        &src,
        &Options {
            lazy_threshold: Some(64),
            ..Default::default()
        },
    );
    let len = d.tree.len();
    assert!(expand(&src, &mut d.tree, 0)
        .unwrap_err()
        .contains("not lazy"));
    assert!(expand(&src, &mut d.tree, len as NodeId).is_err());
    assert!(expand(&src, &mut d.tree, u32::MAX).is_err());
    assert_eq!(d.tree.len(), len);
    // A mirror has no way to decode: it refuses too, and stays unchanged.
    let mut mirror = Tree::from_nodes(d.tree.nodes()).unwrap();
    let lazy = (0..len as NodeId).find(|&i| mirror.node(i).lazy).unwrap();
    assert!(expand(&src, &mut mirror, lazy).is_err());
    assert!(mirror.node(lazy).lazy);
    assert_eq!(mirror.len(), len);
}

#[test]
fn from_nodes_refuses_anything_that_is_not_a_tree_rooted_at_node_0() {
    let bytes = nested_stream();
    let src: &[u8] = &bytes;
    let d = decode(&src);
    let good = d.tree.nodes().to_vec();
    assert!(Tree::from_nodes(good.clone()).is_ok());
    assert!(Tree::from_nodes(Vec::new()).is_err());

    let mut bad = good.clone();
    bad[0].parent = Some(1);
    assert!(Tree::from_nodes(bad).is_err(), "root with a parent");

    let mut bad = good.clone();
    bad[0].children.push(good.len() as NodeId);
    assert!(Tree::from_nodes(bad).is_err(), "child out of range");

    let mut bad = good.clone();
    let c = bad[0].children[0];
    bad[0].children.push(c);
    assert!(Tree::from_nodes(bad).is_err(), "child listed twice");

    let mut bad = good.clone();
    let c = bad[0].children[0];
    bad[c as usize].parent = Some(c);
    assert!(Tree::from_nodes(bad).is_err(), "wrong parent");

    let mut bad = good.clone();
    bad[0].children.clear();
    assert!(Tree::from_nodes(bad).is_err(), "orphans");

    // Two nodes that list each other, detached from the root.
    let mut bad = good.clone();
    let k = bad[0]
        .children
        .iter()
        .position(|&c| !good[c as usize].children.is_empty())
        .unwrap();
    let a = bad[0].children.remove(k);
    let b = bad[a as usize].children[0];
    bad[a as usize].parent = Some(b);
    bad[b as usize].children.push(a);
    assert!(Tree::from_nodes(bad).is_err(), "detached cycle");

    let mut bad = good;
    bad[5].parent = None;
    assert!(Tree::from_nodes(bad).is_err(), "second root");
}

#[test]
fn apply_expansion_refuses_malformed_expansions_and_leaves_the_tree_unchanged() {
    let bytes = nested_stream();
    let src: &[u8] = &bytes;
    let mut worker = decode_with(
        &src,
        &Options {
            lazy_threshold: Some(64),
            ..Default::default()
        },
    )
    .tree;
    let mirror = Tree::from_nodes(worker.nodes()).unwrap();
    let id = (0..worker.len() as NodeId)
        .find(|&i| worker.node(i).lazy)
        .unwrap();
    let r = expand(&src, &mut worker, id).unwrap();
    let node = worker.node(id).clone();
    let new_nodes = worker.nodes_in(r.clone());
    let unchanged = |m: &Tree| {
        assert_eq!(m.len(), mirror.len());
        assert!(m.node(id).lazy);
        assert!(m.node(id).children.is_empty());
    };

    let mut m = mirror.clone();
    assert!(m
        .apply_expansion(mirror.len() as NodeId, node.clone(), new_nodes.clone())
        .is_err());
    unchanged(&m);

    let mut wrong_parent = node.clone();
    wrong_parent.parent = Some(0);
    assert!(m
        .apply_expansion(id, wrong_parent, new_nodes.clone())
        .is_err());
    unchanged(&m);

    let mut short = new_nodes.clone();
    short.pop();
    assert!(m.apply_expansion(id, node.clone(), short).is_err());
    unchanged(&m);

    let mut extra = new_nodes.clone();
    extra.push(new_nodes[0].clone());
    assert!(m.apply_expansion(id, node.clone(), extra).is_err());
    unchanged(&m);

    let mut old_child = node.clone();
    old_child.children.push(1);
    assert!(m.apply_expansion(id, old_child, new_nodes.clone()).is_err());
    unchanged(&m);

    let mut cyc = new_nodes.clone();
    let first = node.children[0];
    let k = (first - r.start) as usize;
    cyc[k].children.push(first);
    assert!(m.apply_expansion(id, node.clone(), cyc).is_err());
    unchanged(&m);

    m.apply_expansion(id, node, new_nodes).unwrap();
    assert_eq!(m.len(), worker.len());
    assert!(!m.node(id).lazy);
}

/// A source of `len` bytes: `head`, then zeros; counts the bytes read.
struct Huge {
    head: Vec<u8>,
    len: u64,
    read: Cell<u64>,
}

impl ByteSource for Huge {
    fn len(&self) -> u64 {
        self.len
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        let n = (self.len.saturating_sub(offset)).min(buf.len() as u64) as usize;
        for (i, b) in buf[..n].iter_mut().enumerate() {
            *b = self
                .head
                .get((offset + i as u64) as usize)
                .copied()
                .unwrap_or(0);
        }
        self.read.set(self.read.get() + n as u64);
        n
    }
}

/// A raw bitcode stream of `total` bytes: a module with one record and one
/// function block whose body fills the rest (zeros, never read when lazy).
fn huge_bitcode(total: u64) -> Huge {
    let mut w = Writer::new();
    w.enter(8, 3).record(1, &[2]);
    w.abbrev_id(1).vbr(12, 8).vbr(4, 4).align32();
    let head_len = w.bytes.len() as u64 + 4;
    // Function body, then the module's END_BLOCK (one zero word).
    let words = (total - head_len - 4) / 4;
    w.fixed(words, 32);
    let mut head = w.bytes.clone();
    // The module's NumWords (bytes 8..12) covers everything after it.
    let module_words = ((total - 12) / 4) as u32;
    head[8..12].copy_from_slice(&module_words.to_le_bytes());
    Huge {
        head,
        len: total,
        read: Cell::new(0),
    }
}

#[test]
fn a_one_gib_block_is_skipped_without_reading_it() {
    let src = huge_bitcode(1 << 30);
    let d = decode_with(
        &src,
        &Options {
            lazy_threshold: Some(1 << 20),
            ..Default::default()
        },
    );
    assert_eq!(d.format, "bitcode");
    assert!(d.is_clean(), "{}", hexlens_core::output::to_text(&d));
    let f = d.tree.node(d.tree.find("Blocks/[0]/Body/[1]").unwrap());
    assert!(f.lazy);
    assert_eq!(f.span.end_byte(), (1 << 30) - 4);
    assert!(
        f.display.as_deref().unwrap().contains("1024.0 MiB"),
        "{:?}",
        f.display
    );
    assert!(d.tree.len() < 100, "{} nodes", d.tree.len());
    // The decoder's window reads at most 64 KiB past where it looks.
    assert!(src.read.get() < 256 * 1024, "{} bytes read", src.read.get());
}

#[test]
fn damaged_streams_decoded_lazily_and_expanded_still_equal_their_eager_decode() {
    let mut rng = invariants::Rng(0x1A2B_3C4D_5E6F_7081);
    let sample = repo::curated_dir().join("d3d12_geometry_shader_L1216_gs_code_dxil.dxil.dxbc");
    let dxil = std::fs::read(&sample).unwrap();
    let nested = nested_stream();
    let mut expansions = 0;
    for round in 0..300 {
        let base = if round % 2 == 0 { &nested } else { &dxil };
        let bytes = if round % 3 == 0 {
            base[..rng.below(base.len())].to_vec()
        } else {
            rng.corrupt(base)
        };
        let src: &[u8] = &bytes;
        expansions += expand_all_and_compare(&src, 32, &format!("damaged round {round}"));
    }
    assert!(expansions > 300, "{expansions} expansions");
}
