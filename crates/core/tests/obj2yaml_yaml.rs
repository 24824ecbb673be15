//! `hexlens dump --yaml` against LLVM 19's `obj2yaml` and `yaml2obj` on every
//! real DirectX Container in the shared vkd3d-proton corpus.
//!
//! For each file obj2yaml-19 accepts: hexlens's YAML must read as the same data
//! as obj2yaml's (both parsed with serde_yaml; the `!dxcontainer` tag is
//! dropped first, serde_yaml has no use for it), and no part mapping may be left
//! out. `yaml2obj-19` then builds a container from each of the two documents;
//! a build is counted as a round trip when it equals the original file byte for
//! byte. hexlens must round-trip at least as many files as obj2yaml, and every
//! file obj2yaml's YAML round-trips. (yaml2obj writes the parts obj2yaml 19
//! does not read — SHEX, ISGN, RDAT, … — as zero bytes, so most files do not
//! round-trip through either document.) hexlens's document must also be
//! obj2yaml's text byte for byte (same keys, order, value forms, padding and
//! line wrapping).
//!
//! For each file obj2yaml-19 rejects (a PSV0 part at an offset that is not a
//! multiple of 4, see `obj2yaml_oracle.rs`), hexlens must still write YAML that
//! parses; what yaml2obj-19 makes of it (the original file, another file, or an
//! error) is counted and printed, file by file.

use hexlens_core::formats::dxcontainer::yaml;
use hexlens_testkit::{generators::dxcontainer as gen, repo, tools};
use serde_yaml::Value as Y;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// How many files are checked at once (each runs obj2yaml and yaml2obj).
const WORKERS: usize = 2;

/// What yaml2obj-19 made of a YAML document.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Build {
    /// The original file, byte for byte.
    Identical,
    /// A container that differs from the original.
    Different,
    /// yaml2obj refused the document (its first line of stderr).
    Rejected(String),
}

/// The outcome for one corpus file.
#[derive(Default)]
struct FileReport {
    rel: String,
    accepted: bool,
    /// hexlens's text is obj2yaml's, byte for byte.
    same_text: bool,
    obj2yaml_build: Option<Build>,
    hexlens_build: Option<Build>,
    problems: Vec<String>,
}

/// Runs yaml2obj-19 on `text` and compares what it builds with `original`.
fn build(yaml2obj: &Path, text: &str, original: &[u8]) -> Build {
    let mut child = Command::new(yaml2obj)
        .args(["-o", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", yaml2obj.display()));
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = text.as_bytes().to_vec();
    // Written from another thread so a full stdout pipe cannot deadlock us.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", yaml2obj.display()));
    writer
        .join()
        .expect("writer thread")
        .unwrap_or_else(|e| panic!("cannot feed {}: {e}", yaml2obj.display()));
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Build::Rejected(err.lines().next().unwrap_or("(no message)").to_string());
    }
    if out.stdout == original {
        Build::Identical
    } else {
        Build::Different
    }
}

/// The document as data: the `!dxcontainer` tag dropped, then parsed.
fn parse(text: &str) -> Result<Y, String> {
    let untagged = text.replacen("--- !dxcontainer", "---", 1);
    serde_yaml::from_str(&untagged).map_err(|e| e.to_string())
}

/// The first place two YAML values differ, as a path and both sides.
fn first_difference(a: &Y, b: &Y, path: &str) -> Option<String> {
    match (a, b) {
        (Y::Mapping(ma), Y::Mapping(mb)) => {
            let keys_a: Vec<&Y> = ma.keys().collect();
            let keys_b: Vec<&Y> = mb.keys().collect();
            if keys_a != keys_b {
                return Some(format!("{path}: keys {keys_a:?} vs {keys_b:?}"));
            }
            ma.iter().find_map(|(k, va)| {
                let key = k.as_str().map_or_else(|| format!("{k:?}"), str::to_string);
                first_difference(va, &mb[k], &format!("{path}/{key}"))
            })
        }
        (Y::Sequence(sa), Y::Sequence(sb)) => {
            if sa.len() != sb.len() {
                return Some(format!("{path}: {} items vs {}", sa.len(), sb.len()));
            }
            sa.iter()
                .zip(sb)
                .enumerate()
                .find_map(|(i, (x, y))| first_difference(x, y, &format!("{path}/[{i}]")))
        }
        _ if a == b => None,
        _ => Some(format!("{path}: {a:?} vs {b:?}")),
    }
}

/// Runs the checks on `files` with [`WORKERS`] threads, in file order.
fn check_all(files: &[PathBuf], root: &Path, obj2yaml: &Path, yaml2obj: &Path) -> Vec<FileReport> {
    repo::for_each_file(files, root, WORKERS, |path, rel| {
        check_file(path, rel, obj2yaml, yaml2obj)
    })
}

fn check_file(path: &Path, rel: &str, obj2yaml: &Path, yaml2obj: &Path) -> FileReport {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {rel}: {e}"));
    let mut r = FileReport {
        rel: rel.to_string(),
        ..FileReport::default()
    };
    let ours = match yaml::dump(&bytes.as_slice()) {
        Ok(y) => y,
        Err(e) => {
            r.problems
                .push(format!("{rel}: hexlens wrote no YAML: {e}"));
            return r;
        }
    };
    let ours_data = match parse(&ours.text) {
        Ok(v) => Some(v),
        Err(e) => {
            r.problems
                .push(format!("{rel}: hexlens's YAML does not parse: {e}"));
            None
        }
    };
    let out = Command::new(obj2yaml)
        .arg(path)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", obj2yaml.display()));
    r.accepted = out.status.success();
    if r.accepted {
        if !ours.left_out.is_empty() {
            r.problems.push(format!(
                "{rel}: hexlens left part mappings out: {}",
                ours.left_out.join("; ")
            ));
        }
        let theirs = String::from_utf8_lossy(&out.stdout).into_owned();
        r.same_text = theirs == ours.text;
        if !r.same_text {
            let (n, (a, b)) = theirs
                .lines()
                .chain(std::iter::repeat("(end)"))
                .zip(ours.text.lines().chain(std::iter::repeat("(end)")))
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .unwrap_or((0, ("?", "?")));
            r.problems.push(format!(
                "{rel}: hexlens's text differs from obj2yaml's at line {}: {a:?} vs {b:?}",
                n + 1
            ));
        }
        match (parse(&theirs), &ours_data) {
            (Err(e), _) => r
                .problems
                .push(format!("{rel}: obj2yaml's YAML does not parse: {e}")),
            (Ok(t), Some(o)) => {
                if let Some(d) = first_difference(&t, o, "") {
                    r.problems.push(format!(
                        "{rel}: hexlens's YAML differs from obj2yaml's (obj2yaml vs hexlens) at {d}"
                    ));
                }
            }
            (Ok(_), None) => {}
        }
        r.obj2yaml_build = Some(build(yaml2obj, &theirs, &bytes));
    }
    if ours_data.is_some() {
        r.hexlens_build = Some(build(yaml2obj, &ours.text, &bytes));
    }
    r
}

#[test]
fn hexlens_yaml_is_obj2yaml_19s_and_yaml2obj_19_builds_the_same_files_from_it() {
    let started = Instant::now();
    let corpus = repo::dxcontainer_corpus();
    let obj2yaml = tools::obj2yaml_19();
    let yaml2obj = tools::yaml2obj_19();
    let files = repo::files_with_suffix(&corpus, ".dxbc");
    assert!(
        !files.is_empty(),
        "no *.dxbc files under {}",
        corpus.display()
    );

    let reports = check_all(&files, &corpus, &obj2yaml, &yaml2obj);

    let accepted: Vec<&FileReport> = reports.iter().filter(|r| r.accepted).collect();
    let rejected: Vec<&FileReport> = reports.iter().filter(|r| !r.accepted).collect();
    let mut problems: Vec<String> = reports.iter().flat_map(|r| r.problems.clone()).collect();

    let count =
        |rs: &[&FileReport], f: &dyn Fn(&FileReport) -> bool| rs.iter().filter(|r| f(r)).count();
    let same_text = count(&accepted, &|r| r.same_text);
    let theirs_identical = count(&accepted, &|r| r.obj2yaml_build == Some(Build::Identical));
    let theirs_built = count(&accepted, &|r| {
        matches!(r.obj2yaml_build, Some(Build::Identical | Build::Different))
    });
    let ours_identical = count(&accepted, &|r| r.hexlens_build == Some(Build::Identical));
    let ours_built = count(&accepted, &|r| {
        matches!(r.hexlens_build, Some(Build::Identical | Build::Different))
    });
    for r in &accepted {
        if r.obj2yaml_build == Some(Build::Identical) && r.hexlens_build != Some(Build::Identical) {
            problems.push(format!(
                "{}: yaml2obj-19 rebuilds the file from obj2yaml's YAML but not from hexlens's ({:?})",
                r.rel, r.hexlens_build
            ));
        }
    }
    if ours_identical < theirs_identical {
        problems.push(format!(
            "hexlens's YAML round-trips {ours_identical} files, obj2yaml's {theirs_identical}"
        ));
    }

    println!("files obj2yaml-19 rejects; what yaml2obj-19 makes of hexlens's YAML:");
    for r in &rejected {
        let what = match &r.hexlens_build {
            Some(Build::Identical) => "builds the original file byte for byte".to_string(),
            Some(Build::Different) => "builds a different file".to_string(),
            Some(Build::Rejected(e)) => format!("rejects it: {e}"),
            None => "not run (hexlens wrote no YAML that parses)".to_string(),
        };
        println!("  {}: {what}", r.rel);
    }
    let rej_identical = count(&rejected, &|r| r.hexlens_build == Some(Build::Identical));
    let rej_different = count(&rejected, &|r| r.hexlens_build == Some(Build::Different));
    let rej_refused = count(&rejected, &|r| {
        matches!(r.hexlens_build, Some(Build::Rejected(_)))
    });
    let rej_parsed = count(&rejected, &|r| r.hexlens_build.is_some());

    let totals = format!(
        "files in corpus: {}\n\
         obj2yaml-19 accepts {}: hexlens's YAML is the same data for {} (problems in the rest are listed above), \
         the same text byte for byte for {same_text}\n\
         yaml2obj-19 on obj2yaml's YAML: {theirs_built} built, {theirs_identical} byte-identical to the original\n\
         yaml2obj-19 on hexlens's YAML:  {ours_built} built, {ours_identical} byte-identical to the original\n\
         obj2yaml-19 rejects {}: hexlens's YAML parses for {rej_parsed}; yaml2obj-19 on it: \
         {rej_identical} identical to the original, {rej_different} different, {rej_refused} rejected",
        reports.len(),
        accepted.len(),
        accepted.len() - count(&accepted, &|r| !r.problems.is_empty()),
        rejected.len(),
    );
    for p in problems.iter().take(50) {
        println!("PROBLEM {p}");
    }
    println!("{totals}");
    println!("run took {:.1} s", started.elapsed().as_secs_f64());
    assert_eq!(rej_parsed, rejected.len(), "{totals}");
    assert!(
        problems.is_empty(),
        "{} problems (first 50 above)\n{totals}",
        problems.len()
    );
}

/// The repository's DXContainer fixtures: the generated ones (PSV v0, a
/// RuntimeInfo larger than v3, SYM0/STR0, containers from PDBs, damaged
/// files) and the curated real samples. Those obj2yaml-19 accepts get the same
/// checks as the corpus; the others (damaged on purpose) must still get YAML
/// that parses, with any part mapping hexlens could not write named.
#[test]
fn hexlens_yaml_is_obj2yaml_19s_for_the_repository_fixtures() {
    let obj2yaml = tools::obj2yaml_19();
    let yaml2obj = tools::yaml2obj_19();
    let root = repo::fixtures();
    let mut files = repo::files_with_suffix(&root.join("dxcontainer/generated"), ".dxbc");
    files.extend(repo::files_with_suffix(&repo::curated_dir(), ".dxbc"));
    assert!(
        files.len() >= 45,
        "{} fixtures under {}",
        files.len(),
        root.display()
    );
    let reports = check_all(&files, &root, &obj2yaml, &yaml2obj);
    let mut problems: Vec<String> = reports.iter().flat_map(|r| r.problems.clone()).collect();
    for r in &reports {
        if r.obj2yaml_build == Some(Build::Identical) && r.hexlens_build != Some(Build::Identical) {
            problems.push(format!(
                "{}: yaml2obj-19 rebuilds it from obj2yaml's YAML only",
                r.rel
            ));
        }
    }
    let accepted = reports.iter().filter(|r| r.accepted).count();
    let identical = reports
        .iter()
        .filter(|r| r.hexlens_build == Some(Build::Identical))
        .count();
    for r in reports.iter().filter(|r| !r.accepted) {
        println!(
            "  rejected by obj2yaml-19: {}: yaml2obj-19 on hexlens's YAML: {:?}",
            r.rel, r.hexlens_build
        );
    }
    println!(
        "fixtures: {}; obj2yaml-19 accepts {accepted}, all with the same text: {}; \
         yaml2obj-19 rebuilds {identical} byte for byte from hexlens's YAML",
        reports.len(),
        problems.is_empty()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        reports.iter().all(|r| r.hexlens_build.is_some()),
        "a fixture got no YAML that parses"
    );
}

/// A DXBC container holding `parts` (FourCC, data), with a zero hash.
fn container(parts: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    let parts: Vec<gen::Part> = parts.iter().map(|(n, d)| gen::part(n, d.clone())).collect();
    gen::container(&parts)
}

/// Cases the corpus lacks, where obj2yaml-19 leaves a mapping out or writes
/// it in an unusual form: a HASH part of zeros (no `Hash`), one with only a
/// reserved flag set (bit 1: `Hash` is written, the flag is not), one with
/// only a digest byte set, SFI0 with no flag (no `Flags`), with only bit 32 set (which LLVM
/// 19 has no key for: `Flags` with every key false), with bit 31 (LLVM 19's
/// `NextUnusedBit`), an empty signature, a part hexlens and LLVM do not know,
/// and no parts at all.
#[test]
fn hexlens_yaml_is_obj2yaml_19s_for_parts_written_in_unusual_forms() {
    let obj2yaml = tools::obj2yaml_19();
    let yaml2obj = tools::yaml2obj_19();
    let mut hash_flag = vec![0u8; 20];
    hash_flag[0] = 2;
    let mut hash_digest = vec![0u8; 20];
    hash_digest[19] = 0xAB;
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("zero_hash", container(&[(b"HASH", vec![0; 20])])),
        ("hash_reserved_flag", container(&[(b"HASH", hash_flag)])),
        ("hash_digest_only", container(&[(b"HASH", hash_digest)])),
        ("sfi0_zero", container(&[(b"SFI0", vec![0; 8])])),
        (
            "sfi0_bit32",
            container(&[(b"SFI0", (1u64 << 32).to_le_bytes().to_vec())]),
        ),
        (
            "sfi0_bits_0_31",
            container(&[(b"SFI0", (1u64 | 1 << 31).to_le_bytes().to_vec())]),
        ),
        (
            "empty_signatures",
            container(&[
                (b"ISG1", [0u32.to_le_bytes(), 8u32.to_le_bytes()].concat()),
                (b"OSG1", [0u32.to_le_bytes(), 8u32.to_le_bytes()].concat()),
            ]),
        ),
        ("unknown_part", container(&[(b"ABCD", vec![1, 2, 3, 4])])),
        ("no_parts", container(&[])),
    ];
    let dir = tools::scratch_dir("yaml-cases");
    let files: Vec<PathBuf> = cases
        .iter()
        .map(|(name, bytes)| {
            let p = dir.join(format!("{name}.dxbc"));
            std::fs::write(&p, bytes).unwrap();
            p
        })
        .collect();
    let reports = check_all(&files, &dir, &obj2yaml, &yaml2obj);
    std::fs::remove_dir_all(&dir).unwrap();
    let mut problems: Vec<String> = reports.iter().flat_map(|r| r.problems.clone()).collect();
    for r in &reports {
        if !r.accepted {
            problems.push(format!("{}: obj2yaml-19 rejects it", r.rel));
        }
        if r.obj2yaml_build == Some(Build::Identical) && r.hexlens_build != Some(Build::Identical) {
            problems.push(format!(
                "{}: yaml2obj-19 rebuilds it from obj2yaml's YAML only",
                r.rel
            ));
        }
        println!(
            "  {}: same text {}; yaml2obj-19 on hexlens's YAML: {:?}",
            r.rel, r.same_text, r.hexlens_build
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
