//! The digests every DirectX Container carries, checked over the shared corpus and
//! on tampered copies of a curated sample.
//!
//! - Every container's header digest must be the DXBC checksum of its bytes (or all
//!   zero: never signed); FXC and DXC wrote all of these files.
//! - Every HASH part's digest must be the MD5 of the DXIL part's bitcode (the
//!   corpus has no `IncludesSource` hashes).
//! - Changing a byte is caught; a digest that cannot be checked says why and is
//!   not an error.
//! - No corpus container is a shader PDB's debug container (whose header carries
//!   the signed shader's digest, not its own checksum): a wrong digest on any of
//!   them is still an error.

use hexlens_core::formats::dxcontainer::checksum::{dxbc_checksum, hex};
use hexlens_core::{decode_bytes, Tree, Value};
use hexlens_testkit::repo;
use std::collections::BTreeMap;
use std::path::Path;

fn display(t: &Tree, id: u32) -> String {
    t.node(id)
        .display
        .as_deref()
        .unwrap_or_default()
        .to_string()
}

/// The `Digest` node of the HASH part, if any.
fn hash_digest(t: &Tree) -> Option<u32> {
    let parts = t.find("Parts")?;
    t.node(parts).children.iter().find_map(|&p| {
        let name = t.find(&format!("{}/Name", t.path(p)))?;
        (t.node(name).value == Some(Value::Str("HASH".into())))
            .then(|| t.find(&format!("{}/Hash/Digest", t.path(p))))
            .flatten()
    })
}

fn errors(t: &Tree) -> Vec<String> {
    t.errors()
        .into_iter()
        .map(|id| format!("{}: {}", t.path(id), t.node(id).error.as_deref().unwrap()))
        .collect()
}

#[test]
fn every_corpus_digest_matches_its_bytes() {
    let corpus = repo::dxcontainer_corpus();
    let files = repo::files_with_suffix(&corpus, ".dxbc");
    assert!(files.len() > 1000, "expected the 1,143 corpus files");
    let mut header: BTreeMap<String, usize> = BTreeMap::new();
    let mut shader: BTreeMap<String, usize> = BTreeMap::new();
    let mut bad = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(&corpus)
            .unwrap_or(path)
            .display()
            .to_string();
        let bytes = std::fs::read(path).unwrap();
        let d = decode_bytes(&bytes);
        let t = &d.tree;
        let h = t
            .find("Header/Hash")
            .expect("every corpus file has a header");
        let shown = display(t, h);
        if shown != "container digest: DXBC checksum matches"
            && shown != "container digest: not signed (all zero)"
        {
            bad.push(format!("{rel}: {shown}"));
        }
        // The checksum the decoder shows is the one the public function computes.
        if bytes[4..20].iter().any(|&b| b != 0) {
            assert_eq!(dxbc_checksum(&bytes)[..], bytes[4..20], "{rel}");
        }
        *header.entry(shown).or_default() += 1;
        if let Some(dg) = hash_digest(t) {
            let shown = display(t, dg);
            if t.node(dg).error.is_some() {
                bad.push(format!("{rel}: {shown}"));
            }
            *shader.entry(shown).or_default() += 1;
        }
        if !d.is_clean() {
            let errs = errors(t);
            if errs
                .iter()
                .any(|e| e.contains("digest") || e.contains("hash"))
            {
                bad.push(format!("{rel}: {errs:?}"));
            }
        }
    }
    println!("container digests over {} files:", files.len());
    for (k, v) in &header {
        println!("  {v:5}  {k}");
    }
    println!("HASH parts:");
    for (k, v) in &shader {
        println!("  {v:5}  {k}");
    }
    assert!(
        bad.is_empty(),
        "{} digests do not match:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert_eq!(
        header.get("container digest: DXBC checksum matches"),
        Some(&1142)
    );
    assert_eq!(
        shader.get("MD5 shader hash: matches the MD5 of the DXIL part's bitcode"),
        Some(&352)
    );
}

#[test]
fn a_wrong_digest_on_any_corpus_container_is_an_error() {
    let corpus = repo::dxcontainer_corpus();
    let files = repo::files_with_suffix(&corpus, ".dxbc");
    let mut missed = Vec::new();
    for path in &files {
        let mut bytes = std::fs::read(path).unwrap();
        // A digest that is neither zero nor the container's checksum.
        for b in &mut bytes[4..20] {
            *b = !*b;
        }
        if bytes[4..20].iter().all(|&b| b == 0) {
            bytes[4] = 1;
        }
        let d = decode_bytes(&bytes);
        let h = d.tree.find("Header/Hash").unwrap();
        let n = d.tree.node(h);
        let caught = n
            .error
            .as_deref()
            .is_some_and(|e| e.contains("the file was changed after it was signed"));
        if !caught {
            missed.push(format!("{}: {}", path.display(), display(&d.tree, h)));
        }
    }
    assert!(
        missed.is_empty(),
        "{} wrong digests not reported:\n{}",
        missed.len(),
        missed.join("\n")
    );
}

fn curated(name: &str) -> Vec<u8> {
    let p = repo::curated_dir().join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", Path::new(&p).display()))
}

/// Re-signs a container (recomputes its header digest).
fn resign(bytes: &mut [u8]) {
    let sum = dxbc_checksum(bytes);
    bytes[4..20].copy_from_slice(&sum);
}

/// Offset of the HASH part's data (flags, then the digest).
fn hash_data(bytes: &[u8]) -> usize {
    let count = u32::from_le_bytes(bytes[28..32].try_into().unwrap()) as usize;
    (0..count)
        .map(|i| u32::from_le_bytes(bytes[32 + 4 * i..36 + 4 * i].try_into().unwrap()) as usize)
        .find(|&o| &bytes[o..o + 4] == b"HASH")
        .expect("a HASH part")
        + 8
}

#[test]
fn a_changed_byte_breaks_the_container_digest_and_a_changed_program_the_shader_hash() {
    let orig = curated("ps_dummy_code_dxil.dxil.dxbc");
    let clean = decode_bytes(&orig);
    assert!(clean.is_clean(), "{:#?}", errors(&clean.tree));

    // One bit of the last byte (bitcode padding) flipped: the container digest no
    // longer matches; the shader hash covers the bitcode, so it breaks too.
    let mut m = orig.clone();
    let last = m.len() - 1;
    m[last] ^= 0x01;
    let d = decode_bytes(&m);
    let t = &d.tree;
    let h = t.find("Header/Hash").unwrap();
    let want = format!(
        "container digest: expected {}, found {}",
        hex(&dxbc_checksum(&m)),
        hex(&orig[4..20])
    );
    assert_eq!(display(t, h), want);
    assert!(t
        .node(h)
        .error
        .as_deref()
        .unwrap()
        .contains("the file was changed after it was signed"));
    let dg = hash_digest(t).unwrap();
    assert!(t
        .node(dg)
        .error
        .as_deref()
        .unwrap()
        .starts_with("shader hash does not match the MD5 of the DXIL part's bitcode: expected "));

    // Re-signed, only the shader hash still disagrees.
    resign(&mut m);
    let d = decode_bytes(&m);
    assert_eq!(
        display(&d.tree, d.tree.find("Header/Hash").unwrap()),
        "container digest: DXBC checksum matches"
    );
    let errs = errors(&d.tree);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(errs[0].contains("Hash/Digest: shader hash does not match"));
}

#[test]
fn digests_that_cannot_be_checked_say_why_without_an_error() {
    let orig = curated("ps_dummy_code_dxil.dxil.dxbc");
    // IncludesSource: DXC hashed the module with its source, which is not here.
    let mut m = orig.clone();
    let at = hash_data(&m);
    m[at] |= 1;
    resign(&mut m);
    let d = decode_bytes(&m);
    assert!(d.is_clean(), "{:#?}", errors(&d.tree));
    let dg = hash_digest(&d.tree).unwrap();
    assert!(display(&d.tree, dg).starts_with(
        "MD5 shader hash: cannot be checked: it covers the module with its debug info and source"
    ));

    // An all-zero header digest: never signed.
    let mut m = orig.clone();
    m[4..20].fill(0);
    let d = decode_bytes(&m);
    assert!(d.is_clean(), "{:#?}", errors(&d.tree));
    assert_eq!(
        display(&d.tree, d.tree.find("Header/Hash").unwrap()),
        "container digest: not signed (all zero)"
    );
}
