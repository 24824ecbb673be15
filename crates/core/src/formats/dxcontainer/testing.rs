//! Test helpers shared by the DXContainer part tests: curated fixtures, synthetic
//! containers, tree checks, node lookups and a truncation / byte-flip loop; and the
//! truncation and corruption test over the curated files the part tests decode.

use crate::tree::Tree;

/// DXC work-graph library: VERS and RDAT (resources, functions, nodes).
pub(crate) const BASIC: &[u8] =
    include_bytes!("../../../../../tests/fixtures/dxcontainer/curated/basic_code_dxil.dxil.dxbc");
/// FXC compute shader: RDEF (SM5), SHEX and STAT.
pub(crate) const WRITE_DXBC: &[u8] = include_bytes!(
    "../../../../../tests/fixtures/dxcontainer/curated/d3d12_enhanced_barriers_L635_write_dxbc.dxbc"
);
/// FXC pixel shader: RDEF with a constant buffer, variables and types.
pub(crate) const DMAX: &[u8] = include_bytes!(
    "../../../../../tests/fixtures/dxcontainer/curated/d3d12_shaders_L2434_ps_dmax_code.dxbc"
);
/// DXC library with RDAT subobject records.
pub(crate) const SUBOBJECTS: &[u8] = include_bytes!(
    "../../../../../tests/fixtures/dxcontainer/curated/embedded_subobject_dupe_code_dxil.dxil.dxbc"
);

/// A DXBC container holding `parts` (FourCC, data), with a zero hash.
pub(crate) fn container(parts: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
    let header = 32 + 4 * parts.len();
    let total = header + parts.iter().map(|(_, d)| 8 + d.len()).sum::<usize>();
    let mut v = Vec::with_capacity(total);
    v.extend_from_slice(b"DXBC");
    v.extend_from_slice(&[0; 16]);
    v.extend_from_slice(&1u16.to_le_bytes());
    v.extend_from_slice(&0u16.to_le_bytes());
    v.extend_from_slice(&(total as u32).to_le_bytes());
    v.extend_from_slice(&(parts.len() as u32).to_le_bytes());
    let mut off = header;
    for (_, d) in parts {
        v.extend_from_slice(&(off as u32).to_le_bytes());
        off += 8 + d.len();
    }
    for (cc, d) in parts {
        v.extend_from_slice(*cc);
        v.extend_from_slice(&(d.len() as u32).to_le_bytes());
        v.extend_from_slice(d);
    }
    v
}

/// Appends little-endian u32s.
pub(crate) fn put(v: &mut Vec<u8>, words: &[u32]) {
    for w in words {
        v.extend_from_slice(&w.to_le_bytes());
    }
}

/// The tree holds every decode's invariants ([`Tree::validate`]), and no two
/// siblings overlap inside a part (the container itself reports, but keeps,
/// parts that overlap).
pub(crate) fn check_tree(tree: &Tree) {
    let len = tree.span(tree.root()).end / 8;
    if let Err(e) = tree.validate(len) {
        panic!("{e}");
    }
    if let Some(&(a, b)) = tree.overlapping_siblings(2).first() {
        panic!("siblings {} and {} overlap", tree.path(a), tree.path(b));
    }
}

/// The node at `path`; panics if there is none.
pub(crate) fn node(tree: &Tree, path: &str) -> crate::tree::Node {
    let id = tree
        .find(path)
        .unwrap_or_else(|| panic!("no node at {path}"));
    tree.node(id)
}

/// The number at `path`; panics if there is none.
pub(crate) fn num(tree: &Tree, path: &str) -> u64 {
    node(tree, path)
        .value
        .as_ref()
        .and_then(|v| v.as_u64())
        .unwrap_or_else(|| panic!("{path} has no number"))
}

/// The text at `path`; panics if there is none.
pub(crate) fn text(tree: &Tree, path: &str) -> String {
    node(tree, path)
        .value
        .as_ref()
        .and_then(|v| v.as_str())
        .unwrap_or_else(|| panic!("{path} has no text"))
        .to_string()
}

/// The display of the node at `path` (empty if none).
pub(crate) fn shown(tree: &Tree, path: &str) -> String {
    node(tree, path)
        .display
        .as_deref()
        .unwrap_or("")
        .to_string()
}

/// The error on the node at `path` (empty if none).
pub(crate) fn error(tree: &Tree, path: &str) -> String {
    node(tree, path).error.as_deref().unwrap_or("").to_string()
}

/// Decodes `bytes` cut at every length and with random byte flips in
/// `flip_from..`: never panics, spans always nest, a cut file always has an error.
pub(crate) fn fuzz(bytes: &[u8], flip_from: usize, rounds: usize) {
    for len in 0..bytes.len() {
        let d = crate::decode_bytes(&bytes[..len]);
        check_tree(&d.tree);
        assert!(!d.tree.errors().is_empty(), "no error when cut at {len}");
    }
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let span = bytes.len().saturating_sub(flip_from).max(1);
    for _ in 0..rounds {
        let mut m = bytes.to_vec();
        for _ in 0..1 + next() % 4 {
            let i = (flip_from + (next() as usize) % span).min(m.len() - 1);
            let r = next();
            m[i] = if r % 3 == 0 {
                0xFF
            } else {
                m[i] ^ (r >> 8) as u8 | 1
            };
        }
        let d = crate::decode_bytes(&m);
        check_tree(&d.tree);
    }
}

#[test]
fn survives_truncation_and_corruption() {
    for (file, from) in [
        (BASIC, 0x44),
        (WRITE_DXBC, 0x34),
        (DMAX, 0x34),
        (SUBOBJECTS, 0x30),
    ] {
        fuzz(file, from, 1500);
    }
}
