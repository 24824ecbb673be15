//! Generated PDB / MSF 7.00 fixtures: the checked-in copies in
//! `tests/fixtures/msf/` are what `crates/testkit/src/generators/msf.rs` makes
//! (`HEXLENS_BLESS=1` rewrites them and the golden dumps in
//! `tests/golden/msf/`, which leave out what lies below a `DXContainer`); hexlens decodes what the generator wrote (every
//! stream's bytes are where its page nodes say, a DirectX Container whose
//! pages follow each other is decoded in place with the nodes and spans the
//! DXContainer decoder gives the container on its own, moved to its offset);
//! damaged files give errors on the fields at fault and the rest of the tree;
//! every fixture cut at every length or with bytes flipped keeps a valid tree,
//! and decoded on demand gives the eager tree.
//!
//! `pdbutil_oracle.rs` compares the same files with `llvm-pdbutil-19`.

use hexlens_core::{decode_bytes, output, BitSpan, Decoded, Kind, NodeId, Tree};
use hexlens_testkit::{bless, checks, generators::msf as gen, invariants, lazy, lookup, repo};
use invariants::{check, check_json, Rng};
use lookup::{display, error, node, u};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn fixtures_dir() -> PathBuf {
    repo::fixtures().join("msf")
}

/// The PDBs LLVM's writer made (`pdbutil_oracle.rs` keeps them current).
const LLVM_WRITTEN: &[&str] = &["llvm_minimal.pdb", "llvm_modules.pdb"];

/// Every fixture: the generator's and LLVM's.
fn all_fixtures() -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = gen::all()
        .into_iter()
        .map(|(n, b)| (n.to_string(), b))
        .collect();
    for n in LLVM_WRITTEN {
        v.push((
            n.to_string(),
            std::fs::read(fixtures_dir().join(n)).unwrap(),
        ));
    }
    v
}

fn decoded(bytes: &[u8]) -> Decoded {
    let d = decode_bytes(bytes);
    assert_eq!(d.format, "msf");
    check(&d, bytes.len() as u64).unwrap();
    check_json(&d).unwrap();
    d
}

fn clean(bytes: &[u8]) -> Decoded {
    let d = decoded(bytes);
    assert!(d.is_clean(), "{}", output::to_text(&d));
    d
}

fn damaged(bytes: &[u8]) -> Decoded {
    let d = decoded(bytes);
    assert!(!d.is_clean(), "{}", output::to_text(&d));
    d
}

/// Byte range of a node.
fn range(d: &Decoded, path: &str) -> (u64, u64) {
    let s = node(d, path).span;
    (s.start_byte(), s.end_byte())
}

/// Every error of the tree: its path and message.
fn errors(d: &Decoded) -> Vec<(String, String)> {
    d.tree
        .errors()
        .into_iter()
        .map(|id| {
            (
                d.tree.path(id),
                d.tree.error(id).unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// The bytes stream `i`'s page nodes refer to, cut to its size.
fn stream_bytes(d: &Decoded, bytes: &[u8], i: usize) -> Vec<u8> {
    let id = d.tree.find(&format!("Streams/[{i}]")).unwrap();
    let size = d.tree.value(id).and_then(|v| v.as_u64()).unwrap_or(0);
    let mut out = Vec::new();
    for &k in d.tree.children(id) {
        let r = d.tree.reference(k).unwrap();
        out.extend_from_slice(&bytes[r.start_byte() as usize..r.end_byte() as usize]);
    }
    out.truncate(size as usize);
    out
}

/// The subtree of `id` in child order: each node's path below `id`, kind,
/// value, display, error, span and reference (spans relative to `base`).
type Seen = (
    String,
    Kind,
    Option<String>,
    Option<String>,
    Option<String>,
    BitSpan,
    Option<BitSpan>,
);

fn subtree(t: &Tree, id: NodeId, base: u64) -> Vec<Seen> {
    let prefix = t.path(id);
    let by = base * 8;
    let rel = |s: BitSpan| BitSpan {
        start: s.start - by,
        end: s.end - by,
    };
    let mut out = Vec::new();
    let mut stack = vec![id];
    while let Some(n) = stack.pop() {
        let path = t.path(n);
        let path = path
            .strip_prefix(&prefix)
            .unwrap_or(&path)
            .trim_start_matches('/')
            .to_string();
        out.push((
            path,
            if n == id { Kind::Struct } else { t.kind(n) },
            t.value(n).map(|v| format!("{v:?}")),
            t.display(n).map(|s| s.into_owned()),
            t.error(n).map(str::to_string),
            rel(t.span(n)),
            t.reference(n).map(rel),
        ));
        stack.extend(t.children(n).iter().rev());
    }
    out
}

/// The DirectX Container at `path` in `d` is, node for node, what the
/// DXContainer decoder makes of `container` alone, moved to the node's offset.
fn assert_grafted(d: &Decoded, path: &str, container: &[u8]) {
    let id = d.tree.find(path).unwrap();
    let base = d.tree.span(id).start_byte();
    assert_eq!(
        d.tree.span(id),
        BitSpan::bytes(base, base + container.len() as u64)
    );
    let alone = decode_bytes(container);
    assert_eq!(alone.format, "dxcontainer");
    let mut want = subtree(&alone.tree, alone.tree.root(), 0);
    // The root's kind is the file's; the graft is a struct.
    want[0].1 = Kind::Struct;
    let got = subtree(&d.tree, id, base);
    assert_eq!(got.len(), want.len(), "{path}: node count");
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g, w, "{path}");
    }
}

#[test]
fn checked_in_fixtures_match_the_generator() {
    lookup::check_fixtures_current(&fixtures_dir(), gen::all());
}

#[test]
fn the_generators_hash_puts_names_where_llvms_writer_does() {
    // LLVM's writer put "/names" in bucket 1 and "/LinkInfo" (whose hash also
    // falls in bucket 1) in bucket 2 of a 4-bucket table.
    assert_eq!((gen::hash_v1(b"/names") & 0xFFFF) % 4, 1);
    assert_eq!((gen::hash_v1(b"/LinkInfo") & 0xFFFF) % 4, 1);
    let d = clean(&std::fs::read(fixtures_dir().join("llvm_minimal.pdb")).unwrap());
    let e = "Pages/[9]/NamedStreamMap/HashTable/Entries";
    assert_eq!(display(&d, &format!("{e}/[0]")), "bucket 1");
    assert_eq!(
        lookup::value(&d, &format!("{e}/[0]/Key")),
        lookup::s("/names")
    );
    assert_eq!(display(&d, &format!("{e}/[1]")), "bucket 2");
}

#[test]
fn dxcs_shader_pdb_holds_its_debug_container_decoded_in_place() {
    let bytes = gen::dxc_debug_container();
    let d = clean(&bytes);
    assert_eq!(u(&d, "SuperBlock/BlockSize"), 512);
    assert_eq!(u(&d, "SuperBlock/FreeBlockMapBlock"), 1);
    // DXC counts one page less than it writes: page 6 is read all the same.
    assert_eq!(u(&d, "SuperBlock/NumBlocks"), 6);
    assert!(display(&d, "SuperBlock/NumBlocks").contains("the file holds 7"));
    assert_eq!(u(&d, "SuperBlock/BlockMapAddr"), 3);
    assert_eq!(u(&d, "Pages/[3]/DirectoryPages/[0]"), 4);
    assert_eq!(u(&d, "Pages/[4]/NumStreams"), 6);
    assert_eq!(u(&d, "Streams"), 6);
    for (i, size) in [0u64, 56, 0, 0, 0, 472].into_iter().enumerate() {
        assert_eq!(u(&d, &format!("Streams/[{i}]")), size);
        assert_eq!(u(&d, &format!("Pages/[4]/StreamSizes/[{i}]")), size);
    }
    assert_eq!(u(&d, "Streams/[1]/[0]"), 5);
    assert_eq!(u(&d, "Streams/[5]/[0]"), 6);
    assert!(display(&d, "Streams/[5]").starts_with("DXContainer: 472 bytes in 1 page"));
    // The PDB info stream: DXC's header, the shader hash as the GUID.
    assert_eq!(u(&d, "Pages/[5]/Header/Version"), 20000404);
    assert_eq!(u(&d, "Pages/[5]/Header/Age"), 1);
    let h = gen::shader_hash(gen::DEBUG_CONTAINER);
    let guid = display(&d, "Pages/[5]/Header/Guid");
    assert_eq!(
        guid,
        format!(
            "{{{:08X}-{:04X}-{:04X}-{:02X}{:02X}-{}}}",
            u32::from_le_bytes(h[0..4].try_into().unwrap()),
            u16::from_le_bytes(h[4..6].try_into().unwrap()),
            u16::from_le_bytes(h[6..8].try_into().unwrap()),
            h[8],
            h[9],
            h[10..]
                .iter()
                .map(|b| format!("{b:02X}"))
                .collect::<String>()
        )
    );
    assert_eq!(u(&d, "Pages/[5]/NamedStreamMap/HashTable/Capacity"), 1);
    // Stream 5's one page holds the container, decoded in place.
    assert!(display(&d, "Pages/[6]").contains("its only page, 6, decoded in place"));
    assert_eq!(range(&d, "Pages/[6]/DXContainer"), (6 * 512, 6 * 512 + 472));
    assert_eq!(range(&d, "Pages/[6]/Slack"), (6 * 512 + 472, 7 * 512));
    assert_grafted(&d, "Pages/[6]/DXContainer", gen::DEBUG_CONTAINER);
    assert_eq!(
        lookup::value(&d, "Pages/[6]/DXContainer/Parts/[0]/DebugName/Name"),
        lookup::s("07ae0aefe01c3a3c391da5370b25dfa4.pdb")
    );
    assert_eq!(stream_bytes(&d, &bytes, 5), gen::DEBUG_CONTAINER);
}

#[test]
fn a_container_over_several_contiguous_pages_is_one_node_over_them() {
    let bytes = gen::dxc_dxil_shader();
    let d = clean(&bytes);
    assert_eq!(
        d.tree
            .children(d.tree.find("Streams/[5]").unwrap())
            .iter()
            .map(|&k| d.tree.value(k).unwrap().as_u64().unwrap())
            .collect::<Vec<_>>(),
        [6, 7, 8, 9, 10, 11]
    );
    assert!(display(&d, "Pages/[6]").contains("pages 6–11, one after the other, decoded in place"));
    assert_eq!(range(&d, "Pages/[6]"), (6 * 512, 12 * 512));
    let len = gen::DXIL_SHADER.len() as u64;
    assert_eq!(range(&d, "Pages/[6]/DXContainer"), (6 * 512, 6 * 512 + len));
    assert_grafted(&d, "Pages/[6]/DXContainer", gen::DXIL_SHADER);
    // The bitcode inside, at its place in the file.
    let dxil = "Pages/[6]/DXContainer/Parts/[6]/Program/DXIL";
    let (a, _) = range(&d, dxil);
    assert_eq!(&bytes[a as usize..a as usize + 4], b"BC\xC0\xDE");
    // Pages 7 to 11 have no node of their own: the container's span them.
    assert!(d.tree.find("Pages/[7]").is_none());
    assert_eq!(stream_bytes(&d, &bytes, 5), gen::DXIL_SHADER);
}

#[test]
fn scattered_streams_and_directory_are_shown_page_by_page_in_file_order() {
    let m = gen::scattered_layout();
    let bytes = gen::scattered();
    let d = clean(&bytes);
    assert_eq!(u(&d, "SuperBlock/FreeBlockMapBlock"), 2);
    assert_eq!(u(&d, "Streams"), 133);
    // Every stream's bytes are where its page nodes say.
    for (i, s) in m.streams.iter().enumerate() {
        assert_eq!(stream_bytes(&d, &bytes, i), s.data, "stream {i}");
        let pages: Vec<u32> = d
            .tree
            .children(d.tree.find(&format!("Streams/[{i}]")).unwrap())
            .iter()
            .map(|&k| d.tree.value(k).unwrap().as_u64().unwrap() as u32)
            .collect();
        assert_eq!(pages, s.pages, "stream {i}");
    }
    // The Pages list is in file order, one entry a page or a run of free pages.
    let pages = d.tree.find("Pages").unwrap();
    let names: Vec<String> = d
        .tree
        .children(pages)
        .iter()
        .map(|&c| d.tree.name(c).to_string())
        .collect();
    let want: Vec<String> = [
        1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
        27, 28,
    ]
    .iter()
    .map(|p| format!("[{p}]"))
    .collect();
    assert_eq!(names, want);
    assert!(display(&d, "Pages/[6]").starts_with("pages 6–7: not used"));
    assert!(display(&d, "Pages/[6]").ends_with("marked free in the free block map"));
    assert!(display(&d, "Pages/[28]").starts_with("pages 28–29: not used"));
    assert_eq!(range(&d, "Pages/[28]"), (28 * 512, 30 * 512));
    assert!(display(&d, "Pages/[2]").contains("active: marks 7 of pages 0–29 free"));
    assert!(display(&d, "Pages/[1]").contains("inactive"));
    // The block map and the directory over two pages, out of order.
    assert_eq!(u(&d, "Pages/[4]/DirectoryPages/[0]"), 24);
    assert_eq!(u(&d, "Pages/[4]/DirectoryPages/[1]"), 8);
    assert_eq!(
        node(&d, "Pages/[4]/DirectoryPages/[1]").reference,
        Some(BitSpan::bytes(8 * 512, 9 * 512))
    );
    assert_eq!(u(&d, "Pages/[24]/NumStreams"), 133);
    assert_eq!(u(&d, "Pages/[24]/StreamSizes/[126]"), 0);
    assert!(d.tree.find("Pages/[24]/StreamSizes/[127]").is_none());
    assert_eq!(u(&d, "Pages/[8]/StreamSizes/[127]"), 0);
    assert_eq!(range(&d, "Pages/[8]/StreamSizes"), (8 * 512, 8 * 512 + 24));
    assert_eq!(u(&d, "Pages/[8]/StreamPages/[2]/[1]"), 14);
    assert_eq!(
        node(&d, "Pages/[8]/StreamPages/[2]/[1]").reference,
        Some(BitSpan::bytes(14 * 512, 15 * 512))
    );
    // The TPI stream's header is decoded in its first page; its other pages
    // come later in the file, out of order.
    assert_eq!(u(&d, "Pages/[9]/Header/TypeIndexEnd"), 0x1000 + 90);
    assert_eq!(u(&d, "Pages/[9]/Header/HashStreamIndex"), 8);
    assert_eq!(
        display(&d, "Pages/[9]/Header/HashStreamIndex"),
        "stream 8 (TPI hash)"
    );
    assert!(display(&d, "Pages/[14]").starts_with("stream 2 (TPI stream), page 1 of 3"));
    assert!(display(&d, "Pages/[10]").starts_with("stream 2 (TPI stream), page 2 of 3"));
    assert_eq!(
        range(&d, "Pages/[10]/Data"),
        (10 * 512, 10 * 512 + 1496 - 1024)
    );
    // The DBI header, its stream indices named.
    assert_eq!(u(&d, "Pages/[5]/Header/Machine"), 0x8664);
    assert_eq!(display(&d, "Pages/[5]/Header/Machine"), "x86-64");
    // Names: fixed, named, from the TPI and DBI headers, from the content.
    for (i, name) in [
        (0, "old MSF directory"),
        (1, "PDB info stream"),
        (2, "TPI stream"),
        (5, "named stream \"/dxil/shader\""),
        (6, "named stream \"/names\""),
        (7, "named stream \"/LinkInfo\""),
        (8, "TPI hash"),
        (9, "module \"C:\\src\\shader.obj\""),
        (10, "section headers"),
        (12, "named stream \"/dxil/debug\""),
    ] {
        assert!(
            display(&d, &format!("Streams/[{i}]")).starts_with(&format!("{name}:")),
            "{i}: {}",
            display(&d, &format!("Streams/[{i}]"))
        );
    }
    assert_eq!(
        display(&d, "Streams/[11]"),
        "nil stream (no size, no pages)"
    );
    assert!(d.tree.value(d.tree.find("Streams/[11]").unwrap()).is_none());
    assert_eq!(display(&d, "Streams/[13]"), "empty");
    // A DirectX Container over scattered pages is shown page by page, and says so.
    assert!(display(&d, "Streams/[5]").contains("not contiguous in the file: shown page by page"));
    assert!(display(&d, "Pages/[12]").contains("not contiguous in the file"));
    assert!(d.tree.find("Pages/[12]/DXContainer").is_none());
    assert_eq!(range(&d, "Pages/[12]/Data"), (12 * 512, 13 * 512));
    // One in a single page is decoded in place.
    assert_grafted(&d, "Pages/[27]/DXContainer", gen::DEBUG_CONTAINER);
    // The named stream map names the streams it points at.
    let e = "Pages/[20]/NamedStreamMap/HashTable/Entries";
    for k in 0..4 {
        let key = lookup::value(&d, &format!("{e}/[{k}]/Key"));
        let v = u(&d, &format!("{e}/[{k}]/Value"));
        let want = match key.as_str().unwrap() {
            "/names" => 6,
            "/LinkInfo" => 7,
            "/dxil/shader" => 5,
            "/dxil/debug" => 12,
            other => panic!("{other}"),
        };
        assert_eq!(v, want);
    }
    assert_eq!(u(&d, "Pages/[20]/Features/[0]"), 20140508);
    assert_eq!(display(&d, "Pages/[20]/Features/[0]"), "VC140");
}

#[test]
fn llvm_written_pdbs_decode_clean_with_their_headers() {
    let d = clean(&std::fs::read(fixtures_dir().join("llvm_modules.pdb")).unwrap());
    assert_eq!(u(&d, "SuperBlock/BlockSize"), 4096);
    // The TPI stream spans two contiguous pages; its header is in the first.
    assert_eq!(u(&d, "Streams/[2]/[0]"), 4);
    assert_eq!(u(&d, "Streams/[2]/[1]"), 5);
    // 400 argument lists, a pointer and a procedure type.
    assert_eq!(u(&d, "Pages/[4]/Header/TypeIndexEnd"), 0x1000 + 402);
    assert!(display(&d, "Streams/[7]").starts_with("module \"C:\\src\\a.obj\":"));
    assert!(display(&d, "Streams/[10]").starts_with("IPI hash:"));
    assert_eq!(u(&d, "Pages/[9]/Header/ModInfoSize"), 0x104);
}

#[test]
fn a_cut_file_reports_the_missing_pages_and_keeps_the_rest() {
    let d = damaged(&gen::damaged_truncated());
    let e = errors(&d);
    assert!(e[0].0 == "SuperBlock/NumBlocks" && e[0].1.contains("it is cut short"));
    assert!(error(&d, "Pages/[4]/StreamPages/[5]/[2]").contains("page 8 is cut short"));
    assert!(
        error(&d, "Pages/[4]/StreamPages/[5]/[3]").contains("page 9 lies past the end of the file")
    );
    // The container is shown page by page, its last page cut at the end.
    assert!(d.tree.find("Pages/[6]/DXContainer").is_none());
    assert_eq!(range(&d, "Pages/[8]/Data"), (8 * 512, 8 * 512 + 100));
    // The PDB info stream is whole.
    assert_eq!(u(&d, "Pages/[5]/Header/Version"), 20000404);
}

#[test]
fn directories_too_short_for_their_counts_are_errors_on_the_counts() {
    let d = damaged(&gen::damaged_stream_count());
    assert!(error(&d, "Pages/[4]/NumStreams").contains(
        "1073741824 streams need 4294967300 bytes of sizes, but the directory holds 36 bytes"
    ));
    // The sizes that fit are read; no page list is.
    assert_eq!(u(&d, "Streams"), 1 << 30);
    assert!(d.tree.find("Streams/[7]").is_some());
    assert!(d.tree.find("Streams/[8]").is_none());

    let d = damaged(&gen::damaged_directory_short());
    assert_eq!(
        errors(&d),
        [(
            "Pages/[4]/StreamSizes/[5]".to_string(),
            "stream 5 needs 1 page number for its 472 bytes, but the directory (32 bytes) ends after 0 of them"
                .to_string()
        )]
    );
    // Its page is then nobody's.
    assert!(display(&d, "Pages/[6]").starts_with("not used by the directory or any stream"));

    let t = Instant::now();
    let d = damaged(&gen::damaged_hostile_size());
    assert!(t.elapsed() < Duration::from_secs(1));
    assert!(error(&d, "Pages/[4]/StreamSizes/[5]")
        .contains("stream 5 needs 4194304 page numbers for its 2147483632 bytes"));
    assert_eq!(
        d.tree.children(d.tree.find("Streams/[5]").unwrap()).len(),
        1
    );
}

#[test]
fn page_numbers_past_the_end_are_errors_on_their_entries() {
    let d = damaged(&gen::damaged_page_out_of_range());
    assert_eq!(
        errors(&d),
        [
            (
                "Pages/[8]/StreamPages/[2]/[1]".to_string(),
                "stream 2: page 9999 lies past the end of the file, which holds 30 pages (and past NumBlocks, 30)".to_string()
            ),
            (
                "Pages/[8]/StreamPages/[6]/[0]".to_string(),
                "stream 6: page 30 lies past the end of the file, which holds 30 pages (and past NumBlocks, 30)".to_string()
            ),
        ]
    );
    // The index keeps the page number, with no bytes to refer to.
    let k = node(&d, "Streams/[2]/[1]");
    assert_eq!(k.reference, None);
    assert_eq!(u(&d, "Streams/[2]/[1]"), 9999);
    // The TPI stream's other pages are still its own; page 14 is now free.
    assert!(display(&d, "Pages/[10]").starts_with("stream 2 (TPI stream), page 2 of 3"));
    assert!(display(&d, "Pages/[14]").starts_with("pages 14–15: not used"));
}

#[test]
fn pages_claimed_twice_or_pointing_back_at_the_structure_are_errors() {
    let d = damaged(&gen::damaged_cyclic_pages());
    let e = errors(&d);
    let want = [
        (
            "Pages/[8]/StreamPages/[4]/[1]",
            "stream 4: page 11 is already stream 4's page 0",
        ),
        (
            "Pages/[8]/StreamPages/[6]/[0]",
            "stream 6: page 9 is already stream 2's page 0",
        ),
        (
            "Pages/[8]/StreamPages/[8]/[0]",
            "stream 8: page 24 is already the stream directory's page 0",
        ),
        (
            "Pages/[8]/StreamPages/[9]/[0]",
            "stream 9: page 4 is already the block map",
        ),
        (
            "Pages/[8]/StreamPages/[10]/[0]",
            "stream 10: page 0 is already the superblock",
        ),
    ];
    assert_eq!(e.len(), want.len(), "{e:?}");
    for ((p, m), (wp, wm)) in e.iter().zip(want) {
        assert_eq!((p.as_str(), m.as_str()), (wp, wm));
    }
    // The pages show their first owner; the directory is still the directory.
    assert!(display(&d, "Pages/[24]").starts_with("stream directory, page 0 of 2"));
    assert!(display(&d, "Pages/[9]").starts_with("stream 2 (TPI stream)"));
    // The index refers to the page the entry names, and says whose it is.
    assert!(display(&d, "Streams/[8]/[0]").contains("the page is the stream directory's page 0"));
}

#[test]
fn a_bad_superblock_stops_where_nothing_more_can_be_read() {
    let d = damaged(&gen::damaged_block_size());
    assert_eq!(errors(&d).len(), 1);
    assert!(error(&d, "SuperBlock/BlockSize").contains("page size 1000 is not one of 512"));
    assert_eq!(range(&d, "SuperBlock"), (0, 56));
    assert!(d.tree.find("Pages").is_none());

    let d = damaged(&gen::damaged_block_map());
    assert_eq!(
        error(&d, "SuperBlock/FreeBlockMapBlock"),
        "the active free block map must be 1 or 2, not 7"
    );
    assert_eq!(
        error(&d, "Pages/[4]/DirectoryPages/[1]"),
        "page 0 is already the superblock: the stream directory is read no further"
    );
    // The directory's first page is read: NumStreams and the sizes in it.
    assert_eq!(u(&d, "Pages/[24]/NumStreams"), 133);
    assert_eq!(u(&d, "Streams"), 133);
    assert!(d.tree.find("Streams/[126]").is_some());
    assert!(d.tree.find("Streams/[127]").is_none());
}

#[test]
fn a_bad_named_stream_map_is_reported_in_it() {
    let d = damaged(&gen::damaged_named_map());
    let e = errors(&d);
    assert_eq!(e.len(), 2, "{e:?}");
    assert_eq!(
        error(&d, "Pages/[20]/NamedStreamMap/HashTable/Size"),
        "5 entries, but the present bits mark 4 buckets"
    );
    assert!(e[1]
        .1
        .starts_with("stream 500 does not exist: the directory lists 133 streams"));
    // Without a whole map, names come only from elsewhere.
    assert!(
        display(&d, "Streams/[6]").starts_with("6")
            || !display(&d, "Streams/[6]").starts_with("named stream")
    );
}

/// The text dump without what lies below each `DXContainer` node (the
/// DXContainer decoder's own goldens cover that; here it is compared with
/// that decoder's output instead, by [`assert_grafted`]).
fn pruned_text(text: &str) -> String {
    let mut out = String::new();
    let mut skip_below: Option<usize> = None;
    for line in text.lines() {
        // `START-END<indent>Name …`: the indent after the range is the depth.
        let body = line.split_once(' ').map_or("", |(_, r)| r);
        let indent = body.len() - body.trim_start().len();
        if let Some(d) = skip_below {
            if indent > d {
                continue;
            }
            skip_below = None;
        }
        if body.trim_start().starts_with("DXContainer ") {
            skip_below = Some(indent);
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The JSON dump with the children of each `DXContainer` node left out (see
/// [`pruned_text`]).
fn pruned_json(json: &str) -> String {
    fn prune(v: &mut serde_json::Value) {
        if v["name"] == "DXContainer" {
            if let Some(o) = v.as_object_mut() {
                o.remove("children");
            }
            return;
        }
        if let Some(kids) = v.get_mut("children").and_then(|k| k.as_array_mut()) {
            kids.iter_mut().for_each(prune);
        }
    }
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    prune(&mut v["tree"]);
    // The errors the pruned nodes carried stay listed.
    serde_json::to_string(&v).unwrap() + "\n"
}

#[test]
fn the_golden_dumps_are_current() {
    let dir = repo::root().join("tests/golden/msf");
    let mut dumps = Vec::new();
    for (name, bytes) in all_fixtures() {
        let d = decode_bytes(&bytes);
        dumps.push((
            format!("{name}.txt"),
            pruned_text(&output::to_text(&d)).into_bytes(),
        ));
        dumps.push((
            format!("{name}.json"),
            pruned_json(&output::to_json(&d)).into_bytes(),
        ));
    }
    bless::check_current(&dir, dumps, "the decode");
}

#[test]
fn decoded_on_demand_every_fixture_gives_the_eager_tree() {
    for (name, bytes) in all_fixtures() {
        for page in [1, 2, 1000] {
            lazy::same_as_eager(&name, &bytes, page, false);
        }
    }
    // The container's parts are lazy, grafted: opening them decodes them.
    let bytes = gen::dxc_dxil_shader();
    let d = hexlens_core::decode_with(&bytes.as_slice(), &lazy::paged(1000));
    let parts = d.tree.find("Pages/[6]/DXContainer/Parts").unwrap();
    assert!(d
        .tree
        .children(parts)
        .iter()
        .any(|&p| { d.tree.children(p).iter().any(|&c| d.tree.is_lazy(c)) }));
}

/// How many leading bytes a cut of `bytes` is checked at: every length for
/// small files, a sample for big ones (every length within the first pages).
fn cuts(len: usize) -> Vec<usize> {
    if len <= 16 * 1024 {
        (0..len).collect()
    } else {
        (0..len)
            .filter(|&c| c < 9000 || c % 61 == 0 || c + 64 > len)
            .collect()
    }
}

#[test]
fn cutting_any_fixture_at_any_length_keeps_a_valid_tree_with_an_error() {
    let mut runs = 0;
    for (name, bytes) in all_fixtures() {
        let full = decode_bytes(&bytes);
        check(&full, bytes.len() as u64).unwrap_or_else(|e| panic!("{name}: {e}"));
        for cut in cuts(bytes.len()) {
            let d = decode_bytes(&bytes[..cut]);
            runs += 1;
            check(&d, cut as u64).unwrap_or_else(|e| panic!("{name} cut at {cut}: {e}"));
            check_json(&d).unwrap_or_else(|e| panic!("{name} cut at {cut}: {e}"));
            if cut >= 32 {
                assert_eq!(d.format, "msf", "{name} cut at {cut}");
            }
            if full.is_clean() {
                assert!(
                    !d.is_clean(),
                    "{name} cut at {cut} decoded without any error:\n{}",
                    output::to_text(&d)
                );
            }
        }
    }
    println!("{runs} cut decodes checked");
    assert!(runs > 50_000, "{runs}");
}

#[test]
fn random_byte_flips_never_break_the_tree_or_the_json() {
    let mut rng = Rng(0x5EED_0F5F_0000_0001);
    let mut runs = 0;
    let mut with_errors = 0;
    for (name, bytes) in all_fixtures() {
        for round in 0..300 {
            // Flips in the structure (the first pages) as often as anywhere.
            let m = if round % 2 == 0 {
                rng.corrupt(&bytes)
            } else {
                let head = bytes.len().min(5 * 512);
                let mut m = rng.corrupt(&bytes[..head]);
                m.extend_from_slice(&bytes[head..]);
                m
            };
            let d = decode_bytes(&m);
            runs += 1;
            if !d.is_clean() {
                with_errors += 1;
            }
            check(&d, m.len() as u64).unwrap_or_else(|e| panic!("{name} round {round}: {e}"));
            check_json(&d).unwrap_or_else(|e| panic!("{name} round {round}: {e}"));
        }
    }
    println!("{runs} corrupted decodes checked, {with_errors} reported damage");
    assert!(with_errors > runs / 3, "{with_errors} of {runs}");
}

#[test]
fn corrupted_files_decoded_on_demand_give_the_eager_tree() {
    use hexlens_core::{decode_with, Options};
    let mut rng = Rng(0x5EED_0F5F_0000_00AA);
    let mut runs = 0;
    for (name, bytes) in all_fixtures() {
        for round in 0..25 {
            let head = bytes.len().min(14 * 512);
            let mut m = rng.corrupt(&bytes[..head]);
            m.extend_from_slice(&bytes[head..]);
            let want = output::to_json(&decode_bytes(&m));
            // Exact totals: without them a bitcode summary may stay provisional.
            for (page, exact) in [(2, true), (1000, true), (3, true)] {
                let opts = Options {
                    page_size: Some(page),
                    exact_totals: exact,
                    ..hexlens_core::stream::streaming_options()
                };
                let mut d = decode_with(&m.as_slice(), &opts);
                lazy::expand_all(&m, &mut d, false)
                    .unwrap_or_else(|e| panic!("{name} round {round} (pages of {page}): {e}"));
                assert!(
                    output::to_json(&d) == want,
                    "{name} round {round} (pages of {page}, exact {exact}): differs from the eager tree:\n{}",
                    lazy::first_difference(&output::to_json(&d), &want)
                );
                runs += 1;
            }
        }
    }
    assert!(runs > 500, "{runs}");
}

/// A file of `n` 512-byte pages: the block map and directory first, then
/// one-page streams (from stream 5) in reverse order, every page after the
/// directory used but the free block map positions.
fn many_pages(n: u32) -> Vec<u8> {
    let data: Vec<u32> = (4..n).filter(|p| !matches!(p % 512, 1 | 2)).collect();
    // Streams and directory pages together fill `data`.
    let mut streams_n = data.len() as u32;
    let dir_pages = loop {
        let dir_pages = (4 + 8 * streams_n).div_ceil(512);
        if dir_pages + streams_n <= data.len() as u32 {
            break dir_pages;
        }
        streams_n -= 1;
    };
    let dir: Vec<u32> = data[..dir_pages as usize].to_vec();
    let rest = &data[dir_pages as usize..];
    let streams = (0..streams_n as usize)
        .map(|i| match rest.len().checked_sub(1 + i) {
            // Streams 1 to 4 have headers of their own: left empty.
            Some(k) if i > 4 => gen::Stream::new(vec![(i % 251) as u8; 100], vec![rest[k]]),
            _ => gen::Stream::empty(),
        })
        .collect();
    gen::Msf {
        block_size: 512,
        fpm: 1,
        num_blocks: n,
        file_pages: n,
        block_map: 3,
        dir_pages: dir,
        streams,
        fpm_bits: true,
    }
    .bytes()
}

#[test]
fn a_file_of_thousands_of_pages_decodes_quickly_and_in_pages_on_demand() {
    let bytes = many_pages(6000);
    let t = Instant::now();
    let d = clean(&bytes);
    let eager = t.elapsed();
    assert!(eager < Duration::from_secs(5), "{eager:?}");
    assert!(d.tree.len() as u64 <= checks::node_bound(bytes.len() as u64));
    assert!(display(&d, "Pages/[513]").starts_with("free block map 1, interval 1, active"));
    // On demand, the Pages list comes in pages: the tree stays small.
    let mut lazy = hexlens_core::decode_with(&bytes.as_slice(), &lazy::paged(1000));
    let pages = lazy.tree.find("Pages").unwrap();
    let kids = lazy.tree.children(pages).to_vec();
    assert!(kids.iter().all(|&k| lazy.tree.is_page(k)));
    assert_eq!(kids.len(), 6);
    assert!(lazy.tree.len() < d.tree.len() / 2);
    // A page in the middle is found through them.
    let id = hexlens_core::stream::select(&bytes.as_slice(), &mut lazy.tree, "Pages/[4500]")
        .expect("page 4500");
    let want = d.tree.find("Pages/[4500]").unwrap();
    assert_eq!(lazy.tree.display(id), d.tree.display(want));
    assert_eq!(lazy.tree.span(id), BitSpan::bytes(4500 * 512, 4501 * 512));
}

#[test]
fn a_grafted_part_released_decodes_again_to_the_same_subtree() {
    let bytes = gen::dxc_dxil_shader();
    let mut d = hexlens_core::decode_with(&bytes.as_slice(), &lazy::paged(1000));
    let parts = d.tree.find("Pages/[6]/DXContainer/Parts").unwrap();
    let paths: Vec<String> = d
        .tree
        .children(parts)
        .iter()
        .flat_map(|&p| d.tree.children(p).to_vec())
        .filter(|&c| d.tree.is_lazy(c))
        .map(|c| d.tree.path(c))
        .collect();
    assert!(paths.len() >= 5, "{paths:?}");
    for path in paths {
        let id = d.tree.find(&path).unwrap();
        let base = d.tree.span(id).start_byte();
        hexlens_core::expand(&bytes.as_slice(), &mut d.tree, id).unwrap();
        let first = subtree(&d.tree, id, base);
        assert!(first.len() > 1, "{path}");
        let map = hexlens_core::release(&mut d.tree, id).unwrap();
        let id = map.get(id).unwrap();
        assert!(d.tree.is_lazy(id), "{path}");
        hexlens_core::expand(&bytes.as_slice(), &mut d.tree, id).unwrap();
        assert_eq!(subtree(&d.tree, id, base), first, "{path}");
    }
}
