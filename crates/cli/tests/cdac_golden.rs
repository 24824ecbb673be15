//! Golden text and JSON dumps of every cDAC fixture (`tests/fixtures/cdac/`),
//! compared byte for byte with `tests/golden/cdac/`; `HEXLENS_BLESS=1` rewrites them
//! when a change is intended.

mod support;

use support::{check_golden, decoded_as, fixtures, repo};

#[test]
fn cdac_dumps_match_the_golden_files() {
    let inputs = fixtures(
        &repo().join("tests/fixtures/cdac"),
        &["o", "obj", "bin", "dll"],
        20,
    );
    check_golden(&inputs, &repo().join("tests/golden/cdac"), |name, out| {
        let damaged = name.starts_with("damaged-");
        assert_eq!(
            out.status.code(),
            Some(if damaged { 1 } else { 0 }),
            "{name}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(decoded_as(out, "cdac"), "{name} was not decoded as cdac");
    });
}
