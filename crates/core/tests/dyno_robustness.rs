//! Damage sweeps for Chapel `.dyno` files: every generated fixture is truncated at
//! every length and corrupted with random byte flips (fixed seed). Every run must
//! return a tree whose spans nest inside their parents and the file, whose JSON
//! parses, whose size stays linear in the file's, and — for truncations and
//! corruptions of a clean file — that carries an error (the SHA-256 alone notices
//! any change; the sweep also checks something else points at the damage).

use hexlens_core::{decode_bytes, Decoded};
use hexlens_testkit::{generators::dyno as gen, invariants};
use invariants::{check, check_json, Rng};

fn bounded(d: &Decoded, len: usize) -> Result<(), String> {
    let limit = 4096 + 12 * len;
    if d.tree.len() > limit {
        return Err(format!("{} nodes for a {len}-byte file", d.tree.len()));
    }
    Ok(())
}

/// Errors other than the SHA-256 mismatch.
fn other_errors(d: &Decoded) -> usize {
    d.tree
        .errors()
        .into_iter()
        .filter(|&id| {
            let e = d.tree.error(id).unwrap_or_default();
            !e.starts_with("SHA-256 of the file")
        })
        .count()
}

/// True if a node other than the hash carries an error and ends at `cut` or names it.
fn error_at_end(d: &Decoded, cut: u64) -> bool {
    let at = format!("0x{cut:X}");
    d.tree.errors().into_iter().any(|id| {
        let n = d.tree.node(id);
        let e = n.error.as_deref().unwrap_or_default();
        !e.starts_with("SHA-256 of the file") && (n.span.end_byte() == cut || e.contains(&at))
    })
}

#[test]
fn truncating_any_fixture_at_any_length_keeps_a_valid_tree_with_an_error() {
    // Every fixture at every length: spread over the machine's cores.
    let all = gen::all();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let runs: usize = std::thread::scope(|s| {
        let chunks: Vec<_> = all
            .chunks(all.len().div_ceil(threads).max(1))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|(name, bytes)| truncations(name, bytes))
                        .sum::<usize>()
                })
            })
            .collect();
        chunks.into_iter().map(|h| h.join().unwrap()).sum()
    });
    println!("{runs} truncated decodes checked");
    assert!(runs > 10_000);
}

fn truncations(name: &str, bytes: &[u8]) -> usize {
    let mut runs = 0;
    let full = decode_bytes(bytes);
    check(&full, bytes.len() as u64).unwrap_or_else(|e| panic!("{name} (whole): {e}"));
    for cut in 0..bytes.len() {
        let d = decode_bytes(&bytes[..cut]);
        runs += 1;
        check(&d, cut as u64).unwrap_or_else(|e| panic!("{name} cut at {cut}: {e}"));
        bounded(&d, cut).unwrap_or_else(|e| panic!("{name} cut at {cut}: {e}"));
        if full.is_clean() {
            assert!(
                !d.is_clean(),
                "{name} cut at {cut} decoded without any error"
            );
            if cut >= 8 {
                assert_eq!(d.format, "chapel-dyno", "{name} cut at {cut}");
                // Beyond the hash, the decoder itself notices the missing bytes,
                // with an error node reaching the cut or naming it.
                assert!(
                    other_errors(&d) > 0,
                    "{name} cut at {cut}: only the hash noticed"
                );
                assert!(
                    error_at_end(&d, cut as u64),
                    "{name} cut at {cut}: no error at the end of the file"
                );
            }
        }
    }
    runs
}

#[test]
fn random_byte_flips_never_break_the_tree_or_the_json() {
    let mut rng = Rng(0x5EC1_10E0_4D4D_D01E);
    let mut runs = 0;
    let mut beyond_hash = 0;
    for (name, bytes) in gen::all() {
        let clean = decode_bytes(&bytes).is_clean();
        for round in 0..300 {
            let m = rng.corrupt(&bytes);
            let d = decode_bytes(&m);
            runs += 1;
            check(&d, m.len() as u64).unwrap_or_else(|e| panic!("{name} round {round}: {e}"));
            check_json(&d).unwrap_or_else(|e| panic!("{name} round {round}: {e}"));
            bounded(&d, m.len()).unwrap_or_else(|e| panic!("{name} round {round}: {e}"));
            // A flip in the magic makes the file no .dyno file: what it
            // holds is scanned for (the generated code's bitcode, found clean).
            if d.format != "chapel-dyno" {
                assert!(m[..8] != bytes[..8], "{name} round {round}: {}", d.format);
                assert!(matches!(d.format, "embedded" | "raw"), "{}", d.format);
                continue;
            }
            if clean && m != bytes {
                assert!(
                    !d.is_clean(),
                    "{name} round {round}: a changed file decoded clean"
                );
                if other_errors(&d) > 0 {
                    beyond_hash += 1;
                }
            }
        }
    }
    println!("{runs} corrupted decodes checked, {beyond_hash} with errors beyond the hash");
    assert!(beyond_hash > runs / 5, "{beyond_hash} of {runs}");
}

#[test]
fn deep_nesting_is_cut_off_instead_of_overflowing_the_stack() {
    // A file whose uAST is 100,000 nested Blocks: the decoder stops at its depth
    // limit with an error and still returns a valid tree.
    let (f, m) = gen::shapes(gen::Layout::Writer, false);
    let uast = m.get("m0.uast");
    let m0 = m.get("m0");
    let mut deep = f[..uast + 16].to_vec();
    for _ in 0..100_000 {
        deep.extend_from_slice(&[gen::T_BLOCK, 0x01, 0x01, 0x00, 0x00, 0x01]);
    }
    // The module table's end offset and the uAST region's end cover the new bytes.
    let len = deep.len() as u64;
    deep[0x48..0x50].copy_from_slice(&len.to_le_bytes());
    deep[m0 + 40..m0 + 48].copy_from_slice(&(len - m0 as u64).to_le_bytes());
    let d = decode_bytes(&deep);
    check(&d, deep.len() as u64).unwrap();
    // Decoded on demand, it expands to the same tree.
    assert!(expanded_json(&deep, 1000) == hexlens_core::output::to_json(&d));
    let text = hexlens_core::output::to_text(&d);
    assert!(
        text.contains("entries nest deeper than 128 levels"),
        "{}",
        &text[..2000]
    );
}

/// The tree decoded on demand (pages of `page` entries), every lazy node
/// expanded one at a time, as JSON.
fn expanded_json(data: &[u8], page: u32) -> String {
    let opts = hexlens_core::Options {
        lazy_threshold: Some(0),
        page_size: Some(page),
        exact_totals: true,
        scan: false,
        skip_digests: false,
    };
    let mut d = hexlens_core::decode_with(&data, &opts);
    let mut stack: Vec<u32> = (0..d.tree.len() as u32)
        .filter(|&id| d.tree.node(id).lazy)
        .collect();
    while let Some(id) = stack.pop() {
        let made = hexlens_core::expand(&data, &mut d.tree, id).unwrap();
        stack.extend(made.filter(|&k| d.tree.node(k).lazy));
    }
    hexlens_core::output::to_json(&d)
}

/// The streaming JSON dump (decode on demand, survey, write while expanding and
/// releasing), pages of `page` entries.
fn streamed_json(data: &[u8], page: u32) -> String {
    let opts = hexlens_core::Options {
        lazy_threshold: Some(0),
        page_size: Some(page),
        exact_totals: true,
        scan: false,
        skip_digests: false,
    };
    let mut d = hexlens_core::decode_with(&data, &opts);
    let mut limits = hexlens_core::stream::Limits::default();
    let damage;
    if d.tree.may_hide_damage() {
        damage = hexlens_core::stream::survey(&data, &mut d.tree);
        limits.damage = Some(&damage);
    }
    let root = d.tree.root();
    let mut out = Vec::new();
    hexlens_core::stream::write_json(&data, &mut d, root, limits, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn damaged_files_decoded_on_demand_expand_to_their_eager_tree() {
    // What the sections need from each other is found by skims that must fail
    // where the decoder's reads fail: truncated and corrupted files, decoded on
    // demand in pages of 1 and 3 entries and expanded, give the eager tree.
    let mut rng = Rng(0xD1_40_5E_C1_10_E0_4D_4D);
    let mut runs = 0;
    for (name, bytes) in gen::all() {
        let mut variants: Vec<Vec<u8>> = (1..bytes.len())
            .step_by(17)
            .map(|n| bytes[..n].to_vec())
            .collect();
        variants.extend((0..60).map(|_| rng.corrupt(&bytes)));
        for (k, v) in variants.iter().enumerate() {
            let page = if k % 2 == 0 { 1 } else { 3 };
            let eager = hexlens_core::output::to_json(&decode_bytes(v));
            assert!(
                expanded_json(v, page) == eager,
                "{name} variant {k} ({} bytes), pages of {page}: the expanded tree differs from the eager one",
                v.len()
            );
            // Decoded again after a release (the survey's walk, then the dump's).
            assert!(
                k % 3 != 0 || streamed_json(v, page) == eager.clone() + "\n",
                "{name} variant {k} ({} bytes), pages of {page}: the streaming dump differs from the eager one",
                v.len()
            );
            runs += 1;
        }
    }
    println!("{runs} damaged files expanded and compared");
    assert!(runs > 2_000);
}

#[test]
fn damaged_files_read_as_a_viewer_reads_them_stay_valid_trees() {
    // A viewer reads the module's children a budget at a time (32 pages'
    // worth, here of 1 to 3 entries), the rest in pages reaching to the
    // section's end: truncated and corrupted files, every lazy node expanded,
    // keep a valid tree; where the eager decode is clean the tree is the eager
    // one but for the entry count, which a viewer does not check.
    let mut rng = Rng(0x5EC1_10E0_D140_4D4D);
    let (mut runs, mut clean) = (0, 0);
    let mut files: Vec<(String, Vec<u8>)> = gen::all()
        .into_iter()
        .map(|(n, b)| (n.to_string(), b))
        .collect();
    // Enough entries for the module's children to be read in several budgets.
    files.push(("dense".into(), gen::dense(200)));
    for (name, bytes) in files {
        let step = if name == "dense" { 211 } else { 23 };
        let mut variants: Vec<Vec<u8>> = (1..bytes.len())
            .step_by(step)
            .map(|n| bytes[..n].to_vec())
            .collect();
        variants.extend((0..60).map(|_| rng.corrupt(&bytes)));
        variants.push(bytes.clone());
        for (k, v) in variants.iter().enumerate() {
            let opts = hexlens_core::Options {
                page_size: Some(1 + (k % 3) as u32),
                ..hexlens_core::view::viewer_options()
            };
            let mut d = hexlens_core::decode_with(&v.as_slice(), &opts);
            hexlens_testkit::lazy::expand_all(v, &mut d, false)
                .unwrap_or_else(|e| panic!("{name} variant {k}: {e}"));
            check(&d, v.len() as u64).unwrap_or_else(|e| panic!("{name} variant {k}: {e}"));
            check_json(&d).unwrap_or_else(|e| panic!("{name} variant {k}: {e}"));
            let eager = decode_bytes(v);
            if eager.is_clean() && eager.format == "chapel-dyno" {
                let mut got = hexlens_core::output::to_json(&d);
                for id in 0..d.tree.len() as u32 {
                    let shown = d.tree.display(id);
                    if shown
                        .as_deref()
                        .is_some_and(|s| s.contains("read as they are shown"))
                    {
                        let e = eager
                            .tree
                            .find(&d.tree.path(id))
                            .unwrap_or_else(|| panic!("{name} variant {k}: {}", d.tree.path(id)));
                        got = got.replace(&*shown.unwrap(), &eager.tree.display(e).unwrap());
                    }
                }
                let want = hexlens_core::output::to_json(&eager);
                let upto = |s: &str| match s.find("\"name\":\"GeneratedCode\"") {
                    Some(i) => s[..i].to_string(),
                    None => s.to_string(),
                };
                assert!(
                    upto(&got) == upto(&want),
                    "{name} variant {k} ({} bytes): the expanded tree differs from the eager one: {}",
                    v.len(),
                    hexlens_testkit::lazy::first_difference(&upto(&got), &upto(&want))
                );
                clean += 1;
            }
            runs += 1;
        }
    }
    println!("{runs} files read as a viewer reads them, {clean} of them clean");
    assert!(runs > 1_000 && clean >= 5, "{runs} files, {clean} clean");
}
