use super::*;
use crate::session::tests::sample;

#[test]
fn a_file_and_its_copy_are_equal_without_walking_the_tree() {
    let a = sample("basic_code_dxil.dxil.dxbc");
    let d = diff(&a.as_slice(), &a.clone().as_slice(), 100);
    assert!(d.is_equal());
    assert!(d.differences.is_empty());
    assert_eq!(
        d.same, 1,
        "the root's bytes are the same: nothing below is compared"
    );
    assert_eq!(d.changed_bytes, 0);
}

#[test]
fn a_changed_field_is_reported_at_its_path_with_both_values() {
    let a = sample("hs_mismatch_2_code_dxil.dxil.dxbc");
    let t = crate::decode_bytes(&a).tree;
    // The first feature flag of the SFI0 part (a bit of a flag word).
    let path = "Parts/[0]/Flags/Doubles";
    let id = t.find(path).unwrap();
    let at = t.span(id).start_byte() as usize;
    let mut b = a.clone();
    b[at] ^= 1;
    let d = diff(&a.as_slice(), &b.as_slice(), 100);
    assert!(!d.is_equal());
    assert_eq!(d.changed_bytes, 1);
    let changed: Vec<&Difference> = d
        .differences
        .iter()
        .filter(|x| matches!(x.change, Change::Changed { .. }))
        .collect();
    assert_eq!(changed.len(), 1, "{:?}", d.differences);
    assert_eq!(changed[0].path, path);
    let Change::Changed { a: va, b: vb } = &changed[0].change else {
        unreachable!()
    };
    assert_ne!(va, vb);
    assert_eq!((va.as_str(), vb.as_str()), ("false", "true"));
}

#[test]
fn decoders_key_list_entries_by_what_names_them() {
    let a = sample("hs_mismatch_2_code_dxil.dxil.dxbc");
    let src = a.as_slice();
    let mut d = crate::decode_with(&src, &crate::view::viewer_options());
    // Parts by FourCC, ASCII case ignored, FXC's and DXC's forms of a
    // signature under one key.
    let at = d.tree.find("Parts").unwrap();
    let parts = crate::open_children(&src, &mut d.tree, at);
    let keyed: Vec<(String, String)> = parts
        .iter()
        .map(|&p| {
            let Some(Value::Str(cc)) = d.tree.value(d.tree.children(p)[0]) else {
                panic!("a part's Name is its FourCC");
            };
            (cc, d.tree.key(p).unwrap().into_owned())
        })
        .collect();
    assert!(keyed.iter().any(|(cc, _)| cc == "ISG1"), "{keyed:?}");
    for (cc, k) in &keyed {
        let same = match cc.as_str() {
            "ISG1" => "isgn",
            "OSG1" => "osgn",
            "PSG1" => "pcsg",
            other => &other.to_ascii_lowercase(),
        };
        assert_eq!(k, same, "{cc}");
    }
    // Bitcode: a record by its name, a function's block by its function, a
    // block by its kind.
    let a = sample("basic_code_dxil.dxil.dxbc");
    let src = a.as_slice();
    let mut d = crate::decode_with(&src, &crate::view::viewer_options());
    let body = d.tree.find("Parts/[4]/Program").unwrap();
    let _ = crate::open_children(&src, &mut d.tree, body);
    let body = d
        .tree
        .find("Parts/[4]/Program/DXIL/Blocks/[0]/Body")
        .unwrap();
    let kids = crate::open_children(&src, &mut d.tree, body);
    let keys: Vec<String> = kids
        .iter()
        .map(|&c| d.tree.key(c).map(|k| k.into_owned()).unwrap_or_default())
        .collect();
    assert_eq!(keys[0], "VERSION");
    assert!(keys.contains(&"CONSTANTS_BLOCK".to_string()), "{keys:?}");
    assert!(
        keys.contains(&"FUNCTION_BLOCK \"BroadcastNode\"".to_string()),
        "{keys:?}"
    );
    assert_eq!(
        keys.iter().filter(|k| *k == "FUNCTION").count(),
        5,
        "{keys:?}"
    );
    // The diff matches by them: the key it uses is the decoder's.
    assert_eq!(key(&d.tree, kids[0]), "=VERSION");
}

fn rows_agree(d: &Diff) {
    let mut seen = vec![0u32; d.differences.len()];
    for (i, r) in d.rows.iter().enumerate() {
        if let Some(j) = r.difference {
            seen[j] += 1;
            let want = match d.differences[j].change {
                Change::Changed { .. } => Mark::Changed,
                Change::Moved { .. } => Mark::Moved,
                Change::Removed => Mark::Removed,
                Change::Added => Mark::Added,
            };
            assert_eq!(r.mark, want, "row {i}: {r:?}");
            assert_eq!(r.path, d.differences[j].path);
        } else {
            assert!(
                matches!(r.mark, Mark::Same | Mark::Inside),
                "row {i}: {r:?}"
            );
        }
        if let Some(next) = d.rows.get(i + 1) {
            assert!(next.depth <= r.depth + 1, "row {i}");
            if next.depth == r.depth + 1 {
                assert!(
                    matches!(r.mark, Mark::Inside | Mark::Changed | Mark::Moved),
                    "row {i} has rows below it: {r:?}"
                );
            }
        }
    }
    assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
}

#[test]
fn the_merged_tree_marks_the_path_to_a_change_and_folds_identical_siblings() {
    let a = sample("hs_mismatch_2_code_dxil.dxil.dxbc");
    let t = crate::decode_bytes(&a).tree;
    let id = t.find("Parts/[0]/Flags/Doubles").unwrap();
    let at = t.span(id).start_byte() as usize;
    let mut b = a.clone();
    b[at] ^= 1;
    let d = diff(&a.as_slice(), &b.as_slice(), 100);
    rows_agree(&d);
    let row = |p: &str| d.rows.iter().find(|r| r.path == p && r.count == 1);
    assert_eq!(row("").map(|r| r.mark), Some(Mark::Inside));
    assert_eq!(row("Parts").map(|r| r.mark), Some(Mark::Inside));
    assert_eq!(row("Parts/[0]").map(|r| r.mark), Some(Mark::Inside));
    let doubles = row("Parts/[0]/Flags/Doubles").unwrap();
    assert_eq!(doubles.mark, Mark::Changed);
    assert!(doubles.text.contains("->"), "{}", doubles.text);
    assert_eq!(doubles.align, (doubles.a.unwrap().0, doubles.b.unwrap().0));
    // The other parts are identical: one row of them all.
    let parts = t.children(t.find("Parts").unwrap()).len() as u32;
    let same: Vec<&Row> = d
        .rows
        .iter()
        .filter(|r| r.depth == 2 && r.mark == Mark::Same)
        .collect();
    assert_eq!(same.len(), 1, "{same:?}");
    assert_eq!(same[0].count, parts - 1);
    assert!(
        same[0]
            .line()
            .starts_with(&format!("    = [1] … [{}]: ", parts - 1)),
        "{}",
        same[0].line()
    );
    // Identical files: one row, the file.
    let d = diff(&a.as_slice(), &a.as_slice(), 100);
    assert_eq!(d.rows.len(), 1);
    assert_eq!(d.rows[0].mark, Mark::Same);
}

#[test]
fn a_node_only_one_file_has_lines_up_with_its_parent() {
    // B is A cut short: its last part is damaged or gone.
    let a = sample("basic_code_dxil.dxil.dxbc");
    let mut b = a.clone();
    b.truncate(b.len() - 8);
    let d = diff(&a.as_slice(), &b.as_slice(), 1000);
    rows_agree(&d);
    for r in &d.rows {
        match r.mark {
            Mark::Removed => assert_eq!(r.align.0, r.a.unwrap().0),
            Mark::Added => assert_eq!(r.align.1, r.b.unwrap().0),
            _ => assert_eq!(r.align, (r.a.unwrap().0, r.b.unwrap().0)),
        }
    }
}

#[test]
fn byte_differences_are_found_forward_and_back_as_runs() {
    let a: Vec<u8> = (0..3000u32).map(|i| i as u8).collect();
    let mut b = a.clone();
    for i in [10, 11, 12, 2000] {
        b[i] ^= 0xFF;
    }
    let (x, y) = (a.as_slice(), b.as_slice());
    assert_eq!(next_byte_difference(&x, &y, 0, 0, false), Some((10, 13)));
    // From inside a run: the run after it.
    assert_eq!(
        next_byte_difference(&x, &y, 11, 0, false),
        Some((2000, 2001))
    );
    assert_eq!(next_byte_difference(&x, &y, 2000, 0, false), None);
    assert_eq!(next_byte_difference(&x, &y, 2000, 0, true), Some((10, 13)));
    assert_eq!(next_byte_difference(&x, &y, 10, 0, true), None);
    // B shorter: its missing tail differs.
    let c = &a[..2500];
    assert_eq!(
        next_byte_difference(&x, &c, 100, 0, false),
        Some((2500, 3000))
    );
    // B moved by 3 (B = 3 bytes, then A): nothing differs once lined up,
    // except the bytes A has past B's end... none, and the 3 bytes before.
    let mut d = vec![7u8; 3];
    d.extend_from_slice(&a);
    let d = d.as_slice();
    assert_eq!(next_byte_difference(&x, &d, 0, 3, false), None);
    assert_eq!(next_byte_difference(&x, &d, 3000, 3, true), None);
    // Not lined up, everything differs: one run, to the end of the longer.
    assert_eq!(next_byte_difference(&x, &d, 0, 0, true), None);
    assert_eq!(next_byte_difference(&x, &d, 0, 0, false), None);
    assert_eq!(next_byte_difference(&x, &d, 3000, 0, true), Some((0, 3003)));
    // B moved back by 5 (B = A without its first 5 bytes): A's first 5
    // bytes have nothing beside them.
    let e = &a[5..];
    assert_eq!(next_byte_difference(&x, &e, 3000, -5, true), Some((0, 5)));
    // A run longer than a chunk.
    let big_a = vec![0u8; 3 << 20];
    let mut big_b = big_a.clone();
    for v in &mut big_b[(1 << 20) - 5..(2 << 20) + 7] {
        *v = 1;
    }
    let r = next_byte_difference(&big_a.as_slice(), &big_b.as_slice(), 0, 0, false);
    assert_eq!(r, Some(((1 << 20) - 5, (2 << 20) + 7)));
    let r = next_byte_difference(&big_a.as_slice(), &big_b.as_slice(), 3 << 20, 0, true);
    assert_eq!(r, Some(((1 << 20) - 5, (2 << 20) + 7)));
}

#[test]
fn mismatch_finds_the_first_and_last_differing_place_at_every_length() {
    for n in 0..40usize {
        let x: Vec<u8> = (0..n as u8).collect();
        // No difference, then one at each place, then two.
        assert_eq!(mismatch(&x, &x, true), None);
        assert_eq!(mismatch(&x, &x, false), None);
        for i in 0..n {
            let mut y = x.clone();
            y[i] ^= 0x80;
            assert_eq!(mismatch(&x, &y, true), Some(i), "n {n}, at {i}");
            assert_eq!(mismatch(&x, &y, false), Some(i), "n {n}, at {i}");
            for j in i + 1..n {
                let mut z = y.clone();
                z[j] ^= 0x01;
                assert_eq!(mismatch(&x, &z, true), Some(i));
                assert_eq!(mismatch(&x, &z, false), Some(j));
            }
        }
    }
}
