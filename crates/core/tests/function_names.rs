//! Names where the bitcode knows them: a `FUNCTION_BLOCK` shows the name of the
//! function it holds (`FUNCTION_BLOCK (12) "main", 31 words, abbrev width 4`),
//! and a module's `GLOBALVAR` / `FUNCTION` records show the names they get.
//!
//! - Modern bitcode made by `clang-19 -c -emit-llvm` from C with defined,
//!   declared-only and static functions: the blocks' names, in order, are the
//!   `define` lines of `llvm-dis-19`'s listing, in order, in an eager decode, in
//!   a lazy one before and after each block is expanded, and in the streaming
//!   dump; a structure search for a function's name finds its block.
//! - DXIL (LLVM 3.7 bitcode, names in the module's symbol table): every
//!   DirectX Container of the curated fixtures names each function block with a
//!   name the symbol table gives a defined function, in record order; the entry
//!   function its PSV0 part names is among them.
//! - Hand-made VERSION 1 modules whose symbol table comes after the function
//!   blocks (as LLVM 3.8 to 4.0 write it) or names only some functions, and a
//!   VERSION 2 module whose string-table reference is out of range: the names
//!   that can be known are shown, the others are left out, nothing panics.
//!
//! Fails (does not skip) if `clang-19` or `llvm-dis-19` is missing.

use hexlens_core::{decode_bytes, decode_with, expand, NodeId, Options, Tree};
use hexlens_testkit::generators::bitstream::{Op, Writer};
use hexlens_testkit::tools::{llvm_19_tool, scratch_dir};
use hexlens_testkit::{lazy, repo};
use std::path::PathBuf;
use std::process::Command;

/// Compiles C source to bitcode with `clang-19 -c -emit-llvm` and `flags`;
/// returns the bitcode and `llvm-dis-19`'s listing of it.
fn compile(c: &str, stem: &str, flags: &[&str]) -> (Vec<u8>, String) {
    let dir = scratch_dir(&format!("names-{stem}"));
    let src = dir.join(format!("{stem}.c"));
    let bc = dir.join(format!("{stem}.bc"));
    std::fs::write(&src, c).unwrap();
    let out = Command::new(llvm_19_tool("clang"))
        .args(["-c", "-emit-llvm"])
        .args(flags)
        .arg(&src)
        .arg("-o")
        .arg(&bc)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "clang-19 failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dis = Command::new(llvm_19_tool("llvm-dis"))
        .arg(&bc)
        .arg("-o")
        .arg("-")
        .output()
        .unwrap();
    assert!(
        dis.status.success(),
        "llvm-dis-19 failed: {}",
        String::from_utf8_lossy(&dis.stderr)
    );
    let bytes = std::fs::read(&bc).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (bytes, String::from_utf8(dis.stdout).unwrap())
}

/// The function names of the listing's `define` (or `declare`) lines, in order.
fn listed(ir: &str, keyword: &str) -> Vec<String> {
    ir.lines()
        .filter(|l| l.starts_with(&format!("{keyword} ")))
        .map(|l| {
            let at = l.find(" @").expect("a function line names its function") + 2;
            let rest = &l[at..];
            let name = if let Some(quoted) = rest.strip_prefix('"') {
                &quoted[..quoted.find('"').unwrap()]
            } else {
                &rest[..rest.find('(').unwrap()]
            };
            name.to_string()
        })
        .collect()
}

const FUNCTION_BLOCK: &str = "FUNCTION_BLOCK (12)";

/// A name as labels show it: its first 80 characters, then `…`.
fn short(name: &str) -> String {
    if name.chars().count() <= 80 {
        name.to_string()
    } else {
        name.chars().take(80).chain(['…']).collect()
    }
}

/// The name a block's display gives (`FUNCTION_BLOCK (12) "name", …`), if any.
fn shown_name(display: &str) -> Option<String> {
    let rest = display.strip_prefix(FUNCTION_BLOCK)?.strip_prefix(" \"")?;
    Some(rest[..rest.find("\", ")?].to_string())
}

/// Every `FUNCTION_BLOCK` node of the tree, in tree order, with its display.
fn function_blocks(t: &Tree) -> Vec<(NodeId, String)> {
    let mut out = Vec::new();
    t.walk(|id, _| {
        if let Some(d) = t.display(id) {
            if d.starts_with(FUNCTION_BLOCK) {
                out.push((id, d.to_string()));
            }
        }
    });
    out
}

/// The names the tree's function blocks show, in order (`None` for a block
/// that shows none).
fn block_names(t: &Tree) -> Vec<Option<String>> {
    function_blocks(t)
        .into_iter()
        .map(|(_, d)| shown_name(&d))
        .collect()
}

/// The displays of the module records with code `code` (`GLOBALVAR (7)`…).
fn record_displays(t: &Tree, label: &str) -> Vec<String> {
    let mut out = Vec::new();
    t.walk(|id, _| {
        if let Some(d) = t.display(id) {
            if d.starts_with(label) {
                out.push(d.to_string());
            }
        }
    });
    out
}

/// The block names of `bytes` are `want` in an eager decode, in a lazy one
/// (every block left lazy) both before and after each block is expanded, and in
/// the streaming text dump; the lazy and streaming dumps are the eager ones.
fn names_everywhere(what: &str, bytes: &[u8], want: &[Option<String>]) {
    let eager = decode_bytes(bytes);
    assert_eq!(block_names(&eager.tree), want, "{what}: eager");

    let mut d = decode_with(
        &bytes,
        &Options {
            lazy_threshold: Some(0),
            page_size: None,
            exact_totals: false,
            scan: false,
            skip_digests: false,
        },
    );
    let blocks = function_blocks(&d.tree);
    assert!(
        blocks.iter().all(|&(id, _)| d.tree.is_lazy(id)),
        "{what}: every function block is left lazy"
    );
    let before: Vec<Option<String>> = blocks.iter().map(|(_, s)| shown_name(s)).collect();
    assert_eq!(before, want, "{what}: lazy, not yet decoded");
    for &(id, _) in &blocks {
        expand(&bytes, &mut d.tree, id).unwrap();
    }
    let after: Vec<Option<String>> = blocks
        .iter()
        .map(|&(id, _)| shown_name(d.tree.display(id).as_deref().unwrap_or("")))
        .collect();
    assert_eq!(after, want, "{what}: lazy, expanded");

    // The text dump escapes control characters (DXC's names start with \x01).
    let escaped: Vec<Option<String>> = want
        .iter()
        .map(|n| n.as_ref().map(|s| s.replace('\u{1}', "\\u{1}")))
        .collect();
    let text = lazy::streamed(bytes, 1000, false);
    let streamed: Vec<Option<String>> = text
        .lines()
        .filter_map(|l| {
            let at = l.find(&format!("({FUNCTION_BLOCK}"))? + 1;
            Some(shown_name(&l[at..]))
        })
        .collect();
    assert_eq!(streamed, escaped, "{what}: streamed");
    lazy::same_as_eager(what, bytes, 1000, false);
}

const C_SOURCE: &str = r#"
#include <stddef.h>
extern int printf(const char *, ...);
extern void *memchr(const void *, int, size_t);
extern int never_defined(int);
int counter = 3;
static int helper_twice(int x) { return x * 2 + counter; }
int zeta_first(int a) { return helper_twice(a) + never_defined(a); }
int alpha_second(const char *s) { return printf("%s\n", s); }
void *find_nl(const void *p, size_t n) { return memchr(p, '\n', n); }
int (*pick(int k))(int) { return k ? zeta_first : never_defined; }
int a_very_long_name_LONG_NAME_PAD(int x) { return x + 1; }
int main(void) { return zeta_first(1) + alpha_second("x") + (pick(0) != 0); }
"#;

/// [`C_SOURCE`] with its long name 150 characters long.
fn c_source() -> String {
    C_SOURCE.replace("LONG_NAME_PAD", &"x".repeat(120))
}

#[test]
fn function_blocks_show_the_names_llvm_dis_gives_the_defined_functions_in_order() {
    for flags in [&["-O0"][..], &["-O1", "-g"][..]] {
        let what = format!("clang-19 {}", flags.join(" "));
        let (bytes, ir) = compile(&c_source(), "several", flags);
        let defined = listed(&ir, "define");
        assert!(
            defined.len() >= 5 && defined.iter().any(|n| n == "main"),
            "{what}: the listing defines the functions: {defined:?}"
        );
        assert!(defined.iter().any(|n| n.len() > 120), "{what}: a long name");
        let want: Vec<Option<String>> = defined.iter().map(|n| Some(short(n))).collect();
        names_everywhere(&what, &bytes, &want);

        // Every FUNCTION record, defined or declared, shows its own name.
        let eager = decode_bytes(&bytes);
        let mut all = defined.clone();
        all.extend(listed(&ir, "declare"));
        let mut all: Vec<String> = all.iter().map(|n| short(n)).collect();
        all.sort();
        let mut records: Vec<String> = record_displays(&eager.tree, "FUNCTION (8)")
            .iter()
            .map(|d| {
                let at = d.find(": \"").expect("a FUNCTION record shows its name") + 3;
                d[at..d.len() - 1].to_string()
            })
            .collect();
        records.sort();
        assert_eq!(records, all, "{what}: FUNCTION records");
    }
}

#[test]
fn a_structure_search_for_a_function_name_finds_its_block() {
    let (bytes, _) = compile(&c_source(), "search", &["-O1"]);
    let eager = decode_bytes(&bytes);
    let (block, _) = function_blocks(&eager.tree)
        .into_iter()
        .find(|(_, d)| shown_name(d).as_deref() == Some("alpha_second"))
        .expect("a block named alpha_second");
    let path = eager.tree.path(block);
    let hits =
        hexlens_core::search::find_nodes(&bytes.as_slice(), "alpha_second", 50, false, &mut |_| {});
    assert!(
        hits.iter().any(|h| h.path == path),
        "no hit at {path}: {:?}",
        hits.iter().map(|h| &h.path).collect::<Vec<_>>()
    );
    let span = eager.tree.span(block);
    let hit = hits.iter().find(|h| h.path == path).unwrap();
    assert_eq!((hit.start, hit.end), (span.start_byte(), span.end_byte()));
}

/// The PSV0 entry function name of a container's dump, if it has one.
fn psv_entry_name(t: &Tree) -> Option<String> {
    let mut found = None;
    t.walk(|id, _| {
        if found.is_none() && t.name(id).to_string() == "EntryName" {
            found = t.value(id).and_then(|v| v.as_str().map(str::to_string));
        }
    });
    found.filter(|n| !n.is_empty())
}

#[test]
fn dxil_function_blocks_are_named_from_the_module_symbol_table() {
    let mut checked = 0;
    let mut entries = 0;
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo::curated_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".dxil.dxbc"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "curated DXIL fixtures: {files:?}");
    for f in &files {
        let what = f.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(f).unwrap();
        let d = decode_bytes(&bytes);
        let t = &d.tree;
        // The names the symbol table gives (ENTRY records' text), and the
        // FUNCTION records with a body (isproto, operand 2, is 0) in order.
        let symbols: Vec<String> = record_displays(t, "ENTRY (1)")
            .iter()
            .filter_map(|d| d.find(": \"").map(|at| d[at + 3..d.len() - 1].to_string()))
            .collect();
        let mut defined = Vec::new();
        t.walk(|id, _| {
            let Some(disp) = t.display(id) else { return };
            if !disp.starts_with("FUNCTION (8)") {
                return;
            }
            let isproto = t
                .children(id)
                .iter()
                .find(|&&c| t.name(c).to_string() == "[2]")
                .and_then(|&c| t.value(c))
                .and_then(|v| v.as_u64());
            if isproto == Some(0) {
                let at = disp.find(": \"").expect("a DXIL FUNCTION record is named") + 3;
                defined.push(Some(disp[at..disp.len() - 1].to_string()));
            }
        });
        let names = block_names(t);
        assert!(!names.is_empty(), "{what}: no function block");
        assert_eq!(names, defined, "{what}: blocks against FUNCTION records");
        for n in names.iter().flatten() {
            assert!(symbols.contains(n), "{what}: {n} is not in {symbols:?}");
        }
        if let Some(entry) = psv_entry_name(t) {
            assert!(
                names.contains(&Some(entry.clone())),
                "{what}: the PSV0 entry {entry} is not among {names:?}"
            );
            entries += 1;
        }
        names_everywhere(&what, &bytes, &names);
        checked += 1;
    }
    assert!(
        checked >= 10 && entries >= 5,
        "{checked} files, {entries} entries"
    );

    // A hull shader: the patch-constant function (a mangled name, which DXC
    // marks with LLVM's leading \x01) and then the entry function.
    let hs =
        std::fs::read(repo::curated_dir().join("hs_topology_line_code_dxil.dxil.dxbc")).unwrap();
    assert_eq!(
        block_names(&decode_bytes(&hs).tree),
        [
            Some("\u{1}?main_patch@@YA?AUHsPatch@@XZ".to_string()),
            Some("main".to_string())
        ]
    );
}

/// A VERSION 1 module: one GLOBALVAR and six FUNCTION records (declared,
/// defined, defined, declared, defined, defined), four function blocks, and a
/// symbol table after them (or before, with `symtab_first`) naming the global
/// and all the functions but the fifth value, through unabbreviated `ENTRY`
/// and `FNENTRY` records and a local char6 abbreviation.
fn old_module(symtab_first: bool) -> Vec<u8> {
    let mut w = Writer::new();
    w.enter(8, 3).record(1, &[1]);
    // GLOBALVAR [type, isconst, initid, linkage, alignment, section]: value 0.
    w.record(7, &[0, 0, 0, 0, 0, 0]);
    // FUNCTION [type, callingconv, isproto, linkage, …]: values 1 to 6.
    for isproto in [1, 0, 0, 1, 0, 0] {
        w.record(8, &[1, 0, isproto, 0, 0, 0, 0, 0]);
    }
    let symtab = |w: &mut Writer| {
        w.enter(14, 4);
        w.record(1, &[0, b'g' as u64, b'v' as u64]);
        w.record(1, &[1, b'p' as u64, b'u' as u64, b't' as u64, b's' as u64]);
        // FNENTRY [valueid, offset, namechar…]
        w.record(
            3,
            &[2, 0, b'a' as u64, b'l' as u64, b'f' as u64, b'a' as u64],
        );
        w.define_abbrev(&[Op::Literal(1), Op::Vbr(8), Op::Array, Op::Char6]);
        w.abbrev_id(4).vbr(3, 8).vbr(4, 6);
        for &c in b"beta" {
            w.fixed(Writer::char6(c), 6);
        }
        w.record(1, &[4, b'g' as u64, b'a' as u64]);
        // Value 5 has no name; value 6 is "\x01zed", a name used as it is.
        w.record(1, &[6, 1, b'z' as u64, b'e' as u64, b'd' as u64]);
        // A name for a value the module does not have.
        w.record(1, &[99, b'x' as u64]);
        w.end_block();
    };
    if symtab_first {
        symtab(&mut w);
    }
    for k in 0..4 {
        w.enter(12, 4).record(1, &[1 + k]).end_block();
    }
    if !symtab_first {
        symtab(&mut w);
    }
    w.end_block();
    w.finish()
}

#[test]
fn old_bitcode_names_come_from_the_symbol_table_before_or_after_the_blocks() {
    for symtab_first in [true, false] {
        let what = format!("VERSION 1, symbol table first: {symtab_first}");
        let bytes = old_module(symtab_first);
        let want = [Some("alfa"), Some("beta"), None, Some("\u{1}zed")];
        let want: Vec<Option<String>> = want.iter().map(|n| n.map(str::to_string)).collect();
        names_everywhere(&what, &bytes, &want);
        let eager = decode_bytes(&bytes);
        assert_eq!(
            record_displays(&eager.tree, "GLOBALVAR (7)"),
            ["GLOBALVAR (7), unabbreviated: \"gv\""],
            "{what}"
        );
        let functions = record_displays(&eager.tree, "FUNCTION (8)");
        assert_eq!(
            functions,
            [
                "FUNCTION (8), unabbreviated: \"puts\"",
                "FUNCTION (8), unabbreviated: \"alfa\"",
                "FUNCTION (8), unabbreviated: \"beta\"",
                "FUNCTION (8), unabbreviated: \"ga\"",
                "FUNCTION (8), unabbreviated",
                "FUNCTION (8), unabbreviated: \"\u{1}zed\"",
            ],
            "{what}"
        );
        assert!(
            eager.is_clean(),
            "{what}: {}",
            hexlens_core::output::to_text(&eager)
        );
    }
}

#[test]
fn a_name_outside_the_string_table_leaves_its_block_unnamed() {
    // VERSION 2: FUNCTION [strtab_offset, strtab_size, type, callingconv,
    // isproto, …]; the second's name runs past the 8-byte string table.
    let mut w = Writer::new();
    w.enter(8, 3).record(1, &[2]);
    w.record(8, &[0, 4, 1, 0, 0, 0, 0, 0, 0, 0]);
    w.record(8, &[4, 9, 1, 0, 0, 0, 0, 0, 0, 0]);
    w.record(8, &[4, 4, 1, 0, 0, 0, 0, 0, 0, 0]);
    for k in 0..3 {
        w.enter(12, 4).record(1, &[1 + k]).end_block();
    }
    w.end_block();
    w.enter(23, 3)
        .define_abbrev(&[Op::Literal(1), Op::Blob])
        .abbrev_id(4)
        .blob(b"mainnext")
        .end_block();
    let bytes = w.finish();
    let want = vec![Some("main".to_string()), None, Some("next".to_string())];
    names_everywhere("out-of-range STRTAB name", &bytes, &want);
    // The record itself says why it has no name.
    let d = decode_bytes(&bytes);
    assert!(!d.is_clean());
}

#[test]
fn damaged_modules_decode_without_panicking_and_agree_on_demand() {
    // Every truncation and a corrupted byte at every offset of the hand-made
    // modules: no panic, and decoding on demand gives the eager tree.
    for bytes in [old_module(false), old_module(true)] {
        for cut in (8..bytes.len()).step_by(3) {
            lazy::same_as_eager(&format!("cut at {cut}"), &bytes[..cut], 1000, false);
        }
        for at in 4..bytes.len() {
            let mut b = bytes.clone();
            b[at] ^= 0x5A;
            lazy::same_as_eager(&format!("byte {at} flipped"), &b, 1000, false);
        }
    }
}
