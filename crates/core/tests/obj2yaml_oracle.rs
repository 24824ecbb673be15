//! Oracle test: LLVM 19's `obj2yaml` reading of every real DirectX Container in the
//! shared vkd3d-proton corpus, compared value by value with hexlens-core's tree.
//!
//! Every scalar obj2yaml prints is looked up in the tree by its YAML path (mapping
//! keys joined with `/`, sequence elements as `[i]`; a path must name exactly one
//! node, see [`resolve`]) and must equal the node's value
//! (or, for enum fields whose value is the raw number, its `display`). Lists of
//! scalars match either the node's `[i]` children one for one or the node's own
//! bytes. Files obj2yaml rejects must still decode, and must be explained by the
//! one LLVM 19 defect found (see [`psv0_unaligned`]).
//!
//! A second test checks the curated fixtures without shared/ or LLVM: clean decode,
//! valid JSON, children nested in parents, non-overlapping siblings.

use hexlens_core::{decode_bytes, Decoded, Name, Node, NodeId, Tree, Value};
use hexlens_testkit::{repo, tools};
use serde_yaml::Value as Y;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// How many obj2yaml processes run at once.
const WORKERS: usize = 2;

/// One value where hexlens disagrees with obj2yaml.
struct Mismatch {
    file: String,
    path: String,
    expected: String,
    found: String,
}

/// The outcome for one corpus file.
#[derive(Default)]
struct FileReport {
    rel: String,
    accepted: bool,
    compared: usize,
    matched: usize,
    clean: bool,
    mismatches: Vec<Mismatch>,
    /// Failed structural assertions (not YAML values).
    problems: Vec<String>,
    /// For rejected files: the one-line description.
    rejected_line: Option<String>,
}

/// Compares one obj2yaml document with one hexlens tree.
struct Checker<'a> {
    file: &'a str,
    tree: &'a Tree,
    bytes: &'a [u8],
    compared: usize,
    matched: usize,
    mismatches: Vec<Mismatch>,
}

fn is_scalar(y: &Y) -> bool {
    matches!(y, Y::Null | Y::Bool(_) | Y::Number(_) | Y::String(_))
}

fn yaml_scalar_text(y: &Y) -> String {
    match y {
        Y::Null => "null".into(),
        Y::Bool(b) => b.to_string(),
        Y::Number(n) => n.to_string(),
        Y::String(s) => format!("{s:?}"),
        other => format!("{other:?}"),
    }
}

fn list_text(items: &[String]) -> String {
    const SHOWN: usize = 12;
    let mut s = items
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > SHOWN {
        s.push_str(&format!(", … ({} items)", items.len()));
    }
    format!("[{s}]")
}

fn node_text(n: &Node) -> String {
    let mut s = format!("{}", n.kind);
    if let Some(v) = &n.value {
        s.push_str(&format!(" value={v}"));
    }
    if let Some(d) = &n.display {
        s.push_str(&format!(" display={d:?}"));
    }
    if let Some(e) = &n.error {
        s.push_str(&format!(" error={e:?}"));
    }
    s
}

/// True if a YAML scalar equals a node: integers and bools by value, strings by
/// `Value::Str` or (enum fields, whose value is the raw number) by `display`.
fn scalar_matches(y: &Y, n: &Node) -> bool {
    match y {
        Y::Number(num) => {
            if let Some(u) = num.as_u64() {
                match n.value {
                    Some(Value::U(v)) => v == u,
                    Some(Value::I(v)) => v >= 0 && v as u64 == u,
                    _ => false,
                }
            } else if let Some(i) = num.as_i64() {
                matches!(n.value, Some(Value::I(v)) if v == i)
            } else if let Some(f) = num.as_f64() {
                matches!(n.value, Some(Value::F(v)) if v == f || (v.is_nan() && f.is_nan()))
            } else {
                false
            }
        }
        Y::Bool(b) => n.value == Some(Value::Bool(*b)),
        Y::String(s) => {
            n.value.as_ref().and_then(Value::as_str) == Some(s.as_str())
                || n.display.as_deref() == Some(s.as_str())
        }
        _ => false,
    }
}

/// The tree's name for a YAML mapping key under `parent` (a tree path).
fn tree_key<'k>(parent: &str, key: &'k str) -> &'k str {
    // The one documented rename. LLVM 19 declares SFI0 flag bit 31 as
    // `NextUnusedBit` (a sentinel: it was the first undefined bit when LLVM 19 was
    // cut) and obj2yaml-19 prints it like a flag. DirectX later defined bit 31 as
    // `SampleCmpWithGradientOrBias` (SM 6.8), the name LLVM 20+ and hexlens use.
    // Same bit, newer name.
    let segs: Vec<&str> = parent.split('/').collect();
    if key == "NextUnusedBit" && segs.len() == 3 && segs[0] == "Parts" && segs[2] == "Flags" {
        "SampleCmpWithGradientOrBias"
    } else {
        key
    }
}

impl Checker<'_> {
    fn mismatch(&mut self, path: &str, expected: String, found: String) {
        self.mismatches.push(Mismatch {
            file: self.file.to_string(),
            path: path.to_string(),
            expected,
            found,
        });
    }

    fn walk(&mut self, y: &Y, path: &str) {
        match y {
            Y::Mapping(m) => {
                for (k, v) in m {
                    let key = match k {
                        Y::String(s) => s.clone(),
                        other => yaml_scalar_text(other),
                    };
                    let seg = tree_key(path, &key);
                    let child = if path.is_empty() {
                        seg.to_string()
                    } else {
                        format!("{path}/{seg}")
                    };
                    self.walk(v, &child);
                }
            }
            Y::Sequence(items) if items.iter().all(is_scalar) => self.scalar_list(path, items),
            Y::Sequence(items) => {
                if let Ok(id) = resolve(self.tree, path) {
                    let n = index_children(self.tree, id).len();
                    if n != items.len() {
                        self.mismatch(
                            path,
                            format!("{} elements", items.len()),
                            format!("{n} [i] children"),
                        );
                    }
                }
                for (i, item) in items.iter().enumerate() {
                    self.walk(item, &format!("{path}/[{i}]"));
                }
            }
            Y::Tagged(t) => {
                self.compared += 1;
                self.mismatch(path, format!("tagged YAML {}", t.tag), "unsupported".into());
            }
            scalar => self.scalar(path, scalar),
        }
    }

    fn scalar(&mut self, path: &str, y: &Y) {
        self.compared += 1;
        match resolve(self.tree, path) {
            Err(why) => self.mismatch(path, yaml_scalar_text(y), why),
            Ok(id) => {
                let n = self.tree.node(id);
                if scalar_matches(y, &n) {
                    self.matched += 1;
                } else {
                    self.mismatch(path, yaml_scalar_text(y), node_text(&n));
                }
            }
        }
    }

    /// A list of scalars: matches the node's `[i]` children one for one, or the
    /// node's own bytes (when every element is a byte). Each element counts as one
    /// compared value; an empty list counts as one.
    fn scalar_list(&mut self, path: &str, items: &[Y]) {
        let count = items.len().max(1);
        self.compared += count;
        let expected = list_text(&items.iter().map(yaml_scalar_text).collect::<Vec<_>>());
        let id = match resolve(self.tree, path) {
            Ok(id) => id,
            Err(why) => {
                self.mismatch(path, expected, why);
                return;
            }
        };
        let kids = index_children(self.tree, id);
        let by_children = kids.len() == items.len()
            && kids
                .iter()
                .zip(items)
                .all(|(&c, y)| scalar_matches(y, &self.tree.node(c)));
        let span = self.tree.node(id).span;
        let own = self
            .bytes
            .get(span.start_byte() as usize..span.end_byte() as usize)
            .unwrap_or_default();
        let as_bytes: Option<Vec<u8>> = items
            .iter()
            .map(|y| y.as_u64().and_then(|v| u8::try_from(v).ok()))
            .collect();
        let by_bytes = !items.is_empty() && as_bytes.as_deref() == Some(own);
        if by_children || by_bytes {
            self.matched += count;
            return;
        }
        let kid_text = list_text(
            &kids
                .iter()
                .map(|&c| {
                    let n = self.tree.node(c);
                    n.value
                        .as_ref()
                        .map(|v| v.to_string())
                        .unwrap_or_else(|| n.kind.to_string())
                })
                .collect::<Vec<_>>(),
        );
        let byte_text = list_text(&own.iter().map(|b| format!("{b:#x}")).collect::<Vec<_>>());
        self.mismatch(
            path,
            expected,
            format!(
                "{}; [i] children {kid_text}; own bytes {byte_text}",
                node_text(&self.tree.node(id))
            ),
        );
    }
}

/// The node at a YAML path. Like [`Tree::find`], but a segment that names more than
/// one sibling is an error rather than silently the first: the oracle addresses
/// nodes by path, so a path must name exactly one node.
fn resolve(tree: &Tree, path: &str) -> Result<NodeId, String> {
    let mut cur = tree.root();
    if path.is_empty() {
        return Ok(cur);
    }
    for seg in path.split('/') {
        let hits: Vec<NodeId> = tree
            .node(cur)
            .children
            .iter()
            .copied()
            .filter(|&c| tree.node(c).name.to_string() == seg)
            .collect();
        match hits[..] {
            [one] => cur = one,
            [] => return Err("no node at this path".into()),
            _ => {
                return Err(format!(
                    "ambiguous path: {} siblings named {seg:?} under {:?} ({})",
                    hits.len(),
                    tree.path(cur),
                    hits.iter()
                        .map(|&h| node_text(&tree.node(h)))
                        .collect::<Vec<_>>()
                        .join("; ")
                ))
            }
        }
    }
    Ok(cur)
}

/// The children of `id` named `[0]`, `[1]`, … in order (stops at the first gap).
fn index_children(tree: &Tree, id: NodeId) -> Vec<NodeId> {
    let mut out = Vec::new();
    for &c in &tree.node(id).children {
        if tree.node(c).name == Name::Index(out.len() as u32) {
            out.push(c);
        }
    }
    out
}

fn u_at(tree: &Tree, path: &str) -> Option<u64> {
    resolve(tree, path)
        .ok()
        .and_then(|id| tree.node(id).value.as_ref().and_then(Value::as_u64))
}

fn str_at(tree: &Tree, path: &str) -> Option<String> {
    resolve(tree, path).ok().and_then(|id| {
        tree.node(id)
            .value
            .as_ref()
            .and_then(Value::as_str)
            .map(str::to_string)
    })
}

/// One part as hexlens read it.
struct PartInfo {
    index: usize,
    fourcc: String,
    offset: Option<u64>,
}

fn parts(tree: &Tree) -> Vec<PartInfo> {
    (0..)
        .map_while(|i| {
            resolve(tree, &format!("Parts/[{i}]")).ok()?;
            Some(PartInfo {
                index: i,
                fourcc: str_at(tree, &format!("Parts/[{i}]/Name")).unwrap_or_else(|| "?".into()),
                offset: u_at(tree, &format!("Header/PartOffsets/[{i}]")),
            })
        })
        .collect()
}

/// PSV0 parts of version 1 or later whose part offset is not a multiple of 4.
///
/// LLVM 19 `DirectX::PSVRuntimeInfo::parse` (llvm/lib/Object/DXContainer.cpp)
/// aligns the string-table read position with
/// `alignTo<4>(reinterpret_cast<uintptr_t>(Current))`: it aligns the *memory
/// address*, not the offset inside the part. Everything before the string table
/// (size field, RuntimeInfo of 36/48/52 bytes, resource count, stride, records)
/// is a multiple of 4 bytes long, so the read position is 4-aligned relative to the
/// part and the round-up is a no-op exactly when the PSV0 part itself starts at a
/// 4-aligned file offset (obj2yaml's buffer is aligned). Otherwise LLVM skips 1-3
/// bytes, reads StringTableSize from the wrong place and a later read runs off
/// the part: "Reading structure out of file bounds". PSV v0 returns before the
/// string table and is unaffected.
fn psv0_unaligned(tree: &Tree) -> Vec<String> {
    parts(tree)
        .into_iter()
        .filter(|p| p.fourcc == "PSV0")
        .filter(|p| u_at(tree, &format!("Parts/[{}]/PSVInfo/Version", p.index)).unwrap_or(0) >= 1)
        .filter_map(|p| {
            let off = p.offset?;
            (off % 4 != 0).then(|| format!("[{}] PSV0 at {off} ({off} % 4 = {})", p.index, off % 4))
        })
        .collect()
}

/// One line saying what a file holds: parts, unaligned offsets, shader model, PSV
/// version, hexlens errors.
fn describe(d: &Decoded) -> String {
    let tree = &d.tree;
    let ps = parts(tree);
    let names: Vec<&str> = ps.iter().map(|p| p.fourcc.as_str()).collect();
    let unaligned: Vec<String> = ps
        .iter()
        .filter_map(|p| {
            let off = p.offset?;
            (off % 4 != 0).then(|| format!("[{}]{}@{off}", p.index, p.fourcc))
        })
        .collect();
    let sm = ps.iter().find_map(|p| {
        let base = format!("Parts/[{}]/Program", p.index);
        Some(format!(
            "{}.{}",
            u_at(tree, &format!("{base}/MajorVersion"))?,
            u_at(tree, &format!("{base}/MinorVersion"))?
        ))
    });
    let psv = ps
        .iter()
        .find_map(|p| u_at(tree, &format!("Parts/[{}]/PSVInfo/Version", p.index)));
    let errors: Vec<String> = tree
        .errors()
        .into_iter()
        .map(|id| {
            format!(
                "{}: {}",
                tree.path(id),
                tree.node(id).error.as_deref().unwrap_or_default()
            )
        })
        .collect();
    format!(
        "parts {}; unaligned offsets {}; SM {}; PSV v{}; hexlens errors: {}",
        names.join(","),
        if unaligned.is_empty() {
            "none".to_string()
        } else {
            unaligned.join(" ")
        },
        sm.as_deref().unwrap_or("-"),
        psv.map_or("-".to_string(), |v| v.to_string()),
        if errors.is_empty() {
            "none".to_string()
        } else {
            errors.join(" | ")
        }
    )
}

fn check_file(path: &Path, rel: &str, obj2yaml: &Path) -> FileReport {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {rel}: {e}"));
    let decoded = decode_bytes(&bytes);
    let out = Command::new(obj2yaml)
        .arg(path)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", obj2yaml.display()));
    let mut r = FileReport {
        rel: rel.to_string(),
        accepted: out.status.success(),
        clean: decoded.is_clean(),
        ..FileReport::default()
    };
    if decoded.format != "dxcontainer" {
        r.problems.push(format!(
            "{rel}: decoded as {:?}, not dxcontainer",
            decoded.format
        ));
    }
    if r.accepted {
        let text = String::from_utf8_lossy(&out.stdout);
        let text = text.replacen("--- !dxcontainer", "---", 1);
        let doc: Y = match serde_yaml::from_str(&text) {
            Ok(doc) => doc,
            Err(e) => {
                r.problems.push(format!(
                    "{rel}: obj2yaml output is not YAML serde_yaml reads: {e}"
                ));
                return r;
            }
        };
        let mut c = Checker {
            file: rel,
            tree: &decoded.tree,
            bytes: &bytes,
            compared: 0,
            matched: 0,
            mismatches: Vec::new(),
        };
        c.walk(&doc, "");
        r.compared = c.compared;
        r.matched = c.matched;
        r.mismatches = c.mismatches;
        // The converse of the rejection explanation: LLVM accepted it, so no PSV0
        // (v1+) part may start at an unaligned offset.
        let unaligned = psv0_unaligned(&decoded.tree);
        if !unaligned.is_empty() {
            r.problems.push(format!(
                "{rel}: obj2yaml accepted it although {} (the rejection explanation is wrong)",
                unaligned.join(", ")
            ));
        }
    } else {
        let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
        r.rejected_line = Some(format!("{rel}: {}", describe(&decoded)));
        if parts(&decoded.tree).is_empty() {
            r.problems.push(format!(
                "{rel}: rejected by obj2yaml and hexlens found no Parts"
            ));
        }
        if !stderr.contains("Reading structure out of file bounds") {
            r.problems.push(format!(
                "{rel}: obj2yaml rejected it with an unexpected message: {stderr}"
            ));
        }
        if psv0_unaligned(&decoded.tree).is_empty() {
            r.problems.push(format!(
                "{rel}: obj2yaml rejected it but it has no PSV0 (v1+) part at an offset \
                 that is not a multiple of 4; {}",
                describe(&decoded)
            ));
        }
    }
    r
}

/// The relative paths LLVM 19's obj2yaml is documented to reject.
fn documented_failures(corpus: &Path) -> BTreeSet<String> {
    let list = corpus.join("llvm19-obj2yaml-failures.txt");
    std::fs::read_to_string(&list)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", list.display()))
        .lines()
        .filter_map(|l| l.strip_prefix("FAIL "))
        .filter_map(|l| l.split(": ").next())
        .map(str::to_string)
        .collect()
}

/// `Parts/[3]/PSVInfo/Resources/[0]/Type` → `Parts/[]/PSVInfo/Resources/[]/Type`.
fn pattern(path: &str) -> String {
    path.split('/')
        .map(|s| if s.starts_with('[') { "[]" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn hexlens_agrees_with_llvm19_obj2yaml_on_every_dxcontainer_sample() {
    let started = Instant::now();
    let corpus = repo::dxcontainer_corpus();
    let obj2yaml = tools::obj2yaml_19();
    let files = repo::files_with_suffix(&corpus, ".dxbc");
    assert!(
        !files.is_empty(),
        "no *.dxbc files under {}",
        corpus.display()
    );

    let reports: Vec<FileReport> = repo::for_each_file(&files, &corpus, WORKERS, |path, rel| {
        check_file(path, rel, &obj2yaml)
    });

    let accepted = reports.iter().filter(|r| r.accepted).count();
    let rejected = reports.len() - accepted;
    let compared: usize = reports.iter().map(|r| r.compared).sum();
    let matched: usize = reports.iter().map(|r| r.matched).sum();
    let clean = reports.iter().filter(|r| r.clean).count();
    let totals = format!(
        "files in corpus: {}; obj2yaml accepted: {accepted}; obj2yaml rejected: {rejected}; \
         YAML values compared: {compared}; matched: {matched}; \
         files hexlens decoded with zero errors: {clean}/{}",
        reports.len(),
        reports.len()
    );

    println!("obj2yaml rejects {rejected} files; what they contain:");
    for line in reports.iter().filter_map(|r| r.rejected_line.as_deref()) {
        println!("  REJECTED {line}");
    }
    let unclean: Vec<&str> = reports
        .iter()
        .filter(|r| !r.clean)
        .map(|r| r.rel.as_str())
        .collect();
    if !unclean.is_empty() {
        println!("files with hexlens errors ({}):", unclean.len());
        for f in unclean.iter().take(20) {
            println!("  {f}");
        }
    }

    let mut problems: Vec<String> = reports.iter().flat_map(|r| r.problems.clone()).collect();
    let got: BTreeSet<String> = reports
        .iter()
        .filter(|r| !r.accepted)
        .map(|r| r.rel.clone())
        .collect();
    let documented = documented_failures(&corpus);
    if got != documented {
        problems.push(format!(
            "obj2yaml rejections differ from llvm19-obj2yaml-failures.txt: newly rejected {:?}, \
             no longer rejected {:?}",
            got.difference(&documented).collect::<Vec<_>>(),
            documented.difference(&got).collect::<Vec<_>>()
        ));
    }

    let mismatches: Vec<&Mismatch> = reports.iter().flat_map(|r| &r.mismatches).collect();
    let mut by_key: BTreeMap<String, (usize, &Mismatch)> = BTreeMap::new();
    for m in &mismatches {
        by_key.entry(pattern(&m.path)).or_insert((0, m)).0 += 1;
    }
    let mut report = String::new();
    if !mismatches.is_empty() {
        report.push_str(&format!("{} mismatches (first 50):\n", mismatches.len()));
        for m in mismatches.iter().take(50) {
            report.push_str(&format!(
                "  {}: {}: expected {} found {}\n",
                m.file, m.path, m.expected, m.found
            ));
        }
        report.push_str("per key:\n");
        for (key, (n, m)) in &by_key {
            report.push_str(&format!(
                "  {n:6} {key}  e.g. {}: expected {} found {}\n",
                m.file, m.expected, m.found
            ));
        }
    }
    if !problems.is_empty() {
        report.push_str(&format!("{} failed assertions:\n", problems.len()));
        for p in &problems {
            report.push_str(&format!("  {p}\n"));
        }
    }
    println!("{report}");
    println!("{totals}");
    println!("oracle run took {:.1} s", started.elapsed().as_secs_f64());
    assert!(
        mismatches.is_empty() && problems.is_empty(),
        "hexlens disagrees with obj2yaml-19\n{report}{totals}"
    );
}

#[test]
fn curated_samples_decode_cleanly_with_nested_spans() {
    let dir = repo::curated_dir();
    let files = repo::files_with_suffix(&dir, ".dxbc");
    assert!(
        files.len() >= 35,
        "expected the 35 curated samples under {}, found {}",
        dir.display(),
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {name}: {e}"));
        let d = decode_bytes(&bytes);
        if d.format != "dxcontainer" {
            failures.push(format!("{name}: decoded as {:?}", d.format));
        }
        for id in d.tree.errors() {
            failures.push(format!(
                "{name}: error at {}: {}",
                d.tree.path(id),
                d.tree.node(id).error.as_deref().unwrap_or_default()
            ));
        }
        let json = hexlens_core::output::to_json(&d);
        let v: serde_json::Value = match serde_json::from_str(&json) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{name}: JSON output does not parse: {e}"));
                continue;
            }
        };
        if v.get("file_size").and_then(serde_json::Value::as_u64) != Some(bytes.len() as u64) {
            failures.push(format!("{name}: JSON file_size is not {}", bytes.len()));
        }
        if v.get("tree").is_none() {
            failures.push(format!("{name}: JSON has no tree"));
        }
        if let Err(e) = d.tree.validate(bytes.len() as u64) {
            failures.push(format!("{name}: {e}"));
        }
        for (a, b) in d.tree.overlapping_siblings(0) {
            failures.push(format!(
                "{name}: siblings overlap: {} and {}",
                d.tree.path(a),
                d.tree.path(b)
            ));
        }
    }
    println!("curated: {} files checked", files.len());
    assert!(
        failures.is_empty(),
        "{} problems in curated samples:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
