//! The external programs the oracle tests run, found where the project's setup
//! installs them (every one is listed in `scripts/tools.tsv`). A missing program
//! fails the test that needs it, saying how to install it: tests never skip.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// An LLVM 19 tool, `name` without the version (`llvm-as`, `obj2yaml`): on
/// PATH as `NAME-19`, else `/usr/bin/NAME-19` or `/usr/lib/llvm-19/bin/NAME`
/// (Debian's llvm-19). Panics if missing.
pub fn llvm_19_tool(name: &str) -> PathBuf {
    let versioned = format!("{name}-19");
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
            PathBuf::from("/usr/lib/llvm-19/bin").join(name),
        ])
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "{versioned} not found (looked on PATH, /usr/bin/{versioned}, \
                 /usr/lib/llvm-19/bin/{name}): run scripts/setup-native.sh or the project's \
                 setup (`bash .ci/run`), which install Debian's llvm-19, or \
                 `apt-get install llvm-19`"
            )
        })
}

/// `llvm-dis-14`, which reads DXC's DXIL bitcode unpatched: on PATH, else
/// `/usr/bin/llvm-dis-14` or `/usr/lib/llvm-14/bin/llvm-dis` (Debian's
/// llvm-14). Panics if missing.
pub fn llvm_dis_14() -> PathBuf {
    llvm_14_tool("llvm-dis")
}

/// LLVM 14's NAME (`llvm-as`, `llvm-dis`): NAME-14 on PATH, else
/// /usr/bin/NAME-14 or /usr/lib/llvm-14/bin/NAME (Debian's llvm-14).
/// Panics if missing.
pub fn llvm_14_tool(name: &str) -> PathBuf {
    let versioned = format!("{name}-14");
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
            PathBuf::from(format!("/usr/bin/{versioned}")),
            PathBuf::from(format!("/usr/lib/llvm-14/bin/{name}")),
        ])
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "{versioned} not found: run scripts/setup-native.sh or the project's setup \
                 (`bash .ci/run`), which install Debian's llvm-14, or `apt-get install llvm-14`"
            )
        })
}

/// `obj2yaml-19`. Panics if missing.
pub fn obj2yaml_19() -> PathBuf {
    llvm_19_tool("obj2yaml")
}

/// `yaml2obj-19`. Panics if missing.
pub fn yaml2obj_19() -> PathBuf {
    llvm_19_tool("yaml2obj")
}

/// `llvm-bcanalyzer-19`. Panics if missing.
pub fn bcanalyzer_19() -> PathBuf {
    llvm_19_tool("llvm-bcanalyzer")
}

/// A scratch directory of this process's own, `hexlens-TAG-PID` in the system's
/// temporary directory (created if missing).
pub fn scratch_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hexlens-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

/// Runs `llvm-as-19 LL -o BC`. Panics, with its standard error, if it fails.
pub fn llvm_as(ll: &Path, bc: &Path) {
    let out = Command::new(llvm_19_tool("llvm-as"))
        .arg(ll)
        .arg("-o")
        .arg(bc)
        .output()
        .unwrap_or_else(|e| panic!("cannot run llvm-as-19: {e}"));
    assert!(
        out.status.success(),
        "llvm-as-19 failed on {}: {}",
        ll.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The bitcode `llvm-as-19` assembles from the IR text `ir` (written to a
/// scratch directory named after `stem`, removed afterwards).
pub fn assemble(ir: &str, stem: &str) -> Vec<u8> {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, Ordering::Relaxed);
    let dir = scratch_dir(&format!("{stem}-{n}"));
    let ll = dir.join(format!("{stem}.ll"));
    let bc = dir.join(format!("{stem}.bc"));
    std::fs::write(&ll, ir).unwrap_or_else(|e| panic!("{}: {e}", ll.display()));
    llvm_as(&ll, &bc);
    let bytes = std::fs::read(&bc).unwrap_or_else(|e| panic!("{}: {e}", bc.display()));
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}
