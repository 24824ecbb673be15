//! The streaming dump (decode on demand, write as the walk goes, release what
//! was written) against the eager dump, for every file the tests have: every
//! fixture of every format, every DirectX Container of the shared corpus, the
//! hostile and fuzz-regression files, and damaged copies of the bitcode-holding
//! samples. With pages of 1, 3 and 1000 entries, the JSON and text must be the
//! same bytes; a depth limit must give the eager tree pruned at that depth, and
//! selecting a path the eager subtree at that path.

use hexlens_core::stream::{self, Limits};
use hexlens_core::{output, Decoded, Options};
use hexlens_testkit::{invariants, lazy, repo};
use lazy::streamed_with as streamed;
use serde_json::Value as J;
use std::path::PathBuf;

fn options(page: u32) -> Options {
    Options {
        lazy_threshold: Some(0),
        page_size: Some(page),
        exact_totals: true,
        scan: false,
        skip_digests: false,
    }
}

fn eager(data: &[u8]) -> Decoded {
    hexlens_core::decode_bytes(data)
}

/// Asserts the streaming dumps of `data` equal its eager dumps.
fn same_dumps(what: &str, data: &[u8], pages: &[u32]) {
    let e = eager(data);
    let json = output::to_json(&e) + "\n";
    let text = output::to_text(&e);
    for &p in pages {
        let (sj, clean) = streamed(data, &options(p), Limits::default(), true);
        assert!(
            sj == json,
            "{what}: streaming JSON (pages of {p}) differs from the eager JSON at byte {}",
            first_difference(&sj, &json)
        );
        assert_eq!(clean, e.is_clean(), "{what}: cleanliness (pages of {p})");
        let (st, clean) = streamed(data, &options(p), Limits::default(), false);
        assert!(
            st == text,
            "{what}: streaming text (pages of {p}) differs from the eager text at byte {}:\n{}",
            first_difference(&st, &text),
            context(&st, first_difference(&st, &text))
        );
        assert_eq!(
            clean,
            e.is_clean(),
            "{what}: cleanliness (text, pages of {p})"
        );
    }
}

fn first_difference(a: &str, b: &str) -> usize {
    a.bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()))
}

fn context(s: &str, at: usize) -> String {
    let from = s[..at.min(s.len())].rfind('\n').unwrap_or(0);
    s[from..].lines().take(4).collect::<Vec<_>>().join("\n")
}

fn fixture_files() -> Vec<PathBuf> {
    let mut files = repo::files_under(&repo::fixtures());
    files.retain(|f| {
        let name = f.file_name().unwrap().to_string_lossy();
        !name.ends_with(".md") && !name.ends_with(".txt") && !name.ends_with(".ll")
    });
    files.sort();
    files
}

#[test]
fn every_fixture_streams_to_the_same_bytes_as_an_eager_dump() {
    let files = fixture_files();
    assert!(files.len() > 50, "only {} fixtures found", files.len());
    for f in &files {
        let data = std::fs::read(f).unwrap();
        same_dumps(&f.display().to_string(), &data, &[1, 3, 1000]);
    }
}

#[test]
fn every_corpus_container_streams_to_the_same_bytes_as_an_eager_dump() {
    let mut files = repo::files_under(&repo::dxcontainer_samples());
    files.retain(|f| f.extension().is_some_and(|e| e != "txt" && e != "md"));
    assert!(
        files.len() > 1000,
        "only {} corpus files found",
        files.len()
    );
    let mut with_pages = 0;
    for (i, f) in files.iter().enumerate() {
        let data = std::fs::read(f).unwrap();
        // Every file with pages of 1000 and 2; one in ten also with pages of 1.
        let pages: &[u32] = if i % 10 == 0 {
            &[1, 2, 1000]
        } else {
            &[2, 1000]
        };
        same_dumps(&f.display().to_string(), &data, pages);
        let mut d = hexlens_core::decode_with(&data.as_slice(), &options(2));
        let lazy: Vec<_> = (0..d.tree.len() as u32)
            .filter(|&id| d.tree.node(id).lazy)
            .collect();
        for id in lazy {
            hexlens_core::expand(&data.as_slice(), &mut d.tree, id).unwrap();
        }
        if d.tree.nodes().iter().any(|n| n.page) {
            with_pages += 1;
        }
    }
    // The corpus's DXIL parts are big enough to page: the test saw pages.
    assert!(with_pages > 100, "only {with_pages} files had pages");
}

/// Byte flips inside the bitcode of DXIL samples: the skim must turn down every
/// stream whose eager decode reports an error, or the streaming dump, which
/// trusts lazy parts the skim vouched for, would differ.
#[test]
fn damaged_bitcode_streams_to_the_same_bytes_as_an_eager_dump() {
    let mut files = repo::files_under(&repo::curated_dir());
    files.retain(|f| f.to_string_lossy().contains("dxil"));
    files.sort();
    assert!(!files.is_empty());
    let mut rng = invariants::Rng(0x5eed_57e4);
    let mut damaged = 0;
    for f in &files {
        let data = std::fs::read(f).unwrap();
        for _ in 0..40 {
            let bad = rng.corrupt(&data);
            if !eager(&bad).is_clean() {
                damaged += 1;
            }
            same_dumps(&format!("{} (corrupted)", f.display()), &bad, &[3]);
            same_damage_unvouched(&format!("{} (corrupted)", f.display()), &bad);
        }
    }
    assert!(damaged > 100, "only {damaged} corrupted files had errors");
}

/// Without exact totals, lazy blocks may hide errors; the survey must find
/// them, so the streaming JSON has the damage flags and errors of the same lazy
/// tree with every lazy node expanded in place. (Not those of an eager decode: a
/// lazy block is decoded with the BLOCKINFO state in force where it starts, so
/// a BLOCKINFO block that damage put inside a lazy block does not reach the
/// blocks after it.)
fn same_damage_unvouched(what: &str, data: &[u8]) {
    let opts = Options {
        exact_totals: false,
        ..options(3)
    };
    let mut whole = hexlens_core::decode_with(&data, &opts);
    loop {
        let lazy: Vec<u32> = (0..whole.tree.len() as u32)
            .filter(|&id| whole.tree.node(id).lazy)
            .collect();
        if lazy.is_empty() {
            break;
        }
        for id in lazy {
            hexlens_core::expand(&data, &mut whole.tree, id).unwrap();
        }
    }
    let want = output::to_json(&whole) + "\n";
    let (got, clean) = streamed(data, &opts, Limits::default(), true);
    assert_eq!(
        clean,
        whole.is_clean(),
        "{what}: cleanliness without exact totals"
    );
    if got != want {
        let _ = std::fs::write(
            std::env::temp_dir().join("hexlens-streaming-failure.bin"),
            data,
        );
        let (a, b): (J, J) = (
            serde_json::from_str(&got).unwrap(),
            serde_json::from_str(&want).unwrap(),
        );
        panic!(
            "{what}: streaming without exact totals differs from the lazy tree expanded in place at {:?} (file written to the temp dir as hexlens-streaming-failure.bin)",
            json_difference(&a, &b, String::new())
        );
    }
}

/// Where two JSON values first differ (a path of keys and indices).
fn json_difference(a: &J, b: &J, at: String) -> Option<String> {
    match (a, b) {
        (J::Object(x), J::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let (p, q) = (x.get(k), y.get(k));
                match (p, q) {
                    (Some(p), Some(q)) => {
                        if let Some(d) = json_difference(p, q, format!("{at}.{k}")) {
                            return Some(d);
                        }
                    }
                    _ => return Some(format!("{at}.{k}: {p:?} vs {q:?}")),
                }
            }
            None
        }
        (J::Array(x), J::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{at}: {} vs {} elements", x.len(), y.len()));
            }
            x.iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (p, q))| json_difference(p, q, format!("{at}[{i}]")))
        }
        _ => (a != b).then(|| format!("{at}: {a} vs {b}")),
    }
}

/// The eager JSON tree of `v` with children deeper than `max` levels below it
/// replaced by a `hidden_children` count.
fn pruned(v: &J, max: usize) -> J {
    let mut v = v.clone();
    if let Some(kids) = v.get("children").and_then(J::as_array).cloned() {
        let o = v.as_object_mut().unwrap();
        if max == 0 {
            o.remove("children");
            o.insert("hidden_children".into(), J::from(kids.len()));
        } else {
            let kids: Vec<J> = kids.iter().map(|k| pruned(k, max - 1)).collect();
            o.insert("children".into(), J::Array(kids));
        }
    }
    v
}

/// Parses JSON however deep it nests (decoded fuzz inputs nest deeper than
/// serde_json's default limit); call on a thread with a big stack.
fn parse(s: &str) -> J {
    use serde::Deserialize;
    let mut de = serde_json::Deserializer::from_str(s);
    de.disable_recursion_limit();
    J::deserialize(&mut de).unwrap()
}

#[test]
fn a_depth_limit_and_a_selected_path_give_the_eager_tree_pruned_and_cut() {
    // On a big stack: the JSON values of deep trees are parsed, compared and
    // dropped recursively.
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(depth_limits_and_selections)
        .unwrap()
        .join()
        .unwrap();
}

fn depth_limits_and_selections() {
    // The hostile files (100,000 levels deep) are left to the byte-exact test.
    let mut files: Vec<PathBuf> = fixture_files()
        .into_iter()
        .filter(|f| !f.to_string_lossy().contains("hostile"))
        .collect();
    let curated = repo::files_under(&repo::curated_dir());
    files.extend(
        curated
            .into_iter()
            .filter(|f| f.to_string_lossy().contains("dxil")),
    );
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let e = eager(&data);
        let ej: J = parse(&output::to_json(&e));
        for max in [0usize, 1, 3, 6] {
            let limits = Limits {
                max_depth: Some(max),
                ..Default::default()
            };
            let (sj, _) = streamed(&data, &options(3), limits, true);
            let sj: J = parse(&sj);
            assert_eq!(
                sj["tree"],
                pruned(&ej["tree"], max),
                "{}: depth {max}",
                f.display()
            );
        }
        // Select every node down to depth 4 whose path is unique.
        let mut paths = Vec::new();
        e.tree.walk(|id, depth| {
            if depth <= 4 {
                paths.push(e.tree.path(id));
            }
        });
        for p in paths.iter().step_by(7) {
            if e.tree.find(p).map(|id| e.tree.path(id)) != Some(p.clone()) {
                continue;
            }
            let want = e.tree.find(p).unwrap();
            let mut d = hexlens_core::decode_with(&data.as_slice(), &options(3));
            let id = stream::select(&data.as_slice(), &mut d.tree, p)
                .unwrap_or_else(|| panic!("{}: select {p} found nothing", f.display()));
            assert_eq!(d.tree.path(id), *p);
            let mut out = Vec::new();
            stream::write_json(&data.as_slice(), &mut d, id, Limits::default(), &mut out).unwrap();
            let got: J = parse(std::str::from_utf8(&out).unwrap());
            // The eager subtree at the same path.
            let mut node = &ej["tree"];
            if !p.is_empty() {
                for seg in p.split('/') {
                    node = node["children"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|c| c["name"] == seg)
                        .unwrap();
                }
            }
            if node.get("damaged").is_some() && got["tree"].get("damaged").is_none() {
                // Only a surveyed tree knows a lazy part's damage up front.
                continue;
            }
            // Nor does it know it for the lazy groups below the selected node
            // (written before their children were decoded): those may lack the
            // flag the eager tree gives them, and nothing else may differ.
            let node = &without_unknown_damage(node, &got["tree"]);
            assert_eq!(
                &got["tree"],
                node,
                "{}: selected {p} (eager node {want})",
                f.display()
            );
        }
    }
}

#[test]
fn a_streaming_walk_releases_what_it_wrote() {
    // The biggest curated DXIL sample: the tree after a full streaming dump holds
    // no more nodes than right after decoding.
    let mut files = repo::files_under(&repo::curated_dir());
    files.retain(|f| f.to_string_lossy().contains("dxil"));
    let f = files
        .iter()
        .max_by_key(|f| std::fs::metadata(f).unwrap().len())
        .unwrap();
    let data = std::fs::read(f).unwrap();
    let mut d = hexlens_core::decode_with(&data.as_slice(), &options(3));
    let before = d.tree.len();
    assert!(d.tree.lazy_count() > 0, "{}: nothing lazy", f.display());
    let mut out = Vec::new();
    let root = d.tree.root();
    stream::write_json(&data.as_slice(), &mut d, root, Limits::default(), &mut out).unwrap();
    assert_eq!(d.tree.len(), before);
    assert!(out.len() > 100 * before, "{} bytes of JSON", out.len());
}

#[test]
fn a_released_node_is_as_before_and_decodes_again_to_the_same_subtree() {
    let mut files = repo::files_under(&repo::curated_dir());
    files.retain(|f| f.to_string_lossy().contains("dxil"));
    files.sort();
    let mut checked = 0;
    for f in files.iter().take(10) {
        let data = std::fs::read(f).unwrap();
        let src = data.as_slice();
        let mut d = hexlens_core::decode_with(&src, &options(3));
        let lazy: Vec<u32> = (0..d.tree.len() as u32)
            .filter(|&id| d.tree.node(id).lazy)
            .collect();
        for id in lazy {
            let before = format!("{:?}", d.tree.node(id));
            let len = d.tree.len();
            hexlens_core::expand(&src, &mut d.tree, id).unwrap();
            let mut first = Vec::new();
            stream::write_json(&src, &mut d, id, Limits::default(), &mut first).unwrap();
            hexlens_core::release(&mut d.tree, id).unwrap();
            assert_eq!(d.tree.len(), len);
            assert_eq!(format!("{:?}", d.tree.node(id)), before, "{}", f.display());
            hexlens_core::expand(&src, &mut d.tree, id).unwrap();
            let mut again = Vec::new();
            stream::write_json(&src, &mut d, id, Limits::default(), &mut again).unwrap();
            assert!(
                first == again,
                "{}: node {id} decodes differently",
                f.display()
            );
            hexlens_core::release(&mut d.tree, id).unwrap();
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked}");
}

/// `want` without the `damaged` flags that `got` lacks at the same place (the
/// two trees have the same shape where they agree).
fn without_unknown_damage(want: &J, got: &J) -> J {
    let mut out = want.clone();
    if let (Some(w), Some(g)) = (out.as_object_mut(), got.as_object()) {
        if g.get("damaged").is_none() {
            w.remove("damaged");
        }
        if let (Some(wk), Some(gk)) = (w.get("children").cloned(), g.get("children")) {
            if let (Some(wk), Some(gk)) = (wk.as_array(), gk.as_array()) {
                if wk.len() == gk.len() {
                    let kids = wk
                        .iter()
                        .zip(gk)
                        .map(|(a, b)| without_unknown_damage(a, b))
                        .collect();
                    w.insert("children".into(), J::Array(kids));
                }
            }
        }
    }
    out
}

/// Marks every part of a text line with `<part>` … `</part>`, in characters no
/// fixture holds.
fn marking_style() -> output::TextStyle {
    let mark = |p: &str| output::Paint::new(format!("\u{E000}{p}>"), format!("\u{E000}/{p}>"));
    output::TextStyle {
        span: mark("span"),
        name: mark("name"),
        unknown: mark("unknown"),
        value: mark("value"),
        display: mark("display"),
        error: mark("error"),
        note: mark("note"),
    }
}

/// `text` with the marks of [`marking_style`] removed.
fn unmarked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\u{E000}') {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        rest = &after[after.find('>').unwrap() + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn a_styled_text_dump_is_the_plain_dump_with_each_part_marked() {
    use hexlens_core::stream::DumpForm;
    let style = marking_style();
    let (mut unknowns, mut errors, mut hidden) = (0, 0, 0);
    for f in fixture_files() {
        let data = std::fs::read(&f).unwrap();
        let what = f.display();
        for depth in [None, Some(1)] {
            let mut plain = Vec::new();
            let clean =
                stream::dump(&data, None, DumpForm::Text, depth, false, &mut plain).unwrap();
            let mut styled = Vec::new();
            let styled_clean = stream::dump_styled(
                &data,
                None,
                DumpForm::Text,
                depth,
                false,
                &style,
                &mut styled,
            )
            .unwrap();
            assert_eq!(clean, styled_clean, "{what}");
            let (plain, styled) = (
                String::from_utf8(plain).unwrap(),
                String::from_utf8(styled).unwrap(),
            );
            assert!(unmarked(&styled) == plain, "{what} ({depth:?})");
            let mut error_lines = 0;
            // The header line is not styled; every node line starts with its span.
            for line in styled.lines().skip(1) {
                if line.trim_start().starts_with("\u{E000}error>! ") {
                    error_lines += 1;
                    assert!(line.ends_with("\u{E000}/error>"), "{what}: {line}");
                } else if line.starts_with("\u{E000}error>") {
                    assert!(line.ends_with(" error(s)\u{E000}/error>"), "{what}: {line}");
                } else {
                    assert!(line.starts_with("\u{E000}span>"), "{what}: {line}");
                    if line.contains("\u{E000}note>[unknown]") {
                        unknowns += 1;
                        assert!(
                            line.contains("\u{E000}unknown>") && !line.contains("\u{E000}name>"),
                            "{what}: {line}"
                        );
                    } else {
                        assert!(line.contains("\u{E000}name>"), "{what}: {line}");
                    }
                    if line.contains(" not shown]") {
                        hidden += 1;
                        assert!(
                            line.ends_with(" not shown]\u{E000}/note>"),
                            "{what}: {line}"
                        );
                    }
                }
                // Every part opened is closed on its line.
                for part in [
                    "span", "name", "unknown", "value", "display", "error", "note",
                ] {
                    let open = format!("\u{E000}{part}>");
                    let close = format!("\u{E000}/{part}>");
                    assert_eq!(
                        line.matches(&open).count(),
                        line.matches(&close).count(),
                        "{what}: {line}"
                    );
                }
            }
            assert_eq!(
                error_lines,
                plain
                    .lines()
                    .filter(|l| l.trim_start().starts_with("! "))
                    .count(),
                "{what}"
            );
            errors += error_lines;
        }
    }
    // The fixtures hold every kind of line.
    assert!(
        unknowns > 0 && errors > 0 && hidden > 0,
        "{unknowns} {errors} {hidden}"
    );
}
