//! `hexlens dump|find|diff --ksy`: a file decoded with a Kaitai Struct format.

mod support;

use support::{hexlens, repo};

fn path(rel: &str) -> String {
    repo().join(rel).to_string_lossy().into_owned()
}

fn scratch(name: &str, bytes: &[u8]) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-ksy");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn dump_with_a_ksy_names_the_format_and_its_fields() {
    let png = path("tests/ksy/files/debian-nodejs-logo.png");
    let ksy = path("tests/ksy/formats/png.ksy");
    let out = hexlens(&["dump", &png, "--ksy", &ksy, "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["format"], "ksy:png");
    assert_eq!(j["tree"]["name"], "png");
    let chunk = &j["tree"]["children"][1]["children"][0];
    assert_eq!(chunk["display"], "IHDR (13 bytes)");
    let body = &chunk["children"][2];
    assert_eq!(body["children"][0]["name"], "width");
    assert_eq!(body["children"][0]["value"], 180);
    let pixels = body["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == "pixels")
        .unwrap();
    assert_eq!(pixels["instance"], true);
    assert_eq!(pixels["value"], 180 * 361);
    // A truncated file: a partial tree, the error on its node, exit 1.
    let cut = scratch("cut.png", &std::fs::read(&png).unwrap()[..100]);
    let out = hexlens(&["dump", &cut, "--ksy", &ksy]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("width: 180") && text.contains("! expected"),
        "{text}"
    );
}

#[test]
fn a_bad_ksy_is_a_usage_error_naming_its_line() {
    let ksy = scratch(
        "bad.ksy",
        b"meta:\n  id: t\nseq:\n  - id: a\n    type: nowhere\n",
    );
    let out = hexlens(&[
        "dump",
        &path("tests/ksy/files/cpython-python.bmp"),
        "--ksy",
        &ksy,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("line 5, column 11: /seq/0/type: unknown type 'nowhere'"),
        "{err}"
    );
}

#[test]
fn at_applies_the_format_inside_another_file() {
    let mut f = vec![0xAA; 7];
    f.extend(std::fs::read(path("tests/ksy/files/cpython-python.bmp")).unwrap());
    let file = scratch("inside.bin", &f);
    let out = hexlens(&[
        "dump",
        &file,
        "--ksy",
        &path("tests/ksy/formats/bmp.ksy"),
        "--at",
        "7",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bmp = &j["tree"]["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == "bmp")
        .unwrap()
        .clone();
    assert_eq!(bmp["start"], 7);
    assert_eq!(bmp["children"][0]["name"], "magic");
    assert_eq!(bmp["children"][0]["start"], 7);
}

#[test]
fn find_and_diff_search_and_compare_the_ksy_tree() {
    let ksy = path("tests/ksy/formats/bmp.ksy");
    let a = path("tests/ksy/files/cpython-python.bmp");
    let out = hexlens(&["find", &a, "header/width", "--ksy", &ksy, "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let hits: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(hits[0]["path"], "header/width");
    assert_eq!(
        (hits[0]["start"].as_u64(), hits[0]["end"].as_u64()),
        (Some(18), Some(22))
    );
    let mut bytes = std::fs::read(&a).unwrap();
    bytes[18] = 17;
    let b = scratch("wider.bmp", &bytes);
    let out = hexlens(&["diff", &a, &b, "--ksy", &ksy, "--json"]);
    let d: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(d["a"]["format"], "ksy:bmp");
    let diffs = d["differences"].as_array().unwrap();
    assert!(diffs.iter().any(|x| x["path"] == "header/width"), "{d}");
}
