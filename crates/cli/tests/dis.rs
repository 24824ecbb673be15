//! `hexlens dis`: FXC's listing of SM4/5 programs and LLVM text of DXIL
//! modules, as text and as JSON Lines.

mod support;

use support::{hexlens, repo};

fn fxc(name: &str) -> std::path::PathBuf {
    hexlens_testkit::repo::dxcontainer_samples()
        .join("fxc-listings")
        .join(name)
}

const HS: &str = "SlimShader.Tests__Shaders__HlslCrossCompiler__hs5__basic";

#[test]
fn dis_prints_fxcs_listing_after_a_heading_naming_the_program() {
    let o = fxc(&format!("{HS}.o"));
    let out = hexlens(&["dis", o.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{:?}", out);
    let text = String::from_utf8(out.stdout).unwrap();
    let asm = std::fs::read_to_string(o.with_extension("asm")).unwrap();
    let mut want = vec!["// hexlens: Parts/[4] SHEX".to_string()];
    want.extend(asm.lines().skip(2).map(|l| l.trim_end().to_string()));
    let got: Vec<String> = text.lines().map(|l| l.trim_end().to_string()).collect();
    assert_eq!(got, want);
}

#[test]
fn dis_json_gives_each_line_its_program_number_text_and_ranges() {
    let o = fxc(&format!("{HS}.o"));
    let size = std::fs::metadata(&o).unwrap().len();
    let out = hexlens(&["dis", "--json", o.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let plain = String::from_utf8(hexlens(&["dis", o.to_str().unwrap()]).stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object a line"))
        .collect();
    // Every text line but the heading.
    assert_eq!(lines.len(), plain.lines().count() - 1);
    for (k, l) in lines.iter().enumerate() {
        assert_eq!(l["program"], "Parts/[4]");
        assert_eq!(l["line"], k as u64 + 1);
        assert_eq!(
            l["text"].as_str().unwrap(),
            plain.lines().nth(k + 1).unwrap()
        );
        for (key, scale) in [("spans", 1), ("bits", 8)] {
            for r in l[key].as_array().unwrap() {
                let (s, e) = (r[0].as_u64().unwrap(), r[1].as_u64().unwrap());
                assert!(s < e && e <= size * scale, "{l}");
            }
        }
    }
    // `mov r0.x, vForkInstanceID.x`: its opcode token, r0.x (token and index)
    // and vForkInstanceID.x (a token).
    let mov = lines
        .iter()
        .find(|l| l["text"] == "mov r0.x, vForkInstanceID.x")
        .unwrap();
    let r = &mov["spans"][0];
    assert_eq!(r[1].as_u64().unwrap() - r[0].as_u64().unwrap(), 16);
    // The footer points into STAT.
    let last = lines.last().unwrap();
    assert_eq!(last["text"], "// Approximately 3 instruction slots used");
    assert_eq!(last["spans"].as_array().unwrap().len(), 1);
}

#[test]
fn dis_select_takes_the_program_or_a_node_inside_it() {
    let o = fxc(&format!("{HS}.o"));
    let o = o.to_str().unwrap();
    let whole = hexlens(&["dis", o]).stdout;
    for path in ["Parts/[4]", "Parts/[4]/Shader/Instructions/[3]"] {
        let out = hexlens(&["dis", "--select", path, o]);
        assert_eq!(out.status.code(), Some(0), "{path}");
        assert_eq!(out.stdout, whole, "{path}");
    }
    let out = hexlens(&["dis", "--select", "Parts/[0]", o]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("in no program"));
}

#[test]
fn dis_of_a_file_without_a_program_exits_1_and_says_so() {
    let f = repo().join("tests/fixtures/cdac/x86_64-blob.bin");
    let out = hexlens(&["dis", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds no program"));
}

#[test]
fn dis_of_a_damaged_program_prints_what_it_can_and_says_where_it_stopped() {
    let mut bytes = std::fs::read(fxc(&format!("{HS}.o"))).unwrap();
    // The 5th instruction's length (bits 24-30 of its opcode token) made 0.
    let dir = std::env::temp_dir().join(format!("hexlens-dis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shex = 360 + 8; // Parts/[4]'s program: version, length, then tokens
    let fifth = shex + 4 * 4;
    bytes[fifth + 3] = 0;
    let f = dir.join("damaged.o");
    std::fs::write(&f, &bytes).unwrap();
    let out = hexlens(&["dis", f.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("dcl_output_control_point_count 4"), "{text}");
    assert!(
        text.contains("// hexlens: the program stops being readable at 0x"),
        "{text}"
    );
}

/// A DXIL container's module prints after a `;` heading naming its part, as
/// llvm-dis-14 prints it; a bare bitcode file prints with no heading.
#[test]
fn dis_prints_dxil_modules_as_llvm_dis_14() {
    let bc = repo().join("tests/fixtures/bitcode/dxc_hull_shader.bc");
    let out = hexlens(&["dis", bc.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let want = std::process::Command::new(hexlens_testkit::tools::llvm_dis_14())
        .arg(&bc)
        .arg("-o")
        .arg("-")
        .output()
        .unwrap();
    let want = String::from_utf8(want.stdout).unwrap();
    // The ModuleID and source_filename lines name the input as each was given it.
    let tail = |t: &str| t.lines().skip(2).map(str::to_string).collect::<Vec<_>>();
    assert!(tail(&want).len() > 20);
    assert_eq!(tail(&text), tail(&want));
    assert!(text.starts_with("; ModuleID = "));
    // --dialect 19: the same module with opaque pointers, as LLVM 19 reads it.
    let out19 = hexlens(&["dis", "--dialect", "19", bc.to_str().unwrap()]);
    assert_eq!(out19.status.code(), Some(0));
    let t19 = String::from_utf8(out19.stdout).unwrap();
    assert!(text.contains("!{void ()* @main, "), "{text}");
    assert!(t19.contains("!{ptr @main, "), "{t19}");
    assert!(!t19.lines().any(|l| !l.starts_with(';') && l.contains(")*")));
    assert_eq!(t19.lines().count(), text.lines().count());

    let c = repo().join(
        "tests/fixtures/dxcontainer/curated/d3d12_geometry_shader_L1216_gs_code_dxil.dxil.dxbc",
    );
    let out = hexlens(&["dis", c.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let first: Vec<&str> = text.lines().take(2).collect();
    assert_eq!(first[0], "; hexlens: Parts/[4] DXIL");
    assert_eq!(first[1], "; ModuleID = 'Parts/[4]'");
    assert!(text.contains("define void @main() {"));
    let json = hexlens(&["dis", "--json", c.to_str().unwrap()]);
    let size = std::fs::metadata(&c).unwrap().len();
    let lines: Vec<serde_json::Value> = String::from_utf8(json.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() + 1, text.lines().count());
    let call = lines
        .iter()
        .find(|l| l["text"].as_str().unwrap().contains("= call "))
        .expect("a call line");
    let spans = call["spans"].as_array().unwrap();
    assert!(!spans.is_empty());
    for sp in spans {
        let (s, e) = (sp[0].as_u64().unwrap(), sp[1].as_u64().unwrap());
        assert!(s < e && e <= size);
    }
}

/// A module clang-19 wrote prints as llvm-dis-19 prints it, with its debug
/// information too; `--json` lines point at the module's records.
#[test]
fn dis_of_clang_19_modules() {
    let bc = repo().join("tests/fixtures/bitcode/plain_linux_O0.bc");
    let out = hexlens(&["dis", bc.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let want = std::process::Command::new(hexlens_testkit::tools::llvm_19_tool("llvm-dis"))
        .arg(&bc)
        .arg("-o")
        .arg("-")
        .output()
        .unwrap();
    let tail = |t: &[u8]| {
        String::from_utf8_lossy(t)
            .lines()
            .skip(2)
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert!(tail(&want.stdout).len() > 50);
    assert_eq!(tail(&out.stdout), tail(&want.stdout));
    // --function: that function's lines of the whole text, numbered as there.
    let whole = tail(&want.stdout);
    let at = whole
        .iter()
        .position(|l| l.starts_with("define") && l.contains("@sum("))
        .unwrap();
    let end = at + whole[at..].iter().position(|l| l == "}").unwrap();
    let one = hexlens(&["dis", "--function", "sum", bc.to_str().unwrap()]);
    assert_eq!(one.status.code(), Some(0));
    let got: Vec<String> = String::from_utf8_lossy(&one.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    let from = if whole[at - 1].starts_with("; Function Attrs:") {
        at - 1
    } else {
        at
    };
    assert_eq!(got, whole[from..=end].to_vec());
    let none = hexlens(&[
        "dis",
        "--function",
        "no_such_function",
        bc.to_str().unwrap(),
    ]);
    assert_eq!(none.status.code(), Some(1));
    // The same module inside another file: found, headed by its path.
    let dir = hexlens_testkit::tools::scratch_dir("dis-embedded");
    let inside = dir.join("inside.bin");
    let mut bytes = vec![0x11u8; 1000];
    bytes.extend(std::fs::read(&bc).unwrap());
    bytes.extend([0x22u8; 300]);
    std::fs::write(&inside, &bytes).unwrap();
    let out = hexlens(&["dis", inside.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        text.starts_with("; hexlens: Bitcode@0x3E8 bitcode\n; ModuleID = 'Bitcode@0x3E8'\n"),
        "{text}"
    );
    let lines: Vec<String> = text.lines().skip(3).map(str::to_string).collect();
    assert_eq!(lines, whole.to_vec());

    let dir = hexlens_testkit::tools::scratch_dir("dis-debug");
    let g = dir.join("g.bc");
    let made = std::process::Command::new(hexlens_testkit::tools::llvm_19_tool("clang"))
        .args(["-c", "-emit-llvm", "-g", "-O0"])
        .arg(repo().join("crates/testkit/src/generators/bitcode/bitcode_sample.c"))
        .arg("-o")
        .arg(&g)
        .output()
        .unwrap();
    assert!(made.status.success());
    let out = hexlens(&["dis", g.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let want = std::process::Command::new(hexlens_testkit::tools::llvm_19_tool("llvm-dis"))
        .arg(&g)
        .arg("-o")
        .arg("-")
        .output()
        .unwrap();
    assert!(tail(&want.stdout)
        .iter()
        .any(|l| l.contains("#dbg_declare")));
    assert_eq!(tail(&out.stdout), tail(&want.stdout));
    // Every line of the JSON form lies inside the file; a DILocation's
    // line points at a record.
    let json = hexlens(&["dis", "--json", g.to_str().unwrap()]);
    let size = std::fs::metadata(&g).unwrap().len();
    let _ = std::fs::remove_dir_all(&dir);
    let mut located = 0;
    for l in String::from_utf8(json.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        for sp in v["spans"].as_array().unwrap() {
            assert!(sp[1].as_u64().unwrap() <= size, "{l}");
        }
        if v["text"].as_str().unwrap().contains("= !DILocation(") {
            assert!(!v["spans"].as_array().unwrap().is_empty(), "{l}");
            located += 1;
        }
    }
    assert!(located > 10, "{located}");
}
