//! Shared by the CLI's integration tests: running the `hexlens` binary, listing
//! fixtures, and comparing dumps with golden files through the tests' one golden
//! writer, `hexlens_testkit::bless` (`HEXLENS_BLESS=1` rewrites them when an
//! output change is intended).

#![allow(dead_code)]

use hexlens_testkit::bless;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub use hexlens_testkit::repo::root as repo;

/// Runs `hexlens` with `args`.
pub fn hexlens(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexlens"))
        .args(args)
        .output()
        .expect("run hexlens")
}

/// Files in `dir` whose extension is one of `exts`, sorted; at least `min` of them.
pub fn fixtures(dir: &Path, exts: &[&str], min: usize) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| exts.iter().any(|e| x == *e)))
        .collect();
    files.sort();
    assert!(
        files.len() >= min,
        "expected at least {min} fixtures in {}",
        dir.display()
    );
    files
}

/// Asserts that `hexlens dump` of `name` exited 0 (clean) or 1 (damaged).
pub fn exited_0_or_1(name: &str, out: &Output) {
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{name}: {:?}",
        out.status
    );
}

/// Dumps every input as text (`.txt`) and JSON (`.json`), lets `check` inspect each
/// output (file name, output), and compares it with `golden/<file name>.<ext>`.
/// Fails listing every stale golden file.
pub fn check_golden(inputs: &[PathBuf], golden: &Path, mut check: impl FnMut(&str, &Output)) {
    let mut dumps = Vec::new();
    for input in inputs {
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        for (ext, json) in [("txt", false), ("json", true)] {
            let file = input.to_string_lossy();
            let mut args = vec!["dump", &*file];
            if json {
                args.push("--json");
            }
            let out = hexlens(&args);
            check(&name, &out);
            dumps.push((format!("{name}.{ext}"), out.stdout));
        }
    }
    bless::check_current(golden, dumps, "hexlens dump");
    // Every golden file is some input's dump: none is left behind by a
    // fixture renamed or removed.
    let names: Vec<String> = inputs
        .iter()
        .map(|i| i.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let orphans: Vec<String> = std::fs::read_dir(golden)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", golden.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .filter(|p| {
            let f = p.file_name().unwrap().to_string_lossy();
            let stem = f.strip_suffix(".txt").or_else(|| f.strip_suffix(".json"));
            !stem.is_some_and(|s| names.iter().any(|n| n == s))
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(orphans.is_empty(), "golden files of no input: {orphans:#?}");
}

/// True if a dump (text or JSON) says it was decoded as `format`.
pub fn decoded_as(out: &Output, format: &str) -> bool {
    out.stdout.starts_with(format!("{format} (").as_bytes())
        || out
            .stdout
            .starts_with(format!("{{\"format\":\"{format}\"").as_bytes())
}
