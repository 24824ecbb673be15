//! Every decode-worker module of the registry (`hexlens_core::formats::modules()`,
//! from each format's `module`) is wired into the web app: a feature and a bin
//! `hexlens-worker-NAME` of `crates/worker`, a trunk build of that bin in
//! `www/index.html`, and a name `static/worker.js` agrees to load. A module named
//! in a format but missing from one of them would leave that format's files
//! undecoded in the browser; one listed there but no longer in the registry would
//! be built and shipped for nothing.

use std::collections::BTreeSet;
use std::path::PathBuf;

fn read(rel: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The registry's modules (the root package builds the core with every format).
fn registry() -> BTreeSet<String> {
    let names: BTreeSet<String> = hexlens_core::formats::modules()
        .into_iter()
        .map(|m| m.name.to_string())
        .collect();
    assert!(names.len() >= 5, "the registry names only {names:?}");
    names
}

/// The strings between `open` and the next `close` after each `key`.
fn quoted_after(text: &str, key: &str) -> BTreeSet<String> {
    text.match_indices(key)
        .filter_map(|(at, _)| {
            let rest = &text[at + key.len()..];
            Some(rest[..rest.find('"')?].to_string())
        })
        .collect()
}

#[test]
fn the_worker_crate_has_a_feature_and_a_bin_per_module() {
    let cargo = read("crates/worker/Cargo.toml");
    let bins: BTreeSet<String> = quoted_after(&cargo, "name = \"hexlens-worker-");
    assert_eq!(bins, registry(), "crates/worker/Cargo.toml's bins");
    let features = cargo
        .split("[features]")
        .nth(1)
        .expect("a [features] table")
        .split("\n[")
        .next()
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_once(" = ["))
        .map(|(k, _)| k.trim().to_string())
        .filter(|k| k != "default" && !k.starts_with('#'))
        .collect::<BTreeSet<_>>();
    assert_eq!(features, registry(), "crates/worker/Cargo.toml's features");
}

#[test]
fn the_page_builds_and_the_worker_script_loads_every_module() {
    let html = read("www/index.html");
    let built = quoted_after(&html, "data-bin=\"hexlens-worker-");
    assert_eq!(built, registry(), "www/index.html's worker builds");
    for line in html
        .lines()
        .filter(|l| l.contains("data-bin=\"hexlens-worker-"))
    {
        let bin = quoted_after(line, "data-bin=\"hexlens-worker-");
        let features = quoted_after(line, "data-cargo-features=\"");
        assert_eq!(
            bin, features,
            "each worker build has its module's feature alone: {line}"
        );
    }
    let script = read("static/worker.js");
    let list = script
        .split("const known = [")
        .nth(1)
        .and_then(|r| r.split(']').next())
        .expect("static/worker.js lists the modules it loads");
    let known: BTreeSet<String> = list
        .split(',')
        .map(|s| s.trim().trim_matches('"').to_string())
        .filter(|s| !s.is_empty())
        .collect();
    assert_eq!(known, registry(), "static/worker.js's known modules");
}
