//! Damage sweeps: every curated sample and generated fixture is truncated at every
//! length and corrupted with random byte flips (fixed seed). Every run must return
//! a tree whose spans nest inside their parents and the file, whose JSON parses,
//! and — for truncations of a clean file — that carries an error marking the damage.

#[path = "generators/dxcontainer.rs"]
mod gen;

use hexlens_core::{decode_bytes, BitSpan, Decoded, Kind};
use std::path::PathBuf;

fn samples() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dxcontainer/curated");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "dxbc"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    assert!(
        out.len() >= 35,
        "expected the 35 curated samples in {}",
        dir.display()
    );
    for (name, bytes) in gen::all() {
        out.push((name.to_string(), bytes));
    }
    out
}

/// Checks the structural invariants of a decoded tree; returns a description of
/// the first violation.
fn check(d: &Decoded, len: u64) -> Result<(), String> {
    let t = &d.tree;
    let file = BitSpan::bytes(0, len);
    let root = t.node(t.root());
    if root.span != file {
        return Err(format!(
            "root span {:?} is not the file {:?}",
            root.span, file
        ));
    }
    let mut any_error = false;
    for (i, n) in t.nodes().iter().enumerate() {
        if !file.contains(&n.span) {
            return Err(format!(
                "{} {:?} lies outside the file",
                t.path(i as u32),
                n.span
            ));
        }
        if let Some(r) = n.reference {
            if !file.contains(&r) {
                return Err(format!("{} refers outside the file", t.path(i as u32)));
            }
        }
        if n.kind == Kind::Derived && !n.span.is_empty() {
            return Err(format!("{} is derived but claims bytes", t.path(i as u32)));
        }
        if let Some(e) = &n.error {
            any_error = true;
            if e.trim().is_empty() {
                return Err(format!("{} has an empty error", t.path(i as u32)));
            }
            // Every ancestor is marked damaged.
            let mut p = n.parent;
            while let Some(pid) = p {
                if !t.node(pid).damaged {
                    return Err(format!(
                        "{} has an error but ancestor {} is not marked",
                        t.path(i as u32),
                        t.path(pid)
                    ));
                }
                p = t.node(pid).parent;
            }
        }
        for &c in &n.children {
            let cs = t.node(c).span;
            let inside = if cs.is_empty() {
                cs.start >= n.span.start && cs.start <= n.span.end
            } else {
                n.span.contains(&cs)
            };
            if !inside {
                return Err(format!(
                    "child {} {:?} is outside its parent {:?}",
                    t.path(c),
                    cs,
                    n.span
                ));
            }
            if t.node(c).parent != Some(i as u32) {
                return Err(format!(
                    "child {} does not point back at its parent",
                    t.path(c)
                ));
            }
        }
    }
    if any_error != root.damaged {
        return Err("root damaged flag disagrees with the errors present".into());
    }
    Ok(())
}

#[test]
fn truncating_any_sample_at_any_length_keeps_a_valid_tree_with_an_error() {
    let mut runs = 0;
    for (name, bytes) in samples() {
        let full = decode_bytes(&bytes);
        check(&full, bytes.len() as u64).unwrap_or_else(|e| panic!("{name} (whole): {e}"));
        for cut in 0..bytes.len() {
            let d = decode_bytes(&bytes[..cut]);
            runs += 1;
            check(&d, cut as u64).unwrap_or_else(|e| panic!("{name} cut at {cut}: {e}"));
            if full.is_clean() {
                assert!(
                    !d.is_clean(),
                    "{name} cut at {cut} decoded without any error"
                );
                if cut >= 4 {
                    assert_eq!(d.format, "dxcontainer", "{name} cut at {cut}");
                }
            }
        }
    }
    println!("{runs} truncated decodes checked");
    assert!(runs > 40_000);
}

/// xorshift64*: a small deterministic generator so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_byte_flips_never_break_the_tree_or_the_json() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut runs = 0;
    let mut with_errors = 0;
    for (name, bytes) in samples() {
        for round in 0..150 {
            let mut m = bytes.clone();
            let flips = 1 + rng.below(6);
            for _ in 0..flips {
                let at = rng.below(m.len());
                // Mix small bit flips with hostile whole-byte values.
                m[at] = match rng.below(4) {
                    0 => 0xFF,
                    1 => 0x00,
                    _ => m[at] ^ (1 << rng.below(8)),
                };
            }
            let d = decode_bytes(&m);
            runs += 1;
            if !d.is_clean() {
                with_errors += 1;
            }
            check(&d, m.len() as u64).unwrap_or_else(|e| panic!("{name} round {round}: {e}"));
            let json = hexlens_core::output::to_json(&d);
            let v: serde_json::Value = serde_json::from_str(&json)
                .unwrap_or_else(|e| panic!("{name} round {round}: invalid JSON: {e}"));
            for err in v["errors"].as_array().expect("errors array") {
                assert!(err["start"].is_u64() && err["end"].is_u64() && err["message"].is_string());
            }
        }
    }
    println!("{runs} corrupted decodes checked, {with_errors} reported damage");
    assert!(
        with_errors > runs / 4,
        "most corruptions should be noticed: {with_errors} of {runs}"
    );
}

#[test]
fn a_file_no_decoder_knows_is_shown_as_plain_bytes_with_a_notice() {
    let bytes = b"\x7fELF this is not a container".to_vec();
    let d = decode_bytes(&bytes);
    assert_eq!(d.format, "raw");
    check(&d, bytes.len() as u64).unwrap();
    let root = d.tree.node(d.tree.root());
    assert!(root
        .error
        .as_deref()
        .unwrap()
        .contains("no decoder recognises this file (it starts with 7F 45 4C 46"));
    assert_eq!(root.children.len(), 0);
    let empty = decode_bytes(&[]);
    assert!(empty
        .tree
        .node(0)
        .error
        .as_deref()
        .unwrap()
        .contains("it is empty"));
}
