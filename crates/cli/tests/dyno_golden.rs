//! Golden dumps of the Chapel `.dyno` fixtures: `hexlens dump` (text) and
//! `hexlens dump --json` of every file in `tests/fixtures/dyno/`, compared byte for
//! byte with `tests/golden/dyno/`. When an output change is intended,
//! `HEXLENS_BLESS=1 cargo test -p hexlens-cli --test dyno_golden` rewrites them.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn fixtures() -> Vec<PathBuf> {
    let dir = repo().join("tests/fixtures/dyno");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "dyno"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "expected the generated .dyno fixtures in {}",
        dir.display()
    );
    files
}

#[test]
fn dyno_dumps_match_the_golden_files() {
    let golden = repo().join("tests/golden/dyno");
    let bless = std::env::var_os("HEXLENS_BLESS").is_some();
    let mut stale = Vec::new();
    for f in fixtures() {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        for (ext, json) in [("txt", false), ("json", true)] {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_hexlens"));
            cmd.arg("dump").arg(&f);
            if json {
                cmd.arg("--json");
            }
            let out = cmd.output().expect("run hexlens");
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{name}: {:?}",
                out.status
            );
            let path = golden.join(format!("{name}.{ext}"));
            if bless {
                std::fs::create_dir_all(&golden).unwrap();
                std::fs::write(&path, &out.stdout).unwrap();
            } else if std::fs::read(&path).ok().as_deref() != Some(&out.stdout[..]) {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "dumps differ from the golden files (HEXLENS_BLESS=1 to accept): {stale:#?}"
    );
}

#[test]
fn clean_fixtures_exit_0_and_damaged_ones_exit_1() {
    for f in fixtures() {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let out = Command::new(env!("CARGO_BIN_EXE_hexlens"))
            .arg("dump")
            .arg(&f)
            .arg("--json")
            .output()
            .unwrap();
        let damaged = ["stale_hash", "truncated", "hostile", "bad_offsets"]
            .iter()
            .any(|d| name.starts_with(d));
        assert_eq!(
            out.status.code(),
            Some(if damaged { 1 } else { 0 }),
            "{name}"
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
        assert_eq!(v["format"], "chapel-dyno", "{name}");
        assert_eq!(
            v["errors"].as_array().unwrap().is_empty(),
            !damaged,
            "{name}"
        );
    }
}

#[test]
fn formats_lists_the_dyno_decoder() {
    let out = Command::new(env!("CARGO_BIN_EXE_hexlens"))
        .arg("formats")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("chapel-dyno"), "{text}");
    assert!(text.contains("(.dyno)"), "{text}");
}
