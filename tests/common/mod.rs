//! Shared helpers for integration tests that need the shared sample corpus or
//! external oracle tools. Every helper fails loudly (panics with what to do)
//! rather than letting a test skip silently.

use std::path::{Path, PathBuf};

/// The repository root (the root package's manifest directory).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shared material directory: `$HEXLENS_SHARED` if set, else `<repo>/../shared`.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("HEXLENS_SHARED") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => repo_root().join("..").join("shared"),
    }
}

/// The vkd3d-proton DXContainer corpus. Panics if it is missing.
pub fn dxcontainer_corpus() -> PathBuf {
    let dir = shared_dir()
        .join("samples")
        .join("dxcontainer")
        .join("vkd3d-proton");
    assert!(
        dir.is_dir(),
        "DXContainer corpus not found at {} (set HEXLENS_SHARED to the shared/ directory, \
         or put shared/ beside the repository)",
        dir.display()
    );
    dir
}

/// The curated DXContainer fixtures committed in this repository.
pub fn curated_dir() -> PathBuf {
    repo_root()
        .join("tests")
        .join("fixtures")
        .join("dxcontainer")
        .join("curated")
}

/// Finds `obj2yaml-19` on PATH or in the Debian llvm-19 locations. Panics if missing.
pub fn obj2yaml_19() -> PathBuf {
    llvm19_tool("obj2yaml")
}

/// Finds `yaml2obj-19` on PATH or in the Debian llvm-19 locations. Panics if missing.
pub fn yaml2obj_19() -> PathBuf {
    llvm19_tool("yaml2obj")
}

/// LLVM 19's `tool`: `TOOL-19` on PATH, `/usr/bin/TOOL-19` or
/// `/usr/lib/llvm-19/bin/TOOL`. Panics if missing.
fn llvm19_tool(tool: &str) -> PathBuf {
    let versioned = format!("{tool}-19");
    let on_path = std::env::var_os("PATH")
        .map(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join(&versioned))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain([
            PathBuf::from("/usr/bin").join(&versioned),
            PathBuf::from("/usr/lib/llvm-19/bin").join(tool),
        ])
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "{versioned} not found (looked on PATH, /usr/bin/{versioned}, \
                 /usr/lib/llvm-19/bin/{tool}): run the project's setup (`bash .ci/run` \
                 installs llvm-19), or `apt-get install llvm-19`"
            )
        })
}

/// Every file under `dir` (recursively) whose name ends with `suffix`, sorted.
pub fn files_with_suffix(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries =
            std::fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot list {}: {e}", d.display()));
        for entry in entries {
            let path = entry
                .unwrap_or_else(|e| panic!("cannot list {}: {e}", d.display()))
                .path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(suffix))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// All shared DXContainer samples (every collection under `samples/dxcontainer`).
/// Panics if they are missing, so a test cannot pass vacuously.
pub fn dxcontainer_samples() -> PathBuf {
    let dir = shared_dir().join("samples").join("dxcontainer");
    assert!(
        dir.is_dir(),
        "shared samples not found at {} (set HEXLENS_SHARED to the shared/ directory)",
        dir.display()
    );
    dir
}

/// Every binary file under `dir`, recursively, in sorted order (text files such
/// as READMEs and provenance notes are left out). Panics if `dir`, or a folder
/// under it, cannot be listed: a missing folder is an error, never an empty list.
pub fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let rd =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    let mut entries: Vec<PathBuf> = rd
        .map(|e| {
            e.unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
                .path()
        })
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else if !matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("md" | "txt" | "json" | "yaml" | "yml" | "toml")
        ) {
            out.push(p);
        }
    }
}

/// `check(path, rel)` for every file of `files` (`rel`: its path below
/// `root`, with `/`), on `workers` threads; the results in file order.
pub fn for_each_file<T: Send>(
    files: &[std::path::PathBuf],
    root: &std::path::Path,
    workers: usize,
    check: impl Fn(&std::path::Path, &str) -> T + Sync,
) -> Vec<T> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let mut out: Vec<(usize, T)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(path) = files.get(i) else { break };
                        let rel = path
                            .strip_prefix(root)
                            .unwrap_or(path)
                            .to_string_lossy()
                            .replace('\\', "/");
                        mine.push((i, check(path, &rel)));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker panicked"))
            .collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}
