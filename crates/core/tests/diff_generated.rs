//! Comparing two files by their structure (`hexlens_core::diff`): pairs of
//! generated DirectX Containers with known edits (a changed value, a part
//! inserted and removed, a reordered part table, a signature element inserted
//! so the others' strings move, a damaged second file), pairs of real
//! bitcode modules assembled by `llvm-as-19` (a function inserted), .dyno
//! files with a module added, cDAC files with a blob added, a name changed by
//! one letter in a file of every format, an LLVM 1.x symbol inserted in a
//! symbol table, and real unrelated containers. Each edit is reported once,
//! at its path, and nothing else is. Every pair is also compared the other way
//! round (an insertion is then a removal), and its merged tree checked.

use hexlens_core::diff::{diff, Change, Diff, Difference, Mark};
use hexlens_core::{decode_bytes, Tree};
use hexlens_testkit::{
    generators::{cdac as cdac_gen, dxcontainer as gen, dyno as dyno_gen, llvm1 as llvm1_gen},
    repo, tools,
};

/// An input or output signature part's data: `(semantic name, index, register)`
/// per element (24 bytes each after the 8-byte header: name offset, index,
/// system value, component type, register, mask, read-write mask, padding),
/// then the names.
fn sig(elems: &[(&str, u32, u32)]) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(&(elems.len() as u32).to_le_bytes());
    v.extend_from_slice(&8u32.to_le_bytes());
    let mut names = Vec::new();
    let strings_at = 8 + 24 * elems.len();
    for &(name, index, register) in elems {
        let at = strings_at + names.len();
        names.extend_from_slice(name.as_bytes());
        names.push(0);
        for w in [at as u32, index, 0, 3, register] {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v.extend_from_slice(&[0xF, 0xF, 0, 0]);
    }
    v.extend_from_slice(&names);
    while v.len() % 4 != 0 {
        v.push(0);
    }
    v
}

fn container(parts: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    let parts: Vec<gen::Part> = parts.iter().map(|(n, d)| gen::part(n, d.clone())).collect();
    let mut c = gen::container(&parts);
    gen::sign(&mut c);
    c
}

fn compare(a: &[u8], b: &[u8]) -> Diff {
    let d = diff(&a, &b, 10_000);
    // The merged tree shows every difference once, on a row marked as it.
    let mut shown: Vec<usize> = d.rows.iter().filter_map(|r| r.difference).collect();
    shown.sort_unstable();
    assert_eq!(shown, (0..d.differences.len()).collect::<Vec<_>>());
    for r in &d.rows {
        let (x, y) = (
            r.a.map(|(s, e)| &a[s as usize..e as usize]),
            r.b.map(|(s, e)| &b[s as usize..e as usize]),
        );
        if r.mark == Mark::Same && r.count == 1 {
            assert_eq!(x, y, "{r:?}");
        }
    }
    // Compared the other way round, what one file alone has swaps sides:
    // every addition is a removal, every removal an addition.
    let r = diff(&b, &a, 10_000);
    let only = |d: &Diff, c: Change| -> Vec<String> {
        let mut v: Vec<String> = d
            .differences
            .iter()
            .filter(|x| x.change == c)
            .map(|x| x.path.clone())
            .collect();
        v.sort();
        v
    };
    assert_eq!(only(&d, Change::Added), only(&r, Change::Removed));
    assert_eq!(only(&d, Change::Removed), only(&r, Change::Added));
    assert_eq!(d.counts().0, r.counts().0, "as many changed");
    d
}

/// The differences under `prefix`.
fn under<'d>(d: &'d Diff, prefix: &str) -> Vec<&'d Difference> {
    d.differences
        .iter()
        .filter(|x| x.path == prefix || x.path.starts_with(&format!("{prefix}/")))
        .collect()
}

/// Every difference's path names a node of A (or of B for an addition).
fn paths_exist(d: &Diff, a: &[u8], b: &[u8]) {
    let (ta, tb): (Tree, Tree) = (decode_bytes(a).tree, decode_bytes(b).tree);
    for x in &d.differences {
        let t = if x.change == Change::Added { &tb } else { &ta };
        assert!(t.find(&x.path).is_some(), "{} is not in its tree", x.path);
        if let Some(pb) = &x.path_b {
            assert!(tb.find(pb).is_some(), "{pb} is not in B's tree");
        }
    }
}

fn input() -> Vec<u8> {
    sig(&[("POSITION", 0, 0), ("NORMAL", 0, 1)])
}

fn output() -> Vec<u8> {
    sig(&[("SV_Target", 0, 0)])
}

#[test]
fn an_inserted_part_is_one_addition_and_a_removed_one_one_removal() {
    let a = container(&[(b"ISGN", input()), (b"OSGN", output())]);
    let b = container(&[
        (b"ISGN", input()),
        (b"SFI0", vec![1, 0, 0, 0, 0, 0, 0, 0]),
        (b"OSGN", output()),
    ]);
    let d = compare(&a, &b);
    assert!(!d.is_equal());
    paths_exist(&d, &a, &b);
    let parts = under(&d, "Parts");
    assert_eq!(parts.len(), 1, "{parts:?}");
    assert_eq!(parts[0].path, "Parts/[1]");
    assert_eq!(parts[0].change, Change::Added);
    let tb = decode_bytes(&b).tree;
    let sfi0 = tb.find("Parts/[1]/Name").unwrap();
    assert_eq!(
        tb.value(sfi0),
        Some(hexlens_core::Value::Str("SFI0".into()))
    );
    // The header says so too: one more part.
    assert!(d.differences.iter().any(|x| x.path == "Header/PartCount"
        && x.change
            == Change::Changed {
                a: "2".into(),
                b: "3".into()
            }));
    // The other way round: one removal.
    let back = compare(&b, &a);
    let parts = under(&back, "Parts");
    assert_eq!(parts.len(), 1, "{parts:?}");
    assert_eq!(
        (parts[0].path.as_str(), &parts[0].change),
        ("Parts/[1]", &Change::Removed)
    );
}

#[test]
fn a_reordered_part_table_changes_no_part() {
    let a = container(&[(b"ISGN", input()), (b"OSGN", output())]);
    let b = container(&[(b"OSGN", output()), (b"ISGN", input())]);
    let d = compare(&a, &b);
    assert!(under(&d, "Parts").is_empty(), "{:?}", d.differences);
    // Only where the parts lie changed: the offsets table.
    assert!(
        d.differences.iter().all(|x| x.path.starts_with("Header/")),
        "{:?}",
        d.differences
    );
}

#[test]
fn a_changed_value_is_one_change_with_both_values() {
    let a = container(&[(b"ISGN", input()), (b"OSGN", output())]);
    let b = container(&[
        (b"ISGN", sig(&[("POSITION", 0, 0), ("NORMAL", 0, 5)])),
        (b"OSGN", output()),
    ]);
    let d = compare(&a, &b);
    paths_exist(&d, &a, &b);
    let changed: Vec<_> = d
        .differences
        .iter()
        .filter(|x| x.path != "Header/Hash")
        .collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!(
        changed[0].path,
        "Parts/[0]/Signature/Parameters/[1]/Register"
    );
    assert_eq!(
        changed[0].change,
        Change::Changed {
            a: "1".into(),
            b: "5".into()
        }
    );
}

/// One byte flipped in a signature element's index (SV_Target2 becomes a second
/// SV_Target3, at the same place in both files): the element is one change,
/// `Index: 2 -> 3`, not one element removed, another added and a third one's
/// Register changed, though its key (name and index) now names another one.
#[test]
fn an_index_changed_in_place_is_one_change_whatever_the_key_says() {
    let targets = |third: u32| {
        sig(&[
            ("SV_Target", 0, 0),
            ("SV_Target", 1, 1),
            ("SV_Target", third, 2),
            ("SV_Target", 3, 3),
        ])
    };
    let a = container(&[(b"ISGN", input()), (b"OSGN", targets(2))]);
    let b = container(&[(b"ISGN", input()), (b"OSGN", targets(3))]);
    let d = compare(&a, &b);
    paths_exist(&d, &a, &b);
    let changed: Vec<_> = d
        .differences
        .iter()
        .filter(|x| x.path != "Header/Hash")
        .collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!(changed[0].path, "Parts/[1]/Signature/Parameters/[2]/Index");
    assert_eq!(
        changed[0].change,
        Change::Changed {
            a: "2".into(),
            b: "3".into()
        }
    );
    // The same in a real container: four render targets, one index byte
    // flipped.
    let a = std::fs::read(
        repo::dxcontainer_samples()
            .join("vkd3d-proton/tests_shaders_render_target_headers/rt_mask_29_code_dxbc.dxbc"),
    )
    .unwrap();
    let t = decode_bytes(&a).tree;
    // Its targets are 0, 2, 3 and 4: element [1] is SV_Target2.
    let index = t.find("Parts/[1]/Signature/Parameters/[1]/Index").unwrap();
    assert_eq!(t.value(index), Some(hexlens_core::Value::U(2)));
    let next = t.find("Parts/[1]/Signature/Parameters/[2]/Index").unwrap();
    assert_eq!(t.value(next), Some(hexlens_core::Value::U(3)));
    let mut b = a.clone();
    b[t.span(index).start_byte() as usize] = 3;
    let d = compare(&a, &b);
    let changed: Vec<String> = d
        .differences
        .iter()
        .map(|x| format!("{} {:?}", x.path, x.change))
        .collect();
    assert_eq!(
        changed,
        ["Parts/[1]/Signature/Parameters/[1]/Index Changed { a: \"2\", b: \"3\" }"]
    );
}

#[test]
fn an_inserted_element_is_one_addition_and_the_strings_that_moved_are_moves() {
    let a = container(&[(b"ISGN", input())]);
    let b = container(&[(
        b"ISGN",
        sig(&[("POSITION", 0, 0), ("TEXCOORD", 0, 2), ("NORMAL", 0, 1)]),
    )]);
    let d = compare(&a, &b);
    paths_exist(&d, &a, &b);
    let params = under(&d, "Parts/[0]/Signature/Parameters");
    let added: Vec<_> = params
        .iter()
        .filter(|x| x.change == Change::Added)
        .collect();
    assert_eq!(added.len(), 1, "{params:?}");
    assert_eq!(added[0].path, "Parts/[0]/Signature/Parameters/[1]");
    // In the merged tree the addition stands where B has it: between the
    // element before it and the one after it.
    let rows: Vec<(Mark, &str)> = d
        .rows
        .iter()
        .filter(|r| r.path.starts_with("Parts/[0]/Signature/Parameters/") && r.depth == 5)
        .map(|r| (r.mark, r.name.as_str()))
        .collect();
    assert_eq!(
        rows,
        [
            (Mark::Inside, "[0]"),
            (Mark::Added, "[1]"),
            (Mark::Inside, "[1]")
        ]
    );
    // The name offsets of the elements kept changed only because the names moved.
    let changed: Vec<_> = params
        .iter()
        .filter(|x| matches!(x.change, Change::Changed { .. }))
        .collect();
    assert!(changed.is_empty(), "{changed:?}");
    assert!(
        params
            .iter()
            .any(|x| matches!(x.change, Change::Moved { .. })),
        "{params:?}"
    );
    assert!(params.iter().all(|x| x.change != Change::Removed));
}

#[test]
fn a_damaged_second_file_is_compared_as_far_as_it_decodes() {
    let a = container(&[(b"ISGN", input()), (b"OSGN", output())]);
    for cut in [0, 10, 40, a.len() / 2, a.len() - 3] {
        let d = compare(&a, &a[..cut]);
        assert!(!d.is_equal(), "cut at {cut}");
        assert_eq!(d.changed_bytes, (a.len() - cut) as u64);
        paths_exist(&d, &a, &a[..cut]);
    }
}

#[test]
fn real_containers_compare_with_paths_in_their_trees() {
    let dir = repo::root().join("static/samples");
    let names = [
        "basic_code_dxil.dxil.dxbc",
        "hs_mismatch_2_code_dxil.dxil.dxbc",
        "d3d12_shaders_L2434_ps_dmax_code.dxbc",
    ];
    for x in names {
        for y in names {
            let a = std::fs::read(dir.join(x)).unwrap();
            let b = std::fs::read(dir.join(y)).unwrap();
            let d = compare(&a, &b);
            assert_eq!(d.is_equal(), x == y, "{x} vs {y}");
            paths_exist(&d, &a, &b);
        }
    }
}

#[test]
fn the_signatures_fxc_and_dxc_write_for_one_shader_are_compared_with_each_other() {
    let dir = repo::curated_dir();
    let a = std::fs::read(dir.join("hs_topology_line_code_dxbc.dxbc")).unwrap();
    let b = std::fs::read(dir.join("hs_topology_line_code_dxil.dxil.dxbc")).unwrap();
    let d = compare(&a, &b);
    paths_exist(&d, &a, &b);
    // ISGN, OSGN and PCSG (FXC) are matched with ISG1, OSG1 and PSG1 (DXC):
    // none of them is only in one file; SHEX has no DXIL counterpart.
    let only: Vec<&str> = d
        .differences
        .iter()
        .filter(|x| matches!(x.change, Change::Removed | Change::Added))
        .filter(|x| x.path.starts_with("Parts/[") && x.path.matches('/').count() == 1)
        .map(|x| x.shown.split(':').next().unwrap_or(""))
        .collect();
    for sig in ["ISGN", "OSGN", "PCSG", "ISG1", "OSG1", "PSG1"] {
        assert!(!only.contains(&sig), "{sig} unmatched: {only:?}");
    }
    assert!(only.contains(&"SHEX") && only.contains(&"DXIL"), "{only:?}");
}

fn module(functions: &[&str]) -> String {
    let mut ir = String::new();
    for f in functions {
        ir.push_str(&format!(
            "define i32 @{f}(i32 %x) {{\n  %y = mul i32 %x, {}\n  ret i32 %y\n}}\n",
            f.len()
        ));
    }
    ir
}

#[test]
fn a_function_inserted_in_a_bitcode_module_is_one_added_function_block() {
    let a = tools::assemble(&module(&["first", "third"]), "diff");
    let b = tools::assemble(&module(&["first", "second", "third"]), "diff");
    let d = compare(&a, &b);
    assert_eq!(d.formats, ("bitcode", "bitcode"));
    paths_exist(&d, &a, &b);
    let tb = decode_bytes(&b).tree;
    let blocks: Vec<String> = d
        .differences
        .iter()
        .filter(|x| x.change == Change::Added)
        .filter_map(|x| {
            tb.find(&x.path)
                .and_then(|id| tb.display(id))
                .map(|s| s.into_owned())
        })
        .filter(|s| s.starts_with("FUNCTION_BLOCK"))
        .collect();
    assert_eq!(blocks.len(), 1, "{:?}", d.differences);
    assert!(blocks[0].contains("\"second\""), "{}", blocks[0]);
    // The two functions both have are not reported as changed blocks.
    let ta = decode_bytes(&a).tree;
    for x in &d.differences {
        if x.change == Change::Removed {
            let shown = ta
                .find(&x.path)
                .and_then(|id| ta.display(id))
                .unwrap_or_default();
            assert!(
                !shown.starts_with("FUNCTION_BLOCK"),
                "{} removed: {shown}",
                x.path
            );
        }
    }
}

#[test]
fn a_module_added_to_a_dyno_file_is_one_added_module() {
    use dyno_gen::{file, shapes_module, util_module, Layout};
    let (a, _) = file(
        &[(shapes_module(false), "shapes.chpl")],
        Layout::Writer,
        false,
    );
    let (b, _) = file(
        &[
            (shapes_module(false), "shapes.chpl"),
            (util_module(), "util.chpl"),
        ],
        Layout::Writer,
        false,
    );
    let d = compare(&a, &b);
    assert_eq!(d.formats, ("chapel-dyno", "chapel-dyno"));
    paths_exist(&d, &a, &b);
    let modules = under(&d, "Modules");
    assert_eq!(modules.len(), 1, "{modules:?}");
    assert_eq!(
        (modules[0].path.as_str(), &modules[0].change),
        ("Modules/[1]", &Change::Added)
    );
}

#[test]
fn a_blob_added_to_a_cdac_file_is_one_added_blob() {
    let a = cdac_gen::good_blob();
    let b = cdac_gen::two_blobs();
    let d = compare(&a, &b);
    assert_eq!(d.formats, ("cdac", "cdac"));
    paths_exist(&d, &a, &b);
    // The blob, and the 16 bytes before it that no decoder claims.
    let blobs: Vec<(&str, &Change)> = under(&d, "Blobs")
        .iter()
        .map(|x| (x.path.as_str(), &x.change))
        .collect();
    assert_eq!(
        blobs,
        [
            ("Blobs/unknown", &Change::Added),
            ("Blobs/[1]", &Change::Added)
        ]
    );
}

/// The first field whose value is a name of at least 3 letters written as
/// they are at the end of its bytes (after a length, if it has one; before a
/// NUL, if it ends with one), and where its last letter is.
fn a_name(t: &Tree, file: &[u8]) -> Option<(hexlens_core::NodeId, usize)> {
    (0..t.len() as u32).find_map(|id| {
        let s = t.span(id);
        let Some(hexlens_core::Value::Str(v)) = t.value(id) else {
            return None;
        };
        // Not a magic number or a part's FourCC: a name.
        let fourcc = t.kind(id) == hexlens_core::Kind::FourCC;
        if fourcc
            || v.len() < 3
            || !v.bytes().all(|c| c.is_ascii_alphabetic())
            || !s.end.is_multiple_of(8)
        {
            return None;
        }
        let end = s.end_byte() as usize;
        let end = if file.get(end - 1) == Some(&0) {
            end - 1
        } else {
            end
        };
        let start = end.checked_sub(v.len())?;
        (start as u64 >= s.start_byte() && file.get(start..end) == Some(v.as_bytes()))
            .then_some((id, end - 1))
    })
}

#[test]
fn a_name_changed_by_one_letter_is_reported_inside_the_entry_that_holds_it() {
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("dyno", dyno_gen::shapes(dyno_gen::Layout::Writer, false).0),
        ("cdac", cdac_gen::good_blob()),
        ("llvm1", llvm1_gen::rev5_llvm14()),
        (
            "dxcontainer",
            container(&[(b"ISGN", input()), (b"OSGN", output())]),
        ),
    ];
    for (what, a) in files {
        let t = decode_bytes(&a).tree;
        let (id, at) = a_name(&t, &a).unwrap_or_else(|| panic!("{what}: no name"));
        let path = t.path(id);
        let holder = t.path(t.parent(id).unwrap());
        let mut b = a.clone();
        b[at] = if b[at] == b'q' { b'z' } else { b'q' };
        let d = compare(&a, &b);
        assert!(!d.is_equal(), "{what}: {path}");
        paths_exist(&d, &a, &b);
        for x in &d.differences {
            // A whole-file digest (a .dyno header's, a container's) changes too.
            let digest = x.path.starts_with("Header/");
            assert!(
                digest || x.path.starts_with(&holder) || holder.starts_with(&x.path),
                "{what}: {path} changed, but {} differs",
                x.path
            );
        }
    }
}

#[test]
fn a_symbol_inserted_in_an_llvm1_symbol_table_is_one_added_entry() {
    let a = llvm1_gen::with_symbols(&[(0, "main"), (1, "helper"), (2, "tail")]);
    let b = llvm1_gen::with_symbols(&[(0, "main"), (5, "inserted"), (1, "helper"), (2, "tail")]);
    let d = compare(&a, &b);
    assert_eq!(d.formats, ("llvm1-bytecode", "llvm1-bytecode"));
    paths_exist(&d, &a, &b);
    let (ta, tb) = (decode_bytes(&a).tree, decode_bytes(&b).tree);
    let added: Vec<&Difference> = d
        .differences
        .iter()
        .filter(|x| x.change == Change::Added)
        .collect();
    assert_eq!(added.len(), 1, "{:#?}", d.differences);
    let inserted = tb.find(&added[0].path).unwrap();
    assert!(
        tb.display(inserted).is_some_and(|s| s.contains("inserted"))
            || tb
                .value(inserted)
                .is_some_and(|v| format!("{v:?}").contains("inserted")),
        "{}",
        added[0].path
    );
    assert!(!d.differences.iter().any(|x| x.change == Change::Removed));
    // The entries after it are matched by their names: none of them changed
    // (only the list's count and the blocks' sizes do).
    for x in d.differences.iter().filter(|x| x.change != Change::Added) {
        if let Some(id) = ta.find(&x.path) {
            let name = ta.display(id).map(|s| s.to_string()).unwrap_or_default();
            assert!(
                !name.contains("helper") && !name.contains("tail"),
                "{}: {name}",
                x.path
            );
        }
    }
    assert_eq!(d.differences.len(), 4, "two sizes, the count and the entry");
}
