//! The LLVM bitstream reader on hand-built streams: every operand encoding,
//! BLOCKINFO abbreviations, exact bit spans, the wrapper header; hostile streams
//! (impossible widths, malformed abbreviations, lengths past the end, undefined
//! abbreviation IDs, lying block lengths, deep nesting, node-hungry
//! abbreviations) become error nodes quickly; truncations and corruptions keep a
//! valid tree; a large synthetic stream decodes within the node budget.

use hexlens_core::bitstream::{decode_bitcode, Summary};
use hexlens_core::{BitSpan, Builder, Decoded, Kind, NodeId, Tree, Value};
use hexlens_testkit::{generators::bitstream as writer, invariants};
use invariants::{check, Rng};
use std::time::{Duration, Instant};
use writer::{sample_stream, Op, Writer};

fn decode(bytes: &[u8]) -> (Decoded, Option<Summary>) {
    let mut b = Builder::new(&bytes, "Bitcode");
    let s = decode_bitcode(&mut b, 0, bytes.len() as u64).ok();
    let d = Decoded {
        format: "bitcode",
        file_size: bytes.len() as u64,
        tree: b.finish(),
    };
    check(&d, bytes.len() as u64).unwrap_or_else(|e| panic!("invalid tree: {e}"));
    (d, s)
}

fn node(t: &Tree, path: &str) -> hexlens_core::Node {
    let id = t
        .find(path)
        .unwrap_or_else(|| panic!("no node at {path}:\n{}", dump(t)));
    t.node(id)
}

fn dump(t: &Tree) -> String {
    hexlens_core::output::to_text(&Decoded {
        format: "bitcode",
        file_size: t.node(0).span.end_byte(),
        tree: t.clone(),
    })
}

fn u(t: &Tree, path: &str) -> u64 {
    node(t, path)
        .value
        .as_ref()
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("{path} has no number"))
}

fn s(t: &Tree, path: &str) -> String {
    node(t, path)
        .value
        .as_ref()
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{path} has no text"))
        .to_string()
}

fn errors(t: &Tree) -> Vec<String> {
    t.errors()
        .into_iter()
        .map(|id| format!("{}: {}", t.path(id), t.node(id).error.as_deref().unwrap()))
        .collect()
}

/// The first error, which must exist and contain `what`.
fn expect_error(t: &Tree, what: &str) -> NodeId {
    let ids = t.errors();
    let hit = ids
        .iter()
        .copied()
        .find(|&id| t.node(id).error.as_deref().unwrap().contains(what));
    hit.unwrap_or_else(|| panic!("no error containing {what:?}; errors: {:#?}", errors(t)))
}

#[test]
fn every_operand_encoding_decodes_to_its_value() {
    let bytes = sample_stream();
    let (d, summary) = decode(&bytes);
    let t = &d.tree;
    assert!(d.is_clean(), "{:#?}", errors(t));
    let st = summary.unwrap().stats;
    assert_eq!((st.blocks, st.records), (5, 9), "{st:?}");

    // IDENTIFICATION: an abbreviated record whose array of char6 is one Text node.
    assert_eq!(u(t, "Blocks/[0]/BlockID"), 13);
    assert!(node(t, "Blocks/[0]")
        .display
        .as_deref()
        .unwrap()
        .starts_with("IDENTIFICATION_BLOCK (13)"));
    assert_eq!(s(t, "Blocks/[0]/Body/[1]/Array/Text"), "LLVM19");
    assert_eq!(s(t, "Blocks/[0]/Body/[1]/Array"), "LLVM19");
    assert_eq!(u(t, "Blocks/[0]/Body/[1]/Array/Length"), 6);
    assert_eq!(
        node(t, "Blocks/[0]/Body/[1]").display.as_deref(),
        Some("STRING (1), abbrev 4: \"LLVM19\"")
    );
    // Unabbreviated characters of a known text record.
    let m = "Blocks/[1]/Body";
    assert_eq!(s(t, &format!("{m}/[2]/Text")), "dxil-ms-dx");
    assert_eq!(u(t, &format!("{m}/[2]/NumOps")), 10);
    // fixed, vbr, char6, literal and a non-text array of fixed(8).
    let g = format!("{m}/[4]");
    assert_eq!(u(t, &format!("{g}/Code")), 7);
    assert!(node(t, &g)
        .display
        .as_deref()
        .unwrap()
        .starts_with("GLOBALVAR (7), abbrev 4"));
    assert_eq!(u(t, &format!("{g}/[0]")), 17);
    assert_eq!(u(t, &format!("{g}/[1]")), 1000);
    assert_eq!(u(t, &format!("{g}/[2]")), b'x' as u64);
    assert_eq!(u(t, &format!("{g}/[3]")), 9);
    assert_eq!(node(t, &format!("{g}/[3]")).kind, Kind::Derived);
    assert_eq!(u(t, &format!("{g}/Array/[4]")), 0xFF);
    assert_eq!(u(t, &format!("{g}/Array/[5]")), 0);
    assert_eq!(u(t, &format!("{g}/Array/[6]")), 0x80);
    // A block using an abbreviation registered by BLOCKINFO.
    let v = format!("{m}/[5]/Body/[0]");
    assert_eq!(u(t, &format!("{v}/AbbrevID")), 4);
    assert_eq!(u(t, &format!("{v}/[0]")), 5);
    assert_eq!(s(t, &format!("{v}/Array/Text")), "main");
    assert_eq!(
        node(t, &v).display.as_deref(),
        Some("ENTRY (1), abbrev 4: \"main\"")
    );
    // The BLOCKINFO definitions say which block they are for and the ID they get.
    assert_eq!(
        node(t, &format!("{m}/[1]/Body/[1]")).display.as_deref(),
        Some("DEFINE_ABBREV for VALUE_SYMTAB_BLOCK (14) as abbrev 4: [literal 1, vbr(8), array of char6]")
    );
    // A blob: length, alignment, bytes (as text), padding to 32 bits.
    let bl = "Blocks/[2]/Body/[0]/Blob";
    assert_eq!(u(t, &format!("{bl}/Length")), 7);
    assert_eq!(s(t, &format!("{bl}/Data")), "mainfoo");
    let data = node(t, &format!("{bl}/Data")).span;
    assert!(data.is_byte_aligned() && data.len_bits() == 56);
    assert_eq!(node(t, &format!("{bl}/Pad")).span.len_bits(), 8);
    assert_eq!(
        node(t, "Blocks/[2]").display.as_deref().unwrap(),
        "STRTAB_BLOCK (23), 4 words, abbrev width 3"
    );
}

#[test]
fn a_records_node_covers_exactly_its_bits_and_a_literal_points_at_its_definition() {
    let mut w = Writer::new();
    w.enter(8, 3);
    let def_start = w.pos_bits();
    w.define_abbrev(&[Op::Literal(2), Op::Vbr(6), Op::Fixed(13)]);
    let rec_start = w.pos_bits();
    w.abbrev_id(4).vbr(300, 6).fixed(0x1ABC, 13);
    let rec_end = w.pos_bits();
    w.record(1, &[1, 2]);
    let un_end = w.pos_bits();
    w.end_block();
    let bytes = w.finish();
    let (d, _) = decode(&bytes);
    let t = &d.tree;
    assert!(d.is_clean(), "{:#?}", errors(t));
    let rec = node(t, "Blocks/[0]/Body/[1]");
    assert_eq!(
        rec.span,
        BitSpan {
            start: rec_start,
            end: rec_end
        }
    );
    assert_eq!(
        node(t, "Blocks/[0]/Body/[2]").span,
        BitSpan {
            start: rec_end,
            end: un_end
        }
    );
    // vbr6 of 300 takes two chunks; the fixed field follows it exactly.
    let v = node(t, "Blocks/[0]/Body/[1]/[0]");
    assert_eq!((v.span.start, v.span.len_bits()), (rec_start + 3, 12));
    assert_eq!(v.value, Some(Value::U(300)));
    let f = node(t, "Blocks/[0]/Body/[1]/[1]");
    assert_eq!(
        f.span,
        BitSpan {
            start: rec_start + 15,
            end: rec_end
        }
    );
    assert_eq!(f.value, Some(Value::U(0x1ABC)));
    // The literal code takes no bits and refers to its definition.
    let code = node(t, "Blocks/[0]/Body/[1]/Code");
    assert_eq!(code.kind, Kind::Derived);
    assert_eq!(code.value, Some(Value::U(2)));
    let r = code.reference.unwrap();
    assert!(r.start > def_start && r.end <= rec_start, "{r:?}");
    // The definition's operands are one node each, exact to the bit.
    let op = node(t, "Blocks/[0]/Body/[0]/[2]");
    assert_eq!(op.value, Some(Value::Str("fixed(13)".into())));
    assert_eq!(op.span.end, rec_start);
}

#[test]
fn a_wrapper_header_leads_to_the_stream_at_its_offset() {
    let stream = sample_stream();
    let mut bytes = Vec::new();
    for v in [0x0B17_C0DEu32, 0, 20, stream.len() as u32, 7] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    bytes.extend_from_slice(&stream);
    bytes.extend_from_slice(&[0xAA; 4]);
    let (d, _) = decode(&bytes);
    let t = &d.tree;
    assert!(d.is_clean(), "{:#?}", errors(t));
    assert_eq!(u(t, "Wrapper/Offset"), 20);
    assert_eq!(u(t, "Wrapper/CPUType"), 7);
    assert_eq!(node(t, "Magic").span, BitSpan::bytes(20, 24));
    assert_eq!(s(t, "Blocks/[0]/Body/[1]/Array/Text"), "LLVM19");
    assert_eq!(
        node(t, "Trailing").span,
        BitSpan::bytes(bytes.len() as u64 - 4, bytes.len() as u64)
    );
}

// ----- hostile streams ----------------------------------------------------------------

/// A module block holding whatever `f` writes, ended normally.
fn module(f: impl FnOnce(&mut Writer)) -> Vec<u8> {
    let mut w = Writer::new();
    w.enter(8, 3);
    f(&mut w);
    w.end_block();
    w.finish()
}

fn hostile(bytes: &[u8], what: &str) -> Decoded {
    let started = Instant::now();
    let (d, _) = decode(bytes);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{what}: too slow"
    );
    expect_error(&d.tree, what);
    d
}

#[test]
fn impossible_widths_and_encodings_are_errors_on_their_definitions() {
    hostile(
        &module(|w| {
            w.define_abbrev(&[Op::Literal(1), Op::Fixed(65)]);
        }),
        "a fixed field of 65 bits is wider than 64 bits",
    );
    hostile(
        &module(|w| {
            w.define_abbrev(&[Op::Literal(1), Op::Vbr(33)]);
        }),
        "vbr chunks of 33 bits cannot be read",
    );
    hostile(
        &module(|w| {
            w.define_abbrev(&[Op::Literal(1), Op::Vbr(1)]);
        }),
        "vbr chunks of 1 bits cannot be read",
    );
    hostile(
        &module(|w| {
            w.define_abbrev(&[Op::Literal(1), Op::BadEncoding(7)]);
        }),
        "encoding 7 is not defined",
    );
    hostile(
        &module(|w| {
            w.abbrev_id(2).vbr(0, 5);
        }),
        "an abbreviation needs at least one operand",
    );
    let mut w = Writer::new();
    w.abbrev_id(1)
        .vbr(8, 8)
        .vbr(0, 4)
        .align32()
        .fixed(1, 32)
        .fixed(0, 32);
    hostile(&w.finish(), "abbreviation IDs of 0 bits cannot be read");
    let mut w = Writer::new();
    w.abbrev_id(1)
        .vbr(8, 8)
        .vbr(40, 4)
        .align32()
        .fixed(1, 32)
        .fixed(0, 32);
    hostile(&w.finish(), "abbreviation IDs of 40 bits cannot be read");
}

#[test]
fn malformed_abbreviations_are_errors_and_records_using_them_stop() {
    let d = hostile(
        &module(|w| {
            w.define_abbrev(&[Op::Literal(1), Op::Array, Op::Array]);
            w.abbrev_id(4).vbr(1, 6);
        }),
        "the array's element encoding is array",
    );
    expect_error(&d.tree, "abbrev 4 cannot be used");
    hostile(
        &module(|w| {
            w.define_abbrev(&[Op::Array, Op::Fixed(8)]);
        }),
        "the record code cannot be an array",
    );
    hostile(
        &module(|w| {
            w.define_abbrev(&[Op::Literal(1), Op::Array, Op::Fixed(8), Op::Fixed(8)]);
        }),
        "must be the second-to-last operand",
    );
    hostile(
        &module(|w| {
            w.define_abbrev(&[Op::Literal(1), Op::Array, Op::Literal(3)]);
        }),
        "the array's element encoding is literal 3",
    );
}

#[test]
fn lengths_past_the_end_and_undefined_ids_are_errors() {
    hostile(
        &module(|w| {
            w.define_abbrev(&[Op::Literal(1), Op::Blob]);
            w.abbrev_id(4).vbr(1000, 6).align32();
        }),
        "a blob of 1000 bytes (+0 padding) does not fit",
    );
    hostile(
        &module(|w| {
            w.define_abbrev(&[Op::Literal(1), Op::Array, Op::Fixed(8)]);
            w.abbrev_id(4).vbr(1 << 30, 6);
        }),
        "elements of fixed(8) need at least",
    );
    hostile(
        &module(|w| {
            w.abbrev_id(3).vbr(1, 6).vbr(1 << 20, 6);
        }),
        "1048576 operands need at least",
    );
    hostile(
        &module(|w| {
            w.abbrev_id(6);
        }),
        "abbrev ID 6 is not defined in this block (it has 0 abbreviations",
    );
    // A vbr6 whose continuation bits never stop within 64 bits of value.
    hostile(
        &module(|w| {
            w.abbrev_id(3).vbr(1, 6).vbr(1, 6);
            for _ in 0..14 {
                w.fixed(0x3F, 6);
            }
        }),
        "vbr6 field is not terminated",
    );
    // END_BLOCK where no block is open.
    let mut w = Writer::new();
    w.fixed(0, 2).fixed(0xFF, 30);
    hostile(&w.finish(), "expected ENTER_SUBBLOCK (1) at the top level");
    // BLOCKINFO abbreviations need a SETBID first.
    let mut w = Writer::new();
    w.enter(8, 3)
        .enter(0, 2)
        .define_abbrev(&[Op::Literal(1)])
        .end_block()
        .end_block();
    hostile(&w.finish(), "DEFINE_ABBREV in BLOCKINFO before any SETBID");
}

#[test]
fn a_lying_block_length_is_reported_and_decoding_continues_where_it_points() {
    // NumWords too small: the body ends before END_BLOCK.
    let mut w = Writer::new();
    w.enter(8, 3);
    for i in 0..20 {
        w.record(1, &[i]);
    }
    w.end_block_claiming(1);
    let d = hostile(&w.finish(), "before the end of Body");
    assert!(node(&d.tree, "Blocks/[0]/Body/[0]").error.is_none());
    // The top level goes on where NumWords pointed, and finds no block there.
    expect_error(&d.tree, "expected ENTER_SUBBLOCK (1) at the top level");
    // NumWords too large: it runs past the stream.
    let mut w = Writer::new();
    w.enter(8, 3).record(1, &[1]).end_block_claiming(1000);
    hostile(&w.finish(), "expected 4000 bytes");
    // NumWords larger than the body but inside the stream: END_BLOCK ends it early.
    let mut w = Writer::new();
    w.enter(8, 3).record(1, &[1]).end_block_claiming(3);
    w.fixed(0, 64);
    let d = hostile(
        &w.finish(),
        "NumWords says the block ends at 0x18, but its END_BLOCK ends it at 0x10, after 1 word",
    );
    assert!(
        d.tree.find("Blocks/[0]/Body/unknown").is_some(),
        "{}",
        dump(&d.tree)
    );
}

#[test]
fn nesting_deeper_than_64_blocks_is_an_error_not_a_stack_overflow() {
    let mut w = Writer::new();
    for _ in 0..200 {
        w.enter(8, 3);
    }
    for _ in 0..200 {
        w.end_block();
    }
    let d = hostile(&w.finish(), "blocks nest deeper than 64 levels");
    let mut deepest = 0;
    d.tree.walk(|_, depth| deepest = deepest.max(depth));
    assert!(deepest < 64 * 3 + 8, "tree depth {deepest}");
}

#[test]
fn literal_heavy_abbreviations_cannot_exceed_the_node_budget() {
    // One abbreviation of 2,000 literal operands, then records of 3 bits each:
    // every record would make 2,000 derived nodes.
    let mut w = Writer::new();
    w.enter(8, 3);
    let ops: Vec<Op> = (0..2000).map(|_| Op::Literal(1)).collect();
    w.define_abbrev(&ops);
    for _ in 0..20_000 {
        w.abbrev_id(4);
    }
    w.end_block();
    let bytes = w.finish();
    let started = Instant::now();
    let (d, _) = decode(&bytes);
    assert!(started.elapsed() < Duration::from_secs(5));
    let budget = 4096 + 12 * bytes.len();
    assert!(d.tree.len() <= budget + 16, "{} nodes", d.tree.len());
    expect_error(&d.tree, "node budget");
}

// ----- damage sweeps ------------------------------------------------------------------

#[test]
fn truncating_a_stream_anywhere_keeps_a_valid_tree_with_an_error() {
    let bytes = sample_stream();
    // Cutting right after the magic or a top-level block leaves a valid stream.
    let (full, _) = decode(&bytes);
    let blocks = full.tree.find("Blocks").unwrap();
    let mut whole: Vec<usize> = vec![4];
    for &c in &full.tree.node(blocks).children {
        whole.push(full.tree.node(c).span.end_byte() as usize);
    }
    for cut in 0..bytes.len() {
        let (d, _) = decode(&bytes[..cut]);
        assert_eq!(
            d.is_clean(),
            whole.contains(&cut),
            "cut at {cut}: {:#?}",
            errors(&d.tree)
        );
    }
}

#[test]
fn corrupting_a_stream_never_breaks_the_tree() {
    let bytes = sample_stream();
    let mut rng = Rng(0x5EED_B175_7EA3);
    let mut damaged = 0;
    for _ in 0..3000 {
        let m = rng.corrupt(&bytes);
        let (d, _) = decode(&m);
        damaged += !d.is_clean() as usize;
    }
    assert!(damaged > 1000, "only {damaged} of 3000 corruptions noticed");
}

// ----- size -----------------------------------------------------------------------------

/// A module of `n` records mixing the common shapes: unabbreviated numbers, an
/// abbreviated char6 name, an abbreviated vbr record.
fn synthetic(n: usize) -> Vec<u8> {
    let mut w = Writer::new();
    w.enter(8, 3);
    w.enter(12, 4)
        .define_abbrev(&[Op::Literal(34), Op::Vbr(6), Op::Vbr(6), Op::Fixed(4)])
        .define_abbrev(&[Op::Literal(1), Op::Vbr(8), Op::Array, Op::Char6]);
    for i in 0..n as u64 {
        match i % 3 {
            0 => {
                w.record(2, &[i % 7, i % 300, 17]);
            }
            1 => {
                w.abbrev_id(4).vbr(i % 1000, 6).vbr(3, 6).fixed(5, 4);
            }
            _ => {
                w.abbrev_id(5).vbr(i % 50, 8).vbr(6, 6);
                for &c in b"dx.op_" {
                    w.fixed(Writer::char6(c), 6);
                }
            }
        }
    }
    w.end_block().end_block();
    w.finish()
}

#[test]
fn a_large_stream_decodes_within_the_node_budget() {
    let bytes = synthetic(60_000);
    let started = Instant::now();
    let (d, s) = decode(&bytes);
    let took = started.elapsed();
    assert!(d.is_clean(), "{:#?}", errors(&d.tree));
    let st = s.unwrap().stats;
    assert_eq!(st.records, 60_000);
    assert!(d.tree.len() < 4096 + 12 * bytes.len());
    println!(
        "{} KB of bitcode: {} records, {} nodes in {took:.1?}",
        bytes.len() / 1024,
        st.records,
        d.tree.len()
    );
    // A generous bound: this runs in a test build on a shared machine.
    assert!(took < Duration::from_secs(10));
}

#[test]
fn a_block_can_be_decoded_again_on_its_own_from_what_was_recorded_for_it() {
    let bytes = sample_stream();
    let (d, summary) = decode(&bytes);
    let blocks = summary.unwrap().blocks;
    assert_eq!(blocks.len(), 5);
    // The VALUE_SYMTAB block relies on an abbreviation from BLOCKINFO.
    let r = blocks.iter().find(|r| r.block_id == 14).unwrap();
    assert_eq!((r.abbrev_width, r.depth), (4, 2));
    assert_eq!(r.info.abbrevs(14).len(), 1);
    let first = d.tree.path(r.node);
    let slice: &[u8] = &bytes;
    let mut b = Builder::new(&slice, "Bitcode");
    let mut dec = hexlens_core::bitstream::Decoder::new(&b, 0, bytes.len() as u64, 0);
    dec.decode_body(&mut b, r, None);
    let t = b.finish();
    assert!(!t.node(t.root()).damaged, "{:#?}", errors(&t));
    assert_eq!(s(&t, "Body/[0]/Array/Text"), "main");
    assert_eq!(
        node(&t, "Body/[0]").span,
        node(&d.tree, &format!("{first}/Body/[0]")).span
    );
    assert_eq!(dec.stats.records, 1);
}

#[test]
fn string_table_names_resolve_on_module_records_and_a_name_outside_it_is_an_error() {
    let mut w = Writer::new();
    // VERSION 2; FUNCTION [offset 2, size 4, …]; GLOBALVAR [offset 2, size 4] (the
    // same name); ALIAS [offset 5, size 10]: past the 8-byte table.
    w.enter(8, 3)
        .record(1, &[2])
        .record(8, &[2, 4, 0, 0])
        .record(7, &[2, 4, 1])
        .record(14, &[5, 10, 0])
        .end_block();
    w.enter(23, 3)
        .define_abbrev(&[Op::Literal(1), Op::Blob])
        .abbrev_id(4)
        .blob(b"xxmainyy")
        .end_block();
    let bytes = w.finish();
    let (d, _) = decode(&bytes);
    let t = &d.tree;
    let f = node(t, "Blocks/[0]/Body/[1]");
    assert_eq!(
        f.display.as_deref(),
        Some("FUNCTION (8), unabbreviated: \"main\"")
    );
    let data = node(t, "Blocks/[1]/Body/[1]/Blob/Data");
    let name = node(t, "Blocks/[1]/Body/[1]/Blob/Data/[0]");
    assert_eq!(f.reference, Some(name.span));
    assert_eq!(name.span.start_byte(), data.span.start_byte() + 2);
    assert_eq!(name.display.as_deref(), Some("name of 2 records"));
    assert_eq!(node(t, "Blocks/[0]/Body/[2]").reference, Some(name.span));
    let kids: Vec<String> = data
        .children
        .iter()
        .map(|&c| t.node(c).name.to_string())
        .collect();
    assert_eq!(kids, ["Unreferenced", "[0]", "Unreferenced"]);
    let bad = node(t, "Blocks/[0]/Body/[3]");
    assert!(
        bad.error
            .as_deref()
            .unwrap()
            .contains("(10 bytes at string table offset 5) lies outside the 8-byte string table"),
        "{:?}",
        bad.error
    );
    assert_eq!(errors(t).len(), 1);
}

/// A METADATA_STRINGS blob: `vbr6` lengths 1 and 2, zero bits to a word, "abc".
fn metadata_strings_stream(count: u64) -> Vec<u8> {
    let mut w = Writer::new();
    w.enter(8, 3)
        .enter(15, 3)
        .define_abbrev(&[Op::Literal(35), Op::Vbr(6), Op::Vbr(6), Op::Blob]);
    w.abbrev_id(4).vbr(count, 6).vbr(4, 6);
    // Lengths 1, 2 as vbr6 (bits 0..12), zero to 32 bits; then the characters.
    let blob = [0x81, 0x00, 0x00, 0x00, b'a', b'b', b'c'];
    w.blob(&blob).end_block().end_block();
    w.finish()
}

#[test]
fn metadata_strings_split_into_lengths_and_strings_and_a_short_blob_is_an_error() {
    let bytes = metadata_strings_stream(2);
    let (d, _) = decode(&bytes);
    let t = &d.tree;
    assert!(d.is_clean(), "{:#?}", errors(t));
    let rec = "Blocks/[0]/Body/[0]/Body/[1]";
    let data = node(t, &format!("{rec}/Blob/Data"));
    assert_eq!(data.display.as_deref(), Some("2 metadata strings"));
    let l0 = node(t, &format!("{rec}/Blob/Data/Lengths/[0]"));
    let l1 = node(t, &format!("{rec}/Blob/Data/Lengths/[1]"));
    assert_eq!((l0.span.len_bits(), l1.span.len_bits()), (6, 6));
    assert_eq!(l0.span.start, data.span.start);
    assert_eq!(u(t, &format!("{rec}/Blob/Data/Lengths/[1]")), 2);
    assert_eq!(node(t, &format!("{rec}/Blob/Data/Pad")).span.len_bits(), 20);
    assert_eq!(s(t, &format!("{rec}/Blob/Data/Strings/[0]")), "a");
    assert_eq!(s(t, &format!("{rec}/Blob/Data/Strings/[1]")), "bc");

    let bytes = metadata_strings_stream(6);
    let (d, _) = decode(&bytes);
    let t = &d.tree;
    let data = node(t, &format!("{rec}/Blob/Data"));
    assert_eq!(data.kind, Kind::Bytes);
    assert!(data.children.is_empty());
    assert_eq!(
        data.error.as_deref(),
        Some("the blob holds only 5 of the 6 string lengths before the characters at offset 4")
    );
}
