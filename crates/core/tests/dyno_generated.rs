//! Generated Chapel `.dyno` fixtures: the checked-in copies in `tests/fixtures/chapel-dyno/`
//! must be what `crates/testkit/src/generators/dyno.rs` makes (`HEXLENS_BLESS=1` rewrites them),
//! and hexlens must decode from them what the generator wrote: both byte orders,
//! all three layouts, the SHA-256, the symbol table's front-coded names, the uAST,
//! the long strings and the location groups; and the damage in the damaged ones.

use gen::Layout as L;
use hexlens_core::{decode_bytes, Decoded, Kind, Value};
use hexlens_testkit::{generators::dyno as gen, lazy, lookup, repo};
use lazy::expand_all;
use lookup::{display, error, node, s, value};
use std::path::PathBuf;

fn fixtures_dir() -> PathBuf {
    repo::fixtures().join("chapel-dyno")
}

fn errors(d: &Decoded) -> Vec<String> {
    d.tree
        .errors()
        .into_iter()
        .map(|id| {
            format!(
                "{}: {}",
                d.tree.path(id),
                d.tree.node(id).error.as_deref().unwrap_or_default()
            )
        })
        .collect()
}

fn clean(bytes: &[u8]) -> Decoded {
    let d = decode_bytes(bytes);
    assert_eq!(d.format, "chapel-dyno");
    assert!(
        d.is_clean(),
        "{:#?}\n{}",
        errors(&d),
        hexlens_core::output::to_text(&d)
    );
    d
}

#[test]
fn checked_in_fixtures_match_the_generator() {
    lookup::check_fixtures_current(&fixtures_dir(), gen::all());
}

#[test]
fn the_magic_tells_the_byte_order_and_every_field_follows_it() {
    for (be, order) in [(false, "little-endian"), (true, "big-endian")] {
        for layout in [L::Writer, L::Spec] {
            let (f, _) = gen::shapes(layout, be);
            let d = clean(&f);
            assert_eq!(value(&d, "ByteOrder"), s(order));
            let root = d.tree.node(0).display.as_deref().unwrap().to_string();
            assert!(root.starts_with(order), "{root}");
            let magic = if be {
                "magic 4C 50 48 43 42 49 4C 7F"
            } else {
                "magic 7F 4C 49 42 43 48 50 4C"
            };
            assert!(root.contains(magic), "{root}");
            assert_eq!(value(&d, "Header/Magic"), Value::U(0x4C50_4843_4249_4C7F));
            assert_eq!(value(&d, "Header/FormatVersionMinor"), Value::U(1));
            assert_eq!(value(&d, "Header/ModuleCount"), Value::U(1));
            // An 8-byte integer inside the uAST follows the file's order too.
            let lit = "Modules/[0]/Uast/Entries/[0]/Children/[1]/Children/[0]/Value/Int64";
            assert_eq!(value(&d, lit), Value::I(1), "{layout:?} {order}");
        }
    }
}

#[test]
fn both_byte_orders_decode_to_the_same_values() {
    for layout in [L::Writer, L::Spec, L::Writer2023] {
        let le = decode_bytes(&gen::shapes(layout, false).0);
        let be = decode_bytes(&gen::shapes(layout, true).0);
        let vals = |d: &Decoded| -> Vec<(String, Option<Value>)> {
            d.tree
                .nodes()
                .iter()
                .enumerate()
                .filter(|(_, n)| {
                    n.name.to_string() != "Sha256" && n.name.to_string() != "ByteOrder"
                })
                .map(|(i, n)| (d.tree.path(i as u32), n.value.clone()))
                .filter(|(p, _)| !p.ends_with("Magic"))
                .collect()
        };
        assert_eq!(vals(&le), vals(&be), "{layout:?}");
    }
}

#[test]
fn the_layout_is_told_from_the_module_header_and_said_on_the_root() {
    for (layout, name, evidence) in [
        (L::Writer, "writer", "generated-code magic"),
        (L::Spec, "spec", "seven regions"),
        (
            L::Writer2023,
            "writer-2023",
            "module length of the 2021-2023 header",
        ),
    ] {
        let d = clean(&gen::shapes(layout, false).0);
        assert_eq!(value(&d, "Layout"), s(name));
        assert!(
            display(&d, "Layout").contains(evidence),
            "{}",
            display(&d, "Layout")
        );
        let root = d.tree.node(0).display.as_deref().unwrap().to_string();
        assert!(root.contains(&format!("layout: {name} (")), "{root}");
        let derived = node(&d, "Layout");
        assert_eq!(derived.kind, Kind::Derived);
        assert!(derived.reference.is_some());
    }
}

#[test]
fn the_sha256_is_verified_with_the_hash_field_zeroed() {
    let d = clean(&gen::shapes(L::Writer, false).0);
    assert!(display(&d, "Header/Sha256").contains("matches"));
    let bad = decode_bytes(&gen::stale_hash());
    let e = error(&bad, "Header/Sha256");
    assert!(
        e.contains("SHA-256 of the file (with this field zeroed) is"),
        "{e}"
    );
    assert!(display(&bad, "Header/Sha256").starts_with("SHA-256 mismatch: expected "));
    assert_eq!(errors(&bad).len(), 1, "{:#?}", errors(&bad));
}

#[test]
fn module_headers_resolve_relative_offsets_and_hold_the_two_strings() {
    let (f, m) = gen::shapes(L::Writer, false);
    let d = clean(&f);
    let m0 = m.get("m0") as u64;
    assert_eq!(value(&d, "ModuleTable/[0]"), Value::U(m0));
    assert_eq!(value(&d, "ModuleTable/[1]"), Value::U(f.len() as u64));
    assert_eq!(value(&d, "Modules/[0]/Header/ModuleSymbolId"), s("Shapes"));
    assert_eq!(value(&d, "Modules/[0]/Header/FilePath"), s("shapes.chpl"));
    assert_eq!(
        value(&d, "Modules/[0]/Header/ModuleSymbolId/Length"),
        Value::U(6)
    );
    let st = m.get("m0.symtab") as u64;
    let start = display(&d, "Modules/[0]/Header/SymbolTable/Start");
    assert_eq!(
        start,
        format!("module 0x{m0:X} + 0x{:X} = 0x{st:X}", st - m0)
    );
    // Sections are decoded in file order: the writer writes the uAST first.
    let module = node(&d, "Modules/[0]");
    let names: Vec<String> = module
        .children
        .iter()
        .map(|&c| d.tree.node(c).name.to_string())
        .filter(|n| n != "Padding")
        .collect();
    assert_eq!(
        names,
        [
            "Header",
            "Uast",
            "LongStrings",
            "Locations",
            "SymbolTable",
            "GeneratedCode"
        ]
    );
    let sym = node(&d, "Modules/[0]/SymbolTable");
    assert_eq!(sym.span.start_byte(), st);
    assert_eq!(st % 16, 0);
    // The spec's layout lists seven regions; the empty TODO ones are not decoded.
    let spec = clean(&gen::shapes(L::Spec, false).0);
    assert_eq!(display(&spec, "Modules/[0]/Header/Types"), "empty");
    assert!(spec.tree.find("Modules/[0]/Types").is_none());
    assert!(spec.tree.find("Modules/[0]/GeneratedCode").is_none());
}

#[test]
fn symbol_ids_and_cnames_are_rebuilt_from_their_front_coding() {
    for layout in [L::Writer, L::Spec] {
        let d = clean(&gen::shapes(layout, false).0);
        let e = |i: u32, f: &str| format!("Modules/[0]/SymbolTable/Entries/[{i}]/{f}");
        let ids: Vec<Value> = (0..10).map(|i| value(&d, &e(i, "SymbolId"))).collect();
        let want = [
            "",
            "Color",
            "Point",
            "Point.norm1",
            "Point.x",
            "Point.y",
            "area",
            "banner_text",
            "origin_point_with_a_long_name",
            "twice",
        ];
        assert_eq!(ids, want.map(s));
        // "Point.x" after "Point.norm1": 6 bytes copied, "x" stored.
        assert_eq!(value(&d, &e(4, "SymbolId/PrefixLength")), Value::U(6));
        assert_eq!(value(&d, &e(4, "SymbolId/SuffixLength")), Value::U(1));
        assert_eq!(
            display(&d, &e(4, "SymbolId")),
            "\"Point.\" (copied) + \"x\" (stored) = \"Point.x\""
        );
        assert_eq!(value(&d, &e(2, "Kind")), Value::U(100));
        assert!(display(&d, &e(2, "Kind")).starts_with("Record"));
        // Generated versions: "twice_chpl2" copies 10 bytes of "twice_chpl".
        assert_eq!(value(&d, &e(9, "GeneratedCount")), Value::U(2));
        assert_eq!(value(&d, &e(9, "Generated/[1]/CName")), s("twice_chpl2"));
        assert_eq!(
            value(&d, &e(9, "Generated/[1]/CName/PrefixLength")),
            Value::U(10)
        );
        assert_eq!(
            value(&d, &e(9, "Generated/[1]/IsInstantiation")),
            Value::U(1)
        );
        // Offsets resolve to the uAST entry and the location group.
        assert!(
            display(&d, &e(6, "UastOffset")).ends_with(": Function \"area\""),
            "{}",
            display(&d, &e(6, "UastOffset"))
        );
        assert!(display(&d, &e(6, "LocationOffset")).ends_with(": location group [7]"));
    }
}

#[test]
fn the_uast_is_decoded_recursively_with_strings_from_the_long_strings_table() {
    let d = clean(&gen::shapes(L::Writer, false).0);
    let root = "Modules/[0]/Uast/Entries/[0]";
    assert_eq!(value(&d, &format!("{root}/Tag")), Value::U(87));
    assert_eq!(display(&d, &format!("{root}/Tag")), "Module");
    assert_eq!(value(&d, &format!("{root}/Name")), s("Shapes"));
    assert_eq!(
        value(&d, &format!("{root}/AttributeGroupChildNum")),
        Value::I(-1)
    );
    assert_eq!(value(&d, &format!("{root}/ChildCount")), Value::U(7));
    let varint = node(&d, &format!("{root}/ChildCount"));
    assert_eq!(varint.kind, Kind::VarInt);
    assert_eq!(varint.display.as_deref(), Some("07 → 7"));
    // The constant's name is long string #1.
    let origin = format!("{root}/Children/[1]");
    assert_eq!(
        value(&d, &format!("{origin}/Name")),
        s("origin_point_with_a_long_name")
    );
    assert_eq!(
        value(&d, &format!("{origin}/Name/LongStringIndex")),
        Value::U(1)
    );
    assert!(node(&d, &format!("{origin}/Name")).reference.is_some());
    // ... and is referenced again by an Identifier inside `area`.
    let ident = format!("{root}/Children/[3]/Children/[3]/Children/[0]/Children/[0]/Children/[1]");
    assert_eq!(
        value(&d, &format!("{ident}/Name")),
        s("origin_point_with_a_long_name")
    );
    assert_eq!(
        display(&d, &ident),
        "Identifier \"origin_point_with_a_long_name\""
    );
    assert_eq!(
        value(&d, "Modules/[0]/LongStrings/Strings/[2]"),
        s("Shapes module, generated")
    );
    assert_eq!(
        value(&d, "Modules/[0]/LongStrings/Header/Count"),
        Value::U(4)
    );
    assert!(display(&d, "Modules/[0]/LongStrings/Offsets/[0]").contains("index 0, unused"));
    assert!(display(&d, "Modules/[0]/LongStrings/Offsets/[3]").contains("last index, unused"));
    assert_eq!(
        display(&d, "Modules/[0]/Uast/Header/EntryCount"),
        "45 entries decoded"
    );
}

#[test]
fn location_groups_give_absolute_lines_and_name_their_uast_nodes() {
    for layout in [L::Writer, L::Spec] {
        let d = clean(&gen::shapes(layout, false).0);
        let g = "Modules/[0]/Locations/Groups";
        assert_eq!(value(&d, &format!("{g}/[0]/StartingLine")), Value::I(1));
        // Group 7 is `area` (lines 9-11); its 13th entry is the long-named identifier.
        let e = format!("{g}/[7]/Entries/[12]");
        assert_eq!(value(&d, &format!("{e}/FirstLine")), Value::I(10));
        assert_eq!(value(&d, &format!("{e}/LastLine")), Value::I(10));
        assert_eq!(value(&d, &format!("{e}/FirstColumn")), Value::U(20));
        assert!(
            display(&d, &e)
                .starts_with("Identifier \"origin_point_with_a_long_name\": lines 10-10"),
            "{}",
            display(&d, &e)
        );
        let first = format!("{g}/[7]/Entries/[0]");
        assert_eq!(value(&d, &format!("{first}/LastLine")), Value::I(11));
        assert_eq!(
            value(&d, &format!("{first}/Additional/[1]/Tag")),
            if layout == L::Spec {
                Value::U(6)
            } else {
                Value::I(6)
            }
        );
        assert!(display(&d, &format!("{first}/Additional/[1]")).starts_with("DeclHeader"));
        assert_eq!(node(&d, &format!("{first}/FirstLine")).kind, Kind::Derived);
        // A negative delta: `}` of Point (line 6) then `x` on line 3... no: groups
        // restart from their starting line; inside a group deltas may be negative.
        let g8 = format!("{g}/[8]/Entries/[6]/FirstLineDelta");
        assert_eq!(value(&d, &g8), Value::I(0));
    }
}

#[test]
fn the_generated_code_section_is_decoded_as_llvm_bitcode_in_either_byte_order() {
    for be in [false, true] {
        let d = clean(&gen::shapes(L::Writer, be).0);
        let ir_path = "Modules/[0]/GeneratedCode/LlvmIr";
        let ir = node(&d, ir_path);
        assert_eq!(ir.kind, Kind::Struct);
        assert_eq!(ir.span.len_bits() / 8, gen::BITCODE.len() as u64);
        assert!(ir
            .display
            .as_deref()
            .unwrap()
            .starts_with(&format!("LLVM bitcode, {} bytes: ", gen::BITCODE.len())));
        assert_eq!(
            value(&d, &format!("{ir_path}/Magic")),
            Value::Str("BC\\xC0\\xDE".into())
        );
        // The procedures' C names, as the symbol table has them, name the
        // functions in the bitcode's string table.
        let names: Vec<String> = d
            .tree
            .nodes()
            .iter()
            .filter(|n| {
                n.display
                    .as_deref()
                    .is_some_and(|s| s.starts_with("FUNCTION (8)"))
            })
            .map(|n| {
                let s = n.display.as_deref().unwrap();
                s[s.find(": \"").unwrap() + 3..s.len() - 1].to_string()
            })
            .collect();
        assert_eq!(
            names,
            ["Point_norm1_chpl", "area_chpl", "twice_chpl", "twice_chpl2"]
        );
        // Every byte of the bitcode is claimed by a decoded field.
        let ir_id = d.tree.find(ir_path).unwrap();
        let mut stack = vec![ir_id];
        while let Some(id) = stack.pop() {
            assert_ne!(d.tree.node(id).kind, Kind::Unknown, "{}", d.tree.path(id));
            stack.extend(&d.tree.node(id).children);
        }
    }
}

#[test]
fn the_2023_layout_reads_its_single_offsets_and_shows_its_uast_as_one_run() {
    let d = clean(&gen::shapes(L::Writer2023, false).0);
    assert!(d.tree.find("ModuleTable/[1]").is_none(), "no end offset");
    assert_eq!(
        value(&d, "Modules/[0]/SymbolTable/Header/EntryCount"),
        Value::U(9)
    );
    assert_eq!(
        value(&d, "Modules/[0]/SymbolTable/Entries/[0]/SymbolId"),
        s("Color")
    );
    assert!(display(&d, "Modules/[0]/Uast/Entries").contains("not verified"));
    assert_eq!(
        value(&d, "Modules/[0]/LongStrings/Strings/[1]"),
        s("origin_point_with_a_long_name")
    );
    assert_eq!(
        value(&d, "Modules/[0]/Locations/Groups/[3]/StartingLine"),
        Value::I(4)
    );
    assert!(
        display(&d, "Modules/[0]/SymbolTable/Entries/[0]/LocationOffset")
            .ends_with("location group [9]")
    );
}

#[test]
fn two_modules_are_decoded_from_the_module_table() {
    let d = clean(
        &gen::all()
            .into_iter()
            .find(|f| f.0 == "two_modules.dyno")
            .unwrap()
            .1,
    );
    assert_eq!(value(&d, "Modules/[1]/Header/ModuleSymbolId"), s("Util"));
    assert_eq!(
        value(
            &d,
            "Modules/[1]/SymbolTable/Entries/[1]/Generated/[0]/CName"
        ),
        s("helper_chpl")
    );
}

#[test]
fn unknown_tags_become_a_run_bounded_by_the_next_symbol_table_entry() {
    let f = gen::unknown_tag();
    let d = clean(&f);
    let root = "Modules/[0]/Uast/Entries";
    let use_ = format!("{root}/[0]/Children/[0]");
    assert_eq!(display(&d, &format!("{use_}/Tag")), "Use");
    let run = node(&d, &format!("{use_}/Undecoded"));
    assert_eq!(run.kind, Kind::Bytes);
    assert!(run
        .display
        .as_deref()
        .unwrap()
        .contains("where the symbol table says an entry begins"));
    // Decoding resumes at the record the symbol table points at.
    assert!(
        display(&d, &format!("{root}/[1]")).starts_with("Record \"Point\"; decoding resumed here")
    );
    assert_eq!(
        node(&d, &format!("{root}/[1]")).span.start_byte(),
        run.span.end_byte()
    );
    assert_eq!(
        value(&d, &format!("{root}/[2]/Name")),
        s("origin_point_with_a_long_name")
    );
}

#[test]
fn a_truncated_file_keeps_what_it_has_and_says_where_it_ends() {
    let d = decode_bytes(&gen::truncated());
    let errs = errors(&d);
    assert!(
        errs.iter().any(|e| e.starts_with("Header/Sha256")),
        "{errs:#?}"
    );
    assert!(errs.iter().any(|e| e.contains("end of file")), "{errs:#?}");
    assert_eq!(value(&d, "Modules/[0]/Header/ModuleSymbolId"), s("Shapes"));
}

#[test]
fn hostile_counts_are_reported_and_bounded() {
    let f = gen::hostile_counts();
    let d = decode_bytes(&f);
    assert!(d.tree.len() < 12 * f.len() + 4096);
    let errs = errors(&d);
    let has = |p: &str, m: &str| {
        assert!(
            errs.iter().any(|e| e.starts_with(p) && e.contains(m)),
            "no {p} error containing {m:?} in {errs:#?}"
        )
    };
    assert!(display(&d, "Header/Sha256").contains("matches"));
    has(
        "Modules/[0]/SymbolTable",
        "4294967295 entries need at least",
    );
    has(
        "Modules/[0]/LongStrings/Header/Count",
        "2147483648 offsets need",
    );
    has(
        "Modules/[0]/Locations/Groups/[0]/Entries/[0]/FirstColumn",
        "continuation bit",
    );
    let e = "Modules/[0]/Uast/Entries/[0]/Children/[5]/ChildCount";
    assert_eq!(value(&d, e), Value::U(1 << 63));

    let f = gen::hostile_module_count();
    let d = decode_bytes(&f);
    assert!(d.tree.len() < 12 * f.len() + 4096);
    let errs = errors(&d);
    assert!(
        errs.iter().any(|e| e.starts_with("ModuleTable/")),
        "{errs:#?}"
    );
}

#[test]
fn bad_offsets_are_errors_at_the_offsets() {
    let d = decode_bytes(&gen::bad_offsets());
    let errs = errors(&d);
    assert!(display(&d, "Header/Sha256").contains("matches"));
    assert!(
        error(&d, "Modules/[0]/Header/Locations").contains("past the module's end"),
        "{errs:#?}"
    );
    assert!(error(&d, "Modules/[0]/Header/GeneratedCode").contains("inside the module header"));
    assert!(error(&d, "Modules/[0]/SymbolTable/Entries/[2]/UastOffset")
        .contains("does not point at the start of a uAST entry"));
    assert!(
        error(&d, "Modules/[0]/SymbolTable/Entries/[3]/LocationOffset")
            .contains("outside the location section")
    );
    let lit = "Modules/[0]/Uast/Entries/[0]/Children/[2]/Children/[0]/Value/String";
    assert!(error(&d, lit).contains("long string index 9 is outside the usable range 1..2"));
    assert!(
        error(&d, "Modules/[0]/Locations/Groups/[1]/FilePathIndex").contains("file path index 5")
    );
    // The second module is intact.
    assert_eq!(value(&d, "Modules/[1]/Header/ModuleSymbolId"), s("Util"));
    assert!(!node(&d, "Modules/[1]").damaged);
}

// ----- decoding on demand --------------------------------------------------------

/// A module of about `symbols` symbols (like the benchmark's): every fourth
/// statement a record with three fields, the others constants initialised by
/// literals, every third of them with a name long enough for the long strings
/// table; a function whose body holds `body` statements (one location group of
/// as many entries).
fn dense(symbols: usize, body: usize) -> Vec<u8> {
    use gen::{ident, int_lit, loc, named, node, variable, F};
    let mut stmts = Vec::new();
    let (mut made, mut line, mut i) = (1, 2i64, 0usize);
    while made < symbols {
        if i.is_multiple_of(4) {
            let rec = format!("Rec{i}");
            let fields: Vec<gen::Node> = ["alpha", "beta", "gamma"]
                .iter()
                .enumerate()
                .map(|(k, f)| {
                    let l = line + 1 + k as i64;
                    variable(
                        f,
                        4,
                        0,
                        -1,
                        true,
                        ident("int", loc(l, 12, l, 14)),
                        loc(l, 5, l, 15),
                    )
                    .sym(&format!("{rec}.{f}"))
                })
                .collect();
            let mut f = named(&rec);
            f.extend([F::Vi(-1), F::Vi(0), F::Vi(0), F::Vi(3)]);
            stmts.push(
                node(gen::T_RECORD, f, fields, loc(line, 3, line + 4, 3))
                    .sym(&rec)
                    .gen(false, &format!("{rec}_chpl")),
            );
            made += 4;
            line += 5;
        } else {
            let name = if i.is_multiple_of(3) {
                format!("configuration_constant_number_{i}")
            } else {
                format!("c{i}")
            };
            let end = 9 + name.len() as u64;
            stmts.push(
                variable(
                    &name,
                    5,
                    -1,
                    0,
                    false,
                    int_lit(i as i64, loc(line, end + 3, line, end + 8)),
                    loc(line, 3, line, end + 9).with(2, line, 9, line, end),
                )
                .sym(&name),
            );
            made += 1;
            line += 1;
        }
        i += 1;
    }
    // A function with a long body: one group of many location entries.
    let body: Vec<gen::Node> = (0..body)
        .map(|k| ident("x", loc(line + 1 + k as i64, 5, line + 1 + k as i64, 6)))
        .collect();
    let mut f = named("run");
    f.extend([
        F::U8(0),
        F::U8(0),
        F::U8(0),
        F::U8(1),
        F::U8(0),
        F::U8(0),
        F::U8(0),
    ]);
    f.extend([
        F::Vi(-1),
        F::Vi(-1),
        F::Vi(0),
        F::Vi(-1),
        F::Vi(-1),
        F::Vi(-1),
        F::Vi(0),
        F::Vi(0),
    ]);
    let block = node(
        gen::T_BLOCK,
        vec![F::U8(0), F::Vi(0), F::Vi(body.len() as i64)],
        body,
        loc(line, 10, line + 2 + 1000, 1),
    );
    stmts.push(
        node(
            gen::T_FUNCTION,
            f,
            vec![block],
            loc(line, 1, line + 2 + 1000, 1),
        )
        .sym("run"),
    );
    let mut f = named("Big");
    f.push(F::U8(0));
    let module = node(gen::T_MODULE, f, stmts, loc(1, 1, line + 3000, 1)).sym("");
    gen::file(&[(module, "big.chpl")], L::Writer, false).0
}

#[test]
fn a_dense_file_opens_with_its_modules_sections_and_long_lists_left_for_later() {
    let data = dense(8_000, 2_500);
    let eager = clean(&data);
    assert!(eager.tree.len() > 300_000, "{} nodes", eager.tree.len());
    let mut d = hexlens_core::decode_with(&data, &hexlens_core::stream::streaming_options());
    assert!(
        d.tree.len() < 40,
        "{} nodes right after decode",
        d.tree.len()
    );
    let lazy = |d: &Decoded| {
        (0..d.tree.len() as u32)
            .filter(|&i| d.tree.node(i).lazy)
            .count()
    };
    assert!(
        lazy(&d) >= 2,
        "the module and the hash check are left for later"
    );
    // The module shows its sections, not decoded yet.
    let m = d.tree.find("Modules/[0]").unwrap();
    assert!(d.tree.node(m).lazy);
    hexlens_core::expand(&data.as_slice(), &mut d.tree, m).unwrap();
    for s in [
        "Uast",
        "LongStrings",
        "Locations",
        "SymbolTable",
        "GeneratedCode",
    ] {
        let id = d.tree.find(&format!("Modules/[0]/{s}")).unwrap();
        assert!(d.tree.node(id).lazy, "{s}");
    }
    // Each long list is a list of pages, each decoded when opened.
    for (s, list, entries) in [
        ("SymbolTable", "Entries", 8_001),
        ("Uast", "Entries/[0]/Children", 4_500),
        ("Locations", "Groups", 8_001),
        ("LongStrings", "Offsets", 1_100),
    ] {
        let id = d.tree.find(&format!("Modules/[0]/{s}")).unwrap();
        let before = d.tree.len();
        hexlens_core::expand(&data.as_slice(), &mut d.tree, id).unwrap();
        assert!(
            d.tree.len() - before < 1_000,
            "{s}: {}",
            d.tree.len() - before
        );
        let l = d.tree.find(&format!("Modules/[0]/{s}/{list}")).unwrap();
        let pages = &d.tree.node(l).children;
        assert!(pages.len() > 1, "{s}/{list}");
        assert!(pages
            .iter()
            .all(|&p| d.tree.node(p).page && d.tree.node(p).lazy));
        assert!(
            hexlens_core::stream::child_count(&d.tree, l) >= entries,
            "{s}/{list}: {}",
            hexlens_core::stream::child_count(&d.tree, l)
        );
        assert_eq!(d.tree.node(pages[0]).name.to_string(), "[0…999]");
    }
    // The function's body: one location group holding more entries than a page.
    let groups = eager.tree.find("Modules/[0]/Locations/Groups").unwrap();
    let group = *eager.tree.node(groups).children.last().unwrap();
    let shown = eager.tree.display(group).unwrap();
    assert!(shown.ends_with(": 2502 entries"), "{shown}");

    // Opened one node at a time, the tree is the eager one.
    let mut d = hexlens_core::decode_with(&data, &hexlens_core::stream::streaming_options());
    assert!(expand_all(&data, &mut d, false).unwrap() > 20);
    assert!(
        hexlens_core::output::to_json(&d) == hexlens_core::output::to_json(&eager),
        "the expanded tree differs from the eager one"
    );
}

#[test]
fn pages_of_a_few_entries_expand_to_the_eager_tree_in_every_layout() {
    let mut files: Vec<(String, Vec<u8>)> = gen::all()
        .into_iter()
        .map(|(n, b)| (n.to_string(), b))
        .collect();
    files.push(("dense".into(), dense(300, 40)));
    for (name, data) in &files {
        let eager = hexlens_core::output::to_json(&decode_bytes(data));
        for page in [1, 2, 7] {
            let opts = hexlens_core::Options {
                lazy_threshold: Some(0),
                page_size: Some(page),
                exact_totals: true,
                scan: false,
                skip_digests: false,
            };
            let mut d = hexlens_core::decode_with(&data.as_slice(), &opts);
            expand_all(data, &mut d, false).unwrap();
            assert!(
                hexlens_core::output::to_json(&d) == eager,
                "{name}, pages of {page}: the expanded tree differs from the eager one"
            );
        }
    }
}

#[test]
fn a_viewer_reads_the_module_children_as_they_are_shown_and_ends_with_the_eager_tree() {
    let data = dense(80_000, 100);
    let eager = clean(&data);
    let list = "Modules/[0]/Uast/Entries/[0]/Children";
    let children = eager.tree.find(list).unwrap();
    let n = hexlens_core::stream::child_count(&eager.tree, children);
    assert!(n > 40_000, "{n} children");
    let view = hexlens_core::view::viewer_options();
    let open = |path: &str| {
        let mut d = hexlens_core::decode_with(&data.as_slice(), &view);
        let id = hexlens_core::stream::select(&data.as_slice(), &mut d.tree, path).unwrap();
        (d, id)
    };

    // Opening the section skims a budget's worth of the module's children: a
    // few pages, and one page for the rest, reaching to the section's end.
    let (mut d, uast) = open("Modules/[0]/Uast");
    let before = d.tree.len();
    hexlens_core::expand(&data.as_slice(), &mut d.tree, uast).ok();
    assert!(
        d.tree.len() - before < 200,
        "{} nodes",
        d.tree.len() - before
    );
    let l = d.tree.find(list).unwrap();
    let pages = d.tree.node(l).children.clone();
    assert!(pages.len() >= 3, "{} pages", pages.len());
    assert!(pages
        .iter()
        .all(|&p| d.tree.node(p).page && d.tree.node(p).lazy));
    let tail = d.tree.node(*pages.last().unwrap());
    let (a, b) = tail
        .name
        .to_string()
        .trim_matches(['[', ']'])
        .split_once('…')
        .map(|(a, b)| (a.parse::<u64>().unwrap(), b.parse::<u64>().unwrap()))
        .unwrap();
    assert_eq!(b, n as u64 - 1);
    assert!(a > 1_000 && a < n as u64 / 2, "the first pages end at {a}");
    assert_eq!(a % 1_000, 0, "pages are whole");
    let section = d.tree.node(uast).span;
    assert_eq!(
        tail.span.end, section.end,
        "the rest reaches the section's end"
    );
    let count = d.tree.find("Modules/[0]/Uast/Header/EntryCount").unwrap();
    let shown = d.tree.display(count).unwrap().into_owned();
    assert!(shown.contains("read as they are shown"), "{shown}");

    // Opening that page reads twice the budget and leaves the rest to another.
    let before = d.tree.len();
    hexlens_core::expand(&data.as_slice(), &mut d.tree, *pages.last().unwrap()).unwrap();
    assert!(
        d.tree.len() - before < 200,
        "{} nodes",
        d.tree.len() - before
    );
    let inner = &d.tree.node(*pages.last().unwrap()).children;
    let last = d.tree.node(*inner.last().unwrap());
    assert!(last.page && last.lazy && last.name.to_string().ends_with(&format!("…{}]", n - 1)));
    assert_eq!(last.span.end, section.end);

    // A child far down is found by its path, where the eager decode has it.
    let far = format!("{list}/[{}]", n - 7);
    let (d2, id) = open(&far);
    let want = eager.tree.find(&far).unwrap();
    assert_eq!(d2.tree.node(id).span, eager.tree.node(want).span);
    assert_eq!(d2.tree.display(id), eager.tree.display(want));

    // Opened one node at a time, the tree is the eager one up to the generated
    // code (whose bitcode summary a viewer leaves provisional); only the entry
    // count's display differs (a viewer does not count the entries).
    let (mut d, _) = open("");
    expand_all(&data, &mut d, false).unwrap();
    let count = eager
        .tree
        .find("Modules/[0]/Uast/Header/EntryCount")
        .unwrap();
    let got =
        hexlens_core::output::to_json(&d).replace(&shown, &eager.tree.display(count).unwrap());
    let want = hexlens_core::output::to_json(&eager);
    let upto = |s: &str| s[..s.find("\"name\":\"GeneratedCode\"").unwrap()].to_string();
    lazy::assert_same("viewer, expanded", &upto(&got), &upto(&want));
}
