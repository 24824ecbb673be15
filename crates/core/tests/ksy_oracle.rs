//! `.ksy` formats decoded by hexlens and by Kaitai Struct's own compiler and
//! runtime (the oracle, `tests/ksy/oracle`, installed by
//! `scripts/setup-ksy-oracle.sh`; test-only, never shipped): every field the
//! oracle reports, all instances forced, is at the same path in hexlens's
//! tree with the same value, and, where it lies in the file's own bytes and
//! is byte-aligned, the same span (bit fields: the bits the tree gives them).
//! The inputs are real files other programs make here (Python's zipfile,
//! wave and sqlite3, gzip, gcc), real files copied in with their provenance
//! (PNG, GIF, BMP, JPEG, TrueType, PE)
//! (`tests/ksy/files/PROVENANCE.md`), and the feature formats' own inputs.
#![cfg(feature = "ksy")]

use hexlens_core::tree::{Kind, Tree, Value};
use serde_json::Value as J;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A scratch folder for generated inputs.
fn scratch() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ksy-inputs");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `prog args` (a program scripts/tools.tsv lists), failing the test if it fails.
fn run(prog: &str, args: &[&str]) {
    let out = Command::new(prog)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {prog}: {e}"));
    assert!(
        out.status.success(),
        "{prog} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn python(script: &str, out: &Path) -> PathBuf {
    run("python3", &["-c", script, &out.to_string_lossy()]);
    out.to_path_buf()
}

/// The oracle's report for `ksy` over `file`.
fn oracle(ksy: &Path, file: &Path, dirs: &[PathBuf]) -> J {
    let script = repo().join("tests/ksy/oracle/oracle.mjs");
    let modules = repo().join("tests/ksy/oracle/node_modules/kaitai-struct-compiler");
    assert!(
        modules.exists(),
        "the .ksy oracle is not installed: run scripts/setup-ksy-oracle.sh"
    );
    let mut cmd = Command::new("node");
    cmd.arg(&script).arg(ksy).arg(file);
    for d in dirs {
        cmd.arg("--ksy-path").arg(d);
    }
    let out = cmd.output().expect("node runs");
    assert!(
        out.status.success(),
        "oracle: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the oracle prints JSON")
}

struct Decoded {
    tree: Tree,
    bytes: Vec<u8>,
}

fn hexlens(ksy: &Path, file: &Path, dirs: &[PathBuf]) -> Decoded {
    let spec = hexlens_core::ksy::load_file(ksy, dirs).unwrap_or_else(|e| panic!("{e}"));
    let bytes = std::fs::read(file).unwrap();
    let format = hexlens_core::formats::register(hexlens_core::ksy::format(spec, 0));
    let d = hexlens_core::decode_as(format, &bytes.as_slice());
    d.tree
        .validate(bytes.len() as u64)
        .unwrap_or_else(|e| panic!("{}: invalid tree: {e}", file.display()));
    Decoded {
        tree: d.tree,
        bytes,
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// What the comparison found: fields compared, and what differed.
#[derive(Default)]
struct Tally {
    fields: usize,
    spans: usize,
    values: usize,
    wrong: Vec<String>,
}

/// Compares every field of the oracle's report `o` with hexlens's tree.
fn compare(what: &str, o: &J, d: &Decoded, t: &mut Tally) {
    let fields = o["fields"]
        .as_array()
        .unwrap_or_else(|| panic!("{what}: no fields in {o}"));
    let tree = &d.tree;
    for f in fields {
        if f.get("error").is_some() {
            continue;
        }
        let path: Vec<&str> = f["path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        let p = path.join("/");
        t.fields += 1;
        let found = tree.find(&p);
        if f["value"].is_null() && found.is_none() {
            // Nothing read (a switch no case matches, an absent field).
            continue;
        }
        let Some(id) = found else {
            t.wrong.push(format!("{what}: {p}: not in hexlens's tree"));
            continue;
        };
        let span = tree.span(id);
        let decoded = f["decoded"].as_bool() == Some(true);
        if tree.is_decoded(id) != decoded {
            t.wrong.push(format!(
                "{what}: {p}: decoded is {} in the tree, {decoded} in the oracle",
                tree.is_decoded(id)
            ));
        }
        // Spans: bit fields by their bits, others by their bytes.
        if let (Some(bs), Some(be)) = (f["bit_start"].as_u64(), f["bit_end"].as_u64()) {
            let n = be - bs;
            let le = (bs, be);
            let (first, last) = (bs / 8, (be - 1) / 8);
            let be_span = if first == last {
                let off = bs % 8;
                (first * 8 + 8 - off - n, first * 8 + 8 - off)
            } else {
                (first * 8, (last + 1) * 8)
            };
            let got = (span.start, span.end);
            if got != le && got != be_span {
                t.wrong.push(format!(
                    "{what}: {p}: bits {got:?}, the oracle's {bs}..{be}"
                ));
            }
            t.spans += 1;
        } else if let (Some(s), Some(e)) = (f["start"].as_u64(), f["end"].as_u64()) {
            let got = (span.start_byte(), span.end_byte());
            if got != (s, e) {
                t.wrong
                    .push(format!("{what}: {p}: bytes {got:?}, the oracle's {s}..{e}"));
            }
            t.spans += 1;
        }
        // Values.
        let v = &f["value"];
        let ok = match v {
            J::Bool(b) => tree.value(id) == Some(Value::Bool(*b)),
            J::String(s) if s == "NaN" => matches!(tree.value(id), Some(Value::F(x)) if x.is_nan()),
            J::String(s) => {
                tree.value(id) == Some(Value::Str(s.clone())) || float_word(s, tree.value(id))
            }
            J::Number(n) => {
                let unsafe_int = f["unsafe"].as_bool() == Some(true);
                match tree.value(id) {
                    Some(Value::U(x)) => {
                        if unsafe_int {
                            (x as f64 - n.as_f64().unwrap()).abs() <= 2f64.powi(12)
                        } else {
                            n.as_u64() == Some(x) || n.as_f64() == Some(x as f64)
                        }
                    }
                    Some(Value::I(x)) => {
                        n.as_i64() == Some(x)
                            || (unsafe_int && (x as f64 - n.as_f64().unwrap()).abs() <= 4096.0)
                    }
                    Some(Value::F(x)) => {
                        let y = n.as_f64().unwrap();
                        x == y || (x - y).abs() <= y.abs() * 1e-15
                    }
                    _ => false,
                }
            }
            J::Null => true,
            J::Object(m) if m.contains_key("struct") => matches!(tree.kind(id), Kind::Struct),
            J::Object(m) if m.contains_key("array") => {
                tree.kind(id) == Kind::Array
                    && tree.value(id) == Some(Value::U(m["array"].as_u64().unwrap()))
            }
            J::Object(m) if m.contains_key("hex") || m.contains_key("hex_prefix") => {
                if decoded {
                    // Decoded bytes are not the file's: the value shows in
                    // the tree only as a preview; spans were compared.
                    true
                } else {
                    let want = m
                        .get("hex")
                        .or(m.get("hex_prefix"))
                        .unwrap()
                        .as_str()
                        .unwrap();
                    let s = span.start_byte() as usize;
                    let e = (span.end_byte() as usize).min(d.bytes.len());
                    let got = hex(&d.bytes[s..e]);
                    // Bytes with a terminator or padding stripped are a
                    // prefix; processed bytes are not the file's, and the
                    // tree shows them (up to 32) in the display.
                    let shown = || {
                        let pairs: Vec<String> = want
                            .as_bytes()
                            .chunks(2)
                            .map(|c| String::from_utf8_lossy(c).to_uppercase())
                            .collect();
                        tree.display(id).as_deref() == Some(pairs.join(" ").as_str())
                    };
                    got.starts_with(want)
                        || m.contains_key("hex_prefix") && want.starts_with(&got)
                        || shown()
                }
            }
            other => {
                t.wrong
                    .push(format!("{what}: {p}: oracle value {other} not understood"));
                continue;
            }
        };
        t.values += 1;
        if !ok {
            t.wrong.push(format!(
                "{what}: {p}: hexlens {:?}, the oracle {v}",
                tree.value(id)
            ));
        }
    }
}

fn float_word(s: &str, v: Option<Value>) -> bool {
    match (s, v) {
        ("Infinity", Some(Value::F(x))) => x == f64::INFINITY,
        ("-Infinity", Some(Value::F(x))) => x == f64::NEG_INFINITY,
        _ => false,
    }
}

/// Decodes `file` with `ksy` both ways and compares; the oracle must read
/// the file to its end (`ok`) unless `partial`.
fn check(ksy: &str, file: &Path, dirs: &[PathBuf], t: &mut Tally) -> (J, Decoded) {
    let ksy = repo().join(ksy);
    let what = format!(
        "{} on {}",
        ksy.file_name().unwrap().to_string_lossy(),
        file.display()
    );
    let o = oracle(&ksy, file, dirs);
    assert_eq!(
        o["ok"],
        J::Bool(true),
        "{what}: the oracle failed: {} {}",
        o["stage"],
        o["error"]
    );
    let d = hexlens(&ksy, file, dirs);
    // Errors where the oracle has them (an instance that fails), and only there.
    let failed: Vec<String> = o["fields"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f.get("error").is_some())
        .map(|f| {
            f["path"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap())
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect();
    for p in &failed {
        let id = d
            .tree
            .find(p)
            .unwrap_or_else(|| panic!("{what}: the oracle's failure at {p} is not in the tree"));
        assert!(
            d.tree.error(id).is_some(),
            "{what}: the oracle fails at {p}, hexlens does not"
        );
    }
    let errors: Vec<(String, String)> = d
        .tree
        .errors()
        .iter()
        .map(|&e| (d.tree.path(e), d.tree.error(e).unwrap().to_string()))
        .filter(|(p, _)| !failed.contains(p))
        .collect();
    assert!(
        errors.is_empty(),
        "{what}: hexlens found errors the oracle does not: {errors:?}"
    );
    compare(&what, &o, &d, t);
    (o, d)
}

fn report(t: &Tally, name: &str) {
    println!(
        "{name}: {} fields compared ({} spans, {} values), {} differ",
        t.fields,
        t.spans,
        t.values,
        t.wrong.len()
    );
    assert!(
        t.wrong.is_empty(),
        "{name}:\n{}",
        t.wrong
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(t.fields > 0, "{name}: nothing compared");
}

#[test]
fn real_files_of_common_formats_decode_as_kaitai_decodes_them() {
    let dir = scratch();
    let files = repo().join("tests/ksy/files");
    let mut t = Tally::default();
    // ZIP: Python's zipfile, stored and deflated members, a comment.
    let zip = python(
        "import sys, zipfile\n\
         with zipfile.ZipFile(sys.argv[1], 'w') as z:\n\
         \x20   z.writestr('notes/a.txt', 'hello zip ' * 40, compress_type=zipfile.ZIP_DEFLATED)\n\
         \x20   z.writestr('b.bin', bytes(range(256)), compress_type=zipfile.ZIP_STORED)\n\
         \x20   z.writestr('c/\u{e9}t\u{e9}.txt', 'unicode name')\n\
         \x20   z.comment = b'made for hexlens'\n",
        &dir.join("python.zip"),
    );
    check("tests/ksy/formats/zip.ksy", &zip, &[], &mut t);
    // WAV: Python's wave module, 8-bit mono and 16-bit stereo.
    for (w, ch) in [(1, 1), (2, 2)] {
        let wav = python(
            &format!(
                "import sys, wave, math\n\
                 w = wave.open(sys.argv[1], 'wb'); w.setnchannels({ch}); w.setsampwidth({w}); w.setframerate(8000)\n\
                 w.writeframes(bytes((i * 7) % 256 for i in range(3001 * {w} * {ch}))); w.close()\n"
            ),
            &dir.join(format!("python-{w}-{ch}.wav")),
        );
        check("tests/ksy/formats/wav.ksy", &wav, &[], &mut t);
    }
    // gzip: the gzip program, with the file's name stored.
    let text = dir.join("words.txt");
    std::fs::write(
        &text,
        "the quick brown fox jumps over the lazy dog\n".repeat(200),
    )
    .unwrap();
    run("gzip", &["-kfN9", &text.to_string_lossy()]);
    check(
        "tests/ksy/formats/gzip.ksy",
        &dir.join("words.txt.gz"),
        &[],
        &mut t,
    );
    // ELF: an object file gcc makes.
    let c = dir.join("unit.c");
    std::fs::write(&c, "static int t[4] = {1,2,3,4}; int f(int x) { return t[x & 3] * 3; } const char *s = \"hexlens\";\n").unwrap();
    let obj = dir.join("unit.o");
    run(
        "cc",
        &[
            "-c",
            "-O1",
            &c.to_string_lossy(),
            "-o",
            &obj.to_string_lossy(),
        ],
    );
    check("tests/ksy/formats/elf.ksy", &obj, &[], &mut t);
    // SQLite: a database Python's sqlite3 writes.
    let db = dir.join("python.sqlite");
    let _ = std::fs::remove_file(&db);
    python(
        "import sys, sqlite3\n\
         c = sqlite3.connect(sys.argv[1]); c.execute('create table t(a integer, b text)')\n\
         c.executemany('insert into t values (?, ?)', [(i, 'row %d' % i) for i in range(300)]); c.commit(); c.close()\n",
        &db,
    );
    check("tests/ksy/formats/sqlite.ksy", &db, &[], &mut t);
    // Real files copied in (tests/ksy/files/PROVENANCE.md).
    for (f, ksy) in [
        ("debian-nodejs-logo.png", "png"),
        ("debian-libxslt-node.gif", "gif"),
        ("cpython-python.bmp", "bmp"),
        ("cpython-python.jpg", "jpeg"),
        ("debian-liberation-mono.ttf", "ttf"),
        ("setuptools-cli.exe", "pe"),
    ] {
        let ksy = format!("tests/ksy/formats/{ksy}.ksy");
        check(&ksy, &files.join(f), &[], &mut t);
    }
    report(&t, "real files");
}

#[test]
fn the_feature_formats_decode_as_kaitai_decodes_them() {
    let st = repo().join("tests/ksy/oracle/selftest");
    let mut t = Tally::default();
    // Integers of each size and order, floats, a sized substream and a
    // nested type, repeats (expr, eos), pos and value instances, an enum,
    // strz, bit fields.
    check(
        "tests/ksy/oracle/selftest/basic.ksy",
        &st.join("basic.bin"),
        &[],
        &mut t,
    );
    // process: xor into a user type (offsets into the decoded bytes), a
    // terminator inside a sized field.
    check(
        "tests/ksy/oracle/selftest/xored.ksy",
        &st.join("xored.bin"),
        &[],
        &mut t,
    );
    // Imports: one beside the .ksy, one under an import folder.
    check(
        "tests/ksy/oracle/selftest/imp_main.ksy",
        &st.join("imp_main.bin"),
        &[st.join("lib")],
        &mut t,
    );
    report(&t, "feature formats");
}

/// Little helpers for building inputs.
fn le16(v: u16) -> Vec<u8> {
    v.to_le_bytes().to_vec()
}
fn be16(v: u16) -> Vec<u8> {
    v.to_be_bytes().to_vec()
}

/// Deterministic bytes (the tests' [`Rng`]).
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut r = hexlens_testkit::invariants::Rng(seed);
    (0..n).map(|_| r.next_u64() as u8).collect()
}

/// The inputs of the feature formats in tests/ksy/features.
fn feature_inputs() -> Vec<(&'static str, Vec<u8>)> {
    let mut v = Vec::new();
    // ints: every width, both orders, signed and unsigned, 64-bit beyond 2^53.
    let mut b = vec![0xFE];
    b.extend(le16(0x1234));
    b.extend(be16(0x1234));
    b.extend(0xDEAD_BEEFu32.to_le_bytes());
    b.extend(0xCAFE_F00Du32.to_be_bytes());
    b.extend(u64::MAX.to_le_bytes());
    b.extend(0x0102_0304_0506_0708u64.to_be_bytes());
    b.push(0x80);
    b.extend((-2i16).to_le_bytes());
    b.extend((-123_456i32).to_be_bytes());
    b.extend((-5i64).to_le_bytes());
    b.extend(0x7fffi16.to_be_bytes());
    v.push(("ints", b));
    // int_lists: runs of integers, signed, enums, both orders, a substream.
    let mut b = vec![4, 0x80, 0x7f, 0xff, 0x01];
    for k in [1u32, 7, 9] {
        b.extend(k.to_le_bytes());
    }
    b.extend([0xff, 0xfe, 0x00, 0x01, 0x80, 0x00]);
    b.extend(0x0001_0002_0003_0004u64.to_be_bytes());
    b.extend(42u64.to_be_bytes());
    v.push(("int_lists", b));
    // floats: both widths and orders, NaN, infinity, negative zero.
    let mut b = Vec::new();
    b.extend(1.5f32.to_be_bytes());
    b.extend((-2.25f32).to_le_bytes());
    b.extend(std::f64::consts::PI.to_be_bytes());
    b.extend(1e300f64.to_le_bytes());
    b.extend(f32::NAN.to_be_bytes());
    b.extend(f64::INFINITY.to_be_bytes());
    b.extend((-0.0f32).to_be_bytes());
    v.push(("floats", b));
    // bit fields in both bit orders, across bytes, over 32 bits.
    v.push(("bits_be", noise(16, 7)));
    v.push(("bits_le", noise(16, 11)));
    // strings: sizes, encodings, terminators, include, consume, pad-right, eos.
    let mut b = b"hello".to_vec();
    b.extend([b'h', 0, b'i', 0, b'!', 0, 0xE9, 0]);
    b.extend([0, b'o', 0, b'k']);
    b.extend([0xE9, b't', 0xE9]);
    b.extend(b"abc\0x,y,rest;ab    12.456\x01\x02\xffend");
    v.push(("strings", b));
    // repeats: expr, until (with `_`), sized by `_index`, eos.
    let mut b = vec![3];
    b.extend(le16(1));
    b.extend(le16(2));
    b.extend(le16(0xffff));
    b.extend([2, 0xAA, 0xBB, 1, 0xCC, 0]);
    b.extend([1, 2, 3, 4, 5]);
    b.extend([10, 11, 12, 13, 14, 15]);
    v.push(("repeats", b));
    // switches: on an enum, on a string, a default, a sized switch, no case.
    let mut b = Vec::new();
    b.extend([1, b'a', b'a', 0x34, 0x12, 0x77, 0x00, 0x05]);
    b.extend([2, b'b', b'b', 3, b'a', b'b', b'c', 0x00, 0x09, 0xAB, 0xCD]);
    b.extend([3, b'z', b'z', 4, 5, 1, 2, 3, 4, 0xEE, 0xFF]);
    b.extend([7, b'a', b'a', 0x42, 0x01, 0x02]);
    b.extend([1, b'c', b'c', 0x01, 0x00, 9, 8, 7, 6, 0x10, 0x20]);
    v.push(("switches", b));
    // instances: pos, value, if, size, io of a substream, _parent, _root.
    let mut b = vec![0x00, 0x0b, 0x03];
    b.extend([0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]);
    b.extend([0, 1, 0, 2, 0, 3]);
    v.push(("instances", b));
    // params: ints from a list by `_index`, an enum, a byte array.
    v.push(("params", vec![2, 3, 1, 0xA1, 0xA2, 0xA3, 0xB1, 0x42]));
    // process: xor (a byte, a key list), rol, ror, zlib.
    let mut b = vec![0x5a];
    let mut plain = le16(0x0102);
    plain.extend(0x0304_0506u32.to_le_bytes());
    b.extend(plain.iter().map(|x| x ^ 0x5a));
    let key = [1u8, 2];
    b.extend(
        [0x10u8, 0x20, 0x30, 0x40, 0x50]
            .iter()
            .zip(key.iter().cycle())
            .map(|(x, k)| x ^ k),
    );
    b.extend([
        0x81u8.rotate_right(3),
        0x42u8.rotate_right(3),
        0x18u8.rotate_right(3),
    ]);
    b.extend([
        0x81u8.rotate_left(3),
        0x12u8.rotate_left(3),
        0x34u8.rotate_left(3),
    ]);
    let mut inner = le16(3);
    for x in [7u32, 0x0102_0304, 0xFFFF_FFFF] {
        inner.extend(x.to_le_bytes());
    }
    inner.extend(b"zlib!\0");
    let packed = zlib(&inner);
    b.extend(le16(packed.len() as u16));
    b.extend(packed);
    v.push(("process", b));
    // contents, valid (eq, min, max, any-of, expr, in-enum), enums with a raw value.
    v.push((
        "checks",
        vec![
            b'H', b'X', 1, 2, b'a', b'b', 0xff, 3, 5, 4, 10, 0, 1, 7, 0x10,
        ],
    ));
    // expressions over every kind of value.
    let mut b = le16(250);
    b.extend((-37i16).to_le_bytes());
    b.extend(b"abcdefABCD");
    b.extend([5, 9, 2, 7, 1, 2, 0xEE, 0xEF, 0xF0]);
    v.push(("exprs", b));
    v
}

/// `data` as a zlib stream, made by Python's zlib module.
fn zlib(data: &[u8]) -> Vec<u8> {
    let dir = scratch();
    let raw = dir.join("zlib-in.bin");
    let out = dir.join("zlib-out.bin");
    std::fs::write(&raw, data).unwrap();
    run(
        "python3",
        &[
            "-c",
            "import sys, zlib; open(sys.argv[2], 'wb').write(zlib.compress(open(sys.argv[1], 'rb').read(), 9))",
            &raw.to_string_lossy(),
            &out.to_string_lossy(),
        ],
    );
    std::fs::read(out).unwrap()
}

#[test]
fn each_language_feature_decodes_as_kaitai_decodes_it() {
    let dir = scratch();
    let mut t = Tally::default();
    for (name, bytes) in feature_inputs() {
        let file = dir.join(format!("{name}.bin"));
        std::fs::write(&file, &bytes).unwrap();
        let before = t.fields;
        check(
            &format!("tests/ksy/features/{name}.ksy"),
            &file,
            &[],
            &mut t,
        );
        println!("{name}: {} fields", t.fields - before);
    }
    report(&t, "language features");
}

#[test]
fn a_ksy_kaitai_refuses_is_refused_with_its_line_and_key() {
    // (the .ksy, the line and the key path hexlens names)
    let cases: &[(&str, u32, &str)] = &[
        (
            "meta:\n  id: t\nseq:\n  - id: a\n    type: u1\n    sise: 3\n",
            6,
            "/seq/0/sise",
        ),
        (
            "meta:\n  id: t\nseq:\n  - id: a\n    type: nowhere\n",
            5,
            "/seq/0/type",
        ),
        (
            "meta:\n  id: t\nseq:\n  - id: a\n    repeat: expr\n",
            5,
            "/seq/0/repeat",
        ),
        (
            "meta:\n  id: t\nseq:\n  - id: a\n    type: str\n    size: 2\n",
            4,
            "/seq/0",
        ),
        (
            "meta:\n  id: t\nseq:\n  - id: a\n    size: (1 +\n",
            5,
            "/seq/0/size",
        ),
        (
            "meta:\n  id: t\nseq:\n  - id: a\n    type: u1\n  - id: a\n    type: u1\n",
            6,
            "/seq/1",
        ),
        (
            "meta:\n  id: t\nseq:\n  - id: a\n    type: u1\n    enum: nope\n",
            6,
            "/seq/0/enum",
        ),
        ("meta:\n  id: T\n", 2, "/meta/id"),
        (
            "meta:\n  id: t\nseq:\n  - id: a\n    type: u2\n    size: 2\n    size-eos: true\n",
            4,
            "/seq/0/size",
        ),
        (
            "meta:\n  id: t\ntypes:\n  x:\n    seq:\n      - id: a\n        type: x(1)\n",
            7,
            "/types/x/seq/0/type",
        ),
        ("meta:\n  id: t\n  endian: middle\n", 3, "/meta/endian"),
    ];
    let dir = scratch();
    let data = dir.join("any.bin");
    std::fs::write(&data, [0u8; 16]).unwrap();
    for (i, (text, line, path)) in cases.iter().enumerate() {
        let file = dir.join(format!("bad{i}.ksy"));
        std::fs::write(&file, text).unwrap();
        let o = oracle(&file, &data, &[]);
        assert_eq!(
            o["stage"], "compile",
            "Kaitai's compiler takes case {i}:\n{text}\n{o}"
        );
        let e = hexlens_core::ksy::compile("bad.ksy", text, &mut hexlens_core::ksy::NoImports)
            .expect_err(&format!("hexlens takes case {i}:\n{text}"));
        assert_eq!(
            (e.pos.line, e.path.as_str()),
            (*line, *path),
            "case {i}: {e}"
        );
        assert!(e.pos.col >= 1 && !e.message.is_empty(), "case {i}: {e}");
    }
}
