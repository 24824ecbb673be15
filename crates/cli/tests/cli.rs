//! The `hexlens` command line: exit statuses, messages, and golden dumps.
//!
//! Golden files live in `tests/golden/<format>/` at the repository root; a changed dump
//! fails the test, and `HEXLENS_BLESS=1` rewrites them when the change is intended.

mod support;

use support::{check_golden, exited_0_or_1, hexlens, repo};

fn fixture(rel: &str) -> String {
    repo()
        .join("tests/fixtures")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

const CLEAN: &str = "dxcontainer/curated/d3d12_geometry_shader_L1216_gs_code_dxil.dxil.dxbc";
const DAMAGED: &str = "dxcontainer/generated/bad_symbols.dxbc";

#[test]
fn formats_lists_the_dxcontainer_decoder() {
    let out = hexlens(&["formats"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("dxcontainer"), "{text}");
    assert!(text.contains("DirectX Container"), "{text}");
}

#[test]
fn dump_of_a_clean_file_exits_0_and_prints_an_indented_tree_with_hex_offsets() {
    let out = hexlens(&["dump", &fixture(CLEAN)]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("dxcontainer (1884 bytes)\n"), "{text}");
    assert!(text.contains("\n0018-001C     FileSize: 1884\n"), "{text}");
    assert!(
        text.contains("Name: \"SV_RenderTargetArrayIndex\""),
        "{text}"
    );
    assert!(!text.contains("error(s)"));
}

#[test]
fn dump_json_follows_the_contract() {
    let out = hexlens(&["dump", &fixture(CLEAN), "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(v["format"], "dxcontainer");
    assert_eq!(v["file_size"], 1884);
    assert_eq!(v["errors"].as_array().unwrap().len(), 0);
    let tree = &v["tree"];
    assert_eq!(tree["start"], 0);
    assert_eq!(tree["end"], 1884);
    let header = &tree["children"][0];
    assert_eq!(header["name"], "Header");
    assert_eq!(header["kind"], "struct");
    assert!(header.get("value").is_none(), "groups carry no value");
    let file_size = header["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "FileSize")
        .unwrap();
    assert_eq!(file_size["value"], 1884);
    assert_eq!(
        (file_size["start"].as_u64(), file_size["end"].as_u64()),
        (Some(24), Some(28))
    );
    let hash = &header["children"][1];
    assert_eq!(hash["name"], "Hash");
    assert!(hash.get("value").is_none(), "raw byte runs carry no value");
}

#[test]
fn dump_of_a_damaged_file_exits_1_and_still_prints_the_tree_and_its_errors() {
    let out = hexlens(&["dump", &fixture(DAMAGED), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let errors = v["errors"].as_array().unwrap();
    assert!(errors.len() >= 5, "{errors:?}");
    let e = errors
        .iter()
        .find(|e| e["path"] == "Parts/[1]/SymbolTable/Symbols/[1]/Name/NameOffset")
        .unwrap();
    assert_eq!(
        (e["start"].as_u64(), e["end"].as_u64()),
        (Some(0x7C), Some(0x80))
    );
    assert!(e["message"].as_str().unwrap().contains("does not resolve"));
    let text = hexlens(&["dump", &fixture(DAMAGED)]);
    assert_eq!(text.status.code(), Some(1));
    let t = String::from_utf8(text.stdout).unwrap();
    assert!(t.contains("! offset 0x1F4 does not resolve"), "{t}");
}

#[test]
fn unreadable_files_and_bad_usage_exit_2_with_a_message() {
    let out = hexlens(&["dump", "/nonexistent/file.dxbc"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("cannot read '/nonexistent/file.dxbc'"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    for args in [
        &[][..],
        &["dump"][..],
        &["frobnicate"][..],
        &["dump", "a", "b"][..],
        &["dump", "a", "--yml"][..],
        &["dump", "a", "--yaml", "--json"][..],
        &["dump", "a", "--yaml", "--select", "Parts"][..],
    ] {
        let out = hexlens(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with("hexlens: "), "{args:?}: {err}");
        assert!(err.contains("Usage: hexlens"), "{args:?}: {err}");
    }
}

#[test]
fn dump_yaml_writes_obj2yaml_19s_document_for_a_container() {
    let out = hexlens(&["dump", &fixture(CLEAN), "--yaml"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("--- !dxcontainer\nHeader:\n"), "{text}");
    assert!(text.ends_with("\n...\n"), "{text}");
    let v: serde_yaml::Value =
        serde_yaml::from_str(&text.replacen("--- !dxcontainer", "---", 1)).expect("valid YAML");
    assert_eq!(v["Header"]["FileSize"].as_u64(), Some(1884));
    let parts = v["Parts"].as_sequence().unwrap();
    assert_eq!(v["Header"]["PartCount"].as_u64(), Some(parts.len() as u64));
    let psv = parts
        .iter()
        .find(|p| p["Name"] == "PSV0")
        .expect("a PSV0 part");
    assert_eq!(
        psv["PSVInfo"]["ShaderStage"].as_u64(),
        Some(2),
        "a geometry shader"
    );
    let dxil = parts
        .iter()
        .find(|p| p["Name"] == "DXIL")
        .expect("a DXIL part");
    let bitcode = dxil["Program"]["DXIL"].as_sequence().unwrap();
    assert_eq!(
        bitcode.len() as u64,
        dxil["Program"]["DXILSize"].as_u64().unwrap()
    );
    assert_eq!(bitcode[0].as_u64(), Some(0x42), "bitcode starts with 'BC'");
}

#[test]
fn dump_yaml_of_a_file_that_is_not_a_container_exits_2_with_a_message() {
    for file in [
        fixture("bitcode/gen_code.bc"),
        repo().join("Cargo.toml").to_string_lossy().into_owned(),
    ] {
        let out = hexlens(&["dump", &file, "--yaml"]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        assert!(out.stdout.is_empty(), "{file}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains("YAML output is for DirectX Containers only"),
            "{err}"
        );
    }
}

#[test]
fn dump_yaml_of_a_damaged_container_exits_1_and_names_what_it_left_out() {
    let out = hexlens(&[
        "dump",
        &fixture("dxcontainer/generated/bad_signature_and_psv.dxbc"),
        "--yaml",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("Parts/[2] (PSV0): its mapping is left out"),
        "{err}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    serde_yaml::from_str::<serde_yaml::Value>(&text.replacen("--- !dxcontainer", "---", 1))
        .expect("valid YAML");
    assert!(
        text.contains("  - Name:            PSV0\n    Size:"),
        "{text}"
    );
    assert!(!text.contains("PSVInfo:"), "{text}");
}

#[test]
fn an_unknown_file_is_dumped_as_raw_with_exit_1() {
    let out = hexlens(&["dump", &repo().join("Cargo.toml").to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    let t = String::from_utf8(out.stdout).unwrap();
    assert!(t.starts_with("raw ("), "{t}");
    assert!(t.contains("no decoder recognises this file"), "{t}");
}

/// Text and JSON dumps of every generated fixture and three real samples, compared
/// byte for byte with `tests/golden/dxcontainer/`.
#[test]
fn dumps_match_the_golden_files() {
    let mut inputs = support::fixtures(
        &repo().join("tests/fixtures/dxcontainer/generated"),
        &["dxbc"],
        8,
    );
    inputs.extend(
        [
            CLEAN,
            "dxcontainer/curated/d3d12_enhanced_barriers_L635_write_dxbc.dxbc",
            "dxcontainer/curated/embedded_rs_vs_space0_code_dxbc.dxbc",
        ]
        .map(|rel| repo().join("tests/fixtures").join(rel)),
    );
    check_golden(
        &inputs,
        &repo().join("tests/golden/dxcontainer"),
        |name, out| {
            exited_0_or_1(name, out);
        },
    );
}

/// Every node of a JSON tree, depth first.
fn json_nodes(v: &serde_json::Value, out: &mut Vec<serde_json::Value>) {
    out.push(v.clone());
    if let Some(children) = v["children"].as_array() {
        for c in children {
            json_nodes(c, out);
        }
    }
}

#[test]
fn dump_with_a_lazy_threshold_leaves_big_bitcode_blocks_undecoded_and_marks_them() {
    let out = hexlens(&["dump", &fixture(CLEAN), "--lazy-threshold", "64", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let mut nodes = Vec::new();
    json_nodes(&v["tree"], &mut nodes);
    let lazy: Vec<&serde_json::Value> = nodes.iter().filter(|n| n["lazy"] == true).collect();
    assert!(!lazy.is_empty());
    for n in &lazy {
        assert!(n.get("children").is_none(), "{n}");
        assert!(
            n["display"]
                .as_str()
                .unwrap()
                .ends_with(", not decoded yet"),
            "{n}"
        );
        assert!(n["end"].as_u64().unwrap() - n["start"].as_u64().unwrap() >= 64);
    }
    let eager = hexlens(&["dump", &fixture(CLEAN), "--json"]);
    let e: serde_json::Value = serde_json::from_slice(&eager.stdout).unwrap();
    let mut all = Vec::new();
    json_nodes(&e["tree"], &mut all);
    assert!(all.iter().all(|n| n.get("lazy").is_none()));
    assert!(all.len() > nodes.len());

    let text = hexlens(&["dump", &fixture(CLEAN), "--lazy-threshold", "64"]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert_eq!(text.matches(" [not decoded yet]\n").count(), lazy.len());
}

#[test]
fn a_lazy_threshold_that_is_not_a_number_is_a_usage_error() {
    for args in [
        &["dump", "x", "--lazy-threshold", "lots"][..],
        &["dump", "x", "--lazy-threshold"][..],
    ] {
        let out = hexlens(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("'--lazy-threshold <BYTES>'"), "{err}");
    }
    let help = String::from_utf8(hexlens(&["dump", "--help"]).stdout).unwrap();
    assert!(help.contains("--lazy-threshold <BYTES>"), "{help}");
}

#[test]
fn a_raw_bc_file_is_decoded_as_llvm_bitcode() {
    let out = hexlens(&["dump", &fixture("bitcode/gen_code.bc"), "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "bitcode");
    assert!(v["tree"]["display"]
        .as_str()
        .unwrap()
        .starts_with("LLVM bitcode, 1776 bytes: "));
    let formats = String::from_utf8(hexlens(&["formats"]).stdout).unwrap();
    assert!(formats.contains("bitcode"), "{formats}");
}

#[test]
fn find_prints_the_nodes_a_path_pattern_or_text_finds_and_exits_1_when_none() {
    let out = hexlens(&["find", &fixture(CLEAN), "Parts/*/Name"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 3, "{text}");
    for l in &lines {
        assert!(
            l.contains("  Parts/[") && l.ends_with("/Name  (path)"),
            "{l}"
        );
    }
    // Text, ASCII case ignored; the JSON form agrees with the dump's spans.
    let out = hexlens(&[
        "find",
        &fixture(CLEAN),
        "sv_rendertargetarrayindex",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let hits: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let hits = hits.as_array().unwrap();
    assert!(!hits.is_empty());
    let dump: serde_json::Value =
        serde_json::from_slice(&hexlens(&["dump", &fixture(CLEAN), "--json"]).stdout).unwrap();
    for h in hits {
        let path = h["path"].as_str().unwrap();
        let mut node = &dump["tree"];
        for seg in path.split('/') {
            node = node["children"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["name"] == seg)
                .unwrap_or_else(|| panic!("{path}: no {seg}"));
        }
        assert_eq!(h["start"], node["start"], "{path}");
        assert_eq!(h["end"], node["end"], "{path}");
        assert_eq!(h["match"], "value");
    }
    // --max stops early; nothing found is status 1; a missing QUERY is a usage error.
    let out = hexlens(&["find", &fixture(CLEAN), "a", "--max", "2"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 2);
    let out = hexlens(&["find", &fixture(CLEAN), "no such text anywhere"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let out = hexlens(&["find", &fixture(CLEAN)]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn diff_exits_0_for_equal_structures_1_for_different_ones_2_on_errors() {
    let a = fixture("dxcontainer/curated/embedded_rs_gs_space1_code_dxbc.dxbc");
    let b = fixture("dxcontainer/curated/embedded_rs_gs_space1_naked_code_dxbc.dxbc");
    let same = hexlens(&["diff", &a, &a]);
    assert_eq!(same.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&same.stdout).contains("equal structures"));
    // The naked shader lacks the root signature part: one part only in A;
    // the part offsets kept changed only because the parts moved.
    let out = hexlens(&["diff", &a, &b]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\n- Parts/[4] (RTS0"), "{text}");
    assert!(
        text.contains("\n> Header/PartOffsets/[0]: 52 -> 48"),
        "{text}"
    );
    assert!(text.contains("~ Header/PartCount: 5 -> 4"), "{text}");
    // The JSON says the same.
    let out = hexlens(&["diff", &a, &b, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["equal"], false);
    assert_eq!(v["a"]["format"], "dxcontainer");
    let diffs = v["differences"].as_array().unwrap();
    assert!(diffs
        .iter()
        .any(|d| d["path"] == "Parts/[4]" && d["change"] == "removed" && d["a_span"][0] == 0x114));
    assert!(diffs
        .iter()
        .any(|d| d["path"] == "Header/PartCount" && d["a"] == "5" && d["b"] == "4"));
    // The merged tree: the part only in A under Parts, the parts both have
    // one run of identical rows, and the JSON's rows are the text's lines.
    let out = hexlens(&["diff", &a, &b, "--tree"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("* DXContainer\n  * Header\n"), "{text}");
    assert!(
        text.contains("\n  * Parts\n    = [0] … [3]: 4 identical nodes\n    - [4]: RTS0"),
        "{text}"
    );
    let out = hexlens(&["diff", &a, &b, "--tree", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len() + 1, text.lines().count());
    let removed = rows
        .iter()
        .find(|r| r["mark"] == "removed" && r["path"] == "Parts/[4]")
        .unwrap();
    assert_eq!(removed["path"], "Parts/[4]");
    assert_eq!(removed["a_span"][0], 0x114);
    let i = removed["difference"].as_u64().unwrap() as usize;
    assert_eq!(v["differences"][i]["path"], "Parts/[4]");
    // Usage and I/O errors.
    for args in [
        &["diff", a.as_str()][..],
        &["diff", &a, "/nonexistent/x"],
        &["diff", &a, &b, "--bogus"],
    ] {
        let out = hexlens(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

/// `hexlens` run with `stdin` as its standard input.
fn hexlens_with_input(args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexlens"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run hexlens");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // Written from another thread: a big input must not wait on a full stdout.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for hexlens");
    writer.join().unwrap();
    out
}

/// `text` without its ANSI escape sequences (ESC [ parameters, final byte).
fn strip_ansi(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i] == 0x1B && text.get(i + 1) == Some(&b'[') {
            i += 2;
            while i < text.len() && !(0x40..=0x7E).contains(&text[i]) {
                i += 1;
            }
            i += 1;
        } else {
            out.push(text[i]);
            i += 1;
        }
    }
    out
}

/// The escape sequence written just before the first `needle` in `text`.
fn escape_before(text: &str, needle: &str) -> String {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("no {needle:?} in {text}"));
    let esc = text[..at]
        .rfind('\x1B')
        .unwrap_or_else(|| panic!("nothing painted before {needle:?}"));
    let seq = &text[esc..at];
    assert!(
        seq.ends_with('m'),
        "{needle:?} follows {seq:?}, not a colour"
    );
    seq.to_string()
}

#[test]
fn every_command_has_help_that_names_its_options() {
    let commands: [(&str, &[&str]); 5] = [
        (
            "dump",
            &[
                "--json",
                "--max-depth <N>",
                "--select <PATH>",
                "--scan",
                "--lazy-threshold <BYTES>",
                "--color <WHEN>",
                "standard input",
            ],
        ),
        ("find", &["<QUERY>", "--json", "--max <N>", "--scan"]),
        ("diff", &["<A>", "<B>", "--json", "--max <N>"]),
        ("formats", &[]),
        ("completions", &["bash", "zsh", "fish"]),
    ];
    let top = hexlens(&["--help"]);
    assert_eq!(top.status.code(), Some(0));
    let top = String::from_utf8(top.stdout).unwrap();
    assert!(top.contains("Exit status"), "{top}");
    for (cmd, options) in commands {
        assert!(top.contains(&format!("\n  {cmd} ")), "{cmd} missing: {top}");
        let out = hexlens(&[cmd, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{cmd}");
        assert!(out.stderr.is_empty(), "{cmd}");
        let help = String::from_utf8(out.stdout).unwrap();
        assert!(
            help.contains(&format!("Usage: hexlens {cmd}")),
            "{cmd}: {help}"
        );
        for o in options {
            assert!(help.contains(o), "{cmd} --help lacks {o}: {help}");
        }
        // `hexlens help CMD` is the same help.
        let again = hexlens(&["help", cmd]);
        assert_eq!(again.status.code(), Some(0), "{cmd}");
        assert_eq!(String::from_utf8(again.stdout).unwrap(), help, "{cmd}");
    }
}

#[test]
fn version_prints_the_workspace_version() {
    let manifest = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let section = &manifest[manifest.find("[workspace.package]").unwrap()..];
    let line = section
        .lines()
        .find(|l| l.starts_with("version"))
        .expect("a workspace version");
    let version = line.split('"').nth(1).unwrap();
    for flag in ["--version", "-V"] {
        let out = hexlens(&[flag]);
        assert_eq!(out.status.code(), Some(0), "{flag}");
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            format!("hexlens {version}\n"),
            "{flag}"
        );
    }
}

#[test]
fn completions_for_each_shell_name_every_command() {
    for shell in ["bash", "zsh", "fish"] {
        let out = hexlens(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.len() > 500, "{shell}: {script}");
        for word in [
            "dump",
            "find",
            "diff",
            "formats",
            "completions",
            "max-depth",
        ] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
    // The bash script is valid bash.
    let script = hexlens(&["completions", "bash"]).stdout;
    let path = std::env::temp_dir().join(format!("hexlens-completion-{}.bash", std::process::id()));
    std::fs::write(&path, &script).unwrap();
    let check = std::process::Command::new("bash")
        .arg("-n")
        .arg(&path)
        .output()
        .expect("run bash -n");
    std::fs::remove_file(&path).unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let out = hexlens(&["completions", "tcsh-of-the-future"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_dash_reads_standard_input_as_the_file() {
    for rel in [CLEAN, DAMAGED, "bitcode/gen_code.bc"] {
        let path = fixture(rel);
        let bytes = std::fs::read(&path).unwrap();
        for form in [
            &["--json"][..],
            &[][..],
            &["--max-depth", "2", "--json"][..],
        ] {
            let from_file = hexlens(&[&["dump", path.as_str()][..], form].concat());
            let from_stdin = hexlens_with_input(&[&["dump", "-"][..], form].concat(), &bytes);
            assert_eq!(from_stdin.status.code(), from_file.status.code(), "{rel}");
            assert!(!from_file.stdout.is_empty());
            assert!(from_stdin.stdout == from_file.stdout, "{rel} {form:?}");
        }
    }
    // find and diff take '-' too, for A or B.
    let bytes = std::fs::read(fixture(CLEAN)).unwrap();
    let file = hexlens(&["find", &fixture(CLEAN), "Parts/*/Name", "--json"]);
    let stdin = hexlens_with_input(&["find", "-", "Parts/*/Name", "--json"], &bytes);
    assert_eq!(stdin.status.code(), Some(0));
    assert_eq!(stdin.stdout, file.stdout);
    let damaged = fixture(DAMAGED);
    let file = hexlens(&["diff", &fixture(CLEAN), &damaged, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&file.stdout).unwrap();
    for args in [
        ["diff", "-", damaged.as_str()],
        ["diff", &fixture(CLEAN), "-"],
    ] {
        let input = if args[1] == "-" {
            bytes.clone()
        } else {
            std::fs::read(&damaged).unwrap()
        };
        let out = hexlens_with_input(&[&args[..], &["--json"]].concat(), &input);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let w: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(w["differences"], v["differences"], "{args:?}");
        assert!(w["differences"].as_array().unwrap().len() > 3);
        let side = if args[1] == "-" { "a" } else { "b" };
        assert_eq!(w[side]["file"], "-");
    }
    // Text: the summary names standard input.
    let out = hexlens_with_input(&["diff", "-", &damaged], &bytes);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("standard input (dxcontainer, 1884 bytes) vs "),
        "{text}"
    );
}

#[test]
fn diff_of_standard_input_with_itself_is_a_usage_error() {
    let out = hexlens_with_input(&["diff", "-", "-"], b"DXBC");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("hexlens: A and B cannot both be '-'"),
        "{err}"
    );
    assert!(err.contains("Usage: hexlens diff"), "{err}");
}

#[test]
fn color_always_paints_names_values_displays_errors_and_unknown_bytes_apart() {
    let raw = repo().join("Cargo.toml").to_string_lossy().into_owned();
    for (file, status) in [(fixture(CLEAN), 0), (fixture(DAMAGED), 1), (raw.clone(), 1)] {
        let never = hexlens(&["dump", &file, "--color", "never"]);
        let always = hexlens(&["dump", &file, "--color", "always"]);
        let plain = hexlens(&["dump", &file]);
        for out in [&never, &always, &plain] {
            assert_eq!(out.status.code(), Some(status), "{file}");
        }
        assert!(
            !never.stdout.contains(&0x1B),
            "{file}: --color never painted"
        );
        // Standard output is a pipe here: auto is plain.
        assert_eq!(plain.stdout, never.stdout, "{file}");
        assert!(always.stdout.windows(2).any(|w| w == b"\x1B["), "{file}");
        assert!(strip_ansi(&always.stdout) == never.stdout, "{file}");
        // Also with a depth limit (the "not shown" note) and a lazy threshold.
        for extra in [&["--max-depth", "1"][..], &["--lazy-threshold", "64"][..]] {
            let never =
                hexlens(&[&["dump", file.as_str(), "--color", "never"][..], extra].concat());
            let always =
                hexlens(&[&["dump", file.as_str(), "--color", "always"][..], extra].concat());
            assert!(always.stdout.contains(&0x1B), "{file} {extra:?}");
            assert!(
                strip_ansi(&always.stdout) == never.stdout,
                "{file} {extra:?}"
            );
        }
    }
    // Each part in its own colour.
    let clean =
        String::from_utf8(hexlens(&["dump", &fixture(CLEAN), "--color", "always"]).stdout).unwrap();
    let name = escape_before(&clean, "FileSize");
    let value = escape_before(&clean, "1884\x1B");
    let display = escape_before(&clean, "container digest");
    let damaged =
        String::from_utf8(hexlens(&["dump", &fixture(DAMAGED), "--color", "always"]).stdout)
            .unwrap();
    let error = escape_before(&damaged, "! offset 0x1F4");
    let unknown_line = damaged
        .lines()
        .find(|l| l.contains("[unknown]"))
        .expect("an unknown node");
    let unknown = escape_before(unknown_line, "unknown");
    let all = [&name, &value, &display, &error, &unknown];
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert_ne!(a, b, "two parts share a colour: {all:?}");
        }
    }
    // JSON is never painted.
    let json = hexlens(&["dump", &fixture(CLEAN), "--json", "--color", "always"]);
    assert_eq!(
        json.stdout,
        hexlens(&["dump", &fixture(CLEAN), "--json"]).stdout
    );
    let out = hexlens(&["dump", &fixture(CLEAN), "--color", "sometimes"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn color_auto_paints_only_a_terminal_without_no_color() {
    // `script` runs the dump on a pseudo-terminal.
    let run = |no_color: Option<&str>| {
        let mut cmd = std::process::Command::new("script");
        cmd.args(["-q", "-e", "-c"])
            .arg(format!(
                "'{}' dump '{}'",
                env!("CARGO_BIN_EXE_hexlens"),
                fixture(CLEAN)
            ))
            .arg("/dev/null");
        cmd.env_remove("NO_COLOR");
        if let Some(v) = no_color {
            cmd.env("NO_COLOR", v);
        }
        let out = cmd.output().expect("run script");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("FileSize"));
        out.stdout.contains(&0x1B)
    };
    assert!(run(None), "a terminal is painted");
    assert!(run(Some("")), "an empty NO_COLOR is unset");
    assert!(!run(Some("1")), "NO_COLOR=1 is plain");
}

#[test]
fn usage_errors_exit_2_with_a_message_on_standard_error() {
    let file = fixture(CLEAN);
    for (args, says) in [
        (&["frobnicate"][..], "unrecognized subcommand 'frobnicate'"),
        (&[][..], "no command given"),
        (&["dump"][..], "<FILE>"),
        (&["dump", &file, "--bogus"][..], "'--bogus'"),
        (
            &["dump", &file, "--max-depth", "deep"][..],
            "'--max-depth <N>'",
        ),
        (&["dump", &file, "--select"][..], "'--select <PATH>'"),
        (&["find", &file, "x", "--max", "-3"][..], "'-3'"),
        (&["formats", "extra"][..], "'extra'"),
        (&["completions"][..], "<SHELL>"),
    ] {
        let out = hexlens(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with("hexlens: "), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(err.contains("--help"), "{args:?}: {err}");
    }
    // An I/O error: the message alone, on standard error.
    let out = hexlens(&["dump", &file, "--select", "No/Such/Node"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("hexlens: ") && err.contains("has no node at 'No/Such/Node'"),
        "{err}"
    );
}

#[test]
fn diff_color_always_paints_each_line_by_its_sign_and_nothing_else_changes() {
    let a = fixture("dxcontainer/curated/embedded_rs_gs_space1_code_dxbc.dxbc");
    let b = fixture("dxcontainer/curated/embedded_rs_gs_space1_naked_code_dxbc.dxbc");
    for extra in [&[][..], &["--tree"][..]] {
        let run = |color: &str| {
            let out = hexlens(
                &[
                    &["diff", a.as_str(), b.as_str(), "--color", color][..],
                    extra,
                ]
                .concat(),
            );
            assert_eq!(out.status.code(), Some(1));
            out.stdout
        };
        let (never, always) = (run("never"), run("always"));
        assert!(!never.contains(&0x1b), "--color never painted");
        assert_eq!(strip_ansi(&always), never, "{extra:?}");
        let text = String::from_utf8(always).unwrap();
        // Removals red, changes yellow; the summary (last line) plain.
        assert!(text.contains("\u{1b}[31m- "), "{text}");
        assert!(text.contains("\u{1b}[33m~ "), "{text}");
        assert!(!text.lines().last().unwrap().contains('\u{1b}'));
    }
    // The JSON is never painted.
    let json = hexlens(&["diff", &a, &b, "--json", "--color", "always"]);
    assert!(!json.stdout.contains(&0x1b));
}
