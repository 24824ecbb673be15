//! Golden dumps of the Chapel `.dyno` fixtures: `hexlens dump` (text) and
//! `hexlens dump --json` of every file in `tests/fixtures/chapel-dyno/`, compared byte for
//! byte with `tests/golden/chapel-dyno/`. When an output change is intended,
//! `HEXLENS_BLESS=1 cargo test -p hexlens-cli --test dyno_golden` rewrites them.

mod support;

use std::path::PathBuf;
use std::process::Command;
use support::{check_golden, exited_0_or_1, repo};

fn fixtures() -> Vec<PathBuf> {
    support::fixtures(&repo().join("tests/fixtures/chapel-dyno"), &["dyno"], 10)
}

#[test]
fn dyno_dumps_match_the_golden_files() {
    check_golden(
        &fixtures(),
        &repo().join("tests/golden/chapel-dyno"),
        |name, out| {
            exited_0_or_1(name, out);
        },
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
