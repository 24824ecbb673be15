//! Golden text and JSON dumps of the generated LLVM 1.x bytecode fixtures
//! (`tests/fixtures/llvm1-bytecode/`), compared byte for byte with `tests/golden/llvm1-bytecode/`.
//! `HEXLENS_BLESS=1` rewrites them when a change is intended.

mod support;

use support::{check_golden, decoded_as, exited_0_or_1, fixtures, hexlens, repo};

#[test]
fn llvm1_dumps_match_the_golden_files() {
    let inputs = fixtures(&repo().join("tests/fixtures/llvm1-bytecode"), &["bc"], 16);
    check_golden(
        &inputs,
        &repo().join("tests/golden/llvm1-bytecode"),
        |name, out| {
            exited_0_or_1(name, out);
            assert!(
                decoded_as(out, "llvm1-bytecode"),
                "{name} was not decoded as LLVM 1.x bytecode"
            );
        },
    );
}

#[test]
fn a_clean_llvm1_file_exits_0_and_a_damaged_one_exits_1() {
    let dir = repo().join("tests/fixtures/llvm1-bytecode");
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
