//! Modern LLVM bitcode (LLVM 19's `llvm-as`), which DXIL's LLVM 3.7 never has:
//! global names in the STRTAB block and metadata strings in one METADATA_STRINGS
//! blob. IR text written here is assembled by `llvm-as-19` into a temporary
//! directory; hexlens's names and strings are checked against the IR and against
//! `llvm-bcanalyzer-19 -dump`. A `.bc` file is recognised as the `bitcode` format,
//! and its lazy decode expanded block by block gives the eager tree.
//!
//! Fails (does not skip) if `llvm-as-19` or `llvm-bcanalyzer-19` is missing: the
//! project's setup (`scripts/setup-native.sh`) installs Debian's llvm-19.
//!
//! The analyzer's side (running the analyzer, parsing its dump) is
//! `hexlens_testkit::bcanalyzer`, shared with `bitstream_oracle.rs`; the tools
//! are found by `hexlens_testkit::tools`.

use hexlens_core::{decode, decode_with, expand, BitSpan, Kind, NodeId, Options, Tree};
use hexlens_testkit::bcanalyzer::{self, Entry};
use hexlens_testkit::tools::assemble;

/// The STRTAB blob as the analyzer shows it, as text.
fn analyzer_strtab(dump: &[Entry]) -> String {
    let blob = bcanalyzer::strtab_blob(dump).expect("the analyzer shows a STRTAB blob");
    String::from_utf8(blob).expect("the STRTAB blob is text")
}

/// The metadata strings the analyzer lists for each METADATA_STRINGS record.
fn analyzer_metadata_strings(dump: &[Entry]) -> Vec<Vec<String>> {
    bcanalyzer::metadata_strings(dump)
        .into_iter()
        .map(|list| {
            list.into_iter()
                .map(|s| String::from_utf8(s).expect("a metadata string is text"))
                .collect()
        })
        .collect()
}

fn texts(t: &Tree, id: NodeId) -> Vec<String> {
    t.node(id)
        .children
        .iter()
        .map(|&c| {
            t.node(c)
                .value
                .as_ref()
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

fn bytes_of(bytes: &[u8], s: BitSpan) -> &[u8] {
    &bytes[s.start_byte() as usize..s.end_byte() as usize]
}

/// Every node whose display starts with `prefix`.
fn with_display(t: &Tree, prefix: &str) -> Vec<NodeId> {
    (0..t.len() as NodeId)
        .filter(|&i| {
            t.node(i)
                .display
                .as_deref()
                .is_some_and(|d| d.starts_with(prefix))
        })
        .collect()
}

const NAMES_IR: &str = r#"
@counter = global i32 7
@greeting = private constant [6 x i8] c"hello\00"
@alias_of_counter = alias i32, ptr @counter
$grouped = comdat any
@in_comdat = global i32 1, comdat($grouped)

define i32 @add_one(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y, !note !0
}

define i32 @main() {
  %v = load i32, ptr @counter
  %r = call i32 @add_one(i32 %v)
  ret i32 %r
}

declare void @external_thing()

!named = !{!0, !1}
!0 = !{!"first metadata string"}
!1 = !{!"second", !"third one with spaces", !""}
"#;

#[test]
fn global_names_resolve_through_the_string_table_as_the_ir_and_the_analyzer_say() {
    let bytes = assemble(NAMES_IR, "names");
    let src: &[u8] = &bytes;
    let d = decode(&src);
    assert_eq!(d.format, "bitcode");
    assert!(d.is_clean(), "{}", hexlens_core::output::to_text(&d));
    let t = &d.tree;
    let dump = bcanalyzer::dump(&bytes);

    // The STRTAB blob, as the analyzer reads it, is our Data node's bytes.
    let data = t
        .find("Blocks/[2]/Body/[1]/Blob/Data")
        .expect("STRTAB_BLOCK's blob");
    assert_eq!(
        t.path(t.node(data).parent.unwrap()),
        "Blocks/[2]/Body/[1]/Blob"
    );
    let strtab = analyzer_strtab(&dump);
    assert_eq!(bytes_of(&bytes, t.node(data).span), strtab.as_bytes());

    // Each module record with a name shows it, and refers to exactly its bytes.
    let expect = [
        ("GLOBALVAR (7)", "counter"),
        ("GLOBALVAR (7)", "greeting"),
        ("GLOBALVAR (7)", "in_comdat"),
        ("FUNCTION (8)", "add_one"),
        ("FUNCTION (8)", "main"),
        ("FUNCTION (8)", "external_thing"),
        ("ALIAS (14)", "alias_of_counter"),
        ("COMDAT (12)", "grouped"),
    ];
    for (record, name) in expect {
        let hits: Vec<NodeId> = with_display(t, record)
            .into_iter()
            .filter(|&i| {
                t.node(i)
                    .display
                    .as_deref()
                    .unwrap()
                    .ends_with(&format!(": \"{name}\""))
            })
            .collect();
        assert_eq!(hits.len(), 1, "{record} {name}: {hits:?}");
        let r = t
            .node(hits[0])
            .reference
            .expect("the record refers to its name");
        assert_eq!(bytes_of(&bytes, r), name.as_bytes());
        assert!(t.node(data).span.contains(&r));
        assert!(strtab.contains(name));
    }

    // The blob splits into the referenced names, in offset order, and runs of
    // bytes no module record refers to; together they are the whole blob.
    let mut names = Vec::new();
    let mut joined = Vec::new();
    let mut end = t.node(data).span.start;
    for &c in &t.node(data).children {
        let n = t.node(c);
        assert_eq!(n.span.start, end, "children tile the blob");
        end = n.span.end;
        joined.extend_from_slice(bytes_of(&bytes, n.span));
        match n.kind {
            Kind::Str => names.push(n.value.as_ref().unwrap().as_str().unwrap().to_string()),
            Kind::Bytes => assert_eq!(n.name.to_string(), "Unreferenced"),
            k => panic!("unexpected {k} in the string table"),
        }
    }
    assert_eq!(end, t.node(data).span.end);
    assert_eq!(joined, strtab.as_bytes());
    let mut want: Vec<&str> = expect.iter().map(|e| e.1).collect();
    want.sort_by_key(|n| strtab.find(n).unwrap());
    assert_eq!(names, want);
}

#[test]
fn metadata_strings_split_into_bit_exact_lengths_and_texts_as_the_analyzer_lists_them() {
    let bytes = assemble(NAMES_IR, "mdstrings");
    let src: &[u8] = &bytes;
    let d = decode(&src);
    assert!(d.is_clean(), "{}", hexlens_core::output::to_text(&d));
    let t = &d.tree;
    let theirs = analyzer_metadata_strings(&bcanalyzer::dump(&bytes));
    assert_eq!(
        theirs,
        [vec![
            "first metadata string".to_string(),
            "second".into(),
            "third one with spaces".into(),
            "".into()
        ]]
    );
    let records = with_display(t, "STRINGS (35)");
    assert_eq!(records.len(), theirs.len());
    for (&rec, want) in records.iter().zip(&theirs) {
        let path = t.path(rec);
        let data = t.find(&format!("{path}/Blob/Data")).unwrap();
        let lengths = t.find(&format!("{path}/Blob/Data/Lengths")).unwrap();
        let strings = t.find(&format!("{path}/Blob/Data/Strings")).unwrap();
        assert_eq!(&texts(t, strings), want);
        // Each length is one vbr6 field: its bits decode to the string's length.
        for (k, &c) in t.node(lengths).children.iter().enumerate() {
            let n = t.node(c);
            assert_eq!(n.span.len_bits() % 6, 0);
            let mut v = 0u64;
            let mut shift = 0;
            let mut bit = n.span.start;
            while bit < n.span.end {
                let mut chunk = 0u64;
                for i in 0..6 {
                    let b = bit + i;
                    chunk |= (((bytes[(b / 8) as usize] >> (b % 8)) & 1) as u64) << i;
                }
                v |= (chunk & 31) << shift;
                shift += 5;
                bit += 6;
            }
            assert_eq!(v, want[k].len() as u64);
            assert_eq!(n.value.as_ref().unwrap().as_u64(), Some(v));
        }
        // The record's operands: the count, and the offset where the characters
        // start, which is where our Strings node starts.
        let count = t
            .node(t.find(&format!("{path}/[0]")).unwrap())
            .value
            .clone();
        let offset = t
            .node(t.find(&format!("{path}/[1]")).unwrap())
            .value
            .clone();
        assert_eq!(count.unwrap().as_u64(), Some(want.len() as u64));
        assert_eq!(
            t.node(strings).span.start_byte() - t.node(data).span.start_byte(),
            offset.unwrap().as_u64().unwrap()
        );
        assert_eq!(t.node(strings).span.start % 32, 0);
    }
}

/// A module of `n` functions with instructions, globals and metadata strings.
fn generated_ir(n: usize) -> String {
    let mut ir = String::new();
    for i in 0..n {
        ir.push_str(&format!("@global_{i} = global i64 {}\n", i * 7));
    }
    for i in 0..n {
        ir.push_str(&format!(
            "define i64 @function_{i}(i64 %a, i64 %b) {{\n  %s = add i64 %a, %b\n  %g = load i64, ptr @global_{i}\n  %m = mul i64 %s, %g\n  %c = icmp ult i64 %m, {i}\n  br i1 %c, label %yes, label %no\nyes:\n  ret i64 %m, !tag !{i}\nno:\n  %d = sub i64 %m, 3\n  ret i64 %d\n}}\n"
        ));
    }
    let list: Vec<String> = (0..n).map(|i| format!("!{i}")).collect();
    ir.push_str(&format!("!all = !{{{}}}\n", list.join(", ")));
    for i in 0..n {
        ir.push_str(&format!("!{i} = !{{!\"string number {i}\"}}\n"));
    }
    ir
}

/// One node's fields, in a form that compares.
fn canonical(t: &Tree) -> Vec<String> {
    let mut out = Vec::new();
    t.walk(|id, _| {
        let n = t.node(id);
        // The root's bitcode summary counts only what was decoded at the time.
        let display = if id == 0 { None } else { n.display.as_deref() };
        out.push(format!(
            "{} {} {:?} {:?} {:?} {:?} {:?} {} {} {}",
            t.path(id),
            n.kind,
            n.span,
            n.value,
            display,
            n.error,
            n.reference,
            n.damaged,
            n.lazy,
            n.children.len()
        ));
    });
    out
}

#[test]
fn a_bc_file_is_the_bitcode_format_and_its_lazy_blocks_expand_to_the_eager_tree() {
    let bytes = assemble(&generated_ir(60), "generated");
    let src: &[u8] = &bytes;
    let eager = decode(&src);
    assert_eq!(eager.format, "bitcode");
    assert!(eager.is_clean());
    let strings = with_display(&eager.tree, "STRINGS (35)");
    assert_eq!(strings.len(), 1);
    let list = eager
        .tree
        .find(&format!(
            "{}/Blob/Data/Strings",
            eager.tree.path(strings[0])
        ))
        .unwrap();
    let got = texts(&eager.tree, list);
    assert_eq!(got.len(), 60);
    assert!(got.contains(&"string number 59".to_string()));
    for i in 0..60 {
        let fname = format!("function_{i}");
        assert_eq!(
            with_display(&eager.tree, "FUNCTION (8)")
                .iter()
                .filter(|&&r| eager
                    .tree
                    .node(r)
                    .display
                    .as_deref()
                    .unwrap()
                    .ends_with(&format!(": \"{fname}\"")))
                .count(),
            1,
            "{fname}"
        );
    }

    let mut lazy = decode_with(
        &src,
        &Options {
            lazy_threshold: Some(16),
            ..Default::default()
        },
    );
    let first_lazy = lazy.tree.lazy_count();
    assert!(first_lazy >= 60, "{first_lazy} lazy blocks");
    // Names are resolved at the top level, so the lazy tree already shows them.
    assert_eq!(
        with_display(&lazy.tree, "FUNCTION (8)")
            .iter()
            .filter(|&&r| lazy.tree.node(r).reference.is_some())
            .count(),
        60
    );
    let mut expansions = 0;
    while let Some(id) = (0..lazy.tree.len() as NodeId).find(|&i| lazy.tree.node(i).lazy) {
        expand(&src, &mut lazy.tree, id).unwrap();
        expansions += 1;
    }
    // Blocks inside the function blocks are lazy too at this threshold.
    assert!(expansions > first_lazy, "{expansions} expansions");
    let eager_c = canonical(&eager.tree);
    let lazy_c = canonical(&lazy.tree);
    if let Some(k) = (0..eager_c.len().min(lazy_c.len())).find(|&k| eager_c[k] != lazy_c[k]) {
        panic!("first difference:\n{}\n{}", lazy_c[k], eager_c[k]);
    }
    assert_eq!(eager_c.len(), lazy_c.len());
}
