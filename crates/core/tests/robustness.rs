//! Damage sweeps: every curated sample and generated fixture is truncated at every
//! length and corrupted with random byte flips (fixed seed). Every run must return
//! a tree whose spans nest inside their parents and the file, whose JSON parses,
//! and — for truncations of a clean file — that carries an error marking the damage.

use invariants::{check, check_json, Rng};

use hexlens_core::decode_bytes;
use hexlens_testkit::{generators::dxcontainer as gen, invariants, repo};

fn samples() -> Vec<(String, Vec<u8>)> {
    let dir = repo::curated_dir();
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

#[test]
fn random_byte_flips_never_break_the_tree_or_the_json() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut runs = 0;
    let mut with_errors = 0;
    for (name, bytes) in samples() {
        for round in 0..150 {
            let m = rng.corrupt(&bytes);
            let d = decode_bytes(&m);
            runs += 1;
            if !d.is_clean() {
                with_errors += 1;
            }
            check(&d, m.len() as u64).unwrap_or_else(|e| panic!("{name} round {round}: {e}"));
            check_json(&d).unwrap_or_else(|e| panic!("{name} round {round}: {e}"));
        }
    }
    println!("{runs} corrupted decodes checked, {with_errors} reported damage");
    assert!(
        with_errors > runs / 4,
        "most corruptions should be noticed: {with_errors} of {runs}"
    );
}

/// `bytes` decoded on demand (as a streaming dump decodes, with pages of two
/// entries) and then expanded node by node until nothing is lazy.
fn expanded_on_demand(bytes: &[u8]) -> hexlens_core::Decoded {
    let opts = hexlens_core::Options {
        page_size: Some(2),
        ..hexlens_core::stream::streaming_options()
    };
    let mut d = hexlens_core::decode_with(&bytes, &opts);
    let mut from = 0;
    while let Some(id) = (from..d.tree.len() as u32).find(|&id| d.tree.node(id).lazy) {
        hexlens_core::expand(&bytes, &mut d.tree, id).unwrap();
        from = id + 1;
    }
    d
}

#[test]
fn damaged_samples_decoded_on_demand_and_expanded_equal_their_eager_decode() {
    use hexlens_core::output::to_json;
    let mut rng = Rng(0x0DDC_0FFE_E15B_AD5E);
    let mut runs = 0;
    for (name, bytes) in samples() {
        let mut inputs: Vec<(String, Vec<u8>)> = (0..bytes.len())
            .step_by(7)
            .map(|cut| (format!("cut at {cut}"), bytes[..cut].to_vec()))
            .collect();
        for round in 0..40 {
            inputs.push((format!("round {round}"), rng.corrupt(&bytes)));
        }
        for (what, m) in inputs {
            let (lazy, eager) = (expanded_on_demand(&m), decode_bytes(&m));
            runs += 1;
            assert!(
                to_json(&lazy) == to_json(&eager),
                "{name} {what}: decoded on demand and expanded, it differs from the eager decode"
            );
        }
    }
    println!("{runs} damaged files decoded on demand");
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
