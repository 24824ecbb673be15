//! Oracle test: LLVM 19's `llvm-pdbutil` reading of every well-formed PDB
//! fixture, compared with hexlens-core's tree.
//!
//! For each file, `llvm-pdbutil-19 dump -summary -streams -stream-blocks`
//! gives the page size, the page count, the stream count, the PDB info
//! stream's signature, age and GUID, and every stream's size, name and page
//! list; hexlens must show the same (`SuperBlock/*`, the PDB info stream's
//! `Header`, `Streams/[i]` and `Streams/[i]/[k]`), every stream page must be
//! shown by a `Pages` node spanning it and naming its stream, and the bytes
//! `llvm-pdbutil-19 export` writes for each stream must be the bytes the
//! `Streams/[i]/[k]` nodes refer to (and, for a DirectX Container decoded in
//! place, the bytes its node spans).
//!
//! The fixtures are the generator's well-formed files (`tests/fixtures/msf/`)
//! and files LLVM's own PDB writer made: `llvm-pdbutil-19 yaml2pdb` of the
//! YAML beside them (the test checks the checked-in files are what it writes
//! now; `HEXLENS_BLESS=1` rewrites them). For the generator's damaged files,
//! whatever `llvm-pdbutil-19` rejects hexlens must report damage in.
//!
//! A missing `llvm-pdbutil-19` fails the tests: they do not skip.

use hexlens_core::{decode_bytes, Decoded, Value};
use hexlens_testkit::{bless, generators::msf as gen, invariants, repo, tools};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures_dir() -> PathBuf {
    repo::fixtures().join("msf")
}

/// The PDBs LLVM's writer makes from the YAML beside them.
const YAML2PDB: &[&str] = &["llvm_minimal", "llvm_modules"];

/// Runs llvm-pdbutil with `args`; its stdout, or its stderr as the error.
fn run(args: &[&str]) -> Result<String, String> {
    let tool = tools::llvm_19_tool("llvm-pdbutil");
    let out = Command::new(&tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tool.display()));
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        ))
    }
}

/// What `dump -summary -streams -stream-blocks` says.
#[derive(Debug, Default)]
struct Dump {
    block_size: u64,
    blocks: u64,
    streams: u64,
    signature: u64,
    age: u64,
    guid: String,
    /// Per stream: size as printed, purpose, pages.
    list: Vec<(u64, String, Vec<u64>)>,
}

fn field<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.trim().strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key:?} in llvm-pdbutil's output:\n{text}"))
        .trim()
}

fn parse(text: &str) -> Dump {
    let num = |k: &str| -> u64 {
        field(text, k)
            .parse()
            .unwrap_or_else(|e| panic!("{k}: {e}"))
    };
    let mut d = Dump {
        block_size: num("Block Size:"),
        blocks: num("Number of blocks:"),
        streams: num("Number of streams:"),
        signature: num("Signature:"),
        age: num("Age:"),
        guid: field(text, "GUID:").to_string(),
        list: Vec::new(),
    };
    let mut lines = text.lines().map(str::trim);
    while let Some(l) = lines.next() {
        let Some(rest) = l.strip_prefix("Stream ") else {
            continue;
        };
        // `Stream  5 (2776 bytes): [Named Stream "/dxil/shader"]`
        let (index, rest) = rest.split_once('(').unwrap();
        let index: usize = index.trim().parse().unwrap();
        assert_eq!(index, d.list.len(), "streams listed in order");
        let (size, rest) = rest.split_once(" bytes): [").unwrap();
        let purpose = rest.strip_suffix(']').unwrap().to_string();
        let blocks = lines
            .next()
            .and_then(|b| b.strip_prefix("Blocks: ["))
            .and_then(|b| b.strip_suffix(']'))
            .unwrap_or_else(|| panic!("no block list after stream {index}"));
        let blocks = blocks
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect();
        d.list.push((size.trim().parse().unwrap(), purpose, blocks));
    }
    d
}

/// hexlens's name for a purpose llvm-pdbutil prints, if the two name it alike.
fn our_name(purpose: &str) -> Option<String> {
    let fixed = [
        ("Old MSF Directory", "old MSF directory"),
        ("PDB Stream", "PDB info stream"),
        ("TPI Stream", "TPI stream"),
        ("DBI Stream", "DBI stream"),
        ("IPI Stream", "IPI stream"),
        ("TPI Hash", "TPI hash"),
        ("IPI Hash", "IPI hash"),
        ("Global Symbol Hash", "global symbol hash"),
        ("Public Symbol Hash", "public symbol hash"),
        ("Symbol Records", "symbol records"),
        ("Section Header Data", "section headers"),
    ];
    if let Some((_, ours)) = fixed.iter().find(|(l, _)| *l == purpose) {
        return Some(ours.to_string());
    }
    if let Some(n) = purpose.strip_prefix("Named Stream ") {
        return Some(format!("named stream {n}"));
    }
    if let Some(n) = purpose.strip_prefix("Module ") {
        return Some(format!("module {n}"));
    }
    None
}

fn node_value(d: &Decoded, path: &str) -> Option<Value> {
    d.tree.find(path).and_then(|id| d.tree.value(id))
}

fn u(d: &Decoded, path: &str) -> u64 {
    node_value(d, path)
        .and_then(|v| v.as_u64())
        .unwrap_or_else(|| panic!("no number at {path}"))
}

/// The `Pages` node that holds page `p` (a page or a run of pages).
fn page_node(d: &Decoded, p: u64, bs: u64) -> hexlens_core::NodeId {
    let pages = d.tree.find("Pages").expect("a Pages list");
    let at = p * bs;
    *d.tree
        .children(pages)
        .iter()
        .find(|&&c| {
            let s = d.tree.span(c);
            s.start_byte() <= at && at < s.end_byte()
        })
        .unwrap_or_else(|| panic!("no Pages node holds page {p}"))
}

/// Compares one file with llvm-pdbutil's reading; returns how many values
/// were compared.
fn compare(name: &str, bytes: &[u8], path: &Path) -> usize {
    let text = run(&[
        "dump",
        "-summary",
        "-streams",
        "-stream-blocks",
        &path.to_string_lossy(),
    ])
    .unwrap_or_else(|e| panic!("{name}: llvm-pdbutil-19 rejects it: {e}"));
    let want = parse(&text);
    let d = decode_bytes(bytes);
    assert_eq!(d.format, "msf", "{name}");
    invariants::check(&d, bytes.len() as u64).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        d.is_clean(),
        "{name}: llvm-pdbutil-19 reads it, hexlens reports damage:\n{}",
        hexlens_core::output::to_text(&d)
    );
    let n = std::cell::Cell::new(0usize);
    let eq = |what: &str, got: u64, want: u64| {
        assert_eq!(got, want, "{name}: {what}");
        n.set(n.get() + 1);
    };
    let bs = u(&d, "SuperBlock/BlockSize");
    eq("block size", bs, want.block_size);
    eq("blocks", u(&d, "SuperBlock/NumBlocks"), want.blocks);
    eq("streams", u(&d, "Streams"), want.streams);
    eq("stream list", want.list.len() as u64, want.streams);
    // The PDB info stream's header, in its first page.
    let info = u(&d, "Streams/[1]/[0]");
    let header = |f: &str| format!("Pages/[{info}]/Header/{f}");
    eq("signature", u(&d, &header("Signature")), want.signature);
    eq("age", u(&d, &header("Age")), want.age);
    let guid = d.tree.find(&header("Guid")).unwrap();
    assert_eq!(
        d.tree.display(guid).as_deref(),
        Some(want.guid.as_str()),
        "{name}: GUID"
    );
    let export = tools::scratch_dir("pdbutil-export");
    for (i, (size, purpose, blocks)) in want.list.iter().enumerate() {
        let s = format!("Streams/[{i}]");
        let id = d.tree.find(&s).unwrap_or_else(|| panic!("{name}: no {s}"));
        let shown = d.tree.display(id).unwrap_or_default().to_string();
        if *size == u64::from(u32::MAX) {
            assert_eq!(node_value(&d, &s), None, "{name}: {s} is nil");
            assert!(shown.contains("nil stream"), "{name}: {s}: {shown}");
        } else {
            eq(&format!("{s} size"), u(&d, &s), *size);
        }
        // The name, where both tools name the stream alike.
        match our_name(purpose) {
            Some(ours) => assert!(
                shown.starts_with(&format!("{ours}:")),
                "{name}: {s} is {purpose:?} to llvm-pdbutil, hexlens says {shown:?}"
            ),
            None => assert_eq!(
                purpose, "???",
                "{name}: stream {i}: llvm-pdbutil names it {purpose:?}; teach our_name"
            ),
        }
        let pages: Vec<u64> = d
            .tree
            .children(id)
            .iter()
            .map(|&k| d.tree.value(k).and_then(|v| v.as_u64()).unwrap())
            .collect();
        assert_eq!(&pages, blocks, "{name}: {s} pages");
        n.set(n.get() + pages.len());
        // Each page is shown in Pages, by a node that spans it and says
        // whose page it is.
        for &p in blocks {
            let node = page_node(&d, p, bs);
            let span = d.tree.span(node);
            assert!(
                span.start_byte() <= p * bs && (p + 1) * bs <= span.end_byte(),
                "{name}: page {p} of {s} is not wholly inside {}",
                d.tree.path(node)
            );
            let label = d.tree.display(node).unwrap_or_default();
            assert!(
                label.starts_with(&format!("stream {i} ")),
                "{name}: {} shows {label:?}, not stream {i}",
                d.tree.path(node)
            );
        }
        // The stream's bytes, as llvm-pdbutil exports them, are the bytes the
        // page nodes refer to.
        if *size == 0 || *size == u64::from(u32::MAX) {
            continue;
        }
        let out = export.join(format!("{i}.bin"));
        run(&[
            "export",
            &format!("-stream={i}"),
            &format!("-out={}", out.display()),
            &path.to_string_lossy(),
        ])
        .unwrap_or_else(|e| panic!("{name}: export of stream {i}: {e}"));
        let exported = std::fs::read(&out).unwrap();
        let mut ours = Vec::new();
        for &k in d.tree.children(id) {
            let r = d.tree.reference(k).unwrap();
            ours.extend_from_slice(&bytes[r.start_byte() as usize..r.end_byte() as usize]);
        }
        ours.truncate(*size as usize);
        assert!(
            ours == exported,
            "{name}: stream {i}'s bytes differ from llvm-pdbutil's export"
        );
        n.set(n.get() + 1);
        // A DirectX Container decoded in place spans exactly those bytes.
        let first = page_node(&d, blocks[0], bs);
        if let Some(c) = d.tree.child_named(first, "DXContainer") {
            let sp = d.tree.span(c);
            assert_eq!(
                &bytes[sp.start_byte() as usize..sp.end_byte() as usize],
                &exported[..],
                "{name}: {} spans other bytes than stream {i}",
                d.tree.path(c)
            );
            n.set(n.get() + 1);
        }
    }
    std::fs::remove_dir_all(&export).ok();
    n.get()
}

#[test]
fn llvm_pdbutil_19_is_installed() {
    let out = run(&["--version"]).unwrap_or_else(|e| panic!("llvm-pdbutil-19 --version: {e}"));
    assert!(out.contains("version 19"), "{out}");
}

#[test]
fn the_llvm_written_fixtures_are_what_yaml2pdb_19_writes() {
    let dir = fixtures_dir();
    let tmp = tools::scratch_dir("pdbutil-yaml2pdb");
    let mut made = Vec::new();
    for name in YAML2PDB {
        let yaml = dir.join(format!("{name}.yaml"));
        let out = tmp.join(format!("{name}.pdb"));
        run(&[
            "yaml2pdb",
            &format!("-pdb={}", out.display()),
            &yaml.to_string_lossy(),
        ])
        .unwrap_or_else(|e| panic!("yaml2pdb {name}: {e}"));
        made.push((format!("{name}.pdb"), std::fs::read(&out).unwrap()));
    }
    std::fs::remove_dir_all(&tmp).ok();
    bless::check_current(&dir, made, "llvm-pdbutil-19 yaml2pdb");
}

#[test]
fn every_well_formed_pdb_reads_as_llvm_pdbutil_19_reads_it() {
    let dir = fixtures_dir();
    let mut files: Vec<(String, Vec<u8>)> = gen::all()
        .into_iter()
        .filter(|(n, _)| !n.starts_with("damaged_"))
        .map(|(n, b)| (n.to_string(), b))
        .collect();
    for name in YAML2PDB {
        let f = format!("{name}.pdb");
        let b = std::fs::read(dir.join(&f)).unwrap();
        files.push((f, b));
    }
    let mut compared = 0;
    for (name, bytes) in &files {
        let n = compare(name, bytes, &dir.join(name));
        println!("{name}: {n} values compared");
        compared += n;
    }
    assert!(files.len() >= 5, "{} files", files.len());
    assert!(compared > 200, "{compared} values compared");
}

#[test]
fn what_llvm_pdbutil_19_rejects_hexlens_reports_as_damaged() {
    let dir = fixtures_dir();
    let mut rejected = 0;
    for (name, bytes) in gen::all() {
        if !name.starts_with("damaged_") {
            continue;
        }
        let path = dir.join(name);
        let d = decode_bytes(&bytes);
        invariants::check(&d, bytes.len() as u64).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Every damaged fixture is damaged to hexlens, whatever LLVM says
        // (LLVM's reader does not check that pages are used once).
        assert!(!d.is_clean(), "{name} decodes clean");
        if let Err(why) = run(&[
            "dump",
            "-summary",
            "-streams",
            "-stream-blocks",
            &path.to_string_lossy(),
        ]) {
            println!(
                "{name}: llvm-pdbutil-19: {}",
                why.lines().next().unwrap_or("")
            );
            rejected += 1;
        }
    }
    assert!(
        rejected >= 8,
        "llvm-pdbutil-19 rejects {rejected} damaged fixtures"
    );
}
