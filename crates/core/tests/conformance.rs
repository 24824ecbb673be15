//! The conformance harness: what every registered format must do, checked over
//! its fixtures. A format takes part by being registered
//! (`hexlens_core::formats::formats()`) and keeping its fixtures in
//! `tests/fixtures/<its name>/` (files of any depth; notes in `.md`, `.txt`,
//! `.yaml`, `.ll` files are not fixtures). A registered format without
//! fixtures fails here.
//!
//! For every fixture of every format:
//! - it decodes as that format, and the tree holds every decode's invariants
//!   (`Tree::validate`, a JSON rendering that parses and lists every error);
//! - cut short at a spread of lengths, and with bytes corrupted (fixed seed),
//!   it still decodes to a tree holding them (whether a cut shows as an error
//!   depends on the format: bytes a format keeps opaque, such as a compressed
//!   payload, may be cut cleanly; the formats' own damage tests check where);
//! - decoded on demand (lazy parts, pages of 3 entries) and expanded, it is
//!   the eager tree, byte for byte in both dumps, and its streaming dumps are
//!   the eager dumps;
//! - a format whose containers can be found inside other files is found where
//!   a clean fixture was planted in one, under its own name (each fixture whose
//!   header says where it ends; at least one per format).

use hexlens_core::formats::{self, embedded, Format};
use hexlens_core::{decode_bytes, decode_with, Decoded, Options};
use hexlens_testkit::{checks, invariants, lazy, repo};
use invariants::Rng;

/// A fixture: its path below `tests/fixtures/` and its bytes.
struct Fixture {
    name: String,
    bytes: Vec<u8>,
}

/// The fixtures of `format`: every file under `tests/fixtures/<name>/`.
fn fixtures(format: &Format) -> Vec<Fixture> {
    let root = repo::fixtures();
    let dir = root.join(format.name);
    assert!(
        dir.is_dir(),
        "format {:?} has no fixtures: put files of it in {}",
        format.name,
        dir.display()
    );
    let mut files = repo::files_under(&dir);
    files.retain(|f| f.extension().is_none_or(|e| e != "ll"));
    assert!(
        !files.is_empty(),
        "format {:?} has no fixtures in {}",
        format.name,
        dir.display()
    );
    files
        .into_iter()
        .map(|f| Fixture {
            name: f.strip_prefix(&root).unwrap().display().to_string(),
            bytes: std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display())),
        })
        .collect()
}

/// Every registered format with its fixtures.
fn every_format() -> Vec<(&'static Format, Vec<Fixture>)> {
    let all: Vec<_> = formats::formats()
        .into_iter()
        .map(|f| (f, fixtures(f)))
        .collect();
    assert!(all.len() >= 7, "only {} formats registered", all.len());
    all
}

/// How a fixture of `format` is decoded: as any file is, but the scan for
/// containers inside a file (which no probe picks) is asked for.
fn options(format: &Format) -> Options {
    Options {
        scan: format.name == embedded::FORMAT.name,
        ..Options::default()
    }
}

/// `d`, decoded from `len` bytes, holds every decode's invariants (the fuzz
/// targets' checks: the tree, its JSON and text renderings).
fn valid(what: &str, d: &Decoded, len: usize) {
    checks::check_all(d, len as u64).unwrap_or_else(|e| panic!("{what}: {e}"));
}

/// The lengths a fixture of `len` bytes is cut at: every length of a short
/// one; of a long one, every length of its first 128 bytes (headers) and 128
/// more spread over the rest.
fn cuts(len: usize) -> Vec<usize> {
    if len <= 512 {
        return (0..len).collect();
    }
    let mut out: Vec<usize> = (0..128).collect();
    out.extend((0..128).map(|i| 128 + (len - 129) * i / 127));
    out.dedup();
    out
}

#[test]
fn every_fixture_decodes_as_its_format_to_a_valid_tree() {
    let mut n = 0;
    for (format, fixtures) in every_format() {
        for fx in fixtures {
            let d = decode_with(&fx.bytes.as_slice(), &options(format));
            assert_eq!(d.format, format.name, "{}", fx.name);
            valid(&fx.name, &d, fx.bytes.len());
            n += 1;
        }
    }
    assert!(n > 100, "{n} fixtures");
}

#[test]
fn cut_short_or_corrupted_every_fixture_still_decodes_to_a_valid_tree() {
    let mut rng = Rng(0x5eed_c0de);
    for (format, fixtures) in every_format() {
        let (mut cut_runs, mut flips) = (0, 0);
        let opts = options(format);
        for fx in &fixtures {
            for cut in cuts(fx.bytes.len()) {
                let d = decode_with(&&fx.bytes[..cut], &opts);
                valid(&format!("{} cut at {cut}", fx.name), &d, cut);
                cut_runs += 1;
            }
            for round in 0..24 {
                let bytes = rng.corrupt(&fx.bytes);
                let d = decode_with(&bytes.as_slice(), &opts);
                valid(
                    &format!("{} corrupted (round {round})", fx.name),
                    &d,
                    bytes.len(),
                );
                flips += 1;
            }
        }
        println!("{}: {cut_runs} cuts, {flips} corruptions", format.name);
    }
}

#[test]
fn decoded_on_demand_and_expanded_every_fixture_is_its_eager_tree_and_streams_as_it() {
    for (format, fixtures) in every_format() {
        for fx in fixtures {
            if options(format).scan {
                continue; // the scan decodes what it finds eagerly (embedded_generated.rs)
            }
            lazy::same_as_eager(&fx.name, &fx.bytes, 3, false);
        }
    }
}

#[test]
fn a_container_planted_inside_another_file_is_found_where_it_lies() {
    let mut checked = Vec::new();
    for (format, fixtures) in every_format() {
        let Some(how) = format.embedded else {
            continue;
        };
        let mut planted = 0;
        for fx in fixtures {
            // A clean container whose header says where it ends (a compressed
            // LLVM 1.x file's does not: its stream runs to the end of the file).
            let len = fx.bytes.len() as u64;
            if !decode_bytes(&fx.bytes).is_clean()
                || (how.extent)(&fx.bytes.as_slice(), 0, len).is_none()
            {
                continue;
            }
            // Bytes that start no container of any format around it.
            let mut host = vec![0x5Au8; 4099];
            let at = host.len() as u64;
            host.extend_from_slice(&fx.bytes);
            host.extend(std::iter::repeat_n(0xA5u8, 517));
            let end = at + fx.bytes.len() as u64;
            let s = embedded::scan(&host.as_slice());
            let hit = s
                .found
                .iter()
                .find(|f| f.format == format.name && at <= f.offset && f.offset < end);
            let hit = hit.unwrap_or_else(|| panic!("{} planted at {at}: not found", fx.name));
            assert!(
                hit.offset + hit.len <= end,
                "{}: found {}..{} past its end {end}",
                fx.name,
                hit.offset,
                hit.offset + hit.len
            );
            // The host decodes (scanned) to a valid tree with the container in it.
            let d = hexlens_core::decode_with(
                &host.as_slice(),
                &hexlens_core::Options {
                    scan: true,
                    ..Default::default()
                },
            );
            valid(&format!("{} planted", fx.name), &d, host.len());
            planted += 1;
        }
        assert!(planted > 0, "{}: no clean fixture to plant", format.name);
        checked.push(format.name);
    }
    assert!(checked.len() >= 5, "found inside other files: {checked:?}");
}
