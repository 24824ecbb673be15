//! Generated DirectX Container fixtures: SYM0/STR0, PSV0 v0 and future sizes,
//! damaged files, and a shader PDB's debug container with the signed shader it
//! belongs to. The bytes come from `tests/generators/dxcontainer.rs`; these
//! tests check the checked-in copies in `tests/fixtures/generated/` are current
//! (`HEXLENS_BLESS=1` rewrites them) and that hexlens decodes what was written.

#[path = "generators/dxcontainer.rs"]
mod gen;
#[path = "support/lookup.rs"]
mod lookup;

use hexlens_core::{decode_bytes, Decoded, Kind, Value};
use lookup::{display, error, node, s, value};
use std::path::PathBuf;

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/generated")
}

fn bytes_of(bytes: &[u8], d: &Decoded, path: &str) -> Vec<u8> {
    let n = node(d, path);
    bytes[n.span.start_byte() as usize..n.span.end_byte() as usize].to_vec()
}

#[test]
fn checked_in_fixtures_match_the_generator() {
    lookup::check_fixtures_current(&fixtures_dir(), gen::all());
}

#[test]
fn sym0_short_names_are_read_inline() {
    let d = decode_bytes(&gen::sym0_str0_library());
    assert!(d.is_clean(), "{}", hexlens_core::output::to_text(&d));
    assert_eq!(value(&d, "Parts/[2]/Name"), s("SYM0"));
    assert_eq!(
        value(&d, "Parts/[2]/SymbolTable/Symbols/[0]/Name"),
        s("main")
    );
    // Exactly 8 bytes and no terminator.
    assert_eq!(
        value(&d, "Parts/[2]/SymbolTable/Symbols/[1]/Name"),
        s("entry_ps")
    );
    assert_eq!(
        node(&d, "Parts/[2]/SymbolTable/Symbols/[1]/Name")
            .span
            .len_bits(),
        64
    );
}

#[test]
fn sym0_long_names_resolve_through_str0() {
    let bytes = gen::sym0_str0_library();
    let d = decode_bytes(&bytes);
    let sym = "Parts/[2]/SymbolTable/Symbols";
    assert_eq!(
        value(&d, &format!("{sym}/[2]/Name")),
        s("RayGenerationShaderMain")
    );
    assert_eq!(value(&d, &format!("{sym}/[2]/Name/Zeros")), Value::U(0));
    assert_eq!(
        value(&d, &format!("{sym}/[2]/Name/NameOffset")),
        s("RayGenerationShaderMain")
    );
    // The reference points at the string bytes inside STR0, terminator included.
    let r = node(&d, &format!("{sym}/[2]/Name/NameOffset"))
        .reference
        .expect("reference");
    assert_eq!(
        &bytes[r.start_byte() as usize..r.end_byte() as usize],
        b"RayGenerationShaderMain\0"
    );
    assert_eq!(value(&d, &format!("{sym}/[3]/Name")), s("ShaderMain"));
    assert_eq!(value(&d, &format!("{sym}/[4]/Name")), s(gen::XSS_NAME));
    assert_eq!(value(&d, &format!("{sym}/[5]/Name")), s("ClosestHitShader"));
    for i in 0..6 {
        assert_eq!(value(&d, &format!("{sym}/[{i}]/SectionIndex")), Value::U(1));
        assert_eq!(
            node(&d, &format!("{sym}/[{i}]/SectionIndex"))
                .display
                .as_deref(),
            Some("part [1] (DXIL)")
        );
        assert_eq!(
            node(&d, &format!("{sym}/[{i}]/ComplexType"))
                .display
                .as_deref(),
            Some("IMAGE_SYM_DTYPE_FUNCTION")
        );
        assert_eq!(
            node(&d, &format!("{sym}/[{i}]/StorageClass"))
                .display
                .as_deref(),
            Some("IMAGE_SYM_CLASS_EXTERNAL")
        );
        assert_eq!(
            node(&d, &format!("{sym}/[{i}]/BaseType"))
                .display
                .as_deref(),
            Some("IMAGE_SYM_TYPE_NULL")
        );
    }
}

#[test]
fn str0_lists_each_string_with_its_offset_and_marks_suffix_sharing() {
    let bytes = gen::sym0_str0_library();
    let d = decode_bytes(&bytes);
    let t = "Parts/[3]/StringTable";
    assert_eq!(value(&d, &format!("{t}/Size")), Value::U(76));
    assert_eq!(
        value(&d, &format!("{t}/Strings/[0]")),
        s("RayGenerationShaderMain")
    );
    assert_eq!(
        node(&d, &format!("{t}/Strings/[0]")).display.as_deref(),
        Some("offset 0x4")
    );
    assert_eq!(value(&d, &format!("{t}/Strings/[1]")), s(gen::XSS_NAME));
    assert_eq!(
        node(&d, &format!("{t}/Strings/[1]")).display.as_deref(),
        Some("offset 0x1C")
    );
    assert_eq!(
        value(&d, &format!("{t}/Strings/[2]")),
        s("ClosestHitShader")
    );
    assert_eq!(
        node(&d, &format!("{t}/Strings/Padding")).kind,
        Kind::Padding
    );
    // "ShaderMain" lives inside "RayGenerationShaderMain": an aliasing entry that says so.
    let shared = node(&d, &format!("{t}/Strings/[3]"));
    assert_eq!(shared.value, Some(s("ShaderMain")));
    assert!(shared
        .display
        .as_deref()
        .unwrap()
        .contains("shares the tail of [0]"));
    assert_eq!(
        bytes_of(&bytes, &d, &format!("{t}/Strings/[3]")),
        b"ShaderMain\0"
    );
    assert!(node(&d, &format!("{t}/Strings/[0]"))
        .span
        .contains(&shared.span));
}

#[test]
fn psv0_version_0_stops_after_the_resource_bindings() {
    let d = decode_bytes(&gen::psv0_v0_vertex());
    assert!(d.is_clean(), "{}", hexlens_core::output::to_text(&d));
    let p = "Parts/[1]/PSVInfo";
    assert_eq!(value(&d, &format!("{p}/Version")), Value::U(0));
    assert_eq!(node(&d, &format!("{p}/Version")).kind, Kind::Derived);
    assert_eq!(
        value(&d, &format!("{p}/OutputPositionPresent")),
        Value::U(1)
    );
    assert_eq!(value(&d, &format!("{p}/MinimumWaveLaneCount")), Value::U(4));
    assert_eq!(
        value(&d, &format!("{p}/MaximumWaveLaneCount")),
        Value::U(64)
    );
    assert_eq!(value(&d, &format!("{p}/ResourceStride")), Value::U(16));
    assert_eq!(
        node(&d, &format!("{p}/Resources/[0]/Type"))
            .display
            .as_deref(),
        Some("CBV")
    );
    assert_eq!(value(&d, &format!("{p}/Resources/[0]/Space")), Value::U(3));
    assert_eq!(
        node(&d, &format!("{p}/Resources/[0]/UpperBound"))
            .display
            .as_deref(),
        Some("unbounded")
    );
    assert!(
        d.tree.find(&format!("{p}/Resources/[0]/Kind")).is_none(),
        "v0 bindings have no Kind"
    );
    assert!(
        d.tree.find(&format!("{p}/StringTableSize")).is_none(),
        "v0 ends after the bindings"
    );
    assert!(d.tree.find(&format!("{p}/ShaderStage")).is_none());
}

#[test]
fn psv0_runtime_info_larger_than_v3_reads_v3_and_keeps_the_rest() {
    let d = decode_bytes(&gen::psv0_future_size());
    assert!(d.is_clean(), "{}", hexlens_core::output::to_text(&d));
    let p = "Parts/[1]/PSVInfo";
    assert_eq!(value(&d, &format!("{p}/Version")), Value::U(3));
    assert_eq!(value(&d, &format!("{p}/NumThreadsX")), Value::U(8));
    assert_eq!(value(&d, &format!("{p}/NumThreadsY")), Value::U(4));
    assert_eq!(value(&d, &format!("{p}/EntryName")), s("main"));
    assert_eq!(
        node(&d, &format!("{p}/RuntimeInfoExtra")).span.len_bits(),
        64
    );
    assert_eq!(value(&d, &format!("{p}/ResourceStride")), Value::U(24));
}

#[test]
fn hostile_part_count_is_reported_without_allocating_for_it() {
    let d = decode_bytes(&gen::hostile_part_count());
    assert!(error(&d, "Header/PartCount").contains("needs 17179869180 bytes of part offsets"));
    // Only as many offsets as the file holds were read, and the last read failed cleanly.
    let offsets = node(&d, "Header/PartOffsets");
    assert_eq!(offsets.children.len(), 6);
    assert!(error(&d, "Header/PartOffsets/[5]").contains("expected a 4-byte integer at 0x34"));
    assert!(d.tree.len() < 100);
}

#[test]
fn part_offsets_into_the_header_past_the_end_or_into_another_part_are_errors() {
    let d = decode_bytes(&gen::bad_part_offsets());
    assert_eq!(value(&d, "Parts/[0]/Name"), s("SFI0"));
    assert!(node(&d, "Parts/[0]").error.is_none());
    assert!(error(&d, "Parts/[1]").contains("points inside the container header"));
    assert!(node(&d, "Parts/[1]").span.is_empty());
    assert!(error(&d, "Parts/[2]").contains("past the end of the file"));
    assert!(error(&d, "Parts/[3]").contains("inside the previous part"));
    // The good part's bytes after the bad table are still accounted for.
    assert_eq!(d.tree.errors().len(), 3);
}

#[test]
fn a_part_running_past_the_end_keeps_what_is_there() {
    let d = decode_bytes(&gen::truncated_part());
    assert!(error(&d, "Header/FileSize")
        .contains("FileSize says 4096 bytes, but the file has 84 bytes"));
    assert!(error(&d, "Parts/[1]/Size")
        .contains("claims 1000 bytes of data from 0x40, but the file ends at 0x54"));
    assert_eq!(
        value(&d, "Parts/[1]/Hash/IncludesSource"),
        Value::Bool(false)
    );
    assert_eq!(node(&d, "Parts/[1]/Hash/Digest").span.len_bits(), 128);
    assert_eq!(d.tree.errors().len(), 2);
}

#[test]
fn damaged_symbols_carry_errors_and_the_rest_still_decodes() {
    let d = decode_bytes(&gen::bad_symbols());
    let sym = "Parts/[1]/SymbolTable";
    assert!(node(&d, sym)
        .error
        .as_deref()
        .unwrap()
        .contains("not a multiple of the 20-byte symbol size; 7 bytes left over"));
    assert_eq!(value(&d, &format!("{sym}/Symbols/[0]/Name")), s("okname"));
    assert!(error(&d, &format!("{sym}/Symbols/[1]/Name/NameOffset"))
        .contains("offset 0x1F4 does not resolve"));
    assert_eq!(
        value(&d, &format!("{sym}/Symbols/[1]/Name/NameOffset")),
        Value::U(500)
    );
    assert!(error(&d, &format!("{sym}/Symbols/[2]/Name/NameOffset"))
        .contains("points into STR0's size field"));
    assert!(error(&d, &format!("{sym}/Symbols/[3]/SectionIndex"))
        .contains("SectionIndex 9 is not a part index"));
    assert!(error(&d, &format!("{sym}/Symbols/[3]/Unused")).contains("found 3"));
    let t = "Parts/[2]/StringTable";
    assert!(error(&d, &format!("{t}/Size")).contains("says it is 64 bytes, but the part holds 16"));
    assert_eq!(value(&d, &format!("{t}/Strings/[0]")), s("okname"));
    assert!(error(&d, &format!("{t}/Strings/[1]")).contains("found 5 bytes without a terminator"));
}

#[test]
fn bad_signature_name_and_tiny_runtime_info_are_errors_not_stops() {
    let d = decode_bytes(&gen::bad_signature_and_psv());
    let e = error(&d, "Parts/[1]/Signature/Parameters/[0]/Name");
    assert!(e.contains("offset 0x400 does not resolve"), "{e}");
    // The fields after the bad name were still read.
    assert_eq!(
        node(&d, "Parts/[1]/Signature/Parameters/[0]/CompType")
            .display
            .as_deref(),
        Some("Float32")
    );
    assert!(error(&d, "Parts/[2]/PSVInfo/RuntimeInfoSize").contains("at least 24 bytes"));
    assert_eq!(value(&d, "Parts/[0]/Program/ShaderKind"), Value::U(0));
}

/// The FourCCs of the parts, in order.
fn part_names(d: &Decoded) -> Vec<String> {
    let parts = node(d, "Parts");
    (0..parts.children.len())
        .map(|i| match value(d, &format!("Parts/[{i}]/Name")) {
            Value::Str(n) => n,
            v => panic!("part name {v:?}"),
        })
        .collect()
}

#[test]
fn the_signed_shader_a_pdb_belongs_to_checks_out() {
    let d = decode_bytes(&gen::pdb_signed_shader());
    assert!(d.is_clean(), "{}", hexlens_core::output::to_text(&d));
    assert_eq!(part_names(&d), ["SFI0", "ILDN", "HASH", "DXIL"]);
    // The generator's own DXBC checksum and MD5 agree with hexlens's.
    assert_eq!(
        display(&d, "Header/Hash"),
        "container digest: DXBC checksum matches"
    );
    assert_eq!(
        display(&d, "Parts/[2]/Hash/Digest"),
        "MD5 shader hash: matches the MD5 of the DXIL part's bitcode"
    );
}

#[test]
fn a_shader_pdbs_debug_container_shows_the_signed_shaders_digest_without_an_error() {
    let shader = gen::pdb_signed_shader();
    let bytes = gen::pdb_debug_container();
    let d = decode_bytes(&bytes);
    assert!(d.is_clean(), "{}", hexlens_core::output::to_text(&d));
    assert_eq!(part_names(&d), ["ILDN", "HASH", "SRCI", "VERS", "ILDB"]);
    // The header digest is the signed shader's, not this container's checksum.
    assert_eq!(bytes_of(&bytes, &d, "Header/Hash"), &shader[4..20]);
    assert_ne!(gen::dxbc_checksum(&bytes)[..], bytes[4..20]);
    assert_eq!(
        display(&d, "Header/Hash"),
        "container digest: digest of the signed shader this debug container belongs to (not a checksum of this container)"
    );
    // The HASH part is the shader's, copied; the PDB is named after it.
    let digest = "Parts/[1]/Hash/Digest";
    let shader_hash = bytes_of(&shader, &decode_bytes(&shader), "Parts/[2]/Hash/Digest");
    assert_eq!(bytes_of(&bytes, &d, digest), shader_hash);
    assert!(display(&d, digest).starts_with(
        "MD5 shader hash: cannot be checked: copied from the signed shader, it covers that shader's DXIL part"
    ));
    let hex: String = shader_hash.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(
        value(&d, "Parts/[0]/DebugName/Name"),
        s(&format!("{hex}.pdb"))
    );
    // The other parts decode as what DXC writes there.
    let src = "Parts/[2]/SourceInfo/Sections";
    assert_eq!(
        value(&d, &format!("{src}/[0]/Entries/[0]/Name")),
        s(gen::PDB_SOURCE_NAME)
    );
    assert_eq!(
        value(&d, &format!("{src}/[1]/Entries/[0]/Content")),
        s(gen::PDB_SOURCE)
    );
    assert_eq!(value(&d, &format!("{src}/[2]/Args/[1]/Value")), s("ps_6_0"));
    assert_eq!(value(&d, "Parts/[3]/CompilerVersion/Minor"), Value::U(8));
    assert_eq!(value(&d, "Parts/[4]/Program/ShaderKind"), Value::U(0));
}

#[test]
fn a_container_with_a_dxil_part_and_a_digest_that_is_not_its_own_keeps_the_error() {
    let bytes = gen::pdb_container_with_dxil();
    let d = decode_bytes(&bytes);
    assert_eq!(
        part_names(&d),
        ["ILDN", "HASH", "SRCI", "VERS", "ILDB", "DXIL"]
    );
    assert!(display(&d, "Header/Hash").starts_with("container digest: expected "));
    assert!(error(&d, "Header/Hash").contains("the file was changed after it was signed"));
    // Nothing else is wrong with it: the HASH part matches its DXIL part.
    assert_eq!(d.tree.errors().len(), 1);
    assert_eq!(
        display(&d, "Parts/[1]/Hash/Digest"),
        "MD5 shader hash: matches the MD5 of the DXIL part's bitcode"
    );
}
