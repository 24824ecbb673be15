//! Containers inside other files: the files `crates/testkit/src/generators/embedded.rs`
//! makes (checked in under `tests/fixtures/embedded/`) hold real containers of
//! every format among bytes no decoder recognises. The scan finds exactly the
//! containers planted, at their offsets and with their lengths, and nothing in
//! the damaged ones; each is decoded in place, its nodes those its own decoder
//! gives the container alone, moved to its offset; decoded on demand and
//! expanded, the tree is the eager one; cut or with bytes flipped, every file
//! still gives a valid tree. A file of a known format is scanned when asked.

use hexlens_core::formats::embedded;
use hexlens_core::{decode_bytes, decode_with, BitSpan, Kind, NodeId, Options, Tree};
use hexlens_testkit::{generators::embedded as gen, invariants, lazy, lookup, repo};
use invariants::{check, check_json, Rng};

/// Options that scan any file.
fn scanned() -> Options {
    Options {
        scan: true,
        ..Options::default()
    }
}

#[test]
fn the_fixtures_are_what_the_generator_makes() {
    lookup::check_fixtures_current(
        &gen::dir(),
        gen::all().into_iter().map(|(n, b, _)| (n, b)).collect(),
    );
}

#[test]
fn the_scan_finds_exactly_the_containers_planted() {
    for (name, bytes, planted) in gen::all() {
        let s = embedded::scan(&bytes.as_slice());
        let found: Vec<gen::Planted> = s
            .found
            .iter()
            .map(|f| gen::Planted {
                offset: f.offset,
                len: f.len,
                format: f.format,
            })
            .collect();
        assert_eq!(found, planted, "{name}");
        assert!(!s.truncated);
    }
    // Every format is among them.
    let (_, planted) = gen::every_format();
    for f in hexlens_core::formats::catalog() {
        if f.name != "embedded" {
            assert!(planted.iter().any(|p| p.format == f.name), "{}", f.name);
        }
    }
}

/// Copies `t`'s subtree at `id` as (depth, name, kind, span, value), leaving
/// `unknown` runs out and moving spans by `by` bytes.
fn shape(t: &Tree, id: NodeId, by: u64, depth: usize, out: &mut Vec<String>) {
    for &c in t.children(id) {
        if t.kind(c) == Kind::Unknown {
            continue;
        }
        if t.is_page(c) {
            shape(t, c, by, depth, out);
            continue;
        }
        let s = t.span(c);
        let s = BitSpan {
            start: s.start + by * 8,
            end: s.end + by * 8,
        };
        out.push(format!(
            "{depth} {} {:?} {:?} {:?} {:?}",
            t.name(c),
            t.kind(c),
            s,
            t.value(c),
            t.error(c)
        ));
        shape(t, c, by, depth + 1, out);
    }
}

#[test]
fn each_container_is_decoded_in_place_as_its_own_decoder_decodes_it_alone() {
    for (name, bytes, planted) in gen::all() {
        // A file holding a cDAC blob is a cDAC file unless a scan is asked for.
        let auto = decode_bytes(&bytes).format;
        let cdac = planted.iter().any(|p| p.format == "cdac");
        assert_eq!(auto, if cdac { "cdac" } else { "embedded" }, "{name}");
        let d = decode_with(&bytes.as_slice(), &scanned());
        assert_eq!(d.format, "embedded", "{name}");
        check(&d, bytes.len() as u64).unwrap();
        check_json(&d).unwrap();
        let t = &d.tree;
        let root = t.root();
        assert_eq!(
            t.value(root),
            Some(hexlens_core::Value::U(planted.len() as u64))
        );
        let containers: Vec<NodeId> = t
            .children(root)
            .iter()
            .copied()
            .filter(|&c| t.kind(c) != Kind::Unknown)
            .collect();
        assert_eq!(containers.len(), planted.len(), "{name}");
        for (&c, p) in containers.iter().zip(&planted) {
            let format = hexlens_core::formats::by_name(p.format).unwrap();
            assert_eq!(
                t.name(c).to_string(),
                format!("{}@0x{:X}", format.root, p.offset)
            );
            assert_eq!(t.span(c), BitSpan::bytes(p.offset, p.offset + p.len));
            let alone_bytes = &bytes[p.offset as usize..(p.offset + p.len) as usize];
            let alone = hexlens_core::decode_as(format, &alone_bytes);
            let (mut want, mut got) = (Vec::new(), Vec::new());
            shape(&alone.tree, alone.tree.root(), p.offset, 0, &mut want);
            shape(t, c, 0, 0, &mut got);
            assert!(want.len() > 3, "{name}: {} decodes to {want:?}", p.format);
            assert_eq!(got, want, "{name}: {}", t.name(c));
            assert_eq!(t.value(c), alone.tree.value(alone.tree.root()));
            assert_eq!(t.error(c), alone.tree.error(alone.tree.root()));
        }
    }
}

#[test]
fn decoded_on_demand_and_expanded_each_file_is_its_eager_tree() {
    for (name, bytes, _) in gen::all() {
        for page in [3, 1000] {
            lazy::same_as_eager(name, &bytes, page, false);
        }
    }
}

#[test]
fn on_demand_the_containers_wait_until_opened() {
    let (bytes, planted) = gen::every_format();
    let opts = Options {
        scan: true,
        ..hexlens_core::view::viewer_options()
    };
    let d = decode_with(&bytes.as_slice(), &opts);
    let t = &d.tree;
    let lazy = t
        .children(t.root())
        .iter()
        .filter(|&&c| t.is_lazy(c))
        .count();
    assert_eq!(lazy, planted.len());
}

#[test]
fn a_file_with_no_container_is_plain_bytes_with_an_error_saying_so() {
    for bytes in [
        &b""[..],
        b"no signature here",
        b"..DXBC but not a header at all",
    ] {
        let d = decode_bytes(bytes);
        assert_eq!(d.format, "raw");
        let e = d.tree.error(d.tree.root()).unwrap().to_string();
        assert!(
            e.contains("no container of a known format was found inside it"),
            "{e}"
        );
        check(&d, bytes.len() as u64).unwrap();
    }
}

#[test]
fn any_file_is_scanned_when_asked() {
    let scan = scanned();
    // A DirectX Container is one container, the whole file.
    let dxil =
        std::fs::read(repo::root().join("static/samples/basic_code_dxil.dxil.dxbc")).unwrap();
    let d = decode_with(&dxil.as_slice(), &scan);
    assert_eq!(d.format, "embedded");
    let kids = d.tree.children(d.tree.root());
    assert_eq!(kids.len(), 1);
    assert_eq!(d.tree.name(kids[0]).to_string(), "DXContainer@0x0");
    assert_eq!(d.tree.span(kids[0]), BitSpan::bytes(0, dxil.len() as u64));
    // A PDB holding a DirectX Container in a stream is one container too: the
    // container inside shows inside it.
    let pdb = std::fs::read(repo::fixtures().join("msf/dxc_dxil_shader.pdb")).unwrap();
    let d = decode_with(&pdb.as_slice(), &scan);
    let t = &d.tree;
    let kids: Vec<_> = t
        .children(t.root())
        .iter()
        .filter(|&&c| t.kind(c) != Kind::Unknown)
        .map(|&c| t.name(c).to_string())
        .collect();
    assert_eq!(kids, ["MSF@0x0"]);
    // Not asked, each decodes as its own format.
    assert_eq!(decode_bytes(&pdb).format, "msf");
}

#[test]
fn cut_or_flipped_the_files_still_give_valid_trees() {
    let mut rng = Rng(0xE3BE_DDED);
    for (name, bytes, _) in gen::all() {
        let step = (bytes.len() / 97).max(1);
        for n in (0..bytes.len()).step_by(step) {
            let d = decode_bytes(&bytes[..n]);
            check(&d, n as u64).unwrap_or_else(|e| panic!("{name} cut at {n}: {e}"));
        }
        for _ in 0..40 {
            let b = rng.corrupt(&bytes);
            let d = decode_bytes(&b);
            check(&d, b.len() as u64).unwrap_or_else(|e| panic!("{name} flipped: {e}"));
        }
    }
}
