//! Where the tests' files are: the repository, its fixtures, the shared samples
//! beside it; and listing them. Every helper fails loudly (panics saying what to
//! do) rather than letting a test pass vacuously: a missing folder, or one
//! holding no file a list asks for, is an error, never an empty list.

use std::path::{Path, PathBuf};

/// The repository root (two levels above this crate's manifest).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/testkit lies two levels below the repository root")
        .to_path_buf()
}

/// The fixtures committed in this repository: `tests/fixtures`.
pub fn fixtures() -> PathBuf {
    root().join("tests").join("fixtures")
}

/// The shared material directory: `$HEXLENS_SHARED` if set, else `<repo>/../shared`.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("HEXLENS_SHARED") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => root().join("..").join("shared"),
    }
}

/// All shared DXContainer samples (every collection under `samples/dxcontainer`).
/// Panics if they are missing, so a test cannot pass vacuously.
pub fn dxcontainer_samples() -> PathBuf {
    let dir = shared_dir().join("samples").join("dxcontainer");
    assert!(
        dir.is_dir(),
        "shared samples not found at {} (set HEXLENS_SHARED to the shared/ directory, \
         or put shared/ beside the repository)",
        dir.display()
    );
    dir
}

/// The vkd3d-proton DXContainer corpus. Panics if it is missing.
pub fn dxcontainer_corpus() -> PathBuf {
    let dir = dxcontainer_samples().join("vkd3d-proton");
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
    fixtures().join("dxcontainer").join("curated")
}

/// The entries of `dir`, sorted. Panics if it cannot be listed.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let rd =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    let mut out: Vec<PathBuf> = rd
        .map(|e| {
            e.unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
                .path()
        })
        .collect();
    out.sort();
    out
}

/// Every file under `dir` (recursively) whose name ends with `suffix`, sorted.
/// Panics if `dir`, or a folder under it, cannot be listed, or if no file
/// matches.
pub fn files_with_suffix(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for path in entries(&d) {
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
    assert!(
        !out.is_empty(),
        "no file named *{suffix} under {}",
        dir.display()
    );
    out
}

/// Every binary file under `dir`, recursively, in sorted order (text files such
/// as READMEs and provenance notes are left out). Panics if `dir`, or a folder
/// under it, cannot be listed, or if it holds no such file.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for p in entries(dir) {
            if p.is_dir() {
                walk(&p, out);
            } else if !matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("md" | "txt" | "json" | "yaml" | "yml" | "toml")
            ) {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    assert!(!out.is_empty(), "no files under {}", dir.display());
    out
}

/// `check(path, rel)` for every file of `files` (`rel`: its path below
/// `root`, with `/`), on `workers` threads; the results in file order.
pub fn for_each_file<T: Send>(
    files: &[PathBuf],
    root: &Path,
    workers: usize,
    check: impl Fn(&Path, &str) -> T + Sync,
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
