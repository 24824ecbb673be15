//! Damage sweeps for LLVM 1.x bytecode: every generated fixture is truncated at
//! every length and corrupted with random byte flips (fixed seed). Every run must
//! return a tree whose spans nest inside their parents and the file and whose JSON
//! parses; a truncation of a clean file must carry an error marking the damage.

use hexlens_core::decode_bytes;
use hexlens_testkit::{generators::llvm1 as gen, invariants, lazy};
use invariants::{check, check_json, Rng};

/// How many leading bytes of a clean fixture its decode depends on: cutting
/// inside the rest cannot be noticed. A zlib stream's end cannot be checked
/// without inflating it (hexlens does not), and trailing data after the module is
/// ignored by design.
fn checked_prefix(name: &str, bytes: &[u8]) -> usize {
    match name {
        "compressed_zlib.bc" => 7, // the signature, compression byte and zlib header
        "trailing_data.bc" => bytes.len() - 7,
        _ => bytes.len(),
    }
}

#[test]
fn truncating_any_fixture_at_any_length_keeps_a_valid_tree_with_an_error() {
    let mut runs = 0;
    for (name, bytes) in gen::all() {
        let full = decode_bytes(&bytes);
        check(&full, bytes.len() as u64).unwrap_or_else(|e| panic!("{name} (whole): {e}"));
        let must_notice = checked_prefix(name, &bytes);
        for cut in 0..bytes.len() {
            let d = decode_bytes(&bytes[..cut]);
            runs += 1;
            check(&d, cut as u64).unwrap_or_else(|e| panic!("{name} cut at {cut}: {e}"));
            check_json(&d).unwrap_or_else(|e| panic!("{name} cut at {cut}: {e}"));
            if cut >= 4 {
                assert_eq!(d.format, "llvm1-bytecode", "{name} cut at {cut}");
            }
            if full.is_clean() && cut < must_notice {
                assert!(
                    !d.is_clean(),
                    "{name} cut at {cut} decoded without any error:\n{}",
                    hexlens_core::output::to_text(&d)
                );
            }
        }
    }
    println!("{runs} truncated decodes checked");
    assert!(runs > 1_500, "{runs}");
}

#[test]
fn random_byte_flips_never_break_the_tree_or_the_json() {
    let mut rng = Rng(0x5EED_11F1_0000_0001);
    let mut runs = 0;
    let mut with_errors = 0;
    for (name, bytes) in gen::all() {
        for round in 0..250 {
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
        with_errors > runs / 2,
        "most corruptions should be noticed: {with_errors} of {runs}"
    );
}

#[test]
fn corrupting_a_large_file_with_deep_nesting_stays_fast() {
    let bytes = gen::nested_flat(20_000);
    let mut rng = Rng(42);
    let t = std::time::Instant::now();
    for _ in 0..20 {
        let m = rng.corrupt(&bytes);
        let d = decode_bytes(&m);
        check(&d, m.len() as u64).unwrap();
    }
    assert!(
        t.elapsed() < std::time::Duration::from_secs(3),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn corrupted_files_decoded_on_demand_give_the_eager_tree() {
    use hexlens_core::{decode_with, output, stream::streaming_options, Options};
    let mut rng = Rng(0x5EED_11F1_0000_00AA);
    let mut inputs: Vec<(String, Vec<u8>)> = gen::all()
        .into_iter()
        .map(|(n, b)| (n.to_string(), b))
        .collect();
    inputs.push(("nested 30".into(), gen::nested(30)));
    let mut runs = 0;
    for (name, bytes) in &inputs {
        for round in 0..40 {
            let m = rng.corrupt(bytes);
            let want = output::to_json(&decode_bytes(&m));
            for (page, exact) in [(2, true), (1000, true), (3, false)] {
                let opts = Options {
                    page_size: Some(page),
                    exact_totals: exact,
                    ..streaming_options()
                };
                let mut d = decode_with(&m.as_slice(), &opts);
                if exact {
                    assert!(!d.tree.may_hide_damage(), "{name} round {round}");
                }
                lazy::expand_all(&m, &mut d, exact)
                    .unwrap_or_else(|e| panic!("{name} round {round} (pages of {page}): {e}"));
                assert!(
                    output::to_json(&d) == want,
                    "{name} round {round} (pages of {page}, exact {exact}): differs from the eager tree"
                );
                runs += 1;
            }
        }
    }
    assert!(runs > 1000, "{runs}");
}
