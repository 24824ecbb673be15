//! Replays, in the normal test command, what the fuzz campaigns kept
//! (`tests/fixtures/fuzz-regressions/`: every input a target once failed on,
//! `TARGET-HASH`, and a minimised seed set per target, `seeds/TARGET/HASH`) and
//! every seed of the fuzz corpus (the test fixtures and the shared DXContainer
//! samples), with the same checks the fuzz targets make: for the decoders
//! (`crates/testkit/src/checks.rs`) tree structure, JSON and text output, error offsets,
//! node bound and allocation bound; for the comparison and the search
//! (`crates/testkit/src/compare.rs`, `crates/testkit/src/query.rs`) what they report against the
//! bytes.
//!
//! The fixtures are also decoded by every decoder, whatever their format, since a
//! fuzz target drives each decoder on any bytes.

use hexlens_testkit::repo::{dxcontainer_samples, files_under};
use hexlens_testkit::{alloc, checks, compare, decoders, query, repo};

#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

/// Decodes `data` as fuzz target `target` and returns every violated check.
fn failures(target: &str, label: &str, data: &[u8]) -> Option<String> {
    let len = data.len() as u64;
    let (d, peak) = alloc::measure(|| decoders::decode_for_target(target, data));
    let result = checks::check_alloc(peak, len).and_then(|_| checks::check_all(&d, len));
    result.err().map(|e| format!("{target} on {label}: {e}"))
}

/// The fuzz targets that check something other than a decode.
const OTHER_TARGETS: [&str; 2] = ["diff", "search"];

/// Runs kept input `data` through fuzz target `target`'s checks; a decoder's
/// input is also decoded through format detection.
fn replay(target: &str, label: &str, data: &[u8]) -> Vec<String> {
    match target {
        "diff" => {
            let (a, b) = compare::pair(data);
            compare::check(a, b)
                .err()
                .map(|e| format!("diff on {label}: {e}"))
                .into_iter()
                .collect()
        }
        "search" => query::check(data)
            .err()
            .map(|e| format!("search on {label}: {e}"))
            .into_iter()
            .collect(),
        _ => failures(target, label, data)
            .into_iter()
            .chain(failures("detect", label, data))
            .collect(),
    }
}

#[test]
fn every_kept_fuzz_input_passes_its_targets_checks() {
    let dir = repo::fixtures().join("fuzz-regressions");
    let files = files_under(&dir);
    let names: Vec<String> = decoders::targets().into_iter().map(|(t, _)| t).collect();
    let targets: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .chain(OTHER_TARGETS)
        .collect();
    let mut per_target = std::collections::BTreeMap::new();
    let mut bad = Vec::new();
    for p in &files {
        let rel = p
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        // `seeds/TARGET/HASH`, or `TARGET-HASH` for an input that failed.
        let target = match rel.strip_prefix("seeds/") {
            Some(r) => r.split('/').next().unwrap_or(""),
            None => rel.split('-').next().unwrap_or(""),
        };
        assert!(
            targets.contains(&target),
            "{rel}: a kept input's name (or its seed folder) must name its fuzz target, one of {targets:?}"
        );
        *per_target.entry(target.to_string()).or_insert(0usize) += 1;
        let data = std::fs::read(p).unwrap();
        bad.extend(replay(target, &rel, &data));
    }
    println!("{} kept fuzz inputs replayed: {per_target:?}", files.len());
    for t in &targets {
        assert!(
            per_target.get(*t).is_some_and(|&n| n > 0),
            "no kept input for fuzz target {t} in {} (fuzz/run.sh keeps a seed set per target)",
            dir.display()
        );
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Every format of the registry has its fuzz target: a `[[bin]]` of
/// `fuzz/Cargo.toml` named after its folder, whose source drives its decoder;
/// and the bins are exactly the targets this test replays for.
#[test]
fn every_format_has_a_fuzz_target() {
    let root = repo::root().join("fuzz");
    let toml = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut bins: Vec<String> = Vec::new();
    let mut in_bin = false;
    for line in toml.lines() {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if let Some(name) = line.strip_prefix("name = ").filter(|_| in_bin) {
            bins.push(name.trim_matches('"').to_string());
        }
    }
    let mut want: Vec<String> = decoders::targets().into_iter().map(|(t, _)| t).collect();
    want.extend(OTHER_TARGETS.iter().map(|t| t.to_string()));
    bins.sort();
    want.sort();
    assert_eq!(bins, want, "fuzz/Cargo.toml's [[bin]]s");
    for (t, format) in decoders::targets().into_iter().skip(1) {
        let src = std::fs::read_to_string(root.join(format!("fuzz_targets/{t}.rs"))).unwrap();
        assert!(
            src.contains(&format!("decode_for_target(\"{t}\"")),
            "fuzz/fuzz_targets/{t}.rs does not drive {format:?}"
        );
    }
}

#[test]
fn every_fixture_decodes_within_the_invariants_with_every_decoder() {
    let mut files = files_under(&repo::fixtures());
    // The fuzz campaigns' seed sets are replayed by their own targets (above).
    files.retain(|p| !p.to_string_lossy().contains("fuzz-regressions/seeds/"));
    assert!(
        files.len() > 50,
        "expected the test fixtures, found {}",
        files.len()
    );
    let mut bad = Vec::new();
    let mut runs = 0;
    for p in &files {
        let data = std::fs::read(p).unwrap();
        let label = p
            .strip_prefix(repo::root())
            .unwrap_or(p)
            .display()
            .to_string();
        for (target, _) in decoders::targets() {
            runs += 1;
            bad.extend(failures(&target, &label, &data));
        }
    }
    println!("{runs} decodes of {} fixtures checked", files.len());
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn every_shared_sample_decodes_within_the_invariants() {
    let files = files_under(&dxcontainer_samples());
    assert!(
        files.len() > 1000,
        "expected the DXContainer corpus, found {}",
        files.len()
    );
    let mut bad = Vec::new();
    for p in &files {
        let data = std::fs::read(p).unwrap();
        let label = p.file_name().unwrap().to_string_lossy().into_owned();
        bad.extend(failures("detect", &label, &data));
    }
    println!("{} shared samples checked", files.len());
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn edge_inputs_decode_within_the_invariants_with_every_decoder() {
    // Empty, one byte, each magic alone, and each magic followed by 0xFF bytes
    // (every count and offset at its maximum) or 0x00 bytes.
    let magics: [&[u8]; 8] = [
        b"DXBC",
        b"\x7FLIBCHPL",
        b"LPHCBIL\x7F",
        b"BC\xC0\xDE",
        b"\xDE\xC0\x17\x0B",
        b"llvm",
        b"llvc",
        b"DACBLOB\0",
    ];
    let mut inputs: Vec<(String, Vec<u8>)> =
        vec![("empty".into(), vec![]), ("one byte".into(), vec![0])];
    for m in magics {
        inputs.push((format!("{m:02X?} alone"), m.to_vec()));
        for fill in [0x00u8, 0xFF] {
            for n in [1usize, 7, 64, 1024] {
                let mut v = m.to_vec();
                v.extend(std::iter::repeat_n(fill, n));
                inputs.push((format!("{m:02X?} + {n} x {fill:02X}"), v));
            }
        }
    }
    let mut bad = Vec::new();
    for (label, data) in &inputs {
        for (target, _) in decoders::targets() {
            bad.extend(failures(&target, label, data));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_iterative_json_check_agrees_with_serde_json() {
    // Trees too deep for serde_json are checked by `checks::json_depth`: it must
    // accept what serde_json accepts and reject what it rejects.
    let valid = [
        r#"{"a":[1,-2.5e3,true,false,null,"x\"\\\/\b\f\n\r\t\u00e9"],"b":{}}"#,
        "[]",
        " [ [ ] , { } ] ",
        "0",
        r#""""#,
    ];
    let invalid = [
        "",
        "[",
        "[1,]",
        r#"{"a" 1}"#,
        r#"{"a":1,}"#,
        r#"{1:2}"#,
        "[1 2]",
        r#"["\x"]"#,
        r#"["\u12"]"#,
        "[tru]",
        "[1]]",
        "{]",
        "[\"a\nb\"]",
        "[1.]",
        "[-]",
    ];
    for v in valid {
        assert!(serde_json::from_str::<serde_json::Value>(v).is_ok(), "{v}");
        assert!(checks::json_depth(v).is_ok(), "rejected valid {v:?}");
    }
    for v in invalid {
        assert!(serde_json::from_str::<serde_json::Value>(v).is_err(), "{v}");
        assert!(checks::json_depth(v).is_err(), "accepted invalid {v:?}");
    }
    assert_eq!(checks::json_depth(r#"{"a":[[{"b":[]}]]}"#), Ok(5));
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(checks::json_depth(&deep), Ok(100_000));
}

#[test]
fn the_checks_reject_trees_and_figures_that_break_them() {
    let path = repo::fixtures().join("hostile/dxcontainer-size-overflow.dxbc");
    let data = std::fs::read(&path).unwrap();
    let len = data.len() as u64;
    let d = decoders::decode_for_target("detect", &data);
    checks::check_all(&d, len).unwrap();
    // A tree checked against another length: its root is not the file.
    let e = checks::check_tree(&d, len + 1).unwrap_err();
    assert!(e.contains("file_size"), "{e}");
    let mut other = d.clone();
    other.file_size = len + 1;
    let e = checks::check_tree(&other, len + 1).unwrap_err();
    assert!(e.contains("root span"), "{e}");
    // JSON whose file_size disagrees with the root span.
    let e = checks::check_json(&other).unwrap_err();
    assert!(e.contains("root does not span the file"), "{e}");
    // The allocation bound, at and just past its limit.
    let bound = checks::alloc_bound(len) as usize;
    checks::check_alloc(bound, len).unwrap();
    assert!(checks::check_alloc(bound + 1, len).is_err());
    // The node bound: the tree of the largest shared sample (25,000 nodes) is too
    // large for an empty file's bound.
    let big = std::fs::read(
        dxcontainer_samples()
            .join("vkd3d-proton/tests/pso_library_bloat_L73_cs_code_dxil.dxil.dxbc"),
    )
    .unwrap();
    let d = decoders::decode_for_target("detect", &big);
    assert!(
        d.tree.len() as u64 > checks::node_bound(0),
        "{} nodes",
        d.tree.len()
    );
    let mut shrunk = d.clone();
    shrunk.file_size = 0;
    let e = checks::check_tree(&shrunk, 0).unwrap_err();
    assert!(e.contains("more than the bound"), "{e}");
}
