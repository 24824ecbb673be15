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
fn labels_keep_a_blocks_kind_and_name_and_drop_its_counts() {
    assert_eq!(
        label("FUNCTION_BLOCK (12) \"main2\", 395 words, abbrev width 3"),
        "FUNCTION_BLOCK \"main2\""
    );
    assert_eq!(label("MODULE_BLOCK (8), 395 words"), "MODULE_BLOCK");
    assert_eq!(
        label("module of 3120 bytes at 0x50, not decoded yet"),
        "module of bytes at"
    );
    assert_eq!(label("\"Color\""), "\"Color\"");
    assert_eq!(label("GlobalTypePlane, 262 bytes"), "GlobalTypePlane");
    assert_eq!(label(".text (no bytes in the file)"), ".text");
    assert_eq!(label("shapes.chpl, from line 1: 5 entries"), "shapes.chpl");
}
