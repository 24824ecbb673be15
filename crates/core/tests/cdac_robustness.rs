//! Damage sweeps and hostile inputs for the cDAC decoder: every fixture in
//! `tests/fixtures/cdac/` is truncated (every length for the standalone blobs, a
//! sample of lengths plus every length inside the blob for the object files) and
//! corrupted with random byte flips (fixed seed). Every run must return a tree whose
//! spans nest inside their parents and the file, whose JSON parses, and — for a
//! truncation inside a blob of a clean file — that carries an error.

/// The benchmarks' dense blob.
use hexlens_core::{decode_bytes, Decoded};
use hexlens_testkit::{generators::cdac as gen, invariants, lazy};
use invariants::{check, check_json, Rng};
use std::time::Instant;

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = gen::COMPILED
        .iter()
        .map(|n| (n.to_string(), gen::compiled(n)))
        .collect();
    out.extend(gen::all().into_iter().map(|(n, b)| (n.to_string(), b)));
    out
}

/// Byte ranges of every decoded blob (magic to end).
fn blob_ranges(d: &Decoded) -> Vec<(usize, usize)> {
    d.tree
        .nodes()
        .iter()
        .filter(|n| {
            n.name.to_string().starts_with('[')
                && n.parent
                    .is_some_and(|p| d.tree.node(p).name.to_string() == "Blobs")
        })
        .map(|n| (n.span.start_byte() as usize, n.span.end_byte() as usize))
        .collect()
}

#[test]
fn truncating_any_fixture_keeps_a_valid_tree_and_an_error_inside_the_blob() {
    let t0 = Instant::now();
    let mut runs = 0;
    for (name, bytes) in fixtures() {
        let full = decode_bytes(&bytes);
        check(&full, bytes.len() as u64).unwrap_or_else(|e| panic!("{name} (whole): {e}"));
        let blobs = blob_ranges(&full);
        let standalone = name.ends_with(".bin");
        for cut in 0..bytes.len() {
            let in_blob = blobs.iter().any(|&(s, e)| cut >= s && cut < e);
            // Cut after a blob's magic and before its end: that blob is damaged.
            let inside_blob = blobs.iter().any(|&(s, e)| cut >= s + 8 && cut < e);
            // Standalone blobs: every length. Object files: a sample (their blob
            // bytes are the standalone blob's, already cut everywhere).
            if !(standalone || (in_blob && cut % 5 == 0) || cut % 11 == 0) {
                continue;
            }
            let d = decode_bytes(&bytes[..cut]);
            runs += 1;
            check(&d, cut as u64).unwrap_or_else(|e| panic!("{name} cut at {cut}: {e}"));
            // A cut that leaves the magic whole still finds the blob.
            if let Some(&(s, _)) = blobs.first() {
                if cut >= s + 8 {
                    assert_eq!(d.format, "cdac", "{name} cut at {cut}");
                }
            }
            if full.is_clean() && inside_blob {
                assert!(
                    !d.is_clean(),
                    "{name} cut at {cut} decoded without any error"
                );
            }
        }
    }
    println!("{runs} truncated decodes checked in {:?}", t0.elapsed());
    assert!(runs > 5_000, "{runs}");
}

#[test]
fn random_byte_flips_never_break_the_tree_or_the_json() {
    let t0 = Instant::now();
    let mut rng = Rng(0xC0DA_C0DA_1234_5678);
    let mut runs = 0;
    let mut noticed = 0;
    for (name, bytes) in fixtures() {
        for round in 0..150 {
            let m = rng.corrupt(&bytes);
            let d = decode_bytes(&m);
            runs += 1;
            if !d.is_clean() {
                noticed += 1;
            }
            check(&d, m.len() as u64).unwrap_or_else(|e| panic!("{name} round {round}: {e}"));
            // Parsing the JSON back is the slow part: every 10th tree.
            if round % 10 == 0 {
                check_json(&d).unwrap_or_else(|e| panic!("{name} round {round}: {e}"));
            }
        }
    }
    println!(
        "{runs} corrupted decodes checked in {:?}, {noticed} reported damage",
        t0.elapsed()
    );
    // Object files have many bytes outside any blob, and flips inside padding or
    // unused header fields are invisible: expect a fair share, not all.
    assert!(noticed > runs / 5, "{noticed} of {runs}");
}

/// A blob written from scratch: magic and directory, little-endian, with the
/// given words (FlagsAndBaselineStart … NamesPoolCount) and spec sizes, followed by
/// `body`.
fn blob(words: [u32; 11], sizes: [u8; 4], body: &[u8]) -> Vec<u8> {
    let mut b = b"DACBLOB\0".to_vec();
    for w in words {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b.extend_from_slice(&sizes);
    b.extend_from_slice(body);
    b
}

fn decode_quickly(name: &str, bytes: &[u8], json: bool) -> Decoded {
    let t0 = Instant::now();
    let d = decode_bytes(bytes);
    let took = t0.elapsed();
    check(&d, bytes.len() as u64).unwrap_or_else(|e| panic!("{name}: {e}"));
    if json {
        check_json(&d).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    assert!(took.as_secs() < 3, "{name} took {took:?}");
    assert!(
        d.tree.len() <= 4096 + bytes.len() * 12,
        "{name}: {} nodes",
        d.tree.len()
    );
    d
}

#[test]
fn hostile_directories_finish_quickly_with_errors() {
    let max = u32::MAX;
    let zeros = vec![0u8; 64 << 10];
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("all words 0xFFFFFFFF", blob([max; 11], [0xFF; 4], &[])),
        (
            "counts 0xFFFFFFFF over 64 KiB of zeros",
            blob(
                [48, 56, 56, 56, 56, 56, max, max, max, max, max],
                [12, 12, 16, 8],
                &zeros,
            ),
        ),
        (
            "every table at the same offset",
            blob(
                [48, 56, 56, 56, 56, 56, 50, 50, 50, 50, 400],
                [12, 12, 16, 8],
                &[0x41; 1200],
            ),
        ),
        (
            "offsets past the end",
            blob(
                [
                    max - 3,
                    max - 2,
                    max - 1,
                    max,
                    0x1000,
                    0x2000,
                    1,
                    1,
                    1,
                    1,
                    1,
                ],
                [12, 12, 16, 8],
                &[1; 64],
            ),
        ),
        (
            "spec sizes of 0",
            blob(
                [48, 56, 56, 56, 56, 56, 1000, 1000, 1000, 1000, 10],
                [0; 4],
                &[7; 256],
            ),
        ),
        ("directory cut short", b"DACBLOB\0\x30\x00\x00".to_vec()),
        (
            "big-endian magic, nothing after",
            vec![0x00, 0x42, 0x4F, 0x4C, 0x42, 0x43, 0x41, 0x44],
        ),
        ("five thousand magics", b"DACBLOB\0".repeat(5_000)),
        (
            "magics of both orders interleaved",
            [
                &b"DACBLOB\0"[..],
                &[0x00, 0x42, 0x4F, 0x4C, 0x42, 0x43, 0x41, 0x44],
            ]
            .concat()
            .repeat(1500),
        ),
    ];
    for (name, bytes) in &cases {
        let d = decode_quickly(name, bytes, true);
        assert_eq!(d.format, "cdac", "{name}");
        assert!(!d.is_clean(), "{name}: no error reported");
    }
}

/// Thousands of types whose field runs all start at the same entry of one long
/// run: each pool entry is walked once, so this stays linear.
#[test]
fn overlapping_field_runs_are_walked_once() {
    let types = 6_000u32;
    let fields = 6_000u32;
    let type_size = 12u32;
    let field_size = 12u32;
    let types_at = 56u32;
    let fields_at = types_at + types * type_size;
    let names_at = fields_at + fields * field_size;
    let mut body = Vec::new();
    body.extend_from_slice(&1u32.to_le_bytes()); // PlatformFlags
    body.extend_from_slice(&1u32.to_le_bytes()); // BaselineName
    for _ in 0..types {
        body.extend_from_slice(&1u32.to_le_bytes()); // Name "a"
        body.extend_from_slice(&1u32.to_le_bytes()); // Fields: all at entry 1
        body.extend_from_slice(&[8, 0, 0, 0]);
    }
    for i in 0..fields {
        let name = if i == 0 || i == fields - 1 { 0u32 } else { 1 };
        body.extend_from_slice(&name.to_le_bytes());
        body.extend_from_slice(&1u32.to_le_bytes());
        body.extend_from_slice(&[4, 0, 0, 0]);
    }
    body.extend_from_slice(b"\0a\0");
    body.extend_from_slice(&[1, 2, 3, 4]);
    let bytes = blob(
        [
            48, types_at, fields_at, names_at, names_at, names_at, types, fields, 0, 0, 3,
        ],
        [12, 12, 16, 8],
        &body,
    );
    let d = decode_quickly("overlapping runs", &bytes, false);
    let first = d.tree.find("Blobs/[0]/Types/[0]/FieldRun").unwrap();
    assert_eq!(d.tree.node(first).children.len(), fields as usize - 2);
    let second = d.tree.find("Blobs/[0]/Types/[1]/Fields").unwrap();
    assert!(d
        .tree
        .node(second)
        .error
        .as_deref()
        .unwrap()
        .contains("inside the run of Types/[0]"));
}

#[test]
fn corrupted_files_decoded_on_demand_give_the_eager_tree() {
    use hexlens_core::{decode_with, output, stream::streaming_options, Options};
    let mut rng = Rng(0x5EED_CDAC_0000_00AA);
    let mut runs = 0;
    let mut inputs = fixtures();
    inputs.push(("dense blob of 400 types".into(), gen::dense(400)));
    for (name, bytes) in inputs {
        for round in 0..30 {
            let m = rng.corrupt(&bytes);
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
