//! cDAC data-descriptor fixtures: every compiled target decodes to exactly what the
//! hexlens C descriptor (`crates/testkit/src/generators/cdac/hexlens_descriptor.h`) declares, and
//! the damaged variants (`crates/testkit/src/generators/cdac.rs`) carry errors where the damage is.
//!
//! The expected names and values below mirror the C source; a test reads the C
//! header back and fails if the two disagree. Field offsets and sizes depend on the
//! target's pointer size and `uint64_t` alignment, computed by [`Abi`].

use hexlens_core::{decode_bytes, Decoded, Kind, Value};
use hexlens_testkit::{generators::cdac as gen, lazy, lookup};
use lookup::{error, node, s, value};

// ----- what the C source declares ------------------------------------------------------

const BASELINE: &str = "hexlens/test-baseline";

/// A field: (name, type name, C member).
type FieldDecl = (&'static str, &'static str, &'static str);
/// A type declared in the C source, as read back from it: (name, fields).
type DeclaredType = (String, Vec<(String, String, String)>);

/// (type, size rule, fields)
const TYPES: &[(&str, Size, &[FieldDecl])] = &[
    (
        "Lens",
        Size::Lens,
        &[
            ("Id", "uint32", "id"),
            ("Zoom", "uint16", "zoom"),
            ("Flags", "uint8", "flags"),
            ("Focus", "uint64", "focus"),
            ("Next", "pointer", "next"),
            ("Label", "pointer", "label"),
        ],
    ),
    (
        "Shelf",
        Size::Indeterminate,
        &[
            ("First", "pointer", "first"),
            ("Count", "uint32", "count"),
            ("Capacity", "", "capacity"),
        ],
    ),
    ("Handle", Size::Pointer, &[]),
    (
        "Catalog",
        Size::Catalog,
        &[("Generation", "uint32", "generation")],
    ),
];

/// (name, type name, value, value as written in the C source)
const LITERALS: &[(&str, &str, u64, &str)] = &[
    ("LensCount", "uint32", 4, "4"),
    ("MaxZoom", "uint16", 1024, "1024"),
    (
        "Signature",
        "uint64",
        0xFEED_FACE_CAFE_BEEF,
        "0xFEEDFACECAFEBEEFull",
    ),
    ("ColorEnabled", "uint8", 1, "1"),
    ("Bias", "int64", 0xFFFF_FFFF_FFFF_FFFE, "(uint64_t)-2"),
];

/// Global pointers, in order: their PointerDataIndex is their position + 1.
const POINTERS: &[&str] = &["LensTable", "MainShelf", "ActiveCatalog"];

#[derive(Clone, Copy, Debug)]
enum Size {
    Lens,
    Indeterminate,
    Pointer,
    Catalog,
}

/// The parts of a C ABI the fixture's structures depend on.
#[derive(Clone, Copy, Debug)]
struct Abi {
    pointer: u64,
    /// Alignment of `uint64_t` inside a struct (4 on i386 System V, 8 elsewhere).
    u64_align: u64,
}

fn align(v: u64, a: u64) -> u64 {
    v.div_ceil(a) * a
}

impl Abi {
    fn shelf_size(self) -> u64 {
        align(self.pointer + 8, self.pointer)
    }

    /// Offset of a C member, following the struct definitions in the header.
    fn offset(self, ty: &str, member: &str) -> u64 {
        let p = self.pointer;
        match (ty, member) {
            ("Lens", "id") => 0,
            ("Lens", "zoom") => 4,
            ("Lens", "flags") => 6,
            ("Lens", "focus") => 8,
            ("Lens", "next") => 16,
            ("Lens", "label") => 16 + p,
            ("Shelf", "first") => 0,
            ("Shelf", "count") => p,
            ("Shelf", "capacity") => p + 4,
            ("Catalog", "generation") => 3 * self.shelf_size(),
            _ => panic!("no member {ty}.{member}"),
        }
    }

    fn size(self, s: Size) -> u64 {
        match s {
            Size::Lens => align(16 + 2 * self.pointer, self.u64_align.max(self.pointer)),
            Size::Indeterminate => 0,
            Size::Pointer => self.pointer,
            Size::Catalog => align(3 * self.shelf_size() + 4, self.pointer),
        }
    }
}

/// One compiled fixture and what it should decode to.
struct Target {
    file: &'static str,
    abi: Abi,
    big_endian: bool,
    /// Runtime layout (u64 magic, PlatformFlags, extra NUL) or the sample's.
    runtime_layout: bool,
    /// The object format and the section that holds the blob, or `None` for a
    /// standalone blob.
    object: Option<(&'static str, &'static str, &'static str)>,
}

const LP64: Abi = Abi {
    pointer: 8,
    u64_align: 8,
};

const TARGETS: &[Target] = &[
    Target {
        file: "x86_64-linux.o",
        abi: LP64,
        big_endian: false,
        runtime_layout: true,
        object: Some(("Elf", "X86_64", ".rodata")),
    },
    Target {
        file: "x86_64-linux-sample-layout.o",
        abi: LP64,
        big_endian: false,
        runtime_layout: false,
        object: Some(("Elf", "X86_64", ".rodata")),
    },
    Target {
        file: "s390x-linux.o",
        abi: LP64,
        big_endian: true,
        runtime_layout: true,
        object: Some(("Elf", "S390x", ".rodata")),
    },
    Target {
        file: "powerpc64-linux-sample-layout.o",
        abi: LP64,
        big_endian: true,
        runtime_layout: false,
        object: Some(("Elf", "PowerPc64", ".rodata")),
    },
    Target {
        file: "i386-linux.o",
        abi: Abi {
            pointer: 4,
            u64_align: 4,
        },
        big_endian: false,
        runtime_layout: true,
        object: Some(("Elf", "I386", ".rodata")),
    },
    Target {
        file: "x86_64-windows.obj",
        abi: LP64,
        big_endian: false,
        runtime_layout: true,
        object: Some(("Coff", "X86_64", ".rdata")),
    },
    Target {
        file: "x86_64-windows.dll",
        abi: LP64,
        big_endian: false,
        runtime_layout: true,
        object: Some(("Pe", "X86_64", ".rdata")),
    },
    Target {
        file: "x86_64-macos.o",
        abi: LP64,
        big_endian: false,
        runtime_layout: true,
        object: Some(("MachO", "X86_64", "__const")),
    },
    Target {
        file: "wasm32.o",
        abi: Abi {
            pointer: 4,
            u64_align: 8,
        },
        big_endian: false,
        runtime_layout: true,
        object: Some(("Wasm", "", "<data>")),
    },
    Target {
        file: "x86_64-blob.bin",
        abi: LP64,
        big_endian: false,
        runtime_layout: true,
        object: None,
    },
    Target {
        file: "s390x-blob.bin",
        abi: LP64,
        big_endian: true,
        runtime_layout: true,
        object: None,
    },
];

// ----- helpers ------------------------------------------------------------------------

/// Paths of every `Blobs/[i]` node, in tree order.
fn blob_paths(d: &Decoded) -> Vec<String> {
    d.tree
        .nodes()
        .iter()
        .enumerate()
        .filter(|(_, n)| {
            n.name.to_string().starts_with('[')
                && n.parent
                    .is_some_and(|p| d.tree.node(p).name.to_string() == "Blobs")
        })
        .map(|(i, _)| d.tree.path(i as u32))
        .collect()
}

fn text(d: &Decoded) -> String {
    hexlens_core::output::to_text(d)
}

// ----- tests --------------------------------------------------------------------------

#[test]
fn checked_in_damaged_fixtures_match_the_generator() {
    let dir = gen::dir();
    lookup::check_fixtures_current(&dir, gen::all());
    for name in gen::COMPILED {
        assert!(
            dir.join(name).is_file(),
            "{name} is missing: run crates/testkit/src/generators/cdac/build.sh"
        );
    }
}

/// The Rust tables above mirror `hexlens_descriptor.h`: read the header's
/// `DESCRIBE_RUNTIME` entries back and compare.
#[test]
fn the_expected_tables_mirror_the_c_descriptor() {
    let h = std::fs::read_to_string(gen::source_dir().join("hexlens_descriptor.h")).unwrap();
    let body = h
        .split("#define DESCRIBE_RUNTIME")
        .nth(1)
        .expect("DESCRIBE_RUNTIME in the header");
    let mut types: Vec<DeclaredType> = Vec::new();
    let mut literals = Vec::new();
    let mut pointers = Vec::new();
    let mut baseline = None;
    for line in body.lines().skip(1) {
        let line = line.trim().trim_end_matches('\\').trim();
        if line.is_empty() || line.starts_with('#') {
            break;
        }
        let (mac, rest) = line.split_once('(').unwrap();
        let args: Vec<String> = rest
            .strip_suffix(')')
            .unwrap()
            .splitn(4, ',')
            .map(|a| a.trim().to_string())
            .collect();
        match mac {
            "BASELINE" => baseline = Some(args[0].trim_matches('"').to_string()),
            "TYPE" => types.push((args[0].clone(), Vec::new())),
            "FIELD" => {
                let member = args[3]
                    .trim_end_matches(')')
                    .rsplit(',')
                    .next()
                    .unwrap()
                    .trim()
                    .to_string();
                assert_eq!(types.last().unwrap().0, args[0]);
                types
                    .last_mut()
                    .unwrap()
                    .1
                    .push((args[2].clone(), args[1].clone(), member));
            }
            "LITERAL" => literals.push((args[0].clone(), args[1].clone(), args[2].clone())),
            "POINTER" => pointers.push(args[0].clone()),
            "SIZE" | "END" => {}
            other => panic!("unexpected entry {other}"),
        }
    }
    assert_eq!(baseline.as_deref(), Some(BASELINE));
    let want_types: Vec<DeclaredType> = TYPES
        .iter()
        .map(|(t, _, f)| {
            (
                t.to_string(),
                f.iter()
                    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
                    .collect(),
            )
        })
        .collect();
    assert_eq!(types, want_types);
    let want_literals: Vec<(String, String, String)> = LITERALS
        .iter()
        .map(|(n, t, _, src)| (n.to_string(), t.to_string(), src.to_string()))
        .collect();
    assert_eq!(literals, want_literals);
    assert_eq!(pointers, POINTERS);
}

#[test]
fn every_compiled_target_decodes_to_what_the_c_source_declares() {
    for t in TARGETS {
        let bytes = gen::compiled(t.file);
        let d = decode_bytes(&bytes);
        let ctx = format!("{}:\n{}", t.file, text(&d));
        assert_eq!(d.format, "cdac", "{ctx}");
        assert!(d.is_clean(), "{ctx}");
        let paths = blob_paths(&d);
        assert_eq!(paths.len(), 1, "{ctx}");
        let p = &paths[0];
        match t.object {
            Some((format, arch, section)) => {
                assert_eq!(value(&d, "ObjectFile/Format"), s(format), "{}", t.file);
                if !arch.is_empty() {
                    assert_eq!(value(&d, "ObjectFile/Architecture"), s(arch), "{}", t.file);
                }
                let endian = if t.big_endian { "Big" } else { "Little" };
                assert_eq!(value(&d, "ObjectFile/Endianness"), s(endian), "{}", t.file);
                // The blob sits inside the section that holds it.
                let sec = p.strip_suffix("/Blobs/[0]").expect("blob inside a section");
                assert!(sec.starts_with("ObjectFile/Sections/["), "{p}");
                assert_eq!(value(&d, &format!("{sec}/Name")), s(section), "{}", t.file);
                let sn = node(&d, sec);
                assert!(sn.span.contains(&node(&d, p).span), "{}", t.file);
                assert_eq!(sn.kind, Kind::Struct);
            }
            None => assert_eq!(p, "Blobs/[0]"),
        }
        check_blob(&d, p, t);
    }
}

fn check_blob(d: &Decoded, p: &str, t: &Target) {
    let f = t.file;
    let v = |rel: &str| value(d, &format!("{p}/{rel}"));
    let order = if t.big_endian { "big" } else { "little" };
    assert_eq!(v("ByteOrder"), s(order), "{f}");
    assert_eq!(
        v("Magic"),
        Value::U(if t.runtime_layout || !t.big_endian {
            0x0042_4F4C_4243_4144
        } else {
            // "DACBLOB\0" written as a string, read big-endian.
            0x4441_4342_4C4F_4200
        }),
        "{f}"
    );
    let layout = if t.runtime_layout {
        "runtime"
    } else {
        "sample"
    };
    assert_eq!(v("Layout"), s(layout), "{f}");
    if t.runtime_layout {
        let flags = 1 | if t.abi.pointer == 4 { 2 } else { 0 };
        assert_eq!(v("PlatformFlags"), Value::U(flags), "{f}");
        assert_eq!(v("PointerSize"), Value::U(t.abi.pointer), "{f}");
        assert_eq!(v("Directory/FlagsAndBaselineStart"), Value::U(48), "{f}");
        assert_eq!(v("Directory/TypesStart"), Value::U(56), "{f}");
    } else {
        assert!(d.tree.find(&format!("{p}/PlatformFlags")).is_none(), "{f}");
        assert_eq!(v("Directory/BaselineStart"), Value::U(48), "{f}");
        assert_eq!(v("Directory/TypesStart"), Value::U(52), "{f}");
    }
    assert_eq!(v("BaselineName"), s(BASELINE), "{f}");

    // Types and their field runs.
    let field_entries: usize = TYPES.iter().map(|(_, _, fs)| fs.len() + 1).sum::<usize>() + 1;
    assert_eq!(
        v("Directory/TypeCount"),
        Value::U(TYPES.len() as u64),
        "{f}"
    );
    assert_eq!(
        v("Directory/FieldPoolCount"),
        Value::U(field_entries as u64),
        "{f}"
    );
    let mut pool_index = 1u64;
    for (i, (name, size, fields)) in TYPES.iter().enumerate() {
        let tp = format!("Types/[{i}]");
        assert_eq!(v(&format!("{tp}/Name")), s(name), "{f} {tp}");
        assert_eq!(
            v(&format!("{tp}/Size")),
            Value::U(t.abi.size(*size)),
            "{f} {tp}"
        );
        assert_eq!(v(&format!("{tp}/Fields")), Value::U(pool_index), "{f} {tp}");
        let run = node(d, &format!("{p}/{tp}/FieldRun"));
        assert_eq!(run.children.len(), fields.len(), "{f} {tp}");
        for (k, (field, ty, member)) in fields.iter().enumerate() {
            let off = t.abi.offset(name, member);
            let r = format!("{tp}/FieldRun/[{k}]");
            assert_eq!(v(&r), s(field), "{f} {r}");
            assert_eq!(v(&format!("{r}/TypeName")), s(ty), "{f} {r}");
            assert_eq!(v(&format!("{r}/FieldOffset")), Value::U(off), "{f} {r}");
            // The same, read from the field pool itself.
            let e = format!("FieldPool/[{}]", pool_index + k as u64);
            assert_eq!(v(&format!("{e}/Name")), s(field), "{f} {e}");
            assert_eq!(v(&format!("{e}/FieldOffset")), Value::U(off), "{f} {e}");
            if ty.is_empty() {
                // An empty type name is a real (empty) string, not offset 0.
                assert_eq!(v(&format!("{e}/TypeName")), s(""), "{f} {e}");
                assert_eq!(node(d, &format!("{p}/{e}/TypeName")).kind, Kind::StrRef);
            } else {
                assert_eq!(v(&format!("{e}/TypeName")), s(ty), "{f} {e}");
            }
        }
        let end = format!("FieldPool/[{}]/Name", pool_index + fields.len() as u64);
        assert_eq!(v(&end), Value::U(0), "{f} {end}");
        pool_index += fields.len() as u64 + 1;
    }

    // Globals.
    for (i, (name, ty, val, _)) in LITERALS.iter().enumerate() {
        let g = format!("GlobalLiteralValues/[{i}]");
        assert_eq!(v(&format!("{g}/Name")), s(name), "{f} {g}");
        assert_eq!(v(&format!("{g}/TypeName")), s(ty), "{f} {g}");
        assert_eq!(v(&format!("{g}/Value")), Value::U(*val), "{f} {g}");
    }
    assert!(node(d, &format!("{p}/GlobalLiteralValues/[4]/Value"))
        .display
        .as_deref()
        .unwrap()
        .contains("-2 as int64"));
    for (i, name) in POINTERS.iter().enumerate() {
        let g = format!("GlobalPointerValues/[{i}]");
        assert_eq!(v(&format!("{g}/Name")), s(name), "{f} {g}");
        assert_eq!(
            v(&format!("{g}/PointerDataIndex")),
            Value::U(i as u64 + 1),
            "{f} {g}"
        );
    }

    // The names pool: the reserved empty name first, every name once, and (in the
    // runtime layout) the extra trailing NUL.
    let mut names: Vec<&str> = vec!["", BASELINE];
    for (name, _, fields) in TYPES {
        names.push(name);
        for (field, ty, _) in *fields {
            names.push(field);
            names.push(ty);
        }
    }
    for (name, ty, _, _) in LITERALS {
        names.push(name);
        names.push(ty);
    }
    names.extend_from_slice(POINTERS);
    let bytes: usize = names.iter().map(|n| n.len() + 1).sum::<usize>() + t.runtime_layout as usize;
    assert_eq!(v("Directory/NamesPoolCount"), Value::U(bytes as u64), "{f}");
    for (i, n) in names.iter().enumerate() {
        assert_eq!(v(&format!("NamesPool/[{i}]")), s(n), "{f} NamesPool/[{i}]");
    }
    assert_eq!(
        d.tree.find(&format!("{p}/NamesPool/TrailingNul")).is_some(),
        t.runtime_layout,
        "{f}"
    );
    let end = node(d, &format!("{p}/EndMagic"));
    assert_eq!(end.kind, Kind::Bytes);
    assert!(end.error.is_none());
    assert_eq!(end.span.len_bits(), 32);
}

#[test]
fn sections_without_file_bytes_are_empty_derived_nodes() {
    let d = decode_bytes(&gen::compiled("x86_64-linux.o"));
    let secs = node(&d, "ObjectFile/Sections");
    let bss = secs
        .children
        .iter()
        .map(|&c| d.tree.node(c))
        .find(|n| {
            n.children.iter().any(|&c| {
                d.tree.node(c).name.to_string() == "Name" && d.tree.node(c).value == Some(s(".bss"))
            })
        })
        .expect(".bss listed");
    assert_eq!(bss.kind, Kind::Derived);
    assert!(bss.span.is_empty());
    // Every region section covers exactly its file bytes.
    let header = node(&d, "ObjectFile/ElfHeader");
    assert_eq!((header.span.start_byte(), header.span.end_byte()), (0, 64));
    for &c in &secs.children {
        let n = d.tree.node(c);
        if n.kind == Kind::Struct {
            let path = d.tree.path(c);
            let Value::U(off) = value(&d, &format!("{path}/FileRange")) else {
                panic!()
            };
            let Value::U(size) = value(&d, &format!("{path}/Size")) else {
                panic!()
            };
            assert_eq!(
                (n.span.start_byte(), n.span.end_byte()),
                (off, off + size),
                "{path}"
            );
        }
    }
}

#[test]
fn a_big_endian_blob_whose_magic_is_a_string_is_read_big_endian() {
    let d = decode_bytes(&gen::compiled("powerpc64-linux-sample-layout.o"));
    let p = &blob_paths(&d)[0];
    let bo = node(&d, &format!("{p}/ByteOrder"));
    assert!(bo
        .display
        .as_deref()
        .unwrap()
        .contains("11 of 11 plausible; little-endian: 0 of 11"));
    assert!(node(&d, &format!("{p}/Magic"))
        .display
        .as_deref()
        .unwrap()
        .contains("written as a string"));
}

#[test]
fn two_blobs_in_one_file_are_both_decoded_each_in_its_own_byte_order() {
    let d = decode_bytes(&gen::two_blobs());
    assert!(d.is_clean(), "{}", text(&d));
    assert_eq!(blob_paths(&d), ["Blobs/[0]", "Blobs/[1]"]);
    assert_eq!(value(&d, "Blobs/[0]/ByteOrder"), s("little"));
    assert_eq!(value(&d, "Blobs/[1]/ByteOrder"), s("big"));
    assert_eq!(value(&d, "Blobs/[1]/Types/[3]/Name"), s("Catalog"));
    assert_eq!(node(&d, "Blobs/[1]").span.start_byte(), 696 + 16);
    assert_eq!(node(&d, "Blobs/unknown").span.len_bits(), 16 * 8);
}

#[test]
fn a_truncated_blob_keeps_what_is_there_and_says_where_it_stops() {
    let d = decode_bytes(&gen::truncated_blob());
    assert_eq!(d.format, "cdac");
    let b = "Blobs/[0]";
    assert!(error(&d, b)
        .contains("the directory places blob contents up to 0x2B8, but the file ends at 0xA5"));
    assert_eq!(
        value(&d, &format!("{b}/Directory/NamesPoolCount")),
        Value::U(292)
    );
    assert_eq!(value(&d, &format!("{b}/Types/[3]/Size")), Value::U(56));
    assert_eq!(
        value(&d, &format!("{b}/FieldPool/[3]/FieldOffset")),
        Value::U(6)
    );
    assert!(error(&d, &format!("{b}/FieldPool")).contains("expected 180 bytes at 0x70 (to 0x124)"));
    let e = error(&d, &format!("{b}/FieldPool/[4]/TypeName"));
    assert!(
        e.contains("expected a 4-byte integer at 0xA4, found only 1 byte"),
        "{e}"
    );
    // The names pool is gone: names keep their raw offsets and say why.
    let e = error(&d, &format!("{b}/Types/[0]/Name"));
    assert!(e.contains("offset 0x17 does not resolve"), "{e}");
    assert_eq!(value(&d, &format!("{b}/Types/[0]/Name")), Value::U(0x17));
    let e = error(&d, &format!("{b}/Types/[1]/Fields"));
    assert!(
        e.contains("outside the blob's bytes (only 4 entries are there)"),
        "{e}"
    );
}

#[test]
fn offsets_past_the_end_inside_the_directory_or_into_another_table_are_errors() {
    let d = decode_bytes(&gen::bad_offsets_blob());
    let b = "Blobs/[0]";
    assert!(error(&d, &format!("{b}/Directory/TypesStart")).contains("past the end of the file"));
    assert!(error(&d, &format!("{b}/Directory/NamesStart"))
        .contains("points inside the 48-byte directory"));
    assert!(error(&d, &format!("{b}/NamesPool")).contains("overlaps Directory"));
    assert!(error(&d, &format!("{b}/GlobalPointerValues")).contains("overlaps GlobalLiteralValues"));
    assert!(error(&d, &format!("{b}/Types")).contains("expected 48 bytes at 0x7FFF0008"));
    // The tables whose offsets are good still decode.
    assert_eq!(
        value(&d, &format!("{b}/GlobalLiteralValues/[2]/Value")),
        Value::U(0xFEED_FACE_CAFE_BEEF)
    );
    assert_eq!(
        value(&d, &format!("{b}/FieldPool/[1]/FieldOffset")),
        Value::U(0)
    );
}

#[test]
fn a_wrong_end_magic_is_reported_with_the_bytes_found() {
    let d = decode_bytes(&gen::wrong_end_magic_blob());
    let e = error(&d, "Blobs/[0]/EndMagic");
    assert!(e.contains("expected the end magic 01 02 03 04 right after the names pool, at 0x2B4; found 01 02 03 05"), "{e}");
    assert_eq!(d.tree.errors().len(), 1);
}

#[test]
fn counts_of_0xffffffff_are_reported_without_reading_past_the_blob() {
    let bytes = gen::hostile_counts_blob();
    let start = std::time::Instant::now();
    let d = decode_bytes(&bytes);
    assert!(start.elapsed().as_secs() < 5);
    let b = "Blobs/[0]";
    let e = error(&d, &format!("{b}/Directory/TypeCount"));
    assert!(e.contains("TypeCount 4294967295 × TypeSpecSize 12 needs 51539607540 bytes from 0x40, but the file ends at 0x2B8"), "{e}");
    assert!(error(&d, &format!("{b}/Directory/NamesPoolCount"))
        .contains("NamesPoolCount 4294967295 needs"));
    // Only what fits was read; the node count stays proportional to the file.
    assert!(d.tree.len() < 2000, "{}", d.tree.len());
    assert_eq!(value(&d, &format!("{b}/Types/[0]/Name")), s("Lens"));
}

#[test]
fn bad_names_runs_and_pools_are_errors_on_the_entries_that_hold_them() {
    let d = decode_bytes(&gen::bad_names_blob());
    let b = "Blobs/[0]";
    let e = error(&d, &format!("{b}/Types/[0]/Name"));
    assert!(e.contains("offset 0x7000 does not resolve"), "{e}");
    let e = error(&d, &format!("{b}/Types/[1]/Fields"));
    assert!(
        e.contains("field run index 200 is past the end of the field pool (15 entries)"),
        "{e}"
    );
    let e = error(&d, &format!("{b}/Types/[3]/Fields"));
    assert!(
        e.contains("starts at FieldPool/[2], inside the run of Types/[0]"),
        "{e}"
    );
    let e = error(&d, &format!("{b}/GlobalLiteralValues/[1]/Name"));
    assert!(e.contains("reserved empty name"), "{e}");
    let e = error(&d, &format!("{b}/NamesPool/[0]"));
    assert!(e.contains("must start with the reserved empty name"), "{e}");
    // "X" joined the reserved name and the baseline: one entry fewer.
    let e = error(&d, &format!("{b}/NamesPool/[37]"));
    assert!(e.contains("without a terminator"), "{e}");
    // The rest is still decoded.
    assert_eq!(value(&d, &format!("{b}/Types/[2]/Name")), s("Handle"));
    assert_eq!(
        value(&d, &format!("{b}/GlobalPointerValues/[1]/Name")),
        s("MainShelf")
    );
    assert!(
        error(&d, &format!("{b}/GlobalPointerValues/[2]/Name")).contains("has no NUL terminator")
    );
}

#[test]
fn spec_sizes_smaller_than_the_records_leave_their_tables_raw() {
    let d = decode_bytes(&gen::small_spec_sizes_blob());
    let b = "Blobs/[0]";
    assert!(error(&d, &format!("{b}/Directory/FieldSpecSize"))
        .contains("FieldSpecSize 4 is smaller than the 10 bytes"));
    assert!(error(&d, &format!("{b}/Directory/TypeSpecSize")).contains("TypeSpecSize 0 is smaller"));
    // With FieldSpecSize 4 the pool is 60 bytes long: shown raw, with why.
    let raw = node(&d, &format!("{b}/FieldPool/Bytes"));
    assert_eq!(raw.span.len_bits(), 60 * 8);
    assert!(raw
        .display
        .as_deref()
        .unwrap()
        .contains("15 entries not decoded"));
    assert_eq!(
        value(&d, &format!("{b}/GlobalLiteralValues/[0]/Name")),
        s("LensCount")
    );
}

#[test]
fn a_truncated_object_still_shows_its_blob_and_says_the_section_table_is_gone() {
    let d = decode_bytes(&gen::truncated_elf());
    assert_eq!(d.format, "cdac");
    let e = error(&d, "ObjectFile");
    assert!(
        e.contains("could not read this Elf64 file's section table"),
        "{e}"
    );
    assert_eq!(value(&d, "ObjectFile/Blobs/[0]/Types/[1]/Name"), s("Shelf"));
    assert!(error(&d, "ObjectFile/Blobs/[0]").contains("but the file ends at 0x260"));
}

#[test]
fn a_blob_that_runs_past_its_section_is_cut_at_the_section_end() {
    let d = decode_bytes(&gen::overrunning_elf());
    let p = &blob_paths(&d)[0];
    let e = error(&d, p);
    assert!(e.contains("but section .rodata ends at 0x318"), "{e}");
    assert!(error(&d, &format!("{p}/Directory/NamesPoolCount"))
        .contains("NamesPoolCount 4388 needs 4388 bytes"));
    // The next section is untouched.
    let sec = p.strip_suffix("/Blobs/[0]").unwrap();
    assert_eq!(node(&d, sec).span.end_byte(), 0x318);
}

// ----- decoding on demand ---------------------------------------------------------------

// The benchmarks' dense blob ([`gen::dense`]: types with 1 to 8 fields, a
// quarter as many literals, an eighth as many pointers, one names pool).
use hexlens_core::stream::streaming_options;
use hexlens_core::{decode_with, output};
use lazy::{expand_all, first_difference, paged, same_as_eager};

fn le32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn set32(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Absolute offset of the table whose start is directory word `word` of the
/// dense blob (offsets count from the end of the 8-byte magic).
fn table_at(bytes: &[u8], word: usize) -> usize {
    8 + le32(bytes, 8 + 4 * word) as usize
}

/// Damaged copies of a dense blob of `types` types: each holds its error deep in
/// one table (or cuts the blob), where an eager decode reports it.
fn damaged_dense(types: usize) -> Vec<(String, Vec<u8>)> {
    let good = gen::dense(types);
    let (ty, fp, lit, names) = (
        table_at(&good, 1),
        table_at(&good, 2),
        table_at(&good, 3),
        table_at(&good, 5),
    );
    let mut out = Vec::new();
    let mut v = good.clone();
    set32(&mut v, ty + 12 * (types * 2 / 3), 0x00FF_FFFF);
    out.push(("a type name past the names pool".to_string(), v));
    let mut v = good.clone();
    let next = le32(&v, ty + 12 * (types / 2 + 1) + 4);
    set32(&mut v, ty + 12 * (types / 2) + 4, next);
    out.push(("two types sharing a field run".to_string(), v));
    let mut v = good.clone();
    set32(&mut v, fp + 12 * 1500 + 4, 0xFFFF_FF00);
    out.push(("a field type name past the pool".to_string(), v));
    let mut v = good.clone();
    set32(&mut v, lit + 16 * (types / 8), 0);
    out.push(("a literal without a name".to_string(), v));
    let mut v = good.clone();
    v[names] = b'X';
    out.push(("a names pool that starts with a name".to_string(), v));
    let mut v = good.clone();
    v.truncate(fp + 12 * 700 + 5);
    out.push(("a blob cut inside its field pool".to_string(), v));
    let mut v = good.clone();
    let end = v.len() - 4;
    v.truncate(end - 2);
    out.push(("a blob cut inside its last name".to_string(), v));
    out.push(("the dense blob".to_string(), good));
    out
}

#[test]
fn a_dense_blob_opens_with_its_tables_undecoded_and_expands_to_the_eager_tree() {
    let bytes = gen::dense(3000);
    let mut d = decode_with(&bytes.as_slice(), &streaming_options());
    // Root, Blobs and the lazy blob, which a skim found clean: a streaming dump
    // needs no survey.
    assert!(d.tree.len() < 10, "{} nodes", d.tree.len());
    assert!(!d.tree.may_hide_damage());
    let blob = d.tree.find("Blobs/[0]").unwrap();
    assert!(d.tree.node(blob).lazy);
    assert!(
        d.tree
            .node(blob)
            .display
            .as_deref()
            .is_some_and(|s| s.contains("3000 types")),
        "the lazy blob shows its summary"
    );
    hexlens_core::expand(&bytes.as_slice(), &mut d.tree, blob).unwrap();
    // The directory and the header are decoded; the tables are not.
    assert!(d.tree.len() < 60, "{} nodes", d.tree.len());
    for table in [
        "Types",
        "FieldPool",
        "GlobalLiteralValues",
        "GlobalPointerValues",
        "NamesPool",
    ] {
        let id = d.tree.find(&format!("Blobs/[0]/{table}")).unwrap();
        assert!(d.tree.node(id).lazy, "{table}");
    }
    // The type list opens as pages of at most 250 entries (a quarter of the
    // usual page: a type is many nodes).
    let types = d.tree.find("Blobs/[0]/Types").unwrap();
    let before = d.tree.len();
    hexlens_core::expand(&bytes.as_slice(), &mut d.tree, types).unwrap();
    let pages: Vec<_> = d.tree.node(types).children.clone();
    assert_eq!(pages.len(), 12);
    assert!(pages
        .iter()
        .all(|&p| d.tree.node(p).lazy && d.tree.node(p).page));
    assert_eq!(d.tree.node(pages[2]).name.to_string(), "[500…749]");
    assert_eq!(d.tree.len(), before + 12);
    // Expanding everything gives the eager tree.
    let expanded = expand_all(&bytes, &mut d, true).unwrap();
    assert!(expanded > 20, "{expanded}");
    let eager = decode_bytes(&bytes);
    assert!(eager.tree.len() > 50_000);
    let (a, b) = (output::to_json(&d), output::to_json(&eager));
    assert!(a == b, "{}", first_difference(&a, &b));
}

#[test]
fn fixtures_and_damaged_dense_blobs_decoded_on_demand_equal_their_eager_decode() {
    let mut files: Vec<(String, Vec<u8>)> = gen::COMPILED
        .iter()
        .map(|n| (n.to_string(), gen::compiled(n)))
        .collect();
    files.extend(gen::all().into_iter().map(|(n, b)| (n.to_string(), b)));
    for (name, bytes) in &files {
        for page in [1, 2, 3, 1000] {
            same_as_eager(name, bytes, page, true);
        }
    }
    for (name, bytes) in damaged_dense(2500) {
        let eager = decode_bytes(&bytes);
        assert_eq!(
            eager.is_clean(),
            name == "the dense blob",
            "{name}: {:?}",
            eager.tree.errors().first().map(|&e| eager.tree.path(e))
        );
        for page in [7, 1000] {
            same_as_eager(&name, &bytes, page, true);
        }
    }
}

#[test]
fn with_exact_totals_a_lazy_part_never_hides_an_error() {
    // Lazy parts must be clean: a damaged table (or page) is decoded at once, so
    // every node on the way to an error knows it is damaged before it is opened.
    for (name, bytes) in damaged_dense(2500) {
        let mut d = decode_with(&bytes.as_slice(), &paged(100));
        expand_all(&bytes, &mut d, true).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
