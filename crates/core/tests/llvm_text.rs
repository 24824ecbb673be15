//! LLVM assembly made from bitcode (`hexlens_core::llvmir`), against
//! `llvm-dis-14` on every DXIL module of the shared corpus and `llvm-dis-19`
//! on modules clang-19 makes of the repository's C sources: lines equal, line
//! for line, the `; ModuleID` and (DXC's modules name no source file)
//! `source_filename` lines aside.

use hexlens_core::llvmir;
use hexlens_testkit::{repo, tools};
use std::process::Command;

/// Compiles `src` to a bitcode module at `out` with `clang` and `args`.
fn compile(clang: &std::path::Path, args: &[&str], src: &std::path::Path, out: &std::path::Path) {
    let o = Command::new(clang)
        .args(args)
        .arg("-c")
        .arg("-emit-llvm")
        .arg(src)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}: {}",
        clang.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `dis`'s text of the module at `bc` (`llvm-dis-14`, `llvm-dis-19`).
fn dis_text(dis: &std::path::Path, bc: &std::path::Path) -> String {
    let o = Command::new(dis)
        .arg(bc)
        .arg("-o")
        .arg("-")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}: {}",
        dis.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// hexlens's text of `m` (named `name`), a line a string.
fn text_lines(m: &llvmir::Module, name: &str) -> Vec<String> {
    llvmir::write::module(m.clone(), name)
        .iter()
        .flat_map(|l| l.text.split('\n').map(str::to_string).collect::<Vec<_>>())
        .collect()
}

/// Asserts that hexlens's text of `m` (from the module at `bc`) is `want`
/// line for line, the first `skip` lines and trailing whitespace aside;
/// `what` names the module in a failure. Returns `want`'s line count.
fn assert_text(
    m: &llvmir::Module,
    bc: &std::path::Path,
    want: &str,
    skip: usize,
    what: &str,
) -> usize {
    let got = text_lines(m, &bc.display().to_string());
    let want: Vec<&str> = want.lines().collect();
    assert_eq!(got.len(), want.len(), "{what}");
    for (k, (g, w)) in got.iter().zip(&want).enumerate().skip(skip) {
        assert_eq!(g.trim_end(), w.trim_end(), "{what} line {}", k + 1);
    }
    want.len()
}

/// The bitcode of each DXIL part of a container: (part index, bytes).
fn dxil_modules(bytes: &[u8]) -> Vec<(usize, Vec<u8>)> {
    let u32_at = |k: usize| -> Option<u32> {
        Some(u32::from_le_bytes(bytes.get(k..k + 4)?.try_into().ok()?))
    };
    let mut out = Vec::new();
    if bytes.get(..4) != Some(b"DXBC") {
        return out;
    }
    let n = u32_at(28).unwrap_or(0) as usize;
    for k in 0..n.min(1024) {
        let Some(off) = u32_at(32 + 4 * k) else { break };
        let off = off as usize;
        if bytes.get(off..off + 4) != Some(b"DXIL") {
            continue;
        }
        // Part header (8), program header: version, size, then the bitcode
        // header: magic, DXIL version, bitcode offset and size.
        let at = off + 8;
        let (Some(boff), Some(bsize)) = (u32_at(at + 16), u32_at(at + 20)) else {
            continue;
        };
        let start = at + 8 + boff as usize;
        if let Some(bc) = bytes.get(start..start + bsize as usize) {
            out.push((k, bc.to_vec()));
        }
    }
    out
}

#[test]
fn dxil_modules_print_as_llvm_dis_14_prints_them() {
    let dis = tools::llvm_dis_14();
    let dir = tools::scratch_dir("llvm-text");
    let mut modules = 0;
    let mut equal_modules = 0;
    let mut lines = 0usize;
    let mut equal = 0usize;
    let mut first_diffs = Vec::new();
    for path in repo::files_under(&repo::dxcontainer_samples()) {
        let bytes = std::fs::read(&path).unwrap();
        for (k, bc) in dxil_modules(&bytes) {
            modules += 1;
            let f = dir.join(format!("m{modules}.bc"));
            std::fs::write(&f, &bc).unwrap();
            let o = Command::new(&dis)
                .arg(&f)
                .arg("-o")
                .arg("-")
                .output()
                .unwrap();
            assert!(o.status.success(), "{}: llvm-dis-14 failed", path.display());
            let want = String::from_utf8_lossy(&o.stdout).into_owned();
            let m = llvmir::read_lazily(&bc);
            let got = llvmir::write::module(m, &f.display().to_string());
            let got: Vec<String> = got
                .iter()
                .flat_map(|l| l.text.split('\n').map(str::to_string).collect::<Vec<_>>())
                .collect();
            let want: Vec<&str> = want.lines().collect();
            let mut same = true;
            for (i, w) in want.iter().enumerate() {
                if i < 2 {
                    continue;
                }
                lines += 1;
                if got.get(i).map(|g| g.trim_end()) == Some(w.trim_end()) {
                    equal += 1;
                } else if same {
                    same = false;
                    first_diffs.push(format!(
                        "{} part {k} line {}:\n  llvm-dis: {w}\n  hexlens:  {}",
                        path.file_name().unwrap().to_string_lossy(),
                        i + 1,
                        got.get(i).map_or("(none)", String::as_str)
                    ));
                }
            }
            if same && got.len() != want.len() {
                same = false;
                first_diffs.push(format!(
                    "{}: {} lines, llvm-dis {}",
                    path.display(),
                    got.len(),
                    want.len()
                ));
            }
            if same {
                equal_modules += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("modules equal: {equal_modules} of {modules}; lines equal: {equal} of {lines}");
    for d in first_diffs.iter().take(40) {
        eprintln!("{d}");
    }
    assert!(modules >= 395, "{modules} modules");
    assert_eq!(
        equal_modules, modules,
        "modules that differ from llvm-dis-14"
    );
    assert_eq!(equal, lines);
}

/// DXIL containers cut short anywhere or with a byte changed: the text is
/// still made, every line's bits lie inside the file, and nothing panics.
#[test]
fn damaged_modules_print_what_they_can() {
    use hexlens_core::dis;
    let mut made = 0;
    let files: Vec<_> = repo::files_under(&repo::dxcontainer_samples())
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".dxil.dxbc"))
        .step_by(40)
        .collect();
    assert!(files.len() >= 5, "{} files", files.len());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let mut variants: Vec<Vec<u8>> = (0..bytes.len())
            .step_by(97)
            .map(|n| bytes[..n].to_vec())
            .collect();
        for k in (0..bytes.len()).step_by(41) {
            for v in [0x00, 0xFF, 0x5A] {
                let mut b = bytes.clone();
                b[k] = v;
                variants.push(b);
            }
        }
        for b in variants {
            let d = hexlens_core::decode_bytes(&b);
            for p in dis::programs(&d.tree) {
                if p.syntax != dis::Syntax::Llvm {
                    continue;
                }
                let lines = dis::listing(&d.tree, &p, &b.as_slice());
                for l in &lines {
                    for (s, e) in l.spans() {
                        assert!(
                            s < e && e <= b.len() as u64,
                            "{}: {:?}",
                            path.display(),
                            l.text
                        );
                    }
                }
                made += 1;
            }
        }
    }
    eprintln!("{made} damaged modules printed");
    assert!(made > 1000, "{made}");
}

/// Damaged clang-19 modules with debug information (truncated, bytes
/// overwritten) print what they can, never panic, and say where they
/// stopped; every line's bits lie inside the file.
#[test]
fn damaged_modules_with_debug_information_print_what_they_can() {
    use hexlens_core::dis;
    let dir = tools::scratch_dir("llvm-text-damage-19");
    let bc = dir.join("g.bc");
    compile(
        &tools::llvm_19_tool("clang"),
        &["-g", "-O2"],
        &repo::root().join("crates/testkit/src/generators/bitcode/bitcode_sample.c"),
        &bc,
    );
    let bytes = std::fs::read(&bc).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let mut variants: Vec<Vec<u8>> = (0..bytes.len())
        .step_by(7)
        .map(|n| bytes[..n].to_vec())
        .collect();
    for k in (0..bytes.len()).step_by(5) {
        for v in [0x00, 0xFF, 0x5A] {
            let mut b = bytes.clone();
            b[k] = v;
            variants.push(b);
        }
    }
    let mut stopped = 0;
    for b in &variants {
        let mut lines = 0;
        let mut said = false;
        dis::llvm_text_to(b, 0, "damaged", None, &mut |l| {
            lines += 1;
            said |= l.text.starts_with("; hexlens: the module stops");
            for (s, e) in l.spans() {
                assert!(s < e && e <= b.len() as u64, "{:?}", l.text);
            }
        });
        assert!(lines > 0);
        stopped += usize::from(said);
    }
    eprintln!(
        "{} damaged modules printed, {stopped} saying where they stopped",
        variants.len()
    );
    assert!(
        variants.len() > 500 && stopped > 100,
        "{} {stopped}",
        variants.len()
    );
}

/// `hexlens dis` of a container's DXIL part: every line's bits lie inside the
/// part, and every instruction record of every function body (as the tree
/// decodes them) is on some line, as is each body's DECLAREBLOCKS record.
#[test]
fn every_instruction_record_is_on_a_line() {
    use hexlens_core::dis;
    let mut records = 0;
    let mut programs = 0;
    for path in repo::files_under(&repo::dxcontainer_samples())
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".dxil.dxbc"))
    {
        let bytes = std::fs::read(&path).unwrap();
        let d = hexlens_core::decode_bytes(&bytes);
        let t = &d.tree;
        for p in dis::programs(t) {
            if p.syntax != dis::Syntax::Llvm {
                continue;
            }
            programs += 1;
            let part = t.span(p.node);
            let lines = dis::listing(t, &p, &bytes.as_slice());
            let mut bits: Vec<(u64, u64)> = lines.iter().flat_map(|l| l.bits.clone()).collect();
            for &(s, e) in &bits {
                assert!(
                    s >= part.start && e <= part.end,
                    "{}: bits {s}..{e} outside the part",
                    path.display()
                );
            }
            bits.sort_unstable();
            let covered = |s: u64, e: u64| bits.iter().any(|&(a, b)| a <= s && e <= b);
            let mut stack = vec![p.node];
            while let Some(n) = stack.pop() {
                let shown = t.display(n).map(|d| d.into_owned()).unwrap_or_default();
                if shown.starts_with("INST_") || shown.starts_with("DECLAREBLOCKS") {
                    records += 1;
                    let sp = t.span(n);
                    assert!(
                        covered(sp.start, sp.end),
                        "{} {}: {shown} is on no line",
                        path.display(),
                        t.path(n)
                    );
                    continue;
                }
                stack.extend(t.children(n).iter().copied());
            }
        }
    }
    eprintln!("{programs} modules, {records} instruction records, each on a line");
    assert!(programs >= 390 && records > 10_000, "{programs} {records}");
}

/// clang-19's modules of the repository's C and C++ sources at -O0, -O1 and
/// -O2, with and without debug information, print as `llvm-dis-19` prints
/// them, every line.
#[test]
fn clang_19_modules_print_as_llvm_dis_19_prints_them() {
    let dir = tools::scratch_dir("llvm-text-19");
    let sources = [
        repo::root().join("crates/testkit/src/generators/bitcode/bitcode_sample.c"),
        repo::root().join("crates/testkit/src/generators/cdac/hexlens_blob.c"),
        repo::root().join("crates/testkit/src/generators/bitcode/program_text.cpp"),
    ];
    let mut modules = 0;
    let mut lines = 0;
    let mut debug_lines = 0;
    for src in &sources {
        for (opt, g) in ["-O0", "-O1", "-O2"]
            .into_iter()
            .flat_map(|o| [(o, false), (o, true)])
        {
            let bc = dir.join(format!("m{modules}.bc"));
            let mut args = vec![opt];
            if g {
                args.push("-g");
            }
            compile(&tools::llvm_19_tool("clang"), &args, src, &bc);
            let want = dis_text(&tools::llvm_19_tool("llvm-dis"), &bc);
            let bytes = std::fs::read(&bc).unwrap();
            let m = llvmir::read_lazily(&bytes);
            assert!(m.modern());
            assert_text(&m, &bc, &want, 2, &format!("{} {opt} {g}", src.display()));
            let want: Vec<&str> = want.lines().collect();
            modules += 1;
            lines += want.len();
            if g {
                debug_lines += want
                    .iter()
                    .filter(|l| l.contains("!DI") || l.contains("#dbg_") || l.contains("!dbg"))
                    .count();
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{modules} clang-19 modules, {lines} lines ({debug_lines} with debug information), all equal");
    assert_eq!(modules, 18);
    // The -g modules hold debug information: the comparison covered it.
    assert!(debug_lines > 5000, "{debug_lines}");
}

/// Assembles `text` with `asm` and prints the module it gives with `dis`.
fn reassembled(
    text: &str,
    asm: &std::path::Path,
    dis: &std::path::Path,
    dir: &std::path::Path,
) -> Result<String, String> {
    let ll = dir.join("rt.ll");
    let bc = dir.join("rt.bc");
    std::fs::write(&ll, text).unwrap();
    let o = Command::new(asm)
        .arg(&ll)
        .arg("-o")
        .arg(&bc)
        .output()
        .unwrap();
    if !o.status.success() {
        return Err(String::from_utf8_lossy(&o.stderr).into_owned());
    }
    let o = Command::new(dis)
        .arg(&bc)
        .arg("-o")
        .arg("-")
        .output()
        .unwrap();
    if !o.status.success() {
        return Err(String::from_utf8_lossy(&o.stderr).into_owned());
    }
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// The text of `bc` as hexlens makes it, and as `dis` prints it.
fn both_texts(bc: &[u8], file: &std::path::Path, dis: &std::path::Path) -> (String, String) {
    std::fs::write(file, bc).unwrap();
    let m = llvmir::read_lazily(bc);
    let mut ours = text_lines(&m, &file.display().to_string()).join("\n");
    ours.push('\n');
    (ours, dis_text(dis, file))
}

/// Round trip: `llvm-as` of hexlens's text gives a module whose `llvm-dis`
/// text is the original's (the `; ModuleID` line aside): every DXIL module
/// of the corpus through LLVM 14's tools, the clang-19 modules of the
/// repository's sources (with debug information) through LLVM 19's.
#[test]
fn text_assembles_back_to_the_same_module() {
    let dir = tools::scratch_dir("llvm-text-round-trip");
    // The order of `; preds =` lists follows use-list order, which the text
    // does not carry (llvm-dis's own text reassembles the same way): they
    // are compared as sets.
    let body = |t: &str| {
        t.lines()
            .skip(1)
            .map(|l| match l.split_once("; preds = ") {
                Some((head, preds)) => {
                    let mut p: Vec<&str> = preds.trim_end().split(", ").collect();
                    p.sort_unstable();
                    format!("{head}; preds = {}", p.join(", "))
                }
                None => l.trim_end().to_string(),
            })
            .collect::<Vec<_>>()
    };
    let (as14, dis14) = (tools::llvm_14_tool("llvm-as"), tools::llvm_dis_14());
    let mut dxil = 0;
    for path in repo::files_under(&repo::dxcontainer_samples()) {
        let bytes = std::fs::read(&path).unwrap();
        for (k, bc) in dxil_modules(&bytes) {
            let (ours, want) = both_texts(&bc, &dir.join("m.bc"), &dis14);
            let again = reassembled(&ours, &as14, &dis14, &dir).unwrap_or_else(|e| {
                panic!(
                    "{} part {k}: llvm-as-14 rejects hexlens's text: {e}",
                    path.display()
                )
            });
            assert_eq!(body(&again), body(&want), "{} part {k}", path.display());
            dxil += 1;
        }
    }
    let (as19, dis19) = (
        tools::llvm_19_tool("llvm-as"),
        tools::llvm_19_tool("llvm-dis"),
    );
    let mut modern = 0;
    for src in [
        "crates/testkit/src/generators/bitcode/bitcode_sample.c",
        "crates/testkit/src/generators/bitcode/program_text.cpp",
    ] {
        for opt in ["-O0", "-O2"] {
            let bc = dir.join("c.bc");
            compile(
                &tools::llvm_19_tool("clang"),
                &["-g", opt],
                &repo::root().join(src),
                &bc,
            );
            let bytes = std::fs::read(&bc).unwrap();
            let (ours, want) = both_texts(&bytes, &dir.join("c2.bc"), &dis19);
            let again = reassembled(&ours, &as19, &dis19, &dir)
                .unwrap_or_else(|e| panic!("{src} {opt}: llvm-as-19 rejects hexlens's text: {e}"));
            assert_eq!(body(&again), body(&want), "{src} {opt}");
            modern += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{dxil} DXIL modules and {modern} clang-19 modules assemble back to the same text");
    assert!(dxil >= 395, "{dxil}");
    assert_eq!(modern, 4);
}

/// LLVM 14's modules (clang-14: typed pointers, `llvm.dbg.*` calls taking
/// metadata, `inrange` GEP indices) of the repository's C and C++ sources,
/// at -O0 and -O2 with and without debug information, printed in the 14
/// dialect, equal `llvm-dis-14`'s text line for line; those of the C
/// sources at -O0, in the 19 dialect, equal `llvm-dis-19`'s.
#[test]
fn clang_14_modules_print_as_llvm_dis_14_prints_them() {
    let dir = tools::scratch_dir("llvm-text-14");
    let dis = tools::llvm_dis_14();
    let mut modules = 0;
    let mut lines = 0;
    let mut upgraded = 0;
    for src in [
        "crates/testkit/src/generators/bitcode/bitcode_sample.c",
        "crates/testkit/src/generators/cdac/hexlens_blob.c",
        "crates/testkit/src/generators/bitcode/program_text.cpp",
    ] {
        for (opt, g) in [("-O0", false), ("-O0", true), ("-O2", false), ("-O2", true)] {
            let bc = dir.join(format!("m{modules}.bc"));
            let mut args = vec![opt];
            if g {
                args.push("-g");
            }
            compile(
                &tools::llvm_14_tool("clang"),
                &args,
                &repo::root().join(src),
                &bc,
            );
            let want = dis_text(&dis, &bc);
            let bytes = std::fs::read(&bc).unwrap();
            let mut m = llvmir::read_lazily(&bytes);
            // An LLVM 14 producer: by default its text is LLVM 19's.
            assert!(m.modern());
            m.dialect = Some(14);
            let n = assert_text(&m, &bc, &want, 1, &format!("{src} {opt} {g}"));
            // In LLVM 19's dialect (what llvm-dis-19 makes of it: opaque
            // pointers, memory(...), debug records, the x86 data layout
            // and PIC Level upgrades), for the C modules without intrinsic
            // declarations (LLVM 19 gives those its own attributes).
            if opt == "-O0" && src.ends_with(".c") {
                m.dialect = None;
                let want19 = dis_text(&tools::llvm_19_tool("llvm-dis"), &bc);
                assert_text(&m, &bc, &want19, 1, &format!("{src} {opt} {g} (19)"));
                upgraded += 1;
            }
            modules += 1;
            lines += n;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(upgraded, 4);
    eprintln!("{modules} clang-14 modules, {lines} lines, all equal");
    assert_eq!(modules, 12);
}

/// The text in pieces ([`hexlens_core::dis::ProgramText`], what the viewer
/// asks for a screen at a time) is the whole text, whatever order the pieces
/// are made in: the tail (metadata) before any function, the functions
/// backwards. On clang-19 C and C++ modules with debug information, a DXIL
/// container of the corpus and an SM4/5 one.
#[test]
fn the_text_in_pieces_is_the_whole_text_in_any_order() {
    use hexlens_core::dis::{self, Line};
    let dir = tools::scratch_dir("llvm-text-pieces");
    let mut files = Vec::new();
    for (k, src) in [
        "crates/testkit/src/generators/bitcode/bitcode_sample.c",
        "crates/testkit/src/generators/bitcode/program_text.cpp",
    ]
    .iter()
    .enumerate()
    {
        let bc = dir.join(format!("p{k}.bc"));
        compile(
            &tools::llvm_19_tool("clang"),
            &["-O1", "-g"],
            &repo::root().join(src),
            &bc,
        );
        files.push(bc);
    }
    let samples = repo::shared_dir().join("samples/dxcontainer/curated");
    files.push(samples.join("basic_code_dxil.dxil.dxbc"));
    files.push(samples.join("d3d12_shaders_L2434_ps_dmax_code.dxbc"));
    let text = |lines: &[Line]| -> Vec<(String, Vec<(u64, u64)>)> {
        lines
            .iter()
            .map(|l| (l.text.clone(), l.bits.clone()))
            .collect()
    };
    // The file's programs, and the text of the one holding a byte.
    let dxil = std::fs::read(&files[2]).unwrap();
    let (all, k, _) = dis::open_text(&dxil.as_slice(), false, dis::Pick::At(0), "m", None).unwrap();
    assert_eq!(k, 0);
    let last = all.last().unwrap();
    let tree = hexlens_core::decode_bytes(&dxil).tree;
    let inside = tree.span(last.node).start / 8 + 20;
    let (_, k, opened) =
        dis::open_text(&dxil.as_slice(), false, dis::Pick::At(inside), "m", None).unwrap();
    assert_eq!(k, all.len() - 1);
    assert!(opened.pieces() >= 1);
    let (_, k, _) = dis::open_text(
        &dxil.as_slice(),
        false,
        dis::Pick::Index(all.len() - 1),
        "m",
        None,
    )
    .unwrap();
    assert_eq!(k, all.len() - 1);
    // A bare module is read without a tree, and named as given.
    let bc = std::fs::read(&files[0]).unwrap();
    let (all, k, mut bare) =
        dis::open_text(&bc.as_slice(), false, dis::Pick::At(0), "p0.bc", None).unwrap();
    assert_eq!((all.len(), k, all[0].path.as_str()), (1, 0, ""));
    assert_eq!(bare.piece(0)[0].text, "; ModuleID = 'p0.bc'");
    let e = dis::open_text(
        &b"not a program".as_slice(),
        false,
        dis::Pick::At(0),
        "m",
        None,
    )
    .err();
    assert!(e.unwrap().contains("no program"));
    let mut functions = 0;
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let tree = hexlens_core::decode_bytes(&data).tree;
        let programs = dis::programs(&tree);
        assert!(!programs.is_empty(), "{}", f.display());
        for p in &programs {
            let src = data.as_slice();
            let mut whole = Vec::new();
            dis::listing_to(&tree, p, &src, "m", None, &mut |l| whole.push(l));
            let mut pieces = dis::ProgramText::open(&tree, p, &src, "m", None);
            let n = pieces.pieces();
            let in_order: Vec<Line> = (0..n).flat_map(|k| pieces.piece(k)).collect();
            assert_eq!(text(&in_order), text(&whole), "{} {}", f.display(), p.path);
            // Afresh, the tail first (its metadata 7 nodes a piece) and the
            // functions backwards.
            let mut pieces = dis::ProgramText::open(&tree, p, &src, "m", None);
            pieces.set_nodes_a_piece(7);
            let n = pieces.pieces();
            let mut made: Vec<Vec<Line>> = vec![Vec::new(); n];
            for k in (0..n).rev() {
                made[k] = pieces.piece(k);
            }
            let backwards: Vec<Line> = made.concat();
            assert_eq!(
                text(&backwards),
                text(&whole),
                "{} {} backwards",
                f.display(),
                p.path
            );
            assert!(pieces.piece(n).is_empty());
            // A bit of an instruction's own record (its line's last range: the
            // first ones may be shared records, its type's or a constant's),
            // or of a metadata line's, leads to a piece with a line made from
            // it (what a byte selected in the hex pane scrolls to).
            let mut checked = 0;
            for (k, piece) in made.iter().enumerate() {
                for l in piece {
                    let is_function =
                        (0..pieces.functions()).any(|f| pieces.function_piece(f) == k);
                    let own = if l.text.starts_with("  ") && is_function {
                        l.bits.last()
                    } else if l.text.starts_with('!') {
                        l.bits.first()
                    } else {
                        None
                    };
                    if let Some(&(b, _)) = own {
                        let at = pieces.piece_at(b);
                        let covered = |x: &Line| x.bits.iter().any(|&(s, e)| s <= b && b < e);
                        assert!(
                            made[at].iter().any(covered),
                            "{} piece {k}: bit {b} of {:?} sent to piece {at}",
                            f.display(),
                            l.text
                        );
                        checked += 1;
                    }
                }
            }
            // Every name a line defines leads to that line's piece (what a
            // click on a use of it goes to).
            if p.syntax == dis::Syntax::Llvm {
                let mut defined = 0;
                for (k, piece) in made.iter().enumerate() {
                    for l in piece {
                        let t = &l.text;
                        let name = if t.starts_with('!') || t.starts_with('@') {
                            t.split(" = ").next().filter(|_| t.contains(" = "))
                        } else if let Some(rest) = t.strip_prefix("attributes ") {
                            rest.split(" = ").next()
                        } else if t.starts_with("define ") || t.starts_with("declare ") {
                            t.find(" @").and_then(|at| t[at + 1..].split('(').next())
                        } else {
                            None
                        };
                        let Some(name) = name else { continue };
                        assert_eq!(pieces.definition(name), Some(k), "{} {name}", f.display());
                        defined += 1;
                    }
                }
                assert!(defined > 20, "{} {defined}", f.display());
            }
            if p.syntax == dis::Syntax::Llvm {
                assert!(checked > 20, "{} {checked}", f.display());
                assert!(
                    pieces.functions() > 0 && n > pieces.functions() + 2,
                    "{}",
                    f.display()
                );
                functions += pieces.functions();
                // A function piece starts with the blank line before it and
                // holds its define or declare line.
                let function_pieces: Vec<usize> = (0..pieces.functions())
                    .map(|f| pieces.function_piece(f))
                    .collect();
                for k in function_pieces {
                    let lines = pieces.piece(k);
                    assert_eq!(lines[0].text, "", "{} piece {k}", f.display());
                    let name = pieces.piece_name(k).unwrap_or_default();
                    assert!(
                        lines.iter().any(|l| (l.text.starts_with("define ")
                            || l.text.starts_with("declare "))
                            && l.text.contains(&format!("@{name}("))
                            || l.text.contains(&format!("@\"{name}\"("))),
                        "{} piece {k} ({name})",
                        f.display()
                    );
                }
            } else {
                assert_eq!(n, 1);
            }
        }
    }
    assert!(functions >= 20, "{functions} functions");
}

/// A module's text needs only the bodies the pieces asked for: the header
/// and the first function's piece read the first bodies, not every body,
/// and the text made that way is the text of the module read whole.
#[test]
fn the_first_pieces_read_only_the_first_bodies() {
    use hexlens_core::dis;
    let dir = tools::scratch_dir("llvm-text-lazy");
    let bc = dir.join("many.bc");
    compile(
        &tools::llvm_19_tool("clang"),
        &["-O1", "-g"],
        &repo::root().join("crates/testkit/src/generators/bitcode/program_text.cpp"),
        &bc,
    );
    let bytes = std::fs::read(&bc).unwrap();
    let eager = llvmir::read(&bytes);
    let bodies = eager.functions.iter().filter(|f| f.body.is_some()).count();
    assert!(bodies >= 6, "{bodies} bodies");
    let lazy = llvmir::read_lazily(&bytes);
    assert_eq!(lazy.unread_bodies(), bodies);
    assert_eq!(text_lines(&lazy, "m"), text_lines(&eager, "m"));
    // The pieces a viewer opens on: the header reads no body, the globals
    // none, the first function's piece its own at most.
    let mut text = dis::ProgramText::bitcode(&bytes, 0, "m", None);
    assert_eq!(text.module_unread(), Some(bodies));
    assert_eq!(text.piece(0)[0].text, "; ModuleID = 'm'");
    let first = text.function_piece(0);
    text.piece(first - 1);
    assert_eq!(text.module_unread(), Some(bodies));
    assert!(!text.piece(first).is_empty());
    assert!(
        text.module_unread() >= Some(bodies - 1),
        "{:?}",
        text.module_unread()
    );
    // The last function's piece reads every body before it; the last
    // piece reads them all.
    text.piece(text.function_piece(text.functions() - 1));
    assert!(text.module_unread() <= Some(1));
    text.piece(text.pieces() - 1);
    assert_eq!(text.module_unread(), Some(0));
    // Where a name is defined: the module's own nodes need no body; a node
    // no function numbers, every body.
    let mut fresh = dis::ProgramText::bitcode(&bytes, 0, "m", None);
    let k = fresh.definition("!0").unwrap();
    assert_eq!(fresh.module_unread(), Some(bodies));
    assert!(fresh.piece(k).iter().any(|l| l.text.starts_with("!0 = ")));
    assert_eq!(fresh.definition("!99999999"), None);
    assert_eq!(fresh.module_unread(), Some(0));
}
