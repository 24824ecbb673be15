//! Generated DirectX Container fixtures: SYM0/STR0, PSV0 v0 and future sizes,
//! damaged files, and a shader PDB's debug container with the signed shader it
//! belongs to. The bytes come from `crates/testkit/src/generators/dxcontainer.rs`; these
//! tests check the checked-in copies in `tests/fixtures/dxcontainer/generated/` are current
//! (`HEXLENS_BLESS=1` rewrites them) and that hexlens decodes what was written.

use hexlens_core::{decode_bytes, Decoded, Kind, Value};
use hexlens_testkit::{generators::dxcontainer as gen, lazy, lookup, repo};
use lookup::{display, error, node, s, value};
use std::path::PathBuf;

fn fixtures_dir() -> PathBuf {
    repo::fixtures().join("dxcontainer/generated")
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

/// Decoded to find where things are (`skip_digests`, as the listing does),
/// the digests are left unchecked and say so, even when they are wrong.
#[test]
fn digests_left_unchecked_say_so() {
    let mut bytes = gen::pdb_signed_shader();
    bytes[4] ^= 0xFF;
    let opts = hexlens_core::Options {
        skip_digests: true,
        ..Default::default()
    };
    let d = hexlens_core::decode_with(&bytes.as_slice(), &opts);
    assert!(d.is_clean(), "{}", hexlens_core::output::to_text(&d));
    assert_eq!(display(&d, "Header/Hash"), "container digest: not checked");
    assert_eq!(
        display(&d, "Parts/[2]/Hash/Digest"),
        "MD5 shader hash: not checked"
    );
    // Checked, the changed digest is an error.
    assert!(!decode_bytes(&bytes).is_clean());
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

// ----- decoding on demand ---------------------------------------------------------

use hexlens_core::stream::streaming_options;
use hexlens_core::{decode_with, output, Options};
use lazy::{first_difference, same_as_eager, streamed};

#[test]
fn every_generated_and_curated_container_expanded_on_demand_equals_its_eager_decode() {
    let mut files: Vec<(String, Vec<u8>)> = gen::all()
        .into_iter()
        .map(|(n, b)| (n.to_string(), b))
        .collect();
    let dir = repo::curated_dir();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        files.push((p.display().to_string(), std::fs::read(&p).unwrap()));
    }
    if let Some(extra) = std::env::var_os("HEXLENS_DXC_FILE") {
        let p = PathBuf::from(extra);
        files.push((p.display().to_string(), std::fs::read(&p).unwrap()));
    }
    for (name, bytes) in &files {
        for page in [1, 3, 1000] {
            same_as_eager(name, bytes, page, false);
        }
    }
}

#[test]
fn damaged_generated_containers_stream_to_their_eager_json() {
    for (name, bytes) in gen::all() {
        let want = output::to_json(&decode_bytes(&bytes)) + "\n";
        for page in [1, 2, 1000] {
            let got = streamed(&bytes, page, true);
            assert!(
                got == want,
                "{name} (pages of {page}): {}",
                first_difference(&got, &want)
            );
        }
    }
}

#[test]
fn a_dense_container_opens_small_and_expands_to_its_eager_tree() {
    let bytes = gen::dense_container(&gen::Dense {
        symbols: 2500,
        suffix_every: 7,
        instructions: 2100,
        parameters: 1500,
        resources: 1200,
    });
    let eager = decode_bytes(&bytes);
    assert!(
        eager.is_clean(),
        "{:?}",
        eager.tree.errors().first().map(|&e| eager.tree.path(e))
    );
    // With a lazy threshold alone (no pages), parts are decoded at once.
    let only_threshold = Options {
        lazy_threshold: Some(0),
        ..Options::default()
    };
    assert_eq!(
        decode_with(&bytes.as_slice(), &only_threshold)
            .tree
            .lazy_count(),
        0
    );
    // Opening it decodes the header and the part table, not the parts.
    let d = decode_with(&bytes.as_slice(), &streaming_options());
    assert!(
        d.tree.len() < 60,
        "{} nodes right after decoding",
        d.tree.len()
    );
    assert_eq!(d.tree.lazy_count(), 7, "every part's body is lazy");
    let body = d.tree.node(d.tree.find("Parts/[1]/SymbolTable").unwrap());
    assert_eq!(
        body.display.as_deref(),
        Some("50000 bytes, not decoded yet")
    );
    // Opening a part shows its long list as pages of 1000 entries.
    let mut d = d;
    // (The strings that share another's tail follow the pages, one node each.)
    let suffixes = 2500 / 7 + 1;
    for (body, list, pages, most) in [
        (
            "Parts/[1]/SymbolTable",
            "Parts/[1]/SymbolTable/Symbols",
            3,
            10,
        ),
        (
            "Parts/[2]/StringTable",
            "Parts/[2]/StringTable/Strings",
            3,
            10 + suffixes,
        ),
        ("Parts/[3]/Shader", "Parts/[3]/Shader/Instructions", 3, 10),
        (
            "Parts/[4]/Signature",
            "Parts/[4]/Signature/Parameters",
            2,
            10,
        ),
        ("Parts/[6]/PSVInfo", "Parts/[6]/PSVInfo/Resources", 2, 30),
    ] {
        let id = d.tree.find(body).unwrap();
        let before = d.tree.len();
        hexlens_core::expand(&bytes.as_slice(), &mut d.tree, id).unwrap();
        let made = d.tree.len() - before;
        assert!(made <= most, "{body}: {made} nodes");
        let l = d.tree.node(d.tree.find(list).unwrap());
        let paged = l.children.iter().filter(|&&c| d.tree.node(c).page).count();
        assert_eq!(paged, pages, "{list}");
        assert!(
            l.children.iter().take(pages).all(|&c| d.tree.node(c).lazy),
            "{list}"
        );
    }
    // RDAT's sub-parts are lazy, and the record table is paged.
    let id = d.tree.find("Parts/[5]/RuntimeData").unwrap();
    hexlens_core::expand(&bytes.as_slice(), &mut d.tree, id).unwrap();
    let id = d.tree.find("Parts/[5]/RuntimeData/Parts/[1]").unwrap();
    assert!(d.tree.node(id).lazy);
    assert_eq!(
        d.tree.node(id).display.as_deref(),
        Some("ResourceTable, not decoded yet")
    );
    hexlens_core::expand(&bytes.as_slice(), &mut d.tree, id).unwrap();
    assert_eq!(d.tree.node(id).display.as_deref(), Some("ResourceTable"));
    let l = d
        .tree
        .find("Parts/[5]/RuntimeData/Parts/[1]/Records")
        .unwrap();
    assert_eq!(d.tree.node(l).children.len(), 2);
    // A path into a page finds the entry the eager tree has there.
    let mut s = decode_with(&bytes.as_slice(), &streaming_options());
    let p = "Parts/[1]/SymbolTable/Symbols/[2222]/Name";
    let id = hexlens_core::stream::select(&bytes.as_slice(), &mut s.tree, p).unwrap();
    assert_eq!(s.tree.node(id).value, node(&eager, p).value);
    // Expanded node by node, and streamed, it is the eager tree.
    same_as_eager("dense container", &bytes, 1000, false);
    same_as_eager("dense container", &bytes, 333, false);
    let want = output::to_json(&eager) + "\n";
    assert!(
        streamed(&bytes, 1000, true) == want,
        "streamed dense container"
    );
}

#[test]
fn a_part_released_and_opened_again_reads_as_it_did() {
    // SYM0's error sits on the lazy node itself; it is said once, however
    // often the table is opened.
    let bytes = gen::bad_symbols();
    let want = output::to_json(&decode_bytes(&bytes));
    let mut d = decode_with(&bytes.as_slice(), &streaming_options());
    let id = d.tree.find("Parts/[1]/SymbolTable").unwrap();
    for _ in 0..3 {
        hexlens_core::expand(&bytes.as_slice(), &mut d.tree, id).unwrap();
        hexlens_core::release(&mut d.tree, id).unwrap();
    }
    let mut from = 0;
    while let Some(k) = (from..d.tree.len() as u32).find(|&k| d.tree.node(k).lazy) {
        hexlens_core::expand(&bytes.as_slice(), &mut d.tree, k).unwrap();
        from = k + 1;
    }
    let got = output::to_json(&d);
    assert!(got == want, "{}", first_difference(&got, &want));
}
