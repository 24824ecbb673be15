//! Generated LLVM 1.x bytecode fixtures. The bytes come from
//! `crates/testkit/src/generators/llvm1.rs`; these tests check the checked-in copies in
//! `tests/fixtures/llvm1-bytecode/` are current (`HEXLENS_BLESS=1` rewrites them), that
//! hexlens decodes what the generator wrote, and that hostile inputs (100,000
//! nested blocks, over-long vbrs, sizes and counts of 0xFFFFFFFF) finish quickly
//! with errors at the damage.

use hexlens_core::{decode_bytes, Decoded, Kind, Value};
use hexlens_testkit::{generators::llvm1 as gen, invariants, lazy, lookup, repo};
use lookup::{display, error, node, u, value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn fixtures_dir() -> PathBuf {
    repo::fixtures().join("llvm1-bytecode")
}

fn s(d: &Decoded, path: &str) -> String {
    match value(d, path) {
        Value::Str(s) => s,
        v => panic!("{path} is {v:?}, not a string"),
    }
}

/// Byte range of a node.
fn range(d: &Decoded, path: &str) -> (u64, u64) {
    let sp = node(d, path).span;
    (sp.start_byte(), sp.end_byte())
}

fn bytes_of<'a>(bytes: &'a [u8], d: &Decoded, path: &str) -> &'a [u8] {
    let (a, b) = range(d, path);
    &bytes[a as usize..b as usize]
}

fn clean(bytes: &[u8]) -> Decoded {
    let d = decode_bytes(bytes);
    assert_eq!(d.format, "llvm1-bytecode");
    invariants::check(&d, bytes.len() as u64).unwrap();
    assert!(d.is_clean(), "{}", hexlens_core::output::to_text(&d));
    d
}

fn damaged(bytes: &[u8]) -> Decoded {
    let d = decode_bytes(bytes);
    assert_eq!(d.format, "llvm1-bytecode");
    invariants::check(&d, bytes.len() as u64).unwrap();
    invariants::check_json(&d).unwrap();
    d
}

fn kinds(d: &Decoded, kind: Kind) -> usize {
    (0..d.tree.len() as u32)
        .filter(|&id| d.tree.kind(id) == kind)
        .count()
}

#[test]
fn checked_in_fixtures_match_the_generator() {
    lookup::check_fixtures_current(&fixtures_dir(), gen::all());
}

#[test]
fn the_generator_is_consistent_with_itself() {
    // The iterative nesting builder used by the hostile test writes what the
    // recursive one writes.
    assert_eq!(gen::nested_flat(5), gen::nested(5));
    // The bzip2 bytes were made from this very stream (FNV-1a of its bytes).
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for c in gen::compressed_stream() {
        h = (h ^ u64::from(c)).wrapping_mul(0x0000_0100_0000_01B3);
    }
    assert_eq!(
        h,
        gen::STREAM_FNV1A64,
        "recompress compressed_stream() with bzip2 -9"
    );
    // The zlib fixture stores the stream verbatim in one stored deflate block.
    let z = gen::compressed_zlib();
    let stream = gen::compressed_stream();
    assert_eq!(&z[12..12 + stream.len()], &stream[..]);
}

#[test]
fn llvm_1_0_module_has_long_headers_a_type_plane_and_alignment() {
    let bytes = gen::rev0_llvm10();
    let d = clean(&bytes);
    assert_eq!(s(&d, "Signature"), "llvm");
    assert_eq!(u(&d, "Module/BlockId"), 1);
    assert_eq!(u(&d, "Module/Size"), bytes.len() as u64 - 12);
    assert_eq!(u(&d, "Module/FormatInformation"), 0);
    assert_eq!(node(&d, "Module/FormatInformation").kind, Kind::VarInt);
    assert_eq!(u(&d, "Module/FormatInformation/BytecodeFormatVersion"), 0);
    assert_eq!(
        value(&d, "Module/FormatInformation/BigEndian"),
        Value::Bool(false)
    );
    // The format information is one byte at 0xC; padding to 0x10 follows.
    assert_eq!(range(&d, "Module/FormatInformation"), (12, 13));
    assert_eq!(node(&d, "Module/Padding").kind, Kind::Padding);
    assert_eq!(range(&d, "Module/Padding"), (13, 16));

    let b = "Module/Blocks";
    assert_eq!(u(&d, &format!("{b}/[0]/BlockId")), 0x15);
    assert_eq!(node(&d, &format!("{b}/[0]/BlockId")).kind, Kind::U32);
    assert_eq!(u(&d, &format!("{b}/[0]/Size")), 14);
    let pool = format!("{b}/[0]/GlobalTypePlane");
    assert_eq!(u(&d, &format!("{pool}/NumberOfEntries")), 4);
    assert_eq!(u(&d, &format!("{pool}/TypePlaneIndex")), 12);
    assert_eq!(
        node(&d, &format!("{pool}/TypeDefinitions")).kind,
        Kind::Bytes
    );
    assert!(display(&d, &format!("{pool}/TypeDefinitions")).contains("shown raw"));
    assert_eq!(range(&d, &format!("{b}/[0]/Padding")), (0x26, 0x28));
    // Revision 0's module info counts its own trailing alignment.
    let mgi = format!("{b}/[1]/ModuleGlobalInfo");
    assert!(display(&d, &mgi).contains("to be determined"));
    assert_eq!(
        bytes_of(&bytes, &d, &format!("{mgi}/Payload")),
        &[0x8A, 0x01, 0x01, 0x00, 0x10, 0, 0, 0]
    );
    assert!(d.tree.find(&format!("{b}/[1]/Padding")).is_none());

    let f = format!("{b}/[3]/Function");
    assert_eq!(u(&d, &format!("{f}/Linkage")), 0);
    assert_eq!(display(&d, &format!("{f}/Linkage")), "external");
    assert_eq!(u(&d, &format!("{f}/Blocks/[1]/BlockId")), 0x31);
    assert_eq!(
        display(&d, &format!("{f}/Blocks/[2]")),
        "BasicBlock, 8 bytes"
    );
    let fst = format!("{f}/Blocks/[3]/SymbolTable/Planes/[0]");
    assert_eq!(u(&d, &format!("{fst}/TypePlaneIndex")), 13);
    assert_eq!(display(&d, &format!("{fst}/TypePlaneIndex")), "label");
    assert_eq!(s(&d, &format!("{fst}/Entries/[0]/Name")), "entry");
    assert_eq!(s(&d, &format!("{fst}/Entries/[1]/Name")), "exit");
    assert_eq!(u(&d, &format!("{fst}/Entries/[1]/SlotNumber")), 1);

    let st = format!("{b}/[4]/SymbolTable");
    assert!(d.tree.find(&format!("{st}/TypeNames")).is_none());
    assert_eq!(u(&d, &format!("{st}/Planes/[0]/TypePlaneIndex")), 12);
    assert_eq!(
        s(&d, &format!("{st}/Planes/[0]/Entries/[0]/Name")),
        "struct.pair"
    );
    assert_eq!(
        u(&d, &format!("{st}/Planes/[0]/Entries/[0]/SlotNumber")),
        15
    );
    let main = format!("{st}/Planes/[1]/Entries/[0]/Name");
    assert_eq!(s(&d, &main), "main");
    assert_eq!(u(&d, &format!("{main}/Length")), 4);
    assert_eq!(bytes_of(&bytes, &d, &format!("{main}/Characters")), b"main");
    assert_eq!(
        s(&d, &format!("{st}/Planes/[1]/Entries/[1]/Name")),
        "counter"
    );
}

#[test]
fn llvm_1_3_module_has_short_headers_named_types_and_a_big_endian_target() {
    let bytes = gen::rev3_llvm13();
    let d = clean(&bytes);
    let fi = "Module/FormatInformation";
    assert_eq!(u(&d, fi), 0x33);
    assert_eq!(value(&d, &format!("{fi}/BigEndian")), Value::Bool(true));
    assert_eq!(
        value(&d, &format!("{fi}/PointersAre64Bit")),
        Value::Bool(true)
    );
    assert_eq!(u(&d, &format!("{fi}/BytecodeFormatVersion")), 3);
    // Flag bits are single bits of the first byte.
    let big = node(&d, &format!("{fi}/BigEndian")).span;
    assert_eq!((big.start, big.end), (12 * 8, 12 * 8 + 1));

    let b = "Module/Blocks";
    let id = node(&d, &format!("{b}/[0]/BlockId"));
    assert_eq!(id.kind, Kind::Bits);
    assert_eq!(id.span.len_bits(), 5);
    assert_eq!(node(&d, &format!("{b}/[0]/Size")).span.len_bits(), 27);
    assert_eq!(u(&d, &format!("{b}/[0]/BlockId")), 6);
    assert_eq!(u(&d, &format!("{b}/[0]/Size")), 13);
    // From revision 2 on the pool has no type plane index.
    assert!(d
        .tree
        .find(&format!("{b}/[0]/GlobalTypePlane/TypePlaneIndex"))
        .is_none());
    assert_eq!(range(&d, &format!("{b}/[0]/Padding")), (0x21, 0x24));
    let f = format!("{b}/[3]/Function");
    assert_eq!(display(&d, &format!("{f}/Linkage")), "internal");
    assert_eq!(u(&d, &format!("{f}/Blocks/[0]/BlockId")), 8);
    assert_eq!(
        bytes_of(
            &bytes,
            &d,
            &format!("{f}/Blocks/[0]/CompactionTable/Payload")
        ),
        &[0x00, 0x1D, 0x01, 0x02]
    );
    assert_eq!(
        display(&d, &format!("{b}/[4]/Function/Linkage")),
        "linkonce"
    );
    let st = format!("{b}/[5]/SymbolTable");
    assert_eq!(u(&d, &format!("{st}/TypeNames/NumberOfEntries")), 1);
    assert_eq!(u(&d, &format!("{st}/TypeNames/Entries/[0]/TypeSlot")), 14);
    assert_eq!(
        s(&d, &format!("{st}/TypeNames/Entries/[0]/Name")),
        "struct.pair"
    );
    assert_eq!(
        s(&d, &format!("{st}/Planes/[0]/Entries/[1]/Name")),
        "helper"
    );
    assert_eq!(
        display(&d, &format!("{st}/Planes/[1]/TypePlaneIndex")),
        "int"
    );
    assert_eq!(s(&d, &format!("{st}/Planes/[1]/Entries/[0]/Name")), "x");
    assert_eq!(range(&d, &format!("{b}/[5]/Padding")), (0xC3, 0xC4));
}

#[test]
fn llvm_1_4_module_has_no_padding_and_decodes_long_vbrs_and_escaped_type_slots() {
    let bytes = gen::rev5_llvm14();
    let d = clean(&bytes);
    assert_eq!(kinds(&d, Kind::Padding), 0);
    let fi = "Module/FormatInformation";
    assert_eq!(u(&d, &format!("{fi}/BytecodeFormatVersion")), 5);
    assert_eq!(
        value(&d, &format!("{fi}/HasNoEndianness")),
        Value::Bool(true)
    );
    assert_eq!(
        value(&d, &format!("{fi}/HasNoPointerSize")),
        Value::Bool(true)
    );

    let b = "Module/Blocks";
    let count = format!("{b}/[0]/GlobalTypePlane/NumberOfEntries");
    assert_eq!(u(&d, &count), 130);
    assert_eq!(display(&d, &count), "82 01");
    assert_eq!(range(&d, &count).1 - range(&d, &count).0, 2);
    assert_eq!(
        range(&d, &format!("{b}/[0]/GlobalTypePlane/TypeDefinitions")).1
            - range(&d, &format!("{b}/[0]/GlobalTypePlane/TypeDefinitions")).0,
        260
    );
    assert_eq!(display(&d, &format!("{b}/[3]/Function/Linkage")), "weak");

    let st = format!("{b}/[4]/SymbolTable");
    let long = format!("{st}/TypeNames/Entries/[1]/Name");
    assert_eq!(s(&d, &long), gen::long_name());
    assert_eq!(u(&d, &format!("{long}/Length")), 200);
    assert_eq!(display(&d, &format!("{long}/Length")), "C8 01");
    let slot = format!("{st}/Planes/[0]/Entries/[0]/SlotNumber");
    assert_eq!(u(&d, &slot), 300_000_000);
    assert_eq!(node(&d, &slot).kind, Kind::VarInt);
    assert_eq!(display(&d, &slot), "80 C6 86 8F 01");
    assert_eq!(bytes_of(&bytes, &d, &slot), &[0x80, 0xC6, 0x86, 0x8F, 0x01]);
    let esc = format!("{st}/Planes/[1]/TypePlaneIndex");
    assert_eq!(u(&d, &esc), 0x0100_0000);
    assert_eq!(u(&d, &format!("{esc}/Escape")), 0x00FF_FFFF);
    assert_eq!(u(&d, &format!("{esc}/Slot")), 0x0100_0000);
    assert_eq!(
        s(&d, &format!("{st}/Planes/[1]/Entries/[0]/Name")),
        "escaped"
    );
}

#[test]
fn compressed_files_show_the_compression_kind_and_decode_a_stored_stream_in_place() {
    let stored = gen::compressed_stored();
    let d = clean(&stored);
    assert_eq!(s(&d, "Signature"), "llvc");
    assert_eq!(u(&d, "Compression"), u64::from(b'0'));
    assert!(display(&d, "Compression").contains("stored"));
    assert_eq!(range(&d, "Module"), (5, stored.len() as u64));
    assert_eq!(
        s(
            &d,
            "Module/Blocks/[1]/SymbolTable/Planes/[0]/Entries/[0]/Name"
        ),
        "main"
    );

    for (bytes, kind) in [
        (gen::compressed_zlib(), "zlib"),
        (gen::compressed_bzip2(), "bzip2"),
    ] {
        let d = clean(&bytes);
        assert!(display(&d, "Compression").contains(kind));
        let p = node(&d, "CompressedPayload");
        assert_eq!(p.kind, Kind::Bytes);
        assert_eq!(range(&d, "CompressedPayload"), (5, bytes.len() as u64));
        assert!(display(&d, "CompressedPayload").contains("not decompressed"));
        assert!(d.tree.find("Module").is_none());
    }

    let d = damaged(&gen::truncated_bzip2());
    assert!(error(&d, "CompressedPayload").contains("end-of-stream marker"));
    let d = damaged(&gen::bad_compression());
    assert!(error(&d, "Compression").contains("found 0x78"));
    let d = damaged(b"llvc2BZh0....");
    assert!(error(&d, "CompressedPayload").contains("starting \"BZh1\""));
    let d = damaged(b"llvc1\x78\x02");
    assert!(error(&d, "CompressedPayload").contains("zlib header"));
    let d = damaged(b"llvc2");
    assert!(error(&d, "Compression").contains("found the end of the file"));
}

#[test]
fn a_truncated_module_keeps_what_is_there_and_says_where_it_ends() {
    let bytes = gen::truncated();
    let d = damaged(&bytes);
    let e = error(&d, "Module/Size");
    assert!(
        e.contains(
            "the module block claims 184 bytes from 0xC (to 0xC4), but the file ends at 0xBB"
        ),
        "{e}"
    );
    assert!(error(&d, "Module/Blocks/[5]/Size").contains("but the module ends at 0xBB"));
    assert_eq!(
        s(
            &d,
            "Module/Blocks/[5]/SymbolTable/Planes/[0]/Entries/[0]/Name"
        ),
        "main"
    );
    assert_eq!(
        display(&d, "Module/Blocks/[4]/Function/Linkage"),
        "linkonce"
    );
}

#[test]
fn trailing_data_after_the_module_is_shown_but_not_an_error() {
    let bytes = gen::trailing_data();
    let d = clean(&bytes);
    assert_eq!(range(&d, "TrailingData"), (23, 30));
    assert!(display(&d, "TrailingData").contains("ignores trailing data"));
}

#[test]
fn wrong_block_sizes_stay_inside_their_block() {
    let d = damaged(&gen::bad_block_sizes());
    assert_eq!(
        d.tree.errors().len(),
        2,
        "{}",
        hexlens_core::output::to_text(&d)
    );
    assert!(
        error(&d, "Module/Blocks/[1]/BlockId").contains("found a second one (the first is [0])")
    );
    assert_eq!(u(&d, "Module/Blocks/[2]/Size"), 0);
    assert!(d.tree.find("Module/Blocks/[2]/ModuleGlobalInfo").is_none());
    let il = "Module/Blocks/[3]/Function/Blocks/[0]";
    assert!(error(&d, &format!("{il}/Size")).contains(
        "the block claims 40 bytes of content from 0x32 (to 0x5A), but a function body ends at 0x36"
    ));
    assert_eq!(range(&d, &format!("{il}/InstructionList")), (0x32, 0x36));
    assert_eq!(
        s(
            &d,
            "Module/Blocks/[4]/SymbolTable/Planes/[0]/Entries/[0]/Name"
        ),
        "still_read"
    );
}

#[test]
fn damaged_vbrs_and_strings_are_errors_at_their_bytes() {
    let d = damaged(&gen::bad_vbrs());
    let count = "Module/Blocks/[0]/GlobalTypePlane/NumberOfEntries";
    assert_eq!(u(&d, count), 1 << 32);
    assert!(error(&d, count).contains("needs more than 32 bits"));
    assert!(error(&d, count).contains("expected room for 4294967296 type definitions"));
    let slot = "Module/Blocks/[1]/SymbolTable/Planes/[0]/Entries/[0]/SlotNumber";
    assert_eq!(range(&d, slot), (0x29, 0x35));
    assert!(error(&d, slot).contains("at most 10 bytes at 0x29, found one 12 bytes long"));
    assert!(node(&d, slot).value.is_none());
    let len = "Module/Blocks/[2]/SymbolTable/Planes/[0]/Entries/[0]/Name/Length";
    assert!(error(&d, len).contains("expected 50 characters from 0x48, found only 5"));
    assert_eq!(d.tree.errors().len(), 3);
}

#[test]
fn unknown_misplaced_and_invalid_fields_are_flagged_where_they_are() {
    let d = damaged(&gen::bad_ids());
    let b = "Module/Blocks";
    assert!(display(&d, &format!("{b}/[0]/Padding")).contains("holds 00 AA"));
    assert!(error(&d, &format!("{b}/[1]/BlockId")).contains("found 0x77"));
    assert!(display(&d, &format!("{b}/[1]/Content")).contains("unknown block type"));
    assert!(display(&d, &format!("{b}/[2]")).contains("not expected in the module"));
    assert!(error(&d, &format!("{b}/[3]/Function/Linkage")).contains("found 9"));
    assert!(display(&d, &format!("{b}/[3]/Function/Blocks/[0]"))
        .contains("not expected in a function body"));
    assert_eq!(
        u(
            &d,
            &format!("{b}/[3]/Function/Blocks/[0]/GlobalTypePlane/NumberOfEntries")
        ),
        1
    );
    assert!(
        error(&d, &format!("{b}/[4]")).contains("expected 1 byte(s) of alignment padding at 0x6F")
    );
    assert_eq!(d.tree.errors().len(), 3);

    let d = damaged(&gen::bad_module_header());
    assert!(error(&d, "Module/BlockId")
        .contains("expected the Module block identifier 0x01 at 0x4, found 0x2"));
    let v = "Module/FormatInformation/BytecodeFormatVersion";
    assert_eq!(u(&d, v), 9);
    assert!(error(&d, v).contains("expected a bytecode revision of 0–7, found 9"));
    assert_eq!(range(&d, "Module/FormatInformation"), (12, 14));
    assert!(display(&d, "Module/Blocks/[0]/SymbolTable").contains("shown raw"));
}

#[test]
fn revision_6_shows_block_structure_with_raw_contents() {
    let d = clean(&gen::rev6_transition());
    assert_eq!(u(&d, "Module/FormatInformation/BytecodeFormatVersion"), 6);
    assert_eq!(display(&d, "Module/Blocks/[1]"), "SymbolTable, 9 bytes");
    assert!(display(&d, "Module/Blocks/[1]/SymbolTable").contains("revision 6"));
    assert_eq!(
        node(&d, "Module/Blocks/[1]/SymbolTable/Payload").kind,
        Kind::Bytes
    );
}

#[test]
fn nesting_deeper_than_the_limit_is_shown_raw_with_an_error() {
    let bytes = gen::nested(20);
    let d = damaged(&bytes);
    let errs = d.tree.errors();
    assert_eq!(errs.len(), 1);
    let n = d.tree.node(errs[0]);
    assert!(n
        .error
        .as_deref()
        .unwrap()
        .contains("expected at most 16 levels of nested blocks"));
    assert_eq!(n.name.to_string(), "Function");
    // 15 function levels decode (Linkage + Blocks each), the 16th is raw.
    let linkages = d
        .tree
        .nodes()
        .iter()
        .filter(|n| n.name.to_string() == "Linkage")
        .count();
    assert_eq!(linkages, 15);
}

/// Decodes hostile input and checks it finishes fast, with bounded nodes.
fn hostile(bytes: &[u8], what: &str) -> Decoded {
    let t = Instant::now();
    let d = decode_bytes(bytes);
    let took = t.elapsed();
    assert!(took < Duration::from_secs(2), "{what}: {took:?}");
    invariants::check(&d, bytes.len() as u64).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(!d.is_clean(), "{what} decoded without an error");
    assert!(d.tree.len() < 4096 + 12 * bytes.len(), "{what}");
    d
}

#[test]
fn hostile_inputs_finish_quickly_with_errors_at_the_damage() {
    // 100,000 nested function blocks (500 KB): the decoder stops descending at
    // the nesting limit and shows the rest raw; the JSON still renders.
    let deep = gen::nested_flat(100_000);
    let d = hostile(&deep, "100,000-deep nesting");
    assert!(d.tree.len() < 1000, "{}", d.tree.len());
    invariants::check_json(&d).unwrap();

    // A vbr of 100,000 continuation bytes as a symbol table's entry count.
    let mut w = gen::W::file(5);
    w.module(0, |w| {
        w.block(gen::Id::SymbolTable, |w| {
            w.vbr(0);
            w.bytes(&vec![0xFF; 100_000]);
            w.bytes(&[0x01]);
        })
    });
    let d = hostile(&w.buf, "long vbr");
    let e = error(
        &d,
        "Module/Blocks/[0]/SymbolTable/Planes/[0]/NumberOfEntries",
    );
    assert!(e.contains("found one 100001 bytes long"), "{e}");

    // Counts of 0xFFFFFFFF: type pool, named types, plane entries.
    let mut w = gen::W::file(5);
    w.module(0, |w| {
        w.block(gen::Id::GlobalTypePlane, |w| {
            w.vbr(0xFFFF_FFFF);
            w.bytes(&[16, 7]);
        });
        w.block(gen::Id::SymbolTable, |w| {
            w.vbr(0xFFFF_FFFF);
            w.bytes(&[7, 1, b'a']);
        });
        w.block(gen::Id::SymbolTable, |w| {
            w.vbr(0);
            w.vbr(0xFFFF_FFFF);
            w.vbr(7);
            w.bytes(&[0, 1, b'a', 1, 1, b'b']);
        });
    });
    let d = hostile(&w.buf, "counts of 0xFFFFFFFF");
    let b = "Module/Blocks";
    assert!(
        error(&d, &format!("{b}/[0]/GlobalTypePlane/NumberOfEntries"))
            .contains("expected room for 4294967295 type definitions")
    );
    assert!(error(
        &d,
        &format!("{b}/[1]/SymbolTable/TypeNames/NumberOfEntries")
    )
    .contains("expected room for 4294967295 named types"));
    let plane = format!("{b}/[2]/SymbolTable/Planes/[0]");
    assert!(error(&d, &format!("{plane}/NumberOfEntries"))
        .contains("expected room for 4294967295 symbol table entries"));
    assert_eq!(s(&d, &format!("{plane}/Entries/[1]/Name")), "b");
    assert!(node(&d, &format!("{plane}/Entries/[2]/SlotNumber"))
        .error
        .as_deref()
        .unwrap()
        .contains("the enclosing region ends there"));

    // Sizes of 0xFFFFFFFF: the module, a long-header block; the largest short size.
    let mut m = gen::rev0_llvm10();
    m[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    let d = hostile(&m, "module size 0xFFFFFFFF");
    assert!(error(&d, "Module/Size").contains("claims 4294967295 bytes"));
    let mut m = gen::rev0_llvm10();
    m[0x14..0x18].copy_from_slice(&u32::MAX.to_le_bytes());
    let d = hostile(&m, "block size 0xFFFFFFFF");
    assert!(error(&d, "Module/Blocks/[0]/Size").contains("claims 4294967295 bytes"));
    let mut m = gen::rev5_llvm14();
    m[0x0D..0x11].copy_from_slice(&u32::MAX.to_le_bytes());
    let d = hostile(&m, "short size 0x7FFFFFF");
    assert!(error(&d, "Module/Blocks/[0]/Size").contains("claims 134217727 bytes"));
    // A format information word that overflows 64 bits.
    let mut m = b"llvm\x01\x00\x00\x00\x0C\x00\x00\x00".to_vec();
    m.extend_from_slice(&[0xFF; 9]);
    m.push(0x7F);
    m.extend_from_slice(&[0, 0]);
    let d = hostile(&m, "format information over 64 bits");
    assert!(error(&d, "Module/FormatInformation").contains("overflows 64 bits"));
}

// ----- decoding on demand ---------------------------------------------------------------

// The benchmarks' dense module ([`gen::dense`]): an LLVM 1.3 module of many
// small functions.
use hexlens_core::stream::streaming_options;
use hexlens_core::{decode_with, output};
use lazy::{expand_all, first_difference, same_as_eager};

/// Damaged copies of a dense module of `functions` functions, each with its
/// error deep inside (found through the eager tree), and the module itself.
fn damaged_dense(functions: usize) -> Vec<(String, Vec<u8>)> {
    let good = gen::dense(functions);
    let d = decode_bytes(&good);
    assert!(d.is_clean());
    let at = |path: &str| node(&d, path).span.start_byte() as usize;
    let mid = functions / 2 + 3;
    let f = |i: usize| format!("Module/Blocks/[{i}]/Function");
    let module_names = format!("Module/Blocks/[{}]/SymbolTable", functions + 3);
    let mut out = Vec::new();
    let mut v = good.clone();
    v[at(&format!(
        "{}/Blocks/[2]/SymbolTable/Planes/[0]/Entries/[5]/Name",
        f(mid)
    ))] = 0x7F;
    out.push(("a function's symbol name running past its table", v));
    let mut v = good.clone();
    v[at(&format!("{}/Linkage", f(mid + 7)))] = 9;
    out.push(("a function with linkage 9", v));
    let mut v = good.clone();
    v[at(&format!("{}/Blocks/[1]", f(mid + 11))) + 3] = 0x7F;
    out.push(("a block overrunning its function", v));
    let mut v = good.clone();
    let size = at(&format!("Module/Blocks/[{}]", mid + 20));
    v[size + 3] = 0x7F;
    out.push(("a function block whose size overruns the module", v));
    let mut v = good.clone();
    v[at(&format!(
        "{module_names}/Planes/[0]/Entries/[{}]/Name",
        functions - 2
    ))] = 0x7F;
    out.push(("a name running past the module's symbol table", v));
    let mut v = good.clone();
    v.truncate(at(&format!("{}/Blocks/[1]", f(mid))) + 9);
    out.push(("a module cut inside a function", v));
    out.push(("the dense module", good));
    out.into_iter().map(|(n, b)| (n.to_string(), b)).collect()
}

#[test]
fn a_dense_module_opens_with_pages_of_blocks_and_expands_to_the_eager_tree() {
    let bytes = gen::dense(2500);
    let src = bytes.as_slice();
    let mut d = decode_with(&src, &streaming_options());
    assert!(!d.tree.may_hide_damage());
    // Root, signature, module header and three pages of module-level blocks.
    assert!(d.tree.len() < 20, "{} nodes", d.tree.len());
    let list = d.tree.find("Module/Blocks").unwrap();
    let pages = d.tree.node(list).children.clone();
    assert_eq!(pages.len(), 3);
    assert!(pages
        .iter()
        .all(|&p| d.tree.node(p).lazy && d.tree.node(p).page));
    assert_eq!(d.tree.node(pages[2]).name.to_string(), "[2000…2503]");
    // A page holds its blocks' headers; each block's content stays undecoded.
    let before = d.tree.len();
    hexlens_core::expand(&src, &mut d.tree, pages[1]).unwrap();
    assert!(d.tree.len() - before < 5000, "{}", d.tree.len() - before);
    let body = d.tree.find("Module/Blocks/[1500]/Function").unwrap();
    assert!(d.tree.node(body).lazy);
    hexlens_core::expand(&src, &mut d.tree, body).unwrap();
    let names = d
        .tree
        .find("Module/Blocks/[1500]/Function/Blocks/[2]/SymbolTable")
        .unwrap();
    assert!(d.tree.node(names).lazy);
    // The module's symbol table names every function: its entries come in pages.
    hexlens_core::expand(&src, &mut d.tree, pages[2]).unwrap();
    let table = d.tree.find("Module/Blocks/[2503]/SymbolTable").unwrap();
    hexlens_core::expand(&src, &mut d.tree, table).unwrap();
    let entries = d
        .tree
        .find("Module/Blocks/[2503]/SymbolTable/Planes/[0]/Entries")
        .unwrap();
    assert_eq!(d.tree.node(entries).children.len(), 3);
    // Expanding everything gives the eager tree.
    expand_all(&bytes, &mut d, true).unwrap();
    let eager = decode_bytes(&bytes);
    assert!(eager.tree.len() > 100_000);
    let (a, b) = (output::to_json(&d), output::to_json(&eager));
    assert!(a == b, "{}", first_difference(&a, &b));
}

#[test]
fn fixtures_and_damaged_dense_modules_decoded_on_demand_equal_their_eager_decode() {
    let mut files: Vec<(String, Vec<u8>)> = gen::all()
        .into_iter()
        .map(|(n, b)| (n.to_string(), b))
        .collect();
    files.push(("nested 40".into(), gen::nested(40)));
    files.push(("nested flat 3000".into(), gen::nested_flat(3000)));
    for (name, bytes) in &files {
        for page in [1, 2, 3, 1000] {
            same_as_eager(name, bytes, page, true);
        }
    }
    for (name, bytes) in damaged_dense(1200) {
        let eager = decode_bytes(&bytes);
        assert_eq!(eager.is_clean(), name == "the dense module", "{name}");
        for page in [7, 1000] {
            same_as_eager(&name, &bytes, page, true);
        }
    }
}
