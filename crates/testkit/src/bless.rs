//! The one writer of the files tests compare against — generated fixtures,
//! files other programs write, golden dumps: with `HEXLENS_BLESS=1` set it
//! rewrites them (when a change is intended); otherwise it lists every file
//! that differs from what was made. Every such check goes through here: the
//! core's tests and the CLI's golden dumps alike.

use std::path::Path;

/// True when the expected files are to be rewritten (`HEXLENS_BLESS` set).
pub fn blessing() -> bool {
    std::env::var_os("HEXLENS_BLESS").is_some()
}

/// Compares each `(name, bytes)` with the file `dir/name`, writing it first
/// when blessing; panics listing every file that is missing or differs, and
/// says what makes them (`made_by`: "the generator", "hexlens dump", …).
pub fn check_current<N: AsRef<str>>(
    dir: &Path,
    files: impl IntoIterator<Item = (N, Vec<u8>)>,
    made_by: &str,
) {
    let bless = blessing();
    if bless {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    let mut stale = Vec::new();
    let mut count = 0;
    for (name, bytes) in files {
        count += 1;
        let path = dir.join(name.as_ref());
        if bless {
            std::fs::write(&path, &bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        match std::fs::read(&path) {
            Ok(on_disk) if on_disk == bytes => {}
            Ok(on_disk) => stale.push(format!(
                "{} differs{}",
                path.display(),
                first_difference(&on_disk, &bytes)
            )),
            Err(e) => stale.push(format!("{}: {e}", path.display())),
        }
    }
    assert!(
        count > 0,
        "nothing to compare with the files in {}",
        dir.display()
    );
    assert!(
        stale.is_empty(),
        "{} of {count} files are not what {made_by} makes (HEXLENS_BLESS=1 rewrites them if the change is intended):\n{}",
        stale.len(),
        stale.join("\n")
    );
}

/// Where text `made` first differs from `on_disk`, with the lines there.
fn first_difference(on_disk: &[u8], made: &[u8]) -> String {
    let (Ok(a), Ok(b)) = (std::str::from_utf8(on_disk), std::str::from_utf8(made)) else {
        return String::new();
    };
    let line = a
        .lines()
        .zip(b.lines())
        .position(|(x, y)| x != y)
        .unwrap_or(a.lines().count().min(b.lines().count()));
    let show = |s: &str| {
        s.lines()
            .nth(line)
            .unwrap_or("(end)")
            .chars()
            .take(200)
            .collect::<String>()
    };
    format!(
        " at line {}:\n  on disk: {}\n  made:    {}",
        line + 1,
        show(a),
        show(b)
    )
}
