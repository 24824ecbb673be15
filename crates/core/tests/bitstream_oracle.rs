//! Oracle test: LLVM 19's `llvm-bcanalyzer -dump` reading of the DXIL bitcode of
//! every DirectX Container in the shared vkd3d-proton corpus, compared entry by
//! entry with hexlens-core's tree of the same bytes.
//!
//! hexlens knows where each DXIL part's bitcode lies (`Parts/[i]/Program/DXIL`);
//! those bytes are piped to `llvm-bcanalyzer-19 -dump -non-symbolic
//! -dump-blockinfo -show-binary-blobs` (many streams per run, see
//! [`check_streams`]), whose dump is parsed into a sequence of
//! block entries (block ID, `NumWords`, abbreviation width), records (code,
//! abbreviation ID, operand values, blob bytes) and block ends. The tree is turned
//! into the same sequence; both must be equal, in order. Record names are compared
//! too, but only reported: LLVM 19's analyzer has a few names of its own.
//!
//! Fails loudly if the corpus or `llvm-bcanalyzer-19` is missing.
//!
//! The analyzer's side (running the analyzer, parsing its dump) is
//! `hexlens_testkit::bcanalyzer`, shared with `bitstream_modern.rs`.

use hexlens_core::{decode_bytes, Kind, Name, NodeId, Tree, Value};
use hexlens_testkit::bcanalyzer::{parse_dump, run_bcanalyzer, Entry, Ev};
use hexlens_testkit::repo;
use hexlens_testkit::tools::{self, bcanalyzer_19};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// How many analyzer processes run at once.
const WORKERS: usize = 2;

// ----- hexlens's side ---------------------------------------------------------------

fn child(t: &Tree, id: NodeId, name: &str) -> Option<NodeId> {
    t.node(id)
        .children
        .iter()
        .copied()
        .find(|&c| t.node(c).name.to_string() == name)
}

fn u(t: &Tree, id: NodeId, name: &str) -> Result<u64, String> {
    child(t, id, name)
        .and_then(|c| t.node(c).value.as_ref().and_then(Value::as_u64))
        .ok_or_else(|| format!("{} has no {name} value", t.path(id)))
}

/// Operand values under a record or `Array` node, flattened as LLVM numbers them.
fn ops_of(
    t: &Tree,
    id: NodeId,
    ops: &mut Vec<u64>,
    blob: &mut Option<Vec<u8>>,
    strings: &mut Option<Vec<Vec<u8>>>,
    bytes: &[u8],
) -> Result<(), String> {
    for &c in &t.node(id).children {
        let n = t.node(c);
        match &n.name {
            Name::Index(_) => ops.push(
                n.value
                    .as_ref()
                    .and_then(Value::as_u64)
                    .ok_or_else(|| format!("{} has no number", t.path(c)))?,
            ),
            Name::Static("Text") => match &n.value {
                Some(Value::Str(s)) => ops.extend(s.bytes().map(u64::from)),
                _ => return Err(format!("{} has no text", t.path(c))),
            },
            Name::Static("Array") => ops_of(t, c, ops, blob, strings, bytes)?,
            Name::Static("Blob") => {
                let data = child(t, c, "Data").map(|d| {
                    let s = t.node(d).span;
                    bytes[s.start_byte() as usize..s.end_byte() as usize].to_vec()
                });
                // A METADATA_STRINGS blob split into its strings: compared as
                // the list the analyzer prints.
                let split = child(t, c, "Data").and_then(|d| child(t, d, "Strings"));
                if let Some(list) = split {
                    *strings = Some(
                        t.node(list)
                            .children
                            .iter()
                            .map(|&s| {
                                let s = t.node(s).span;
                                bytes[s.start_byte() as usize..s.end_byte() as usize].to_vec()
                            })
                            .collect(),
                    );
                } else {
                    *blob = Some(data.unwrap_or_default());
                }
            }
            Name::Static("AbbrevID")
            | Name::Static("Code")
            | Name::Static("NumOps")
            | Name::Static("Length")
            | Name::Static("unknown") => {}
            other => return Err(format!("unexpected operand node {other} at {}", t.path(c))),
        }
    }
    Ok(())
}

fn block_events(t: &Tree, id: NodeId, bytes: &[u8], out: &mut Vec<Entry>) -> Result<(), String> {
    out.push(Entry {
        ev: Ev::Enter {
            id: u(t, id, "BlockID")?,
            words: u(t, id, "NumWords")?,
            width: u(t, id, "AbbrevWidth")?,
        },
        name: String::new(),
    });
    let body = child(t, id, "Body").ok_or_else(|| format!("{} has no Body", t.path(id)))?;
    for &e in &t.node(body).children {
        let n = t.node(e);
        match &n.name {
            Name::Static("END_BLOCK") => {
                out.push(Entry {
                    ev: Ev::End,
                    name: String::new(),
                });
                return Ok(());
            }
            Name::Index(_) => {}
            other => return Err(format!("unexpected entry {other} at {}", t.path(e))),
        }
        match u(t, e, "AbbrevID")? {
            1 => block_events(t, e, bytes, out)?,
            2 => {} // DEFINE_ABBREV: the analyzer prints nothing for it.
            abbrev => {
                let mut ops = Vec::new();
                let mut blob = None;
                let mut strings = None;
                ops_of(t, e, &mut ops, &mut blob, &mut strings, bytes)?;
                out.push(Entry {
                    ev: Ev::Record {
                        code: u(t, e, "Code")?,
                        abbrev: (abbrev >= 4).then_some(abbrev),
                        ops,
                        blob,
                        strings,
                    },
                    name: record_name(t.node(e).display.as_deref().unwrap_or("")),
                });
            }
        }
    }
    Err(format!("{} has no END_BLOCK", t.path(id)))
}

/// The record name at the start of a record's display (`INST_CALL (34), abbrev 4`).
fn record_name(display: &str) -> String {
    display.split(" (").next().unwrap_or_default().to_string()
}

/// The entries hexlens decoded under a `DXIL` node.
fn tree_events(t: &Tree, dxil: NodeId, bytes: &[u8]) -> Result<Vec<Entry>, String> {
    let blocks = child(t, dxil, "Blocks").ok_or("DXIL has no Blocks")?;
    let mut out = Vec::new();
    for &c in &t.node(blocks).children {
        if matches!(t.node(c).name, Name::Index(_)) {
            block_events(t, c, bytes, &mut out)?;
        }
    }
    Ok(out)
}

/// The `DXIL` bitcode nodes of the DXIL parts of a container.
fn dxil_nodes(t: &Tree) -> Vec<NodeId> {
    let Some(parts) = t.find("Parts") else {
        return Vec::new();
    };
    t.node(parts)
        .children
        .iter()
        .filter(|&&p| {
            child(t, p, "Name")
                .and_then(|n| t.node(n).value.clone())
                .is_some_and(|v| v == Value::Str("DXIL".into()))
        })
        .filter_map(|&p| child(t, p, "Program").and_then(|g| child(t, g, "DXIL")))
        .collect()
}

// ----- comparison -------------------------------------------------------------------

#[derive(Default)]
struct Report {
    files: usize,
    blocks: usize,
    records: usize,
    abbreviated: usize,
    operands: usize,
    blobs: usize,
    failures: Vec<String>,
    /// (hexlens name, analyzer name) → count, where they differ.
    names: BTreeMap<(String, String), usize>,
}

fn compare(rel: &str, ours: &[Entry], theirs: &[Entry], r: &mut Report) {
    for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
        if a.ev != b.ev {
            r.failures.push(format!(
                "{rel}: entry {i} differs:\n  hexlens:       {:?}\n  bcanalyzer-19: {:?}",
                a.ev, b.ev
            ));
            return;
        }
        match &a.ev {
            Ev::Enter { .. } => r.blocks += 1,
            Ev::Record {
                abbrev, ops, blob, ..
            } => {
                r.records += 1;
                r.operands += ops.len();
                r.abbreviated += abbrev.is_some() as usize;
                r.blobs += blob.is_some() as usize;
                if a.name != b.name {
                    *r.names.entry((a.name.clone(), b.name.clone())).or_default() += 1;
                }
            }
            Ev::End => {}
        }
    }
    if ours.len() != theirs.len() {
        r.failures.push(format!(
            "{rel}: hexlens has {} entries, bcanalyzer-19 {}",
            ours.len(),
            theirs.len()
        ));
    }
}

/// One DXIL bitcode stream: where it came from, what hexlens decoded, its bytes.
struct Stream {
    rel: String,
    ours: Vec<Entry>,
    bitcode: Vec<u8>,
}

/// The DXIL bitcode streams of one container, decoded by hexlens.
fn streams_of(path: &Path, rel: &str, r: &mut Report) -> Vec<Stream> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let d = decode_bytes(&bytes);
    let t = &d.tree;
    let mut out = Vec::new();
    for id in dxil_nodes(t) {
        r.files += 1;
        let n = t.node(id);
        if n.damaged {
            r.failures
                .push(format!("{rel}: the DXIL bitcode decoded with errors"));
        }
        assert_eq!(n.kind, Kind::Struct);
        let span = n.span;
        match tree_events(t, id, &bytes) {
            Ok(ours) => out.push(Stream {
                rel: rel.to_string(),
                ours,
                bitcode: bytes[span.start_byte() as usize..span.end_byte() as usize].to_vec(),
            }),
            Err(e) => r.failures.push(format!("{rel}: {e}")),
        }
    }
    out
}

/// Splits entries into top-level blocks (each from its `Enter` to its `End`).
fn top_level_blocks(entries: &[Entry]) -> Vec<&[Entry]> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, e) in entries.iter().enumerate() {
        match e.ev {
            Ev::Enter { .. } => depth += 1,
            Ev::End => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    out.push(&entries[start..=i]);
                    start = i + 1;
                }
            }
            Ev::Record { .. } => {}
        }
    }
    if start < entries.len() {
        out.push(&entries[start..]);
    }
    out
}

/// Compares streams with the analyzer. To spare hundreds of process starts, the
/// streams are analysed as one: the magic, then each stream's top-level blocks
/// (every stream's length is a multiple of 32 bits and its blocks are aligned,
/// so they stay valid side by side, and each module's BLOCKINFO replaces the
/// previous one's, as the analyzer reads it). The analyzer's top-level blocks are
/// then handed back to the streams in order. If the joint run fails, each stream
/// is analysed alone.
fn check_streams(streams: &[Stream], tool: &Path, r: &mut Report) {
    let joinable = streams
        .iter()
        .all(|s| s.bitcode.len() % 4 == 0 && s.bitcode.starts_with(b"BC\xC0\xDE"));
    if joinable && streams.len() > 1 {
        let mut joint = b"BC\xC0\xDE".to_vec();
        for s in streams {
            joint.extend_from_slice(&s.bitcode[4..]);
        }
        if let Ok(theirs) = run_bcanalyzer(tool, &joint).and_then(|t| parse_dump(&t)) {
            let mut blocks = top_level_blocks(&theirs).into_iter();
            for s in streams {
                let n = top_level_blocks(&s.ours).len();
                let mine: Vec<Entry> = blocks.by_ref().take(n).flatten().cloned().collect();
                compare(&s.rel, &s.ours, &mine, r);
            }
            if blocks.next().is_some() {
                r.failures
                    .push("bcanalyzer-19 found more top-level blocks than hexlens".into());
            }
            return;
        }
    }
    for s in streams {
        match run_bcanalyzer(tool, &s.bitcode).and_then(|t| parse_dump(&t)) {
            Ok(theirs) => compare(&s.rel, &s.ours, &theirs, r),
            Err(e) => r.failures.push(format!("{}: {e}", s.rel)),
        }
    }
}

/// Containers per joint analyzer run.
const BATCH: usize = 40;

#[test]
fn hexlens_reads_every_dxil_bitcode_in_the_corpus_as_llvm_bcanalyzer_19_does() {
    let corpus = repo::dxcontainer_corpus();
    let tool = bcanalyzer_19();
    let files = repo::files_with_suffix(&corpus, ".dxbc");
    assert!(files.len() > 1000, "expected the 1,143 corpus files");
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let reports: Vec<Report> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|_| {
                s.spawn(|| {
                    let mut r = Report::default();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(batch) = files.chunks(BATCH).nth(i) else {
                            break;
                        };
                        let mut streams = Vec::new();
                        for path in batch {
                            let rel = path.strip_prefix(&corpus).unwrap_or(path);
                            streams.extend(streams_of(path, &rel.display().to_string(), &mut r));
                        }
                        check_streams(&streams, &tool, &mut r);
                    }
                    r
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let mut total = Report::default();
    for r in reports {
        total.files += r.files;
        total.blocks += r.blocks;
        total.records += r.records;
        total.abbreviated += r.abbreviated;
        total.operands += r.operands;
        total.blobs += r.blobs;
        total.failures.extend(r.failures);
        for (k, v) in r.names {
            *total.names.entry(k).or_default() += v;
        }
    }
    println!(
        "llvm-bcanalyzer-19 oracle: {} DXIL bitcode streams from {} containers: {} blocks, {} records \
         ({} abbreviated, abbreviation IDs compared), {} operand values, {} blobs compared in {:.1?}",
        total.files,
        files.len(),
        total.blocks,
        total.records,
        total.abbreviated,
        total.operands,
        total.blobs,
        started.elapsed()
    );
    for ((ours, theirs), n) in &total.names {
        println!(
            "  record name differs {n} times: hexlens {ours:?}, llvm-bcanalyzer-19 {theirs:?}"
        );
    }
    assert!(
        total.failures.is_empty(),
        "{} disagreements:\n{}",
        total.failures.len(),
        total.failures.join("\n")
    );
    assert!(
        total.files >= 395,
        "expected the 395 DXIL containers, found {}",
        total.files
    );
    assert!(
        total.records > 80_000,
        "expected the corpus's 80,000+ records"
    );
}

use hexlens_testkit::generators::bitstream as writer;

/// The hand-built stream covers what DXIL never uses (char6 scalars and arrays,
/// blobs, BLOCKINFO abbreviations for several blocks, an IDENTIFICATION block):
/// the analyzer must read it as hexlens does too.
#[test]
fn hexlens_reads_a_hand_built_stream_of_every_encoding_as_llvm_bcanalyzer_19_does() {
    let tool = bcanalyzer_19();
    let bytes = writer::sample_stream();
    let slice: &[u8] = &bytes;
    let mut b = hexlens_core::Builder::new(&slice, "Bitcode");
    hexlens_core::bitstream::decode_bitcode(&mut b, 0, bytes.len() as u64).unwrap();
    let t = b.finish();
    let ours = tree_events(&t, t.root(), &bytes).unwrap();
    let theirs = parse_dump(&run_bcanalyzer(&tool, &bytes).unwrap()).unwrap();
    let mut r = Report::default();
    compare("hand-built stream", &ours, &theirs, &mut r);
    assert!(r.failures.is_empty(), "{}", r.failures.join("\n"));
    assert_eq!((r.blocks, r.records, r.blobs), (5, 9, 1));
}

/// Modern bitcode, which DXIL never holds: LLVM 19's `llvm-as` writes global names
/// into a STRTAB block, metadata strings into METADATA_STRINGS blobs (split by
/// hexlens into lengths and strings, compared with the strings the analyzer
/// lists), an IDENTIFICATION block, char6 and blob abbreviations of its own.
#[test]
fn hexlens_reads_llvm_19_bitcode_from_llvm_as_as_llvm_bcanalyzer_19_does() {
    let tool = bcanalyzer_19();
    let mut ir = String::from(
        "@counter = global i32 7\n@alias_of_counter = alias i32, ptr @counter\n\
         declare void @external_thing()\n!named = !{!0}\n!0 = !{!\"tab\\09and \\22quote\\22\", !\"\"}\n",
    );
    for i in 0..40 {
        ir.push_str(&format!(
            "@g{i} = internal global [3 x i16] [i16 {i}, i16 2, i16 3]\n\
             define float @f{i}(float %a, ptr %p) {{\n  %x = fmul float %a, 2.5\n  \
             store float %x, ptr %p, !m !{{!\"note {i}\"}}\n  call void @external_thing()\n  \
             ret float %x\n}}\n"
        ));
    }
    let bytes = tools::assemble(&ir, "modern");

    let d = decode_bytes(&bytes);
    assert_eq!(d.format, "bitcode");
    assert!(d.is_clean(), "{}", hexlens_core::output::to_text(&d));
    let ours = tree_events(&d.tree, d.tree.root(), &bytes).unwrap();
    let theirs = parse_dump(&run_bcanalyzer(&tool, &bytes).unwrap()).unwrap();
    let mut r = Report::default();
    compare("llvm-as-19 module", &ours, &theirs, &mut r);
    assert!(r.failures.is_empty(), "{}", r.failures.join("\n"));
    let listed: Vec<&Vec<Vec<u8>>> = ours
        .iter()
        .filter_map(|e| match &e.ev {
            Ev::Record {
                strings: Some(s), ..
            } => Some(s),
            _ => None,
        })
        .collect();
    // The module's strings, and each function's own metadata block's.
    assert_eq!(listed.len(), 41, "METADATA_STRINGS records");
    let all: Vec<&[u8]> = listed
        .iter()
        .flat_map(|l| l.iter().map(Vec::as_slice))
        .collect();
    assert!(all.contains(&&b"tab\tand \"quote\""[..]));
    assert!(all.contains(&&b"note 39"[..]));
    assert!(all.contains(&&b""[..]));
    assert!(
        r.blocks > 40 && r.records > 300,
        "{} blocks, {} records",
        r.blocks,
        r.records
    );
}

/// The generated-code section of the `.dyno` fixtures holds real LLVM 19 bitcode:
/// `tests/fixtures/bitcode/gen_code.bc` must still be what `llvm-as-19` makes of
/// `gen_code.ll`, and hexlens must read it, inside each fixture that carries it (both
/// byte orders, two modules), as the analyzer reads the same bytes.
#[test]
fn the_dyno_fixtures_generated_code_reads_as_llvm_bcanalyzer_19_reads_it() {
    let tool = bcanalyzer_19();
    let dir = repo::fixtures().join("bitcode");
    let committed = std::fs::read(dir.join("gen_code.bc")).unwrap();
    let tmp = tools::scratch_dir("dyno-bc");
    tools::llvm_as(&dir.join("gen_code.ll"), &tmp.join("gen_code.bc"));
    let fresh = std::fs::read(tmp.join("gen_code.bc")).unwrap();
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        fresh == committed,
        "gen_code.bc is not what llvm-as-19 makes of gen_code.ll: rebuild it with \
         `llvm-as-19 gen_code.ll -o gen_code.bc` and re-bless the .dyno fixtures"
    );
    let theirs = parse_dump(&run_bcanalyzer(&tool, &committed).unwrap()).unwrap();
    let mut checked = 0;
    let dyno = repo::fixtures().join("chapel-dyno");
    for name in ["writer_le.dyno", "writer_be.dyno", "two_modules.dyno"] {
        let bytes = std::fs::read(dyno.join(name)).unwrap();
        let d = decode_bytes(&bytes);
        assert!(d.is_clean(), "{name}");
        for m in 0.. {
            let Some(ir) = d.tree.find(&format!("Modules/[{m}]/GeneratedCode/LlvmIr")) else {
                break;
            };
            let span = d.tree.node(ir).span;
            assert_eq!(
                &bytes[span.start_byte() as usize..span.end_byte() as usize],
                &committed[..],
                "{name} module {m}"
            );
            let ours = tree_events(&d.tree, ir, &bytes).unwrap();
            let mut r = Report::default();
            compare(&format!("{name} module {m}"), &ours, &theirs, &mut r);
            assert!(r.failures.is_empty(), "{}", r.failures.join("\n"));
            assert!(r.records > 100 && r.blobs >= 1);
            checked += 1;
        }
    }
    assert_eq!(checked, 4);
}
