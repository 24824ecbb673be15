//! Every program a test, benchmark, fuzz run or script starts by name is in
//! `scripts/tools.tsv`, the list the setup scripts install from and
//! `scripts/test.sh` checks before anything runs: a test cannot come to need a
//! program that a fresh machine is never given.
//!
//! The sources are read for the ways they start programs: Rust's
//! `Command::new("NAME")` and the LLVM tool lookups (`llvm_19_tool("NAME")`,
//! `llvm19_tool("NAME")`, which run `NAME-19`; `llvm_14_tool("NAME")`, which
//! runs `NAME-14`), JavaScript's `spawnSync`,
//! `execFileSync`, `spawn` and `execSync` with a literal name, and any literal
//! `/usr/bin/NAME` path.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The repository root (the root package's manifest directory).
fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The programs column of `scripts/tools.tsv`.
fn listed() -> BTreeSet<String> {
    let path = repo_root().join("scripts/tools.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = BTreeSet::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            cols.len(),
            5,
            "scripts/tools.tsv: 5 tab-separated columns in {line:?}"
        );
        let stages = ["base", "native", "web", "browser", "npm", "bench", "fuzz"];
        assert!(stages.contains(&cols[1]), "unknown stage in {line:?}");
        assert!(
            ["apt", "cargo", "npm", "rustup"].contains(&cols[2]),
            "unknown source in {line:?}"
        );
        assert!(out.insert(cols[0].to_string()), "{} listed twice", cols[0]);
    }
    out
}

/// The string literal starting right after `at` in `text` (`"…"` or `'…'`).
fn literal_at(text: &str, at: usize) -> Option<&str> {
    let rest = &text[at..];
    let q = rest.chars().next()?;
    if q != '"' && q != '\'' {
        return None;
    }
    let end = rest[1..].find(q)?;
    Some(&rest[1..1 + end])
}

/// The programs `text` starts by name.
fn programs_started(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let calls: [(&str, &str); 9] = [
        ("Command::new(", ""),
        ("llvm_19_tool(", "-19"),
        ("llvm_14_tool(", "-14"),
        ("llvm19_tool(", "-19"),
        ("spawnSync(", ""),
        ("execFileSync(", ""),
        ("execSync(", ""),
        ("spawn(", ""),
        ("exec(", ""),
    ];
    for (call, suffix) in calls {
        for (i, _) in text.match_indices(call) {
            // `spawnSync(` also holds `Sync(`; only whole names count.
            if text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            if let Some(name) = literal_at(text, i + call.len()) {
                let name = name.split_whitespace().next().unwrap_or("");
                let name = name.rsplit('/').next().unwrap_or(name);
                if !name.is_empty() {
                    out.insert(format!("{name}{suffix}"));
                }
            }
        }
    }
    for (i, _) in text.match_indices("/usr/bin/") {
        let name: String = text[i + 9..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            .collect();
        // A placeholder in a comment (`/usr/bin/TOOL-19`) names no program.
        if !name.is_empty()
            && !name.ends_with('-')
            && !name.contains(|c: char| c.is_ascii_uppercase())
        {
            out.insert(name);
        }
    }
    out
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let rd =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for e in rd {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            if !matches!(
                name.as_str(),
                "node_modules" | "target" | "fixtures" | "golden" | "corpus" | "artifacts"
            ) {
                sources(&p, out);
            }
        } else if [".rs", ".mjs", ".js", ".sh", ".py"]
            .iter()
            .any(|x| name.ends_with(x))
            && name != "tools_listed.rs"
        {
            out.push(p);
        }
    }
}

#[test]
fn every_program_the_tests_and_scripts_start_is_listed() {
    let listed = listed();
    let root = repo_root();
    let mut files = Vec::new();
    for d in ["tests", "crates", "bench", "scripts", "fuzz", "examples"] {
        sources(&root.join(d), &mut files);
    }
    assert!(files.len() > 50, "{} source files", files.len());
    let mut missing = Vec::new();
    let mut seen = BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for p in programs_started(&text) {
            if !listed.contains(&p) {
                missing.push(format!(
                    "{p} (run by {})",
                    f.strip_prefix(&root).unwrap().display()
                ));
            }
            seen.insert(p);
        }
    }
    assert!(
        missing.is_empty(),
        "not in scripts/tools.tsv:\n{}",
        missing.join("\n")
    );
    // The scan finds what the tests are known to run.
    for p in [
        "clang-19",
        "llvm-as-19",
        "llvm-dis-19",
        "python3",
        "base64",
        "script",
        "chromium",
    ] {
        assert!(seen.contains(p), "the scan no longer finds {p}: {seen:?}");
    }
}

#[test]
fn the_scan_finds_each_way_of_starting_a_program() {
    let text = r#"
        Command::new("clang-19").arg("x");
        Command::new(bcanalyzer::llvm_19_tool("llvm-dis"));
        llvm19_tool("obj2yaml")
        const r = spawnSync('nope-tool', ['a']);
        execFileSync("/opt/x/bin/other", []);
        mySpawn('not-a-program');
        executablePath: '/usr/bin/chromium',
    "#;
    let got: Vec<String> = programs_started(text).into_iter().collect();
    assert_eq!(
        got,
        [
            "chromium",
            "clang-19",
            "llvm-dis-19",
            "nope-tool",
            "obj2yaml-19",
            "other"
        ]
    );
    assert!(!listed().contains("nope-tool"));
}
