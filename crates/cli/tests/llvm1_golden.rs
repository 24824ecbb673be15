//! Golden text and JSON dumps of the generated LLVM 1.x bytecode fixtures
//! (`tests/fixtures/llvm1/`), compared byte for byte with `tests/golden/llvm1/`.
//! `HEXLENS_BLESS=1` rewrites them when a change is intended.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn hexlens(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexlens"))
        .args(args)
        .output()
        .expect("run hexlens")
}

#[test]
fn llvm1_dumps_match_the_golden_files() {
    let golden = repo().join("tests/golden/llvm1");
    let bless = std::env::var_os("HEXLENS_BLESS").is_some();
    let dir = repo().join("tests/fixtures/llvm1");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "bc"))
        .collect();
    inputs.sort();
    assert!(
        inputs.len() >= 16,
        "expected the generated fixtures in {}",
        dir.display()
    );
    let mut stale = Vec::new();
    for input in &inputs {
        let stem = input.file_name().unwrap().to_string_lossy().into_owned();
        let f = input.to_string_lossy().into_owned();
        for (ext, args) in [
            ("txt", vec!["dump", &f]),
            ("json", vec!["dump", &f, "--json"]),
        ] {
            let out = hexlens(&args);
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{stem}: {:?}",
                out.status
            );
            assert!(
                out.stdout.starts_with(b"llvm1-bytecode (")
                    || out.stdout.starts_with(b"{\"format\":\"llvm1-bytecode\""),
                "{stem} was not decoded as LLVM 1.x bytecode"
            );
            let path = golden.join(format!("{stem}.{ext}"));
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
fn a_clean_llvm1_file_exits_0_and_a_damaged_one_exits_1() {
    let dir = repo().join("tests/fixtures/llvm1");
    let ok = hexlens(&["dump", &dir.join("rev3_llvm13.bc").to_string_lossy()]);
    assert_eq!(ok.status.code(), Some(0));
    let text = String::from_utf8(ok.stdout).unwrap();
    assert!(
        text.contains("BytecodeFormatVersion: 3 (revision 3: LLVM 1.3"),
        "{text}"
    );
    let bad = hexlens(&["dump", &dir.join("bad_vbrs.bc").to_string_lossy(), "--json"]);
    assert_eq!(bad.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&bad.stdout).expect("valid JSON");
    let errors = v["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 3);
    let e = errors
        .iter()
        .find(|e| e["path"] == "Module/Blocks/[1]/SymbolTable/Planes/[0]/Entries/[0]/SlotNumber")
        .expect("the over-long vbr's error");
    assert_eq!(
        (e["start"].as_u64(), e["end"].as_u64()),
        (Some(0x29), Some(0x35))
    );
}
